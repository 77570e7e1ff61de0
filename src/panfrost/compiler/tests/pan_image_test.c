/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * GLSL images through both back ends: a compute shader loading, storing
 * and running atomics on images of every dimension the compiler takes,
 * compiled for the G57 (16 lanes), G52 (8) and G72 (4) and run on the
 * interpreters with an image fixture in place of the driver's
 * descriptors.  The fixture holds each image as a linear array
 * of w x h x d texels of 1 or 4 words in the run's memory, faults on a
 * coordinate outside it, on a table other than the images' (Valhall's
 * resource table 5, Bifrost's primary attribute table: LEA_ATTR_TEX must
 * have selected it) and on a register format that is not the image's, and
 * hands
 * out the texel's address with its word count as the conversion word, so
 * that the atomics run on the very memory the checks read.  Every texel
 * and every value returned must match the C reference, with constant
 * image indices and with indices in registers (arrays of images indexed
 * at run time).  Refusals: multisampled images, imageSize of a
 * non-constant index, imageSize left to the compiler.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/nir/nir_builder.h"
#include "isa/pan_isa_bi.h"
#include "isa/pan_isa_va.h"
#include "pan_compile.h"
#include "pan_sim_bi_gfx.h"
#include "pan_sim_img.h"
#include "pan_sim_va.h"
#include "util/pan_test_util.h"

#define PAN_VA_TEST_MEM_SIZE 4096
#include "pan_compile_test_util.h"
#include "pan_bi_test_sim.h"

/* The table the images are in: 5 on Valhall, 0 (attribute_1) on
 * Bifrost. */
static unsigned image_table;
#define LANES_N PAN_SIM_VA_LANES

struct image {
   unsigned off_B, w, h, d, words;
   bool is_float;
};

/* Image 0: a float RGBA 4x4x3 (2D array and 3D views), image 1 a uint
 * 16x2x3 (2D and 1D array views), image 3 a uint 4x4x6 cube. */
static const struct image images[] = {
   [0] = { 2048, 4, 4, 3, 4, true },
   [1] = { 2816, 16, 2, 3, 1, false },
   [3] = { 3200, 4, 4, 6, 1, false },
};

static const struct image *
lookup(unsigned table, unsigned index, char *err)
{
   if (table != image_table || index >= ARRAY_SIZE(images) ||
       !images[index].w) {
      snprintf(err, PAN_SIM_IMAGE_ERR_LEN, "no image %u in table %u", index,
               table);
      return NULL;
   }
   return &images[index];
}

static bool
texel_off(const struct image *img, const uint32_t c[3], unsigned *off,
          char *err)
{
   if (c[0] >= img->w || c[1] >= img->h || c[2] >= img->d) {
      snprintf(err, PAN_SIM_IMAGE_ERR_LEN, "texel (%u, %u, %u) outside", c[0],
               c[1], c[2]);
      return false;
   }
   *off =
      img->off_B + ((c[2] * img->h + c[1]) * img->w + c[0]) * img->words * 4;
   return true;
}

static bool
fix_address(void *user, unsigned table, unsigned index, const uint32_t coord[3],
            enum pan_sim_regfmt regfmt, uint32_t out[3], char *err)
{
   const struct image *img = lookup(table, index, err);
   unsigned off;
   (void)user;
   (void)regfmt;
   if (!img || !texel_off(img, coord, &off, err))
      return false;
   uint64_t a = MEM_BASE + off;
   out[0] = (uint32_t)a;
   out[1] = (uint32_t)(a >> 32);
   out[2] = img->words;
   return true;
}

static bool
fix_load(void *user, unsigned table, unsigned index, const uint32_t coord[3],
         enum pan_sim_regfmt regfmt, unsigned comps, uint32_t out[4], char *err)
{
   struct mem *m = user;
   const struct image *img = lookup(table, index, err);
   unsigned off;
   if (!img || !texel_off(img, coord, &off, err))
      return false;
   if ((regfmt == PAN_SIM_REG_F32) != img->is_float ||
       (regfmt != PAN_SIM_REG_F32 && regfmt != PAN_SIM_REG_U32)) {
      snprintf(err, PAN_SIM_IMAGE_ERR_LEN, "register format %d on image %u",
               regfmt, index);
      return false;
   }
   memcpy(out, m->bytes + off, MIN2(comps, img->words) * 4);
   return true;
}

