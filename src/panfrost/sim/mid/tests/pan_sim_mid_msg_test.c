/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Attribute, varying and texture messages of the Midgard interpreter,
 * served by pan_sim_mid_desc from descriptors packed with the genxml
 * packers (PAN_ARCH 4 or 5).  Expected values are computed here from the
 * data written into memory: GL's unorm rule, the bilinear weights, the
 * nearest texel, the comparison.
 */

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "isa/pan_isa_mid.h"
#include "util/pan_test_util.h"
#include "pan_genxml.h"
#include "pan_sim_mid.h"
#include "pan_sim_mid_desc.h"

#define VA 0x100000ull
#define MEM_B 0x10000

/* Layout of the test memory (offsets from VA). */
#define ATTRS 0x0000
#define ABUFS 0x0100
#define VARYS 0x0200
#define VBUFS 0x0300
#define TEXPTRS 0x0400
#define SAMPLERS 0x0500
#define TEXDESC 0x0800 /* 64-byte aligned, surfaces follow */
#define DATA 0x1000
#define VDATA 0x2000
#define TEX0 0x3000 /* 4x4 rgba8 level 0 then 2x2 level 1 */
#define TEX1 0x4000 /* 4x4 rgba32f */

static uint8_t mem[MEM_B];
static struct pan_sim_mid_desc D;
static struct pan_sim_mid_gfx G;
static uint32_t uniforms[16][4];
static struct pan_sim_mid_thread T;
static bool tex_aliasing; /* run() as a T720/T820/T830 */

static bool
mem_read(void *user, uint64_t a, void *p, unsigned n)
{
   if (a < VA || a + n > VA + MEM_B)
      return false;
   memcpy(p, mem + (a - VA), n);
   return true;
}

static bool
mem_write(void *user, uint64_t a, const void *p, unsigned n)
{
   if (a < VA || a + n > VA + MEM_B)
      return false;
   memcpy(mem + (a - VA), p, n);
   return true;
}

static int
run(const char *text)
{
   char err[256];
   struct pan_isa_bytes code = { 0 };
   if (pan_mid_assemble(text, strlen(text), &code, err, sizeof(err))) {
      PAN_CHECK(false, "assembly failed: %s", err);
      return -1;
   }
   struct pan_sim_mid_config cfg = {
      .program = code.data,
      .program_size = code.size_B,
      .uniforms = (const uint32_t(*)[4])uniforms,
      .nr_uniforms = 16,
      .mem = { NULL, mem_read, mem_write },
      .gfx = &G,
      .tex_aliasing = tex_aliasing,
   };
   pan_sim_mid_thread_init(&T);
   int st = pan_sim_mid_run(&T, &cfg);
   pan_isa_bytes_free(&code);
   return st;
}

static uint32_t fmt_word(enum PAN_GENX(format) f)
{
   uint32_t w = 0;
   pan_pack(&w, pixel_format, pf)
   {
      pf.format = f;
      pf.swizzle.r = MALI_CHANNEL_R;
      pf.swizzle.g = MALI_CHANNEL_G;
      pf.swizzle.b = MALI_CHANNEL_B;
      pf.swizzle.a = MALI_CHANNEL_A;
   }
   return w;
}

static void
put_attr(unsigned table, unsigned i, unsigned buf, enum PAN_GENX(format) f,
         int offset)
{
   pan_pack(mem + table + i * pan_size(attribute), attribute, cfg)
   {
      cfg.buffer_index = buf;
      cfg.format = fmt_word(f);
      cfg.offset = offset;
   }
}

static void
put_buf(unsigned table, unsigned i, enum PAN_GENX(attribute_type) type,
        unsigned data, unsigned stride, unsigned size, unsigned param)
{
   pan_pack(mem + table + i * pan_size(attribute_buffer), attribute_buffer, cfg)
   {
      cfg.type = type;
      cfg.address = VA + data;
      cfg.stride = stride;
      cfg.size = size;
      if (type == MALI_ATTRIBUTE_TYPE_1D_MODULUS)
         cfg.modulus.padded_count = param;
      if (type == MALI_ATTRIBUTE_TYPE_1D_POT_DIVISOR)
         cfg.pot.divisor = param;
   }
}

static void
put_f32(unsigned off, float f)
{
   memcpy(mem + off, &f, 4);
}

