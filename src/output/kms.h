/* Internal: a KMS framebuffer of one plane (formats.c, and the drm suite). */
#ifndef SG_OUTPUT_KMS_H
#define SG_OUTPUT_KMS_H

#include <stdint.h>

#include <sg/error.h>

/* drmModeAddFB2 of one plane of a buffer (a dumb buffer's handle, or a
 * gbm_bo's / imported dma-buf's). Remove it with drmModeRmFB. */
sg_result sg_kms_add_fb(int fd, uint32_t width, uint32_t height, uint32_t fourcc, uint32_t handle,
                        uint32_t stride, uint32_t offset, uint32_t *fb_id);

#endif
