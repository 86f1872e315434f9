/* Connector, mode, CRTC and plane. The CRTC: the one the connector's current
 * encoder drives first (no modeset flicker, kmscube and wlroots do the same),
 * else the first its encoders can drive that lights no other connector. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <xf86drm.h>

#include "../base/error.h"
#include "choose.h"
#include "props.h"

void sg_output_connector_name(const drmModeConnector *connector, char *name, size_t size)
{
	const char *type = drmModeGetConnectorTypeName(connector->connector_type);
	snprintf(name, size, "%s-%u", type ? type : "Unknown", connector->connector_type_id);
}

/* The CRTC a connector is on now (0: none). */
static uint32_t current_crtc(int fd, const drmModeConnector *connector)
{
	if (!connector->encoder_id)
		return 0;
	drmModeEncoderPtr encoder = drmModeGetEncoder(fd, connector->encoder_id);
	uint32_t crtc = encoder ? encoder->crtc_id : 0;
	drmModeFreeEncoder(encoder);
	return crtc;
}

static bool usable(const drmModeConnector *connector, bool allow_writeback)
{
	if (connector->connector_type == DRM_MODE_CONNECTOR_WRITEBACK)
		return allow_writeback && connector->count_modes > 0;
	return connector->connection == DRM_MODE_CONNECTED && connector->count_modes > 0;
}

static sg_result find_connector(int fd, drmModeResPtr res, const struct sg_output_want *want,
                                struct sg_output_choice *choice, drmModeConnectorPtr *out)
{
	char seen[400] = "";
	size_t used = 0;
	for (int i = 0; i < res->count_connectors; i++) {
		drmModeConnectorPtr connector = drmModeGetConnector(fd, res->connectors[i]);
		if (!connector)
			continue;
		char name[40];
		sg_output_connector_name(connector, name, sizeof(name));
		bool connected = connector->connection == DRM_MODE_CONNECTED;
		if (used < sizeof(seen))
			used += (size_t)snprintf(seen + used, sizeof(seen) - used, "%s%s (%s)",
			                         used ? ", " : "", name,
			                         connected ? "connected" : "not connected");
		bool named = want->connector && strcmp(want->connector, name) == 0;
		if (named && !usable(connector, want->allow_writeback)) {
			drmModeFreeConnector(connector);
			return sg_fail(SG_ERR_NOT_FOUND, "connector %s on %s is %s", name,
			               choice->node,
			               connected ? "connected but has no modes" : "not connected");
		}
		if (named || (!want->connector &&
		              connector->connector_type != DRM_MODE_CONNECTOR_WRITEBACK &&
		              usable(connector, false))) {
			snprintf(choice->connector, sizeof(choice->connector), "%s", name);
			choice->connector_id = connector->connector_id;
			choice->writeback =
			    connector->connector_type == DRM_MODE_CONNECTOR_WRITEBACK;
			*out = connector;
			return SG_OK;
		}
		drmModeFreeConnector(connector);
	}
	if (want->connector)
		return sg_fail(SG_ERR_NOT_FOUND, "no connector named %s on %s (it has: %s)",
		               want->connector, choice->node, used ? seen : "no connectors");
	return sg_fail(SG_ERR_NOT_FOUND, "no connected connector on %s (it has: %s)", choice->node,
	               used ? seen : "no connectors");
}

static sg_result find_mode(const drmModeConnector *connector, const struct sg_output_want *want,
                           struct sg_output_choice *choice)
{
	const drmModeModeInfo *found = NULL;
	for (int i = 0; i < connector->count_modes; i++) {
		const drmModeModeInfo *mode = &connector->modes[i];
		if (!want->width && !want->height) {
			if (!found || (mode->type & DRM_MODE_TYPE_PREFERRED))
				found = mode;
			if (mode->type & DRM_MODE_TYPE_PREFERRED)
				break;
		} else if (mode->hdisplay == want->width && mode->vdisplay == want->height &&
		           (!want->refresh || (int)mode->vrefresh == want->refresh) &&
		           (!found || mode->vrefresh > found->vrefresh)) {
			found = mode;
		}
	}
	if (found) {
		choice->mode = *found;
		return SG_OK;
	}
	char modes[300] = "";
	size_t used = 0;
	for (int i = 0; i < connector->count_modes && used < sizeof(modes); i++)
		used +=
		    (size_t)snprintf(modes + used, sizeof(modes) - used, "%s%ux%u@%u",
		                     used ? " " : "", connector->modes[i].hdisplay,
		                     connector->modes[i].vdisplay, connector->modes[i].vrefresh);
	return sg_fail(SG_ERR_NOT_FOUND, "connector %s on %s has no mode %dx%d%s%.0d (modes: %s)",
	               choice->connector, choice->node, want->width, want->height,
	               want->refresh ? "@" : "", want->refresh, modes);
}

