/* The 3D mesh types of $.meshes (sg_mesh_create_3d): "solid", a triangle
 * list with normals, texture coordinates and colours, and the generated
 * "box" and "sphere". */
#include <math.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "read.h"

/* What a sphere's "segments" may be: 256 make 33153 vertices and 195072
 * indices, so that five such spheres fit the generated meshes' budget. */
#define MAX_SPHERE_SEGMENTS 256

/* One per-vertex attribute of a solid: an array of count arrays of `first`
 * (or, where `last` > first, up to `last`) numbers min .. max, into out
 * (`last` floats per vertex; a component left out takes 1, as alpha). */
struct attribute {
	const char *key, *what;
	int first, last;
	double min, max;
	float *values;
};

static sg_result read_attribute(struct sg_parse *p, struct json_object *list, size_t count,
                                struct attribute *a)
{
	size_t length =
	    json_object_is_type(list, json_type_array) ? json_object_array_length(list) : 0;
	if (length != count)
		return sg_parse_fail(p, "expected an array of %zu %s, one per position", count,
		                     a->what);
	if (!(a->values = sg_realloc_array(NULL, count, sizeof(float) * (size_t)a->last)))
		return sg_parse_no_memory(p);
	for (size_t i = 0; i < count; i++) {
		size_t mark = sg_json_path_push_index(&p->path, i);
		struct json_object *item = json_object_array_get_idx(list, i);
		float *out = a->values + i * (size_t)a->last;
		size_t n =
		    json_object_is_type(item, json_type_array) ? json_object_array_length(item) : 0;
		sg_result result = SG_OK;
		if (n < (size_t)a->first || n > (size_t)a->last)
			result = a->first == a->last
			             ? sg_parse_fail(p, "expected an array of %d numbers", a->first)
			             : sg_parse_fail(p, "expected an array of %d or %d numbers",
			                             a->first, a->last);
		out[a->last - 1] = 1.0f;
		for (size_t c = 0; !result && c < n; c++) {
			size_t component_mark = sg_json_path_push_index(&p->path, c);
			result = sg_read_number_value(p, json_object_array_get_idx(item, c), a->min,
			                              a->max, &out[c]);
			sg_json_path_pop(&p->path, component_mark);
		}
		sg_json_path_pop(&p->path, mark);
		if (result)
			return result;
	}
	return SG_OK;
}

/* The size of a triangle list of count items (vertices or indices). */
static sg_result check_count(struct sg_parse *p, struct json_object *list, bool triangles,
                             const char *what, size_t *count)
{
	*count = json_object_is_type(list, json_type_array) ? json_object_array_length(list) : 0;
	if (*count == 0 || *count > SG_SCENE_FILE_MAX_VERTICES)
		return sg_parse_fail(p, "expected an array of 1 to %d %s",
		                     SG_SCENE_FILE_MAX_VERTICES, what);
	if (triangles && *count % 3)
		return sg_parse_fail(p, "%zu %s: a triangle list needs a multiple of 3", *count,
		                     what);
	return SG_OK;
}

static sg_result read_indices(struct sg_parse *p, struct json_object *list, size_t vertex_count,
                              uint32_t **indices, size_t *count)
{
	sg_result result = check_count(p, list, true, "indices", count);
	if (!result && !(*indices = sg_realloc_array(NULL, *count, sizeof(**indices))))
		result = sg_parse_no_memory(p);
	for (size_t i = 0; !result && i < *count; i++) {
		size_t mark = sg_json_path_push_index(&p->path, i);
		int index = 0;
		result = sg_read_int_value(p, json_object_array_get_idx(list, i), 0,
		                           (long)vertex_count - 1, &index);
		(*indices)[i] = (uint32_t)index;
		sg_json_path_pop(&p->path, mark);
	}
	return result;
}

enum { POSITIONS, NORMALS, UV0, UV1, COLORS, TANGENTS, ATTRIBUTES };

