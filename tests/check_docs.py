#!/usr/bin/env python3
# Copyright 2026 The Panfrost fork authors
# SPDX-License-Identifier: MIT
"""Check that the documentation lists what the code has, both ways.

  check_docs.py [--no-tools] SOURCE_ROOT BUILD_ROOT

1. The "Tools" section of README.rst against the executables our meson
   files install (read from the build's introspection data, so whichever
   meson.build defines them); --no-tools when the build has no tools.
2. The environment variables of the "Debug variables" section of
   docs/drivers/panfrost.rst, and the variables of README.rst's
   "Debug variables:" line, against what our C code reads (getenv and
   Mesa's debug_get_*option helpers); and the PAN_MESA_DEBUG (or any other
   flag variable's) flags documented there against the flag table the code
   parses.

The code is found by walking our folders, never from a list of files, so
that moving code around does not silence the check.  Each mismatch is
printed on its own line; the exit status is 1 if there is any.
"""

import json
import os
import re
import sys

OUR_DIRS = ('src/panfrost', 'src/gallium/drivers/panfrost',
            'src/gallium/winsys/panfrost', 'src/tools')


def our_c_files(src):
    """Product C sources: tests and fuzz harnesses read their own knobs."""
    for d in OUR_DIRS:
        for root, dirs, files in os.walk(os.path.join(src, d)):
            dirs[:] = [x for x in dirs if x not in ('tests', 'fuzz')]
            for f in files:
                if f.endswith(('.c', '.h', '.cpp', '.mako')):
                    yield os.path.join(root, f)


def code_variables(src):
    """{variable: set of flags or None} read by the product code."""
    texts = {}
    for path in our_c_files(src):
        with open(path, errors='replace') as f:
            texts[path] = f.read()
    all_text = '\n'.join(texts.values())
    found = {}
    for m in re.finditer(r'\bgetenv\(\s*"(\w+)"\s*\)', all_text):
        found.setdefault(m.group(1), None)
    for m in re.finditer(r'\bdebug_get_\w*option\(\s*"(\w+)"', all_text):
        found.setdefault(m.group(1), None)
    for m in re.finditer(r'\bDEBUG_GET_ONCE_(\w+)_OPTION\(\s*\w+\s*,\s*'
                         r'"(\w+)"\s*,\s*(\w+)', all_text):
        kind, var, table = m.groups()
        if kind != 'FLAGS':
            found.setdefault(var, None)
            continue
        t = re.search(r'\b' + re.escape(table) + r'\s*\[\s*\]\s*=\s*\{(.*?)\};',
                      all_text, re.S)
        if not t:
            print(f'check_docs: the flag table {table} of {var} was not found')
            found[var] = set()
            continue
        found[var] = set(re.findall(r'\{\s*"(\w+)"', t.group(1)))
    return found


def rst_section(text, title):
    """The body of an rst section (up to the next title underline)."""
    lines = text.splitlines()
    for i in range(len(lines) - 1):
        if lines[i].strip() == title and re.fullmatch(r'([-=~^])\1+',
                                                      lines[i + 1].strip()):
            body = []
            for j in range(i + 2, len(lines)):
                if j + 1 < len(lines) and lines[j].strip() and \
                        re.fullmatch(r'([-=~^])\1+', lines[j + 1].strip()) \
                        and len(lines[j + 1].strip()) >= 3:
                    break
                body.append(lines[j])
            return body
    return None


def documented_variables(doc_lines):
    """{variable: set of flags} from definition-list terms (``VAR``) and
    the flags quoted in their bodies (``flag``)."""
    docs, current = {}, None
    for line in doc_lines:
        if line[:2] == '``':
            current = None
            for var in re.findall(r'``([A-Z][A-Z0-9_]+)(?:=[^`]*)?``', line):
                docs[var] = set()
                current = var
        elif line.startswith((' ', '\t')) and current:
            docs[current] |= set(re.findall(r'``([a-z][a-z0-9_]*)``', line))
        elif line.strip():
            current = None
    return docs


def check_tools(src, build, errors):
    with open(os.path.join(build, 'meson-info', 'intro-targets.json')) as f:
        targets = json.load(f)
    ours = tuple(os.path.realpath(os.path.join(src, d)) + os.sep
                 for d in OUR_DIRS)
    built = set()
    for t in targets:
        where = os.path.realpath(t.get('defined_in', ''))
        if t['type'] == 'executable' and t.get('installed') and \
                where.startswith(ours):
            built.add(t['name'])
    with open(os.path.join(src, 'README.rst')) as f:
        section = rst_section(f.read(), 'Tools')
    if section is None:
        errors.append('README.rst has no "Tools" section')
        return
    listed = set()
    for line in section:
        m = re.match(r'``([a-z][\w-]*)', line)
        if m:
            listed.add(m.group(1))
    for name in sorted(built - listed):
        errors.append(f'README.rst Tools: {name} is built and installed '
                      f'but not listed')
    for name in sorted(listed - built):
        errors.append(f'README.rst Tools: {name} is listed but no meson '
                      f'file installs it')
    if not built:
        errors.append('no installed tool found in the build: is the tools '
                      'option off?')


def compare_vars(where, docs, code, errors, flags=True):
    for var in sorted(set(docs) - set(code)):
        errors.append(f'{where}: {var} is documented but the code does not '
                      f'read it')
    for var in sorted(set(code) - set(docs)):
        errors.append(f'{where}: {var} is read by the code but not '
                      f'documented')
    if not flags:
        return
    for var in sorted(set(docs) & set(code)):
        if code[var] is None:
            continue
        for flag in sorted(docs[var] - code[var]):
            errors.append(f'{where}: {var} flag {flag} is documented but '
                          f'not parsed')
        for flag in sorted(code[var] - docs[var]):
            errors.append(f'{where}: {var} flag {flag} is parsed but not '
                          f'documented')


def check_variables(src, errors):
    code = code_variables(src)
    if not code:
        errors.append('no environment variable found in the code: the '
                      'scan is broken')
    with open(os.path.join(src, 'docs', 'drivers', 'panfrost.rst')) as f:
        section = rst_section(f.read(), 'Debug variables')
    if section is None:
        errors.append('docs/drivers/panfrost.rst has no "Debug variables" '
                      'section')
    else:
        compare_vars('docs/drivers/panfrost.rst', documented_variables(section),
                     code, errors)
    with open(os.path.join(src, 'README.rst')) as f:
        readme = f.read()
    m = re.search(r'^Debug variables:(.*?)(?:\n\s*\n|\Z)', readme, re.S | re.M)
    if not m:
        errors.append('README.rst has no "Debug variables:" paragraph')
    else:
        listed = {v: set() for v in
                  re.findall(r'``([A-Z][A-Z0-9_]+)(?:=[^`]*)?``', m.group(1))}
        compare_vars('README.rst', listed, code, errors, flags=False)
    return code


def main():
    args = sys.argv[1:]
    tools = '--no-tools' not in args
    src, build = [a for a in args if a != '--no-tools']
    errors = []
    if tools:
        check_tools(src, build, errors)
    code = check_variables(src, errors)
    for e in errors:
        print('MISMATCH ' + e)
    print(f'checked the README tool list and {len(code)} debug variables: '
          f'{len(errors)} mismatches')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
