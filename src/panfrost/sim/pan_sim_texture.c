/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The simulator's texture unit (see pan_sim_texture.h): texel decoding,
 * surface addressing, wrapping, filtering, mip selection and shadow
 * comparison, following the GL rules (GL 4.6 section 8.14).
 *
 * Element formats are parsed from the genxml format names: the regular
 * "<channels><bits><kind>" names by their spelling, the packed ones from
 * one small table.  Texels decode to "fields" (the memory components, in
 * order); the component order and the texture's swizzle then pick the
 * output channels.  Normalised and float formats filter as floats;
 * integer formats never filter (GL makes such textures incomplete with a
 * linear filter, the nearest texel is what the hardware returns).
 */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pan_sim_afbc.h"
#include "pan_sim_astc.h"
#include "pan_sim_etc.h"
#include "pan_sim_fp.h"
#include "pan_sim_space.h"
#include "pan_sim_texture.h"
#include "pan_uinterleave.h"

#define TEX_ERR(err, ...) snprintf(err, PAN_SIM_TEX_ERR_LEN, __VA_ARGS__)

/* ---- formats ---- */

struct packed_format {
   const char *name;
   enum pan_sim_texel_packing packing;
   enum pan_sim_tex_kind kind;
   uint8_t comps, size_B;
   uint8_t bits[4];
};

/* Formats whose names do not follow "<channels><bits><kind>". */
static const struct packed_format packed_formats[] = {
   { "rgb565", PAN_SIM_PACK_FIELDS, PAN_SIM_TEXEL_UNORM, 3, 2, { 5, 6, 5 } },
   { "rgb5_a1_unorm",
     PAN_SIM_PACK_FIELDS,
     PAN_SIM_TEXEL_UNORM,
     4,
     2,
     { 5, 5, 5, 1 } },
   { "rgb10_a2_unorm",
     PAN_SIM_PACK_FIELDS,
     PAN_SIM_TEXEL_UNORM,
     4,
     4,
     { 10, 10, 10, 2 } },
   { "rgb10_a2_snorm",
     PAN_SIM_PACK_FIELDS,
     PAN_SIM_TEXEL_SNORM,
     4,
     4,
     { 10, 10, 10, 2 } },
   { "rgb10_a2ui",
     PAN_SIM_PACK_FIELDS,
     PAN_SIM_TEXEL_UINT,
     4,
     4,
     { 10, 10, 10, 2 } },
   { "rgb10_a2i",
     PAN_SIM_PACK_FIELDS,
     PAN_SIM_TEXEL_SINT,
     4,
     4,
     { 10, 10, 10, 2 } },
   { "r11f_g11f_b10f",
     PAN_SIM_PACK_R11G11B10F,
     PAN_SIM_TEXEL_FLOAT,
     3,
     4,
     { 11, 11, 10 } },
   { "r9f_g9f_b9f_e5f",
     PAN_SIM_PACK_RGB9E5,
     PAN_SIM_TEXEL_FLOAT,
     3,
     4,
     { 9, 9, 9, 5 } },
   { "z16_unorm", PAN_SIM_PACK_FIELDS, PAN_SIM_TEXEL_UNORM, 1, 2, { 16 } },
   /* The stencil byte above the depth is not a field of the depth view. */
   { "z24x8_unorm", PAN_SIM_PACK_FIELDS, PAN_SIM_TEXEL_UNORM, 1, 4, { 24 } },
   { "z32", PAN_SIM_PACK_FIELDS, PAN_SIM_TEXEL_FLOAT, 1, 4, { 32 } },
   /* 4x4 blocks: size_B is a block's (pan_sim_etc.c decodes them). */
   { "etc2_rgb8", PAN_SIM_PACK_ETC2_RGB8, PAN_SIM_TEXEL_UNORM, 3, 8 },
   { "etc2_rgb8a1", PAN_SIM_PACK_ETC2_RGB8A1, PAN_SIM_TEXEL_UNORM, 4, 8 },
   { "etc2_rgba8", PAN_SIM_PACK_ETC2_RGBA8, PAN_SIM_TEXEL_UNORM, 4, 16 },
   { "etc2_r11_unorm", PAN_SIM_PACK_EAC_R11, PAN_SIM_TEXEL_UNORM, 1, 8 },
   { "etc2_r11_snorm", PAN_SIM_PACK_EAC_R11, PAN_SIM_TEXEL_SNORM, 1, 8 },
   { "etc2_rg11_unorm", PAN_SIM_PACK_EAC_RG11, PAN_SIM_TEXEL_UNORM, 2, 16 },
   { "etc2_rg11_snorm", PAN_SIM_PACK_EAC_RG11, PAN_SIM_TEXEL_SNORM, 2, 16 },
   /* 2D ASTC, decoded in the LDR profile (HDR endpoint modes read as the
    * error colour): 8-bit results, or the 16-bit float ("wide") ones the
    * HDR format names.
    */
   { "astc_2d_ldr", PAN_SIM_PACK_ASTC, PAN_SIM_TEXEL_UNORM, 4, 16 },
   { "astc_2d_hdr", PAN_SIM_PACK_ASTC_WIDE, PAN_SIM_TEXEL_FLOAT, 4, 16 },
};

static bool
is_block(enum pan_sim_texel_packing p)
{
   return p >= PAN_SIM_PACK_ETC2_RGB8 && p <= PAN_SIM_PACK_ASTC_WIDE;
}

