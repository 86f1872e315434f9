/* The 3D materials: plain (a model without a material: its texture and
 * colour), glTF's unlit and its metallic-roughness PBR (docs/3d.md), all of
 * material_solid.* with the defines of their key's own bits. */
#include "material_solid.h"

#include <stdio.h>
#include <string.h>

#include "program.h"

/* The embedded material_solid.* (generated at build time). */
extern const char sg_shader_solid_vert[];
extern const char sg_shader_solid_frag[];

/* The own bits of a key. */
enum {
	KEY_BASE_TEX = 1u << 2,
	KEY_METAL_ROUGH_TEX = 1u << 3,
	KEY_NORMAL_TEX = 1u << 4,
	KEY_OCCLUSION_TEX = 1u << 5,
	KEY_EMISSIVE_TEX = 1u << 6,
	KEY_TANGENTS = 1u << 7,
	KEY_COLORS = 1u << 8,
	KEY_UV1 = 1u << 9,
	KEY_UV0 = 1u << 10,
	KEY_ALPHA_MASK = 1u << 11,
	KEY_ALPHA_BLEND = 1u << 12,
	KEY_FADED = 1u << 13,
	KEY_LIGHT_SHIFT = 14, /* 4 bits of count, then 2 bits of kind per light */
};

/* The material texture units, as material_solid.frag's samplers. */
enum { UNIT_BASE, UNIT_METAL_ROUGH, UNIT_NORMAL, UNIT_OCCLUSION, UNIT_EMISSIVE, UNITS };
static const char *const samplers[UNITS] = {"BaseTex", "MetalRoughTex", "NormalTex", "OcclusionTex",
                                            "EmissiveTex"};

enum {
	U_VIEW_PROJECTION,
	U_TEX_SET,
	U_EMISSIVE_SET,
	U_BASE_COLOR,
	U_ALPHA_CUTOFF,
	U_PREMULTIPLIED,
	U_METALLIC,
	U_ROUGHNESS,
	U_NORMAL_SCALE,
	U_OCCLUSION_STRENGTH,
	U_EMISSIVE,
	U_EYE,
	U_FORWARD,
	U_ORTHOGRAPHIC,
	U_AMBIENT,
	U_LIGHT_POSITION,
	U_LIGHT_DIRECTION,
	U_LIGHT_RADIANCE,
	U_LIGHT_RANGE,
	U_LIGHT_INNER,
	U_LIGHT_OUTER,
	U_COUNT
};
static const char *const uniforms[U_COUNT] = {
    "ViewProjection",    "TexSet",         "EmissiveSet",
    "BaseColor",         "AlphaCutoff",    "Premultiplied",
    "Metallic",          "Roughness",      "NormalScale",
    "OcclusionStrength", "Emissive",       "Eye",
    "Forward",           "Orthographic",   "Ambient",
    "LightPosition",     "LightDirection", "LightRadiance",
    "LightRange",        "LightInnerCos",  "LightOuterCos",
};

static void append(char *out, size_t size, const char *text)
{
	size_t at = strlen(out);
	snprintf(out + at, size - at, "%s", text);
}

