/* Dumb buffers: created and mapped with libdrm's wrappers of
 * DRM_IOCTL_MODE_CREATE_DUMB / MAP_DUMB / DESTROY_DUMB. The kernel allows them
 * on primary nodes only (render nodes refuse them with EACCES). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <xf86drmMode.h>

#include "../base/error.h"
#include "../ring/ring.h"
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
	const struct sg_ring_cpu cpu = {buffer->map, buffer->width, buffer->height, buffer->stride};
	sg_ring_write_xrgb(&cpu, rgba, stride, x, y, width, height);
}
