/* The public output, in the order of a kmscube run: the card node -> client
 * caps -> connector, mode, CRTC, plane -> DRM master -> the state to restore
 * -> a renderer on the same node -> the ring (zero-copy or copy) checked by a
 * TEST_ONLY commit. present.c puts frames on screen. */
#include <drm_fourcc.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <xf86drm.h>

#include "../gbm/device.h"
#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/rotation.h"
#include "../base/escape.h"
#include "../base/floats.h"
#include "../base/log.h"
#include "../render/buffer.h"
#include "output_internal.h"
#include "../base/sized.h"

static sg_result check_desc(const struct sg_output_desc *desc)
{
	if (!desc)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_output_create: desc is NULL");
	if (desc->device && desc->has_drm_fd)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "sg_output_create: give device or drm_fd, not both");
	if (desc->width < 0 || desc->height < 0 || desc->refresh < 0 ||
	    (desc->width == 0) != (desc->height == 0))
		return sg_fail(
		    SG_ERR_INVALID_ARGUMENT,
		    "sg_output_create: mode %dx%d@%d: give both sides (or neither) and no "
		    "negative value",
		    desc->width, desc->height, desc->refresh);
	if (!sg_rotation_valid(desc->rotation))
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "sg_output_create: rotation %d is not one of enum sg_rotation",
		               (int)desc->rotation);
	if (desc->buffer_count != 0 && desc->buffer_count != 2 && desc->buffer_count != 3)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "sg_output_create: buffer_count %d is not 0, 2 or 3",
		               desc->buffer_count);
	if (desc->format_count && !desc->formats)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "sg_output_create: %zu formats but formats is NULL",
		               desc->format_count);
	for (int i = 0; i < 4; i++)
		if (!sg_float_unit(desc->clear_color[i]))
			return sg_fail(
			    SG_ERR_INVALID_ARGUMENT,
			    "sg_output_create: clear colour component %d (%g) is not in [0, 1]", i,
			    (double)desc->clear_color[i]);
	return SG_OK;
}

/* The first card node whose driver does KMS. */
static sg_result discover(struct sg_output *output)
{
	/* No card node listed (no DRM at all): nothing to drive. */
	if (!sg_dri_lists("card"))
		return sg_fail(SG_ERR_NOT_FOUND, "no DRM card node with KMS (of 0 devices)");
	drmDevicePtr devices[16];
	int count = drmGetDevices2(0, devices, 16);
	for (int i = 0; i < count && output->fd < 0; i++) {
		if (!(devices[i]->available_nodes & (1 << DRM_NODE_PRIMARY)))
			continue;
		int fd = open(devices[i]->nodes[DRM_NODE_PRIMARY], O_RDWR | O_CLOEXEC);
		drmModeResPtr res = fd >= 0 ? drmModeGetResources(fd) : NULL;
		if (res) {
			output->fd = fd;
			snprintf(output->device, sizeof(output->device), "%s",
			         devices[i]->nodes[DRM_NODE_PRIMARY]);
		} else if (fd >= 0) {
			close(fd);
		}
		drmModeFreeResources(res);
	}
	if (count > 0)
		drmFreeDevices(devices, count);
	if (output->fd < 0)
		return sg_fail(SG_ERR_NOT_FOUND, "no DRM card node with KMS (of %d devices)",
		               count > 0 ? count : 0);
	output->own_fd = true;
	return SG_OK;
}

static sg_result open_node(struct sg_output *output, const struct sg_output_desc *desc)
{
	if (!desc->has_drm_fd && !desc->device)
		return discover(output);
	if (desc->has_drm_fd) {
		output->fd = desc->drm_fd;
		char *name = drmGetDeviceNameFromFd2(desc->drm_fd);
		snprintf(output->device, sizeof(output->device), "%s", name ? name : "");
		free(name);
		if (drmGetNodeTypeFromFd(desc->drm_fd) < 0)
			return sg_fail(SG_ERR_DEVICE, "the caller's fd %d is not a DRM node",
			               desc->drm_fd);
		if (!output->device[0])
			snprintf(output->device, sizeof(output->device), "fd %d", desc->drm_fd);
		return SG_OK;
	}
	snprintf(output->device, sizeof(output->device), "%s", desc->device);
	output->fd = open(desc->device, O_RDWR | O_CLOEXEC);
	/* the caller's path may hold anything, an escape sequence or a newline */
	char shown[256];
	sg_escape_path(desc->device, shown, sizeof(shown));
	if (output->fd < 0)
		return sg_fail(SG_ERR_DEVICE, "cannot open %s (for %s%s): %s", shown,
		               desc->connector ? "connector " : "the first connected connector",
		               desc->connector ? desc->connector : "", strerror(errno));
	output->own_fd = true;
	if (drmGetNodeTypeFromFd(output->fd) < 0)
		return sg_fail(SG_ERR_DEVICE, "%s is not a DRM node", shown);
	return SG_OK;
}

