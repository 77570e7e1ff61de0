/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Texture messages of the Bifrost interpreter against a recording texture
 * unit: what each quad's request holds (indices, dimension, LOD mode, the
 * staging words a TEXC descriptor implies, in their order) and where the
 * results land.  The sampler itself is tested by test_pan_sim_texture.c.
 */

#include <stdio.h>

#include "pan_sim_bi_gfx.h"
#include "pan_sim_bi_test_run.h"
#include "sim/tests/pan_sim_tex_record.h"

/* A fragment-like gfx: varying v of lane l is (l + v, 2 l) as floats. */
static bool
ld_var(void *user, unsigned lane, unsigned index, bool flat,
       enum pan_sim_regfmt regfmt, unsigned comps, uint32_t out[4],
       char *err)
{
   (void)user, (void)flat, (void)err;
   if (regfmt != PAN_SIM_REG_F32 || comps != 2)
      return false;
   out[0] = pan_test_u32((float)(lane + index));
   out[1] = pan_test_u32((float)(2 * lane));
   return true;
}

static bool
blend(void *user, unsigned lane, uint64_t d, uint32_t cov, const uint32_t in[4],
      struct pan_sim_bi_blend_call *call, char *err)
{
   (void)user, (void)lane, (void)d, (void)cov, (void)in, (void)call, (void)err;
   return true;
}

static const struct pan_sim_bi_gfx fragment_gfx = {
   .ld_var = ld_var,
   .blend = blend,
};

static struct tex_recorder rec;
static struct pan_sim_tex_ops ops = { &rec, tex_record };

static bool
run(struct bi_test_prog *p, struct pan_sim_bi_warp *w, uint16_t exec,
    bool fragment)
{
   p->cfg.tex = &ops;
   p->cfg.gfx = fragment ? &fragment_gfx : NULL;
   memset(&rec, 0, sizeof(rec));
   enum pan_sim_bi_status s = pan_sim_bi_run(w, &p->cfg);
   PAN_CHECK(s == PAN_SIM_BI_DONE, "fault: %s", w->fault);
   return s == PAN_SIM_BI_DONE;
}

static void
test_texs_2d(void)
{
   struct bi_test_prog p;
   struct pan_sim_bi_warp w;

   if (!bi_test_assemble(&p, "clause sr=8 msg=tex\n"
                             "    nop t0 | texs_2d.f32.computed_lod t1, r0, "
                             "r1, texture_index:5, sampler_index:3 | p0=r0 "
                             "p1=r1\n"))
      return;
   pan_sim_bi_warp_init(&w, 0xf0);
   for (unsigned l = 0; l < 8; ++l) {
      w.r[l][0] = pan_test_u32(0.125f * l);
      w.r[l][1] = pan_test_u32(1.0f);
   }
   if (!run(&p, &w, 0xf0, true))
      return;
   PAN_EXPECT_EQ(rec.calls, 1); /* quad 0 has no running lane */
   const struct pan_sim_tex_req *q = &rec.req[0];
   PAN_EXPECT_EQ(q->texture, 5);
   PAN_EXPECT_EQ(q->sampler, 3);
   PAN_EXPECT_EQ(q->dim, PAN_SIM_TEX_2D);
   PAN_EXPECT_EQ(q->lod_mode, PAN_SIM_TEX_LOD_COMPUTE);
   PAN_EXPECT_EQ(q->regfmt, 1);
   PAN_EXPECT_EQ(q->lanes, 0xf);
   PAN_EXPECT_EQ(q->coord[3][0], pan_test_u32(0.875f));
   for (unsigned c = 0; c < 4; ++c)
      PAN_EXPECT_EQ(w.r[6][8 + c], pan_test_u32(0.75f) + 0x200 + c);
   PAN_EXPECT_EQ(w.r[1][8], 0);

   /* Outside fragment shaders there are no derivatives: LOD zero. */
   pan_sim_bi_warp_init(&w, 0x0f);
   if (run(&p, &w, 0x0f, false))
      PAN_EXPECT_EQ(rec.req[0].lod_mode, PAN_SIM_TEX_LOD_ZERO);
}

