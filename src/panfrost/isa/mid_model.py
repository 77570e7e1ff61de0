# Copyright 2026 The Panfrost fork authors
# SPDX-License-Identifier: MIT
"""
Building blocks of the Midgard (Mali v4/v5) description in midgard_isa.py.

Every instruction of a bundle is seen as one little-endian bit string (up
to 128 bits) cut into named fields.  ALU instructions are the unit's 16-bit
register word followed by its instruction word, so that one line of
assembly carries both.
"""

# How a field's value is written in assembly.
KINDS = ('uint', 'sint', 'hex', 'enum', 'reg', 'swz', 'flag', 'op')


class Field:
    """name=value in assembly; omitted when equal to default."""

    def __init__(self, name, start, size, kind='uint', values=None,
                 int_values=None, default=0, reserved=False):
        assert kind in KINDS, kind
        self.name, self.start, self.size = name, start, size
        self.kind, self.default, self.reserved = kind, default, reserved
        if kind == 'flag':
            assert size == 1
        n = 1 << size
        self.values = list(values or []) + [None] * (n - len(values or []))
        self.int_values = None
        if int_values:
            self.int_values = list(int_values) + [None] * (n - len(int_values))
        if kind == 'enum':
            assert values, name


class Format:
    """A bit layout.  op is the field that selects the mnemonic."""

    def __init__(self, name, bits, fields, op=None):
        self.name, self.bits, self.fields, self.op = name, bits, fields, op
        taken = 0
        for f in fields:
            m = ((1 << f.size) - 1) << f.start
            assert not taken & m, '%s: %s overlaps' % (name, f.name)
            assert f.start + f.size <= bits, '%s: %s' % (name, f.name)
            taken |= m
        if op:
            taken |= ((1 << op[1]) - 1) << op[0]
        self.covered = taken


class Op:
    """One opcode: its mnemonic, value, the units or format it takes."""

    def __init__(self, name, value, units=(), is_int=False, fmt=None):
        self.name, self.value, self.units = name, value, tuple(units)
        self.is_int, self.fmt = is_int, fmt
