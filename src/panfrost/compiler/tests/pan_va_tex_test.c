/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Texture instructions of our compiler.  The Valhall interpreter does not
 * model texturing, so the words are decoded with the isa library's
 * printer and compared with the forms the v9 driver expects
 * (docs/drivers/panfrost/compiler.rst, "Textures"): the instruction and
 * its dimension / LOD / shadow / array modifiers, the staging vector's
 * length, and the image word (sampler in table 3, texture in table 4).
 */

#include <stdlib.h>
#include <string.h>

#include "compiler/nir/nir_builder.h"
#include "isa/pan_isa_va.h"
#include "pan_compile.h"
#include "util/pan_test_util.h"

struct tex_case {
   const char *name;
   nir_texop op;
   enum glsl_sampler_dim dim;
   bool array, shadow;
   unsigned texture, sampler;
   unsigned coords;
   int lod_const; /* -1: none; else a constant LOD / bias (in 1/2) */
   bool lod_var;  /* the LOD / bias is a varying */
   const char *want_op, *want_mods[4];
   unsigned want_staging;
   bool has_offset;  /* a constant texel offset (x, y) */
   int8_t offset[2];
   unsigned comp;    /* the component a gather returns */
   uint32_t want_word; /* the offset word, when has_offset */
};

/* The image word the driver's tables expect, from the interface. */
static uint32_t
want_image(unsigned texture, unsigned sampler)
{
   return (4u << 27 | texture << 16) | (3u << 11 | sampler);
}

static nir_ssa_def *
varying(nir_builder *b, unsigned slot, unsigned comps)
{
   nir_variable *v =
      nir_variable_create(b->shader, nir_var_shader_in,
                          glsl_vector_type(GLSL_TYPE_FLOAT, comps), "v");
   v->data.location = VARYING_SLOT_VAR0 + slot;
   v->data.driver_location = slot;
   return nir_load_var(b, v);
}

static nir_shader *
build(const struct tex_case *c)
{
   nir_builder b = nir_builder_init_simple_shader(MESA_SHADER_FRAGMENT,
                                                  &pan_va_nir_options, "tex");
   nir_ssa_def *coord = varying(&b, 0, c->coords);
   unsigned n =
      1 + c->shadow + (c->lod_const >= 0 || c->lod_var) + c->has_offset;
   nir_tex_instr *t = nir_tex_instr_create(b.shader, n);
   t->op = c->op;
   t->sampler_dim = c->dim;
   t->is_array = c->array;
   t->is_shadow = c->shadow;
   t->is_new_style_shadow = c->shadow && c->op != nir_texop_tg4;
   t->texture_index = c->texture;
   t->sampler_index = c->sampler;
   t->coord_components = c->coords;
   t->component = c->comp;
   t->dest_type = nir_type_float32;
   if (c->op == nir_texop_txf) {
      coord = nir_f2i32(&b, coord);
      t->dest_type = nir_type_float32;
   }
   unsigned s = 0;
   t->src[s].src_type = nir_tex_src_coord;
   t->src[s++].src = nir_src_for_ssa(coord);
   if (c->shadow) {
      t->src[s].src_type = nir_tex_src_comparator;
      t->src[s++].src = nir_src_for_ssa(nir_channel(&b, varying(&b, 1, 1), 0));
   }
   if (c->lod_const >= 0 || c->lod_var) {
      nir_ssa_def *lod = c->lod_var ? varying(&b, 2, 1)
                         : c->op == nir_texop_txf
                            ? nir_imm_int(&b, c->lod_const)
                            : nir_imm_float(&b, c->lod_const / 2.0f);
      if (c->lod_var && c->op == nir_texop_txf)
         lod = nir_f2i32(&b, lod);
      t->src[s].src_type =
         c->op == nir_texop_txb ? nir_tex_src_bias : nir_tex_src_lod;
      t->src[s++].src = nir_src_for_ssa(lod);
   }
   if (c->has_offset) {
      t->src[s].src_type = nir_tex_src_offset;
      t->src[s++].src =
         nir_src_for_ssa(nir_imm_ivec2(&b, c->offset[0], c->offset[1]));
   }
   bool scalar = c->shadow && c->op != nir_texop_tg4;
   nir_ssa_dest_init(&t->instr, &t->dest, scalar ? 1 : 4, 32, NULL);
   nir_builder_instr_insert(&b, &t->instr);
   nir_ssa_def *res = &t->dest.ssa;
   if (scalar)
      res = nir_vec4(&b, res, res, res, res);
   nir_variable *out =
      nir_variable_create(b.shader, nir_var_shader_out, glsl_vec4_type(), "o");
   out->data.location = FRAG_RESULT_DATA0;
   nir_store_var(&b, out, res, 0xf);
   return b.shader;
}

