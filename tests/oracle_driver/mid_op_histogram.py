#!/usr/bin/python3
# Copyright 2026 The Panfrost fork authors
# SPDX-License-Identifier: MIT
"""Midgard instructions by opcode, ours against stock, through the drivers.

Every program of a shader-db corpus goes through shader_runner on the noop
drm-shim as in run_shaderdb.py, the stock driver with
MIDGARD_MESA_DEBUG=shaders (its scheduled IR: one line per instruction,
which is what its "inst" counts) and ours with MIDGARD_MESA_DEBUG=disasm
(the kept binary's disassembly).  Prints, per stage and over all shaders
of the programs both printed alike, each opcode's count on both sides and
the difference (ours - stock), largest first; then the moves by
destination and source class (w: r0-r15, u: uniforms, const: embedded
constants, imm: inline immediate, rNN: a fixed register), which tells
store-data moves (r26/r27), coordinate moves (r28) and texture result
copies (from r28/r29) apart.  Opcode names are folded to one spelling
(MOV/imov/fmov are "mov", ld_vary_32 is "ld_vary", ...), so an opcode
both compilers spell alike lines up; comparisons, selects and logic ops
are spelled differently (FCMP.lt against flt).

  mid_op_histogram.py [--gpu T860|T720] [--top N] [CORPUS...]
"""

import argparse
import collections
import concurrent.futures
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(TOP, 'tests', 'oracle'))
import run_shaderdb  # noqa: E402 (adds the Midgard GPUs)
import run_piglit  # noqa: E402
from compare_shaderdb import collect  # noqa: E402

UNITS = ('vmul', 'sadd', 'vadd', 'smul', 'lut')


def norm(op):
    op = op.lower()
    if op in ('mov', 'imov', 'fmov'):
        return 'mov'
    if op == 'add':
        return 'iadd'
    return re.sub(r'_(8|16|32|64|128)[iuf]?$', '', op)


def reg_class(n):
    if n is None:
        return '?'
    if n == 'imm':
        return 'imm'
    n = int(n)
    if n == 26:
        return 'const'
    return 'w' if n <= 15 else 'u' if n <= 23 else f'r{n}'


def dst_class(n):
    n = int(n)
    return 'w' if n <= 15 else f'r{n}'


def parse_stock(text):
    """[(stage letter, opcode Counter, move Counter)] from the stock
    compiler's scheduled IR (the second listing of each shader)."""
    out = []
    chunks = re.split(r'^shader: MESA_SHADER_(\w+)$', text, flags=re.M)
    for i in range(1, len(chunks), 2):
        ops, moves = collections.Counter(), collections.Counter()
        parts = re.split(r'^block0: \{', chunks[i + 1], flags=re.M)
        inside = True
        for ln in ('block0: {' + parts[2]).splitlines() if len(parts) > 2 \
                else []:
            if re.match(r'^block\d+: \{', ln):
                inside = True
                continue
            if ln.startswith('}'):
                inside = False
                continue
            if not inside or not ln.startswith('\t') or not ln.strip():
                continue
            tok = ln.split()[0]
            if tok.startswith('br'):
                ops['br'] += 1
                continue
            m = re.match(r'^(?:(?:%s)\.)?([A-Za-z0-9_]+)' % '|'.join(UNITS),
                         tok)
            ops[norm(m.group(1))] += 1
            mv = re.match(r'^\t(?:\w+\.)?[FI]?MOV\s+R(\d+)\S*,\s*(\S+)', ln)
            if mv:
                src = mv.group(2)
                r = re.match(r'R(\d+)', src)
                sc = 'imm' if src.startswith('#') else \
                    'u' if src.startswith('U') else \
                    reg_class(r.group(1)) if r else '?'
                moves[(dst_class(mv.group(1)), sc)] += 1
        out.append((chunks[i][0], ops, moves))
    return out


