/* $.materials: glTF 2.0 metallic-roughness materials by name (sg/scene3d.h).
 * Each is read and checked with the file, its texture names included, but
 * made only when a model first uses it: an unused material makes none of its
 * textures and costs no texture budget. */
#include <stddef.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/escape.h"
#include "read.h"

static const struct {
	const char *key;
	size_t offset; /* of its struct sg_material_texture in sg_material_desc */
} material_slots[SG_MATERIAL_SLOTS] = {
    {"base_color_texture", offsetof(struct sg_material_desc, base_color_texture)},
    {"metallic_roughness_texture", offsetof(struct sg_material_desc, metallic_roughness_texture)},
    {"normal_texture", offsetof(struct sg_material_desc, normal_texture)},
    {"occlusion_texture", offsetof(struct sg_material_desc, occlusion_texture)},
    {"emissive_texture", offsetof(struct sg_material_desc, emissive_texture)},
};

static struct sg_material_texture *slot_of(struct sg_material_desc *desc, int slot)
{
	return (struct sg_material_texture *)((char *)desc + material_slots[slot].offset);
}

/* A texture reference's sampler (sg_material_texture.sampler): each key
 * absent leaves the texture's own setting (0). */
static sg_result read_sampler(struct sg_parse *p, struct json_object *value,
                              struct sg_sampler *sampler)
{
	/* after "the texture's own" (0), in enum order */
	static const char *const wraps[] = {"texture", "clamp", "repeat", "mirrored_repeat", NULL};
	static const char *const filters[] = {"texture", "nearest", "linear", NULL};
	int wrap_s = 0, wrap_t = 0, mag = 0, min = 0;
	sg_result result = sg_read_choice(p, value, "wrap_s", wraps, &wrap_s);
	if (!result)
		result = sg_read_choice(p, value, "wrap_t", wraps, &wrap_t);
	if (!result)
		result = sg_read_choice(p, value, "mag_filter", filters, &mag);
	if (!result)
		result = sg_read_choice(p, value, "min_filter", filters, &min);
	*sampler = (struct sg_sampler){(enum sg_sampler_wrap)wrap_s, (enum sg_sampler_wrap)wrap_t,
	                               (enum sg_sampler_filter)mag, (enum sg_sampler_filter)min};
	return result;
}

/* "name" or {"texture": "name", "uv_set": 0 | 1, sampler keys}, at p->path. */
static sg_result read_texture_ref_value(struct sg_parse *p, struct json_object *value,
                                        struct sg_named_texture **texture,
                                        struct sg_material_texture *slot)
{
	static const char *const keys[] = {"texture",    "uv_set",     "wrap_s", "wrap_t",
	                                   "mag_filter", "min_filter", NULL};
	const char *name = NULL;
	int set = 0;
	sg_result result = SG_OK;
	size_t mark = p->path.length;
	if (json_object_is_type(value, json_type_string)) {
		result = sg_read_string_value(p, value, &name);
	} else if (json_object_is_type(value, json_type_object)) {
		result = sg_read_keys(p, value, keys);
		if (!result)
			result = sg_read_int(p, value, "uv_set", false, 0, 1, &set);
		if (!result)
			result = read_sampler(p, value, &slot->sampler);
		if (!result)
			result = sg_read_string(p, value, "texture", true, &name);
		if (!result)
			mark = sg_json_path_push_key(&p->path, "texture");
	} else {
		result = sg_parse_fail(p, "expected a name of $.textures or {\"texture\": name, "
		                          "\"uv_set\": 0 or 1}");
	}
	if (!result && !(*texture = sg_texture_named(p, name)))
		result = sg_texture_unknown(p, name);
	sg_json_path_pop(&p->path, mark);
	slot->uv_set = (unsigned)set;
	return result;
}

static sg_result read_textures(struct sg_parse *p, struct json_object *desc,
                               struct sg_named_material *material)
{
	for (int slot = 0; slot < SG_MATERIAL_SLOTS; slot++) {
		struct json_object *value = sg_read_field(desc, material_slots[slot].key);
		if (!value)
			continue;
		size_t mark = sg_json_path_push_key(&p->path, material_slots[slot].key);
		sg_result result = read_texture_ref_value(p, value, &material->textures[slot],
		                                          slot_of(&material->desc, slot));
		sg_json_path_pop(&p->path, mark);
		if (result)
			return result;
	}
	return SG_OK;
}

static sg_result read_alpha(struct sg_parse *p, struct json_object *json,
                            struct sg_material_desc *desc)
{
	static const char *const modes[] = {"opaque", "mask", "blend", NULL};
	int mode = SG_ALPHA_OPAQUE;
	sg_result result = sg_read_choice(p, json, "alpha_mode", modes, &mode);
	desc->alpha_mode = (enum sg_alpha_mode)mode;
	if (result || !sg_read_field(json, "alpha_cutoff"))
		return result;
	size_t mark = sg_json_path_push_key(&p->path, "alpha_cutoff");
	/* glTF ignores it elsewhere; here it is a slip to be told of */
	if (desc->alpha_mode != SG_ALPHA_MASK)
		result = sg_parse_fail(p, "only an \"alpha_mode\": \"mask\" material has a cutoff");
	sg_json_path_pop(&p->path, mark);
	if (!result)
		result = sg_read_number(p, json, "alpha_cutoff", false, 0, 1, &desc->alpha_cutoff);
	return result;
}

