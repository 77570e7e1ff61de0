/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * What the end-to-end compute tests of both back ends (pan_global_store,
 * pan_shared, pan_atomic) do once their shader is built and their memory
 * set up: compile it for one architecture and run it as one warp on that
 * architecture's interpreter, resuming at barriers.  The includer defines
 * PAN_VA_TEST_MEM_SIZE and includes pan_compile_test_util.h first.
 */

#ifndef PAN_COMPUTE_TEST_RUN_H
#define PAN_COMPUTE_TEST_RUN_H

#include <stdio.h>

#include "isa/pan_isa_va_encode.h"
#include "pan_bi_test_sim.h"
#include "pan_compile.h"
#include "pan_sim_bi.h"
#include "pan_sim_va.h"
#include "util/pan_test_util.h"

struct compute_run {
   unsigned arch;  /* 9: Valhall (a 16-lane warp); 6, 7: Bifrost */
   unsigned lanes; /* Bifrost: the warp's lanes */
   FILE *print;    /* the IR after each pass, or NULL */
   /* Workgroup memory at this offset of the test memory, when shared_B
    * (Valhall: workgroup_local_pointer; Bifrost: the wls segment). */
   unsigned shared_off, shared_B;
   unsigned barriers; /* set: the barriers the run stopped at */
};

/* Compiles s for r->arch and runs it over m with the 16 push words u.
 * false with the compiler's message or "fault: ..." in err. */
static inline bool
compute_run(struct compute_run *r, nir_shader *s, struct mem *m,
            const uint32_t *u, char *err, size_t err_size)
{
   void *ctx = ralloc_context(NULL);
   bool ok;
   r->barriers = 0;
   if (r->arch >= 9) {
      struct pan_va_binary bin;
      ok = pan_va_compile(s, ctx, &bin, r->print, err, err_size);
      if (ok) {
         struct pan_sim_va_config cfg = sim_config(&bin, m, u, 16);
         if (r->shared_B) {
            uint8_t page, entry;
            PAN_EXPECT(
               pan_va_special_lookup("workgroup_local_pointer", &page, &entry));
            cfg.special[page][entry] = MEM_BASE + r->shared_off;
         }
         struct pan_sim_va_warp w;
         compute_warp_init(&w);
         enum pan_sim_va_status st;
         while ((st = pan_sim_va_run(&w, &cfg)) == PAN_SIM_VA_BARRIER)
            r->barriers++;
         ok = st == PAN_SIM_VA_DONE;
         if (!ok)
            snprintf(err, err_size, "fault: %s", w.fault);
      }
   } else {
      struct pan_bi_compile_options opts = { .arch = r->arch };
      struct pan_bi_binary bin;
      ok = pan_bi_compile(s, ctx, &opts, &bin, r->print, err, err_size);
      if (ok) {
         struct pan_sim_bi_config cfg;
         struct pan_sim_bi_warp w;
         bi_test_setup(&cfg, &w, &bin, u, m, r->lanes);
         if (r->shared_B) {
            cfg.wls_base = MEM_BASE + r->shared_off;
            cfg.wls_size = r->shared_B;
         }
         enum pan_sim_bi_status st;
         while ((st = pan_sim_bi_run(&w, &cfg)) == PAN_SIM_BI_BARRIER)
            r->barriers++;
         ok = st == PAN_SIM_BI_DONE;
         if (!ok)
            snprintf(err, err_size, "fault: %s", w.fault);
      }
   }
   ralloc_free(ctx);
   return ok;
}

#endif
