/* The 3D views of a frame: for each shown view, its lights and models with
 * matrices in the view's space, sorted for drawing (opaque nearest first,
 * within each batch of one mesh and material, which lets the depth test
 * skip shading behind them; blended farthest first, which source-over
 * needs), and where it falls among the 2D draws. */
#include "views3d.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/rotation.h"
#include "../graph/scene_internal.h"
#include "cull.h"

void sg_views3d_finish(struct sg_views3d *views)
{
	for (size_t i = 0; i < views->capacity; i++)
		sg_free(views->views[i].draws);
	sg_free(views->views);
	sg_free(views->pending);
	*views = (struct sg_views3d){0};
}

/* Whether n and every ancestor are shown. */
static bool shown(const struct sg_scene *scene, uint32_t n)
{
	for (; n; n = scene->parent[n])
		if (scene->flags[n] & SG_NODE_HIDDEN)
			return false;
	return true;
}

static float opacity_above(const struct sg_scene *scene, uint32_t n)
{
	if (!scene->opacity_used)
		return 1.0f;
	float product = 1.0f;
	for (; n; n = scene->parent[n])
		product *= sg_scene_opacity(scene, n);
	return product;
}

/* The view's space: from the root (the render's camera) or from the view
 * node (a camera of its own); to_view takes world coordinates there. */
static void to_view_space(const struct sg_world *world, const struct sg_scene *scene,
                          uint32_t view, const struct sg_view3d_data *data, mat4 to_view)
{
	if (data->has_camera)
		glm_mat4_inv(sg_world_node(world, scene, view), to_view);
	else
		glm_mat4_identity(to_view);
}

/* The output rectangle of the view's viewport: its corners through the view
 * node's world matrix and the render's camera, their bounding box. */
void sg_view3d_place(const struct sg_scene *scene, uint32_t view,
                     const struct sg_views3d_camera *frame, int out[4])
{
	const struct sg_view3d_data *data = sg_scene_view3d(scene, view);
	out[0] = 0, out[1] = 0, out[2] = frame->width, out[3] = frame->height;
	const float *r = data->viewport;
	if (r[2] <= 0.0f || r[3] <= 0.0f)
		return;
	mat4 projection, camera_view, vp, m;
	memcpy(projection, frame->camera->projection, sizeof(mat4));
	memcpy(camera_view, frame->camera->view, sizeof(mat4));
	glm_mat4_mul(projection, camera_view, vp);
	glm_mat4_mul(vp, sg_world_node(frame->world, scene, view), m);
	float x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
	for (int c = 0; c < 4; c++) {
		vec4 p = {r[0] + (c & 1 ? r[2] : 0.0f), r[1] + (c & 2 ? r[3] : 0.0f), 0.0f, 1.0f}, q;
		glm_mat4_mulv(m, p, q);
		if (!(q[3] > 0.0f)) /* behind the camera: the whole output, conservatively */
			return;
		/* NDC y up; output rows from the top */
		float x = (q[0] / q[3] * 0.5f + 0.5f) * (float)frame->width;
		float y = (0.5f - q[1] / q[3] * 0.5f) * (float)frame->height;
		x0 = fminf(x0, x), x1 = fmaxf(x1, x), y0 = fminf(y0, y), y1 = fmaxf(y1, y);
	}
	int ix0 = (int)fmaxf(0.0f, fminf(roundf(x0), (float)frame->width));
	int iy0 = (int)fmaxf(0.0f, fminf(roundf(y0), (float)frame->height));
	int ix1 = (int)fmaxf(0.0f, fminf(roundf(x1), (float)frame->width));
	int iy1 = (int)fmaxf(0.0f, fminf(roundf(y1), (float)frame->height));
	out[0] = ix0, out[1] = iy0, out[2] = ix1 - ix0, out[3] = iy1 - iy0;
}

