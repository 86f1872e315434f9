/* The shm path: one memfd pool shared with the compositor, a part of it for
 * each slot of the ring, filled by the ring's copy (src/ring/ring.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <drm_fourcc.h>
#include <wayland-client.h>

#include "../base/error.h"
#include "window_internal.h"

static void release(void *data, struct wl_buffer *buffer)
{
	(void)buffer;
	struct sg_window_buffer *known = data;
	struct sg_window *window = known->window;
	struct sg_ring_slot *slot = &window->ring.slots[known - window->buffers];
	slot->state = SG_RING_FREE;
}

const struct wl_buffer_listener sg_window_buffer_listener = {.release = release};

void sg_window_free_buffers(struct sg_window *window)
{
	for (int i = 0; i < SG_RING_MAX_SLOTS; i++) {
		if (window->buffers[i].buffer)
			wl_buffer_destroy(window->buffers[i].buffer);
		window->buffers[i] = (struct sg_window_buffer){0};
	}
	sg_ring_finish(&window->ring);
	if (window->pool)
		wl_shm_pool_destroy(window->pool);
	if (window->pool_map)
		munmap(window->pool_map, window->pool_size);
	window->pool = NULL;
	window->pool_map = NULL;
	window->pool_size = 0;
}

sg_result sg_window_shm_ring(struct sg_window *window, int buffers)
{
	uint32_t width = (uint32_t)window->width, height = (uint32_t)window->height;
	uint32_t stride = width * 4;
	size_t part = (size_t)stride * height;
	size_t size = part * (size_t)buffers;
	if (size > INT32_MAX)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "%ux%u: %d shm buffers exceed the 2 GiB a wl_shm pool can be", width,
		               height, buffers);
	int fd = memfd_create("libsg-window", MFD_CLOEXEC);
	if (fd < 0)
		return sg_fail(SG_ERR_NO_MEMORY, "memfd_create for %zu bytes of wl_shm buffers: %s",
		               size, strerror(errno));
	if (ftruncate(fd, (off_t)size) < 0) {
		int error = errno;
		close(fd);
		return sg_fail(SG_ERR_NO_MEMORY, "ftruncate of the wl_shm pool to %zu bytes: %s",
		               size, strerror(error));
	}
	void *map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		int error = errno;
		close(fd);
		return sg_fail(SG_ERR_NO_MEMORY, "mmap of the %zu-byte wl_shm pool: %s", size,
		               strerror(error));
	}
	window->pool_map = map;
	window->pool_size = size;
	window->pool = wl_shm_create_pool(window->shm, fd, (int32_t)size);
	close(fd); /* the compositor has its own once the request is sent */
	sg_result result =
	    sg_ring_init(&window->ring, window->renderer, window->width, window->height, true);
	uint32_t format = window->shm_xrgb ? WL_SHM_FORMAT_XRGB8888 : WL_SHM_FORMAT_ARGB8888;
	for (int i = 0; i < buffers && !result; i++) {
		const struct sg_ring_cpu cpu = {(uint8_t *)map + part * (size_t)i, width, height,
		                                stride};
		if (!sg_ring_add(&window->ring, NULL, &cpu)) {
			result = sg_last_result();
			break;
		}
		struct sg_window_buffer *buffer = &window->buffers[i];
		buffer->window = window;
		buffer->buffer = wl_shm_pool_create_buffer(window->pool, (int32_t)(part * (size_t)i),
		                                           (int32_t)width, (int32_t)height,
		                                           (int32_t)stride, format);
		wl_buffer_add_listener(buffer->buffer, &sg_window_buffer_listener, buffer);
	}
	if (result) {
		sg_window_free_buffers(window);
		return result;
	}
	/* XRGB8888 and ARGB8888 share their layout: the copy writes X = 0xff. */
	window->info.format =
	    format == WL_SHM_FORMAT_XRGB8888 ? DRM_FORMAT_XRGB8888 : DRM_FORMAT_ARGB8888;
	window->info.modifier = DRM_FORMAT_MOD_LINEAR;
	return SG_OK;
}
