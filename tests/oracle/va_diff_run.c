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

#include "diff_run_inputs.h"
#include "pan_sim_fp.h"
#include "pan_sim_texture.h"
#include "pan_sim_va.h"
#include "pan_sim_va_gfx.h"

#define LANES DIFF_LANES

/* Vertex packets: LEA_BUF_IMM gives WINDOW + (linear << 12). */
#define WINDOW 0x10000000ull
#define PACKET_SHIFT 12
#define TLS_VA 0x20000000ull
#define TLS_B (1u << 20)
#define PROGRAM_VA 0x40000000ull

static uint8_t *tls;

static bool
ld_buffer(void *user, unsigned table, uint32_t index, uint32_t offset,
          unsigned size, void *out, char *err)
{
   for (unsigned i = 0; i < (size + 3) / 4; i++)
      ((uint32_t *)out)[i] = diff_ubo_word(index, offset + 4 * i);
   if (diff_unmodelled[0]) {
      snprintf(err, PAN_SIM_VA_GFX_ERR_LEN, "not modelled: %s",
               diff_unmodelled);
      return false;
   }
   return true;
}

static bool
ld_attr(void *user, unsigned table, unsigned index, uint32_t vertex,
        uint32_t instance, enum pan_sim_regfmt regfmt, unsigned comps,
        uint32_t out[4], char *err)
{
   return diff_attr(index, vertex, regfmt, out, err);
}

static bool
lea_buf(void *user, unsigned lane, unsigned table, unsigned index,
        uint32_t linear, uint64_t *addr, char *err)
{
   *addr = WINDOW + ((uint64_t)linear << PACKET_SHIFT);
   return true;
}

static bool
ld_var_buf(void *user, unsigned lane, uint32_t offset, bool flat, bool src16,
           bool out16, unsigned comps, uint32_t out[4], char *err)
{
   unsigned slot = offset / 16, first = offset % 16 / (src16 ? 2 : 4);
   float v[4] = { 0 };
   for (unsigned c = 0; c < comps && first + c < 4; c++)
      v[c] = diff_varying(lane, slot * 4 + first + c, flat);
   for (unsigned c = 0; c < 4; c++)
      out[c] = out16 ? (c < 2 ? diff_pack16(v[2 * c], v[2 * c + 1]) : 0)
                     : pan_sim_fp_u32(v[c]);
   return true;
}

static bool
ld_var_special(void *user, unsigned lane, enum pan_sim_va_special_var which,
               float out[2], char *err)
{
   if (which == PAN_SIM_VA_VAR_POINT)
      diff_point_coord(lane, out);
   else if (which == PAN_SIM_VA_VAR_FRAG_Z)
      out[0] = diff_frag_z(lane);
   else
      out[0] = diff_frag_w(lane);
   return true;
}

static bool
blend(void *user, unsigned lane, uint64_t descriptor, uint32_t coverage,
      enum pan_sim_regfmt regfmt, const uint32_t in[4], bool *call,
      char *err)
{
   /* The descriptors here are fixed-function: *call stays false. */
   return diff_colour(lane, (unsigned)(descriptor - 0x100), regfmt, in, err);
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
      uint32_t word;
      memcpy(&word, (const uint8_t *)data + 4 * i, 4);
      diff_store_word(lane, sub, byte + 4 * i, word);
   }
   return true;
}

int
main(int argc, char **argv)
{
   struct diff_run run;
   int rc = diff_run_load(argc, argv, "va-diff-run", NULL, &run);
   if (rc)
      return rc;
   bool fs = run.fs;
   uint64_t *code = run.code;
   tls = calloc(1, TLS_B);
   if (!tls) {
      free(code);
      return 4;
   }

   struct pan_sim_va_gfx gfx = {
      .ld_attr = fs ? NULL : ld_attr,
      .lea_buf = fs ? NULL : lea_buf,
      .ld_var_buf = fs ? ld_var_buf : NULL,
      .ld_var_special = fs ? ld_var_special : NULL,
      .blend = fs ? blend : NULL,
      .ld_buffer = ld_buffer,
   };
   const struct pan_sim_tex_ops tex = { NULL, diff_tex_run };
   struct pan_sim_va_config cfg = {
      .program = code + run.entry_B / 8,
      .program_words = (unsigned)((run.size_B - run.entry_B) / 8),
      .program_va = PROGRAM_VA + run.entry_B,
      .uniforms = diff_uniforms,
      .uniform_words = diff_nr_uniforms,
      .mem = { NULL, mem_read, mem_write },
      .gfx = &gfx,
      .tex = &tex,
      .budget = 1u << 18,
   };
   /* The register file the binary declares, as a driver would: 32 or
    * fewer registers run in the half file. */
   unsigned declared = diff_work_regs[run.vv && diff_work_regs[1] ? 1 : 0];
   cfg.work_regs = !declared ? 0 : declared <= 32 ? 32 : 64;
   cfg.special[0][4] = 128 | 96 << 16; /* framebuffer_size */
   for (unsigned rt = 0; rt < DIFF_MAX_RTS; rt++)
      cfg.special[0][8 + rt] = 0x100 + rt; /* blend_descriptor_N */
   cfg.special[1][1] = TLS_VA;

   struct pan_sim_va_warp *w = calloc(1, sizeof(*w));
   if (!w) {
      free(code);
      free(tls);
      return 4;
   }
   pan_sim_va_warp_init(w, (1u << LANES) - 1);
   for (unsigned l = 0; l < LANES; l++) {
      if (fs) {
         w->r[l][59] = diff_px(l) | diff_py(l) << 16;
         w->r[l][60] = 1;
      } else {
         w->r[l][59] = l << 3;
         w->r[l][60] = l;
      }
   }
   char status[512];
   if (diff_unmodelled[0])
      snprintf(status, sizeof(status), "fault not modelled: %s",
               diff_unmodelled);
   else if (pan_sim_va_run(w, &cfg) == PAN_SIM_VA_DONE)
      snprintf(status, sizeof(status), "done");
   else
      snprintf(status, sizeof(status), "fault %s", w->fault);
   diff_print(status, w->discarded);
   free(w);
   free(tls);
   free(code);
   return 0;
}
