/* sg_input_*: a display's input devices through libinput (udev seat or a
 * list of paths), keys through an xkb keymap made from rule names. */
#include <errno.h>
#include <fcntl.h>
#include <libudev.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/log.h"
#include "input_internal.h"
#include "../base/sized.h"

static int open_restricted(const char *path, int flags, void *user_data)
{
	struct sg_input *input = user_data;
	if (input->session) {
		int fd = sg_session_open_device(input->session, path);
		if (fd < 0 && !input->open_error[0])
			snprintf(input->open_error, sizeof(input->open_error), "%s", sg_last_error());
		return fd < 0 ? -EACCES : fd;
	}
	int fd = open(path, flags | O_CLOEXEC);
	if (fd < 0) {
		int error = errno;
		if (!input->open_error[0])
			snprintf(input->open_error, sizeof(input->open_error), "cannot open %s: %s", path,
			         strerror(error));
		return -error;
	}
	return fd;
}

static void close_restricted(int fd, void *user_data)
{
	struct sg_input *input = user_data;
	if (!input->session || sg_session_close_device(input->session, fd) == SG_ERR_NOT_FOUND)
		close(fd);
}

static const struct libinput_interface interface = {
    .open_restricted = open_restricted,
    .close_restricted = close_restricted,
};

/* libinput's own messages (a device it ignores and why) go to libsg's log. */
static void log_handler(struct libinput *libinput, enum libinput_log_priority priority,
                        const char *format, va_list args)
{
	(void)libinput;
	char line[512];
	vsnprintf(line, sizeof(line), format, args);
	line[strcspn(line, "\n")] = '\0';
	sg_log(priority >= LIBINPUT_LOG_PRIORITY_ERROR  ? SG_LOG_ERROR
	       : priority >= LIBINPUT_LOG_PRIORITY_INFO ? SG_LOG_INFO
	                                                : SG_LOG_DEBUG,
	       "libinput: %s", line);
}

static sg_result check_area(const char *who, int width, int height, enum sg_rotation rotation)
{
	if (width < 1 || height < 1 || (unsigned)rotation > SG_ROTATION_FLIPPED_270)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "%s: the picture needs a size of at least 1x1 and a rotation of enum "
		               "sg_rotation (got %dx%d, rotation %d)",
		               who, width, height, (int)rotation);
	return SG_OK;
}

/* xkbcommon's messages (a missing layout file) too, not on stderr. */
static void xkb_log(struct xkb_context *xkb, enum xkb_log_level level, const char *format,
                    va_list args)
{
	(void)xkb;
	char line[512];
	vsnprintf(line, sizeof(line), format, args);
	line[strcspn(line, "\n")] = '\0';
	sg_log(level <= XKB_LOG_LEVEL_ERROR ? SG_LOG_ERROR : SG_LOG_DEBUG, "xkbcommon: %s", line);
}

static const char *or_unset(const char *name)
{
	return name ? name : "(unset)";
}

static sg_result make_keymap(struct sg_input *input, const struct sg_input_keymap *names)
{
	input->xkb = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
	if (!input->xkb)
		return sg_fail(SG_ERR_NO_MEMORY, "sg_input_create: xkb_context_new failed");
	xkb_context_set_log_fn(input->xkb, xkb_log);
	struct xkb_rule_names rmlvo = {names->rules, names->model, names->layout, names->variant,
	                               names->options};
	input->keymap = xkb_keymap_new_from_names(input->xkb, &rmlvo, XKB_KEYMAP_COMPILE_NO_FLAGS);
	if (!input->keymap)
		return sg_fail(SG_ERR_FORMAT,
		               "sg_input_create: xkbcommon could not make a keymap of layout '%s' "
		               "(rules '%s', model '%s', variant '%s', options '%s'; unset ones come "
		               "from XKB_DEFAULT_* or xkbcommon's defaults): an unknown name, or no "
		               "xkb data files (Debian's xkb-data)",
		               or_unset(names->layout), or_unset(names->rules),
		               or_unset(names->model), or_unset(names->variant),
		               or_unset(names->options));
	input->xkb_state = xkb_state_new(input->keymap);
	if (!input->xkb_state)
		return sg_fail(SG_ERR_NO_MEMORY, "sg_input_create: xkb_state_new failed");
	return SG_OK;
}

