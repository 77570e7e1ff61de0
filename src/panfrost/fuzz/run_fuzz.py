#!/usr/bin/env python3
"""Run one libFuzzer target for a while, from a fresh corpus folder seeded
with the synthetic frames of our decoder tests (when a generator is given),
so the decoder fuzzers start from well-formed dumps instead of having to
discover the dump format byte by byte.

Usage: run_fuzz.py --fuzzer FUZZER [--gen GENERATOR] -- LIBFUZZER_ARGS..."""

import argparse
import subprocess
import sys
import tempfile

VARIANTS = ('frame', 'cycle', 'wild', 'baddep', 'badenum')


def main():
    argv = sys.argv[1:]
    cut = argv.index('--') if '--' in argv else len(argv)
    ap = argparse.ArgumentParser()
    ap.add_argument('--fuzzer', required=True)
    ap.add_argument('--gen')
    a = ap.parse_args(argv[:cut])
    rest = argv[cut + 1:]

    with tempfile.TemporaryDirectory(prefix='pan-fuzz-') as corpus:
        if a.gen:
            for v in VARIANTS:
                subprocess.run([a.gen, f'{corpus}/seed-{v}.dump', v],
                               check=True)
        return subprocess.run([a.fuzzer, corpus] + rest).returncode


if __name__ == '__main__':
    sys.exit(main())