static float
get_f32(unsigned off)
{
   float f;
   memcpy(&f, mem + off, 4);
   return f;
}

static void
setup(void)
{
   memset(mem, 0, sizeof(mem));
   D = (struct pan_sim_mid_desc){
      .mem = { NULL, mem_read, mem_write },
      .attributes = VA + ATTRS,
      .attribute_buffers = VA + ABUFS,
      .nr_attributes = 3,
      .varyings = VA + VARYS,
      .varying_buffers = VA + VBUFS,
      .nr_varyings = 2,
      .textures = VA + TEXPTRS,
      .samplers = VA + SAMPLERS,
      .nr_textures = 2,
      .nr_samplers = 2,
   };
   PAN_EXPECT(pan_sim_mid_desc_init(PAN_ARCH, &D, &G));
}

/* Attribute 0: rgba32f, 1D, stride 16; attribute 1: rgba8 unorm in the
 * same buffer at offset 12 (the w word), modulus 2; attribute 2: rg32f
 * with a divisor of 2 on the instance. */
static void
test_ld_attr(void)
{
   setup();
   put_attr(ATTRS, 0, 0, MALI_FORMAT_RGBA32F, 0);
   put_attr(ATTRS, 1, 1, MALI_FORMAT_RGBA8_UNORM, 12);
   put_attr(ATTRS, 2, 2, MALI_FORMAT_RG32F, 0);
   put_buf(ABUFS, 0, MALI_ATTRIBUTE_TYPE_1D, DATA, 16, 16 * 8, 0);
   put_buf(ABUFS, 1, MALI_ATTRIBUTE_TYPE_1D_MODULUS, DATA, 16, 16 * 8, 2);
   put_buf(ABUFS, 2, MALI_ATTRIBUTE_TYPE_1D_POT_DIVISOR, DATA + 0x200, 8, 64,
           2);
   for (unsigned i = 0; i < 32; i++)
      put_f32(DATA + 4 * i, 1.5f * i - 7.0f);
   for (unsigned i = 0; i < 16; i++)
      put_f32(DATA + 0x200 + 4 * i, 100.0f + i);

   for (unsigned v = 0; v < 6; v++) {
      D.vertex = v;
      D.instance = v + 1;
      PAN_EXPECT_EQ(run("ldst next=ldst\n"
                        "\tls.ld_attr_32 mask=0xf areg=7 ireg=7\n"
                        "\tls.ld_attr_32 reg=r1 mask=0xf areg=7 ireg=7 "
                        "offset=512\n"
                        "ldst next=break\n"
                        "\tls.ld_attr_32 reg=r2 mask=0xf areg=7 ireg=7 "
                        "offset=1024\n\tls.nop\n"),
                    PAN_SIM_MID_DONE);
      if (T.fault[0]) {
         PAN_CHECK(false, "fault: %s", T.fault);
         return;
      }
      if (v < 2) {
         for (unsigned c = 0; c < 4; c++)
            PAN_EXPECT_EQ(T.r[0][c], pan_test_u32(1.5f * (4 * v + c) - 7.0f));
      }
      /* The unorm element: bytes of the float in word 3 of row v % 2. */
      unsigned e = v % 2;
      for (unsigned c = 0; c < 4; c++) {
         float want = mem[DATA + 16 * e + 12 + c] / 255.0f;
         PAN_CHECK(fabsf(pan_test_f32(T.r[1][c]) - want) <= 1e-6f,
                   "unorm comp %u: %f, want %f", c, pan_test_f32(T.r[1][c]),
                   want);
      }
      unsigned el = (v + 1) / 2;
      PAN_EXPECT_EQ(T.r[2][0], pan_test_u32(100.0f + 2 * el));
      PAN_EXPECT_EQ(T.r[2][1], pan_test_u32(101.0f + 2 * el));
      PAN_EXPECT_EQ(T.r[2][2], 0);
      PAN_EXPECT_EQ(T.r[2][3], pan_test_u32(1.0f));
   }

   D.vertex = 9; /* beyond the buffer: 9 * 16 + 16 > 128 */
   PAN_EXPECT_EQ(run("ldst next=break\n\tls.ld_attr_32 mask=0xf areg=7 "
                     "ireg=7\n\tls.nop\n"),
                 PAN_SIM_MID_FAULT);
   PAN_EXPECT_STR_HAS(T.fault, "outside its buffer");
   PAN_EXPECT_EQ(run("ldst next=break\n\tls.ld_attr_32 mask=0xf areg=7 "
                     "ireg=7 offset=1536\n\tls.nop\n"),
                 PAN_SIM_MID_FAULT);
   PAN_EXPECT_STR_HAS(T.fault, "attribute 3 outside the table");
   PAN_EXPECT_EQ(run("ldst next=break\n\tls.ld_attr_32 mask=0xf areg=1 "
                     "ireg=7\n\tls.nop\n"),
                 PAN_SIM_MID_FAULT);
   PAN_EXPECT_STR_HAS(T.fault, "register-indexed");
   put_buf(ABUFS, 0, MALI_ATTRIBUTE_TYPE_3D_LINEAR, DATA, 16, 128, 0);
   PAN_EXPECT_EQ(run("ldst next=break\n\tls.ld_attr_32 mask=0xf areg=7 "
                     "ireg=7\n\tls.nop\n"),
                 PAN_SIM_MID_FAULT);
   PAN_EXPECT_STR_HAS(T.fault, "3d_linear is not modelled");
   pan_pack(mem + ATTRS, attribute, cfg)
   {
      uint32_t w = 0;
      pan_pack(&w, pixel_format, pf)
      {
         pf.format = MALI_FORMAT_RGBA32F;
         pf.swizzle.r = MALI_CHANNEL_G;
         pf.swizzle.g = MALI_CHANNEL_R;
      }
      cfg.format = w;
   }
   PAN_EXPECT_EQ(run("ldst next=break\n\tls.ld_attr_32 mask=0xf areg=7 "
                     "ireg=7\n\tls.nop\n"),
                 PAN_SIM_MID_FAULT);
   PAN_EXPECT_STR_HAS(T.fault, "swizzles are not modelled");
}

