/* Internal: batches of the translucent pass that keep the painter's order. */
#ifndef SG_GL_BLEND_ORDER_H
#define SG_GL_BLEND_ORDER_H

#include "drawer.h"

/* Regroups the translucent draws (gl->order from gl->opaque_count on) into
 * batches of one state (texture, and mesh when by_mesh) where that changes no
 * pixel: a draw joins an earlier batch of its state only when no batch after
 * that one covers any of its screen cells. Within a batch draws keep traversal
 * order. Recomputed when the list, its classes, the transforms or the view
 * change; the opaque part of gl->order is left as it is. */
sg_result sg_gl_blend_order(struct sg_gl_drawer *gl, const struct sg_scene *scene,
                            const struct sg_draw_list *list, const struct sg_paint *paint,
                            mat4 view_projection, bool by_mesh);
void sg_gl_blend_order_finish(struct sg_gl_blend *blend);

#endif
