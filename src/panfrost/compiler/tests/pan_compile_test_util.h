/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * What the end-to-end compute tests of the Bifrost and Valhall compilers
 * share: the NIR that reads and writes their buffers, and the memory of a
 * run.  Push constants: u0:u1 input buffer address (IN_OFF), u2:u3 output
 * buffer address (OUT_OFF), u4.. parameters.  The includer defines
 * PAN_VA_TEST_MEM_SIZE (see pan_va_test_sim.h).
 */

#ifndef PAN_COMPILE_TEST_UTIL_H
#define PAN_COMPILE_TEST_UTIL_H

#include <string.h>

#include "compiler/nir/nir_builder.h"
#include "pan_compile.h"
#include "pan_va_test_sim.h"

#define IN_OFF 0
#define OUT_OFF 1024

static inline nir_builder
begin(const char *name)
{
   return nir_builder_init_simple_shader(MESA_SHADER_COMPUTE,
                                         &pan_va_nir_options, "%s", name);
}

/* The invocation's global id x: the lane in the tests' one warp. */
static inline nir_ssa_def *
id_x(nir_builder *b)
{
   return nir_channel(b, nir_load_global_invocation_id(b, 32), 0);
}

/* Push word w (bits 32 or 64). */
static inline nir_ssa_def *
push_word(nir_builder *b, unsigned w, unsigned bits)
{
   return nir_load_push_constant(b, 1, bits, nir_imm_int(b, 0), .base = w * 4,
                                 .range = 64);
}

static inline nir_ssa_def *
param(nir_builder *b, unsigned w)
{
   return push_word(b, w, 32);
}

/* Address of element `index` (of size_B bytes) of buffer at push word w. */
static inline nir_ssa_def *
elem_addr(nir_builder *b, unsigned w, nir_ssa_def *index, unsigned size_B)
{
   nir_ssa_def *base = push_word(b, w, 64);
   return nir_iadd(b, base, nir_u2u64(b, nir_imul_imm(b, index, size_B)));
}

static inline nir_ssa_def *
load_in(nir_builder *b, nir_ssa_def *index, unsigned comps)
{
   return nir_load_global(b, elem_addr(b, 0, index, 4 * comps), 4, comps, 32);
}

static inline void
store_out(nir_builder *b, nir_ssa_def *index, nir_ssa_def *v)
{
   nir_store_global(b, elem_addr(b, 2, index, 4 * v->num_components), 4, v,
                    nir_component_mask(v->num_components));
}

/* The memory of a run, in[] at IN_OFF and zeros elsewhere, and its 16 push
 * words u: the buffers' addresses, then prm[]. */
static inline struct mem *
io_setup(const uint32_t *in, unsigned in_words, const uint32_t *prm,
         unsigned nr_prm, uint32_t u[16])
{
   static struct mem m;
   memset(&m, 0, sizeof(m));
   memcpy(m.bytes + IN_OFF, in, in_words * 4);
   memset(u, 0, 16 * sizeof(u[0]));
   u[0] = (uint32_t)(MEM_BASE + IN_OFF);
   u[2] = (uint32_t)(MEM_BASE + OUT_OFF);
   if (nr_prm)
      memcpy(u + 4, prm, nr_prm * 4);
   return &m;
}

/* Checks that the Valhall compiler refuses the shader (which it frees)
 * with an error containing `want`. */
static inline void
expect_va_refusal(nir_shader *shader, const char *want, const char *what)
{
   void *ctx = ralloc_context(NULL);
   struct pan_va_binary bin;
   char err[256] = "";
   PAN_CHECK(!pan_va_compile(shader, ctx, &bin, NULL, err, sizeof(err)) &&
                strstr(err, want),
             "%s: '%s'", what, err);
   ralloc_free(ctx);
   ralloc_free(shader);
}

#endif
