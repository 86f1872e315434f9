/* sg_texture_load: an image file of any format src/image/ reads as a texture
 * of a scene, shown upright (EXIF orientation applied). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../image/image.h"
#include "scene_internal.h"

sg_texture sg_texture_load(struct sg_scene *scene, const char *path, enum sg_filter filter,
                           enum sg_wrap wrap)
{
	sg_texture texture = {0};
	if (!scene || !path) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_texture_load: %s is NULL",
		        scene ? "path" : "scene");
		return texture;
	}
	FILE *file = fopen(path, "rb");
	if (!file) {
		sg_fail(SG_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
		return texture;
	}
	uint8_t *pixels = NULL;
	int width = 0, height = 0;
	const struct sg_image_options options = {.max_bytes = UINT64_MAX, .orient = true};
	sg_result result = sg_image_read(file, path, &options, &pixels, &width, &height);
	fclose(file);
	if (result)
		return texture;
	texture = sg_texture_create(scene, &(struct sg_texture_desc){.width = width,
	                                                             .height = height,
	                                                             .pixels = pixels,
	                                                             .filter = filter,
	                                                             .wrap = wrap});
	if (!texture.generation)
		sg_fail_prefix(sg_last_result(), "loading '%s': ", path);
	sg_free(pixels);
	return texture;
}
