#!/usr/bin/env python3
"""Bootstrap generator for crates/rdna3-isa/src/table.rs.

Surveys llvm-mc-19 (-mcpu=gfx1100) by disassembling every opcode value of every format in scope
with distinct register numbers in each encoding field, so that the mnemonic, which fields each
printed operand comes from, and each register operand's width all come from the oracle.
The table it writes is the project's source of truth afterwards (edit it by hand; one line per
instruction); re-run this only to re-survey:  python3 tools/gen_table.py > crates/rdna3-isa/src/table.rs
"""
import itertools, os, re, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from table_rows import print_table  # noqa: E402

MC = ['llvm-mc-19', '-triple=amdgcn', '-mcpu=gfx1100', '--disassemble']

def dis(words):
    inp = ','.join('0x%02x' % b for b in words) + '\n'
    p = subprocess.run(MC, input=inp, capture_output=True, text=True)
    t = [l.strip() for l in p.stdout.split('\n') if l.strip() and '.text' not in l]
    return t[0] if t and 'warning' not in p.stderr else None

def le(w, n):
    return [(w >> (8 * i)) & 0xff for i in range(n)]

def regs(text):
    """Operands of a printed instruction as (kind, base, dwords) or raw strings."""
    body = text.split(None, 1)[1] if ' ' in text else ''
    out = []
    for tok in re.findall(r'([sv])(\d+)|([sv])\[(\d+):(\d+)\]', body):
        if tok[0]:
            out.append((tok[0], int(tok[1]), 1))
        else:
            out.append((tok[2], int(tok[3]), int(tok[4]) - int(tok[3]) + 1))
    return out

rows = []   # (format, opcode, name, [(field, kind)], flags)

# DS instructions llvm-mc-19 refuses to assemble or decode with the gds bit.
NO_GDS = {'ds_nop', 'ds_bvh_stack_rtn_b32', 'ds_permute_b32', 'ds_bpermute_b32'}
# SOP1 sources llvm-mc-19 accepts only as registers (it marks constants "Invalid immediate").
SSRC_REG_ONLY = {'s_setpc_b64', 's_rfe_b64', 's_movrels_b32', 's_movrels_b64'}

def width(text, base, kind='v'):
    for k, b, n in regs(text):
        if k == kind and b == base:
            return n
    return None

# ---- scalar ALU formats ----
SOPP_STYLE = {
    's_nop': 'Dec', 's_setkill': 'Dec', 's_sethalt': 'Dec', 's_sleep': 'Dec', 's_trap': 'Dec',
    's_denorm_mode': 'Dec', 's_setprio': 'Dec', 's_incperflevel': 'Dec', 's_decperflevel': 'Dec',
    's_set_inst_prefetch_distance': 'Hex', 's_clause': 'Hex', 's_wait_event': 'Hex',
    's_round_mode': 'Hex', 's_ttracedata_imm': 'Hex',
    's_delay_alu': 'DelayAlu', 's_waitcnt_depctr': 'Depctr', 's_waitcnt': 'Waitcnt',
    's_sendmsg': 'Sendmsg', 's_sendmsghalt': 'Sendmsg',
}

