/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * The graphics lowerings and the newer ALU ops of our compiler.
 *
 * What the Valhall interpreter models runs there against C references:
 * rounding, reciprocal and square-root ops in a compute shader, and a
 * fragment shader's discard on uniforms.  The messages it does not model
 * yet (attributes, varyings, ATEST, BLEND) are checked on the emitted
 * words: decoded with the isa library's printer, the instruction and its
 * operands are compared with the forms the v9 driver expects (see
 * docs/drivers/panfrost/compiler.rst, "Driver interface").
 */

#include <float.h>
#include <math.h>
#include <string.h>

#include "compiler/nir/nir_builder.h"
#include "isa/pan_isa_va.h"
#include "pan_compile.h"
#include "pan_sim_va.h"
#include "util/pan_test_util.h"
#include "util/u_math.h"

#define PAN_VA_TEST_MEM_SIZE 1024
#include "pan_va_test_sim.h"

static uint64_t seed = 0x9fa5c0de;

/* Compile s into bin on ctx; on failure report it and free ctx and s. */
static bool
compile_or_free(nir_shader *s, void *ctx, struct pan_va_binary *bin)
{
   char err[256];
   if (pan_va_compile(s, ctx, bin, NULL, err, sizeof(err)))
      return true;
   pan_test_fail("%s: %s", s->info.name, err);
   ralloc_free(ctx);
   ralloc_free(s);
   return false;
}

/* Start compute shader name in b; the address of the invocation's element
 * (of size_B bytes) in the buffer at u0:u1. */
static nir_ssa_def *
compute_elem_addr(nir_builder *b, const char *name, unsigned size_B)
{
   *b = nir_builder_init_simple_shader(MESA_SHADER_COMPUTE, &pan_va_nir_options,
                                       "%s", name);
   nir_ssa_def *i = nir_channel(b, nir_load_global_invocation_id(b, 32), 0);
   nir_ssa_def *base = nir_load_push_constant(b, 1, 64, nir_imm_int(b, 0),
                                              .base = 0, .range = 16);
   return nir_iadd(b, base, nir_u2u64(b, nir_imul_imm(b, i, size_B)));
}

/* The words of a compile as text lines (ralloc'd on ctx), NULL on error. */
static char **
compile_text(nir_shader *nir, enum pan_va_variant variant, void *ctx,
             struct pan_va_binary *bin, unsigned *nr)
{
   struct pan_va_compile_options opts = { .variant = variant };
   char err[256];
   if (!pan_va_compile_opts(nir, ctx, &opts, bin, NULL, err, sizeof(err))) {
      pan_test_fail("%s: %s", nir->info.name, err);
      return NULL;
   }
   char **lines = ralloc_array(ctx, char *, bin->nr_words);
   for (unsigned i = 0; i < bin->nr_words; ++i) {
      char buf[256];
      pan_va_print(bin->words[i], buf, sizeof(buf));
      lines[i] = ralloc_strdup(ctx, buf);
   }
   *nr = bin->nr_words;
   return lines;
}

/* Whether some "mov.i32 rN, <reg>" copies reg: preloaded registers are
 * read in place, never copied. */
static bool
copies(char **lines, unsigned nr, const char *reg)
{
   for (unsigned i = 0; lines && i < nr; ++i) {
      const char *comma = strchr(lines[i], ',');
      if (!strncmp(lines[i], "mov.i32 r", 9) && comma &&
          !strcmp(comma + 2, reg))
         return true;
   }
   return false;
}

/* Index of the first line starting with prefix, or -1. */
static int
find_line(char **lines, unsigned nr, const char *prefix)
{
   for (unsigned i = 0; lines && i < nr; ++i) {
      if (!strncmp(lines[i], prefix, strlen(prefix)))
         return (int)i;
   }
   return -1;
}

static void
dump(char **lines, unsigned nr)
{
   for (unsigned i = 0; lines && i < nr; ++i)
      fprintf(stderr, "   %s\n", lines[i]);
}

/* The end of a case on the emitted words: dump them if a check failed so
 * far, free ctx and s. */
static void
finish(char **lines, unsigned nr, void *ctx, nir_shader *s)
{
   if (pan_test_failures)
      dump(lines, nr);
   ralloc_free(ctx);
   ralloc_free(s);
}

/* nr words of UBO 0 from byte offset_B, pushed as uniforms. */
static nir_ssa_def *
uniforms(nir_builder *b, unsigned nr, unsigned offset_B)
{
   return nir_load_ubo(b, nr, 32, nir_imm_int(b, 0), nir_imm_int(b, offset_B),
                       .align_mul = 4, .range = ~0);
}

/* Run the compute shader bin on one warp over a memory holding in (its
 * buffer at u0:u1); the memory after the run. */
static struct mem *
run_compute(const struct pan_va_binary *bin, const void *in, size_t size,
            const char *name)
{
   static struct mem m;
   memset(&m, 0, sizeof(m));
   memcpy(m.bytes, in, size);
   uint32_t u[2] = { (uint32_t)MEM_BASE, 0 };
   struct pan_sim_va_config cfg = sim_config(bin, &m, u, 2);
   struct pan_sim_va_warp w;
   compute_warp_init(&w);
   PAN_CHECK(pan_sim_va_run(&w, &cfg) == PAN_SIM_VA_DONE, "%s: %s", name,
             w.fault);
   return &m;
}

static nir_variable *
io_var(nir_shader *s, nir_variable_mode mode, const struct glsl_type *t,
       unsigned location, unsigned driver_location, const char *name)
{
   nir_variable *v = nir_variable_create(s, mode, t, name);
   v->data.location = location;
   v->data.driver_location = driver_location;
   return v;
}

/* Vertex shader: attribute 2 times a uniform to VAR1, attribute 0 to the
 * position.  The two IDVS variants store what they own only. */
static nir_shader *
vertex_shader(void)
{
   nir_builder b = nir_builder_init_simple_shader(MESA_SHADER_VERTEX,
                                                  &pan_va_nir_options, "vs");
   nir_variable *a0 = io_var(b.shader, nir_var_shader_in, glsl_vec4_type(),
                             VERT_ATTRIB_GENERIC0, 0, "a0");
   nir_variable *a2 = io_var(b.shader, nir_var_shader_in, glsl_vec4_type(),
                             VERT_ATTRIB_GENERIC2, 2, "a2");
   nir_variable *pos = io_var(b.shader, nir_var_shader_out, glsl_vec4_type(),
                              VARYING_SLOT_POS, 0, "pos");
   nir_variable *v1 = io_var(b.shader, nir_var_shader_out, glsl_vec4_type(),
                             VARYING_SLOT_VAR1, 1, "v1");
   nir_ssa_def *k = uniforms(&b, 1, 8);
   nir_store_var(&b, pos, nir_load_var(&b, a0), 0xf);
   nir_store_var(&b, v1, nir_fmul(&b, nir_load_var(&b, a2), k), 0xf);
   return b.shader;
}

static void
test_vertex_position(void)
{
   void *ctx = ralloc_context(NULL);
   struct pan_va_binary bin;
   unsigned nr = 0;
   nir_shader *s = vertex_shader();
   char **l = compile_text(s, PAN_VA_VARIANT_POSITION, ctx, &bin, &nr);

   /* Attribute 0 from table 1 by vertex id (r60) and instance id (r61). */
   int a = find_line(l, nr, "ld_attr_imm");
   PAN_EXPECT(a >= 0);
   if (a >= 0) {
      PAN_EXPECT_STR_HAS(l[a], ".v4");
      PAN_EXPECT_STR_HAS(l[a], ".f32");
      PAN_EXPECT_STR_HAS(l[a], "}, r60, r61, index:0, table:1");
      PAN_EXPECT(!copies(l, nr, "r60") && !copies(l, nr, "r61"));
   }
   /* No other attribute: the varying variant reads a2. */
   PAN_EXPECT(!strstr(a >= 0 ? l[a] : "", "index:2"));
   int lea = find_line(l, nr, "lea_buf_imm");
   PAN_EXPECT(lea >= 0);
   if (lea >= 0) {
      PAN_EXPECT_STR_HAS(l[lea], "}, r59, table:13, index:0");
      PAN_EXPECT(!copies(l, nr, "r59"));
   }
   int st = find_line(l, nr, "store.i128");
   PAN_EXPECT(st > lea);
   /* The viewport transform writes the stored vector in place, scale and
    * offset fused into one FMA per component. */
   PAN_EXPECT(find_line(l, nr, "fadd") < 0);
   if (st >= 0) {
      PAN_EXPECT_STR_HAS(l[st], ".istream");
      PAN_EXPECT_STR_HAS(l[st], "offset:0");
   }
   /* The viewport transform reads the pushed scale and offset. */
   PAN_EXPECT(bin.nr_push == 6);
   unsigned scale = 0, offset = 0;
   for (unsigned i = 0; i < bin.nr_push; ++i) {
      scale += bin.push[i].source == PAN_VA_PUSH_VIEWPORT_SCALE;
      offset += bin.push[i].source == PAN_VA_PUSH_VIEWPORT_OFFSET;
   }
   PAN_EXPECT(scale == 3 && offset == 3);
   /* Each component's scale and offset share a 64-bit FAU slot (scale
    * low), so that its FMA reads both. */
   unsigned pairs = 0;
   for (unsigned i = 0; i + 1 < bin.nr_push; i += 2) {
      pairs += bin.push[i].source == PAN_VA_PUSH_VIEWPORT_SCALE &&
               bin.push[i + 1].source == PAN_VA_PUSH_VIEWPORT_OFFSET &&
               bin.push[i + 1].offset_B == bin.push[i].offset_B;
   }
   PAN_EXPECT(pairs == 3);
   finish(l, nr, ctx, s);
}

