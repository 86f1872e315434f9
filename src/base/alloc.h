/* Internal: every allocation of the library goes through these, so that tests can
 * make the k-th one fail (sg_alloc_fail_at) and check that each failure is clean. */
#ifndef SG_BASE_ALLOC_H
#define SG_BASE_ALLOC_H

#include <stdbool.h>
#include <stddef.h>

void *sg_malloc(size_t size);
void *sg_calloc(size_t count, size_t size);
/* Like realloc, but count * size is checked for overflow. On failure ptr is kept. */
void *sg_realloc_array(void *ptr, size_t count, size_t size);
void sg_free(void *ptr);
char *sg_strdup(const char *string);
/* Makes *array (of *capacity elements of size bytes) hold at least needed
 * elements, doubling from 64 so that growing one at a time stays linear. On
 * failure (false) the array and its capacity are kept. */
bool sg_grow_array(void **array, size_t *capacity, size_t needed, size_t size);

/* Test hook: the k-th allocation from now (1-based) and all after it fail;
 * 0 turns failures off. Returns the number of allocations since the last call. */
long sg_alloc_fail_at(long k);

#endif
