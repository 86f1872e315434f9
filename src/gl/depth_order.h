/* Internal: whether a frame's opaque pass needs the depth test at all. */
#ifndef SG_GL_DEPTH_ORDER_H
#define SG_GL_DEPTH_ORDER_H

#include "drawer.h"

/* Sets depth->needed: whether drawing order (sorted by texture and
 * mesh) needs the per-draw depths to show painter's order. Not when every
 * draw is opaque and no two draws that overlap on screen (by a coarse grid
 * of their boxes) are drawn out of list order; then a frame clears no depth
 * buffer and compares nothing. Always when a draw is translucent (the
 * translucent pass is tested against the opaque depths), when the list is
 * streamed (drawn in bins, not in order) or longer than a check is worth;
 * a list of more than a draw per 256 of the output's pixels is checked only
 * while its transforms and view stay as they were the frame before. The
 * answer is kept until the order, the transforms or the view change. */
sg_result sg_gl_depth_order(struct sg_gl_depth *depth, const struct sg_gl_order *order,
                            const struct sg_gl_input *in, bool streamed, size_t pixels);
void sg_gl_depth_finish(struct sg_gl_depth *depth);

#endif