/* gl_VertexID's first vertex, gl_BaseVertex, gl_BaseInstance and
 * gl_DrawID are pushed words the driver fills per draw: one each. */
static void
test_draw_parameters(void)
{
   void *ctx = ralloc_context(NULL);
   struct pan_va_binary bin;
   unsigned nr = 0;
   nir_builder b = nir_builder_init_simple_shader(MESA_SHADER_VERTEX,
                                                  &pan_va_nir_options, "vs");
   nir_variable *pos = io_var(b.shader, nir_var_shader_out, glsl_vec4_type(),
                              VARYING_SLOT_POS, 0, "pos");
   nir_ssa_def *p = nir_vec4(&b, nir_load_first_vertex(&b),
                             nir_load_base_vertex(&b),
                             nir_load_base_instance(&b), nir_load_draw_id(&b));
   nir_store_var(&b, pos, nir_i2f32(&b, p), 0xf);
   char **l = compile_text(b.shader, PAN_VA_VARIANT_POSITION, ctx, &bin, &nr);

   unsigned seen = 0, draw = 0;
   for (unsigned i = 0; i < bin.nr_push; ++i) {
      if (bin.push[i].source != PAN_VA_PUSH_DRAW)
         continue;
      draw++;
      seen |= 1u << (bin.push[i].offset_B / 4);
   }
   PAN_EXPECT(draw == PAN_VA_DRAW_PARAMS);
   PAN_EXPECT(seen == BITFIELD_MASK(PAN_VA_DRAW_PARAMS));
   finish(l, nr, ctx, b.shader);
}

static void
test_vertex_varying(void)
{
   void *ctx = ralloc_context(NULL);
   struct pan_va_binary bin;
   unsigned nr = 0;
   nir_shader *s = vertex_shader();
   char **l = compile_text(s, PAN_VA_VARIANT_VARYING, ctx, &bin, &nr);

   int a = find_line(l, nr, "ld_attr_imm");
   PAN_EXPECT(a >= 0);
   if (a >= 0)
      PAN_EXPECT_STR_HAS(l[a], "index:2, table:1");
   /* VAR1 is the second 16-byte slot of the varying buffer. */
   int st = find_line(l, nr, "store.i128");
   PAN_EXPECT(st >= 0);
   if (st >= 0) {
      PAN_EXPECT_STR_HAS(l[st], ".estream");
      PAN_EXPECT_STR_HAS(l[st], "offset:16");
   }
   /* The uniform (UBO 0, byte 8) is the only pushed word, read as u0. */
   PAN_EXPECT(bin.nr_push == 1);
   PAN_EXPECT(bin.push[0].source == PAN_VA_PUSH_UBO && bin.push[0].ubo == 0 &&
              bin.push[0].offset_B == 8);
   PAN_EXPECT(find_line(l, nr, "fma.f32") >= 0);
   for (unsigned i = 0; i < nr; ++i) {
      if (!strncmp(l[i], "fma.f32", 7))
         PAN_EXPECT_STR_HAS(l[i], "u0");
   }
   finish(l, nr, ctx, s);
}

/* Varyings stored from a constant and from a uniform: the store's data is
 * a staging register range, so both values must reach registers (copy
 * propagation used to leave the constant there, and emission indexed the
 * register file with its bits). */
static void
test_constant_varyings(void)
{
   void *ctx = ralloc_context(NULL);
   nir_builder b = nir_builder_init_simple_shader(MESA_SHADER_VERTEX,
                                                  &pan_va_nir_options, "vs");
   nir_variable *pos = io_var(b.shader, nir_var_shader_out, glsl_vec4_type(),
                              VARYING_SLOT_POS, 0, "pos");
   nir_variable *v1 = io_var(b.shader, nir_var_shader_out, glsl_float_type(),
                             VARYING_SLOT_VAR1, 1, "v1");
   nir_variable *v2 = io_var(b.shader, nir_var_shader_out, glsl_float_type(),
                             VARYING_SLOT_VAR2, 2, "v2");
   nir_store_var(&b, pos, nir_imm_vec4(&b, 0, 0, 0, 1), 0xf);
   nir_store_var(&b, v1, nir_imm_float(&b, 1.0f), 0x1);
   nir_store_var(&b, v2, uniforms(&b, 1, 4), 0x1);
   struct pan_va_binary bin;
   unsigned nr = 0;
   char **l = compile_text(b.shader, PAN_VA_VARIANT_VARYING, ctx, &bin, &nr);
   unsigned stores = 0;
   for (unsigned i = 0; l && i < nr; ++i)
      stores += !strncmp(l[i], "store", 5);
   PAN_EXPECT(stores == 2);
   finish(l, nr, ctx, b.shader);
}

/* One output written piecewise, as Mesa's varying compaction leaves a
 * packed vec4: .x from a constant, .yzw from uniforms.  Both parts reach
 * the slot in one whole store (a .yzw store from the slot's start used to
 * overwrite .x with the unwritten first word). */
static void
test_piecewise_varying(void)
{
   void *ctx = ralloc_context(NULL);
   nir_builder b = nir_builder_init_simple_shader(MESA_SHADER_VERTEX,
                                                  &pan_va_nir_options, "vs");
   nir_variable *pos = io_var(b.shader, nir_var_shader_out, glsl_vec4_type(),
                              VARYING_SLOT_POS, 0, "pos");
   nir_variable *v1 = io_var(b.shader, nir_var_shader_out, glsl_vec4_type(),
                             VARYING_SLOT_VAR1, 1, "v1");
   nir_store_var(&b, pos, nir_imm_vec4(&b, 0, 0, 0, 1), 0xf);
   nir_store_var(&b, v1, nir_imm_vec4(&b, 1.0f, 0, 0, 0), 0x1);
   nir_ssa_def *u = uniforms(&b, 4, 0);
   nir_store_var(&b, v1, u, 0xe);
   struct pan_va_binary bin;
   unsigned nr = 0;
   char **l = compile_text(b.shader, PAN_VA_VARIANT_VARYING, ctx, &bin, &nr);
   unsigned stores = 0;
   for (unsigned i = 0; l && i < nr; ++i)
      stores += !strncmp(l[i], "store", 5);
   PAN_EXPECT(stores == 1);
   int st = find_line(l, nr, "store.i128");
   PAN_EXPECT(st >= 0);
   if (st >= 0)
      PAN_EXPECT_STR_HAS(l[st], "offset:16");
   finish(l, nr, ctx, b.shader);
}

/* Fixed-function varyings take the slots after the 32 generic ones, the
 * same in both stages: gl_FrontColor / gl_Color slot 32, gl_TexCoord[0]
 * slot 33, read at a register offset (past LD_VAR_BUF_IMM's byte 255).
 * They share no slot with a generic varying. */
