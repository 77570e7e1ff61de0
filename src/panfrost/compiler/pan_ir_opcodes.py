# Copyright 2026 The Panfrost fork authors
# SPDX-License-Identifier: MIT
"""
The opcodes of the Panfrost compiler IR, described once.

Each opcode gives its operand counts, which modifiers it uses, whether its
sources take float modifiers (neg/abs), flags for the passes, and how the
Valhall back end writes it in our assembly syntax
(docs/drivers/panfrost/assembly.rst), which the isa library encodes, and
its Bifrost forms (BI_FORMS below).

The Valhall form, VA(name, mods, args), is structured: pan_va_emit.c
fills it in and hands it to the isa library's structured encoder
(pan_isa_va_encode.h); the text `va` is the same form in our assembly
syntax, for documentation and debug printing only.
  name   mnemonic; {type} becomes the type, {bits} the memory width
         (i32, i64, i96, i128) of the destination or source 0
  mods   "field=value" per instruction modifier; values {cmp} (by name),
         {eq} (branch on zero) and {signed} (type s32) are filled in
  args   one per operand, in the encoding's order:
         {d} destination   {s0}.. sources ("{s1}.swz=b00" adds a modifier)
         {sr} destination as a staging vector  {ssr0} source 0 as one
         #V  constant V of the hardware table   r{imm} the register imm
         NAME:{imm} the immediate field          NAME:{offset} branch distance
         NAME:#V the immediate field set to V
  mod values {vecsize} (vector size of the destination, else source 0),
  {regfmt} (register format of the type), {atom} and {atom1} (the
  atomic operation of imm, ATOMICS and ATOMICS1) are filled in too.
An op without a Valhall form must be lowered before emission.

A Bifrost form, BI(name, unit, mods, args), names an instruction of
src/panfrost/isa/bifrost_isa.py on the FMA or ADD unit; pan_bi_emit.c
picks the encoding of that name the modifiers fit and fills in the source
selectors.  An op may list several forms: the first whose `when`
("type=s32", "cmp=eq,ne") matches is used.
  mods   "field=value"; values {cmp} and {eq} as for Valhall
  args   one per source selector, in the encoding's order: {sN} source N,
         {sN.W} word W of source N, "{sN}.neg=FIELD" the field a negated
         source toggles (default negK/absK for selector K), zero (FMA
         zero), {imm} the immediate field as a constant, {offset} the
         branch distance (a constant), r{imm} the register imm
  staging  'd': the destination is the staging vector, 's0': source 0
  msg    the clause header's message type
  imm_field  the immediate field that gets the imm modifier; several
             as "name:shift,name:shift" (a byte of imm each)
  fau_src    a source read through the tuple's FAU index alone (no
             selector: ATEST's datum)
Mod values {vecsize} (the staging vector's length), {regfmt} (the
register format of the type) and {atom} (the atomic operation of imm)
are filled in too.
An op without a Bifrost form is refused by the Bifrost back end.

Run with --header/--code to generate pan_ir_opcodes.h, pan_ir_opcodes.c and
--builder for pan_ir_builder.h.
"""

import argparse
import os

from mako.template import Template

TYPES = ['none', 'u32', 's32', 'f32']
CMPS = ['none', 'eq', 'ne', 'lt', 'le', 'gt', 'ge']
MODS = ['type', 'cmp', 'imm', 'on_zero', 'target']
# Memory atomics (imm of the atomic ops): our name, the ISAs' operation
# (Valhall's atom enum and Bifrost's atom_opc share the names).
ATOMICS = [('add', 'aadd'), ('imin', 'asmin'), ('umin', 'aumin'),
           ('imax', 'asmax'), ('umax', 'aumax'), ('and', 'aand'),
           ('or', 'aor'), ('xor', 'axor'), ('xchg', 'axchg')]
# The atomics with an implied operand (imm of atomic1_return): our name,
# the ISAs' operation.  inc and dec add 1 and -1, the others take 1.
ATOMICS1 = [('inc', 'ainc'), ('dec', 'adec'), ('umax1', 'aumax1'),
            ('smax1', 'asmax1'), ('or1', 'aor1')]

# Argument kinds of a Valhall form (enum pan_ir_va_arg).
VA_ARGS = ['d', 'sr', 's0', 's1', 's2', 's3', 'ssr0', 'lut', 'reg_imm',
           'imm', 'offset', 'fixed']


class VA:
    def __init__(self, name, mods=(), args=()):
        self.name = name
        self.mods = [m.split('=', 1) for m in mods]
        self.args = []
        for a in args:
            mod = None
            if a.startswith('{s') and '.' in a:
                a, mod = a.split('.', 1)
                mod = mod.split('=', 1)
            if a.startswith('#'):
                kind, value = 'lut', int(a[1:], 0)
            elif a == 'r{imm}':
                kind, value = 'reg_imm', 0
            elif ':#' in a:
                kind, value = 'fixed', int(a.split(':#')[1], 0)
            elif ':' in a:
                kind, value = a.split(':')[1][1:-1], 0
                assert kind in ('imm', 'offset')
            else:
                kind, value = a[1:-1], 0
            assert kind in VA_ARGS, a
            self.args.append((kind, value, mod, a))

    def text(self):
        t = self.name + ''.join('.%s=%s' % (f, v) for f, v in self.mods)
        ops = [a + ('.%s=%s' % tuple(m) if m else '')
               for _, _, m, a in self.args]
        return t + (' ' + ', '.join(ops) if ops else '')


# Argument kinds of a Bifrost form (enum pan_ir_bi_arg).
BI_ARGS = ['src', 'zero', 'imm', 'offset', 'reg_imm']


class BI:
    def __init__(self, name, unit, mods=(), args=(), when=None,
                 staging=None, msg='none', imm_field=None, fau_src=None):
        assert unit in ('fma', 'add')
        self.name, self.unit, self.msg = name, unit, msg
        self.imm_field, self.fau_src = imm_field, fau_src
        self.mods = [m.split('=', 1) for m in mods]
        self.staging = staging
        self.types, self.cmps = [], []
        if when:
            key, vals = when.split('=')
            getattr(self, key + 's').extend(vals.split(','))
        self.args = []
        for a in args:
            field = None
            if '.neg=' in a:
                a, field = a.split('.neg=')
            if a.startswith('{s'):
                src, _, word = a[2:-1].partition('.')
                self.args.append(('src', int(src), int(word or 0), field))
            elif a == 'r{imm}':
                self.args.append(('reg_imm', 0, 0, None))
            else:
                assert a in ('zero', '{imm}', '{offset}'), a
                self.args.append((a.strip('{}'), 0, 0, None))

    def text(self):
        t = self.name + ''.join('.%s=%s' % (f, v) for f, v in self.mods)
        return '%s%s %s' % ('*' if self.unit == 'fma' else '+', t,
                            ', '.join(self.describe(a) for a in self.args))

    @staticmethod
    def describe(a):
        kind, src, word, _ = a
        if kind == 'src':
            return '{s%d%s}' % (src, '.%d' % word if word else '')
        return {'zero': '#0', 'imm': '{imm}', 'offset': '{offset}',
                'reg_imm': 'r{imm}'}[kind]


class Op:
    def __init__(self, name, srcs, dest=True, dest_comps=1, mods=(),
                 float_srcs=False, va=None, terminator=False,
                 side_effects=False, doc=''):
        assert all(m in MODS for m in mods)
        self.name = name
        self.srcs = srcs              # count, or None for a variable count
        self.dest = dest
        self.dest_comps = dest_comps  # None: a builder argument
        self.mods = list(mods)
        self.float_srcs = float_srcs
        self.va = va
        self.terminator = terminator
        self.side_effects = side_effects
        self.doc = doc