bool
pan_sim_texel_format_parse(const char *name, struct pan_sim_texel_format *f)
{
   memset(f, 0, sizeof(*f));
   f->name = name;
   f->block_px = 1;
   for (unsigned c = 0; c < 4; ++c)
      f->src[c] = c;
   if (!name)
      return false;

   for (unsigned i = 0; i < sizeof(packed_formats) / sizeof(packed_formats[0]);
        ++i) {
      const struct packed_format *p = &packed_formats[i];
      if (strcmp(p->name, name))
         continue;
      f->packing = p->packing;
      f->kind = p->kind;
      f->comps = p->comps;
      f->size_B = p->size_B;
      f->block_px = is_block(p->packing) ? 4 : 1;
      memcpy(f->bits, p->bits, 4);
      f->srgb_fields = 7;
      return true;
   }

   /* r, rg, rgb or rgba, then the bits, then the kind. */
   static const char *const chans[] = { "rgba", "rgb", "rg", "r" };
   unsigned comps = 0;
   for (unsigned i = 0; i < 4; ++i) {
      size_t n = strlen(chans[i]);
      if (!strncmp(name, chans[i], n) && name[n] >= '0' && name[n] <= '9') {
         comps = (unsigned)n;
         break;
      }
   }
   if (!comps)
      return false;
   char *end;
   unsigned long bits = strtoul(name + comps, &end, 10);
   static const struct {
      const char *suffix;
      enum pan_sim_tex_kind kind;
   } kinds[] = {
      { "_unorm", PAN_SIM_TEXEL_UNORM }, { "_snorm", PAN_SIM_TEXEL_SNORM },
      { "ui", PAN_SIM_TEXEL_UINT },      { "i", PAN_SIM_TEXEL_SINT },
      { "f", PAN_SIM_TEXEL_FLOAT },
   };
   for (unsigned i = 0; i < 5; ++i) {
      if (strcmp(end, kinds[i].suffix))
         continue;
      bool fl = kinds[i].kind == PAN_SIM_TEXEL_FLOAT;
      if ((bits != 4 && bits != 8 && bits != 16 && bits != 32) ||
          (fl && bits < 16) || (comps * bits) % 8)
         return false;
      f->kind = kinds[i].kind;
      f->comps = (uint8_t)comps;
      f->size_B = (uint8_t)(comps * bits / 8);
      for (unsigned c = 0; c < comps; ++c)
         f->bits[c] = (uint8_t)bits;
      f->srgb_fields = 7;
      return true;
   }
   return false;
}

static int
chan_index(char ch)
{
   switch (ch) {
   case 'r':
      return 0;
   case 'g':
      return 1;
   case 'b':
      return 2;
   case 'a':
      return 3;
   case '0':
      return 4;
   case '1':
      return 5;
   default:
      return -1;
   }
}

bool
pan_sim_texel_format_order(struct pan_sim_texel_format *f, const char *order,
                           const uint8_t swizzle[4])
{
   uint8_t chan[4]; /* output channel -> field or constant */
   int idx[4];

   if (!order || strlen(order) != 4)
      return false;
   for (unsigned i = 0; i < 4; ++i) {
      if ((idx[i] = chan_index(order[i])) < 0)
         return false;
   }
   /* An order naming each channel at most once says which channel each
    * memory field is ("bgra": field 0 is blue); one repeating a channel
    * ("rrr1") is a selection of fields per output channel. */
   bool permutation = true;
   for (unsigned i = 0; i < 4; ++i) {
      for (unsigned j = i + 1; j < 4; ++j)
         permutation &= idx[i] > 3 || idx[i] != idx[j];
   }
   if (permutation) {
      chan[0] = chan[1] = chan[2] = 4;
      chan[3] = 5;
      for (unsigned i = 0; i < 4; ++i) {
         if (idx[i] <= 3)
            chan[idx[i]] = (uint8_t)i;
      }
   } else {
      for (unsigned c = 0; c < 4; ++c)
         chan[c] = (uint8_t)idx[c];
   }
   /* Fields the format lacks read 0 (1 for alpha). */
   for (unsigned c = 0; c < 4; ++c) {
      if (chan[c] <= 3 && chan[c] >= f->comps)
         chan[c] = c == 3 ? 5 : 4;
   }
   for (unsigned c = 0; c < 4; ++c) {
      if (swizzle[c] > 5)
         return false;
      f->src[c] = swizzle[c] <= 3 ? chan[swizzle[c]] : swizzle[c];
   }
   /* sRGB applies to the fields that become colour, not alpha. */
   f->srgb_fields = 0;
   for (unsigned c = 0; c < 3; ++c) {
      if (chan[c] <= 3)
         f->srgb_fields |= (uint8_t)(1u << chan[c]);
   }
   return true;
}

static float
srgb_to_linear(float v)
{
   return v <= 0.04045f ? v / 12.92f : powf((v + 0.055f) / 1.055f, 2.4f);
}

/* Unsigned float of `mbits` mantissa bits and a 5-bit exponent. */
static float
small_float(uint32_t v, unsigned mbits)
{
   unsigned e = (v >> mbits) & 31, m = v & ((1u << mbits) - 1);
   if (e == 31)
      return m ? NAN : INFINITY;
   if (!e)
      return ldexpf((float)m, -14 - (int)mbits);
   return ldexpf((float)(m | 1u << mbits), (int)e - 15 - (int)mbits);
}

static uint64_t
read_bits(const uint8_t *p, unsigned size_B, unsigned lo, unsigned n)
{
   /* Fields of up to 32 bits in elements of up to 16 bytes. */
   uint64_t v = 0;
   unsigned first = lo / 8, last = (lo + n - 1) / 8;
   for (unsigned b = first; b <= last && b < size_B; ++b)
      v |= (uint64_t)p[b] << (8 * (b - first));
   v >>= lo % 8;
   return n >= 64 ? v : v & ((1ull << n) - 1);
}