/* Without master every modeset fails with EACCES: say so now, by name. */
static sg_result take_master(struct sg_output *output)
{
	if (drmIsMaster(output->fd) || drmSetMaster(output->fd) == 0)
		return SG_OK;
	return sg_fail(
	    SG_ERR_DEVICE,
	    "cannot drive %s on %s: DRM master is held by another process (a display "
	    "server?) or another open file of this one (another output; a renderer "
	    "made before this output, whose EGL opened the node first): drmSetMaster: %s",
	    output->choice.connector, output->choice.node, strerror(errno));
}

static sg_result make_renderer(struct sg_output *output, const struct sg_output_desc *desc)
{
	int width = output->choice.mode.hdisplay, height = output->choice.mode.vdisplay;
	output->renderer =
	    sg_renderer_create(&(struct sg_renderer_desc){.width = width,
	                                                  .height = height,
	                                                  .target = SG_TARGET_GBM,
	                                                  .has_drm_fd = true,
	                                                  .drm_fd = output->fd,
	                                                  .ignore_environment = true});
	if (!output->renderer && !desc->force_copy) {
		/* Still a picture: rendered offscreen and copied. */
		snprintf(output->path_reason, sizeof(output->path_reason),
		         "no GBM renderer on %s (%s): rendering surfaceless", output->choice.node,
		         sg_last_error());
		sg_log(SG_LOG_WARNING, "%s", output->path_reason);
		output->renderer =
		    sg_renderer_create(&(struct sg_renderer_desc){.width = width,
		                                                  .height = height,
		                                                  .target = SG_TARGET_SURFACELESS,
		                                                  .ignore_environment = true});
	}
	if (!output->renderer)
		return sg_fail_prefix(sg_last_result(),
		                      "renderer for %s on %s: ", output->choice.connector,
		                      output->choice.node);
	const struct sg_renderer_info *info = sg_renderer_get_info(output->renderer);
	snprintf(output->renderer_name, sizeof(output->renderer_name), "%s (%s, %s)",
	         info->target_name, info->egl_driver[0] ? info->egl_driver : info->egl_vendor,
	         info->gl_renderer);
	const float *c = desc->clear_color;
	return sg_renderer_set_clear_color(output->renderer, c[0], c[1], c[2], c[3]);
}

static void fill_info(struct sg_output *output, int buffers)
{
	const struct sg_output_choice *c = &output->choice;
	struct sg_output_info *info = &output->info;
	info->device = output->device;
	info->connector = c->connector;
	info->mode_name = c->mode.name;
	info->width = c->mode.hdisplay;
	info->height = c->mode.vdisplay;
	info->refresh = (int)c->mode.vrefresh;
	info->connector_id = c->connector_id;
	info->crtc_id = c->crtc_id;
	info->plane_id = c->plane_id;
	info->atomic = output->atomic;
	info->buffer_count = buffers;
	info->path_reason = output->path_reason;
	info->out_fence = output->atomic && output->props.crtc_out_fence_ptr;
	info->damage_clips = output->atomic && output->props.plane_fb_damage_clips;
	info->renderer = output->renderer_name;
	bool swaps = sg_rotation_swaps(info->rotation);
	info->picture_width = swaps ? info->height : info->width;
	info->picture_height = swaps ? info->width : info->height;
}

/* The connector's "panel orientation" (an enum property of panels the
 * kernel knows are mounted turned) as the rotation that stands the picture
 * upright on it: the panel's right side up wants the picture's top on that
 * side, a quarter turn clockwise. */
