#!/usr/bin/env python3
"""Random-word goldens: llvm-mc-19's answer for seeded random words of every encoding format.

  python3 tools/gen_random_goldens.py          # needs llvm-mc-19 on PATH; about 5 s
  python3 tools/gen_random_goldens.py --seed 7 --words 20000 --out /tmp/r.txt   # a held-out check
  python3 tools/gen_random_goldens.py --mcpu gfx942    # gfx942's formats so far, its own file

With --mcpu gfx942 the formats are the gfx942 table's (crates/rdna3-isa/src/table_gfx940.rs,
GFX9 layouts: SOP*, SMEM, DS, FLAT/GLOBAL/SCRATCH, MUBUF, MTBUF, VOP1/VOP2/VOPC with their
DPP and SDWA forms, VOP3, VOP3P) and the file is
tests/golden/random_disasm_gfx942.txt, read by crates/rdna3-isa/tests/random_words_gfx942.rs.

writes tests/golden/random_disasm.txt, read by crates/rdna3-isa/tests/random_words.rs. For each
format (SOP1/SOP2/SOPK/SOPC/SOPP, SMEM, VOP1/VOP2/VOPC/VOP3/VOP3SD/VOP3P/VOPD, DPP16/DPP8 (of
the e32, VOP3 and VOP3P forms), DS, FLAT/GLOBAL/SCRATCH, MUBUF, MTBUF, LDSDIR, VINTERP) it draws
WORDS words: the format's fixed encoding bits set and every other bit random (reserved and
unused bits included); in half of them the opcode field holds an opcode of the table
(crates/rdna3-isa/src/table.rs, so that most formats give many valid words), in the other half
it is random too. A word is kept only if it is of its format (a random SOP2 word can be a SOPK
one). Every word is followed by one random dword, which llvm-mc-19 reads as the word's literal
or DPP dword when the word asks for one.

Each line: `FORMAT<TAB>BYTES<TAB>SIZE<TAB>TEXT`: BYTES the word and the extra dword as hex
bytes in memory order; SIZE how many of those bytes llvm-mc-19 decoded as one instruction, and
TEXT what it printed; or SIZE `-` and TEXT `invalid` when it rejected the word.

How each word is judged alone: llvm-mc-19 --disassemble reads its whole input as one byte
stream (lines are joined). On a word it cannot decode it prints `<stdin>:LINE:COL: warning:
invalid instruction encoding` and skips 4 bytes only, so the rest of an 8-byte word (and the
extra dword) then decode as instructions of their own, which may swallow the bytes after them.
So each probe is one input line, `WORD DWORD` followed by five sentinel words `s_nop N` (N the
probe's index); a probe is invalid when the warning points at its line's column 1, else its
instruction is the first one printed after the previous probe's sentinels; it took the extra
dword when nothing else of the line was printed before its five sentinels (otherwise the
dword appears as an instruction of its own, or as a warning, or swallows a sentinel). A VOP3
DPP form with a literal source takes the extra dword and then the first sentinel as its
literal (four sentinels are left): that sentinel dword is then part of BYTES.
"""
import os, random, re, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MC = ['llvm-mc-19', '-triple=amdgcn', '-mcpu=gfx1100', '--disassemble', '-show-encoding']
SEED = 20260424
WORDS = 2000
NSENT = 5

