/* Internal: the EGLImages of imported textures (sg_texture_import_dmabuf),
 * made where EGL and GL meet, for the GL texture cache (src/gl/import.h). */
#ifndef SG_TARGET_IMPORT_H
#define SG_TARGET_IMPORT_H

#include "target.h"

/* The operations the renderer's texture cache uses to draw imported
 * textures on target; they live as long as the target. */
const struct sg_gl_import_ops *sg_target_import_ops(struct sg_target *target);

/* How long a renderer polls an acquire fence (where the GPU cannot wait for
 * it) before the render fails; tests shorten it. */
extern int sg_import_fence_timeout_ms;

#endif
