#!/usr/bin/env python3
"""Survey of the gfx11 VOP3 / VOP3SD encodings as llvm-mc-19 (-mcpu=gfx1100) decodes, prints
and assembles them.  Research aid for adding VOP3 to crates/rdna3-isa/src/table.rs; standard
library only.  Writes JSON to stdout:  python3 tools/survey_vop3.py > /tmp/vop3.json
(about 20 s; `--examples` prints the probe lines quoted in tools/VOP3_NOTES.md instead).

Encoding (64 bits, then an optional literal dword when a source field is 255):
  [7:0] vdst  [10:8] abs (VOP3SD: [14:8] sdst)  [14:11] op_sel  [15] clamp  [25:16] op
  [31:26] 0b110101  [40:32] src0  [49:41] src1  [58:50] src2  [60:59] omod  [63:61] neg

Every probe is one line of bytes followed by four `s_nop <probe index>` words, so one llvm-mc
process decodes thousands of probes and each output line is matched to its probe by the
sentinel that follows it; `invalid instruction encoding` warnings are matched by line:column.
A probe counts as decoded only when llvm-mc consumed exactly its bytes (a source of 255 with
no literal given eats a sentinel, a literal nobody reads decodes as an extra instruction).
"""
import json, re, subprocess, sys
from collections import Counter, OrderedDict

MC = ['llvm-mc-19', '-triple=amdgcn', '-mcpu=gfx1100']
W64 = '+wavefrontsize64'
V = 256                      # source code of v0
LIT = 255                    # source code "literal follows"

# ---------------------------------------------------------------- llvm-mc batching

from mc_batch import _dis_once, dis_full, dis, asm, le, hexb

def vop3(op, vdst=0, b8=0, clamp=0, src0=0, src1=0, src2=0, omod=0, neg=0, lit=None):
    """b8: bits [14:8] (abs[10:8] | op_sel[14:11] << 3, or VOP3SD sdst)."""
    w = (0x35 << 26) | (op << 16) | (clamp << 15) | (b8 << 8) | vdst
    w |= (src0 << 32) | (src1 << 41) | (src2 << 50) | (omod << 59) | (neg << 61)
    return le(w, 8) + (le(lit, 4) if lit is not None else [])

def split(text):
    """'name a, b, c mods' -> (name, [operands], [modifier tokens]); /* */ comments kept as one
    token (also survey_dpp.py's)."""
    if ' ' not in text:
        return text, [], []
    comments = re.findall(r'/\*.*?\*/', text)
    text = re.sub(r'/\*.*?\*/', '\x00', text)
    name, body = text.split(None, 1)
    parts = body.split(', ')
    last = parts[-1].split(' ')
    toks = parts[:-1] + [last[0]]
    it = iter(comments)
    fix = lambda t: re.sub('\x00', lambda m: next(it), t)
    toks = [fix(t) for t in toks]
    return name, toks, [fix(t) for t in last[1:]]

REG = re.compile(r'([sv])(\d+)(?:\.[lh])?$|([sv])\[(\d+):(\d+)\]$')

def bare(tok):
    """Strip modifiers and comments from an operand token."""
    tok = re.sub(r'/\*.*?\*/', '', tok)
    while True:
        m = re.fullmatch(r'-?\|(.*)\||-(.*)|(?:neg|abs|sext)\((.*)\)', tok)
        if not m:
            return tok
        tok = next(g for g in m.groups() if g is not None)

def reg_of(tok):
    m = REG.match(bare(tok))
    if not m:
        return None
    if m.group(1):
        return m.group(1), int(m.group(2)), 1
    return m.group(3), int(m.group(4)), int(m.group(5)) - int(m.group(4)) + 1

# ---------------------------------------------------------------- the survey

# distinct numbers per field: vdst 40, sdst 50, src0 10, src1 20, src2 30
NUM = {'Vdst': 40, 'Sdst': 50, 'Src0': 10, 'Src1': 20, 'Src2': 30}
SRCS = ('Src0', 'Src1', 'Src2')
KW = {'Src0': 'src0', 'Src1': 'src1', 'Src2': 'src2'}

