/* The ring of buffers an output scans out. Zero-copy where it can: a format
 * the caller prefers that the primary plane lists (IN_FORMATS, with its
 * modifiers) and gbm allocates for scanout and rendering, with the modifiers
 * that EGL renders to and the plane takes (kmscube's common.c does the same
 * intersection); else an implicit layout. The kernel then has the last word
 * in a TEST_ONLY commit. Where any of it fails: dumb buffers filled by CPU,
 * and the info says why. */
#include <drm_fourcc.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <xf86drm.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../render/buffer.h"
#include "kms.h"
#include "output_internal.h"

#define MAX_MODIFIERS 64

static const uint32_t default_formats[] = {DRM_FORMAT_XRGB8888, DRM_FORMAT_ARGB8888};

/* The modifiers IN_FORMATS lists for format; -1 when the plane has no
 * IN_FORMATS (drivers without modifiers: plane->formats decides). */
static int plane_modifiers(int fd, uint32_t plane, uint32_t format, uint64_t *modifiers, int max)
{
	uint64_t blob_id = 0;
	if (!sg_kms_prop(fd, plane, DRM_MODE_OBJECT_PLANE, "IN_FORMATS", NULL, &blob_id) ||
	    !blob_id)
		return -1;
	drmModePropertyBlobPtr blob = drmModeGetPropertyBlob(fd, (uint32_t)blob_id);
	if (!blob)
		return -1;
	drmModeFormatModifierIterator iter = {0};
	int count = 0;
	while (drmModeFormatModifierBlobIterNext(blob, &iter))
		if (iter.fmt == format && count < max)
			modifiers[count++] = iter.mod;
	drmModeFreePropertyBlob(blob);
	return count;
}

static bool plane_lists(int fd, uint32_t plane_id, uint32_t format)
{
	drmModePlanePtr plane = drmModeGetPlane(fd, plane_id);
	bool found = false;
	for (uint32_t i = 0; plane && i < plane->count_formats && !found; i++)
		found = plane->formats[i] == format;
	drmModeFreePlane(plane);
	return found;
}

static void add_reason(char *why, size_t size, const char *fmt, uint32_t format, const char *what)
{
	size_t used = strlen(why);
	if (used < size)
		snprintf(why + used, size - used, fmt, used ? "; " : "", (const char *)&format,
		         what);
}

static sg_result add_fb(struct sg_output *output, const struct sg_buffer_layout *scanout,
                        uint32_t *fb_id)
{
	uint64_t modifiers[4] = {0};
	bool explicit_modifier = scanout->modifier != DRM_FORMAT_MOD_INVALID;
	for (int i = 0; i < scanout->plane_count && i < 4; i++)
		modifiers[i] = scanout->modifier;
	int error = drmModeAddFB2WithModifiers(
	    output->fd, scanout->width, scanout->height, scanout->format, scanout->handles,
	    scanout->strides, scanout->offsets, explicit_modifier ? modifiers : NULL, fb_id,
	    explicit_modifier ? DRM_MODE_FB_MODIFIERS : 0);
	if (error)
		return sg_fail(SG_ERR_DEVICE,
		               "drmModeAddFB2%s(%ux%u, %.4s, modifier 0x%llx) failed: %s",
		               explicit_modifier ? "WithModifiers" : "", scanout->width,
		               scanout->height, (const char *)&scanout->format,
		               (unsigned long long)scanout->modifier, strerror(errno));
	return SG_OK;
}

void sg_output_free_buffers(struct sg_output *output)
{
	/* all of them: the copy path makes a dumb buffer before its slot */
	for (int i = 0; i < SG_OUTPUT_MAX_BUFFERS; i++) {
		struct sg_output_buffer *buffer = &output->buffers[i];
		if (buffer->fb_id)
			drmModeRmFB(output->fd, buffer->fb_id);
		sg_dumb_buffer_finish(&buffer->dumb);
		*buffer = (struct sg_output_buffer){0};
	}
	sg_ring_finish(&output->ring);
}

/* The ring in one format; on failure nothing is left allocated. */
static sg_result ring_in(struct sg_output *output, uint32_t format, const uint64_t *modifiers,
                         int count, int buffers)
{
	sg_result result = sg_ring_init(&output->ring, output->renderer,
	                                output->choice.mode.hdisplay,
	                                output->choice.mode.vdisplay, false);
	for (int i = 0; i < buffers && !result; i++) {
		const struct sg_buffer_desc desc = {
		    .scanout = true, .format = format, .modifiers = modifiers, .modifier_count = count};
		struct sg_ring_slot *slot = sg_ring_add(&output->ring, &desc, NULL);
		if (!slot) {
			result = sg_last_result();
			break;
		}
		const struct sg_buffer_layout *layout = &slot->render->target_buffer->layout;
		result = add_fb(output, layout, &output->buffers[i].fb_id);
		if (!result && i == 0) {
			output->info.format = layout->format;
			output->info.modifier = layout->modifier;
		}
	}
	if (!result && output->atomic)
		result = sg_output_commit(output, &output->ring.slots[0], true);
	if (result)
		sg_output_free_buffers(output);
	return result;
}

