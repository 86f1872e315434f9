/* The hand-written baseline the benchmark compares libsg with: world matrices
 * as a flat array in topological order updated by one tight cglm loop, and the
 * quads pre-transformed into one vertex buffer per texture, drawn with one
 * call each. Uses a surfaceless context of its own. */
#ifndef BENCH_BASELINE_H
#define BENCH_BASELINE_H

#include <GLES3/gl3.h>
#include <cglm/cglm.h>

#include "../src/surfaceless/target_surfaceless.h"
#include "scenes.h"

struct baseline {
	size_t count;
	int32_t *parent;
	mat4 *local, *world;
	const struct bench_tree *tree;

	struct sg_target *target;
	GLuint program, vertex_array, buffers[8], textures[8];
	float *vertices[8];
	size_t vertex_count[8];
	bool upload; /* vertices changed since the last draw */
};

void baseline_init(struct baseline *b, const struct bench_tree *tree);
void baseline_finish(struct baseline *b);
void baseline_set_local(struct baseline *b, size_t i);
/* The tight loop: world[i] = world[parent[i]] * local[i]. */
void baseline_update_world(struct baseline *b);

/* 0 on success. */
int baseline_gl_init(struct baseline *b, int width, int height);
/* Pre-transforms every quad with view_projection into the per-texture buffers. */
void baseline_build_vertices(struct baseline *b, mat4 view_projection);
/* Clears, draws the 8 buffers, glFinish. */
void baseline_draw(struct baseline *b, int width, int height);

#endif
