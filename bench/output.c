/* Present cost of the zero-copy path against the copy path of sg_output
 * (issue 12), side by side in one run: build/bench/output [OPTION]... [CONNECTOR]
 * re-executes itself once per path and round (`output --run PATH ...`), each
 * path in a process of its own with its own output, alternating which path
 * goes first. Needs a KMS device: run it in the guest (bench/README.md).
 *
 * Present cost: the wall-clock time (CLOCK_MONOTONIC) from the call of
 * sg_output_present() to its return, made when no flip is pending, so that
 * the call renders, synchronises (glFinish or a native fence) and hands the
 * buffer to the kernel (the commit) before it returns: nothing is left queued.
 * Each present is followed by sg_output_wait() for its flip, which is not
 * counted. Beside it: the process CPU time of the call (every thread, Mesa's
 * included), the render alone (sg_render_stats of the output's renderer:
 * traverse + submit + finish), the present less that render (what the path
 * itself costs: the copy, or none, and the commit) and the time from the call
 * to the kernel's timestamp of the flip. Damage tracking is off (every present
 * renders the whole frame) unless --damage is given. Not a test:
 * read the medians. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sg/sg.h>

#include "../demos/three_rects_scene.h"
#include "timing.h"

#define WARMUP 5
#define FLIP_TIMEOUT_MS 1000

enum { WALL, CPU, RENDER, OVERHEAD, TO_FLIP, FIGURES };
static const char *const figure_keys[FIGURES] = {"present_ms", "cpu_ms", "render_ms", "overhead_ms",
                                                 "to_flip_ms"};

struct child_args {
	bool copy;
	int frames, width, height;
	const char *device, *connector; /* NULL: the output's defaults */
	bool legacy;
	bool damage; /* --damage: damage tracking left on (the default of sg_output) */
};

static double cpu_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void on_flip(struct sg_output *output, const struct sg_output_flip *flip, void *data)
{
	(void)output;
	*(double *)data = (double)flip->tv_sec * 1e3 + (double)flip->tv_usec * 1e-3;
}

/* One path in this process: prints a line for people, then for the parent
 * the path it took ("zero_copy 1" or 0) and a sample line per figure. */
