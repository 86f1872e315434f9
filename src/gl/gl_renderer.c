/* Draw submission: the list sorted into batches of one texture and one mesh,
 * each batch one instanced draw call; a depth test on per-draw depths keeps
 * the picture that traversal order gives. */
#include "gl_renderer.h"

#include "../graph/alloc.h"
#include "../graph/error.h"
#include "../graph/scene_internal.h"
#include "batch.h"
#include "cache.h"
#include "check.h"
#include "expand.h"
#include "program.h"

sg_result sg_gl_renderer_init(struct sg_gl_renderer *gl)
{
	*gl = (struct sg_gl_renderer){0};
	sg_result result = sg_gl_program_build(sg_shader_textured_vert, sg_shader_textured_frag,
	                                       &gl->program);
	if (result)
		return sg_fail_prefix(result, "building the embedded textured program: ");
	GLint texture_location = glGetUniformLocation(gl->program, "Tex");
	glUseProgram(gl->program);
	glUniform1i(texture_location, 0);
	glGetIntegerv(GL_MAX_TEXTURE_SIZE, &gl->max_texture_size);
	glGenBuffers(1, &gl->instance_buffer);
	if ((result = sg_gl_check("setting up the textured program"))) {
		sg_gl_renderer_finish(gl);
		return result;
	}
	return SG_OK;
}

void sg_gl_renderer_finish(struct sg_gl_renderer *gl)
{
	sg_gl_cache_finish(&gl->textures, &gl->meshes);
	if (gl->instance_buffer)
		glDeleteBuffers(1, &gl->instance_buffer);
	if (gl->program)
		glDeleteProgram(gl->program);
	sg_gl_expand_finish(&gl->expanded);
	sg_free(gl->order);
	sg_free(gl->instances);
	*gl = (struct sg_gl_renderer){0};
}

static void begin_frame(struct sg_gl_renderer *gl, int width, int height,
                        const float clear_color[4])
{
	glViewport(0, 0, width, height);
	glDisable(GL_BLEND);
	glDisable(GL_CULL_FACE);
	glClearColor(clear_color[0], clear_color[1], clear_color[2], clear_color[3]);
	glClearDepthf(0.0f);
	glDepthMask(GL_TRUE);
	glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
	if (gl->reordered) {
		glEnable(GL_DEPTH_TEST);
		glDepthFunc(GL_GEQUAL);
	} else {
		glDisable(GL_DEPTH_TEST); /* drawn in traversal order as it is */
	}
	glUseProgram(gl->program);
	glActiveTexture(GL_TEXTURE0);
}

static sg_result draw_expanded(struct sg_gl_renderer *gl, const struct sg_scene *scene,
                               const struct sg_draw_list *list, mat4 view_projection, int width,
                               int height, const float clear_color[4])
{
	sg_result result = sg_gl_expand(gl, scene, list, view_projection);
	if (result)
		return result;
	begin_frame(gl, width, height, clear_color);
	glBindVertexArray(gl->expanded.vertex_array);
	/* Matrix (locations 2 to 5) is not an array here: an identity, the vertices
	 * being in clip space already. Generic values are context state. */
	for (GLuint column = 0; column < 4; column++)
		glVertexAttrib4f(2 + column, column == 0, column == 1, column == 2, column == 3);
	for (size_t r = 0; r < gl->expanded.run_count; r++) {
		const struct sg_gl_run *run = &gl->expanded.runs[r];
		GLuint texture;
		if ((result = sg_gl_cache_texture(&gl->textures, scene, run->texture,
		                                  gl->max_texture_size, &texture)))
			break;
		glBindTexture(GL_TEXTURE_2D, texture);
		glDrawElements(GL_TRIANGLES, (GLsizei)run->count, GL_UNSIGNED_INT,
		               (const void *)(run->first * sizeof(uint32_t)));
		gl->batches++;
	}
	glBindVertexArray(0);
	if (result)
		return result;
	return sg_gl_check("drawing the scene");
}

/* Sends the texture updates (sg_texture_update) the list's textures lack before
 * the frame begins: a driver writing a texture that queued work may read must
 * run that work first (llvmpipe would flush the frame's clear on its own). Only
 * after the scene recorded updates; a texture met for the first time, or not
 * in this list, is brought up to date at its first draw. */
static sg_result upload_texture_updates(struct sg_gl_renderer *gl, const struct sg_scene *scene,
                                        const struct sg_draw_list *list)
{
	if (gl->updated_scene == scene->id && gl->updated_textures == scene->texture_updates)
		return SG_OK;
	uint32_t previous = UINT32_MAX;
	for (size_t i = 0; i < list->count; i++) {
		uint32_t texture = list->draws[i].texture;
		if (texture == previous)
			continue;
		previous = texture;
		sg_result result = sg_gl_cache_texture_updates(&gl->textures, scene, texture);
		if (result)
			return result;
	}
	gl->updated_scene = scene->id;
	gl->updated_textures = scene->texture_updates;
	return SG_OK;
}

sg_result sg_gl_renderer_draw(struct sg_gl_renderer *gl, const struct sg_scene *scene,
                              const struct sg_draw_list *list, mat4 view_projection, int width,
                              int height, const float clear_color[4])
{
	sg_result result;
	gl->batches = 0;
	sg_gl_cache_sweep_destroyed(&gl->textures, &gl->meshes, scene);
	if (gl->pruned_scene != scene->id || gl->pruned_structure != scene->structure_version) {
		sg_gl_cache_prune(&gl->textures, &gl->meshes, scene);
		gl->pruned_scene = scene->id;
		gl->pruned_structure = scene->structure_version;
	}
	if ((result = sg_gl_batch_order(gl, list)) ||
	    (result = upload_texture_updates(gl, scene, list)))
		return result;
	if (sg_gl_expand_fits(scene, list))
		return draw_expanded(gl, scene, list, view_projection, width, height, clear_color);
	if ((result = sg_gl_batch_instances(gl, scene, list, view_projection)))
		return result;
	begin_frame(gl, width, height, clear_color);
	for (size_t first = 0, end; first < list->count; first = end) {
		const struct sg_draw *head = &list->draws[gl->order[first]];
		for (end = first + 1; end < list->count; end++) {
			const struct sg_draw *d = &list->draws[gl->order[end]];
			if (d->texture != head->texture || d->mesh != head->mesh)
				break;
		}
		GLuint texture;
		const struct sg_gl_object *mesh;
		if ((result = sg_gl_cache_texture(&gl->textures, scene, head->texture,
		                                  gl->max_texture_size, &texture)) ||
		    (result = sg_gl_cache_mesh(&gl->meshes, scene, head->mesh, &mesh)))
			break;
		glBindTexture(GL_TEXTURE_2D, texture);
		glBindVertexArray(mesh->name);
		sg_gl_batch_point_instances(gl, first);
		GLsizei instances = (GLsizei)(end - first);
		if (mesh->indexed)
			glDrawElementsInstanced(GL_TRIANGLES, mesh->count, GL_UNSIGNED_INT, NULL, instances);
		else
			glDrawArraysInstanced(GL_TRIANGLES, 0, mesh->count, instances);
		gl->batches++;
	}
	glBindVertexArray(0);
	if (result)
		return result;
	return sg_gl_check("drawing the scene");
}
