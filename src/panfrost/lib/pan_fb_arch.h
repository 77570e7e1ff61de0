/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* The per-architecture half of pan_fb.h: each copy of pan_vX_fb.c
 * exports one of these tables, and pan_fb.c picks the device's.
 */

#ifndef PAN_FB_ARCH_H
#define PAN_FB_ARCH_H

#include "pan_fb.h"

struct pan_fb_arch {
   bool (*color_supported)(const struct pan_rt_format *f);
   bool (*zs_supported)(enum pan_zs_layout layout);
   unsigned (*size_B)(const struct pan_fb *fb);
   uint64_t (*emit)(const struct pan_fb *fb, void *cpu, uint64_t gpu_va);
   unsigned (*fragment_job_size_B)(void);
   void (*emit_fragment_job)(const struct pan_fb *fb, uint64_t fbd_ptr,
                             void *cpu);
};

extern const struct pan_fb_arch pan_v4_fb_arch;
extern const struct pan_fb_arch pan_v5_fb_arch;
extern const struct pan_fb_arch pan_v6_fb_arch;
extern const struct pan_fb_arch pan_v7_fb_arch;
extern const struct pan_fb_arch pan_v9_fb_arch;

#endif /* PAN_FB_ARCH_H */
