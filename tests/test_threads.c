/* Renderers and threads: two renderers on two threads under load (Mesa
 * 22.3's llvmpipe crashes there without the driver lock of
 * src/gbm/driver_lock.c), and one renderer used by two threads at once
 * (refused with SG_ERR_BUSY). SG_TEST_NO_DRIVER_LOCK=1 turns the lock off to
 * show the crash it prevents. */
#include <check.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sg/sg.h>

#include "expect.h"
#include "check_run.h"
#include "../src/render/driver_lock.h"
#include "../src/render/renderer_internal.h"

#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

/* The load of issue 9: 2 threads x 2000 textured models x 50 frames, 20
 * times; valgrind runs one smaller round (it serialises threads anyway). */
#define SIDE 64
#define CELL 2
#define CELLS_PER_ROW (SIDE / CELL)
#define CELLS (CELLS_PER_ROW * CELLS_PER_ROW)
static int models = 2000, frames = 50, shared_rounds = 12;

static void model_color(int model, int thread, uint8_t rgba[4])
{
	rgba[0] = (uint8_t)model;
	rgba[1] = (uint8_t)(model >> 8) * 60;
	rgba[2] = (uint8_t)(40 + 100 * thread);
	rgba[3] = 255;
}

/* Model i is a CELL x CELL quad in cell i % CELLS, with its own 4x4 texture of
 * one colour; later models cover earlier ones in the same cell. */
static struct sg_scene *build_scene(int thread)
{
	struct sg_scene *scene = sg_scene_create();
	ck_assert_ptr_nonnull(scene);
	sg_mesh quad = sg_mesh_create_quad(scene, CELL, CELL);
	for (int i = 0; i < models; i++) {
		uint8_t color[4], pixels[4 * 4 * 4];
		model_color(i, thread, color);
		for (int p = 0; p < 16; p++)
			memcpy(pixels + 4 * p, color, 4);
		sg_texture texture = sg_texture_create(
			scene, &(struct sg_texture_desc){.width = 4, .height = 4, .pixels = pixels});
		int cell = i % CELLS;
		sg_node model = sg_node_new_model(
			scene, &(struct sg_model_desc){
				.mesh = quad,
				.texture = texture,
				.position = {(float)(cell % CELLS_PER_ROW * CELL),
			                 (float)(cell / CELLS_PER_ROW * CELL), 0.0f}});
		expect(sg_node_add_child(scene, sg_scene_root(scene), model) == SG_OK, "model %d: %s", i,
		       sg_last_error());
	}
	return scene;
}

static void expected_image(int thread, uint8_t *rgba)
{
	for (int y = 0; y < SIDE; y++)
		for (int x = 0; x < SIDE; x++) {
			int cell = y / CELL * CELLS_PER_ROW + x / CELL;
			int top = -1; /* the last model in this cell */
			for (int i = cell; i < models; i += CELLS)
				top = i;
			uint8_t *out = rgba + (y * SIDE + x) * 4;
			if (top < 0)
				memcpy(out, (uint8_t[4]){0, 0, 0, 255}, 4);
			else
				model_color(top, thread, out);
		}
}

/* Both threads start drawing together: the crash needs their draws to overlap. */
static pthread_barrier_t start_line;

struct worker {
	int thread;
	struct sg_scene *scene; /* NULL: built on the worker's thread */
	int bad_frames;
	char failure[256];
};

static void *render_frames(void *arg)
{
	struct worker *w = arg;
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
		.width = SIDE, .height = SIDE, .target = SG_TARGET_SURFACELESS});
	struct sg_scene *scene = w->scene ? w->scene : build_scene(w->thread);
	uint8_t *expected = malloc(SIDE * SIDE * 4), *pixels = malloc(SIDE * SIDE * 4);
	if (!renderer) {
		snprintf(w->failure, sizeof(w->failure), "create: %s", sg_last_error());
		pthread_barrier_wait(&start_line);
		goto out;
	}
	expected_image(w->thread, expected);
	pthread_barrier_wait(&start_line);
	for (int f = 0; f < frames; f++) {
		if (sg_renderer_render(renderer, scene, NULL) ||
		    sg_renderer_read_pixels(renderer, pixels, 0)) {
			snprintf(w->failure, sizeof(w->failure), "frame %d: %s", f, sg_last_error());
			break;
		}
		w->bad_frames += memcmp(pixels, expected, SIDE * SIDE * 4) != 0;
	}
