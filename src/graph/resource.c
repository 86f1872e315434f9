/* Textures and meshes: CPU-side data owned by the scene. The renderer uploads
 * them on first use, so that this layer needs no GL. A texture update changes
 * the texels here and records its rectangle (scene_internal.h), which each
 * renderer uploads at its next draw. */
#include <stddef.h>
#include <string.h>

#include "../base/alloc.h"
#include "dmabuf.h"
#include "../base/error.h"
#include "../base/floats.h"
#include "resource.h"
#include "scene_internal.h"
#include "../base/side_limit.h"
#include "../base/sized.h"

const struct sg_texture_data *sg_scene_texture(const struct sg_scene *scene, sg_texture texture)
{
	return scene && texture.scene == scene->id &&
	               sg_pool_holds(&scene->texture_pool, texture.index, texture.generation)
	           ? &scene->textures[texture.index]
	           : NULL;
}

const struct sg_mesh_data *sg_scene_mesh(const struct sg_scene *scene, sg_mesh mesh)
{
	return scene && mesh.scene == scene->id &&
	               sg_pool_holds(&scene->mesh_pool, mesh.index, mesh.generation)
	           ? &scene->meshes[mesh.index]
	           : NULL;
}

sg_result sg_scene_check_texture(const struct sg_scene *scene, sg_texture texture, const char *what)
{
	if (!scene)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "%s: scene is NULL", what);
	return sg_pool_check(&scene->texture_pool, scene->id, texture.scene, texture.index,
	                     texture.generation, what);
}

sg_result sg_scene_check_mesh(const struct sg_scene *scene, sg_mesh mesh, const char *what)
{
	if (!scene)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "%s: scene is NULL", what);
	return sg_pool_check(&scene->mesh_pool, scene->id, mesh.scene, mesh.index, mesh.generation,
	                     what);
}

/* The resource arrays, grown by their pools (pool.h). */
static bool grow_textures(void *owner, uint32_t capacity)
{
	struct sg_scene *scene = owner;
	void *p = sg_realloc_array(scene->textures, capacity, sizeof(*scene->textures));
	if (p)
		scene->textures = p;
	return p != NULL;
}

static bool grow_meshes(void *owner, uint32_t capacity)
{
	struct sg_scene *scene = owner;
	void *p = sg_realloc_array(scene->meshes, capacity, sizeof(*scene->meshes));
	if (p)
		scene->meshes = p;
	return p != NULL;
}

bool sg_scene_alloc_mesh(struct sg_scene *scene, uint32_t *index)
{
	return sg_pool_alloc(&scene->mesh_pool, grow_meshes, scene, index);
}

bool sg_scene_alloc_texture(struct sg_scene *scene, uint32_t *index)
{
	return sg_pool_alloc(&scene->texture_pool, grow_textures, scene, index);
}

/* Texels with alpha below 255 among bytes of RGBA8. Two texels a compare: an
 * opaque pair, the common case, costs one (the mask is built from bytes so that
 * it holds on either byte order). */
static uint64_t translucent_texels(const uint8_t *rgba, size_t bytes)
{
	static const uint8_t alpha_bytes[8] = {0, 0, 0, 255, 0, 0, 0, 255};
	uint64_t alpha_mask, pair, count = 0;
	memcpy(&alpha_mask, alpha_bytes, sizeof(alpha_mask));
	size_t i = 0;
	for (; i + 8 <= bytes; i += 8) {
		memcpy(&pair, rgba + i, sizeof(pair));
		if ((pair & alpha_mask) != alpha_mask)
			count += (rgba[i + 3] < 255) + (rgba[i + 7] < 255);
	}
	for (; i < bytes; i += 4)
		count += rgba[i + 3] < 255;
	return count;
}

