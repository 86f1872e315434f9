/* Lights and cameras of a file. assimp names each after the node that holds
 * it and gives its frame in that node's coordinates (glTF's: at the origin,
 * looking along -Z, +Y up). */
#include "import_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../base/error.h"
#include "../base/escape.h"
#include "../base/log.h"

static float length3(struct aiVector3D v)
{
	return sqrtf(v.x * v.x + v.y * v.y + v.z * v.z);
}

/* The frame at position looking along direction with up as near +Y as it
 * can be, column-major; false where it is glTF's own (the identity). */
static bool frame(struct aiVector3D position, struct aiVector3D direction, struct aiVector3D up,
                  float out[16])
{
	float d = length3(direction);
	bool looks_default = d == 0 || (direction.x == 0 && direction.y == 0 && direction.z < 0);
	bool up_default = length3(up) == 0 || (up.x == 0 && up.z == 0 && up.y > 0);
	bool at_origin = position.x == 0 && position.y == 0 && position.z == 0;
	memset(out, 0, 16 * sizeof(float));
	out[0] = out[5] = out[10] = out[15] = 1;
	if (looks_default && up_default && at_origin)
		return false;
	out[12] = position.x;
	out[13] = position.y;
	out[14] = position.z;
	if (looks_default && up_default)
		return true;
	float z[3] = {-direction.x / d, -direction.y / d, -direction.z / d};
	if (d == 0)
		z[0] = 0, z[1] = 0, z[2] = 1;
	float y[3] = {up.x, up.y, up.z};
	if (length3(up) == 0)
		y[0] = 0, y[1] = 1, y[2] = 0;
	/* up made perpendicular to z; a parallel one replaced */
	float along = y[0] * z[0] + y[1] * z[1] + y[2] * z[2];
	for (int i = 0; i < 3; i++)
		y[i] -= along * z[i];
	float n = sqrtf(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
	if (!(n > 1e-6f)) {
		float other[3] = {fabsf(z[0]) < 0.9f ? 1.0f : 0.0f,
		                  fabsf(z[0]) < 0.9f ? 0.0f : 1.0f, 0};
		along = other[0] * z[0] + other[1] * z[1];
		for (int i = 0; i < 3; i++)
			y[i] = other[i] - along * z[i];
		n = sqrtf(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
	}
	for (int i = 0; i < 3; i++)
		y[i] /= n;
	float x[3] = {y[1] * z[2] - y[2] * z[1], y[2] * z[0] - y[0] * z[2],
	              y[0] * z[1] - y[1] * z[0]};
	for (int i = 0; i < 3; i++) {
		out[i] = x[i];
		out[4 + i] = y[i];
		out[8 + i] = z[i];
	}
	return true;
}

static bool drawn_type(enum aiLightSourceType type)
{
	return type == aiLightSource_DIRECTIONAL || type == aiLightSource_POINT ||
	       type == aiLightSource_SPOT;
}

size_t sg_import_light_nodes(const struct aiLight *light)
{
	float matrix[16];
	return frame(light->mPosition, light->mDirection, light->mUp, matrix) ? 2 : 1;
}

/* assimp 5.2 gives glTF's colour times its intensity as the diffuse colour
 * (and drops the range): split again, the intensity the largest component. */
static void describe(const struct aiLight *light, struct sg_light_desc *desc)
{
	float rgb[3] = {light->mColorDiffuse.r, light->mColorDiffuse.g, light->mColorDiffuse.b};
	float intensity = 0;
	for (int i = 0; i < 3; i++) {
		if (!(rgb[i] >= 0) || isinf(rgb[i]))
			rgb[i] = 0; /* NaN, negative or infinite: no light */
		if (rgb[i] > 1e9f)
			rgb[i] = 1e9f; /* libsg's largest intensity */
		intensity = rgb[i] > intensity ? rgb[i] : intensity;
	}
	*desc = (struct sg_light_desc){
	    .name = light->mName.data,
	    .type = light->mType == aiLightSource_DIRECTIONAL ? SG_LIGHT_DIRECTIONAL
	            : light->mType == aiLightSource_SPOT      ? SG_LIGHT_SPOT
	                                                      : SG_LIGHT_POINT,
	    .color = {1, 1, 1},
	    .intensity = intensity,
	};
	if (intensity > 0)
		for (int i = 0; i < 3; i++)
			desc->color[i] = rgb[i] / intensity;
	if (desc->type == SG_LIGHT_SPOT) {
		/* glTF's half angles, as assimp's glTF importer keeps them */
		const float quarter_turn = (float)M_PI / 2;
		float outer = light->mAngleOuterCone, inner = light->mAngleInnerCone;
		outer = outer > 0 ? (outer < quarter_turn ? outer : quarter_turn) : quarter_turn;
		inner = inner > 0 ? inner : 0;
		if (!(inner < outer))
			inner = 0;
		desc->inner_cone = inner;
		desc->outer_cone = outer;
	}
}

static sg_result add_light(struct sg_import *im, const struct aiLight *light)
{
	char name[128];
	sg_escape(light->mName.data, SG_ESCAPE_TEXT, name, sizeof(name));
	if (!drawn_type(light->mType)) {
		sg_log(SG_LOG_INFO,
		       "'%s': light '%s' is of a kind libsg has not (assimp's %d): left out",
		       im->shown, name, (int)light->mType);
		return SG_OK;
	}
	size_t at = sg_import_find_node(im, light->mName.data);
	if (at == SIZE_MAX) {
		sg_log(SG_LOG_INFO, "'%s': no node named as light '%s': it is put under the root",
		       im->shown, name);
		at = 0;
	}
	sg_node parent = im->plan[at].node;
	float matrix[16];
	bool placed = frame(light->mPosition, light->mDirection, light->mUp, matrix);
	for (int i = 0; i < 16; i++)
		if (!isfinite(matrix[i]))
			return sg_fail(SG_ERR_FORMAT,
			               "'%s': light '%s': its position, direction or up vector has NaN or "
			               "infinite components",
			               im->shown, name);
	if (placed) {
		sg_node placed = sg_node_new_transform(
		    im->scene,
		    &(struct sg_transform_desc){.name = light->mName.data, .matrix = matrix});
		if (!placed.generation)
			return sg_fail_prefix(sg_import_failure(),
			                      "importing '%s': light '%s': ", im->shown, name);
		sg_result result = sg_node_add_child(im->scene, parent, placed);
		if (result) {
			sg_node_destroy(im->scene, placed);
			return sg_fail_prefix(result, "importing '%s': light '%s': ", im->shown,
			                      name);
		}
		im->info.transforms++;
		im->info.nodes++;
		parent = placed;
	}
	struct sg_light_desc desc;
	describe(light, &desc);
	sg_node node = sg_node_new_light(im->scene, &desc);
	if (!node.generation)
		return sg_fail_prefix(sg_import_failure(),
		                      "importing '%s': light '%s': ", im->shown, name);
	sg_result result = sg_node_add_child(im->scene, parent, node);
	if (result) {
		sg_node_destroy(im->scene, node);
		return sg_fail_prefix(result, "importing '%s': light '%s': ", im->shown, name);
	}
	im->info.lights++;
	im->info.nodes++;
	return SG_OK;
}

sg_result sg_import_build_lights(struct sg_import *im)
{
	for (unsigned i = 0; i < im->ai->mNumLights; i++) {
		if (!im->ai->mLights[i])
			continue;
		sg_result result = add_light(im, im->ai->mLights[i]);
		if (result)
			return result;
	}
	return SG_OK;
}

static void report_camera(const struct sg_import *im, const struct aiCamera *camera,
                          struct sg_import_camera *out)
{
	/* cut whole characters only */
	size_t length = strnlen(camera->mName.data, sizeof(out->name) - 1);
	if (length == sizeof(out->name) - 1)
		while (length > 0 && ((unsigned char)camera->mName.data[length] & 0xc0) == 0x80)
			length--;
	memcpy(out->name, camera->mName.data, length);
	out->name[length] = '\0';
	float aspect = camera->mAspect > 0 && isfinite(camera->mAspect) ? camera->mAspect : 0;
	out->aspect = aspect;
	out->znear = camera->mClipPlaneNear;
	out->zfar = camera->mClipPlaneFar;
	if (camera->mOrthographicWidth > 0) {
		/* assimp 5.2's glTF importer: xmag, and xmag / ymag as the aspect */
		out->orthographic = true;
		out->xmag = camera->mOrthographicWidth;
		out->ymag = aspect > 0 ? out->xmag / aspect : out->xmag;
	} else {
		/* assimp 5.2's glTF importer keeps yfov times the aspect ratio (1
		 * where the file gives none) as the horizontal field of view */
		out->yfov = camera->mHorizontalFOV / (aspect > 0 ? aspect : 1);
	}
	size_t at = sg_import_find_node(im, camera->mName.data);
	if (at == SIZE_MAX)
		at = 0;
	/* A glTF camera sits at its node's origin looking along -Z; assimp 5.2's
	 * glTF importer copies the node's translation into mPosition as well,
	 * which would count it twice. */
	float local[16];
	frame(camera->mPosition, camera->mLookAt, camera->mUp, local);
	if (im->gltf)
		memcpy(out->world, im->plan[at].world, sizeof(out->world));
	else
		sg_import_mat4_mul(im->plan[at].world, local, out->world);
}

void sg_import_cameras(struct sg_import *im)
{
	im->info.camera_count = im->ai->mNumCameras;
	for (unsigned i = 0; i < im->ai->mNumCameras && i < SG_IMPORT_MAX_CAMERAS; i++)
		if (im->ai->mCameras[i])
			report_camera(im, im->ai->mCameras[i], &im->info.cameras[i]);
}
