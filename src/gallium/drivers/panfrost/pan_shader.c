/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/* Shader state objects. The back-end compilers are not wired in yet, so a
 * shader keeps the NIR the frontend produced; compiling happens here once
 * they are. */

#include "compiler/nir/nir.h"
#include "nir/tgsi_to_nir.h"
#include "util/ralloc.h"
#include "util/u_memory.h"

#include "pan_context.h"

static void *
panfrost_create_shader(struct pipe_context *pctx,
                       const struct pipe_shader_state *cso,
                       enum pipe_shader_type stage)
{
   struct panfrost_shader *so = CALLOC_STRUCT(panfrost_shader);

   if (!so)
      return NULL;

   so->stage = stage;
   if (cso->type == PIPE_SHADER_IR_NIR)
      so->nir = cso->ir.nir; /* ownership moves to us */
   else
      so->nir = tgsi_to_nir(cso->tokens, pctx->screen, false);
   return so;
}

static void
panfrost_delete_shader(struct pipe_context *pctx, void *cso)
{
   struct panfrost_shader *so = cso;

   ralloc_free(so->nir);
   FREE(so);
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
   panfrost_context(pctx)->state.shaders[PIPE_SHADER_FRAGMENT] = cso;
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
