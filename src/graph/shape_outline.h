/* Internal: a shape texture's record (sg/shape.h) and its outline, for the
 * renderer's uniforms and for picking. */
#ifndef SG_GRAPH_SHAPE_OUTLINE_H
#define SG_GRAPH_SHAPE_OUTLINE_H

#include <sg/shape.h>

/* The signed distance (negative inside, in the box's units) from the point
 * at texture coordinates (u, v) to the outline of shape, the rounded box,
 * its radii clamped as sg/shape.h says. */
float sg_shape_distance(const struct sg_shape_desc *shape, float u, float v);

/* The radii as drawn: each clamped to half the shorter side of the box. */
void sg_shape_radii(const struct sg_shape_desc *shape, float radii[4]);

#endif
