/* $.textures: named textures, loaded from image files (PNG, or any format
 * src/image/ reads) or generated. Every entry
 * is read and checked with the file, but made only when a model first uses it:
 * an unused texture is never decoded nor generated, and costs no budget. */
#include <stdio.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/escape.h"
#include "../base/png_read.h"
#include "../image/image.h"
#include "read.h"
#include "texture_path.h"

enum texture_type { TEXTURE_PNG, TEXTURE_SOLID, TEXTURE_CHECKERBOARD, TEXTURE_IMAGE };

static sg_result read_png(struct sg_parse *p, struct json_object *desc,
                          struct sg_named_texture *texture)
{
	static const char *const keys[] = {"type", "path", "filter", "wrap", NULL};
	sg_result result = sg_read_keys(p, desc, keys);
	if (!result)
		result = sg_read_string(p, desc, "path", true, &texture->file_path);
	if (result)
		return result;
	/* The path's text is checked now; the file system is left alone until
	 * the texture is used. */
	size_t mark = sg_json_path_push_key(&p->path, "path");
	result = sg_texture_path_check(p, texture->file_path);
	sg_json_path_pop(&p->path, mark);
	return result;
}

static sg_result read_texture_size(struct sg_parse *p, struct json_object *desc,
                                   struct sg_named_texture *texture)
{
	sg_result result = sg_read_int(p, desc, "width", false, 1, SG_SCENE_FILE_MAX_TEXTURE_SIDE,
	                               &texture->width);
	if (!result)
		result = sg_read_int(p, desc, "height", false, 1, SG_SCENE_FILE_MAX_TEXTURE_SIDE,
		                     &texture->height);
	return result;
}

static sg_result read_solid(struct sg_parse *p, struct json_object *desc,
                            struct sg_named_texture *texture)
{
	static const char *const keys[] = {"type",   "color", "width", "height",
	                                   "filter", "wrap",  NULL};
	texture->width = texture->height = 1;
	memcpy(texture->colors[0], (uint8_t[4]){255, 255, 255, 255}, 4);
	sg_result result = sg_read_keys(p, desc, keys);
	if (!result)
		result = read_texture_size(p, desc, texture);
	if (!result)
		result = sg_read_color(p, desc, "color", texture->colors[0]);
	return result;
}

static sg_result read_two_colors(struct sg_parse *p, struct json_object *desc, uint8_t colors[2][4])
{
	struct json_object *list = sg_read_field(desc, "colors");
	if (!list)
		return SG_OK;
	size_t mark = sg_json_path_push_key(&p->path, "colors");
	sg_result result = SG_OK;
	if (!json_object_is_type(list, json_type_array) || json_object_array_length(list) != 2)
		result = sg_parse_fail(p, "expected an array of 2 colours");
	for (size_t i = 0; !result && i < 2; i++) {
		size_t index_mark = sg_json_path_push_index(&p->path, i);
		result = sg_read_color_value(p, json_object_array_get_idx(list, i), colors[i]);
		sg_json_path_pop(&p->path, index_mark);
	}
	sg_json_path_pop(&p->path, mark);
	return result;
}

static sg_result read_checkerboard(struct sg_parse *p, struct json_object *desc,
                                   struct sg_named_texture *texture)
{
	static const char *const keys[] = {"type",   "width",  "height", "cell",
	                                   "colors", "filter", "wrap",   NULL};
	static const uint8_t colors[2][4] = {{0, 0, 0, 255}, {255, 255, 255, 255}};
	texture->width = texture->height = 64;
	texture->cell = 8;
	memcpy(texture->colors, colors, sizeof(colors));
	sg_result result = sg_read_keys(p, desc, keys);
	if (!result)
		result = read_texture_size(p, desc, texture);
	if (!result)
		result = sg_read_int(p, desc, "cell", false, 1, SG_SCENE_FILE_MAX_TEXTURE_SIDE,
		                     &texture->cell);
	if (!result)
		result = read_two_colors(p, desc, texture->colors);
	return result;
}