static sg_result read_material(struct sg_parse *p, const char *name, struct json_object *json,
                               struct sg_named_material *material)
{
	static const char *const keys[] = {"base_color",
	                                   "base_color_texture",
	                                   "metallic",
	                                   "roughness",
	                                   "metallic_roughness_texture",
	                                   "normal_texture",
	                                   "normal_scale",
	                                   "occlusion_texture",
	                                   "occlusion_strength",
	                                   "emissive",
	                                   "emissive_texture",
	                                   "alpha_mode",
	                                   "alpha_cutoff",
	                                   "double_sided",
	                                   "unlit",
	                                   NULL};
	*material = (struct sg_named_material){.name = name};
	struct sg_material_desc *desc = &material->desc;
	sg_material_desc_init(desc);
	desc->name = name;
	sg_result result = sg_read_object(p, json);
	if (!result)
		result = sg_read_keys(p, json, keys);
	if (!result)
		result = sg_read_linear_color(p, json, "base_color", 4, desc->base_color);
	if (!result)
		result = sg_read_number(p, json, "metallic", false, 0, 1, &desc->metallic);
	if (!result)
		result = sg_read_number(p, json, "roughness", false, 0, 1, &desc->roughness);
	if (!result)
		result =
		    sg_read_number(p, json, "normal_scale", false, -1e6, 1e6, &desc->normal_scale);
	if (!result)
		result = sg_read_number(p, json, "occlusion_strength", false, 0, 1,
		                        &desc->occlusion_strength);
	if (!result)
		result = sg_read_linear_color(p, json, "emissive", 3, desc->emissive);
	if (!result)
		result = read_alpha(p, json, desc);
	if (!result)
		result = sg_read_bool(p, json, "double_sided", &desc->double_sided);
	if (!result)
		result = sg_read_bool(p, json, "unlit", &desc->unlit);
	if (!result)
		result = read_textures(p, json, material);
	return result;
}

sg_result sg_parse_materials(struct sg_parse *p, struct json_object *root)
{
	struct json_object *materials = sg_read_field(root, "materials");
	if (!materials)
		return SG_OK;
	size_t mark = sg_json_path_push_key(&p->path, "materials");
	sg_result result = sg_read_object(p, materials);
	if (!result) {
		size_t count = (size_t)json_object_object_length(materials);
		p->materials = sg_realloc_array(NULL, count, sizeof(*p->materials));
		if (!p->materials && count)
			result = sg_parse_no_memory(p);
	}
	if (!result) {
		json_object_object_foreach (materials, name, json) {
			size_t name_mark = sg_json_path_push_key(&p->path, name);
			result = read_material(p, name, json, &p->materials[p->material_count]);
			sg_json_path_pop(&p->path, name_mark);
			if (result)
				break;
			p->material_count++;
		}
	}
	sg_json_path_pop(&p->path, mark);
	return result;
}

/* Makes material's textures, then material, with messages at $.materials.NAME. */
static sg_result make(struct sg_parse *p, struct sg_named_material *material)
{
	sg_result result = SG_OK;
	for (int slot = 0; !result && slot < SG_MATERIAL_SLOTS; slot++)
		if (material->textures[slot])
			result = sg_texture_use(p, material->textures[slot],
			                        &slot_of(&material->desc, slot)->texture);
	if (result)
		return result;
	material->material = sg_material_create(p->out->scene, &material->desc);
	if (material->material.generation)
		return SG_OK;
	struct sg_json_path user_path = p->path;
	sg_json_path_init(&p->path);
	sg_json_path_push_key(&p->path, "materials");
	sg_json_path_push_key(&p->path, material->name);
	/* every value was checked as it was read: only memory can be missing */
	result = sg_parse_fail_escaped(p);
	p->path = user_path;
	return result;
}

sg_result sg_find_material(struct sg_parse *p, struct json_object *model, sg_material *out)
{
	const char *name = NULL;
	*out = SG_MATERIAL_NONE;
	sg_result result = sg_read_string(p, model, "material", false, &name);
	if (result || !name)
		return result;
	for (size_t i = 0; i < p->material_count; i++) {
		struct sg_named_material *material = &p->materials[i];
		if (strcmp(material->name, name) != 0)
			continue;
		if (!material->material.generation)
			result = make(p, material);
		*out = material->material;
		return result;
	}
	char shown[128];
	size_t mark = sg_json_path_push_key(&p->path, "material");
	result = sg_parse_fail(p, "unknown material \"%s\" (not in $.materials)",
	                       sg_escape(name, SG_ESCAPE_JSON, shown, sizeof(shown)));
	sg_json_path_pop(&p->path, mark);
	return result;
}
