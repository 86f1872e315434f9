/* Internal: what the graph knows of each node kind, in one table
 * (node_kind.c), so that a feature's node kind is a row there and a file of
 * its own (its record and its edits: clip.c, node3d.c), not checks of
 * kinds spread over the layers. Layers above ask the table (a model file's
 * importer: can this parent hold what it adds?). */
#ifndef SG_GRAPH_NODE_KIND_H
#define SG_GRAPH_NODE_KIND_H

#include <stdbool.h>

#include <sg/scene.h>

struct sg_node_kind_info {
	const char *name; /* in messages: "transform", "3D view" */
	bool parent;      /* may hold children */
};

/* The row of kind; a row named "node" with no children for an unknown one. */
const struct sg_node_kind_info *sg_node_kind_info(enum sg_node_kind kind);

#endif
