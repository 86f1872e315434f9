/* Draw submission: one program, state changed only when the draw list asks. */
#include "gl_renderer.h"

#include "../graph/error.h"
#include "cache.h"
#include "program.h"

sg_result sg_gl_renderer_init(struct sg_gl_renderer *gl)
{
	*gl = (struct sg_gl_renderer){0};
	sg_result result = sg_gl_program_build(sg_shader_textured_vert, sg_shader_textured_frag,
	                                       &gl->program);
	if (result)
		return sg_fail_prefix(result, "building the embedded textured program: ");
	gl->matrix_location = glGetUniformLocation(gl->program, "Matrix");
	GLint texture_location = glGetUniformLocation(gl->program, "Tex");
	glUseProgram(gl->program);
	glUniform1i(texture_location, 0);
	glGetIntegerv(GL_MAX_TEXTURE_SIZE, &gl->max_texture_size);
	if ((result = sg_gl_check("setting up the textured program"))) {
		sg_gl_renderer_finish(gl);
		return result;
	}
	return SG_OK;
}

void sg_gl_renderer_finish(struct sg_gl_renderer *gl)
{
	sg_gl_cache_finish(&gl->textures, &gl->meshes);
	if (gl->program)
		glDeleteProgram(gl->program);
	*gl = (struct sg_gl_renderer){0};
}

sg_result sg_gl_renderer_draw(struct sg_gl_renderer *gl, const struct sg_scene *scene,
                              const struct sg_draw_list *list, mat4 view_projection, int width,
                              int height, const float clear_color[4])
{
	glViewport(0, 0, width, height);
	glDisable(GL_DEPTH_TEST); /* draw order is traversal order */
	glDisable(GL_BLEND);
	glDisable(GL_CULL_FACE);
	glClearColor(clear_color[0], clear_color[1], clear_color[2], clear_color[3]);
	glClear(GL_COLOR_BUFFER_BIT);
	glUseProgram(gl->program);
	glActiveTexture(GL_TEXTURE0);

	GLuint bound_texture = 0, bound_mesh = 0;
	sg_result result = SG_OK;
	for (size_t i = 0; i < list->count; i++) {
		const struct sg_draw *draw = &list->draws[i];
		GLuint texture;
		const struct sg_gl_object *mesh;
		if ((result = sg_gl_cache_texture(&gl->textures, scene, draw->texture,
		                                  gl->max_texture_size, &texture)) ||
		    (result = sg_gl_cache_mesh(&gl->meshes, scene, draw->mesh, &mesh)))
			break;
		if (texture != bound_texture) {
			glBindTexture(GL_TEXTURE_2D, texture);
			bound_texture = texture;
		}
		if (mesh->name != bound_mesh) {
			glBindVertexArray(mesh->name);
			bound_mesh = mesh->name;
		}
		mat4 matrix;
		glm_mat4_mul(view_projection, (vec4 *)draw->world, matrix);
		glUniformMatrix4fv(gl->matrix_location, 1, GL_FALSE, (const GLfloat *)matrix);
		if (mesh->indexed)
			glDrawElements(GL_TRIANGLES, mesh->count, GL_UNSIGNED_INT, NULL);
		else
			glDrawArrays(GL_TRIANGLES, 0, mesh->count);
	}
	glBindVertexArray(0);
	if (result)
		return result;
	return sg_gl_check("drawing the scene");
}
