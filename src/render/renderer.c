/* The public renderer: a target (this layer) + the GL draw submission +
 * the traversal, glued in the order of a frame. */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sg/image.h>
#include <sg/renderer.h>

#include "../gl/expand.h"
#include "../gl/drawer.h"
#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/log.h"
#include "../base/floats.h"
#include "../base/rotation.h"
#include "../graph/scene_internal.h"
#include "../base/side_limit.h"
#include "../traverse/damage.h"
#include "../traverse/traverse.h"
#include "driver_lock.h"
#include "buffer.h"
#include "frame.h"
#include "select.h"
#include "renderer_state.h"
#include "../target/import.h"
#include "../base/sized.h"

bool sg_renderer_enter(struct sg_renderer *renderer, const char *call)
{
	bool idle = false;
	if (atomic_compare_exchange_strong(&renderer->in_use, &idle, true))
		return true;
	sg_fail(SG_ERR_BUSY, "%s: renderer is in use by another thread", call);
	return false;
}

void sg_renderer_leave(struct sg_renderer *renderer)
{
	atomic_store(&renderer->in_use, false);
}

struct sg_renderer *sg_renderer_create_sized(const struct sg_renderer_desc *desc, size_t size)
{
	struct sg_renderer_desc sized_desc;
	if (desc &&
	    !(desc = sg_sized_in(&sized_desc, sizeof sized_desc, desc, size,
	                         SG_SIZE_THROUGH(struct sg_renderer_desc, ignore_environment),
	                         "sg_renderer_create")))
		return NULL;
	if (!desc) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_renderer_create: desc is NULL");
		return NULL;
	}
	if (desc->width < 1 || desc->height < 1 || desc->width > SG_MAX_SIDE ||
	    desc->height > SG_MAX_SIDE) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "output size %dx%d is outside 1x1 .. %dx%d",
		        desc->width, desc->height, SG_MAX_SIDE, SG_MAX_SIDE);
		return NULL;
	}
	if ((unsigned)desc->target > SG_TARGET_SURFACELESS) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "unknown target kind %d", desc->target);
		return NULL;
	}
	struct sg_renderer *renderer = sg_calloc(1, sizeof(*renderer));
	if (!renderer) {
		sg_fail(SG_ERR_NO_MEMORY, "out of memory creating a renderer");
		return NULL;
	}
	renderer->clear_color[3] = 1.0f;
	renderer->damage_tracking = true;
	const char *debug = getenv("SG_DEBUG_DAMAGE");
	renderer->debug_damage = debug && *debug && strcmp(debug, "0") != 0;
	sg_traversal_init(&renderer->traversal);
	/* The driver is known only once its context exists, so creation, which is
	 * rare, is serialised on every driver. */
	sg_driver_lock(true);
	sg_result result = sg_target_select(desc, &renderer->target);
	if (!result)
		result = sg_target_bind(renderer->target, NULL);
	if (!result) {
		renderer->own.target_buffer = renderer->target->own;
		renderer->last = &renderer->own;
		renderer->driver_lock = sg_driver_lock_needed(renderer->target->egl.gl_renderer);
		if ((result = sg_gl_drawer_init(&renderer->gl)))
			sg_fail_prefix(result, "on %s: ", renderer->target->impl->name);
		renderer->gl.textures.import = sg_target_import_ops(renderer->target);
		renderer->gl_ready = result == SG_OK;
		sg_egl_release(&renderer->target->egl);
	}
	sg_driver_unlock(true);
	if (result)
		goto fail;

	struct sg_target *t = renderer->target;
	snprintf(renderer->reason, sizeof(renderer->reason), "%s%s", t->reason,
	         renderer->driver_lock ? "; GL submission serialised across renderers (Mesa "
	                                 "llvmpipe crashes when two contexts draw at once)"
	                               : "");
	sg_log(SG_LOG_INFO, "renderer %dx%d: %s target: %s", t->width, t->height, t->impl->name,
	       renderer->reason);
	renderer->info = (struct sg_renderer_info){
		.target = t->kind,
		.target_name = t->impl->name,
		.reason = renderer->reason,
		.device = t->device,
		.egl_vendor = t->egl.vendor,
		.egl_driver = t->egl.driver,
		.gl_renderer = t->egl.gl_renderer,
		.gl_version = t->egl.gl_version,
		.width = t->width,
		.height = t->height,
	};
	return renderer;