sg_texture sg_texture_create_sized(struct sg_scene *scene, const struct sg_texture_desc *desc,
                                   size_t size)
{
	struct sg_texture_desc sized_desc;
	if (desc && !(desc = sg_sized_in(&sized_desc, sizeof sized_desc, desc, size,
	                                 SG_SIZE_THROUGH(struct sg_texture_desc, wrap),
	                                 "sg_texture_create")))
		return (sg_texture){0};
	const sg_texture none = {0};
	if (!scene || !desc || !desc->pixels) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_texture_create: %s is NULL",
		        !scene ? "scene" : !desc ? "desc" : "desc->pixels");
		return none;
	}
	if (desc->width < 1 || desc->height < 1 || desc->width > SG_MAX_SIDE ||
	    desc->height > SG_MAX_SIDE) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "texture size %dx%d is outside 1x1 .. %dx%d",
		        desc->width, desc->height, SG_MAX_SIDE, SG_MAX_SIDE);
		return none;
	}
	size_t row = (size_t)desc->width * 4;
	size_t stride = desc->stride ? desc->stride : row;
	if (stride < row) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "texture stride %zu is less than width * 4 = %zu", stride,
		        row);
		return none;
	}
	if ((unsigned)desc->filter > SG_FILTER_LINEAR || (unsigned)desc->wrap > SG_WRAP_REPEAT) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "texture filter %d or wrap %d is unknown", desc->filter,
		        desc->wrap);
		return none;
	}
	uint8_t *pixels = sg_malloc(row * (size_t)desc->height);
	if (!pixels) {
		sg_fail(SG_ERR_NO_MEMORY, "out of memory for a %dx%d texture", desc->width, desc->height);
		return none;
	}
	uint32_t index;
	if (!sg_pool_alloc(&scene->texture_pool, grow_textures, scene, &index)) {
		sg_free(pixels);
		return none;
	}
	for (int y = 0; y < desc->height; y++)
		memcpy(pixels + row * (size_t)y, (const uint8_t *)desc->pixels + stride * (size_t)y, row);
	struct sg_texture_data *t = &scene->textures[index];
	*t = (struct sg_texture_data){
		.width = desc->width,
		.height = desc->height,
		.pixels = pixels,
		.filter = desc->filter,
		.wrap = desc->wrap,
		.translucent_texels = translucent_texels(pixels, row * (size_t)desc->height),
	};
	/* nothing drawn uses it yet */
	return (sg_texture){scene->id, index, scene->texture_pool.generation[index]};
}

sg_result sg_texture_destroy(struct sg_scene *scene, sg_texture texture)
{
	sg_result result = sg_scene_check_texture(scene, texture, "sg_texture_destroy");
	if (result)
		return result;
	struct sg_texture_data *t = &scene->textures[texture.index];
	sg_free(t->pixels);
	t->pixels = NULL;
	sg_texture_import_free(t->import);
	t->import = NULL;
	if (t->shape && t->shape->image.generation)
		scene->image_shapes--;
	sg_free(t->shape);
	t->shape = NULL;
	sg_pool_free(&scene->texture_pool, texture.index);
	scene->structure_version++; /* models using it must be refused */
	return SG_OK;
}

static sg_result check_update(const struct sg_scene *scene, sg_texture texture, int x, int y,
                              int width, int height, const void *pixels, size_t stride)
{
	sg_result result = sg_scene_check_texture(scene, texture, "sg_texture_update");
	if (result)
		return result;
	const struct sg_texture_data *t = &scene->textures[texture.index];
	if (t->import)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "sg_texture_update: texture #%u shows a dma-buf (sg_texture_import_dmabuf): "
		               "write the buffer and call sg_texture_mark_changed (sg/dmabuf.h)",
		               texture.index);
	if (t->shape)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "sg_texture_update: texture #%u is a shape: change it with "
		               "sg_texture_set_shape (sg/shape.h)",
		               texture.index);
	if (!pixels)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_texture_update: pixels of texture #%u is NULL",
		               texture.index);
	/* In 64 bits, so that x + width cannot wrap around. */
	if (x < 0 || y < 0 || width < 1 || height < 1 || (int64_t)x + width > t->width ||
	    (int64_t)y + height > t->height)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "sg_texture_update: rectangle %dx%d at (%d, %d) is empty or outside "
		               "texture #%u (%dx%d)",
		               width, height, x, y, texture.index, t->width, t->height);
	size_t row = (size_t)width * 4;
	if (stride && stride < row)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "sg_texture_update: stride %zu of texture #%u is less than width * 4 = %zu",
		               stride, texture.index, row);
	return SG_OK;
}

