/* Materials (glTF 2.0 metallic-roughness): descriptions the 3D views shade
 * with, owned by the scene like meshes and textures. A model's material is
 * kept in a table by node index, which only models with one pay for. */
#include <string.h>

#include <sg/scene3d.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/floats.h"
#include "scene_internal.h"
#include "../base/sized.h"

static void material_desc_init(struct sg_material_desc *desc)
{
	if (!desc)
		return;
	*desc = (struct sg_material_desc){
		.base_color = {1.0f, 1.0f, 1.0f, 1.0f},
		.metallic = 1.0f,
		.roughness = 1.0f,
		.normal_scale = 1.0f,
		.occlusion_strength = 1.0f,
		.alpha_cutoff = 0.5f,
	};
}

void sg_material_desc_init_sized(struct sg_material_desc *desc, size_t size)
{
	if (!desc || !sg_sized_out_fits(size, SG_SIZE_THROUGH(struct sg_material_desc, unlit),
	                                "sg_material_desc_init"))
		return;
	struct sg_material_desc full;
	material_desc_init(desc ? &full : NULL);
	sg_sized_out(desc, size, &full, sizeof full);
}

static bool grow_materials(void *owner, uint32_t capacity)
{
	struct sg_scene *scene = owner;
	void *p = sg_realloc_array(scene->materials, capacity, sizeof(*scene->materials));
	if (p)
		scene->materials = p;
	return p != NULL;
}

static const struct sg_material_data *lookup(const struct sg_scene *scene, sg_material m)
{
	return scene && m.scene == scene->id &&
	               sg_pool_holds(&scene->material_pool, m.index, m.generation)
	           ? &scene->materials[m.index]
	           : NULL;
}

static sg_result check_material(const struct sg_scene *scene, sg_material m, const char *what)
{
	if (!scene)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "%s: scene is NULL", what);
	return sg_pool_check(&scene->material_pool, scene->id, m.scene, m.index, m.generation, what);
}

static sg_result check_range(const char *label, const char *field, const float *v, int n,
                             float low, float high)
{
	for (int i = 0; i < n; i++)
		if (!(v[i] >= low && v[i] <= high)) /* NaN fails too */
			return sg_fail(SG_ERR_INVALID_ARGUMENT,
			               "material '%.100s': %s is %g, outside [%g, %g]", label, field,
			               (double)v[i], (double)low, (double)high);
	return SG_OK;
}

static sg_result check_texture(const struct sg_scene *scene, const char *label,
                               const char *field, const struct sg_material_texture *t)
{
	if (sg_texture_is_none(t->texture))
		return SG_OK;
	if (t->uv_set > 1)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "material '%.100s': %s.uv_set is %u (0 or 1)",
		               label, field, t->uv_set);
	const struct sg_sampler *s = &t->sampler;
	if ((unsigned)s->wrap_s > SG_SAMPLER_MIRRORED_REPEAT ||
	    (unsigned)s->wrap_t > SG_SAMPLER_MIRRORED_REPEAT)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "material '%.100s': %s.sampler wrap %d, %d is unknown", label, field,
		               (int)s->wrap_s, (int)s->wrap_t);
	if ((unsigned)s->mag_filter > SG_SAMPLER_LINEAR ||
	    (unsigned)s->min_filter > SG_SAMPLER_LINEAR)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "material '%.100s': %s.sampler filter %d, %d is unknown", label,
		               field, (int)s->mag_filter, (int)s->min_filter);
	sg_result result = sg_scene_check_texture(scene, t->texture, field);
	return result ? sg_fail_prefix(result, "material '%.100s': ", label) : SG_OK;
}

static sg_result check_desc(const struct sg_scene *scene, const struct sg_material_desc *d)
{
	const char *label = d->name ? d->name : "";
	sg_result r;
	if ((r = check_range(label, "base_color", d->base_color, 4, 0.0f, 1.0f)) ||
	    (r = check_range(label, "metallic", &d->metallic, 1, 0.0f, 1.0f)) ||
	    (r = check_range(label, "roughness", &d->roughness, 1, 0.0f, 1.0f)) ||
	    (r = check_range(label, "normal_scale", &d->normal_scale, 1, -1e6f, 1e6f)) ||
	    (r = check_range(label, "occlusion_strength", &d->occlusion_strength, 1, 0.0f, 1.0f)) ||
	    (r = check_range(label, "emissive", d->emissive, 3, 0.0f, 1e6f)) ||
	    (r = check_range(label, "alpha_cutoff", &d->alpha_cutoff, 1, 0.0f, 1.0f)) ||
	    (r = check_texture(scene, label, "base_color_texture", &d->base_color_texture)) ||
	    (r = check_texture(scene, label, "metallic_roughness_texture",
	                       &d->metallic_roughness_texture)) ||
	    (r = check_texture(scene, label, "normal_texture", &d->normal_texture)) ||
	    (r = check_texture(scene, label, "occlusion_texture", &d->occlusion_texture)) ||
	    (r = check_texture(scene, label, "emissive_texture", &d->emissive_texture)))
		return r;
	if ((unsigned)d->alpha_mode > SG_ALPHA_BLEND)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "material '%.100s': alpha_mode %d is unknown",
		               label, (int)d->alpha_mode);
	return SG_OK;
}