def alu(name, srcs, va, **kw):
    return Op(name, srcs, va=va, **kw)


def falu(name, srcs, va, **kw):
    return Op(name, srcs, va=va, float_srcs=True, **kw)


D_S0 = ['{d}', '{s0}']
D_S0_S1 = ['{d}', '{s0}', '{s1}']
SHIFT = D_S0_S1[:2] + ['{s1}.swz=b00', '{s2}']

OPS = [
    # Moves and constants
    alu('mov', 1, VA('mov.i32', [], ['{d}', '{s0}'])),
    Op('preload', 0, mods=['imm'], va=VA('mov.i32', [], ['{d}', 'r{imm}']),
       doc='read a register the hardware preloads (system values)'),
    alu('iadd_imm', 1, VA('iadd_imm.i32', [], ['{d}', '{s0}', 'constant:{imm}']),
        mods=['imm']),
    Op('collect', None, dest_comps=None,
       doc='a vector from scalars; the back end writes one word each'),
    Op('phi', None, doc='one source per predecessor, in order'),

    # Integer arithmetic
    alu('iadd', 2, VA('iadd.u32', [], D_S0_S1)),
    alu('isub', 2, VA('isub.u32', [], D_S0_S1)),
    alu('imul', 2, VA('imul.i32', [], D_S0_S1)),
    alu('iadd64', 2, VA('iadd.u64', [], D_S0_S1), dest_comps=2),
    # (s0 << s1) op s2 and (s0 >> s1) op s2: shift and bitwise in one
    alu('lshift_or', 3, VA('lshift_or.i32', [], SHIFT)),
    alu('lshift_and', 3, VA('lshift_and.i32', [], SHIFT)),
    alu('lshift_xor', 3, VA('lshift_xor.i32', [], SHIFT)),
    alu('rshift_or', 3, VA('rshift_or.i32', ['signed={signed}'], SHIFT),
        mods=['type']),

    # Compare and select: booleans are 0 / 1
    alu('icmp', 2, VA('icmp_or.{type}', ['cmp={cmp}', 'result=i1'],
           D_S0_S1 + ['#0x0']),
        mods=['type', 'cmp']),
    falu('fcmp', 2, VA('fcmp_or.f32', ['cmp={cmp}', 'result=i1'],
            D_S0_S1 + ['#0x0']),
         mods=['cmp']),
    Op('csel', 4, mods=['type', 'cmp'],
       va=VA('csel.{type}', ['cmp={cmp}'],
              ['{d}', '{s0}', '{s1}', '{s2}', '{s3}']),
       doc='(s0 cmp s1) ? s2 : s3'),

    # Float arithmetic
    falu('fadd', 2, VA('fadd.f32', [], D_S0_S1)),
    falu('fma', 3, VA('fma.f32', [], D_S0_S1 + ['{s2}'])),
    falu('fmin', 2, VA('fmin.f32', [], D_S0_S1)),
    falu('fmax', 2, VA('fmax.f32', [], D_S0_S1)),

    # Special functions and rounding
    falu('frcp', 1, VA('frcp.f32', [], D_S0)),
    falu('frsq', 1, VA('frsq.f32', [], D_S0)),
    falu('ffloor', 1, VA('fround.f32', ['round=rtn'], D_S0)),
    falu('fceil', 1, VA('fround.f32', ['round=rtp'], D_S0)),
    falu('ftrunc', 1, VA('fround.f32', ['round=rtz'], D_S0)),
    falu('fround_even', 1, VA('fround.f32', ['round=rte'], D_S0)),

    # Steps of the exp2 / log2 / sin / cos sequences (pan_ir_from_nir_sfu.c)
    falu('frexpe_log', 1, VA('frexpe.f32', ['log=1'], D_S0),
         doc='e of |s0| = m * 2^e with m in [0.75, 1.5), as an integer'),
    falu('fadd_lscale', 2, VA('fadd_lscale.f32', [], D_S0_S1),
         doc='s0 + m(s1), m as frexpe_log splits s1'),
    falu('flogd', 1, VA('flogd.f32', [], D_S0),
         doc='log2(m) / (m - 1) of the m frexpe_log splits off'),
    falu('fma_rscale', 4, VA('fma_rscale.f32', [],
                             ['{d}', '{s0}', '{s1}', '{s2}', '{s3}']),
         doc='(s0 * s1 + s2) * 2^s3, s3 an integer'),
    falu('f2s32_rte', 1, VA('f32_to_s32', ['round=rte'], D_S0)),
    falu('fexp', 2, VA('fexp.f32', [], D_S0_S1),
         doc='2^(s0 / 2^24) of the 8.24 fixed-point s0; s1 the float it '
             'came from (NaN and infinities)'),
    alu('fsin_table', 1, VA('fsin_table.u6', [], D_S0),
        doc='sin(k * pi / 32) of the low 6 bits k of s0'),
    alu('fcos_table', 1, VA('fcos_table.u6', [], D_S0)),

    # Cube maps (pan_ir_from_nir_tex.c): s0..s2 the direction x, y, z
    falu('cubeface1', 3, VA('cubeface1', [], D_S0_S1 + ['{s2}']),
         doc='the major axis magnitude of (s0, s1, s2)'),
    falu('cubeface2', 3, VA('cubeface2', [], D_S0_S1 + ['{s2}']),
         doc='the face of (s0, s1, s2), 0..5 in bits 29-31'),
    falu('cube_ssel', 3, VA('cube_ssel', [], D_S0_S1 + ['{s2}']),
         doc='the S numerator: s0 (z) or s1 (x), signed by the face s2'),
    falu('cube_tsel', 3, VA('cube_tsel', [], D_S0_S1 + ['{s2}']),
         doc='the T numerator: s0 (y) or s1 (z), signed by the face s2'),
    falu('fma_sat', 3, VA('fma.f32', ['clamp=clamp_0_1'],
                          D_S0_S1 + ['{s2}']),
         doc='fma clamped to [0, 1]'),
    alu('mux_bit', 3, VA('mux.i32', ['mux=bit'], D_S0_S1 + ['{s2}']),
        doc='the bits of s0 where s2 is set, of s1 elsewhere'),
    # Derivatives: s0 read from the lane s1 of its quad (0..3)
    alu('clper_quad', 2, VA('clper.i32', ['laneop=none', 'subgroup=subgroup4',
                                          'inactive=zero'],
                            D_S0_S1)),

    # Conversions (float to integer rounds toward zero)
    falu('f2s32', 1, VA('f32_to_s32', ['round=rtz'], D_S0)),
    falu('f2u32', 1, VA('f32_to_u32', ['round=rtz'], D_S0)),
    alu('s2f32', 1, VA('s32_to_f32', [], D_S0)),
    alu('u2f32', 1, VA('u32_to_f32', [], D_S0)),

    # Memory: s0 (load) / s1 (store) is a 64-bit address (2 words)
    Op('load_global', 1, dest_comps=None, mods=['imm'], side_effects=False,
       va=VA('load.{bits}', ['slot=slot0', 'flow=wait0'],
              ['{sr}', '{s0}', 'offset:{imm}'])),
    Op('store_global', 2, dest=False, mods=['imm'], side_effects=True,
       va=VA('store.{bits}', ['slot=slot0'],
              ['{ssr0}', '{s1}', 'offset:{imm}'])),

    # Atomics on a 32-bit word of memory: s0 the operand (a register),
    # s1 the 64-bit address (global memory, or shared memory's address
    # made 64-bit), imm the operation (enum pan_ir_atomic).  atomic_return
    # gives the word's value before; an exchange always returns (Valhall's
    # axchg must).  atomic_cmpxchg: s0 two words, the new value then the
    # comparand; the word becomes the new value where it equals the
    # comparand, and the result is its value before.
    Op('atomic', 2, dest=False, mods=['imm'], side_effects=True,
       va=VA('atom.i32', ['atom={atom}', 'slot=slot0'],
              ['{ssr0}', '{s1}', 'offset:#0'])),
    Op('atomic_return', 2, mods=['imm'], side_effects=True,
       va=VA('atom_return.i32', ['atom={atom}', 'slot=slot0', 'flow=wait0'],
              ['{sr}', '{ssr0}', '{s1}', 'offset:#0'])),
    # The same with an implied operand of 1 or -1 (ATOMICS1 in imm): s0
    # the address alone.
    Op('atomic1_return', 1, mods=['imm'], side_effects=True,
       va=VA('atom1_return.i32', ['atom1={atom1}', 'slot=slot0',
                                  'flow=wait0'],
              ['{sr}', '{s0}', 'offset:#0'])),
    Op('atomic_cmpxchg', 2, side_effects=True,
       va=VA('atom_return.i32', ['atom=axchg', 'compare=1', 'slot=slot0',
                                 'flow=wait0'],
              ['{sr}', '{ssr0}', '{s1}', 'offset:#0'])),

    # Spilling (pan_va_spill.c): s0 (tls_load) / s1 (tls_store) is the
    # thread_local_pointer special, imm the byte offset in this thread's
    # storage; memaccess=force makes the address thread-local.
    Op('tls_load', 1, dest_comps=None, mods=['imm'], side_effects=False,
       va=VA('load.{bits}', ['memaccess=force', 'slot=slot0', 'flow=wait0'],
              ['{sr}', '{s0}', 'offset:{imm}'])),
    Op('tls_store', 2, dest=False, mods=['imm'], side_effects=True,
       va=VA('store.{bits}', ['memaccess=force', 'slot=slot0'],
              ['{ssr0}', '{s1}', 'offset:{imm}'])),

    # Scratch arrays (pan_ir_from_nir_scratch.c): s0 (load) / s1 (store)
    # is the address in the thread's storage, two words: the byte offset
    # over a zero high word (Bifrost's tl segment), to which
    # pan_va_lower_scratch.c adds thread_local_pointer on Valhall.
    # Ordered among themselves like any memory access.
    Op('scratch_load', 1, dest_comps=None, side_effects=True,
       va=VA('load.{bits}', ['memaccess=force', 'slot=slot0', 'flow=wait0'],
              ['{sr}', '{s0}', 'offset:#0'])),
    Op('scratch_store', 2, dest=False, side_effects=True,
       va=VA('store.{bits}', ['memaccess=force', 'slot=slot0'],
              ['{ssr0}', '{s1}', 'offset:#0'])),

    # Uniform buffers at a dynamic offset: s0 the byte offset, s1 the UBO
    # (entry s1 of resource table 0).
    Op('ld_ubo', 2, dest_comps=None,
       va=VA('ld_buffer.{bits}', ['slot=slot0', 'flow=wait0'],
              ['{sr}', '{s0}', '{s1}'])),

    # Graphics messages (docs/drivers/panfrost/compiler.rst: the driver
    # interface).  Attributes: s0 vertex id, s1 instance id, imm index.
    Op('ld_attr', 2, dest_comps=None, mods=['type', 'imm'],
       va=VA('ld_attr_imm', ['vecsize={vecsize}', 'regfmt={regfmt}',
                             'slot=slot0', 'flow=wait0'],
              ['{sr}', '{s0}', '{s1}', 'index:{imm}', 'table:#1'])),
    # IDVS output address of the vertex whose index is s0 (r59).
    Op('lea_vary', 1, dest_comps=2,
       va=VA('lea_buf_imm', ['slot=slot0', 'flow=wait0'],
              ['{sr}', '{s0}', 'table:#0xd', 'index:#0'])),
    Op('store_pos', 2, dest=False, mods=['imm'], side_effects=True,
       va=VA('store.{bits}', ['memaccess=istream', 'slot=slot0'],
              ['{ssr0}', '{s1}', 'offset:{imm}'])),
    # The point size: s1 is the lea_vary address of the vertex's index
    # plus 4 (the packet's point size word), s0 one binary32.  Valhall only.
    Op('store_psiz', 2, dest=False, side_effects=True,
       va=VA('store.i32', ['memaccess=istream', 'slot=slot0'],
              ['{ssr0}', '{s1}', 'offset:#0'])),
    # The instruction's type is U32 for integer data (pan_ir_from_nir_gfx.c;
    # Bifrost stores it unconverted into an integer record), else F32 or
    # none: no modifier, Valhall's STORE moves bits either way.
    Op('store_vary', 2, dest=False, mods=['imm'], side_effects=True,
       va=VA('store.{bits}', ['memaccess=estream', 'slot=slot0'],
              ['{ssr0}', '{s1}', 'offset:{imm}'])),
    # Varyings: s0 is the preloaded r61, imm the byte offset of the slot.
    Op('ld_var', 1, dest_comps=None, mods=['imm'],
       va=VA('ld_var_buf_imm.f32', ['vecsize={vecsize}', 'srcfmt=src_f32',
                                    'sample=center', 'update=store',
                                    'slot=slot0', 'flow=wait0'],
              ['{sr}', '{s0}', 'index:{imm}'])),
    Op('ld_var_flat', 1, dest_comps=None, mods=['imm'],
       va=VA('ld_var_buf_imm.f32', ['vecsize={vecsize}',
                                    'srcfmt=src_flat32', 'sample=center',
                                    'update=store', 'slot=slot0',
                                    'flow=wait0'],
              ['{sr}', '{s0}', 'index:{imm}'])),
    # Varyings past the 8-bit immediate (byte 256 on): s1 is the byte
    # offset in a register, imm the same offset (the Bifrost back end makes
    # slots 16-23 ld_var / ld_var_flat of slot imm / 16, and gives later
    # ones the slot in s1).
    Op('ld_var_far', 2, dest_comps=None, mods=['imm'],
       va=VA('ld_var_buf.f32', ['vecsize={vecsize}', 'srcfmt=src_f32',
                                'sample=center', 'update=store',
                                'slot=slot0', 'flow=wait0'],
              ['{sr}', '{s0}', '{s1}'])),
    Op('ld_var_flat_far', 2, dest_comps=None, mods=['imm'],
       va=VA('ld_var_buf.f32', ['vecsize={vecsize}', 'srcfmt=src_flat32',
                                'sample=center', 'update=store',
                                'slot=slot0', 'flow=wait0'],
              ['{sr}', '{s0}', '{s1}'])),
    # gl_FragCoord: x and y are the halves of the preloaded r59 (pixel
    # position), z and w special varyings (imm: 3 depth, 2 1/w).
    alu('u16lo_to_f32', 1, VA('u16_to_f32', [], ['{d}', '{s0}.swz=h00'])),
    alu('u16hi_to_f32', 1, VA('u16_to_f32', [], ['{d}', '{s0}.swz=h11'])),
    # x & 0xffff on the CVT unit (pan_va_legalize.c; lshift_and is SFU)
    alu('u16lo_to_u32', 1, VA('u16_to_u32', [], ['{d}', '{s0}.swz=h00'])),
    Op('ld_var_special', 1, mods=['imm'],
       va=VA('ld_var_special', ['vecsize=none', 'regfmt=f32',
                                'sample=center', 'update=clobber',
                                'slot=slot0', 'flow=wait0'],
              ['{sr}', '{s0}', 'index:{imm}'])),
    # gl_PointCoord (x, y): special varying 0, two words.
    Op('ld_var_point', 1, dest_comps=2,
       va=VA('ld_var_special', ['vecsize=v2', 'regfmt=f32',
                                'sample=center', 'update=clobber',
                                'slot=slot0', 'flow=wait0'],
              ['{sr}', '{s0}', 'index:#0'])),
    # Alpha test: s0 coverage (r60), s1 alpha, s2 the atest datum.
    Op('atest', 3, side_effects=True,
       va=VA('atest', ['flow=wait'], ['{sr}', '{s0}', '{s1}', '{s2}'])),
    Op('blend', 4, dest=False, mods=['type', 'imm'], side_effects=True,
       doc='s0 colour (4 words of the type), s1 blend descriptor, s2 '
           'coverage, s3 the second colour of dual-source blending (s0 '
           'again without), which only a blend shader reads; imm the '
           'render target, bit 8 set on the last one, bit 9 in a blend '
           'shader.  Emitted as BLEND and the blend-shader call sequence, '
           'or in a blend shader as BLEND and the return'),
    # Blend shaders' destination: s0 the pixel indices (sample in bits
    # 0-7, render target in 8-15), s1 the coverage, s2 the internal
    # conversion descriptor; four words of the type.
    Op('ld_tile', 3, dest_comps=4, mods=['type'],
       va=VA('ld_tile', ['vecsize=v4', 'regfmt={regfmt}', 'slot=slot0',
                         'flow=wait0'],
              ['{sr}', '{s0}', '{s1}', '{s2}'])),
    # Bifrost blend shaders (pan_bi_blend.c): after their BLEND, back to
    # the caller at the clause address in s0 (r48, which the caller's
    # BLEND wrote).
    Op('blend_return', 1, dest=False, side_effects=True),
    # Depth output: s0 depth, s1 stencil (unused), s2 coverage; the
    # result is the updated coverage.
    Op('zs_emit', 3, side_effects=True,
       va=VA('zs_emit', ['z=1', 'stencil=0', 'slot=slot0', 'flow=wait'],
              ['{sr}', '{s0}', '{s1}', '{s2}'])),
    # The same with the stencil reference (s1, low byte) alone and both.
    Op('zs_emit_s', 3, side_effects=True,
       va=VA('zs_emit', ['z=0', 'stencil=1', 'slot=slot0', 'flow=wait'],
              ['{sr}', '{s0}', '{s1}', '{s2}'])),
    Op('zs_emit_zs', 3, side_effects=True,
       va=VA('zs_emit', ['z=1', 'stencil=1', 'slot=slot0', 'flow=wait'],
              ['{sr}', '{s0}', '{s1}', '{s2}'])),
    falu('discard', 2, VA('discard.f32', ['cmp={cmp}'], ['{s0}', '{s1}']),
         dest=False, mods=['cmp'], side_effects=True,
         doc='ends the lanes where s0 cmp s1'),

    # Textures: s0 the staging vector (coordinates, array index, shadow
    # reference, LOD, packed in that order), s1 the 64-bit image operand
    # (word 0 the texture and sampler word, word 1 zero); imm holds the
    # dimension, LOD mode and flags (PAN_IR_TEX_* in pan_ir.h).
    Op('tex', 2, dest_comps=4, mods=['type', 'imm'],
       va=VA('tex_single', ['slot=slot0', 'regtype={regtype}',
                            'regwidth=r32', 'dim={dim}',
                            'array_enable={array}', 'shadow={shadow}',
                            'texel_offset={texoff}', 'lod={lod}',
                            'flow=wait0'],
              ['{sr}', '{ssr0}', '{s1}'])),
    Op('tex_fetch', 2, dest_comps=4, mods=['type', 'imm'],
       va=VA('tex_fetch', ['slot=slot0', 'regtype={regtype}',
                           'regwidth=r32', 'dim={dim}',
                           'array_enable={array}',
                           'texel_offset={texoff}', 'flow=wait0'],
              ['{sr}', '{ssr0}', '{s1}'])),
    # The 2x2 footprint's component PAN_IR_TEX_GATHER_COMP(imm), in the
    # hardware's raster order (pan_ir_from_nir_tex.c reorders it for GL).
    Op('tex_gather', 2, dest_comps=4, mods=['type', 'imm'],
       va=VA('tex_gather', ['slot=slot0', 'regtype={regtype}',
                            'regwidth=r32', 'dim={dim}',
                            'array_enable={array}', 'shadow={shadow}',
                            'texel_offset={texoff}', 'gather={gather}',
                            'flow=wait0'],
              ['{sr}', '{ssr0}', '{s1}'])),

    # GLSL images (pan_ir_from_nir_image.c): s0 holds x (bits 0-15) and
    # y (bits 16-31), s1 the slice of a 3D image or the layer of an array
    # (cube faces count as layers), imm the image, entry imm of resource
    # table 5 on Valhall, whose LD_TEX/LEA_TEX take the slice in the high
    # half of s1 (pan_va_lower_image.c moves it there).  image_load gives
    # the texel converted to the type; image_lea its address (words 0, 1)
    # and conversion word (word 2), for st_cvt and the atomics.
    Op('image_load', 2, dest_comps=None, mods=['type', 'imm'],
       va=VA('ld_tex_imm', ['vecsize={vecsize}', 'regfmt={regfmt}',
                            'slot=slot0', 'flow=wait0'],
              ['{sr}', '{s0}', '{s1}', 'index:{imm}', 'table:#5'])),
    Op('image_lea', 2, dest_comps=3, mods=['imm'],
       va=VA('lea_tex_imm', ['slot=slot0', 'flow=wait0'],
              ['{sr}', '{s0}', '{s1}', 'table:#5', 'index:{imm}'])),
    # The same with the image chosen at run time: s2 the index (Bifrost's
    # attribute index; pan_va_lower_image.c makes it the resource handle,
    # table 5 in the top byte, on Valhall).
    Op('image_load_idx', 3, dest_comps=None, mods=['type'],
       va=VA('ld_tex', ['vecsize={vecsize}', 'regfmt={regfmt}', 'slot=slot0',
                        'flow=wait0'],
              ['{sr}', '{s0}', '{s1}', '{s2}'])),
    Op('image_lea_idx', 3, dest_comps=3,
       va=VA('lea_tex', ['slot=slot0', 'flow=wait0'],
              ['{sr}', '{s0}', '{s1}', '{s2}'])),
    # s0 data (1-4 words), s1 address (2 words), s2 conversion word: a
    # store converted as the word says (image stores, Bifrost varyings).
    Op('st_cvt', 3, dest=False, side_effects=True,
       va=VA('st_cvt', ['vecsize={vecsize}', 'regfmt=auto', 'slot=slot0'],
              ['{ssr0}', '{s1}', '{s2}', 'offset:#0'])),

    # Flow control
    Op('branchz', 1, dest=False, mods=['on_zero', 'target'],
       terminator=True, side_effects=True,
       va=VA('branchz', ['eq={eq}', 'flow=reconverge'],
              ['{s0}', 'offset:{offset}']),
       doc='taken when s0 is nonzero (zero with on_zero)'),
    Op('jump', 0, dest=False, mods=['target'], terminator=True,
       side_effects=True,
       va=VA('branchz', ['flow=reconverge'],
              ['#0xffffffff', 'offset:{offset}'])),
]

