/* Internal: the CRTC, connector and plane state found at create, put back
 * at destroy (as kmscube's and Plymouth's renderers do on exit). */
#ifndef SG_OUTPUT_RESTORE_H
#define SG_OUTPUT_RESTORE_H

#include <stdbool.h>
#include <stdint.h>
#include <xf86drmMode.h>

#include "choose.h"
#include "props.h"

struct sg_output_saved {
	bool valid;
	/* drmModeGetCrtc */
	uint32_t buffer_id, x, y;
	bool mode_valid;
	drmModeModeInfo mode;
	bool connector_on_crtc; /* the connector was lit by this CRTC */
	/* atomic: the values of the properties the output commits */
	bool atomic;
	uint64_t connector_crtc, active, plane_fb, plane_crtc, plane_src[4], plane_dst[4];
};

void sg_output_save(int fd, bool atomic, const struct sg_output_choice *choice,
                    const struct sg_output_props *props, struct sg_output_saved *saved);

/* Atomic: one commit of the saved property values (a new mode blob for the
 * saved mode: the old one may be gone once nothing uses it); where that is
 * refused, and in legacy, drmModeSetCrtc of the saved CRTC; where that is
 * refused too (its framebuffer was removed), the CRTC off. */
sg_result sg_output_restore(int fd, const struct sg_output_choice *choice,
                            const struct sg_output_props *props,
                            const struct sg_output_saved *saved);

#endif
