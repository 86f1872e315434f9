/* libsg built without libudev: connector hotplug is refused. */
#include <stddef.h>

#include <sg/output.h>

#include "../base/error.h"
#include "../base/sized.h"

struct sg_hotplug *sg_hotplug_create_sized(const struct sg_hotplug_desc *desc, size_t size)
{
	struct sg_hotplug_desc sized_desc;
	if (desc && !(desc = sg_sized_in(&sized_desc, sizeof sized_desc, desc, size,
	                                 SG_SIZE_THROUGH(struct sg_hotplug_desc, user_data),
	                                 "sg_hotplug_create")))
		return NULL;
	(void)desc;
	sg_fail(SG_ERR_UNSUPPORTED,
	        "sg_hotplug_create: libsg was built without libudev (meson -Dinput=disabled or "
	        "libudev missing)");
	return NULL;
}

void sg_hotplug_destroy(struct sg_hotplug *hotplug)
{
	(void)hotplug;
}

int sg_hotplug_get_fd(const struct sg_hotplug *hotplug)
{
	(void)hotplug;
	return -1;
}

sg_result sg_hotplug_dispatch(struct sg_hotplug *hotplug)
{
	(void)hotplug;
	return sg_fail(SG_ERR_UNSUPPORTED, "sg_hotplug_dispatch: libsg was built without libudev");
}

sg_result sg_hotplug_probe(struct sg_hotplug *hotplug)
{
	(void)hotplug;
	return sg_fail(SG_ERR_UNSUPPORTED, "sg_hotplug_probe: libsg was built without libudev");
}
