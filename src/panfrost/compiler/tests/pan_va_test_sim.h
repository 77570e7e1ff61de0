/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * What the Valhall compiler tests share to run a compiled program on the
 * interpreter: one flat memory at MEM_BASE, the configuration of a run and
 * the compute warp.  The includer defines PAN_VA_TEST_MEM_SIZE, the bytes
 * its inputs and outputs need, so that an access past them still faults.
 */

#ifndef PAN_VA_TEST_SIM_H
#define PAN_VA_TEST_SIM_H

#include <string.h>

#include "pan_compile.h"
#include "pan_sim_va.h"

#ifndef PAN_VA_TEST_MEM_SIZE
#error "define PAN_VA_TEST_MEM_SIZE before including pan_va_test_sim.h"
#endif

#define LANES PAN_SIM_VA_LANES
#define MEM_BASE 0x100000ull

struct mem {
   uint8_t bytes[PAN_VA_TEST_MEM_SIZE];
};

static bool
mem_read(void *user, uint64_t addr, void *data, unsigned size)
{
   struct mem *m = user;
   if (addr < MEM_BASE || addr - MEM_BASE + size > sizeof(m->bytes))
      return false;
   memcpy(data, m->bytes + (addr - MEM_BASE), size);
   return true;
}

static bool
mem_write(void *user, uint64_t addr, const void *data, unsigned size)
{
   struct mem *m = user;
   if (addr < MEM_BASE || addr - MEM_BASE + size > sizeof(m->bytes))
      return false;
   memcpy(m->bytes + (addr - MEM_BASE), data, size);
   return true;
}

/* A run of bin over m with the uniform words u. */
static inline struct pan_sim_va_config
sim_config(const struct pan_va_binary *bin, struct mem *m, const uint32_t *u,
           unsigned uniform_words)
{
   return (struct pan_sim_va_config){
      .program = bin->words,
      .program_words = bin->nr_words,
      .program_va = 0x800000,
      .uniforms = u,
      .uniform_words = uniform_words,
      .mem = { m, mem_read, mem_write },
   };
}

/* The words the driver pushes for the compiler's constants
 * (PAN_VA_PUSH_CONSTANT) into u, of n words. */
static inline void
fill_push_constants(const struct pan_va_binary *bin, uint32_t *u, unsigned n)
{
   for (unsigned i = 0; i < bin->nr_push && i < n; ++i) {
      if (bin->push[i].source == PAN_VA_PUSH_CONSTANT)
         u[i] = bin->push[i].offset_B;
   }
}

/* A full warp whose lane l is global invocation (l, 0, 0): register r60,
 * the compute ABI. */
static inline void
compute_warp_init(struct pan_sim_va_warp *w)
{
   pan_sim_va_warp_init(w, 0xffff);
   for (unsigned l = 0; l < LANES; ++l)
      w->r[l][60] = l;
}

#endif
