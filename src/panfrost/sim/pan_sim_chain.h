/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The job-chain walker shared by the decoder and the simulator.
 *
 * It follows the "next" pointers of a job chain from its first job, reads
 * every job header through the checked address space, unpacks it with the
 * genxml unpacker of the architecture, and checks the chain's structure:
 * header alignment and mapping, loops, the job-count bound, job indices
 * and dependencies. Each problem goes to a callback with a message; every
 * job whose header could be read goes to another. What a job means is the
 * caller's business.
 */

#ifndef PAN_SIM_CHAIN_H
#define PAN_SIM_CHAIN_H

#include "pan_sim_space.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Arch-neutral view of one job header. */
struct pan_sim_job {
   uint64_t va;
   const void *header; /* CPU copy of the packed header */
   unsigned type;
   const char *type_name; /* NULL: no such job type on this architecture */
   unsigned index;
   unsigned dep1, dep2; /* 0: no dependency */
   uint64_t next;
   bool is_64b; /* always true from v9 on */
   uint32_t exception_status;
};

enum pan_sim_chain_problem {
   /* Fatal: the walk ends after the report. */
   PAN_SIM_CHAIN_BAD_HEADER, /* header misaligned, unmapped, unreadable */
   PAN_SIM_CHAIN_LOOP,       /* next leads back to a job already walked */
   PAN_SIM_CHAIN_TOO_LONG,   /* more jobs than the bound */
   /* Not fatal: the problem callback decides. */
   PAN_SIM_CHAIN_INDEX_ZERO,   /* index 0 means "no dependency" */
   PAN_SIM_CHAIN_INDEX_REUSED, /* two jobs of the chain share an index */
   PAN_SIM_CHAIN_DEP_UNKNOWN,  /* a dependency names no earlier job */
};

#define PAN_SIM_CHAIN_MESSAGE_B (PAN_SIM_ACCESS_MESSAGE_B + 64)

struct pan_sim_chain_report {
   enum pan_sim_chain_problem problem;
   uint64_t job_va;
   /* The job (header decoded) for the non-fatal problems, NULL before. */
   const struct pan_sim_job *job;
   /* BAD_HEADER: the failed access. */
   struct pan_sim_access access;
   char message[PAN_SIM_CHAIN_MESSAGE_B];
};

struct pan_sim_chain_ops {
   /* A problem (message ready to print). Return false to stop the walk;
    * fatal problems stop it whatever is returned. May be NULL. */
   bool (*problem)(void *data, const struct pan_sim_chain_report *r);
   /* A job whose header was read and passed the checks (or whose
    * non-fatal problems were accepted). Return false to stop the walk. */
   bool (*job)(void *data, const struct pan_sim_job *job);
   void *data;
};

struct pan_sim_chain_result {
   unsigned jobs; /* jobs handed to the job callback */
   unsigned problems;
   bool stopped; /* by a fatal problem or a callback */
};

/* Walks at most this many jobs when asked for more. */
#define PAN_SIM_CHAIN_MAX_JOBS 65536

/* True when the walker was built for this architecture (4, 5, 6, 7, 9). */
bool pan_sim_chain_supports_arch(unsigned arch);

/*
 * Walk the chain starting at jc_va (0: an empty chain). max_jobs bounds
 * the walk (0 or more than PAN_SIM_CHAIN_MAX_JOBS: that maximum). Returns
 * -1 when the architecture is not built in (or without memory for the
 * walk), else 0; result may be NULL.
 */
int pan_sim_walk_chain(unsigned arch, const struct pan_sim_space *space,
                       uint64_t jc_va, unsigned max_jobs,
                       const struct pan_sim_chain_ops *ops,
                       struct pan_sim_chain_result *result);

/* The job-header layout of one architecture (pan_sim_vX_chain.c). */
struct pan_sim_header_layout {
   unsigned size_B;
   unsigned align_B;
   void (*unpack)(const void *cpu, struct pan_sim_job *out);
   /* Write exception_status, and fault_pointer unless fault_va is NULL:
    * the words the GPU writes back when a job ends. */
   void (*write_status)(void *cpu, uint32_t status, const uint64_t *fault_va);
};

/* NULL when the architecture is not built in. */
const struct pan_sim_header_layout *pan_sim_header_layout(unsigned arch);

extern const struct pan_sim_header_layout pan_v4_sim_header_layout;
extern const struct pan_sim_header_layout pan_v5_sim_header_layout;
extern const struct pan_sim_header_layout pan_v6_sim_header_layout;
extern const struct pan_sim_header_layout pan_v7_sim_header_layout;
extern const struct pan_sim_header_layout pan_v9_sim_header_layout;

#ifdef __cplusplus
}
#endif

#endif /* PAN_SIM_CHAIN_H */
