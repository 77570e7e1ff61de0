#!/usr/bin/env python3
# Copyright 2026 The Panfrost fork authors
# SPDX-License-Identifier: MIT
"""Check our Bifrost/Valhall and Midgard ISA libraries on real machine code.

The base's stock compiler (built under tests/oracle only) compiles a corpus
of .shader_test files for a Bifrost and a Valhall GPU into a temporary
directory.  Every binary is then disassembled with our pan-disasm, which
must decode every instruction (no .quad/.word/extra: fallbacks), and
assembled back with pan-asm, which must give the same bytes.  Our text is
also compared, instruction by instruction, with the stock disassembler's:
mnemonic, modifiers and operands on Valhall; mnemonic, destination and
source operands (registers, FAU words, constants, temporaries) on Bifrost.
With --family=midgard the stock Midgard compiler does the same for T720
(v4) and T860 (v5); there the comparison covers every ALU, branch,
load/store and texture instruction: opcode (through MID_STOCK_NAMES) with
its lane-width suffix, destination and source registers with their
swizzles, write masks, source and output modifiers, half/full selects and
widening (our fields rendered in the stock spelling, see mid_render_alu),
immediates by value, the data operand of load/stores, the output and input
operands of texture words, and branch offsets.  Trailing all-zero quadwords (the stock compiler's padding)
are counted and cut before our tools see the binary.
Nothing the stock compiler produces is kept.
"""

import argparse
import collections
import concurrent.futures
import os
import re
import struct
import subprocess
import sys
import tempfile

FAMILIES = {'bifrost': {0x7212: 'v7', 0x9093: 'v9'},
            'midgard': {0x720: 'v4', 0x860: 'v5'}}
STAGES = {'vertex shader': 'vert', 'fragment shader': 'frag',
          'compute shader': 'comp'}
OTHER_STAGES = ('geometry shader', 'tessellation control shader',
                'tessellation evaluation shader', 'vertex shader passthrough',
                'vertex program', 'fragment program')
FALLBACK = re.compile(r'^\s*\.(quad|word)\b|\bextra:')


def split_shader_test(path):
    """Return ([(ext, source)], None) or (None, reason)."""
    with open(path, errors='replace') as f:
        text = f.read()
    sources, current, skip = [], None, None
    for line in text.splitlines(keepends=True):
        m = re.match(r'^\s*\[(.*)\]\s*$', line)
        if m:
            name = m.group(1).strip().lower()
            current = None
            if name in STAGES:
                current = [STAGES[name], '']
                sources.append(current)
            elif name in OTHER_STAGES:
                skip = 'stage not handled by the oracle: ' + name
            continue
        if current is not None:
            current[1] += line
    if skip:
        return None, skip
    if not sources:
        return None, 'no vertex/fragment/compute shader'
    return [(e, s) for e, s in sources], None


def compile_one(args, path, work):
    sources, reason = split_shader_test(path)
    if sources is None:
        return path, None, reason
    os.makedirs(work, exist_ok=True)
    names = []
    for i, (ext, src) in enumerate(sources):
        name = os.path.join(work, f'{i}.{ext}')
        with open(name, 'w') as f:
            f.write(src)
        names.append(name)
    gpus = ','.join(hex(g) for g in FAMILIES[args.family])
    try:
        p = subprocess.run([args.compiler, 'compile', '--out=' + work,
                            '--gpu=' + gpus] + names,
                           capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return path, None, 'stock compiler timed out'
    if p.returncode:
        if p.returncode == 3:
            err = [ln for ln in p.stdout.splitlines() if 'error' in ln]
            msg = err[0] if err else 'link failure'
            msg = re.sub(r'^\d+:\d+\(\d+\): ', '', msg)
            return path, None, 'GLSL front end: ' + msg[:90]
        tail = (p.stderr.strip().splitlines() or ['?'])[-1]
        tail = re.sub(r'^.*Assertion', 'Assertion', tail)
        return path, None, f'stock compiler died ({p.returncode}): {tail[:100]}'
    bins = sorted(f for f in os.listdir(work) if f.endswith('.bin'))
    return path, [os.path.join(work, b) for b in bins], None


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, **kw)


