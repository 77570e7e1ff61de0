/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Vertex and fragment state objects, compiled once at creation with the
 * architecture's compiler (nothing in them depends on other state yet).
 * A shader the compiler refuses still gives a state object; its draws are
 * dropped with the compiler's message.
 */

#include <stdio.h>
#include <string.h>

#include "compiler/nir/nir.h"
#include "nir/tgsi_to_nir.h"
#include "util/log.h"
#include "util/ralloc.h"
#include "util/u_math.h"
#include "util/u_memory.h"

#include "pan_arch.h"
#include "pan_bo.h"
#include "pan_context.h"
#include "pan_midgard.h"
#include "pan_polygon_mode.h"
#include "pan_screen.h"
#include "pan_shader_cache.h"
#include "pan_ssbo.h"

/* Compiles nir (which it frees) into so, or sets so->error. */
static void
compile_gfx(struct panfrost_screen *screen, struct panfrost_shader *so,
            nir_shader *nir, struct util_debug_callback *debug)
{
   const struct panfrost_arch *arch = screen->arch;
   bool vs = so->stage == PIPE_SHADER_VERTEX;
   struct panfrost_binary bins[2];
   char err[sizeof(so->error)] = "";

   if (!arch || (!arch->draw && !arch->jm)) {
      /* Midgard: compiled to be measured, but not drawn yet. */
      if (screen->dev.arch <= 5 &&
          !panfrost_midgard_compile(screen->dev.gpu_id, nir, debug, err,
                                    sizeof(err))) {
         snprintf(so->error, sizeof(so->error), "%s", err);
         goto out;
      }
      snprintf(so->error, sizeof(so->error),
               "draws are not supported on v%u yet", screen->dev.arch);
      goto out;
   }

   /* Storage buffers (and atomic counters) as global memory at the
    * addresses of the stage's PANFROST_SSBO_CBUF (pan_ssbo.h).
    */
   if (!panfrost_nir_lower_ssbo_gfx(nir, &so->ssbo_slots,
                                    &so->ssbo_reach_B, err, sizeof(err))) {
      snprintf(so->error, sizeof(so->error), "%s", err);
      goto out;
   }
   nir_shader_gather_info(nir, nir_shader_get_entrypoint(nir));
   /* The compiler's slots: generic and fixed-function varyings. */
   so->varying_slots = pan_va_varying_slots(vs ? nir->info.outputs_written
                                               : nir->info.inputs_read);
   so->kills = !vs && nir->info.fs.uses_discard;
   so->writes_memory = !vs && nir->info.writes_memory;
   so->writes_psiz =
      vs && (nir->info.outputs_written & BITFIELD64_BIT(VARYING_SLOT_PSIZ));
   so->writes_fragcolor =
      !vs && (nir->info.outputs_written & BITFIELD64_BIT(FRAG_RESULT_COLOR));
   so->writes_depth =
      !vs && (nir->info.outputs_written & BITFIELD64_BIT(FRAG_RESULT_DEPTH));
   so->writes_stencil =
      !vs && (nir->info.outputs_written & BITFIELD64_BIT(FRAG_RESULT_STENCIL));
   so->early_tests = !vs && nir->info.fs.early_fragment_tests;
   so->uses_textures = BITSET_COUNT(nir->info.textures_used) != 0;
   so->nr_images = panfrost_nir_image_count(nir);
   if (so->nr_images)
      panfrost_nir_lower_image_bounds(nir);
   /* v9 runs a vertex shader as an IDVS pair; v7's vertex job runs the
    * whole shader (the default variant: position and varyings).
    */
   so->nr_progs = vs && arch->draw ? 2 : 1;
   so->vs_writes_memory = vs && panfrost_nir_vertex_writes_memory(nir);
   so->once = so->nr_progs == 2 && panfrost_nir_vertex_needs_once(nir);
   /* Atomics whose results the pair would both read: made once. */
   so->vertex_results_B =
      so->nr_progs == 2 ? panfrost_nir_vertex_results_B(nir) : 0;

   /* The compiler lowers in place: each IDVS variant gets its own copy. */
   for (unsigned i = 0; i < so->nr_progs; ++i) {
      unsigned variant = so->nr_progs == 1 ? PAN_VA_VARIANT_DEFAULT
                         : i == 0          ? PAN_VA_VARIANT_POSITION
                                           : PAN_VA_VARIANT_VARYING;
      nir_shader *copy = i + 1 < so->nr_progs ? nir_shader_clone(nir, nir)
                                              : nir;
      /* Memory writes are the position program's (pan_ssbo.h). */
      if (so->vertex_results_B)
         panfrost_nir_keep_vertex_results(
            copy, variant == PAN_VA_VARIANT_VARYING, so->vertex_results_B);
      if (variant == PAN_VA_VARIANT_VARYING)
         panfrost_nir_drop_vertex_writes(copy);
      if (!panfrost_compile_cached(screen, copy, nir, variant, &bins[i], err,
                                   sizeof(err))) {
         snprintf(so->error, sizeof(so->error), "%s", err);
         goto out;
      }
      /* shader-db's runner reads the statistics from the debug output. */
      util_debug_message(debug, SHADER_INFO, "%s", bins[i].shaderdb);
   }

   const struct panfrost_arch_draw *d = arch->draw;
   unsigned offsets[2], size_B = 0;
   for (unsigned i = 0; i < so->nr_progs; ++i) {
      offsets[i] = size_B;
      size_B = ALIGN_POT(size_B + bins[i].nr_words * 8,
                         arch->shader_desc_align_B);
   }
   unsigned desc_B = size_B;
   size_B += so->nr_progs * arch->shader_desc_size_B;

   so->bo = pan_bo_create(&screen->dev, size_B, PAN_BO_EXECUTE,
                          vs ? "Vertex shader" : "Fragment shader");
   uint8_t *cpu = so->bo ? pan_bo_mmap(so->bo) : NULL;
   if (!cpu) {
      snprintf(so->error, sizeof(so->error),
               "out of GPU memory for a shader binary");
      goto out;
   }
   for (unsigned i = 0; i < so->nr_progs; ++i) {
      struct panfrost_program *p = &so->progs[i];
      unsigned at = desc_B + i * arch->shader_desc_size_B;

      memcpy(cpu + offsets[i], bins[i].words, bins[i].nr_words * 8);
      /* v7 packs its renderer states at each draw: desc is the binary. */
      p->desc = so->bo->gpu_va + offsets[i];
      if (d) {
         d->emit_gfx_shader(cpu + at,
                            vs ? PANFROST_PROGRAM_VERTEX
                               : PANFROST_PROGRAM_FRAGMENT,
                            p->desc, bins[i].work_regs);
         p->desc = so->bo->gpu_va + at;
      }
      p->tls_size = bins[i].tls_size;
      p->work_regs = bins[i].work_regs;
      p->int_varyings = bins[i].int_varyings;
      p->nr_push = bins[i].nr_push;
      p->binary = so->bo->gpu_va + offsets[i];
      for (unsigned rt = 0; rt < 8; ++rt) {
         p->blend_regs[rt].colour = bins[i].blend_colour[rt];
         p->blend_regs[rt].colour1 = bins[i].blend_colour1[rt];
         p->blend_regs[rt].coverage = bins[i].blend_coverage[rt];
         p->blend_return[rt] = bins[i].blend_return[rt];
      }
      memcpy(p->push, bins[i].push, bins[i].nr_push * sizeof(p->push[0]));
      memcpy(p->messages, bins[i].messages, sizeof(p->messages));
   }

out:
   ralloc_free(nir);
}

