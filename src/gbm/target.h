/* Internal: a render target, the place a renderer draws into. Implementations
 * are siblings behind one small interface (like wlroots' renderer impls):
 * target_surfaceless.c and target_gbm.c. */
#ifndef SG_GBM_TARGET_H
#define SG_GBM_TARGET_H

#include <sg/renderer.h>

#include "../gl/framebuffer.h"
#include "egl.h"

struct sg_target;

struct sg_target_impl {
	const char *name;
	/* The last render as RGBA8, top row first; the context is current. */
	sg_result (*read_pixels)(struct sg_target *target, void *rgba, size_t stride);
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
};

sg_result sg_target_surfaceless_create(int width, int height, struct sg_target **target);
/* path: a DRM node. Prefers it; where a render node cannot allocate buffers
 * (kms_swrast on vgem), retries on the primary node of the same device. */
sg_result sg_target_gbm_create(const char *path, int width, int height, struct sg_target **target);

/* Chooses and creates a target as sg_renderer_create() documents. */
sg_result sg_target_select(const struct sg_renderer_desc *desc, struct sg_target **target);

/* Makes the context current and binds the target's framebuffer. */
sg_result sg_target_bind(struct sg_target *target);
void sg_target_destroy(struct sg_target *target);
/* For the implementations' destroy: deletes the framebuffer in its context. */
void sg_target_finish_framebuffer(struct sg_target *target);

/* Render node discovery with drmGetDevices2: SG_OK and the first render node's
 * path, or SG_ERR_NOT_FOUND with a message saying what was found. */
sg_result sg_find_render_node(char *path, size_t size);

#endif
