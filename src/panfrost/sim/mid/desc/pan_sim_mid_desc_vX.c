/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * pan_sim_mid_desc.h for one architecture (PAN_ARCH 4 or 5).
 *
 * Texture model: 2D, one layer, linear texel order, formats of four 8-bit
 * unorm or four 32-bit float components; nearest or bilinear filtering,
 * mipmap levels chosen nearest or blended (trilinear), repeat, mirrored
 * repeat, clamp to edge or to border wrapping, depth comparison (the first
 * component against the reference, then filtered).  A lone thread has no
 * neighbours to take derivatives from, so implicit LOD is 0: "normal"
 * samples at bias + sampler bias, texvtx at the explicit LOD + sampler
 * bias, clamped to the sampler's LOD range.  Anything else faults by name.
 */

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pan_genxml.h"
#include "pan_sim_draw.h"
#include "pan_sim_fp.h"
#include "pan_sim_mid_desc.h"

#define MID_MAX(a, b) ((a) > (b) ? (a) : (b))
#define MID_MIN(a, b) ((a) < (b) ? (a) : (b))
#define ERR(...) (snprintf(err, PAN_SIM_MID_GFX_ERR_LEN, __VA_ARGS__), false)

static bool
rd(const struct pan_sim_mid_desc *d, uint64_t va, void *p, unsigned n,
   const char *what, char *err)
{
   if (!d->mem.read || !d->mem.read(d->mem.user, va, p, n))
      return ERR("cannot read the %s at 0x%llx", what, (unsigned long long)va);
   return true;
}

static const enum pan_sim_regfmt regfmts[] = {
   [PAN_SIM_MID_F32] = PAN_SIM_REG_F32,
   [PAN_SIM_MID_F16] = PAN_SIM_REG_F16,
   [PAN_SIM_MID_U32] = PAN_SIM_REG_U32,
   [PAN_SIM_MID_S32] = PAN_SIM_REG_S32,
};

/* The memory format of a pixel format word; identity swizzles only. */
static bool
mem_format(uint32_t word, struct pan_sim_mem_format *f, const char *what,
           char *err)
{
   pan_unpack(&word, pixel_format, pf);
   const char *name = PAN_GENX(format_name)(pf.format);
   bool identity = pf.swizzle.r == MALI_CHANNEL_R &&
                   pf.swizzle.g == MALI_CHANNEL_G &&
                   pf.swizzle.b == MALI_CHANNEL_B;
   if (!pan_sim_mem_format_parse(name, f) || pf.srgb || pf.big_endian)
      return ERR("%s format %s (0x%x) is not modelled", what,
                 name ? name : "undefined", word);
   if (!identity)
      return ERR("%s format 0x%x: swizzles are not modelled", what, word);
   return true;
}

/* Address and format of record `index` of a table for this thread. */
static bool
locate(const struct pan_sim_mid_desc *d, bool varying, unsigned index,
       uint64_t *addr, struct pan_sim_mem_format *f, char *err)
{
   const char *kind = varying ? "varying" : "attribute";
   uint64_t table = varying ? d->varyings : d->attributes;
   uint64_t buffers = varying ? d->varying_buffers : d->attribute_buffers;
   unsigned count = varying ? d->nr_varyings : d->nr_attributes;
   uint32_t raw[8];

   if (index >= count)
      return ERR("%s %u outside the table of %u", kind, index, count);
   if (!rd(d, table + index * pan_size(attribute), raw, pan_size(attribute),
           "attribute record", err))
      return false;
   pan_unpack(raw, attribute, at);
   if (!rd(d, buffers + at.buffer_index * pan_size(attribute_buffer), raw,
           pan_size(attribute_buffer), "attribute buffer record", err))
      return false;
   pan_unpack(raw, attribute_buffer, buf);
   if (!mem_format(at.format, f, kind, err))
      return false;

   uint64_t element;
   switch (buf.type) {
   case MALI_ATTRIBUTE_TYPE_1D:
      element = d->vertex;
      break;
   case MALI_ATTRIBUTE_TYPE_1D_MODULUS:
      element = d->vertex % MID_MAX(buf.modulus.padded_count, 1u);
      break;
   case MALI_ATTRIBUTE_TYPE_1D_POT_DIVISOR:
      element = d->instance / buf.pot.divisor;
      break;
   default:
      return ERR("%s %u: buffer type %s is not modelled", kind, index,
                 PAN_GENX(attribute_type_name)(buf.type));
   }
   uint64_t off = element * buf.stride + (int64_t)at.offset;
   unsigned bytes = f->comps * f->bits / 8;
   if (off + bytes > buf.size)
      return ERR("%s %u: element %llu outside its buffer of %u bytes", kind,
                 index, (unsigned long long)element, buf.size);
   *addr = buf.address + off;
   return true;
}

