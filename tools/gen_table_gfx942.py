#!/usr/bin/env python3
"""Generator of crates/rdna3-isa/src/table_gfx940.rs: the gfx942 (CDNA3) instruction table.

Surveys llvm-mc-19 -mcpu=gfx942 as tools/gen_table.py surveys gfx1100: every opcode value of
every format in scope is disassembled with distinct register numbers in each encoding field, so
that the mnemonic, which fields each printed operand comes from, and each register operand's
width all come from the oracle. The formats (GFX9 layouts, crates/rdna3-isa/src/gfx9/format.rs):
SOP2, SOPK, SOP1, SOPC, SOPP, SMEM (with the scalar stores), DS, FLAT/GLOBAL/SCRATCH and MUBUF.

    python3 tools/gen_table_gfx942.py > crates/rdna3-isa/src/table_gfx940.rs
"""
import itertools
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mc_batch  # noqa: E402
from table_rows import print_table  # noqa: E402

mc_batch.use_mcpu('gfx942')


def le(w, n):
    return [(w >> (8 * i)) & 0xff for i in range(n)]


def dis_many(words):
    return mc_batch.dis(words)


def regs(text):
    body = text.split(None, 1)[1] if ' ' in text else ''
    out = []
    for tok in re.findall(r'([sva])(\d+)|([sva])\[(\d+):(\d+)\]', body):
        if tok[0]:
            out.append((tok[0], int(tok[1]), 1))
        else:
            out.append((tok[2], int(tok[3]), int(tok[4]) - int(tok[3]) + 1))
    return out


def width(text, base, kind='v'):
    for k, b, n in regs(text or ''):
        if k == kind and b == base:
            return n
    return None


rows = []   # (format, opcode, name, [(field, kind)], flags)

SOPP_STYLE = {
    's_nop': 'Dec', 's_setkill': 'Dec', 's_sethalt': 'Dec', 's_sleep': 'Dec', 's_trap': 'Dec',
    's_setprio': 'Dec', 's_incperflevel': 'Dec', 's_decperflevel': 'Dec', 's_ttracedata_imm': 'Hex',
    's_waitcnt': 'Waitcnt', 's_sendmsg': 'Sendmsg', 's_sendmsghalt': 'Sendmsg',
    's_set_gpr_idx_mode': 'GprIdx',
}
SSRC_REG_ONLY = {'s_setpc_b64', 's_rfe_b64', 's_movrels_b32', 's_movrels_b64',
                 's_cbranch_join'}


def first(options):
    """The first of several probe words (each a list of bytes) that decodes, per entry:
    (index of the probe, text) or None."""
    flat = [w for ws in options for w in ws]
    texts = dis_many(flat)
    out, i = [], 0
    for ws in options:
        got = None
        for k in range(len(ws)):
            if got is None and texts[i + k]:
                got = (k, texts[i + k])
        i += len(ws)
        out.append(got)
    return out


