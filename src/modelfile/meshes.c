/* An aiMesh of triangles as a libsg 3D mesh, made once however many nodes
 * draw it. */
#include "import_internal.h"

#include <math.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/escape.h"

/* Positions and normals go to libsg as assimp holds them. */
_Static_assert(sizeof(struct aiVector3D) == 3 * sizeof(float),
               "assimp built with double precision (ASSIMP_DOUBLE_PRECISION)");

bool sg_import_mesh_drawn(const struct aiMesh *mesh)
{
	return mesh && mesh->mVertices && mesh->mNumVertices > 0 && mesh->mFaces &&
	       (mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE) &&
	       sg_import_mesh_triangles(mesh) > 0;
}

size_t sg_import_mesh_triangles(const struct aiMesh *mesh)
{
	size_t triangles = 0;
	for (unsigned i = 0; mesh->mFaces && i < mesh->mNumFaces; i++)
		triangles += mesh->mFaces[i].mNumIndices == 3;
	return triangles;
}

/* Within [0, 1] as libsg wants colours; NaN becomes 0. */
static float unit(float value)
{
	return value > 0 ? (value < 1 ? value : 1) : 0;
}

static float *uv_pairs(const struct aiVector3D *uvw, size_t count)
{
	float *uv = sg_realloc_array(NULL, count, 2 * sizeof(float));
	for (size_t i = 0; uv && i < count; i++) {
		uv[2 * i] = uvw[i].x;
		uv[2 * i + 1] = uvw[i].y;
	}
	return uv;
}

static float *rgba(const struct aiColor4D *colors, size_t count)
{
	float *out = sg_realloc_array(NULL, count, 4 * sizeof(float));
	for (size_t i = 0; out && i < count; i++) {
		out[4 * i] = unit(colors[i].r);
		out[4 * i + 1] = unit(colors[i].g);
		out[4 * i + 2] = unit(colors[i].b);
		out[4 * i + 3] = unit(colors[i].a);
	}
	return out;
}

/* glTF's TANGENT w: the bitangent's side, which assimp turned into
 * bitangents (cross(normal, tangent) * w). */
static float *tangents_with_sign(const struct aiMesh *mesh)
{
	size_t count = mesh->mNumVertices;
	float *out = sg_realloc_array(NULL, count, 4 * sizeof(float));
	for (size_t i = 0; out && i < count; i++) {
		struct aiVector3D t = mesh->mTangents[i];
		float sign = 1;
		if (mesh->mNormals && mesh->mBitangents) {
			struct aiVector3D n = mesh->mNormals[i], b = mesh->mBitangents[i];
			float cx = n.y * t.z - n.z * t.y, cy = n.z * t.x - n.x * t.z,
			      cz = n.x * t.y - n.y * t.x;
			sign = cx * b.x + cy * b.y + cz * b.z < 0 ? -1 : 1;
		}
		out[4 * i] = t.x;
		out[4 * i + 1] = t.y;
		out[4 * i + 2] = t.z;
		out[4 * i + 3] = sign;
	}
	return out;
}

static uint32_t *triangle_indices(const struct aiMesh *mesh, size_t triangles)
{
	uint32_t *indices = sg_realloc_array(NULL, triangles, 3 * sizeof(uint32_t));
	size_t n = 0;
	for (unsigned i = 0; indices && i < mesh->mNumFaces; i++) {
		const struct aiFace *face = &mesh->mFaces[i];
		if (face->mNumIndices != 3)
			continue; /* a point or line left in a mixed mesh */
		memcpy(&indices[n], face->mIndices, 3 * sizeof(uint32_t));
		n += 3;
	}
	return indices;
}

static void box_of(const struct aiMesh *mesh, float box[6])
{
	for (unsigned i = 0; i < mesh->mNumVertices; i++) {
		const float p[3] = {mesh->mVertices[i].x, mesh->mVertices[i].y,
		                    mesh->mVertices[i].z};
		for (int axis = 0; axis < 3; axis++) {
			if (i == 0 || p[axis] < box[axis])
				box[axis] = p[axis];
			if (i == 0 || p[axis] > box[3 + axis])
				box[3 + axis] = p[axis];
		}
	}
}

