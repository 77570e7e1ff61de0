/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * COMPUTE jobs (compiled once per PAN_ARCH; executed on v6/v7 with the
 * Bifrost interpreter and on v9 with the Valhall one, Midgard has no
 * interpreter yet).
 *
 * The per-arch half unpacks the job into a neutral struct compute_desc:
 *    v6/v7  packed "invocation" section (workgroup size and count in one
 *           word, split at the shifts), draw section -> renderer state
 *           (shader, preload flags, uniform count), push uniforms, thread
 *           storage;
 *    v9     compute payload (size, count) and its shader environment ->
 *           shader program descriptor (binary, preload mask), FAU, thread
 *           storage, resource table.
 * The neutral half walks the workgroups in x, y, z order, one at a time,
 * and cuts each into warps of consecutive linear local indices (8 lanes on
 * G52, 4 on G72, 16 on Valhall; the last warp may be partial).  The warps
 * of a workgroup run round-robin, each up to its next barrier (Valhall
 * `barrier`, Bifrost BARRIER) or its end: between two barriers they run
 * one after the other, which is a legal interleaving.  When some warps
 * ended while others wait at a barrier the hardware would hang: the job
 * faults with TERMINATED and says so.
 *
 * Registers preloaded for compute, on every Bifrost and Valhall GPU, each
 * only when the shader asks for it (bit 48 + n of the preload mask, the
 * same bits in the v7 renderer state flags):
 *    r55  local invocation id x (bits 0-15) | y (bits 16-31)
 *    r56  local invocation id z (bits 0-15)
 *    r57, r58, r59  workgroup id x, y, z
 *    r60, r61, r62  global invocation id x, y, z (workgroup id * size +
 *                   local id)
 *
 * Memory: every shader access goes through the job's pan_sim_space (an
 * adapter below), except workgroup-local (shared) memory.  Its size per
 * workgroup is 2^(wls_size_scale - 1) bytes from the local storage
 * descriptor (wls_size_base must be 0, as drivers write it; no WLS when
 * wls_instances says so).  Each workgroup gets its own host buffer seen
 * at wls_base_pointer: Valhall reaches it with plain loads/stores from the
 * workgroup-local pointer (FAU page 1), Bifrost with the wls segment.  An
 * access in the WLS allocation (size * wls_instances bytes) past the
 * workgroup's size faults.  The buffer is not zeroed but filled with 0xa5
 * at each workgroup: the hardware leaves whatever the previous workgroup
 * wrote, and a fixed pattern makes reads before writes deterministic and
 * visible while still isolating workgroups.
 *
 * Faults: a failed shader access faults the job with READ/WRITE_FAULT and
 * its address, a program counter outside the shader INSTR_INVALID_PC, an
 * instruction the interpreter refuses (barriers among them) or cannot
 * decode INSTR_INVALID_ENC, an instruction-budget overrun TERMINATED (what
 * the kernel's hang check would end up doing).
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pan_genxml.h"
#include "pan_sim_arch.h"
#include "pan_sim_vX_gfx.h"
#include "pan_sim_vX_img.h"
#include "pan_sim_vX_texture.h"

#if PAN_ARCH >= 9
#include "pan_sim_va.h"
#define WARP_LANES PAN_SIM_VA_LANES
#define PROGRAM_ALIGN_B 8
typedef struct pan_sim_va_warp warp_t;
#elif PAN_ARCH >= 6
#include "pan_sim_bi.h"
#define WARP_LANES (PAN_ARCH == 6 ? PAN_SIM_BI_LANES_G72 : PAN_SIM_BI_LANES_G52)
#define PROGRAM_ALIGN_B 16
typedef struct pan_sim_bi_warp warp_t;
#endif

#if PAN_ARCH >= 6

/* Bytes of shader handed to the interpreter at most (the binary's length is
 * not in any descriptor: it runs to its region's end, capped). */
#define MAX_PROGRAM_B (256u << 10)
/* Invocations of one job at most, so that a garbage descriptor cannot keep
 * the simulator busy for hours. */
#define MAX_INVOCATIONS (1ull << 24)
/* Invocations of one workgroup (all its warps live at once) and shared
 * memory of one workgroup at most; beyond any Mali GPU's limits. */
#define MAX_WG_INVOCATIONS 1024u
#define MAX_WLS_B (1u << 20)
#define WLS_FILL 0xa5

#define PRELOAD_BIT(reg) (1u << ((reg)-48))

struct compute_desc {
   uint32_t size[3];  /* workgroup size */
   uint32_t count[3]; /* workgroups */
   uint64_t shader_va;
   uint32_t preload; /* bit n: r(48 + n) preloaded */
   unsigned work_regs; /* registers declared, 0: all */
   const uint32_t *uniforms;
   unsigned uniform_words;
   struct pan_sim_tls tls;
   uint64_t wls_base, resources;
   uint32_t wls_size;   /* shared bytes per workgroup, 0: none */
   uint64_t wls_window; /* bytes at wls_base routed to shared memory */
   bool flush_denormals;
   /* Textures and images: v9 through `resources`; earlier the draw
    * section's texture/sampler tables and attribute table. */
   uint64_t textures, samplers, attributes, attribute_buffers;
   unsigned texture_count, sampler_count;
};

/* ---- memory adapter: interpreter callbacks -> pan_sim_space ---- */

struct mem_adapter {
   const struct pan_sim_space *space;
   bool failed, failed_write;
   struct pan_sim_access acc; /* the first failed access */
   /* The current workgroup's shared memory, at wls_va. */
   uint64_t wls_va, wls_window;
   uint8_t *shared;
   uint32_t shared_size;
};

static bool
mem_fail(struct mem_adapter *m, const struct pan_sim_access *acc, bool write)
{
   if (!m->failed) {
      m->failed = true;
      m->failed_write = write;
      m->acc = *acc;
   }
   return false;
}

/* Shared memory: NULL when addr is not in the WLS window, else a host
 * pointer, or NULL with *fault set when out of the workgroup's bounds. */
static uint8_t *
shared_ptr(struct mem_adapter *m, uint64_t addr, unsigned size, bool write,
           bool *fault)
{
   *fault = false;
   if (addr < m->wls_va || addr - m->wls_va >= m->wls_window)
      return NULL;
   uint64_t off = addr - m->wls_va;
   if (off + size <= m->shared_size)
      return m->shared + off;
   struct pan_sim_access acc = { PAN_SIM_ACCESS_PAST_END, addr, NULL, "" };
   snprintf(acc.message, sizeof(acc.message),
            "shared memory %s of %u bytes at offset 0x%" PRIx64
            " beyond the workgroup's %u bytes",
            write ? "store" : "load", size, off, m->shared_size);
   mem_fail(m, &acc, write);
   *fault = true;
   return NULL;
}

static bool
mem_read(void *user, uint64_t addr, void *data, unsigned size)
{
   struct mem_adapter *m = user;
   struct pan_sim_access acc;
   bool fault;
   uint8_t *sh = shared_ptr(m, addr, size, false, &fault);

   if (sh || fault) {
      if (sh)
         memcpy(data, sh, size);
      return sh != NULL;
   }
   const void *p = pan_sim_read(m->space, addr, size, 0, "shader load", &acc);

   if (!p)
      return mem_fail(m, &acc, false);
   memcpy(data, p, size);
   return true;
}

static bool
mem_write(void *user, uint64_t addr, const void *data, unsigned size)
{
   struct mem_adapter *m = user;
   struct pan_sim_access acc;
   bool fault;
   uint8_t *sh = shared_ptr(m, addr, size, true, &fault);

   if (sh || fault) {
      if (sh)
         memcpy(sh, data, size);
      return sh != NULL;
   }
   void *p = pan_sim_write(m->space, addr, size, 0, "shader store", &acc);

   if (!p)
      return mem_fail(m, &acc, true);
   memcpy(p, data, size);
   return true;
}

/* ---- descriptors -> compute_desc ---- */

static bool
read_local_storage(struct pan_sim_ctx *ctx, uint64_t va, struct compute_desc *d)
{
   const void *ls;
   if (!PAN_GENX(sim_thread_storage)(ctx, va, &d->tls, &ls))
      return false;
   if (!ls)
      return true;
   pan_unpack(ls, local_storage, tls);
   d->wls_base = tls.wls_base_pointer;
   if (tls.wls_instances == MALI_LOCAL_STORAGE_NO_WLS || !tls.wls_size_scale)
      return true;
   if (tls.wls_size_base || tls.wls_size_scale > 21)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, va,
                           "workgroup-local storage size base %u scale %u "
                           "is not modelled (base 0, at most %u bytes)",
                           tls.wls_size_base, tls.wls_size_scale, MAX_WLS_B);
   d->wls_size = 1u << (tls.wls_size_scale - 1);
   d->wls_window = (uint64_t)d->wls_size * tls.wls_instances;
   if (!d->wls_base)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, va,
                           "workgroup-local storage of %u bytes without a "
                           "base pointer",
                           d->wls_size);
   return true;
}