def survey_sop():
    found = first([[le(0x80000000 | (op << 23) | (30 << 16) | (20 << 8) | 10, 4)]
                   for op in range(0x60)])
    for op, f in enumerate(found):
        if f:
            t = f[1]
            ops = [('Sdst', 'S(%d)' % width(t, 30, 's'))] if width(t, 30, 's') else []
            ops += [('Ssrc0', 'Ssrc(%d)' % width(t, 10, 's')), ('Ssrc1', 'Ssrc(%d)' % width(t, 20, 's'))]
            rows.append(('Sop2', op, t.split()[0], ops, []))
    probes = []
    for op in range(0x1d):   # 0x1d-0x1f are the SOP1, SOPC and SOPP encodings
        w = le(0xB0000000 | (op << 23) | (30 << 16) | 0x1234, 4)
        probes.append([w, w + [0x78, 0x56, 0x34, 0x12], le(0xB0000000 | (op << 23) | 0x1234, 4)])
    for op, f in enumerate(first(probes)):
        if not f:
            continue
        name = f[1].split()[0]
        if name == 's_getreg_b32':
            ops = [('Sdst', 'S(1)'), ('Simm16', 'Imm(Hwreg)')]
        elif name == 's_setreg_b32':
            ops = [('Simm16', 'Imm(Hwreg)'), ('Sdst', 'S(1)')]
        elif name == 's_setreg_imm32_b32':
            ops = [('Simm16', 'Imm(Hwreg)'), ('Literal', 'Lit32')]
        elif name == 's_call_b64':
            ops = [('Sdst', 'S(2)'), ('Simm16', 'Imm(Label)')]
        elif name in ('s_cbranch_i_fork',):
            ops = [('Sdst', 'S(2)'), ('Simm16', 'Imm(Label)')]
        else:
            ops = [('Sdst', 'S(1)'), ('Simm16', 'Imm(Hex)')]
        rows.append(('Sopk', op, name, ops, []))
    probes = [[le(0xBE800000 | (op << 8) | (30 << 16) | 10, 4), le(0xBE800000 | (op << 8) | 10, 4),
               le(0xBE800000 | (op << 8) | (30 << 16), 4), le(0xBE800000 | (op << 8), 4)]
              for op in range(256)]
    for op, f in enumerate(first(probes)):
        if not f:
            continue
        t = f[1]
        name = t.split()[0]
        ops = []
        if width(t, 30, 's'):
            ops.append(('Sdst', 'S(%d)' % width(t, 30, 's')))
        if width(t, 10, 's'):
            kind = 'SsrcReg' if name in SSRC_REG_ONLY else 'Ssrc'
            ops.append(('Ssrc0', '%s(%d)' % (kind, width(t, 10, 's'))))
        rows.append(('Sop1', op, name, ops, []))
    found = first([[le(0xBF000000 | (op << 16) | (20 << 8) | 10, 4),
                    le(0xBF000000 | (op << 16) | (2 << 8) | 10, 4)] for op in range(128)])
    for op, f in enumerate(found):
        if f:
            t = f[1]
            name = t.split()[0]
            if name == 's_set_gpr_idx_on':
                ops = [('Ssrc0', 'Ssrc(1)'), ('Ssrc1', 'Imm(GprIdx)')]
            else:
                ops = [('Ssrc0', 'Ssrc(%d)' % width(t, 10, 's')), ('Ssrc1', 'Ssrc(%d)' % width(t, 20, 's'))]
            rows.append(('Sopc', op, name, ops, []))
    found = first([[le(0xBF800000 | (op << 16) | 3, 4), le(0xBF800000 | (op << 16), 4)]
                   for op in range(128)])
    for op, f in enumerate(found):
        if not f:
            continue
        t = f[1]
        name = t.split()[0]
        if name.startswith('s_branch') or name.startswith('s_cbranch'):
            ops = [('Simm16', 'Imm(Label)')]
        elif name == 's_endpgm':
            ops = [('Simm16', 'Imm(DecOptional)')]
        elif name in SOPP_STYLE:
            ops = [('Simm16', 'Imm(%s)' % SOPP_STYLE[name])]
        elif ' ' in t:
            sys.exit('unclassified SOPP ' + t)
        else:
            ops = []
        rows.append(('Sopp', op, name, ops, []))


def survey_smem():
    probes = [[le(0xC0020000 | (op << 18) | (32 << 6) | 5, 8) + [],
               le(0xC0000000 | (op << 18) | (32 << 6) | 5 | (20 << 32), 8),
               le(0xC0000000 | (op << 18), 8)] for op in range(256)]
    for op, f in enumerate(first(probes)):
        if not f or not f[1].startswith('s_'):
            continue
        t = f[1]
        name = t.split()[0]
        if ' ' not in t:
            ops = []
        elif 'atc_probe' in name:
            ops = [('Sdata', 'SmemProbe'), ('Sbase', 'SBase(%d)' % (4 if 'buffer' in name else 2)),
                   ('Soffset', 'SmemOffset')]
        elif name in ('s_memtime', 's_memrealtime'):
            ops = [('Sdata', 'S(2)')]
        elif name == 's_dcache_discard' or name == 's_dcache_discard_x2':
            ops = [('Sbase', 'SBase(2)'), ('Soffset', 'SmemOffset')]
        else:
            base = 4 if 'buffer' in name else 2
            ops = [('Sdata', 'S(%d)' % width(t, 32, 's')), ('Sbase', 'SBase(%d)' % base),
                   ('Soffset', 'SmemOffset')]
        rows.append(('Smem', op, name, ops, ['ATOMIC'] if 'atomic' in name else []))


