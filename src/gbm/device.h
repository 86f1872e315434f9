/* Internal: opening DRM nodes. */
#ifndef SG_GBM_DEVICE_H
#define SG_GBM_DEVICE_H

#include <stdbool.h>
#include <stddef.h>

#include <sg/error.h>

/* Whether /dev/dri lists a node whose name starts with prefix ("renderD",
 * "card"), read with opendir alone: where it lists none, there is no device
 * to try. When false, errno is opendir's reason, or 0 for none. */
bool sg_dri_lists(const char *prefix);
/* Opens path read-write and checks it is a DRM node; node_type is DRM_NODE_*. */
sg_result sg_open_drm_node(const char *path, int *fd, int *node_type);
/* The primary (card) node of the device behind fd. */
sg_result sg_primary_node_of(int fd, char *path, size_t size);
/* "renderD128" for "/dev/dri/renderD128". */
const char *sg_node_basename(const char *path);
/* Render node discovery with drmGetDevices2: SG_OK and the first render node's
 * path, or SG_ERR_NOT_FOUND with a message saying what was found. */
sg_result sg_find_render_node(char *path, size_t size);

#endif
