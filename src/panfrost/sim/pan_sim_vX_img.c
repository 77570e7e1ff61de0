/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Image descriptors of one architecture (compiled once per PAN_ARCH, v6 and
 * later) turned into the texture unit's neutral pan_sim_texture, whose
 * layout code (pan_sim_texture.c) then addresses and decodes texels.
 *
 * Up to v7 an image is an attribute record of the job's attribute table:
 * its buffer is of type 3D_LINEAR or 3D_INTERLEAVED (u-interleaved 16x16
 * tiles), pointing at level 0 of the bound level and first layer, with the
 * texel size as stride, and the continuation record that follows holds the
 * dimensions (s, t, r: width, height, depth or layers) and the row and
 * slice strides.  Array layers and 3D slices alike step by the slice
 * stride, so the image is described as a 3D texture.  The record's format
 * word is the texel format (no swizzle).
 *
 * On v9 an image is a texture descriptor of a resource table, unpacked by
 * pan_sim_vX_texture.c exactly as for sampling; level 0 is the bound one.
 */

#include <stdio.h>
#include <string.h>

#include "pan_genxml.h"
#include "pan_sim_arch.h"
#include "pan_sim_space.h"
#include "pan_sim_vX_img.h"
#include "pan_sim_vX_texture.h"

#if PAN_ARCH >= 6

#define IMG_ERR(err, ...) snprintf(err, PAN_SIM_IMAGE_ERR_LEN, __VA_ARGS__)

#if PAN_ARCH <= 7
/* An image's buffer record at va and the 3D continuation after it. */
static bool
read_buffer(const struct pan_sim_space *space, uint64_t va,
            struct PAN_GENX(attribute_buffer) * buf,
            struct PAN_GENX(attribute_buffer_continuation_3d) * cont, char *err)
{
   const uint8_t *p = PAN_GENX(sim_tex_read)(
      space, va, 2 * pan_size(attribute_buffer), "image attribute buffer", err);
   if (!p)
      return false;
   PAN_GENX(attribute_buffer_unpack)(p, buf);
   PAN_GENX(attribute_buffer_continuation_3d_unpack)
   (p + pan_size(attribute_buffer), cont);
   return true;
}

/* The surface of an attribute-table image: t->surfaces is the address of
 * its buffer record. */
static bool
attr_surface(const struct pan_sim_texture *t, unsigned level, unsigned layer,
             unsigned face, unsigned sample, struct pan_sim_surface *s,
             char *err)
{
   (void)sample; /* attribute images are single-sampled */
   struct PAN_GENX(attribute_buffer) buf;
   struct PAN_GENX(attribute_buffer_continuation_3d) cont;

   if (!read_buffer(t->space, t->surfaces, &buf, &cont, err))
      return false;
   s->base = buf.address;
   s->row_stride_B = cont.row_stride_B;
   s->slice_stride_B = cont.slice_stride_B;
   return true;
}