/* The constant "iadd_imm.i32 rN, #0x0, constant:V" writes into reg, or
 * -1 when no such line exists before line `before`. */
static int64_t
constant_in(char **l, unsigned before, unsigned reg)
{
   char prefix[48];
   snprintf(prefix, sizeof(prefix), "iadd_imm.i32 r%u, #0x0, constant:", reg);
   for (int i = (int)before - 1; i >= 0; --i) {
      if (!strncmp(l[i], prefix, strlen(prefix)))
         return strtoll(l[i] + strlen(prefix), NULL, 0);
   }
   return -1;
}

/* Whether a constant of value v is materialized before line `before` or
 * pushed for the program. */
static bool
has_constant(char **l, unsigned before, const struct pan_va_binary *bin,
             uint32_t v)
{
   for (unsigned i = 0; i < before; ++i) {
      const char *k = strstr(l[i], "constant:");
      if (!strncmp(l[i], "iadd_imm", 8) && k &&
          (uint32_t)strtoll(k + 9, NULL, 0) == v)
         return true;
   }
   for (unsigned w = 0; w < bin->nr_push; ++w) {
      if (bin->push[w].source == PAN_VA_PUSH_CONSTANT &&
          bin->push[w].offset_B == v)
         return true;
   }
   return false;
}

static void check_cube_sequence(const struct tex_case *c, char **l,
                                unsigned at, const struct pan_va_binary *bin);

static void
run_case(const struct tex_case *c)
{
   void *ctx = ralloc_context(NULL);
   nir_shader *s = build(c);
   struct pan_va_binary bin;
   char err[256];
   if (!pan_va_compile(s, ctx, &bin, NULL, err, sizeof(err))) {
      pan_test_fail("%s: %s", c->name, err);
      goto out;
   }
   char **l = ralloc_array(ctx, char *, bin.nr_words);
   int at = -1;
   for (unsigned i = 0; i < bin.nr_words; ++i) {
      char buf[256];
      pan_va_print(bin.words[i], buf, sizeof(buf));
      l[i] = ralloc_strdup(ctx, buf);
      if (!strncmp(buf, c->want_op, strlen(c->want_op)))
         at = (int)i;
   }
   PAN_EXPECT(at >= 0);
   if (at < 0)
      goto out;
   const char *line = l[at];
   for (unsigned m = 0; m < 4 && c->want_mods[m]; ++m)
      PAN_EXPECT_STR_HAS(line, c->want_mods[m]);
   PAN_EXPECT_STR_HAS(line, ".f.r32");
   char staging[16];
   snprintf(staging, sizeof(staging), ":%u}, r", c->want_staging);
   if (c->want_staging == 1)
      snprintf(staging, sizeof(staging), "}, r");
   PAN_EXPECT_STR_HAS(line, staging);

   /* The image operand: the word and a zero above it. */
   const char *img = strrchr(line, 'r');
   unsigned reg = img ? (unsigned)atoi(img + 1) : 0;
   PAN_EXPECT(reg % 2 == 0);
   int64_t image = constant_in(l, (unsigned)at, reg);
   if (image != want_image(c->texture, c->sampler))
      pan_test_fail("%s: image word %#llx in r%u, want %#x", c->name,
                    (long long)image, reg, want_image(c->texture, c->sampler));
   char zero[32];
   snprintf(zero, sizeof(zero), "mov.i32 r%u, #0x0", reg + 1);
   bool saw_zero = false;
   for (int i = 0; i < at; ++i)
      saw_zero |= !strcmp(l[i], zero);
   PAN_EXPECT(saw_zero);

   /* A constant LOD or bias is 8.8 fixed point, a fetch's sits in the top
    * byte of its word. */
   if (c->lod_const > 0 && !c->has_offset) {
      int64_t want = c->op == nir_texop_txf ? (int64_t)c->lod_const << 24
                                            : c->lod_const * 128;
      bool found = false;
      for (int i = 0; i < at; ++i) {
         const char *k = strstr(l[i], "constant:");
         found |= !strncmp(l[i], "iadd_imm", 8) && k &&
                  strtoll(k + 9, NULL, 0) == want;
      }
      PAN_EXPECT(found);
   }
   if (c->has_offset && !has_constant(l, (unsigned)at, &bin, c->want_word))
      pan_test_fail("%s: no offset word %#x", c->name, c->want_word);
   check_cube_sequence(c, l, (unsigned)at, &bin);
   if (pan_test_failures) {
      for (unsigned i = 0; i < bin.nr_words; ++i)
         fprintf(stderr, "   %s\n", l[i]);
   }
out:
   ralloc_free(ctx);
   ralloc_free(s);
}

