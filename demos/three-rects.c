/* three-rects: renders the reference scene to a PNG file, or shows it in a
 * Wayland window (--window, tools/window_loop.c). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sg/sg.h>

#include "../tools/window_loop.h"
#include "three_rects_scene.h"

static void usage(FILE *out)
{
	fprintf(out,
	        "Usage: three-rects [OPTION]... [OUTPUT.png]\n"
	        "       three-rects --window [--seconds N] [--fullscreen] [-q]\n"
	        "Render the three-rectangle reference scene to OUTPUT.png (default three-rects.png),\n"
	        "or show it in a Wayland window ($WAYLAND_DISPLAY) until it is closed.\n"
	        "\n"
	        "  -o, --output PATH    the PNG file to write\n"
	        "  -s, --size WxH       output size in pixels (default 256x256; the scene scales)\n"
	        "  -d, --device PATH    render on this DRM node with GBM (e.g. /dev/dri/renderD128)\n"
	        "      --surfaceless    render with EGL surfaceless (no DRM device)\n"
	        "  -w, --window         show it in a window (the size --size gives, stretched)\n"
	        "      --fullscreen     with --window: ask for fullscreen (kiosk compositors)\n"
	        "      --seconds N      with --window: close after N seconds\n"
	        "  -q, --quiet          print nothing but errors\n"
	        "  -h, --help           show this help\n"
	        "\n"
	        "Without --device or --surfaceless the target is chosen automatically: GBM on the\n"
	        "first render node, else surfaceless. SG_TARGET=gbm|surfaceless and SG_DEVICE=PATH\n"
	        "force one. Exit status: 0 on success, 1 on a rendering error, 2 on bad usage.\n");
}

static int parse_size(const char *text, int *width, int *height)
{
	char *end;
	long w = strtol(text, &end, 10);
	if (*end != 'x' && *end != 'X')
		return -1;
	long h = strtol(end + 1, &end, 10);
	if (*end || w < 1 || h < 1 || w > 16384 || h > 16384)
		return -1;
	*width = (int)w;
	*height = (int)h;
	return 0;
}

int main(int argc, char **argv)
{
	const char *output = "three-rects.png";
	struct sg_renderer_desc desc = {.width = THREE_RECTS_SIZE, .height = THREE_RECTS_SIZE};
	int quiet = 0;
	struct window_loop window = {.program = "three-rects"};
	bool in_window = false;
	static const struct option options[] = {
		{"window", no_argument, NULL, 'w'},       {"fullscreen", no_argument, NULL, 'F'},
		{"seconds", required_argument, NULL, 'T'},
		{"output", required_argument, NULL, 'o'}, {"size", required_argument, NULL, 's'},
		{"device", required_argument, NULL, 'd'}, {"surfaceless", no_argument, NULL, 'S'},
		{"quiet", no_argument, NULL, 'q'},        {"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int option;
	while ((option = getopt_long(argc, argv, "o:s:d:wqh", options, NULL)) != -1) {
		switch (option) {
		case 'o': output = optarg; break;
		case 's':
			if (parse_size(optarg, &desc.width, &desc.height)) {
				fprintf(stderr, "three-rects: --size '%s' is not WxH (1..16384 each)\n", optarg);
				return 2;
			}
			break;
		case 'd': desc.device = optarg, desc.target = SG_TARGET_GBM; break;
		case 'S': desc.target = SG_TARGET_SURFACELESS; break;
		case 'w': in_window = true; break;
		case 'F': window.desc.fullscreen = true; break;
		case 'T': {
			char *end;
			window.seconds = strtod(optarg, &end);
			if (*end || !(window.seconds > 0 && window.seconds <= 1e6)) {
				fprintf(stderr, "three-rects: --seconds '%s' is not 0 .. 1000000\n", optarg);
				return 2;
			}
			break;
		}
		case 'q': quiet = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc)
		output = argv[optind++];
	if (optind < argc) {
		fprintf(stderr, "three-rects: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}

	if ((window.desc.fullscreen || window.seconds > 0) && !in_window) {
		fprintf(stderr, "three-rects: --fullscreen and --seconds need --window\n");
		return 2;
	}
	int status = 1;
	struct sg_scene *scene = three_rects_build();
	if (in_window) {
		window.scene = scene;
		window.quiet = quiet;
		window.desc.title = "three-rects";
		window.desc.app_id = "org.libsg.three-rects";
		window.desc.width = desc.width;
		window.desc.height = desc.height;
		window.still_width = window.still_height = THREE_RECTS_SIZE;
		status = scene ? window_loop_run(&window, NULL) : 1;
		if (!scene)
			fprintf(stderr, "three-rects: %s\n", sg_last_error());
		sg_scene_destroy(scene);
		return status;
	}
	struct sg_renderer *renderer = scene ? sg_renderer_create(&desc) : NULL;
	struct sg_camera camera;
	/* The scene is specified in 256 x 256 units; other sizes scale it. */
	sg_camera_init_pixels(&camera, THREE_RECTS_SIZE, THREE_RECTS_SIZE);
	if (!renderer || sg_renderer_render(renderer, scene, &camera) ||
	    sg_renderer_write_png(renderer, output)) {
		fprintf(stderr, "three-rects: %s\n", sg_last_error());
		goto done;
	}
	if (!quiet) {
		const struct sg_renderer_info *info = sg_renderer_get_info(renderer);
		printf("target: %s (%s)\n", info->target_name, info->reason);
		printf("GL_RENDERER: %s\n", info->gl_renderer);
		printf("wrote %s (%dx%d)\n", output, info->width, info->height);
	}
	status = 0;
done:
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
	return status;
}
