/* An aiMaterial as a libsg material (glTF 2.0 metallic-roughness), made once
 * however many meshes use it. assimp's glTF 2.0 importer keeps glTF's values
 * under its PBR keys; other formats' materials (OBJ, ...) are mapped from
 * their diffuse colour, opacity and shininess (docs/model-import.md). */
#include "import_internal.h"

#include <math.h>
#include <string.h>

#include <assimp/GltfMaterial.h>
#include <assimp/material.h>

#include "../base/error.h"
#include "../base/escape.h"
#include "../base/log.h"

/* glTF's sampler filters (GL enums), as assimp keeps them. */
#define GL_NEAREST 9728
#define GL_LINEAR 9729
#define GL_NEAREST_MIPMAP_NEAREST 9984
#define GL_LINEAR_MIPMAP_NEAREST 9985
#define GL_NEAREST_MIPMAP_LINEAR 9986
#define GL_LINEAR_MIPMAP_LINEAR 9987

/* Within [low, high]; NaN becomes fallback. */
static float within(float value, float low, float high, float fallback)
{
	if (!(value == value))
		return fallback;
	return value < low ? low : value > high ? high : value;
}

static bool get_float(const struct aiMaterial *material, const char *key, unsigned type,
                      unsigned index, float *out)
{
	ai_real value;
	unsigned count = 1;
	if (aiGetMaterialFloatArray(material, key, type, index, &value, &count) !=
	        aiReturn_SUCCESS ||
	    count != 1)
		return false;
	*out = (float)value;
	return true;
}

static bool get_int(const struct aiMaterial *material, const char *key, unsigned type,
                    unsigned index, int *out)
{
	unsigned count = 1;
	return aiGetMaterialIntegerArray(material, key, type, index, out, &count) ==
	           aiReturn_SUCCESS &&
	       count == 1;
}

static bool get_color(const struct aiMaterial *material, const char *key, unsigned type,
                      unsigned index, float rgba[4])
{
	struct aiColor4D color;
	if (aiGetMaterialColor(material, key, type, index, &color) != aiReturn_SUCCESS)
		return false;
	rgba[0] = within(color.r, 0, 1, 1);
	rgba[1] = within(color.g, 0, 1, 1);
	rgba[2] = within(color.b, 0, 1, 1);
	rgba[3] = within(color.a, 0, 1, 1);
	return true;
}

static enum sg_sampler_wrap wrap_of(enum aiTextureMapMode mode)
{
	switch (mode) {
	case aiTextureMapMode_Clamp:
	case aiTextureMapMode_Decal: /* other formats' "border": the nearest glTF has */
		return SG_SAMPLER_CLAMP_TO_EDGE;
	case aiTextureMapMode_Mirror: return SG_SAMPLER_MIRRORED_REPEAT;
	default: return SG_SAMPLER_REPEAT;
	}
}

/* A glTF filter (GL enum) as libsg's, or fallback where the sampler names
 * none or an unknown one. Textures have no mipmaps yet: a mipmap filter is
 * its filter within a level, the first word of its name. */
static enum sg_sampler_filter filter_of(int gl, enum sg_sampler_filter fallback)
{
	switch (gl) {
	case GL_NEAREST:
	case GL_NEAREST_MIPMAP_NEAREST:
	case GL_NEAREST_MIPMAP_LINEAR: return SG_SAMPLER_NEAREST;
	case GL_LINEAR:
	case GL_LINEAR_MIPMAP_NEAREST:
	case GL_LINEAR_MIPMAP_LINEAR: return SG_SAMPLER_LINEAR;
	default: return fallback;
	}
}

/* The texture of slot type, if the material has one: its image, sampler
 * and uv set. */
static sg_result slot(struct sg_import *im, const struct aiMaterial *material,
                      enum aiTextureType type, const char *material_name,
                      struct sg_material_texture *out)
{
	if (aiGetMaterialTextureCount(material, type) == 0)
		return SG_OK;
	struct aiString name;
	unsigned uv = 0;
	enum aiTextureMapMode modes[2] = {aiTextureMapMode_Wrap, aiTextureMapMode_Wrap};
	if (aiGetMaterialTexture(material, type, 0, &name, NULL, &uv, NULL, NULL, modes, NULL) !=
	        aiReturn_SUCCESS ||
	    name.length == 0)
		return SG_OK;
	/* glTF's sampler as assimp 5.2 keeps it: wrapS and wrapT as the
	 * mapping modes of u and v; magFilter and minFilter (GL enums) under
	 * their glTF keys, only where the sampler names them. glTF leaves a
	 * filter it does not name to the viewer: linear, and a minification
	 * filter like the magnification one. */
	int mag = 0, min = 0;
	get_int(material, AI_MATKEY_GLTF_MAPPINGFILTER_MAG(type, 0), &mag);
	get_int(material, AI_MATKEY_GLTF_MAPPINGFILTER_MIN(type, 0), &min);
	out->sampler.wrap_s = wrap_of(modes[0]);
	out->sampler.wrap_t = wrap_of(modes[1]);
	out->sampler.mag_filter = filter_of(mag, SG_SAMPLER_LINEAR);
	out->sampler.min_filter = filter_of(min, out->sampler.mag_filter);
	if (uv > 1) {
		sg_log(SG_LOG_INFO,
		       "'%s': material '%s' samples uv set %u; libsg has two: set 0 used",
		       im->shown, material_name, uv);
		uv = 0;
	}
	out->uv_set = uv;
	return sg_import_texture(im, name.data, &out->texture);
}

