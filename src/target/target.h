/* Internal: a render target, the EGL context (and device) a renderer draws
 * with and the maker of the buffers it draws into (buffer.h). Implementations
 * are siblings behind one small interface (like wlroots' renderer impls):
 * src/surfaceless/ and src/gbm/, chosen by src/render/select.c. A caller
 * asks what a target can make (scanout buffers, their formats), never which
 * one it is. */
#ifndef SG_TARGET_TARGET_H
#define SG_TARGET_TARGET_H

#include <sg/types.h>

#include "../gl/framebuffer.h"
#include "buffer.h"
#include "../gl/import.h"
#include "../egl/egl.h"

struct sg_target;

struct sg_target_impl {
	const char *name;
	/* Reads buffer (made by this target) as RGBA8, top row first: rect alone
	 * (inside the target), written where it lies in the whole image at rgba;
	 * the context is current and buffer bound. Plain buffers are read by
	 * target.c, not here. */
	sg_result (*read_rect)(struct sg_target *target, struct sg_target_buffer *buffer,
	                       const struct sg_rect *rect, void *rgba, size_t stride);
	/* NULL where the target has no buffer to export. */
	sg_result (*export_dmabuf)(struct sg_target *target, struct sg_target_buffer *buffer,
	                           struct sg_dmabuf *dmabuf);
	/* Scanout buffers (desc->scanout); NULL where the target has no device
	 * to allocate them on. The context is current. */
	sg_result (*buffer_create)(struct sg_target *target, const struct sg_buffer_desc *desc,
	                           struct sg_target_buffer **out);
	void (*buffer_destroy)(struct sg_target *target, struct sg_target_buffer *buffer);
	/* Whether buffer_create can make format for scanout and rendering, and
	 * the modifiers EGL renders to for it (at most max; 0: implicit only).
	 * NULL with buffer_create. */
	bool (*scanout_format)(struct sg_target *target, uint32_t format);
	int (*render_modifiers)(struct sg_target *target, uint32_t format, uint64_t *modifiers,
	                        int max);
	void (*destroy)(struct sg_target *target);
};

struct sg_target {
	const struct sg_target_impl *impl;
	enum sg_target_kind kind;
	struct sg_egl egl;
	struct sg_target_buffer *own; /* made with the target: what sg_renderer_render draws into */
	int width, height;
	char device[256]; /* DRM node in use, or "" */
	char reason[512]; /* why this target (and device) was chosen */
	struct sg_gl_import_ops import; /* imported textures' EGLImages (import.c) */
};

/* Makes the context current and binds buffer's framebuffer (NULL: the target's own). */
sg_result sg_target_bind(struct sg_target *target, struct sg_target_buffer *buffer);
void sg_target_destroy(struct sg_target *target);

/* A buffer for the renderer to draw into (see buffer.h); the context must be
 * current. SG_ERR_UNSUPPORTED names the target that cannot make it. */
sg_result sg_target_buffer_create(struct sg_target *target, const struct sg_buffer_desc *desc,
                                  struct sg_target_buffer **out);
/* The context must be current; NULL is ignored. */
void sg_target_buffer_destroy(struct sg_target *target, struct sg_target_buffer *buffer);
/* Whether the target makes scanout buffers in format (false on surfaceless). */
bool sg_target_scanout_format(struct sg_target *target, uint32_t format);
/* The modifiers EGL renders to for format (see sg_target_impl). */
int sg_target_render_modifiers(struct sg_target *target, uint32_t format, uint64_t *modifiers,
                               int max);
/* rect of buffer (bound, context current) as RGBA8 where it lies at rgba. */
sg_result sg_target_read_rect(struct sg_target *target, struct sg_target_buffer *buffer,
                              const struct sg_rect *rect, void *rgba, size_t stride);

/* For the implementations: a plain RGBA8 buffer of the target's size (the
 * surfaceless target's own), and its deletion; the context is current. */
sg_result sg_target_plain_buffer(struct sg_target *target, const char *what,
                                 struct sg_target_buffer **out);

#endif
