/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Emission of the scheduled bundles (mid_sched.c) once registers are
 * allocated.  Branch offsets are resolved after layout, the extended form
 * used only when the compact one's 7-bit offset does not reach.  Words
 * are built with the ISA tables (pan_mid_instr_init/set) and packed by
 * pan_mid_encode_bundle.
 */

#include <string.h>

#include "isa/pan_isa_mid.h"
#include "util/half_float.h"
#include "util/ralloc.h"
#include "util/u_math.h"
#include "util/u_dynarray.h"

#include "mid_ir.h"

static int
reg_of(struct mid_shader *s, struct mid_ref r)
{
   switch (r.kind) {
   case MID_REF_VAR:
      return s->reg_of[r.index];
   case MID_REF_HW:
      return r.index;
   case MID_REF_UNIFORM:
      return 23 - r.index;
   default:
      return -1;
   }
}

static unsigned
lane_of(unsigned mask)
{
   return ffs(mask) - 1;
}

static bool
is_const(const struct mid_src *src)
{
   return src->ref.kind == MID_REF_CONST;
}

/* --- Encoding ------------------------------------------------------------ */

static bool
set(struct mid_shader *s, struct pan_mid_instr *P, const char *f, uint64_t v)
{
   if (!pan_mid_instr_set(P, f, v))
      return mid_error(s, "encoding: %s=%llu does not fit", f,
                       (unsigned long long)v);
   return true;
}

static unsigned
fmod_of(const struct mid_src *src)
{
   return (src->abs ? 1 : 0) | (src->neg ? 2 : 0);
}

static bool
encode_alu(struct mid_shader *s, struct mid_bundle *b, unsigned u,
           struct pan_mid_instr *P)
{
   struct mid_instr *I = b->unit[u];
   if (!pan_mid_instr_init(P, u, I->op))
      return mid_error(s, "no ISA opcode %s", I->op);
   bool scalar = u == PAN_MID_SADD || u == PAN_MID_SMUL;
   bool is_int = mid_op_is_int(I->op);
   unsigned dl = lane_of(I->mask);
   bool ok = true;

   ok &= set(s, P, "d", reg_of(s, I->dst));
   for (unsigned i = 0; i < 2; i++) {
      const struct mid_src *src = &I->src[i];
      const char *rf = i ? "b" : "a";
      char name[8];
      if (i == 1 && b->imm[u]) {
         unsigned imm = b->imm16[u];
         ok &= set(s, P, "bimm", 1);
         ok &= set(s, P, "b", imm >> 11);
         if (scalar) {
            ok &= set(s, P, "bmod", (imm >> 9) & 3);
            ok &= set(s, P, "bfull", (imm >> 8) & 1);
            ok &= set(s, P, "bcomp", (imm >> 5) & 7);
            ok &= set(s, P, "bhi", imm & 31);
         } else {
            ok &= set(s, P, "bexp", (imm >> 8) & 7);
            ok &= set(s, P, "bswz", imm & 0xff);
         }
         continue;
      }
      int reg = is_const(src) ? 26 : reg_of(s, src->ref);
      if (reg < 0)
         reg = 24; /* unused operand */
      ok &= set(s, P, rf, reg);
      if (!is_int && src->ref.kind != MID_REF_NONE) {
         snprintf(name, sizeof(name), "%smod", rf);
         ok &= set(s, P, name, fmod_of(src));
      }
      uint8_t swz[4];
      for (unsigned l = 0; l < 4; l++) {
         /* Cross-lane ops read lanes by position, whatever the mask. */
         unsigned from = (mid_read_positions(I) & (1u << l)) ? l : dl;
         swz[l] = is_const(src) ? b->cslot[u][i][from] : src->swz[from];
      }
      if (scalar) {
         snprintf(name, sizeof(name), "%sfull", rf);
         ok &= set(s, P, name, 1);
         snprintf(name, sizeof(name), "%scomp", rf);
         ok &= set(s, P, name, 2 * swz[dl]);
      } else {
         snprintf(name, sizeof(name), "%sswz", rf);
         ok &=
            set(s, P, name, swz[0] | swz[1] << 2 | swz[2] << 4 | swz[3] << 6);
      }
   }
   unsigned omod = I->int_result ? 2 : I->omod;
   ok &= set(s, P, "omod", omod);
   if (scalar) {
      ok &= set(s, P, "dfull", 1);
      ok &= set(s, P, "dcomp", 2 * dl);
   } else {
      unsigned m = 0;
      for (unsigned l = 0; l < 4; l++) {
         if (I->mask & (1u << l))
            m |= 3u << (2 * l);
      }
      ok &= set(s, P, "mask", m);
   }
   return ok;
}

