/* The rotation tests' expected moves (rotation_moves.h). */
#include <stdlib.h>

#include "rotation_moves.h"

void rotation_move(enum sg_rotation rotation, int w, int h, int x, int y, int *px, int *py)
{
	switch (rotation) {
	case SG_ROTATION_0: *px = x, *py = y; break;
	case SG_ROTATION_90: *px = h - 1 - y, *py = x; break; /* top edge to the right edge */
	case SG_ROTATION_180: *px = w - 1 - x, *py = h - 1 - y; break;
	case SG_ROTATION_270: *px = y, *py = w - 1 - x; break; /* top edge to the left edge */
	case SG_ROTATION_FLIPPED_0: *px = w - 1 - x, *py = y; break;
	/* mirrored (x to w - 1 - x), then each turn as above */
	case SG_ROTATION_FLIPPED_90: *px = h - 1 - y, *py = w - 1 - x; break;
	case SG_ROTATION_FLIPPED_180: *px = x, *py = h - 1 - y; break;
	default: *px = y, *py = x; break; /* FLIPPED_270 */
	}
}

int rotation_count_differing(enum sg_rotation rotation, const uint8_t *picture, int w, int h,
                             const uint8_t *panel, int tolerance, int *first_x, int *first_y)
{
	int panel_w = (rotation & 1) ? h : w; /* the quarter turns are the odd ones */
	int differ = 0;
	*first_x = *first_y = -1;
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			int px, py;
			rotation_move(rotation, w, h, x, y, &px, &py);
			const uint8_t *e = picture + ((size_t)y * w + x) * 4;
			const uint8_t *g = panel + ((size_t)py * panel_w + px) * 4;
			for (int c = 0; c < 4; c++)
				if (abs(e[c] - g[c]) > tolerance) {
					if (!differ++)
						*first_x = x, *first_y = y;
					break;
				}
		}
	return differ;
}
