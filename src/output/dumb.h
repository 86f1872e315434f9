/* Internal: a DRM dumb buffer, the one kind of buffer every KMS driver can
 * scan out, filled by the CPU from a rendered RGBA8 image. */
#ifndef SG_OUTPUT_DUMB_H
#define SG_OUTPUT_DUMB_H

#include <stddef.h>
#include <stdint.h>

#include <sg/error.h>

struct sg_dumb_buffer {
	int fd;                        /* the DRM node it lives on; not owned */
	uint32_t handle;
	uint32_t width, height, stride;
	uint64_t size;
	uint8_t *map; /* mmap of the whole buffer */
};

/* DRM_IOCTL_MODE_CREATE_DUMB (32 bpp) -> drmModeMapDumbBuffer -> mmap. On
 * failure the buffer is left finished (safe to finish again). */
sg_result sg_dumb_buffer_init(struct sg_dumb_buffer *buffer, int fd, uint32_t width,
                              uint32_t height);
/* Unmaps and destroys the buffer; accepts a zeroed or already finished one. */
void sg_dumb_buffer_finish(struct sg_dumb_buffer *buffer);

/* Copies RGBA8 rows (top row first, stride bytes apart) of the buffer's size
 * into it as DRM_FORMAT_XRGB8888, the format scanout supports everywhere. */
void sg_dumb_buffer_write_rgba(struct sg_dumb_buffer *buffer, const void *rgba, size_t stride);
/* The same for the pixels of one rectangle (clamped to the buffer), at the
 * same place in both images. */
void sg_dumb_buffer_write_rgba_rect(struct sg_dumb_buffer *buffer, const void *rgba, size_t stride,
                                    int x, int y, int width, int height);

#endif
