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


/* Updates world matrices, then fills traversal->list in draw order: depth-first,
 * left to right. With view_projection non-NULL, subtrees whose bounds fall
 * outside the view are skipped. Fails (naming the model) when a model uses a
 * destroyed mesh or texture, or on allocation failure. */
sg_result sg_traverse(struct sg_traversal *traversal, struct sg_scene *scene,
                      const mat4 view_projection);

/* SG_OK when model node n's mesh and texture both exist, else SG_ERR_STALE_HANDLE
 * naming the model and what was destroyed. Culled models are checked too, so
 * that culling never hides an error the unculled walk reports. */
sg_result sg_draw_check_model(const struct sg_scene *scene, uint32_t n);
/* Appends model node n after sg_draw_check_model(). */
sg_result sg_draw_list_push(struct sg_draw_list *list, const struct sg_scene *scene, uint32_t n);

#endif