def survey_sop():
    # SOP2: op 0..0x5f (higher values are SOPK/SOP1/SOPC/SOPP encodings)
    for op in range(0x60):
        t = dis(le(0x80000000 | (op << 23) | (30 << 16) | (20 << 8) | 10, 4))
        if not t:
            continue
        name = t.split()[0]
        rows.append(('Sop2', op, name, [('Sdst', 'S(%d)' % width(t, 30, 's')), ('Ssrc0', 'Ssrc(%d)' % width(t, 10, 's')), ('Ssrc1', 'Ssrc(%d)' % width(t, 20, 's'))], []))
    for op in range(0x1d):
        w = le(0xB0000000 | (op << 23) | (30 << 16) | 0x1234, 4)
        t = dis(w) or dis(w + [0x78, 0x56, 0x34, 0x12]) or dis(le(0xB0000000 | (op << 23) | 0x1234, 4))
        if not t:
            continue
        name = t.split()[0]
        if name == 's_getreg_b32':
            ops = [('Sdst', 'S(1)'), ('Simm16', 'Imm(Hwreg)')]
        elif name == 's_setreg_b32':
            ops = [('Simm16', 'Imm(Hwreg)'), ('Sdst', 'S(1)')]
        elif name == 's_setreg_imm32_b32':
            ops = [('Simm16', 'Imm(Hwreg)'), ('Literal', 'Lit32')]
        elif name == 's_version':
            ops = [('Simm16', 'Imm(Version)')]
        elif name == 's_call_b64':
            ops = [('Sdst', 'S(2)'), ('Simm16', 'Imm(Label)')]
        elif name.startswith('s_subvector_loop'):
            ops = [('Sdst', 'S(1)'), ('Simm16', 'Imm(Label)')]
        else:
            ops = [('Sdst', 'S(1)'), ('Simm16', 'Imm(Hex)')]
        rows.append(('Sopk', op, name, ops, []))
    for op in range(256):
        t = dis(le(0xBE800000 | (op << 8) | (30 << 16) | 10, 4)) or dis(le(0xBE800000 | (op << 8) | 10, 4)) or dis(le(0xBE800000 | (op << 8) | (30 << 16), 4))
        if not t:
            continue
        name = t.split()[0]
        ops = []
        if width(t, 30, 's'):
            ops.append(('Sdst', 'S(%d)' % width(t, 30, 's')))
        if 'sendmsg(' in t:
            ops.append(('Ssrc0', 'SendmsgRtn'))
        elif width(t, 10, 's'):
            kind = 'SsrcReg' if name in SSRC_REG_ONLY else 'Ssrc'
            ops.append(('Ssrc0', '%s(%d)' % (kind, width(t, 10, 's'))))
        rows.append(('Sop1', op, name, ops, []))
    for op in range(128):
        t = dis(le(0xBF000000 | (op << 16) | (20 << 8) | 10, 4))
        if not t:
            continue
        rows.append(('Sopc', op, t.split()[0], [('Ssrc0', 'Ssrc(%d)' % width(t, 10, 's')), ('Ssrc1', 'Ssrc(%d)' % width(t, 20, 's'))], []))
    for op in range(128):
        t = dis(le(0xBF800000 | (op << 16) | 3, 4)) or dis(le(0xBF800000 | (op << 16), 4))
        if not t:
            continue
        name = t.split()[0]
        if name.startswith('s_branch') or name.startswith('s_cbranch'):
            ops = [('Simm16', 'Imm(Label)')]
        elif ' ' in t and name in SOPP_STYLE:
            ops = [('Simm16', 'Imm(%s)' % SOPP_STYLE[name])]
        elif name == 's_endpgm':
            ops = [('Simm16', 'Imm(DecOptional)')]
        elif ' ' in t:
            sys.exit('unclassified SOPP ' + t)
        else:
            ops = []
        rows.append(('Sopp', op, name, ops, []))

def survey_smem():
    for op in range(256):
        t = dis(le(0xF4000000 | (op << 18) | (32 << 6) | 5 | (20 << 57), 8)) or dis(le(0xF4000000 | (op << 18), 8))
        if not t or t.startswith('v_'):
            continue
        name = t.split()[0]
        if name in ('s_gl1_inv', 's_dcache_inv'):
            ops = []
        else:
            base = 4 if 'buffer' in name else 2
            first = ('Sdata', 'SmemProbe') if 'atc_probe' in name else ('Sdata', 'S(%d)' % width(t, 32, 's'))
            ops = [first, ('Sbase', 'SBase(%d)' % base), ('Soffset', 'SmemOffset')]
        rows.append(('Smem', op, name, ops, []))