static bool
ld_common(const struct pan_sim_mid_desc *d, bool varying, unsigned index,
          uint32_t element_override, bool use_override,
          enum pan_sim_mid_regfmt fmt, uint32_t out[4], char *err)
{
   struct pan_sim_mid_desc tmp = *d;
   struct pan_sim_mem_format f;
   uint64_t addr;
   uint8_t elem[16];

   if (use_override)
      tmp.vertex = element_override;
   if (!locate(&tmp, varying, index, &addr, &f, err))
      return false;
   if (!rd(d, addr, elem, f.comps * f.bits / 8, "attribute element", err))
      return false;
   pan_sim_mem_to_regs(&f, elem, regfmts[fmt], 4, out);
   return true;
}

static bool
cb_ld_attr(void *user, bool varying_table, unsigned index,
           enum pan_sim_mid_regfmt fmt, uint32_t out[4], char *err)
{
   return ld_common(user, varying_table, index, 0, false, fmt, out, err);
}

static bool
cb_ld_vary(void *user, unsigned index, bool flat, enum pan_sim_mid_regfmt fmt,
           uint32_t out[4], char *err)
{
   const struct pan_sim_mid_desc *d = user;
   return ld_common(d, true, index, d->pixel, true, fmt, out, err);
}

static bool
cb_st_vary(void *user, bool varying_table, unsigned index,
           enum pan_sim_mid_regfmt fmt, unsigned comp_mask,
           const uint32_t in[4], char *err)
{
   const struct pan_sim_mid_desc *d = user;
   struct pan_sim_mem_format f;
   uint64_t addr;
   uint8_t old[16], fresh[16];

   if (!locate(d, varying_table, index, &addr, &f, err))
      return false;
   unsigned cb = f.bits / 8, bytes = f.comps * cb;
   if (!rd(d, addr, old, bytes, "varying element", err))
      return false;
   /* Only the components of the mask change. */
   pan_sim_regs_to_mem(&f, regfmts[fmt], f.comps, in, fresh);
   for (unsigned c = 0; c < f.comps; c++) {
      if (comp_mask & (1u << c))
         memcpy(old + c * cb, fresh + c * cb, cb);
   }
   if (!d->mem.write || !d->mem.write(d->mem.user, addr, old, bytes))
      return ERR("cannot write varying %u at 0x%llx", index,
                 (unsigned long long)addr);
   return true;
}

/* ---- textures ---- */

struct tex_state {
   const struct pan_sim_mid_desc *d;
   struct PAN_GENX(texture) t;
   struct PAN_GENX(sampler) s;
   struct pan_sim_mem_format f;
   uint64_t tex_va;
   uint32_t border[4];
};

