/* The node names table (names.h): linear probing, deletion by moving later
 * entries of the same run back, so that no tombstones accumulate. */
#include "names.h"

#include "alloc.h"

static uint32_t home(const struct sg_names *names, uint32_t index)
{
	return (index * 2654435761u) & (names->capacity - 1); /* Fibonacci hashing */
}

/* The slot of index, or capacity when it has none: a probe ends at the
 * first empty slot, which deletion keeps true (see sg_names_drop). */
static uint32_t slot_of(const struct sg_names *names, uint32_t index)
{
	if (!names->capacity)
		return 0;
	for (uint32_t s = home(names, index);; s = (s + 1) & (names->capacity - 1)) {
		if (names->keys[s] == index)
			return s;
		if (!names->keys[s])
			return names->capacity;
	}
}

static void insert(struct sg_names *names, uint32_t index, char *name)
{
	uint32_t s = home(names, index);
	while (names->keys[s])
		s = (s + 1) & (names->capacity - 1);
	names->keys[s] = index;
	names->values[s] = name;
	names->count++;
}

bool sg_names_reserve(struct sg_names *names)
{
	/* at most three quarters full */
	if ((uint64_t)(names->count + 1) * 4 <= (uint64_t)names->capacity * 3)
		return true;
	uint32_t capacity = names->capacity ? names->capacity * 2 : 16;
	if (capacity < names->capacity)
		return false;
	uint32_t *keys = sg_calloc(capacity, sizeof(*keys));
	char **values = sg_calloc(capacity, sizeof(*values));
	if (!keys || !values) {
		sg_free(keys);
		sg_free(values);
		return false;
	}
	struct sg_names old = *names;
	*names = (struct sg_names){keys, values, capacity, 0};
	for (uint32_t s = 0; s < old.capacity; s++)
		if (old.keys[s])
			insert(names, old.keys[s], old.values[s]);
	sg_free(old.keys);
	sg_free(old.values);
	return true;
}

void sg_names_put(struct sg_names *names, uint32_t index, char *name)
{
	insert(names, index, name);
}

char *sg_names_get(const struct sg_names *names, uint32_t index)
{
	uint32_t s = slot_of(names, index);
	return s < names->capacity ? names->values[s] : NULL;
}

void sg_names_drop(struct sg_names *names, uint32_t index)
{
	uint32_t mask = names->capacity - 1, hole = slot_of(names, index);
	if (hole == names->capacity)
		return;
	sg_free(names->values[hole]);
	names->count--;
	/* Move back each later entry of the run that may not stay behind the
	 * hole: one whose home is not cyclically within (hole, s]. */
	for (uint32_t s = (hole + 1) & mask; names->keys[s]; s = (s + 1) & mask) {
		uint32_t h = home(names, names->keys[s]);
		bool stays = hole <= s ? (hole < h && h <= s) : (hole < h || h <= s);
		if (stays)
			continue;
		names->keys[hole] = names->keys[s];
		names->values[hole] = names->values[s];
		hole = s;
	}
	names->keys[hole] = 0;
	names->values[hole] = NULL;
}

void sg_names_finish(struct sg_names *names)
{
	for (uint32_t s = 0; s < names->capacity; s++)
		sg_free(names->values[s]);
	sg_free(names->keys);
	sg_free(names->values);
	*names = (struct sg_names){0};
}
