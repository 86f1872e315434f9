/* window_loop.h: one frame per frame callback of the compositor. The frame
 * is posed for the time since the first was shown, so a slow compositor or
 * renderer skips poses instead of slowing the animation down. Between frames
 * the loop sleeps in sg_window_wait (an animation), in poll on the window's
 * fd until the pose next changes (a present that committed nothing asks for
 * no frame callback, so the wait would not wait), or in poll (a still
 * scene): it never spins. */
#include "window_loop.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>

/* A frame callback that takes longer than this: a hidden window, not an error. */
#define WAIT_MS 1000

static volatile sig_atomic_t stop_signal;

static void on_signal(int signal_number)
{
	stop_signal = signal_number;
}

struct state {
	struct window_loop *loop;
	bool resized, closed;
	long shown, presents;
	double posed; /* the time the last present was posed for */
};

static void on_resize(struct sg_window *window, int width, int height, double scale, void *data)
{
	(void)window, (void)width, (void)height, (void)scale;
	((struct state *)data)->resized = true;
}

static void on_close(struct sg_window *window, void *data)
{
	(void)window;
	((struct state *)data)->closed = true;
}

static void on_frame(struct sg_window *window, const struct sg_window_frame *frame, void *data)
{
	(void)window;
	if (!frame->discarded)
		((struct state *)data)->shown++;
}

static double now_s(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

static void print_info(const struct window_loop *loop, const struct sg_window_info *info)
{
	printf("window:   %s, %dx%d buffer pixels at scale %.3g%s%s\n", info->display, info->width,
	       info->height, info->scale, info->fractional_scale ? " (fractional)" : "",
	       info->presentation ? ", wp_presentation" : "");
	printf("path:     %s: %s\n", info->path == SG_WINDOW_PATH_DMABUF ? "dma-buf" : "shm",
	       info->path_reason);
	printf("format:   %.4s, modifier 0x%llx, %d buffers\n", (const char *)&info->format,
	       (unsigned long long)info->modifier, info->buffer_count);
	printf("renderer: %s\n", info->renderer);
	(void)loop;
}

/* One present of the pose due now; *last as pose says. */
static sg_result present(struct state *s, struct sg_window *window, double start, bool *last)
{
	struct window_loop *loop = s->loop;
	const struct sg_window_info *info = sg_window_get_info(window);
	struct sg_camera camera;
	sg_result r = SG_OK;
	*last = !loop->pose;
	s->posed = now_s() - start;
	if (loop->pose)
		r = loop->pose(loop->data, s->posed, info->width, info->height, &camera, last);
	else
		sg_camera_init_pixels(&camera, loop->still_width, loop->still_height);
	if (!r) {
		r = sg_window_present(window, loop->scene, &camera);
		s->presents++;
	}
	return r; /* SG_ERR_BUSY: the callers try again later */
}

/* After a present of the animation: where it committed nothing (no frame
 * callback pending: sg_window_wait would return at once), sleeps until the
 * pose next changes, reading what the compositor sends meanwhile. Where a
 * frame callback came already, the frame was shown and the next one is not
 * due before the pose changes either. */
static sg_result rest(struct state *s, struct sg_window *window, double start)
{
	struct window_loop *loop = s->loop;
	if (!loop->next_change || s->closed || sg_window_wait(window, 0) == SG_ERR_BUSY)
		return SG_OK; /* a frame callback is coming: the next wait paces */
	/* from the time the pose was taken: a frame that fell due while it
	 * was presented is presented at once */
	double wake = loop->next_change(loop->data, s->posed);
	double ms = ceil((wake - (now_s() - start)) * 1000.0);
	struct pollfd fd = {.fd = sg_window_get_fd(window), .events = POLLIN};
	if (ms >= 1 && poll(&fd, 1, ms < 250 ? (int)ms : 250) > 0)
		return sg_window_dispatch(window);
	return SG_OK;
}

int window_loop_run(struct window_loop *loop, int *signal_number)
{
	/* no SA_RESTART: a signal ends the wait, and the loop sees the flag */
	struct sigaction action = {.sa_handler = on_signal};
	sigaction(SIGINT, &action, NULL);
	sigaction(SIGTERM, &action, NULL);
	struct state s = {.loop = loop};
	struct sg_window_desc desc = loop->desc;
	desc.on_resize = on_resize;
	desc.on_close = on_close;
	desc.on_frame = on_frame;
	desc.user_data = &s;
	struct sg_window *window = sg_window_create(&desc);
	if (!window) {
		fprintf(stderr, "%s: --window: %s\n", loop->program, sg_last_error());
		return 1;
	}
	if (!loop->quiet)
		print_info(loop, sg_window_get_info(window));
	double start = now_s();
	bool last = false, finished = false, dirty = false;
	sg_result r = present(&s, window, start, &last);
	if (r == SG_ERR_BUSY)
		r = SG_OK;
	while (!r && !stop_signal && !s.closed && !finished) {
		if (loop->seconds > 0 && now_s() - start >= loop->seconds)
			break;
		if (loop->frames > 0 && s.shown >= loop->frames)
			break;
		if (!last) {
			/* an animation: the next frame when the compositor asks */
			r = sg_window_wait(window, WAIT_MS);
			if (r == SG_ERR_BUSY)
				r = SG_OK;
			if (!r)
				r = present(&s, window, start, &last);
			if (r == SG_ERR_BUSY)
				r = SG_OK;
			if (!r && !last)
				r = rest(&s, window, start);
			continue;
		}
		if (loop->stop_at_last && sg_window_wait(window, WAIT_MS) == SG_OK) {
			finished = true; /* the last frame was asked for: it is on screen */
			continue;
		}
		/* still: sleep until the compositor says something (a resize) */
		struct pollfd fd = {.fd = sg_window_get_fd(window), .events = POLLIN};
		if (poll(&fd, 1, 250) < 0 && errno != EINTR)
			break;
		s.resized = false;
		r = sg_window_dispatch(window);
		dirty |= s.resized;
		if (!r && dirty) {
			r = present(&s, window, start, &last);
			dirty = r == SG_ERR_BUSY; /* again after the frame callback */
			if (dirty)
				r = SG_OK;
		}
	}
	if (r)
		fprintf(stderr, "%s: --window: %s\n", loop->program, sg_last_error());
	else if (!loop->quiet)
		printf("%ld frames shown in %.2f s (%ld presents)%s\n", s.shown, now_s() - start,
		       s.presents,
		       stop_signal ? ", stopped by a signal"
		       : s.closed  ? ", closed by the compositor"
		                   : "");
	sg_window_destroy(window);
	if (signal_number)
		*signal_number = stop_signal;
	return r ? 1 : 0;
}
