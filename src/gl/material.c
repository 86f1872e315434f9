/* The kinds' table and the one program cache of every draw (material.h). */
#include "material.h"

#include <stdio.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../graph/dmabuf.h"
#include "check.h"
#include "material_clip.h"
#include "program.h"

const struct sg_gl_material *const sg_gl_materials[SG_GL_MATERIAL_KINDS] = {
    [SG_GL_MATERIAL_TEXTURED] = &sg_gl_material_textured,
    [SG_GL_MATERIAL_NV12] = &sg_gl_material_nv12,
    [SG_GL_MATERIAL_SHAPE] = &sg_gl_material_shape,
    [SG_GL_MATERIAL_PLAIN] = &sg_gl_material_plain,
    [SG_GL_MATERIAL_UNLIT] = &sg_gl_material_unlit,
    [SG_GL_MATERIAL_LIT] = &sg_gl_material_lit,
};

enum sg_gl_material_kind sg_gl_material_kind_of(const struct sg_texture_data *t)
{
	if (t && t->shape)
		return SG_GL_MATERIAL_SHAPE;
	if (t && t->import && t->import->fourcc == SG_FOURCC_NV12)
		return SG_GL_MATERIAL_NV12;
	return SG_GL_MATERIAL_TEXTURED;
}

static void delete_program(struct sg_gl_program *p)
{
	if (p->name)
		glDeleteProgram(p->name);
	*p = (struct sg_gl_program){0};
}

void sg_gl_programs_finish(struct sg_gl_programs_cache *cache)
{
	for (size_t i = 0; i < cache->count; i++)
		delete_program(&cache->programs[i]);
	*cache = (struct sg_gl_programs_cache){0};
}

/* The defines of key: the features', then the kind's own. The clip code
 * comes before the kind's defines: after its precision lines, before the
 * shader's own. Returns NULL without memory. */
static char *defines_of(const struct sg_gl_material *kind, uint64_t key)
{
	char own[640] = "";
	if (kind->defines)
		kind->defines(key, own, sizeof(own));
	const char *clip = key & SG_GL_FEATURE_CLIP ? sg_gl_clip_source() : "";
	size_t length = 64 + strlen(clip) + strlen(own);
	char *all = sg_malloc(length);
	if (!all)
		return NULL;
	snprintf(all, length, "%s%s%s%s",
	         key & SG_GL_FEATURE_CLIP ? "#define SG_CLIP 1\n" : "", clip,
	         key & SG_GL_FEATURE_ALL_WHITE ? "#define ALL_WHITE 1\n" : "", own);
	return all;
}

static sg_result build(struct sg_gl_program *p, uint64_t key)
{
	const struct sg_gl_material *kind = sg_gl_materials[sg_gl_key_kind(key)];
	char *defines = defines_of(kind, key);
	if (!defines)
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory for a program's source");
	sg_result result =
	    sg_gl_program_build_defined(kind->vertex, kind->fragment, defines, &p->name);
	sg_free(defines);
	if (result) {
		p->name = 0;
		return sg_fail_prefix(result, "building the embedded %s program%s: ", kind->name,
		                      key & SG_GL_FEATURE_CLIP ? " (its clipping variant)" : "");
	}
	p->key = key;
	p->view_set = false;
	glUseProgram(p->name);
	for (int i = 0; i < kind->uniform_count; i++)
		p->uniforms[i] = glGetUniformLocation(p->name, kind->uniforms[i]);
	for (int u = 0; u < kind->sampler_count; u++)
		glUniform1i(glGetUniformLocation(p->name, kind->samplers[u]), u);
	if (key & SG_GL_FEATURE_CLIP)
		sg_gl_clip_locate(p->name);
	return sg_gl_check("setting up a program");
}

sg_result sg_gl_program_of(struct sg_gl_programs_cache *cache, uint64_t key,
                           struct sg_gl_program **program)
{
	struct sg_gl_program *last = &cache->programs[cache->last];
	if (last->name && last->key == key) {
		*program = last;
		return SG_OK;
	}
	for (size_t i = 0; i < cache->count; i++)
		if (cache->programs[i].name && cache->programs[i].key == key) {
			cache->last = i;
			*program = &cache->programs[i];
			return SG_OK;
		}
	size_t i;
	if (cache->count < SG_GL_PROGRAMS) {
		i = cache->count++;
	} else { /* more keys than kept: the oldest goes */
		i = cache->next_evicted;
		cache->next_evicted = (cache->next_evicted + 1) % SG_GL_PROGRAMS;
		delete_program(&cache->programs[i]);
	}
	sg_result result = build(&cache->programs[i], key);
	if (result) {
		delete_program(&cache->programs[i]);
		return result;
	}
	cache->builds++;
	cache->last = i;
	*program = &cache->programs[i];
	return SG_OK;
}
