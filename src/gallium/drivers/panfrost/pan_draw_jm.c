/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * Draws on the job manager (v7): each draw is a vertex job, which runs the
 * vertex shader once per vertex of its range and writes the window
 * positions and the varyings into buffers of the batch, and a tiler job
 * that waits for it and bins the primitives for the pass's fragment job.
 * Descriptors are packed by the architecture's emitters (screen->arch->jm).
 * Those of the bound state live in the pass's draw cache and are rebuilt
 * only when a state change (ctx->dirty, the shaders) invalidates them; the
 * viewport and vertex outputs are per draw, and the jobs copies of the
 * previous draw's with the per-draw words patched (patch_jobs).  What is not done yet
 * drops the draw with a message (docs/drivers/panfrost/draw-path.rst).
 */

#include <inttypes.h>
#include <string.h>

#include "util/format/u_format.h"
#include "util/log.h"
#include "util/u_framebuffer.h"
#include "util/u_math.h"
#include "util/u_prim.h"

#include "pan_arch.h"
#include "pan_blend.h"
#include "pan_blend_shader.h"
#include "pan_bo.h"
#include "pan_context.h"
#include "pan_draw_jm.h"
#include "pan_fb.h"
#include "pan_index_range.h"
#include "pan_instancing.h"
#include "pan_resource.h"
#include "pan_screen.h"
#include "pan_ssbo.h"
#include "pan_image.h"
#include "pan_texture.h"

#define drop(ctx, ...) panfrost_warn_once(ctx, PANFROST_WARN_DRAW, __VA_ARGS__)

static const struct panfrost_arch_jm *
jm_of(struct panfrost_context *ctx)
{
   return panfrost_screen(ctx->base.screen)->arch->jm;
}

/* Memory of the batch; cpu NULL when out of memory. */
static struct pan_ptr
alloc(struct panfrost_context *ctx, size_t size_B, unsigned align_B)
{
   return pan_pool_alloc(&ctx->batch.pool, MAX2(size_B, 4), align_B);
}

/* Whether any vertex element steps per instance (ARB_instanced_arrays). */
static bool
jm_has_per_instance(const struct panfrost_vertex_elements *ve)
{
   for (unsigned i = 0; ve && i < ve->count; ++i) {
      if (ve->elements[i].instance_divisor)
         return true;
   }
   return false;
}

/* The buffer records of per-instance element i: a pair after the vertex
 * buffers' records, even so that a continuation can follow.
 */
static unsigned
jm_instance_record(unsigned nvb, unsigned i)
{
   return ALIGN_POT(nvb, 2) + 2 * i;
}

/* Attribute records of the vertex elements over the vertex buffers, into
 * the draw cache.  Per-vertex data of an instanced draw reads modulo the
 * padded count d->vertices; per-instance data gets a record of its own
 * per element, dividing the invocation id (instance * padded count +
 * vertex) by the padded count times its divisor.  The buffer descriptors
 * hold 64-byte aligned addresses: the rest of a buffer's offset goes into
 * the records reading it, which are kept while the elements and those
 * remainders are unchanged (a change of buffers alone repacks their
 * descriptors only); with per-instance elements, whose records also
 * depend on the draw's first vertex and base instance, both are packed
 * for every draw.  false when out of memory, *dropped (after a message)
 * for what cannot be fetched.
 */
