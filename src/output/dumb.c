/* Dumb buffers: created and mapped with libdrm's wrappers of
 * DRM_IOCTL_MODE_CREATE_DUMB / MAP_DUMB / DESTROY_DUMB. The kernel allows them
 * on primary nodes only (render nodes refuse them with EACCES). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <xf86drmMode.h>

#include "../base/error.h"
#include "dumb.h"

sg_result sg_dumb_buffer_init(struct sg_dumb_buffer *buffer, int fd, uint32_t width,
                              uint32_t height)
{
	*buffer = (struct sg_dumb_buffer){.fd = fd, .width = width, .height = height};
	int error = drmModeCreateDumbBuffer(fd, width, height, 32, 0, &buffer->handle,
	                                    &buffer->stride, &buffer->size);
	if (error)
		return sg_fail(SG_ERR_DEVICE, "DRM_IOCTL_MODE_CREATE_DUMB (%ux%u, 32 bpp) failed: %s",
		               width, height, strerror(-error));
	uint64_t offset = 0;
	error = drmModeMapDumbBuffer(fd, buffer->handle, &offset);
	if (error) {
		sg_fail(SG_ERR_DEVICE, "DRM_IOCTL_MODE_MAP_DUMB of a %ux%u dumb buffer failed: %s", width,
		        height, strerror(-error));
		goto fail;
	}
	void *map = mmap(NULL, buffer->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)offset);
	if (map == MAP_FAILED) {
		sg_fail(SG_ERR_DEVICE, "mmap of a %ux%u dumb buffer (%llu bytes) failed: %s", width,
		        height, (unsigned long long)buffer->size, strerror(errno));
		goto fail;
	}
	buffer->map = map;
	return SG_OK;
fail:
	sg_dumb_buffer_finish(buffer);
	return SG_ERR_DEVICE;
}

void sg_dumb_buffer_finish(struct sg_dumb_buffer *buffer)
{
	if (buffer->map)
		munmap(buffer->map, buffer->size);
	if (buffer->handle)
		drmModeDestroyDumbBuffer(buffer->fd, buffer->handle);
	buffer->map = NULL;
	buffer->handle = 0;
}

void sg_dumb_buffer_write_rgba(struct sg_dumb_buffer *buffer, const void *rgba, size_t stride)
{
	sg_dumb_buffer_write_rgba_rect(buffer, rgba, stride, 0, 0, (int)buffer->width,
	                               (int)buffer->height);
}

void sg_dumb_buffer_write_rgba_rect(struct sg_dumb_buffer *buffer, const void *rgba, size_t stride,
                                    int x, int y, int width, int height)
{
	/* Clamped, so that a rectangle reaching past an edge copies what is inside. */
	int x0 = x < 0 ? 0 : x, y0 = y < 0 ? 0 : y;
	int x1 = x + width, y1 = y + height;
	if (x1 > (int)buffer->width)
		x1 = (int)buffer->width;
	if (y1 > (int)buffer->height)
		y1 = (int)buffer->height;
	for (int row = y0; row < y1; row++) {
		const uint8_t *src = (const uint8_t *)rgba + stride * (size_t)row + (size_t)x0 * 4;
		/* XRGB8888 is a little-endian word: B, G, R, X in memory. */
		uint8_t *dst = buffer->map + (size_t)buffer->stride * (size_t)row + (size_t)x0 * 4;
		for (int col = x0; col < x1; col++, src += 4, dst += 4) {
			dst[0] = src[2];
			dst[1] = src[1];
			dst[2] = src[0];
			dst[3] = 0xff;
		}
	}
}
