/* Draw submission in two passes. Opaque draws are sorted into batches of one
 * texture and one mesh, each batch one draw call, with a depth test on
 * per-draw depths putting back the picture that traversal order gives.
 * Translucent draws follow in traversal order, blended (premultiplied
 * source-over) with the same depth test and no depth writes: a later opaque
 * draw still covers an earlier translucent one, and a later translucent one
 * blends over everything drawn before it. */
#include "drawer.h"

#include "../base/alloc.h"
#include "../base/error.h"
#include "batch.h"
#include "blend_order.h"
#include "cache.h"
#include "depth_order.h"
#include "check.h"
#include "expand.h"

sg_result sg_gl_drawer_init(struct sg_gl_drawer *gl)
{
	*gl = (struct sg_gl_drawer){0};
	/* The all-white textured program only: the others are built at the
	 * first draw that needs them (material.c), a frame with colours, an
	 * NV12 texture, a shape, a clip. A build that fails fails that frame,
	 * and is tried again at the next. */
	struct sg_gl_programs *p = &gl->programs;
	struct sg_gl_program *white;
	sg_result result = sg_gl_program_of(
	    &p->cache, sg_gl_key(SG_GL_MATERIAL_TEXTURED, SG_GL_FEATURE_ALL_WHITE, 0), &white);
	if (result)
		return result;
	glGetIntegerv(GL_MAX_TEXTURE_SIZE, &p->max_texture_size);
	glGenBuffers(1, &gl->instances.buffer);
	static const uint8_t white_texel[4] = {255, 255, 255, 255};
	glGenTextures(1, &p->white_texture);
	glBindTexture(GL_TEXTURE_2D, p->white_texture);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, white_texel);
	if ((result = sg_gl_check("setting up the textured program"))) {
		sg_gl_drawer_finish(gl);
		return result;
	}
	return SG_OK;
}

void sg_gl_drawer_finish(struct sg_gl_drawer *gl)
{
	sg_gl_cache_finish(&gl->textures, &gl->meshes);
	sg_gl_draw3d_finish(&gl->draw3d);
	struct sg_gl_programs *p = &gl->programs;
	if (p->white_texture)
		glDeleteTextures(1, &p->white_texture);
	if (p->tint_buffer)
		glDeleteBuffers(1, &p->tint_buffer);
	if (p->tint_array)
		glDeleteVertexArrays(1, &p->tint_array);
	sg_gl_programs_finish(&p->cache);
	sg_gl_clip_finish(&gl->clip);
	sg_gl_expand_finish(&gl->expanded);
	sg_gl_blend_order_finish(&gl->blend);
	sg_gl_depth_finish(&gl->depth);
	sg_gl_batch_finish(&gl->order, &gl->sort, &gl->instances);
	*gl = (struct sg_gl_drawer){0};
}

static void begin_frame(const struct sg_gl_drawer *gl, const struct sg_gl_frame *frame)
{
	const float *clear_color = frame->clear_color;
	glViewport(0, 0, frame->width, frame->height);
	glDisable(GL_CULL_FACE);
	float a = clear_color[3]; /* the buffer holds premultiplied alpha */
	glClearColor(clear_color[0] * a, clear_color[1] * a, clear_color[2] * a, a);
	glClearDepthf(0.0f);
	glDepthMask(GL_TRUE);
	GLbitfield clear = frame->keep_color ? 0 : GL_COLOR_BUFFER_BIT;
	if (gl->depth.needed)
		clear |= GL_DEPTH_BUFFER_BIT;
	if (clear)
		glClear(clear);
	/* Where the list is drawn in an order that needs no depths to look like
	 * painter's order (sg_gl_depth_order), every fragment gets depth 1, the
	 * farthest, which passes GL_GEQUAL whatever the buffer holds (values in
	 * [0, 1] only, cleared once at creation): no clear, and no depth writes
	 * (a fifth less of llvmpipe's shading code's samples on flat-1000). The
	 * test is never off nor GL_ALWAYS: llvmpipe then takes other paths on
	 * BGRA targets (GBM), and those drew imported ARGB textures wrong in the
	 * drm suite. */
	glEnable(GL_DEPTH_TEST);
	glDepthFunc(GL_GEQUAL);
	glDepthRangef(gl->depth.needed ? 0.0f : 1.0f, 1.0f);
	glDepthMask(gl->depth.needed ? GL_TRUE : GL_FALSE);
	/* Source-over on premultiplied colours; exact for opaque ones (alpha 1),
	 * so that blend_all draws them as the opaque pass would. */
	glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
	if (gl->order.blend_all)
		glEnable(GL_BLEND);
	else
		glDisable(GL_BLEND);
	glActiveTexture(GL_TEXTURE0);
}