static sg_result add_light(struct sg_view3d_frame *v, const struct sg_world *w,
                           const struct sg_scene *scene, uint32_t n, mat4 to_view)
{
	if (v->light_count == SG_VIEW3D_MAX_LIGHTS) {
		/* the label is one buffer: the light's copied before the view's */
		char light[160];
		snprintf(light, sizeof(light), "%s", sg_scene_node_label(scene, n));
		return sg_fail(SG_ERR_LIMIT,
		               "3D view %s has more than SG_VIEW3D_MAX_LIGHTS (%d) lights shown "
		               "(light %s)",
		               sg_scene_node_label(scene, v->node), SG_VIEW3D_MAX_LIGHTS, light);
	}
	const struct sg_light_desc *d = &sg_scene_light(scene, n)->desc;
	mat4 m;
	glm_mat4_mul(to_view, sg_world_node(w, scene, n), m);
	struct sg_light3d *l = &v->lights[v->light_count++];
	l->type = d->type;
	glm_vec3_copy(m[3], l->position);
	glm_vec3_negate_to(m[2], l->direction);
	glm_vec3_normalize(l->direction);
	glm_vec3_scale((float *)d->color, d->intensity, l->radiance);
	l->range = d->range;
	l->inner_cos = cosf(d->inner_cone);
	l->outer_cos = cosf(d->outer_cone);
	return SG_OK;
}

static sg_result add_model(struct sg_view3d_frame *v, const struct sg_world *w,
                           const struct sg_scene *scene, uint32_t n, mat4 to_view)
{
	sg_result result = sg_draw_check_model(scene, n);
	if (result)
		return result;
	bool stale;
	const struct sg_material_data *material = sg_scene_model_material(scene, n, &stale);
	if (stale)
		return sg_fail(SG_ERR_STALE_HANDLE, "model %s uses a destroyed material",
		               sg_scene_node_label(scene, n));
	if (!sg_grow_array((void **)&v->draws, &v->capacity, v->count + 1, sizeof(*v->draws)))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory listing the %zu models of 3D view %s",
		               v->count + 1, sg_scene_node_label(scene, v->node));
	const struct sg_model_data *model = sg_scene_model(scene, n);
	const struct sg_mesh_data *mesh = sg_scene_model_mesh(scene, n);
	mat4 world, clip;
	sg_world_model(w, scene, n, world);
	if (!v->space_is_world) /* a camera of its own, under transforms */
		glm_mat4_mul(to_view, world, world);
	glm_mat4_mul(v->view_projection, world, clip);
	/* Out of the view's volume by its mesh's box: never drawn, never shaded
	 * (the picture is the same: no fragment of it would pass the clip). */
	if (sg_cull_box_outside(clip, (vec3 *)mesh->bounds)) {
		v->culled++;
		return SG_OK;
	}
	struct sg_draw3d *d = &v->draws[v->count++];
	d->node = n;
	d->mesh = model->mesh.index;
	d->texture = model->texture.generation ? model->texture.index : SG_DRAW_NO_TEXTURE;
	d->material = material ? (uint32_t)(material - scene->materials) : SG_DRAW3D_NO_MATERIAL;
	glm_mat4_copy(world, d->world);
	d->opacity = opacity_above(scene, n);
	memcpy(d->color, model->color, sizeof(d->color)); /* the model's is not 16-byte aligned */
	d->color[3] *= d->opacity;
	d->faded = false;
	if (material) {
		/* the opacities above fade an opaque material too, as they fade
		 * 2D models: rounded to a byte as the 2D path rounds them */
		d->faded = lroundf(d->opacity * 255.0f) < 255;
		d->blend = material->desc.alpha_mode == SG_ALPHA_BLEND || d->faded;
	} else {
		/* as the 2D path decides (paint.c): by the colour's alpha byte */
		bool texels = d->texture != SG_DRAW_NO_TEXTURE &&
		              scene->textures[d->texture].translucent_texels;
		d->blend = lroundf(d->color[3] * 255.0f) < 255 || texels;
	}
	d->mirrored = glm_mat4_det(d->world) < 0.0f;
	vec3 centre;
	glm_vec3_center((float *)mesh->bounds[0], (float *)mesh->bounds[1], centre);
	vec4 c = {centre[0], centre[1], centre[2], 1.0f}, in_view, in_world;
	glm_mat4_mulv(d->world, c, in_world);
	glm_mat4_mulv(v->view, in_world, in_view);
	d->depth = -in_view[2]; /* the camera looks down its -Z */
	return SG_OK;
}

