#!/usr/bin/python3
# Copyright 2026 The Panfrost fork authors
# SPDX-License-Identifier: MIT
"""shader-db through the drivers, as a Mali user would measure it.

Every program of a shader-db corpus goes through piglit's shader_runner
on the noop drm-shim (PAN_SHIM_EXEC=0: nothing executes), once with the
base's stock Panfrost and once with ours, with BIFROST_MESA_DEBUG=shaderdb.
The GL state tracker compiles each linked program's default variant at
link time, so the drivers' compilers print one "SHADER-DB:" line per
shader.  Printed per GPU, the two drivers side by side: programs whose
shaders all compiled, totals over the programs both compiled
(instructions, cycles, and on Bifrost tuples and clauses), shaders
running fewer threads than stock's, spilling shaders, and the CPU time
of the whole run (shader_runner processes, user + system).

  run_shaderdb.py [--gpus G52,G57,G72,T860,T720] [--build build]
                  [--stock build-stock] [--per-shader FILE] [CORPUS...]

On the Midgard GPUs (T860, T720; MIDGARD_MESA_DEBUG=shaderdb) the
tuples* column holds bundles.

CORPUS defaults to ../shared/shader-db/shaders.  The stock driver comes
from build-stock (tests/oracle_driver/build-stock.sh).  Both drivers get
MESA_GL_VERSION_OVERRIDE 3.0 (GLSL 1.30), which the corpus asks for at
most; see docs/drivers/panfrost/compiler.rst, "Through the driver".

The CPU time compares the compilers, not the build types: the stock
oracle is a release build, where NIR validation is compiled out, so both
drivers run with NIR_DEBUG=novalidate (a no-op for stock's); our other
assertions, and the GLSL IR validation of our DEBUG build, stay on, and
our own compiler's work is all counted.  --validate keeps our NIR
validation.  The output says which setting and build types were used.

--per-shader FILE writes one line per shader of the programs both
drivers compiled with as many shaders: GPU, program, shader index,
stage, then stock's and our instructions, bundles (tuples) and threads,
so the shaders where ours loses most can be sorted (sort -k 9 -n after
the difference columns: our minus stock's instructions and bundles).

With --max-inst-ratio / --max-cycle-ratio / --max-fewer-threads /
--min-programs the run fails (exit 1) when ours is above or below them.
"""

import argparse
import concurrent.futures
import json
import os
import re
import select
import signal
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(TOP, 'tests', 'oracle'))
import run_piglit  # noqa: E402
from compare_shaderdb import LINE, SPILLS, collect, figures  # noqa: E402

# The G72 and the Midgard GPUs are measured here though the piglit oracle
# does not draw on them (Midgard has no draw path in our driver: its
# shaders are compiled to be measured, MIDGARD_MESA_DEBUG=shaderdb).
GPUS = dict(run_piglit.GPUS)
GPUS.setdefault('G72', ('6221', 6))
GPUS.setdefault('T860', ('860', 5))
GPUS.setdefault('T720', ('720', 4))
run_piglit.GPUS.update(GPUS)
BUNDLES = re.compile(r'(\d+) bundles')
REFUSED = re.compile(r'shader refused: (?!draws are not supported)')
THREADS = re.compile(r'(\d+) threads')


def midgard_figures(text):
    """(stage, instructions, bundles, 0, 0.0, threads) of each Midgard
    shader-db line: bundles take the place of Bifrost's tuples."""
    out = []
    for line in text.splitlines():
        m = LINE.search(line)
        b = BUNDLES.search(line)
        if m and b:
            t = THREADS.search(line)
            out.append((m.group(1), int(m.group(2)), int(b.group(1)), 0, 0.0,
                        int(t.group(1)) if t else 0))
    return out


VALIDATE = False


def build_kind(build):
    """The build type of a meson build directory, as printed."""
    try:
        with open(os.path.join(build, 'meson-info',
                               'intro-buildoptions.json')) as f:
            opts = {o['name']: o['value'] for o in json.load(f)}
    except (OSError, ValueError, KeyError, TypeError):
        return 'build type unknown'
    kind = opts.get('buildtype', '?')
    ndebug = opts.get('b_ndebug')
    off = ndebug is True or ndebug == 'true' or \
        (ndebug == 'if-release' and kind == 'release')
    return (f'{kind} -O{opts.get("optimization", "?")}, assertions '
            f'{"off" if off else "on"}')


def cpu_setting(build, stock):
    """How the CPU column was measured (printed above the table)."""
    nir = ('ours validates NIR after every pass (--validate), stock does '
           'not' if VALIDATE else 'both with NIR_DEBUG=novalidate')
    return (f'CPU s: shader_runner user + system, {nir}; ours '
            f'{build_kind(build)}, stock {build_kind(stock)}')


