/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Shared by the Bifrost interpreter tests: assemble a program with
 * pan_bi_assemble and run it on a warp with a small flat memory.
 */

#ifndef PAN_SIM_BI_TEST_RUN_H
#define PAN_SIM_BI_TEST_RUN_H

#include <stdlib.h>
#include <string.h>

#include "isa/pan_isa_bi.h"
#include "util/pan_test_util.h"
#include "pan_sim_bi.h"

#define BI_TEST_MEM_VA 0x10000ull
/* GPU address of the program: branch targets are absolute addresses. */
#define BI_TEST_CODE_VA 0x200000u
#define BI_TEST_MEM_B 4096

struct bi_test_prog {
   uint64_t words[2 * 64];
   unsigned quads;
   uint8_t mem[BI_TEST_MEM_B];
   uint32_t uniforms[16];
   struct pan_sim_bi_config cfg;
};

static bool
bi_test_read(void *user, uint64_t addr, void *data, unsigned size)
{
   struct bi_test_prog *p = user;
   if (addr < BI_TEST_MEM_VA || addr + size > BI_TEST_MEM_VA + BI_TEST_MEM_B)
      return false;
   memcpy(data, p->mem + (addr - BI_TEST_MEM_VA), size);
   return true;
}

static bool
bi_test_write(void *user, uint64_t addr, const void *data, unsigned size)
{
   struct bi_test_prog *p = user;
   if (addr < BI_TEST_MEM_VA || addr + size > BI_TEST_MEM_VA + BI_TEST_MEM_B)
      return false;
   memcpy(p->mem + (addr - BI_TEST_MEM_VA), data, size);
   return true;
}

/* Assemble text into p (zeroing it); false with a reported failure. */
static bool
bi_test_assemble(struct bi_test_prog *p, const char *text)
{
   struct pan_isa_bytes out = { 0 };
   char err[256] = "";
   memset(p, 0, sizeof(*p));
   int r = pan_bi_assemble(text, strlen(text), &out, err, sizeof(err));
   bool ok = !r && out.size_B <= sizeof(p->words);
   if (ok) {
      memcpy(p->words, out.data, out.size_B);
      p->quads = (unsigned)(out.size_B / 16);
   } else {
      pan_test_fail("cannot assemble (%s):\n%s", err, text);
   }
   pan_isa_bytes_free(&out);
   p->cfg = (struct pan_sim_bi_config){
      .program = p->words,
      .program_quads = p->quads,
      .program_va = BI_TEST_CODE_VA,
      .uniforms = p->uniforms,
      .uniform_words = 16,
      .mem = { p, bi_test_read, bi_test_write },
      .lanes = PAN_SIM_BI_LANES_G52,
   };
   return ok;
}

#endif
