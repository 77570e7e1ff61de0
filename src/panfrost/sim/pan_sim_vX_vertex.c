/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * VERTEX jobs on Bifrost (compiled once per PAN_ARCH, executed on v6/v7),
 * plus the attribute addressing the fragment shading shares.
 *
 * The job is laid out as a compute job: the invocation word holds a
 * 1x1x1 "workgroup" repeated (1, vertices, instances) times, as drivers
 * pack it; every factor but the last counts vertices, the last instances.
 * Vertex `v` of instance `i` is invocation linear = i * vertices + v; it
 * runs with (when the renderer state's preload flags ask):
 *    r61  v (vertex id, zero-based within the job)
 *    r62  i (instance id)
 *    r58, r59  address of its position: position + 16 * linear, where
 *              position is the vertex job's draw.position, or for an IDVS
 *              job the tiler's (fragment_draw) position buffer: the
 *              vertex_draw section of the stock driver has none
 * Warps take GFX_LANES consecutive linear ids.
 *
 * Attribute addressing (LD_ATTR_IMM from draw.attributes, LEA_ATTR_IMM
 * from draw.varyings, each naming a buffer of the matching buffer table):
 *    1D               element linear
 *    1D modulus       element linear % padded_count
 *    1D POT divisor   element i >> log2(divisor)
 *    1D NPOT divisor  element (i * magic) >> (32 + shift), the magic in the
 *                     continuation record that follows the buffer
 * plus draw.offset_start for attribute buffers (the vertex job starts at
 * the draw's first vertex, and the stock driver compensates per-instance
 * buffers for it), and varyings start at zero.  The byte address is
 * buffer + element * stride + attribute offset.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pan_sim_vX_gfx.h"

#if PAN_ARCH >= 6 && PAN_ARCH <= 7

#define MAX_PROGRAM_B (256u << 10)
#define MAX_VERTICES (1u << 24)

/* ---- shared helpers ---- */

bool
PAN_GENX(sim_gfx_fetch)(struct pan_sim_ctx *ctx, uint64_t va, const char *what,
                        struct gfx_program *p)
{
   if (!va || va % 16)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, va,
                           "%s address 0x%" PRIx64 " is not 16-byte aligned",
                           what, va);
   uint64_t size_B = pan_sim_space_avail(ctx->space, va);
   if (size_B > MAX_PROGRAM_B)
      size_B = MAX_PROGRAM_B;
   size_B &= ~15ull;
   const void *src = pan_sim_ctx_read(ctx, va, size_B ? size_B : 1, what);
   if (!src)
      return false;
   p->words = malloc(size_B);
   if (!p->words)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, va, "out of memory");
   memcpy(p->words, src, size_B);
   p->va = va;
   p->quads = (unsigned)(size_B / 16);
   return true;
}

static bool
mem_read(void *user, uint64_t addr, void *data, unsigned size)
{
   struct gfx_mem *m = user;
   struct pan_sim_access acc;
   const void *p = pan_sim_read(m->space, addr, size, 0, "shader load", &acc);
   if (!p) {
      if (!m->failed)
         snprintf(m->message, sizeof(m->message), "%s", acc.message);
      m->failed = true;
      return false;
   }
   memcpy(data, p, size);
   return true;
}

static bool
mem_write(void *user, uint64_t addr, const void *data, unsigned size)
{
   struct gfx_mem *m = user;
   struct pan_sim_access acc;
   void *p = pan_sim_write(m->space, addr, size, 0, "shader store", &acc);
   if (!p) {
      if (!m->failed)
         snprintf(m->message, sizeof(m->message), "%s", acc.message);
      m->failed = true;
      return false;
   }
   memcpy(p, data, size);
   return true;
}

const struct pan_sim_bi_mem PAN_GENX(sim_gfx_mem_ops) = {
   .read = mem_read,
   .write = mem_write,
};

const void *
PAN_GENX(sim_gfx_read)(const struct pan_sim_space *space, uint64_t va,
                       uint64_t size, const char *what, char *err)
{
   struct pan_sim_access acc;
   const void *p = pan_sim_read(space, va, size, 0, what, &acc);
   if (!p)
      snprintf(err, PAN_SIM_BI_GFX_ERR_LEN, "%s", acc.message);
   return p;
}