def parse_ours(text):
    """The same from our disassembly (one instruction per indented line;
    embedded constants and empty load/store halves are not
    instructions)."""
    out = []
    chunks = re.split(r'^-- disassembly \(MESA_SHADER_(\w+)\)$', text,
                      flags=re.M)
    for i in range(1, len(chunks), 2):
        ops, moves = collections.Counter(), collections.Counter()
        for ln in chunks[i + 1].strip('\n').splitlines():
            if not ln.startswith('\t'):
                if ln.startswith('.raw') or \
                        re.match(r'^(alu|ldst|tex|texvtx)', ln):
                    continue
                break
            t = ln.split()
            if t[0] in ('consts', 'ls.nop'):
                continue
            unit, _, op = t[0].partition('.')
            if unit.startswith('br'):
                ops['br'] += 1
                continue
            if unit == 'tx':
                ops['tex'] += 1
                continue
            ops[norm(op)] += 1
            if norm(op) == 'mov':
                f = dict(x.split('=', 1) for x in t[1:] if '=' in x)
                src = 'imm' if 'bimm' in t else f.get('b', 'r0')[1:]
                moves[(dst_class(f.get('d', 'r0')[1:]),
                       reg_class(src))] += 1
        out.append((chunks[i][0], ops, moves))
    return out


def run(path, config, debug, drivers, piglit):
    env = drivers.env(config)
    env.update(MIDGARD_MESA_DEBUG=debug, PAN_SHIM_EXEC='0',
               MESA_GL_VERSION_OVERRIDE='3.0',
               MESA_GLSL_VERSION_OVERRIDE='130', NIR_DEBUG='novalidate')
    if not run_piglit.is_ours(config):
        env['PAN_MESA_DEBUG'] = 'gl3'
    runner = os.path.join(piglit, 'bin', run_piglit.runner_for(path))
    p = subprocess.run([runner, path, '-auto', '-fbo'], env=env,
                       stdin=subprocess.DEVNULL, capture_output=True,
                       text=True, errors='replace', timeout=300)
    return p.stdout + p.stderr


def table(title, stock, ours, top):
    print(f'{title}: stock {sum(stock.values())}, ours '
          f'{sum(ours.values())}')
    keys = sorted(set(stock) | set(ours),
                  key=lambda k: (-abs(ours[k] - stock[k]), str(k)))
    for k in keys[:top]:
        name = k if isinstance(k, str) else f'{k[0]} <- {k[1]}'
        print(f'  {name:20} {stock[k]:7} {ours[k]:7} '
              f'{ours[k] - stock[k]:+7}')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('corpus', nargs='*')
    ap.add_argument('--gpu', default='T860', choices=('T860', 'T720'))
    ap.add_argument('--build', default=os.path.join(TOP, 'build'))
    ap.add_argument('--stock', default=os.path.join(TOP, 'build-stock'))
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 1)
    ap.add_argument('--top', type=int, default=25)
    a = ap.parse_args()
    corpus = a.corpus or [run_shaderdb.DEFAULT_CORPUS]
    piglit = run_piglit.find_piglit()
    drivers = run_shaderdb.compile_drivers(a.build, a.stock)

    def one(path):
        return (parse_stock(run(path, a.gpu, 'shaders', drivers, piglit)),
                parse_ours(run(path, run_piglit.ours(a.gpu), 'disasm',
                               drivers, piglit)))

    files = collect(corpus)
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        res = list(ex.map(one, files))
    per = collections.defaultdict(
        lambda: [collections.Counter() for _ in range(4)])
    used = 0
    for stock, ours in res:
        if not ours or [x[0] for x in stock] != [x[0] for x in ours]:
            continue
        used += 1
        for (stage, sops, smov), (_, oops, omov) in zip(stock, ours):
            for key in (stage, 'all'):
                per[key][0].update(sops)
                per[key][1].update(oops)
                per[key][2].update(smov)
                per[key][3].update(omov)
    print(f'{a.gpu}: {used} of {len(files)} programs (columns: stock, '
          'ours, ours - stock)')
    for key in ['all'] + sorted(k for k in per if k != 'all'):
        so, oo, sm, om = per[key]
        table(f'{key} instructions', so, oo, a.top)
        table(f'{key} moves (destination <- source)', sm, om, a.top)
    return 0


if __name__ == '__main__':
    sys.exit(main())
