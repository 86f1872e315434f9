/* sg_window against the test's own compositor (tests/drm/mini_compositor.c,
 * here without linux-dmabuf, so that it runs without a DRM device): what
 * weston's headless backend cannot do. Its seat's pointer, touch and keys
 * arrive as sg_input_event in buffer pixels, and the pointer's point picks
 * the model drawn there; the compositor's close reaches on_close; a
 * compositor without xdg_wm_base and a protocol error are clear errors
 * naming the global or the interface; a preferred fractional scale sizes
 * the buffers and the viewport. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/input-event-codes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sg/sg.h>
#include <sg/window.h>

#include "check_run.h"
#include "drm/mini_compositor.h"
#include "../tools/window_loop.h"

#define W 64
#define H 48

static struct {
	struct sg_input_event events[32];
	int count, closes;
} seen;

static void on_input(struct sg_window *window, const struct sg_input_event *event, void *data)
{
	(void)window, (void)data;
	if (seen.count < 32)
		seen.events[seen.count++] = *event;
}

static void on_close(struct sg_window *window, void *data)
{
	(void)window, (void)data;
	seen.closes++;
}

static struct mini_compositor *start(bool wm_base)
{
	struct mini_compositor *c = mini_compositor_start(
	    &(struct mini_compositor_desc){.no_dmabuf = true, .no_wm_base = !wm_base, .seat = true});
	ck_assert_ptr_nonnull(c);
	return c;
}

static struct sg_window *open_window(struct mini_compositor *c)
{
	memset(&seen, 0, sizeof(seen));
	struct sg_window *w = sg_window_create(&(struct sg_window_desc){
	    .display = mini_compositor_socket(c),
	    .title = "test_window_seat",
	    .width = W,
	    .height = H,
	    .on_input = on_input,
	    .on_close = on_close,
	});
	ck_assert_msg(w, "%s", sg_last_error());
	return w;
}

/* Dispatches until count events were seen (or closes, with count -1), for
 * at most two seconds. */
static void dispatch_until(struct sg_window *w, int count)
{
	for (int i = 0; i < 200; i++) {
		if (count >= 0 ? seen.count >= count : seen.closes > 0)
			return;
		struct pollfd fd = {.fd = sg_window_get_fd(w), .events = POLLIN};
		poll(&fd, 1, 10);
		ck_assert_msg(sg_window_dispatch(w) == SG_OK, "%s", sg_last_error());
	}
	ck_abort_msg("waited 2 s for %d events, saw %d", count, seen.count);
}

/* A scene of two models: A at (8, 8) 24 x 16, B at (36, 20) 20 x 20. */
static struct sg_scene *two_models(sg_node *a, sg_node *b)
{
	struct sg_scene *scene = sg_scene_create();
	*a = sg_node_new_model(scene, &(struct sg_model_desc){
	                                  .name = "A", .mesh = sg_mesh_create_quad(scene, 24, 16),
	                                  .position = {8, 8, 0}});
	*b = sg_node_new_model(scene, &(struct sg_model_desc){
	                                  .name = "B", .mesh = sg_mesh_create_quad(scene, 20, 20),
	                                  .position = {36, 20, 0}});
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), *a), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), *b), SG_OK);
	return scene;
}