def check_binary(args, path):
    """Decode, re-assemble and compare one binary; returns a result dict."""
    gpu = int(path[-8:-4], 16)
    arch = FAMILIES[args.family][gpu]
    res = {'arch': arch, 'insts': 0, 'padding': 0, 'fallbacks': [],
           'roundtrip': True,
           'errors': [], 'stock': None}
    with open(path, 'rb') as f:
        orig = f.read()
    if arch in ('v4', 'v5'):
        # Zero quadwords after the last bundle: padding, not bundles.
        n = len(orig)
        while n >= 16 and orig[n - 16:n] == bytes(16):
            n -= 16
        res['padding'] = (len(orig) - n) // 16
        orig = orig[:n]
        path = path + '.trim'
        with open(path, 'wb') as f:
            f.write(orig)
    p = run([args.disasm, '--arch=' + arch, path], text=True)
    if p.returncode:
        res['errors'].append('pan-disasm failed: ' + p.stderr.strip())
        return res
    ours = p.stdout
    # The stock compiler pads programs (and the programs it places one
    # after the other) with zero bytes; those words are not instructions.
    for line in ours.splitlines():
        if is_padding(line):
            res['padding'] += 1
        elif FALLBACK.search(line) or (arch in ('v4', 'v5') and
                                       line.strip().startswith('.raw')):
            res['fallbacks'].append(line.strip())
        else:
            res['insts'] += count_insts(arch, line)
            if arch in ('v4', 'v5') and line[:1].isalpha():
                res['bundles'] = res.get('bundles', 0) + 1
    txt = path + '.s'
    with open(txt, 'w') as f:
        f.write(ours)
    out = path + '.re'
    p = run([args.asm, '--arch=' + arch, '-o', out, txt], text=True)
    again = b''
    if p.returncode == 0:
        with open(out, 'rb') as f:
            again = f.read()
    if again != orig:
        res['roundtrip'] = False
        res['errors'].append('round trip differs' +
                             (': ' + p.stderr.strip() if p.returncode else ''))
    p = run([args.compiler, 'disasm', f'--gpu={gpu:#x}', path], text=True,
            errors='replace', timeout=60)
    if p.returncode == 0:
        res['stock'] = compare(arch, ours, p.stdout)
    else:
        res['errors'].append(f'stock disassembler failed ({p.returncode})')
    return res


def is_padding(line):
    """How our disassembler prints an all-zero word (v9) or quadword."""
    return bool(re.match(r'^\s*\.quad 0x0+ 0x0+\s*$', line) or
                re.match(r'^\s*\.word 0x0+\s*$', line) or
                re.match(r'^\s*nop extra:0xc00000000000\s*$', line))


def count_insts(arch, line):
    s = line.strip()
    if not s or s.startswith(';') or s.startswith('.') or \
            s.startswith('clause') or s.startswith('const'):
        return 0
    if arch == 'v9':
        return 1
    if arch in ('v4', 'v5'):
        return 1 if line[:1].isspace() and s != MID_LS_EMPTY and \
            not s.startswith('consts') else 0
    return 2 if '|' in s else 0


# ----- comparison with the stock disassembler's text -----

def norm_va(line):
    """Mnemonic and operand list of a Valhall line, either syntax."""
    s = line.strip()
    if not s:
        return None
    op, _, rest = s.partition(' ')
    ops = [o.strip() for o in rest.split(',')] if rest.strip() else []
    return op.lower(), [o.lower() for o in ops]


def compare(arch, ours, stock):
    if arch in ('v4', 'v5'):
        return compare_mid(ours, stock, arch)
    if arch == 'v9':
        return compare_va(ours, stock)
    return compare_bi(ours, stock)


# Modifier spellings that differ between our syntax and the stock
# disassembler's for the same bits (ours -> stock).
VA_MOD_ALIASES = {
    'srcfmt=7': 'explicit_store',
    'r16': '16',
    'r32': '32',
}


def va_operand(o):
    """Normalise one operand: register groups, immediates, numbers."""
    o = o.strip().lower()
    m = re.fullmatch(r'\{r(\d+):(\d+)\}(.*)', o)
    if m:
        first, n = int(m.group(1)), int(m.group(2))
        return ':'.join(f'r{first + i}' for i in range(n)) + m.group(3)
    if o.startswith('@'):
        o = o[1:]
    o = re.sub(r'^[a-z_]+:(?=[-#0-9])', '', o)
    if o.startswith('#'):
        o = o[1:]
    head, dot, tail = o.partition('.')
    try:
        return str(int(head, 0)) + dot + tail
    except ValueError:
        return o


def va_key(ins, ours):
    op, ops = ins
    mods = op.split('.')
    if ours:
        mods = [VA_MOD_ALIASES.get(m, m) for m in mods]
    return (mods[0], tuple(sorted(mods[1:])),
            tuple(va_operand(o) for o in ops))


def compare_va(ours, stock):
    a = [norm_va(ln) for ln in ours.splitlines()]
    b = [norm_va(ln) for ln in stock.splitlines()]
    a = [x for x in a if x]
    b = [x for x in b if x]
    # The stock text stops at the first all-zero word.
    a = a[:len(b)]
    diffs = []
    for x, y in zip(a, b):
        dx, dy = va_key(x, True), va_key(y, False)
        if dx != dy:
            diffs.append(va_diff_kind(dx, dy))
    return {'compared': min(len(a), len(b)), 'diffs': diffs}