fail:
	sg_renderer_destroy(renderer);
	return NULL;
}

void sg_renderer_destroy(struct sg_renderer *renderer)
{
	if (!renderer)
		return;
	/* Freeing it under another thread's call would corrupt memory: leaked instead. */
	if (!sg_renderer_enter(renderer, "sg_renderer_destroy"))
		return;
	if (renderer->target) {
		/* Freeing textures while another context draws is the crash's
		 * neighbourhood, and destruction is rare: serialised too. */
		sg_driver_lock(renderer->driver_lock);
		if (renderer->gl_ready && sg_target_bind(renderer->target, NULL) == SG_OK)
			sg_gl_drawer_finish(&renderer->gl);
		sg_target_destroy(renderer->target);
		sg_driver_unlock(renderer->driver_lock);
	}
	sg_traversal_finish(&renderer->traversal);
	sg_views3d_finish(&renderer->views3d);
	sg_free(renderer->seen);
	sg_free(renderer->segment.draws);
	sg_free(renderer->segment.origin);
	sg_frame_plan_finish(&renderer->plan);
	sg_damage_finish(&renderer->damage);
	sg_free(renderer);
}

const struct sg_renderer_info *sg_renderer_get_info(const struct sg_renderer *renderer)
{
	return renderer ? &renderer->info : NULL; /* set once by create: no flag needed */
}

sg_result sg_renderer_set_clear_color(struct sg_renderer *renderer, float r, float g, float b,
                                      float a)
{
	if (!renderer)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_renderer_set_clear_color: renderer is NULL");
	const float color[4] = {r, g, b, a};
	for (int i = 0; i < 4; i++)
		if (!sg_float_unit(color[i]))
			return sg_fail(SG_ERR_INVALID_ARGUMENT, "clear colour component %d (%g) is not in [0, 1]",
			               i, (double)color[i]);
	if (!sg_renderer_enter(renderer, "sg_renderer_set_clear_color"))
		return SG_ERR_BUSY;
	memcpy(renderer->clear_color, color, sizeof(color));
	sg_renderer_leave(renderer);
	return SG_OK;
}

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

sg_result sg_renderer_set_culling(struct sg_renderer *renderer, bool enabled)
{
	if (!renderer)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_renderer_set_culling: renderer is NULL");
	if (!sg_renderer_enter(renderer, "sg_renderer_set_culling"))
		return SG_ERR_BUSY;
	renderer->culling = enabled;
	sg_renderer_leave(renderer);
	return SG_OK;
}

sg_result sg_renderer_set_rotation(struct sg_renderer *renderer, enum sg_rotation rotation)
{
	if (!sg_rotation_valid(rotation))
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "rotation %d is not one of enum sg_rotation",
		               (int)rotation);
	if (rotation != renderer->rotation)
		sg_damage_forget(&renderer->damage); /* every pixel moves */
	renderer->rotation = rotation;
	return SG_OK;
}

void sg_renderer_get_settings(const struct sg_renderer *renderer,
                              struct sg_renderer_settings *settings)
{
	*settings = (struct sg_renderer_settings){.culling = renderer->culling,
	                                          .damage_tracking = renderer->damage_tracking,
	                                          .debug_damage = renderer->debug_damage};
	memcpy(settings->clear_color, renderer->clear_color, sizeof(settings->clear_color));
}

void sg_renderer_apply_settings(struct sg_renderer *renderer,
                                const struct sg_renderer_settings *settings)
{
	renderer->culling = settings->culling;
	renderer->damage_tracking = settings->damage_tracking;
	renderer->debug_damage = settings->debug_damage;
	memcpy(renderer->clear_color, settings->clear_color, sizeof(renderer->clear_color));
}

