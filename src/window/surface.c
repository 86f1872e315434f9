/* The surface: its xdg_toplevel and configures, the scale of the outputs it
 * is on (or the fractional scale the compositor prefers), and each frame's
 * callback and presentation feedback. */
#include <math.h>
#include <string.h>
#include <time.h>
#include <wayland-client.h>

#include "../base/error.h"
#include "fractional-scale-v1-client-protocol.h"
#include "presentation-time-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "window_internal.h"
#include "xdg-shell-client-protocol.h"

double sg_window_scale(const struct sg_window *window)
{
	if (window->fractional && window->fractional_120)
		return window->fractional_120 / 120.0;
	return window->integer_scale;
}

bool sg_window_update_size(struct sg_window *window)
{
	int width, height;
	if (window->fractional && window->fractional_120) {
		/* wp_fractional_scale_v1: round half away from zero, as it asks. */
		width = (int)lround(window->logical_width * window->fractional_120 / 120.0);
		height = (int)lround(window->logical_height * window->fractional_120 / 120.0);
	} else {
		width = window->logical_width * window->integer_scale;
		height = window->logical_height * window->integer_scale;
	}
	if (width < 1 || height < 1 || width > 16384 || height > 16384)
		return false; /* nothing sensible to render yet: keep the ring */
	bool changed = width != window->width || height != window->height;
	if (changed || window->info.scale != sg_window_scale(window)) {
		window->width = window->info.width = width;
		window->height = window->info.height = height;
		window->info.scale = sg_window_scale(window);
		window->ring_stale = true;
		if (window->desc.on_resize)
			window->desc.on_resize(window, width, height, window->info.scale,
			                       window->desc.user_data);
	}
	return changed;
}

static void scale_changed(struct sg_window *window)
{
	int scale = 1;
	/* a buffer scale needs wl_surface version 3: before it, one pixel each */
	for (int i = 0; i < window->output_count && window->compositor_version >= 3; i++)
		if (window->outputs[i].entered && window->outputs[i].scale > scale)
			scale = window->outputs[i].scale;
	window->integer_scale = scale;
	if (window->configured)
		sg_window_update_size(window);
}

static struct sg_window_output *output_of(struct sg_window *window, struct wl_output *output)
{
	for (int i = 0; i < window->output_count; i++)
		if (window->outputs[i].output == output)
			return &window->outputs[i];
	return NULL;
}

static void output_geometry(void *data, struct wl_output *output, int32_t x, int32_t y,
                            int32_t physical_width, int32_t physical_height, int32_t subpixel,
                            const char *make, const char *model, int32_t transform)
{
	(void)data, (void)output, (void)x, (void)y, (void)physical_width, (void)physical_height;
	(void)subpixel, (void)make, (void)model, (void)transform;
}

static void output_mode(void *data, struct wl_output *output, uint32_t flags, int32_t width,
                        int32_t height, int32_t refresh)
{
	(void)data, (void)output, (void)flags, (void)width, (void)height, (void)refresh;
}

static void output_done(void *data, struct wl_output *output)
{
	(void)output;
	scale_changed(data);
}

static void output_scale(void *data, struct wl_output *output, int32_t factor)
{
	struct sg_window_output *known = output_of(data, output);
	if (known)
		known->scale = factor;
}

static const struct wl_output_listener output_listener = {
    .geometry = output_geometry,
    .mode = output_mode,
    .done = output_done,
    .scale = output_scale,
};

void sg_window_output_added(struct sg_window *window, struct wl_output *output, uint32_t name)
{
	if (window->output_count == SG_WINDOW_MAX_OUTPUTS) {
		wl_output_destroy(output); /* its scale is not followed */
		return;
	}
	window->outputs[window->output_count++] =
	    (struct sg_window_output){.output = output, .name = name, .scale = 1};
	wl_output_add_listener(output, &output_listener, window);
}