static uint32_t
texc_single(unsigned op, unsigned lod, unsigned dim, bool shadow, bool array,
            bool offset, unsigned fmt, bool immediate, unsigned smp_or_mode,
            unsigned index)
{
   return smp_or_mode | index << 4 | (uint32_t)immediate << 11 | op << 12 |
          (uint32_t)offset << 15 | (uint32_t)shadow << 16 |
          (uint32_t)array << 17 | dim << 18 | lod << 20 | fmt << 24 |
          0xfu << 28;
}

static const char texc_prog[] = "clause sr=4 msg=tex\n"
                                "    nop t0 | texc t1, r0, r1, u0.w0 | "
                                "p0=r0 p1=r1 fau=u0\n";

static void
test_texc_explicit_shadow_array(void)
{
   struct bi_test_prog p;
   struct pan_sim_bi_warp w;

   if (!bi_test_assemble(&p, texc_prog))
      return;
   /* Sample, explicit LOD, 2D shadow array, f16 results, immediate
    * sampler 2 and texture 9: staging LOD, shadow, array. */
   p.uniforms[0] = texc_single(7, 4, 2, true, true, false, 0, true, 2, 9);
   pan_sim_bi_warp_init(&w, 0xff);
   for (unsigned l = 0; l < 8; ++l) {
      w.r[l][0] = pan_test_u32(0.5f);
      w.r[l][1] = pan_test_u32(0.25f);
      w.r[l][4] = 0xff80; /* -0.5 in 8.8 */
      w.r[l][5] = pan_test_u32(0.75f);
      w.r[l][6] = l;
   }
   if (!run(&p, &w, 0xff, true))
      return;
   PAN_EXPECT_EQ(rec.calls, 2);
   const struct pan_sim_tex_req *q = &rec.req[1];
   PAN_EXPECT_EQ(q->op, PAN_SIM_TEX_SAMPLE);
   PAN_EXPECT_EQ(q->lod_mode, PAN_SIM_TEX_LOD_EXPLICIT);
   PAN_EXPECT(q->lod[0] == -0.5f);
   PAN_EXPECT(q->shadow && q->array);
   PAN_EXPECT(q->ref[2] == 0.75f);
   PAN_EXPECT_EQ(q->layer[2], 6);
   PAN_EXPECT_EQ(q->sampler, 2);
   PAN_EXPECT_EQ(q->texture, 9);
   PAN_EXPECT_EQ(q->regfmt, 0);
   /* f16 results: two registers, written over the staging words. */
   PAN_EXPECT_EQ(w.r[5][4], pan_test_u32(0.5f) + 0x100);
   PAN_EXPECT_EQ(w.r[5][5], pan_test_u32(0.5f) + 0x101);
   PAN_EXPECT_EQ(w.r[5][6], 5);
}

static void
test_texc_fetch_3d_registers(void)
{
   struct bi_test_prog p;
   struct pan_sim_bi_warp w;

   if (!bi_test_assemble(&p, texc_prog))
      return;
   /* Fetch of a 3D texture, u32 results, both indices from registers:
    * staging z, level (8.8), offsets, sampler, texture. */
   p.uniforms[0] =
      texc_single(6, 1, 3, false, false, true, 14, false, 3 | 3 << 2, 0);
   pan_sim_bi_warp_init(&w, 0x0f);
   for (unsigned l = 0; l < 4; ++l) {
      w.r[l][0] = l;
      w.r[l][1] = 2;
      w.r[l][4] = 3;        /* z */
      w.r[l][5] = 2 << 8;   /* level 2 */
      w.r[l][6] = 0x00fe01; /* offsets 1, -2, 0 */
      w.r[l][7] = 4;        /* sampler */
      w.r[l][8] = 11;       /* texture */
   }
   if (!run(&p, &w, 0x0f, false))
      return;
   const struct pan_sim_tex_req *q = &rec.req[0];
   PAN_EXPECT_EQ(q->op, PAN_SIM_TEX_FETCH);
   PAN_EXPECT_EQ(q->dim, PAN_SIM_TEX_3D);
   PAN_EXPECT_EQ(q->coord[1][0], 1);
   PAN_EXPECT_EQ(q->coord[1][2], 3);
   PAN_EXPECT_EQ(q->level[1], 2);
   PAN_EXPECT(q->offsets[1][0] == 1 && q->offsets[1][1] == -2);
   PAN_EXPECT_EQ(q->sampler, 4);
   PAN_EXPECT_EQ(q->texture, 11);
   PAN_EXPECT_EQ(q->regfmt, 3);
   for (unsigned c = 0; c < 4; ++c)
      PAN_EXPECT_EQ(w.r[3][4 + c], 3 + 0x300 + c);

   /* Gradient descriptors are refused with a fault naming them. */
   p.uniforms[0] = texc_single(5, 7, 2, false, false, false, 4, true, 0, 0);
   pan_sim_bi_warp_init(&w, 0x0f);
   p.cfg.tex = &ops;
   PAN_EXPECT(pan_sim_bi_run(&w, &p.cfg) == PAN_SIM_BI_FAULT);
   PAN_EXPECT_STR_HAS(w.fault, "gradient");
}

