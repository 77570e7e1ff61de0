#!/usr/bin/env python3
# Copyright 2026 The Panfrost fork authors
# SPDX-License-Identifier: MIT
"""Differential execution of Midgard binaries: stock compiler against ours.

Every program of the corpus that uses no image is compiled for one GPU
(T860 by default) by the stock Midgard compiler and by pan-mid-compiler-db;
each stage both compiled is run by mid-diff-run (our Midgard interpreter)
on the same seeded inputs, and the outputs compared:
  - the colour at the last writeout and whether the thread discarded;
  - when our binary writes out several render targets, the colour of
    each (r0 at its writeout, the target named by r1.z); the stock binary
    must write it too.  A single target is the colour above: the stock
    front end broadcasts gl_FragColor to all eight targets, and its
    target 0 copy can be wrong (anholt/12: the r1.w set-up of that
    writeout bundle is allocated to r0.x, overwriting the red);
  - for fragment stages writing gl_FragDepth, the depth (r1.x at the
    end: both compilers write it there in the writeout bundle);
  - every varying component both binaries stored (slot, component; the
    last store wins);
bit-exactly for integer varyings, within ULP_BOUND units in the last
place (or ABS_BOUND absolutely, for results of cancellation) for floats;
NaN equals NaN.  Input layouts need no mapping: see mid_diff_run.c (every
uniform vec4 is the same vector; varyings and attributes by driver
location, which both compilers take from the same GLSL front end).

Exception (documented, counted apart): stages whose source declares
mediump/lowp precision are computed by the stock compiler in fp16 (its
front end lowers precision) while ours computes in fp32; their float
results are compared within FP16_BOUND relative.

Prints programs compared / agreeing / differing with the first differing
output of each difference, and the reasons stages were not compared.
Fails when any program differs, below --floor agreeing programs, or below
--mrt-floor programs agreeing on several render targets.
"""

import argparse
import collections
import concurrent.futures
import math
import os
import re
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_oracle import split_shader_test  # noqa: E402

ULP_BOUND = 16
ABS_BOUND = 2.0 ** -16
FP16_BOUND = 2.0 ** -7
SEEDS = (1, 2, 3)
IMAGE = re.compile(r'\bimage\d|\bimageLoad|\bimageStore')


def f32(bits):
    return struct.unpack('<f', struct.pack('<I', bits))[0]


def ulp(x):
    """Unit in the last place of a binary32 of magnitude x."""
    e = math.frexp(abs(x))[1] if x else -125
    return 2.0 ** (max(e, -125) - 24)


def float_close(a, b, fp16):
    fa, fb = f32(a), f32(b)
    if a == b or (fa != fa and fb != fb):
        return True
    if fa != fa or fb != fb or abs(fa) == float('inf') or \
            abs(fb) == float('inf'):
        return False
    d = abs(fa - fb)
    scale = max(abs(fa), abs(fb))
    if fp16:
        return d <= max(FP16_BOUND * scale, FP16_BOUND)
    return d <= max(ULP_BOUND * ulp(scale), ABS_BOUND)


def parse(text):
    out = {'status': None, 'discarded': '0', 'colour': None, 'vary': {},
           'r1x': None, 'rt': {}}
    for ln in text.splitlines():
        w = ln.split()
        if not w:
            continue
        if w[0] == 'status':
            out['status'] = ' '.join(w[1:])
        elif w[0] == 'discarded':
            out['discarded'] = w[1]
        elif w[0] == 'r1x':
            out['r1x'] = int(w[1], 16)
        elif w[0] == 'rt':
            out['rt'][int(w[1])] = [int(x, 16) for x in w[2:6]]
        elif w[0] == 'colour':
            out['colour'] = [int(x, 16) for x in w[1:5]]
        elif w[0] == 'vary':
            slot, fmt, mask = int(w[1]), w[2], int(w[3], 16)
            for c in range(4):
                if mask & (1 << c):
                    out['vary'][(slot, c)] = (fmt, int(w[4 + c], 16))
    return out


