/* sg_session_*: a seat through libseat (sg/session.h). */
#include <errno.h>
#include <libseat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sg/session.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/escape.h"
#include "../base/log.h"
#include "../base/sized.h"

/* Devices a session keeps open at once: a card and a kiosk's input devices. */
#define MAX_DEVICES 64

struct sg_session {
	struct libseat *seat;
	bool active;
	sg_session_fn on_change;
	void *user_data;
	struct {
		int fd, id;
	} devices[MAX_DEVICES];
	int device_count;
};

static void enable_seat(struct libseat *seat, void *data)
{
	(void)seat;
	struct sg_session *session = data;
	session->active = true;
	sg_log(SG_LOG_INFO, "session: seat %s enabled", libseat_seat_name(session->seat));
	if (session->on_change)
		session->on_change(session, true, session->user_data);
}

static void disable_seat(struct libseat *seat, void *data)
{
	struct sg_session *session = data;
	session->active = false;
	sg_log(SG_LOG_INFO, "session: seat %s disabled", libseat_seat_name(seat));
	if (session->on_change)
		session->on_change(session, false, session->user_data);
	/* The devices are put down: the seat daemon may switch now. */
	if (libseat_disable_seat(seat))
		sg_log(SG_LOG_ERROR, "session: libseat_disable_seat: %s", strerror(errno));
}

static const struct libseat_seat_listener listener = {
    .enable_seat = enable_seat,
    .disable_seat = disable_seat,
};

static double now_ms(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec * 1e3 + (double)now.tv_nsec * 1e-6;
}

struct sg_session *sg_session_open_sized(const struct sg_session_desc *desc, size_t size)
{
	struct sg_session_desc sized_desc;
	if (desc && !(desc = sg_sized_in(&sized_desc, sizeof sized_desc, desc, size,
	                                 SG_SIZE_THROUGH(struct sg_session_desc, enable_timeout_ms),
	                                 "sg_session_open")))
		return NULL;
	if (!desc || desc->enable_timeout_ms < -1) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_session_open: %s",
		        desc ? "enable_timeout_ms below -1" : "desc is NULL");
		return NULL;
	}
	struct sg_session *session = sg_calloc(1, sizeof(*session));
	if (!session) {
		sg_fail(SG_ERR_NO_MEMORY, "sg_session_open: out of memory");
		return NULL;
	}
	session->on_change = desc->on_change;
	session->user_data = desc->user_data;
	session->seat = libseat_open_seat(&listener, session);
	if (!session->seat) {
		int error = errno;
		const char *backend = getenv("LIBSEAT_BACKEND");
		sg_fail(SG_ERR_DEVICE,
		        "sg_session_open: libseat could not open a seat (backend %s; is seatd "
		        "running and its socket yours, or is this a logind session?): %s",
		        backend ? backend : "any", strerror(error));
		sg_free(session);
		return NULL;
	}
	int timeout = desc->enable_timeout_ms ? desc->enable_timeout_ms : 5000;
	double deadline = now_ms() + timeout;
	while (!session->active) {
		int left = timeout < 0 ? -1 : (int)(deadline - now_ms());
		if (timeout >= 0 && left <= 0)
			break;
		if (libseat_dispatch(session->seat, left) < 0 && errno != EINTR) {
			sg_fail(SG_ERR_DEVICE, "sg_session_open: libseat_dispatch on seat %s: %s",
			        libseat_seat_name(session->seat), strerror(errno));
			sg_session_close(session);
			return NULL;
		}
	}
	if (!session->active) {
		sg_fail(SG_ERR_BUSY,
		        "sg_session_open: seat %s was not enabled within %d ms (another session is "
		        "active on it?)",
		        libseat_seat_name(session->seat), timeout);
		sg_session_close(session);
		return NULL;
	}
	return session;
}

void sg_session_close(struct sg_session *session)
{
	if (!session)
		return;
	for (int i = session->device_count - 1; i >= 0; i--)
		sg_session_close_device(session, session->devices[i].fd);
	libseat_close_seat(session->seat);
	sg_free(session);
}

const char *sg_session_get_seat_name(const struct sg_session *session)
{
	return session ? libseat_seat_name(session->seat) : NULL;
}

bool sg_session_is_active(const struct sg_session *session)
{
	return session && session->active;
}

int sg_session_get_fd(const struct sg_session *session)
{
	return session ? libseat_get_fd(session->seat) : -1;
}

sg_result sg_session_dispatch(struct sg_session *session)
{
	if (!session)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_session_dispatch: session is NULL");
	if (libseat_dispatch(session->seat, 0) < 0 && errno != EINTR)
		return sg_fail(SG_ERR_DEVICE, "sg_session_dispatch: libseat_dispatch on seat %s: %s",
		               libseat_seat_name(session->seat), strerror(errno));
	return SG_OK;
}

sg_result sg_session_switch(struct sg_session *session, int session_number)
{
	if (!session)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_session_switch: session is NULL");
	if (libseat_switch_session(session->seat, session_number))
		return sg_fail(SG_ERR_DEVICE, "sg_session_switch: seat %s refused a switch to %d: %s",
		               libseat_seat_name(session->seat), session_number, strerror(errno));
	return SG_OK;
}

int sg_session_open_device(struct sg_session *session, const char *path)
{
	if (!session || !path) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_session_open_device: %s is NULL",
		        session ? "path" : "session");
		return -1;
	}
	char shown[256];
	sg_escape_path(path, shown, sizeof(shown));
	if (session->device_count == MAX_DEVICES) {
		sg_fail(SG_ERR_LIMIT, "sg_session_open_device: %s: %d devices are open already",
		        shown, MAX_DEVICES);
		return -1;
	}
	int fd = -1;
	int id = libseat_open_device(session->seat, path, &fd);
	if (id < 0) {
		sg_fail(SG_ERR_DEVICE, "sg_session_open_device: seat %s refused %s: %s",
		        libseat_seat_name(session->seat), shown, strerror(errno));
		return -1;
	}
	session->devices[session->device_count].fd = fd;
	session->devices[session->device_count++].id = id;
	return fd;
}

sg_result sg_session_close_device(struct sg_session *session, int fd)
{
	if (!session)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_session_close_device: session is NULL");
	for (int i = 0; i < session->device_count; i++) {
		if (session->devices[i].fd != fd)
			continue;
		int id = session->devices[i].id;
		session->devices[i] = session->devices[--session->device_count];
		sg_result result = SG_OK;
		if (libseat_close_device(session->seat, id) < 0)
			result = sg_fail(SG_ERR_DEVICE, "sg_session_close_device: libseat: %s",
			                 strerror(errno));
		close(fd);
		return result;
	}
	return sg_fail(SG_ERR_NOT_FOUND,
	               "sg_session_close_device: fd %d was not opened through this session", fd);
}
