/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Texture and sampler descriptors of one architecture (compiled once per
 * PAN_ARCH, v6 and later) unpacked with genxml into the sampler's neutral
 * descriptions (pan_sim_texture.h), and the executors' texture callback.
 *
 * Up to v7 the tables are the draw's (or compute job's) `textures` and
 * `samplers` arrays; a texture's surfaces are SURFACE_WITH_STRIDE
 * descriptors, one per level, sample, face and layer: v7 iterates levels
 * innermost, then samples, faces and layers; v6 samples, faces, levels,
 * layers.  On v9 the instruction names a resource table entry and an index
 * in it; the texture's planes follow the v7 order without samples.  AFBC
 * surfaces (v6/v7 AFBC layout, flags in the header address's low bits; v9
 * AFBC planes) go to pan_sim_afbc.h.  ASTC surfaces give their block
 * footprint: v6/v7 in the low six bits of the surface address (width
 * code, then height code, astc_2d_dimension values), v9 in ASTC 2D planes.
 * v9 texture descriptors of ASTC and ETC2/EAC textures name the decoded
 * format, the planes the blocks (compressed_texture).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pan_genxml.h"
#include "pan_sim_arch.h"
#include "pan_sim_space.h"
#include "pan_sim_texture.h"
#include "pan_sim_vX_texture.h"

#if PAN_ARCH >= 6

#define TEX_ERR(err, ...) snprintf(err, PAN_SIM_TEX_ERR_LEN, __VA_ARGS__)

const void *
PAN_GENX(sim_tex_read)(const struct pan_sim_space *space, uint64_t va,
                       unsigned size, const char *what, char *err)
{
   struct pan_sim_access acc;
   const void *p = pan_sim_read(space, va, size, 0, what, &acc);
   if (!p)
      TEX_ERR(err, "%s", acc.message);
   return p;
}

static bool
is_astc(const struct pan_sim_texel_format *f)
{
   return f->packing == PAN_SIM_PACK_ASTC ||
          f->packing == PAN_SIM_PACK_ASTC_WIDE;
}

/* Texels of an astc_2d_dimension code; 0 for the codes it lacks. */
static unsigned
astc_dimension(unsigned code)
{
   const char *name = PAN_GENX(astc_2d_dimension_name)(code);
   return name ? (unsigned)atoi(name) : 0;
}

static bool
astc_footprint(struct pan_sim_surface *s, unsigned w_code, unsigned h_code,
               char *err)
{
   unsigned w = astc_dimension(w_code), h = astc_dimension(h_code);
   if (!w || !h) {
      TEX_ERR(err, "ASTC block dimension codes %u x %u", w_code, h_code);
      return false;
   }
   s->block_w_px = (uint8_t)w;
   s->block_h_px = (uint8_t)h;
   return true;
}

static const char *
or_unknown(const char *name)
{
   return name ? name : "unknown";
}

#if PAN_ARCH >= 9
/* ETC2/EAC clump formats and the format a v9 texture descriptor over them
 * names, the one their texels decode to (the clump names are the texel
 * format table's block formats).
 */
static const struct {
   const char *clump, *decoded;
} etc_clumps[] = {
   { "etc2_rgb8", "rgba8_unorm" },      { "etc2_rgb8a1", "rgba8_unorm" },
   { "etc2_rgba8", "rgba8_unorm" },     { "etc2_r11_unorm", "r16_unorm" },
   { "etc2_r11_snorm", "r16_snorm" },   { "etc2_rg11_unorm", "rg16_unorm" },
   { "etc2_rg11_snorm", "rg16_snorm" },
};

static bool
is_etc(const struct pan_sim_texel_format *f)
{
   return f->packing >= PAN_SIM_PACK_ETC2_RGB8 &&
          f->packing <= PAN_SIM_PACK_EAC_RG11;
}

/* The block format of a plane's ETC2/EAC clump, NULL for other clumps. */
static const char *
etc_clump(unsigned clump_format, const char **decoded)
{
   const char *n = PAN_GENX(clump_format_name)(clump_format);
   for (unsigned i = 0; n && i < sizeof(etc_clumps) / sizeof(etc_clumps[0]);
        ++i) {
      if (!strcmp(n, etc_clumps[i].clump)) {
         if (decoded)
            *decoded = etc_clumps[i].decoded;
         return etc_clumps[i].clump;
      }
   }
   return NULL;
}
#endif

