/* Picking: the ray through a pixel, from the near to the far plane, is walked
 * through the tree in reverse draw order (last child first), skipping hidden
 * and unpickable subtrees and those whose world box (bounds.c) it misses; the
 * first model it hits is the one drawn on top, since libsg draws in painter's
 * order. Triangles are intersected in world space (Moller-Trumbore), which
 * gives the perspective-correct barycentric weights the rasterizer uses. */
#include <sg/pick.h>

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/floats.h"
#include "../graph/scene_internal.h"
#include "../graph/shape_outline.h"
#include "bounds.h"
#include "clips.h"
#include "views3d.h"

struct ray {
	vec3 origin, direction; /* the near point, and far minus near: t in [0, 1] */
	mat4 view_projection;
	mat4 to_window; /* view_projection with y flipped, as the renderer draws (clips.h) */
};

static sg_result make_ray(const struct sg_camera *camera, int width, int height, float x, float y,
                          struct ray *ray)
{
	if (width < 1 || height < 1 || !isfinite(x) || !isfinite(y))
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "pick: output %dx%d or point (%g, %g) is not valid",
		               width, height, (double)x, (double)y);
	struct sg_camera pixels;
	if (!camera) {
		sg_camera_init_pixels(&pixels, (float)width, (float)height);
		camera = &pixels;
	}
	if (!sg_floats_finite(camera->projection, 16) || !sg_floats_finite(camera->view, 16))
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "pick: camera matrices have NaN or infinite entries");
	mat4 projection, view, inverse;
	memcpy(projection, camera->projection, sizeof(mat4));
	memcpy(view, camera->view, sizeof(mat4));
	glm_mat4_mul(projection, view, ray->view_projection);
	glm_mat4_copy(ray->view_projection, ray->to_window);
	for (int col = 0; col < 4; col++)
		ray->to_window[col][1] = -ray->to_window[col][1];
	if (fabsf(glm_mat4_det(ray->view_projection)) < FLT_MIN)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "pick: the camera's projection * view cannot be inverted");
	glm_mat4_inv(ray->view_projection, inverse);
	/* Row 0 of the output is its top: NDC y = +1 (the renderer flips y into
	 * the framebuffer so that the image reads top row first). */
	float ndc_x = 2.0f * x / (float)width - 1.0f, ndc_y = 1.0f - 2.0f * y / (float)height;
	vec4 near = {ndc_x, ndc_y, -1.0f, 1.0f}, far = {ndc_x, ndc_y, 1.0f, 1.0f}, a, b;
	glm_mat4_mulv(inverse, near, a);
	glm_mat4_mulv(inverse, far, b);
	if (fabsf(a[3]) < FLT_MIN || fabsf(b[3]) < FLT_MIN)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "pick: the camera maps the point to infinity");
	for (int i = 0; i < 3; i++) {
		ray->origin[i] = a[i] / a[3];
		ray->direction[i] = b[i] / b[3] - ray->origin[i];
	}
	return SG_OK;
}

/* Slab test of the segment against a box. */
static bool ray_meets_box(const struct ray *ray, vec3 box[2])
{
	if (sg_box_is_empty(box))
		return false;
	float low = 0.0f, high = 1.0f;
	for (int i = 0; i < 3; i++) {
		float o = ray->origin[i], d = ray->direction[i];
		/* widened a little: a box is computed in float as the draw is */
		float slack = 1e-4f * (fabsf(box[0][i]) + fabsf(box[1][i]) + 1.0f);
		float lo = box[0][i] - slack, hi = box[1][i] + slack;
		if (fabsf(d) < 1e-30f) {
			if (o < lo || o > hi)
				return false;
			continue;
		}
		float t0 = (lo - o) / d, t1 = (hi - o) / d;
		if (t0 > t1) {
			float swap = t0;
			t0 = t1;
			t1 = swap;
		}
		low = t0 > low ? t0 : low;
		high = t1 < high ? t1 : high;
		if (low > high)
			return false;
	}
	return true;
}