static void
test_ff_varyings(void)
{
   void *ctx = ralloc_context(NULL);
   nir_builder b = nir_builder_init_simple_shader(MESA_SHADER_VERTEX,
                                                  &pan_va_nir_options, "ffvs");
   nir_variable *a0 = io_var(b.shader, nir_var_shader_in, glsl_vec4_type(),
                             VERT_ATTRIB_GENERIC0, 0, "a0");
   nir_variable *col = io_var(b.shader, nir_var_shader_out, glsl_vec4_type(),
                              VARYING_SLOT_COL0, 0, "col");
   nir_variable *tex = io_var(b.shader, nir_var_shader_out, glsl_vec4_type(),
                              VARYING_SLOT_TEX0, 1, "tex");
   nir_ssa_def *x = nir_load_var(&b, a0);
   nir_store_var(&b, col, x, 0xf);
   nir_store_var(&b, tex, nir_fmul(&b, x, x), 0xf);
   struct pan_va_binary bin;
   unsigned nr = 0;
   char **l = compile_text(b.shader, PAN_VA_VARIANT_VARYING, ctx, &bin, &nr);
   bool col_st = false, tex_st = false;
   for (unsigned i = 0; i < nr; ++i) {
      if (strncmp(l[i], "store.i128.estream", 18))
         continue;
      col_st |= strstr(l[i], "offset:512") != NULL;
      tex_st |= strstr(l[i], "offset:528") != NULL;
   }
   PAN_EXPECT(col_st && tex_st);
   if (pan_test_failures)
      dump(l, nr);
   ralloc_free(b.shader);

   b = nir_builder_init_simple_shader(MESA_SHADER_FRAGMENT, &pan_va_nir_options,
                                      "fffs");
   col = io_var(b.shader, nir_var_shader_in, glsl_vec4_type(),
                VARYING_SLOT_COL0, 0, "col");
   nir_variable *out = io_var(b.shader, nir_var_shader_out, glsl_vec4_type(),
                              FRAG_RESULT_DATA0, 0, "c");
   nir_store_var(&b, out, nir_load_var(&b, col), 0xf);
   l = compile_text(b.shader, PAN_VA_VARIANT_DEFAULT, ctx, &bin, &nr);
   PAN_EXPECT(find_line(l, nr, "ld_var_buf.f32") >= 0);
   PAN_EXPECT(find_line(l, nr, "ld_var_buf_imm.f32") < 0);
   if (pan_test_failures)
      dump(l, nr);
   ralloc_free(b.shader);

   /* VAR15 and gl_Color: slots 15 and 32. */
   b = nir_builder_init_simple_shader(MESA_SHADER_FRAGMENT, &pan_va_nir_options,
                                      "clash");
   col = io_var(b.shader, nir_var_shader_in, glsl_vec4_type(),
                VARYING_SLOT_COL0, 0, "col");
   nir_variable *v15 = io_var(b.shader, nir_var_shader_in, glsl_vec4_type(),
                              VARYING_SLOT_VAR15, 1, "v15");
   out = io_var(b.shader, nir_var_shader_out, glsl_vec4_type(),
                FRAG_RESULT_DATA0, 0, "c");
   nir_store_var(
      &b, out, nir_fadd(&b, nir_load_var(&b, col), nir_load_var(&b, v15)), 0xf);
   l = compile_text(b.shader, PAN_VA_VARIANT_DEFAULT, ctx, &bin, &nr);
   int ld = find_line(l, nr, "ld_var_buf_imm.f32");
   PAN_EXPECT(ld >= 0 && find_line(l, nr, "ld_var_buf.f32") >= 0);
   if (ld >= 0)
      PAN_EXPECT_STR_HAS(l[ld], "index:240");
   if (pan_test_failures)
      dump(l, nr);
   ralloc_free(b.shader);

   /* What the driver sizes the varying buffer with. */
   PAN_EXPECT_EQ(pan_va_varying_slots(BITFIELD64_BIT(VARYING_SLOT_VAR2)), 3);
   PAN_EXPECT_EQ(pan_va_varying_slots(BITFIELD64_BIT(VARYING_SLOT_POS) |
                                      BITFIELD64_BIT(VARYING_SLOT_TEX0)),
                 34);
   PAN_EXPECT_EQ(pan_va_varying_slots(BITFIELD64_BIT(VARYING_SLOT_POS)), 0);
   ralloc_free(ctx);
}

/* Constants outside the hardware table are pushed words in graphics
 * stages, read in place (no iadd_imm); two of one instruction share a
 * 64-bit pair, and an instruction reading a uniform already keeps its
 * constant in a register. */
static void
test_pushed_constants(void)
{
   void *ctx = ralloc_context(NULL);
   nir_builder b = nir_builder_init_simple_shader(MESA_SHADER_FRAGMENT,
                                                  &pan_va_nir_options, "k");
   nir_variable *v0 = io_var(b.shader, nir_var_shader_in, glsl_vec4_type(),
                             VARYING_SLOT_VAR0, 0, "v0");
   nir_variable *out = io_var(b.shader, nir_var_shader_out, glsl_vec4_type(),
                              FRAG_RESULT_DATA0, 0, "c");
   nir_ssa_def *x = nir_load_var(&b, v0);
   nir_ssa_def *u = uniforms(&b, 1, 4);
   nir_ssa_def *c[4] = {
      nir_fmul_imm(&b, nir_channel(&b, x, 0), 0.1234f),
      nir_ffma(&b, nir_channel(&b, x, 1), nir_imm_float(&b, 0.1234f),
               nir_imm_float(&b, 0.777f)),
      nir_ffma(&b, nir_channel(&b, x, 2), u, nir_imm_float(&b, 0.555f)),
      nir_channel(&b, x, 3),
   };
   nir_store_var(&b, out, nir_vec(&b, c, 4), 0xf);
   struct pan_va_binary bin;
   unsigned nr = 0;
   char **l = compile_text(b.shader, PAN_VA_VARIANT_DEFAULT, ctx, &bin, &nr);
   int w1234 = -1, w777 = -1;
   for (unsigned i = 0; i < bin.nr_push; ++i) {
      if (bin.push[i].source != PAN_VA_PUSH_CONSTANT)
         continue;
      if (bin.push[i].offset_B == fui(0.1234f))
         w1234 = i;
      if (bin.push[i].offset_B == fui(0.777f))
         w777 = i;
      PAN_EXPECT(bin.push[i].offset_B != fui(0.555f));
   }
   PAN_EXPECT(w1234 >= 0 && w777 >= 0 && w1234 / 2 == w777 / 2);
   /* Only the constant beside the uniform is materialized. */
   unsigned materialized = 0;
   for (unsigned i = 0; i < nr; ++i)
      materialized +=
         !strncmp(l[i], "iadd_imm.i32", 12) && !strstr(l[i], "r48");
   PAN_EXPECT_EQ(materialized, 1);
   finish(l, nr, ctx, b.shader);
}

/* Fragment shader: smooth VAR0 plus flat VAR2, to render target 0. */
static void
test_fragment(void)
{
   void *ctx = ralloc_context(NULL);
   nir_builder b = nir_builder_init_simple_shader(MESA_SHADER_FRAGMENT,
                                                  &pan_va_nir_options, "fs");
   nir_variable *v0 = io_var(b.shader, nir_var_shader_in, glsl_vec4_type(),
                             VARYING_SLOT_VAR0, 0, "v0");
   nir_variable *v2 = io_var(b.shader, nir_var_shader_in, glsl_vec4_type(),
                             VARYING_SLOT_VAR2, 2, "v2");
   v2->data.interpolation = INTERP_MODE_FLAT;
   nir_variable *out = io_var(b.shader, nir_var_shader_out, glsl_vec4_type(),
                              FRAG_RESULT_DATA0, 0, "colour");
   nir_store_var(&b, out,
                 nir_fadd(&b, nir_load_var(&b, v0), nir_load_var(&b, v2)), 0xf);
   struct pan_va_binary bin;
   unsigned nr = 0;
   char **l = compile_text(b.shader, PAN_VA_VARIANT_DEFAULT, ctx, &bin, &nr);

   int smooth = find_line(l, nr, "ld_var_buf_imm.f32");
   PAN_EXPECT(smooth >= 0);
   bool saw_flat = false, saw_smooth = false;
   for (unsigned i = 0; i < nr; ++i) {
      if (strncmp(l[i], "ld_var_buf_imm.f32", 18))
         continue;
      PAN_EXPECT_STR_HAS(l[i], "}, r61, ");
      if (strstr(l[i], "src_flat32")) {
         saw_flat = true;
         PAN_EXPECT_STR_HAS(l[i], "index:32");
      } else {
         saw_smooth = true;
         PAN_EXPECT_STR_HAS(l[i], "src_f32");
         PAN_EXPECT(strstr(l[i], "index:0") && !strstr(l[i], "index:0x"));
      }
   }
   PAN_EXPECT(saw_flat && saw_smooth);
   /* The sums are computed into the BLEND's staging vector in place: no
    * move builds it, and the preloads are read where they are. */
   PAN_EXPECT(find_line(l, nr, "mov") < 0);
   PAN_EXPECT(bin.work_regs <= 16);
   /* The tail: ATEST on the coverage, BLEND of target 0 ending the shader,
    * then the blend shader call (r48 = 0, branch to descriptor word 1);
    * a blend shader finds the colour and the coverage where the BLEND
    * reads them. */
   PAN_EXPECT(nr >= 4);
   if (nr >= 4) {
      PAN_EXPECT(find_line(l, nr, "atest") == (int)nr - 5 ||
                 find_line(l, nr, "atest") >= 0);
      PAN_EXPECT_STR_HAS(l[find_line(l, nr, "atest")], "atest_datum");
      PAN_EXPECT_STR_HAS(l[nr - 3], "blend");
      PAN_EXPECT_STR_HAS(l[nr - 3], "blend_descriptor_0");
      PAN_EXPECT_STR_HAS(l[nr - 3], ".end");
      PAN_EXPECT_STR_HAS(l[nr - 3], "target:0");
      char want[64];
      snprintf(want, sizeof(want), "{r%u:4}, blend_descriptor_0.w0, r%u,",
               bin.blend_regs[0].colour, bin.blend_regs[0].coverage);
      PAN_EXPECT_STR_HAS(l[nr - 3], want);
      PAN_EXPECT_EQ(bin.blend_regs[1].colour, 0xff);
      PAN_EXPECT_STR_HAS(l[nr - 2], "iadd_imm.i32 r48");
      PAN_EXPECT_STR_HAS(l[nr - 1], "branchzi");
      PAN_EXPECT_STR_HAS(l[nr - 1], "blend_descriptor_0.w1");
   }
   finish(l, nr, ctx, b.shader);
}