START_TEST(test_seat_events_pick)
{
	struct mini_compositor *c = start(true);
	struct sg_window *w = open_window(c);
	sg_node a, b;
	struct sg_scene *scene = two_models(&a, &b);
	ck_assert_msg(sg_window_present(w, scene, NULL) == SG_OK, "%s", sg_last_error());

	mini_compositor_send(c, &(struct mini_event){.kind = MINI_POINTER_MOTION, .x = 12.25, .y = 9.5});
	dispatch_until(w, 1);
	const struct sg_input_event *e = &seen.events[0];
	ck_assert_int_eq(e->kind, SG_INPUT_POINTER_MOTION);
	ck_assert(e->x == 12.25 && e->y == 9.5); /* scale 1: surface units are pixels */
	struct sg_pick_hit hit;
	ck_assert_int_eq(sg_scene_pick(scene, NULL, W, H, (float)e->x, (float)e->y, &hit), SG_OK);
	ck_assert_int_eq(hit.node.index, a.index);

	mini_compositor_send(c, &(struct mini_event){.kind = MINI_POINTER_MOTION, .x = 50, .y = 30});
	mini_compositor_send(c, &(struct mini_event){
	                            .kind = MINI_POINTER_BUTTON, .code = BTN_LEFT, .pressed = true});
	dispatch_until(w, 3);
	e = &seen.events[2];
	ck_assert_int_eq(e->kind, SG_INPUT_POINTER_BUTTON);
	ck_assert_uint_eq(e->button, BTN_LEFT);
	ck_assert(e->pressed && e->x == 50 && e->y == 30);
	ck_assert_int_eq(sg_scene_pick(scene, NULL, W, H, (float)e->x, (float)e->y, &hit), SG_OK);
	ck_assert_int_eq(hit.node.index, b.index);

	mini_compositor_send(c, &(struct mini_event){
	                            .kind = MINI_TOUCH_DOWN, .id = 3, .x = 40.5, .y = 38.75});
	mini_compositor_send(c, &(struct mini_event){.kind = MINI_TOUCH_UP, .id = 3});
	dispatch_until(w, 5);
	ck_assert_int_eq(seen.events[3].kind, SG_INPUT_TOUCH_DOWN);
	ck_assert_int_eq(seen.events[3].slot, 3);
	ck_assert(seen.events[3].x == 40.5 && seen.events[3].y == 38.75);
	ck_assert_int_eq(seen.events[4].kind, SG_INPUT_TOUCH_UP);
	ck_assert_int_eq(seen.events[4].slot, 3);

	/* KEY_A through the compositor's keymap: 'a', and with Shift 'A' */
	mini_compositor_send(c, &(struct mini_event){.kind = MINI_KEY, .code = KEY_A, .pressed = true});
	mini_compositor_send(c, &(struct mini_event){
	                            .kind = MINI_KEY, .code = KEY_A, .pressed = true, .shift = true});
	dispatch_until(w, 7);
	ck_assert_int_eq(seen.events[5].kind, SG_INPUT_KEY);
	ck_assert_uint_eq(seen.events[5].key, KEY_A);
	ck_assert_uint_eq(seen.events[5].keysym, 'a'); /* XKB_KEY_a */
	ck_assert_str_eq(seen.events[5].text, "a");
	ck_assert_uint_eq(seen.events[5].modifiers, 0);
	ck_assert_uint_eq(seen.events[6].keysym, 'A');
	ck_assert_str_eq(seen.events[6].text, "A");
	ck_assert_uint_eq(seen.events[6].modifiers, SG_MODIFIER_SHIFT);

	/* the compositor closes the window */
	ck_assert(!sg_window_should_close(w));
	mini_compositor_send(c, &(struct mini_event){.kind = MINI_CLOSE});
	dispatch_until(w, -1);
	ck_assert_int_eq(seen.closes, 1);
	ck_assert(sg_window_should_close(w));

	sg_window_destroy(w);
	sg_scene_destroy(scene);
	mini_compositor_stop(c);
}
END_TEST

START_TEST(test_no_wm_base)
{
	struct mini_compositor *c = start(false);
	struct sg_window *w = sg_window_create(
	    &(struct sg_window_desc){.display = mini_compositor_socket(c), .width = W, .height = H});
	ck_assert_ptr_null(w);
	ck_assert_msg(strstr(sg_last_error(), "xdg_wm_base"), "%s", sg_last_error());
	mini_compositor_stop(c);
}
END_TEST

START_TEST(test_protocol_error)
{
	struct mini_compositor *c = start(true);
	struct sg_window *w = open_window(c);
	mini_compositor_send(c, &(struct mini_event){.kind = MINI_PROTOCOL_ERROR});
	sg_result r = SG_OK;
	for (int i = 0; i < 200 && !r; i++) {
		struct pollfd fd = {.fd = sg_window_get_fd(w), .events = POLLIN};
		poll(&fd, 1, 10);
		r = sg_window_dispatch(w);
	}
	ck_assert_int_ne(r, SG_OK);
	ck_assert_msg(strstr(sg_last_error(), "xdg_surface"), "%s", sg_last_error());
	/* and so is every later call, without a crash */
	struct sg_scene *scene = sg_scene_create();
	ck_assert_int_ne(sg_window_present(w, scene, NULL), SG_OK);
	sg_scene_destroy(scene);
	sg_window_destroy(w);
	mini_compositor_stop(c);
}
END_TEST