def survey_ds():
    F = {'Addr': (32, 10), 'Data0': (40, 20), 'Data1': (48, 30), 'Vdst': (56, 40)}
    for op in range(256):
        found = None
        for gds in (0, 1):
            for k in range(4, -1, -1):
                subs = list(itertools.combinations(['Addr', 'Data0', 'Data1', 'Vdst'], k))
                if k == 1:   # prefer data0 over addr when either decodes alone
                    subs.sort(key=lambda s: s != ('Data0',))
                for sub in subs:
                    w = 0xD8000000 | (op << 18) | (gds << 17)
                    for s in sub:
                        w |= F[s][1] << F[s][0]
                    t = dis(le(w, 8))
                    if t and t.startswith('ds_'):
                        found = (sub, t, gds)
                        break
                if found:
                    break
            if found:
                break
        if not found:
            continue
        sub, t, gds = found
        name = t.split()[0]
        order = ['Vdst', 'Addr', 'Data0', 'Data1']
        ops = [(f, 'V(%d)' % width(t, F[f][1])) for f in order if f in sub]
        flags = []
        if gds:
            flags.append('GDS_ONLY')
        if '2addr' in name:
            flags.append('OFFSET_PAIR')
        if name == 'ds_swizzle_b32':
            flags.append('SWIZZLE')
        if name in NO_GDS:
            flags.append('NO_GDS')
        rows.append(('Ds', op, name, ops, flags))

def survey_flat():
    for seg, fmt in ((0, 'Flat'), (1, 'Scratch'), (2, 'Global')):
        for op in range(128):
            sve = 1 if seg == 1 else 0
            w = 0xDC000000 | (op << 18) | (seg << 16) | (10 << 32) | (20 << 40) | (0x7c << 48) | (sve << 55) | (40 << 56)
            t = dis(le(w, 8))
            if not t or t.startswith('v_'):
                continue
            name = t.split()[0]
            ops = []
            vd = width(t, 40)
            dd = width(t, 20)
            if 'atomic' in name:
                # with glc the instruction returns the pre-op value: probe the returning width
                tr = dis(le(w | (1 << 14), 8))
                ops.append(('Vdst', 'VRtn(%d)' % width(tr, 40)))
            elif vd:
                ops.append(('Vdst', 'V(%d)' % vd))
            if 'addtid' not in name:
                ops.append(('Addr', 'FlatVaddr'))
            if dd:
                ops.append(('Data0', 'V(%d)' % dd))
            if fmt != 'Flat':
                ops.append(('Saddr', 'FlatSaddr'))
            rows.append((fmt, op, name, ops, ['ATOMIC'] if 'atomic' in name else []))

def survey_buf():
    for op in range(256):
        w = 0xE0000000 | (op << 18) | (10 << 32) | (20 << 40) | (2 << 48) | (1 << 54) | (30 << 56)
        t = dis(le(w, 8)) or dis(le(0xE0000000 | (op << 18), 8))
        if not t or t.startswith('v_'):
            continue
        name = t.split()[0]
        if name in ('buffer_gl0_inv', 'buffer_gl1_inv'):
            ops = []
        else:
            ops = []
            dd = width(t, 20)
            if dd:
                ops.append(('Vdata', 'V(%d)' % dd))
            ops += [('Vaddr', 'BufVaddr'), ('Srsrc', 'Rsrc'), ('Soffset', 'BufSoffset')]
        flags = ['ATOMIC'] if 'atomic' in name else []
        if 'buffer_load_lds' in name:
            flags.append('LDS')
        rows.append(('Mubuf', op, name, ops, flags))
    for op in range(16):
        w = 0xE8000000 | (op << 15) | (1 << 19) | (10 << 32) | (20 << 40) | (2 << 48) | (1 << 54) | (30 << 56)
        t = dis(le(w, 8))
        if not t:
            continue
        rows.append(('Mtbuf', op, t.split()[0], [('Vdata', 'V(%d)' % width(t, 20)), ('Vaddr', 'BufVaddr'), ('Srsrc', 'Rsrc'), ('Soffset', 'BufSoffset')], []))

