/* viewer: a model file (glTF, OBJ, ... whatever sg_scene_import reads)
 * turning on a stage, written as PNG frames or shown on a display.
 *
 * The steps: sg_scene_import under a turntable transform in a 3D view lit by
 * three directional lights (tools/model_stage.c, which sg-render shares) ->
 * a camera from the file, or one framing the model's bounds -> per frame,
 * turn the model (sg_transform_rotate about the vertical axis through its
 * centre) and render: into a PNG (sg_renderer_write_png) or, with --kms,
 * onto a display (sg_output_present, sg_output_wait; the pattern of
 * kms-three-rects.c). */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sg/sg.h>

#include "../tools/model_stage.h"
#include "../tools/window_loop.h"

#define FLIP_TIMEOUT_MS 1000
/* frames of a turn: a PNG sequence's default is short, a display's smooth */
#define DEFAULT_PNG_FRAMES 36
#define DEFAULT_KMS_FRAMES 240

static volatile sig_atomic_t stop;

static void on_signal(int signal_number)
{
	(void)signal_number;
	stop = 1;
}

static void usage(FILE *out)
{
	fprintf(out,
	        "Usage: viewer FILE [--frames N] [--size WxH] [-o PREFIX]\n"
	        "       viewer FILE --kms [CONNECTOR] [--device PATH] [--frames N] [--seconds S]\n"
	        "       viewer FILE --window [--frames N] [--size WxH] [--seconds S]\n"
	        "Turn a model file once about its vertical axis, writing PREFIX-0000.png ...\n"
	        "(one PNG a frame), or, with --kms, show it turning on a display until SIGINT or\n"
	        "SIGTERM, or, with --window, in a Wayland window until it is closed.\n"
	        "\n"
	        "  -n, --frames N       frames a turn (default %d; with --kms %d)\n"
	        "  -s, --size WxH       the PNGs' size (default %dx%d); with --kms, the mode\n"
	        "  -o, --output PREFIX  the PNGs' names before -NNNN.png (default: viewer)\n"
	        "  -k, --kms            show on a display through KMS (sg/output.h)\n"
	        "  -w, --window         show in a Wayland window (sg/window.h); --size: its size\n"
	        "  -d, --device PATH    with --kms: the DRM card node\n"
	        "  -t, --seconds S      with --kms or --window: stop after S seconds\n"
	        "  -q, --quiet          print nothing but errors\n"
	        "  -h, --help           show this help\n"
	        "\n"
	        "Exit status: 0 success (also when stopped by a signal), 1 error, 2 bad usage.\n",
	        DEFAULT_PNG_FRAMES, DEFAULT_KMS_FRAMES, MODEL_STAGE_SIZE, MODEL_STAGE_SIZE);
}

struct viewer {
	const char *path, *prefix;
	int frames, width, height;
	long seconds;
	bool kms, window, quiet;
	struct sg_output_desc output;
};

static bool parse_int(const char *text, long max, long *value)
{
	char *end;
	*value = strtol(text, &end, 10);
	return end != text && !*end && *value >= 1 && *value <= max;
}

static bool parse_size(const char *text, int *width, int *height)
{
	long w, h;
	char *x = strchr(text, 'x'), first[16];
	if (!x || (size_t)(x - text) >= sizeof(first))
		return false;
	memcpy(first, text, (size_t)(x - text));
	first[x - text] = '\0';
	if (!parse_int(first, 16384, &w) || !parse_int(x + 1, 16384, &h))
		return false;
	*width = (int)w;
	*height = (int)h;
	return true;
}