static bool
fix_store(void *user, uint64_t addr, uint32_t conversion, unsigned comps,
          const uint32_t in[4], char *err)
{
   struct mem *m = user;
   unsigned n = MIN2(comps, conversion);
   if (addr < MEM_BASE + 2048 || addr - MEM_BASE + n * 4 > sizeof(m->bytes)) {
      snprintf(err, PAN_SIM_IMAGE_ERR_LEN, "store outside the images");
      return false;
   }
   memcpy(m->bytes + (addr - MEM_BASE), in, n * 4);
   return true;
}

static uint32_t *
texel(struct mem *m, unsigned i, unsigned x, unsigned y, unsigned z)
{
   const struct image *img = &images[i];
   return (uint32_t *)(m->bytes + img->off_B +
                       ((z * img->h + y) * img->w + x) * img->words * 4);
}

static nir_ssa_def *
ivec3(nir_builder *b, nir_ssa_def *x, nir_ssa_def *y, nir_ssa_def *z)
{
   nir_ssa_def *zero = nir_imm_int(b, 0);
   return nir_vec4(b, x, y ? y : zero, z ? z : zero, zero);
}

/* Output words: per lane the 3D load (4 words), then per lane the
 * atomic add, compare-and-swap, cube max and buffer load results. */
#define OUT_ADD (4 * LANES_N)
#define OUT_CAS (OUT_ADD + LANES_N)
#define OUT_MAX (OUT_CAS + LANES_N)
#define OUT_BUF (OUT_MAX + LANES_N)

/*
 * Lane l, x = l & 3, y = l >> 2:
 *   2D array image 0: texel (x, y, 0) = 2 * texel (x, y, 2)
 *   3D image 0: out[4 l] = texel (x, y, 1)
 *   2D image 1: atomicAdd((0, 1), l + 1); compSwap((l, 0), l, l + 100)
 *   buffer image 1: out[OUT_BUF + l] = texel l (the swapped one)
 *   1D array image 1: texel (l, layer 2) = 7 l
 *   cube image 3: atomicMax((x, y, face 5), 3 l)
 */
static nir_shader *
build(bool dynamic)
{
   nir_builder b = begin("images");
   nir_ssa_def *l = id_x(&b);
   nir_ssa_def *x = nir_iand_imm(&b, l, 3), *y = nir_ushr_imm(&b, l, 2);
   nir_ssa_def *zero = nir_imm_int(&b, 0);
   nir_ssa_def *img0 = nir_imm_int(&b, 0), *img1 = nir_imm_int(&b, 1);
   /* The same images chosen at run time (l >> 30 is 0 and l >> 31 | 1 is
    * 1 here, which NIR cannot know): the register forms. */
   if (dynamic) {
      img0 = nir_ushr_imm(&b, l, 30);
      img1 = nir_ior_imm(&b, nir_ushr_imm(&b, l, 31), 1);
   }

   nir_ssa_def *v =
      nir_image_load(&b, 4, 32, img0, ivec3(&b, x, y, nir_imm_int(&b, 2)), zero,
                     zero, .image_dim = GLSL_SAMPLER_DIM_2D,
                     .image_array = true, .dest_type = nir_type_float32);
   nir_image_store(&b, img0, ivec3(&b, x, y, zero), zero,
                   nir_fmul_imm(&b, v, 2.0), zero,
                   .image_dim = GLSL_SAMPLER_DIM_2D, .image_array = true,
                   .src_type = nir_type_float32);
   nir_ssa_def *s = nir_image_load(
      &b, 4, 32, img0, ivec3(&b, x, y, nir_imm_int(&b, 1)), zero, zero,
      .image_dim = GLSL_SAMPLER_DIM_3D, .dest_type = nir_type_float32);
   store_out(&b, l, s);

   nir_ssa_def *add = nir_image_atomic_add(
      &b, 32, img1, ivec3(&b, zero, nir_imm_int(&b, 1), NULL), zero,
      nir_iadd_imm(&b, l, 1), .image_dim = GLSL_SAMPLER_DIM_2D,
      .format = PIPE_FORMAT_R32_UINT);
   store_out(&b, nir_iadd_imm(&b, l, OUT_ADD), add);
   nir_ssa_def *cas = nir_image_atomic_comp_swap(
      &b, 32, img1, ivec3(&b, l, NULL, NULL), zero, l, nir_iadd_imm(&b, l, 100),
      .image_dim = GLSL_SAMPLER_DIM_2D, .format = PIPE_FORMAT_R32_UINT);
   store_out(&b, nir_iadd_imm(&b, l, OUT_CAS), cas);
   nir_ssa_def *buf = nir_image_load(&b, 1, 32, img1, ivec3(&b, l, NULL, NULL),
                                     zero, zero,
                                     .image_dim = GLSL_SAMPLER_DIM_BUF,
                                     .dest_type = nir_type_uint32);
   store_out(&b, nir_iadd_imm(&b, l, OUT_BUF), buf);
   nir_ssa_def *l7 = nir_imul_imm(&b, l, 7);
   nir_image_store(&b, img1, ivec3(&b, l, nir_imm_int(&b, 2), NULL), zero,
                   nir_vec4(&b, l7, l7, l7, l7), zero,
                   .image_dim = GLSL_SAMPLER_DIM_1D, .image_array = true,
                   .src_type = nir_type_uint32);

   nir_ssa_def *mx = nir_image_atomic_umax(
      &b, 32, nir_imm_int(&b, 3), ivec3(&b, x, y, nir_imm_int(&b, 5)), zero,
      nir_imul_imm(&b, l, 3), .image_dim = GLSL_SAMPLER_DIM_CUBE,
      .format = PIPE_FORMAT_R32_UINT);
   store_out(&b, nir_iadd_imm(&b, l, OUT_MAX), mx);
   return b.shader;
}

