/* Touch to photon: how long from a touch on the kiosk's Next button until the
 * frame that shows its reaction is on the screen (its page flip completed).
 * Runs in the qemu guest with udevd (tests/vm/run.sh --device virtio-gpu
 * --udev): a uinput touchscreen, sg_input on it (libinput's path backend),
 * the kiosk demo's screen (demos/kiosk_scene.c) on sg_output.
 *
 * Each tap: t0 just before the touch is written to uinput; the event out of
 * sg_input_dispatch (t_event); sg_output_present returned, the frame
 * rendered and committed (t_present); the page flip's kernel timestamp
 * (t_flip, CLOCK_MONOTONIC as the event reports it). The touch's release
 * repaints the button too; its frame lands before the next tap. Prints the
 * median, 90th percentile and worst of each step over the taps. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sg/sg.h>

#include "../demos/kiosk_scene.h"
#include "../tests/drm/uinput_devices.h"

#define MAX_TAPS 200
#define TIMEOUT_MS 5000

struct run {
	struct kiosk kiosk;
	struct sg_output *output;
	struct sg_input *input;
	bool changed, flipped;
	double event_at, flip_at;
	uint64_t frame; /* of the last flip */
};

static double now_ms(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec * 1e3 + (double)now.tv_nsec * 1e-6;
}

static void on_event(struct sg_input *input, const struct sg_input_event *event, void *data)
{
	(void)input;
	struct run *run = data;
	bool quit = false;
	if (event->kind == SG_INPUT_TOUCH_DOWN)
		run->event_at = now_ms();
	if (kiosk_handle(&run->kiosk, event, &quit))
		run->changed = true;
}

static void on_flip(struct sg_output *output, const struct sg_output_flip *flip, void *data)
{
	(void)output;
	struct run *run = data;
	run->flipped = true;
	run->frame = flip->frame;
	run->flip_at = (double)flip->tv_sec * 1e3 + (double)flip->tv_usec * 1e-3;
}

/* Polls the input and the card until the input changed the screen (want
 * change) or a flip landed; false on timeout or error. */
static bool wait_for(struct run *run, bool change)
{
	double deadline = now_ms() + TIMEOUT_MS;
	while (change ? !run->changed : !run->flipped) {
		int left = (int)(deadline - now_ms());
		if (left <= 0)
			return false;
		struct pollfd fds[2] = {{.fd = sg_output_get_fd(run->output), .events = POLLIN},
		                        {.fd = sg_input_get_fd(run->input), .events = POLLIN}};
		if (poll(fds, 2, left) < 0 && errno != EINTR)
			return false;
		if ((fds[0].revents & POLLIN) && sg_output_dispatch(run->output))
			return false;
		if ((fds[1].revents & POLLIN) && sg_input_dispatch(run->input))
			return false;
	}
	return true;
}

static int compare(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void report(const char *what, double *values, int count)
{
	qsort(values, (size_t)count, sizeof(double), compare);
	printf("%-34s median %7.1f ms, p90 %7.1f ms, worst %7.1f ms\n", what, values[count / 2],
	       values[(count * 9) / 10 < count ? (count * 9) / 10 : count - 1], values[count - 1]);
}

static int fail(const char *what)
{
	fprintf(stderr, "touch: %s: %s\n", what, sg_last_error());
	return 1;
}

int main(int argc, char **argv)
{
	int taps = argc > 1 ? atoi(argv[1]) : 20;
	if (taps < 1 || taps > MAX_TAPS) {
		fprintf(stderr, "usage: touch [TAPS (1..%d, default 20)]\n", MAX_TAPS);
		return 2;
	}
	struct uinput_device screen;
	char error[256];
	if (!uinput_make_touchscreen(&screen, error, sizeof(error))) {
		fprintf(stderr, "touch: %s (run in the guest: tests/vm/run.sh --udev)\n", error);
		return 1;
	}
	struct run run = {0};
	run.output = sg_output_create(&(struct sg_output_desc){
	    .clear_color = {0.93f, 0.94f, 0.96f, 1}, .on_flip = on_flip, .user_data = &run});
	if (!run.output)
		return fail("sg_output_create");
	const struct sg_output_info *info = sg_output_get_info(run.output);
	if (info->rotation != SG_ROTATION_0) { /* the taps below are in unturned units */
		fprintf(stderr, "touch: the output is turned (panel orientation %s)\n",
		        info->panel_orientation);
		return 1;
	}
	int w = info->picture_width, h = info->picture_height;
	if (kiosk_build(&run.kiosk, w, h, BENCH_FONT))
		return fail("kiosk_build");
	const char *devices[] = {screen.event_path};
	run.input = sg_input_create(&(struct sg_input_desc){.devices = devices,
	                                                    .device_count = 1,
	                                                    .width = w,
	                                                    .height = h,
	                                                    .rotation = info->rotation,
	                                                    .on_event = on_event,
	                                                    .user_data = &run});
	if (!run.input)
		return fail("sg_input_create");
	printf("touch: %s %dx%d, %s, renderer %s; %d taps on Next\n", info->connector, w, h,
	       info->path == SG_OUTPUT_PATH_ZERO_COPY ? "zero-copy" : "copy", info->renderer, taps);

	/* The first frame, outside the figures (shaders, uploads). */
	if (sg_output_present(run.output, run.kiosk.scene, NULL) || !wait_for(&run, false))
		return fail("the first frame");
	/* The Next button's middle, in the touchscreen's units (no rotation here). */
	float margin = (float)(w < h ? w : h) / 24.0f;
	float button_h = (float)h / 8.0f > 48.0f ? (float)h / 8.0f : 48.0f;
	float x = (float)w - margin - ((float)w - 3.0f * margin) / 4.0f;
	float y = (float)h - margin - button_h / 2.0f;
	int raw_x = (int)(x / (float)w * (UINPUT_TOUCH_X_MAX + 1));
	int raw_y = (int)(y / (float)h * (UINPUT_TOUCH_Y_MAX + 1));

	static double to_event[MAX_TAPS], to_present[MAX_TAPS], to_flip[MAX_TAPS], render[MAX_TAPS];
	for (int tap = 0; tap < taps; tap++) {
		run.changed = run.flipped = false;
		int slide = run.kiosk.slide;
		double t0 = now_ms();
		if (!uinput_touch_down(&screen, raw_x, raw_y) || !wait_for(&run, true))
			return fail("the touch did not reach the screen");
		if (run.kiosk.slide == slide) {
			fprintf(stderr, "touch: tap %d missed the Next button\n", tap);
			return 1;
		}
		double before = now_ms();
		if (sg_output_present(run.output, run.kiosk.scene, NULL))
			return fail("present");
		double presented = now_ms();
		if (!wait_for(&run, false))
			return fail("the flip");
		to_event[tap] = run.event_at - t0;
		render[tap] = presented - before;
		to_present[tap] = presented - t0;
		to_flip[tap] = run.flip_at - t0;
		/* The release: the button goes back to rest, its frame shown. */
		run.changed = run.flipped = false;
		if (!uinput_touch_up(&screen) || !wait_for(&run, true) ||
		    sg_output_present(run.output, run.kiosk.scene, NULL) || !wait_for(&run, false))
			return fail("the release");
		usleep(50 * 1000);
	}
	report("touch -> event dispatched", to_event, taps);
	report("event -> frame committed (render)", render, taps);
	report("touch -> frame committed", to_present, taps);
	report("touch -> flip (photon)", to_flip, taps);
	sg_input_destroy(run.input);
	sg_output_destroy(run.output);
	kiosk_finish(&run.kiosk);
	uinput_destroy(&screen);
	return 0;
}
