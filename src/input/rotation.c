/* sg_rotation_point: where a point of the panel lies in the turned picture.
 * Shared by the input layer (touchscreens, absolute pointers) and, through
 * the public header, by applications that map their own device points. */
#include <stddef.h>

#include <sg/input.h>

#include "../base/error.h"

sg_result sg_rotation_point(enum sg_rotation rotation, int width, int height, double u, double v,
                            double *x, double *y)
{
	if (!x || !y || width < 1 || height < 1 || (unsigned)rotation > SG_ROTATION_FLIPPED_270)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "sg_rotation_point: needs x and y, a size of at least 1x1 and a "
		               "rotation of enum sg_rotation (got %dx%d, rotation %d)",
		               width, height, (int)rotation);
	/* (s, t): the point in the picture, normalised. Turning the picture a
	 * quarter turn clockwise sends its (s, t) to the panel's (1 - t, s);
	 * each case is the inverse of its turn. */
	double s, t;
	switch ((unsigned)rotation & 3u) {
	case SG_ROTATION_0: s = u, t = v; break;
	case SG_ROTATION_90: s = v, t = 1.0 - u; break;
	case SG_ROTATION_180: s = 1.0 - u, t = 1.0 - v; break;
	default: s = 1.0 - v, t = u; break; /* 270 */
	}
	if (rotation >= SG_ROTATION_FLIPPED_0)
		s = 1.0 - s; /* the mirror came first, so it is undone last */
	*x = s * width;
	*y = t * height;
	return SG_OK;
}