out:
	free(expected);
	free(pixels);
	sg_scene_destroy(scene);
	sg_renderer_destroy(renderer);
	return NULL;
}

/* Even rounds build each scene on its own thread, odd ones on the main thread. */
START_TEST(test_two_renderers_two_threads)
{
	struct worker workers[2] = {{.thread = 0}, {.thread = 1}};
	if (_i % 2)
		for (int t = 0; t < 2; t++)
			workers[t].scene = build_scene(t);
	pthread_t threads[2];
	ck_assert_int_eq(pthread_barrier_init(&start_line, NULL, 2), 0);
	for (int t = 0; t < 2; t++)
		ck_assert_int_eq(pthread_create(&threads[t], NULL, render_frames, &workers[t]), 0);
	for (int t = 0; t < 2; t++)
		pthread_join(threads[t], NULL);
	pthread_barrier_destroy(&start_line);
	for (int t = 0; t < 2; t++) {
		ck_assert_msg(!workers[t].failure[0], "thread %d: %s", t, workers[t].failure);
		ck_assert_msg(workers[t].bad_frames == 0, "thread %d: %d of %d frames differ", t,
		              workers[t].bad_frames, frames);
	}
}
END_TEST

START_TEST(test_driver_lock_only_for_software_rasterisers)
{
	ck_assert(sg_driver_lock_needed("llvmpipe (LLVM 15.0.6, 256 bits)"));
	ck_assert(sg_driver_lock_needed("softpipe"));
	ck_assert(!sg_driver_lock_needed("AMD Radeon RX 6600 (navi23, LLVM 15.0.6, DRM 3.49)"));
	ck_assert(!sg_driver_lock_needed("Mesa Intel(R) UHD Graphics 620 (KBL GT2)"));
	ck_assert(!sg_driver_lock_needed(NULL));
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
		.width = 8, .height = 8, .target = SG_TARGET_SURFACELESS});
	ck_assert_ptr_nonnull(renderer);
	const struct sg_renderer_info *info = sg_renderer_get_info(renderer);
	/* the lock is visible where it is taken */
	ck_assert_msg(!sg_driver_lock_needed(info->gl_renderer) ||
	                  strstr(info->reason, "GL submission serialised"),
	              "%s / %s", info->gl_renderer, info->reason);
	sg_renderer_destroy(renderer);
}
END_TEST

static struct sg_renderer *small_renderer(void)
{
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
		.width = SIDE, .height = SIDE, .target = SG_TARGET_SURFACELESS});
	ck_assert_ptr_nonnull(renderer);
	return renderer;
}

static void assert_busy(sg_result result, const char *call)
{
	ck_assert_int_eq(result, SG_ERR_BUSY);
	char expected[128];
	snprintf(expected, sizeof(expected), "%s: renderer is in use by another thread", call);
	ck_assert_str_eq(sg_last_error(), expected);
}

/* Every entry point refuses a renderer in use, without a race: the test holds
 * the flag as another thread's call would. */