sg_result sg_texture_update(struct sg_scene *scene, sg_texture texture, int x, int y, int width,
                            int height, const void *pixels, size_t stride)
{
	sg_result result = check_update(scene, texture, x, y, width, height, pixels, stride);
	if (result)
		return result;
	struct sg_texture_data *t = &scene->textures[texture.index];
	size_t row = (size_t)width * 4;
	if (!stride)
		stride = row;
	const uint8_t *source = pixels;
	uint8_t *dest = t->pixels + ((size_t)y * (size_t)t->width + (size_t)x) * 4;
	size_t dest_stride = (size_t)t->width * 4;
	bool same = true;
	for (int r = 0; r < height && same; r++)
		same = !memcmp(dest + dest_stride * (size_t)r, source + stride * (size_t)r, row);
	if (same)
		return SG_OK; /* the texels it already has: no upload to ask for */
	bool was_opaque = t->translucent_texels == 0;
	for (int r = 0; r < height; r++) {
		uint8_t *to = dest + dest_stride * (size_t)r;
		const uint8_t *from = source + stride * (size_t)r;
		/* An opaque texture has no translucent texels to take out: the old
		 * texels (cold, in a large texture) are then not read at all. */
		if (!was_opaque)
			t->translucent_texels -= translucent_texels(to, row);
		t->translucent_texels += translucent_texels(from, row);
		memcpy(to, from, row);
	}
	t->update_serial++;
	scene->texture_updates++;
	if (was_opaque != (t->translucent_texels == 0))
		scene->appearance_version++; /* its models change pass (see src/traverse/paint.c) */
	t->updates[t->update_serial % SG_TEXTURE_UPDATE_HISTORY] =
		(struct sg_texture_rect){x, y, width, height};
	sg_scene_image_updated(scene, texture.index);
	return SG_OK;
}

bool sg_texture_exists(const struct sg_scene *scene, sg_texture texture)
{
	return sg_scene_texture(scene, texture) != NULL;
}

