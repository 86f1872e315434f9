/* Internal: showing framebuffers on one KMS output, step by step like
 * kmscube: a connected connector -> its preferred mode -> a CRTC (and its
 * primary plane) -> modeset (atomic where the driver accepts
 * DRM_CLIENT_CAP_ATOMIC, else drmModeSetCrtc) -> page flips with events. */
#ifndef SG_OUTPUT_KMS_H
#define SG_OUTPUT_KMS_H

#include <stdbool.h>
#include <stdint.h>
#include <xf86drmMode.h>

#include <sg/error.h>

struct sg_kms_output {
	int fd;                        /* a primary node; not owned */
	bool atomic; /* modesets go through drmModeAtomicCommit */
	uint32_t connector_id, crtc_id, plane_id;
	int crtc_index;
	char name[32]; /* connector, e.g. "Virtual-1" */
	drmModeModeInfo mode;
	uint32_t mode_blob;
	uint32_t fb_id; /* on screen now; 0 before the first sg_kms_output_show() */
	bool flip_pending;
};

/* Picks the first connected connector, its preferred mode (else its first),
 * a CRTC its encoders can drive and that CRTC's primary plane. allow_atomic
 * false forces the legacy path. SG_ERR_NOT_FOUND when nothing is connected. */
sg_result sg_kms_output_init(struct sg_kms_output *output, int fd, bool allow_atomic);
/* Turns the CRTC off if this output lit it; accepts a zeroed output. */
void sg_kms_output_finish(struct sg_kms_output *output);

/* Whether the primary plane scans out fourcc (DRM_FORMAT_*). */
bool sg_kms_output_supports(const struct sg_kms_output *output, uint32_t fourcc);

/* drmModeAddFB2 of one plane of a buffer (a dumb buffer's handle, or a
 * gbm_bo's / imported dma-buf's). Remove it with drmModeRmFB. */
sg_result sg_kms_add_fb(int fd, uint32_t width, uint32_t height, uint32_t fourcc, uint32_t handle,
                        uint32_t stride, uint32_t offset, uint32_t *fb_id);

/* Modeset showing fb_id (which must be mode-sized). */
sg_result sg_kms_output_show(struct sg_kms_output *output, uint32_t fb_id);
/* drmModePageFlip to fb_id with DRM_MODE_PAGE_FLIP_EVENT, then waits up to
 * timeout_ms for the event: on return fb_id is on screen. */
sg_result sg_kms_output_flip(struct sg_kms_output *output, uint32_t fb_id, int timeout_ms);

#endif
