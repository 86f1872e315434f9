/* Internal: KMS object properties by name, and the ones an output commits. */
#ifndef SG_OUTPUT_PROPS_H
#define SG_OUTPUT_PROPS_H

#include <stdbool.h>
#include <stdint.h>

#include <sg/error.h>

#include "choose.h"

/* The property name of object (DRM_MODE_OBJECT_*): its id and current value
 * (either may be NULL). false when the object has no such property. */
bool sg_kms_prop(int fd, uint32_t object, uint32_t type, const char *name, uint32_t *id,
                 uint64_t *value);

/* Property ids of the chosen connector, CRTC and plane; 0 where optional
 * (OUT_FENCE_PTR, IN_FENCE_FD, FB_DAMAGE_CLIPS) and absent. */
struct sg_output_props {
	uint32_t connector_crtc_id;
	uint32_t crtc_mode_id, crtc_active, crtc_out_fence_ptr;
	uint32_t plane_fb_id, plane_crtc_id, plane_src[4], plane_crtc[4], plane_in_fence_fd;
	uint32_t plane_fb_damage_clips;
};

/* SG_ERR_DEVICE naming the first required property missing. */
sg_result sg_output_props_find(int fd, const struct sg_output_choice *choice,
                               struct sg_output_props *props);

#endif
