/* libsg: input events (pointer, touch, keys) in an output's pixels.
 *
 * One event type for every source: a Wayland window's seat (sg/window.h),
 * and the evdev devices of a KMS display read through libinput (sg_input_*
 * below, where libsg is built with it). Coordinates are the output's (or
 * window's buffer) pixels from its top-left corner, after its scale and
 * rotation, so that the same application code hands them to
 * sg_input_pick() on a display and in a window.
 *
 * An sg_input is used from one thread at a time. See docs/input.md. */
#ifndef SG_INPUT_H
#define SG_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sg/camera.h>
#include <sg/error.h>
#include <sg/export.h>
#include <sg/pick.h>
#include <sg/scene.h>
#include <sg/session.h>
#include <sg/types.h>

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
	SG_INPUT_TOUCH_CANCEL,       /* slot (x, y: where it was last) is gone without an up;
	                                slot -1: every point (a Wayland seat's cancel) */
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
	/* scroll: positive right and down; a Wayland seat's axis units (about
	 * pixels), libinput's scroll value (a wheel: degrees, 15 a notch) */
	double scroll_x, scroll_y;
	uint32_t key;              /* KEY_* of <linux/input-event-codes.h> (evdev code) */
	uint32_t keysym;           /* the xkbcommon keysym under the keymap, 0: none */
	char text[8];              /* UTF-8 the key types (NUL-terminated), "": none */
	uint32_t modifiers;        /* SG_MODIFIER_* held */
};

/* enum sg_rotation: <sg/types.h>. */

/* Where a point at (u, v) of the panel, in its native orientation and
 * normalised to [0, 1] (u to the right, v down), lies in a width x height
 * picture shown with rotation (width and height are the picture's, so
 * swapped against the panel's for the quarter turns). Writes x and y in
 * the picture's pixels. SG_ERR_INVALID_ARGUMENT for an unknown rotation,
 * NULL x or y, or a size below 1. */
SG_API sg_result sg_rotation_point(enum sg_rotation rotation, int width, int height, double u,
                                   double v, double *x, double *y);

/* The model under a pointer or touch event's point (sg_scene_pick() at
 * event->x, event->y, with the same camera, width and height the picture is
 * rendered with; 3D views included, as they are drawn). Events without a
 * point (keys, leave, cancel) and touch ups find nothing: SG_ERR_NOT_FOUND,
 * as a point over no model does. */
SG_API sg_result sg_input_pick(struct sg_scene *scene, const struct sg_camera *camera, int width,
                               int height, const struct sg_input_event *event,
                               struct sg_pick_hit *hit);

/* --- Input devices of a display (libinput) ------------------------------- */

struct sg_input;

/* Called once per event, in order, by sg_input_dispatch(), and also by
 * sg_input_suspend() (touch cancels, releases) and sg_input_resume(). It
 * may call any libsg function except sg_input_destroy() on this input. */
typedef void (*sg_input_fn)(struct sg_input *input, const struct sg_input_event *event,
                            void *user_data);

/* The keymap, as xkbcommon's rule names (RMLVO); NULL members: the
 * XKB_DEFAULT_RULES, _MODEL, _LAYOUT, _VARIANT and _OPTIONS environment
 * variables, then xkbcommon's defaults ("evdev", "pc105", "us"). */
struct sg_input_keymap {
	const char *rules, *model, *layout, *variant, *options;
};

struct sg_input_desc {
	/* Which devices. NULL devices: every keyboard, pointer and touch device
	 * of the udev seat (NULL: "seat0"), devices plugged later included, as
	 * libinput's udev backend finds them (systemd-udevd must be running).
	 * Else exactly these event device paths ("/dev/input/event3"), read
	 * whatever their seat (libinput's path backend); the array is read only
	 * during create. Without a session libsg opens them read-write itself:
	 * run as root or in the group that owns them (often "input"). */
	const char *seat;
	const char *const *devices;
	size_t device_count;
	/* A seat's session (sg/session.h): the seat daemon opens the devices,
	 * so an ordinary user may read them; its seat is the udev seat (seat
	 * is then ignored). NULL: none. Must outlive the input. */
	struct sg_session *session;
	/* Create even when no device is found (a kiosk started before its
	 * touchscreen is plugged in); false: that is an error. */
	bool allow_no_devices;
	/* The picture the events are reported in: width x height pixels (the
	 * output's mode, or swapped for a quarter turn), shown with rotation.
	 * Touchscreens and absolute pointers (tablets, a VM's tablet) map their
	 * whole area onto the panel and are turned with the picture; relative
	 * pointers (mice, touchpads) move a position in the picture as the user
	 * sees it, starting at its centre. sg_input_set_area() changes these. */
	int width, height;
	enum sg_rotation rotation;
	/* A touchscreen's calibration (libinput's matrix: 6 floats, row-major,
	 * the top two rows of a 3x3 map of the device's normalised coordinates,
	 * applied before the rotation), given to every device that takes one.
	 * Read only when has_calibration is true; else each device keeps its
	 * own (udev's LIBINPUT_CALIBRATION_MATRIX, or none). */
	bool has_calibration;
	float calibration[6];
	struct sg_input_keymap keymap;
	sg_input_fn on_event; /* NULL: events are read and dropped */
	void *user_data;
};

/* Strings are owned by the input, valid until sg_input_destroy(). */
struct sg_input_info {
	const char *seat;    /* the udev seat, or "(devices)" for a list of paths */
	size_t device_count; /* devices in use now */
	size_t keyboards, pointers, touchscreens; /* of those, by capability */
};

/* Opens the devices. NULL on failure, with sg_last_error() saying what:
 * libinput or udev could not start, the keymap names no layout xkbcommon
 * knows, a device path could not be opened (its errno) or is not an input
 * device, no device at all on the seat (unless allow_no_devices), or a
 * libsg built without libinput (SG_ERR_UNSUPPORTED). */
SG_API struct sg_input *sg_input_create_sized(const struct sg_input_desc *desc, size_t size);
#define sg_input_create(...) sg_input_create_sized(__VA_ARGS__, sizeof(struct sg_input_desc))
/* Closes the devices. NULL is ignored. */
SG_API void sg_input_destroy(struct sg_input *input);
/* Valid until the next sg_input_dispatch() (device counts change with hotplug). */
SG_API const struct sg_input_info *sg_input_get_info(struct sg_input *input);

/* A descriptor to poll for POLLIN in your event loop; call sg_input_dispatch()
 * when it is readable. Owned by the input. */
SG_API int sg_input_get_fd(const struct sg_input *input);
/* Reads what the devices sent and calls on_event for each event, without
 * blocking. A device unplugged is dropped silently (touches on it are
 * cancelled), one plugged in on the seat is added. */
SG_API sg_result sg_input_dispatch(struct sg_input *input);
/* While the session is switched away (sg/session.h's on_change false):
 * sg_input_suspend() closes the devices (touches in progress are
 * cancelled), sg_input_resume() opens them again. No-ops when already so. */
SG_API sg_result sg_input_suspend(struct sg_input *input);
SG_API sg_result sg_input_resume(struct sg_input *input);

/* The picture's new size or rotation (a mode change, a rotation): later
 * events use them; a relative pointer's position is kept, clamped. */
SG_API sg_result sg_input_set_area(struct sg_input *input, int width, int height,
                                   enum sg_rotation rotation);

#ifdef __cplusplus
}
#endif

#endif
