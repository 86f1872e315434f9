/* Reading a model file with assimp's C API. */
#include "import_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/postprocess.h>

#include "../base/error.h"
#include "../base/escape.h"

/* Triangulate: libsg draws triangles. SortByPType: a mesh mixing points,
 * lines and triangles becomes one mesh of each, so that the points and lines
 * are left out whole. FlipUVs: assimp turns every format's texture
 * coordinates to (0, 0) at the bottom-left (it flips glTF's); libsg's, as
 * glTF's, are at the top-left. ValidateDataStructure: indices past the
 * vertices and the like are refused before anything reads them. Nothing that
 * merges or splits vertices: what a file holds is what libsg gets. */
#define IMPORT_STEPS                                                                               \
	(aiProcess_Triangulate | aiProcess_SortByPType | aiProcess_FlipUVs |                       \
	 aiProcess_ValidateDataStructure)

/* assimp keeps the message of the last failed import in one global string
 * (aiGetErrorString), so imports take turns between the call and its read. */
static pthread_mutex_t assimp_lock = PTHREAD_MUTEX_INITIALIZER;

/* Which importer read the file, as assimp notes it in the scene's metadata
 * ("glTF2 Importer"): some of its conventions are its own (lights.c). */
static bool read_by_gltf_importer(const struct aiScene *ai)
{
	const struct aiMetadata *meta = ai->mMetaData;
	for (unsigned i = 0; meta && meta->mKeys && meta->mValues && i < meta->mNumProperties;
	     i++) {
		if (strcmp(meta->mKeys[i].data, "SourceAsset_Format") != 0 ||
		    meta->mValues[i].mType != AI_AISTRING || !meta->mValues[i].mData)
			continue;
		return strncmp(((const struct aiString *)meta->mValues[i].mData)->data, "glTF2",
		               5) == 0;
	}
	return false;
}

sg_result sg_import_read(struct sg_import *im)
{
	/* The model itself first, as any file it names: a regular file, under
	 * the byte budget, before assimp allocates anything for it. */
	int fd;
	uint64_t size;
	sg_result result = sg_file_reads_open(&im->reads, im->path, &fd, &size);
	if (result == SG_ERR_NOT_FOUND)
		return sg_fail(SG_ERR_IO, "cannot open '%s': No such file or directory", im->shown);
	if (result)
		return result;
	close(fd);
	if (size == 0)
		return sg_fail(SG_ERR_FORMAT, "'%s' is empty", im->shown);

	struct aiFileIO io;
	sg_file_reads_io(&im->reads, &io);
	struct aiPropertyStore *properties = aiCreatePropertyStore();
	if (!properties)
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory importing '%s'", im->shown);
	/* no bones drawn as meshes where a file has no mesh */
	aiSetImportPropertyInteger(properties, AI_CONFIG_IMPORT_NO_SKELETON_MESHES, 1);

	char message[512] = "";
	pthread_mutex_lock(&assimp_lock);
	im->ai = aiImportFileExWithProperties(im->path, IMPORT_STEPS, &io, properties);
	if (!im->ai) {
		const char *reason = aiGetErrorString();
		snprintf(message, sizeof(message), "%s",
		         reason && *reason ? reason : "unknown error");
	}
	pthread_mutex_unlock(&assimp_lock);
	aiReleasePropertyStore(properties);

	/* A file refused on the way (outside the folder, over the budget) fails
	 * the import even where assimp went on without it. */
	if (im->reads.refusal)
		return sg_fail(im->reads.refusal, "%s", im->reads.message);
	if (!im->ai) {
		char shown_reason[512];
		sg_escape(message, SG_ESCAPE_TEXT, shown_reason, sizeof(shown_reason));
		return sg_fail(SG_ERR_FORMAT, "cannot import '%s': assimp: %s", im->shown,
		               shown_reason);
	}
	if (!im->ai->mRootNode)
		return sg_fail(SG_ERR_FORMAT, "cannot import '%s': it has no node", im->shown);
	im->gltf = read_by_gltf_importer(im->ai);
	return SG_OK;
}

void sg_import_release(struct sg_import *im)
{
	aiReleaseImport(im->ai);
	im->ai = NULL;
}
