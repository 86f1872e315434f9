/* Internal: the state of a public sg_window (include/sg/window.h), shared by
 * the files of src/window/: connect.c (connection, globals, errors),
 * surface.c (xdg_toplevel, configure, scale, frame callbacks and
 * presentation feedback), dmabuf.c and shm.c (the two kinds of buffers),
 * present.c (the ring, presenting, dispatch), input.c (the seat). */
#ifndef SG_WINDOW_WINDOW_INTERNAL_H
#define SG_WINDOW_WINDOW_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <sg/renderer.h>
#include <sg/window.h>

#include "../ring/ring.h"

#define SG_WINDOW_MAX_OUTPUTS 8
#define SG_WINDOW_MAX_FEEDBACKS 8
/* A frame whose frame callback came this long ago and whose presentation
 * feedback has not: the compositor does not answer feedbacks (sway 1.7). */
#define SG_WINDOW_FEEDBACK_WAIT_MS 1000
#define SG_WINDOW_MAX_MODIFIERS 64

struct wl_event_queue;
struct wl_registry;
struct wl_compositor;
struct wl_shm;
struct wl_shm_pool;
struct wl_surface;
struct wl_buffer;
struct wl_callback;
struct wl_output;
struct wl_seat;
struct wl_pointer;
struct wl_touch;
struct wl_keyboard;
struct xdg_wm_base;
struct xdg_surface;
struct xdg_toplevel;
struct zwp_linux_dmabuf_v1;
struct zwp_linux_dmabuf_feedback_v1;
struct wp_presentation;
struct wp_presentation_feedback;
struct wp_viewporter;
struct wp_viewport;
struct wp_fractional_scale_manager_v1;
struct wp_fractional_scale_v1;
struct xkb_context;
struct xkb_keymap;
struct xkb_state;

/* A wl_output the compositor announced, and whether the surface is on it. */
struct sg_window_output {
	struct wl_output *output;
	uint32_t name;
	int32_t scale;
	bool entered;
};

/* What the compositor can import as dma-bufs: for XRGB8888 and ARGB8888,
 * the modifiers it listed (v3 modifier events, or v4 feedback's tranches). */
struct sg_window_dmabuf_formats {
	uint64_t xrgb[SG_WINDOW_MAX_MODIFIERS];
	int xrgb_count;
	uint64_t argb[SG_WINDOW_MAX_MODIFIERS];
	int argb_count;
	/* v4 feedback: the object (kept until the window goes: destroying it
	 * belongs to whoever made it, and a caller's wl_display outlives the
	 * window), the main device, and the format table being read. */
	struct zwp_linux_dmabuf_feedback_v1 *feedback;
	bool has_device;
	dev_t device;
	void *table;
	size_t table_size;
	bool done;
};

/* What libsg adds to each slot of its ring: the wl_buffer, and on the shm
 * path the part of the pool the slot's CPU memory is. */
struct sg_window_buffer {
	struct wl_buffer *buffer;
	struct sg_window *window;
};

struct sg_window_feedback {
	struct wp_presentation_feedback *feedback;
	uint64_t frame;
	/* its frame callback came: when (the compositor's milliseconds, and
	 * CLOCK_MONOTONIC's) */
	bool called;
	uint32_t callback_ms;
	int64_t called_at_ms;
};

struct sg_window {
	/* Connection. */
	struct wl_display *display;
	bool own_display;
	struct wl_display *wrapper; /* the display on libsg's own queue */
	struct wl_event_queue *queue;
	struct wl_registry *registry;
	sg_result broken; /* set once the connection failed: every call says so */
	bool interrupted; /* the last pump's poll was cut short by a signal */
	char broken_message[512];

	/* Globals. */
	struct wl_compositor *compositor;
	uint32_t compositor_version;
	struct wl_shm *shm;
	bool shm_xrgb; /* wl_shm lists XRGB8888 (ARGB8888 is always there) */
	struct xdg_wm_base *wm_base;
	struct zwp_linux_dmabuf_v1 *dmabuf;
	uint32_t dmabuf_version;
	struct sg_window_dmabuf_formats dmabuf_formats;
	struct wp_presentation *presentation;
	uint32_t presentation_clock;
	struct wp_viewporter *viewporter;
	struct wp_fractional_scale_manager_v1 *fractional_manager;
	struct wl_seat *seat;
	struct sg_window_output outputs[SG_WINDOW_MAX_OUTPUTS];
	int output_count;