/* Two render targets: the first BLEND skips the call sequence (r48 = the
 * word after it, the branch) and values live across it stay out of
 * r0-r15 (blend shaders' space). */
static void
test_two_targets(void)
{
   void *ctx = ralloc_context(NULL);
   nir_builder b = nir_builder_init_simple_shader(MESA_SHADER_FRAGMENT,
                                                  &pan_va_nir_options, "fs2");
   nir_variable *v0 = io_var(b.shader, nir_var_shader_in, glsl_vec4_type(),
                             VARYING_SLOT_VAR0, 0, "v0");
   nir_variable *o0 = io_var(b.shader, nir_var_shader_out, glsl_vec4_type(),
                             FRAG_RESULT_DATA0, 0, "c0");
   nir_variable *o1 = io_var(b.shader, nir_var_shader_out, glsl_vec4_type(),
                             FRAG_RESULT_DATA1, 1, "c1");
   nir_ssa_def *x = nir_load_var(&b, v0);
   nir_store_var(&b, o0, x, 0xf);
   nir_store_var(&b, o1, nir_fmul(&b, x, x), 0xf);
   struct pan_va_binary bin;
   unsigned nr = 0;
   char **l = compile_text(b.shader, PAN_VA_VARIANT_DEFAULT, ctx, &bin, &nr);
   int first = find_line(l, nr, "blend");
   PAN_EXPECT(first >= 0 && nr >= 6);
   if (first >= 0 && nr >= 6) {
      PAN_EXPECT_STR_HAS(l[first], "target:2");
      PAN_EXPECT(!strstr(l[first], ".end"));
      PAN_EXPECT_STR_HAS(l[first], "blend_descriptor_0");
      PAN_EXPECT_STR_HAS(l[first + 1], "program_counter");
      PAN_EXPECT_STR_HAS(l[first + 1], "constant:16");
      int second = first + 3;
      PAN_EXPECT_STR_HAS(l[second], "blend_descriptor_1");
      PAN_EXPECT_STR_HAS(l[second], ".end");
      /* The second colour was computed before the first BLEND and is
       * read after it: it must not sit in r0-r15. */
      const char *at = strchr(l[second], '{');
      PAN_EXPECT(at && at[1] == 'r' && atoi(at + 2) >= 16);
   }
   finish(l, nr, ctx, b.shader);
}

/* gl_FragDepth: ZS_EMIT (depth only) reads the depth and the coverage
 * ATEST gave, and the BLEND reads the coverage ZS_EMIT gives; a shader
 * writing the depth alone ends after its ZS_EMIT. */
static void
test_depth_output(void)
{
   for (unsigned colour = 0; colour < 2; ++colour) {
      void *ctx = ralloc_context(NULL);
      nir_builder b = nir_builder_init_simple_shader(
         MESA_SHADER_FRAGMENT, &pan_va_nir_options, "depth%u", colour);
      nir_variable *v0 = io_var(b.shader, nir_var_shader_in, glsl_vec4_type(),
                                VARYING_SLOT_VAR0, 0, "v0");
      nir_variable *z = io_var(b.shader, nir_var_shader_out, glsl_float_type(),
                               FRAG_RESULT_DEPTH, 0, "z");
      nir_ssa_def *x = nir_load_var(&b, v0);
      nir_store_var(
         &b, z, nir_fmul(&b, nir_channel(&b, x, 2), nir_channel(&b, x, 0)), 1);
      if (colour) {
         nir_variable *o = io_var(b.shader, nir_var_shader_out,
                                  glsl_vec4_type(), FRAG_RESULT_DATA0, 0, "c");
         nir_store_var(&b, o, x, 0xf);
      }
      struct pan_va_binary bin;
      unsigned nr = 0;
      char **l = compile_text(b.shader, PAN_VA_VARIANT_DEFAULT, ctx, &bin, &nr);
      int zs = find_line(l, nr, "zs_emit.z.slot0");
      int at = find_line(l, nr, "atest");
      int bl = find_line(l, nr, "blend");
      PAN_EXPECT(zs >= 0);
      PAN_EXPECT(colour ? at >= 0 && at < zs && bl > zs : at < 0 && bl < 0);
      if (zs >= 0) {
         /* {cov out}, depth, stencil (unused), cov in */
         char out[8] = "", in[8] = "";
         PAN_EXPECT(!strstr(l[zs], ".stencil"));
         PAN_EXPECT(sscanf(l[zs], "%*s {%7[^:]:1}, r%*u, #0x0, %7s", out, in) ==
                    2);
         if (colour && at >= 0 && bl >= 0) {
            char atout[8] = "";
            PAN_EXPECT(sscanf(l[at], "atest.wait {%7[^:]", atout) == 1);
            PAN_EXPECT(!strcmp(atout, in));
            PAN_EXPECT(strstr(l[bl], out) != NULL);
         } else {
            PAN_EXPECT(!strcmp(in, "r60"));
            /* Nothing after it but the end. */
            PAN_EXPECT(zs + 1 == (int)nr - 1 && !strcmp(l[nr - 1], "nop.end"));
         }
      }
      finish(l, nr, ctx, b.shader);
   }
}

/* gl_FragStencilRefARB alone and with gl_FragDepth: one ZS_EMIT with the
 * stencil (and z) modifier, the reference its second source, the depth
 * its first (#0 when absent). */
static void
test_stencil_output(void)
{
   for (unsigned with_z = 0; with_z < 2; ++with_z) {
      void *ctx = ralloc_context(NULL);
      nir_builder b = nir_builder_init_simple_shader(
         MESA_SHADER_FRAGMENT, &pan_va_nir_options, "stencil%u", with_z);
      nir_variable *v0 = io_var(b.shader, nir_var_shader_in, glsl_vec4_type(),
                                VARYING_SLOT_VAR0, 0, "v0");
      nir_variable *st = io_var(b.shader, nir_var_shader_out, glsl_int_type(),
                                FRAG_RESULT_STENCIL, 0, "s");
      nir_ssa_def *x = nir_load_var(&b, v0);
      nir_store_var(&b, st, nir_f2i32(&b, nir_channel(&b, x, 1)), 1);
      if (with_z) {
         nir_variable *z = io_var(b.shader, nir_var_shader_out,
                                  glsl_float_type(), FRAG_RESULT_DEPTH, 0, "z");
         nir_store_var(&b, z, nir_channel(&b, x, 2), 1);
      }
      struct pan_va_binary bin;
      unsigned nr = 0;
      char **l = compile_text(b.shader, PAN_VA_VARIANT_DEFAULT, ctx, &bin, &nr);
      int zs = find_line(l, nr, with_z ? "zs_emit.z.stencil.slot0"
                                       : "zs_emit.stencil.slot0");
      PAN_EXPECT(zs >= 0);
      PAN_EXPECT(find_line(l, nr, "blend") < 0);
      if (zs >= 0) {
         char zsrc[8] = "", ssrc[8] = "";
         PAN_EXPECT(sscanf(l[zs], "%*s {%*[^}]}, %7[^,], %7[^,], r60", zsrc,
                           ssrc) == 2);
         PAN_EXPECT(ssrc[0] == 'r');
         PAN_EXPECT(with_z ? zsrc[0] == 'r' : !strcmp(zsrc, "#0x0"));
      }
      finish(l, nr, ctx, b.shader);
   }
}