START_TEST(test_renderer_in_use_is_refused)
{
	struct sg_renderer *renderer = small_renderer();
	struct sg_scene *scene = build_scene(0);
	ck_assert_int_eq(sg_renderer_render(renderer, scene, NULL), SG_OK);
	ck_assert(sg_renderer_enter_for_testing(renderer));
	ck_assert(!sg_renderer_enter_for_testing(renderer));

	uint8_t *pixels = malloc(SIDE * SIDE * 4);
	struct sg_render_stats stats;
	struct sg_dmabuf dmabuf;
	assert_busy(sg_renderer_render(renderer, scene, NULL), "sg_renderer_render");
	assert_busy(sg_renderer_read_pixels(renderer, pixels, 0), "sg_renderer_read_pixels");
	assert_busy(sg_renderer_write_png(renderer, "/nonexistent/never-written.png"),
	            "sg_renderer_write_png");
	assert_busy(sg_renderer_set_clear_color(renderer, 1, 0, 0, 1), "sg_renderer_set_clear_color");
	assert_busy(sg_renderer_set_culling(renderer, true), "sg_renderer_set_culling");
	assert_busy(sg_renderer_get_stats(renderer, &stats), "sg_renderer_get_stats");
	/* surfaceless has no buffer to export: that answer needs no state */
	ck_assert_int_eq(sg_renderer_export_dmabuf(renderer, &dmabuf), SG_ERR_UNSUPPORTED);
	/* destroying it under another call would free what that call uses: refused */
	sg_renderer_destroy(renderer);
	ck_assert_str_eq(sg_last_error(), "sg_renderer_destroy: renderer is in use by another thread");
	ck_assert_ptr_nonnull(sg_renderer_get_info(renderer)); /* still there (ASan would say) */

	sg_renderer_leave_for_testing(renderer);
	ck_assert_int_eq(sg_renderer_render(renderer, scene, NULL), SG_OK);
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, pixels, 0), SG_OK);
	uint8_t *expected = malloc(SIDE * SIDE * 4);
	expected_image(0, expected);
	ck_assert_mem_eq(pixels, expected, SIDE * SIDE * 4);
	free(expected);
	free(pixels);
	sg_scene_destroy(scene);
	sg_renderer_destroy(renderer);
}
END_TEST

struct hammer {
	struct sg_renderer *renderer;
	struct sg_scene *scene;
	const uint8_t *expected;
	atomic_int *busy_seen;
	int ok, bad, other;
	char failure[256];
};

static void *hammer_render(void *arg)
{
	struct hammer *h = arg;
	uint8_t *pixels = malloc(SIDE * SIDE * 4);
	/* Until either thread saw a refusal; bounded so that a missing check fails
	 * instead of hanging. */
	for (int i = 0; i < 20000 && atomic_load(h->busy_seen) < 4; i++) {
		sg_result result = sg_renderer_render(h->renderer, h->scene, NULL);
		if (result == SG_OK)
			result = sg_renderer_read_pixels(h->renderer, pixels, 0);
		if (result == SG_ERR_BUSY) {
			atomic_fetch_add(h->busy_seen, 1);
			if (!strstr(sg_last_error(), ": renderer is in use by another thread"))
				snprintf(h->failure, sizeof(h->failure), "BUSY says '%s'", sg_last_error());
		} else if (result == SG_OK) {
			h->ok++;
			h->bad += memcmp(pixels, h->expected, SIDE * SIDE * 4) != 0;
		} else if (!h->failure[0]) {
			/* a read_pixels after the other thread's failed render would say
			 * "nothing rendered yet"; renders here never fail */
			h->other++;
			snprintf(h->failure, sizeof(h->failure), "%s: %s", sg_result_name(result),
			         sg_last_error());
		}
	}
	free(pixels);
	return NULL;
}

/* Two threads on one renderer, each with its own scene of the same picture:
 * every call that succeeds gives that picture, the others are refused. */
START_TEST(test_one_renderer_two_threads_is_refused)
{
	int saved_models = models;
	models = 300;
	struct sg_renderer *renderer = small_renderer();
	uint8_t *expected = malloc(SIDE * SIDE * 4);
	expected_image(0, expected);
	atomic_int busy_seen = 0;
	struct hammer hammers[2];
	pthread_t threads[2];
	for (int t = 0; t < 2; t++) {
		hammers[t] = (struct hammer){
			.renderer = renderer, .scene = build_scene(0), .expected = expected, .busy_seen = &busy_seen};
		ck_assert_int_eq(pthread_create(&threads[t], NULL, hammer_render, &hammers[t]), 0);
	}
	for (int t = 0; t < 2; t++)
		pthread_join(threads[t], NULL);
	for (int t = 0; t < 2; t++) {
		ck_assert_msg(!hammers[t].failure[0], "thread %d: %s", t, hammers[t].failure);
		ck_assert_msg(hammers[t].bad == 0, "thread %d: %d of %d images wrong", t, hammers[t].bad,
		              hammers[t].ok);
		sg_scene_destroy(hammers[t].scene);
	}
	ck_assert_int_gt(atomic_load(&busy_seen), 0);
	ck_assert_int_gt(hammers[0].ok + hammers[1].ok, 0);
	free(expected);
	sg_renderer_destroy(renderer);
	models = saved_models;
}
END_TEST


