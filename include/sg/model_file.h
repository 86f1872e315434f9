/* libsg: model files (glTF 2.0, OBJ, STL, PLY, ... whatever assimp reads)
 * imported into a scene as transforms, models with 3D meshes and materials,
 * and lights (docs/model-import.md).
 *
 * Where libsg is built without assimp (meson option 'import'), every call
 * fails with SG_ERR_UNSUPPORTED; sg_model_import_available() says which. */
#ifndef SG_MODEL_FILE_H
#define SG_MODEL_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include <sg/camera.h>
#include <sg/error.h>
#include <sg/export.h>
#include <sg/scene.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What one import may cost; a field left 0 takes its default. A file over a
 * budget is refused with SG_ERR_LIMIT, naming the budget, the value and the
 * field that raises it, before the scene is touched. */
struct sg_import_budget {
	/* The bytes of the model file and of every file it reads (buffers,
	 * material libraries, texture images), each file counted once; checked
	 * before each file is read. Default 256 MiB. */
	size_t max_file_bytes;
	/* Vertices and triangles of the meshes made (a mesh drawn by several
	 * models counts once). Default 16 Mi each. */
	size_t max_vertices;
	size_t max_triangles;
	/* Decoded RGBA8 bytes of all textures made, checked from each image's
	 * header before it is decoded. Default 512 MiB. */
	size_t max_texture_bytes;
	/* Nodes made (transforms, models, lights). Default 100000. */
	size_t max_nodes;
	/* Nesting of the file's node tree, its root at depth 1. Default 64. */
	size_t max_depth;
};

struct sg_import_desc {
	const char *path; /* required */
	/* The new subtree is appended under it; SG_NODE_NONE: the scene's root. */
	sg_node parent;
	const struct sg_import_budget *budget; /* NULL: every default */
	/* Files the model names (buffers, material libraries, textures) must lie
	 * in the model file's folder or below it, symlinks resolved, unless this
	 * is set; one that does not is refused with SG_ERR_IO naming it. */
	bool allow_outside_folder;
};

/* A camera of the file. Cameras are reported, not made into nodes. */
struct sg_import_camera {
	char name[64]; /* cut to 63 bytes */
	bool orthographic;
	float yfov;       /* perspective: vertical field of view, radians */
	float aspect;     /* width / height; 0: the file does not say */
	float xmag, ymag; /* orthographic: half the width and height of the view */
	float znear, zfar;
	/* The camera's frame in the parent's coordinates (the root's matrix
	 * included): it looks along its -Z axis, +Y up, as in glTF. Column-major. */
	float world[16];
};

#define SG_IMPORT_MAX_CAMERAS 8

struct sg_import_info {
	sg_node root;               /* the subtree made: a transform with the file's root matrix */
	size_t nodes;               /* nodes made, root included: transforms, models and lights */
	size_t transforms;          /* one per node of the file, one per light set off its node */
	size_t models;              /* one per mesh a node of the file draws */
	size_t meshes;              /* sg meshes made: one per triangle mesh of the file drawn */
	size_t vertices, triangles; /* of those meshes, each counted once */
	size_t materials;           /* sg materials made: one per material of the file drawn */
	size_t textures;            /* sg textures made: one per image and sampler used */
	size_t lights;
	/* Meshes of points or lines, which libsg does not draw: left out. */
	size_t skipped_meshes;
	size_t camera_count; /* all the file has; the first SG_IMPORT_MAX_CAMERAS are in cameras */
	struct sg_import_camera cameras[SG_IMPORT_MAX_CAMERAS];
	/* min x, y, z then max x, y, z of the models' boxes in the parent's
	 * coordinates (the root's matrix included): each model's mesh box placed
	 * by its matrices, so exact where they only translate, scale and turn by
	 * right angles, larger otherwise. All 0 without a vertex. */
	float bounds[6];
};

/* True where libsg was built with model import. */
SG_API bool sg_model_import_available(void);

/* Reads desc->path with assimp and appends what it holds under desc->parent:
 * a transform per node of the file (its matrix, its name), under it a model
 * per mesh the node draws (a mesh of sg_mesh_create_3d, shared by every
 * model drawing it, and a material of sg_material_create, shared likewise),
 * and a light (sg_node_new_light) under the node a light of the file is
 * named after. Texture coordinates keep libsg's convention, (0, 0) the
 * image's top-left texel, as glTF's. Fills *info (optional) on success.
 *
 * Fails with SG_ERR_IO (a file cannot be read, or lies outside the model's
 * folder), SG_ERR_FORMAT (assimp cannot read it, or a texture is no PNG or
 * JPEG), SG_ERR_LIMIT (a budget), SG_ERR_INVALID_ARGUMENT (bad desc, or data
 * libsg refuses, such as a coordinate not finite) or SG_ERR_NO_MEMORY; the
 * message names the file and what is wrong. On failure the scene is as it
 * was: no node, mesh, material or texture of the import is left.
 *
 * Imports on several threads (each on its own scene) are safe; assimp's part
 * of them runs one at a time. */
SG_API sg_result sg_scene_import_sized(struct sg_scene *scene, const struct sg_import_desc *desc,
                                       struct sg_import_info *info, size_t desc_size,
                                       size_t info_size);
#define sg_scene_import(...)                                                                       \
	sg_scene_import_sized(__VA_ARGS__, sizeof(struct sg_import_desc),                          \
	                      sizeof(struct sg_import_info))

/* A libsg camera that sees what the file's camera sees: the projection from
 * yfov and aspect (the argument when above 0, else the file's, else 1), or
 * from xmag and ymag, znear and zfar; the view the inverse of its world
 * matrix. For the picture to match, the models must be drawn in the same
 * coordinates as camera->world, that is under the import's parent. */
SG_API void sg_import_camera_to_sg_camera(const struct sg_import_camera *camera, float aspect,
                                          struct sg_camera *out);

#ifdef __cplusplus
}
#endif

#endif