static bool
jm_attributes(struct panfrost_context *ctx, const struct panfrost_jm_draw *d,
              unsigned base_instance, bool *dropped)
{
   const struct panfrost_arch_jm *jm = jm_of(ctx);
   struct panfrost_draw_cache *c = &ctx->batch.draw_cache;
   const struct panfrost_vertex_elements *ve = ctx->state.vertex_elements;
   unsigned nve = ve ? ve->count : 0, nvb = ctx->state.vbuf_count;
   unsigned modulus = d->instances > 1 ? d->vertices : 0;
   bool per_instance = jm_has_per_instance(ve);
   unsigned records = per_instance ? jm_instance_record(nvb, nve) : nvb;
   uint8_t misalign[PANFROST_MAX_VBUFS] = { 0 };
   uint64_t vas[PANFROST_MAX_VBUFS];
   unsigned sizes_B[PANFROST_MAX_VBUFS];
   /* One more, empty, record ends the table: Bifrost's attribute unit
    * prefetches the records after those the attributes name.
    */
   struct pan_ptr b =
      alloc(ctx, (records + 1) * jm->buffer_size_B, jm->buffer_align_B);

   if (!b.cpu)
      return false;
   for (unsigned i = nvb; i <= records; ++i)
      jm->emit_attribute_buffer((uint8_t *)b.cpu + i * jm->buffer_size_B, 0,
                                0, 0, 0);
   for (unsigned i = 0; i < nvb; ++i) {
      switch (panfrost_vertex_buffer_range(ctx, i, &vas[i], &sizes_B[i])) {
      case PANFROST_FETCH_OOM:
         return false;
      case PANFROST_FETCH_DROPPED:
         *dropped = true;
         return true;
      case PANFROST_FETCH_OK:
         break;
      }
      misalign[i] = vas[i] % jm->buffer_align_B;
      jm->emit_attribute_buffer((uint8_t *)b.cpu + i * jm->buffer_size_B,
                                vas[i] - misalign[i], sizes_B[i] + misalign[i],
                                ctx->state.vbufs[i].stride, modulus);
   }
   c->vbufs = b.gpu;
   c->jm_divisor = modulus;
   c->jm_per_instance = per_instance;

   const size_t elements_B = nve * sizeof(ve->elements[0]);
   STATIC_ASSERT(sizeof(c->jm_misalign) == sizeof(misalign));
   if (!per_instance && c->jm_elements_valid && c->jm_element_count == nve &&
       (!nve || !memcmp(c->jm_elements, ve->elements, elements_B)) &&
       !memcmp(c->jm_misalign, misalign, sizeof(misalign)))
      return true;

   struct pan_ptr a = alloc(ctx, nve * jm->attribute_size_B, 8);
   if (!a.cpu)
      return false;
   c->jm_elements_valid = false;
   for (unsigned i = 0; i < nve; ++i) {
      const struct pipe_vertex_element *e = &ve->elements[i];
      unsigned vb = e->vertex_buffer_index, record = vb;
      if (vb >= nvb) {
         drop(ctx, "vertex element %u: buffer %u not bound, draw dropped", i,
              vb);
         *dropped = true;
         return true;
      }
      int64_t offset_B = (int64_t)e->src_offset + misalign[vb];
      if (e->instance_divisor) {
         struct pan_attr_addressing mode;
         unsigned stride = ctx->state.vbufs[vb].stride;
         if (!pan_attr_addressing(d->vertices, d->instances,
                                  e->instance_divisor, &mode)) {
            drop(ctx, "vertex element %u: %u instances of %u vertices "
                      "cannot be addressed, draw dropped",
                 i, d->instances, d->vertices);
            *dropped = true;
            return true;
         }
         /* GL reads element instance / divisor + base instance; the
          * hardware adds the draw's first vertex to every index, which
          * only dividing records feel (the others have no stride left).
          */
         offset_B += (int64_t)base_instance * stride;
         if (mode.mode == PAN_ATTR_MODE_POT_DIVISOR ||
             mode.mode == PAN_ATTR_MODE_NPOT_DIVISOR)
            offset_B -= (int64_t)d->offset_start * stride;
         record = jm_instance_record(nvb, i);
         jm->emit_instance_buffer((uint8_t *)b.cpu +
                                     record * jm->buffer_size_B,
                                  vas[vb] - misalign[vb],
                                  sizes_B[vb] + misalign[vb], stride, &mode,
                                  e->instance_divisor);
      }
      if (offset_B < INT32_MIN || offset_B > INT32_MAX) {
         drop(ctx, "vertex element %u: offset %" PRId64 " out of reach, "
                   "draw dropped",
              i, offset_B);
         *dropped = true;
         return true;
      }
      if (!jm->emit_attribute((uint8_t *)a.cpu + i * jm->attribute_size_B,
                              e->src_format, record, (int32_t)offset_B)) {
         drop(ctx, "vertex format %s is not supported on v7 yet, draw "
                   "dropped",
              util_format_short_name(e->src_format));
         *dropped = true;
         return true;
      }
   }
   c->attribs = a.gpu;
   if (!per_instance && elements_B <= sizeof(c->jm_elements)) {
      if (nve)
         memcpy(c->jm_elements, ve->elements, elements_B);
      memcpy(c->jm_misalign, misalign, sizeof(misalign));
      c->jm_element_count = nve;
      c->jm_elements_valid = true;
   }
   return true;
}

/* The memory of one draw, one allocation: its vertex and tiler jobs
 * (*vjob, *tjob), the descriptor of its varying buffer, its position
 * buffer and its varying buffer (one 16-byte slot per varying slot either
 * shader names, per vertex).  The varying records only depend on the slot
 * count and which slots the vertex shader stores integers in (ints), and
 * stay in the draw cache.  false when out of memory.
 */
static bool
jm_draw_memory(struct panfrost_context *ctx, struct panfrost_jm_draw *d,
               unsigned slots, uint64_t ints, bool psiz, struct pan_ptr *vjob,
               struct pan_ptr *tjob)
{
   const struct panfrost_arch_jm *jm = jm_of(ctx);
   struct panfrost_draw_cache *c = &ctx->batch.draw_cache;
   uint64_t outputs = (uint64_t)d->vertices * d->instances;
   /* gl_PointSize (Bifrost): one binary32 per vertex in buffer 1, written
    * through the record after the generic slots' (PAN_BI_POINT_SIZE_RECORD)
    * and read by the tiler as the point size array. */
   unsigned buffers = psiz ? 2 : slots ? 1 : 0;
   unsigned records = psiz ? PAN_BI_POINT_SIZE_RECORD + 1 : slots;
   size_t tjob_at = ALIGN_POT(jm->vertex_job_size_B, PAN_JOB_ALIGN_B);
   size_t desc_at = ALIGN_POT(tjob_at + jm->tiler_job_size_B, 64);
   size_t pos_at = ALIGN_POT(desc_at + buffers * jm->buffer_size_B, 64);
   size_t var_at = ALIGN_POT(pos_at + 16 * outputs, 64);
   size_t psiz_at = ALIGN_POT(var_at + 16 * slots * outputs, 64);
   struct pan_ptr m = alloc(ctx, psiz_at + (psiz ? 4 * outputs : 0),
                            MAX2(PAN_JOB_ALIGN_B, 64));

   if (!m.cpu)
      return false;
   *vjob = m;
   *tjob = (struct pan_ptr){ (uint8_t *)m.cpu + tjob_at, m.gpu + tjob_at };
   d->position = m.gpu + pos_at;
   d->point_sizes =
      psiz && d->mode == PIPE_PRIM_POINTS ? m.gpu + psiz_at : 0;
   if (!records)
      return true;