def survey_ds():
    F = {'Addr': (32, 10), 'Data0': (40, 20), 'Data1': (48, 30), 'Vdst': (56, 40)}
    subsets = []
    for k in range(4, -1, -1):
        subs = list(itertools.combinations(['Addr', 'Data0', 'Data1', 'Vdst'], k))
        if k == 1:
            subs.sort(key=lambda s: s != ('Data0',))
        subsets += subs
    probes = []
    for op in range(256):
        ws = []
        # Without the gds bit, then with it (the global wave sync instructions need it).
        for gds in (0, 1):
            for sub in subsets:
                w = 0xD8000000 | (op << 17) | (gds << 16)
                for s in sub:
                    w |= F[s][1] << F[s][0]
                ws.append(le(w, 8))
        probes.append(ws)
    for op, f in enumerate(first(probes)):
        if not f or not f[1].startswith('ds_'):
            continue
        gds_only = f[0] >= len(subsets)
        sub, t = subsets[f[0] % len(subsets)], f[1]
        name = t.split()[0]
        order = ['Vdst', 'Addr', 'Data0', 'Data1']
        ops = [(x, 'V(%d)' % width(t, F[x][1])) for x in order if x in sub]
        flags = []
        if re.search(r'(read|write|wrxchg)2(st64)?_', name):   # and their st64 forms
            flags.append('OFFSET_PAIR')
        if gds_only:
            flags.append('GDS_ONLY')
        if name == 'ds_swizzle_b32':
            flags.append('SWIZZLE')
        rows.append(('Ds', op, name, ops, flags))


def survey_flat():
    for seg, fmt in ((0, 'Flat'), (1, 'Scratch'), (2, 'Global')):
        probes = []
        for op in range(128):
            # FLAT has no scalar base: its saddr field is 0; GLOBAL/SCRATCH's `off` is 0x7f.
            saddr = 0 if seg == 0 else 0x7f
            w = 0xDC000000 | (op << 18) | (seg << 14) | (10 << 32) | (20 << 40) | (saddr << 48) | (40 << 56)
            probes.append([le(w, 8), le(w | (1 << 13), 8)])
        found = first(probes)
        rtn = dis_many([le(0xDC000000 | (op << 18) | (seg << 14) | (10 << 32) | (20 << 40) |
                           ((0 if seg == 0 else 0x7f) << 48) | (40 << 56) | (1 << 16), 8)
                        for op in range(128)])
        for op, f in enumerate(found):
            if not f or f[1].startswith('v_'):
                continue
            t = f[1]
            name = t.split()[0]
            ops = []
            vd, dd = width(t, 40), width(t, 20)
            if 'atomic' in name:
                ops.append(('Vdst', 'VRtn(%d)' % width(rtn[op], 40)))
            elif vd:
                ops.append(('Vdst', 'V(%d)' % vd))
            ops.append(('Addr', 'FlatVaddr'))
            if dd:
                ops.append(('Data0', 'V(%d)' % dd))
            if fmt != 'Flat':
                ops.append(('Saddr', 'FlatSaddr'))
            rows.append((fmt, op, name, ops, ['ATOMIC'] if 'atomic' in name else []))


def survey_buf():
    probes = []
    for op in range(128):
        w = 0xE0000000 | (op << 18) | (1 << 12) | (10 << 32) | (20 << 40) | (2 << 48) | (30 << 56)
        # The last probe finds the instruction that exists only with the lds bit
        # (buffer_store_lds_dword: LDS to memory).
        probes.append([le(w, 8), le(0xE0000000 | (op << 18), 8),
                       le(0xE0000000 | (op << 18) | (1 << 16), 8)])
    for op, f in enumerate(first(probes)):
        if not f or f[1].startswith('v_'):
            continue
        t = f[1]
        name = t.split()[0]
        if f[0] == 2:
            rows.append(('Mubuf', op, name, [('Srsrc', 'Rsrc'), ('Soffset', 'BufSoffset')], ['LDS']))
            continue
        if ' ' not in t:
            ops = []
        else:
            ops = []
            dd = width(t, 20)
            if dd:
                # An atomic's vdata is its data and, with sc0, its result: always printed.
                ops.append(('Vdata', 'V(%d)' % dd))
            ops += [('Vaddr', 'BufVaddr'), ('Srsrc', 'Rsrc'), ('Soffset', 'BufSoffset')]
        rows.append(('Mubuf', op, name, ops, ['ATOMIC'] if 'atomic' in name else []))


