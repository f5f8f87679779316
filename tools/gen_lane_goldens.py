#!/usr/bin/env python3
"""Goldens for `v_nop`/`v_pipeflush` and for the wave64 spelling of lane masks, from llvm-mc-19.

  python3 tools/gen_lane_goldens.py          # needs llvm-mc-19 on PATH; about a minute

1. tests/golden/nop_disasm.txt (`BYTES<TAB>TEXT`, TEXT `<invalid>` where llvm-mc-19 rejects
   the word) and tests/golden/nop_asm.txt (as asm.txt: `INPUT<TAB>CANONICAL<TAB>BYTES` or
   `INPUT<TAB><error><TAB>MESSAGE`): the e32 (VOP1 0x00, 0x1b) and e64 (VOP3 0x180, 0x19b)
   forms of `v_nop` and `v_pipeflush`, every field and bit of them set in turn (the e32 form
   ignores src0 and needs vdst = 0; the e64 form needs every field but op_sel 0; both print
   without a suffix), and assembler inputs (suffixes, operands and modifiers they refuse).
2. tests/golden/wave64_disasm.txt and tests/golden/wave64_asm.txt: the same two formats from
   `llvm-mc-19 -mattr=+wavefrontsize64`, over every instruction with a lane-mask operand
   (VOPC e32 and e64, their DPP forms, `v_cndmask_b32/b16`, the carries, VOP3SD, ...): the
   words of tests/golden/disasm.txt, dpp.txt, div_scale_disasm.txt and vop3_opsel.txt whose
   instruction has one, every mask code (0-127, constants, a VGPR) in the mask field of one
   instruction of each kind, some VOPD words (invalid in wave64) and non-mask neighbours
   (`v_readlane_b32 vcc_lo`, `s_and_saveexec_b64`); then every text llvm-mc-19 printed, plus
   hand-written inputs (wave32 spellings, misaligned pairs: errors), assembled.
Read by crates/rdna3-isa/tests/golden.rs.
"""
import concurrent.futures as cf
import os, re, subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def table():
    """The table's lines: (format, opcode, name, [(field, kind, args)], flags), as gen_goldens.py."""
    rows = []
    src = open(os.path.join(ROOT, 'crates/rdna3-isa/src/table.rs')).read()
    for m in re.finditer(r'InstrDef::new\((\w+), 0x([0-9a-f]+), "(\w+)", &\[(.*?)\], (Flags::[^\n]*)\),$', src, re.M):
        fmt, op, name, ops, flags = m.group(1), int(m.group(2), 16), m.group(3), m.group(4), m.group(5)
        opl = re.findall(r'O::new\((\w+), (\w+)(?:\(([\w, ]+)\))?\)', ops)
        rows.append((fmt, op, name, [(f, k, a) for f, k, a in opl], flags))
    return rows

MC = ['llvm-mc-19', '-triple=amdgcn', '-mcpu=gfx1100']
W64 = ['-mattr=+wavefrontsize64']


def hexlist(b):
    return ','.join('0x%02x' % x for x in b)


def disasm_one(b, extra):
    p = subprocess.run(MC + extra + ['--disassemble'], input=hexlist(b) + '\n', capture_output=True, text=True)
    lines = [l.strip() for l in p.stdout.split('\n') if l.strip() and l.strip() != '.text']
    if 'warning' in p.stderr or len(lines) != 1:
        return '<invalid>'
    return lines[0]


def disasm_all(words, extra):
    with cf.ThreadPoolExecutor(8) as ex:
        return list(ex.map(lambda w: disasm_one(w, extra), words))


def assemble_all(lines, extra):
    """Assemble each line; returns list of (canonical, bytes) or ('<error>', msg)."""
    p = subprocess.run(MC + extra + ['-show-encoding'], input='\n'.join(lines) + '\n', capture_output=True, text=True)
    errs = {}
    for m in re.finditer(r'<stdin>:(\d+):\d+: error: (.*)', p.stderr):
        errs.setdefault(int(m.group(1)), m.group(2))
    outs = [l for l in p.stdout.split('\n') if 'encoding:' in l]
    res = []
    k = 0
    for i in range(len(lines)):
        if i + 1 in errs:
            res.append(('<error>', errs[i + 1]))
        else:
            t, enc = outs[k].split('; encoding:')
            k += 1
            res.append((t.strip(), enc.strip()[1:-1]))
    return res


