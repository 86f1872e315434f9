/* The textured material: a 2D draw's texture (premultiplied on upload,
 * cache.c) times the model's colour (material_textured.*). Frames whose draws
 * are all white and opaque take its ALL_WHITE programs, without the colour
 * input (SG_GL_FEATURE_ALL_WHITE). Draws without a texture sample the 1x1
 * white one. */
#include "cache.h"
#include "material.h"
#include "program.h"

static const char *const samplers[] = {"Tex"};

static uint64_t own_bits(const struct sg_texture_data *t)
{
	(void)t;
	return 0;
}

static sg_result bind(const struct sg_gl_program *p, const struct sg_gl_bind2d *b)
{
	(void)p;
	GLuint texture = b->white;
	if (b->t) {
		sg_result result = sg_gl_cache_texture(b->textures, b->scene, b->index,
		                                       b->max_texture_size, &texture);
		if (result)
			return result;
	}
	glBindTexture(GL_TEXTURE_2D, texture);
	return SG_OK;
}

const struct sg_gl_material sg_gl_material_textured = {
    .name = "textured",
    .vertex = sg_shader_textured_vert,
    .fragment = sg_shader_textured_frag,
    .features = SG_GL_FEATURE_CLIP | SG_GL_FEATURE_ALL_WHITE,
    .samples_record = true,
    .samplers = samplers,
    .sampler_count = 1,
    .own_bits = own_bits,
    .bind = bind,
};
