#!/usr/bin/env python3
"""Survey of the gfx11 DPP16 / DPP8 forms (of VOP1, VOP2, VOPC, VOP3, VOP3P) and of the VOP3P
(packed math) encoding as llvm-mc-19 (-mcpu=gfx1100) decodes, prints and assembles them.
Research aid for adding these formats to crates/rdna3-isa; standard library only.

  python3 tools/survey_dpp.py              > /tmp/dpp.json   JSON survey (about 20 s)
  python3 tools/survey_dpp.py --golden     writes tests/golden/dpp.txt, vop3p.txt, vop3_opsel.txt (words
                                           that round-trip through llvm-mc-19), dpp_vop3p_asm.txt
                                           (assembler inputs) and dpp_vop3p_disasm.txt (decoder-only
                                           words), read by crates/rdna3-isa/tests/golden.rs
                                           (about 30 s; prints the counts as JSON)
  python3 tools/survey_dpp.py --examples   the lines quoted in tools/DPP_VOP3P_NOTES.md

Encodings (the survey re-derives every field from single-bit flips; see "layout" in the JSON):
  e32 DPP:  the VOP1/VOP2/VOPC word with src0 = 250 (DPP16), 233 (DPP8) or 234 (DPP8, fi:1),
            then one dword:
    DPP16:  [7:0] src0 VGPR  [16:8] dpp_ctrl  [17] -  [18] fi  [19] bound_ctrl  [20] src0_neg
            [21] src0_abs  [22] src1_neg  [23] src1_abs  [27:24] bank_mask  [31:28] row_mask
    DPP8:   [7:0] src0 VGPR  [31:8] eight 3-bit lane selects, lane i at [10+3i:8+3i]
  VOP3 DPP: the 64-bit VOP3 (or VOP3P) word with src0 = 250/233/234, then the same dword
            (the DPP16 neg/abs bits [23:20] are not used there: VOP3 has its own)
  VOP3P:    [7:0] vdst  [10:8] neg_hi  [13:11] op_sel  [14] op_sel_hi[2]  [15] clamp
            [22:16] op  [31:23] 0b110011000 (byte 3 = 0xcc)  [40:32] src0  [49:41] src1
            [58:50] src2  [60:59] op_sel_hi[1:0]  [63:61] neg_lo

Like tools/survey_vop3.py and tools/survey_vopd.py, every probe is one line of bytes followed by
four `s_nop <probe index>` words (tools/mc_batch.py), so one llvm-mc process decodes thousands
of probes; a probe counts as decoded only when llvm-mc consumed exactly its bytes.
"""
import json, os, random, re, subprocess, sys
from collections import Counter, OrderedDict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mc_batch import dis_full, dis, asm, asm_desc, le, hexb, MC, print_round_trips, first_line
import survey_vop3
from survey_vop3 import classify, SRC_PROBES, TYPE_KEYS, split, reg_of, MOD_PROBES

W64 = '+wavefrontsize64'
V = 256                      # source code of v0
LIT = 255                    # source code "literal follows"
S_DPP16, S_DPP8, S_DPP8FI = 250, 233, 234
HERE = os.path.dirname(os.path.abspath(__file__))

# ---------------------------------------------------------------- words

DPP16_FIELDS = OrderedDict([('src0', (0, 8)), ('dpp_ctrl', (8, 9)), ('bit17', (17, 1)), ('fi', (18, 1)),
                            ('bound_ctrl', (19, 1)), ('src0_neg', (20, 1)), ('src0_abs', (21, 1)),
                            ('src1_neg', (22, 1)), ('src1_abs', (23, 1)), ('bank_mask', (24, 4)),
                            ('row_mask', (28, 4))])
DPP8_FIELDS = OrderedDict([('src0', (0, 8))] + [('sel%d' % i, (8 + 3 * i, 3)) for i in range(8)])
VOP3_FIELDS = OrderedDict([('vdst', (0, 8)), ('abs', (8, 3)), ('op_sel', (11, 4)), ('clamp', (15, 1)),
                           ('op', (16, 10)), ('prefix', (26, 6)), ('src0', (32, 9)), ('src1', (41, 9)),
                           ('src2', (50, 9)), ('omod', (59, 2)), ('neg', (61, 3))])
VOP3P_FIELDS = OrderedDict([('vdst', (0, 8)), ('neg_hi', (8, 3)), ('op_sel', (11, 3)), ('op_sel_hi2', (14, 1)),
                            ('clamp', (15, 1)), ('op', (16, 7)), ('prefix', (23, 9)), ('src0', (32, 9)),
                            ('src1', (41, 9)), ('src2', (50, 9)), ('op_sel_hi01', (59, 2)), ('neg_lo', (61, 3))])
VOP3P_PREFIX = 0x198         # bits [31:23]

def pack(fields, vals):
    w = 0
    for k, v in vals.items():
        lo, n = fields[k]
        assert 0 <= v < (1 << n), (k, v)
        w |= v << lo
    return w

def dpp16(src0=1, ctrl=0xe4, row=0xf, bank=0xf, bc=0, fi=0, neg0=0, abs0=0, neg1=0, abs1=0, bit17=0):
    return pack(DPP16_FIELDS, dict(src0=src0, dpp_ctrl=ctrl, bit17=bit17, fi=fi, bound_ctrl=bc, src0_neg=neg0,
                                   src0_abs=abs0, src1_neg=neg1, src1_abs=abs1, bank_mask=bank, row_mask=row))

def dpp8(src0=1, sels=(0, 1, 2, 3, 4, 5, 6, 7)):
    return pack(DPP8_FIELDS, dict([('src0', src0)] + [('sel%d' % i, s) for i, s in enumerate(sels)]))

def e32(fmt, op, vdst=0, vsrc1=0, src0=V):
    if fmt == 'Vop1':
        return 0x7e000000 | (op << 9) | (vdst << 17) | src0
    if fmt == 'Vop2':
        return (op << 25) | (vdst << 17) | (vsrc1 << 9) | src0
    return 0x7c000000 | (op << 17) | (vsrc1 << 9) | src0

def e32_dpp(fmt, op, dw, vdst=0, vsrc1=0, kind=S_DPP16):
    """An e32 DPP word: kind = 250 (DPP16, dw from dpp16()), 233/234 (DPP8, dw from dpp8())."""
    return le(e32(fmt, op, vdst, vsrc1, kind), 4) + le(dw, 4)

def vop3(op, vdst=0, b8=0, clamp=0, src0=0, src1=0, src2=0, omod=0, neg=0, lit=None):
    """b8: bits [14:8] (abs[10:8] | op_sel[14:11] << 3, or VOP3SD sdst)."""
    w = (0x35 << 26) | (op << 16) | (clamp << 15) | (b8 << 8) | vdst
    w |= (src0 << 32) | (src1 << 41) | (src2 << 50) | (omod << 59) | (neg << 61)
    return le(w, 8) + (le(lit, 4) if lit is not None else [])

def vop3_dpp(op, dw, kind=S_DPP16, lit=None, **kw):
    return vop3(op, src0=kind, **kw) + le(dw, 4) + (le(lit, 4) if lit is not None else [])

def vop3p(op, vdst=0, src0=V, src1=V, src2=V, op_sel=0, op_sel_hi=0, neg_lo=0, neg_hi=0, clamp=0, lit=None,
          prefix=VOP3P_PREFIX):
    w = pack(VOP3P_FIELDS, dict(vdst=vdst, neg_hi=neg_hi, op_sel=op_sel, op_sel_hi2=(op_sel_hi >> 2) & 1,
                                clamp=clamp, op=op, prefix=prefix, src0=src0, src1=src1, src2=src2,
                                op_sel_hi01=op_sel_hi & 3, neg_lo=neg_lo))
    return le(w, 8) + (le(lit, 4) if lit is not None else [])

def vop3p_dpp(op, dw, kind=S_DPP16, **kw):
    return vop3p(op, src0=kind, **kw) + le(dw, 4)

# ---------------------------------------------------------------- printing model
# What the notes claim llvm-mc prints; the survey checks these against llvm-mc-19 (JSON "model_checks").

DPP_CTRL_UNSUPPORTED = {0x130: 'wave_shl', 0x134: 'wave_rol', 0x138: 'wave_shr', 0x13c: 'wave_ror',
                        0x142: 'row_bcast', 0x143: 'row_bcast'}

def ctrl_text(c):
    """dpp_ctrl -> printed text (what llvm-mc-19 prints in its place)."""
    if c < 0x100:
        return 'quad_perm:[%d,%d,%d,%d]' % (c & 3, (c >> 2) & 3, (c >> 4) & 3, (c >> 6) & 3)
    base, n = c & 0x1f0, c & 0xf
    named = {0x100: 'row_shl', 0x110: 'row_shr', 0x120: 'row_ror', 0x150: 'row_share', 0x160: 'row_xmask'}
    if base in named and (n or base >= 0x150):
        return '%s:%d' % (named[base], n)
    if c == 0x140:
        return 'row_mirror'
    if c == 0x141:
        return 'row_half_mirror'
    if c in DPP_CTRL_UNSUPPORTED:
        return '/* %s is not supported starting from GFX10 */' % DPP_CTRL_UNSUPPORTED[c]
    return '/* Invalid dpp_ctrl value */'

def dpp16_suffix(ctrl, row, bank, bc, fi):
    s = '%s row_mask:0x%x bank_mask:0x%x' % (ctrl_text(ctrl), row, bank)
    return s + (' bound_ctrl:1' if bc else '') + (' fi:1' if fi else '')

def dpp8_suffix(sels, fi):
    return 'dpp8:[%s]' % ','.join(str(s) for s in sels) + (' fi:1' if fi else '')

def fmod(tok, neg, ab):
    """Float source modifiers on a register token."""
    if ab:
        tok = '|%s|' % tok
    return ('-' + tok) if neg else tok

def vop3p_mods(n, op_sel, op_sel_hi, neg_lo, neg_hi, clamp, default_hi, mix=False):
    """Modifier text of a VOP3P instruction with n sources (the bits past n are not printed).
    default_hi: the op_sel_hi value the assembler writes when none is given (printed only when
    different). mix: v_fma_mix*, whose neg_lo/neg_hi print as -x / |x| on the operands."""
    m = (1 << n) - 1
    out = []
    bits = lambda v: '[%s]' % ','.join(str((v >> i) & 1) for i in range(n))
    if op_sel & m:
        out.append('op_sel:' + bits(op_sel))
    if (op_sel_hi & m) != (default_hi & m):
        out.append('op_sel_hi:' + bits(op_sel_hi))
    if not mix:
        if neg_lo & m:
            out.append('neg_lo:' + bits(neg_lo))
        if neg_hi & m:
            out.append('neg_hi:' + bits(neg_hi))
    if clamp:
        out.append('clamp')
    return out

# ---------------------------------------------------------------- helpers