def survey_lds_interp():
    for op in range(4):
        t = dis(le(0xCE000000 | (op << 20) | 40 | (2 << 8) | (5 << 10) | (3 << 16), 4))
        if t:
            name = t.split()[0]
            ops = [('Vdst', 'V(1)')] + ([('Attr', 'AttrName')] if 'param' in name else [])
            rows.append(('Ldsdir', op, name, ops, []))
    for op in range(128):
        t = dis(le(0xCD000000 | (op << 16) | 40 | ((256 + 10) << 32) | ((256 + 20) << 41) | ((256 + 30) << 50), 8))
        if t and t.startswith('v_interp'):
            name = t.split()[0]
            flags = ['OP_SEL'] if 'f16' in name else []
            rows.append(('Vinterp', op, name, [('Vdst', 'V(1)'), ('Src0', 'VinterpSrc(0)'), ('Src1', 'VinterpSrc(1)'), ('Src2', 'VinterpSrc(2)')], flags))

def src_type(base):
    """How llvm-mc-19 prints the 9-bit source at bits [8:0] of `base`, read off probes:
    B32, F16, I16, F64, B64, PackedF16 or VgprOnly."""
    def arg(t):
        return t.split(None, 1)[1].split(', ') if t else []
    def probe(src, lit=None):
        t = dis(le(base | src, 4) + (le(lit, 4) if lit is not None else []))
        return t or ''
    s = probe(5)
    if 'Invalid register' in s:
        return 'VgprOnly'
    if '0.15915494309189532' in probe(248):
        return 'B64' if ' 64' in probe(255, 0x40) else 'F64'
    lit16 = probe(255, 0x3c00)
    lit = probe(255, 0x12345678)
    if '0x12345678' not in lit:
        return 'F16' if '1.0' in lit16 else 'I16'
    if '1.0' in lit16:
        return 'PackedF16'
    return 'B32'

def survey_vop_e32():
    for op in range(256):
        base = 0x7e000000 | (op << 9) | (40 << 17)
        t = dis(le(base | (256 + 10), 4))
        if not t or t.startswith('v_illegal'):
            continue
        name = t.split()[0]
        ops = []
        if ' s40' in t:
            ops.append(('Vdst', 'S(1)'))
        elif width(t, 40):
            ops.append(('Vdst', 'VLoHi(1)' if '.l' in t else 'V(%d)' % width(t, 40)))
        if width(t, 10) or '.l' in t:
            ty = src_type(base)
            n = width(t, 10) or 1
            ops.append(('Src0', 'VSrc(%d, %s)' % (n, 'B16LoHi' if '.l' in t else ty)))
        flags = ['FAKE16'] if dis(le(0x7e000000 | (op << 9) | (200 << 17) | (256 + 10), 4)) is None and '.l' not in t and width(t, 40) else []
        rows.append(('Vop1', op, name, ops, flags))
    for op in range(0x3e):
        base = (op << 25) | (40 << 17) | (20 << 9)
        t = dis(le(base | (256 + 10), 4))
        k = None
        if not t:
            t = dis(le(base | (256 + 10), 4) + le(0x3f800000, 4))
            k = t
        if not t or t.startswith('v_illegal'):
            continue
        name = t.split()[0]
        args = t.split(None, 1)[1].split(', ')
        ops = []
        n_dst = width(t, 40)
        ops.append(('Vdst', 'V(%d)' % n_dst))
        if args[1] == 'vcc_lo':
            ops.append(('Literal', 'Implicit(VccLo)'))
        # With a K literal the probes cannot add their own; the f16 forms' src0 is f16.
        ty = ('F16' if '_f16' in name else 'B32') if k else src_type(base)
        ops.append(('Src0', 'VSrc(%d, %s)' % (width(t, 10), ty)))
        if k and args[2] == '0x3f800000':
            ops.append(('Literal', 'LitK'))
        ops.append(('Vsrc1', 'V(%d)' % width(t, 20)))
        if k and args[-1] == '0x3f800000':
            ops.append(('Literal', 'LitK'))
        if args[-1] == 'vcc_lo':
            ops.append(('Literal', 'Implicit(VccLo)'))
        flags = ['FAKE16'] if dis(le((op << 25) | (200 << 17) | (20 << 9) | (256 + 10), 4) + ([0, 0, 0x80, 0x3f] if k else [])) is None else []
        rows.append(('Vop2', op, name, ops, flags))
    for op in range(256):
        base = 0x7c000000 | (op << 17) | (20 << 9)
        t = dis(le(base | (256 + 10), 4))
        if not t or t.startswith('v_illegal'):
            continue
        name = t.split()[0]
        ops = [] if 'cmpx' in name else [('Literal', 'Implicit(VccLo)')]
        ops.append(('Src0', 'VSrc(%d, %s)' % (width(t, 10), src_type(base))))
        ops.append(('Vsrc1', 'V(%d)' % width(t, 20)))
        flags = ['FAKE16'] if dis(le(0x7c000000 | (op << 17) | (200 << 9) | (256 + 10), 4)) is None else []
        rows.append(('Vopc', op, name, ops, flags))

