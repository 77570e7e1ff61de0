/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * Register formats of the message instructions (attribute, varying and
 * blend conversions), numbered as the Bifrost and Valhall encodings both
 * number them, so the interpreters and the executors share one enum.
 */

#ifndef PAN_SIM_REGFMT_H
#define PAN_SIM_REGFMT_H

#include <string.h>

/* AUTO: the instruction names none, the memory format decides. */
enum pan_sim_regfmt {
   PAN_SIM_REG_F16 = 0,
   PAN_SIM_REG_F32 = 1,
   PAN_SIM_REG_S32 = 2,
   PAN_SIM_REG_U32 = 3,
   PAN_SIM_REG_S16 = 4,
   PAN_SIM_REG_U16 = 5,
   PAN_SIM_REG_AUTO = 8,
};

/* A register format by its name in the instruction tables ("f16", "f32",
 * "s32", "u32", "s16", "u16"; the encodings number them differently);
 * AUTO for none (NULL) or another (f64, i64: refused by the loads). */
static inline enum pan_sim_regfmt
pan_sim_regfmt_named(const char *name)
{
   static const char *const names[] = {
      "f16", "f32", "s32", "u32", "s16", "u16"
   };
   for (unsigned i = 0; name && i < 6; ++i) {
      if (!strcmp(name, names[i]))
         return (enum pan_sim_regfmt)i;
   }
   return PAN_SIM_REG_AUTO;
}

/* Registers holding comps components: 16-bit formats pack two a word. */
static inline unsigned
pan_sim_regfmt_words(enum pan_sim_regfmt f, unsigned comps)
{
   return f == PAN_SIM_REG_F16 || f == PAN_SIM_REG_S16 || f == PAN_SIM_REG_U16
             ? (comps + 1) / 2
             : comps;
}

#endif
