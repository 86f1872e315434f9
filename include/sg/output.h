/* libsg: showing a scene on a display through KMS.
 *
 * An output drives one connector of a DRM card (primary) node: it picks a
 * connector, a mode, a CRTC and that CRTC's primary plane, renders each frame
 * with its own renderer (GBM on the same node) into the next free buffer of a
 * ring of scanout buffers and commits it with a non-blocking page flip.
 * sg_output_destroy() puts back the CRTC, connector and plane state it found.
 *
 * Pacing: sg_output_present() never blocks on the display. When every buffer
 * of the ring is on screen, waiting to be flipped or queued, it returns
 * SG_ERR_BUSY. Flip completions are read from sg_output_get_fd() (poll it for
 * POLLIN in your event loop) by sg_output_dispatch(), which calls the
 * desc's on_flip; or, without an event loop, sg_output_wait() blocks for one.
 *
 * Signals: do not call sg_output_destroy() (or any libsg function) from a
 * signal handler. Let the SIGINT/SIGTERM handler set a volatile sig_atomic_t
 * flag, let the present/dispatch loop see it and return, and call
 * sg_output_destroy() there: that restores the display. sg_output_wait() and
 * sg_output_dispatch() return early (SG_OK) when a signal interrupts them, so
 * the loop sees the flag within one frame.
 *
 * An output is used from one thread at a time. See docs/output.md. */
#ifndef SG_OUTPUT_H
#define SG_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sg/camera.h>
#include <sg/error.h>
#include <sg/export.h>
#include <sg/scene.h>
#include <sg/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sg_output;
struct sg_renderer;

/* One page flip that completed: the frame it put on screen is now visible. */
struct sg_output_flip {
	uint64_t frame;    /* which sg_output_present() call: 1 for the first after create */
	uint32_t sequence; /* the CRTC's vblank counter from the kernel's event */
	uint32_t tv_sec;   /* when it became visible (CLOCK_MONOTONIC, the kernel's */
	uint32_t tv_usec;  /* vblank timestamp), seconds and microseconds */
};

/* Called by sg_output_dispatch() / sg_output_wait(), once per completed flip,
 * in order. It may call sg_output_present() (to keep the display busy), but
 * not sg_output_destroy(). */
typedef void (*sg_output_flip_fn)(struct sg_output *output, const struct sg_output_flip *flip,
                                  void *user_data);

struct sg_output_desc {
	/* The node: a DRM card (primary) node path such as "/dev/dri/card0".
	 * NULL and no drm_fd: the first card node drmGetDevices2 lists whose driver
	 * does KMS. libsg opens and closes a node it opened itself. */
	const char *device;
	/* Or a card node the caller opened (read-write), e.g. from logind's
	 * TakeDevice: read only when has_drm_fd is true (a zeroed desc means none,
	 * fd 0 stays possible). libsg neither duplicates nor closes it; the caller
	 * closes it after sg_output_destroy(). libsg sets client caps on it
	 * (UNIVERSAL_PLANES, ATOMIC unless force_legacy) and reads its events.
	 * Several outputs (one per connector) may share one fd: the dispatch of
	 * any of them reads every flip event and calls the on_flip of the
	 * output that committed it (docs/output.md, "Several displays"). */
	bool has_drm_fd;
	int drm_fd;
	/* A connector name as the kernel's sysfs and modetest spell it ("HDMI-A-1",
	 * "DP-2", "Virtual-1"); NULL: the first connected connector. */
	const char *connector;
	/* The mode: 0 / 0: the connector's preferred mode (else its first). Else
	 * a mode of exactly width x height, at refresh Hz when refresh is not 0
	 * (the highest refresh of that size otherwise). */
	int width, height;
	int refresh;
	/* DRM_FORMAT_* fourccs to scan out, in order of preference, e.g.
	 * {DRM_FORMAT_XRGB2101010, DRM_FORMAT_XRGB8888}. NULL / 0: XRGB8888 then
	 * ARGB8888. The first one that the primary plane and EGL both take (with a
	 * modifier they share) is used; the array is read only during create. */
	const uint32_t *formats;
	size_t format_count;
	/* Buffers in the ring: 2 or 3; 0 means 3 (one on screen, one waiting for
	 * its flip, one to render the next frame into). */
	int buffer_count;
	/* drmModeSetCrtc + drmModePageFlip even where the driver offers atomic
	 * modesetting (for tests, and drivers whose atomic support is broken). */
	bool force_legacy;
	/* Render into an offscreen buffer and copy by CPU into dumb buffers even
	 * where zero-copy scanout works (for comparisons and benchmarks). */
	bool force_copy;
	/* Straight-alpha clear colour, components in [0, 1]; zeroed: black. The
	 * X formats ignore alpha. */
	float clear_color[4];
	/* How the picture stands on the panel (enum sg_rotation, sg/types.h),
	 * on top of the connector's "panel orientation" property (a panel
	 * mounted sideways in its case) unless ignore_panel_orientation. The
	 * picture is then the mode's size, swapped for a quarter turn
	 * (info's picture_width and picture_height): the default camera's, and
	 * what input (sg/input.h) and sg_input_pick() want. libsg renders it
	 * turned into the scanout buffers, so zero-copy, damage and fences stay;
	 * the planes' "rotation" property is not used yet (docs/output.md). */
	enum sg_rotation rotation;
	bool ignore_panel_orientation;
	/* Page-flip completions (NULL: none; sg_output_set_flip_callback() sets it later). */
	sg_output_flip_fn on_flip;
	void *user_data;
};