/* st_vary from r26/r27 into the varying table (element = vertex), then
 * ld_vary of the element of the pixel. */
static void
test_varyings(void)
{
   setup();
   put_attr(VARYS, 0, 0, MALI_FORMAT_RGBA32F, 0);
   put_attr(VARYS, 1, 1, MALI_FORMAT_RGBA8_UNORM, 0);
   put_buf(VBUFS, 0, MALI_ATTRIBUTE_TYPE_1D, VDATA, 16, 16 * 4, 0);
   put_buf(VBUFS, 1, MALI_ATTRIBUTE_TYPE_1D, VDATA + 0x100, 4, 16, 0);
   for (unsigned c = 0; c < 4; c++) {
      uniforms[0][c] = pan_test_u32(0.25f * c - 0.5f);
      uniforms[1][c] = pan_test_u32(c == 0 ? -0.5f : 0.3f * c);
   }
   D.vertex = 2;
   put_f32(VDATA + 32 + 4, 42.0f); /* y survives the masked store */
   PAN_EXPECT_EQ(run("alu next=ldst\n"
                     "\tvmul.imov b=r23 d=r27 omod=keeplo\n"
                     "\tvadd.imov b=r22 d=r26 omod=keeplo\n"
                     "ldst next=break\n"
                     "\tls.st_vary_32 reg=r1 mask=0xd areg=7 ifmt=s32 "
                     "ireg=7\n"
                     "\tls.st_vary_32 mask=0xf areg=7 ifmt=s32 ireg=7 "
                     "offset=512\n"),
                 PAN_SIM_MID_DONE);
   PAN_CHECK(!T.fault[0], "fault: %s", T.fault);
   for (unsigned c = 0; c < 4; c++) {
      float want = c == 1 ? 42.0f : 0.25f * c - 0.5f;
      PAN_CHECK(get_f32(VDATA + 32 + 4 * c) == want, "varying 0 comp %u", c);
      /* GL's unorm store: clamp, scale by 255, round to nearest. */
      float f = c == 0 ? -0.5f : 0.3f * c;
      f = f < 0 ? 0 : f > 1 ? 1 : f;
      PAN_EXPECT_EQ(mem[VDATA + 0x100 + 8 + c],
                    (uint8_t)lrint((double)f * 255.0));
   }

   /* ld_vary: interpolation parameters in the offset's low bits. */
   D.pixel = 2;
   PAN_EXPECT_EQ(run("ldst next=break\n"
                     "\tls.ld_vary_32 reg=r3 mask=0xf areg=7 ifmt=u32 "
                     "ireg=7 offset=80\n"
                     "\tls.ld_vary_32 reg=r4 mask=0x3 swz=wzyx areg=7 "
                     "ifmt=u32 ireg=7 offset=600\n"),
                 PAN_SIM_MID_DONE);
   PAN_CHECK(!T.fault[0], "fault: %s", T.fault);
   for (unsigned c = 0; c < 4; c++)
      PAN_EXPECT_EQ(T.r[3][c], pan_test_u32(get_f32(VDATA + 32 + 4 * c)));
   PAN_CHECK(fabsf(pan_test_f32(T.r[4][0]) - mem[VDATA + 0x10b] / 255.0f) <
                1e-6f,
             "swizzled unorm varying");
   PAN_EXPECT_EQ(T.r[4][2], 0);
   PAN_EXPECT_EQ(run("ldst next=break\n\tls.ld_vary_32 mask=0xf areg=7 "
                     "ifmt=u32 ireg=7 offset=81\n\tls.nop\n"),
                 PAN_SIM_MID_FAULT);
   PAN_EXPECT_STR_HAS(T.fault, "varying modifier 1");
   PAN_EXPECT_EQ(run("ldst next=break\n\tls.st_vary_32 reg=r5 mask=0xf "
                     "areg=7 ifmt=s32 ireg=7\n\tls.nop\n"),
                 PAN_SIM_MID_FAULT);
   PAN_EXPECT_STR_HAS(T.fault, "not r26/r27");
}