def src_types(bases):
    """How llvm-mc-19 prints the 9-bit source at bits [8:0] of each word of `bases`, read off
    probes (as tools/gen_table.py does for gfx1100): B32, F16, I16, F64, B64, PackedF16 or
    VgprOnly."""
    probes = []
    for base in bases:
        probes.append([le(base | 5, 4)])
        probes.append([le(base | 248, 4)])
        probes.append([le(base | 255, 4) + le(0x40, 4)])
        probes.append([le(base | 255, 4) + le(0x3c00, 4)])
        probes.append([le(base | 255, 4) + le(0x12345678, 4)])
    texts = [r[1] if r else '' for r in first(probes)]
    out = []
    for k in range(len(bases)):
        s, c248, lit64, lit16, lit = texts[5 * k:5 * k + 5]
        if not s or 'Invalid register' in s:
            out.append('VgprOnly')
        elif '0.15915494309189532' in c248:
            out.append('B64' if ' 64' in lit64 else 'F64')
        elif '0x12345678' not in lit:
            out.append('F16' if '1.0' in lit16 else 'I16')
        elif '1.0' in lit16:
            out.append('PackedF16')
        else:
            out.append('B32')
    return out


def survey_vop_e32():
    """VOP1, VOP2 and VOPC in their 32-bit encodings (not their SDWA and DPP forms yet). The
    implicit VCC of carries, v_cndmask and compares is written `vcc` (wave64)."""
    bases = [0x7e000000 | (op << 9) | (40 << 17) for op in range(256)]
    # (v_nop takes no operands: its fields must be 0.)
    found = first([[le(b | (256 + 10), 4), le(b & ~(0xff << 17), 4)] for b in bases])
    keep = [(op, f[1]) for op, f in enumerate(found) if f and not f[1].startswith('v_illegal')]
    # (llvm-mc-19 crashes on v_accvgpr_mov_b32 with a constant source: it is not probed.)
    types = iter(src_types([bases[op] for op, t in keep if 'v_accvgpr_mov' not in t]))
    for op, t in keep:
        ty = None if 'v_accvgpr_mov' in t else next(types)
        name = t.split()[0]
        ops = []
        if name == 'v_accvgpr_mov_b32':
            rows.append(('Vop1', op, name, [('Vdst', 'V(1)'), ('Src0', 'VSrc(1, VgprOnly)')],
                         ['ACC_DST', 'ACC_SRC0']))
            continue
        if ' s40' in t:
            ops.append(('Vdst', 'S(1)'))
        elif width(t, 40):
            ops.append(('Vdst', 'V(%d)' % width(t, 40)))
        if width(t, 10):
            ops.append(('Src0', 'VSrc(%d, %s)' % (width(t, 10), ty)))
        rows.append(('Vop1', op, name, ops, []))
    bases = [(op << 25) | (40 << 17) | (20 << 9) for op in range(0x3e)]   # 0x3e, 0x3f: VOPC, VOP1
    found = first([[le(b | (256 + 10), 4), le(b | (256 + 10), 4) + le(0x3f800000, 4)]
                   for b in bases])
    keep = [(op, f) for op, f in enumerate(found) if f and not f[1].startswith('v_illegal')]
    types = src_types([bases[op] for op, f in keep if f[0] == 0])
    types = iter(types)
    for op, (k, t) in keep:
        name = t.split()[0]
        args = t.split(None, 1)[1].split(', ')
        ops = [('Vdst', 'V(%d)' % width(t, 40))]
        if args[1] == 'vcc':
            ops.append(('Literal', 'Implicit(VccLo)'))
        ty = ('F16' if '_f16' in name else 'B32') if k else next(types)
        ops.append(('Src0', 'VSrc(%d, %s)' % (width(t, 10), ty)))
        if k and args[2] == '0x3f800000':
            ops.append(('Literal', 'LitK'))
        ops.append(('Vsrc1', 'V(%d)' % width(t, 20)))
        if k and args[-1] == '0x3f800000':
            ops.append(('Literal', 'LitK'))
        if args[-1] == 'vcc':
            ops.append(('Literal', 'Implicit(VccLo)'))
        rows.append(('Vop2', op, name, ops, []))
    bases = [0x7c000000 | (op << 17) | (20 << 9) for op in range(256)]
    found = first([[le(b | (256 + 10), 4)] for b in bases])
    keep = [(op, f[1]) for op, f in enumerate(found) if f]
    types = src_types([bases[op] for op, _ in keep])
    for (op, t), ty in zip(keep, types):
        name = t.split()[0]
        ops = [('Literal', 'Implicit(VccLo)')]
        ops.append(('Src0', 'VSrc(%d, %s)' % (width(t, 10), ty)))
        ops.append(('Vsrc1', 'V(%d)' % width(t, 20)))
        rows.append(('Vopc', op, name, ops, []))


