#!/usr/bin/python3
# Copyright 2026 The Panfrost fork authors
# SPDX-License-Identifier: MIT
"""The shader-db tools leak nothing (LeakSanitizer).

Runs each tool (pan-mid-compiler-db, pan-compiler-db: both go through
the shared GLSL front end, pan_glsl_front.c) with LeakSanitizer on
programs of its own (one that compiles, one the GLSL compiler rejects,
one that fails to link) and on the stages of any shader-db programs
given: the tool's own LeakSanitizer when it is built with ASan, else
liblsan preloaded (the leak checker needs no instrumented build).
Fails on any leak report.

  glsl_front_leaks.py --tool TOOL[:ARG] ... [PROGRAM.shader_test...]

Exit 77 (skipped) when LeakSanitizer cannot be found.
"""

import argparse
import ctypes.util
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_shaderdb import split_shader_test  # noqa: E402


# (name, [(extension, source)...]) of the built-in programs.
PROGRAMS = [
    ('textured', [('vert', """#version 130
in vec4 pos;
in vec2 uv;
uniform mat4 mvp;
out vec2 tc;
void main() { tc = uv * 2.0; gl_Position = mvp * pos; }
"""), ('frag', """#version 130
uniform sampler2D tex;
uniform vec4 tint;
in vec2 tc;
out vec4 colour;
void main() { colour = texture(tex, tc) * tint; }
""")]),
    ('syntax error', [('frag', """#version 130
void main() { gl_FragColor = vec4(1.0) }
""")]),
    ('link error', [('vert', """#version 130
in vec4 pos;
out vec3 v;
void main() { v = pos.xyz; gl_Position = pos; }
"""), ('frag', """#version 130
in vec4 v;
out vec4 colour;
void main() { colour = v; }
""")]),
]


def links_asan(tool):
    try:
        out = subprocess.run(['ldd', tool], capture_output=True, text=True,
                             check=False).stdout
    except OSError:
        return False
    return 'libasan' in out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--tool', action='append', required=True,
                    help='a tool, optionally with one argument after a colon')
    ap.add_argument('programs', nargs='*')
    a = ap.parse_args()

    lsan = ctypes.util.find_library('lsan')
    failed = []
    checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        programs = list(PROGRAMS)
        for path in a.programs:
            sources, _ = split_shader_test(path)
            if sources is None:
                sys.exit(f'glsl_front_leaks: no GLSL stages in {path}')
            programs.append((path, sources))
        for n, (path, sources) in enumerate(programs):
            names = []
            for i, (ext, src) in enumerate(sources):
                name = os.path.join(tmp, f'{n}.{i}.{ext}')
                with open(name, 'w') as f:
                    f.write(src)
                names.append(name)
            for spec in a.tool:
                tool, _, arg = spec.partition(':')
                env = dict(os.environ)
                if links_asan(tool):
                    env['ASAN_OPTIONS'] = 'detect_leaks=1'
                elif lsan:
                    env['LD_PRELOAD'] = lsan
                else:
                    print('glsl_front_leaks: no LeakSanitizer to preload')
                    return 77
                argv = [tool] + ([arg] if arg else []) + names
                p = subprocess.run(argv, capture_output=True, text=True,
                                   env=env, errors='replace', timeout=300)
                checked += 1
                name = f'{os.path.basename(tool)} {arg} {path}'.strip()
                if 'LeakSanitizer' in p.stderr:
                    tail = p.stderr.strip().splitlines()[-1]
                    failed.append(f'{name}: {tail}')
                else:
                    print(f'clean: {name} (exit {p.returncode})')
    for f in failed:
        print(f'glsl_front_leaks: LEAK {f}')
    print(f'{checked - len(failed)} of {checked} runs leak-free')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
