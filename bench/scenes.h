/* The benchmark scenes of shared/scenes/bench-scenes.md as plain data, so that
 * libsg and the hand-written baseline are built from exactly the same numbers. */
#ifndef BENCH_SCENES_H
#define BENCH_SCENES_H

#include <stddef.h>
#include <stdint.h>

#include <sg/sg.h>

/* Nodes in preorder; parent < own index; models are nodes too. */
struct bench_tree {
	size_t count, capacity;
	int32_t *parent;    /* -1: directly under the scene root */
	float (*params)[4]; /* transforms: translate x, y, rotate z (radians), scale */
	int8_t *texture;    /* models: texture 0..7; transforms: -1 */
	uint8_t *depth;     /* transforms: 0 for the top one */
	size_t models;
};

void bench_tree_make(struct bench_tree *tree, size_t leaves);
void bench_flat_make(struct bench_tree *tree, size_t count);
void bench_tree_free(struct bench_tree *tree);

/* The local matrix of transform i: translate * rotate(z) * scale. */
void bench_local_matrix(const struct bench_tree *tree, size_t i, float out[16]);
/* The same from a transform's params (translate x, y, rotate z, scale). */
void bench_params_matrix(const float params[4], float out[16]);

/* Texture i (0..7) of the scenes: a 16 x 16 checkerboard. */
void bench_checker_pixels(int i, unsigned char px[16 * 16 * 4]);

/* Builds the scene through the public API; node handles go to handles[i]. */
struct sg_scene *bench_scene_build(const struct bench_tree *tree, sg_node *handles);

#endif
