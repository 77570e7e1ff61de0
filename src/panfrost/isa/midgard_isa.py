# Copyright 2026 The Panfrost fork authors
# SPDX-License-Identifier: MIT
"""
The Midgard instruction set (Mali T6xx/T7xx/T8xx: v4 and v5), described for
gen_mid.py, which turns it into the C tables of pan_isa_mid_tables.c.

A program is a sequence of bundles.  Every bundle starts with a byte whose
low nibble is its own tag (kind and size in 16-byte quadwords) and whose
high nibble is the tag of the bundle after it (the lookahead the front end
uses to fetch ahead; "break" ends the program).

ALU bundles: a 32-bit control word (tags, then one enable bit per unit),
one 16-bit register word per enabled ALU unit, then the instruction words
in unit order (vector 48 bits, scalar 32 bits, compact branch 16 bits,
extended branch 48 bits), zero padding to a quadword, and when the bundle
is one quadword longer than that, 128 bits of embedded constants.

Load/store bundles: two 60-bit words after the tag byte.  Texture bundles:
one 120-bit word after the tag byte.
"""

from mid_model import Field as F, Format, Op

# --- Tags --------------------------------------------------------------------

# (assembly name, quadwords, kind)
TAGS = [
    ('invalid', 1, 'raw'), ('break', 1, 'raw'),
    ('texvtx', 1, 'tex'), ('tex', 1, 'tex'), ('texbar', 1, 'tex'),
    ('ldst', 1, 'ldst'), ('unk6', 1, 'raw'), ('unk7', 1, 'raw'),
    ('alu4', 1, 'alu'), ('alu8', 2, 'alu'), ('alu12', 3, 'alu'),
    ('alu16', 4, 'alu'),
    ('alu4wo', 1, 'alu'), ('alu8wo', 2, 'alu'), ('alu12wo', 3, 'alu'),
    ('alu16wo', 4, 'alu'),
]
TAG_NAMES = [t[0] for t in TAGS]

# --- ALU control word ----------------------------------------------------------

# Enable bits of the control word, in the order the words follow it:
# (unit, bit, instruction halfwords, has a register word, format)
UNITS = [
    ('vmul', 17, 3, True, 'vector'),
    ('sadd', 19, 2, True, 'scalar'),
    ('vadd', 21, 3, True, 'vector'),
    ('smul', 23, 2, True, 'scalar'),
    ('lut', 25, 3, True, 'vector'),
    ('br', 26, 1, False, 'branch'),
    ('brx', 27, 3, False, 'branchx'),
]
# Control word bits with no known meaning (printed as ctl=, validated zero).
CONTROL_UNKNOWN = 0xf001ff00 | (1 << 16) | (1 << 18) | (1 << 20) | \
    (1 << 22) | (1 << 24)
CONTROL_UNKNOWN &= ~0xff

# --- ALU operands --------------------------------------------------------------

REG_MODES = ['m8', 'm16', 'm32', 'm64']
FLOAT_MODS = [None, 'abs', 'neg', 'negabs']
INT_MODS = ['sext', 'zext', 'rep', 'lsl']
# How a vector source's two 64-bit halves are read; the widening ones
# convert the half to the next larger size.
EXPANDS = [None, 'replo', 'rephi', 'swap', 'widelo', 'widehi',
           'widelo_swap', 'widehi_swap']
SHRINKS = ['lo', 'hi', 'none']
FLOAT_OUTMODS = [None, 'pos', 'sat_signed', 'sat']
INT_OUTMODS = ['ssat', 'usat', 'keeplo', 'keephi']

# The register word, bits 0-15 of every ALU unit's composite.
REGWORD = [
    F('a', 0, 5, 'reg'),
    F('b', 5, 5, 'reg'),
    F('d', 10, 5, 'reg'),
    F('bimm', 15, 1, 'flag'),
]


def vsrc(p, start):
    return [F(p + 'mod', start, 2, 'enum', FLOAT_MODS, INT_MODS),
            F(p + 'exp', start + 2, 3, 'enum', EXPANDS),
            F(p + 'swz', start + 5, 8, 'swz', default=0xe4)]


# Vector instruction word after the register word (bits 16-63).
VECTOR = Format('vector', 64, REGWORD + [
    F('mode', 24, 2, 'enum', REG_MODES, default=2),
    *vsrc('a', 26), *vsrc('b', 39),
    F('shrink', 52, 2, 'enum', SHRINKS, default=2),
    F('omod', 54, 2, 'enum', FLOAT_OUTMODS, INT_OUTMODS),
    F('mask', 56, 8, 'hex', default=0xff),
], op=(16, 8))