/* From the opaque pass to the translucent one. */
static void begin_blending(void)
{
	glEnable(GL_BLEND);
	glDepthMask(GL_FALSE);
}

/* Binds what the draws of texture index sample, with the program of its
 * material (material.h) for the features of the draws being drawn. */
static sg_result bind_texture(struct sg_gl_drawer *gl, const struct sg_scene *scene, uint32_t index)
{
	struct sg_gl_programs *p = &gl->programs;
	const struct sg_texture_data *t =
	    index == SG_DRAW_NO_TEXTURE ? NULL : sg_scene_texture_slot(scene, index);
	enum sg_gl_material_kind kind = sg_gl_material_kind_of(t);
	const struct sg_gl_material *material = sg_gl_materials[kind];
	struct sg_gl_program *program;
	sg_result result = sg_gl_program_of(
	    &p->cache, sg_gl_key(kind, p->features & material->features, material->own_bits(t)),
	    &program);
	if (result)
		return result;
	if (program->name != p->current) {
		glUseProgram(program->name);
		p->current = program->name;
	}
	return material->bind(program,
	                      &(struct sg_gl_bind2d){scene, &gl->textures, p->max_texture_size,
	                                             p->white_texture, index, t});
}

/* The features of the draws about to be drawn (struct sg_gl_programs), and
 * their textured program, built if need be: a frame whose program cannot be
 * built fails before it draws. */
static sg_result choose_programs(struct sg_gl_drawer *gl, const struct sg_paint *paint)
{
	struct sg_gl_programs *p = &gl->programs;
	/* paint covers the list's source (before culling): a tinted draw there
	 * keeps the colour for the frame, which is never wrong. */
	p->features = (gl->clipping ? SG_GL_FEATURE_CLIP : 0) |
	              (paint->tinted_count ? 0 : SG_GL_FEATURE_ALL_WHITE);
	p->current = 0; /* the clears and the 3D views use GL's without saying */
	struct sg_gl_program *textured;
	return sg_gl_program_of(&p->cache, sg_gl_key(SG_GL_MATERIAL_TEXTURED, p->features, 0),
	                        &textured);
}

/* Restricts the frame to rectangle i of region (NULL: the whole output). */
static void begin_rect(const struct sg_damage_region *region, int i)
{
	if (!region) {
		glDisable(GL_SCISSOR_TEST);
		return;
	}
	const struct sg_rect *r = &region->rects[i];
	glEnable(GL_SCISSOR_TEST);
	glScissor(r->x, r->y, r->width, r->height);
}

/* Draws the expanded runs; *blending: the translucent pass has begun. */
static sg_result draw_runs(struct sg_gl_drawer *gl, const struct sg_scene *scene,
                           bool *blending)
{
	for (size_t r = 0; r < gl->expanded.run_count; r++) {
		const struct sg_gl_run *run = &gl->expanded.runs[r];
		if (run->blended && !*blending && !gl->order.blend_all) {
			begin_blending();
			*blending = true;
		}
		sg_result result = bind_texture(gl, scene, run->texture);
		if (result)
			return result;
		glDrawElements(GL_TRIANGLES, (GLsizei)run->count, GL_UNSIGNED_INT,
		               (const void *)(run->first * sizeof(uint32_t)));
		gl->batches++;
	}
	return SG_OK;
}

/* Draws the batch or chunk just uploaded in every rectangle of the region,
 * then hands it to the driver: llvmpipe rasterises it while the next one is
 * made, and its binned triangles do not pile up for the whole scene
 * (tree-1048576's peak RSS, frames no slower: bench/README.md). */
static sg_result draw_uploaded(struct sg_gl_drawer *gl, const struct sg_scene *scene,
                               const struct sg_gl_frame *frame, bool *blending)
{
	int rects = frame->region ? frame->region->count : 1;
	sg_result result = SG_OK;
	for (int i = 0; i < rects && !result; i++) {
		if (rects > 1)
			begin_rect(frame->region, i);
		result = draw_runs(gl, scene, blending);
	}
	glFlush();
	return result;
}

/* A list too large to keep expanded: each chunk is drawn and flushed as
 * soon as it is made, in every rectangle of the region (their clears first). The
 * rectangles do not overlap, so that each pixel still sees the draws in
 * the order of one whole pass; a chunk never mixes the two passes. */