/* Moller-Trumbore: the segment parameter t and weights (u, v) of p1, p2. */
static bool ray_meets_triangle(const struct ray *ray, vec3 p0, vec3 p1, vec3 p2, float *t,
                               float *u, float *v)
{
	vec3 e1, e2, p, q, s;
	glm_vec3_sub(p1, p0, e1);
	glm_vec3_sub(p2, p0, e2);
	glm_vec3_cross((float *)ray->direction, e2, p);
	float det = glm_vec3_dot(e1, p);
	if (fabsf(det) < 1e-20f)
		return false; /* seen edge-on: drawn as no pixel */
	float inv = 1.0f / det;
	glm_vec3_sub((float *)ray->origin, p0, s);
	*u = glm_vec3_dot(s, p) * inv;
	if (*u < 0.0f || *u > 1.0f)
		return false;
	glm_vec3_cross(s, e1, q);
	*v = glm_vec3_dot((float *)ray->direction, q) * inv;
	if (*v < 0.0f || *u + *v > 1.0f)
		return false;
	*t = glm_vec3_dot(e2, q) * inv;
	return *t >= 0.0f && *t <= 1.0f;
}

/* The last triangle of model n under the ray, as a hit; with nearest (in
 * a 3D view, which draws by depth), the one nearest along the ray, whose
 * parameter is *nearest_t. */
static bool hit_model(const struct sg_world *w, const struct sg_scene *scene, uint32_t n,
                      const struct ray *ray, struct sg_pick_hit *hit, float *nearest_t)
{
	bool found = false;
	const struct sg_mesh_data *m = sg_scene_model_mesh(scene, n);
	if (!m)
		return false;
	/* A shape texture's model is hit inside the shape's outline only. */
	const struct sg_texture_data *texture =
	    sg_scene_texture(scene, sg_model_texture(scene, sg_scene_model(scene, n)));
	const struct sg_shape_desc *shape = texture ? texture->shape : NULL;
	mat4 model_world;
	sg_world_model(w, scene, n, model_world);
	uint32_t count = sg_mesh_draw_count(m);
	for (uint32_t k = count / 3; k-- > 0;) { /* last first: the one drawn on top */
		uint32_t corner[3];
		vec3 world[3];
		for (int c = 0; c < 3; c++) {
			corner[c] = m->indices ? m->indices[k * 3 + c] : k * 3 + c;
			glm_mat4_mulv3(model_world, m->vertices[corner[c]].position, 1.0f, world[c]);
		}
		float t, u, v;
		if (!ray_meets_triangle(ray, world[0], world[1], world[2], &t, &u, &v) ||
		    (nearest_t && found && t >= *nearest_t))
			continue;
		float w[3] = {1.0f - u - v, u, v};
		if (shape) {
			float uv[2] = {0, 0};
			for (int c = 0; c < 3; c++)
				for (int i = 0; i < 2; i++)
					uv[i] += w[c] * m->vertices[corner[c]].uv[i];
			if (sg_shape_distance(shape, uv[0], uv[1]) > 0)
				continue;
		}
		if (nearest_t)
			*nearest_t = t;
		found = true;
		*hit = (struct sg_pick_hit){.node = sg_scene_handle(scene, n), .triangle = k,
		                            .barycentric = {w[0], w[1], w[2]}};
		for (int c = 0; c < 3; c++) {
			const struct sg_vertex *vertex = &m->vertices[corner[c]];
			for (int i = 0; i < 3; i++) {
				hit->local[i] += w[c] * vertex->position[i];
				hit->world[i] += w[c] * world[c][i];
			}
			hit->uv[0] += w[c] * vertex->uv[0];
			hit->uv[1] += w[c] * vertex->uv[1];
		}
		if (!nearest_t)
			return true;
	}
	return found;
}

/* The output and camera a pick looks through, for the 3D views' own rays. */
struct pick_frame {
	const struct sg_camera *camera;
	int width, height;
	float x, y;
	const struct sg_world *world; /* the picks' own (struct sg_scene_query) */
};

