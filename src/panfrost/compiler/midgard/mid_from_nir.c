/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * NIR (out of SSA, vectors lowered to masked moves) -> Midgard IR.  Each
 * NIR SSA value and register is one vec4 variable; ALU instructions keep
 * their vector width, swizzles and write masks.  Constants and pushed
 * uniforms are folded into the ALU sources that read them and only
 * materialised for other users.
 */

#include <math.h>
#include <string.h>

#include "isa/pan_isa_mid.h"
#include "util/ralloc.h"
#include "util/u_math.h"

#include "mid_ir.h"

enum {
   F_INT = 1 << 0,  /* integer result: keep the low bits (omod keeplo) */
   F_SWAP = 1 << 1, /* operands reversed (a >= b is b <= a) */
   F_MOV = 1 << 2,  /* one operand, read from the second source */
   F_ONE = 1 << 3,  /* one operand in the first source; second unused */
};

#define MID_MAX_VARYINGS 32

struct alu_map {
   nir_op nop;
   const char *op;
   unsigned flags;
};

static const struct alu_map alu_table[] = {
   { nir_op_fadd, "fadd", 0 },
   { nir_op_fmul, "fmul", 0 },
   { nir_op_fmin, "fmin", 0 },
   { nir_op_fmax, "fmax", 0 },
   { nir_op_mov, "imov", F_MOV | F_INT },
   { nir_op_fneg, "fmov", F_MOV },
   { nir_op_fabs, "fmov", F_MOV },
   { nir_op_fsat, "fmov", F_MOV },
   { nir_op_ffloor, "ffloor", F_ONE },
   { nir_op_fceil, "fceil", F_ONE },
   { nir_op_ftrunc, "ftrunc", F_ONE },
   { nir_op_fround_even, "froundeven", F_ONE },
   { nir_op_frcp, "frcp", F_ONE },
   { nir_op_frsq, "frsqrt", F_ONE },
   { nir_op_fsqrt, "fsqrt", F_ONE },
   { nir_op_fexp2, "fexp2", F_ONE },
   { nir_op_flog2, "flog2", F_ONE },
   { nir_op_feq32, "feq", F_INT },
   { nir_op_fneu32, "fne", F_INT },
   { nir_op_flt32, "flt", F_INT },
   { nir_op_fge32, "fle", F_INT | F_SWAP },
   { nir_op_ieq32, "ieq", F_INT },
   { nir_op_ine32, "ine", F_INT },
   { nir_op_ilt32, "ilt", F_INT },
   { nir_op_ige32, "ile", F_INT | F_SWAP },
   { nir_op_ult32, "ult", F_INT },
   { nir_op_uge32, "ule", F_INT | F_SWAP },
   { nir_op_iadd, "iadd", F_INT },
   { nir_op_isub, "isub", F_INT },
   { nir_op_imul, "imul", F_INT },
   { nir_op_imin, "imin", F_INT },
   { nir_op_imax, "imax", F_INT },
   { nir_op_umin, "umin", F_INT },
   { nir_op_umax, "umax", F_INT },
   { nir_op_iand, "iand", F_INT },
   { nir_op_ior, "ior", F_INT },
   { nir_op_ixor, "ixor", F_INT },
   { nir_op_ishl, "ishl", F_INT },
   { nir_op_ishr, "iasr", F_INT },
   { nir_op_ushr, "ilsr", F_INT },
   { nir_op_i2f32, "i2f", F_ONE },
   { nir_op_u2f32, "u2f", F_ONE },
   { nir_op_f2i32, "f2i_rtz", F_ONE | F_INT },
   { nir_op_f2u32, "f2u_rtz", F_ONE | F_INT },
};

struct ctx {
   struct mid_shader *s;
   nir_shader *nir;
   nir_function_impl *impl;
   struct mid_block *block;
   struct mid_block **blocks; /* by NIR block index */
   unsigned reg_base;         /* variable of NIR register 0 */
   /* Per SSA index: folded constant or uniform, NULL/-1 when neither. */
   nir_load_const_instr **consts;
   int *uniform; /* push slot * 4 + first component */
   unsigned colour_var[MID_MAX_RTS]; /* by render target */
   unsigned has_colour;              /* render targets written */
   unsigned depth_var; /* gl_FragDepth, lane x */
   bool has_depth;
   /* Vertex outputs by driver location: variable, lanes written and the
    * varying slot, stored once each at the end. */
   unsigned out_var[MID_MAX_VARYINGS];
   uint8_t out_mask[MID_MAX_VARYINGS];
   gl_varying_slot out_loc[MID_MAX_VARYINGS];
   /* Lane of r27 the next indirect UBO index goes to: taken in turn, so
    * two loads can share a bundle (each reads its own lane). */
   unsigned ubo_lane;
   /* What the last index move into each lane copied, so that a later load
    * of the same block with the same index reads that lane again. */
   struct {
      struct mid_instr *move;
      struct mid_block *block;
      nir_ssa_def *def;
      unsigned comp;
   } ubo_index[4];
};

static unsigned
src_var(struct ctx *c, const nir_src *src)
{
   return src->is_ssa ? src->ssa->index : c->reg_base + src->reg.reg->index;
}

/* Variable of a NIR register (a phi web after nir_convert_from_ssa). */
static unsigned
reg_var(struct ctx *c, const nir_reg_dest *reg)
{
   return c->reg_base + reg->reg->index;
}

/* Variable an intrinsic writes: its SSA value, or the phi web's register
 * nir_convert_from_ssa may have given it instead. */
static struct mid_ref
intr_dest(struct ctx *c, const nir_intrinsic_instr *in)
{
   return mid_var(in->dest.is_ssa ? in->dest.ssa.index
                                  : reg_var(c, &in->dest.reg));
}

static struct mid_instr *
alu(struct ctx *c, const char *op, struct mid_ref dst, unsigned mask)
{
   struct mid_instr *I = mid_instr_create(c->s, c->block, MID_ALU, op);
   I->dst = dst;
   I->mask = mask;
   return I;
}

/* Source reading component swz[l] of a NIR source for each lane l. */
static struct mid_src
nir_src_to_mid(struct ctx *c, const nir_src *src, const uint8_t *swz)
{
   struct mid_src m = { 0 };
   for (unsigned l = 0; l < 4; l++)
      m.swz[l] = swz[l] & 3;

   if (src->is_ssa && c->consts[src->ssa->index]) {
      nir_load_const_instr *lc = c->consts[src->ssa->index];
      m.ref.kind = MID_REF_CONST;
      for (unsigned l = 0; l < 4; l++)
         m.imm[l] = lc->value[MIN2(swz[l], lc->def.num_components - 1)].u32;
      return m;
   }
   if (src->is_ssa && c->uniform[src->ssa->index] >= 0) {
      int u = c->uniform[src->ssa->index];
      m.ref = (struct mid_ref){ MID_REF_UNIFORM, u / 4 };
      for (unsigned l = 0; l < 4; l++)
         m.swz[l] = (u % 4) + MIN2(swz[l], 3 - u % 4);
      return m;
   }
   m.ref = mid_var(src_var(c, src));
   return m;
}

static const uint8_t identity[4] = { 0, 1, 2, 3 };

/* Variable holding a source's value, materialising constants/uniforms. */
static unsigned
src_in_var(struct ctx *c, const nir_src *src)
{
   if (src->is_ssa &&
       (c->consts[src->ssa->index] || c->uniform[src->ssa->index] >= 0)) {
      unsigned v = src->ssa->index;
      struct mid_instr *I =
         alu(c, "imov", mid_var(v), (1u << src->ssa->num_components) - 1);
      I->int_result = true;
      I->nr_srcs = 2;
      I->src[0].ref.kind = MID_REF_NONE;
      I->src[1] = nir_src_to_mid(c, src, identity);
      return v;
   }
   return src_var(c, src);
}