void sg_window_output_removed(struct sg_window *window, uint32_t name)
{
	for (int i = 0; i < window->output_count; i++) {
		if (window->outputs[i].name != name)
			continue;
		wl_output_destroy(window->outputs[i].output);
		window->outputs[i] = window->outputs[--window->output_count];
		scale_changed(window);
		return;
	}
}

static void surface_enter(void *data, struct wl_surface *surface, struct wl_output *output)
{
	(void)surface;
	struct sg_window_output *known = output_of(data, output);
	if (known)
		known->entered = true;
	scale_changed(data);
}

static void surface_leave(void *data, struct wl_surface *surface, struct wl_output *output)
{
	(void)surface;
	struct sg_window_output *known = output_of(data, output);
	if (known)
		known->entered = false;
	scale_changed(data);
}

static const struct wl_surface_listener surface_listener = {
    .enter = surface_enter,
    .leave = surface_leave,
};

static void preferred_scale(void *data, struct wp_fractional_scale_v1 *fractional,
                            uint32_t scale)
{
	(void)fractional;
	struct sg_window *window = data;
	window->fractional_120 = scale;
	if (window->configured)
		sg_window_update_size(window);
}

static const struct wp_fractional_scale_v1_listener fractional_listener = {
    .preferred_scale = preferred_scale,
};

static void toplevel_configure(void *data, struct xdg_toplevel *toplevel, int32_t width,
                               int32_t height, struct wl_array *states)
{
	(void)toplevel;
	struct sg_window *window = data;
	window->configure_width = width;
	window->configure_height = height;
	window->configure_fullscreen = false;
	uint32_t *state;
	wl_array_for_each(state, states)
	{
		if (*state == XDG_TOPLEVEL_STATE_FULLSCREEN)
			window->configure_fullscreen = true;
	}
}

static void toplevel_close(void *data, struct xdg_toplevel *toplevel)
{
	(void)toplevel;
	struct sg_window *window = data;
	window->closed = true;
	if (window->desc.on_close)
		window->desc.on_close(window, window->desc.user_data);
}

static const struct xdg_toplevel_listener toplevel_listener = {
    .configure = toplevel_configure,
    .close = toplevel_close,
};

static void surface_configure(void *data, struct xdg_surface *xdg_surface, uint32_t serial)
{
	struct sg_window *window = data;
	/* 0: the client decides: the size it had before it was fullscreen (or
	 * asked for at create). */
	window->logical_width =
	    window->configure_width > 0 ? window->configure_width : window->windowed_width;
	window->logical_height =
	    window->configure_height > 0 ? window->configure_height : window->windowed_height;
	if (!window->configure_fullscreen) {
		window->windowed_width = window->logical_width;
		window->windowed_height = window->logical_height;
	}
	window->configured = true;
	xdg_surface_ack_configure(xdg_surface, serial);
	sg_window_update_size(window);
}

static const struct xdg_surface_listener xdg_surface_listener = {
    .configure = surface_configure,
};

sg_result sg_window_make_surface(struct sg_window *window, const struct sg_window_desc *desc)
{
	window->integer_scale = 1;
	window->logical_width = window->windowed_width = desc->width ? desc->width : 640;
	window->logical_height = window->windowed_height = desc->height ? desc->height : 480;
	window->surface = wl_compositor_create_surface(window->compositor);
	if (!window->surface)
		return sg_fail(SG_ERR_NO_MEMORY, "sg_window_create: wl_compositor.create_surface failed");
	wl_surface_add_listener(window->surface, &surface_listener, window);
	window->xdg_surface = xdg_wm_base_get_xdg_surface(window->wm_base, window->surface);
	xdg_surface_add_listener(window->xdg_surface, &xdg_surface_listener, window);
	window->toplevel = xdg_surface_get_toplevel(window->xdg_surface);
	xdg_toplevel_add_listener(window->toplevel, &toplevel_listener, window);
	xdg_toplevel_set_title(window->toplevel, desc->title ? desc->title : "libsg");
	if (desc->app_id)
		xdg_toplevel_set_app_id(window->toplevel, desc->app_id);
	if (desc->fullscreen)
		xdg_toplevel_set_fullscreen(window->toplevel, NULL);
	if (window->fractional_manager && window->viewporter) {
		window->viewport = wp_viewporter_get_viewport(window->viewporter, window->surface);
		window->fractional = wp_fractional_scale_manager_v1_get_fractional_scale(
		    window->fractional_manager, window->surface);
		wp_fractional_scale_v1_add_listener(window->fractional, &fractional_listener,
		                                    window);
		window->info.fractional_scale = true;
	}
	/* The first commit has no buffer: the compositor answers with the
	 * first configure, and only then may a buffer be attached. */
	wl_surface_commit(window->surface);
	for (int i = 0; i < 50 && !window->configured; i++) {
		sg_result result = sg_window_pump(window, 100, "sg_window_create");
		if (result)
			return result;
	}
	if (!window->configured)
		return sg_fail(SG_ERR_DEVICE,
		               "sg_window_create: the compositor at %s sent no xdg_surface.configure "
		               "within 5 s",
		               window->display_name);
	return SG_OK;
}