/* What the picks keep of a scene between calls, in the scene (they are made
 * on the thread that edits it): world matrices and boxes of their own, as a
 * renderer keeps its own. */
struct sg_scene_query {
	struct sg_world world;
	struct sg_bounds bounds;
};

static void query_free(struct sg_scene_query *query)
{
	sg_world_finish(&query->world);
	sg_bounds_finish(&query->bounds);
	sg_free(query);
}

/* The scene's query, made the first time, its boxes brought up to date. */
static sg_result query_update(struct sg_scene *scene, struct sg_scene_query **out)
{
	if (!scene->query) {
		if (!(scene->query = sg_calloc(1, sizeof(*scene->query))))
			return sg_fail(SG_ERR_NO_MEMORY, "out of memory for the boxes of a pick");
		scene->query_free = query_free;
	}
	*out = scene->query;
	return sg_bounds_update(&scene->query->bounds, &scene->query->world, scene);
}

static sg_result make_ray(const struct sg_camera *camera, int width, int height, float x, float y,
                          struct ray *ray);

struct view_hit {
	struct sg_pick_hit hit;
	float t;
};

static int nearest_hit_first(const void *a, const void *b)
{
	const struct view_hit *x = a, *y = b;
	return x->t < y->t ? -1 : x->t > y->t;
}

/* The models of 3D view n under the point, nearest first, given to found()
 * until it returns false (then *stop). The ray is made through the view's
 * camera and viewport, and taken from the view's space to the world. */
static sg_result pick_view(const struct sg_scene *scene, uint32_t view,
                           const struct pick_frame *frame,
                           bool (*found)(void *context, const struct sg_pick_hit *hit),
                           void *context, bool *stop)
{
	const struct sg_view3d_data *data = sg_scene_view3d(scene, view);
	struct sg_camera pixels;
	if (!frame->camera)
		sg_camera_init_pixels(&pixels, (float)frame->width, (float)frame->height);
	struct sg_views3d_camera place = {.camera = frame->camera ? frame->camera : &pixels,
	                                  .width = frame->width,
	                                  .height = frame->height,
	                                  .world = frame->world};
	int r[4];
	sg_view3d_place(scene, view, &place, r);
	if (frame->x < (float)r[0] || frame->y < (float)r[1] || frame->x >= (float)(r[0] + r[2]) ||
	    frame->y >= (float)(r[1] + r[3]))
		return SG_OK;
	struct ray ray;
	sg_result result = make_ray(data->has_camera ? &data->camera : place.camera, r[2], r[3],
	                            frame->x - (float)r[0], frame->y - (float)r[1], &ray);
	if (result)
		return result;
	if (data->has_camera) { /* the view's space to the world */
		vec4 *w = sg_world_node(frame->world, scene, view);
		vec3 o, d;
		glm_mat4_mulv3(w, ray.origin, 1.0f, o);
		glm_mat4_mulv3(w, ray.direction, 0.0f, d);
		glm_vec3_copy(o, ray.origin);
		glm_vec3_copy(d, ray.direction);
	}
	struct view_hit *hits = NULL;
	size_t count = 0, capacity = 0;
	for (uint32_t n = sg_scene_first_child(scene, view) ? view : 0; n;) {
		if (n != view && (scene->flags[n] & (SG_NODE_HIDDEN | SG_NODE_UNPICKABLE))) {
			n = sg_scene_skip_within(scene, view, n);
			continue;
		}
		struct view_hit h;
		if (scene->kind[n] == SG_NODE_MODEL && hit_model(frame->world, scene, n, &ray, &h.hit, &h.t)) {
			if (!sg_grow_array((void **)&hits, &capacity, count + 1, sizeof(*hits))) {
				sg_free(hits);
				return sg_fail(SG_ERR_NO_MEMORY, "pick: out of memory for %zu hits", count + 1);
			}
			hits[count++] = h;
		}
		n = sg_scene_next_preorder(scene, view, n);
	}
	if (count > 1) /* hits is NULL when there are none, which qsort may not be given */
		qsort(hits, count, sizeof(*hits), nearest_hit_first);
	for (size_t i = 0; i < count && !*stop; i++)
		*stop = !found(context, &hits[i].hit);
	sg_free(hits);
	return SG_OK;
}

