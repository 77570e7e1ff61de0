/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * bi-diff-run: one Bifrost (v7) graphics program on our interpreter with
 * inputs drawn from a seed, for the differential test (va_diff_exec.py
 * --gpu=G52); the inputs are va-diff-run's (diff_run_inputs.c).
 *
 *   bi-diff-run --seed=N --stage=vs|vv|fs [--layout=FILE] [--v6] FILE.bin
 *
 * The layout file is va-diff-run's, plus the stock compiler's Bifrost
 * lines:
 *   message I VARYING FP16 COMPS TEXTURE SKIP ZERO_LOD TEXTURE_INDEX
 *                      a v7 message preload into r(4I)..: LD_VAR of the
 *                      varying or VAR_TEX of it and the texture
 *   blend RT TYPE      the colour's nir_alu_type (16-bit floats arrive
 *                      packed); without it 32-bit
 * Bifrost's interface (docs/drivers/panfrost/compiler.rst): a vertex
 * lane l is vertex l (r61, instance r62 = 0); the position goes through
 * ST_CVT to the address preloaded in r58:r59, varying n through
 * LEA_ATTR_IMM n (whose conversion word here carries the register
 * format) and ST_CVT.  Both are recorded as va-diff-run's vertex words:
 * lane l, sub-slot 0, byte 16 * n + 4 * component for varyings, the
 * position at byte 0 of the same sub-slot (IDVS variants store one or
 * the other).  A fragment lane is a pixel of the quad (r60 coverage 1);
 * LD_VAR_IMM n reads varying slot n.  blend_descriptor_N is 0x100 + N.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff_run_inputs.h"
#include "pan_sim_fp.h"
#include "pan_sim_bi.h"
#include "pan_sim_bi_gfx.h"

#define LANES DIFF_LANES
#define PROGRAM_VA 0x40000000ull
/* Position addresses: POS_VA + 16 * lane; varyings: VARY_VA + lane <<
 * 12 + 16 * index. */
#define POS_VA 0x10000000ull
#define VARY_VA 0x20000000ull
/* LEA_ATTR conversion words: CVT_TAG | register format. */
#define CVT_TAG 0xc0de0000u
/* FAU special of blend_descriptor_0 (then 1..7). */
#define FAU_BLEND_DESC 8

struct message {
   bool enabled, fp16, texture, skip, zero_lod;
   unsigned varying, comps, texture_index;
};
static struct message messages[2];
/* Per render target: colours arrive as binary16 pairs. */
static bool blend16[DIFF_MAX_RTS];

/* nir_alu_type's 16-bit float. */
#define NIR_TYPE_FLOAT16 (128 | 16)

static void
layout_line(const char *line)
{
   unsigned a, v[7];
   if (sscanf(line, "message %u %u %u %u %u %u %u %u", &a, &v[0], &v[1],
              &v[2], &v[3], &v[4], &v[5], &v[6]) == 8 &&
       a < 2) {
      messages[a] = (struct message){ true, v[1], v[3], v[4], v[5], v[0],
                                      v[2], v[6] };
   } else if (sscanf(line, "blend %u %u", &a, &v[0]) == 2 &&
              a < DIFF_MAX_RTS) {
      blend16[a] = v[0] == NIR_TYPE_FLOAT16;
   }
}

static bool
ubo(void *user, uint32_t index, uint32_t offset, unsigned size, void *out,
    char *err)
{
   for (unsigned i = 0; i < (size + 3) / 4; i++) {
      uint32_t w = diff_ubo_word(index, offset + 4 * i);
      memcpy((uint8_t *)out + 4 * i, &w,
             size - 4 * i < 4 ? size - 4 * i : 4);
   }
   if (diff_unmodelled[0]) {
      snprintf(err, PAN_SIM_BI_GFX_ERR_LEN, "not modelled: %s",
               diff_unmodelled);
      return false;
   }
   return true;
}

