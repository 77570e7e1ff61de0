/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Message instructions of the Bifrost interpreter: global loads and
 * stores through the caller's memory callbacks.  The staging registers
 * start at the clause header's data register (sr); the 64-bit address is
 * source 0 (low word) and source 1 (high word).  A load completes within
 * its tuple (waits are not modelled).  With the wls segment the address
 * pair is an offset into the workgroup's shared memory (the compiler puts
 * zero in the high word), bounds-checked against the caller's wls_size
 * and accessed through mem at wls_base + offset.  The tl segment is the
 * same with each thread's own slot of thread storage (tls_base plus the
 * thread index times the per-thread size).  Other segments (ubo...) are
 * refused; atomics and images are pan_sim_bi_msg_image.c's, graphics
 * messages and textures have files of their own.  Stores of fragment
 * helper lanes are dropped, except to their own thread storage (spills
 * that the quad's derivatives may read back).
 */

#include <string.h>

#include "pan_sim_bi_priv.h"

static unsigned
size_B(const struct pan_sim_bi_ins *ins)
{
   switch (ins->sem->src_type) {
   case BI_TYPE_I8:
      return 1;
   case BI_TYPE_I16:
      return 2;
   case BI_TYPE_I32:
      return 4;
   case BI_TYPE_I64:
      return 8;
   case BI_TYPE_I96:
      return 12;
   case BI_TYPE_I128:
      return 16;
   default:
      return 0;
   }
}

static bool
claims(const struct pan_sim_bi_ins *ins)
{
   unsigned fam = ins->sem->family;
   if (fam != BI_FAM_LOAD && fam != BI_FAM_STORE)
      return false;
   const char *seg = pan_sim_bi_mod_str(ins, "seg", "none");
   return size_B(ins) &&
          (!strcmp(seg, "none") || !strcmp(seg, "stream") ||
           !strcmp(seg, "wls") || !strcmp(seg, "tl")) &&
          pan_sim_bi_mod(ins, "lane_dest") < 0;
}

enum bi_sim_result
pan_sim_bi_exec_msg(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins)
{
   if (!claims(ins))
      return pan_sim_bi_exec_msg_image(c, ins); /* images and exchanges */
   if (!c)
      return BI_SIM_OK;
   const struct pan_sim_bi_config *cfg = c->cfg;
   const struct pan_sim_bi_mem *mem = &cfg->mem;
   bool store = ins->sem->family == BI_FAM_STORE;
   bool wls = pan_sim_bi_mod_is(ins, "seg", "wls");
   bool tl = pan_sim_bi_mod_is(ins, "seg", "tl");
   unsigned size = size_B(ins), regs = (size + 3) / 4;
   unsigned sr = (unsigned)(c->clause->header >> 18) & 63;
   if (pan_sim_bi_staging_ok(c, ins, sr, regs))
      return BI_SIM_FAULT;

   bi_foreach_lane(c, l)
   {
      uint64_t addr = pan_sim_bi_src(c, ins, 0, l) |
                      (uint64_t)pan_sim_bi_src(c, ins, 1, l) << 32;
      uint8_t buf[16] = { 0 };
      uint32_t *r = &c->w->r[l][sr];
      bool ok;
      if (store && !tl && bi_sim_helper(c, l))
         continue;
      if (wls || tl) {
         /* An offset into a window: the workgroup's or this thread's. */
         uint32_t window = wls ? cfg->wls_size : cfg->tls_thread_B;
         if (addr > window || size > window - addr)
            return pan_sim_bi_fault(c, ins,
                                    "lane %u: %u bytes at offset 0x%llx "
                                    "beyond the %u bytes of %s storage",
                                    l, size, (unsigned long long)addr, window,
                                    wls ? "workgroup-local"
                                        : "thread-local (per thread)");
         addr += wls ? cfg->wls_base
                     : cfg->tls_base +
                          (uint64_t)(cfg->tls_thread + l) * window;
      }
      if (store) {
         memcpy(buf, r, size);
         ok = mem->write && mem->write(mem->user, addr, buf, size);
      } else {
         ok = mem->read && mem->read(mem->user, addr, buf, size);
      }
      if (!ok)
         return pan_sim_bi_fault(c, ins,
                                 "lane %u: %u bytes at 0x%llx not "
                                 "accessible",
                                 l, size, (unsigned long long)addr);
      if (store)
         continue;
      if (size < 4) {
         uint32_t v = size == 1 ? buf[0] : (uint32_t)(buf[0] | buf[1] << 8);
         bool sext = pan_sim_bi_mod_is(ins, "extend", "sext");
         r[0] = sext ? bi_sim_sext(v, size * 8) : v;
      } else {
         memcpy(r, buf, size);
      }
   }
   return BI_SIM_OK;
}