static void *
panfrost_create_shader(struct pipe_context *pctx,
                       const struct pipe_shader_state *cso,
                       enum pipe_shader_type stage)
{
   struct panfrost_context *ctx = panfrost_context(pctx);
   struct panfrost_shader *so = CALLOC_STRUCT(panfrost_shader);

   if (!so)
      return NULL;

   so->stage = stage;
   nir_shader *nir = cso->type == PIPE_SHADER_IR_NIR
                        ? cso->ir.nir /* ownership moves to us */
                        : tgsi_to_nir(cso->tokens, pctx->screen, false);
   if (cso->type != PIPE_SHADER_IR_NIR && stage == PIPE_SHADER_FRAGMENT)
      panfrost_nir_type_tgsi_outputs(nir);
   if (stage == PIPE_SHADER_VERTEX) {
      so->stream_output = cso->stream_output;
      so->xfb = panfrost_xfb_create_variant(ctx, nir, &cso->stream_output);
      /* For the record variants of draws with a geometry shader. */
      so->nir = nir_shader_clone(NULL, nir);
      /* Edge flags are read from the records (pan_polygon_mode.c). */
      panfrost_nir_drop_edge_flag(nir);
      if (nir->info.outputs_written &
          BITFIELD64_RANGE(VARYING_SLOT_CLIP_DIST0, 2))
         so->clip_dist_mask =
            BITFIELD_MASK(MIN2(nir->info.clip_distance_array_size, 8));
   } else {
      nir_shader_gather_info(nir, nir_shader_get_entrypoint(nir));
      so->tex_inputs = (nir->info.inputs_read >> VARYING_SLOT_TEX0) & 0xff;
      so->reads_point_coord =
         nir->info.inputs_read & BITFIELD64_BIT(VARYING_SLOT_PNTC);
      so->reads_face = panfrost_nir_reads_face(nir);
      /* What only a geometry shader writes (pan_gs.h). */
      so->reads_primitive_id =
         nir->info.inputs_read & BITFIELD64_BIT(PANFROST_PRIMITIVE_ID_SLOT);
      so->nir = nir_shader_clone(NULL, nir);
   }
   compile_gfx(panfrost_screen(pctx->screen), so, nir, &ctx->debug);
   if (so->error[0]) {
      const char *what = stage == PIPE_SHADER_VERTEX ? "vertex" : "fragment";
      mesa_loge("panfrost: %s shader refused: %s", what, so->error);
      util_debug_message(&ctx->debug, SHADER_INFO,
                         "panfrost: %s shader refused: %s", what, so->error);
   }
   return so;
}

