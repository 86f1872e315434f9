/* The dma-buf path: what the compositor imports (zwp_linux_dmabuf_v1: the
 * modifier events of version 3, or version 4's default feedback with its
 * main device and format table, read as weston's simple-dmabuf-feedback
 * does), and wl_buffers made of the ring's gbm_bo. */
#include <drm_fourcc.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>
#include <xf86drm.h>

#include "../base/error.h"
#include "../render/buffer.h"
#include "linux-dmabuf-unstable-v1-client-protocol.h"
#include "window_internal.h"

static void add_modifier(struct sg_window_dmabuf_formats *formats, uint32_t format,
                         uint64_t modifier)
{
	uint64_t *list = format == DRM_FORMAT_XRGB8888   ? formats->xrgb
	                 : format == DRM_FORMAT_ARGB8888 ? formats->argb
	                                                 : NULL;
	int *count = format == DRM_FORMAT_XRGB8888 ? &formats->xrgb_count : &formats->argb_count;
	if (!list || *count == SG_WINDOW_MAX_MODIFIERS)
		return;
	for (int i = 0; i < *count; i++)
		if (list[i] == modifier)
			return;
	list[(*count)++] = modifier;
}

static void dmabuf_format(void *data, struct zwp_linux_dmabuf_v1 *dmabuf, uint32_t format)
{
	(void)data, (void)dmabuf, (void)format; /* version 3 sends modifiers too */
}

static void dmabuf_modifier(void *data, struct zwp_linux_dmabuf_v1 *dmabuf, uint32_t format,
                            uint32_t hi, uint32_t lo)
{
	(void)dmabuf;
	struct sg_window *window = data;
	add_modifier(&window->dmabuf_formats, format, ((uint64_t)hi << 32) | lo);
}

static const struct zwp_linux_dmabuf_v1_listener dmabuf_listener = {
    .format = dmabuf_format,
    .modifier = dmabuf_modifier,
};

static void feedback_done(void *data, struct zwp_linux_dmabuf_feedback_v1 *feedback)
{
	(void)feedback;
	((struct sg_window *)data)->dmabuf_formats.done = true;
}

/* The compositor may send the whole feedback again (its GPU changed): the
 * first event after a done starts a new list instead of adding to the old. */
static struct sg_window_dmabuf_formats *feedback_round(void *data)
{
	struct sg_window_dmabuf_formats *formats = &((struct sg_window *)data)->dmabuf_formats;
	if (formats->done) {
		formats->done = false;
		formats->xrgb_count = formats->argb_count = 0;
	}
	return formats;
}

static void feedback_format_table(void *data, struct zwp_linux_dmabuf_feedback_v1 *feedback,
                                  int32_t fd, uint32_t size)
{
	(void)feedback;
	struct sg_window_dmabuf_formats *formats = feedback_round(data);
	if (formats->table)
		munmap(formats->table, formats->table_size);
	formats->table = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	formats->table_size = size;
	if (formats->table == MAP_FAILED)
		formats->table = NULL;
	close(fd);
}

static void feedback_main_device(void *data, struct zwp_linux_dmabuf_feedback_v1 *feedback,
                                 struct wl_array *device)
{
	(void)feedback;
	struct sg_window_dmabuf_formats *formats = feedback_round(data);
	if (device->size == sizeof(dev_t)) {
		memcpy(&formats->device, device->data, sizeof(dev_t));
		formats->has_device = true;
	}
}

static void feedback_tranche_done(void *data, struct zwp_linux_dmabuf_feedback_v1 *feedback)
{
	(void)data, (void)feedback;
}

static void feedback_tranche_target_device(void *data,
                                           struct zwp_linux_dmabuf_feedback_v1 *feedback,
                                           struct wl_array *device)
{
	(void)data, (void)feedback, (void)device;
}

/* Each entry of the table: a format, 4 bytes of padding, a modifier. */
struct table_entry {
	uint32_t format, padding;
	uint64_t modifier;
};

static void feedback_tranche_formats(void *data, struct zwp_linux_dmabuf_feedback_v1 *feedback,
                                     struct wl_array *indices)
{
	(void)feedback;
	struct sg_window_dmabuf_formats *formats = feedback_round(data);
	if (!formats->table)
		return;
	const struct table_entry *table = formats->table;
	size_t entries = formats->table_size / sizeof(*table);
	uint16_t *index;
	wl_array_for_each(index, indices)
	{
		if (*index < entries)
			add_modifier(formats, table[*index].format, table[*index].modifier);
	}
}

