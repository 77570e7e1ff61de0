/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Image messages of the Bifrost interpreter, the forms the stock compiler
 * emits for GLSL images (images are records of an attribute table):
 *    DTSEL_IMM     FMA half: passes source 0 through and selects the
 *                  descriptor table of the message beside it (the ADD of
 *                  the same tuple)
 *    LD_ATTR_TEX   texel load: source 0 holds x (bits 0-15) and y (bits
 *                  16-31), source 1 z (slice or layer), source 2 the
 *                  image index; converted to the register format (the
 *                  form without one: the format's 32-bit one)
 *    LEA_ATTR_TEX  the texel's address and conversion word into three
 *                  staging registers, same sources
 *    AXCHG.i32, ACMPXCHG.i32  atomic exchange / compare-and-swap on the
 *                  word at sources 0/1 (seg wls: an offset into shared
 *                  memory); the staging register holds the new value
 *                  (compare-and-swap: new value, then the comparand) and
 *                  receives the old one
 *    ATOM_C.i32, ATOM_C_RETURN.i32  two-operand atomic (aadd, asmin,
 *                  asmax, aumin, aumax, aand, aor, axor) on the word at
 *                  sources 0/1, the operand in source 2
 *    ATOM_C1.i32, ATOM_C1_RETURN.i32  one-operand atomic (ainc, adec,
 *                  aumax1, asmax1, aor1: the two-operand ones with 1 or -1)
 *    +ATOM_CX      the message of the FMA atomic beside it: the whole
 *                  atomic happens in that FMA half, so a CX has nothing
 *                  left to do (and only runs beside one, as the FMA
 *                  atomics are the only ones it pairs with)
 *    SEG_ADD.wls   FMA half: low word of the shared-memory address of the
 *                  offset in source 0; ADD half: the high word (source 0
 *                  holds the offset's high word, zero from the compiler)
 * The atomic unit is modelled without coalescing, lane by lane in lane
 * order: the RETURN forms write the old value to staging word 0 and the
 * identity of the operation to word 1, so that the ATOM_POST which follows
 * (op(word 0, word 1)) gives each lane the old value.  The forms without
 * RETURN write no staging register.  Fragment helper lanes do not access
 * memory: their returned words are zero.
 * Tables: LD_ATTR_TEX reads the primary attribute table unless a DTSEL
 * selects another, LEA_ATTR_TEX the secondary one; only the primary one
 * (attribute_1, the job's attribute table) is modelled, the others fault.
 * The descriptor work is the executor's (pan_sim_img.h); without it the
 * image messages fault.
 */

#include <string.h>

#include "pan_sim_bi_priv.h"
#include "pan_sim_img.h"

static bool
named(const struct pan_sim_bi_ins *ins, const char *name)
{
   return !strcmp(ins->op->name, name);
}

static bool
claims(const struct pan_sim_bi_ins *ins)
{
   switch (ins->sem->family) {
   case BI_FAM_DTSEL_IMM:
      return true;
   case BI_FAM_LD_ATTR:
      return named(ins, "ld_attr_tex");
   case BI_FAM_LEA_ATTR:
      return named(ins, "lea_attr_tex");
   case BI_FAM_AXCHG:
   case BI_FAM_ACMPXCHG:
      return ins->sem->src_type == BI_TYPE_I32;
   case BI_FAM_ATOM:
   case BI_FAM_ATOM_RETURN:
   case BI_FAM_ATOM1:
   case BI_FAM_ATOM1_RETURN:
      return ins->sem->src_type == BI_TYPE_I32 &&
             pan_sim_bi_mod(ins, "atom_opc") >= 0;
   case BI_FAM_ATOM_CX:
      return true;
   case BI_FAM_SEG_ADD:
      return pan_sim_bi_mod_is(ins, "seg", "wls") &&
             pan_sim_bi_mod(ins, "preserve_null") <= 0;
   default:
      return false;
   }
}

/* The table of the image message ins: the default, or what a DTSEL_IMM in
 * the FMA half of the same tuple selects (0 attribute_1, 1 attribute_2). */
static int
message_table(const struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins)
{
   int table = named(ins, "lea_attr_tex") ? 1 : 0;
   uint32_t fma = c->clause->tuples[c->tuple].fma;
   int idx = bi_identify(fma, 0);

   if (idx >= 0 && bi_sems[idx].family == BI_FAM_DTSEL_IMM) {
      struct pan_sim_bi_ins d = { .word = fma,
                                  .unit = 0,
                                  .index = (unsigned)idx,
                                  .op = &bi_ops[idx],
                                  .sem = &bi_sems[idx] };
      table = pan_sim_bi_mod(&d, "table");
   }
   return table;
}

static enum bi_sim_result
exec_image(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins)
{
   const struct pan_sim_image_ops *img = c->cfg->image;
   bool lea = ins->sem->family == BI_FAM_LEA_ATTR;
   enum pan_sim_regfmt regfmt =
      pan_sim_regfmt_named(pan_sim_bi_mod_str(ins, "register_format", NULL));
   int v = pan_sim_bi_mod(ins, "vecsize");
   unsigned comps = v < 0 ? 1 : (unsigned)v + 1;
   unsigned n = lea ? 3 : pan_sim_regfmt_words(regfmt, comps);
   unsigned sr = (unsigned)(c->clause->header >> 18) & 63;
   int table = message_table(c, ins);

   if (!img || !img->address || !img->load)
      return pan_sim_bi_fault(c, ins,
                              "image access without image "
                              "descriptors (no attribute table)");
   if (table != 0)
      return pan_sim_bi_fault(c, ins,
                              "image in attribute table %d: only the "
                              "primary table (attribute_1) is modelled",
                              table + 1);
   if (pan_sim_bi_staging_ok(c, ins, sr, n))
      return BI_SIM_FAULT;
   bi_foreach_lane(c, l)
   {
      char err[PAN_SIM_IMAGE_ERR_LEN] = "";
      uint32_t xy = pan_sim_bi_src(c, ins, 0, l), out[4] = { 0 };
      uint32_t coord[3] = { xy & 0xffff, xy >> 16,
                            pan_sim_bi_src(c, ins, 1, l) };
      unsigned index = pan_sim_bi_src(c, ins, 2, l);
      bool ok =
         lea ? img->address(img->user, 0, index, coord, regfmt, out, err)
             : img->load(img->user, 0, index, coord, regfmt, comps, out, err);
      if (!ok)
         return pan_sim_bi_fault(c, ins, "lane %u: %s", l, err);
      memcpy(&c->w->r[l][sr], out, n * 4);
   }
   return BI_SIM_OK;
}

static enum bi_sim_result
exec_exchange(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins)
{
   const struct pan_sim_bi_config *cfg = c->cfg;
   const struct pan_sim_bi_mem *mem = &cfg->mem;
   bool cmp = ins->sem->family == BI_FAM_ACMPXCHG;
   bool wls = pan_sim_bi_mod_is(ins, "seg", "wls");
   unsigned sr = (unsigned)(c->clause->header >> 18) & 63;

   if (pan_sim_bi_staging_ok(c, ins, sr, cmp ? 2 : 1))
      return BI_SIM_FAULT;
   /* Lane by lane, in lane order: one lane's write is the next one's old
    * value, as the atomic unit serialises them. */
   bi_foreach_lane(c, l)
   {
      uint64_t addr = pan_sim_bi_src(c, ins, 0, l) |
                      (uint64_t)pan_sim_bi_src(c, ins, 1, l) << 32;
      uint32_t *r = &c->w->r[l][sr];
      uint32_t old;
      if (bi_sim_helper(c, l)) {
         r[0] = 0; /* no access: GL leaves the value undefined */
         continue;
      }
      if (wls) {
         if (addr > cfg->wls_size || 4 > cfg->wls_size - addr)
            return pan_sim_bi_fault(c, ins,
                                    "lane %u: atomic at offset 0x%llx beyond "
                                    "the %u bytes of workgroup-local storage",
                                    l, (unsigned long long)addr, cfg->wls_size);
         addr += cfg->wls_base;
      }
      if (!mem->read || !mem->read(mem->user, addr, &old, 4))
         return pan_sim_bi_fault(c, ins,
                                 "lane %u: atomic at 0x%llx not accessible", l,
                                 (unsigned long long)addr);
      if (!cmp || old == r[1]) {
         if (!mem->write || !mem->write(mem->user, addr, &r[0], 4))
            return pan_sim_bi_fault(c, ins,
                                    "lane %u: atomic at 0x%llx not writable", l,
                                    (unsigned long long)addr);
      }
      r[0] = old;
   }
   return BI_SIM_OK;
}

/* The operation of an atomic opcode: a one-operand one is the two-operand
 * one with a constant operand (*arg). */
static const char *
atom_op(const char *opc, uint32_t *arg)
{
   static const struct {
      const char *one, *two;
      uint32_t arg;
   } ones[] = {
      { "ainc", "aadd", 1 },     { "adec", "aadd", 0xffffffffu },
      { "aumax1", "aumax", 1 }, { "asmax1", "asmax", 1 },
      { "aor1", "aor", 1 },
   };
   for (unsigned i = 0; i < sizeof(ones) / sizeof(ones[0]); ++i) {
      if (!strcmp(opc, ones[i].one)) {
         *arg = ones[i].arg;
         return ones[i].two;
      }
   }
   return opc;
}

/* op(old, arg) and the operation's identity (op(x, identity) = x). */
static uint32_t
atom_apply(const char *op, uint32_t old, uint32_t arg, uint32_t *identity)
{
   int32_t a = (int32_t)old, b = (int32_t)arg;
   *identity = 0;
   if (!strcmp(op, "aadd"))
      return old + arg;
   if (!strcmp(op, "asmin"))
      return *identity = INT32_MAX, (uint32_t)(a < b ? a : b);
   if (!strcmp(op, "asmax"))
      return *identity = (uint32_t)INT32_MIN, (uint32_t)(a > b ? a : b);
   if (!strcmp(op, "aumin"))
      return *identity = UINT32_MAX, old < arg ? old : arg;
   if (!strcmp(op, "aumax"))
      return old > arg ? old : arg;
   if (!strcmp(op, "aand"))
      return *identity = UINT32_MAX, old & arg;
   if (!strcmp(op, "aor"))
      return old | arg;
   return old ^ arg; /* axor */
}

static enum bi_sim_result
exec_atom(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins)
{
   const struct pan_sim_bi_mem *mem = &c->cfg->mem;
   unsigned fam = ins->sem->family;
   bool one = fam == BI_FAM_ATOM1 || fam == BI_FAM_ATOM1_RETURN;
   bool ret = fam == BI_FAM_ATOM_RETURN || fam == BI_FAM_ATOM1_RETURN;
   unsigned sr = (unsigned)(c->clause->header >> 18) & 63;
   uint32_t one_arg = 0;
   const char *op =
      atom_op(pan_sim_bi_mod_str(ins, "atom_opc", "aadd"), &one_arg);

   if (ret && pan_sim_bi_staging_ok(c, ins, sr, 2))
      return BI_SIM_FAULT;
   /* Lane by lane, in lane order. */
   bi_foreach_lane(c, l)
   {
      uint64_t addr = pan_sim_bi_src(c, ins, 0, l) |
                      (uint64_t)pan_sim_bi_src(c, ins, 1, l) << 32;
      uint32_t arg = one ? one_arg : pan_sim_bi_src(c, ins, 2, l);
      uint32_t old, v, identity;
      if (bi_sim_helper(c, l)) {
         /* No access: GL leaves the value undefined. */
         if (ret)
            c->w->r[l][sr] = c->w->r[l][sr + 1] = 0;
         continue;
      }
      if (!mem->read || !mem->read(mem->user, addr, &old, 4))
         return pan_sim_bi_fault(c, ins,
                                 "lane %u: atomic at 0x%llx not accessible", l,
                                 (unsigned long long)addr);
      v = atom_apply(op, old, arg, &identity);
      if (!mem->write || !mem->write(mem->user, addr, &v, 4))
         return pan_sim_bi_fault(c, ins,
                                 "lane %u: atomic at 0x%llx not writable", l,
                                 (unsigned long long)addr);
      if (ret) {
         c->w->r[l][sr] = old;
         c->w->r[l][sr + 1] = identity;
      }
   }
   return BI_SIM_OK;
}

/* SEG_ADD.wls: each half adds its word of the shared memory's base. */
static enum bi_sim_result
exec_seg_add(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins)
{
   const struct pan_sim_bi_config *cfg = c->cfg;
   uint32_t base = ins->unit ? (uint32_t)(cfg->wls_base >> 32)
                             : (uint32_t)cfg->wls_base;

   if (!cfg->wls_size)
      return pan_sim_bi_fault(c, ins,
                              "shared-memory address without "
                              "workgroup-local storage");
   bi_foreach_lane(c, l) c->res[l] = base + pan_sim_bi_src(c, ins, 0, l);
   return BI_SIM_OK;
}

enum bi_sim_result
pan_sim_bi_exec_msg_image(struct pan_sim_bi_ctx *c,
                          const struct pan_sim_bi_ins *ins)
{
   if (!claims(ins))
      return BI_SIM_UNCLAIMED;
   if (!c)
      return BI_SIM_OK;
   switch (ins->sem->family) {
   case BI_FAM_DTSEL_IMM:
      bi_foreach_lane(c, l) c->res[l] = pan_sim_bi_src(c, ins, 0, l);
      return BI_SIM_OK;
   case BI_FAM_AXCHG:
   case BI_FAM_ACMPXCHG:
      return exec_exchange(c, ins);
   case BI_FAM_ATOM:
   case BI_FAM_ATOM_RETURN:
   case BI_FAM_ATOM1:
   case BI_FAM_ATOM1_RETURN:
      return exec_atom(c, ins);
   case BI_FAM_ATOM_CX:
      return BI_SIM_OK; /* the FMA half of its tuple did the work */
   case BI_FAM_SEG_ADD:
      return exec_seg_add(c, ins);
   default:
      return exec_image(c, ins);
   }
}
