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
   /* NIR_PASS, not NIR_PASS_V: a pass that changed nothing leaves a shader
    * that needs no validation again (in builds that validate, checking
    * after every pass cost twice the passes themselves). */
   UNUSED bool progress = false;
   NIR_PASS(progress, nir, nir_lower_vars_to_ssa);
   /* Projection divides in the shader; implicit LODs outside fragment
    * shaders become LOD 0. */
   nir_lower_tex_options tex = {
      .lower_txp = ~0u,
      .lower_txd = true,
      .lower_txs_lod = true,
      .lower_invalid_implicit_lod = true,
   };
   NIR_PASS(progress, nir, nir_lower_tex, &tex);
   NIR_PASS(progress, nir, nir_lower_idiv,
            &(nir_lower_idiv_options){ .allow_fp16 = false });
   NIR_PASS(progress, nir, nir_lower_alu_to_scalar, scalarise_filter, NULL);
   optimise(nir);
   NIR_PASS(progress, nir, nir_opt_algebraic_late);
   NIR_PASS(progress, nir, nir_lower_bool_to_int32);
   NIR_PASS(progress, nir, nir_copy_prop);
   NIR_PASS(progress, nir, nir_opt_dce);
   NIR_PASS(progress, nir, nir_lower_to_source_mods,
            nir_lower_float_source_mods);
   NIR_PASS(progress, nir, nir_opt_dce);
   NIR_PASS(progress, nir, nir_lower_locals_to_regs);
   NIR_PASS(progress, nir, nir_convert_from_ssa, true);
   NIR_PASS(progress, nir, nir_move_vec_src_uses_to_dest);
   NIR_PASS(progress, nir, nir_lower_vec_to_movs, NULL, NULL);
   NIR_PASS(progress, nir, nir_opt_dce);
}

static struct mid_shader *
finish_ir(struct mid_shader *s, bool moves, unsigned early, FILE *print_ir)
{
   s->sched_cache = mid_sched_cache_create(s);
   if (print_ir) {
      fprintf(print_ir, "--- IR (%s, %s%s) ---\n",
              moves ? "moves eliminated" : "moves kept",
              s->hoist_stores ? "stores hoisted" : "stores in place",
              early > 1 ? ", early, pulled" : early ? ", early" : "");
      mid_print(s, print_ir);
   }
   return s;
}

/* After move elimination: the early stores of the later rounds (and the
 * late lookups of the first of them). */
static struct mid_shader *
moved_ir(struct mid_shader *s, unsigned early, FILE *print_ir, bool *unchanged)
{
   /* Stores moved up may let their moves sink into the producers. */
   bool moved = early && mid_ra_early_stores(s, early > 1);
   if (moved)
      mid_opt_moves(s);
   mid_tex_coords(s);
   /* The first extra round also moves lookups and loads down to their
    * uses. */
   if (early == 1 && mid_tex_late(s))
      moved = true;
   if (early == 1 && mid_late_loads(s))
      moved = true;
   if (early && mid_ra_keep_tex_copies(s))
      moved = true;
   if (early && !moved && unchanged)
      *unchanged = true;
   return finish_ir(s, true, early, print_ir);
}

static unsigned
threads_of(const struct mid_shader *s)
{
   unsigned r = MAX2(s->work_regs, 1);
   return r <= 4 ? 4 : r <= 8 ? 2 : 1;
}

/* Whether half the threads pay: a schedule with half the threads of
 * another wins when it has at most three fifths of its bundles.  The
 * stock compiler does not look at threads (its large vertex shaders run
 * one thread in far fewer bundles than our two-thread schedules, and many
 * run two where our four-thread ones are much longer); a smaller saving
 * does not pay for half the threads, and four threads always beat one. */
bool
mid_half_threads_pay(unsigned fewer, unsigned more)
{
   return 5 * fewer <= 3 * more;
}

/* One thread against two wins at three quarters of the bundles or less:
 * the large vertex shaders that stock runs on one thread in far fewer
 * bundles (tesseract's skinned ones: 47 bundles against 77 at two).  From
 * four fifths on, shaders where stock runs two threads fall to one. */
bool
mid_one_thread_pays(unsigned one, unsigned two)
{
   return 4 * one <= 3 * two;
}

/* Whether schedule a beats b: more threads (but for mid_half_threads_pay),
 * then fewer bundles. */
static bool
better(const struct mid_shader *a, const struct mid_shader *b)
{
   unsigned ta = threads_of(a), tb = threads_of(b);
   unsigned na = a->bin.nr_bundles, nb = b->bin.nr_bundles;
   if (ta + tb == 3)
      return ta == 1 ? mid_one_thread_pays(na, nb)
                     : !mid_one_thread_pays(nb, na);
   if (2 * ta == tb)
      return mid_half_threads_pay(na, nb);
   if (ta == 2 * tb)
      return !mid_half_threads_pay(nb, na);
   return ta != tb ? ta > tb : na < nb;
}

