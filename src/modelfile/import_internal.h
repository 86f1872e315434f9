/* Internal: one import in progress (sg_scene_import), shared by the files of
 * the model-file layer. An import reads the file with assimp, plans what it
 * will make (nodes.c: counts checked against the budget, nothing made), then
 * makes it; whatever fails, everything made is destroyed (import.c). */
#ifndef SG_MODELFILE_IMPORT_INTERNAL_H
#define SG_MODELFILE_IMPORT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <assimp/scene.h>
#include <sg/model_file.h>
#include <sg/scene3d.h>

#include "file_io.h"

/* A node of the file in the order the import makes them: parents first. */
struct sg_plan_node {
	const struct aiNode *source;
	size_t parent;   /* index in the plan; SIZE_MAX for the root */
	size_t depth;    /* the root's is 1 */
	float world[16]; /* in the parent's coordinates (the root's matrix included) */
	sg_node node;    /* the transform made for it */
};

/* A texture made: an image (embedded index or resolved path); its samplers
 * are the material slots'. */
struct sg_import_texture {
	int embedded; /* index in aiScene::mTextures, or -1 */
	char *path;   /* else the image file's path (sg_malloc) */
	sg_texture texture;
};

struct sg_import {
	struct sg_scene *scene;
	const char *path; /* as given */
	char shown[256];  /* the path escaped, for messages */
	char *folder;     /* the model file's folder as given, for its relative names */
	struct sg_import_budget budget; /* every field set */
	struct sg_file_reads reads;
	const struct aiScene *ai;
	bool gltf; /* read by assimp's glTF 2.0 importer */

	struct sg_plan_node *plan;
	size_t plan_count, plan_capacity;
	size_t *by_name;         /* plan indices sorted by name, then by index */
	sg_mesh *meshes;         /* one per aiMesh: SG_MESH_NONE until made */
	float (*mesh_bounds)[6]; /* one per aiMesh: its model-space box once made */
	sg_material *materials;  /* one per aiMaterial: SG_MATERIAL_NONE until made */
	struct sg_import_texture *textures;
	size_t texture_count, texture_capacity;
	uint64_t texture_bytes; /* decoded RGBA8 bytes of the textures made */

	sg_node root; /* the subtree made, detached until it is complete */
	struct sg_import_info info;
};

/* budget.c: the defaults filled in. */
void sg_import_budget_resolve(const struct sg_import_budget *given, struct sg_import_budget *out);
/* SG_ERR_LIMIT: "'file': <what> <value>, more than the budget's <limit>
 * (struct sg_import_budget.<field>)". */
sg_result sg_import_over_budget(const struct sg_import *im, const char *what, uint64_t value,
                                uint64_t limit, const char *field);

/* read.c: im->ai read by assimp through im->reads, or a message naming the
 * file and assimp's reason. im->ai is released by sg_import_release(). */
sg_result sg_import_read(struct sg_import *im);
void sg_import_release(struct sg_import *im);

/* nodes.c: the plan (every node's place, depth and matrix), the budget's
 * counts checked before anything is made; then the transforms and models. */
sg_result sg_import_plan(struct sg_import *im);
sg_result sg_import_build_nodes(struct sg_import *im);
/* The plan index of the first node named name (the node lights and cameras
 * belong to, by assimp's convention), or SIZE_MAX. */
size_t sg_import_find_node(const struct sg_import *im, const char *name);

/* meshes.c: the sg mesh of aiMesh index, made once. */
sg_result sg_import_mesh(struct sg_import *im, unsigned index, sg_mesh *mesh);
/* Whether libsg draws aiMesh mesh (triangles), and its triangle count. */
bool sg_import_mesh_drawn(const struct aiMesh *mesh);
size_t sg_import_mesh_triangles(const struct aiMesh *mesh);

/* materials.c: the sg material of aiMaterial index, made once. */
sg_result sg_import_material(struct sg_import *im, unsigned index, sg_material *material);

/* textures.c: the texture a material names (assimp's "*N" for an embedded
 * image, else a file relative to the model's folder), made once per image. */
sg_result sg_import_texture(struct sg_import *im, const char *name, sg_texture *texture);

/* lights.c: a light node per aiLight, and the cameras into im->info. */
sg_result sg_import_build_lights(struct sg_import *im);
/* The nodes a light makes: 1, or 2 where it needs a transform of its own. */
size_t sg_import_light_nodes(const struct aiLight *light);
void sg_import_cameras(struct sg_import *im);

/* What a graph call that returned a none handle failed with (never SG_OK). */
sg_result sg_import_failure(void);

/* Column-major out = a * b (out may be a or b). */
void sg_import_mat4_mul(const float a[16], const float b[16], float out[16]);

#endif