static bool
encode_ls(struct mid_shader *s, const struct mid_instr *I,
          struct pan_mid_instr *P)
{
   if (!I) {
      pan_mid_instr_init(P, PAN_MID_LDST, "nop");
      return true;
   }
   if (!pan_mid_instr_init(P, PAN_MID_LDST, I->op))
      return mid_error(s, "no load/store opcode %s", I->op);
   /* Store data: 0 names r26, 1 r27. */
   bool ok = set(s, P, "reg", I->store ? !I->ls.data26 : reg_of(s, I->dst));
   ok &= set(s, P, "mask", I->mask);
   ok &= set(s, P, "swz", I->ls.swz);
   ok &= set(s, P, "acomp", I->ls.acomp);
   ok &= set(s, P, "areg", I->ls.areg);
   ok &= set(s, P, "wide", I->ls.wide);
   ok &= set(s, P, "ifmt", I->ls.ifmt);
   ok &= set(s, P, "icomp", I->ls.icomp);
   ok &= set(s, P, "ireg", I->ls.ireg);
   ok &= set(s, P, "ishift", I->ls.ishift);
   ok &= set(s, P, "offset", (uint64_t)(int64_t)I->ls.offset);
   return ok;
}

static bool
encode_tex(struct mid_shader *s, const struct mid_instr *I,
           struct pan_mid_instr *P)
{
   if (!pan_mid_instr_init(P, PAN_MID_TEX, I->op))
      return mid_error(s, "no texture opcode %s", I->op);
   const struct mid_tex *t = &I->tex;
   bool ok = set(s, P, "mode", t->mode);
   /* Helper invocations run every texture word to the end (the stock
    * compiler may let them skip or stop; always correct, slower). */
   ok &= set(s, P, "exec", 3);
   ok &= set(s, P, "dim", t->dim);
   ok &= set(s, P, "infull", 1);
   if (t->swizzled) {
      ok &= set(s, P, "inswz",
                t->inswz[0] | t->inswz[1] << 2 | t->inswz[2] << 4 |
                   t->inswz[3] << 6);
   }
   ok &= set(s, P, "outfull", 1);
   /* The result register: r28 or r29 (r0 or r1 on the small cores). */
   ok &= set(s, P, "outsel", reg_of(s, I->dst) & 1);
   ok &= set(s, P, "stype", t->stype);
   ok &= set(s, P, "mask", I->mask);
   if (t->outswz_set) {
      ok &= set(s, P, "swz",
                t->outswz[0] | t->outswz[1] << 2 | t->outswz[2] << 4 |
                   t->outswz[3] << 6);
   }
   ok &= set(s, P, "texture", t->texture);
   ok &= set(s, P, "sampler", t->sampler);
   if (t->lodreg) {
      /* Register select: 32-bit, r29, component x. */
      ok &= set(s, P, "lodreg", 1);
      ok &= set(s, P, "bias", 0x3);
   } else {
      ok &= set(s, P, "bias", t->bias);
      ok &= set(s, P, "biasi", (uint64_t)(int64_t)(int8_t)t->biasi);
   }
   return ok;
}

/* Tag of the bundle at index i (the one after the last: break). */
static unsigned
tag_at(struct mid_shader *s, unsigned i)
{
   unsigned n = util_dynarray_num_elements(&s->bundles, struct mid_bundle);
   if (i >= n)
      return 1; /* break */
   return util_dynarray_element(&s->bundles, struct mid_bundle, i)->tag;
}

