/* Internal: the depth-first walk. Keeps the scene's world matrices current and
 * turns the scene into a draw list; knows no GL. */
#ifndef SG_TRAVERSE_H
#define SG_TRAVERSE_H

#include <cglm/cglm.h>
#include <stddef.h>
#include <stdint.h>

#include <sg/scene.h>

struct sg_draw {
	uint32_t node;    /* pool index of the model node: its world matrix is scene->world[node] */
	uint32_t mesh;    /* pool index of its mesh */
	uint32_t texture; /* pool index of its texture */
};

struct sg_draw_list {
	struct sg_draw *draws;
	size_t count, capacity;
	uint64_t serial; /* changes whenever the entries change: for caches above */
};

/* Reusable traversal state of one renderer. */
struct sg_traversal {
	/* Every attached model in traversal order, rebuilt only when the scene's
	 * structure changes. */
	struct sg_draw_list all;
	uint32_t all_scene;
	uint64_t all_structure;
	bool all_valid;

	/* With culling: world-space bounds of every subtree (min, max), and the
	 * models that passed this frame. */
	vec3 (*bounds)[2];
	size_t bounds_capacity;
	uint32_t bounds_scene;
	uint64_t bounds_structure, bounds_transform;
	bool bounds_valid;
	struct sg_draw_list visible;

	const struct sg_draw_list *list; /* what the last walk says to draw */
	size_t world_updates;            /* world matrices recomputed by the last walk */
	size_t visited;                  /* nodes the last walk visited to build its list */
	uint64_t next_serial;
};

void sg_traversal_init(struct sg_traversal *traversal);
void sg_traversal_finish(struct sg_traversal *traversal);

/* Brings every world matrix of the scene up to date: only dirty subtrees after
 * local edits, the whole tree after a structural edit. Returns the number of
 * matrices recomputed. */
size_t sg_traverse_update_world(struct sg_scene *scene);

/* Updates world matrices, then fills traversal->list in draw order: depth-first,
 * left to right. With view_projection non-NULL, subtrees whose bounds fall
 * outside the view are skipped. Fails (naming the model) when a model uses a
 * destroyed mesh or texture, or on allocation failure. */
sg_result sg_traverse(struct sg_traversal *traversal, struct sg_scene *scene,
                      const mat4 view_projection);

#endif
