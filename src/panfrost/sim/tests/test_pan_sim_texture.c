/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The simulator's texture unit for one architecture (-DPAN_ARCH=N, v7 or
 * v9): texture, surface/plane and sampler descriptors packed with genxml
 * into an in-memory space, requests as the interpreters build them, and
 * results compared with references computed here from the GL rules
 * (format decoding from the formats' definitions, the wrap tables, the
 * bilinear weights, the mip level selection).
 */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pan_genxml.h"
#include "pan_sim_afbc.h"
#include "pan_sim_space.h"
#include "pan_sim_vX_img.h"
#include "pan_sim_vX_texture.h"
#include "pan_uinterleave.h"
#include "util/pan_test_util.h"

#define SPACE_VA 0x40000000ull
#define SPACE_SIZE (4u << 20)

static uint8_t *space_mem;
static uint64_t space_used;
static struct pan_sim_region region;
static struct pan_sim_space space = { &region, 1 };

static void
space_reset(void)
{
   if (!space_mem)
      space_mem = malloc(SPACE_SIZE);
   memset(space_mem, 0xcd, SPACE_SIZE);
   space_used = 0;
   region =
      (struct pan_sim_region){ SPACE_VA, SPACE_SIZE, space_mem, "test", true };
}

static uint64_t
alloc(uint64_t size, void **cpu)
{
   uint64_t off = (space_used + 63) & ~63ull;
   if (off + size > SPACE_SIZE) {
      fprintf(stderr, "test: space full\n");
      exit(2);
   }
   space_used = off + size;
   *cpu = space_mem + off;
   return SPACE_VA + off;
}

/* ---- textures ---- */

struct tex_desc {
   unsigned dim; /* MALI_TEXTURE_DIMENSION_* */
   unsigned w, h, d, levels, layers;
   unsigned format, order; /* MALI_FORMAT_*, MALI_RGB_COMPONENT_ORDER_* */
   bool srgb, tiled;
   uint8_t swizzle[4]; /* MALI_CHANNEL_*; all zero: identity */
   unsigned el_B;
};

struct tex {
   struct tex_desc d;
   uint64_t va;
   uint8_t *level_cpu[16][6 * 4]; /* [level][layer * faces + face] */
   uint32_t row_stride[16];
   uint32_t slice_stride[16];
};

/* One level, one layer, 2D: the cases set what differs (dim, depth,
 * levels, layers, tiling, sRGB). */
static struct tex_desc
tex_2d(unsigned w, unsigned h, unsigned format, unsigned order, unsigned el_B)
{
   return (struct tex_desc){
      .dim = MALI_TEXTURE_DIMENSION_2D,
      .w = w,
      .h = h,
      .levels = 1,
      .layers = 1,
      .format = format,
      .order = order,
      .el_B = el_B,
   };
}

static unsigned
minify(unsigned s, unsigned l)
{
   return s >> l ? s >> l : 1;
}

static uint32_t
pack_swizzle(const uint8_t s[4])
{
   static const uint8_t id[4] = { 0, 1, 2, 3 };
   const uint8_t *z = (s[0] | s[1] | s[2] | s[3]) ? s : id;
   return z[0] | z[1] << 3 | z[2] << 6 | z[3] << 9;
}

static void
make_texture(struct tex *t, const struct tex_desc *d)
{
   unsigned faces = d->dim == MALI_TEXTURE_DIMENSION_CUBE ? 6 : 1;
   unsigned surfaces = d->levels * d->layers * faces;
   void *desc_cpu, *surf_cpu;

   memset(t, 0, sizeof(*t));
   t->d = *d;
#if PAN_ARCH >= 9
   uint64_t surf_va = alloc(surfaces * pan_size(plane), &surf_cpu);
#else
   uint64_t surf_va =
      alloc(surfaces * pan_size(surface_with_stride), &surf_cpu);
#endif
   t->va = alloc(pan_size(texture), &desc_cpu);

   for (unsigned layer = 0; layer < d->layers; ++layer) {
      for (unsigned face = 0; face < faces; ++face) {
         for (unsigned l = 0; l < d->levels; ++l) {
            unsigned w = minify(d->w, l), h = minify(d->h, l);
            unsigned depth =
               d->dim == MALI_TEXTURE_DIMENSION_3D ? minify(d->d, l) : 1;
            uint32_t row = d->tiled ? ((w + 15) / 16) * 16 * 16 * d->el_B
                                    : w * d->el_B + 4; /* padded rows */
            uint32_t slice = d->tiled ? row * ((h + 15) / 16) : row * h;
            void *data;
            uint64_t va = alloc((uint64_t)slice * depth, &data);
            unsigned s = (layer * faces + face) * d->levels + l;
            t->level_cpu[l][layer * faces + face] = data;
            t->row_stride[l] = row;
            t->slice_stride[l] = slice;
#if PAN_ARCH >= 9
            pan_pack((uint8_t *)surf_cpu + s * pan_size(plane), plane, cfg)
            {
               cfg.plane_type = MALI_PLANE_TYPE_GENERIC;
               cfg.address = va;
               cfg.size = slice * depth;
               cfg.row_stride_B = row;
               cfg.slice_stride_B = (int32_t)slice;
            }
#else
            pan_pack((uint8_t *)surf_cpu + s * pan_size(surface_with_stride),
                     surface_with_stride, cfg)
            {
               cfg.address = va;
               cfg.row_stride_B = (int32_t)row;
               cfg.surface_stride_B = (int32_t)slice;
            }
#endif
         }
      }
   }

   uint32_t format_word;
   pan_pack(&format_word, pixel_format, cfg)
   {
      cfg.format = d->format;
      cfg.order = d->order;
      cfg.srgb = d->srgb;
   }
   pan_pack(desc_cpu, texture, cfg)
   {
      cfg.dimension = d->dim;
      cfg.format = format_word;
      cfg.width = d->w;
      cfg.height = d->h;
      cfg.swizzle = pack_swizzle(d->swizzle);
#if PAN_ARCH >= 9
      cfg.texel_interleave = d->tiled;
#else
      cfg.texel_ordering =
         d->tiled ? MALI_TEXTURE_LAYOUT_TILED : MALI_TEXTURE_LAYOUT_LINEAR;
#endif
      cfg.levels = d->levels;
      cfg.surfaces = surf_va;
      cfg.array_size = d->layers;
      if (d->dim == MALI_TEXTURE_DIMENSION_3D)
         cfg.depth = d->d;
   }
}

/* Store one element at (x, y, z) of a level / layer-face. */
static void
put(struct tex *t, unsigned level, unsigned lf, unsigned x, unsigned y,
    unsigned z, const void *el)
{
   uint8_t *base = t->level_cpu[level][lf] + (size_t)z * t->slice_stride[level];
   if (t->d.tiled) {
      /* Through the public tiling store, one element rectangle. */
      pan_uinterleave_store_el(base, t->row_stride[level], el, t->d.el_B, x, y,
                               1, 1, t->d.el_B, false);
   } else {
      memcpy(base + (size_t)y * t->row_stride[level] + (size_t)x * t->d.el_B,
             el, t->d.el_B);
   }
}

static void
put32(struct tex *t, unsigned level, unsigned lf, unsigned x, unsigned y,
      uint32_t v)
{
   put(t, level, lf, x, y, 0, &v);
}

/* ---- samplers and the environment ---- */

struct smp_desc {
   unsigned wrap_s, wrap_t, wrap_r;
   bool mag_nearest, min_nearest;
   unsigned mip; /* MALI_MIPMAP_MODE_* */
   float min_lod, max_lod, bias;
   unsigned compare;
   uint32_t border[4];
};

static struct smp_desc
nearest_sampler(void)
{
   return (struct smp_desc){
      .wrap_s = MALI_WRAP_MODE_CLAMP_TO_EDGE,
      .wrap_t = MALI_WRAP_MODE_CLAMP_TO_EDGE,
      .wrap_r = MALI_WRAP_MODE_CLAMP_TO_EDGE,
      .mag_nearest = true,
      .min_nearest = true,
      .mip = MALI_MIPMAP_MODE_NONE,
      .max_lod = 15,
   };
}

static struct pan_sim_tex_env env;

/* Tables of one texture and one sampler (index 0 of each). */
static void
bind(const struct tex *t, const struct smp_desc *s)
{
   void *cpu;
   uint64_t sva = alloc(pan_size(sampler), &cpu);
   pan_pack(cpu, sampler, cfg)
   {
      cfg.wrap_mode_s = s->wrap_s;
      cfg.wrap_mode_t = s->wrap_t;
      cfg.wrap_mode_r = s->wrap_r;
      cfg.magnify_nearest = s->mag_nearest;
      cfg.minify_nearest = s->min_nearest;
      cfg.mipmap_mode = s->mip;
      cfg.minimum_lod = s->min_lod;
      cfg.maximum_lod = s->max_lod;
      cfg.lod_bias = s->bias;
      cfg.compare_function = s->compare;
      cfg.border_color_r = s->border[0];
      cfg.border_color_g = s->border[1];
      cfg.border_color_b = s->border[2];
      cfg.border_color_a = s->border[3];
   }
   memset(&env, 0, sizeof(env));
   env.space = &space;
#if PAN_ARCH >= 9
   /* Resource tables 0 (samplers) and 1 (textures). */
   uint64_t rva = alloc(2 * pan_size(resource), &cpu);
   pan_pack(cpu, resource, cfg)
   {
      cfg.address = sva;
      cfg.size = pan_size(sampler);
   }
   pan_pack((uint8_t *)cpu + pan_size(resource), resource, cfg)
   {
      cfg.address = t->va;
      cfg.size = pan_size(texture);
   }
   env.resources = rva;
   env.resource_count = 2;
#else
   env.textures = t->va;
   env.samplers = sva;
   env.texture_count = env.sampler_count = 1;
#endif
}

