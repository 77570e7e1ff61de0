/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Texture messages of the Valhall interpreter: TEX_SINGLE, TEX_FETCH and
 * TEX_GATHER, decoded into one pan_sim_tex_req per 2x2 quad (lanes 4q to
 * 4q + 3) and run by the executor's pan_sim_tex_ops (the config's `tex`;
 * without it they are refused, as graphics messages without their
 * callbacks).  The descriptors come from the resource tables:
 * the low word of source 0 holds the sampler handle in its low half and
 * the texture handle in its high half, each an index (bits 0..10) and a
 * resource table (bits 11..15) that the executor resolves.
 *
 * The staging vector read (its length is the instruction's sr_count)
 * holds, in this order and only when present: x (for cube maps the face
 * in bits 29..31), y (all but 1D, and 1D arrays), z (3D), the array
 * layer, the shadow reference, the offset word (s8 x, y, z offsets, z the
 * sample of a multisampled texture; for fetches the level in bits
 * 24..31), the LOD (8.8 fixed point: explicit,
 * or a bias with a lower clamp in the high half).  Results go to the
 * written vector: four 32-bit or two 16-bit-pair registers by regwidth,
 * float, unsigned or signed by regtype.  Gradient descriptors, TEX_DUAL
 * and the VAR_TEX forms are refused.
 */

#include <stdio.h>
#include <string.h>

#include "pan_sim_texture.h"
#include "pan_sim_va_gfx.h"
#include "pan_sim_va_priv.h"

enum va_tex_sr {
   SR_X,
   SR_Y,
   SR_Z,
   SR_ARRAY,
   SR_SHADOW,
   SR_OFFSET,
   SR_LOD,
   SR_COUNT,
};

struct va_tex {
   struct pan_sim_tex_req req;
   int at[SR_COUNT]; /* offset in the read vector, -1 absent */
   unsigned sr, sr_count, dst, dst_count;
};

/* Fragment shaders compute LODs from their quads. */
static bool
is_fragment(const struct pan_sim_va_ctx *c)
{
   return c->cfg->gfx && c->cfg->gfx->ld_var_buf;
}

static bool
decode(struct pan_sim_va_ctx *c, const struct pan_sim_va_ins *ins,
       struct va_tex *t, enum va_sim_result *res)
{
   struct pan_sim_tex_req *req = &t->req;
   const char *name = ins->op->name;
   bool fetch = !strcmp(name, "tex_fetch");
   bool gather = !strcmp(name, "tex_gather");

   memset(t, 0, sizeof(*t));
   memset(t->at, -1, sizeof(t->at));
   *res = VA_SIM_OK;
   if (!fetch && !gather && strcmp(name, "tex_single")) {
      *res = pan_sim_va_refuse(c, ins, name);
      return false;
   }

   static const enum pan_sim_tex_dim dims[4] = { PAN_SIM_TEX_1D, PAN_SIM_TEX_2D,
                                                 PAN_SIM_TEX_3D,
                                                 PAN_SIM_TEX_CUBE };
   req->dim = dims[pan_sim_va_mod(ins, "dim") & 3];
   req->array = pan_sim_va_mod(ins, "array_enable") == 1;
   req->offset = pan_sim_va_mod(ins, "texel_offset") == 1;
   req->shadow = pan_sim_va_mod(ins, "shadow") == 1;
   req->mask = (unsigned)pan_sim_va_mod(ins, "wrmask");

   bool r16 = !strcmp(pan_sim_va_mod_str(ins, "regwidth", "r32"), "r16");
   const char *type = pan_sim_va_mod_str(ins, "regtype", "f");
   req->regfmt = type[0] == 'f'   ? (r16 ? 0 : 1)
                 : type[0] == 'u' ? (r16 ? 5 : 3)
                                  : (r16 ? 4 : 2);

   bool has_lod = false;
   if (fetch) {
      req->op = PAN_SIM_TEX_FETCH;
   } else if (gather) {
      req->op = PAN_SIM_TEX_GATHER;
      req->gather_comp = (unsigned)pan_sim_va_mod(ins, "gather") & 3;
      if (pan_sim_va_mod(ins, "integer_coordinates") == 1) {
         *res = pan_sim_va_refuse(c, ins, "gather with integer coordinates");
         return false;
      }
   } else {
      const char *lod = pan_sim_va_mod_str(ins, "lod", "zero");
      req->op = PAN_SIM_TEX_SAMPLE;
      if (!strcmp(lod, "zero")) {
         req->lod_mode = PAN_SIM_TEX_LOD_ZERO;
      } else if (!strcmp(lod, "computed")) {
         req->lod_mode =
            is_fragment(c) ? PAN_SIM_TEX_LOD_COMPUTE : PAN_SIM_TEX_LOD_ZERO;
      } else if (!strcmp(lod, "explicit")) {
         req->lod_mode = PAN_SIM_TEX_LOD_EXPLICIT;
         has_lod = true;
      } else if (!strcmp(lod, "computed_bias")) {
         req->lod_mode = PAN_SIM_TEX_LOD_BIAS;
         has_lod = true;
      } else {
         *res = pan_sim_va_refuse(c, ins, "gradient descriptors");
         return false;
      }
   }

   bool present[SR_COUNT] = {
      [SR_X] = true,
      [SR_Y] = req->dim != PAN_SIM_TEX_1D || req->array,
      [SR_Z] = req->dim == PAN_SIM_TEX_3D,
      [SR_ARRAY] = req->array,
      [SR_SHADOW] = req->shadow,
      [SR_OFFSET] = req->offset,
      [SR_LOD] = has_lod,
   };
   unsigned n = 0;
   for (unsigned k = 0; k < SR_COUNT; ++k) {
      if (present[k])
         t->at[k] = (int)n++;
   }
   /* The staging vectors as the table lists them: written, then read. */
   pan_sim_va_staging(ins, 0, &t->dst, &t->dst_count);
   pan_sim_va_staging(ins, 1, &t->sr, &t->sr_count);
   if (n > t->sr_count) {
      *res = pan_sim_va_fault(c, ins,
                              "%u staging registers read, the operation "
                              "needs %u",
                              t->sr_count, n);
      return false;
   }
   unsigned need = r16 ? 2 : 4;
   if (t->dst_count < need) {
      *res = pan_sim_va_fault(c, ins, "%u result registers, %u needed",
                              t->dst_count, need);
      return false;
   }
   return true;
}

static void
fill_lane(const struct pan_sim_va_ctx *c, const struct va_tex *t,
          struct pan_sim_tex_req *req, unsigned i, unsigned lane)
{
   const uint32_t *s = c->w->r[lane] + t->sr;
   uint32_t x = s[t->at[SR_X]];

   if (req->dim == PAN_SIM_TEX_CUBE) {
      req->face[i] = x >> 29;
      /* s lies in [0, 1]: its top three bits are those of 1.0. */
      x = (x & 0x1fffffff) | 0x20000000;
   }
   req->coord[i][0] = x;
   if (t->at[SR_Y] >= 0 && req->dim != PAN_SIM_TEX_1D)
      req->coord[i][1] = s[t->at[SR_Y]];
   if (t->at[SR_Z] >= 0)
      req->coord[i][2] = s[t->at[SR_Z]];
   if (t->at[SR_ARRAY] >= 0)
      req->layer[i] = s[t->at[SR_ARRAY]];
   if (t->at[SR_SHADOW] >= 0)
      memcpy(&req->ref[i], &s[t->at[SR_SHADOW]], 4);
   if (t->at[SR_OFFSET] >= 0) {
      uint32_t w = s[t->at[SR_OFFSET]];
      for (unsigned k = 0; k < 3; ++k)
         req->offsets[i][k] = (int8_t)(w >> (8 * k));
      /* Byte 2 is the sample of a multisampled (2D) texture. */
      req->sample[i] = (uint8_t)(w >> 16);
      req->level[i] = w >> 24;
   }
   if (t->at[SR_LOD] >= 0) {
      uint32_t w = s[t->at[SR_LOD]];
      req->lod[i] = (float)(int16_t)(w & 0xffff) / 256.0f;
      req->lod_min[i] = (float)(int16_t)(w >> 16) / 256.0f;
   }
}

enum va_sim_result
pan_sim_va_exec_msg_tex(struct pan_sim_va_ctx *c,
                        const struct pan_sim_va_ins *ins)
{
   const struct pan_sim_tex_ops *ops = c->cfg->tex;
   char err[PAN_SIM_TEX_ERR_LEN] = "";
   struct va_tex t;
   enum va_sim_result res;

   if (!decode(c, ins, &t, &res))
      return res;
   if (!ops || !ops->run)
      return pan_sim_va_refuse(c, ins, "textures without texture tables");
   unsigned words = t.req.regfmt == 0 || t.req.regfmt >= 4 ? 2 : 4;

   for (unsigned q = 0; q < PAN_SIM_VA_LANES / 4; ++q) {
      unsigned lanes = (c->exec >> (4 * q)) & 0xf;
      if (!lanes)
         continue;
      unsigned first = 4 * q + (unsigned)__builtin_ctz(lanes);
      /* Handles are uniform in GL: the quad's first running lane's. */
      uint32_t handles = pan_sim_va_src32(c, ins, 0, first);
      t.req.sampler = handles & 0xffff;
      t.req.texture = handles >> 16;
      t.req.lanes = lanes;
      for (unsigned i = 0; i < 4; ++i)
         fill_lane(c, &t, &t.req, i, 4 * q + i);
      if (!ops->run(ops->user, &t.req, err))
         return pan_sim_va_fault(c, ins, "quad %u: %s", q, err);
      for (unsigned i = 0; i < 4; ++i) {
         if ((lanes >> i) & 1)
            memcpy(&c->w->r[4 * q + i][t.dst], t.req.out[i], 4 * words);
      }
   }
   return VA_SIM_OK;
}
