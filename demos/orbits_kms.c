/* orbits --kms: the animation at display rate, paced by page flips.
 *
 * The event loop an application would have: poll the output's fd, let
 * sg_output_dispatch() report each completed flip, and present the next frame
 * for each completion. Nothing sleeps and nothing waits inside libsg: the
 * kernel's vblank events set the pace.
 *
 * Frames missed, as printed at exit: a completion whose vblank sequence
 * advanced by more than one since the previous completion counts the skipped
 * vblanks (drivers whose counter does not advance, such as virtio-gpu, are
 * judged by the timestamps instead: an interval over 1.5 refresh periods
 * counts the periods it spans beyond one); and a present that found no free
 * buffer (SG_ERR_BUSY) counts one. */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "orbits.h"

#define ANIMATION_FPS 24.0
/* A flip that takes longer than this is a broken driver, not a slow one. */
#define FLIP_TIMEOUT_MS 1000

static volatile sig_atomic_t stop;

static void on_signal(int signal_number)
{
	(void)signal_number;
	stop = 1;
}

struct pacing {
	struct sg_output *output;
	struct orbits *orbits;
	struct sg_camera camera;
	double period_ms; /* of the mode's refresh; 0 when unknown */
	long presented, busy, completions, due;
	unsigned long long skipped; /* vblanks between completions that showed no new frame */
	bool by_timestamp;          /* the vblank counter did not advance: skips from the clock */
	uint32_t last_sequence;
	double first_ms, last_ms; /* kernel timestamps of the first and last completion */
};

static double now_ms(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec * 1e3 + (double)now.tv_nsec * 1e-6;
}

static void on_flip(struct sg_output *output, const struct sg_output_flip *flip, void *data)
{
	(void)output;
	struct pacing *p = data;
	double at = (double)flip->tv_sec * 1e3 + (double)flip->tv_usec * 1e-3;
	if (p->completions == 0) {
		p->first_ms = at;
	} else {
		uint32_t vblanks = flip->sequence - p->last_sequence;
		double interval = at - p->last_ms;
		if (vblanks > 1)
			p->skipped += vblanks - 1;
		if (vblanks == 0)
			p->by_timestamp = true;
		if (vblanks == 0 && p->period_ms > 0 && interval > 1.5 * p->period_ms)
			p->skipped += (unsigned long long)lround(interval / p->period_ms) - 1;
	}
	p->last_sequence = flip->sequence;
	p->last_ms = at;
	p->completions++;
	p->due++;
}

/* Renders the frame for the animation time of the last completion and
 * commits it (or queues it behind the pending flip). */
static sg_result present(struct pacing *p)
{
	double seconds = p->completions ? (p->last_ms - p->first_ms) / 1e3 : 0.0;
	sg_result r = orbits_animate(p->orbits, (float)(seconds * ANIMATION_FPS));
	if (!r)
		r = sg_output_present(p->output, p->orbits->scene, &p->camera);
	if (r == SG_ERR_BUSY) {
		p->busy++; /* every buffer still in use: skip, the next completion frees one */
		return SG_OK;
	}
	if (!r)
		p->presented++;
	return r;
}

static void print_figures(const struct pacing *p, double elapsed_ms)
{
	double mean =
	    p->completions > 1 ? (p->last_ms - p->first_ms) / (double)(p->completions - 1) : 0.0;
	printf("orbits: %ld frames presented, %ld flips completed in %.2f s\n", p->presented,
	       p->completions, elapsed_ms / 1e3);
	printf("orbits: %llu frames missed (%llu vblanks skipped%s, %ld presents found no free "
	       "buffer)\n",
	       p->skipped + (unsigned long long)p->busy, p->skipped,
	       p->by_timestamp ? " by the timestamps: the vblank counter stood still" : "",
	       p->busy);
	printf("orbits: mean interval between completions %.3f ms", mean);
	if (p->period_ms > 0)
		printf(" (the mode's refresh period: %.3f ms)", p->period_ms);
	printf("\n");
}

/* Polls until the deadline (0: none) or a signal; presents once per completion. */
static sg_result loop(struct pacing *p, const struct orbits_kms *kms, double start)
{
	struct pollfd fd = {.fd = sg_output_get_fd(p->output), .events = POLLIN};
	/* Two frames ahead: the first present is the modeset, which may complete
	 * without an event; the second keeps a flip pending from then on. */
	sg_result r = present(p);
	if (!r && kms->frames != 1)
		r = present(p);
	while (!r && !stop && (!kms->frames || p->presented < kms->frames)) {
		int timeout = FLIP_TIMEOUT_MS;
		if (kms->seconds > 0) {
			double left = start + kms->seconds * 1e3 - now_ms();
			if (left <= 0)
				break;
			timeout = left < timeout ? (int)ceil(left) : timeout;
		}
		int ready = poll(&fd, 1, timeout);
		if (ready < 0 && errno == EINTR)
			continue;
		if (ready < 0) {
			fprintf(stderr, "orbits: poll on the DRM fd: %s\n", strerror(errno));
			return SG_ERR_DEVICE;
		}
		if (ready == 0 && timeout == FLIP_TIMEOUT_MS) {
			fprintf(stderr, "orbits: no page flip within %d ms\n", FLIP_TIMEOUT_MS);
			return SG_ERR_DEVICE;
		}
		if (ready > 0 && (r = sg_output_dispatch(p->output)))
			break;
		for (; p->due > 0 && !r; p->due--)
			r = present(p);
	}
	if (r)
		fprintf(stderr, "orbits: %s\n", sg_last_error());
	return r;
}

int orbits_kms_run(struct orbits *o, const struct orbits_kms *kms)
{
	struct sigaction action = {.sa_handler = on_signal}; /* no SA_RESTART: poll returns */
	sigaction(SIGINT, &action, NULL);
	sigaction(SIGTERM, &action, NULL);

	struct pacing p = {.orbits = o};
	struct sg_output_desc desc = kms->desc;
	desc.clear_color[0] = 0.02f, desc.clear_color[1] = 0.02f, desc.clear_color[2] = 0.08f;
	desc.clear_color[3] = 1.0f;
	desc.on_flip = on_flip;
	desc.user_data = &p;
	p.output = sg_output_create(&desc);
	if (!p.output) {
		fprintf(stderr, "orbits: %s\n", sg_last_error());
		return 1;
	}
	const struct sg_output_info *info = sg_output_get_info(p.output);
	p.period_ms = info->refresh > 0 ? 1e3 / info->refresh : 0.0;
	orbits_fit_camera(&p.camera, info->width, info->height);
	if (!kms->quiet)
		printf("orbits: %s on %s, %dx%d@%d, %s path (%s), %s commits\n", info->connector,
		       info->device, info->width, info->height, info->refresh,
		       info->path == SG_OUTPUT_PATH_ZERO_COPY ? "zero-copy" : "copy",
		       info->path_reason, info->atomic ? "atomic" : "legacy");
	double start = now_ms();
	sg_result r = loop(&p, kms, start);
	/* The frames still in flight (one flipping, one queued at most) reach the
	 * screen, so that their flips are counted too. */
	for (int i = 0; i < 2 && !r && !stop && p.completions < p.presented; i++)
		if ((r = sg_output_wait(p.output, FLIP_TIMEOUT_MS)))
			fprintf(stderr, "orbits: %s\n", sg_last_error());
	double elapsed = now_ms() - start;
	sg_output_destroy(p.output); /* restores the CRTC, also after a signal */
	print_figures(&p, elapsed);
	return r ? 1 : 0;
}
