/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * VERTEX jobs on Bifrost (compiled once per PAN_ARCH, executed on v6/v7),
 * plus the attribute addressing the fragment shading shares; on Valhall
 * (v9) the vertex packets of MALLOC_VERTEX jobs, their shader environments
 * and resource tables (see the v9 section at the end).
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
 *    1D POT divisor   element linear >> log2(divisor)
 *    1D NPOT divisor  element ((linear + extra) * (2^31 | magic)) >>
 *                     (32 + shift), the magic (bit 31 implied) in the
 *                     continuation record that follows the buffer
 * The divisors divide the linear id, not the instance: drivers fold the
 * padded count into them (padded_count * instance divisor).  Plus
 * draw.offset_start for attribute buffers (the vertex job starts at the
 * draw's first vertex, and drivers compensate per-instance buffers for
 * it in the attribute offset), and varyings start at zero.  The byte address is
 * buffer + element * stride + attribute offset.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pan_sim_vX_gfx.h"
#include "pan_sim_vX_texture.h"

#if PAN_ARCH >= 6

#define MAX_PROGRAM_B (256u << 10)
#define MAX_VERTICES (1u << 24)

/* ---- shared helpers ---- */

bool
PAN_GENX(sim_gfx_fetch)(struct pan_sim_ctx *ctx, uint64_t va, const char *what,
                        struct gfx_program *p)
{
   if (!va || va % GFX_PROGRAM_ALIGN_B)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, va,
                           "%s address 0x%" PRIx64 " is not %u-byte aligned",
                           what, va, GFX_PROGRAM_ALIGN_B);
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

/* A vertex packet's bytes, or NULL after recording why. */
static uint8_t *
packet_at(struct gfx_mem *m, uint64_t addr, unsigned size)
{
   uint8_t *p = m->packet ? m->packet(m, addr, size) : NULL;
   if (!p && !m->failed) {
      if (!m->packet)
         snprintf(m->message, sizeof(m->message),
                  "address 0x%" PRIx64 " is outside GPU memory", addr);
      m->failed = true;
   }
   return p;
}

