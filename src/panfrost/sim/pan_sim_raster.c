/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

/*
 * The functional polygon list, triangle coverage and fixed-function
 * blending of the simulator.
 *
 * Polygon list: the hardware's tiler writes a binary polygon list whose
 * format is not public.  The simulator does not model it: the tiler job
 * records its primitives (window coordinates, vertex indices, the draw
 * they came from) here, keyed by the address of the tiler context, and the
 * fragment job whose framebuffer points at that context takes them.  The
 * registry lives as long as the process, so vertex/tiler chains and the
 * fragment chain may come in separate submissions, as they do from a
 * driver.
 *
 * Coverage: vertices are snapped to 1/256 pixel and the edge functions are
 * evaluated in exact integer arithmetic at pixel centres (or at the
 * sample positions of a multisampled frame), so two
 * triangles sharing an edge never both cover, nor both miss, a pixel on
 * it.  Fill rule: a centre exactly on an edge is covered when the
 * triangle's interior lies on the side of higher x (a left edge) or, for a
 * horizontal edge, of higher y (a top edge, rows growing downwards).
 *
 * Polygon offset: the hardware's depth units count steps of the depth
 * buffer's format (the drivers pass GL's units doubled, a minimum
 * resolvable difference of two steps); the slope is that of the
 * triangle's plane in window coordinates.
 */

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "pan_sim_draw.h"

/* ---- registry ---- */

static pthread_mutex_t lists_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pan_sim_plist **lists;
static unsigned nr_lists, cap_lists;

static bool
grow(void **array, unsigned *cap, unsigned need, size_t el)
{
   if (need <= *cap)
      return true;
   unsigned n = *cap ? *cap * 2 : 16;
   while (n < need)
      n *= 2;
   void *p = realloc(*array, (size_t)n * el);
   if (!p)
      return false;
   *array = p;
   *cap = n;
   return true;
}

struct pan_sim_plist *
pan_sim_plist_get(uint64_t key)
{
   struct pan_sim_plist *l = NULL;

   pthread_mutex_lock(&lists_lock);
   for (unsigned i = 0; i < nr_lists && !l; ++i) {
      if (lists[i]->key == key)
         l = lists[i];
   }
   if (!l && grow((void **)&lists, &cap_lists, nr_lists + 1, sizeof(*lists))) {
      l = calloc(1, sizeof(*l));
      if (l) {
         l->key = key;
         lists[nr_lists++] = l;
      }
   }
   pthread_mutex_unlock(&lists_lock);
   return l;
}

struct pan_sim_plist *
pan_sim_plist_take(uint64_t key)
{
   struct pan_sim_plist *l = NULL;

   pthread_mutex_lock(&lists_lock);
   for (unsigned i = 0; i < nr_lists; ++i) {
      if (lists[i]->key == key) {
         l = lists[i];
         lists[i] = lists[--nr_lists];
         break;
      }
   }
   if (!nr_lists) {
      free(lists);
      lists = NULL;
      cap_lists = 0;
   }
   pthread_mutex_unlock(&lists_lock);
   return l;
}

void
pan_sim_plist_free(struct pan_sim_plist *l)
{
   if (!l)
      return;
   for (unsigned i = 0; i < l->nr_draws; ++i)
      free(l->draws[i].packets);
   free(l->draws);
   free(l->prims);
   free(l);
}

bool
pan_sim_plist_add_draw(struct pan_sim_plist *l,
                       const struct pan_sim_draw_rec *d)
{
   if (!grow((void **)&l->draws, &l->cap_draws, l->nr_draws + 1,
             sizeof(*l->draws)))
      return false;
   l->draws[l->nr_draws++] = *d;
   return true;
}

bool
pan_sim_plist_add_prim(struct pan_sim_plist *l, const struct pan_sim_prim *p)
{
   if (l->nr_prims >= PAN_SIM_MAX_PRIMS ||
       !grow((void **)&l->prims, &l->cap_prims, l->nr_prims + 1,
             sizeof(*l->prims)))
      return false;
   l->prims[l->nr_prims++] = *p;
   return true;
}

