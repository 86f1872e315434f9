/* A Wayland compositor just large enough for one sg_window, run in a thread
 * of the test process: wl_compositor 4, wl_shm (libwayland-server's own),
 * xdg_wm_base 1 and zwp_linux_dmabuf_v1 4 with a default feedback naming a
 * DRM device, and where asked wp_presentation 1. It shows nothing: each
 * commit of a buffer is copied (the dma-buf mapped and read between
 * DMA_BUF_IOCTL_SYNC start and end, or the wl_shm buffer read) into a
 * record the test reads, with the commit's damage; then the buffer attached
 * before is released and the frame callbacks are done. The test thread reads records and counts through the
 * functions below, which lock; nothing else of it is touched outside its
 * thread. */
#ifndef SG_DRM_MINI_COMPOSITOR_H
#define SG_DRM_MINI_COMPOSITOR_H

#include <stdbool.h>
#include <stdint.h>

#define MINI_MAX_MODIFIERS 8
#define MINI_MAX_DAMAGE 32

struct mini_compositor_desc {
	/* The toplevel's configure; 0 x 0 lets the client choose. */
	int width, height;
	/* Offered for XRGB8888 and ARGB8888 in the one tranche; none:
	 * DRM_FORMAT_MOD_INVALID and DRM_FORMAT_MOD_LINEAR. */
	uint64_t modifiers[MINI_MAX_MODIFIERS];
	int modifier_count;
	/* main_device and the tranche's target: its st_rdev; NULL: /dev/dri/card0. */
	const char *device;
	/* wl_compositor's version: 1 .. 4; 0: 4. */
	int compositor_version;
	/* Each commit's pixels are still read (as a compositor samples them),
	 * then dropped with the record: for long runs (mini-compositor). */
	bool discard_records;
	/* Without linux-dmabuf (device unused: runs where no DRM device is),
	 * without xdg_wm_base, with a wl_seat (5) of pointer, touch and a
	 * keyboard whose keymap types 'a' and 'A' (mini_compositor_send). */
	bool no_dmabuf, no_wm_base, seat;
	/* > 0: wp_viewporter and wp_fractional_scale_manager_v1, the preferred
	 * scale this many 120ths (180: 1.5), sent when the client asks. */
	int fractional_120;
	/* > 0: after the first commit with a buffer, a configure of this size
	 * sent before that commit's frame callbacks are done (as cage does
	 * once it maps a toplevel). */
	int reconfigure_width, reconfigure_height;
	/* wp_presentation 1 (CLOCK_MONOTONIC): its feedbacks presented at
	 * the commit after the frame callbacks are done, or never answered
	 * (as sway 1.7), or one frame late: a commit's feedback presented
	 * after the next commit's frame callback (a compositor that renders
	 * ahead). */
	enum mini_presentation {
		MINI_PRESENTATION_NONE,
		MINI_PRESENTATION_ANSWERED,
		MINI_PRESENTATION_UNANSWERED,
		MINI_PRESENTATION_ONE_LATE,
	} presentation;
};

/* What the test thread has the compositor send (mini_compositor_send), to
 * the surface made last: input in surface coordinates, a toplevel's close
 * or configure, or a protocol error on its xdg_surface. */
enum mini_event_kind {
	MINI_POINTER_MOTION = 1, /* x, y (the first one enters the surface) */
	MINI_POINTER_BUTTON,     /* code (BTN_*), pressed */
	MINI_TOUCH_DOWN,         /* id, x, y */
	MINI_TOUCH_UP,           /* id */
	MINI_KEY,                /* code (KEY_*), pressed; shift: the Shift modifier held */
	MINI_CLOSE,              /* xdg_toplevel.close */
	MINI_PROTOCOL_ERROR,     /* xdg_surface error not_constructed, posted */
	MINI_CONFIGURE,          /* a toplevel configure of x by y */
};
struct mini_event {
	enum mini_event_kind kind;
	double x, y;
	int32_t id;
	uint32_t code;
	bool pressed, shift;
};

enum mini_buffer_kind {
	MINI_BUFFER_DMABUF = 1,
	MINI_BUFFER_SHM,
};

struct mini_rect {
	int32_t x, y, width, height;
};

/* One wl_surface.commit with a buffer attached. */
struct mini_commit {
	int commit; /* of all commits of the surface (buffer or not), 1 for the first */
	int buffer; /* which dma-buf wl_buffer (0, 1, ... in the order made), -1: shm */
	enum mini_buffer_kind kind;
	int width, height;
	uint32_t format;   /* DRM_FORMAT_*; shm's formats as their DRM twins */
	uint64_t modifier; /* the params' (dma-buf) */
	/* wl_surface.damage_buffer and .damage (the same at scale 1) since the
	 * last commit; overflow: more than MINI_MAX_DAMAGE, the first kept. */
	int damage_count;
	bool damage_overflow;
	struct mini_rect damage[MINI_MAX_DAMAGE];
	uint8_t *pixels; /* width * height * 4, rows packed, as in format; NULL: unreadable */
	char error[128]; /* why pixels is NULL */
};

struct mini_stats {
	int clients;         /* connected now */
	int commits;         /* wl_surface.commit, with or without a buffer */
	int buffer_commits;  /* of them with a buffer attached: the records */
	int buffers_created; /* dma-buf wl_buffers made (create and create_immed) */
	int buffers_destroyed;
	int params_failed;       /* zwp_linux_buffer_params_v1 refused */
	int feedbacks;           /* default and surface feedbacks sent */
	int feedbacks_destroyed; /* of them by the client's destroy (not at disconnect) */
	int configures;
	int acked;                           /* xdg_surface.ack_configure */
	int releases;                        /* wl_buffer.release sent */
	int viewport_width, viewport_height; /* the last wp_viewport.set_destination */
	int presentation_feedbacks;          /* wp_presentation.feedback asked for */
	int presented;                       /* of them answered with presented */
};

/* Listens at an absolute path in a new mkdtemp folder and starts the
 * thread. NULL on failure (printed). */
struct mini_compositor *mini_compositor_start(const struct mini_compositor_desc *desc);
/* The socket's absolute path: sg_window_desc.display. */
const char *mini_compositor_socket(const struct mini_compositor *compositor);
void mini_compositor_stats(struct mini_compositor *compositor, struct mini_stats *stats);
/* Copies record index (0 for the first buffer commit) into commit; its
 * pixels are the caller's to free. false when there is no such record yet. */
bool mini_compositor_commit(struct mini_compositor *compositor, int index,
                            struct mini_commit *commit);
/* Has the compositor's thread send event (see enum mini_event_kind). */
void mini_compositor_send(struct mini_compositor *compositor, const struct mini_event *event);
/* Waits up to timeout_ms until no client is connected. */
bool mini_compositor_wait_no_clients(struct mini_compositor *compositor, int timeout_ms);
/* Ends the thread, disconnects the clients, frees everything and removes
 * the socket and its folder. Accepts NULL. */
void mini_compositor_stop(struct mini_compositor *compositor);

#endif