static const struct pan_sim_texture *
image(struct pan_sim_image_env *env, unsigned table, unsigned index,
      uint32_t *format_word, char *err)
{
   const struct pan_sim_space *space = env->tex.space;

   (void)table; /* the interpreter only passes the job's attribute table */
   if (!env->attributes || !env->attribute_buffers) {
      IMG_ERR(err, "image %u without an attribute table", index);
      return NULL;
   }
   const void *p = PAN_GENX(sim_tex_read)(
      space, env->attributes + (uint64_t)index * pan_size(attribute),
      pan_size(attribute), "image attribute descriptor", err);
   if (!p)
      return NULL;
   pan_unpack(p, attribute, at);
   uint64_t buf_va = env->attribute_buffers +
                     (uint64_t)at.buffer_index * pan_size(attribute_buffer);
   struct PAN_GENX(attribute_buffer) buf;
   struct PAN_GENX(attribute_buffer_continuation_3d) cont;
   if (!read_buffer(space, buf_va, &buf, &cont, err))
      return NULL;
   if (buf.type != MALI_ATTRIBUTE_TYPE_3D_LINEAR &&
       buf.type != MALI_ATTRIBUTE_TYPE_3D_INTERLEAVED) {
      const char *n = PAN_GENX(attribute_type_name)(buf.type);
      IMG_ERR(err, "image %u: buffer %u of type %s is not an image", index,
              at.buffer_index, n ? n : "undefined");
      return NULL;
   }
   if (cont.type != MALI_ATTRIBUTE_TYPE_CONTINUATION) {
      IMG_ERR(err, "image %u: buffer %u has no 3D continuation record", index,
              at.buffer_index);
      return NULL;
   }

   struct pan_sim_texture *t = &env->img;
   memset(t, 0, sizeof(*t));
   t->space = space;
   t->surface = attr_surface;
   t->surfaces = buf_va;
   t->dim = PAN_SIM_TEX_3D;
   t->width = cont.s_dimension;
   t->height = cont.t_dimension;
   t->depth = cont.r_dimension;
   t->levels = t->layers = t->samples = 1;
   t->layout = buf.type == MALI_ATTRIBUTE_TYPE_3D_LINEAR
                  ? PAN_SIM_TEX_LINEAR
                  : PAN_SIM_TEX_U_INTERLEAVED;
   /* Identity swizzle: r, g, b, a. */
   const uint32_t identity = 0 | 1 << 3 | 2 << 6 | 3 << 9;
   if (!PAN_GENX(sim_tex_format)(at.format, identity, &t->fmt, err))
      return NULL;
   if (buf.stride != t->fmt.size_B) {
      IMG_ERR(err, "image %u: stride %u for %u-byte %s texels", index,
              buf.stride, t->fmt.size_B, t->fmt.name);
      return NULL;
   }
   *format_word = at.format;
   return t;
}
#else
static const struct pan_sim_texture *
image(struct pan_sim_image_env *env, unsigned table, unsigned index,
      uint32_t *format_word, char *err)
{
   if (table > 31 || index > 0x7ff) {
      IMG_ERR(err, "image %u of table %u: no such texture handle", index,
              table);
      return NULL;
   }
   const struct pan_sim_texture *t =
      PAN_GENX(sim_tex_texture)(&env->tex, table << 11 | index, err);
   if (!t)
      return NULL;
   pan_unpack(env->tex.tex_seen.raw, texture, d);
   *format_word = d.format;
   return t;
}
#endif

static bool
image_address(void *user, unsigned table, unsigned index,
              const uint32_t coord[3], enum pan_sim_regfmt regfmt,
              uint32_t out[3], char *err)
{
   uint32_t format;
   uint64_t va;
   const struct pan_sim_texture *t = image(user, table, index, &format, err);

   if (!t || !pan_sim_image_texel(t, coord, &va, err))
      return false;
   if (regfmt == PAN_SIM_REG_AUTO)
      regfmt = t->fmt.kind == PAN_SIM_TEXEL_SINT   ? PAN_SIM_REG_S32
               : t->fmt.kind == PAN_SIM_TEXEL_UINT ? PAN_SIM_REG_U32
                                                   : PAN_SIM_REG_F32;
   out[0] = (uint32_t)va;
   out[1] = (uint32_t)(va >> 32);
   pan_pack(&out[2], internal_conversion, cfg)
   {
      cfg.memory_format = format;
      cfg.register_format = (enum PAN_GENX(register_file_format))regfmt;
   }
   return true;
}

static bool
image_load(void *user, unsigned table, unsigned index, const uint32_t coord[3],
           enum pan_sim_regfmt regfmt, unsigned comps, uint32_t out[4],
           char *err)
{
   uint32_t format;
   const struct pan_sim_texture *t = image(user, table, index, &format, err);

   return t && pan_sim_image_load(t, coord, (unsigned)regfmt, comps, out, err);
}

void
PAN_GENX(sim_image_ops)(struct pan_sim_image_env *env,
                        struct pan_sim_image_ops *ops)
{
   *ops = (struct pan_sim_image_ops){
      .user = env,
      .address = image_address,
      .load = image_load,
   };
}

#endif