/* Integer colour outputs blend with their register format; a missing alpha
 * is the integer 1 and the alpha test reads 1.0. */
static void
test_integer_outputs(void)
{
   static const struct {
      enum glsl_base_type base;
      const char *regfmt;
   } cases[] = {
      { GLSL_TYPE_INT, "blend.slot0.v4.s32.end" },
      { GLSL_TYPE_UINT, "blend.slot0.v4.u32.end" },
   };
   for (unsigned i = 0; i < ARRAY_SIZE(cases); ++i) {
      void *ctx = ralloc_context(NULL);
      nir_builder b = nir_builder_init_simple_shader(
         MESA_SHADER_FRAGMENT, &pan_va_nir_options, "int%u", i);
      nir_variable *o =
         io_var(b.shader, nir_var_shader_out,
                glsl_vector_type(cases[i].base, 3), FRAG_RESULT_DATA0, 0, "c");
      nir_ssa_def *k = uniforms(&b, 3, 0);
      nir_store_var(&b, o, nir_iadd_imm(&b, k, 7), 0x7);
      struct pan_va_binary bin;
      unsigned nr = 0;
      char **l = compile_text(b.shader, PAN_VA_VARIANT_DEFAULT, ctx, &bin, &nr);
      int bl = find_line(l, nr, cases[i].regfmt);
      int at = find_line(l, nr, "atest");
      PAN_EXPECT(bl >= 0 && at >= 0 && at < bl);
      if (at >= 0)
         PAN_EXPECT_STR_HAS(l[at], ", r60, #0x3f800000, atest_datum");
      if (bl >= 0) {
         /* Word 3 of the staging vector is set to 1. */
         unsigned base = 0;
         PAN_EXPECT(sscanf(l[bl], "%*s {r%u:4}", &base) == 1);
         char want[48];
         snprintf(want, sizeof(want), "iadd_imm.i32 r%u, #0x0, constant:1",
                  base + 3);
         int one = find_line(l, nr, want);
         PAN_EXPECT(one >= 0 && one < bl);
      }
      finish(l, nr, ctx, b.shader);
   }
}

/* discard_if(u0 < u1) on the interpreter: all lanes or none end. */
static void
test_discard_runs(void)
{
   for (unsigned rep = 0; rep < 6; ++rep) {
      nir_builder b = nir_builder_init_simple_shader(
         MESA_SHADER_FRAGMENT, &pan_va_nir_options, "discard");
      nir_ssa_def *u =
         nir_load_ubo(&b, 2, 32, nir_imm_int(&b, 0), nir_imm_int(&b, 0),
                      .align_mul = 8, .range = ~0);
      nir_discard_if(&b,
                     nir_flt(&b, nir_channel(&b, u, 0), nir_channel(&b, u, 1)));
      void *ctx = ralloc_context(NULL);
      struct pan_va_binary bin;
      if (!compile_or_free(b.shader, ctx, &bin))
         return;
      float f[2] = { (float)(pan_test_rng64(&seed) % 7),
                     (float)(pan_test_rng64(&seed) % 7) };
      uint32_t uw[2];
      memcpy(uw, f, sizeof(uw));
      static struct mem m;
      struct pan_sim_va_config cfg = sim_config(&bin, &m, uw, 2);
      struct pan_sim_va_warp w;
      pan_sim_va_warp_init(&w, 0xffff);
      PAN_EXPECT(bin.nr_push == 2 && bin.push[0].offset_B == 0 &&
                 bin.push[1].offset_B == 4);
      PAN_EXPECT(pan_sim_va_run(&w, &cfg) == PAN_SIM_VA_DONE);
      PAN_CHECK(w.discarded == (f[0] < f[1] ? 0xffff : 0), "%g < %g: 0x%x",
                f[0], f[1], w.discarded);
      ralloc_free(ctx);
      ralloc_free(b.shader);
   }
}

/* Rounding, reciprocal and square root over random floats. */
static void
test_float_ops(void)
{
   static const char *names[] = { "floor", "ceil", "trunc", "round_even",
                                  "rcp",   "sqrt", "sub" };
   for (unsigned op = 0; op < ARRAY_SIZE(names); ++op) {
      nir_builder b;
      nir_ssa_def *addr = compute_elem_addr(&b, names[op], 8);
      nir_ssa_def *v = nir_load_global(&b, addr, 4, 2, 32);
      nir_ssa_def *x = nir_channel(&b, v, 0), *r;
      switch (op) {
      case 0:
         r = nir_ffloor(&b, x);
         break;
      case 1:
         r = nir_fceil(&b, x);
         break;
      case 2:
         r = nir_ftrunc(&b, x);
         break;
      case 3:
         r = nir_fround_even(&b, x);
         break;
      case 4:
         r = nir_frcp(&b, x);
         break;
      case 5:
         r = nir_fsqrt(&b, nir_fabs(&b, x));
         break;
      default:
         r = nir_fsub(&b, x, nir_channel(&b, v, 1));
         break;
      }
      nir_store_global(&b, nir_iadd_imm(&b, addr, 4), 4, r, 1);

      float in[2 * LANES];
      for (unsigned l = 0; l < 2 * LANES; ++l)
         in[l] = ((int)(pan_test_rng64(&seed) % 20001) - 10000) / 64.0f +
                 (l == 2 ? 0.5f : 0.0f);
      in[4] = 2.5f, in[6] = -3.5f; /* ties */

      void *ctx = ralloc_context(NULL);
      struct pan_va_binary bin;
      if (!compile_or_free(b.shader, ctx, &bin))
         continue;
      struct mem *m = run_compute(&bin, in, sizeof(in), names[op]);
      for (unsigned l = 0; l < LANES; ++l) {
         float x = in[2 * l], got, want;
         memcpy(&got, m->bytes + 8 * l + 4, 4);
         switch (op) {
         case 0:
            want = floorf(x);
            break;
         case 1:
            want = ceilf(x);
            break;
         case 2:
            want = truncf(x);
            break;
         case 3:
            want = rintf(x);
            break;
         case 4:
            want = 1.0f / x;
            break;
         case 5:
            want = sqrtf(fabsf(x));
            break;
         default:
            want = x - in[2 * l + 1];
            break;
         }
         bool ok = op == 4 || op == 5 ? fabsf(got - want) <= fabsf(want) * 1e-6f
                                      : got == want;
         PAN_CHECK(ok, "%s(%g): %g, want %g", names[op], x, got, want);
      }
      ralloc_free(ctx);
      ralloc_free(b.shader);
   }
}

/* load_ubo at a dynamic offset (UBO 2, vec4 k + 3 of an array): the index
 * scaled by one shift, the constant added by iadd_imm, and one LD_BUFFER
 * of 128 bits from resource table 0 entry 2, its offset register being
 * the one the iadd_imm wrote. */
static void
test_dynamic_ubo(void)
{
   void *ctx = ralloc_context(NULL);
   nir_builder b = nir_builder_init_simple_shader(MESA_SHADER_FRAGMENT,
                                                  &pan_va_nir_options, "ubo");
   nir_variable *out = io_var(b.shader, nir_var_shader_out, glsl_vec4_type(),
                              FRAG_RESULT_DATA0, 0, "c");
   nir_ssa_def *k = uniforms(&b, 1, 0);
   nir_ssa_def *off = nir_iadd_imm(&b, nir_imul_imm(&b, k, 16), 48);
   nir_store_var(&b, out,
                 nir_load_ubo(&b, 4, 32, nir_imm_int(&b, 2), off,
                              .align_mul = 16, .range = ~0),
                 0xf);
   struct pan_va_binary bin;
   unsigned nr = 0;
   char **l = compile_text(b.shader, PAN_VA_VARIANT_DEFAULT, ctx, &bin, &nr);

   int sh = find_line(l, nr, "lshift_or.i32");
   int add = find_line(l, nr, "iadd_imm.i32");
   int ld = find_line(l, nr, "ld_buffer.i128");
   PAN_EXPECT(sh >= 0 && add > sh && ld > add);
   PAN_EXPECT(find_line(l, nr, "imul") < 0 && find_line(l, nr, "iadd.") < 0);
   if (sh >= 0 && add > sh && ld > add) {
      /* k is pushed as u0 and read in place by the shift. */
      PAN_EXPECT_STR_HAS(l[sh], ", u0, ");
      PAN_EXPECT_STR_HAS(l[add], "constant:48");
      char dst[8], want[32];
      PAN_EXPECT(sscanf(l[add], "iadd_imm.i32 %7[r0-9],", dst) == 1);
      snprintf(want, sizeof(want), "}, %s, ", dst);
      PAN_EXPECT_STR_HAS(l[ld], want);
      PAN_EXPECT_STR_HAS(l[ld], ".wait0");
      PAN_EXPECT_STR_HAS(l[ld], ":4}");
   }
   /* The only pushed UBO word is k; the UBO index 2 (the LUT has no
    * plain 2) may be a pushed constant. */
   PAN_EXPECT(bin.nr_push >= 1 && bin.push[0].source == PAN_VA_PUSH_UBO &&
              bin.push[0].ubo == 0 && bin.push[0].offset_B == 0);
   for (unsigned i = 1; i < bin.nr_push; ++i)
      PAN_EXPECT(bin.push[i].source == PAN_VA_PUSH_CONSTANT);
   finish(l, nr, ctx, b.shader);
}