# Ops of the Bifrost back end alone (pan_bi_lower_gfx.c makes them).
OPS += [
    # s0 vertex id, s1 instance id; imm the varying slot.  The address
    # (words 0, 1) and conversion word (word 2) of the vertex's slot, for
    # registers of the type (U32: an integer varying's record).
    Op('lea_attr', 2, dest_comps=3, mods=['type', 'imm']),
    # The same for a slot past LEA_ATTR_IMM's four bits: s2 the slot.
    Op('lea_attr_far', 3, dest_comps=3, mods=['type']),
    # 2D float texture of coordinates s0, s1: imm the texture (bits 0-7),
    # the sampler (8-15) and bit 16 for LOD zero (else computed).
    Op('texs_2d', 2, dest_comps=4, mods=['imm']),
    # TEXC: s0, s1 the x and y coordinates, then the staging words the
    # texture operation descriptor (imm) asks for, in Bifrost's order
    # (pan_bi_lower_gfx.c); the emitter moves them into the result's
    # registers, which TEXC reads and overwrites.
    Op('texc', None, dest_comps=4, mods=['imm']),
    # Two 2D float textures of coordinates s0, s1 in one TEXC message
    # (pan_bi_dual_tex.c): imm the dual descriptor but for the second
    # result's register, which emission fills in; words 0-3 the first
    # result, 4-7 the second.
    Op('texc_dual', 2, dest_comps=8, mods=['imm']),
    # clper_quad on v6 (G72): its only CLPER form, with the inactive
    # result, subgroup and lane operation clper_quad asks for fixed.
    Op('clper_old', 2, doc='s0 read from the lane s1 of its quad (v6)'),
    # Clamped results (pan_bi_opt_fold.c): _sat to [0, 1], _pos to
    # [0, +inf), the clamp modifier of the FMA unit's arithmetic.
    Op('fadd_sat', 2, float_srcs=True, doc='s0 + s1 clamped to [0, 1]'),
    Op('fadd_pos', 2, float_srcs=True, doc='max(s0 + s1, 0)'),
    Op('fma_pos', 3, float_srcs=True, doc='max(s0 * s1 + s2, 0)'),
    # A comparison as 1.0 / 0.0 (pan_bi_opt_fold.c): fcmp then b2f in one.
    Op('fcmp_f1', 2, float_srcs=True, mods=['cmp'],
       doc='1.0 where s0 cmp s1, else 0.0'),
    # Atomics (pan_bi_lower_atomic.c), operands as atomic_return's: the
    # destination is the staging vector, the operands are moved into its
    # words before the message.  atom_c_return leaves two words that
    # atom_post (imm the same operation) turns into the value before;
    # acmpxchg: s0 the new value, s1 the comparand, s2 the address, the
    # value before in word 0.
    Op('atom_c_return', 2, dest_comps=2, mods=['imm'], side_effects=True),
    Op('atom_post', 2, mods=['imm']),
    Op('axchg', 2, side_effects=True),
    Op('acmpxchg', 3, dest_comps=2, side_effects=True),
]

