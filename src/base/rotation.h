/* Internal: the map of each enum sg_rotation (sg/types.h), one table for the
 * renderer (a rotated output's frames), the 3D views' rectangles and the
 * input layer's points. */
#ifndef SG_BASE_ROTATION_H
#define SG_BASE_ROTATION_H

#include <stdbool.h>

#include <sg/types.h>

/* Whether rotation is one of enum sg_rotation. */
bool sg_rotation_valid(enum sg_rotation rotation);
/* Whether it turns a quarter (the picture's width runs along the panel's height). */
bool sg_rotation_swaps(enum sg_rotation rotation);
/* Whether it mirrors (a negative determinant: triangles' windings reverse). */
bool sg_rotation_mirrors(enum sg_rotation rotation);

/* The 2x2 matrix m (row-major: x' = m[0] x + m[1] y, y' = m[2] x + m[3] y)
 * taking a point of the picture to the panel, both centred on their middle
 * and normalised to [-1, 1], x right and y down. Its inverse is its
 * transpose. */
void sg_rotation_matrix(enum sg_rotation rotation, float m[4]);

/* The one rotation that is first, then second (a user's turn on top of a
 * panel's mounting). */
enum sg_rotation sg_rotation_then(enum sg_rotation first, enum sg_rotation second);

/* The rectangle r of a picture_width x picture_height picture on the panel
 * (its size swapped for a quarter turn), as whole pixels. */
struct sg_rect sg_rotation_rect(enum sg_rotation rotation, int picture_width, int picture_height,
                                struct sg_rect r);

#endif