static uint64_t seed = 0x1ea9e5;

/* Compiles the shader for arch (9, 7 or 6), checks the forms in its
 * disassembly and runs it on n lanes against the C reference; dynamic:
 * images 0 and 1 indexed by registers. */
static void
run(unsigned arch, unsigned n, bool dynamic)
{
   nir_shader *s = build(dynamic);
   void *ctx = ralloc_context(NULL);
   char err[256], what[16], *text = NULL;
   size_t len = 0;
   uint32_t u[16];
   FILE *print = getenv("PAN_IMAGE_TEST_PRINT") ? stderr : NULL;
   struct pan_va_binary vbin;
   struct pan_bi_binary bbin;
   struct pan_bi_compile_options opts = { .arch = arch };
   bool ok;

   snprintf(what, sizeof(what), "v%u%s", arch, dynamic ? " dynamic" : "");
   image_table = arch >= 9 ? 5 : 0;
   ok = arch >= 9
           ? pan_va_compile(s, ctx, &vbin, print, err, sizeof(err))
           : pan_bi_compile(s, ctx, &opts, &bbin, print, err, sizeof(err));
   if (!ok) {
      pan_test_fail("%s: %s", what, err);
      goto done;
   }
   FILE *fp = open_memstream(&text, &len);
   if (arch >= 9)
      pan_va_disassemble(vbin.words, vbin.nr_words * 8, fp, false, NULL, 0);
   else
      pan_bi_disassemble(bbin.words, bbin.nr_words * 8, fp, false, NULL, 0);
   fclose(fp);
   const char *va_forms[] = {
      dynamic ? "ld_tex.v4.f32" : "ld_tex_imm.v4.f32",
      dynamic ? "lea_tex.slot0" : "lea_tex_imm",
      "st_cvt.slot0.v4.auto",
      "atom_return.i32.slot0.aadd",
      "atom_return.i32.slot0.compare.axchg",
      "atom_return.i32.slot0.aumax",
      NULL,
   };
   static const char *const bi_forms[] = {
      "ld_attr_tex.v4.f32",
      "dtsel_imm.attribute_1",
      "lea_attr_tex",
      "st_cvt.v4",
      "acmpxchg.i32",
      "atom_post.i32.aumax",
      NULL,
   };
   for (const char *const *f = arch >= 9 ? (const char *const *)va_forms
                                         : bi_forms;
        *f; ++f)
      PAN_CHECK(strstr(text, *f), "%s: no %s in\n%s", what, *f, text);
   if (arch < 9) {
      struct pan_isa_bytes back = { 0 };
      PAN_CHECK(pan_bi_assemble(text, len, &back, err, sizeof(err)) == 0 &&
                   back.size_B == bbin.nr_words * 8 &&
                   !memcmp(back.data, bbin.words, back.size_B),
                "%s: the disassembly does not assemble back (%s)", what, err);
      PAN_CHECK(pan_bi_validate(bbin.words, bbin.nr_words * 8, NULL, NULL) == 0,
                "%s: the validator reports problems\n%s", what, text);
      pan_isa_bytes_free(&back);
   }

   uint32_t none = 0;
   struct mem *m = io_setup(&none, 1, NULL, 0, u);
   pan_test_fill_random(&seed, m->bytes + 2048, 2048);
   /* Small floats, so that doubling them is exact. */
   for (unsigned i = 0; i < 4 * 4 * 3 * 4; ++i) {
      float f = (float)(i % 97) - 40.0f;
      memcpy(m->bytes + 2048 + 4 * i, &f, 4);
   }
   for (unsigned l = 0; l < LANES_N; ++l)
      *texel(m, 1, l, 0, 0) = l % 2 ? 0xdead : l;
   struct mem want = *m;

   struct pan_sim_image_ops ops = { m, fix_address, fix_load, fix_store };
   if (arch >= 9) {
      struct pan_sim_va_config cfg = sim_config(&vbin, m, u, 16);
      cfg.image = &ops;
      struct pan_sim_va_warp w;
      compute_warp_init(&w);
      ok = pan_sim_va_run(&w, &cfg) == PAN_SIM_VA_DONE;
      snprintf(err, sizeof(err), "%s", w.fault);
   } else {
      struct pan_sim_bi_config cfg;
      struct pan_sim_bi_warp w;
      /* Bifrost's ST_CVT is the graphics unit's store (the same one
       * that writes varyings). */
      struct pan_sim_bi_gfx gfx = { .user = m, .st_cvt = fix_store };
      bi_test_setup(&cfg, &w, &bbin, u, m, n);
      cfg.image = &ops;
      cfg.gfx = &gfx;
      ok = pan_sim_bi_run(&w, &cfg) == PAN_SIM_BI_DONE;
      snprintf(err, sizeof(err), "%s", w.fault);
   }
   if (!ok) {
      pan_test_fail("%s: fault: %s", what, err);
      goto done;
   }

   uint32_t out[OUT_BUF + LANES_N];
   memcpy(out, m->bytes + OUT_OFF, sizeof(out));
   for (unsigned l = 0; l < n; ++l) {
      unsigned x = l & 3, y = l >> 2;
      for (unsigned c = 0; c < 4; ++c) {
         float f;
         memcpy(&f, &texel(&want, 0, x, y, 2)[c], 4);
         f *= 2.0f;
         memcpy(&texel(&want, 0, x, y, 0)[c], &f, 4);
         PAN_CHECK(out[4 * l + c] == texel(&want, 0, x, y, 1)[c],
                   "%s lane %u: 3D load component %u 0x%08x, expected "
                   "0x%08x",
                   what, l, c, out[4 * l + c], texel(&want, 0, x, y, 1)[c]);
      }
      uint32_t *a = texel(&want, 1, 0, 1, 0);
      PAN_CHECK(out[OUT_ADD + l] == *a,
                "%s lane %u: atomic add returned %u, expected %u", what, l,
                out[OUT_ADD + l], *a);
      *a += l + 1;
      uint32_t *c = texel(&want, 1, l, 0, 0);
      PAN_CHECK(out[OUT_CAS + l] == *c,
                "%s lane %u: compare-and-swap returned 0x%x, expected 0x%x",
                what, l, out[OUT_CAS + l], *c);
      if (*c == l)
         *c = l + 100;
      PAN_CHECK(out[OUT_BUF + l] == *c,
                "%s lane %u: buffer image load 0x%x, expected 0x%x", what, l,
                out[OUT_BUF + l], *c);
      *texel(&want, 1, l, 0, 2) = 7 * l;
      uint32_t *mx = texel(&want, 3, x, y, 5);
      PAN_CHECK(out[OUT_MAX + l] == *mx,
                "%s lane %u: atomic max returned %u, expected %u", what, l,
                out[OUT_MAX + l], *mx);
      *mx = MAX2(*mx, 3 * l);
   }
   for (unsigned i = 2048; i < sizeof(m->bytes); i += 4) {
      uint32_t got, exp;
      memcpy(&got, m->bytes + i, 4);
      memcpy(&exp, want.bytes + i, 4);
      PAN_CHECK(got == exp, "%s: image word at %u: 0x%08x, expected 0x%08x",
                what, i, got, exp);
   }
done:
   free(text);
   ralloc_free(ctx);
   ralloc_free(s);
}