/* The front end and move elimination for one kind of try: their IR
 * depends only on hoisting, the pushed uniforms and whether moves are
 * eliminated (all levels but the last), so each schedule starts from a
 * clone of it.  The early-store rounds start from a clone of the first
 * round's IR of the same hoisting (first, when it was made: the front
 * end and move elimination again would give the same), then move their
 * stores.  NULL with the error in s->err_buf on failure. */
static struct mid_shader *
build_ir(nir_shader *nir, unsigned gpu_id, unsigned max_push, bool hoist,
         bool moves, unsigned early, const struct mid_shader *first,
         void *mem_ctx, FILE *print_ir, bool *unchanged)
{
   if (moves && early && first && !first->failed && !mid_is_empty(first)) {
      struct mid_shader *s = mid_shader_clone(first, mem_ctx);
      if (s) {
         s->sched_cache = NULL;
         return moved_ir(s, early, print_ir, unchanged);
      }
   }
   struct mid_shader *s = rzalloc(mem_ctx, struct mid_shader);
   s->mem = s;
   s->stage = nir->info.stage;
   s->gpu_id = gpu_id;
   s->tex_in = mid_tex_aliasing(gpu_id) ? 26 : 28;
   /* Results to r29 keep the coordinates in r28 for the next word. */
   s->tex_out = mid_tex_aliasing(gpu_id) ? 0 : 29;
   s->sysval_ubo = nir->info.num_ubos;
   s->max_push = max_push;
   s->hoist_stores = hoist;
   s->err = s->err_buf;
   s->err_size = sizeof(s->err_buf);
   list_inithead(&s->blocks);
   if (!mid_from_nir(s, nir))
      return s;
   mid_dce(s);
   if (moves && !mid_is_empty(s)) {
      mid_opt_moves(s);
      return moved_ir(s, early, print_ir, unchanged);
   }
   return finish_ir(s, moves, early, print_ir);
}

/* Whether the IR stores varyings (the only thing hoisting changes). */
static bool
has_varying_stores(const struct mid_shader *s)
{
   mid_foreach_block(s, b)
   {
      mid_foreach_instr(b, I)
      {
         if (I->kind == MID_LDST && I->store && !strncmp(I->op, "st_vary", 7))
            return true;
      }
   }
   return false;
}

/* The bundles from which no schedule beats best, whatever its threads
 * (at most four; better()): against four threads, only fewer bundles
 * win (two threads need even fewer); against two, four threads win
 * below five thirds of best's bundles, and two or one need fewer.
 * Against one thread a four-thread schedule always wins: 0, no cutoff. */
static unsigned
cutoff(const struct mid_shader *best)
{
   if (!best)
      return 0;
   unsigned nb = best->bin.nr_bundles;
   switch (threads_of(best)) {
   case 4:
      return nb;
   case 2:
      return DIV_ROUND_UP(5 * nb, 3);
   default:
      return 0;
   }
}

/* The bundles from which only a schedule of at most 4 ([0]) or 8 ([1])
 * work registers beats best (0: none; better()): against four threads,
 * past three fifths of best's bundles only four threads win (from its
 * bundles cutoff() stops them all); against two, past three quarters of
 * them one thread loses, and from its bundles two threads too; against
 * one, from its bundles one thread loses, and from four thirds of them
 * two threads too. */
static void
register_cutoffs(const struct mid_shader *best, unsigned cut[2])
{
   cut[0] = cut[1] = 0;
   if (!best)
      return;
   unsigned nb = best->bin.nr_bundles;
   switch (threads_of(best)) {
   case 4:
      cut[0] = 3 * nb / 5 + 1;
      break;
   case 2:
      cut[0] = nb;
      cut[1] = 3 * nb / 4 + 1;
      break;
   default:
      cut[0] = DIV_ROUND_UP(4 * nb, 3);
      cut[1] = nb;
      break;
   }
}

/* Schedule and allocate a clone of ir at a level; the bundle count is
 * known without encoding (only the kept schedule is emitted).  A
 * schedule that cannot end below `cut` bundles stops (s->sched_cut), and
 * so does one that provably needs more registers than it could win with
 * (register_cutoffs). */