static bool
read_uniforms(struct pan_sim_ctx *ctx, uint64_t va, unsigned entries,
              struct compute_desc *d)
{
   if (!entries)
      return true;
   /* FAU entries are 64-bit: two uniform words each. */
   d->uniforms = pan_sim_ctx_read(ctx, va, entries * 8ull, "uniforms (FAU)");
   d->uniform_words = entries * 2;
   return d->uniforms != NULL;
}

#if PAN_ARCH >= 9
static bool
unpack_job(struct pan_sim_ctx *ctx, uint64_t job_va, struct compute_desc *d)
{
   const void *job = pan_sim_ctx_read(ctx, job_va, pan_size(compute_job),
                                      "compute job descriptor");
   if (!job)
      return false;
   pan_section_unpack(job, compute_job, payload, cp);

   if (cp.offset_x || cp.offset_y || cp.offset_z)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, job_va,
                           "compute offsets (%u, %u, %u) are not modelled",
                           cp.offset_x, cp.offset_y, cp.offset_z);
   d->size[0] = cp.workgroup_size_x;
   d->size[1] = cp.workgroup_size_y;
   d->size[2] = cp.workgroup_size_z;
   d->count[0] = cp.workgroup_count_x;
   d->count[1] = cp.workgroup_count_y;
   d->count[2] = cp.workgroup_count_z;
   d->resources = cp.compute.resources;

   const void *spd =
      pan_sim_ctx_read(ctx, cp.compute.shader, pan_size(shader_program),
                       "shader program descriptor");
   if (!spd)
      return false;
   pan_unpack(spd, shader_program, sp);
   if (sp.type != MALI_DESCRIPTOR_TYPE_SHADER ||
       sp.stage != MALI_SHADER_STAGE_COMPUTE)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, cp.compute.shader,
                           "shader program descriptor 0x%" PRIx64
                           " is not a compute shader (type %u, stage %u)",
                           (uint64_t)cp.compute.shader, (unsigned)sp.type,
                           (unsigned)sp.stage);
   d->shader_va = sp.binary;
   d->preload = sp.preload.r48_r63;
   d->work_regs =
      sp.register_allocation == MALI_SHADER_REGISTER_ALLOCATION_32_PER_THREAD
         ? 32
         : 64;
   d->flush_denormals =
      sp.flush_to_zero_mode != MALI_FLUSH_TO_ZERO_MODE_PRESERVE_SUBNORMALS;

   return read_uniforms(ctx, cp.compute.fau, cp.compute.fau_count, d) &&
          read_local_storage(ctx, cp.compute.thread_storage, d);
}
#else
/* One field of the packed invocation word: bits [lo, hi) hold value - 1. */
static bool
invocation_field(uint32_t word, unsigned lo, unsigned hi, uint32_t *out)
{
   if (hi < lo || hi > 32)
      return false;
   uint64_t mask = (1ull << (hi - lo)) - 1;
   *out = (uint32_t)(((uint64_t)word >> lo) & mask) + 1;
   return true;
}