static void
test_valhall(void)
{
   run(9, PAN_SIM_VA_LANES, false);
   run(9, PAN_SIM_VA_LANES, true);
}

static void
test_bifrost_g52(void)
{
   run(7, PAN_SIM_BI_LANES_G52, false);
   run(7, PAN_SIM_BI_LANES_G52, true);
}

static void
test_bifrost_g72(void)
{
   run(6, PAN_SIM_BI_LANES_G72, false);
   run(6, PAN_SIM_BI_LANES_G72, true);
}

/* imageSize in a fragment shader: the driver pushes the words (width,
 * height, layers of image 3), which become the colour. */
static void
test_fragment_size(void)
{
   for (unsigned arch = 6; arch <= 9; arch += arch == 7 ? 2 : 1) {
      nir_builder b = nir_builder_init_simple_shader(
         MESA_SHADER_FRAGMENT, &pan_va_nir_options, "size");
      nir_ssa_def *zero = nir_imm_int(&b, 0);
      nir_ssa_def *v =
         nir_image_size(&b, 3, 32, nir_imm_int(&b, 3), zero,
                        .image_dim = GLSL_SAMPLER_DIM_2D, .image_array = true);
      nir_variable *out = nir_variable_create(b.shader, nir_var_shader_out,
                                              glsl_uvec4_type(), "o");
      out->data.location = FRAG_RESULT_DATA0;
      nir_store_var(&b, out,
                    nir_vec4(&b, nir_channel(&b, v, 0), nir_channel(&b, v, 1),
                             nir_channel(&b, v, 2), zero),
                    0xf);
      void *ctx = ralloc_context(NULL);
      char err[256] = "";
      const struct pan_va_push_word *push = NULL;
      unsigned nr_push = 0;
      struct pan_va_binary vbin;
      struct pan_bi_binary bbin;
      struct pan_bi_compile_options opts = { .arch = arch };
      bool ok = arch >= 9 ? pan_va_compile(b.shader, ctx, &vbin, NULL, err,
                                           sizeof(err))
                          : pan_bi_compile(b.shader, ctx, &opts, &bbin, NULL,
                                           err, sizeof(err));
      PAN_CHECK(ok, "v%u: %s", arch, err);
      if (ok) {
         push = arch >= 9 ? vbin.push : bbin.push;
         nr_push = arch >= 9 ? vbin.nr_push : bbin.nr_push;
      }
      unsigned seen = 0;
      for (unsigned i = 0; i < nr_push; ++i) {
         if (push[i].source != PAN_VA_PUSH_IMAGE_SIZE)
            continue;
         PAN_CHECK(push[i].ubo == 3 && push[i].offset_B % 4 == 0 &&
                      push[i].offset_B < 12,
                   "v%u: push word %u: image %u offset %u", arch, i,
                   push[i].ubo, push[i].offset_B);
         seen |= 1u << (push[i].offset_B / 4);
      }
      PAN_CHECK(!ok || seen == 7, "v%u: size components pushed: 0x%x", arch,
                seen);
      ralloc_free(ctx);
      ralloc_free(b.shader);
   }
}