#if PAN_ARCH >= 9
#define SURFACE_SIZE_B pan_size(plane)
#else
#define SURFACE_SIZE_B pan_size(surface_with_stride)
#endif

static bool
surface(const struct pan_sim_texture *t, unsigned level, unsigned layer,
        unsigned face, unsigned sample, struct pan_sim_surface *s, char *err)
{
   unsigned faces = t->dim == PAN_SIM_TEX_CUBE ? 6 : 1;
   uint64_t index;
   /* A descriptor a sample before v9; v9's plane holds the samples a
    * slice stride apart. */
#if PAN_ARCH == 6
   index = (((uint64_t)layer * t->levels + level) * faces + face) * t->samples +
           sample;
#elif PAN_ARCH == 7
   index =
      (((uint64_t)layer * faces + face) * t->samples + sample) * t->levels +
      level;
#else
   index = ((uint64_t)layer * faces + face) * t->levels + level;
#endif
   const void *p =
      PAN_GENX(sim_tex_read)(t->space, t->surfaces + index * SURFACE_SIZE_B,
                             SURFACE_SIZE_B, "texture surface descriptor", err);
   if (!p)
      return false;
#if PAN_ARCH >= 9
   pan_unpack(p, plane, d);
   memset(s, 0, sizeof(*s));
   if (d.plane_type == MALI_PLANE_TYPE_AFBC) {
      if (d.afbc.superblock_size == MALI_AFBC_SUPERBLOCK_SIZE_64X4) {
         TEX_ERR(err, "AFBC 64x4 superblocks are not sampled");
         return false;
      }
      s->afbc = true;
      s->afbc_wide = d.afbc.superblock_size == MALI_AFBC_SUPERBLOCK_SIZE_32X8;
      s->afbc_tiled = d.afbc.tiled_header;
   } else if (d.plane_type == MALI_PLANE_TYPE_ASTC_2D && is_astc(&t->fmt)) {
      if (!astc_footprint(s, d.astc_2d.block_width, d.astc_2d.block_height,
                          err))
         return false;
   } else if (is_astc(&t->fmt)) {
      TEX_ERR(err, "%s texture on a plane that is not ASTC 2D", t->fmt.name);
      return false;
   } else if (is_etc(&t->fmt) && (d.plane_type != MALI_PLANE_TYPE_GENERIC ||
                                  strcmp(or_unknown(PAN_GENX(clump_format_name)(
                                            d.generic.clump_format)),
                                         t->fmt.name))) {
      /* Every plane of an ETC2/EAC texture holds its blocks (the clump
       * names are the block formats').
       */
      TEX_ERR(err, "%s texture on a plane that is not of its clump format",
              t->fmt.name);
      return false;
   } else if (d.plane_type != MALI_PLANE_TYPE_GENERIC) {
      TEX_ERR(err, "texture plane type %s is not sampled (format %s)",
              PAN_GENX(plane_type_name)(d.plane_type)
                 ? PAN_GENX(plane_type_name)(d.plane_type)
                 : "unknown",
              t->fmt.name ? t->fmt.name : "unknown");
      return false;
   }
   s->base = d.address;
   s->row_stride_B = d.row_stride_B;
   s->slice_stride_B = d.slice_stride_B;
   if (t->samples > 1)
      s->base += (uint64_t)sample * d.slice_stride_B;
#else
   pan_unpack(p, surface_with_stride, d);
   memset(s, 0, sizeof(*s));
   s->base = d.address;
   s->row_stride_B = d.row_stride_B;
   s->slice_stride_B = d.surface_stride_B;
   if (t->layout == PAN_SIM_TEX_AFBC) {
      /* The header address carries the AFBC surface flags (v6 has no
       * tiled headers: that bit is not a flag there).
       */
      unsigned flags = (unsigned)(d.address & 63);
      s->base = d.address & ~(uint64_t)63;
      s->afbc = true;
      s->afbc_wide = flags & MALI_AFBC_SURFACE_FLAG_WIDE_BLOCK;
#if PAN_ARCH >= 7
      s->afbc_tiled = flags & MALI_AFBC_SURFACE_FLAG_TILED_HEADER;
#endif
   } else if (is_astc(&t->fmt)) {
      unsigned tag = (unsigned)(d.address & 63);
      s->base = d.address & ~(uint64_t)63;
      if (!astc_footprint(s, tag & 7, tag >> 3, err))
         return false;
   }
#endif
   return true;
}

