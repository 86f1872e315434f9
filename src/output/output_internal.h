/* Internal to src/output/: the state of a public sg_output, and the hooks
 * the drm suite uses to capture frames through a writeback connector. */
#ifndef SG_OUTPUT_OUTPUT_INTERNAL_H
#define SG_OUTPUT_OUTPUT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <xf86drmMode.h>

#include <sg/output.h>

#include "choose.h"
#include "dumb.h"
#include "props.h"
#include "restore.h"

#define SG_OUTPUT_MAX_BUFFERS 3

/* For tests only (tests/drm/test_output.c): vkms shows frames to no one, so
 * the suite drives its writeback connector and reads back each commit. */
struct sg_output_test_hooks {
	/* Sets DRM_CLIENT_CAP_WRITEBACK_CONNECTORS and lets desc->connector name a
	 * writeback connector (never chosen otherwise). */
	bool writeback;
	/* Called with every atomic commit before it is made (legacy: never). */
	void (*commit)(drmModeAtomicReqPtr request, void *data);
	void *data;
};

struct sg_output *sg_output_create_for_testing(const struct sg_output_desc *desc,
                                               const struct sg_output_test_hooks *hooks);

enum sg_output_buffer_state {
	SG_BUFFER_FREE,
	SG_BUFFER_QUEUED,  /* rendered, waiting for the pending flip to complete */
	SG_BUFFER_PENDING, /* committed, its flip not yet completed */
	SG_BUFFER_SHOWN,   /* on screen */
};

struct sg_output_buffer {
	int index;                  /* the renderer's buffer (zero-copy) */
	struct sg_dumb_buffer dumb; /* copy path */
	uint32_t fb_id;
	enum sg_output_buffer_state state;
	uint64_t frame;
	int fence_fd; /* queued: the render's sync_file, -1 when none */
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
	struct sg_output_test_hooks hooks;
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

#endif
