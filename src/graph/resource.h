/* Internal: resource helpers of resource.c for the graph's other resource
 * makers (dmabuf.c). */
#ifndef SG_GRAPH_RESOURCE_H
#define SG_GRAPH_RESOURCE_H

#include <stdbool.h>
#include <stdint.h>

struct sg_scene;

/* A free texture slot of the scene (the arrays grown as needed): false, with
 * a message, when out of memory. The caller fills scene->textures[*index]. */
bool sg_scene_alloc_texture(struct sg_scene *scene, uint32_t *index);

/* The same for a mesh slot; the caller fills scene->meshes[*index]. */
bool sg_scene_alloc_mesh(struct sg_scene *scene, uint32_t *index);
struct sg_mesh_solid;
void sg_mesh_solid_free(struct sg_mesh_solid *solid);

#endif
