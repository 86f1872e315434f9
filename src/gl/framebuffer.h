/* Internal: a framebuffer object around a colour renderbuffer. Targets use it
 * with storage of their own (plain RGBA8, or an EGLImage of a gbm_bo). A
 * frame's pass may instead draw into a texture (docs/frame.md), which a
 * later pass can sample. */
#ifndef SG_GL_FRAMEBUFFER_H
#define SG_GL_FRAMEBUFFER_H

#include <GLES3/gl3.h>

#include <stddef.h>

#include <sg/error.h>

struct sg_gl_framebuffer {
	GLuint framebuffer, renderbuffer, depth;
	GLuint texture; /* the colour instead of renderbuffer: sg_gl_framebuffer_texture() */
};

/* Creates the renderbuffer and binds it; the caller then gives it storage and
 * calls sg_gl_framebuffer_complete(). */
void sg_gl_framebuffer_begin(struct sg_gl_framebuffer *fb);
/* Attaches the renderbuffer and a depth buffer of the same size (the renderer
 * uses depth to keep painter's order while batching), cleared, and checks
 * completeness; SG_ERR_GL names the status. Leaves the framebuffer bound. */
sg_result sg_gl_framebuffer_complete(struct sg_gl_framebuffer *fb, int width, int height,
                                     const char *what);
void sg_gl_framebuffer_finish(struct sg_gl_framebuffer *fb);

/* A framebuffer whose colour is a width x height RGBA8 texture (an offscreen
 * pass target), with depth as above; SG_ERR_GL names what for. Leaves it
 * bound. */
sg_result sg_gl_framebuffer_texture(struct sg_gl_framebuffer *fb, int width, int height,
                                    const char *what);

/* glReadPixels of the bound framebuffer as RGBA8 rows in memory order. */
sg_result sg_gl_read_rgba(int width, int height, void *rgba, size_t stride);
/* The same for the rectangle at (x, y) alone, written where it lies in the
 * whole image at rgba (rows of stride bytes). */
sg_result sg_gl_read_rgba_rect(int x, int y, int width, int height, void *rgba, size_t stride);

#endif
