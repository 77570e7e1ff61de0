/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Message families.  Global loads, stores and atomics go through the
 * caller's memory callbacks, lane by lane in lane order; atomics are a
 * read followed by a write, which is atomic because the simulator runs one
 * warp at a time.  Fragment helper lanes store nothing and make no atomic
 * access (their returned value is zero), except to their own thread
 * storage (spills the quad's derivatives may read back).  Messages that
 * need descriptors are the executors' (pan_sim_va_msg_gfx.c,
 * pan_sim_va_msg_tex.c).
 */

#include <stdio.h>
#include <string.h>

#include "pan_sim_va_priv.h"

static enum va_sim_result
mem_access(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
           uint64_t addr, void *data, unsigned size, bool write)
{
   const struct pan_sim_va_mem *m = &c->cfg->mem;
   bool ok = write ? m->write && m->write(m->user, addr, data, size)
                   : m->read && m->read(m->user, addr, data, size);
   if (!ok)
      return pan_sim_va_fault(c, ins, "%s of %u bytes at 0x%llx failed",
                              write ? "write" : "read", size,
                              (unsigned long long)addr);
   return VA_SIM_OK;
}

/* The address lane reads, ~0 (with the fault set) when a thread storage
 * access leaves its thread's slot. */
static uint64_t
address(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
        unsigned lane, unsigned bytes)
{
   uint64_t addr = pan_sim_va_src64(c, ins, 0, lane) +
                   (uint64_t)pan_sim_va_imm(ins, "offset");
   const struct pan_sim_va_config *cfg = c->cfg;
   if (!cfg->tls_thread_B ||
       strcmp(pan_sim_va_mod_str(ins, "memaccess", "none"), "force"))
      return addr;
   uint64_t base = cfg->special[1][1], o = addr - base;
   if (addr < base || o + bytes > cfg->tls_thread_B ||
       (o & 15) + bytes > 16) {
      pan_sim_va_fault(c, ins,
                       "thread storage access of %u bytes at offset 0x%llx "
                       "(slot of %u bytes, 16-byte lines)",
                       bytes, (unsigned long long)o, cfg->tls_thread_B);
      return ~0ull;
   }
   return base + (uint64_t)(cfg->tls_thread + lane) * cfg->tls_thread_B + o;
}

/* Where a loaded value goes, by the ldlaneN modifier. */
static enum va_sim_result
place(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins, unsigned lane,
      const uint8_t *data, unsigned bytes)
{
   /* Literal names: modifier lookups are remembered by address. */
   static const char *const ldlane[17] = {
      [1] = "ldlane8",   [2] = "ldlane16",  [3] = "ldlane24",
      [4] = "ldlane32",  [6] = "ldlane48",  [8] = "ldlane64",
      [12] = "ldlane96", [16] = "ldlane128",
   };
   unsigned reg, count, need;
   uint32_t *r = c->w->r[lane];
   uint64_t v = 0;
   bool is_signed = pan_sim_va_mod(ins, "unsigned") != 1;

   const char *name = bytes <= 16 ? ldlane[bytes] : NULL;
   const char *mode =
      name ? pan_sim_va_mod_str(ins, name, "identity") : "identity";
   pan_sim_va_staging(ins, 0, &reg, &count);
   memcpy(&v, data, bytes < 8 ? bytes : 8);

   if (mode[0] == 'b' || mode[0] == 'h') {
      unsigned w = mode[0] == 'b' ? 8 : 16, at = (mode[1] - '0') * w;
      if (count < 1)
         return pan_sim_va_fault(c, ins, "empty staging vector");
      uint64_t e = is_signed ? va_sim_sext(v, bytes * 8) : v;
      uint32_t m = (uint32_t)va_sim_mask(w) << at;
      r[reg] = (r[reg] & ~m) | (((uint32_t)e << at) & m);
      return VA_SIM_OK;
   }
   if (!strcmp(mode, "w0") || !strcmp(mode, "d0")) {
      need = mode[0] == 'w' ? 1 : 2;
      if (is_signed)
         v = va_sim_sext(v, bytes * 8);
      if (count < need)
         return pan_sim_va_fault(c, ins, "staging vector too short");
      r[reg] = v;
      if (need == 2)
         r[reg + 1] = v >> 32;
      return VA_SIM_OK;
   }
   /* identity: the bytes fill whole registers, the last word extended */
   need = (bytes + 3) / 4;
   if (count < need)
      return pan_sim_va_fault(c, ins, "staging vector too short");
   for (unsigned i = 0; i < need; ++i) {
      uint32_t word = 0;
      unsigned n = bytes - 4 * i < 4 ? bytes - 4 * i : 4;
      memcpy(&word, data + 4 * i, n);
      if (n < 4 && is_signed)
         word = va_sim_sext(word, n * 8);
      r[reg + i] = word;
   }
   return VA_SIM_OK;
}

static enum va_sim_result
load_store(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins)
{
   unsigned bytes = va_types[ins->sem->dtype].bits / 8;
   bool store = ins->sem->family == VA_FAM_STORE;
   bool own = c->cfg->tls_thread_B &&
              !strcmp(pan_sim_va_mod_str(ins, "memaccess", "none"), "force");

   foreach_lane(c, l)
   {
      uint8_t data[16] = { 0 };
      if (store && !own && va_sim_helper(c, l))
         continue;
      uint64_t addr = address(c, ins, l, bytes);
      if (addr == ~0ull)
         return VA_SIM_FAULT;
      if (store) {
         unsigned reg, count;
         pan_sim_va_staging(ins, 0, &reg, &count);
         if (count * 4 < bytes)
            return pan_sim_va_fault(c, ins, "staging vector too short");
         memcpy(data, &c->w->r[l][reg], bytes);
         if (mem_access(c, ins, addr, data, bytes, true))
            return VA_SIM_FAULT;
      } else {
         if (mem_access(c, ins, addr, data, bytes, false) ||
             place(c, ins, l, data, bytes))
            return VA_SIM_FAULT;
      }
   }
   return VA_SIM_OK;
}