	/* The surface and its role. */
	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *toplevel;
	struct wp_viewport *viewport;
	struct wp_fractional_scale_v1 *fractional;
	bool configured;
	int configure_width, configure_height; /* of the toplevel configure being made */
	bool configure_fullscreen;
	int logical_width, logical_height; /* surface pixels, applied */
	int windowed_width, windowed_height; /* the last size not fullscreen (or the desc's) */
	int integer_scale;                 /* the largest of the entered outputs' */
	uint32_t fractional_120;           /* wp_fractional_scale_v1, 0 none yet */
	bool closed;

	/* Frames. */
	struct wl_callback *frame_callback; /* pending: no present until it is done */
	/* a presentation feedback was asked for with the pending frame
	 * callback's frame: it reports the frame, else the callback does */
	bool frame_feedback;
	/* the compositor left a frame's feedback unanswered after its frame
	 * callback: no more feedbacks are asked for, frame callbacks report */
	bool feedback_unanswered;
	struct sg_window_feedback feedbacks[SG_WINDOW_MAX_FEEDBACKS];
	uint64_t commits;
	uint64_t committed; /* the renderer's frame the surface shows, 0: none or unknown */

	/* Rendering. */
	struct sg_renderer *renderer;
	struct sg_ring ring;
	struct sg_window_buffer buffers[SG_RING_MAX_SLOTS];
	struct wl_shm_pool *pool;
	void *pool_map;
	size_t pool_size;
	int width, height;    /* buffer pixels of the ring */
	bool ring_stale;      /* the size or scale changed: make the ring anew */
	bool geometry_stale;  /* buffer scale, viewport and opaque region go with the next commit */
	float clear_color[4];

	/* Input. */
	struct wl_pointer *pointer;
	struct wl_touch *touch;
	struct wl_keyboard *keyboard;
	bool pointer_in, keyboard_in; /* the focus is on libsg's surface, not another of the caller's */
	double pointer_x, pointer_y;
	double touch_x[16], touch_y[16];
	int32_t touch_id[16];
	struct xkb_context *xkb;
	struct xkb_keymap *keymap;
	struct xkb_state *xkb_state;

	struct sg_window_desc desc; /* strings not kept */
	struct sg_window_info info;
	char display_name[256], path_reason[512], renderer_name[160], device[256];
};

/* connect.c */
sg_result sg_window_connect(struct sg_window *window, const struct sg_window_desc *desc);
void sg_window_disconnect(struct sg_window *window);
/* SG_ERR_DEVICE naming the protocol error or the lost connection (also kept
 * in window->broken); SG_OK while the connection is good. */
sg_result sg_window_check(struct sg_window *window, const char *call);
/* Reads and dispatches: waits up to timeout_ms (0: not at all, -1: no limit)
 * for something to read; window->interrupted: a signal cut the wait short. */
sg_result sg_window_pump(struct sg_window *window, int timeout_ms, const char *call);
/* Sends what is queued; a closed connection is an error naming why. */
sg_result sg_window_flush(struct sg_window *window, const char *call);
sg_result sg_window_roundtrip(struct sg_window *window, const char *call);

/* surface.c */
sg_result sg_window_make_surface(struct sg_window *window, const struct sg_window_desc *desc);
void sg_window_destroy_surface(struct sg_window *window);
void sg_window_output_added(struct sg_window *window, struct wl_output *output, uint32_t name);
void sg_window_output_removed(struct sg_window *window, uint32_t name);
/* Before a commit: a frame callback and a presentation feedback for frame. */
void sg_window_request_frame(struct sg_window *window, uint64_t frame);
/* Frames whose feedback is SG_WINDOW_FEEDBACK_WAIT_MS late after their frame
 * callback are reported by it (after each pump's read). */
void sg_window_feedback_overdue(struct sg_window *window);
/* The buffer size of the logical size and scale; true when it differs from the ring's. */
bool sg_window_update_size(struct sg_window *window);
double sg_window_scale(const struct sg_window *window);

/* dmabuf.c */
void sg_window_dmabuf_bound(struct sg_window *window);
void sg_window_dmabuf_finish(struct sg_window *window);
/* The render node the compositor's feedback names, "" when none. */
void sg_window_dmabuf_device(struct sg_window *window, char *path, size_t size);
/* The ring in dma-bufs; false (and why in reason) when it cannot be made. */
bool sg_window_dmabuf_ring(struct sg_window *window, int buffers, char *reason, size_t size);

/* shm.c */
sg_result sg_window_shm_ring(struct sg_window *window, int buffers);
void sg_window_free_buffers(struct sg_window *window);
/* wl_buffer.release for both kinds. */
extern const struct wl_buffer_listener sg_window_buffer_listener;

/* present.c */
sg_result sg_window_make_ring(struct sg_window *window);

/* input.c */
void sg_window_seat_bound(struct sg_window *window);
void sg_window_input_finish(struct sg_window *window);

#endif