static const struct tex_case cases[] = {
   { "2d",
     nir_texop_tex,
     GLSL_SAMPLER_DIM_2D,
     false,
     false,
     0,
     0,
     2,
     -1,
     false,
     "tex_single",
     { ".2d", ".computed" },
     2 },
   { "2d other unit",
     nir_texop_tex,
     GLSL_SAMPLER_DIM_2D,
     false,
     false,
     5,
     3,
     2,
     -1,
     false,
     "tex_single",
     { ".2d", ".computed" },
     2 },
   { "bias",
     nir_texop_txb,
     GLSL_SAMPLER_DIM_2D,
     false,
     false,
     1,
     1,
     2,
     3,
     false,
     "tex_single",
     { ".computed_bias" },
     3 },
   { "explicit lod",
     nir_texop_txl,
     GLSL_SAMPLER_DIM_2D,
     false,
     false,
     0,
     0,
     2,
     -1,
     true,
     "tex_single",
     { ".explicit" },
     3 },
   { "lod zero",
     nir_texop_txl,
     GLSL_SAMPLER_DIM_2D,
     false,
     false,
     0,
     0,
     2,
     0,
     false,
     "tex_single",
     { ".zero" },
     2 },
   { "shadow",
     nir_texop_tex,
     GLSL_SAMPLER_DIM_2D,
     false,
     true,
     2,
     2,
     2,
     -1,
     false,
     "tex_single",
     { ".shadow", ".computed" },
     3 },
   { "array",
     nir_texop_tex,
     GLSL_SAMPLER_DIM_2D,
     true,
     false,
     3,
     0,
     3,
     -1,
     false,
     "tex_single",
     { ".array_enable" },
     3 },
   /* X, the Y word a 1D array still has, the layer. */
   { "1d array",
     nir_texop_tex,
     GLSL_SAMPLER_DIM_1D,
     true,
     false,
     3,
     0,
     2,
     -1,
     false,
     "tex_single",
     { ".array_enable" },
     3 },
   { "3d",
     nir_texop_tex,
     GLSL_SAMPLER_DIM_3D,
     false,
     false,
     4,
     4,
     3,
     -1,
     false,
     "tex_single",
     { ".3d" },
     3 },
   { "fetch",
     nir_texop_txf,
     GLSL_SAMPLER_DIM_2D,
     false,
     false,
     1,
     0,
     2,
     0,
     false,
     "tex_fetch",
     { ".2d" },
     2 },
   { "fetch lod",
     nir_texop_txf,
     GLSL_SAMPLER_DIM_2D,
     false,
     false,
     1,
     0,
     2,
     2,
     false,
     "tex_fetch",
     { ".texel_offset" },
     3 },
   /* The face's S (face in bits 29-31) and T, then layer and reference. */
   { "cube",
     nir_texop_tex,
     GLSL_SAMPLER_DIM_CUBE,
     false,
     false,
     2,
     1,
     3,
     -1,
     false,
     "tex_single",
     { ".cube", ".computed" },
     2 },
   { "cube array shadow",
     nir_texop_tex,
     GLSL_SAMPLER_DIM_CUBE,
     true,
     true,
     0,
     0,
     4,
     -1,
     false,
     "tex_single",
     { ".cube", ".array_enable", ".shadow" },
     4 },
   /* texelFetch(samplerBuffer): a 1D fetch of level 0, one word. */
   { "buffer fetch", nir_texop_txf, GLSL_SAMPLER_DIM_BUF, false, false, 6, 0,
     1, 0, false, "tex_fetch", { ".1d" }, 1 },
   /* textureOffset: s8 x and y in the low bytes of the offset word. */
   { "offset", nir_texop_tex, GLSL_SAMPLER_DIM_2D, false, false, 0, 0, 2, -1,
     false, "tex_single", { ".2d", ".texel_offset", ".computed" }, 3, true,
     { 3, -2 }, 0, 0xfe03 },
   /* texelFetchOffset: the level in the top byte of the same word. */
   { "fetch offset", nir_texop_txf, GLSL_SAMPLER_DIM_2D, false, false, 1, 0,
     2, 2, false, "tex_fetch", { ".texel_offset" }, 3, true, { 1, 2 }, 0,
     0x02000201 },
   /* textureGather: TEX_GATHER of the component, no LOD word. */
   { "gather", nir_texop_tg4, GLSL_SAMPLER_DIM_2D, false, false, 2, 1, 2,
     -1, false, "tex_gather", { ".2d", ".gather4_g" }, 2, false, { 0 }, 1 },
   { "gather offset", nir_texop_tg4, GLSL_SAMPLER_DIM_2D, true, false, 0, 0,
     3, -1, false, "tex_gather",
     { ".array_enable", ".texel_offset", ".gather4_a" }, 4, true, { -8, 7 },
     3, 0x07f8 },
   { "shadow gather", nir_texop_tg4, GLSL_SAMPLER_DIM_CUBE, false, true, 0,
     0, 3, -1, false, "tex_gather", { ".cube", ".shadow", ".gather4_r" }, 3 },
};