/* Texel (x, y) of a bw x bh block -> fields. */
static void
decode_block(const struct pan_sim_texel_format *f, const void *src, unsigned bw,
             unsigned bh, unsigned x, unsigned y, uint32_t field[4])
{
   static const enum pan_sim_etc_kind kinds[] = {
      [PAN_SIM_PACK_ETC2_RGB8] = PAN_SIM_ETC2_RGB8,
      [PAN_SIM_PACK_ETC2_RGB8A1] = PAN_SIM_ETC2_RGB8A1,
      [PAN_SIM_PACK_ETC2_RGBA8] = PAN_SIM_ETC2_RGBA8,
      [PAN_SIM_PACK_EAC_R11] = PAN_SIM_EAC_R11,
      [PAN_SIM_PACK_EAC_RG11] = PAN_SIM_EAC_RG11,
   };
   float v[4] = { 0, 0, 0, 1 };

   if (f->packing == PAN_SIM_PACK_ASTC ||
       f->packing == PAN_SIM_PACK_ASTC_WIDE) {
      /* sRGB blocks expand their endpoints for 8-bit results. */
      uint16_t c[4];
      bool wide = f->packing == PAN_SIM_PACK_ASTC_WIDE && !f->srgb;
      pan_sim_astc_texel(src, bw, bh, f->srgb, x, y, c);
      for (unsigned i = 0; i < 4; ++i)
         v[i] = pan_sim_astc_channel(c[i], wide);
   } else {
      pan_sim_etc_texel(kinds[f->packing], f->kind == PAN_SIM_TEXEL_SNORM, src,
                        x, y, v);
   }
   for (unsigned c = 0; c < 4; ++c) {
      if (c < f->comps && f->srgb && ((f->srgb_fields >> c) & 1))
         v[c] = srgb_to_linear(v[c]);
      field[c] = c < f->comps ? pan_sim_fp_u32(v[c]) : 0;
   }
}

/* Element -> fields (floats as bits, or integers). */
static void
decode_fields(const struct pan_sim_texel_format *f, const void *src,
              uint32_t field[4])
{
   const uint8_t *p = src;
   uint32_t w = 0;
   memcpy(&w, p, f->size_B < 4 ? f->size_B : 4);

   memset(field, 0, 16);
   if (f->packing == PAN_SIM_PACK_R11G11B10F) {
      field[0] = pan_sim_fp_u32(small_float(w & 0x7ff, 6));
      field[1] = pan_sim_fp_u32(small_float((w >> 11) & 0x7ff, 6));
      field[2] = pan_sim_fp_u32(small_float(w >> 22, 5));
      return;
   }
   if (f->packing == PAN_SIM_PACK_RGB9E5) {
      int e = (int)(w >> 27) - 15 - 9;
      for (unsigned c = 0; c < 3; ++c)
         field[c] = pan_sim_fp_u32(ldexpf((float)((w >> (9 * c)) & 511), e));
      return;
   }
   unsigned lo = 0;
   for (unsigned c = 0; c < f->comps; ++c) {
      unsigned n = f->bits[c];
      uint32_t v = (uint32_t)read_bits(p, f->size_B, lo, n);
      lo += n;
      float x;
      switch (f->kind) {
      case PAN_SIM_TEXEL_UNORM:
         x = (float)((double)v / (double)((1ull << n) - 1));
         if ((f->srgb_fields >> c) & 1 && f->srgb)
            x = srgb_to_linear(x);
         field[c] = pan_sim_fp_u32(x);
         break;
      case PAN_SIM_TEXEL_SNORM: {
         int32_t s = (int32_t)(v << (32 - n)) >> (32 - n);
         x = (float)((double)s / (double)((1ull << (n - 1)) - 1));
         field[c] = pan_sim_fp_u32(x < -1.0f ? -1.0f : x);
         break;
      }
      case PAN_SIM_TEXEL_SINT:
         field[c] =
            n < 32 ? (uint32_t)((int32_t)(v << (32 - n)) >> (32 - n)) : v;
         break;
      case PAN_SIM_TEXEL_FLOAT:
         field[c] = n == 16 ? pan_sim_fp_f16_to_f32((uint16_t)v) : v;
         break;
      default:
         field[c] = v;
         break;
      }
   }
}

static bool
is_int(const struct pan_sim_texel_format *f)
{
   return f->kind == PAN_SIM_TEXEL_UINT || f->kind == PAN_SIM_TEXEL_SINT;
}

static uint32_t
constant(const struct pan_sim_texel_format *f, unsigned k)
{
   if (k == 4)
      return 0;
   return is_int(f) ? 1 : pan_sim_fp_u32(1.0f);
}

static void
select_channels(const struct pan_sim_texel_format *f, const uint32_t field[4],
                uint32_t out[4])
{
   for (unsigned c = 0; c < 4; ++c)
      out[c] = f->src[c] <= 3 ? field[f->src[c]] : constant(f, f->src[c]);
}

void
pan_sim_texel_decode(const struct pan_sim_texel_format *f, const void *src,
                     uint32_t out[4])
{
   uint32_t field[4];
   decode_fields(f, src, field);
   select_channels(f, field, out);
}

/* ---- addressing ---- */

static int
mirror(int a)
{
   return a >= 0 ? a : -(1 + a);
}

static int
floor_mod(int a, int n)
{
   int m = a % n;
   return m < 0 ? m + n : m;
}