sg_result sg_renderer_set_damage_tracking(struct sg_renderer *renderer, bool enabled)
{
	if (!renderer)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "sg_renderer_set_damage_tracking: renderer is NULL");
	if (!sg_renderer_enter(renderer, "sg_renderer_set_damage_tracking"))
		return SG_ERR_BUSY;
	if (enabled && !renderer->damage_tracking)
		sg_damage_forget(&renderer->damage); /* frames drawn without it were not recorded */
	renderer->damage_tracking = enabled;
	sg_renderer_leave(renderer);
	return SG_OK;
}

int sg_renderer_get_damage(const struct sg_renderer *renderer, struct sg_rect *rects, int max)
{
	if (!renderer || max < 0 || (!rects && max > 0)) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_renderer_get_damage: %s",
		        !renderer ? "renderer is NULL"
		        : max < 0 ? "max is negative"
		                  : "rects is NULL");
		return -1;
	}
	/* The flag is the one mutable member of a const renderer: never a const object. */
	struct sg_renderer *mutable_renderer = (struct sg_renderer *)renderer;
	if (!sg_renderer_enter(mutable_renderer, "sg_renderer_get_damage"))
		return -1;
	int count = -1;
	if (!renderer->rendered) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_renderer_get_damage: nothing rendered yet");
	} else {
		const struct sg_damage_region *frame = sg_damage_current(&renderer->damage);
		struct sg_rect whole = {0, 0, renderer->target->width, renderer->target->height};
		bool all = !renderer->damage_tracking || frame->full;
		count = all ? 1 : frame->count;
		for (int i = 0; i < count && i < max; i++)
			rects[i] = all ? whole : frame->rects[i];
	}
	sg_renderer_leave(mutable_renderer);
	return count;
}

static sg_result get_stats(const struct sg_renderer *renderer, struct sg_render_stats *stats)
{
	if (!renderer || !stats)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_renderer_get_stats: %s is NULL",
		               renderer ? "stats" : "renderer");
	/* The flag is the one mutable member of a const renderer: never a const object. */
	struct sg_renderer *mutable_renderer = (struct sg_renderer *)renderer;
	if (!sg_renderer_enter(mutable_renderer, "sg_renderer_get_stats"))
		return SG_ERR_BUSY;
	*stats = renderer->stats;
	sg_renderer_leave(mutable_renderer);
	return SG_OK;
}

sg_result sg_renderer_get_stats_sized(const struct sg_renderer *renderer,
                                      struct sg_render_stats *stats, size_t size)
{
	if (stats && !sg_sized_out_fits(size, SG_SIZE_THROUGH(struct sg_render_stats, damage_ns),
	                                "sg_renderer_get_stats"))
		return sg_last_result();
	struct sg_render_stats full;
	sg_result result = get_stats(renderer, stats ? &full : NULL);
	if (stats && result == SG_OK)
		sg_sized_out(stats, size, &full, sizeof full);
	return result;
}

static uint64_t area_of(const struct sg_damage_region *region, const struct sg_target *target)
{
	if (!region)
		return (uint64_t)target->width * (uint64_t)target->height;
	uint64_t pixels = 0;
	for (int i = 0; i < region->count; i++)
		pixels += (uint64_t)region->rects[i].width * (uint64_t)region->rects[i].height;
	return pixels;
}

static struct sg_rect rect_of(const int r[4])
{
	return (struct sg_rect){r[0], r[1], r[2], r[3]};
}

/* The journal's boxes cover no 3D view's models: each view whose picture
 * may differ from the last frame's (its signature changed, or it is new)
 * damages its viewport, and the viewport it had; a view gone damages the
 * one it had. Then this frame's views are what the next one compares. */
