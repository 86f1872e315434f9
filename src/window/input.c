/* The seat: pointer, touch and keyboard events of the compositor turned into
 * sg_input_event in buffer pixels (surface coordinates times the scale), and
 * keys through the compositor's xkb keymap (xkbcommon). No key repeat: the
 * application sees presses and releases. */
#include <linux/input-event-codes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>
#include <xkbcommon/xkbcommon.h>

#include "../base/log.h"
#include "../input/keys.h"
#include "window_internal.h"

#define MAX_TOUCHES ((int)(sizeof(((struct sg_window *)0)->touch_id) / sizeof(int32_t)))

static void emit(struct sg_window *window, struct sg_input_event *event)
{
	if (window->desc.on_input)
		window->desc.on_input(window, event, window->desc.user_data);
}

/* Surface coordinates to buffer pixels. */
static void to_pixels(const struct sg_window *window, wl_fixed_t sx, wl_fixed_t sy, double *x,
                      double *y)
{
	double scale_x = window->logical_width ? (double)window->width / window->logical_width : 1;
	double scale_y = window->logical_height ? (double)window->height / window->logical_height : 1;
	*x = wl_fixed_to_double(sx) * scale_x;
	*y = wl_fixed_to_double(sy) * scale_y;
}

static void pointer_enter(void *data, struct wl_pointer *pointer, uint32_t serial,
                          struct wl_surface *surface, wl_fixed_t sx, wl_fixed_t sy)
{
	(void)pointer, (void)serial;
	struct sg_window *window = data;
	/* a caller that owns the wl_display may have surfaces of its own */
	window->pointer_in = surface && surface == window->surface;
	if (!window->pointer_in)
		return;
	to_pixels(window, sx, sy, &window->pointer_x, &window->pointer_y);
	struct sg_input_event event = {.kind = SG_INPUT_POINTER_MOTION,
	                               .x = window->pointer_x,
	                               .y = window->pointer_y};
	emit(window, &event);
}

static void pointer_leave(void *data, struct wl_pointer *pointer, uint32_t serial,
                          struct wl_surface *surface)
{
	(void)pointer, (void)serial, (void)surface;
	struct sg_window *window = data;
	if (!window->pointer_in)
		return;
	window->pointer_in = false;
	struct sg_input_event event = {.kind = SG_INPUT_POINTER_LEAVE};
	emit(window, &event);
}

static void pointer_motion(void *data, struct wl_pointer *pointer, uint32_t time, wl_fixed_t sx,
                           wl_fixed_t sy)
{
	(void)pointer;
	struct sg_window *window = data;
	if (!window->pointer_in)
		return;
	to_pixels(window, sx, sy, &window->pointer_x, &window->pointer_y);
	struct sg_input_event event = {.kind = SG_INPUT_POINTER_MOTION,
	                               .time_ms = time,
	                               .x = window->pointer_x,
	                               .y = window->pointer_y};
	emit(window, &event);
}

static void pointer_button(void *data, struct wl_pointer *pointer, uint32_t serial, uint32_t time,
                           uint32_t button, uint32_t state)
{
	(void)pointer, (void)serial;
	struct sg_window *window = data;
	if (!window->pointer_in)
		return;
	struct sg_input_event event = {.kind = SG_INPUT_POINTER_BUTTON,
	                               .time_ms = time,
	                               .x = window->pointer_x,
	                               .y = window->pointer_y,
	                               .button = button,
	                               .pressed = state == WL_POINTER_BUTTON_STATE_PRESSED};
	emit(window, &event);
}

static void pointer_axis(void *data, struct wl_pointer *pointer, uint32_t time, uint32_t axis,
                         wl_fixed_t value)
{
	(void)pointer;
	struct sg_window *window = data;
	if (!window->pointer_in)
		return;
	double scale = window->logical_height ? (double)window->height / window->logical_height : 1;
	double amount = wl_fixed_to_double(value) * scale;
	struct sg_input_event event = {.kind = SG_INPUT_POINTER_SCROLL,
	                               .time_ms = time,
	                               .x = window->pointer_x,
	                               .y = window->pointer_y};
	if (axis == WL_POINTER_AXIS_HORIZONTAL_SCROLL)
		event.scroll_x = amount;
	else
		event.scroll_y = amount;
	emit(window, &event);
}

static void pointer_frame(void *data, struct wl_pointer *pointer)
{
	(void)data, (void)pointer;
}

static void pointer_axis_source(void *data, struct wl_pointer *pointer, uint32_t source)
{
	(void)data, (void)pointer, (void)source;
}

static void pointer_axis_stop(void *data, struct wl_pointer *pointer, uint32_t time, uint32_t axis)
{
	(void)data, (void)pointer, (void)time, (void)axis;
}

static void pointer_axis_discrete(void *data, struct wl_pointer *pointer, uint32_t axis,
                                  int32_t discrete)
{
	(void)data, (void)pointer, (void)axis, (void)discrete;
}