static bool
unpack_job(struct pan_sim_ctx *ctx, uint64_t job_va, struct compute_desc *d)
{
   const void *job = pan_sim_ctx_read(ctx, job_va, pan_size(compute_job),
                                      "compute job descriptor");
   if (!job)
      return false;
   pan_section_unpack(job, compute_job, invocation, inv);
   pan_section_unpack(job, compute_job, draw, draw);

   const unsigned shifts[7] = { 0,
                                inv.size_y_shift,
                                inv.size_z_shift,
                                inv.workgroups_x_shift,
                                inv.workgroups_y_shift,
                                inv.workgroups_z_shift,
                                32 };
   for (unsigned i = 0; i < 6; ++i) {
      uint32_t *v = i < 3 ? &d->size[i] : &d->count[i - 3];
      if (!invocation_field(inv.invocations, shifts[i], shifts[i + 1], v))
         return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, job_va,
                              "invocation shifts %u, %u, %u, %u, %u do not "
                              "increase (indirect dispatch not patched?)",
                              shifts[1], shifts[2], shifts[3], shifts[4],
                              shifts[5]);
   }

   const void *rsd = pan_sim_ctx_read(ctx, draw.state, pan_size(renderer_state),
                                      "renderer state");
   if (!rsd)
      return false;
   pan_unpack(rsd, renderer_state, rs);
   d->shader_va = rs.shader.shader;
   d->work_regs = PAN_GENX(sim_bi_declared_regs)(&rs);
   d->preload = (rs.preload.compute.local_invocation_xy ? PRELOAD_BIT(55) : 0) |
                (rs.preload.compute.local_invocation_z ? PRELOAD_BIT(56) : 0) |
                (rs.preload.compute.work_group_x ? PRELOAD_BIT(57) : 0) |
                (rs.preload.compute.work_group_y ? PRELOAD_BIT(58) : 0) |
                (rs.preload.compute.work_group_z ? PRELOAD_BIT(59) : 0) |
                (rs.preload.compute.global_invocation_x ? PRELOAD_BIT(60) : 0) |
                (rs.preload.compute.global_invocation_y ? PRELOAD_BIT(61) : 0) |
                (rs.preload.compute.global_invocation_z ? PRELOAD_BIT(62) : 0);

   d->textures = draw.textures;
   d->samplers = draw.samplers;
   d->texture_count = rs.shader.texture_count;
   d->sampler_count = rs.shader.sampler_count;
   d->attributes = draw.attributes;
   d->attribute_buffers = draw.attribute_buffers;

   return read_uniforms(ctx, draw.push_uniforms, rs.preload.uniform_count, d) &&
          read_local_storage(ctx, draw.thread_storage, d);
}
#endif

