/* Internal: batches of draws that share a texture and a mesh. */
#ifndef SG_GL_BATCH_H
#define SG_GL_BATCH_H

#include "gl_renderer.h"

/* Puts list's opaque draws first in gl->order, sorted by (texture, mesh,
 * traversal order), then its translucent ones in traversal order; once per
 * list serial and paint classes. */
sg_result sg_gl_batch_order(struct sg_gl_renderer *gl, const struct sg_scene *scene,
                            const struct sg_draw_list *list, const struct sg_paint *paint);
/* Fills and uploads the per-instance data in gl->order, unless nothing changed. */
sg_result sg_gl_batch_instances(struct sg_gl_renderer *gl, const struct sg_scene *scene,
                                const struct sg_draw_list *list, const struct sg_paint *paint,
                                mat4 view_projection);
/* Points the bound vertex array's instance attributes at instance first. */
void sg_gl_batch_point_instances(const struct sg_gl_renderer *gl, size_t first);

#endif