def vop3(op, vdst=40, b8=0, clamp=0, s0=266, s1=276, s2=286, omod=0, neg=0):
    """A GFX9 VOP3 word: [7:0] vdst, [14:8] abs (bits 8-10) and op_sel (11-14) or VOP3b's sdst,
    [15] clamp, [25:16] op, [31:26] 0b110100, [40:32] src0, [49:41] src1, [58:50] src2,
    [60:59] omod, [63:61] neg."""
    w = (0x34 << 26) | (op << 16) | (clamp << 15) | (b8 << 8) | vdst | (s0 << 32) | (s1 << 41)
    w |= (s2 << 50) | (omod << 59) | (neg << 61)
    return le(w, 8)


def survey_vop3():
    """VOP3 (and VOP3b, whose bits 14:8 hold an SGPR-pair destination): every opcode below the
    VOP3P range, with the fewest sources that decode (a source field the instruction does not
    use must be 0), each source's type, and which modifiers each takes (neg and abs per
    source, clamp, omod, op_sel), read off probes."""
    ops = list(range(0x380))
    found = first([[vop3(op), vop3(op, s2=0), vop3(op, s1=0, s2=0), vop3(op, s0=0, s1=0, s2=0)]
                   for op in ops])
    keep = [(op, f) for op, f in zip(ops, found) if f]
    srcs_of = {0: 3, 1: 2, 2: 1, 3: 0}
    for op, (k, text) in keep:
        name = text.split()[0]
        nsrc = srcs_of[k]
        base = dict(s0=266 if nsrc > 0 else 0, s1=276 if nsrc > 1 else 0, s2=286 if nsrc > 2 else 0)
        args = text.split(None, 1)[1].split(', ') if ' ' in text else []
        ops_ = []
        rest = list(args)
        if rest and ('v40' in rest[0] or 'v[40:' in rest[0]):
            ops_.append(('Vdst', 'V(%d)' % width(text, 40)))
            rest.pop(0)
        elif rest and 's[40:41]' in rest[0]:
            ops_.append(('Vdst', 'S(2)'))
            rest.pop(0)
        elif rest and rest[0].startswith('s40'):
            ops_.append(('Vdst', 'S(1)'))
            rest.pop(0)
        if rest and rest[0] == 's[0:1]' and len(rest) > nsrc:
            ops_.append(('Sdst', 'S(2)'))
            rest.pop(0)
        fields = ['Src0', 'Src1', 'Src2'][:nsrc]
        regs = [10, 20, 30]
        for i, f in enumerate(fields):
            w = width(text, regs[i])
            ops_.append((f, 'VOP3SRC:%d:%d' % (i, w or 2)))
        rows.append(('Vop3', op, name, ops_, [], base, nsrc))


def operands(text):
    """The operands of a printed instruction (commas inside /* */ comments kept)."""
    if ' ' not in text:
        return []
    body = text.split(None, 1)[1]
    hidden = re.sub(r'/\*.*?\*/', lambda m: m.group(0).replace(',', '\x00'), body)
    return [a.replace('\x00', ',') for a in hidden.split(', ')]


VOP3_TEXTS = {}


def vop3_text(op, base):
    """The text of `op`'s base probe (cached)."""
    key = (op, tuple(sorted(base.items())))
    if key not in VOP3_TEXTS:
        VOP3_TEXTS[key] = dis_many([vop3(op, **base)])[0] or ''
    return VOP3_TEXTS[key]


