/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * mid-diff-run: one Midgard binary on the interpreter with inputs drawn
 * from a seed, for the differential test (mid_diff_exec.py).
 *
 *   mid-diff-run --seed=N FILE.bin
 *
 * The inputs do not depend on either compiler's layout:
 *   uniforms   every pushed vec4 (r23..r8) and every vec4 of the 16
 *              uniform buffers is the same vec4 U, so any push table or
 *              UBO offset reads U (neither compiler tool reports its push
 *              table; the mapping is thereby the identity on values)
 *   varyings   ld_vary of slot i reads vec4 V(i), attributes A(i): both
 *              compilers address them by the GLSL front end's driver
 *              location; floats are multiples of 1/64 in [-4, 4), exact
 *              in f16, integers small
 * Printed: "status done|fault <why>", "discarded 0|1", "colour <4 hex
 * words>" (r0 at the last writeout), one "rt <index> <4 hex words>" per
 * render target written out (r0 at its last writeout), "r1x <hex word>" (r1.x at the end: the
 * depth, for a shader writing gl_FragDepth, since both compilers move it
 * there in a writeout bundle and nothing writes r1.x after), one "vary <slot> <regfmt> <mask> <4
 * hex f32 words>" per st_vary (f16 converted to f32).
 *   textures   every texture index names the same 8x8 RGBA8 2D texture of
 *              seeded texels and every sampler the same bilinear,
 *              clamp-to-edge sampler (v5 descriptors served by the
 *              interpreter's descriptor model, pan_sim_mid_desc.h), so
 *              neither compiler's texture/sampler numbering matters and
 *              small coordinate differences stay small; other dimensions
 *              and formats fault there
 * Global memory faults (no memory): such programs are skipped.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pan_genxml.h"
#include "pan_sim_fp.h"
#include "pan_sim_mid.h"
#include "pan_sim_mid_desc.h"

#define MAX_PROGRAM_B (1u << 20)
#define UBO_VA 0x100000ull
#define UBO_B 0x10000u

/* Texture memory: pointers, then the descriptor with its surface pointer,
 * the samplers and the texels. */
#define TEX_VA 0x400000ull
#define TEX_B 0x2000u
#define TEX_PTRS 0x0000u
#define TEX_DESC 0x0200u
#define TEX_SMP 0x0400u
#define TEX_DATA 0x1000u
#define TEX_N 32u
#define TEX_DIM 8u

static uint8_t texmem[TEX_B];

static uint64_t seed;
static uint32_t U[4];

static uint64_t
mix(uint64_t x)
{
   x += 0x9e3779b97f4a7c15ull;
   x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
   x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
   return x ^ (x >> 31);
}

/* Component c of input vector `slot` of a kind (0 varying, 1 attribute,
 * 2 uniform). */
static uint32_t
input(unsigned kind, unsigned slot, unsigned c, enum pan_sim_mid_regfmt fmt)
{
   uint64_t r = mix(seed ^ mix(kind * 4096 + slot * 4 + c));
   if (fmt == PAN_SIM_MID_U32)
      return r % 16;
   if (fmt == PAN_SIM_MID_S32)
      return (uint32_t)((int)(r % 16) - 8);
   float f = (float)((int)(r % 512) - 256) / 64.0f;
   return pan_sim_fp_u32(f);
}

static void
values(unsigned kind, unsigned slot, enum pan_sim_mid_regfmt fmt,
       uint32_t out[4])
{
   uint32_t v[4];
   for (unsigned c = 0; c < 4; c++)
      v[c] = input(kind, slot, c, fmt);
   if (fmt == PAN_SIM_MID_F16) {
      /* Two f16 components a word; exact by construction. */
      out[0] = pan_sim_fp_f32_to_f16(v[0], PAN_SIM_ROUND_RTE) |
               (uint32_t)pan_sim_fp_f32_to_f16(v[1], PAN_SIM_ROUND_RTE) << 16;
      out[1] = pan_sim_fp_f32_to_f16(v[2], PAN_SIM_ROUND_RTE) |
               (uint32_t)pan_sim_fp_f32_to_f16(v[3], PAN_SIM_ROUND_RTE) << 16;
      out[2] = out[3] = 0;
   } else {
      memcpy(out, v, sizeof(v));
   }
}

static bool
ld_attr(void *user, bool varying_table, unsigned index,
        enum pan_sim_mid_regfmt fmt, uint32_t out[4], char *err)
{
   values(varying_table ? 0 : 1, index, fmt, out);
   return true;
}

static bool
ld_vary(void *user, unsigned index, bool flat, enum pan_sim_mid_regfmt fmt,
        uint32_t out[4], char *err)
{
   values(0, index, fmt, out);
   return true;
}

static const char *const regfmt_names[] = { "f32", "f16", "u32", "s32" };

static bool
st_vary(void *user, bool varying_table, unsigned index,
        enum pan_sim_mid_regfmt fmt, unsigned mask, const uint32_t in[4],
        char *err)
{
   uint32_t v[4];
   for (unsigned c = 0; c < 4; c++) {
      v[c] = in[c];
      if (fmt == PAN_SIM_MID_F16)
         v[c] = pan_sim_fp_f16_to_f32(in[c / 2] >> (16 * (c & 1)));
      if (!(mask & (1u << c)))
         v[c] = 0;
   }
   printf("vary %u %s %x %08x %08x %08x %08x\n", index, regfmt_names[fmt], mask,
          v[0], v[1], v[2], v[3]);
   return true;
}

static void
setup_texture(void)
{
   uint64_t desc = TEX_VA + TEX_DESC, surf = TEX_VA + TEX_DATA;
   for (unsigned i = 0; i < TEX_N; i++)
      memcpy(texmem + TEX_PTRS + 8 * i, &desc, 8);
   pan_pack(texmem + TEX_DESC, texture, cfg)
   {
      cfg.width = TEX_DIM;
      cfg.height = TEX_DIM;
      cfg.array_size = 1;
      pan_pack(&cfg.format, pixel_format, pf)
      {
         pf.format = MALI_FORMAT_RGBA8_UNORM;
         pf.swizzle.r = MALI_CHANNEL_R;
         pf.swizzle.g = MALI_CHANNEL_G;
         pf.swizzle.b = MALI_CHANNEL_B;
         pf.swizzle.a = MALI_CHANNEL_A;
      }
      cfg.dimension = MALI_TEXTURE_DIMENSION_2D;
      cfg.texel_ordering = MALI_TEXTURE_LAYOUT_LINEAR;
      cfg.levels = 1;
      cfg.swizzle = 0 | 1 << 3 | 2 << 6 | 3 << 9; /* rgba */
   }
   memcpy(texmem + TEX_DESC + pan_size(texture), &surf, 8);
   for (unsigned i = 0; i < TEX_N; i++) {
      pan_pack(texmem + TEX_SMP + i * pan_size(sampler), sampler, cfg)
      {
         cfg.normalized_coordinates = true;
         cfg.magnify_nearest = false;
         cfg.minify_nearest = false;
         cfg.mipmap_mode = MALI_MIPMAP_MODE_NEAREST;
         cfg.wrap_mode_s = MALI_WRAP_MODE_CLAMP_TO_EDGE;
         cfg.wrap_mode_t = MALI_WRAP_MODE_CLAMP_TO_EDGE;
         cfg.wrap_mode_r = MALI_WRAP_MODE_CLAMP_TO_EDGE;
         cfg.compare_function = MALI_FUNC_LEQUAL;
      }
   }
   for (unsigned i = 0; i < TEX_DIM * TEX_DIM * 4; i++)
      texmem[TEX_DATA + i] = (uint8_t)mix(seed ^ mix(0x7e0000 + i));
}

static bool
mem_read(void *user, uint64_t addr, void *data, unsigned size)
{
   if (addr >= TEX_VA && addr + size <= TEX_VA + TEX_B) {
      memcpy(data, texmem + (addr - TEX_VA), size);
      return true;
   }
   /* Otherwise only the uniform buffers exist: U repeated. */
   if (addr < UBO_VA || addr + size > UBO_VA + 16ull * UBO_B)
      return false;
   for (unsigned i = 0; i < size; i++)
      ((uint8_t *)data)[i] = ((const uint8_t *)U)[(addr + i) % 16];
   return true;
}

int
main(int argc, char **argv)
{
   const char *path = NULL;
   unsigned gpu_id = 0x860;
   for (int i = 1; i < argc; i++) {
      if (!strncmp(argv[i], "--seed=", 7))
         seed = strtoull(argv[i] + 7, NULL, 0);
      else if (!strncmp(argv[i], "--gpu=", 6))
         gpu_id = (unsigned)strtoul(argv[i] + 6, NULL, 0);
      else
         path = argv[i];
   }
   if (!path) {
      fprintf(stderr, "usage: mid-diff-run --seed=N [--gpu=0xID] FILE.bin\n");
      return 2;
   }
   FILE *fp = fopen(path, "rb");
   if (!fp) {
      fprintf(stderr, "cannot open %s\n", path);
      return 4;
   }
   uint8_t *code = malloc(MAX_PROGRAM_B);
   size_t n = code ? fread(code, 1, MAX_PROGRAM_B, fp) : 0;
   fclose(fp);
   if (!code)
      return 4;

   uint32_t uniforms[PAN_SIM_MID_UNIFORMS][4];
   for (unsigned c = 0; c < 4; c++)
      U[c] = input(2, 0, c, PAN_SIM_MID_F32);
   for (unsigned i = 0; i < PAN_SIM_MID_UNIFORMS; i++)
      memcpy(uniforms[i], U, sizeof(U));

   /* Textures from the descriptor model; the other messages ours. */
   setup_texture();
   struct pan_sim_mid_desc desc = {
      .mem = { NULL, mem_read, NULL },
      .textures = TEX_VA + TEX_PTRS,
      .samplers = TEX_VA + TEX_SMP,
      .nr_textures = TEX_N,
      .nr_samplers = TEX_N,
   };
   struct pan_sim_mid_gfx gfx;
   if (!pan_sim_mid_desc_init(5, &desc, &gfx)) {
      free(code);
      return 4;
   }
   gfx.ld_attr = ld_attr;
   gfx.st_vary = st_vary;
   gfx.ld_vary = ld_vary;
   struct pan_sim_mid_config cfg = {
      .program = code,
      .program_size = (unsigned)(n & ~(size_t)15),
      .uniforms = (const uint32_t(*)[4])uniforms,
      .nr_uniforms = PAN_SIM_MID_UNIFORMS,
      .nr_ubos = PAN_SIM_MID_MAX_UBOS,
      .mem = { NULL, mem_read, NULL },
      .gfx = &gfx,
      /* The small cores' texture words use r26/r27 and r0/r1. */
      .tex_aliasing = gpu_id == 0x720 || gpu_id == 0x820 || gpu_id == 0x830,
      .budget = 1u << 16,
   };
   for (unsigned i = 0; i < PAN_SIM_MID_MAX_UBOS; i++)
      cfg.ubos[i] = (struct pan_sim_mid_ubo){ UBO_VA + i * UBO_B, UBO_B };

   struct pan_sim_mid_thread *t = calloc(1, sizeof(*t));
   if (!t) {
      free(code);
      return 4;
   }
   pan_sim_mid_thread_init(t);
   enum pan_sim_mid_status st = pan_sim_mid_run(t, &cfg);
   if (st == PAN_SIM_MID_DONE)
      printf("status done\n");
   else
      printf("status fault %s\n", t->fault);
   printf("discarded %d\n", t->discarded);
   if (t->writeouts)
      printf("colour %08x %08x %08x %08x\n", t->colour[0], t->colour[1],
             t->colour[2], t->colour[3]);
   for (unsigned rt = 0; rt < PAN_SIM_MID_RTS; rt++) {
      const uint32_t *c = t->rt_colour[rt];
      if (t->rt_written & (1u << rt))
         printf("rt %u %08x %08x %08x %08x\n", rt, c[0], c[1], c[2], c[3]);
   }
   printf("r1x %08x\n", t->r[1][0]);
   free(t);
   free(code);
   return 0;
}