static bool
check_size(struct ctx *c, unsigned bits, const char *what)
{
   if (bits == 32 || bits == 1)
      return true;
   return mid_error(c->s, "%u-bit values (%s) are not supported", bits, what);
}

static struct mid_src
imm_src(uint32_t v)
{
   struct mid_src m = { .ref = { MID_REF_CONST, 0 }, .swz = { 0, 1, 2, 3 } };
   for (unsigned l = 0; l < 4; l++)
      m.imm[l] = v;
   return m;
}

/* Whether src is the constant +0.0 in every lane of mask, unmodified. */
static bool
zero_operand(const struct mid_src *src, unsigned mask)
{
   if (src->ref.kind != MID_REF_CONST || src->neg || src->abs)
      return false;
   u_foreach_bit (l, mask) {
      if (src->imm[l] != 0)
         return false;
   }
   return true;
}

/* Opcodes only the lut unit runs compute one lane per instruction (the
 * stock compiler splits them likewise): one copy of I per written lane,
 * unless every lane reads the same operand (the one result then goes to
 * all of them, as the stock code broadcasts frsqrt of a dot product). */
static void
split_lut(struct ctx *c, struct mid_instr *I)
{
   if (pan_mid_alu_op_units(I->op) != (1u << PAN_MID_LUT) ||
       util_bitcount(I->mask) < 2)
      return;
   unsigned mask = I->mask, l0 = ffs(mask) - 1;
   bool same = true;
   for (unsigned i = 0; i < I->nr_srcs; i++) {
      const struct mid_src *src = &I->src[i];
      bool k = src->ref.kind == MID_REF_CONST;
      u_foreach_bit (l, mask) {
         same &= k ? src->imm[l] == src->imm[l0]
                   : src->swz[l] == src->swz[l0];
      }
   }
   if (same)
      return;
   I->mask = 1u << (ffs(mask) - 1);
   u_foreach_bit (l, mask & ~I->mask) {
      struct mid_instr *C = alu(c, I->op, I->dst, 1u << l);
      struct list_head link = C->link;
      *C = *I;
      C->link = link;
      C->mask = 1u << l;
   }
}

/* Screen-space derivatives are texture words ("deriv", mode 0 for x, 1
 * for y) that differentiate two lanes at a time: each half of the
 * destination moves its two source components to the texture input's .xy
 * (r28), runs one word and moves the result's .xy (r28) out. */
static bool
emit_derivative(struct ctx *c, nir_op op, struct mid_ref dst, unsigned mask,
                struct mid_src src)
{
   if (c->s->stage != MESA_SHADER_FRAGMENT)
      return mid_error(c->s, "derivatives outside a fragment shader");
   bool dy = op == nir_op_fddy || op == nir_op_fddy_fine ||
             op == nir_op_fddy_coarse;
   bool mods = src.abs || src.neg;
   for (unsigned h = 0; h < 2; h++) {
      unsigned hm = (mask >> (2 * h)) & 0x3;
      if (!hm)
         continue;
      struct mid_src in = src;
      in.swz[0] = src.swz[2 * h];
      in.swz[1] = src.swz[2 * h + 1];
      in.imm[0] = src.imm[2 * h];
      in.imm[1] = src.imm[2 * h + 1];
      struct mid_instr *M =
         alu(c, mods ? "fmov" : "imov", mid_hw(c->s->tex_in), hm);
      M->int_result = !mods;
      M->nr_srcs = 2;
      M->src[1] = in;
      struct mid_instr *T = mid_instr_create(c->s, c->block, MID_TEX, "deriv");
      T->tex = (struct mid_tex){
         .dim = 2, .mode = dy, .stype = 1, .in_reg = c->s->tex_in
      };
      T->dst = mid_hw(c->s->tex_out);
      T->mask = hm;
      c->s->nr_tex++;
      struct mid_instr *O = alu(c, "imov", dst, hm << (2 * h));
      O->int_result = true;
      O->nr_srcs = 2;
      O->src[1] = mid_src_ref(mid_hw(c->s->tex_out));
      O->src[1].swz[2 * h] = 0;
      O->src[1].swz[2 * h + 1] = 1;
   }
   return true;
}

/* A b32csel operand as a source; an fneg or fabs feeding it becomes a
 * source modifier on its operand (returns true), which only the float
 * select applies. */
static bool
csel_float_operand(struct ctx *c, const nir_alu_src *as, struct mid_src *out)
{
   *out = nir_src_to_mid(c, &as->src, as->swizzle);
   nir_instr *p = as->src.is_ssa ? as->src.ssa->parent_instr : NULL;
   if (!p || p->type != nir_instr_type_alu)
      return false;
   nir_alu_instr *m = nir_instr_as_alu(p);
   if ((m->op != nir_op_fneg && m->op != nir_op_fabs) || m->dest.saturate ||
       !m->src[0].src.is_ssa || c->consts[m->src[0].src.ssa->index] ||
       c->uniform[m->src[0].src.ssa->index] >= 0)
      return false;
   uint8_t swz[4];
   for (unsigned l = 0; l < 4; l++)
      swz[l] = m->src[0].swizzle[as->swizzle[l]];
   *out = nir_src_to_mid(c, &m->src[0].src, swz);
   out->abs = m->src[0].abs || m->op == nir_op_fabs;
   out->neg = m->op == nir_op_fneg ? !m->src[0].negate : false;
   return true;
}

