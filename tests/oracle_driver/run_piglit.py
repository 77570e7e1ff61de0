#!/usr/bin/python3
"""Piglit oracle for the simulator.

Runs piglit shader_runner tests on softpipe (the reference) and, for
each mocked GPU, on the base's stock Panfrost driver whose jobs execute
on our simulator through our drm-shim; with --driver ours or both, also
on OUR driver (the build folder) over the same shim and simulator. A test
*agrees* on a GPU when it passes on softpipe and on the simulator. For every
simulator run that does not pass, the first line the simulator or the
shim printed ("pan sim: ...") is kept as the reason, so that the summary
says what to model next.

  run_piglit.py [options] TEST...

TEST is a .shader_test file, a folder (searched recursively) or a glob,
either as a path, relative to our tree (our own shader tests, in
tests/oracle_driver/shader_tests) or relative to the installed piglit
tree (for example tests/spec/glsl-es-3.10); !TEST leaves those tests
out. --list FILE reads
more of them from FILE, one a line, '#' starting a comment.

Expectations (--expected FILE): lines "GPU TEST" (GPU is G52, G57 or
G72, TEST as printed) name the runs that must agree. One that stops
agreeing fails the check; new agreements are reported as improvements.
--write-expected FILE writes the agreements of this run in that format.
--expected-ours and --write-expected-ours do the same for our driver's
runs; with --expected-subset, only the expectations of the tests named
are checked (ci.sh runs the G72 on ci-g72-tests.txt, part of the list).

  run_piglit.py --driver both --gpus G57 --list ci-tests.txt

prints both drivers' pass counts side by side per GPU.

See docs/drivers/panfrost/simulator-oracle.rst.
"""

import argparse
import atexit
import concurrent.futures
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))

# Mocked GPUs: name, PAN_GPU_ID, architecture.
GPUS = {'G52': ('7212', 7), 'G57': ('9093', 9), 'G72': ('6221', 6)}
# What --gpus means when not given: the G72 takes as long again, so a
# run names it (ci.sh runs it on a subset, ci-g72-tests.txt).
DEFAULT_GPUS = ('G52', 'G57')

RESULTS = ('pass', 'fail', 'skip', 'warn', 'crash', 'timeout')