static void defines(uint64_t key, char *out, size_t size)
{
	static const struct {
		uint64_t bit;
		const char *line;
	} flags[] = {{KEY_BASE_TEX, "#define BASE_TEX 1\n"},
	             {KEY_METAL_ROUGH_TEX, "#define METAL_ROUGH_TEX 1\n"},
	             {KEY_NORMAL_TEX, "#define NORMAL_TEX 1\n"},
	             {KEY_OCCLUSION_TEX, "#define OCCLUSION_TEX 1\n"},
	             {KEY_EMISSIVE_TEX, "#define EMISSIVE_TEX 1\n"},
	             {KEY_TANGENTS, "#define TANGENTS 1\n"},
	             {KEY_COLORS, "#define COLORS 1\n"},
	             {KEY_UV1, "#define UV1 1\n"},
	             {KEY_UV0, "#define UV0 1\n"},
	             {KEY_ALPHA_MASK, "#define ALPHA_MASK 1\n"},
	             {KEY_ALPHA_BLEND, "#define ALPHA_BLEND 1\n"},
	             {KEY_FADED, "#define FADED 1\n"}};
	out[0] = '\0';
	enum sg_gl_material_kind kind = sg_gl_key_kind(key);
	if (kind == SG_GL_MATERIAL_PLAIN)
		append(out, size, "#define PLAIN 1\n");
	if (kind == SG_GL_MATERIAL_UNLIT)
		append(out, size, "#define UNLIT 1\n");
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if (key & flags[i].bit)
			append(out, size, flags[i].line);
	unsigned count = (unsigned)(key >> KEY_LIGHT_SHIFT) & 15u;
	char line[96];
	snprintf(line, sizeof(line), "#define LIGHT_COUNT %u\n#define LIGHT_KINDS ", count);
	append(out, size, line);
	for (unsigned i = 0; i < count; i++) {
		snprintf(line, sizeof(line), "%s%u", i ? ", " : "",
		         (unsigned)(key >> (KEY_LIGHT_SHIFT + 4 + 2 * i)) & 3u);
		append(out, size, line);
	}
	append(out, size, count ? "\n" : "0\n");
}

uint64_t sg_gl_solid_key(const struct sg_scene *scene, const struct sg_view3d_frame *v,
                         const struct sg_draw3d *d)
{
	if (d->material == SG_DRAW3D_NO_MATERIAL)
		return sg_gl_key(SG_GL_MATERIAL_PLAIN, 0, 0);
	const struct sg_material_desc *m = sg_scene_material_slot(scene, d->material);
	const struct sg_mesh_solid *solid = sg_scene_mesh_slot(scene, d->mesh)->solid;
	const struct sg_material_texture *t[UNITS] = {
	    &m->base_color_texture, &m->metallic_roughness_texture, &m->normal_texture,
	    &m->occlusion_texture, &m->emissive_texture};
	uint64_t key = 0;
	for (int u = 0; u < UNITS; u++) {
		if (!t[u]->texture.generation || (m->unlit && u != UNIT_BASE))
			continue;
		key |= (uint64_t)KEY_BASE_TEX << u | KEY_UV0;
		if (t[u]->uv_set == 1)
			key |= KEY_UV1;
	}
	if (m->alpha_mode == SG_ALPHA_MASK)
		key |= KEY_ALPHA_MASK;
	if (m->alpha_mode == SG_ALPHA_BLEND)
		key |= KEY_ALPHA_BLEND;
	if (d->faded)
		key |= KEY_FADED;
	if (solid && solid->color)
		key |= KEY_COLORS;
	if (!m->unlit && solid && solid->tangent && (key & KEY_NORMAL_TEX))
		key |= KEY_TANGENTS;
	if (!m->unlit) {
		key |= (uint64_t)v->light_count << KEY_LIGHT_SHIFT;
		for (int i = 0; i < v->light_count; i++)
			key |= (uint64_t)v->lights[i].type << (KEY_LIGHT_SHIFT + 4 + 2 * i);
	}
	return sg_gl_key(m->unlit ? SG_GL_MATERIAL_UNLIT : SG_GL_MATERIAL_LIT, 0, key);
}