/* Opaque draws grouped by what a draw call shares (material, texture, mesh,
 * winding), nearest first within a group; then the blended ones farthest
 * first. draw3d.c draws each run of equal neighbours as one instanced call,
 * which keeps this order exactly. */
static int draw_order(const void *a, const void *b)
{
	const struct sg_draw3d *x = a, *y = b;
	if (x->blend != y->blend)
		return x->blend ? 1 : -1;
	if (!x->blend) {
		if (x->material != y->material)
			return x->material < y->material ? -1 : 1;
		if (x->texture != y->texture)
			return x->texture < y->texture ? -1 : 1;
		if (x->mesh != y->mesh)
			return x->mesh < y->mesh ? -1 : 1;
		if (x->mirrored != y->mirrored)
			return x->mirrored ? 1 : -1;
	}
	if (x->depth != y->depth) /* blended: farthest first */
		return (x->depth < y->depth) == !x->blend ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node; /* stable across frames */
}

static sg_result note_nested(struct sg_views3d *views, uint32_t node, size_t outer)
{
	if (!sg_grow_array((void **)&views->pending, &views->pending_capacity,
	                   views->pending_count + 1, sizeof(*views->pending)))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory listing %zu nested 3D views",
		               views->pending_count + 1);
	views->pending[views->pending_count++] = (struct sg_view3d_pending){node, outer};
	return SG_OK;
}

/* The view's own lights and models (those of a view nested in it are
 * noted, for frames of their own), sorted for drawing. */
static sg_result collect_draws(struct sg_views3d *views, size_t index, const struct sg_scene *scene,
                               const struct sg_views3d_camera *frame)
{
	struct sg_view3d_frame *v = &views->views[index];
	v->light_count = 0;
	v->count = 0;
	v->culled = 0;
	sg_result result;
	for (uint32_t n = sg_scene_first_child(scene, v->node) ? v->node : 0; n;) {
		if (n != v->node && (scene->flags[n] & SG_NODE_HIDDEN)) {
			n = sg_scene_skip_within(scene, v->node, n);
			continue;
		}
		if (n != v->node && scene->kind[n] == SG_NODE_VIEW3D) {
			if ((result = note_nested(views, n, index)))
				return result;
			n = sg_scene_skip_within(scene, v->node, n);
			continue;
		}
		if (scene->kind[n] == SG_NODE_MODEL &&
		    (result = add_model(v, frame->world, scene, n, v->to_view)))
			return result;
		if (scene->kind[n] == SG_NODE_LIGHT &&
		    (result = add_light(v, frame->world, scene, n, v->to_view)))
			return result;
		n = sg_scene_next_preorder(scene, v->node, n);
	}
	if (sg_rotation_mirrors(frame->rotation)) /* the frame's mirror, on top of each world's */
		for (size_t i = 0; i < v->count; i++)
			v->draws[i].mirrored = !v->draws[i].mirrored;
	/* no draws (an empty view, lights alone, all hidden or culled): draws
	 * may be NULL, which qsort must not get even for no elements */
	if (v->count > 1)
		qsort(v->draws, v->count, sizeof(*v->draws), draw_order);
	v->opaque_count = 0;
	while (v->opaque_count < v->count && !v->draws[v->opaque_count].blend)
		v->opaque_count++;
	return SG_OK;
}

