/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * COMPUTE jobs on the simulator, for v6/v7 (Bifrost) or v9 (Valhall) (compiled
 * with -DPAN_ARCH=N). Jobs and descriptors are packed with the genxml
 * packers, the shaders are assembled here from our assembly syntax, and
 * every output word is compared with a C reference. Faults must land in
 * the job header with a hardware exception code.
 */

#include <stdlib.h>
#include <string.h>

#include "pan_genxml.h"
#include "pan_sim.h"
#include "util/pan_test_util.h"
#if PAN_ARCH >= 9
#include "isa/pan_isa_va.h"
#else
#include "isa/pan_isa_bi.h"
#endif

/* One writable region: jobs, descriptors, shaders, buffers. */
#define MEM_VA 0x20000000ull
#define MEM_B (1u << 20)
#define IN_OFF 0x40000u
#define OUT_OFF 0x80000u
#define UNMAPPED 0x7000000ull

static uint8_t *mem;
static uint64_t used;
static uint64_t rng = 0xc0c0a1ull;
static struct pan_sim_region region;

static void
mem_reset(void)
{
   if (!mem)
      mem = malloc(MEM_B);
   pan_test_fill_random(&rng, mem, MEM_B);
   used = 0;
   region = (struct pan_sim_region){ MEM_VA, MEM_B, mem, "test", true };
}

static uint64_t
alloc(unsigned size_B, unsigned align_B, void **cpu)
{
   used = (used + align_B - 1) & ~(uint64_t)(align_B - 1);
   uint64_t va = MEM_VA + used;
   if (cpu)
      *cpu = mem + used;
   used += size_B;
   if (used > IN_OFF)
      abort();
   return va;
}

static uint32_t *
words_at(uint32_t off)
{
   return (uint32_t *)(mem + off);
}

static uint64_t
assemble(const char *text)
{
   struct pan_isa_bytes out = { 0 };
   char err[256] = "";
#if PAN_ARCH >= 9
   int r = pan_va_assemble(text, strlen(text), &out, err, sizeof(err));
#else
   int r = pan_bi_assemble(text, strlen(text), &out, err, sizeof(err));
#endif
   if (r) {
      pan_test_fail("cannot assemble (%s):\n%s", err, text);
      pan_isa_bytes_free(&out);
      return 0;
   }
   void *cpu;
   uint64_t va = alloc((unsigned)out.size_B + 64, 128, &cpu);
   memcpy(cpu, out.data, out.size_B);
   /* Zeros after the program: the interpreter must stop before them. */
   memset((uint8_t *)cpu + out.size_B, 0, 64);
   pan_isa_bytes_free(&out);
   return va;
}

static void
header(void *job, unsigned type, unsigned index, uint64_t next)
{
   pan_pack(job, job_header, cfg)
   {
#if PAN_ARCH <= 7
      cfg.is_64b = true;
#endif
      cfg.type = type;
      cfg.index = index;
      cfg.next = next;
   }
}

/* Local storage descriptor of the next emit_compute (0: none). */
static uint64_t next_ls;

/* A local storage descriptor with size bytes (a power of two) of shared
 * memory per workgroup at wls_va. */
static uint64_t
local_storage(unsigned size, uint64_t wls_va)
{
   void *ls;
   uint64_t va = alloc(pan_size(local_storage), 64, &ls);
   unsigned scale = 1;
   while ((1u << (scale - 1)) < size)
      scale++;
   pan_pack(ls, local_storage, cfg)
   {
      cfg.wls_instances = 4;
      cfg.wls_size_scale = scale;
      cfg.wls_base_pointer = wls_va;
   }
   return va;
}

/* Uniform words of every test: in, out addresses, constants. */
#define NUM_UNIFORMS 8

static uint64_t
uniforms(const uint32_t u[NUM_UNIFORMS])
{
   void *cpu;
   uint64_t va = alloc(NUM_UNIFORMS * 4, 16, &cpu);
   memcpy(cpu, u, NUM_UNIFORMS * 4);
   return va;
}

