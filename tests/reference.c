#include "reference.h"

#include <math.h>
#include <stdlib.h>

static uint8_t to_byte(float unit)
{
	long byte = lroundf(unit * 255.0f);
	return (uint8_t)(byte < 0 ? 0 : byte > 255 ? 255 : byte);
}

void ref_clear(struct ref_image *image, const float clear[4])
{
	/* The clear colour is straight; the buffer holds it premultiplied. */
	const uint8_t pixel[4] = {to_byte(clear[0] * clear[3]), to_byte(clear[1] * clear[3]),
	                          to_byte(clear[2] * clear[3]), to_byte(clear[3])};
	for (size_t i = 0; i < (size_t)image->width * (size_t)image->height; i++)
		for (int c = 0; c < 4; c++)
			image->rgba[i * 4 + c] = pixel[c];
}

/* The texel of quad under output pixel (px, py), premultiplied as uploaded. */
static void texel(const struct ref_quad *quad, int px, int py, uint8_t out[4])
{
	const struct ref_texture *t = quad->texture;
	if (!t) { /* the colour alone: as a white texel */
		out[0] = out[1] = out[2] = out[3] = 255;
		return;
	}
	int tx = (px - quad->x) * t->width / quad->width;
	int ty = (py - quad->y) * t->height / quad->height;
	const uint8_t *s = t->rgba + ((size_t)ty * (size_t)t->width + (size_t)tx) * 4;
	for (int c = 0; c < 3; c++)
		out[c] = (uint8_t)((s[c] * s[3] + 127) / 255);
	out[3] = s[3];
}

void ref_draw(struct ref_image *image, const struct ref_quad *quad)
{
	if (quad->texture)
		/* a rectangle that does not map texels onto whole pixel blocks would
		 * make NEAREST's choice depend on rounding: a mistake in the test */
		if (quad->width % quad->texture->width || quad->height % quad->texture->height)
			abort();
	/* The tint as the renderer sends it: premultiplied bytes. */
	float alpha = quad->color[3] * quad->opacity;
	const uint8_t tint[4] = {(uint8_t)lroundf(quad->color[0] * alpha * 255),
	                         (uint8_t)lroundf(quad->color[1] * alpha * 255),
	                         (uint8_t)lroundf(quad->color[2] * alpha * 255),
	                         (uint8_t)lroundf(alpha * 255)};
	int x0 = quad->x < 0 ? 0 : quad->x, y0 = quad->y < 0 ? 0 : quad->y;
	int x1 = quad->x + quad->width, y1 = quad->y + quad->height;
	if (x1 > image->width)
		x1 = image->width;
	if (y1 > image->height)
		y1 = image->height;
	for (int y = y0; y < y1; y++)
		for (int x = x0; x < x1; x++) {
			uint8_t t[4];
			texel(quad, x, y, t);
			/* The fragment, premultiplied, as the colour buffer's blender
			 * takes it: rounded to bytes (an RGBA8 buffer blends in bytes:
			 * llvmpipe does, and blending the unrounded floats would put a
			 * picture of two translucent layers 2 away from it). */
			uint8_t src[4];
			for (int c = 0; c < 4; c++)
				src[c] = to_byte(t[c] / 255.0f * (tint[c] / 255.0f));
			/* Premultiplied source-over: dst * (1 - src alpha), rounded,
			 * plus src. An opaque draw (src alpha 255) comes out the same
			 * as the overwrite the renderer does for it. */
			size_t at = (size_t)y * (size_t)image->width + (size_t)x;
			uint8_t *d = image->rgba + at * 4;
			for (int c = 0; c < 4; c++) {
				unsigned kept = ((unsigned)d[c] * (255u - src[3]) + 127) / 255;
				unsigned sum = src[c] + kept;
				d[c] = (uint8_t)(sum > 255 ? 255 : sum);
			}
		}
}

void ref_compose(struct ref_image *image, const float clear[4], const struct ref_quad *quads,
                 size_t count)
{
	ref_clear(image, clear);
	for (size_t i = 0; i < count; i++)
		ref_draw(image, &quads[i]);
}

bool ref_compare(const uint8_t *got, const uint8_t *want, int width, int height, int tolerance,
                 struct ref_difference *difference)
{
	*difference = (struct ref_difference){0};
	for (int y = 0; y < height; y++)
		for (int x = 0; x < width; x++) {
			const uint8_t *g = got + ((size_t)y * (size_t)width + (size_t)x) * 4;
			const uint8_t *w = want + ((size_t)y * (size_t)width + (size_t)x) * 4;
			bool differs = false;
			for (int c = 0; c < 4; c++)
				differs |= abs(g[c] - w[c]) > tolerance;
			if (!differs)
				continue;
			if (difference->count++ == 0) {
				difference->x = x;
				difference->y = y;
				for (int c = 0; c < 4; c++) {
					difference->got[c] = g[c];
					difference->want[c] = w[c];
				}
			}
		}
	return difference->count == 0;
}
