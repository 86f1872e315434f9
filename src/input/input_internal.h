/* Internal: struct sg_input, shared by input.c (devices, keymap) and
 * events.c (libinput's events to sg_input_event). */
#ifndef SG_INPUT_INTERNAL_H
#define SG_INPUT_INTERNAL_H

#include <libinput.h>
#include <stdbool.h>
#include <stdint.h>
#include <xkbcommon/xkbcommon.h>

#include <sg/input.h>

/* Touch points remembered for their up event's position (seat slots). */
#define SG_INPUT_TOUCH_SLOTS 32

struct sg_input {
	struct libinput *libinput;
	struct udev *udev; /* NULL with a list of device paths */
	struct sg_session *session; /* opens the devices where given */
	bool suspended;
	struct xkb_context *xkb;
	struct xkb_keymap *keymap;
	struct xkb_state *xkb_state;
	sg_input_fn on_event;
	void *user_data;
	int width, height;
	enum sg_rotation rotation;
	double pointer_x, pointer_y; /* where a relative pointer is, in the picture */
	bool has_calibration;
	float calibration[6];
	struct {
		bool down;
		double x, y;
	} touches[SG_INPUT_TOUCH_SLOTS];
	char seat[64];
	struct sg_input_info info;
	/* The first device that could not be opened, for create's message. */
	char open_error[320];
};

/* Reads libinput's queue and hands each event to on_event (events.c). */
void sg_input_drain(struct sg_input *input);

#endif