static sg_result open_paths(struct sg_input *input, const struct sg_input_desc *desc)
{
	snprintf(input->seat, sizeof(input->seat), "(devices)");
	input->libinput = libinput_path_create_context(&interface, input);
	if (!input->libinput)
		return sg_fail(SG_ERR_DEVICE, "sg_input_create: libinput_path_create_context failed");
	libinput_log_set_handler(input->libinput, log_handler);
	for (size_t i = 0; i < desc->device_count; i++) {
		const char *path = desc->devices[i];
		if (!path)
			return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_input_create: devices[%zu] is NULL",
			               i);
		/* libinput looks a path up in udev before it opens it: say here what is wrong. */
		struct stat st;
		if (stat(path, &st) != 0)
			return sg_fail(SG_ERR_DEVICE, "sg_input_create: cannot open %s: %s", path,
			               strerror(errno));
		if (!S_ISCHR(st.st_mode))
			return sg_fail(SG_ERR_DEVICE,
			               "sg_input_create: %s is not a device node (want an evdev "
			               "event node such as /dev/input/event0)",
			               path);
		input->open_error[0] = '\0';
		if (!libinput_path_add_device(input->libinput, path)) {
			if (input->open_error[0])
				return sg_fail(SG_ERR_DEVICE, "sg_input_create: %s", input->open_error);
			return sg_fail(SG_ERR_DEVICE,
			               "sg_input_create: libinput does not take %s (not an evdev "
			               "event node, or a device udev has not tagged ID_INPUT; is "
			               "systemd-udevd running?)",
			               path);
		}
	}
	return SG_OK;
}

static sg_result open_seat(struct sg_input *input, const struct sg_input_desc *desc)
{
	const char *seat = input->session ? sg_session_get_seat_name(input->session)
	                   : desc->seat   ? desc->seat
	                                  : "seat0";
	if (strlen(seat) >= sizeof(input->seat))
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_input_create: seat name of %zu bytes",
		               strlen(seat));
	snprintf(input->seat, sizeof(input->seat), "%s", seat);
	input->udev = udev_new();
	if (!input->udev)
		return sg_fail(SG_ERR_DEVICE, "sg_input_create: udev_new failed");
	input->libinput = libinput_udev_create_context(&interface, input, input->udev);
	if (!input->libinput)
		return sg_fail(SG_ERR_DEVICE, "sg_input_create: libinput_udev_create_context failed");
	libinput_log_set_handler(input->libinput, log_handler);
	if (libinput_udev_assign_seat(input->libinput, seat) != 0)
		return sg_fail(SG_ERR_DEVICE,
		               "sg_input_create: libinput could not take udev seat '%s' (its udev "
		               "monitor or enumeration failed; is /run/udev there?)",
		               seat);
	return SG_OK;
}

/* No device found: say the likely reason. */
static sg_result none_found(const struct sg_input *input)
{
	if (input->open_error[0])
		return sg_fail(SG_ERR_DEVICE, "sg_input_create: no input device on seat '%s': %s",
		               input->seat, input->open_error);
	if (access("/run/udev/control", F_OK) != 0)
		return sg_fail(SG_ERR_NOT_FOUND,
		               "sg_input_create: no input device on seat '%s', and systemd-udevd "
		               "does not seem to run (no /run/udev/control): libinput takes only "
		               "devices udev has tagged",
		               input->seat);
	return sg_fail(SG_ERR_NOT_FOUND,
	               "sg_input_create: no keyboard, pointer or touch device on seat '%s' "
	               "(allow_no_devices waits for one)",
	               input->seat);
}

