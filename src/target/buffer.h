/* Internal: a buffer a renderer draws into, made by its target and handed to
 * each draw (as wlroots' wlr_renderer_begin_buffer_pass takes a wlr_buffer):
 * the target's own offscreen buffer, plain ones of any target (the damage
 * tests' rings), and buffers a KMS plane scans out (src/output/'s ring). Who
 * makes a buffer owns it and destroys it before the target. */
#ifndef SG_TARGET_BUFFER_H
#define SG_TARGET_BUFFER_H

#include <stdbool.h>
#include <stdint.h>

#include "../gl/framebuffer.h"

/* Where a buffer's memory lies for another device: what
 * drmModeAddFB2WithModifiers needs. The handles belong to the target's DRM
 * fd and live as long as the buffer. */
struct sg_buffer_layout {
	uint32_t width, height, format;
	uint64_t modifier; /* DRM_FORMAT_MOD_INVALID: implicit (allocated without modifiers) */
	int plane_count;   /* 0: GL memory alone, nothing to share */
	uint32_t handles[4], strides[4], offsets[4];
};

/* What to make: scanout false, a plain RGBA8 buffer of the target's size on
 * any target; true, one a KMS plane scans out in format, with one of
 * modifiers (count 0: an implicit layout). */
struct sg_buffer_desc {
	bool scanout;
	uint32_t format;
	const uint64_t *modifiers;
	int modifier_count;
};

struct sg_target_buffer {
	struct sg_gl_framebuffer fb;
	struct sg_buffer_layout layout;
	bool plain; /* made by target.c: GL storage, read with glReadPixels */
};

#endif