static struct panfrost_shader *
fs_variant(struct panfrost_context *ctx, struct panfrost_shader *fs,
           const struct panfrost_fs_key *key)
{
   struct panfrost_shader *v;

   for (v = fs->variants; v; v = v->next_variant) {
      if (!memcmp(&v->key, key, sizeof(*key)))
         return v;
   }
   nir_shader *nir = fs->nir ? nir_shader_clone(NULL, fs->nir) : NULL;
   v = CALLOC_STRUCT(panfrost_shader);
   if (!v || !nir) {
      ralloc_free(nir);
      FREE(v);
      mesa_loge("panfrost: out of memory for a fragment shader variant, "
                "drawing the shader without it");
      return fs;
   }
   v->stage = PIPE_SHADER_FRAGMENT;
   v->key = *key;
   v->reads_primitive_id = fs->reads_primitive_id;
   panfrost_nir_lower_clip_fs(nir, key->clip);
   if (key->sprite)
      nir_lower_texcoord_replace(nir, key->sprite, false, false);
   if (key->flip_point_coord)
      panfrost_nir_flip_point_coord(nir);
   if (key->back_face)
      panfrost_nir_back_face(nir);
   compile_gfx(panfrost_screen(ctx->base.screen), v, nir, &ctx->debug);
   if (v->error[0])
      mesa_loge("panfrost: fragment shader variant refused: %s", v->error);
   v->next_variant = fs->variants;
   fs->variants = v;
   return v;
}

