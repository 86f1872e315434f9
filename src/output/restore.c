/* Saving and restoring what the display showed before the output took it. */
#include <errno.h>
#include <string.h>
#include <xf86drm.h>

#include "../base/error.h"
#include "restore.h"

void sg_output_save(int fd, bool atomic, const struct sg_output_choice *choice,
                    const struct sg_output_props *props, struct sg_output_saved *saved)
{
	*saved = (struct sg_output_saved){0};
	drmModeCrtcPtr crtc = drmModeGetCrtc(fd, choice->crtc_id);
	if (!crtc)
		return;
	saved->valid = true;
	saved->buffer_id = crtc->buffer_id;
	saved->x = crtc->x;
	saved->y = crtc->y;
	saved->mode_valid = crtc->mode_valid;
	saved->mode = crtc->mode;
	drmModeFreeCrtc(crtc);
	drmModeConnectorPtr connector = drmModeGetConnector(fd, choice->connector_id);
	if (connector && connector->encoder_id) {
		drmModeEncoderPtr encoder = drmModeGetEncoder(fd, connector->encoder_id);
		saved->connector_on_crtc = encoder && encoder->crtc_id == choice->crtc_id;
		drmModeFreeEncoder(encoder);
	}
	drmModeFreeConnector(connector);
	if (!atomic)
		return;
	const uint32_t C = DRM_MODE_OBJECT_CONNECTOR, R = DRM_MODE_OBJECT_CRTC,
	               P = DRM_MODE_OBJECT_PLANE;
	static const char *const src[4] = {"SRC_X", "SRC_Y", "SRC_W", "SRC_H"};
	static const char *const dst[4] = {"CRTC_X", "CRTC_Y", "CRTC_W", "CRTC_H"};
	bool ok =
	    sg_kms_prop(fd, choice->connector_id, C, "CRTC_ID", NULL, &saved->connector_crtc) &&
	    sg_kms_prop(fd, choice->crtc_id, R, "ACTIVE", NULL, &saved->active) &&
	    sg_kms_prop(fd, choice->plane_id, P, "FB_ID", NULL, &saved->plane_fb) &&
	    sg_kms_prop(fd, choice->plane_id, P, "CRTC_ID", NULL, &saved->plane_crtc);
	for (int i = 0; i < 4 && ok; i++)
		ok = sg_kms_prop(fd, choice->plane_id, P, src[i], NULL, &saved->plane_src[i]) &&
		     sg_kms_prop(fd, choice->plane_id, P, dst[i], NULL, &saved->plane_dst[i]);
	saved->atomic = ok;
	(void)props;
}

static int restore_atomic(int fd, const struct sg_output_choice *choice,
                          const struct sg_output_props *props, const struct sg_output_saved *saved)
{
	uint32_t blob = 0;
	if (saved->mode_valid &&
	    drmModeCreatePropertyBlob(fd, &saved->mode, sizeof(saved->mode), &blob))
		return -1;
	drmModeAtomicReqPtr request = drmModeAtomicAlloc();
	if (!request) {
		if (blob)
			drmModeDestroyPropertyBlob(fd, blob);
		return -1;
	}
	/* A writeback connector is never left on: nothing would feed it a buffer. */
	uint64_t connector_crtc = choice->writeback ? 0 : saved->connector_crtc;
	drmModeAtomicAddProperty(request, choice->connector_id, props->connector_crtc_id,
	                         connector_crtc);
	drmModeAtomicAddProperty(request, choice->crtc_id, props->crtc_mode_id, blob);
	drmModeAtomicAddProperty(request, choice->crtc_id, props->crtc_active, saved->active);
	drmModeAtomicAddProperty(request, choice->plane_id, props->plane_fb_id, saved->plane_fb);
	drmModeAtomicAddProperty(request, choice->plane_id, props->plane_crtc_id,
	                         saved->plane_crtc);
	for (int i = 0; i < 4; i++) {
		drmModeAtomicAddProperty(request, choice->plane_id, props->plane_src[i],
		                         saved->plane_src[i]);
		drmModeAtomicAddProperty(request, choice->plane_id, props->plane_crtc[i],
		                         saved->plane_dst[i]);
	}
	int error = drmModeAtomicCommit(fd, request, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	drmModeAtomicFree(request);
	/* The CRTC holds its own reference to the blob. */
	if (blob)
		drmModeDestroyPropertyBlob(fd, blob);
	return error;
}

sg_result sg_output_restore(int fd, const struct sg_output_choice *choice,
                            const struct sg_output_props *props,
                            const struct sg_output_saved *saved)
{
	if (!saved->valid)
		return SG_OK;
	if (saved->atomic && restore_atomic(fd, choice, props, saved) == 0)
		return SG_OK;
	uint32_t connector = choice->connector_id;
	if (saved->mode_valid && saved->buffer_id &&
	    drmModeSetCrtc(fd, choice->crtc_id, saved->buffer_id, saved->x, saved->y, &connector,
	                   saved->connector_on_crtc ? 1 : 0, (drmModeModeInfo *)&saved->mode) == 0)
		return SG_OK;
	int error = errno;
	if (drmModeSetCrtc(fd, choice->crtc_id, 0, 0, 0, NULL, 0, NULL) == 0 && !saved->mode_valid)
		return SG_OK;
	return sg_fail(SG_ERR_DEVICE, "restoring CRTC %u (%s on %s) failed: %s; it was turned off",
	               choice->crtc_id, choice->connector, choice->node, strerror(error));
}