/* A compositor that prefers a scale of 1.5 (180 / 120) and configures 40 x
 * 30: buffers of 60 x 45 pixels, shown at 40 x 30 through the viewport, and
 * the pointer's surface coordinates times 1.5. */
START_TEST(test_fractional_scale)
{
	struct mini_compositor *c = mini_compositor_start(&(struct mini_compositor_desc){
	    .no_dmabuf = true, .seat = true, .fractional_120 = 180, .width = 40, .height = 30});
	ck_assert_ptr_nonnull(c);
	struct sg_window *w = open_window(c);
	struct sg_scene *scene = sg_scene_create();
	ck_assert_msg(sg_window_present(w, scene, NULL) == SG_OK, "%s", sg_last_error());
	const struct sg_window_info *info = sg_window_get_info(w);
	ck_assert(info->fractional_scale);
	ck_assert(info->scale == 1.5);
	ck_assert_int_eq(info->width, 60);
	ck_assert_int_eq(info->height, 45);
	struct mini_commit commit;
	for (int i = 0; i < 200 && !mini_compositor_commit(c, 0, &commit); i++)
		nanosleep(&(struct timespec){.tv_nsec = 10000000}, NULL);
	ck_assert_int_eq(commit.width, 60);
	ck_assert_int_eq(commit.height, 45);
	free(commit.pixels);
	struct mini_stats stats;
	mini_compositor_stats(c, &stats);
	ck_assert_int_eq(stats.viewport_width, 40);
	ck_assert_int_eq(stats.viewport_height, 30);
	mini_compositor_send(c, &(struct mini_event){.kind = MINI_POINTER_MOTION, .x = 10, .y = 20.5});
	dispatch_until(w, 1);
	ck_assert(seen.events[0].x == 15 && seen.events[0].y == 30.75);
	sg_window_destroy(w);
	sg_scene_destroy(scene);
	mini_compositor_stop(c);
}
END_TEST

/* --- frames: commits of an unchanged scene, configures, feedback ---------- */

static struct {
	struct sg_window_frame frames[64];
	int count;
} frames_seen;

static void on_frame(struct sg_window *window, const struct sg_window_frame *frame, void *data)
{
	(void)window, (void)data;
	if (frames_seen.count < 64)
		frames_seen.frames[frames_seen.count] = *frame;
	frames_seen.count++;
}

static struct sg_window *open_window_framed(struct mini_compositor *c)
{
	memset(&frames_seen, 0, sizeof(frames_seen));
	struct sg_window *w = sg_window_create(&(struct sg_window_desc){
	    .display = mini_compositor_socket(c),
	    .title = "test_window_seat",
	    .width = W,
	    .height = H,
	    .on_frame = on_frame,
	});
	ck_assert_msg(w, "%s", sg_last_error());
	return w;
}

/* docs/window.md's loop: present, then wait for the frame callback. */
static void present_and_wait(struct sg_window *w, struct sg_scene *scene)
{
	sg_result r = sg_window_present(w, scene, NULL);
	ck_assert_msg(r == SG_OK || r == SG_ERR_BUSY, "%s", sg_last_error());
	r = sg_window_wait(w, 10000);
	ck_assert_msg(r == SG_OK, "sg_window_wait: %s", sg_last_error());
}

/* The mini compositor's counts once the requests sent so far are handled:
 * the frame callback of a commit made after them is done, and the
 * compositor handles a client's requests in order. */
static void stats_after(struct sg_window *w, struct sg_scene *scene, sg_node moved, float x,
                        struct mini_stats *stats, struct mini_compositor *c)
{
	ck_assert_int_eq(sg_model_set_position(scene, moved, x, 8, 0), SG_OK);
	ck_assert_msg(sg_window_present(w, scene, NULL) == SG_OK, "%s", sg_last_error());
	ck_assert_msg(sg_window_wait(w, 10000) == SG_OK, "%s", sg_last_error());
	mini_compositor_stats(c, stats);
}