/* Whether the point is inside every clip above model n, as drawn: the test
 * the shaders make of each pixel's centre (output pixels, row 0 at the top
 * as the renderer's), made of the point; a pick at a pixel's centre (i +
 * 0.5, j + 0.5) is answered as that pixel is drawn. Asked of the models hit
 * only, so that the 3D views below a clip, which it does not clip, are
 * picked as they are drawn. */
static bool in_clips(const struct sg_scene *scene, uint32_t n, const struct ray *ray,
                     const struct pick_frame *frame)
{
	for (uint32_t a = sg_scene_clip_above(scene, n); a; a = sg_scene_clip_above(scene, a)) {
		struct sg_clip_shape shape;
		sg_clip_shape_of(scene, frame->world, a, ray->to_window, frame->width, frame->height,
		                 &shape);
		if (!sg_clip_shape_contains(&shape, frame->x, frame->y))
			return false;
	}
	return true;
}

/* Walks the attached tree in reverse draw order; calls found() with each model
 * hit until it returns false. */
static sg_result walk(struct sg_scene *scene, const struct ray *ray,
                      const struct pick_frame *asked,
                      bool (*found)(void *context, const struct sg_pick_hit *hit), void *context)
{
	struct sg_scene_query *query;
	sg_result result = query_update(scene, &query);
	if (result)
		return result;
	struct pick_frame with_world = *asked;
	with_world.world = &query->world;
	const struct pick_frame *frame = &with_world;
	const struct sg_node_links *links = scene->links;
	vec3(*boxes)[2] = query->bounds.boxes;
	uint32_t n = SG_ROOT_INDEX;
	for (;;) {
		bool pickable = !(scene->flags[n] & (SG_NODE_HIDDEN | SG_NODE_UNPICKABLE));
		bool view = scene->kind[n] == SG_NODE_VIEW3D && n != SG_ROOT_INDEX;
		/* A 3D view picks with a ray of its own, which the world boxes of
		 * the nodes above it do not bound: scenes with views test every
		 * subtree. */
		bool enter = pickable && !view && (scene->view_count || ray_meets_box(ray, boxes[n]));
		if (pickable && view) { /* its own ray: the world boxes do not apply */
			bool stop = false;
			if ((result = pick_view(scene, n, frame, found, context, &stop)) || stop)
				return result;
		} else if (enter && scene->kind[n] == SG_NODE_MODEL) {
			struct sg_pick_hit hit;
			if (hit_model(frame->world, scene, n, ray, &hit, NULL) &&
			    in_clips(scene, n, ray, frame) &&
			    !found(context, &hit))
				return SG_OK;
		} else if (enter && scene->kind[n] != SG_NODE_VIEW3D && sg_scene_last_child(scene, n)) {
			n = sg_scene_last_child(scene, n);
			continue;
		}
		/* done with n's subtree: its previous sibling, or an ancestor's */
		while (n != SG_ROOT_INDEX && !links[n].prev_sibling)
			n = scene->parent[n];
		if (n == SG_ROOT_INDEX)
			return SG_OK;
		n = links[n].prev_sibling;
	}
}

static bool keep_first(void *context, const struct sg_pick_hit *hit)
{
	struct sg_pick_hit *out = context;
	*out = *hit;
	return false;
}

