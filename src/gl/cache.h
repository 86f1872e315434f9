/* Internal: GL copies of scene textures and meshes. */
#ifndef SG_GL_CACHE_H
#define SG_GL_CACHE_H

#include "gl_renderer.h"

sg_result sg_gl_cache_texture(struct sg_gl_cache *cache, const struct sg_scene *scene,
                              uint32_t index, GLint max_size, GLuint *name);
sg_result sg_gl_cache_mesh(struct sg_gl_cache *cache, const struct sg_scene *scene,
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