def va_diff_kind(x, y):
    """Summarise a disagreement so that equal causes are counted once."""
    if x[0] != y[0]:
        return (f'mnemonic {x[0]}', f'mnemonic {y[0]}')
    if x[1] != y[1]:
        a, b = set(x[1]), set(y[1])
        return (f'{x[0]} modifiers {sorted(a - b)}',
                f'{y[0]} modifiers {sorted(b - a)}')
    if len(x[2]) != len(y[2]):
        return (f'{x[0]} {len(x[2])} operands', f'{y[0]} {len(y[2])} operands')
    i = next(i for i in range(len(x[2])) if x[2][i] != y[2][i])
    return (f'{x[0]} operand {i} {x[2][i]}', f'{y[0]} operand {i} {y[2][i]}')


BI_FAU_NAMES = ('lane_id', 'warp_id', 'core_id', 'framebuffer_size',
                'atest_datum', 'sample')


def bi_operand(o, dest):
    """Normalise one Bifrost operand of either text: the base operand,
    without source modifiers; None for a wildcard (our selector names, the
    stock text's branch targets)."""
    o = re.sub(r'\s+', '', o.lower())
    if re.fullmatch(r'port[0-2]|fau_(lo|hi)', o) or o.startswith('clause_'):
        return None
    m = re.fullmatch(r'(r\d+):t[01](\.h[01])?', o)
    if m:
        return 'r' + m.group(1)[1:] + (m.group(2) or '')
    m = re.fullmatch(r'#?(0x[0-9a-f]+)(\..*)?', o)
    if m:
        return '#%#010x' % int(m.group(1), 16)
    parts = o.split('.')
    head = parts[0]
    half = parts[1] if len(parts) > 1 else ''
    half = {'x': 'w0', 'y': 'w1'}.get(half, half)
    if head == '#0' and half in ('w0', 'w1'):
        return 'special0.' + half
    if re.fullmatch(r'u\d+|special\d+|blend_descriptor_\d', head) or \
            head in BI_FAU_NAMES:
        return head + '.' + half
    if dest and re.fullmatch(r'r\d+', head) and half in ('h0', 'h1'):
        return head + '.' + half    # a half-register write (ours)
    return head


# Sources the encoding fixes to zero: the stock text prints them (#0), our
# description folds them into the opcode bits.  Operand index, counting
# the destination.
BI_STOCK_FIXED_SOURCE = {'arshift': 2}


def bi_split(text):
    name, _, rest = text.strip().partition(' ')
    ops = [x.strip() for x in rest.split(',')] if rest.strip() else []
    return name.lower().split('.')[0], ops


def bi_ins_ours(ours):
    """(mnemonic, operands) of every FMA and ADD instruction, in order."""
    res = []
    for line in ours.splitlines():
        s = line.strip()
        if '|' not in s or s.startswith(';'):
            continue
        parts = s.split('|')
        for text in parts[:2]:
            name, ops = bi_split(text)
            if name == '' or name.startswith('.'):
                name, ops = '.word', []
            res.append((name, ops))
    return res


def bi_ins_stock(stock):
    res = []
    for line in stock.splitlines():
        s = line.strip()
        if s[:1] in '*+' and len(s) > 1:
            s = re.sub(r'/\*.*?\*/', '', s[1:])
            name, ops = bi_split(s)
            # Staging registers come from the clause header in our text.
            ops = [o.replace('(invalid)', '') for o in ops
                   if not o.startswith('@')]
            if name in BI_STOCK_FIXED_SOURCE and \
                    len(ops) > BI_STOCK_FIXED_SOURCE[name]:
                del ops[BI_STOCK_FIXED_SOURCE[name]]
            res.append((name, ops))
    return res


def bi_diff(x, y):
    if x[0] != y[0]:
        return (f'mnemonic {x[0]}', f'mnemonic {y[0]}')
    a = [bi_operand(o, i == 0) for i, o in enumerate(x[1])]
    b = [bi_operand(o, i == 0) for i, o in enumerate(y[1])]
    if len(a) != len(b):
        return (f'{x[0]} {len(a)} operands', f'{y[0]} {len(b)} operands')
    for i, (p, q) in enumerate(zip(a, b)):
        if p is not None and q is not None and p != q:
            what = 'destination' if i == 0 else f'operand {i}'
            return (f'{x[0]} {what} {p}', f'{y[0]} {what} {q}')
    return None


def compare_bi(ours, stock):
    a, b = bi_ins_ours(ours), bi_ins_stock(stock)
    # The stock text stops at the first zero word: the end of the first
    # of the programs a binary may hold.
    a = a[:len(b)]
    diffs = [d for d in (bi_diff(x, y) for x, y in zip(a, b)) if d]
    return {'compared': min(len(a), len(b)), 'diffs': diffs}