def le(v, n):
    return list(v.to_bytes(n, 'little'))


def write(name, header, rows):
    with open(os.path.join(ROOT, 'tests/golden', name), 'w') as f:
        f.write(header + '\n')
        for r in rows:
            f.write('\t'.join(r) + '\n')


# ---- 1. v_nop, v_pipeflush ----

def vop1(op, src0=0, vdst=0):
    return le(0x7e000000 | vdst << 17 | op << 9 | src0, 4)


def vop3(op, lo=0, hi=0):
    return le((0xd4000000 | op << 16 | lo) | hi << 32, 8)


NOP_ASM = [
    'v_nop', 'v_nop_e32', 'v_nop_e64', 'V_NOP', 'V_NOP_E64', 'v_pipeflush', 'v_pipeflush_e32', 'v_pipeflush_e64',
    # errors
    'v_nop v0', 'v_nop v1', 'v_nop 0', 'v_nop_e32 v0', 'v_nop_e64 v0', 'v_nop_e64 clamp', 'v_nop_e64 mul:2',
    'v_nop_e64 op_sel:[0,0,0,0]', 'v_nop_e64 op_sel:[1,0,0,0]', 'v_nop_dpp', 'v_nop_dpp row_shl:1', 'v_nop row_shl:1',
    'v_nop quad_perm:[0,1,2,3]', 'v_nop dpp8:[0,1,2,3,4,5,6,7]', 'v_nop_e64_dpp', 'v_nop_sdwa', 'v_nop_e64 v0, v1',
    'v_pipeflush v0', 'v_pipeflush_e64 clamp', 'v_pipeflush_dpp row_shl:1', 'v_pipeflush_e64_dpp', 'v_nop,',
]


def nop_goldens():
    words = []
    for op in (0x00, 0x1b):
        for src0 in (0, 1, 0x6a, 0x7c, 0x7f, 0x80, 0xc1, 0xe9, 0xea, 0xf0, 0xfa, 0xfe, 0xff, 0x100, 0x17f, 0x1ff):
            words.append(vop1(op, src0=src0))
        for vdst in (1, 2, 0x7f, 0x80, 0xff):
            words.append(vop1(op, vdst=vdst))
        words.append(vop1(op, src0=0xff, vdst=1))
    for op in (0x180, 0x19b):
        words.append(vop3(op))
        for bit in list(range(16)):
            words.append(vop3(op, lo=1 << bit))
        words.append(vop3(op, lo=0xf << 11))
        for bit in range(32):
            words.append(vop3(op, hi=1 << bit))
        for src0 in (0x01, 0x80, 0xfa, 0xff, 0x101):
            words.append(vop3(op, hi=src0))
    texts = disasm_all(words, [])
    write('nop_disasm.txt', '# Generated by tools/gen_lane_goldens.py from llvm-mc-19 -mcpu=gfx1100 --disassemble. BYTES<TAB>TEXT',
          [(hexlist(w), t) for w, t in zip(words, texts)])
    inputs = NOP_ASM
    res = assemble_all(inputs, [])
    write('nop_asm.txt', '# Generated by tools/gen_lane_goldens.py from llvm-mc-19 -mcpu=gfx1100 -show-encoding. '
          'INPUT<TAB>CANONICAL<TAB>BYTES or INPUT<TAB><error><TAB>MESSAGE',
          [(i, a, b) for i, (a, b) in zip(inputs, res)])
    print('nop: %d words (%d invalid), %d assembler lines (%d errors)' % (
        len(words), texts.count('<invalid>'), len(inputs), sum(a == '<error>' for a, _ in res)))


# ---- 2. wave64 ----

