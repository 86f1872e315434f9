/* sg_hotplug_*: connectors plugged in and out, from the change events of the
 * card's node. Through udev's monitor where systemd-udevd runs (events after
 * its rules, as a desktop gets them), else from the kernel's netlink socket
 * straight (a minimal kiosk image, our guests): the node itself does not
 * change on hotplug, so nothing waits on udev's rules. Each event makes a
 * probe; what a probe finds is compared with the last one. */
#include <errno.h>
#include <libudev.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sg/output.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/log.h"
#include "../base/sized.h"

/* Connectors of a card we follow: more than any card has. */
#define MAX_CONNECTORS 32

struct sg_hotplug {
	int drm_fd;
	dev_t devnum;
	struct udev *udev;
	struct udev_monitor *monitor;
	sg_hotplug_fn on_change;
	void *user_data;
	struct sg_connector_state known[MAX_CONNECTORS];
	size_t known_count;
};

/* Probes the connectors and, when report is set, calls on_change for each
 * that appeared, went away (its connector object gone too, as a DP-MST
 * connector's is) or came and went, after the state is kept, so that a
 * callback that probes again sees the new state. */
static sg_result probe(struct sg_hotplug *hotplug, bool report)
{
	struct sg_connector_state now[MAX_CONNECTORS];
	size_t count;
	sg_result result = sg_output_list_connectors(hotplug->drm_fd, now, MAX_CONNECTORS, &count);
	if (result)
		return result;
	if (count > MAX_CONNECTORS)
		count = MAX_CONNECTORS;
	struct sg_connector_state changed[2 * MAX_CONNECTORS];
	size_t changes = 0;
	for (size_t i = 0; i < count; i++) {
		bool was = false;
		for (size_t k = 0; k < hotplug->known_count; k++)
			if (strcmp(hotplug->known[k].name, now[i].name) == 0)
				was = hotplug->known[k].connected;
		if (was != now[i].connected)
			changed[changes++] = now[i];
	}
	for (size_t k = 0; k < hotplug->known_count; k++) {
		bool still = false;
		for (size_t i = 0; i < count; i++)
			still |= strcmp(hotplug->known[k].name, now[i].name) == 0;
		if (!still && hotplug->known[k].connected) {
			changed[changes] = hotplug->known[k];
			changed[changes].connected = false;
			changed[changes].width = changed[changes].height = 0;
			changes++;
		}
	}
	memcpy(hotplug->known, now, count * sizeof(now[0]));
	hotplug->known_count = count;
	for (size_t i = 0; report && i < changes; i++) {
		sg_log(SG_LOG_INFO, "hotplug: %s %s", changed[i].name,
		       changed[i].connected ? "connected" : "disconnected");
		if (hotplug->on_change)
			hotplug->on_change(hotplug, &changed[i], hotplug->user_data);
	}
	return SG_OK;
}

struct sg_hotplug *sg_hotplug_create_sized(const struct sg_hotplug_desc *desc, size_t size)
{
	struct sg_hotplug_desc sized_desc;
	if (desc && !(desc = sg_sized_in(&sized_desc, sizeof sized_desc, desc, size,
	                                 SG_SIZE_THROUGH(struct sg_hotplug_desc, user_data),
	                                 "sg_hotplug_create")))
		return NULL;
	struct stat st;
	if (!desc || fstat(desc->drm_fd, &st) != 0 || !S_ISCHR(st.st_mode)) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_hotplug_create: %s",
		        desc ? "drm_fd is not an open device node" : "desc is NULL");
		return NULL;
	}
	struct sg_hotplug *hotplug = sg_calloc(1, sizeof(*hotplug));
	if (!hotplug) {
		sg_fail(SG_ERR_NO_MEMORY, "sg_hotplug_create: out of memory");
		return NULL;
	}
	*hotplug = (struct sg_hotplug){.drm_fd = desc->drm_fd,
	                               .devnum = st.st_rdev,
	                               .on_change = desc->on_change,
	                               .user_data = desc->user_data};
	const char *source = access("/run/udev/control", F_OK) == 0 ? "udev" : "kernel";
	hotplug->udev = udev_new();
	if (hotplug->udev)
		hotplug->monitor = udev_monitor_new_from_netlink(hotplug->udev, source);
	if (!hotplug->monitor ||
	    udev_monitor_filter_add_match_subsystem_devtype(hotplug->monitor, "drm", "drm_minor") ||
	    udev_monitor_enable_receiving(hotplug->monitor)) {
		sg_fail(SG_ERR_DEVICE, "sg_hotplug_create: the %s monitor of udev failed: %s",
		        source, strerror(errno));
		sg_hotplug_destroy(hotplug);
		return NULL;
	}
	if (probe(hotplug, false)) {
		sg_fail_prefix(SG_ERR_DEVICE, "sg_hotplug_create: ");
		sg_hotplug_destroy(hotplug);
		return NULL;
	}
	sg_log(SG_LOG_INFO, "hotplug: watching %zu connectors through the %s monitor",
	       hotplug->known_count, source);
	return hotplug;
}

void sg_hotplug_destroy(struct sg_hotplug *hotplug)
{
	if (!hotplug)
		return;
	udev_monitor_unref(hotplug->monitor);
	udev_unref(hotplug->udev);
	sg_free(hotplug);
}

int sg_hotplug_get_fd(const struct sg_hotplug *hotplug)
{
	return hotplug ? udev_monitor_get_fd(hotplug->monitor) : -1;
}

sg_result sg_hotplug_probe(struct sg_hotplug *hotplug)
{
	if (!hotplug)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_hotplug_probe: hotplug is NULL");
	return probe(hotplug, true);
}

sg_result sg_hotplug_dispatch(struct sg_hotplug *hotplug)
{
	if (!hotplug)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_hotplug_dispatch: hotplug is NULL");
	bool ours = false;
	struct udev_device *device;
	while ((device = udev_monitor_receive_device(hotplug->monitor))) {
		const char *action = udev_device_get_action(device);
		if (udev_device_get_devnum(device) == hotplug->devnum && action &&
		    strcmp(action, "change") == 0)
			ours = true;
		udev_device_unref(device);
	}
	return ours ? probe(hotplug, true) : SG_OK;
}
