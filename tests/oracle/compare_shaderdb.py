#!/usr/bin/env python3
# Copyright 2026 The Panfrost fork authors
# SPDX-License-Identifier: MIT
"""Our compiler against the stock one on a shader-db corpus, for G57 (v9).

With --gpu G52 both compile for Bifrost v7 instead (pan-compiler-db
--gpu=G52, the stock compiler with --gpu=0x7212), with --gpu G72 for
Bifrost v6 (--gpu=G72, stock --gpu=0x6221); the stock Bifrost report has
tuples and clauses too, summed like the instructions.

Every .shader_test program is split into its stages (as run_oracle.py
does) and compiled by pan-compiler-db (ours) and, with --stock, by the
stock compiler with BIFROST_MESA_DEBUG=shaderdb.  Both print shader-db
lines ("SHADER-DB: MESA_SHADER_X shader: N inst, ...").  A program counts
as compiled when every one of its shaders compiled.  Printed: programs
compiled by each, instruction totals over the programs both compile (per
stage too), and the reasons ours refuses, most frequent first.

With --floor N the run fails when ours compiles fewer than N programs,
with --max-spilling N when more than N of our shaders spill to
thread-local storage (the spills:fills of their lines).  With --stock,
--max-inst-ratio and --max-cycle-ratio bound our totals on the common set
against stock's, --max-tuple-ratio and --max-clause-ratio those of
Bifrost (G52, G72), and --max-fewer-threads the shaders running fewer
threads than stock's (G57).  Any crash or time-out of our compiler
always fails it (the meson test).

With --static TOOL (pan-shader-stats) and --stock, both compilers'
binaries (ours from pan-compiler-db --out, stock's from its --out, the
vertex binary split at its 'secondary' offset into the two IDVS
variants, as va_diff_exec.py reads them) are measured again by that one
tool, one cycle model for both, and the totals are printed beside the
self-reports.  Our instruction, tuple and clause counts from the tool
must then equal our own report's (they do not depend on a cycle model);
any difference fails the run.
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
from run_oracle import split_shader_test  # noqa: E402

LINE = re.compile(r'SHADER-DB: (\S+) shader: (\d+) inst')
TUPLES = re.compile(r'(\d+) tuples, (\d+) clauses')
CYCLES = re.compile(r'([\d.]+) cycles,.* (\d+) threads')
SPILLS = re.compile(r'(\d+):(\d+) spills:fills')
REFUSED = re.compile(r'PAN-DB-REFUSED: (\S+): (.*)')
G57 = '0x9093'
# pan-compiler-db --out tags and stock --out file stems per report stage.
STATIC_STAGES = {'MESA_SHADER_POSITION': ('vs', 'vs', 0),
                 'MESA_SHADER_VARYING': ('vv', 'vs', 1),
                 'MESA_SHADER_FRAGMENT': ('fs', 'fs', None),
                 'MESA_SHADER_COMPUTE': ('cs', 'cs', None)}
ARCH = {'G57': 'v9', 'G52': 'v7', 'G72': 'v6'}
GPUS = {'G57': (G57, []), 'G52': ('0x7212', ['--gpu=G52']),
        'G72': ('0x6221', ['--gpu=G72'])}


def reason_key(msg):
    """A refusal message without the operand details that vary."""
    msg = re.sub(r'%\d+', '%N', msg)
    msg = re.sub(r'\b\d+ values live', 'N values live', msg)
    msg = re.sub(r'offset \d+', 'offset N', msg)
    return msg


def figures(text, match):
    """(stage, instructions, tuples, clauses, cycles, threads) of each
    shader-db line."""
    out = []
    for line in text.splitlines():
        m = match(line)
        if m:
            t = TUPLES.search(line)
            c = CYCLES.search(line)
            out.append((m.group(1), int(m.group(2)),
                        int(t.group(1)) if t else 0,
                        int(t.group(2)) if t else 0,
                        float(c.group(1)) if c else 0.0,
                        int(c.group(2)) if c else 0))
    return out


def static_figures(args, work, report, ours):
    """pan-shader-stats figures of each stage of a self-report, from our
    binaries or (ours False) stock's; None when a binary is missing or the
    tool refuses it."""
    gpu = GPUS[args.gpu][0][2:]
    out = []
    for stage, *_ in report:
        tag, stem, part = STATIC_STAGES.get(stage, (None, None, None))
        if tag is None:
            return None
        if ours:
            binary = os.path.join(work, 'ours', tag + '.bin')
        else:
            base = os.path.join(work, f'{stem}-{gpu}')
            binary = base + '.bin'
            if part is not None and os.path.exists(binary):
                # The stock vertex binary holds both IDVS variants, the
                # varying one from the 'secondary' byte offset.
                split = None
                with open(base + '.info') as f:
                    for line in f:
                        if line.startswith('secondary '):
                            split = int(line.split()[1])
                with open(binary, 'rb') as f:
                    code = f.read()
                if split is not None:
                    code = code[split:] if part else code[:split]
                binary = base + f'.{tag}.bin'
                with open(binary, 'wb') as f:
                    f.write(code)
        if not os.path.exists(binary):
            return None
        p = subprocess.run([args.static, '--arch=' + ARCH[args.gpu],
                            binary], capture_output=True, text=True,
                           timeout=60)
        fig = figures(p.stdout, LINE.match)
        if p.returncode or len(fig) != 1:
            return None
        out.append((stage,) + fig[0][1:])
    return out


def run_one(args, path, work):
    sources, reason = split_shader_test(path)
    if sources is None:
        return path, None, None, [], None, 0, None
    os.makedirs(work, exist_ok=True)
    names = []
    for i, (ext, src) in enumerate(sources):
        name = os.path.join(work, f'{i}.{ext}')
        with open(name, 'w') as f:
            f.write(src)
        names.append(name)

    ours, refusals, crash, spilling = None, [], None, 0
    try:
        out = ['--out=' + os.path.join(work, 'ours')] if args.static else []
        if out:
            os.makedirs(out[0][6:], exist_ok=True)
        p = subprocess.run([args.ours] + GPUS[args.gpu][1] + out + names,
                           capture_output=True,
                           text=True, timeout=120, errors='replace')
        if p.returncode in (0, 1):
            refusals = [m.groups() for m in map(REFUSED.match,
                                                p.stdout.splitlines()) if m]
            spilling = sum(1 for m in map(SPILLS.search,
                                          p.stdout.splitlines())
                           if m and m.group(1) != '0')
            if p.returncode == 0:
                ours = figures(p.stdout, LINE.match)
        elif p.returncode != 3:
            tail = (p.stderr.strip().splitlines() or ['?'])[-1]
            crash = f'exit {p.returncode}: {tail[:160]}'
    except subprocess.TimeoutExpired:
        crash = 'timed out'

    stock = None
    if args.stock:
        env = dict(os.environ, BIFROST_MESA_DEBUG='shaderdb')
        try:
            p = subprocess.run([args.stock, 'compile', '--out=' + work,
                                '--gpu=' + GPUS[args.gpu][0]] + names,
                               capture_output=True,
                               text=True, timeout=120, env=env,
                               errors='replace')
            if p.returncode == 0:
                stock = figures(p.stderr, LINE.search)
        except subprocess.TimeoutExpired:
            pass
    static = None
    if args.static and ours is not None and stock is not None:
        static = (static_figures(args, work, ours, True),
                  static_figures(args, work, stock, False))
    return path, ours, stock, refusals, crash, spilling, static


def totals(rows):
    """Instructions, cycles, tuples, clauses summed over figure lists."""
    rows = list(rows)
    return [sum(f[k] for r in rows for f in r) for k in (1, 4, 2, 3)]


def fewer_threads(pairs):
    return sum(1 for a, b in pairs if len(a) == len(b)
               for x, y in zip(a, b) if x[5] < y[5])


def static_report(args, both):
    """The one-ruler totals beside the self-reports; limits broken."""
    rows = [r for r in both if r[6] and r[6][0] and r[6][1]]
    print(f'one ruler ({os.path.basename(args.static)}): {len(rows)} of '
          f'{len(both)} common programs measured')
    self_o = totals(r[1] for r in rows)
    self_s = totals(r[2] for r in rows)
    one_o = totals(r[6][0] for r in rows)
    one_s = totals(r[6][1] for r in rows)
    names = ['instructions', 'cycles']
    if args.gpu in ('G52', 'G72'):
        names += ['tuples', 'clauses']
    print(f'  {"":14} {"self ours":>11} {"self stock":>11} '
          f'{"ruler ours":>11} {"ruler stock":>11} {"ruler o/s":>9}')
    for i, name in enumerate(names):
        ratio = one_o[i] / one_s[i] if one_s[i] else 0.0
        print(f'  {name:14} {self_o[i]:11.1f} {self_s[i]:11.1f} '
              f'{one_o[i]:11.1f} {one_s[i]:11.1f} {ratio:9.4f}')
    print(f'  {"fewer threads":14} '
          f'{fewer_threads((r[1], r[2]) for r in rows):11} {"":11} '
          f'{fewer_threads((r[6][0], r[6][1]) for r in rows):11}')
    # Counts that no cycle model touches must agree with our own report.
    bad = [(r[0], a, b) for r in rows for a, b in zip(r[1], r[6][0])
           if a[1:4] != b[1:4]]
    for path, a, b in bad[:10]:
        print(f'  MISMATCH {os.path.relpath(path)} {a[0]}: report '
              f'{a[1:4]}, tool {b[1:4]}')
    lost = [r[0] for r in both if not (r[6] and r[6][0] and r[6][1])]
    for path in lost[:5]:
        print(f'  not measured: {os.path.relpath(path)}')
    return [('stages where the tool and our report disagree', len(bad), 0)
            ] if bad else []


def collect(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                files += [os.path.join(root, n) for n in names
                          if n.endswith('.shader_test')]
        elif os.path.exists(p):
            files.append(p)
        else:
            sys.exit(f'no such corpus: {p}')
    return sorted(files)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--ours', required=True, help='pan-compiler-db')
    ap.add_argument('--stock', help='stock-bifrost-compiler (optional)')
    ap.add_argument('--sample', type=int, default=1,
                    help='take every Nth program only')
    ap.add_argument('--floor', type=int, default=0,
                    help='fail below this many programs compiled by ours')
    ap.add_argument('--max-spilling', type=int, default=None,
                    help='fail when more of our shaders than this spill')
    ap.add_argument('--max-inst-ratio', type=float, default=None,
                    help='with --stock: fail when our instructions on the '
                    'common set exceed this times stock\'s')
    ap.add_argument('--max-cycle-ratio', type=float, default=None,
                    help='with --stock (G57): the same for the cycles')
    ap.add_argument('--max-tuple-ratio', type=float, default=None,
                    help='with --stock (G52, G72): the same for the tuples')
    ap.add_argument('--max-clause-ratio', type=float, default=None,
                    help='with --stock (G52, G72): the same for the clauses')
    ap.add_argument('--max-fewer-threads', type=int, default=None,
                    help='with --stock (G57): fail when more of our shaders '
                    'than this run fewer threads than stock\'s')
    ap.add_argument('--top', type=int, default=15)
    ap.add_argument('--per-program', action='store_true',
                    help='list ours / stock instructions of each common '
                    'program, largest gap first')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 1)
    ap.add_argument('--gpu', choices=sorted(GPUS), default='G57')
    ap.add_argument('--static', metavar='TOOL',
                    help='with --stock: measure both compilers\' binaries '
                    'with pan-shader-stats too')
    ap.add_argument('corpus', nargs='+')
    args = ap.parse_args()

    if args.static and not args.stock:
        ap.error('--static needs --stock')
    if not args.stock and (args.max_inst_ratio or args.max_cycle_ratio or
                           args.max_tuple_ratio or args.max_clause_ratio or
                           args.max_fewer_threads is not None):
        ap.error('the --max-*-ratio and --max-fewer-threads limits need '
                 '--stock')

    files = collect(args.corpus)[::args.sample]
    results = []
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futs = [pool.submit(run_one, args, f, os.path.join(tmp, str(i)))
                for i, f in enumerate(files)]
        results = [f.result() for f in futs]

    programs = [r for r in results if r[1] is not None or r[2] is not None
                or r[3] or r[4]]
    ours_ok = [r for r in results if r[1] is not None]
    stock_ok = [r for r in results if r[2] is not None]
    both = [r for r in results if r[1] is not None and r[2] is not None]
    crashes = [(r[0], r[4]) for r in results if r[4]]

    print(f'programs in the corpus: {len(files)} '
          f'({len(programs)} with vertex/fragment/compute stages)')
    print(f'compiled by ours ({args.gpu}):  {len(ours_ok)}')
    spilling = sum(r[5] for r in results)
    print(f'shaders of ours that spill: {spilling}')
    limits = []  # (what, ours, bound) broken
    if args.stock:
        print(f'compiled by stock ({args.gpu}): {len(stock_ok)}')
        print(f'compiled by both:        {len(both)}')
        per = collections.defaultdict(lambda: [0, 0])
        shape = [[0, 0], [0, 0]]  # tuples, clauses: ours, stock
        for r in both:
            for k in (1, 2):
                for st, n, t, c, _, _ in r[k]:
                    per[st][k - 1] += n
                    shape[0][k - 1] += t
                    shape[1][k - 1] += c
        to = sum(v[0] for v in per.values())
        ts = sum(v[1] for v in per.values())
        print(f'instructions on the common set: ours {to}, stock {ts}'
              + (f' ({100.0 * (to - ts) / ts:+.1f}%)' if ts else ''))
        for st in sorted(per):
            o, s = per[st]
            print(f'  {st:24} ours {o:7}  stock {s:7}')
        if args.max_inst_ratio and ts and to > args.max_inst_ratio * ts:
            limits.append(('instruction ratio', f'{to / ts:.4f}',
                           args.max_inst_ratio))
        if args.gpu == 'G57':
            # Valhall: the cycle estimates, and the shaders that run fewer
            # threads than stock's (more than 32 registers).
            co = sum(f[4] for r in both for f in r[1])
            cs = sum(f[4] for r in both for f in r[2])
            fewer = sum(1 for r in both if len(r[1]) == len(r[2])
                        for a, b in zip(r[1], r[2]) if a[5] < b[5])
            print(f'cycles on the common set: ours {co:.1f}, stock {cs:.1f}'
                  + (f' ({100.0 * (co - cs) / cs:+.1f}%)' if cs else ''))
            print(f'shaders of ours with fewer threads than stock: {fewer}')
            if args.max_cycle_ratio and cs and co > args.max_cycle_ratio * cs:
                limits.append(('cycle ratio', f'{co / cs:.4f}',
                               args.max_cycle_ratio))
            if (args.max_fewer_threads is not None and
                    fewer > args.max_fewer_threads):
                limits.append(('shaders with fewer threads', fewer,
                               args.max_fewer_threads))
        if args.gpu in ('G52', 'G72'):
            bounds = (args.max_tuple_ratio, args.max_clause_ratio)
            for name, (o, s), bound in zip(('tuples', 'clauses'), shape,
                                           bounds):
                print(f'{name} on the common set: ours {o}, stock {s}'
                      + (f' ({100.0 * (o - s) / s:+.1f}%)' if s else ''))
                if bound and s and o > bound * s:
                    limits.append((f'{name[:-1]} ratio', f'{o / s:.4f}',
                                   bound))
        if args.static:
            limits += static_report(args, both)
        if args.per_program:
            rows = sorted(((sum(f[1] for f in r[1]),
                             sum(f[1] for f in r[2]), r[0]) for r in both),
                          key=lambda x: x[1] - x[0])
            for o, s, path in rows:
                print(f'  {o:6} {s:6}  {os.path.relpath(path)}')

    reasons = collections.Counter(reason_key(m) for r in results
                                  for _, m in r[3])
    if reasons:
        print(f'top refusal reasons of ours (shaders refused: '
              f'{sum(reasons.values())}):')
        for msg, n in reasons.most_common(args.top):
            print(f'  {n:5}  {msg}')
    for path, why in crashes:
        print(f'CRASH {path}: {why}')

    if crashes:
        return 1
    if len(ours_ok) < args.floor:
        print(f'FAIL: {len(ours_ok)} programs compiled, below the floor '
              f'of {args.floor}')
        return 1
    if args.max_spilling is not None and spilling > args.max_spilling:
        print(f'FAIL: {spilling} shaders spill, above the ceiling of '
              f'{args.max_spilling}')
        return 1
    for what, ours, bound in limits:
        print(f'FAIL: {what} {ours}, above the ceiling of {bound}')
    return 1 if limits else 0


if __name__ == '__main__':
    sys.exit(main())
