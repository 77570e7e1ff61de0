#!/usr/bin/env python3
# Copyright 2026 The Panfrost fork authors
# SPDX-License-Identifier: MIT
"""Differential execution of Valhall or Bifrost binaries: stock against ours.

Every image-free program of the corpus is compiled for G57 (v9), or with
--gpu=G52 for Bifrost v7 or --gpu=G72 for v6 (runner bi-diff-run), by the
stock compiler (stock-bifrost-compiler, which also writes each binary's
push table, system values and IDVS secondary offset) and by
pan-compiler-db --out; each graphics program both compiled (the IDVS
position variant, the varying variant, the fragment shader) is run by
va-diff-run (our Valhall interpreter) on the same seeded inputs, each
binary's uniform words filled through its own layout (va_diff_run.c), and
the outputs compared:
  - which lanes discarded;
  - every colour a BLEND sent (lane, render target; the last one wins);
  - every word a vertex variant stored in its vertex packet (position,
    point size, varyings; lane, sub-slot, byte); a word stored by one
    binary only is a difference;
integers bit-exactly, floats within ULP_BOUND units in the last place (or
ABS_BOUND absolutely, for results of cancellation); stages whose GLSL ES
source declares mediump/lowp (both front ends lower precision; stock also
loads such varyings and writes such colours in binary16) or a binary16
colour within FP16_BOUND relative (counted apart).  A stored word is an
integer unless both sides are normal binary32 numbers (or a zero against
a float within ABS_BOUND), so small integers, which look like denormals,
compare exactly.  On Bifrost each of our binaries must also pass the stock
disassembler (its asserts catch clause layouts and constant modifiers the
hardware does not have); a binary it rejects counts as a difference.

Prints programs compared / agreeing / differing, the differences grouped
by reason (numbers blanked) with each program's first difference, and the
reasons stages were not compared.  Fails when any program differs or below
--floor agreeing programs.
--subset=K runs every K-th program of the corpus (for CI).
"""

import collections
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mid_diff_exec import (ABS_BOUND, SEEDS, arg_parser,  # noqa: E402
                           corpus_files, f32, float_close, is_lowp,
                           report_end, run_all, write_sources)

# --gpu: stock's GPU id and ours's --gpu argument.
GPUS = {'G57': ('9093', []), 'G52': ('7212', ['--gpu=G52']),
        'G72': ('6221', ['--gpu=G72'])}
BIFROST = ('G52', 'G72')
GPU = '9093'
# Fixed-function varyings: stock (fixed_varying_mask 0 here) packs them
# from byte 0 over the generic ones, ours gives them slots from 15 down;
# both consistent between their own stages, not comparable.
FIXED_VARYING = re.compile(r'\bgl_(TexCoord|FrontColor|BackColor|'
                           r'FrontSecondaryColor|BackSecondaryColor|Color|'
                           r'SecondaryColor|FogFragCoord)\b')
# gl_FragCoord: ours reads the preloaded pixel (r59) and LD_VAR_SPECIAL;
# stock here reads it as a varying at byte 0 (the slot of a fixed-varying
# mask the oracle does not pass), over the first generic varying.
FRAG_COORD = re.compile(r'\bgl_FragCoord\b')
# Trigonometry: GLSL allows sin/cos an absolute error of 2^-11; ours is
# within 3e-5 (pan_ir_from_nir_sfu.c), stock closer.  Such stages compare
# within TRIG_BOUND relative to max(1, |value|) (counted apart when the
# 16-ulp bound fails).
TRIG = re.compile(r'\b(sin|cos|tan|asin|acos|atan|sinh|cosh|tanh)\s*\(')
TRIG_BOUND = 2.0 ** -11
INT_FORMATS = ('s32', 'u32', 's16', 'u16')


def parse(text):
    out = {'status': None, 'discarded': '0', 'colour': {}, 'out': {}}
    for ln in text.splitlines():
        w = ln.split()
        if not w:
            continue
        if w[0] == 'status':
            out['status'] = ' '.join(w[1:])
        elif w[0] == 'discarded':
            out['discarded'] = w[1]
        elif w[0] == 'out':
            out['out'][tuple(int(x) for x in w[1:4])] = int(w[4], 16)
        elif w[0] == 'colour':
            out['colour'][(int(w[1]), int(w[2]))] = (
                w[3], [int(x, 16) for x in w[4:8]])
    return out


