/* $.meshes and a model's "mesh": the built-in quad, an inline triangle list,
 * or one of the 3D types of meshes3d.c. */
#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/escape.h"
#include "read.h"

static sg_result make_quad(struct sg_parse *p, struct json_object *desc, sg_mesh *mesh)
{
	static const char *const keys[] = {"type", "width", "height", NULL};
	float width = 0, height = 0;
	sg_result result = sg_read_keys(p, desc, keys);
	if (!result)
		result = sg_read_number(p, desc, "width", true, 1e-6, 1e9, &width);
	if (!result)
		result = sg_read_number(p, desc, "height", true, 1e-6, 1e9, &height);
	if (result)
		return result;
	*mesh = sg_mesh_create_quad(p->out->scene, width, height);
	return mesh->generation ? SG_OK : sg_parse_fail_prefix(p, SG_ERR_NO_MEMORY);
}

/* An array of 1 .. SG_SCENE_FILE_MAX_VERTICES items; *count is its length. */
static sg_result read_list(struct sg_parse *p, struct json_object *list, size_t multiple,
                           const char *what, size_t *count)
{
	*count = json_object_is_type(list, json_type_array) ? json_object_array_length(list) : 0;
	if (*count == 0 || *count > SG_SCENE_FILE_MAX_VERTICES)
		return sg_parse_fail(p, "expected an array of 1 to %d %s",
		                     SG_SCENE_FILE_MAX_VERTICES, what);
	if (*count % multiple)
		return sg_parse_fail(p, "%zu %s: a triangle list needs a multiple of 3", *count,
		                     what);
	return SG_OK;
}

static sg_result read_vertices(struct sg_parse *p, struct json_object *list, bool indexed,
                               struct sg_vertex **vertices, size_t *count)
{
	size_t mark = sg_json_path_push_key(&p->path, "vertices");
	sg_result result = read_list(p, list, indexed ? 1 : 3, "vertices [x, y, z, u, v]", count);
	if (!result && !(*vertices = sg_realloc_array(NULL, *count, sizeof(**vertices))))
		result = sg_parse_no_memory(p);
	for (size_t i = 0; !result && i < *count; i++) {
		size_t index_mark = sg_json_path_push_index(&p->path, i);
		float values[5];
		result = sg_read_vector_value(p, json_object_array_get_idx(list, i), 5, values);
		if (!result)
			*(*vertices + i) = (struct sg_vertex){{values[0], values[1], values[2]},
			                                      {values[3], values[4]}};
		sg_json_path_pop(&p->path, index_mark);
	}
	sg_json_path_pop(&p->path, mark);
	return result;
}

static sg_result read_indices(struct sg_parse *p, struct json_object *list, size_t vertex_count,
                              uint32_t **indices, size_t *count)
{
	size_t mark = sg_json_path_push_key(&p->path, "indices");
	sg_result result = read_list(p, list, 3, "indices", count);
	if (!result && !(*indices = sg_realloc_array(NULL, *count, sizeof(**indices))))
		result = sg_parse_no_memory(p);
	for (size_t i = 0; !result && i < *count; i++) {
		size_t index_mark = sg_json_path_push_index(&p->path, i);
		int index = 0;
		result = sg_read_int_value(p, json_object_array_get_idx(list, i), 0,
		                           (long)vertex_count - 1, &index);
		(*indices)[i] = (uint32_t)index;
		sg_json_path_pop(&p->path, index_mark);
	}
	sg_json_path_pop(&p->path, mark);
	return result;
}

