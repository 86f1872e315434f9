/* Internal to src/gbm/: the GBM target's state, shared by target_gbm.c (the
 * target and its own offscreen buffer) and scanout.c (buffers for KMS). */
#ifndef SG_GBM_TARGET_GBM_PRIVATE_H
#define SG_GBM_TARGET_GBM_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "../target/target.h"

#define SG_GBM_MAX_BUFFERS 5 /* the offscreen one + a ring of up to 4 */

struct gbm_device;
struct gbm_bo;

/* One gbm_bo the renderer can draw into: EGLImage -> renderbuffer -> FBO. */
struct gbm_buffer {
	struct gbm_bo *bo;
	EGLImageKHR image;
	struct sg_gl_framebuffer fb;
};

struct gbm_target {
	struct sg_target base;
	int fd;
	int node_type;
	bool borrowed;     /* fd is the caller's: never closed here */
	bool borrowed_gbm; /* gbm is the caller's: never destroyed here */
	struct gbm_device *gbm;
	/* buffers[0] is the offscreen buffer made at create; base.fb is a copy of
	 * buffers[current].fb, the one the renderer draws into and reads back. */
	struct gbm_buffer buffers[SG_GBM_MAX_BUFFERS];
	int buffer_count, current;
};

/* The modifiers EGL can render to for format (external-only ones left out);
 * 0 when it offers none (then the driver picks an implicit layout). */
int sg_gbm_render_modifiers(struct sg_egl *egl, uint32_t format, uint64_t *modifiers, int max);
/* With the context current: buffer->bo as an EGLImage behind buffer->fb. */
sg_result sg_gbm_import_bo(struct gbm_target *t, struct gbm_buffer *buffer);

#endif