def flip(b, bit):
    b = list(b)
    b[bit // 8] ^= 1 << (bit % 8)
    return b

def field_of(fields, bit, base=0):
    for k, (lo, n) in fields.items():
        if base + lo <= bit < base + lo + n:
            return k, bit - base - lo
    return None, None

def tok_diff(a, b):
    ta, tb = a.split(' '), b.split(' ')
    if len(ta) != len(tb):
        return '%s  ->  %s' % (a, b)
    return '; '.join('%s -> %s' % (x, y) for x, y in zip(ta, tb) if x != y) or 'same text'

# ---------------------------------------------------------------- layout: single-bit flips

VOP1_FIELDS = OrderedDict([('src0', (0, 9)), ('op', (9, 8)), ('vdst', (17, 8)), ('prefix', (25, 7))])
VOP2_FIELDS = OrderedDict([('src0', (0, 9)), ('vsrc1', (9, 8)), ('vdst', (17, 8)), ('op', (25, 6)), ('prefix', (31, 1))])
VOPC_FIELDS = OrderedDict([('src0', (0, 9)), ('vsrc1', (9, 8)), ('op', (17, 8)), ('prefix', (25, 7))])

def reg(code):
    if code >= V:
        return 'v%d' % (code - V)
    if code < 106:
        return 's%d' % code
    return None

def build(parts, vals):
    out = []
    for pname, fields, size in parts:
        out += le(pack(fields, vals[pname]), size)
    return out

def model_e32(name, kind, vals):
    """e32 DPP (VOP2 form: vdst, src0, vsrc1)."""
    w, d = vals['w'], vals['dpp']
    if w['src0'] != kind or w['op'] != 3 or w['prefix'] != 0:
        return None
    if kind == S_DPP16:
        ops = ['v%d' % w['vdst'], fmod('v%d' % d['src0'], d['src0_neg'], d['src0_abs']),
               fmod('v%d' % w['vsrc1'], d['src1_neg'], d['src1_abs'])]
        suf = dpp16_suffix(d['dpp_ctrl'], d['row_mask'], d['bank_mask'], d['bound_ctrl'], d['fi'])
    else:
        ops = ['v%d' % w['vdst'], 'v%d' % d['src0'], 'v%d' % w['vsrc1']]
        suf = dpp8_suffix([d['sel%d' % i] for i in range(8)], kind == S_DPP8FI)
    return '%s %s %s' % (name, ', '.join(ops), suf)

def model_vop3(name, kind, base_w, vals):
    """VOP3 DPP of a three-source float op (v_fma_f32): VOP3 modifiers, then the DPP part."""
    w, d = vals['w'], vals['dpp']
    if any(w[k] != base_w[k] for k in ('op', 'prefix', 'src0', 'op_sel')):
        return None
    r1, r2 = reg(w['src1']), reg(w['src2'])
    if r1 is None or r2 is None:
        return None
    n, a = w['neg'], w['abs']
    ops = ['v%d' % w['vdst'], fmod('v%d' % d['src0'], n & 1, a & 1), fmod(r1, n >> 1 & 1, a >> 1 & 1),
           fmod(r2, n >> 2 & 1, a >> 2 & 1)]
    mods = (['clamp'] if w['clamp'] else []) + ([None, 'mul:2', 'mul:4', 'div:2'][w['omod']:w['omod'] + 1] if w['omod'] else [])
    if kind == S_DPP16:
        suf = dpp16_suffix(d['dpp_ctrl'], d['row_mask'], d['bank_mask'], d['bound_ctrl'], d['fi'])
    else:
        suf = dpp8_suffix([d['sel%d' % i] for i in range(8)], kind == S_DPP8FI)
    return '%s %s %s' % (name, ', '.join(ops), ' '.join(mods + [suf]))

def model_vop3p(name, nsrc, default_hi, mix, base_w, vals, dpp_kind=None):
    w = vals['w']
    if any(w[k] != base_w[k] for k in ('op', 'prefix')) or (dpp_kind and w['src0'] != base_w['src0']):
        return None
    hi = w['op_sel_hi01'] | (w['op_sel_hi2'] << 2)
    codes = [w['src0'], w['src1'], w['src2']][:nsrc]
    toks = []
    for i, c in enumerate(codes):
        if i == 0 and dpp_kind:
            t = 'v%d' % vals['dpp']['src0']
        else:
            t = reg(c)
        if t is None:
            return None
        toks.append(fmod(t, w['neg_lo'] >> i & 1, w['neg_hi'] >> i & 1) if mix else t)
    mods = vop3p_mods(nsrc, w['op_sel'], hi, w['neg_lo'], w['neg_hi'], w['clamp'], default_hi, mix)
    if dpp_kind:
        d = vals['dpp']
        if dpp_kind == S_DPP16:
            mods.append(dpp16_suffix(d['dpp_ctrl'], d['row_mask'], d['bank_mask'], d['bound_ctrl'], d['fi']))
        else:
            mods.append(dpp8_suffix([d['sel%d' % i] for i in range(8)], dpp_kind == S_DPP8FI))
    return ' '.join(['%s %s' % (name, ', '.join(['v%d' % w['vdst']] + toks))] + mods)

def layout_case(label, parts, base_vals, model):
    """Flip every bit of a base word; for each bit: its believed field, llvm-mc's text, the
    model's text for the changed field values, and whether llvm-mc's re-encoding kept the bit."""
    base = build(parts, base_vals)
    probes = [base]
    where = []
    off = 0
    for pname, fields, size in parts:
        for b in range(size * 8):
            f, k = field_of(fields, b)
            where.append((pname, f, k, off + b))
        off += size * 8
    for _, _, _, bit in where:
        probes.append(flip(base, bit))
    res = dis_full(probes)
    base_text = res[0][0] if res[0] else None
    bits, agree, modelled = [], 0, 0
    for (pname, f, k, bit), r in zip(where, res[1:]):
        d = OrderedDict(bit=bit, part=pname, field=f, field_bit=k)
        vals = {p: dict(v) for p, v in base_vals.items()}
        vals[pname][f] ^= 1 << k
        m = model(vals)
        if r is None:
            d['llvm'] = 'invalid instruction encoding'
            d['alone'] = first_line(probes[1 + where.index((pname, f, k, bit))])
        else:
            d['llvm'] = r[0]
            d['effect'] = tok_diff(base_text, r[0])
            d['reencoded_keeps_bit'] = list(r[1]) == list(probes[1 + where.index((pname, f, k, bit))])
        if m is not None:
            modelled += 1
            d['model'] = m
            d['model_agrees'] = (r is not None and r[0] == m)
            agree += d['model_agrees']
        bits.append(d)
    return OrderedDict(label=label, base='[%s] -> %s' % (hexb(base), base_text),
                       base_reencoded_same=bool(res[0]) and list(res[0][1]) == base,
                       model_checked_bits=modelled, model_agreeing_bits=agree,
                       model_disagreeing=[(d['bit'], d['field'], d.get('llvm'), d.get('model')) for d in bits
                                          if 'model' in d and not d['model_agrees']],
                       bits=bits)

def layout():
    out = OrderedDict()
    w2 = dict(src0=S_DPP16, vsrc1=20, vdst=40, op=3, prefix=0)
    d16 = dict(src0=10, dpp_ctrl=0x1b, bit17=0, fi=0, bound_ctrl=0, src0_neg=0, src0_abs=0, src1_neg=0,
               src1_abs=0, bank_mask=0xa, row_mask=0x5)
    d8 = dict([('src0', 10)] + [('sel%d' % i, s) for i, s in enumerate((3, 1, 4, 1, 5, 2, 6, 5))])
    out['e32_dpp16'] = layout_case('VOP2 v_add_f32_dpp (DPP16)', [('w', VOP2_FIELDS, 4), ('dpp', DPP16_FIELDS, 4)],
                                   dict(w=w2, dpp=d16), lambda v: model_e32('v_add_f32_dpp', S_DPP16, v))
    out['e32_dpp8'] = layout_case('VOP2 v_add_f32_dpp (DPP8)', [('w', VOP2_FIELDS, 4), ('dpp', DPP8_FIELDS, 4)],
                                  dict(w=dict(w2, src0=S_DPP8), dpp=d8), lambda v: model_e32('v_add_f32_dpp', S_DPP8, v))
    w3 = dict(vdst=40, abs=0, op_sel=0, clamp=0, op=0x213, prefix=0x35, src0=S_DPP16, src1=V + 20, src2=V + 30,
              omod=0, neg=0)
    out['vop3_dpp16'] = layout_case('VOP3 v_fma_f32_e64_dpp (DPP16)', [('w', VOP3_FIELDS, 8), ('dpp', DPP16_FIELDS, 4)],
                                    dict(w=w3, dpp=d16), lambda v: model_vop3('v_fma_f32_e64_dpp', S_DPP16, w3, v))
    w3b = dict(w3, src0=S_DPP8)
    out['vop3_dpp8'] = layout_case('VOP3 v_fma_f32_e64_dpp (DPP8)', [('w', VOP3_FIELDS, 8), ('dpp', DPP8_FIELDS, 4)],
                                   dict(w=w3b, dpp=d8), lambda v: model_vop3('v_fma_f32_e64_dpp', S_DPP8, w3b, v))
    wp = dict(vdst=40, neg_hi=0, op_sel=0, op_sel_hi2=1, clamp=0, op=14, prefix=VOP3P_PREFIX, src0=V + 10,
              src1=V + 20, src2=V + 30, op_sel_hi01=3, neg_lo=0)
    out['vop3p_pk_fma_f16'] = layout_case('VOP3P v_pk_fma_f16', [('w', VOP3P_FIELDS, 8)], dict(w=wp),
                                          lambda v: model_vop3p('v_pk_fma_f16', 3, 7, False, wp, v))
    wa = dict(wp, op=15, src2=0)
    out['vop3p_pk_add_f16'] = layout_case('VOP3P v_pk_add_f16 (two sources)', [('w', VOP3P_FIELDS, 8)], dict(w=wa),
                                          lambda v: model_vop3p('v_pk_add_f16', 2, 7, False, wa, v))
    wm = dict(wp, op=32, op_sel_hi2=0, op_sel_hi01=0)
    out['vop3p_fma_mix_f32'] = layout_case('VOP3P v_fma_mix_f32', [('w', VOP3P_FIELDS, 8)], dict(w=wm),
                                           lambda v: model_vop3p('v_fma_mix_f32', 3, 0, True, wm, v))
    wmd = dict(wm, src0=S_DPP16)
    out['vop3p_dpp16_fma_mix_f32'] = layout_case(
        'VOP3P v_fma_mix_f32_e64_dpp (DPP16)', [('w', VOP3P_FIELDS, 8), ('dpp', DPP16_FIELDS, 4)], dict(w=wmd, dpp=d16),
        lambda v: model_vop3p('v_fma_mix_f32_e64_dpp', 3, 0, True, wmd, v, S_DPP16))
    wdd = dict(wp, op=19, src0=S_DPP8)
    out['vop3p_dpp8_dot2_f32_f16'] = layout_case(
        'VOP3P v_dot2_f32_f16_e64_dpp (DPP8)', [('w', VOP3P_FIELDS, 8), ('dpp', DPP8_FIELDS, 4)], dict(w=wdd, dpp=d8),
        lambda v: model_vop3p('v_dot2_f32_f16_e64_dpp', 3, 7, False, wdd, v, S_DPP8))
    return out

# ---------------------------------------------------------------- e32 (VOP1/VOP2/VOPC) DPP opcodes

T16 = dict(src0=10, ctrl=0x1b, row=0x5, bank=0xa)         # quad_perm:[3,2,1,0] row_mask:0x5 bank_mask:0xa
SELS = (3, 1, 4, 1, 5, 2, 6, 5)
E32_OPS = (('Vop1', 128), ('Vop2', 62), ('Vopc', 256))     # VOP2 op 62/63 are the VOPC/VOP1 prefixes

def e32_scan():
    """Every e32 opcode: the plain e32 word (src0 v10, vsrc1 v20, vdst v40) and its DPP16,
    DPP8 and DPP8-fi forms (also with vdst 0, for the ops printing no destination)."""
    probes, keys = [], []
    for fmt, n in E32_OPS:
        for op in range(n):
            for vd in (40, 0):
                probes.append(le(e32(fmt, op, vd, 20, V + 10), 4)); keys.append((fmt, op, vd, 'e32'))
                probes.append(e32_dpp(fmt, op, dpp16(**T16), vd, 20)); keys.append((fmt, op, vd, 'dpp16'))
                probes.append(e32_dpp(fmt, op, dpp8(10, SELS), vd, 20, S_DPP8)); keys.append((fmt, op, vd, 'dpp8'))
                probes.append(e32_dpp(fmt, op, dpp8(10, SELS), vd, 20, S_DPP8FI)); keys.append((fmt, op, vd, 'dpp8fi'))
            if fmt == 'Vop2':   # fmamk/fmaak need their K
                probes.append(le(e32(fmt, op, 40, 20, V + 10), 4) + le(0x3f800000, 4)); keys.append((fmt, op, 40, 'e32k'))
                probes.append(e32_dpp(fmt, op, dpp16(**T16), 40, 20) + le(0x3f800000, 4)); keys.append((fmt, op, 40, 'dpp16k'))
    res = dis(probes)
    got = {}
    for k, t in zip(keys, res):
        fmt, op, vd, kind = k
        if t is None or t.startswith('v_illegal'):
            continue
        kind = kind.rstrip('k') if kind.endswith('k') and kind != 'e32k' else kind
        if kind == 'e32k':
            kind = 'e32'
        cur = got.setdefault((fmt, op), {})
        if kind not in cur or (vd == 40 and ' v40' in t and ' v40' not in cur[kind][1]):
            cur[kind] = (vd, t)
    return got

def e32_mod_probes(fmt, op, vd):
    """DPP16 modifier bits, register 200 in each field, wave64, for one e32 DPP opcode."""
    base = dict(T16)
    P = OrderedDict()
    for lab, kw in (('src0_neg', dict(neg0=1)), ('src0_abs', dict(abs0=1)), ('src1_neg', dict(neg1=1)),
                    ('src1_abs', dict(abs1=1)), ('bound_ctrl', dict(bc=1)), ('fi', dict(fi=1)),
                    ('all_neg_abs', dict(neg0=1, abs0=1, neg1=1, abs1=1))):
        P[lab] = e32_dpp(fmt, op, dpp16(**dict(base, **kw)), vd, 20)
    P['src0_v200'] = e32_dpp(fmt, op, dpp16(**dict(base, src0=200)), vd, 20)
    if fmt != 'Vopc':
        P['vdst_v200'] = e32_dpp(fmt, op, dpp16(**base), 200, 20)
    if fmt != 'Vop1':
        P['vsrc1_v200'] = e32_dpp(fmt, op, dpp16(**base), vd, 200)
    P['dpp8_src0_v200'] = e32_dpp(fmt, op, dpp8(200, SELS), vd, 20, S_DPP8)
    return P

def e32_survey():
    got = e32_scan()
    recs = OrderedDict()
    probes, keys = [], []
    for (fmt, op), d in sorted(got.items()):
        if 'dpp16' not in d and 'dpp8' not in d:
            continue
        vd = (d.get('dpp16') or d.get('dpp8'))[0]
        for lab, p in e32_mod_probes(fmt, op, vd).items():
            probes.append(p); keys.append((fmt, op, lab))
    mres = dict(zip(keys, dis_full(probes)))
    # wave64 texts of the templates
    w64p, w64k = [], []
    for (fmt, op), d in sorted(got.items()):
        for kind, maker in (('dpp16', lambda vd: e32_dpp(fmt, op, dpp16(**T16), vd, 20)),
                            ('dpp8', lambda vd: e32_dpp(fmt, op, dpp8(10, SELS), vd, 20, S_DPP8))):
            if kind in d:
                w64p.append(maker(d[kind][0])); w64k.append((fmt, op, kind))
    w64 = dict(zip(w64k, dis(w64p, W64)))
    # assemble the templates and the probe texts back
    lines, lkeys = [], []
    for (fmt, op), d in sorted(got.items()):
        for kind in ('dpp16', 'dpp8', 'dpp8fi'):
            if kind in d:
                lines.append(d[kind][1]); lkeys.append((fmt, op, kind, 'template'))
    for (fmt, op, lab), r in mres.items():
        if r:
            lines.append(r[0]); lkeys.append((fmt, op, 'dpp16', lab))
    ares = dict(zip(lkeys, asm(lines)))
    # the same text without _dpp, and e32 text with the DPP modifiers appended
    alt, akeys = [], []
    for (fmt, op), d in sorted(got.items()):
        if 'dpp16' in d:
            t = d['dpp16'][1]
            n = t.split()[0]
            if n.endswith('_dpp'):
                alt.append(t.replace(n, n[:-4], 1)); akeys.append((fmt, op, 'no_suffix'))
                alt.append(t.replace(n, n[:-4] + '_e32', 1)); akeys.append((fmt, op, 'e32_suffix'))
                alt.append(t.replace(n, n[:-4] + '_e32_dpp', 1)); akeys.append((fmt, op, 'e32_dpp_suffix'))
            else:
                alt.append(t.replace(n, n + '_e32_dpp', 1)); akeys.append((fmt, op, 'e32_dpp_suffix'))
                alt.append(t.replace(n, n + '_dpp', 1)); akeys.append((fmt, op, 'dpp_suffix'))
                alt.append(t.replace(n, n + '_e32', 1)); akeys.append((fmt, op, 'e32_suffix'))
    altres = dict(zip(akeys, asm(alt)))
    for (fmt, op), d in sorted(got.items()):
        r = OrderedDict(format=fmt, op=op)
        r['e32'] = d['e32'][1].split()[0] if 'e32' in d else None
        r['e32_example'] = d['e32'][1] if 'e32' in d else None
        for kind in ('dpp16', 'dpp8', 'dpp8fi'):
            if kind in d:
                vd, t = d[kind]
                r[kind] = t
                want = (e32_dpp(fmt, op, dpp16(**T16), vd, 20) if kind == 'dpp16' else
                        e32_dpp(fmt, op, dpp8(10, SELS), vd, 20, S_DPP8 if kind == 'dpp8' else S_DPP8FI))
                r[kind + '_bytes'] = hexb(want)
                r[kind + '_roundtrip'] = asm_desc(ares[(fmt, op, kind, 'template')], want)
            else:
                r[kind] = None
        if 'dpp16' in d or 'dpp8' in d:
            vd = (d.get('dpp16') or d.get('dpp8'))[0]
            base_t = d.get('dpp16', (0, None))[1]
            mods = OrderedDict()
            for lab, p in e32_mod_probes(fmt, op, vd).items():
                x = mres[(fmt, op, lab)]
                if x is None:
                    mods[lab] = 'rejected (invalid instruction encoding)'
                elif x[0] == base_t:
                    mods[lab] = 'ignored (same text; llvm-mc re-encodes %s the bit)' % (
                        'with' if list(x[1]) == p else 'without')
                else:
                    a = ares.get((fmt, op, 'dpp16', lab))
                    mods[lab] = OrderedDict(text=x[0], asm=asm_desc(a, p) if a else None)
            r['probes'] = mods
            r['wave64'] = OrderedDict((k, w64.get((fmt, op, k))) for k in ('dpp16', 'dpp8') if (fmt, op, k) in w64)
            for k in ('no_suffix', 'e32_suffix', 'dpp_suffix', 'e32_dpp_suffix'):
                if (fmt, op, k) in altres:
                    a = altres[(fmt, op, k)]
                    r['asm_' + k] = asm_desc(a) if a[0] == 'ERR' else '%s [%s]' % (a[1], hexb(a[0]))
        recs['%s 0x%02x' % (fmt, op)] = r
    return recs

def sig_class(v):
    """A probe result reduced to its kind, for grouping opcodes."""
    if isinstance(v, dict):
        a = v.get('asm') or ''
        return 'printed; asm ' + ('same' if a == 'same' else a if a.startswith('error') else 'other bytes')
    return v.split(' (')[0] if v.startswith('rejected') else v

def group_by_signature(recs, key='probes'):
    groups = OrderedDict()
    for name, r in recs.items():
        if not r.get(key):
            continue
        sig = tuple((k, sig_class(v)) for k, v in r[key].items())
        groups.setdefault(sig, []).append(r.get('name') or (r.get('dpp16') or r.get('dpp8') or name).split()[0])
    return [OrderedDict(signature=OrderedDict(s), count=len(n), ops=n) for s, n in groups.items()]

# ---------------------------------------------------------------- VOP3 DPP opcodes

NUM = dict(vdst=40, sdst=50, src0=10, src1=20, src2=30)

def vop3_dpp_scan():
    """For every VOP3 opcode that decodes (survey_vop3.scan() templates), the DPP16 / DPP8 / DPP8-fi
    forms: src0 = 250/233/234 plus a DPP dword with src0 = v10; src1/src2 tried as VGPR, SGPR
    and 0, vdst 40 or 0 (v_cmpx)."""
    base = survey_vop3.scan()
    probes, keys = [], []
    for op in sorted(base):
        kw, text = base[op]
        for c1 in ('V', 'S', '0'):
            for c2 in ('V', 'S', '0'):
                for vd in sorted({kw['vdst'], 40}):
                    k = dict(vdst=vd, src1={'V': V + 20, 'S': 20, '0': 0}[c1], src2={'V': V + 30, 'S': 30, '0': 0}[c2])
                    probes.append(vop3_dpp(op, dpp16(**T16), **k)); keys.append((op, 'dpp16', c1 + c2, vd))
                    probes.append(vop3_dpp(op, dpp8(10, SELS), S_DPP8, **k)); keys.append((op, 'dpp8', c1 + c2, vd))
    res = dis(probes)
    found = {}
    for (op, kind, t, vd), r in zip(keys, res):
        if not r:
            continue
        score = ('Invalid' not in r, sum(c != '0' for c in t), vd == base[op][0]['vdst'], sum(c == 'V' for c in t))
        key = (op, kind)
        if key not in found or score > found[key][0]:
            k = dict(vdst=vd, src1={'V': V + 20, 'S': 20, '0': 0}[t[0]], src2={'V': V + 30, 'S': 30, '0': 0}[t[1]])
            found[key] = (score, k, r)
    return base, {k: (v[1], v[2]) for k, v in found.items()}

VOP3_WITHOUT_DPP = []       # filled by vop3_dpp_survey(): VOP3 opcodes with no DPP form

VOP3_DPP_SRC = [('sgpr', 20), ('vcc_lo', 106), ('m0', 125), ('null', 124), ('exec_lo', 126), ('int1', 129), ('int-1', 193),
                ('f1.0', 242), ('inv2pi', 248), ('literal', LIT), ('v200', V + 200)]

def vop3_dpp_survey():
    base, found = vop3_dpp_scan()
    ops = sorted({op for op, _ in found})
    VOP3_WITHOUT_DPP[:] = [base[op][1].split()[0] for op in sorted(base) if op not in ops]
    sd = dis([vop3_dpp(op, dpp16(**T16), b8=50, **found[(op, 'dpp16' if (op, 'dpp16') in found else 'dpp8')][0]) for op in ops])
    # VOP3SD: redo the templates with sdst = s50 in bits [14:8]
    for op, sdt in zip(ops, sd):
        if sdt and ' s50' in sdt:
            for kind in ('dpp16', 'dpp8'):
                if (op, kind) in found:
                    kw = dict(found[(op, kind)][0], b8=50)
                    w = vop3_dpp(op, dpp16(**T16), **kw) if kind == 'dpp16' else vop3_dpp(op, dpp8(10, SELS), S_DPP8, **kw)
                    found[(op, kind)] = (kw, dis([w])[0])
    recs = OrderedDict()
    mprobes, mkeys = [], []
    for op, sdt in zip(ops, sd):
        kind = 'dpp16' if (op, 'dpp16') in found else 'dpp8'
        kw, text = found[(op, kind)]
        name, operands, mods = split(text)
        is_sd = bool(sdt) and ' s50' in sdt
        r = OrderedDict(op=op, name=name, format='Vop3sd' if is_sd else 'Vop3', vop3_name=base[op][1].split()[0],
                        template=kw, dpp16=found.get((op, 'dpp16'), (None, None))[1], dpp8=found.get((op, 'dpp8'), (None, None))[1])
        r['origin'] = 'Vopc' if op < 256 else 'Vop2' if op < 384 else 'Vop1' if op < 512 else 'Vop3-only'
        # field of each printed operand
        fields = []
        for tok in operands:
            rg = reg_of(tok)
            f = None
            if rg:
                for fn, n in NUM.items():
                    if rg[1] == n and not (fn == 'sdst' and not is_sd):
                        f = fn
                if f is None and rg[1] == 0 and not fields:
                    f = 'vdst'
                if f is None and is_sd and rg == ('s', 0, rg[2]):
                    f = 'sdst'
            fields.append((f or tok, tok))
        r['operands'] = fields
        recs[op] = r
        # modifier probes (VOP3 bits) and source probes
        bk = kw.get('b8', 0)
        for lab, mk in MOD_PROBES:
            if is_sd and lab.startswith(('abs', 'op_sel')):
                continue
            k = dict(kw); k.update(mk)
            mprobes.append(vop3_dpp(op, dpp16(**T16), **k) if kind == 'dpp16' else vop3_dpp(op, dpp8(10, SELS), S_DPP8, **k))
            mkeys.append((op, lab))
        for lab, mk in (('dpp_src0_neg', dict(neg0=1)), ('dpp_src0_abs', dict(abs0=1)), ('dpp_bound_ctrl', dict(bc=1)),
                        ('dpp_fi', dict(fi=1)), ('dpp_src0_v200', dict(src0=200))):
            if kind != 'dpp16':
                continue
            k = dict(kw, b8=bk)
            mprobes.append(vop3_dpp(op, dpp16(**dict(T16, **mk)), **k)); mkeys.append((op, lab))
        for f in ('src1', 'src2'):
            if f not in [x[0] for x in fields]:
                continue
            for lab, code in VOP3_DPP_SRC:
                k = dict(kw, b8=bk); k[f] = code
                mprobes.append(vop3_dpp(op, dpp16(**T16), lit=0x12345678 if code == LIT else None, **k)
                               if kind == 'dpp16' else
                               vop3_dpp(op, dpp8(10, SELS), S_DPP8, lit=0x12345678 if code == LIT else None, **k))
                mkeys.append((op, '%s=%s' % (f, lab)))
        if 'vdst' in [x[0] for x in fields]:
            k = dict(kw, b8=bk, vdst=200)
            mprobes.append(vop3_dpp(op, dpp16(**T16), **k) if kind == 'dpp16' else vop3_dpp(op, dpp8(10, SELS), S_DPP8, **k))
            mkeys.append((op, 'vdst=v200'))
    mres = dict(zip(mkeys, dis_full(mprobes)))
    mbytes = dict(zip(mkeys, mprobes))
    # assembler: templates, probe texts, names with/without suffix
    lines, lkeys = [], []
    for op, r in recs.items():
        for kind in ('dpp16', 'dpp8'):
            if r[kind]:
                lines.append(r[kind]); lkeys.append((op, kind))
        n = r['name']
        if r['dpp16']:
            stem = n[:-len('_e64_dpp')] if n.endswith('_e64_dpp') else n
            lines.append(r['dpp16'].replace(n, stem, 1)); lkeys.append((op, 'asm_bare_name'))
            lines.append(r['dpp16'].replace(n, stem + '_e64', 1)); lkeys.append((op, 'asm_e64_name'))
            lines.append(r['dpp16'].replace(n, stem + '_dpp', 1)); lkeys.append((op, 'asm_dpp_name'))
    for (op, lab), x in mres.items():
        if x:
            lines.append(x[0]); lkeys.append((op, 'probe ' + lab))
    ares = dict(zip(lkeys, asm(lines)))
    for op, r in recs.items():
        kw = r['template']
        for kind in ('dpp16', 'dpp8'):
            if r[kind]:
                want = vop3_dpp(op, dpp16(**T16), **kw) if kind == 'dpp16' else vop3_dpp(op, dpp8(10, SELS), S_DPP8, **kw)
                r[kind + '_bytes'] = hexb(want)
                r[kind + '_roundtrip'] = asm_desc(ares[(op, kind)], want)
        for k in ('asm_bare_name', 'asm_e64_name', 'asm_dpp_name'):
            if (op, k) in ares:
                a = ares[(op, k)]
                r[k] = asm_desc(a) if a[0] == 'ERR' else '%s [%s]' % (a[1], hexb(a[0]))
        probes = OrderedDict()
        base_t = r['dpp16'] or r['dpp8']
        for (o, lab), x in mres.items():
            if o != op:
                continue
            p = mbytes[(o, lab)]
            if x is None:
                probes[lab] = 'rejected (invalid instruction encoding)'
            elif x[0] == base_t:
                probes[lab] = 'ignored (same text; llvm-mc re-encodes %s the bit)' % ('with' if list(x[1]) == p else 'without')
            else:
                a = ares.get((op, 'probe ' + lab))
                probes[lab] = OrderedDict(text=x[0], asm=asm_desc(a, p) if a else None)
        r['probes'] = probes
    # wave64
    w64p, w64k = [], []
    for op, r in recs.items():
        if r['dpp16']:
            w64p.append(vop3_dpp(op, dpp16(**T16), **r['template'])); w64k.append(op)
    for op, t in zip(w64k, dis(w64p, W64)):
        recs[op]['wave64'] = t
    return recs

# ---------------------------------------------------------------- VOP3P opcodes

VOP3P_MODS = ([('op_sel%d' % i, 'op_sel', 1 << i) for i in range(3)] +
              [('op_sel_hi%d' % i, 'op_sel_hi', 1 << i) for i in range(3)] +
              [('neg_lo%d' % i, 'neg_lo', 1 << i) for i in range(3)] +
              [('neg_hi%d' % i, 'neg_hi', 1 << i) for i in range(3)] + [('clamp', 'clamp', 1)])

def word_fields_vop3p(b):
    w = int.from_bytes(bytes(b[:8]), 'little')
    f = {k: (w >> lo) & ((1 << n) - 1) for k, (lo, n) in VOP3P_FIELDS.items()}
    f['op_sel_hi'] = f.pop('op_sel_hi01') | (f.pop('op_sel_hi2') << 2)
    return f

def vop3p_scan():
    probes, keys = [], []
    val = lambda c, n: {'V': V + n, 'S': n, '0': 0}[c]
    for op in range(128):
        for t in [(a, b, c) for a in 'VS0' for b in 'VS0' for c in 'VS0']:
            for vd in (40, 0):
                for hi in (7, 0):
                    probes.append(vop3p(op, vd, val(t[0], 10), val(t[1], 20), val(t[2], 30), op_sel_hi=hi))
                    keys.append((op, t, vd, hi))
    res = dis(probes)
    found = {}
    for (op, t, vd, hi), r in zip(keys, res):
        if not r:
            continue
        nm, ops_, mods = split(r)
        score = ('Invalid' not in r, sum(c != '0' for c in t), vd != 0, sum(c == 'V' for c in t), -len(mods))
        if op not in found or score > found[op][0]:
            found[op] = (score, dict(vdst=vd, src0=val(t[0], 10), src1=val(t[1], 20), src2=val(t[2], 30), op_sel_hi=hi), r)
    return {op: (v[1], v[2]) for op, v in sorted(found.items())}

def vop3p_survey():
    found = vop3p_scan()
    recs = OrderedDict()
    # the assembler's defaults: assemble each template text, read the modifier bits back
    defaults = dict(zip(found, asm([t for _, t in found.values()])))
    probes, keys = [], []
    for op, (kw, text) in found.items():
        name, operands, mods = split(text)
        fields = []
        for tok in operands:
            rg = reg_of(tok)
            f = None
            if rg:
                for fn, n in NUM.items():
                    if rg[1] == n and fn != 'sdst':
                        f = fn
                if f is None and rg[1] == 0 and not fields:
                    f = 'vdst'
            fields.append((f or tok, tok))
        d = defaults[op]
        r = OrderedDict(op=op, name=name, template=kw, text=text, operands=fields,
                        nsrc=sum(1 for f, _ in fields if f.startswith('src')))
        if d[0] == 'ERR':
            r['template_asm'] = 'error: ' + d[1]
            base = vop3p(op, **kw)
        else:
            base = list(d[0])
            r['template_asm'] = 'same' if base == vop3p(op, **kw) else hexb(base)
            df = word_fields_vop3p(base)
            r['default_bits'] = OrderedDict((k, df[k]) for k in ('op_sel', 'op_sel_hi', 'neg_lo', 'neg_hi', 'clamp'))
            r['unused_src_fields'] = OrderedDict((k, df[k]) for k in ('src0', 'src1', 'src2')
                                                 if k not in [f for f, _ in fields])
        r['bytes'] = hexb(base)
        recs[op] = r
        bf = word_fields_vop3p(base)
        for lab, fld, bit in VOP3P_MODS:
            f = dict(bf); f[fld] ^= bit
            probes.append(vop3p(op, **{k: f[k] for k in ('vdst', 'src0', 'src1', 'src2', 'op_sel', 'op_sel_hi', 'neg_lo', 'neg_hi', 'clamp')}))
            keys.append((op, 'mod', lab))
        for fld in ('src0', 'src1', 'src2'):
            if fld not in [x for x, _ in fields]:
                continue
            for lab, code, lit in SRC_PROBES + [('sgpr', NUM[fld], None), ('vgpr', V + NUM[fld], None), ('v200', V + 200, None),
                                                ('vcc_lo', 106, None), ('m0', 125, None), ('exec_lo', 126, None), ('null', 124, None)]:
                f = dict(bf); f[fld] = code
                probes.append(vop3p(op, lit=lit, **{k: f[k] for k in ('vdst', 'src0', 'src1', 'src2', 'op_sel', 'op_sel_hi', 'neg_lo', 'neg_hi', 'clamp')}))
                keys.append((op, fld, lab))
        for kind, code, dw in (('dpp16', S_DPP16, dpp16(**T16)), ('dpp8', S_DPP8, dpp8(10, SELS))):
            f = dict(bf); f['src0'] = code
            probes.append(vop3p(op, **{k: f[k] for k in ('vdst', 'src0', 'src1', 'src2', 'op_sel', 'op_sel_hi', 'neg_lo', 'neg_hi', 'clamp')}) + le(dw, 4))
            keys.append((op, 'dpp', kind))
    res = dict(zip(keys, dis_full(probes)))
    pbytes = dict(zip(keys, probes))
    lines, lkeys = [], []
    for k, x in res.items():
        if x:
            lines.append(x[0]); lkeys.append(k)
    ares = dict(zip(lkeys, asm(lines)))
    w64 = dict(zip(recs, dis([vop3p(op, **r['template']) for op, r in recs.items()], W64)))
    for op, r in recs.items():
        base_t = r['text']
        def desc(k):
            x = res[k]
            if x is None:
                return 'rejected (invalid instruction encoding)'
            if x[0] == base_t:
                return 'ignored (same text; llvm-mc re-encodes %s the bit)' % ('with' if list(x[1]) == pbytes[k] else 'without')
            return OrderedDict(text=x[0], asm=asm_desc(ares[k], pbytes[k]))
        r['modifiers'] = OrderedDict((lab, desc((op, 'mod', lab))) for lab, _, _ in VOP3P_MODS)
        srcs = OrderedDict()
        for fld in ('src0', 'src1', 'src2'):
            if fld not in [x for x, _ in r['operands']]:
                continue
            idx = [x for x, _ in r['operands']].index(fld)
            toks = OrderedDict()
            for (o, f, lab), x in res.items():
                if o == op and f == fld:
                    if x is None:
                        toks[lab] = None
                    else:
                        ops_ = split(x[0])[1]
                        toks[lab] = ops_[idx] if idx < len(ops_) else x[0]
            acc = OrderedDict((lab, toks.get(lab) is not None and 'Invalid' not in (toks.get(lab) or ''))
                              for lab in ('vgpr', 'sgpr', 'c129', 'l12345678'))
            asm_acc = OrderedDict()
            for lab in ('sgpr', 'c129', 'c242', 'l12345678', 'l3f800000', 'l00003c00', 'v200'):
                k = (op, fld, lab)
                if res.get(k):
                    asm_acc[lab] = asm_desc(ares[k], pbytes[k])
            sig = {lab: toks.get(lab) for lab, _, _ in SRC_PROBES}
            srcs[fld] = OrderedDict(token=r['operands'][idx][1], accepts=acc,
                                    type=classify(sig) if acc['c129'] else 'VgprOnly',
                                    probe_text=OrderedDict((k, toks.get(k)) for k in TYPE_KEYS + ['sgpr', 'v200', 'vcc_lo', 'm0', 'null']),
                                    asm=asm_acc)
        r['sources'] = srcs
        for kind in ('dpp16', 'dpp8'):
            x = res[(op, 'dpp', kind)]
            r[kind] = x[0] if x else None
            if x:
                r[kind + '_asm'] = asm_desc(ares[(op, 'dpp', kind)], pbytes[(op, 'dpp', kind)])
        r['wave64'] = w64[op]
    return recs

# ---------------------------------------------------------------- dpp_ctrl, masks, bound_ctrl, fi, DPP8 selects

def ctrl_survey():
    """All 512 dpp_ctrl values in three encodings, all 256 (row_mask, bank_mask) pairs, the four
    (bound_ctrl, fi) pairs, and DPP8 selects, each against the printing model; every printed
    text assembled back."""
    probes, keys, model = [], [], []
    for c in range(512):
        probes.append(e32_dpp('Vop1', 1, dpp16(src0=1, ctrl=c), 5)); keys.append(('ctrl', 'v_mov_b32_dpp', c))
        model.append('v_mov_b32_dpp v5, v1 ' + dpp16_suffix(c, 0xf, 0xf, 0, 0))
        probes.append(vop3_dpp(0x103, dpp16(src0=1, ctrl=c), vdst=5, src1=V + 2)); keys.append(('ctrl', 'v_add_f32_e64_dpp', c))
        model.append('v_add_f32_e64_dpp v5, v1, v2 ' + dpp16_suffix(c, 0xf, 0xf, 0, 0))
        probes.append(vop3p_dpp(32, dpp16(src0=1, ctrl=c), vdst=5, src1=V + 2, src2=V + 3)); keys.append(('ctrl', 'v_fma_mix_f32_e64_dpp', c))
        model.append('v_fma_mix_f32_e64_dpp v5, v1, v2, v3 ' + dpp16_suffix(c, 0xf, 0xf, 0, 0))
    for row in range(16):
        for bank in range(16):
            for bc in (0, 1):
                for fi in (0, 1):
                    if (bc or fi) and (row, bank) not in ((0xf, 0xf), (0, 0), (5, 0xa)):
                        continue
                    probes.append(e32_dpp('Vop2', 3, dpp16(src0=1, ctrl=0x111, row=row, bank=bank, bc=bc, fi=fi), 5, 2))
                    keys.append(('masks', row, bank, bc, fi))
                    model.append('v_add_f32_dpp v5, v1, v2 ' + dpp16_suffix(0x111, row, bank, bc, fi))
    rng = random.Random(8)
    sel_sets = [tuple([k] * 8) for k in range(8)] + [tuple(range(8)), tuple(range(7, -1, -1))]
    sel_sets += [tuple(rng.randrange(8) for _ in range(8)) for _ in range(40)]
    for sels in sel_sets:
        for kind in (S_DPP8, S_DPP8FI):
            probes.append(e32_dpp('Vop2', 3, dpp8(1, sels), 5, 2, kind)); keys.append(('dpp8', sels, kind))
            model.append('v_add_f32_dpp v5, v1, v2 ' + dpp8_suffix(sels, kind == S_DPP8FI))
    res = dis_full(probes)
    texts = [r[0] for r in res if r]
    ares = iter(asm(texts))
    out = OrderedDict(ctrl=OrderedDict(), masks=OrderedDict(), dpp8=[], mismatches=[])
    agree = Counter()
    for k, p, m, r in zip(keys, probes, model, res):
        a = next(ares) if r else None
        t = r[0] if r else None
        agree[t == m] += 1
        if t != m:
            out['mismatches'].append((hexb(p), t, m))
        ad = asm_desc(a, p) if a else None
        if k[0] == 'ctrl':
            d = out['ctrl'].setdefault('0x%03x' % k[2], OrderedDict())
            d[k[1]] = t if t is not None else 'invalid instruction encoding'
            d[k[1] + ' asm'] = ad
        elif k[0] == 'masks':
            out['masks']['row 0x%x bank 0x%x bc %d fi %d' % k[1:]] = OrderedDict(text=t.split(' ', 4)[-1] if t else None, asm=ad)
        else:
            out['dpp8'].append(OrderedDict(bytes=hexb(p), text=t, asm=ad))
    out['model_agrees'] = agree[True]
    out['model_disagrees'] = agree[False]
    # classes of dpp_ctrl values
    cls = OrderedDict()
    for c in range(512):
        d = out['ctrl']['0x%03x' % c]
        t = d['v_mov_b32_dpp']
        kind = re.sub(r'\d+', 'N', t.split(' ', 3)[3].split(' row_mask')[0]) if t.startswith('v_mov') else t
        a = d['v_mov_b32_dpp asm']
        cls.setdefault((kind, a if a and a.startswith('error') else 'round trip' if a == 'same' else a), []).append(c)
    out['ctrl_classes'] = [OrderedDict(printed=k, asm=a, values=ranges(v)) for (k, a), v in cls.items()]
    return out

def ranges(vals):
    out, start, prev = [], None, None
    for v in vals + [None]:
        if start is None:
            start = prev = v
        elif v is not None and v == prev + 1:
            prev = v
        else:
            out.append('0x%03x' % start if start == prev else '0x%03x-0x%03x' % (start, prev))
            start = prev = v
    return out

# ---------------------------------------------------------------- goldens

CTRL_KINDS = ['quad_perm', 'row_shl', 'row_shr', 'row_ror', 'row_mirror', 'row_half_mirror', 'row_share', 'row_xmask']

def rand_ctrl(rng, kind):
    return {'quad_perm': lambda: rng.randrange(256), 'row_shl': lambda: 0x100 + rng.randint(1, 15),
            'row_shr': lambda: 0x110 + rng.randint(1, 15), 'row_ror': lambda: 0x120 + rng.randint(1, 15),
            'row_mirror': lambda: 0x140, 'row_half_mirror': lambda: 0x141,
            'row_share': lambda: 0x150 + rng.randrange(16), 'row_xmask': lambda: 0x160 + rng.randrange(16)}[kind]()

def rand_dpp16(rng, kind, src0, mods):
    """A DPP16 dword: masks mostly 0xf, sometimes anything; bound_ctrl/fi sometimes; the neg/abs
    bits that `mods` lists (those the op prints and round-trips)."""
    row = 0xf if rng.random() < 0.5 else rng.randrange(16)
    bank = 0xf if rng.random() < 0.5 else rng.randrange(16)
    kw = dict(src0=src0, ctrl=rand_ctrl(rng, kind), row=row, bank=bank, bc=int(rng.random() < 0.3), fi=int(rng.random() < 0.3))
    for m in mods:
        kw[m] = int(rng.random() < 0.35)
    return dpp16(**kw)

def ok_probe(x):
    return isinstance(x, dict) and x.get('asm') == 'same'

def rand_sgpr(rng):
    return rng.choice([rng.randrange(106), rng.randrange(106), 106, 124, 125])

def golden_words(e32r, v3r, v3pr, rng):
    """(bytes, family) for the DPP golden."""
    words = []
    kinds = iter(lambda: rng.choice(CTRL_KINDS), None)
    # e32 DPP: 4 DPP16 (cycling every dpp_ctrl kind over the opcodes) + 2 DPP8 per opcode
    ki = 0
    for key, r in e32r.items():
        if not r['dpp16']:
            continue
        fmt, op = r['format'], r['op']
        p = r['probes']
        maxreg = 255 if all(ok_probe(p.get(k, {'asm': 'same'})) for k in ('src0_v200', 'vdst_v200', 'vsrc1_v200')) else 127
        mods = [m for m, lab in (('neg0', 'src0_neg'), ('abs0', 'src0_abs'), ('neg1', 'src1_neg'), ('abs1', 'src1_abs')) if ok_probe(p.get(lab))]
        for i in range(6):
            vdst = rng.randint(0, maxreg) if fmt != 'Vopc' else 0
            vsrc1 = rng.randint(0, maxreg) if fmt != 'Vop1' else 0
            src0 = rng.randint(0, maxreg)
            if 'v_mov_b16' in r['dpp16']:
                vdst |= rng.choice([0, 128]); src0 = (src0 & 127) | (vdst & 128)
            if i < 4:
                kind = CTRL_KINDS[ki % len(CTRL_KINDS)]; ki += 1
                words.append((e32_dpp(fmt, op, rand_dpp16(rng, kind, src0, mods), vdst, vsrc1), 'e32 dpp16'))
            else:
                sels = [rng.randrange(8) for _ in range(8)]
                words.append((e32_dpp(fmt, op, dpp8(src0, sels), vdst, vsrc1, rng.choice([S_DPP8, S_DPP8FI])), 'e32 dpp8'))
    # VOP3 DPP: 4 DPP16 + 2 DPP8 per opcode, with the VOP3 modifiers it prints
    for op, r in v3r.items():
        kw = r['template']
        p = r['probes']
        fields = [f for f, _ in r['operands']]
        src2_ok = [lab for lab, code in VOP3_DPP_SRC if ok_probe(p.get('src2=%s' % lab))]
        for i in range(6):
            k = dict(kw)
            b8 = 0
            abs_ = sum(1 << j for j in range(3) if ok_probe(p.get('abs%d' % j)) and rng.random() < 0.3)
            opsel = sum(1 << j for j in range(4) if ok_probe(p.get('op_sel%d' % j)) and rng.random() < 0.3)
            neg = sum(1 << j for j in range(3) if ok_probe(p.get('neg%d' % j)) and rng.random() < 0.3)
            if r['format'] == 'Vop3sd':
                b8 = rand_sgpr(rng) if rng.random() < 0.8 else 124
            else:
                b8 = abs_ | (opsel << 3)
            k['b8'] = b8
            k['neg'] = neg
            k['clamp'] = int(ok_probe(p.get('clamp')) and rng.random() < 0.3)
            k['omod'] = rng.choice([0, 0, 1, 2, 3]) if ok_probe(p.get('omod1')) else 0
            if 'vdst' in fields:
                tok = dict(r['operands'])['vdst']
                k['vdst'] = rng.randrange(256) if tok.startswith('v') else rand_sgpr(rng)
            if 'src1' in fields:
                k['src1'] = V + rng.randrange(256)
            if 'src2' in fields:
                tok = dict(r['operands'])['src2']
                if tok.startswith('s'):
                    k['src2'] = rand_sgpr(rng)
                elif src2_ok and rng.random() < 0.4:
                    lab = rng.choice(src2_ok)
                    k['src2'] = dict(VOP3_DPP_SRC)[lab] if lab != 'sgpr' else rng.randrange(106)
                else:
                    k['src2'] = V + rng.randrange(256)
            src0 = rng.randrange(256)
            if i < 4:
                kind = CTRL_KINDS[ki % len(CTRL_KINDS)]; ki += 1
                words.append((vop3_dpp(op, rand_dpp16(rng, kind, src0, []), **k), 'vop3 dpp16'))
            else:
                words.append((vop3_dpp(op, dpp8(src0, [rng.randrange(8) for _ in range(8)]), rng.choice([S_DPP8, S_DPP8FI]), **k), 'vop3 dpp8'))
    # VOP3P DPP
    for op, r in v3pr.items():
        if not r.get('dpp16'):
            continue
        for i in range(12):
            f = dict(vdst=rng.randrange(256), src1=V + rng.randrange(256),
                     src2=rng.choice([V + rng.randrange(256), V + rng.randrange(256), 242, 128, rng.randrange(106)]))
            f.update(vop3p_rand_mods(rng, r))
            src0 = rng.randrange(256)
            if i < 8:
                kind = CTRL_KINDS[i % len(CTRL_KINDS)]
                words.append((vop3p_dpp(op, rand_dpp16(rng, kind, src0, []), **f), 'vop3p dpp16'))
            else:
                words.append((vop3p_dpp(op, dpp8(src0, [rng.randrange(8) for _ in range(8)]), rng.choice([S_DPP8, S_DPP8FI]), **f), 'vop3p dpp8'))
    # wild words: every modifier bit and source code at random (most do not round-trip; the
    # filter drops and counts them)
    for key, r in e32r.items():
        if r['dpp16']:
            d = dpp16(src0=rng.randrange(256), ctrl=rng.randrange(512), row=rng.randrange(16), bank=rng.randrange(16),
                      bc=rng.randrange(2), fi=rng.randrange(2), neg0=rng.randrange(2), abs0=rng.randrange(2),
                      neg1=rng.randrange(2), abs1=rng.randrange(2), bit17=rng.randrange(2))
            words.append((e32_dpp(r['format'], r['op'], d, rng.randrange(256), rng.randrange(256)), 'wild e32 dpp16'))
    for op, r in v3r.items():
        d = dpp16(src0=rng.randrange(256), ctrl=rng.randrange(512), row=rng.randrange(16), bank=rng.randrange(16),
                  bc=rng.randrange(2), fi=rng.randrange(2), neg0=rng.randrange(2), abs0=rng.randrange(2))
        words.append((vop3_dpp(op, d, vdst=rng.randrange(256), b8=rng.randrange(128), clamp=rng.randrange(2),
                               src1=rng.randrange(512), src2=rng.randrange(512), omod=rng.randrange(4), neg=rng.randrange(8)),
                      'wild vop3 dpp16'))
    return words

def vop3p_rand_mods(rng, r):
    d = r.get('default_bits', {})
    f = dict(op_sel=0, op_sel_hi=d.get('op_sel_hi', 0), neg_lo=0, neg_hi=0, clamp=0)
    for lab, fld, bit in VOP3P_MODS:
        if ok_probe(r['modifiers'].get(lab)) and rng.random() < 0.25:
            f[fld] ^= bit
    return f

# inline constants (and src_scc) that assemble in a VOP3P source (not 209-239, DPP 233/234/250,
# vccz/execz 251/252, lds_direct 254)
VOP3P_SRC_CHOICES = [c for lab, c, lit in SRC_PROBES if lit is None and (128 <= c < 209 or 240 <= c <= 248 or c == 253)]

def vop3p_golden_words(v3pr, rng):
    words = []
    lits = [0x12345678, 0x3c00, 0x3c003c00, 0x3f800000, 0x3f80, 0x4000, 0xbc00, 0x3118, 0x40, 0x41, 0xffffffef, 0x0000ffff, 0xffff0000]
    for op, r in v3pr.items():
        srcs = r['sources']
        widths = {}
        for fld, tok in r['operands']:
            m = re.match(r'v\[(\d+):(\d+)\]', tok)
            widths[fld] = int(m.group(2)) - int(m.group(1)) + 1 if m else 1
        for i in range(36):
            f = dict(vdst=rng.randrange(256 - widths.get('vdst', 1) + 1), src0=0, src1=0, src2=0)
            lit = None
            for fld in ('src0', 'src1', 'src2'):
                if fld not in srcs:
                    continue
                s = srcs[fld]
                x = rng.random()
                asm_ok = s['asm']
                if x < 0.55 or s['type'] == 'VgprOnly' and x < 0.9:
                    f[fld] = V + rng.randrange(256 - widths[fld] + 1)
                elif x < 0.7 and asm_ok.get('sgpr') == 'same':
                    f[fld] = rand_sgpr(rng) if widths[fld] == 1 else 0
                elif x < 0.88 and asm_ok.get('c129') == 'same':
                    f[fld] = rng.choice(VOP3P_SRC_CHOICES)
                elif asm_ok.get('l12345678') in ('same', None) and s['accepts']['l12345678']:
                    f[fld] = LIT
                    lit = lit if lit is not None else rng.choice(lits + [rng.getrandbits(32)])
                else:
                    f[fld] = V + rng.randrange(256 - widths[fld] + 1)
            f.update(vop3p_rand_mods(rng, r))
            words.append((vop3p(op, lit=lit, **f), 'vop3p'))
        for i in range(4):      # wild words
            f = dict(vdst=rng.randrange(256), src0=rng.randrange(512), src1=rng.randrange(512), src2=rng.randrange(512),
                     op_sel=rng.randrange(8), op_sel_hi=rng.randrange(8), neg_lo=rng.randrange(8), neg_hi=rng.randrange(8),
                     clamp=rng.randrange(2))
            lit = rng.getrandbits(32) if LIT in (f['src0'], f['src1'], f['src2']) else None
            if f['src0'] in (S_DPP16, S_DPP8, S_DPP8FI):
                f['src0'] = V + 1
            words.append((vop3p(op, lit=lit, **f), 'wild vop3p'))
    return words

def roundtrip_filter(words):
    """Keep the words llvm-mc decodes (exactly these bytes) to a text that assembles back to the
    same bytes and prints the same text; count the others by reason."""
    res = dis([w for w, _ in words])
    idx = [i for i, t in enumerate(res) if t is not None]
    ares = dict(zip(idx, asm([res[i] for i in idx])))
    keep, drop = [], Counter()
    samples = OrderedDict()
    seen = set()
    for i, ((w, fam), t) in enumerate(zip(words, res)):
        if t is None:
            drop['%s: invalid instruction encoding' % fam] += 1
            continue
        a = ares[i]
        why = None
        if a[0] == 'ERR':
            why = '%s: text does not assemble (%s)' % (fam, a[1])
        elif list(a[0]) != list(w):
            why = '%s: text assembles to other bytes' % fam
        elif a[1] != t:
            why = '%s: assembler prints other text' % fam
        if why:
            drop[why] += 1
            if len(samples.setdefault(why, [])) < 4:
                samples[why].append('[%s] -> %s ; asm: %s' % (hexb(w), t, asm_desc(a, w)))
        elif tuple(w) in seen:
            drop['%s: duplicate' % fam] += 1
        else:
            seen.add(tuple(w))
            keep.append((w, t, fam))
    return keep, drop, samples

# VOP3 instructions whose op_sel / sext / ignored modifiers the table describes (the op_sel
# forms of the 16-bit VOP3 instructions and the sext() sources, tools/VOP3_NOTES.md): read
# off crates/rdna3-isa/src/table.rs, so that the golden covers exactly those rows.
TABLE_ROW = re.compile(r'InstrDef::new\(Vop3, 0x([0-9a-f]+), "(\w+)", &\[(.*?)\], (Flags::[^\n]*)\),\n')

def table_opsel_rows():
    path = os.path.join(os.path.dirname(HERE), 'crates/rdna3-isa/src/table.rs')
    rows = []
    for m in TABLE_ROW.finditer(open(path).read()):
        flags = set(re.findall(r'Flags::(\w+)', m.group(4)))
        if not flags & {'OP_SEL', 'SEXT'}:
            continue
        ops = re.findall(r'O::new\((\w+), (\w+)(?:\(([\w, ]+)\))?\)', m.group(3))
        rows.append((int(m.group(1), 16), m.group(2), ops, flags))
    return rows

def opsel_golden_words(rng):
    """Random VOP3 words of the op_sel/sext rows: op_sel, the neg/abs bits each source takes,
    clamp/omod where taken, VGPR/SGPR/constant/literal sources; plus wild words."""
    words = []
    lits = [0x12345678, 0x3c00, 0x3f800000, 0x40, 0xffffffef, 0x1234, 0x3118]
    for op, name, ops, flags in table_opsel_rows():
        fields = {f: (k, a) for f, k, a in ops}
        srcs = [f for f in ('Src0', 'Src1', 'Src2') if f in fields]
        for i in range(40):
            k = dict(vdst=rng.randrange(255), b8=0, clamp=0, omod=0, neg=0)
            lit = None
            for f in srcs:
                kind, args = fields[f]
                x = rng.random()
                if kind == 'Ssrc':
                    code = rng.choice([rng.randrange(106), 106, 124, 125, 129, 193, 242])
                elif 'VgprOnly' in args or x < 0.5:
                    code = V + rng.randrange(256)
                elif x < 0.65:
                    code = rng.choice([rng.randrange(106), 106, 124, 125, 253])
                elif x < 0.85:
                    code = rng.choice([128, 129, 192, 193, 208, 240, 242, 247, 248])
                else:
                    code = LIT
                    lit = rng.choice(lits) if lit is None else lit
                k[f.lower()] = code
            negabs = [i for i, f in enumerate(srcs) if 'VOP3_NEG_ABS%d' % i in flags]
            sext = [i for i, f in enumerate(srcs) if 'SEXT' in flags and i not in negabs]
            k['neg'] = sum(1 << j for j in negabs + sext if rng.random() < 0.3)
            absb = sum(1 << j for j in negabs if rng.random() < 0.3)
            opsel = rng.randrange(16) if 'OP_SEL' in flags and rng.random() < 0.8 else 0
            k['b8'] = absb | opsel << 3
            if 'VOP3_CLAMP' in flags:
                k['clamp'] = int(rng.random() < 0.3)
            if 'VOP3_OMOD' in flags:
                k['omod'] = rng.choice([0, 0, 1, 2, 3])
            words.append((vop3(op, lit=lit, **k), 'vop3 op_sel'))
        for i in range(4):      # wild words
            k = dict(vdst=rng.randrange(256), b8=rng.randrange(128), clamp=rng.randrange(2), omod=rng.randrange(4),
                     neg=rng.randrange(8), src0=rng.randrange(512), src1=rng.randrange(512), src2=rng.randrange(512))
            lit = rng.getrandbits(32) if LIT in (k['src0'], k['src1'], k['src2']) else None
            words.append((vop3(op, lit=lit, **k), 'wild vop3 op_sel'))
    return words

# Assembler inputs for the op_sel forms and the sext() sources (tools/VOP3_NOTES.md §op_sel):
# list lengths, entries the instruction has no bit for, order, errors.
OPSEL_ASM_PROBES = [
    'v_add_nc_u16 v0, v1, v2 op_sel:[0,0,1]', 'v_add_nc_u16 v0, v1, v2 op_sel:[0,0,0,1]', 'v_add_nc_u16 v0, v1, v2 op_sel:[0,0,1,0]',
    'v_add_nc_u16 v0, v1, v2 op_sel:[1]', 'v_add_nc_u16 v0, v1, v2 op_sel:[1,1,1,1,1]', 'v_add_nc_u16 v0, v1, v2 op_sel:[2,0,0]',
    'v_add_nc_u16 v0, v1, v2 op_sel:[]', 'v_add_nc_u16 v0, v1, v2 op_sel:1', 'v_add_nc_u16_e64 v0, v1, v2 op_sel:[1,0,0]',
    'v_add_nc_u16 v0, v1, v2 op_sel:[0,0,1] clamp', 'v_add_nc_u16 v0, v1, v2 clamp op_sel:[0,0,1]',
    'v_add_nc_u16 v0, v1, v2 op_sel:[0,0,1] op_sel:[0,0,1]', 'v_add_nc_u16 v0, -v1, v2', 'v_add_nc_u16 v0, sext(v1), v2',
    'v_sub_nc_i16 v0, 0x1234, v2 op_sel:[0,1,1]', 'v_add_nc_i16 v0, s1, 1.0 op_sel:[1,0,0]',
    'v_fma_f16 v0, v1, v2, v3 op_sel:[1,0,0]', 'v_fma_f16 v0, v1, v2, v3 op_sel:[0,0,0,1]', 'v_fma_f16 v0, v1, v2, v3 op_sel:[1,1]',
    'v_fma_f16 v0, -|v1|, -v2, |v3| op_sel:[1,1,1,1] clamp mul:2', 'v_fma_f16 v0, v1, v2, v3 clamp op_sel:[1,0,0,0]',
    'v_fma_f16 v0, v1, v2, v3 mul:2 clamp', 'v_fma_f16 v0, 0x1234, v2, 1.0 op_sel:[1,0,0,0]',
    'v_fmac_f16_e64 v0, v1, v2 op_sel:[0,0,0,1]', 'v_fmac_f16_e64 v0, v1, v2 op_sel:[1,1]', 'v_fmac_f16_e64 v0, -v1, |v2| op_sel:[1,0,0,1] clamp div:2',
    'v_dot2_f16_f16 v0, v1, v2, v3 op_sel:[0,0,1,1]', 'v_dot2_f16_f16 v0, v1, v2, v3 op_sel:[0,1,0,0]', 'v_dot2_f16_f16 v0, v1, v2, v3 op_sel:[0,0,1]',
    'v_dot2_bf16_bf16 v0, v1, v2, v3 op_sel:[0,0,0,1]', 'v_dot2_bf16_bf16 v0, -v1, v2, |v3|',
    'v_permlane16_b32 v0, v1, s2, s3 op_sel:[1,1]', 'v_permlane16_b32 v0, v1, s2, s3 op_sel:[1,1,1]',
    'v_permlane16_b32 v0, v1, s2, s3 op_sel:[1,1,0,0]', 'v_permlane16_b32 v0, v1, s2, s3 op_sel:[1]', 'v_permlanex16_b32 v0, v1, m0, 1 op_sel:[0,1]',
    'v_cvt_f16_f32_e64 v0, v1 op_sel:[0,1]', 'v_cvt_f16_f32 v0, v1 op_sel:[0,1]', 'v_add_f16_e64 v0, v1, v2 op_sel:[0,0,1]',
    'v_mad_u32_u16 v0, v1, v2, v3 op_sel:[1,1,1,1]', 'v_mad_u16 v0, v1, v2, v3 op_sel:[1,0,1,0] clamp', 'v_mad_i32_i16 v0, v1, s2, 1 op_sel:[0,1,0,0]',
    'v_min3_i16 v0, v1, v2, v3 op_sel:[0,0,0,1]', 'v_med3_f16 v0, -v1, v2, v3 op_sel:[0,0,1,0] div:2', 'v_max3_u16 v0, v1, v2, v3',
    'v_div_fixup_f16 v0, v1, v2, v3 op_sel:[1,0,0,1]', 'v_pack_b32_f16 v0, v1, v2 op_sel:[1,1,0]', 'v_pack_b32_f16 v0, -v1, |v2| op_sel:[0,0,1]',
    'v_cvt_pk_norm_i16_f16 v0, v1, v2 op_sel:[1,0,0]', 'v_cvt_pk_norm_u16_f16 v0, v1, v2 op_sel:[0,1,1]',
    'v_ldexp_f32 v0, v1, sext(v2)', 'v_ldexp_f32 v0, -v1, sext(1)', 'v_ldexp_f32 v0, v1, -v2', 'v_ldexp_f32 v0, |v1|, v2 clamp mul:4',
    'v_ldexp_f64 v[0:1], v[2:3], sext(v4)', 'v_trig_preop_f64 v[0:1], -v[2:3], sext(s4) div:2',
    'v_cvt_pk_u8_f32 v0, v1, sext(v2), sext(v3)', 'v_cvt_pk_u8_f32 v0, -v1, v2, sext(v3) clamp',
    'v_add_nc_u16_e64_dpp v5, sext(v1), v2 row_shl:1', 'v_add_nc_u16 v5, sext(v1), v2 row_shl:1',
    'v_mad_u32_u16 v5, v1, v2, sext(v3) row_shl:1', 'v_ldexp_f16 v5, v1, sext(v2) row_shl:1', 'v_ldexp_f16_e64 v5, v1, -v2 row_shl:1',
    'v_mov_b16 v5.l, sext(v1.l) row_shl:1', 'v_add_nc_u16 v5, v1, v2 op_sel:[1,0,1] dpp8:[0,1,2,3,4,5,6,7] fi:1',
    'v_fma_f16 v5, v1, v2, v3 op_sel:[0,1,0,1] clamp row_xmask:3 bank_mask:0x5', 'v_ldexp_f32 v5, v1, sext(v2) row_ror:3',
    'v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7] op_sel_hi:[1,1,1]',
    'v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], 1', 'v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], 0.15915494309189532',
    'v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], -4.0', 'v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], src_scc',
    'v_wmma_f16_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7] op_sel_hi:[0,0,0]',
    'v_pk_add_f16 v5, v1, v2 op_sel_hi:[2,0]', 'v_pk_add_f16 v5, v1, v2 neg_lo:[2,0]', 'v_pk_add_f16 v5, v1, v2 neg_hi:[]',
    'v_pk_fma_f16 v5, v1, v2, v3 op_sel_hi:[0]', 'v_fma_mix_f32 v5, v1, v2, v3 op_sel_hi:[1]', 'v_fma_mix_f32 v5, -1.0, v2, v3',
    'v_fma_mix_f32 v5, |1.0|, v2, v3', 'v_cmp_eq_u32 v1, v2', 'v_cmp_eq_f32 v1, v2 row_shl:1',
]

# Assembler inputs left out of the golden: those whose text llvm-mc-19 echoes as written
# although the encoding says otherwise (the echo is not a property of the instruction), and
# one oddity the notes say not to copy.
ASM_ECHOES = {
    'v_add_nc_u16 v0, v1, v2 op_sel:[0,0,1,0]',     # echoed as op_sel:[0,0,1], encodes bit 14
    'v_fmac_f16_e64 v0, v1, v2 op_sel:[0,0,1,0]',   # echoed with op_sel, encodes 0
    'v_mov_b32 v5, v1 row_shl:1 fi:3',              # encodes fi = 1, echoes no fi:1
    'v_mov_b32_e32_dpp v5, v1 row_shl:1',           # `_e32_dpp` on 31 VOP1 ops only (notes §2)
}

def disasm_probe_words():
    """Words whose text llvm-mc-19 prints but will not assemble back (or that it rejects):
    decoder-only cases for tests/golden/dpp_vop3p_disasm.txt. WMMA matrices in scalar
    registers (aligned down, nonexistent ranges invalid), constants and `src_*` registers;
    VGPR ranges past v255; `v_fma_mix*` DPP src1 that is not a VGPR; DPP words with ignored
    bits (17, VOP3 20-23), unsupported and invalid dpp_ctrl values, and neg/abs bits an
    instruction does not take; e32 DPP 16-bit sources in v128+; 64-bit SGPR sources with an
    odd register number; a DPP selector without its dword."""
    w = []
    for op, n in ((0x40, 8), (0x44, 4), (0x45, 2)):
        for c in (0, 1, 2, 3, 4, 5, 97, 100, 101, 103, 104, 105, 106, 107, 108, 109, 112, 116, 120, 124, 125,
                  126, 127, 128, 242, 235, 251, 253):
            w.append(vop3p(op, src0=c, src1=V + 16, src2=V, op_sel_hi=7))
            w.append(vop3p(op, src0=V + 8, src1=V + 16, src2=c, op_sel_hi=7))
        for v in (248, 249, 252, 253, 255):
            w.append(vop3p(op, vdst=v, src0=V + 8, src1=V + 16, src2=V, op_sel_hi=7))
            w.append(vop3p(op, src0=V + v, src1=V + 16, src2=V, op_sel_hi=7))
            w.append(vop3p(op, src0=V + 8, src1=V + 16, src2=V + v, op_sel_hi=7))
        w.append(vop3p(op, src0=LIT, src1=V + 16, src2=V, op_sel_hi=7, lit=0x12345678))
    for op in (0x20, 0x21, 0x13):
        for c in (0, 106, 124, 125, 126, 128, 193, 242, 253, 235):
            w.append(vop3p_dpp(op, dpp16(), vdst=5, src1=c, src2=V + 3, op_sel_hi=7 if op == 0x13 else 0))
        w.append(vop3p_dpp(op, dpp16(), vdst=5, src1=LIT, src2=V + 3) + le(0x12345678, 4))
    for ctrl in (0x100, 0x110, 0x130, 0x134, 0x138, 0x13c, 0x142, 0x143, 0x144, 0x170, 0x1ff):
        w.append(e32_dpp('Vop1', 1, dpp16(ctrl=ctrl), 5))
        w.append(vop3_dpp(0x213, dpp16(ctrl=ctrl), vdst=5, src1=V + 2, src2=V + 3))
    for kw in (dict(bit17=1), dict(neg0=1), dict(abs0=1), dict(neg1=1), dict(abs1=1)):
        w.append(e32_dpp('Vop2', 3, dpp16(**kw), 5, 2))        # v_add_f32
        w.append(e32_dpp('Vop2', 37, dpp16(**kw), 5, 2))       # v_add_nc_u32
        w.append(e32_dpp('Vop2', 59, dpp16(**kw), 5, 2))       # v_ldexp_f16
        w.append(e32_dpp('Vop1', 28, dpp16(**kw), 5))          # v_mov_b16
        w.append(vop3_dpp(0x213, dpp16(**kw), vdst=5, src1=V + 2, src2=V + 3))
    for vdst, vsrc1, src0 in ((200, 2, 1), (5, 200, 1), (5, 2, 200)):
        w.append(e32_dpp('Vop2', 50, dpp16(src0=src0), vdst, vsrc1))   # v_add_f16
        w.append(e32_dpp('Vop2', 59, dpp16(src0=src0), vdst, vsrc1))   # v_ldexp_f16
        w.append(e32_dpp('Vopc', 2, dpp16(src0=src0), 0, vsrc1))       # v_cmp_eq_f16
    w.append(le(e32('Vop2', 59, 5, 200, V + 1), 4))                    # v_ldexp_f16_e32 v200 exponent
    for c in (1, 5, 69, 109):
        w.append(vop3(0x32b, vdst=2, src0=c, src1=V + 4))              # v_ldexp_f64, odd SGPR pairs
        w.append(vop3(0x327, vdst=2, src0=V + 6, src1=c))              # v_add_f64
    w.append(le(e32('Vop1', 1, 5, 0, S_DPP16), 4))                     # DPP16 selector, no dword
    w.append(vop3(0x213, vdst=5, src0=S_DPP8, src1=V + 2, src2=V + 3)) # DPP8 selector, no dword
    return w

def write_disasm_golden(fname, words):
    """BYTES<TAB>TEXT, TEXT <invalid> unless llvm-mc-19 decodes exactly these bytes."""
    res = dis(words)
    lines = ['# Generated by tools/survey_dpp.py --golden from llvm-mc-19 -mcpu=gfx1100 --disassemble (wave32). BYTES<TAB>TEXT',
             '# Decoder-only DPP/VOP3P/VOP3 cases (texts llvm-mc-19 will not assemble back); TEXT is <invalid> unless',
             '# llvm-mc-19 decodes exactly these bytes as one instruction.']
    seen = set()
    for b, t in zip(words, res):
        if tuple(b) in seen:
            continue
        seen.add(tuple(b))
        lines.append('%s\t%s' % (hexb(b), t if t is not None else '<invalid>'))
    lines.append('# %d words, %d invalid' % (len(seen), sum(1 for l in lines if l.endswith('<invalid>'))))
    with open(os.path.join(GOLDEN_DIR, fname), 'w') as fh:
        fh.write('\n'.join(lines) + '\n')
    return OrderedDict(words=len(seen))

GOLDEN_DIR = os.path.join(os.path.dirname(HERE), 'tests', 'golden')

def write_roundtrip_golden(fname, keep, drop, what):
    names = Counter(t.split()[0] for _, t, _ in keep)
    lines = ['# Generated by tools/survey_dpp.py --golden from llvm-mc-19 -mcpu=gfx1100 --disassemble (wave32). BYTES<TAB>TEXT',
             '# %s. Every line round-trips: llvm-mc-19 disassembles BYTES to exactly TEXT and' % what,
             '# assembles TEXT to exactly BYTES (words that do not were dropped; counts at the end).']
    for w, t, fam in keep:
        lines.append('%s\t%s' % (hexb(w), t))
    lines.append('# %d lines, %d mnemonics; dropped: %s' % (
        len(keep), len(names), '; '.join('%d %s' % (n, k) for k, n in sorted(drop.items())) or 'none'))
    with open(os.path.join(GOLDEN_DIR, fname), 'w') as fh:
        fh.write('\n'.join(lines) + '\n')
    return OrderedDict(lines=len(keep), mnemonics=len(names), by_family=dict(Counter(f for _, _, f in keep)),
                       dropped=dict(drop))

def write_asm_golden(fname, inputs):
    """asm.txt's format: INPUT<TAB>CANONICAL<TAB>BYTES or INPUT<TAB><error><TAB>MESSAGE."""
    lines = ['# Generated by tools/survey_dpp.py --golden from llvm-mc-19 -mcpu=gfx1100 -show-encoding (wave32): DPP, VOP3P and',
             '# VOP3 op_sel/sext assembler inputs (tools/DPP_VOP3P_NOTES.md, tools/VOP3_NOTES.md). INPUT<TAB>CANONICAL<TAB>BYTES or',
             '# INPUT<TAB><error><TAB>MESSAGE']
    res = asm(inputs)
    errors = 0
    for l, r in zip(inputs, res):
        if r[0] == 'ERR':
            lines.append('%s\t<error>\t%s' % (l, r[1]))
            errors += 1
        else:
            lines.append('%s\t%s\t%s' % (l, r[1], hexb(r[0])))
    lines.append('# %d inputs, %d errors' % (len(inputs), errors))
    with open(os.path.join(GOLDEN_DIR, fname), 'w') as fh:
        fh.write('\n'.join(lines) + '\n')
    return OrderedDict(inputs=len(inputs), errors=errors)

def golden():
    """Writes tests/golden/dpp.txt, vop3p.txt, vop3_opsel.txt (round-trip words),
    dpp_vop3p_asm.txt (assembler inputs) and dpp_vop3p_disasm.txt (decoder-only words).
    Seeded: the same llvm-mc-19 gives the same files."""
    rng = random.Random(20240611)
    e32r = e32_survey()
    v3r = vop3_dpp_survey()
    v3pr = vop3p_survey()
    dkeep, ddrop, _ = roundtrip_filter(golden_words(e32r, v3r, v3pr, rng))
    pkeep, pdrop, _ = roundtrip_filter(vop3p_golden_words(v3pr, rng))
    okeep, odrop, _ = roundtrip_filter(opsel_golden_words(random.Random(20240612)))
    stats = OrderedDict()
    stats['dpp.txt'] = write_roundtrip_golden('dpp.txt', dkeep, ddrop, 'DPP16/DPP8 forms of VOP1, VOP2, VOPC, VOP3 and VOP3P')
    stats['vop3p.txt'] = write_roundtrip_golden('vop3p.txt', pkeep, pdrop, 'VOP3P (packed math, dot, fma_mix, WMMA)')
    stats['vop3_opsel.txt'] = write_roundtrip_golden(
        'vop3_opsel.txt', okeep, odrop, 'VOP3 op_sel forms of the 16-bit instructions and sext() sources')
    probes = [l for l in ASM_PROBES + OPSEL_ASM_PROBES if l not in ASM_ECHOES]
    probes = list(OrderedDict.fromkeys(probes))
    stats['dpp_vop3p_asm.txt'] = write_asm_golden('dpp_vop3p_asm.txt', probes)
    stats['dpp_vop3p_disasm.txt'] = write_disasm_golden('dpp_vop3p_disasm.txt', disasm_probe_words())
    return stats

# ---------------------------------------------------------------- assembler probes

ASM_PROBES = [
    # dpp_ctrl syntax and values
    'v_mov_b32 v5, v1 quad_perm:[0,1,2,3]', 'v_mov_b32 v5, v1 quad_perm:[0, 1, 2, 3]', 'v_mov_b32 v5, v1 quad_perm:[4,1,2,3]',
    'v_mov_b32 v5, v1 quad_perm:[0,1,2]', 'v_mov_b32 v5, v1 quad_perm:[0,1,2,3,0]', 'v_mov_b32 v5, v1 quad_perm:0xe4',
    'v_mov_b32 v5, v1 row_shl:1', 'v_mov_b32 v5, v1 row_shl:15', 'v_mov_b32 v5, v1 row_shl:0', 'v_mov_b32 v5, v1 row_shl:16',
    'v_mov_b32 v5, v1 row_shl:0x3', 'v_mov_b32 v5, v1 row_shl:1+2', 'v_mov_b32 v5, v1 row_shr:0', 'v_mov_b32 v5, v1 row_ror:0',
    'v_mov_b32 v5, v1 row_ror:16', 'v_mov_b32 v5, v1 row_share:0', 'v_mov_b32 v5, v1 row_share:15', 'v_mov_b32 v5, v1 row_share:16',
    'v_mov_b32 v5, v1 row_xmask:0', 'v_mov_b32 v5, v1 row_xmask:16', 'v_mov_b32 v5, v1 row_mirror', 'v_mov_b32 v5, v1 row_half_mirror',
    'v_mov_b32 v5, v1 row_mirror:1', 'v_mov_b32 v5, v1 wave_shl:1', 'v_mov_b32 v5, v1 wave_shr:1', 'v_mov_b32 v5, v1 wave_rol:1',
    'v_mov_b32 v5, v1 wave_ror:1', 'v_mov_b32 v5, v1 row_bcast:15', 'v_mov_b32 v5, v1 row_bcast:31', 'v_mov_b32 v5, v1 row_newbcast:1',
    'v_mov_b32 v5, v1 ROW_SHL:1', 'v_mov_b32 v5, v1 row_shl : 1',
    # masks, bound_ctrl, fi, order
    'v_mov_b32 v5, v1 row_shl:1 row_mask:0xf bank_mask:0xf', 'v_mov_b32 v5, v1 row_shl:1 row_mask:0x0 bank_mask:0x0',
    'v_mov_b32 v5, v1 row_shl:1 row_mask:15', 'v_mov_b32 v5, v1 row_shl:1 bank_mask:0x3', 'v_mov_b32 v5, v1 row_shl:1 row_mask:0x10',
    'v_mov_b32 v5, v1 row_shl:1 row_mask:0x1f', 'v_mov_b32 v5, v1 row_shl:1 bank_mask:0x11', 'v_mov_b32 v5, v1 row_shl:1 row_mask:-1',
    'v_mov_b32 v5, v1 row_shl:1 row_mask:0x100', 'v_mov_b32 v5, v1 row_shl:1 bank_mask:0x3 row_mask:0x1',
    'v_mov_b32 v5, v1 row_shl:1 bound_ctrl:1', 'v_mov_b32 v5, v1 row_shl:1 bound_ctrl:0', 'v_mov_b32 v5, v1 row_shl:1 bound_ctrl:2',
    'v_mov_b32 v5, v1 row_shl:1 bound_ctrl', 'v_mov_b32 v5, v1 row_shl:1 fi:1', 'v_mov_b32 v5, v1 row_shl:1 fi:0',
    'v_mov_b32 v5, v1 row_shl:1 fi:2', 'v_mov_b32 v5, v1 row_shl:1 fi:3', 'v_mov_b32 v5, v1 row_shl:1 fi:1 bound_ctrl:1',
    'v_mov_b32 v5, v1 row_shl:1 bound_ctrl:1 fi:1', 'v_mov_b32 v5, v1 row_shl:1 row_mask:0x1 bank_mask:0x2 bound_ctrl:1 fi:1',
    'v_mov_b32 v5, v1 row_shl:1 row_shl:2', 'v_mov_b32 v5, v1 row_mask:0xf row_shl:1', 'v_mov_b32 v5, v1 row_mask:0xf',
    'v_mov_b32 v5, v1 bound_ctrl:1', 'v_mov_b32 v5, v1 fi:1', 'v_mov_b32_dpp v5, v1', 'v_mov_b32_dpp v5, v1 row_mask:0xf bank_mask:0xf',
    # DPP8
    'v_mov_b32 v5, v1 dpp8:[0,1,2,3,4,5,6,7]', 'v_mov_b32 v5, v1 dpp8:[7,6,5,4,3,2,1,0] fi:1', 'v_mov_b32 v5, v1 dpp8:[7,6,5,4,3,2,1,0] fi:0',
    'v_mov_b32 v5, v1 dpp8:[0, 1, 2, 3, 4, 5, 6, 7]', 'v_mov_b32 v5, v1 dpp8:[8,1,2,3,4,5,6,7]', 'v_mov_b32 v5, v1 dpp8:[0,1,2,3,4,5,6]',
    'v_mov_b32 v5, v1 dpp8:[0,1,2,3,4,5,6,7,0]', 'v_mov_b32 v5, v1 dpp8:[0,1,2,3,4,5,6,7] row_mask:0xf',
    'v_mov_b32 v5, v1 dpp8:[0,1,2,3,4,5,6,7] bound_ctrl:1', 'v_mov_b32 v5, v1 dpp8:[0,1,2,3,4,5,6,7] fi:1 fi:1',
    'v_mov_b32 v5, v1 row_shl:1 dpp8:[0,1,2,3,4,5,6,7]', 'v_mov_b32 v5, v1 dpp8:0xfac688', 'v_mov_b32_dpp v5, v1 dpp8:[0,1,2,3,4,5,6,7]',
    # mnemonic suffixes
    'v_mov_b32_e32 v5, v1 row_shl:1', 'v_mov_b32_e32_dpp v5, v1 row_shl:1', 'v_add_f32_e32_dpp v5, v1, v2 row_shl:1',
    'v_mov_b32_dpp8 v5, v1 dpp8:[0,1,2,3,4,5,6,7]', 'v_mov_b32_e64 v5, v1 row_shl:1', 'v_mov_b32_e64_dpp v5, v1 row_shl:1',
    'v_mov_b32_e64_dpp v5, v1 dpp8:[0,1,2,3,4,5,6,7]', 'v_mov_b32_e64_dpp v5, -v1 row_shl:1', 'V_MOV_B32_DPP v5, v1 row_shl:1',
    # sources of e32 DPP
    'v_mov_b32 v5, s1 row_shl:1', 'v_mov_b32 v5, 1 row_shl:1', 'v_mov_b32 v5, 0x1234 row_shl:1', 'v_mov_b32 v5, v[1:2] row_shl:1',
    'v_add_f32 v5, v1, v2 row_shl:1', 'v_add_f32 v5, -v1, |v2| row_shl:1', 'v_add_f32 v5, neg(v1), abs(v2) row_shl:1',
    'v_add_f32 v5, -|v1|, -|v2| row_shl:1', 'v_add_f32 v5, v1, s2 row_shl:1', 'v_add_f32 v5, s1, v2 row_shl:1',
    'v_add_f32 v5, v1, 1.0 row_shl:1', 'v_add_f32 v5, 1.0, v2 row_shl:1', 'v_add_f32 v5, v1, 0x1234 row_shl:1',
    'v_add_f32 v5, v1, v2 clamp row_shl:1', 'v_add_f32 v5, v1, v2 row_shl:1 clamp', 'v_add_f32 v5, v1, v2 mul:2 row_shl:1',
    'v_add_f32 v5, v1, v2 dpp8:[0,1,2,3,4,5,6,7]', 'v_add_f32 v5, -v1, v2 dpp8:[0,1,2,3,4,5,6,7]', 'v_add_f32 v5, |v1|, v2 dpp8:[0,1,2,3,4,5,6,7]',
    'v_add_f32_dpp v5, -v1, v2 dpp8:[0,1,2,3,4,5,6,7]', 'v_add_f32 v5, v1, v200 row_shl:1', 'v_add_nc_u32 v5, -v1, v2 row_shl:1',
    # VOP3 DPP
    'v_add_f32_e64_dpp v5, -v1, v2 dpp8:[0,1,2,3,4,5,6,7]', 'v_add_f32_e64_dpp v5, |v1|, -v2 clamp mul:4 row_shl:1',
    'v_add_f32_e64_dpp v5, v1, v2 div:2 dpp8:[0,1,2,3,4,5,6,7] fi:1', 'v_add_f32_e64_dpp v5, v1, s2 row_shl:1',
    'v_add_f32_e64_dpp v5, v1, 1.0 row_shl:1', 'v_add_f32_e64_dpp v5, v1, 0x1234 row_shl:1', 'v_add_f32_e64_dpp v5, s1, v2 row_shl:1',
    'v_add_f32_e64_dpp v5, v1, v2 row_shl:1 mul:2', 'v_add_f16 v5, v1, v2 row_shl:1', 'v_add_f16 v5, v1, v200 row_shl:1',
    'v_add_f16 v200, v1, v2 row_shl:1', 'v_add_f16_e64_dpp v5, v1, v2 op_sel:[1,0,0] row_shl:1',
    'v_fma_f16 v5, v1, v2, v3 op_sel:[1,0,0,0] row_shl:1', 'v_add_nc_u32_e64_dpp v5, v1, v2 clamp row_shl:1',
    'v_lshlrev_b32_e64_dpp v5, v1, 2 row_shl:1', 'v_cndmask_b32 v5, v1, v2, vcc_lo row_shl:1', 'v_cndmask_b32 v5, v1, v2, s2 row_shl:1',
    'v_cndmask_b32_e64_dpp v5, v1, v2, vcc_lo row_shl:1', 'v_cndmask_b32_e64_dpp v5, -v1, v2, s[2:3] row_shl:1',
    'v_add_co_ci_u32 v5, vcc_lo, v1, v2, vcc_lo row_shl:1', 'v_add_co_ci_u32_e64_dpp v5, s4, v1, v2, s6 row_shl:1',
    'v_add_co_ci_u32_e64_dpp v5, s4, v1, v2, s6 clamp row_shl:1', 'v_add_co_u32 v5, s4, v1, v2 row_shl:1',
    'v_fmac_f32 v5, v1, v2 row_shl:1', 'v_fmac_f32_e64_dpp v5, v1, v2 row_shl:1', 'v_fmamk_f32 v5, v1, 0x1234, v2 row_shl:1',
    'v_fmac_dx9_zero_f32 v5, v1, v2 row_shl:1', 'v_dot2acc_f32_f16 v5, v1, v2 row_shl:1', 'v_dot2acc_f32_f16_e64_dpp v5, v1, v2 row_shl:1',
    'v_pk_fmac_f16 v5, v1, v2 row_shl:1', 'v_mov_b16 v5.l, v1.l row_shl:1', 'v_mov_b16 v5.h, v1.h row_shl:1', 'v_mov_b16 v5, v1 row_shl:1',
    'v_cvt_f32_f64 v5, v[2:3] row_shl:1', 'v_readfirstlane_b32 s5, v1 row_shl:1', 'v_nop row_shl:1', 'v_nop_dpp row_shl:1',
    # VOPC DPP
    'v_cmp_eq_f32 v1, v2 row_shl:1', 'v_cmp_eq_f32 vcc_lo, v1, v2 row_shl:1', 'v_cmp_eq_f32 vcc, v1, v2 row_shl:1',
    'v_cmp_eq_f32_dpp vcc_lo, v1, v2 row_shl:1', 'v_cmp_eq_f32_e32 vcc_lo, v1, v2 row_shl:1', 'v_cmp_eq_f32_e32_dpp vcc_lo, v1, v2 row_shl:1',
    'v_cmp_eq_f32 s4, v1, v2 row_shl:1', 'v_cmp_eq_f32_e64 s4, v1, v2 row_shl:1', 'v_cmp_eq_f32_e64_dpp s4, -v1, |v2| clamp row_shl:1',
    'v_cmp_eq_f32_e64_dpp vcc_lo, v1, v2 dpp8:[0,1,2,3,4,5,6,7]', 'v_cmp_eq_f32_e64_dpp s4, v1, 1.0 row_shl:1',
    'v_cmpx_eq_f32 v1, v2 row_shl:1', 'v_cmpx_eq_f32_dpp v1, v2 row_shl:1', 'v_cmpx_eq_f32_e64_dpp v1, v2 row_shl:1',
    'v_cmpx_eq_f32_e64_dpp exec_lo, v1, v2 row_shl:1', 'v_cmp_eq_f64 vcc_lo, v[1:2], v[3:4] row_shl:1',
    'v_cmp_eq_f32_e64_dpp null, v1, v2 row_shl:1', 'v_cmp_eq_f32_e64_dpp s105, v1, v2 row_shl:1',
    'v_cmp_eq_f32_e64_dpp exec_lo, v1, v2 row_shl:1', 'v_dot2_f32_f16 v5, v1, v2, s3 row_shl:1',
    'v_cmp_eq_u64_e64_dpp s4, v[1:2], v[3:4] row_shl:1',
    # VOP3-only DPP
    'v_fma_f32 v5, v1, v2, v3 row_shl:1', 'v_fma_f32_e64 v5, v1, v2, v3 row_shl:1', 'v_fma_f32_dpp v5, v1, v2, v3 row_shl:1',
    'v_fma_f32_e64_dpp v5, v1, v2, v3 row_shl:1', 'v_fma_f32 v5, v1, v2, s3 row_shl:1', 'v_fma_f32 v5, v1, v2, 1.0 row_shl:1',
    'v_fma_f32 v5, v1, v2, 0x1234 row_shl:1', 'v_fma_f32 v5, v1, s2, v3 row_shl:1', 'v_fma_f32 v5, v1, v2, s3 dpp8:[0,1,2,3,4,5,6,7]',
    'v_fma_f64 v[5:6], v[1:2], v[2:3], v[3:4] row_shl:1', 'v_mad_u64_u32 v[5:6], s4, v1, v2, v[3:4] row_shl:1',
    'v_div_scale_f32 v5, vcc_lo, v1, v2, v3 row_shl:1', 'v_permlane16_b32 v5, v1, s2, s3 row_shl:1', 'v_readlane_b32 s5, v1, s2 row_shl:1',
    # VOP3P DPP
    'v_pk_add_f16 v5, v1, v2 row_shl:1', 'v_dot2_f32_f16 v5, v1, v2, v3 row_shl:1', 'v_dot2_f32_f16 v5, v1, v2, v3 dpp8:[0,1,2,3,4,5,6,7] fi:1',
    'v_dot2_f32_f16_e64_dpp v5, v1, v2, v3 neg_lo:[1,0,0] neg_hi:[0,1,0] clamp row_shl:1', 'v_dot2_f32_f16 v5, v1, s2, v3 row_shl:1',
    'v_dot2_f32_f16 v5, v1, v2, 1.0 row_shl:1', 'v_dot2_f32_bf16 v5, v1, v2, v3 row_shl:1', 'v_fma_mix_f32 v5, v1, v2, v3 row_shl:1',
    'v_fma_mix_f32 v5, -v1, |v2|, -|v3| op_sel:[1,0,0] op_sel_hi:[1,1,0] clamp row_shl:1',
    'v_fma_mix_f32 v5, v1, v2, v3 op_sel_hi:[1,1,1] dpp8:[0,1,2,3,4,5,6,7]', 'v_fma_mixlo_f16 v5, v1, v2, v3 row_shl:1',
    'v_fma_mix_f32 v5, v1, v2, 1.0 row_shl:1', 'v_fma_mix_f32 v5, v1, s2, v3 row_shl:1',
    # VOP3P modifiers
    'v_pk_add_f16 v5, v1, v2', 'v_pk_add_f16 v5, v1, v2 op_sel:[0,0]', 'v_pk_add_f16 v5, v1, v2 op_sel_hi:[1,1]',
    'v_pk_add_f16 v5, v1, v2 op_sel_hi:[1,1,1]', 'v_pk_add_f16 v5, v1, v2 op_sel_hi:[0,0,0]', 'v_pk_add_f16 v5, v1, v2 op_sel_hi:[0,0]',
    'v_pk_add_f16 v5, v1, v2 op_sel:[1,0,1]', 'v_pk_add_f16 v5, v1, v2 op_sel:[1,0]', 'v_pk_add_f16 v5, v1, v2 op_sel:[1]',
    'v_pk_add_f16 v5, v1, v2 op_sel:[1,0,0,0]', 'v_pk_add_f16 v5, v1, v2 op_sel:[1,0,0,0,0]', 'v_pk_add_f16 v5, v1, v2 op_sel:[2,0]',
    'v_pk_add_f16 v5, v1, v2 op_sel:[1, 0]', 'v_pk_add_f16 v5, v1, v2 op_sel:[]', 'v_pk_add_f16 v5, v1, v2 op_sel:1',
    'v_pk_add_f16 v5, v1, v2 neg_lo:[1,1] neg_hi:[1,0]', 'v_pk_add_f16 v5, v1, v2 neg_lo:[0,0,1]',
    'v_pk_add_f16 v5, v1, v2 neg_hi:[1,0] neg_lo:[1,0]', 'v_pk_add_f16 v5, v1, v2 op_sel_hi:[0,0] op_sel:[1,1]',
    'v_pk_add_f16 v5, v1, v2 clamp op_sel:[1,1]', 'v_pk_add_f16 v5, v1, v2 op_sel:[1,1] op_sel_hi:[0,0] neg_lo:[1,0] neg_hi:[0,1] clamp',
    'v_pk_add_f16 v5, v1, v2 mul:2', 'v_pk_add_f16 v5, -v1, v2', 'v_pk_add_f16 v5, |v1|, v2', 'v_pk_add_f16 v5, neg(v1), v2',
    'v_pk_add_f16 v5, v1, v2 op_sel:[1,0] op_sel:[0,1]',
    # VOP3P sources
    'v_pk_add_f16 v5, s1, v2', 'v_pk_add_f16 v5, s1, s2', 'v_pk_add_f16 v5, s1, s1', 'v_pk_add_f16 v5, vcc_lo, m0', 'v_pk_add_f16 v5, 1.0, v2',
    'v_pk_add_f16 v5, -1.0, v2', 'v_pk_add_f16 v5, 0.5, -2.0', 'v_pk_add_f16 v5, 0x3c00, v2', 'v_pk_add_f16 v5, 0x3c003c00, v2',
    'v_pk_add_f16 v5, 0x3f800000, v2', 'v_pk_add_f16 v5, 0x1234, v2', 'v_pk_add_f16 v5, 0x12345678, v2', 'v_pk_add_f16 v5, 0x1234, 0x1234',
    'v_pk_add_f16 v5, 0x1234, 0x1235', 'v_pk_add_f16 v5, s1, 0x1234', 'v_pk_add_f16 v5, 65, v2', 'v_pk_add_f16 v5, -17, v2',
    'v_pk_add_f16 v5, lds_direct, v2', 'v_pk_add_f16 v5, src_scc, v2', 'v_pk_add_f16 v5, v[1:2], v2',
    'v_pk_add_u16 v5, 1.0, v2', 'v_pk_add_u16 v5, 0x3f800000, v2', 'v_pk_add_u16 v5, 0x3c00, v2', 'v_pk_add_u16 v5, 64, v2',
    'v_pk_add_u16 v5, 65, v2', 'v_pk_add_u16 v5, -1, v2', 'v_pk_add_u16 v5, v1, v2 neg_lo:[1,0]', 'v_pk_add_u16 v5, v1, v2 clamp',
    'v_pk_fma_f16 v5, v1, v2, v3', 'v_pk_fma_f16 v5, s1, s2, v3', 'v_pk_fma_f16 v5, s1, s2, s3', 'v_pk_fma_f16 v5, s1, s1, s1',
    'v_pk_fma_f16 v5, s1, 0x1234, v3', 'v_pk_fma_f16 v5, s1, s2, 0x1234',
    'v_pk_fma_f16 v5, v1, v2, v3 op_sel:[1,1,1] op_sel_hi:[0,0,0] neg_lo:[1,1,1] neg_hi:[1,1,1] clamp',
    'v_pk_fma_f16 v5, v1, v2, v3 op_sel:[0,0,0,1]', 'v_pk_mad_u16 v5, v1, v2, v3 op_sel_hi:[0,0,0]',
    'v_fma_mix_f32 v5, v1, v2, v3', 'v_fma_mix_f32 v5, v1, v2, v3 op_sel_hi:[0,0,0]', 'v_fma_mix_f32 v5, v1, v2, v3 op_sel_hi:[1,1,1]',
    'v_fma_mix_f32 v5, v1, v2, v3 neg_lo:[1,0,0]', 'v_fma_mix_f32 v5, v1, v2, v3 neg_hi:[1,0,0]', 'v_fma_mix_f32 v5, -v1, |v2|, -|v3|',
    'v_fma_mix_f32 v5, neg(v1), abs(v2), v3', 'v_fma_mix_f32 v5, 1.0, v2, v3', 'v_fma_mix_f32 v5, 1.0, v2, v3 op_sel_hi:[1,0,0]',
    'v_fma_mix_f32 v5, 0x3c00, v2, v3', 'v_fma_mix_f32 v5, 0x3f800000, v2, v3', 'v_fma_mix_f32 v5, 0x12345678, v2, v3',
    'v_fma_mix_f32 v5, 0x1234, v2, v3', 'v_fma_mix_f32 v5, 0x1234, v2, v3 op_sel_hi:[1,0,0]', 'v_fma_mix_f32 v5, 0x3f800000, v2, v3 op_sel_hi:[1,0,0]',
    'v_fma_mix_f32 v5, s1, v2, v3', 'v_fma_mixlo_f16 v5, v1, v2, v3 clamp', 'v_fma_mixhi_f16 v5, v1, v2, v3 op_sel:[0,0,1]',
    'v_dot2_f32_f16 v5, v1, v2, v3', 'v_dot2_f32_f16 v5, v1, v2, 1.0', 'v_dot2_f32_f16 v5, v1, v2, 0x3f800000',
    'v_dot2_f32_f16 v5, 0x3c00, v2, v3', 'v_dot2_f32_f16 v5, v1, v2, v3 op_sel_hi:[0,0,0]', 'v_dot2_f32_f16 v5, v1, v2, v3 neg_lo:[1,1,1]',
    'v_dot2_f32_bf16 v5, v1, v2, v3', 'v_dot2_f32_bf16 v5, 0x3f80, v2, v3', 'v_dot2_f32_bf16 v5, 1.0, v2, v3',
    'v_dot2_f32_bf16 v5, 0x3f800000, v2, v3', 'v_dot4_i32_iu8 v5, v1, v2, v3 neg_lo:[1,1,0]', 'v_dot4_i32_iu8 v5, v1, v2, v3 neg_lo:[0,0,1]',
    'v_dot4_i32_iu8 v5, v1, v2, v3 neg_hi:[1,0,0]', 'v_dot4_u32_u8 v5, v1, v2, v3 neg_lo:[1,0,0]', 'v_dot8_i32_iu4 v5, v1, v2, v3 clamp',
    'v_dot4_i32_iu8 v5, 0x12345678, v2, v3',
    # WMMA
    'v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7]', 'v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], 1.0',
    'v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], 0x1234', 'v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], s[0:7]',
    'v_wmma_f32_16x16x16_f16 v[0:7], s[8:15], v[16:23], v[0:7]', 'v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7] clamp',
    'v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7] op_sel:[0,0,1]',
    'v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7] neg_lo:[1,0,0] neg_hi:[0,0,1]',
    'v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7] op_sel_hi:[0,0,0]',
    'v_wmma_f16_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7] op_sel:[0,0,1]',
    'v_wmma_f16_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7] op_sel:[1,0,0]',
    'v_wmma_bf16_16x16x16_bf16 v[0:7], v[8:15], v[16:23], v[0:7] op_sel:[0,0,1] clamp',
    'v_wmma_i32_16x16x16_iu8 v[0:7], v[8:11], v[12:15], v[0:7] neg_lo:[1,1,0] clamp',
    'v_wmma_i32_16x16x16_iu4 v[0:7], v[8:9], v[10:11], v[0:7]', 'v_wmma_i32_16x16x16_iu4 v[0:7], v[8:9], v[10:11], 1',
    'v_wmma_f32_16x16x16_f16 v[1:8], v[8:15], v[16:23], v[1:8]', 'v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[8:15]',
    'v_wmma_f32_16x16x16_f16 v[0:7], v[0:7], v[16:23], v[0:7]', 'v_wmma_f32_16x16x16_f16 v[0:3], v[8:15], v[16:23], v[0:3]',
    'v_wmma_f32_16x16x16_f16 v[0:7], v[8:11], v[16:23], v[0:7]',
    # VOP3P names
    'v_pk_add_f16_e64 v5, v1, v2', 'v_pk_add_f16_e32 v5, v1, v2', 'v_pk_add_f16_vop3p v5, v1, v2', 'v_fma_mix_f32_e64 v5, v1, v2, v3',
    'v_dot2_f16_f16 v5, v1, v2, v3', 'v_dot2_f32_f16_e64_dpp v5, v1, v2, v3 row_shl:1',
]

ASM_PROBES_W64 = [
    'v_cmp_eq_f32 vcc, v1, v2 row_shl:1', 'v_cmp_eq_f32 vcc_lo, v1, v2 row_shl:1', 'v_cndmask_b32 v5, v1, v2, vcc row_shl:1',
    'v_cmp_eq_f32_e64_dpp s[4:5], v1, v2 dpp8:[0,1,2,3,4,5,6,7]', 'v_add_co_ci_u32_e64_dpp v5, s[4:5], v1, v2, s[6:7] row_shl:1',
    'v_wmma_f32_16x16x16_f16 v[0:3], v[8:15], v[16:23], v[0:3]', 'v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7]',
    'v_wmma_f16_16x16x16_f16 v[0:3], v[8:15], v[16:23], v[0:3] op_sel:[0,0,1]', 'v_wmma_i32_16x16x16_iu4 v[0:3], v[8:9], v[10:11], v[0:3]',
]

def assembler_probes():
    out = OrderedDict()
    for mattr, lines in ((None, ASM_PROBES), (W64, ASM_PROBES_W64)):
        for l, r in zip(lines, asm(lines, mattr)):
            out[('(wave64) ' if mattr else '') + l] = asm_desc(r) if r[0] == 'ERR' else '%s [%s]' % (r[1], hexb(r[0]))
    return out

# ---------------------------------------------------------------- examples for the notes

EX_WORDS = [
    # layout bases and single-bit flips
    ('e32 DPP16 base', e32_dpp('Vop2', 3, dpp16(src0=10, ctrl=0x1b, row=5, bank=0xa), 40, 20)),
    ('  dword bit 0 (src0)', e32_dpp('Vop2', 3, dpp16(src0=11, ctrl=0x1b, row=5, bank=0xa), 40, 20)),
    ('  dword bit 7 (src0)', e32_dpp('Vop2', 3, dpp16(src0=138, ctrl=0x1b, row=5, bank=0xa), 40, 20)),
    ('  dword bit 16 (dpp_ctrl[8])', e32_dpp('Vop2', 3, dpp16(src0=10, ctrl=0x11b, row=5, bank=0xa), 40, 20)),
    ('  dword bit 17 (unused)', e32_dpp('Vop2', 3, dpp16(src0=10, ctrl=0x1b, row=5, bank=0xa, bit17=1), 40, 20)),
    ('  dword bit 18 (fi)', e32_dpp('Vop2', 3, dpp16(src0=10, ctrl=0x1b, row=5, bank=0xa, fi=1), 40, 20)),
    ('  dword bit 19 (bound_ctrl)', e32_dpp('Vop2', 3, dpp16(src0=10, ctrl=0x1b, row=5, bank=0xa, bc=1), 40, 20)),
    ('  dword bit 20 (src0_neg)', e32_dpp('Vop2', 3, dpp16(src0=10, ctrl=0x1b, row=5, bank=0xa, neg0=1), 40, 20)),
    ('  dword bit 21 (src0_abs)', e32_dpp('Vop2', 3, dpp16(src0=10, ctrl=0x1b, row=5, bank=0xa, abs0=1), 40, 20)),
    ('  dword bit 22 (src1_neg)', e32_dpp('Vop2', 3, dpp16(src0=10, ctrl=0x1b, row=5, bank=0xa, neg1=1), 40, 20)),
    ('  dword bit 23 (src1_abs)', e32_dpp('Vop2', 3, dpp16(src0=10, ctrl=0x1b, row=5, bank=0xa, abs1=1), 40, 20)),
    ('  dword bit 24 (bank_mask[0])', e32_dpp('Vop2', 3, dpp16(src0=10, ctrl=0x1b, row=5, bank=0xb), 40, 20)),
    ('  dword bit 28 (row_mask[0])', e32_dpp('Vop2', 3, dpp16(src0=10, ctrl=0x1b, row=4, bank=0xa), 40, 20)),
    ('  word bit 4 (src0 250 -> 234)', le(e32('Vop2', 3, 40, 20, 234), 4) + le(dpp16(src0=10, ctrl=0x1b, row=5, bank=0xa), 4)),
    ('e32 DPP8 base', e32_dpp('Vop2', 3, dpp8(10, SELS), 40, 20, S_DPP8)),
    ('  dword bit 8 (sel0 bit 0)', e32_dpp('Vop2', 3, dpp8(10, (2, 1, 4, 1, 5, 2, 6, 5)), 40, 20, S_DPP8)),
    ('  dword bit 31 (sel7 bit 2)', e32_dpp('Vop2', 3, dpp8(10, (3, 1, 4, 1, 5, 2, 6, 1)), 40, 20, S_DPP8)),
    ('  src0 234 (fi:1)', e32_dpp('Vop2', 3, dpp8(10, SELS), 40, 20, S_DPP8FI)),
    ('VOP3 DPP16 base', vop3_dpp(0x213, dpp16(src0=10, ctrl=0x1b, row=5, bank=0xa), vdst=40, src1=V + 20, src2=V + 30)),
    ('  dword bits 20-23 set (ignored in VOP3)', vop3_dpp(0x213, dpp16(src0=10, ctrl=0x1b, row=5, bank=0xa, neg0=1, abs0=1, neg1=1, abs1=1), vdst=40, src1=V + 20, src2=V + 30)),
    ('  VOP3 neg/abs/clamp/omod', vop3_dpp(0x213, dpp16(src0=10, ctrl=0x1b, row=5, bank=0xa), vdst=40, src1=V + 20, src2=V + 30, b8=5, neg=6, clamp=1, omod=3)),
    ('  VOP3 op_sel bits on an f32 op (ignored)', vop3_dpp(0x213, dpp16(src0=10, ctrl=0x1b, row=5, bank=0xa), vdst=40, src1=V + 20, src2=V + 30, b8=0x78)),
    ('VOP3 DPP8 base', vop3_dpp(0x213, dpp8(10, SELS), S_DPP8, vdst=40, src1=V + 20, src2=V + 30)),
    ('VOP3 DPP16 missing its dword', vop3(0x213, vdst=40, src0=S_DPP16, src1=V + 20, src2=V + 30)),
    ('VOP3P v_pk_fma_f16 base', vop3p(14, 40, V + 10, V + 20, V + 30, op_sel_hi=7)),
    ('  op_sel[0] (bit 11)', vop3p(14, 40, V + 10, V + 20, V + 30, op_sel=1, op_sel_hi=7)),
    ('  op_sel_hi[2] (bit 14)', vop3p(14, 40, V + 10, V + 20, V + 30, op_sel_hi=3)),
    ('  op_sel_hi[0] (bit 59)', vop3p(14, 40, V + 10, V + 20, V + 30, op_sel_hi=6)),
    ('  neg_hi[0] (bit 8)', vop3p(14, 40, V + 10, V + 20, V + 30, op_sel_hi=7, neg_hi=1)),
    ('  neg_lo[2] (bit 63)', vop3p(14, 40, V + 10, V + 20, V + 30, op_sel_hi=7, neg_lo=4)),
    ('  clamp (bit 15)', vop3p(14, 40, V + 10, V + 20, V + 30, op_sel_hi=7, clamp=1)),
    ('  every modifier', vop3p(14, 40, V + 10, V + 20, V + 30, op_sel=7, op_sel_hi=0, neg_lo=7, neg_hi=7, clamp=1)),
    ('v_pk_add_f16 base (src2 = 0, op_sel_hi[2] = 1)', vop3p(15, 40, V + 10, V + 20, 0, op_sel_hi=7)),
    ('  op_sel_hi[2] = 0 (ignored)', vop3p(15, 40, V + 10, V + 20, 0, op_sel_hi=3)),
    ('  op_sel[2] = 1 (invalid)', vop3p(15, 40, V + 10, V + 20, 0, op_sel=4, op_sel_hi=7)),
    ('  src2 = v0 (invalid)', vop3p(15, 40, V + 10, V + 20, V, op_sel_hi=7)),
    ('  op_sel_hi = 0', vop3p(15, 40, V + 10, V + 20, 0, op_sel_hi=4)),
    ('v_fma_mix_f32 base', vop3p(32, 40, V + 10, V + 20, V + 30)),
    ('  neg_lo/neg_hi = 5/6', vop3p(32, 40, V + 10, V + 20, V + 30, neg_lo=5, neg_hi=6)),
    ('  op_sel_hi = 7', vop3p(32, 40, V + 10, V + 20, V + 30, op_sel_hi=7)),
    ('  op_sel = 1, op_sel_hi = 1', vop3p(32, 40, V + 10, V + 20, V + 30, op_sel=1, op_sel_hi=1)),
    ('v_fma_mix_f32 literal 0x12345678', vop3p(32, 40, LIT, V + 20, V + 30, lit=0x12345678)),
    ('v_fma_mix_f32 literal 0x3f800000', vop3p(32, 40, LIT, V + 20, V + 30, lit=0x3f800000)),
    ('v_fma_mix_f32 literal 0x3c00', vop3p(32, 40, LIT, V + 20, V + 30, lit=0x3c00)),
    ('v_fma_mix_f32 literal 0x1234, op_sel_hi 1', vop3p(32, 40, LIT, V + 20, V + 30, op_sel_hi=1, lit=0x1234)),
    ('v_dot4_i32_iu8 neg_lo 3', vop3p(22, 40, V + 10, V + 20, V + 30, op_sel_hi=7, neg_lo=3)),
    ('v_dot2_f32_bf16 literal 0x3f800000', vop3p(26, 40, LIT, V + 20, V + 30, op_sel_hi=7, lit=0x3f800000)),
    ('v_dot2_f32_bf16 inline 1.0', vop3p(26, 40, 242, V + 20, V + 30, op_sel_hi=7)),
    ('v_pk_add_f16 literal 0x3c00', vop3p(15, 40, LIT, V + 20, 0, op_sel_hi=7, lit=0x3c00)),
    ('v_pk_add_f16 literal 0x3f800000', vop3p(15, 40, LIT, V + 20, 0, op_sel_hi=7, lit=0x3f800000)),
    ('v_pk_add_u16 literal 0x3f800000', vop3p(10, 40, LIT, V + 20, 0, op_sel_hi=7, lit=0x3f800000)),
    ('v_pk_add_u16 literal 0x3c00', vop3p(10, 40, LIT, V + 20, 0, op_sel_hi=7, lit=0x3c00)),
    ('v_pk_add_f16 both sources literal', vop3p(15, 40, LIT, LIT, 0, op_sel_hi=7, lit=0x12345678)),
    ('v_pk_add_f16 s1, s2', vop3p(15, 40, 1, 2, 0, op_sel_hi=7)),
    ('v_pk_fma_f16 s1, s2, s3 (constant bus)', vop3p(14, 40, 1, 2, 3, op_sel_hi=7)),
    ('v_wmma_f32_16x16x16_f16', vop3p(64, 0, V + 8, V + 16, V + 0, op_sel_hi=7)),
    ('  src2 inline 1.0', vop3p(64, 0, V + 8, V + 16, 242, op_sel_hi=7)),
    ('  src2 s0', vop3p(64, 0, V + 8, V + 16, 0, op_sel_hi=7)),
    ('  src0 inline 1.0', vop3p(64, 0, 242, V + 16, V + 0, op_sel_hi=7)),
    ('  op_sel_hi = 0 (ignored)', vop3p(64, 0, V + 8, V + 16, V + 0, op_sel_hi=0)),
    ('  op_sel[2] (invalid for f32 D)', vop3p(64, 0, V + 8, V + 16, V + 0, op_sel=4, op_sel_hi=7)),
    ('  clamp (invalid for float)', vop3p(64, 0, V + 8, V + 16, V + 0, op_sel_hi=7, clamp=1)),
    ('v_wmma_f16_16x16x16_f16 op_sel[2]', vop3p(66, 0, V + 8, V + 16, V + 0, op_sel=4, op_sel_hi=7)),
    ('v_wmma_i32_16x16x16_iu8 neg_lo 3 clamp', vop3p(68, 0, V + 8, V + 12, V + 0, op_sel_hi=7, neg_lo=3, clamp=1)),
    ('v_fma_mix_f32_e64_dpp', vop3p_dpp(32, dpp16(src0=1, ctrl=0x101), vdst=5, src1=V + 2, src2=V + 3)),
    ('v_dot2_f32_f16_e64_dpp dpp8 fi', vop3p_dpp(19, dpp8(1, range(8)), S_DPP8FI, vdst=5, src1=V + 2, src2=V + 3, op_sel_hi=7)),
    ('v_pk_add_f16 with src0 = 250 (no DPP form)', vop3p_dpp(15, dpp16(src0=1, ctrl=0x101), vdst=5, src1=V + 2, src2=0, op_sel_hi=7)),
    ('v_dot2_f32_bf16 with src0 = 250 (no DPP form)', vop3p_dpp(26, dpp16(src0=1, ctrl=0x101), vdst=5, src1=V + 2, src2=V + 3, op_sel_hi=7)),
    # dpp_ctrl printing
    ('ctrl 0x000', e32_dpp('Vop1', 1, dpp16(src0=1, ctrl=0x000), 5)),
    ('ctrl 0x0e4 (identity)', e32_dpp('Vop1', 1, dpp16(src0=1, ctrl=0xe4), 5)),
    ('ctrl 0x100', e32_dpp('Vop1', 1, dpp16(src0=1, ctrl=0x100), 5)),
    ('ctrl 0x101', e32_dpp('Vop1', 1, dpp16(src0=1, ctrl=0x101), 5)),
    ('ctrl 0x11f', e32_dpp('Vop1', 1, dpp16(src0=1, ctrl=0x11f), 5)),
    ('ctrl 0x121', e32_dpp('Vop1', 1, dpp16(src0=1, ctrl=0x121), 5)),
    ('ctrl 0x130', e32_dpp('Vop1', 1, dpp16(src0=1, ctrl=0x130), 5)),
    ('ctrl 0x134', e32_dpp('Vop1', 1, dpp16(src0=1, ctrl=0x134), 5)),
    ('ctrl 0x138', e32_dpp('Vop1', 1, dpp16(src0=1, ctrl=0x138), 5)),
    ('ctrl 0x13c', e32_dpp('Vop1', 1, dpp16(src0=1, ctrl=0x13c), 5)),
    ('ctrl 0x131', e32_dpp('Vop1', 1, dpp16(src0=1, ctrl=0x131), 5)),
    ('ctrl 0x140', e32_dpp('Vop1', 1, dpp16(src0=1, ctrl=0x140), 5)),
    ('ctrl 0x141', e32_dpp('Vop1', 1, dpp16(src0=1, ctrl=0x141), 5)),
    ('ctrl 0x142', e32_dpp('Vop1', 1, dpp16(src0=1, ctrl=0x142), 5)),
    ('ctrl 0x143', e32_dpp('Vop1', 1, dpp16(src0=1, ctrl=0x143), 5)),
    ('ctrl 0x144', e32_dpp('Vop1', 1, dpp16(src0=1, ctrl=0x144), 5)),
    ('ctrl 0x150', e32_dpp('Vop1', 1, dpp16(src0=1, ctrl=0x150), 5)),
    ('ctrl 0x15f', e32_dpp('Vop1', 1, dpp16(src0=1, ctrl=0x15f), 5)),
    ('ctrl 0x160', e32_dpp('Vop1', 1, dpp16(src0=1, ctrl=0x160), 5)),
    ('ctrl 0x16f', e32_dpp('Vop1', 1, dpp16(src0=1, ctrl=0x16f), 5)),
    ('ctrl 0x170', e32_dpp('Vop1', 1, dpp16(src0=1, ctrl=0x170), 5)),
    ('ctrl 0x1ff', e32_dpp('Vop1', 1, dpp16(src0=1, ctrl=0x1ff), 5)),
    ('masks 0, bound_ctrl, fi', e32_dpp('Vop1', 1, dpp16(src0=1, ctrl=0x101, row=0, bank=0, bc=1, fi=1), 5)),
    # e32 DPP per family
    ('VOPC DPP16', e32_dpp('Vopc', 0x12, dpp16(src0=1, ctrl=0x101), 0, 2)),
    ('VOPCX DPP16', e32_dpp('Vopc', 0x92, dpp16(src0=1, ctrl=0x101), 0, 2)),
    ('VOPC DPP8', e32_dpp('Vopc', 0x12, dpp8(1, range(8)), 0, 2, S_DPP8)),
    ('cndmask DPP16', e32_dpp('Vop2', 1, dpp16(src0=1, ctrl=0x101), 5, 2)),
    ('add_co_ci DPP16', e32_dpp('Vop2', 0x20, dpp16(src0=1, ctrl=0x101), 5, 2)),
    ('v_add_nc_u32 DPP16 with src0_neg (invalid)', e32_dpp('Vop2', 0x25, dpp16(src0=1, ctrl=0x101, neg0=1), 5, 2)),
    ('v_mov_b32 DPP16 with src0_neg (invalid)', e32_dpp('Vop1', 1, dpp16(src0=1, ctrl=0x101, neg0=1), 5)),
    ('v_mov_b16 DPP16 v5.h, v1.h', e32_dpp('Vop1', 0x1c, dpp16(src0=0x81, ctrl=0x101), 0x85)),
    ('v_mov_b16 DPP16 src0_abs (ignored)', e32_dpp('Vop1', 0x1c, dpp16(src0=1, ctrl=0x101, abs0=1), 5)),
    ('v_ldexp_f16 DPP16 src1_abs (ignored)', e32_dpp('Vop2', 0x3b, dpp16(src0=1, ctrl=0x101, abs1=1), 5, 2)),
    ('v_add_f16 DPP16 src0 v200 (Lo128 only)', e32_dpp('Vop2', 0x32, dpp16(src0=200, ctrl=0x101), 5, 2)),
    ('v_add_f16 DPP16 vdst v200 (invalid)', e32_dpp('Vop2', 0x32, dpp16(src0=1, ctrl=0x101), 200, 2)),
    ('v_add_f16 DPP16 vsrc1 v200', e32_dpp('Vop2', 0x32, dpp16(src0=1, ctrl=0x101), 5, 200)),
    ('v_fmac_dx9_zero_f32 DPP16 (no DPP form)', e32_dpp('Vop2', 6, dpp16(src0=1, ctrl=0x101), 5, 2)),
    ('v_readfirstlane_b32 DPP16 (no DPP form)', e32_dpp('Vop1', 2, dpp16(src0=1, ctrl=0x101), 5)),
    ('v_cvt_f64_f32 DPP16 (no DPP form)', e32_dpp('Vop1', 0x10, dpp16(src0=1, ctrl=0x101), 6)),
    ('v_cmp_eq_f64 DPP16 (no DPP form)', e32_dpp('Vopc', 0x22, dpp16(src0=2, ctrl=0x101), 0, 4)),
    # VOP3 DPP sources and destinations
    ('v_add_f32_e64_dpp src1 s2 (decodes)', vop3_dpp(0x103, dpp16(src0=1, ctrl=0x101), vdst=5, src1=2)),
    ('v_add_f32_e64_dpp src1 1.0 (decodes)', vop3_dpp(0x103, dpp16(src0=1, ctrl=0x101), vdst=5, src1=242)),
    ('v_add_f32_e64_dpp src1 literal (decodes)', vop3_dpp(0x103, dpp16(src0=1, ctrl=0x101), vdst=5, src1=LIT, lit=0x12345678)),
    ('v_fma_f32_e64_dpp src2 s3', vop3_dpp(0x213, dpp16(src0=1, ctrl=0x101), vdst=5, src1=V + 2, src2=3)),
    ('v_fma_f32_e64_dpp src2 1.0', vop3_dpp(0x213, dpp16(src0=1, ctrl=0x101), vdst=5, src1=V + 2, src2=242)),
    ('v_fma_f32_e64_dpp src2 literal (decodes)', vop3_dpp(0x213, dpp16(src0=1, ctrl=0x101), vdst=5, src1=V + 2, src2=LIT, lit=0x12345678)),
    ('v_fma_mix_f32_e64_dpp src1 s2', vop3p_dpp(32, dpp16(src0=1, ctrl=0x101), vdst=5, src1=2, src2=V + 3)),
    ('v_cmp_eq_f32_e64_dpp s4', vop3_dpp(0x12, dpp16(src0=1, ctrl=0x101), vdst=4, src1=V + 2)),
    ('v_cmpx_eq_f32_e64_dpp (vdst 0x7e)', vop3_dpp(0x92, dpp16(src0=1, ctrl=0x101), vdst=0x7e, src1=V + 2)),
    ('v_cmpx_eq_f32_e64_dpp (vdst 5: ignored)', vop3_dpp(0x92, dpp16(src0=1, ctrl=0x101), vdst=5, src1=V + 2)),
    ('v_cndmask_b32_e64_dpp s3 mask', vop3_dpp(0x101, dpp16(src0=1, ctrl=0x101), vdst=5, src1=V + 2, src2=3)),
    ('v_add_co_ci_u32_e64_dpp', vop3_dpp(0x120, dpp16(src0=1, ctrl=0x101), vdst=5, b8=4, src1=V + 2, src2=6)),
    ('v_add_f16_e64_dpp op_sel bits (ignored)', vop3_dpp(0x132, dpp16(src0=1, ctrl=0x101), vdst=5, src1=V + 2, b8=0x78)),
    ('v_fma_f16_e64_dpp op_sel bits', vop3_dpp(0x248, dpp16(src0=1, ctrl=0x101), vdst=5, src1=V + 2, src2=V + 3, b8=0x78)),
    ('v_add_nc_u16_e64_dpp op_sel bits', vop3_dpp(0x303, dpp16(src0=1, ctrl=0x101), vdst=5, src1=V + 2, b8=0x58)),
    ('v_mad_u16_e64_dpp abs bits (ignored)', vop3_dpp(0x241, dpp16(src0=1, ctrl=0x101), vdst=5, src1=V + 2, src2=V + 3, b8=7)),
    ('v_fma_f64 with src0 = 250 (no DPP form)', vop3_dpp(0x214, dpp16(src0=2, ctrl=0x101), vdst=6, src1=V + 4, src2=V + 8)),
]

def examples():
    def alone(w):
        line = first_line(w)
        return ('; alone: ' + line) if line else ''
    print_round_trips(EX_WORDS, alone)
    w64 = [('VOPC DPP16', e32_dpp('Vopc', 0x12, dpp16(src0=1, ctrl=0x101), 0, 2)),
           ('cndmask DPP8', e32_dpp('Vop2', 1, dpp8(1, range(8)), 5, 2, S_DPP8)),
           ('v_cmp_eq_f32_e64_dpp s4', vop3_dpp(0x12, dpp16(src0=1, ctrl=0x101), vdst=4, src1=V + 2)),
           ('v_add_co_ci_u32_e64_dpp', vop3_dpp(0x120, dpp16(src0=1, ctrl=0x101), vdst=5, b8=4, src1=V + 2, src2=6)),
           ('v_wmma_f32_16x16x16_f16', vop3p(64, 0, V + 8, V + 16, V + 0, op_sel_hi=7)),
           ('v_wmma_i32_16x16x16_iu4', vop3p(69, 0, V + 8, V + 10, V + 0, op_sel_hi=7))]
    for (lab, w), t in zip(w64, dis([w for _, w in w64], W64)):
        print('wave64 [%s] -> %s    # %s' % (hexb(w), t or 'invalid instruction encoding', lab))
    for l, d in assembler_probes().items():
        print('$ %s  ->  %s' % (l, d))

# ---------------------------------------------------------------- against table.rs

def table_vop3_flags():
    """{name: set of VOP3_* flags} for the Vop3 rows of crates/rdna3-isa/src/table.rs (if there)."""
    path = os.path.join(os.path.dirname(HERE), 'crates/rdna3-isa/src/table.rs')
    if not os.path.exists(path):
        return None
    out = {}
    for m in re.finditer(r'InstrDef::new\(Vop3, 0x[0-9a-f]+, "([^"]+)", .*?\], (Flags::[^\n]*)\),\n', open(path).read()):
        out[m.group(1)] = set(re.findall(r'VOP3_(NEG_ABS\d|CLAMP|OMOD)', m.group(2)))
    return out

def table_check(e32r, v3r):
    """Are the DPP modifier sets the VOP3 flags table.rs already has for the e64 form?"""
    t = table_vop3_flags()
    if t is None:
        return 'crates/rdna3-isa/src/table.rs not found'
    res = OrderedDict(vop3_dpp_compared=0, vop3_dpp_mismatches=[], e32_dpp_compared=0, e32_dpp_mismatches=[],
                      not_in_table=[])
    for op, r in v3r.items():
        plain = r['name'][:-len('_dpp')]
        if plain not in t and plain.endswith('_e64') and plain[:-4] in t:
            plain = plain[:-4]
        if plain not in t:
            res['not_in_table'].append(plain)
            continue
        p = r['probes']
        got = set()
        for i in range(3):
            if ok_probe(p.get('neg%d' % i)) and ok_probe(p.get('abs%d' % i)):
                got.add('NEG_ABS%d' % i)
        if ok_probe(p.get('clamp')):
            got.add('CLAMP')
        if ok_probe(p.get('omod1')):
            got.add('OMOD')
        res['vop3_dpp_compared'] += 1
        if got != t[plain]:
            res['vop3_dpp_mismatches'].append((r['name'], sorted(got), sorted(t[plain])))
    for key, r in e32r.items():
        if not r['dpp16']:
            continue
        n = r['dpp16'].split()[0]
        stem = n[:-4] if n.endswith('_dpp') else n
        plain = stem + '_e64' if stem + '_e64' in t else None
        if plain is None:
            continue
        p = r['probes']
        got = set('NEG_ABS%d' % i for i in range(2) if ok_probe(p.get('src%d_neg' % i)) and ok_probe(p.get('src%d_abs' % i)))
        want = set(x for x in t[plain] if x.startswith('NEG_ABS'))
        res['e32_dpp_compared'] += 1
        if got != want:
            res['e32_dpp_mismatches'].append((n, sorted(got), sorted(want)))
    return res

# ---------------------------------------------------------------- main

def survey():
    out = OrderedDict(source='llvm-mc-19 -triple=amdgcn -mcpu=gfx1100 (wave32 unless noted)')
    lay = layout()
    out['layout'] = lay
    out['layout_summary'] = OrderedDict((k, '%d of %d modelled bits agree' % (v['model_agreeing_bits'], v['model_checked_bits']))
                                        for k, v in lay.items())
    e = e32_survey()
    v3 = vop3_dpp_survey()
    v3p = vop3p_survey()
    c = ctrl_survey()
    cnt = OrderedDict()
    for fmt in ('Vop1', 'Vop2', 'Vopc'):
        rs = [r for r in e.values() if r['format'] == fmt]
        cnt[fmt] = OrderedDict(e32_ops=sum(1 for r in rs if r['e32']), dpp16=sum(1 for r in rs if r['dpp16']),
                               dpp8=sum(1 for r in rs if r['dpp8']),
                               without_dpp=[r['e32'] for r in rs if r['e32'] and not r['dpp16']])
    cnt['Vop3_e64_dpp'] = OrderedDict(total=len(v3), **{o: sum(1 for r in v3.values() if r['origin'] == o)
                                                        for o in ('Vopc', 'Vop2', 'Vop1', 'Vop3-only')},
                                      vop3sd=sum(1 for r in v3.values() if r['format'] == 'Vop3sd'),
                                      vop3_without_dpp=list(VOP3_WITHOUT_DPP))
    cnt['Vop3p'] = OrderedDict(total=len(v3p), with_dpp=[r['name'] for r in v3p.values() if r.get('dpp16')])
    out['counts'] = cnt
    out['e32'] = OrderedDict(probe_classes=group_by_signature(e), ops=e)
    v3mods = OrderedDict((k, dict(v, probes=OrderedDict((a, b) for a, b in v['probes'].items() if '=' not in a))) for k, v in v3.items())
    v3srcs = OrderedDict((k, dict(v, probes=OrderedDict((a, b) for a, b in v['probes'].items() if '=' in a))) for k, v in v3.items())
    out['vop3_dpp'] = OrderedDict(modifier_classes=group_by_signature(v3mods), source_classes=group_by_signature(v3srcs), ops=v3)
    out['vop3p'] = v3p
    out['dpp_ctrl'] = c
    out['table_rs_check'] = table_check(e, v3)
    out['assembler'] = assembler_probes()
    return out

def main():
    if '--golden' in sys.argv:
        st = golden()
        json.dump(st, sys.stdout, indent=1)
        sys.stdout.write('\n')
    elif '--examples' in sys.argv:
        examples()
    else:
        json.dump(survey(), sys.stdout, indent=1)
        sys.stdout.write('\n')

if __name__ == '__main__':
    main()
