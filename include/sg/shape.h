/* libsg: shapes drawn by the shader: rectangles with rounded corners,
 * circles, borders, linear and radial gradients and blurred shadows, with
 * antialiased edges and no texture of pixels per shape.
 *
 * A shape is a texture whose texels the fragment shader computes: give it to
 * a model whose mesh is sg_mesh_create_shape()'s quad for it (one unit per
 * pixel under a pixel camera): the shape's box grown by a margin, so that
 * the antialiased fringe outside the outline, and a shadow's blur, are
 * drawn. A transform scales or turns the shape, and its edges stay
 * antialiased over one output pixel; drawn at less than one pixel per
 * unit, the 1-unit margin cuts part of the fringe. The model's colour and
 * opacity multiply the shape as they do a texture; shapes are always drawn
 * in the blended pass. Picking hits a shape's model only inside its outline.
 * In a 3D view's material, a shape texture samples as white.
 *
 * A pixel's coverage is the area of the pixel square on the inner side of
 * the outline's tangent line nearest its centre, at a square corner the
 * area inside both edges: exact for straight edges and square corners at
 * any angle (a turned rectangle), within 0.02 of the true area on arcs
 * (measured in tests/test_shape.c: at most 0.015, 0.004 on average). */
#ifndef SG_SHAPE_H
#define SG_SHAPE_H

#include <sg/error.h>
#include <sg/export.h>
#include <sg/scene.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SG_SHAPE_MAX_STOPS 8

enum sg_gradient_kind {
	SG_GRADIENT_NONE = 0, /* the fill colour */
	SG_GRADIENT_LINEAR,   /* along the line from start (offset 0) to end (offset 1) */
	SG_GRADIENT_RADIAL,   /* circles about start; offset 1 at the distance of end */
};

struct sg_gradient_stop {
	float offset;   /* in [0, 1], not below the stop before */
	float color[4]; /* straight alpha in [0, 1] */
};

struct sg_shape_desc {
	/* The box (the outline before its corners are rounded), in the shape's
 * own units (> 0). */
	float width, height;
	/* Corner radii, >= 0: top-left, top-right, bottom-right, bottom-left
	 * (y down, as sg_mesh_create_quad's (0, 0) is the top-left corner). Each
	 * is clamped to half the shorter side: width = height with all four at
	 * half of it is a circle. */
	float radii[4];
	float fill[4]; /* straight alpha in [0, 1]; all four 0 is transparent */
	/* A border of this width (>= 0) inside the outline, in border_color; the
	 * inner corners' radii are the outer ones less the width. */
	float border_width;
	float border_color[4];
	/* Instead of fill, a gradient of 2 .. SG_SHAPE_MAX_STOPS stops,
	 * interpolated between premultiplied colours (as CSS does), the first
	 * and last colours held beyond their offsets. */
	enum sg_gradient_kind gradient;
	float gradient_start[2], gradient_end[2]; /* in the box's units */
	struct sg_gradient_stop stops[SG_SHAPE_MAX_STOPS];
	int stop_count;
	/* > 0: a shadow: the outline blurred by a Gaussian of this standard
	 * deviation, filled with fill (no border, no gradient). Give it the box
	 * of the shape it shadows, and offset its model. */
	float blur;
	/* SG_TEXTURE_NONE (all zero), or a texture of the same scene whose
	 * texels, stretched over the box and multiplied by fill, fill the shape
	 * in fill's place: a photo with rounded corners, or an image whose edges
	 * stay antialiased when it is turned (a plain textured quad's are not).
	 * Not a shape, not an imported (dma-buf) texture; not with a gradient or
	 * a blur. Updating the texture damages the shape's models; destroying
	 * it makes rendering them fail, as for a model's own texture. */
	sg_texture image;
};

/* A new shape texture. SG_ERR_INVALID_ARGUMENT names what is wrong: a size
 * outside [0.001, 1e6], a negative radius or border width, a colour
 * component outside [0, 1], an unknown gradient, a stop count outside 2 ..
 * SG_SHAPE_MAX_STOPS or offsets out of order, a gradient whose end is its
 * start, a negative blur, a blur with a border or gradient, or an image that
 * is not a live plain texture of the scene or comes with a gradient or a
 * blur. Returns an
 * invalid (all-zero) handle on failure. */
SG_API sg_texture sg_texture_create_shape_sized(struct sg_scene *scene,
                                                const struct sg_shape_desc *desc, size_t size);
#define sg_texture_create_shape(...)                                                               \
	sg_texture_create_shape_sized(__VA_ARGS__, sizeof(struct sg_shape_desc))
/* The quad to draw a shape of desc on: the box grown by 1 + 3 * blur units
 * on every side (the fringe, and the blur, which fades out within 3 * blur),
 * (0, 0) at the box's top-left corner, y down, texture coordinates 0 and 1
 * at the box's edges. A shape changed to another size or blur needs a new
 * one (else it is drawn stretched or cut). desc is checked as above. */
SG_API sg_mesh sg_mesh_create_shape_sized(struct sg_scene *scene, const struct sg_shape_desc *desc,
                                          size_t size);
#define sg_mesh_create_shape(...)                                                                  \
	sg_mesh_create_shape_sized(__VA_ARGS__, sizeof(struct sg_shape_desc))
/* Changes a shape texture: the models drawing it are damaged as by a
 * texture update. On failure nothing changes. A texture that is not a shape
 * is refused (SG_ERR_INVALID_ARGUMENT), and sg_texture_update refuses a
 * shape. */
SG_API sg_result sg_texture_set_shape_sized(struct sg_scene *scene, sg_texture texture,
                                            const struct sg_shape_desc *desc, size_t size);
#define sg_texture_set_shape(...)                                                                  \
	sg_texture_set_shape_sized(__VA_ARGS__, sizeof(struct sg_shape_desc))
/* The shape of a shape texture into *desc (as given, unclamped). */
SG_API sg_result sg_texture_get_shape_sized(const struct sg_scene *scene, sg_texture texture,
                                            struct sg_shape_desc *desc, size_t size);
#define sg_texture_get_shape(...)                                                                  \
	sg_texture_get_shape_sized(__VA_ARGS__, sizeof(struct sg_shape_desc))

#ifdef __cplusplus
}
#endif

#endif
