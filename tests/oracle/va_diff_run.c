/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * va-diff-run: one Valhall (v9) graphics program on our interpreter with
 * inputs drawn from a seed, for the differential test (va_diff_exec.py).
 *
 *   va-diff-run --seed=N --stage=vs|vv|fs [--layout=FILE] FILE.bin
 *
 * vs is the IDVS position variant, vv the varying variant (FILE.bin from
 * its first word, or from the stock layout's "secondary" offset), fs a
 * fragment shader.  The layout file describes the binary's uniform words:
 *   push I SOURCE UBO OFFSET   ours (pan-compiler-db --out): SOURCE is an
 *                              enum pan_va_push_source
 *   push I UBO OFFSET          stock (stock-bifrost-compiler .info)
 *   sysval_ubo N / sysval I TYPE ID   where the stock binary reads its
 *                              system values (16 bytes each)
 *   secondary OFFSET           byte offset of the stock varying variant
 * Both are filled from the same values, so the layouts map onto each other:
 *   UBO word (u, o)    seeded, a multiple of 1/64 in [-4, 4) as float
 *                      bits; the same for a pushed word and for LD_BUFFER
 *   viewport           scale (64, -48, 0.5), offset (64, 48, 0.5)
 *   attribute i        per vertex and component, seeded, in the register
 *                      format asked (small integers for integer formats)
 *   varying at byte o  slot o / 16: base + dx * x + dy * y at pixel (x, y)
 *                      (the base alone when flat), multiples of 1/64
 * A warp of four lanes: vertices 0-3 (r60 vertex id, r59 its packet), or
 * the 2x2 quad of pixels (8, 4)-(9, 5) (r59 x | y << 16, r60 coverage 1),
 * so derivatives are meaningful.
 *   textures           no descriptors: every texture is the same smooth
 *                      function of the coordinates (a sample at (s, t, r)
 *                      is an affine function of them, of the layer and of
 *                      an explicit LOD or bias; a fetch a seeded value of
 *                      the integer coordinates; a shadow lookup 1 when the
 *                      reference is at most the sampled value), so neither
 *                      compiler's texture/sampler numbering matters and
 *                      coordinate differences stay small; every size is 8
 *                      (width, height, depth, layers)
 * Other system values fault ("not modelled").
 *
 * Printed: "status done|fault <why>", "discarded <lane mask>", then per
 * lane "out <lane> <packet sub-slot> <byte> <hex word>" for every word a
 * vertex variant stored (last store wins) or "colour <lane> <target>
 * <regfmt> <4 hex words>" per BLEND (binary16 widened to binary32).
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pan_sim_fp.h"
#include "pan_sim_texture.h"
#include "pan_sim_va.h"
#include "pan_sim_va_gfx.h"

#define MAX_PROGRAM_B (1u << 20)
#define LANES 4
#define MAX_PUSH 256
#define MAX_SYSVALS 64
#define MAX_RTS 8

/* Vertex packets: LEA_BUF_IMM gives WINDOW + (linear << 12). */
#define WINDOW 0x10000000ull
#define PACKET_SHIFT 12
#define SUB_SLOTS 8
#define TLS_VA 0x20000000ull
#define TLS_B (1u << 20)
#define PROGRAM_VA 0x40000000ull

/* System value types of the stock layout (numbered as its sysval enum). */
enum { SYSVAL_VIEWPORT_SCALE = 1, SYSVAL_VIEWPORT_OFFSET = 2,
       SYSVAL_TEXTURE_SIZE = 3, SYSVAL_VERTEX_INSTANCE_OFFSETS = 14 };
/* Sources of our push table (enum pan_va_push_source). */
enum { PUSH_UBO, PUSH_VIEWPORT_SCALE, PUSH_VIEWPORT_OFFSET,
       PUSH_TEXTURE_SIZE, PUSH_CONSTANT };
#define TEX_SIZE 8

static const float vp_scale[3] = { 64, -48, 0.5 };
static const float vp_offset[3] = { 64, 48, 0.5 };

static uint64_t seed;
static int sysval_ubo = -1;
static unsigned sysvals[MAX_SYSVALS][2], nr_sysvals;
static uint32_t uniforms[MAX_PUSH];
static unsigned nr_uniforms;
static char unmodelled[128];

/* Vertex outputs: words stored per lane, packet sub-slot and word. */
static uint32_t out_words[LANES][SUB_SLOTS][1024];
static uint8_t out_set[LANES][SUB_SLOTS][1024];
static uint8_t *tls;

struct colour {
   unsigned lane, rt;
   enum pan_sim_regfmt fmt;
   uint32_t v[4];
};
static struct colour colours[LANES * MAX_RTS * 4];
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
   return mix(seed ^ mix((uint64_t)kind << 56 ^ a << 24 ^ b));
}