static enum sg_rotation panel_rotation(struct sg_output *output)
{
	output->info.panel_orientation = "";
	uint32_t id;
	uint64_t value;
	if (!sg_kms_prop(output->fd, output->choice.connector_id, DRM_MODE_OBJECT_CONNECTOR,
	                 "panel orientation", &id, &value))
		return SG_ROTATION_0;
	static const struct {
		const char *name;
		enum sg_rotation rotation;
	} orientations[] = {{"Normal", SG_ROTATION_0},
	                    {"Upside Down", SG_ROTATION_180},
	                    {"Left Side Up", SG_ROTATION_270},
	                    {"Right Side Up", SG_ROTATION_90}};
	if (value < sizeof(orientations) / sizeof(orientations[0])) {
		output->info.panel_orientation = orientations[value].name;
		return orientations[value].rotation;
	}
	return SG_ROTATION_0;
}

static sg_result setup(struct sg_output *output, const struct sg_output_desc *desc)
{
	sg_result result = open_node(output, desc);
	if (result)
		return result;
	snprintf(output->choice.node, sizeof(output->choice.node), "%s", output->device);
	/* Refused on nodes without KMS; sg_output_choose says so by name. */
	bool planes = drmSetClientCap(output->fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1) == 0;
	output->atomic =
	    !desc->force_legacy && drmSetClientCap(output->fd, DRM_CLIENT_CAP_ATOMIC, 1) == 0;
	if (SG_OUTPUT_HOOK(output, writeback) && output->atomic)
		drmSetClientCap(output->fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1);
	struct sg_output_want want = {.connector = desc->connector,
	                              .width = desc->width,
	                              .height = desc->height,
	                              .refresh = desc->refresh,
	                              .allow_writeback = SG_OUTPUT_HOOK(output, writeback)};
	if ((result = sg_output_choose(output->fd, &want, &output->choice)))
		return result;
	if (!planes)
		return sg_fail(SG_ERR_DEVICE, "%s refuses DRM_CLIENT_CAP_UNIVERSAL_PLANES",
		               output->device);
	if ((result = take_master(output)))
		return result;
	/* A driver without the atomic properties gets the legacy calls. */
	if (output->atomic && sg_output_props_find(output->fd, &output->choice, &output->props)) {
		sg_log(SG_LOG_WARNING, "%s: legacy modesetting (%s)", output->device,
		       sg_last_error());
		output->atomic = false;
	}
	sg_output_save(output->fd, output->atomic, &output->choice, &output->props, &output->saved);
	if (output->atomic &&
	    drmModeCreatePropertyBlob(output->fd, &output->choice.mode, sizeof(output->choice.mode),
	                              &output->mode_blob))
		return sg_fail(SG_ERR_DEVICE,
		               "drmModeCreatePropertyBlob of mode %s on %s failed: %s",
		               output->choice.mode.name, output->device, strerror(errno));
	if ((result = make_renderer(output, desc)))
		return result;
	enum sg_rotation panel = panel_rotation(output);
	output->info.rotation =
	    desc->ignore_panel_orientation ? desc->rotation : sg_rotation_then(desc->rotation, panel);
	if ((result = sg_renderer_set_rotation(output->renderer, output->info.rotation)))
		return result;
	/* IN_FENCE_FD needs the atomic path and a fence from EGL. */
	output->info.fence = SG_OUTPUT_FENCE_GL_FINISH;
	if ((result = sg_output_setup_buffers(output, desc)))
		return result;
	if (output->info.path == SG_OUTPUT_PATH_ZERO_COPY && output->atomic &&
	    output->props.plane_in_fence_fd && sg_renderer_has_native_fence(output->renderer))
		output->info.fence = SG_OUTPUT_FENCE_NATIVE;
	fill_info(output, desc->buffer_count ? desc->buffer_count : SG_OUTPUT_MAX_BUFFERS);
	sg_log(SG_LOG_INFO, "output %s on %s: %s %dx%d@%d, CRTC %u, plane %u, %s, %s: %s",
	       output->choice.connector, output->device, output->choice.mode.name,
	       output->info.width, output->info.height, output->info.refresh,
	       output->choice.crtc_id, output->choice.plane_id,
	       output->atomic ? "atomic" : "legacy",
	       output->info.path == SG_OUTPUT_PATH_ZERO_COPY ? "zero-copy" : "copy",
	       output->path_reason);
	return SG_OK;
}

