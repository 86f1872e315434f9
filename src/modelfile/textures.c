/* The images materials sample: embedded in the file (glTF's data: URIs and
 * buffer views, which assimp hands over as aiTexture, "*N"), or files beside
 * the model, decoded by src/image/ (PNG, JPEG, WebP as built; stored
 * orientation, as glTF samples them); each image is one libsg texture, its
 * samplers the material slots' (materials.c). */
#include "import_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/escape.h"
#include "../base/side_limit.h"
#include "../image/image.h"

/* The embedded image a name stands for: assimp's "*N", or an embedded
 * image's own file name; -1 for none. */
static int embedded_index(const struct aiScene *ai, const char *name)
{
	if (name[0] == '*') {
		char *end;
		long index = strtol(name + 1, &end, 10);
		if (end != name + 1 && *end == '\0' && index >= 0 && index < (long)ai->mNumTextures)
			return (int)index;
		return -2; /* "*N" past the images: refused by the caller */
	}
	for (unsigned i = 0; i < ai->mNumTextures; i++)
		if (ai->mTextures[i] && ai->mTextures[i]->mFilename.length &&
		    strcmp(ai->mTextures[i]->mFilename.data, name) == 0)
			return (int)i;
	return -1;
}

static sg_result decode(struct sg_import *im, const uint8_t *data, size_t size, const char *shown,
                        uint8_t **pixels, int *width, int *height)
{
	uint64_t left = im->budget.max_texture_bytes - im->texture_bytes;
	const struct sg_image_options options = {.max_bytes = left, .orient = false};
	sg_result result = sg_image_decode(data, size, shown, &options, pixels, width, height);
	if (result == SG_ERR_LIMIT)
		return sg_import_over_budget(im, "bytes of decoded textures",
		                             im->texture_bytes + (uint64_t)*width * *height * 4,
		                             im->budget.max_texture_bytes, "max_texture_bytes");
	return result;
}

/* assimp's uncompressed images: aiTexel is B, G, R, A. */
static sg_result raw_texels(struct sg_import *im, const struct aiTexture *image, const char *shown,
                            uint8_t **pixels, int *width, int *height)
{
	if (image->mWidth > SG_MAX_SIDE || image->mHeight > SG_MAX_SIDE)
		return sg_fail(SG_ERR_FORMAT, "'%s' is %ux%u: more than %d pixels on a side", shown,
		               image->mWidth, image->mHeight, SG_MAX_SIDE);
	uint64_t bytes = (uint64_t)image->mWidth * image->mHeight * 4;
	if (bytes > im->budget.max_texture_bytes - im->texture_bytes)
		return sg_import_over_budget(im, "bytes of decoded textures",
		                             im->texture_bytes + bytes,
		                             im->budget.max_texture_bytes, "max_texture_bytes");
	if (!image->pcData || !(*pixels = sg_malloc((size_t)bytes)))
		return sg_fail(image->pcData ? SG_ERR_NO_MEMORY : SG_ERR_FORMAT,
		               "'%s': no texels for the %ux%u image", shown, image->mWidth,
		               image->mHeight);
	for (size_t i = 0; i < (size_t)image->mWidth * image->mHeight; i++) {
		const struct aiTexel *texel = &image->pcData[i];
		uint8_t *out = *pixels + 4 * i;
		out[0] = texel->r;
		out[1] = texel->g;
		out[2] = texel->b;
		out[3] = texel->a;
	}
	*width = (int)image->mWidth;
	*height = (int)image->mHeight;
	return SG_OK;
}

static sg_result read_embedded(struct sg_import *im, int index, const char *shown, uint8_t **pixels,
                               int *width, int *height)
{
	const struct aiTexture *image = im->ai->mTextures[index];
	if (!image)
		return sg_fail(SG_ERR_FORMAT, "'%s': no image", shown);
	if (image->mHeight)
		return raw_texels(im, image, shown, pixels, width, height);
	/* compressed: mWidth is the size in bytes */
	return decode(im, (const uint8_t *)image->pcData, image->mWidth, shown, pixels, width,
	              height);
}

