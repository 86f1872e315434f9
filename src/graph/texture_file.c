/* sg_texture_load and sg_texture_load_png: an image file as a texture of a
 * scene. Any format src/image/ reads, shown upright (EXIF orientation
 * applied), or a PNG alone (decoding: base/png_read.c), from a regular file. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/open_regular.h"
#include "../base/png_read.h"
#include "../image/image.h"
#include "scene_internal.h"

static sg_texture load(struct sg_scene *scene, const char *path, enum sg_filter filter,
                       enum sg_wrap wrap, const char *call, bool png_only)
{
	sg_texture texture = {0};
	if (!scene || !path) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "%s: %s is NULL", call, scene ? "path" : "scene");
		return texture;
	}
	/* scene and model files' rule for the files they name: a regular file or
	 * none (a FIFO would block the load, /dev/zero be read to the limit) */
	int fd;
	struct stat st;
	if (sg_open_regular(path, path, 0, SG_ERR_IO, &fd, &st))
		return texture;
	FILE *file = fdopen(fd, "rb");
	if (!file) {
		sg_fail(SG_ERR_NO_MEMORY, "cannot read '%s': %s", path, strerror(errno));
		close(fd);
		return texture;
	}
	uint8_t *pixels = NULL;
	int width = 0, height = 0;
	const struct sg_image_options options = {.max_bytes = UINT64_MAX, .orient = true};
	sg_result result = png_only
	                       ? sg_png_read_rgba(file, path, UINT64_MAX, &pixels, &width, &height)
	                       : sg_image_read(file, path, &options, &pixels, &width, &height);
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

sg_texture sg_texture_load(struct sg_scene *scene, const char *path, enum sg_filter filter,
                           enum sg_wrap wrap)
{
	return load(scene, path, filter, wrap, "sg_texture_load", false);
}

sg_texture sg_texture_load_png(struct sg_scene *scene, const char *path, enum sg_filter filter,
                               enum sg_wrap wrap)
{
	return load(scene, path, filter, wrap, "sg_texture_load_png", true);
}
