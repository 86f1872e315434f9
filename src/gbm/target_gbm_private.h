/* Internal to src/gbm/: the GBM target's state, shared by target_gbm.c (the
 * target and its own offscreen buffer) and scanout.c (buffers for KMS). */
#ifndef SG_GBM_TARGET_GBM_PRIVATE_H
#define SG_GBM_TARGET_GBM_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "../target/target.h"

#define SG_GBM_MAX_SCANOUTS 4 /* a ring of up to 4 (sg_output uses 2 or 3) */

struct gbm_device;
struct gbm_bo;

/* One gbm_bo the renderer can draw into: EGLImage -> renderbuffer -> FBO.
 * The target's own buffer and every scanout buffer are one of these (plain
 * buffers, target.c's, are not). */
struct gbm_buffer {
	struct sg_target_buffer base; /* first: a pointer to it is one to the gbm_buffer */
	struct gbm_bo *bo;
	EGLImageKHR image;
};

struct gbm_target {
	struct sg_target base;
	int fd;
	int node_type;
	bool borrowed;     /* fd is the caller's: never closed here */
	bool borrowed_gbm; /* gbm is the caller's: never destroyed here */
	struct gbm_device *gbm;
	int scanouts; /* scanout buffers alive */
};

/* The modifiers EGL can render to for format (external-only ones left out);
 * 0 when it offers none (then the driver picks an implicit layout). */
int sg_gbm_render_modifiers(struct sg_egl *egl, uint32_t format, uint64_t *modifiers, int max);
/* With the context current: buffer->bo as an EGLImage behind buffer->base.fb,
 * and its layout. */
sg_result sg_gbm_import_bo(struct gbm_target *t, struct gbm_buffer *buffer);
/* Frees what buffer holds, and buffer (the context current, if any). */
void sg_gbm_buffer_free(struct gbm_target *t, struct gbm_buffer *buffer);

/* scanout.c: the target's ops for scanout buffers (struct sg_target_impl). */
bool sg_gbm_scanout_format(struct sg_target *target, uint32_t format);
int sg_gbm_target_render_modifiers(struct sg_target *target, uint32_t format,
                                   uint64_t *modifiers, int max);
sg_result sg_gbm_scanout_create(struct sg_target *target, const struct sg_buffer_desc *desc,
                                struct sg_target_buffer **out);
void sg_gbm_scanout_destroy(struct sg_target *target, struct sg_target_buffer *buffer);

#endif