static unsigned
bundle_index_of_block(struct mid_shader *s, struct mid_block *blk)
{
   unsigned i = 0;
   util_dynarray_foreach(&s->bundles, struct mid_bundle, b)
   {
      if (b->block && b->block->index >= blk->index)
         return i;
      i++;
   }
   return i;
}

/* Encode bundle i into out (64 bytes); 0 on failure. */
/* sadd: r1.z = rt << 8, naming the render target of the writeout. */
static bool
encode_rt_select(struct mid_shader *s, unsigned rt, struct pan_mid_instr *P)
{
   unsigned imm = rt << 8; /* the 16-bit inline immediate's fields */
   pan_mid_instr_init(P, PAN_MID_SADD, "imov");
   return set(s, P, "a", 24) && set(s, P, "afull", 1) && set(s, P, "bimm", 1) &&
          set(s, P, "b", imm >> 11) && set(s, P, "bmod", (imm >> 9) & 3) &&
          set(s, P, "bfull", (imm >> 8) & 1) &&
          set(s, P, "bcomp", (imm >> 5) & 7) && set(s, P, "bhi", imm & 31) &&
          set(s, P, "d", 1) && set(s, P, "dfull", 1) && set(s, P, "dcomp", 4) &&
          set(s, P, "omod", 2);
}

/* The lanes of r0 a writeout bundle's own units write. */
static unsigned
writes_colour(const struct mid_bundle *b)
{
   unsigned mask = 0;
   for (unsigned u = 0; u < 5; u++) {
      const struct mid_instr *I = b->unit[u];
      if (u != PAN_MID_VADD && I && I->dst.kind == MID_REF_HW &&
          I->dst.index == 0)
         mask |= I->mask;
   }
   return mask;
}