static bool
emit_alu(struct ctx *c, nir_alu_instr *alu_i)
{
   const nir_op_info *info = &nir_op_infos[alu_i->op];
   nir_dest *d = &alu_i->dest.dest;
   if (!d->is_ssa && (d->reg.indirect || d->reg.reg->num_array_elems))
      return mid_error(c->s, "register arrays are not supported");
   if (!check_size(c, nir_dest_bit_size(*d), info->name))
      return false;
   for (unsigned i = 0; i < info->num_inputs; i++) {
      if (!check_size(c, nir_src_bit_size(alu_i->src[i].src), info->name))
         return false;
      if (!alu_i->src[i].src.is_ssa &&
          (alu_i->src[i].src.reg.indirect ||
           alu_i->src[i].src.reg.reg->num_array_elems))
         return mid_error(c->s, "register arrays are not supported");
   }

   unsigned mask =
      d->is_ssa ? (1u << d->ssa.num_components) - 1 : alu_i->dest.write_mask;
   struct mid_ref dst =
      mid_var(d->is_ssa ? d->ssa.index : c->reg_base + d->reg.reg->index);
   struct mid_src s0 =
      info->num_inputs > 0
         ? nir_src_to_mid(c, &alu_i->src[0].src, alu_i->src[0].swizzle)
         : (struct mid_src){ 0 };
   struct mid_src s1 =
      info->num_inputs > 1
         ? nir_src_to_mid(c, &alu_i->src[1].src, alu_i->src[1].swizzle)
         : (struct mid_src){ 0 };
   for (unsigned i = 0; i < MIN2(info->num_inputs, 2); i++) {
      struct mid_src *m = i ? &s1 : &s0;
      m->abs = alu_i->src[i].abs;
      m->neg = alu_i->src[i].negate;
   }

   struct mid_instr *I;
   switch (alu_i->op) {
   case nir_op_fddx:
   case nir_op_fddx_fine:
   case nir_op_fddx_coarse:
   case nir_op_fddy:
   case nir_op_fddy_fine:
   case nir_op_fddy_coarse:
      return emit_derivative(c, alu_i->op, dst, mask, s0);
   case nir_op_b32csel: {
      /* The per-lane condition comes from r31 in the same bundle. */
      struct mid_instr *cond = alu(c, "imov", mid_hw(31), mask);
      cond->int_result = true;
      cond->nr_srcs = 2;
      cond->src[1] = s0;
      cond->pair_next = true;
      struct mid_src t, f;
      bool t_mod = csel_float_operand(c, &alu_i->src[1], &t);
      bool f_mod = csel_float_operand(c, &alu_i->src[2], &f);
      if (t.ref.kind == MID_REF_CONST && f.ref.kind == MID_REF_CONST) {
         /* Two constant vectors may not fit one bundle's four words:
          * the false side goes through a register, before the pair. */
         unsigned v = c->s->nr_vars++;
         list_del(&cond->link);
         struct mid_instr *M = alu(c, "imov", mid_var(v), mask);
         M->int_result = true;
         M->nr_srcs = 2;
         M->src[1] = f;
         f = mid_src_ref(mid_var(v));
         list_addtail(&cond->link, &c->block->instrs);
      }
      /* The float select applies source modifiers (stock: FCSEL with
       * .neg): a negated or absolute operand costs no move. */
      bool fsel = t_mod || f_mod;
      I = alu(c, fsel ? "fcsel_v" : "icsel_v", dst, mask);
      I->int_result = !fsel;
      I->nr_srcs = 2;
      I->src[0] = t;
      I->src[1] = f;
      return true;
   }
   case nir_op_fsin:
   case nir_op_fcos: {
      /* The hardware takes the angle in units of pi. */
      unsigned t = c->s->nr_vars++;
      I = alu(c, "fmul", mid_var(t), mask);
      I->nr_srcs = 2;
      I->src[0] = s0;
      I->src[1] = imm_src(fui((float)M_1_PI));
      I = alu(c, alu_i->op == nir_op_fsin ? "fsinpi" : "fcospi", dst, mask);
      I->nr_srcs = 2;
      I->src[0] = mid_src_ref(mid_var(t));
      I->src[1] = imm_src(0);
      split_lut(c, I);
      return true;
   }
   case nir_op_fdot3:
   case nir_op_fdot4: {
      /* The dot product reads lanes 0-2 (0-3) of its sources whatever the
       * mask: it writes those lanes of a variable of its own (lane-wise
       * reads for the IR; only lane 0 is read), moved into a register. */
      unsigned k = alu_i->op == nir_op_fdot3 ? 3 : 4;
      struct mid_ref t = d->is_ssa ? dst : mid_var(c->s->nr_vars++);
      I = alu(c, k == 3 ? "fdot3" : "fdot4", t, (1u << k) - 1);
      I->nr_srcs = 2;
      I->src[0] = s0;
      I->src[1] = s1;
      if (alu_i->dest.saturate)
         I->omod = 3;
      if (d->is_ssa)
         return true;
      I = alu(c, "fmov", dst, mask);
      I->nr_srcs = 2;
      I->src[1] = (struct mid_src){ .ref = t }; /* lane 0 everywhere */
      return true;
   }
   case nir_op_fmax: {
      /* max(x, +0.0) is x through the clamp-to-[0, inf) output modifier:
       * a move that move elimination folds into x's producer. */
      const struct mid_src *x = zero_operand(&s1, mask) ? &s0
                                : zero_operand(&s0, mask) ? &s1
                                                          : NULL;
      if (!x || alu_i->dest.saturate)
         break;
      I = alu(c, "fmov", dst, mask);
      I->nr_srcs = 2;
      I->src[1] = *x;
      I->omod = 1;
      return true;
   }
   case nir_op_ineg:
      I = alu(c, "isub", dst, mask);
      I->int_result = true;
      I->nr_srcs = 2;
      I->src[0] = imm_src(0);
      I->src[1] = s0;
      return true;
   case nir_op_inot:
      I = alu(c, "inor", dst, mask);
      I->int_result = true;
      I->nr_srcs = 2;
      I->src[0] = s0;
      I->src[1] = s0;
      return true;
   case nir_op_iabs:
      I = alu(c, "iabsdiff", dst, mask);
      I->int_result = true;
      I->nr_srcs = 2;
      I->src[0] = s0;
      I->src[1] = imm_src(0);
      return true;
   case nir_op_b2f32:
   case nir_op_b2i32:
      I = alu(c, "iand", dst, mask);
      I->int_result = true;
      I->nr_srcs = 2;
      I->src[0] = s0;
      I->src[1] = imm_src(alu_i->op == nir_op_b2f32 ? fui(1.0f) : 1);
      return true;
   case nir_op_i2b32:
   case nir_op_f2b32:
      I = alu(c, alu_i->op == nir_op_i2b32 ? "ine" : "fne", dst, mask);
      I->int_result = true;
      I->nr_srcs = 2;
      I->src[0] = s0;
      I->src[1] = imm_src(0);
      return true;
   default:
      break;
   }

   const struct alu_map *m = NULL;
   for (unsigned i = 0; i < ARRAY_SIZE(alu_table); i++) {
      if (alu_table[i].nop == alu_i->op)
         m = &alu_table[i];
   }
   if (!m)
      return mid_error(c->s, "NIR ALU op %s is not supported", info->name);

   I = alu(c, m->op, dst, mask);
   I->int_result = m->flags & F_INT;
   I->nr_srcs = 2;
   if (alu_i->dest.saturate || alu_i->op == nir_op_fsat)
      I->omod = 3; /* clamp to [0, 1] */
   if (m->flags & F_MOV) {
      I->src[1] = s0;
      if (alu_i->op == nir_op_fneg)
         I->src[1].neg = !I->src[1].neg;
      if (alu_i->op == nir_op_fabs) {
         I->src[1].abs = true;
         I->src[1].neg = false;
      }
   } else if (m->flags & F_ONE) {
      I->src[0] = s0;
      I->src[1] = imm_src(0);
   } else if (m->flags & F_SWAP) {
      I->src[0] = s1;
      I->src[1] = s0;
   } else {
      I->src[0] = s0;
      I->src[1] = s1;
   }
   split_lut(c, I);
   return true;
}

/* Where NIR's 32-bit global address goes: an index from r26.x over a zero
 * base (our first slice has no 64-bit values). */
static bool
emit_address(struct ctx *c, const nir_src *addr, struct mid_ls *ls)
{
   if (nir_src_bit_size(*addr) != 32)
      return mid_error(c->s, "64-bit global addresses are not supported");
   struct mid_instr *I = alu(c, "imov", mid_hw(26), 0x1);
   I->int_result = true;
   I->nr_srcs = 2;
   uint8_t swz[4] = { 0, 0, 0, 0 };
   I->src[1] = nir_src_to_mid(c, addr, swz);
   ls->areg = 7; /* zero */
   ls->ireg = 0; /* r26 */
   ls->icomp = 0;
   ls->ifmt = 2; /* u32 */
   return true;
}

static const char *
size_suffix(const char *base, unsigned comps, char *buf, size_t n)
{
   snprintf(buf, n, "%s%s", base,
            comps == 1   ? "32"
            : comps == 2 ? "64"
                         : "128");
   return buf;
}

/* A load/store-unit load of nc 32-bit words into dst. */
static void
load_to(struct ctx *c, const char *base, unsigned nc, struct mid_ref dst,
        struct mid_ls ls)
{
   char name[32];
   struct mid_instr *I = mid_instr_create(
      c->s, c->block, MID_LDST,
      ralloc_strdup(c->s->mem, size_suffix(base, nc, name, sizeof(name))));
   ls.swz = 0xe4;
   I->ls = ls;
   I->dst = dst;
   I->mask = (1u << nc) - 1;
}

static bool
emit_load(struct ctx *c, nir_intrinsic_instr *in, const char *base,
          struct mid_ls ls)
{
   if (!check_size(c, nir_dest_bit_size(in->dest), "load"))
      return false;
   load_to(c, base, nir_dest_num_components(in->dest), intr_dest(c, in), ls);
   return true;
}

