/* The libsg benchmark: every scene of shared/scenes/bench-scenes.md through the
 * public API, against a hand-written baseline on the same data in the same
 * process. Prints one line per measurement; medians after warm-up frames.
 *
 * bench [--quick] [--scene NAME] [--three-rects PATH] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sg/sg.h>

#include "timing.h"

#include "baseline.h"
#include "scenes.h"

#define SIZE 1024

static long rss_kib(void)
{
	long pages = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (f) {
		if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
			resident = 0;
		fclose(f);
	}
	return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static long peak_rss_kib(void)
{
	struct rusage usage;
	getrusage(RUSAGE_SELF, &usage);
	return usage.ru_maxrss;
}

enum variant { VARIANT_STATIC, VARIANT_ALL, VARIANT_SPARSE };

/* Applies frame's edit to node i of both libsg and the baseline. */
static void edit(const struct bench_tree *tree, struct sg_scene *scene, sg_node *handles,
                 struct baseline *b, size_t i, float angle)
{
	((struct bench_tree *)tree)->params[i][2] = angle;
	float m[16];
	bench_local_matrix(tree, i, m);
	sg_transform_set_matrix(scene, handles[i], m);
	baseline_set_local(b, i);
}

struct frame_edits {
	size_t *nodes; /* the transforms this variant changes, all frames together */
	size_t count;
};

static void collect_edits(const struct bench_tree *tree, enum variant variant,
                          struct frame_edits *edits)
{
	edits->nodes = malloc(tree->count * sizeof(size_t));
	edits->count = 0;
	for (size_t i = 0; i < tree->count; i++) {
		bool leaf_transform = tree->texture[i] < 0 && i + 1 < tree->count &&
		                      tree->texture[i + 1] >= 0 && tree->parent[i + 1] == (int32_t)i;
		if ((variant == VARIANT_ALL && tree->texture[i] < 0 && tree->depth[i] == 1) ||
		    (variant == VARIANT_SPARSE && leaf_transform))
			edits->nodes[edits->count++] = i;
	}
}

static void run_scene(const char *name, const struct bench_tree *tree, enum variant variant,
                      int frames, bool corner)
{
	const char *variant_name = variant == VARIANT_ALL ? "all" : variant == VARIANT_SPARSE ? "sparse" : "-";
	sg_node *handles = malloc(tree->count * sizeof(*handles));
	long rss_before = rss_kib();
	double build_start = now_ms();
	struct sg_scene *scene = bench_scene_build(tree, handles);
	double build_ms = now_ms() - build_start;
	long rss_after = rss_kib();
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){.width = SIZE, .height = SIZE});
	if (!scene || !renderer) {
		fprintf(stderr, "bench: %s\n", sg_last_error());
		exit(1);
	}
	size_t nodes = sg_scene_node_count(scene);
	struct baseline b;
	baseline_init(&b, tree);
	if (baseline_gl_init(&b, SIZE, SIZE))
		exit(1);
	struct frame_edits edits;
	collect_edits(tree, variant, &edits);
	struct sg_camera camera;
	sg_camera_init_pixels(&camera, SIZE, SIZE);
	mat4 flip = GLM_MAT4_IDENTITY_INIT, vp;
	flip[1][1] = -1; /* the same y-flip libsg renders with */
	glm_mat4_mul(flip, (vec4 *)camera.projection, vp);

	int warmup = 3, total = warmup + frames;
	double *traverse = calloc((size_t)total, sizeof(double)), *submit = calloc((size_t)total, sizeof(double));
	double *frame = calloc((size_t)total, sizeof(double)), *base_world = calloc((size_t)total, sizeof(double));
	double *base_frame = calloc((size_t)total, sizeof(double));
	baseline_update_world(&b);
	baseline_build_vertices(&b, vp);
	for (int f = 0; f < total; f++) {
		float angle = 0.01f * (float)(f + 1);
		for (size_t e = 0; e < edits.count; e++) {
			size_t leaf = e; /* sparse: leaf index among leaf transforms */
			if (variant == VARIANT_SPARSE && leaf % 100 != (size_t)f % 100)
				continue;
			edit(tree, scene, handles, &b, edits.nodes[e], angle);
		}
		double t0 = now_ms();
		if (sg_renderer_render(renderer, scene, &camera)) {
			fprintf(stderr, "bench: %s\n", sg_last_error());
			exit(1);
		}
		frame[f] = now_ms() - t0;
		struct sg_render_stats stats;
		sg_renderer_get_stats(renderer, &stats);
		traverse[f] = (double)stats.traverse_ns / 1e6;
		submit[f] = (double)stats.submit_ns / 1e6;

		t0 = now_ms();
		baseline_update_world(&b);
		base_world[f] = now_ms() - t0;
		if (variant != VARIANT_STATIC)
			baseline_build_vertices(&b, vp);
		baseline_draw(&b, SIZE, SIZE);
		base_frame[f] = now_ms() - t0;
	}
	double traverse_ms = median(traverse + warmup, frames);
	double base_world_ms = median(base_world + warmup, frames);
	double frame_ms = median(frame + warmup, frames), base_frame_ms = median(base_frame + warmup, frames);
	printf("scene=%s variant=%s nodes=%zu build_ms=%.1f traverse_ns_per_node=%.2f "
	       "baseline_world_ns_per_node=%.2f traverse_ratio=%.2f submit_ms=%.2f frame_ms=%.2f "
	       "baseline_frame_ms=%.2f frame_ratio=%.2f bytes_per_node=%.1f\n",
	       name, variant_name, nodes, build_ms, traverse_ms * 1e6 / (double)nodes,
	       base_world_ms * 1e6 / (double)nodes, traverse_ms / base_world_ms,
	       median(submit + warmup, frames), frame_ms, base_frame_ms, frame_ms / base_frame_ms,
	       (double)(rss_after - rss_before) * 1024.0 / (double)nodes);

	if (corner) {
		/* a camera on the top-left 128 x 128 of the 1024 x 1024 scene */
		struct sg_camera look;
		sg_camera_init_pixels(&look, 128, 128);
		sg_renderer_set_culling(renderer, true);
		sg_renderer_render(renderer, scene, &look); /* computes the boxes */
		double t0 = now_ms();
		sg_renderer_render(renderer, scene, &look);
		double culled_ms = now_ms() - t0;
		struct sg_render_stats stats;
		sg_renderer_get_stats(renderer, &stats);
		printf("scene=%s culling=corner-128 nodes=%zu nodes_visited=%zu draws=%zu frame_ms=%.2f\n",
		       name, nodes, stats.nodes_visited, stats.draws, culled_ms);
	}
	fflush(stdout);
	free(traverse), free(submit), free(frame), free(base_world), free(base_frame);
	free(edits.nodes);
	baseline_finish(&b);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
	free(handles);
}

