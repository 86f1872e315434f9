/* The budget of an import (struct sg_import_budget): its defaults and the
 * message of a file over it. */
#include "import_internal.h"

#include "../base/error.h"

/* Large enough for any model a scene is drawn with interactively, small
 * enough that a hostile file cannot take the machine's memory. */
#define DEFAULT_FILE_BYTES ((size_t)256 << 20)
#define DEFAULT_VERTICES ((size_t)16 << 20)
#define DEFAULT_TRIANGLES ((size_t)16 << 20)
#define DEFAULT_TEXTURE_BYTES ((size_t)512 << 20)
#define DEFAULT_NODES ((size_t)100000)
#define DEFAULT_DEPTH ((size_t)64)

void sg_import_budget_resolve(const struct sg_import_budget *given, struct sg_import_budget *out)
{
	struct sg_import_budget none = {0};
	if (!given)
		given = &none;
	out->max_file_bytes = given->max_file_bytes ? given->max_file_bytes : DEFAULT_FILE_BYTES;
	out->max_vertices = given->max_vertices ? given->max_vertices : DEFAULT_VERTICES;
	out->max_triangles = given->max_triangles ? given->max_triangles : DEFAULT_TRIANGLES;
	out->max_texture_bytes =
	    given->max_texture_bytes ? given->max_texture_bytes : DEFAULT_TEXTURE_BYTES;
	out->max_nodes = given->max_nodes ? given->max_nodes : DEFAULT_NODES;
	out->max_depth = given->max_depth ? given->max_depth : DEFAULT_DEPTH;
}

sg_result sg_import_over_budget(const struct sg_import *im, const char *what, uint64_t value,
                                uint64_t limit, const char *field)
{
	return sg_fail(
	    SG_ERR_LIMIT, "'%s': %s %llu, more than the budget's %llu (struct sg_import_budget.%s)",
	    im->shown, what, (unsigned long long)value, (unsigned long long)limit, field);
}
