/* Meshes with normals (sg_mesh_create_3d): their attributes interleaved for
 * the 3D views, normals computed where asked, and the positions and uv0 as
 * an ordinary mesh's vertices for everything else (2D drawing, bounds,
 * picks). */
#include <math.h>
#include <string.h>

#include <sg/scene3d.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/floats.h"
#include "resource.h"
#include "scene_internal.h"
#include "../base/sized.h"

void sg_mesh_solid_free(struct sg_mesh_solid *solid)
{
	if (solid)
		sg_free(solid->data);
	sg_free(solid);
}

static uint32_t index_at(const struct sg_mesh3d_desc *d, size_t i)
{
	if (!d->indices)
		return (uint32_t)i;
	return d->index_type == SG_INDEX_U16 ? ((const uint16_t *)d->indices)[i]
	                                     : ((const uint32_t *)d->indices)[i];
}

static sg_result check_array(const float *a, size_t count, size_t per, const char *what)
{
	if (a && !sg_floats_finite(a, count * per))
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_mesh_create_3d: %s has a NaN or infinite value",
		               what);
	return SG_OK;
}

static sg_result check_desc(const struct sg_mesh3d_desc *d)
{
	if (!d->positions)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_mesh_create_3d: desc->positions is NULL");
	size_t corners = d->indices ? d->index_count : d->vertex_count;
	if (d->vertex_count == 0 || d->vertex_count > UINT32_MAX || corners == 0 || corners % 3 ||
	    corners > UINT32_MAX)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "sg_mesh_create_3d: needs a non-empty triangle list (%zu vertices, %zu "
		               "indices)",
		               d->vertex_count, d->indices ? d->index_count : 0);
	if (d->indices && d->index_type != SG_INDEX_U16 && d->index_type != SG_INDEX_U32)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "sg_mesh_create_3d: indices given with index_type %d (U16 or U32)",
		               (int)d->index_type);
	if ((unsigned)d->normals_mode > SG_NORMALS_SMOOTH)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_mesh_create_3d: normals_mode %d is unknown",
		               (int)d->normals_mode);
	for (size_t i = 0; d->indices && i < d->index_count; i++)
		if (index_at(d, i) >= d->vertex_count)
			return sg_fail(SG_ERR_INVALID_ARGUMENT,
			               "sg_mesh_create_3d: index %zu is %u, past the %zu vertices", i,
			               index_at(d, i), d->vertex_count);
	size_t n = d->vertex_count;
	sg_result r;
	if ((r = check_array(d->positions, n, 3, "positions")) ||
	    (r = check_array(d->normals, n, 3, "normals")) || (r = check_array(d->uv0, n, 2, "uv0")) ||
	    (r = check_array(d->uv1, n, 2, "uv1")) || (r = check_array(d->colors, n, 4, "colors")) ||
	    (r = check_array(d->tangents, n, 4, "tangents")))
		return r;
	return SG_OK;
}

/* The normal of triangle (a, b, c), counter-clockwise front, its length
 * twice the area (so that sums weigh by area). */
static void face_normal(const float *a, const float *b, const float *c, vec3 out)
{
	vec3 e1 = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
	vec3 e2 = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
	glm_vec3_cross(e1, e2, out);
}

static void normalize_or_z(float *n)
{
	float length = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
	if (length > 0.0f && isfinite(length)) {
		n[0] /= length, n[1] /= length, n[2] /= length;
	} else { /* a degenerate triangle: any unit vector does */
		n[0] = 0.0f, n[1] = 0.0f, n[2] = 1.0f;
	}
}

/* Copies source vertex v's attributes into out (the layout of solid). */
static void put_vertex(const struct sg_mesh3d_desc *d, const struct sg_mesh_solid *s, size_t v,
                       float *out)
{
	memcpy(out, d->positions + 3 * v, 3 * sizeof(float));
	if (d->normals)
		memcpy(out + s->normal, d->normals + 3 * v, 3 * sizeof(float));
	if (d->uv0)
		memcpy(out + s->uv0, d->uv0 + 2 * v, 2 * sizeof(float));
	else
		out[s->uv0] = out[s->uv0 + 1] = 0.0f;
	if (s->uv1)
		memcpy(out + s->uv1, d->uv1 + 2 * v, 2 * sizeof(float));
	if (s->color)
		memcpy(out + s->color, d->colors + 4 * v, 4 * sizeof(float));
	if (s->tangent)
		memcpy(out + s->tangent, d->tangents + 4 * v, 4 * sizeof(float));
}

