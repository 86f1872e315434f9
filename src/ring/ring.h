/* Internal: the ring of buffers a presenter (a KMS output, a Wayland window)
 * hands its frames out in, and what changed in each. One owner for both:
 * the presenter adds what it shows (a framebuffer, a wl_buffer) beside each
 * slot and decides when a slot is free again.
 *
 * Two ways to fill a slot: zero-copy, the renderer draws straight into the
 * slot's buffer (a gbm_bo the display or compositor reads); copy, it draws
 * into its own buffer and what the slot's CPU memory lacks is read back and
 * written there as XRGB8888 (dumb buffers, wl_shm pools).
 *
 * Damage: the renderer keeps it (src/render/buffer.h). A slot's clips are
 * what changed in it since the frame it last held; that is what the copy
 * path copies and what a KMS flip passes as FB_DAMAGE_CLIPS. */
#ifndef SG_RING_RING_H
#define SG_RING_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sg/renderer.h>

#include "../render/buffer.h"

#define SG_RING_MAX_SLOTS 3
#define SG_RING_MAX_CLIPS SG_DAMAGE_MAX_RECTS

enum sg_ring_state {
	SG_RING_FREE,
	SG_RING_QUEUED,  /* rendered, waiting for the presenter's turn */
	SG_RING_PENDING, /* handed out, not yet shown */
	SG_RING_SHOWN,   /* shown (or held by the compositor) */
};

/* Copy path: XRGB8888 memory the presenter mapped (a dumb buffer, a wl_shm
 * pool's part); not owned by the ring. */
struct sg_ring_cpu {
	uint8_t *pixels;
	uint32_t width, height, stride;
};

struct sg_ring_slot {
	struct sg_render_buffer *render; /* zero-copy: the renderer draws into it */
	struct sg_ring_cpu cpu;          /* copy path */
	uint64_t held;                   /* copy path: the renderer's frame cpu holds, 0 unknown */
	enum sg_ring_state state;
	uint64_t frame; /* the presenter's frame number of its last draw */
	int fence_fd;   /* the draw's sync_file, -1 none; the presenter takes it */
	/* What changed in it with its last draw, in buffer pixels: -1 all of it. */
	int clip_count;
	struct sg_rect clips[SG_RING_MAX_CLIPS];
};

struct sg_ring {
	struct sg_renderer *renderer; /* not owned */
	bool copy;
	int width, height;
	uint8_t *staging; /* copy path: the render read back as RGBA */
	int count;
	struct sg_ring_slot slots[SG_RING_MAX_SLOTS];
	uint64_t frames; /* draws made: the last slot drawn has frame == frames */
	uint64_t drawn;  /* the renderer's frame of the last draw (0: no damage tracking) */
};

/* An empty ring of width x height on renderer; copy: the copy path (makes the
 * staging image). */
sg_result sg_ring_init(struct sg_ring *ring, struct sg_renderer *renderer, int width, int height,
                       bool copy);
/* Destroys the render buffers, closes fences, frees the staging image; the
 * CPU memory stays the presenter's. Safe on a zeroed or finished ring. */
void sg_ring_finish(struct sg_ring *ring);

/* A new slot: zero-copy, a buffer the renderer makes from desc; copy, cpu
 * (desc NULL). NULL and an error when the ring is full or the buffer fails. */
struct sg_ring_slot *sg_ring_add(struct sg_ring *ring, const struct sg_buffer_desc *desc,
                                 const struct sg_ring_cpu *cpu);

/* The first slot in state, NULL when none. */
struct sg_ring_slot *sg_ring_find(struct sg_ring *ring, enum sg_ring_state state);

/* Every slot's contents unknown (a draw or hand-out failed, and a screen or
 * a compositor's copy may hold an older frame): each next draw is whole. */
void sg_ring_forget(struct sg_ring *ring);

/* Draws scene into slot (fence: ask for a sync_file in slot->fence_fd where
 * EGL has them) and sets its clips; copy path: copies what its memory lacks.
 * On failure the ring is forgotten. */
sg_result sg_ring_draw(struct sg_ring *ring, struct sg_ring_slot *slot, const struct sg_scene *scene,
                       const struct sg_camera *camera, bool fence, const char *call);

/* Writes the RGBA8 pixels of one rectangle of an image (stride bytes a row)
 * into cpu at the same place as XRGB8888, clamped to cpu's size. */
void sg_ring_write_xrgb(const struct sg_ring_cpu *cpu, const void *rgba, size_t stride, int x,
                        int y, int width, int height);

#endif