/* Surface of a level (layer 0): pointers follow the descriptor. */
static bool
level_surface(const struct tex_state *ts, unsigned level, uint64_t *base,
              uint32_t *row_stride, char *err)
{
   unsigned w = MID_MAX(ts->t.width >> level, 1u);
   uint32_t raw[4];
   if (ts->t.manual_stride) {
      if (!rd(ts->d,
              ts->tex_va + pan_size(texture) +
                 level * pan_size(surface_with_stride),
              raw, pan_size(surface_with_stride), "surface record", err))
         return false;
      pan_unpack(raw, surface_with_stride, sw);
      *base = sw.address;
      *row_stride = sw.row_stride_B;
   } else {
      if (!rd(ts->d, ts->tex_va + pan_size(texture) + level * 8, raw, 8,
              "surface pointer", err))
         return false;
      *base = raw[0] | (uint64_t)raw[1] << 32;
      *row_stride = w * ts->f.comps * ts->f.bits / 8;
   }
   return true;
}

/* Texel (x, y) of a level as floats; false on a read failure. */
static bool
texel(const struct tex_state *ts, unsigned level, int x, int y, float out[4],
      char *err)
{
   uint64_t base;
   uint32_t stride, v[4];
   uint8_t raw[16];
   unsigned bytes = ts->f.comps * ts->f.bits / 8;
   if (!level_surface(ts, level, &base, &stride, err) ||
       !rd(ts->d, base + (uint64_t)y * stride + (uint64_t)x * bytes, raw, bytes,
           "texel", err))
      return false;
   pan_sim_mem_to_regs(&ts->f, raw, PAN_SIM_REG_F32, 4, v);
   for (unsigned c = 0; c < 4; c++)
      out[c] = pan_sim_fp_f32(v[c]);
   return true;
}

/* Wrapped texel index, or -1 for the border. */
static int
wrap(enum PAN_GENX(wrap_mode) mode, int i, int n)
{
   switch (mode) {
   case MALI_WRAP_MODE_REPEAT:
      return ((i % n) + n) % n;
   case MALI_WRAP_MODE_MIRRORED_REPEAT: {
      int m = ((i % (2 * n)) + 2 * n) % (2 * n);
      return m < n ? m : 2 * n - 1 - m;
   }
   case MALI_WRAP_MODE_CLAMP_TO_BORDER:
      return i < 0 || i >= n ? -1 : i;
   default: /* clamp to edge (others refused before sampling) */
      return i < 0 ? 0 : i >= n ? n - 1 : i;
   }
}

static bool
compare(enum PAN_GENX(func) fn, float ref, float v)
{
   switch (fn) {
   case MALI_FUNC_NEVER:
      return false;
   case MALI_FUNC_LESS:
      return ref < v;
   case MALI_FUNC_EQUAL:
      return ref == v;
   case MALI_FUNC_LEQUAL:
      return ref <= v;
   case MALI_FUNC_GREATER:
      return ref > v;
   case MALI_FUNC_NOT_EQUAL:
      return ref != v;
   case MALI_FUNC_GEQUAL:
      return ref >= v;
   default:
      return true;
   }
}

/* One wrapped texel, the border colour or a comparison result. */
static bool
fetch_wrapped(const struct tex_state *ts, unsigned level, int x, int y,
              const struct pan_sim_mid_tex *req, float out[4], char *err)
{
   int w = MID_MAX(ts->t.width >> level, 1u),
       h = MID_MAX(ts->t.height >> level, 1u);
   int wx = wrap(ts->s.wrap_mode_s, x, w), wy = wrap(ts->s.wrap_mode_t, y, h);
   if (wx < 0 || wy < 0) {
      for (unsigned c = 0; c < 4; c++)
         out[c] = pan_sim_fp_f32(ts->border[c]);
   } else if (!texel(ts, level, wx, wy, out, err)) {
      return false;
   }
   if (req->shadow) {
      float r = compare(ts->s.compare_function, pan_sim_fp_f32(req->coords[2]),
                        out[0]);
      out[0] = out[1] = out[2] = r;
      out[3] = 1.0f;
   }
   return true;
}

