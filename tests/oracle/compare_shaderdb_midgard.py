#!/usr/bin/env python3
# Copyright 2026 The Panfrost fork authors
# SPDX-License-Identifier: MIT
"""Our Midgard compiler against the stock one on a shader-db corpus.

The Midgard counterpart of compare_shaderdb.py (whose corpus walk, stage
split and refusal grouping it reuses): every program is compiled for T860
(0x860) and T720 (0x720) by pan-mid-compiler-db and, with --stock, by the
stock Midgard compiler with MIDGARD_MESA_DEBUG=shaderdb.  A program counts
as compiled when all its shaders compiled.  Printed per GPU: programs
compiled by each, instruction/bundle/quadword totals over the programs both
compile, and our refusal reasons, most frequent first.  Fails on any crash
or time-out of ours, below --floor programs (on either GPU), or above the
--max-bundle-ratio / --max-inst-ratio ceilings against stock.
"""

import argparse
import collections
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_shaderdb import REFUSED, collect, reason_key  # noqa: E402
from run_oracle import split_shader_test  # noqa: E402

STATS = re.compile(r'SHADER-DB: (\S+) shader: (\d+) inst, (\d+) bundles, '
                   r'(\d+) quadwords, (\d+) registers, (\d+) threads')
GPUS = ['860', '720']


def stats(text):
    return [(m.group(1),) + tuple(int(x) for x in m.groups()[1:])
            for m in map(STATS.search, text.splitlines()) if m]


