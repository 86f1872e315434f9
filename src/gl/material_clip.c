/* The frame's clips as a table of texels. Every draw has a depth of its own
 * (depth.h) that grows along the list, and a clip holds a run of the list,
 * so a clip is a range of depths: the vertex shader finds a draw's clip from
 * its depth, and no batch is split or vertex widened for clipping. Scissors
 * would cut axis-aligned clips only and split the batches that mix clips;
 * one test for every clip keeps the batching as it is. */
#include "material_clip.h"

#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "check.h"
#include "depth.h"

/* The embedded material_clip.glsl, with SG_CLIP defined first (generated at
 * build time). */
extern const char sg_shader_clip_glsl[];

#define FLOATS_PER_CLIP 16 /* 4 RGBA texels */

void sg_gl_clip_finish(struct sg_gl_clip *clip)
{
	if (clip->table)
		glDeleteTextures(1, &clip->table);
	sg_free(clip->rows);
	sg_free(clip->kept);
	*clip = (struct sg_gl_clip){0};
}

/* The first position of list at or after source position p (list's
 * entries are in source order). */
static size_t first_at(const struct sg_draw_list *list, uint32_t p)
{
	if (!list->source)
		return p < list->count ? p : list->count;
	size_t lo = 0, hi = list->count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (list->origin[mid] < p)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

sg_result sg_gl_clip_prepare(struct sg_gl_clip *clip, const struct sg_clips *clips,
                             const struct sg_draw_list *list, bool reordered, bool instanced,
                             bool *clipping)
{
	*clipping = false;
	if (!clips || !clips->count || !list->count)
		return SG_OK;
	if (!sg_grow_array((void **)&clip->kept, &clip->kept_capacity, clips->count,
	                   sizeof(*clip->kept)) ||
	    !sg_grow_array((void **)&clip->rows, &clip->row_capacity,
	                   clips->count * FLOATS_PER_CLIP, sizeof(*clip->rows)))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory for the table of %zu clips",
		               clips->count);
	size_t depth_count = instanced ? list->count : sg_draw_source(list)->count;
	int32_t rows = 0;
	for (size_t c = 0; c < clips->count; c++) {
		const struct sg_clip_entry *e = &clips->entries[c];
		size_t first = first_at(list, e->first), end = first_at(list, e->last + 1);
		clip->kept[c] = -1;
		if (first >= end)
			continue; /* none of its draws drawn; nor any of the clips inside it */
		if (!reordered || depth_count > SG_GL_MAX_REORDER)
			return sg_fail(SG_ERR_LIMIT,
			               "a frame of %zu draws cannot be clipped: its draws' depths "
			               "are no longer distinct past %u",
			               depth_count, SG_GL_MAX_REORDER);
		size_t lo = instanced ? first : sg_draw_origin(list, first);
		size_t hi = instanced ? end - 1 : sg_draw_origin(list, end - 1);
		float *row = clip->rows + (size_t)rows * FLOATS_PER_CLIP;
		const float *m = e->shape.to_local;
		/* the parent holds every draw this one does: it has a row already */
		float parent = e->parent >= 0 ? (float)clip->kept[e->parent] : -1.0f;
		const float texels[FLOATS_PER_CLIP] = {
		    sg_gl_draw_depth(true, lo, depth_count), sg_gl_draw_depth(true, hi, depth_count),
		    parent, e->shape.radius,
		    m[0], m[1], m[2], e->shape.half[0],
		    m[3], m[4], m[5], e->shape.half[1],
		    m[6], m[7], m[8], 0.0f};
		memcpy(row, texels, sizeof(texels));
		clip->kept[c] = rows++;
	}
	if (!rows)
		return SG_OK;
	GLint most = 2048; /* what every GLES 3 takes: asked only past it */
	if (rows > most / 2)
		glGetIntegerv(GL_MAX_TEXTURE_SIZE, &most);
	if (rows > most / 2) /* its height, a power of two, must fit */
		return sg_fail(SG_ERR_LIMIT, "%d clips hold draws of this frame; the GL takes %d",
		               (int)rows, (int)most);
	/* The texture keeps its storage while the clips fit (a power of two of
	 * rows): the rows past this frame's hold depths beyond every draw's,
	 * which the shaders' search passes over. */
	size_t height = clip->table_rows;
	if ((size_t)rows > height || !clip->table)
		for (height = 16; height < (size_t)rows; height *= 2)
			;
	if (!sg_grow_array((void **)&clip->rows, &clip->row_capacity, height * FLOATS_PER_CLIP,
	                   sizeof(*clip->rows)))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory for the table of %zu clips", height);
	static const float unused[FLOATS_PER_CLIP] = {3.0f, 3.0f, -1.0f};
	for (size_t r = (size_t)rows; r < height; r++)
		memcpy(clip->rows + r * FLOATS_PER_CLIP, unused, sizeof(unused));
	glActiveTexture(GL_TEXTURE0 + SG_GL_CLIP_UNIT);
	if (!clip->table) {
		glGenTextures(1, &clip->table);
		glBindTexture(GL_TEXTURE_2D, clip->table);
		/* float textures are not filterable: nearest, or incomplete */
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	}
	glBindTexture(GL_TEXTURE_2D, clip->table);
	if (height != clip->table_rows) {
		glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, 4, (GLsizei)height, 0, GL_RGBA, GL_FLOAT,
		             clip->rows);
		clip->table_rows = height;
	} else {
		glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, (GLsizei)height, GL_RGBA, GL_FLOAT,
		                clip->rows);
	}
	glActiveTexture(GL_TEXTURE0);
	sg_result result = sg_gl_check("uploading the table of clips");
	if (result)
		return result;
	*clipping = true;
	return SG_OK;
}

const char *sg_gl_clip_source(void)
{
	return sg_shader_clip_glsl;
}

void sg_gl_clip_locate(GLuint program)
{
	glUniform1i(glGetUniformLocation(program, "ClipTable"), SG_GL_CLIP_UNIT);
}