sg_mesh sg_mesh_create_sized(struct sg_scene *scene, const struct sg_mesh_desc *desc, size_t size)
{
	struct sg_mesh_desc sized_desc;
	if (desc && !(desc = sg_sized_in(&sized_desc, sizeof sized_desc, desc, size,
	                                 SG_SIZE_THROUGH(struct sg_mesh_desc, index_count),
	                                 "sg_mesh_create")))
		return (sg_mesh){0};
	const sg_mesh none = {0};
	if (!scene || !desc || !desc->vertices) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_mesh_create: %s is NULL",
		        !scene ? "scene" : !desc ? "desc" : "desc->vertices");
		return none;
	}
	size_t triangles_of = desc->indices ? desc->index_count : desc->vertex_count;
	if (desc->vertex_count == 0 || desc->vertex_count > UINT32_MAX || triangles_of == 0 ||
	    triangles_of % 3 || triangles_of > UINT32_MAX) {
		sg_fail(SG_ERR_INVALID_ARGUMENT,
		        "mesh needs a non-empty triangle list (%zu vertices, %zu indices)",
		        desc->vertex_count, desc->indices ? desc->index_count : 0);
		return none;
	}
	for (size_t i = 0; desc->indices && i < desc->index_count; i++) {
		if (desc->indices[i] >= desc->vertex_count) {
			sg_fail(SG_ERR_INVALID_ARGUMENT, "mesh index %zu is %u, past the %zu vertices", i,
			        desc->indices[i], desc->vertex_count);
			return none;
		}
	}
	for (size_t i = 0; i < desc->vertex_count; i++) {
		const struct sg_vertex *v = &desc->vertices[i];
		if (!sg_floats_finite(v->position, 3) || !sg_floats_finite(v->uv, 2)) {
			sg_fail(SG_ERR_INVALID_ARGUMENT, "mesh vertex %zu has a NaN or infinite value", i);
			return none;
		}
	}
	struct sg_vertex *vertices = sg_realloc_array(NULL, desc->vertex_count, sizeof(*vertices));
	uint32_t *indices =
		desc->indices ? sg_realloc_array(NULL, desc->index_count, sizeof(*indices)) : NULL;
	uint32_t index;
	bool taken = false;
	if (vertices && (indices || !desc->indices))
		taken = sg_pool_alloc(&scene->mesh_pool, grow_meshes, scene, &index);
	else
		sg_fail(SG_ERR_NO_MEMORY, "out of memory for a mesh of %zu vertices", desc->vertex_count);
	if (!taken) {
		sg_free(vertices);
		sg_free(indices);
		return none;
	}
	memcpy(vertices, desc->vertices, desc->vertex_count * sizeof(*vertices));
	if (indices)
		memcpy(indices, desc->indices, desc->index_count * sizeof(*indices));
	struct sg_mesh_data *m = &scene->meshes[index];
	*m = (struct sg_mesh_data){
		.vertices = vertices,
		.vertex_count = (uint32_t)desc->vertex_count,
		.indices = indices,
		.index_count = indices ? (uint32_t)desc->index_count : 0,
	};
	glm_vec3_copy(vertices[0].position, m->bounds[0]);
	glm_vec3_copy(vertices[0].position, m->bounds[1]);
	for (size_t i = 1; i < desc->vertex_count; i++) {
		glm_vec3_minv(m->bounds[0], vertices[i].position, m->bounds[0]);
		glm_vec3_maxv(m->bounds[1], vertices[i].position, m->bounds[1]);
	}
	/* nothing drawn uses it yet */
	return (sg_mesh){scene->id, index, scene->mesh_pool.generation[index]};
}

sg_mesh sg_mesh_create_quad(struct sg_scene *scene, float width, float height)
{
	/* Four corners and two indexed triangles: indexed draws let the driver
	 * shade each corner once. (0,0) is the top-left corner (y grows down). */
	const struct sg_vertex quad[4] = {
		{{0, 0, 0}, {0, 0}},
		{{0, height, 0}, {0, 1}},
		{{width, 0, 0}, {1, 0}},
		{{width, height, 0}, {1, 1}},
	};
	const uint32_t indices[6] = {0, 1, 2, 2, 1, 3};
	return sg_mesh_create(scene, &(struct sg_mesh_desc){
		.vertices = quad, .vertex_count = 4, .indices = indices, .index_count = 6});
}

sg_result sg_mesh_destroy(struct sg_scene *scene, sg_mesh mesh)
{
	sg_result result = sg_scene_check_mesh(scene, mesh, "sg_mesh_destroy");
	if (result)
		return result;
	struct sg_mesh_data *m = &scene->meshes[mesh.index];
	sg_free(m->vertices);
	sg_free(m->indices);
	sg_mesh_solid_free(m->solid);
	m->vertices = NULL;
	m->indices = NULL;
	m->solid = NULL;
	sg_pool_free(&scene->mesh_pool, mesh.index);
	scene->structure_version++; /* models using it must be refused */
	return SG_OK;
}

bool sg_mesh_exists(const struct sg_scene *scene, sg_mesh mesh)
{
	return sg_scene_mesh(scene, mesh) != NULL;
}
