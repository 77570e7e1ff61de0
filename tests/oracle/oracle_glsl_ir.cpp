/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * GLSL IR lowering the standalone GLSL front end leaves out but
 * glsl_to_nir relies on (matrix arithmetic, vector indexing).  The Gallium
 * state tracker runs the same passes before handing shaders to a driver.
 * Test-oracle code only: never linked into the product.
 */

#include "compiler/glsl/ir.h"
#include "compiler/glsl/ir_optimization.h"
#include "main/mtypes.h"

#include "oracle_glsl_ir.h"

void
oracle_lower_glsl_ir(struct gl_shader_program *prog)
{
   for (unsigned s = 0; s < MESA_SHADER_STAGES; s++) {
      struct gl_linked_shader *sh = prog->_LinkedShaders[s];
      if (!sh)
         continue;

      exec_list *ir = sh->ir;
      do_mat_op_to_vec(ir);
      lower_instructions(ir, false, false, false, false, false);
      do_vec_index_to_cond_assign(ir);
      lower_vector_insert(ir, true);
   }
}
