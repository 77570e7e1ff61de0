/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 *
 * The Midgard compiler's pipeline: NIR lowering and clean-up, out of SSA
 * with vectors as masked moves, then our IR, register allocation and
 * bundle scheduling/emission.
 */

#include <string.h>

#include "util/ralloc.h"

#include "compiler/pan_nir_fixpoint.h"
#include "mid_ir.h"

const nir_shader_compiler_options mid_nir_options = {
   /* Float ops without a Midgard opcode, as ALU sequences. */
   .lower_ffma32 = true, .lower_flrp32 = true, .lower_fpow = true,
   .lower_fmod = true, .lower_fdiv = true, .lower_ffract = true,
   .lower_fsign = true, .lower_isign = true, .lower_fdph = true,
   .lower_scmp = true, .lower_ldexp = true, .lower_hadd = true,
   .lower_fsat = false, /* the output modifier clamps */
   /* Bit manipulation: shifts and masks. */
   .lower_find_lsb = true, .lower_ifind_msb = true, .lower_bit_count = true,
   .lower_bitfield_reverse = true, .lower_rotate = true,
   .lower_bitfield_insert_to_shifts = true,
   .lower_bitfield_extract_to_shifts = true,
   .lower_extract_byte = true, .lower_extract_word = true,
   .lower_insert_byte = true, .lower_insert_word = true,
   .lower_uadd_carry = true, .lower_usub_borrow = true,
   .lower_pack_split = true,
   /* Driver interface: uniforms in UBO 0, vertex ids from 0. */
   .lower_uniforms_to_ubo = true, .vertex_id_zero_based = true,
   .max_unroll_iterations = 32,
};

/* Horizontal ops (all/any comparisons, two-lane dot products) become
 * scalar ops; fdot3/fdot4 run on vmul, the rest keeps its vector width. */
static bool
scalarise_filter(const nir_instr *instr, const void *data)
{
   if (instr->type != nir_instr_type_alu)
      return false;
   nir_alu_instr *alu = nir_instr_as_alu(instr);
   const nir_op_info *info = &nir_op_infos[alu->op];
   if (nir_op_is_vec(alu->op) || alu->op == nir_op_fdot3 ||
       alu->op == nir_op_fdot4)
      return false;
   return info->output_size == 1 && info->num_inputs &&
          info->input_sizes[0] > 1;
}

/* Small ifs become selects: Midgard has no cheap divergent branches. */
static bool
flatten_small_ifs(nir_shader *nir)
{
   return nir_opt_peephole_select(nir, 8, true, true);
}

static bool
simplify_ifs(nir_shader *nir)
{
   return nir_opt_if(nir, nir_opt_if_aggressive_last_continue);
}

/* Run together until nothing changes (32 rounds at most). */
static const pan_nir_pass mid_nir_cleanup[] = {
   nir_copy_prop,     nir_opt_remove_phis,      nir_opt_dce,
   nir_opt_dead_cf,   nir_opt_cse,              flatten_small_ifs,
   nir_opt_algebraic, nir_opt_constant_folding, simplify_ifs,
   nir_opt_loop_unroll,
};

static void
optimise(nir_shader *nir)
{
   pan_nir_fixpoint(nir, mid_nir_cleanup, ARRAY_SIZE(mid_nir_cleanup), 32);
}

static void
lower(nir_shader *nir)
{
   NIR_PASS_V(nir, nir_lower_vars_to_ssa);
   /* Projection divides in the shader; implicit LODs outside fragment
    * shaders become LOD 0. */
   nir_lower_tex_options tex = {
      .lower_txp = ~0u,
      .lower_txd = true,
      .lower_txs_lod = true,
      .lower_invalid_implicit_lod = true,
   };
   NIR_PASS_V(nir, nir_lower_tex, &tex);
   NIR_PASS_V(nir, nir_lower_idiv,
              &(nir_lower_idiv_options){ .allow_fp16 = false });
   NIR_PASS_V(nir, nir_lower_alu_to_scalar, scalarise_filter, NULL);
   optimise(nir);
   NIR_PASS_V(nir, nir_opt_algebraic_late);
   NIR_PASS_V(nir, nir_lower_bool_to_int32);
   NIR_PASS_V(nir, nir_copy_prop);
   NIR_PASS_V(nir, nir_opt_dce);
   NIR_PASS_V(nir, nir_lower_to_source_mods, nir_lower_float_source_mods);
   NIR_PASS_V(nir, nir_opt_dce);
   NIR_PASS_V(nir, nir_lower_locals_to_regs);
   NIR_PASS_V(nir, nir_convert_from_ssa, true);
   NIR_PASS_V(nir, nir_move_vec_src_uses_to_dest);
   NIR_PASS_V(nir, nir_lower_vec_to_movs, NULL, NULL);
   NIR_PASS_V(nir, nir_opt_dce);
}

static unsigned
threads_of(const struct mid_shader *s)
{
   unsigned r = MAX2(s->work_regs, 1);
   return r <= 4 ? 4 : r <= 8 ? 2 : 1;
}

/* Whether one thread saves enough: at least two fifths of the bundles
 * of a two-thread schedule.  The stock compiler does not look at threads
 * (its large vertex shaders run one thread in far fewer bundles than our
 * two-thread schedules); a smaller saving does not pay for half the
 * threads, and four threads always beat two. */
static bool
one_thread_pays(unsigned one, unsigned two)
{
   return 5 * one <= 3 * two;
}

/* Whether schedule a beats b: more threads (but for one_thread_pays),
 * then fewer bundles. */