   jm->emit_attribute_buffer((uint8_t *)m.cpu + desc_at, m.gpu + var_at,
                             16 * slots * outputs, 16 * slots, 0);
   if (psiz) {
      jm->emit_attribute_buffer((uint8_t *)m.cpu + desc_at +
                                   jm->buffer_size_B,
                                m.gpu + psiz_at, 4 * outputs, 4, 0);
   }
   if (!c->jm_varyings || c->jm_slots != records ||
       c->jm_int_varyings != ints) {
      struct pan_ptr recs = alloc(ctx, records * jm->attribute_size_B, 8);
      if (!recs.cpu)
         return false;
      for (unsigned s = 0; s < records; ++s)
         jm->emit_varying((uint8_t *)recs.cpu + s * jm->attribute_size_B, s,
                          s < 64 && (ints >> s & 1));
      c->jm_varyings = recs.gpu;
      c->jm_slots = records;
      c->jm_int_varyings = ints;
   }
   d->varyings = c->jm_varyings;
   d->varying_buffers = m.gpu + desc_at;
   return true;
}

/* The tiler job's varying records when a message preload of the fragment
 * shader reads a slot through another record (a VAR_TEX has 3 bits of
 * record, pan_bi_message_preload.c): the draw's records with those
 * records pointed at their slots.  false when out of memory.
 */
static bool
jm_fs_varyings(struct panfrost_context *ctx, struct panfrost_jm_draw *d,
               const struct panfrost_shader *fs, unsigned slots,
               uint64_t ints, bool psiz)
{
   const struct panfrost_arch_jm *jm = jm_of(ctx);
   const struct panfrost_message_preload *m = fs->progs[0].messages;
   unsigned records = psiz ? PAN_BI_POINT_SIZE_RECORD + 1 : slots;

   d->fs_varyings = 0;
   if (m[0].varying == m[0].slot && m[1].varying == m[1].slot)
      return true;
   struct pan_ptr recs = alloc(ctx, records * jm->attribute_size_B, 8);
   if (!recs.cpu)
      return false;
   for (unsigned s = 0; s < records; ++s)
      jm->emit_varying((uint8_t *)recs.cpu + s * jm->attribute_size_B, s,
                       s < 64 && (ints >> s & 1));
   for (unsigned k = 0; k < 2; ++k) {
      unsigned to = m[k].slot;
      if (m[k].comps && m[k].varying != to && m[k].varying < records)
         jm->emit_varying((uint8_t *)recs.cpu +
                             m[k].varying * jm->attribute_size_B,
                          to, to < 64 && (ints >> to & 1));
   }
   d->fs_varyings = recs.gpu;
   return true;
}

/* The constant buffer table of a stage (*count entries); false when out
 * of memory, *dropped after a message for a misaligned buffer.
 */
static bool
jm_ubos(struct panfrost_context *ctx, enum pipe_shader_type stage,
        uint64_t *table, unsigned *count, bool *dropped)
{
   const struct panfrost_arch_jm *jm = jm_of(ctx);
   const struct pipe_constant_buffer *cbs = ctx->state.cbufs[stage];
   unsigned n = util_last_bit(ctx->state.cbuf_mask[stage]);

   *count = n;
   *table = 0;
   if (!n)
      return true;
   struct pan_ptr t = alloc(ctx, n * jm->ubo_size_B, 8);
   if (!t.cpu)
      return false;
   for (unsigned i = 0; i < n; ++i) {
      uint64_t va = 0;
      if (cbs[i].user_buffer) {
         struct pan_ptr p = alloc(ctx, cbs[i].buffer_size, 16);
         if (!p.cpu)
            return false;
         memcpy(p.cpu, cbs[i].user_buffer, cbs[i].buffer_size);
         va = p.gpu;
      } else if (cbs[i].buffer) {
         struct pan_bo *bo = panfrost_resource(cbs[i].buffer)->bo;
         if (!panfrost_batch_add_bo(ctx, bo, PAN_BO_ACCESS_READ))
            return false;
         va = bo->gpu_va + cbs[i].buffer_offset;
      }
      if (va % 16) {
         drop(ctx, "constant buffer %u is not 16-byte aligned, draw dropped",
              i);
         *dropped = true;
         return true;
      }
      jm->emit_ubo((uint8_t *)t.cpu + i * jm->ubo_size_B, va,
                   va ? cbs[i].buffer_size : 0);
   }
   *table = t.gpu;
   return true;
}

/* The descriptor a sampler view (views) or sampler state was packed with. */
static const void *
jm_desc(void *obj, bool views)
{
   return views ? (const void *)((struct panfrost_sampler_view *)obj)->desc
                : (const void *)((struct panfrost_sampler_state *)obj)->desc;
}

/* The table of the descriptors bound at objs (mask: the bound slots): one
 * of the last two tables r remembers when it holds the same descriptors
 * (the batch keeps what they point to), else a new one, remembered when
 * the slots are contiguous and fit.  0 when out of memory.
 */