#if PAN_ARCH >= 9
static uint64_t
emit_compute(uint64_t shader, const uint32_t u[NUM_UNIFORMS],
             const unsigned size[3], const unsigned count[3], uint64_t next)
{
   void *job, *spd;
   uint64_t spd_va = alloc(pan_size(shader_program), 64, &spd);
   pan_pack(spd, shader_program, cfg)
   {
      cfg.stage = MALI_SHADER_STAGE_COMPUTE;
      cfg.register_allocation = 0;
      cfg.preload.r48_r63 = 0xff << 7; /* r55..r62 */
      cfg.binary = shader;
   }
   uint64_t va = alloc(pan_size(compute_job), 128, &job);
   header(job, MALI_JOB_TYPE_COMPUTE, 1, next);
   pan_section_pack(job, compute_job, payload, cfg)
   {
      cfg.workgroup_size_x = size[0];
      cfg.workgroup_size_y = size[1];
      cfg.workgroup_size_z = size[2];
      cfg.workgroup_count_x = count[0];
      cfg.workgroup_count_y = count[1];
      cfg.workgroup_count_z = count[2];
      cfg.compute.shader = spd_va;
      cfg.compute.fau = uniforms(u);
      cfg.compute.fau_count = NUM_UNIFORMS / 2;
      cfg.compute.thread_storage = next_ls;
   }
   return va;
}
#else
static unsigned
bits_for(unsigned v)
{
   unsigned b = 0;
   while ((1u << b) < v)
      b++;
   return b;
}

static uint64_t
emit_compute(uint64_t shader, const uint32_t u[NUM_UNIFORMS],
             const unsigned size[3], const unsigned count[3], uint64_t next)
{
   void *job, *rsd;
   uint64_t rsd_va = alloc(pan_size(renderer_state), 64, &rsd);
   pan_pack(rsd, renderer_state, cfg)
   {
      cfg.shader.shader = shader;
      cfg.preload.compute.local_invocation_xy = true;
      cfg.preload.compute.local_invocation_z = true;
      cfg.preload.compute.work_group_x = true;
      cfg.preload.compute.work_group_y = true;
      cfg.preload.compute.work_group_z = true;
      cfg.preload.compute.global_invocation_x = true;
      cfg.preload.compute.global_invocation_y = true;
      cfg.preload.compute.global_invocation_z = true;
      cfg.preload.uniform_count = NUM_UNIFORMS / 2;
   }
   /* The packed invocation word: size x, y, z then count x, y, z, each
    * minus one in as many bits as it needs. */
   const unsigned v[6] = { size[0],  size[1],  size[2],
                           count[0], count[1], count[2] };
   unsigned shift[7] = { 0 };
   uint32_t packed = 0;
   for (unsigned i = 0; i < 6; ++i) {
      packed |= (v[i] - 1) << shift[i];
      shift[i + 1] = shift[i] + bits_for(v[i]);
   }
   uint64_t va = alloc(pan_size(compute_job), 64, &job);
   header(job, MALI_JOB_TYPE_COMPUTE, 1, next);
   pan_section_pack(job, compute_job, invocation, cfg)
   {
      cfg.invocations = packed;
      cfg.size_y_shift = shift[1];
      cfg.size_z_shift = shift[2];
      cfg.workgroups_x_shift = shift[3];
      cfg.workgroups_y_shift = shift[4];
      cfg.workgroups_z_shift = shift[5];
      cfg.thread_group_split = shift[3];
   }
   pan_section_pack(job, compute_job, parameters, cfg) {}
   pan_section_pack(job, compute_job, draw, cfg)
   {
      cfg.state = rsd_va;
      cfg.push_uniforms = uniforms(u);
      cfg.thread_storage = next_ls;
   }
   return va;
}
#endif