/* "normals": "flat" or "smooth" (computed), or an array (given). */
static sg_result read_normals(struct sg_parse *p, struct json_object *desc, size_t count,
                              struct attribute *normals, enum sg_normals *mode)
{
	static const char *const modes[] = {"auto", "flat", "smooth", NULL};
	struct json_object *value = sg_read_field(desc, "normals");
	if (!value)
		return SG_OK;
	if (json_object_is_type(value, json_type_string)) {
		int chosen = SG_NORMALS_AUTO;
		sg_result result = sg_read_choice(p, desc, "normals", modes + 1, &chosen);
		*mode = (enum sg_normals)(chosen + 1);
		return result;
	}
	size_t mark = sg_json_path_push_key(&p->path, "normals");
	sg_result result = read_attribute(p, value, count, normals);
	sg_json_path_pop(&p->path, mark);
	return result;
}

static sg_result read_solid(struct sg_parse *p, struct json_object *desc,
                            struct attribute attributes[ATTRIBUTES], struct sg_mesh3d_desc *mesh,
                            uint32_t **indices)
{
	static const char *const keys[] = {"type",   "positions", "normals", "uvs", "uvs1",
	                                   "colors", "tangents",  "indices", NULL};
	struct json_object *positions = sg_read_field(desc, "positions");
	struct json_object *index_list = sg_read_field(desc, "indices");
	sg_result result = sg_read_keys(p, desc, keys);
	if (!result && !positions)
		result = sg_parse_fail(p, "missing \"positions\"");
	size_t count = 0;
	if (!result) {
		size_t mark = sg_json_path_push_key(&p->path, "positions");
		result = check_count(p, positions, !index_list, "positions [x, y, z]", &count);
		if (!result)
			result = read_attribute(p, positions, count, &attributes[POSITIONS]);
		sg_json_path_pop(&p->path, mark);
	}
	if (!result)
		result = read_normals(p, desc, count, &attributes[NORMALS], &mesh->normals_mode);
	for (int i = UV0; !result && i < ATTRIBUTES; i++) {
		struct json_object *list = sg_read_field(desc, attributes[i].key);
		if (!list)
			continue;
		size_t mark = sg_json_path_push_key(&p->path, attributes[i].key);
		result = read_attribute(p, list, count, &attributes[i]);
		sg_json_path_pop(&p->path, mark);
	}
	if (!result && index_list) {
		size_t mark = sg_json_path_push_key(&p->path, "indices");
		result = read_indices(p, index_list, count, indices, &mesh->index_count);
		sg_json_path_pop(&p->path, mark);
	}
	mesh->vertex_count = count;
	return result;
}

sg_result sg_make_solid(struct sg_parse *p, struct json_object *desc, sg_mesh *mesh)
{
	struct attribute attributes[ATTRIBUTES] = {
	    [POSITIONS] = {"positions", "positions [x, y, z]", 3, 3, -1e30, 1e30, NULL},
	    [NORMALS] = {"normals", "normals [x, y, z]", 3, 3, -1e30, 1e30, NULL},
	    [UV0] = {"uvs", "texture coordinates [u, v]", 2, 2, -1e30, 1e30, NULL},
	    [UV1] = {"uvs1", "texture coordinates [u, v]", 2, 2, -1e30, 1e30, NULL},
	    [COLORS] = {"colors", "colours [r, g, b] or [r, g, b, a]", 3, 4, 0, 1, NULL},
	    [TANGENTS] = {"tangents", "tangents [x, y, z, w]", 4, 4, -1e30, 1e30, NULL},
	};
	struct sg_mesh3d_desc mesh_desc = {0};
	uint32_t *indices = NULL;
	sg_result result = read_solid(p, desc, attributes, &mesh_desc, &indices);
	if (!result) {
		mesh_desc.positions = attributes[POSITIONS].values;
		mesh_desc.normals = attributes[NORMALS].values;
		mesh_desc.uv0 = attributes[UV0].values;
		mesh_desc.uv1 = attributes[UV1].values;
		mesh_desc.colors = attributes[COLORS].values;
		mesh_desc.tangents = attributes[TANGENTS].values;
		mesh_desc.indices = indices;
		mesh_desc.index_type = indices ? SG_INDEX_U32 : SG_INDEX_NONE;
		*mesh = sg_mesh_create_3d(p->out->scene, &mesh_desc);
		/* every value was checked as it was read: only memory can be missing */
		if (!mesh->generation)
			result = sg_parse_fail_escaped(p);
	}
	for (int i = 0; i < ATTRIBUTES; i++)
		sg_free(attributes[i].values);
	sg_free(indices);
	return result;
}

