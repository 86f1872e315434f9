/* Internal: what a renderer reads of a scene, and nothing more: the versions
 * its caches compare, the resources a draw list names by pool index, and the
 * matrix of a model. src/gl/ reads the scene through these alone, so that
 * the layout of the pools (scene_internal.h) may change under it; they are
 * inline because the expanded path calls them for every draw of a frame. */
#ifndef SG_GRAPH_SCENE_VIEW_H
#define SG_GRAPH_SCENE_VIEW_H

#include "scene_internal.h"

/* The edit counters of a scene, taken together: a cache made from the scene
 * is current while the counters it depends on are those it was made at. */
struct sg_scene_versions {
	uint32_t scene;           /* the scene's id: ids are never reused */
	uint64_t structure;       /* tree shape, models, resources (created or destroyed) */
	uint64_t transform;       /* local matrices */
	uint64_t texture_updates; /* sg_texture_update()s of any texture */
	uint32_t texture_slots;   /* texture pool indices handed out so far: draws' are below */
	uint32_t mesh_slots;      /* the same for meshes */
};

static inline struct sg_scene_versions sg_scene_versions(const struct sg_scene *scene)
{
	return (struct sg_scene_versions){scene->id,
	                                  scene->structure_version,
	                                  scene->transform_version,
	                                  scene->texture_updates,
	                                  scene->texture_pool.used,
	                                  scene->mesh_pool.used};
}

/* The texture or mesh in pool slot index, which a draw of a current list
 * names (struct sg_draw): live, since the traversal refuses stale ones. */
static inline const struct sg_texture_data *sg_scene_texture_slot(const struct sg_scene *scene,
                                                                  uint32_t index)
{
	return &scene->textures[index];
}
static inline const struct sg_mesh_data *sg_scene_mesh_slot(const struct sg_scene *scene,
                                                            uint32_t index)
{
	return &scene->meshes[index];
}

/* The generation of slot index: a copy made of the resource at this
 * generation is of the resource there now. */
static inline uint32_t sg_scene_texture_generation(const struct sg_scene *scene, uint32_t index)
{
	return scene->texture_pool.generation[index];
}
static inline uint32_t sg_scene_mesh_generation(const struct sg_scene *scene, uint32_t index)
{
	return scene->mesh_pool.generation[index];
}

/* Whether slot index still holds the resource of that generation (false once
 * it is destroyed, and for an index never handed out). */
static inline bool sg_scene_texture_live(const struct sg_scene *scene, uint32_t index,
                                         uint32_t generation)
{
	return sg_scene_texture(scene, (sg_texture){scene->id, index, generation}) != NULL;
}
static inline bool sg_scene_mesh_live(const struct sg_scene *scene, uint32_t index,
                                      uint32_t generation)
{
	return sg_scene_mesh(scene, (sg_mesh){scene->id, index, generation}) != NULL;
}

/* The material in pool slot index, which a 3D draw names (live, since the
 * views' walk refuses stale ones). */
static inline const struct sg_material_desc *sg_scene_material_slot(const struct sg_scene *scene,
                                                                    uint32_t index)
{
	return &scene->materials[index].desc;
}

/* sg_draw_model_matrix() (src/traverse/traverse.h) gives a draw's clip matrix. */

#endif
