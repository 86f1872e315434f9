/* A small library in the shape of libsg's API, compiled by
 * tests/test_abi_check.sh once as its first release and then with one change
 * at a time (the TOY_* macros), to show what scripts/abi-check.sh lets pass
 * and what it refuses. */
#ifndef TOY_H
#define TOY_H

#include <stddef.h>

enum toy_kind {
	TOY_KIND_SQUARE,
	TOY_KIND_ROUND,
#ifdef TOY_ENUM_VALUE_ADDED
	TOY_KIND_STAR, /* compatible: a new value at the end */
#endif
};

struct toy_desc {
	int width;
#ifdef TOY_FIELD_INSERTED
	int depth; /* incompatible: moves height */
#endif
	int height;
	enum toy_kind kind;
};

/* Handed over with the caller's sizeof (toy_get_stats_sized), so it may grow
 * at its end: tests/abi/toy.supp says so to abidiff. */
struct toy_stats {
	int drawn;
	int culled;
#ifdef TOY_STATS_GROWN
	int merged; /* compatible: at the end of a sized struct */
#endif
};

struct toy;

struct toy *toy_create(const struct toy_desc *desc);
int toy_get_stats_sized(const struct toy *toy, struct toy_stats *stats, size_t size);
#ifdef TOY_PARAMETER_CHANGED
int toy_scale(const struct toy *toy, double factor); /* incompatible: was int */
#else
int toy_scale(const struct toy *toy, int factor);
#endif
#ifndef TOY_FUNCTION_REMOVED
#ifdef TOY_CONST_ADDED
int toy_area(const struct toy *toy); /* compatible: the pointee made const */
#else
int toy_area(struct toy *toy); /* removing it is incompatible */
#endif
#endif
#ifdef TOY_FUNCTION_ADDED
int toy_perimeter(const struct toy *toy); /* compatible: a new function */
#endif

#endif