/* ---- textures ---- */

static uint8_t
t8(unsigned level, unsigned x, unsigned y, unsigned c)
{
   return (uint8_t)(level * 97 + x * 61 + y * 23 + c * 41 + 7);
}

static float
tf(unsigned x, unsigned y, unsigned c)
{
   return (float)(x + 4 * y) + 0.25f * c - 3.0f;
}

static void
setup_textures(bool manual_stride)
{
   setup();
   uint64_t p0 = VA + TEXDESC, p1 = VA + TEXDESC + 0x100;
   memcpy(mem + TEXPTRS, &p0, 8);
   memcpy(mem + TEXPTRS + 8, &p1, 8);
   pan_pack(mem + TEXDESC, texture, cfg)
   {
      cfg.width = 4;
      cfg.height = 4;
      cfg.array_size = 1;
      cfg.format = fmt_word(MALI_FORMAT_RGBA8_UNORM);
      cfg.dimension = MALI_TEXTURE_DIMENSION_2D;
      cfg.texel_ordering = MALI_TEXTURE_LAYOUT_LINEAR;
      cfg.levels = 2;
      cfg.manual_stride = manual_stride;
      cfg.swizzle = 0 | 1 << 3 | 2 << 6 | 3 << 9; /* rgba */
   }
   if (manual_stride) {
      for (unsigned l = 0; l < 2; l++) {
         pan_pack(mem + TEXDESC + 32 + 16 * l, surface_with_stride, cfg)
         {
            cfg.address = VA + TEX0 + l * 0x200;
            cfg.row_stride_B = 64; /* padded rows */
         }
      }
   } else {
      uint64_t s0 = VA + TEX0, s1 = VA + TEX0 + 0x200;
      memcpy(mem + TEXDESC + 32, &s0, 8);
      memcpy(mem + TEXDESC + 40, &s1, 8);
   }
   unsigned row = manual_stride ? 64 : 0;
   for (unsigned l = 0; l < 2; l++) {
      unsigned n = 4 >> l;
      for (unsigned y = 0; y < n; y++)
         for (unsigned x = 0; x < n; x++)
            for (unsigned c = 0; c < 4; c++)
               mem[TEX0 + l * 0x200 + y * (row ? row : 4 * n) + 4 * x + c] =
                  t8(l, x, y, c);
   }
   pan_pack(mem + TEXDESC + 0x100, texture, cfg)
   {
      cfg.width = 4;
      cfg.height = 4;
      cfg.array_size = 1;
      cfg.format = fmt_word(MALI_FORMAT_RGBA32F);
      cfg.dimension = MALI_TEXTURE_DIMENSION_2D;
      cfg.texel_ordering = MALI_TEXTURE_LAYOUT_LINEAR;
      cfg.levels = 1;
      cfg.swizzle = 0 | 1 << 3 | 2 << 6 | 3 << 9;
   }
   uint64_t s = VA + TEX1;
   memcpy(mem + TEXDESC + 0x120, &s, 8);
   for (unsigned y = 0; y < 4; y++)
      for (unsigned x = 0; x < 4; x++)
         for (unsigned c = 0; c < 4; c++)
            put_f32(TEX1 + 64 * y + 16 * x + 4 * c, tf(x, y, c));
}

