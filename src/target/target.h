/* Internal: a render target, the place a renderer draws into. Implementations
 * are siblings behind one small interface (like wlroots' renderer impls):
 * src/surfaceless/ and src/gbm/, chosen by src/render/select.c. */
#ifndef SG_TARGET_TARGET_H
#define SG_TARGET_TARGET_H

#include <sg/types.h>

#include "../gl/framebuffer.h"
#include "../gl/import.h"
#include "../egl/egl.h"

struct sg_target;

struct sg_target_impl {
	const char *name;
	/* The last render as RGBA8, top row first; the context is current. */
	sg_result (*read_pixels)(struct sg_target *target, void *rgba, size_t stride);
	/* The same for rect alone (inside the target), written where it lies in
	 * the whole image at rgba: the copy path of an output reads back only
	 * what changed. */
	sg_result (*read_rect)(struct sg_target *target, const struct sg_rect *rect, void *rgba,
	                       size_t stride);
	/* NULL where the target has no buffer to export. */
	sg_result (*export_dmabuf)(struct sg_target *target, struct sg_dmabuf *dmabuf);
	void (*destroy)(struct sg_target *target);
};

struct sg_target {
	const struct sg_target_impl *impl;
	enum sg_target_kind kind;
	struct sg_egl egl;
	struct sg_gl_framebuffer fb;
	int width, height;
	char device[256]; /* DRM node in use, or "" */
	char reason[512]; /* why this target (and device) was chosen */
	struct sg_gl_import_ops import; /* imported textures' EGLImages (import.c) */
};

/* Makes the context current and binds the target's framebuffer. */
sg_result sg_target_bind(struct sg_target *target);
void sg_target_destroy(struct sg_target *target);
/* For the implementations' destroy: deletes the framebuffer in its context. */
void sg_target_finish_framebuffer(struct sg_target *target);

#endif
