#!/usr/bin/env python3
"""Survey of the gfx11 VOPD (dual-issue `v_dual_*`) encoding as llvm-mc-19 (-mcpu=gfx1100)
decodes, prints and assembles it.  Research aid for adding VOPD to crates/rdna3-isa; standard
library only.

  python3 tools/survey_vopd.py            > /tmp/vopd.json    JSON survey (about 15 s)
  python3 tools/survey_vopd.py --golden   > /tmp/vopd_golden.txt
  python3 tools/survey_vopd.py --examples   the lines quoted in tools/VOPD_NOTES.md

Encoding (64 bits, then one optional literal dword shared by both components):
  DW0: [8:0] src0x  [16:9] vsrc1x  [21:17] opy  [25:22] opx  [31:26] 0b110010 (byte 3 = 0xc8..0xcb)
  DW1: [8:0] src0y  [16:9] vsrc1y  [23:17] vdsty>>1  [31:24] vdstx
  vdsty = (field << 1) | (~vdstx & 1)
(the survey re-derives all of this from single-bit probes; see "layout" in the JSON).

Like tools/survey_vop3.py, every probe is one line of bytes followed by four `s_nop <probe
index>` words, so one llvm-mc process decodes thousands of probes; a probe counts as decoded
only when llvm-mc consumed exactly its bytes (a source of 255 with no literal given eats a
sentinel; a literal nobody reads decodes as an extra instruction).
"""
import json, random, re, subprocess, sys, time
from collections import Counter, OrderedDict

MC = ['llvm-mc-19', '-triple=amdgcn', '-mcpu=gfx1100']
W64 = '+wavefrontsize64'
V = 256                      # source code of v0
LIT = 255                    # source code "literal follows"
PREFIX = 0x32                # bits [31:26]

# ---------------------------------------------------------------- llvm-mc batching

from mc_batch import _dis_once, dis_full, dis, asm, asm_desc, le, hexb, print_round_trips, first_line

# ---------------------------------------------------------------- VOPD words

# Field layout as believed; `layout` below re-derives it from single-bit probes and the
# survey reports any disagreement.
FIELDS = OrderedDict([('src0x', (0, 9)), ('vsrc1x', (9, 8)), ('opy', (17, 5)), ('opx', (22, 4)),
                      ('prefix', (26, 6)), ('src0y', (32, 9)), ('vsrc1y', (41, 8)),
                      ('vdsty', (49, 7)), ('vdstx', (56, 8))])

def vopd(opx, opy, src0x=V, vsrc1x=0, src0y=V, vsrc1y=0, vdstx=0, vdsty=0, lit=None, prefix=PREFIX):
    """vdsty is the 7-bit FIELD (the register is field*2 + (~vdstx & 1))."""
    f = dict(src0x=src0x, vsrc1x=vsrc1x, opy=opy, opx=opx, prefix=prefix, src0y=src0y,
             vsrc1y=vsrc1y, vdsty=vdsty, vdstx=vdstx)
    w = 0
    for k, (lo, n) in FIELDS.items():
        assert 0 <= f[k] < (1 << n), (k, f[k])
        w |= f[k] << lo
    return le(w, 8) + (le(lit, 4) if lit is not None else [])

def vdsty_reg(vdstx, field):
    return (field << 1) | (~vdstx & 1)

def split_pair(text):
    """'v_dual_a d, s :: v_dual_b d, s' -> [(name, [operands]), (name, [operands])]."""
    out = []
    for half in text.split(' :: '):
        if ' ' in half:
            n, body = half.split(None, 1)
            out.append((n, body.split(', ')))
        else:
            out.append((half, []))
    return out

def src_name(code, lit=None):
    """Human label of a 9-bit source code."""
    if code >= V:
        return 'v%d' % (code - V)
    if code == LIT:
        return 'literal 0x%08x' % lit if lit is not None else 'literal'
    return 'code %d' % code

# Source code classes of the 9-bit src0 fields
CLASSES = [('sgpr s0-s105', range(0, 106)), ('vcc_lo/vcc_hi', range(106, 108)),
           ('ttmp0-15', range(108, 124)), ('null', [124]), ('m0', [125]), ('exec_lo/hi', [126, 127]),
           ('inline int 0..64,-1..-16', range(128, 209)), ('209-234', range(209, 235)),
           ('235-239 (shared/private base/limit, pops_exiting_wave_id)', range(235, 240)),
           ('inline float 240-248', range(240, 249)), ('249-250', [249, 250]),
           ('vccz/execz 251-252', [251, 252]), ('scc 253', [253]), ('lds_direct 254', [254]),
           ('literal 255', [255]), ('vgpr', range(256, 512))]

LITS = [0x12345678, 0x3f800000, 0x3c00, 0x3c003c00, 0x3118, 0x3e22f983, 0, 1, 64, 65,
        0xffffffff, 0xfffffff0, 0xffffffef, 0x80000000, 0x40400000, 0xbf800000, 0x00010000]

# ---------------------------------------------------------------- the survey parts

# distinct registers per field in templates
T = dict(src0x=V + 10, vsrc1x=20, src0y=V + 41, vsrc1y=51, vdstx=30, vdsty=30)   # vdsty v61
TOK = {'v30': 'vdstx', 'v10': 'src0x', 'v20': 'vsrc1x', 'v61': 'vdsty', 'v41': 'src0y',
       'v51': 'vsrc1y', '0x12345678': 'literal'}

def opcode_scan():
    """Which (opx, opy) decode, with which template (unused vsrc1 = 0, literal or not)."""
    probes, keys = [], []
    for opx in range(16):
        for opy in range(32):
            for v1x in (T['vsrc1x'], 0):
                for v1y in (T['vsrc1y'], 0):
                    for lit in (None, 0x12345678):
                        kw = dict(T, vsrc1x=v1x, vsrc1y=v1y)
                        probes.append(vopd(opx, opy, lit=lit, **kw)); keys.append((opx, opy, v1x, v1y, lit))
    res = dis(probes)
    pairs = OrderedDict()
    for k, t in zip(keys, res):
        if t is None:
            continue
        opx, opy, v1x, v1y, lit = k
        # prefer the template with the most nonzero fields
        score = (v1x != 0) + (v1y != 0)
        if (opx, opy) not in pairs or score > pairs[(opx, opy)][0]:
            pairs[(opx, opy)] = (score, dict(T, vsrc1x=v1x, vsrc1y=v1y), lit, t)
    for k in pairs:
        pairs[k] = pairs[k][1:]
    return pairs, len(probes)

def component_operands(ops, side):
    """Map printed operand tokens of one component to encoding fields."""
    out = []
    for tok in ops:
        f = TOK.get(tok)
        if f and f != 'literal' and not f.endswith(side):
            f = None
        out.append(OrderedDict(text=tok, field=f or 'unknown'))
    return out

