/* Internal: a table from node index to a pointer, for what few nodes of a
 * large scene have: names, text records. A pointer column would cost 8 bytes
 * of every node (18 MB of tree-1048576 for names alone); a node with an
 * entry carries a flag (SG_NODE_NAMED, SG_NODE_TEXT_RECORD) and its value
 * here, in an open-addressed table keyed by node index. */
#ifndef SG_GRAPH_INDEX_MAP_H
#define SG_GRAPH_INDEX_MAP_H

#include <stdbool.h>
#include <stdint.h>

struct sg_index_map {
	uint32_t *keys; /* node index, 0 for an empty slot */
	void **values;
	uint32_t capacity; /* a power of two, or 0 */
	uint32_t count;
};

/* Room for one more entry, so that the next sg_index_map_put cannot fail;
 * false when out of memory (the table is left as it was). */
bool sg_index_map_reserve(struct sg_index_map *map);
/* Stores value for key, which has no entry: sg_index_map_reserve first. */
void sg_index_map_put(struct sg_index_map *map, uint32_t key, void *value);
/* The value of key, or NULL. */
void *sg_index_map_get(const struct sg_index_map *map, uint32_t key);
/* Removes the entry of key and returns its value (NULL: none). */
void *sg_index_map_take(struct sg_index_map *map, uint32_t key);
/* Frees the table, and each value with free_value unless it is NULL. */
void sg_index_map_finish(struct sg_index_map *map, void (*free_value)(void *));

#endif