struct sg_input *sg_input_create_sized(const struct sg_input_desc *desc, size_t size)
{
	struct sg_input_desc sized_desc;
	if (desc && !(desc = sg_sized_in(&sized_desc, sizeof sized_desc, desc, size,
	                                 SG_SIZE_THROUGH(struct sg_input_desc, user_data),
	                                 "sg_input_create")))
		return NULL;
	if (!desc) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_input_create: desc is NULL");
		return NULL;
	}
	if (check_area("sg_input_create", desc->width, desc->height, desc->rotation) != SG_OK)
		return NULL;
	if (desc->device_count && !desc->devices) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_input_create: device_count %zu and no devices",
		        desc->device_count);
		return NULL;
	}
	struct sg_input *input = sg_calloc(1, sizeof(*input));
	if (!input) {
		sg_fail(SG_ERR_NO_MEMORY, "sg_input_create: out of memory");
		return NULL;
	}
	input->session = desc->session;
	input->on_event = desc->on_event;
	input->user_data = desc->user_data;
	input->width = desc->width, input->height = desc->height;
	input->rotation = desc->rotation;
	input->pointer_x = desc->width / 2.0, input->pointer_y = desc->height / 2.0;
	input->has_calibration = desc->has_calibration;
	memcpy(input->calibration, desc->calibration, sizeof(input->calibration));
	input->info.seat = input->seat;
	sg_result result = make_keymap(input, &desc->keymap);
	if (result == SG_OK)
		result = desc->devices ? open_paths(input, desc) : open_seat(input, desc);
	if (result == SG_OK) {
		/* The devices' added events are queued: count them, before any input. */
		int status = libinput_dispatch(input->libinput);
		if (status != 0)
			result = sg_fail(SG_ERR_DEVICE, "sg_input_create: libinput_dispatch: %s",
			                 strerror(-status));
		else
			sg_input_drain(input);
	}
	if (result == SG_OK && input->info.device_count == 0 && !desc->allow_no_devices)
		result = none_found(input);
	if (result != SG_OK) {
		sg_input_destroy(input);
		return NULL;
	}
	return input;
}

void sg_input_destroy(struct sg_input *input)
{
	if (!input)
		return;
	if (input->libinput)
		libinput_unref(input->libinput);
	if (input->udev)
		udev_unref(input->udev);
	xkb_state_unref(input->xkb_state);
	xkb_keymap_unref(input->keymap);
	xkb_context_unref(input->xkb);
	sg_free(input);
}

const struct sg_input_info *sg_input_get_info(struct sg_input *input)
{
	return input ? &input->info : NULL;
}

int sg_input_get_fd(const struct sg_input *input)
{
	return input ? libinput_get_fd(input->libinput) : -1;
}

sg_result sg_input_dispatch(struct sg_input *input)
{
	if (!input)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_input_dispatch: input is NULL");
	int status = libinput_dispatch(input->libinput);
	sg_input_drain(input); /* what was read before a failure still counts */
	if (status != 0)
		return sg_fail(SG_ERR_DEVICE, "sg_input_dispatch: libinput_dispatch: %s",
		               strerror(-status));
	return SG_OK;
}

sg_result sg_input_suspend(struct sg_input *input)
{
	if (!input)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_input_suspend: input is NULL");
	if (!input->suspended) {
		input->suspended = true;           /* first: on_event may ask for a resume */
		libinput_suspend(input->libinput); /* closes every device */
		sg_input_drain(input);             /* their removals, touch cancels */
	}
	return SG_OK;
}

sg_result sg_input_resume(struct sg_input *input)
{
	if (!input)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_input_resume: input is NULL");
	if (input->suspended) {
		input->open_error[0] = '\0';
		if (libinput_resume(input->libinput))
			return sg_fail(SG_ERR_DEVICE, "sg_input_resume: libinput could not open the "
			                              "devices again%s%s",
			               input->open_error[0] ? ": " : "", input->open_error);
		input->suspended = false; /* before the drain, as in suspend */
		sg_input_drain(input);    /* the devices added again */
	}
	return SG_OK;
}

sg_result sg_input_set_area(struct sg_input *input, int width, int height,
                            enum sg_rotation rotation)
{
	if (!input)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_input_set_area: input is NULL");
	sg_result result = check_area("sg_input_set_area", width, height, rotation);
	if (result != SG_OK)
		return result;
	input->width = width, input->height = height, input->rotation = rotation;
	/* Keep the pointer where it was, as far as the new picture allows. */
	double right = width - 0.5, bottom = height - 0.5;
	if (input->pointer_x > right)
		input->pointer_x = right;
	if (input->pointer_y > bottom)
		input->pointer_y = bottom;
	return SG_OK;
}
