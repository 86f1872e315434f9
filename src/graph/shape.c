/* Shape textures (sg/shape.h): a texture of one white texel whose record
 * holds the shape; the GL layer draws it with a program of its own
 * (src/gl/material_shape.c, src/gl/material_shape.frag), picking tests its outline. */
#include <math.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/floats.h"
#include "resource.h"
#include "scene_internal.h"
#include "shape_outline.h"
#include "../base/sized.h"

static bool unit_color(const float c[4])
{
	for (int i = 0; i < 4; i++)
		if (!sg_float_unit(c[i]))
			return false;
	return true;
}

/* image_too: the image is looked at (a texture's shape; a mesh has none). */
static sg_result check(const struct sg_scene *scene, const struct sg_shape_desc *d,
                       const char *function, bool image_too)
{
#define BAD(...) sg_fail(SG_ERR_INVALID_ARGUMENT, __VA_ARGS__)
	/* not below 0.001: the mesh's margin is divided by the size */
	if (!(d->width >= 1e-3f && d->width <= 1e6f && d->height >= 1e-3f && d->height <= 1e6f))
		return BAD("%s: shape size %gx%g is not in [0.001, 1e6]", function, (double)d->width,
		           (double)d->height);
	for (int i = 0; i < 4; i++)
		if (!isfinite(d->radii[i]) || d->radii[i] < 0)
			return BAD("%s: corner radius %d = %g is negative or not finite", function, i,
			           (double)d->radii[i]);
	if (!isfinite(d->border_width) || d->border_width < 0)
		return BAD("%s: border width %g is negative or not finite", function,
		           (double)d->border_width);
	if (!unit_color(d->fill))
		return BAD("%s: a fill colour component is not in [0, 1]", function);
	if (!unit_color(d->border_color))
		return BAD("%s: a border colour component is not in [0, 1]", function);
	if ((unsigned)d->gradient > SG_GRADIENT_RADIAL)
		return BAD("%s: gradient %d is unknown", function, d->gradient);
	if (d->gradient != SG_GRADIENT_NONE) {
		if (d->stop_count < 2 || d->stop_count > SG_SHAPE_MAX_STOPS)
			return BAD("%s: %d gradient stops, not 2 .. %d", function, d->stop_count,
			           SG_SHAPE_MAX_STOPS);
		if (!sg_floats_finite(d->gradient_start, 2) || !sg_floats_finite(d->gradient_end, 2))
			return BAD("%s: a gradient point is not finite", function);
		if (d->gradient_start[0] == d->gradient_end[0] &&
		    d->gradient_start[1] == d->gradient_end[1])
			return BAD("%s: the gradient's end is its start", function);
		for (int i = 0; i < d->stop_count; i++) {
			const struct sg_gradient_stop *s = &d->stops[i];
			if (!sg_float_unit(s->offset) || (i > 0 && s->offset < d->stops[i - 1].offset))
				return BAD("%s: stop %d's offset %g is not in [0, 1] or is below the "
				           "stop before",
				           function, i, (double)s->offset);
			if (!unit_color(s->color))
				return BAD("%s: a colour component of stop %d is not in [0, 1]",
				           function, i);
		}
	}
	if (!isfinite(d->blur) || d->blur < 0)
		return BAD("%s: blur %g is negative or not finite", function, (double)d->blur);
	if (d->blur > 1e6f)
		return BAD("%s: blur %g is over 1e6", function, (double)d->blur);
	if (d->blur > 0 && (d->border_width > 0 || d->gradient != SG_GRADIENT_NONE))
		return BAD("%s: a blurred shape (a shadow) has no border or gradient", function);
	if (image_too && !sg_texture_is_none(d->image)) {
		sg_result result = sg_scene_check_texture(scene, d->image, "image");
		if (result)
			return sg_fail_prefix(result, "%s: ", function);
		const struct sg_texture_data *t = &scene->textures[d->image.index];
		if (t->shape || t->import)
			return BAD("%s: image texture #%u is %s, not plain texels", function,
			           d->image.index, t->shape ? "a shape" : "an imported dma-buf");
		if (d->blur > 0 || d->gradient != SG_GRADIENT_NONE)
			return BAD("%s: a shape filled by an image has no gradient or blur", function);
	}
	return SG_OK;
#undef BAD
}

