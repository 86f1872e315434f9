/* Test code of the kms suite (test_kms.c): a KMS output chosen, lit and
 * flipped step by step, without the public sg_output. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <xf86drm.h>

#include "../../src/base/error.h"
#include "kms_output.h"

static const char *connector_type_name(uint32_t type)
{
	static const char *const names[] = {
		[DRM_MODE_CONNECTOR_Unknown] = "Unknown",   [DRM_MODE_CONNECTOR_VGA] = "VGA",
		[DRM_MODE_CONNECTOR_DVII] = "DVI-I",        [DRM_MODE_CONNECTOR_DVID] = "DVI-D",
		[DRM_MODE_CONNECTOR_DisplayPort] = "DP",    [DRM_MODE_CONNECTOR_HDMIA] = "HDMI-A",
		[DRM_MODE_CONNECTOR_eDP] = "eDP",           [DRM_MODE_CONNECTOR_VIRTUAL] = "Virtual",
		[DRM_MODE_CONNECTOR_WRITEBACK] = "Writeback",
	};
	return type < sizeof(names) / sizeof(names[0]) && names[type] ? names[type] : "Connector";
}

static uint32_t property_id(int fd, uint32_t object, uint32_t type, const char *name)
{
	drmModeObjectPropertiesPtr props = drmModeObjectGetProperties(fd, object, type);
	uint32_t id = 0;
	for (uint32_t i = 0; props && i < props->count_props && !id; i++) {
		drmModePropertyPtr prop = drmModeGetProperty(fd, props->props[i]);
		if (prop && strcmp(prop->name, name) == 0)
			id = prop->prop_id;
		drmModeFreeProperty(prop);
	}
	drmModeFreeObjectProperties(props);
	return id;
}

static bool is_primary_plane(int fd, uint32_t plane)
{
	drmModeObjectPropertiesPtr props =
	    drmModeObjectGetProperties(fd, plane, DRM_MODE_OBJECT_PLANE);
	bool primary = false;
	for (uint32_t i = 0; props && i < props->count_props; i++) {
		drmModePropertyPtr prop = drmModeGetProperty(fd, props->props[i]);
		if (prop && strcmp(prop->name, "type") == 0)
			primary = props->prop_values[i] == DRM_PLANE_TYPE_PRIMARY;
		drmModeFreeProperty(prop);
	}
	drmModeFreeObjectProperties(props);
	return primary;
}

static drmModeConnectorPtr first_connected(int fd, drmModeResPtr res)
{
	for (int i = 0; i < res->count_connectors; i++) {
		drmModeConnectorPtr connector = drmModeGetConnector(fd, res->connectors[i]);
		if (connector && connector->connection == DRM_MODE_CONNECTED &&
		    connector->count_modes > 0)
			return connector;
		drmModeFreeConnector(connector);
	}
	return NULL;
}

/* A CRTC one of the connector's encoders can drive; the index is what
 * possible_crtcs bitmasks refer to. */
static int pick_crtc(int fd, drmModeResPtr res, drmModeConnectorPtr connector)
{
	for (int e = 0; e < connector->count_encoders; e++) {
		drmModeEncoderPtr encoder = drmModeGetEncoder(fd, connector->encoders[e]);
		if (!encoder)
			continue;
		uint32_t possible = encoder->possible_crtcs;
		drmModeFreeEncoder(encoder);
		for (int c = 0; c < res->count_crtcs; c++)
			if (possible & (1u << c))
				return c;
	}
	return -1;
}

static uint32_t pick_primary_plane(int fd, int crtc_index)
{
	drmModePlaneResPtr planes = drmModeGetPlaneResources(fd);
	uint32_t found = 0;
	for (uint32_t i = 0; planes && i < planes->count_planes && !found; i++) {
		drmModePlanePtr plane = drmModeGetPlane(fd, planes->planes[i]);
		if (plane && (plane->possible_crtcs & (1u << crtc_index)) &&
		    is_primary_plane(fd, plane->plane_id))
			found = plane->plane_id;
		drmModeFreePlane(plane);
	}
	drmModeFreePlaneResources(planes);
	return found;
}