/* The first of count vectors with a NaN or infinite component, or count. */
static size_t first_not_finite(const struct aiVector3D *v, size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (!isfinite(v[i].x) || !isfinite(v[i].y) || !isfinite(v[i].z))
			return i;
	return count;
}

/* A NaN or infinite position, normal, texture coordinate or tangent is the
 * file's fault (a malformed file, SG_ERR_FORMAT), not a bad argument of the
 * caller's, which sg_mesh_create_3d would call it. */
static sg_result check_finite(const struct sg_import *im, const struct aiMesh *mesh)
{
	size_t count = mesh->mNumVertices;
	const struct {
		const char *what;
		const struct aiVector3D *values;
	} arrays[] = {{"position", mesh->mVertices},
	              {"normal", mesh->mNormals},
	              {"texture coordinate (set 0)", mesh->mTextureCoords[0]},
	              {"texture coordinate (set 1)", mesh->mTextureCoords[1]},
	              {"tangent", mesh->mTangents}};
	for (size_t a = 0; a < sizeof(arrays) / sizeof(arrays[0]); a++) {
		size_t i = arrays[a].values ? first_not_finite(arrays[a].values, count) : count;
		if (i == count)
			continue;
		char name[128];
		sg_escape(mesh->mName.data, SG_ESCAPE_TEXT, name, sizeof(name));
		return sg_fail(SG_ERR_FORMAT, "'%s': mesh '%s': %s %zu is NaN or infinite",
		               im->shown, name, arrays[a].what, i);
	}
	return SG_OK;
}

sg_result sg_import_mesh(struct sg_import *im, unsigned index, sg_mesh *out)
{
	if (im->meshes[index].generation) {
		*out = im->meshes[index];
		return SG_OK;
	}
	const struct aiMesh *mesh = im->ai->mMeshes[index];
	sg_result checked = check_finite(im, mesh);
	if (checked)
		return checked;
	size_t count = mesh->mNumVertices, triangles = sg_import_mesh_triangles(mesh);
	float *uv0 = NULL, *uv1 = NULL, *colors = NULL, *tangents = NULL;
	uint32_t *indices = triangle_indices(mesh, triangles);
	if (mesh->mTextureCoords[0])
		uv0 = uv_pairs(mesh->mTextureCoords[0], count);
	if (mesh->mTextureCoords[1])
		uv1 = uv_pairs(mesh->mTextureCoords[1], count);
	if (mesh->mColors[0])
		colors = rgba(mesh->mColors[0], count);
	if (mesh->mTangents)
		tangents = tangents_with_sign(mesh);
	sg_result result = SG_OK;
	if (!indices || (mesh->mTextureCoords[0] && !uv0) || (mesh->mTextureCoords[1] && !uv1) ||
	    (mesh->mColors[0] && !colors) || (mesh->mTangents && !tangents)) {
		result =
		    sg_fail(SG_ERR_NO_MEMORY, "out of memory for a mesh of %zu vertices in '%s'",
		            count, im->shown);
		goto done;
	}
	sg_mesh made = sg_mesh_create_3d(
	    im->scene, &(struct sg_mesh3d_desc){
	                   .vertex_count = count,
	                   .positions = &mesh->mVertices[0].x,
	                   .normals = mesh->mNormals ? &mesh->mNormals[0].x : NULL,
	                   .uv0 = uv0,
	                   .uv1 = uv1,
	                   .colors = colors,
	                   .tangents = tangents,
	                   .indices = indices,
	                   .index_type = SG_INDEX_U32,
	                   .index_count = 3 * triangles,
	                   .normals_mode = SG_NORMALS_AUTO,
	               });
	if (!made.generation) {
		char name[128];
		sg_escape(mesh->mName.data, SG_ESCAPE_TEXT, name, sizeof(name));
		result = sg_fail_prefix(sg_import_failure(),
		                        "importing '%s': mesh '%s': ", im->shown, name);
		goto done;
	}
	im->meshes[index] = made;
	box_of(mesh, im->mesh_bounds[index]);
	im->info.meshes++;
	im->info.vertices += count;
	im->info.triangles += triangles;
	*out = made;
done:
	sg_free(uv0);
	sg_free(uv1);
	sg_free(colors);
	sg_free(tangents);
	sg_free(indices);
	return result;
}
