/* sg-render: renders a JSON scene file (docs/scene-format.md) to PNG files. */
#include <EGL/egl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sg/sg.h>

/* Exit statuses, as documented in --help and docs/sg-render.md. */
enum {
	EXIT_OK = 0,
	EXIT_RENDER = 1, /* device, EGL/GL or output file failure */
	EXIT_USAGE = 2,
	EXIT_INPUT = 3, /* the scene file (or a texture it names) is missing or malformed */
};

#define MAX_FRAMES 1000000

struct options {
	const char *scene;
	const char *output;
	int width, height; /* 0: the scene file's */
	int frames;        /* 0: the scene file's */
	struct sg_renderer_desc desc;
	bool quiet, info;
};

static void usage(FILE *out)
{
	fprintf(
		out,
	    "Usage: sg-render SCENE.json -o OUTPUT.png [OPTION]...\n"
	    "       sg-render --info [--device PATH | --surfaceless]\n"
	    "Render a scene file (docs/scene-format.md) to a PNG file, or one per frame.\n"
	    "\n"
	    "  -o, --output PATH    the PNG file to write; with several frames PATH may hold a\n"
	    "                       printf pattern such as out-%%04d.png, else -NNNN is put\n"
	    "                       before .png (out.png: out-0000.png, out-0001.png, ...)\n"
	    "  -s, --size WxH       output size in pixels (default: the scene's; the scene "
	    "scales)\n"
	    "  -n, --frames N       render frames 0 .. N-1 (default: the scene's \"frames\")\n"
	    "  -d, --device PATH    render on this DRM node with GBM (e.g. /dev/dri/renderD128)\n"
	    "      --surfaceless    render with EGL surfaceless (no DRM device)\n"
	    "  -q, --quiet          print nothing but errors (no progress bar)\n"
	    "  -i, --info           print the device, EGL and GL the renderer runs on\n"
	    "  -h, --help           show this help\n"
	    "\n"
	    "Without --device or --surfaceless the target is chosen automatically: GBM on the\n"
	    "first render node, else surfaceless. SG_TARGET=gbm|surfaceless and SG_DEVICE=PATH\n"
	    "force one.\n"
	    "\n"
	    "Exit status: 0 success, 1 device, rendering or output failure, 2 bad usage,\n"
	    "3 bad input (scene file or texture missing, unreadable or malformed).\n");
}

static bool parse_size(const char *text, int *width, int *height)
{
	char *end;
	long w = strtol(text, &end, 10);
	if (end == text || (*end != 'x' && *end != 'X'))
		return false;
	const char *second = end + 1;
	long h = strtol(second, &end, 10);
	if (end == second || *end || w < 1 || h < 1 || w > 16384 || h > 16384)
		return false;
	*width = (int)w;
	*height = (int)h;
	return true;
}

static bool parse_count(const char *text, int *count)
{
	char *end;
	long n = strtol(text, &end, 10);
	if (end == text || *end || n < 1 || n > MAX_FRAMES)
		return false;
	*count = (int)n;
	return true;
}

/* True when pattern holds exactly one integer conversion (%d, %04d, ...) and
 * otherwise only "%%": the only patterns safe to hand to snprintf. */
static bool is_frame_pattern(const char *pattern, bool *has_conversion)
{
	int conversions = 0;
	for (const char *c = pattern; *c; c++) {
		if (*c != '%')
			continue;
		if (c[1] == '%') {
			c++;
			continue;
		}
		c++;
		while (*c >= '0' && *c <= '9')
			c++;
		if (*c != 'd')
			return false;
		conversions++;
	}
	*has_conversion = conversions == 1;
	return conversions <= 1;
}

/* The PNG path of frame, written into path (size bytes). */
static void frame_path(const char *output, bool pattern, int frame_count, int frame, char *path,
                       size_t size)
{
	if (pattern) {
		snprintf(path, size, output, frame);
		return;
	}
	if (frame_count == 1) {
		snprintf(path, size, "%s", output);
		return;
	}
	size_t length = strlen(output);
	size_t stem =
		length >= 4 && strcasecmp(output + length - 4, ".png") == 0 ? length - 4 : length;
	snprintf(path, size, "%.*s-%04d%s", (int)stem, output, frame, output + stem);
}