static sg_result choose(struct kms_output *output, drmModeResPtr res)
{
	int fd = output->fd;
	drmModeConnectorPtr connector = first_connected(fd, res);
	if (!connector)
		return sg_fail(SG_ERR_NOT_FOUND, "no connected connector with modes (of %d connectors)",
		               res->count_connectors);
	output->connector_id = connector->connector_id;
	snprintf(output->name, sizeof(output->name), "%s-%u",
	         connector_type_name(connector->connector_type), connector->connector_type_id);
	output->mode = connector->modes[0];
	for (int i = 0; i < connector->count_modes; i++)
		if (connector->modes[i].type & DRM_MODE_TYPE_PREFERRED) {
			output->mode = connector->modes[i];
			break;
		}
	output->crtc_index = pick_crtc(fd, res, connector);
	drmModeFreeConnector(connector);
	if (output->crtc_index < 0)
		return sg_fail(SG_ERR_NOT_FOUND, "no CRTC can drive connector %s", output->name);
	output->crtc_id = res->crtcs[output->crtc_index];
	output->plane_id = pick_primary_plane(fd, output->crtc_index);
	if (!output->plane_id)
		return sg_fail(SG_ERR_NOT_FOUND, "CRTC %u (for %s) has no primary plane", output->crtc_id,
		               output->name);
	return SG_OK;
}

sg_result kms_output_init(struct kms_output *output, int fd, bool allow_atomic)
{
	*output = (struct kms_output){.fd = fd, .crtc_index = -1};
	/* First: render nodes and GEM-only drivers (vgem) fail here, with the clearest errno. */
	drmModeResPtr res = drmModeGetResources(fd);
	if (!res)
		return sg_fail(SG_ERR_DEVICE, "drmModeGetResources failed (no KMS on this node): %s",
		               strerror(errno));
	/* Needed to see the primary plane at all; atomic implies it. */
	if (drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1)) {
		drmModeFreeResources(res);
		return sg_fail(SG_ERR_DEVICE, "DRM_CLIENT_CAP_UNIVERSAL_PLANES refused: %s",
		               strerror(errno));
	}
	output->atomic = allow_atomic && drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1) == 0;
	sg_result result = choose(output, res);
	drmModeFreeResources(res);
	if (!result && output->atomic &&
	    drmModeCreatePropertyBlob(fd, &output->mode, sizeof(output->mode), &output->mode_blob))
		result = sg_fail(SG_ERR_DEVICE, "drmModeCreatePropertyBlob of mode %s failed: %s",
		                 output->mode.name, strerror(errno));
	return result;
}

void kms_output_finish(struct kms_output *output)
{
	if (output->fb_id && output->crtc_id)
		drmModeSetCrtc(output->fd, output->crtc_id, 0, 0, 0, NULL, 0, NULL);
	if (output->mode_blob)
		drmModeDestroyPropertyBlob(output->fd, output->mode_blob);
	output->fb_id = 0;
	output->mode_blob = 0;
}

bool kms_output_supports(const struct kms_output *output, uint32_t fourcc)
{
	drmModePlanePtr plane = drmModeGetPlane(output->fd, output->plane_id);
	bool found = false;
	for (uint32_t i = 0; plane && i < plane->count_formats && !found; i++)
		found = plane->formats[i] == fourcc;
	drmModeFreePlane(plane);
	return found;
}