static unsigned
job_status(uint64_t job_va)
{
   pan_unpack(mem + (job_va - MEM_VA), job_header, h);
   return h.exception_status;
}

static int
run(uint64_t jc, struct pan_sim_stats *st, FILE *log)
{
   struct pan_sim_space space = { &region, 1 };
   return pan_sim_run_chain(PAN_ARCH, &space, jc, log, st);
}

/* Assembles text into a one-job chain that must fault; the simulator's
 * messages land in log (log_size bytes). Returns the job, 0 when the
 * shader did not assemble (already reported). */
static uint64_t
run_faulting(const char *text, const uint32_t u[NUM_UNIFORMS],
             const unsigned size[3], const unsigned count[3], char *log_buf,
             size_t log_size, struct pan_sim_stats *st)
{
   uint64_t shader = assemble(text);
   if (!shader)
      return 0;
   uint64_t job = emit_compute(shader, u, size, count, 0);
   FILE *log = fmemopen(log_buf, log_size - 1, "w");
   PAN_EXPECT_EQ(run(job, st, log), -1);
   fclose(log);
   return job;
}

/* u[]: in address, out address, 3, 4, then per test. */
static void
base_uniforms(uint32_t u[NUM_UNIFORMS], uint64_t in)
{
   memset(u, 0, NUM_UNIFORMS * 4);
   u[0] = (uint32_t)in, u[1] = (uint32_t)(in >> 32);
   u[2] = (uint32_t)(MEM_VA + OUT_OFF), u[3] = 0;
   u[4] = 3, u[5] = 4;
}

#if PAN_ARCH >= 9
static const char scale_text[] = "imul.i32 r0, r60, u5\n"
                                 "iadd.s32 r2, r0, u0\n"
                                 "mov.i32 r3, u1\n"
                                 "load.i32.slot0.wait0 {r4:1}, r2, offset:0\n"
                                 "imul.i32 r4, r4, u4\n"
                                 "iadd.s32 r4, r4, r60\n"
                                 "iadd.s32 r2, r0, u2\n"
                                 "mov.i32 r3, u3\n"
                                 "store.i32.slot0.end {r4:1}, r2, offset:0\n";

/* acc = 0; for (n = in[gid]; n; n--) acc += gid; out[gid] = acc */
static const char loop_text[] = "imul.i32 r0, r60, u5\n"
                                "iadd.s32 r2, r0, u0\n"
                                "mov.i32 r3, u1\n"
                                "load.i32.slot0.wait0 {r1:1}, r2, offset:0\n"
                                "mov.i32 r4, #0x0\n"
                                "branchz.eq.reconverge r1, offset:3\n"
                                "iadd.s32 r4, r4, r60\n"
                                "iadd_imm.i32 r1, r1, constant:0xffffffff\n"
                                "branchz.reconverge #0xffffffff, offset:-4\n"
                                "iadd.s32 r2, r0, u2\n"
                                "mov.i32 r3, u3\n"
                                "store.i32.slot0.end {r4:1}, r2, offset:0\n";

static const char forever_text[] = "branchz #0xffffffff, offset:-1\n";
#else
/* Registers start at zero: r10 is the high word of every address. */
static const char scale_text[] =
   "clause flow=nbtb\n"
   "    imul.i32 r0, r60, u2.w1 | nop t1 | p0=r60 fau=u2\n"
   "clause flow=nbtb\n"
   "    nop t0 | iadd.s32 r2, r0, u0.w0 | p0=r0 fau=u0\n"
   "clause flow=nbtb\n"
   "    nop t0 | iadd.s32 r3, r0, u1.w0 | p0=r0 fau=u1\n"
   "clause flow=nbtb sr=8\n"
   "    nop t0 | load.i32 t1, r2, r10 | p0=r2 p1=r10\n"
   "clause flow=nbtb\n"
   "    imul.i32 r4, r8, u2.w0 | nop t1 | p0=r8 fau=u2\n"
   "clause flow=nbtb\n"
   "    nop t0 | iadd.s32 r8, r4, r60 | p0=r4 p1=r60\n"
   "clause sr=8\n"
   "    nop t0 | store.i32 t1, r3, r10 | p0=r3 p1=r10\n";