def run_program(path, config, drivers, piglit, timeout):
    """(shader-db lines, compiled, CPU seconds) of one shader_runner run."""
    env = drivers.env(config)
    env['BIFROST_MESA_DEBUG'] = 'shaderdb'
    env['MIDGARD_MESA_DEBUG'] = 'shaderdb'
    env['PAN_SHIM_EXEC'] = '0'
    env['MESA_GL_VERSION_OVERRIDE'] = '3.0'
    env['MESA_GLSL_VERSION_OVERRIDE'] = '130'
    if not VALIDATE:
        # The stock oracle is a release build, where NIR validation is
        # compiled out; ours has assertions on and would validate after
        # every pass of the GLSL front end and the state tracker too.
        # Both get it, so the shared front end runs alike.
        env['NIR_DEBUG'] = 'novalidate'
    if not run_piglit.is_ours(config):
        env['PAN_MESA_DEBUG'] = 'gl3'
    runner = os.path.join(piglit, 'bin', run_piglit.runner_for(path))
    with tempfile.TemporaryFile() as out:
        try:
            returncode, usage = run_timed([runner, path, '-auto', '-fbo'],
                                          env, out, timeout)
        except OSError as e:
            sys.exit(f'run_shaderdb: cannot run {runner}: {e}')
        out.seek(0)
        text = out.read().decode(errors='replace')
    cpu = usage.ru_utime + usage.ru_stime
    lines = midgard_figures(text) if BUNDLES.search(text) else \
        figures(text, LINE.search)
    spills = sum(1 for ln in text.splitlines()
                 if LINE.search(ln) and SPILLS.search(ln)
                 and SPILLS.search(ln).group(1) != '0')
    # shader_runner passes a program without commands once it links; our
    # driver names each shader its compiler refuses (Midgard's dropped
    # draws are not a refusal of the shader).
    compiled = returncode == 0 and bool(lines) and not REFUSED.search(text)
    return lines, compiled, cpu, spills


