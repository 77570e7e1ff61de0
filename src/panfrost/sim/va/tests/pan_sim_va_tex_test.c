/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Texture messages of the Valhall interpreter against a recording
 * texture unit: what each quad's request holds (handles, dimension,
 * coordinates and the other staging words in their order, LOD, result
 * format) and where the results land.  The sampler itself is tested by
 * test_pan_sim_texture.c.
 */

#include "sim/tests/pan_sim_tex_record.h"
#include "pan_sim_va_test_run.h"

static bool
run(const char *text, struct tex_recorder *rec, struct pan_sim_va_warp *w,
    uint16_t exec, const uint32_t init[16][8], uint32_t handles)
{
   struct test_prog p;
   struct pan_sim_tex_ops ops = { rec, tex_record };
   char prog[512];
   uint32_t uniforms[2] = { handles, 0 };

   snprintf(prog, sizeof(prog), "%s\nnop.end\n", text);
   memset(rec, 0, sizeof(*rec));
   if (!test_assemble(&p, prog))
      return false;
   p.cfg.uniforms = uniforms;
   p.cfg.uniform_words = 2;
   p.cfg.tex = &ops;
   pan_sim_va_warp_init(w, exec);
   for (unsigned l = 0; l < 16; ++l)
      memcpy(w->r[l], init[l], 32);
   enum pan_sim_va_status s = pan_sim_va_run(w, &p.cfg);
   test_prog_free(&p);
   PAN_CHECK(s == PAN_SIM_VA_DONE, "fault: %s", w->fault);
   return s == PAN_SIM_VA_DONE;
}

static void
test_single_explicit(void)
{
   struct tex_recorder rec;
   struct pan_sim_va_warp w;
   uint32_t init[16][8] = { { 0 } };

   /* r0 x, r1 y, r2 LOD 2.5 in 8.8 with a lower clamp of 1.0. */
   for (unsigned l = 0; l < 16; ++l) {
      init[l][0] = pan_test_u32(0.25f * l);
      init[l][1] = pan_test_u32(0.5f);
      init[l][2] = 0x0100u << 16 | 0x0280;
   }
   if (!run("tex_single.slot0.f.r32.2d.explicit {r8:4}, {r0:3}, u0", &rec, &w,
            0x00f3, init, 3u << 16 | 4u << 27 | 5u | 3u << 11))
      return;
   /* Quads 0 and 1 run (lanes 0, 1 and 4..7). */
   PAN_EXPECT_EQ(rec.calls, 2);
   const struct pan_sim_tex_req *q = &rec.req[0];
   PAN_EXPECT_EQ(q->texture, 3u | 4u << 11);
   PAN_EXPECT_EQ(q->sampler, 5u | 3u << 11);
   PAN_EXPECT_EQ(q->dim, PAN_SIM_TEX_2D);
   PAN_EXPECT_EQ(q->op, PAN_SIM_TEX_SAMPLE);
   PAN_EXPECT_EQ(q->lod_mode, PAN_SIM_TEX_LOD_EXPLICIT);
   PAN_EXPECT_EQ(q->regfmt, 1);
   PAN_EXPECT_EQ(q->mask, 0xf);
   PAN_EXPECT_EQ(q->lanes, 0x3);
   PAN_EXPECT_EQ(rec.req[1].lanes, 0xf);
   PAN_EXPECT(q->lod[1] == 2.5f && q->lod_min[1] == 1.0f);
   /* Lanes outside the instruction still give their coordinates (the
    * quad's derivatives). */
   PAN_EXPECT_EQ(q->coord[2][0], init[2][0]);
   PAN_EXPECT_EQ(q->coord[1][1], init[1][1]);
   for (unsigned c = 0; c < 4; ++c) {
      PAN_EXPECT_EQ(w.r[1][8 + c], init[1][0] + 0x100 + c);
      PAN_EXPECT_EQ(w.r[6][8 + c], init[6][0] + 0x200 + c);
   }
   /* Lanes not running keep their registers. */
   PAN_EXPECT_EQ(w.r[2][8], 0);
}