/* do { acc += gid; } while (--n); with n = in[gid] >= 1.  Branches take
 * an absolute address: the distance back to the body (-16) is a clause
 * constant marked M = 4 (top bits 4 above its pair's second), so the
 * hardware adds the clause address. */
static const char loop_text[] =
   "clause flow=nbtb\n"
   "    imul.i32 r0, r60, u2.w1 | nop t1 | p0=r60 fau=u2\n"
   "clause flow=nbtb\n"
   "    nop t0 | iadd.s32 r2, r0, u0.w0 | p0=r0 fau=u0\n"
   "clause flow=nbtb\n"
   "    nop t0 | iadd.s32 r3, r0, u1.w0 | p0=r0 fau=u1\n"
   "clause flow=nbtb sr=8\n"
   "    nop t0 | load.i32 t1, r2, r10 | p0=r2 p1=r10\n"
   "clause flow=nbtb\n"
   "    nop t0 | iadd.s32 r9, r9, r60 | p0=r9 p1=r60\n"
   "clause flow=nbtb\n"
   "    nop t0 | isub.s32 r8, r8, u3.w0 | p0=r8 fau=u3\n"
   "    nop t0 | branchz.i32.cmpf=ne t1, t1, #0x4ffffff0 | fau=c0\n"
   "    const 0x4ffffff000000000\n"
   "    const 0x0\n"
   "clause sr=9\n"
   "    nop t0 | store.i32 t1, r3, r10 | p0=r3 p1=r10\n";

static const char forever_text[] =
   "clause flow=nbtb\n"
   "    nop t0 | iadd.s32 r9, r9, u3.w0 | p0=r9 fau=u3\n"
   "    nop t0 | branchz.i32.cmpf=ne t1, t1, #0x40000000 | fau=c0\n"
   "    const 0x4000000000000000\n"
   "    const 0x0\n";
#endif

/* Shared memory: each invocation stores its global id at its local index,
 * waits at the barrier and stores the value of local index 63 - lid.
 * Words: u[4] = 4, u[5] = 252, u[6..7] the shared memory address. */
#if PAN_ARCH >= 9
static const char reverse_text[] = "imul.i32 r1, r55, u4\n"
                                   "iadd.s32 r2, r1, u6\n"
                                   "mov.i32 r3, u7\n"
                                   "store.i32.slot0.wait0 {r60:1}, r2, offset:0\n"
                                   "barrier.slot7.wait\n"
                                   "isub.s32 r1, u5, r1\n"
                                   "iadd.s32 r2, r1, u6\n"
                                   "mov.i32 r3, u7\n"
                                   "load.i32.slot0.wait0 {r4:1}, r2, offset:0\n"
                                   "imul.i32 r0, r60, u4\n"
                                   "iadd.s32 r2, r0, u2\n"
                                   "mov.i32 r3, u3\n"
                                   "store.i32.slot0.end {r4:1}, r2, offset:0\n";

/* Warps whose first lane id is below u4 skip the barrier and end. */
static const char divergent_text[] = "icmp_or.u32.lt.i1 r1, r55, u4, #0x0\n"
                                     "branchz.reconverge r1, offset:1\n"
                                     "barrier.slot7.wait\n"
                                     "nop.end\n";
