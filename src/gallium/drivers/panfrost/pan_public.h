/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* The one function the winsys needs from the pipe driver. */

#ifndef PAN_PUBLIC_H
#define PAN_PUBLIC_H

#ifdef __cplusplus
extern "C" {
#endif

struct pipe_screen;
struct renderonly;

/* Takes ownership of fd (closed on failure too). Returns NULL, after
 * logging why, when the device is not a Mali GPU this driver supports. */
struct pipe_screen *panfrost_create_screen(int fd, struct renderonly *ro);

#ifdef __cplusplus
}
#endif

#endif
