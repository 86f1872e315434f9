/* sg_window's dma-buf path against a compositor that takes dma-bufs
 * (mini_compositor.c, in a thread of this process), on the vgem guest: the
 * window renders on the device the linux-dmabuf feedback names, shares a
 * ring of gbm_bo, and what the compositor maps of each commit equals a
 * surfaceless render of the same frame. Also: no commit for an unchanged
 * scene, no wl_buffer made per frame, every wl_buffer destroyed with the
 * window, no fd left; and a compositor that offers only a modifier EGL
 * cannot render to gets the shm path, with the reason. */
#include <dirent.h>
#include <drm_fourcc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mini_compositor.h"
#include "output_test.h"

#define WINDOW_W 320
#define WINDOW_H 240
#define FRAMES 10
#define FRAME_TIMEOUT_S 10.0

static double seconds_now(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

static int count_fds(void)
{
	DIR *dir = opendir("/proc/self/fd");
	ck_assert_ptr_nonnull(dir);
	int count = 0;
	while (readdir(dir))
		count++;
	closedir(dir);
	return count;
}

struct frames {
	uint64_t last; /* sg_window_frame.frame of the last on_frame */
	int count;
};

static void on_frame(struct sg_window *window, const struct sg_window_frame *frame, void *user_data)
{
	(void)window;
	struct frames *frames = user_data;
	frames->last = frame->frame;
	frames->count++;
}

/* The compositor sends the frame callback's done after it has copied the
 * commit, so its record is there once on_frame came. */
static void wait_for_frame(struct sg_window *window, const struct frames *frames, uint64_t frame)
{
	double deadline = seconds_now() + FRAME_TIMEOUT_S;
	while (frames->last < frame) {
		ck_assert_msg(seconds_now() < deadline,
		              "no frame callback for frame %llu in %.0f s",
		              (unsigned long long)frame, FRAME_TIMEOUT_S);
		sg_result result = sg_window_wait(window, 1000);
		ck_assert_msg(result == SG_OK || result == SG_ERR_BUSY, "sg_window_wait: %s",
		              sg_last_error());
	}
	ck_assert_uint_eq(frames->last, frame);
}

static bool inside(const struct mini_commit *commit, int x, int y)
{
	for (int i = 0; i < commit->damage_count; i++) {
		const struct mini_rect *r = &commit->damage[i];
		if (x >= r->x && y >= r->y && x < r->x + r->width && y < r->y + r->height)
			return true;
	}
	return false;
}

/* Pixels whose RGB changed from before to now but lie outside the commit's damage. */
static int undamaged_changes(const struct mini_commit *commit, const uint8_t *before,
                             const uint8_t *now)
{
	if (commit->damage_overflow)
		return 0; /* the first MINI_MAX_DAMAGE rects only: not checkable */
	int missed = 0;
	for (int y = 0; y < commit->height; y++)
		for (int x = 0; x < commit->width; x++) {
			size_t p = ((size_t)y * (size_t)commit->width + (size_t)x) * 4;
			missed += memcmp(before + p, now + p, 3) != 0 && !inside(commit, x, y);
		}
	return missed;
}

/* Record index of the compositor as RGBA, after checking what it says of itself. */
static uint8_t *commit_rgba(struct mini_compositor *compositor, int index,
                            enum mini_buffer_kind kind, uint32_t format, struct mini_commit *commit)
{
	ck_assert_msg(mini_compositor_commit(compositor, index, commit),
	              "the compositor has no record of buffer commit %d", index);
	ck_assert_msg(commit->pixels, "commit %d: the compositor could not read it: %s", index,
	              commit->error);
	ck_assert_int_eq(commit->kind, kind);
	ck_assert_int_eq(commit->width, WINDOW_W);
	ck_assert_int_eq(commit->height, WINDOW_H);
	ck_assert_msg(commit->format == format, "commit %d: format %.4s, the window says %.4s",
	              index, (const char *)&commit->format, (const char *)&format);
	uint8_t *rgba = malloc((size_t)WINDOW_W * WINDOW_H * 4);
	ck_assert_ptr_nonnull(rgba);
	drm_image_to_rgba(commit->format, commit->pixels, (size_t)WINDOW_W * 4, WINDOW_W, WINDOW_H,
	                  rgba);
	free(commit->pixels);
	commit->pixels = NULL;
	return rgba;
}

static void print_window(struct sg_window *window)
{
	const struct sg_window_info *info = sg_window_get_info(window);
	const struct sg_renderer_info *renderer =
	    sg_renderer_get_info(sg_window_get_renderer(window));
	printf("window: %s, %dx%d, linux-dmabuf v%d, %s path, %.4s modifier 0x%llx, %d buffers, "
	       "renderer %s on %s (%s)\nwindow: path_reason: %s\n",
	       info->display, info->width, info->height, info->dmabuf_version,
	       info->path == SG_WINDOW_PATH_DMABUF ? "dma-buf" : "shm", (const char *)&info->format,
	       (unsigned long long)info->modifier, info->buffer_count, info->renderer,
	       renderer->device, renderer->reason, info->path_reason);
}

START_TEST(test_dmabuf_path)
{
	double start = seconds_now();
	struct animated_scene animated;
	animated_scene_init(&animated);
	struct sg_renderer *reference = reference_renderer(WINDOW_W, WINDOW_H);
	int fds_before = count_fds();
	struct mini_compositor *compositor = mini_compositor_start(
	    &(struct mini_compositor_desc){.width = WINDOW_W, .height = WINDOW_H});
	ck_assert_msg(compositor, "the test compositor did not start");

	struct frames frames = {0};
	struct sg_window *window = sg_window_create(&(struct sg_window_desc){
	    .display = mini_compositor_socket(compositor),
	    .title = "test_window_dmabuf",
	    .width = WINDOW_W,
	    .height = WINDOW_H,
	    .on_frame = on_frame,
	    .user_data = &frames,
	});
	ck_assert_msg(window, "sg_window_create: %s", sg_last_error());
	double created = seconds_now();
	print_window(window);
	const struct sg_window_info *info = sg_window_get_info(window);
	ck_assert_msg(info->path == SG_WINDOW_PATH_DMABUF, "path %d: %s", info->path,
	              info->path_reason);
	ck_assert_int_eq(info->dmabuf_version, 4);
	ck_assert_msg(info->format == DRM_FORMAT_XRGB8888, "format %.4s",
	              (const char *)&info->format);
	ck_assert_msg(info->modifier == DRM_FORMAT_MOD_INVALID ||
	                  info->modifier == DRM_FORMAT_MOD_LINEAR,
	              "modifier 0x%llx was not offered", (unsigned long long)info->modifier);
	ck_assert_int_eq(info->width, WINDOW_W);
	ck_assert_int_eq(info->height, WINDOW_H);
	ck_assert_int_eq(info->buffer_count, 3);
	/* The feedback names card0: the window asks for its render node, where
	 * kms_swrast cannot allocate, and the renderer moves to card0. */
	ck_assert_str_eq(sg_renderer_get_info(sg_window_get_renderer(window))->device,
	                 "/dev/dri/card0");

	struct mini_stats stats;
	mini_compositor_stats(compositor, &stats);
	printf("compositor after create: %d feedback(s), %d configure(s), %d acked, %d "
	       "wl_buffer(s) made, %d refused, %d commit(s)\n",
	       stats.feedbacks, stats.configures, stats.acked, stats.buffers_created,
	       stats.params_failed, stats.commits);
	ck_assert_int_eq(stats.feedbacks, 1);
	ck_assert_int_eq(stats.configures, 1);
	ck_assert_int_eq(stats.acked, 1);
	ck_assert_int_eq(stats.params_failed, 0);
	ck_assert_int_eq(stats.buffers_created, info->buffer_count);
	ck_assert_int_eq(stats.buffer_commits, 0); /* nothing shown before the first present */

	uint8_t *before = NULL;
	int last_buffer = -1, first_commit = 0;
	for (int f = 0; f <= FRAMES; f++) {
		if (f == FRAMES) {
			/* the scene as it is: rendered, but nothing to commit */
			mini_compositor_stats(compositor, &stats);
			ck_assert_int_eq(
			    sg_window_present(window, animated.scene, &animated.camera), SG_OK);
			ck_assert_int_eq(sg_window_wait(window, 0), SG_OK);
			nanosleep(&(struct timespec){.tv_nsec = 200000000}, NULL);
			ck_assert_int_eq(sg_window_dispatch(window), SG_OK);
			struct mini_stats after;
			mini_compositor_stats(compositor, &after);
			printf("unchanged scene: commits %d -> %d, frame callbacks %d\n",
			       stats.commits, after.commits, frames.count);
			ck_assert_int_eq(after.commits, stats.commits);
			ck_assert_int_eq(frames.count, FRAMES);
		}
		animated_scene_set_frame(&animated, f);
		double t0 = seconds_now();
		sg_result result = sg_window_present(window, animated.scene, &animated.camera);
		ck_assert_msg(result == SG_OK, "present of frame %d: %s", f, sg_last_error());
		wait_for_frame(window, &frames, (uint64_t)f + 1);
		double t1 = seconds_now();
		struct mini_commit commit;
		uint8_t *rgba =
		    commit_rgba(compositor, f, MINI_BUFFER_DMABUF, info->format, &commit);
		uint8_t *expected = reference_render(reference, &animated);
		int differing = count_differing_rgb(rgba, expected, WINDOW_W, WINDOW_H);
		int changed = before ? count_differing_rgb(rgba, before, WINDOW_W, WINDOW_H) : -1;
		int missed = before ? undamaged_changes(&commit, before, rgba) : 0;
		const struct mini_rect *d = &commit.damage[0];
		printf("frame %d: commit %d in wl_buffer %d (modifier 0x%llx), %d damage rect(s)%s "
		       "(the first %dx%d+%d+%d), %d pixel(s) changed, %d changed outside the "
		       "damage, %d of %d differ from surfaceless; present to frame callback "
		       "%.3f s\n",
		       f, commit.commit, commit.buffer, (unsigned long long)commit.modifier,
		       commit.damage_count, commit.damage_overflow ? " (overflow)" : "", d->width,
		       d->height, d->x, d->y, changed, missed, differing, WINDOW_W * WINDOW_H,
		       t1 - t0);
		ck_assert_msg(commit.modifier == info->modifier, "frame %d: modifier 0x%llx", f,
		              (unsigned long long)commit.modifier);
		ck_assert_int_eq(differing, 0);
		ck_assert_int_eq(missed, 0);
		ck_assert_msg(commit.buffer >= 0 && commit.buffer < info->buffer_count,
		              "frame %d in wl_buffer %d of %d", f, commit.buffer,
		              info->buffer_count);
		/* the ring turns: the buffer just released is not drawn into again at once */
		ck_assert_int_ne(commit.buffer, last_buffer);
		last_buffer = commit.buffer;
		if (f == 0) {
			first_commit = commit.commit;
			ck_assert_int_ge(commit.damage_count, 1); /* the whole buffer */
			ck_assert_int_eq(commit.damage[0].width, WINDOW_W);
			ck_assert_int_eq(commit.damage[0].height, WINDOW_H);
		} else {
			/* one commit per frame, the unchanged present included */
			ck_assert_int_eq(commit.commit, first_commit + f);
			ck_assert_int_gt(changed, 0); /* not two equal frames */
		}
		free(expected);
		free(before);
		before = rgba;
	}
	free(before);
	mini_compositor_stats(compositor, &stats);
	printf("compositor after %d frames: %d commit(s), %d with a buffer, %d release(s), %d "
	       "wl_buffer(s) made\n",
	       FRAMES + 1, stats.commits, stats.buffer_commits, stats.releases,
	       stats.buffers_created);
	ck_assert_int_eq(stats.buffer_commits, FRAMES + 1);
	ck_assert_int_eq(stats.buffers_created, info->buffer_count); /* none made per frame */
	ck_assert_int_eq(stats.releases, FRAMES);
	double presented = seconds_now();

	sg_window_destroy(window);
	ck_assert_msg(mini_compositor_wait_no_clients(compositor, 5000),
	              "the window's connection is still open 5 s after sg_window_destroy");
	mini_compositor_stats(compositor, &stats);
	printf("after sg_window_destroy: %d of %d wl_buffer(s) destroyed; %d of %d linux-dmabuf "
	       "feedback(s) destroyed by the client before it disconnected\n",
	       stats.buffers_destroyed, stats.buffers_created, stats.feedbacks_destroyed,
	       stats.feedbacks);
	ck_assert_int_eq(stats.buffers_destroyed, stats.buffers_created);
	/* destroyed by the window: on a wl_display the caller owns, nothing
	 * else would free it, and its listener would outlive the window */
	ck_assert_int_eq(stats.feedbacks_destroyed, stats.feedbacks);
	mini_compositor_stop(compositor);
	int fds_after = count_fds();
	printf("fds: %d before the compositor, %d after it stopped\n", fds_before, fds_after);
	ck_assert_int_eq(fds_after, fds_before);
	sg_renderer_destroy(reference);
	animated_scene_finish(&animated);
	printf("window-dmabuf: create %.2f s, %d frames %.2f s, all %.2f s\n", created - start,
	       FRAMES + 1, presented - created, seconds_now() - start);
}
END_TEST

/* A compositor that imports only an X-tiled layout, which llvmpipe cannot
 * render to: no wl_buffer is even asked for, the window says why and shows
 * its frames through wl_shm. */
START_TEST(test_unrenderable_modifier_falls_back_to_shm)
{
	double start = seconds_now();
	struct animated_scene animated;
	animated_scene_init(&animated);
	struct sg_renderer *reference = reference_renderer(WINDOW_W, WINDOW_H);
	int fds_before = count_fds();
	struct mini_compositor *compositor = mini_compositor_start(&(struct mini_compositor_desc){
	    .width = WINDOW_W,
	    .height = WINDOW_H,
	    .modifiers = {I915_FORMAT_MOD_X_TILED},
	    .modifier_count = 1,
	});
	ck_assert_msg(compositor, "the test compositor did not start");
	struct frames frames = {0};
	struct sg_window *window = sg_window_create(&(struct sg_window_desc){
	    .display = mini_compositor_socket(compositor),
	    .width = WINDOW_W,
	    .height = WINDOW_H,
	    .buffer_count = 2,
	    .on_frame = on_frame,
	    .user_data = &frames,
	});
	ck_assert_msg(window, "sg_window_create: %s", sg_last_error());
	print_window(window);
	const struct sg_window_info *info = sg_window_get_info(window);
	ck_assert_int_eq(info->path, SG_WINDOW_PATH_SHM);
	ck_assert_int_eq(info->dmabuf_version, 4);
	ck_assert_int_eq(info->buffer_count, 2);
	ck_assert_msg(strstr(info->path_reason, "XR24") &&
	                  strstr(info->path_reason, "no modifier both EGL renders to"),
	              "path_reason '%s' does not say why XRGB8888 dma-bufs were not made",
	              info->path_reason);

	animated_scene_set_frame(&animated, 3);
	ck_assert_msg(sg_window_present(window, animated.scene, &animated.camera) == SG_OK, "%s",
	              sg_last_error());
	wait_for_frame(window, &frames, 1);
	struct mini_commit commit;
	uint8_t *rgba = commit_rgba(compositor, 0, MINI_BUFFER_SHM, info->format, &commit);
	uint8_t *expected = reference_render(reference, &animated);
	int differing = count_differing_rgb(rgba, expected, WINDOW_W, WINDOW_H);
	printf("shm frame: %d of %d pixels differ from surfaceless\n", differing,
	       WINDOW_W * WINDOW_H);
	ck_assert_int_eq(differing, 0);
	free(rgba);
	free(expected);
	struct mini_stats stats;
	mini_compositor_stats(compositor, &stats);
	ck_assert_int_eq(stats.buffers_created, 0);
	ck_assert_int_eq(stats.params_failed, 0);

	sg_window_destroy(window);
	ck_assert(mini_compositor_wait_no_clients(compositor, 5000));
	mini_compositor_stop(compositor);
	ck_assert_int_eq(count_fds(), fds_before);
	sg_renderer_destroy(reference);
	animated_scene_finish(&animated);
	printf("window-dmabuf, shm fallback: %.2f s\n", seconds_now() - start);
}
END_TEST

/* wl_compositor version 3: no wl_surface.damage_buffer (version 4), which
 * libwayland-server answers with an invalid_method error. The window damages
 * in surface pixels instead, and its frames are shown as at version 4. */
START_TEST(test_compositor_version_3)
{
	struct animated_scene animated;
	animated_scene_init(&animated);
	struct sg_renderer *reference = reference_renderer(WINDOW_W, WINDOW_H);
	struct mini_compositor *compositor = mini_compositor_start(&(struct mini_compositor_desc){
	    .width = WINDOW_W, .height = WINDOW_H, .compositor_version = 3});
	ck_assert_msg(compositor, "the test compositor did not start");
	struct frames frames = {0};
	struct sg_window *window = sg_window_create(&(struct sg_window_desc){
	    .display = mini_compositor_socket(compositor),
	    .width = WINDOW_W,
	    .height = WINDOW_H,
	    .on_frame = on_frame,
	    .user_data = &frames,
	});
	ck_assert_msg(window, "sg_window_create: %s", sg_last_error());
	const struct sg_window_info *info = sg_window_get_info(window);
	for (int f = 0; f < 2; f++) {
		animated_scene_set_frame(&animated, f);
		sg_result result = sg_window_present(window, animated.scene, &animated.camera);
		ck_assert_msg(result == SG_OK, "present of frame %d: %s", f, sg_last_error());
		wait_for_frame(window, &frames, (uint64_t)f + 1);
		struct mini_commit commit;
		uint8_t *rgba = commit_rgba(compositor, f,
		                            info->path == SG_WINDOW_PATH_DMABUF ? MINI_BUFFER_DMABUF
		                                                                : MINI_BUFFER_SHM,
		                            info->format, &commit);
		uint8_t *expected = reference_render(reference, &animated);
		int differing = count_differing_rgb(rgba, expected, WINDOW_W, WINDOW_H);
		printf("wl_compositor 3, frame %d: %d damage rect(s), the first %dx%d+%d+%d; %d of %d "
		       "pixels differ from surfaceless\n",
		       f, commit.damage_count, commit.damage[0].width, commit.damage[0].height,
		       commit.damage[0].x, commit.damage[0].y, differing, WINDOW_W * WINDOW_H);
		ck_assert_int_eq(differing, 0);
		/* the whole surface, each frame: surface damage is not scaled */
		ck_assert_int_eq(commit.damage_count, 1);
		ck_assert_int_ge(commit.damage[0].width, WINDOW_W);
		ck_assert_int_ge(commit.damage[0].height, WINDOW_H);
		free(rgba);
		free(expected);
	}
	ck_assert_msg(sg_window_dispatch(window) == SG_OK, "%s", sg_last_error());
	sg_window_destroy(window);
	ck_assert(mini_compositor_wait_no_clients(compositor, 5000));
	mini_compositor_stop(compositor);
	sg_renderer_destroy(reference);
	animated_scene_finish(&animated);
}
END_TEST

Suite *window_dmabuf_suite(void)
{
	Suite *suite = suite_create("window-dmabuf");
	TCase *tc = tcase_create("window-dmabuf");
	tcase_add_test(tc, test_dmabuf_path);
	tcase_add_test(tc, test_unrenderable_modifier_falls_back_to_shm);
	tcase_add_test(tc, test_compositor_version_3);
	suite_add_tcase(suite, tc);
	return suite;
}
