/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Inputs and outputs shared by va-diff-run and bi-diff-run (see
 * diff_run_inputs.h and the model at the top of va_diff_run.c).
 */

#include "diff_run_inputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pan_sim_fp.h"

#define MAX_SYSVALS 64
#define MAX_PROGRAM_B (1u << 20)

/* System value types of the stock layout (numbered as its sysval enum). */
enum { SYSVAL_VIEWPORT_SCALE = 1, SYSVAL_VIEWPORT_OFFSET = 2,
       SYSVAL_TEXTURE_SIZE = 3, SYSVAL_VERTEX_INSTANCE_OFFSETS = 14 };
/* Sources of our push table (enum pan_va_push_source). */
enum { PUSH_UBO, PUSH_VIEWPORT_SCALE, PUSH_VIEWPORT_OFFSET,
       PUSH_TEXTURE_SIZE, PUSH_CONSTANT };

const float diff_vp_scale[3] = { 64, -48, 0.5 };
const float diff_vp_offset[3] = { 64, 48, 0.5 };

uint64_t diff_seed;
char diff_unmodelled[128];
uint32_t diff_uniforms[DIFF_MAX_PUSH];
unsigned diff_nr_uniforms;
unsigned diff_work_regs[2];

static int sysval_ubo = -1;
static unsigned sysvals[MAX_SYSVALS][2], nr_sysvals;

/* Vertex outputs: words stored per lane, packet sub-slot and word. */
static uint32_t out_words[DIFF_LANES][DIFF_SUB_SLOTS][1024];
static uint8_t out_set[DIFF_LANES][DIFF_SUB_SLOTS][1024];

struct colour {
   unsigned lane, rt;
   enum pan_sim_regfmt fmt;
   uint32_t v[4];
};
static struct colour colours[DIFF_LANES * DIFF_MAX_RTS * 4];
static unsigned nr_colours;

static uint64_t
mix(uint64_t x)
{
   x += 0x9e3779b97f4a7c15ull;
   x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
   x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
   return x ^ (x >> 31);
}

static uint64_t
draw(unsigned kind, uint64_t a, uint64_t b)
{
   return mix(diff_seed ^ mix((uint64_t)kind << 56 ^ a << 24 ^ b));
}

/* A multiple of 1/64 in [-4, 4): exact in binary16 as well. */
static float
small_float(uint64_t r)
{
   return (float)((int)(r % 512) - 256) / 64.0f;
}

uint32_t
diff_ubo_word(unsigned ubo, uint32_t offset)
{
   if ((int)ubo == sysval_ubo) {
      unsigned i = offset / 16, c = offset % 16 / 4;
      unsigned type = i < nr_sysvals ? sysvals[i][0] : 0;
      if (type == SYSVAL_VIEWPORT_SCALE && c < 3)
         return pan_sim_fp_u32(diff_vp_scale[c]);
      if (type == SYSVAL_VIEWPORT_OFFSET && c < 3)
         return pan_sim_fp_u32(diff_vp_offset[c]);
      if (type == SYSVAL_TEXTURE_SIZE)
         return c < 3 ? DIFF_TEX_SIZE : 0;
      if (type == SYSVAL_VERTEX_INSTANCE_OFFSETS || c == 3)
         return 0;
      if (!diff_unmodelled[0])
         snprintf(diff_unmodelled, sizeof(diff_unmodelled),
                  "system value type %u", type);
      return 0;
   }
   return pan_sim_fp_u32(small_float(draw(1, ubo, offset / 4)));
}

uint32_t
diff_pack16(float a, float b)
{
   return pan_sim_fp_f32_to_f16(pan_sim_fp_u32(a), PAN_SIM_ROUND_RTE) |
          (uint32_t)pan_sim_fp_f32_to_f16(pan_sim_fp_u32(b),
                                          PAN_SIM_ROUND_RTE) << 16;
}