def run_timed(argv, env, out, timeout):
    """Run argv (stdout and stderr to the file out, stdin empty), killed
    after timeout seconds; (exit code, its own rusage).  The child is
    reaped with wait4, which gives the rusage of that child alone (the
    pool runs several at once), and watched through a pidfd, so that the
    kill cannot reach another process that took its pid."""
    pid = os.posix_spawn(argv[0], argv, env, file_actions=[
        (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
        (os.POSIX_SPAWN_DUP2, out.fileno(), 1),
        (os.POSIX_SPAWN_DUP2, out.fileno(), 2),
    ])
    pidfd = os.pidfd_open(pid)
    try:
        if not select.select([pidfd], [], [], timeout)[0]:
            signal.pidfd_send_signal(pidfd, signal.SIGKILL)
        _, status, usage = os.wait4(pid, 0)
    finally:
        os.close(pidfd)
    return os.waitstatus_to_exitcode(status), usage


def measure(files, configs, drivers, piglit, jobs, timeout):
    """{config: {file: result}}.  Each job runs one program with every
    config in turn, so a change of the machine's load between programs
    weighs on the drivers alike (the CPU ratio is otherwise noisy on a
    shared machine)."""
    def one(f):
        return [run_program(f, c, drivers, piglit, timeout) for c in configs]

    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        res = list(ex.map(one, files))
    return {c: {f: r[i] for f, r in zip(files, res)}
            for i, c in enumerate(configs)}


def side(label, res, common, fewer):
    lines = [res[f][0] for f in common]
    inst = sum(x[1] for ls in lines for x in ls)
    tuples = sum(x[2] for ls in lines for x in ls)
    clauses = sum(x[3] for ls in lines for x in ls)
    cycles = sum(x[4] for ls in lines for x in ls)
    return {'label': label,
            'programs': sum(1 for r in res.values() if r[1]),
            'shaders': sum(len(r[0]) for r in res.values()),
            'inst': inst, 'cycles': cycles, 'tuples': tuples,
            'clauses': clauses,
            'spilling': sum(r[3] for r in res.values()),
            'cpu': sum(r[2] for r in res.values()), 'fewer': fewer}


def write_per_shader(out, gpu, top, common, ours, stock):
    """One line per shader of the common programs whose shader lists
    match (same count and stages), in the order the drivers printed them."""
    for f in common:
        o, s = ours[f][0], stock[f][0]
        if len(o) != len(s):
            continue
        name = os.path.relpath(f, top)
        for i, (x, y) in enumerate(zip(o, s)):
            out.write(f'{gpu} {name} {i} {x[0]} {y[1]} {y[2]} {y[5]} '
                      f'{x[1]} {x[2]} {x[5]} {x[1] - y[1]} {x[2] - y[2]}\n')


# The shader-db corpus beside the checkout.
DEFAULT_CORPUS = os.path.join(TOP, '..', 'shared', 'shader-db', 'shaders')


def compile_drivers(build, stock):
    """Both drivers on the no-op drm-shim, for runs that only compile:
    the stock one from stock, ours from build."""
    shim = os.path.join(build, 'subprojects/mesa/src/panfrost/drm-shim/'
                        'libpanfrost_noop_drm_shim.so')
    return run_piglit.Drivers(
        os.path.abspath(stock), shim, None,
        ours=os.path.join(os.path.abspath(build), 'subprojects/mesa'))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('corpus', nargs='*')
    ap.add_argument('--build', default=os.path.join(TOP, 'build'))
    ap.add_argument('--stock', default=os.path.join(TOP, 'build-stock'))
    ap.add_argument('--gpus', default='G52,G57,G72,T860,T720')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 1)
    ap.add_argument('--timeout', type=float, default=120)
    ap.add_argument('--max-inst-ratio', type=float)
    ap.add_argument('--max-cycle-ratio', type=float)
    ap.add_argument('--max-fewer-threads', type=int)
    ap.add_argument('--min-programs', type=int)
    ap.add_argument('--per-shader', metavar='FILE',
                    help='write one line per shader with both drivers\' '
                    'figures')
    ap.add_argument('--validate', action='store_true',
                    help='keep NIR validation on in our (debug) build')
    a = ap.parse_args()
    global VALIDATE
    VALIDATE = a.validate

    corpus = a.corpus or [DEFAULT_CORPUS]
    files = collect(corpus)
    gpus = [g for g in a.gpus.split(',') if g]
    for g in gpus:
        if g not in GPUS:
            sys.exit(f'run_shaderdb: unknown GPU {g} (one of {", ".join(GPUS)})')
    piglit = run_piglit.find_piglit()
    drivers = compile_drivers(a.build, a.stock)

    failed = []
    per_shader = open(a.per_shader, 'w') if a.per_shader else None
    if per_shader:
        per_shader.write('# gpu program index stage stock_inst stock_bundles '
                         'stock_threads ours_inst ours_bundles ours_threads '
                         'd_inst d_bundles\n')
    print(f'shader-db through shader_runner on the noop drm-shim: '
          f'{len(files)} programs')
    print(cpu_setting(a.build, a.stock))
    hdr = (f'{"GPU":4} {"driver":6} {"programs":>8} {"shaders":>7} '
           f'{"inst":>8} {"cycles":>9} {"tuples*":>8} {"clauses":>8} '
           f'{"spilling":>8} {"fewer thr":>9} {"CPU s":>7}')
    print(hdr)
    for g in gpus:
        both = measure(files, [g, run_piglit.ours(g)], drivers, piglit,
                       a.jobs, a.timeout)
        stock, ours = both[g], both[run_piglit.ours(g)]
        common = [f for f in files if stock[f][1] and ours[f][1]]
        pairs = [(ours[f][0], stock[f][0]) for f in common]
        fewer = sum(1 for o, s in pairs if len(o) == len(s)
                    for x, y in zip(o, s) if x[5] < y[5])
        if per_shader:
            write_per_shader(per_shader, g, corpus[0], common, ours, stock)
        rows = [side('stock', stock, common, 0),
                side('ours', ours, common, fewer)]
        for r in rows:
            print(f'{g:4} {r["label"]:6} {r["programs"]:8} {r["shaders"]:7} '
                  f'{r["inst"]:8} {r["cycles"]:9.1f} {r["tuples"]:8} '
                  f'{r["clauses"]:8} {r["spilling"]:8} {r["fewer"]:9} '
                  f'{r["cpu"]:7.1f}')
        s, o = rows

        def ratio(k):
            return o[k] / s[k] if s[k] else 0.0
        midgard = GPUS[g][1] <= 5
        if midgard:
            keys = f'  bundles {ratio("tuples"):.3f}'
        else:
            keys = f'  cycles {ratio("cycles"):.3f}'
            if s['tuples']:
                keys += (f'  tuples {ratio("tuples"):.3f}  clauses '
                         f'{ratio("clauses"):.3f}')
        print(f'{g:4} ratio  {len(common):8} common  inst {ratio("inst"):.3f}'
              f'{keys}  CPU {ratio("cpu"):.2f}')
        missing = [os.path.relpath(f, corpus[0]) for f in files
                   if stock[f][1] and not ours[f][1]]
        for f in missing[:10]:
            print(f'{g:4} ours did not compile {f}')
        if a.max_inst_ratio is not None and ratio('inst') > a.max_inst_ratio:
            failed.append(f'{g}: instructions {ratio("inst"):.3f} > '
                          f'{a.max_inst_ratio}')
        if a.max_cycle_ratio is not None and \
                ratio('cycles') > a.max_cycle_ratio:
            failed.append(f'{g}: cycles {ratio("cycles"):.3f} > '
                          f'{a.max_cycle_ratio}')
        if a.max_fewer_threads is not None and fewer > a.max_fewer_threads:
            failed.append(f'{g}: {fewer} shaders with fewer threads')
        if a.min_programs is not None and o['programs'] < a.min_programs:
            failed.append(f'{g}: ours compiled {o["programs"]} programs')
    if per_shader:
        per_shader.close()
    for f in failed:
        print(f'run_shaderdb: FAIL {f}')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