static void feedback_tranche_flags(void *data, struct zwp_linux_dmabuf_feedback_v1 *feedback,
                                   uint32_t flags)
{
	(void)data, (void)feedback, (void)flags;
}

static const struct zwp_linux_dmabuf_feedback_v1_listener feedback_listener = {
    .done = feedback_done,
    .format_table = feedback_format_table,
    .main_device = feedback_main_device,
    .tranche_done = feedback_tranche_done,
    .tranche_target_device = feedback_tranche_target_device,
    .tranche_formats = feedback_tranche_formats,
    .tranche_flags = feedback_tranche_flags,
};

void sg_window_dmabuf_bound(struct sg_window *window)
{
	window->info.dmabuf_version = (int)window->dmabuf_version;
	if (window->dmabuf_version < 4) {
		zwp_linux_dmabuf_v1_add_listener(window->dmabuf, &dmabuf_listener, window);
		return;
	}
	/* Version 4: the default feedback replaces the modifier events. It is
	 * read once: a window whose surface moves to another GPU's output keeps
	 * its buffers (the compositor then copies). */
	struct zwp_linux_dmabuf_feedback_v1 *feedback =
	    zwp_linux_dmabuf_v1_get_default_feedback(window->dmabuf);
	zwp_linux_dmabuf_feedback_v1_add_listener(feedback, &feedback_listener, window);
	window->dmabuf_formats.feedback = feedback;
}

void sg_window_dmabuf_finish(struct sg_window *window)
{
	struct sg_window_dmabuf_formats *formats = &window->dmabuf_formats;
	if (formats->table)
		munmap(formats->table, formats->table_size);
	formats->table = NULL;
	if (formats->feedback)
		zwp_linux_dmabuf_feedback_v1_destroy(formats->feedback);
	formats->feedback = NULL;
	if (window->dmabuf)
		zwp_linux_dmabuf_v1_destroy(window->dmabuf);
	window->dmabuf = NULL;
}

void sg_window_dmabuf_device(struct sg_window *window, char *path, size_t size)
{
	path[0] = '\0';
	drmDevicePtr device = NULL;
	if (!window->dmabuf_formats.has_device ||
	    drmGetDeviceFromDevId(window->dmabuf_formats.device, 0, &device) || !device)
		return;
	/* A render node renders; the primary node is the fallback (vgem and
	 * kms_swrast only allocate there). */
	if (device->available_nodes & (1 << DRM_NODE_RENDER))
		snprintf(path, size, "%s", device->nodes[DRM_NODE_RENDER]);
	else if (device->available_nodes & (1 << DRM_NODE_PRIMARY))
		snprintf(path, size, "%s", device->nodes[DRM_NODE_PRIMARY]);
	drmFreeDevice(&device);
}

struct params_result {
	struct wl_buffer *buffer;
	bool failed;
};

static void params_created(void *data, struct zwp_linux_buffer_params_v1 *params,
                           struct wl_buffer *buffer)
{
	(void)params;
	((struct params_result *)data)->buffer = buffer;
}

static void params_failed(void *data, struct zwp_linux_buffer_params_v1 *params)
{
	(void)params;
	((struct params_result *)data)->failed = true;
}

static const struct zwp_linux_buffer_params_v1_listener params_listener = {
    .created = params_created,
    .failed = params_failed,
};

/* A wl_buffer of the slot's gbm_bo: create (not create_immed) and a round
 * trip, so that a buffer the compositor refuses is a fallback, not a
 * protocol error that ends the connection. */
