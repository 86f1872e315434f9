/* The ring of buffers shared by the KMS output and the Wayland window. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "ring.h"

sg_result sg_ring_init(struct sg_ring *ring, struct sg_renderer *renderer, int width, int height,
                       bool copy)
{
	*ring = (struct sg_ring){.renderer = renderer, .copy = copy, .width = width, .height = height};
	for (int i = 0; i < SG_RING_MAX_SLOTS; i++)
		ring->slots[i].fence_fd = -1;
	if (!copy)
		return SG_OK;
	ring->staging = sg_malloc((size_t)width * (size_t)height * 4);
	if (!ring->staging)
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory for a %dx%d copy buffer", width,
		               height);
	return SG_OK;
}

void sg_ring_finish(struct sg_ring *ring)
{
	for (int i = 0; i < ring->count; i++) {
		struct sg_ring_slot *slot = &ring->slots[i];
		if (slot->fence_fd >= 0)
			close(slot->fence_fd);
		if (slot->render)
			sg_renderer_buffer_destroy(ring->renderer, slot->render);
		*slot = (struct sg_ring_slot){.fence_fd = -1};
	}
	ring->count = 0;
	sg_free(ring->staging);
	ring->staging = NULL;
}

struct sg_ring_slot *sg_ring_add(struct sg_ring *ring, const struct sg_buffer_desc *desc,
                                 const struct sg_ring_cpu *cpu)
{
	if (ring->count == SG_RING_MAX_SLOTS) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "a ring holds at most %d buffers",
		        SG_RING_MAX_SLOTS);
		return NULL;
	}
	struct sg_ring_slot *slot = &ring->slots[ring->count];
	*slot = (struct sg_ring_slot){.fence_fd = -1};
	if (desc && sg_renderer_buffer_create(ring->renderer, desc, &slot->render))
		return NULL;
	if (cpu)
		slot->cpu = *cpu;
	ring->count++;
	return slot;
}

struct sg_ring_slot *sg_ring_find(struct sg_ring *ring, enum sg_ring_state state)
{
	for (int i = 0; i < ring->count; i++)
		if (ring->slots[i].state == state)
			return &ring->slots[i];
	return NULL;
}

void sg_ring_forget(struct sg_ring *ring)
{
	for (int i = 0; i < ring->count; i++) {
		ring->slots[i].held = 0;
		if (ring->slots[i].render)
			ring->slots[i].render->frame = 0;
	}
}

static bool whole(const struct sg_ring *ring, const struct sg_rect *r)
{
	return r->x <= 0 && r->y <= 0 && r->x + r->width >= ring->width &&
	       r->y + r->height >= ring->height;
}

static void set_clips(struct sg_ring *ring, struct sg_ring_slot *slot,
                      const struct sg_damage_region *changed)
{
	slot->clip_count = -1;
	if (changed->full || (changed->count == 1 && whole(ring, &changed->rects[0])))
		return;
	memcpy(slot->clips, changed->rects, sizeof(changed->rects[0]) * (size_t)changed->count);
	slot->clip_count = changed->count;
}

/* Copy path: the render read back where the slot's memory is older than it
 * (its clips; all of it without them) and written there. */
static sg_result copy_damage(struct sg_ring *ring, struct sg_ring_slot *slot)
{
	size_t stride = (size_t)ring->width * 4;
	sg_result result = sg_renderer_read_rects(ring->renderer, slot->clips, slot->clip_count,
	                                          ring->staging, stride);
	if (result)
		return result;
	if (slot->clip_count < 0)
		sg_ring_write_xrgb(&slot->cpu, ring->staging, stride, 0, 0, ring->width,
		                   ring->height);
	for (int i = 0; i < slot->clip_count; i++) {
		const struct sg_rect *r = &slot->clips[i];
		sg_ring_write_xrgb(&slot->cpu, ring->staging, stride, r->x, r->y, r->width,
		                   r->height);
	}
	return SG_OK;
}

sg_result sg_ring_draw(struct sg_ring *ring, struct sg_ring_slot *slot, const struct sg_scene *scene,
                       const struct sg_camera *camera, bool fence, const char *call)
{
	/* Copy path: into the renderer's own buffer, then what the memory lacks. */
	struct sg_render_pass pass = {
	    .buffer = ring->copy ? NULL : slot->render,
	    .fence_fd = fence && !ring->copy ? &slot->fence_fd : NULL,
	    .call = call,
	};
	sg_result result = sg_renderer_draw(ring->renderer, scene, camera, &pass);
	if (!result && ring->copy) {
		struct sg_damage_region lacks;
		sg_renderer_damage_since(ring->renderer, slot->held, &lacks);
		set_clips(ring, slot, &lacks);
		slot->held = 0; /* until it is copied */
		result = copy_damage(ring, slot);
		if (!result)
			slot->held = pass.frame;
	} else if (!result) {
		set_clips(ring, slot, &pass.changed);
	}
	if (result) {
		sg_ring_forget(ring); /* the next draws repaint all */
		return result;
	}
	slot->frame = ++ring->frames;
	ring->drawn = pass.frame;
	return SG_OK;
}

void sg_ring_write_xrgb(const struct sg_ring_cpu *cpu, const void *rgba, size_t stride, int x,
                        int y, int width, int height)
{
	/* Clamped, so that a rectangle reaching past an edge copies what is inside. */
	int x0 = x < 0 ? 0 : x, y0 = y < 0 ? 0 : y;
	int x1 = x + width, y1 = y + height;
	if (x1 > (int)cpu->width)
		x1 = (int)cpu->width;
	if (y1 > (int)cpu->height)
		y1 = (int)cpu->height;
	for (int row = y0; row < y1; row++) {
		const uint8_t *src = (const uint8_t *)rgba + stride * (size_t)row + (size_t)x0 * 4;
		/* XRGB8888 is a little-endian word: B, G, R, X in memory. */
		uint8_t *dst = cpu->pixels + (size_t)cpu->stride * (size_t)row + (size_t)x0 * 4;
		for (int col = x0; col < x1; col++, src += 4, dst += 4) {
			dst[0] = src[2];
			dst[1] = src[1];
			dst[2] = src[0];
			dst[3] = 0xff;
		}
	}
}