def compare(st, ours, fp16, depth=False):
    """None when the outputs agree, else the first difference."""
    if st['discarded'] != ours['discarded']:
        return 'discard: stock %s, ours %s' % (st['discarded'],
                                               ours['discarded'])
    if (st['colour'] is None) != (ours['colour'] is None):
        return 'writeout: stock %s, ours %s' % (st['colour'], ours['colour'])
    if st['colour'] and st['discarded'] == '0':
        for c in range(4):
            if not float_close(st['colour'][c], ours['colour'][c], fp16):
                return 'colour.%s: stock %g (0x%08x), ours %g (0x%08x)' % (
                    'xyzw'[c], f32(st['colour'][c]), st['colour'][c],
                    f32(ours['colour'][c]), ours['colour'][c])
        for rt in sorted(ours['rt']) if len(ours['rt']) > 1 else []:
            if rt not in st['rt']:
                return 'render target %d: written by ours only' % rt
            for c in range(4):
                a, b = st['rt'][rt][c], ours['rt'][rt][c]
                if not float_close(a, b, fp16):
                    return 'rt%d.%s: stock %g (0x%08x), ours %g (0x%08x)' % (
                        rt, 'xyzw'[c], f32(a), a, f32(b), b)
        if depth and not float_close(st['r1x'], ours['r1x'], fp16):
            return 'depth: stock %g (0x%08x), ours %g (0x%08x)' % (
                f32(st['r1x']), st['r1x'], f32(ours['r1x']), ours['r1x'])
    for key in sorted(set(st['vary']) & set(ours['vary'])):
        (fs, a), (fo, b) = st['vary'][key], ours['vary'][key]
        is_int = fs in ('u32', 's32') and fo in ('u32', 's32')
        ok = a == b if is_int else float_close(a, b, fp16)
        if not ok:
            return 'varying %d.%s: stock %s 0x%08x, ours %s 0x%08x' % (
                key[0], 'xyzw'[key[1]], fs, a, fo, b)
    return None


def is_lowp(src):
    """Whether a stage's precision qualifiers lower precision: only in GLSL
    ES (desktop GLSL ignores them, e.g. under #ifdef GL_ES)."""
    return bool(re.search(r'^\s*#\s*version\s+(100|\d+\s+es)\b', src,
                          re.M) and re.search(r'\b(mediump|lowp)\b', src))


def corpus_files(dirs):
    """The .shader_test files under the corpus directories, sorted."""
    files = []
    for d in dirs:
        for root, _, names in os.walk(d):
            files += [os.path.join(root, n) for n in names
                      if n.endswith('.shader_test')]
    return sorted(files)


def write_sources(path, work):
    """The stages of an image-free program written to work/N.EXT, with
    work/st and work/ours made for the binaries: (sources, file names),
    or (None, why not)."""
    sources, reason = split_shader_test(path)
    if sources is None:
        return None, reason
    if any(IMAGE.search(src) for _, src in sources):
        return None, 'uses images'
    os.makedirs(work + '/st', exist_ok=True)
    os.makedirs(work + '/ours', exist_ok=True)
    names = []
    for i, (ext, src) in enumerate(sources):
        name = os.path.join(work, '%d.%s' % (i, ext))
        with open(name, 'w') as f:
            f.write(src)
        names.append(name)
    return sources, names


def report_end(title, skips, most, agree, floor, differ):
    """Prints the reasons for not comparing, most frequent first, and
    returns the exit status: 1 when any program differs (a miscompile by
    one of the two compilers) or below the floor of agreeing programs
    (programs silently dropping out of the comparison)."""
    print(title % sum(skips.values()))
    for why, n in skips.most_common(most):
        print('  %5d  %s' % (n, why))
    status = 0
    if differ:
        print('FAIL: %d programs differ' % differ)
        status = 1
    if agree < floor:
        print('FAIL: %d agreeing programs, below the floor of %d' % (
            agree, floor))
        status = 1
    return status