void sg_shape_radii(const struct sg_shape_desc *shape, float radii[4])
{
	float most = fminf(shape->width, shape->height) / 2;
	for (int i = 0; i < 4; i++)
		radii[i] = fminf(shape->radii[i], most);
}

float sg_shape_distance(const struct sg_shape_desc *shape, float u, float v)
{
	float half[2] = {shape->width / 2, shape->height / 2}, radii[4];
	sg_shape_radii(shape, radii);
	float x = u * shape->width - shape->width / 2, y = v * shape->height - shape->height / 2;
	float r = x < 0 ? (y < 0 ? radii[0] : radii[3]) : (y < 0 ? radii[1] : radii[2]);
	float qx = fabsf(x) - half[0] + r, qy = fabsf(y) - half[1] + r;
	float outside = hypotf(fmaxf(qx, 0), fmaxf(qy, 0));
	return fminf(fmaxf(qx, qy), 0) + outside - r;
}

sg_texture sg_texture_create_shape_sized(struct sg_scene *scene, const struct sg_shape_desc *desc,
                                         size_t size)
{
	struct sg_shape_desc sized_desc;
	if (desc && !(desc = sg_sized_in(&sized_desc, sizeof sized_desc, desc, size,
	                                 SG_SIZE_THROUGH(struct sg_shape_desc, image),
	                                 "sg_texture_create_shape")))
		return (sg_texture){0};
	const sg_texture none = {0};
	if (!scene || !desc) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_texture_create_shape: %s is NULL",
		        scene ? "desc" : "scene");
		return none;
	}
	if (check(scene, desc, "sg_texture_create_shape", true))
		return none;
	static const uint8_t white[4] = {255, 255, 255, 255};
	struct sg_shape_desc *copy = sg_malloc(sizeof(*copy));
	if (!copy) {
		sg_fail(SG_ERR_NO_MEMORY, "out of memory for a shape");
		return none;
	}
	sg_texture texture = sg_texture_create(
	    scene, &(struct sg_texture_desc){.width = 1, .height = 1, .pixels = white});
	if (!texture.generation) {
		sg_free(copy);
		return none;
	}
	*copy = *desc;
	struct sg_texture_data *t = &scene->textures[texture.index];
	t->shape = copy;
	t->translucent_texels = 1; /* antialiased edges: always blended */
	scene->image_shapes += desc->image.generation != 0;
	return texture;
}

sg_mesh sg_mesh_create_shape_sized(struct sg_scene *scene, const struct sg_shape_desc *desc,
                                   size_t size)
{
	struct sg_shape_desc sized_desc;
	if (desc && !(desc = sg_sized_in(&sized_desc, sizeof sized_desc, desc, size,
	                                 SG_SIZE_THROUGH(struct sg_shape_desc, image),
	                                 "sg_mesh_create_shape")))
		return (sg_mesh){0};
	if (!scene || !desc) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_mesh_create_shape: %s is NULL",
		        scene ? "desc" : "scene");
		return (sg_mesh){0};
	}
	if (check(scene, desc, "sg_mesh_create_shape", false))
		return (sg_mesh){0};
	float m = 1 + 3 * desc->blur, w = desc->width, h = desc->height;
	float u = m / w, v = m / h;
	const struct sg_vertex quad[4] = {
	    {{-m, -m, 0}, {-u, -v}},
	    {{-m, h + m, 0}, {-u, 1 + v}},
	    {{w + m, -m, 0}, {1 + u, -v}},
	    {{w + m, h + m, 0}, {1 + u, 1 + v}},
	};
	const uint32_t indices[6] = {0, 1, 2, 2, 1, 3};
	return sg_mesh_create(scene, &(struct sg_mesh_desc){
	                                 .vertices = quad, .vertex_count = 4, .indices = indices,
	                                 .index_count = 6});
}