/* A multiple of 1/64 in [-4, 4): exact in binary16 as well. */
static float
small_float(uint64_t r)
{
   return (float)((int)(r % 512) - 256) / 64.0f;
}

static uint32_t
ubo_word(unsigned ubo, uint32_t offset)
{
   if ((int)ubo == sysval_ubo) {
      unsigned i = offset / 16, c = offset % 16 / 4;
      unsigned type = i < nr_sysvals ? sysvals[i][0] : 0;
      if (type == SYSVAL_VIEWPORT_SCALE && c < 3)
         return pan_sim_fp_u32(vp_scale[c]);
      if (type == SYSVAL_VIEWPORT_OFFSET && c < 3)
         return pan_sim_fp_u32(vp_offset[c]);
      if (type == SYSVAL_TEXTURE_SIZE)
         return c < 3 ? TEX_SIZE : 0;
      if (type == SYSVAL_VERTEX_INSTANCE_OFFSETS || c == 3)
         return 0;
      if (!unmodelled[0])
         snprintf(unmodelled, sizeof(unmodelled), "system value type %u",
                  type);
      return 0;
   }
   return pan_sim_fp_u32(small_float(draw(1, ubo, offset / 4)));
}

static bool
ld_buffer(void *user, unsigned table, uint32_t index, uint32_t offset,
          unsigned size, void *out, char *err)
{
   for (unsigned i = 0; i < (size + 3) / 4; i++)
      ((uint32_t *)out)[i] = ubo_word(index, offset + 4 * i);
   if (unmodelled[0]) {
      snprintf(err, PAN_SIM_VA_GFX_ERR_LEN, "not modelled: %s", unmodelled);
      return false;
   }
   return true;
}

static uint32_t
pack16(float a, float b)
{
   return pan_sim_fp_f32_to_f16(pan_sim_fp_u32(a), PAN_SIM_ROUND_RTE) |
          (uint32_t)pan_sim_fp_f32_to_f16(pan_sim_fp_u32(b),
                                          PAN_SIM_ROUND_RTE) << 16;
}

static bool
ld_attr(void *user, unsigned table, unsigned index, uint32_t vertex,
        uint32_t instance, enum pan_sim_regfmt regfmt, unsigned comps,
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
      out[0] = pack16(f[0], f[1]);
      out[1] = pack16(f[2], f[3]);
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
      snprintf(err, PAN_SIM_VA_GFX_ERR_LEN, "register format %d", regfmt);
      return false;
   }
}

static bool
lea_buf(void *user, unsigned lane, unsigned table, unsigned index,
        uint32_t linear, uint64_t *addr, char *err)
{
   *addr = WINDOW + ((uint64_t)linear << PACKET_SHIFT);
   return true;
}

/* Pixel of a lane of the quad. */
static unsigned
px(unsigned lane)
{
   return 8 + (lane & 1);
}

static unsigned
py(unsigned lane)
{
   return 4 + (lane >> 1);
}

static bool
ld_var_buf(void *user, unsigned lane, uint32_t offset, bool flat, bool src16,
           bool out16, unsigned comps, uint32_t out[4], char *err)
{
   unsigned slot = offset / 16, first = offset % 16 / (src16 ? 2 : 4);
   float v[4] = { 0 };
   for (unsigned c = 0; c < comps && first + c < 4; c++) {
      unsigned k = slot * 4 + first + c;
      v[c] = small_float(draw(3, k, 0));
      if (!flat)
         v[c] += (float)((int)(draw(4, k, 0) % 32) - 16) / 16.0f * px(lane) +
                 (float)((int)(draw(5, k, 0) % 32) - 16) / 16.0f * py(lane);
   }
   for (unsigned c = 0; c < 4; c++)
      out[c] = out16 ? (c < 2 ? pack16(v[2 * c], v[2 * c + 1]) : 0)
                     : pan_sim_fp_u32(v[c]);
   return true;
}

