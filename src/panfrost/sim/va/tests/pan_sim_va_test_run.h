/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Shared helpers of the Valhall interpreter tests: assemble a program in
 * our syntax, run it on one warp, and a small flat memory.
 */

#ifndef PAN_SIM_VA_TEST_RUN_H
#define PAN_SIM_VA_TEST_RUN_H

#include <stdlib.h>
#include <string.h>

#include "isa/pan_isa_va.h"
#include "pan_sim_va.h"
#include "util/pan_test_util.h"

#define TEST_MEM_BASE 0x10000ull
#define TEST_MEM_SIZE 4096

struct test_mem {
   uint8_t bytes[TEST_MEM_SIZE];
};

static bool
test_mem_read(void *user, uint64_t addr, void *data, unsigned size)
{
   struct test_mem *m = user;
   if (addr < TEST_MEM_BASE || addr - TEST_MEM_BASE + size > TEST_MEM_SIZE)
      return false;
   memcpy(data, m->bytes + (addr - TEST_MEM_BASE), size);
   return true;
}

static bool
test_mem_write(void *user, uint64_t addr, const void *data, unsigned size)
{
   struct test_mem *m = user;
   if (addr < TEST_MEM_BASE || addr - TEST_MEM_BASE + size > TEST_MEM_SIZE)
      return false;
   memcpy(m->bytes + (addr - TEST_MEM_BASE), data, size);
   return true;
}

struct test_prog {
   struct pan_isa_bytes bytes;
   struct pan_sim_va_config cfg;
};

/* Assemble text; a failure is reported and leaves an empty program. */
static bool
test_assemble(struct test_prog *p, const char *text)
{
   char err[256];

   memset(p, 0, sizeof(*p));
   if (pan_va_assemble(text, strlen(text), &p->bytes, err, sizeof(err))) {
      pan_test_fail("assembling \"%s\": %s", text, err);
      return false;
   }
   p->cfg.program = (const uint64_t *)p->bytes.data;
   p->cfg.program_words = p->bytes.size_B / 8;
   p->cfg.program_va = 0x800000;
   return true;
}

static void
test_prog_free(struct test_prog *p)
{
   pan_isa_bytes_free(&p->bytes);
}

/* Run on w; a fault is reported when not expected. */
static enum pan_sim_va_status
test_run(struct test_prog *p, struct pan_sim_va_warp *w)
{
   enum pan_sim_va_status s = pan_sim_va_run(w, &p->cfg);
   if (s != PAN_SIM_VA_DONE)
      pan_test_fail("unexpected fault: %s", w->fault);
   return s;
}

/*
 * Assemble once, then run: lanes read in[l][0..3] from r0..r3 and the
 * program leaves results in r4/r5 (out[l][0..1]).
 */
struct test_kernel {
   struct test_prog p;
   bool ok;
};

static bool
test_kernel_init(struct test_kernel *k, const char *text)
{
   k->ok = test_assemble(&k->p, text);
   return k->ok;
}

static bool
test_kernel_run(struct test_kernel *k, uint32_t in[PAN_SIM_VA_LANES][4],
                uint32_t out[PAN_SIM_VA_LANES][2])
{
   struct pan_sim_va_warp w;

   if (!k->ok)
      return false;
   pan_sim_va_warp_init(&w, 0xffff);
   for (unsigned l = 0; l < PAN_SIM_VA_LANES; ++l) {
      memcpy(w.r[l], in[l], 16);
   }
   if (test_run(&k->p, &w) != PAN_SIM_VA_DONE)
      return false;
   for (unsigned l = 0; l < PAN_SIM_VA_LANES; ++l) {
      out[l][0] = w.r[l][4];
      out[l][1] = w.r[l][5];
   }
   return true;
}

#endif
