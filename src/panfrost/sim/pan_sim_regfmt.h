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

#endif
