/* The models of a 3D view, drawn instanced (their programs and uniforms are
 * their materials', material_solid.c): each run of neighbours sharing
 * material, texture, mesh and winding is one draw call, its models'
 * matrices and tints per instance. Depth test and culling are GL's; the
 * order (batches of opaque ones nearest first, blended ones farthest first)
 * is the traversal's (views3d.c). */
#include "draw3d.h"

#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../graph/scene_view.h"
#include "cache.h"
#include "check.h"
#include "material_solid.h"

enum { UNIT_BASE, UNIT_METAL_ROUGH, UNIT_NORMAL, UNIT_OCCLUSION, UNIT_EMISSIVE, UNITS };

void sg_gl_draw3d_finish(struct sg_gl_draw3d *d3)
{
	if (d3->instance_buffer)
		glDeleteBuffers(1, &d3->instance_buffer);
	for (int i = 0; i < SG_GL_SAMPLERS; i++)
		if (d3->samplers[i])
			glDeleteSamplers(1, &d3->samplers[i]);
	sg_free(d3->instances);
	sg_free(d3->uploaded);
	struct sg_gl_cache none = {0};
	sg_gl_cache_finish(&none, &d3->solids);
	*d3 = (struct sg_gl_draw3d){0};
}

/* Binds texture index (SG_DRAW_NO_TEXTURE: white) on unit, its copy with
 * straight alpha for a material (cache.h), else the premultiplied one. The
 * unit is made active first: an upload (the texture's first, or its
 * updates) binds the texture on the active unit, which would otherwise be
 * the previous slot's, and leave that slot sampling this texture. */
static sg_result bind(struct sg_gl_cache *textures, GLuint white, GLint max_size,
                      const struct sg_scene *scene, uint32_t index, int unit, bool straight)
{
	GLuint name = white;
	glActiveTexture(GL_TEXTURE0 + (GLenum)unit);
	if (index != SG_DRAW_NO_TEXTURE) {
		sg_result result =
		    straight ? sg_gl_cache_texture_straight(textures, scene, index, max_size, &name)
		             : sg_gl_cache_texture(textures, scene, index, max_size, &name);
		if (result)
			return result;
		if (textures->objects[index].chroma)
			return sg_fail(SG_ERR_UNSUPPORTED,
			               "texture #%u: NV12 textures are not drawn in 3D views", index);
	}
	glBindTexture(GL_TEXTURE_2D, name);
	return SG_OK;
}

static uint32_t texture_index(const struct sg_material_texture *t)
{
	return t->texture.generation ? t->texture.index : SG_DRAW_NO_TEXTURE;
}

/* The sampler object of material texture t (0: none is used), its zero
 * fields the texture's own wrap and filter: a sampler bound to a unit
 * overrides the parameters of the texture bound there (GLES 3.0). */
static GLuint sampler_of(struct sg_gl_draw3d *d3, const struct sg_scene *scene,
                         const struct sg_material_texture *t)
{
	if (!t->texture.generation)
		return 0;
	const struct sg_texture_data *own = sg_scene_texture_slot(scene, t->texture.index);
	const struct sg_sampler *s = &t->sampler;
	unsigned own_wrap =
	    own->wrap == SG_WRAP_REPEAT ? SG_SAMPLER_REPEAT : SG_SAMPLER_CLAMP_TO_EDGE;
	unsigned own_filter =
	    own->filter == SG_FILTER_LINEAR ? SG_SAMPLER_LINEAR : SG_SAMPLER_NEAREST;
	/* each from 0: the first value after "the texture's own" */
	unsigned wrap_s = (s->wrap_s ? (unsigned)s->wrap_s : own_wrap) - 1;
	unsigned wrap_t = (s->wrap_t ? (unsigned)s->wrap_t : own_wrap) - 1;
	unsigned mag = (s->mag_filter ? (unsigned)s->mag_filter : own_filter) - 1;
	unsigned min = (s->min_filter ? (unsigned)s->min_filter : own_filter) - 1;
	unsigned key = ((wrap_s * 3 + wrap_t) * 2 + mag) * 2 + min;
	if (!d3->samplers[key]) {
		static const GLint wraps[3] = {GL_CLAMP_TO_EDGE, GL_REPEAT, GL_MIRRORED_REPEAT};
		static const GLint filters[2] = {GL_NEAREST, GL_LINEAR};
		glGenSamplers(1, &d3->samplers[key]);
		GLuint n = d3->samplers[key];
		glSamplerParameteri(n, GL_TEXTURE_WRAP_S, wraps[wrap_s]);
		glSamplerParameteri(n, GL_TEXTURE_WRAP_T, wraps[wrap_t]);
		glSamplerParameteri(n, GL_TEXTURE_MAG_FILTER, filters[mag]);
		glSamplerParameteri(n, GL_TEXTURE_MIN_FILTER, filters[min]);
	}
	return d3->samplers[key];
}

