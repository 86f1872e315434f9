/* Test code of the kms suite: showing framebuffers on one KMS output, step
 * by step like kmscube: a connected connector -> its preferred mode -> a CRTC
 * (and its primary plane) -> modeset (atomic where the driver accepts
 * DRM_CLIENT_CAP_ATOMIC, else drmModeSetCrtc) -> page flips with events.
 * libsg's own path is the public sg_output (src/output/output.c). */
#ifndef SG_DRM_KMS_OUTPUT_H
#define SG_DRM_KMS_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <xf86drmMode.h>

#include <sg/error.h>

struct kms_output {
	int fd;      /* a primary node; not owned */
	bool atomic; /* modesets go through drmModeAtomicCommit */
	uint32_t connector_id, crtc_id, plane_id;
	int crtc_index;
	char name[32]; /* connector, e.g. "Virtual-1" */
	drmModeModeInfo mode;
	uint32_t mode_blob;
	uint32_t fb_id; /* on screen now; 0 before the first kms_output_show() */
	bool flip_pending;
};

/* Picks the first connected connector, its preferred mode (else its first),
 * a CRTC its encoders can drive and that CRTC's primary plane. allow_atomic
 * false forces the legacy path. SG_ERR_NOT_FOUND when nothing is connected. */
sg_result kms_output_init(struct kms_output *output, int fd, bool allow_atomic);
/* Turns the CRTC off if this output lit it; accepts a zeroed output. */
void kms_output_finish(struct kms_output *output);

/* Whether the primary plane scans out fourcc (DRM_FORMAT_*). */
bool kms_output_supports(const struct kms_output *output, uint32_t fourcc);

/* Modeset showing fb_id (which must be mode-sized). */
sg_result kms_output_show(struct kms_output *output, uint32_t fb_id);
/* drmModePageFlip to fb_id with DRM_MODE_PAGE_FLIP_EVENT, then waits up to
 * timeout_ms for the event: on return fb_id is on screen. */
sg_result kms_output_flip(struct kms_output *output, uint32_t fb_id, int timeout_ms);

#endif
