# Copyright 2026 The Panfrost fork authors
# SPDX-License-Identifier: MIT
"""
Generate the C tables of the Midgard instruction set from midgard_isa.py.

Checks first that every format's fields, with its opcode, cover each of
its bits exactly once (so that any word prints as fields that assemble back
to it), that opcode values are unique within a table and fit their field,
and that defaults and names fit.
"""

import argparse
import os
import sys

from mako.template import Template

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import midgard_isa as isa  # noqa: E402


def check(fmt, ops):
    first = 8 if fmt.name == 'tex' else 0
    want = ((1 << fmt.bits) - 1) & ~((1 << first) - 1)
    if fmt.covered != want:
        sys.exit('%s: bits 0x%x not described' % (fmt.name,
                                                  want & ~fmt.covered))
    seen = set()
    for o in ops:
        if o.value in seen or o.value >> fmt.op[1]:
            sys.exit('%s: bad opcode %s' % (fmt.name, o.name))
        seen.add(o.value)
    for f in fmt.fields:
        if f.default >> f.size:
            sys.exit('%s.%s: default does not fit' % (fmt.name, f.name))


def c_names(values):
    return '{ %s }' % ', '.join('"%s"' % v if v else 'NULL' for v in values)


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--template', required=True)
    p.add_argument('--out', required=True)
    args = p.parse_args()

    for fmt in isa.FORMATS:
        check(fmt, isa.OPSETS[fmt.name])

    fmt_index = {f.name: i for i, f in enumerate(isa.FORMATS)}
    unit_index = {u[0]: i for i, u in enumerate(isa.UNITS)}
    # One C op table per distinct list.
    opsets, opset_of = [], {}
    for f in isa.FORMATS:
        ops = isa.OPSETS[f.name]
        if id(ops) not in opset_of:
            opset_of[id(ops)] = len(opsets)
            opsets.append(ops)

    def unit_mask(op):
        m = 0
        for u in op.units:
            m |= 1 << unit_index[u]
        return m

    text = Template(filename=os.path.abspath(args.template)).render(
        isa=isa, opsets=opsets, opset_of=opset_of, fmt_index=fmt_index,
        unit_index=unit_index, unit_mask=unit_mask, c_names=c_names)
    with open(args.out, 'w') as f:
        f.write(text)


if __name__ == '__main__':
    main()