static uint8_t unit_byte(float value)
{
	return (uint8_t)lroundf(value * 255.0f);
}

/* Program, uniforms, textures and culling of the run of draws like d. */
static sg_result prepare(struct sg_gl_draw3d *d3, struct sg_gl_programs_cache *programs,
                         struct sg_gl_cache *textures, GLuint white, GLint max_size,
                         const struct sg_scene *scene, const struct sg_view3d_frame *v,
                         const struct sg_draw3d *d, GLuint *current)
{
	const struct sg_material_desc *m = d->material == SG_DRAW3D_NO_MATERIAL
	                                       ? NULL
	                                       : sg_scene_material_slot(scene, d->material);
	struct sg_gl_program *p;
	sg_result result = sg_gl_program_of(programs, sg_gl_solid_key(scene, v, d), &p);
	if (result)
		return result;
	if (*current != p->name) {
		glUseProgram(p->name);
		*current = p->name;
	}
	if (!p->view_set) {
		sg_gl_solid_set_view(p, v);
		p->view_set = true;
	}
	if (!m || m->double_sided) {
		glDisable(GL_CULL_FACE);
	} else {
		glEnable(GL_CULL_FACE);
		/* glTF's fronts are counter-clockwise; the frame's y flip mirrors
		 * them, and so does a world matrix with a negative determinant. */
		glFrontFace(d->mirrored ? GL_CCW : GL_CW);
	}
	/* gl_FrontFacing (a double-sided back face) follows the same rule */
	if (!m || m->double_sided)
		glFrontFace(d->mirrored ? GL_CCW : GL_CW);
	sg_gl_solid_set_material(p, scene, m);
	if (!m) {
		glBindSampler(UNIT_BASE, 0); /* the texture's own wrap and filter, as in 2D */
		return bind(textures, white, max_size, scene, d->texture, UNIT_BASE, false);
	}
	const struct sg_material_texture *t[UNITS] = {
	    &m->base_color_texture, &m->metallic_roughness_texture, &m->normal_texture,
	    &m->occlusion_texture, &m->emissive_texture};
	for (int u = 0; u < UNITS; u++) {
		if ((result = bind(textures, white, max_size, scene, texture_index(t[u]), u, true)))
			return result;
		glBindSampler((GLuint)u, sampler_of(d3, scene, t[u]));
	}
	return SG_OK;
}

/* Whether b draws in the same call as a. */
static bool same_batch(const struct sg_draw3d *a, const struct sg_draw3d *b)
{
	return a->material == b->material && a->texture == b->texture && a->mesh == b->mesh &&
	       a->mirrored == b->mirrored && a->faded == b->faded;
}

/* Each draw's instance: model matrix, normal matrix (the inverse transpose
 * of the model's 3x3), and tint: for a model without a material its
 * colour premultiplied and rounded as the 2D path's (paint.c), else the
 * opacities above in alpha. */