/* Format word and swizzle of a texture descriptor -> texel format. */
bool
PAN_GENX(sim_tex_format)(uint32_t format_word, uint32_t swizzle_word,
                         struct pan_sim_texel_format *f, char *err)
{
   pan_unpack(&format_word, pixel_format, pf);
   pan_unpack(&swizzle_word, swizzle, sw);
   const char *name = PAN_GENX(format_name)(pf.format);
   uint8_t swz[4] = { sw.r, sw.g, sw.b, sw.a };

   if (!pan_sim_texel_format_parse(name, f)) {
      TEX_ERR(err, "texture format %s (%u) is not sampled", or_unknown(name),
              (unsigned)pf.format);
      return false;
   }
   f->srgb = pf.srgb;
#if PAN_ARCH >= 7
   const char *order = PAN_GENX(rgb_component_order_name)(pf.order);
   if (!pan_sim_texel_format_order(f, order, swz)) {
      TEX_ERR(err, "component order %s of texture format %s is not sampled",
              or_unknown(order), name);
      return false;
   }
#else
   /* v6: the format's own swizzle, then the texture's. */
   uint8_t inner[4] = { pf.swizzle.r, pf.swizzle.g, pf.swizzle.b,
                        pf.swizzle.a };
   for (unsigned c = 0; c < 4; ++c)
      swz[c] = swz[c] <= 3 ? inner[swz[c]] : swz[c];
   if (!pan_sim_texel_format_order(f, "rgba", swz)) {
      TEX_ERR(err, "swizzle of texture format %s is not sampled", name);
      return false;
   }
#endif
   return true;
}

/* Whether the descriptor at p (32 bytes) is the one seen last; if not,
 * remember it (the caller unpacks it and sets valid). */
static bool
seen(struct pan_sim_tex_seen *s, uint64_t va, const void *p)
{
   if (s->valid && s->va == va && !memcmp(s->raw, p, sizeof(s->raw)))
      return true;
   s->valid = false;
   s->va = va;
   memcpy(s->raw, p, sizeof(s->raw));
   return false;
}

#if PAN_ARCH >= 9
/* The texel format becomes the block format `name` decoding to the
 * descriptor's, keeping its swizzle and sRGB flag; channels the blocks
 * lack read 0 (1 for alpha), as in the decoded texels.
 */
static void
blocks_of(struct pan_sim_texture *t, const char *name)
{
   struct pan_sim_texel_format f = t->fmt;
   pan_sim_texel_format_parse(name, &t->fmt);
   for (unsigned c = 0; c < 4; ++c) {
      uint8_t src = f.src[c];
      if (src <= 3 && src >= t->fmt.comps)
         src = src == 3 ? 5 : 4;
      t->fmt.src[c] = src;
   }
   t->fmt.srgb = f.srgb;
   t->fmt.srgb_fields = f.srgb_fields;
}

/* Valhall's texture descriptor names what compressed texels decode to, its
 * planes the blocks: ASTC 2D planes (rgba16f for the wide decode,
 * rgba8_unorm sRGB or not for the narrow one) and generic planes of an
 * ETC2/EAC clump format (rgba8_unorm for the colour blocks, r16/rg16
 * unorm or snorm for EAC).  A block format in the descriptor faults.
 */
