/* Internal: the drawn list without the hidden subtrees (sg_node_set_visible). */
#ifndef SG_TRAVERSE_VISIBLE_H
#define SG_TRAVERSE_VISIBLE_H

#include "traverse.h"

/* Points traversal->list at traversal->all, or at all with the ranges of the
 * hidden subtrees cut out, remade only when the visible set or all changed.
 * Fails (naming the model) when a model that is drawn uses a destroyed mesh or
 * texture. traversal->all must be current. */
sg_result sg_traverse_shown(struct sg_traversal *traversal, const struct sg_scene *scene);

#endif