/* As an update of a shape's one texel: the models drawing it are damaged whole. */
static void mark_changed(struct sg_scene *scene, struct sg_texture_data *t)
{
	t->update_serial++;
	scene->texture_updates++;
	t->updates[t->update_serial % SG_TEXTURE_UPDATE_HISTORY] = (struct sg_texture_rect){0, 0, 1, 1};
}

/* The live shape texture of texture, or NULL with a message naming function. */
static struct sg_texture_data *shape_of(const struct sg_scene *scene, sg_texture texture,
                                        const char *function)
{
	if (sg_scene_check_texture(scene, texture, function))
		return NULL;
	struct sg_texture_data *t = &((struct sg_scene *)scene)->textures[texture.index];
	if (!t->shape) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "%s: texture #%u is not a shape", function,
		        texture.index);
		return NULL;
	}
	return t;
}

sg_result sg_texture_set_shape_sized(struct sg_scene *scene, sg_texture texture,
                                     const struct sg_shape_desc *desc, size_t size)
{
	struct sg_shape_desc sized_desc;
	if (desc && !(desc = sg_sized_in(&sized_desc, sizeof sized_desc, desc, size,
	                                 SG_SIZE_THROUGH(struct sg_shape_desc, image),
	                                 "sg_texture_set_shape")))
		return sg_last_result();
	struct sg_texture_data *t = shape_of(scene, texture, "sg_texture_set_shape");
	if (!t)
		return sg_last_result();
	if (!desc)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_texture_set_shape: desc is NULL");
	sg_result result = check(scene, desc, "sg_texture_set_shape", true);
	if (result)
		return result;
	if (!memcmp(t->shape, desc, sizeof(*desc)))
		return SG_OK;
	bool had = t->shape->image.generation != 0, has = desc->image.generation != 0;
	bool other_image = memcmp(&t->shape->image, &desc->image, sizeof(desc->image)) != 0;
	*t->shape = *desc;
	scene->image_shapes += (uint32_t)has - (uint32_t)had;
	mark_changed(scene, t);
	/* Whether its models can be drawn depends on the image being live: the
	 * traversal's list of stale models is made again. */
	if (other_image)
		sg_scene_structure_changed(scene);
	return SG_OK;
}

void sg_scene_image_updated(struct sg_scene *scene, uint32_t index)
{
	if (!scene->image_shapes)
		return;
	for (uint32_t i = 0; i < scene->texture_pool.used; i++) {
		struct sg_texture_data *t = &scene->textures[i];
		if (t->shape && !sg_texture_is_none(t->shape->image) && t->shape->image.index == index &&
		    sg_scene_texture(scene, t->shape->image))
			mark_changed(scene, t);
	}
}

static sg_result texture_get_shape(const struct sg_scene *scene, sg_texture texture,
                                   struct sg_shape_desc *desc)
{
	const struct sg_texture_data *t = shape_of(scene, texture, "sg_texture_get_shape");
	if (!t)
		return sg_last_result();
	if (!desc)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_texture_get_shape: desc is NULL");
	*desc = *t->shape;
	return SG_OK;
}

sg_result sg_texture_get_shape_sized(const struct sg_scene *scene, sg_texture texture,
                                     struct sg_shape_desc *desc, size_t size)
{
	if (desc && !sg_sized_out_fits(size, SG_SIZE_THROUGH(struct sg_shape_desc, image),
	                               "sg_texture_get_shape"))
		return sg_last_result();
	struct sg_shape_desc full;
	sg_result result = texture_get_shape(scene, texture, desc ? &full : NULL);
	if (desc && result == SG_OK)
		sg_sized_out(desc, size, &full, sizeof full);
	return result;
}