/* ---- running warps ---- */

struct compute_run {
   struct pan_sim_ctx *ctx;
   const struct compute_desc *d;
   struct mem_adapter mem;
   const uint64_t *program;
   unsigned program_words; /* 64-bit words */
   unsigned warp_index;    /* of the job, for faults and warp_id */
   warp_t *w;              /* the workgroup's warps, 4-8 KiB each */
   unsigned nr_warps;
   /* Descriptors of texture and image messages. */
   struct pan_sim_image_env img;
   struct pan_sim_tex_ops tex;
   struct pan_sim_image_ops img_ops;
#if PAN_ARCH < 9
   struct pan_sim_bi_gfx gfx; /* Bifrost's ST_CVT is a graphics message */
#endif
};

/* Image stores: ST_CVT through an address from LEA_ATTR_TEX/LEA_TEX. */
static bool
image_store(void *user, uint64_t addr, uint32_t conversion, unsigned comps,
            const uint32_t in[4], char *err)
{
   const struct pan_sim_image_env *img = user;
   return PAN_GENX(sim_gfx_st_cvt)(img->tex.space, addr, conversion, comps, in,
                                   err);
}

/* Registers r55..r62 of one lane (see the top of the file). */
static void
preload_lane(const struct compute_desc *d, const uint32_t wg[3],
             uint32_t linear, uint32_t *r)
{
   uint32_t local[3] = { linear % d->size[0],
                         (linear / d->size[0]) % d->size[1],
                         linear / (d->size[0] * d->size[1]) };
   uint32_t v[8] = { local[0] | local[1] << 16, local[2], wg[0], wg[1], wg[2] };

   for (unsigned i = 0; i < 3; ++i)
      v[5 + i] = wg[i] * d->size[i] + local[i];
   for (unsigned i = 0; i < 8; ++i) {
      if (d->preload & PRELOAD_BIT(55 + i))
         r[55 + i] = v[i];
   }
}