/* More uniform words than the FAU table holds: the first ones are
 * pushed, the rest read from the buffer (LD_BUFFER at a constant offset)
 * instead of refusing the shader. */
static void
test_uniform_overflow(void)
{
   void *ctx = ralloc_context(NULL);
   nir_builder b = nir_builder_init_simple_shader(MESA_SHADER_FRAGMENT,
                                                  &pan_va_nir_options, "many");
   nir_variable *out = io_var(b.shader, nir_var_shader_out, glsl_vec4_type(),
                              FRAG_RESULT_DATA0, 0, "c");
   const unsigned vecs = PAN_VA_MAX_PUSH_WORDS / 4 + 8;
   nir_ssa_def *sum = uniforms(&b, 4, 0);
   for (unsigned i = 1; i < vecs; ++i)
      sum = nir_fadd(&b, sum, uniforms(&b, 4, 16 * i));
   nir_store_var(&b, out, sum, 0xf);
   struct pan_va_binary bin;
   unsigned nr = 0;
   char **l = compile_text(b.shader, PAN_VA_VARIANT_DEFAULT, ctx, &bin, &nr);

   PAN_EXPECT(l != NULL);
   unsigned loads = 0, ubo_words = 0;
   for (unsigned i = 0; l && i < nr; ++i)
      loads += !strncmp(l[i], "ld_buffer", 9);
   for (unsigned i = 0; i < bin.nr_push; ++i) {
      ubo_words += bin.push[i].source == PAN_VA_PUSH_UBO;
      PAN_EXPECT(bin.push[i].source != PAN_VA_PUSH_UBO ||
                 bin.push[i].offset_B < 16 * vecs);
   }
   /* Every vec4 either pushed whole or loaded. */
   PAN_EXPECT(l == NULL || ubo_words + 4 * loads == 4 * vecs);
   PAN_EXPECT(l == NULL || loads >= 8);
   finish(l, nr, ctx, b.shader);
}

/* A varying array indexed by a uniform: read as a select over its
 * elements, each loaded from its constant slot. */
static void
test_indirect_varying(void)
{
   void *ctx = ralloc_context(NULL);
   nir_builder b = nir_builder_init_simple_shader(MESA_SHADER_FRAGMENT,
                                                  &pan_va_nir_options, "arr");
   nir_variable *in =
      io_var(b.shader, nir_var_shader_in,
             glsl_array_type(glsl_vec4_type(), 3, 0), VARYING_SLOT_VAR2, 0,
             "arr");
   in->data.interpolation = INTERP_MODE_SMOOTH;
   nir_variable *out = io_var(b.shader, nir_var_shader_out, glsl_vec4_type(),
                              FRAG_RESULT_DATA0, 0, "c");
   nir_ssa_def *i = uniforms(&b, 1, 0);
   nir_store_var(&b, out,
                 nir_load_deref(&b, nir_build_deref_array(
                                       &b, nir_build_deref_var(&b, in), i)),
                 0xf);
   struct pan_va_binary bin;
   unsigned nr = 0;
   char **l = compile_text(b.shader, PAN_VA_VARIANT_DEFAULT, ctx, &bin, &nr);

   PAN_EXPECT(l != NULL);
   /* One load per element, at slots 2, 3 and 4 (16 bytes each). */
   for (unsigned e = 0; l && e < 3; ++e) {
      char want[32];
      snprintf(want, sizeof(want), "index:%u", 16 * (2 + e));
      bool found = false;
      for (unsigned k = 0; k < nr; ++k)
         found |= !strncmp(l[k], "ld_var", 6) && strstr(l[k], want);
      PAN_CHECK(found, "no load of element %u (%s)", e, want);
   }
   finish(l, nr, ctx, b.shader);
}

/* VAR20 (slot 20, byte 320): past LD_VAR_BUF_IMM's 8-bit offset the
 * fragment shader reads it with LD_VAR_BUF at a register offset, smooth
 * and flat; the vertex shader stores it at offset 320. */
static void
test_far_varyings(void)
{
   for (unsigned flat = 0; flat < 2; ++flat) {
      void *ctx = ralloc_context(NULL);
      nir_builder b = nir_builder_init_simple_shader(
         MESA_SHADER_FRAGMENT, &pan_va_nir_options, "far");
      nir_variable *in = io_var(b.shader, nir_var_shader_in, glsl_vec4_type(),
                                VARYING_SLOT_VAR20, 0, "v20");
      in->data.interpolation = flat ? INTERP_MODE_FLAT : INTERP_MODE_SMOOTH;
      nir_variable *out = io_var(b.shader, nir_var_shader_out,
                                 glsl_vec4_type(), FRAG_RESULT_DATA0, 0, "c");
      nir_store_var(&b, out, nir_load_var(&b, in), 0xf);
      struct pan_va_binary bin;
      unsigned nr = 0;
      char **l = compile_text(b.shader, PAN_VA_VARIANT_DEFAULT, ctx, &bin, &nr);
      int ld = find_line(l, nr, "ld_var_buf.f32");
      PAN_CHECK(ld >= 0, "%s: no LD_VAR_BUF", flat ? "flat" : "smooth");
      if (ld >= 0)
         PAN_EXPECT_STR_HAS(l[ld], flat ? "src_flat32" : "src_f32");
      PAN_EXPECT(find_line(l, nr, "ld_var_buf_imm") < 0);
      /* The offset, 320, is a pushed constant. */
      bool pushed = false;
      for (unsigned i = 0; i < bin.nr_push; ++i)
         pushed |= bin.push[i].source == PAN_VA_PUSH_CONSTANT &&
                   bin.push[i].offset_B == 320;
      PAN_EXPECT(pushed);
      finish(l, nr, ctx, b.shader);
   }

   void *ctx = ralloc_context(NULL);
   nir_builder b = nir_builder_init_simple_shader(MESA_SHADER_VERTEX,
                                                  &pan_va_nir_options, "vs");
   nir_variable *v20 = io_var(b.shader, nir_var_shader_out, glsl_vec4_type(),
                              VARYING_SLOT_VAR20, 0, "v20");
   nir_store_var(&b, v20, uniforms(&b, 4, 0), 0xf);
   struct pan_va_binary bin;
   unsigned nr = 0;
   char **l = compile_text(b.shader, PAN_VA_VARIANT_VARYING, ctx, &bin, &nr);
   int st = find_line(l, nr, "store.i128");
   PAN_EXPECT(st >= 0);
   if (st >= 0)
      PAN_EXPECT_STR_HAS(l[st], "offset:320");
   finish(l, nr, ctx, b.shader);
}

/* Compile the fragment shader s (freed) and run warp w, whose preloads
 * the caller set, with one uniform word; false after reporting a failure. */
static bool
run_fragment(nir_shader *s, uint32_t uniform, struct pan_sim_va_warp *w)
{
   void *ctx = ralloc_context(NULL);
   struct pan_va_binary bin;
   char err[256];
   bool ok = pan_va_compile(s, ctx, &bin, NULL, err, sizeof(err));
   if (!ok) {
      pan_test_fail("%s: %s", s->info.name, err);
   } else {
      static struct mem m;
      uint32_t u[PAN_VA_MAX_PUSH_WORDS] = { uniform };
      fill_push_constants(&bin, u, ARRAY_SIZE(u));
      struct pan_sim_va_config cfg =
         sim_config(&bin, &m, u, MAX2(bin.nr_push, 1));
      ok = pan_sim_va_run(w, &cfg) == PAN_SIM_VA_DONE;
      PAN_CHECK(ok, "%s: %s", s->info.name, w->fault);
   }
   ralloc_free(ctx);
   ralloc_free(s);
   return ok;
}