# ----- Midgard -----

# The empty load/store slot (word 3): the stock text leaves it out.
MID_LS_EMPTY = 'ls.nop swz=xxxx'
MID_ALU_UNITS = ('vmul', 'sadd', 'vadd', 'smul', 'lut')

# Our opcode names -> the stock disassembler's, where they differ (lower
# case; ALU names without their lane-width suffix).  Our names follow the
# opcode's meaning (the i prefix of integer ops, one name per comparison,
# the load/store type in the name); the stock text splits some of that into
# dotted modifiers.  A load/store or texture name matches when the stock
# one is this name or starts with it and a dot (the stock text appends
# attribute-table and texture-dimension modifiers).
MID_STOCK_NAMES = {
    # ALU: integer ops without the i, comparisons and selects as modifiers
    'imov': 'mov', 'iadd': 'add', 'iand': 'and', 'iandnot': 'andnot',
    'inor': 'nor', 'iornot': 'ornot', 'ishl': 'shl', 'iasr': 'asr',
    'ieq': 'cmp.eq', 'ine': 'cmp.ne', 'ilt': 'cmp.lt', 'ile': 'cmp.le',
    'iball_eq': 'cmp.all.eq',
    'feq': 'fcmp.eq', 'fne': 'fcmp.ne', 'flt': 'fcmp.lt', 'fle': 'fcmp.le',
    'icsel': 'csel.scalar', 'fcsel': 'fcsel.scalar', 'f2i_rtz': 'f2i.rtz',
    # load/store: the type as a modifier
    'ld_attr_32': 'ld_attr.f32', 'ld_attr_32i': 'ld_attr.s32',
    'ld_vary_32': 'ld_vary.f32', 'ld_vary_32u': 'ld_vary.u32',
    'st_vary_32': 'st_vary.f32', 'ld_ubo_32': 'ld_ubo.32',
    'ld_ubo_64': 'ld_ubo.64', 'ld_ubo_128': 'ld_ubo.128',
    'ld_128': 'ld.128', 'st_128': 'st.128',
    'ld_cubemap_coords': 'cubemap.f32',
    # texture operations
    'normal': 'tex', 'gradient': 'tex_grad', 'deriv': 'derivative',
    # branch operations (the stock text's third dotted part)
    'writeout': 'write',
}


def mid_reg(o):
    """Register number of a stock ALU operand, 'const' for constants and
    immediates, None when it is no register."""
    o = o.strip()
    if o.startswith(('#', '<')):
        return 'const'
    m = re.match(r'(R|TMP|AL|AT|TA|U|PC_SP)(\d*)', o)
    if not m:
        return None
    n = int(m.group(2) or 0)
    return {'R': n, 'TMP': 24 + n, 'AL': 26 + n, 'AT': 28 + n,
            'TA': 28 + n, 'U': 23 - n, 'PC_SP': 31}[m.group(1)]


def mid_ins_ours(text):
    res = []
    for line in text.splitlines():
        s = line.split(';')[0].strip()
        if not line[:1].isspace() or not s or s == MID_LS_EMPTY or \
                s.startswith('consts'):
            continue
        toks = s.split()
        unit, _, op = toks[0].partition('.')
        f = {}
        for t in toks[1:]:
            k, _, v = t.partition('=')
            f[k] = v if v else True
        res.append((unit, op, f))
    return res


def mid_ins_stock(text):
    res = []
    for line in text.splitlines():
        s = re.sub(r'/\*.*?\*/', '', line).strip()
        if not s or s in ('writeout', 'break') or \
                s.startswith(('uconstants', 'unknown', 'Unknown')):
            continue
        name, _, rest = s.partition(' ')
        # Vector constants print as <#a, #b, ...>: one operand.
        ops, depth, cur = [], 0, ''
        for ch in rest:
            depth += {'<': 1, '>': -1}.get(ch, 0)
            if ch == ',' and depth == 0:
                ops.append(cur.strip())
                cur = ''
            else:
                cur += ch
        if cur.strip():
            ops.append(cur.strip())
        res.append((name, ops))
    return res