def arg_parser(doc):
    """The arguments both differential executions take; the caller adds
    its own."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument('--stock', required=True)
    ap.add_argument('--ours', required=True)
    ap.add_argument('--runner', required=True)
    ap.add_argument('--floor', type=int, default=0)
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 2)
    ap.add_argument('--missing', action='append', default=[])
    ap.add_argument('corpus', nargs='+')
    return ap


def run_all(run_program, args, files):
    """Yields (path, result) of run_program(args, file, work directory) for
    each file in order, args.jobs of them at a time."""
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        futs = [ex.submit(run_program, args, f, '%s/%d' % (tmp, i))
                for i, f in enumerate(files)]
        for fut in futs:
            yield fut.result()


def run_program(args, path, work):
    """(kind, detail) per stage: kind agree/agree16/differ/skip."""
    sources, names = write_sources(path, work)
    if sources is None:
        return path, [('skip', names)]
    try:
        p = subprocess.run([args.stock, 'compile', '--out=' + work + '/st',
                            '--gpu=0x' + args.gpu] + names,
                           capture_output=True, timeout=120)
        if p.returncode:
            return path, [('skip', 'stock compiler refused')]
        p = subprocess.run([args.ours, '--gpu=0x' + args.gpu,
                            '--out=' + work + '/ours'] + names,
                           capture_output=True, timeout=120)
        if p.returncode:
            return path, [('skip', 'our compiler refused')]
    except subprocess.TimeoutExpired:
        return path, [('skip', 'compiler timed out')]

    precision = {ext: is_lowp(src) for ext, src in sources}
    depth = any(ext == 'frag' and 'gl_FragDepth' in src
                for ext, src in sources)
    res = []
    for b in sorted(os.listdir(work + '/st')):
        stage = b[:2]
        if not os.path.exists(work + '/ours/' + b):
            continue
        fp16 = precision.get({'vs': 'vert', 'fs': 'frag',
                              'cs': 'comp'}[stage], False)
        verdict = ('agree16' if fp16 else 'agree', stage)
        mrt = False
        for seed in SEEDS:
            outs = []
            for side in ('st', 'ours'):
                p = subprocess.run([args.runner, '--seed=%d' % seed,
                                    '--gpu=0x' + args.gpu,
                                    work + '/' + side + '/' + b],
                                   capture_output=True, text=True, timeout=60)
                outs.append(parse(p.stdout))
            st, ours = outs
            mrt |= len(ours['rt']) > 1
            if not st['status'] or not st['status'].startswith('done'):
                why = re.sub(r'bundle at 0x[0-9a-f]+: ', '',
                             st['status'] or 'no output')
                why = re.sub(r'\d+', 'N', why)
                verdict = ('skip', 'stock binary not runnable: ' + why[:70])
                break
            if not ours['status'].startswith('done'):
                verdict = ('differ', '%s seed %d: ours faulted: %s' % (
                    stage, seed, ours['status']))
                break
            d = compare(st, ours, fp16, stage == 'fs' and depth)
            if d:
                verdict = ('differ', '%s seed %d: %s' % (stage, seed, d))
                break
        if mrt and verdict[0] != 'skip':
            verdict = (verdict[0], verdict[1] + ' (several render targets)')
        res.append(verdict)
    return path, res or [('skip', 'no stage compiled by both')]


def main():
    ap = arg_parser(__doc__)
    ap.add_argument('--gpu', default='860')
    ap.add_argument('--mrt-floor', type=int, default=0,
                    help='fail below this many programs agreeing on '
                    'several render targets')
    args = ap.parse_args()
    if args.missing:
        print('\n'.join(args.missing))
        return 1

    files = corpus_files(args.corpus)

    totals = collections.Counter()
    skips = collections.Counter()
    differ = []
    for path, res in run_all(run_program, args, files):
        kinds = [k for k, _ in res]
        if 'differ' in kinds:
            totals['differ'] += 1
            differ.append((path, [d for k, d in res if k == 'differ'][0]))
        elif all(k == 'skip' for k in kinds):
            skips[res[0][1]] += 1
            continue
        elif 'agree16' in kinds:
            totals['agree16'] += 1
        else:
            totals['agree'] += 1
        totals['compared'] += 1
        several = [k for k, d in res if d.endswith('render targets)')]
        if several:
            totals['mrt'] += 1
            totals['mrt agreeing'] += 'differ' not in kinds
        for k, d in res:
            if k != 'skip':
                totals['stages ' + d[:2] if k != 'differ' else
                       'stages differing'] += 1

    agree = totals['agree'] + totals['agree16']
    print('GPU 0x%s: %d programs compared, %d agreeing (%d within the fp16 '
          'bound of mediump/lowp), %d differing' % (
              args.gpu, totals['compared'], agree, totals['agree16'],
              totals['differ']))
    print('compared on several render targets: %d programs, %d agreeing' % (
        totals['mrt'], totals['mrt agreeing']))
    print('stages agreeing: vs %d, fs %d, cs %d' % (
        totals['stages vs'], totals['stages fs'], totals['stages cs']))
    for path, d in differ:
        print('DIFFER %s: %s' % (os.path.relpath(path), d))
    status = report_end('not compared (%d programs):', skips, 12, agree,
                        args.floor, totals['differ'])
    if totals['mrt agreeing'] < args.mrt_floor:
        print('FAIL: %d programs agreeing on several render targets, below '
              'the floor of %d' % (totals['mrt agreeing'], args.mrt_floor))
        status = 1
    return status


if __name__ == '__main__':
    sys.exit(main())