static int run(const struct child_args *a)
{
	double flip_at = 0;
	struct sg_scene *scene = three_rects_build();
	struct sg_output *output =
	    scene ? sg_output_create(&(struct sg_output_desc){.device = a->device,
	                                                      .connector = a->connector,
	                                                      .width = a->width,
	                                                      .height = a->height,
	                                                      .force_copy = a->copy,
	                                                      .force_legacy = a->legacy,
	                                                      .on_flip = on_flip,
	                                                      .user_data = &flip_at})
	          : NULL;
	double *samples = malloc(sizeof(double) * FIGURES * (size_t)a->frames);
	if (!output || !samples) {
		fprintf(stderr, "output: %s: %s\n", a->copy ? "copy" : "zero-copy",
		        samples ? sg_last_error() : "out of memory");
		free(samples);
		sg_output_destroy(output);
		sg_scene_destroy(scene);
		return 1;
	}
	const struct sg_output_info *info = sg_output_get_info(output);
	/* A whole frame rendered every present, as issue 12 measured: with damage
	 * tracking (on by default since issue 13) the unchanged scene repaints
	 * nothing after the first frames and the render would drop out. */
	if (!a->damage && sg_renderer_set_damage_tracking(sg_output_get_renderer(output), false)) {
		fprintf(stderr, "output: %s\n", sg_last_error());
		free(samples);
		sg_output_destroy(output);
		sg_scene_destroy(scene);
		return 1;
	}
	struct sg_camera camera;
	sg_camera_init_pixels(&camera, THREE_RECTS_SIZE, THREE_RECTS_SIZE);
	sg_result r = SG_OK;
	for (int f = -WARMUP; f < a->frames && !r; f++) {
		double wall = now_ms(), cpu = cpu_ms();
		r = sg_output_present(output, scene, &camera);
		double wall_end = now_ms(), cpu_end = cpu_ms();
		flip_at = 0;
		if (!r)
			r = sg_output_wait(output, FLIP_TIMEOUT_MS);
		if (r || f < 0)
			continue;
		struct sg_render_stats stats = {0};
		sg_renderer_get_stats(sg_output_get_renderer(output), &stats);
		size_t n = (size_t)a->frames;
		samples[WALL * n + (size_t)f] = wall_end - wall;
		samples[CPU * n + (size_t)f] = cpu_end - cpu;
		double render =
		    (double)(stats.traverse_ns + stats.submit_ns + stats.finish_ns) / 1e6;
		samples[RENDER * n + (size_t)f] = render;
		samples[OVERHEAD * n + (size_t)f] = wall_end - wall - render;
		/* -1: no event came (a legacy modeset) */
		samples[TO_FLIP * n + (size_t)f] = flip_at > 0 ? flip_at - wall : -1;
	}
	const char *path = info->path == SG_OUTPUT_PATH_ZERO_COPY ? "zero-copy" : "copy";
	if (r) {
		fprintf(stderr, "output: %s: %s\n", path, sg_last_error());
	} else {
		printf("output: %s on %s %dx%d, %s commits, %s, %s: %s\n", path, info->connector,
		       info->width, info->height, info->atomic ? "atomic" : "legacy",
		       info->fence == SG_OUTPUT_FENCE_NATIVE ? "native fence" : "glFinish", path,
		       info->path_reason);
		printf("zero_copy %d\n", info->path == SG_OUTPUT_PATH_ZERO_COPY);
		for (int k = 0; k < FIGURES; k++)
			samples_print(figure_keys[k], samples + (size_t)k * (size_t)a->frames,
			              a->frames);
	}
	free(samples);
	sg_output_destroy(output);
	sg_scene_destroy(scene);
	return r ? 1 : 0;
}

struct totals {
	const char *path; /* as the child's info named it */
	double medians[FIGURES][16], lo[FIGURES], hi[FIGURES];
	int runs;
};

/* Runs one child and adds its per-process medians and its extremes to t. */
static bool run_child(char **child_argv, struct totals *t)
{
	struct samples s = {0};
	bool ok = run_self(child_argv, &s) && t->runs < 16;
	struct sample_series *path = samples_get(&s, "zero_copy");
	ok = ok && path && path->count == 1;
	for (int k = 0; k < FIGURES && ok; k++) {
		struct sample_series *column = samples_get(&s, figure_keys[k]);
		if (!(ok = column && column->count > 0))
			break;
		struct spread v = spread_of(column->values, column->count);
		t->medians[k][t->runs] = v.median;
		if (!t->runs || v.min < t->lo[k])
			t->lo[k] = v.min;
		if (!t->runs || v.max > t->hi[k])
			t->hi[k] = v.max;
	}
	if (ok) {
		t->path = path->values[0] ? "zero-copy" : "copy";
		t->runs++;
	}
	samples_free(&s);
	return ok;
}

static void usage(FILE *out)
{
	fprintf(out, "Usage: output [--frames N] [--rounds R] [--size WxH] [--device PATH] "
	             "[--legacy] [--damage] [CONNECTOR]\n"
	             "Present cost of sg_output's zero-copy path against its copy path, each in\n"
	             "processes of its own, R rounds (default 2) of N frames (default 120) at\n"
	             "WxH (default 1024x768) on CONNECTOR (default: the first connected one).\n"
	             "--damage leaves damage tracking on: the unchanged scene then repaints\n"
	             "nothing, and the figures are what an idle present costs on each path.\n");
}