# The Bifrost forms (pan_bi_emit.c), by IR op.  Comparisons reach these
# forms canonical (pan_bi_legalize.c): lt/le swap their operands into
# gt/ge and a csel on ne swaps its results into eq.
S0 = ['{s0}']
S01 = ['{s0}', '{s1}']
S012 = ['{s0}', '{s1}', '{s2}']
# Bifrost shifts take the amount last: (s0 << s2) | s1 on the hardware.
BI_SHIFT = ['{s0}', '{s2}', '{s1}']
BI_FORMS = {
    'mov': [BI('mov.i32', 'add', [], S0)],
    'preload': [BI('mov.i32', 'add', [], ['r{imm}'])],
    'iadd_imm': [BI('iadd.u32', 'add', [], ['{s0}', '{imm}'])],
    'iadd': [BI('iadd.u32', 'add', [], S01)],
    'isub': [BI('isub.u32', 'add', [], S01)],
    'imul': [BI('imul.i32', 'fma', [], S01)],
    'lshift_or': [BI('lshift_or.i32', 'fma', [], BI_SHIFT)],
    'lshift_and': [BI('lshift_and.i32', 'fma', [], BI_SHIFT)],
    'lshift_xor': [BI('lshift_xor.i32', 'fma', [], BI_SHIFT)],
    # an arithmetic shift has no logic operand: legalization checks s2 is 0
    'rshift_or': [BI('arshift.i32', 'fma', [], S01, when='type=s32'),
                  BI('rshift_or.i32', 'fma', [], BI_SHIFT)],
    'icmp': [BI('icmp.i32', 'add', ['cmpf={cmp}'], S01, when='cmp=eq,ne'),
             BI('icmp.s32', 'add', ['cmpf={cmp}'], S01, when='type=s32'),
             BI('icmp.u32', 'add', ['cmpf={cmp}'], S01)],
    'fcmp': [BI('fcmp.f32', 'fma', ['cmpf={cmp}'], S01)],
    'fcmp_f1': [BI('fcmp.f32', 'fma', ['cmpf={cmp}', 'result_type=f1'], S01)],
    'csel': [BI('csel.f32', 'fma', ['cmpf={cmp}'], S012 + ['{s3}'],
                when='type=f32'),
             BI('csel.i32', 'fma', ['cmpf=eq'], S012 + ['{s3}'],
                when='cmp=eq'),
             BI('csel.s32', 'fma', ['cmpf={cmp}'], S012 + ['{s3}'],
                when='type=s32'),
             BI('csel.u32', 'fma', ['cmpf={cmp}'], S012 + ['{s3}'])],
    'fadd': [BI('fadd.f32', 'fma', [], S01)],
    # the FMA unit negates the product, not its factors
    'fma': [BI('fma.f32', 'fma', [],
               ['{s0}.neg=d17', '{s1}.neg=d17', '{s2}'])],
    'fma_sat': [BI('fma.f32', 'fma', ['clamp=clamp_0_1'],
                   ['{s0}.neg=d17', '{s1}.neg=d17', '{s2}'])],
    'fadd_sat': [BI('fadd.f32', 'fma', ['clamp=clamp_0_1'], S01)],
    'fadd_pos': [BI('fadd.f32', 'fma', ['clamp=clamp_0_inf'], S01)],
    'fma_pos': [BI('fma.f32', 'fma', ['clamp=clamp_0_inf'],
                   ['{s0}.neg=d17', '{s1}.neg=d17', '{s2}'])],
    'fmin': [BI('fmin.f32', 'add', [], S01)],
    'fmax': [BI('fmax.f32', 'add', [], S01)],
    'frcp': [BI('frcp.f32', 'add', ['widen0=none'], S0)],
    'frsq': [BI('frsq.f32', 'add', ['widen0=none'], S0)],
    'ffloor': [BI('fround.f32', 'add', ['round=rtn'], S0)],
    'fceil': [BI('fround.f32', 'add', ['round=rtp'], S0)],
    'ftrunc': [BI('fround.f32', 'add', ['round=rtz'], S0)],
    'fround_even': [BI('fround.f32', 'add', ['round=none'], S0)],
    'f2s32': [BI('f32_to_s32', 'add', ['round=rtz'], S0)],
    'f2u32': [BI('f32_to_u32', 'add', ['round=rtz'], S0)],
    's2f32': [BI('s32_to_f32', 'add', ['round=none'], S0)],
    'u2f32': [BI('u32_to_f32', 'add', ['round=none'], S0)],
    'u16lo_to_f32': [BI('u16_to_f32', 'add', ['lane0=h0'], S0)],
    'u16hi_to_f32': [BI('u16_to_f32', 'add', ['lane0=h1'], S0)],
    # Memory: the address is two 32-bit sources, the data the clause's
    # staging registers; the offset is added beforehand.
    'load_global': [BI('load.{bits}', 'add', ['seg=none'],
                       ['{s0.0}', '{s0.1}'], staging='d', msg='load')],
    'store_global': [BI('store.{bits}', 'add', ['seg=none'],
                        ['{s1.0}', '{s1.1}'], staging='s0', msg='store')],
    'discard': [BI('discard.f32', 'add', ['cmpf={cmp}'], S01)],
    'clper_quad': [BI('clper.i32', 'add', ['lane_op=none', 'subgroup=subgroup4',
                                           'inactive_result=zero'], S01)],
    'clper_old': [BI('clper_old.i32', 'add', [], S01)],
    'mux_bit': [BI('mux.i32', 'add', ['mux=bit'], S012)],
    # Cube maps: +CUBEFACE2 reads the *CUBEFACE1 of its own tuple through
    # t; pan_bi_schedule.c emits the pair for each cubeface2.
    'cubeface1': [BI('cubeface1', 'fma', [], S012)],
    'cubeface2': [BI('cubeface2', 'add', [], S0)],
    'cube_ssel': [BI('cube_ssel', 'add', [], S012)],
    'cube_tsel': [BI('cube_tsel', 'add', [], S012)],
    # Steps of the transcendental sequences; frexpe.f32#1 is the encoding
    # without the sqrt field, the one splitting for log2.
    'frexpe_log': [BI('frexpe.f32#1', 'add', [], S0)],
    'fadd_lscale': [BI('fadd_lscale.f32', 'fma', [], S01)],
    'flogd': [BI('flogd.f32', 'add', [], S0)],
    'fma_rscale': [BI('fma_rscale.f32', 'fma', [],
                      ['{s0}.neg=d16', '{s1}.neg=d16', '{s2}', '{s3}'])],
    'f2s32_rte': [BI('f32_to_s32', 'add', ['round=none'], S0)],
    'fexp': [BI('fexp.f32', 'add', [], S01)],
    'fsin_table': [BI('fsin_table.u6', 'add', [], S0)],
    'fcos_table': [BI('fcos_table.u6', 'add', [], S0)],
    'texs_2d': [BI('texs_2d.f32', 'add', ['lod_mode={lod}'], S01,
                   staging='d', msg='tex',
                   imm_field='texture_index:0,sampler_index:8')],
    'texc': [BI('texc', 'add', [], ['{s0}', '{s1}', '{imm}'], staging='d',
                msg='tex')],
    'texc_dual': [BI('texc', 'add', [], ['{s0}', '{s1}', '{imm}'],
                     staging='d', msg='tex')],
    'ld_ubo': [BI('load.{bits}', 'add', ['seg=ubo'], S01, staging='d',
                  msg='load')],
    # Graphics (pan_bi_lower_gfx.c gives the v7 preloads and indices)
    'ld_attr': [BI('ld_attr_imm', 'add',
                   ['vecsize={vecsize}', 'register_format={regfmt}'], S01,
                   staging='d', msg='attribute',
                   imm_field='attribute_index')],
    'lea_attr': [BI('lea_attr_imm', 'add', ['register_format={regfmt}'],
                    S01, staging='d', msg='attribute',
                    imm_field='attribute_index')],
    'lea_attr_far': [BI('lea_attr', 'add', ['register_format={regfmt}'],
                        S012, staging='d', msg='attribute')],
    # Images (pan_ir_from_nir_image.c): entry imm of the job's attribute
    # table.  LD_ATTR_TEX reads that (primary) table by default;
    # LEA_ATTR_TEX the secondary one, so pan_bi_schedule.c puts a
    # *DTSEL_IMM.attribute_1 of the index beside it, whose result it reads
    # through t (the {imm} here).
    'image_load': [BI('ld_attr_tex', 'add',
                      ['vecsize={vecsize}', 'register_format={regfmt}'],
                      ['{s0}', '{s1}', '{imm}'], staging='d',
                      msg='attribute')],
    'image_lea': [BI('lea_attr_tex', 'add', [], ['{s0}', '{s1}', '{imm}'],
                     staging='d', msg='attribute')],
    'image_load_idx': [BI('ld_attr_tex', 'add',
                          ['vecsize={vecsize}', 'register_format={regfmt}'],
                          ['{s0}', '{s1}', '{s2}'], staging='d',
                          msg='attribute')],
    'image_lea_idx': [BI('lea_attr_tex', 'add', [], ['{s0}', '{s1}', '{s2}'],
                         staging='d', msg='attribute')],
    'st_cvt': [BI('st_cvt', 'add', ['vecsize={vecsize}'],
                  ['{s1.0}', '{s1.1}', '{s2}'], staging='s0',
                  msg='store')],
    'ld_var': [BI('ld_var_imm', 'add',
                  ['vecsize={vecsize}', 'register_format=f32'], S0,
                  staging='d', msg='varying', imm_field='index')],
    'ld_var_flat': [BI('ld_var_flat_imm', 'add', ['vecsize={vecsize}'], [],
                       staging='d', msg='varying', imm_field='index')],
    # Slots from 24 on (pan_bi_lower_gfx.c): s1 holds the slot.
    'ld_var_far': [BI('ld_var', 'add',
                      ['vecsize={vecsize}', 'register_format=f32'], S01,
                      staging='d', msg='varying')],
    'ld_var_flat_far': [BI('ld_var_flat', 'add', ['vecsize={vecsize}'],
                           ['{s1}'], staging='d', msg='varying')],
    # imm: the varying name (d3: 2 fragment 1/w, 3 fragment z) and the
    # sample and update mode (d10, pan_bi_lower_gfx.c: center, clobber).
    # gl_PointCoord: varying name 0 (point); pan_bi_lower_gfx.c gives the
    # imm as for ld_var_special.
    'ld_var_point': [BI('ld_var_special', 'add', ['register_format=f32'],
                        S0, staging='d', msg='varying',
                        imm_field='d3:0,d10:8')],
    'ld_var_special': [BI('ld_var_special', 'add', ['register_format=f32'],
                          S0, staging='d', msg='varying',
                          imm_field='d3:0,d10:8')],
    # Depth only (d9 = 2); the result is the updated coverage.
    'zs_emit': [BI('zs_emit', 'add', [], S012, staging='d', msg='z_stencil',
                   imm_field='d9')],
    # d9: 1 stencil alone, 3 both.
    'zs_emit_s': [BI('zs_emit', 'add', [], S012, staging='d',
                     msg='z_stencil', imm_field='d9')],
    'zs_emit_zs': [BI('zs_emit', 'add', [], S012, staging='d',
                      msg='z_stencil', imm_field='d9')],
    'atest': [BI('atest', 'add', [], S01, staging='d', msg='atest',
                 fau_src=2)],
    'blend': [BI('blend', 'add', [], ['{s2}', '{s1.0}', '{s1.1}'],
                 staging='s0', msg='blend')],
    # Blend shaders: the register format is the conversion's (s2).
    'ld_tile': [BI('ld_tile', 'add', ['vecsize=v4'], S012, staging='d',
                   msg='tile')],
    'blend_return': [BI('jump', 'add', [], S0)],
    # Atomics: *ATOM_C and +ATOM_CX share a tuple (pan_bi_schedule.c
    # emits the pair); the FMA half reads the address and the operand
    # (the first staging register), the ADD half is the message.
    'atomic': [BI('atom_c.i32', 'fma', ['atom_opc={atom}'],
                  ['{s1.0}', '{s1.1}', '{s0}'], staging='s0', msg='atomic')],
    'atom_c_return': [BI('atom_c_return.i32', 'fma', ['atom_opc={atom}'],
                         ['{s1.0}', '{s1.1}'], staging='d', msg='atomic')],
    'atom_post': [BI('atom_post.i32', 'fma', ['atom_opc={atom}'], S01)],
    'axchg': [BI('axchg.i32', 'add', ['seg=none'], ['{s1.0}', '{s1.1}'],
                 staging='d', msg='atomic')],
    'acmpxchg': [BI('acmpxchg.i32', 'add', ['seg=none'],
                    ['{s2.0}', '{s2.1}'], staging='d', msg='atomic')],
    'branchz': [BI('branchz.i32', 'add', ['cmpf={eq}'], ['{s0}', '{offset}'])],
    'jump': [BI('jump', 'add', [], ['{offset}'])],
}
# Shared memory and workgroup barriers (pan_ir_from_nir_shared.c).  s0 of
# load_shared and s1 of store_shared (s0 the data) are the byte offset in
# the workgroup's shared memory; the source after it is zero, the high
# word of the wls segment's address on Bifrost.  Valhall has no segments:
# pan_va_lower_shared.c adds the offset to the workgroup-local pointer and
# makes them global loads and stores.
OPS += [
    Op('load_shared', 2, dest_comps=None,
       doc='words at byte offset s0 of shared memory (s1 zero)'),
    Op('store_shared', 3, dest=False, side_effects=True,
       doc='s0 to byte offset s1 of shared memory (s2 zero)'),
    # Every invocation of the workgroup gets here before any goes on, and
    # sees the shared memory the others wrote before it.  Slot 7 is the
    # barrier's own; the emitter puts a nop.wait0 in front (stores still
    # in flight on slot 0 must land first).
    Op('barrier', 0, dest=False, side_effects=True,
       va=VA('barrier', ['slot=slot7', 'flow=wait'], [])),
    # The 64-bit address of shared memory at a byte offset (atomics take
    # addresses): word 0 from the offset s0, word 1 from zero (s0).
    # Bifrost: SEG_ADD.wls of each word (FMA the low, ADD the high one);
    # Valhall adds the workgroup-local pointer's words.
    Op('wls_addr_lo', 1, doc='low word of the shared address of offset s0'),
    Op('wls_addr_hi', 1, doc='high word of the shared address (s0 zero)'),
]
BI_FORMS.update({
    'load_shared': [BI('load.{bits}', 'add', ['seg=wls'], S01, staging='d',
                       msg='load')],
    'store_shared': [BI('store.{bits}', 'add', ['seg=wls'],
                        ['{s1}', '{s2}'], staging='s0', msg='store')],
    # A clause of its own message type; pan_bi_schedule.c gives it slot 7
    # and makes the next clause wait on it.
    'barrier': [BI('barrier', 'add', [], [], msg='barrier')],
    'wls_addr_lo': [BI('seg_add', 'fma', ['seg=wls'], S0)],
    'wls_addr_hi': [BI('seg_add', 'add', ['seg=wls'], S0)],
    # Spills (pan_bi_spill.c): the tl segment's address is the byte offset
    # (imm) and a zero high word (s0 of tls_load, s1 of tls_store).
    'tls_load': [BI('load.{bits}', 'add', ['seg=tl'], ['{imm}', '{s0}'],
                    staging='d', msg='load')],
    'tls_store': [BI('store.{bits}', 'add', ['seg=tl'], ['{imm}', '{s1}'],
                     staging='s0', msg='store')],
    'scratch_load': [BI('load.{bits}', 'add', ['seg=tl'],
                        ['{s0.0}', '{s0.1}'], staging='d', msg='load')],
    'scratch_store': [BI('store.{bits}', 'add', ['seg=tl'],
                         ['{s1.0}', '{s1.1}'], staging='s0', msg='store')],
})