static sg_result add_view_damage(struct sg_renderer *renderer)
{
	const struct sg_views3d *views = &renderer->views3d;
	struct sg_damage *damage = &renderer->damage;
	for (size_t i = 0; i < views->count; i++) {
		const struct sg_view3d_frame *v = &views->views[i];
		const struct sg_view_seen *was = NULL;
		for (size_t j = 0; j < renderer->seen_count && !was; j++)
			if (renderer->seen[j].node == v->node &&
			    renderer->seen[j].generation == v->generation)
				was = &renderer->seen[j];
		if (was && was->signature == v->signature &&
		    memcmp(was->viewport, v->viewport, sizeof(v->viewport)) == 0)
			continue;
		sg_damage_add_current(damage, rect_of(v->viewport));
		if (was)
			sg_damage_add_current(damage, rect_of(was->viewport));
	}
	for (size_t j = 0; j < renderer->seen_count; j++) {
		bool kept = false;
		for (size_t i = 0; i < views->count && !kept; i++)
			kept = views->views[i].node == renderer->seen[j].node &&
			       views->views[i].generation == renderer->seen[j].generation;
		if (!kept)
			sg_damage_add_current(damage, rect_of(renderer->seen[j].viewport));
	}
	if (!sg_grow_array((void **)&renderer->seen, &renderer->seen_capacity,
	                   views->count ? views->count : 1, sizeof(*renderer->seen)))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory for %zu 3D views", views->count);
	for (size_t i = 0; i < views->count; i++) {
		const struct sg_view3d_frame *v = &views->views[i];
		renderer->seen[i] = (struct sg_view_seen){v->node, v->generation, v->signature,
		                                          {v->viewport[0], v->viewport[1],
		                                           v->viewport[2], v->viewport[3]}};
	}
	renderer->seen_count = views->count;
	return SG_OK;
}

/* What to repaint in a buffer that held frame held: repaint, what changed
 * in it (full: all); region, the part drawn (NULL: the whole output); and
 * the list cut down to it. */
static sg_result find_damage(struct sg_renderer *renderer, const struct sg_scene *scene,
                             mat4 view_projection, uint64_t held,
                             struct sg_damage_region *repaint,
                             const struct sg_damage_region **region,
                             const struct sg_draw_list **list)
{
	struct sg_traversal *traversal = &renderer->traversal;
	*region = NULL;
	*list = traversal->list;
	*repaint = (struct sg_damage_region){.full = true};
	if (!renderer->damage_tracking)
		return SG_OK;
	struct sg_damage_view view = {
		.view_projection = (const float(*)[4])view_projection,
		.width = renderer->target->width,
		.height = renderer->target->height,
		.clear_color = renderer->clear_color,
		.culling = renderer->culling,
	};
	sg_result result = sg_damage_update(&renderer->damage, scene, traversal, &view);
	if (!result && scene->view_count)
		result = add_view_damage(renderer);
	if (result) {
		sg_damage_forget(&renderer->damage);
		return result;
	}
	sg_damage_since(&renderer->damage, held, repaint);
	/* Most of the output: the whole list with the caches made for it costs
	 * less than cutting a new list (and sorting and expanding it) each frame. */
	if (repaint->full || area_of(repaint, renderer->target) * 2 >
	                         (uint64_t)renderer->target->width * renderer->target->height)
		return SG_OK;
	*region = repaint;
	return repaint->count
	           ? sg_damage_cut(&renderer->damage, traversal->list, repaint,
	                           &traversal->next_serial, list)
	           : SG_OK;
}

/* What the passes of this frame read (frame.h), with buffer bound. */
static void set_context(struct sg_renderer *renderer, const struct sg_render_buffer *buffer,
                        mat4 view_projection)
{
	const struct sg_target *target = renderer->target;
	const struct sg_target_buffer *bound =
	    buffer->target_buffer ? buffer->target_buffer : target->own;
	renderer->context = (struct sg_frame_context){
	    .gl = &renderer->gl,
	    .walk = &renderer->traversal,
	    .width = target->width,
	    .height = target->height,
	    .clear_color = renderer->clear_color,
	    .framebuffer = bound ? bound->fb.framebuffer : 0, /* as sg_target_bind binds */
	    .segment = &renderer->segment,
	    .next_serial = &renderer->traversal.next_serial,
	};
	glm_mat4_copy(view_projection, renderer->context.view_projection);
}