/* docs/window.md: "a present with nothing changed commits nothing". The
 * loop of the docs over a still scene presents again as soon as the last
 * present asked for no frame callback: twenty presents of the same scene
 * after the first commit nothing, and the edit after them is damaged alone
 * (the surface's frame is known across those presents, however many). */
START_TEST(test_unchanged_scene_commits_once)
{
	struct mini_compositor *c = start(true);
	struct sg_window *w = open_window_framed(c);
	sg_node a, b;
	struct sg_scene *scene = two_models(&a, &b);
	present_and_wait(w, scene);
	for (int i = 0; i < 20; i++)
		present_and_wait(w, scene);
	struct mini_stats stats;
	stats_after(w, scene, a, 10, &stats, c);
	/* the first commit (no buffer), the scene, and the edit */
	ck_assert_msg(stats.buffer_commits == 2,
	              "%d commits with a buffer for 21 presents of a "
	              "still scene and one edit (2 expected)",
	              stats.buffer_commits);
	ck_assert_int_eq(stats.commits, 3);
	struct mini_commit edit;
	ck_assert(mini_compositor_commit(c, 1, &edit));
	free(edit.pixels);
	ck_assert_int_ge(edit.damage_count, 1);
	/* A moved from x 8 to 10: its old and new place, 8 .. 34 x 8 .. 24 (a
	 * pixel either side for rounding), not the whole 64 x 48 buffer */
	for (int i = 0; i < edit.damage_count; i++) {
		const struct mini_rect *r = &edit.damage[i];
		ck_assert_msg(r->x >= 7 && r->y >= 7 && r->x + r->width <= 35 &&
		                  r->y + r->height <= 25,
		              "damage %d, %d %dx%d is beyond model A's two places", r->x, r->y,
		              r->width, r->height);
	}
	sg_window_destroy(w);
	sg_scene_destroy(scene);
	mini_compositor_stop(c);
}
END_TEST

/* Reports of frames first .. last, each once, in any order. */
static void expect_frames_reported(uint64_t first, uint64_t last)
{
	for (uint64_t f = first; f <= last; f++) {
		int n = 0;
		for (int i = 0; i < frames_seen.count && i < 64; i++)
			n += frames_seen.frames[i].frame == f;
		ck_assert_msg(n == 1, "frame %llu reported %d times (%d reports)",
		              (unsigned long long)f, n, frames_seen.count);
	}
	ck_assert_int_eq(frames_seen.count, (int)(last - first + 1));
}

static void dispatch_until_frames(struct sg_window *w, int count)
{
	for (int i = 0; i < 3000 && frames_seen.count < count; i++) {
		struct pollfd fd = {.fd = sg_window_get_fd(w), .events = POLLIN};
		poll(&fd, 1, 10);
		ck_assert_msg(sg_window_dispatch(w) == SG_OK, "%s", sg_last_error());
	}
	ck_assert_msg(frames_seen.count >= count, "on_frame came %d times, %d expected",
	              frames_seen.count, count);
}

/* Ten presents, each of the model a moved one pixel on, then every frame
 * reported once (frames_seen). */
static void ten_moving_frames(struct sg_window *w, struct sg_scene *scene, sg_node a)
{
	for (int i = 0; i < 10; i++) {
		ck_assert_int_eq(sg_model_set_position(scene, a, 8 + (float)i, 8, 0), SG_OK);
		present_and_wait(w, scene);
	}
	dispatch_until_frames(w, 10);
	expect_frames_reported(1, 10);
}

/* The first count frames reported were reported by their feedbacks. */
static void expect_by_feedback(int count)
{
	for (int i = 0; i < count; i++)
		ck_assert_msg(frames_seen.frames[i].presented, "frame %llu not by its feedback",
		              (unsigned long long)frames_seen.frames[i].frame);
}

/* Ten frames under a compositor that answers wp_presentation: each is
 * reported once, by its feedback (presented, on CLOCK_MONOTONIC). */
