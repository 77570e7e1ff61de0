/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#ifndef ORACLE_GLSL_IR_H
#define ORACLE_GLSL_IR_H

#ifdef __cplusplus
extern "C" {
#endif

struct gl_shader_program;

/* Lower linked GLSL IR the way a GL driver sees it (see the .cpp). */
void oracle_lower_glsl_ir(struct gl_shader_program *prog);

#ifdef __cplusplus
}
#endif

#endif