/* Integer texel coordinate i wrapped into [0, size); -1: the border. */
static int
wrap_int(enum pan_sim_wrap w, int i, int size)
{
   switch (w) {
   case PAN_SIM_WRAP_REPEAT:
      return floor_mod(i, size);
   case PAN_SIM_WRAP_CLAMP_TO_EDGE:
      return i < 0 ? 0 : i >= size ? size - 1 : i;
   case PAN_SIM_WRAP_CLAMP_TO_BORDER:
      return i < 0 || i >= size ? -1 : i;
   case PAN_SIM_WRAP_MIRRORED_REPEAT:
      return (size - 1) - mirror(floor_mod(i, 2 * size) - size);
   case PAN_SIM_WRAP_MIRRORED_CLAMP_TO_EDGE: {
      int m = mirror(i);
      return m >= size ? size - 1 : m;
   }
   default: {
      int m = mirror(i);
      return m >= size ? -1 : m;
   }
   }
}

static unsigned
minify(unsigned size, unsigned level)
{
   unsigned s = size >> level;
   return s ? s : 1;
}

/* Surfaces a request looked up, with the memory region holding their
 * first byte: texels inside it are read without searching the space. */
#define SURF_CACHE 4
struct surf_cache {
   unsigned n;
   struct {
      unsigned level, layer, face, sample;
      struct pan_sim_surface s;
      const struct pan_sim_region *region;
   } e[SURF_CACHE];
};

struct level_ctx {
   const struct pan_sim_texture *t;
   const struct pan_sim_sampler *s;
   struct surf_cache *cache;
   struct pan_sim_surface surf;
   const struct pan_sim_region *region;
   unsigned level, layer, face, w, h, d;
   bool shadow;
   float ref;
};

static bool
level_setup(struct level_ctx *lc, const struct pan_sim_texture *t,
            unsigned level, unsigned layer, unsigned face, unsigned sample,
            char *err)
{
   lc->t = t;
   lc->level = level;
   lc->w = minify(t->width, level);
   lc->h = t->dim == PAN_SIM_TEX_1D ? 1 : minify(t->height, level);
   lc->d = t->dim == PAN_SIM_TEX_3D ? minify(t->depth, level) : 1;
   if (layer >= t->layers)
      layer = t->layers - 1;
   lc->layer = layer;
   lc->face = face;
   struct surf_cache *c = lc->cache;
   for (unsigned i = 0; i < c->n; ++i) {
      if (c->e[i].level == level && c->e[i].layer == layer &&
          c->e[i].face == face && c->e[i].sample == sample) {
         lc->surf = c->e[i].s;
         lc->region = c->e[i].region;
         return true;
      }
   }
   memset(&lc->surf, 0, sizeof(lc->surf));
   if (!t->surface(t, level, layer, face, sample, &lc->surf, err))
      return false;
   lc->region = pan_sim_space_find(t->space, lc->surf.base);
   if (lc->region && !lc->region->cpu)
      lc->region = NULL;
   unsigned at = c->n < SURF_CACHE ? c->n++ : level % SURF_CACHE;
   c->e[at].level = level;
   c->e[at].layer = layer;
   c->e[at].face = face;
   c->e[at].sample = sample;
   c->e[at].s = lc->surf;
   c->e[at].region = lc->region;
   return true;
}

/* a FUNC b.  The hardware compares the texel with the reference
 * ("texel FUNC reference"); GL reads its functions the other way round
 * and drivers swap them. */
static bool
compare(enum pan_sim_cmp f, float a, float b)
{
   switch (f) {
   case PAN_SIM_CMP_NEVER:
      return false;
   case PAN_SIM_CMP_LESS:
      return a < b;
   case PAN_SIM_CMP_EQUAL:
      return a == b;
   case PAN_SIM_CMP_LEQUAL:
      return a <= b;
   case PAN_SIM_CMP_GREATER:
      return a > b;
   case PAN_SIM_CMP_NOTEQUAL:
      return a != b;
   case PAN_SIM_CMP_GEQUAL:
      return a >= b;
   default:
      return true;
   }
}

/* Address of texel (x, y, z) of a surface: the one layout implementation
 * of the sampler and of image messages. */
static uint64_t
texel_va(const struct pan_sim_texture *t, const struct pan_sim_surface *s,
         unsigned x, unsigned y, unsigned z)
{
   uint64_t off;
   /* Compressed formats address their 4x4 blocks, u-interleaved in tiles
    * of 4x4 blocks (16x16 texels).
    */
   unsigned b = t->fmt.block_px > 1 ? t->fmt.block_px : 1;
   x /= s->block_w_px ? s->block_w_px : b;
   y /= s->block_h_px ? s->block_h_px : b;
   if (t->layout == PAN_SIM_TEX_U_INTERLEAVED) {
      off = pan_uinterleave_ref_offset_B(x, y, (uint32_t)s->row_stride_B,
                                         t->fmt.size_B, b > 1);
   } else {
      off =
         (uint64_t)((int64_t)y * s->row_stride_B) + (uint64_t)x * t->fmt.size_B;
   }
   return s->base + off + (uint64_t)((int64_t)z * s->slice_stride_B);
}

/* Address of texel (x, y) of an AFBC surface, from its header. */
static bool
afbc_texel_va(const struct pan_sim_texture *t, const struct pan_sim_surface *s,
              unsigned x, unsigned y, uint64_t *va, char *err)
{
   struct pan_sim_afbc a = {
      .wide = s->afbc_wide,
      .tiled = s->afbc_tiled,
      .el_B = t->fmt.size_B,
   };
   struct pan_sim_afbc_pos pos;
   struct pan_sim_access acc;
   char aerr[PAN_SIM_AFBC_ERR_LEN];
   uint64_t off;

   a.sb_per_row = pan_sim_afbc_sb_per_row(&a, (uint64_t)s->row_stride_B);
   pan_sim_afbc_pos(&a, x, y, &pos);
   const uint8_t *hdr =
      pan_sim_read(t->space, s->base + pos.index * PAN_SIM_AFBC_HEADER_B,
                   PAN_SIM_AFBC_HEADER_B, 0, "AFBC header", &acc);
   if (!hdr) {
      TEX_ERR(err, "texel (%u, %u): %.120s", x, y, acc.message);
      return false;
   }
   if (!pan_sim_afbc_locate(&a, hdr, &pos, &off, aerr)) {
      TEX_ERR(err, "texel (%u, %u): %.130s", x, y, aerr);
      return false;
   }
   *va = s->base + off;
   return true;
}

