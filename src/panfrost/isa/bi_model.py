# Copyright 2026 The Panfrost fork authors
# SPDX-License-Identifier: MIT
"""
Building blocks of the Bifrost (Mali v6/v7) instruction description used by
bifrost_isa.py.  Bit positions are within the 23-bit FMA word or the 20-bit
ADD word of a tuple.
"""


class Mod:
    """
    A modifier field.  values[i] names encoding i (None: reserved); default
    is omitted when printing.  A one-bit ['none', x] field reads as a flag.
    """

    def __init__(self, name, start, size, values, default=None):
        self.name, self.start, self.size = name, start, size
        self.values = list(values) + [None] * ((1 << size) - len(values))
        self.default = default
        for v in self.values:
            assert v is None or (not v.isdigit() and '.' not in v), v


class Raw:
    """
    A field whose encodings stand for combinations of several modifiers
    (for instance abs flags combined with the order of the sources).  We
    print it as a number: .name=N.
    """

    def __init__(self, name, start, size):
        self.name, self.start, self.size = name, start, size


class Imm:
    def __init__(self, name, start, size):
        self.name, self.start, self.size = name, start, size


class Ins:
    """
    One encoding of an instruction: the word matches when (word & mask) ==
    exact.  srcs lists the start bit of each 3-bit source selector.  An
    instruction may have several encodings under one mnemonic; the
    modifier values select between them.
    """

    def __init__(self, name, unit, mask, exact, srcs=(), imms=(), mods=(),
                 staging=None):
        self.name, self.unit, self.mask, self.exact = name, unit, mask, exact
        self.srcs, self.imms, self.mods = list(srcs), list(imms), list(mods)
        self.staging = staging
        assert (exact & ~mask) == 0, name
