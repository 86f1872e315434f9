/* libsg: input events (pointer, touch, keys) in an output's pixels.
 *
 * One event type for every source: a Wayland window's seat (sg/window.h)
 * today, and libinput on a KMS output where that is built. Coordinates are
 * the output's (or window's buffer) pixels from its top-left corner, after
 * its scale and rotation, so that the same application code hands them to
 * sg_scene_pick() (sg/pick.h) on a display and in a window. */
#ifndef SG_INPUT_H
#define SG_INPUT_H

#include <stdbool.h>
#include <stdint.h>

#include <sg/export.h>

#ifdef __cplusplus
extern "C" {
#endif

enum sg_input_kind {
	SG_INPUT_POINTER_MOTION = 1, /* x, y */
	SG_INPUT_POINTER_BUTTON,     /* x, y, button, pressed */
	SG_INPUT_POINTER_SCROLL,     /* x, y, scroll_x, scroll_y */
	SG_INPUT_POINTER_LEAVE,      /* the pointer left the output (a window's surface) */
	SG_INPUT_TOUCH_DOWN,         /* slot, x, y */
	SG_INPUT_TOUCH_MOTION,       /* slot, x, y */
	SG_INPUT_TOUCH_UP,           /* slot (x, y: where it was last) */
	SG_INPUT_TOUCH_CANCEL,       /* every touch point is gone without an up */
	SG_INPUT_KEY,                /* key, pressed, keysym, text, modifiers */
};

/* Modifier bits in sg_input_event.modifiers (keys only). */
enum {
	SG_MODIFIER_SHIFT = 1u << 0,
	SG_MODIFIER_CTRL = 1u << 1,
	SG_MODIFIER_ALT = 1u << 2,
	SG_MODIFIER_LOGO = 1u << 3,
};

struct sg_input_event {
	enum sg_input_kind kind;
	uint32_t time_ms; /* the source's timestamp in milliseconds (only differences mean anything) */
	double x, y;      /* pointer and touch: output pixels, the centre of pixel (i, j) at i + 0.5 */
	int32_t slot;     /* touch: which point (the compositor's or kernel's id) */
	uint32_t button;  /* BTN_LEFT, BTN_RIGHT, ... of <linux/input-event-codes.h> */
	bool pressed;     /* button or key went down (false: up) */
	double scroll_x, scroll_y; /* scroll: pixels, positive right and down */
	uint32_t key;              /* KEY_* of <linux/input-event-codes.h> (evdev code) */
	uint32_t keysym;           /* the xkbcommon keysym under the keymap, 0: none */
	char text[8];              /* UTF-8 the key types (NUL-terminated), "": none */
	uint32_t modifiers;        /* SG_MODIFIER_* held */
};

#ifdef __cplusplus
}
#endif

#endif
