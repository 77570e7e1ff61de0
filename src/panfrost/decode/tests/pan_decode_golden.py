#!/usr/bin/env python3
# Copyright 2026 The Panfrost fork authors
# SPDX-License-Identifier: MIT
"""Run one decoder test case.

  pan_decode_golden.py --gen GEN --tool PAN_DECODE --variant V
                       (--ref LOG [--update] | --expect-error TEXT)
                       [--mutate truncate|badmagic|hugesize|overlap]

GEN writes a synthetic dump for variant V; --mutate then damages the file
itself.  With --ref the tool must exit 0 and print exactly LOG; with
--expect-error it must exit non-zero, print an ERROR line containing TEXT,
and must not crash (sanitizer reports and signals fail the test).
"""

import argparse
import difflib
import os
import shlex
import struct
import subprocess
import sys
import tempfile


def mutate(path, how):
    data = bytearray(open(path, 'rb').read())
    chains = struct.unpack_from('<I', data, 20)[0]
    first_map = 32 + 8 * chains
    if how == 'truncate':
        data = data[:len(data) // 2]
    elif how == 'badmagic':
        data[0:8] = b'NOTADUMP'
    elif how == 'hugesize':
        struct.pack_into('<Q', data, first_map + 8, 1 << 62)
    elif how == 'overlap':
        # Move the second mapping onto the first one.
        size0 = struct.unpack_from('<Q', data, first_map + 8)[0]
        name0 = struct.unpack_from('<I', data, first_map + 20)[0]
        second = first_map + 24 + name0 + size0
        struct.pack_into('<Q', data, second,
                         struct.unpack_from('<Q', data, first_map)[0])
    open(path, 'wb').write(bytes(data))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--gen', required=True)
    ap.add_argument('--tool', required=True)
    ap.add_argument('--variant', default='frame')
    ap.add_argument('--mutate')
    ap.add_argument('--ref')
    ap.add_argument('--update', action='store_true')
    ap.add_argument('--expect-error')
    a = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        name = a.variant + '.pandump'
        gen, tool = os.path.abspath(a.gen), os.path.abspath(a.tool)
        # In a cross build meson names the emulator (qemu-user) here
        wrap = shlex.split(os.environ.get('MESON_EXE_WRAPPER', ''))
        subprocess.run(wrap + [gen, name, a.variant], cwd=tmp, check=True)
        if a.mutate:
            mutate(os.path.join(tmp, name), a.mutate)
        p = subprocess.run(wrap + [tool, name], cwd=tmp,
                           capture_output=True, text=True)
    out = p.stdout
    if p.returncode < 0 or p.returncode > 2 or 'Sanitizer' in p.stderr \
            or 'runtime error' in p.stderr:
        print(p.stderr)
        print('FAIL: pan-decode crashed (status %d)' % p.returncode)
        return 1

    if a.expect_error is not None:
        hits = [l for l in out.splitlines()
                if 'ERROR: ' in l and a.expect_error in l]
        if p.returncode == 0 or not hits:
            print(out[-4000:])
            print('FAIL: expected an ERROR line with "%s" (status %d)'
                  % (a.expect_error, p.returncode))
            return 1
        print('1 passed, 0 failed: %s' % hits[0].strip())
        return 0

    if a.update:
        open(a.ref, 'w').write(out)
    ref = open(a.ref).read()
    if p.returncode != 0 or out != ref:
        sys.stdout.writelines(difflib.unified_diff(
            ref.splitlines(True), out.splitlines(True), a.ref, 'pan-decode'))
        print('FAIL: output differs from %s (status %d)'
              % (a.ref, p.returncode))
        return 1
    print('1 passed, 0 failed: %d lines match %s'
          % (len(out.splitlines()), os.path.basename(a.ref)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