# name: (size, fixed mask, fixed value, opcode (lo, width) or None)
FMT = {
    'SOP2': (4, 0xc0000000, 0x80000000, (23, 7)),
    'SOPK': (4, 0xf0000000, 0xb0000000, (23, 5)),
    'SOP1': (4, 0xff800000, 0xbe800000, (8, 8)),
    'SOPC': (4, 0xff800000, 0xbf000000, (16, 7)),
    'SOPP': (4, 0xff800000, 0xbf800000, (16, 7)),
    'SMEM': (8, 0xfc000000, 0xf4000000, (18, 8)),
    'DS': (8, 0xfc000000, 0xd8000000, (18, 8)),
    'FLAT': (8, 0xfc030000, 0xdc000000, (18, 7)),
    'SCRATCH': (8, 0xfc030000, 0xdc010000, (18, 7)),
    'GLOBAL': (8, 0xfc030000, 0xdc020000, (18, 7)),
    'MUBUF': (8, 0xfc000000, 0xe0000000, (18, 8)),
    'MTBUF': (8, 0xfc000000, 0xe8000000, (15, 4)),
    'LDSDIR': (4, 0xff000000, 0xce000000, (20, 2)),
    'VINTERP': (8, 0xff000000, 0xcd000000, (16, 7)),
    'VOP1': (4, 0xfe000000, 0x7e000000, (9, 8)),
    'VOP2': (4, 0x80000000, 0x00000000, (25, 6)),
    'VOPC': (4, 0xfe000000, 0x7c000000, (17, 8)),
    'VOP3': (8, 0xfc000000, 0xd4000000, (16, 10)),
    'VOPD': (8, 0xfc000000, 0xc8000000, (17, 5)),
    'VOP3P': (8, 0xff800000, 0xcc000000, (16, 7)),
}
# gfx942 (GFX9 layouts, crates/rdna3-isa/src/gfx9/format.rs): the formats its table has so far.
FMT_GFX942 = {
    'SOP2': (4, 0xc0000000, 0x80000000, (23, 7)),
    'SOPK': (4, 0xf0000000, 0xb0000000, (23, 5)),
    'SOP1': (4, 0xff800000, 0xbe800000, (8, 8)),
    'SOPC': (4, 0xff800000, 0xbf000000, (16, 7)),
    'SOPP': (4, 0xff800000, 0xbf800000, (16, 7)),
    'SMEM': (8, 0xfc000000, 0xc0000000, (18, 8)),
    'DS': (8, 0xfc000000, 0xd8000000, (17, 8)),
    'FLAT': (8, 0xfc00c000, 0xdc000000, (18, 7)),
    'SCRATCH': (8, 0xfc00c000, 0xdc004000, (18, 7)),
    'GLOBAL': (8, 0xfc00c000, 0xdc008000, (18, 7)),
    'MUBUF': (8, 0xfc000000, 0xe0000000, (18, 7)),
    'MTBUF': (8, 0xfc000000, 0xe8000000, (15, 4)),
    'VOP1': (4, 0xfe000000, 0x7e000000, (9, 8)),
    'VOP2': (4, 0x80000000, 0x00000000, (25, 6)),
    'VOPC': (4, 0xfe000000, 0x7c000000, (17, 8)),
    'VOP3P': (8, 0xff800000, 0xd3800000, (16, 7)),
    'VOP3': (8, 0xfc000000, 0xd0000000, (16, 10)),
}
MCPU = 'gfx1100'
TABLE_FMT = {'Sop2': 'SOP2', 'Sopk': 'SOPK', 'Sop1': 'SOP1', 'Sopc': 'SOPC', 'Sopp': 'SOPP', 'Smem': 'SMEM',
             'Ds': 'DS', 'Flat': 'FLAT', 'Scratch': 'SCRATCH', 'Global': 'GLOBAL', 'Mubuf': 'MUBUF',
             'Mtbuf': 'MTBUF', 'Ldsdir': 'LDSDIR', 'Vinterp': 'VINTERP', 'Vop1': 'VOP1', 'Vop2': 'VOP2',
             'Vopc': 'VOPC', 'Vop3': 'VOP3', 'Vopd': 'VOPD', 'Vop3p': 'VOP3P'}


def identify_gfx9(first):
    """The format of a gfx942 word by its first dword (crates/rdna3-isa/src/gfx9/format.rs)."""
    if first >> 31 == 0:
        return {0x3e: 'VOPC', 0x3f: 'VOP1'}.get(first >> 25, 'VOP2')
    for name in ('SOPP', 'SOPC', 'SOP1', 'SOPK', 'SOP2', 'SMEM', 'DS', 'FLAT', 'SCRATCH', 'GLOBAL',
                 'MUBUF', 'MTBUF', 'VOP3P', 'VOP3'):
        size, mask, val, _ = FMT_GFX942[name]
        if first & mask == val:
            return name
    return None


def identify(first):
    """The format of a word by its first dword, as crates/rdna3-isa/src/format.rs does."""
    if MCPU == 'gfx942':
        return identify_gfx9(first)
    if first >> 31 == 0:
        return {0x3e: 'VOPC', 0x3f: 'VOP1'}.get(first >> 25, 'VOP2')
    top = first >> 26
    if top == 0b110110: return 'DS'
    if top == 0b110101: return 'VOP3'
    if top == 0b110010: return 'VOPD'
    if top == 0b110111: return {0: 'FLAT', 1: 'SCRATCH', 2: 'GLOBAL'}.get((first >> 16) & 3)
    if top == 0b111101: return 'SMEM'
    if top == 0b111000: return 'MUBUF'
    if top == 0b111010: return 'MTBUF'
    if top == 0b110011:
        return {0x19a: 'VINTERP', 0x19b: 'VINTERP', 0x19c: 'LDSDIR', 0x19d: 'LDSDIR', 0x198: 'VOP3P'}.get(first >> 23)
    if first >> 30 == 0b10:
        k = first >> 23
        if k == 0x17f: return 'SOPP'
        if k == 0x17e: return 'SOPC'
        if k == 0x17d: return 'SOP1'
        if first >> 28 == 0b1011: return 'SOPK'
        return 'SOP2'
    return None


