/* sg_texture_load_png: a PNG file as a texture of a scene (decoding: base/png_read.c). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/png_read.h"
#include "scene_internal.h"

sg_texture sg_texture_load_png(struct sg_scene *scene, const char *path, enum sg_filter filter,
                               enum sg_wrap wrap)
{
	sg_texture texture = {0};
	if (!scene || !path) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_texture_load_png: %s is NULL",
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
	sg_result result = sg_png_read_rgba(file, path, UINT64_MAX, &pixels, &width, &height);
	fclose(file);
	if (result)
		return texture;
	texture = sg_texture_create(scene, &(struct sg_texture_desc){
		.width = width, .height = height, .pixels = pixels, .filter = filter, .wrap = wrap});
	if (!texture.generation)
		sg_fail_prefix(sg_last_result(), "loading '%s': ", path);
	sg_free(pixels);
	return texture;
}