static sg_result draw(struct sg_renderer *renderer, const struct sg_scene *scene,
                      const struct sg_camera *camera, struct sg_render_pass *pass)
{
	struct sg_target *target = renderer->target;
	struct sg_render_buffer *buffer = pass->buffer ? pass->buffer : &renderer->own;
	int *fence_fd = pass->fence_fd;
	if (fence_fd)
		*fence_fd = -1;
	pass->frame = 0;
	pass->changed = (struct sg_damage_region){.full = true};
	renderer->rendered = false; /* a failed render leaves nothing to read */
	renderer->last = buffer;
	/* The picture the camera sees: the buffers' size, turned back. */
	bool swaps = sg_rotation_swaps(renderer->rotation);
	int picture_width = swaps ? target->height : target->width;
	int picture_height = swaps ? target->width : target->height;
	struct sg_camera pixels;
	if (!camera) {
		sg_camera_init_pixels(&pixels, (float)picture_width, (float)picture_height);
		camera = &pixels;
	}
	if (!sg_floats_finite(camera->projection, 16) || !sg_floats_finite(camera->view, 16))
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "%s: the camera given (not a model's or a 3D view's) has NaN or "
		               "infinite matrix entries",
		               pass->call ? pass->call : "sg_renderer_render");

	/* Flip y so that framebuffer row 0 is the image's top row: readback, PNG
	 * files and scanout of the bo then all agree on memory order. A rotated
	 * output turns the picture after that, in the same coordinates (x right,
	 * y down the buffer's rows), so everything computed from view_projection
	 * (damage, clips, the drawer's cells) is in buffer pixels. */
	/* Copies: the public camera has only float alignment, cglm wants 16 bytes. */
	mat4 projection, view, flip = GLM_MAT4_IDENTITY_INIT, view_projection, culling_view;
	memcpy(projection, camera->projection, sizeof(mat4));
	memcpy(view, camera->view, sizeof(mat4));
	flip[1][1] = -1.0f;
	if (renderer->rotation != SG_ROTATION_0) {
		float m[4];
		sg_rotation_matrix(renderer->rotation, m);
		mat4 turn = GLM_MAT4_IDENTITY_INIT; /* column-major: turn[column][row] */
		turn[0][0] = m[0], turn[1][0] = m[1], turn[0][1] = m[2], turn[1][1] = m[3];
		glm_mat4_mul(turn, flip, flip);
	}
	/* Culling needs the view without the flip, which maps the view volume onto itself. */
	glm_mat4_mul(projection, view, culling_view);
	glm_mat4_mul(flip, culling_view, view_projection);

	struct sg_traversal *traversal = &renderer->traversal;
	uint64_t start = now_ns();
	sg_result result = sg_traverse_frame(traversal, scene, renderer->culling ? culling_view : NULL,
	                                     view_projection, target->width, target->height);
	if (result)
		return result;
	uint64_t walked = now_ns();
	struct sg_damage_region *repaint = &pass->changed;
	const struct sg_damage_region *region = NULL;
	const struct sg_draw_list *list = traversal->list;
	uint64_t held = buffer->frame;
	buffer->frame = 0; /* until this draw succeeds */
	bool views = scene->view_count > 0;
	if (views) { /* before the damage, which compares them with the last frame's */
		struct sg_views3d_camera frame_camera = {.camera = camera,
		                                         .width = picture_width,
		                                         .height = picture_height,
		                                         .rotation = renderer->rotation};
		glm_mat4_copy(flip, frame_camera.flip);
		if ((result = sg_views3d_collect(&renderer->views3d, scene, traversal, &frame_camera)))
			return result;
	} else {
		renderer->seen_count = 0;
	}
	if ((result = find_damage(renderer, scene, view_projection, held, repaint, &region, &list)))
		return result;
	if (views) /* where each view falls in what is drawn, maybe a cut of the list */
		sg_views3d_position(&renderer->views3d, traversal, list);
	uint64_t held_now = renderer->damage_tracking ? renderer->damage.frame : 0;
	uint64_t traversed = now_ns();
	struct sg_render_stats stats = {
		.world_updates = traversal->world_updates,
		.nodes_visited = traversal->visited,
		.draws = traversal->list->count,
		.redraws = region && !region->count ? 0 : list->count,
		.traverse_ns = traversed - start,
		.world_ns = traversal->world_ns,
		.damage_ns = traversed - walked,
		.repainted_pixels = area_of(region, target),
		.repainted_rects = region ? region->count : 1,
	};
	if ((result = sg_frame_plan_build(
	         &renderer->plan,
	         &(struct sg_frame_desc){.list = list,
	                                 .views = views ? &renderer->views3d : NULL,
	                                 .region = region,
	                                 .tint = renderer->debug_damage,
	                                 .target = {SG_PASS_TARGET_FRAME, NULL}})))
		return result;
	if (!renderer->plan.count) {
		/* Nothing changed in this buffer: no pass, no GL at all. */
		buffer->frame = pass->frame = held_now;
		renderer->rendered = true;
		renderer->gl.batches = 0;
		renderer->stats = stats;
		return SG_OK;
	}
	/* Traversal stays parallel; submission up to glFinish is what crashes. */
	sg_driver_lock(renderer->driver_lock);
	if ((result = sg_target_bind(target, buffer->target_buffer))) {
		sg_driver_unlock(renderer->driver_lock);
		return result;
	}
	set_context(renderer, buffer, view_projection);
	result = sg_frame_execute(&renderer->plan, &renderer->context, scene);
	uint64_t submitted = now_ns();
	/* A fence lets KMS wait for the GPU instead of this thread. */
	if (!result && fence_fd && target->egl.native_fence)
		result = sg_egl_native_fence(&target->egl, fence_fd);
	else
		glFinish();
	uint64_t finished = now_ns();
	sg_egl_release(&target->egl);
	sg_driver_unlock(renderer->driver_lock);
	renderer->rendered = result == SG_OK;
	if (!result)
		buffer->frame = pass->frame = held_now;
	stats.batches = renderer->gl.batches;
	stats.submit_ns = submitted - traversed;
	stats.finish_ns = finished - submitted;
	renderer->stats = stats;
	return result;
}