/* Texel (x, y, z) of the level, already wrapped (-1: border), as output
 * channels. */
static bool
texel(const struct level_ctx *lc, int x, int y, int z, uint32_t out[4],
      char *err)
{
   const struct pan_sim_texture *t = lc->t;
   const struct pan_sim_texel_format *f = &t->fmt;
   uint32_t field[4];

   if (x < 0 || y < 0 || z < 0) {
      if (!lc->s) {
         memset(out, 0, 16);
         return true;
      }
      if (lc->shadow) {
         field[0] = pan_sim_fp_u32(
            compare(lc->s->compare, pan_sim_fp_f32(lc->s->border[0]), lc->ref)
               ? 1.0f
               : 0.0f);
         field[1] = field[2] = 0;
         field[3] = constant(f, 5);
         select_channels(f, field, out);
      } else {
         memcpy(out, lc->s->border, 16);
      }
      return true;
   }
   uint64_t va;
   if (lc->surf.afbc && f->block_px > 1) {
      TEX_ERR(err, "AFBC %s texture: compressed formats are not AFBC",
              f->name);
      return false;
   }
   if (lc->surf.afbc) {
      if (!afbc_texel_va(t, &lc->surf, (unsigned)x, (unsigned)y, &va, err))
         return false;
   } else {
      va = texel_va(t, &lc->surf, (unsigned)x, (unsigned)y, (unsigned)z);
   }
   const struct pan_sim_region *r = lc->region;
   struct pan_sim_access acc;
   const void *p;
   if (r && va >= r->gpu_va && va - r->gpu_va + f->size_B <= r->size_B)
      p = (const uint8_t *)r->cpu + (va - r->gpu_va);
   else
      p = pan_sim_read(t->space, va, f->size_B, 0, "texel", &acc);
   if (!p) {
      TEX_ERR(err, "texel (%d, %d, %d) of level %u: %s", x, y, z, lc->level,
              acc.message);
      return false;
   }
   if (f->block_px > 1) {
      unsigned bw = lc->surf.block_w_px ? lc->surf.block_w_px : f->block_px;
      unsigned bh = lc->surf.block_h_px ? lc->surf.block_h_px : f->block_px;
      decode_block(f, p, bw, bh, (unsigned)x % bw, (unsigned)y % bh, field);
   } else {
      decode_fields(f, p, field);
   }
   if (lc->shadow) {
      field[0] = pan_sim_fp_u32(
         compare(lc->s->compare, pan_sim_fp_f32(field[0]), lc->ref) ? 1.0f
                                                                    : 0.0f);
   }
   select_channels(f, field, out);
   return true;
}

/* ---- filtering ---- */

static float
lane_coord(const struct pan_sim_tex_req *req, unsigned lane, unsigned c)
{
   return pan_sim_fp_f32(req->coord[lane][c]);
}

static unsigned
coord_count(enum pan_sim_tex_dim dim)
{
   return dim == PAN_SIM_TEX_1D ? 1 : dim == PAN_SIM_TEX_3D ? 3 : 2;
}

/* log2 of the scale factor rho from the quad's differences (GL's
 * isotropic approximation: the longer of the x and y derivative
 * vectors). */
static float
computed_lod(const struct pan_sim_texture *t, const struct pan_sim_sampler *s,
             const struct pan_sim_tex_req *req, unsigned lane)
{
   unsigned n = coord_count(t->dim);
   double size[3] = { t->width, t->height, t->depth };
   double dx2 = 0, dy2 = 0;
   unsigned x0 = lane & ~1u, x1 = lane | 1u, y0 = lane & ~2u, y1 = lane | 2u;

   if (t->dim == PAN_SIM_TEX_CUBE && s->normalized) {
      /* Each lane's coordinates are on its own face: the quad's
       * differences are taken with all four on the lane's face, whose
       * plane they are projected onto (s and t running past [0, 1]). */
      double st[4][2];
      const unsigned q[4] = { x0, x1, y0, y1 };
      for (unsigned k = 0; k < 4; ++k) {
         double u = lane_coord(req, q[k], 0), v = lane_coord(req, q[k], 1);
         if (!pan_sim_cube_project(req->face[q[k]], u, v, req->face[lane],
                                   &st[k][0], &st[k][1]))
            return INFINITY; /* a quad spanning opposite faces */
      }
      for (unsigned c = 0; c < 2; ++c) {
         double dx = (st[1][c] - st[0][c]) * size[c];
         double dy = (st[3][c] - st[2][c]) * size[c];
         dx2 += dx * dx;
         dy2 += dy * dy;
      }
      double rho2 = dx2 > dy2 ? dx2 : dy2;
      return rho2 > 0 ? (float)(0.5 * log2(rho2)) : -INFINITY;
   }
   for (unsigned c = 0; c < n; ++c) {
      double k = s->normalized ? size[c] : 1.0;
      double dx = ((double)lane_coord(req, x1, c) - lane_coord(req, x0, c)) * k;
      double dy = ((double)lane_coord(req, y1, c) - lane_coord(req, y0, c)) * k;
      dx2 += dx * dx;
      dy2 += dy * dy;
   }
   double rho2 = dx2 > dy2 ? dx2 : dy2;
   if (!(rho2 > 0))
      return -INFINITY;
   return (float)(0.5 * log2(rho2));
}