static bool
sample_level(const struct tex_state *ts, unsigned level, bool nearest,
             const struct pan_sim_mid_tex *req, float out[4], char *err)
{
   int w = MID_MAX(ts->t.width >> level, 1u),
       h = MID_MAX(ts->t.height >> level, 1u);
   float u = pan_sim_fp_f32(req->coords[0]), v = pan_sim_fp_f32(req->coords[1]);
   if (ts->s.normalized_coordinates) {
      u *= w;
      v *= h;
   }
   if (nearest)
      return fetch_wrapped(ts, level, (int)floorf(u), (int)floorf(v), req, out,
                           err);
   float fu = u - 0.5f, fv = v - 0.5f;
   int x0 = (int)floorf(fu), y0 = (int)floorf(fv);
   float a = fu - x0, b = fv - y0;
   float t[4][4];
   for (unsigned i = 0; i < 4; i++) {
      if (!fetch_wrapped(ts, level, x0 + (i & 1), y0 + (i >> 1), req, t[i],
                         err))
         return false;
   }
   for (unsigned c = 0; c < 4; c++)
      out[c] = (1 - a) * (1 - b) * t[0][c] + a * (1 - b) * t[1][c] +
               (1 - a) * b * t[2][c] + a * b * t[3][c];
   return true;
}

static bool
load_texture(struct tex_state *ts, const struct pan_sim_mid_tex *req, char *err)
{
   const struct pan_sim_mid_desc *d = ts->d;
   uint32_t raw[8];
   if (req->texture >= d->nr_textures)
      return ERR("texture %u outside the table of %u", req->texture,
                 d->nr_textures);
   if (!rd(d, d->textures + req->texture * 8, raw, 8, "texture pointer", err))
      return false;
   ts->tex_va = raw[0] | (uint64_t)raw[1] << 32;
   if (!rd(d, ts->tex_va, raw, pan_size(texture), "texture descriptor", err))
      return false;
   PAN_GENX(texture_unpack)((const void *)raw, &ts->t);

   if (ts->t.dimension != MALI_TEXTURE_DIMENSION_2D || req->dim != 2)
      return ERR("%s textures are not modelled (only 2D)",
                 PAN_GENX(texture_dimension_name)(ts->t.dimension));
   if (ts->t.array_size != 1)
      return ERR("array textures are not modelled");
   if (ts->t.texel_ordering != MALI_TEXTURE_LAYOUT_LINEAR)
      return ERR("%s texel order is not modelled (only linear)",
                 PAN_GENX(texture_layout_name)(ts->t.texel_ordering));
   if (!ts->t.surface_pointer_is_64b)
      return ERR("32-bit surface pointers are not modelled");
   if (!mem_format(ts->t.format, &ts->f, "texture", err))
      return false;
   bool rgba8 =
      ts->f.comps == 4 && ts->f.bits == 8 && ts->f.num == PAN_SIM_NUM_UNORM;
   bool rgba32f =
      ts->f.comps == 4 && ts->f.bits == 32 && ts->f.num == PAN_SIM_NUM_FLOAT;
   if (!rgba8 && !rgba32f)
      return ERR("texture format 0x%x is not modelled (RGBA8 UNORM, RGBA32F)",
                 ts->t.format);
   uint32_t sw = ts->t.swizzle;
   pan_unpack(&sw, swizzle, s);
   if (s.r != MALI_CHANNEL_R || s.g != MALI_CHANNEL_G ||
       s.b != MALI_CHANNEL_B || s.a != MALI_CHANNEL_A)
      return ERR("texture swizzles are not modelled");

   if (req->sampler >= d->nr_samplers)
      return ERR("sampler %u outside the table of %u", req->sampler,
                 d->nr_samplers);
   if (!rd(d, d->samplers + req->sampler * pan_size(sampler), raw,
           pan_size(sampler), "sampler descriptor", err))
      return false;
   PAN_GENX(sampler_unpack)((const void *)raw, &ts->s);
   enum PAN_GENX(wrap_mode) modes[2] = { ts->s.wrap_mode_s, ts->s.wrap_mode_t };
   for (unsigned i = 0; i < 2; i++) {
      if (modes[i] != MALI_WRAP_MODE_REPEAT &&
          modes[i] != MALI_WRAP_MODE_MIRRORED_REPEAT &&
          modes[i] != MALI_WRAP_MODE_CLAMP_TO_EDGE &&
          modes[i] != MALI_WRAP_MODE_CLAMP_TO_BORDER)
         return ERR("wrap mode %s is not modelled",
                    PAN_GENX(wrap_mode_name)(modes[i]));
   }
   if (ts->s.mipmap_mode == MALI_MIPMAP_MODE_PERFORMANCE_TRILINEAR)
      return ERR("mipmap mode performance_trilinear is not modelled");
   ts->border[0] = ts->s.border_color_r;
   ts->border[1] = ts->s.border_color_g;
   ts->border[2] = ts->s.border_color_b;
   ts->border[3] = ts->s.border_color_a;
   return true;
}

