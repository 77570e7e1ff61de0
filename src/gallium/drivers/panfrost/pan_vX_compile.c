/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The architecture's compiler behind one signature, compiled once per
 * PAN_ARCH: Valhall words on v9, Bifrost clauses on v6/v7.  Both take the
 * same NIR (pan_va_nir_options) and report the same push table.
 */

#include <stdio.h>
#include <string.h>

#include "pan_arch.h"
#include "pan_compile.h"
#include "util/ralloc.h"
#include "pan_genxml.h"

bool PAN_GENX(panfrost_compile)(struct nir_shader *nir, void *mem_ctx,
                                unsigned variant, struct panfrost_binary *out,
                                char *err, size_t err_size);
bool PAN_GENX(panfrost_compile_blend)(struct nir_shader *nir, void *mem_ctx,
                                      const void *blend,
                                      struct panfrost_binary *out, char *err,
                                      size_t err_size);

static bool
compile(struct nir_shader *nir, void *mem_ctx, unsigned variant,
        const struct pan_va_blend_options *blend, struct panfrost_binary *out,
        char *err, size_t err_size)
{
   unsigned debug = pan_compiler_debug();
   FILE *print_ir = (debug & PAN_COMPILER_DEBUG_SHADERS) ? stderr : NULL;
   const char *stage = pan_shaderdb_stage_name(nir->info.stage, variant);

   if (print_ir) {
      fprintf(stderr, "-- NIR (%s)\n", stage);
      nir_print_shader(nir, stderr);
   }
#if PAN_ARCH >= 9
   struct pan_va_binary *bin = ralloc(mem_ctx, struct pan_va_binary);
   struct pan_va_compile_options opts = { .variant = variant,
                                          .blend = blend };

   if (!bin ||
       !pan_va_compile_opts(nir, mem_ctx, &opts, bin, print_ir, err, err_size))
      return false;
   out->tls_size = bin->tls_size;
   for (unsigned rt = 0; rt < 8; ++rt) {
      out->blend_colour[rt] = bin->blend_regs[rt].colour;
      out->blend_colour1[rt] = bin->blend_regs[rt].colour1;
      out->blend_coverage[rt] = bin->blend_regs[rt].coverage;
      out->blend_return[rt] = 0; /* v9 calls from the code */
   }
   pan_va_shaderdb_line(bin, stage, out->shaderdb, sizeof(out->shaderdb));
#else
   struct pan_bi_binary *bin = ralloc(mem_ctx, struct pan_bi_binary);
   struct pan_bi_compile_options opts = { .arch = PAN_ARCH,
                                          .variant = variant,
                                          .blend = blend };

   if (!bin ||
       !pan_bi_compile(nir, mem_ctx, &opts, bin, print_ir, err, err_size))
      return false;
   out->tls_size = bin->tls_size;
   out->int_varyings = bin->int_varyings;
   for (unsigned rt = 0; rt < 8; ++rt) {
      out->blend_colour[rt] = bin->blend_regs[rt].colour;
      out->blend_colour1[rt] = bin->blend_regs[rt].colour1;
      out->blend_coverage[rt] = bin->blend_regs[rt].coverage;
      out->blend_return[rt] = bin->blend_return[rt];
   }
   for (unsigned k = 0; k < 2; ++k) {
      const struct pan_bi_message_preload *m = &bin->messages[k];
      out->messages[k] = (struct panfrost_message_preload){
         .varying = m->varying,
         .slot = m->slot,
         .comps = m->comps,
         .texture_index = m->texture_index,
         .texture = m->texture,
         .zero_lod = m->zero_lod,
      };
   }
   pan_bi_shaderdb_line(bin, PAN_ARCH, stage, out->shaderdb,
                        sizeof(out->shaderdb));
#endif
   out->words = bin->words;
   out->nr_words = bin->nr_words;
   out->work_regs = bin->work_regs;
   out->push = bin->push;
   out->nr_push = bin->nr_push;
   return true;
}

bool
PAN_GENX(panfrost_compile)(struct nir_shader *nir, void *mem_ctx,
                           unsigned variant, struct panfrost_binary *out,
                           char *err, size_t err_size)
{
   return compile(nir, mem_ctx, variant, NULL, out, err, err_size);
}

bool
PAN_GENX(panfrost_compile_blend)(struct nir_shader *nir, void *mem_ctx,
                                 const void *blend,
                                 struct panfrost_binary *out, char *err,
                                 size_t err_size)
{
   return compile(nir, mem_ctx, PAN_VA_VARIANT_DEFAULT, blend, out, err,
                  err_size);
}
