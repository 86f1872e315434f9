/* "model_file" nodes: a model file (glTF, OBJ, ... sg/model_file.h) imported
 * under a transform. Its path follows the rules of texture paths (inside the
 * scene's folder or an allowed one, symlinks resolved, a regular file), and
 * the files it names stay in its own folder, as the importer keeps them. */
#include <string.h>

#include <sg/model_file.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../graph/scene_internal.h"
#include "read.h"
#include "texture_path.h"

/* The decoded bytes of every texture of the scene: what an import made is
 * the difference, charged to the texture budget as a file's textures are. */
static uint64_t texture_bytes(const struct sg_scene *scene)
{
	const struct sg_pool *pool = &scene->texture_pool;
	uint64_t bytes = 0;
	for (uint32_t i = pool->first; i < pool->used; i++)
		if (pool->generation[i] & 1)
			bytes += (uint64_t)scene->textures[i].width *
			         (uint64_t)scene->textures[i].height * 4;
	return bytes;
}

/* What the models imported so far leave of a total; 0 when nothing. */
static size_t left(size_t total, size_t used)
{
	return used < total ? total - used : 0;
}

static sg_result check_count_and_budget(struct sg_parse *p, struct sg_import_budget *budget)
{
	if (p->model_file_count == SG_SCENE_FILE_MAX_MODEL_FILES)
		return sg_parse_limit(
		    p,
		    "a scene file imports at most %d model files, and this is one "
		    "more (a fixed limit: a model drawn several times is imported "
		    "as often)",
		    SG_SCENE_FILE_MAX_MODEL_FILES);
	uint64_t textures = p->limits.max_texture_bytes - p->texture_bytes;
	*budget = (struct sg_import_budget){
	    .max_vertices = left(SG_SCENE_FILE_MAX_IMPORT_VERTICES, p->imported_vertices),
	    .max_triangles = left(SG_SCENE_FILE_MAX_IMPORT_TRIANGLES, p->imported_triangles),
	    .max_nodes = left(SG_SCENE_FILE_MAX_IMPORT_NODES, p->imported_nodes),
	    /* 0 would be the importer's default: 1 byte refuses every texture */
	    .max_texture_bytes = textures ? (size_t)textures : 1,
	};
	if (budget->max_vertices && budget->max_triangles && budget->max_nodes)
		return SG_OK;
	return sg_parse_limit(p,
	                      "the models imported before this one have made %zu vertices, %zu "
	                      "triangles and %zu nodes, the most a scene file's models make "
	                      "together (a fixed limit of %u, %u and %u)",
	                      p->imported_vertices, p->imported_triangles, p->imported_nodes,
	                      SG_SCENE_FILE_MAX_IMPORT_VERTICES, SG_SCENE_FILE_MAX_IMPORT_TRIANGLES,
	                      SG_SCENE_FILE_MAX_IMPORT_NODES);
}

/* "allow_outside": true lets the model's own files (buffers, textures) lie
 * outside its folder: only where the caller allows folders, so that a scene
 * file alone cannot reach out of its folder through a model. */
static sg_result read_allow_outside(struct sg_parse *p, struct json_object *desc, bool *allow)
{
	sg_result result = sg_read_bool(p, desc, "allow_outside", allow);
	if (result || !*allow || p->limits.allowed_path_count)
		return result;
	size_t mark = sg_json_path_push_key(&p->path, "allow_outside");
	result = sg_fail(SG_ERR_IO,
	                 "%s: %s: a model's files may lie outside its folder only where the "
	                 "caller allows folders (allowed_paths, sg-render --allow-path DIR)",
	                 p->file_name, p->path.text);
	sg_json_path_pop(&p->path, mark);
	return result;
}

static sg_result import(struct sg_parse *p, const char *path, bool allow_outside, sg_node parent)
{
	struct sg_import_budget budget;
	sg_result result = check_count_and_budget(p, &budget);
	if (result)
		return result;
	size_t mark = sg_json_path_push_key(&p->path, "path");
	char *real = NULL;
	result = sg_scene_path_resolve(p, path, "model", &real);
	uint64_t before = texture_bytes(p->out->scene);
	struct sg_import_info info;
	if (!result && (result = sg_scene_import(
	                    p->out->scene,
	                    &(struct sg_import_desc){.path = real,
	                                             .parent = parent,
	                                             .budget = &budget,
	                                             .allow_outside_folder = allow_outside},
	                    &info)))
		sg_parse_fail_escaped(p);
	sg_free(real);
	if (!result) {
		uint64_t bytes = texture_bytes(p->out->scene) - before;
		p->model_file_count++;
		p->imported_vertices += info.vertices;
		p->imported_triangles += info.triangles;
		p->imported_nodes += info.nodes;
		p->texture_bytes += bytes;
		p->image_bytes += bytes;
		if (p->atlas_charged)
			result = sg_fonts_charge_atlas(p);
	}
	sg_json_path_pop(&p->path, mark);
	return result;
}

sg_result sg_make_model_file(struct sg_parse *p, struct json_object *desc, const char *name,
                             sg_node *node)
{
	static const char *const keys[] = {"type", "name",      "visible",       "opacity",
	                                   "path", "transform", "allow_outside", NULL};
	const char *path = NULL;
	bool allow_outside = false;
	if (sg_read_field(desc, "children"))
		return sg_parse_fail(p, "a model_file node has the model's nodes as its children "
		                        "(put other nodes beside it in a group)");
	sg_result result = sg_read_keys(p, desc, keys);
	if (!result)
		result = sg_read_string(p, desc, "path", true, &path);
	if (!result)
		result = read_allow_outside(p, desc, &allow_outside);
	if (result)
		return result;
	*node = sg_node_new_transform(p->out->scene, &(struct sg_transform_desc){.name = name});
	if (!node->generation)
		return sg_parse_fail_prefix(p, SG_ERR_NO_MEMORY);
	result = sg_parse_transform_key(p, desc, *node);
	if (!result)
		result = import(p, path, allow_outside, *node);
	return result;
}