/* The count of lines before `before` that start with prefix. */
static unsigned
count_lines(char **l, unsigned before, const char *prefix)
{
   unsigned n = 0;
   for (unsigned i = 0; i < before; ++i)
      n += !strncmp(l[i], prefix, strlen(prefix));
   return n;
}

/* A cube map's coordinates are the face selection, both numerators, one
 * reciprocal, two clamped fmas and the mux keeping S's low 29 bits. */
static void
check_cube_sequence(const struct tex_case *c, char **l, unsigned at,
                    const struct pan_va_binary *bin)
{
   if (c->dim != GLSL_SAMPLER_DIM_CUBE)
      return;
   PAN_EXPECT_EQ(count_lines(l, at, "cubeface1 "), 1);
   PAN_EXPECT_EQ(count_lines(l, at, "cubeface2 "), 1);
   PAN_EXPECT_EQ(count_lines(l, at, "cube_ssel "), 1);
   PAN_EXPECT_EQ(count_lines(l, at, "cube_tsel "), 1);
   PAN_EXPECT_EQ(count_lines(l, at, "frcp.f32 "), 1);
   PAN_EXPECT_EQ(count_lines(l, at, "fma.f32.clamp_0_1 "), 2);
   PAN_EXPECT_EQ(count_lines(l, at, "mux.i32.bit "), 1);
   /* The mask is materialized or a pushed constant the mux reads. */
   bool mask = false;
   for (unsigned i = 0; i < at; ++i) {
      const char *k = strstr(l[i], "constant:");
      const char *u = strstr(l[i], ", u");
      mask |= !strncmp(l[i], "iadd_imm", 8) && k &&
              strtoll(k + 9, NULL, 0) == 0x1fffffff;
      if (!strncmp(l[i], "mux.i32.bit ", 12) && u) {
         unsigned w = (unsigned)atoi(u + 3);
         mask |= w < bin->nr_push &&
                 bin->push[w].source == PAN_VA_PUSH_CONSTANT &&
                 bin->push[w].offset_B == 0x1fffffff;
      }
   }
   PAN_EXPECT(mask);
}

static void
test_forms(void)
{
   for (unsigned i = 0; i < ARRAY_SIZE(cases); ++i) {
      unsigned before = pan_test_failures;
      run_case(&cases[i]);
      if (pan_test_failures != before)
         fprintf(stderr, "  in case %s\n", cases[i].name);
   }
}