def find_piglit():
    """The installed piglit tree, from the package's file list (the
    multiarch folder differs per architecture)."""
    env = os.environ.get('PIGLIT_DIR')
    if env:
        return env
    try:
        files = subprocess.run(['dpkg', '-L', 'piglit'], capture_output=True,
                               text=True, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        files = []
    for f in files:
        if f.endswith('/piglit/bin/shader_runner'):
            return os.path.dirname(os.path.dirname(f))
    sys.exit('run_piglit: piglit is not installed (bin/pan-deps installs '
             'it), or set PIGLIT_DIR')


def expand(args, piglit):
    """Test files named by the arguments, in a stable order."""
    out = []
    for a in args:
        found = []
        for base in ([''] if os.path.isabs(a) else
                     ['', TOP + '/', piglit + '/']):
            p = base + a
            if os.path.isdir(p):
                found = sorted(glob.glob(p + '/**/*.shader_test',
                                         recursive=True))
            else:
                found = sorted(f for f in glob.glob(p, recursive=True)
                               if f.endswith('.shader_test'))
            if found:
                break
        if not found:
            sys.exit(f'run_piglit: {a}: no .shader_test file there')
        out += found
    # Named twice (a folder and a file in it): run once.
    return list(dict.fromkeys(os.path.realpath(f) for f in out))


def test_name(path, piglit):
    """The name a test is reported and expected under: its path in the
    piglit tree, the same on every architecture, or in our tree for our
    own tests (tests/oracle_driver/shader_tests)."""
    for root in (piglit, TOP):
        rel = os.path.relpath(path, os.path.realpath(root))
        if not rel.startswith('..'):
            return rel
    return path


_VERSION = re.compile(r'^\s*GL\s+(ES\s+)?(<|<=|=|>=|>)\s*([0-9.]+)')
_SL_VERSION = re.compile(r'^\s*GLSL\s+(ES\s+)?(<|<=|=|>=|>)\s*([0-9.]+)')


def require_lines(path):
    """The lines of a test's [require] section (none when unreadable)."""
    lines = []
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            in_req = False
            for line in f:
                if line.startswith('[require]'):
                    in_req = True
                elif in_req and line.startswith('['):
                    break
                elif in_req:
                    lines.append(line)
    except OSError:
        pass
    return lines


def runner_for(path):
    """shader_runner, _gles2 or _gles3: which API the [require] section
    asks for, choosing the lowest GLES runner that can satisfy it (as
    piglit's own framework does)."""
    es = False
    es_op = es_ver = None
    for line in require_lines(path):
        m = _VERSION.match(line)
        if m and m.group(1):
            es, es_op, es_ver = True, m.group(2), float(m.group(3))
            continue
        m = _SL_VERSION.match(line)
        if m and m.group(1):
            es = True
    if not es:
        return 'shader_runner'
    if es_op in ('<', '<=') or (es_ver is not None and es_ver < 3):
        return 'shader_runner_gles2'
    return 'shader_runner_gles3'


def required_versions(path):
    """(desktop GL, GL ES) versions the [require] section asks for, as
    (major, minor) or None: "GL >= 3.3", and a GLSL version as the GL
    version that brought it ("GLSL >= 1.40" -> 3.1); "GL ES >= 3.1",
    "GLSL ES >= 3.10"."""
    gl = es = None
    for line in require_lines(path):
        m = _VERSION.match(line) or _SL_VERSION.match(line)
        if not m or m.group(2) not in ('>=', '>', '='):
            continue
        major, minor = (int(x) for x in (m.group(3).split('.') + ['0'])[:2])
        if line.lstrip().startswith('GLSL'):
            minor //= 10 if minor >= 10 else 1
            # GLSL 1.10 came with GL 2.0, ..., 1.50 with 3.2.
            if not m.group(1) and major == 1:
                major, minor = (2, minor - 1) if minor < 3 else \
                    (3, minor - 3)
        v = (major, minor)
        if m.group(1):
            es = max(es or v, v)
        else:
            gl = max(gl or v, v)
    return gl, es


def ours_overrides(path, ours_gl):
    """The version overrides of our driver's run of a test: --ours-gl,
    raised to what the test asks for, and GLES 3.1 for the GLSL ES 3.10
    tests (the driver offers less; with the override they run and fail
    on what is really missing instead of skipping)."""
    e = {}
    gl, es = required_versions(path)
    if ours_gl:
        want = tuple(int(x) for x in ours_gl.split('.')[:2])
        if gl and gl > want and gl >= (3, 1):
            want = gl
        version = f'{want[0]}.{want[1]}'
        e['MESA_GL_VERSION_OVERRIDE'] = version
        e['MESA_GLSL_VERSION_OVERRIDE'] = glsl_of_gl(version)
        if es and es >= (3, 1):
            e['MESA_GLES_VERSION_OVERRIDE'] = f'{es[0]}.{es[1]}'
    return e


def test_kind(path):
    """compute, draw or compile: what the test asks of the GPU."""
    kind = 'compile'
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            in_test = False
            for line in f:
                if line.startswith('['):
                    in_test = line.startswith('[test]')
                    continue
                if not in_test:
                    continue
                w = line.split()
                if not w:
                    continue
                if w[0] == 'compute':
                    kind = 'compute'
                elif w[0] == 'draw' and kind != 'compute':
                    kind = 'draw'
    except OSError:
        pass
    return kind


class Drivers:
    """The environments of the reference and the simulator runs."""

    def __init__(self, stock, shim, pan_debug, ours=None, ours_gl=None):
        self.stock = stock
        self.ours = ours
        self.ours_gl = ours_gl
        self.pan_debug = pan_debug
        dri = os.path.join(stock, 'src/gallium/targets/dri')
        # This run's own folder of driver links and snapshots: runs started
        # together (or a long run while another starts) must not replace
        # each other's copies.
        os.makedirs(os.path.join(stock, 'oracle-dri'), exist_ok=True)
        root = tempfile.mkdtemp(prefix='run-',
                                dir=os.path.join(stock, 'oracle-dri'))
        atexit.register(shutil.rmtree, root, True)
        # One driver per folder: a driver that fails to load must not be
        # silently replaced by another (Mesa falls back to swrast).
        self.dirs = {}
        for name, lib in (('softpipe', 'swrast_dri.so'),
                          ('panfrost', 'panfrost_dri.so')):
            real = os.path.join(dri, lib)
            if not os.path.exists(real):
                sys.exit(f'run_piglit: {real} is missing: build the stock '
                         'driver (tests/oracle_driver/build-stock.sh)')
            d = os.path.join(root, name)
            os.makedirs(d, exist_ok=True)
            link = os.path.join(d, lib)
            if os.path.realpath(link) != os.path.realpath(real):
                if os.path.lexists(link):
                    os.unlink(link)
                os.symlink(os.path.realpath(real), link)
            self.dirs[name] = d
        if not os.path.exists(shim):
            sys.exit(f'run_piglit: no drm-shim at {shim}: build ours first '
                     '(bin/pan-build)')
        # A snapshot: a build relinking the shim during the run would make
        # some runs fail to preload it.
        snap = os.path.join(root, 'shim')
        os.makedirs(snap, exist_ok=True)
        self.shim = os.path.join(snap, os.path.basename(shim))
        shutil.copyfile(shim, self.shim + '.new')
        os.replace(self.shim + '.new', self.shim)
        if ours:
            # Our build is relinked by every ninja run: run a copy of its
            # driver (and of the loaders it was built with), in its own
            # folder so that no other driver can stand in for it.
            self.ours_snap = os.path.join(root, 'ours')
            for d, lib in (('src/gallium/targets/dri', 'panfrost_dri.so'),
                           ('src/egl', 'libEGL_mesa.so.0'),
                           ('src/gbm', 'libgbm.so.1'),
                           ('src/mapi/shared-glapi', 'libglapi.so.0')):
                real = os.path.join(ours, d, lib)
                if not os.path.exists(real):
                    sys.exit(f'run_piglit: {real} is missing: build ours '
                             'first (ninja -C build)')
                dst = os.path.join(self.ours_snap, d)
                os.makedirs(dst, exist_ok=True)
                shutil.copyfile(real, os.path.join(dst, lib) + '.new')
                os.replace(os.path.join(dst, lib) + '.new',
                           os.path.join(dst, lib))
            vendor = os.path.join(self.ours_snap, 'src/egl/50_mesa.json')
            with open(vendor, 'w') as f:
                json.dump({'file_format_version': '1.0.0',
                           'ICD': {'library_path': os.path.join(
                               self.ours_snap, 'src/egl/libEGL_mesa.so.0')}},
                          f)

    def env(self, config, test=None):
        e = dict(os.environ)
        for k in ('LD_PRELOAD', 'LIBGL_ALWAYS_SOFTWARE', 'GALLIUM_DRIVER',
                  'MESA_LOADER_DRIVER_OVERRIDE', 'PAN_GPU_ID',
                  'PAN_SHIM_EXEC', 'PAN_MESA_DEBUG',
                  'MESA_GL_VERSION_OVERRIDE', 'MESA_GLSL_VERSION_OVERRIDE',
                  'MESA_GLES_VERSION_OVERRIDE'):
            e.pop(k, None)
        base = self.stock
        if is_ours(config):
            base = self.ours_snap
        libs = [os.path.join(base, d) for d in
                ('src/egl', 'src/gbm', 'src/mapi/shared-glapi')]
        if os.environ.get('LD_LIBRARY_PATH'):
            libs.append(os.environ['LD_LIBRARY_PATH'])
        e['LD_LIBRARY_PATH'] = ':'.join(libs)
        e['__EGL_VENDOR_LIBRARY_FILENAMES'] = os.path.join(
            base, 'src/egl/50_mesa.json')
        e['PIGLIT_PLATFORM'] = 'surfaceless_egl'
        # Results must not depend on what an earlier run left in a cache.
        e['MESA_SHADER_CACHE_DISABLE'] = 'true'
        if config == 'softpipe':
            e['LIBGL_DRIVERS_PATH'] = self.dirs['softpipe']
            e['LIBGL_ALWAYS_SOFTWARE'] = '1'
            e['GALLIUM_DRIVER'] = 'softpipe'
        elif is_ours(config):
            # What bin/pan-env sets, on the snapshot: our driver, our
            # shim, the GPU mocked.
            dri = os.path.join(base, 'src/gallium/targets/dri')
            e['LIBGL_DRIVERS_PATH'] = dri
            e['GBM_DRIVERS_PATH'] = dri
            e['LD_PRELOAD'] = self.shim
            e['PAN_GPU_ID'] = GPUS[gpu_of(config)][0]
            # Our counterpart of the stock runs' gl3 flag: a GL version
            # above what the driver can claim, so that the tests of a
            # newer GLSL run and fail on what is missing instead of
            # skipping; raised per test to what it asks for.
            if test:
                e.update(ours_overrides(test, self.ours_gl))
            elif self.ours_gl:
                e['MESA_GL_VERSION_OVERRIDE'] = self.ours_gl
                e['MESA_GLSL_VERSION_OVERRIDE'] = glsl_of_gl(self.ours_gl)
        else:
            e['LIBGL_DRIVERS_PATH'] = self.dirs['panfrost']
            e['GBM_DRIVERS_PATH'] = self.dirs['panfrost']
            e['LD_PRELOAD'] = self.shim
            e['PAN_GPU_ID'] = GPUS[config][0]
            if self.pan_debug:
                e['PAN_MESA_DEBUG'] = self.pan_debug
        return e


def glsl_of_gl(version):
    """The GLSL version of a desktop GL version ("3.0" -> "130"): Mesa
    caps a compatibility context's GLSL at the driver's level unless
    told otherwise."""
    major, minor = (int(x) for x in version.split('.')[:2])
    if major >= 3 and (major, minor) < (3, 3):
        return str(130 + 10 * minor)
    return f'{major}{minor}0' if major >= 3 else '120'


def ours(gpu):
    """The configuration name of our driver's runs on a GPU."""
    return 'ours-' + gpu


def is_ours(config):
    return config.startswith('ours-')


def gpu_of(config):
    return config[len('ours-'):] if is_ours(config) else config


_RESULT = re.compile(r'^PIGLIT: (\{.*\})\s*$', re.M)
_SIM_LINE = re.compile(r'^pan s(?:im|him): .*$', re.M)
# Our driver's refusals (mesa_log: "MESA: warning: panfrost: ...").
_DRIVER_LINE = re.compile(r'^(?:MESA: \w+: )?(panfrost: .*)$', re.M)
_NUMBER = re.compile(r'(?<![\w.])-?\d+(\.\d+)?(e[-+]?\d+)?(?![\w.])')


def driver_reason(out):
    """Our driver's first message (a dropped draw, a refused shader), its
    numbers left out, or None."""
    m = _DRIVER_LINE.search(out)
    if not m:
        return None
    return _NUMBER.sub('N', m.group(1))[:160]


def normalise(line):
    """One reason for every instance of the same problem: no addresses,
    job numbers or probe coordinates."""
    line = re.sub(r'^pan sim: v\d+ job \d+ \(([^)]*)\) @ 0x[0-9a-fA-F]+: ',
                  r'\1 job: ', line)
    line = re.sub(r'^pan s(im|him): ', '', line)
    # Where: which shader, invocation, pixel, lane, clause, tuple or pc.
    line = re.sub(r'\w+ shader 0x[0-9a-fA-F]+, ', '', line)
    line = re.sub(r'(workgroup|pixel) \([^)]*\):?,? ', '', line)
    line = re.sub(r'vertices \d+\.\.\d+: ', '', line)
    line = re.sub(r'(warp|clause|tuple|pc|lane) (0x)?[0-9a-fA-F]+:? ', '',
                  line)
    # Which attribute or varying, and sizes of this one program.
    line = re.sub(r'\b(attribute|varying) \d+', r'\1 N', line)
    line = re.sub(r'\b\d+-quadword', 'N-quadword', line)
    line = re.sub(r' ?\(?0x[0-9a-fA-F]{5,}\)?', '', line)
    return line.strip()


def piglit_reason(out):
    """What piglit said went wrong, numbers left out so that probes of
    different pixels group together."""
    for ln in out.splitlines():
        s = re.sub(r'^piglit: (info: )?', '', ln.strip())
        if not s or s.startswith('PIGLIT:'):
            continue
        if re.search(r'Probe|[Ff]ail|[Ee]rror|[Ee]xpected|require|'
                     r'not supported|unsupported', s):
            # Numbers, not the digits of names (GL_ARB_gpu_shader5).
            s = _NUMBER.sub('N', s)
            return 'piglit: ' + s[:120]
    lines = [ln.strip() for ln in out.splitlines()
             if ln.strip() and not ln.startswith('PIGLIT:')]
    return 'piglit: ' + (lines[-1][:120] if lines else '(no output)')


def run_one(path, config, drivers, timeout, piglit):
    runner = os.path.join(piglit, 'bin', runner_for(path))
    cmd = [runner, path, '-auto', '-fbo']
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, env=drivers.env(config, path),
                           capture_output=True,
                           text=True, errors='replace', timeout=timeout,
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as e:
        out = ((e.stdout or b'').decode(errors='replace')
               if isinstance(e.stdout, bytes) else (e.stdout or ''))
        err = ((e.stderr or b'').decode(errors='replace')
               if isinstance(e.stderr, bytes) else (e.stderr or ''))
        sim = _SIM_LINE.findall(err + out)
        return {'result': 'timeout',
                'reason': f'timeout after {timeout} s' +
                          (f' ({normalise(sim[0])})' if sim else ''),
                'sim': sim[:5],
                'reports': list(dict.fromkeys(normalise(x) for x in sim))[:20],
                'seconds': timeout}
    out = p.stdout + p.stderr
    seconds = round(time.monotonic() - start, 2)
    m = _RESULT.findall(p.stdout)
    result = None
    if m:
        try:
            result = json.loads(m[-1]).get('result')
        except ValueError:
            pass
    if p.returncode < 0:
        try:
            sig = signal.Signals(-p.returncode).name
        except ValueError:
            sig = f'signal {-p.returncode}'
        result, why = 'crash', f'crash: {sig}'
    elif result not in RESULTS:
        result, why = 'crash', f'crash: exit {p.returncode} without a result'
    else:
        why = None
    sim = list(dict.fromkeys(_SIM_LINE.findall(out)))
    reason = None
    mine = driver_reason(out) if is_ours(config) else None
    if result != 'pass':
        if mine:
            # Our driver said what it left out: that comes first.
            reason = f'{why}; {mine}' if why else mine
        elif sim:
            reason = normalise(sim[0])
            if why:
                reason = f'{why}; {reason}'
        else:
            # Nothing from the simulator: what the driver or piglit said.
            reason = f'{why or result}: {piglit_reason(out)}'
    rec = {'result': result, 'reason': reason, 'sim': sim[:5],
           'reports': list(dict.fromkeys(normalise(x) for x in sim))[:20],
           'seconds': seconds}
    if result != 'pass':
        rec['output'] = out.splitlines()[-30:]
    return rec


def preflight(drivers, piglit, configs):
    """Each configuration must bring up the driver it names."""
    glinfo = os.path.join(piglit, 'bin', 'glinfo')
    want = {'softpipe': 'softpipe'}
    ok = True
    for c in configs:
        p = subprocess.run([glinfo, '-auto'], env=drivers.env(c),
                           capture_output=True, text=True, errors='replace',
                           timeout=60, stdin=subprocess.DEVNULL)
        why = check_renderer(c, p.stdout, want.get(c))
        if why:
            err = (p.stdout + p.stderr).strip().splitlines()
            print(f'run_piglit: {c}: the driver did not come up ({why}): '
                  f'{err[-1] if err else "no output"}')
            ok = False
        else:
            r = re.search(r'^GL_RENDERER = (.*)$', p.stdout, re.M)
            print(f'run_piglit: {c}: {r.group(1)}')
    return ok


def check_renderer(config, glinfo_out, expect=None):
    """None when glinfo's output names the driver the configuration asks
    for, else why not. Ours and stock Panfrost both call themselves
    "Mali-GNN (Panfrost)"; the vendor tells them apart (stock: Panfrost,
    ours: Mesa)."""
    r = re.search(r'^GL_RENDERER = (.*)$', glinfo_out, re.M)
    v = re.search(r'^GL_VENDOR = (.*)$', glinfo_out, re.M)
    renderer = r.group(1) if r else None
    vendor = v.group(1).strip() if v else None
    expect = expect or f'Mali-{gpu_of(config)}'
    if not renderer or expect not in renderer:
        return f'renderer {renderer!r}, expected {expect!r}'
    if config != 'softpipe':
        want_vendor = 'Mesa' if is_ours(config) else 'Panfrost'
        if vendor != want_vendor:
            return (f'vendor {vendor!r}, expected {want_vendor!r}: not '
                    f'{"our" if is_ours(config) else "the stock"} driver')
    return None


def read_expected(path):
    exp = set()
    with open(path) as f:
        for n, ln in enumerate(f, 1):
            ln = ln.split('#', 1)[0].strip()
            if not ln:
                continue
            w = ln.split()
            if len(w) != 2 or w[0] not in GPUS:
                sys.exit(f'run_piglit: {path}:{n}: expected "GPU TEST" with '
                         f'GPU one of {", ".join(GPUS)}')
            exp.add((w[0], w[1]))
    return exp


def blame(run):
    """Whose business a run that does not pass is: 'sim' when the
    simulator reported something or the result is simply wrong, 'driver'
    when the stock driver skipped or rejected the test before any job ran
    (no simulator work can change that)."""
    if run['reports']:
        return 'sim'
    if run['result'] == 'skip':
        return 'driver'
    if run['result'] == 'fail' and re.search(
            r'piglit: Failed to (compile|link)', run['reason'] or ''):
        return 'driver'
    return 'sim'


def print_table(title, counts, gpus, top):
    if not counts:
        return
    print(title)
    order = sorted(counts.items(), key=lambda kv: (-sum(kv[1].values()),
                                                    kv[0]))
    for why, c in order[:top]:
        per = ', '.join(f'{g} {c[g]}' for g in gpus if c[g])
        print(f'  {sum(c.values()):5d}  {why}  [{per}]')
    if len(order) > top:
        print(f'  ... {len(order) - top} more (--top, --json)')


def compare_expected(expected, records, gpus):
    """(lost, new, missing): expected runs that ran and do not agree, runs
    that agree and are not expected, expected runs of the GPUs asked for
    that did not run at all."""
    agreeing = {(g, r['test']) for r in records for g in gpus
                if r['agree'][g]}
    ran = {(g, r['test']) for r in records for g in gpus}
    wanted = {(g, t) for g, t in expected if g in gpus}
    return (sorted((wanted & ran) - agreeing), sorted(agreeing - wanted),
            sorted(wanted - ran))


def summarise(records, gpus, top, drivers=('stock',), ours_gpus=None):
    """gpus: of the stock runs; ours_gpus: of ours (default gpus)."""
    ours_gpus = gpus if ours_gpus is None else ours_gpus
    n = len(records)
    ref = Counter(r['softpipe']['result'] for r in records)
    print(f'\n{n} tests; softpipe: ' +
          ', '.join(f'{ref[k]} {k}' for k in RESULTS if ref[k]))
    kinds = Counter(r['kind'] for r in records)
    print('  kinds: ' + ', '.join(f'{kinds[k]} {k}' for k in
                                  ('compute', 'draw', 'compile') if kinds[k]))
    for drv in drivers:
        summarise_driver(records, configs_of(drv, ours_gpus if drv == 'ours'
                                             else gpus), top, ref['pass'])
    if len(drivers) > 1:
        print_side_by_side(side_by_side(
            records, [g for g in gpus if g in ours_gpus]))


def configs_of(driver, gpus):
    """The run configurations of one driver ('stock' or 'ours')."""
    return list(gpus) if driver == 'stock' else [ours(g) for g in gpus]


def summarise_driver(records, configs, top, ref_pass):
    # Over the runs where softpipe passes and the simulator run does not.
    first = defaultdict(Counter)   # the simulator's: first reason
    every = defaultdict(Counter)   # the simulator's: every report
    driver = defaultdict(Counter)  # the stock driver's
    mine = any(is_ours(c) for c in configs)
    for g in configs:
        res = Counter(r[g]['result'] for r in records)
        agree = [r for r in records if r['agree'][g]]
        by_kind = Counter(r['kind'] for r in agree)
        # A pass despite work the simulator reported skipping is luck (a
        # probe that expects what was there already), not agreement yet.
        lucky = sum(1 for r in agree if r[g]['reports'])
        print(f'{g} (v{GPUS[gpu_of(g)][1]}): {len(agree)} of {ref_pass} '
              f'agree (' + ', '.join(f'{by_kind[k]} {k}' for k in
                                     ('compute', 'draw', 'compile')) +
              (f'; {lucky} despite simulator reports' if lucky else '') +
              '); sim: ' +
              ', '.join(f'{res[k]} {k}' for k in RESULTS if res[k]))
        for r in records:
            if r['softpipe']['result'] != 'pass' or r['agree'][g]:
                continue
            run = r[g]
            why = run['reason'] or '(no reason)'
            # Our driver's refusals are ours to fix: no separate table.
            if not mine and blame(run) == 'driver':
                driver[why][g] += 1
                continue
            first[why][g] += 1
            for ln in run['reports']:
                every[ln][g] += 1
    who = 'Our driver' if mine else 'Simulator'
    print_table(f'{who}: first reason of each run that does not agree '
                '(runs; per GPU):', first, configs, top)
    # The first report can hide the next (a draw whose vertex job is
    # skipped also reports the render target it could not write).
    print_table(f'{who}: every simulator report of those runs (runs; per '
                'GPU):', every, configs, top)
    print_table('Stock driver: skipped or rejected before any job ran; no '
                'simulator work changes these (runs; per GPU):', driver,
                configs, min(top, 5))


def side_by_side(records, gpus):
    """Per GPU: the pass counts of the stock driver and ours, and how
    their agreements with softpipe overlap."""
    rows = []
    for g in gpus:
        o = ours(g)
        row = {'gpu': g,
               'softpipe': sum(r['softpipe']['result'] == 'pass'
                               for r in records),
               'stock_pass': sum(r[g]['result'] == 'pass' for r in records),
               'ours_pass': sum(r[o]['result'] == 'pass' for r in records),
               'stock_agree': sum(r['agree'][g] for r in records),
               'ours_agree': sum(r['agree'][o] for r in records),
               'both': sum(r['agree'][g] and r['agree'][o]
                           for r in records)}
        row['stock_only'] = row['stock_agree'] - row['both']
        row['ours_only'] = row['ours_agree'] - row['both']
        rows.append(row)
    return rows


def print_side_by_side(rows):
    print('Both drivers (pass: runs that pass; agree: and pass on '
          'softpipe too):')
    print('  GPU  softpipe  stock pass  ours pass  stock agree  ours agree'
          '  both  stock only  ours only')
    for w in rows:
        print(f'  {w["gpu"]:3s}  {w["softpipe"]:8d}  {w["stock_pass"]:10d}  '
              f'{w["ours_pass"]:9d}  {w["stock_agree"]:11d}  '
              f'{w["ours_agree"]:10d}  {w["both"]:4d}  '
              f'{w["stock_only"]:10d}  {w["ours_only"]:9d}')


def check_expected(path, recs, configs, by_test, subset=False):
    """Print what changed against the expectations; (failed, lost,
    missing) counts. subset: the expectations of tests this run did not
    name are not checked."""
    gpu = {gpu_of(c): c for c in configs}
    # The file names GPUs; the runs of this driver are under configs.
    exp = {(gpu[g], t) for g, t in read_expected(path)
           if g in gpu and (not subset or t in by_test)}
    lost, new, missing = compare_expected(exp, recs, configs)
    for g, t in lost:
        r = by_test[t]
        why = (f'softpipe {r["softpipe"]["result"]}'
               if r['softpipe']['result'] != 'pass'
               else f'{r[g]["result"]}: {r[g]["reason"]}')
        print(f'  REGRESSION {g} {t}: {why}')
    for g, t in missing:
        print(f'  NOT RUN {g} {t}: expected to agree, but not in the '
              'tests named (or not installed)')
    for g, t in new:
        print(f'  improvement {g} {t} agrees now')
    if new:
        print(f'run_piglit: {len(new)} runs agree that were not expected '
              f'to ({path}): tests/oracle_driver/update-expected.sh '
              'records them')
    return len(lost) + len(missing), len(lost), len(missing)


def write_expected(path, agreeing):
    with open(path, 'w') as f:
        f.write('# Piglit runs that agree (softpipe and the simulator '
                'pass): GPU TEST.\n# Generated by '
                'tests/oracle_driver/update-expected.sh; do not edit.\n')
        for g, t in sorted(agreeing):
            f.write(f'{gpu_of(g)} {t}\n')
    print(f'run_piglit: wrote {len(agreeing)} agreeing runs to {path}')


def main():
    ap = argparse.ArgumentParser(
        description='Piglit on softpipe and on stock Panfrost over the '
                    'simulator.')
    ap.add_argument('tests', nargs='*')
    ap.add_argument('--list', action='append', default=[],
                    help='file naming tests, one a line')
    ap.add_argument('--stock', default=os.path.join(TOP, 'build-stock'),
                    help='build folder of the stock base (build-stock)')
    ap.add_argument('--build', default=os.path.join(TOP, 'build'),
                    help='our build folder: the drm-shim, our driver')
    ap.add_argument('--gpus', default=','.join(DEFAULT_GPUS),
                    help='mocked GPUs (G52, G57, G72; default G52,G57)')
    ap.add_argument('--timeout', type=float, default=60,
                    help='seconds per test and driver')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 1)
    # The stock driver offers desktop GL 3.3 (GLSL 3.30) only with gl3;
    # without it most desktop tests would only skip. Without noafbc it
    # renders to AFBC, and every draw waits on the simulator's AFBC
    # support: that would hide all progress on shaders and draws.
    ap.add_argument('--pan-mesa-debug', default='gl3,noafbc', metavar='FLAGS',
                    help='PAN_MESA_DEBUG of the stock Panfrost runs '
                         '(default gl3,noafbc; gl3 measures AFBC too)')
    ap.add_argument('--driver', choices=('stock', 'ours', 'both'),
                    default='stock',
                    help='Panfrost drivers to run beside softpipe: the '
                         'stock one (build-stock), ours (--build) or both')
    ap.add_argument('--ours-gpus', metavar='GPUS',
                    help='mocked GPUs of our driver\'s runs (default: '
                         '--gpus)')
    ap.add_argument('--ours-gl', default='3.0', metavar='VERSION',
                    help='MESA_GL_VERSION_OVERRIDE of our driver\'s runs '
                         '(default 3.0, for GLSL 1.30 tests, as gl3 does '
                         'for the stock driver; empty: none)')
    ap.add_argument('--expected', help='runs that must agree')
    ap.add_argument('--expected-subset', action='store_true',
                    help='the tests named are part of those the expected '
                         'files were written for: expected runs of the '
                         'others are not checked (ci.sh\'s G72 runs)')
    ap.add_argument('--write-expected', metavar='FILE')
    ap.add_argument('--expected-ours', metavar='FILE',
                    help='runs of our driver that must agree')
    ap.add_argument('--write-expected-ours', metavar='FILE')
    ap.add_argument('--json', metavar='FILE', help='every result, as JSON')
    ap.add_argument('--top', type=int, default=10)
    ap.add_argument('--pass-name', metavar='NAME',
                    help='end with a bin/pan-test pass line')
    ap.add_argument('-v', '--verbose', action='store_true',
                    help='print every run')
    a = ap.parse_args()

    gpus = [g for g in a.gpus.split(',') if g]
    for g in gpus:
        if g not in GPUS:
            ap.error(f'unknown GPU {g} ({", ".join(GPUS)})')
    ours_gpus = gpus if a.ours_gpus is None else [
        g for g in a.ours_gpus.split(',') if g]
    for g in ours_gpus:
        if g not in GPUS:
            ap.error(f'unknown GPU {g} ({", ".join(GPUS)})')
    gpus_of = {'stock': gpus, 'ours': ours_gpus}
    piglit = find_piglit()
    names = list(a.tests)
    for lf in a.list:
        with open(lf) as f:
            names += [ln.split('#', 1)[0].strip() for ln in f
                      if ln.split('#', 1)[0].strip()]
    # "!NAME" leaves out what NAME names (tests too slow for CI...).
    drop = [n[1:] for n in names if n.startswith('!')]
    names = [n for n in names if not n.startswith('!')]
    if not names:
        ap.error('no test named')
    dropped = set(expand(drop, piglit))
    paths = [p for p in expand(names, piglit) if p not in dropped]
    shim = os.path.join(a.build, 'subprojects/mesa/src/panfrost/drm-shim/'
                        'libpanfrost_noop_drm_shim.so')
    which = ('stock', 'ours') if a.driver == 'both' else (a.driver,)
    if (a.expected or a.write_expected) and 'stock' not in which:
        ap.error('--expected and --write-expected judge the stock driver')
    if (a.expected_ours or a.write_expected_ours) and 'ours' not in which:
        ap.error('--expected-ours needs --driver ours or both')
    ours_build = None
    if 'ours' in which:
        ours_build = os.path.join(os.path.abspath(a.build), 'subprojects/mesa')
    drivers = Drivers(os.path.abspath(a.stock), shim, a.pan_mesa_debug,
                      ours_build, a.ours_gl)
    judged = [c for d in which for c in configs_of(d, gpus_of[d])]
    configs = ['softpipe'] + judged
    declared = len(paths) * len(judged)

    def infra_fail(why):
        print(f'run_piglit: {why}')
        if a.pass_name:
            print(f'pass {a.pass_name}: 0 passed, 1 failed, 0 skipped '
                  f'(of {declared} declared)')
        sys.exit(1)

    if not preflight(drivers, piglit, configs):
        infra_fail('a driver did not come up; nothing was run')

    start = time.monotonic()
    records = {p: {'test': test_name(p, piglit), 'kind': test_kind(p)}
               for p in paths}
    with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as ex:
        futs = {ex.submit(run_one, p, c, drivers, a.timeout, piglit): (p, c)
                for p in paths for c in configs}
        for fut in concurrent.futures.as_completed(futs):
            p, c = futs[fut]
            records[p][c] = fut.result()
            if a.verbose:
                r = records[p][c]
                print(f'{c:8s} {r["result"]:7s} {records[p]["test"]}' +
                      (f'  ({r["reason"]})' if r['reason'] else ''))
    recs = [records[p] for p in paths]
    for r in recs:
        r['agree'] = {g: r['softpipe']['result'] == 'pass' and
                      r[g]['result'] == 'pass' for g in judged}
    elapsed = time.monotonic() - start

    summarise(recs, gpus, a.top, which, ours_gpus)
    print(f'{len(paths)} tests x {len(configs)} drivers in {elapsed:.0f} s')

    if a.json:
        with open(a.json, 'w') as f:
            json.dump(recs, f, indent=1)

    agreeing = {(g, r['test']) for r in recs for g in judged
                if r['agree'][g]}
    for path, d in ((a.write_expected, 'stock'),
                    (a.write_expected_ours, 'ours')):
        if path:
            cs = configs_of(d, gpus_of[d])
            write_expected(path, {(g, t) for g, t in agreeing if g in cs})

    failed = lost = missing = 0
    by_test = {r['test']: r for r in recs}
    for path, d in ((a.expected, 'stock'), (a.expected_ours, 'ours')):
        if path:
            f, l, m = check_expected(path, recs, configs_of(d, gpus_of[d]),
                                     by_test, a.expected_subset)
            failed, lost, missing = failed + f, lost + l, missing + m
    if a.pass_name:
        # Expected runs that did not run are declared too, and failed.
        print(f'pass {a.pass_name}: {len(agreeing)} passed, {failed} failed, '
              f'{declared - len(agreeing) - lost} skipped '
              f'(of {declared + missing} declared)')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