def mask_names():
    """Names of the table entries with a lane-mask operand (as def.rs `is_lane_mask`)."""
    names = set()
    for fmt, op, name, ops, flags in table():
        for f, k, a in ops:
            if k == 'Implicit' or k == 'LaneMask' or (k == 'S' and a == '1' and (
                    fmt == 'Vop3' and (f == 'Sdst' or f == 'Vdst' and name.startswith('v_cmp')))):
                names.add(name)
    return names


def has_mask(text, names):
    m = text.split()[0]
    for s in ('_dpp', ''):
        if m.endswith(s):
            b = m[:len(m) - len(s)] if s else m
            for cand in (b, b + '_e32', b + '_e64', b[:-4] if b.endswith('_e64') else None):
                if cand in names:
                    return True
    return False


def bytes_of(h):
    return [int(x, 16) for x in h.split(',')]


# Mask fields of one instruction of each kind: (word without the mask, where the mask goes).
def mask_probes():
    out = []
    codes = list(range(128)) + [128, 129, 192, 193, 208, 235, 239, 240, 248, 251, 252, 253, 254, 256, 257, 511]
    for c in codes:
        if c < 128:
            out.append(vop3(0x4a, lo=c, hi=1 | 258 << 9))           # v_cmp_eq_u32_e64 sdst
            out.append(vop3(0x27, lo=c, hi=258 | 260 << 9))         # v_cmp_class_f64_e64
            out.append(vop3(0x300, lo=5 | c << 8, hi=257 | 258 << 9))    # v_add_co_u32 sdst
            out.append(vop3(0x120, lo=5 | c << 8, hi=257 | 258 << 9 | 106 << 18))  # v_add_co_ci_u32_e64 sdst
            out.append(vop3(0x2fc, lo=5 | c << 8, hi=257 | 258 << 9 | 259 << 18))  # v_div_scale_f32
            out.append(vop3(0x2fe, lo=5 | c << 8, hi=257 | 258 << 9 | 259 << 18))  # v_mad_u64_u32
            out.append(vop3(0x360, lo=c, hi=257 | 3 << 9))          # v_readlane_b32 (not a mask)
        out.append(vop3(0x101, lo=5, hi=257 | 258 << 9 | c << 18))      # v_cndmask_b32_e64 src2
        out.append(vop3(0x25d, lo=5, hi=257 | 258 << 9 | c << 18))      # v_cndmask_b16 src2
        out.append(vop3(0x120, lo=5 | 106 << 8, hi=257 | 258 << 9 | c << 18))  # v_add_co_ci_u32_e64 src2
    # e32 forms, DPP forms, VOPD, SOP1 saveexec (not masks)
    out += [le(0x7c940501, 4), le(0x02000501, 4), le(0x40000501, 4), le(0x7d940501, 4), le(0xbe802102, 4), le(0xbe802002, 4)]
    out += [bytes_of('0xfa,0x04,0x94,0x7c,0x01,0x01,0x01,0xff'), bytes_of('0xe9,0x04,0x94,0x7c,0x01,0x88,0xc6,0xfa'),
            bytes_of('0x02,0x00,0x4a,0xd4,0xfa,0x04,0x02,0x00,0x01,0x01,0x01,0xff'),
            bytes_of('0x00,0x00,0x01,0xd5,0xe9,0x04,0x12,0x00,0x01,0x88,0xc6,0xfa'),
            bytes_of('0x00,0x04,0x00,0xd7,0xfa,0x04,0x02,0x00,0x01,0x01,0x01,0xff'),
            bytes_of('0xfa,0x04,0x00,0x02,0x01,0x01,0x01,0xff')]
    # VOPD (v_dual_cndmask_b32 :: v_dual_mov_b32, v_dual_add_f32 :: v_dual_mov_b32)
    out += [bytes_of('0x01,0x05,0x52,0xca,0x04,0x01,0x02,0x00'), bytes_of('0x01,0x05,0x10,0xc9,0x04,0x01,0x02,0x00')]
    return out