# ----- Midgard operands in the stock spelling -----
#
# Our text names raw fields (mode=, mask=, aswz=, amod=, ...); the stock
# disassembler folds them into dotted suffixes on registers.  To compare
# the two, each of our instructions is rendered the way the stock text
# spells the same bits (MID_* tables and mid_render_* below), and the stock
# operands are split into a register number and that suffix.  The mapping:
#
#   mode=m8..m64 (+ int/float result)  opcode suffix .i8/.f16/.i32/.f64
#   mask= + shrink=                    destination letters (xyzw; efgh...
#                                      for shrink=hi, X/Y in 64-bit mode)
#   omod= (float)                      .clamp_0_inf/.clamp_m1_1/.clamp_0_1
#   omod= (int, shrinking)             .ssat/.usat/.keeplo/.keephi
#   aswz=/bswz= + aexp=/bexp=          source letters, only for lanes the
#                                      mask (or the dot product) reads
#   amod= abs/neg/negabs               .abs/.neg after the letters
#   aexp=widelo.. (float)              .widen; (int) amod= as .sext/.zext/
#                                      .replicate/.lshift
#   bimm + b=, bexp=, bswz=            #N (int) or #half-float
#   dfull/dcomp=, afull/acomp=         .x-.w (full) or .x-.p (half)
#   ls reg=/mask=/swz=                 first operand, ~ for masked lanes
#   tx outsel/mask/outfull/stype/omod  TA0.xyz.f32 ...; inswz/inupper/infull

MID_COMP = 'xyzwefghijklmnop'
MID_BITS = {'m8': 8, 'm16': 16, 'm32': 32, 'm64': 64}
MID_FMODS = {'abs': '.abs', 'neg': '.neg', 'negabs': '.abs.neg'}
MID_IMODS = {'sext': '.sext', 'zext': '.zext', 'rep': '.replicate',
             'lsl': '.lshift'}
MID_FOMODS = {None: '', 'pos': '.clamp_0_inf', 'sat_signed': '.clamp_m1_1',
              'sat': '.clamp_0_1'}
MID_IOMODS = {'ssat': '.ssat', 'usat': '.usat', 'keeplo': '.keeplo',
              'keephi': '.keephi'}
MID_EXPANDS = ('widelo', 'widehi', 'widelo_swap', 'widehi_swap')
# Ops whose result type differs from their source type (stock: converts).
MID_CONVERTS = re.compile(r'^(feq|fne|flt|fle|fb(all|any)_.*|[fiu]2[fiu].*)$')
MID_DOT_LANES = {'fdot3': 3, 'fdot3r': 3, 'fdot4': 4}
for _c in ('eq', 'neq', 'lt', 'lte'):
    MID_DOT_LANES['fball_' + _c] = MID_DOT_LANES['fbany_' + _c] = 4
for _c in ('eq', 'neq', 'lt', 'lte'):
    for _p in ('iball_', 'ibany_', 'uball_', 'ubany_'):
        MID_DOT_LANES[_p + _c] = 4


def mid_is_int(op):
    return op[:1] in 'iu'


def mid_int_out(op):
    return mid_is_int(op) != bool(MID_CONVERTS.match(op))


def mid_swz(v):
    return sum('xyzw'.index(c) << (2 * i) for i, c in enumerate(v))