static size_t
encode_bundle(struct mid_shader *s, unsigned i, uint8_t *out)
{
   struct mid_bundle *b =
      util_dynarray_element(&s->bundles, struct mid_bundle, i);
   struct pan_mid_bundle pb = { 0 };
   pb.next_tag = tag_at(s, i + 1);

   if (b->kind == MID_B_LDST) {
      pb.tag = 5;
      pb.nr_instrs = 2;
      if (!encode_ls(s, b->ls[0], &pb.instrs[0]) ||
          !encode_ls(s, b->ls[1], &pb.instrs[1]))
         return 0;
      return pan_mid_encode_bundle(&pb, out);
   }

   if (b->kind == MID_B_TEX) {
      pb.tag = b->ls[0]->tex.vertex ? 2 : 3;
      pb.nr_instrs = 1;
      if (!encode_tex(s, b->ls[0], &pb.instrs[0]))
         return 0;
      return pan_mid_encode_bundle(&pb, out);
   }

   struct mid_bundle *wt = b->kind == MID_B_WRITEOUT ? b + b->wo_delta : NULL;
   int64_t wo_off = wt ? (int64_t)wt->qw - (b->qw + b->size_qw) : 0;
   if (b->wo_return) {
      /* Back from a retry loop to the writeout of the next target. */
      struct pan_mid_instr *P = &pb.instrs[pb.nr_instrs++];
      bool ok;
      if (b->extended || wo_off < -64 || wo_off > 63) {
         b->extended = true;
         pan_mid_instr_init(P, PAN_MID_BRX, "uncond");
         ok = set(s, P, "lut", 0xffff) && set(s, P, "offset", (uint64_t)wo_off);
      } else {
         pan_mid_instr_init(P, PAN_MID_BR, "uncond");
         ok = set(s, P, "offset", (uint64_t)wo_off);
      }
      if (!ok || !set(s, P, "target", wt->tag))
         return 0;
   } else if (b->kind == MID_B_WRITEOUT) {
      /* Colour to r0, r1.w from r31 (what the stock code sets up for the
       * blend unit), r1.z naming the render target past the first, then
       * the writeout branch, taken to the retry loop while the tile buffer
       * refuses the write; the last target's writeout ends the program. */
      if (!b->writeout_last && b[1].writeout_last)
         pb.next_tag = 1;
      struct pan_mid_instr *P = &pb.instrs[pb.nr_instrs++];
      bool ok;
      if (b->unit[PAN_MID_VMUL]) {
         /* The colour's writer or a move of its other lanes, writing r0
          * (mid_sched.c). */
         ok = encode_alu(s, b, PAN_MID_VMUL, P);
      } else if (writes_colour(b) == 0xf) {
         /* Other units write all of r0. */
         pb.nr_instrs--;
         ok = true;
      } else {
         pan_mid_instr_init(P, PAN_MID_VMUL, "imov");
         int creg = reg_of(s, b->branch->src[0].ref);
         ok = set(s, P, "a", 24) && set(s, P, "b", creg) &&
              set(s, P, "aswz", 0) && set(s, P, "omod", 2);
      }
      if (b->unit[PAN_MID_SADD])
         ok &= encode_alu(s, b, PAN_MID_SADD, &pb.instrs[pb.nr_instrs++]);
      else if (b->branch->rt)
         ok &= encode_rt_select(s, b->branch->rt, &pb.instrs[pb.nr_instrs++]);
      P = &pb.instrs[pb.nr_instrs++];
      pan_mid_instr_init(P, PAN_MID_VADD, "iadd");
      ok &= set(s, P, "a", 31) && set(s, P, "d", 1) && set(s, P, "bimm", 1) &&
            set(s, P, "aswz", 0) && set(s, P, "bswz", 0) &&
            set(s, P, "omod", 2) && set(s, P, "mask", 0xc0);
      if (b->branch->nr_srcs > 1) {
         /* gl_FragDepth: r1.x written in the writeout bundle is the
          * depth the branch sends out. */
         const struct mid_src *z = &b->branch->src[1];
         P = &pb.instrs[pb.nr_instrs++];
         pan_mid_instr_init(P, PAN_MID_SMUL, "imov");
         ok &= set(s, P, "a", 24) && set(s, P, "afull", 1) &&
               set(s, P, "b", reg_of(s, z->ref)) &&
               set(s, P, "bfull", 1) && set(s, P, "bcomp", 2 * z->swz[0]) &&
               set(s, P, "d", 1) && set(s, P, "dfull", 1) &&
               set(s, P, "dcomp", 0) && set(s, P, "omod", 2);
      }
      /* Colour writers on the second stage (not with the depth). */
      for (unsigned u = PAN_MID_SMUL; u <= PAN_MID_LUT; u++) {
         if (b->unit[u])
            ok &= encode_alu(s, b, u, &pb.instrs[pb.nr_instrs++]);
      }
      P = &pb.instrs[pb.nr_instrs++];
      pan_mid_instr_init(P, PAN_MID_BRX, "writeout");
      ok &= set(s, P, "target", wt->tag) &&
            set(s, P, "offset", (uint64_t)wo_off) && set(s, P, "lut", 0xffff);
      if (!ok)
         return 0;
   } else {
      for (unsigned u = 0; u < 5; u++) {
         if (!b->unit[u])
            continue;
         if (!encode_alu(s, b, u, &pb.instrs[pb.nr_instrs++]))
            return 0;
      }
      if (b->branch) {
         struct mid_instr *B = b->branch;
         unsigned ti = bundle_index_of_block(s, B->target);
         struct mid_bundle *t =
            ti < util_dynarray_num_elements(&s->bundles, struct mid_bundle)
               ? util_dynarray_element(&s->bundles, struct mid_bundle, ti)
               : NULL;
         int64_t off = (int64_t)(t ? t->qw : 0) - (b->qw + b->size_qw);
         unsigned cond = B->cond == MID_COND_ALWAYS ? 3
                         : B->cond == MID_COND_TRUE ? 2
                                                    : 1;
         struct pan_mid_instr *P = &pb.instrs[pb.nr_instrs++];
         bool ok;
         if (b->extended) {
            pan_mid_instr_init(P, PAN_MID_BRX,
                               B->discard                  ? "discard"
                               : B->cond == MID_COND_ALWAYS ? "uncond"
                                                            : "cond");
            /* One condition: its 2-bit code repeated over the table. */
            unsigned lut = 0;
            for (unsigned k = 0; k < 8; k++)
               lut |= cond << (2 * k);
            ok = set(s, P, "target", tag_at(s, ti)) &&
                 set(s, P, "offset", (uint64_t)off) && set(s, P, "lut", lut);
         } else if (B->cond == MID_COND_ALWAYS && !B->discard) {
            pan_mid_instr_init(P, PAN_MID_BR, "uncond");
            ok = set(s, P, "target", tag_at(s, ti));
            if (off < -64 || off > 63)
               b->extended = true;
            else
               ok &= set(s, P, "offset", (uint64_t)off);
         } else {
            pan_mid_instr_init(P, PAN_MID_BR, B->discard ? "discard" : "cond");
            ok = set(s, P, "target", tag_at(s, ti)) && set(s, P, "cond", cond);
            if (off < -64 || off > 63)
               b->extended = true;
            else
               ok &= set(s, P, "offset", (uint64_t)off);
         }
         if (!ok)
            return 0;
      }
   }
   if (b->nr_consts) {
      pb.has_consts = true;
      memcpy(pb.consts, b->consts, sizeof(pb.consts));
   }
   /* The smallest ALU tag the words fit (writeout tags from 12). */
   unsigned base = b->kind == MID_B_WRITEOUT && !b->wo_return &&
                         mid_upper_alu_writeout(s->gpu_id)
                      ? 12
                      : 8;
   for (unsigned t = base; t < base + 4; t++) {
      pb.tag = t;
      size_t n = pan_mid_encode_bundle(&pb, out);
      if (n)
         return n;
   }
   mid_error(s, "bundle does not encode");
   return 0;
}