static bool
ld_attr(void *user, unsigned index, uint32_t vertex, uint32_t instance,
        enum pan_sim_regfmt regfmt, unsigned comps, uint32_t out[4],
        char *err)
{
   return diff_attr(index, vertex, regfmt, out, err);
}

static bool
lea_attr(void *user, unsigned index, uint32_t vertex, uint32_t instance,
         enum pan_sim_regfmt regfmt, uint32_t out[3], char *err)
{
   uint64_t addr = VARY_VA + ((uint64_t)vertex << 12) + 16 * index;
   out[0] = (uint32_t)addr;
   out[1] = (uint32_t)(addr >> 32);
   out[2] = CVT_TAG | regfmt;
   return true;
}

static bool
st_cvt(void *user, uint64_t addr, uint32_t conversion, unsigned comps,
       const uint32_t in[4], char *err)
{
   bool half = conversion == (CVT_TAG | PAN_SIM_REG_F16);
   unsigned lane, byte;
   if (addr >= VARY_VA && addr < VARY_VA + (LANES << 12) &&
       (conversion & ~0xffu) == CVT_TAG) {
      lane = (unsigned)((addr - VARY_VA) >> 12);
      byte = (unsigned)(addr & 0xfff);
   } else if (addr >= POS_VA && addr < POS_VA + 16 * LANES &&
              (conversion & ~0xffu) != CVT_TAG) {
      lane = (unsigned)(addr - POS_VA) / 16;
      byte = 0;
   } else {
      snprintf(err, PAN_SIM_BI_GFX_ERR_LEN,
               "ST_CVT to 0x%llx with conversion 0x%x",
               (unsigned long long)addr, conversion);
      return false;
   }
   for (unsigned c = 0; c < comps; c++) {
      uint32_t w = half ? pan_sim_fp_f16_to_f32(in[c / 2] >> (16 * (c & 1)))
                        : in[c];
      if (!diff_store_word(lane, 0, byte + 4 * c, w)) {
         snprintf(err, PAN_SIM_BI_GFX_ERR_LEN, "ST_CVT beyond the packet");
         return false;
      }
   }
   return true;
}

static bool
ld_var(void *user, unsigned lane, unsigned index, bool flat,
       enum pan_sim_regfmt regfmt, unsigned comps, uint32_t out[4],
       char *err)
{
   float v[4] = { 0 };
   for (unsigned c = 0; c < comps && c < 4; c++)
      v[c] = diff_varying(lane, index * 4 + c, flat);
   for (unsigned c = 0; c < 4; c++)
      out[c] = regfmt == PAN_SIM_REG_F16
                  ? (c < 2 ? diff_pack16(v[2 * c], v[2 * c + 1]) : 0)
                  : pan_sim_fp_u32(v[c]);
   return true;
}

static bool
ld_var_special(void *user, unsigned lane, unsigned which, float out[2],
               char *err)
{
   if (which == 0)
      diff_point_coord(lane, out);
   else if (which == 3)
      out[0] = diff_frag_z(lane);
   else
      out[0] = diff_frag_w(lane);
   return true;
}

static bool
blend(void *user, unsigned lane, uint64_t descriptor, uint32_t coverage,
      const uint32_t in[4], struct pan_sim_bi_blend_call *call, char *err)
{
   /* The descriptors here are fixed-function: *call stays as the
    * interpreter cleared it. */
   unsigned rt = (unsigned)(descriptor - 0x100);
   if (rt >= DIFF_MAX_RTS) {
      snprintf(err, PAN_SIM_BI_GFX_ERR_LEN, "blend descriptor 0x%llx",
               (unsigned long long)descriptor);
      return false;
   }
   return diff_colour(lane, rt, blend16[rt] ? PAN_SIM_REG_F16
                                            : PAN_SIM_REG_F32, in, err);
}