enum sg_output_path {
	SG_OUTPUT_PATH_ZERO_COPY = 1, /* rendered straight into a gbm_bo that is scanned out */
	SG_OUTPUT_PATH_COPY,          /* rendered offscreen, copied by CPU into dumb buffers */
};

enum sg_output_fence {
	SG_OUTPUT_FENCE_GL_FINISH = 1, /* glFinish before each commit */
	SG_OUTPUT_FENCE_NATIVE, /* EGL_ANDROID_native_fence_sync fd as the plane's IN_FENCE_FD */
};

/* Strings are owned by the output, valid until sg_output_destroy(). */
struct sg_output_info {
	const char *device;         /* the node path, or "fd N" for a caller's fd */
	const char *connector;      /* e.g. "Virtual-1" */
	const char *mode_name;      /* the kernel's, e.g. "1024x768" */
	int width, height, refresh; /* the mode; refresh in Hz */
	uint32_t connector_id, crtc_id, plane_id;
	uint32_t format; /* DRM_FORMAT_* scanned out */
	uint64_t
	    modifier; /* DRM_FORMAT_MOD_*; DRM_FORMAT_MOD_INVALID: implicit (driver's choice) */
	bool atomic;  /* drmModeAtomicCommit; false: drmModeSetCrtc + drmModePageFlip */
	int buffer_count;
	enum sg_output_path path;
	const char *path_reason; /* why this path: e.g. what the plane and EGL could not agree on */
	enum sg_output_fence fence;
	bool out_fence;       /* the CRTC's OUT_FENCE_PTR is requested with each commit */
	bool damage_clips;    /* page flips pass what changed as FB_DAMAGE_CLIPS (docs/output.md) */
	const char *renderer; /* the renderer's EGL driver / GL renderer, for logs */
	/* The turn frames are rendered with: desc's rotation after the panel's. */
	enum sg_rotation rotation;
	const char *panel_orientation; /* the connector's ("Right Side Up"), "" without one */
	int picture_width, picture_height; /* width x height, swapped for a quarter turn */
};

/* Opens (or takes) the node, picks the connector, mode, CRTC and primary plane,
 * makes the renderer and the ring of buffers, and checks the configuration
 * (an atomic TEST_ONLY commit). Nothing is shown before the first
 * sg_output_present(). Returns NULL on failure, with sg_last_error() naming
 * the node and connector: SG_ERR_INVALID_ARGUMENT (bad desc), SG_ERR_DEVICE
 * (node cannot be opened, permission denied, no KMS on it: a render node or
 * vgem, DRM master held by another process; the copy path's dumb buffers or
 * the TEST_ONLY commit refused), SG_ERR_NOT_FOUND (no connected connector, no
 * such connector, no such mode, no free CRTC that can drive it, no primary
 * plane), SG_ERR_UNSUPPORTED (the copy path, and the primary plane lists no
 * XRGB8888; libgbm or libdrm cannot be opened, which is checked before the
 * node is opened: docs/api.md), SG_ERR_NO_MEMORY (the output, the copy path's staging buffer,
 * drmModeAtomicAlloc), SG_ERR_EGL / SG_ERR_GL (the renderer). */
SG_API struct sg_output *sg_output_create_sized(const struct sg_output_desc *desc, size_t size);
#define sg_output_create(...) sg_output_create_sized(__VA_ARGS__, sizeof(struct sg_output_desc))

/* Waits (up to one second) for a flip still pending, restores the CRTC,
 * connector and plane state found at create, frees the buffers and closes the
 * node if libsg opened it. Accepts NULL. */
SG_API void sg_output_destroy(struct sg_output *output);

/* Never NULL for a valid output. */
SG_API const struct sg_output_info *sg_output_get_info(const struct sg_output *output);

/* Straight alpha, as sg_renderer_set_clear_color(); applies from the next present. */
SG_API sg_result sg_output_set_clear_color(struct sg_output *output, float r, float g, float b,
                                           float a);

/* Renders the scene into the next free buffer of the ring (camera NULL:
 * sg_camera_init_pixels() over the mode size, as sg_renderer_render()) and
 * commits it: the first present does the modeset, later ones a non-blocking
 * page flip. When a flip is still pending, the frame is queued and committed
 * by sg_output_dispatch() when that flip completes. Returns SG_ERR_BUSY
 * without rendering when no buffer is free (dispatch completions first);
 * SG_ERR_DEVICE when the kernel refuses the commit. */
