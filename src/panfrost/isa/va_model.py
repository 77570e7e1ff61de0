# Copyright 2026 The Panfrost fork authors
# SPDX-License-Identifier: MIT
"""
Building blocks of the Valhall (Mali v9) instruction description.

valhall_isa.py lists every instruction with these constructors; gen_va.py
turns the list into C tables.  Every bit position here is absolute within the
64-bit little-endian instruction word, so a reviewer can check a line of the
description against a bit diagram without knowing any of our code.
"""


class Enum:
    """A named list of values; None marks a reserved encoding."""

    def __init__(self, name, values, default=None, doc=''):
        self.name = name
        self.values = list(values)
        self.default = default
        self.doc = doc
        assert default is None or default in self.values, name
        for v in self.values:
            # Purely numeric names would clash with the raw "field=N" syntax,
            # dots with the modifier separator.
            assert v is None or (not v.isdigit() and '.' not in v), (name, v)

    def index(self, value):
        return self.values.index(value)


class SrcMod:
    """A modifier attached to one source operand (neg, abs, a swizzle...)."""

    def __init__(self, name, start, size=1, enum=None):
        self.name, self.start, self.size, self.enum = name, start, size, enum
        assert (size == 1) == (enum is None) or enum is not None, name


class Src:
    """A source operand: an 8-bit selector at bit `start` plus modifiers."""

    def __init__(self, start, mods=(), wide=False):
        self.start = start
        self.mods = list(mods)
        # 64-bit operand read from a register pair; informational only.
        self.wide = wide


class Staging:
    """
    A staging register vector: `reg` is the 6-bit base register position.
    `count` is either an integer (fixed length) or the name of the modifier
    holding the length, optionally biased (`count_bias`, the write count
    field stores length - 1).  `flags` is the value expected in the two bits
    above the register (None when those bits belong to other fields).
    """

    def __init__(self, reg, access, count, count_bias=0, flags=None):
        self.reg, self.access, self.count = reg, access, count
        self.count_bias, self.flags = count_bias, flags


class Imm:
    """An immediate operand written as name:value."""

    def __init__(self, name, start, size, signed=False):
        self.name, self.start, self.size, self.signed = name, start, size, signed


class Mod:
    """An instruction modifier: a flag (enum None, size 1) or an enum."""

    def __init__(self, name, start, size=1, enum=None, implied=False):
        self.name, self.start, self.size = name, start, size
        self.enum, self.implied = enum, implied


class Ins:
    """
    One instruction.  `opcode` is the 9-bit primary opcode at bits 48..56;
    `sub` lists extra (start, size, value) fields that tell apart
    instructions sharing a primary opcode.
    """

    def __init__(self, name, unit, opcode, sub=(), dest=False, staging=(),
                 srcs=(), imms=(), mods=()):
        self.name, self.unit, self.opcode = name, unit, opcode
        self.sub = list(sub)
        self.dest = dest
        self.staging = list(staging)
        self.srcs = list(srcs)
        self.imms = list(imms)
        self.mods = list(mods)
