/* Internal: materials, one program cache for every draw (docs/materials.md).
 * Each draw names a material kind; a kind says which shader sources it
 * runs, which defines its key's bits give them, which uniforms it sets and
 * (for 2D draws) how a texture record of its kind is bound. Programs are
 * built at the first draw of their key and kept, keyed by 64 bits:
 *
 *   bits 56..63  the kind (enum sg_gl_material_kind)
 *   bits 48..55  the frame's features a kind takes (SG_GL_FEATURE_*)
 *   bits  0..47  the kind's own bits (a shape's variant, a 3D material's
 *                textures, alpha mode, attributes and lights)
 *
 * A kind's code lives in one file each: material_textured.c,
 * material_nv12.c, material_shape.c, material_solid.c (the three 3D kinds
 * of material_solid.*); the clip test, a feature of the 2D kinds, in
 * material_clip.c. */
#ifndef SG_GL_MATERIAL_H
#define SG_GL_MATERIAL_H

#include <GLES3/gl3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sg/error.h>

#include "../graph/scene_view.h"
#include "../traverse/traverse.h"
#include "object.h"

enum sg_gl_material_kind {
	SG_GL_MATERIAL_TEXTURED, /* 2D: a texture's texels times the model's colour */
	SG_GL_MATERIAL_NV12,     /* 2D: an imported NV12 buffer, converted to RGB */
	SG_GL_MATERIAL_SHAPE,    /* 2D: a shape texture (sg/shape.h), computed per pixel */
	SG_GL_MATERIAL_PLAIN,    /* 3D: a model without a material, texture and colour */
	SG_GL_MATERIAL_UNLIT,    /* 3D: glTF's KHR_materials_unlit */
	SG_GL_MATERIAL_LIT,      /* 3D: glTF's metallic-roughness PBR */
	SG_GL_MATERIAL_KINDS
};

#define SG_GL_KIND_SHIFT 56
#define SG_GL_FEATURE_SHIFT 48
#define SG_GL_OWN_BITS ((UINT64_C(1) << SG_GL_FEATURE_SHIFT) - 1)

/* The frame's features, as a program key holds them. */
#define SG_GL_FEATURE_CLIP (UINT64_C(1) << 48)       /* the clip test (material_clip.c) */
#define SG_GL_FEATURE_ALL_WHITE (UINT64_C(1) << 50)  /* no colour input (textured.vert) */

static inline uint64_t sg_gl_key(enum sg_gl_material_kind kind, uint64_t features, uint64_t own)
{
	return (uint64_t)kind << SG_GL_KIND_SHIFT | features | (own & SG_GL_OWN_BITS);
}

static inline enum sg_gl_material_kind sg_gl_key_kind(uint64_t key)
{
	return (enum sg_gl_material_kind)(key >> SG_GL_KIND_SHIFT);
}

/* Most uniforms a kind locates (material_solid.c's). */
#define SG_GL_MATERIAL_UNIFORMS 24

/* A built program: its key, its GL name, and the places of its kind's
 * uniforms in the order of the kind's list. */
struct sg_gl_program {
	uint64_t key;
	GLuint name;
	GLint uniforms[SG_GL_MATERIAL_UNIFORMS];
	bool view_set; /* 3D kinds: this view's uniforms are set */
};

/* Programs kept; past this many keys the oldest is built again. */
#define SG_GL_PROGRAMS 64

struct sg_gl_programs_cache {
	struct sg_gl_program programs[SG_GL_PROGRAMS];
	size_t count, next_evicted, last;
	uint64_t builds; /* programs built, for the tests */
};

/* What a 2D draw's texture record needs bound: the record (index, t: NULL
 * and SG_DRAW_NO_TEXTURE for none), where its GL copies are, and the white
 * texture for what samples nothing. */
struct sg_gl_bind2d {
	const struct sg_scene *scene;
	struct sg_gl_cache *textures;
	GLint max_texture_size;
	GLuint white;
	uint32_t index;
	const struct sg_texture_data *t;
};

struct sg_gl_material {
	const char *name; /* in messages */
	const char *vertex, *fragment;
	uint64_t features; /* which of the frame's features its programs take */
	/* 2D kinds: its draws show the texture record's texels (a shape's are
	 * computed instead, its one white texel never sampled) */
	bool samples_record;
	/* Appends the defines of the kind's own bits of key to out (NULL: none). */
	void (*defines)(uint64_t key, char *out, size_t size);
	const char *const *uniforms; /* located after the link, in this order */
	int uniform_count;
	const char *const *samplers; /* sampler i on texture unit i */
	int sampler_count;
	/* 2D kinds: the own bits a draw of texture record t needs, and binds
	 * it for the next draws with program p in use (the active unit 0 after). */
	uint64_t (*own_bits)(const struct sg_texture_data *t);
	sg_result (*bind)(const struct sg_gl_program *p, const struct sg_gl_bind2d *b);
	/* 2D kinds: another texture a draw of t samples (its updates are
	 * uploaded with t's), or SG_DRAW_NO_TEXTURE; NULL: none. */
	uint32_t (*also_samples)(const struct sg_texture_data *t);
};

/* The kinds' table (material.c), indexed by enum sg_gl_material_kind. */
extern const struct sg_gl_material *const sg_gl_materials[SG_GL_MATERIAL_KINDS];
extern const struct sg_gl_material sg_gl_material_textured, sg_gl_material_nv12,
    sg_gl_material_shape, sg_gl_material_plain, sg_gl_material_unlit, sg_gl_material_lit;

/* The 2D kind that draws texture record t (NULL: a draw without a texture). */
enum sg_gl_material_kind sg_gl_material_kind_of(const struct sg_texture_data *t);

/* The program of key, built at its first use (then in use); failing that,
 * the driver's log in the message and nothing kept. Needs a current context. */
sg_result sg_gl_program_of(struct sg_gl_programs_cache *cache, uint64_t key,
                           struct sg_gl_program **program);
/* Deletes every program built; the context must be current. */
void sg_gl_programs_finish(struct sg_gl_programs_cache *cache);

#endif