static void
base_req(struct pan_sim_tex_req *req, unsigned dim)
{
   memset(req, 0, sizeof(*req));
   req->op = PAN_SIM_TEX_SAMPLE;
   req->dim = (enum pan_sim_tex_dim)dim;
   req->lod_mode = PAN_SIM_TEX_LOD_ZERO;
   req->regfmt = 1;
   req->mask = 0xf;
   req->lanes = 0xf;
#if PAN_ARCH >= 9
   req->sampler = 0 | 0u << 11;
   req->texture = 0 | 1u << 11;
#endif
}

/* Sample at (s, t) in all four lanes; results of lane 0 as floats. */
static bool
sample_at(struct pan_sim_tex_req *req, float s, float t, float out[4],
          char *err)
{
   for (unsigned l = 0; l < 4; ++l) {
      req->coord[l][0] = pan_test_u32(s);
      req->coord[l][1] = pan_test_u32(t);
   }
   if (!PAN_GENX(sim_tex_run)(&env, req, err))
      return false;
   for (unsigned c = 0; c < 4; ++c)
      out[c] = pan_test_f32(req->out[0][c]);
   return true;
}

static bool
near(float a, float b)
{
   return fabsf(a - b) <= 1e-5f * (1 + fabsf(b)) || (isnan(a) && isnan(b));
}

#define EXPECT_RGBA(out, r, g, b, a, what)                                     \
   PAN_CHECK(near(out[0], r) && near(out[1], g) && near(out[2], b) &&          \
                near(out[3], a),                                               \
             "%s: got (%g, %g, %g, %g), want (%g, %g, %g, %g)", what, out[0],  \
             out[1], out[2], out[3], (double)(r), (double)(g), (double)(b),    \
             (double)(a))

/* What most cases need: a texture, a sampler description, a request and
 * its results; fixture_init resets the space. */
struct fixture {
   struct tex t;
   struct smp_desc s;
   struct pan_sim_tex_req req;
   char err[PAN_SIM_TEX_ERR_LEN];
   float out[4];
};

static void
fixture_init(struct fixture *f)
{
   memset(f, 0, sizeof(*f));
   f->s = nearest_sampler();
   space_reset();
}

/* ---- format decoding ---- */

static double
ref_srgb(unsigned v)
{
   double c = v / 255.0;
   return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

/* binary16 by its definition. */
static double
ref_half(uint16_t h)
{
   int e = (h >> 10) & 31, m = h & 1023;
   double v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
   return (h & 0x8000) ? -v : v;
}

/* Unsigned small float: 5-bit exponent, `mb` mantissa bits. */
static double
ref_ufloat(unsigned v, unsigned mb)
{
   unsigned e = v >> mb, m = v & ((1u << mb) - 1);
   return e ? ldexp((double)((1u << mb) + m), (int)e - 15 - (int)mb)
            : ldexp(m, -14 - (int)mb);
}

struct fmt_case {
   const char *what;
   unsigned format, order, el_B;
   bool srgb;
   uint8_t bytes[16];
   double want[4];
   bool integer;
};

static void
run_format_case(const struct fmt_case *fc)
{
   struct tex t;
   struct tex_desc d = tex_2d(1, 1, fc->format, fc->order, fc->el_B);
   d.srgb = fc->srgb;
   struct smp_desc s = nearest_sampler();
   struct pan_sim_tex_req req;
   char err[PAN_SIM_TEX_ERR_LEN] = "";
   float out[4];

   space_reset();
   make_texture(&t, &d);
   put(&t, 0, 0, 0, 0, 0, fc->bytes);
   bind(&t, &s);
   base_req(&req, MALI_TEXTURE_DIMENSION_2D);
   if (fc->integer)
      req.regfmt = 3;
   PAN_CHECK(sample_at(&req, 0.5f, 0.5f, out, err), "%s: %s", fc->what, err);
   if (fc->integer) {
      for (unsigned c = 0; c < 4; ++c)
         PAN_CHECK(req.out[0][c] == (uint32_t)(int64_t)fc->want[c],
                   "%s: channel %u 0x%x, want %g", fc->what, c, req.out[0][c],
                   fc->want[c]);
   } else {
      EXPECT_RGBA(out, (float)fc->want[0], (float)fc->want[1],
                  (float)fc->want[2], (float)fc->want[3], fc->what);
   }
}

static void
test_formats(void)
{
   struct fixture f;
   /* 0x1234 as binary16 halves, 0x3c00 = 1.0, 0xc000 = -2.0. */
   const uint16_t h0 = 0x1234;
   /* clang-format off */
   struct fmt_case cases[] = {
      { "rgba8 unorm", MALI_FORMAT_RGBA8_UNORM, MALI_RGB_COMPONENT_ORDER_RGBA,
        4, false, { 0x00, 0x40, 0x80, 0xff },
        { 0, 64 / 255.0, 128 / 255.0, 1 } },
      { "bgra8 unorm", MALI_FORMAT_RGBA8_UNORM, MALI_RGB_COMPONENT_ORDER_BGRA,
        4, false, { 0x10, 0x20, 0x30, 0x40 }, { 0x30 / 255.0, 0x20 / 255.0,
        0x10 / 255.0, 0x40 / 255.0 } },
      { "rgba8 srgb", MALI_FORMAT_RGBA8_UNORM, MALI_RGB_COMPONENT_ORDER_RGBA,
        4, true, { 0x08, 0x80, 0xc0, 0x80 }, { ref_srgb(0x08), ref_srgb(0x80),
        ref_srgb(0xc0), 0x80 / 255.0 } },
      { "bgra8 srgb", MALI_FORMAT_RGBA8_UNORM, MALI_RGB_COMPONENT_ORDER_BGRA,
        4, true, { 0x08, 0x80, 0xc0, 0x80 }, { ref_srgb(0xc0), ref_srgb(0x80),
        ref_srgb(0x08), 0x80 / 255.0 } },
      { "r8 unorm", MALI_FORMAT_R8_UNORM, MALI_RGB_COMPONENT_ORDER_RGB1, 1,
        false, { 0x33 }, { 0x33 / 255.0, 0, 0, 1 } },
      { "rg8 unorm", MALI_FORMAT_RG8_UNORM, MALI_RGB_COMPONENT_ORDER_RGB1, 2,
        false, { 0x33, 0xcc }, { 0x33 / 255.0, 0xcc / 255.0, 0, 1 } },
      /* R in bits 0..4, G 5..10, B 11..15. */
      { "rgb565", MALI_FORMAT_RGB565, MALI_RGB_COMPONENT_ORDER_RGB1, 2, false,
        { 0xa3, 0x88 }, { 3 / 31.0, 5 / 63.0, 17 / 31.0, 1 } },
      { "bgr565", MALI_FORMAT_RGB565, MALI_RGB_COMPONENT_ORDER_BGR1, 2, false,
        { 0xa3, 0x88 }, { 17 / 31.0, 5 / 63.0, 3 / 31.0, 1 } },
      /* 4-bit fields from bit 0: r=1, g=2, b=3, a=15 */
      { "rgba4", MALI_FORMAT_RGBA4_UNORM, MALI_RGB_COMPONENT_ORDER_RGBA, 2,
        false, { 0x21, 0xf3 }, { 1 / 15.0, 2 / 15.0, 3 / 15.0, 1 } },
      /* 5,5,5,1: r=31, g=0, b=16, a=1 */
      { "rgb5a1", MALI_FORMAT_RGB5_A1_UNORM, MALI_RGB_COMPONENT_ORDER_RGBA, 2,
        false, { 0x1f, 0x40 | 0x80 }, { 1, 0, 16 / 31.0, 1 } },
      /* 10,10,10,2: r=1023, g=512, b=0, a=2 */
      { "rgb10a2", MALI_FORMAT_RGB10_A2_UNORM, MALI_RGB_COMPONENT_ORDER_RGBA,
        4, false, { 0xff, 0x03, 0x08, 0x80 }, { 1, 512 / 1023.0, 0, 2 / 3.0 }
        },
      /* r = 0x3c0 (e=15, m=0: 1.0), g = 0x3e0 (1.5), b = 0x1f0 (e=15,
       * m=16: 1.5) */
      { "r11g11b10f", MALI_FORMAT_R11F_G11F_B10F,
        MALI_RGB_COMPONENT_ORDER_RGB1, 4, false, { 0xc0, 0x03, 0x1f, 0x7c }, {
        ref_ufloat(0x3c0, 6), ref_ufloat(0x3e0, 6), ref_ufloat(0x1f0, 5), 1 }
        },
      /* r = 256, g = 128, b = 1, exponent 16: scale 2^(16-15-9) */
      { "rgb9e5", MALI_FORMAT_R9F_G9F_B9F_E5F, MALI_RGB_COMPONENT_ORDER_RGB1,
        4, false, { 0x00, 0x01, 0x05, 0x80 }, { ldexp(256, -8), ldexp(128,
        -8), ldexp(1, -8), 1 } },
      { "r16f", MALI_FORMAT_R16F, MALI_RGB_COMPONENT_ORDER_RGB1, 2, false, {
        h0 & 0xff, h0 >> 8 }, { ref_half(h0), 0, 0, 1 } },
      { "rg16f", MALI_FORMAT_RG16F, MALI_RGB_COMPONENT_ORDER_RGB1, 4, false, {
        0x00, 0x3c, 0x00, 0xc0 }, { 1, -2, 0, 1 } },
      { "rgba16f", MALI_FORMAT_RGBA16F, MALI_RGB_COMPONENT_ORDER_RGBA, 8,
        false, { 0x00, 0x3c, 0x00, 0xc0, h0 & 0xff, h0 >> 8, 0, 0 }, { 1, -2,
        ref_half(h0), 0 } },
      { "r32f", MALI_FORMAT_R32F, MALI_RGB_COMPONENT_ORDER_RGB1, 4, false, {
        0x00, 0x00, 0x20, 0x41 }, { 10, 0, 0, 1 } },
      { "rgba32f", MALI_FORMAT_RGBA32F, MALI_RGB_COMPONENT_ORDER_RGBA, 16,
        false, { 0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0, 0, 0, 0, 0x3f, 0, 0, 0x80,
        0xbf }, { 1, -2, 0.5, -1 } },
      { "rgba8ui", MALI_FORMAT_RGBA8UI, MALI_RGB_COMPONENT_ORDER_RGBA, 4,
        false, { 1, 2, 250, 255 }, { 1, 2, 250, 255 }, true },
      { "r16i", MALI_FORMAT_R16I, MALI_RGB_COMPONENT_ORDER_RGB1, 2, false, {
        0xfe, 0xff }, { -2, 0, 0, 1 }, true },
      { "rg32ui", MALI_FORMAT_RG32UI, MALI_RGB_COMPONENT_ORDER_RGB1, 8, false,
        { 0x78, 0x56, 0x34, 0x12, 7, 0, 0, 0 }, { 0x12345678, 7, 0, 1 }, true
        },
      { "z16", MALI_FORMAT_Z16_UNORM, MALI_RGB_COMPONENT_ORDER_RGBA, 2, false,
        { 0xff, 0x7f }, { 0x7fff / 65535.0, 0, 0, 1 } },
      /* Depth in the low 24 bits, stencil above it ignored. */
      { "z24s8", MALI_FORMAT_Z24X8_UNORM, MALI_RGB_COMPONENT_ORDER_RGBA, 4,
        false, { 0x00, 0x00, 0x80, 0x5a }, { 0x800000 / 16777215.0, 0, 0, 1 }
        },
   };
   /* clang-format on */
   for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i)
      run_format_case(&cases[i]);

   /* A format the sampler does not decode faults naming it. */
   struct tex_desc d =
      tex_2d(4, 4, MALI_FORMAT_BC1_UNORM, MALI_RGB_COMPONENT_ORDER_RGBA, 8);
   fixture_init(&f);
   make_texture(&f.t, &d);
   bind(&f.t, &f.s);
   base_req(&f.req, MALI_TEXTURE_DIMENSION_2D);
   PAN_EXPECT(!sample_at(&f.req, 0.5f, 0.5f, f.out, f.err));
   PAN_EXPECT_STR_HAS(f.err, "bc1_unorm");
}

