/* The connection: connecting (or taking the caller's), libsg's own event
 * queue, the globals libsg binds, and what a broken connection or a
 * protocol error says. libwayland sends with MSG_NOSIGNAL, so a compositor
 * that went away is an EPIPE here, never a SIGPIPE. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wayland-client.h>

#include "../base/error.h"
#include "../base/log.h"
#include "fractional-scale-v1-client-protocol.h"
#include "linux-dmabuf-unstable-v1-client-protocol.h"
#include "presentation-time-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "window_internal.h"
#include "xdg-shell-client-protocol.h"

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

static void ping(void *data, struct xdg_wm_base *wm_base, uint32_t serial)
{
	(void)data;
	xdg_wm_base_pong(wm_base, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = {.ping = ping};

static void shm_format(void *data, struct wl_shm *shm, uint32_t format)
{
	(void)shm;
	struct sg_window *window = data;
	if (format == WL_SHM_FORMAT_XRGB8888)
		window->shm_xrgb = true;
}

static const struct wl_shm_listener shm_listener = {.format = shm_format};

static void clock_id(void *data, struct wp_presentation *presentation, uint32_t clk_id)
{
	(void)presentation;
	((struct sg_window *)data)->presentation_clock = clk_id;
}

static const struct wp_presentation_listener presentation_listener = {.clock_id = clock_id};

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
                   uint32_t version)
{
	struct sg_window *window = data;
	if (!strcmp(interface, wl_compositor_interface.name) && !window->compositor) {
		window->compositor_version = min_u32(version, 4);
		window->compositor = wl_registry_bind(registry, name, &wl_compositor_interface,
		                                      window->compositor_version);
	} else if (!strcmp(interface, wl_shm_interface.name) && !window->shm) {
		window->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
		wl_shm_add_listener(window->shm, &shm_listener, window);
	} else if (!strcmp(interface, xdg_wm_base_interface.name) && !window->wm_base) {
		window->wm_base = wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
		xdg_wm_base_add_listener(window->wm_base, &wm_base_listener, window);
	} else if (!strcmp(interface, zwp_linux_dmabuf_v1_interface.name) && !window->dmabuf &&
	           version >= 3) {
		window->dmabuf_version = min_u32(version, 4);
		window->dmabuf = wl_registry_bind(registry, name, &zwp_linux_dmabuf_v1_interface,
		                                  window->dmabuf_version);
		sg_window_dmabuf_bound(window);
	} else if (!strcmp(interface, wp_presentation_interface.name) && !window->presentation) {
		window->presentation = wl_registry_bind(registry, name, &wp_presentation_interface, 1);
		wp_presentation_add_listener(window->presentation, &presentation_listener, window);
	} else if (!strcmp(interface, wp_viewporter_interface.name) && !window->viewporter) {
		window->viewporter = wl_registry_bind(registry, name, &wp_viewporter_interface, 1);
	} else if (!strcmp(interface, wp_fractional_scale_manager_v1_interface.name) &&
	           !window->fractional_manager) {
		window->fractional_manager = wl_registry_bind(
		    registry, name, &wp_fractional_scale_manager_v1_interface, 1);
	} else if (!strcmp(interface, wl_seat_interface.name) && !window->seat) {
		window->seat = wl_registry_bind(registry, name, &wl_seat_interface, min_u32(version, 5));
		sg_window_seat_bound(window);
	} else if (!strcmp(interface, wl_output_interface.name)) {
		struct wl_output *output =
		    wl_registry_bind(registry, name, &wl_output_interface, min_u32(version, 2));
		sg_window_output_added(window, output, name);
	}
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name)
{
	(void)registry;
	sg_window_output_removed(data, name);
}

static const struct wl_registry_listener registry_listener = {
    .global = global,
    .global_remove = global_remove,
};

/* The socket as libwayland finds it, for messages. */
static void display_name(struct sg_window *window, const char *name)
{
	const char *inherited = getenv("WAYLAND_SOCKET");
	if (window->own_display && inherited) { /* libwayland takes it before any name */
		snprintf(window->display_name, sizeof(window->display_name), "WAYLAND_SOCKET=%s",
		         inherited);
		return;
	}
	const char *env = getenv("WAYLAND_DISPLAY");
	if (window->own_display && !name && !env)
		name = "wayland-0 (WAYLAND_DISPLAY is not set)";
	else if (!name)
		name = window->own_display ? env : "the caller's wl_display";
	const char *runtime = getenv("XDG_RUNTIME_DIR");
	if (window->own_display && name[0] != '/' && runtime)
		snprintf(window->display_name, sizeof(window->display_name), "%s/%s", runtime, name);
	else
		snprintf(window->display_name, sizeof(window->display_name), "%s", name);
}

static const char *missing_global(const struct sg_window *window)
{
	if (!window->compositor)
		return "wl_compositor";
	if (!window->wm_base)
		return "xdg_wm_base (the compositor has no xdg-shell)";
	if (!window->shm)
		return "wl_shm";
	return NULL;
}