static sg_result read_texture(struct sg_parse *p, const char *name, struct json_object *desc)
{
	static const char *const types[] = {"png", "solid", "checkerboard", "image", NULL};
	static const char *const filters[] = {"nearest", "linear", NULL};
	static const char *const wraps[] = {"clamp", "repeat", NULL};
	static sg_result (*const readers[])(struct sg_parse *, struct json_object *,
	                                    struct sg_named_texture *) = {read_png, read_solid,
	                                                                  read_checkerboard, read_png};
	int type = -1, filter = SG_FILTER_NEAREST, wrap = SG_WRAP_CLAMP;
	sg_result result = sg_read_object(p, desc);
	if (!result)
		result = sg_read_required_choice(p, desc, "type", types, &type);
	if (!result)
		result = sg_read_choice(p, desc, "filter", filters, &filter);
	if (!result)
		result = sg_read_choice(p, desc, "wrap", wraps, &wrap);
	if (result)
		return result;
	struct sg_named_texture texture = {.name = name,
	                                   .type = type,
	                                   .filter = (enum sg_filter)filter,
	                                   .wrap = (enum sg_wrap)wrap};
	result = readers[type](p, desc, &texture);
	if (!result)
		p->textures[p->texture_count++] = texture;
	return result;
}

sg_result sg_parse_textures(struct sg_parse *p, struct json_object *root)
{
	struct json_object *textures = sg_read_field(root, "textures");
	if (!textures)
		return SG_OK;
	size_t mark = sg_json_path_push_key(&p->path, "textures");
	sg_result result = sg_read_object(p, textures);
	if (!result) {
		size_t count = (size_t)json_object_object_length(textures);
		p->textures = sg_realloc_array(NULL, count, sizeof(*p->textures));
		if (!p->textures)
			result = sg_parse_no_memory(p);
	}
	if (!result) {
		json_object_object_foreach (textures, name, desc) {
			size_t name_mark = sg_json_path_push_key(&p->path, name);
			result = read_texture(p, name, desc);
			sg_json_path_pop(&p->path, name_mark);
			if (result)
				break;
		}
	}
	sg_json_path_pop(&p->path, mark);
	return result;
}

/* The budget check, before a byte is allocated. */
static sg_result check_budget(struct sg_parse *p, int width, int height)
{
	uint64_t bytes = (uint64_t)width * (uint64_t)height * 4;
	if (bytes <= p->limits.max_texture_bytes - p->texture_bytes)
		return SG_OK;
	return sg_parse_limit(p,
	                      "%dx%d = %llu bytes would bring the used textures to %llu bytes, over "
	                      "the limit of %llu texture bytes " SG_LIMIT_HOW(
				      "max_texture_bytes", "texture-bytes"),
	                      width, height, (unsigned long long)bytes,
	                      (unsigned long long)(p->texture_bytes + bytes),
	                      (unsigned long long)p->limits.max_texture_bytes);
}

static void fill(const struct sg_named_texture *texture, uint8_t *pixels)
{
	for (int y = 0; y < texture->height; y++) {
		for (int x = 0; x < texture->width; x++) {
			/* The reference scene's pattern: the top-left cell has the first colour. */
			int which = texture->type == TEXTURE_SOLID
			                    ? 0
			                    : (x / texture->cell + y / texture->cell) % 2;
			memcpy(pixels + ((size_t)y * (size_t)texture->width + (size_t)x) * 4,
			       texture->colors[which], 4);
		}
	}
}