static uint64_t
jm_table(struct panfrost_context *ctx, struct panfrost_jm_tables *r,
         void *const *objs, uint32_t mask, bool views, unsigned size_B,
         unsigned align_B)
{
   unsigned n = util_last_bit(mask);
   bool fits = mask == BITFIELD_MASK(n) && n * size_B <= sizeof(r->t[0].desc);

   /* A view of a texture given new storage since is packed again first:
    * its old descriptor would match the remembered table.
    */
   for (unsigned i = 0; views && i < n; ++i) {
      if (objs[i])
         panfrost_sampler_view_refresh(ctx, objs[i]);
   }
   for (unsigned e = 0; fits && e < ARRAY_SIZE(r->t); ++e) {
      const struct panfrost_jm_table *t = &r->t[e];
      unsigned i = 0;
      while (t->n == n && i < n &&
             !memcmp(t->desc + i * size_B, jm_desc(objs[i], views), size_B))
         ++i;
      if (t->n == n && i == n)
         return t->gpu;
   }
   uint64_t gpu =
      panfrost_draw_descriptor_table(ctx, objs, n, views, size_B, align_B);
   if (gpu && fits) {
      struct panfrost_jm_table *t = &r->t[r->next];
      r->next = (r->next + 1) % ARRAY_SIZE(r->t);
      t->gpu = gpu;
      t->n = n;
      for (unsigned i = 0; i < n; ++i)
         memcpy(t->desc + i * size_B, jm_desc(objs[i], views), size_B);
   }
   return gpu;
}

/* The texture and sampler tables of a stage (slot 0 vertex, 1 fragment)
 * into the draw cache, each only when dirty says its bindings changed;
 * false when out of memory.
 */
static bool
jm_textures(struct panfrost_context *ctx, enum pipe_shader_type stage,
            unsigned dirty)
{
   struct panfrost_draw_cache *c = &ctx->batch.draw_cache;
   const struct panfrost_arch_texture *t =
      panfrost_screen(ctx->base.screen)->arch->texture;
   unsigned slot = stage == PIPE_SHADER_FRAGMENT;

   if (dirty & PANFROST_DIRTY_TEXTURES) {
      uint32_t mask = ctx->state.view_mask[stage];
      c->texture_count[slot] = util_last_bit(mask);
      c->textures[slot] =
         mask ? jm_table(ctx, &c->jm_tables[0][slot],
                         (void *const *)ctx->state.views[stage], mask, true,
                         t->texture_size_B, t->align_B)
              : 0;
      if (mask && !c->textures[slot])
         return false;
   }
   if (dirty & PANFROST_DIRTY_SAMPLERS) {
      uint32_t mask = ctx->state.sampler_mask[stage];
      c->sampler_count[slot] = util_last_bit(mask);
      c->samplers[slot] =
         mask ? jm_table(ctx, &c->jm_tables[1][slot],
                         ctx->state.samplers[stage], mask, false,
                         t->sampler_size_B, t->align_B)
              : 0;
      if (mask && !c->samplers[slot])
         return false;
   }
   return true;
}

/* The enum panfrost_dirty bits besides its constant buffers that the
 * push words of program p depend on.
 */
static unsigned
jm_push_dirty(const struct panfrost_program *p)
{
   unsigned bits = 0;

   for (unsigned i = 0; i < p->nr_push; ++i) {
      switch (p->push[i].source) {
      case PAN_VA_PUSH_VIEWPORT_SCALE:
      case PAN_VA_PUSH_VIEWPORT_OFFSET:
         bits |= PANFROST_DIRTY_VIEWPORT;
         break;
      case PAN_VA_PUSH_TEXTURE_SIZE:
      case PAN_VA_PUSH_IMAGE_SIZE: /* set_shader_images marks textures */
         bits |= PANFROST_DIRTY_TEXTURES;
         break;
      default:
         break;
      }
   }
   return bits;
}

/* Target i through a blend shader when the blend unit cannot blend it
 * (pan_blend_shader.c), returning to the clause after the fragment
 * shader's BLEND; false after a message when it cannot be had. */
static bool
jm_blend_shader(struct panfrost_context *ctx,
                const struct panfrost_program *fs, unsigned i,
                struct panfrost_blend_rt *b)
{
   const struct panfrost_arch_jm *jm =
      panfrost_screen(ctx->base.screen)->arch->jm;
   char err[320];

   if (!jm->blend_needs_shader || !jm->blend_needs_shader(b))
      return true;
   b->shader = panfrost_blend_shader_get(ctx, b, i, fs, err, sizeof(err));
   if (!b->shader) {
      drop(ctx, "%s, draw dropped", err);
      return false;
   }
   b->shader_return = fs->blend_return[i] ? fs->binary + fs->blend_return[i]
                                          : 0;
   return true;
}

/* The push words of a stage (0 vertex, 1 fragment) into the draw cache,
 * after a change of its shader, its constant buffers, or the viewport or
 * textures it pushes; false when out of memory.
 */
static bool
jm_push_words(struct panfrost_context *ctx, unsigned slot, bool shader_new,
              unsigned dirty)
{
   struct panfrost_draw_cache *c = &ctx->batch.draw_cache;
   enum pipe_shader_type stage = slot ? PIPE_SHADER_FRAGMENT
                                      : PIPE_SHADER_VERTEX;
   unsigned i = slot ? 2 : 0;
   unsigned const_bit = slot ? PANFROST_DIRTY_CONST_FS
                             : PANFROST_DIRTY_CONST_VS;
   const struct panfrost_program *p = &ctx->state.shaders[stage]->progs[0];
   struct panfrost_shader_env env;

   if (shader_new)
      c->jm_push_dirty[slot] = jm_push_dirty(p);
   else if (c->fau_reusable[i] &&
            !(dirty & (const_bit | c->jm_push_dirty[slot])))
      return true;
   if (!panfrost_draw_push_words(ctx, stage, p, &env, &c->fau_reusable[i]))
      return false;
   c->fau[i] = env.fau;
   c->fau_words[i] = env.fau_words;
   return true;
}