def vop3_operand(o):
    """The table operand for one surveyed VOP3 operand, or None when the table cannot say it."""
    f, k, ty = o['field'], o['kind'], o.get('type')
    if f == 'Vdst':
        return (f, 'V(%d)' % o['dwords']) if k == 'vgpr' else (f, 'S(1)')
    if f == 'Sdst':
        return (f, 'S(1)')
    if k == 'src' and ty in ('B32', 'F16', 'I16', 'F64', 'B64'):
        return (f, 'VSrc(%d, %s)' % (o['dwords'], ty))
    if k == 'vgpr' and ty == 'VgprOnly':
        return (f, 'VSrc(%d, VgprOnly)' % o['dwords'])
    if k == 'sgpr':
        return (f, 'LaneMask')
    if k == 'ssrc':
        return (f, 'Ssrc(1)')
    return None

def survey_vop3():
    """VOP3 and VOP3SD from tools/survey_vop3.py (which probes llvm-mc-19 for every opcode):
    the VOP3-only instructions and the VOP3 forms of VOP1/VOP2/VOPC (`_e64`), with their
    destinations (VGPR, or an SGPR for compares, `v_readlane_b32` and carry-outs), sources,
    lane-mask sources (`v_cndmask_b32_e64`, the carry-in of `v_add_co_ci_u32_e64`) and the
    modifiers each takes: `abs`/`neg` per source, `clamp`, the output modifier. A VOP3SD
    instruction has no abs bits (its sdst is there): `VOP3_NEG_ABSi` on it means neg only
    (`v_div_scale_f32/f64`). Not from this survey: the op_sel instructions, `sext()` sources,
    packed/bf16 sources, and `v_nop`/`v_pipeflush` (whose e64 prints bare)."""
    import json, os
    here = os.path.dirname(os.path.abspath(__file__))
    out = subprocess.run([sys.executable, os.path.join(here, 'survey_vop3.py')], capture_output=True, text=True, check=True).stdout
    for r in json.loads(out)['ops']:
        if r['name'] in ('v_nop', 'v_pipeflush'):
            continue
        m = r['modifier_summary']
        if any(m.get('op_sel', [])) or any(p != '-' for p in m['neg_prints_as']):
            continue
        ops = [vop3_operand(o) for o in r['operands']]
        if any(o is None for o in ops):
            continue
        # VOP3SD: sdst takes the abs bits, so the flag says neg alone (def.rs SrcMods::Neg).
        absm = m['neg'] if r['format'] == 'Vop3sd' else m.get('abs', [False] * len(m['neg']))
        if any(a != n for a, n in zip(absm, m['neg'])):
            continue
        flags = ['VOP3_NEG_ABS%d' % i for i, a in enumerate(absm) if a]
        flags += ['VOP3_CLAMP'] if m['clamp'] else []
        flags += ['VOP3_OMOD'] if m['omod'] else []
        rows.append(('Vop3', r['op'], r['name'], ops, flags))