sg_result sg_renderer_render(struct sg_renderer *renderer, const struct sg_scene *scene,
                             const struct sg_camera *camera)
{
	if (!renderer || !scene)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_renderer_render: %s is NULL",
		               renderer ? "scene" : "renderer");
	if (!sg_renderer_enter(renderer, "sg_renderer_render"))
		return SG_ERR_BUSY;
	struct sg_render_pass pass = {.call = "sg_renderer_render"};
	sg_result result = draw(renderer, scene, camera, &pass);
	sg_renderer_leave(renderer);
	return result;
}

sg_result sg_renderer_buffer_create(struct sg_renderer *renderer,
                                    const struct sg_buffer_desc *desc,
                                    struct sg_render_buffer **out)
{
	*out = NULL;
	struct sg_render_buffer *buffer = sg_calloc(1, sizeof(*buffer));
	if (!buffer)
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory for a buffer");
	if (!sg_renderer_enter(renderer, "sg_renderer_buffer_create")) {
		sg_free(buffer);
		return SG_ERR_BUSY;
	}
	sg_driver_lock(renderer->driver_lock);
	sg_result result = sg_target_bind(renderer->target, NULL);
	if (!result) {
		result = sg_target_buffer_create(renderer->target, desc, &buffer->target_buffer);
		sg_egl_release(&renderer->target->egl);
	}
	sg_driver_unlock(renderer->driver_lock);
	sg_renderer_leave(renderer);
	if (result) {
		sg_free(buffer);
		return result;
	}
	*out = buffer;
	return SG_OK;
}

void sg_renderer_buffer_destroy(struct sg_renderer *renderer, struct sg_render_buffer *buffer)
{
	if (!buffer)
		return;
	if (!sg_renderer_enter(renderer, "sg_renderer_buffer_destroy"))
		return; /* leaked rather than freed under another thread's draw */
	if (renderer->last == buffer) {
		renderer->last = &renderer->own;
		renderer->rendered = false; /* what it held is gone */
	}
	sg_driver_lock(renderer->driver_lock);
	if (sg_target_bind(renderer->target, NULL) == SG_OK) {
		sg_target_buffer_destroy(renderer->target, buffer->target_buffer);
		sg_egl_release(&renderer->target->egl);
	}
	sg_driver_unlock(renderer->driver_lock);
	sg_renderer_leave(renderer);
	sg_free(buffer);
}

