/* Internal: submits a draw list with GLES 3. Knows nothing of targets: the
 * caller makes a context current and binds the framebuffer to draw into. */
#ifndef SG_GL_RENDERER_H
#define SG_GL_RENDERER_H

#include <GLES3/gl3.h>

#include "../traverse/traverse.h"

struct sg_gl_object {
	uint32_t scene, generation; /* which scene resource this GL object holds */
	GLuint name, buffer, index_buffer; /* texture, or vertex array + buffers */
	GLsizei count;
	bool indexed;
};

struct sg_gl_cache {
	struct sg_gl_object *objects; /* indexed by the resource's pool index */
	size_t capacity;
};

struct sg_gl_renderer {
	GLuint program;
	GLint matrix_location;
	GLint max_texture_size;
	struct sg_gl_cache textures, meshes;
};

/* Builds the embedded program. Needs a current GLES 3 context. */
sg_result sg_gl_renderer_init(struct sg_gl_renderer *gl);
/* Deletes every GL object; the context must be current. */
void sg_gl_renderer_finish(struct sg_gl_renderer *gl);

/* Clears to clear_color, then draws list with view_projection * world per draw,
 * uploading the textures and meshes it meets for the first time. */
sg_result sg_gl_renderer_draw(struct sg_gl_renderer *gl, const struct sg_scene *scene,
                              const struct sg_draw_list *list, mat4 view_projection, int width,
                              int height, const float clear_color[4]);

/* Returns SG_OK if glGetError() has nothing, else SG_ERR_GL naming what. */
sg_result sg_gl_check(const char *what);

#endif
