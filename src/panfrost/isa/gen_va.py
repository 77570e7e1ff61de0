# Copyright 2026 The Panfrost fork authors
# SPDX-License-Identifier: MIT
"""
Generate the C tables of the Valhall instruction set from valhall_isa.py.

The C side (pan_isa_va_*.c) interprets the tables; all knowledge of
individual instructions lives in the description.  Before emitting anything
this script checks that the description is self-consistent: no two fields of
one instruction share a bit, no two instructions can claim the same word,
and every modifier spelling parses back unambiguously.
"""

import argparse
import os
import sys

from mako.template import Template

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import valhall_isa as isa  # noqa: E402
from va_model import Mod  # noqa: E402
from isa_semantics import Semantics, write_header  # noqa: E402

FLOW = Mod('flow', 59, 4, 'flow')
PAGE_BITS = 0x3 << 57
OPCODE_BITS = 0x1FF << 48


def bits(start, size):
    return ((1 << size) - 1) << start


class Claim:
    """Tracks which bits of a word an instruction has given a meaning."""

    def __init__(self, ins):
        self.ins = ins
        self.mask = 0

    def take(self, start, size, what):
        m = bits(start, size)
        if self.mask & m:
            sys.exit('%s: %s overlaps another field' % (self.ins.name, what))
        self.mask |= m


def enum_names(mod):
    if mod.enum is None:
        return [mod.name]
    return [v for v in isa.ENUMS[mod.enum].values if v is not None]


class Flat:
    """An instruction flattened to what the C tables need."""

    def __init__(self, ins):
        self.ins = ins
        c = Claim(ins)
        c.take(48, 9, 'opcode')
        c.take(57, 2, 'page')
        self.match_mask = OPCODE_BITS
        self.match_value = ins.opcode << 48
        for start, size, value in ins.sub:
            c.take(start, size, 'sub-opcode')
            self.match_mask |= bits(start, size)
            self.match_value |= value << start
        self.default_value = 0
        self.mods = [m for m in ins.mods] + [FLOW]
        self.mod_index = {m.name: i for i, m in enumerate(self.mods)}
        assert len(self.mod_index) == len(self.mods), ins.name
        for m in self.mods:
            c.take(m.start, m.size, 'modifier ' + m.name)
        self.operands = []
        for sr in ins.staging:
            c.take(sr.reg, 6, 'staging register')
            if sr.flags is not None:
                # The flags are a convention of the message unit, not a
                # field we let the user pick: keep them as default bits.
                self.default_value |= sr.flags << (sr.reg + 6)
            self.operands.append(('staging', sr))
        if ins.dest:
            c.take(40, 8, 'destination')
            self.operands.append(('dest', None))
        for s in ins.srcs:
            c.take(s.start, 8, 'source selector')
            for sm in s.mods:
                c.take(sm.start, sm.size, 'source modifier ' + sm.name)
            self.operands.append(('src', s))
        for imm in ins.imms:
            c.take(imm.start, imm.size, 'immediate ' + imm.name)
            self.operands.append(('imm', imm))
        if not ins.dest and not ins.staging:
            # Without a destination the byte still holds a full write mask
            # by convention; fields may reuse some of its bits.
            self.default_value |= (0xC0 << 40) & ~c.mask
        self.covered = c.mask
        self.default_mask = 0
        v = self.default_value
        self.default_value &= ~c.mask
        assert v == self.default_value, ins.name
        self.default_mask = self.default_value


def check_names(flats):
    names = {f.ins.name: f for f in flats}
    assert len(names) == len(flats), 'duplicate mnemonic'
    for f in flats:
        for other in flats:
            if other is f or not other.ins.name.startswith(f.ins.name + '.'):
                continue
            rest = other.ins.name[len(f.ins.name) + 1:].split('.')[0]
            for m in f.mods:
                if rest in enum_names(m):
                    sys.exit('%s.%s reads as both an instruction and a '
                             'modifier' % (f.ins.name, rest))
    specials = []
    for p in (0, 1, 3):
        specials += [x for x in isa.ENUMS['special_page%d' % p].values if x]
    assert len(specials) == len(set(specials)), 'special FAU names clash'


def check_claims(flats):
    """Two instructions must never match the same word."""
    for i, a in enumerate(flats):
        for b in flats[i + 1:]:
            common = a.match_mask & b.match_mask
            if (a.match_value & common) == (b.match_value & common):
                sys.exit('%s and %s can match the same word' %
                         (a.ins.name, b.ins.name))


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--template')
    p.add_argument('--out')
    p.add_argument('--header', help='write the family/type enums here')
    args = p.parse_args()

    flats = [Flat(i) for i in isa.INSTRUCTIONS]
    check_names(flats)
    check_claims(flats)
    sem = Semantics(isa.INSTRUCTIONS, isa.semantics)
    if args.header:
        write_header(args.header, sem, 'va', 'gen_va.py', 'valhall_isa.py')
    if not args.out:
        return
    enums = list(isa.ENUMS.values())
    enum_id = {e.name: i for i, e in enumerate(enums)}
    text = Template(filename=os.path.abspath(args.template)).render(
        flats=flats, enums=enums, enum_id=enum_id, lut=isa.IMMEDIATE_LUT,
        FLOW=FLOW, sem=sem)
    with open(args.out, 'w') as f:
        f.write(text)


if __name__ == '__main__':
    main()