static bool
mem_read(void *user, uint64_t addr, void *data, unsigned size)
{
   struct gfx_mem *m = user;
   struct pan_sim_access acc;
   if (addr >= GFX_PACKET_WINDOW) {
      const uint8_t *q = packet_at(m, addr, size);
      if (q)
         memcpy(data, q, size);
      return q != NULL;
   }
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
   if (addr >= GFX_PACKET_WINDOW) {
      uint8_t *q = packet_at(m, addr, size);
      if (q)
         memcpy(q, data, size);
      return q != NULL;
   }
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

const gfx_mem_ops_t PAN_GENX(sim_gfx_mem_ops) = {
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
      snprintf(err, GFX_ERR_LEN, "%s", acc.message);
   return p;
}

bool
PAN_GENX(sim_gfx_format)(uint32_t word, const char *kind, unsigned index,
                         struct pan_sim_mem_format *fmt, char *err)
{
   pan_unpack(&word, pixel_format, pf);
   const char *name = PAN_GENX(format_name)(pf.format);
#if PAN_ARCH >= 7
   /* Orders that keep the components in place, the missing ones reading
    * as GL's defaults (0, 0, 0, 1) anyway, and BGRA (vertex colours of
    * EXT_vertex_array_bgra), which swaps the first and third. */
   bool bgra = pf.order == MALI_RGB_COMPONENT_ORDER_BGRA;
   bool ordered = bgra || pf.order == MALI_RGB_COMPONENT_ORDER_RGBA ||
                  pf.order == MALI_RGB_COMPONENT_ORDER_RGB1 ||
                  pf.order == MALI_RGB_COMPONENT_ORDER_R000;
#else
   bool ordered = true; /* any v6 swizzle (channel 4 is 0, 5 is 1) */
#endif
   if (!pan_sim_mem_format_parse(name, fmt) || pf.srgb) {
      snprintf(err, GFX_ERR_LEN, "%s %u: format %s (0x%x) is not modelled",
               kind, index, name ? name : "undefined", word);
      return false;
   }
#if PAN_ARCH >= 7
   if (bgra) {
      fmt->order[0] = 2;
      fmt->order[2] = 0;
   }
#else
   fmt->order[0] = pf.swizzle.r;
   fmt->order[1] = pf.swizzle.g;
   fmt->order[2] = pf.swizzle.b;
   fmt->order[3] = pf.swizzle.a;
#endif
   if (!ordered) {
#if PAN_ARCH >= 7
      const char *o = PAN_GENX(rgb_component_order_name)(pf.order);
#else
      const char *o = "?";
#endif
      snprintf(err, GFX_ERR_LEN,
               "%s %u: component order %s of %s is not modelled", kind, index,
               o ? o : "undefined", name);
      return false;
   }
   return true;
}

static bool
is_constant_format(uint32_t word)
{
   pan_unpack(&word, pixel_format, pf);
   const char *name = PAN_GENX(format_name)(pf.format);
   return name && !strcmp(name, "constant");
}

/* A converting store to R11G11B10F (an image of that format): the word
 * packed as the tile buffer packs it, components past comps keeping their
 * bits; only float registers convert. */
static bool
st_cvt_r11g11b10(const struct pan_sim_space *space, uint64_t addr,
                 unsigned regfmt, unsigned comps, const uint32_t in[4],
                 char *err)
{
   struct pan_sim_access acc;
   float src[4];

   if (!pan_sim_regs_to_float((enum pan_sim_regfmt)regfmt, in, comps, src)) {
      snprintf(err, GFX_ERR_LEN,
               "store conversion to r11f_g11f_b10f from register format %u "
               "is not modelled",
               regfmt);
      return false;
   }
   uint8_t *dst = pan_sim_write(space, addr, 4, 0, "converting store", &acc);
   if (!dst) {
      snprintf(err, GFX_ERR_LEN, "%s", acc.message);
      return false;
   }
   uint32_t word;
   memcpy(&word, dst, 4);
   word = pan_sim_r11g11b10_pack(src, (1u << comps) - 1, word);
   memcpy(dst, &word, 4);
   return true;
}

bool
PAN_GENX(sim_gfx_st_cvt)(const struct pan_sim_space *space, uint64_t addr,
                         uint32_t conversion, unsigned comps,
                         const uint32_t in[4], char *err)
{
   struct pan_sim_mem_format f;
   struct pan_sim_access acc;

   pan_unpack(&conversion, internal_conversion, conv);
   uint32_t word = conv.memory_format;
   if (is_constant_format(word))
      return true; /* an output nothing reads (constant_varying) */
   pan_unpack(&word, pixel_format, pf);
   const char *name = PAN_GENX(format_name)(pf.format);
   if (name && !strcmp(name, "r11f_g11f_b10f") && !conv.raw)
      return st_cvt_r11g11b10(space, addr, conv.register_format, comps, in,
                              err);
   if (!pan_sim_mem_format_parse(name, &f) || conv.raw ||
       conv.register_format > MALI_REGISTER_FILE_FORMAT_U16) {
      snprintf(err, GFX_ERR_LEN,
               "store conversion 0x%08x (format %s, register format %u%s) "
               "is not modelled",
               conversion, name ? name : "undefined",
               (unsigned)conv.register_format, conv.raw ? ", raw" : "");
      return false;
   }
   unsigned n = comps < f.comps ? comps : f.comps;
   /* A packed RGB10_A2 word is written whole, fields past n kept. */
   unsigned size_B = f.rgb10_a2 ? 4 : n * f.bits / 8;
   void *dst = pan_sim_write(space, addr, size_B, 0, "converting store", &acc);
   if (!dst) {
      snprintf(err, GFX_ERR_LEN, "%s", acc.message);
      return false;
   }
   pan_sim_regs_to_mem(&f, (enum pan_sim_regfmt)conv.register_format, n, in,
                       dst);
   return true;
}

#if PAN_ARCH <= 7
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

   if (!PAN_GENX(sim_gfx_format)(at.format, kind, index, fmt, err))
      return false;

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
      elem = ref->linear / buf.pot.divisor;
      break;
   case MALI_ATTRIBUTE_TYPE_1D_NPOT_DIVISOR: {
      pan_unpack((const uint8_t *)p + pan_size(attribute_buffer),
                 attribute_buffer_continuation_npot, cont);
      /* The extra bit rounds the id up by one for a magic rounded down */
      elem = (((uint64_t)ref->linear + buf.npot.extra) *
              (0x80000000ull | cont.divisor_numerator)) >>
             (32 + buf.npot.shift);
      break;
   }
   default: {
      const char *t = PAN_GENX(attribute_type_name)(buf.type);
      snprintf(err, GFX_ERR_LEN,
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

#endif

#if PAN_ARCH <= 7
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
           enum pan_sim_regfmt regfmt, unsigned comps, uint32_t out[4],
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
   pan_sim_mem_to_regs(&f, p, regfmt, comps, out);
   return true;
}

/* Whether varying `index` has the constant format: the driver's place
 * holder for an output nothing reads, whose stores go nowhere. */
static bool
constant_varying(const struct pan_sim_space *space,
                 const struct gfx_attr_ref *ref, unsigned index,
                 uint32_t *word)
{
   char err[GFX_ERR_LEN];
   const void *p = PAN_GENX(sim_gfx_read)(
      space, ref->table + index * pan_size(attribute), pan_size(attribute),
      "varying descriptor", err);
   if (!p)
      return false;
   pan_unpack(p, attribute, at);
   *word = at.format;
   return is_constant_format(at.format);
}

static bool
vs_lea_attr(void *user, unsigned index, uint32_t vertex, uint32_t instance,
            enum pan_sim_regfmt regfmt, uint32_t out[3], char *err)
{
   struct vs_run *r = user;
   struct gfx_attr_ref ref;
   struct pan_sim_mem_format f;
   uint64_t addr;
   uint32_t word;

   ref_for(r, true, vertex, instance, &ref);
   if (constant_varying(r->ctx->space, &ref, index, &word)) {
      /* A varying no later stage reads: address 0, and the conversion
       * keeps the constant format so that ST_CVT drops the store. */
      out[0] = out[1] = 0;
      pan_pack(&out[2], internal_conversion, cfg)
      {
         cfg.memory_format = word;
         cfg.register_format =
            regfmt == PAN_SIM_REG_AUTO
               ? MALI_REGISTER_FILE_FORMAT_F32
               : (enum PAN_GENX(register_file_format))regfmt;
      }
      return true;
   }
   if (!PAN_GENX(sim_gfx_locate)(r->ctx->space, &ref, index, &addr, &word, &f,
                                 err))
      return false;
   out[0] = (uint32_t)addr;
   out[1] = (uint32_t)(addr >> 32);
   pan_pack(&out[2], internal_conversion, cfg)
   {
      cfg.memory_format = word;
      cfg.register_format =
         regfmt == PAN_SIM_REG_AUTO
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
   return PAN_GENX(sim_gfx_st_cvt)(r->ctx->space, addr, conversion, comps, in,
                                   err);
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

bool
PAN_GENX(sim_gfx_thread_storage)(struct pan_sim_ctx *ctx, uint64_t va,
                                 struct pan_sim_bi_config *cfg)
{
   struct pan_sim_tls tls;
   if (!PAN_GENX(sim_thread_storage)(ctx, va, &tls, NULL))
      return false;
   cfg->tls_base = tls.base;
   cfg->tls_thread_B = tls.thread_B;
   cfg->tls_thread = 0;
   return true;
}

/* The register file of an IDVS pair's varying shader. */
static unsigned
secondary_regs(const struct PAN_GENX(renderer_state) * rs)
{
#if PAN_ARCH >= 7
   return rs->properties.secondary_shader_register_allocation ==
                MALI_SHADER_REGISTER_ALLOCATION_32_PER_THREAD
             ? 32
             : 64;
#else
   (void)rs;
   return 64;
#endif
}

/* Run one vertex program over every vertex of the job: the vertex shader
 * of a vertex job, or the position or varying half of an IDVS pair. */
static bool
run_vertex_program(struct vs_run *r, uint64_t shader, const char *what,
                   const struct PAN_GENX(preload) * pl, unsigned uniform_count,
                   unsigned work_regs)
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
   /* The renderer state's counts are not at hand here: the tables are
    * bounded by memory only. */
   struct pan_sim_tex_env tex_env = {
      .space = ctx->space,
      .textures = draw->textures,
      .samplers = draw->samplers,
      .texture_count = PAN_SIM_TEX_UNBOUNDED,
      .sampler_count = PAN_SIM_TEX_UNBOUNDED,
   };
   const struct pan_sim_tex_ops tex = { &tex_env, PAN_GENX(sim_tex_run) };
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
      .tex = &tex,
      .work_regs = work_regs,
   };
   cfg.mem.user = &mem;
   if (!PAN_GENX(sim_gfx_thread_storage)(ctx, draw->thread_storage, &cfg))
      return false;

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
                           &rs.preload, rs.preload.uniform_count,
                           PAN_GENX(sim_bi_declared_regs)(&rs)))
      return false;
   if (!idvs || !varyings)
      return true;
   /* The varying shader shares the uniforms; its preloads are its own. */
   return run_vertex_program(&r, rs.secondary_program.shader, "varying shader",
                             &rs.secondary.preload, rs.preload.uniform_count,
                             secondary_regs(&rs));
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

#endif /* PAN_ARCH <= 7 */

#if PAN_ARCH >= 9
/* ---- Valhall: shader environments, resources, malloc-vertex shading ---- */

bool
PAN_GENX(sim_gfx_resource)(const struct pan_sim_space *space,
                           uint64_t resources, unsigned table, unsigned index,
                           uint64_t *va, char *err)
{
   /* The table pointer is 64-byte aligned; its low bits count the tables. */
   unsigned tables = resources & 63;
   if (table >= tables) {
      snprintf(err, GFX_ERR_LEN, "resource table %u of %u", table, tables);
      return false;
   }
   const void *p = PAN_GENX(sim_gfx_read)(
      space, (resources & ~63ull) + table * pan_size(resource),
      pan_size(resource), "resource table", err);
   if (!p)
      return false;
   pan_unpack(p, resource, res);
   if ((uint64_t)(index + 1) * pan_size(buffer) > res.size) {
      snprintf(err, GFX_ERR_LEN, "resource %u of table %u beyond its %" PRIu64
               " bytes", index, table, (uint64_t)res.size);
      return false;
   }
   *va = res.address + (uint64_t)index * pan_size(buffer);
   return true;
}

bool
PAN_GENX(sim_gfx_ld_buffer)(const struct pan_sim_space *space,
                            uint64_t resources, unsigned table, uint32_t index,
                            uint32_t offset, unsigned size, void *out,
                            char *err)
{
   uint64_t va;
   if (!PAN_GENX(sim_gfx_resource)(space, resources, table, index, &va, err))
      return false;
   const void *p =
      PAN_GENX(sim_gfx_read)(space, va, pan_size(buffer), "buffer", err);
   if (!p)
      return false;
   pan_unpack(p, buffer, buf);
   /* Past the buffer: zeros, as robust access asks. */
   if ((uint64_t)offset + size > buf.size) {
      memset(out, 0, size);
      return true;
   }
   p = PAN_GENX(sim_gfx_read)(space, buf.address + offset, size,
                              "uniform buffer", err);
   if (!p)
      return false;
   memcpy(out, p, size);
   return true;
}

bool
PAN_GENX(sim_gfx_env)(struct pan_sim_ctx *ctx, const void *packed_env,
                      const char *what, struct gfx_env *out)
{
   pan_unpack(packed_env, shader_environment, env);
   memset(out, 0, sizeof(*out));
   out->resources = env.resources;
   /* The shader sees the storage itself, not its descriptor. */
   struct pan_sim_tls tls;
   if (!PAN_GENX(sim_thread_storage)(ctx, env.thread_storage, &tls, NULL))
      return false;
   out->tls = tls.base;
   out->tls_thread_B = tls.thread_B;
   const void *spd = pan_sim_ctx_read(ctx, env.shader, pan_size(shader_program),
                                      "shader program descriptor");
   if (!spd)
      return false;
   pan_unpack(spd, shader_program, sp);
   if (sp.type != MALI_DESCRIPTOR_TYPE_SHADER)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, env.shader,
                           "%s: descriptor 0x%" PRIx64 " is not a shader "
                           "program (type %u)",
                           what, (uint64_t)env.shader, (unsigned)sp.type);
   out->preload = sp.preload.r48_r63;
   out->work_regs =
      sp.register_allocation == MALI_SHADER_REGISTER_ALLOCATION_32_PER_THREAD
         ? 32
         : 64;
   out->ftz =
      sp.flush_to_zero_mode != MALI_FLUSH_TO_ZERO_MODE_PRESERVE_SUBNORMALS;
   if (env.fau_count) {
      out->fau_words = env.fau_count * 2;
      out->fau = pan_sim_ctx_read(ctx, env.fau, env.fau_count * 8ull, "FAU");
      if (!out->fau)
         return false;
   }
   return PAN_GENX(sim_gfx_fetch)(ctx, sp.binary, what, &out->prog);
}

