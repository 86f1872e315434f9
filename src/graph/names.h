/* Internal: node names, kept aside from the node arrays. Most nodes of a
 * large scene have none, and a name pointer per node was 8 bytes of every
 * one (18 MB of tree-1048576); a node with a name has SG_NODE_NAMED set and
 * its name here, in an open-addressed table keyed by node index. */
#ifndef SG_GRAPH_NAMES_H
#define SG_GRAPH_NAMES_H

#include <stdbool.h>
#include <stdint.h>

struct sg_names {
	uint32_t *keys; /* node index, 0 for an empty slot */
	char **values;
	uint32_t capacity; /* a power of two, or 0 */
	uint32_t count;
};

/* Room for one more name, so that the next sg_names_put cannot fail; false
 * when out of memory (the table is left as it was). */
bool sg_names_reserve(struct sg_names *names);
/* Stores name (taken over: freed by the table) for index, which has none:
 * sg_names_reserve first. */
void sg_names_put(struct sg_names *names, uint32_t index, char *name);
/* The name of index, or NULL. */
char *sg_names_get(const struct sg_names *names, uint32_t index);
/* Removes and frees the name of index, if it has one. */
void sg_names_drop(struct sg_names *names, uint32_t index);
/* Frees every name and the table. */
void sg_names_finish(struct sg_names *names);

#endif