/* ---- wrapping, filtering ---- */

/* 4x1 RGBA8 texture of texels (16k, 0, 0, 255), k = 1..4 */
static void
make_row(struct tex *t, bool tiled)
{
   struct tex_desc d =
      tex_2d(4, 1, MALI_FORMAT_RGBA8_UNORM, MALI_RGB_COMPONENT_ORDER_RGBA, 4);
   d.tiled = tiled;
   make_texture(t, &d);
   for (unsigned x = 0; x < 4; ++x)
      put32(t, 0, 0, x, 0, 0xff000000u | (16 * (x + 1)));
}

/* GL's wrap of texel index i over size n (the tables of GL 4.6 8.14.2),
 * -1 for the border, written out independently of the sampler's. */
static int
ref_wrap(unsigned mode, int i, int n)
{
   int m;
   switch (mode) {
   case MALI_WRAP_MODE_REPEAT:
      return ((i % n) + n) % n;
   case MALI_WRAP_MODE_CLAMP_TO_EDGE:
      return i < 0 ? 0 : i > n - 1 ? n - 1 : i;
   case MALI_WRAP_MODE_CLAMP_TO_BORDER:
      return i < 0 || i >= n ? -1 : i;
   case MALI_WRAP_MODE_MIRRORED_REPEAT:
      m = ((i % (2 * n)) + 2 * n) % (2 * n);
      return m < n ? m : 2 * n - 1 - m;
   default: /* mirrored clamp to edge */
      m = i < 0 ? -i - 1 : i;
      return m > n - 1 ? n - 1 : m;
   }
}

static void
test_wrap(void)
{
   struct fixture f;
   static const unsigned modes[] = {
      MALI_WRAP_MODE_REPEAT,
      MALI_WRAP_MODE_CLAMP_TO_EDGE,
      MALI_WRAP_MODE_CLAMP_TO_BORDER,
      MALI_WRAP_MODE_MIRRORED_REPEAT,
      MALI_WRAP_MODE_MIRRORED_CLAMP_TO_EDGE,
   };
   static const float us[] = { -1.3f, -0.3f, 0.1f, 0.6f, 1.1f, 1.6f, 2.2f };
   for (unsigned tiled = 0; tiled < 2; ++tiled) {
      for (unsigned m = 0; m < 5; ++m) {

         fixture_init(&f);
         make_row(&f.t, tiled);
         f.s.wrap_s = modes[m];
         f.s.border[0] = pan_test_u32(0.25f);
         f.s.border[3] = pan_test_u32(0.5f);
         bind(&f.t, &f.s);
         base_req(&f.req, MALI_TEXTURE_DIMENSION_2D);
         for (unsigned k = 0; k < sizeof(us) / sizeof(us[0]); ++k) {
            PAN_CHECK(sample_at(&f.req, us[k], 0.5f, f.out, f.err), "%s",
                      f.err);
            int i = ref_wrap(modes[m], (int)floorf(us[k] * 4), 4);
            float want = i < 0 ? 0.25f : 16 * (i + 1) / 255.0f;
            float a = i < 0 ? 0.5f : 1.0f;
            PAN_CHECK(near(f.out[0], want) && near(f.out[3], a),
                      "wrap %u tiled %u u %g: got %g %g, want %g %g", modes[m],
                      tiled, us[k], f.out[0], f.out[3], want, a);
         }
      }
   }
}

static void
test_linear(void)
{
   struct fixture f;

   fixture_init(&f);
   make_row(&f.t, false);
   f.s.mag_nearest = f.s.min_nearest = false;
   bind(&f.t, &f.s);
   base_req(&f.req, MALI_TEXTURE_DIMENSION_2D);
   /* Texel centres at (i + 0.5) / 4; u = 0.3 sits 0.7 of the way from
    * texel 0 to texel 1. */
   PAN_CHECK(sample_at(&f.req, 0.3f, 0.5f, f.out, f.err), "%s", f.err);
   float want = (0.3f * 16 + 0.7f * 32) / 255.0f;
   PAN_CHECK(fabsf(f.out[0] - want) < 1e-5f, "bilinear: %g, want %g", f.out[0],
             want);
   /* Clamped at the edge: u = 0 blends texel 0 with itself. */
   PAN_CHECK(sample_at(&f.req, 0.0f, 0.5f, f.out, f.err), "%s", f.err);
   PAN_CHECK(near(f.out[0], 16 / 255.0f), "edge: %g", f.out[0]);
}

/* ---- mip levels ---- */

/* 8x8, 4 levels, level l all (l * 64 + 10, 0, 0, 255). */
static void
make_mips(struct tex *t)
{
   struct tex_desc d =
      tex_2d(8, 8, MALI_FORMAT_RGBA8_UNORM, MALI_RGB_COMPONENT_ORDER_RGBA, 4);
   d.levels = 4;
   d.tiled = true;
   make_texture(t, &d);
   for (unsigned l = 0; l < 4; ++l) {
      for (unsigned y = 0; y < minify(8, l); ++y)
         for (unsigned x = 0; x < minify(8, l); ++x)
            put32(t, l, 0, x, y, 0xff000000u | (l * 64 + 10));
   }
}

static float
level_red(double l)
{
   return (float)((l * 64 + 10) / 255.0);
}

