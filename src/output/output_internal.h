/* Internal: the state of a public sg_output, and (in the tests' build of
 * this layer only) the hooks the drm suite uses to capture frames through a
 * writeback connector. Included by src/output/ and by the drm suite
 * (tests/drm/output_test.h, test_output_vkms.c). */
#ifndef SG_OUTPUT_OUTPUT_INTERNAL_H
#define SG_OUTPUT_OUTPUT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <xf86drmMode.h>

#include <sg/output.h>
#include <sg/renderer.h>

#include "../render/buffer.h"

#include "choose.h"
#include "dumb.h"
#include "props.h"
#include "restore.h"

#define SG_OUTPUT_MAX_BUFFERS 3
/* A buffer's damage: what changed in it since it last held a frame
 * (src/render/buffer.h), as few rectangles as one frame's. */
#define SG_OUTPUT_MAX_CLIPS SG_DAMAGE_MAX_RECTS

#ifdef SG_OUTPUT_TEST_HOOKS
/* For tests only (tests/drm/test_output.c), compiled into the output layer
 * of the tests alone (sg_output_testing, built with SG_OUTPUT_TEST_HOOKS;
 * libsg has neither the hooks nor their calls): vkms shows frames to no one,
 * so the suite drives its writeback connector and reads back each commit. */
struct sg_output_test_hooks {
	/* Sets DRM_CLIENT_CAP_WRITEBACK_CONNECTORS and lets desc->connector name a
	 * writeback connector (never chosen otherwise). */
	bool writeback;
	/* Called with every atomic commit before it is made (legacy: never). */
	void (*commit)(drmModeAtomicReqPtr request, void *data);
	/* Called with every atomic page flip (not the modeset) before it is made,
	 * where the plane has FB_DAMAGE_CLIPS or damage_blobs is set: the blob
	 * (0: the whole output, count -1) and its rectangles. The blob is
	 * destroyed right after the commit. */
	void (*damage)(uint32_t blob_id, const struct drm_mode_rect *clips, int count, void *data);
	/* Makes the blobs (and calls damage) also where the plane lacks
	 * FB_DAMAGE_CLIPS, without committing them: virtio-gpu and vkms of our
	 * 6.1 guests lack it, and the clips and the blobs' lifetime still get
	 * checked there. */
	bool damage_blobs;
	void *data;
};

struct sg_output *sg_output_create_for_testing(const struct sg_output_desc *desc,
                                               const struct sg_output_test_hooks *hooks);
/* What a hook asks for where one is read as a flag; constant false in libsg. */
#define SG_OUTPUT_HOOK(output, field) ((output)->hooks.field)
#else
#define SG_OUTPUT_HOOK(output, field) false
#endif

enum sg_output_buffer_state {
	SG_BUFFER_FREE,
	SG_BUFFER_QUEUED,  /* rendered, waiting for the pending flip to complete */
	SG_BUFFER_PENDING, /* committed, its flip not yet completed */
	SG_BUFFER_SHOWN,   /* on screen */
};

struct sg_output_buffer {
	/* Zero-copy: the renderer draws into it, and knows the frame it holds. */
	struct sg_render_buffer *render;
	/* Copy path: filled from the renderer's own buffer; held is the
	 * renderer's frame it holds (0: unknown). */
	struct sg_dumb_buffer dumb;
	uint64_t held;
	uint32_t fb_id;
	enum sg_output_buffer_state state;
	uint64_t frame; /* the output's frame number, for sg_output_flip */
	int fence_fd;   /* queued: the render's sync_file, -1 when none */
	/* What changed in it with its frame, in framebuffer pixels: -1 the
	 * whole buffer (the clips of its commit and, copy path, what is copied). */
	int clip_count;
	struct drm_mode_rect clips[SG_OUTPUT_MAX_CLIPS];
};

struct sg_output {
	int fd;
	bool own_fd;
	struct sg_output_choice choice;
	struct sg_output_props props;
	struct sg_output_saved saved;
	bool atomic;
	uint32_t mode_blob;
	struct sg_renderer *renderer;
	struct sg_output_buffer buffers[SG_OUTPUT_MAX_BUFFERS];
	int buffer_count;
	bool lit;           /* the first commit was made: destroy must restore */
	bool closing;       /* in destroy: completions call nothing and commit nothing */
	sg_result deferred; /* a queued frame's commit failed in the flip handler */
	uint64_t frames;
	int out_fence_fd;
	uint8_t *staging; /* copy path: the render read back as RGBA */
	sg_output_flip_fn on_flip;
	void *user_data;
#ifdef SG_OUTPUT_TEST_HOOKS
	struct sg_output_test_hooks hooks;
#endif
	struct sg_output_info info;
	char device[256], path_reason[512], renderer_name[160];
};

/* present.c: commits and completions. */
sg_result sg_output_commit(struct sg_output *output, struct sg_output_buffer *buffer,
                           bool test_only);
/* Blocks up to timeout_ms (-1: forever) for one event; false on timeout. */
sg_result sg_output_read_events(struct sg_output *output, int timeout_ms);

/* formats.c: the zero-copy ring (the reason for the copy path otherwise). */
sg_result sg_output_setup_buffers(struct sg_output *output, const struct sg_output_desc *desc);
void sg_output_free_buffers(struct sg_output *output);
/* Every buffer's contents unknown (a render or commit failed, so that the
 * screen or a driver's copy may hold an older frame): each next repaint is whole. */
void sg_output_forget_buffers(struct sg_output *output);

#endif
