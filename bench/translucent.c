/* flat-100000 with every tenth model translucent (its colour's alpha 0.5),
 * against the same scene all opaque (issue 11). Each variant runs in a process
 * of its own, as a user's program would: build/bench/translucent [frames]
 * re-executes itself as `translucent --run opaque|translucent FRAMES`. Not a
 * test: read the medians. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sg/sg.h>

#include "scenes.h"
#include "timing.h"

#define SIZE 1024
#define MODELS 100000

static int run(bool translucent, int frames)
{
	struct bench_tree tree;
	bench_flat_make(&tree, MODELS);
	sg_node *handles = malloc(tree.count * sizeof(*handles));
	struct sg_scene *scene = bench_scene_build(&tree, handles);
	struct sg_renderer *renderer =
		sg_renderer_create(&(struct sg_renderer_desc){.width = SIZE, .height = SIZE});
	if (!scene || !renderer) {
		fprintf(stderr, "translucent: %s\n", sg_last_error());
		return 1;
	}
	size_t models = 0;
	for (size_t i = 0; i < tree.count; i++) {
		if (tree.texture[i] < 0)
			continue;
		if (translucent && models % 10 == 9 &&
		    sg_model_set_color(scene, handles[i], 1.0f, 1.0f, 1.0f, 0.5f)) {
			fprintf(stderr, "translucent: %s\n", sg_last_error());
			return 1;
		}
		models++;
	}
	struct sg_camera camera;
	sg_camera_init_pixels(&camera, SIZE, SIZE);
	double *times = malloc((size_t)frames * sizeof(*times));
	for (int f = -3; f < frames; f++) { /* 3 warm-up frames */
		double t0 = now_ms();
		if (sg_renderer_render(renderer, scene, &camera)) {
			fprintf(stderr, "translucent: %s\n", sg_last_error());
			return 1;
		}
		if (f >= 0)
			times[f] = now_ms() - t0;
	}
	struct sg_render_stats stats;
	sg_renderer_get_stats(renderer, &stats);
	printf("flat-100000 %-11s frame %.2f ms (median of %d); last frame: submit %.2f ms, "
	       "finish %.2f ms, draws %zu, batches %zu\n",
	       translucent ? "translucent" : "opaque", median(times, frames), frames,
	       (double)stats.submit_ns / 1e6, (double)stats.finish_ns / 1e6, stats.draws,
	       stats.batches);
	fflush(stdout);
	free(times);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
	free(handles);
	bench_tree_free(&tree);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "--run") == 0)
		return run(strcmp(argv[2], "translucent") == 0, atoi(argv[3]));
	int frames = argc > 1 ? atoi(argv[1]) : 15;
	if (frames < 1)
		frames = 1;
	char count[16];
	snprintf(count, sizeof(count), "%d", frames);
	for (int round = 0; round < 2; round++) {
		for (int v = 0; v < 2; v++) { /* opaque first in even rounds */
			const char *variant = (v ^ round) ? "translucent" : "opaque";
			pid_t pid = fork();
			if (pid == 0) {
				execl("/proc/self/exe", argv[0], "--run", variant, count, (char *)NULL);
				_exit(127);
			}
			int status;
			if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
			    WEXITSTATUS(status)) {
				fprintf(stderr, "translucent: the %s run failed\n", variant);
				return 1;
			}
		}
	}
	return 0;
}