static void
test_mips(void)
{
   struct fixture f;

   /* Explicit LODs, nearest mip: level ceil(lod + 0.5) - 1. */
   static const float lods[] = { 0.2f, 0.6f, 1.4f, 1.6f, 2.5f, 7.0f };
   static const unsigned near_level[] = { 0, 1, 1, 2, 2, 3 };
   fixture_init(&f);
   make_mips(&f.t);
   f.s.mip = MALI_MIPMAP_MODE_NEAREST;
   bind(&f.t, &f.s);
   base_req(&f.req, MALI_TEXTURE_DIMENSION_2D);
   f.req.lod_mode = PAN_SIM_TEX_LOD_EXPLICIT;
   for (unsigned k = 0; k < 6; ++k) {
      for (unsigned l = 0; l < 4; ++l)
         f.req.lod[l] = lods[k];
      PAN_CHECK(sample_at(&f.req, 0.5f, 0.5f, f.out, f.err), "%s", f.err);
      PAN_CHECK(near(f.out[0], level_red(near_level[k])),
                "nearest mip lod %g: %g, want level %u", lods[k], f.out[0],
                near_level[k]);
   }

   /* Linear mip: the two levels around the LOD, weighted by its
    * fraction. */
   space_reset();
   make_mips(&f.t);
   f.s.mip = MALI_MIPMAP_MODE_TRILINEAR;
   bind(&f.t, &f.s);
   for (unsigned l = 0; l < 4; ++l)
      f.req.lod[l] = 1.25f;
   PAN_CHECK(sample_at(&f.req, 0.5f, 0.5f, f.out, f.err), "%s", f.err);
   PAN_CHECK(fabsf(f.out[0] - (0.75f * level_red(1) + 0.25f * level_red(2))) <
                1e-5f,
             "linear mip: %g", f.out[0]);

   /* The sampler'f.s bias and clamps apply. */
   space_reset();
   make_mips(&f.t);
   f.s.mip = MALI_MIPMAP_MODE_NEAREST;
   f.s.bias = 1.0f;
   f.s.max_lod = 2.0f;
   bind(&f.t, &f.s);
   for (unsigned l = 0; l < 4; ++l)
      f.req.lod[l] = 1.9f;
   PAN_CHECK(sample_at(&f.req, 0.5f, 0.5f, f.out, f.err), "%s", f.err);
   PAN_CHECK(near(f.out[0], level_red(2)), "bias+clamp: %g", f.out[0]);

   /* LOD from the quad: coordinates 2/8 apart between neighbours of an
    * 8-texel level scale by 2 texels per pixel: LOD 1. */
   space_reset();
   make_mips(&f.t);
   f.s = nearest_sampler();
   f.s.mip = MALI_MIPMAP_MODE_NEAREST;
   bind(&f.t, &f.s);
   base_req(&f.req, MALI_TEXTURE_DIMENSION_2D);
   f.req.lod_mode = PAN_SIM_TEX_LOD_COMPUTE;
   for (unsigned l = 0; l < 4; ++l) {
      f.req.coord[l][0] = pan_test_u32(0.25f + 0.25f * (l & 1));
      f.req.coord[l][1] = pan_test_u32(0.25f + 0.25f * (l >> 1));
   }
   PAN_CHECK(PAN_GENX(sim_tex_run)(&env, &f.req, f.err), "%s", f.err);
   for (unsigned l = 0; l < 4; ++l)
      PAN_CHECK(near(pan_test_f32(f.req.out[l][0]), level_red(1)),
                "computed LOD lane %u: %g", l, pan_test_f32(f.req.out[l][0]));
   /* Twice as far apart: LOD 2. */
   for (unsigned l = 0; l < 4; ++l)
      f.req.coord[l][0] = pan_test_u32(0.5f * (l & 1));
   PAN_CHECK(PAN_GENX(sim_tex_run)(&env, &f.req, f.err), "%s", f.err);
   PAN_CHECK(near(pan_test_f32(f.req.out[0][0]), level_red(2)),
             "computed LOD 2: %g", pan_test_f32(f.req.out[0][0]));
}

/* ---- fetch, shadow, layers, faces, 3D ---- */

static void
test_fetch(void)
{
   struct fixture f;

   fixture_init(&f);
   make_mips(&f.t);
   put32(&f.t, 1, 0, 3, 2, 0x11223344);
   bind(&f.t, &f.s);
   base_req(&f.req, MALI_TEXTURE_DIMENSION_2D);
   f.req.op = PAN_SIM_TEX_FETCH;
   for (unsigned l = 0; l < 4; ++l) {
      f.req.coord[l][0] = 3;
      f.req.coord[l][1] = 2;
      f.req.level[l] = 1;
   }
   f.req.coord[3][0] = 4; /* outside level 1 (4x4): zeros */
   PAN_CHECK(PAN_GENX(sim_tex_run)(&env, &f.req, f.err), "%s", f.err);
   PAN_CHECK(near(pan_test_f32(f.req.out[0][0]), 0x44 / 255.0f) &&
                near(pan_test_f32(f.req.out[0][3]), 0x11 / 255.0f),
             "fetch: %g %g", pan_test_f32(f.req.out[0][0]),
             pan_test_f32(f.req.out[0][3]));
   PAN_EXPECT_EQ(f.req.out[3][0], 0);

   /* f16 results pack two channels a register. */
   f.req.regfmt = 0;
   PAN_CHECK(PAN_GENX(sim_tex_run)(&env, &f.req, f.err), "%s", f.err);
   PAN_CHECK(fabs(ref_half((uint16_t)(f.req.out[0][1] >> 16)) - 0x11 / 255.0) <
                1e-3,
             "f16 alpha 0x%x", f.req.out[0][1] >> 16);
}

/* A texture buffer as the drivers describe it: one linear 1D level of
 * 65536 texels (the descriptor's widest), fetched at level 0 with integer
 * results; past the last texel reads zeros. */
static void
test_buffer_fetch(void)
{
   struct fixture f;

   fixture_init(&f);
   struct tex_desc d =
      tex_2d(65536, 1, MALI_FORMAT_RG32UI, MALI_RGB_COMPONENT_ORDER_RGB1, 8);
   d.dim = MALI_TEXTURE_DIMENSION_1D;
   make_texture(&f.t, &d);
   static const unsigned x[4] = { 0, 40000, 65535, 65536 };
   for (unsigned l = 0; l < 3; ++l) {
      uint32_t el[2] = { 0x1000 + x[l], 0x2000 + l };
      put(&f.t, 0, 0, x[l], 0, 0, el);
   }
   bind(&f.t, &f.s);
   base_req(&f.req, MALI_TEXTURE_DIMENSION_1D);
   f.req.op = PAN_SIM_TEX_FETCH;
   f.req.regfmt = 3; /* u32 */
   for (unsigned l = 0; l < 4; ++l)
      f.req.coord[l][0] = x[l];
   PAN_CHECK(PAN_GENX(sim_tex_run)(&env, &f.req, f.err), "%s", f.err);
   for (unsigned l = 0; l < 3; ++l) {
      PAN_CHECK(f.req.out[l][0] == 0x1000 + x[l] && f.req.out[l][1] == 0x2000 + l,
                "texel %u: 0x%x 0x%x", x[l], f.req.out[l][0], f.req.out[l][1]);
   }
   PAN_EXPECT_EQ(f.req.out[3][0], 0);
   PAN_EXPECT_EQ(f.req.out[3][1], 0);
}

/* Texel (x, y) of the gather texture: each channel names the texel. */
static uint32_t
gather_texel(unsigned x, unsigned y, unsigned c)
{
   return 16 * x + y + 64 * c;
}

/* Gathers return component gather_comp of the bilinear footprint in the
 * hardware's (raster) order: (i0, j0), (i1, j0), (i0, j1), (i1, j1), the
 * texel offsets added before the wrap; level 0 whatever the LOD. */
static void
test_gather(void)
{
   struct fixture f;
   static const struct {
      float s, t;
      int8_t dx, dy;
      unsigned comp, wrap;
   } cases[] = {
      { 0.375f, 0.625f, 0, 0, 1, MALI_WRAP_MODE_CLAMP_TO_EDGE },
      { 0.375f, 0.625f, -1, 1, 0, MALI_WRAP_MODE_CLAMP_TO_EDGE },
      { 0.1f, 0.9f, 0, 0, 3, MALI_WRAP_MODE_REPEAT },
      { 0.6f, 0.4f, 2, -3, 2, MALI_WRAP_MODE_REPEAT },
   };
   for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); ++k) {
      struct tex_desc d =
         tex_2d(4, 4, MALI_FORMAT_RGBA8_UNORM, MALI_RGB_COMPONENT_ORDER_RGBA, 4);
      d.tiled = k & 1;
      fixture_init(&f);
      make_texture(&f.t, &d);
      for (unsigned y = 0; y < 4; ++y) {
         for (unsigned x = 0; x < 4; ++x) {
            uint32_t v = 0;
            for (unsigned c = 0; c < 4; ++c)
               v |= gather_texel(x, y, c) << (8 * c);
            put32(&f.t, 0, 0, x, y, v);
         }
      }
      f.s.wrap_s = f.s.wrap_t = cases[k].wrap;
      bind(&f.t, &f.s);
      base_req(&f.req, MALI_TEXTURE_DIMENSION_2D);
      f.req.op = PAN_SIM_TEX_GATHER;
      f.req.gather_comp = cases[k].comp;
      f.req.offset = true;
      for (unsigned l = 0; l < 4; ++l) {
         f.req.offsets[l][0] = cases[k].dx;
         f.req.offsets[l][1] = cases[k].dy;
      }
      PAN_CHECK(sample_at(&f.req, cases[k].s, cases[k].t, f.out, f.err), "%s",
                f.err);
      int i0 = (int)floorf(cases[k].s * 4 - 0.5f) + cases[k].dx;
      int j0 = (int)floorf(cases[k].t * 4 - 0.5f) + cases[k].dy;
      for (unsigned n = 0; n < 4; ++n) {
         int x = ref_wrap(cases[k].wrap, i0 + (n & 1), 4);
         int y = ref_wrap(cases[k].wrap, j0 + (n >> 1), 4);
         float want = gather_texel(x, y, cases[k].comp) / 255.0f;
         PAN_CHECK(near(f.out[n], want),
                   "gather %u: result %u is %g, want texel (%d, %d) = %g", k,
                   n, f.out[n], x, y, want);
      }
   }

   /* A shadow gather returns the four comparisons. */
   struct tex_desc d =
      tex_2d(2, 2, MALI_FORMAT_Z16_UNORM, MALI_RGB_COMPONENT_ORDER_RGBA, 2);
   fixture_init(&f);
   make_texture(&f.t, &d);
   static const uint16_t z[4] = { 10000, 30000, 50000, 20000 };
   for (unsigned i = 0; i < 4; ++i)
      put(&f.t, 0, 0, i & 1, i >> 1, 0, &z[i]);
   f.s.compare = MALI_FUNC_LESS;
   bind(&f.t, &f.s);
   base_req(&f.req, MALI_TEXTURE_DIMENSION_2D);
   f.req.op = PAN_SIM_TEX_GATHER;
   f.req.shadow = true;
   for (unsigned l = 0; l < 4; ++l)
      f.req.ref[l] = 25000 / 65535.0f;
   PAN_CHECK(sample_at(&f.req, 0.5f, 0.5f, f.out, f.err), "%s", f.err);
   EXPECT_RGBA(f.out, 1, 0, 0, 1, "shadow gather");
}