def e32_names():
    """Names of the e32 forms at each opcode, to check which VOP3 opcode promotes which."""
    probes, keys = [], []
    for op in range(128):
        probes.append(le(0x7e000000 | (op << 9) | (40 << 17) | (V + 10), 4)); keys.append(('Vop1', op))
        probes.append(le(0x7e000000 | (op << 9), 4)); keys.append(('Vop1', op))     # v_nop, v_pipeflush
    for op in range(64):
        w = le((op << 25) | (40 << 17) | (20 << 9) | (V + 10), 4)
        probes.append(w); keys.append(('Vop2', op))
        probes.append(w + [0, 0, 0x80, 0x3f]); keys.append(('Vop2', op))   # fmamk/fmaak
    for op in range(256):
        probes.append(le(0x7c000000 | (op << 17) | (20 << 9) | (V + 10), 4)); keys.append(('Vopc', op))
    out = {}
    for k, t in zip(keys, dis(probes)):
        if t and not t.startswith('v_illegal'):
            out.setdefault(k, t.split()[0])
    return out

def scan():
    """Opcodes that decode, with a template: the field values that decode with the most
    operands and no /*Invalid*/ comment."""
    tmpl_list = []
    for c0 in ('V', 'S', '0'):
        for c1 in ('V', 'S', '0'):
            for c2 in ('V', 'S', '0'):
                tmpl_list.append((c0, c1, c2))
    def val(c, f):
        return {'V': V + NUM[f], 'S': NUM[f], '0': 0}[c]
    probes, keys = [], []
    for op in range(1024):
        for t in tmpl_list:
            for vd in (40, 0):
                probes.append(vop3(op, vdst=vd, src0=val(t[0], 'Src0'), src1=val(t[1], 'Src1'), src2=val(t[2], 'Src2')))
                keys.append((op, t, vd))
    res = dis(probes)
    found = {}
    for (op, t, vd), r in zip(keys, res):
        if not r or r.startswith('v_illegal') or r.startswith('v_pk_') or r.startswith('v_dual'):
            continue
        score = (('Invalid' not in r), sum(c != '0' for c in t), vd != 0, sum(c == 'V' for c in t))
        if op not in found or score > found[op][0]:
            found[op] = (score, t, vd, r)
    out = {}
    for op, (score, t, vd, r) in sorted(found.items()):
        if ' v40' not in r and ' s40' not in r and r.split()[0].startswith('v_cmpx'):
            vd = 0x7e           # v_cmpx*_e64 ignores vdst; the assembler writes exec_lo (126)
        kw = dict(vdst=vd)
        for f, c in zip(SRCS, t):
            kw[KW[f]] = val(c, f)
        out[op] = (kw, r)
    return out

# source probes: label -> (source code, literal or None)
INLINE = [0, 1, 64, 65, 80, 112, 113, 128, 129, 192, 193, 208, 209, 235, 236, 237, 238, 239,
          240, 241, 242, 243, 244, 245, 246, 247, 248, 249, 250, 251, 252, 253, 254]
LITS = [0x12345678, 0x3f800000, 0x3c00, 0x40, 0x41, 0xfffffff0, 0xffffffef, 0x3e22f983,
        0x3118, 0x3fc45f30, 0x3ff00000, 0xffff3c00, 0x12340000, 0xbc00, 0x7fff, 0x8000,
        0xfff0, 0xc0800000]
SRC_PROBES = [('c%d' % c, c, None) for c in INLINE] + [('l%08x' % l, LIT, l) for l in LITS]

# Signatures of the source types (printed text of a few probes), named as in gen_table.py's
# src_type() where they match its classes.
TYPE_KEYS = ['c248', 'c242', 'l00003c00', 'l3f800000', 'l12345678', 'l3fc45f30', 'l00000040', 'l00003118', 'lffff3c00', 'lffffffef', 'l3ff00000']