static sg_result draw_streamed(struct sg_gl_drawer *gl, const struct sg_gl_input *in,
                               const struct sg_gl_frame *frame)
{
	sg_result result = SG_OK;
	int rects = frame->region ? frame->region->count : 1;
	for (int i = 0; i < rects; i++) {
		begin_rect(frame->region, i);
		begin_frame(gl, frame);
	}
	bool blending = false;
	size_t k = 0;
	if (gl->order.reordered) { /* the opaque draws in list order, batched per texture */
		struct sg_gl_bin_cursor cursor = {0};
		for (bool ready = true; ready && !result;) {
			result = sg_gl_expand_bin(&gl->expanded, in, &cursor, &ready);
			if (ready && !result)
				result = draw_uploaded(gl, in->scene, frame, &blending);
		}
		k = gl->order.opaque_count;
	}
	while (k < in->list->count && !result) /* the translucent ones, or all when not reordered */
		if (!(result = sg_gl_expand_chunk(&gl->expanded, &gl->order, in, &k)))
			result = draw_uploaded(gl, in->scene, frame, &blending);
	glBindVertexArray(0);
	glDisable(GL_SCISSOR_TEST);
	return result ? result : sg_gl_check("drawing the scene");
}

static sg_result draw_expanded(struct sg_gl_drawer *gl, const struct sg_gl_input *in,
                               const struct sg_gl_frame *frame)
{
	if (sg_gl_expand_streams(&gl->expanded))
		return draw_streamed(gl, in, frame);
	sg_result result = sg_gl_expand(&gl->expanded, &gl->sort, &gl->order, in);
	if (result)
		return result;
	int rects = frame->region ? frame->region->count : 1;
	for (int i = 0; i < rects && !result; i++) {
		begin_rect(frame->region, i);
		begin_frame(gl, frame);
		glBindVertexArray(gl->expanded.vertex_array);
		bool blending = false;
		result = draw_runs(gl, in->scene, &blending);
		glBindVertexArray(0);
	}
	glDisable(GL_SCISSOR_TEST);
	if (result)
		return result;
	return sg_gl_check("drawing the scene");
}

/* Sends the texture updates (sg_texture_update) the list's textures lack before
 * the frame begins: a driver writing a texture that queued work may read must
 * run that work first (llvmpipe would flush the frame's clear on its own). Only
 * after the scene recorded updates or the list changed (a texture updated while
 * hidden may be shown now); a texture met for the first time, or not in this
 * list, is brought up to date at its first draw. */
static sg_result upload_texture_updates(struct sg_gl_drawer *gl, const struct sg_gl_input *in)
{
	const struct sg_draw_list *list = in->list;
	if (gl->updated_scene == in->versions.scene &&
	    gl->updated_textures == in->versions.texture_updates &&
	    gl->updated_list == list->serial)
		return SG_OK;
	uint32_t previous = SG_DRAW_NO_TEXTURE;
	for (size_t i = 0; i < list->count; i++) {
		uint32_t texture = list->draws[i].texture;
		if (texture == previous)
			continue;
		previous = texture;
		sg_result result = sg_gl_cache_texture_updates(&gl->textures, in->scene, texture);
		const struct sg_texture_data *t = texture == SG_DRAW_NO_TEXTURE
		                                      ? NULL
		                                      : sg_scene_texture_slot(in->scene, texture);
		const struct sg_gl_material *material = sg_gl_materials[sg_gl_material_kind_of(t)];
		uint32_t also =
		    material->also_samples ? material->also_samples(t) : SG_DRAW_NO_TEXTURE;
		if (!result && also != SG_DRAW_NO_TEXTURE) /* what its material samples besides */
			result = sg_gl_cache_texture_updates(&gl->textures, in->scene, also);
		if (result)
			return result;
	}
	gl->updated_scene = in->versions.scene;
	gl->updated_textures = in->versions.texture_updates;
	gl->updated_list = list->serial;
	return SG_OK;
}

/* Draws gl->order's draws [first, end) as instanced batches of one texture and mesh. */
static sg_result draw_instanced(struct sg_gl_drawer *gl, const struct sg_scene *scene,
                                const struct sg_draw_list *list, size_t first, size_t end)
{
	sg_result result = SG_OK;
	for (size_t next; first < end; first = next) {
		const struct sg_draw *head = &list->draws[gl->order.draws[first]];
		for (next = first + 1; next < end; next++) {
			const struct sg_draw *d = &list->draws[gl->order.draws[next]];
			if (d->texture != head->texture || d->mesh != head->mesh)
				break;
		}
		const struct sg_gl_object *mesh;
		if ((result = bind_texture(gl, scene, head->texture)) ||
		    (result = sg_gl_cache_mesh(&gl->meshes, scene, head->mesh, &mesh)))
			break;
		glBindVertexArray(mesh->name);
		sg_gl_batch_point_instances(&gl->instances, first);
		GLsizei instances = (GLsizei)(next - first);
		if (mesh->indexed)
			glDrawElementsInstanced(GL_TRIANGLES, mesh->count, GL_UNSIGNED_INT, NULL, instances);
		else
			glDrawArraysInstanced(GL_TRIANGLES, 0, mesh->count, instances);
		gl->batches++;
	}
	return result;
}

