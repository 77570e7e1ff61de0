/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Texture messages of the Bifrost interpreter.  Each instruction is
 * decoded into a pan_sim_tex_req per 2x2 quad of the warp (lanes 4q to
 * 4q + 3, so that the sampler sees the quad's derivatives) and run by the
 * executor's pan_sim_tex_ops (the config's `tex`); without it they fault.
 *
 *    TEXS_2D.f16/f32    x, y in sources 0 and 1; texture and sampler
 *                       indices and the LOD mode (computed or zero) in
 *                       the word
 *    TEXS_CUBE.f16/f32  s, t and the pre-shifted face in sources 0..2,
 *                       computed LOD
 *    TEXC               sources 0 and 1 the x and y coordinates (the cube
 *                       face in bits 29..31 of x), source 2 the 32-bit
 *                       texture operation descriptor; the staging
 *                       registers the descriptor asks for are read from
 *                       the clause's data register on, in this order:
 *                       z, LOD (8.8 fixed point; fetches: the level in
 *                       bits 8..15), shadow reference, array layer,
 *                       offsets (s8 x, y, z; bits 24..31 the sample of
 *                       a multisampled fetch), sampler index, texture
 *                       index.  The result overwrites them.
 *    VAR_TEX.f16/f32    the varying (two binary32 components) at the
 *                       lane's pixel, then TEXS_2D with one index for
 *                       texture and sampler
 *
 * The texture operation descriptor (single): bits 0..3 the sampler index
 * when bit 11 (immediate indices) is set, else the index mode (bits 0..1:
 * both immediate and shared, sampler immediate, texture immediate, both
 * from registers) and 3 in bits 2..3; bits 4..10 the immediate index;
 * 12..14 the operation (7 sample, 6 fetch; the gradient descriptor
 * operations 4 and 5 are refused); 15 offsets present; 16 shadow; 17
 * array; 18..19 the dimension; 20..22 the LOD mode (4 explicit, 5 bias, 6
 * zero, 7 computed; gradient descriptors refused) or, for a fetch, the
 * texel (1) or gather component (4..7); 24..27 the result format (0..3
 * f16 plain/>=0/[-1,1]/[0,1], 4..7 the same in f32, 12 u16, 13 s16,
 * 14 u32, 15 s32); 28..31 the component mask.  With 1 in bits 2..3 and
 * bit 11 clear it is a dual descriptor: two 2D samples at the same
 * coordinates, primary sampler/texture in bits 0..1 and 4..5, secondary in
 * 6..7 and 8..9, the secondary's first register in 12..17, formats
 * (0..7 as above) and masks in 18..20/21..24 (secondary) and 25..27/28..31
 * (primary).
 */

#include <stdio.h>
#include <string.h>

#include "pan_sim_bi_priv.h"
#include "pan_sim_texture.h"

static bool
claims(const struct pan_sim_bi_ins *ins)
{
   return ins->sem->family == BI_FAM_TEX;
}

static unsigned
staging_reg(const struct pan_sim_bi_ctx *c)
{
   return (unsigned)(c->clause->header >> 18) & 63;
}

/* Fragment shaders compute LODs from their quads; other stages have no
 * derivatives. */
static bool
is_fragment(const struct pan_sim_bi_ctx *c)
{
   return c->cfg->gfx && c->cfg->gfx->blend;
}

/* Source s of a quad lane, also for lanes not running this clause (their
 * registers still hold what they last computed, which is what the
 * neighbours' derivatives see). */
static uint32_t
quad_src(const struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins,
         unsigned s, unsigned lane, unsigned fallback)
{
   if (c->exec & (1u << lane))
      return pan_sim_bi_src(c, ins, s, lane);
   unsigned sel = (ins->word >> ins->op->srcs[s]) & 7;
   if (sel <= 2 && c->blk.read[sel] >= 0)
      return c->w->r[lane][c->blk.read[sel]];
   return pan_sim_bi_src(c, ins, s, fallback);
}

static unsigned
first_lane(unsigned mask)
{
   return (unsigned)__builtin_ctz(mask);
}

