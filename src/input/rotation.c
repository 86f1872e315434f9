/* sg_rotation_point: where a point of the panel lies in the turned picture,
 * the inverse of src/base/rotation.c's map (its transpose). Used by the
 * input layer for touchscreens and absolute pointers, and public so that an
 * application can check its own numbers. */
#include <stddef.h>

#include <sg/input.h>

#include "../base/error.h"
#include "../base/rotation.h"

sg_result sg_rotation_point(enum sg_rotation rotation, int width, int height, double u, double v,
                            double *x, double *y)
{
	if (!x || !y || width < 1 || height < 1 || !sg_rotation_valid(rotation))
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "sg_rotation_point: needs x and y, a size of at least 1x1 and a "
		               "rotation of enum sg_rotation (got %dx%d, rotation %d)",
		               width, height, (int)rotation);
	float m[4];
	sg_rotation_matrix(rotation, m);
	double cu = 2.0 * u - 1.0, cv = 2.0 * v - 1.0; /* centred on the panel */
	double s = m[0] * cu + m[2] * cv, t = m[1] * cu + m[3] * cv; /* transposed */
	*x = (s + 1.0) * 0.5 * width;
	*y = (t + 1.0) * 0.5 * height;
	return SG_OK;
}
