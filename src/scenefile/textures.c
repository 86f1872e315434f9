/* $.textures: named textures, loaded from PNG files or generated. */
#include <stdio.h>
#include <string.h>

#include "../graph/alloc.h"
#include "../graph/error.h"
#include "read.h"

struct texture_options {
	enum sg_filter filter;
	enum sg_wrap wrap;
};

/* Relative to the scene file, so that a scene folder can be moved as a whole. */
static char *texture_path(const struct sg_parse *p, const char *relative)
{
	if (relative[0] == '/')
		return sg_strdup(relative);
	size_t length = strlen(p->folder) + strlen(relative) + 1;
	char *path = sg_malloc(length);
	if (path)
		snprintf(path, length, "%s%s", p->folder, relative);
	return path;
}

static sg_result load_png(struct sg_parse *p, struct json_object *desc,
                          const struct texture_options *options, sg_texture *texture)
{
	static const char *const keys[] = {"type", "path", "filter", "wrap", NULL};
	const char *relative = NULL;
	sg_result result = sg_read_keys(p, desc, keys);
	if (!result)
		result = sg_read_string(p, desc, "path", true, &relative);
	if (result)
		return result;
	char *path = texture_path(p, relative);
	if (!path)
		return sg_parse_no_memory(p);
	size_t mark = sg_json_path_push_key(&p->path, "path");
	*texture = sg_texture_load_png(p->out->scene, path, options->filter, options->wrap);
	if (!texture->generation)
		result = sg_parse_fail_prefix(p, sg_last_result());
	sg_json_path_pop(&p->path, mark);
	sg_free(path);
	return result;
}

struct checkerboard {
	int cell;
	uint8_t colors[2][4];
};

static void fill_solid(uint8_t *pixels, int width, int height, const void *data)
{
	for (size_t i = 0; i < (size_t)width * (size_t)height; i++)
		memcpy(pixels + i * 4, data, 4);
}

/* The pattern of the reference scene: the top-left cell has the first colour. */
static void fill_checkerboard(uint8_t *pixels, int width, int height, const void *data)
{
	const struct checkerboard *board = data;
	for (int y = 0; y < height; y++)
		for (int x = 0; x < width; x++)
			memcpy(pixels + ((size_t)y * (size_t)width + (size_t)x) * 4,
			       board->colors[(x / board->cell + y / board->cell) % 2], 4);
}

static sg_result generate(struct sg_parse *p, int width, int height,
                          const struct texture_options *options,
                          void (*fill)(uint8_t *pixels, int width, int height, const void *data),
                          const void *data, sg_texture *texture)
{
	uint8_t *pixels = sg_realloc_array(NULL, (size_t)width * (size_t)height, 4);
	if (!pixels)
		return sg_parse_no_memory(p);
	fill(pixels, width, height, data);
	*texture =
		sg_texture_create(p->out->scene, &(struct sg_texture_desc){.width = width,
	                                                               .height = height,
	                                                               .pixels = pixels,
	                                                               .filter = options->filter,
	                                                               .wrap = options->wrap});
	sg_free(pixels);
	/* The size is checked already: only memory can be missing. */
	return texture->generation ? SG_OK : sg_parse_fail_prefix(p, SG_ERR_NO_MEMORY);
}

static sg_result read_texture_size(struct sg_parse *p, struct json_object *desc, int *width,
                                   int *height)
{
	sg_result result =
		sg_read_int(p, desc, "width", false, 1, SG_SCENE_FILE_MAX_TEXTURE_SIDE, width);
	if (!result)
		result = sg_read_int(p, desc, "height", false, 1, SG_SCENE_FILE_MAX_TEXTURE_SIDE,
		                     height);
	return result;
}

static sg_result make_solid(struct sg_parse *p, struct json_object *desc,
                            const struct texture_options *options, sg_texture *texture)
{
	static const char *const keys[] = {"type",   "color", "width", "height",
	                                   "filter", "wrap",  NULL};
	int width = 1, height = 1;
	uint8_t color[4] = {255, 255, 255, 255};
	sg_result result = sg_read_keys(p, desc, keys);
	if (!result)
		result = read_texture_size(p, desc, &width, &height);
	if (!result)
		result = sg_read_color(p, desc, "color", color);
	if (!result)
		result = generate(p, width, height, options, fill_solid, color, texture);
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

static sg_result make_checkerboard(struct sg_parse *p, struct json_object *desc,
                                   const struct texture_options *options, sg_texture *texture)
{
	static const char *const keys[] = {"type",   "width",  "height", "cell",
	                                   "colors", "filter", "wrap",   NULL};
	int width = 64, height = 64;
	struct checkerboard board = {.cell = 8, .colors = {{0, 0, 0, 255}, {255, 255, 255, 255}}};
	sg_result result = sg_read_keys(p, desc, keys);
	if (!result)
		result = read_texture_size(p, desc, &width, &height);
	if (!result)
		result = sg_read_int(p, desc, "cell", false, 1, SG_SCENE_FILE_MAX_TEXTURE_SIDE,
		                     &board.cell);
	if (!result)
		result = read_two_colors(p, desc, board.colors);
	if (!result)
		result = generate(p, width, height, options, fill_checkerboard, &board, texture);
	return result;
}

static sg_result parse_texture(struct sg_parse *p, const char *name, struct json_object *desc)
{
	static const char *const types[] = {"png", "solid", "checkerboard", NULL};
	static const char *const filters[] = {"nearest", "linear", NULL};
	static const char *const wraps[] = {"clamp", "repeat", NULL};
	static sg_result (*const makers[])(struct sg_parse *, struct json_object *,
	                                   const struct texture_options *, sg_texture *) = {
		load_png, make_solid, make_checkerboard};
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
	struct texture_options options = {(enum sg_filter)filter, (enum sg_wrap)wrap};
	sg_texture texture = {0};
	result = makers[type](p, desc, &options, &texture);
	if (!result)
		p->textures[p->texture_count++] = (struct sg_named_texture){name, texture};
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
		json_object_object_foreach(textures, name, desc) {
			size_t name_mark = sg_json_path_push_key(&p->path, name);
			result = parse_texture(p, name, desc);
			sg_json_path_pop(&p->path, name_mark);
			if (result)
				break;
		}
	}
	sg_json_path_pop(&p->path, mark);
	return result;
}