/* Each scene in a child process, so that its peak RSS is its own. */
static void in_child(const char *name, size_t n, bool flat, enum variant variant, int frames,
                     bool corner)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		struct bench_tree tree;
		if (flat)
			bench_flat_make(&tree, n);
		else
			bench_tree_make(&tree, n);
		run_scene(name, &tree, variant, frames, corner);
		printf("scene=%s variant=%s peak_rss_mib=%.1f\n", name,
		       variant == VARIANT_ALL ? "all" : variant == VARIANT_SPARSE ? "sparse" : "-",
		       (double)peak_rss_kib() / 1024.0);
		bench_tree_free(&tree);
		exit(0);
	}
	int status;
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fprintf(stderr, "bench: scene %s failed\n", name);
}

static void three_rects_latency(const char *program, int runs)
{
	double *ms = calloc((size_t)runs, sizeof(double));
	for (int i = 0; i < runs; i++) {
		double t0 = now_ms();
		pid_t pid = fork();
		if (pid == 0) {
			execl(program, program, "-q", "-o", "/tmp/sg-bench-three-rects.png", (char *)NULL);
			_exit(127);
		}
		int status;
		waitpid(pid, &status, 0);
		ms[i] = now_ms() - t0;
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "bench: %s failed\n", program);
			free(ms);
			return;
		}
	}
	unlink("/tmp/sg-bench-three-rects.png");
	printf("scene=three-rects process_ms=%.1f runs=%d\n", median(ms, runs), runs);
	free(ms);
}

int main(int argc, char **argv)
{
	bool quick = false;
	const char *only = NULL, *three_rects = BENCH_THREE_RECTS;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--quick") == 0)
			quick = true;
		else if (strcmp(argv[i], "--scene") == 0 && i + 1 < argc)
			only = argv[++i];
		else if (strcmp(argv[i], "--three-rects") == 0 && i + 1 < argc)
			three_rects = argv[++i];
		else {
			fprintf(stderr, "usage: bench [--quick] [--scene NAME] [--three-rects PATH]\n");
			return 2;
		}
	}
#define WANT(name) (!only || strcmp(only, name) == 0)
	if (WANT("three-rects"))
		three_rects_latency(three_rects, quick ? 5 : 20);
	static const size_t trees[] = {4096, 32768, 262144, 1048576};
	for (size_t i = 0; i < 4; i++) {
		size_t n = trees[i];
		if (quick && n > 32768)
			break;
		char name[32];
		snprintf(name, sizeof(name), "tree-%zu", n);
		if (!WANT(name))
			continue;
		int frames = n >= 1048576 ? 5 : n >= 262144 ? 11 : 21;
		in_child(name, n, false, VARIANT_ALL, frames, n >= 262144);
		in_child(name, n, false, VARIANT_SPARSE, frames, false);
	}
	static const size_t flats[] = {1000, 10000, 100000};
	for (size_t i = 0; i < 3; i++) {
		char name[32];
		snprintf(name, sizeof(name), "flat-%zu", flats[i]);
		if (WANT(name) && !(quick && flats[i] > 10000))
			in_child(name, flats[i], true, VARIANT_STATIC, 21, false);
	}
	return 0;
}
