/* libsg: a login session's access to its seat (libseat: seatd, logind, or
 * libseat's builtin backend for root), so that a kiosk runs as an ordinary
 * user: the seat daemon opens the DRM card and the input devices for it,
 * gives it DRM master while its session is active, and tells it when the
 * session is switched away and back (a VT switch).
 *
 *   struct sg_session *session = sg_session_open(&(struct sg_session_desc){
 *       .on_change = on_change, .user_data = app});
 *   int card = sg_session_open_device(session, "/dev/dri/card0");
 *   output = sg_output_create(&(struct sg_output_desc){.has_drm_fd = true, .drm_fd = card});
 *   input = sg_input_create(&(struct sg_input_desc){.session = session, ...});
 *   // poll sg_session_get_fd() too; on POLLIN: sg_session_dispatch(session)
 *   static void on_change(struct sg_session *s, bool active, void *data) {
 *       if (!active) { sg_output_pause(output); sg_input_suspend(input); }
 *       else { sg_input_resume(input); sg_output_resume(output); present again }
 *   }
 *
 * Without libseat (meson option 'seat'), a stub whose calls fail. Running
 * as root without a session keeps working: open the card and devices
 * directly (sg_output_desc.device, sg_input_desc without a session).
 * A session is used from one thread at a time. See docs/input.md. */
#ifndef SG_SESSION_H
#define SG_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include <sg/error.h>
#include <sg/export.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sg_session;

/* Called by sg_session_dispatch() when the session becomes active (true:
 * devices usable, DRM master given) or is switched away (false), and once
 * with true inside sg_session_open() (before it returns the session). On false,
 * stop using the devices before returning (sg_output_pause,
 * sg_input_suspend): libsg then tells the seat daemon it may switch. */
typedef void (*sg_session_fn)(struct sg_session *session, bool active, void *user_data);

struct sg_session_desc {
	sg_session_fn on_change; /* NULL: none */
	void *user_data;
	/* How long sg_session_open() waits for the session to become active:
	 * 0 means 5000 ms, -1 forever. */
	int enable_timeout_ms;
};

/* Opens the seat through libseat (its backend from LIBSEAT_BACKEND, else the
 * first that works: seatd, logind, builtin) and waits until the session is
 * active. NULL on failure, with sg_last_error() naming what: no seat daemon
 * or session (SG_ERR_DEVICE), the session not active in time (SG_ERR_BUSY),
 * a libsg built without libseat (SG_ERR_UNSUPPORTED). */
SG_API struct sg_session *sg_session_open_sized(const struct sg_session_desc *desc, size_t size);
#define sg_session_open(...) sg_session_open_sized(__VA_ARGS__, sizeof(struct sg_session_desc))
/* Closes the devices still open through it and the seat. NULL is ignored. */
SG_API void sg_session_close(struct sg_session *session);

/* The seat's name ("seat0"), owned by the session. */
SG_API const char *sg_session_get_seat_name(const struct sg_session *session);
SG_API bool sg_session_is_active(const struct sg_session *session);
/* Poll for POLLIN; sg_session_dispatch() reads the seat daemon's events and
 * calls on_change, without blocking. */
SG_API int sg_session_get_fd(const struct sg_session *session);
SG_API sg_result sg_session_dispatch(struct sg_session *session);

/* Asks the seat daemon to switch to session (a VT number on a seat with
 * VTs), as Ctrl+Alt+F<n> does on a desktop: on_change(false) follows at a
 * dispatch, and on_change(true) when the user switches back. SG_ERR_DEVICE
 * when the daemon refuses (a seat without VTs, an inactive session). */
SG_API sg_result sg_session_switch(struct sg_session *session, int session_number);

/* A device node opened by the seat daemon ("/dev/dri/card0",
 * "/dev/input/event3"): an fd, or -1 with sg_last_error() naming the path and
 * why. Close it with sg_session_close_device(), not close(). */
SG_API int sg_session_open_device(struct sg_session *session, const char *path);
SG_API sg_result sg_session_close_device(struct sg_session *session, int fd);

#ifdef __cplusplus
}
#endif

#endif