static bool
compressed_texture(struct pan_sim_texture *t, char *err)
{
   if (is_astc(&t->fmt) || is_etc(&t->fmt)) {
      TEX_ERR(err,
              "v9 texture format %s: the descriptor names the decoded "
              "format, the plane the %s blocks",
              t->fmt.name, is_astc(&t->fmt) ? "ASTC" : "ETC2/EAC");
      return false;
   }
   const void *p =
      PAN_GENX(sim_tex_read)(t->space, t->surfaces, pan_size(plane),
                             "texture surface descriptor", err);
   if (!p)
      return false;
   pan_unpack(p, plane, d);

   const char *name, *decoded = NULL;
   if (d.plane_type == MALI_PLANE_TYPE_GENERIC &&
       (name = etc_clump(d.generic.clump_format, &decoded))) {
      if (strcmp(t->fmt.name, decoded)) {
         TEX_ERR(err, "%s plane decoding to %s, not %s", name, t->fmt.name,
                 decoded);
         return false;
      }
   } else if (d.plane_type == MALI_PLANE_TYPE_ASTC_2D) {
      if (!strcmp(t->fmt.name, "rgba16f")) {
         name = "astc_2d_hdr";
      } else if (!strcmp(t->fmt.name, "rgba8_unorm")) {
         name = "astc_2d_ldr";
      } else {
         TEX_ERR(err, "ASTC 2D plane decoding to %s", t->fmt.name);
         return false;
      }
   } else {
      return true;
   }
   blocks_of(t, name);
   return true;
}
#endif

static bool
unpack_texture(const struct pan_sim_space *space, const void *p,
               struct pan_sim_texture *t, char *err)
{
   pan_unpack(p, texture, d);

   memset(t, 0, sizeof(*t));
   t->space = space;
   t->surface = surface;
   t->surfaces = d.surfaces;
   t->dim = (enum pan_sim_tex_dim)d.dimension;
   t->width = d.width;
   t->height = d.height;
   t->depth = d.dimension == MALI_TEXTURE_DIMENSION_3D ? d.depth : 1;
   t->layers = d.array_size;
   t->levels = d.levels;
   t->samples = d.dimension == MALI_TEXTURE_DIMENSION_3D ? 1 : d.sample_count;
#if PAN_ARCH >= 9
   t->layout =
      d.texel_interleave ? PAN_SIM_TEX_U_INTERLEAVED : PAN_SIM_TEX_LINEAR;
#else
   switch (d.texel_ordering) {
   case MALI_TEXTURE_LAYOUT_LINEAR:
      t->layout = PAN_SIM_TEX_LINEAR;
      break;
   case MALI_TEXTURE_LAYOUT_TILED:
      t->layout = PAN_SIM_TEX_U_INTERLEAVED;
      break;
   case MALI_TEXTURE_LAYOUT_AFBC:
      t->layout = PAN_SIM_TEX_AFBC;
      break;
   default:
      TEX_ERR(err, "texture layout %s is not sampled",
              or_unknown(PAN_GENX(texture_layout_name)(d.texel_ordering)));
      return false;
   }
#endif
   if (!PAN_GENX(sim_tex_format)(d.format, d.swizzle, &t->fmt, err))
      return false;
#if PAN_ARCH >= 9
   return compressed_texture(t, err);
#else
   return true;
#endif
}

static bool
unpack_wrap(unsigned mode, enum pan_sim_wrap *w, char *err)
{
   switch (mode) {
   case MALI_WRAP_MODE_REPEAT:
      *w = PAN_SIM_WRAP_REPEAT;
      return true;
   case MALI_WRAP_MODE_CLAMP_TO_EDGE:
      *w = PAN_SIM_WRAP_CLAMP_TO_EDGE;
      return true;
   case MALI_WRAP_MODE_CLAMP_TO_BORDER:
      *w = PAN_SIM_WRAP_CLAMP_TO_BORDER;
      return true;
   case MALI_WRAP_MODE_MIRRORED_REPEAT:
      *w = PAN_SIM_WRAP_MIRRORED_REPEAT;
      return true;
   case MALI_WRAP_MODE_MIRRORED_CLAMP_TO_EDGE:
      *w = PAN_SIM_WRAP_MIRRORED_CLAMP_TO_EDGE;
      return true;
   case MALI_WRAP_MODE_MIRRORED_CLAMP_TO_BORDER:
      *w = PAN_SIM_WRAP_MIRRORED_CLAMP_TO_BORDER;
      return true;
   default:
      TEX_ERR(err, "sampler wrap mode %u is not sampled", mode);
      return false;
   }
}

