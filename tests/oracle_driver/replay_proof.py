#!/usr/bin/python3
"""Proof of pan-replay against the stock driver (docs/drivers/panfrost/replay.rst).

For each mocked GPU (G52, G57): run a piglit shader_runner test on the
base's stock Panfrost driver over our drm-shim with PAN_SHIM_DUMP, replay
every captured submit with pan-replay and require the replayed PNGs to be
byte-identical to the ones the shim wrote after running the same submits.
Then run the test again with the stock driver's own PAN_MESA_DEBUG=trace,dump
text dump, replay that, and require its last render target to equal the
shim's. The test draws opaquely over the whole target (no blending, no
preload), so that the text dump being taken after the GPU ran does not
matter.

  replay_proof.py --shim SO --replay EXE [--stock DIR] [--test FILE]

Exits 77 (skipped) without build-stock or piglit.
"""

import argparse
import glob
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run_piglit  # noqa: E402

TEST = 'tests/spec/glsl-1.10/execution/glsl-fs-uniform-bool-1.shader_test'
DEBUG = 'gl3,noafbc'


def piglit(drivers, gpu, test, extra, cwd):
    env = drivers.env(gpu)
    env.update(extra)
    runner = os.path.join(drivers.piglit, 'bin', 'shader_runner')
    p = subprocess.run([runner, test, '-auto', '-fbo'], env=env, cwd=cwd,
                       capture_output=True, text=True, errors='replace',
                       timeout=120, stdin=subprocess.DEVNULL)
    out = p.stdout + p.stderr
    if '"result": "pass"' not in p.stdout:
        sys.exit(f'FAIL: {gpu}: {os.path.basename(test)} did not pass on the '
                 f'stock driver:\n{out[-3000:]}')


def replay(tool, args, out):
    os.makedirs(out, exist_ok=True)
    p = subprocess.run([tool, '--out', out] + args, capture_output=True,
                       text=True, errors='replace', timeout=300)
    if p.returncode != 0:
        sys.exit(f'FAIL: pan-replay {" ".join(args)} exited '
                 f'{p.returncode}:\n{(p.stdout + p.stderr)[-3000:]}')
    return p.stdout


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def check_gpu(drivers, tool, gpu, test, tmp):
    gpu_id = run_piglit.GPUS[gpu][0]
    shim_dir = os.path.join(tmp, gpu, 'shim')
    os.makedirs(shim_dir)
    piglit(drivers, gpu, test, {'PAN_MESA_DEBUG': DEBUG,
                                'PAN_SHIM_DUMP': shim_dir}, tmp)
    dumps = sorted(glob.glob(os.path.join(shim_dir, 'submit-*.pandump')))
    pngs = sorted(glob.glob(os.path.join(shim_dir, '*.png')))
    if not dumps or not pngs:
        sys.exit(f'FAIL: {gpu}: the shim wrote {len(dumps)} dumps and '
                 f'{len(pngs)} PNGs')

    # Every submit replayed in order, in one simulator.
    out = os.path.join(tmp, gpu, 'replay')
    replay(tool, dumps, out)
    for png in pngs:
        mine = os.path.join(out, os.path.basename(png))
        if not os.path.exists(mine):
            sys.exit(f'FAIL: {gpu}: pan-replay did not write '
                     f'{os.path.basename(png)}')
        if read(mine) != read(png):
            sys.exit(f'FAIL: {gpu}: {os.path.basename(png)} differs between '
                     'the shim run and the replay')
    print(f'{gpu}: {len(dumps)} submits replayed, {len(pngs)} PNGs '
          'byte-identical')

    # The stock driver's own text dump of the same test.
    text_dir = os.path.join(tmp, gpu, 'text')
    os.makedirs(text_dir)
    piglit(drivers, gpu, test,
           {'PAN_MESA_DEBUG': DEBUG + ',trace,dump',
            'PANDECODE_DUMP_FILE': os.path.join(text_dir, 'stock')}, tmp)
    texts = sorted(glob.glob(os.path.join(text_dir, 'stock.*')))
    if not texts:
        sys.exit(f'FAIL: {gpu}: the stock driver wrote no text dump')
    out = os.path.join(tmp, gpu, 'replay-text')
    replay(tool, ['--gpu', gpu_id] + texts, out)
    got = sorted(glob.glob(os.path.join(out, '*-rt0.png')))
    if not got:
        sys.exit(f'FAIL: {gpu}: no render target replayed from the text dump')
    if read(got[-1]) != read(pngs[-1]):
        sys.exit(f'FAIL: {gpu}: the text dump replays to '
                 f'{os.path.basename(got[-1])}, which differs from the '
                 f"shim's {os.path.basename(pngs[-1])}")
    print(f'{gpu}: the text dump ({len(texts)} files) replays to the same '
          'render target')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--shim', required=True)
    ap.add_argument('--replay', required=True)
    ap.add_argument('--stock', default=os.path.join(
        os.path.dirname(os.path.dirname(HERE)), 'build-stock'))
    ap.add_argument('--test', default=TEST)
    args = ap.parse_args()

    dri = os.path.join(args.stock, 'src/gallium/targets/dri/panfrost_dri.so')
    if not os.path.exists(dri):
        print(f'SKIP: no stock driver at {dri} '
              '(tests/oracle_driver/build-stock.sh)')
        return 77
    try:
        piglit_dir = run_piglit.find_piglit()
    except SystemExit as e:
        print(f'SKIP: {e}')
        return 77
    test = os.path.join(piglit_dir, args.test)
    drivers = run_piglit.Drivers(args.stock, args.shim, DEBUG)
    drivers.piglit = piglit_dir
    with tempfile.TemporaryDirectory(prefix='replay-proof-') as tmp:
        for gpu in ('G52', 'G57'):
            check_gpu(drivers, args.replay, gpu, test, tmp)
    print('PASS')
    return 0


if __name__ == '__main__':
    sys.exit(main())
