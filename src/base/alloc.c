#include "alloc.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static atomic_long allocations;
static atomic_long fail_at;

static int should_fail(void)
{
	long n = atomic_fetch_add(&allocations, 1) + 1;
	long k = atomic_load(&fail_at);
	return k > 0 && n >= k;
}

long sg_alloc_fail_at(long k)
{
	long n = atomic_exchange(&allocations, 0);
	atomic_store(&fail_at, k);
	return n;
}

void *sg_malloc(size_t size)
{
	return should_fail() ? NULL : malloc(size ? size : 1);
}

void *sg_calloc(size_t count, size_t size)
{
	return should_fail() ? NULL : calloc(count ? count : 1, size ? size : 1);
}

void *sg_realloc_array(void *ptr, size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		return NULL;
	if (should_fail())
		return NULL;
	size_t bytes = count * size;
	return realloc(ptr, bytes ? bytes : 1);
}

bool sg_grow_array(void **array, size_t *capacity, size_t needed, size_t size)
{
	if (*capacity >= needed)
		return true;
	size_t grown = *capacity ? *capacity : 64;
	while (grown < needed)
		grown = grown > SIZE_MAX / 2 ? needed : grown * 2;
	void *p = sg_realloc_array(*array, grown, size);
	if (!p)
		return false;
	*array = p;
	*capacity = grown;
	return true;
}

void sg_free(void *ptr)
{
	free(ptr);
}

char *sg_strdup(const char *string)
{
	size_t length = strlen(string) + 1;
	char *copy = sg_malloc(length);
	if (copy)
		memcpy(copy, string, length);
	return copy;
}