bool
diff_attr(unsigned index, uint32_t vertex, enum pan_sim_regfmt regfmt,
          uint32_t out[4], char *err)
{
   float f[4];
   int32_t n[4];
   for (unsigned c = 0; c < 4; c++) {
      uint64_t r = draw(2, index * 4 + c, vertex);
      f[c] = small_float(r);
      n[c] = (int32_t)(r % 16) - (regfmt == PAN_SIM_REG_S32 ||
                                  regfmt == PAN_SIM_REG_S16 ? 8 : 0);
   }
   switch (regfmt) {
   case PAN_SIM_REG_F32:
      for (unsigned c = 0; c < 4; c++)
         out[c] = pan_sim_fp_u32(f[c]);
      return true;
   case PAN_SIM_REG_F16:
      out[0] = diff_pack16(f[0], f[1]);
      out[1] = diff_pack16(f[2], f[3]);
      return true;
   case PAN_SIM_REG_S32:
   case PAN_SIM_REG_U32:
      memcpy(out, n, sizeof(n));
      return true;
   case PAN_SIM_REG_S16:
   case PAN_SIM_REG_U16:
      out[0] = (n[0] & 0xffff) | (uint32_t)n[1] << 16;
      out[1] = (n[2] & 0xffff) | (uint32_t)n[3] << 16;
      return true;
   default:
      snprintf(err, DIFF_ERR_LEN, "register format %d", regfmt);
      return false;
   }
}

unsigned
diff_px(unsigned lane)
{
   return 8 + (lane & 1);
}

unsigned
diff_py(unsigned lane)
{
   return 4 + (lane >> 1);
}

float
diff_varying(unsigned lane, unsigned k, bool flat)
{
   float v = small_float(draw(3, k, 0));
   if (!flat)
      v += (float)((int)(draw(4, k, 0) % 32) - 16) / 16.0f * diff_px(lane) +
           (float)((int)(draw(5, k, 0) % 32) - 16) / 16.0f * diff_py(lane);
   return v;
}

void
diff_point_coord(unsigned lane, float out[2])
{
   out[0] = 0.25f + 0.5f * (lane & 1);
   out[1] = 0.25f + 0.5f * (lane >> 1);
}

float
diff_frag_z(unsigned lane)
{
   return 0.5f + lane / 64.0f;
}

float
diff_frag_w(unsigned lane)
{
   return 1.0f + lane / 16.0f;
}

bool
diff_tex_run(void *user, struct pan_sim_tex_req *req, char *err)
{
   if (getenv("VA_DIFF_TRACE")) {
      fprintf(stderr, "tex op %d dim %d lod %d offset %d shadow %d: "
              "%g %g %g off %d %d lod %g\n", req->op, req->dim,
              req->lod_mode, req->offset, req->shadow,
              pan_sim_fp_f32(req->coord[0][0]), pan_sim_fp_f32(req->coord[0][1]),
              pan_sim_fp_f32(req->coord[0][2]), req->offsets[0][0],
              req->offsets[0][1], req->lod[0]);
   }
   for (unsigned i = 0; i < PAN_SIM_TEX_QUAD; i++) {
      float v[4];
      int32_t n[4];
      float x[3];
      for (unsigned k = 0; k < 3; k++)
         x[k] = pan_sim_fp_f32(req->coord[i][k]);
      float lod = req->lod_mode == PAN_SIM_TEX_LOD_EXPLICIT ||
                        req->lod_mode == PAN_SIM_TEX_LOD_BIAS
                     ? req->lod[i]
                     : 0;
      for (unsigned c = 0; c < 4; c++) {
         if (req->op == PAN_SIM_TEX_FETCH) {
            uint64_t r = draw(6, req->coord[i][0] * 64 + req->coord[i][1],
                              req->coord[i][2] * 64 + req->layer[i] * 4 + c +
                                 req->level[i] * 4096);
            v[c] = (float)(r % 256) / 256.0f;
            n[c] = (int32_t)(r % 16);
            continue;
         }
         unsigned k = req->op == PAN_SIM_TEX_GATHER ? req->gather_comp : c;
         float g = req->op == PAN_SIM_TEX_GATHER ? 0.125f * c : 0;
         v[c] = 0.5f + 0.25f * (k + 1) * x[0] - 0.125f * (k + 2) * x[1] +
                0.0625f * x[2] + 0.03125f * req->face[i] +
                0.015625f * req->layer[i] + 0.0078125f * lod + g;
         n[c] = (int32_t)(v[c] * 4);
      }
      if (req->shadow) {
         float d = v[0];
         v[0] = v[1] = v[2] = req->ref[i] <= d ? 1.0f : 0.0f;
         v[3] = 1;
      }
      for (unsigned c = 0; c < 4; c++) {
         if (req->clamp == PAN_SIM_TEX_CLAMP_01)
            v[c] = v[c] < 0 ? 0 : v[c] > 1 ? 1 : v[c];
         else if (req->clamp == PAN_SIM_TEX_CLAMP_PM1)
            v[c] = v[c] < -1 ? -1 : v[c] > 1 ? 1 : v[c];
         else if (req->clamp == PAN_SIM_TEX_CLAMP_POS)
            v[c] = v[c] < 0 ? 0 : v[c];
      }
      switch (req->regfmt) {
      case 0:
         req->out[i][0] = diff_pack16(v[0], v[1]);
         req->out[i][1] = diff_pack16(v[2], v[3]);
         break;
      case 1:
         for (unsigned c = 0; c < 4; c++)
            req->out[i][c] = pan_sim_fp_u32(v[c]);
         break;
      case 2:
      case 3:
         memcpy(req->out[i], n, sizeof(n));
         break;
      default:
         snprintf(err, PAN_SIM_TEX_ERR_LEN, "register format %u",
                  req->regfmt);
         return false;
      }
   }
   return true;
}

