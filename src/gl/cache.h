/* Internal: GL copies of scene textures and meshes. */
#ifndef SG_GL_CACHE_H
#define SG_GL_CACHE_H

#include "drawer.h"

/* Texel uploads (glTexImage2D and glTexSubImage2D of scene textures) made by
 * the calling thread so far: calls, texel bytes, and the uploads of whole
 * textures among them. Thread-local, so that a test or benchmark compares
 * before and after a render of its own without timing it. */
struct sg_gl_upload_stats {
	uint64_t calls, bytes, whole;
};
struct sg_gl_upload_stats sg_gl_upload_stats(void);

/* The GL texture of the scene's texture index, uploaded whole the first time,
 * then only the rectangles of its updates since (see SG_TEXTURE_UPDATE_HISTORY):
 * the upload binds it to GL_TEXTURE_2D. */
sg_result sg_gl_cache_texture(struct sg_gl_cache *cache, const struct sg_scene *scene,
                              uint32_t index, GLint max_size, GLuint *name);
/* The same with straight alpha, for materials (docs/3d.md): a copy of its
 * own for a texture with translucent texels; the one above for an opaque
 * texture (the same texels) and for a dma-buf, whose texels stay
 * premultiplied. */
sg_result sg_gl_cache_texture_straight(struct sg_gl_cache *cache, const struct sg_scene *scene,
                                       uint32_t index, GLint max_size, GLuint *name);
/* Uploads the updates of the scene's texture index that the GL copy lacks, if
 * there is a current copy; does nothing otherwise (the first use uploads it). */
sg_result sg_gl_cache_texture_updates(struct sg_gl_cache *cache, const struct sg_scene *scene,
                                      uint32_t index);
sg_result sg_gl_cache_mesh(struct sg_gl_cache *cache, const struct sg_scene *scene,
                           uint32_t index, const struct sg_gl_object **mesh);
/* The same for a cache of meshes alone. */
void sg_gl_cache_prune_meshes(struct sg_gl_cache *meshes, const struct sg_scene *scene);
/* The same laid out for the 3D views (material_solid.vert), in a cache of its own. */
sg_result sg_gl_cache_solid(struct sg_gl_cache *cache, const struct sg_scene *scene,
                            uint32_t index, const struct sg_gl_object **mesh);
/* Deletes the GL copies of the scene's destroyed textures and meshes. */
void sg_gl_cache_prune(struct sg_gl_cache *textures, struct sg_gl_cache *meshes,
                       const struct sg_scene *scene);
/* Deletes the GL copies of scenes destroyed since the last call (any scene
 * but this one, which sg_gl_cache_prune() looks after). */
void sg_gl_cache_sweep_destroyed(struct sg_gl_cache *textures, struct sg_gl_cache *meshes,
                                 const struct sg_scene *scene);
/* Deletes every cached object; the context must be current. */
void sg_gl_cache_finish(struct sg_gl_cache *textures, struct sg_gl_cache *meshes);

#endif