static const struct wl_pointer_listener pointer_listener = {
    .enter = pointer_enter,
    .leave = pointer_leave,
    .motion = pointer_motion,
    .button = pointer_button,
    .axis = pointer_axis,
    .frame = pointer_frame,
    .axis_source = pointer_axis_source,
    .axis_stop = pointer_axis_stop,
    .axis_discrete = pointer_axis_discrete,
};

/* The index of a touch point's last position; -1 when all are taken. */
static int touch_index(struct sg_window *window, int32_t id, bool add)
{
	for (int i = 0; i < MAX_TOUCHES; i++)
		if (window->touch_id[i] == id + 1)
			return i;
	for (int i = 0; add && i < MAX_TOUCHES; i++)
		if (!window->touch_id[i]) {
			window->touch_id[i] = id + 1; /* 0: free */
			return i;
		}
	return -1;
}

static void touch_at(struct sg_window *window, enum sg_input_kind kind, uint32_t time, int32_t id,
                     wl_fixed_t sx, wl_fixed_t sy)
{
	/* Only points that went down on libsg's surface: a motion of another
	 * is the caller's. Past 16 points at once, the rest are left out. */
	int i = touch_index(window, id, kind == SG_INPUT_TOUCH_DOWN);
	if (i < 0)
		return;
	struct sg_input_event event = {.kind = kind, .time_ms = time, .slot = id};
	to_pixels(window, sx, sy, &event.x, &event.y);
	window->touch_x[i] = event.x;
	window->touch_y[i] = event.y;
	emit(window, &event);
}

static void touch_down(void *data, struct wl_touch *touch, uint32_t serial, uint32_t time,
                       struct wl_surface *surface, int32_t id, wl_fixed_t x, wl_fixed_t y)
{
	(void)touch, (void)serial;
	struct sg_window *window = data;
	if (surface && surface == window->surface)
		touch_at(window, SG_INPUT_TOUCH_DOWN, time, id, x, y);
}

static void touch_motion(void *data, struct wl_touch *touch, uint32_t time, int32_t id,
                         wl_fixed_t x, wl_fixed_t y)
{
	(void)touch;
	touch_at(data, SG_INPUT_TOUCH_MOTION, time, id, x, y);
}

static void touch_up(void *data, struct wl_touch *touch, uint32_t serial, uint32_t time,
                     int32_t id)
{
	(void)touch, (void)serial;
	struct sg_window *window = data;
	int i = touch_index(window, id, false);
	if (i < 0)
		return; /* not libsg's */
	struct sg_input_event event = {.kind = SG_INPUT_TOUCH_UP, .time_ms = time, .slot = id};
	event.x = window->touch_x[i];
	event.y = window->touch_y[i];
	window->touch_id[i] = 0;
	emit(window, &event);
}

static void touch_frame(void *data, struct wl_touch *touch)
{
	(void)data, (void)touch;
}

static void touch_cancel(void *data, struct wl_touch *touch)
{
	(void)touch;
	struct sg_window *window = data;
	memset(window->touch_id, 0, sizeof(window->touch_id));
	struct sg_input_event event = {.kind = SG_INPUT_TOUCH_CANCEL, .slot = -1};
	emit(window, &event);
}

static void touch_shape(void *data, struct wl_touch *touch, int32_t id, wl_fixed_t major,
                        wl_fixed_t minor)
{
	(void)data, (void)touch, (void)id, (void)major, (void)minor;
}

static void touch_orientation(void *data, struct wl_touch *touch, int32_t id,
                              wl_fixed_t orientation)
{
	(void)data, (void)touch, (void)id, (void)orientation;
}

static const struct wl_touch_listener touch_listener = {
    .down = touch_down,
    .up = touch_up,
    .motion = touch_motion,
    .frame = touch_frame,
    .cancel = touch_cancel,
    .shape = touch_shape,
    .orientation = touch_orientation,
};

static void free_keymap(struct sg_window *window)
{
	xkb_state_unref(window->xkb_state);
	xkb_keymap_unref(window->keymap);
	window->xkb_state = NULL;
	window->keymap = NULL;
}

static void keyboard_keymap(void *data, struct wl_keyboard *keyboard, uint32_t format, int32_t fd,
                            uint32_t size)
{
	(void)keyboard;
	struct sg_window *window = data;
	free_keymap(window);
	if (format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1 && size > 0 && window->xkb) {
		char *text = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (text != MAP_FAILED) {
			/* size counts the terminating NUL */
			window->keymap = xkb_keymap_new_from_buffer(window->xkb, text, strnlen(text, size),
			                                            XKB_KEYMAP_FORMAT_TEXT_V1,
			                                            XKB_KEYMAP_COMPILE_NO_FLAGS);
			munmap(text, size);
		}
		if (window->keymap)
			window->xkb_state = xkb_state_new(window->keymap);
		if (!window->xkb_state)
			sg_log(SG_LOG_WARNING, "the compositor's keymap could not be compiled: keys "
			                       "come without keysyms or text");
	}
	close(fd);
}