sg_mesh sg_mesh_create_3d_sized(struct sg_scene *scene, const struct sg_mesh3d_desc *d, size_t size)
{
	struct sg_mesh3d_desc sized_d;
	if (d && !(d = sg_sized_in(&sized_d, sizeof sized_d, d, size,
	                           SG_SIZE_THROUGH(struct sg_mesh3d_desc, normals_mode),
	                           "sg_mesh_create_3d")))
		return (sg_mesh){0};
	const sg_mesh none = {0};
	if (!scene || !d) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_mesh_create_3d: %s is NULL", scene ? "desc" : "scene");
		return none;
	}
	if (check_desc(d))
		return none;
	bool flat = d->normals_mode == SG_NORMALS_FLAT ||
	            (d->normals_mode == SG_NORMALS_AUTO && !d->normals);
	bool smooth = d->normals_mode == SG_NORMALS_SMOOTH;
	size_t corners = d->indices ? d->index_count : d->vertex_count;
	/* Flat normals split every corner into a vertex of its own. */
	size_t count = flat ? corners : d->vertex_count;
	struct sg_mesh_solid *s = sg_calloc(1, sizeof(*s));
	if (!s) {
		sg_fail(SG_ERR_NO_MEMORY, "out of memory for a 3D mesh");
		return none;
	}
	uint32_t stride = 8; /* position, normal, uv0 */
	s->normal = 3, s->uv0 = 6;
	if (d->uv1)
		s->uv1 = (uint8_t)stride, stride += 2;
	if (d->colors)
		s->color = (uint8_t)stride, stride += 4;
	if (d->tangents)
		s->tangent = (uint8_t)stride, stride += 4;
	s->stride = stride;
	s->data = sg_realloc_array(NULL, count, stride * sizeof(float));
	struct sg_vertex *vertices = sg_realloc_array(NULL, count, sizeof(*vertices));
	uint32_t *indices = !flat && d->indices ? sg_realloc_array(NULL, corners, sizeof(uint32_t))
	                                        : NULL;
	uint32_t index;
	if (!s->data || !vertices || (!flat && d->indices && !indices) ||
	    !sg_scene_alloc_mesh(scene, &index)) {
		if (!s->data || !vertices || (!flat && d->indices && !indices))
			sg_fail(SG_ERR_NO_MEMORY, "out of memory for a 3D mesh of %zu vertices", count);
		sg_mesh_solid_free(s);
		sg_free(vertices);
		sg_free(indices);
		return none;
	}
	if (flat) {
		for (size_t i = 0; i < corners; i++)
			put_vertex(d, s, index_at(d, i), s->data + i * stride);
		for (size_t t = 0; t < corners; t += 3) {
			float *v0 = s->data + t * stride;
			float *v1 = v0 + stride, *v2 = v1 + stride;
			vec3 n;
			face_normal(v0, v1, v2, n);
			normalize_or_z(n);
			for (int k = 0; k < 3; k++)
				memcpy(s->data + (t + (size_t)k) * stride + s->normal, n, sizeof(vec3));
		}
	} else {
		for (size_t v = 0; v < count; v++)
			put_vertex(d, s, v, s->data + v * stride);
		if (indices)
			for (size_t i = 0; i < corners; i++)
				indices[i] = index_at(d, i);
		if (smooth) {
			for (size_t v = 0; v < count; v++)
				memset(s->data + v * stride + s->normal, 0, sizeof(vec3));
			for (size_t t = 0; t < corners; t += 3) {
				uint32_t a = index_at(d, t), b = index_at(d, t + 1), c = index_at(d, t + 2);
				vec3 n;
				face_normal(d->positions + 3 * a, d->positions + 3 * b, d->positions + 3 * c,
				            n);
				uint32_t corner[3] = {a, b, c};
				for (int k = 0; k < 3; k++)
					glm_vec3_add(s->data + corner[k] * stride + s->normal, n,
					             s->data + corner[k] * stride + s->normal);
			}
		}
		for (size_t v = 0; v < count; v++)
			normalize_or_z(s->data + v * stride + s->normal);
	}
	for (size_t v = 0; v < count; v++) {
		const float *f = s->data + v * stride;
		memcpy(vertices[v].position, f, 3 * sizeof(float));
		memcpy(vertices[v].uv, f + s->uv0, 2 * sizeof(float));
	}
	struct sg_mesh_data *m = &scene->meshes[index];
	*m = (struct sg_mesh_data){
		.vertices = vertices,
		.vertex_count = (uint32_t)count,
		.indices = indices,
		.index_count = indices ? (uint32_t)corners : 0,
		.solid = s,
	};
	glm_vec3_copy(vertices[0].position, m->bounds[0]);
	glm_vec3_copy(vertices[0].position, m->bounds[1]);
	for (size_t v = 1; v < count; v++) {
		glm_vec3_minv(m->bounds[0], vertices[v].position, m->bounds[0]);
		glm_vec3_maxv(m->bounds[1], vertices[v].position, m->bounds[1]);
	}
	return (sg_mesh){scene->id, index, scene->mesh_pool.generation[index]};
}

sg_result sg_mesh_get_bounds(const struct sg_scene *scene, sg_mesh mesh, float bounds[6])
{
	sg_result result = sg_scene_check_mesh(scene, mesh, "sg_mesh_get_bounds");
	if (result)
		return result;
	if (!bounds)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_mesh_get_bounds: bounds is NULL");
	const struct sg_mesh_data *m = &scene->meshes[mesh.index];
	memcpy(bounds, m->bounds[0], sizeof(vec3));
	memcpy(bounds + 3, m->bounds[1], sizeof(vec3));
	return SG_OK;
}
