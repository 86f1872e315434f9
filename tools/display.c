/* sg-render --display (display.h).
 *
 * One frame is presented per completed page flip; the scene frame shown is
 * the one due at the time of the latest flip (the kernel's vblank timestamp
 * since the first flip, at o->fps), so a slow render skips scene frames
 * instead of slowing the animation down. Frame k is due from k / fps to
 * (k + 1) / fps, so the last one stays up for its whole interval too. */
#include "display.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xf86drm.h>

#include "escape.h"

/* A flip that takes longer than this is a broken driver, not a slow one. */
#define FLIP_TIMEOUT_MS 1000

/* The signal that asked us to stop, 0 until one does. */
static volatile sig_atomic_t stop_signal;

static void on_signal(int signal_number)
{
	stop_signal = signal_number;
}

struct show {
	const struct options *o;
	struct sg_scene_file *file;
	struct sg_output *output;
	struct sg_camera camera;
	long presents, completions, due;
	uint64_t shown; /* sg_output_flip.frame of the latest completion */
	double first_ms, last_ms;
	int last_presented; /* scene frame */
	bool finished;      /* the animation's time is over: present nothing more */
	double fps;         /* --fps, else the scene file's "fps" */
};

static void on_flip(struct sg_output *output, const struct sg_output_flip *flip, void *data)
{
	(void)output;
	struct show *s = data;
	s->last_ms = (double)flip->tv_sec * 1e3 + (double)flip->tv_usec * 1e-3;
	if (s->completions++ == 0)
		s->first_ms = s->last_ms;
	s->shown = flip->frame;
	s->due++;
}

/* Presents the scene frame due now, or marks the show finished. */
static sg_result present(struct show *s)
{
	const struct options *o = s->o;
	double seconds = s->completions ? (s->last_ms - s->first_ms) / 1e3 : 0.0;
	double due = (double)o->first + floor(seconds * s->fps);
	int frame = due > o->last ? o->last : (int)due;
	if (due > o->last && s->last_presented == o->last) {
		s->finished = true; /* the last frame has had its interval */
		return SG_OK;
	}
	sg_result r = sg_scene_file_apply_frame(s->file, frame);
	if (!r)
		r = sg_output_present(s->output, sg_scene_file_get_scene(s->file), &s->camera);
	if (r == SG_ERR_BUSY)
		return SG_OK; /* every buffer in use: the next completion frees one */
	if (!r) {
		s->presents++;
		s->last_presented = frame;
	}
	return r;
}

/* Until the show is finished and its last frame on screen, or a signal. */
static int loop(struct show *s)
{
	struct pollfd fd = {.fd = sg_output_get_fd(s->output), .events = POLLIN};
	/* Two frames ahead: the first present is the modeset, which may complete
	 * without an event; the second keeps a flip pending from then on. */
	sg_result r = present(s);
	if (!r)
		r = present(s);
	while (!r && !stop_signal && !(s->finished && s->shown >= (uint64_t)s->presents)) {
		int ready = poll(&fd, 1, FLIP_TIMEOUT_MS);
		if (ready < 0 && errno == EINTR)
			continue;
		if (ready <= 0) {
			say_error("--display: %s",
			          ready ? strerror(errno) : "no page flip within 1 s");
			return EXIT_RENDER;
		}
		r = sg_output_dispatch(s->output);
		for (; s->due > 0 && !r; s->due--)
			if (!s->finished)
				r = present(s);
	}
	if (r) {
		say_error("--display: %s", sg_last_error());
		return EXIT_RENDER;
	}
	return EXIT_OK;
}

static void print_output_info(const struct sg_output_info *info)
{
	/* libdrm's names ("XR24", "LINEAR", "I915_Y_TILED"), or the numbers where
	 * it has none */
	char *format = drmGetFormatName(info->format);
	char *modifier = drmGetFormatModifierName(info->modifier);
	char format_number[16], modifier_number[24];
	snprintf(format_number, sizeof(format_number), "0x%08" PRIx32, info->format);
	snprintf(modifier_number, sizeof(modifier_number), "0x%016" PRIx64, info->modifier);
	escape_printf(stdout, "display:     %s on %s, mode %s (%dx%d@%d), CRTC %u, plane %u",
	              info->connector, info->device, info->mode_name, info->width, info->height,
	              info->refresh, info->crtc_id, info->plane_id);
	escape_printf(stdout, "buffers:     %d of %s, modifier %s, %s commits", info->buffer_count,
	              format ? format : format_number, modifier ? modifier : modifier_number,
	              info->atomic ? "atomic" : "legacy");
	escape_printf(stdout, "path:        %s: %s",
	              info->path == SG_OUTPUT_PATH_ZERO_COPY ? "zero-copy" : "copy",
	              info->path_reason);
	escape_printf(stdout, "fences:      %s%s",
	              info->fence == SG_OUTPUT_FENCE_NATIVE ? "native fence as IN_FENCE_FD"
	                                                    : "glFinish",
	              info->out_fence ? ", OUT_FENCE_PTR" : "");
	escape_printf(stdout, "renderer:    %s", info->renderer);
	free(modifier);
	free(format);
}

int display_run(const struct options *o, struct sg_scene_file *file)
{
	/* no SA_RESTART: poll returns at once, and the loop restores the display */
	struct sigaction action = {.sa_handler = on_signal};
	sigaction(SIGINT, &action, NULL);
	sigaction(SIGTERM, &action, NULL);

	struct show s = {.o = o,
	                 .file = file,
	                 .last_presented = -1,
	                 .fps = o->fps ? o->fps : sg_scene_file_get_fps(file)};
	struct sg_output_desc desc = {
	    .device = o->desc.device,
	    .connector = o->connector,
	    .width = o->width,
	    .height = o->height,
	    .on_flip = on_flip,
	    .user_data = &s,
	};
	sg_scene_file_get_background(file, desc.clear_color);
	s.output = sg_output_create(&desc);
	if (!s.output) {
		say_error("--display: %s", sg_last_error());
		return EXIT_RENDER;
	}
	const struct sg_output_info *info = sg_output_get_info(s.output);
	sg_scene_file_get_camera(file, info->width, info->height, &s.camera);
	if (o->info)
		print_output_info(info);
	int status = loop(&s);
	if (!o->quiet && !status)
		escape_printf(
		    stdout,
		    "showed frames %d .. %d of %s on %s (%dx%d@%d, %s) at %g frames/s: %ld "
		    "page flips, %.2f s",
		    o->first, s.last_presented, o->scene, info->connector, info->width,
		    info->height, info->refresh,
		    info->path == SG_OUTPUT_PATH_ZERO_COPY ? "zero-copy" : "copy", s.fps,
		    s.completions, (s.last_ms - s.first_ms) / 1e3);
	sg_output_destroy(s.output); /* restores the display, also after a signal */
	if (stop_signal) {
		/* end as the signal would have ended us, now that the display is back */
		fflush(stdout);
		signal(stop_signal, SIG_DFL);
		raise(stop_signal);
	}
	return status;
}
