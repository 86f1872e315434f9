/* Internal: world-space boxes of subtrees, shared by culling and picking. */
#ifndef SG_TRAVERSE_BOUNDS_H
#define SG_TRAVERSE_BOUNDS_H

#include <cglm/cglm.h>
#include <stdbool.h>

#include <sg/scene.h>

#include "world.h"

/* Brings world, then bounds up to date: box n is the world-space box of n's
 * subtree, empty when it has no model. Reads the scene alone. */
sg_result sg_bounds_update(struct sg_bounds *bounds, struct sg_world *world,
                           const struct sg_scene *scene);
/* An empty box (no model below) has min > max. */
bool sg_box_is_empty(vec3 box[2]);

#endif