bool sg_renderer_makes_scanouts(const struct sg_renderer *renderer)
{
	return renderer->target->impl->buffer_create != NULL;
}

bool sg_renderer_scanout_format(struct sg_renderer *renderer, uint32_t format)
{
	return sg_target_scanout_format(renderer->target, format);
}

int sg_renderer_render_modifiers(struct sg_renderer *renderer, uint32_t format,
                                 uint64_t *modifiers, int max)
{
	return sg_target_render_modifiers(renderer->target, format, modifiers, max);
}

bool sg_renderer_has_native_fence(const struct sg_renderer *renderer)
{
	return renderer->target->egl.native_fence;
}

sg_result sg_renderer_draw(struct sg_renderer *renderer, const struct sg_scene *scene,
                           const struct sg_camera *camera, struct sg_render_pass *pass)
{
	const char *call = pass->call ? pass->call : "sg_renderer_draw";
	if (pass->fence_fd)
		*pass->fence_fd = -1;
	if (!scene)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "%s: scene is NULL", call);
	if (!sg_renderer_enter(renderer, call))
		return SG_ERR_BUSY;
	sg_result result = draw(renderer, scene, camera, pass);
	sg_renderer_leave(renderer);
	return result;
}

void sg_renderer_damage_since(struct sg_renderer *renderer, uint64_t frame,
                              struct sg_damage_region *region)
{
	if (!renderer->damage_tracking) {
		*region = (struct sg_damage_region){.full = true};
		return;
	}
	sg_damage_since(&renderer->damage, frame, region);
}

/* The last render read back into rgba (rows of stride bytes): all of it
 * (count < 0, or a target that reads no rectangle), else rects[0, count)
 * clipped to the target, each where it lies. call: the public function the
 * user called, for messages. */
static sg_result read_pixels(struct sg_renderer *renderer, const struct sg_rect *rects, int count,
                             void *rgba, size_t stride, const char *call)
{
	struct sg_target *target = renderer->target;
	if (!renderer->rendered)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "%s: nothing rendered yet", call);
	struct sg_target_buffer *buffer = renderer->last->target_buffer;
	if (!count)
		return SG_OK;
	/* Serialised too: with only the draws serialised, a release build still
	 * crashed once in about 100 rounds of tests/test_threads.c. */
	sg_driver_lock(renderer->driver_lock);
	sg_result result = sg_target_bind(target, buffer);
	if (!result) {
		if (count < 0)
			result = sg_target_read_rect(
			    target, buffer, &(struct sg_rect){0, 0, target->width, target->height}, rgba,
			    stride);
		for (int i = 0; i < count && !result; i++) {
			int x0 = rects[i].x > 0 ? rects[i].x : 0, y0 = rects[i].y > 0 ? rects[i].y : 0;
			int x1 = rects[i].x + rects[i].width, y1 = rects[i].y + rects[i].height;
			x1 = x1 < target->width ? x1 : target->width;
			y1 = y1 < target->height ? y1 : target->height;
			if (x1 > x0 && y1 > y0)
				result = sg_target_read_rect(
				    target, buffer, &(struct sg_rect){x0, y0, x1 - x0, y1 - y0}, rgba, stride);
		}
		sg_egl_release(&target->egl);
	}
	sg_driver_unlock(renderer->driver_lock);
	return result;
}

sg_result sg_renderer_read_rects(struct sg_renderer *renderer, const struct sg_rect *rects,
                                 int count, void *rgba, size_t stride)
{
	if (!sg_renderer_enter(renderer, "sg_renderer_read_rects"))
		return SG_ERR_BUSY;
	sg_result result = read_pixels(renderer, rects, count, rgba, stride, "sg_renderer_read_rects");
	sg_renderer_leave(renderer);
	return result;
}

