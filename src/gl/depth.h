/* Internal: the painter's depth of each draw, shared by the instanced batches
 * (batch.c, by position in the drawn list) and the expanded ones (expand.c,
 * by position in the drawn list's source): each is increasing in traversal
 * order, and one frame uses one path only (sg_gl_expand_fits). */
#ifndef SG_GL_DEPTH_H
#define SG_GL_DEPTH_H

#include <cglm/cglm.h>
#include <stdbool.h>
#include <stddef.h>

/* Beyond this many draws the per-draw depths would no longer be distinct in a
 * 32-bit float depth buffer: the list is then drawn in its own order. */
#define SG_GL_MAX_REORDER (4u << 20)

/* Draw i of count (in list order) gets a depth in (-1, 1), later draws larger:
 * the depth test is GL_GEQUAL, so that drawing sorted by texture and mesh still
 * shows painter's order, and within one draw (one depth) later triangles win
 * too. When the list is drawn in its own order (reordered false) every draw
 * gets 0 and the order alone decides. Where some vertex's w is not 1 and the
 * depth test decides, the fragment shader writes it as each fragment's depth
 * (gl_FragDepth, through the depth range as the viewport would map it): the
 * rasteriser's own depth, inOrder * w divided by each vertex's w and
 * interpolated, is not one value across a triangle under a perspective
 * camera, and within one draw ties must be exact. */
static inline float sg_gl_draw_depth(bool reordered, size_t i, size_t count)
{
	return reordered ? -1.0f + 2.0f / (float)(count + 1) * (float)(i + 1) : 0.0f;
}


#endif