def ssrc(p, start):
    return [F(p + 'mod', start, 2, 'enum', FLOAT_MODS, INT_MODS),
            F(p + 'full', start + 2, 1, 'flag'),
            F(p + 'comp', start + 3, 3)]


# Scalar instruction word after the register word (bits 16-47).  The five
# bits above the second source carry the rest of an inline immediate.
SCALAR = Format('scalar', 48, REGWORD + [
    *ssrc('a', 24), *ssrc('b', 30),
    F('bhi', 36, 5, 'hex'),
    F('rsvd', 41, 1, 'uint', reserved=True),
    F('omod', 42, 2, 'enum', FLOAT_OUTMODS, INT_OUTMODS),
    F('dfull', 44, 1, 'flag'),
    F('dcomp', 45, 3),
], op=(16, 8))

# Branch conditions of the compact conditional form.
CONDS = ['write0', 'false', 'true', 'always']
CALL_MODES = [None, 'plain', 'call', 'ret']

BRANCH_UNCOND = Format('branch_uncond', 16, [
    F('target', 3, 4, 'enum', TAG_NAMES),
    F('call', 7, 2, 'enum', CALL_MODES),
    F('offset', 9, 7, 'sint'),
], op=(0, 3))

BRANCH = Format('branch', 16, [
    F('target', 3, 4, 'enum', TAG_NAMES),
    F('offset', 7, 7, 'sint'),
    F('cond', 14, 2, 'enum', CONDS),
], op=(0, 3))

# The extended form's condition is a 16-entry truth table over up to four
# condition bits; a single condition repeats its 2-bit code eight times.
BRANCHX = Format('branchx', 48, [
    F('target', 3, 4, 'enum', TAG_NAMES),
    F('call', 7, 2, 'enum', CALL_MODES),
    F('offset', 9, 23, 'sint'),
    F('lut', 32, 16, 'hex'),
], op=(0, 3))

BRANCH_OPS = [
    Op('uncond', 1, fmt='branch_uncond'),
    Op('cond', 2),
    Op('discard', 4),
    Op('tilebuf', 6),
    Op('writeout', 7),
]
# The extended form has no special layout for the unconditional op.
BRANCHX_OPS = [Op(o.name, o.value) for o in BRANCH_OPS]

# --- ALU opcodes ---------------------------------------------------------------

ADD, MUL = ('vadd', 'sadd'), ('vmul', 'smul')
MOST, ALL = ADD + MUL, ADD + MUL + ('lut',)
LUT, VEC = ('lut',), ('vmul', 'vadd', 'lut')
CSEL = ('vadd', 'smul')


def rounding(base, value, units):
    return [Op(base + s, value + i, units)
            for i, s in enumerate(['', '_rtz', '_rtn', '_rtp'])]


