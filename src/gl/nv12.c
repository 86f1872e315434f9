/* The program of imported NV12 textures. Drivers offer YUV sampling through
 * GL_TEXTURE_EXTERNAL_OES, but Mesa 22.3's llvmpipe samples its texture
 * coordinates instead of the buffer there; as mpv, SDL and kmscube do where
 * that conversion is not trusted, each plane is a texture of its own and the
 * conversion is ours, the same on every driver. */
#include "nv12.h"

#include "../base/error.h"
#include "../graph/dmabuf.h"
#include "program.h"

/* Built at the first NV12 texture rather than with the renderer: a link
 * costs time even from Mesa's shader cache (bench/README.md), which a
 * program that never imports one would pay at every start. Leaves the
 * program in use. */
static sg_result build_program(struct sg_gl_programs *gl)
{
	unsigned c = gl->variant;
	GLuint *program = &gl->nv12_program[c];
	sg_result result = sg_gl_program_build_variant(sg_shader_textured_vert, sg_shader_nv12_frag,
	                                               NULL, c, program);
	if (result)
		return sg_fail_prefix(result, "building the embedded NV12 program: ");
	glUniform1i(glGetUniformLocation(*program, "Luma"), 0);
	glUniform1i(glGetUniformLocation(*program, "Chroma"), 1);
	gl->nv12_matrix[c] = glGetUniformLocation(*program, "YuvToRgb");
	gl->nv12_offset[c] = glGetUniformLocation(*program, "YuvOffset");
	return SG_OK;
}

void sg_gl_nv12_finish(struct sg_gl_programs *gl)
{
	for (int c = 0; c < SG_GL_VARIANTS; c++) {
		if (gl->nv12_program[c])
			glDeleteProgram(gl->nv12_program[c]);
		gl->nv12_program[c] = 0;
	}
}

/* Y'CbCr (as sampled: bytes / 255) to R'G'B': rgb = matrix * (yuv - offset),
 * the range's scale folded into the matrix (column-major, as GL takes it). */
static void set_conversion(struct sg_gl_programs *gl, enum sg_yuv_encoding encoding,
                           enum sg_yuv_range range)
{
	float kr = encoding == SG_YUV_BT709 ? 0.2126f : 0.299f;
	float kb = encoding == SG_YUV_BT709 ? 0.0722f : 0.114f, kg = 1.0f - kr - kb;
	bool full = range == SG_YUV_FULL;
	/* Limited range: Y in 16 .. 235, Cb and Cr in 16 .. 240 around 128. */
	float luma = full ? 1.0f : 255.0f / 219.0f, chroma = full ? 1.0f : 255.0f / 224.0f;
	float cb_g = -2.0f * kb * (1.0f - kb) / kg * chroma, cb_b = 2.0f * (1.0f - kb) * chroma;
	float cr_r = 2.0f * (1.0f - kr) * chroma, cr_g = -2.0f * kr * (1.0f - kr) / kg * chroma;
	/* Columns: what Y, Cb and Cr add to R, G and B. */
	const float matrix[9] = {luma, luma, luma, 0.0f, cb_g, cb_b, cr_r, cr_g, 0.0f};
	glUniformMatrix3fv(gl->nv12_matrix[gl->variant], 1, GL_FALSE, matrix);
	glUniform3f(gl->nv12_offset[gl->variant], full ? 0.0f : 16.0f / 255.0f, 128.0f / 255.0f,
	            128.0f / 255.0f);
}

sg_result sg_gl_nv12_bind(struct sg_gl_programs *gl, const struct sg_gl_object *object,
                          const struct sg_texture_data *t, GLuint texture)
{
	/* The program and its uniforms are set again for each NV12 texture: the
	 * frame's start (and the damage tint) take the textured program without
	 * telling, and textures differ in matrix and range. A plain texture
	 * after an NV12 one takes the textured program back; otherwise it is
	 * current already. */
	bool nv12 = object && object->chroma;
	if (nv12) {
		if (!gl->nv12_program[gl->variant]) {
			sg_result result = build_program(gl);
			if (result)
				return result;
		}
		glUseProgram(gl->nv12_program[gl->variant]);
		set_conversion(gl, t->import->encoding, t->import->range);
		glActiveTexture(GL_TEXTURE1);
		glBindTexture(GL_TEXTURE_2D, object->chroma);
		glActiveTexture(GL_TEXTURE0);
	} else if (gl->nv12_bound || gl->shape_bound) {
		glUseProgram(gl->textured);
	}
	gl->nv12_bound = nv12;
	gl->shape_bound = false;
	glBindTexture(GL_TEXTURE_2D, texture);
	return SG_OK;
}
