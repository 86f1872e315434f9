/* Internal: the depth-first walk. Turns a scene into a draw list of world
 * matrices; knows no GL. */
#ifndef SG_TRAVERSE_H
#define SG_TRAVERSE_H

#include <cglm/cglm.h>
#include <stddef.h>
#include <stdint.h>

#include <sg/scene.h>

struct sg_draw {
	mat4 world;       /* product of every local matrix from the root down to the model */
	uint32_t node;    /* pool index of the model node */
	uint32_t mesh;    /* pool index of its mesh */
	uint32_t texture; /* pool index of its texture */
};

struct sg_draw_list {
	struct sg_draw *draws;
	size_t count, capacity;
};

/* Reusable traversal state: the world matrix of every visited node, indexed by
 * pool index, so no stack is needed however deep the tree is. */
struct sg_traversal {
	mat4 *world;
	size_t world_capacity;
	struct sg_draw_list list;
	size_t visited; /* nodes visited by the last walk */
};

void sg_traversal_init(struct sg_traversal *traversal);
void sg_traversal_finish(struct sg_traversal *traversal);

/* Walks the subtree of the scene's root, depth-first, left to right, and fills
 * traversal->list in draw order. Fails (with a message naming the model) when a
 * model uses a destroyed mesh or texture, or on allocation failure. */
sg_result sg_traverse(struct sg_traversal *traversal, const struct sg_scene *scene);

#endif