sg_material sg_material_create_sized(struct sg_scene *scene, const struct sg_material_desc *desc,
                                     size_t size)
{
	struct sg_material_desc sized_desc;
	if (desc && !(desc = sg_sized_in(&sized_desc, sizeof sized_desc, desc, size,
	                                 SG_SIZE_THROUGH(struct sg_material_desc, unlit),
	                                 "sg_material_create")))
		return (sg_material){0};
	const sg_material none = {0};
	if (!scene || !desc) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_material_create: %s is NULL",
		        scene ? "desc" : "scene");
		return none;
	}
	if (check_desc(scene, desc))
		return none;
	char *name = NULL;
	if (desc->name && !(name = sg_strdup(desc->name))) {
		sg_fail(SG_ERR_NO_MEMORY, "out of memory naming material '%.100s'", desc->name);
		return none;
	}
	uint32_t index;
	if (!sg_pool_alloc(&scene->material_pool, grow_materials, scene, &index)) {
		sg_free(name);
		return none;
	}
	struct sg_material_data *m = &scene->materials[index];
	m->desc = *desc;
	m->desc.name = name;
	return (sg_material){scene->id, index, scene->material_pool.generation[index]};
}

sg_result sg_material_destroy(struct sg_scene *scene, sg_material material)
{
	sg_result result = check_material(scene, material, "sg_material_destroy");
	if (result)
		return result;
	sg_free((char *)scene->materials[material.index].desc.name);
	scene->materials[material.index].desc.name = NULL;
	sg_pool_free(&scene->material_pool, material.index);
	scene->structure_version++; /* models using it must be refused */
	return SG_OK;
}

bool sg_material_exists(const struct sg_scene *scene, sg_material material)
{
	return lookup(scene, material) != NULL;
}

void sg_scene_free_materials(struct sg_scene *scene)
{
	for (uint32_t i = 0; i < scene->material_pool.used; i++)
		if (scene->material_pool.generation && sg_pool_holds(&scene->material_pool, i,
		                                                     scene->material_pool.generation[i]))
			sg_free((char *)scene->materials[i].desc.name);
	sg_pool_finish(&scene->material_pool);
	sg_free(scene->materials);
}

const struct sg_material_data *sg_scene_model_material(const struct sg_scene *scene,
                                                       uint32_t index, bool *stale)
{
	const struct sg_resource_ref *ref =
	    scene->model_materials.count ? sg_index_map_get(&scene->model_materials, index) : NULL;
	if (stale)
		*stale = false;
	if (!ref)
		return NULL;
	const struct sg_material_data *m =
	    lookup(scene, (sg_material){scene->id, ref->index, ref->generation});
	if (!m && stale)
		*stale = true;
	return m;
}

sg_result sg_model_set_material(struct sg_scene *scene, sg_node node, sg_material material)
{
	sg_result result = sg_scene_check_kind(scene, node, SG_NODE_MODEL, "sg_model_set_material");
	if (result)
		return result;
	bool none = !material.scene && !material.index && !material.generation;
	if (!none && (result = check_material(scene, material, "sg_model_set_material")))
		return result;
	struct sg_resource_ref *ref = sg_index_map_get(&scene->model_materials, node.index);
	if (none) {
		sg_free(sg_index_map_take(&scene->model_materials, node.index));
	} else if (ref) {
		*ref = SG_RESOURCE_REF(material);
	} else {
		if (!(ref = sg_malloc(sizeof(*ref))) || !sg_index_map_reserve(&scene->model_materials)) {
			sg_free(ref);
			return sg_fail(SG_ERR_NO_MEMORY, "out of memory giving model %s a material",
			               sg_scene_node_label(scene, node.index));
		}
		*ref = SG_RESOURCE_REF(material);
		sg_index_map_put(&scene->model_materials, node.index, ref);
	}
	sg_scene_journal(scene, node.index);
	scene->structure_version++; /* the 3D views sort and draw by material */
	return SG_OK;
}

sg_material sg_model_get_material(const struct sg_scene *scene, sg_node node)
{
	if (sg_scene_check_kind(scene, node, SG_NODE_MODEL, "sg_model_get_material"))
		return SG_MATERIAL_NONE;
	const struct sg_resource_ref *ref = sg_index_map_get(&scene->model_materials, node.index);
	return ref ? (sg_material){scene->id, ref->index, ref->generation} : SG_MATERIAL_NONE;
}