static bool zero_copy(struct sg_output *output, const uint32_t *formats, size_t format_count,
                      int buffers, char *why, size_t size)
{
	const struct sg_output_choice *choice = &output->choice;
	for (size_t f = 0; f < format_count; f++) {
		uint32_t format = formats[f];
		uint64_t on_plane[MAX_MODIFIERS], for_egl[MAX_MODIFIERS], shared[MAX_MODIFIERS];
		int plane_count =
		    plane_modifiers(output->fd, choice->plane_id, format, on_plane, MAX_MODIFIERS);
		if (plane_count == 0 ||
		    (plane_count < 0 && !plane_lists(output->fd, choice->plane_id, format))) {
			add_reason(why, size, "%splane %.4s: %s", format,
			           "not on the primary plane");
			continue;
		}
		if (!sg_renderer_scanout_format(output->renderer, format)) {
			add_reason(why, size, "%s%.4s: %s", format,
			           "gbm cannot allocate it with SCANOUT | RENDERING");
			continue;
		}
		int egl_count =
		    sg_renderer_render_modifiers(output->renderer, format, for_egl, MAX_MODIFIERS);
		int count = 0;
		for (int e = 0; e < egl_count; e++)
			for (int p = 0; p < plane_count; p++)
				if (for_egl[e] == on_plane[p] && count < MAX_MODIFIERS)
					shared[count++] = for_egl[e];
		/* No shared explicit modifier (or none listed by EGL): the driver's
		 * implicit layout, which GBM_BO_USE_SCANOUT makes scanout-capable. */
		if (!ring_in(output, format, shared, count, buffers))
			return true;
		add_reason(why, size, "%s%.4s: %s", format, sg_last_error());
	}
	return false;
}

static sg_result copy_ring(struct sg_output *output, int buffers)
{
	const struct sg_output_choice *choice = &output->choice;
	if (!plane_lists(output->fd, choice->plane_id, DRM_FORMAT_XRGB8888))
		return sg_fail(
		    SG_ERR_UNSUPPORTED,
		    "the primary plane %u of %s on %s lists no XRGB8888 for the copy path",
		    choice->plane_id, choice->connector, choice->node);
	uint32_t width = choice->mode.hdisplay, height = choice->mode.vdisplay;
	sg_result result =
	    sg_ring_init(&output->ring, output->renderer, (int)width, (int)height, true);
	for (int i = 0; i < buffers && !result; i++) {
		struct sg_output_buffer *buffer = &output->buffers[i];
		result = sg_dumb_buffer_init(&buffer->dumb, output->fd, width, height);
		if (!result)
			result = sg_kms_add_fb(output->fd, width, height, DRM_FORMAT_XRGB8888,
			                       buffer->dumb.handle, buffer->dumb.stride, 0,
			                       &buffer->fb_id);
		const struct sg_ring_cpu cpu = {buffer->dumb.map, width, height, buffer->dumb.stride};
		if (!result && !sg_ring_add(&output->ring, NULL, &cpu))
			result = sg_last_result();
	}
	if (!result && output->atomic)
		result = sg_output_commit(output, &output->ring.slots[0], true);
	if (result) {
		sg_output_free_buffers(output);
		return sg_fail_prefix(result, "copy path on %s (%s): ", choice->node,
		                      choice->connector);
	}
	output->info.format = DRM_FORMAT_XRGB8888;
	output->info.modifier = DRM_FORMAT_MOD_LINEAR;
	return SG_OK;
}

sg_result sg_output_setup_buffers(struct sg_output *output, const struct sg_output_desc *desc)
{
	int buffers = desc->buffer_count ? desc->buffer_count : SG_OUTPUT_MAX_BUFFERS;
	const uint32_t *formats = desc->format_count ? desc->formats : default_formats;
	size_t format_count = desc->format_count
	                          ? desc->format_count
	                          : sizeof(default_formats) / sizeof(default_formats[0]);
	char *why = output->path_reason;
	size_t size = sizeof(output->path_reason);
	/* A renderer on a target without a device makes no scanout buffers. */
	bool scanout = sg_renderer_makes_scanouts(output->renderer);
	if (desc->force_copy)
		snprintf(why, size, "force_copy was set");
	else if (!scanout)
		; /* create() said why the renderer is not GBM */
	else if (zero_copy(output, formats, format_count, buffers, why, size)) {
		output->info.path = SG_OUTPUT_PATH_ZERO_COPY;
		snprintf(why, size,
		         "rendering into %d gbm_bo (SCANOUT | RENDERING, %.4s, modifier %s0x%llx) "
		         "that plane %u scans out",
		         buffers, (const char *)&output->info.format,
		         output->info.modifier == DRM_FORMAT_MOD_INVALID ? "implicit " : "",
		         (unsigned long long)output->info.modifier, output->choice.plane_id);
		return SG_OK;
	}
	if (!desc->force_copy && scanout) {
		static const char prefix[] = "no zero-copy scanout: ";
		size_t length = strnlen(why, size - sizeof(prefix));
		memmove(why + sizeof(prefix) - 1, why, length);
		memcpy(why, prefix, sizeof(prefix) - 1);
		why[sizeof(prefix) - 1 + length] = '\0';
	}
	output->info.path = SG_OUTPUT_PATH_COPY;
	return copy_ring(output, buffers);
}
