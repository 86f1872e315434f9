/* A unit cube about the origin for the 3D tests and bench3d: 24 vertices
 * (one normal per face), 36 indices, counter-clockwise fronts outward as
 * glTF has them. */
#ifndef SG_TESTS_CUBE3D_H
#define SG_TESTS_CUBE3D_H

#include <stdint.h>

#include <sg/scene3d.h>

void cube3d_arrays(float positions[72], float normals[72], uint32_t indices[36]);
/* The cube as a 3D mesh of scene (normals given); the zero handle on failure. */
sg_mesh cube3d_mesh(struct sg_scene *scene);

#endif