static sg_result read_file(struct sg_import *im, const char *path, const char *shown,
                           uint8_t **pixels, int *width, int *height)
{
	int fd;
	uint64_t size;
	sg_result result = sg_file_reads_open(&im->reads, path, &fd, &size);
	if (result == SG_ERR_NOT_FOUND)
		return sg_fail(SG_ERR_IO, "cannot open '%s': No such file or directory", shown);
	if (result)
		return result;
	uint8_t *data = sg_malloc(size ? (size_t)size : 1);
	size_t done = 0;
	while (data && done < size) {
		ssize_t n = pread(fd, data + done, (size_t)size - done, (off_t)done);
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	close(fd);
	if (!data)
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory reading '%s'", shown);
	result = decode(im, data, done, shown, pixels, width, height);
	sg_free(data);
	return result;
}

static struct sg_import_texture *cached(struct sg_import *im, int embedded, const char *path)
{
	for (size_t i = 0; i < im->texture_count; i++) {
		struct sg_import_texture *t = &im->textures[i];
		if (t->embedded == embedded && (embedded >= 0 || strcmp(t->path, path) == 0))
			return t;
	}
	return NULL;
}

/* The file a material names, beside the model unless it is absolute. */
static char *texture_path(const struct sg_import *im, const char *name)
{
	if (name[0] == '/')
		return sg_strdup(name);
	size_t folder = strlen(im->folder), length = strlen(name);
	char *path = sg_malloc(folder + length + 2);
	if (path)
		snprintf(path, folder + length + 2, "%s/%s", im->folder, name);
	return path;
}

sg_result sg_import_texture(struct sg_import *im, const char *name, sg_texture *out)
{
	char shown[256];
	sg_escape_path(name, shown, sizeof(shown));
	int embedded = embedded_index(im->ai, name);
	if (embedded == -2)
		return sg_fail(SG_ERR_FORMAT, "'%s': a material names image '%s' of %u", im->shown,
		               shown, im->ai->mNumTextures);
	char *path = NULL;
	if (embedded < 0 && !(path = texture_path(im, name)))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory importing '%s'", im->shown);
	struct sg_import_texture *known = cached(im, embedded, path);
	if (known) {
		sg_free(path);
		*out = known->texture;
		return SG_OK;
	}
	uint8_t *pixels = NULL;
	int width = 0, height = 0;
	sg_result result = embedded >= 0
	                       ? read_embedded(im, embedded, shown, &pixels, &width, &height)
	                       : read_file(im, path, shown, &pixels, &width, &height);
	if (result) {
		sg_fail_prefix(result, "importing '%s': texture: ", im->shown);
		goto fail;
	}
	if (!sg_grow_array((void **)&im->textures, &im->texture_capacity, im->texture_count + 1,
	                   sizeof(*im->textures))) {
		result = sg_fail(SG_ERR_NO_MEMORY, "out of memory importing '%s'", im->shown);
		goto fail;
	}
	/* glTF's default sampler as the texture's own (2D drawing of it, and a
	 * material slot's zero fields); each slot names its own (materials.c) */
	sg_texture texture =
	    sg_texture_create(im->scene, &(struct sg_texture_desc){.width = width,
	                                                           .height = height,
	                                                           .pixels = pixels,
	                                                           .filter = SG_FILTER_LINEAR,
	                                                           .wrap = SG_WRAP_REPEAT});
	if (!texture.generation) {
		result = sg_fail_prefix(sg_import_failure(),
		                        "importing '%s': texture '%s': ", im->shown, shown);
		goto fail;
	}
	im->textures[im->texture_count++] = (struct sg_import_texture){embedded, path, texture};
	im->texture_bytes += (uint64_t)width * height * 4;
	im->info.textures++;
	sg_free(pixels);
	*out = texture;
	return SG_OK;
fail:
	sg_free(path);
	sg_free(pixels);
	return result;
}