bool
PAN_GENX(sim_gfx_locate)(const struct pan_sim_space *space,
                         const struct gfx_attr_ref *ref, unsigned index,
                         uint64_t *addr, uint32_t *format_word,
                         struct pan_sim_mem_format *fmt, char *err)
{
   const char *kind = ref->varying ? "varying" : "attribute";
   const void *p = PAN_GENX(sim_gfx_read)(
      space, ref->table + index * pan_size(attribute), pan_size(attribute),
      ref->varying ? "varying descriptor" : "attribute descriptor", err);
   if (!p)
      return false;
   pan_unpack(p, attribute, at);

   uint64_t buf_va =
      ref->buffers + at.buffer_index * pan_size(attribute_buffer);
   p = PAN_GENX(sim_gfx_read)(space, buf_va, 2 * pan_size(attribute_buffer),
                              "attribute buffer descriptor", err);
   if (!p)
      return false;
   pan_unpack(p, attribute_buffer, buf);

   uint32_t word = at.format;
   pan_unpack(&word, pixel_format, pf);
   const char *name = PAN_GENX(format_name)(pf.format);
#if PAN_ARCH >= 7
   /* Orders that keep the components in place, the missing ones reading
    * as GL's defaults (0, 0, 0, 1) anyway. */
   bool ordered = pf.order == MALI_RGB_COMPONENT_ORDER_RGBA ||
                  pf.order == MALI_RGB_COMPONENT_ORDER_RGB1 ||
                  pf.order == MALI_RGB_COMPONENT_ORDER_R000;
#else
   bool ordered = true; /* v6 swizzles are not applied */
#endif
   if (!pan_sim_mem_format_parse(name, fmt) || pf.srgb) {
      snprintf(err, PAN_SIM_BI_GFX_ERR_LEN,
               "%s %u: format %s (0x%x) is not modelled", kind, index,
               name ? name : "undefined", at.format);
      return false;
   }
   if (!ordered) {
#if PAN_ARCH >= 7
      const char *o = PAN_GENX(rgb_component_order_name)(pf.order);
#else
      const char *o = "?";
#endif
      snprintf(err, PAN_SIM_BI_GFX_ERR_LEN,
               "%s %u: component order %s of %s is not modelled", kind, index,
               o ? o : "undefined", name);
      return false;
   }

   uint64_t elem;
   uint32_t add = ref->varying ? 0 : ref->offset_start;
   switch (buf.type) {
   case MALI_ATTRIBUTE_TYPE_1D:
      elem = ref->linear;
      break;
   case MALI_ATTRIBUTE_TYPE_1D_MODULUS:
      elem = ref->linear %
             (buf.modulus.padded_count ? buf.modulus.padded_count : 1);
      break;
   case MALI_ATTRIBUTE_TYPE_1D_POT_DIVISOR:
      elem = ref->instance / buf.pot.divisor;
      break;
   case MALI_ATTRIBUTE_TYPE_1D_NPOT_DIVISOR: {
      pan_unpack((const uint8_t *)p + pan_size(attribute_buffer),
                 attribute_buffer_continuation_npot, cont);
      if (buf.npot.extra) {
         snprintf(err, PAN_SIM_BI_GFX_ERR_LEN,
                  "%s %u: NPOT divisor with the extra bit is not modelled",
                  kind, index);
         return false;
      }
      elem = ((uint64_t)ref->instance * cont.divisor_numerator) >>
             (32 + buf.npot.shift);
      break;
   }
   default: {
      const char *t = PAN_GENX(attribute_type_name)(buf.type);
      snprintf(err, PAN_SIM_BI_GFX_ERR_LEN,
               "%s %u: buffer %u of type %s is not modelled", kind, index,
               at.buffer_index, t ? t : "undefined");
      return false;
   }
   }
   elem += add;
   /* The offset applies whatever offset_enable says: the stock driver
    * clears that bit on v6+ and relies on the offset (varyings of one
    * buffer at different offsets). */
   *addr = buf.address + elem * buf.stride + at.offset;
   *format_word = at.format;
   return true;
}