/* ld_ubo_ operands of an immediate buffer index (split over the address
 * fields) and no register index. */
static struct mid_ls
ubo_ls(unsigned ubo)
{
   return (struct mid_ls){
      .acomp = ubo & 3,
      .areg = (ubo >> 2) & 7,
      .wide = (ubo >> 5) & 1,
      .ifmt = (ubo >> 6) & 3,
      .ireg = 7,
   };
}

static int push_slot(struct mid_shader *s, unsigned ubo, unsigned vec);

/* An output's lanes into the variable collecting them; returns the lanes. */
static unsigned
write_output_var(struct ctx *c, nir_intrinsic_instr *in, unsigned var)
{
   unsigned comp = nir_intrinsic_component(in);
   unsigned mask = nir_intrinsic_write_mask(in) << comp;
   uint8_t swz[4];
   for (unsigned l = 0; l < 4; l++)
      swz[l] =
         l < comp ? 0 : MIN2(l - comp, nir_src_num_components(in->src[0]) - 1);
   struct mid_instr *I = alu(c, "imov", mid_var(var), mask);
   I->int_result = true;
   I->nr_srcs = 2;
   I->src[1] = nir_src_to_mid(c, &in->src[0], swz);
   return mask;
}

/* Vertex attribute: ld_attr by the attribute's driver location, typed as
 * the load asks; no address operands. */
/* An attribute load: index, first component, lanes and register format. */
static void
load_attribute(struct ctx *c, const char *op, unsigned index, unsigned comp,
               struct mid_ref dst, unsigned nc)
{
   struct mid_instr *I = mid_instr_create(c->s, c->block, MID_LDST, op);
   I->ls.areg = 7;
   I->ls.ireg = 7;
   I->ls.offset = (int)(index << 9);
   for (unsigned l = 0; l < 4; l++)
      I->ls.swz |= MIN2(comp + l, 3) << (2 * l);
   I->dst = dst;
   I->mask = (1u << nc) - 1;
}

static bool
emit_attribute(struct ctx *c, nir_intrinsic_instr *in)
{
   if (!nir_src_is_const(in->src[0]))
      return mid_error(c->s, "indirect attributes are not supported");
   unsigned index = nir_intrinsic_base(in) + nir_src_as_uint(in->src[0]);
   if (index >= MID_ATTR_VERTEX_ID)
      return mid_error(c->s, "attribute %u out of range", index);
   if (!check_size(c, nir_dest_bit_size(in->dest), "attribute"))
      return false;
   nir_alu_type t = nir_alu_type_get_base_type(nir_intrinsic_dest_type(in));
   const char *op = t == nir_type_float ? "ld_attr_32"
                    : t == nir_type_int ? "ld_attr_32i"
                                        : "ld_attr_32u";
   load_attribute(c, op, index, nir_intrinsic_component(in), intr_dest(c, in),
                  nir_dest_num_components(in->dest));
   return true;
}

/* Vertex outputs collect per driver location; st_vary at the end. */
static bool
emit_vertex_output(struct ctx *c, nir_intrinsic_instr *in)
{
   if (!nir_src_is_const(in->src[1]))
      return mid_error(c->s, "indirect vertex outputs are not supported");
   if (!check_size(c, nir_src_bit_size(in->src[0]), "output"))
      return false;
   unsigned slot = nir_intrinsic_base(in) + nir_src_as_uint(in->src[1]);
   if (slot >= MID_MAX_VARYINGS)
      return mid_error(c->s, "vertex output %u out of range", slot);
   if (!c->out_mask[slot]) {
      c->out_var[slot] = c->s->nr_vars++;
      c->out_loc[slot] = nir_intrinsic_io_semantics(in).location;
   }
   c->out_mask[slot] |= write_output_var(c, in, c->out_var[slot]);
   return true;
}

static struct mid_src
uniform_src(unsigned slot)
{
   return (struct mid_src){ .ref = { MID_REF_UNIFORM, slot },
                            .swz = { 0, 1, 2, 3 } };
}

/* Vec4 vec of the system-value UBO: pushed when there is room, else
 * loaded into a variable. */
static struct mid_src
sysval_src(struct ctx *c, unsigned vec)
{
   if (c->s->sysval_ubo > 255 || vec >= (1u << 11))
      mid_error(c->s, "system value %u of UBO %u out of range", vec,
                c->s->sysval_ubo); /* checked after the instruction */
   int slot = push_slot(c->s, c->s->sysval_ubo, vec);
   if (slot >= 0)
      return uniform_src(slot);
   unsigned v = c->s->nr_vars++;
   struct mid_ls ls = ubo_ls(c->s->sysval_ubo);
   ls.offset = (int)((vec * 16) << 2) | 1;
   load_to(c, "ld_ubo_", 4, mid_var(v), ls);
   return mid_src_ref(mid_var(v));
}

/* Clip-space position to screen space: xyz / w * scale + offset, 1 / w in
 * w, with the viewport from the system-value UBO. */
static bool
viewport_transform(struct ctx *c, unsigned pos, unsigned out)
{
   struct mid_src scale = sysval_src(c, MID_SYSVAL_VIEWPORT_SCALE);
   struct mid_src offset = sysval_src(c, MID_SYSVAL_VIEWPORT_OFFSET);
   struct mid_src w = mid_src_ref(mid_var(pos));
   memset(w.swz, 3, 4);
   struct mid_instr *I = alu(c, "frcp", mid_var(out), 0x8);
   I->nr_srcs = 2;
   I->src[0] = w;
   I->src[1] = imm_src(0);
   struct mid_src rw = mid_src_ref(mid_var(out));
   memset(rw.swz, 3, 4);
   unsigned t = c->s->nr_vars++;
   I = alu(c, "fmul", mid_var(t), 0x7);
   I->nr_srcs = 2;
   I->src[0] = mid_src_ref(mid_var(pos));
   I->src[1] = rw;
   unsigned u = c->s->nr_vars++;
   I = alu(c, "fmul", mid_var(u), 0x7);
   I->nr_srcs = 2;
   I->src[0] = mid_src_ref(mid_var(t));
   I->src[1] = scale;
   I = alu(c, "fadd", mid_var(out), 0x7);
   I->nr_srcs = 2;
   I->src[0] = mid_src_ref(mid_var(u));
   I->src[1] = offset;
   return true;
}

/* The end of a vertex shader: each output slot through r27 or r26 to
 * st_vary (32-bit data, the varying's format from its descriptor, in the
 * secondary attribute table), the position transformed first and the
 * point size clamped to at least one pixel.  The data registers alternate
 * so that two stores can share a bundle and their moves a bundle. */
