/* sg_window_create and destroy, and the window's accessors. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <wayland-client.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "window_internal.h"
#include "../base/sized.h"

static sg_result check_desc(const struct sg_window_desc *desc)
{
	static const char call[] = "sg_window_create";
	if (!desc)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "%s: desc is NULL", call);
	if (desc->width < 0 || desc->height < 0 || desc->width > 16384 || desc->height > 16384 ||
	    (desc->width == 0) != (desc->height == 0))
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "%s: size %dx%d is not 0x0 or within 1 .. 16384 each", call,
		               desc->width, desc->height);
	if (desc->buffer_count != 0 && desc->buffer_count != 2 && desc->buffer_count != 3)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "%s: buffer_count %d is not 0, 2 or 3", call,
		               desc->buffer_count);
	for (int i = 0; i < 4; i++)
		if (!isfinite(desc->clear_color[i]))
			return sg_fail(SG_ERR_INVALID_ARGUMENT, "%s: clear_color[%d] is not finite",
			               call, i);
	return SG_OK;
}

struct sg_window *sg_window_create_sized(const struct sg_window_desc *desc, size_t size)
{
	struct sg_window_desc sized_desc;
	if (desc && !(desc = sg_sized_in(&sized_desc, sizeof sized_desc, desc, size,
	                                 SG_SIZE_THROUGH(struct sg_window_desc, user_data),
	                                 "sg_window_create")))
		return NULL;
	if (check_desc(desc))
		return NULL;
	struct sg_window *window = sg_calloc(1, sizeof(*window));
	if (!window) {
		sg_fail(SG_ERR_NO_MEMORY, "sg_window_create: out of memory");
		return NULL;
	}
	window->desc = *desc;
	window->desc.title = window->desc.app_id = window->desc.display = NULL;
	window->desc.device = NULL;
	if (desc->device)
		snprintf(window->device, sizeof(window->device), "%s", desc->device);
	window->desc.device = desc->device ? window->device : NULL;
	bool zero = !desc->clear_color[0] && !desc->clear_color[1] && !desc->clear_color[2] &&
	            !desc->clear_color[3];
	for (int i = 0; i < 4; i++)
		window->clear_color[i] = zero ? (i == 3 ? 1.0f : 0.0f) : desc->clear_color[i];
	window->info.display = window->display_name;
	window->info.path_reason = window->path_reason;
	window->info.renderer = window->renderer_name;
	window->info.scale = 1;
	sg_result result = sg_window_connect(window, desc);
	if (!result)
		result = sg_window_make_surface(window, desc);
	if (!result) {
		sg_window_update_size(window);
		result = sg_window_make_ring(window);
	}
	window->info.presentation = window->presentation != NULL;
	if (result) {
		char message[1024];
		snprintf(message, sizeof(message), "%s", sg_last_error());
		sg_window_destroy(window);
		sg_fail(result, "%s", message);
		return NULL;
	}
	return window;
}

void sg_window_destroy(struct sg_window *window)
{
	if (!window)
		return;
	sg_window_free_buffers(window);
	sg_renderer_destroy(window->renderer);
	sg_window_input_finish(window);
	sg_window_destroy_surface(window);
	if (window->display)
		sg_window_disconnect(window);
	sg_free(window);
}

const struct sg_window_info *sg_window_get_info(const struct sg_window *window)
{
	return window ? &window->info : NULL;
}

sg_result sg_window_set_clear_color(struct sg_window *window, float r, float g, float b, float a)
{
	if (!window)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_window_set_clear_color: window is NULL");
	sg_result result = sg_renderer_set_clear_color(window->renderer, r, g, b, a);
	if (!result) {
		const float color[4] = {r, g, b, a};
		memcpy(window->clear_color, color, sizeof(color));
	}
	return result;
}

bool sg_window_should_close(const struct sg_window *window)
{
	return window && window->closed;
}

struct sg_renderer *sg_window_get_renderer(struct sg_window *window)
{
	return window ? window->renderer : NULL;
}