static sg_result fill_instances(struct sg_gl_draw3d *d3, const struct sg_view3d_frame *v)
{
	if (!sg_grow_array((void **)&d3->instances, &d3->instance_capacity,
	                   v->count * SG_GL_INSTANCE3D_FLOATS, sizeof(float)))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory for the %zu instances of a 3D view",
		               v->count);
	for (size_t i = 0; i < v->count; i++) {
		const struct sg_draw3d *d = &v->draws[i];
		float *f = d3->instances + i * SG_GL_INSTANCE3D_FLOATS;
		memcpy(f, d->world, sizeof(mat4));
		mat3 inverse; /* of the upper 3x3 alone: what turns normals */
		glm_mat4_pick3((vec4 *)d->world, inverse);
		glm_mat3_inv(inverse, inverse);
		for (int c = 0; c < 3; c++) /* column c of the transpose: row c of the inverse */
			for (int r = 0; r < 3; r++)
				f[16 + c * 3 + r] = inverse[r][c];
		float *tint = f + 25;
		if (d->material == SG_DRAW3D_NO_MATERIAL) {
			float a = d->color[3];
			tint[0] = unit_byte(d->color[0] * a) / 255.0f;
			tint[1] = unit_byte(d->color[1] * a) / 255.0f;
			tint[2] = unit_byte(d->color[2] * a) / 255.0f;
			tint[3] = unit_byte(a) / 255.0f;
		} else {
			tint[0] = tint[1] = tint[2] = 1.0f;
			tint[3] = d->opacity;
		}
	}
	/* A still view (one view a frame) hands GL nothing: a new upload is
	 * fresh pages for llvmpipe to fault in and zero each frame. */
	size_t bytes = v->count * SG_GL_INSTANCE3D_FLOATS * sizeof(float);
	if (d3->instance_buffer && d3->uploaded_count == v->count &&
	    memcmp(d3->uploaded, d3->instances, bytes) == 0)
		return SG_OK;
	if (!d3->instance_buffer)
		glGenBuffers(1, &d3->instance_buffer);
	glBindBuffer(GL_ARRAY_BUFFER, d3->instance_buffer);
	/* Into the storage the buffer has where it fits: a new store each frame
	 * is fresh pages for llvmpipe to fault in and zero (13 % of a frame of
	 * 10,000 turning cubes was the kernel's). GL still gives draws queued
	 * before the update the data they were issued with. */
	if (bytes <= d3->buffer_bytes) {
		glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)bytes, d3->instances);
	} else {
		glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)bytes, d3->instances, GL_DYNAMIC_DRAW);
		d3->buffer_bytes = bytes;
	}
	/* kept to compare with the next view's: swapped, not copied */
	float *swap = d3->uploaded;
	size_t swap_capacity = d3->uploaded_capacity;
	d3->uploaded = d3->instances;
	d3->uploaded_capacity = d3->instance_capacity;
	d3->instances = swap;
	d3->instance_capacity = swap_capacity;
	d3->uploaded_count = v->count;
	return SG_OK;
}

/* Points the bound vertex array's instance attributes at instance first. */
static void point_instances(const struct sg_gl_draw3d *d3, size_t first)
{
	glBindBuffer(GL_ARRAY_BUFFER, d3->instance_buffer);
	GLsizei stride = SG_GL_INSTANCE3D_FLOATS * sizeof(float);
	size_t base = first * SG_GL_INSTANCE3D_FLOATS;
	static const struct {
		GLuint location;
		GLint size;
		size_t offset;
	} a[] = {{6, 4, 0},   {7, 4, 4},   {8, 4, 8},   {9, 4, 12},
	         {10, 3, 16}, {11, 3, 19}, {12, 3, 22}, {13, 4, 25}};
	for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++) {
		glEnableVertexAttribArray(a[i].location);
		glVertexAttribPointer(a[i].location, a[i].size, GL_FLOAT, GL_FALSE, stride,
		                      (const void *)((base + a[i].offset) * sizeof(float)));
		glVertexAttribDivisor(a[i].location, 1);
	}
}