static bool
store_vertex_outputs(struct ctx *c)
{
   unsigned nr_stores = 0;
   for (unsigned slot = 0; slot < MID_MAX_VARYINGS; slot++) {
      unsigned mask = c->out_mask[slot];
      if (!mask)
         continue;
      unsigned var = c->out_var[slot];
      if (c->out_loc[slot] == VARYING_SLOT_POS) {
         if (mask != 0xf)
            return mid_error(c->s, "partial position writes");
         unsigned v = c->s->nr_vars++;
         if (!viewport_transform(c, var, v))
            return false;
         var = v;
      } else if (c->out_loc[slot] == VARYING_SLOT_PSIZ) {
         unsigned v = c->s->nr_vars++;
         struct mid_instr *I = alu(c, "fmax", mid_var(v), mask);
         I->nr_srcs = 2;
         I->src[0] = mid_src_ref(mid_var(var));
         I->src[1] = imm_src(fui(1.0f));
         var = v;
      }
      /* Unwritten lanes repeat the last written one below them. */
      struct mid_src src = mid_src_ref(mid_var(var));
      unsigned last = ffs(mask) - 1;
      for (unsigned l = 0; l < 4; l++) {
         if (mask & (1u << l))
            last = l;
         src.swz[l] = last;
      }
      /* Only in the tries that hoist stores: alternating, the stores'
       * moves no longer wait for each other, which can hold more values
       * live; the others keep the old order (four threads more often). */
      bool r26 = (nr_stores++ & 1) && c->s->hoist_stores;
      struct mid_instr *D = alu(c, "imov", mid_hw(r26 ? 26 : 27), 0xf);
      D->int_result = true;
      D->nr_srcs = 2;
      D->src[1] = src;
      struct mid_instr *I =
         mid_instr_create(c->s, c->block, MID_LDST, "st_vary_32");
      I->store = true;
      I->ls.data26 = r26;
      I->mask = 0xf;
      I->ls.swz = 0xe4;
      I->ls.areg = 7;
      I->ls.ireg = 7;
      I->ls.ifmt = 3; /* bit 0: 32-bit data, bit 1: secondary table */
      I->ls.offset = (int)(slot << 9);
   }
   return true;
}

/* r31.w = lane 0 of cond, paired with the branch that follows. */
static void
cond_to_r31(struct ctx *c, const nir_src *cond)
{
   struct mid_instr *I = alu(c, "imov", mid_hw(31), 0x8);
   I->int_result = true;
   I->nr_srcs = 2;
   static const uint8_t swz[4] = { 0 };
   I->src[1] = nir_src_to_mid(c, cond, swz);
   I->pair_next = true;
}

/* A discard is a branch that ends the thread.  Our branches end their
 * block, so the rest of the NIR block continues in a new block right
 * after it, which the discard names as its (never taken) target. */
static bool
emit_discard(struct ctx *c, nir_intrinsic_instr *in)
{
   if (c->s->stage != MESA_SHADER_FRAGMENT)
      return mid_error(c->s, "discard outside a fragment shader");
   bool cond = in->intrinsic == nir_intrinsic_discard_if;
   if (cond)
      cond_to_r31(c, &in->src[0]);
   struct mid_instr *B = mid_instr_create(c->s, c->block, MID_BRANCH, "branch");
   B->discard = true;
   B->cond = cond ? MID_COND_TRUE : MID_COND_ALWAYS;
   struct mid_block *rest = mid_block_create(c->s);
   list_del(&rest->link);
   list_add(&rest->link, &c->block->link);
   B->target = rest;
   c->block = rest;
   return true;
}

/* A register UBO offset (x << k) + b, where k and b are constants,
 * becomes the load's index x with its shift k and b in its immediate
 * offset, as the stock code addresses arrays of uniforms: the shift and
 * the add need no ALU words.  Returns x (the offset itself when it has no
 * such form). */
static bool
is_ssa_alu(nir_ssa_scalar s, nir_op op)
{
   if (!nir_ssa_scalar_is_alu(s) || nir_ssa_scalar_alu_op(s) != op)
      return false;
   nir_alu_instr *alu = nir_instr_as_alu(s.def->parent_instr);
   return alu->src[0].src.is_ssa && alu->src[1].src.is_ssa;
}

static nir_ssa_scalar
fold_ubo_offset(nir_ssa_scalar s, unsigned *shift, unsigned *byte)
{
   *shift = 0;
   *byte = 0;
   if (is_ssa_alu(s, nir_op_iadd)) {
      for (unsigned i = 0; i < 2; i++) {
         nir_ssa_scalar b = nir_ssa_scalar_chase_alu_src(s, i);
         if (nir_ssa_scalar_is_const(b) && nir_ssa_scalar_as_uint(b) < 4096) {
            *byte = nir_ssa_scalar_as_uint(b);
            s = nir_ssa_scalar_chase_alu_src(s, 1 - i);
            break;
         }
      }
   }
   if (is_ssa_alu(s, nir_op_ishl)) {
      nir_ssa_scalar k = nir_ssa_scalar_chase_alu_src(s, 1);
      if (nir_ssa_scalar_is_const(k) && nir_ssa_scalar_as_uint(k) < 16) {
         *shift = nir_ssa_scalar_as_uint(k);
         s = nir_ssa_scalar_chase_alu_src(s, 0);
      }
   }
   return s;
}

/* The lane of r27 that still holds index x from an earlier load of this
 * block (nothing has written that lane of r27 since its move), or -1.
 * Skinned vertex shaders load a bone's rows with one index: one move,
 * which move elimination can then sink into the index's producer. */
static int
index_lane(struct ctx *c, nir_ssa_scalar x)
{
   for (unsigned l = 0; l < 4; l++) {
      struct mid_instr *M = c->ubo_index[l].move;
      if (!M || c->ubo_index[l].def != x.def ||
          c->ubo_index[l].comp != x.comp || c->ubo_index[l].block != c->block)
         continue;
      bool clobbered = false;
      for (struct list_head *n = M->link.next; n != &c->block->instrs;
           n = n->next) {
         struct mid_instr *I = list_entry(n, struct mid_instr, link);
         clobbered |= !I->store && I->dst.kind == MID_REF_HW &&
                      I->dst.index == 27 &&
                      (I->kind != MID_ALU || (I->mask & (1u << l)));
      }
      if (!clobbered)
         return l;
   }
   return -1;
}