#else
static const char reverse_text[] =
   "clause flow=nbtb\n"
   "    imul.i32 r1, r55, u2.w0 | nop t1 | p0=r55 fau=u2\n"
   "clause flow=nbtb sr=60\n"
   "    nop t0 | store.i32.seg=wls t1, r1, r10 | p0=r1 p1=r10\n"
   "clause flow=nbtb\n"
   "    nop t0 | barrier t1\n"
   "clause flow=nbtb\n"
   "    nop t0 | iadd.s32 r11, r10, u2.w1 | p0=r10 fau=u2\n"
   "clause flow=nbtb\n"
   "    nop t0 | isub.s32 r2, r11, r1 | p0=r1 p1=r11\n"
   "clause flow=nbtb sr=8\n"
   "    nop t0 | load.i32.seg=wls t1, r2, r10 | p0=r2 p1=r10\n"
   "clause flow=nbtb\n"
   "    imul.i32 r0, r60, u2.w0 | nop t1 | p0=r60 fau=u2\n"
   "clause flow=nbtb\n"
   "    nop t0 | iadd.s32 r3, r0, u1.w0 | p0=r0 fau=u1\n"
   "clause sr=8\n"
   "    nop t0 | store.i32 t1, r3, r10 | p0=r3 p1=r10\n";

/* Lanes with local z (r56) != 0, whole warps, skip the barrier. */
static const char divergent_text[] =
   "clause flow=nbtb\n"
   "    nop t0 | branchz.i32.cmpf=ne r56, r56, #0x40000030 | p0=r56 fau=c0\n"
   "    const 0x4000003000000000\n"
   "    const 0x0\n"
   "clause flow=nbtb\n"
   "    nop t0 | barrier t1\n"
   "clause\n"
   "    nop t0 | iadd.s32 r2, r2, r2 | p0=r2\n";
#endif

static void
check_outputs(const char *what, unsigned n, uint32_t (*ref)(uint32_t, uint32_t))
{
   unsigned bad = 0;
   for (unsigned g = 0; g < n; ++g) {
      uint32_t want = ref(words_at(IN_OFF)[g], g);
      if (words_at(OUT_OFF)[g] != want && bad++ < 4)
         fprintf(stderr, "  %s: out[%u] = 0x%08x, want 0x%08x\n", what, g,
                 words_at(OUT_OFF)[g], want);
   }
   PAN_CHECK(bad == 0, "%s: %u of %u words differ", what, bad, n);
}

static uint32_t
ref_scale(uint32_t in, uint32_t gid)
{
   return in * 3 + gid;
}

static uint32_t
ref_loop(uint32_t in, uint32_t gid)
{
   return in * gid;
}

/* Several workgroups of 12 invocations (a partial last warp on both
 * architectures), then a write-value job in the same chain. */
static void
test_scale_chain(void)
{
   uint32_t u[NUM_UNIFORMS];
   const unsigned size[3] = { 12, 1, 1 }, count[3] = { 5, 1, 1 };
   const unsigned n = 60;

   mem_reset();
   base_uniforms(u, MEM_VA + IN_OFF);
   uint64_t shader = assemble(scale_text);
   if (!shader)
      return;
   void *wv;
   uint64_t wv_va = alloc(pan_size(write_value_job), 128, &wv);
   header(wv, MALI_JOB_TYPE_WRITE_VALUE, 2, 0);
   pan_section_pack(wv, write_value_job, payload, cfg)
   {
      cfg.address = MEM_VA + OUT_OFF + n * 4;
      cfg.type = MALI_WRITE_VALUE_TYPE_IMMEDIATE_32;
      cfg.immediate_value = 0xc0ffee;
   }
   uint64_t job = emit_compute(shader, u, size, count, wv_va);
   uint32_t after = words_at(OUT_OFF)[n + 1];

   struct pan_sim_stats st;
   PAN_EXPECT_EQ(run(job, &st, stderr), 0);
   PAN_EXPECT_EQ(st.jobs_run, 2);
   PAN_EXPECT_EQ(job_status(job), PAN_SIM_STATUS_DONE);
   PAN_EXPECT_EQ(job_status(wv_va), PAN_SIM_STATUS_DONE);
   check_outputs("scale", n, ref_scale);
   PAN_EXPECT_EQ(words_at(OUT_OFF)[n], 0xc0ffee);
   PAN_EXPECT_EQ(words_at(OUT_OFF)[n + 1], after); /* nothing beyond */
}