/* ---- triangles ---- */

/* Pixels of guard band: beyond it the snapped products could overflow. */
#define GUARD_PX (1 << 20)
#define ONE (1 << PAN_SIM_SUBPIXEL_BITS)

static int64_t
edge(const struct pan_sim_tri *t, unsigned a, unsigned b, int64_t px,
     int64_t py)
{
   return (t->x[b] - t->x[a]) * (py - t->y[a]) -
          (t->y[b] - t->y[a]) * (px - t->x[a]);
}

static int64_t
floor_div(int64_t n, int64_t d)
{
   return n >= 0 ? n / d : -((-n + d - 1) / d);
}

bool
pan_sim_tri_setup(const struct pan_sim_prim *p, struct pan_sim_tri *t,
                  bool *ccw)
{
   for (unsigned i = 0; i < 3; ++i) {
      const struct pan_sim_vtx *v = &p->v[i];
      if (!(v->inv_w > 0) || !isfinite(v->inv_w) || !(fabsf(v->x) < GUARD_PX) ||
          !(fabsf(v->y) < GUARD_PX) || !isfinite(v->z))
         return false;
      t->x[i] = llrint((double)v->x * ONE);
      t->y[i] = llrint((double)v->y * ONE);
      t->z[i] = v->z;
      t->inv_w[i] = v->inv_w;
   }
   int64_t area2 = edge(t, 0, 1, t->x[2], t->y[2]);
   if (!area2)
      return false;
   *ccw = area2 > 0;
   /* Edges are negated for a clockwise triangle so that the interior is
    * positive whatever the winding. */
   t->sign = area2 > 0 ? 1 : -1;
   t->area2 = area2 * t->sign;

   int64_t minx = t->x[0], maxx = t->x[0], miny = t->y[0], maxy = t->y[0];
   for (unsigned i = 1; i < 3; ++i) {
      minx = t->x[i] < minx ? t->x[i] : minx;
      maxx = t->x[i] > maxx ? t->x[i] : maxx;
      miny = t->y[i] < miny ? t->y[i] : miny;
      maxy = t->y[i] > maxy ? t->y[i] : maxy;
   }
   /* Pixels whose centre X + 1/2 lies in [min, max]. */
   t->minx = (int)-floor_div(-(minx - ONE / 2), ONE);
   t->miny = (int)-floor_div(-(miny - ONE / 2), ONE);
   t->maxx = (int)floor_div(maxx - ONE / 2, ONE);
   t->maxy = (int)floor_div(maxy - ONE / 2, ONE);
   return true;
}

/* On-edge centres count for left edges (going to lower y, interior at
 * higher x) and top edges (horizontal, going to higher x), directions
 * taken with the interior on the positive side. */
static bool
owns(const struct pan_sim_tri *t, unsigned a, unsigned b)
{
   int64_t dx = (t->x[b] - t->x[a]) * t->sign;
   int64_t dy = (t->y[b] - t->y[a]) * t->sign;
   return dy < 0 || (dy == 0 && dx > 0);
}

bool
pan_sim_tri_covers(const struct pan_sim_tri *t, int x, int y, double b[3])
{
   return pan_sim_tri_covers_at(t, x, y, ONE / 2, ONE / 2, b);
}

bool
pan_sim_tri_covers_at(const struct pan_sim_tri *t, int x, int y, unsigned sx,
                      unsigned sy, double b[3])
{
   int64_t px = (int64_t)x * ONE + sx, py = (int64_t)y * ONE + sy;
   static const unsigned ea[3] = { 1, 2, 0 }, eb[3] = { 2, 0, 1 };
   int64_t e[3];
   bool in = true;

   for (unsigned i = 0; i < 3; ++i) {
      e[i] = edge(t, ea[i], eb[i], px, py) * t->sign;
      in &= e[i] > 0 || (e[i] == 0 && owns(t, ea[i], eb[i]));
      b[i] = (double)e[i] / (double)t->area2;
   }
   return in;
}