static void
test_shadow(void)
{
   struct fixture f;
   static const struct {
      unsigned func;
      float ref;
      float want;
   } cases[] = {
      /* The texel (0.5) is on the left: "texel FUNC reference". */
      { MALI_FUNC_LEQUAL, 0.4f, 0 },  { MALI_FUNC_LEQUAL, 0.6f, 1 },
      { MALI_FUNC_GREATER, 0.4f, 1 }, { MALI_FUNC_ALWAYS, 0.9f, 1 },
      { MALI_FUNC_NEVER, 0.1f, 0 },   { MALI_FUNC_GREATER, -3.0f, 1 },
      { MALI_FUNC_LESS, 7.0f, 1 }, /* unorm depth: reference clamped */
      { MALI_FUNC_GEQUAL, 7.0f, 0 },
   };
   for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); ++k) {
      struct tex_desc d =
         tex_2d(2, 2, MALI_FORMAT_Z16_UNORM, MALI_RGB_COMPONENT_ORDER_RGBA, 2);
      d.tiled = true;

      fixture_init(&f);
      make_texture(&f.t, &d);
      for (unsigned i = 0; i < 4; ++i) {
         uint16_t z = i == 3 ? 65535 : 32768; /* ~0.5 */
         put(&f.t, 0, 0, i & 1, i >> 1, 0, &z);
      }
      f.s.compare = cases[k].func;
      bind(&f.t, &f.s);
      base_req(&f.req, MALI_TEXTURE_DIMENSION_2D);
      f.req.shadow = true;
      for (unsigned l = 0; l < 4; ++l)
         f.req.ref[l] = cases[k].ref;
      PAN_CHECK(sample_at(&f.req, 0.25f, 0.25f, f.out, f.err), "%s", f.err);
      PAN_CHECK(near(f.out[0], cases[k].want), "compare %u ref %g: %g",
                cases[k].func, cases[k].ref, f.out[0]);
   }
}

static void
test_layers_faces_3d(void)
{
   struct smp_desc s = nearest_sampler();
   struct pan_sim_tex_req req;
   char err[PAN_SIM_TEX_ERR_LEN] = "";
   float out[4];
   struct tex t;

   /* 2D array of 3 layers, 2 levels: layer k level l = (k, l). */
   struct tex_desc d =
      tex_2d(2, 2, MALI_FORMAT_RGBA8UI, MALI_RGB_COMPONENT_ORDER_RGBA, 4);
   d.levels = 2;
   d.layers = 3;
   space_reset();
   make_texture(&t, &d);
   for (unsigned k = 0; k < 3; ++k)
      for (unsigned l = 0; l < 2; ++l)
         for (unsigned i = 0; i < 4; ++i)
            put32(&t, l, k, i & 1, i >> 1, k | l << 8);
   bind(&t, &s);
   base_req(&req, MALI_TEXTURE_DIMENSION_2D);
   req.array = true;
   req.regfmt = 3;
   for (unsigned k = 0; k < 4; ++k) {
      for (unsigned l = 0; l < 4; ++l)
         req.layer[l] = k;
      PAN_CHECK(sample_at(&req, 0.5f, 0.5f, out, err), "%s", err);
      /* Layers beyond the array clamp to the last one. */
      PAN_EXPECT_EQ(req.out[0][0], k < 3 ? k : 2);
      PAN_EXPECT_EQ(req.out[0][1], 0);
   }

   /* Cube: face f holds f + 1. */
   struct tex_desc c =
      tex_2d(2, 2, MALI_FORMAT_R32UI, MALI_RGB_COMPONENT_ORDER_RGB1, 4);
   c.dim = MALI_TEXTURE_DIMENSION_CUBE;
   space_reset();
   make_texture(&t, &c);
   for (unsigned f = 0; f < 6; ++f)
      for (unsigned i = 0; i < 4; ++i)
         put32(&t, 0, f, i & 1, i >> 1, f + 1);
   bind(&t, &s);
   base_req(&req, MALI_TEXTURE_DIMENSION_CUBE);
   req.regfmt = 3;
   for (unsigned f = 0; f < 6; ++f) {
      for (unsigned l = 0; l < 4; ++l)
         req.face[l] = f;
      PAN_CHECK(sample_at(&req, 0.5f, 0.5f, out, err), "%s", err);
      PAN_EXPECT_EQ(req.out[0][0], f + 1);
   }
   for (unsigned l = 0; l < 4; ++l)
      req.face[l] = 6;
   PAN_EXPECT(!sample_at(&req, 0.5f, 0.5f, out, err));

   /* 3D, 2x2x4, linear in r between slices 1 and 2. */
   struct tex_desc v =
      tex_2d(2, 2, MALI_FORMAT_R8_UNORM, MALI_RGB_COMPONENT_ORDER_RGB1, 1);
   v.dim = MALI_TEXTURE_DIMENSION_3D;
   v.d = 4;
   space_reset();
   make_texture(&t, &v);
   for (unsigned z = 0; z < 4; ++z)
      for (unsigned i = 0; i < 4; ++i) {
         uint8_t b = (uint8_t)(z * 40);
         put(&t, 0, 0, i & 1, i >> 1, z, &b);
      }
   s.mag_nearest = s.min_nearest = false;
   bind(&t, &s);
   base_req(&req, MALI_TEXTURE_DIMENSION_3D);
   for (unsigned l = 0; l < 4; ++l)
      req.coord[l][2] = pan_test_u32(0.5f); /* between slices 1 and 2 */
   PAN_CHECK(sample_at(&req, 0.5f, 0.5f, out, err), "%s", err);
   PAN_CHECK(fabsf(out[0] - 60 / 255.0f) < 1e-5f, "3D: %g", out[0]);
}

static void
test_refusals(void)
{
   struct fixture f;

   fixture_init(&f);
   make_row(&f.t, false);
   f.s.wrap_s = MALI_WRAP_MODE_MIRRORED_REPEAT;
   f.s.mag_nearest = false;
   bind(&f.t, &f.s);
   base_req(&f.req, MALI_TEXTURE_DIMENSION_2D);
   /* Coordinates far outside, infinite or NaN sample something, with
    * no undefined conversion on the way. */
   static const float wild[] = { 1e30f, -1e30f, INFINITY, NAN };
   for (unsigned k = 0; k < 4; ++k) {
      PAN_CHECK(sample_at(&f.req, wild[k], 0.5f, f.out, f.err), "%s", f.err);
      PAN_CHECK(f.out[0] >= 0 && f.out[0] <= 1, "u %g: %g", wild[k], f.out[0]);
   }
   base_req(&f.req, MALI_TEXTURE_DIMENSION_2D);
#if PAN_ARCH >= 9
   f.req.texture = 5 | 1u << 11;
#else
   f.req.texture = 5;
#endif
   PAN_EXPECT(!sample_at(&f.req, 0.5f, 0.5f, f.out, f.err));
   PAN_EXPECT_STR_HAS(f.err, "texture 5");

   /* Surfaces outside memory fault, they do not crash. */
   base_req(&f.req, MALI_TEXTURE_DIMENSION_2D);
   uint8_t *desc = space_mem + (f.t.va - SPACE_VA);
   pan_unpack(desc, texture, td);
   td.surfaces = 0x1000;
   pan_pack(desc, texture, cfg) { cfg = td; }
   PAN_EXPECT(!sample_at(&f.req, 0.5f, 0.5f, f.out, f.err));
   PAN_EXPECT(f.err[0] != 0);
}

/* Images: the texel a coordinate names, through the layout code the
 * sampler uses, on a u-interleaved 5x3 2D array of two r32i layers
 * (texel (x, y) of layer k holds 100 k + 10 y + x).  v9 reads the texture
 * descriptor from the resource table, v7 an attribute record whose 3D
 * buffer points at the same texels. */
