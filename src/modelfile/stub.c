/* sg/model_file.h where libsg is built without assimp (meson
 * option 'import'): every function exists and fails with
 * SG_ERR_UNSUPPORTED, so that programs link against any libsg and ask
 * sg_model_import_available() at run time. sg_import_camera_to_sg_camera is
 * plain math (camera.c), there in both. */
#include <sg/model_file.h>

#include "../base/error.h"
#include "../base/escape.h"

bool sg_model_import_available(void)
{
	return false;
}

sg_result sg_scene_import(struct sg_scene *scene, const struct sg_import_desc *desc,
                          struct sg_import_info *info)
{
	(void)scene;
	(void)info;
	char shown[256] = "(null)";
	if (desc && desc->path)
		sg_escape_path(desc->path, shown, sizeof(shown));
	return sg_fail(SG_ERR_UNSUPPORTED,
	               "sg_scene_import '%s': libsg was built without model import (meson option"
	               " import)",
	               shown);
}