/* One scene, two renderers on two threads drawing it at once (docs/api.md:
 * renders only read the scene, so any number may run together while nothing
 * edits it). The scene: a transform moving a clip over SHARED_MODELS
 * untextured quads (no texture: colours edited between rounds), one of them
 * hidden and shown in turn. Each round the main thread edits, then both
 * threads draw SHARED_FRAMES frames together, one renderer tracking damage
 * and one culling, and every frame of both must equal the picture computed
 * here by formula and a sequential render of the same scene. */
#define SHARED_MODELS 300
#define SHARED_FRAMES 3
#define SHARED_CLIP 48

struct shared_scene {
	struct sg_scene *scene;
	sg_node move, models[SHARED_MODELS];
	uint8_t colors[SHARED_MODELS][4];
	bool hidden[SHARED_MODELS];
	int dx; /* the transform's translation, whole pixels */
};

static void shared_color(int model, int round, uint8_t rgba[4])
{
	rgba[0] = (uint8_t)(model * 7 + round * 40);
	rgba[1] = (uint8_t)(model >> 2);
	rgba[2] = (uint8_t)(200 - round * 20);
	rgba[3] = 255;
}

static void shared_set_color(struct shared_scene *s, int i, int round)
{
	shared_color(i, round, s->colors[i]);
	const uint8_t *c = s->colors[i];
	ck_assert_int_eq(sg_model_set_color(s->scene, s->models[i], c[0] / 255.0f, c[1] / 255.0f,
	                                    c[2] / 255.0f, 1.0f),
	                 SG_OK);
}

static void shared_build(struct shared_scene *s)
{
	*s = (struct shared_scene){.scene = sg_scene_create()};
	struct sg_scene *scene = s->scene;
	ck_assert_ptr_nonnull(scene);
	sg_mesh quad = sg_mesh_create_quad(scene, CELL, CELL);
	s->move = sg_node_new_transform(scene, &(struct sg_transform_desc){.name = "move"});
	sg_node clip = sg_node_new_clip(
	    scene, &(struct sg_clip_desc){.width = SHARED_CLIP, .height = SHARED_CLIP});
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), s->move), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, s->move, clip), SG_OK);
	for (int i = 0; i < SHARED_MODELS; i++) {
		int cell = i % CELLS;
		s->models[i] = sg_node_new_model(
		    scene, &(struct sg_model_desc){.mesh = quad,
		                                   .position = {(float)(cell % CELLS_PER_ROW * CELL),
		                                                (float)(cell / CELLS_PER_ROW * CELL),
		                                                0.0f}});
		ck_assert_int_eq(sg_node_add_child(scene, clip, s->models[i]), SG_OK);
		shared_set_color(s, i, 0);
	}
}

/* The picture by formula: the clip and the quads moved by dx, the last shown
 * model of each cell on top, black elsewhere. */
static void shared_expected(const struct shared_scene *s, uint8_t *rgba)
{
	for (int y = 0; y < SIDE; y++)
		for (int x = 0; x < SIDE; x++) {
			uint8_t *out = rgba + (y * SIDE + x) * 4;
			memcpy(out, (uint8_t[4]){0, 0, 0, 255}, 4);
			int lx = x - s->dx;
			if (lx < 0 || lx >= SHARED_CLIP || y >= SHARED_CLIP)
				continue;
			int cell = y / CELL * CELLS_PER_ROW + lx / CELL;
			for (int i = cell; i < SHARED_MODELS; i += CELLS)
				if (!s->hidden[i])
					memcpy(out, s->colors[i], 4);
		}
}

struct shared_worker {
	struct sg_renderer *renderer;
	const struct sg_scene *scene; /* read only: the point of the test */
	uint8_t *frames[SHARED_FRAMES];
	char failure[256];
};

static pthread_barrier_t shared_start;

static void *draw_shared(void *arg)
{
	struct shared_worker *w = arg;
	pthread_barrier_wait(&shared_start);
	for (int f = 0; f < SHARED_FRAMES && !w->failure[0]; f++)
		if (sg_renderer_render(w->renderer, w->scene, NULL) ||
		    sg_renderer_read_pixels(w->renderer, w->frames[f], 0))
			snprintf(w->failure, sizeof(w->failure), "frame %d: %s", f, sg_last_error());
	return NULL;
}