VOPD_OPS = ['v_dual_fmac_f32', 'v_dual_fmaak_f32', 'v_dual_fmamk_f32', 'v_dual_mul_f32', 'v_dual_add_f32',
            'v_dual_sub_f32', 'v_dual_subrev_f32', 'v_dual_mul_dx9_zero_f32', 'v_dual_mov_b32', 'v_dual_cndmask_b32',
            'v_dual_max_f32', 'v_dual_min_f32', 'v_dual_dot2acc_f32_f16', 'v_dual_dot2acc_f32_bf16',
            None, None, 'v_dual_add_nc_u32', 'v_dual_lshlrev_b32', 'v_dual_and_b32']

def survey_vopd():
    """VOPD's component operations, one row each by its OPY code (OPX 0-13 are the same
    operations). Each name and operand order is checked here: llvm-mc-19 disassembles a word
    with the operation as X (where it can be) and as Y, `v_dual_mov_b32` the other half."""
    def word(opx, opy, lit=False):
        # X: v6 = f(v1 or the literal, v2); Y: v7 = g(v3, v5); a mov has no vsrc1 (it must be 0).
        w0 = 0xc8000000 | opx << 22 | opy << 17 | (0xff if lit else 0x101) | (0 if opx == 8 else 2) << 9
        w1 = (0x103) | (0 if opy == 8 else 5) << 9 | 3 << 17 | 6 << 24
        b = list(w0.to_bytes(4, 'little')) + list(w1.to_bytes(4, 'little'))
        if lit:
            b += [0x78, 0x56, 0x34, 0x12]
        return b
    for opy, name in enumerate(VOPD_OPS):
        if name is None:
            continue
        k = 'fmaak' in name or 'fmamk' in name
        texts = [dis(word(8, opy, k))] + ([dis(word(opy, 8, k))] if opy < 14 else [])
        if texts[0] is None:
            continue   # v_dual_dot2acc_f32_bf16: gfx1100 has no such component
        for t in texts:
            assert t is not None and name in t, (name, t)
        if name == 'v_dual_mov_b32':
            ops = [('Vdst', 'V(1)'), ('Src0', 'VSrc(1, B32)')]
        elif 'fmaak' in name:
            ops = [('Vdst', 'V(1)'), ('Src0', 'VSrc(1, B32)'), ('Vsrc1', 'V(1)'), ('Literal', 'LitK')]
        elif 'fmamk' in name:
            ops = [('Vdst', 'V(1)'), ('Src0', 'VSrc(1, B32)'), ('Literal', 'LitK'), ('Vsrc1', 'V(1)')]
        else:
            ty = 'PackedF16' if 'dot2acc' in name else 'B32'
            ops = [('Vdst', 'V(1)'), ('Src0', 'VSrc(1, %s)' % ty), ('Vsrc1', 'V(1)')]
        rows.append(('Vopd', opy, name, ops, []))

def main():
    survey_sop(); survey_smem(); survey_ds(); survey_flat(); survey_buf(); survey_lds_interp(); survey_vop_e32(); survey_vop3(); survey_vopd()
    print_table(rows, 'new', 'INSTRUCTIONS', [
        'THE instruction table of gfx1100 for the formats in scope: one line per instruction.',
        '',
        'Mnemonics, opcodes, operand fields and register widths were surveyed from',
        '`llvm-mc-19 -triple=amdgcn -mcpu=gfx1100 --disassemble` by `tools/gen_table.py`.',
        'Each line: format, opcode, canonical mnemonic, operands in printed order, flags.',
    ], ['use crate::schema::{Flags, Imm::*, Implicit::*, InstrDef, Kind::*, Operand as O, SrcTy::*};',
        'use crate::fields::Field::*;', 'use crate::format::Format::*;'],
        'Every instruction of the formats in scope, grouped by format, ordered by opcode.')

if __name__ == '__main__':
    main()