static bool
cb_tex(void *user, const struct pan_sim_mid_tex *req, uint32_t out[4],
       char *err)
{
   struct tex_state ts = { .d = user };
   float r[4] = { 0 };
   if (!load_texture(&ts, req, err))
      return false;
   unsigned last = ts.t.levels - 1;

   if (!strcmp(req->op, "fetch")) {
      int x = (int32_t)req->coords[0], y = (int32_t)req->coords[1];
      unsigned level = req->lod < 0 ? ~0u : (unsigned)req->lod;
      /* Outside the texture GL leaves the result undefined: zeros. */
      if (level <= last && x >= 0 && y >= 0 &&
          x < (int)MID_MAX(ts.t.width >> level, 1u) &&
          y < (int)MID_MAX(ts.t.height >> level, 1u) &&
          !texel(&ts, level, x, y, r, err))
         return false;
   } else {
      float lod = req->lod + ts.s.lod_bias;
      lod = fminf(fmaxf(lod, ts.s.minimum_lod), ts.s.maximum_lod);
      bool nearest = lod > 0 ? ts.s.minify_nearest : ts.s.magnify_nearest;
      if (ts.s.mipmap_mode == MALI_MIPMAP_MODE_NEAREST || lod <= 0) {
         /* GL's nearest level: ceil(lod + 0.5) - 1. */
         unsigned level = lod <= 0.5f ? 0 : (unsigned)ceilf(lod + 0.5f) - 1;
         if (!sample_level(&ts, MID_MIN(level, last), nearest, req, r, err))
            return false;
      } else {
         unsigned l0 = MID_MIN((unsigned)floorf(lod), last);
         unsigned l1 = MID_MIN(l0 + 1, last);
         float a = lod - floorf(lod), r1[4];
         if (!sample_level(&ts, l0, nearest, req, r, err) ||
             !sample_level(&ts, l1, nearest, req, r1, err))
            return false;
         for (unsigned c = 0; c < 4; c++)
            r[c] = (1 - a) * r[c] + a * r1[c];
      }
   }
   for (unsigned c = 0; c < 4; c++)
      out[c] = pan_sim_fp_u32(r[c]);
   return true;
}

void PAN_GENX(sim_mid_desc_init)(struct pan_sim_mid_desc *d,
                                 struct pan_sim_mid_gfx *gfx);

void
PAN_GENX(sim_mid_desc_init)(struct pan_sim_mid_desc *d,
                            struct pan_sim_mid_gfx *gfx)
{
   *gfx = (struct pan_sim_mid_gfx){
      .user = d,
      .ld_attr = cb_ld_attr,
      .st_vary = cb_st_vary,
      .ld_vary = cb_ld_vary,
      .tex = cb_tex,
   };
}
