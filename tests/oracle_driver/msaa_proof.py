#!/usr/bin/python3
"""Multisampling proof of the simulator.

softpipe, the reference of run_piglit.py, has no multisampling: every
piglit test of multisampled framebuffers and textures skips on it, so
there is no image to compare with. These tests check themselves instead
(sample positions, per-sample values read back with texelFetch, sample
masks), so each is run on the stock Panfrost driver over our simulator,
for each mocked GPU, and must pass there. softpipe runs them too: those
it can judge without multisampling (the API-level ones) must pass there
as well, the others skip; a failure on softpipe fails the test.

  msaa_proof.py [--gpus G52,G57] [--list msaa-tests.txt] [--stock DIR]
                [--build DIR] [--driver stock|ours] [--jobs N]

With --driver ours, our driver (from --build) runs them instead of the
stock one; msaa-ours-tests.txt lists those it must pass (on the G57).

Each line of the list is a piglit binary and its arguments, '#' starting
a comment. Exits 0 when every run passes on every GPU.  --jobs programs
(default: one per CPU) run at once, each on softpipe and then on every
GPU; their lines come out in the list's order.

See docs/drivers/panfrost/simulator-oracle.rst.
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import time

import run_piglit

HERE = os.path.dirname(os.path.abspath(__file__))
_RESULT = re.compile(r'PIGLIT: (\{.*\})\s*$', re.M)


def read_list(path):
    tests = []
    with open(path) as f:
        for line in f:
            line = line.split('#', 1)[0].split()
            if line:
                tests.append(line)
    return tests


def result_of(out):
    """The last whole-test result piglit printed (not a subtest's)."""
    for m in reversed(_RESULT.findall(out)):
        m = re.search(r'"result":\s*"([a-z]+)"', m)
        if m:
            return m.group(1)
    return None


def run(drivers, config, piglit, test, timeout):
    cmd = [os.path.join(piglit, 'bin', test[0])] + test[1:] + ['-auto',
                                                               '-fbo']
    env = drivers.env(config)
    # Programs reading piglit's data files (the ETC2 miptree images) look
    # for them there; the installed tree has them.
    env.setdefault('PIGLIT_SOURCE_DIR', piglit)
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, env=env, capture_output=True,
                           text=True, errors='replace', timeout=timeout,
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return 'timeout', timeout, ''
    out = p.stdout + p.stderr
    res = result_of(p.stdout)
    if p.returncode < 0 or res is None:
        res = 'crash'
    return res, round(time.monotonic() - start, 2), out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--gpus', default='G52,G57')
    ap.add_argument('--list', default=os.path.join(HERE, 'msaa-tests.txt'))
    ap.add_argument('--stock', default=os.path.join(run_piglit.TOP,
                                                    'build-stock'))
    ap.add_argument('--build', default=os.path.join(run_piglit.TOP, 'build'))
    ap.add_argument('--timeout', type=int, default=240)
    ap.add_argument('--driver', choices=('stock', 'ours'), default='stock')
    ap.add_argument('--jobs', type=int, default=0,
                    help='programs run at once (default: one per CPU)')
    a = ap.parse_args()

    piglit = run_piglit.find_piglit()
    shim = os.path.join(a.build, 'subprojects/mesa/src/panfrost/drm-shim/'
                        'libpanfrost_noop_drm_shim.so')
    drivers = run_piglit.Drivers(
        os.path.abspath(a.stock), shim, None,
        ours=os.path.join(os.path.abspath(a.build), 'subprojects/mesa')
        if a.driver == 'ours' else None)
    gpus = [g for g in a.gpus.split(',') if g]
    for g in gpus:
        if g not in run_piglit.GPUS:
            ap.error(f'unknown GPU {g}')
    def one(test):
        """(lines to print, passes, failures) of a program on softpipe and
        then on every GPU."""
        name = ' '.join(test)
        ref, _, _ = run(drivers, 'softpipe', piglit, test, a.timeout)
        if ref not in ('pass', 'skip'):
            return [f'msaa-proof: {name}: {ref} on softpipe: the reference '
                    'does not run it'], 0, 1
        lines, ok, bad = [], 0, 0
        for g in gpus:
            config = run_piglit.ours(g) if a.driver == 'ours' else g
            res, secs, out = run(drivers, config, piglit, test, a.timeout)
            if res == 'pass':
                ok += 1
                lines.append(f'msaa-proof: {g} {name}: pass ({secs} s; '
                             f'softpipe {ref})')
                continue
            bad += 1
            sim = [l for l in out.splitlines() if l.startswith('pan sim:')]
            why = sim[0] if sim else (out.strip().splitlines() or [''])[-1]
            lines.append(f'msaa-proof: {g} {name}: {res} ({why})')
        return lines, ok, bad

    failed = passed = 0
    jobs = max(1, a.jobs or os.cpu_count() or 1)
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for lines, ok, bad in pool.map(one, read_list(a.list)):
            for line in lines:
                print(line, flush=True)
            passed += ok
            failed += bad
    print(f'msaa-proof: {passed} passed, {failed} failed')
    return 1 if failed or not passed else 0


if __name__ == '__main__':
    sys.exit(main())