START_TEST(test_two_renderers_one_scene)
{
	struct shared_scene s;
	shared_build(&s);
	struct shared_worker workers[2] = {{0}};
	for (int t = 0; t < 2; t++) {
		workers[t].renderer = small_renderer();
		workers[t].scene = s.scene;
		for (int f = 0; f < SHARED_FRAMES; f++)
			workers[t].frames[f] = malloc(SIDE * SIDE * 4);
	}
	ck_assert_int_eq(sg_renderer_set_damage_tracking(workers[0].renderer, true), SG_OK);
	ck_assert_int_eq(sg_renderer_set_culling(workers[1].renderer, true), SG_OK);
	struct sg_renderer *sequential = small_renderer();
	uint8_t *expected = malloc(SIDE * SIDE * 4), *alone = malloc(SIDE * SIDE * 4);
	for (int round = 0; round < shared_rounds; round++) {
		/* the edits, with nothing drawing */
		s.dx = round % 5 * 3;
		float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, (float)s.dx, 0, 0, 1};
		ck_assert_int_eq(sg_transform_set_matrix(s.scene, s.move, m), SG_OK);
		for (int i = round; i < SHARED_MODELS; i += 7)
			shared_set_color(&s, i, round);
		int toggled = (round * 37) % SHARED_MODELS;
		s.hidden[toggled] = !s.hidden[toggled];
		ck_assert_int_eq(sg_node_set_visible(s.scene, s.models[toggled], !s.hidden[toggled]),
		                 SG_OK);
		shared_expected(&s, expected);
		/* both at once */
		pthread_t threads[2];
		ck_assert_int_eq(pthread_barrier_init(&shared_start, NULL, 2), 0);
		for (int t = 0; t < 2; t++)
			ck_assert_int_eq(pthread_create(&threads[t], NULL, draw_shared, &workers[t]), 0);
		for (int t = 0; t < 2; t++)
			pthread_join(threads[t], NULL);
		pthread_barrier_destroy(&shared_start);
		/* then one alone */
		ck_assert_int_eq(sg_renderer_render(sequential, s.scene, NULL), SG_OK);
		ck_assert_int_eq(sg_renderer_read_pixels(sequential, alone, 0), SG_OK);
		ck_assert_msg(!memcmp(alone, expected, SIDE * SIDE * 4),
		              "round %d: the sequential render differs from the formula", round);
		for (int t = 0; t < 2; t++) {
			ck_assert_msg(!workers[t].failure[0], "round %d, thread %d: %s", round, t,
			              workers[t].failure);
			for (int f = 0; f < SHARED_FRAMES; f++)
				ck_assert_msg(!memcmp(workers[t].frames[f], alone, SIDE * SIDE * 4),
				              "round %d, thread %d, frame %d differs from the sequential "
				              "render",
				              round, t, f);
		}
	}
	for (int t = 0; t < 2; t++) {
		for (int f = 0; f < SHARED_FRAMES; f++)
			free(workers[t].frames[f]);
		sg_renderer_destroy(workers[t].renderer);
	}
	sg_renderer_destroy(sequential);
	free(expected);
	free(alone);
	sg_scene_destroy(s.scene);
}
END_TEST

int main(void)
{
	int rounds = 20;
	if (RUNNING_ON_VALGRIND)
		rounds = 1, models = 400, frames = 4, shared_rounds = 3;
	const char *no_lock = getenv("SG_TEST_NO_DRIVER_LOCK");
	bool lock = !no_lock || strcmp(no_lock, "1") != 0;
	sg_driver_lock_enable_for_testing(lock);

	Suite *suite = suite_create("threads");
	TCase *tc = tcase_create("core");
	tcase_add_loop_test(tc, test_two_renderers_two_threads, 0, rounds);
	if (lock)
		tcase_add_test(tc, test_driver_lock_only_for_software_rasterisers);
	tcase_add_test(tc, test_renderer_in_use_is_refused);
	tcase_add_test(tc, test_two_renderers_one_scene);
	tcase_add_test(tc, test_one_renderer_two_threads_is_refused);
	suite_add_tcase(suite, tc);
	return check_run(suite);
}