/* The renderer states of both stages into the draw cache, repacked when
 * the shaders, the blend or depth/stencil state or a count they hold
 * changed; false when out of memory, *dropped (after a message) when the
 * render targets cannot be drawn to that way.
 */
static bool
jm_rsds(struct panfrost_context *ctx, unsigned slots, bool shaders_new,
        unsigned dirty, bool *dropped)
{
   const struct panfrost_arch_jm *jm = jm_of(ctx);
   struct panfrost_draw_cache *c = &ctx->batch.draw_cache;
   struct panfrost_shader *vs = ctx->state.shaders[PIPE_SHADER_VERTEX];
   struct panfrost_shader *fs = ctx->state.shaders[PIPE_SHADER_FRAGMENT];
   const struct pipe_framebuffer_state *fb = &ctx->state.fb;
   const struct pipe_blend_state *blend = ctx->state.blend;
   const struct panfrost_vertex_elements *ve = ctx->state.vertex_elements;
   /* Single-sampled passes ignore the state tracker's sample mask. */
   bool msaa = util_framebuffer_get_num_samples(fb) > 1;
   const struct pipe_rasterizer_state *rast = ctx->state.rast;
   bool multisample = msaa && rast->multisample;
   uint16_t sample_mask = msaa ? ctx->state.sample_mask : 0xffff;
   bool a2c = multisample && blend->alpha_to_coverage;
   const unsigned jm_rsd_key[11] = {
      ve ? ve->count : 0,  slots,
      c->ubo_count[0],     c->ubo_count[1],
      c->texture_count[0], c->sampler_count[0],
      c->texture_count[1], c->sampler_count[1],
      c->fau_words[0],     c->fau_words[2],
      multisample | a2c << 1 | sample_mask << 2,
   };

   if (!shaders_new && c->jm_states[0] && c->jm_states[1] &&
       !(dirty & (PANFROST_DIRTY_BLEND | PANFROST_DIRTY_ZSA)) &&
       !memcmp(jm_rsd_key, c->jm_key, sizeof(jm_rsd_key)))
      return true;

   struct panfrost_jm_fragment f = {
      .binary = fs->progs[0].desc,
      .work_regs = fs->progs[0].work_regs,
      .fau_words = c->fau_words[2],
      .varyings = slots,
      .ubos = c->ubo_count[1],
      .textures = c->texture_count[1],
      .samplers = c->sampler_count[1],
      .kills = fs->kills,
      .writes_memory = fs->writes_memory,
      .early_tests = fs->early_tests,
      .multisample = multisample,
      .sample_mask = sample_mask,
      .alpha_to_coverage = a2c,
      .rt_count = MAX2(fb->nr_cbufs, 1),
   };
   memcpy(f.messages, fs->progs[0].messages, sizeof(f.messages));
   for (unsigned i = 0; i < f.rt_count; ++i) {
      panfrost_blend_rt_init(&f.rts[i], blend, i, fb, &ctx->state.blend_color);
      if (!jm_blend_shader(ctx, &fs->progs[0], i, &f.rts[i])) {
         *dropped = true;
         return true;
      }
      /* A blend shader blends the one sample its thread is shaded for. */
      f.per_sample |= msaa && f.rts[i].shader;
   }
   panfrost_zs_state_init(&f.zs, ctx->state.zsa, &ctx->state.stencil_ref,
                          fb->zsbuf);
   f.zs.shader_z = fs->writes_depth;
   f.zs.shader_s = fs->writes_stencil;
   f.zs.bias = ctx->depth_bias;

   struct pan_ptr vrsd = alloc(ctx, jm->rsd_size_B, jm->rsd_align_B);
   struct pan_ptr frsd = alloc(ctx, jm->rsd_size_B +
                                       f.rt_count * jm->blend_size_B,
                               jm->rsd_align_B);
   if (!vrsd.cpu || !frsd.cpu)
      return false;
   jm->emit_vertex_rsd(vrsd.cpu, vs->progs[0].desc, vs->progs[0].work_regs,
                       c->fau_words[0], jm_rsd_key[0], slots, c->ubo_count[0],
                       c->texture_count[0], c->sampler_count[0]);
   const char *why = jm->emit_fragment_rsd(frsd.cpu, &f);
   if (why) {
      drop(ctx, "%s, draw dropped", why);
      *dropped = true;
      return true;
   }
   c->jm_states[0] = vrsd.gpu;
   c->jm_states[1] = frsd.gpu;
   memcpy(c->jm_key, jm_rsd_key, sizeof(jm_rsd_key));
   return true;
}

/* Rebuilds what the state changes since the previous draw of the pass
 * (ctx->dirty, the shaders, the instancing) invalidated in the draw
 * cache, then points d at it; false when out of memory, *dropped (after a
 * message) for a draw that cannot be done.
 */