static bool
unpack_sampler(const void *p, struct pan_sim_sampler *s, char *err)
{
   pan_unpack(p, sampler, d);

   memset(s, 0, sizeof(*s));
   if (!unpack_wrap(d.wrap_mode_s, &s->wrap[0], err) ||
       !unpack_wrap(d.wrap_mode_t, &s->wrap[1], err) ||
       !unpack_wrap(d.wrap_mode_r, &s->wrap[2], err))
      return false;
   s->mag_nearest = d.magnify_nearest;
   s->min_nearest = d.minify_nearest;
   switch (d.mipmap_mode) {
   case MALI_MIPMAP_MODE_NONE:
      s->mip = PAN_SIM_MIP_NONE;
      break;
   case MALI_MIPMAP_MODE_NEAREST:
      s->mip = PAN_SIM_MIP_NEAREST;
      break;
   case MALI_MIPMAP_MODE_TRILINEAR:
      s->mip = PAN_SIM_MIP_LINEAR;
      break;
   default:
      TEX_ERR(err, "sampler mipmap mode %u is not sampled",
              (unsigned)d.mipmap_mode);
      return false;
   }
   s->normalized = d.normalized_coordinates;
   s->seamless_cube = d.seamless_cube_map;
   s->min_lod = d.minimum_lod;
   s->max_lod = d.maximum_lod;
   s->lod_bias = d.lod_bias;
   s->compare = (enum pan_sim_cmp)d.compare_function;
   s->border[0] = d.border_color_r;
   s->border[1] = d.border_color_g;
   s->border[2] = d.border_color_b;
   s->border[3] = d.border_color_a;
   return true;
}

/* Address of descriptor `index` of a table; false with err set when the
 * index is outside it. */
static bool
locate(const struct pan_sim_tex_env *env, bool sampler, uint32_t handle,
       uint64_t *va, char *err)
{
   const char *what = sampler ? "sampler" : "texture";
#if PAN_ARCH >= 9
   /* Handles: index in the low 11 bits, resource table above. */
   unsigned table = (handle >> 11) & 31, index = handle & 0x7ff;
   if (table >= env->resource_count) {
      TEX_ERR(err, "%s table %u beyond the %u resource tables", what, table,
              env->resource_count);
      return false;
   }
   const void *p = PAN_GENX(sim_tex_read)(
      env->space, env->resources + table * pan_size(resource),
      pan_size(resource), "resource table entry", err);
   if (!p)
      return false;
   pan_unpack(p, resource, res);
   uint64_t size = sampler ? pan_size(sampler) : pan_size(texture);
   if ((index + 1) * size > res.size) {
      TEX_ERR(err, "%s %u beyond the %llu bytes of resource table %u", what,
              index, (unsigned long long)res.size, table);
      return false;
   }
   *va = res.address + index * size;
#else
   unsigned count = sampler ? env->sampler_count : env->texture_count;
   if (handle >= count) {
      TEX_ERR(err, "%s %u beyond the shader's %u", what, handle, count);
      return false;
   }
   *va = (sampler ? env->samplers : env->textures) +
         (uint64_t)handle * (sampler ? pan_size(sampler) : pan_size(texture));
#endif
   return true;
}

const struct pan_sim_texture *
PAN_GENX(sim_tex_texture)(struct pan_sim_tex_env *env, uint32_t handle,
                          char *err)
{
   uint64_t va;
   const void *p;

   if (!locate(env, false, handle, &va, err) ||
       !(p = PAN_GENX(sim_tex_read)(env->space, va, pan_size(texture),
                                    "texture", err)))
      return NULL;
   if (!seen(&env->tex_seen, va, p)) {
      if (!unpack_texture(env->space, p, &env->tex, err))
         return NULL;
      env->tex_seen.valid = true;
   }
   return &env->tex;
}

bool
PAN_GENX(sim_tex_run)(void *user, struct pan_sim_tex_req *req, char *err)
{
   struct pan_sim_tex_env *env = user;
   bool with_sampler = req->op != PAN_SIM_TEX_FETCH;
   uint64_t va;
   const void *p;

   if (!PAN_GENX(sim_tex_texture)(env, req->texture, err))
      return false;
   if (with_sampler) {
      if (!locate(env, true, req->sampler, &va, err) ||
          !(p = PAN_GENX(sim_tex_read)(env->space, va, pan_size(sampler),
                                       "sampler", err)))
         return false;
      if (!seen(&env->smp_seen, va, p)) {
         if (!unpack_sampler(p, &env->smp, err))
            return false;
         env->smp_seen.valid = true;
      }
   }
   return pan_sim_tex_sample(&env->tex, with_sampler ? &env->smp : NULL, req,
                             err);
}

#endif