static struct sg_output *new_output(const struct sg_output_desc *desc)
{
	if (check_desc(desc))
		return NULL;
	struct sg_output *output = sg_calloc(1, sizeof(*output));
	if (!output) {
		sg_fail(SG_ERR_NO_MEMORY, "out of memory creating an output");
		return NULL;
	}
	output->fd = -1;
	output->out_fence_fd = -1;
	output->on_flip = desc->on_flip;
	output->user_data = desc->user_data;
	return output;
}

static struct sg_output *set_up(struct sg_output *output, const struct sg_output_desc *desc)
{
	if (setup(output, desc)) {
		/* Nothing was shown: destroy restores nothing, frees the rest. */
		sg_output_destroy(output);
		return NULL;
	}
	return output;
}

struct sg_output *sg_output_create_sized(const struct sg_output_desc *desc, size_t size)
{
	struct sg_output_desc sized_desc;
	if (desc && !(desc = sg_sized_in(&sized_desc, sizeof sized_desc, desc, size,
	                                 SG_SIZE_THROUGH(struct sg_output_desc, user_data),
	                                 "sg_output_create")))
		return NULL;
	struct sg_output *output = new_output(desc);
	return output ? set_up(output, desc) : NULL;
}

#ifdef SG_OUTPUT_TEST_HOOKS
struct sg_output *sg_output_create_for_testing(const struct sg_output_desc *desc,
                                               const struct sg_output_test_hooks *hooks)
{
	struct sg_output *output = new_output(desc);
	if (output && hooks)
		output->hooks = *hooks;
	return output ? set_up(output, desc) : NULL;
}
#endif

void sg_output_destroy(struct sg_output *output)
{
	if (!output)
		return;
	output->closing = true;
	/* A pending flip still reads its buffer, and its event names this
	 * output: let it land first, up to a second whatever signals interrupt
	 * (the result is kept: restoring is what matters). */
	struct timespec start, now;
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (sg_ring_find(&output->ring, SG_RING_PENDING)) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 > 1000)
			break;
		sg_output_read_events(output, 100);
	}
	/* Still pending on a shared fd: its event may come later through another
	 * output's dispatch, so the struct must outlive it (a few hundred bytes
	 * kept; its buffers, renderer and blobs still go). */
	bool keep = sg_ring_find(&output->ring, SG_RING_PENDING) && !output->own_fd;
	if (keep)
		sg_log(SG_LOG_ERROR,
		       "sg_output_destroy: a flip on CRTC %u (%s on %s) did not complete within a "
		       "second; the output's record is kept for its late event",
		       output->choice.crtc_id, output->choice.connector, output->choice.node);
	/* Paused: the display belongs to another session now. */
	if (output->lit && !output->paused &&
	    sg_output_restore(output->fd, &output->choice, &output->props, &output->saved))
		sg_log(SG_LOG_ERROR, "%s", sg_last_error()); /* destroy has no caller to tell */
	sg_output_free_buffers(output);
	if (output->out_fence_fd >= 0)
		close(output->out_fence_fd);
	sg_renderer_destroy(output->renderer);
	if (output->mode_blob)
		drmModeDestroyPropertyBlob(output->fd, output->mode_blob);
	if (output->own_fd && output->fd >= 0)
		close(output->fd);
	if (keep) {
		output->on_flip = NULL;
		output->renderer = NULL;
		output->out_fence_fd = -1;
		return;
	}
	sg_free(output);
}

const struct sg_output_info *sg_output_get_info(const struct sg_output *output)
{
	return output ? &output->info : NULL;
}

sg_result sg_output_set_clear_color(struct sg_output *output, float r, float g, float b, float a)
{
	if (!output)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "sg_output_set_clear_color: output is NULL");
	return sg_renderer_set_clear_color(output->renderer, r, g, b, a);
}

void sg_output_set_flip_callback(struct sg_output *output, sg_output_flip_fn on_flip,
                                 void *user_data)
{
	if (!output)
		return;
	output->on_flip = on_flip;
	output->user_data = user_data;
}

struct sg_renderer *sg_output_get_renderer(struct sg_output *output)
{
	return output ? output->renderer : NULL;
}