def classify(sig):
    """gen_table.py's src_type() classes, plus two that only v_dot2_bf16_bf16 has:
    PackedBf16 (literal printed as a 32-bit integer -16..64 or hex, never folded to a float)
    and Bf16 (literal: its low 16 bits as an inline integer when they are one, else all 32
    bits in hex)."""
    g = sig.get
    if g('c248') == '0.15915494309189532':
        return 'B64' if g('l00000040') == '64' else 'F64'
    if g('c248') == '0x3118':
        return 'I16'
    if g('l12345678') == '0x5678':
        return 'F16' if g('l00003c00') == '1.0' else 'UNKNOWN'
    if g('l12345678') == '0x12345678':
        if g('l00003c00') == '1.0':
            return 'PackedF16'
        if g('l3f800000') == '1.0':
            return 'B32'
        if g('l3f800000') == '0x3f800000':
            return 'PackedBf16'
        if g('l3f800000') == '0' and g('lffffffef') == '0xffffffef':
            return 'Bf16'
    return 'UNKNOWN'

MOD_PROBES = [('abs0', dict(b8=1)), ('abs1', dict(b8=2)), ('abs2', dict(b8=4)),
              ('op_sel0', dict(b8=8)), ('op_sel1', dict(b8=16)), ('op_sel2', dict(b8=32)), ('op_sel3', dict(b8=64)),
              ('clamp', dict(clamp=1)), ('omod1', dict(omod=1)), ('omod2', dict(omod=2)), ('omod3', dict(omod=3)),
              ('neg0', dict(neg=1)), ('neg1', dict(neg=2)), ('neg2', dict(neg=4))]