/* Per-lane trip counts 1..7 over 3 workgroups of 20. */
static void
test_loop(void)
{
   uint32_t u[NUM_UNIFORMS];
   const unsigned size[3] = { 20, 1, 1 }, count[3] = { 3, 1, 1 };
   const unsigned n = 60;

   mem_reset();
   base_uniforms(u, MEM_VA + IN_OFF);
   u[6] = 1; /* bi: the decrement */
   for (unsigned g = 0; g < n; ++g)
      words_at(IN_OFF)[g] = 1 + (uint32_t)(pan_test_rng64(&rng) % 7);
   uint64_t shader = assemble(loop_text);
   if (!shader)
      return;
   uint64_t job = emit_compute(shader, u, size, count, 0);
   PAN_EXPECT_EQ(run(job, NULL, stderr), 0);
   check_outputs("loop", n, ref_loop);
}

static uint32_t
ref_reverse(uint32_t in, uint32_t gid)
{
   (void)in;
   return (gid & ~63u) + 63 - (gid & 63);
}

/* 64 invocations per workgroup (16, 8 or 4 warps), 3 workgroups: each
 * workgroup sees only its own shared memory, and the barrier orders the
 * stores before the loads across warps. */
static void
test_shared_reverse(void)
{
   uint32_t u[NUM_UNIFORMS];
   const unsigned size[3] = { 64, 1, 1 }, count[3] = { 3, 1, 1 };
   const uint64_t wls = MEM_VA + OUT_OFF + 0x10000;

   mem_reset();
   base_uniforms(u, MEM_VA + IN_OFF);
   u[4] = 4, u[5] = 252, u[6] = (uint32_t)wls, u[7] = (uint32_t)(wls >> 32);
   uint64_t shader = assemble(reverse_text);
   if (!shader)
      return;
   next_ls = local_storage(256, wls);
   uint8_t before[256];
   memcpy(before, mem + (wls - MEM_VA), sizeof(before));
   uint64_t job = emit_compute(shader, u, size, count, 0);
   next_ls = 0;
   PAN_EXPECT_EQ(run(job, NULL, stderr), 0);
   PAN_EXPECT_EQ(job_status(job), PAN_SIM_STATUS_DONE);
   check_outputs("reverse", 192, ref_reverse);
   /* Shared memory is the simulator's, not the BO behind the pointer. */
   PAN_EXPECT(!memcmp(before, mem + (wls - MEM_VA), sizeof(before)));

   /* 128 bytes of shared memory: the store at offset 128 faults. */
   mem_reset();
   shader = assemble(reverse_text);
   next_ls = local_storage(128, wls);
   job = emit_compute(shader, u, size, count, 0);
   next_ls = 0;
   FILE *log = fopen("/dev/null", "w");
   PAN_EXPECT_EQ(run(job, NULL, log), -1);
   fclose(log);
#if PAN_ARCH >= 9
   PAN_EXPECT_EQ(job_status(job), PAN_SIM_WRITE_FAULT);
#else
   /* The interpreter bounds the wls segment itself. */
   PAN_EXPECT_EQ(job_status(job), MALI_EXCEPTION_TYPE_INSTR_INVALID_ENC);
#endif
}

/* Some warps end while the others wait at the barrier: a hang, reported
 * as TERMINATED with a message. */
