/* libsg: rendering a scene offscreen into a buffer.
 *
 * A renderer owns one render target (a GBM buffer object on a DRM node, or an
 * EGL surfaceless framebuffer), an EGL context and the GL objects it uploaded.
 * A renderer may be used from any thread, one thread at a time; two renderers on
 * two threads work in parallel (each has its own EGL context). */
#ifndef SG_RENDERER_H
#define SG_RENDERER_H

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

struct sg_renderer;

/* enum sg_target_kind: <sg/types.h>. */
struct gbm_device;

struct sg_renderer_desc {
	int width, height;          /* output size in pixels, 1 .. 16384 */
	enum sg_target_kind target; /* AUTO: the SG_TARGET environment variable
	                               ("gbm", "surfaceless") may force one */
	const char *device;         /* DRM node for GBM; NULL: SG_DEVICE, else drmGetDevices2 */
	/* A DRM node the caller opened itself (a compositor, logind's TakeDevice):
	 * GBM renders on it. libsg neither duplicates nor closes it, so it must stay
	 * open until the renderer is destroyed. Read only when has_drm_fd is true,
	 * so that a zeroed desc means none and fd 0 stays possible. */
	bool has_drm_fd;
	int drm_fd;
	/* A gbm_device the caller made: GBM renders on it; libsg does not destroy
	 * it, so it (and its fd) must outlive the renderer. EGL hands out one
	 * display per gbm_device, so libsg shares the caller's: a display the
	 * caller initialised before creating the renderer is never terminated by
	 * libsg; one it initialises later ends with libsg's last renderer on it. */
	struct gbm_device *gbm_device;
	/* true: SG_TARGET and SG_DEVICE are not read, the desc alone decides. They
	 * are never read when the desc names a device (device, drm_fd, gbm_device). */
	bool ignore_environment;
};

/* What the renderer runs on: for logs and bug reports. Strings are owned by the renderer. */
struct sg_renderer_info {
	enum sg_target_kind target;
	const char *target_name; /* "gbm" or "surfaceless" */
	const char *reason;      /* why this target was chosen */
	const char *device;      /* DRM node path, or "" */
	const char *egl_vendor;
	const char *egl_driver;  /* Mesa driver name (EGL_MESA_query_driver), or "" */
	const char *gl_renderer;
	const char *gl_version;
	int width, height;
};

/* Returns NULL on failure; sg_last_error() names the device, EGL or GL call that failed. */
SG_API struct sg_renderer *sg_renderer_create_sized(const struct sg_renderer_desc *desc,
                                                    size_t size);
#define sg_renderer_create(...)                                                                    \
	sg_renderer_create_sized(__VA_ARGS__, sizeof(struct sg_renderer_desc))
/* Accepts NULL. */
SG_API void sg_renderer_destroy(struct sg_renderer *renderer);
SG_API const struct sg_renderer_info *sg_renderer_get_info(const struct sg_renderer *renderer);

/* Default: opaque black (0, 0, 0, 1). Components in [0, 1], straight alpha: the
 * buffer is cleared to its premultiplied value (r*a, g*a, b*a, a), so a
 * transparent clear colour gives a render with transparent pixels where
 * nothing is drawn. */
SG_API sg_result sg_renderer_set_clear_color(struct sg_renderer *renderer, float r, float g, float b,
                                             float a);

/* Clears the output and draws the scene depth-first, left to right, each model
 * with the product of the matrices above it. camera NULL: sg_camera_init_pixels()
 * over the output size. Finishes the GPU work before returning.
 * The scene is only read: the renderer keeps its own world matrices, brought
 * up to date from the scene's record of edits (only the subtrees under edited
 * transforms are recomputed), so several renderers on several threads may
 * draw one scene at once, while nothing edits it (docs/api.md). */
SG_API sg_result sg_renderer_render(struct sg_renderer *renderer, const struct sg_scene *scene,
                                    const struct sg_camera *camera);

/* Frustum culling (default off): subtrees whose world-space bounding box is
 * outside the view are skipped. Boxes are recomputed after any edit of the
 * scene, so culling pays off for scenes seen from a moving camera, or much
 * larger than the view. Models skipped this way are not checked for destroyed
 * textures or meshes. */
SG_API sg_result sg_renderer_set_culling(struct sg_renderer *renderer, bool enabled);