/* The v7 message preloads of the fragment shader (either compiler's). */
static bool
preload(struct pan_sim_bi_warp *w, const struct pan_sim_bi_config *cfg,
        char *err, unsigned err_len)
{
   for (unsigned k = 0; k < 2; k++) {
      const struct message *m = &messages[k];
      if (!m->enabled)
         continue;
      if (m->texture) {
         if (!pan_sim_bi_var_tex_preload(w, cfg, (1u << LANES) - 1,
                                         m->varying, m->texture_index,
                                         m->fp16, m->zero_lod, 4 * k, err,
                                         err_len))
            return false;
         continue;
      }
      for (unsigned l = 0; l < LANES; l++) {
         uint32_t out[4];
         ld_var(NULL, l, m->varying, false,
                m->fp16 ? PAN_SIM_REG_F16 : PAN_SIM_REG_F32, m->comps, out,
                err);
         memcpy(&w->r[l][4 * k], out, sizeof(out));
      }
   }
   return true;
}

int
main(int argc, char **argv)
{
   /* --v6: G72, whose threads always have the whole register file. */
   bool v6 = false;
   for (int i = 1; i < argc; i++) {
      if (!strcmp(argv[i], "--v6")) {
         v6 = true;
         memmove(&argv[i], &argv[i + 1], (argc - i) * sizeof(argv[0]));
         argc--;
         break;
      }
   }
   struct diff_run run;
   int rc = diff_run_load(argc, argv, "bi-diff-run", layout_line, &run);
   if (rc)
      return rc;
   bool fs = run.fs;
   uint64_t *code = run.code;
   struct pan_sim_bi_warp *w = calloc(1, sizeof(*w));
   if (!w) {
      free(code);
      return 4;
   }

   struct pan_sim_bi_gfx gfx = {
      .ld_attr = ld_attr,
      .lea_attr = lea_attr,
      .st_cvt = st_cvt,
      .ld_var = ld_var,
      .ld_var_special = ld_var_special,
      .blend = blend,
      .ubo = ubo,
   };
   const struct pan_sim_tex_ops tex = { NULL, diff_tex_run };
   struct pan_sim_bi_config cfg = {
      .program = code + run.entry_B / 8,
      .program_quads = (unsigned)((run.size_B - run.entry_B) / 16),
      .program_va = PROGRAM_VA + run.entry_B,
      .uniforms = diff_uniforms,
      .uniform_words = diff_nr_uniforms,
      .lanes = LANES,
      .budget = 1u << 18,
      .gfx = &gfx,
      .tex = &tex,
   };
   for (unsigned rt = 0; rt < DIFF_MAX_RTS; rt++)
      cfg.special[FAU_BLEND_DESC + rt] = 0x100 + rt;
   /* The register file a v7 driver declares from the compiler's count:
    * 32 or fewer registers run in the half file. */
   unsigned declared = diff_work_regs[run.vv && diff_work_regs[1] ? 1 : 0];
   cfg.work_regs = v6 || !declared ? 0 : declared <= 32 ? 32 : 64;

   pan_sim_bi_warp_init(w, (1u << LANES) - 1);
   for (unsigned l = 0; l < LANES; l++) {
      if (fs) {
         w->r[l][59] = diff_px(l) | diff_py(l) << 16;
         w->r[l][60] = 1;
         w->r[l][61] = 1;
      } else {
         uint64_t pos = POS_VA + 16 * l;
         w->r[l][58] = (uint32_t)pos;
         w->r[l][59] = (uint32_t)(pos >> 32);
         w->r[l][61] = l;
         w->r[l][62] = 0;
      }
   }
   char status[512], err[256] = "";
   if (diff_unmodelled[0])
      snprintf(status, sizeof(status), "fault not modelled: %s",
               diff_unmodelled);
   else if (fs && !preload(w, &cfg, err, sizeof(err)))
      snprintf(status, sizeof(status), "fault message preload: %s", err);
   else if (pan_sim_bi_run(w, &cfg) == PAN_SIM_BI_DONE)
      snprintf(status, sizeof(status), "done");
   else
      snprintf(status, sizeof(status), "fault %s", w->fault);
   diff_print(status, w->discarded);
   free(w);
   free(code);
   return 0;
}