int main(int argc, char **argv)
{
	if (argc == 10 && strcmp(argv[1], "--run") == 0) {
		struct child_args a = {
		    .copy = strcmp(argv[2], "copy") == 0,
		    .frames = atoi(argv[3]),
		    .width = atoi(argv[4]),
		    .height = atoi(argv[5]),
		    .device = strcmp(argv[6], "-") ? argv[6] : NULL,
		    .connector = strcmp(argv[7], "-") ? argv[7] : NULL,
		    .legacy = strcmp(argv[8], "1") == 0,
		    .damage = strcmp(argv[9], "1") == 0,
		};
		return a.frames > 0 ? run(&a) : 2;
	}
	char frames[16] = "120", width[16] = "1024", height[16] = "768";
	const char *device = "-", *connector = "-", *legacy = "0", *damage = "0";
	int rounds = 2;
	for (int i = 1; i < argc; i++) {
		const char *next = i + 1 < argc ? argv[i + 1] : NULL;
		int w, h;
		if (strcmp(argv[i], "--frames") == 0 && next && atoi(next) > 0)
			snprintf(frames, sizeof(frames), "%d", atoi(argv[++i]));
		else if (strcmp(argv[i], "--rounds") == 0 && next && atoi(next) > 0 &&
		         atoi(next) <= 8)
			rounds = atoi(argv[++i]);
		else if (strcmp(argv[i], "--size") == 0 && next &&
		         sscanf(next, "%dx%d", &w, &h) == 2 && w > 0 && h > 0) {
			snprintf(width, sizeof(width), "%d", w);
			snprintf(height, sizeof(height), "%d", h);
			i++;
		} else if (strcmp(argv[i], "--device") == 0 && next)
			device = argv[++i];
		else if (strcmp(argv[i], "--legacy") == 0)
			legacy = "1";
		else if (strcmp(argv[i], "--damage") == 0)
			damage = "1";
		else if (strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return 0;
		} else if (argv[i][0] != '-' && strcmp(connector, "-") == 0)
			connector = argv[i];
		else {
			usage(stderr);
			return 2;
		}
	}
	struct totals totals[2] = {{.path = "zero-copy"}, {.path = "copy"}};
	for (int round = 0; round < rounds; round++)
		for (int k = 0; k < 2; k++) {
			int which = k ^ (round & 1); /* zero-copy first in even rounds */
			char *child[] = {argv[0],
			                 "--run",
			                 which ? "copy" : "zero-copy",
			                 frames,
			                 width,
			                 height,
			                 (char *)device,
			                 (char *)connector,
			                 (char *)legacy,
			                 (char *)damage,
			                 NULL};
			if (!run_child(child, &totals[which])) {
				fprintf(stderr, "output: the %s run failed\n",
				        which ? "copy" : "zero-copy");
				return 1;
			}
		}
	printf("\n%sx%s, %s frames x %d processes per path; ms, median of the processes' "
	       "medians (min .. max of all frames)\n",
	       width, height, frames, rounds);
	printf("| path | present | CPU in present | render alone | present - render | present to "
	       "flip |\n");
	printf("| --- | --- | --- | --- | --- | --- |\n");
	double present[2], overhead[2];
	for (int p = 0; p < 2; p++) {
		struct totals *t = &totals[p];
		printf("| %s |", t->path);
		for (int k = 0; k < FIGURES; k++) {
			double m = median(t->medians[k], t->runs);
			if (k == WALL)
				present[p] = m;
			if (k == OVERHEAD)
				overhead[p] = m;
			printf(" %.2f (%.2f .. %.2f) |", m, t->lo[k], t->hi[k]);
		}
		printf("\n");
	}
	if (strcmp(totals[0].path, "zero-copy") != 0)
		printf("the zero-copy run fell back to the copy path: no ratio\n");
	else
		printf("zero-copy / copy: present %.2f (issue 12's target: at most 0.5); present "
		       "less the render %.2f\n",
		       present[0] / present[1], overhead[0] / overhead[1]);
	return 0;
}
