/* sg/model_file.h where libsg is built without assimp (meson
 * option 'import'): every function exists and fails with
 * SG_ERR_UNSUPPORTED, so that programs link against any libsg and ask
 * sg_model_import_available() at run time. sg_import_camera_to_sg_camera is
 * plain math (camera.c), there in both. */
#include <sg/model_file.h>

#include "../base/error.h"
#include "../base/escape.h"
#include "../base/sized.h"

bool sg_model_import_available(void)
{
	return false;
}

sg_result sg_scene_import_sized(struct sg_scene *scene, const struct sg_import_desc *desc,
                                struct sg_import_info *info, size_t desc_size, size_t info_size)
{
	(void)scene;
	(void)info;
	(void)info_size;
	struct sg_import_desc sized_desc;
	if (desc &&
	    !(desc = sg_sized_in(&sized_desc, sizeof sized_desc, desc, desc_size,
	                         SG_SIZE_THROUGH(struct sg_import_desc, allow_outside_folder),
	                         "sg_scene_import")))
		return sg_last_result();
	char shown[256] = "(null)";
	if (desc && desc->path)
		sg_escape_path(desc->path, shown, sizeof(shown));
	return sg_fail(SG_ERR_UNSUPPORTED,
	               "sg_scene_import '%s': libsg was built without model import (meson option"
	               " import)",
	               shown);
}
