/* The three-rects image computed from the rules of shared/scenes/three-rects.md,
 * independently of the renderer, and a comparison that skips rectangle edges. */
#ifndef SG_TESTS_GOLDEN_H
#define SG_TESTS_GOLDEN_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

struct golden_rect {
	float x0, y0, x1, y1;
	uint8_t r, g, b;
};

/* In draw order: the last one covering a pixel wins. Units of a 256 x 256 output. */
static const struct golden_rect golden_rects[3] = {
	{0, 0, 100, 100, 255, 0, 0},
	{5, 5, 55, 55, 0, 255, 0},
	{7.5f, 7.5f, 57.5f, 57.5f, 0, 0, 255},
};

/* True when the pixel centre (cx, cy) is within one pixel of a rectangle edge. */
static inline bool golden_near_edge(float cx, float cy, float scale)
{
	for (int i = 0; i < 3; i++) {
		const struct golden_rect *r = &golden_rects[i];
		float x0 = r->x0 * scale, x1 = r->x1 * scale, y0 = r->y0 * scale, y1 = r->y1 * scale;
		bool in_y = cy >= y0 - 1 && cy <= y1 + 1, in_x = cx >= x0 - 1 && cx <= x1 + 1;
		if ((in_y && (fabsf(cx - x0) <= 1 || fabsf(cx - x1) <= 1)) ||
		    (in_x && (fabsf(cy - y0) <= 1 || fabsf(cy - y1) <= 1)))
			return true;
	}
	return false;
}

/* Where a pixel centre falls exactly on a texel boundary (R1's texels are
 * 1.5625 px wide, so x = 12.5 is texel 8.000), nearest filtering picks either
 * side depending on the last bit of interpolation: llvmpipe picks texel 7 on
 * some rows and 8 on others. The rules cannot decide those ties, so they are
 * not compared; renders are still compared with each other on every pixel. */
static inline bool golden_texel_tie(float t)
{
	float nearest = roundf(t);
	return nearest > 0 && nearest < 64 && fabsf(t - nearest) < 1e-3f;
}

/* Expected RGBA of pixel (x, y) of a size x size render; false for a tie. */
static inline bool golden_pixel(int x, int y, int size, uint8_t out[4])
{
	bool decided = true;
	float scale = (float)size / 256.0f;
	float cx = ((float)x + 0.5f) / scale, cy = ((float)y + 0.5f) / scale;
	out[0] = out[1] = out[2] = 0;
	out[3] = 255;
	for (int i = 0; i < 3; i++) {
		const struct golden_rect *r = &golden_rects[i];
		if (cx < r->x0 || cx >= r->x1 || cy < r->y0 || cy >= r->y1)
			continue;
		/* 64 texels across the quad, 8 texels a cell, top-left cell coloured */
		float u = (cx - r->x0) / (r->x1 - r->x0) * 64.0f;
		float v = (cy - r->y0) / (r->y1 - r->y0) * 64.0f;
		decided = !golden_texel_tie(u) && !golden_texel_tie(v);
		int tx = (int)u, ty = (int)v;
		bool coloured = ((tx / 8) + (ty / 8)) % 2 == 0;
		out[0] = coloured ? r->r : 255;
		out[1] = coloured ? r->g : 255;
		out[2] = coloured ? r->b : 255;
	}
	return decided;
}

/* Counts pixels away from edges (and ties) that differ from the golden image. */
static inline int golden_mismatches(const uint8_t *rgba, int size, int *compared)
{
	int bad = 0;
	*compared = 0;
	float scale = (float)size / 256.0f;
	for (int y = 0; y < size; y++) {
		for (int x = 0; x < size; x++) {
			if (golden_near_edge(((float)x + 0.5f), ((float)y + 0.5f), scale))
				continue;
			uint8_t want[4];
			if (!golden_pixel(x, y, size, want))
				continue;
			(*compared)++;
			if (memcmp(rgba + ((size_t)y * size + x) * 4, want, 4) != 0)
				bad++;
		}
	}
	return bad;
}

#endif