/* Charges a generated mesh to the file's budget before it is made. */
static sg_result charge(struct sg_parse *p, size_t vertices, size_t indices)
{
	if (vertices > SG_SCENE_FILE_MAX_VERTICES - p->generated_vertices ||
	    indices > SG_SCENE_FILE_MAX_VERTICES - p->generated_indices)
		return sg_parse_limit(
		    p,
		    "%zu vertices and %zu indices would bring the generated meshes to %zu vertices "
		    "and %zu indices, over the limit of %d each in one file (a fixed limit: name "
		    "the mesh in $.meshes and share it between models)",
		    vertices, indices, p->generated_vertices + vertices,
		    p->generated_indices + indices, SG_SCENE_FILE_MAX_VERTICES);
	p->generated_vertices += vertices;
	p->generated_indices += indices;
	return SG_OK;
}

/* Makes a generated mesh of the arrays (vertex_count entries each), which it frees. */
static sg_result make_generated(struct sg_parse *p, struct sg_mesh3d_desc *desc, float *positions,
                                float *normals, float *uvs, uint32_t *indices, sg_mesh *mesh)
{
	sg_result result = SG_OK;
	if (!positions || !normals || !uvs || !indices) {
		result = sg_parse_no_memory(p);
	} else {
		desc->positions = positions;
		desc->normals = normals;
		desc->uv0 = uvs;
		desc->indices = indices;
		desc->index_type = SG_INDEX_U32;
		*mesh = sg_mesh_create_3d(p->out->scene, desc);
		if (!mesh->generation)
			result = sg_parse_fail_escaped(p);
	}
	sg_free(positions);
	sg_free(normals);
	sg_free(uvs);
	sg_free(indices);
	return result;
}

/* Each face of the box: its normal, then the axes to its right and up as
 * seen from outside (right x up = normal, so that the corners below are
 * counter-clockwise from outside, glTF's front). */
static const float box_faces[6][3][3] = {
    {{1, 0, 0}, {0, 0, -1}, {0, 1, 0}}, {{-1, 0, 0}, {0, 0, 1}, {0, 1, 0}},
    {{0, 1, 0}, {1, 0, 0}, {0, 0, -1}}, {{0, -1, 0}, {1, 0, 0}, {0, 0, 1}},
    {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}},  {{0, 0, -1}, {-1, 0, 0}, {0, 1, 0}},
};