static bool
emit_intrinsic(struct ctx *c, nir_intrinsic_instr *in)
{
   struct mid_ls ls = { 0 };

   if (nir_intrinsic_infos[in->intrinsic].has_dest && !in->dest.is_ssa &&
       (in->dest.reg.indirect || in->dest.reg.reg->num_array_elems))
      return mid_error(c->s, "%s into a register array is not supported",
                       nir_intrinsic_infos[in->intrinsic].name);

   switch (in->intrinsic) {
   case nir_intrinsic_load_ubo: {
      if (!nir_src_is_const(in->src[0]))
         return mid_error(c->s, "indirect UBO indices are not supported");
      unsigned ubo = nir_src_as_uint(in->src[0]);
      if (ubo > 255)
         return mid_error(c->s, "UBO index %u out of range", ubo);
      ls = ubo_ls(ubo);
      unsigned byte = 0;
      if (nir_src_is_const(in->src[1])) {
         byte = nir_src_as_uint(in->src[1]);
      } else if (!in->src[1].is_ssa) {
         struct mid_instr *I = alu(c, "imov", mid_hw(27), 0x1);
         I->int_result = true;
         I->nr_srcs = 2;
         uint8_t swz[4] = { 0 };
         I->src[1] = nir_src_to_mid(c, &in->src[1], swz);
         ls.ireg = 1;
      } else {
         /* Register offset from a lane of r27, in turn. */
         nir_ssa_scalar x = fold_ubo_offset(
            nir_get_ssa_scalar(in->src[1].ssa, 0), &ls.ishift, &byte);
         int lane = index_lane(c, x);
         if (lane < 0) {
            lane = c->ubo_lane++ & 3;
            struct mid_instr *I = alu(c, "imov", mid_hw(27), 1u << lane);
            I->int_result = true;
            I->nr_srcs = 2;
            uint8_t swz[4] = { x.comp, x.comp, x.comp, x.comp };
            nir_src xs = nir_src_for_ssa(x.def);
            I->src[1] = nir_src_to_mid(c, &xs, swz);
            c->ubo_index[lane].move = I;
            c->ubo_index[lane].block = c->block;
            c->ubo_index[lane].def = x.def;
            c->ubo_index[lane].comp = x.comp;
         }
         ls.ireg = 1;
         ls.icomp = lane;
      }
      if (byte >= (1u << 15))
         return mid_error(c->s, "UBO offset %u out of range", byte);
      /* Bit 0 says the buffer index is immediate; the byte offset sits
       * above two bits. */
      ls.offset = (int)(byte << 2) | 1;
      return emit_load(c, in, "ld_ubo_", ls);
   }
   case nir_intrinsic_load_global:
   case nir_intrinsic_load_global_constant:
      if (!emit_address(c, &in->src[0], &ls))
         return false;
      return emit_load(c, in, "ld_", ls);
   case nir_intrinsic_store_global: {
      unsigned nc = nir_src_num_components(in->src[0]);
      if (!check_size(c, nir_src_bit_size(in->src[0]), "store"))
         return false;
      /* The data goes through r27. */
      struct mid_instr *D = alu(c, "imov", mid_hw(27), (1u << nc) - 1);
      D->int_result = true;
      D->nr_srcs = 2;
      D->src[1] = nir_src_to_mid(c, &in->src[0], identity);
      if (!emit_address(c, &in->src[1], &ls))
         return false;
      char name[32];
      struct mid_instr *I = mid_instr_create(
         c->s, c->block, MID_LDST,
         ralloc_strdup(c->s->mem, size_suffix("st_", nc, name, sizeof(name))));
      ls.swz = 0xe4;
      I->ls = ls;
      I->store = true;
      I->mask = nir_intrinsic_write_mask(in);
      return true;
   }
   case nir_intrinsic_load_input: {
      if (c->s->stage == MESA_SHADER_VERTEX)
         return emit_attribute(c, in);
      if (c->s->stage != MESA_SHADER_FRAGMENT)
         return mid_error(c->s, "%s inputs are not supported",
                          gl_shader_stage_name(c->s->stage));
      /* An array element's offset (in vec4 slots) adds to the base. */
      if (!nir_src_is_const(in->src[0]))
         return mid_error(c->s, "indirect varyings are not supported");
      unsigned index = nir_intrinsic_base(in) + nir_src_as_uint(in->src[0]);
      if (index >= 256)
         return mid_error(c->s, "varying %u out of range", index);
      /* Varying index above the interpolation bits (0x50: perspective
       * correct, as the stock code loads smooth varyings); no address. */
      ls.areg = 7;
      ls.ireg = 7;
      ls.ifmt = 2;
      ls.offset = (int)(index << 9) | 0x50;
      unsigned comp = nir_intrinsic_component(in);
      unsigned nc = nir_dest_num_components(in->dest);
      if (!check_size(c, nir_dest_bit_size(in->dest), "varying"))
         return false;
      struct mid_instr *I =
         mid_instr_create(c->s, c->block, MID_LDST, "ld_vary_32");
      ls.swz = 0;
      for (unsigned l = 0; l < 4; l++)
         ls.swz |= MIN2(comp + l, 3) << (2 * l);
      I->ls = ls;
      I->dst = intr_dest(c, in);
      I->mask = (1u << nc) - 1;
      return true;
   }
   case nir_intrinsic_store_output: {
      if (c->s->stage == MESA_SHADER_VERTEX)
         return emit_vertex_output(c, in);
      if (c->s->stage != MESA_SHADER_FRAGMENT)
         return mid_error(c->s, "%s outputs are not supported",
                          gl_shader_stage_name(c->s->stage));
      nir_io_semantics sem = nir_intrinsic_io_semantics(in);
      if (sem.location == FRAG_RESULT_DEPTH) {
         if (!check_size(c, nir_src_bit_size(in->src[0]), "output"))
            return false;
         write_output_var(c, in, c->depth_var);
         c->has_depth = true;
         return true;
      }
      unsigned rt = sem.location == FRAG_RESULT_COLOR
                       ? 0
                       : sem.location - FRAG_RESULT_DATA0;
      if (sem.location != FRAG_RESULT_COLOR &&
          (sem.location < FRAG_RESULT_DATA0 || rt >= MID_MAX_RTS))
         return mid_error(c->s, "fragment output %s is not supported",
                          gl_frag_result_name(sem.location));
      if (!nir_src_is_const(in->src[1]))
         return mid_error(c->s, "indirect fragment outputs");
      rt += nir_src_as_uint(in->src[1]);
      if (rt >= MID_MAX_RTS)
         return mid_error(c->s, "render target %u out of range", rt);
      if (!check_size(c, nir_src_bit_size(in->src[0]), "output"))
         return false;
      write_output_var(c, in, c->colour_var[rt]);
      c->has_colour |= 1u << rt;
      return true;
   }
   case nir_intrinsic_discard:
   case nir_intrinsic_discard_if:
      return emit_discard(c, in);
   case nir_intrinsic_load_vertex_id_zero_base:
   case nir_intrinsic_load_instance_id:
      if (c->s->stage != MESA_SHADER_VERTEX)
         return mid_error(c->s, "%s outside a vertex shader",
                          nir_intrinsic_infos[in->intrinsic].name);
      load_attribute(c, "ld_attr_32i",
                     in->intrinsic == nir_intrinsic_load_instance_id
                        ? MID_ATTR_INSTANCE_ID
                        : MID_ATTR_VERTEX_ID,
                     0, intr_dest(c, in), 1);
      return true;
   case nir_intrinsic_load_first_vertex: {
      struct mid_instr *M = alu(c, "imov", intr_dest(c, in), 0x1);
      M->int_result = true;
      M->nr_srcs = 2;
      M->src[1] = sysval_src(c, MID_SYSVAL_DRAW);
      return true;
   }
   default:
      return mid_error(c->s, "NIR intrinsic %s is not supported",
                       nir_intrinsic_infos[in->intrinsic].name);
   }
}

/* The push slot holding vec4 `vec` of UBO `ubo`, or -1 when full. */
static int
push_slot(struct mid_shader *s, unsigned ubo, unsigned vec)
{
   for (unsigned slot = 0; slot < s->nr_push; slot++) {
      if (s->push[slot] == vec && s->push_ubo[slot] == ubo)
         return slot;
   }
   if (s->nr_push == s->max_push)
      return -1;
   s->push[s->nr_push] = vec;
   s->push_ubo[s->nr_push] = ubo;
   return s->nr_push++;
}

/* Pushed uniform: UBO 0 at a constant offset, within one vec4. */
static bool
try_push(struct ctx *c, nir_intrinsic_instr *in)
{
   if (in->intrinsic != nir_intrinsic_load_ubo ||
       !nir_src_is_const(in->src[0]) || nir_src_as_uint(in->src[0]) ||
       !nir_src_is_const(in->src[1]) || nir_dest_bit_size(in->dest) != 32)
      return false;
   unsigned byte = nir_src_as_uint(in->src[1]);
   unsigned vec = byte / 16, comp = (byte % 16) / 4;
   if (byte % 4 || comp + nir_dest_num_components(in->dest) > 4)
      return false;
   if (!in->dest.is_ssa &&
       (in->dest.reg.indirect || in->dest.reg.reg->num_array_elems))
      return false;
   int slot = push_slot(c->s, 0, vec);
   if (slot < 0)
      return false;
   if (in->dest.is_ssa) {
      c->uniform[in->dest.ssa.index] = slot * 4 + comp;
      return true;
   }
   /* nir_convert_from_ssa gave the load a phi web's register (a uniform
    * picked by one arm of an if): nothing reads it through c->uniform, so
    * the register must be written here. */
   unsigned n = nir_dest_num_components(in->dest);
   struct mid_instr *I = alu(c, "imov", intr_dest(c, in), (1u << n) - 1);
   I->int_result = true;
   I->nr_srcs = 2;
   I->src[0].ref.kind = MID_REF_NONE;
   I->src[1] = uniform_src(slot);
   for (unsigned l = 0; l < 4; l++)
      I->src[1].swz[l] = comp + MIN2(l, n - 1);
   return true;
}