static sg_result make_triangles(struct sg_parse *p, struct json_object *desc, sg_mesh *mesh)
{
	static const char *const keys[] = {"type", "vertices", "indices", NULL};
	struct json_object *vertex_list = sg_read_field(desc, "vertices");
	struct json_object *index_list = sg_read_field(desc, "indices");
	struct sg_vertex *vertices = NULL;
	uint32_t *indices = NULL;
	size_t vertex_count = 0, index_count = 0;
	sg_result result = sg_read_keys(p, desc, keys);
	if (!result && !vertex_list)
		result = sg_parse_fail(p, "missing \"vertices\"");
	if (!result)
		result =
			read_vertices(p, vertex_list, index_list != NULL, &vertices, &vertex_count);
	if (!result && index_list)
		result = read_indices(p, index_list, vertex_count, &indices, &index_count);
	if (!result) {
		*mesh = sg_mesh_create(p->out->scene,
		                       &(struct sg_mesh_desc){.vertices = vertices,
		                                              .vertex_count = vertex_count,
		                                              .indices = indices,
		                                              .index_count = index_count});
		if (!mesh->generation)
			result = sg_parse_fail_prefix(p, SG_ERR_NO_MEMORY);
	}
	sg_free(vertices);
	sg_free(indices);
	return result;
}

static sg_result make_mesh(struct sg_parse *p, struct json_object *desc, sg_mesh *mesh)
{
	static const char *const types[] = {"quad", "triangles", "solid", "box", "sphere", NULL};
	static sg_result (*const makers[])(struct sg_parse *, struct json_object *, sg_mesh *) = {
	    make_quad, make_triangles, sg_make_solid, sg_make_box, sg_make_sphere};
	int type = -1;
	sg_result result = sg_read_object(p, desc);
	if (!result)
		result = sg_read_required_choice(p, desc, "type", types, &type);
	if (result)
		return result;
	return makers[type](p, desc, mesh);
}

sg_result sg_parse_meshes(struct sg_parse *p, struct json_object *root)
{
	struct json_object *meshes = sg_read_field(root, "meshes");
	if (!meshes)
		return SG_OK;
	size_t mark = sg_json_path_push_key(&p->path, "meshes");
	sg_result result = sg_read_object(p, meshes);
	if (!result) {
		size_t count = (size_t)json_object_object_length(meshes);
		p->meshes = sg_realloc_array(NULL, count, sizeof(*p->meshes));
		if (!p->meshes)
			result =
				sg_parse_no_memory(p);
	}
	if (!result) {
		json_object_object_foreach (meshes, name, desc) {
			size_t name_mark = sg_json_path_push_key(&p->path, name);
			sg_mesh mesh = {0};
			result = make_mesh(p, desc, &mesh);
			sg_json_path_pop(&p->path, name_mark);
			if (result)
				break;
			p->meshes[p->mesh_count++] = (struct sg_named_mesh){name, mesh};
		}
	}
	sg_json_path_pop(&p->path, mark);
	return result;
}

/* A mesh of $.meshes, by its name. */
static sg_result find_named_mesh(struct sg_parse *p, struct json_object *ref, sg_mesh *mesh)
{
	const char *name = NULL;
	sg_result result = sg_read_string_value(p, ref, &name);
	if (result)
		return result;
	for (size_t i = 0; i < p->mesh_count; i++) {
		if (strcmp(p->meshes[i].name, name) == 0) {
			*mesh = p->meshes[i].mesh;
			return SG_OK;
		}
	}
	char shown[128];
	return sg_parse_fail(p, "unknown mesh \"%s\" (not in $.meshes)",
	                     sg_escape(name, SG_ESCAPE_JSON, shown, sizeof(shown)));
}

sg_result sg_parse_mesh_ref(struct sg_parse *p, struct json_object *model, sg_mesh *mesh)
{
	struct json_object *ref = sg_read_field(model, "mesh");
	size_t mark = sg_json_path_push_key(&p->path, "mesh");
	sg_result result = SG_OK;
	if (!ref) {
		result = sg_parse_fail(p, "missing (a name of $.meshes or a mesh object)");
	} else if (json_object_is_type(ref, json_type_string)) {
		result = find_named_mesh(p, ref, mesh);
	} else {
		result = make_mesh(p, ref, mesh);
	}
	sg_json_path_pop(&p->path, mark);
	return result;
}