sg_result sg_scene_pick(struct sg_scene *scene, const struct sg_camera *camera, int width,
                        int height, float x, float y, struct sg_pick_hit *hit)
{
	if (!scene || !hit)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_scene_pick: %s is NULL",
		               scene ? "hit" : "scene");
	struct ray ray;
	sg_result result = make_ray(camera, width, height, x, y, &ray);
	if (result)
		return result;
	struct sg_pick_hit found = {0};
	struct pick_frame frame = {camera, width, height, x, y, NULL};
	if ((result = walk(scene, &ray, &frame, keep_first, &found)))
		return result;
	if (!found.node.generation)
		return sg_fail(SG_ERR_NOT_FOUND, "sg_scene_pick: no model at (%g, %g)", (double)x,
		               (double)y);
	*hit = found;
	return SG_OK;
}

struct all_hits {
	struct sg_pick_hit *hits;
	size_t count, capacity;
	bool failed;
};

static bool keep_all(void *context, const struct sg_pick_hit *hit)
{
	struct all_hits *all = context;
	if (!sg_grow_array((void **)&all->hits, &all->capacity, all->count + 1, sizeof(*all->hits))) {
		all->failed = true;
		return false;
	}
	all->hits[all->count++] = *hit;
	return true;
}

sg_result sg_scene_pick_all(struct sg_scene *scene, const struct sg_camera *camera, int width,
                            int height, float x, float y, struct sg_pick_hit *hits, size_t max,
                            size_t *count)
{
	if (!scene || !count || (max && !hits))
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_scene_pick_all: %s is NULL",
		               !scene ? "scene" : !count ? "count" : "hits");
	struct ray ray;
	sg_result result = make_ray(camera, width, height, x, y, &ray);
	if (result)
		return result;
	struct all_hits all = {0};
	struct pick_frame frame = {camera, width, height, x, y, NULL};
	if (!(result = walk(scene, &ray, &frame, keep_all, &all)) && all.failed)
		result = sg_fail(SG_ERR_NO_MEMORY, "sg_scene_pick_all: out of memory for %zu hits",
		                 all.count);
	if (!result) {
		/* found topmost first: reversed into draw order */
		for (size_t i = 0; i < all.count && i < max; i++)
			hits[i] = all.hits[all.count - 1 - i];
		*count = all.count;
	}
	sg_free(all.hits);
	return result;
}

sg_result sg_node_get_world_matrix(const struct sg_scene *scene, sg_node node, float matrix[16])
{
	sg_result result = sg_scene_check_node(scene, node, "sg_node_get_world_matrix");
	if (result)
		return result;
	if (!matrix)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_node_get_world_matrix: matrix is NULL");
	/* From the locals: no reader's world matrices need be current. */
	mat4 world;
	sg_scene_local_of(scene, node.index, world);
	for (uint32_t a = scene->parent[node.index]; a; a = scene->parent[a])
		glm_mat4_mul(sg_scene_local(scene, a), world, world);
	memcpy(matrix, world, sizeof(mat4));
	return SG_OK;
}

static bool attached(const struct sg_scene *scene, uint32_t n)
{
	while (scene->parent[n])
		n = scene->parent[n];
	return n == SG_ROOT_INDEX;
}

sg_result sg_node_get_world_bounds(struct sg_scene *scene, sg_node node, float min[3],
                                   float max[3])
{
	sg_result result = sg_scene_check_node(scene, node, "sg_node_get_world_bounds");
	if (result)
		return result;
	if (!min || !max)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_node_get_world_bounds: %s is NULL",
		               min ? "max" : "min");
	if (!attached(scene, node.index))
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "sg_node_get_world_bounds: node %s is not attached to the root",
		               sg_scene_node_label(scene, node.index));
	struct sg_scene_query *query;
	if ((result = query_update(scene, &query)))
		return result;
	vec3 *box = query->bounds.boxes[node.index];
	if (sg_box_is_empty(box))
		return sg_fail(SG_ERR_NOT_FOUND, "sg_node_get_world_bounds: node %s has no model",
		               sg_scene_node_label(scene, node.index));
	memcpy(min, box[0], 3 * sizeof(float));
	memcpy(max, box[1], 3 * sizeof(float));
	return SG_OK;
}