static void
test_divergent_barrier(void)
{
   uint32_t u[NUM_UNIFORMS];
#if PAN_ARCH >= 9
   const unsigned size[3] = { 32, 1, 1 }, count[3] = { 1, 1, 1 };
#else
   const unsigned size[3] = { 8, 1, 2 }, count[3] = { 1, 1, 1 };
#endif
   char buf[1024] = "";

   mem_reset();
   base_uniforms(u, MEM_VA + IN_OFF);
   u[4] = 16; /* va: lid bound */
   uint64_t job =
      run_faulting(divergent_text, u, size, count, buf, sizeof(buf), NULL);
   if (!job)
      return;
   PAN_EXPECT_EQ(job_status(job), MALI_EXCEPTION_TYPE_TERMINATED);
   PAN_EXPECT_STR_HAS(buf, "divergent barrier, the workgroup would hang");
}

/* A load from an unmapped address faults the job with its address. */
static void
test_read_fault(void)
{
   uint32_t u[NUM_UNIFORMS];
   const unsigned size[3] = { 4, 1, 1 }, count[3] = { 2, 1, 1 };
   char buf[1024] = "";

   mem_reset();
   base_uniforms(u, UNMAPPED);
   uint32_t out0 = words_at(OUT_OFF)[0];
   struct pan_sim_stats st;
   uint64_t job =
      run_faulting(scale_text, u, size, count, buf, sizeof(buf), &st);
   if (!job)
      return;
   PAN_EXPECT_EQ(job_status(job), PAN_SIM_READ_FAULT);
   PAN_EXPECT_EQ(st.fault_status, PAN_SIM_READ_FAULT);
   PAN_EXPECT_STR_HAS(buf, "workgroup (0, 0, 0), warp 0");
   PAN_EXPECT_STR_HAS(buf, "shader load");
   PAN_EXPECT_EQ(words_at(OUT_OFF)[0], out0);
   pan_unpack(mem + (job - MEM_VA), job_header, h);
   PAN_EXPECT_EQ(h.fault_pointer, UNMAPPED);
}

/* An endless loop runs out of the instruction budget. */
static void
test_budget(void)
{
   uint32_t u[NUM_UNIFORMS];
   const unsigned size[3] = { 2, 1, 1 }, count[3] = { 1, 1, 1 };
   char buf[1024] = "";

   mem_reset();
   base_uniforms(u, MEM_VA + IN_OFF);
   u[6] = 1; /* bi: add 1 */
   uint64_t job =
      run_faulting(forever_text, u, size, count, buf, sizeof(buf), NULL);
   if (!job)
      return;
   PAN_EXPECT_EQ(job_status(job), MALI_EXCEPTION_TYPE_TERMINATED);
   PAN_EXPECT_STR_HAS(buf, "budget");
}

/* A shader address outside memory is a read fault before anything runs;
 * a program without an end runs off its region's end. */
static void
test_bad_shader(void)
{
   uint32_t u[NUM_UNIFORMS];
   const unsigned size[3] = { 1, 1, 1 }, count[3] = { 1, 1, 1 };

   mem_reset();
   base_uniforms(u, MEM_VA + IN_OFF);
   uint64_t job = emit_compute(UNMAPPED, u, size, count, 0);
   FILE *log = fopen("/dev/null", "w");
   PAN_EXPECT_EQ(run(job, NULL, log), -1);
   PAN_EXPECT_EQ(job_status(job), PAN_SIM_READ_FAULT);

   job = emit_compute(MEM_VA + 4, u, size, count, 0);
   PAN_EXPECT_EQ(run(job, NULL, log), -1);
   PAN_EXPECT_EQ(job_status(job), PAN_SIM_CONFIG_FAULT); /* misaligned */
   fclose(log);
}

int
main(void)
{
   PAN_RUN_CASE(test_scale_chain);
   PAN_RUN_CASE(test_loop);
   PAN_RUN_CASE(test_read_fault);
   PAN_RUN_CASE(test_budget);
   PAN_RUN_CASE(test_bad_shader);
   PAN_RUN_CASE(test_shared_reverse);
   PAN_RUN_CASE(test_divergent_barrier);
   free(mem);
   return pan_test_summary("pan_sim_compute");
}