SG_API sg_result sg_output_present(struct sg_output *output, const struct sg_scene *scene,
                                   const struct sg_camera *camera);

/* The DRM fd the output reads its events from: poll it for POLLIN and call
 * sg_output_dispatch() when it is readable. Owned by the output (or the caller
 * who passed it in); do not close or read it. */
SG_API int sg_output_get_fd(const struct sg_output *output);

/* Reads the flip completions that are ready, without blocking: calls on_flip
 * for each, and commits a queued frame. SG_OK also when none was ready. */
SG_API sg_result sg_output_dispatch(struct sg_output *output);

/* Blocks until at least one flip completes (and dispatches it, as
 * sg_output_dispatch()), timeout_ms passes (-1: no limit) or a signal arrives.
 * SG_OK at once when no flip is pending; SG_ERR_BUSY on timeout. */
SG_API sg_result sg_output_wait(struct sg_output *output, int timeout_ms);

/* Replaces the desc's on_flip and user_data. */
SG_API void sg_output_set_flip_callback(struct sg_output *output, sg_output_flip_fn on_flip,
                                        void *user_data);

/* For a login session switched away (a VT switch, or a seat daemon's
 * disable event): sg_output_pause() stops presenting (sg_output_present()
 * then returns SG_ERR_BUSY saying so) and drops DRM master where the output
 * holds it, so that the session switched to can drive the display.
 * sg_output_resume() takes master back (a seat daemon may have given it
 * already), sets the mode again at the next present and repaints every
 * buffer whole: another master may have changed the CRTC and scanned out
 * anything. Flips that were pending still complete through dispatch. Both
 * are no-ops when already in that state. A resume that cannot become
 * master fails (SG_ERR_DEVICE) and the output stays paused. DRM master
 * belongs to the open file: outputs sharing one fd are paused and resumed
 * together (pause each of them, so that none presents meanwhile). */
SG_API sg_result sg_output_pause(struct sg_output *output);
SG_API sg_result sg_output_resume(struct sg_output *output);
SG_API bool sg_output_is_paused(const struct sg_output *output);

/* The output's renderer (owned by the output): for sg_renderer_get_stats(),
 * sg_renderer_read_pixels() of the last frame, sg_renderer_set_culling(). */
SG_API struct sg_renderer *sg_output_get_renderer(struct sg_output *output);

/* --- Connectors and hotplug ---------------------------------------------- */

/* A connector of a card, as probed. */
struct sg_connector_state {
	char name[32];     /* "HDMI-A-1", as sg_output_desc.connector takes it */
	bool connected;    /* connected with at least one mode */
	int width, height; /* its preferred mode (else its first); 0 when not connected */
};

/* The connectors of the card behind drm_fd (a card node), probed now (a
 * probe may take a moment on real hardware): the first max in connectors
 * (NULL when max is 0), their number in *count. SG_ERR_DEVICE when the node
 * has no KMS. */
SG_API sg_result sg_output_list_connectors(int drm_fd, struct sg_connector_state *connectors,
                                           size_t max, size_t *count);

struct sg_hotplug;

/* A connector that appeared (connected true) or went away, found at a
 * dispatch or probe. It may create and destroy outputs, but not destroy
 * the hotplug. */
typedef void (*sg_hotplug_fn)(struct sg_hotplug *hotplug,
                              const struct sg_connector_state *connector, void *user_data);

struct sg_hotplug_desc {
	int drm_fd; /* the card node to watch; the caller's, read only */
	sg_hotplug_fn on_change;
	void *user_data;
};

/* Watches the card for connectors plugged in or out: the kernel's change
 * events of its node (through udev where systemd-udevd runs, else straight
 * from the kernel), after each of which sg_hotplug_dispatch() probes the
 * connectors and calls on_change for each whose state changed since the
 * last probe (create probes once: no calls for what is connected then).
 * Create and destroy outputs from on_change as connectors come and go; a
 * program started with no display waits on sg_hotplug_get_fd(). NULL on
 * failure (SG_ERR_DEVICE naming the udev call; SG_ERR_UNSUPPORTED in a
 * libsg built without libudev). */
SG_API struct sg_hotplug *sg_hotplug_create_sized(const struct sg_hotplug_desc *desc, size_t size);
#define sg_hotplug_create(...) sg_hotplug_create_sized(__VA_ARGS__, sizeof(struct sg_hotplug_desc))
SG_API void sg_hotplug_destroy(struct sg_hotplug *hotplug);
/* Poll for POLLIN, then sg_hotplug_dispatch() (which never blocks). */
SG_API int sg_hotplug_get_fd(const struct sg_hotplug *hotplug);
SG_API sg_result sg_hotplug_dispatch(struct sg_hotplug *hotplug);
/* Probes now and reports what changed, without an event: after a session
 * comes back (sg_output_resume), since the kernel fully probes connectors
 * only for the DRM master, and a display plugged in meanwhile may have
 * looked disconnected. */
SG_API sg_result sg_hotplug_probe(struct sg_hotplug *hotplug);

#ifdef __cplusplus
}
#endif

#endif
