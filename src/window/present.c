/* Presenting: the ring (made anew when the size or scale changed), one
 * frame per frame callback, the damage since the surface's frame, and the
 * caller's event loop (get_fd, dispatch, wait). */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <wayland-client.h>

#include "../base/error.h"
#include "../base/log.h"
#include "viewporter-client-protocol.h"
#include "window_internal.h"
#include "xdg-shell-client-protocol.h"

/* A renderer for the window's size; one made anew (a resize) keeps what the
 * caller set on the last (sg_window_get_renderer), its clear colour included. */
static sg_result make_renderer(struct sg_window *window)
{
	struct sg_renderer_settings settings;
	bool had = window->renderer != NULL;
	if (had)
		sg_renderer_get_settings(window->renderer, &settings);
	/* gone before the new one is made: two renderers' buffers at the
	 * window's size would be alive at once */
	sg_renderer_destroy(window->renderer);
	window->renderer = NULL;
	char device[256] = "";
	if (window->desc.device)
		snprintf(device, sizeof(device), "%s", window->desc.device);
	else if (window->dmabuf && !window->desc.force_shm)
		sg_window_dmabuf_device(window, device, sizeof(device));
	struct sg_renderer_desc desc = {
	    .width = window->width, .height = window->height, .device = device[0] ? device : NULL};
	window->renderer = sg_renderer_create(&desc);
	if (!window->renderer && device[0] && !window->desc.device) {
		/* The compositor's device is not ours to render on (permissions, a
		 * driver without GBM): any other, as sg_renderer_create picks. */
		sg_log(SG_LOG_WARNING, "rendering on %s, the compositor's device, failed (%s)",
		       device, sg_last_error());
		desc.device = NULL;
		window->renderer = sg_renderer_create(&desc);
	}
	if (!window->renderer)
		return sg_last_result();
	/* The clear colour too: the caller may have set it on the last
	 * renderer itself, not through sg_window_set_clear_color. */
	if (had) {
		sg_renderer_apply_settings(window->renderer, &settings);
	} else {
		const float *c = window->clear_color;
		sg_renderer_set_clear_color(window->renderer, c[0], c[1], c[2], c[3]);
	}
	const struct sg_renderer_info *info = sg_renderer_get_info(window->renderer);
	snprintf(window->renderer_name, sizeof(window->renderer_name), "%s (%s)",
	         info->egl_driver[0] ? info->egl_driver : info->target_name, info->gl_renderer);
	window->info.renderer = window->renderer_name;
	return SG_OK;
}

static sg_result build_ring(struct sg_window *window)
{
	sg_window_free_buffers(window);
	sg_result result = make_renderer(window);
	if (result)
		return result;
	int buffers = window->desc.buffer_count ? window->desc.buffer_count : SG_RING_MAX_SLOTS;
	char *why = window->path_reason;
	size_t size = sizeof(window->path_reason);
	why[0] = '\0';
	if (window->desc.force_shm)
		snprintf(why, size, "force_shm was set");
	else if (!window->dmabuf)
		snprintf(why, size, "the compositor offers no zwp_linux_dmabuf_v1 (version 3 or later)");
	else if (!sg_renderer_makes_scanouts(window->renderer))
		snprintf(why, size, "the renderer is not on a DRM device: %s",
		         sg_renderer_get_info(window->renderer)->reason);
	else if (sg_window_dmabuf_ring(window, buffers, why, size)) {
		window->info.path = SG_WINDOW_PATH_DMABUF;
		snprintf(why, size,
		         "rendering into %d gbm_bo (%.4s, modifier %s0x%llx) shared through "
		         "zwp_linux_dmabuf_v1 version %u",
		         buffers, (const char *)&window->info.format,
		         window->info.modifier == (((uint64_t)1 << 56) - 1) ? "implicit " : "",
		         (unsigned long long)window->info.modifier, window->dmabuf_version);
		window->info.buffer_count = buffers;
		window->geometry_stale = true;
		return SG_OK;
	} else {
		static const char prefix[] = "no dma-buf the compositor takes: ";
		size_t length = strnlen(why, size - sizeof(prefix));
		memmove(why + sizeof(prefix) - 1, why, length);
		memcpy(why, prefix, sizeof(prefix) - 1);
		why[sizeof(prefix) - 1 + length] = '\0';
	}
	window->info.path = SG_WINDOW_PATH_SHM;
	if ((result = sg_window_shm_ring(window, buffers)))
		return result;
	window->info.buffer_count = buffers;
	window->geometry_stale = true;
	return SG_OK;
}

sg_result sg_window_make_ring(struct sg_window *window)
{
	/* Cleared first: a configure read during the dma-buf round trips sets
	 * it again, and the ring just made is then already the wrong size. */
	window->ring_stale = false;
	sg_result result = build_ring(window);
	if (result)
		window->ring_stale = true; /* no ring: the next present tries again */
	return result;
}

/* What the surface lacks against the frame just drawn, as buffer damage. */
static int add_damage(struct sg_window *window)
{
	if (window->compositor_version < 4) {
		/* damage_buffer is version 4: before it, damage is in surface
		 * pixels, and the whole surface is the one mapping that needs no
		 * scale or viewport arithmetic (it is the larger of the two sizes) */
		int width = window->width > window->logical_width ? window->width : window->logical_width;
		int height =
		    window->height > window->logical_height ? window->height : window->logical_height;
		wl_surface_damage(window->surface, 0, 0, width, height);
		return -1;
	}
	struct sg_damage_region region;
	sg_renderer_damage_since(window->renderer, window->committed, &region);
	if (!window->committed || region.full) {
		/* the buffer's own size: weston 10 overflows on INT32_MAX and
		 * then repaints nothing (nor sends the frame callback) */
		wl_surface_damage_buffer(window->surface, 0, 0, window->width, window->height);
		return -1;
	}
	for (int i = 0; i < region.count; i++) {
		const struct sg_rect *r = &region.rects[i];
		wl_surface_damage_buffer(window->surface, r->x, r->y, r->width, r->height);
	}
	return region.count;
}

