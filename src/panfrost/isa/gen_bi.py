# Copyright 2026 The Panfrost fork authors
# SPDX-License-Identifier: MIT
"""
Generate the C tables of the Bifrost instruction set from bifrost_isa.py.

Checks first that the description is consistent: fields of an encoding do
not overlap its fixed bits or each other, and whenever two encodings can
match the same word the decoder picks the most specific match, then the
earliest in the description.  Equally specific overlaps are listed: the
assembler refuses the words of the later encoding that the earlier one
claims.
"""

import argparse
import os
import sys

from mako.template import Template

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bifrost_isa as isa  # noqa: E402
from bi_model import Raw  # noqa: E402
from isa_semantics import Semantics, write_header  # noqa: E402


def bits(start, size):
    return ((1 << size) - 1) << start


def check(ins):
    taken = ins.mask
    fields = [(s, 3, 'source') for s in ins.srcs]
    fields += [(i.start, i.size, i.name) for i in ins.imms]
    fields += [(m.start, m.size, m.name) for m in ins.mods]
    for start, size, what in fields:
        if taken & bits(start, size):
            sys.exit('%s: %s overlaps' % (ins.name, what))
        taken |= bits(start, size)


def check_specificity(ops):
    ties = []
    for i, a in enumerate(ops):
        for b in ops[i + 1:]:
            if a.unit != b.unit:
                continue
            common = a.mask & b.mask
            if (a.exact & common) != (b.exact & common):
                continue
            if bin(a.mask).count('1') == bin(b.mask).count('1'):
                ties.append('%s/%s' % (a.name, b.name))
    return ties


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--template')
    p.add_argument('--out')
    p.add_argument('--header', help='write the family/type enums here')
    args = p.parse_args()

    sem = Semantics(isa.INSTRUCTIONS, isa.semantics)
    if args.header:
        write_header(args.header, sem, 'bi', 'gen_bi.py', 'bifrost_isa.py')
    if not args.out:
        return

    ops = isa.INSTRUCTIONS
    for ins in ops:
        check(ins)
    ties = check_specificity(ops)

    # Deduplicate value lists into shared enums.
    enums, enum_of = [], {}
    for ins in ops:
        for m in ins.mods:
            if isinstance(m, Raw):
                continue
            key = tuple(m.values)
            if key not in enum_of:
                enum_of[key] = len(enums)
                enums.append(key)

    kinds = {'lit': 'BI_SLOT_LIT', 'z': 'BI_SLOT_Z', 'tuple': 'BI_SLOT_TUPLE',
             'upper': 'BI_SLOT_UPPER', 'header': 'BI_SLOT_HEADER',
             'const': 'BI_SLOT_CONST', 'm': 'BI_SLOT_M',
             'zero': 'BI_SLOT_ZERO'}
    names = list(isa.QUAD_FORMATS)

    def slot(s):
        a = s[1] if len(s) > 1 else 0
        b = s[2] if len(s) > 2 else -1
        return '{ %s, %d, %d }' % (kinds[s[0]], a, b)

    text = Template(filename=os.path.abspath(args.template)).render(
        ops=ops, enums=enums, enum_of=enum_of, Raw=Raw, isa=isa,
        fmt_names=names, slot=slot, ties=ties, sem=sem)
    with open(args.out, 'w') as f:
        f.write(text)


if __name__ == '__main__':
    main()
