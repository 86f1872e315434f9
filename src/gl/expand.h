/* Internal: batches drawn from one vertex buffer holding every model's
 * vertices with its matrix (see expand.c). */
#ifndef SG_GL_EXPAND_H
#define SG_GL_EXPAND_H

#include "drawer.h"

/* Meshes larger than this are drawn instanced instead. */
#define SG_GL_EXPAND_MAX_VERTICES 64

/* Whether every model of list's source is small enough to expand; computed
 * once per source list, not every frame. */
bool sg_gl_expand_fits(struct sg_gl_expanded *expanded, const struct sg_gl_input *in);
/* Fills and uploads the vertex and index buffers for the input's list in
 * order, and its runs of one texture and pass (sort: scratch for laying out
 * small sources sorted); reuses them while nothing changed. */
sg_result sg_gl_expand(struct sg_gl_expanded *expanded, struct sg_gl_sort *sort,
                       const struct sg_gl_order *order, const struct sg_gl_input *in);
/* Whether the list sg_gl_expand_fits() last looked at is too large to keep
 * expanded: it is then drawn streamed, with sg_gl_expand_chunk. */
bool sg_gl_expand_streams(const struct sg_gl_expanded *expanded);
/* Expands the draws of the list in order from position *k on into a chunk,
 * uploads it to the expanded buffers (left bound, with the vertex array) and
 * makes its runs (first in indices from the chunk's start), moving *k past
 * them. A chunk ends where it is full and where the translucent draws begin,
 * so that each chunk is drawn in one pass. */
sg_result sg_gl_expand_chunk(struct sg_gl_expanded *expanded, const struct sg_gl_order *order,
                             const struct sg_gl_input *in, size_t *k);
/* The opaque draws of list (drawn reordered) in list order, gathered per
 * texture into batches (expand_bins.c): each call that sets *ready uploads
 * one batch to the expanded buffers (left bound) as the one run to draw;
 * call again until *ready stays false. cursor starts zeroed. */
sg_result sg_gl_expand_bin(struct sg_gl_expanded *expanded, const struct sg_gl_input *in,
                           struct sg_gl_bin_cursor *cursor, bool *ready);
void sg_gl_expand_bins_finish(struct sg_gl_expanded *expanded);
void sg_gl_expand_finish(struct sg_gl_expanded *expanded);

#endif
