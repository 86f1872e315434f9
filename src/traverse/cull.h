/* Internal: frustum culling with world-space bounding boxes of subtrees. */
#ifndef SG_TRAVERSE_CULL_H
#define SG_TRAVERSE_CULL_H

#include "traverse.h"

/* Fills traversal->visible with the models whose bounds are in view, walking
 * only into subtrees whose bounds are. World matrices must be current. */
sg_result sg_cull(struct sg_traversal *traversal, const struct sg_scene *scene,
                  const mat4 view_projection);
/* Whether box (min, max; empty: yes) lies wholly outside one plane of the
 * clip volume of view_projection. */
bool sg_cull_box_outside(const mat4 view_projection, vec3 box[2]);

#endif