static sg_result make_wl_buffer(struct sg_window *window, struct sg_ring_slot *slot,
                                struct wl_buffer **out)
{
	struct sg_dmabuf dmabuf;
	sg_result result = sg_renderer_buffer_export(window->renderer, slot->render, &dmabuf);
	if (result)
		return result;
	struct zwp_linux_buffer_params_v1 *params =
	    zwp_linux_dmabuf_v1_create_params(window->dmabuf);
	struct params_result answer = {0};
	zwp_linux_buffer_params_v1_add_listener(params, &params_listener, &answer);
	uint64_t modifier = dmabuf.modifier;
	for (int i = 0; i < dmabuf.plane_count; i++)
		zwp_linux_buffer_params_v1_add(params, dmabuf.fd, (uint32_t)i, dmabuf.offsets[i],
		                               dmabuf.strides[i], (uint32_t)(modifier >> 32),
		                               (uint32_t)modifier);
	zwp_linux_buffer_params_v1_create(params, dmabuf.width, dmabuf.height, dmabuf.fourcc, 0);
	result = sg_window_roundtrip(window, "zwp_linux_buffer_params_v1.create");
	close(dmabuf.fd); /* sent: the compositor has its own */
	zwp_linux_buffer_params_v1_destroy(params);
	if (result)
		return result;
	if (!answer.buffer)
		return sg_fail(SG_ERR_UNSUPPORTED,
		               "the compositor refused a %dx%d %.4s dma-buf of modifier 0x%llx "
		               "(zwp_linux_buffer_params_v1.failed)",
		               dmabuf.width, dmabuf.height, (const char *)&dmabuf.fourcc,
		               (unsigned long long)modifier);
	*out = answer.buffer;
	return SG_OK;
}

static sg_result ring_in(struct sg_window *window, uint32_t format, const uint64_t *modifiers,
                         int count, int buffers)
{
	sg_result result =
	    sg_ring_init(&window->ring, window->renderer, window->width, window->height, false);
	for (int i = 0; i < buffers && !result; i++) {
		const struct sg_buffer_desc desc = {
		    .scanout = true, .format = format, .modifiers = modifiers, .modifier_count = count};
		struct sg_ring_slot *slot = sg_ring_add(&window->ring, &desc, NULL);
		if (!slot) {
			result = sg_last_result();
			break;
		}
		struct sg_window_buffer *buffer = &window->buffers[i];
		buffer->window = window;
		result = make_wl_buffer(window, slot, &buffer->buffer);
		if (!result)
			wl_buffer_add_listener(buffer->buffer, &sg_window_buffer_listener, buffer);
		if (!result && i == 0) {
			window->info.format = slot->render->target_buffer->layout.format;
			window->info.modifier = slot->render->target_buffer->layout.modifier;
		}
	}
	if (result)
		sg_window_free_buffers(window);
	return result;
}

static void add_reason(char *reason, size_t size, uint32_t format, const char *what)
{
	size_t used = strlen(reason);
	if (used < size)
		snprintf(reason + used, size - used, "%s%.4s: %s", used ? "; " : "",
		         (const char *)&format, what);
}

bool sg_window_dmabuf_ring(struct sg_window *window, int buffers, char *reason, size_t size)
{
	static const uint32_t formats[] = {DRM_FORMAT_XRGB8888, DRM_FORMAT_ARGB8888};
	const struct sg_window_dmabuf_formats *offered = &window->dmabuf_formats;
	for (size_t f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
		uint32_t format = formats[f];
		const uint64_t *theirs = format == DRM_FORMAT_XRGB8888 ? offered->xrgb : offered->argb;
		int their_count =
		    format == DRM_FORMAT_XRGB8888 ? offered->xrgb_count : offered->argb_count;
		if (!their_count) {
			add_reason(reason, size, format, "the compositor imports none");
			continue;
		}
		if (!sg_renderer_scanout_format(window->renderer, format)) {
			add_reason(reason, size, format, "gbm cannot allocate it for rendering");
			continue;
		}
		uint64_t ours[SG_WINDOW_MAX_MODIFIERS], shared[SG_WINDOW_MAX_MODIFIERS];
		int our_count = sg_renderer_render_modifiers(window->renderer, format, ours,
		                                             SG_WINDOW_MAX_MODIFIERS);
		int count = 0;
		bool implicit = false;
		for (int t = 0; t < their_count; t++) {
			implicit |= theirs[t] == DRM_FORMAT_MOD_INVALID;
			for (int o = 0; o < our_count; o++)
				if (ours[o] == theirs[t] && count < SG_WINDOW_MAX_MODIFIERS)
					shared[count++] = ours[o];
		}
		if (!count && !implicit) {
			add_reason(reason, size, format,
			           "no modifier both EGL renders to and the compositor imports");
			continue;
		}
		/* No shared explicit modifier: the driver's implicit layout, which
		 * the compositor said it takes. */
		if (!ring_in(window, format, shared, count, buffers))
			return true;
		add_reason(reason, size, format, sg_last_error());
	}
	return false;
}
