/* The hand-written baseline the benchmark compares libsg with: world matrices
 * as a flat array in topological order updated by one tight cglm loop, and the
 * quads pre-transformed into one vertex buffer per texture, drawn with one
 * call each. Uses a surfaceless context of its own; bench runs it in a process
 * of its own, as a user's program would. */
#ifndef BENCH_BASELINE_H
#define BENCH_BASELINE_H

#include <GLES3/gl3.h>
#include <cglm/cglm.h>

#include "../src/surfaceless/target_surfaceless.h"
#include "scenes.h"

struct baseline {
	size_t count, models;
	int32_t *parent;
	int8_t *texture; /* models: texture 0..7; transforms: -1 */
	mat4 *local, *world;

	struct sg_target *target;
	GLuint program, vertex_array, buffers[8], textures[8];
	float *vertices[8];
	size_t vertex_count[8];
	bool upload; /* vertices changed since the last draw */
};

/* Copies what it needs of tree: the tree may be freed afterwards. */
void baseline_init(struct baseline *b, const struct bench_tree *tree);
void baseline_finish(struct baseline *b);
void baseline_set_local(struct baseline *b, size_t i, const float local[16]);
/* The tight loop: world[i] = world[parent[i]] * local[i]. */
void baseline_update_world(struct baseline *b);

/* 0 on success. */
int baseline_gl_init(struct baseline *b, int width, int height);
/* Pre-transforms every quad with view_projection into the per-texture buffers. */
void baseline_build_vertices(struct baseline *b, mat4 view_projection);
/* Clears, draws the 8 buffers, glFinish. */
void baseline_draw(struct baseline *b, int width, int height);

#endif