bool
PAN_GENX(sim_gfx_ubo)(const struct pan_sim_space *space, uint64_t table,
                      uint32_t index, uint32_t offset, unsigned size, void *out,
                      char *err)
{
   const void *p = PAN_GENX(sim_gfx_read)(
      space, table + (uint64_t)index * pan_size(uniform_buffer),
      pan_size(uniform_buffer), "uniform buffer descriptor", err);
   if (!p)
      return false;
   pan_unpack(p, uniform_buffer, ubo);
   /* Out of the buffer's 16-byte entries: zeros, as robust access asks
    * (no fault: GL allows such indices). */
   if ((uint64_t)offset + size > (uint64_t)ubo.entries * 16) {
      memset(out, 0, size);
      return true;
   }
   p = PAN_GENX(sim_gfx_read)(space, ubo.address + offset, size,
                              "uniform buffer", err);
   if (!p)
      return false;
   memcpy(out, p, size);
   return true;
}

/* ---- the vertex job ---- */

struct vs_run {
   struct pan_sim_ctx *ctx;
   struct PAN_GENX(draw) draw;
   uint64_t position; /* positions of the job's vertices, 16 bytes each */
   uint32_t vertices, instances;
};

static void
ref_for(const struct vs_run *r, bool varying, uint32_t vertex,
        uint32_t instance, struct gfx_attr_ref *ref)
{
   *ref = (struct gfx_attr_ref){
      .table = varying ? r->draw.varyings : r->draw.attributes,
      .buffers = varying ? r->draw.varying_buffers : r->draw.attribute_buffers,
      .linear = instance * r->vertices + vertex,
      .instance = instance,
      .vertices = r->vertices,
      .offset_start = r->draw.offset_start,
      .varying = varying,
   };
}

static bool
vs_ld_attr(void *user, unsigned index, uint32_t vertex, uint32_t instance,
           enum pan_sim_bi_regfmt regfmt, unsigned comps, uint32_t out[4],
           char *err)
{
   struct vs_run *r = user;
   struct gfx_attr_ref ref;
   struct pan_sim_mem_format f;
   uint64_t addr;
   uint32_t word;

   ref_for(r, false, vertex, instance, &ref);
   if (!PAN_GENX(sim_gfx_locate)(r->ctx->space, &ref, index, &addr, &word, &f,
                                 err))
      return false;
   const void *p = PAN_GENX(sim_gfx_read)(
      r->ctx->space, addr, f.comps * f.bits / 8, "attribute", err);
   if (!p)
      return false;
   pan_sim_mem_to_regs(&f, p, (enum pan_sim_regfmt)regfmt, comps, out);
   return true;
}

static bool
vs_lea_attr(void *user, unsigned index, uint32_t vertex, uint32_t instance,
            enum pan_sim_bi_regfmt regfmt, uint32_t out[3], char *err)
{
   struct vs_run *r = user;
   struct gfx_attr_ref ref;
   struct pan_sim_mem_format f;
   uint64_t addr;
   uint32_t word;

   ref_for(r, true, vertex, instance, &ref);
   if (!PAN_GENX(sim_gfx_locate)(r->ctx->space, &ref, index, &addr, &word, &f,
                                 err))
      return false;
   out[0] = (uint32_t)addr;
   out[1] = (uint32_t)(addr >> 32);
   pan_pack(&out[2], internal_conversion, cfg)
   {
      cfg.memory_format = word;
      cfg.register_format =
         regfmt == PAN_SIM_BI_REG_AUTO
            ? (enum PAN_GENX(register_file_format))pan_sim_auto_regfmt(&f)
            : (enum PAN_GENX(register_file_format))regfmt;
   }
   return true;
}

static bool
vs_ubo(void *user, uint32_t index, uint32_t offset, unsigned size, void *out,
       char *err)
{
   struct vs_run *r = user;
   return PAN_GENX(sim_gfx_ubo)(r->ctx->space, r->draw.uniform_buffers, index,
                                offset, size, out, err);
}

