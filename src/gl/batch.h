/* Internal: batches of draws that share a texture and a mesh. */
#ifndef SG_GL_BATCH_H
#define SG_GL_BATCH_H

#include "gl_renderer.h"

/* Sorts list into gl->order by (texture, mesh, traversal order), once per list serial. */
sg_result sg_gl_batch_order(struct sg_gl_renderer *gl, const struct sg_draw_list *list);
/* Fills and uploads the per-instance data in gl->order, unless nothing changed. */
sg_result sg_gl_batch_instances(struct sg_gl_renderer *gl, const struct sg_scene *scene,
                                const struct sg_draw_list *list, mat4 view_projection);
/* Points the bound vertex array's instance attributes at instance first. */
void sg_gl_batch_point_instances(const struct sg_gl_renderer *gl, size_t first);

#endif
