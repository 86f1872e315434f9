/* Internal: draws the models of one 3D view (src/traverse/views3d.h) with
 * the programs of their materials (material_solid.c): depth-tested in the view's viewport,
 * opaque ones first, then the blended ones (docs/3d.md). */
#ifndef SG_GL_DRAW3D_H
#define SG_GL_DRAW3D_H

#include <GLES3/gl3.h>

#include "../traverse/views3d.h"
#include "material.h"
#include "object.h"

#define SG_GL_INSTANCE3D_FLOATS (16 + 9 + 4)

/* Sampler objects, one per wrap s, wrap t (clamp to edge, repeat, mirrored
 * repeat), magnification and minification filter (nearest, linear). */
#define SG_GL_SAMPLERS (3 * 3 * 2 * 2)

struct sg_gl_draw3d {
	struct sg_gl_cache solids;       /* meshes laid out for the program */
	GLuint samplers[SG_GL_SAMPLERS]; /* materials' samplers, made at first use */
	/* Per draw of the view (material_solid.vert): model matrix, normal
	 * matrix and tint, SG_GL_INSTANCE3D_FLOATS floats each. */
	GLuint instance_buffer;
	float *instances, *uploaded; /* this view's, and what the buffer holds */
	size_t instance_capacity, uploaded_capacity, uploaded_count;
	size_t buffer_bytes; /* the instance buffer's storage */
	size_t draws; /* draw calls of the last view */
};

void sg_gl_draw3d_finish(struct sg_gl_draw3d *d3);

/* Draws view into the bound framebuffer, inside scissor (x, y, width,
 * height: within the view's viewport, where its depth is cleared), with the
 * textures of textures (white: the 1x1 white texture) and the programs of
 * programs (material.h, built at their first draw). Leaves GL state for the
 * 2D drawer to set again. */
sg_result sg_gl_draw3d(struct sg_gl_draw3d *d3, struct sg_gl_programs_cache *programs,
                       struct sg_gl_cache *textures, GLuint white, GLint max_texture_size,
                       const struct sg_scene *scene, const struct sg_view3d_frame *view,
                       const int scissor[4]);

#endif
