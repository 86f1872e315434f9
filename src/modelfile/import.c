/* sg_scene_import: read, plan, make, and on any failure unmake. */
#include "import_internal.h"

#include <stdio.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/escape.h"
#include "../graph/node_kind.h"
#include "confine.h"
#include "../base/sized.h"

bool sg_model_import_available(void)
{
	return true;
}

sg_result sg_import_failure(void)
{
	sg_result result = sg_last_result();
	return result ? result : SG_ERR_INVALID_ARGUMENT;
}

/* The folder of the path as given: the names a model holds are relative to it. */
static char *folder_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return sg_strdup(".");
	size_t length = slash == path ? 1 : (size_t)(slash - path);
	char *folder = sg_malloc(length + 1);
	if (folder) {
		memcpy(folder, path, length);
		folder[length] = '\0';
	}
	return folder;
}

static sg_result check_desc(struct sg_scene *scene, const struct sg_import_desc *desc,
                            sg_node *parent)
{
	if (!scene || !desc || !desc->path)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_scene_import: %s is NULL",
		               !scene  ? "scene"
		               : !desc ? "desc"
		                       : "desc->path");
	char shown[256];
	sg_escape_path(desc->path, shown, sizeof(shown));
	if (!desc->path[0])
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_scene_import: the path is empty");
	*parent = desc->parent.generation ? desc->parent : sg_scene_root(scene);
	if (!sg_node_exists(scene, *parent))
		return sg_fail(SG_ERR_STALE_HANDLE,
		               "sg_scene_import '%s': the parent is no live node of the scene",
		               shown);
	const struct sg_node_kind_info *kind = sg_node_kind_info(sg_node_get_kind(scene, *parent));
	if (!kind->parent)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "sg_scene_import '%s': the parent, a %s, cannot have children", shown,
		               kind->name);
	return SG_OK;
}

static sg_result start(struct sg_import *im, const struct sg_import_desc *desc, char **resolved,
                       char **lexical)
{
	sg_import_budget_resolve(desc->budget, &im->budget);
	sg_escape_path(desc->path, im->shown, sizeof(im->shown));
	if (!(im->folder = folder_of(desc->path)))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory importing '%s'", im->shown);
	sg_result result = sg_confine_folder(desc->path, im->shown, resolved);
	if (result)
		return result;
	if (!(*lexical = sg_confine_lexical(im->folder)))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory importing '%s'", im->shown);
	im->reads = (struct sg_file_reads){
	    .model_path = desc->path,
	    .model_shown = im->shown,
	    .folder = desc->allow_outside_folder ? NULL : *resolved,
	    .lexical_folder = *lexical,
	    .max_bytes = im->budget.max_file_bytes,
	};
	return SG_OK;
}

static sg_result make(struct sg_import *im)
{
	const struct aiScene *ai = im->ai;
	size_t meshes = ai->mNumMeshes ? ai->mNumMeshes : 1;
	size_t materials = ai->mNumMaterials ? ai->mNumMaterials : 1;
	im->meshes = sg_calloc(meshes, sizeof(*im->meshes));
	im->mesh_bounds = sg_calloc(meshes, sizeof(*im->mesh_bounds));
	im->materials = sg_calloc(materials, sizeof(*im->materials));
	if (!im->meshes || !im->mesh_bounds || !im->materials)
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory importing '%s'", im->shown);
	sg_result result = sg_import_build_nodes(im);
	if (!result)
		result = sg_import_build_lights(im);
	if (!result)
		sg_import_cameras(im);
	return result;
}

/* Everything the import made, destroyed: the subtree (detached until the
 * end), then what its models used. */
static void unmake(struct sg_import *im)
{
	if (im->root.generation)
		sg_node_destroy(im->scene, im->root);
	for (size_t i = 0; im->materials && i < im->ai->mNumMaterials; i++)
		if (im->materials[i].generation)
			sg_material_destroy(im->scene, im->materials[i]);
	for (size_t i = 0; im->meshes && i < im->ai->mNumMeshes; i++)
		if (im->meshes[i].generation)
			sg_mesh_destroy(im->scene, im->meshes[i]);
	for (size_t i = 0; i < im->texture_count; i++)
		sg_texture_destroy(im->scene, im->textures[i].texture);
}

static void finish(struct sg_import *im)
{
	for (size_t i = 0; i < im->texture_count; i++)
		sg_free(im->textures[i].path);
	sg_free(im->textures);
	sg_free(im->meshes);
	sg_free(im->mesh_bounds);
	sg_free(im->materials);
	sg_free(im->by_name);
	sg_free(im->plan);
	sg_free(im->folder);
	/* assimp first: what it still holds open is closed by its release */
	sg_import_release(im);
	sg_file_reads_finish(&im->reads);
}

sg_result sg_scene_import_sized(struct sg_scene *scene, const struct sg_import_desc *desc,
                                struct sg_import_info *info, size_t desc_size, size_t info_size)
{
	struct sg_import_desc sized_desc;
	if (desc &&
	    !(desc = sg_sized_in(&sized_desc, sizeof sized_desc, desc, desc_size,
	                         SG_SIZE_THROUGH(struct sg_import_desc, allow_outside_folder),
	                         "sg_scene_import")))
		return sg_last_result();
	if (info && !sg_sized_out_fits(info_size, SG_SIZE_THROUGH(struct sg_import_info, bounds),
	                               "sg_scene_import"))
		return sg_last_result();
	sg_node parent;
	sg_result result = check_desc(scene, desc, &parent);
	if (result)
		return result;
	struct sg_import im = {.scene = scene, .path = desc->path};
	char *resolved = NULL, *lexical = NULL;
	if (!(result = start(&im, desc, &resolved, &lexical)) && !(result = sg_import_read(&im)) &&
	    !(result = sg_import_plan(&im)) && !(result = make(&im))) {
		result = sg_node_add_child(scene, parent, im.root);
		if (result)
			sg_fail_prefix(result, "importing '%s': ", im.shown);
	}
	if (result && im.ai) {
		/* the message outlives what unmaking may say */
		char message[1024];
		snprintf(message, sizeof(message), "%s", sg_last_error());
		unmake(&im);
		sg_fail(result, "%s", message);
	}
	if (!result) {
		im.info.root = im.root;
		if (info)
			sg_sized_out(info, info_size, &im.info, sizeof im.info);
	}
	finish(&im);
	sg_free(resolved);
	sg_free(lexical);
	return result;
}