/* A shader fault as a job fault with a hardware-like status. */
static bool
warp_fault(struct compute_run *run, const uint32_t wg[3], const char *msg)
{
   uint32_t status = MALI_EXCEPTION_TYPE_INSTR_INVALID_ENC;
   uint64_t va = run->d->shader_va;
   const char *detail = "";

   if (run->mem.failed) {
      status = run->mem.failed_write ? PAN_SIM_WRITE_FAULT : PAN_SIM_READ_FAULT;
      va = run->mem.acc.va;
      detail = run->mem.acc.message;
   } else if (strstr(msg, "budget")) {
      status = MALI_EXCEPTION_TYPE_TERMINATED;
   } else if (strstr(msg, "outside the program")) {
      status = MALI_EXCEPTION_TYPE_INSTR_INVALID_PC;
   }
   return pan_sim_fault(run->ctx, status, va,
                        "compute shader 0x%" PRIx64
                        ", workgroup (%u, %u, %u), warp %u: %s%s%s",
                        run->d->shader_va, wg[0], wg[1], wg[2], run->warp_index,
                        msg, *detail ? ": " : "", detail);
}

enum warp_state { WARP_DONE, WARP_BARRIER, WARP_FAULT };

/* Run warp i of the workgroup (first linear index i * WARP_LANES) up to its
 * next barrier or end; it was set up by pan_sim_xx_warp_init. */
#if PAN_ARCH >= 9
static enum warp_state
resume_warp(struct compute_run *run, unsigned i)
{
   const struct compute_desc *d = run->d;
   struct pan_sim_va_config cfg = {
      .program = run->program,
      .program_words = run->program_words,
      .program_va = d->shader_va,
      .uniforms = d->uniforms,
      .uniform_words = d->uniform_words,
      .mem = { &run->mem, mem_read, mem_write },
      .flush_f32 = d->flush_denormals,
      .flush_f16 = d->flush_denormals,
      .tex = &run->tex,
      .image = &run->img_ops,
      .work_regs = d->work_regs,
   };
   /* FAU special values: warp_id (page 0), thread/workgroup local pointers
    * and resource table (page 1). */
   cfg.special[0][2] = run->warp_index;
   cfg.special[1][1] = d->tls.base;
   cfg.tls_thread_B = d->tls.thread_B;
   /* One workgroup runs at a time: its threads number from 0. */
   cfg.tls_thread = run->warp_index * WARP_LANES;
   cfg.special[1][3] = d->wls_base;
   cfg.special[1][7] = d->resources;

   switch (pan_sim_va_run(&run->w[i], &cfg)) {
   case PAN_SIM_VA_DONE:
      return WARP_DONE;
   case PAN_SIM_VA_BARRIER:
      return WARP_BARRIER;
   default:
      return WARP_FAULT;
   }
}

static void
init_warp(warp_t *w, uint16_t mask)
{
   pan_sim_va_warp_init(w, mask);
}
#else
static enum warp_state
resume_warp(struct compute_run *run, unsigned i)
{
   const struct compute_desc *d = run->d;
   struct pan_sim_bi_config cfg = {
      .program = run->program,
      .program_quads = run->program_words / 2,
      .program_va = d->shader_va,
      .uniforms = d->uniforms,
      .uniform_words = d->uniform_words,
      .mem = { &run->mem, mem_read, mem_write },
      .wls_base = d->wls_base,
      .wls_size = d->wls_size,
      .tls_base = d->tls.base,
      .tls_thread_B = d->tls.thread_B,
      /* One workgroup runs at a time: its threads number from 0. */
      .tls_thread = run->warp_index * WARP_LANES,
      .lanes = WARP_LANES,
      .gfx = &run->gfx,
      .tex = &run->tex,
      .image = &run->img_ops,
      .work_regs = d->work_regs,
   };
   cfg.special[2] = run->warp_index; /* warp_id */

   switch (pan_sim_bi_run(&run->w[i], &cfg)) {
   case PAN_SIM_BI_DONE:
      return WARP_DONE;
   case PAN_SIM_BI_BARRIER:
      return WARP_BARRIER;
   default:
      return WARP_FAULT;
   }
}