def run_one(args, path, work):
    sources, _ = split_shader_test(path)
    if sources is None:
        return None
    os.makedirs(work, exist_ok=True)
    names = []
    for i, (ext, src) in enumerate(sources):
        name = os.path.join(work, f'{i}.{ext}')
        with open(name, 'w') as f:
            f.write(src)
        names.append(name)
    res = {}
    for gpu in GPUS:
        ours, refusals, crash, stock = None, [], None, None
        shaders = []
        try:
            p = subprocess.run([args.ours, '--gpu=' + gpu] + names,
                               capture_output=True, text=True, timeout=120,
                               errors='replace')
            if p.returncode in (0, 1):
                refusals = [m.groups() for m in
                            map(REFUSED.match, p.stdout.splitlines()) if m]
                shaders = stats(p.stdout)
                if p.returncode == 0:
                    ours = shaders
            elif p.returncode != 3:
                tail = (p.stderr.strip().splitlines() or ['?'])[-1]
                crash = f'exit {p.returncode}: {tail[:160]}'
        except subprocess.TimeoutExpired:
            crash = 'timed out'
        if args.stock:
            env = dict(os.environ, MIDGARD_MESA_DEBUG='shaderdb')
            try:
                p = subprocess.run([args.stock, 'compile', '--out=' + work,
                                    '--gpu=0x' + gpu] + names,
                                   capture_output=True, text=True,
                                   timeout=120, env=env, errors='replace')
                if p.returncode == 0:
                    stock = stats(p.stderr + p.stdout)
            except subprocess.TimeoutExpired:
                pass
        res[gpu] = (ours, stock, refusals, crash, shaders)
    return path, res


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--ours', required=True, help='pan-mid-compiler-db')
    ap.add_argument('--stock', help='stock-midgard-compiler (optional)')
    ap.add_argument('--sample', type=int, default=1)
    ap.add_argument('--floor', type=int, default=0,
                    help='fail below this many programs compiled by ours')
    ap.add_argument('--shader-floor', type=int, default=0,
                    help='fail below this many shaders compiled by ours')
    ap.add_argument('--max-fewer-threads', type=int,
                    help='fail when more shaders run fewer threads than '
                    'with the stock compiler')
    ap.add_argument('--max-bundle-ratio', type=float,
                    help='fail when our bundles on the common set exceed '
                    'this many times the stock ones')
    ap.add_argument('--max-inst-ratio', type=float,
                    help='fail when our instructions on the common set '
                    'exceed this many times the stock ones')
    ap.add_argument('--top', type=int, default=12)
    ap.add_argument('--per-program', action='store_true',
                    help='list the --top common programs whose bundles '
                    'exceed stock\'s the most')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 1)
    ap.add_argument('corpus', nargs='+')
    args = ap.parse_args()

    files = collect(args.corpus)[::args.sample]
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futs = [pool.submit(run_one, args, f, os.path.join(tmp, str(i)))
                for i, f in enumerate(files)]
        results = [r for r in (f.result() for f in futs) if r]

    print(f'programs in the corpus: {len(files)} ({len(results)} with '
          f'vertex/fragment/compute stages)')
    failed = False
    for gpu in GPUS:
        rows = [(p, r[gpu]) for p, r in results]
        ours_ok = [x for x in rows if x[1][0] is not None]
        both = [x for x in rows if x[1][0] is not None and
                x[1][1] is not None]
        print(f'T{gpu}: compiled by ours {len(ours_ok)}', end='')
        if args.stock:
            stock_ok = [x for x in rows if x[1][1] is not None]
            print(f', by stock {len(stock_ok)}, by both {len(both)}')
            tot = [[0, 0] for _ in range(3)]
            for _, (o, s, _, _, _) in both:
                for k in range(3):
                    tot[k][0] += sum(x[1 + k] for x in o)
                    tot[k][1] += sum(x[1 + k] for x in s)
            for k, what in enumerate(['instructions', 'bundles',
                                      'quadwords']):
                o, s = tot[k]
                pct = f' ({100.0 * (o - s) / s:+.1f}%)' if s else ''
                print(f'  {what:13} on the common set: ours {o:7}, '
                      f'stock {s:7}{pct}')
                if what == 'bundles' and args.per_program:
                    worst = sorted(
                        ((sum(x[2] for x in o) - sum(x[2] for x in s),
                          sum(x[2] for x in o), sum(x[2] for x in s), p)
                         for p, (o, s, _, _, _) in both), reverse=True)
                    for d, ob, sb, p in worst[:args.top]:
                        print(f'    {d:+5} bundles (ours {ob}, stock {sb}) '
                              f'{p}')
                if what == 'bundles' and args.max_bundle_ratio and s and \
                        o > args.max_bundle_ratio * s:
                    print(f'FAIL: T{gpu}: bundle ratio {o / s:.3f} above '
                          f'{args.max_bundle_ratio}')
                    failed = True
                if what == 'instructions' and args.max_inst_ratio and s \
                        and o > args.max_inst_ratio * s:
                    print(f'FAIL: T{gpu}: instruction ratio {o / s:.3f} '
                          f'above {args.max_inst_ratio}')
                    failed = True
        else:
            print()
        if args.stock:
            # Shader level: each stage ours compiled that stock compiled
            # in the same program (programs may be refused as a whole).
            per = collections.defaultdict(lambda: [0, 0, 0, 0, 0])
            fewer = []
            for path, (_, s, _, _, sh) in rows:
                stock_by = {x[0]: x for x in (s or [])}
                for x in sh:
                    if x[0] in stock_by:
                        t = per[x[0]]
                        t[0] += 1
                        t[1] += x[1]
                        t[2] += stock_by[x[0]][1]
                        t[3] += x[2]
                        t[4] += stock_by[x[0]][2]
                        if x[5] < stock_by[x[0]][5]:
                            fewer.append(f'{path} {x[0]}')
            for st in sorted(per):
                n, oi, si, ob, sb = per[st]
                print(f'  {st}: {n} shaders compiled by both: inst ours '
                      f'{oi} stock {si}, bundles ours {ob} stock {sb}')
            print(f'  shaders with fewer threads than stock: {len(fewer)}')
            for f in fewer[:args.top]:
                print(f'    {f}')
            if args.max_fewer_threads is not None and \
                    len(fewer) > args.max_fewer_threads:
                print(f'FAIL: T{gpu}: {len(fewer)} shaders with fewer '
                      f'threads than stock, above {args.max_fewer_threads}')
                failed = True
        for path, (_, _, _, crash, _) in rows:
            if crash:
                print(f'CRASH T{gpu} {path}: {crash}')
                failed = True
        nr_shaders = sum(len(x[1][4]) for x in rows)
        print(f'  shaders compiled by ours: {nr_shaders}')
        if nr_shaders < args.shader_floor:
            print(f'FAIL: T{gpu}: {nr_shaders} shaders compiled, below '
                  f'the floor of {args.shader_floor}')
            failed = True
        if len(ours_ok) < args.floor:
            print(f'FAIL: T{gpu}: {len(ours_ok)} programs compiled, below '
                  f'the floor of {args.floor}')
            failed = True
    reasons = collections.Counter(reason_key(m) for _, r in results
                                  for _, m in r['860'][2])
    if reasons:
        print(f'top refusal reasons of ours on T860 (shaders refused: '
              f'{sum(reasons.values())}):')
        for msg, n in reasons.most_common(args.top):
            print(f'  {n:5}  {msg}')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