/* Result format of a descriptor's 4-bit field. */
static bool
result_format(unsigned f, struct pan_sim_tex_req *req)
{
   static const unsigned ints[4] = { 5, 4, 3, 2 }; /* u16 s16 u32 s32 */
   if (f <= 7) {
      req->regfmt = f >= 4 ? 1 : 0;
      req->clamp = (enum pan_sim_tex_clamp)(f & 3);
      return true;
   }
   if (f >= 12) {
      req->regfmt = ints[f - 12];
      req->clamp = PAN_SIM_TEX_CLAMP_NONE;
      return true;
   }
   return false;
}

static unsigned
result_words(const struct pan_sim_tex_req *req)
{
   return req->regfmt == 0 || req->regfmt >= 4 ? 2 : 4;
}

/* Set the inputs of quad lane i (warp lane `lane`, fb: the quad's first
 * running lane); state: what the instruction decoded. */
typedef enum bi_sim_result (*fill_fn)(struct pan_sim_bi_ctx *c,
                                      const struct pan_sim_bi_ins *ins,
                                      const void *state,
                                      struct pan_sim_tex_req *req, unsigned i,
                                      unsigned lane, unsigned fb);

/* Run the request quad by quad: `fill` sets the per-lane inputs of every
 * lane of the quad, the results go to `dst` on (and, for a dual
 * operation, the second request's to dst2). */
static enum bi_sim_result
run_quads(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins,
          struct pan_sim_tex_req *req, fill_fn fill, const void *state,
          unsigned dst, struct pan_sim_tex_req *req2, unsigned dst2)
{
   const struct pan_sim_tex_ops *ops = c->cfg->tex;
   char err[PAN_SIM_TEX_ERR_LEN] = "";

   if (!ops || !ops->run)
      return pan_sim_bi_fault(c, ins, "no textures here");
   if (pan_sim_bi_staging_ok(c, ins, dst, result_words(req)) ||
       (req2 && pan_sim_bi_staging_ok(c, ins, dst2, result_words(req2))))
      return BI_SIM_FAULT;

   for (unsigned q = 0; q * 4 < c->lanes; ++q) {
      unsigned lanes = (c->exec >> (4 * q)) & 0xf;
      if (!lanes)
         continue;
      unsigned fallback = 4 * q + first_lane(lanes);
      for (unsigned i = 0; i < 4; ++i) {
         unsigned lane = 4 * q + i < c->lanes ? 4 * q + i : fallback;
         enum bi_sim_result r = fill(c, ins, state, req, i, lane, fallback);
         if (r != BI_SIM_OK)
            return r;
      }
      req->lanes = lanes;
      if (!ops->run(ops->user, req, err))
         return pan_sim_bi_fault(c, ins, "quad %u: %s", q, err);
      if (req2) {
         memcpy(req2->coord, req->coord, sizeof(req->coord));
         req2->lanes = lanes;
         if (!ops->run(ops->user, req2, err))
            return pan_sim_bi_fault(c, ins, "quad %u: %s", q, err);
      }
      for (unsigned i = 0; i < 4; ++i) {
         if (!((lanes >> i) & 1))
            continue;
         memcpy(&c->w->r[4 * q + i][dst], req->out[i], 4 * result_words(req));
         if (req2)
            memcpy(&c->w->r[4 * q + i][dst2], req2->out[i],
                   4 * result_words(req2));
      }
   }
   return BI_SIM_OK;
}

/* ---- TEXS_2D, TEXS_CUBE ---- */

static enum bi_sim_result
fill_texs(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins,
          const void *state, struct pan_sim_tex_req *req, unsigned i,
          unsigned lane, unsigned fb)
{
   (void)state;
   req->coord[i][0] = quad_src(c, ins, 0, lane, fb);
   req->coord[i][1] = quad_src(c, ins, 1, lane, fb);
   if (req->dim == PAN_SIM_TEX_CUBE)
      req->face[i] = quad_src(c, ins, 2, lane, fb) >> 29;
   return BI_SIM_OK;
}

static void
simple_req(struct pan_sim_tex_req *req, bool f16, bool zero_lod)
{
   memset(req, 0, sizeof(*req));
   req->op = PAN_SIM_TEX_SAMPLE;
   req->dim = PAN_SIM_TEX_2D;
   req->regfmt = f16 ? 0 : 1;
   req->mask = 0xf;
   req->lod_mode = zero_lod ? PAN_SIM_TEX_LOD_ZERO : PAN_SIM_TEX_LOD_COMPUTE;
}