void
panfrost_select_fs(struct panfrost_context *ctx, bool points)
{
   struct panfrost_state *st = &ctx->state;
   const struct pipe_rasterizer_state *rast = st->rast;
   struct panfrost_shader *vs = st->shaders[PIPE_SHADER_VERTEX];
   struct panfrost_shader *fs = st->fs_bound;
   struct panfrost_fs_key key = { 0 };

   if (fs && rast) {
      if (vs)
         key.clip = rast->clip_plane_enable & vs->clip_dist_mask;
      if (points && rast->point_quad_rasterization) {
         key.sprite = rast->sprite_coord_enable & fs->tex_inputs;
         key.flip_point_coord =
            rast->sprite_coord_mode == PIPE_SPRITE_COORD_LOWER_LEFT &&
            (key.sprite || fs->reads_point_coord);
      }
      key.back_face = ctx->back_face_polygons && fs->reads_face;
   }
   st->shaders[PIPE_SHADER_FRAGMENT] =
      key.clip || key.sprite || key.flip_point_coord || key.back_face
         ? fs_variant(ctx, fs, &key)
         : fs;
}

static void
free_shader(struct pipe_context *pctx, struct panfrost_shader *so)
{
   /* A pending batch holds its own reference to the binaries. */
   pan_bo_unref(so->bo);
   if (so->xfb)
      pctx->delete_compute_state(pctx, so->xfb);
   if (so->gs_records)
      pctx->delete_compute_state(pctx, so->gs_records);
   if (so->effects)
      pctx->delete_compute_state(pctx, so->effects);
   if (so->polygon_vs)
      free_shader(pctx, so->polygon_vs);
   if (so->records_vs)
      free_shader(pctx, so->records_vs);
   if (so->records_ve)
      pctx->delete_vertex_elements_state(pctx, so->records_ve);
   ralloc_free(so->nir);
   FREE(so);
}

static void
panfrost_delete_shader(struct pipe_context *pctx, void *cso)
{
   struct panfrost_shader *so = cso;
   struct panfrost_state *st = &panfrost_context(pctx)->state;

   if (st->shaders[so->stage] == so)
      st->shaders[so->stage] = NULL;
   if (so->stage == PIPE_SHADER_FRAGMENT && st->fs_bound == so) {
      st->fs_bound = NULL;
      st->shaders[PIPE_SHADER_FRAGMENT] = NULL;
   }
   while (so->variants) {
      struct panfrost_shader *v = so->variants;
      so->variants = v->next_variant;
      free_shader(pctx, v);
   }
   free_shader(pctx, so);
}

static void *
panfrost_create_vs(struct pipe_context *pctx,
                   const struct pipe_shader_state *cso)
{
   return panfrost_create_shader(pctx, cso, PIPE_SHADER_VERTEX);
}

static void *
panfrost_create_fs(struct pipe_context *pctx,
                   const struct pipe_shader_state *cso)
{
   return panfrost_create_shader(pctx, cso, PIPE_SHADER_FRAGMENT);
}

static void
panfrost_bind_vs(struct pipe_context *pctx, void *cso)
{
   panfrost_context(pctx)->state.shaders[PIPE_SHADER_VERTEX] = cso;
}

static void
panfrost_bind_fs(struct pipe_context *pctx, void *cso)
{
   struct panfrost_context *ctx = panfrost_context(pctx);

   ctx->state.fs_bound = cso;
   ctx->state.shaders[PIPE_SHADER_FRAGMENT] = cso;
}

void
panfrost_context_init_shaders(struct pipe_context *pctx)
{
   pctx->create_vs_state = panfrost_create_vs;
   pctx->bind_vs_state = panfrost_bind_vs;
   pctx->delete_vs_state = panfrost_delete_shader;
   pctx->create_fs_state = panfrost_create_fs;
   pctx->bind_fs_state = panfrost_bind_fs;
   pctx->delete_fs_state = panfrost_delete_shader;
}