def mid_vec_selectors(swz, bits, offset, mask, moff):
    out, skip = '', max(bits // 16, 1)
    for i in range(4):
        if mask & (1 << moff[0]):
            c = (swz >> (2 * i)) & 3
            if bits == 8:
                c *= 2
            c += offset
            out += MID_COMP[c] + (MID_COMP[c + 1] if bits == 8 else '')
        moff[0] += skip
    return out


def mid_vec_swizzle(swz, exp, bits, mask):
    """Letters of a source swizzle as the stock text prints them."""
    expands = exp in ('widelo', 'widehi')
    b = bits // 2 if expands else bits
    first, second = 0, (128 // b) // 2
    if exp is None:
        if swz == 0xe4:
            return ''
    elif exp == 'widelo':
        second //= 2
    elif exp == 'widehi':
        first = second
        second += second // 2
    elif exp == 'replo':
        second = 0
    elif exp == 'rephi':
        first = second
    elif exp == 'swap':
        first, second = second, 0
    elif exp == 'widelo_swap':
        first, second = second // 2, 0
    elif exp == 'widehi_swap':
        first = second + second // 2
    if bits == 64:
        out, i, bit = '', first, 0
        while i < 4:
            if mask & (1 << bit):
                a = (swz >> (2 * i)) & 3
                if expands:
                    out += MID_COMP[(a + (2 if exp == 'widehi' else 0)) // 2]
                else:
                    nb = (swz >> (2 * (i + 1))) & 3
                    out += ('Y' if a >> 1 else 'X') if nb == a + 1 else \
                        '[%s%s]' % (MID_COMP[a], MID_COMP[nb])
            i += 1 if expands else 2
            bit += 4
        return '.' + out
    moff = [0]
    out = mid_vec_selectors(swz, bits, first, mask, moff)
    if bits in (8, 16):
        out += mid_vec_selectors(swz, bits, second, mask, moff)
    return '.' + out


def mid_alu_mask(mask, bits, shrink):
    if shrink == 'none' and mask == 0xff:
        return ''
    skip, out, tripped = max(bits // 16, 1), '.', False
    alpha = MID_COMP[128 // bits:] if shrink == 'hi' else MID_COMP
    for i in range(0, 8, skip):
        a = bool(mask & (1 << i))
        tripped |= any(bool(mask & (1 << (i + j))) != a
                       for j in range(1, skip))
        if a:
            ci = i * 2 if bits == 8 else i
            out += alpha[ci // skip] + (alpha[ci + 1] if bits == 8 else '')
    return out + (' /* %X */' % mask if tripped else '')


def mid_outmod(omod, int_out, half):
    if int_out and not half:
        return ''
    pre = '.shrink' if not int_out and half else ''
    return pre + (MID_IOMODS[omod or 'ssat'] if int_out else MID_FOMODS[omod])


def mid_srcmod(is_int, expands, mod):
    if is_int:
        return MID_IMODS[mod or 'sext'] if expands else ''
    return MID_FMODS.get(mod, '') + ('.widen' if expands else '')


def mid_half(v):
    return '%g' % struct.unpack('<e', struct.pack('<H', v))[0]


def mid_render_alu(unit, op, f):
    """(stock mnemonic, [(register or 'const' or None, suffix)...])."""
    scalar = unit in ('sadd', 'smul')
    bits = 32 if scalar else MID_BITS[f.get('mode', 'm32')]
    name = MID_STOCK_NAMES.get(op, op) + '.%s%d' % (
        'i' if mid_int_out(op) else 'f', bits)
    is_int = mid_is_int(op)
    reg = lambda k: int(f.get(k, 'r0')[1:])
    omod = f.get('omod')
    if scalar:
        full = 'dfull' in f
        c = int(f.get('dcomp', 0))
        dest = (reg('d'), '.' + MID_COMP[c >> 1 if full else c] +
                mid_outmod(omod, mid_int_out(op), not full))
    else:
        mask, shrink = int(f.get('mask', '0xff'), 0), f.get('shrink', 'none')
        dest = (reg('d'), mid_alu_mask(mask, bits, shrink) +
                mid_outmod(omod, mid_int_out(op), shrink != 'none'))
        rep = MID_DOT_LANES.get(op)
        src_mask = mask
        if rep:
            per = 128 // bits
            src_mask = 0
            for i in range(rep):
                src_mask |= ((1 << (8 // per)) - 1) << (i * (8 // per))
    ops = [dest]
    for s in 'ab':
        r = reg(s)
        if s == 'b' and 'bimm' in f:
            if scalar:
                full = 1 if 'bfull' in f else 0
                mod = [None, 'abs', 'neg', 'negabs'].index(f['bmod']) \
                    if 'bmod' in f and not is_int else \
                    (['sext', 'zext', 'rep', 'lsl'].index(f['bmod'])
                     if 'bmod' in f else 0)
                src = mod | full << 2 | int(f.get('bcomp', 0)) << 3 | \
                    int(f.get('bhi', '0'), 0) << 6
                imm = r << 11 | (src & 3) << 9 | (src & 4) << 6 | \
                    (src & 0x38) << 2 | src >> 6
            else:
                ex = ['None', 'replo', 'rephi', 'swap', 'widelo', 'widehi',
                      'widelo_swap', 'widehi_swap'].index(f.get('bexp',
                                                                'None'))
                imm = r << 11 | ex << 8 | mid_swz(f.get('bswz', 'xyzw'))
            ops.append(('const', '#%u' % imm if is_int else
                        '#' + mid_half(imm)))
            continue
        if r == 26:
            ops.append(('const', ''))
            continue
        mod = f.get(s + 'mod')
        if scalar:
            full = s + 'full' in f
            c = int(f.get(s + 'comp', 0))
            suffix = '.' + MID_COMP[c >> 1 if full else c] + \
                mid_srcmod(is_int, not full, mod)
        else:
            exp = f.get(s + 'exp')
            suffix = mid_vec_swizzle(mid_swz(f.get(s + 'swz', 'xyzw')), exp,
                                     bits, src_mask)
            if s == 'a' and op in ('ishladd', 'ishlsub'):
                suffix += '.x2'
            suffix += mid_srcmod(is_int, exp in MID_EXPANDS, mod)
        ops.append((r, suffix))
    return name, ops


MID_LS_READ = {0: 26, 1: 27, 2: 31}


def mid_render_ls(op, f, value):
    """The first operand of a load/store as the stock text prints it."""
    r, mask = int(f.get('reg', 'r0')[1:]), int(f.get('mask', '0'), 0)
    swz = mid_swz(f.get('swz', 'xyzw'))
    if 0xc0 <= value <= 0xdb:          # stores read AL0/AL1 (0/1)
        m = 0
        for i in range(4):
            if mask & (1 << i):
                m |= 3 << (2 * i)
        return (MID_LS_READ.get(r, 'ls%d' % r),
                mid_vec_swizzle(swz, None, 32, m))
    if (0x04 <= value <= 0x13 and value not in (0x0c, 0x0d)) or \
            0x40 <= value < 0x80:
        swz = 0xe4
    return (r, '.' + ''.join(MID_COMP[(swz >> (2 * i)) & 3]
                             if mask & (1 << i) else '~' for i in range(4)))


def mid_render_tx(f, arch):
    """Output and input operands of a texture word, stock style."""
    outbase, inbase = (26, 0) if arch == 'v4' else (28, 28)
    mask, up = int(f.get('mask', '0xf'), 0), 'outupper' in f
    if mask == 0xf:
        m = "'" if up else ''
    else:
        m = '.' + ''.join(MID_COMP[i + (4 if up else 0)]
                          for i in range(4) if mask & (1 << i))
    st = f.get('stype')
    out = m + '.%s%d' % ('f' if st == 'float' else 'i',
                         32 if 'outfull' in f else 16)
    if st == 'float':
        out += MID_FOMODS[f.get('omod')]
    inp = mid_vec_swizzle(mid_swz(f.get('inswz', 'xyzw')),
                          'widehi' if 'inupper' in f else None, 32, 0xff)
    inp += '.32' if 'infull' in f else '.16'
    return [(outbase + ('outsel' in f), out),
            (inbase + ('insel' in f), inp)]


def mid_stock_operand(o):
    """(register number or 'const', suffix) of one stock operand."""
    o = re.sub(r'/\*.*?\*/', '', o).strip()
    if o.startswith(('#', '<')):
        return ('const', o if o.startswith('#') else '')
    m = re.match(r'(R|TMP|AL|AT|TA|U|PC_SP)(\d*)(.*)$', o)
    if not m:
        return (None, o)
    return (mid_reg(m.group(1) + m.group(2)), m.group(3))


def mid_key_ours(ins, arch):
    unit, op, f = ins
    if unit in MID_ALU_UNITS:
        name, ops = mid_render_alu(unit, op, f)
        return ('alu', name, tuple(ops))
    if unit in ('br', 'brx'):
        return (unit, MID_STOCK_NAMES.get(op, op), int(f.get('offset', 0)))
    return (unit, MID_STOCK_NAMES.get(op, op), dict(f, op=op))


def mid_key_stock(ins, kind):
    """The stock instruction read as the kind our text says it is."""
    name, ops = ins
    base = name.lower()
    if kind in ('br', 'brx'):
        # brx[.call].OP.COND +N -> tag
        parts = base.split('.')
        op = parts[-2] if len(parts) >= 3 else parts[-1]
        m = re.search(r'([+-]\d+) ->', ' '.join(ops))
        return (kind, op, int(m.group(1)) if m else None)
    if kind == 'alu' and len(ops) == 3:
        # The constant's value is checked through the immediate only.
        return ('alu', base, tuple(mid_stock_operand(o) for o in ops))
    return (kind, base, [mid_stock_operand(o) for o in ops])


def mid_ldst_values():
    """Load/store opcode values by name, from our ISA description."""
    isa = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..',
                       '..', 'src', 'panfrost', 'isa')
    sys.path.insert(0, isa)
    import midgard_isa
    sys.path.remove(isa)
    return {o.name: o.value for o in midgard_isa.LDST_OPS}


MID_LS_VALUES = mid_ldst_values()


def compare_mid(ours, stock, arch):
    fields = [0]
    a = [mid_key_ours(x, arch) for x in mid_ins_ours(ours)]
    b = mid_ins_stock(stock)
    # The stock text may stop early at a break.
    a = a[:len(b)]
    diffs = []
    if len(a) != len(b):
        diffs.append((f'{len(a)} instructions', f'{len(b)} instructions'))
    for x, y in zip(a, b):
        y = mid_key_stock(y, x[0])
        if x[0] in ('ls', 'tx'):
            if y[1] == x[1] or y[1].startswith(x[1] + '.'):
                y = (x[0], x[1]) + y[2:]
            if x[1] != y[1]:
                diffs.append((f'{x[0]} opcode {x[1]}',
                              f'{y[0]} opcode {y[1]}'))
                continue
            f, ops = x[2], y[2]
            if x[0] == 'ls':
                value = MID_LS_VALUES.get(f['op'])
                want = [mid_render_ls(f['op'], f, value)]
                if value == 0x03 or value == 0xfc:
                    want = []
            else:
                want = mid_render_tx(f, arch)
                # The input comes after the texture and sampler handles.
                ops = ops[:1] + [o for o in ops[1:]
                                 if o[0] is not None][:1]
                if f['op'] in ('barrier',):
                    want = []
            fields[0] += len(want)
            got = ops[:len(want)]
            for w, g in zip(want, got):
                if w != g:
                    diffs.append((f'{x[0]}.{f["op"]} {w}',
                                  f'{y[1]} {g}'))
            continue
        if x[:2] != y[:2]:
            diffs.append((f'{x[0]} opcode {x[1]}', f'{y[0]} opcode {y[1]}'))
            continue
        if x[0] == 'alu':
            fields[0] += 1 + len(x[2])
            for i, (w, g) in enumerate(zip(x[2], y[2])):
                # Embedded constants are compared as such (an immediate
                # by value).
                if w != g and not (w == ('const', '') and g[0] == 'const'):
                    diffs.append((f'{x[1]} operand {i} {w}',
                                  f'{g}'))
        elif x != y:
            diffs.append((str(x), str(y)))
    return {'compared': min(len(a), len(b)), 'diffs': diffs,
            'fields': fields[0]}


def corpus_tests(corpus, missing):
    """The .shader_test files of the corpus arguments (directories walked),
    sorted; a corpus that is not there is appended to missing."""
    tests = []
    for c in corpus:
        if not os.path.exists(c):
            missing.append(f'corpus not found at {os.path.normpath(c)}')
        elif os.path.isdir(c):
            for root, _, files in os.walk(c):
                tests += [os.path.join(root, f) for f in files
                          if f.endswith('.shader_test')]
        elif c.endswith('.shader_test'):
            tests.append(c)
    return sorted(tests)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--compiler', required=True)
    ap.add_argument('--disasm', required=True)
    ap.add_argument('--asm', required=True)
    ap.add_argument('--family', choices=sorted(FAMILIES), default='bifrost')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 2)
    ap.add_argument('--keep', help='keep the work directory here')
    ap.add_argument('--limit', type=int, default=0)
    ap.add_argument('--verbose', action='store_true')
    ap.add_argument('--missing', action='append', default=[],
                    help='a corpus the build could not find, and why')
    ap.add_argument('corpus', nargs='+',
                    help='.shader_test files or directories')
    # (--keep DIR keeps the stock output for debugging; never commit it.)
    args = ap.parse_args()

    # A corpus that is not there fails the test with the reason, after the
    # rest has been checked: the oracle must not shrink unnoticed.
    missing = list(args.missing)
    tests = corpus_tests(args.corpus, missing)
    if args.limit:
        tests = tests[:args.limit]

    work = args.keep or tempfile.mkdtemp(prefix='pan-oracle-')
    os.makedirs(work, exist_ok=True)
    failures = collections.Counter()
    per_arch = collections.defaultdict(collections.Counter)
    bins = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        futs = [ex.submit(compile_one, args, t, os.path.join(work, str(i)))
                for i, t in enumerate(tests)]
        for f in futs:
            path, out, reason = f.result()
            if reason:
                failures[reason] += 1
                if args.verbose:
                    print(f'skip {path}: {reason}')
            else:
                bins += out
        results = list(ex.map(lambda b: (b, check_binary(args, b)), bins))

    bad = 0
    disagreements = collections.Counter()
    for b, r in results:
        c = per_arch[r['arch']]
        c['shaders'] += 1
        if 'bundles' in r:
            c['bundles'] += r['bundles']
        c['instructions'] += r['insts']
        c['padding words'] += r['padding']
        c['fallback lines'] += len(r['fallbacks'])
        c['round-trip failures'] += not r['roundtrip']
        for line in r['fallbacks'][:3]:
            print(f'FALLBACK {b}: {line}')
        for e in r['errors']:
            print(f'ERROR {b}: {e}')
        if r['fallbacks'] or r['errors']:
            bad += 1
        if r['stock']:
            c['compared with stock'] += r['stock']['compared']
            c['stock disagreements'] += len(r['stock']['diffs'])
            if 'fields' in r['stock']:
                c['operand fields compared'] += r['stock']['fields']
            for x, y in r['stock']['diffs']:
                disagreements[(r['arch'], str(x), str(y))] += 1

    print(f'{len(tests)} shader_test files, '
          f'{len(tests) - sum(failures.values())} compiled by the stock '
          f'compiler')
    for reason, n in failures.most_common():
        print(f'  not compiled ({n}): {reason}')
    for arch in sorted(per_arch):
        c = per_arch[arch]
        print(f'{arch}: ' + ', '.join(f'{k} {v}' for k, v in c.items()))
    for (arch, x, y), n in disagreements.most_common(
            None if args.verbose else 40):
        print(f'  {arch} disagreement x{n}: ours {x} / stock {y}')
    if not args.keep:
        subprocess.run(['rm', '-rf', work])
    # Every instruction must decode and round-trip, agree with the stock
    # text, and both architectures must have been exercised.
    ok = bad == 0 and not disagreements and bins and \
        all(per_arch[a]['instructions']
            for a in FAMILIES[args.family].values())
    for m in missing:
        print(f'MISSING {m}')
    ok = ok and not missing
    print('PASS' if ok else 'FAIL')
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