WAVE64_ASM = [
    'v_cmp_eq_u32_e64 s[2:3], v1, v2', 'v_cmp_eq_u32 vcc, v1, v2', 'v_cmp_eq_u32_e32 vcc, v1, v2', 'v_cmp_eq_u32 s[4:5], v1, v2',
    'v_cmp_eq_u32 s[4:5], s1, v2', 'v_cmp_eq_u32 vcc, s1, v2', 'v_cmp_eq_u32 vcc, v1, s2', 'v_cmp_eq_u32 vcc, v1, 0x1234',
    'v_cmp_eq_u32 v1, v2', 'v_cmp_eq_u32_e64 exec, v1, v2', 'v_cmp_eq_u32_e64 null, v1, v2', 'v_cmp_eq_u32_e64 ttmp[2:3], v1, v2',
    'v_cmp_eq_u32_e64 s[104:105], v1, v2', 'v_cmp_eq_u32_e64 vcc, v1, v2', 'v_cmp_lt_f32 vcc, -v1, |v2|', 'v_cmp_lt_f32 s[6:7], -v1, |v2|',
    'v_cmp_class_f32 vcc, v1, v2', 'v_cmp_class_f64_e64 s[10:11], v[1:2], v3', 'v_cmpx_eq_u32 v1, v2', 'v_cmpx_eq_u32_e64 v1, v2',
    'v_cmp_eq_u32 vcc, v1, v2 row_shl:1', 'v_cmp_eq_u32 s[2:3], v1, v2 row_shl:1', 'v_cmp_eq_u32_e64_dpp s[2:3], v1, v2 row_shl:1',
    'v_cmp_eq_u32 vcc, v1, v2 dpp8:[7,6,5,4,3,2,1,0]', 'v_cmp_eq_u32_dpp vcc, v1, v2 quad_perm:[3,2,1,0]',
    'v_cndmask_b32 v0, v1, v2, vcc', 'v_cndmask_b32_e32 v0, v1, v2, vcc', 'v_cndmask_b32_e64 v0, v1, v2, s[4:5]',
    'v_cndmask_b32 v0, v1, v2, s[4:5]', 'v_cndmask_b32 v0, s1, v2, vcc', 'v_cndmask_b32_e64 v0, -v1, |v2|, vcc',
    'v_cndmask_b32_e64 v0, v1, v2, null', 'v_cndmask_b32_e64 v0, v1, v2, exec', 'v_cndmask_b32_e64 v0, v1, v2, ttmp[4:5]',
    'v_cndmask_b32 v0, v1, v2, vcc row_shl:1', 'v_cndmask_b32_e64_dpp v0, v1, v2, s[4:5] dpp8:[0,1,2,3,4,5,6,7]',
    'v_cndmask_b16 v0, v1, v2, s[4:5]', 'v_cndmask_b16 v0, v1, v2, vcc',
    'v_add_co_u32 v0, vcc, v1, v2', 'v_add_co_u32 v0, s[4:5], v1, v2', 'v_add_co_u32 v0, null, v1, v2', 'v_sub_co_u32 v0, exec, v1, v2 clamp',
    'v_add_co_u32_e64_dpp v0, s[4:5], v1, v2 row_shl:1', 'v_add_co_ci_u32 v0, vcc, v1, v2, vcc', 'v_add_co_ci_u32_e32 v0, vcc, v1, v2, vcc',
    'v_add_co_ci_u32_e64 v0, s[2:3], v1, v2, s[4:5]', 'v_add_co_ci_u32 v0, s[2:3], v1, v2, vcc', 'v_sub_co_ci_u32_e64 v0, null, v1, v2, null',
    'v_subrev_co_ci_u32 v0, vcc, v1, v2, vcc row_shl:1', 'v_div_scale_f32 v5, vcc, v1, v2, v3', 'v_div_scale_f64 v[5:6], s[2:3], v[1:2], v[2:3], v[3:4]',
    'v_mad_u64_u32 v[5:6], s[2:3], v1, v2, v[3:4]', 'v_mad_i64_i32 v[5:6], null, v1, v2, v[3:4]',
    'v_readlane_b32 s2, v1, s3', 'v_readlane_b32 vcc_lo, v1, s3', 'v_readfirstlane_b32 s2, v1', 'v_writelane_b32 v1, s2, s3',
    's_and_saveexec_b64 s[0:1], s[2:3]', 's_and_saveexec_b32 s0, s2', 's_mov_b64 vcc, exec', 's_cbranch_vccz 2',
    # errors
    'v_cmp_eq_u32_e64 s2, v1, v2', 'v_cmp_eq_u32_e64 vcc_lo, v1, v2', 'v_cmp_eq_u32_e32 vcc_lo, v1, v2', 'v_cmp_eq_u32 vcc_lo, v1, v2',
    'v_cmp_eq_u32_e64 s[3:4], v1, v2', 'v_cmp_eq_u32_e64 s[2:5], v1, v2', 'v_cmp_eq_u32_e64 vcc_hi, v1, v2', 'v_cmp_eq_u32_e64 m0, v1, v2',
    'v_cmp_eq_u32_e64 exec_lo, v1, v2', 'v_cmp_eq_u32_e64 ttmp[1:2], v1, v2', 'v_cmp_eq_u32_e64 v[1:2], v1, v2',
    'v_cndmask_b32 v0, v1, v2, vcc_lo', 'v_cndmask_b32_e64 v0, v1, v2, s4', 'v_cndmask_b32_e64 v0, v1, v2, s[5:6]',
    'v_cndmask_b32_e64 v0, v1, v2, 0', 'v_cndmask_b32_e64 v0, v1, v2, v[4:5]', 'v_cndmask_b32_e64 v0, v1, v2, 0x1234',
    'v_add_co_u32 v0, vcc_lo, v1, v2', 'v_add_co_u32 v0, s4, v1, v2', 'v_add_co_ci_u32 v0, vcc_lo, v1, v2, vcc_lo',
    'v_add_co_ci_u32_e64 v0, s[2:3], v1, v2, s4', 'v_div_scale_f32 v5, vcc_lo, v1, v2, v3', 'v_div_scale_f32 v5, s3, v1, v2, v3',
    'v_mad_u64_u32 v[5:6], s2, v1, v2, v[3:4]', 'v_cmp_eq_u32 vcc_lo, v1, v2 row_shl:1',
    'v_dual_cndmask_b32 v0, v1, v2 :: v_dual_mov_b32 v3, v4', 'v_dual_add_f32 v0, v1, v2 :: v_dual_mov_b32 v3, v4',
]


