/* The programs of shape textures (shape.h), one per variant of the shader. Colours go to the shader
 * premultiplied, as texels are uploaded; the radii clamped as picking
 * clamps them (src/graph/shape.c), so that what is drawn is what is hit. */
#include "shape.h"

#include "../base/error.h"
#include "../graph/shape_outline.h"
#include "program.h"

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

/* The variant a shape needs: what its shader computes (shaders/shape.frag).
 * A blurred shape has no border, gradient or image, and an image comes
 * without a gradient (src/graph/shape.c). */
static int variant_of(const struct sg_shape_desc *shape)
{
	if (shape->blur > 0)
		return 8;
	return (shape->gradient != SG_GRADIENT_NONE ? 1 : 0) | (shape->border_width > 0 ? 2 : 0) |
	       (!sg_texture_is_none(shape->image) ? 4 : 0);
}

static const char *const defines[SG_GL_SHAPE_VARIANTS] = {
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

static sg_result build_program(struct sg_gl_programs *gl, int variant)
{
	GLuint *program = &gl->shape_programs[gl->variant][variant];
	sg_result result = sg_gl_program_build_variant(
	    sg_shader_textured_vert, sg_shader_shape_frag, defines[variant], gl->variant, program);
	if (result)
		return sg_fail_prefix(result, "building the embedded shape program: ");
	for (int i = 0; i < U_COUNT; i++)
		gl->shape_uniforms[gl->variant][variant][i] =
		    glGetUniformLocation(*program, names[i]);
	glUniform1i(glGetUniformLocation(*program, "Tex"), 0); /* an image's texels */
	return SG_OK;
}

void sg_gl_shape_finish(struct sg_gl_programs *gl)
{
	for (int c = 0; c < SG_GL_VARIANTS; c++)
		for (int v = 0; v < SG_GL_SHAPE_VARIANTS; v++) {
			if (gl->shape_programs[c][v])
				glDeleteProgram(gl->shape_programs[c][v]);
			gl->shape_programs[c][v] = 0;
		}
}

static void premultiplied(const float c[4], float out[4])
{
	out[0] = c[0] * c[3];
	out[1] = c[1] * c[3];
	out[2] = c[2] * c[3];
	out[3] = c[3];
}

sg_result sg_gl_shape_bind(struct sg_gl_programs *gl, const struct sg_shape_desc *shape,
                           GLuint texture)
{
	int variant = variant_of(shape);
	if (!gl->shape_programs[gl->variant][variant]) {
		sg_result result = build_program(gl, variant);
		if (result)
			return result;
	}
	const GLint *u = gl->shape_uniforms[gl->variant][variant];
	glUseProgram(gl->shape_programs[gl->variant][variant]);
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
	gl->shape_bound = true;
	gl->nv12_bound = false;
	glBindTexture(GL_TEXTURE_2D, texture);
	return SG_OK;
}