/* Texture sizes are system values: vec4 3 + i of the system-value UBO
 * holds texture i's size at LOD 0 (NIR scales it for other LODs). */
static bool
emit_tex_size(struct ctx *c, nir_tex_instr *tex)
{
   if (!tex->dest.is_ssa)
      return mid_error(c->s, "texture size into a register");
   unsigned nc = nir_dest_num_components(tex->dest);
   struct mid_ref dst = mid_var(tex->dest.ssa.index);
   unsigned vec = MID_SYSVAL_TEX_SIZE + tex->texture_index;
   struct mid_instr *M = alu(c, "imov", dst, (1u << nc) - 1);
   M->int_result = true;
   M->nr_srcs = 2;
   M->src[1] = sysval_src(c, vec);
   return true;
}

/* A cube map direction (x, y, z) goes to r26, from where the load/store
 * unit's ld_cubemap_coords writes the face's 2D coordinates to the
 * texture input's .xy (the face selection the texture word takes with
 * them). */
static void
cube_coords(struct ctx *c, nir_src *src)
{
   static const uint8_t xyz[4] = { 0, 1, 2, 2 };
   struct mid_instr *I = alu(c, "imov", mid_hw(26), 0x7);
   I->int_result = true;
   I->nr_srcs = 2;
   I->src[1] = nir_src_to_mid(c, src, xyz);
   struct mid_instr *L =
      mid_instr_create(c->s, c->block, MID_LDST, "ld_cubemap_coords");
   L->ls = (struct mid_ls){ .wide = true, .swz = 0xe4 }; /* 32-bit, r26 */
   L->dst = mid_hw(c->s->tex_in);
   L->mask = 0x3;
}

/* Texture: the coordinates (shadow reference in z, array index in w) and
 * a register LOD/bias (x of the register after) are moved into the
 * texture inputs (r28, r29), the word writes its result to tex_out (r28;
 * r0 on the small cores), a move takes it out. */
static bool
emit_tex(struct ctx *c, nir_tex_instr *tex)
{
   /* Midgard's driver has no buffer views (texture buffers are a v6+
    * feature), so a samplerBuffer has nothing to read. */
   if (tex->sampler_dim == GLSL_SAMPLER_DIM_BUF)
      return mid_error(c->s, "texture buffers (samplerBuffer) are not "
                             "supported on Midgard");
   const char *op;
   switch (tex->op) {
   case nir_texop_tex:
   case nir_texop_txb:
      op = "normal";
      break;
   case nir_texop_txl:
      op = "gradient"; /* what takes an explicit LOD */
      break;
   case nir_texop_txf:
      op = "fetch";
      break;
   case nir_texop_txs:
      return emit_tex_size(c, tex);
   default:
      return mid_error(c->s, "texture op %d is not supported", tex->op);
   }
   unsigned dim;
   switch (tex->sampler_dim) {
   case GLSL_SAMPLER_DIM_1D:
      dim = 1;
      break;
   case GLSL_SAMPLER_DIM_2D:
   case GLSL_SAMPLER_DIM_RECT:
   case GLSL_SAMPLER_DIM_EXTERNAL:
      dim = 2;
      break;
   case GLSL_SAMPLER_DIM_3D:
      dim = 3;
      break;
   case GLSL_SAMPLER_DIM_CUBE:
      if (tex->is_array || tex->op == nir_texop_txf)
         return mid_error(c->s, "cube map arrays and fetches are not "
                                "supported");
      dim = 0;
      break;
   default:
      return mid_error(c->s, "this dimension of textures is not supported");
   }
   if (tex->texture_index > 0xffff || tex->sampler_index > 0xffff)
      return mid_error(c->s, "texture index out of range");
   if (!check_size(c, nir_dest_bit_size(tex->dest), "texture"))
      return false;

   struct mid_tex t = {
      .dim = dim,
      .mode = tex->is_shadow ? 5 : 1, /* shadow / normal */
      .texture = tex->texture_index,
      .sampler = tex->sampler_index,
      .in_reg = c->s->tex_in,
      .vertex = c->s->stage == MESA_SHADER_VERTEX || tex->op == nir_texop_txf,
   };
   nir_alu_type base = nir_alu_type_get_base_type(tex->dest_type);
   t.stype = base == nir_type_float ? 1 : base == nir_type_uint ? 2 : 3;

   for (unsigned i = 0; i < tex->num_srcs; i++) {
      nir_src *src = &tex->src[i].src;
      if (!check_size(c, nir_src_bit_size(*src), "texture source"))
         return false;
      switch (tex->src[i].src_type) {
      case nir_tex_src_coord: {
         if (dim == 0) {
            cube_coords(c, src);
            break;
         }
         unsigned n = tex->coord_components;
         /* An array index goes to w, the rest from x. */
         unsigned mask = 0;
         uint8_t swz[4] = { 0 };
         for (unsigned l = 0; l < n; l++) {
            unsigned lane = tex->is_array && l == n - 1 ? 3 : l;
            swz[lane] = l;
            mask |= 1u << lane;
         }
         struct mid_instr *I = alu(c, "imov", mid_hw(c->s->tex_in), mask);
         I->int_result = true;
         I->nr_srcs = 2;
         I->src[1] = nir_src_to_mid(c, src, swz);
         break;
      }
      case nir_tex_src_comparator: {
         uint8_t swz[4] = { 0 };
         struct mid_instr *I = alu(c, "imov", mid_hw(c->s->tex_in), 0x4);
         I->int_result = true;
         I->nr_srcs = 2;
         I->src[1] = nir_src_to_mid(c, src, swz);
         break;
      }
      case nir_tex_src_bias:
      case nir_tex_src_lod: {
         if (tex->op != nir_texop_txf && nir_src_is_const(*src)) {
            /* 8.8 fixed point: signed integer part, unsigned fraction. */
            float f = nir_src_as_float(*src);
            if (!(f >= -128.0f && f < 128.0f))
               return mid_error(c->s, "texture LOD %f out of range", f);
            int i = (int)floorf(f);
            t.biasi = (unsigned)i & 0xff;
            t.bias = MIN2((unsigned)lrintf((f - (float)i) * 256.0f), 255);
            break;
         }
         uint8_t swz[4] = { 0 };
         struct mid_instr *I =
            alu(c, "imov", mid_hw(c->s->tex_in + 1), 0x1);
         I->int_result = true;
         I->nr_srcs = 2;
         I->src[1] = nir_src_to_mid(c, src, swz);
         t.lodreg = true;
         break;
      }
      default:
         return mid_error(c->s, "texture source type %d is not supported",
                          tex->src[i].src_type);
      }
   }

   unsigned nc = nir_dest_num_components(tex->dest);
   struct mid_instr *T = mid_instr_create(c->s, c->block, MID_TEX, op);
   T->tex = t;
   T->dst = mid_hw(c->s->tex_out);
   T->mask = 0xf;
   c->s->nr_tex++;

   if (!tex->dest.is_ssa && tex->dest.reg.reg->num_array_elems)
      return mid_error(c->s, "register arrays are not supported");
   unsigned dv = tex->dest.is_ssa ? tex->dest.ssa.index
                                  : c->reg_base + tex->dest.reg.reg->index;
   struct mid_instr *M = alu(c, "imov", mid_var(dv), (1u << nc) - 1);
   M->int_result = true;
   M->nr_srcs = 2;
   M->src[1] = mid_src_ref(mid_hw(c->s->tex_out));
   return true;
}

/* Only ALU sources can read a folded value; anything else needs a var. */
static bool
only_alu_uses(nir_ssa_def *def)
{
   if (!list_is_empty(&def->if_uses))
      return false;
   nir_foreach_use(use, def)
   {
      if (use->parent_instr->type != nir_instr_type_alu)
         return false;
      nir_alu_instr *a = nir_instr_as_alu(use->parent_instr);
      /* csel's condition and vecs read them as moves: still ALU. */
      if (a->op == nir_op_b32csel && use == &a->src[0].src)
         continue;
   }
   return true;
}

