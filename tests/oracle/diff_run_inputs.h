/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * The seeded inputs and the recorded outputs of the differential runners
 * (va-diff-run for Valhall, bi-diff-run for Bifrost): both binaries of a
 * program see the same uniforms, attributes, varyings and textures, and
 * print their outputs in one format for va_diff_exec.py.  The model is
 * described at the top of va_diff_run.c.
 */

#ifndef DIFF_RUN_INPUTS_H
#define DIFF_RUN_INPUTS_H

#include <stdbool.h>
#include <stdint.h>

#include "pan_sim_regfmt.h"
#include "pan_sim_texture.h"

#define DIFF_LANES 4
#define DIFF_SUB_SLOTS 8
#define DIFF_MAX_RTS 8
#define DIFF_MAX_PUSH 256
#define DIFF_ERR_LEN 160
#define DIFF_TEX_SIZE 8

extern uint64_t diff_seed;
/* The first input the model does not cover ("" while none). */
extern char diff_unmodelled[128];
extern uint32_t diff_uniforms[DIFF_MAX_PUSH];
extern unsigned diff_nr_uniforms;
extern const float diff_vp_scale[3], diff_vp_offset[3];

/* Word at byte offset of uniform buffer ubo (system values included). */
uint32_t diff_ubo_word(unsigned ubo, uint32_t offset);

/* Reads a layout file into diff_uniforms; *entry_B gets the stock
 * secondary offset; other lines go to extra (may be NULL). */
bool diff_read_layout(const char *path, unsigned *entry_B,
                      void (*extra)(const char *line));

/* Two binary32 values as a pair of binary16 (round to nearest even). */
uint32_t diff_pack16(float a, float b);

/* Attribute index of a vertex in the register format asked. */
bool diff_attr(unsigned index, uint32_t vertex, enum pan_sim_regfmt regfmt,
               uint32_t out[4], char *err);

/* Pixel of a lane of the 2x2 quad at (8, 4). */
unsigned diff_px(unsigned lane);
unsigned diff_py(unsigned lane);

/* Component k (4 * slot + component) of the varyings at the lane's pixel. */
float diff_varying(unsigned lane, unsigned k, bool flat);

/* The special varyings: point coordinate, fragment z, fragment 1/w. */
void diff_point_coord(unsigned lane, float out[2]);
float diff_frag_z(unsigned lane);
float diff_frag_w(unsigned lane);

/* Texture ops callback: the smooth function of the coordinates. */
bool diff_tex_run(void *user, struct pan_sim_tex_req *req, char *err);

/* A word a vertex shader stored (last store wins); false out of range. */
bool diff_store_word(unsigned lane, unsigned sub, unsigned byte,
                     uint32_t word);

/* A colour a lane sent to render target rt (binary16 widened). */
bool diff_colour(unsigned lane, unsigned rt, enum pan_sim_regfmt fmt,
                 const uint32_t in[4], char *err);

/* The layout's work_regs and secondary_work_regs lines: the register
 * count the binary (its varying variant) declares, 0 when not given. */
extern unsigned diff_work_regs[2];

/* The runner's command line and binary. */
struct diff_run {
   bool fs, vv;     /* --stage=fs, --stage=vv (else vs) */
   uint64_t *code;  /* the whole file, calloc'd */
   size_t size_B;   /* bytes read */
   unsigned entry_B; /* start of the stage run (the stock varying variant) */
};

/* Parses --seed=N --stage=vs|vv|fs [--layout=FILE] FILE.bin, reads the
 * layout (lines it does not know go to extra) and the binary: 0, or the
 * exit status (2 usage, 4 I/O) after saying why. */
int diff_run_load(int argc, char **argv, const char *name,
                  void (*extra)(const char *line), struct diff_run *r);

/* Prints the status, the discarded lanes and the outputs recorded. */
void diff_print(const char *status, uint32_t discarded);

#endif
