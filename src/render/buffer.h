/* Internal: a renderer drawing into buffers it is handed (as wlroots'
 * wlr_renderer_begin_buffer_pass), made by its target and owned by the
 * caller: src/output/'s ring of scanout buffers, the damage tests' rings of
 * plain ones. sg_renderer_render is a draw into the renderer's own buffer.
 *
 * Damage: the renderer computes each frame's damage once (src/traverse/
 * damage.c keeps the last frames'); a buffer carries the frame it last held,
 * so a draw repaints what the buffer lacks and says what changed in it. The
 * owner of a set of buffers keeps no history of its own. */
#ifndef SG_RENDER_BUFFER_H
#define SG_RENDER_BUFFER_H

#include <stdbool.h>
#include <stdint.h>

#include <sg/renderer.h>

#include "../target/buffer.h"
#include "../traverse/damage.h"

struct sg_render_buffer {
	struct sg_target_buffer *target_buffer;
	/* The renderer's frame the buffer last held whole and right; 0: unknown
	 * (new, or its owner lost track of it, as after a failed commit). */
	uint64_t frame;
};

/* desc: see src/target/buffer.h. The renderer must outlive the buffer. */
sg_result sg_renderer_buffer_create(struct sg_renderer *renderer,
                                    const struct sg_buffer_desc *desc,
                                    struct sg_render_buffer **out);
/* NULL is ignored. */
void sg_renderer_buffer_destroy(struct sg_renderer *renderer, struct sg_render_buffer *buffer);

/* A dma-buf of buffer (one made with desc->scanout) for another process, as
 * sg_renderer_export_dmabuf gives the renderer's own: the caller closes fd. */
sg_result sg_renderer_buffer_export(struct sg_renderer *renderer,
                                    struct sg_render_buffer *buffer, struct sg_dmabuf *dmabuf);

/* Whether the target has a device to make scanout buffers on (false on
 * surfaceless: create() says why the renderer is not on one). */
bool sg_renderer_makes_scanouts(const struct sg_renderer *renderer);
/* Scanout: whether the target makes buffers of format (false on surfaceless),
 * and the modifiers EGL renders to for it. */
bool sg_renderer_scanout_format(struct sg_renderer *renderer, uint32_t format);
int sg_renderer_render_modifiers(struct sg_renderer *renderer, uint32_t format,
                                 uint64_t *modifiers, int max);
/* Whether draws can end in a native fence (EGL_ANDROID_native_fence_sync). */
bool sg_renderer_has_native_fence(const struct sg_renderer *renderer);

struct sg_render_pass {
	struct sg_render_buffer *buffer; /* NULL: the renderer's own */
	/* NULL: glFinish, as sg_renderer_render; else a sync_file of the draw in
	 * *fence_fd (the caller's) and no wait, or -1 after glFinish where EGL
	 * has no native fences. */
	int *fence_fd;
	const char *call; /* the public function, for messages */
	/* Set by the draw: the frame buffer now holds (0 without damage
	 * tracking), and what changed in it (full: all of it). */
	uint64_t frame;
	struct sg_damage_region changed;
};

/* Draws scene into pass->buffer; it becomes the one the read-back calls read. */
sg_result sg_renderer_draw(struct sg_renderer *renderer, const struct sg_scene *scene,
                           const struct sg_camera *camera, struct sg_render_pass *pass);

/* What a copy of a frame taken at frame (0: none) lacks against the last
 * draw's: the union of the damage since (full without damage tracking). */
void sg_renderer_damage_since(struct sg_renderer *renderer, uint64_t frame,
                              struct sg_damage_region *region);

/* What a caller set on a renderer through the public calls: culling,
 * damage tracking (and SG_DEBUG_DAMAGE's tint), the clear colour; a
 * window's renderer made anew at a resize takes its predecessor's. */
struct sg_renderer_settings {
	bool culling, damage_tracking, debug_damage;
	float clear_color[4];
};
void sg_renderer_get_settings(const struct sg_renderer *renderer,
                              struct sg_renderer_settings *settings);
void sg_renderer_apply_settings(struct sg_renderer *renderer,
                                const struct sg_renderer_settings *settings);

/* Draws turned: each frame is a picture of the target's size (swapped for a
 * quarter turn; the default camera's), shown in the buffers with rotation
 * (a KMS plane that cannot turn). Damage, clips and 3D views follow, all in
 * buffer pixels; picks stay in the picture's. The next draw is whole. */
sg_result sg_renderer_set_rotation(struct sg_renderer *renderer, enum sg_rotation rotation);

/* Reads back the rectangles rects[0, count) of the last draw into rgba (the
 * whole image's layout, rows of stride bytes: each rectangle where it lies);
 * count < 0 reads all of it. Rectangles are clipped to the output. */
sg_result sg_renderer_read_rects(struct sg_renderer *renderer, const struct sg_rect *rects,
                                 int count, void *rgba, size_t stride);

#endif