static void
test_fetch_array_offset(void)
{
   struct tex_recorder rec;
   struct pan_sim_va_warp w;
   uint32_t init[16][8] = { { 0 } };

   /* x, y, layer, offsets (-1, 2, 0) with level 3 in the top byte. */
   for (unsigned l = 0; l < 16; ++l) {
      init[l][0] = l;
      init[l][1] = 7;
      init[l][2] = 2;
      init[l][3] = 0x03000000u | 0x02u << 8 | 0xffu;
   }
   if (!run("tex_fetch.slot0.u.r32.2d.array_enable.texel_offset "
            "{r8:4}, {r0:4}, u0",
            &rec, &w, 0x000f, init, 1u << 16))
      return;
   const struct pan_sim_tex_req *q = &rec.req[0];
   PAN_EXPECT_EQ(q->op, PAN_SIM_TEX_FETCH);
   PAN_EXPECT_EQ(q->regfmt, 3);
   PAN_EXPECT(q->array && q->offset);
   PAN_EXPECT_EQ(q->coord[3][0], 3);
   PAN_EXPECT_EQ(q->coord[3][1], 7);
   PAN_EXPECT_EQ(q->layer[0], 2);
   PAN_EXPECT_EQ(q->level[0], 3);
   PAN_EXPECT(q->offsets[0][0] == -1 && q->offsets[0][1] == 2 &&
              q->offsets[0][2] == 0);
   PAN_EXPECT_EQ(q->texture, 1);
}

static void
test_gather_cube_r16(void)
{
   struct tex_recorder rec;
   struct pan_sim_va_warp w;
   uint32_t init[16][8] = { { 0 } };

   /* Cube: face 3 in the top bits of x, x = 0.75 otherwise. */
   for (unsigned l = 0; l < 16; ++l) {
      init[l][0] = (pan_test_u32(0.75f) & 0x1fffffff) | 3u << 29;
      init[l][1] = pan_test_u32(0.5f);
   }
   if (!run("tex_gather.slot0.f.r16.cube.gather4_g {r8:2}, {r0:2}, u0", &rec,
            &w, 0x000f, init, 0))
      return;
   const struct pan_sim_tex_req *q = &rec.req[0];
   PAN_EXPECT_EQ(q->op, PAN_SIM_TEX_GATHER);
   PAN_EXPECT_EQ(q->gather_comp, 1);
   PAN_EXPECT_EQ(q->dim, PAN_SIM_TEX_CUBE);
   PAN_EXPECT_EQ(q->regfmt, 0);
   PAN_EXPECT_EQ(q->face[2], 3);
   PAN_EXPECT_EQ(q->coord[2][0], pan_test_u32(0.75f));
   /* Two registers written, the third untouched. */
   PAN_EXPECT_EQ(w.r[0][8], pan_test_u32(0.75f) + 0);
   PAN_EXPECT_EQ(w.r[0][10], 0);
}

static void
test_refusals(void)
{
   char why[128];
   uint64_t word;
   char err[128];

   /* Without a texture unit the messages are refused, they do not
    * crash. */
   struct test_prog p;
   struct pan_sim_va_warp w;
   if (test_assemble(&p, "tex_single.slot0.f.r32.2d.zero {r8:4}, {r0:2}, u0\n"
                         "nop.end\n")) {
      uint32_t u[2] = { 0, 0 };
      p.cfg.uniforms = u;
      p.cfg.uniform_words = 2;
      pan_sim_va_warp_init(&w, 1);
      PAN_EXPECT(pan_sim_va_run(&w, &p.cfg) == PAN_SIM_VA_FAULT);
      PAN_EXPECT_STR_HAS(w.fault, "texture tables");
      test_prog_free(&p);
   }
   /* Gradient descriptors are refused from the word alone. */
   PAN_CHECK(pan_va_assemble_line(
                "tex_single.slot0.f.r32.2d.grdesc {r8:4}, {r0:4}, u0", &word,
                err, sizeof(err)) == 1,
             "%s", err);
   PAN_EXPECT(!pan_sim_va_implemented(word, why, sizeof(why)));
   PAN_EXPECT_STR_HAS(why, "gradient");
   PAN_CHECK(pan_va_assemble_line(
                "tex_single.slot0.f.r32.2d.computed {r8:4}, {r0:2}, u0", &word,
                err, sizeof(err)) == 1,
             "%s", err);
   PAN_EXPECT(!pan_sim_va_implemented(word, why, sizeof(why)));
   PAN_EXPECT_STR_HAS(why, "texture tables");
}

int
main(void)
{
   PAN_RUN_CASE(test_single_explicit);
   PAN_RUN_CASE(test_fetch_array_offset);
   PAN_RUN_CASE(test_gather_cube_r16);
   PAN_RUN_CASE(test_refusals);
   return pan_test_summary("pan_sim_va_tex");
}