static bool
jm_update_cache(struct panfrost_context *ctx, struct panfrost_jm_draw *d,
                unsigned base_instance, unsigned slots, bool *dropped)
{
   struct panfrost_draw_cache *c = &ctx->batch.draw_cache;
   struct panfrost_shader *vs = ctx->state.shaders[PIPE_SHADER_VERTEX];
   struct panfrost_shader *fs = ctx->state.shaders[PIPE_SHADER_FRAGMENT];
   unsigned dirty = c->valid ? ctx->dirty : ~0u;
   bool vs_new = !c->valid || c->vs_prog != vs->progs[0].desc;
   bool fs_new = !c->valid || c->fs_prog != fs->progs[0].desc;
   unsigned divisor = d->instances > 1 ? d->vertices : 0;
   const unsigned tex_bits = PANFROST_DIRTY_TEXTURES | PANFROST_DIRTY_SAMPLERS;

   /* Rebuilt in place: a failure leaves the cache to be rebuilt whole. */
   if (!c->valid)
      c->jm_states[0] = c->jm_states[1] = 0;
   c->valid = false;
   if (((dirty & PANFROST_DIRTY_VERTEX) || c->jm_divisor != divisor ||
        c->jm_per_instance) &&
       (!jm_attributes(ctx, d, base_instance, dropped) || *dropped))
      return *dropped;
   /* Storage buffers come with the constant buffers (pan_ssbo.h). */
   if (((dirty & PANFROST_DIRTY_CONST_VS) &&
        !panfrost_ssbo_use_in_draw(ctx, PIPE_SHADER_VERTEX)) ||
       ((dirty & PANFROST_DIRTY_CONST_FS) &&
        !panfrost_ssbo_use_in_draw(ctx, PIPE_SHADER_FRAGMENT)))
      return false;
   if ((dirty & PANFROST_DIRTY_CONST_VS) &&
       (!jm_ubos(ctx, PIPE_SHADER_VERTEX, &c->ubos[0], &c->ubo_count[0],
                 dropped) ||
        *dropped))
      return *dropped;
   if ((dirty & PANFROST_DIRTY_CONST_FS) &&
       (!jm_ubos(ctx, PIPE_SHADER_FRAGMENT, &c->ubos[1], &c->ubo_count[1],
                 dropped) ||
        *dropped))
      return *dropped;
   if ((dirty & tex_bits) &&
       (!jm_textures(ctx, PIPE_SHADER_VERTEX, dirty) ||
        !jm_textures(ctx, PIPE_SHADER_FRAGMENT, dirty)))
      return false;
   if (!jm_push_words(ctx, 0, vs_new, dirty) ||
       !jm_push_words(ctx, 1, fs_new, dirty) ||
       !jm_rsds(ctx, slots, vs_new || fs_new, dirty, dropped) || *dropped)
      return *dropped;

   /* The batch keeps the shader BOs (and so their addresses) alive. */
   if ((vs_new && !panfrost_batch_add_bo(ctx, vs->bo, PAN_BO_ACCESS_READ)) ||
       (fs_new && !panfrost_batch_add_bo(ctx, fs->bo, PAN_BO_ACCESS_READ)))
      return false;
   c->vs_prog = vs->progs[0].desc;
   c->fs_prog = fs->progs[0].desc;
   c->valid = true;
   ctx->dirty = 0;

   d->attributes = c->attribs;
   d->attribute_buffers = c->vbufs;
   d->vs_ubos = c->ubos[0];
   d->fs_ubos = c->ubos[1];
   for (unsigned i = 0; i < 2; ++i) {
      d->textures[i] = c->textures[i];
      d->samplers[i] = c->samplers[i];
   }
   d->vs_fau = c->fau[0];
   d->fs_fau = c->fau[2];
   d->vs_state = c->jm_states[0];
   d->fs_state = c->jm_states[1];

   /* Fragment images: records of the fragment job's attribute table, as
    * a dispatch's (fragment shaders read no attributes).  Built per draw:
    * the batch records their buffers for writing.
    */
   d->fs_attributes = d->fs_attribute_buffers = 0;
   if (fs->nr_images) {
      char err[128] = "";
      if (!panfrost_image_attributes(ctx, PIPE_SHADER_FRAGMENT, fs->nr_images,
                                     &d->fs_attributes,
                                     &d->fs_attribute_buffers, err,
                                     sizeof(err))) {
         drop(ctx, "fragment images: %s, draw dropped", err);
         *dropped = true;
         return true;
      }
      /* The pass writes memory: a later dispatch submits it first. */
      ctx->batch.draw_ssbos = true;
   }
   return true;
}

/* The vertex range and the indices of the draw; false when out of
 * memory.  *empty when no vertex is drawn.
 */
static bool
jm_range(struct panfrost_context *ctx, const struct pipe_draw_info *info,
         const struct pipe_draw_start_count_bias *draw,
         struct panfrost_jm_draw *d, bool *empty)
{
   *empty = false;
   if (!info->index_size) {
      d->vertices = draw->count;
      d->offset_start = draw->start;
      return true;
   }

   struct pan_index_range r;
   if (!panfrost_draw_index_range(ctx, info, draw, &r)) {
      *empty = true; /* every index is a restart */
      return true;
   }
   /* The vertex job shades vertices min..max of the index buffer (plus
    * the bias); the tiler finds index i's at i - min.
    */
   d->vertices = r.max - r.min + 1;
   d->offset_start = r.min + draw->index_bias;
   d->base_vertex_offset = -r.min;
   d->index_size_B = info->index_size;
   d->restart = info->primitive_restart;

   size_t at = (size_t)draw->start * info->index_size;
   if (info->has_user_indices) {
      struct pan_ptr p = alloc(ctx, draw->count * info->index_size, 64);
      if (!p.cpu)
         return false;
      memcpy(p.cpu, (const uint8_t *)info->index.user + at,
             draw->count * info->index_size);
      d->indices = p.gpu;
   } else {
      struct pan_bo *bo = panfrost_resource(info->index.resource)->bo;
      if (!panfrost_batch_add_bo(ctx, bo, PAN_BO_ACCESS_READ))
         return false;
      d->indices = bo->gpu_va + at;
   }
   return true;
}