def layout(names_x, names_y):
    """Flip every bit of two base words; report what each flip changes in the printed text.
    Base A is v_dual_add_f32 :: v_dual_mul_f32 (opx 4, opy 3); base B has opy 18
    (v_dual_and_b32), whose bit-4 flip gives a decodable opy where base A's does not."""
    a = layout1(4, 3, names_x, names_y)
    b = layout1(3, 18, names_x, names_y)
    derived = OrderedDict()
    for da, db in zip(a['bits'], b['bits']):
        f = da['field'] if da['field'] != 'prefix?' else db['field']
        derived.setdefault(f.rstrip('?'), []).append(da['bit'])
    prefix_flips = OrderedDict()
    for bit in range(26, 32):
        w = bytearray(vopd(4, 3, **T))
        w[bit // 8] ^= 1 << (bit % 8)
        prefix_flips[str(bit)] = '[%s] -> %s' % (hexb(w), first_line(w) or 'nothing')
    checks = a['checks'] + b['checks']
    return OrderedDict(
        base_a=a['base'], base_b=b['base'], bits_a=a['bits'], bits_b=b['bits'],
        derived_fields=OrderedDict((k, [min(v), max(v), len(v)]) for k, v in derived.items()),
        believed_fields=OrderedDict((k, [lo, lo + n - 1, n]) for k, (lo, n) in FIELDS.items()),
        agrees=all(OrderedDict((k, [min(v), max(v), len(v)]) for k, v in derived.items()).get(k) == [lo, lo + n - 1, n]
                   for k, (lo, n) in FIELDS.items()),
        register_delta_checks='%d of %d single-bit register flips change the register number by the bit weight '
                              '(vdsty: twice the weight; bit 56 also flips vdsty bit 0)' % (
                                  sum(ok for _, _, ok in checks), len(checks)),
        register_delta_failures=[c for c in checks if not c[2]],
        prefix_flips=prefix_flips)

def layout1(bx, by, names_x, names_y):
    base_kw = dict(T)
    base = vopd(bx, by, **base_kw)
    probes, keys = [base, base + le(0x12345678, 4)], [(-1, 0), (-1, 1)]
    for bit in range(64):
        w = bytearray(base)
        w[bit // 8] ^= 1 << (bit % 8)
        probes.append(list(w)); keys.append((bit, 0))
        probes.append(list(w) + le(0x12345678, 4)); keys.append((bit, 1))
    res = dis(probes)
    got = {}
    for k, t in zip(keys, res):
        if t is not None and k[0] not in got:
            got[k[0]] = (t, k[1])
    base_text = got[-1][0]
    bp = split_pair(base_text)
    flat_base = [bp[0][0]] + bp[0][1] + [bp[1][0]] + bp[1][1]
    labels = (['X.name'] + ['X.' + TOK.get(t, t) for t in bp[0][1]] +
              ['Y.name'] + ['Y.' + TOK.get(t, t) for t in bp[1][1]])
    bits = []
    for bit in range(64):
        d = OrderedDict(bit=bit)
        if bit not in got:
            d['effect'] = 'invalid (does not decode as one instruction with or without a literal)'
        else:
            t, withlit = got[bit]
            d['text'] = t
            if withlit:
                d['needs_literal'] = True
            if ' :: ' not in t:
                d['effect'] = 'not VOPD: ' + t.split()[0]
            else:
                p = split_pair(t)
                flat = [p[0][0]] + p[0][1] + [p[1][0]] + p[1][1]
                if len(flat) != len(flat_base):
                    d['effect'] = 'changes opcode: %s :: %s' % (p[0][0], p[1][0])
                else:
                    ch = ['%s: %s -> %s' % (labels[i], a, b) for i, (a, b) in enumerate(zip(flat_base, flat)) if a != b]
                    d['effect'] = '; '.join(ch)
        bits.append(d)
    # derive fields: every bit's first changed operand, with value deltas
    for d in bits:
        e = d.get('effect', '')
        m = re.match(r'([XY])\.(\w+): (\S+) -> (\S+)', e)
        if m:
            f = m.group(2)
            if f == 'name':
                f = 'op' + m.group(1).lower()
        elif e.startswith('changes opcode'):
            f = 'op' + ('x' if d['text'].split(' :: ')[0].split()[0] != names_x[bx] else 'y')
        elif e.startswith('not VOPD') or e.startswith('invalid'):
            f = 'prefix?'
        else:
            f = '?'
        d['field'] = f
    # check register-number deltas for register fields
    checks = []
    for d in bits:
        for m in re.finditer(r'([XY])\.(\w+): ([sv])(\d+) -> ([sv])(\d+)', d.get('effect', '')):
            f = m.group(2)
            if f not in FIELDS:
                continue
            lo, n = FIELDS[f]
            if not (lo <= d['bit'] < lo + n) and not (f == 'vdsty' and d['bit'] == 56):
                checks.append((d['bit'], f, False))
                continue
            k = d['bit'] - lo
            a, b = int(m.group(4)), int(m.group(6))
            if f == 'vdsty' and d['bit'] == 56:
                exp = 1          # vdstx bit 0 flips vdsty bit 0
            elif f == 'vdsty':
                exp = 1 << (k + 1)
            elif f.startswith('src0') and k == 8:
                exp = None       # VGPR bit: v -> s
            else:
                exp = 1 << k
            ok = (m.group(3) != m.group(5)) if exp is None else (abs(a - b) == exp)
            checks.append((d['bit'], f, ok))
    return dict(base='[%s] -> %s' % (hexb(base), base_text), bits=bits, checks=checks)

def vdsty_check():
    probes = [vopd(8, 8, V + 1, 0, V + 2, 0, x, f) for x in range(256) for f in range(128)]
    res = dis(probes)
    bad = []
    for i, t in enumerate(res):
        x, f = divmod(i, 128)
        want = 'v_dual_mov_b32 v%d, v1 :: v_dual_mov_b32 v%d, v2' % (x, vdsty_reg(x, f))
        if t != want:
            bad.append((x, f, t))
    # assembler side: every vdstx, vdsty pair on a grid
    regs = list(range(0, 8)) + [100, 101, 126, 127, 128, 129, 250, 251, 252, 253, 254, 255]
    lines, keys = [], []
    for x in regs:
        for y in regs:
            lines.append('v_dual_mov_b32 v%d, v1 :: v_dual_mov_b32 v%d, v2' % (x, y)); keys.append((x, y))
    ar = asm(lines)
    asm_bad, asm_err = [], Counter()
    for (x, y), r in zip(keys, ar):
        if (x ^ y) & 1:
            w = vopd(8, 8, V + 1, 0, V + 2, 0, x, y >> 1)
            if r[0] == 'ERR' or list(r[0]) != w:
                asm_bad.append((x, y, asm_desc(r, w)))
        else:
            if r[0] != 'ERR':
                asm_bad.append((x, y, 'accepted'))
            else:
                asm_err[r[1]] += 1
    return OrderedDict(
        rule='vdsty register = (field[55:49] << 1) | (~vdstx & 1); the assembler writes vdsty >> 1 and '
             'requires vdsty & 1 != vdstx & 1',
        decoder_probes=len(probes), decoder_mismatches=bad[:20], decoder_mismatch_count=len(bad),
        asm_probes=len(lines), asm_mismatches=asm_bad, asm_same_parity_errors=dict(asm_err))

def e32_map():
    """e32 (VOP2/VOP1) encodings by name without suffix."""
    probes, keys = [], []
    for op in range(64):
        w = le((op << 25) | (40 << 17) | (20 << 9) | (V + 10), 4)
        probes.append(w); keys.append(('Vop2', op))
        probes.append(w + le(0x3f800000, 4)); keys.append(('Vop2', op))
    for op in range(128):
        probes.append(le(0x7e000000 | (op << 9) | (40 << 17) | (V + 10), 4)); keys.append(('Vop1', op))
    out = {}
    for k, t in zip(keys, dis(probes)):
        if t and not t.startswith('v_illegal'):
            n = t.split()[0]
            n = n[:-4] if n.endswith('_e32') else n
            out.setdefault(n, k)
    return out

def table_type(stem):
    """The SrcTy of the e32 op's Src0 in crates/rdna3-isa/src/table.rs, if that file is there."""
    import os
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'crates/rdna3-isa/src/table.rs')
    if not os.path.exists(path):
        return None
    src = open(path).read()
    for n in (stem + '_e32', stem):
        m = re.search(r'InstrDef::new\(Vop[12], 0x[0-9a-f]+, "%s", &\[.*?O::new\(Src0, VSrc\(1, (\w+)\)\)' % n, src)
        if m:
            return m.group(1)
    return None

def e32_word(fmt, op, src0, vsrc1=20, lit=None):
    if fmt == 'Vop2':
        w = (op << 25) | (40 << 17) | (vsrc1 << 9) | src0
    else:
        w = 0x7e000000 | (op << 9) | (40 << 17) | src0
    return le(w, 4) + (le(lit, 4) if lit is not None else [])

def classes_of(codes):
    """Summarise a set of accepted source codes by class: all / none / partial list."""
    out = OrderedDict()
    codes = set(codes)
    for lab, rng in CLASSES:
        rng = list(rng)
        n = sum(c in codes for c in rng)
        if n == len(rng):
            out[lab] = 'all'
        elif n == 0:
            out[lab] = 'none'
        else:
            out[lab] = 'only ' + ','.join(str(c) for c in rng if c in codes)
    return out

def sources(comps, e32):
    """Every src0 code (and a list of literal values) in each component, against the e32 op."""
    probes, keys, e_probes, e_keys = [], [], [], []
    for side, op, name, kw, lit_needed in comps:
        stem = 'v_' + name[len('v_dual_'):]
        ek = e32.get(stem)
        for code in list(range(0, 256)) + [V, V + 1, V + 255]:
            lits = LITS if code == LIT else ([0x12345678] if lit_needed else [None])
            for lit in lits:
                k = dict(kw)
                k['src0' + side] = code
                if side == 'x':
                    probes.append(vopd(op, 8, lit=lit, **k))
                else:
                    probes.append(vopd(8, op, lit=lit, **k))
                keys.append((side, op, code, lit))
                if ek:
                    e_probes.append(e32_word(ek[0], ek[1], code, lit=lit)); e_keys.append((side, op, code, lit))
    res = dict(zip(keys, dis(probes)))
    eres = dict(zip(e_keys, dis(e_probes)))
    return res, eres

def src0_token(text, side):
    p = split_pair(text)
    ops = p[0 if side == 'x' else 1][1]
    return ops[1]

def e32_src0_token(text):
    return text.split(None, 1)[1].split(', ')[1]

MISC_ASM = [
    # X-only/Y-only
    'v_dual_add_nc_u32 v0, v1, v2 :: v_dual_mov_b32 v3, v6',
    'v_dual_lshlrev_b32 v0, v1, v2 :: v_dual_mov_b32 v3, v6',
    'v_dual_and_b32 v0, v1, v2 :: v_dual_mov_b32 v3, v6',
    'v_dual_mov_b32 v0, v1 :: v_dual_add_nc_u32 v3, v6, v7',
    'v_dual_mov_b32 v0, v1 :: v_dual_lshlrev_b32 v3, v6, v7',
    'v_dual_mov_b32 v0, v1 :: v_dual_and_b32 v3, v6, v7',
    'v_dual_mov_b32 v0, v1 :: v_add_f32 v3, v6, v7',
    'v_add_f32 v0, v1, v2 :: v_dual_mov_b32 v3, v6',
    'v_dual_dot2acc_f32_bf16 v0, v1, v2 :: v_dual_mov_b32 v3, v6',
    'v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, v2',
    'v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v0, v2',
    'v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v2, v6',
    'v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, v5',
    'v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, v1',
    'v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v1, v0',
    'v_dual_mov_b32 v0, v1 :: v_dual_add_f32 v3, v0, v0',
    'v_dual_add_f32 v0, v1, v2 :: v_dual_add_f32 v3, v0, v2',
    # several errors at once: which one is reported
    'v_dual_mov_b32 v0, 0x12345678 :: v_dual_mov_b32 v2, 0x12345679',
    'v_dual_add_f32 v0, 0x12345678, v2 :: v_dual_add_f32 v3, 0x12345679, v6',
    'v_dual_cndmask_b32 v0, 0x1234, v2 :: v_dual_mov_b32 v3, 0x5678',
    'v_dual_cndmask_b32 v0, s1, v2 :: v_dual_cndmask_b32 v2, s2, v6',
    'v_dual_add_f32 v0, v1, v2 :: v_dual_add_f32 v2, v5, v6',
    'v_dual_add_f32 v0, v1, v2 :: v_dual_add_f32 v3, v5, v6',
    # syntax
    'v_dual_mov_b32 v0,v1::v_dual_mov_b32 v3,v2',
    'v_dual_mov_b32   v0 ,  v1   ::   v_dual_mov_b32   v3 , v2',
    'v_dual_mov_b32\tv0, v1\t::\tv_dual_mov_b32\tv3, v2',
    'v_dual_mov_b32 v0, v1 ::v_dual_mov_b32 v3, v2',
    'v_dual_mov_b32 v0, v1:: v_dual_mov_b32 v3, v2',
    'v_dual_mov_b32 v0, v1 : : v_dual_mov_b32 v3, v2',
    'v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, v2 // comment',
    'v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, v2 ; comment',
    'v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, v2 :: v_dual_mov_b32 v5, v8',
    'v_dual_mov_b32 v0, v1 ::',
    'v_dual_mov_b32 v0, v1',
    'v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3',
    'v_dual_mov_b32 v0, v[1] :: v_dual_mov_b32 v[3:3], v2',
    'V_DUAL_MOV_B32 v0, v1 :: v_dual_mov_b32 v3, v2',
    'v_dual_mov_b32 v0, v1 :: V_DUAL_MOV_B32 v3, v2',
    'v_dual_mov_b32 V0, v1 :: v_dual_mov_b32 v3, v2',
    'v_dual_mov_b32_e32 v0, v1 :: v_dual_mov_b32 v3, v2',
    'v_dual_mov_b32 v0, v1 :: v_dual_mov_b32_e32 v3, v2',
    'v_dual_add_f32_e32 v0, v1, v2 :: v_dual_mov_b32 v3, v6',
    'v_dual_mov_b32_e64 v0, v1 :: v_dual_mov_b32 v3, v2',
    # operands
    'v_dual_cndmask_b32 v0, v1, v2, vcc_lo :: v_dual_mov_b32 v3, v6',
    'v_dual_cndmask_b32 v0, v1, v2, s0 :: v_dual_mov_b32 v3, v6',
    'v_dual_mov_b32 v0, v1 :: v_dual_cndmask_b32 v3, v2, v5, vcc_lo',
    'v_dual_cndmask_b32 v0, v1, v2 :: v_dual_cndmask_b32 v3, v2, v5',
    'v_dual_add_f32 v0, v1, s2 :: v_dual_mov_b32 v3, v6',
    'v_dual_add_f32 v0, v1, 1.0 :: v_dual_mov_b32 v3, v6',
    'v_dual_add_f32 v0, v1, 0x1234 :: v_dual_mov_b32 v3, v6',
    'v_dual_mov_b32 s0, v1 :: v_dual_mov_b32 v3, v6',
    'v_dual_mov_b32 v0, s[0:1] :: v_dual_mov_b32 v3, v6',
    'v_dual_mov_b32 v0, v[0:1] :: v_dual_mov_b32 v3, v6',
    'v_dual_mov_b32 v0, ttmp1 :: v_dual_mov_b32 v3, v6',
    'v_dual_mov_b32 v0, src_shared_base :: v_dual_mov_b32 v3, v6',
    'v_dual_mov_b32 v0, src_vccz :: v_dual_mov_b32 v3, v6',
    'v_dual_mov_b32 v0, src_scc :: v_dual_mov_b32 v3, v6',
    'v_dual_mov_b32 v0, lds_direct :: v_dual_mov_b32 v3, v6',
    'v_dual_mov_b32 v0, src_lds_direct :: v_dual_mov_b32 v3, v6',
    'v_dual_mov_b32 v0, -1 :: v_dual_mov_b32 v3, -16',
    'v_dual_mov_b32 v0, 64 :: v_dual_mov_b32 v3, 65',
    'v_dual_mov_b32 v0, -17 :: v_dual_mov_b32 v3, v6',
    'v_dual_mov_b32 v0, 1.5 :: v_dual_mov_b32 v3, v6',
    'v_dual_mov_b32 v0, 0.15915494 :: v_dual_mov_b32 v3, v6',
    'v_dual_mov_b32 v0, 0x3f800000 :: v_dual_mov_b32 v3, v6',
    'v_dual_mov_b32 v0, 0x3e22f983 :: v_dual_mov_b32 v3, v6',
    'v_dual_mov_b32 v0, 0x12345678 :: v_dual_mov_b32 v3, 0x12345678',
    'v_dual_mov_b32 v0, 0x12345678 :: v_dual_mov_b32 v3, 0x12345679',
    'v_dual_mov_b32 v0, 0x3f800000 :: v_dual_mov_b32 v3, 1.0',
    'v_dual_fmaak_f32 v0, v1, v2, 0x1234 :: v_dual_fmaak_f32 v3, v6, v7, 0x1234',
    'v_dual_fmaak_f32 v0, v1, v2, 0x1234 :: v_dual_fmaak_f32 v3, v6, v7, 0x1235',
    'v_dual_fmaak_f32 v0, v1, v2, 0x1234 :: v_dual_fmamk_f32 v3, v6, 0x1234, v7',
    'v_dual_fmaak_f32 v0, v1, v2, 0x1234 :: v_dual_mov_b32 v3, 0x1234',
    'v_dual_fmaak_f32 v0, v1, v2, 0x1234 :: v_dual_mov_b32 v3, 0x1235',
    'v_dual_fmaak_f32 v0, v1, v2, 0x1234 :: v_dual_mov_b32 v3, 1.0',
    'v_dual_fmaak_f32 v0, 0x1234, v2, 0x1234 :: v_dual_mov_b32 v3, v6',
    'v_dual_fmaak_f32 v0, 1.0, v2, 0x3f800000 :: v_dual_mov_b32 v3, v6',
    'v_dual_fmaak_f32 v0, v1, v2, 1.0 :: v_dual_mov_b32 v3, v6',
    'v_dual_fmaak_f32 v0, v1, v2, 1 :: v_dual_mov_b32 v3, v6',
    'v_dual_fmaak_f32 v0, v1, v2, -1 :: v_dual_mov_b32 v3, v6',
    'v_dual_fmaak_f32 v0, v1, v2, 0.15915494 :: v_dual_mov_b32 v3, v6',
    'v_dual_fmaak_f32 v0, v1, v2, 0x123456789 :: v_dual_mov_b32 v3, v6',
    'v_dual_fmaak_f32 v0, v1, v2, s3 :: v_dual_mov_b32 v3, v6',
    'v_dual_fmaak_f32 v0, v1, v2 :: v_dual_mov_b32 v3, v6',
    'v_dual_fmamk_f32 v0, v1, v2, v3 :: v_dual_mov_b32 v5, v6',
    'v_dual_dot2acc_f32_f16 v0, 0x3c00, v2 :: v_dual_mov_b32 v3, v6',
    'v_dual_dot2acc_f32_f16 v0, 0x3c003c00, v2 :: v_dual_mov_b32 v3, v6',
    'v_dual_dot2acc_f32_f16 v0, 1.0, v2 :: v_dual_mov_b32 v3, v6',
    'v_dual_mov_b32 v0, v1 :: v_dual_lshlrev_b32 v3, 0x1234, v6',
    'v_dual_mov_b32 v0, v1 :: v_dual_and_b32 v3, 1.0, v6',
    # modifiers
    'v_dual_add_f32 v0, -v1, v2 :: v_dual_mov_b32 v3, v6',
    'v_dual_add_f32 v0, |v1|, v2 :: v_dual_mov_b32 v3, v6',
    'v_dual_add_f32 v0, neg(v1), v2 :: v_dual_mov_b32 v3, v6',
    'v_dual_add_f32 v0, v1, v2 clamp :: v_dual_mov_b32 v3, v6',
    'v_dual_add_f32 v0, v1, v2 mul:2 :: v_dual_mov_b32 v3, v6',
    'v_dual_mov_b32 v0, v1 :: v_dual_add_f32 v3, v6, v7 clamp',
    'v_dual_mov_b32 v0, -1.0 :: v_dual_mov_b32 v3, v6',
    'v_dual_mov_b32 v0, -v1 :: v_dual_mov_b32 v3, v6',
]

def comp_text(name, d, s0, v1):
    """Assembler text of one component with VGPR numbers d, v1 and source s0 (text)."""
    if name.endswith('fmaak_f32'):
        return '%s v%d, %s, v%d, 0x1234' % (name, d, s0, v1)
    if name.endswith('fmamk_f32'):
        return '%s v%d, %s, 0x1234, v%d' % (name, d, s0, v1)
    if name.endswith('mov_b32'):
        return '%s v%d, %s' % (name, d, s0)
    return '%s v%d, %s, v%d' % (name, d, s0, v1)

def bank_slots(name, d, s0, v1):
    """The component's VGPR operands by LLVM's VOPD operand slot: src0, src1, src2 (fmac and
    dot2acc read their vdst as src2; fmamk's vsrc1 sits in src2 because K is its src1)."""
    sl = {}
    if s0.startswith('v'):
        sl['src0'] = int(s0[1:])
    if name.endswith('fmamk_f32'):
        sl['src2'] = v1
    elif not name.endswith('mov_b32'):
        sl['src1'] = v1
    if name.endswith('fmac_f32') or name.endswith('dot2acc_f32_f16'):
        sl['src2'] = d
    return sl

BANKS = {'src0': 4, 'src1': 4, 'src2': 2}

def bank_model(nx, ny):
    """Random VGPR operands for every (X, Y) pair, assembled; checked against the model
    'VGPRs in the same slot must differ mod 4 (src0, src1) or mod 2 (src2); the two vdst
    must differ mod 2'."""
    rng = random.Random(7)
    lines, keys = [], []
    for ox, xn in nx.items():
        for oy, yn in ny.items():
            for i in range(24):
                dx = rng.randint(0, 255)
                dy = rng.randint(0, 127) * 2 + (1 - (dx & 1) if rng.random() < 0.9 else dx & 1)
                s0x = 'v%d' % rng.randint(0, 255) if rng.random() < 0.9 else 's%d' % rng.randint(0, 20)
                s0y = 'v%d' % rng.randint(0, 255) if rng.random() < 0.9 else 's%d' % rng.randint(0, 20)
                if s0x[0] == 's' and s0y[0] == 's':
                    s0y = s0x
                v1x, v1y = rng.randint(0, 255), rng.randint(0, 255)
                lines.append(comp_text(xn, dx, s0x, v1x) + ' :: ' + comp_text(yn, dy, s0y, v1y))
                keys.append(((xn, dx, s0x, v1x), (yn, dy, s0y, v1y)))
    res = asm(lines)
    msg = {'src0': 'src0 operands must use different VGPR banks', 'src1': 'src1 operands must use different VGPR banks',
           'src2': 'src2 operands must use different VGPR banks', 'dst': 'one dst register must be even and the other odd',
           'cbus': 'invalid operand (violates constant bus restrictions)'}
    order = Counter()
    bad = []
    for (x, y), r, l in zip(keys, res, lines):
        fails = []
        # constant bus: distinct SGPRs + the literal K + vcc_lo for cndmask (at most 2)
        sg = {c[2] for c in (x, y) if c[2][0] == 's'}
        n = len(sg) + any(c[0].endswith(('fmaak_f32', 'fmamk_f32')) for c in (x, y)) + \
            any(c[0].endswith('cndmask_b32') for c in (x, y))
        if n > 2:
            fails.append('cbus')
        if (x[1] & 1) == (y[1] & 1):
            fails.append('dst')
        sx, sy = bank_slots(*x), bank_slots(*y)
        for k in ('src0', 'src1', 'src2'):
            if k in sx and k in sy and sx[k] % BANKS[k] == sy[k] % BANKS[k]:
                fails.append(k)
        got = r[1] if r[0] == 'ERR' else None
        if not fails and got is None:
            order['ok'] += 1
        elif fails and got in [msg[f] for f in fails]:
            order['%s -> %s' % ('+'.join(fails), [f for f in fails if msg[f] == got][0])] += 1
        else:
            bad.append((l, fails, got))
    return OrderedDict(lines=len(lines), outcomes=dict(order), mismatches=bad[:20], mismatch_count=len(bad))

def asm_rules(nx, ny):
    """Assembler checks on VOPD pairs: banks, parity, constant bus, literals, slots, syntax."""
    out = OrderedDict()
    out['bank_model'] = bank_model(nx, ny)
    # ---- VGPR banks: src0/src0, vsrc1/vsrc1, and cross pairs, registers 0..15 x 0..15
    regs = list(range(16)) + [200, 255]
    grids = OrderedDict()
    tmpl = {
        'src0x~src0y': ('v_dual_add_f32 v0, v{a}, v2 :: v_dual_add_f32 v1, v{b}, v7', lambda a, b: (a % 4) == (b % 4)),
        'vsrc1x~vsrc1y': ('v_dual_add_f32 v0, v1, v{a} :: v_dual_add_f32 v1, v2, v{b}', lambda a, b: (a % 4) == (b % 4)),
        'src0x~vsrc1y': ('v_dual_mov_b32 v0, v{a} :: v_dual_add_f32 v1, s7, v{b}', lambda a, b: False),
        'vsrc1x~src0y': ('v_dual_add_f32 v0, s4, v{a} :: v_dual_mov_b32 v1, v{b}', lambda a, b: False),
        'src0x~vdsty': ('v_dual_mov_b32 v0, v{a} :: v_dual_mov_b32 v{b}, s7', lambda a, b: False),
        'vdstx~src0y': ('v_dual_mov_b32 v{a}, s7 :: v_dual_mov_b32 v1, v{b}', lambda a, b: False),
        'fmamk vsrc1x~vsrc1y': ('v_dual_fmamk_f32 v0, v1, 0x1234, v{a} :: v_dual_fmamk_f32 v3, v2, 0x1234, v{b}', lambda a, b: (a % 2) == (b % 2)),
        'fmamk vsrc1x~add vsrc1y': ('v_dual_fmamk_f32 v0, v1, 0x1234, v{a} :: v_dual_add_f32 v3, v2, v{b}', lambda a, b: False),
        'fmac vdstx~fmamk vsrc1y': ('v_dual_fmac_f32 v{a}, v1, v2 :: v_dual_fmamk_f32 v3, v2, 0x1234, v{b}', lambda a, b: (a % 2) == (b % 2)),
        'fmac src0x~src0y': ('v_dual_fmac_f32 v0, v{a}, v4 :: v_dual_fmac_f32 v1, v{b}, v7', lambda a, b: (a % 4) == (b % 4)),
        'dot2acc vsrc1x~vsrc1y': ('v_dual_dot2acc_f32_f16 v0, v1, v{a} :: v_dual_dot2acc_f32_f16 v3, v2, v{b}', lambda a, b: (a % 4) == (b % 4)),
    }
    for lab, (t, rule) in tmpl.items():
        lines, keys = [], []
        for a in regs:
            for b in regs:
                if lab == 'src0x~vdsty' and (b % 2) == 0:
                    continue                        # vdstx is v0: vdsty must be odd
                if lab == 'vdstx~src0y' and (a % 2) == 1:
                    continue                        # vdsty is v1: vdstx must be even
                if lab == 'fmac vdstx~fmamk vsrc1y' and (a % 2) == 1:
                    continue                        # vdsty is v3: vdstx must be even
                lines.append(t.format(a=a, b=b)); keys.append((a, b))
        res = asm(lines)
        errs = Counter(r[1] for r in res if r[0] == 'ERR')
        mism = [(a, b, r[1] if r[0] == 'ERR' else 'ok') for (a, b), r in zip(keys, res) if (r[0] == 'ERR') != rule(a, b)]
        grids[lab] = OrderedDict(template=t, pairs=len(lines), errors=dict(errs),
                                 rule='error iff a%4 == b%4' if rule(1, 5) and not rule(1, 3) else
                                      ('error iff a%2 == b%2' if rule(1, 3) else 'never an error'),
                                 rule_mismatches=mism[:10])
    out['banks'] = grids
    # ---- constant bus: X src0 x Y src0 x (X, Y) component kinds
    xs = ['v1', 's1', 's2', 'vcc_lo', 'm0', 'exec_lo', '0x1234', '0x5678', '1.0']
    ys = ['v2', 's1', 's2', 'vcc_lo', '0x1234', '0x5678', '1.0']
    xk = [('mov', 'v_dual_mov_b32 v0, {s}'), ('cndmask', 'v_dual_cndmask_b32 v0, {s}, v4'),
          ('fmaak', 'v_dual_fmaak_f32 v0, {s}, v4, 0x1234')]
    yk = [('mov', 'v_dual_mov_b32 v3, {s}'), ('cndmask', 'v_dual_cndmask_b32 v3, {s}, v5'),
          ('fmamk', 'v_dual_fmamk_f32 v3, {s}, 0x1234, v5')]
    lines, keys = [], []
    for xn, xt in xk:
        for yn, yt in yk:
            for a in xs:
                for b in ys:
                    lines.append(xt.format(s=a) + ' :: ' + yt.format(s=b)); keys.append((xn, yn, a, b))
    res = asm(lines)

    def predict(xn, yn, a, b, vcc_separate):
        sg, lits = set(), set()
        for s in (a, b):
            if s.startswith('0x'):
                lits.add(int(s, 16))
            elif not re.fullmatch(r'v\d+|[\d.]+', s):
                sg.add(s)
        if xn == 'fmaak' or yn == 'fmamk':
            lits.add(0x1234)
        if len(lits) > 1:
            return 'only one unique literal operand is allowed'
        n = len(sg) + len(lits)
        if 'cndmask' in (xn, yn):
            if vcc_separate:
                n += 1
            elif 'vcc_lo' not in sg:
                n += 1
        return 'invalid operand (violates constant bus restrictions)' if n > 2 else 'ok'
    cb = []
    fit = Counter()
    for k, r in zip(keys, res):
        got = r[1] if r[0] == 'ERR' else 'ok'
        cb.append((k, got))
        for vs in (False, True):
            if predict(*k, vs) == got:
                fit[vs] += 1
    out['constant_bus'] = OrderedDict(
        lines=len(lines), errors=dict(Counter(g for _, g in cb if g != 'ok')),
        rule_fits={'vcc read by cndmask counted once with an explicit vcc_lo': fit[False],
                   'implicit vcc of cndmask counted apart from an explicit vcc_lo source': fit[True]},
        mismatches_of_best_rule=[(' :: '.join(k[2:]), k[0], k[1], g) for k, g in cb
                                 if predict(*k, fit[True] >= fit[False]) != g][:20],
        samples=[(lines[i], cb[i][1]) for i in range(0, len(lines), 23)])
    # ---- slots, modifiers, syntax; every line is reported as it assembles
    res = asm(MISC_ASM)
    out['misc'] = [(l, asm_desc(r) if r[0] == 'ERR' else '%s [%s]' % (r[1], hexb(r[0]))) for l, r in zip(MISC_ASM, res)]
    res64 = asm(['v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, v2',
                 'v_dual_cndmask_b32 v0, v1, v2 :: v_dual_mov_b32 v3, v6',
                 'v_dual_cndmask_b32 v0, v1, v2, vcc :: v_dual_mov_b32 v3, v6'], W64)
    out['wave64_asm'] = [asm_desc(r) for r in res64]
    return out

# ---------------------------------------------------------------- main survey

def survey():
    t0 = time.time()
    doc = OrderedDict()
    ver = subprocess.run(['llvm-mc-19', '--version'], capture_output=True, text=True).stdout
    doc['llvm_mc'] = next((l.strip() for l in ver.split('\n') if 'LLVM version' in l), ver.strip())
    doc['command'] = ' '.join(MC)
    pairs, nscan = opcode_scan()
    xs = sorted({k[0] for k in pairs})
    ys = sorted({k[1] for k in pairs})
    names_x, names_y, tmpl_x, tmpl_y = {}, {}, {}, {}
    for (opx, opy), (kw, lit, t) in pairs.items():
        p = split_pair(t)
        names_x.setdefault(opx, set()).add(p[0][0])
        names_y.setdefault(opy, set()).add(p[1][0])
    MOV = 8
    for opx in xs:
        tmpl_x[opx] = pairs[(opx, MOV)]
    for opy in ys:
        tmpl_y[opy] = pairs[(MOV, opy)]
    nx = {k: sorted(v)[0] for k, v in names_x.items()}
    ny = {k: sorted(v)[0] for k, v in names_y.items()}
    doc['opcode_scan'] = OrderedDict(
        probes=nscan, decodable_pairs=len(pairs), opx_decoding=xs, opy_decoding=ys,
        every_x_with_every_y=len(pairs) == len(xs) * len(ys),
        names_consistent=all(len(v) == 1 for v in list(names_x.values()) + list(names_y.values())),
        note='the decoder accepts every X opcode with every Y opcode, the same opcode twice included')
    # ---- layout
    doc['layout'] = layout(nx, ny)
    doc['vdsty'] = vdsty_check()
    # ---- unused fields: vsrc1 of mov; source/dst values in the remaining fields
    un_probes, un_keys = [], []
    for side in 'xy':
        for v in (1, 5, 128, 255):
            kw = dict(T, vsrc1x=0, vsrc1y=0)
            kw['vsrc1' + side] = v
            un_probes.append(vopd(MOV, MOV, **kw)); un_keys.append('mov %s vsrc1%s=%d' % (side.upper(), side, v))
    un = dis(un_probes)
    doc['unused_fields'] = OrderedDict((k, t if t else 'invalid') for k, t in zip(un_keys, un))
    # ---- per-opcode records
    e32 = e32_map()
    comps = [('x', op, nx[op], tmpl_x[op][0], tmpl_x[op][1] is not None and '0x12345678' in split_pair(tmpl_x[op][2])[0][1]) for op in xs]
    comps += [('y', op, ny[op], tmpl_y[op][0], tmpl_y[op][1] is not None and '0x12345678' in split_pair(tmpl_y[op][2])[1][1]) for op in ys]
    sres, eres = sources(comps, e32)
    # vsrc1 values
    v1_probes, v1_keys = [], []
    for side, op, name, kw, lit_needed in comps:
        for v in (0, 1, 5, 127, 128, 255):
            k = dict(kw); k['vsrc1' + side] = v
            lit = 0x12345678 if lit_needed else None
            v1_probes.append(vopd(op, MOV, lit=lit, **k) if side == 'x' else vopd(MOV, op, lit=lit, **k))
            v1_keys.append((side, op, v))
    v1res = dict(zip(v1_keys, dis(v1_probes)))
    # K printing for fmaak/fmamk against e32 v_fmaak/fmamk_f32
    k_probes, k_keys = [], []
    for side, op, name, kw, lit_needed in comps:
        if not lit_needed:
            continue
        stem = 'v_' + name[len('v_dual_'):]
        ek = e32.get(stem)
        for lit in LITS:
            k_probes.append(vopd(op, MOV, lit=lit, **kw) if side == 'x' else vopd(MOV, op, lit=lit, **kw))
            k_keys.append((side, op, lit, 'vopd'))
            k_probes.append(e32_word(ek[0], ek[1], V + 10, lit=lit)); k_keys.append((side, op, lit, 'e32'))
    kres = dict(zip(k_keys, dis(k_probes)))
    recs = OrderedDict()
    rt_lines, rt_keys = [], []
    for side, op, name, kw, lit_needed in comps:
        tm = tmpl_x[op] if side == 'x' else tmpl_y[op]
        kw, lit, text = tm
        p = split_pair(text)[0 if side == 'x' else 1]
        r = OrderedDict()
        r['slot'] = side.upper()
        r['op'] = op
        r['name'] = name
        stem = 'v_' + name[len('v_dual_'):]
        ek = e32.get(stem)
        r['e32'] = {'format': ek[0], 'opcode': ek[1], 'name': stem} if ek else None
        r['example'] = text
        b = vopd(op, MOV, lit=lit, **kw) if side == 'x' else vopd(MOV, op, lit=lit, **kw)
        r['example_bytes'] = hexb(b)
        rt_lines.append(text); rt_keys.append((side, op, b))
        ops = component_operands(p[1], side)
        for o in ops:
            f = o['field']
            if f.startswith('src0'):
                codes = set()
                for code in list(range(256)) + [V, V + 1, V + 255]:
                    for lit2 in (LITS if code == LIT else ([0x12345678] if lit_needed else [None])):
                        if sres.get((side, op, code, lit2)):
                            codes.add(code if code < V else V)
                codes |= set(range(V, 2 * V)) if V in codes else set()
                o['kind'] = 'src (VGPR, SGPR, constant or literal)' if 0 in codes and LIT in codes else 'vgpr'
                o['accepts'] = classes_of(codes)
                # printed src0 vs e32 src0
                same, diff, dec_diff = 0, [], []
                for code in list(range(256)) + [V, V + 255]:
                    for lit2 in (LITS if code == LIT else ([0x12345678] if lit_needed else [None])):
                        a = sres.get((side, op, code, lit2))
                        e = eres.get((side, op, code, lit2))
                        if (a is None) != (e is None):
                            dec_diff.append((src_name(code, lit2), a, e))
                        elif a is not None:
                            ta, te = src0_token(a, side), e32_src0_token(e)
                            if ta == te:
                                same += 1
                            else:
                                diff.append((src_name(code, lit2), ta, te))
                pr = lambda lit2: src0_token(sres[(side, op, LIT, lit2)], side)
                o['type'] = ('PackedF16' if pr(0x3c00) == '1.0' and pr(0x3f800000) == '0x3f800000' else
                             'B32' if pr(0x3c00) == '0x3c00' and pr(0x3f800000) == '1.0' and pr(0x12345678) == '0x12345678' else '?')
                o['e32_table_type'] = table_type(stem)
                o['same_text_as_e32'] = same
                o['differs_from_e32'] = diff
                o['decodes_where_e32_does_not_or_vice_versa'] = dec_diff
                o['printed'] = OrderedDict()
                for code, lab in ((V + 255, 'v255'), (5, 's5'), (106, 'vcc_lo'), (124, 'null'), (125, 'm0'),
                                  (126, 'exec_lo'), (128, '0'), (193, '-1'), (208, '-16'), (240, '0.5'),
                                  (242, '1.0'), (248, '1/(2pi)'), (235, 'src_shared_base'), (253, 'scc'),
                                  (254, 'lds_direct'), (209, 'code 209'), (249, 'code 249'), (251, 'vccz')):
                    lit2 = 0x12345678 if lit_needed else None
                    t = sres.get((side, op, code, lit2))
                    o['printed'][lab] = src0_token(t, side) if t else 'invalid'
                for lit2 in LITS:
                    t = sres.get((side, op, LIT, lit2))
                    o['printed']['literal 0x%08x' % lit2] = src0_token(t, side) if t else 'invalid'
            elif f.startswith('vsrc1'):
                o['kind'] = 'vgpr (8-bit VGPR number)'
                o['printed'] = OrderedDict()
                for v in (0, 1, 5, 127, 128, 255):
                    t = v1res.get((side, op, v))
                    if t:
                        toks = split_pair(t)[0 if side == 'x' else 1][1]
                        idx = [x['field'] for x in ops].index(f)
                        o['printed'][str(v)] = toks[idx]
                    else:
                        o['printed'][str(v)] = 'invalid'
            elif f.startswith('vdst'):
                o['kind'] = 'vgpr (vdstx: 8-bit number; vdsty: see "vdsty")'
            elif f == 'literal':
                o['kind'] = 'literal K (the dword after the 64-bit word), always printed in hex'
                o['printed'] = OrderedDict()
                for lit2 in LITS:
                    t = kres.get((side, op, lit2, 'vopd'))
                    e = kres.get((side, op, lit2, 'e32'))
                    kt = split_pair(t)[0 if side == 'x' else 1][1][[x['field'] for x in ops].index('literal')] if t else 'invalid'
                    et = [x for x in e.split(None, 1)[1].split(', ')][2 if 'fmamk' in name else 3] if e else 'invalid'
                    o['printed']['0x%08x' % lit2] = kt if kt == et else '%s (e32: %s)' % (kt, et)
        r['operands'] = ops
        if name == 'v_dual_cndmask_b32':
            r['implicit'] = 'reads vcc_lo as the lane mask; not printed, and the assembler rejects it written out'
        r['unused'] = [f for f in ('vsrc1' + side,) if f not in [o['field'] for o in ops]]
        recs[(side, op)] = r
    rt = asm(rt_lines)
    for (side, op, b), x in zip(rt_keys, rt):
        recs[(side, op)]['example_roundtrip'] = asm_desc(x, b)
    doc['opx'] = [recs[('x', op)] if ('x', op) in recs else OrderedDict(op=op, decodes=False) for op in range(16)]
    doc['opy'] = [recs[('y', op)] if ('y', op) in recs else OrderedDict(op=op, decodes=False) for op in range(32)]
    for lst in (doc['opx'], doc['opy']):
        for r in lst:
            if 'name' in r:
                r['decodes'] = True
                r.move_to_end('decodes', last=False)
    doc['opx_names'] = {op: nx[op] for op in xs}
    doc['opy_names'] = {op: ny[op] for op in ys}
    # ---- src0 printing when the other component has a K literal (fmaak/fmamk): the source
    # type of v_dual_dot2acc_f32_f16 changes; compare every comp's src0 against the mov-partner run
    kp, kk = [], []
    for side, op, name, kw, lit_needed in comps:
        for pop in (1, 2):                       # partner fmaak, fmamk
            for code in list(range(128, 256)):
                for lit2 in (LITS if code == LIT else [0x12345678]):
                    k = dict(kw)
                    k['src0' + side] = code
                    if side == 'x':
                        k['vsrc1y'] = 7              # bank 3, odd: no conflict with v20 / vdstx v30
                    else:
                        k['vsrc1x'] = 6              # bank 2, even: no conflict with v51 / vdsty v61
                    kp.append(vopd(op, pop, lit=lit2, **k) if side == 'x' else vopd(pop, op, lit=lit2, **k))
                    kk.append((side, op, name, pop, code, lit2))
    kr = dis(kp)
    diffs, same, rt_in, rt_b = [], 0, [], []
    for key, t, b in zip(kk, kr, kp):
        side, op, name, pop, code, lit2 = key
        base = sres.get((side, op, code, lit2 if (code == LIT or (side, op) in [(c[0], c[1]) for c in comps if c[4]]) else None))
        if t is None and base is None:
            continue
        a = src0_token(t, side) if t else 'invalid'
        b0 = src0_token(base, side) if base else 'invalid'
        if a == b0:
            same += 1
        else:
            diffs.append(OrderedDict(component='%s (%s)' % (name, side.upper()), partner=('v_dual_fmaak_f32', 'v_dual_fmamk_f32')[pop - 1],
                                     src0=src_name(code, lit2), printed=a, printed_with_mov_partner=b0, bytes=hexb(b), text=t))
            rt_in.append(t); rt_b.append(b)
    for d, r in zip([d for d in diffs], asm(rt_in)):
        d['asm'] = asm_desc(r, [int(x, 16) for x in d['bytes'].split(',')])
    doc['src0_with_k_partner'] = OrderedDict(
        note='src0 codes 128-255 (constants, literal values) of every component, partnered with fmaak/fmamk, '
             'against the same source partnered with v_dual_mov_b32',
        same=same, differences=diffs)
    # ---- decoder: what it does not check
    dec = OrderedDict()
    probes = OrderedDict([
        ('src0 same bank (v1, v5)', vopd(4, 4, V + 1, 2, V + 5, 7, 0, 0)),
        ('src0 same VGPR (v1, v1)', vopd(4, 4, V + 1, 2, V + 1, 7, 0, 0)),
        ('vsrc1 same bank (v2, v6)', vopd(4, 4, V + 1, 2, V + 2, 6, 0, 0)),
        ('cndmask s1 :: mov s2 (3 scalar values with vcc_lo)', vopd(9, 8, 1, 2, 2, 0, 0, 1)),
        ('mov s1 :: mov s2', vopd(8, 8, 1, 0, 2, 0, 0, 1)),
        ('mov s1 :: fmamk s2, K (2 SGPRs + literal)', vopd(8, 2, 1, 0, 2, 7, 0, 1, lit=0x1234)),
        ('both src0 literal', vopd(8, 8, 255, 0, 255, 0, 0, 1, lit=0x12345678)),
        ('fmaak with src0 literal (K and src0 share the dword)', vopd(1, 8, 255, 2, V + 2, 0, 0, 1, lit=0x12345678)),
        ('fmaak with src0 literal 0x3f800000', vopd(1, 8, 255, 2, V + 2, 0, 0, 1, lit=0x3f800000)),
        ('mov literal 0x3f800000 (an inline value)', vopd(8, 8, 255, 0, V + 2, 0, 0, 1, lit=0x3f800000)),
        ('X dst read by Y (mov v0, v1 :: mov v1, v0)', vopd(8, 8, V + 1, 0, V + 0, 0, 0, 0)),
        ('fmac with src0 lds_direct', vopd(0, 8, 254, 2, V + 2, 0, 0, 1)),
    ])
    res = dis_full(list(probes.values()))
    lines, keys = [], []
    for (lab, b), r in zip(probes.items(), res):
        dec[lab] = OrderedDict(bytes=hexb(b), text=r[0] if r else 'invalid')
        if r:
            lines.append(r[0]); keys.append(lab)
    for lab, x in zip(keys, asm(lines)):
        dec[lab]['asm'] = asm_desc(x, [int(v, 16) for v in dec[lab]['bytes'].split(',')])
    doc['decoder_checks'] = dec
    # ---- wave64
    w64 = dis([vopd(ox, oy, lit=lit, **kw) for (ox, oy), (kw, lit, t) in pairs.items()], W64)
    doc['wave64'] = OrderedDict(
        decoding_pairs=sum(t is not None for t in w64), of=len(pairs),
        example=hexb(vopd(8, 8, **dict(T, vsrc1x=0, vsrc1y=0))) + ' -> ' + str(w64[list(pairs).index((8, 8))] or 'invalid instruction encoding'))
    # ---- assembler
    doc['assembler'] = asm_rules(nx, ny)
    # ---- round trip over all decodable template pairs
    lines, bs = [], []
    for (ox, oy), (kw, lit, t) in pairs.items():
        lines.append(t); bs.append(vopd(ox, oy, lit=lit, **kw))
    rt = asm(lines)
    c = Counter()
    for b, x in zip(bs, rt):
        d = asm_desc(x, b)
        c['same' if d == 'same' else ('error: ' + x[1] if x[0] == 'ERR' else 'different bytes')] += 1
    doc['template_pairs_roundtrip'] = dict(c)
    doc['runtime_s'] = round(time.time() - t0, 1)
    return doc

# ---------------------------------------------------------------- golden

def golden():
    rng = random.Random(20240607)
    pairs, _ = opcode_scan()
    xs = sorted({k[0] for k in pairs})
    ys = sorted({k[1] for k in pairs})
    names = {}
    for (ox, oy), (kw, lit, t) in pairs.items():
        p = split_pair(t)
        names[('x', ox)], names[('y', oy)] = p[0][0], p[1][0]
    uses_v1 = {k: not n.endswith('mov_b32') for k, n in names.items()}
    uses_k = {k: ('fmaak' in n or 'fmamk' in n) for k, n in names.items()}
    words = []          # (bytes, note)

    def rsrc():
        r = rng.random()
        if r < 0.45:
            return V + rng.choice([0, 255, 1, rng.randint(0, 255), rng.randint(0, 255)])
        if r < 0.6:
            return rng.choice([rng.randint(0, 105), 0, 105, 106, 107, rng.randint(108, 123), 124, 125, 126, 127])
        if r < 0.72:
            return rng.choice([128, 192, 193, 208, rng.randint(129, 208)])
        if r < 0.8:
            return rng.randint(240, 248)
        if r < 0.84:
            return rng.choice([235, 236, 237, 238, 239, 253, 254])
        return LIT

    def rlit():
        return rng.choice([0x12345678, 0x3f800000, 0x3e22f983, 0xbf800000, 0x3c00, 0x3c003c00, 0,
                           1, 64, 65, 0xffffffff, 0xfffffff0, 0xffffffef, 0x80000000,
                           rng.getrandbits(32), rng.getrandbits(32)])

    def gen(ox, oy, valid_banks):
        f = {}
        for side, op in (('x', ox), ('y', oy)):
            f['src0' + side] = rsrc()
            f['vsrc1' + side] = rng.randint(0, 255) if uses_v1[(side, op)] else 0
        if valid_banks:
            # keep VGPR sources in different banks, as the assembler wants
            if f['src0x'] >= V and f['src0y'] >= V and f['src0x'] % 4 == f['src0y'] % 4:
                f['src0y'] = V + ((f['src0y'] - V) ^ 1)
            if uses_v1[('x', ox)] and uses_v1[('y', oy)] and f['vsrc1x'] % 4 == f['vsrc1y'] % 4:
                f['vsrc1y'] ^= 2
        f['vdstx'] = rng.choice([0, 255, rng.randint(0, 255), rng.randint(0, 255)])
        f['vdsty'] = rng.choice([0, 127, rng.randint(0, 127), rng.randint(0, 127)])
        lit = None
        if LIT in (f['src0x'], f['src0y']) or uses_k[('x', ox)] or uses_k[('y', oy)]:
            lit = rlit()
        return vopd(ox, oy, lit=lit, **f)

    # every pair: one word with VGPR-only operands in valid banks, three random ones
    for ox in xs:
        for oy in ys:
            kw = dict(src0x=V + rng.randint(0, 255), src0y=0, vdstx=rng.randint(0, 255), vdsty=rng.randint(0, 127))
            kw['src0y'] = V + ((kw['src0x'] - V + rng.randint(1, 3)) % 256)
            kw['vsrc1x'] = rng.randint(0, 255) if uses_v1[('x', ox)] else 0
            kw['vsrc1y'] = ((kw['vsrc1x'] + rng.randint(1, 3)) % 256) if uses_v1[('y', oy)] else 0
            lit = rlit() if uses_k[('x', ox)] or uses_k[('y', oy)] else None
            words.append(vopd(ox, oy, lit=lit, **kw))
            for i in range(3):
                words.append(gen(ox, oy, i < 2))
    # edge and invalid words
    for ox in range(16):
        for oy in range(32):
            if (ox, oy) in pairs:
                continue
            if ox in xs or oy in ys or rng.random() < 0.15:
                words.append(vopd(ox, oy, V + 1, 2, V + 2, 3, 4, 5))
    for side in 'xy':
        for v in (1, 2, 77, 128, 255):
            kw = dict(src0x=V + 1, src0y=V + 2, vdstx=4, vdsty=5)
            kw['vsrc1' + side] = v
            words.append(vopd(8, 8, **kw))
            other = rng.choice([o for o in (xs if side == 'y' else ys) if o != 8])
            words.append(vopd(8, other, **kw) if side == 'x' else vopd(other, 8, **kw))
    for code in list(range(209, 235)) + [249, 250, 251, 252, 253, 254, 235, 236, 237, 238, 239]:
        ox, oy = rng.choice(xs), rng.choice(ys)
        lit = 0x1234 if uses_k[('x', ox)] or uses_k[('y', oy)] else None
        if rng.random() < 0.5:
            words.append(vopd(ox, oy, code, 3 if uses_v1[('x', ox)] else 0, V + 2, 5 if uses_v1[('y', oy)] else 0, 8, 9, lit=lit))
        else:
            words.append(vopd(ox, oy, V + 1, 3 if uses_v1[('x', ox)] else 0, code, 5 if uses_v1[('y', oy)] else 0, 8, 9, lit=lit))
    # literals: missing, unused, shared, inline-valued
    for i in range(20):
        ox, oy = rng.choice(xs), rng.choice(ys)
        f = dict(src0x=rng.choice([LIT, V + 1]), vsrc1x=3 if uses_v1[('x', ox)] else 0,
                 src0y=rng.choice([LIT, V + 2]), vsrc1y=5 if uses_v1[('y', oy)] else 0, vdstx=i, vdsty=i)
        needs = LIT in (f['src0x'], f['src0y']) or uses_k[('x', ox)] or uses_k[('y', oy)]
        words.append(vopd(ox, oy, **f) if needs else vopd(ox, oy, lit=0x12345678, **f))   # missing / extra
    for lit in (0x3f800000, 0xbf800000, 0x3e22f983, 0, 64, 0xfffffff0, 0x40800000, 0x3800, 0x3c00, 0x3118,
                0x00000041, 0xffffffef, 0x3c003c00):
        for ox, oy, f in ((8, 8, dict(src0x=LIT, src0y=V + 2)), (12, 8, dict(src0x=LIT, vsrc1x=3, src0y=V + 2)),
                          (1, 8, dict(src0x=V + 1, vsrc1x=3, src0y=LIT)), (1, 2, dict(src0x=LIT, vsrc1x=3, src0y=V + 2, vsrc1y=6)),
                          (8, 16, dict(src0x=V + 1, src0y=LIT, vsrc1y=6))):
            words.append(vopd(ox, oy, lit=lit, vdstx=6, vdsty=3, **f))
    # v_dual_dot2acc_f32_f16 src0 literal next to a K (fmaak/fmamk): printed with B32 rules
    for lit in (0x3c00, 0x3f800000, 0x3118, 0x12345678, 0xbc00, 0x3e22f983):
        words.append(vopd(12, 1, LIT, 3, V + 2, 6, 6, 3, lit=lit))
        words.append(vopd(2, 12, V + 1, 4, LIT, 6, 6, 3, lit=lit))
        words.append(vopd(12, 8, LIT, 3, V + 2, 0, 6, 3, lit=lit))
    # register edges: vdstx/vdsty extremes, bank conflicts, scalar operands
    for vx, vy in ((0, 0), (0, 127), (1, 0), (1, 127), (254, 127), (255, 127), (255, 0), (128, 64)):
        words.append(vopd(4, 3, V + 0, 0, V + 1, 1, vx, vy))
    for a, b in ((1, 5), (0, 0), (255, 3), (2, 6), (7, 7)):
        words.append(vopd(3, 4, V + a, a, V + b, b, 10, 10))
    for sx, sy in ((1, 2), (1, 1), (106, 5), (106, 106), (125, 126), (124, 124), (107, 1)):
        words.append(vopd(9, 9, sx, 2, sy, 3, 0, 0))
        words.append(vopd(8, 2, sx, 0, sy, 3, 0, 0, lit=0x4000))
    # other encodings around the prefix (bits 26-31)
    for bit in range(26, 32):
        b = vopd(8, 8, V + 1, 0, V + 2, 0, 4, 5)
        b[3] ^= 1 << (bit - 24)
        words.append(b)
    res = dis(words)
    rt_lines, rt_idx = [], []
    for i, t in enumerate(res):
        if t is not None:
            rt_lines.append(t); rt_idx.append(i)
    rt = dict(zip(rt_idx, asm(rt_lines)))
    out = ['# Generated by tools/survey_vopd.py --golden from llvm-mc-19 -mcpu=gfx1100 --disassemble (wave32). BYTES<TAB>TEXT',
           '# TEXT is <invalid> unless llvm-mc decodes exactly these bytes as one instruction (an unused trailing',
           '# literal or a missing one counts as invalid). A "# asm:" line after an entry says what assembling',
           '# TEXT gives when it is not the same bytes: an error, or other bytes.']
    stats = Counter()
    for i, (w, t) in enumerate(zip(words, res)):
        out.append('%s\t%s' % (hexb(w), t if t is not None else '<invalid>'))
        if t is None:
            stats['invalid'] += 1
            continue
        r = rt[i]
        if r[0] == 'ERR':
            out.append('# asm: error: %s' % r[1]); stats['asm error'] += 1
        elif list(r[0]) != list(w):
            out.append('# asm: %s' % hexb(r[0])); stats['asm other bytes'] += 1
        else:
            stats['round trip'] += 1
    covered = set()
    for w, t in zip(words, res):
        if t is not None and ' :: ' in t:
            covered.add((((w[3] & 3) << 2) | (w[2] >> 6), (w[2] >> 1) & 0x1f))
    out.append('# %d words: %d round trip, %d decode but assemble to other bytes, %d decode but do not assemble, '
               '%d invalid; %d of %d decodable (opx, opy) pairs covered' % (
                   len(words), stats['round trip'], stats['asm other bytes'], stats['asm error'], stats['invalid'],
                   len(covered & set(pairs)), len(pairs)))
    return '\n'.join(out) + '\n'

# ---------------------------------------------------------------- examples for the notes

EX_WORDS = [
    ('layout base A', vopd(4, 3, **T)),
    ('layout base A, bit 56 flipped', vopd(4, 3, **dict(T, vdstx=T['vdstx'] ^ 1))),
    ('mov::mov', vopd(8, 8, V + 1, 0, V + 2, 0, 0, 1)),
    ('add::mul', vopd(4, 3, V + 1, 2, V + 4, 5, 0, 1)),
    ('fmaak', vopd(1, 8, V + 1, 2, V + 4, 0, 0, 1, lit=0x12345678)),
    ('fmamk Y', vopd(8, 2, V + 1, 0, V + 4, 5, 0, 1, lit=0x12345678)),
    ('fmaak missing literal', vopd(1, 8, V + 1, 2, V + 4, 0, 0, 1)),
    ('mov with unused literal', vopd(8, 8, V + 1, 0, V + 2, 0, 0, 1, lit=0x12345678)),
    ('cndmask X', vopd(9, 8, V + 1, 2, V + 4, 0, 0, 1)),
    ('cndmask Y', vopd(8, 9, V + 1, 0, V + 4, 5, 0, 1)),
    ('vdstx odd', vopd(8, 8, V + 1, 0, V + 2, 0, 1, 1)),
    ('vdstx 255 vdsty 127', vopd(8, 8, V + 1, 0, V + 2, 0, 255, 127)),
    ('vdstx 254 vdsty 127', vopd(8, 8, V + 1, 0, V + 2, 0, 254, 127)),
    ('opx 13', vopd(13, 8, V + 1, 2, V + 2, 0, 0, 1)),
    ('opy 13', vopd(8, 13, V + 1, 0, V + 2, 3, 0, 1)),
    ('opy 16', vopd(8, 16, V + 1, 0, V + 2, 3, 0, 1)),
    ('opy 17', vopd(8, 17, V + 1, 0, V + 2, 3, 0, 1)),
    ('opy 18', vopd(8, 18, V + 1, 0, V + 2, 3, 0, 1)),
    ('opy 19', vopd(8, 19, V + 1, 0, V + 2, 3, 0, 1)),
    ('mov X vsrc1 != 0', vopd(8, 8, V + 1, 5, V + 2, 0, 0, 1)),
    ('mov Y vsrc1 != 0', vopd(8, 8, V + 1, 0, V + 2, 5, 0, 1)),
    ('src0 sgpr/const', vopd(4, 4, 5, 2, 242, 3, 0, 1)),
    ('both literal', vopd(8, 8, LIT, 0, LIT, 0, 0, 1, lit=0x12345678)),
    ('literal = 1.0', vopd(8, 8, LIT, 0, V + 2, 0, 0, 1, lit=0x3f800000)),
    ('fmaak src0 literal shared', vopd(1, 8, LIT, 2, V + 2, 0, 0, 1, lit=0x12345678)),
    ('fmaak src0 literal shared 1.0', vopd(1, 8, LIT, 2, V + 2, 0, 0, 1, lit=0x3f800000)),
    ('fmaak K=1', vopd(1, 8, V + 1, 2, V + 2, 0, 0, 1, lit=1)),
    ('dot2acc literal 0x3c00', vopd(12, 8, LIT, 2, V + 2, 0, 0, 1, lit=0x3c00)),
    ('dot2acc literal 0x3c003c00', vopd(12, 8, LIT, 2, V + 2, 0, 0, 1, lit=0x3c003c00)),
    ('dot2acc 1.0', vopd(12, 8, 242, 2, V + 2, 0, 0, 1)),
    ('add literal 0x3c00', vopd(4, 8, LIT, 2, V + 2, 0, 0, 1, lit=0x3c00)),
    ('lshlrev literal 64', vopd(8, 17, V + 1, 0, LIT, 3, 0, 1, lit=64)),
    ('mov 1/(2pi)', vopd(8, 8, 248, 0, V + 2, 0, 0, 1)),
    ('lds_direct', vopd(8, 8, 254, 0, V + 2, 0, 0, 1)),
    ('src0 code 209', vopd(8, 8, 209, 0, V + 2, 0, 0, 1)),
    ('src0 vccz', vopd(8, 8, 251, 0, V + 2, 0, 0, 1)),
    ('src0 scc', vopd(8, 8, 253, 0, V + 2, 0, 0, 1)),
    ('bank conflict src0', vopd(4, 4, V + 1, 2, V + 5, 7, 0, 0)),
    ('bank conflict vsrc1', vopd(4, 4, V + 1, 2, V + 2, 6, 0, 0)),
    ('cndmask s1 :: mov s2', vopd(9, 8, 1, 2, 2, 0, 0, 1)),
    ('cndmask vcc_lo :: mov s1', vopd(9, 8, 106, 2, 1, 0, 0, 1)),
    ('prefix bit 26', vopd(8, 8, V + 1, 0, V + 2, 0, 0, 1, prefix=PREFIX ^ 1)),
    ('fmaak K shared with a Y src0 literal, dot2acc type', vopd(1, 12, V + 1, 2, LIT, 3, 0, 1, lit=0x3c00)),
    ('both src0 literal, B32 and PackedF16', vopd(8, 12, LIT, 0, LIT, 3, 0, 1, lit=0x3c00)),
    ('dot2acc literal 0x3f800000 with a fmamk partner', vopd(2, 12, V + 1, 4, LIT, 6, 0, 1, lit=0x3f800000)),
    ('dot2acc literal 0x3f800000 with a mov partner', vopd(8, 12, V + 1, 0, LIT, 6, 0, 1, lit=0x3f800000)),
    ('pops_exiting_wave_id', vopd(8, 8, 239, 0, V + 2, 0, 0, 1)),
    ('vsrc1 v255 and src0 v255', vopd(4, 4, V + 255, 255, V + 0, 0, 0, 1)),
]

EX_ASM = [
    'v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v2, v6',
    'v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, v5',
    'v_dual_add_f32 v0, v1, v2 :: v_dual_add_f32 v3, v4, v6',
    'v_dual_fmamk_f32 v0, v1, 0x1234, v4 :: v_dual_fmamk_f32 v3, v2, 0x1234, v6',
    'v_dual_fmamk_f32 v0, v1, 0x1234, v4 :: v_dual_fmamk_f32 v3, v2, 0x1234, v7',
    'v_dual_fmac_f32 v0, v1, v2 :: v_dual_fmamk_f32 v3, v6, 0x1234, v4',
    'v_dual_fmamk_f32 v0, v1, 0x1234, v4 :: v_dual_add_f32 v3, v2, v4',
    'v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v1, v0',
    'v_dual_mov_b32 v0, s1 :: v_dual_mov_b32 v3, s2',
    'v_dual_mov_b32 v0, s1 :: v_dual_mov_b32 v3, 0x1234',
    'v_dual_mov_b32 v0, s1 :: v_dual_fmamk_f32 v3, s2, 0x1234, v5',
    'v_dual_cndmask_b32 v0, s1, v2 :: v_dual_mov_b32 v3, s1',
    'v_dual_cndmask_b32 v0, s1, v2 :: v_dual_mov_b32 v3, s2',
    'v_dual_cndmask_b32 v0, vcc_lo, v2 :: v_dual_mov_b32 v3, v5',
    'v_dual_cndmask_b32 v0, vcc_lo, v2 :: v_dual_mov_b32 v3, s1',
    'v_dual_cndmask_b32 v0, 0x1234, v2 :: v_dual_mov_b32 v3, v5',
    'v_dual_cndmask_b32 v0, v1, v2, vcc_lo :: v_dual_mov_b32 v3, v6',
    'v_dual_mov_b32 v0, 0x12345678 :: v_dual_mov_b32 v3, 0x12345679',
    'v_dual_fmaak_f32 v0, v1, v2, 0x1234 :: v_dual_fmaak_f32 v3, v6, v7, 0x1235',
    'v_dual_fmaak_f32 v0, v1, v2, 0x1234 :: v_dual_mov_b32 v3, 0x1234',
    'v_dual_fmaak_f32 v0, v1, v2, 1.0 :: v_dual_mov_b32 v3, v6',
    'v_dual_fmaak_f32 v0, v1, v2, -1 :: v_dual_mov_b32 v3, v6',
    'v_dual_mov_b32 v0, 0x3f800000 :: v_dual_mov_b32 v3, 65',
    'v_dual_dot2acc_f32_f16 v0, 0x3c00, v2 :: v_dual_mov_b32 v3, v6',
    'v_dual_add_nc_u32 v0, v1, v2 :: v_dual_mov_b32 v3, v6',
    'v_dual_mov_b32 v0, v1 :: v_add_f32 v3, v6, v7',
    'v_add_f32 v0, v1, v2 :: v_dual_mov_b32 v3, v6',
    'v_dual_dot2acc_f32_bf16 v0, v1, v2 :: v_dual_mov_b32 v3, v6',
    'v_dual_add_f32 v0, v1, s2 :: v_dual_mov_b32 v3, v6',
    'v_dual_add_f32 v0, -v1, v2 :: v_dual_mov_b32 v3, v6',
    'v_dual_add_f32 v0, v1, v2 clamp :: v_dual_mov_b32 v3, v6',
    'v_dual_mov_b32 v0, v1 :: v_dual_add_f32 v3, v6, v7 clamp',
    'v_dual_mov_b32 v0,v1::v_dual_mov_b32 v3,v2',
    'v_dual_mov_b32   v0 ,  v1   ::   v_dual_mov_b32   v3 , v2',
    'v_dual_mov_b32\tv0, v1\t::\tv_dual_mov_b32\tv3, v2',
    'v_dual_mov_b32 v0, v1 : : v_dual_mov_b32 v3, v2',
    'v_dual_mov_b32 v0, v1 ::',
    'v_dual_mov_b32 v0, v1',
    'v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, v2 :: v_dual_mov_b32 v5, v8',
    'V_DUAL_MOV_B32 v0, v1 :: v_dual_mov_b32 v3, v2',
    'v_dual_mov_b32 v0, v1 :: V_DUAL_MOV_B32 v3, v2',
    'v_dual_add_f32_e32 v0, v1, v2 :: v_dual_mov_b32 v3, v6',
    'v_dual_mov_b32 v0, v1 :: v_dual_mov_b32_e32 v3, v2',
    'v_dual_mov_b32_e64 v0, v1 :: v_dual_mov_b32 v3, v2',
    'v_dual_mov_b32 v0, v[1] :: v_dual_mov_b32 v[3:3], v2',
    'v_dual_mov_b32 v0, lds_direct :: v_dual_mov_b32 v3, v6',
    'v_dual_mov_b32 v0, src_pops_exiting_wave_id :: v_dual_mov_b32 v3, v6',
    'v_mov_b32_e32 v0, src_lds_direct',
    'v_mov_b32 V0, V1',
    'v_dual_cndmask_b32 v0, 1.0, v2 :: v_dual_mov_b32 v3, s5',
    'v_dual_fmaak_f32 v0, v1, v2, 0x3c00 :: v_dual_dot2acc_f32_f16 v3, 0x3c00, v3',
    'v_dual_fmaak_f32 v0, v1, v2, 0x3f800000 :: v_dual_dot2acc_f32_f16 v3, 0x3f800000, v3',
    'v_dual_mov_b32 v0, v1 :: v_dual_dot2acc_f32_f16 v3, 0x3f800000, v3',
]

def examples():
    print_round_trips(EX_WORDS)
    ws = [w for _, w in EX_WORDS]
    res64 = dis(ws[:3], W64)
    for w, t in zip(ws[:3], res64):
        print('wave64 [%s] -> %s' % (hexb(w), t or 'invalid instruction encoding'))
    lines = EX_ASM + [l for l in MISC_ASM if l not in EX_ASM]
    for l, r in zip(lines, asm(lines)):
        print('$ %s  ->  %s' % (l.replace('\t', '<TAB>'), asm_desc(r) if r[0] == 'ERR' else '%s [%s]' % (r[1], hexb(r[0]))))
    # the two halves on two lines
    r = subprocess.run(MC + ['-show-encoding'], input='v_dual_mov_b32 v0, v1\n:: v_dual_mov_b32 v3, v2\n',
                       capture_output=True, text=True)
    print('$ v_dual_mov_b32 v0, v1<NEWLINE>:: v_dual_mov_b32 v3, v2  ->  ' +
          '; '.join('line %s: %s' % m for m in re.findall(r'<stdin>:(\d+):\d+: error: (.*)', r.stderr)))
    for l, r in zip(EX_ASM[:1], asm(['v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, v2'], W64)):
        print('$ (wave64) v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, v2  ->  %s' % asm_desc(r))

def main():
    if '--golden' in sys.argv:
        sys.stdout.write(golden())
    elif '--examples' in sys.argv:
        examples()
    else:
        json.dump(survey(), sys.stdout, indent=1)
        sys.stdout.write('\n')

if __name__ == '__main__':
    main()