static float
lane_lod(const struct pan_sim_texture *t, const struct pan_sim_sampler *s,
         const struct pan_sim_tex_req *req, unsigned lane)
{
   float lod;
   switch (req->lod_mode) {
   case PAN_SIM_TEX_LOD_ZERO:
      return 0.0f;
   case PAN_SIM_TEX_LOD_EXPLICIT:
      lod = req->lod[lane] + s->lod_bias;
      break;
   case PAN_SIM_TEX_LOD_BIAS:
      lod = computed_lod(t, s, req, lane) + s->lod_bias + req->lod[lane];
      if (lod < req->lod_min[lane])
         lod = req->lod_min[lane];
      break;
   default:
      lod = computed_lod(t, s, req, lane) + s->lod_bias;
      break;
   }
   if (lod > s->max_lod)
      lod = s->max_lod;
   if (lod < s->min_lod)
      lod = s->min_lod;
   return lod;
}

/* Coordinate c of a lane in texels of a level of `size` texels. */
static double
texel_coord(const struct pan_sim_sampler *s, const struct pan_sim_tex_req *req,
            unsigned lane, unsigned c, unsigned size)
{
   double u = lane_coord(req, lane, c);
   u = s->normalized ? u * size : u;
   /* Far outside the texture every wrap mode has its answer already;
    * keeping the integer conversions defined (NaN reads as 0). */
   if (!(u > -(1 << 30)))
      return u != u ? 0 : -(1 << 30);
   return u < (1 << 30) ? u : (1 << 30);
}

/* The 2x2 footprint of a linear sample of a seamless cube face from
 * texel (x0, y0): texels past an edge come from the adjacent face, one
 * past two edges (a corner of the cube) is the mean of the other three.
 */
static bool
cube_footprint(const struct level_ctx *lc, int x0, int y0, uint32_t v[4][4],
               char *err)
{
   int n = (int)lc->w;
   int corner = -1;

   for (unsigned k = 0; k < 4; ++k) {
      int x = x0 + (k & 1), y = y0 + (k >> 1);
      bool xin = x >= 0 && x < n, yin = y >= 0 && y < n;
      if (xin && yin) {
         if (!texel(lc, x, y, 0, v[k], err))
            return false;
      } else if (xin || yin) {
         struct level_ctx other = *lc;
         unsigned face;
         pan_sim_cube_neighbour(lc->face, x, y, lc->w, &face, &x, &y);
         if (!level_setup(&other, lc->t, lc->level, lc->layer, face, 0,
                          err) ||
             !texel(&other, x, y, 0, v[k], err))
            return false;
      } else {
         corner = (int)k;
      }
   }
   if (corner >= 0) {
      for (unsigned c = 0; c < 4; ++c) {
         float sum = 0;
         for (unsigned k = 0; k < 4; ++k)
            sum += k == (unsigned)corner ? 0 : pan_sim_fp_f32(v[k][c]);
         v[corner][c] = pan_sim_fp_u32(sum / 3);
      }
   }
   return true;
}

/* One level, nearest or linear; out as output channels. */
static bool
sample_level(const struct level_ctx *lc, const struct pan_sim_tex_req *req,
             unsigned lane, bool nearest, float out[4], uint32_t raw[4],
             char *err)
{
   const struct pan_sim_sampler *s = lc->s;
   unsigned n = coord_count(lc->t->dim);
   unsigned size[3] = { lc->w, lc->h, lc->d };
   int i0[3] = { 0, 0, 0 }, i1[3] = { 0, 0, 0 };
   double a[3] = { 0, 0, 0 };

   if (is_int(&lc->t->fmt))
      nearest = true;
   /* Seamless cube faces clamp to their edges, and linear filters read
    * the neighbouring faces there. */
   bool seamless = lc->t->dim == PAN_SIM_TEX_CUBE && s->seamless_cube;
   for (unsigned c = 0; c < n; ++c) {
      double u = texel_coord(s, req, lane, c, size[c]);
      int off = req->offset ? req->offsets[lane][c] : 0;
      if (seamless && !nearest) {
         double f = floor(u - 0.5);
         a[c] = u - 0.5 - f;
         i0[c] = (int)f + off;
      } else if (seamless) {
         i0[c] = wrap_int(PAN_SIM_WRAP_CLAMP_TO_EDGE, (int)floor(u) + off,
                          (int)size[c]);
         i1[c] = i0[c];
      } else if (nearest) {
         i0[c] = wrap_int(s->wrap[c], (int)floor(u) + off, (int)size[c]);
         i1[c] = i0[c];
      } else {
         double f = floor(u - 0.5);
         a[c] = u - 0.5 - f;
         i0[c] = wrap_int(s->wrap[c], (int)f + off, (int)size[c]);
         i1[c] = wrap_int(s->wrap[c], (int)f + 1 + off, (int)size[c]);
      }
   }

   float acc[4] = { 0, 0, 0, 0 };
   unsigned corners = nearest ? 1 : 1u << n;
   uint32_t foot[4][4];
   if (seamless && !nearest && !cube_footprint(lc, i0[0], i0[1], foot, err))
      return false;
   for (unsigned k = 0; k < corners; ++k) {
      int x = (k & 1) ? i1[0] : i0[0];
      int y = (k & 2) ? i1[1] : i0[1];
      int z = (k & 4) ? i1[2] : i0[2];
      double wgt = 1;
      for (unsigned c = 0; c < n && !nearest; ++c)
         wgt *= ((k >> c) & 1) ? a[c] : 1 - a[c];
      uint32_t v[4];
      if (seamless && !nearest)
         memcpy(v, foot[k], sizeof(v));
      else if (!texel(lc, x, y, z, v, err))
         return false;
      if (nearest) {
         memcpy(raw, v, 16);
         for (unsigned c = 0; c < 4; ++c)
            out[c] = pan_sim_fp_f32(v[c]);
         return true;
      }
      for (unsigned c = 0; c < 4; ++c)
         acc[c] += (float)(wgt * pan_sim_fp_f32(v[c]));
   }
   memcpy(out, acc, sizeof(acc));
   for (unsigned c = 0; c < 4; ++c)
      raw[c] = pan_sim_fp_u32(out[c]);
   return true;
}

