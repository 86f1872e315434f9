/* Internal: world matrices, kept current by the walk (traverse.h). */
#ifndef SG_TRAVERSE_WORLD_H
#define SG_TRAVERSE_WORLD_H

#include <stddef.h>

#include <sg/scene.h>

/* Brings every world matrix of the scene up to date: only dirty subtrees after
 * local edits, the whole tree after a structural edit. Returns the number of
 * matrices recomputed. */
size_t sg_traverse_update_world(struct sg_scene *scene);

#endif
