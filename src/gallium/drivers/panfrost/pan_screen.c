/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include <stdio.h>
#include <unistd.h>

#include "compiler/nir/nir.h"
#include "util/log.h"
#include "util/u_memory.h"
#include "util/u_screen.h"

#include "pan_arch.h"
#include "pan_bo.h"
#include "pan_compile.h"
#include "mid_compile.h"
#include "pan_fb.h"
#include "pan_public.h"
#include "pan_resource.h"
#include "pan_screen.h"
#include "pan_shader_cache.h"
#include "pan_submit_debug.h"

static const struct debug_named_value panfrost_debug_options[] = {
   { "trace", PANFROST_DBG_TRACE, "Decode every submitted job chain" },
   { "dump", PANFROST_DBG_DUMP, "Write raw memory dumps of every submit" },
   { "sync", PANFROST_DBG_SYNC, "Wait for every submit and report faults" },
   { "msgs", PANFROST_DBG_MSGS, "Print driver messages" },
   { "noafbc", PANFROST_DBG_NOAFBC, "Never compress render targets (AFBC)" },
   DEBUG_NAMED_VALUE_END,
};

DEBUG_GET_ONCE_FLAGS_OPTION(panfrost_debug, "PAN_MESA_DEBUG",
                            panfrost_debug_options, 0)

static void
panfrost_log(void *data, const char *msg)
{
   mesa_loge("panfrost: %s", msg);
}

/* trace and dump are the decoder's, hooked on the device's submit path. */
static void
panfrost_install_submit_debug(struct panfrost_screen *screen)
{
   uint32_t flags = 0;

   if (screen->debug & PANFROST_DBG_TRACE)
      flags |= PAN_SUBMIT_DEBUG_TRACE;
   if (screen->debug & PANFROST_DBG_DUMP)
      flags |= PAN_SUBMIT_DEBUG_DUMP;
   pan_submit_debug_install(&screen->dev, flags);
}

static const char *
panfrost_get_name(struct pipe_screen *pscreen)
{
   return panfrost_screen(pscreen)->renderer;
}

static const char *
panfrost_get_vendor(struct pipe_screen *pscreen)
{
   return "Mesa";
}

static const char *
panfrost_get_device_vendor(struct pipe_screen *pscreen)
{
   return "Arm";
}

/* What the NIR front end should hand the back-end compilers. Both Bifrost
 * and Valhall are scalar machines with fused multiply-add and no native
 * division or 64-bit arithmetic. */
static const nir_shader_compiler_options panfrost_nir_options = {
   /* GL uniforms become constant buffer 0, which the compiler pushes. */
   .lower_uniforms_to_ubo = true,

   /* Arithmetic the ALUs lack. */
   .lower_fdiv = true,
   .lower_fmod = true,
   .lower_ffract = true,
   .lower_ldexp = true,
   .lower_fsign = true,
   .lower_isign = true,
   .lower_scmp = true,
   .lower_hadd = true,
   .lower_uadd_carry = true,
   .lower_usub_borrow = true,
   .lower_uadd_sat = true,
   .lower_usub_sat = true,
   .lower_iadd_sat = true,
   .lower_flrp16 = true,
   .lower_flrp32 = true,
   .lower_flrp64 = true,
   .lower_int64_options = ~0,
   .lower_doubles_options = ~0,

   /* Bit-field and byte/word moves become shifts and masks. */
   .lower_bitfield_extract = true,
   .lower_bitfield_insert = true,
   .lower_extract_byte = true,
   .lower_insert_byte = true,
   .lower_extract_word = true,
   .lower_insert_word = true,

   /* GLSL packing built-ins, each direction of each format. */
   .lower_pack_half_2x16 = true,
   .lower_unpack_half_2x16 = true,
   .lower_pack_unorm_2x16 = true,
   .lower_unpack_unorm_2x16 = true,
   .lower_pack_snorm_2x16 = true,
   .lower_unpack_snorm_2x16 = true,
   .lower_pack_unorm_4x8 = true,
   .lower_unpack_unorm_4x8 = true,
   .lower_pack_snorm_4x8 = true,
   .lower_unpack_snorm_4x8 = true,

   /* What the hardware does have. */
   .fuse_ffma16 = true,
   .fuse_ffma32 = true,
   .fuse_ffma64 = true,

   /* What our Valhall compiler lowers itself (pan_va_nir_options): the
    * frontend must not hand it these either.
    */
   .lower_fsat = true,
   .lower_fpow = true,
   .lower_fsqrt = true,
   .lower_fdph = true,
   .lower_bitops = true,
   .lower_rotate = true,

   .lower_device_index_to_zero = true,
   .use_interpolated_input_intrinsics = true,
   .vertex_id_zero_based = true,
   .max_unroll_iterations = 32,
   .force_indirect_unrolling =
      nir_var_shader_in | nir_var_shader_out | nir_var_function_temp,
};

