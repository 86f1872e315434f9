/* kms-three-rects: the three-rectangle reference scene on a display, through
 * libsg's public KMS output (sg/output.h), as kmscube shows a cube.
 *
 * The steps, in order: sg_output_create (open the card node, pick connector,
 * mode, CRTC and plane, allocate the ring of scanout buffers) ->
 * sg_output_get_info -> loop { sg_output_present (render + commit);
 * sg_output_wait (the page flip) } -> sg_output_destroy (restores what the
 * display showed before). Stops after --seconds or --frames, or on SIGINT or
 * SIGTERM. */
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <xf86drm.h>

#include <sg/sg.h>

#include "three_rects_scene.h"

/* A flip that takes longer than this is a broken driver, not a slow one. */
#define FLIP_TIMEOUT_MS 1000

/* Set by the handler, read by the loop: the handler may not call libsg. */
static volatile sig_atomic_t stop;

static void on_signal(int signal_number)
{
	(void)signal_number;
	stop = 1;
}

static void usage(FILE *out)
{
	fprintf(out,
	        "Usage: kms-three-rects [OPTION]... [CONNECTOR]\n"
	        "Show the three-rectangle reference scene on CONNECTOR (e.g. HDMI-A-1,\n"
	        "Virtual-1; default: the first connected one) until SIGINT or SIGTERM.\n"
	        "\n"
	        "  -d, --device PATH    the DRM card node (default: the first with KMS)\n"
	        "  -s, --seconds N      stop after N seconds\n"
	        "  -f, --frames N       stop after N page flips after the first frame\n"
	        "  -l, --legacy         drmModeSetCrtc + drmModePageFlip even where atomic works\n"
	        "  -c, --copy           render offscreen, copy into dumb buffers (the fallback)\n"
	        "  -q, --quiet          print nothing but errors\n"
	        "  -h, --help           show this help\n"
	        "\n"
	        "Exit status: 0 success (also when stopped by a signal), 1 error, 2 bad usage.\n");
}

static bool parse_count(const char *text, long *value)
{
	char *end;
	*value = strtol(text, &end, 10);
	return end != text && !*end && *value >= 0 && *value <= 1000000;
}

static void print_info(const struct sg_output_info *info)
{
	/* libdrm's names: "XRGB8888", "LINEAR", "INVALID" (the driver's implicit layout) */
	char *format = drmGetFormatName(info->format);
	char *modifier = drmGetFormatModifierName(info->modifier);
	printf("output:    %s on %s, mode %s (%dx%d@%d), connector %u, CRTC %u, plane %u\n",
	       info->connector, info->device, info->mode_name, info->width, info->height,
	       info->refresh, info->connector_id, info->crtc_id, info->plane_id);
	printf("buffers:   %d of %s, modifier %s (0x%llx), %s commits\n", info->buffer_count,
	       format ? format : "?", modifier ? modifier : "?", (unsigned long long)info->modifier,
	       info->atomic ? "atomic" : "legacy");
	printf("path:      %s: %s\n", info->path == SG_OUTPUT_PATH_ZERO_COPY ? "zero-copy" : "copy",
	       info->path_reason);
	printf("fences:    %s%s\n",
	       info->fence == SG_OUTPUT_FENCE_NATIVE ? "native fence fd as IN_FENCE_FD"
	                                             : "glFinish",
	       info->out_fence ? ", OUT_FENCE_PTR" : "");
	printf("renderer:  %s\n", info->renderer);
	free(modifier);
	free(format);
}

static double seconds_now(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	struct sg_output_desc desc = {0};
	long seconds = -1, frames = -1;
	bool quiet = false;
	static const struct option options[] = {
	    {"device", required_argument, NULL, 'd'}, {"seconds", required_argument, NULL, 's'},
	    {"frames", required_argument, NULL, 'f'}, {"legacy", no_argument, NULL, 'l'},
	    {"copy", no_argument, NULL, 'c'},         {"quiet", no_argument, NULL, 'q'},
	    {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0},
	};
	int option;
	while ((option = getopt_long(argc, argv, "d:s:f:lcqh", options, NULL)) != -1) {
		switch (option) {
		case 'd': desc.device = optarg; break;
		case 's':
		case 'f':
			if (!parse_count(optarg, option == 's' ? &seconds : &frames)) {
				fprintf(stderr, "kms-three-rects: %s '%s' is not 0..1000000\n",
				        option == 's' ? "--seconds" : "--frames", optarg);
				return 2;
			}
			break;
		case 'l': desc.force_legacy = true; break;
		case 'c': desc.force_copy = true; break;
		case 'q': quiet = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc)
		desc.connector = argv[optind++];
	if (optind < argc) {
		fprintf(stderr, "kms-three-rects: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}

	/* No SA_RESTART: the signal interrupts sg_output_wait, which returns. */
	struct sigaction action = {.sa_handler = on_signal};
	sigaction(SIGINT, &action, NULL);
	sigaction(SIGTERM, &action, NULL);

	struct sg_scene *scene = three_rects_build();
	struct sg_output *output = scene ? sg_output_create(&desc) : NULL;
	if (!output) {
		fprintf(stderr, "kms-three-rects: %s\n", sg_last_error());
		sg_scene_destroy(scene);
		return 1;
	}
	if (!quiet)
		print_info(sg_output_get_info(output));

	/* The scene is specified over 256 x 256: the mode stretches it. */
	struct sg_camera camera;
	sg_camera_init_pixels(&camera, THREE_RECTS_SIZE, THREE_RECTS_SIZE);
	double start = seconds_now();
	long flips = 0;
	sg_result result = SG_OK;
	while (!stop && (frames < 0 || flips <= frames) &&
	       (seconds < 0 || seconds_now() - start < (double)seconds)) {
		/* a slow pulse of the background, so that every flip shows a new frame */
		float grey = 0.1f + 0.1f * sinf((float)flips * 0.05f);
		/* One frame in flight: wait for its flip (SG_ERR_BUSY after a
		 * second without one) before rendering the next. orbits --kms shows
		 * the event-loop way: poll the fd, sg_output_dispatch. */
		if ((result = sg_output_set_clear_color(output, grey, grey, grey, 1.0f)) ||
		    (result = sg_output_present(output, scene, &camera)) ||
		    (result = sg_output_wait(output, FLIP_TIMEOUT_MS)))
			break;
		flips++;
	}
	if (result)
		fprintf(stderr, "kms-three-rects: %s\n", sg_last_error());
	double elapsed = seconds_now() - start;
	if (!quiet)
		printf("%ld frames in %.2f s (%.1f frames/s)%s\n", flips, elapsed,
		       elapsed > 0 ? (double)flips / elapsed : 0.0,
		       stop ? ", stopped by a signal" : "");
	sg_output_destroy(output); /* restores the CRTC, also after a signal */
	sg_scene_destroy(scene);
	return result ? 1 : 0;
}
