/* Choosing a target: the caller's own device (fd, gbm_device, path), then
 * SG_TARGET / SG_DEVICE unless the desc ignores the environment, then
 * discovery. The choice and its reason are kept for sg_renderer_get_info(),
 * and nowhere else: sg_last_error() keeps what it held before. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../gbm/device.h"
#include "../gbm/target_gbm.h"
#include "../base/error.h"
#include "../base/log.h"
#include "../surfaceless/target_surfaceless.h"
#include "select.h"

static sg_result parse_target(const char *value, enum sg_target_kind *kind)
{
	if (strcmp(value, "auto") == 0 || value[0] == '\0')
		*kind = SG_TARGET_AUTO;
	else if (strcmp(value, "gbm") == 0)
		*kind = SG_TARGET_GBM;
	else if (strcmp(value, "surfaceless") == 0)
		*kind = SG_TARGET_SURFACELESS;
	else
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "SG_TARGET='%.64s' is not one of auto, gbm, surfaceless", value);
	return SG_OK;
}

/* why: the reason for surfaceless; fallback: whether GBM was wanted first. */
static sg_result surfaceless(const struct sg_renderer_desc *desc, const char *why, bool fallback,
                             struct sg_target **target)
{
	sg_result result = sg_target_surfaceless_create(desc->width, desc->height, target);
	if (result && fallback)
		return sg_fail_prefix(result, "%s; but the surfaceless target failed too: ", why);
	if (result)
		return result;
	/* Bounded so that the sentence always fits reason[512] whole (and a release
	 * build's -Wformat-truncation can prove it). */
	snprintf((*target)->reason, sizeof((*target)->reason), "%.320s: using surfaceless (%.160s)",
	         why, (*target)->egl.gl_renderer);
	return SG_OK;
}

static sg_result select_target(const struct sg_renderer_desc *desc, struct sg_target **target)
{
	*target = NULL;
	int named = (desc->device != NULL) + desc->has_drm_fd + (desc->gbm_device != NULL);
	if (named > 1)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "sg_renderer_create: give one of device, drm_fd and gbm_device");
	if (named && desc->target == SG_TARGET_SURFACELESS)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "sg_renderer_create: the surfaceless target takes no DRM device");
	/* The caller's own device: the environment has no say, and it is never
	 * replaced by another node. */
	if (desc->has_drm_fd || desc->gbm_device)
		return sg_target_gbm_create_borrowed(desc->has_drm_fd ? desc->drm_fd : -1,
		                                     desc->gbm_device, desc->width, desc->height,
		                                     target);
	bool environment = !desc->ignore_environment && !desc->device;
	enum sg_target_kind kind = desc->target;
	const char *forced_by = "requested by the application";
	const char *env_target = environment ? getenv("SG_TARGET") : NULL;
	if (kind == SG_TARGET_AUTO && env_target) {
		sg_result result = parse_target(env_target, &kind);
		if (result)
			return result;
		forced_by = "forced by SG_TARGET";
		if (kind != SG_TARGET_AUTO)
			sg_log(SG_LOG_WARNING, "SG_TARGET=%s: the %s target, not the automatic choice",
			       env_target, kind == SG_TARGET_GBM ? "gbm" : "surfaceless");
	}
	const char *device = desc->device;
	if (environment && getenv("SG_DEVICE") && getenv("SG_DEVICE")[0])
		device = getenv("SG_DEVICE");

	if (kind == SG_TARGET_SURFACELESS)
		return surfaceless(desc, forced_by, false, target);
	if (device && !desc->device)
		sg_log(SG_LOG_WARNING, "SG_DEVICE=%s: GBM on this node, not the first render node",
		       device);

	/* A device named by the caller is a request, never silently replaced. */
	char found[256];
	if (device)
		return sg_target_gbm_create(device, desc->width, desc->height, target);
	sg_result result = sg_find_render_node(found, sizeof(found));
	if (result) {
		if (kind == SG_TARGET_GBM)
			return sg_fail_prefix(result, "GBM target %s: ", forced_by);
		char why[300];
		snprintf(why, sizeof(why), "%s", sg_last_error());
		return surfaceless(desc, why, true, target);
	}
	result = sg_target_gbm_create(found, desc->width, desc->height, target);
	if (result && kind == SG_TARGET_AUTO) {
		char why[600];
		snprintf(why, sizeof(why), "GBM on %s failed (%s)", found, sg_last_error());
		sg_log(SG_LOG_INFO, "%s: trying surfaceless", why);
		return surfaceless(desc, why, true, target);
	}
	return result;
}

sg_result sg_target_select(const struct sg_renderer_desc *desc, struct sg_target **target)
{
	/* Discovery fails on its way to a choice (no render node, GBM that does
	 * not start): that is the reason for the target, which the target keeps
	 * for sg_renderer_get_info, not a failure of the caller's. */
	struct sg_error_state before;
	sg_error_save(&before);
	sg_result result = select_target(desc, target);
	if (!result)
		sg_error_restore(&before);
	return result;
}