static bool
ld_var_special(void *user, unsigned lane, enum pan_sim_va_special_var which,
               float out[2], char *err)
{
   if (which == PAN_SIM_VA_VAR_POINT) {
      out[0] = 0.25f + 0.5f * (lane & 1);
      out[1] = 0.25f + 0.5f * (lane >> 1);
   } else if (which == PAN_SIM_VA_VAR_FRAG_Z) {
      out[0] = 0.5f + lane / 64.0f;
   } else {
      out[0] = 1.0f + lane / 16.0f;
   }
   return true;
}

static bool
blend(void *user, unsigned lane, uint64_t descriptor, uint32_t coverage,
      enum pan_sim_regfmt regfmt, const uint32_t in[4], char *err)
{
   struct colour *c = &colours[nr_colours];
   if (nr_colours == sizeof(colours) / sizeof(colours[0])) {
      snprintf(err, PAN_SIM_VA_GFX_ERR_LEN, "too many BLEND");
      return false;
   }
   nr_colours++;
   *c = (struct colour){ lane, (unsigned)(descriptor - 0x100), regfmt };
   for (unsigned i = 0; i < 4; i++) {
      c->v[i] = in[i];
      if (regfmt == PAN_SIM_REG_F16)
         c->v[i] = pan_sim_fp_f16_to_f32(in[i / 2] >> (16 * (i & 1)));
   }
   return true;
}

static bool
tex_run(void *user, struct pan_sim_tex_req *req, char *err)
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
         req->out[i][0] = pack16(v[0], v[1]);
         req->out[i][1] = pack16(v[2], v[3]);
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

static bool
mem_read(void *user, uint64_t addr, void *data, unsigned size)
{
   if (addr >= TLS_VA && addr + size <= TLS_VA + TLS_B) {
      memcpy(data, tls + (addr - TLS_VA), size);
      return true;
   }
   return false;
}

static bool
mem_write(void *user, uint64_t addr, const void *data, unsigned size)
{
   if (addr >= TLS_VA && addr + size <= TLS_VA + TLS_B) {
      memcpy(tls + (addr - TLS_VA), data, size);
      return true;
   }
   if (addr < WINDOW || (addr & 3) || (size & 3))
      return false;
   uint64_t linear = (addr - WINDOW) >> PACKET_SHIFT;
   unsigned byte = (addr - WINDOW) & ((1u << PACKET_SHIFT) - 1);
   unsigned lane = (unsigned)(linear >> 3), sub = linear & 7;
   if (lane >= LANES || byte + size > 4096)
      return false;
   for (unsigned i = 0; i < size / 4; i++) {
      memcpy(&out_words[lane][sub][byte / 4 + i], (const uint8_t *)data + 4 * i,
             4);
      out_set[lane][sub][byte / 4 + i] = 1;
   }
   return true;
}

/* Reads the layout file; *entry_B is the stock secondary offset. */
static bool
read_layout(const char *path, unsigned *entry_B)
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
            }
            continue;
         }
         if (n < 3 || a >= MAX_PUSH)
            continue;
         uint32_t v = 0;
         if (n == 3) {
            v = ubo_word(b, c);
         } else if (b == PUSH_UBO) {
            v = ubo_word(c, d);
         } else if ((b == PUSH_VIEWPORT_SCALE || b == PUSH_VIEWPORT_OFFSET) &&
                    d / 4 < 3) {
            v = pan_sim_fp_u32(b == PUSH_VIEWPORT_SCALE ? vp_scale[d / 4]
                                                        : vp_offset[d / 4]);
         } else if (b == PUSH_TEXTURE_SIZE) {
            v = TEX_SIZE;
         } else if (b == PUSH_CONSTANT) {
            v = d;
         } else if (!unmodelled[0]) {
            snprintf(unmodelled, sizeof(unmodelled), "pushed source %u", b);
         }
         uniforms[a] = v;
         nr_uniforms = a + 1 > nr_uniforms ? a + 1 : nr_uniforms;
      }
   }
   fclose(fp);
   return true;
}