bool
diff_store_word(unsigned lane, unsigned sub, unsigned byte, uint32_t word)
{
   if (lane >= DIFF_LANES || sub >= DIFF_SUB_SLOTS || byte / 4 >= 1024)
      return false;
   out_words[lane][sub][byte / 4] = word;
   out_set[lane][sub][byte / 4] = 1;
   return true;
}

bool
diff_colour(unsigned lane, unsigned rt, enum pan_sim_regfmt fmt,
            const uint32_t in[4], char *err)
{
   if (nr_colours == sizeof(colours) / sizeof(colours[0])) {
      snprintf(err, DIFF_ERR_LEN, "too many BLEND");
      return false;
   }
   struct colour *c = &colours[nr_colours++];
   *c = (struct colour){ lane, rt, fmt };
   for (unsigned i = 0; i < 4; i++) {
      c->v[i] = in[i];
      if (fmt == PAN_SIM_REG_F16)
         c->v[i] = pan_sim_fp_f16_to_f32(in[i / 2] >> (16 * (i & 1)));
   }
   return true;
}

bool
diff_read_layout(const char *path, unsigned *entry_B,
                 void (*extra)(const char *line))
{
   FILE *fp = fopen(path, "r");
   char line[256];
   if (!fp) {
      fprintf(stderr, "cannot open %s\n", path);
      return false;
   }
   /* Two passes: the push words may precede the system values. */
   for (int pass = 0; pass < 2; pass++) {
      rewind(fp);
      while (fgets(line, sizeof(line), fp)) {
         unsigned a, b, c, d;
         int n = sscanf(line, "push %u %u %u %u", &a, &b, &c, &d);
         if (pass == 0) {
            if (sscanf(line, "sysval_ubo %u", &a) == 1)
               sysval_ubo = (int)a;
            else if (sscanf(line, "sysval %u %u %u", &a, &b, &c) == 3 &&
                     a < MAX_SYSVALS) {
               sysvals[a][0] = b, sysvals[a][1] = c;
               nr_sysvals = a + 1 > nr_sysvals ? a + 1 : nr_sysvals;
            } else if (sscanf(line, "secondary %u", &a) == 1) {
               *entry_B = a;
            } else if (sscanf(line, "work_regs %u", &a) == 1) {
               diff_work_regs[0] = a;
            } else if (sscanf(line, "secondary_work_regs %u", &a) == 1) {
               diff_work_regs[1] = a;
            } else if (n < 3 && extra) {
               extra(line);
            }
            continue;
         }
         if (n < 3 || a >= DIFF_MAX_PUSH)
            continue;
         uint32_t v = 0;
         if (n == 3) {
            v = diff_ubo_word(b, c);
         } else if (b == PUSH_UBO) {
            v = diff_ubo_word(c, d);
         } else if ((b == PUSH_VIEWPORT_SCALE || b == PUSH_VIEWPORT_OFFSET) &&
                    d / 4 < 3) {
            v = pan_sim_fp_u32(b == PUSH_VIEWPORT_SCALE ? diff_vp_scale[d / 4]
                                                        : diff_vp_offset[d / 4]);
         } else if (b == PUSH_TEXTURE_SIZE) {
            v = DIFF_TEX_SIZE;
         } else if (b == PUSH_CONSTANT) {
            v = d;
         } else if (!diff_unmodelled[0]) {
            snprintf(diff_unmodelled, sizeof(diff_unmodelled),
                     "pushed source %u", b);
         }
         diff_uniforms[a] = v;
         diff_nr_uniforms = a + 1 > diff_nr_uniforms ? a + 1 : diff_nr_uniforms;
      }
   }
   fclose(fp);
   return true;
}