for _op in OPS:
    _op.bi = BI_FORMS.get(_op.name, [])
assert all(n in [o.name for o in OPS] for n in BI_FORMS)

HEADER = Template(r"""/* Generated by pan_ir_opcodes.py, do not edit. */

#ifndef PAN_IR_OPCODES_H
#define PAN_IR_OPCODES_H

#include <stdbool.h>
#include <stdint.h>

enum pan_ir_op {
% for op in ops:
   PAN_IR_OP_${op.name.upper()},
% endfor
   PAN_IR_NR_OPS
};

enum pan_ir_type {
% for t in types:
   PAN_IR_TYPE_${t.upper()},
% endfor
};

enum pan_ir_cmp {
% for c in cmps:
   PAN_IR_CMP_${c.upper()},
% endfor
};

/* The operation of an atomic (imm of atomic, atomic_return...). */
enum pan_ir_atomic {
% for name, _ in atomics:
   PAN_IR_ATOMIC_${name.upper()},
% endfor
   PAN_IR_NR_ATOMICS
};

/* The atomics with an implied operand (imm of atomic1_return). */
enum pan_ir_atomic1 {
% for name, _ in atomics1:
   PAN_IR_ATOMIC1_${name.upper()},
% endfor
   PAN_IR_NR_ATOMICS1
};

/* Modifiers an opcode uses (pan_ir_op_info.mods). */
% for i, m in enumerate(mods):
#define PAN_IR_MOD_${m.upper()} (1u << ${i})
% endfor

/* Arguments of a Valhall form (pan_ir_opcodes.py, VA). */
enum pan_ir_va_arg {
% for a in va_args:
   PAN_IR_VA_${a.upper()},
% endfor
};

struct pan_ir_va_arg_desc {
   uint8_t kind;       /* enum pan_ir_va_arg */
   uint32_t value;     /* PAN_IR_VA_LUT: the constant */
   const char *field;  /* optional source modifier field... */
   const char *mod;    /* ...and its value */
};

struct pan_ir_va_form {
   const char *name; /* may hold {type} or {bits} */
   uint8_t nr_mods, nr_args;
   const char *mods[10][2]; /* field, value (may be {cmp}, {eq}, {signed}) */
   struct pan_ir_va_arg_desc args[6];
};

/* Arguments of a Bifrost form (pan_ir_opcodes.py, BI). */
enum pan_ir_bi_arg {
% for a in bi_args:
   PAN_IR_BI_${a.upper()},
% endfor
};

struct pan_ir_bi_form {
   const char *name; /* may hold {bits} */
   uint8_t unit;     /* 0 FMA, 1 ADD */
   uint8_t types;    /* 1 << enum pan_ir_type it applies to; 0: any */
   uint8_t cmps;     /* 1 << enum pan_ir_cmp; 0: any */
   uint8_t staging;  /* 0 none, 1 the destination, 2 source 0 */
   const char *msg;  /* clause message type */
   const char *imm_field; /* immediate field set to imm, or NULL */
   uint8_t fau_src;       /* source read as the tuple's FAU, or 0xff */
   uint8_t nr_mods, nr_args;
   const char *mods[4][2];
   struct {
      uint8_t kind, src, word; /* enum pan_ir_bi_arg */
      const char *neg;         /* field a negated source toggles, or NULL */
   } args[4];
};

/* Operand count meaning "any number". */
#define PAN_IR_VARIABLE 0xff

struct pan_ir_op_info {
   const char *name;
   uint8_t nr_srcs;    /* or PAN_IR_VARIABLE */
   uint8_t dest_comps; /* 0: no destination; PAN_IR_VARIABLE: any */
   uint8_t mods;       /* PAN_IR_MOD_* */
   bool float_srcs;    /* sources take neg/abs */
   bool terminator, side_effects;
   /* Valhall form, NULL when lowered first; va is its text. */
   const struct pan_ir_va_form *va_form;
   const char *va;
   /* Bifrost forms, first match wins; bi is the first one's text. */
   const struct pan_ir_bi_form *bi_forms;
   uint8_t nr_bi_forms;
   const char *bi;
};

extern const struct pan_ir_op_info pan_ir_op_infos[PAN_IR_NR_OPS];
extern const char *const pan_ir_type_names[];
extern const char *const pan_ir_cmp_names[];
/* The ISA name of each enum pan_ir_atomic ("aadd"...). */
extern const char *const pan_ir_atomic_names[PAN_IR_NR_ATOMICS];
extern const char *const pan_ir_atomic1_names[PAN_IR_NR_ATOMICS1];

#endif
""")