static sg_result decode_file(struct sg_parse *p, struct sg_named_texture *texture,
                            uint8_t **pixels)
{
	size_t mark = sg_json_path_push_key(&p->path, "path");
	FILE *file = NULL;
	sg_result result = sg_texture_path_open(p, texture->file_path, &file);
	if (!result) {
		char shown[256];
		sg_escape_path(texture->file_path, shown, sizeof(shown));
		uint64_t left = p->limits.max_texture_bytes - p->texture_bytes;
		if (texture->type == TEXTURE_PNG) {
			result = sg_png_read_rgba(file, shown, left, pixels, &texture->width,
			                          &texture->height);
		} else {
			const struct sg_image_options options = {.max_bytes = left, .orient = true};
			result = sg_image_read(file, shown, &options, pixels, &texture->width,
			                       &texture->height);
		}
		fclose(file);
		if (result == SG_ERR_LIMIT)
			result = check_budget(p, texture->width, texture->height);
		else if (result)
			sg_parse_fail_prefix(p, result);
	}
	sg_json_path_pop(&p->path, mark);
	return result;
}

static sg_result make(struct sg_parse *p, struct sg_named_texture *texture)
{
	uint8_t *pixels = NULL;
	sg_result result = SG_OK;
	if (texture->type == TEXTURE_PNG || texture->type == TEXTURE_IMAGE) {
		result = decode_file(p, texture, &pixels);
	} else if (!(result = check_budget(p, texture->width, texture->height))) {
		pixels = sg_realloc_array(NULL, (size_t)texture->width * (size_t)texture->height, 4);
		if (pixels)
			fill(texture, pixels);
		else
			result = sg_parse_no_memory(p);
	}
	if (result)
		return result;
	texture->texture = sg_texture_create(
		p->out->scene, &(struct sg_texture_desc){.width = texture->width,
	                                                 .height = texture->height,
	                                                 .pixels = pixels,
	                                                 .filter = texture->filter,
	                                                 .wrap = texture->wrap});
	sg_free(pixels);
	/* The size is checked already: only memory can be missing. */
	if (!texture->texture.generation)
		return sg_parse_fail_prefix(p, SG_ERR_NO_MEMORY);
	uint64_t bytes = (uint64_t)texture->width * (uint64_t)texture->height * 4;
	p->texture_bytes += bytes;
	p->image_bytes += bytes;
	return p->atlas_charged ? sg_fonts_charge_atlas(p) : SG_OK;
}

struct sg_named_texture *sg_texture_named(struct sg_parse *p, const char *name)
{
	for (size_t i = 0; i < p->texture_count; i++)
		if (strcmp(p->textures[i].name, name) == 0)
			return &p->textures[i];
	return NULL;
}

sg_result sg_texture_unknown(struct sg_parse *p, const char *name)
{
	char shown[128];
	return sg_parse_fail(p, "unknown texture \"%s\" (not in $.textures)",
	                     sg_escape(name, SG_ESCAPE_JSON, shown, sizeof(shown)));
}

sg_result sg_texture_use(struct sg_parse *p, struct sg_named_texture *texture, sg_texture *out)
{
	sg_result result = SG_OK;
	if (!texture->texture.generation) {
		/* Messages name the texture, where its description is. */
		struct sg_json_path user_path = p->path;
		sg_json_path_init(&p->path);
		sg_json_path_push_key(&p->path, "textures");
		sg_json_path_push_key(&p->path, texture->name);
		result = make(p, texture);
		p->path = user_path;
	}
	*out = texture->texture;
	return result;
}

sg_result sg_find_texture(struct sg_parse *p, struct json_object *model, sg_texture *out)
{
	return sg_find_texture_at(p, model, "texture", out);
}

sg_result sg_find_texture_at(struct sg_parse *p, struct json_object *object, const char *key,
                             sg_texture *out)
{
	const char *name = NULL;
	*out = SG_TEXTURE_NONE;
	sg_result result = sg_read_string(p, object, key, false, &name);
	if (result || !name)
		return result;
	struct sg_named_texture *texture = sg_texture_named(p, name);
	if (!texture) {
		size_t mark = sg_json_path_push_key(&p->path, key);
		result = sg_texture_unknown(p, name);
		sg_json_path_pop(&p->path, mark);
		return result;
	}
	return sg_texture_use(p, texture, out);
}
