/* The NV12 material: imported NV12 textures. Drivers offer YUV sampling
 * through GL_TEXTURE_EXTERNAL_OES, but Mesa 22.3's llvmpipe samples its
 * texture coordinates instead of the buffer there; as mpv, SDL and kmscube
 * do where that conversion is not trusted, each plane is a texture of its
 * own (cache.c: Y in the object's name, CbCr in its chroma) and the
 * conversion is ours (material_nv12.frag), the same on every driver. Its
 * programs are built at the first NV12 texture (material.c): a link costs
 * time even from Mesa's shader cache (bench/README.md), which a program that
 * never imports one would pay at every start. */
#include "../graph/dmabuf.h"
#include "cache.h"
#include "material.h"
#include "program.h"

/* The embedded material_nv12.frag, run with the textured vertex shader. */
extern const char sg_shader_nv12_frag[];

enum { U_MATRIX, U_OFFSET, U_COUNT };
static const char *const uniforms[U_COUNT] = {"YuvToRgb", "YuvOffset"};
static const char *const samplers[] = {"Luma", "Chroma"};

static uint64_t own_bits(const struct sg_texture_data *t)
{
	(void)t;
	return 0;
}

/* Y'CbCr (as sampled: bytes / 255) to R'G'B': rgb = matrix * (yuv - offset),
 * the range's scale folded into the matrix (column-major, as GL takes it). */
static void set_conversion(const struct sg_gl_program *p, enum sg_yuv_encoding encoding,
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
	glUniformMatrix3fv(p->uniforms[U_MATRIX], 1, GL_FALSE, matrix);
	glUniform3f(p->uniforms[U_OFFSET], full ? 0.0f : 16.0f / 255.0f, 128.0f / 255.0f,
	            128.0f / 255.0f);
}

/* The uniforms are set again for each NV12 texture: textures differ in
 * matrix and range. */
static sg_result bind(const struct sg_gl_program *p, const struct sg_gl_bind2d *b)
{
	GLuint texture;
	sg_result result =
	    sg_gl_cache_texture(b->textures, b->scene, b->index, b->max_texture_size, &texture);
	if (result)
		return result;
	set_conversion(p, b->t->import->encoding, b->t->import->range);
	glActiveTexture(GL_TEXTURE1);
	glBindTexture(GL_TEXTURE_2D, b->textures->objects[b->index].chroma);
	glActiveTexture(GL_TEXTURE0);
	glBindTexture(GL_TEXTURE_2D, texture);
	return SG_OK;
}

const struct sg_gl_material sg_gl_material_nv12 = {
    .name = "NV12",
    .vertex = sg_shader_textured_vert,
    .fragment = sg_shader_nv12_frag,
    .features = SG_GL_FEATURE_CLIP,
    .samples_record = true,
    .uniforms = uniforms,
    .uniform_count = U_COUNT,
    .samplers = samplers,
    .sampler_count = 2,
    .own_bits = own_bits,
    .bind = bind,
};