void sg_window_destroy_surface(struct sg_window *window)
{
	for (int i = 0; i < SG_WINDOW_MAX_FEEDBACKS; i++)
		if (window->feedbacks[i].feedback)
			wp_presentation_feedback_destroy(window->feedbacks[i].feedback);
	if (window->frame_callback)
		wl_callback_destroy(window->frame_callback);
	if (window->fractional)
		wp_fractional_scale_v1_destroy(window->fractional);
	if (window->viewport)
		wp_viewport_destroy(window->viewport);
	if (window->toplevel)
		xdg_toplevel_destroy(window->toplevel);
	if (window->xdg_surface)
		xdg_surface_destroy(window->xdg_surface);
	if (window->surface)
		wl_surface_destroy(window->surface);
	window->frame_callback = NULL;
	window->surface = NULL;
}

static struct sg_window_feedback *feedback_of(struct sg_window *window,
                                              struct wp_presentation_feedback *feedback)
{
	for (int i = 0; i < SG_WINDOW_MAX_FEEDBACKS; i++)
		if (window->feedbacks[i].feedback == feedback)
			return &window->feedbacks[i];
	return NULL;
}

static int64_t monotonic_ms(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

static void report_callback(struct sg_window *window, uint64_t frame, uint32_t time_ms)
{
	const struct sg_window_frame report = {
	    .frame = frame,
	    .tv_sec = time_ms / 1000,
	    .tv_nsec = (time_ms % 1000) * 1000000u,
	};
	if (window->desc.on_frame)
		window->desc.on_frame(window, &report, window->desc.user_data);
}

/* The compositor offers wp_presentation and does not answer it (sway 1.7
 * never does): the frames still waiting for their feedback are reported by
 * their frame callbacks, in order, and no more feedbacks are asked for. */
static void give_up_feedback(struct sg_window *window)
{
	window->feedback_unanswered = true;
	window->frame_feedback = false; /* a frame callback still to come reports its frame */
	for (;;) {
		struct sg_window_feedback *first = NULL;
		for (int i = 0; i < SG_WINDOW_MAX_FEEDBACKS; i++) {
			struct sg_window_feedback *f = &window->feedbacks[i];
			if (f->feedback && (!first || f->frame < first->frame))
				first = f;
		}
		if (!first)
			return;
		wp_presentation_feedback_destroy(first->feedback);
		first->feedback = NULL;
		if (first->called)
			report_callback(window, first->frame, first->callback_ms);
	}
}

void sg_window_feedback_overdue(struct sg_window *window)
{
	if (window->feedback_unanswered)
		return;
	int64_t now = monotonic_ms();
	for (int i = 0; i < SG_WINDOW_MAX_FEEDBACKS; i++) {
		const struct sg_window_feedback *f = &window->feedbacks[i];
		if (f->feedback && f->called &&
		    now - f->called_at_ms >= SG_WINDOW_FEEDBACK_WAIT_MS) {
			give_up_feedback(window);
			return;
		}
	}
}

static void frame_done(void *data, struct wl_callback *callback, uint32_t time_ms)
{
	struct sg_window *window = data;
	wl_callback_destroy(callback);
	window->frame_callback = NULL;
	uint64_t frame = window->commits;
	if (!window->frame_feedback) {
		report_callback(window, frame, time_ms);
		return;
	}
	/* The feedback says more; until it comes, the callback's time is kept
	 * for the report should it never come. A compositor presents a frame
	 * before it asks for the one after next (one that renders ahead may
	 * send the next frame's callback before this one's feedback), so a
	 * feedback still missing two frames on is one that will not come. */
	bool earlier_missing = false;
	for (int i = 0; i < SG_WINDOW_MAX_FEEDBACKS; i++) {
		struct sg_window_feedback *f = &window->feedbacks[i];
		if (!f->feedback)
			continue;
		if (f->frame == frame) {
			f->called = true;
			f->callback_ms = time_ms;
			f->called_at_ms = monotonic_ms();
		} else if (f->frame + 1 < frame && f->called) {
			earlier_missing = true;
		}
	}
	if (earlier_missing)
		give_up_feedback(window);
}

static const struct wl_callback_listener frame_listener = {.done = frame_done};

static void feedback_sync_output(void *data, struct wp_presentation_feedback *feedback,
                                 struct wl_output *output)
{
	(void)data, (void)feedback, (void)output;
}

static void feedback_end(struct sg_window *window, struct wp_presentation_feedback *feedback,
                         const struct sg_window_frame *frame)
{
	struct sg_window_feedback *known = feedback_of(window, feedback);
	wp_presentation_feedback_destroy(feedback);
	if (!known)
		return;
	known->feedback = NULL;
	if (window->desc.on_frame)
		window->desc.on_frame(window, frame, window->desc.user_data);
}

static void feedback_presented(void *data, struct wp_presentation_feedback *feedback,
                               uint32_t tv_sec_hi, uint32_t tv_sec_lo, uint32_t tv_nsec,
                               uint32_t refresh, uint32_t seq_hi, uint32_t seq_lo, uint32_t flags)
{
	(void)seq_hi, (void)seq_lo, (void)flags;
	struct sg_window *window = data;
	struct sg_window_feedback *known = feedback_of(window, feedback);
	const struct sg_window_frame frame = {
	    .frame = known ? known->frame : 0,
	    .presented = true,
	    .clock_id = window->presentation_clock,
	    .tv_sec = ((uint64_t)tv_sec_hi << 32) | tv_sec_lo,
	    .tv_nsec = tv_nsec,
	    .refresh_ns = refresh,
	};
	feedback_end(window, feedback, &frame);
}

static void feedback_discarded(void *data, struct wp_presentation_feedback *feedback)
{
	struct sg_window *window = data;
	struct sg_window_feedback *known = feedback_of(window, feedback);
	const struct sg_window_frame frame = {
	    .frame = known ? known->frame : 0,
	    .discarded = true,
	    .clock_id = window->presentation_clock,
	};
	feedback_end(window, feedback, &frame);
}

static const struct wp_presentation_feedback_listener feedback_listener = {
    .sync_output = feedback_sync_output,
    .presented = feedback_presented,
    .discarded = feedback_discarded,
};

void sg_window_request_frame(struct sg_window *window, uint64_t frame)
{
	window->frame_callback = wl_surface_frame(window->surface);
	wl_callback_add_listener(window->frame_callback, &frame_listener, window);
	window->frame_feedback = false;
	if (!window->presentation || window->feedback_unanswered)
		return;
	struct sg_window_feedback *slot = feedback_of(window, NULL);
	if (!slot)
		return; /* eight frames unanswered: the frame callback reports this one */
	window->frame_feedback = true;
	*slot = (struct sg_window_feedback){
	    .feedback = wp_presentation_feedback(window->presentation, window->surface),
	    .frame = frame};
	wp_presentation_feedback_add_listener(slot->feedback, &feedback_listener, window);
}