/* Refused with a message naming what is missing, never a crash. */
static void
test_refusals(void)
{
   static const char *const want[] = {
      "multisampled image",
      "non-constant image index",
      "the driver pushes image",
   };
   for (unsigned k = 0; k < ARRAY_SIZE(want); ++k) {
      nir_builder b = begin("refused");
      nir_ssa_def *zero = nir_imm_int(&b, 0);
      nir_ssa_def *v;
      if (k == 0) {
         v = nir_image_load(&b, 4, 32, zero, ivec3(&b, zero, zero, NULL),
                            zero, zero, .image_dim = GLSL_SAMPLER_DIM_MS,
                            .dest_type = nir_type_uint32);
      } else if (k == 1) {
         /* The driver selects among the pushed sizes first. */
         v = nir_image_size(&b, 2, 32, id_x(&b), zero,
                            .image_dim = GLSL_SAMPLER_DIM_2D,
                            .format = PIPE_FORMAT_R32_UINT);
      } else {
         v = nir_image_size(&b, 2, 32, zero, zero,
                            .image_dim = GLSL_SAMPLER_DIM_2D,
                            .format = PIPE_FORMAT_R32_UINT);
      }
      store_out(&b, zero, v);
      char what[32];
      snprintf(what, sizeof(what), "refusal %u", k);
      expect_va_refusal(b.shader, want[k], what);
   }
}

int
main(void)
{
   PAN_RUN_CASE(test_valhall);
   PAN_RUN_CASE(test_bifrost_g52);
   PAN_RUN_CASE(test_bifrost_g72);
   PAN_RUN_CASE(test_fragment_size);
   PAN_RUN_CASE(test_refusals);
   return pan_test_summary("pan_image");
}