/* True where libwayland could form no socket path: no WAYLAND_SOCKET (the
 * caller checks), a socket name that is not a path and no absolute
 * XDG_RUNTIME_DIR. */
static bool no_socket_path(const char *name)
{
	if (!name)
		name = getenv("WAYLAND_DISPLAY");
	const char *runtime = getenv("XDG_RUNTIME_DIR");
	return (!name || name[0] != '/') && (!runtime || runtime[0] != '/');
}

/* Why wl_display_connect failed, in the terms of what the user set. */
static sg_result connect_failed(struct sg_window *window, const char *name,
                                const char *inherited, int error)
{
	static const char call[] = "sg_window_create";
	if (inherited) {
		/* libwayland reads it as a number and returns with errno 0 when
		 * it is none ("Success" is no reason) */
		char *end;
		errno = 0;
		long fd = strtol(inherited, &end, 10);
		if (end == inherited || *end || errno || fd < 0 || fd > INT32_MAX)
			return sg_fail(SG_ERR_DEVICE,
			               "%s: WAYLAND_SOCKET is \"%s\", not the number of an inherited "
			               "connection's file descriptor (libwayland takes it before any "
			               "socket name)",
			               call, inherited);
		return sg_fail(SG_ERR_DEVICE,
		               "%s: no Wayland connection on WAYLAND_SOCKET=%s (libwayland takes it "
		               "before any socket name): wl_display_connect failed: %s",
		               call, inherited, strerror(error));
	}
	const char *runtime = getenv("XDG_RUNTIME_DIR");
	if (no_socket_path(name)) {
		if (!name)
			name = getenv("WAYLAND_DISPLAY");
		return sg_fail(SG_ERR_DEVICE,
		               "%s: no Wayland socket to connect to: XDG_RUNTIME_DIR is %s, and the "
		               "socket's name %s%s%s is not an absolute path",
		               call, runtime ? "not an absolute path" : "not set", name ? "\"" : "",
		               name ? name : "wayland-0 (WAYLAND_DISPLAY is not set)",
		               name ? "\"" : "");
	}
	return sg_fail(SG_ERR_DEVICE,
	               "%s: no Wayland compositor at %s: wl_display_connect failed: %s", call,
	               window->display_name, strerror(error));
}

sg_result sg_window_connect(struct sg_window *window, const struct sg_window_desc *desc)
{
	window->own_display = !desc->wl_display;
	display_name(window, desc->wl_display ? NULL : desc->display);
	if (desc->wl_display) {
		window->display = desc->wl_display;
	} else {
		/* read first: libwayland unsets it once it has taken the fd */
		char inherited[32];
		const char *socket = getenv("WAYLAND_SOCKET");
		if (socket)
			snprintf(inherited, sizeof(inherited), "%s", socket);
		/* With no socket path libwayland would print its own line on
		 * stderr before failing; ours names both settings instead. Its
		 * log handler is process-wide, so it stays the application's. */
		if (!socket && no_socket_path(desc->display))
			return connect_failed(window, desc->display, NULL, ENOENT);
		window->display = wl_display_connect(desc->display);
		if (!window->display)
			return connect_failed(window, desc->display, socket ? inherited : NULL, errno);
	}
	window->queue = wl_display_create_queue(window->display);
	window->wrapper = window->queue ? wl_proxy_create_wrapper(window->display) : NULL;
	if (!window->wrapper)
		return sg_fail(SG_ERR_NO_MEMORY, "sg_window_create: out of memory for an event queue");
	wl_proxy_set_queue((struct wl_proxy *)window->wrapper, window->queue);
	window->registry = wl_display_get_registry(window->wrapper);
	if (!window->registry)
		return sg_fail(SG_ERR_NO_MEMORY, "sg_window_create: wl_display.get_registry failed");
	wl_registry_add_listener(window->registry, &registry_listener, window);
	/* Two round trips: the globals, then what they send once bound (shm
	 * formats, dma-buf modifiers or feedback, outputs' scale, seat caps). */
	sg_result result = sg_window_roundtrip(window, "sg_window_create");
	if (!result)
		result = sg_window_roundtrip(window, "sg_window_create");
	if (result)
		return result;
	const char *missing = missing_global(window);
	if (missing)
		return sg_fail(SG_ERR_DEVICE, "sg_window_create: the compositor at %s offers no %s",
		               window->display_name, missing);
	return SG_OK;
}

void sg_window_disconnect(struct sg_window *window)
{
	for (int i = 0; i < window->output_count; i++)
		if (window->outputs[i].output)
			wl_output_destroy(window->outputs[i].output);
	window->output_count = 0;
	if (window->seat && wl_seat_get_version(window->seat) >= WL_SEAT_RELEASE_SINCE_VERSION)
		wl_seat_release(window->seat);
	else if (window->seat)
		wl_seat_destroy(window->seat);
	if (window->fractional_manager)
		wp_fractional_scale_manager_v1_destroy(window->fractional_manager);
	if (window->viewporter)
		wp_viewporter_destroy(window->viewporter);
	if (window->presentation)
		wp_presentation_destroy(window->presentation);
	sg_window_dmabuf_finish(window);
	if (window->wm_base)
		xdg_wm_base_destroy(window->wm_base);
	if (window->shm)
		wl_shm_destroy(window->shm);
	if (window->compositor)
		wl_compositor_destroy(window->compositor);
	if (window->registry)
		wl_registry_destroy(window->registry);
	if (window->wrapper)
		wl_proxy_wrapper_destroy(window->wrapper);
	if (window->display && !window->broken)
		wl_display_flush(window->display);
	if (window->queue)
		wl_event_queue_destroy(window->queue);
	if (window->display && window->own_display)
		wl_display_disconnect(window->display);
	window->display = NULL;
}