static float
clamp_result(enum pan_sim_tex_clamp k, float v)
{
   switch (k) {
   case PAN_SIM_TEX_CLAMP_POS:
      return v < 0 ? 0 : v;
   case PAN_SIM_TEX_CLAMP_PM1:
      return v < -1 ? -1 : v > 1 ? 1 : v;
   case PAN_SIM_TEX_CLAMP_01:
      return v < 0 ? 0 : v > 1 ? 1 : v;
   default:
      return v;
   }
}

/* Four output channels (raw: integers or float bits) into the result
 * registers of the request's format and mask. */
static void
pack_result(const struct pan_sim_tex_req *req, const uint32_t raw[4],
            bool int_format, uint32_t out[4])
{
   memset(out, 0, 16);
   for (unsigned c = 0; c < 4; ++c) {
      if (!((req->mask >> c) & 1))
         continue;
      uint32_t v = raw[c];
      if (!int_format && req->regfmt <= 1)
         v = pan_sim_fp_u32(clamp_result(req->clamp, pan_sim_fp_f32(v)));
      switch (req->regfmt) {
      case 0: /* f16 */
         out[c / 2] |= (uint32_t)pan_sim_fp_f32_to_f16(v, PAN_SIM_ROUND_RTE)
                       << (16 * (c % 2));
         break;
      case 4:
      case 5: /* 16-bit integers */
         out[c / 2] |= (v & 0xffff) << (16 * (c % 2));
         break;
      default:
         out[c] = v;
         break;
      }
   }
}

static bool
sample_lane(const struct pan_sim_texture *t, const struct pan_sim_sampler *s,
            struct pan_sim_tex_req *req, unsigned lane,
            struct surf_cache *cache, char *err)
{
   struct level_ctx lc = { .s = s, .cache = cache };
   unsigned layer = req->array ? req->layer[lane] : 0;
   unsigned face = t->dim == PAN_SIM_TEX_CUBE ? req->face[lane] : 0;
   uint32_t raw[4];
   float v[4];

   if (face > 5) {
      TEX_ERR(err, "cube face %u", face);
      return false;
   }
   lc.shadow = req->shadow;
   lc.ref = req->ref[lane];
   if (lc.shadow && t->fmt.kind == PAN_SIM_TEXEL_UNORM)
      lc.ref = lc.ref < 0 ? 0 : lc.ref > 1 ? 1 : lc.ref;

   if (req->op == PAN_SIM_TEX_FETCH) {
      unsigned level = req->level[lane];
      if (level >= t->levels) {
         memset(req->out[lane], 0, 16);
         return true;
      }
      /* A multisampled texture reads the sample asked; past the last one
       * reads zero, as out-of-range texels do. */
      unsigned sample = t->samples > 1 ? req->sample[lane] : 0;
      if (sample >= t->samples) {
         memset(req->out[lane], 0, 16);
         return true;
      }
      lc.s = NULL; /* out of range reads zero, no border */
      if (!level_setup(&lc, t, level, layer, face, sample, err))
         return false;
      int xyz[3] = { 0, 0, 0 };
      unsigned size[3] = { lc.w, lc.h, lc.d };
      unsigned n = coord_count(t->dim);
      for (unsigned c = 0; c < n; ++c) {
         xyz[c] = (int)req->coord[lane][c] +
                  (req->offset ? req->offsets[lane][c] : 0);
         if (xyz[c] < 0 || xyz[c] >= (int)size[c])
            xyz[c] = -1;
      }
      if (!texel(&lc, xyz[0], xyz[1], xyz[2], raw, err))
         return false;
      pack_result(req, raw, is_int(&t->fmt), req->out[lane]);
      return true;
   }

   if (req->op == PAN_SIM_TEX_GATHER) {
      if (!level_setup(&lc, t, 0, layer, face, 0, err))
         return false;
      unsigned size[2] = { lc.w, lc.h };
      int i[2][2];
      for (unsigned c = 0; c < 2; ++c) {
         double u = texel_coord(s, req, lane, c, size[c]);
         int f =
            (int)floor(u - 0.5) + (req->offset ? req->offsets[lane][c] : 0);
         i[c][0] = wrap_int(s->wrap[c], f, (int)size[c]);
         i[c][1] = wrap_int(s->wrap[c], f + 1, (int)size[c]);
      }
      /* The hardware's order is the footprint's raster order, (i0, j0),
       * (i1, j0), (i0, j1), (i1, j1), not GL's (i0, j1), (i1, j1), (i1,
       * j0), (i0, j0): compilers swizzle the result (the stock one with
       * NIR's lower_tg4_broadcom_swizzle, .zwyx), which is how its gathers
       * pass on the hardware. */
      static const uint8_t corner[4][2] = {
         { 0, 0 }, { 1, 0 }, { 0, 1 }, { 1, 1 }
      };
      for (unsigned k = 0; k < 4; ++k) {
         uint32_t tv[4];
         if (!texel(&lc, i[0][corner[k][0]], i[1][corner[k][1]], 0, tv, err))
            return false;
         raw[k] = tv[req->gather_comp & 3];
      }
      pack_result(req, raw, is_int(&t->fmt), req->out[lane]);
      return true;
   }

