#include <string.h>
#include <xf86drmMode.h>

#include "../base/error.h"
#include "props.h"

bool sg_kms_prop(int fd, uint32_t object, uint32_t type, const char *name, uint32_t *id,
                 uint64_t *value)
{
	drmModeObjectPropertiesPtr props = drmModeObjectGetProperties(fd, object, type);
	bool found = false;
	for (uint32_t i = 0; props && i < props->count_props && !found; i++) {
		drmModePropertyPtr prop = drmModeGetProperty(fd, props->props[i]);
		if (prop && strcmp(prop->name, name) == 0) {
			found = true;
			if (id)
				*id = prop->prop_id;
			if (value)
				*value = props->prop_values[i];
		}
		drmModeFreeProperty(prop);
	}
	drmModeFreeObjectProperties(props);
	return found;
}

sg_result sg_output_props_find(int fd, const struct sg_output_choice *choice,
                               struct sg_output_props *props)
{
	*props = (struct sg_output_props){0};
	const uint32_t C = DRM_MODE_OBJECT_CONNECTOR, R = DRM_MODE_OBJECT_CRTC,
	               P = DRM_MODE_OBJECT_PLANE;
	const struct {
		uint32_t object, type;
		const char *name;
		uint32_t *id;
	} wanted[] = {
	    {choice->connector_id, C, "CRTC_ID", &props->connector_crtc_id},
	    {choice->crtc_id, R, "MODE_ID", &props->crtc_mode_id},
	    {choice->crtc_id, R, "ACTIVE", &props->crtc_active},
	    {choice->plane_id, P, "FB_ID", &props->plane_fb_id},
	    {choice->plane_id, P, "CRTC_ID", &props->plane_crtc_id},
	    {choice->plane_id, P, "SRC_X", &props->plane_src[0]},
	    {choice->plane_id, P, "SRC_Y", &props->plane_src[1]},
	    {choice->plane_id, P, "SRC_W", &props->plane_src[2]},
	    {choice->plane_id, P, "SRC_H", &props->plane_src[3]},
	    {choice->plane_id, P, "CRTC_X", &props->plane_crtc[0]},
	    {choice->plane_id, P, "CRTC_Y", &props->plane_crtc[1]},
	    {choice->plane_id, P, "CRTC_W", &props->plane_crtc[2]},
	    {choice->plane_id, P, "CRTC_H", &props->plane_crtc[3]},
	};
	for (size_t i = 0; i < sizeof(wanted) / sizeof(wanted[0]); i++)
		if (!sg_kms_prop(fd, wanted[i].object, wanted[i].type, wanted[i].name, wanted[i].id,
		                 NULL))
			return sg_fail(
			    SG_ERR_DEVICE, "object %u (for %s on %s) has no atomic property %s",
			    wanted[i].object, choice->connector, choice->node, wanted[i].name);
	sg_kms_prop(fd, choice->crtc_id, R, "OUT_FENCE_PTR", &props->crtc_out_fence_ptr, NULL);
	sg_kms_prop(fd, choice->plane_id, P, "IN_FENCE_FD", &props->plane_in_fence_fd, NULL);
	sg_kms_prop(fd, choice->plane_id, P, "FB_DAMAGE_CLIPS", &props->plane_fb_damage_clips,
	            NULL);
	return SG_OK;
}
