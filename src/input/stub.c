/* libsg built without libinput (meson option 'input'): every sg_input call
 * says so. sg_rotation_point and sg_input_pick are built either way. */
#include <stddef.h>

#include <sg/input.h>

#include "../base/error.h"
#include "../base/sized.h"

static const char unsupported[] =
    "libsg was built without libinput (meson -Dinput=disabled, or libinput, libudev or "
    "xkbcommon missing)";

struct sg_input *sg_input_create_sized(const struct sg_input_desc *desc, size_t size)
{
	struct sg_input_desc sized_desc;
	if (desc && !(desc = sg_sized_in(&sized_desc, sizeof sized_desc, desc, size,
	                                 SG_SIZE_THROUGH(struct sg_input_desc, user_data),
	                                 "sg_input_create")))
		return NULL;
	(void)desc;
	sg_fail(SG_ERR_UNSUPPORTED, "sg_input_create: %s", unsupported);
	return NULL;
}

void sg_input_destroy(struct sg_input *input)
{
	(void)input;
}

const struct sg_input_info *sg_input_get_info(struct sg_input *input)
{
	(void)input;
	return NULL;
}

int sg_input_get_fd(const struct sg_input *input)
{
	(void)input;
	return -1;
}

sg_result sg_input_dispatch(struct sg_input *input)
{
	(void)input;
	return sg_fail(SG_ERR_UNSUPPORTED, "sg_input_dispatch: %s", unsupported);
}

sg_result sg_input_set_area(struct sg_input *input, int width, int height,
                            enum sg_rotation rotation)
{
	(void)input, (void)width, (void)height, (void)rotation;
	return sg_fail(SG_ERR_UNSUPPORTED, "sg_input_set_area: %s", unsupported);
}

sg_result sg_input_suspend(struct sg_input *input)
{
	(void)input;
	return sg_fail(SG_ERR_UNSUPPORTED, "sg_input_suspend: %s", unsupported);
}

sg_result sg_input_resume(struct sg_input *input)
{
	(void)input;
	return sg_fail(SG_ERR_UNSUPPORTED, "sg_input_resume: %s", unsupported);
}