SWIZZLE = {'x': 0, 'y': 1, 'z': 2, 'w': 3, 'r': 0, 'g': 1, 'b': 2, 'a': 3}


def unwritten_components(src):
    """Colour components a fragment source leaves undefined: those of an
    output it only assigns through swizzles (e.g. only .rgb), never
    whole.  GLSL leaves them undefined; the compilers disagree there."""
    names = set(re.findall(r'\bout\s+(?:\w+\s+)?vec4\s+(\w+)', src))
    names |= set(re.findall(r'\bfragdata\(\s*\d+\s*,\s*(\w+)', src))
    names |= {'gl_FragColor'}
    undefined = set()
    for n in names:
        if re.search(r'\b%s\s*(\[[^]]*\]\s*)?=[^=]' % n, src):
            continue
        swz = re.findall(r'\b%s\.([rgbaxyzw]+)\s*=[^=]' % n, src)
        if swz:
            written = {SWIZZLE[c] for w in swz for c in w}
            undefined |= set(range(4)) - written
    return undefined


def normal(bits):
    return 0 < (bits >> 23) & 0xff < 0xff


def close(a, b, mode):
    """Floats a, b within the bound of mode: 'fp32', 'fp16' or 'trig'."""
    if mode != 'trig' or not (normal(a) or a & 0x7fffffff == 0) or \
            not (normal(b) or b & 0x7fffffff == 0):
        return float_close(a, b, mode == 'fp16')
    fa, fb = f32(a), f32(b)
    return abs(fa - fb) <= TRIG_BOUND * max(1.0, abs(fa), abs(fb))


def word_close(a, b, mode):
    """A stored word of unknown type: see the module docstring."""
    if a == b:
        return True
    if normal(a) and normal(b):
        return close(a, b, mode)
    for x, y in ((a, b), (b, a)):
        if x & 0x7fffffff == 0 and normal(y) and abs(f32(y)) <= ABS_BOUND:
            return True
    return False


SUB = {0: 'position', 4: 'point size'}


def compare(st, ours, mode, undefined=()):
    """None when the outputs agree, else the first difference; colour
    components in `undefined` are not compared."""
    if st['discarded'] != ours['discarded']:
        return 'discarded lanes: stock %s, ours %s' % (st['discarded'],
                                                       ours['discarded'])
    for key in sorted(set(st['colour']) | set(ours['colour'])):
        if key not in st['colour'] or key not in ours['colour']:
            return 'colour of target %d only written by %s' % (
                key[1], 'stock' if key in st['colour'] else 'ours')
        (fs, a), (fo, b) = st['colour'][key], ours['colour'][key]
        exact = fs in INT_FORMATS and fo in INT_FORMATS
        half = 'fp16' if 'f16' in (fs, fo) else mode
        for c in range(4):
            if c in undefined:
                continue
            if not (a[c] == b[c] if exact else
                    close(a[c], b[c], half)):
                return ('colour target %d .%s (lane %d): stock %s %g '
                        '(0x%08x), ours %s %g (0x%08x)' % (
                            key[1], 'xyzw'[c], key[0], fs, f32(a[c]), a[c],
                            fo, f32(b[c]), b[c]))
    for key in sorted(set(st['out']) | set(ours['out'])):
        lane, sub, byte = key
        what = SUB.get(sub, 'sub-slot %d' % sub) if sub else \
            ('position' if args_stage[0] == 'vs' else 'varying')
        if key not in st['out'] or key not in ours['out']:
            return '%s byte %d only stored by %s' % (
                what, byte, 'stock' if key in st['out'] else 'ours')
        a, b = st['out'][key], ours['out'][key]
        if not word_close(a, b, mode):
            return '%s byte %d (lane %d): stock %g (0x%08x), ours %g ' \
                '(0x%08x)' % (what, byte, lane, f32(a), a, f32(b), b)
    return None


# The stage being compared, for the wording of vertex outputs.
args_stage = ['vs']