static int parse_options(int argc, char **argv, struct options *o)
{
	bool surfaceless = false;
	static const struct option long_options[] = {
		{"output", required_argument, NULL, 'o'},
	    {"size", required_argument, NULL, 's'},
	    {"frames", required_argument, NULL, 'n'},
	    {"device", required_argument, NULL, 'd'},
	    {"surfaceless", no_argument, NULL, 'S'},
	    {"quiet", no_argument, NULL, 'q'},
	    {"info", no_argument, NULL, 'i'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	int option;
	while ((option = getopt_long(argc, argv, "o:s:n:d:qih", long_options, NULL)) != -1) {
		switch (option) {
		case 'o': o->output = optarg; break;
		case 's':
			if (!parse_size(optarg, &o->width, &o->height)) {
				fprintf(stderr,
				        "sg-render: --size '%s' is not WxH (1..16384 each)\n",
				        optarg);
				return EXIT_USAGE;
			}
			break;
		case 'n':
			if (!parse_count(optarg, &o->frames)) {
				fprintf(stderr, "sg-render: --frames '%s' is not a count 1..%d\n",
				        optarg, MAX_FRAMES);
				return EXIT_USAGE;
			}
			break;
		case 'd':
			o->desc.device = optarg;
			o->desc.target = SG_TARGET_GBM;
			break;
		case 'S': surfaceless = true; break;
		case 'q': o->quiet = true; break;
		case 'i': o->info = true; break;
		case 'h': usage(stdout); exit(EXIT_OK);
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	/* checked after the loop, so that the order of the two does not matter */
	if (o->desc.device && surfaceless) {
		fprintf(stderr, "sg-render: --device and --surfaceless exclude each other\n");
		return EXIT_USAGE;
	}
	if (surfaceless)
		o->desc.target = SG_TARGET_SURFACELESS;
	if (optind < argc)
		o->scene = argv[optind++];
	if (optind < argc) {
		fprintf(stderr, "sg-render: unexpected argument '%s'\n", argv[optind]);
		return EXIT_USAGE;
	}
	if (!o->info && (!o->scene || !o->output)) {
		fprintf(stderr, "sg-render: %s\n",
		        !o->scene ? "no scene file given" : "no output given (-o OUTPUT.png)");
		usage(stderr);
		return EXIT_USAGE;
	}
	if (o->scene && !o->output) {
		fprintf(stderr, "sg-render: no output given (-o OUTPUT.png)\n");
		return EXIT_USAGE;
	}
	bool has_conversion;
	if (o->output && !is_frame_pattern(o->output, &has_conversion)) {
		fprintf(stderr, "sg-render: -o '%s': the only pattern allowed is one %%d\n",
		        o->output);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static void print_info(struct sg_renderer *renderer)
{
	const struct sg_renderer_info *info = sg_renderer_get_info(renderer);
	printf("target:      %s (%s)\n", info->target_name, info->reason);
	printf("device:      %s\n", info->device[0] ? info->device : "(none)");
	printf("EGL vendor:  %s\n", info->egl_vendor);
	printf("EGL driver:  %s\n", info->egl_driver[0] ? info->egl_driver : "(unknown)");
	printf("GL_RENDERER: %s\n", info->gl_renderer);
	printf("GL_VERSION:  %s\n", info->gl_version);
	/* Client extensions need no display: they say which platforms EGL offers. */
	const char *extensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
	printf("EGL client extensions: %s\n", extensions ? extensions : "(none)");
}

static void show_progress(int done, int total)
{
	const int width = 40;
	int filled = (int)((long)done * width / total);
	fprintf(stderr, "\r[%.*s%*s] %d/%d", filled, "########################################",
	        width - filled, "", done, total);
	if (done == total)
		fputc('\n', stderr);
}

static int render_frames(const struct options *o, struct sg_scene_file *file,
                         struct sg_renderer *renderer)
{
	int frame_count = o->frames ? o->frames : sg_scene_file_get_frame_count(file);
	bool pattern = false;
	is_frame_pattern(o->output, &pattern);
	bool progress = !o->quiet && frame_count > 3 && isatty(STDERR_FILENO);
	const struct sg_renderer_info *info = sg_renderer_get_info(renderer);
	struct sg_camera camera;
	sg_scene_file_get_camera(file, info->width, info->height, &camera);
	float background[4];
	sg_scene_file_get_background(file, background);
	sg_renderer_set_clear_color(renderer, background[0], background[1], background[2],
	                            background[3]);
	char path[4096], first[4096] = "";
	for (int frame = 0; frame < frame_count; frame++) {
		frame_path(o->output, pattern, frame_count, frame, path, sizeof(path));
		if (sg_scene_file_apply_frame(file, frame) ||
		    sg_renderer_render(renderer, sg_scene_file_get_scene(file), &camera) ||
		    sg_renderer_write_png(renderer, path)) {
			if (progress)
				fputc('\n', stderr);
			fprintf(stderr, "sg-render: frame %d: %s\n", frame, sg_last_error());
			return EXIT_RENDER;
		}
		if (frame == 0)
			snprintf(first, sizeof(first), "%s", path);
		if (progress)
			show_progress(frame + 1, frame_count);
	}
	if (!o->quiet && frame_count == 1)
		printf("wrote %s (%dx%d)\n", path, info->width, info->height);
	else if (!o->quiet)
		printf("wrote %d frames %s .. %s (%dx%d)\n", frame_count, first, path, info->width,
		       info->height);
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	struct options o = {0};
	int status = parse_options(argc, argv, &o);
	if (status)
		return status;

	struct sg_scene_file *file = NULL;
	if (o.scene) {
		sg_result result = sg_scene_file_load(o.scene, &file);
		if (result) {
			fprintf(stderr, "sg-render: %s\n", sg_last_error());
			return result == SG_ERR_IO || result == SG_ERR_FORMAT ? EXIT_INPUT
			                                                      : EXIT_RENDER;
		}
		if (!o.width)
			sg_scene_file_get_size(file, &o.width, &o.height);
	}
	o.desc.width = o.width ? o.width : 64;
	o.desc.height = o.height ? o.height : 64;
	struct sg_renderer *renderer = sg_renderer_create(&o.desc);
	if (!renderer) {
		fprintf(stderr, "sg-render: %s\n", sg_last_error());
		sg_scene_file_destroy(file);
		return EXIT_RENDER;
	}
	if (o.info)
		print_info(renderer);
	if (file)
		status = render_frames(&o, file, renderer);
	sg_renderer_destroy(renderer);
	sg_scene_file_destroy(file);
	return status;
}