START_TEST(test_presentation_answered)
{
	struct mini_compositor *c = mini_compositor_start(&(struct mini_compositor_desc){
	    .no_dmabuf = true, .presentation = MINI_PRESENTATION_ANSWERED});
	ck_assert_ptr_nonnull(c);
	struct sg_window *w = open_window_framed(c);
	ck_assert(sg_window_get_info(w)->presentation);
	sg_node a, b;
	struct sg_scene *scene = two_models(&a, &b);
	ten_moving_frames(w, scene, a);
	expect_by_feedback(10);
	struct mini_stats stats;
	mini_compositor_stats(c, &stats);
	ck_assert_int_eq(stats.presentation_feedbacks, 10);
	sg_window_destroy(w);
	sg_scene_destroy(scene);
	mini_compositor_stop(c);
}
END_TEST

/* Under a compositor that renders ahead, each frame's feedback comes after
 * the next frame's callback: that is no reason to give feedback up. Frames
 * 1-9 are reported by their feedbacks; the tenth's is held until a commit
 * that never comes, so its callback reports it once the wait is over. */
START_TEST(test_presentation_one_frame_late)
{
	struct mini_compositor *c = mini_compositor_start(&(struct mini_compositor_desc){
	    .no_dmabuf = true, .presentation = MINI_PRESENTATION_ONE_LATE});
	ck_assert_ptr_nonnull(c);
	struct sg_window *w = open_window_framed(c);
	sg_node a, b;
	struct sg_scene *scene = two_models(&a, &b);
	ten_moving_frames(w, scene, a);
	expect_by_feedback(9);
	sg_window_destroy(w);
	sg_scene_destroy(scene);
	mini_compositor_stop(c);
}
END_TEST

/* Under a compositor that offers wp_presentation and never answers its
 * feedbacks (sway 1.7), every frame is still reported, once, from its frame
 * callback: the ten of an animation, and the one of a still scene. */
START_TEST(test_presentation_unanswered)
{
	struct mini_compositor *c = mini_compositor_start(&(struct mini_compositor_desc){
	    .no_dmabuf = true, .presentation = MINI_PRESENTATION_UNANSWERED});
	ck_assert_ptr_nonnull(c);
	struct sg_window *w = open_window_framed(c);
	sg_node a, b;
	struct sg_scene *scene = two_models(&a, &b);
	ten_moving_frames(w, scene, a);
	for (int i = 0; i < 10; i++)
		ck_assert(!frames_seen.frames[i].presented && !frames_seen.frames[i].discarded);
	sg_window_destroy(w);

	/* one frame and nothing after it */
	w = open_window_framed(c);
	present_and_wait(w, scene);
	dispatch_until_frames(w, 1);
	expect_frames_reported(1, 1);
	sg_window_destroy(w);
	sg_scene_destroy(scene);
	mini_compositor_stop(c);
}
END_TEST

/* tools/window_loop.c (three-rects --window, sg-render --window) on a still
 * scene under a compositor that configures a new size between the first
 * frame and its frame callback (cage): the second frame is the picture
 * stretched over the new size, not the first size's picture in a corner. */
START_TEST(test_loop_configure_before_done)
{
	struct mini_compositor *c = mini_compositor_start(&(struct mini_compositor_desc){
	    .no_dmabuf = true, .reconfigure_width = 2 * W, .reconfigure_height = 2 * H});
	ck_assert_ptr_nonnull(c);
	sg_node a, b;
	struct sg_scene *scene = two_models(&a, &b);
	ck_assert_int_eq(sg_model_set_color(scene, a, 1, 0, 0, 1), SG_OK);
	ck_assert_int_eq(sg_model_set_color(scene, b, 0, 1, 0, 1), SG_OK);
	struct window_loop loop = {
	    .program = "test_window_seat",
	    .desc = {.display = mini_compositor_socket(c),
	             .width = W,
	             .height = H,
	             .clear_color = {0, 0, 1, 1}},
	    .scene = scene,
	    .frames = 2,
	    .seconds = 30, /* a bound for a loop that never shows the second */
	    .quiet = true,
	    .still_width = W,
	    .still_height = H,
	};
	ck_assert_int_eq(window_loop_run(&loop, NULL), 0);
	struct mini_commit first, second;
	ck_assert(mini_compositor_commit(c, 0, &first));
	ck_assert_msg(mini_compositor_commit(c, 1, &second), "no frame after the configure");
	ck_assert_int_eq(first.width, W);
	ck_assert_int_eq(second.width, 2 * W);
	ck_assert_int_eq(second.height, 2 * H);
	ck_assert_ptr_nonnull(second.pixels);
	/* Twice the scene's numbers: A 16 .. 64 x 16 .. 48, B 72 .. 112 x 40 ..
	 * 80; in the unscaled picture (50, 44) would be clear and (100, 70)
	 * outside it. XRGB8888 in memory: B, G, R, X. */
	static const struct {
		int x, y;
		uint8_t bgr[3];
	} points[] = {{50, 44, {0, 0, 255}}, {100, 70, {0, 255, 0}}, {120, 10, {255, 0, 0}}};
	for (size_t i = 0; i < sizeof(points) / sizeof(points[0]); i++) {
		const uint8_t *p = second.pixels + ((size_t)points[i].y * 2 * W + points[i].x) * 4;
		ck_assert_msg(memcmp(p, points[i].bgr, 3) == 0,
		              "(%d, %d) is B G R %d %d %d, %d %d %d expected", points[i].x,
		              points[i].y, p[0], p[1], p[2], points[i].bgr[0], points[i].bgr[1],
		              points[i].bgr[2]);
	}
	free(first.pixels);
	free(second.pixels);
	sg_scene_destroy(scene);
	mini_compositor_stop(c);
}
END_TEST