void
PAN_GENX(sim_gfx_config)(const struct gfx_env *env, struct gfx_mem *m,
                         const struct pan_sim_va_gfx *g,
                         struct pan_sim_va_config *cfg)
{
   *cfg = (struct pan_sim_va_config){
      .program = env->prog.words,
      .program_words = env->prog.quads * 2,
      .program_va = env->prog.va,
      .uniforms = env->fau,
      .uniform_words = env->fau_words,
      .mem = PAN_GENX(sim_gfx_mem_ops),
      .gfx = g,
      .flush_f32 = env->ftz,
      .flush_f16 = env->ftz,
      .work_regs = env->work_regs,
   };
   cfg->mem.user = m;
   cfg->special[1][1] = env->tls;       /* thread_local_pointer */
   /* Warps run one at a time: a warp's lanes are threads 0 to 15. */
   cfg->tls_thread_B = env->tls_thread_B;
   cfg->special[1][7] = env->resources; /* resource_table_pointer */
   m->tex_env = PAN_GENX(sim_tex_env_resources)(m->space, env->resources);
   m->tex = (struct pan_sim_tex_ops){ &m->tex_env, PAN_GENX(sim_tex_run) };
   cfg->tex = &m->tex;
}

/*
 * The hardware allocates vertex packets and hands a position shader their
 * place through r59 and LEA_BUF_IMM; how is not public.  The simulator
 * keeps the packets in host memory (one per index of every instance) and
 * makes that handshake functional:
 *    r59          packet number << 3 (the compiler adds 4 to it to reach
 *                 the point size)
 *    LEA_BUF_IMM  GFX_PACKET_WINDOW + (its source << 12)
 * Stores in the window go, in the position shader, to the position
 * (sub-slot 0, 16 bytes) or the point size (sub-slot 4); in the varying
 * shader to the varyings at the store's offset (sub-slot 0).
 */
