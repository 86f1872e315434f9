/* The shape material: shape textures (sg/shape.h), whose texels are
 * computed by material_shape.frag from the shape's numbers, not sampled; the
 * texture record's one white texel is never drawn. Programs in variants by
 * what the shape needs (the key's own bits): a gradient, a border, an
 * image, a blur. Colours go to the shader premultiplied, as texels are
 * uploaded; the radii clamped as picking clamps them (src/graph/shape.c),
 * so that what is drawn is what is hit. */
#include <stdio.h>

#include "../graph/shape_outline.h"
#include "cache.h"
#include "material.h"
#include "program.h"

/* The embedded material_shape.frag, run with the textured vertex shader. */
extern const char sg_shader_shape_frag[];

enum {
	U_SIZE,
	U_HALF,
	U_RADII,
	U_INNER_RADII,
	U_BORDER_WIDTH,
	U_FILL,
	U_BORDER_COLOR,
	U_GRADIENT,
	U_GRADIENT_START,
	U_GRADIENT_END,
	U_STOP_COUNT,
	U_STOP_OFFSETS,
	U_STOP_COLORS,
	U_BLUR,
	U_COUNT
};

static const char *const names[U_COUNT] = {
    "Size",          "Half",          "Radii",       "InnerRadii", "BorderWidth",
    "Fill",          "BorderColor",   "Gradient",    "GradientStart",
    "GradientEnd",   "StopCount",     "StopOffsets", "StopColors", "Blur",
};

/* The variant a shape needs: what its shader computes (material_shape.frag).
 * A blurred shape has no border, gradient or image, and an image comes
 * without a gradient (src/graph/shape.c). */
static int variant_of(const struct sg_shape_desc *shape)
{
	if (shape->blur > 0)
		return 8;
	return (shape->gradient != SG_GRADIENT_NONE ? 1 : 0) | (shape->border_width > 0 ? 2 : 0) |
	       (!sg_texture_is_none(shape->image) ? 4 : 0);
}

static const char *const variant_defines[9] = {
    "",
    "#define SHAPE_GRADIENT 1\n",
    "#define SHAPE_BORDER 1\n",
    "#define SHAPE_GRADIENT 1\n#define SHAPE_BORDER 1\n",
    "#define SHAPE_IMAGE 1\n",
    NULL, /* an image with a gradient: refused */
    "#define SHAPE_IMAGE 1\n#define SHAPE_BORDER 1\n",
    NULL,
    "#define SHAPE_BLUR 1\n",
};

static void defines(uint64_t key, char *out, size_t size)
{
	const char *own = variant_defines[key & SG_GL_OWN_BITS];
	snprintf(out, size, "%s", own ? own : "");
}

static uint64_t own_bits(const struct sg_texture_data *t)
{
	return (uint64_t)variant_of(t->shape);
}

/* The image a shape is filled with (live: the traversal checks), whose
 * updates are uploaded with the shape's. */
static uint32_t also_samples(const struct sg_texture_data *t)
{
	return sg_texture_is_none(t->shape->image) ? SG_DRAW_NO_TEXTURE : t->shape->image.index;
}

static void premultiplied(const float c[4], float out[4])
{
	out[0] = c[0] * c[3];
	out[1] = c[1] * c[3];
	out[2] = c[2] * c[3];
	out[3] = c[3];
}

/* The shape's numbers as uniforms, and on unit 0 its image's texels (the
 * white texture for a shape without one: the program samples nothing). */
static sg_result bind(const struct sg_gl_program *p, const struct sg_gl_bind2d *b)
{
	const struct sg_shape_desc *shape = b->t->shape;
	GLuint texture = b->white;
	if (!sg_texture_is_none(shape->image)) {
		sg_result result = sg_gl_cache_texture(b->textures, b->scene, shape->image.index,
		                                       b->max_texture_size, &texture);
		if (result)
			return result;
	}
	const GLint *u = p->uniforms;
	float radii[4], inner[4], color[4];
	sg_shape_radii(shape, radii);
	float half[2] = {shape->width / 2, shape->height / 2};
	for (int i = 0; i < 4; i++) {
		inner[i] = radii[i] - shape->border_width;
		inner[i] = inner[i] > 0 ? inner[i] : 0;
	}
	glUniform2f(u[U_SIZE], shape->width, shape->height);
	glUniform2f(u[U_HALF], half[0], half[1]);
	glUniform4fv(u[U_RADII], 1, radii);
	glUniform4fv(u[U_INNER_RADII], 1, inner);
	glUniform1f(u[U_BORDER_WIDTH], shape->border_width);
	premultiplied(shape->fill, color);
	glUniform4fv(u[U_FILL], 1, color);
	premultiplied(shape->border_color, color);
	glUniform4fv(u[U_BORDER_COLOR], 1, color);
	glUniform1i(u[U_GRADIENT], (GLint)shape->gradient);
	glUniform2fv(u[U_GRADIENT_START], 1, shape->gradient_start);
	glUniform2fv(u[U_GRADIENT_END], 1, shape->gradient_end);
	int stops = shape->gradient == SG_GRADIENT_NONE ? 0 : shape->stop_count;
	float offsets[SG_SHAPE_MAX_STOPS] = {0}, colors[SG_SHAPE_MAX_STOPS][4] = {{0}};
	for (int i = 0; i < stops; i++) {
		offsets[i] = shape->stops[i].offset;
		premultiplied(shape->stops[i].color, colors[i]);
	}
	glUniform1i(u[U_STOP_COUNT], stops);
	glUniform1fv(u[U_STOP_OFFSETS], SG_SHAPE_MAX_STOPS, offsets);
	glUniform4fv(u[U_STOP_COLORS], SG_SHAPE_MAX_STOPS, &colors[0][0]);
	glUniform1f(u[U_BLUR], shape->blur);
	glBindTexture(GL_TEXTURE_2D, texture);
	return SG_OK;
}

static const char *const samplers[] = {"Tex"}; /* an image's texels */

const struct sg_gl_material sg_gl_material_shape = {
    .name = "shape",
    .vertex = sg_shader_textured_vert,
    .fragment = sg_shader_shape_frag,
    .features = SG_GL_FEATURE_CLIP,
    .samples_record = false,
    .defines = defines,
    .uniforms = names,
    .uniform_count = U_COUNT,
    .samplers = samplers,
    .sampler_count = 1,
    .own_bits = own_bits,
    .bind = bind,
    .also_samples = also_samples,
};