ALU_OPS = (
    rounding('fadd', 0x10, ADD) + rounding('fmul', 0x14, MUL + LUT) + [
        Op('fmin', 0x28, MOST), Op('fmin_nan', 0x29, MOST),
        Op('fabsmin', 0x2a, MOST), Op('fabsmin_nan', 0x2b, MOST),
        Op('fmax', 0x2c, MOST), Op('fmax_nan', 0x2d, MOST),
        Op('fabsmax', 0x2e, MOST), Op('fabsmax_nan', 0x2f, MOST),
    ] + rounding('fmov', 0x30, ALL) + [
        Op('froundeven', 0x34, ADD), Op('ftrunc', 0x35, ADD),
        Op('ffloor', 0x36, ADD), Op('fceil', 0x37, ADD),
    ] + rounding('ffma', 0x38, LUT) + [
        Op('fdot3', 0x3c, ('vmul',)), Op('fdot3r', 0x3d, ('vmul',)),
        Op('fdot4', 0x3e, ('vmul',)), Op('freduce', 0x3f, ADD),
        Op('iadd', 0x40, MOST), Op('ishladd', 0x41, MUL),
        Op('isub', 0x46, MOST), Op('ishlsub', 0x47, MUL),
        Op('iaddsat', 0x48, ADD), Op('uaddsat', 0x49, ADD),
        Op('isubsat', 0x4e, ADD), Op('usubsat', 0x4f, ADD),
        Op('imul', 0x58, MUL), Op('iwmul', 0x59, ('vmul',)),
        Op('uwmul', 0x5a, ('vmul',)), Op('iuwmul', 0x5b, ('vmul',)),
        Op('imin', 0x60, MOST), Op('umin', 0x61, MOST),
        Op('imax', 0x62, MOST), Op('umax', 0x63, MOST),
        Op('iavg', 0x64, ADD), Op('uavg', 0x65, ADD),
        Op('iravg', 0x66, ADD), Op('uravg', 0x67, ADD),
        Op('iasr', 0x68, ADD), Op('ilsr', 0x69, ADD),
        Op('ishlsat', 0x6c, ADD), Op('ushlsat', 0x6d, ADD),
        Op('ishl', 0x6e, ADD),
        Op('iand', 0x70, MOST), Op('ior', 0x71, MOST),
        Op('inand', 0x72, MOST), Op('inor', 0x73, MOST),
        Op('iandnot', 0x74, MOST), Op('iornot', 0x75, MOST),
        Op('ixor', 0x76, MOST), Op('inxor', 0x77, MOST),
        Op('iclz', 0x78, ADD), Op('ipopcnt', 0x7a, ('vadd',)),
        Op('imov', 0x7b, ALL),
        Op('iabsdiff', 0x7c, ADD), Op('uabsdiff', 0x7d, ADD),
        Op('ichoose', 0x7e, ADD),
        Op('feq', 0x80, MOST), Op('fne', 0x81, MOST),
        Op('flt', 0x82, MOST), Op('fle', 0x83, MOST),
    ] + [Op('fball_' + c, 0x88 + i, VEC)
         for i, c in enumerate(['eq', 'neq', 'lt', 'lte'])]
    + [Op('fbany_' + c, 0x90 + i, VEC)
       for i, c in enumerate(['eq', 'neq', 'lt', 'lte'])]
    + rounding('f2i', 0x98, ADD) + rounding('f2u', 0x9c, ADD) + [
        Op('ieq', 0xa0, MOST), Op('ine', 0xa1, MOST),
        Op('ult', 0xa2, MOST), Op('ule', 0xa3, MOST),
        Op('ilt', 0xa4, MOST), Op('ile', 0xa5, MOST),
    ] + [Op(n, 0xa8 + i, VEC) for i, n in enumerate(
        ['iball_eq', 'iball_neq', 'uball_lt', 'uball_lte', 'iball_lt',
         'iball_lte'])]
    + [Op(n, 0xb0 + i, VEC) for i, n in enumerate(
        ['ibany_eq', 'ibany_neq', 'ubany_lt', 'ubany_lte', 'ibany_lt',
         'ibany_lte'])]
    + rounding('i2f', 0xb8, ADD) + rounding('u2f', 0xbc, ADD) + [
        Op('icsel_v', 0xc0, CSEL), Op('icsel', 0xc1, CSEL),
        Op('fcsel_v', 0xc4, CSEL), Op('fcsel', 0xc5, CSEL),
        Op('froundaway', 0xc6, ADD),
        Op('fatan2_pt2', 0xe8, LUT), Op('fpow_pt1', 0xec, LUT),
        Op('fpown_pt1', 0xed, LUT), Op('fpowr_pt1', 0xee, LUT),
        Op('frcp', 0xf0, LUT), Op('frsqrt', 0xf2, LUT),
        Op('fsqrt', 0xf3, LUT), Op('fexp2', 0xf4, LUT),
        Op('flog2', 0xf5, LUT), Op('fsinpi', 0xf6, LUT),
        Op('fcospi', 0xf7, LUT), Op('fatan2_pt1', 0xf9, LUT),
    ])

# Sources are integers for i*/u* ops and for the int-to-float conversions;
# the comparisons of floats (f*) and float-to-int conversions take floats.
for _o in ALU_OPS:
    _o.is_int = _o.name[0] in 'iu'

# --- Load/store ----------------------------------------------------------------

INDEX_FORMATS = [None, 'u64', 'u32', 's32']

LDST = Format('ldst', 60, [
    F('reg', 8, 5, 'reg'),
    F('mask', 13, 4, 'hex'),
    F('swz', 17, 8, 'swz', default=0xe4),
    F('acomp', 25, 2),
    F('areg', 27, 3),
    F('wide', 30, 1, 'flag'),
    F('ifmt', 31, 2, 'enum', INDEX_FORMATS),
    F('icomp', 33, 2),
    F('ireg', 35, 3),
    F('ishift', 38, 4),
    F('offset', 42, 18, 'sint'),
], op=(0, 8))


def sized(base, value, suffixes):
    return [Op(base + s, value + i) for i, s in enumerate(suffixes)
            if s is not None]


TYPES4 = ['32f', '16f', '32u', '32i']
MEM = ['u8', 'i8', None, None, 'u16', 'i16', 'u16_be', 'i16_be',
       '32', '32_bswap2', '32_bswap4', None, '64', '64_bswap2',
       '64_bswap4', '64_bswap8', '128', '128_bswap2', '128_bswap4',
       '128_bswap8']