CODE = Template(r"""/* Generated by pan_ir_opcodes.py, do not edit. */

#include <stddef.h>

#include "pan_ir_opcodes.h"

% for op in ops:
% if op.va:
static const struct pan_ir_va_form va_${op.name} = {
   .name = "${op.va.name}",
   .nr_mods = ${len(op.va.mods)}, .nr_args = ${len(op.va.args)},
   .mods = { ${', '.join('{ "%s", "%s" }' % (f, v) for f, v in op.va.mods) or '{ NULL, NULL }'} },
   .args = {
% for kind, value, mod, _ in op.va.args:
      { PAN_IR_VA_${kind.upper()}, ${value}u, ${'"%s"' % mod[0] if mod else 'NULL'}, ${'"%s"' % mod[1] if mod else 'NULL'} },
% endfor
   },
};
% endif
% endfor

% for op in ops:
% if op.bi:
static const struct pan_ir_bi_form bi_${op.name}[] = {
% for f in op.bi:
   {
      .name = "${f.name}", .unit = ${1 if f.unit == 'add' else 0},
      .types = ${' | '.join('(1u << %d)' % types.index(t) for t in f.types) or '0'},
      .cmps = ${' | '.join('(1u << %d)' % cmps.index(c) for c in f.cmps) or '0'},
      .staging = ${{None: 0, 'd': 1, 's0': 2}[f.staging]}, .msg = "${f.msg}",
      .imm_field = ${'"%s"' % f.imm_field if f.imm_field else 'NULL'},
      .fau_src = ${0xff if f.fau_src is None else f.fau_src},
      .nr_mods = ${len(f.mods)}, .nr_args = ${len(f.args)},
      .mods = { ${', '.join('{ "%s", "%s" }' % (a, v) for a, v in f.mods) or '{ NULL, NULL }'} },
      .args = {
% for kind, src, word, neg in f.args:
         { PAN_IR_BI_${kind.upper()}, ${src}, ${word}, ${'"%s"' % neg if neg else 'NULL'} },
% endfor
      },
   },
% endfor
};
% endif
% endfor

<%def name="modmask(op)">${' | '.join('PAN_IR_MOD_' + m.upper() for m in op.mods) or '0'}</%def>
const struct pan_ir_op_info pan_ir_op_infos[PAN_IR_NR_OPS] = {
% for op in ops:
   [PAN_IR_OP_${op.name.upper()}] = {
      .name = "${op.name}",
      .nr_srcs = ${'PAN_IR_VARIABLE' if op.srcs is None else op.srcs},
      .dest_comps = ${0 if not op.dest else ('PAN_IR_VARIABLE' if op.dest_comps is None else op.dest_comps)},
      .mods = ${modmask(op)},
      .float_srcs = ${'true' if op.float_srcs else 'false'},
      .terminator = ${'true' if op.terminator else 'false'},
      .side_effects = ${'true' if op.side_effects else 'false'},
      .va_form = ${'&va_' + op.name if op.va else 'NULL'},
      .va = ${'"' + op.va.text() + '"' if op.va else 'NULL'},
      .bi_forms = ${'bi_' + op.name if op.bi else 'NULL'},
      .nr_bi_forms = ${len(op.bi)},
      .bi = ${'"' + op.bi[0].text() + '"' if op.bi else 'NULL'},
   },
% endfor
};

const char *const pan_ir_type_names[] = {
% for t in types:
   "${t}",
% endfor
};

const char *const pan_ir_cmp_names[] = {
% for c in cmps:
   "${c}",
% endfor
};

const char *const pan_ir_atomic_names[PAN_IR_NR_ATOMICS] = {
% for _, isa in atomics:
   "${isa}",
% endfor
};

const char *const pan_ir_atomic1_names[PAN_IR_NR_ATOMICS1] = {
% for _, isa in atomics1:
   "${isa}",
% endfor
};
""")

