/* Internal: the GL copies of a scene's textures and meshes, kept per
 * renderer by pool index (cache.c fills them). */
#ifndef SG_GL_OBJECT_H
#define SG_GL_OBJECT_H

#include <GLES3/gl3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "import.h"

struct sg_gl_object {
	uint32_t scene, generation; /* which scene resource this GL object holds */
	GLuint name, buffer, index_buffer; /* texture, or vertex array + buffers */
	GLsizei count;
	bool indexed;
	size_t bytes; /* what the upload gave GL, for the cache's totals */
	uint64_t update_serial; /* textures: the texture's sg_texture_update()s it holds */
	/* imported textures: what sg_gl_import_ops.attach made, per plane */
	void *images[SG_GL_IMPORT_PLANES];
	GLuint chroma; /* NV12: the CbCr plane's texture (name holds Y); else 0 */
	/* textures with translucent texels: the copy with straight alpha that
	 * materials sample (cache.c), made at its first use, or 0; name is then
	 * 0 until something draws the premultiplied copy */
	GLuint straight;
	uint64_t straight_serial; /* the updates straight holds */
};

struct sg_gl_cache {
	struct sg_gl_object *objects; /* indexed by the resource's pool index */
	size_t capacity;
	size_t live, bytes;       /* GL objects held and the bytes given to GL */
	uint64_t swept_destroyed; /* sg_scene_destroyed_count() at the last sweep */
	uint8_t *scratch;         /* textures: premultiplied texels of an upload */
	size_t scratch_capacity;
	/* textures: how imported ones get their storage (src/gl/import.h); set
	 * by the renderer after sg_gl_drawer_init; NULL refuses them. */
	const struct sg_gl_import_ops *import;
};

#endif