static const char *const regfmt_names[] = { "f16", "f32", "s32", "u32",
                                            "s16", "u16" };

void
diff_print(const char *status, uint32_t discarded)
{
   printf("status %s\n", status);
   printf("discarded %x\n", discarded);
   for (unsigned l = 0; l < DIFF_LANES; l++) {
      for (unsigned s = 0; s < DIFF_SUB_SLOTS; s++) {
         for (unsigned i = 0; i < 1024; i++) {
            if (out_set[l][s][i])
               printf("out %u %u %u %08x\n", l, s, 4 * i, out_words[l][s][i]);
         }
      }
   }
   for (unsigned i = 0; i < nr_colours; i++) {
      const struct colour *c = &colours[i];
      printf("colour %u %u %s %08x %08x %08x %08x\n", c->lane, c->rt,
             c->fmt < 6 ? regfmt_names[c->fmt] : "auto", c->v[0], c->v[1],
             c->v[2], c->v[3]);
   }
}

int
diff_run_load(int argc, char **argv, const char *name,
              void (*extra)(const char *line), struct diff_run *r)
{
   const char *path = NULL, *layout = NULL, *stage = "fs";
   for (int i = 1; i < argc; i++) {
      if (!strncmp(argv[i], "--seed=", 7))
         diff_seed = strtoull(argv[i] + 7, NULL, 0);
      else if (!strncmp(argv[i], "--stage=", 8))
         stage = argv[i] + 8;
      else if (!strncmp(argv[i], "--layout=", 9))
         layout = argv[i] + 9;
      else
         path = argv[i];
   }
   *r = (struct diff_run){ .fs = !strcmp(stage, "fs"),
                           .vv = !strcmp(stage, "vv") };
   if (!path || (!r->fs && !r->vv && strcmp(stage, "vs"))) {
      fprintf(stderr, "usage: %s --seed=N --stage=vs|vv|fs "
                      "[--layout=FILE] FILE.bin\n", name);
      return 2;
   }
   if (layout && !diff_read_layout(layout, &r->entry_B, extra))
      return 4;
   if (!r->vv)
      r->entry_B = 0;
   FILE *fp = fopen(path, "rb");
   if (!fp) {
      fprintf(stderr, "cannot open %s\n", path);
      return 4;
   }
   r->code = calloc(MAX_PROGRAM_B / 8, 8);
   r->size_B = r->code ? fread(r->code, 1, MAX_PROGRAM_B, fp) : 0;
   fclose(fp);
   /* Instructions are 8-byte words (Valhall) or in 16-byte units. */
   if (!r->code || r->entry_B >= r->size_B || (r->entry_B & 7)) {
      fprintf(stderr, "%s: cannot read %s\n", name, path);
      free(r->code);
      r->code = NULL;
      return 4;
   }
   return 0;
}