static sg_result draw_range(struct sg_gl_draw3d *d3, struct sg_gl_programs_cache *programs,
                            struct sg_gl_cache *textures, GLuint white, GLint max_size,
                            const struct sg_scene *scene, const struct sg_view3d_frame *v,
                            size_t first, size_t end, GLuint *current)
{
	for (size_t i = first, next; i < end; i = next) {
		const struct sg_draw3d *d = &v->draws[i];
		for (next = i + 1; next < end && same_batch(d, &v->draws[next]); next++)
			;
		const struct sg_gl_object *mesh;
		sg_result result;
		if ((result =
		         prepare(d3, programs, textures, white, max_size, scene, v, d, current)) ||
		    (result = sg_gl_cache_solid(&d3->solids, scene, d->mesh, &mesh)))
			return result;
		glBindVertexArray(mesh->name);
		point_instances(d3, i);
		GLsizei instances = (GLsizei)(next - i);
		if (mesh->indexed)
			glDrawElementsInstanced(GL_TRIANGLES, mesh->count, GL_UNSIGNED_INT, NULL,
			                        instances);
		else
			glDrawArraysInstanced(GL_TRIANGLES, 0, mesh->count, instances);
		d3->draws++;
	}
	return SG_OK;
}

sg_result sg_gl_draw3d(struct sg_gl_draw3d *d3, struct sg_gl_programs_cache *programs,
                       struct sg_gl_cache *textures, GLuint white, GLint max_texture_size,
                       const struct sg_scene *scene, const struct sg_view3d_frame *v,
                       const int scissor[4])
{
	d3->draws = 0;
	for (size_t i = 0; i < programs->count; i++)
		programs->programs[i].view_set = false;
	const int *r = v->viewport;
	if (r[2] <= 0 || r[3] <= 0)
		return SG_OK;
	/* The frame's y flip makes GL's row 0 the picture's top row (renderer.c),
	 * so a rectangle of output rows is one of window rows as it is. */
	glViewport(r[0], r[1], r[2], r[3]);
	glEnable(GL_SCISSOR_TEST);
	glScissor(scissor[0], scissor[1], scissor[2], scissor[3]);
	glEnable(GL_DEPTH_TEST);
	glDepthRangef(0.0f, 1.0f);
	glDepthMask(GL_TRUE);
	glClearDepthf(1.0f);
	if (!v->nested) /* a nested view shares the outer view's depth (views3d.h) */
		glClear(GL_DEPTH_BUFFER_BIT);
	glDepthFunc(GL_LESS);
	glDisable(GL_BLEND);
	glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA); /* premultiplied source-over */
	glCullFace(GL_BACK);
	/* attributes a mesh lacks (cache.c leaves their arrays off) */
	glVertexAttrib3f(1, 0.0f, 0.0f, 1.0f);
	glVertexAttrib4f(4, 1.0f, 1.0f, 1.0f, 1.0f);
	glVertexAttrib4f(5, 1.0f, 0.0f, 0.0f, 1.0f);
	GLuint current = 0;
	sg_result result = fill_instances(d3, v);
	if (!result)
		result = draw_range(d3, programs, textures, white, max_texture_size, scene, v, 0,
		                    v->opaque_count, &current);
	if (!result && v->opaque_count < v->count) {
		glEnable(GL_BLEND);
		glDepthMask(GL_FALSE);
		result = draw_range(d3, programs, textures, white, max_texture_size, scene, v,
		                    v->opaque_count, v->count, &current);
	}
	glBindVertexArray(0);
	glDisable(GL_CULL_FACE);
	glDisable(GL_SCISSOR_TEST);
	glDisable(GL_BLEND);
	glDepthMask(GL_TRUE);
	glFrontFace(GL_CCW);
	for (GLuint u = 0; u < UNITS; u++) /* the 2D drawer's textures use their own */
		glBindSampler(u, 0);
	glActiveTexture(GL_TEXTURE0);
	if (result)
		return result;
	return sg_gl_check("drawing a 3D view");
}