static void
test_images(void)
{
   struct smp_desc s = nearest_sampler();
   struct pan_sim_image_env img;
   struct pan_sim_image_ops ops;
   char err[PAN_SIM_IMAGE_ERR_LEN] = "";
   uint32_t out[4], word[3];
   struct tex t;

   struct tex_desc d =
      tex_2d(5, 3, MALI_FORMAT_R32I, MALI_RGB_COMPONENT_ORDER_RGB1, 4);
   d.layers = 2;
   d.tiled = true;
   space_reset();
   make_texture(&t, &d);
   for (unsigned k = 0; k < 2; ++k)
      for (unsigned y = 0; y < 3; ++y)
         for (unsigned x = 0; x < 5; ++x)
            put32(&t, 0, k, x, y, 100 * k + 10 * y + x);
   bind(&t, &s);
   memset(&img, 0, sizeof(img));
   img.tex = env;
#if PAN_ARCH >= 9
   const unsigned table = 1; /* bind(): textures in resource table 1 */
#else
   const unsigned table = 0;
   void *cpu;
   uint64_t layer0 = SPACE_VA + (uint64_t)(t.level_cpu[0][0] - space_mem);
   uint64_t layer1 = SPACE_VA + (uint64_t)(t.level_cpu[0][1] - space_mem);
   uint32_t fmt_word;
   pan_pack(&fmt_word, pixel_format, cfg)
   {
      cfg.format = MALI_FORMAT_R32I;
      cfg.order = MALI_RGB_COMPONENT_ORDER_RGB1;
   }
   img.attribute_buffers = alloc(2 * pan_size(attribute_buffer), &cpu);
   pan_pack(cpu, attribute_buffer, cfg)
   {
      cfg.type = MALI_ATTRIBUTE_TYPE_3D_INTERLEAVED;
      cfg.address = layer0;
      cfg.stride = 4;
      cfg.size = (uint32_t)(layer1 - layer0) * 2;
   }
   pan_pack((uint8_t *)cpu + pan_size(attribute_buffer),
            attribute_buffer_continuation_3d, cfg)
   {
      cfg.s_dimension = 5;
      cfg.t_dimension = 3;
      cfg.r_dimension = 2;
      cfg.row_stride_B = t.row_stride[0];
      cfg.slice_stride_B = (uint32_t)(layer1 - layer0);
   }
   img.attributes = alloc(pan_size(attribute), &cpu);
   pan_pack(cpu, attribute, cfg)
   {
      cfg.buffer_index = 0;
      cfg.format = fmt_word;
   }
#endif
   PAN_GENX(sim_image_ops)(&img, &ops);

   for (unsigned k = 0; k < 2; ++k) {
      for (unsigned y = 0; y < 3; ++y) {
         for (unsigned x = 0; x < 5; ++x) {
            const uint32_t coord[3] = { x, y, k };
            uint32_t want = 100 * k + 10 * y + x, in_mem;
            PAN_CHECK(ops.load(ops.user, table, 0, coord, PAN_SIM_REG_S32, 4,
                               out, err),
                      "%s", err);
            PAN_EXPECT_EQ(out[0], want);
            PAN_EXPECT_EQ(out[3], 1); /* rgb1: alpha reads one */
            PAN_CHECK(ops.address(ops.user, table, 0, coord, PAN_SIM_REG_AUTO,
                                  word, err),
                      "%s", err);
            uint64_t va = word[0] | (uint64_t)word[1] << 32;
            PAN_CHECK(va >= SPACE_VA && va + 4 <= SPACE_VA + SPACE_SIZE,
                      "address 0x%llx", (unsigned long long)va);
            memcpy(&in_mem, space_mem + (va - SPACE_VA), 4);
            PAN_EXPECT_EQ(in_mem, want);
            pan_unpack(&word[2], internal_conversion, conv);
            PAN_EXPECT_EQ(conv.register_format, MALI_REGISTER_FILE_FORMAT_I32);
            pan_unpack(&conv.memory_format, pixel_format, pf);
            PAN_EXPECT_EQ(pf.format, MALI_FORMAT_R32I);
         }
      }
   }

   /* Malformed: coordinates outside the image, a missing descriptor. */
   const uint32_t past_x[3] = { 5, 0, 0 }, past_layer[3] = { 0, 0, 2 };
   const uint32_t inside[3] = { 1, 1, 1 };
   PAN_EXPECT(
      !ops.address(ops.user, table, 0, past_x, PAN_SIM_REG_AUTO, word, err));
   PAN_EXPECT_STR_HAS(err, "outside the 5x3x2 image");
   PAN_EXPECT(
      !ops.load(ops.user, table, 0, past_layer, PAN_SIM_REG_S32, 1, out, err));
   PAN_EXPECT_STR_HAS(err, "(0, 0, 2) outside");
#if PAN_ARCH >= 9
   PAN_EXPECT(
      !ops.load(ops.user, table, 3, inside, PAN_SIM_REG_S32, 1, out, err));
   PAN_EXPECT_STR_HAS(err, "texture 3 beyond");
   PAN_EXPECT(!ops.load(ops.user, 9, 0, inside, PAN_SIM_REG_S32, 1, out, err));
   PAN_EXPECT_STR_HAS(err, "table 9 beyond");
#else
   /* A vertex buffer is no image. */
   pan_pack(space_mem + (img.attribute_buffers - SPACE_VA), attribute_buffer,
            cfg)
   {
      cfg.type = MALI_ATTRIBUTE_TYPE_1D;
      cfg.address = layer0;
      cfg.stride = 4;
   }
   PAN_EXPECT(
      !ops.load(ops.user, table, 0, inside, PAN_SIM_REG_S32, 1, out, err));
   PAN_EXPECT_STR_HAS(err, "is not an image");
   img.attributes = 0;
   PAN_EXPECT(
      !ops.load(ops.user, table, 0, inside, PAN_SIM_REG_S32, 1, out, err));
   PAN_EXPECT_STR_HAS(err, "without an attribute table");
#endif
}

/* ---- AFBC ---- */

/* A 32x16 RGBA8UI AFBC texture (two 16x16 superblocks, hand-built per
 * pan_sim_afbc.h): superblock 0 a solid colour, superblock 1 stored
 * uncompressed; then a header pointing outside memory. */
static void
test_afbc(void)
{
   static const uint8_t ones[12] = { 0x41, 0x10, 0x04, 0x41, 0x10, 0x04,
                                     0x41, 0x10, 0x04, 0x41, 0x10, 0x04 };
   struct smp_desc smp = nearest_sampler();
   struct pan_sim_tex_req req;
   char err[PAN_SIM_TEX_ERR_LEN] = "";
   float out[4];
   uint8_t *hdr, *desc, *surf;

   space_reset();
   uint64_t hdr_va = alloc(64 + 2 * 1024, (void **)&hdr);
   memset(hdr, 0, 64 + 2 * 1024);
   hdr[8] = 1, hdr[9] = 2, hdr[10] = 3, hdr[11] = 4;
   hdr[16] = (64 + 1024) & 0xff, hdr[17] = (64 + 1024) >> 8;
   memcpy(hdr + 20, ones, 12);
   for (unsigned y = 0; y < 16; ++y) {
      for (unsigned x = 16; x < 32; ++x) {
         unsigned sub = (y / 4) * 4 + (x - 16) / 4, in = (y % 4) * 4 + x % 4;
         uint8_t *p = hdr + 64 + 1024 + (sub * 16 + in) * 4;
         p[0] = (uint8_t)x, p[1] = (uint8_t)y, p[2] = 7, p[3] = 9;
      }
   }
   uint32_t format_word;
   pan_pack(&format_word, pixel_format, cfg)
   {
      cfg.format = MALI_FORMAT_RGBA8UI;
      cfg.order = MALI_RGB_COMPONENT_ORDER_RGBA;
   }
#if PAN_ARCH >= 9
   uint64_t surf_va = alloc(pan_size(plane), (void **)&surf);
   pan_pack(surf, plane, cfg)
   {
      cfg.plane_type = MALI_PLANE_TYPE_AFBC;
      cfg.afbc.superblock_size = MALI_AFBC_SUPERBLOCK_SIZE_16X16;
      cfg.afbc.compression_mode = MALI_AFBC_COMPRESSION_MODE_R8G8B8A8;
      cfg.afbc.header_stride = 64;
      cfg.address = hdr_va;
      cfg.size = 64 + 2 * 1024;
      cfg.row_stride_B = 32;
   }
#else
   uint64_t surf_va = alloc(pan_size(surface_with_stride), (void **)&surf);
   pan_pack(surf, surface_with_stride, cfg)
   {
      /* Flags in the low bits: prefetch, check payload range. */
      cfg.address = hdr_va | MALI_AFBC_SURFACE_FLAG_PREFETCH |
                    MALI_AFBC_SURFACE_FLAG_CHECK_PAYLOAD_RANGE;
      cfg.row_stride_B = 32;
      cfg.surface_stride_B = 64 + 2 * 1024;
   }
#endif
   struct tex t = { .d = tex_2d(32, 16, MALI_FORMAT_RGBA8UI,
                                MALI_RGB_COMPONENT_ORDER_RGBA, 4) };
   t.va = alloc(pan_size(texture), (void **)&desc);
   pan_pack(desc, texture, cfg)
   {
      cfg.dimension = MALI_TEXTURE_DIMENSION_2D;
      cfg.format = format_word;
      cfg.width = 32;
      cfg.height = 16;
      cfg.swizzle = pack_swizzle(t.d.swizzle);
#if PAN_ARCH < 9
      cfg.texel_ordering = MALI_TEXTURE_LAYOUT_AFBC;
#endif
      cfg.levels = 1;
      cfg.surfaces = surf_va;
      cfg.array_size = 1;
   }
   bind(&t, &smp);
   base_req(&req, MALI_TEXTURE_DIMENSION_2D);
   req.regfmt = 3;
   static const unsigned pts[][2] = { { 0, 0 },   { 15, 15 }, { 16, 0 },
                                      { 21, 6 },  { 31, 15 }, { 27, 9 } };
   for (unsigned k = 0; k < 6; ++k) {
      unsigned x = pts[k][0], y = pts[k][1];
      PAN_CHECK(sample_at(&req, (x + 0.5f) / 32, (y + 0.5f) / 16, out, err),
                "%s", err);
      if (x < 16) {
         PAN_CHECK(req.out[0][0] == 1 && req.out[0][1] == 2 &&
                      req.out[0][2] == 3 && req.out[0][3] == 4,
                   "solid (%u, %u): %u %u %u %u", x, y, req.out[0][0],
                   req.out[0][1], req.out[0][2], req.out[0][3]);
      } else {
         PAN_CHECK(req.out[0][0] == x && req.out[0][1] == y &&
                      req.out[0][2] == 7 && req.out[0][3] == 9,
                   "payload (%u, %u): %u %u %u %u", x, y, req.out[0][0],
                   req.out[0][1], req.out[0][2], req.out[0][3]);
      }
   }

   /* A payload offset far outside memory: refused with a message. */
   hdr[16] = 0xff, hdr[17] = 0xff, hdr[18] = 0xff, hdr[19] = 0x7f;
   PAN_CHECK(!sample_at(&req, 20.5f / 32, 0.5f / 16, out, err),
             "a bad payload offset sampled");
   PAN_CHECK(strstr(err, "texel"), "message: %s", err);
   /* A compressed subblock: refused, named. */
   hdr[16] = (64 + 1024) & 0xff, hdr[17] = (64 + 1024) >> 8, hdr[18] = 0;
   hdr[19] = 0;
   hdr[20] = 0x47;
   PAN_CHECK(!sample_at(&req, 16.5f / 32, 0.5f / 16, out, err),
             "a compressed subblock sampled");
   PAN_CHECK(strstr(err, "compressed"), "message: %s", err);
}