static const char *const regfmt_names[] = { "f16", "f32", "s32", "u32",
                                            "s16", "u16" };

int
main(int argc, char **argv)
{
   const char *path = NULL, *layout = NULL, *stage = "fs";
   for (int i = 1; i < argc; i++) {
      if (!strncmp(argv[i], "--seed=", 7))
         seed = strtoull(argv[i] + 7, NULL, 0);
      else if (!strncmp(argv[i], "--stage=", 8))
         stage = argv[i] + 8;
      else if (!strncmp(argv[i], "--layout=", 9))
         layout = argv[i] + 9;
      else
         path = argv[i];
   }
   bool fs = !strcmp(stage, "fs"), vv = !strcmp(stage, "vv");
   if (!path || (!fs && !vv && strcmp(stage, "vs"))) {
      fprintf(stderr, "usage: va-diff-run --seed=N --stage=vs|vv|fs "
                      "[--layout=FILE] FILE.bin\n");
      return 2;
   }
   unsigned entry_B = 0;
   if (layout && !read_layout(layout, &entry_B))
      return 4;
   if (!vv)
      entry_B = 0;
   FILE *fp = fopen(path, "rb");
   if (!fp) {
      fprintf(stderr, "cannot open %s\n", path);
      return 4;
   }
   uint64_t *code = calloc(MAX_PROGRAM_B / 8, 8);
   tls = calloc(1, TLS_B);
   size_t n = code ? fread(code, 1, MAX_PROGRAM_B, fp) : 0;
   fclose(fp);
   if (!code || !tls || entry_B >= n)
      return 4;

   struct pan_sim_va_gfx gfx = {
      .ld_attr = fs ? NULL : ld_attr,
      .lea_buf = fs ? NULL : lea_buf,
      .ld_var_buf = fs ? ld_var_buf : NULL,
      .ld_var_special = fs ? ld_var_special : NULL,
      .blend = fs ? blend : NULL,
      .ld_buffer = ld_buffer,
   };
   const struct pan_sim_tex_ops tex = { NULL, tex_run };
   struct pan_sim_va_config cfg = {
      .program = code + entry_B / 8,
      .program_words = (unsigned)((n - entry_B) / 8),
      .program_va = PROGRAM_VA + entry_B,
      .uniforms = uniforms,
      .uniform_words = nr_uniforms,
      .mem = { NULL, mem_read, mem_write },
      .gfx = &gfx,
      .tex = &tex,
      .budget = 1u << 18,
   };
   cfg.special[0][4] = 128 | 96 << 16; /* framebuffer_size */
   for (unsigned rt = 0; rt < MAX_RTS; rt++)
      cfg.special[0][8 + rt] = 0x100 + rt; /* blend_descriptor_N */
   cfg.special[1][1] = TLS_VA;

   struct pan_sim_va_warp *w = calloc(1, sizeof(*w));
   if (!w)
      return 4;
   pan_sim_va_warp_init(w, (1u << LANES) - 1);
   for (unsigned l = 0; l < LANES; l++) {
      if (fs) {
         w->r[l][59] = px(l) | py(l) << 16;
         w->r[l][60] = 1;
      } else {
         w->r[l][59] = l << 3;
         w->r[l][60] = l;
      }
   }
   enum pan_sim_va_status st =
      unmodelled[0] ? PAN_SIM_VA_FAULT : pan_sim_va_run(w, &cfg);
   if (unmodelled[0])
      printf("status fault not modelled: %s\n", unmodelled);
   else if (st == PAN_SIM_VA_DONE)
      printf("status done\n");
   else
      printf("status fault %s\n", w->fault);
   printf("discarded %x\n", w->discarded);
   for (unsigned l = 0; l < LANES; l++) {
      for (unsigned s = 0; s < SUB_SLOTS; s++) {
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
   free(w);
   free(tls);
   free(code);
   return 0;
}