static struct mid_shader *
schedule_ir(const struct mid_shader *ir, unsigned level,
            const struct mid_shader *best, bool notes, void *mem_ctx,
            FILE *print_ir)
{
   struct mid_shader *s = mid_shader_clone(ir, mem_ctx);
   if (!s)
      return NULL;
   s->level = level;
   s->sched_cutoff = cutoff(best);
   register_cutoffs(best, s->sched_cut_regs);
   s->sched_notes = notes;
   s->sched_cut = s->sched_partial = false;
   if (!mid_schedule(s) || !mid_ra(s))
      return s;
   mid_drop_self_moves(s);
   s->bin.nr_bundles =
      util_dynarray_num_elements(&s->bundles, struct mid_bundle);
   if (print_ir) {
      fprintf(print_ir,
              "--- scheduled and allocated (level %u: %u bundles, %u "
              "registers) ---\n",
              level, s->bin.nr_bundles, s->work_regs);
      mid_print(s, print_ir);
   }
   return s;
}

/* The most instructions of one block: a window at least that wide sees
 * every group, like no window. */
static unsigned
largest_block(const struct mid_shader *s)
{
   unsigned most = 0;
   mid_foreach_block(s, b)
   {
      unsigned n = 0;
      mid_foreach_instr(b, I) n++;
      most = MAX2(most, n);
   }
   return most;
}

/* Unbounded schedules met so far of one IR: per window that matters, the
 * peaks of its live counts (struct mid_shader::sched_peak). */
struct free_schedules {
   unsigned nr;
   unsigned reach[MID_SCHED_LEVELS], hidden[MID_SCHED_LEVELS];
   unsigned peak[MID_SCHED_LEVELS][2];
   bool ordered[MID_SCHED_LEVELS]; /* their dependences differ */
};

/* A level whose budget an unbounded schedule stayed under never holds a
 * group back, and a window between that schedule's reach and its first
 * hidden group sees the same groups: such a level repeats it. */
static bool
repeats_free(const struct free_schedules *f, unsigned window, unsigned limit,
             bool strict, bool ordered)
{
   for (unsigned i = 0; i < f->nr; i++) {
      if (window >= f->reach[i] && window <= f->hidden[i] &&
          f->ordered[i] == ordered &&
          (!limit || f->peak[i][strict] <= limit))
         return true;
   }
   return false;
}

/* Whether note_free could note a schedule of this window (if its budget
 * holds nothing back). */
static bool
may_note(const struct free_schedules *f, unsigned window, bool ordered)
{
   return !repeats_free(f, window, 0, false, ordered) &&
          f->nr < MID_SCHED_LEVELS;
}

/* Note s (scheduled with this window and limit) when its budget never
 * held a group back. */
static void
note_free(struct free_schedules *f, unsigned window, unsigned limit,
          bool strict, bool ordered, const struct mid_shader *s)
{
   if ((limit && s->sched_peak[strict] > limit) ||
       !may_note(f, window, ordered))
      return;
   f->ordered[f->nr] = ordered;
   f->reach[f->nr] = s->sched_reach;
   f->hidden[f->nr] = s->sched_hidden;
   memcpy(f->peak[f->nr++], s->sched_peak, sizeof(s->sched_peak));
}

/* From the freest schedule to the one closest to program order, then
 * the tighter levels again with varying stores hoisted; the most threads
 * win, then the fewest bundles.  Levels that would repeat a schedule
 * already made are skipped: hoisting without varying stores, windows
 * wider than every block, budgets the unbounded schedule stays under.
 * False when a try failed for another reason than registers (no point
 * trying further).  The front-end IR goes on tmp, which must outlive the
 * schedules (they share its opcode names). */