static const void *
panfrost_get_compiler_options(struct pipe_screen *pscreen,
                              enum pipe_shader_ir ir,
                              enum pipe_shader_type shader)
{
   /* Midgard shaders go to our Midgard compiler (pan_midgard.c). */
   if (panfrost_screen(pscreen)->dev.arch <= 5)
      return &mid_nir_options;
   /* Compute shaders go to our Valhall compiler, built for its options. */
   if (shader == PIPE_SHADER_COMPUTE && panfrost_screen(pscreen)->arch)
      return &pan_va_nir_options;
   return &panfrost_nir_options;
}

static void
panfrost_destroy_screen(struct pipe_screen *pscreen)
{
   struct panfrost_screen *screen = panfrost_screen(pscreen);
   int fd = screen->dev.fd;

   panfrost_shader_cache_fini(screen);
   pan_bo_unref(screen->sample_positions);
   panfrost_staging_free(screen->staging_cache);
   pan_device_close(&screen->dev);
   close(fd);
   FREE(screen);
}

static struct disk_cache *
panfrost_get_disk_shader_cache(struct pipe_screen *pscreen)
{
   return panfrost_screen(pscreen)->disk_cache;
}

struct pipe_screen *
panfrost_create_screen(int fd, struct renderonly *ro)
{
   struct panfrost_screen *screen = CALLOC_STRUCT(panfrost_screen);
   char err[256] = "";

   if (!screen) {
      close(fd);
      return NULL;
   }

   int ret = pan_device_open(&screen->dev, fd, err, sizeof(err));
   if (ret) {
      mesa_loge("panfrost: %s", err[0] ? err : "cannot open the GPU");
      close(fd);
      FREE(screen);
      return NULL;
   }

   pan_device_set_log(&screen->dev, panfrost_log, NULL);
   screen->arch = panfrost_arch_get(screen->dev.arch);
   screen->ro = ro;
   screen->debug = debug_get_option_panfrost_debug();
   panfrost_install_submit_debug(screen);
   snprintf(screen->renderer, sizeof(screen->renderer), "%s (Panfrost)",
            screen->dev.model->name);

   if (screen->dev.arch >= 6) {
      screen->sample_positions = pan_bo_create(
         &screen->dev, PAN_SAMPLE_POSITIONS_B, 0, "Sample positions");
      if (!screen->sample_positions || !pan_bo_mmap(screen->sample_positions)) {
         mesa_loge("panfrost: cannot allocate the sample position table");
         pan_bo_unref(screen->sample_positions);
         pan_device_close(&screen->dev);
         close(fd);
         FREE(screen);
         return NULL;
      }
      pan_fb_write_sample_positions(screen->sample_positions->cpu);
   }

   struct pipe_screen *pscreen = &screen->base;
   pscreen->destroy = panfrost_destroy_screen;
   pscreen->get_name = panfrost_get_name;
   pscreen->get_vendor = panfrost_get_vendor;
   pscreen->get_device_vendor = panfrost_get_device_vendor;
   pscreen->get_compiler_options = panfrost_get_compiler_options;
   pscreen->get_disk_shader_cache = panfrost_get_disk_shader_cache;
   pscreen->context_create = panfrost_context_create;
   if (screen->arch)
      panfrost_shader_cache_init(screen);

   panfrost_screen_init_caps(pscreen);
   panfrost_screen_init_formats(pscreen);
   panfrost_screen_init_resource(pscreen);
   panfrost_screen_init_fence(pscreen);

   return pscreen;
}
