/* Internal: the GBM target (a DRM node, gbm_bo, dma-buf, EGLImage). */
#ifndef SG_GBM_TARGET_GBM_H
#define SG_GBM_TARGET_GBM_H

#include "../target/target.h"

/* path: a DRM node. Prefers it; where a render node cannot allocate buffers
 * (kms_swrast on vgem), retries on the primary node of the same device. */
sg_result sg_target_gbm_create(const char *path, int width, int height, struct sg_target **target);

struct gbm_device;
/* On a DRM fd (gbm NULL) or a gbm_device the caller owns: neither is closed or
 * destroyed here, and there is no retry on another node. */
sg_result sg_target_gbm_create_borrowed(int fd, struct gbm_device *gbm, int width, int height,
                                        struct sg_target **target);

#endif