# The runner's extra arguments: bi-diff-run --v6 for the G72, which
# declares no register count (its threads have the whole file).
RUNNER_ARGS = []


def run(runner, seed, stage, binary, layout):
    cmd = [runner, '--seed=%d' % seed, '--stage=' + stage] + RUNNER_ARGS + \
        [binary]
    if os.path.exists(layout):
        cmd.insert(3, '--layout=' + layout)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    return parse(p.stdout)


def dense_slots(out):
    """Bifrost varying stores renumbered by rank of their 16-byte slot:
    stock's LEA_ATTR indices count the position's slot, ours do not, in
    the same order."""
    slots = sorted({byte // 16 for (_, _, byte) in out['out']})
    rank = {s: i for i, s in enumerate(slots)}
    out['out'] = {(lane, sub, 16 * rank[byte // 16] + byte % 16): v
                  for (lane, sub, byte), v in out['out'].items()}
    return out


def compare_stage(args, work, stage, stock_bin, stock_info, ours_tag, mode,
                  undefined):
    """(kind, detail): kind agree/agree16/agreetrig/differ/skip."""
    verdict = ('agree16' if mode == 'fp16' else 'agree', stage)
    for seed in SEEDS:
        st = run(args.runner, seed, stage, stock_bin, stock_info)
        ours = run(args.runner, seed, stage, '%s/ours/%s.bin' % (work, ours_tag),
                   '%s/ours/%s.push' % (work, ours_tag))
        if not st['status'] or not st['status'].startswith('done'):
            why = re.sub(r'instruction \d+: |lane \d+: ', '',
                         st['status'] or 'no output')
            why = re.sub(r'0x[0-9a-f]+|\d+', 'N', why)
            return ('skip', 'stock binary not runnable: ' + why[:80])
        if not ours['status'] or not ours['status'].startswith('done'):
            return ('differ', '%s seed %d: ours faulted: %s' % (
                stage, seed, ours['status']))
        args_stage[0] = stage
        if args.gpu in BIFROST and stage == 'vv':
            st, ours = dense_slots(st), dense_slots(ours)
        d = compare(st, ours, mode, undefined)
        if d:
            return ('differ', '%s seed %d: %s' % (stage, seed, d))
        if mode == 'trig' and compare(st, ours, 'fp32', undefined) and \
                verdict[0] == 'agree':
            verdict = ('agreetrig', stage)
    return verdict


def stock_rejects(args, binary):
    """Bifrost: why the stock disassembler fails on our binary (a clause
    layout or constant modifier the hardware lacks), or None."""
    if args.gpu not in BIFROST:
        return None
    p = subprocess.run([args.stock, 'disasm', '--gpu=0x' + GPU, binary],
                       capture_output=True, text=True, timeout=60)
    if not p.returncode:
        return None
    return (p.stderr.strip().splitlines() or ['status %d' % p.returncode])[-1]


def run_program(args, path, work):
    sources, names = write_sources(path, work)
    if sources is None:
        return path, [('skip', names)]
    try:
        p = subprocess.run([args.stock, 'compile', '--out=' + work + '/st',
                            '--gpu=0x' + GPU] + names,
                           capture_output=True, timeout=120)
        if p.returncode:
            return path, [('skip', 'stock compiler refused')]
        subprocess.run([args.ours] + GPUS[args.gpu][1] +
                       ['--out=' + work + '/ours'] + names,
                       capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        return path, [('skip', 'compiler timed out')]

    precision = {ext: 'fp16' if is_lowp(src) else
                 'trig' if TRIG.search(src) else 'fp32'
                 for ext, src in sources}
    fixed = any(FIXED_VARYING.search(src) for _, src in sources)
    res = []
    st = work + '/st/%s-' + GPU
    for stage, stock, tag, ext in (('vs', 'vs', 'vs', 'vert'),
                                   ('vv', 'vs', 'vv', 'vert'),
                                   ('fs', 'fs', 'fs', 'frag')):
        if not os.path.exists(st % stock + '.bin'):
            continue
        if not os.path.exists('%s/ours/%s.bin' % (work, tag)):
            res.append(('skip', 'our compiler refused'))
            continue
        bad = stock_rejects(args, '%s/ours/%s.bin' % (work, tag))
        if bad:
            res.append(('differ', '%s: the stock disassembler rejects ours: '
                        '%s' % (stage, bad)))
            continue
        if fixed and stage != 'vs':
            res.append(('skip', 'fixed-function varyings (slot ABIs differ)'))
            continue
        if stage == 'fs' and any(FRAG_COORD.search(src)
                                 for e, src in sources if e == 'frag'):
            res.append(('skip', 'gl_FragCoord (stock reads it as a varying)'))
            continue
        info = st % stock + '.info'
        if stage == 'vs' and args.gpu in BIFROST and any(
                'gl_PointSize' in src for e, src in sources if e == 'vert'):
            # Bifrost cannot write gl_PointSize in IDVS: stock's vertex
            # shader then stores everything at once.
            res.append(('skip', 'gl_PointSize on Bifrost (stock not IDVS)'))
            continue
        if stage == 'vv':
            with open(info) as f:
                if 'secondary' not in f.read():
                    res.append(('skip', 'stock has no varying variant'))
                    continue
        undefined = set()
        if stage == 'fs':
            undefined = unwritten_components(
                '\n'.join(src for e, src in sources if e == 'frag'))
        res.append(compare_stage(args, work, stage, st % stock + '.bin',
                                 info, tag, precision.get(ext, 'fp32'),
                                 undefined))
    if os.path.exists(st % 'cs' + '.bin'):
        res.append(('skip', 'compute shader (not run here)'))
    return path, res or [('skip', 'no stage compiled by both')]


def main():
    ap = arg_parser(__doc__)
    ap.add_argument('--subset', type=int, default=1)
    ap.add_argument('--gpu', choices=sorted(GPUS), default='G57')
    args = ap.parse_args()
    global GPU
    GPU = GPUS[args.gpu][0]
    if args.gpu == 'G72':
        RUNNER_ARGS.append('--v6')
    if args.missing:
        print('\n'.join(args.missing))
        return 1
    files = corpus_files(args.corpus)[::args.subset]

    totals = collections.Counter()
    skips = collections.Counter()
    reasons = collections.defaultdict(list)
    for path, res in run_all(run_program, args, files):
        kinds = [k for k, _ in res]
        for k, d in res:
            if k == 'skip':
                skips[d] += 1
            else:
                totals['stages ' + (d[:2] if k != 'differ' else
                                    'differing')] += 1
        if all(k == 'skip' for k in kinds):
            continue
        totals['compared'] += 1
        if 'differ' in kinds:
            totals['differ'] += 1
            d = [d for k, d in res if k == 'differ'][0]
            why = re.sub(r'seed \d+: ', '', d)
            why = re.sub(r'\(lane \d+\)|0x[0-9a-f]+|-?\d[\d.e+-]*', 'N',
                         why.split(': stock')[0].split(' (')[0])
            reasons[why].append((os.path.relpath(path), d))
        elif 'agree16' in kinds:
            totals['agree16'] += 1
        elif 'agreetrig' in kinds:
            totals['agreetrig'] += 1
        else:
            totals['agree'] += 1

    agree = totals['agree'] + totals['agree16'] + totals['agreetrig']
    print('GPU 0x%s: %d programs compared, %d agreeing (%d within the fp16 '
          'bound of mediump/lowp, %d within the bound of trigonometry), '
          '%d differing' % (GPU, totals['compared'], agree,
                            totals['agree16'], totals['agreetrig'],
                            totals['differ']))
    print('stages agreeing: position %d, varying %d, fragment %d; '
          'differing %d' % (totals['stages vs'], totals['stages vv'],
                            totals['stages fs'], totals['stages differing']))
    for why, progs in sorted(reasons.items(), key=lambda x: -len(x[1])):
        print('DIFFER (%d) %s' % (len(progs), why))
        for path, d in progs:
            print('    %s: %s' % (path, d))
    return report_end('stages not compared (%d):', skips, 15, agree,
                      args.floor, totals['differ'])


if __name__ == '__main__':
    sys.exit(main())
