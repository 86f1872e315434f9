/* Internal: batches of draws that share a texture and a mesh. */
#ifndef SG_GL_BATCH_H
#define SG_GL_BATCH_H

#include "drawer.h"

/* Puts the list's opaque draws first in order, sorted by (texture, mesh,
 * traversal order) with sort's scratch, then its translucent ones in
 * traversal order; once per list serial and paint classes. */
sg_result sg_gl_batch_order(struct sg_gl_order *order, struct sg_gl_sort *sort,
                            const struct sg_gl_input *in);
/* A draw's place in the order sg_gl_sort_draws sorts by: its texture (no
 * texture last), then its mesh. */
static inline uint64_t sg_gl_sort_rank(const struct sg_draw *d)
{
	uint64_t texture = d->texture == SG_DRAW_NO_TEXTURE ? UINT32_MAX : d->texture;
	return texture << 32 | d->mesh;
}
/* Sorts order[0, count), indices into draws, by (sg_gl_sort_rank, their order
 * on entry), with sort's scratch: the order batches are drawn in. versions
 * bound the keys (its texture and mesh slots). */
sg_result sg_gl_sort_draws(struct sg_gl_sort *sort, const struct sg_scene_versions *versions,
                           const struct sg_draw *draws, uint32_t *order, size_t count);
/* Fills and uploads the per-instance data of the input's draws in order,
 * unless nothing changed. */
sg_result sg_gl_batch_instances(struct sg_gl_instances *instances, const struct sg_gl_order *order,
                                const struct sg_gl_input *in);
/* Points the bound vertex array's instance attributes at instance first. */
void sg_gl_batch_point_instances(const struct sg_gl_instances *instances, size_t first);
void sg_gl_batch_finish(struct sg_gl_order *order, struct sg_gl_sort *sort,
                        struct sg_gl_instances *instances);

#endif