/* The first other connector on crtc, or 0; name gets its name. */
static uint32_t other_user(int fd, drmModeResPtr res, uint32_t crtc, uint32_t self, char *name,
                           size_t size)
{
	for (int i = 0; i < res->count_connectors; i++) {
		if (res->connectors[i] == self)
			continue;
		drmModeConnectorPtr connector = drmModeGetConnector(fd, res->connectors[i]);
		if (!connector)
			continue;
		uint32_t id = current_crtc(fd, connector) == crtc ? connector->connector_id : 0;
		if (id)
			sg_output_connector_name(connector, name, size);
		drmModeFreeConnector(connector);
		if (id)
			return id;
	}
	return 0;
}

static sg_result find_crtc(int fd, drmModeResPtr res, const drmModeConnector *connector,
                           struct sg_output_choice *choice)
{
	char busy[200] = "";
	size_t used = 0;
	char user[40];
	uint32_t current = current_crtc(fd, connector);
	for (int c = 0; c < res->count_crtcs && current; c++)
		if (res->crtcs[c] == current &&
		    !other_user(fd, res, current, choice->connector_id, user, sizeof(user))) {
			choice->crtc_index = c;
			choice->crtc_id = current;
			return SG_OK;
		}
	for (int e = 0; e < connector->count_encoders; e++) {
		drmModeEncoderPtr encoder = drmModeGetEncoder(fd, connector->encoders[e]);
		uint32_t possible = encoder ? encoder->possible_crtcs : 0;
		drmModeFreeEncoder(encoder);
		for (int c = 0; c < res->count_crtcs; c++) {
			if (!(possible & (1u << c)))
				continue;
			if (other_user(fd, res, res->crtcs[c], choice->connector_id, user,
			               sizeof(user))) {
				if (used < sizeof(busy))
					used += (size_t)snprintf(
					    busy + used, sizeof(busy) - used, "%sCRTC %u drives %s",
					    used ? ", " : "", res->crtcs[c], user);
				continue;
			}
			choice->crtc_index = c;
			choice->crtc_id = res->crtcs[c];
			return SG_OK;
		}
	}
	return sg_fail(SG_ERR_NOT_FOUND, "no free CRTC for connector %s on %s%s%s",
	               choice->connector, choice->node, used ? ": " : " (its encoders list none)",
	               busy);
}

static sg_result find_plane(int fd, struct sg_output_choice *choice)
{
	drmModePlaneResPtr planes = drmModeGetPlaneResources(fd);
	for (uint32_t i = 0; planes && i < planes->count_planes && !choice->plane_id; i++) {
		drmModePlanePtr plane = drmModeGetPlane(fd, planes->planes[i]);
		uint64_t type = 0;
		if (plane && (plane->possible_crtcs & (1u << choice->crtc_index)) &&
		    sg_kms_prop(fd, plane->plane_id, DRM_MODE_OBJECT_PLANE, "type", NULL, &type) &&
		    type == DRM_PLANE_TYPE_PRIMARY)
			choice->plane_id = plane->plane_id;
		drmModeFreePlane(plane);
	}
	drmModeFreePlaneResources(planes);
	if (!choice->plane_id)
		return sg_fail(SG_ERR_NOT_FOUND, "CRTC %u (for %s on %s) has no primary plane",
		               choice->crtc_id, choice->connector, choice->node);
	return SG_OK;
}

sg_result sg_output_choose(int fd, const struct sg_output_want *want,
                           struct sg_output_choice *choice)
{
	drmModeResPtr res = drmModeGetResources(fd);
	if (!res)
		return sg_fail(SG_ERR_DEVICE, "%s has no KMS (drmModeGetResources: %s)%s",
		               choice->node, strerror(errno),
		               drmGetNodeTypeFromFd(fd) == DRM_NODE_RENDER
		                   ? ": a render node, pass a card node"
		                   : "");
	drmModeConnectorPtr connector = NULL;
	sg_result result = find_connector(fd, res, want, choice, &connector);
	if (!result)
		result = find_mode(connector, want, choice);
	if (!result)
		result = find_crtc(fd, res, connector, choice);
	if (!result)
		result = find_plane(fd, choice);
	drmModeFreeConnector(connector);
	drmModeFreeResources(res);
	return result;
}
