/* sg_output_list_connectors: every connector of a card, probed. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include <sg/output.h>

#include "../base/error.h"
#include "choose.h"

sg_result sg_output_list_connectors(int drm_fd, struct sg_connector_state *connectors,
                                    size_t max, size_t *count)
{
	if (!count || (max && !connectors))
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_output_list_connectors: %s is NULL",
		               count ? "connectors" : "count");
	*count = 0;
	drmModeResPtr res = drmModeGetResources(drm_fd);
	if (!res)
		return sg_fail(SG_ERR_DEVICE,
		               "sg_output_list_connectors: fd %d has no KMS (drmModeGetResources: %s)",
		               drm_fd, strerror(errno));
	for (int i = 0; i < res->count_connectors; i++) {
		drmModeConnectorPtr c = drmModeGetConnector(drm_fd, res->connectors[i]);
		if (!c)
			continue;
		if (*count < max) {
			struct sg_connector_state *state = &connectors[*count];
			*state = (struct sg_connector_state){0};
			sg_output_connector_name(c, state->name, sizeof(state->name));
			state->connected = c->connection == DRM_MODE_CONNECTED && c->count_modes > 0;
			for (int m = 0; state->connected && m < c->count_modes; m++)
				if (m == 0 || (c->modes[m].type & DRM_MODE_TYPE_PREFERRED)) {
					state->width = c->modes[m].hdisplay;
					state->height = c->modes[m].vdisplay;
					if (c->modes[m].type & DRM_MODE_TYPE_PREFERRED)
						break;
				}
		}
		(*count)++;
		drmModeFreeConnector(c);
	}
	drmModeFreeResources(res);
	return SG_OK;
}