static bool
vs_st_cvt(void *user, uint64_t addr, uint32_t conversion, unsigned comps,
          const uint32_t in[4], char *err)
{
   struct vs_run *r = user;
   struct pan_sim_mem_format f;
   struct pan_sim_access acc;

   pan_unpack(&conversion, internal_conversion, conv);
   uint32_t word = conv.memory_format;
   pan_unpack(&word, pixel_format, pf);
   const char *name = PAN_GENX(format_name)(pf.format);
   if (!pan_sim_mem_format_parse(name, &f) || conv.raw ||
       conv.register_format > MALI_REGISTER_FILE_FORMAT_U16) {
      snprintf(err, PAN_SIM_BI_GFX_ERR_LEN,
               "store conversion 0x%08x (format %s, register format %u%s) "
               "is not modelled",
               conversion, name ? name : "undefined",
               (unsigned)conv.register_format, conv.raw ? ", raw" : "");
      return false;
   }
   unsigned n = comps < f.comps ? comps : f.comps;
   void *dst =
      pan_sim_write(r->ctx->space, addr, n * f.bits / 8, 0, "varying", &acc);
   if (!dst) {
      snprintf(err, PAN_SIM_BI_GFX_ERR_LEN, "%s", acc.message);
      return false;
   }
   pan_sim_regs_to_mem(&f, (enum pan_sim_regfmt)conv.register_format, n, in,
                       dst);
   return true;
}

/* Vertices and instances from the invocation word (see the top). */
static bool
job_counts(struct pan_sim_ctx *ctx, uint64_t job_va,
           const struct PAN_GENX(invocation) * inv, uint32_t *vertices,
           uint32_t *instances)
{
   const unsigned shifts[7] = { 0,
                                inv->size_y_shift,
                                inv->size_z_shift,
                                inv->workgroups_x_shift,
                                inv->workgroups_y_shift,
                                inv->workgroups_z_shift < 32
                                   ? inv->workgroups_z_shift
                                   : 32,
                                32 };
   uint64_t v = 1;
   for (unsigned i = 0; i < 6; ++i) {
      if (shifts[i + 1] < shifts[i])
         return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, job_va,
                              "invocation shifts do not increase");
      uint64_t mask = (1ull << (shifts[i + 1] - shifts[i])) - 1;
      uint64_t f = (((uint64_t)inv->invocations >> shifts[i]) & mask) + 1;
      if (i < 5)
         v *= f;
      else
         *instances = (uint32_t)f;
   }
   if (v * *instances > MAX_VERTICES)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, job_va,
                           "%" PRIu64 " vertices x %u instances exceed the "
                           "simulator's limit",
                           v, *instances);
   *vertices = (uint32_t)v;
   return true;
}

bool
PAN_GENX(sim_gfx_job_counts)(struct pan_sim_ctx *ctx, uint64_t job_va,
                             const void *invocation, uint32_t *vertices,
                             uint32_t *instances)
{
   pan_unpack(invocation, invocation, inv);
   return job_counts(ctx, job_va, &inv, vertices, instances);
}

/* Run one vertex program over every vertex of the job: the vertex shader
 * of a vertex job, or the position or varying half of an IDVS pair. */