static bool
emit_block(struct ctx *c, nir_block *block)
{
   c->block = c->blocks[block->index];
   nir_foreach_instr (instr, block) {
      bool ok = true;
      switch (instr->type) {
      case nir_instr_type_alu:
         ok = emit_alu(c, nir_instr_as_alu(instr));
         break;
      case nir_instr_type_load_const: {
         nir_load_const_instr *lc = nir_instr_as_load_const(instr);
         if (!check_size(c, lc->def.bit_size, "constant"))
            return false;
         c->consts[lc->def.index] = lc;
         if (!only_alu_uses(&lc->def)) {
            nir_src src = nir_src_for_ssa(&lc->def);
            src_in_var(c, &src);
         }
         break;
      }
      case nir_instr_type_intrinsic: {
         nir_intrinsic_instr *in = nir_instr_as_intrinsic(instr);
         if (try_push(c, in)) {
            if (in->dest.is_ssa && !only_alu_uses(&in->dest.ssa)) {
               nir_src src = nir_src_for_ssa(&in->dest.ssa);
               src_in_var(c, &src);
            }
            break;
         }
         ok = emit_intrinsic(c, in);
         break;
      }
      case nir_instr_type_jump: {
         nir_jump_instr *j = nir_instr_as_jump(instr);
         nir_loop *loop = NULL;
         for (nir_cf_node *n = block->cf_node.parent; n; n = n->parent) {
            if (n->type == nir_cf_node_loop) {
               loop = nir_cf_node_as_loop(n);
               break;
            }
         }
         if (!loop ||
             (j->type != nir_jump_break && j->type != nir_jump_continue))
            return mid_error(c->s, "jump %d outside a loop", j->type);
         struct mid_instr *B =
            mid_instr_create(c->s, c->block, MID_BRANCH, "branch");
         B->cond = MID_COND_ALWAYS;
         nir_block *t = j->type == nir_jump_break
                           ? nir_cf_node_cf_tree_next(&loop->cf_node)
                           : nir_loop_first_block(loop);
         B->target = c->blocks[t->index];
         break;
      }
      case nir_instr_type_ssa_undef:
         break;
      case nir_instr_type_tex:
         ok = emit_tex(c, nir_instr_as_tex(instr));
         break;
      default:
         return mid_error(c->s, "NIR instruction type %d is not supported",
                          instr->type);
      }
      if (!ok || c->s->failed)
         return false;
   }
   return true;
}

static bool emit_cf_list(struct ctx *c, struct exec_list *list);

static bool
ends_in_jump(nir_block *b)
{
   nir_instr *last = nir_block_last_instr(b);
   return last && last->type == nir_instr_type_jump;
}

static bool
emit_if(struct ctx *c, nir_if *nif)
{
   cond_to_r31(c, &nif->condition);
   struct mid_instr *B = mid_instr_create(c->s, c->block, MID_BRANCH, "branch");
   B->cond = MID_COND_FALSE;
   nir_block *else_first = nir_if_first_else_block(nif);
   B->target = c->blocks[else_first->index];

   if (!emit_cf_list(c, &nif->then_list))
      return false;
   if (!exec_list_is_empty(&nif->else_list) &&
       !(nir_if_last_else_block(nif) == nir_if_first_else_block(nif) &&
         exec_list_is_empty(&nir_if_first_else_block(nif)->instr_list))) {
      if (!ends_in_jump(nir_if_last_then_block(nif))) {
         struct mid_instr *J =
            mid_instr_create(c->s, c->block, MID_BRANCH, "branch");
         J->cond = MID_COND_ALWAYS;
         J->target = c->blocks[nir_cf_node_cf_tree_next(&nif->cf_node)->index];
      }
   }
   return emit_cf_list(c, &nif->else_list);
}

static bool
emit_cf_list(struct ctx *c, struct exec_list *list)
{
   foreach_list_typed(nir_cf_node, node, node, list)
   {
      switch (node->type) {
      case nir_cf_node_block:
         if (!emit_block(c, nir_cf_node_as_block(node)))
            return false;
         break;
      case nir_cf_node_if:
         if (!emit_if(c, nir_cf_node_as_if(node)))
            return false;
         break;
      case nir_cf_node_loop: {
         nir_loop *loop = nir_cf_node_as_loop(node);
         c->s->loops++;
         if (!emit_cf_list(c, &loop->body))
            return false;
         if (!ends_in_jump(nir_loop_last_block(loop))) {
            struct mid_instr *B =
               mid_instr_create(c->s, c->block, MID_BRANCH, "branch");
            B->cond = MID_COND_ALWAYS;
            B->target = c->blocks[nir_loop_first_block(loop)->index];
         }
         break;
      }
      default:
         return mid_error(c->s, "functions are not supported");
      }
   }
   return true;
}

bool
mid_from_nir(struct mid_shader *s, nir_shader *nir)
{
   nir_function_impl *impl = nir_shader_get_entrypoint(nir);
   if (!impl)
      return mid_error(s, "no entry point");
   nir_index_blocks(impl);
   nir_index_ssa_defs(impl);
   nir_index_local_regs(impl);

   struct ctx c = {
      .s = s,
      .nir = nir,
      .impl = impl,
      .reg_base = impl->ssa_alloc,
   };
   s->nr_vars = impl->ssa_alloc + impl->reg_alloc;
   for (unsigned rt = 0; rt < MID_MAX_RTS; rt++)
      c.colour_var[rt] = s->nr_vars++;
   c.depth_var = s->nr_vars++;
   c.blocks = ralloc_array(s->mem, struct mid_block *, impl->num_blocks);
   c.consts = rzalloc_array(s->mem, nir_load_const_instr *, impl->ssa_alloc);
   c.uniform = ralloc_array(s->mem, int, impl->ssa_alloc);
   for (unsigned i = 0; i < impl->ssa_alloc; i++)
      c.uniform[i] = -1;
   nir_foreach_block (b, impl)
      c.blocks[b->index] = mid_block_create(s);

   if (!emit_cf_list(&c, &impl->body))
      return false;
   /* Discards split blocks: number them in program order again (later
    * passes find a branch target's bundles by index), and the program
    * ends in the last one. */
   unsigned nr = 0;
   mid_foreach_block (s, b)
      b->index = nr++;
   struct mid_block *last = list_last_entry(&s->blocks, struct mid_block, link);

   if (s->stage == MESA_SHADER_VERTEX) {
      c.block = last;
      if (!store_vertex_outputs(&c))
         return false;
   }
   if (s->stage == MESA_SHADER_FRAGMENT) {
      if (!c.has_colour) {
         /* A fragment shader that does nothing is an empty program, as
          * the stock compiler emits it; anything else without a colour
          * would need a writeout we do not model. */
         if (!mid_is_empty(s))
            return mid_error(s, "fragment shader without a colour output");
         return !s->failed;
      }
      /* One writeout per render target, in order; the depth goes out
       * with the first. */
      s->rts_written = c.has_colour;
      u_foreach_bit (rt, c.has_colour) {
         struct mid_instr *W =
            mid_instr_create(s, last, MID_WRITEOUT, "writeout");
         W->rt = rt;
         W->nr_srcs = 1;
         W->src[0] = mid_src_ref(mid_var(c.colour_var[rt]));
         if (c.has_depth && !s->writes_depth) {
            /* The writeout bundles copy it to r1.x, where the hardware
             * takes the depth from. */
            W->nr_srcs = 2;
            W->src[1] = mid_src_ref(mid_var(c.depth_var));
            s->writes_depth = true;
         }
      }
   }
   return !s->failed;
}