/* 2D ASTC 6x5: two void-extent blocks side by side in a linear 12x5
 * texture.  v6/v7 name the ASTC format and put the footprint in the
 * surface address (width code 2, height code 1); v9 names the decoded
 * format and uses an astc_2d plane.  The narrow decode gives the colours'
 * top bytes, the wide one C / 65536 (0x8000: 0.5).
 */
static uint64_t
astc_texture(struct tex *t, bool wide, bool astc_format, unsigned w_code)
{
   uint8_t *data, *desc, *surf;
   uint64_t data_va = alloc(64, (void **)&data);
   static const uint16_t colours[2][4] = {
      { 0x3300, 0x8000, 0xff00, 0xffff },
      { 0x0000, 0x1100, 0x8000, 0x4400 },
   };
   for (unsigned b = 0; b < 2; ++b) {
      uint8_t *blk = data + 16 * b;
      memset(blk, 0xff, 8);
      blk[0] = 0xfc;
      blk[1] = 0xfd; /* LDR, no extents */
      for (unsigned c = 0; c < 4; ++c) {
         blk[8 + 2 * c] = colours[b][c] & 0xff;
         blk[9 + 2 * c] = colours[b][c] >> 8;
      }
   }
   unsigned format;
#if PAN_ARCH >= 9
   if (astc_format)
      format = wide ? MALI_FORMAT_ASTC_2D_HDR : MALI_FORMAT_ASTC_2D_LDR;
   else
      format = wide ? MALI_FORMAT_RGBA16F : MALI_FORMAT_RGBA8_UNORM;
   uint64_t surf_va = alloc(pan_size(plane), (void **)&surf);
   pan_pack(surf, plane, cfg)
   {
      cfg.plane_type = MALI_PLANE_TYPE_ASTC_2D;
      cfg.astc_2d.block_width = w_code;
      cfg.astc_2d.block_height = MALI_ASTC_2D_DIMENSION_5;
      cfg.astc_2d.decode_wide = wide;
      cfg.astc_2d.clump_ordering = MALI_CLUMP_ORDERING_LINEAR;
      cfg.address = data_va;
      cfg.size = 32;
      cfg.row_stride_B = 32;
   }
#else
   (void)astc_format;
   format = wide ? MALI_FORMAT_ASTC_2D_HDR : MALI_FORMAT_ASTC_2D_LDR;
   uint64_t surf_va = alloc(pan_size(surface_with_stride), (void **)&surf);
   pan_pack(surf, surface_with_stride, cfg)
   {
      cfg.address = data_va | w_code | MALI_ASTC_2D_DIMENSION_5 << 3;
      cfg.row_stride_B = 32;
      cfg.surface_stride_B = 32;
   }
#endif
   uint32_t format_word;
   pan_pack(&format_word, pixel_format, cfg)
   {
      cfg.format = format;
      cfg.order = MALI_RGB_COMPONENT_ORDER_RGBA;
   }
   *t = (struct tex){ .d = tex_2d(12, 5, format, MALI_RGB_COMPONENT_ORDER_RGBA,
                                  16) };
   t->va = alloc(pan_size(texture), (void **)&desc);
   pan_pack(desc, texture, cfg)
   {
      cfg.dimension = MALI_TEXTURE_DIMENSION_2D;
      cfg.format = format_word;
      cfg.width = 12;
      cfg.height = 5;
      cfg.swizzle = pack_swizzle(t->d.swizzle);
#if PAN_ARCH < 9
      cfg.texel_ordering = MALI_TEXTURE_LAYOUT_LINEAR;
#endif
      cfg.levels = 1;
      cfg.surfaces = surf_va;
      cfg.array_size = 1;
   }
   return data_va;
}

static void
test_astc(void)
{
   struct smp_desc smp = nearest_sampler();
   struct pan_sim_tex_req req;
   char err[PAN_SIM_TEX_ERR_LEN] = "";
   float out[4];
   struct tex t;

   space_reset();
   astc_texture(&t, false, false, MALI_ASTC_2D_DIMENSION_6);
   bind(&t, &smp);
   base_req(&req, MALI_TEXTURE_DIMENSION_2D);
   /* Texel (5, 4) is the first block's, (6, 0) the second's. */
   PAN_CHECK(sample_at(&req, 5.5f / 12, 4.5f / 5, out, err), "%s", err);
   EXPECT_RGBA(out, 0x33 / 255.0f, 0x80 / 255.0f, 1.0f, 1.0f, "narrow 0");
   PAN_CHECK(sample_at(&req, 6.5f / 12, 0.5f / 5, out, err), "%s", err);
   EXPECT_RGBA(out, 0.0f, 0x11 / 255.0f, 0x80 / 255.0f, 0x44 / 255.0f,
               "narrow 1");

   space_reset();
   astc_texture(&t, true, false, MALI_ASTC_2D_DIMENSION_6);
   bind(&t, &smp);
   PAN_CHECK(sample_at(&req, 11.5f / 12, 2.5f / 5, out, err), "%s", err);
   EXPECT_RGBA(out, 0.0f, 0x1100 / 65536.0f, 0.5f, 0x4400 / 65536.0f, "wide");

   /* A 4-texel footprint puts texel 5 in the second block. */
   space_reset();
   astc_texture(&t, false, false, MALI_ASTC_2D_DIMENSION_4);
   bind(&t, &smp);
   PAN_CHECK(sample_at(&req, 5.5f / 12, 0.5f / 5, out, err), "%s", err);
   EXPECT_RGBA(out, 0.0f, 0x11 / 255.0f, 0x80 / 255.0f, 0x44 / 255.0f,
               "footprint 4x5");

   /* Code 3 is no block edge. */
   space_reset();
   astc_texture(&t, false, false, 3);
   bind(&t, &smp);
   PAN_CHECK(!sample_at(&req, 0.5f / 12, 0.5f / 5, out, err),
             "dimension code 3 sampled");
   PAN_CHECK(strstr(err, "ASTC"), "message: %s", err);

#if PAN_ARCH >= 9
   /* v9 descriptors name the decoded format, not the ASTC one. */
   space_reset();
   astc_texture(&t, false, true, MALI_ASTC_2D_DIMENSION_6);
   bind(&t, &smp);
   PAN_CHECK(!sample_at(&req, 0.5f / 12, 0.5f / 5, out, err),
             "a v9 ASTC format sampled");
   PAN_CHECK(strstr(err, "decoded"), "message: %s", err);
#endif
}

/* ETC2/EAC 4x4 blocks in a linear texture w texels wide, one row of blocks
 * of size_B bytes each.  `format` is the texture descriptor's: the block
 * format up to v7; v9 names what the blocks decode to and gives the block
 * format as the generic plane's clump format (as the stock driver packs
 * it).  v9 only: a second level (the same blocks) whose plane has clump
 * format level1_clump, when that is not -1.
 */
