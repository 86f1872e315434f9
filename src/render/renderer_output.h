/* Internal: what src/output/ needs of a renderer to draw into scanout
 * buffers of the GBM target (src/gbm/scanout.h) and to hand KMS a fence. */
#ifndef SG_RENDER_RENDERER_OUTPUT_H
#define SG_RENDER_RENDERER_OUTPUT_H

#include <sg/renderer.h>

#include "../gbm/scanout.h"

/* The renderer's target, for the queries of src/gbm/scanout.h that need no
 * context (formats, modifiers). */
struct sg_target *sg_renderer_target(struct sg_renderer *renderer);

/* Whether renders can end in a native fence (EGL_ANDROID_native_fence_sync). */
bool sg_renderer_has_native_fence(const struct sg_renderer *renderer);

/* sg_target_gbm_add_scanout with the renderer's context current. */
sg_result sg_renderer_add_scanout(struct sg_renderer *renderer, uint32_t format,
                                  const uint64_t *modifiers, int count,
                                  struct sg_scanout_buffer *buffer);

/* sg_target_gbm_drop_scanouts with the renderer's context current. */
void sg_renderer_drop_scanouts(struct sg_renderer *renderer);

/* sg_renderer_render into buffer index of the GBM target (0: its offscreen
 * buffer; any index on another target). fence_fd NULL: glFinish, as
 * sg_renderer_render; else a sync_file of the render in *fence_fd (owned by
 * the caller) and no wait, or -1 after glFinish where EGL has no native fences. */
sg_result sg_renderer_render_into(struct sg_renderer *renderer, int index, struct sg_scene *scene,
                                  const struct sg_camera *camera, int *fence_fd);

/* Reads back the rectangles rects[0, count) of the last render into rgba
 * (the whole image's layout, rows of stride bytes: each rectangle where it
 * lies); count < 0 reads all of it. Rectangles are clipped to the output. */
sg_result sg_renderer_read_rects(struct sg_renderer *renderer, const struct sg_rect *rects,
                                 int count, void *rgba, size_t stride);

#endif
