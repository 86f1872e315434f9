/* The turns and mirrors of enum sg_rotation as 2x2 matrices (rotation.h).
 * SG_ROTATION_90 turns the picture a quarter clockwise: its top-left corner
 * (-1, -1) goes to the panel's top-right (1, -1). */
#include <math.h>

#include "rotation.h"

bool sg_rotation_valid(enum sg_rotation rotation)
{
	return (unsigned)rotation <= SG_ROTATION_FLIPPED_270;
}

bool sg_rotation_swaps(enum sg_rotation rotation)
{
	return ((unsigned)rotation & 1u) != 0;
}

bool sg_rotation_mirrors(enum sg_rotation rotation)
{
	return rotation >= SG_ROTATION_FLIPPED_0;
}

void sg_rotation_matrix(enum sg_rotation rotation, float m[4])
{
	/* The quarter turns clockwise, y down: (x, y) -> (-y, x). */
	static const float turns[4][4] = {
	    {1, 0, 0, 1}, {0, -1, 1, 0}, {-1, 0, 0, -1}, {0, 1, -1, 0}};
	const float *t = turns[(unsigned)rotation & 3u];
	float mirror = sg_rotation_mirrors(rotation) ? -1.0f : 1.0f; /* x -> -x first */
	m[0] = t[0] * mirror, m[1] = t[1];
	m[2] = t[2] * mirror, m[3] = t[3];
}

struct sg_rect sg_rotation_rect(enum sg_rotation rotation, int picture_width, int picture_height,
                                struct sg_rect r)
{
	float m[4];
	sg_rotation_matrix(rotation, m);
	bool swaps = sg_rotation_swaps(rotation);
	float panel_w = (float)(swaps ? picture_height : picture_width);
	float panel_h = (float)(swaps ? picture_width : picture_height);
	float x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
	for (int c = 0; c < 4; c++) {
		float px = (float)(r.x + (c & 1 ? r.width : 0)), py = (float)(r.y + (c & 2 ? r.height : 0));
		float cx = 2.0f * px / (float)picture_width - 1.0f;
		float cy = 2.0f * py / (float)picture_height - 1.0f;
		float x = ((m[0] * cx + m[1] * cy) + 1.0f) * 0.5f * panel_w;
		float y = ((m[2] * cx + m[3] * cy) + 1.0f) * 0.5f * panel_h;
		x0 = fminf(x0, x), x1 = fmaxf(x1, x), y0 = fminf(y0, y), y1 = fmaxf(y1, y);
	}
	/* Whole pixels map to whole pixels; rounding only absorbs float error. */
	int ix0 = (int)lroundf(x0), iy0 = (int)lroundf(y0);
	return (struct sg_rect){ix0, iy0, (int)lroundf(x1) - ix0, (int)lroundf(y1) - iy0};
}

enum sg_rotation sg_rotation_then(enum sg_rotation first, enum sg_rotation second)
{
	float a[4], b[4];
	sg_rotation_matrix(first, a);
	sg_rotation_matrix(second, b);
	const float product[4] = {b[0] * a[0] + b[1] * a[2], b[0] * a[1] + b[1] * a[3],
	                          b[2] * a[0] + b[3] * a[2], b[2] * a[1] + b[3] * a[3]};
	for (unsigned r = SG_ROTATION_0; r <= SG_ROTATION_FLIPPED_270; r++) {
		float m[4];
		sg_rotation_matrix((enum sg_rotation)r, m);
		/* By value: a product may hold -0, which equals the table's 0. */
		if (m[0] == product[0] && m[1] == product[1] && m[2] == product[2] &&
		    m[3] == product[3])
			return (enum sg_rotation)r;
	}
	return SG_ROTATION_0; /* cannot happen: the eight form a group */
}