/* The viewport descriptor of the draw's bounds, repacked when they differ
 * from the previous draw's; false when out of memory.
 */
static bool
jm_viewport(struct panfrost_context *ctx, const struct panfrost_draw_job *b)
{
   const struct panfrost_arch_jm *jm = jm_of(ctx);
   struct panfrost_draw_cache *c = &ctx->batch.draw_cache;
   uint32_t key[6];

   memcpy(key, b->scissor, 16);
   memcpy(&key[4], &b->min_z, 4);
   memcpy(&key[5], &b->max_z, 4);
   if (c->jm_viewport && !memcmp(key, c->jm_bounds, sizeof(key)))
      return true;
   struct pan_ptr vp = alloc(ctx, jm->viewport_size_B, jm->viewport_align_B);
   if (!vp.cpu)
      return false;
   jm->emit_viewport(vp.cpu, b->scissor, b->min_z, b->max_z);
   c->jm_viewport = vp.gpu;
   memcpy(c->jm_bounds, key, sizeof(key));
   return true;
}

/* The jobs of the draw cache repacked when d differs from the draw they
 * were packed for in more than the words patch_jobs writes; false (after
 * a message) for a mode the tiler cannot draw.
 */
static bool
jm_jobs_template(struct panfrost_context *ctx, const struct panfrost_jm_draw *d)
{
   const struct panfrost_arch_jm *jm = jm_of(ctx);
   struct panfrost_draw_cache *c = &ctx->batch.draw_cache;
   const uint32_t flags = d->index_size_B | d->restart << 3 |
                          d->cull_front << 4 | d->cull_back << 5 |
                          d->front_ccw << 6 | d->flatshade_first << 7 |
                          (d->occlusion != 0) << 8 |
                          d->occlusion_counter << 9 |
                          (d->point_sizes != 0) << 10 |
                          d->cull_below_z << 11 | d->cull_above_z << 12;
   uint32_t point_size;
   memcpy(&point_size, &d->point_size, 4);
   const struct panfrost_jm_job_key key = {
      .tiler = d->tiler,
      .modes = flags << 8 | d->mode,
      .sizes = (uint64_t)(d->instances > 1 ? d->vertices : 0) << 32 |
               point_size,
   };
   size_t tjob_at = ALIGN_POT(jm->vertex_job_size_B, PAN_JOB_ALIGN_B);
   uint8_t *jobs = (uint8_t *)c->jm_jobs;

   if (c->jm_jobs_valid && !memcmp(&key, &c->jm_job_key, sizeof(key)))
      return true;
   assert(tjob_at + jm->tiler_job_size_B <= sizeof(c->jm_jobs));
   c->jm_jobs_valid = false;
   if (!jm->emit_vertex_job(jobs, d) ||
       !jm->emit_tiler_job(jobs + tjob_at, d)) {
      drop(ctx, "draw mode %u has no tiler mode, draw dropped", d->mode);
      return false;
   }
   c->jm_job_key = key;
   c->jm_jobs_valid = true;
   return true;
}

