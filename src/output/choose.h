/* Internal: choosing a connector, a mode, a CRTC and its primary plane on a
 * card node, as kmscube's drm-common.c does, plus the rule that a CRTC
 * driving another connector is never taken. */
#ifndef SG_OUTPUT_CHOOSE_H
#define SG_OUTPUT_CHOOSE_H

#include <stdbool.h>
#include <stdint.h>
#include <xf86drmMode.h>

#include <sg/error.h>

struct sg_output_choice {
	char node[256];     /* for messages */
	char connector[40]; /* "Virtual-1" */
	uint32_t connector_id, crtc_id, plane_id;
	int crtc_index;
	bool writeback;
	drmModeModeInfo mode;
};

struct sg_output_want {
	const char *connector; /* NULL: the first connected */
	int width, height, refresh;
	bool allow_writeback;
};

/* SG_ERR_DEVICE when the node has no KMS; SG_ERR_NOT_FOUND for no such /
 * no connected connector, no such mode, no free CRTC or no primary plane.
 * choice->node must be set by the caller. */
sg_result sg_output_choose(int fd, const struct sg_output_want *want,
                           struct sg_output_choice *choice);

/* "HDMI-A-1" for a connector. */
void sg_output_connector_name(const drmModeConnector *connector, char *name, size_t size);

#endif