BUILDER = Template(r"""/* Generated by pan_ir_opcodes.py, do not edit. */

#ifndef PAN_IR_BUILDER_H
#define PAN_IR_BUILDER_H

#include "pan_ir.h"

<%
def params(op):
    p = ['pan_ir_builder *b']
    if op.dest and op.dest_comps is None and op.srcs is not None:
        p.append('unsigned comps')
    for m in op.mods:
        p.append({'type': 'enum pan_ir_type type',
                  'cmp': 'enum pan_ir_cmp cmp',
                  'imm': 'uint32_t imm',
                  'on_zero': 'bool on_zero',
                  'target': 'pan_ir_block *target'}[m])
    if op.srcs is None:
        p += ['unsigned nr_srcs', 'const pan_ir_index *srcs']
    else:
        p += ['pan_ir_index s%d' % i for i in range(op.srcs)]
    return ', '.join(p)
%>
% for op in ops:
static inline ${'pan_ir_index' if op.dest else 'pan_ir_instr *'}
pan_ir_${op.name}(${params(op)})
{
% if op.srcs is None:
   pan_ir_instr *I = pan_ir_build(b, PAN_IR_OP_${op.name.upper()}, nr_srcs);
   for (unsigned i = 0; i < nr_srcs; ++i)
      I->src[i] = srcs[i];
% else:
   pan_ir_instr *I = pan_ir_build(b, PAN_IR_OP_${op.name.upper()}, ${op.srcs});
%  for i in range(op.srcs):
   I->src[${i}] = s${i};
%  endfor
% endif
% for m in op.mods:
   I->${m} = ${m};
% endfor
% if op.dest:
<%
   if op.dest_comps is not None:
       comps = str(op.dest_comps)
   elif op.srcs is None:
       comps = 'nr_srcs'
   else:
       comps = 'comps'
   if op.name == 'phi':
       comps = '(nr_srcs ? srcs[0].comps : 1)'
%>
   I->dest = pan_ir_new_value(b->shader, ${comps});
   return I->dest;
% else:
   return I;
% endif
}

% endfor
#endif
""")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--header')
    ap.add_argument('--code')
    ap.add_argument('--builder')
    args = ap.parse_args()
    env = dict(ops=OPS, types=TYPES, cmps=CMPS, mods=MODS, va_args=VA_ARGS,
               bi_args=BI_ARGS, atomics=ATOMICS, atomics1=ATOMICS1)
    for path, tmpl in ((args.header, HEADER), (args.code, CODE),
                       (args.builder, BUILDER)):
        if path:
            with open(path, 'w') as f:
                f.write(tmpl.render(**env))


if __name__ == '__main__':
    main()