   float lod = lane_lod(t, s, req, lane);
   bool mag = !(lod > 0.0f);
   bool nearest = mag ? s->mag_nearest : s->min_nearest;
   unsigned last = t->levels - 1;
   unsigned l0 = 0, l1 = 0;
   float frac = 0;
   if (!mag && s->mip == PAN_SIM_MIP_NEAREST) {
      l0 = lod <= 0.5f ? 0 : (unsigned)(ceilf(lod + 0.5f) - 1.0f);
      l0 = l0 > last ? last : l0;
      l1 = l0;
   } else if (!mag && s->mip == PAN_SIM_MIP_LINEAR) {
      float fl = floorf(lod);
      l0 = fl >= (float)last ? last : (unsigned)fl;
      l1 = l0 + 1 > last ? last : l0 + 1;
      frac = l0 == last ? 0 : lod - fl;
   }
   if (!level_setup(&lc, t, l0, layer, face, 0, err) ||
       !sample_level(&lc, req, lane, nearest, v, raw, err))
      return false;
   if (l1 != l0 && frac > 0) {
      float v1[4];
      uint32_t raw1[4];
      if (!level_setup(&lc, t, l1, layer, face, 0, err) ||
          !sample_level(&lc, req, lane, nearest, v1, raw1, err))
         return false;
      if (!is_int(&t->fmt)) {
         for (unsigned c = 0; c < 4; ++c)
            raw[c] = pan_sim_fp_u32(v[c] * (1 - frac) + v1[c] * frac);
      }
   }
   pack_result(req, raw, is_int(&t->fmt), req->out[lane]);
   return true;
}

bool
pan_sim_tex_sample(const struct pan_sim_texture *t,
                   const struct pan_sim_sampler *s, struct pan_sim_tex_req *req,
                   char *err)
{
   if (!t->levels || !t->layers || !t->width || !t->height || !t->depth) {
      TEX_ERR(err, "texture without texels");
      return false;
   }
   if (req->op != PAN_SIM_TEX_FETCH && !s) {
      TEX_ERR(err, "sampling without a sampler");
      return false;
   }
   if (t->layout == PAN_SIM_TEX_U_INTERLEAVED &&
       !pan_utile_el_size_supported(t->fmt.size_B)) {
      TEX_ERR(err, "u-interleaved %s texture: %u-byte texels", t->fmt.name,
              t->fmt.size_B);
      return false;
   }
   struct surf_cache cache = { 0 };
   for (unsigned l = 0; l < PAN_SIM_TEX_QUAD; ++l) {
      if (((req->lanes >> l) & 1) && !sample_lane(t, s, req, l, &cache, err))
         return false;
   }
   return true;
}

bool
pan_sim_image_texel(const struct pan_sim_texture *t, const uint32_t coord[3],
                    uint64_t *va, char *err)
{
   bool cube = t->dim == PAN_SIM_TEX_CUBE, is_3d = t->dim == PAN_SIM_TEX_3D;
   unsigned h = t->dim == PAN_SIM_TEX_1D ? 1 : t->height;
   /* Layers of a cube count its faces. */
   uint64_t zmax = is_3d ? t->depth : (uint64_t)t->layers * (cube ? 6 : 1);

   if (!t->levels || !t->width || !h || !zmax) {
      TEX_ERR(err, "image without texels");
      return false;
   }
   if (coord[0] >= t->width || coord[1] >= h || coord[2] >= zmax) {
      TEX_ERR(err,
              "image coordinate (%u, %u, %u) outside the %ux%ux%" PRIu64
              " image",
              coord[0], coord[1], coord[2], t->width, h, zmax);
      return false;
   }
   if (t->fmt.block_px > 1) {
      TEX_ERR(err, "%s image: compressed formats are not images",
              t->fmt.name);
      return false;
   }
   if (t->layout == PAN_SIM_TEX_U_INTERLEAVED &&
       !pan_utile_el_size_supported(t->fmt.size_B)) {
      TEX_ERR(err, "u-interleaved %s image: %u-byte texels", t->fmt.name,
              t->fmt.size_B);
      return false;
   }
   unsigned layer = is_3d ? 0 : coord[2] / (cube ? 6 : 1);
   unsigned face = cube ? coord[2] % 6 : 0;
   struct pan_sim_surface s = { 0 };
   if (!t->surface(t, 0, layer, face, 0, &s, err))
      return false;
   if (s.afbc) {
      TEX_ERR(err, "AFBC images are not accessed by image messages");
      return false;
   }
   *va = texel_va(t, &s, coord[0], coord[1], is_3d ? coord[2] : 0);
   return true;
}

bool
pan_sim_image_load(const struct pan_sim_texture *t, const uint32_t coord[3],
                   unsigned regfmt, unsigned comps, uint32_t out[4], char *err)
{
   struct pan_sim_access acc;
   uint64_t va;

   if (!pan_sim_image_texel(t, coord, &va, err))
      return false;
   const void *p =
      pan_sim_read(t->space, va, t->fmt.size_B, 0, "image texel", &acc);
   if (!p) {
      TEX_ERR(err, "texel (%u, %u, %u): %s", coord[0], coord[1], coord[2],
              acc.message);
      return false;
   }
   uint32_t raw[4];
   pan_sim_texel_decode(&t->fmt, p, raw);
   if (regfmt > 5) /* the format's own: 32-bit integers or floats */
      regfmt = t->fmt.kind == PAN_SIM_TEXEL_SINT   ? 2
               : t->fmt.kind == PAN_SIM_TEXEL_UINT ? 3
                                                   : 1;
   struct pan_sim_tex_req req = {
      .regfmt = regfmt,
      .mask = (1u << (comps > 4 ? 4 : comps)) - 1,
   };
   pack_result(&req, raw, is_int(&t->fmt), out);
   return true;
}
