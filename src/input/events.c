/* libinput's events to sg_input_event: touch and absolute pointers turned
 * with the picture, relative pointers moved in it, keys through xkb. */
#include <math.h>

#include "../base/log.h"
#include "input_internal.h"
#include "keys.h"

static void emit(struct sg_input *input, const struct sg_input_event *event)
{
	if (input->on_event)
		input->on_event(input, event, input->user_data);
}

/* A point of the device's area, normalised by libinput (calibration
 * applied), in the picture's pixels. */
static void place(const struct sg_input *input, double u, double v, double *x, double *y)
{
	if (sg_rotation_point(input->rotation, input->width, input->height, u, v, x, y) != SG_OK)
		*x = 0, *y = 0; /* cannot happen: create and set_area check both */
}

static void clamp_pointer(struct sg_input *input)
{
	/* The last pixel's far edge is outside the picture: stay just inside. */
	double right = nextafter((double)input->width, 0.0);
	double bottom = nextafter((double)input->height, 0.0);
	input->pointer_x = fmin(fmax(input->pointer_x, 0.0), right);
	input->pointer_y = fmin(fmax(input->pointer_y, 0.0), bottom);
}

static void device_changed(struct sg_input *input, struct libinput_device *device, int delta)
{
	struct sg_input_info *info = &input->info;
	info->device_count += (size_t)delta;
	if (libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_KEYBOARD))
		info->keyboards += (size_t)delta;
	if (libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_POINTER))
		info->pointers += (size_t)delta;
	if (libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_TOUCH))
		info->touchscreens += (size_t)delta;
	if (delta > 0 && input->has_calibration &&
	    libinput_device_config_calibration_has_matrix(device) &&
	    libinput_device_config_calibration_set_matrix(device, input->calibration) !=
	        LIBINPUT_CONFIG_STATUS_SUCCESS)
		sg_log(SG_LOG_WARNING, "input: %s refused the calibration matrix",
		       libinput_device_get_name(device));
	sg_log(SG_LOG_INFO, "input: %s %s (%s)", delta > 0 ? "added" : "removed",
	       libinput_device_get_name(device), libinput_device_get_sysname(device));
}

static void touch(struct sg_input *input, struct libinput_event *raw, enum sg_input_kind kind)
{
	struct libinput_event_touch *t = libinput_event_get_touch_event(raw);
	struct sg_input_event event = {.kind = kind,
	                               .time_ms = libinput_event_touch_get_time(t),
	                               .slot = libinput_event_touch_get_seat_slot(t)};
	bool known = event.slot >= 0 && event.slot < SG_INPUT_TOUCH_SLOTS;
	if (kind == SG_INPUT_TOUCH_UP) {
		if (known) {
			event.x = input->touches[event.slot].x, event.y = input->touches[event.slot].y;
			input->touches[event.slot].down = false;
		}
	} else {
		/* Normalised by asking for a 1 x 1 area: libinput maps the axis
		 * range onto [0, 1) as (value - min) / (max - min + 1). */
		place(input, libinput_event_touch_get_x_transformed(t, 1),
		      libinput_event_touch_get_y_transformed(t, 1), &event.x, &event.y);
		if (known)
			input->touches[event.slot].down = true, input->touches[event.slot].x = event.x,
			input->touches[event.slot].y = event.y;
	}
	emit(input, &event);
}

static void pointer(struct sg_input *input, struct libinput_event *raw)
{
	struct libinput_event_pointer *p = libinput_event_get_pointer_event(raw);
	struct sg_input_event event = {.time_ms = libinput_event_pointer_get_time(p)};
	switch (libinput_event_get_type(raw)) {
	case LIBINPUT_EVENT_POINTER_MOTION:
		/* A mouse is not fixed to the panel: it moves as the user sees the picture. */
		input->pointer_x += libinput_event_pointer_get_dx(p);
		input->pointer_y += libinput_event_pointer_get_dy(p);
		clamp_pointer(input);
		event.kind = SG_INPUT_POINTER_MOTION;
		break;
	case LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE:
		place(input, libinput_event_pointer_get_absolute_x_transformed(p, 1),
		      libinput_event_pointer_get_absolute_y_transformed(p, 1), &input->pointer_x,
		      &input->pointer_y);
		clamp_pointer(input);
		event.kind = SG_INPUT_POINTER_MOTION;
		break;
	case LIBINPUT_EVENT_POINTER_BUTTON:
		event.kind = SG_INPUT_POINTER_BUTTON;
		event.button = libinput_event_pointer_get_button(p);
		event.pressed = libinput_event_pointer_get_button_state(p) ==
		                LIBINPUT_BUTTON_STATE_PRESSED;
		/* Two mice pressing one button: only the first press and the last release count. */
		if (libinput_event_pointer_get_seat_button_count(p) != (event.pressed ? 1u : 0u))
			return;
		break;
	case LIBINPUT_EVENT_POINTER_SCROLL_WHEEL:
	case LIBINPUT_EVENT_POINTER_SCROLL_FINGER:
	case LIBINPUT_EVENT_POINTER_SCROLL_CONTINUOUS:
		event.kind = SG_INPUT_POINTER_SCROLL;
		if (libinput_event_pointer_has_axis(p, LIBINPUT_POINTER_AXIS_SCROLL_HORIZONTAL))
			event.scroll_x = libinput_event_pointer_get_scroll_value(
			    p, LIBINPUT_POINTER_AXIS_SCROLL_HORIZONTAL);
		if (libinput_event_pointer_has_axis(p, LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL))
			event.scroll_y = libinput_event_pointer_get_scroll_value(
			    p, LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL);
		break;
	default:
		return; /* the legacy AXIS event repeats the scroll events */
	}
	event.x = input->pointer_x, event.y = input->pointer_y;
	emit(input, &event);
}