sg_result sg_window_check(struct sg_window *window, const char *call)
{
	if (window->broken)
		return sg_fail(window->broken, "%s: %s", call, window->broken_message);
	int error = wl_display_get_error(window->display);
	if (!error)
		return SG_OK;
	/* libwayland keeps the error event's object and code whatever errno it
	 * chose: EPROTO for an interface's error, EINVAL, ENOMEM or EFAULT for
	 * wl_display's own (invalid_object, invalid_method, no_memory). */
	const struct wl_interface *interface = NULL;
	uint32_t id = 0;
	uint32_t code = wl_display_get_protocol_error(window->display, &interface, &id);
	if (interface || error == EPROTO)
		snprintf(window->broken_message, sizeof(window->broken_message),
		         "the compositor at %s sent protocol error %u on %s@%u and closed the "
		         "connection",
		         window->display_name, code, interface ? interface->name : "an object", id);
	else
		snprintf(window->broken_message, sizeof(window->broken_message),
		         "the connection to the compositor at %s is broken: %s",
		         window->display_name, strerror(error));
	window->broken = SG_ERR_DEVICE;
	return sg_fail(window->broken, "%s: %s", call, window->broken_message);
}

sg_result sg_window_roundtrip(struct sg_window *window, const char *call)
{
	if (window->broken)
		return sg_window_check(window, call);
	if (wl_display_roundtrip_queue(window->display, window->queue) < 0)
		return sg_window_check(window, call);
	return SG_OK;
}

sg_result sg_window_pump(struct sg_window *window, int timeout_ms, const char *call)
{
	struct wl_display *display = window->display;
	if (window->broken)
		return sg_window_check(window, call);
	while (wl_display_prepare_read_queue(display, window->queue) != 0)
		if (wl_display_dispatch_queue_pending(display, window->queue) < 0)
			return sg_window_check(window, call);
	/* What is not sent now waits for POLLOUT: a compositor that reads
	 * slowly does not block the caller, and the poll below wakes when it
	 * can take more, for the caller's next pump to send it. */
	/* EPIPE: the compositor closed its end. libwayland leaves the display
	 * usable so that what it sent last (a protocol error) can still be
	 * read: go on to the read, which ends in that error or in EOF. */
	bool unsent = false;
	while (wl_display_flush(display) < 0 && errno != EPIPE) {
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN) {
			unsent = true;
			break;
		}
		wl_display_cancel_read(display);
		return sg_window_check(window, call);
	}
	struct pollfd pfd = {.fd = wl_display_get_fd(display),
	                     .events = (short)(POLLIN | (unsent ? POLLOUT : 0))};
	int ready = poll(&pfd, 1, timeout_ms);
	window->interrupted = ready < 0 && errno == EINTR;
	if (ready <= 0) {
		int error = errno;
		wl_display_cancel_read(display);
		if (ready < 0 && error != EINTR)
			return sg_fail(SG_ERR_DEVICE, "%s: poll on the connection to %s failed: %s",
			               call, window->display_name, strerror(error));
		sg_window_feedback_overdue(window);
		return SG_OK;
	}
	if (!(pfd.revents & (POLLIN | POLLHUP | POLLERR))) {
		/* writable only: the rest is sent at the next pump */
		wl_display_cancel_read(display);
		return SG_OK;
	}
	if (wl_display_read_events(display) < 0 ||
	    wl_display_dispatch_queue_pending(display, window->queue) < 0)
		return sg_window_check(window, call);
	/* after the read: a feedback that came while the caller was busy is
	 * not taken for one that never comes */
	sg_window_feedback_overdue(window);
	return SG_OK;
}

sg_result sg_window_flush(struct sg_window *window, const char *call)
{
	while (wl_display_flush(window->display) < 0) {
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN)
			return SG_OK; /* the rest goes with the next pump */
		if (errno != EPIPE)
			return sg_window_check(window, call);
		/* Read what the compositor said before it closed (see sg_window_pump). */
		sg_result result = sg_window_pump(window, 0, call);
		if (result)
			return result;
		result = sg_window_check(window, call);
		if (result)
			return result;
		snprintf(window->broken_message, sizeof(window->broken_message),
		         "the connection to the compositor at %s is broken: %s",
		         window->display_name, strerror(EPIPE));
		window->broken = SG_ERR_DEVICE;
		return sg_fail(window->broken, "%s: %s", call, window->broken_message);
	}
	return SG_OK;
}
