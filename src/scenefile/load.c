/* sg_scene_file_load: the options, the top level of the format and the loaded
 * file's lifetime. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/escape.h"
#include "json_text.h"
#include "read.h"
#include "scene_file_internal.h"
#include "texture_path.h"
#include "../base/sized.h"

/* Deeper nesting than this could overflow the C stack in the recursive walks
 * of json-c and of the loader, whatever the caller allows. */
#define MAX_JSON_DEPTH_ALLOWED 10000

static sg_result parse_root(struct sg_parse *p, struct json_object *root)
{
	static const char *const keys[] = {"output", "frames", "fps",   "camera", "textures",
	                                   "materials", "meshes", "fonts", "nodes",  NULL};
	sg_result result = sg_read_keys(p, root, keys);
	if (!result)
		result = sg_read_int(p, root, "frames", false, 1, INT_MAX, &p->out->frame_count);
	if (!result && p->out->frame_count > p->limits.max_frames) {
		size_t mark = sg_json_path_push_key(&p->path, "frames");
		result = sg_parse_limit(p, "%d frames is over the limit of %d frames " SG_LIMIT_HOW(
						   "max_frames", "frames"),
		                        p->out->frame_count, p->limits.max_frames);
		sg_json_path_pop(&p->path, mark);
	}
	if (!result)
		result = sg_read_number(p, root, "fps", false, 0.001, 1000, &p->out->fps);
	if (!result)
		result = sg_parse_output_section(p, root);
	if (!result)
		result = sg_parse_camera(p, root);
	if (!result)
		result = sg_parse_textures(p, root);
	if (!result)
		result = sg_parse_materials(p, root);
	if (!result)
		result = sg_parse_meshes(p, root);
	if (!result)
		result = sg_parse_fonts(p, root);
	if (!result)
		result = sg_parse_nodes(p, root);
	return result;
}

/* "dir/scene.json" -> "dir/", "scene.json" -> "". */
static char *folder_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t length = slash ? (size_t)(slash - path) + 1 : 0;
	char *folder = sg_malloc(length + 1);
	if (folder) {
		memcpy(folder, path, length);
		folder[length] = '\0';
	}
	return folder;
}

static sg_result build(const char *name, const char *path,
                       const struct sg_scene_file_options *limits, struct json_object *root,
                       struct sg_scene_file *file)
{
	struct sg_parse p = {.file_name = name, .out = file, .limits = *limits};
	sg_json_path_init(&p.path);
	char *folder = folder_of(path);
	file->scene = folder ? sg_scene_create() : NULL;
	sg_result result = SG_OK;
	if (!file->scene)
		result = sg_fail(SG_ERR_NO_MEMORY, "out of memory loading '%s'", name);
	p.folder = folder;
	if (!result)
		result = sg_texture_path_resolve_folders(&p);
	if (!result)
		result = parse_root(&p, root);
	sg_texture_path_finish(&p);
	sg_free(p.textures);
	sg_free(p.meshes);
	sg_free(p.materials);
	sg_fonts_finish(&p);
	sg_free(folder);
	return result;
}

/* options with each 0 replaced by its default. */
static sg_result fill_limits(const struct sg_scene_file_options *options,
                             struct sg_scene_file_options *limits)
{
	*limits = options ? *options : (struct sg_scene_file_options){0};
	if (limits->max_json_depth < 0 || limits->max_json_depth > MAX_JSON_DEPTH_ALLOWED ||
	    limits->max_frames < 0)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "sg_scene_file_load_with: max_json_depth must be 0 .. %d and "
		               "max_frames not negative",
		               MAX_JSON_DEPTH_ALLOWED);
	if (limits->allowed_path_count && !limits->allowed_paths)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "sg_scene_file_load_with: allowed_paths is NULL");
	for (size_t i = 0; i < limits->allowed_path_count; i++)
		if (!limits->allowed_paths[i])
			return sg_fail(SG_ERR_INVALID_ARGUMENT,
			               "sg_scene_file_load_with: allowed_paths[%zu] is NULL", i);
	if (!limits->max_file_bytes)
		limits->max_file_bytes = SG_SCENE_FILE_DEFAULT_FILE_BYTES;
	if (!limits->max_json_depth)
		limits->max_json_depth = SG_SCENE_FILE_DEFAULT_JSON_DEPTH;
	if (!limits->max_texture_bytes)
		limits->max_texture_bytes = SG_SCENE_FILE_DEFAULT_TEXTURE_BYTES;
	if (!limits->max_output_pixels)
		limits->max_output_pixels = SG_SCENE_FILE_DEFAULT_OUTPUT_PIXELS;
	if (!limits->max_frames)
		limits->max_frames = SG_SCENE_FILE_DEFAULT_FRAMES;
	return SG_OK;
}

static sg_result load(const char *path, const char *name,
                      const struct sg_scene_file_options *limits, struct sg_scene_file **out)
{
	char *text = NULL;
	size_t length = 0;
	sg_result result = sg_json_read_file(path, name, limits->max_file_bytes, &text, &length);
	if (result)
		return result;
	struct json_object *root = NULL;
	result = sg_json_parse(name, text, length, limits->max_json_depth, &root);
	sg_free(text);
	if (result)
		return result;
	struct sg_scene_file *file = sg_calloc(1, sizeof(*file));
	if (!file) {
		json_object_put(root);
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory loading '%s'", name);
	}
	*file = (struct sg_scene_file){
		.width = 256, .height = 256, .background = {0, 0, 0, 1}, .frame_count = 1,
		.fps = 24};
	result = build(name, path, limits, root, file);
	json_object_put(root);
	if (result) {
		sg_scene_file_destroy(file);
		return result;
	}
	*out = file;
	return SG_OK;
}

sg_result sg_scene_file_load_with_sized(const char *path,
                                        const struct sg_scene_file_options *options,
                                        struct sg_scene_file **out, size_t size)
{
	struct sg_scene_file_options sized_options;
	if (options &&
	    !(options = sg_sized_in(&sized_options, sizeof sized_options, options, size,
	                            SG_SIZE_THROUGH(struct sg_scene_file_options, max_frames),
	                            "sg_scene_file_load_with")))
		return sg_last_result();
	if (!out || !path) {
		if (out)
			*out = NULL;
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_scene_file_load: %s is NULL",
		               out ? "path" : "out");
	}
	*out = NULL;
	struct sg_scene_file_options limits;
	sg_result result = fill_limits(options, &limits);
	if (result)
		return result;
	/* The path as given, but safe to print: it comes first in every message,
	 * so a long one is cut short in its middle, leaving the rest room. */
	char name[512];
	sg_escape_path(path, name, sizeof(name));
	return load(path, name, &limits, out);
}

sg_result sg_scene_file_load(const char *path, struct sg_scene_file **out)
{
	return sg_scene_file_load_with(path, NULL, out);
}

void sg_scene_file_destroy(struct sg_scene_file *file)
{
	if (!file)
		return;
	for (size_t i = 0; i < file->transform_count; i++) {
		sg_track_finish(&file->transforms[i].translate);
		sg_track_finish(&file->transforms[i].angle);
		sg_track_finish(&file->transforms[i].scale);
	}
	sg_free(file->transforms);
	for (size_t i = 0; i < file->appearance_count; i++)
		sg_appearance_finish(&file->appearances[i]);
	sg_free(file->appearances);
	for (size_t i = 0; i < file->text_track_count; i++)
		sg_text_track_finish(&file->text_tracks[i]);
	sg_free(file->text_tracks);
	sg_scene_destroy(file->scene);
	sg_free(file);
}