static void key(struct sg_input *input, struct libinput_event *raw)
{
	struct libinput_event_keyboard *k = libinput_event_get_keyboard_event(raw);
	struct sg_input_event event = {
	    .kind = SG_INPUT_KEY,
	    .time_ms = libinput_event_keyboard_get_time(k),
	    .key = libinput_event_keyboard_get_key(k),
	    .pressed = libinput_event_keyboard_get_key_state(k) == LIBINPUT_KEY_STATE_PRESSED};
	/* One key held on two keyboards is one press: the first down, the last up. */
	if (libinput_event_keyboard_get_seat_key_count(k) != (event.pressed ? 1u : 0u))
		return;
	sg_keys_describe(input->xkb_state, event.key, event.pressed, &event);
	if (input->xkb_state)
		xkb_state_update_key(input->xkb_state, event.key + 8,
		                     event.pressed ? XKB_KEY_DOWN : XKB_KEY_UP);
	emit(input, &event);
}

static void handle(struct sg_input *input, struct libinput_event *raw)
{
	switch (libinput_event_get_type(raw)) {
	case LIBINPUT_EVENT_DEVICE_ADDED:
		device_changed(input, libinput_event_get_device(raw), 1);
		break;
	case LIBINPUT_EVENT_DEVICE_REMOVED:
		device_changed(input, libinput_event_get_device(raw), -1);
		break;
	case LIBINPUT_EVENT_KEYBOARD_KEY:
		key(input, raw);
		break;
	case LIBINPUT_EVENT_POINTER_MOTION:
	case LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE:
	case LIBINPUT_EVENT_POINTER_BUTTON:
	case LIBINPUT_EVENT_POINTER_SCROLL_WHEEL:
	case LIBINPUT_EVENT_POINTER_SCROLL_FINGER:
	case LIBINPUT_EVENT_POINTER_SCROLL_CONTINUOUS:
		pointer(input, raw);
		break;
	case LIBINPUT_EVENT_TOUCH_DOWN:
		touch(input, raw, SG_INPUT_TOUCH_DOWN);
		break;
	case LIBINPUT_EVENT_TOUCH_MOTION:
		touch(input, raw, SG_INPUT_TOUCH_MOTION);
		break;
	case LIBINPUT_EVENT_TOUCH_UP:
		touch(input, raw, SG_INPUT_TOUCH_UP);
		break;
	case LIBINPUT_EVENT_TOUCH_CANCEL: {
		/* One point of one device (libinput cancels each point of a device
		 * unplugged or suspended): the others, on other touchscreens, go on. */
		struct libinput_event_touch *t = libinput_event_get_touch_event(raw);
		struct sg_input_event event = {.kind = SG_INPUT_TOUCH_CANCEL,
		                               .time_ms = libinput_event_touch_get_time(t),
		                               .slot = libinput_event_touch_get_seat_slot(t)};
		if (event.slot >= 0 && event.slot < SG_INPUT_TOUCH_SLOTS) {
			event.x = input->touches[event.slot].x, event.y = input->touches[event.slot].y;
			input->touches[event.slot].down = false;
		}
		emit(input, &event);
		break;
	}
	default:
		break; /* touch frames, gestures, tablets, switches: not reported */
	}
}

void sg_input_drain(struct sg_input *input)
{
	struct libinput_event *raw;
	while ((raw = libinput_get_event(input->libinput))) {
		handle(input, raw);
		libinput_event_destroy(raw);
	}
}