sg_result sg_gl_drawer_draw_view(struct sg_gl_drawer *gl, const struct sg_scene *scene,
                                 const struct sg_view3d_frame *view,
                                 const struct sg_damage_region *region)
{
	int rects = region ? region->count : 1;
	sg_result result = SG_OK;
	for (int i = 0; i < rects && !result; i++) {
		/* the view's viewport, cut to the rectangle being repainted */
		const int *v = view->viewport;
		int x0 = v[0], y0 = v[1], x1 = v[0] + v[2], y1 = v[1] + v[3];
		if (region) {
			const struct sg_rect *r = &region->rects[i];
			x0 = x0 > r->x ? x0 : r->x;
			y0 = y0 > r->y ? y0 : r->y;
			x1 = x1 < r->x + r->width ? x1 : r->x + r->width;
			y1 = y1 < r->y + r->height ? y1 : r->y + r->height;
		}
		if (x1 <= x0 || y1 <= y0)
			continue;
		int scissor[4] = {x0, y0, x1 - x0, y1 - y0};
		result = sg_gl_draw3d(&gl->draw3d, &gl->programs.cache, &gl->textures,
		                      gl->programs.white_texture, gl->programs.max_texture_size,
		                      scene, view, scissor);
		gl->batches += gl->draw3d.draws;
	}
	return result;
}

sg_result sg_gl_drawer_draw(struct sg_gl_drawer *gl, const struct sg_scene *scene,
                            const struct sg_draw_list *list, const struct sg_traversal *walk,
                            mat4 view_projection, const struct sg_gl_frame *frame)
{
	const struct sg_paint *paint = &walk->paint;
	const struct sg_clips *clips = &walk->clips;
	sg_result result;
	const struct sg_gl_input input = {scene, sg_scene_versions(scene), list, paint,
	                                  view_projection, clips};
	const struct sg_gl_input *in = &input;
	gl->batches = 0;
	sg_gl_cache_sweep_destroyed(&gl->textures, &gl->meshes, scene);
	if (gl->pruned_scene != in->versions.scene ||
	    gl->pruned_structure != in->versions.structure) {
		sg_gl_cache_prune(&gl->textures, &gl->meshes, scene);
		sg_gl_cache_prune_meshes(&gl->draw3d.solids, scene);
		gl->pruned_scene = in->versions.scene;
		gl->pruned_structure = in->versions.structure;
	}
	if ((result = sg_gl_batch_order(&gl->order, &gl->sort, in)) ||
	    (result = upload_texture_updates(gl, in)))
		return result;
	bool expanded = sg_gl_expand_fits(&gl->expanded, in);
	if ((result = sg_gl_clip_prepare(&gl->clip, clips, list, gl->order.reordered, !expanded,
	                                 &gl->clipping)))
		return result;
	if ((result = sg_gl_blend_order(&gl->blend, &gl->order, in, !expanded)) ||
	    (result = sg_gl_depth_order(&gl->depth, &gl->order, in,
	                                expanded && sg_gl_expand_streams(&gl->expanded),
	                                (size_t)frame->width * (size_t)frame->height)))
		return result;
	/* the frame's features decide its programs, once, before any draw */
	if ((result = choose_programs(gl, paint)))
		return result;
	if (expanded)
		return draw_expanded(gl, in, frame);
	if ((result = sg_gl_batch_instances(&gl->instances, &gl->order, in)))
		return result;
	int rects = frame->region ? frame->region->count : 1;
	for (int i = 0; i < rects && !result; i++) {
		begin_rect(frame->region, i);
		begin_frame(gl, frame);
		result = draw_instanced(gl, scene, list, 0, gl->order.opaque_count);
		if (!result && gl->order.opaque_count < list->count) {
			begin_blending();
			result =
			    draw_instanced(gl, scene, list, gl->order.opaque_count, list->count);
		}
		glBindVertexArray(0);
	}
	glDisable(GL_SCISSOR_TEST);
	if (result)
		return result;
	return sg_gl_check("drawing the scene");
}