static int parse(int argc, char **argv, struct viewer *v)
{
	static const struct option options[] = {
	    {"frames", required_argument, NULL, 'n'},
	    {"size", required_argument, NULL, 's'},
	    {"output", required_argument, NULL, 'o'},
	    {"kms", no_argument, NULL, 'k'},
	    {"window", no_argument, NULL, 'w'},
	    {"device", required_argument, NULL, 'd'},
	    {"seconds", required_argument, NULL, 't'},
	    {"quiet", no_argument, NULL, 'q'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	*v = (struct viewer){.prefix = "viewer", .seconds = -1};
	long value;
	int option;
	while ((option = getopt_long(argc, argv, "n:s:o:kwd:t:qh", options, NULL)) != -1) {
		switch (option) {
		case 'n':
			if (!parse_int(optarg, 100000, &value)) {
				fprintf(stderr, "viewer: --frames '%s' is not 1..100000\n", optarg);
				return 2;
			}
			v->frames = (int)value;
			break;
		case 's':
			if (!parse_size(optarg, &v->width, &v->height)) {
				fprintf(stderr, "viewer: --size '%s' is not WxH (1..16384)\n",
				        optarg);
				return 2;
			}
			break;
		case 'o': v->prefix = optarg; break;
		case 'k': v->kms = true; break;
		case 'w': v->window = true; break;
		case 'd': v->output.device = optarg; break;
		case 't':
			if (!parse_int(optarg, 1000000, &v->seconds)) {
				fprintf(stderr, "viewer: --seconds '%s' is not 1..1000000\n",
				        optarg);
				return 2;
			}
			break;
		case 'q': v->quiet = true; break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc)
		v->path = argv[optind++];
	if (v->kms && optind < argc)
		v->output.connector = argv[optind++];
	if (v->kms && v->window) {
		fprintf(stderr, "viewer: --kms and --window exclude each other\n");
		return 2;
	}
	if (!v->path || optind < argc) {
		fprintf(stderr, "viewer: %s\n", v->path ? "too many arguments" : "no model file");
		usage(stderr);
		return 2;
	}
	if (!v->frames)
		v->frames = v->kms || v->window ? DEFAULT_KMS_FRAMES : DEFAULT_PNG_FRAMES;
	v->output.width = v->width;
	v->output.height = v->height;
	return 0;
}

/* One PNG a frame, named as sg-render names a sequence (PREFIX-0000.png). */
static sg_result write_frames(struct model_stage *stage, const struct viewer *v)
{
	int width = v->width ? v->width : MODEL_STAGE_SIZE;
	int height = v->height ? v->height : MODEL_STAGE_SIZE;
	struct sg_renderer *renderer =
	    sg_renderer_create(&(struct sg_renderer_desc){.width = width, .height = height});
	if (!renderer)
		return sg_last_result();
	struct sg_camera camera;
	model_stage_camera(stage, width, height, &camera);
	sg_result result = sg_renderer_set_clear_color(renderer, MODEL_STAGE_BACKGROUND);
	char path[4096];
	for (int frame = 0; !result && frame < v->frames; frame++) {
		snprintf(path, sizeof(path), "%s-%04d.png", v->prefix, frame);
		if (!(result = model_stage_turn(stage, frame, v->frames)) &&
		    !(result = sg_renderer_render(renderer, stage->scene, &camera)))
			result = sg_renderer_write_png(renderer, path);
	}
	if (!result && !v->quiet)
		printf("wrote %d frames %s-0000.png .. %s (%dx%d)\n", v->frames, v->prefix, path,
		       width, height);
	sg_renderer_destroy(renderer);
	return result;
}

static double seconds_now(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

/* The turn on a display, a frame per page flip, until a signal or --seconds. */
static sg_result show(struct model_stage *stage, struct viewer *v)
{
	struct sigaction action = {.sa_handler =
	                               on_signal}; /* no SA_RESTART: see kms-three-rects */
	sigaction(SIGINT, &action, NULL);
	sigaction(SIGTERM, &action, NULL);
	memcpy(v->output.clear_color, (float[]){MODEL_STAGE_BACKGROUND}, sizeof(float[4]));
	struct sg_output *output = sg_output_create(&v->output);
	if (!output)
		return sg_last_result();
	const struct sg_output_info *info = sg_output_get_info(output);
	if (!v->quiet)
		printf("output: %s on %s, %dx%d@%d\n", info->connector, info->device, info->width,
		       info->height, info->refresh);
	struct sg_camera camera;
	model_stage_camera(stage, info->width, info->height, &camera);
	double start = seconds_now();
	long flips = 0;
	sg_result result = SG_OK;
	while (!stop && (v->seconds < 0 || seconds_now() - start < (double)v->seconds)) {
		if ((result = model_stage_turn(stage, (int)(flips % v->frames), v->frames)) ||
		    (result = sg_output_present(output, stage->scene, &camera)) ||
		    (result = sg_output_wait(output, FLIP_TIMEOUT_MS)))
			break;
		flips++;
	}
	if (!v->quiet)
		printf("%ld frames in %.2f s%s\n", flips, seconds_now() - start,
		       stop ? ", stopped by a signal" : "");
	sg_output_destroy(output); /* restores the display */
	return result;
}

/* --window: a turn every v->frames frames of 60 a second. */
static sg_result pose(void *data, double seconds, int width, int height,
                      struct sg_camera *camera, bool *last)
{
	struct model_stage *stage = ((void **)data)[0];
	const struct viewer *v = ((void **)data)[1];
	*last = false;
	model_stage_camera(stage, width, height, camera);
	return model_stage_turn(stage, (int)((long)(seconds * 60.0) % v->frames), v->frames);
}

static int show_in_window(struct model_stage *stage, struct viewer *v)
{
	void *data[2] = {stage, v};
	struct window_loop window = {
	    .program = "viewer",
	    .desc = {.title = "viewer", .app_id = "org.libsg.viewer", .width = v->width,
	             .height = v->height ? v->height : 0},
	    .scene = stage->scene,
	    .seconds = v->seconds > 0 ? (double)v->seconds : 0,
	    .quiet = v->quiet,
	    .pose = pose,
	    .data = data,
	};
	memcpy(window.desc.clear_color, (float[]){MODEL_STAGE_BACKGROUND}, sizeof(float[4]));
	return window_loop_run(&window, NULL);
}

int main(int argc, char **argv)
{
	struct viewer v;
	int status = parse(argc, argv, &v);
	if (status)
		return status;
	struct model_stage stage;
	sg_result result = model_stage_create(&stage, v.path, NULL);
	if (!result && v.window) {
		status = show_in_window(&stage, &v);
		model_stage_finish(&stage);
		return status;
	}
	if (!result)
		result = v.kms ? show(&stage, &v) : write_frames(&stage, &v);
	if (result)
		fprintf(stderr, "viewer: %s\n", model_stage_error(&stage));
	model_stage_finish(&stage);
	return result ? 1 : 0;
}