/* gl_FragCoord.x / .y on the interpreter: discard_if(coord < u0) over
 * lanes whose r59 holds the pixel position (x low half, y high half),
 * against the pixel centre x + 0.5 computed in C. */
static void
test_frag_coord_runs(void)
{
   for (unsigned rep = 0; rep < 8; ++rep) {
      unsigned c = rep & 1;
      nir_builder b = nir_builder_init_simple_shader(
         MESA_SHADER_FRAGMENT, &pan_va_nir_options, "fragcoord");
      nir_variable *fc = io_var(b.shader, nir_var_shader_in, glsl_vec4_type(),
                                VARYING_SLOT_POS, 0, "gl_FragCoord");
      nir_ssa_def *u = uniforms(&b, 1, 0);
      nir_discard_if(&b,
                     nir_flt(&b, nir_channel(&b, nir_load_var(&b, fc), c), u));
      /* Limits on pixel centres and edges, pixels around them: an
       * offset other than 0.5 changes the answer. */
      unsigned k = 2 + pan_test_rng64(&seed) % 1000;
      float limit = (float)k + (rep & 2 ? 0.5f : 1.0f);
      struct pan_sim_va_warp w;
      pan_sim_va_warp_init(&w, 0xffff);
      unsigned want = 0;
      for (unsigned l = 0; l < LANES; ++l) {
         uint32_t x = k - 2 + pan_test_rng64(&seed) % 5;
         uint32_t y = k - 2 + pan_test_rng64(&seed) % 5;
         w.r[l][59] = x | y << 16;
         if ((float)(c ? y : x) + 0.5f < limit)
            want |= 1u << l;
      }
      if (!run_fragment(b.shader, pan_test_u32(limit), &w))
         return;
      PAN_CHECK(w.discarded == want, "component %u < %g: 0x%x, want 0x%x", c,
                limit, w.discarded, want);
   }
}

/* gl_FrontFacing, as a bool input (GL's 0 / ~0 word) and as the
 * load_front_face system value: discard_if(facing) over lanes whose r58
 * is 0 for front-facing pixels. */
static void
test_front_facing_runs(void)
{
   for (unsigned sysval = 0; sysval < 2; ++sysval) {
      nir_builder b = nir_builder_init_simple_shader(
         MESA_SHADER_FRAGMENT, &pan_va_nir_options, "facing");
      nir_ssa_def *f;
      if (sysval) {
         f = nir_load_front_face(&b, 1);
      } else {
         nir_variable *v = io_var(b.shader, nir_var_shader_in,
                                  glsl_bool_type(), VARYING_SLOT_FACE, 0,
                                  "gl_FrontFacing");
         f = nir_load_var(&b, v);
      }
      nir_discard_if(&b, f);
      struct pan_sim_va_warp w;
      pan_sim_va_warp_init(&w, 0xffff);
      unsigned want = 0;
      for (unsigned l = 0; l < LANES; ++l) {
         w.r[l][58] = (l * 7 + sysval) % 3 ? 1 : 0;
         if (!w.r[l][58])
            want |= 1u << l;
      }
      if (!run_fragment(b.shader, 0, &w))
         return;
      PAN_CHECK(w.discarded == want, "sysval %u: 0x%x, want 0x%x", sysval,
                w.discarded, want);
   }
}

/* gl_PointCoord, as the PNTC input and as load_point_coord: one two-word
 * ld_var_special of special varying 0, no varying buffer read. */
static void
test_point_coord(void)
{
   for (unsigned sysval = 0; sysval < 2; ++sysval) {
      void *ctx = ralloc_context(NULL);
      nir_builder b = nir_builder_init_simple_shader(
         MESA_SHADER_FRAGMENT, &pan_va_nir_options, "pointcoord");
      nir_ssa_def *pc;
      if (sysval) {
         pc = nir_load_point_coord(&b);
      } else {
         nir_variable *v = io_var(b.shader, nir_var_shader_in,
                                  glsl_vec_type(2), VARYING_SLOT_PNTC, 0,
                                  "gl_PointCoord");
         pc = nir_load_var(&b, v);
      }
      nir_variable *out = io_var(b.shader, nir_var_shader_out,
                                 glsl_vec4_type(), FRAG_RESULT_DATA0, 0,
                                 "colour");
      nir_store_var(&b, out, nir_pad_vector_imm_int(&b, pc, 0, 4), 0xf);
      struct pan_va_binary bin;
      unsigned nr = 0;
      char **l = compile_text(b.shader, PAN_VA_VARIANT_DEFAULT, ctx, &bin, &nr);
      int i = find_line(l, nr, "ld_var_special");
      PAN_EXPECT(i >= 0);
      if (i >= 0) {
         PAN_EXPECT_STR_HAS(l[i], ".v2");
         PAN_EXPECT_STR_HAS(l[i], "index:0");
      }
      PAN_EXPECT(find_line(l, nr, "ld_var_buf") < 0);
      finish(l, nr, ctx, b.shader);
   }
}

/* Derivatives read the quad's lanes (clper): every pixel of a quad takes
 * its top-left pair's difference, lane 4q+1 minus 4q for x, 4q+2 minus
 * 4q for y.  Of f = x * y + x over gl_FragCoord, discarded where the
 * derivative is below a limit from the uniform. */
static void
test_derivatives_run(void)
{
   for (unsigned rep = 0; rep < 8; ++rep) {
      unsigned axis = 1 + (rep & 1);
      nir_builder b = nir_builder_init_simple_shader(
         MESA_SHADER_FRAGMENT, &pan_va_nir_options, "derivatives");
      nir_variable *fc = io_var(b.shader, nir_var_shader_in, glsl_vec4_type(),
                                VARYING_SLOT_POS, 0, "gl_FragCoord");
      nir_ssa_def *p = nir_load_var(&b, fc);
      nir_ssa_def *x = nir_channel(&b, p, 0), *y = nir_channel(&b, p, 1);
      nir_ssa_def *f = nir_fadd(&b, nir_fmul(&b, x, y), x);
      nir_ssa_def *d = axis == 1 ? nir_fddx(&b, f) : nir_fddy_fine(&b, f);
      nir_ssa_def *u = uniforms(&b, 1, 0);
      nir_discard_if(&b, nir_flt(&b, d, u));
      float fv[LANES];
      struct pan_sim_va_warp w;
      pan_sim_va_warp_init(&w, 0xffff);
      for (unsigned l = 0; l < LANES; ++l) {
         uint32_t px = pan_test_rng64(&seed) % 64,
                  py = pan_test_rng64(&seed) % 64;
         w.r[l][59] = px | py << 16;
         float fx = (float)px + 0.5f, fy = (float)py + 0.5f;
         fv[l] = fx * fy + fx;
      }
      float limit = fv[pan_test_rng64(&seed) % LANES] - fv[0];
      unsigned want = 0;
      for (unsigned l = 0; l < LANES; ++l) {
         unsigned q = l & ~3u;
         if (fv[q + axis] - fv[q] < limit)
            want |= 1u << l;
      }
      if (!run_fragment(b.shader, pan_test_u32(limit), &w))
         return;
      PAN_CHECK(w.discarded == want, "axis %u, limit %g: 0x%x, want 0x%x", axis,
                limit, w.discarded, want);
   }
}

/* gl_FragCoord.zw: the special varyings, depth (3) then 1/w (2), in the
 * colour's z and w; the interpreter does not model them. */
static void
test_frag_coord_zw(void)
{
   void *ctx = ralloc_context(NULL);
   nir_builder b = nir_builder_init_simple_shader(MESA_SHADER_FRAGMENT,
                                                  &pan_va_nir_options, "zw");
   nir_variable *fc = io_var(b.shader, nir_var_shader_in, glsl_vec4_type(),
                             VARYING_SLOT_POS, 0, "gl_FragCoord");
   nir_variable *out = io_var(b.shader, nir_var_shader_out, glsl_vec4_type(),
                              FRAG_RESULT_DATA0, 0, "c");
   nir_store_var(&b, out, nir_load_var(&b, fc), 0xf);
   struct pan_va_binary bin;
   unsigned nr = 0;
   char **l = compile_text(b.shader, PAN_VA_VARIANT_DEFAULT, ctx, &bin, &nr);
   int z = find_line(l, nr, "ld_var_special");
   PAN_EXPECT(z >= 0 && z + 1 < (int)nr);
   if (z >= 0 && z + 1 < (int)nr) {
      PAN_EXPECT_STR_HAS(l[z], "index:3");
      PAN_EXPECT_STR_HAS(l[z + 1], "ld_var_special");
      PAN_EXPECT_STR_HAS(l[z + 1], "index:2");
      PAN_EXPECT_STR_HAS(l[z], ".f32");
      PAN_EXPECT_STR_HAS(l[z], ".clobber");
   }
   /* The pixel centre's 0.5 is the table's binary16 half, no register. */
   PAN_EXPECT(find_line(l, nr, "iadd_imm") < 0 ||
              !strstr(l[find_line(l, nr, "iadd_imm")], "1056964608"));
   int blend = find_line(l, nr, "blend");
   char want[16];
   int zr = -1, wr = -1;
   if (z >= 0 && z + 1 < (int)nr) {
      sscanf(strchr(l[z], '{'), "{r%d", &zr);
      sscanf(strchr(l[z + 1], '{'), "{r%d", &wr);
   }
   /* z and w are written where the blend reads words 2 and 3. */
   int base = -1;
   if (blend >= 0)
      sscanf(strchr(l[blend], '{'), "{r%d", &base);
   snprintf(want, sizeof(want), "%d %d", base + 2, base + 3);
   char got[16];
   snprintf(got, sizeof(got), "%d %d", zr, wr);
   PAN_CHECK(!strcmp(got, want), "z w in r%s, want r%s", got, want);
   finish(l, nr, ctx, b.shader);
}