sg_result sg_make_box(struct sg_parse *p, struct json_object *desc, sg_mesh *mesh)
{
	static const char *const keys[] = {"type", "size", NULL};
	/* bottom-left, bottom-right, top-right, top-left; texture (0, 0) top-left */
	static const float corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
	static const float corner_uvs[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
	float size[3];
	sg_result result = sg_read_keys(p, desc, keys);
	if (!result)
		result = sg_read_vector(p, desc, "size", true, 3, size);
	for (int i = 0; !result && i < 3; i++) {
		if (size[i] > 0 && size[i] <= 1e9)
			continue;
		size_t mark = sg_json_path_push_key(&p->path, "size");
		sg_json_path_push_index(&p->path, (size_t)i);
		result = sg_parse_fail(p, "%g is outside 1e-06 .. 1e+09", (double)size[i]);
		sg_json_path_pop(&p->path, mark);
	}
	if (!result)
		result = charge(p, 24, 36);
	if (result)
		return result;
	float *positions = sg_realloc_array(NULL, 24, 3 * sizeof(float));
	float *normals = sg_realloc_array(NULL, 24, 3 * sizeof(float));
	float *uvs = sg_realloc_array(NULL, 24, 2 * sizeof(float));
	uint32_t *indices = sg_realloc_array(NULL, 36, sizeof(uint32_t));
	for (int face = 0; positions && normals && uvs && indices && face < 6; face++) {
		const float(*axes)[3] = box_faces[face];
		for (int c = 0; c < 4; c++) {
			int v = face * 4 + c;
			for (int k = 0; k < 3; k++) {
				float unit = axes[0][k] + corners[c][0] * axes[1][k] +
				             corners[c][1] * axes[2][k];
				positions[v * 3 + k] = unit * size[k] * 0.5f;
				normals[v * 3 + k] = axes[0][k];
			}
			uvs[v * 2] = corner_uvs[c][0];
			uvs[v * 2 + 1] = corner_uvs[c][1];
		}
		static const uint32_t quad[6] = {0, 1, 2, 0, 2, 3};
		for (int i = 0; i < 6; i++)
			indices[face * 6 + i] = (uint32_t)(face * 4) + quad[i];
	}
	struct sg_mesh3d_desc box = {.vertex_count = 24, .index_count = 36};
	return make_generated(p, &box, positions, normals, uvs, indices, mesh);
}

/* A uv sphere: rings from the north pole (+Y) to the south, segments around
 * from +Z towards +X; u follows the segments, v the rings (0 at the top). */
static void fill_sphere(float radius, int segments, int rings, float *positions, float *normals,
                        float *uvs, uint32_t *indices)
{
	size_t v = 0, n = 0;
	for (int ring = 0; ring <= rings; ring++) {
		double theta = M_PI * ring / rings;
		for (int segment = 0; segment <= segments; segment++, v++) {
			double phi = 2 * M_PI * segment / segments;
			float normal[3] = {(float)(sin(theta) * sin(phi)), (float)cos(theta),
			                   (float)(sin(theta) * cos(phi))};
			for (int k = 0; k < 3; k++) {
				normals[v * 3 + k] = normal[k];
				positions[v * 3 + k] = normal[k] * radius;
			}
			uvs[v * 2] = (float)segment / (float)segments;
			uvs[v * 2 + 1] = (float)ring / (float)rings;
		}
	}
	uint32_t row = (uint32_t)segments + 1;
	for (uint32_t ring = 0; ring < (uint32_t)rings; ring++) {
		for (uint32_t segment = 0; segment < (uint32_t)segments; segment++) {
			uint32_t a = ring * row + segment, b = a + row, c = b + 1, d = a + 1;
			/* the triangles that would collapse onto a pole are left out */
			if (ring + 1 < (uint32_t)rings) {
				indices[n++] = a;
				indices[n++] = b;
				indices[n++] = c;
			}
			if (ring > 0) {
				indices[n++] = a;
				indices[n++] = c;
				indices[n++] = d;
			}
		}
	}
}

sg_result sg_make_sphere(struct sg_parse *p, struct json_object *desc, sg_mesh *mesh)
{
	static const char *const keys[] = {"type", "radius", "segments", NULL};
	float radius = 0;
	int segments = 32;
	sg_result result = sg_read_keys(p, desc, keys);
	if (!result)
		result = sg_read_number(p, desc, "radius", true, 1e-6, 1e9, &radius);
	if (!result)
		result = sg_read_int(p, desc, "segments", false, 3, MAX_SPHERE_SEGMENTS, &segments);
	int rings = segments / 2 > 2 ? segments / 2 : 2;
	size_t vertex_count = (size_t)(rings + 1) * (size_t)(segments + 1);
	size_t index_count = (size_t)segments * (size_t)(2 * rings - 2) * 3;
	if (!result)
		result = charge(p, vertex_count, index_count);
	if (result)
		return result;
	float *positions = sg_realloc_array(NULL, vertex_count, 3 * sizeof(float));
	float *normals = sg_realloc_array(NULL, vertex_count, 3 * sizeof(float));
	float *uvs = sg_realloc_array(NULL, vertex_count, 2 * sizeof(float));
	uint32_t *indices = sg_realloc_array(NULL, index_count, sizeof(uint32_t));
	if (positions && normals && uvs && indices)
		fill_sphere(radius, segments, rings, positions, normals, uvs, indices);
	struct sg_mesh3d_desc sphere = {.vertex_count = vertex_count, .index_count = index_count};
	return make_generated(p, &sphere, positions, normals, uvs, indices, mesh);
}
