"""llvm-mc-19 in batches, shared by tools/survey_vop3.py and tools/survey_vopd.py: many probe
words per process (separated by sentinel `s_nop` words), assembling many lines per process."""
import re, subprocess
from collections import Counter

MC = ['llvm-mc-19', '-triple=amdgcn', '-mcpu=gfx1100']


def use_mcpu(mcpu):
    """Survey another chip (`-mcpu=gfx942`): every later call asks llvm-mc-19 for it."""
    MC[2] = '-mcpu=' + mcpu

def _sent(i):
    return [i & 0xff, (i >> 8) & 0xff, 0x80, 0xbf] * 4      # s_nop i, four times

def _dis_once(probes, mattr):
    cmd = MC + ['--disassemble', '-show-encoding'] + (['-mattr=' + mattr] if mattr else [])
    lines = [','.join('0x%02x' % x for x in list(p) + _sent(i)) for i, p in enumerate(probes)]
    r = subprocess.run(cmd, input='\n'.join(lines) + '\n', capture_output=True, text=True)
    warn = {}
    for m in re.finditer(r'<stdin>:(\d+):(\d+): (?:warning|error): (.*)', r.stderr):
        ln, col = int(m.group(1)), int(m.group(2))
        warn.setdefault(ln - 1, []).append((lines[ln - 1][:col - 1].count(','), m.group(3)))
    segs, cur, nsent = {}, [], Counter()
    for l in r.stdout.split('\n'):
        m = re.match(r'\s*(.*?)\s*; encoding: \[(.*)\]', l)
        if not m:
            continue
        t, e = m.group(1), [int(x, 16) for x in m.group(2).split(',')]
        k = re.fullmatch(r's_nop (0x[0-9a-f]+|\d+)', t)
        if k and int(k.group(1), 0) < len(probes):
            segs.setdefault(int(k.group(1), 0), cur)
            nsent[int(k.group(1), 0)] += 1
            cur = []
        else:
            cur.append((t, e))
    out = []
    for i, p in enumerate(probes):
        w = [b for b, _ in warn.get(i, []) if b < len(p)]
        seg = segs.get(i)
        if 0 in w:
            out.append(None)
        elif not seg:
            out.append('LOST')
        elif len(seg) == 1 and not w and nsent[i] == 4:
            out.append((seg[0][0], seg[0][1]))
        else:
            out.append(None)       # decoded, but not as exactly these bytes
    return out

def dis_full(probes, mattr=None):
    """Per probe: (text, llvm-mc's re-encoding of what it decoded) or None."""
    probes = [list(p) for p in probes]
    res = []
    for k in range(0, len(probes), 4000):
        res += _dis_once(probes[k:k + 4000], mattr)
    for i, r in enumerate(res):
        if r == 'LOST':        # a neighbour's leftovers swallowed the sentinels: run alone
            r = _dis_once([probes[i]], mattr)[0]
            res[i] = None if r == 'LOST' else r
    return res

def dis(probes, mattr=None):
    return [r[0] if r else None for r in dis_full(probes, mattr)]

def asm(lines, mattr=None):
    """Per line: (encoding bytes, printed text) or ('ERR', first error message)."""
    cmd = MC + ['-show-encoding'] + (['-mattr=' + mattr] if mattr else [])
    res = []
    for k in range(0, len(lines), 5000):
        chunk = lines[k:k + 5000]
        r = subprocess.run(cmd, input='\n'.join(chunk) + '\n', capture_output=True, text=True)
        errs = {}
        for m in re.finditer(r'<stdin>:(\d+):(\d+): error: (.*)', r.stderr):
            errs.setdefault(int(m.group(1)), m.group(3))
        outs = []
        for l in r.stdout.split('\n'):
            m = re.match(r'\s*(.*?)\s*; encoding: \[(.*)\]', l)
            if m:
                outs.append(([int(x, 16) for x in m.group(2).split(',')], m.group(1)))
        j = 0
        for i in range(len(chunk)):
            if (i + 1) in errs:
                res.append(('ERR', errs[i + 1]))
            elif j < len(outs):
                res.append(outs[j]); j += 1
            else:
                res.append(('ERR', 'no output'))
    return res

def asm_desc(r, want=None):
    """'same' / 'error: …' / the bytes, for an asm() result against the expected bytes."""
    if r[0] == 'ERR':
        return 'error: ' + r[1]
    if want is not None and list(r[0]) == list(want):
        return 'same'
    return hexb(r[0])

def le(w, n):
    return [(w >> (8 * i)) & 0xff for i in range(n)]

def hexb(b):
    return ','.join('0x%02x' % x for x in b)

def first_line(b, mattr=None):
    """What llvm-mc prints first for these bytes alone (no exactness check)."""
    cmd = MC + ['--disassemble'] + (['-mattr=' + mattr] if mattr else [])
    r = subprocess.run(cmd, input=hexb(b) + '\n', capture_output=True, text=True)
    lines = [l.strip() for l in r.stdout.split('\n') if l.strip() and l.strip() != '.text']
    warn = 'invalid instruction encoding' in r.stderr
    return (lines[0] if lines else '') + (' (with an invalid-encoding warning)' if warn else '')

def print_round_trips(ex_words, invalid_note=lambda w: ''):
    """For each (label, bytes) of `ex_words`: the text llvm-mc-19 prints for the bytes and
    what it assembles that text back to (asm_desc: "same" = the bytes), one line each; bytes
    it rejects print as invalid, followed by `invalid_note(bytes)`."""
    ws = [w for _, w in ex_words]
    res = dis(ws)
    idx = [i for i, t in enumerate(res) if t is not None]
    rt = dict(zip(idx, asm([res[i] for i in idx])))
    for i, ((lab, w), t) in enumerate(zip(ex_words, res)):
        if t is None:
            print('[%s] -> invalid instruction encoding    # %s%s' % (hexb(w), lab, invalid_note(w)))
        else:
            print('[%s] -> %s ; asm: %s    # %s' % (hexb(w), t, asm_desc(rt[i], w), lab))
