/* Virtual input devices made with /dev/uinput, for the input suite
 * (test_input.c) and the touch-to-photon benchmark (bench/touch.c), in the
 * guest where udevd runs (run.sh --udev). */
#ifndef SG_DRM_UINPUT_DEVICES_H
#define SG_DRM_UINPUT_DEVICES_H

#include <stdbool.h>

/* A touchscreen's axes: x in 0..999, y in 0..749. libinput normalises a
 * value v as v / (max + 1), so x = 250 is a quarter of the way across. */
#define UINPUT_TOUCH_X_MAX 999
#define UINPUT_TOUCH_Y_MAX 749

struct uinput_device {
	int fd;
	char event_path[64]; /* "/dev/input/eventN" */
};

/* Each returns false with a message in error (a failing ioctl and its errno)
 * on failure. They wait for udevd to tag the device (udevadm settle). */
bool uinput_make_touchscreen(struct uinput_device *device, char *error, int size);
bool uinput_make_keyboard(struct uinput_device *device, char *error, int size);
void uinput_destroy(struct uinput_device *device);

/* Events; false when the write fails. */
bool uinput_touch_down(const struct uinput_device *device, int x, int y);
bool uinput_touch_up(const struct uinput_device *device);
bool uinput_key(const struct uinput_device *device, int code, bool pressed);

#endif