/* Damage tracking (default on; docs/damage.md). A render repaints only the
 * pixels that can have changed since the buffer it draws into was last drawn:
 * the old and new output-space boxes of every model whose matrix, mesh,
 * texture (sg_texture_update), colour, opacity or visibility changed, or that
 * was added, removed or moved in the tree. A new camera, clear colour, scene
 * or culling setting repaints everything, as does the first render into each
 * buffer. The picture is the same as a full repaint's, to the byte.
 * With the environment variable SG_DEBUG_DAMAGE=1 the repainted region is
 * tinted (and pictures are then no longer equal). Off: every render repaints
 * the whole output. */
SG_API sg_result sg_renderer_set_damage_tracking(struct sg_renderer *renderer, bool enabled);

/* struct sg_rect and SG_DAMAGE_MAX_RECTS: <sg/types.h>. */
/* The damage of the last render: the rectangles (disjoint, at most
 * SG_DAMAGE_MAX_RECTS) outside which its picture equals the picture before it,
 * whatever buffer either was drawn into, for callers that present elsewhere
 * (a Wayland client's damage_buffer, a VNC server, an encoder). Writes up to
 * max of them to rects and returns how many there are: 0 when nothing
 * changed, one covering the output after a full repaint. -1 (with
 * sg_last_error()) when renderer is NULL, max is negative, rects is NULL with
 * max above 0, nothing was rendered yet, or another thread is in a call on
 * the renderer (SG_ERR_BUSY). */
SG_API int sg_renderer_get_damage(const struct sg_renderer *renderer, struct sg_rect *rects,
                                  int max);

/* What the last sg_renderer_render() did. */
struct sg_render_stats {
	size_t world_updates; /* world matrices recomputed */
	size_t nodes_visited; /* nodes walked to build the draw list (0 when it was cached) */
	size_t draws;         /* models in the picture */
	size_t redraws;       /* models drawn again: those touching the repainted region */
	size_t batches;       /* draw calls: models of one texture and mesh go in one */
	/* Wall-clock nanoseconds of the phases of the render (CLOCK_MONOTONIC). */
	uint64_t traverse_ns; /* world matrices and draw list */
	uint64_t submit_ns;   /* issuing GL work, uploads included */
	uint64_t finish_ns;   /* glFinish: waiting for the GPU */
	uint64_t world_ns;    /* the world-matrix update part of traverse_ns */
	/* Damage tracking: the pixels repainted (cleared and drawn over; the
	 * whole output without it), in how many rectangles, and the wall-clock
	 * nanoseconds spent finding them (part of traverse_ns). */
	uint64_t repainted_pixels;
	int repainted_rects;
	uint64_t damage_ns;
};
SG_API sg_result sg_renderer_get_stats_sized(const struct sg_renderer *renderer,
                                             struct sg_render_stats *stats, size_t size);
#define sg_renderer_get_stats(...)                                                                 \
	sg_renderer_get_stats_sized(__VA_ARGS__, sizeof(struct sg_render_stats))

/* Copies the last render as RGBA8, top row first, stride bytes per row (0 means
 * width * 4), with premultiplied alpha as the buffer object holds it (see
 * sg_image_unpremultiply() in sg/image.h). */
SG_API sg_result sg_renderer_read_pixels(struct sg_renderer *renderer, void *rgba, size_t stride);

/* Writes the last render as an 8-bit RGBA PNG with straight alpha (the pixels
 * of sg_renderer_read_pixels through sg_image_unpremultiply) with
 * sg_image_write_png (sg/image.h):
 * a regular file (or a symlink's final target) is replaced atomically keeping its
 * mode and owner, so a failure never leaves a truncated file and keeps an existing
 * one intact; a device or FIFO such as /dev/null is written in place, never
 * replaced; a socket or directory is refused. For standard output, read the pixels
 * with sg_renderer_read_pixels and write them with sg_image_write_png_fd. */
SG_API sg_result sg_renderer_write_png(struct sg_renderer *renderer, const char *path);

/* A dma-buf of the output buffer object (struct sg_dmabuf: <sg/types.h>); GBM
 * target only, SG_ERR_UNSUPPORTED otherwise. */
SG_API sg_result sg_renderer_export_dmabuf_sized(struct sg_renderer *renderer,
                                                 struct sg_dmabuf *dmabuf, size_t size);
#define sg_renderer_export_dmabuf(...)                                                             \
	sg_renderer_export_dmabuf_sized(__VA_ARGS__, sizeof(struct sg_dmabuf))

#ifdef __cplusplus
}
#endif

#endif