/* ---- points ---- */

bool
pan_sim_point_covers(float px, float py, float size, int x, int y)
{
   return pan_sim_point_covers_at(px, py, size, x, y, ONE / 2, ONE / 2);
}

bool
pan_sim_point_covers_at(float px, float py, float size, int x, int y,
                        unsigned sx, unsigned sy)
{
   double h = size / 2.0, cx = x + sx / (double)ONE, cy = y + sy / (double)ONE;
   return cx >= px - h && cx < px + h && cy >= py - h && cy < py + h;
}

void
pan_sim_point_box(float px, float py, float size, int *x0, int *y0, int *x1,
                  int *y1)
{
   double h = size / 2.0;
   /* Pixels whose centre X + 1/2 can lie in [p - h, p + h). */
   *x0 = (int)ceil(px - h - 0.5);
   *y0 = (int)ceil(py - h - 0.5);
   *x1 = (int)ceil(px + h - 0.5) - 1;
   *y1 = (int)ceil(py + h - 0.5) - 1;
}

/* ---- polygon offset ---- */

double
pan_sim_depth_bias(const struct pan_sim_bias *b, const struct pan_sim_prim *p,
                   unsigned z_bits, bool z_float)
{
   const struct pan_sim_vtx *v = p->v;
   double slope = 0;

   if (!(p->point_size > 0) && !(p->line_width > 0)) {
      /* The plane through the three vertices: z = z0 + a x + c y. */
      double ex = v[1].x - v[0].x, ey = v[1].y - v[0].y, ez = v[1].z - v[0].z;
      double fx = v[2].x - v[0].x, fy = v[2].y - v[0].y, fz = v[2].z - v[0].z;
      double det = ex * fy - ey * fx;
      if (det != 0) {
         double dzdx = (ez * fy - ey * fz) / det;
         double dzdy = (ex * fz - ez * fx) / det;
         slope = fmax(fabs(dzdx), fabs(dzdy));
      }
   }
   double step;
   if (z_float) {
      double zmax = fmax(fabs(v[0].z), fmax(fabs(v[1].z), fabs(v[2].z)));
      int e = 0;
      frexp(zmax, &e); /* zmax = m 2^e, m in [0.5, 1): exponent e - 1 */
      /* Zero and denormals: the smallest normal exponent. */
      if (!(zmax >= ldexp(1.0, -126)))
         e = -125;
      step = ldexp(1.0, e - 1 - 23);
   } else {
      step = ldexp(1.0, -(int)(z_bits ? z_bits : 24));
   }
   double o = b->factor * slope + b->units * step;
   if (b->clamp > 0)
      o = fmin(o, b->clamp);
   else if (b->clamp < 0)
      o = fmax(o, b->clamp);
   return o;
}

/* ---- blending ---- */

float
pan_sim_blend_channel(const struct pan_sim_blend_fn *fn, float src, float dst,
                      float src_a, float dst_a, float k)
{
   /* result = (+/-)A + (+/-)B * C, C optionally 1 - C */
   float a = fn->a == 2 ? src : fn->a == 3 ? dst : 0.0f;
   float b;
   switch (fn->b) {
   case 0:
      b = src - dst;
      break;
   case 1:
      b = src + dst;
      break;
   case 2:
      b = src;
      break;
   default:
      b = dst;
      break;
   }
   float c;
   switch (fn->c) {
   case 2:
      c = src;
      break;
   case 3:
      c = dst;
      break;
   case 4:
      c = 2.0f * src;
      break;
   case 5:
      c = src_a;
      break;
   case 6:
      c = dst_a;
      break;
   case 7:
      c = k;
      break;
   default:
      c = 0.0f;
      break;
   }
   if (fn->invert_c)
      c = 1.0f - c;
   return (fn->negate_a ? -a : a) + (fn->negate_b ? -b : b) * c;
}