static void place_view(struct sg_view3d_frame *v, const struct sg_scene *scene,
                       const struct sg_views3d_camera *frame)
{
	const struct sg_view3d_data *data = sg_scene_view3d(scene, v->node);
	mat4 projection, flipped;
	to_view_space(frame->world, scene, v->node, data, v->to_view);
	mat4 identity = GLM_MAT4_IDENTITY_INIT;
	v->space_is_world = memcmp(v->to_view, identity, sizeof(mat4)) == 0;
	const struct sg_camera *camera = data->has_camera ? &data->camera : frame->camera;
	memcpy(projection, camera->projection, sizeof(mat4));
	memcpy(v->view, camera->view, sizeof(mat4));
	glm_mat4_mul((vec4 *)frame->flip, projection, flipped);
	glm_mat4_mul(flipped, v->view, v->view_projection);
	mat4 inverse;
	glm_mat4_inv(v->view, inverse);
	glm_vec3_copy(inverse[3], v->eye);
	glm_vec3_negate_to(inverse[2], v->forward);
	glm_vec3_normalize(v->forward);
	/* a projection whose w does not depend on z */
	v->orthographic = projection[2][3] == 0.0f && projection[3][3] != 0.0f;
	sg_view3d_place(scene, v->node, frame, v->viewport);
	if (frame->rotation != SG_ROTATION_0) {
		struct sg_rect r =
		    sg_rotation_rect(frame->rotation, frame->width, frame->height,
		                     (struct sg_rect){v->viewport[0], v->viewport[1],
		                                      v->viewport[2], v->viewport[3]});
		v->viewport[0] = r.x, v->viewport[1] = r.y, v->viewport[2] = r.width,
		v->viewport[3] = r.height;
	}
}

/* A nested view: the outer one's space, camera and viewport. */
static void place_nested(struct sg_view3d_frame *v, const struct sg_view3d_frame *outer)
{
	glm_mat4_copy((vec4 *)outer->to_view, v->to_view);
	v->space_is_world = outer->space_is_world;
	glm_mat4_copy((vec4 *)outer->view, v->view);
	glm_mat4_copy((vec4 *)outer->view_projection, v->view_projection);
	glm_vec3_copy((float *)outer->eye, v->eye);
	glm_vec3_copy((float *)outer->forward, v->forward);
	v->orthographic = outer->orthographic;
	memcpy(v->viewport, outer->viewport, sizeof(v->viewport));
}

/* The next frame of views, zeroed but for its draws (kept for reuse). */
static sg_result new_frame(struct sg_views3d *views, struct sg_view3d_frame **out)
{
	if (views->count == views->capacity) {
		size_t capacity = views->capacity ? views->capacity * 2 : 4;
		struct sg_view3d_frame *p =
		    sg_realloc_array(views->views, capacity, sizeof(*views->views));
		if (!p)
			return sg_fail(SG_ERR_NO_MEMORY, "out of memory for %zu 3D views",
			               capacity);
		memset(p + views->capacity, 0, (capacity - views->capacity) * sizeof(*p));
		views->views = p;
		views->capacity = capacity;
	}
	*out = &views->views[views->count++];
	return SG_OK;
}

static uint64_t signature_of(const struct sg_scene *scene, const struct sg_view3d_frame *v);

/* Frame index of view node (outer: the frame it is nested in, or SIZE_MAX),
 * its draws collected and its signature made. */
static sg_result collect_view(struct sg_views3d *views, size_t index, uint32_t node, size_t outer,
                              const struct sg_scene *scene, const struct sg_views3d_camera *frame)
{
	struct sg_view3d_frame *v = &views->views[index];
	v->node = node;
	v->generation = scene->node_pool.generation[node];
	v->nested = outer != SIZE_MAX;
	if (v->nested) {
		const struct sg_view3d_frame *o = &views->views[outer];
		v->top = o->top;
		v->position = o->position;
		place_nested(v, o);
	} else {
		v->top = node;
		place_view(v, scene, frame);
	}
	glm_vec3_copy((float *)sg_scene_view3d(scene, node)->ambient, v->ambient);
	sg_result result = collect_draws(views, index, scene, frame);
	if (!result)
		views->views[index].signature = signature_of(scene, &views->views[index]);
	return result;
}

/* A hash of size bytes, continuing from hash: 8 bytes a step (a byte a
 * step was a millisecond of a frame of 10,000 models), the tail padded. */