static bool
jm_emit_draw(struct panfrost_context *ctx, const struct pipe_draw_info *info,
             const struct pipe_draw_start_count_bias *draw)
{
   const struct panfrost_arch_jm *jm = jm_of(ctx);
   struct panfrost_shader *vs = ctx->state.shaders[PIPE_SHADER_VERTEX];
   struct panfrost_shader *fs = ctx->state.shaders[PIPE_SHADER_FRAGMENT];
   const struct pipe_rasterizer_state *rast = ctx->state.rast;
   struct panfrost_draw_cache *c = &ctx->batch.draw_cache;
   struct panfrost_draw_job bounds = { .count = draw->count };
   bool empty;

   panfrost_draw_bounds(ctx, &bounds);
   if (!bounds.count || !info->instance_count)
      return true;

   struct panfrost_jm_draw d = {
      .mode = info->mode,
      .count = draw->count,
      .cull_front = rast->cull_face & PIPE_FACE_FRONT,
      .cull_back = rast->cull_face & PIPE_FACE_BACK,
      .front_ccw = rast->front_ccw,
      .flatshade_first = rast->flatshade_first,
      .cull_below_z = bounds.cull_below_z,
      .cull_above_z = bounds.cull_above_z,
      .point_size = u_reduced_prim(info->mode) == PIPE_PRIM_LINES
                       ? rast->line_width
                       : rast->point_size,
   };
   if (!jm_range(ctx, info, draw, &d, &empty))
      return false;
   /* The vertex job's vertex ID register counts from offset_start. */
   ctx->draw_params[PAN_VA_DRAW_FIRST_VERTEX] = d.offset_start;
   if (empty || !d.vertices)
      return true;
   /* Instances are padded_count vertices apart (the hardware's padding:
    * the per-vertex buffers read modulo it).
    */
   d.instances = info->instance_count;
   if (d.instances > 1)
      d.vertices = pan_padded_vertex_count(d.vertices);
   if (!d.vertices || (uint64_t)d.vertices * d.instances > (1u << 24)) {
      drop(ctx, "%u instances of %u vertices are too many, draw dropped",
           d.instances, d.vertices);
      return true;
   }

   unsigned slots = MAX2(vs->varying_slots, fs->varying_slots);
   if (!jm_viewport(ctx, &bounds))
      return false;
   d.viewport = c->jm_viewport;
   d.tiler = panfrost_batch_tiler(ctx);
   /* Spilled shaders' storage, each thread's as the largest asks. */
   unsigned tls_size = MAX2(MAX2(vs->progs[0].tls_size, vs->progs[1].tls_size),
                            fs->progs[0].tls_size);
   if (!c->tls || c->tls_size != tls_size) {
      c->tls = panfrost_batch_local_storage(ctx, tls_size);
      c->tls_size = tls_size;
   }
   d.thread_storage = c->tls;
   if (!panfrost_occlusion_for_draw(ctx, &d.occlusion, &d.occlusion_counter))
      return false;
   bool dropped = false;
   panfrost_depth_bias_update(ctx, info->mode);
   if (!d.tiler || !d.thread_storage ||
       !jm_update_cache(ctx, &d, info->start_instance, slots, &dropped))
      return false;
   if (dropped)
      return true;
   /* The counts first: a draw they cannot encode needs no memory. */
   if (c->jm_counts[0] != d.vertices || c->jm_counts[1] != d.instances) {
      c->jm_counts[0] = 0;
      if (!jm->pack_invocation(&c->jm_invocation, d.vertices, d.instances)) {
         drop(ctx, "%u instances of %u vertices do not fit the jobs, draw "
                   "dropped",
              d.instances, d.vertices);
         return true;
      }
      c->jm_counts[0] = d.vertices;
      c->jm_counts[1] = d.instances;
   }
   struct pan_ptr vjob, tjob;
   uint64_t ints = vs->progs[0].int_varyings;
   if (!jm_draw_memory(ctx, &d, slots, ints, vs->writes_psiz, &vjob,
                       &tjob) ||
       !jm_fs_varyings(ctx, &d, fs, slots, ints, vs->writes_psiz))
      return false;
   d.vertex_index = util_dynarray_num_elements(&ctx->batch.draw_jobs,
                                               struct panfrost_batch_job) +
                    1;
   d.tiler_index = d.vertex_index + 1;
   if (!jm_jobs_template(ctx, &d))
      return true;
   memcpy(vjob.cpu, c->jm_jobs, (uint8_t *)tjob.cpu - (uint8_t *)vjob.cpu +
                                   jm->tiler_job_size_B);
   jm->patch_jobs(vjob.cpu, tjob.cpu, &d, &c->jm_invocation);
   return panfrost_batch_add_draw_job(ctx, vjob.cpu, vjob.gpu) &&
          panfrost_batch_add_draw_job(ctx, tjob.cpu, tjob.gpu);
}

/* What v7 draws cannot do yet; false after a message. */
static bool
jm_supported(struct panfrost_context *ctx, const struct pipe_draw_info *info,
             const struct pipe_draw_indirect_info *indirect)
{
   struct panfrost_shader *vs = ctx->state.shaders[PIPE_SHADER_VERTEX];
   struct panfrost_shader *fs = ctx->state.shaders[PIPE_SHADER_FRAGMENT];
   const struct pipe_depth_stencil_alpha_state *zsa = ctx->state.zsa;
   const struct pipe_blend_state *blend = ctx->state.blend;

   if (!vs || !fs || !ctx->state.rast || !blend || !zsa)
      return false;
   if (vs->error[0] || fs->error[0]) {
      drop(ctx, "draw with a shader that did not compile dropped: %s",
           vs->error[0] ? vs->error : fs->error);
      return false;
   }
   /* Views that cannot be sampled keep why (pan_texture.c). */
   const struct panfrost_shader *stages[2] = { vs, fs };
   for (unsigned s = 0; s < 2; ++s) {
      enum pipe_shader_type stage = s ? PIPE_SHADER_FRAGMENT
                                      : PIPE_SHADER_VERTEX;
      uint32_t bound = stages[s]->uses_textures ? ctx->state.view_mask[stage]
                                                : 0;
      u_foreach_bit(i, bound) {
         struct panfrost_sampler_view *v =
            panfrost_sampler_view(ctx->state.views[stage][i]);
         if (!v->bo) {
            drop(ctx, "texture %u cannot be sampled (%s), draw dropped", i,
                 v->error);
            return false;
         }
      }
   }
   const char *why = NULL;
   if (indirect)
      why = "indirect draws";
   else if (zsa->alpha_enabled)
      why = "alpha tests";
   if (why) {
      drop(ctx, "%s are not implemented on v7 yet, draw dropped", why);
      return false;
   }
   if (!panfrost_ssbo_check_draw(ctx))
      return false;
   /* The compiler gives gl_FragColor to target 0 only. */
   if (fs->writes_fragcolor && ctx->state.fb.nr_cbufs > 1) {
      drop(ctx, "gl_FragColor with %u render targets bound is not "
                "supported yet, draw dropped",
           ctx->state.fb.nr_cbufs);
      return false;
   }
   /* Logic ops are blend shaders (jm_blend_shader). */
   return true;
}

void
panfrost_jm_draw_vbo(struct panfrost_context *ctx,
                     const struct pipe_draw_info *info,
                     const struct pipe_draw_indirect_info *indirect,
                     const struct pipe_draw_start_count_bias *draws,
                     unsigned num_draws)
{
   if (!jm_supported(ctx, info, indirect))
      return;
   for (unsigned i = 0; i < num_draws; ++i) {
      if (!jm_emit_draw(ctx, info, &draws[i])) {
         mesa_loge("panfrost: out of memory for a draw, dropped");
         return;
      }
   }
}
