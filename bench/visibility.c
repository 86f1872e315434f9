/* tree-262144 with the visibility of 1% of the leaves toggled every frame,
 * against the same scene static (issue 11). Not a test: run
 * build/bench/visibility [frames] and read the medians. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <sg/sg.h>

#include "timing.h"

#include "scenes.h"

#define SIZE 1024

int main(int argc, char **argv)
{
	int frames = argc > 1 ? atoi(argv[1]) : 30;
	if (frames < 1)
		frames = 1;
	struct bench_tree tree;
	bench_tree_make(&tree, 262144);
	sg_node *handles = malloc(tree.count * sizeof(*handles));
	struct sg_scene *scene = bench_scene_build(&tree, handles);
	struct sg_renderer *renderer =
		sg_renderer_create(&(struct sg_renderer_desc){.width = SIZE, .height = SIZE});
	if (!scene || !renderer) {
		fprintf(stderr, "visibility: %s\n", sg_last_error());
		return 1;
	}
	/* the leaves, every hundredth of them toggled per frame: two alternating sets */
	size_t *leaves = malloc(tree.models * sizeof(*leaves)), leaf_count = 0;
	for (size_t i = 0; i < tree.count; i++)
		if (tree.texture[i] >= 0)
			leaves[leaf_count++] = i;
	struct sg_camera camera;
	sg_camera_init_pixels(&camera, SIZE, SIZE);
	double *times = malloc((size_t)frames * sizeof(*times));
	struct sg_render_stats stats;
	for (int variant = 0; variant < 2; variant++) {
		for (int f = -3; f < frames; f++) { /* 3 warm-up frames */
			if (variant == 1) {
				int set = (f + 3) % 2;
				for (size_t i = (size_t)(1 - set); i < leaf_count; i += 100)
					sg_node_set_visible(scene, handles[leaves[i]], true);
				for (size_t i = (size_t)set; i < leaf_count; i += 100)
					sg_node_set_visible(scene, handles[leaves[i]], false);
			}
			double t0 = now_ms();
			if (sg_renderer_render(renderer, scene, &camera)) {
				fprintf(stderr, "visibility: %s\n", sg_last_error());
				return 1;
			}
			if (f >= 0)
				times[f] = now_ms() - t0;
		}
		sg_renderer_get_stats(renderer, &stats);
		printf("tree-262144 %-8s frame %.2f ms (median of %d); last frame: traverse %.2f ms, "
		       "submit %.2f ms, finish %.2f ms, draws %zu, nodes visited %zu\n",
		       variant ? "toggled" : "static", median(times, frames), frames,
		       (double)stats.traverse_ns / 1e6, (double)stats.submit_ns / 1e6,
		       (double)stats.finish_ns / 1e6, stats.draws, stats.nodes_visited);
	}
	free(times);
	free(leaves);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
	free(handles);
	bench_tree_free(&tree);
	return 0;
}
