/* libsg: showing a scene in a Wayland window.
 *
 * A window is an xdg_toplevel of a Wayland compositor (GNOME, KDE, sway,
 * weston, cage) whose frames libsg renders with its own renderer into a ring
 * of buffers and hands to the compositor, as sg_output (sg/output.h) does to
 * a KMS plane:
 * - dma-buf path: the renderer is on a DRM device (GBM) and draws into
 *   gbm_bo that are shared with the compositor through zwp_linux_dmabuf_v1
 *   (its version 4 feedback chooses the device, format and modifier): no copy;
 * - shm path: where that is impossible (a surfaceless renderer, a compositor
 *   without linux-dmabuf or that takes none of the formats), frames are read
 *   back and copied into wl_shm buffers. The info says which and why.
 *
 * Each present sends the compositor only what changed (wl_surface.
 * damage_buffer from the renderer's damage); a scene that did not change
 * commits nothing. Pacing: sg_window_present() renders at most one frame per
 * frame callback the compositor sends (SG_ERR_BUSY until it asks for the
 * next), so a hidden window costs nothing and frames are never made faster
 * than they are shown. Events (configure, close, scale, input, frame
 * completion) arrive on sg_window_get_fd(): poll it for POLLIN and call
 * sg_window_dispatch(), or block in sg_window_wait().
 *
 * Sizes: the window's buffer size in pixels is its surface size (what the
 * compositor configures, in logical units) times the scale: the integer
 * scale of the wl_outputs it is on (wl_surface.set_buffer_scale), or
 * wp_fractional_scale_v1's with wp_viewporter where the compositor offers
 * them. The camera NULL and input events use buffer pixels.
 *
 * Errors name the global, request or call: no compositor, a compositor
 * without xdg_wm_base or wl_shm, a protocol error, and a compositor that went
 * away (every later call fails with SG_ERR_DEVICE; libsg never dies of
 * SIGPIPE). A window is used from one thread at a time. See docs/window.md. */
#ifndef SG_WINDOW_H
#define SG_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sg/camera.h>
#include <sg/error.h>
#include <sg/export.h>
#include <sg/input.h>
#include <sg/scene.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sg_window;
struct sg_renderer;
struct wl_display;

/* One frame the compositor has shown (or dropped). */
struct sg_window_frame {
	uint64_t frame; /* which sg_window_present() that committed: 1 for the first */
	/* true: wp_presentation says when it turned into light: tv_sec/tv_nsec
	 * on the compositor's presentation clock (clock_id, usually
	 * CLOCK_MONOTONIC), refresh_ns the display's period (0 unknown).
	 * false: no wp_presentation; the time is the frame callback's
	 * (milliseconds, same clock as the compositor's, tv_sec/tv_nsec from it). */
	bool presented;
	bool discarded; /* wp_presentation: replaced before it was shown */
	uint32_t clock_id;
	uint64_t tv_sec;
	uint32_t tv_nsec;
	uint32_t refresh_ns;
};

typedef void (*sg_window_frame_fn)(struct sg_window *window, const struct sg_window_frame *frame,
                                   void *user_data);
/* The compositor asked to close (xdg_toplevel.close): the window stays until
 * sg_window_destroy(). */
typedef void (*sg_window_close_fn)(struct sg_window *window, void *user_data);
/* The buffer size or scale changed (a configure, a scale change): the next
 * present renders at width x height buffer pixels; the caller's camera
 * (when it passes one) should follow. */
typedef void (*sg_window_resize_fn)(struct sg_window *window, int width, int height, double scale,
                                    void *user_data);
typedef void (*sg_window_input_fn)(struct sg_window *window, const struct sg_input_event *event,
                                   void *user_data);

struct sg_window_desc {
	/* The compositor's socket: a name under $XDG_RUNTIME_DIR or an absolute
	 * path. NULL: $WAYLAND_DISPLAY (libwayland's rule). Ignored when
	 * wl_display is set. */
	const char *display;
	/* Or a connection the caller made and dispatches its own objects on:
	 * libsg keeps its objects on a queue of its own, reads the same fd and
	 * never closes it (destroy the window before wl_display_disconnect). */
	struct wl_display *wl_display;
	const char *title;  /* xdg_toplevel.set_title; NULL: "libsg" */
	const char *app_id; /* xdg_toplevel.set_app_id; NULL: none */
	/* Size in surface (logical) pixels until the compositor decides: 0 / 0:
	 * 640 x 480. The compositor's configure wins (fullscreen, tiling). */
	int width, height;
	bool fullscreen; /* xdg_toplevel.set_fullscreen (kiosk compositors do it anyway) */
	/* Buffers in the ring: 2 or 3; 0 means 3. */
	int buffer_count;
	/* The shm path even where dma-bufs would work (comparisons, benchmarks). */
	bool force_shm;
	/* The renderer's DRM node for the dma-buf path; NULL: the device the
	 * compositor's linux-dmabuf feedback names, else as sg_renderer_create. */
	const char *device;
	float clear_color[4]; /* straight alpha; zeroed: opaque black (as the surface is opaque) */
	sg_window_frame_fn on_frame;
	sg_window_close_fn on_close;
	sg_window_resize_fn on_resize;
	sg_window_input_fn on_input;
	void *user_data;
};