static bool
is_f16(const struct pan_sim_bi_ins *ins)
{
   return strstr(ins->op->name, ".f16") != NULL;
}

static enum bi_sim_result
exec_texs(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins)
{
   struct pan_sim_tex_req req;
   bool cube = !strncmp(ins->op->name, "texs_cube", 9);
   bool zero =
      cube ? !is_fragment(c)
           : pan_sim_bi_mod_is(ins, "lod_mode", "zero_lod") || !is_fragment(c);

   simple_req(&req, is_f16(ins), zero);
   if (cube)
      req.dim = PAN_SIM_TEX_CUBE;
   req.texture = (uint32_t)pan_sim_bi_imm(ins, "texture_index");
   req.sampler = (uint32_t)pan_sim_bi_imm(ins, "sampler_index");
   return run_quads(c, ins, &req, fill_texs, NULL, staging_reg(c), NULL, 0);
}

/* ---- VAR_TEX ---- */

/* state: the varying index. */
static enum bi_sim_result
fill_var_tex(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins,
             const void *state, struct pan_sim_tex_req *req, unsigned i,
             unsigned lane, unsigned fb)
{
   (void)fb;
   const struct pan_sim_bi_gfx *g = c->cfg->gfx;
   char err[PAN_SIM_BI_GFX_ERR_LEN] = "";
   uint32_t v[4] = { 0 };
   unsigned index = *(const unsigned *)state;

   if (!g->ld_var(g->user, lane, index, false, PAN_SIM_REG_F32, 2, v, err))
      return pan_sim_bi_fault(c, ins, "lane %u: %s", lane, err);
   req->coord[i][0] = v[0];
   req->coord[i][1] = v[1];
   return BI_SIM_OK;
}

static enum bi_sim_result
exec_var_tex(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins)
{
   struct pan_sim_tex_req req;
   unsigned varying = (unsigned)pan_sim_bi_imm(ins, "varying_index");

   if (!c->cfg->gfx || !c->cfg->gfx->ld_var)
      return pan_sim_bi_fault(c, ins, "no varyings here");
   simple_req(&req, is_f16(ins),
              pan_sim_bi_mod_is(ins, "lod_mode", "zero_lod"));
   req.texture = req.sampler = (uint32_t)pan_sim_bi_imm(ins, "texture_index");
   return run_quads(c, ins, &req, fill_var_tex, &varying, staging_reg(c), NULL,
                    0);
}

bool
pan_sim_bi_var_tex_preload(struct pan_sim_bi_warp *w,
                           const struct pan_sim_bi_config *cfg, uint16_t lanes,
                           unsigned varying, unsigned texture, bool f16,
                           bool zero_lod, unsigned dst, char *err,
                           unsigned err_len)
{
   struct pan_sim_bi_ctx c = {
      .w = w,
      .cfg = cfg,
      .lanes = cfg->lanes ? cfg->lanes : PAN_SIM_BI_LANES_G52,
      .exec = lanes,
   };
   struct pan_sim_tex_req req;

   if (!cfg->gfx || !cfg->gfx->ld_var) {
      snprintf(err, err_len, "VAR_TEX preload without varyings");
      return false;
   }
   simple_req(&req, f16, zero_lod);
   req.texture = req.sampler = texture;
   if (run_quads(&c, NULL, &req, fill_var_tex, &varying, dst, NULL, 0) !=
       BI_SIM_OK) {
      snprintf(err, err_len, "%s", w->fault);
      return false;
   }
   return true;
}

/* ---- TEXC ---- */

/* Staging words of a single descriptor, in register order. */
enum texc_sr {
   SR_Z,
   SR_LOD,
   SR_SHADOW,
   SR_ARRAY,
   SR_OFFSET,
   SR_SAMPLER,
   SR_TEXTURE,
   SR_COUNT,
};

struct texc {
   uint32_t desc;
   int at[SR_COUNT]; /* register offset from sr, -1 absent */
   unsigned count;
};

static unsigned
bits(uint32_t v, unsigned lo, unsigned n)
{
   return (v >> lo) & ((1u << n) - 1);
}

