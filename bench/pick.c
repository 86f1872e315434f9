/* Picking in a large scene (issue 15): build/bench/pick [leaves] builds
 * tree-N (default 1048576 leaves), picks once (which computes the scene's
 * world boxes), then picks 1000 random pixels of a 1024 x 1024 output and
 * prints the median and the slowest. Not a test: read the figures. */
#include <stdio.h>
#include <stdlib.h>

#include <sg/sg.h>

#include "scenes.h"
#include "timing.h"

#define SIZE 1024
#define PICKS 1000

int main(int argc, char **argv)
{
	size_t leaves = argc > 1 ? strtoul(argv[1], NULL, 10) : 1048576;
	struct bench_tree tree;
	bench_tree_make(&tree, leaves);
	sg_node *handles = malloc(tree.count * sizeof(*handles));
	struct sg_scene *scene = bench_scene_build(&tree, handles);
	if (!scene) {
		fprintf(stderr, "pick: %s\n", sg_last_error());
		return 1;
	}
	struct sg_pick_hit hit;
	double t0 = now_ms();
	sg_result first = sg_scene_pick(scene, NULL, SIZE, SIZE, 512.5f, 512.5f, &hit);
	double first_ms = now_ms() - t0;
	if (first && first != SG_ERR_NOT_FOUND) {
		fprintf(stderr, "pick: %s\n", sg_last_error());
		return 1;
	}
	double *times = malloc(PICKS * sizeof(*times)), slowest = 0;
	unsigned state = 1, hits = 0;
	for (int i = 0; i < PICKS; i++) {
		state = state * 1103515245u + 12345u;
		float x = (float)(state >> 8 & 1023) + 0.5f;
		state = state * 1103515245u + 12345u;
		float y = (float)(state >> 8 & 1023) + 0.5f;
		double start = now_ms();
		hits += sg_scene_pick(scene, NULL, SIZE, SIZE, x, y, &hit) == SG_OK;
		times[i] = now_ms() - start;
		slowest = times[i] > slowest ? times[i] : slowest;
	}
	printf("tree-%zu nodes=%zu first_pick_ms=%.1f (world matrices and boxes) pick_median_ms=%.4f "
	       "pick_max_ms=%.4f hits=%u/%d\n",
	       leaves, sg_scene_node_count(scene), first_ms, median(times, PICKS), slowest, hits, PICKS);
	free(times);
	sg_scene_destroy(scene);
	free(handles);
	bench_tree_free(&tree);
	return 0;
}