enum sg_window_path {
	SG_WINDOW_PATH_DMABUF = 1, /* rendered into gbm_bo the compositor imports */
	SG_WINDOW_PATH_SHM,        /* rendered, read back and copied into wl_shm buffers */
};

/* Strings owned by the window, valid until sg_window_destroy(). */
struct sg_window_info {
	const char *display;      /* the socket, or "caller's wl_display" */
	int width, height;        /* buffer pixels of the last configure */
	double scale;             /* buffer pixels per surface pixel */
	bool fractional_scale;    /* wp_fractional_scale_v1 + wp_viewporter in use */
	bool presentation;        /* wp_presentation timestamps */
	int dmabuf_version;       /* zwp_linux_dmabuf_v1 version bound, 0 none */
	enum sg_window_path path;
	const char *path_reason;  /* why this path */
	uint32_t format;          /* DRM_FORMAT_* (shm: its wl_shm twin) */
	uint64_t modifier;        /* dma-buf path; DRM_FORMAT_MOD_INVALID: implicit */
	int buffer_count;
	const char *renderer;     /* the renderer's EGL driver / GL renderer */
};

/* Connects (or takes the caller's connection), binds the globals, makes the
 * xdg_toplevel and waits for its first configure (at most 5 s), then makes
 * the renderer and the ring. Nothing is shown before the first present.
 * NULL on failure, with sg_last_error(): SG_ERR_UNSUPPORTED (libsg built
 * without Wayland), SG_ERR_DEVICE (no compositor at the socket, a missing
 * global such as xdg_wm_base or wl_shm, a protocol error, no configure),
 * SG_ERR_INVALID_ARGUMENT, SG_ERR_NO_MEMORY, SG_ERR_EGL / SG_ERR_GL. */
SG_API struct sg_window *sg_window_create_sized(const struct sg_window_desc *desc, size_t size);
#define sg_window_create(...) sg_window_create_sized(__VA_ARGS__, sizeof(struct sg_window_desc))
/* Destroys the surface and buffers and disconnects (unless the connection is
 * the caller's). Accepts NULL. */
SG_API void sg_window_destroy(struct sg_window *window);

SG_API const struct sg_window_info *sg_window_get_info(const struct sg_window *window);
SG_API sg_result sg_window_set_clear_color(struct sg_window *window, float r, float g, float b,
                                           float a);

/* Renders the scene into a free buffer (camera NULL: sg_camera_init_pixels()
 * over the buffer size), attaches it with its damage and commits. SG_OK and
 * no commit when nothing changed since the last commit. SG_ERR_BUSY without
 * rendering while the last frame's callback has not come (or every buffer is
 * held by the compositor): dispatch first. SG_ERR_DEVICE once the connection
 * is broken. A pending resize applies here: the ring is made anew at the new
 * size and the frame is whole. */
SG_API sg_result sg_window_present(struct sg_window *window, const struct sg_scene *scene,
                                   const struct sg_camera *camera);

/* The connection's fd (poll it for POLLIN); owned by the window or the caller. */
SG_API int sg_window_get_fd(const struct sg_window *window);
/* Reads and handles what the compositor sent, without blocking; flushes
 * requests. SG_OK also when nothing was there. */
SG_API sg_result sg_window_dispatch(struct sg_window *window);
/* Blocks until the compositor asks for the next frame (or sends anything
 * else), timeout_ms passes (-1: no limit; SG_ERR_BUSY then) or a signal
 * arrives (SG_OK). SG_OK at once when a frame may be presented now. */
SG_API sg_result sg_window_wait(struct sg_window *window, int timeout_ms);
/* xdg_toplevel.set_fullscreen / unset_fullscreen: the compositor answers
 * with a configure (a resize: on_resize, and the next present is whole). */
SG_API sg_result sg_window_set_fullscreen(struct sg_window *window, bool fullscreen);
/* Whether the compositor asked to close the window. */
SG_API bool sg_window_should_close(const struct sg_window *window);

/* The window's renderer (owned by it, made anew by a resize): for
 * sg_renderer_get_stats() and sg_renderer_read_pixels() of the last frame.
 * What is set on it (culling, damage tracking, the clear colour) carries
 * over to the renderer a resize makes. */
SG_API struct sg_renderer *sg_window_get_renderer(struct sg_window *window);

#ifdef __cplusplus
}
#endif

#endif