static bool
run_vertex_program(struct vs_run *r, uint64_t shader, const char *what,
                   const struct PAN_GENX(preload) * pl, unsigned uniform_count)
{
   struct pan_sim_ctx *ctx = r->ctx;
   const struct PAN_GENX(draw) *draw = &r->draw;
   const uint32_t *uniforms = NULL;
   unsigned nr_uniforms = uniform_count * 2;

   if (nr_uniforms) {
      uniforms = pan_sim_ctx_read(ctx, draw->push_uniforms, nr_uniforms * 4ull,
                                  "vertex uniforms");
      if (!uniforms)
         return false;
   }

   struct gfx_program prog;
   if (!PAN_GENX(sim_gfx_fetch)(ctx, shader, what, &prog))
      return false;

   struct gfx_mem mem = { .space = ctx->space };
   const struct pan_sim_bi_gfx gfx = {
      .user = r,
      .ld_attr = vs_ld_attr,
      .lea_attr = vs_lea_attr,
      .st_cvt = vs_st_cvt,
      .ubo = vs_ubo,
   };
   struct pan_sim_bi_config cfg = {
      .program = prog.words,
      .program_quads = prog.quads,
      .program_va = prog.va,
      .uniforms = uniforms,
      .uniform_words = nr_uniforms,
      .mem = PAN_GENX(sim_gfx_mem_ops),
      .lanes = GFX_LANES,
      .gfx = &gfx,
   };
   cfg.mem.user = &mem;

   struct pan_sim_bi_warp *w = malloc(sizeof(*w));
   bool ok = w != NULL;
   uint32_t total = r->vertices * r->instances;
   for (uint32_t first = 0; ok && first < total; first += GFX_LANES) {
      unsigned lanes = total - first < GFX_LANES ? total - first : GFX_LANES;
      cfg.special[2] = first / GFX_LANES; /* warp_id */
      pan_sim_bi_warp_init(w, (uint16_t)((1u << lanes) - 1));
      for (unsigned l = 0; l < lanes; ++l) {
         uint32_t linear = first + l;
         uint64_t pos = r->position + 16ull * linear;
         uint32_t *reg = w->r[l];
         if (pl->vertex.vertex_id)
            reg[61] = linear % r->vertices;
         if (pl->vertex.instance_id)
            reg[62] = linear / r->vertices;
         if (pl->vertex.position_result_address_lo)
            reg[58] = (uint32_t)pos;
         if (pl->vertex.position_result_address_hi)
            reg[59] = (uint32_t)(pos >> 32);
      }
      if (pan_sim_bi_run(w, &cfg) != PAN_SIM_BI_DONE) {
         ok =
            pan_sim_fault(ctx,
                          mem.failed ? PAN_SIM_READ_FAULT
                                     : MALI_EXCEPTION_TYPE_INSTR_INVALID_ENC,
                          prog.va, "%s 0x%" PRIx64 ", vertices %u..%u: %s%s%s",
                          what, prog.va, first, first + lanes - 1, w->fault,
                          mem.failed ? ": " : "", mem.message);
      }
   }
   if (!w)
      pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, shader, "out of memory");
   free(w);
   free(prog.words);
   return ok;
}

/* Vertex shading of the draw section `draw` (packed) for the job's
 * invocation; with an IDVS pair (idvs) the position shader, then the
 * varying shader when `varyings`. */
bool
PAN_GENX(sim_gfx_shade_vertices)(struct pan_sim_ctx *ctx, uint64_t job_va,
                                 const void *invocation, const void *draw,
                                 uint64_t position, bool idvs, bool varyings)
{
   struct vs_run r = { .ctx = ctx, .position = position };

   pan_unpack(invocation, invocation, inv);
   PAN_GENX(draw_unpack)(draw, &r.draw);
   if (!job_counts(ctx, job_va, &inv, &r.vertices, &r.instances))
      return false;

   const void *rsd = pan_sim_ctx_read(
      ctx, r.draw.state, pan_size(renderer_state), "vertex renderer state");
   if (!rsd)
      return false;
   pan_unpack(rsd, renderer_state, rs);

   if (!run_vertex_program(&r, rs.shader.shader,
                           idvs ? "position shader" : "vertex shader",
                           &rs.preload, rs.preload.uniform_count))
      return false;
   if (!idvs || !varyings)
      return true;
   /* The varying shader shares the uniforms; its preloads are its own. */
   return run_vertex_program(&r, rs.secondary_program.shader, "varying shader",
                             &rs.secondary.preload, rs.preload.uniform_count);
}

bool
PAN_GENX(sim_exec_vertex)(struct pan_sim_ctx *ctx, uint64_t job_va)
{
   const uint8_t *job = pan_sim_ctx_read(ctx, job_va, pan_size(compute_job),
                                         "vertex job descriptor");
   if (!job)
      return false;
   pan_section_unpack(job, compute_job, draw, draw);
   return PAN_GENX(sim_gfx_shade_vertices)(
      ctx, job_va, pan_section_ptr(job, compute_job, invocation),
      pan_section_ptr(job, compute_job, draw), draw.position, false, false);
}

#endif
