#!/usr/bin/env python3
"""Fail if the product build compiles any file of the base's own Panfrost or
Lima drivers. Reads compile_commands.json and resolves every source through
the combined tree's symlinks to where it really lives."""

import json
import os
import sys

FORBIDDEN = (
    'src/panfrost/',
    'src/gallium/drivers/panfrost/',
    'src/gallium/winsys/panfrost/',
    'src/gallium/drivers/lima/',
    'src/gallium/winsys/lima/',
)

# Test oracles may compile stock files (never linked into the product):
# entries whose output lies under one of these build folders are skipped.
ALLOWED_ORACLE_DIRS = (
    'tests/oracle_genxml/',
    'tests/oracle/',
    'tests/oracle_tiling/',
    'tests/oracle_astc/',
)


def main():
    top, db_path = sys.argv[1], sys.argv[2]
    top = os.path.realpath(top)
    base = os.path.join(top, '_base', 'src') + os.sep
    with open(db_path) as f:
        db = json.load(f)

    bad, ours = [], 0
    for entry in db:
        out = entry.get('output', '')
        if any(d in out for d in ALLOWED_ORACLE_DIRS):
            continue
        path = os.path.realpath(os.path.join(entry['directory'], entry['file']))
        if path.startswith(base):
            rel = path[len(base):]
            if rel.startswith(FORBIDDEN):
                bad.append(rel)
        elif path.startswith(os.path.join(top, 'src') + os.sep):
            ours += 1

    print(f'{len(db)} compiled files, {ours} from our tree, '
          f'{len(bad)} from the base\'s Panfrost/Lima')
    for b in bad:
        print('  stock file compiled:', b)
    if ours == 0:
        print('FAIL: none of our driver files were compiled')
        return 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
