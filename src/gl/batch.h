/* Internal: batches of draws that share a texture and a mesh. */
#ifndef SG_GL_BATCH_H
#define SG_GL_BATCH_H

#include "drawer.h"

/* Puts list's opaque draws first in gl->order, sorted by (texture, mesh,
 * traversal order), then its translucent ones in traversal order; once per
 * list serial and paint classes. */
sg_result sg_gl_batch_order(struct sg_gl_drawer *gl, const struct sg_scene *scene,
                            const struct sg_draw_list *list, const struct sg_paint *paint);
/* A draw's place in the order sg_gl_sort_draws sorts by: its texture (no
 * texture last), then its mesh. */
static inline uint64_t sg_gl_sort_rank(const struct sg_draw *d)
{
	uint64_t texture = d->texture == SG_DRAW_NO_TEXTURE ? UINT32_MAX : d->texture;
	return texture << 32 | d->mesh;
}
/* Sorts order[0, count), indices into draws, by (sg_gl_sort_rank, their order
 * on entry), with gl's scratch arrays: the order batches are drawn in. */
sg_result sg_gl_sort_draws(struct sg_gl_drawer *gl, const struct sg_scene *scene,
                           const struct sg_draw *draws, uint32_t *order, size_t count);
/* Fills and uploads the per-instance data in gl->order, unless nothing changed. */
sg_result sg_gl_batch_instances(struct sg_gl_drawer *gl, const struct sg_scene *scene,
                                const struct sg_draw_list *list, const struct sg_paint *paint,
                                mat4 view_projection);
/* Points the bound vertex array's instance attributes at instance first. */
void sg_gl_batch_point_instances(const struct sg_gl_drawer *gl, size_t first);

#endif
