#!/usr/bin/env python3
# Copyright 2026 The Panfrost fork authors
# SPDX-License-Identifier: MIT
"""How much of what the stock compiler emits our ISA interpreters execute.

The stock compiler (built under tests/oracle only) compiles a corpus of
.shader_test files for G52 (v7) and G57 (v9) into a temporary directory;
sim-coverage-tool then asks the Bifrost and Valhall interpreters about every
instruction of every binary (pan_sim_bi_implemented/pan_sim_va_implemented,
the interpreters' own dispatch).  Printed per architecture: instructions
and distinct instructions seen, the share executed by instruction count
and by distinct instruction, for all instructions and for the ALU class
(everything but message instructions), and the refused instructions
ranked by frequency, ALU and message apart.  Nothing compiled is kept.

With --floor ARCH=PERCENT the run fails when the ALU coverage by count of
that architecture drops below PERCENT.  --sample N takes every Nth
.shader_test file, for quick runs; the meson test (pan-sim-coverage) runs
the whole corpus, in about 25 seconds on two cores, like this:

  PATH=/usr/bin:$PATH python3 tests/oracle/sim_coverage.py \\
      --compiler build/tests/oracle/stock-bifrost-compiler \\
      --tool build/tests/oracle/sim-coverage-tool \\
      ../shared/shader-db/shaders \\
      /usr/lib/x86_64-linux-gnu/piglit/tests/spec/glsl-es-3.00 ...
"""

import argparse
import collections
import concurrent.futures
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_oracle  # noqa: E402  (corpus listing, splitting and compiling)

ARCHS = {0x7212: 'v7', 0x9093: 'v9'}

# Message instructions: their execution is another part of the interpreter
# (the *_msg*.c files); reported apart from the ALU class.
MESSAGE_FAMILIES = {
    'acmpstore', 'acmpxchg', 'atest', 'atom', 'atom1', 'atom1_return',
    'atom_cx', 'atom_post', 'atom_pre', 'atom_return', 'axchg', 'blend',
    'doorbell', 'kaboom', 'ld_attr', 'ld_buffer', 'ld_cvt', 'ld_gclk',
    'ld_tile', 'ld_var', 'lea_attr', 'lea_buf_imm', 'load', 'st_cvt',
    'st_tile', 'store', 'tex', 'zs_emit',
}


def tool_rows(args, arch, bins):
    """(name, family, unit, ok, count, reason) rows over some binaries."""
    rows = []
    for i in range(0, len(bins), 200):
        p = subprocess.run([args.tool, '--arch=' + arch] + bins[i:i + 200],
                           capture_output=True, text=True)
        if p.returncode:
            sys.exit(f'sim-coverage-tool failed: {p.stderr.strip()}')
        for line in p.stdout.splitlines():
            name, fam, unit, ok, n, reason = line.split('\t')
            rows.append((name, fam, unit, ok == 'ok', int(n), reason))
    return rows


def report(arch, rows, top):
    """Print the table of one architecture; returns the ALU % by count."""
    total = collections.Counter()
    ops = collections.defaultdict(set)
    refused = {'alu': collections.Counter(), 'message': collections.Counter()}
    reasons = {}
    for name, fam, unit, ok, n, reason in rows:
        cls = 'message' if fam in MESSAGE_FAMILIES else 'alu'
        key = name if arch == 'v9' else f'{unit.lower()} {name}'
        for c in ('all', cls):
            total[(c, ok)] += n
            ops[(c, 'seen')].add(key)
            if ok:
                ops[(c, 'ok')].add(key)
        if not ok:
            refused[cls][key] += n
            reasons.setdefault(key, reason)

    def pct(a, b):
        return 100.0 * a / b if b else 100.0

    print(f'== {arch} ==')
    res = {}
    for c in ('all', 'alu', 'message'):
        seen = total[(c, True)] + total[(c, False)]
        n_ops = len(ops[(c, 'seen')])
        # An op counts as implemented when every form seen of it runs.
        n_ok = len(ops[(c, 'ok')] - set(refused['alu']) - set(refused['message']))
        res[c] = pct(total[(c, True)], seen)
        print(f'  {c:8} {seen:8} instructions, {res[c]:6.2f}% executed; '
              f'{n_ops:4} distinct, {n_ok:4} ({pct(n_ok, n_ops):6.2f}%) '
              f'fully executed')
    for cls in ('alu', 'message'):
        print(f'  refused {cls} instructions, by frequency:')
        for key, n in refused[cls].most_common(top):
            print(f'    {n:8}  {key:28} {reasons[key][:70]}')
        rest = len(refused[cls]) - top
        if rest > 0:
            print(f'    ... and {rest} more')
    return res['alu']


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--compiler', required=True)
    ap.add_argument('--tool', required=True)
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 2)
    ap.add_argument('--sample', type=int, default=1,
                    help='take every Nth .shader_test file')
    ap.add_argument('--top', type=int, default=25)
    ap.add_argument('--floor', action='append', default=[],
                    help='ARCH=PERCENT: least ALU coverage by count')
    ap.add_argument('--missing', action='append', default=[],
                    help='a corpus the build could not find, and why')
    ap.add_argument('corpus', nargs='+')
    args = ap.parse_args()
    args.family = 'bifrost'  # for run_oracle.compile_one

    missing = list(args.missing)
    tests = run_oracle.corpus_tests(args.corpus, missing)
    tests = tests[::max(args.sample, 1)]

    with tempfile.TemporaryDirectory(prefix='pan-sim-cov-') as work:
        bins = collections.defaultdict(list)
        compiled = 0
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
            futs = [ex.submit(run_oracle.compile_one, args, t,
                              os.path.join(work, str(i)))
                    for i, t in enumerate(tests)]
            for f in futs:
                _, out, reason = f.result()
                if reason:
                    continue
                compiled += 1
                for b in out:
                    bins[ARCHS[int(b[-8:-4], 16)]].append(b)
        print(f'{len(tests)} shader_test files (every {args.sample}), '
              f'{compiled} compiled by the stock compiler')
        alu = {arch: report(arch, tool_rows(args, arch, bins[arch]), args.top)
               for arch in sorted(bins)}

    bad = False
    for m in missing:
        print(f'MISSING: {m}')
        bad = True
    for f in args.floor:
        arch, _, floor = f.partition('=')
        got = alu.get(arch, 0.0)
        if got < float(floor):
            print(f'FAIL: {arch} ALU coverage {got:.2f}% is below the '
                  f'floor {floor}%')
            bad = True
        else:
            print(f'{arch} ALU coverage {got:.2f}% (floor {floor}%)')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
