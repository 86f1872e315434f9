/* The toy library of toy.h: just enough that every function has a body
 * (and a distinct one, so that no two are folded into one symbol). */
#include <string.h>

#include "toy.h"

struct toy {
	struct toy_desc desc;
};

static struct toy the_toy;

struct toy *toy_create(const struct toy_desc *desc)
{
	the_toy.desc = *desc;
	return &the_toy;
}

int toy_get_stats_sized(const struct toy *toy, struct toy_stats *stats, size_t size)
{
	struct toy_stats all = {.drawn = toy->desc.width};
	memcpy(stats, &all, size < sizeof all ? size : sizeof all);
	return 0;
}

#ifdef TOY_PARAMETER_CHANGED
int toy_scale(const struct toy *toy, double factor)
{
	return (int)(toy->desc.width * factor);
}
#else
int toy_scale(const struct toy *toy, int factor)
{
	return toy->desc.width * factor;
}
#endif

#ifndef TOY_FUNCTION_REMOVED
#ifdef TOY_CONST_ADDED
int toy_area(const struct toy *toy)
#else
int toy_area(struct toy *toy)
#endif
{
	return toy->desc.width * toy->desc.height;
}
#endif

#ifdef TOY_FUNCTION_ADDED
int toy_perimeter(const struct toy *toy)
{
	return 2 * (toy->desc.width + toy->desc.height);
}
#endif