def finish_vop3():
    """Source types and modifiers of the surveyed VOP3 rows."""
    pending = [r for r in rows if r[0] == 'Vop3' and len(r) == 7]
    probes = []
    for fmt, op, name, ops_, flags, base, nsrc in pending:
        has_sdst = any(f == 'Sdst' for f, _ in ops_)
        for i in range(nsrc):
            key = 's%d' % i
            for code in (5, 248, 130):
                probes.append([vop3(op, **dict(base, **{key: code}))])
        for i in range(nsrc):
            probes.append([vop3(op, neg=1 << i, **base)])
            probes.append([vop3(op, b8=0 if has_sdst else 1 << i, **base)])
        probes.append([vop3(op, clamp=1, **base)])
        probes.append([vop3(op, omod=1, **base)])
        for b in range(4):
            probes.append([vop3(op, b8=0 if has_sdst else 8 << b, **base)])
    texts = [f[1] if f else None for f in first(probes)]
    at = 0
    out_rows = []
    for fmt, op, name, ops_, flags, base, nsrc in pending:
        has_sdst = any(f == 'Sdst' for f, _ in ops_)
        types = []
        lead = sum(1 for f, _ in ops_ if f in ('Vdst', 'Sdst'))
        for i in range(nsrc):
            s5, c248, c130 = texts[at:at + 3]
            at += 3
            arg = lambda s: (operands(s) + [''] * 8)[lead + i] if s else ''
            if s5 and "'SReg_32'" in arg(vop3_text(op, base)):
                types.append('SsrcOnly')
            elif "'SReg_1_XEXEC'" in arg(vop3_text(op, base)):
                types.append('LaneMask')
            elif not s5 or '/*Invalid register' in arg(s5):
                types.append('VgprOnly')
            elif c248 and '0.15915494309189532' in c248:
                types.append('F64')
            elif c248 and '0x3118' in c248:
                types.append('I16')
            else:
                types.append('B32')
        mods = []
        ignored = False
        sext = False
        for i in range(nsrc):
            negt, abst = texts[at:at + 2]
            at += 2
            shown = lambda s, mark: s is not None and mark in arg(s)
            mods.append((shown(negt, '-'), shown(abst, '|') and not has_sdst))
            sext |= shown(negt, 'sext(')
            # Bits that decode but do not print are ignored.
            ignored |= negt is not None and not shown(negt, '-') and not shown(negt, 'sext(')
        clamp, omod = texts[at:at + 2]
        at += 2
        opsel = texts[at:at + 4]
        at += 4
        new_ops = []
        for f, k in ops_:
            if k.startswith('VOP3SRC:'):
                _, i, w = k.split(':')
                i = int(i)
                if types[i] == 'SsrcOnly':
                    new_ops.append((f, 'Ssrc(1)'))
                elif types[i] == 'LaneMask':
                    new_ops.append((f, 'LaneMask'))
                else:
                    new_ops.append((f, 'VSrc(%s, %s)' % (w, types[i])))
            else:
                new_ops.append((f, k))
        fl = []
        for i, (n, a) in enumerate(mods):
            if n and (a or has_sdst):
                fl.append('VOP3_NEG_ABS%d' % i)
        if sext:
            fl.append('SEXT')
        elif ignored:
            fl.append('MODS_IGNORED')
        if clamp is not None and ' clamp' in clamp:
            fl.append('VOP3_CLAMP')
        if omod is not None and 'mul:2' in omod:
            fl.append('VOP3_OMOD')
        if any(o is not None and 'op_sel' in o for o in opsel):
            fl.append('OP_SEL')
        elif not has_sdst and all(o is not None for o in opsel):
            fl.append('OP_SEL_IGNORED')
        out_rows.append((fmt, op, name, new_ops, fl))
    rows[:] = [r for r in rows if not (r[0] == 'Vop3' and len(r) == 7)] + out_rows


def vop3p(op, vdst=40, b8=0, b15=0, s0=266, s1=276, s2=286, hi=0, neg=0):
    """A GFX9 VOP3P word: [7:0] vdst, [10:8] neg_hi (MFMA: cbsz), [13:11] op_sel and [14]
    op_sel_hi[2] (MFMA: abid [14:11]), [15] clamp (MFMA: acc_cd), [22:16] op, [31:23]
    0b110100111, sources as VOP3, [60:59] op_sel_hi[1:0] (MFMA: A and B in AGPRs), [63:61]
    neg_lo (MFMA: blgp)."""
    w = (0x1a7 << 23) | (op << 16) | (b15 << 15) | (b8 << 8) | vdst | (s0 << 32) | (s1 << 41)
    w |= (s2 << 50) | (hi << 59) | (neg << 61)
    return le(w, 8)