def main():
    e32 = e32_names()
    base = scan()
    ops = sorted(base)
    # ---- operand mapping, VOP3SD detection (sdst in bits [14:8]) and wave64 widths
    sd_probe = [vop3(op, b8=NUM['Sdst'], **base[op][0]) for op in ops]
    sd_res = dis(sd_probe)
    w64_res = dis([vop3(op, **base[op][0]) for op in ops], W64)
    records = OrderedDict()
    for op, sdt in zip(ops, sd_res):
        kw, text = base[op]
        name, operands, mods = split(text)
        is_sd = bool(sdt) and any(reg_of(t) == ('s', NUM['Sdst'], reg_of(t)[2]) for t in split(sdt)[1] if reg_of(t))
        fields = []
        for tok in operands:
            r = reg_of(tok)
            f = None
            if r:
                for fn, n in NUM.items():
                    if r[1] == n:
                        f = fn
                if f is None and is_sd and r == ('s', 0, r[2]):
                    f = 'Sdst'            # sdst = 0 in the template
                if f is None and r[1] == 0:
                    f = 'Vdst' if not fields else None
            fields.append((f, tok, r))
        records[op] = dict(op=op, name=name, format='Vop3sd' if is_sd else 'Vop3', template=kw,
                           template_text=text, fields=fields, base_mods=mods)
    # ---- origin
    for op, rec in records.items():
        org = None
        if op < 256:
            org = ('Vopc', op)
        elif 256 <= op < 384:
            org = ('Vop2', op - 256)
        elif 384 <= op < 512:
            org = ('Vop1', op - 384)
        rec['origin'] = None
        if org and org in e32:
            n32 = e32[org]
            stem = n32[:-4] if n32.endswith('_e32') else n32
            mine = rec['name'][:-4] if rec['name'].endswith('_e64') else rec['name']
            if stem == mine:
                rec['origin'] = {'format': org[0], 'opcode': org[1], 'e32_name': n32}
            else:
                rec['origin_mismatch'] = {'format': org[0], 'opcode': org[1], 'e32_name': n32}
    # ---- per-source probes: register classes and constant/literal printing
    probes, keys = [], []
    for op, rec in records.items():
        for f, tok, r in rec['fields']:
            if f not in SRCS:
                continue
            for lab, code, lit in SRC_PROBES + [('sgpr', NUM[f], None), ('vgpr', V + NUM[f], None), ('vgpr200', V + 200, None)]:
                kw = dict(rec['template']); kw[KW[f]] = code
                probes.append(vop3(op, lit=lit, **kw)); keys.append((op, f, lab))
    src_res = dis(probes)
    src_text = {}
    for (op, f, lab), t in zip(keys, src_res):
        rec = records[op]
        if t is None:
            src_text[(op, f, lab)] = None
            continue
        idx = [x[0] for x in rec['fields']].index(f)
        name, operands, mods = split(t)
        src_text[(op, f, lab)] = operands[idx] if idx < len(operands) else t
    # ---- modifier probes
    probes, keys = [], []
    for op, rec in records.items():
        for lab, kw in MOD_PROBES:
            k = dict(rec['template']); k.update(kw)
            probes.append(vop3(op, **k)); keys.append((op, lab))
        # unused source fields / vdst when not printed
        used = {x[0] for x in rec['fields']}
        for f in SRCS:
            if f not in used:
                for code in (1, V + 1, 128):
                    k = dict(rec['template']); k[KW[f]] = code
                    probes.append(vop3(op, **k)); keys.append((op, 'unused_%s=%d' % (f.lower(), code)))
        if 'Vdst' not in used:
            for vd in (1, 0x7e, 0x7c):
                k = dict(rec['template']); k['vdst'] = vd
                probes.append(vop3(op, **k)); keys.append((op, 'unused_vdst=%d' % vd))
    mod_full = dis_full(probes)
    mod_res = {}
    for (op, lab), r in zip(keys, mod_full):
        mod_res[(op, lab)] = r
    # ---- round trip through the assembler of every decoded probe
    rt_in, rt_keys = [], []
    for (op, lab), r in mod_res.items():
        if r:
            rt_in.append(r[0]); rt_keys.append((op, lab, bytes(probes[keys.index((op, lab))])))
    for op, rec in records.items():
        rt_in.append(rec['template_text']); rt_keys.append((op, 'template', bytes(vop3(op, **rec['template']))))
    rt = asm(rt_in)
    rt_map = {}
    for (op, lab, b), r in zip(rt_keys, rt):
        if r[0] == 'ERR':
            rt_map[(op, lab)] = 'asm error: ' + r[1]
        elif bytes(r[0]) == b:
            rt_map[(op, lab)] = 'same bytes'
        else:
            rt_map[(op, lab)] = 'assembles to ' + hexb(r[0])
    # ---- assemble the name without _e64 (and with a modifier) to see which encoding is picked
    nm_in, nm_keys = [], []
    for op, rec in records.items():
        if rec['name'].endswith('_e64'):
            nm_in.append(rec['template_text'].replace('_e64', '', 1)); nm_keys.append(op)
    nm = dict(zip(nm_keys, asm(nm_in)))
    # ---- build records
    out = []
    for op, rec in records.items():
        o = OrderedDict()
        o['op'] = op
        o['name'] = rec['name']
        o['format'] = rec['format']
        o['origin'] = rec['origin']
        if 'origin_mismatch' in rec:
            o['origin_mismatch'] = rec['origin_mismatch']
        o['example'] = rec['template_text']
        o['example_bytes'] = hexb(vop3(op, **rec['template']))
        o['example_roundtrip'] = rt_map[(op, 'template')]
        ops_out = []
        for f, tok, r in rec['fields']:
            d = OrderedDict(field=f)
            if f in ('Vdst', 'Sdst'):
                d['kind'] = {'v': 'vgpr', 's': 'sgpr'}[r[0]] if r else tok
                d['dwords'] = r[2] if r else None
                if r and r[0] == 's':
                    t64 = w64_res[ops.index(op)]
                    if t64:
                        i = [x[0] for x in rec['fields']].index(f)
                        r64 = reg_of(split(t64)[1][i])
                        d['dwords_wave64'] = r64[2] if r64 else None
            elif f in SRCS:
                acc = {}
                for lab in ('vgpr', 'sgpr', 'c129', 'l12345678'):
                    t = src_text.get((op, f, lab))
                    acc[lab] = t is not None and 'Invalid' not in t
                if acc['vgpr'] and not acc['sgpr'] and not acc['c129']:
                    d['kind'] = 'vgpr'
                elif acc['sgpr'] and not acc['vgpr']:
                    d['kind'] = 'sgpr' if not acc['c129'] else 'ssrc'
                else:
                    d['kind'] = 'src'
                d['dwords'] = r[2] if r else None
                if r and r[0] == 's' and f == 'Src2' and d['kind'] == 'sgpr':
                    t64 = w64_res[ops.index(op)]
                    r64 = reg_of(split(t64)[1][[x[0] for x in rec['fields']].index(f)]) if t64 else None
                    d['dwords_wave64'] = r64[2] if r64 else None
                d['accepts'] = acc
                sig = {lab: src_text.get((op, f, lab)) for lab, _, _ in SRC_PROBES}
                if d['kind'] in ('src', 'ssrc'):
                    d['type'] = classify(sig)
                elif d['kind'] == 'vgpr':
                    d['type'] = 'VgprOnly'
                    d['probe_text'] = {k: sig[k] for k in TYPE_KEYS}
                t200 = src_text.get((op, f, 'vgpr200'))
                d['vgpr200'] = t200
            else:
                d['kind'] = 'unmapped'
                d['text'] = tok
            ops_out.append(d)
        o['operands'] = ops_out
        if rec['base_mods']:
            o['always_printed'] = rec['base_mods']
        # modifiers
        mods = OrderedDict()
        base_text = rec['template_text']
        for lab, _ in MOD_PROBES:
            r = mod_res[(op, lab)]
            if r is None:
                mods[lab] = 'rejected (invalid instruction encoding)'
            elif r[0] == base_text:
                mods[lab] = 'ignored (prints as without the bit; llvm-mc re-encodes without it)'
            else:
                mods[lab] = {'text': r[0], 'roundtrip': rt_map.get((op, lab))}
        o['modifiers'] = mods
        summ = OrderedDict()
        srcs = [x[0] for x in rec['fields'] if x[0] in SRCS]
        def printed(lab):
            return isinstance(mods[lab], dict)
        if rec['format'] == 'Vop3':
            summ['abs'] = [printed('abs%d' % i) for i in range(len(srcs))]
            summ['op_sel'] = [printed('op_sel%d' % i) for i in range(4)]
        summ['neg'] = [printed('neg%d' % i) for i in range(len(srcs))]
        summ['neg_prints_as'] = sorted({('sext' if 'sext(' in mods['neg%d' % i]['text'] else 'neg' if 'neg(' in mods['neg%d' % i]['text'] else '-') for i in range(len(srcs)) if printed('neg%d' % i)})
        summ['clamp'] = printed('clamp')
        summ['omod'] = printed('omod1')
        o['modifier_summary'] = summ
        unused = OrderedDict()
        for lab in [k for (opx, k) in mod_res if opx == op and k.startswith('unused_')]:
            r = mod_res[(op, lab)]
            unused[lab] = 'rejected' if r is None else ('ignored' if r[0] == base_text else r[0])
        if unused:
            o['unused_fields'] = unused
        if op in nm:
            r = nm[op]
            o['asm_without_e64'] = ('error: ' + r[1]) if r[0] == 'ERR' else r[1]
        out.append(o)
    counts = Counter(r['format'] for r in out)
    orig = Counter((r['origin'] or {}).get('format', 'VOP3-only') for r in out)
    print(json.dumps(OrderedDict(
        source='llvm-mc-19 -triple=amdgcn -mcpu=gfx1100 (wave32 unless noted)',
        counts=OrderedDict(total=len(out), **{k: v for k, v in sorted(counts.items())},
                           **{'origin_' + k: v for k, v in sorted(orig.items())}),
        type_counts=Counter(d.get('type', d['kind']) for r in out for d in r['operands'] if d['field'] in SRCS),
        ops=out), indent=1))