ATOMICS = ['add', 'and', 'or', 'xor', 'imin', 'umin', 'imax', 'umax',
           'xchg', 'cmpxchg']

LDST_OPS = [
    Op('nop', 0x03),
    *sized('unpack_', 0x04, ['f32', 'f16', 'u32', 's32']),
    *sized('pack_', 0x08, ['f32', 'f16', 'u32', 's32']),
    Op('lea', 0x0c), Op('lea_image', 0x0d), Op('ld_cubemap_coords', 0x0e),
    Op('mov', 0x10), Op('pdiv_y', 0x11), Op('pdiv_z', 0x12),
    Op('pdiv_w', 0x13),
] + [Op('atomic_%s%s' % (a, s), 0x40 + 4 * i + j)
     for i, a in enumerate(ATOMICS)
     for j, s in enumerate(['', '64', '_be', '64_be'])] + [
    *sized('ld_', 0x80, MEM),
    *sized('ld_attr_', 0x94, ['32', '16', '32u', '32i']),
    *sized('ld_vary_', 0x98, ['32', '16', '32u', '32i']),
    *sized('ld_special_', 0x9c, TYPES4),
    *sized('ld_ubo_', 0xa0, MEM),
    *sized('ld_image_', 0xb4, TYPES4),
    *sized('ld_tilebuf_', 0xb8, ['32f', '16f', 'raw']),
    *sized('st_', 0xc0, MEM),
    *sized('st_vary_', 0xd4, ['32', '16', '32u', '32i']),
    *sized('st_image_', 0xd8, TYPES4),
    *sized('st_special_', 0xdc, TYPES4),
    *sized('st_tilebuf_', 0xe8, ['32f', '16f', 'raw']),
    Op('trap', 0xfc),
]

# --- Texture -------------------------------------------------------------------

TEX_OPS = [
    Op('normal', 1), Op('gradient', 2), Op('fetch', 4),
    Op('grad_from_deriv', 9), Op('mov', 10), Op('barrier', 11),
    Op('grad_from_coords', 12), Op('deriv', 13),
]
TEX_MODES = [None, 'normal', None, None, None, 'shadow', 'gather_shadow',
             None, 'gather_x', 'gather_y', 'gather_z', 'gather_w']
SAMPLER_TYPES = [None, 'float', 'uint', 'sint']
EXEC_MODES = [None, 'skip', 'kill', 'none']

# Bit positions count from the start of the bundle; the tag byte is not
# part of the instruction.
TEX = Format('tex', 128, [
    F('mode', 12, 4, 'enum', TEX_MODES),
    F('exec', 16, 2, 'enum', EXEC_MODES),
    F('dim', 18, 2),
    F('sreg', 20, 1, 'flag'),
    F('treg', 21, 1, 'flag'),
    F('lodreg', 22, 1, 'flag'),
    F('offreg', 23, 1, 'flag'),
    F('infull', 24, 1, 'flag'),
    F('insel', 25, 1, 'flag'),
    F('inupper', 26, 1, 'flag'),
    F('inswz', 27, 8, 'swz', default=0xe4),
    F('unk35', 35, 2, 'hex', reserved=True),
    F('outfull', 37, 1, 'flag'),
    F("stype", 38, 2, 'enum', SAMPLER_TYPES),
    F('outsel', 40, 1, 'flag'),
    F('outupper', 41, 1, 'flag'),
    F('mask', 42, 4, 'hex', default=0xf),
    F('omod', 46, 2, 'enum', FLOAT_OUTMODS),
    F('swz', 48, 8, 'swz', default=0xe4),
    F('ooo', 56, 4),
    F('unk60', 60, 8, 'hex', reserved=True),
    F('off', 68, 12, 'hex'),
    F('bias', 80, 8, 'hex'),
    F('biasi', 88, 8, 'sint'),
    F('sampler', 96, 16, 'hex'),
    F('texture', 112, 16, 'hex'),
], op=(8, 4))

# Format of each slot kind, by name (used by ops that switch layout).
FORMATS = [VECTOR, SCALAR, BRANCH, BRANCH_UNCOND, BRANCHX, LDST, TEX]

# Which op table each format draws mnemonics from.
OPSETS = {
    'vector': ALU_OPS, 'scalar': ALU_OPS, 'branch': BRANCH_OPS,
    'branch_uncond': BRANCH_OPS, 'branchx': BRANCHX_OPS, 'ldst': LDST_OPS,
    'tex': TEX_OPS,
}
