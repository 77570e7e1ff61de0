#!/usr/bin/python3
# Copyright 2026 The Panfrost fork authors
# SPDX-License-Identifier: MIT
"""Draws per second, our driver against the base's stock one.

  run.py [--build DIR] [--stock DIR] [--bench PROG] [--gpu ID]...
         [--runs N] [--seconds S] [--instructions] [CASE...]

Runs bench-draws (tests/bench_draws/bench_draws.c) through EGL
surfaceless on our no-op drm-shim with PAN_SHIM_EXEC=0 (jobs are accepted
and not run, so only the CPU side of a draw is measured), once with our
driver from --build and once with the stock driver of --stock
(tests/oracle_driver/build-stock.sh builds it), alternating the two N
times, and prints the median draws per second of each case with the ratio
ours/stock.  Both drivers run on the same shim, the one of --build.

When our driver cannot draw on a GPU (no draw emitters for its
architecture), its column says so and only the stock figure is printed.
A case in which the driver dropped draws (it printed "dropped") is marked:
its figure measures the refusal, not a draw.

--instructions counts instead the CPU instructions of one draw (frontend
and driver), with valgrind --tool=callgrind: the difference between runs of
36 and 4 frames, divided by the extra draws.  Slower, but deterministic,
so it compares the drivers on a loaded machine; the ratio is stock/ours
(higher is better for ours, like the draws/s ratio).

This is a benchmark, not a test: the figures depend on the machine and
its load.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
CASES = ('same', 'uniform', 'texture', 'vbuf', 'upload')
GPU_NAMES = {'9093': 'G57', '7212': 'G52', '6221': 'G72'}


def snapshot(path, folder):
    """A private copy of a library: other builds relinking it during the
    run must not make a run fail to load it."""
    os.makedirs(folder, exist_ok=True)
    copy = os.path.join(folder, os.path.basename(path))
    shutil.copyfile(path, copy)
    return copy


def driver_env(build, shim, gpu, stock, dri):
    """The environment that makes glvnd load one build's EGL and the
    driver of folder dri, as bin/pan-env and
    tests/oracle_driver/run_piglit.py set it up."""
    e = dict(os.environ)
    for k in ('LD_PRELOAD', 'LIBGL_ALWAYS_SOFTWARE', 'GALLIUM_DRIVER',
              'MESA_LOADER_DRIVER_OVERRIDE', 'PAN_MESA_DEBUG'):
        e.pop(k, None)
    m = build if stock else os.path.join(build, 'subprojects', 'mesa')
    libs = [os.path.join(m, d) for d in
            ('src/egl', 'src/gbm', 'src/mapi/shared-glapi')]
    if os.environ.get('LD_LIBRARY_PATH'):
        libs.append(os.environ['LD_LIBRARY_PATH'])
    e['LD_LIBRARY_PATH'] = ':'.join(libs)
    e['__EGL_VENDOR_LIBRARY_FILENAMES'] = os.path.join(m, 'src/egl/'
                                                       '50_mesa.json')
    e['LIBGL_DRIVERS_PATH'] = dri
    e['GBM_DRIVERS_PATH'] = dri
    e['LD_PRELOAD'] = shim
    e['PAN_GPU_ID'] = gpu
    e['PAN_SHIM_EXEC'] = '0'
    e['MESA_SHADER_CACHE_DISABLE'] = 'true'
    return e


def run_once(bench, env, cases, seconds):
    """{case: draws per second}, {case: True when draws were dropped},
    or None and the reason."""
    out = {}
    dropped = {}
    for c in cases:
        p = subprocess.run([bench, '--seconds', str(seconds), c], env=env,
                           capture_output=True, text=True, timeout=600)
        if p.returncode != 0:
            return None, (p.stderr.strip().splitlines() or ['exit %d' %
                                                            p.returncode])[-1]
        for line in p.stdout.splitlines():
            w = line.split()
            if len(w) == 2 and w[0] == c:
                out[c] = float(w[1])
        dropped[c] = 'dropped' in p.stderr
    return (out, dropped), None


def instructions(bench, env, case, frames):
    """Instructions callgrind counted for a run of `frames` frames and
    whether the driver dropped draws, or None and the reason."""
    p = subprocess.run(['valgrind', '--tool=callgrind',
                        '--callgrind-out-file=/dev/null', bench,
                        '--frames', str(frames), case],
                       env=env, capture_output=True, text=True, timeout=1200)
    for line in p.stderr.splitlines():
        w = line.split()
        if p.returncode == 0 and len(w) >= 4 and w[1] == 'Collected':
            return (int(w[3]), 'dropped' in p.stderr), None
    return None, (p.stderr.strip().splitlines() or ['exit %d' %
                                                    p.returncode])[-1]


def report_instructions(a, cases, bench, shim, dri):
    """Instructions per draw of each driver, and the ratio stock/ours."""
    if not shutil.which('valgrind'):
        sys.exit('bench_draws: --instructions needs valgrind')
    lo, hi, batch = 4, 36, 64
    print('instructions per draw (callgrind, frontend and driver), on the '
          'no-op drm-shim')
    print(f'{"GPU":5} {"case":8} {"ours":>10} {"stock":>10} {"stock/ours":>10}')
    for gpu in a.gpu or ['9093', '7212']:
        name = GPU_NAMES.get(gpu, gpu)
        for c in cases:
            per, cells = {}, {}
            for who in ('ours', 'stock'):
                env = driver_env(a.stock if who == 'stock' else a.build,
                                 shim, gpu, who == 'stock', dri[who])
                r0, why = instructions(bench, env, c, lo)
                r1, why = (r0, why) if r0 is None else \
                    instructions(bench, env, c, hi)
                if r1 is None:
                    print(f'{name}: {who}: {c}: no count ({why})')
                    cells[who] = 'n/a'
                    continue
                per[who] = (r1[0] - r0[0]) / ((hi - lo) * batch)
                cells[who] = '%.0f%s' % (per[who], '*' if r1[1] else '')
            ratio = '-'
            if len(per) == 2 and not any(v.endswith('*')
                                         for v in cells.values()):
                ratio = '%.2f' % (per['stock'] / per['ours'])
            print(f'{name:5} {c:8} {cells["ours"]:>10} {cells["stock"]:>10} '
                  f'{ratio:>10}')
            sys.stdout.flush()
    print('* the driver dropped these draws: the count measures the refusal')
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--build', default=os.path.join(TOP, 'build'))
    ap.add_argument('--stock', default=os.path.join(TOP, 'build-stock'))
    ap.add_argument('--bench', help='bench-draws (default: in --build)')
    ap.add_argument('--gpu', action='append',
                    help='PAN_GPU_ID (default: 9093 and 7212)')
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--seconds', type=float, default=0.5)
    ap.add_argument('--instructions', action='store_true',
                    help='count instructions per draw with callgrind')
    ap.add_argument('cases', nargs='*', metavar='CASE',
                    help=', '.join(CASES) + ' (default: all)')
    a = ap.parse_args()
    cases = a.cases or list(CASES)
    for c in cases:
        if c not in CASES:
            ap.error(f'unknown case {c}')
    bench = a.bench or os.path.join(a.build, 'tests', 'bench_draws',
                                    'bench-draws')
    shim = os.path.join(a.build, 'subprojects', 'mesa', 'src', 'panfrost',
                        'drm-shim', 'libpanfrost_noop_drm_shim.so')
    for path, what in ((bench, 'bench-draws (ninja -C BUILD '
                               'tests/bench_draws/bench-draws)'),
                       (shim, 'our drm-shim'),
                       (os.path.join(a.stock, 'src/gallium/targets/dri/'
                                     'panfrost_dri.so'),
                        'the stock driver (tests/oracle_driver/'
                        'build-stock.sh)')):
        if not os.path.exists(path):
            sys.exit(f'bench_draws: {path} is missing: build {what}')
    snap = tempfile.mkdtemp(prefix='pan-bench-draws-')
    try:
        # One driver a folder: a driver that fails to load must not be
        # replaced by another one (Mesa falls back to swrast).
        dri = {}
        for who, m in (('ours', os.path.join(a.build, 'subprojects', 'mesa')),
                       ('stock', a.stock)):
            dri[who] = os.path.join(snap, who)
            snapshot(os.path.join(m, 'src/gallium/targets/dri/'
                                  'panfrost_dri.so'), dri[who])
        fn = report_instructions if a.instructions else report
        return fn(a, cases, bench, snapshot(shim, snap), dri)
    finally:
        shutil.rmtree(snap, ignore_errors=True)


def report(a, cases, bench, shim, dri):
    """Runs the cases and prints the table."""

    print(f'draws/s on the no-op drm-shim (PAN_SHIM_EXEC=0), median of '
          f'{a.runs} alternating runs of {a.seconds} s per case')
    print(f'{"GPU":5} {"case":8} {"ours":>10} {"stock":>10} {"ours/stock":>10}')
    for gpu in a.gpu or ['9093', '7212']:
        rates = {'ours': {c: [] for c in cases},
                 'stock': {c: [] for c in cases}}
        drops = {'ours': set(), 'stock': set()}
        failed = {'ours': [], 'stock': []}
        for _ in range(a.runs):
            for who in ('ours', 'stock'):
                env = driver_env(a.stock if who == 'stock' else a.build,
                                 shim, gpu, who == 'stock', dri[who])
                res, why = run_once(bench, env, cases, a.seconds)
                if res is None:
                    failed[who].append(why)
                    continue
                for c, r in res[0].items():
                    rates[who][c].append(r)
                drops[who] |= {c for c, d in res[1].items() if d}
        name = GPU_NAMES.get(gpu, gpu)
        for c in cases:
            cell = {}
            for who in ('ours', 'stock'):
                if rates[who][c]:
                    cell[who] = '%.0f%s' % (statistics.median(rates[who][c]),
                                            '*' if c in drops[who] else '')
                else:
                    cell[who] = 'n/a'
            ratio = '-'
            if (rates['ours'][c] and rates['stock'][c] and
                    c not in drops['ours'] and c not in drops['stock']):
                ratio = '%.2f' % (statistics.median(rates['ours'][c]) /
                                  statistics.median(rates['stock'][c]))
            print(f'{name:5} {c:8} {cell["ours"]:>10} {cell["stock"]:>10} '
                  f'{ratio:>10}')
        for who, whys in failed.items():
            if whys:
                print(f'{name}: {who}: {len(whys)} of {a.runs} runs failed '
                      f'({whys[0]})')
        if any(drops.values()):
            print(f'{name}: * the driver dropped these draws (it refuses '
                  'them): the figure measures the refusal, no ratio')
        sys.stdout.flush()
    return 0


if __name__ == '__main__':
    sys.exit(main())