/* A clear colour set on the window's renderer (sg_window_get_renderer), not
 * through sg_window_set_clear_color, stays when a resize makes the renderer
 * anew. */
START_TEST(test_renderer_clear_color_kept)
{
	struct mini_compositor *c = mini_compositor_start(&(struct mini_compositor_desc){
	    .no_dmabuf = true, .reconfigure_width = 2 * W, .reconfigure_height = 2 * H});
	ck_assert_ptr_nonnull(c);
	struct sg_window *w =
	    sg_window_create(&(struct sg_window_desc){.display = mini_compositor_socket(c),
	                                              .width = W,
	                                              .height = H,
	                                              .clear_color = {0, 0, 1, 1}});
	ck_assert_msg(w, "%s", sg_last_error());
	struct sg_scene *scene = sg_scene_create();
	ck_assert_msg(sg_window_present(w, scene, NULL) == SG_OK, "%s", sg_last_error());
	ck_assert_int_eq(sg_renderer_set_clear_color(sg_window_get_renderer(w), 0, 1, 0, 1), SG_OK);
	ck_assert_msg(sg_window_wait(w, 10000) == SG_OK, "%s", sg_last_error());
	ck_assert_msg(sg_window_present(w, scene, NULL) == SG_OK, "%s", sg_last_error());
	ck_assert_msg(sg_window_wait(w, 10000) == SG_OK, "%s", sg_last_error());
	struct mini_commit second;
	ck_assert_msg(mini_compositor_commit(c, 1, &second), "no frame after the configure");
	ck_assert_int_eq(second.width, 2 * W);
	ck_assert_ptr_nonnull(second.pixels);
	const uint8_t *p = second.pixels + ((size_t)H * 2 * W + W) * 4; /* B, G, R, X */
	ck_assert_msg(p[0] == 0 && p[1] == 255 && p[2] == 0,
	              "the clear colour is B G R %d %d %d, "
	              "0 255 0 was set on the renderer",
	              p[0], p[1], p[2]);
	free(second.pixels);
	sg_window_destroy(w);
	sg_scene_destroy(scene);
	mini_compositor_stop(c);
}
END_TEST

/* sg-render --window on a scene of one frame: it stays (a resize is
 * presented at the new size) until the compositor closes it, as viewer
 * --window does; before, it ended once its frame was shown. */