#define SLOT_SHIFT 12
#define R59_SHIFT 3
/* Host memory of one job's packets at most. */
#define MAX_PACKETS_B (512u << 20)

struct packet_run {
   struct pan_sim_ctx *ctx;
   struct pan_sim_draw_rec *rec;
   uint64_t resources;
   bool varying_shader;
};

static uint8_t *
packet_window(struct gfx_mem *m, uint64_t addr, unsigned size)
{
   const struct packet_run *r = m->packet_user;
   uint64_t x = (addr - GFX_PACKET_WINDOW) >> SLOT_SHIFT;
   uint32_t off = addr & ((1u << SLOT_SHIFT) - 1);
   uint64_t packet = x >> R59_SHIFT;
   unsigned sub = x & ((1u << R59_SHIFT) - 1);
   uint32_t lo = 0, hi = 0;

   if (r->varying_shader && sub == 0) {
      lo = PAN_SIM_PACKET_VARYINGS;
      hi = r->rec->packet_B;
   } else if (!r->varying_shader && sub == 0) {
      hi = 16;
   } else if (!r->varying_shader && sub == 4) {
      lo = PAN_SIM_PACKET_POINT_SIZE;
      hi = lo + 4;
   }
   if (packet < r->rec->nr_packets && lo + off + size <= hi && hi)
      return r->rec->packets + packet * r->rec->packet_B + lo + off;
   snprintf(m->message, sizeof(m->message),
            "%s shader access of %u bytes at packet %" PRIu64
            " slot %u offset %u is outside its vertex packet",
            r->varying_shader ? "varying" : "position", size, packet, sub, off);
   return NULL;
}

