/* The node index table (index_map.h): linear probing, deletion by moving
 * later entries of the same run back, so that no tombstones accumulate and
 * a probe may stop at the first empty slot. */
#include "index_map.h"

#include "../base/alloc.h"

static uint32_t home(const struct sg_index_map *map, uint32_t key)
{
	return (key * 2654435761u) & (map->capacity - 1); /* Fibonacci hashing */
}

/* The slot of key, or capacity when it has none. */
static uint32_t slot_of(const struct sg_index_map *map, uint32_t key)
{
	if (!map->capacity)
		return 0;
	for (uint32_t s = home(map, key);; s = (s + 1) & (map->capacity - 1)) {
		if (map->keys[s] == key)
			return s;
		if (!map->keys[s])
			return map->capacity;
	}
}

void sg_index_map_put(struct sg_index_map *map, uint32_t key, void *value)
{
	uint32_t s = home(map, key);
	while (map->keys[s])
		s = (s + 1) & (map->capacity - 1);
	map->keys[s] = key;
	map->values[s] = value;
	map->count++;
}

bool sg_index_map_reserve(struct sg_index_map *map)
{
	/* at most three quarters full */
	if ((uint64_t)(map->count + 1) * 4 <= (uint64_t)map->capacity * 3)
		return true;
	uint32_t capacity = map->capacity ? map->capacity * 2 : 16;
	if (capacity < map->capacity)
		return false;
	uint32_t *keys = sg_calloc(capacity, sizeof(*keys));
	void **values = sg_calloc(capacity, sizeof(*values));
	if (!keys || !values) {
		sg_free(keys);
		sg_free(values);
		return false;
	}
	struct sg_index_map old = *map;
	*map = (struct sg_index_map){keys, values, capacity, 0};
	for (uint32_t s = 0; s < old.capacity; s++)
		if (old.keys[s])
			sg_index_map_put(map, old.keys[s], old.values[s]);
	sg_free(old.keys);
	sg_free(old.values);
	return true;
}

void *sg_index_map_get(const struct sg_index_map *map, uint32_t key)
{
	uint32_t s = slot_of(map, key);
	return s < map->capacity ? map->values[s] : NULL;
}

void *sg_index_map_take(struct sg_index_map *map, uint32_t key)
{
	uint32_t mask = map->capacity - 1, hole = slot_of(map, key);
	if (hole == map->capacity)
		return NULL;
	void *value = map->values[hole];
	map->count--;
	/* Move back each later entry of the run that may not stay behind the
	 * hole: one whose home is not cyclically within (hole, s]. */
	for (uint32_t s = (hole + 1) & mask; map->keys[s]; s = (s + 1) & mask) {
		uint32_t h = home(map, map->keys[s]);
		bool stays = hole <= s ? (hole < h && h <= s) : (hole < h || h <= s);
		if (stays)
			continue;
		map->keys[hole] = map->keys[s];
		map->values[hole] = map->values[s];
		hole = s;
	}
	map->keys[hole] = 0;
	map->values[hole] = NULL;
	return value;
}

void sg_index_map_finish(struct sg_index_map *map, void (*free_value)(void *))
{
	if (free_value)
		for (uint32_t s = 0; s < map->capacity; s++)
			if (map->keys[s])
				free_value(map->values[s]);
	sg_free(map->keys);
	sg_free(map->values);
	*map = (struct sg_index_map){0};
}