void sg_gl_solid_set_view(const struct sg_gl_program *p, const struct sg_view3d_frame *v)
{
	const GLint *u = p->uniforms;
	glUniformMatrix4fv(u[U_VIEW_PROJECTION], 1, GL_FALSE, (const float *)v->view_projection);
	if (sg_gl_key_kind(p->key) != SG_GL_MATERIAL_LIT)
		return; /* plain and unlit have no lights (a uniform a program does not
		         * use has location -1, which GL ignores) */
	glUniform3fv(u[U_EYE], 1, v->eye);
	glUniform3fv(u[U_FORWARD], 1, v->forward);
	glUniform1i(u[U_ORTHOGRAPHIC], v->orthographic);
	glUniform3fv(u[U_AMBIENT], 1, v->ambient);
	float position[SG_VIEW3D_MAX_LIGHTS][3], direction[SG_VIEW3D_MAX_LIGHTS][3],
	    radiance[SG_VIEW3D_MAX_LIGHTS][3], range[SG_VIEW3D_MAX_LIGHTS],
	    inner[SG_VIEW3D_MAX_LIGHTS], outer[SG_VIEW3D_MAX_LIGHTS];
	int count = v->light_count;
	for (int i = 0; i < count; i++) {
		const struct sg_light3d *l = &v->lights[i];
		memcpy(position[i], l->position, sizeof(position[i]));
		memcpy(direction[i], l->direction, sizeof(direction[i]));
		memcpy(radiance[i], l->radiance, sizeof(radiance[i]));
		range[i] = l->range;
		inner[i] = l->inner_cos;
		outer[i] = l->outer_cos;
	}
	if (!count)
		return;
	glUniform3fv(u[U_LIGHT_POSITION], count, &position[0][0]);
	glUniform3fv(u[U_LIGHT_DIRECTION], count, &direction[0][0]);
	glUniform3fv(u[U_LIGHT_RADIANCE], count, &radiance[0][0]);
	glUniform1fv(u[U_LIGHT_RANGE], count, range);
	glUniform1fv(u[U_LIGHT_INNER], count, inner);
	glUniform1fv(u[U_LIGHT_OUTER], count, outer);
}

static int set_of(const struct sg_material_texture *t)
{
	return t->texture.generation ? (int)t->uv_set : -1;
}

/* 1 where t's texels are premultiplied as bound (an imported dma-buf), else 0. */
static float premultiplied(const struct sg_scene *scene, const struct sg_material_texture *t)
{
	return t->texture.generation && sg_scene_texture_slot(scene, t->texture.index)->import
	           ? 1.0f
	           : 0.0f;
}

void sg_gl_solid_set_material(const struct sg_gl_program *p, const struct sg_scene *scene,
                              const struct sg_material_desc *m)
{
	const GLint *u = p->uniforms;
	if (!m) {
		glUniform4i(u[U_TEX_SET], -1, -1, -1, -1);
		return;
	}
	glUniform4fv(u[U_BASE_COLOR], 1, m->base_color);
	glUniform1f(u[U_ALPHA_CUTOFF], m->alpha_cutoff);
	glUniform4i(u[U_TEX_SET], set_of(&m->base_color_texture),
	            set_of(&m->metallic_roughness_texture), set_of(&m->normal_texture),
	            set_of(&m->occlusion_texture));
	glUniform1i(u[U_EMISSIVE_SET], set_of(&m->emissive_texture));
	if (!m->unlit) {
		glUniform1f(u[U_METALLIC], m->metallic);
		glUniform1f(u[U_ROUGHNESS], m->roughness);
		glUniform1f(u[U_NORMAL_SCALE], m->normal_scale);
		glUniform1f(u[U_OCCLUSION_STRENGTH], m->occlusion_strength);
		glUniform3fv(u[U_EMISSIVE], 1, m->emissive);
	}
	/* a dma-buf's texels stay premultiplied: the shader divides them */
	glUniform2f(u[U_PREMULTIPLIED], premultiplied(scene, &m->base_color_texture),
	            premultiplied(scene, &m->emissive_texture));
}

#define SOLID(kind_name)                                                                           \
	{                                                                                          \
		.name = kind_name, .vertex = sg_shader_solid_vert,                                 \
		.fragment = sg_shader_solid_frag, .defines = defines, .uniforms = uniforms,        \
		.uniform_count = U_COUNT, .samplers = samplers, .sampler_count = UNITS,            \
	}
const struct sg_gl_material sg_gl_material_plain = SOLID("plain 3D");
const struct sg_gl_material sg_gl_material_unlit = SOLID("unlit 3D");
const struct sg_gl_material sg_gl_material_lit = SOLID("lit 3D");
