/* Virtual input devices through /dev/uinput (uinput_devices.h). */
#include <errno.h>
#include <fcntl.h>
#include <linux/uinput.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "uinput_devices.h"

static bool failed(struct uinput_device *device, char *error, int size, const char *what)
{
	snprintf(error, (size_t)size, "%s: %s", what, strerror(errno));
	if (device->fd >= 0)
		close(device->fd);
	device->fd = -1;
	return false;
}

static bool abs_axis(int fd, int code, int max)
{
	struct uinput_abs_setup setup = {.code = (__u16)code,
	                                 .absinfo = {.minimum = 0, .maximum = max, .resolution = 10}};
	return ioctl(fd, UI_SET_ABSBIT, code) == 0 && ioctl(fd, UI_ABS_SETUP, &setup) == 0;
}

/* Creates the device, finds its event node and lets udevd tag it. */
static bool finish(struct uinput_device *device, const char *name, char *error, int size)
{
	struct uinput_setup setup = {.id = {.bustype = BUS_VIRTUAL, .vendor = 0x1, .product = 0x1}};
	snprintf(setup.name, sizeof(setup.name), "%s", name);
	if (ioctl(device->fd, UI_DEV_SETUP, &setup) || ioctl(device->fd, UI_DEV_CREATE))
		return failed(device, error, size, "UI_DEV_SETUP / UI_DEV_CREATE");
	char sysname[64] = "";
	if (ioctl(device->fd, UI_GET_SYSNAME(sizeof(sysname)), sysname) < 0)
		return failed(device, error, size, "UI_GET_SYSNAME");
	device->event_path[0] = '\0';
	for (int n = 0; n < 256 && !device->event_path[0]; n++) {
		char path[160];
		snprintf(path, sizeof(path), "/sys/devices/virtual/input/%s/event%d", sysname, n);
		if (access(path, F_OK) == 0)
			snprintf(device->event_path, sizeof(device->event_path), "/dev/input/event%d", n);
	}
	if (!device->event_path[0]) {
		errno = ENOENT;
		return failed(device, error, size, "no event node under /sys/devices/virtual/input");
	}
	if (system("udevadm settle --timeout=20") != 0) {
		errno = EIO;
		return failed(device, error, size, "udevadm settle");
	}
	return true;
}

bool uinput_make_touchscreen(struct uinput_device *device, char *error, int size)
{
	device->fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (device->fd < 0)
		return failed(device, error, size, "/dev/uinput");
	int fd = device->fd;
	if (ioctl(fd, UI_SET_EVBIT, EV_KEY) || ioctl(fd, UI_SET_KEYBIT, BTN_TOUCH) ||
	    ioctl(fd, UI_SET_EVBIT, EV_ABS) ||
	    ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT) || /* a touchscreen, not a touchpad */
	    !abs_axis(fd, ABS_X, UINPUT_TOUCH_X_MAX) || !abs_axis(fd, ABS_Y, UINPUT_TOUCH_Y_MAX) ||
	    !abs_axis(fd, ABS_MT_SLOT, 4) || !abs_axis(fd, ABS_MT_TRACKING_ID, 65535) ||
	    !abs_axis(fd, ABS_MT_POSITION_X, UINPUT_TOUCH_X_MAX) ||
	    !abs_axis(fd, ABS_MT_POSITION_Y, UINPUT_TOUCH_Y_MAX))
		return failed(device, error, size, "setting up the touchscreen's axes");
	return finish(device, "sg test touchscreen", error, size);
}

bool uinput_make_keyboard(struct uinput_device *device, char *error, int size)
{
	device->fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (device->fd < 0)
		return failed(device, error, size, "/dev/uinput");
	if (ioctl(device->fd, UI_SET_EVBIT, EV_KEY))
		return failed(device, error, size, "UI_SET_EVBIT");
	/* udev calls a device a keyboard when it has KEY_ESC .. KEY_S (1..31). */
	for (int key = KEY_ESC; key <= KEY_SPACE; key++)
		if (ioctl(device->fd, UI_SET_KEYBIT, key))
			return failed(device, error, size, "UI_SET_KEYBIT");
	return finish(device, "sg test keyboard", error, size);
}

void uinput_destroy(struct uinput_device *device)
{
	if (device->fd < 0)
		return;
	ioctl(device->fd, UI_DEV_DESTROY);
	close(device->fd);
	device->fd = -1;
	if (system("udevadm settle --timeout=20") != 0)
		fprintf(stderr, "uinput_destroy: udevadm settle failed\n");
}

static bool emit(const struct uinput_device *device, int type, int code, int value)
{
	struct input_event event = {.type = (__u16)type, .code = (__u16)code, .value = value};
	return write(device->fd, &event, sizeof(event)) == (ssize_t)sizeof(event);
}

bool uinput_touch_down(const struct uinput_device *device, int x, int y)
{
	return emit(device, EV_ABS, ABS_MT_SLOT, 0) && emit(device, EV_ABS, ABS_MT_TRACKING_ID, 7) &&
	       emit(device, EV_ABS, ABS_MT_POSITION_X, x) &&
	       emit(device, EV_ABS, ABS_MT_POSITION_Y, y) && emit(device, EV_KEY, BTN_TOUCH, 1) &&
	       emit(device, EV_ABS, ABS_X, x) && emit(device, EV_ABS, ABS_Y, y) &&
	       emit(device, EV_SYN, SYN_REPORT, 0);
}

bool uinput_touch_up(const struct uinput_device *device)
{
	return emit(device, EV_ABS, ABS_MT_SLOT, 0) && emit(device, EV_ABS, ABS_MT_TRACKING_ID, -1) &&
	       emit(device, EV_KEY, BTN_TOUCH, 0) && emit(device, EV_SYN, SYN_REPORT, 0);
}

bool uinput_key(const struct uinput_device *device, int code, bool pressed)
{
	return emit(device, EV_KEY, code, pressed) && emit(device, EV_SYN, SYN_REPORT, 0);
}