def survey_vop3p():
    """VOP3P: packed math, dot products, v_fma_mix*, MFMA/SMFMAC and v_accvgpr_read/write."""
    ops = list(range(128))
    found = first([[vop3p(op), vop3p(op, s2=0), vop3p(op, s1=0, s2=0)] for op in ops])
    for op, f in zip(ops, found):
        if not f:
            continue
        k, text = f
        name = text.split()[0]
        nsrc = 3 - k
        regs = [10, 20, 30][:nsrc]
        ops_ = [('Vdst', 'V(%d)' % (width(text, 40) or width(text, 40, 'a') or 1))]
        flags = []
        mfma = name.startswith('v_mfma') or name.startswith('v_smfmac')
        if name == 'v_accvgpr_read_b32':
            ops_.append(('Src0', 'VSrc(1, VgprOnly)'))
            flags = ['ACC_SRC0']
        elif name == 'v_accvgpr_write_b32':
            ops_ = [('Vdst', 'V(1)'), ('Src0', 'VSrc(1, B32)')]
            flags = ['ACC_DST']
        else:
            for i, f2 in enumerate(['Src0', 'Src1', 'Src2'][:nsrc]):
                w = width(text, regs[i]) or 1
                if mfma and i < 2:
                    ops_.append((f2, 'VSrc(%d, VgprOnly)' % w))
                elif mfma and name.startswith('v_smfmac'):
                    ops_.append((f2, 'VSrc(1, VgprOnly)'))
                elif mfma:
                    ops_.append((f2, 'VSrc(%d, B32)' % w))
                else:
                    ty = 'PackedF16' if ('f16' in name or 'bf16' in name) and 'mix' not in name else 'B32'
                    # (v_pk_*_f32: two f32 lanes in a register pair; f32 constants.)
                    ops_.append((f2, 'VSrc(%d, %s)' % (w, ty)))
            if mfma:
                flags = ['MFMA']
            elif 'mix' in name:
                flags = ['MIX']
        rows.append(('Vop3p', op, name, ops_, flags))


def survey_dpp():
    """Which VOP1/VOP2/VOPC instructions have a DPP form (src0 = 250, a DPP dword after the
    word), and which of its two sources take the dword's neg/abs bits (20-23)."""
    e32 = [(i, r) for i, r in enumerate(rows) if r[0] in ('Vop1', 'Vop2', 'Vopc')]

    def word(r):
        fmt, op = r[0], r[1]
        if fmt == 'Vop1':
            return 0x7e000000 | (op << 9) | (40 << 17) | 250
        if fmt == 'Vop2':
            return (op << 25) | (40 << 17) | (20 << 9) | 250
        return 0x7c000000 | (op << 17) | (20 << 9) | 250
    dword = (0xf << 28) | (0xf << 24) | (0x1b << 8) | 10
    probes = []
    for _, r in e32:
        w = le(word(r), 4)
        if any(k == 'LitK' for _, k in r[3]):
            probes += [[[]]] * 5
            continue
        probes.append([w + le(dword, 4)])
        for b in (20, 21, 22, 23):
            probes.append([w + le(dword | 1 << b, 4)])
    texts = [f[1] if f else None for f in first(probes)]
    for k, (i, r) in enumerate(e32):
        base, n0, a0, n1, a1 = texts[5 * k:5 * k + 5]
        if base is None or '_dpp' not in base:
            continue
        flags = list(r[4]) + ['DPP']
        has = lambda s, pat: s is not None and re.search(pat, s)
        if has(n0, r'-v\[?10\b') and has(a0, r'\|v\[?10\b'):
            flags.append('VOP3_NEG_ABS0')
        if has(n1, r'-v\[?20\b') and has(a1, r'\|v\[?20\b'):
            flags.append('VOP3_NEG_ABS1')
        if has(n1, r'sext\(v20') or has(n0, r'sext\(v10'):
            flags.append('SEXT')
        # Bits that decode and do not print are ignored.
        elif (n0 and n0 == base) or (a0 and a0 == base):
            flags.append('MODS_IGNORED')
        rows[i] = (r[0], r[1], r[2], r[3], flags)