bool
mid_emit(struct mid_shader *s, struct mid_binary *out)
{
   bool ok = true;
   unsigned n = util_dynarray_num_elements(&s->bundles, struct mid_bundle);
   uint8_t tmp[64];
   /* Lay out until the sizes (compact or extended branches) settle. */
   for (unsigned iter = 0; iter < 8; iter++) {
      bool changed = false;
      unsigned qw = 0;
      for (unsigned i = 0; i < n; i++) {
         struct mid_bundle *b =
            util_dynarray_element(&s->bundles, struct mid_bundle, i);
         b->qw = qw;
         bool was_ext = b->extended;
         size_t size = encode_bundle(s, i, tmp);
         if (!size) {
            ok = mid_error(s, "bundle %u does not encode", i);
            goto done;
         }
         if (b->extended != was_ext)
            size = encode_bundle(s, i, tmp);
         changed |= b->size_qw != size / 16 || b->tag != (tmp[0] & 0xf) ||
                    b->extended != was_ext;
         b->size_qw = size / 16;
         b->tag = tmp[0] & 0xf;
         qw += b->size_qw;
      }
      if (!changed)
         break;
   }

   unsigned qw_total = 0;
   util_dynarray_foreach(&s->bundles, struct mid_bundle, b) qw_total +=
      b->size_qw;
   out->size_B = (qw_total + 1) * 16;
   out->code = rzalloc_array(s->mem, uint8_t, out->size_B);
   out->nr_instrs = 0;
   out->nr_bundles = n;
   for (unsigned i = 0; i < n; i++) {
      struct mid_bundle *b =
         util_dynarray_element(&s->bundles, struct mid_bundle, i);
      size_t size = encode_bundle(s, i, out->code + b->qw * 16);
      if (size != b->size_qw * 16) {
         ok = mid_error(s, "bundle %u changed size", i);
         goto done;
      }
      /* A writeout bundle's vadd is the r1.w set-up, which the
       * scheduler may have noted as an instruction (mid_sched.c). */
      bool wo = b->kind == MID_B_WRITEOUT && !b->wo_return;
      for (unsigned u = 0; u < 5; u++)
         out->nr_instrs += b->unit[u] && !(wo && u == PAN_MID_VADD);
      out->nr_instrs += (b->branch != NULL) + (b->ls[0] != NULL) +
                        (b->ls[1] != NULL) +
                        (b->wo_return ? 1
                         : wo ? 1 + (!b->unit[PAN_MID_VMUL] &&
                                     writes_colour(b) != 0xf) +
                                   (b->branch->rt && !b->unit[PAN_MID_SADD])
                              : 0);
   }
done:
   return ok && !s->failed;
}