/* Float constants that are a binary16 half of a table entry (0.5, 256,
 * -2) are read widened from the table, on the interpreter. */
static void
test_half_constants(void)
{
   nir_builder b;
   nir_ssa_def *addr = compute_elem_addr(&b, "half", 4);
   nir_ssa_def *x = nir_load_global(&b, addr, 4, 1, 32);
   nir_ssa_def *r = nir_fadd_imm(&b, nir_fmul_imm(&b, x, 0.5), 256.0);
   r = nir_fmin(&b, r, nir_imm_float(&b, 300.0f));
   r = nir_fmax(&b, r, nir_imm_float(&b, -2.0f));
   nir_store_global(&b, addr, 4, r, 1);

   void *ctx = ralloc_context(NULL);
   struct pan_va_binary bin;
   if (!compile_or_free(b.shader, ctx, &bin))
      return;
   /* 300 is no half of an entry: one constant load; 0.5, 256, -2 none. */
   unsigned loads = 0;
   for (unsigned k = 0; k < bin.nr_words; ++k) {
      char buf[256];
      pan_va_print(bin.words[k], buf, sizeof(buf));
      loads += !strncmp(buf, "iadd_imm", 8) && strstr(buf, "#0x0,");
   }
   PAN_CHECK(loads == 1, "%u constants loaded", loads);
   float in[LANES];
   for (unsigned l = 0; l < LANES; ++l)
      in[l] = ((int)(pan_test_rng64(&seed) % 2001) - 1000) / 4.0f;
   struct mem *m = run_compute(&bin, in, sizeof(in), "half");
   for (unsigned l = 0; l < LANES; ++l) {
      float got, want = fmaxf(fminf(in[l] * 0.5f + 256.0f, 300.0f), -2.0f);
      memcpy(&got, m->bytes + 4 * l, 4);
      PAN_CHECK(got == want, "%g: %g, want %g", in[l], got, want);
   }
   ralloc_free(ctx);
   ralloc_free(b.shader);
}

/* exp2, log2, sin and cos sequences on the interpreter against C in
 * double: exp2 and log2 within 4 ulps (log2 near 1 within 2^-22 absolute
 * too), sin and cos within 3e-5 absolute over [-100, 100]. */
static void
test_transcendentals(void)
{
   static const char *names[] = { "exp2", "log2", "sin", "cos" };
   for (unsigned op = 0; op < ARRAY_SIZE(names); ++op) {
      nir_builder b;
      nir_ssa_def *addr = compute_elem_addr(&b, names[op], 4);
      nir_ssa_def *x = nir_load_global(&b, addr, 4, 1, 32), *r;
      r = op == 0   ? nir_fexp2(&b, x)
          : op == 1 ? nir_flog2(&b, x)
          : op == 2 ? nir_fsin(&b, x)
                    : nir_fcos(&b, x);
      nir_store_global(&b, addr, 4, r, 1);

      void *ctx = ralloc_context(NULL);
      struct pan_va_binary bin;
      if (!compile_or_free(b.shader, ctx, &bin))
         continue;
      for (unsigned rep = 0; rep < 16; ++rep) {
         float in[LANES];
         for (unsigned l = 0; l < LANES; ++l) {
            double u = (double)(pan_test_rng64(&seed) % 1000001) / 1e6;
            if (op == 1) /* 2^-20 .. 2^20, and around 1 */
               in[l] = l < 4 ? (float)(1.0 + (u - 0.5) / 64)
                             : (float)exp2(40 * u - 20);
            else
               in[l] = (float)(200 * u - 100);
         }
         if (rep == 0 && op == 1)
            in[5] = 1.0f, in[6] = 0.75f, in[7] = 1.5f;
         if (rep == 0 && op != 1)
            in[5] = 0.0f, in[6] = 1.0f, in[7] = -0.5f;
         struct mem *m = run_compute(&bin, in, sizeof(in), names[op]);
         for (unsigned l = 0; l < LANES; ++l) {
            float got;
            memcpy(&got, m->bytes + 4 * l, 4);
            double x = in[l];
            double want = op == 0   ? exp2(x)
                          : op == 1 ? log2(x)
                          : op == 2 ? sin(x)
                                    : cos(x);
            double tol = op >= 2 ? 3e-5
                                 : 4 * fabs(want) * FLT_EPSILON / 2 +
                                      (op == 1 ? 0x1p-22 : 0);
            PAN_CHECK(fabs(got - want) <= tol, "%s(%.9g): %.9g, want %.9g",
                      names[op], x, got, want);
         }
      }
      ralloc_free(ctx);
      ralloc_free(b.shader);
   }
}

/* What is not supported is a clear error naming it. */
static void
test_refusals(void)
{
   char err[256];
   struct pan_va_binary bin;

   nir_builder b;
   nir_variable *out;
   b = nir_builder_init_simple_shader(MESA_SHADER_GEOMETRY, &pan_va_nir_options,
                                      "gs");
   PAN_EXPECT(!pan_va_compile(b.shader, NULL, &bin, NULL, err, sizeof(err)));
   PAN_EXPECT_STR_HAS(err, "geometry shaders are unsupported");
   ralloc_free(b.shader);

   b = nir_builder_init_simple_shader(MESA_SHADER_FRAGMENT, &pan_va_nir_options,
                                      "sample mask");
   out = io_var(b.shader, nir_var_shader_out, glsl_int_type(),
                FRAG_RESULT_SAMPLE_MASK, 0, "m");
   nir_store_var(&b, out, nir_imm_int(&b, 1), 1);
   PAN_EXPECT(!pan_va_compile(b.shader, NULL, &bin, NULL, err, sizeof(err)));
   PAN_EXPECT_STR_HAS(err, "FRAG_RESULT_SAMPLE_MASK");
   ralloc_free(b.shader);
}

int
main(void)
{
   glsl_type_singleton_init_or_ref();
   PAN_RUN_CASE(test_vertex_position);
   PAN_RUN_CASE(test_vertex_varying);
   PAN_RUN_CASE(test_ff_varyings);
   PAN_RUN_CASE(test_pushed_constants);
   PAN_RUN_CASE(test_fragment);
   PAN_RUN_CASE(test_two_targets);
   PAN_RUN_CASE(test_depth_output);
   PAN_RUN_CASE(test_stencil_output);
   PAN_RUN_CASE(test_integer_outputs);
   PAN_RUN_CASE(test_discard_runs);
   PAN_RUN_CASE(test_float_ops);
   PAN_RUN_CASE(test_dynamic_ubo);
   PAN_RUN_CASE(test_uniform_overflow);
   PAN_RUN_CASE(test_indirect_varying);
   PAN_RUN_CASE(test_far_varyings);
   PAN_RUN_CASE(test_constant_varyings);
   PAN_RUN_CASE(test_piecewise_varying);
   PAN_RUN_CASE(test_frag_coord_runs);
   PAN_RUN_CASE(test_front_facing_runs);
   PAN_RUN_CASE(test_point_coord);
   PAN_RUN_CASE(test_derivatives_run);
   PAN_RUN_CASE(test_frag_coord_zw);
   PAN_RUN_CASE(test_half_constants);
   PAN_RUN_CASE(test_transcendentals);
   PAN_RUN_CASE(test_refusals);
   PAN_RUN_CASE(test_draw_parameters);
   glsl_type_singleton_decref();
   return pan_test_summary("pan_va_gfx");
}
