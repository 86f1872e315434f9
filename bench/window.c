/* Present cost of sg_window's dma-buf path against its shm path, side by side
 * in one run: build/bench/window [OPTION]... against the compositor at
 * $WAYLAND_DISPLAY (bench/README.md starts a headless weston). It re-executes
 * itself once per path and round (`window --run PATH ...`), each path in a
 * process of its own with its own window, alternating which goes first.
 *
 * Present cost: the wall-clock time (CLOCK_MONOTONIC) from the call of
 * sg_window_present() to its return, made once the last frame's callback has
 * come (sg_window_wait), so that the call renders, finishes, copies (shm) and
 * commits. Beside it: the process CPU time of the call, the render alone
 * (the renderer's traverse + submit + finish), the present less the render
 * (what the path itself costs: the readback and copy into the wl_shm pool,
 * or nothing on the dma-buf path) and the time from the call until the
 * compositor asked for the next frame. Damage tracking is off, so every
 * present renders and sends the whole frame. Not a test: read the medians. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sg/sg.h>

#include "../demos/three_rects_scene.h"
#include "timing.h"

#define WARMUP 5
#define WAIT_MS 2000

enum { WALL, CPU, RENDER, OVERHEAD, TO_CALLBACK, FIGURES };
static const char *const figure_keys[FIGURES] = {"present_ms", "cpu_ms", "render_ms",
                                                 "overhead_ms", "to_callback_ms"};

struct child_args {
	bool shm;
	int frames, width, height;
	const char *device; /* NULL: the window's choice */
};

/* One path in this process: a line for people, then for the parent the path
 * it took ("dmabuf 1" or 0) and a sample line per figure. */
static int run(const struct child_args *a)
{
	struct sg_scene *scene = three_rects_build();
	struct sg_window *window =
	    scene ? sg_window_create(&(struct sg_window_desc){.title = "bench-window",
	                                                      .width = a->width,
	                                                      .height = a->height,
	                                                      .force_shm = a->shm,
	                                                      .device = a->device})
	          : NULL;
	double *samples = malloc(sizeof(double) * FIGURES * (size_t)a->frames);
	sg_result r = !window || !samples ? SG_ERR_NO_MEMORY : SG_OK;
	if (!r)
		r = sg_renderer_set_damage_tracking(sg_window_get_renderer(window), false);
	if (r) {
		fprintf(stderr, "window: %s: %s\n", a->shm ? "shm" : "dma-buf",
		        samples ? sg_last_error() : "out of memory");
		free(samples);
		sg_window_destroy(window);
		sg_scene_destroy(scene);
		return 1;
	}
	const struct sg_window_info *info = sg_window_get_info(window);
	struct sg_camera camera;
	sg_camera_init_pixels(&camera, THREE_RECTS_SIZE, THREE_RECTS_SIZE);
	for (int f = -WARMUP; f < a->frames && !r; f++) {
		double wall = now_ms(), cpu = process_cpu_ms();
		r = sg_window_present(window, scene, &camera);
		double wall_end = now_ms(), cpu_end = process_cpu_ms();
		if (!r)
			r = sg_window_wait(window, WAIT_MS);
		double asked = now_ms();
		if (r || f < 0)
			continue;
		struct sg_render_stats stats = {0};
		sg_renderer_get_stats(sg_window_get_renderer(window), &stats);
		size_t n = (size_t)a->frames;
		double render = (double)(stats.traverse_ns + stats.submit_ns + stats.finish_ns) / 1e6;
		samples[WALL * n + (size_t)f] = wall_end - wall;
		samples[CPU * n + (size_t)f] = cpu_end - cpu;
		samples[RENDER * n + (size_t)f] = render;
		samples[OVERHEAD * n + (size_t)f] = wall_end - wall - render;
		samples[TO_CALLBACK * n + (size_t)f] = asked - wall;
	}
	const char *path = info->path == SG_WINDOW_PATH_DMABUF ? "dma-buf" : "shm";
	if (r) {
		fprintf(stderr, "window: %s: %s\n", path, sg_last_error());
	} else {
		printf("window: %s at %dx%d on %s: %s\n", path, info->width, info->height,
		       info->renderer, info->path_reason);
		printf("dmabuf %d\n", info->path == SG_WINDOW_PATH_DMABUF);
		for (int k = 0; k < FIGURES; k++)
			samples_print(figure_keys[k], samples + (size_t)k * (size_t)a->frames,
			              a->frames);
	}
	free(samples);
	sg_window_destroy(window);
	sg_scene_destroy(scene);
	return r ? 1 : 0;
}

struct totals {
	const char *path; /* as the child's info named it */
	double medians[FIGURES][16], lo[FIGURES], hi[FIGURES];
	int runs;
};

static bool run_child(char **child_argv, struct totals *t)
{
	struct samples s = {0};
	bool ok = run_self(child_argv, &s) && t->runs < 16;
	struct sample_series *path = samples_get(&s, "dmabuf");
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
		t->path = path->values[0] ? "dma-buf" : "shm";
		t->runs++;
	}
	samples_free(&s);
	return ok;
}

static void usage(FILE *out)
{
	fprintf(out, "Usage: window [--frames N] [--rounds R] [--size WxH] [--device PATH]\n"
	             "Present cost of sg_window's dma-buf path against its shm path in the\n"
	             "compositor at $WAYLAND_DISPLAY, each in processes of its own, R rounds\n"
	             "(default 2) of N frames (default 60) at WxH (default 1024x768).\n");
}

int main(int argc, char **argv)
{
	if (argc == 7 && strcmp(argv[1], "--run") == 0) {
		struct child_args a = {
		    .shm = strcmp(argv[2], "shm") == 0,
		    .frames = atoi(argv[3]),
		    .width = atoi(argv[4]),
		    .height = atoi(argv[5]),
		    .device = strcmp(argv[6], "-") ? argv[6] : NULL,
		};
		return a.frames > 0 ? run(&a) : 2;
	}
	char frames[16] = "60", width[16] = "1024", height[16] = "768";
	const char *device = "-";
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
		else if (strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return 0;
		} else {
			usage(stderr);
			return 2;
		}
	}
	struct totals totals[2] = {{.path = "dma-buf"}, {.path = "shm"}};
	for (int round = 0; round < rounds; round++)
		for (int k = 0; k < 2; k++) {
			int which = k ^ (round & 1); /* dma-buf first in even rounds */
			char *child[] = {argv[0], "--run", which ? "shm" : "dmabuf", frames,
			                 width,   height,  (char *)device, NULL};
			if (!run_child(child, &totals[which])) {
				fprintf(stderr, "window: the %s run failed\n", which ? "shm" : "dma-buf");
				return 1;
			}
		}
	printf("\n%sx%s, %s frames x %d processes per path; ms, median of the processes' "
	       "medians (min .. max of all frames)\n",
	       width, height, frames, rounds);
	printf("| path | present | CPU in present | render alone | present - render | present to "
	       "next frame callback |\n");
	printf("| --- | --- | --- | --- | --- | --- |\n");
	double present[2], overhead[2];
	for (int p = 0; p < 2; p++) {
		struct totals *t = &totals[p];
		printf("| %s%s |", p == 0 ? "dma-buf asked, got " : "", t->path);
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
	if (strcmp(totals[0].path, "dma-buf") != 0)
		printf("the dma-buf run fell back to shm (its first line says why): no ratio\n");
	else
		printf("dma-buf / shm: present %.2f (the issue's target: at most 0.5); present less "
		       "the render %.2f\n",
		       present[0] / present[1], overhead[0] / overhead[1]);
	return 0;
}
