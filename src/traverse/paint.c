/* Each draw's colour: the model's colour with its alpha times the product of
 * the opacities of the model and its ancestors, premultiplied and rounded to
 * RGBA8 (what the shader reads as a normalized attribute). A draw is blended
 * when that alpha is below 255 or its texture has a texel with alpha below
 * 255; all others overwrite what is below them, which keeps them in the
 * sorted, depth-tested opaque pass (src/gl/). Recomputed only when the list
 * or the scene's appearance_version changed: a fade costs one pass over the
 * list per frame, never a new walk or draw list. */
#include "paint.h"

#include <math.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../graph/scene_internal.h"

void sg_paint_finish(struct sg_paint *paint)
{
	sg_free(paint->colors);
	sg_free(paint->translucent);
	*paint = (struct sg_paint){0};
}

static sg_result reserve(struct sg_paint *paint, size_t count)
{
	if (!sg_grow_array((void **)&paint->colors, &paint->colors_capacity, count,
	                   sizeof(*paint->colors)) ||
	    !sg_grow_array((void **)&paint->translucent, &paint->translucent_capacity, count, 1))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory for the colours of %zu draws", count);
	return SG_OK;
}

/* The product of the opacities of n and its ancestors. Consecutive draws are
 * mostly siblings: the parent's product is kept for the next one. */
static float opacity_of(const struct sg_scene *scene, uint32_t n, uint32_t *cached_parent,
                        float *cached_product)
{
	uint32_t parent = scene->parent[n];
	if (parent != *cached_parent) {
		float product = 1.0f;
		for (uint32_t a = parent; a; a = scene->parent[a])
			product *= sg_scene_opacity(scene, a);
		*cached_parent = parent;
		*cached_product = product;
	}
	return *cached_product * sg_scene_opacity(scene, n);
}

static uint8_t unit_byte(float value)
{
	return (uint8_t)lroundf(value * 255.0f);
}

static uint32_t premultiplied(const float color[4], float opacity, uint8_t *alpha_byte)
{
	float alpha = color[3] * opacity;
	uint8_t bytes[4] = {unit_byte(color[0] * alpha), unit_byte(color[1] * alpha),
	                    unit_byte(color[2] * alpha), unit_byte(alpha)};
	*alpha_byte = bytes[3];
	uint32_t packed;
	memcpy(&packed, bytes, sizeof(packed));
	return packed;
}

sg_result sg_paint_update(struct sg_paint *paint, const struct sg_scene *scene,
                          const struct sg_draw_list *list, uint64_t *next_serial)
{
	bool same_list = paint->valid && paint->scene == scene->id &&
	                 paint->list_serial == list->serial;
	if (same_list && paint->appearance == scene->appearance_version)
		return SG_OK;
	sg_result result = reserve(paint, list->count);
	if (result) {
		paint->valid = false;
		return result;
	}
	bool colors_changed = !same_list, classes_changed = !same_list;
	uint32_t cached_parent = UINT32_MAX;
	float cached_product = 1.0f;
	size_t translucent_count = 0, tinted_count = 0;
	for (size_t i = 0; i < list->count; i++) {
		const struct sg_draw *draw = &list->draws[i];
		const struct sg_model_data *model = sg_scene_model(scene, draw->node);
		float opacity = scene->opacity_used
		                    ? opacity_of(scene, draw->node, &cached_parent, &cached_product)
		                    : 1.0f;
		uint8_t alpha;
		uint32_t color = premultiplied(model->color, opacity, &alpha);
		uint8_t translucent = alpha < 255 ||
		                      (draw->texture != SG_DRAW_NO_TEXTURE &&
		                       scene->textures[draw->texture].translucent_texels);
		colors_changed |= paint->colors[i] != color;
		classes_changed |= paint->translucent[i] != translucent;
		paint->colors[i] = color;
		paint->translucent[i] = translucent;
		translucent_count += translucent;
		tinted_count += color != UINT32_MAX;
	}
	if (colors_changed)
		paint->serial = ++*next_serial;
	if (classes_changed)
		paint->classes = ++*next_serial;
	paint->translucent_count = translucent_count;
	paint->tinted_count = tinted_count;
	paint->valid = true;
	paint->scene = scene->id;
	paint->list_serial = list->serial;
	paint->appearance = scene->appearance_version;
	return SG_OK;
}
