/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Per-architecture compilation.
 *
 * Code that depends on the descriptor layout is compiled once per GPU
 * architecture, with -DPAN_ARCH=N (N in 4, 5, 6, 7, 9).  Symbols defined by
 * such code must be named with PAN_GENX(name) (alias GENX(name)) so that the
 * copies do not collide when they are linked into one driver:
 *
 *    PAN_GENX(emit_blend)  ->  pan_v7_emit_blend   (with PAN_ARCH == 7)
 *
 * The generated headers use the same scheme, so PAN_GENX(job_header_pack)
 * is the packer of the architecture being compiled.
 */

#ifndef PAN_GENXML_ARCH_H
#define PAN_GENXML_ARCH_H

#ifndef PAN_ARCH
#error "PAN_ARCH must be defined (-DPAN_ARCH=4|5|6|7|9)"
#endif

#if PAN_ARCH != 4 && PAN_ARCH != 5 && PAN_ARCH != 6 && PAN_ARCH != 7 &&     \
   PAN_ARCH != 9
#error "unsupported PAN_ARCH"
#endif

#define PAN_GENX_CAT_(a, b) a##b
#define PAN_GENX_CAT(a, b)  PAN_GENX_CAT_(a, b)

/* pan_v7_ for PAN_ARCH == 7 */
#define PAN_GENX_PREFIX PAN_GENX_CAT(PAN_GENX_CAT(pan_v, PAN_ARCH), _)
#define PAN_GENX(name)  PAN_GENX_CAT(PAN_GENX_PREFIX, name)

/* Printable name of the architecture being compiled, e.g. "v7". */
#define PAN_ARCH_STR_(n) "v" #n
#define PAN_ARCH_STR(n)  PAN_ARCH_STR_(n)
#define PAN_ARCH_NAME    PAN_ARCH_STR(PAN_ARCH)

#ifndef GENX
#define GENX(name) PAN_GENX(name)
#endif

/* Family helpers, so that code reads "if (PAN_IS_BIFROST)" rather than
 * comparing numbers. */
#define PAN_IS_MIDGARD (PAN_ARCH <= 5)
#define PAN_IS_BIFROST (PAN_ARCH >= 6 && PAN_ARCH <= 7)
#define PAN_IS_VALHALL (PAN_ARCH >= 9)

#endif /* PAN_GENXML_ARCH_H */
