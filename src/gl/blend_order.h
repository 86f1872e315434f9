/* Internal: batches of the translucent pass that keep the painter's order. */
#ifndef SG_GL_BLEND_ORDER_H
#define SG_GL_BLEND_ORDER_H

#include "drawer.h"

/* Regroups the translucent draws (order from its opaque_count on) into
 * batches of one state (texture, and mesh when by_mesh) where that changes no
 * pixel: a draw joins an earlier batch of its state only when no batch after
 * that one covers any of its screen cells. Within a batch draws keep traversal
 * order. Recomputed when the order, the transforms or the view change; the
 * opaque part of the order is left as it is. */
sg_result sg_gl_blend_order(struct sg_gl_blend *blend, struct sg_gl_order *order,
                            const struct sg_gl_input *in, bool by_mesh);
void sg_gl_blend_order_finish(struct sg_gl_blend *blend);

#endif