static enum bi_sim_result
texc_single(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins,
            uint32_t desc, struct pan_sim_tex_req *req, struct texc *tc)
{
   unsigned op = bits(desc, 12, 3), lod = bits(desc, 20, 3);
   bool immediate = bits(desc, 11, 1);
   unsigned mode = bits(desc, 0, 2);

   memset(req, 0, sizeof(*req));
   memset(tc->at, -1, sizeof(tc->at));
   tc->desc = desc;
   if (op != 6 && op != 7)
      return pan_sim_bi_fault(c, ins,
                              "texture operation %u (gradient "
                              "descriptors) is not modelled",
                              op);
   if (!immediate && bits(desc, 2, 2) != 3)
      return pan_sim_bi_fault(c, ins,
                              "texture operation descriptor 0x%08x "
                              "has no known index mode",
                              desc);
   req->dim = (enum pan_sim_tex_dim)bits(desc, 18, 2);
   req->offset = bits(desc, 15, 1);
   req->shadow = bits(desc, 16, 1);
   req->array = bits(desc, 17, 1);
   req->mask = bits(desc, 28, 4);
   if (!result_format(bits(desc, 24, 4), req))
      return pan_sim_bi_fault(c, ins, "texture result format %u",
                              bits(desc, 24, 4));

   bool has_lod = false;
   if (op == 7) {
      req->op = PAN_SIM_TEX_SAMPLE;
      switch (lod) {
      case 4:
         req->lod_mode = PAN_SIM_TEX_LOD_EXPLICIT;
         has_lod = true;
         break;
      case 5:
         req->lod_mode = PAN_SIM_TEX_LOD_BIAS;
         has_lod = true;
         break;
      case 6:
         req->lod_mode = PAN_SIM_TEX_LOD_ZERO;
         break;
      case 7:
         req->lod_mode =
            is_fragment(c) ? PAN_SIM_TEX_LOD_COMPUTE : PAN_SIM_TEX_LOD_ZERO;
         break;
      default:
         return pan_sim_bi_fault(c, ins, "LOD mode %u is not modelled", lod);
      }
   } else {
      has_lod = true; /* the level, always given */
      if (lod == 1) {
         req->op = PAN_SIM_TEX_FETCH;
      } else if (lod >= 4) {
         req->op = PAN_SIM_TEX_GATHER;
         req->gather_comp = lod - 4;
      } else {
         return pan_sim_bi_fault(c, ins, "fetch mode %u is not modelled", lod);
      }
   }

   /* Registers in their fixed order, those absent skipped. */
   bool present[SR_COUNT] = {
      [SR_Z] = req->dim == PAN_SIM_TEX_3D,
      [SR_LOD] = has_lod,
      [SR_SHADOW] = req->shadow,
      [SR_ARRAY] = req->array,
      [SR_OFFSET] = req->offset,
      [SR_SAMPLER] = !immediate && (mode == 2 || mode == 3),
      [SR_TEXTURE] = !immediate && (mode == 1 || mode == 3),
   };
   tc->count = 0;
   for (unsigned k = 0; k < SR_COUNT; ++k) {
      if (present[k])
         tc->at[k] = (int)tc->count++;
   }
   if (immediate) {
      req->sampler = bits(desc, 0, 4);
      req->texture = bits(desc, 4, 7);
   } else {
      req->sampler = req->texture = bits(desc, 4, 7);
   }
   return BI_SIM_OK;
}