def wave64_goldens():
    names = mask_names()
    words, seen = [], set()
    for g in ('disasm.txt', 'dpp.txt', 'div_scale_disasm.txt', 'vop3_opsel.txt'):
        for line in open(os.path.join(ROOT, 'tests/golden', g)):
            if line.startswith('#') or '\t' not in line:
                continue
            b, t = line.rstrip('\n').split('\t')[:2]
            if t != '<invalid>' and has_mask(t, names) and b not in seen:
                seen.add(b)
                words.append(bytes_of(b))
    words += mask_probes()
    texts = disasm_all(words, W64)
    write('wave64_disasm.txt', '# Generated by tools/gen_lane_goldens.py from llvm-mc-19 -mcpu=gfx1100 -mattr=+wavefrontsize64 '
          '--disassemble. BYTES<TAB>TEXT', [(hexlist(w), t) for w, t in zip(words, texts)])
    inputs = sorted(set(t for t in texts if t != '<invalid>')) + WAVE64_ASM
    res = assemble_all(inputs, W64)
    write('wave64_asm.txt', '# Generated by tools/gen_lane_goldens.py from llvm-mc-19 -mcpu=gfx1100 -mattr=+wavefrontsize64 '
          '-show-encoding. INPUT<TAB>CANONICAL<TAB>BYTES or INPUT<TAB><error><TAB>MESSAGE',
          [(i, a, b) for i, (a, b) in zip(inputs, res)])
    print('wave64: %d mask instructions, %d words (%d invalid), %d assembler lines (%d errors)' % (
        len(names), len(words), texts.count('<invalid>'), len(inputs), sum(a == '<error>' for a, _ in res)))


if __name__ == '__main__':
    nop_goldens()
    wave64_goldens()