def table_ops():
    table, ctor = (('table_gfx940.rs', 'gfx940') if MCPU == 'gfx942' else ('table.rs', 'new'))
    src = open(os.path.join(ROOT, 'crates/rdna3-isa/src', table)).read()
    ops = {}
    for m in re.finditer(r'InstrDef::' + ctor + r'\((\w+), 0x([0-9a-f]+), "(\w+)", &\[(.*?)\], (Flags::[^\n]*)\),$', src, re.M):
        fmt, op, name, opnds, flags = m.group(1), int(m.group(2), 16), m.group(3), m.group(4), m.group(5)
        f = TABLE_FMT[fmt]
        ops.setdefault(f, []).append(op)
        if f == 'VOP3' and 'Sdst' in opnds:
            ops.setdefault('VOP3SD', []).append(op)
        if re.search(r'Flags::DPP\b', flags):
            ops.setdefault('DPP:' + f, []).append(op)
    return ops


def word(rng, fmt, op):
    size, mask, val, oprange = FMT[fmt]
    while True:
        w = rng.getrandbits(8 * size)
        w = (w & ~mask) | val
        if op is not None:
            lo, width = oprange
            w = (w & ~(((1 << width) - 1) << lo)) | (op << lo)
        if identify(w & 0xffffffff) == fmt:
            return w


def probes(rng, ops):
    out = []   # (label, bytes)
    groups = [f for f in FMT] + ([] if MCPU == 'gfx942' else ['VOP3SD', 'DPP16', 'DPP8'])
    for g in groups:
        n = 0
        while n < WORDS:
            if g == 'VOP3SD':
                w, size = word(rng, 'VOP3', rng.choice(ops['VOP3SD'])), 8
            elif g in ('DPP16', 'DPP8'):
                base = rng.choice(['VOP1', 'VOP2', 'VOPC', 'VOP3', 'VOP3P'])
                pool = ops.get('DPP:' + base, ops[base])
                op = rng.choice(pool) if n % 2 == 0 else None
                w = word(rng, base, op)
                size = FMT[base][0]
                src0 = 250 if g == 'DPP16' else rng.choice([233, 234])
                lo = 0 if size == 4 else 32
                w = (w & ~(0x1ff << lo)) | (src0 << lo)
                if identify(w & 0xffffffff) != base:
                    continue
            else:
                size = FMT[g][0]
                op = rng.choice(ops[g]) if n % 2 == 0 and g in ops else None
                w = word(rng, g, op)
                if MCPU == 'gfx942' and g in ('VOP1', 'VOP2', 'VOPC') and n % 4 in (1, 2):
                    # A quarter are DPP forms, a quarter SDWA forms (the extra dword).
                    w = (w & ~0x1ff) | (250 if n % 4 == 1 else 249)
                if MCPU == 'gfx942' and g in ('VOP3', 'VOP3P') and op is not None and n % 4 == 0:
                    # Random modifier bits and a random third source make nearly every word
                    # invalid: in a quarter of the words they are 0.
                    w &= ~(0xff << 8 | 0x1ff << 50 | 0x1f << 59)
                if MCPU == 'gfx942' and g == 'FLAT' and n % 4 != 3:
                    # FLAT has no scalar base on gfx942: a saddr other than 0 is invalid, so
                    # most words keep it 0 (a quarter test the rule).
                    w &= ~(0x7f << 48)
            extra = rng.getrandbits(32)
            out.append((g, list(w.to_bytes(size, 'little')) + list(extra.to_bytes(4, 'little'))))
            n += 1
    return out


def sentinel(i):
    return [i & 0xff, (i >> 8) & 0xff, 0x80, 0xbf]


def sentinel_id(i, batch):
    """`s_nop i` marks probe i's end, unless probe i or the next one holds that word (a SOPP
    probe can be `s_nop i`): then `s_nop i + 0x4000`."""
    words = []
    for _, probe in batch[i:i + 2]:
        words += [probe[k:k + 4] for k in range(0, len(probe), 4)]
    return i + 0x4000 if sentinel(i) in words else i