/* New memory value of an atomic; *ok false for an unknown operation. */
static uint64_t
atomic_op(const char *op, uint64_t old, uint64_t arg, unsigned bits, bool *ok)
{
   int64_t so = va_sim_sext(old, bits), sa = va_sim_sext(arg, bits);

   *ok = true;
   if (!strcmp(op, "aadd"))
      return old + arg;
   if (!strcmp(op, "asmin"))
      return so < sa ? old : arg;
   if (!strcmp(op, "asmax"))
      return so > sa ? old : arg;
   if (!strcmp(op, "aumin"))
      return old < arg ? old : arg;
   if (!strcmp(op, "aumax"))
      return old > arg ? old : arg;
   if (!strcmp(op, "aand"))
      return old & arg;
   if (!strcmp(op, "aor"))
      return old | arg;
   if (!strcmp(op, "axor"))
      return old ^ arg;
   if (!strcmp(op, "axchg"))
      return arg;
   if (!strcmp(op, "ainc"))
      return old + 1;
   if (!strcmp(op, "adec"))
      return old - 1;
   if (!strcmp(op, "aumax1"))
      return old > 1 ? old : 1;
   if (!strcmp(op, "asmax1"))
      return so > 1 ? old : 1;
   if (!strcmp(op, "aor1"))
      return old | 1;
   *ok = false;
   return 0;
}

static enum va_sim_result
atomic(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins)
{
   unsigned fam = ins->sem->family;
   unsigned bits = va_types[ins->sem->dtype].bits, words = bits / 32;
   const char *op = fam == VA_FAM_ATOM1_RETURN
                       ? pan_sim_va_mod_str(ins, "atom1", NULL)
                       : pan_sim_va_mod_str(ins, "atom", NULL);
   /* Staging: atom reads [0]; atom_return writes [0] and reads [1];
    * atom1_return only writes [0].  A compare-and-swap (atom_return
    * .axchg.compare) reads the new value, then the comparand. */
   int rd = fam == VA_FAM_ATOM ? 0 : fam == VA_FAM_ATOM_RETURN ? 1 : -1;
   int wr = fam == VA_FAM_ATOM ? -1 : 0;
   bool cmp = pan_sim_va_mod(ins, "compare") == 1;
   unsigned reg, count;
   bool ok;

   if (!op)
      return pan_sim_va_fault(c, ins, "no atomic operation");
   if (cmp && (fam != VA_FAM_ATOM_RETURN || strcmp(op, "axchg")))
      return pan_sim_va_fault(c, ins, "compare without axchg");
   atomic_op(op, 0, 0, bits, &ok);
   if (!ok)
      return pan_sim_va_refuse(c, ins, op);
   for (int k = 0; k < 2; ++k) {
      if ((k == rd || k == wr) && k < (int)ins->nr_staging) {
         pan_sim_va_staging(ins, k, &reg, &count);
         if (count < (k == rd && cmp ? 2 * words : words))
            return pan_sim_va_fault(c, ins, "staging vector too short");
      }
   }

   foreach_lane(c, l)
   {
      if (va_sim_helper(c, l)) {
         if (wr >= 0) {
            pan_sim_va_staging(ins, wr, &reg, &count);
            memset(&c->w->r[l][reg], 0, words * 4);
         }
         continue;
      }
      uint64_t addr = address(c, ins, l, bits / 8), old = 0, arg = 0,
               want = 0;
      if (addr == ~0ull || mem_access(c, ins, addr, &old, bits / 8, false))
         return VA_SIM_FAULT;
      if (rd >= 0) {
         pan_sim_va_staging(ins, rd, &reg, &count);
         const uint32_t *r = &c->w->r[l][reg];
         arg = r[0] | (words == 2 ? (uint64_t)r[1] << 32 : 0);
         if (cmp)
            want = r[words] | (words == 2 ? (uint64_t)r[3] << 32 : 0);
      }
      uint64_t nv = atomic_op(op, old, arg, bits, &ok) & va_sim_mask(bits);
      if ((!cmp || old == want) &&
          mem_access(c, ins, addr, &nv, bits / 8, true))
         return VA_SIM_FAULT;
      if (wr >= 0) {
         pan_sim_va_staging(ins, wr, &reg, &count);
         c->w->r[l][reg] = old;
         if (words == 2)
            c->w->r[l][reg + 1] = old >> 32;
      }
   }
   return VA_SIM_OK;
}

enum va_sim_result
pan_sim_va_exec_msg(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins)
{
   switch (ins->sem->family) {
   case VA_FAM_LOAD:
   case VA_FAM_STORE:
      return load_store(c, ins);
   case VA_FAM_ATOM:
   case VA_FAM_ATOM_RETURN:
   case VA_FAM_ATOM1_RETURN:
      return atomic(c, ins);
   case VA_FAM_TEX:
      return pan_sim_va_exec_msg_tex(c, ins);
   default: {
      /* Images share families with the attribute messages. */
      enum va_sim_result r = pan_sim_va_exec_msg_image(c, ins);
      return r != VA_SIM_UNCLAIMED ? r : pan_sim_va_exec_msg_gfx(c, ins);
   }
   }
}
