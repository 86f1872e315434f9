/* Internal: which scene ids are alive, for the renderers' GL caches, which
 * keep copies of a scene's textures and meshes after it is gone otherwise. */
#ifndef SG_GRAPH_SCENE_LIVE_H
#define SG_GRAPH_SCENE_LIVE_H

#include <stdbool.h>
#include <stdint.h>

/* Changes whenever a scene is destroyed: a cache asks sg_scene_id_live()
 * about its entries only when this moved. Thread-safe. */
uint64_t sg_scene_destroyed_count(void);
/* True while a scene with this id exists. Thread-safe. */
bool sg_scene_id_live(uint32_t id);

#endif