static sg_result atomic_modeset(struct kms_output *output, uint32_t fb_id)
{
	int fd = output->fd;
	uint32_t w = output->mode.hdisplay, h = output->mode.vdisplay;
	const struct {
		uint32_t object, type;
		const char *name;
		uint64_t value;
	} props[] = {
		{output->connector_id, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", output->crtc_id},
		{output->crtc_id, DRM_MODE_OBJECT_CRTC, "MODE_ID", output->mode_blob},
		{output->crtc_id, DRM_MODE_OBJECT_CRTC, "ACTIVE", 1},
		{output->plane_id, DRM_MODE_OBJECT_PLANE, "FB_ID", fb_id},
		{output->plane_id, DRM_MODE_OBJECT_PLANE, "CRTC_ID", output->crtc_id},
		{output->plane_id, DRM_MODE_OBJECT_PLANE, "SRC_X", 0},
		{output->plane_id, DRM_MODE_OBJECT_PLANE, "SRC_Y", 0},
		{output->plane_id, DRM_MODE_OBJECT_PLANE, "SRC_W", (uint64_t)w << 16}, /* 16.16 */
		{output->plane_id, DRM_MODE_OBJECT_PLANE, "SRC_H", (uint64_t)h << 16},
		{output->plane_id, DRM_MODE_OBJECT_PLANE, "CRTC_X", 0},
		{output->plane_id, DRM_MODE_OBJECT_PLANE, "CRTC_Y", 0},
		{output->plane_id, DRM_MODE_OBJECT_PLANE, "CRTC_W", w},
		{output->plane_id, DRM_MODE_OBJECT_PLANE, "CRTC_H", h},
	};
	drmModeAtomicReqPtr request = drmModeAtomicAlloc();
	if (!request)
		return sg_fail(SG_ERR_NO_MEMORY, "drmModeAtomicAlloc failed");
	sg_result result = SG_OK;
	for (size_t i = 0; i < sizeof(props) / sizeof(props[0]) && !result; i++) {
		uint32_t id = property_id(fd, props[i].object, props[i].type, props[i].name);
		if (!id ||
		    drmModeAtomicAddProperty(request, props[i].object, id, props[i].value) < 0)
			result = sg_fail(SG_ERR_DEVICE, "object %u has no atomic property %s",
			                 props[i].object, props[i].name);
	}
	if (!result && drmModeAtomicCommit(fd, request, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL))
		result = sg_fail(SG_ERR_DEVICE, "atomic modeset of %s (%s) on CRTC %u failed: %s",
		                 output->name, output->mode.name, output->crtc_id, strerror(errno));
	drmModeAtomicFree(request);
	return result;
}

sg_result kms_output_show(struct kms_output *output, uint32_t fb_id)
{
	sg_result result = SG_OK;
	if (output->atomic)
		result = atomic_modeset(output, fb_id);
	else if (drmModeSetCrtc(output->fd, output->crtc_id, fb_id, 0, 0, &output->connector_id, 1,
	                        &output->mode))
		result = sg_fail(SG_ERR_DEVICE, "drmModeSetCrtc of %s (%s) on CRTC %u failed: %s",
		                 output->name, output->mode.name, output->crtc_id, strerror(errno));
	if (!result)
		output->fb_id = fb_id;
	return result;
}

static void flip_done(int fd, unsigned int sequence, unsigned int sec, unsigned int usec,
                      void *data)
{
	(void)fd, (void)sequence, (void)sec, (void)usec;
	((struct kms_output *)data)->flip_pending = false;
}

sg_result kms_output_flip(struct kms_output *output, uint32_t fb_id, int timeout_ms)
{
	if (drmModePageFlip(output->fd, output->crtc_id, fb_id, DRM_MODE_PAGE_FLIP_EVENT, output))
		return sg_fail(SG_ERR_DEVICE, "drmModePageFlip on CRTC %u (%s) failed: %s",
		               output->crtc_id, output->name, strerror(errno));
	output->flip_pending = true;
	drmEventContext events = {.version = 2, .page_flip_handler = flip_done};
	struct pollfd pfd = {.fd = output->fd, .events = POLLIN};
	while (output->flip_pending) {
		int ready = poll(&pfd, 1, timeout_ms);
		if (ready < 0 && errno == EINTR)
			continue;
		if (ready <= 0)
			return sg_fail(SG_ERR_DEVICE, "no page flip event from CRTC %u (%s) within %d ms%s%s",
			               output->crtc_id, output->name, timeout_ms, ready ? ": " : "",
			               ready ? strerror(errno) : "");
		if (drmHandleEvent(output->fd, &events))
			return sg_fail(SG_ERR_DEVICE, "drmHandleEvent failed: %s", strerror(errno));
	}
	output->fb_id = fb_id;
	return SG_OK;
}