static void
init_warp(warp_t *w, uint16_t mask)
{
   pan_sim_bi_warp_init(w, mask);
}
#endif

/* Set up the warps of workgroup wg and its fresh shared memory. */
static void
start_workgroup(struct compute_run *run, const uint32_t wg[3], uint32_t per_wg)
{
   if (run->mem.shared)
      memset(run->mem.shared, WLS_FILL, run->mem.shared_size);
   for (unsigned i = 0; i < run->nr_warps; ++i) {
      uint32_t first = i * WARP_LANES;
      unsigned lanes =
         per_wg - first < WARP_LANES ? per_wg - first : WARP_LANES;
      init_warp(&run->w[i], (uint16_t)((1u << lanes) - 1));
      for (unsigned l = 0; l < lanes; ++l)
         preload_lane(run->d, wg, first + l, run->w[i].r[l]);
   }
}

/* Round-robin: every warp still running goes to its next barrier or end;
 * a round where some ended and others wait is a hang. */
static bool
run_workgroup(struct compute_run *run, const uint32_t wg[3])
{
   const unsigned base = run->warp_index;
   uint64_t ended[(MAX_WG_INVOCATIONS + 63) / 64] = { 0 }; /* bit per warp */
   unsigned done = 0, barriers = 0;

   while (done < run->nr_warps) {
      unsigned waiting = 0, first_waiting = 0, first_ended = 0;
      for (unsigned i = 0; i < run->nr_warps; ++i) {
         if (ended[i / 64] & (1ull << (i % 64)))
            continue;
         run->warp_index = base + i;
         enum warp_state st = resume_warp(run, i);
         if (st == WARP_FAULT)
            return warp_fault(run, wg, run->w[i].fault);
         if (st == WARP_DONE) {
            ended[i / 64] |= 1ull << (i % 64);
            if (!done++)
               first_ended = i;
         } else if (!waiting++) {
            first_waiting = i;
         }
      }
      /* Warps that ended in an earlier round left nobody waiting then,
       * so first_ended is from this round. */
      if (waiting && done)
         return pan_sim_fault(
            run->ctx, MALI_EXCEPTION_TYPE_TERMINATED, run->d->shader_va,
            "compute shader 0x%" PRIx64 ", workgroup (%u, %u, %u): %u warps "
            "wait at barrier %u (warp %u first) while %u ended (warp %u "
            "first): divergent barrier, the workgroup would hang",
            run->d->shader_va, wg[0], wg[1], wg[2], waiting, barriers + 1,
            base + first_waiting, done, base + first_ended);
      barriers++;
   }
   run->warp_index = base + run->nr_warps;
   return true;
}

static bool
run_workgroups(struct compute_run *run)
{
   const struct compute_desc *d = run->d;
   const uint32_t per_wg = d->size[0] * d->size[1] * d->size[2];
   uint32_t wg[3];

   for (wg[2] = 0; wg[2] < d->count[2]; ++wg[2]) {
      for (wg[1] = 0; wg[1] < d->count[1]; ++wg[1]) {
         for (wg[0] = 0; wg[0] < d->count[0]; ++wg[0]) {
            start_workgroup(run, wg, per_wg);
            if (!run_workgroup(run, wg))
               return false;
         }
      }
   }
   return true;
}