static void
put_sampler(unsigned i, bool nearest, enum PAN_GENX(wrap_mode) wrap,
            enum PAN_GENX(mipmap_mode) mip, float max_lod,
            enum PAN_GENX(func) cmp)
{
   pan_pack(mem + SAMPLERS + i * pan_size(sampler), sampler, cfg)
   {
      cfg.magnify_nearest = nearest;
      cfg.minify_nearest = nearest;
      cfg.mipmap_mode = mip;
      cfg.wrap_mode_s = wrap;
      cfg.wrap_mode_t = wrap;
      cfg.maximum_lod = max_lod;
      cfg.compare_function = cmp;
      cfg.border_color_r = pan_test_u32(0.5f);
   }
}

/* Coordinates from uniform 0 into r28, then one texture word. */
static int
sample(float s, float t, float z, const char *word)
{
   char text[512];
   uniforms[0][0] = pan_test_u32(s);
   uniforms[0][1] = pan_test_u32(t);
   uniforms[0][2] = pan_test_u32(z);
   uniforms[0][3] = 0;
   snprintf(text, sizeof(text),
            "alu next=%s\n\tvmul.imov b=r23 d=r28 omod=keeplo\n%s next=break\n"
            "\t%s\n",
            word[0] == 'V' ? "texvtx" : "tex",
            word[0] == 'V' ? "texvtx" : "tex", word + 1);
   return run(text);
}

/* GL's bilinear filter at (u, v) of level 0 of the rgba8 texture with
 * clamp to edge. */
static float
ref_bilinear8(float s, float t, unsigned level, unsigned c)
{
   int n = 4 >> level;
   float u = s * n - 0.5f, v = t * n - 0.5f;
   int i0 = (int)floorf(u), j0 = (int)floorf(v);
   float a = u - i0, b = v - j0;
#define CL(k) ((k) < 0 ? 0 : (k) >= n ? n - 1 : (k))
   float r = 0;
   for (int dj = 0; dj < 2; dj++)
      for (int di = 0; di < 2; di++)
         r += (di ? a : 1 - a) * (dj ? b : 1 - b) *
              t8(level, CL(i0 + di), CL(j0 + dj), c) / 255.0f;
#undef CL
   return r;
}

