/*
 * Copyright 2026 The Panfrost fork authors
 * SPDX-License-Identifier: MIT
 */

#include "pan_demo_compute.h"

#include <stdio.h>

#define LOCAL_SIZE 8

/* The checker of make_texture in pan_demo_scene.c (8x8 cells, grout 60,
 * cells 235 and 140, green x0.95 and blue x0.85 truncated), so that both
 * paths give the same picture; the softpipe test compares them. */
static const char cs_src[] =
   "#version 310 es\n"
   "layout(local_size_x = 8, local_size_y = 8) in;\n"
   "layout(rgba8, binding = 0) writeonly uniform highp image2D u_img;\n"
   "void main() {\n"
   "   ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n"
   "   int cell = imageSize(u_img).x / 8;\n"
   "   bool odd = (((p.x / cell) ^ (p.y / cell)) & 1) != 0;\n"
   "   bool grout = p.x % cell == 0 || p.y % cell == 0;\n"
   "   float v = grout ? 60.0 : odd ? 235.0 : 140.0;\n"
   "   vec3 c = floor(v * vec3(1.0, 0.95, 0.85));\n"
   "   imageStore(u_img, p, vec4(c / 255.0, 1.0));\n"
   "}\n";

static bool
failed(const char *where)
{
   GLenum e = glGetError();
   if (e == GL_NO_ERROR)
      return false;
   fprintf(stderr, "pan-demo: compute pass: %s: GL error 0x%04x\n", where, e);
   while (glGetError() != GL_NO_ERROR)
      ;
   return true;
}

static GLuint
compute_program(void)
{
   const char *src = cs_src;
   GLuint s = glCreateShader(GL_COMPUTE_SHADER), prog;
   GLint ok = 0;
   char log[1024] = "";

   glShaderSource(s, 1, &src, NULL);
   glCompileShader(s);
   glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
   if (!ok) {
      glGetShaderInfoLog(s, sizeof(log), NULL, log);
      fprintf(stderr, "pan-demo: compute shader failed to compile: %s\n",
              log);
      glDeleteShader(s);
      return 0;
   }
   prog = glCreateProgram();
   glAttachShader(prog, s);
   glLinkProgram(prog);
   glDeleteShader(s);
   glGetProgramiv(prog, GL_LINK_STATUS, &ok);
   if (!ok) {
      glGetProgramInfoLog(prog, sizeof(log), NULL, log);
      fprintf(stderr, "pan-demo: compute program failed to link: %s\n", log);
      glDeleteProgram(prog);
      return 0;
   }
   return prog;
}

GLuint
demo_compute_checker(unsigned size, unsigned *groups)
{
   GLuint prog = compute_program(), tex = 0;
   GLsizei levels = 0;

   if (!prog)
      return 0;
   for (unsigned s = size; s; s /= 2)
      ++levels;
   glGenTextures(1, &tex);
   glBindTexture(GL_TEXTURE_2D, tex);
   glTexStorage2D(GL_TEXTURE_2D, levels, GL_RGBA8, (GLsizei)size,
                  (GLsizei)size);
   glBindImageTexture(0, tex, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
   glUseProgram(prog);
   *groups = size / LOCAL_SIZE;
   glDispatchCompute(*groups, *groups, 1);
   /* The draws sample it, and the mipmap blit reads it. */
   glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT |
                   GL_TEXTURE_UPDATE_BARRIER_BIT);
   glGenerateMipmap(GL_TEXTURE_2D);
   glUseProgram(0);
   glDeleteProgram(prog);
   if (failed("dispatch")) {
      glDeleteTextures(1, &tex);
      return 0;
   }
   return tex;
}