def survey_sdwa():
    """Which VOP1/VOP2/VOPC instructions have an SDWA form (src0 = 249, an SDWA dword after
    the word), and what it takes: sext (integer sources), clamp, the output modifier."""
    e32 = [(i, r) for i, r in enumerate(rows) if r[0] in ('Vop1', 'Vop2', 'Vopc')]

    def word(r):
        fmt, op = r[0], r[1]
        if fmt == 'Vop1':
            return 0x7e000000 | (op << 9) | (40 << 17) | 249
        if fmt == 'Vop2':
            return (op << 25) | (40 << 17) | (20 << 9) | 249
        return 0x7c000000 | (op << 17) | (20 << 9) | 249
    probes = []
    for _, r in e32:
        vop1 = r[0] == 'Vop1'
        dword = (6 << 8) | (2 << 11) | (6 << 16) | (0 if vop1 else 6 << 24) | 10
        w = le(word(r), 4)
        if any(k == 'LitK' for _, k in r[3]):
            probes += [[[]]] * 9
            continue
        for extra in (0, 1 << 19, 1 << 13, 1 << 14, 1 << 20, 1 << 21, 1 << 28, 1 << 29, 1 << 27):
            probes.append([w + le(dword | extra, 4)])
    texts = [f[1] if f else None for f in first(probes)]
    for k, (i, r) in enumerate(e32):
        base, sext, clamp, omod, n0, a0, n1, a1, sext1 = texts[9 * k:9 * k + 9]
        if base is None or '_sdwa' not in base:
            continue
        r = rows[i]
        flags = list(r[4]) + ['SDWA']
        if sext and 'sext(' in sext:
            flags.append('SDWA_SEXT')
        elif sext1 and 'sext(' in sext1 and 'SEXT' not in flags:
            flags.append('SEXT')   # source 1 alone takes sext (v_cmp_class_*'s mask)
        has = lambda s, pat: s is not None and re.search(pat, s)
        for j, (n, a, reg) in enumerate(((n0, a0, 10), (n1, a1, 20))):
            flag = 'VOP3_NEG_ABS%d' % j
            if flag not in flags and has(n, r'-v%d\b' % reg) and has(a, r'\|v%d\b' % reg):
                flags.append(flag)
        if r[0] != 'Vopc' and clamp and ' clamp' in clamp:
            flags.append('SDWA_CLAMP')
        if r[0] != 'Vopc' and omod and ' mul:2' in omod:
            flags.append('SDWA_OMOD')
        rows[i] = (r[0], r[1], r[2], r[3], flags)


def survey_mtbuf():
    """MTBUF (typed buffer): opcode at bits 15-18, the data and number formats at 19-25."""
    w = [0xE8000000 | (op << 15) | (1 << 12) | (10 << 32) | (20 << 40) | (2 << 48) | (30 << 56)
         for op in range(16)]
    for op, f in enumerate(first([[le(x, 8)] for x in w])):
        if f:
            t = f[1]
            rows.append(('Mtbuf', op, t.split()[0], [('Vdata', 'V(%d)' % width(t, 20)),
                                                     ('Vaddr', 'BufVaddr'), ('Srsrc', 'Rsrc'),
                                                     ('Soffset', 'BufSoffset')], []))


def survey_nop_forms():
    """v_nop's DPP and SDWA forms: llvm-mc-19 prints them as `v_nop CONTROL ...` and `v_nop`
    (no `_dpp`/`_sdwa`), and decodes them only with a zero source byte (SDWA: a zero dword),
    which the probes of survey_dpp and survey_sdwa do not hold."""
    for i, r in enumerate(rows):
        if r[0] == 'Vop1' and r[2] == 'v_nop':
            dpp = dis_many([le(0x7e0000fa, 4) + le(0xff000100, 4)])[0]
            sdwa = dis_many([le(0x7e0000f9, 4) + le(0, 4)])[0]
            flags = list(r[4])
            if dpp and 'quad_perm' in dpp:
                flags.append('DPP')
            if sdwa == 'v_nop':
                flags.append('SDWA')
            rows[i] = (r[0], r[1], r[2], r[3], flags)


def main():
    survey_sop()
    survey_smem()
    survey_ds()
    survey_flat()
    survey_buf()
    survey_mtbuf()
    survey_vop_e32()
    survey_dpp()
    survey_sdwa()
    survey_nop_forms()
    survey_vop3()
    finish_vop3()
    survey_vop3p()
    print_table(rows, 'gfx940', 'INSTRUCTIONS_GFX940', [
        'THE instruction table of gfx942 (CDNA3) for the formats in scope so far: one line per',
        'instruction, in the schema of the gfx1100 table ([`crate::schema`]).',
        '',
        'Mnemonics, opcodes, operand fields and register widths were surveyed from',
        '`llvm-mc-19 -triple=amdgcn -mcpu=gfx942 --disassemble` by `tools/gen_table_gfx942.py`;',
        "the layouts the opcodes and fields sit in are GFX9's ([`crate::gfx9::format`]).",
        'Each line: format, opcode, canonical mnemonic, operands in printed order, flags.',
    ], ['use crate::fields::Field::*;', 'use crate::format::Format::*;',
        'use crate::schema::{Flags, Imm::*, Implicit::*, InstrDef, Kind::*, Operand as O, SrcTy::*};'],
        'Every gfx942 instruction of the formats in scope, grouped by format, ordered by opcode.')


if __name__ == '__main__':
    main()