static void keyboard_enter(void *data, struct wl_keyboard *keyboard, uint32_t serial,
                           struct wl_surface *surface, struct wl_array *keys)
{
	(void)keyboard, (void)serial, (void)keys;
	struct sg_window *window = data;
	window->keyboard_in = surface && surface == window->surface;
}

static void keyboard_leave(void *data, struct wl_keyboard *keyboard, uint32_t serial,
                           struct wl_surface *surface)
{
	(void)keyboard, (void)serial, (void)surface;
	((struct sg_window *)data)->keyboard_in = false;
}

static void keyboard_key(void *data, struct wl_keyboard *keyboard, uint32_t serial, uint32_t time,
                         uint32_t key, uint32_t state)
{
	(void)keyboard, (void)serial;
	struct sg_window *window = data;
	if (!window->keyboard_in)
		return;
	struct sg_input_event event = {.kind = SG_INPUT_KEY,
	                               .time_ms = time,
	                               .key = key,
	                               .pressed = state == WL_KEYBOARD_KEY_STATE_PRESSED};
	sg_keys_describe(window->xkb_state, key, event.pressed, &event);
	emit(window, &event);
}

static void keyboard_modifiers(void *data, struct wl_keyboard *keyboard, uint32_t serial,
                               uint32_t depressed, uint32_t latched, uint32_t locked,
                               uint32_t group)
{
	(void)keyboard, (void)serial;
	struct sg_window *window = data;
	if (window->xkb_state)
		xkb_state_update_mask(window->xkb_state, depressed, latched, locked, 0, 0, group);
}

static void keyboard_repeat_info(void *data, struct wl_keyboard *keyboard, int32_t rate,
                                 int32_t delay)
{
	(void)data, (void)keyboard, (void)rate, (void)delay;
}

static const struct wl_keyboard_listener keyboard_listener = {
    .keymap = keyboard_keymap,
    .enter = keyboard_enter,
    .leave = keyboard_leave,
    .key = keyboard_key,
    .modifiers = keyboard_modifiers,
    .repeat_info = keyboard_repeat_info,
};

/* The release requests (wl_seat version 3) tell the compositor the device is
 * gone; before them, the proxy can only be destroyed on libsg's side. */
static void drop_pointer(struct sg_window *window)
{
	if (wl_pointer_get_version(window->pointer) >= WL_POINTER_RELEASE_SINCE_VERSION)
		wl_pointer_release(window->pointer);
	else
		wl_pointer_destroy(window->pointer);
	window->pointer = NULL;
	window->pointer_in = false;
}

static void drop_touch(struct sg_window *window)
{
	if (wl_touch_get_version(window->touch) >= WL_TOUCH_RELEASE_SINCE_VERSION)
		wl_touch_release(window->touch);
	else
		wl_touch_destroy(window->touch);
	window->touch = NULL;
	memset(window->touch_id, 0, sizeof(window->touch_id));
}

static void drop_keyboard(struct sg_window *window)
{
	if (wl_keyboard_get_version(window->keyboard) >= WL_KEYBOARD_RELEASE_SINCE_VERSION)
		wl_keyboard_release(window->keyboard);
	else
		wl_keyboard_destroy(window->keyboard);
	window->keyboard = NULL;
	window->keyboard_in = false;
}

static void seat_capabilities(void *data, struct wl_seat *seat, uint32_t caps)
{
	struct sg_window *window = data;
	bool pointer = caps & WL_SEAT_CAPABILITY_POINTER, touch = caps & WL_SEAT_CAPABILITY_TOUCH;
	bool keyboard = caps & WL_SEAT_CAPABILITY_KEYBOARD;
	if (pointer && !window->pointer) {
		window->pointer = wl_seat_get_pointer(seat);
		wl_pointer_add_listener(window->pointer, &pointer_listener, window);
	} else if (!pointer && window->pointer) {
		drop_pointer(window);
	}
	if (touch && !window->touch) {
		window->touch = wl_seat_get_touch(seat);
		wl_touch_add_listener(window->touch, &touch_listener, window);
	} else if (!touch && window->touch) {
		drop_touch(window);
	}
	if (keyboard && !window->keyboard) {
		window->keyboard = wl_seat_get_keyboard(seat);
		wl_keyboard_add_listener(window->keyboard, &keyboard_listener, window);
	} else if (!keyboard && window->keyboard) {
		drop_keyboard(window);
	}
}

static void seat_name(void *data, struct wl_seat *seat, const char *name)
{
	(void)data, (void)seat, (void)name;
}

static const struct wl_seat_listener seat_listener = {
    .capabilities = seat_capabilities,
    .name = seat_name,
};

void sg_window_seat_bound(struct sg_window *window)
{
	window->xkb = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
	wl_seat_add_listener(window->seat, &seat_listener, window);
}

void sg_window_input_finish(struct sg_window *window)
{
	if (window->pointer)
		drop_pointer(window);
	if (window->touch)
		drop_touch(window);
	if (window->keyboard)
		drop_keyboard(window);
	free_keymap(window);
	xkb_context_unref(window->xkb);
	window->xkb = NULL;
}
