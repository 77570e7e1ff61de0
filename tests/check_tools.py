#!/usr/bin/env python3
# Copyright 2026 The Panfrost fork authors
# SPDX-License-Identifier: MIT
"""Our command line tools on bad input.

  check_tools.py NAME=PATH...

Every tool prints its usage on stdout and exits 0 with --help, exits 2
with the usage on stderr for an unknown option, and names a file it
cannot read together with the reason.  pan-disasm must also say when what
it decoded is no valid program (garbage, a truncated end) and exit 1,
while still printing what it could decode, and accept a valid program and
zero padding.
"""

import os
import subprocess
import sys
import tempfile

checks = failures = 0


def check(cond, what):
    global checks, failures
    checks += 1
    if not cond:
        failures += 1
        print('FAIL ' + what)


# In a cross build the tools run under qemu-user (tests/meson.build)
WRAPPER = os.environ.get('PAN_EXE_WRAPPER', '').split()


def run(cmd, stdin=None):
    p = subprocess.run(WRAPPER + cmd, input=stdin, capture_output=True,
                       timeout=60)
    return (p.returncode, p.stdout.decode(errors='replace'),
            p.stderr.decode(errors='replace'))


# Arguments that make each tool reach its input file (None: reads none).
FILE_ARGS = {
    'pan-disasm': ['--arch=v7'],
    'pan-asm': ['--arch=v9'],
    'pan-decode': [],
    'pan-replay': [],
}


def check_common(name, path, tmp):
    rc, out, err = run([path, '--help'])
    check(rc == 0 and 'usage:' in out and not err,
          f'{name} --help: exit {rc}, stdout {out!r}, stderr {err!r}')
    rc, out, err = run([path, '--no-such-option'])
    check(rc == 2 and 'usage:' in err,
          f'{name} --no-such-option: exit {rc}, stderr {err!r}')
    if name not in FILE_ARGS:
        return
    missing = os.path.join(tmp, 'missing.bin')
    rc, out, err = run([path] + FILE_ARGS[name] + [missing])
    text = out + err
    check(rc != 0 and missing in text and 'No such file or directory' in text,
          f'{name} on a missing file: exit {rc}, output {text!r}')
    # A folder opens but cannot be read.  (pan-decode's reader, in
    # src/panfrost/decode, does not give the reason yet.)
    rc, out, err = run([path] + FILE_ARGS[name] + [tmp])
    text = out + err
    check(rc != 0 and tmp in text and
          (name == 'pan-decode' or 'Is a directory' in text),
          f'{name} on a folder: exit {rc}, output {text!r}')


def check_disasm(disasm, asm, tmp):
    garbage = bytes((i * 37 + 11) & 0xff for i in range(64))
    for arch in ('v7', 'v9'):
        rc, out, err = run([disasm, '--arch=' + arch, '-'], garbage)
        check(rc == 1 and 'offset 0x' in err and 'not a valid' in err and
              out.strip(),
              f'pan-disasm --arch={arch} on garbage: exit {rc}, '
              f'stdout {out[:200]!r}, stderr {err[:300]!r}')
        # Zero padding is how programs end: not an error.
        rc, out, err = run([disasm, '--arch=' + arch, '-'], bytes(32))
        check(rc == 0 and not err,
              f'pan-disasm --arch={arch} on zero padding: exit {rc}, '
              f'stderr {err!r}')

    # A cut-off word: what is whole is printed, the end is named.
    rc, out, err = run([disasm, '--arch=v9', '-'], bytes(8) + b'\x01\x02')
    check(rc == 1 and 'truncated' in err and 'offset 0x8' in err and
          out.strip(),
          f'pan-disasm on a truncated program: exit {rc}, stdout {out!r}, '
          f'stderr {err!r}')

    rc, out, err = run([disasm, '--arch=v8', '-'], bytes(8))
    check(rc == 2 and 'unknown architecture' in err,
          f'pan-disasm --arch=v8: exit {rc}, stderr {err!r}')

    # A valid program goes through both tools and back without a word.
    src = os.path.join(tmp, 'prog.s')
    binary = os.path.join(tmp, 'prog.bin')
    with open(src, 'w') as f:
        f.write('fadd.f32 r0, r1, r2\n')
    rc, out, err = run([asm, '--arch=v9', '-o', binary, src])
    check(rc == 0 and os.path.exists(binary) and
          os.path.getsize(binary) == 8,
          f'pan-asm on a valid program: exit {rc}, stderr {err!r}')
    rc, out, err = run([disasm, '--arch=v9', binary])
    check(rc == 0 and out.startswith('fadd.f32') and not err,
          f'pan-disasm on a valid program: exit {rc}, stdout {out!r}, '
          f'stderr {err!r}')


def main():
    tools = dict(a.split('=', 1) for a in sys.argv[1:])
    with tempfile.TemporaryDirectory() as tmp:
        for name, path in sorted(tools.items()):
            check_common(name, path, tmp)
        if 'pan-disasm' in tools and 'pan-asm' in tools:
            check_disasm(tools['pan-disasm'], tools['pan-asm'], tmp)
    print(f'check_tools: {len(tools)} tools, {checks} checks, '
          f'{failures} failures')
    return 1 if failures or not checks else 0


if __name__ == '__main__':
    sys.exit(main())