static bool
better(const struct mid_shader *a, const struct mid_shader *b)
{
   unsigned ta = threads_of(a), tb = threads_of(b);
   unsigned na = a->bin.nr_bundles, nb = b->bin.nr_bundles;
   if (ta == 1 && tb == 2)
      return one_thread_pays(na, nb);
   if (ta == 2 && tb == 1)
      return !one_thread_pays(nb, na);
   return ta != tb ? ta > tb : na < nb;
}

static bool
compile_ir(struct mid_shader *s, nir_shader *nir, struct mid_binary *out,
           FILE *print_ir)
{
   if (!mid_from_nir(s, nir))
      return false;
   mid_dce(s);
   if (mid_is_empty(s)) {
      /* Nothing to run (a fragment shader with no effect): no bundles,
       * only the terminating zero quadword. */
      out->size_B = 16;
      out->code = rzalloc_array(s->mem, uint8_t, out->size_B);
      return true;
   }
   if (s->level + 1 < MID_SCHED_LEVELS)
      mid_opt_moves(s);
   if (print_ir) {
      fprintf(print_ir, "--- IR (schedule level %u) ---\n", s->level);
      mid_print(s, print_ir);
   }
   if (!mid_schedule(s) || !mid_ra(s))
      return false;
   mid_drop_self_moves(s);
   if (print_ir) {
      fprintf(print_ir, "--- scheduled and allocated ---\n");
      mid_print(s, print_ir);
   }
   return mid_emit(s, out);
}

/* From the freest schedule to the one closest to program order, then
 * the tighter levels again with varying stores hoisted; the most threads
 * win, then the fewest bundles.  False when a try failed for another
 * reason than registers (no point trying further). */
static bool
try_levels(nir_shader *nir, unsigned gpu_id, unsigned max_push, void *mem_ctx,
           FILE *print_ir, struct mid_shader **best, char *first_err,
           size_t err_size)
{
   const unsigned nr_tries = 2 * MID_SCHED_LEVELS - MID_HOIST_LEVELS - 1;
   for (unsigned t = 0; t < nr_tries; t++) {
      unsigned level =
         t < MID_SCHED_LEVELS ? t : t - MID_SCHED_LEVELS + MID_HOIST_LEVELS;
      struct mid_shader *s = rzalloc(mem_ctx, struct mid_shader);
      s->mem = s;
      s->stage = nir->info.stage;
      s->gpu_id = gpu_id;
      s->tex_in = mid_tex_aliasing(gpu_id) ? 26 : 28;
      /* Results to r29 keep the coordinates in r28 for the next word. */
      s->tex_out = mid_tex_aliasing(gpu_id) ? 0 : 29;
      s->sysval_ubo = nir->info.num_ubos;
      s->level = level;
      s->max_push = max_push;
      s->hoist_stores = level < MID_HOIST_LEVELS || t >= MID_SCHED_LEVELS;
      s->err = s->err_buf;
      s->err_size = sizeof(s->err_buf);
      list_inithead(&s->blocks);
      if (!compile_ir(s, nir, &s->bin, print_ir)) {
         if (!first_err[0])
            snprintf(first_err, err_size, "%s",
                     s->failed ? s->err_buf : "internal error");
         bool retry = s->ra_failed;
         ralloc_free(s);
         if (!retry)
            return false;
         continue;
      }
      if (!*best || better(s, *best)) {
         ralloc_free(*best);
         *best = s;
      } else {
         ralloc_free(s);
      }
   }
   return true;
}

bool
mid_compile(nir_shader *nir, unsigned gpu_id, void *mem_ctx,
            struct mid_binary *out, FILE *print_ir, char *err, size_t err_size)
{
   memset(out, 0, sizeof(*out));
   if (gpu_id != 0x720 && gpu_id != 0x860) {
      snprintf(err, err_size, "GPU 0x%x is not a Midgard we target", gpu_id);
      return false;
   }
   gl_shader_stage stage = nir->info.stage;
   if (stage != MESA_SHADER_COMPUTE && stage != MESA_SHADER_KERNEL &&
       stage != MESA_SHADER_FRAGMENT && stage != MESA_SHADER_VERTEX) {
      snprintf(err, err_size, "%s shaders are not supported",
               gl_shader_stage_name(stage));
      return false;
   }

   lower(nir);

   /* When no level fits the registers, or only in one thread, push fewer
    * uniforms (the others load from the buffer): 8 leave all 16 work
    * registers, where a one-thread schedule can be much freer than the
    * tightest level within the 8 left by 16 pushed uniforms. */
   static const unsigned push_limits[] = { MID_MAX_PUSH, 8 };
   struct mid_shader *best = NULL;
   char first_err[256] = "";
   for (unsigned p = 0;
        p < ARRAY_SIZE(push_limits) && (!best || threads_of(best) == 1); p++) {
      first_err[0] = 0;
      if (!try_levels(nir, gpu_id, push_limits[p], mem_ctx, print_ir, &best,
                      first_err, sizeof(first_err)))
         break;
   }
   if (!best) {
      snprintf(err, err_size, "%s", first_err);
      return false;
   }
   struct mid_shader *s = best;
   *out = s->bin;
   /* Move the code to the caller's context before freeing ours. */
   ralloc_steal(mem_ctx, out->code);
   out->work_regs = MAX2(s->work_regs, 1);
   out->threads = out->work_regs <= 4 ? 4 : out->work_regs <= 8 ? 2 : 1;
   out->loops = s->loops;
   out->nr_push = s->nr_push;
   memcpy(out->push, s->push, sizeof(out->push));
   memcpy(out->push_ubo, s->push_ubo, sizeof(out->push_ubo));
   out->sysval_ubo = s->sysval_ubo;
   out->nr_tex = s->nr_tex;
   out->writes_depth = s->writes_depth;
   out->rts_written = s->rts_written;
   ralloc_free(s);
   return true;
}