/* Copy the shader (to its region's end, capped) into aligned memory. */
static uint64_t *
fetch_program(struct pan_sim_ctx *ctx, uint64_t va, unsigned *words)
{
   if (!va || va % PROGRAM_ALIGN_B) {
      pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, va,
                    "compute shader address 0x%" PRIx64
                    " is not %u-byte aligned",
                    va, PROGRAM_ALIGN_B);
      return NULL;
   }
   uint64_t size_B = pan_sim_space_avail(ctx->space, va);
   if (size_B > MAX_PROGRAM_B)
      size_B = MAX_PROGRAM_B;
   size_B &= ~(uint64_t)(PROGRAM_ALIGN_B - 1);
   const void *src =
      pan_sim_ctx_read(ctx, va, size_B ? size_B : 1, "compute shader");
   if (!src)
      return NULL;
   uint64_t *copy = malloc(size_B);
   if (!copy) {
      pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, va, "out of memory");
      return NULL;
   }
   memcpy(copy, src, size_B);
   *words = (unsigned)(size_B / 8);
   return copy;
}

bool
PAN_GENX(sim_exec_compute)(struct pan_sim_ctx *ctx, uint64_t job_va)
{
   struct compute_desc d = { 0 };

   if (!unpack_job(ctx, job_va, &d))
      return false;

   uint64_t per_wg = (uint64_t)d.size[0] * d.size[1] * d.size[2];
   uint64_t wgs = (uint64_t)d.count[0] * d.count[1] * d.count[2];
   if (!per_wg || d.size[0] > 0x10000 || d.size[1] > 0x10000 ||
       d.size[2] > 0x10000 || per_wg > MAX_WG_INVOCATIONS)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, job_va,
                           "workgroup size %ux%ux%u is not supported",
                           d.size[0], d.size[1], d.size[2]);
   if (wgs > MAX_INVOCATIONS || wgs * per_wg > MAX_INVOCATIONS)
      return pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, job_va,
                           "%ux%ux%u workgroups of %" PRIu64
                           " invocations exceed the simulator's limit of "
                           "%llu invocations per job",
                           d.count[0], d.count[1], d.count[2], per_wg,
                           (unsigned long long)MAX_INVOCATIONS);
   if (!wgs)
      return true;

   struct compute_run run = {
      .ctx = ctx,
      .d = &d,
      .mem = { .space = ctx->space },
   };
   uint64_t *program = fetch_program(ctx, d.shader_va, &run.program_words);
   if (!program)
      return false;
   run.program = program;
   run.nr_warps = (unsigned)((per_wg + WARP_LANES - 1) / WARP_LANES);
   run.w = calloc(run.nr_warps, sizeof(*run.w));
#if PAN_ARCH >= 9
   run.img.tex = PAN_GENX(sim_tex_env_resources)(ctx->space, d.resources);
#else
   run.img.tex = (struct pan_sim_tex_env){
      .space = ctx->space,
      .textures = d.textures,
      .samplers = d.samplers,
      .texture_count = d.texture_count,
      .sampler_count = d.sampler_count,
   };
   run.img.attributes = d.attributes;
   run.img.attribute_buffers = d.attribute_buffers;
#endif
   run.tex = (struct pan_sim_tex_ops){ &run.img.tex, PAN_GENX(sim_tex_run) };
   PAN_GENX(sim_image_ops)(&run.img, &run.img_ops);
   run.img_ops.store = image_store;
#if PAN_ARCH < 9
   run.gfx = (struct pan_sim_bi_gfx){ .user = &run.img, .st_cvt = image_store };
#endif
   run.mem.wls_va = d.wls_base;
   run.mem.wls_window = d.wls_window;
   run.mem.shared_size = d.wls_size;
   run.mem.shared = d.wls_size ? malloc(d.wls_size) : NULL;
   bool ok =
      run.w && (run.mem.shared || !d.wls_size)
         ? run_workgroups(&run)
         : pan_sim_fault(ctx, PAN_SIM_CONFIG_FAULT, job_va, "out of memory");
   free(run.mem.shared);
   free(run.w);
   free(program);
   return ok;
}

#endif /* PAN_ARCH >= 6 */
