/* sg_scene_file_load: reading the file, JSON syntax errors as FILE:LINE:COL, and
 * the top level of the format. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../graph/alloc.h"
#include "../graph/error.h"
#include "read.h"
#include "scene_file_internal.h"

static sg_result read_text(const char *path, char **text, size_t *length)
{
	FILE *file = fopen(path, "rb");
	if (!file)
		return sg_fail(SG_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
	sg_result result = SG_OK;
	size_t capacity = 0, used = 0;
	char *buffer = NULL;
	for (;;) {
		if (used == capacity) {
			if (capacity >= SG_SCENE_FILE_MAX_BYTES) {
				result = sg_fail(SG_ERR_FORMAT, "%s: larger than %d MiB", path,
				                 SG_SCENE_FILE_MAX_BYTES >> 20);
				break;
			}
			size_t grown = capacity ? capacity * 2 : 16384;
			char *bigger = sg_realloc_array(buffer, grown + 1, 1);
			if (!bigger) {
				result = sg_fail(SG_ERR_NO_MEMORY, "out of memory reading '%s'",
				                 path);
				break;
			}
			buffer = bigger;
			capacity = grown;
		}
		size_t n = fread(buffer + used, 1, capacity - used, file);
		used += n;
		if (n == 0) {
			if (ferror(file))
				result = sg_fail(SG_ERR_IO, "cannot read '%s': %s", path,
				                 strerror(errno));
			break;
		}
	}
	fclose(file);
	if (result) {
		sg_free(buffer);
		return result;
	}
	buffer[used] = '\0';
	*text = buffer;
	*length = used;
	return SG_OK;
}

static sg_result fail_at(const char *path, const char *text, size_t offset, const char *what)
{
	int line = 1, column = 1;
	for (size_t i = 0; i < offset; i++) {
		if (text[i] == '\n')
			line++, column = 1;
		else
			column++;
	}
	return sg_fail(SG_ERR_FORMAT, "%s:%d:%d: %s", path, line, column, what);
}

static sg_result parse_json(const char *path, const char *text, size_t length,
                            struct json_object **root)
{
	if (length > (size_t)SG_SCENE_FILE_MAX_BYTES)
		return sg_fail(SG_ERR_FORMAT, "%s: too large", path);
	struct json_tokener *tokener = json_tokener_new_ex(SG_SCENE_FILE_MAX_DEPTH);
	if (!tokener)
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory parsing '%s'", path);
	/* Strict: a scene file is plain JSON that any other tool can read too. */
	json_tokener_set_flags(tokener, JSON_TOKENER_STRICT);
	*root = json_tokener_parse_ex(tokener, text, (int)length);
	enum json_tokener_error error = json_tokener_get_error(tokener);
	size_t end = json_tokener_get_parse_end(tokener);
	json_tokener_free(tokener);
	if (!*root) {
		if (error == json_tokener_continue || error == json_tokener_success)
			return fail_at(path, text, length, "unexpected end of file");
		return fail_at(path, text, end, json_tokener_error_desc(error));
	}
	end += strspn(text + end, " \t\r\n");
	sg_result result = SG_OK;
	if (end < length)
		result = fail_at(path, text, end, "unexpected text after the scene");
	else if (!json_object_is_type(*root, json_type_object))
		result = fail_at(path, text, 0, "the scene must be a JSON object");
	if (result) {
		json_object_put(*root);
		*root = NULL;
	}
	return result;
}

static sg_result parse_root(struct sg_parse *p, struct json_object *root)
{
	static const char *const keys[] = {"output", "frames", "camera", "textures",
	                                   "meshes", "nodes",  NULL};
	sg_result result = sg_read_keys(p, root, keys);
	if (!result)
		result = sg_read_int(p, root, "frames", false, 1, SG_SCENE_FILE_MAX_FRAMES,
		                     &p->out->frame_count);
	if (!result)
		result = sg_parse_output(p, root);
	if (!result)
		result = sg_parse_camera(p, root);
	if (!result)
		result = sg_parse_textures(p, root);
	if (!result)
		result = sg_parse_meshes(p, root);
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

static sg_result build(const char *path, struct json_object *root, struct sg_scene_file *file)
{
	struct sg_parse p = {.file_name = path, .out = file};
	sg_json_path_init(&p.path);
	char *folder = folder_of(path);
	file->scene = folder ? sg_scene_create() : NULL;
	sg_result result = SG_OK;
	if (!file->scene)
		result = sg_fail(SG_ERR_NO_MEMORY, "out of memory loading '%s'", path);
	p.folder = folder;
	if (!result)
		result = parse_root(&p, root);
	sg_free(p.textures);
	sg_free(p.meshes);
	sg_free(folder);
	return result;
}

sg_result sg_scene_file_load(const char *path, struct sg_scene_file **out)
{
	if (!out || !path) {
		if (out)
			*out = NULL;
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_scene_file_load: %s is NULL",
		               out ? "path" : "out");
	}
	*out = NULL;
	char *text = NULL;
	size_t length = 0;
	sg_result result = read_text(path, &text, &length);
	if (result)
		return result;
	struct json_object *root = NULL;
	result = parse_json(path, text, length, &root);
	sg_free(text);
	if (result)
		return result;
	struct sg_scene_file *file = sg_calloc(1, sizeof(*file));
	if (!file) {
		json_object_put(root);
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory loading '%s'", path);
	}
	*file = (struct sg_scene_file){
		.width = 256, .height = 256, .background = {0, 0, 0, 1}, .frame_count = 1};
	result = build(path, root, file);
	json_object_put(root);
	if (result) {
		sg_scene_file_destroy(file);
		return result;
	}
	*out = file;
	return SG_OK;
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
	sg_scene_destroy(file->scene);
	sg_free(file);
}