static bool
pk_lea_buf(void *user, unsigned lane, unsigned table, unsigned index,
           uint32_t linear, uint64_t *addr, char *err)
{
   (void)user, (void)lane, (void)table, (void)index, (void)err;
   *addr = GFX_PACKET_WINDOW + ((uint64_t)linear << SLOT_SHIFT);
   return true;
}

static bool
pk_ld_attr(void *user, unsigned table, unsigned index, uint32_t vertex,
           uint32_t instance, enum pan_sim_regfmt regfmt, unsigned comps,
           uint32_t out[4], char *err)
{
   struct packet_run *r = user;
   const struct pan_sim_space *space = r->ctx->space;
   struct pan_sim_mem_format f;
   uint64_t va;

   if (!PAN_GENX(sim_gfx_resource)(space, r->resources, table, index, &va,
                                   err))
      return false;
   const void *p = PAN_GENX(sim_gfx_read)(space, va, pan_size(attribute),
                                          "attribute descriptor", err);
   if (!p)
      return false;
   pan_unpack(p, attribute, at);
   if (!PAN_GENX(sim_gfx_format)(at.format, "attribute", index, &f, err) ||
       !PAN_GENX(sim_gfx_resource)(space, r->resources, at.table,
                                   at.buffer_index, &va, err))
      return false;
   p = PAN_GENX(sim_gfx_read)(space, va, pan_size(buffer),
                              "attribute buffer descriptor", err);
   if (!p)
      return false;
   pan_unpack(p, buffer, buf);

   uint64_t elem;
   switch (at.attribute_type) {
   case MALI_ATTRIBUTE_TYPE_1D:
      elem = at.frequency == MALI_ATTRIBUTE_FREQUENCY_INSTANCE ? instance
                                                               : vertex;
      break;
   case MALI_ATTRIBUTE_TYPE_1D_POT_DIVISOR:
      elem = instance >> at.divisor_r;
      break;
   case MALI_ATTRIBUTE_TYPE_1D_NPOT_DIVISOR:
      if (at.divisor_e) {
         snprintf(err, GFX_ERR_LEN,
                  "attribute %u: NPOT divisor with the extra bit is not "
                  "modelled",
                  index);
         return false;
      }
      elem = ((uint64_t)instance * at.divisor_d) >> (32 + at.divisor_r);
      break;
   default: {
      const char *t = PAN_GENX(attribute_type_name)(at.attribute_type);
      snprintf(err, GFX_ERR_LEN, "attribute %u of type %s is not modelled",
               index, t ? t : "undefined");
      return false;
   }
   }
   uint64_t off = elem * at.strided.stride + (int64_t)at.offset;
   unsigned bytes = f.comps * f.bits / 8;
   uint8_t zero[16] = { 0 };
   /* Past the buffer: zeros (robust access; GL leaves it undefined). */
   p = off + bytes <= buf.size
          ? PAN_GENX(sim_gfx_read)(space, buf.address + off, bytes,
                                   "attribute", err)
          : zero;
   if (!p)
      return false;
   pan_sim_mem_to_regs(&f, p, regfmt, comps, out);
   return true;
}