sg_result sg_renderer_read_pixels(struct sg_renderer *renderer, void *rgba, size_t stride)
{
	if (!renderer || !rgba)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_renderer_read_pixels: %s is NULL",
		               renderer ? "rgba" : "renderer");
	const struct sg_target *target = renderer->target;
	if (stride == 0)
		stride = (size_t)target->width * 4;
	if (stride < (size_t)target->width * 4)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "stride %zu is less than width * 4 = %d", stride,
		               target->width * 4);
	if (!sg_renderer_enter(renderer, "sg_renderer_read_pixels"))
		return SG_ERR_BUSY;
	sg_result result = read_pixels(renderer, NULL, -1, rgba, stride, "sg_renderer_read_pixels");
	sg_renderer_leave(renderer);
	return result;
}

static sg_result write_png(struct sg_renderer *renderer, const char *path)
{
	const struct sg_target *target = renderer->target;
	if (!renderer->rendered) /* before the allocation, which may be large */
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_renderer_write_png: nothing rendered yet");
	size_t stride = (size_t)target->width * 4;
	uint8_t *pixels = sg_malloc(stride * (size_t)target->height);
	if (!pixels)
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory reading back %dx%d pixels",
		               target->width, target->height);
	sg_result result = read_pixels(renderer, NULL, -1, pixels, stride, "sg_renderer_write_png");
	if (!result) {
		sg_image_unpremultiply(pixels, target->width, target->height, stride);
		result = sg_image_write_png(path, target->width, target->height, pixels, stride);
	}
	sg_free(pixels);
	return result;
}

sg_result sg_renderer_write_png(struct sg_renderer *renderer, const char *path)
{
	if (!renderer || !path)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_renderer_write_png: %s is NULL",
		               renderer ? "path" : "renderer");
	if (!sg_renderer_enter(renderer, "sg_renderer_write_png"))
		return SG_ERR_BUSY;
	sg_result result = write_png(renderer, path);
	sg_renderer_leave(renderer);
	return result;
}

static sg_result export_dmabuf(struct sg_renderer *renderer, struct sg_dmabuf *dmabuf)
{
	if (!renderer || !dmabuf)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_renderer_export_dmabuf: %s is NULL",
		               renderer ? "dmabuf" : "renderer");
	if (!renderer->target->impl->export_dmabuf)
		return sg_fail(SG_ERR_UNSUPPORTED, "the %s target has no buffer object to export",
		               renderer->target->impl->name);
	if (!sg_renderer_enter(renderer, "sg_renderer_export_dmabuf"))
		return SG_ERR_BUSY;
	sg_result result = renderer->target->impl->export_dmabuf(
	    renderer->target, renderer->last->target_buffer, dmabuf);
	sg_renderer_leave(renderer);
	return result;
}

sg_result sg_renderer_export_dmabuf_sized(struct sg_renderer *renderer, struct sg_dmabuf *dmabuf,
                                          size_t size)
{
	if (dmabuf && !sg_sized_out_fits(size, SG_SIZE_THROUGH(struct sg_dmabuf, offsets),
	                                 "sg_renderer_export_dmabuf"))
		return sg_last_result();
	struct sg_dmabuf full;
	sg_result result = export_dmabuf(renderer, dmabuf ? &full : NULL);
	if (dmabuf && result == SG_OK)
		sg_sized_out(dmabuf, size, &full, sizeof full);
	return result;
}

sg_result sg_renderer_buffer_export(struct sg_renderer *renderer,
                                    struct sg_render_buffer *buffer, struct sg_dmabuf *dmabuf)
{
	if (!renderer->target->impl->export_dmabuf)
		return sg_fail(SG_ERR_UNSUPPORTED, "the %s target has no buffer object to export",
		               renderer->target->impl->name);
	if (!sg_renderer_enter(renderer, "sg_renderer_buffer_export"))
		return SG_ERR_BUSY;
	sg_result result =
	    renderer->target->impl->export_dmabuf(renderer->target, buffer->target_buffer, dmabuf);
	sg_renderer_leave(renderer);
	return result;
}
