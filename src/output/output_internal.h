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

#include "../ring/ring.h"

#include "choose.h"
#include "dumb.h"
#include "props.h"
#include "restore.h"

#define SG_OUTPUT_MAX_BUFFERS SG_RING_MAX_SLOTS

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

/* What the output adds to each slot of its ring (src/ring/ring.h): the
 * framebuffer the plane scans out, and on the copy path the dumb buffer the
 * slot's CPU memory is. */
struct sg_output_buffer {
	struct sg_dumb_buffer dumb;
	uint32_t fb_id;
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
	struct sg_ring ring;
	struct sg_output_buffer buffers[SG_OUTPUT_MAX_BUFFERS]; /* beside ring.slots */
	bool lit;           /* the first commit was made: destroy must restore */
	bool closing;       /* in destroy: completions call nothing and commit nothing */
	bool paused;        /* sg_output_pause: no presents, master given up */
	sg_result deferred; /* a queued frame's commit failed in the flip handler */
	int out_fence_fd;
	sg_output_flip_fn on_flip;
	void *user_data;
#ifdef SG_OUTPUT_TEST_HOOKS
	struct sg_output_test_hooks hooks;
#endif
	struct sg_output_info info;
	char device[256], path_reason[512], renderer_name[160];
};

/* present.c: commits and completions. */
sg_result sg_output_commit(struct sg_output *output, struct sg_ring_slot *slot, bool test_only);
/* Blocks up to timeout_ms (-1: forever) for one event; false on timeout. */
sg_result sg_output_read_events(struct sg_output *output, int timeout_ms);

/* formats.c: the zero-copy ring (the reason for the copy path otherwise). */
sg_result sg_output_setup_buffers(struct sg_output *output, const struct sg_output_desc *desc);
void sg_output_free_buffers(struct sg_output *output);
/* The framebuffer beside a slot of the ring. */
static inline struct sg_output_buffer *sg_output_buffer_of(struct sg_output *output,
                                                           const struct sg_ring_slot *slot)
{
	return &output->buffers[slot - output->ring.slots];
}

#endif