static bool
pk_ld_buffer(void *user, unsigned table, uint32_t index, uint32_t offset,
             unsigned size, void *out, char *err)
{
   struct packet_run *r = user;
   return PAN_GENX(sim_gfx_ld_buffer)(r->ctx->space, r->resources, table,
                                      index, offset, size, out, err);
}

/* Vertex id of packet p: the index (plus base_vertex_offset) or, without
 * indices, base_vertex_offset + i; *skip for restart indices. */
struct packet_ids {
   const uint8_t *indices;
   unsigned index_B;
   uint32_t count, base, restart;
   bool use_restart;
};

static uint32_t
packet_vertex(const struct packet_ids *ids, uint32_t p, bool *skip)
{
   uint32_t i = p % ids->count, v = 0;
   *skip = false;
   if (!ids->indices)
      return ids->base + i;
   memcpy(&v, ids->indices + (uint64_t)i * ids->index_B, ids->index_B);
   *skip = ids->use_restart && v == ids->restart;
   return v + ids->base;
}

/* One shader over every packet (the position or the varying shader). */
static bool
run_packets(struct packet_run *r, const void *packed_env,
            const struct packet_ids *ids, const char *what)
{
   struct pan_sim_ctx *ctx = r->ctx;
   struct gfx_env env;
   if (!PAN_GENX(sim_gfx_env)(ctx, packed_env, what, &env))
      return false;
   r->resources = env.resources;

   struct gfx_mem mem = {
      .space = ctx->space,
      .packet = packet_window,
      .packet_user = r,
   };
   const struct pan_sim_va_gfx gfx = {
      .user = r,
      .ld_attr = pk_ld_attr,
      .lea_buf = pk_lea_buf,
      .ld_buffer = pk_ld_buffer,
   };
   struct pan_sim_va_config cfg;
   PAN_GENX(sim_gfx_config)(&env, &mem, &gfx, &cfg);

   struct pan_sim_va_warp *w = malloc(sizeof(*w));
   bool ok = w != NULL;
   uint32_t total = r->rec->nr_packets;
   for (uint32_t first = 0; ok && first < total; first += GFX_LANES) {
      unsigned lanes = total - first < GFX_LANES ? total - first : GFX_LANES;
      uint16_t mask = 0;
      uint32_t vid[GFX_LANES];
      for (unsigned l = 0; l < lanes; ++l) {
         bool skip;
         vid[l] = packet_vertex(ids, first + l, &skip);
         mask |= skip ? 0 : 1u << l;
      }
      if (!mask)
         continue;
      cfg.special[0][2] = first / GFX_LANES; /* warp_id */
      pan_sim_va_warp_init(w, mask);
      for (unsigned l = 0; l < lanes; ++l) {
         uint32_t *reg = w->r[l];
         if (env.preload & (1u << (59 - 48)))
            reg[59] = (first + l) << R59_SHIFT;
         if (env.preload & (1u << (60 - 48)))
            reg[60] = vid[l];
         if (env.preload & (1u << (61 - 48)))
            reg[61] = (first + l) / ids->count;
      }
      if (pan_sim_va_run(w, &cfg) != PAN_SIM_VA_DONE)
         ok = pan_sim_fault(ctx,
                            mem.failed ? PAN_SIM_WRITE_FAULT
                                       : MALI_EXCEPTION_TYPE_INSTR_INVALID_ENC,
                            env.prog.va,
                            "%s 0x%" PRIx64 ", vertices %u..%u: %s%s%s", what,
                            env.prog.va, first, first + lanes - 1, w->fault,
                            mem.failed ? ": " : "", mem.message);
   }
   if (!w)
      pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, env.prog.va, "out of memory");
   free(w);
   free(env.prog.words);
   return ok;
}