START_TEST(test_sg_render_one_frame_stays)
{
	const char *tool = getenv("SG_RENDER_PATH");
	if (!tool || !*tool)
		return; /* built without the tools */
	struct mini_compositor *c =
	    mini_compositor_start(&(struct mini_compositor_desc){.no_dmabuf = true});
	ck_assert_ptr_nonnull(c);
	char scene[] = "/tmp/sg-window-scene-XXXXXX.json", out[] = "/tmp/sg-window-out-XXXXXX";
	int scene_fd = mkstemps(scene, 5), out_fd = mkstemp(out);
	ck_assert(scene_fd >= 0 && out_fd >= 0);
	static const char json[] =
	    "{\"output\": {\"width\": 64, \"height\": 48}, "
	    "\"meshes\": {\"q\": {\"type\": \"quad\", \"width\": 16, \"height\": 16}}, "
	    "\"nodes\": [{\"type\": \"model\", \"mesh\": \"q\"}]}";
	ck_assert_int_eq(write(scene_fd, json, sizeof(json) - 1), (ssize_t)sizeof(json) - 1);
	close(scene_fd);
	pid_t child = fork();
	ck_assert_int_ge(child, 0);
	if (child == 0) {
		unsetenv("WAYLAND_SOCKET");
		setenv("WAYLAND_DISPLAY", mini_compositor_socket(c), 1);
		/* statuses, not leaks: see test_window.c's sg-render check */
		const char *asan = getenv("ASAN_OPTIONS");
		char options[512];
		snprintf(options, sizeof(options), "%s%sdetect_leaks=0", asan ? asan : "",
		         asan && *asan ? ":" : "");
		setenv("ASAN_OPTIONS", options, 1);
		dup2(out_fd, 1);
		execl(tool, tool, scene, "--window", "--info", (char *)NULL);
		_exit(127);
	}
	close(out_fd);
	/* its frame, then a new size: a second commit only from a loop that is
	 * still running (the first frame's callback went before the configure) */
	struct mini_stats stats = {0};
	int status = 0;
	pid_t ended = 0;
	for (int i = 0; i < 3000 && stats.buffer_commits < 1 && !ended; i++) {
		nanosleep(&(struct timespec){.tv_nsec = 10000000}, NULL);
		mini_compositor_stats(c, &stats);
		ended = waitpid(child, &status, WNOHANG);
	}
	ck_assert_msg(stats.buffer_commits >= 1 && !ended,
	              "sg-render showed no frame (status 0x%x)", status);
	mini_compositor_send(c,
	                     &(struct mini_event){.kind = MINI_CONFIGURE, .x = 2 * W, .y = 2 * H});
	for (int i = 0; i < 3000 && stats.buffer_commits < 2 && !ended; i++) {
		nanosleep(&(struct timespec){.tv_nsec = 10000000}, NULL);
		mini_compositor_stats(c, &stats);
		ended = waitpid(child, &status, WNOHANG);
	}
	ck_assert_msg(stats.buffer_commits >= 2,
	              "sg-render ended after its one frame (status 0x%x)", status);
	struct mini_commit second;
	ck_assert(mini_compositor_commit(c, 1, &second));
	free(second.pixels);
	ck_assert_int_eq(second.width, 2 * W);
	ck_assert_int_eq(second.height, 2 * H);
	mini_compositor_send(c, &(struct mini_event){.kind = MINI_CLOSE});
	if (!ended)
		ck_assert_int_eq(waitpid(child, &status, 0), child);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "sg-render status 0x%x",
	              status);
	FILE *f = fopen(out, "r");
	ck_assert_ptr_nonnull(f);
	char line[512];
	bool closed = false;
	while (fgets(line, sizeof(line), f))
		closed |=
		    strstr(line, "frames shown in") && strstr(line, "closed by the compositor");
	fclose(f);
	unlink(out);
	unlink(scene);
	ck_assert_msg(closed, "sg-render's last line does not say the compositor closed it");
	mini_compositor_stop(c);
}
END_TEST

/* --- connecting: what failed, named ------------------------------------------ */

static struct {
	char messages[8][512];
	int count;
} logged;

static void on_log(enum sg_log_level level, const char *message, void *data)
{
	(void)level, (void)data;
	if (logged.count < 8)
		snprintf(logged.messages[logged.count], sizeof(logged.messages[0]), "%s", message);
	logged.count++;
}

/* sg_window_create with desc's display, stderr caught in a file: the
 * message of its failure, and what went to stderr (the caller frees both). */