static bool
try_levels(nir_shader *nir, unsigned gpu_id, unsigned max_push, unsigned early,
           struct mid_shader **first, void *mem_ctx, void *tmp, FILE *print_ir,
           struct mid_shader **best, char *first_err, size_t err_size,
           unsigned *nr_schedules, unsigned *nr_cut)
{
   /* [hoisted]; without varying stores hoisting changes nothing and
    * one IR serves both. */
   struct mid_shader *ir[2] = { NULL, NULL };
   struct free_schedules *seen = rzalloc_array(tmp, struct free_schedules, 2);
   unsigned largest[2] = { 0, 0 };
   /* Early stores that moved nothing repeat the first round. */
   bool unchanged[2] = { false, false };
   bool stores = true;
   bool ok = true;
   const unsigned nr_tries = 2 * MID_SCHED_LEVELS - MID_HOIST_LEVELS - 1;
   for (unsigned t = 0; t < nr_tries && ok; t++) {
      unsigned level =
         t < MID_SCHED_LEVELS ? t : t - MID_SCHED_LEVELS + MID_HOIST_LEVELS;
      bool hoist = level < MID_HOIST_LEVELS || t >= MID_SCHED_LEVELS;
      bool moves = level + 1 < MID_SCHED_LEVELS;
      /* The second round would repeat the first. */
      if (t >= MID_SCHED_LEVELS && !stores)
         break;
      unsigned vi = hoist && stores;
      struct mid_shader *base = NULL;
      if (moves) {
         if (!ir[vi]) {
            ir[vi] = build_ir(nir, gpu_id, max_push, vi, true, early, first[vi],
                              tmp, print_ir, &unchanged[vi]);
            if (!early)
               first[vi] = ir[vi];
            largest[vi] = largest_block(ir[vi]);
            if (vi && !ir[vi]->failed && !has_varying_stores(ir[vi])) {
               stores = false;
               ir[0] = ir[1];
               largest[0] = largest[1];
               unchanged[0] = unchanged[1];
               vi = 0;
            }
         }
         base = ir[vi];
         if (unchanged[vi])
            continue;
      } else if (early) {
         continue;
      } else {
         base = build_ir(nir, gpu_id, max_push, hoist, false, false, NULL, tmp,
                         print_ir, NULL);
      }
      unsigned window = mid_sched_window(level);
      if (moves && window >= largest[vi])
         window = ~0u;
      unsigned limit = base->failed ? 0 : mid_sched_limit(base, level);
      bool strict = mid_sched_strict(level);
      bool ordered = mid_sched_ordered(level);
      if (moves && repeats_free(&seen[vi], window, limit, strict, ordered))
         continue;
      struct mid_shader *s = NULL;
      if (!base->failed && mid_is_empty(base)) {
         /* Nothing to run (a fragment shader with no effect): no
          * bundles, only the terminating zero quadword. */
         s = mid_shader_clone(base, mem_ctx);
         s->bin.size_B = 16;
         s->bin.code = rzalloc_array(s->mem, uint8_t, s->bin.size_B);
         ralloc_free(*best);
         *best = s;
         break;
      }
      if (!base->failed) {
         /* A schedule that provably loses to best stops early; the
          * noted facts of a whole one that could be noted are kept, so
          * the same levels are skipped as when it runs to the end. */
         bool notes = moves && may_note(&seen[vi], window, ordered);
         s = schedule_ir(base, level, *best, notes, mem_ctx, print_ir);
         (*nr_schedules)++;
      }
      if (moves && s && (!s->failed || s->ra_failed) && !s->sched_partial)
         note_free(&seen[vi], window, limit, strict, ordered, s);
      if (s && s->sched_cut) {
         (*nr_cut)++;
         ralloc_free(s);
         continue;
      }
      if (base->failed || !s || s->failed) {
         const char *why = base->failed ? base->err_buf
                           : s && s->failed ? s->err_buf
                                            : "internal error";
         if (!first_err[0])
            snprintf(first_err, err_size, "%s", why);
         ok = !base->failed && s && s->ra_failed;
         ralloc_free(s);
         continue;
      }
      if (!*best || better(s, *best)) {
         ralloc_free(*best);
         *best = s;
      } else {
         ralloc_free(s);
      }
   }
   return ok;
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
   void *ir_mem = ralloc_context(NULL);
   unsigned nr_schedules = 0, nr_cut = 0;
   char first_err[256] = "";
   for (unsigned p = 0;
        p < ARRAY_SIZE(push_limits) && (!best || threads_of(best) == 1); p++) {
      first_err[0] = 0;
      /* The first round's IR per hoisting, which the later rounds clone. */
      struct mid_shader *first[2] = { NULL, NULL };
      /* Short of four threads: again with the varying stores as early as
       * their data allows (fewer values live, not always fewer bundles),
       * then also with the outputs assembled piece by piece moved along
       * with their stores. */
      bool ok = true;
      for (unsigned early = 0; early < 3 && ok; early++) {
         if (!early || (best && threads_of(best) < 4))
            ok = try_levels(nir, gpu_id, push_limits[p], early, first, mem_ctx,
                            ir_mem, print_ir, &best, first_err,
                            sizeof(first_err), &nr_schedules, &nr_cut);
      }
      if (!ok)
         break;
   }
   if (!best) {
      snprintf(err, err_size, "%s", first_err);
      ralloc_free(ir_mem);
      return false;
   }
   struct mid_shader *s = best;
   if (s->bin.nr_bundles && !mid_emit(s, &s->bin)) {
      snprintf(err, err_size, "%s", s->err_buf);
      ralloc_free(s);
      ralloc_free(ir_mem);
      return false;
   }
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
   out->nr_schedules = nr_schedules;
   out->nr_cut = nr_cut;
   ralloc_free(s);
   ralloc_free(ir_mem);
   return true;
}