static uint64_t hash_bytes(uint64_t hash, const void *data, size_t size)
{
	const unsigned char *p = data;
	for (; size >= 8; size -= 8, p += 8) {
		uint64_t word;
		memcpy(&word, p, 8);
		hash = (hash ^ word) * 0x9e3779b97f4a7c15u;
		hash ^= hash >> 29;
	}
	uint64_t tail = 0;
	memcpy(&tail, p, size);
	hash = (hash ^ tail ^ size) * 0x9e3779b97f4a7c15u;
	return hash ^ (hash >> 29);
}

static uint64_t signature_of(const struct sg_scene *scene, const struct sg_view3d_frame *v)
{
	uint64_t h = 14695981039346656037u;
	h = hash_bytes(h, v->view_projection, sizeof(v->view_projection));
	h = hash_bytes(h, v->viewport, sizeof(v->viewport));
	h = hash_bytes(h, v->ambient, sizeof(v->ambient));
	h = hash_bytes(h, v->eye, sizeof(v->eye));
	h = hash_bytes(h, &v->light_count, sizeof(v->light_count));
	h = hash_bytes(h, v->lights, (size_t)v->light_count * sizeof(v->lights[0]));
	bool textured = false;
	for (size_t i = 0; i < v->count; i++) {
		const struct sg_draw3d *d = &v->draws[i];
		uint32_t ids[6] = {d->node, d->mesh, scene->mesh_pool.generation[d->mesh], d->material,
		                   d->material == SG_DRAW3D_NO_MATERIAL
		                       ? 0
		                       : scene->material_pool.generation[d->material],
		                   d->texture};
		h = hash_bytes(h, ids, sizeof(ids));
		h = hash_bytes(h, d->world, sizeof(d->world));
		h = hash_bytes(h, d->color, sizeof(d->color));
		h = hash_bytes(h, &d->opacity, sizeof(d->opacity));
		textured |= d->texture != SG_DRAW_NO_TEXTURE || d->material != SG_DRAW3D_NO_MATERIAL;
	}
	/* A texture's texels may change in place (sg_texture_update); its
	 * generation and slot stay: any update repaints a view that samples. */
	if (textured)
		h = hash_bytes(h, &scene->texture_updates, sizeof(scene->texture_updates));
	return h;
}

/* The entries of list before all-position p (list is in all's order). */
static size_t position_in(const struct sg_traversal *traversal, const struct sg_draw_list *list,
                          uint32_t p)
{
	size_t low = 0, high = list->count;
	while (low < high) {
		size_t mid = low + (high - low) / 2;
		if (sg_traverse_position(traversal, list->draws[mid].node) < p)
			low = mid + 1;
		else
			high = mid;
	}
	return low;
}

sg_result sg_views3d_collect(struct sg_views3d *views, const struct sg_scene *scene,
                             const struct sg_traversal *traversal,
                             const struct sg_views3d_camera *frame_camera)
{
	struct sg_views3d_camera frame = *frame_camera;
	frame.world = &traversal->world;
	const struct sg_views3d_camera *camera = &frame;
	views->count = 0;
	for (size_t i = 0; i < traversal->views_count; i++) {
		uint32_t node = traversal->views[i];
		if (!shown(scene, node))
			continue;
		struct sg_view3d_frame *v;
		sg_result result = new_frame(views, &v);
		if (result)
			return result;
		v->position =
		    position_in(traversal, traversal->list, sg_traverse_position(traversal, node));
		views->pending_count = 0;
		if ((result = collect_view(views, views->count - 1, node, SIZE_MAX, scene, camera)))
			return result;
		/* the views nested in it, and in those, in the order met */
		for (size_t p = 0; p < views->pending_count; p++) {
			struct sg_view3d_pending pending = views->pending[p];
			if ((result = new_frame(views, &v)) ||
			    (result = collect_view(views, views->count - 1, pending.node,
			                           pending.outer, scene, camera)))
				return result;
		}
	}
	return SG_OK;
}

void sg_views3d_position(struct sg_views3d *views, const struct sg_traversal *traversal,
                         const struct sg_draw_list *list)
{
	for (size_t i = 0; i < views->count; i++)
		views->views[i].position = position_in(
		    traversal, list, sg_traverse_position(traversal, views->views[i].top));
}