static void
test_textures(void)
{
   for (unsigned ms = 0; ms < 2; ms++) {
      setup_textures(ms);
      put_sampler(0, false, MALI_WRAP_MODE_CLAMP_TO_EDGE,
                  MALI_MIPMAP_MODE_NEAREST, 1.0f, MALI_FUNC_NEVER);
      uint64_t rng = 99 + ms;
      for (unsigned k = 0; k < 50; k++) {
         float s =
            (pan_test_rng64(&rng) >> 40) / (float)(1 << 24) * 1.4f - 0.2f;
         float t =
            (pan_test_rng64(&rng) >> 40) / (float)(1 << 24) * 1.4f - 0.2f;
         PAN_EXPECT_EQ(sample(s, t, 0,
                              "Xtx.normal mode=normal dim=2 infull "
                              "outfull stype=float"),
                       PAN_SIM_MID_DONE);
         PAN_CHECK(!T.fault[0], "fault: %s", T.fault);
         for (unsigned c = 0; c < 4; c++) {
            float want = ref_bilinear8(s, t, 0, c);
            PAN_CHECK(fabsf(pan_test_f32(T.r[28][c]) - want) <= 2e-6f,
                      "bilinear (%f, %f) comp %u: %f, want %f", s, t, c,
                      pan_test_f32(T.r[28][c]), want);
         }
         /* Explicit LOD 1 in a vertex texture word: level 1. */
         PAN_EXPECT_EQ(sample(s, t, 0,
                              "Vtx.normal mode=normal dim=2 infull "
                              "outfull stype=float biasi=1"),
                       PAN_SIM_MID_DONE);
         for (unsigned c = 0; c < 4; c++) {
            float want = ref_bilinear8(s, t, 1, c);
            PAN_CHECK(fabsf(pan_test_f32(T.r[28][c]) - want) <= 2e-6f,
                      "LOD 1 (%f, %f) comp %u", s, t, c);
         }
      }
   }

   /* Nearest, repeat, RGBA32F: exact texels, wrapped. */
   put_sampler(1, true, MALI_WRAP_MODE_REPEAT, MALI_MIPMAP_MODE_NEAREST, 0,
               MALI_FUNC_NEVER);
   for (int i = -5; i < 9; i++) {
      float s = (i + 0.5f) / 4.0f, t = (2 * i + 0.25f) / 4.0f;
      PAN_EXPECT_EQ(sample(s, t, 0,
                           "Xtx.normal mode=normal dim=2 infull "
                           "outfull stype=float sampler=0x1 "
                           "texture=0x1"),
                    PAN_SIM_MID_DONE);
      unsigned x = ((i % 4) + 4) % 4, y = (((2 * i) % 4) + 4) % 4;
      for (unsigned c = 0; c < 4; c++)
         PAN_EXPECT_EQ(T.r[28][c], pan_test_u32(tf(x, y, c)));
   }

   /* Half-float output to the upper half of r29, swizzled and masked. */
   PAN_EXPECT_EQ(sample(0.6f, 0.1f, 0,
                        "Xtx.normal mode=normal dim=2 infull "
                        "outsel outupper mask=0x5 swz=wzyx "
                        "stype=float sampler=0x1 texture=0x1"),
                 PAN_SIM_MID_DONE);
   /* Lanes 4 and 6: tf(2, 0, 3) = -0.25 and tf(2, 0, 1) = -0.75. */
   PAN_EXPECT_EQ(T.r[29][2], 0xb400);
   PAN_EXPECT_EQ(T.r[29][3], 0xba00);
   PAN_EXPECT_EQ(T.r[29][0], 0);

   /* Shadow comparison (LEQUAL) of nearest texels: 1 where ref <= R. */
   put_sampler(1, true, MALI_WRAP_MODE_CLAMP_TO_EDGE, MALI_MIPMAP_MODE_NEAREST,
               0, MALI_FUNC_LEQUAL);
   for (unsigned k = 0; k < 16; k++) {
      float ref = (float)k - 3.5f;
      PAN_EXPECT_EQ(sample(0.9f, 0.4f, ref,
                           "Xtx.normal mode=shadow dim=2 "
                           "infull outfull stype=float "
                           "sampler=0x1 texture=0x1"),
                    PAN_SIM_MID_DONE);
      float want = ref <= tf(3, 1, 0) ? 1.0f : 0.0f;
      PAN_EXPECT_EQ(T.r[28][0], pan_test_u32(want));
      PAN_EXPECT_EQ(T.r[28][3], pan_test_u32(1.0f));
   }

   /* Clamp to border: the border colour outside. */
   put_sampler(1, true, MALI_WRAP_MODE_CLAMP_TO_BORDER,
               MALI_MIPMAP_MODE_NEAREST, 0, MALI_FUNC_NEVER);
   PAN_EXPECT_EQ(sample(1.2f, 0.5f, 0,
                        "Xtx.normal mode=normal dim=2 infull "
                        "outfull stype=float sampler=0x1 "
                        "texture=0x1"),
                 PAN_SIM_MID_DONE);
   PAN_EXPECT_EQ(T.r[28][0], pan_test_u32(0.5f));
   PAN_EXPECT_EQ(T.r[28][1], 0);

   /* Texel fetch: integer coordinates, level in the bias field. */
   uniforms[0][0] = 1;
   uniforms[0][1] = 0;
   PAN_EXPECT_EQ(run("alu next=texvtx\n\tvmul.imov b=r23 d=r28 omod=keeplo\n"
                     "texvtx next=break\n\ttx.fetch mode=normal dim=2 infull "
                     "outfull stype=float bias=0x1\n"),
                 PAN_SIM_MID_DONE);
   for (unsigned c = 0; c < 4; c++)
      PAN_CHECK(fabsf(pan_test_f32(T.r[28][c]) - t8(1, 1, 0, c) / 255.0f) <
                   1e-6f,
                "fetch comp %u", c);

   /* Without texture registers the same word (register selects 0, then 1)
    * reads r26/r27 and writes r0/r1; r28 is left alone.  What (0, 0),
    * written to r28 as a decoy, would give differs. */
   PAN_EXPECT_EQ(sample(0, 0, 0,
                        "Xtx.normal mode=normal dim=2 infull outfull "
                        "stype=float sampler=0x1 texture=0x1"),
                 PAN_SIM_MID_DONE);
   PAN_CHECK(T.r[28][0] != pan_test_u32(0.5f), "decoy samples as 0.5");
   tex_aliasing = true;
   for (unsigned sel = 0; sel < 2; sel++) {
      char text[320];
      snprintf(text, sizeof(text),
               "alu next=tex\n\tvmul.imov b=r23 d=r%u omod=keeplo\n"
               "\tvadd.imov b=r22 d=r28 omod=keeplo\n"
               "tex next=break\n\ttx.normal mode=normal dim=2 infull "
               "outfull stype=float sampler=0x1 texture=0x1%s\n",
               26 + sel, sel ? " insel outsel" : "");
      uniforms[0][0] = pan_test_u32(1.2f);
      uniforms[0][1] = pan_test_u32(0.5f);
      uniforms[1][0] = pan_test_u32(0.0f);
      uniforms[1][1] = pan_test_u32(0.0f);
      PAN_EXPECT_EQ(run(text), PAN_SIM_MID_DONE);
      PAN_CHECK(!T.fault[0], "fault: %s", T.fault);
      PAN_EXPECT_EQ(T.r[sel][0], pan_test_u32(0.5f));
      PAN_EXPECT_EQ(T.r[sel][1], 0);
      PAN_EXPECT_EQ(T.r[28][0], 0);
   }
   tex_aliasing = false;

   /* Refusals by name. */
   PAN_EXPECT_EQ(sample(0, 0, 0,
                        "Xtx.normal mode=normal dim=3 infull outfull "
                        "stype=float"),
                 PAN_SIM_MID_FAULT);
   PAN_EXPECT_STR_HAS(T.fault, "only 2D");
   PAN_EXPECT_EQ(sample(0, 0, 0,
                        "Xtx.normal mode=normal dim=2 infull outfull "
                        "stype=float sampler=0x7"),
                 PAN_SIM_MID_FAULT);
   PAN_EXPECT_STR_HAS(T.fault, "sampler 7 outside");
   PAN_EXPECT_EQ(sample(0, 0, 0,
                        "Xtx.normal mode=normal dim=2 outfull "
                        "stype=float"),
                 PAN_SIM_MID_FAULT);
   PAN_EXPECT_STR_HAS(T.fault, "16-bit coordinates");
   PAN_EXPECT_EQ(sample(0, 0, 0,
                        "Xtx.normal mode=gather_x dim=2 infull "
                        "outfull stype=float"),
                 PAN_SIM_MID_FAULT);
   PAN_EXPECT_STR_HAS(T.fault, "gathers");
   pan_pack(mem + TEXDESC + 0x100, texture, cfg)
   {
      cfg.width = 4;
      cfg.height = 4;
      cfg.array_size = 1;
      cfg.format = fmt_word(MALI_FORMAT_RGBA32F);
      cfg.dimension = MALI_TEXTURE_DIMENSION_2D;
      cfg.texel_ordering = MALI_TEXTURE_LAYOUT_TILED;
   }
   PAN_EXPECT_EQ(sample(0, 0, 0,
                        "Xtx.normal mode=normal dim=2 infull outfull "
                        "stype=float texture=0x1"),
                 PAN_SIM_MID_FAULT);
   PAN_EXPECT_STR_HAS(T.fault, "tiled texel order");
   G.tex = NULL;
   PAN_EXPECT_EQ(sample(0, 0, 0,
                        "Xtx.normal mode=normal dim=2 infull outfull "
                        "stype=float"),
                 PAN_SIM_MID_FAULT);
   PAN_EXPECT_STR_HAS(T.fault, "no texture unit");
}

int
main(void)
{
   test_ld_attr();
   test_varyings();
   test_textures();
   return pan_test_summary("pan_sim_mid_msg");
}