static char *create_fails(const char *display, char **stderr_text)
{
	char path[] = "/tmp/sg-window-stderr-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	unlink(path);
	fflush(stderr);
	int saved = dup(2);
	ck_assert_int_eq(dup2(fd, 2), 2);
	memset(&logged, 0, sizeof(logged));
	sg_log_set_handler(on_log, NULL);
	sg_log_set_priority(SG_LOG_DEBUG);
	struct sg_window *w = sg_window_create(&(struct sg_window_desc){.display = display});
	sg_log_set_handler(NULL, NULL);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	ck_assert_ptr_null(w);
	ck_assert_int_eq(sg_last_result(), SG_ERR_DEVICE);
	off_t size = lseek(fd, 0, SEEK_END);
	*stderr_text = calloc(1, (size_t)size + 1);
	ck_assert_int_eq(pread(fd, *stderr_text, (size_t)size, 0), size);
	close(fd);
	return strdup(sg_last_error());
}

/* WAYLAND_SOCKET, which libwayland takes before any name, that is no
 * number: libwayland fails with errno 0, and the message names the value. */
START_TEST(test_wayland_socket_not_a_number)
{
	setenv("WAYLAND_SOCKET", "abc", 1);
	char *err, *message = create_fails(NULL, &err);
	ck_assert_msg(strstr(message, "WAYLAND_SOCKET is \"abc\"") && !strstr(message, "Success"),
	              "%s", message);
	free(message);
	free(err);
}
END_TEST

/* WAYLAND_SOCKET naming a file descriptor that is not open: the message
 * names WAYLAND_SOCKET and the errno, not WAYLAND_DISPLAY. */
START_TEST(test_wayland_socket_closed)
{
	int fd = 999;
	ck_assert_int_eq(fcntl(fd, F_GETFD), -1); /* not open */
	setenv("WAYLAND_SOCKET", "999", 1);
	setenv("WAYLAND_DISPLAY", "wayland-7", 1);
	char *err, *message = create_fails(NULL, &err);
	ck_assert_msg(strstr(message, "WAYLAND_SOCKET=999") && strstr(message, strerror(EBADF)) &&
	                  !strstr(message, "WAYLAND_DISPLAY") && !strstr(message, "wayland-7"),
	              "%s", message);
	free(message);
	free(err);
}
END_TEST

/* No XDG_RUNTIME_DIR and a socket name that is not a path: the message says
 * so, and libwayland's own line does not come before ours on stderr (libsg
 * does not ask libwayland to connect, rather than take over its log
 * handler, which is the whole process's). */
START_TEST(test_no_runtime_dir)
{
	unsetenv("WAYLAND_SOCKET");
	unsetenv("XDG_RUNTIME_DIR");
	setenv("WAYLAND_DISPLAY", "wayland-7", 1);
	char *err, *message = create_fails(NULL, &err);
	ck_assert_msg(strstr(message, "XDG_RUNTIME_DIR is not set") &&
	                  strstr(message, "\"wayland-7\" is not an absolute path"),
	              "%s", message);
	ck_assert_msg(err[0] == '\0', "on stderr: %s", err);
	free(message);
	free(err);

	/* an absolute path needs no XDG_RUNTIME_DIR: the socket is named */
	message = create_fails("/nonexistent/wayland-7", &err);
	ck_assert_msg(strstr(message, "no Wayland compositor at /nonexistent/wayland-7") &&
	                  strstr(message, strerror(ENOENT)),
	              "%s", message);
	free(message);
	free(err);
}
END_TEST

static Suite *seat_suite(void)
{
	Suite *suite = suite_create("window-seat");
	TCase *tc = tcase_create("mini");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_seat_events_pick);
	tcase_add_test(tc, test_no_wm_base);
	tcase_add_test(tc, test_protocol_error);
	tcase_add_test(tc, test_fractional_scale);
	tcase_add_test(tc, test_unchanged_scene_commits_once);
	tcase_add_test(tc, test_presentation_answered);
	tcase_add_test(tc, test_presentation_unanswered);
	tcase_add_test(tc, test_presentation_one_frame_late);
	tcase_add_test(tc, test_loop_configure_before_done);
	tcase_add_test(tc, test_renderer_clear_color_kept);
	tcase_add_test(tc, test_sg_render_one_frame_stays);
	tcase_add_test(tc, test_wayland_socket_not_a_number);
	tcase_add_test(tc, test_wayland_socket_closed);
	tcase_add_test(tc, test_no_runtime_dir);
	suite_add_tcase(suite, tc);
	return suite;
}

int main(void)
{
	return check_run(seat_suite());
}