def examples():
    """The probes quoted in VOP3_NOTES.md: bytes -> printed text, and what llvm-mc-19 assembles
    that text back to ("same" = the probe's bytes).  Lines starting w64: run with wave64."""
    for mattr in (None, W64):
        ex = []
        for l in EXAMPLES.strip().split('\n'):
            l = l.strip()
            if not l or l.startswith('#') or l.startswith('w64:') != bool(mattr):
                continue
            ex.append(l[4:] if mattr else l)
        probes = [eval(l, {'vop3': vop3, 'V': V}) for l in ex]
        res = dis_full(probes, mattr)
        rt = asm([r[0] if r else 'invalid_probe' for r in res], mattr)
        for l, p, r, a in zip(ex, probes, res, rt):
            tag = 'wave64 ' if mattr else ''
            if not r:
                print('%s[%s] -> invalid instruction encoding' % (tag, hexb(p)))
                continue
            same = 'same' if a[0] != 'ERR' and list(a[0]) == p else \
                ('error: ' + a[1] if a[0] == 'ERR' else hexb(a[0]))
            print('%s[%s] -> %s    ; asm: %s' % (tag, hexb(p), r[0], same))

EXAMPLES = '''
# float / integer / f64 source modifiers
vop3(0x103, vdst=5, src0=V+1, src1=V+2, neg=1)
vop3(0x103, vdst=5, src0=V+1, src1=V+2, b8=1)
vop3(0x103, vdst=5, src0=V+1, src1=V+2, b8=1, neg=1)
vop3(0x103, vdst=5, src0=242, src1=V+2, neg=1)
vop3(0x103, vdst=5, src0=129, src1=V+2, neg=1)
vop3(0x103, vdst=5, src0=243, src1=V+2, neg=1)
vop3(0x103, vdst=5, src0=242, src1=V+2, b8=1)
vop3(0x103, vdst=5, src0=242, src1=V+2, b8=1, neg=1)
vop3(0x103, vdst=5, src0=255, src1=V+2, neg=1, lit=0x12345678)
vop3(0x103, vdst=5, src0=255, src1=V+2, b8=1, neg=1, lit=0x12345678)
vop3(0x103, vdst=5, src0=255, src1=V+2, neg=1, lit=0x3f800000)
vop3(0x103, vdst=5, src0=106, src1=V+2, b8=1, neg=1)
vop3(0x327, vdst=4, src0=V+6, src1=V+2, b8=1, neg=1)
vop3(0x327, vdst=4, src0=242, src1=V+2, neg=1)
vop3(0x327, vdst=4, src0=3, src1=V+2, b8=1, neg=1)
vop3(0x327, vdst=4, src0=255, src1=V+2, lit=0x3ff00000)
vop3(0x327, vdst=4, src0=255, src1=V+2, lit=0x12345678)
vop3(0x327, vdst=4, src0=255, src1=V+2, b8=1, neg=1, lit=0x12345678)
vop3(0x32c, vdst=5, src0=V+1, src1=V+2)
vop3(0x32c, vdst=5, src0=V+1, src1=V+2, neg=1)
vop3(0x32c, vdst=5, src0=V+1, src1=V+2, b8=1)
vop3(0x303, vdst=5, src0=V+1, src1=V+2, neg=1, b8=3)
vop3(0x31c, vdst=5, src0=V+1, src1=V+2, neg=2)
vop3(0x31c, vdst=5, src0=V+1, src1=129, neg=2)
vop3(0x31c, vdst=5, src0=V+1, src1=V+2, b8=2)
vop3(0x226, vdst=5, src0=V+1, src1=V+2, src2=V+3, neg=6)
vop3(0x25d, vdst=5, src0=V+1, src1=V+2, src2=106, neg=3, b8=3)
# clamp / omod / op_sel and their order
vop3(0x103, vdst=5, src0=V+1, src1=V+2, clamp=1)
vop3(0x103, vdst=5, src0=V+1, src1=V+2, omod=1)
vop3(0x103, vdst=5, src0=V+1, src1=V+2, omod=2)
vop3(0x103, vdst=5, src0=V+1, src1=V+2, omod=3)
vop3(0x103, vdst=5, src0=V+1, src1=V+2, clamp=1, omod=1)
vop3(0x32c, vdst=5, src0=V+1, src1=V+2, clamp=1)
vop3(0x32c, vdst=5, src0=V+1, src1=V+2, omod=1)
vop3(0x326, vdst=5, src0=V+1, src1=V+2, clamp=1)
vop3(0x12, vdst=5, src0=V+1, src1=V+2, clamp=1)
vop3(0x12, vdst=5, src0=V+1, src1=V+2, omod=1)
vop3(0x248, vdst=5, b8=0x7f, clamp=1, src0=V+1, src1=V+2, src2=V+3, omod=1, neg=7)
vop3(0x248, vdst=5, b8=0x40, src0=V+1, src1=V+2, src2=V+3)
vop3(0x303, vdst=5, b8=0x08, src0=V+1, src1=V+2)
vop3(0x303, vdst=5, b8=0x40, src0=V+1, src1=V+2)
vop3(0x303, vdst=5, b8=0x20, src0=V+1, src1=V+2)
vop3(0x303, vdst=5, b8=0x58, clamp=1, src0=V+1, src1=V+2)
vop3(0x241, vdst=5, b8=0x78, clamp=1, src0=V+1, src1=V+2, src2=V+3)
vop3(0x266, vdst=5, b8=0x20, src0=V+1, src1=V+2, src2=V+3)
vop3(0x266, vdst=5, b8=0x08, src0=V+1, src1=V+2, src2=V+3)
vop3(0x25b, vdst=5, b8=0x18, src0=V+1, src1=2, src2=3)
vop3(0x25b, vdst=5, b8=0x20, src0=V+1, src1=2, src2=3)
vop3(0x132, vdst=5, b8=0x08, src0=V+1, src1=V+2)
vop3(0x103, vdst=5, b8=0x40, src0=V+1, src1=V+2)
vop3(0x2fc, vdst=5, b8=106, clamp=1, src0=V+1, src1=V+2, src2=V+3, omod=2, neg=7)
# literals and inline constants
vop3(0x103, vdst=5, src0=V+1, src1=255, lit=0x12345678)
vop3(0x103, vdst=5, src0=255, src1=255, lit=0x12345678)
vop3(0x213, vdst=5, src0=255, src1=255, src2=255, lit=0x12345678)
vop3(0x213, vdst=5, src0=V+1, src1=V+2, src2=255, lit=0x12345678)
vop3(0x103, vdst=5, src0=255, src1=V+2, lit=0x3f800000)
vop3(0x103, vdst=5, src0=255, src1=V+2, lit=0x3e22f983)
vop3(0x103, vdst=5, src0=248, src1=V+2)
vop3(0x327, vdst=4, src0=248, src1=V+2)
vop3(0x132, vdst=5, src0=248, src1=V+2)
vop3(0x132, vdst=5, src0=255, src1=V+2, lit=0x12345678)
vop3(0x132, vdst=5, src0=255, src1=V+2, lit=0x3118)
vop3(0x132, vdst=5, src0=255, src1=V+2, lit=0x3f800000)
vop3(0x303, vdst=5, src0=242, src1=V+2)
vop3(0x303, vdst=5, src0=255, src1=V+2, lit=0x12345678)
vop3(0x303, vdst=5, src0=255, src1=V+2, lit=0x3f800000)
vop3(0x303, vdst=5, src0=255, src1=V+2, lit=0x3ff00000)
vop3(0x33c, vdst=4, src0=V+1, src1=255, lit=0x40)
vop3(0x33c, vdst=4, src0=V+1, src1=255, lit=0xfffffff0)
vop3(0x33c, vdst=4, src0=V+1, src1=248)
vop3(0x266, vdst=5, src0=255, src1=V+2, src2=V+3, lit=0x3c00)
vop3(0x267, vdst=5, src0=255, src1=V+2, src2=V+3, lit=0x3f800000)
vop3(0x267, vdst=5, src0=V+1, src1=V+2, src2=255, lit=0x3f800000)
vop3(0x267, vdst=5, src0=V+1, src1=V+2, src2=255, lit=0x12345678)
vop3(0x327, vdst=4, src0=1, src1=V+2)
vop3(0x103, vdst=5, src0=254, src1=V+2)
# VOPC e64, cndmask, carries, lanes
vop3(0x4a, vdst=40, src0=V+1, src1=V+2)
vop3(0x4a, vdst=106, src0=V+1, src1=V+2)
vop3(0x4a, vdst=124, src0=V+1, src1=V+2)
vop3(0x4a, vdst=200, src0=V+1, src1=V+2)
vop3(0xca, vdst=0x7e, src0=V+1, src1=V+2)
vop3(0xca, vdst=40, src0=V+1, src1=V+2)
vop3(0x101, vdst=5, src0=V+1, src1=V+2, src2=6)
vop3(0x101, vdst=5, src0=V+1, src1=V+2, src2=106)
vop3(0x101, vdst=5, src0=V+1, src1=V+2, src2=V+3)
vop3(0x101, vdst=5, src0=V+1, src1=V+2, src2=242)
vop3(0x101, vdst=5, src0=V+1, src1=V+2, src2=106, neg=3, b8=3)
vop3(0x101, vdst=5, src0=V+1, src1=V+2, src2=106, b8=4)
vop3(0x300, vdst=5, b8=0, src0=V+1, src1=V+2)
vop3(0x300, vdst=5, b8=106, src0=V+1, src1=V+2)
vop3(0x300, vdst=5, b8=124, src0=V+1, src1=V+2, clamp=1)
vop3(0x120, vdst=5, b8=106, src0=V+1, src1=V+2, src2=106)
vop3(0x120, vdst=5, b8=7, src0=V+1, src1=V+2, src2=9)
vop3(0x120, vdst=5, b8=106, src0=V+1, src1=V+2, src2=129)
vop3(0x2fe, vdst=4, b8=124, src0=V+1, src1=V+2, src2=V+6)
vop3(0x2fe, vdst=4, b8=124, src0=V+1, src1=V+2, src2=7)
vop3(0x2fd, vdst=4, b8=106, src0=V+6, src1=V+8, src2=V+10, neg=1)
vop3(0x360, vdst=5, src0=V+1, src1=3)
vop3(0x360, vdst=5, src0=V+1, src1=129)
vop3(0x360, vdst=5, src0=V+1, src1=255, lit=0x12345678)
vop3(0x360, vdst=5, src0=V+1, src1=V+2)
vop3(0x361, vdst=5, src0=3, src1=125)
vop3(0x361, vdst=5, src0=255, src1=125, lit=0x12345678)
vop3(0x361, vdst=5, src0=V+1, src1=125)
vop3(0x182, vdst=5, src0=V+1)
# unused fields, 16-bit registers, names
vop3(0x103, vdst=5, src0=V+1, src1=V+2, src2=V+3)
vop3(0x181, vdst=5, src0=V+1, src1=V+2)
vop3(0x181, vdst=5, src0=V+1, src1=128)
vop3(0x180)
vop3(0x180, vdst=1)
vop3(0x19b)
vop3(0x303, vdst=200, src0=V+200, src1=V+201)
vop3(0x132, vdst=200, src0=V+200, src1=V+201)
vop3(0x18a, vdst=200, src0=V+200)
vop3(0x19c, vdst=5, src0=V+1)
vop3(0x213, vdst=5, src0=V+1, src1=V+2, src2=V+3)
vop3(0x32c, vdst=5, src0=V+1, src1=V+2)
w64:vop3(0x4a, vdst=40, src0=V+1, src1=V+2)
w64:vop3(0x4a, vdst=106, src0=V+1, src1=V+2)
w64:vop3(0x101, vdst=5, src0=V+1, src1=V+2, src2=6)
w64:vop3(0x101, vdst=5, src0=V+1, src1=V+2, src2=7)
w64:vop3(0x101, vdst=5, src0=V+1, src1=V+2, src2=107)
w64:vop3(0x300, vdst=5, b8=106, src0=V+1, src1=V+2)
w64:vop3(0x120, vdst=5, b8=6, src0=V+1, src1=V+2, src2=8)
w64:vop3(0x360, vdst=5, src0=V+1, src1=3)
'''

if __name__ == '__main__':
    if '--examples' in sys.argv:
        examples()
    else:
        main()
