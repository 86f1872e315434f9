/* Internal: buffers a KMS plane can scan out that the GBM target renders
 * into directly (zero-copy), allocated with GBM_BO_USE_SCANOUT |
 * GBM_BO_USE_RENDERING in a format and modifiers the caller (src/output/)
 * chose from the plane's IN_FORMATS and what EGL renders to. */
#ifndef SG_GBM_SCANOUT_H
#define SG_GBM_SCANOUT_H

#include <stdbool.h>
#include <stdint.h>

#include "../target/target.h"

/* What drmModeAddFB2WithModifiers needs; the handles belong to the bo (the
 * DRM fd the target renders on), valid until the target is destroyed. */
struct sg_scanout_buffer {
	int index; /* for sg_target_gbm_use_buffer */
	uint32_t width, height, format;
	uint64_t modifier; /* DRM_FORMAT_MOD_INVALID: implicit (allocated without modifiers) */
	int plane_count;
	uint32_t handles[4], strides[4], offsets[4];
};

bool sg_target_is_gbm(const struct sg_target *target);

/* Whether gbm can allocate format for scanout and rendering (false on a non-GBM target). */
bool sg_target_gbm_scanout_format(struct sg_target *target, uint32_t format);

/* The modifiers EGL renders to for format (external-only left out), at most
 * max; 0 when EGL lists none or lacks EGL_EXT_image_dma_buf_import_modifiers
 * (then only an implicit layout is possible). */
int sg_target_gbm_render_modifiers(struct sg_target *target, uint32_t format, uint64_t *modifiers,
                                   int max);

/* Allocates one more buffer of the target's size: gbm_bo_create_with_modifiers2
 * with the given modifiers (count > 0), else gbm_bo_create; both with
 * GBM_BO_USE_SCANOUT | GBM_BO_USE_RENDERING. The context must be current.
 * SG_ERR_DEVICE names the gbm call; SG_ERR_LIMIT past 4 buffers. */
sg_result sg_target_gbm_add_scanout(struct sg_target *target, uint32_t format,
                                    const uint64_t *modifiers, int count,
                                    struct sg_scanout_buffer *buffer);

/* Makes buffer index the one the renderer draws into and reads back (0: the
 * target's own offscreen buffer). */
sg_result sg_target_gbm_use_buffer(struct sg_target *target, int index);

/* Frees every scanout buffer (the context must be current); the offscreen
 * buffer becomes the current one again. */
void sg_target_gbm_drop_scanouts(struct sg_target *target);

#endif