static bool unchanged(struct sg_window *window)
{
	if (!window->committed || !window->ring.drawn)
		return false;
	struct sg_damage_region region;
	sg_renderer_damage_since(window->renderer, window->committed, &region);
	return !region.full && region.count == 0;
}

/* The surface's state that goes with a buffer of a new size or scale. */
static void set_geometry(struct sg_window *window)
{
	if (window->viewport) {
		if (window->compositor_version >= 3) /* set_buffer_scale is version 3 */
			wl_surface_set_buffer_scale(window->surface, 1);
		wp_viewport_set_destination(window->viewport, window->logical_width,
		                            window->logical_height);
	} else if (window->compositor_version >= 3) {
		wl_surface_set_buffer_scale(window->surface, window->integer_scale);
	}
	/* Opaque: the compositor need not blend what is below. */
	struct wl_region *opaque = wl_compositor_create_region(window->compositor);
	if (opaque) {
		wl_region_add(opaque, 0, 0, window->logical_width, window->logical_height);
		wl_surface_set_opaque_region(window->surface, opaque);
		wl_region_destroy(opaque);
	}
}

sg_result sg_window_present(struct sg_window *window, const struct sg_scene *scene,
                            const struct sg_camera *camera)
{
	static const char call[] = "sg_window_present";
	if (!window || !scene)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "%s: %s is NULL", call,
		               window ? "scene" : "window");
	sg_result result = sg_window_check(window, call);
	if (result)
		return result;
	if (window->frame_callback)
		return sg_fail(SG_ERR_BUSY,
		               "%s: the compositor at %s has not asked for the next frame yet "
		               "(wl_surface.frame): dispatch or wait first",
		               call, window->display_name);
	/* A few tries: each one's round trips may read another configure. */
	for (int tries = 0; window->ring_stale && tries < 4; tries++) {
		if ((result = sg_window_make_ring(window)))
			return sg_fail_prefix(result, "%s at %dx%d: ", call, window->width,
			                      window->height);
		window->committed = 0;
	}
	struct sg_ring_slot *slot = sg_ring_find(&window->ring, SG_RING_FREE);
	if (!slot)
		return sg_fail(SG_ERR_BUSY,
		               "%s: the compositor at %s holds all %d buffers (no wl_buffer.release "
		               "yet): dispatch or wait first",
		               call, window->display_name, window->ring.count);
	if ((result = sg_ring_draw(&window->ring, slot, scene, camera, false, call))) {
		window->committed = 0;
		return result;
	}
	if (unchanged(window)) {
		/* The surface shows this frame already, so it is the one the next
		 * damage is counted from: the renderer keeps only a few frames of
		 * damage, and a still scene presented again and again (with no
		 * frame callback to wait for) would otherwise outrun them and be
		 * committed whole. */
		window->committed = window->ring.drawn;
		return SG_OK;
	}
	struct sg_window_buffer *buffer = &window->buffers[slot - window->ring.slots];
	if (window->geometry_stale) {
		set_geometry(window);
		window->geometry_stale = false;
	}
	wl_surface_attach(window->surface, buffer->buffer, 0, 0);
	add_damage(window);
	sg_window_request_frame(window, window->commits + 1);
	wl_surface_commit(window->surface);
	window->commits++;
	slot->state = SG_RING_SHOWN; /* the compositor's until wl_buffer.release */
	window->committed = window->ring.drawn;
	return sg_window_flush(window, call);
}

int sg_window_get_fd(const struct sg_window *window)
{
	return window && window->display ? wl_display_get_fd(window->display) : -1;
}

sg_result sg_window_dispatch(struct sg_window *window)
{
	if (!window)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_window_dispatch: window is NULL");
	return sg_window_pump(window, 0, "sg_window_dispatch");
}

static int64_t now_ms(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

sg_result sg_window_wait(struct sg_window *window, int timeout_ms)
{
	static const char call[] = "sg_window_wait";
	if (!window)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "%s: window is NULL", call);
	int64_t deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
	/* A resize waits for the frame callback too: it applies at the next present. */
	while (window->frame_callback && !window->closed) {
		int left = deadline < 0 ? -1 : (int)(deadline - now_ms());
		if (deadline >= 0 && left <= 0)
			return sg_fail(SG_ERR_BUSY, "%s: no frame callback from the compositor at %s "
			                            "within %d ms",
			               call, window->display_name, timeout_ms);
		sg_result result = sg_window_pump(window, left, call);
		if (result)
			return result;
		if (window->interrupted)
			return SG_OK; /* let the caller's loop see its signal flag */
	}
	return sg_window_check(window, call);
}

sg_result sg_window_set_fullscreen(struct sg_window *window, bool fullscreen)
{
	if (!window)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_window_set_fullscreen: window is NULL");
	sg_result result = sg_window_check(window, "sg_window_set_fullscreen");
	if (result)
		return result;
	if (fullscreen)
		xdg_toplevel_set_fullscreen(window->toplevel, NULL);
	else
		xdg_toplevel_unset_fullscreen(window->toplevel);
	return sg_window_flush(window, "sg_window_set_fullscreen");
}