def judge(batch, base):
    """llvm-mc-19's answer for each probe of `batch` (indices base..): (size, text) or None."""
    lines = []
    for i, (_, b) in enumerate(batch):
        lines.append(','.join('0x%02x' % x for x in b + sentinel(sentinel_id(i, batch)) * NSENT))
    r = subprocess.run(MC, input='\n'.join(lines) + '\n', capture_output=True, text=True)
    warn = {}
    for m in re.finditer(r'<stdin>:(\d+):(\d+): warning: (.*)', r.stderr):
        ln, col = int(m.group(1)), int(m.group(2))
        warn.setdefault(ln - 1, []).append(lines[ln - 1][:col - 1].count(','))
    insts = []
    for l in r.stdout.split('\n'):
        m = re.match(r'\s*(.*?)\s*; encoding: \[(.*)\]', l)
        if m:
            insts.append(m.group(1))
    # Split the printed instructions by the sentinel runs (s_nop i, NSENT times, or fewer
    # when leftovers swallowed some: at least 3 in a row).
    res = []
    k = 0
    for i, (_, b) in enumerate(batch):
        seg = []
        sid = sentinel_id(i, batch)
        want = 's_nop %d' % sid if sid <= 64 else 's_nop 0x%x' % sid
        while k < len(insts):
            if insts[k] == want:
                run = 0
                while k + run < len(insts) and insts[k + run] == want:
                    run += 1
                run = min(run, NSENT)    # (the next probe may itself be `s_nop i`)
                if run >= 3:
                    k += run
                    break
            seg.append(insts[k])
            k += 1
        else:
            raise SystemExit('lost sync at probe %d' % (base + i))
        w = warn.get(i, [])
        nbytes = len(b)
        if 0 in w:
            res.append(None)
            continue
        if not seg:
            raise SystemExit('probe %d: nothing printed: %s' % (base + i, lines[i]))
        clean = len(seg) == 1 and not [x for x in w if x < nbytes]
        if clean and run == NSENT - 1:
            # The word took the extra dword and a literal after it (a VOP3 DPP form with a
            # literal source): the literal is the first sentinel.
            res.append((nbytes + 4, seg[0], sentinel(sid)))
        else:
            res.append((nbytes if clean and run == NSENT else nbytes - 4, seg[0], []))
    return res


def judge_or_split(batch, base, crashed):
    """`judge`, except that a probe llvm-mc-19 crashes on (it does: gfx942's
    v_accvgpr_mov_b32 with a constant source) is found by halving the batch and answered
    'crash' (left out of the file, listed in `crashed`)."""
    lines = [','.join('0x%02x' % x for x in b + sentinel(sentinel_id(i, batch)) * NSENT)
             for i, (_, b) in enumerate(batch)]
    r = subprocess.run(MC, input='\n'.join(lines) + '\n', capture_output=True, text=True)
    if r.returncode >= 0:
        return judge(batch, base)
    if len(batch) == 1:
        crashed.append(base)
        return ['crash']
    h = len(batch) // 2
    return judge_or_split(batch[:h], base, crashed) + judge_or_split(batch[h:], base + h, crashed)


def main():
    global WORDS, MCPU, FMT
    import argparse
    ap = argparse.ArgumentParser(description='llvm-mc-19 goldens for random words of every format')
    ap.add_argument('--seed', type=int, default=SEED, help='another seed, for a held-out check')
    ap.add_argument('--words', type=int, default=WORDS, help='words per format')
    ap.add_argument('--mcpu', default='gfx1100', choices=['gfx1100', 'gfx942'])
    ap.add_argument('--out')
    args = ap.parse_args()
    MCPU = args.mcpu
    MC[2] = '-mcpu=' + MCPU
    if MCPU == 'gfx942':
        FMT = FMT_GFX942
    args.out = args.out or os.path.join(
        ROOT, 'tests/golden/random_disasm%s.txt' % ('_gfx942' if MCPU == 'gfx942' else ''))
    WORDS = args.words
    rng = random.Random(args.seed)
    ops = table_ops()
    ps = probes(rng, ops)
    res = []
    crashed = []
    for k in range(0, len(ps), 3000):
        res += judge_or_split(ps[k:k + 3000], k, crashed)
    path = args.out
    stats = {}
    with open(path, 'w') as f:
        f.write('# Generated by tools/gen_random_goldens.py%s (seed %d) from llvm-mc-19 -mcpu=%s --disassemble.\n'
                % (' --mcpu ' + MCPU if MCPU != 'gfx1100' else '', args.seed, MCPU))
        f.write('# FORMAT<TAB>BYTES (word and one extra dword)<TAB>SIZE decoded or -<TAB>TEXT or invalid\n')
        if crashed:
            f.write('# Left out: %d words llvm-mc-19 crashes on (%s).\n'
                    % (len(crashed), ', '.join(sorted({ps[i][0] for i in crashed}))))
        for (g, b), r in zip(ps, res):
            if r == 'crash':
                continue
            hx = ''.join('%02x' % x for x in b + (r[2] if r else []))
            if r is None:
                f.write('%s\t%s\t-\tinvalid\n' % (g, hx))
            else:
                f.write('%s\t%s\t%d\t%s\n' % (g, hx, r[0], r[1]))
            s = stats.setdefault(g, [0, 0])
            s[0] += 1
            s[1] += r is not None
    for g, (n, v) in stats.items():
        print('%-8s %5d words, %5d valid' % (g, n, v), file=sys.stderr)


if __name__ == '__main__':
    main()
