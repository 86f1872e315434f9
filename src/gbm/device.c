/* DRM node discovery and opening, with libdrm. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <xf86drm.h>

#include "../base/error.h"
#include "device.h"

bool sg_dri_lists(const char *prefix)
{
	DIR *dir = opendir("/dev/dri");
	if (!dir)
		return false;
	bool found = false;
	size_t length = strlen(prefix);
	for (struct dirent *entry; !found && (entry = readdir(dir));)
		found = strncmp(entry->d_name, prefix, length) == 0;
	closedir(dir);
	errno = 0;
	return found;
}

sg_result sg_find_render_node(char *path, size_t size)
{
	/* No render node listed (no DRM at all): surfaceless. */
	if (!sg_dri_lists("renderD")) {
		if (errno)
			return sg_fail(SG_ERR_NOT_FOUND,
			               "no render node under /dev/dri (/dev/dri: %s)",
			               strerror(errno));
		return sg_fail(SG_ERR_NOT_FOUND, "no render node under /dev/dri (it lists none)");
	}
	drmDevicePtr devices[64];
	int count = drmGetDevices2(0, devices, 64);
	if (count <= 0)
		return sg_fail(SG_ERR_NOT_FOUND, "no render node under /dev/dri (drmGetDevices2 found %s)",
		               count < 0 ? strerror(-count) : "no DRM device");
	sg_result result = SG_ERR_NOT_FOUND;
	for (int i = 0; i < count && result; i++) {
		if (devices[i]->available_nodes & (1 << DRM_NODE_RENDER)) {
			snprintf(path, size, "%s", devices[i]->nodes[DRM_NODE_RENDER]);
			result = SG_OK;
		}
	}
	drmFreeDevices(devices, count);
	if (result)
		sg_fail(result, "no render node under /dev/dri (%d DRM devices, none with one)", count);
	return result;
}

sg_result sg_open_drm_node(const char *path, int *fd, int *node_type)
{
	*fd = open(path, O_RDWR | O_CLOEXEC);
	if (*fd < 0)
		return sg_fail(SG_ERR_DEVICE, "cannot open DRM node '%s': %s", path, strerror(errno));
	*node_type = drmGetNodeTypeFromFd(*fd);
	if (*node_type < 0) {
		close(*fd);
		*fd = -1;
		return sg_fail(SG_ERR_DEVICE, "'%s' is not a DRM device node", path);
	}
	return SG_OK;
}

sg_result sg_primary_node_of(int fd, char *path, size_t size)
{
	drmDevicePtr device = NULL;
	int error = drmGetDevice2(fd, 0, &device);
	if (error)
		return sg_fail(SG_ERR_DEVICE, "drmGetDevice2 failed: %s", strerror(-error));
	sg_result result = SG_OK;
	if (device->available_nodes & (1 << DRM_NODE_PRIMARY))
		snprintf(path, size, "%s", device->nodes[DRM_NODE_PRIMARY]);
	else
		result = sg_fail(SG_ERR_DEVICE, "the device has no primary node");
	drmFreeDevice(&device);
	return result;
}

const char *sg_node_basename(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}