static sg_result fill_textures(struct sg_import *im, const struct aiMaterial *material,
                               const char *shown, struct sg_material_desc *desc)
{
	sg_result result;
	if ((result =
	         slot(im, material, aiTextureType_BASE_COLOR, shown, &desc->base_color_texture)))
		return result;
	if (!desc->base_color_texture.texture.generation &&
	    (result = slot(im, material, aiTextureType_DIFFUSE, shown, &desc->base_color_texture)))
		return result;
	/* glTF's metallicRoughness image: aiTextureType_UNKNOWN in assimp 5.2
	 * (AI_MATKEY_GLTF_PBRMETALLICROUGHNESS_METALLICROUGHNESS_TEXTURE); its
	 * METALNESS and DIFFUSE_ROUGHNESS name the same image, and other formats'
	 * single-channel maps would be read from the wrong channels. */
	if ((result = slot(im, material, aiTextureType_UNKNOWN, shown,
	                   &desc->metallic_roughness_texture)))
		return result;
	if ((result = slot(im, material, aiTextureType_NORMALS, shown, &desc->normal_texture)))
		return result;
	/* glTF's occlusion image: aiTextureType_LIGHTMAP in assimp's importer */
	if ((result = slot(im, material, aiTextureType_LIGHTMAP, shown, &desc->occlusion_texture)))
		return result;
	if (!desc->occlusion_texture.texture.generation &&
	    (result = slot(im, material, aiTextureType_AMBIENT_OCCLUSION, shown,
	                   &desc->occlusion_texture)))
		return result;
	return slot(im, material, aiTextureType_EMISSIVE, shown, &desc->emissive_texture);
}

static void fill_factors(const struct aiMaterial *material, struct sg_material_desc *desc)
{
	float value, rgba[4];
	if (get_color(material, AI_MATKEY_BASE_COLOR, desc->base_color)) {
		/* glTF (and other PBR formats) */
	} else if (get_color(material, AI_MATKEY_COLOR_DIFFUSE, desc->base_color)) {
		if (get_float(material, AI_MATKEY_OPACITY, &value))
			desc->base_color[3] = within(value, 0, 1, 1);
	}
	if (get_float(material, AI_MATKEY_METALLIC_FACTOR, &value)) {
		desc->metallic = within(value, 0, 1, 1);
		if (get_float(material, AI_MATKEY_ROUGHNESS_FACTOR, &value))
			desc->roughness = within(value, 0, 1, 1);
	} else {
		/* Phong and the like: a dielectric, as rough as its specular
		 * exponent says (the usual Blinn-Phong to GGX match). */
		desc->metallic = 0;
		desc->roughness = 1;
		if (get_float(material, AI_MATKEY_SHININESS, &value) && value > 0)
			desc->roughness = within(sqrtf(2 / (value + 2)), 0, 1, 1);
	}
	if (get_color(material, AI_MATKEY_COLOR_EMISSIVE, rgba))
		memcpy(desc->emissive, rgba, sizeof(desc->emissive));
	if (get_float(material, AI_MATKEY_GLTF_TEXTURE_SCALE(aiTextureType_NORMALS, 0), &value))
		desc->normal_scale = within(value, -1e6f, 1e6f, 1);
	if (get_float(material, AI_MATKEY_GLTF_TEXTURE_STRENGTH(aiTextureType_LIGHTMAP, 0), &value))
		desc->occlusion_strength = within(value, 0, 1, 1);

	struct aiString mode;
	if (aiGetMaterialString(material, AI_MATKEY_GLTF_ALPHAMODE, &mode) == aiReturn_SUCCESS) {
		desc->alpha_mode = strcmp(mode.data, "BLEND") == 0  ? SG_ALPHA_BLEND
		                   : strcmp(mode.data, "MASK") == 0 ? SG_ALPHA_MASK
		                                                    : SG_ALPHA_OPAQUE;
	} else if (desc->base_color[3] < 1) {
		desc->alpha_mode = SG_ALPHA_BLEND; /* an OBJ's "d 0.5" */
	}
	if (get_float(material, AI_MATKEY_GLTF_ALPHACUTOFF, &value))
		desc->alpha_cutoff = within(value, 0, 1, 0.5f);
	int flag;
	if (get_int(material, AI_MATKEY_TWOSIDED, &flag))
		desc->double_sided = flag != 0;
	/* KHR_materials_unlit: assimp 5.2 says so with the shading model */
	if (get_int(material, AI_MATKEY_SHADING_MODEL, &flag))
		desc->unlit = flag == aiShadingMode_Unlit;
}

sg_result sg_import_material(struct sg_import *im, unsigned index, sg_material *out)
{
	if (im->materials[index].generation) {
		*out = im->materials[index];
		return SG_OK;
	}
	const struct aiMaterial *material = im->ai->mMaterials[index];
	if (!material)
		return SG_OK;
	struct aiString name = {0};
	aiGetMaterialString(material, AI_MATKEY_NAME, &name);
	char shown[128];
	sg_escape(name.data, SG_ESCAPE_TEXT, shown, sizeof(shown));

	struct sg_material_desc desc;
	sg_material_desc_init(&desc);
	desc.name = name.data;
	fill_factors(material, &desc);
	sg_result result = fill_textures(im, material, shown, &desc);
	if (result)
		return result;
	sg_material made = sg_material_create(im->scene, &desc);
	if (!made.generation)
		return sg_fail_prefix(sg_import_failure(),
		                      "importing '%s': material '%s': ", im->shown, shown);
	im->materials[index] = made;
	im->info.materials++;
	*out = made;
	return SG_OK;
}