static void
test_texc_dual(void)
{
   struct bi_test_prog p;
   struct pan_sim_bi_warp w;

   if (!bi_test_assemble(&p, texc_prog))
      return;
   /* Primary sampler 1 texture 2 (f32), secondary sampler 3 texture 0
    * (f16) into r20. */
   p.uniforms[0] = 1 | 1u << 2 | 2u << 4 | 3u << 6 | 0u << 8 | 20u << 12 |
                   0u << 18 | 0xfu << 21 | 4u << 25 | 0xfu << 28;
   pan_sim_bi_warp_init(&w, 0x0f);
   for (unsigned l = 0; l < 4; ++l)
      w.r[l][0] = 0x1000 * l;
   if (!run(&p, &w, 0x0f, true))
      return;
   PAN_EXPECT_EQ(rec.calls, 2);
   PAN_EXPECT(rec.req[0].sampler == 1 && rec.req[0].texture == 2 &&
              rec.req[0].regfmt == 1);
   PAN_EXPECT(rec.req[1].sampler == 3 && rec.req[1].texture == 0 &&
              rec.req[1].regfmt == 0);
   PAN_EXPECT_EQ(w.r[2][4 + 3], 0x2000 + 0x200 + 3);
   PAN_EXPECT_EQ(w.r[2][20 + 1], 0x2000 + 0x200 + 1);
   PAN_EXPECT_EQ(w.r[2][20 + 2], 0);
}

static void
test_var_tex(void)
{
   struct bi_test_prog p;
   struct pan_sim_bi_warp w;

   if (!bi_test_assemble(&p, "clause sr=8 msg=vartex\n"
                             "    nop t0 | var_tex.f32 t1, varying_index:3, "
                             "texture_index:2\n"))
      return;
   pan_sim_bi_warp_init(&w, 0x0f);
   if (!run(&p, &w, 0x0f, true))
      return;
   const struct pan_sim_tex_req *q = &rec.req[0];
   PAN_EXPECT(q->texture == 2 && q->sampler == 2);
   PAN_EXPECT_EQ(q->coord[1][0], pan_test_u32(4.0f));
   PAN_EXPECT_EQ(q->coord[1][1], pan_test_u32(2.0f));
   PAN_EXPECT_EQ(w.r[1][8], pan_test_u32(4.0f) + 0x100);

   /* The message preload does the same before the shader. */
   struct pan_sim_bi_warp w2;
   char err[128] = "";
   pan_sim_bi_warp_init(&w2, 0x0f);
   memset(&rec, 0, sizeof(rec));
   PAN_CHECK(pan_sim_bi_var_tex_preload(&w2, &p.cfg, 0x0f, 3, 2, false, false,
                                        4, err, sizeof(err)),
             "%s", err);
   PAN_EXPECT_EQ(w2.r[1][4], w.r[1][8]);
   PAN_EXPECT_EQ(w2.r[3][7], w.r[3][11]);

   /* Without a texture unit: a fault, not a crash. */
   p.cfg.tex = NULL;
   pan_sim_bi_warp_init(&w, 0x0f);
   PAN_EXPECT(pan_sim_bi_run(&w, &p.cfg) == PAN_SIM_BI_FAULT);
   PAN_EXPECT_STR_HAS(w.fault, "no textures");
}

int
main(void)
{
   PAN_RUN_CASE(test_texs_2d);
   PAN_RUN_CASE(test_texc_explicit_shadow_array);
   PAN_RUN_CASE(test_texc_fetch_3d_registers);
   PAN_RUN_CASE(test_texc_dual);
   PAN_RUN_CASE(test_var_tex);
   return pan_test_summary("pan_sim_bi_tex");
}
