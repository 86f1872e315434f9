/* Internal: clip nodes' GL part, the clip test that the 2D materials take as
 * a feature (SG_GL_FEATURE_CLIP, material.h): its shader code
 * (material_clip.glsl) and the frame's clips (src/traverse/clips.h) as a
 * table that code reads. */
#ifndef SG_GL_MATERIAL_CLIP_H
#define SG_GL_MATERIAL_CLIP_H

#include <GLES3/gl3.h>
#include <stdbool.h>

#include "../traverse/clips.h"
#include "../traverse/traverse.h"

/* The texture unit of the table: 0 and 1 are the draws' (NV12 uses both). */
#define SG_GL_CLIP_UNIT 2

struct sg_gl_clip {
	GLuint table; /* RGBA32F, 4 texels a clip (0 until the first clipped frame) */
	size_t table_rows; /* its height */
	float *rows;
	size_t row_capacity;
	int32_t *kept; /* scratch: each clip's row, -1 when it holds no draw drawn */
	size_t kept_capacity;
};

/* Uploads and binds the table of the clips that hold draws of list, drawn
 * with the depths of depth.h: by position in list when instanced, else by
 * position in its source. *clipping: some draw is clipped, and the frame
 * takes the clipping programs. */
sg_result sg_gl_clip_prepare(struct sg_gl_clip *clip, const struct sg_clips *clips,
                             const struct sg_draw_list *list, bool reordered, bool instanced,
                             bool *clipping);
void sg_gl_clip_finish(struct sg_gl_clip *clip);

/* What a program with the clip feature gets after SG_CLIP is defined, before
 * its kind's defines: material_clip.glsl. */
const char *sg_gl_clip_source(void);
/* Points the new program's table sampler at SG_GL_CLIP_UNIT (program in use). */
void sg_gl_clip_locate(GLuint program);

#endif