bool
PAN_GENX(sim_gfx_shade_packets)(struct pan_sim_ctx *ctx, uint64_t job_va,
                                const void *job, struct pan_sim_draw_rec *rec)
{
   pan_section_unpack(job, malloc_vertex_job, primitive, prim);
   pan_section_unpack(job, malloc_vertex_job, instance_count, ic);
   pan_section_unpack(job, malloc_vertex_job, allocation, alloc);
   pan_section_unpack(job, malloc_vertex_job, indices, ind);
   struct packet_ids ids = {
      .count = prim.index_count,
      .base = prim.base_vertex_offset,
   };
   uint64_t n = (uint64_t)prim.index_count * ic.count;

   if (n > MAX_VERTICES)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, job_va,
                           "%u indices x %u instances exceed the simulator's "
                           "limit",
                           prim.index_count, ic.count);
   if (prim.index_type != MALI_INDEX_TYPE_NONE) {
      ids.index_B = prim.index_type == MALI_INDEX_TYPE_UINT8    ? 1
                    : prim.index_type == MALI_INDEX_TYPE_UINT16 ? 2
                                                                : 4;
      ids.indices = pan_sim_ctx_read(ctx, ind.address,
                                     (uint64_t)ids.count * ids.index_B,
                                     "indices");
      if (!ids.indices)
         return false;
      ids.use_restart =
         prim.restart.primitive_restart != MALI_PRIMITIVE_RESTART_NONE;
      ids.restart = (uint32_t)((1ull << (8 * ids.index_B)) - 1);
   }
   rec->packet_B = PAN_SIM_PACKET_VARYINGS + alloc.vertex_attribute_stride;
   if (alloc.vertex_attribute_stride > (1u << SLOT_SHIFT) ||
       n * rec->packet_B > MAX_PACKETS_B)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, job_va,
                           "%" PRIu64 " vertices of %u bytes of varyings "
                           "exceed the simulator's limits (%u bytes a "
                           "vertex, %u MiB)",
                           n, alloc.vertex_attribute_stride,
                           1u << SLOT_SHIFT, MAX_PACKETS_B >> 20);
   rec->nr_packets = (uint32_t)n;
   rec->packets = calloc(n, rec->packet_B);
   if (!rec->packets)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, job_va, "out of memory");

   struct packet_run r = { .ctx = ctx, .rec = rec };
   bool ok = run_packets(&r, pan_section_ptr(job, malloc_vertex_job, position),
                         &ids, "position shader");
   if (ok && prim.secondary_shader) {
      r.varying_shader = true;
      ok = run_packets(&r, pan_section_ptr(job, malloc_vertex_job, varying),
                       &ids, "varying shader");
   }
   if (!ok) {
      free(rec->packets);
      rec->packets = NULL;
   }
   return ok;
}
#endif /* PAN_ARCH >= 9 */

#endif
