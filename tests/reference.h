/* A CPU reference compositor for the appearance tests: axis-aligned,
 * pixel-aligned rectangles drawn in painter's order into an RGBA8 buffer of
 * premultiplied alpha, with the quantization the GL path is specified to use
 * (each texel premultiplied to a byte, the tint rounded to bytes, the fragment
 * rounded to bytes, then premultiplied source-over in bytes). Written from the
 * rules, not from the renderer's code, so that the two can disagree. */
#ifndef SG_TESTS_REFERENCE_H
#define SG_TESTS_REFERENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Texels as the test gave them to sg_texture_create: straight alpha, tight rows. */
struct ref_texture {
	int width, height;
	const uint8_t *rgba;
};

/* One model as it lands on the output. The rectangle's size must be a whole
 * multiple of the texture's, so that NEAREST sampling of each pixel centre
 * picks one texel without ambiguity. */
struct ref_quad {
	int x, y, width, height;           /* output pixels, top-left origin */
	const struct ref_texture *texture; /* NULL: the colour alone */
	float color[4];                    /* straight alpha, as sg_model_set_color */
	float opacity;                     /* product of the opacities from the root down */
};

/* An output image: width * height pixels, tight rows, premultiplied. */
struct ref_image {
	int width, height;
	uint8_t *rgba;
};

/* Fills image with the straight-alpha clear colour, premultiplied. */
void ref_clear(struct ref_image *image, const float clear[4]);
/* Draws quad over image (source-over), clipped to it. */
void ref_draw(struct ref_image *image, const struct ref_quad *quad);
/* ref_clear then every quad in order. */
void ref_compose(struct ref_image *image, const float clear[4], const struct ref_quad *quads,
                 size_t count);

/* The first pixel (in row order) where got and want differ by more than
 * tolerance in some channel. */
struct ref_difference {
	int count; /* pixels that differ by more than the tolerance */
	int x, y;  /* the first of them */
	uint8_t got[4], want[4];
};
bool ref_compare(const uint8_t *got, const uint8_t *want, int width, int height, int tolerance,
                 struct ref_difference *difference);

#endif
