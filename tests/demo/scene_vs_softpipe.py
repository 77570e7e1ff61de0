#!/usr/bin/env python3
# Copyright 2026 The Panfrost fork authors
# SPDX-License-Identifier: MIT
"""pan-demo's scene on the simulated G57 and G52 against softpipe.

Renders the scene (src/tools/pan_demo_scene.c) with our driver on the
drm-shim, whose simulator executes the jobs, and with the stock build's
softpipe (build-stock, as tests/oracle_driver/run_piglit.py uses it), then
compares the two PNGs pixel by pixel: at most MAX_BAD_PERMILLE of the
pixels may differ by more than TOLERANCE in a channel (edges, mip level
choice and the specular highlight's precision differ a little). softpipe
offers GLES 3.1, so its checker texture is written by the scene's compute
pass, while the G57 and G52 (GLES 2.0 and 3.0) make it on the CPU.

  scene_vs_softpipe.py --scene EXE --build DIR [--stock DIR]

Exits 77 (skipped) when the stock build has no softpipe.
"""

import argparse
import os
import struct
import subprocess
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
GPUS = ('9093', '7212')
TOLERANCE = 8
MAX_BAD_PERMILLE = 5


def read_png(path):
    """RGBA8 pixels of a PNG as pan_png writes it (filter 0 rows)."""
    with open(path, 'rb') as f:
        data = f.read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        sys.exit(f'FAIL: {path} is not a PNG')
    pos, idat, size = 8, b'', None
    while pos + 8 <= len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            size = struct.unpack('>II', body[:8])
            if body[8:10] != b'\x08\x06':
                sys.exit(f'FAIL: {path} is not 8-bit RGBA')
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    w, h = size
    raw = zlib.decompress(idat)
    stride = w * 4 + 1
    if len(raw) != stride * h or any(raw[y * stride] for y in range(h)):
        sys.exit(f'FAIL: {path}: unexpected row layout')
    return w, h, b''.join(raw[y * stride + 1:(y + 1) * stride]
                          for y in range(h))


def run(cmd, env, what):
    wrapper = os.environ.get('PAN_EXE_WRAPPER', '').split()
    p = subprocess.run(wrapper + cmd, env=env, capture_output=True,
                       text=True, timeout=240)
    if p.returncode != 0:
        sys.exit(f'FAIL: {what}: exit {p.returncode}\n{p.stdout}{p.stderr}')
    return p.stdout


def clean_env():
    e = dict(os.environ)
    for k in ('LD_PRELOAD', 'LIBGL_ALWAYS_SOFTWARE', 'GALLIUM_DRIVER',
              'PAN_GPU_ID', 'PAN_SHIM_EXEC', 'PAN_MESA_DEBUG',
              'MESA_GLES_VERSION_OVERRIDE'):
        e.pop(k, None)
    e['MESA_SHADER_CACHE_DISABLE'] = 'true'
    return e


def loader_env(e, mesa):
    e['LD_LIBRARY_PATH'] = ':'.join(
        os.path.join(mesa, d)
        for d in ('src/egl', 'src/gbm', 'src/mapi/shared-glapi'))
    e['__EGL_VENDOR_LIBRARY_FILENAMES'] = os.path.join(
        mesa, 'src/egl/50_mesa.json')
    return e


def compare(ref, out, gpu):
    w, h, a = ref
    w2, h2, b = out
    if (w, h) != (w2, h2):
        sys.exit(f'FAIL: {gpu}: {w2}x{h2} image, softpipe made {w}x{h}')
    bad = sum(1 for i in range(0, len(a), 4)
              if max(abs(a[i + k] - b[i + k]) for k in range(4)) > TOLERANCE)
    print(f'{gpu}: {bad} of {w * h} pixels differ from softpipe by more '
          f'than {TOLERANCE}')
    if bad * 1000 > MAX_BAD_PERMILLE * w * h:
        sys.exit(f'FAIL: {gpu}: more than {MAX_BAD_PERMILLE} per mille of '
                 'the pixels differ')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--scene', required=True)
    ap.add_argument('--build', required=True)
    ap.add_argument('--stock', default=os.path.join(
        os.path.dirname(os.path.dirname(HERE)), 'build-stock'))
    args = ap.parse_args()

    swrast = os.path.join(args.stock, 'src/gallium/targets/dri',
                          'swrast_dri.so')
    if not os.path.exists(swrast):
        print(f'SKIP: no softpipe at {swrast} (build-stock)')
        return 77
    mesa = os.path.join(args.build, 'subprojects/mesa')
    shim = os.path.join(mesa, 'src/panfrost/drm-shim',
                        'libpanfrost_noop_drm_shim.so')

    with tempfile.TemporaryDirectory() as tmp:
        # One driver per folder, so a failing load cannot fall back.
        sw_dir = os.path.join(tmp, 'softpipe')
        os.makedirs(sw_dir)
        os.symlink(os.path.realpath(swrast),
                   os.path.join(sw_dir, 'swrast_dri.so'))
        e = loader_env(clean_env(), args.stock)
        e.update(LIBGL_DRIVERS_PATH=sw_dir, LIBGL_ALWAYS_SOFTWARE='1',
                 GALLIUM_DRIVER='softpipe')
        ref_png = os.path.join(tmp, 'softpipe.png')
        out = run([args.scene, '--out', ref_png], e, 'softpipe')
        if 'GL_RENDERER: softpipe' not in out:
            sys.exit(f'FAIL: the reference run is not softpipe:\n{out}')
        # softpipe has GLES 3.1, so its texture comes from the compute
        # pass and the GPUs' from the CPU: the comparison checks both.
        if 'compute: 8x8 workgroups' not in out:
            sys.exit(f'FAIL: softpipe did not run the compute pass:\n{out}')
        ref = read_png(ref_png)
        # A blank reference would make the comparison prove nothing.
        colours = {ref[2][i:i + 4] for i in range(0, len(ref[2]), 4)}
        if len(colours) < 1000:
            sys.exit(f'FAIL: softpipe drew only {len(colours)} colours')

        for gpu in GPUS:
            e = loader_env(clean_env(), mesa)
            dri = os.path.join(mesa, 'src/gallium/targets/dri')
            e.update(LIBGL_DRIVERS_PATH=dri, GBM_DRIVERS_PATH=dri,
                     LD_PRELOAD=shim, PAN_GPU_ID=gpu)
            png = os.path.join(tmp, f'{gpu}.png')
            out = run([args.scene, '--out', png], e, gpu)
            if 'Panfrost' not in out or 'draw 4: sphere' not in out:
                sys.exit(f'FAIL: {gpu}: unexpected summary:\n{out}')
            compare(ref, read_png(png), gpu)
    return 0


if __name__ == '__main__':
    sys.exit(main())