static void
etc_texture_levels(struct tex *t, unsigned w, const uint8_t *blocks,
                   unsigned size_B, unsigned format, unsigned clump, bool srgb,
                   int level1_clump)
{
   uint8_t *data, *desc, *surf;
   unsigned row_B = w / 4 * size_B;
   uint64_t data_va = alloc(row_B, (void **)&data);
   memcpy(data, blocks, row_B);
   unsigned levels = level1_clump < 0 ? 1 : 2;
#if PAN_ARCH >= 9
   uint64_t surf_va = alloc(levels * pan_size(plane), (void **)&surf);
   for (unsigned l = 0; l < levels; ++l) {
      pan_pack(surf + l * pan_size(plane), plane, cfg)
      {
         cfg.plane_type = MALI_PLANE_TYPE_GENERIC;
         cfg.generic.clump_format = l ? (unsigned)level1_clump : clump;
         cfg.generic.clump_ordering = MALI_CLUMP_ORDERING_LINEAR;
         cfg.address = data_va;
         cfg.size = row_B;
         cfg.row_stride_B = row_B;
      }
   }
#else
   (void)clump;
   uint64_t surf_va = alloc(pan_size(surface_with_stride), (void **)&surf);
   pan_pack(surf, surface_with_stride, cfg)
   {
      cfg.address = data_va;
      cfg.row_stride_B = row_B;
      cfg.surface_stride_B = row_B;
   }
#endif
   uint32_t format_word;
   pan_pack(&format_word, pixel_format, cfg)
   {
      cfg.format = format;
      cfg.order = MALI_RGB_COMPONENT_ORDER_RGBA;
      cfg.srgb = srgb;
   }
   *t = (struct tex){ .d = tex_2d(w, 4, format, MALI_RGB_COMPONENT_ORDER_RGBA,
                                  size_B) };
   t->va = alloc(pan_size(texture), (void **)&desc);
   pan_pack(desc, texture, cfg)
   {
      cfg.dimension = MALI_TEXTURE_DIMENSION_2D;
      cfg.format = format_word;
      cfg.width = w;
      cfg.height = 4;
      cfg.swizzle = pack_swizzle(t->d.swizzle);
#if PAN_ARCH < 9
      cfg.texel_ordering = MALI_TEXTURE_LAYOUT_LINEAR;
#endif
      cfg.levels = levels;
      cfg.surfaces = surf_va;
      cfg.array_size = 1;
   }
}

static void
etc_texture(struct tex *t, unsigned w, const uint8_t *blocks, unsigned size_B,
            unsigned format, unsigned clump, bool srgb)
{
   etc_texture_levels(t, w, blocks, size_B, format, clump, srgb, -1);
}

static float
srgb_linear(unsigned c)
{
   float v = c / 255.0f;
   return v <= 0.04045f ? v / 12.92f : powf((v + 0.055f) / 1.055f, 2.4f);
}

static void
test_etc(void)
{
#if PAN_ARCH >= 9
   const unsigned rgb8 = MALI_FORMAT_RGBA8_UNORM, r11s = MALI_FORMAT_R16_SNORM;
   const unsigned rgb8_clump = MALI_CLUMP_FORMAT_ETC2_RGB8;
   const unsigned r11s_clump = MALI_CLUMP_FORMAT_ETC2_R11_SNORM;
#else
   const unsigned rgb8 = MALI_FORMAT_ETC2_RGB8;
   const unsigned r11s = MALI_FORMAT_ETC2_R11_SNORM;
   const unsigned rgb8_clump = 0, r11s_clump = 0;
#endif
   /* Individual-mode ETC2 RGB8 blocks (big-endian words): 4-bit base
    * colours times 17 per 2x4 half, plus the modifier of table 0 index 0
    * (+2) in the first block; table 1 index 1 (+17) in the second, whose
    * halves are both (0, 0x11, 0x88).
    */
   static const uint8_t rgb_blocks[16] = {
      0x3c, 0x84, 0xf0, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x11, 0x88, 0x24, 0x00, 0x00, 0xff, 0xff,
   };
   /* EAC R11 signed: base -50, multiplier 2, table 0, every index 7
    * (+14): -50 * 8 + 14 * 2 * 8 = -176 of 1023.
    */
   static const uint8_t r11_block[8] = { 0xce, 0x20, 0xff, 0xff,
                                         0xff, 0xff, 0xff, 0xff };
   struct smp_desc smp = nearest_sampler();
   struct pan_sim_tex_req req;
   char err[PAN_SIM_TEX_ERR_LEN] = "";
   float out[4];
   struct tex t;

   space_reset();
   etc_texture(&t, 8, rgb_blocks, 8, rgb8, rgb8_clump, false);
   bind(&t, &smp);
   base_req(&req, MALI_TEXTURE_DIMENSION_2D);
   /* RGB blocks read alpha 1 whatever the descriptor's format has. */
   PAN_CHECK(sample_at(&req, 1.5f / 8, 2.5f / 4, out, err), "%s", err);
   EXPECT_RGBA(out, 53 / 255.0f, 138 / 255.0f, 1.0f, 1.0f, "left half");
   PAN_CHECK(sample_at(&req, 2.5f / 8, 0.5f / 4, out, err), "%s", err);
   EXPECT_RGBA(out, 206 / 255.0f, 70 / 255.0f, 2 / 255.0f, 1.0f, "right half");
   PAN_CHECK(sample_at(&req, 5.5f / 8, 3.5f / 4, out, err), "%s", err);
   EXPECT_RGBA(out, 17 / 255.0f, 34 / 255.0f, 153 / 255.0f, 1.0f,
               "second block");

   space_reset();
   etc_texture(&t, 8, rgb_blocks, 8, rgb8, rgb8_clump, true);
   bind(&t, &smp);
   PAN_CHECK(sample_at(&req, 2.5f / 8, 0.5f / 4, out, err), "%s", err);
   EXPECT_RGBA(out, srgb_linear(206), srgb_linear(70), srgb_linear(2), 1.0f,
               "sRGB");

   space_reset();
   etc_texture(&t, 4, r11_block, 8, r11s, r11s_clump, false);
   bind(&t, &smp);
   PAN_CHECK(sample_at(&req, 3.5f / 4, 1.5f / 4, out, err), "%s", err);
   EXPECT_RGBA(out, -176 / 1023.0f, 0.0f, 0.0f, 1.0f, "EAC R11 signed");

#if PAN_ARCH >= 9
   /* v9 descriptors name the decoded format, not the block one. */
   space_reset();
   etc_texture(&t, 8, rgb_blocks, 8, MALI_FORMAT_ETC2_RGB8, rgb8_clump, false);
   bind(&t, &smp);
   PAN_CHECK(!sample_at(&req, 0.5f / 8, 0.5f / 4, out, err),
             "a v9 ETC format sampled");
   PAN_CHECK(strstr(err, "decoded"), "message: %s", err);

   /* EAC R11 decodes to one channel of 16 bits, not to RGBA8. */
   space_reset();
   etc_texture(&t, 4, r11_block, 8, MALI_FORMAT_RGBA8_UNORM, r11s_clump, false);
   bind(&t, &smp);
   PAN_CHECK(!sample_at(&req, 0.5f / 4, 0.5f / 4, out, err),
             "an R11 plane decoding to rgba8_unorm sampled");
   PAN_CHECK(strstr(err, "r16_snorm"), "message: %s", err);

   /* A plain 16-bit texture over the same memory is not decoded. */
   space_reset();
   etc_texture(&t, 4, r11_block, 8, r11s, MALI_CLUMP_FORMAT_RAW16, false);
   bind(&t, &smp);
   PAN_CHECK(sample_at(&req, 0.5f / 4, 0.5f / 4, out, err), "%s", err);
   PAN_CHECK(!near(out[0], -176 / 1023.0f), "raw clump decoded as EAC: %g",
             out[0]);

   /* Every level's plane holds the blocks of the first one's clump. */
   space_reset();
   etc_texture_levels(&t, 8, rgb_blocks, 8, rgb8, rgb8_clump, false,
                      MALI_CLUMP_FORMAT_RAW64);
   smp.mip = MALI_MIPMAP_MODE_NEAREST;
   bind(&t, &smp);
   req.lod_mode = PAN_SIM_TEX_LOD_EXPLICIT;
   for (unsigned l = 0; l < 4; ++l)
      req.lod[l] = 0.0f;
   PAN_CHECK(sample_at(&req, 1.5f / 8, 2.5f / 4, out, err), "level 0: %s", err);
   EXPECT_RGBA(out, 53 / 255.0f, 138 / 255.0f, 1.0f, 1.0f, "level 0");
   for (unsigned l = 0; l < 4; ++l)
      req.lod[l] = 1.0f;
   PAN_CHECK(!sample_at(&req, 0.5f, 0.5f, out, err),
             "a level of a raw clump sampled as ETC2");
   PAN_CHECK(strstr(err, "clump"), "message: %s", err);
#endif
}

int
main(void)
{
   PAN_RUN_CASE(test_formats);
   PAN_RUN_CASE(test_wrap);
   PAN_RUN_CASE(test_linear);
   PAN_RUN_CASE(test_mips);
   PAN_RUN_CASE(test_fetch);
   PAN_RUN_CASE(test_buffer_fetch);
   PAN_RUN_CASE(test_shadow);
   PAN_RUN_CASE(test_gather);
   PAN_RUN_CASE(test_layers_faces_3d);
   PAN_RUN_CASE(test_refusals);
   PAN_RUN_CASE(test_images);
   PAN_RUN_CASE(test_afbc);
   PAN_RUN_CASE(test_astc);
   PAN_RUN_CASE(test_etc);
   free(space_mem);
   return pan_test_summary("pan_sim_texture");
}