/* textureGrad(): an explicit-LOD TEX_SINGLE whose LOD comes from the
 * gradients scaled by the texture size, which the driver pushes (the
 * PAN_VA_PUSH_TEXTURE_SIZE words of the texture, width and height). */
static void
test_gradients(void)
{
   void *ctx = ralloc_context(NULL);
   nir_builder b = nir_builder_init_simple_shader(MESA_SHADER_FRAGMENT,
                                                  &pan_va_nir_options, "txd");
   nir_tex_instr *t = nir_tex_instr_create(b.shader, 3);
   t->op = nir_texop_txd;
   t->sampler_dim = GLSL_SAMPLER_DIM_2D;
   t->texture_index = 3;
   t->sampler_index = 1;
   t->coord_components = 2;
   t->dest_type = nir_type_float32;
   static const nir_tex_src_type types[] = { nir_tex_src_coord,
                                             nir_tex_src_ddx,
                                             nir_tex_src_ddy };
   for (unsigned i = 0; i < 3; ++i) {
      t->src[i].src_type = types[i];
      t->src[i].src = nir_src_for_ssa(varying(&b, i, 2));
   }
   nir_ssa_dest_init(&t->instr, &t->dest, 4, 32, NULL);
   nir_builder_instr_insert(&b, &t->instr);
   nir_variable *out =
      nir_variable_create(b.shader, nir_var_shader_out, glsl_vec4_type(), "o");
   out->data.location = FRAG_RESULT_DATA0;
   nir_store_var(&b, out, &t->dest.ssa, 0xf);

   struct pan_va_binary bin;
   char err[256];
   if (!pan_va_compile(b.shader, ctx, &bin, NULL, err, sizeof(err))) {
      pan_test_fail("txd: %s", err);
      goto out;
   }
   bool sizes[2] = { false, false };
   for (unsigned i = 0; i < bin.nr_push; ++i) {
      const struct pan_va_push_word *w = &bin.push[i];
      if (w->source == PAN_VA_PUSH_CONSTANT)
         continue;
      PAN_EXPECT(w->source == PAN_VA_PUSH_TEXTURE_SIZE);
      PAN_EXPECT(w->ubo == 3 && w->offset_B < 8);
      if (w->offset_B < 8)
         sizes[w->offset_B / 4] = true;
   }
   PAN_EXPECT(sizes[0] && sizes[1]);
   bool explicit_lod = false, converts = false, lod_low_half = false;
   for (unsigned i = 0; i < bin.nr_words; ++i) {
      char buf[256];
      pan_va_print(bin.words[i], buf, sizeof(buf));
      if (!strncmp(buf, "tex_single", 10))
         explicit_lod |= strstr(buf, ".2d.explicit") != NULL;
      /* The integer sizes are made floats. */
      converts |= !strncmp(buf, "s32_to_f32", 10) && strstr(buf, ", u");
      PAN_EXPECT(strncmp(buf, "tex_single", 10) || strstr(buf, ".explicit"));
      /* The 8.8 LOD keeps its low half on the CVT unit, not by a shift. */
      lod_low_half |= !strncmp(buf, "u16_to_u32", 10) && strstr(buf, ".h00");
      PAN_EXPECT(strncmp(buf, "lshift_and", 10));
   }
   PAN_EXPECT(explicit_lod && converts && lod_low_half);
out:
   ralloc_free(ctx);
   ralloc_free(b.shader);
}

/* What is not implemented is refused by name. */
static void
test_refusals(void)
{
   struct tex_case c = { "gather", nir_texop_tg4, GLSL_SAMPLER_DIM_3D };
   c.coords = 3;
   c.lod_const = -1;
   nir_shader *s = build(&c);
   struct pan_va_binary bin;
   char err[256];
   PAN_EXPECT(!pan_va_compile(s, NULL, &bin, NULL, err, sizeof(err)));
   PAN_EXPECT_STR_HAS(err, "3D gathers");
   ralloc_free(s);
}

int
main(void)
{
   glsl_type_singleton_init_or_ref();
   PAN_RUN_CASE(test_forms);
   PAN_RUN_CASE(test_gradients);
   PAN_RUN_CASE(test_refusals);
   glsl_type_singleton_decref();
   return pan_test_summary("pan_va_tex");
}