static enum bi_sim_result
fill_texc(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins,
          const void *state, struct pan_sim_tex_req *req, unsigned i,
          unsigned lane, unsigned fb)
{
   const struct texc *tc = state;
   const uint32_t *s = c->w->r[lane] + staging_reg(c);
   uint32_t x = quad_src(c, ins, 0, lane, fb);

   if (req->dim == PAN_SIM_TEX_CUBE) {
      req->face[i] = x >> 29;
      /* s lies in [0, 1]: its top three bits are those of 1.0. */
      x = (x & 0x1fffffff) | 0x20000000;
   }
   req->coord[i][0] = x;
   req->coord[i][1] = quad_src(c, ins, 1, lane, fb);
   if (tc->at[SR_Z] >= 0)
      req->coord[i][2] = s[tc->at[SR_Z]];
   if (tc->at[SR_LOD] >= 0) {
      uint32_t w = s[tc->at[SR_LOD]];
      req->lod[i] = (float)(int16_t)(w & 0xffff) / 256.0f;
      req->lod_min[i] = (float)(int16_t)(w >> 16) / 256.0f;
      req->level[i] = (w & 0xffff) >> 8;
   }
   if (tc->at[SR_SHADOW] >= 0)
      memcpy(&req->ref[i], &s[tc->at[SR_SHADOW]], 4);
   if (tc->at[SR_ARRAY] >= 0)
      req->layer[i] = s[tc->at[SR_ARRAY]];
   if (tc->at[SR_OFFSET] >= 0) {
      uint32_t w = s[tc->at[SR_OFFSET]];
      for (unsigned k = 0; k < 3; ++k)
         req->offsets[i][k] = (int8_t)(w >> (8 * k));
      req->sample[i] = (uint8_t)(w >> 24); /* multisampled fetches */
   }
   /* Indices from registers are uniform in GL; the quad's first running
    * lane decides. */
   if (lane == fb) {
      if (tc->at[SR_SAMPLER] >= 0)
         req->sampler = s[tc->at[SR_SAMPLER]];
      if (tc->at[SR_TEXTURE] >= 0)
         req->texture = s[tc->at[SR_TEXTURE]];
   }
   return BI_SIM_OK;
}

/* Dual descriptor: primary and secondary 2D samples. */
static enum bi_sim_result
texc_dual(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins,
          uint32_t desc, struct pan_sim_tex_req *req,
          struct pan_sim_tex_req *req2, unsigned *dst2)
{
   bool zero = !is_fragment(c);
   if (bits(desc, 10, 2))
      return pan_sim_bi_fault(c, ins,
                              "dual texture descriptor 0x%08x with "
                              "reserved bits set",
                              desc);
   simple_req(req, false, zero);
   simple_req(req2, false, zero);
   req->sampler = bits(desc, 0, 2);
   req->texture = bits(desc, 4, 2);
   req2->sampler = bits(desc, 6, 2);
   req2->texture = bits(desc, 8, 2);
   *dst2 = bits(desc, 12, 6);
   result_format(bits(desc, 18, 3), req2);
   result_format(bits(desc, 25, 3), req);
   req2->mask = bits(desc, 21, 4);
   req->mask = bits(desc, 28, 4);
   return BI_SIM_OK;
}

static enum bi_sim_result
exec_texc(struct pan_sim_bi_ctx *c, const struct pan_sim_bi_ins *ins)
{
   struct pan_sim_tex_req req, req2;
   struct texc tc;
   unsigned sr = staging_reg(c);
   enum bi_sim_result r;

   /* The descriptor is uniform (a constant in practice). */
   unsigned l0 = first_lane(c->exec);
   uint32_t desc = pan_sim_bi_src(c, ins, 2, l0);
   bi_foreach_lane(c, l)
   {
      if (pan_sim_bi_src(c, ins, 2, l) != desc)
         return pan_sim_bi_fault(c, ins,
                                 "texture operation descriptor "
                                 "differs between lanes");
   }
   if (!bits(desc, 11, 1) && bits(desc, 2, 2) == 1) {
      unsigned dst2 = 0;
      memset(tc.at, -1, sizeof(tc.at));
      if ((r = texc_dual(c, ins, desc, &req, &req2, &dst2)) != BI_SIM_OK)
         return r;
      return run_quads(c, ins, &req, fill_texc, &tc, sr, &req2, dst2);
   }
   if ((r = texc_single(c, ins, desc, &req, &tc)) != BI_SIM_OK)
      return r;
   if (pan_sim_bi_staging_ok(c, ins, sr, tc.count))
      return BI_SIM_FAULT;
   return run_quads(c, ins, &req, fill_texc, &tc, sr, NULL, 0);
}

enum bi_sim_result
pan_sim_bi_exec_msg_tex(struct pan_sim_bi_ctx *c,
                        const struct pan_sim_bi_ins *ins)
{
   if (!claims(ins))
      return BI_SIM_UNCLAIMED;
   if (!c)
      return BI_SIM_OK;
   if (!strcmp(ins->op->name, "texc"))
      return exec_texc(c, ins);
   if (!strncmp(ins->op->name, "var_tex", 7))
      return exec_var_tex(c, ins);
   return exec_texs(c, ins);
}
