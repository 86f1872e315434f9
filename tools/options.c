/* sg-render: the command line (options.h). */
#include "options.h"

#include <ctype.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "escape.h"
#include "model_stage.h"

static void usage(FILE *out)
{
	fputs("Usage: sg-render SCENE.json -o OUTPUT.png [OPTION]...\n"
	      "       sg-render SCENE.json --display [CONNECTOR] [OPTION]...\n"
	      "       sg-render SCENE.json --window [OPTION]...\n"
	      "       sg-render MODEL -o OUTPUT.png [OPTION]...\n"
	      "       sg-render --info [--device PATH | --surfaceless]\n"
	      "       sg-render --version\n"
	      "Render a scene file (docs/scene-format.md) to a PNG file, or one per frame.\n"
	      "A file not named .json is a model (glTF .gltf/.glb, .obj, .stl, .ply, .fbx,\n"
	      ".dae, .3ds, ... whatever libsg's importer reads): it is rendered in a 3D view\n"
	      "with its first camera, else one that frames it from a 3/4 angle above, lit by\n"
	      "a key, a fill and a rim light; with --frames N it turns once about the\n"
	      "vertical axis through its centre, 360/N degrees a frame.\n"
	      "\n"
	      "  -o, --output PATH    the PNG file to write, - for standard output (one frame);\n"
	      "                       with several frames PATH may hold %d, %4d or %04d for\n"
	      "                       the frame number (%% for a %), else -NNNN is put\n"
	      "                       before .png (out.png: out-0000.png, out-0001.png, ...)\n"
	      "  -s, --size WxH       output size in pixels (default: the scene's, the scene\n"
	      "                       scales; a model: 512x512)\n"
	      "  -n, --frames N       the animation has N frames, 0 .. N-1 (default: the scene's;\n"
	      "                       a model: 1, a turntable of N frames)\n"
	      "  -b, --background COLOUR\n"
	      "                       clear to #rrggbb or #rrggbbaa (default: the scene's\n"
	      "                       \"background\"; a model: #1f2126)\n"
	      "      --frame-range FIRST:LAST\n"
	      "                       render only frames FIRST .. LAST (0-based, inclusive);\n"
	      "                       file names keep the frame numbers\n"
	      "      --allow-path DIR a scene's textures, fonts and models may also be read\n"
	      "                       from DIR (repeatable)\n"
	      "      --limit NAME=VALUE\n"
	      "                       raise or lower a budget (repeatable): file-bytes,\n"
	      "                       json-depth, texture-bytes, output-pixels, frames,\n"
	      "                       job-pixels (output pixels x frames rendered, default\n"
	      "                       4294967296, checked before rendering); byte values\n"
	      "                       take K, M or G (1024-based); for a model, file-bytes and\n"
	      "                       texture-bytes are the importer's (default 256M, 512M)\n"
	      "  -d, --device PATH    render on this DRM node with GBM (e.g. /dev/dri/renderD128)\n"
	      "                       or, with --display, show on this card node\n"
	      "      --surfaceless    render with EGL surfaceless (no DRM device)\n"
	      "      --display[=CONNECTOR]\n"
	      "                       show the animation on a display through KMS (CONNECTOR as\n"
	      "                       the kernel names it, e.g. HDMI-A-1; default: the first\n"
	      "                       connected one), one frame per page flip, until its last\n"
	      "                       frame or SIGINT/SIGTERM, then restore the display; --size\n"
	      "                       picks the mode (default: the preferred one)\n"
	      "      --window         show the animation in a Wayland window ($WAYLAND_DISPLAY),\n"
	      "                       one frame per frame callback, until its last frame (one\n"
	      "                       frame alone: until closed), the window is closed or\n"
	      "                       SIGINT/SIGTERM; --size is the window's size (default: the\n"
	      "                       scene's), the compositor may change it\n"
	      "      --fps N          N frames a second, 1..1000: with -o, frame n is the scene\n"
	      "                       at n / N seconds; with --display or --window, N scene\n"
	      "                       frames a second of real time (default: the scene's\n"
	      "                       \"fps\", else 24)\n"
	      "  -q, --quiet          print nothing but errors (no progress bar)\n"
	      "  -i, --info           print the device, EGL and GL the renderer runs on\n"
	      "  -h, --help           show this help\n"
	      "      --version        print the versions of sg-render and of the libsg it runs on\n"
	      "\n"
	      "Without --device or --surfaceless the target is chosen automatically: GBM on the\n"
	      "first render node, else surfaceless. SG_TARGET=gbm|surfaceless and SG_DEVICE=PATH\n"
	      "force one.\n"
	      "\n"
	      "Exit status: 0 success, 1 device, display, rendering or output failure or out\n"
	      "of memory (or a libsg without model import), 2 bad usage, 3 bad input (scene\n"
	      "file, model, texture or font missing, unreadable, malformed, outside the allowed\n"
	      "folders, or over a limit). --display\n"
	      "stopped by SIGINT or SIGTERM restores the display, then ends by that signal.\n",
	      out);
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

/* A decimal integer 0 .. max (no sign, no spaces), with end set after its digits. */
static bool parse_number(const char *text, uint64_t max, uint64_t *value, const char **end)
{
	const char *c = text;
	uint64_t n = 0;
	for (; *c >= '0' && *c <= '9'; c++) {
		unsigned digit = (unsigned)(*c - '0');
		if (n > (max - digit) / 10)
			return false;
		n = n * 10 + digit;
	}
	*value = n;
	*end = c;
	return c != text;
}

static bool parse_count(const char *text, int *count)
{
	uint64_t n;
	const char *end;
	if (!parse_number(text, INT_MAX, &n, &end) || *end || n < 1)
		return false;
	*count = (int)n;
	return true;
}

static bool parse_range(const char *text, int *first, int *last)
{
	uint64_t a, b;
	const char *end;
	if (!parse_number(text, INT_MAX - 1, &a, &end) || *end != ':' ||
	    !parse_number(end + 1, INT_MAX - 1, &b, &end) || *end || a > b)
		return false;
	*first = (int)a;
	*last = (int)b;
	return true;
}

/* "#rrggbb" or "#rrggbbaa" into components in [0, 1]. */
static bool parse_background(const char *text, float rgba[4])
{
	size_t length = strlen(text);
	if (text[0] != '#' || (length != 7 && length != 9))
		return false;
	rgba[3] = 1;
	for (size_t i = 0; i < (length - 1) / 2; i++) {
		char pair[3] = {text[1 + 2 * i], text[2 + 2 * i], 0}, *end;
		if (!isxdigit((unsigned char)pair[0]) || !isxdigit((unsigned char)pair[1]))
			return false;
		rgba[i] = (float)strtol(pair, &end, 16) / 255.0f;
	}
	return true;
}

#define LIMIT_NAMES "file-bytes, json-depth, texture-bytes, output-pixels, frames, job-pixels"

/* --limit NAME=VALUE into o->load (job-pixels: o->max_job_pixels); EXIT_OK or
 * EXIT_USAGE after a message. */
static int parse_limit(const char *text, struct options *o)
{
	struct sg_scene_file_options *load = &o->load;
	static const struct {
		const char *name;
		bool bytes; /* takes K, M, G */
		uint64_t max;
	} limits[] = {
	    {"file-bytes", true, UINT64_MAX},
	    {"json-depth", false, 10000}, /* the loader's own cap */
	    {"texture-bytes", true, UINT64_MAX},
	    {"output-pixels", false, UINT64_MAX},
	    {"frames", false, INT_MAX},
	    {"job-pixels", false, UINT64_MAX},
	};
	const char *equals = strchr(text, '=');
	size_t length = equals ? (size_t)(equals - text) : strlen(text);
	size_t i = 0;
	while (i < sizeof(limits) / sizeof(limits[0]) &&
	       !(strlen(limits[i].name) == length && strncmp(limits[i].name, text, length) == 0))
		i++;
	if (i == sizeof(limits) / sizeof(limits[0])) {
		say_error("--limit '%s': unknown limit '%.*s'; the limits are " LIMIT_NAMES, text,
		          (int)length, text);
		return EXIT_USAGE;
	}
	uint64_t max = limits[i].max, value = 0;
	const char *end = NULL;
	bool ok = equals && parse_number(equals + 1, max, &value, &end);
	if (ok && limits[i].bytes && *end) {
		int shift = *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 0;
		ok = shift && !end[1] && value <= (UINT64_MAX >> shift);
		value <<= shift;
	} else if (ok && *end) {
		ok = false;
	}
	if (!ok || value == 0) {
		say_error("--limit '%s': the value is not a whole number 1 .. %llu%s", text,
		          (unsigned long long)max, limits[i].bytes ? " (K, M, G allowed)" : "");
		return EXIT_USAGE;
	}
	switch (i) {
	case 0: load->max_file_bytes = value; break;
	case 1: load->max_json_depth = (int)value; break;
	case 2: load->max_texture_bytes = value; break;
	case 3: load->max_output_pixels = value; break;
	case 4: load->max_frames = (int)value; break;
	case 5: o->max_job_pixels = value; break;
	}
	return EXIT_OK;
}

/* --size and --frames bypass the scene file, so the limits the loader applies
 * to its "output" and "frames" are applied to them here. */
static int check_command_line_limits(const struct options *o)
{
	uint64_t max_pixels =
	    o->load.max_output_pixels ? o->load.max_output_pixels : DEFAULT_MAX_OUTPUT_PIXELS;
	int max_frames = o->load.max_frames ? o->load.max_frames : DEFAULT_MAX_FRAMES;
	uint64_t pixels = (uint64_t)o->width * (uint64_t)o->height;
	if (pixels > max_pixels) {
		say_error("--size %dx%d: %llu pixels is over the output-pixels limit of %llu "
		          "(--limit output-pixels=N raises it)",
		          o->width, o->height, (unsigned long long)pixels,
		          (unsigned long long)max_pixels);
		return EXIT_INPUT;
	}
	if (o->frames > max_frames) {
		say_error("--frames %d is over the frames limit of %d (--limit frames=N raises it)",
		          o->frames, max_frames);
		return EXIT_INPUT;
	}
	return EXIT_OK;
}

enum {
	OPTION_SURFACELESS = 256,
	OPTION_FRAME_RANGE,
	OPTION_ALLOW_PATH,
	OPTION_LIMIT,
	OPTION_VERSION,
	OPTION_DISPLAY,
	OPTION_FPS,
	OPTION_WINDOW,
};

/* The tool's version is that of the headers it was built with; the library's
 * is the libsg.so it loaded, which may be another. */
static void print_version(void)
{
	printf("sg-render %s (libsg %s)\n", SG_VERSION, sg_version());
}

static int parse_one(int option, struct options *o, bool *surfaceless)
{
	switch (option) {
	case 'o': o->output = optarg; break;
	case 's':
		if (!parse_size(optarg, &o->width, &o->height)) {
			say_error("--size '%s' is not WxH (1..16384 each)", optarg);
			return EXIT_USAGE;
		}
		break;
	case 'n':
		if (!parse_count(optarg, &o->frames)) {
			say_error("--frames '%s' is not a count 1..%d", optarg, INT_MAX);
			return EXIT_USAGE;
		}
		break;
	case OPTION_FRAME_RANGE:
		if (!parse_range(optarg, &o->first, &o->last)) {
			say_error("--frame-range '%s' is not FIRST:LAST with 0 <= FIRST <= LAST",
			          optarg);
			return EXIT_USAGE;
		}
		o->has_range = true;
		break;
	case OPTION_ALLOW_PATH:
		o->allowed_paths[o->load.allowed_path_count++] = optarg;
		o->load.allowed_paths = o->allowed_paths;
		break;
	case OPTION_LIMIT: return parse_limit(optarg, o);
	case 'd':
		o->desc.device = optarg;
		o->desc.target = SG_TARGET_GBM;
		break;
	case OPTION_SURFACELESS: *surfaceless = true; break;
	case OPTION_DISPLAY:
		o->display = true;
		o->connector = optarg;
		break;
	case OPTION_WINDOW: o->window = true; break;
	case OPTION_FPS:
		if (!parse_count(optarg, &o->fps) || o->fps > 1000) {
			say_error("--fps '%s' is not a rate 1..1000", optarg);
			return EXIT_USAGE;
		}
		break;
	case 'b':
		if (!parse_background(optarg, o->background)) {
			say_error("--background '%s' is not #rrggbb or #rrggbbaa", optarg);
			return EXIT_USAGE;
		}
		o->has_background = true;
		break;
	case 'q': o->quiet = true; break;
	case 'i': o->info = true; break;
	case 'h': usage(stdout); exit(EXIT_OK);
	case OPTION_VERSION: print_version(); exit(EXIT_OK);
	default: usage(stderr); return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* --display renders with the output's own renderer on the card node: the
 * options that choose a target or a file have no meaning there. */
static int check_display(struct options *o, bool surfaceless)
{
	const char *name = o->window ? "--window" : "--display";
	const char *conflict = o->display && o->window ? "--display and --window exclude each other"
	                       : surfaceless               ? "and --surfaceless exclude each other"
	                       : o->output                 ? "and -o exclude each other"
	                       : !o->scene                 ? "needs a scene file"
	                                                   : NULL;
	if (conflict) {
		if (conflict[0] == '-')
			say_error("%s", conflict);
		else
			say_error("%s %s", name, conflict);
		return EXIT_USAGE;
	}
	return check_command_line_limits(o); /* o->fps 0: the scene file's "fps" */
}

/* What is checked once every option is read, so that their order does not matter. */
static int check_combination(struct options *o, bool surfaceless)
{
	if (o->desc.device && surfaceless) {
		say_error("--device and --surfaceless exclude each other");
		return EXIT_USAGE;
	}
	if (surfaceless)
		o->desc.target = SG_TARGET_SURFACELESS;
	if (o->model && (o->display || o->window || o->load.allowed_path_count)) {
		say_error("%s: a model file (not .json): %s", o->scene,
		          o->display  ? "--display shows scene files (demos/viewer --kms shows a model)"
		          : o->window ? "--window shows scene files (demos/viewer --window shows a model)"
		                     : "--allow-path is for scene files (a model's own files lie in "
		                       "its folder)");
		return EXIT_USAGE;
	}
	if (o->model && o->fps) {
		say_error("%s: a model file (not .json): --fps samples a scene file's animation "
		          "(a model turns by --frames)",
		          o->scene);
		return EXIT_USAGE;
	}
	if (o->display || o->window)
		return check_display(o, surfaceless);
	if (!o->scene || !o->output) {
		if (o->info && !o->scene)
			return EXIT_OK;
		say_error("%s",
		          !o->scene ? "no scene file given" : "no output given (-o OUTPUT.png)");
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!o->output[0]) {
		/* with several frames it would write "-0000", "-0001", ... here */
		say_error("-o '': the output name is empty; give a file name such as out.png, "
		          "or - for standard output");
		return EXIT_USAGE;
	}
	if (options_to_stdout(o)) {
		/* a PNG on a terminal is noise that may even be taken for escape sequences */
		if (isatty(STDOUT_FILENO)) {
			say_error("-o -: standard output is a terminal; redirect it (-o - > FILE, "
			          "-o - | COMMAND) or give a file name");
			return EXIT_USAGE;
		}
	} else {
		char why[200];
		if (!output_name_parse(o->output, &o->name, why, sizeof(why))) {
			say_error("-o '%s': %s", o->output, why);
			return EXIT_USAGE;
		}
	}
	return check_command_line_limits(o);
}

int options_parse(int argc, char **argv, struct options *o)
{
	static const struct option long_options[] = {
	    {"output", required_argument, NULL, 'o'},
	    {"size", required_argument, NULL, 's'},
	    {"frames", required_argument, NULL, 'n'},
	    {"frame-range", required_argument, NULL, OPTION_FRAME_RANGE},
	    {"allow-path", required_argument, NULL, OPTION_ALLOW_PATH},
	    {"limit", required_argument, NULL, OPTION_LIMIT},
	    {"device", required_argument, NULL, 'd'},
	    {"surfaceless", no_argument, NULL, OPTION_SURFACELESS},
	    {"display", optional_argument, NULL, OPTION_DISPLAY},
	    {"fps", required_argument, NULL, OPTION_FPS},
	    {"window", no_argument, NULL, OPTION_WINDOW},
	    {"background", required_argument, NULL, 'b'},
	    {"quiet", no_argument, NULL, 'q'},
	    {"info", no_argument, NULL, 'i'},
	    {"help", no_argument, NULL, 'h'},
	    {"version", no_argument, NULL, OPTION_VERSION},
	    {NULL, 0, NULL, 0},
	};
	/* at most one --allow-path per argument */
	o->allowed_paths = calloc((size_t)argc, sizeof(*o->allowed_paths));
	if (!o->allowed_paths) {
		say_error("out of memory reading the command line");
		return EXIT_RENDER;
	}
	bool surfaceless = false;
	int option, status;
	while ((option = getopt_long(argc, argv, "o:s:n:b:d:qih", long_options, NULL)) != -1)
		if ((status = parse_one(option, o, &surfaceless)))
			return status;
	if (optind < argc) {
		o->scene = argv[optind++];
		o->model = model_stage_is_model_path(o->scene);
	}
	/* --display CONNECTOR: getopt leaves an optional argument given apart as an operand */
	if (o->display && !o->connector && optind < argc)
		o->connector = argv[optind++];
	if (optind < argc) {
		say_error("unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	return check_combination(o, surfaceless);
}

void options_finish(struct options *o)
{
	free(o->allowed_paths);
	o->allowed_paths = NULL;
}

int options_check_frames(struct options *o, int frame_count)
{
	if (!o->has_range) {
		o->first = 0;
		o->last = frame_count - 1;
	} else if (o->last >= frame_count) {
		say_error("--frame-range %d:%d: the animation has %d frame%s (0 .. %d)", o->first,
		          o->last, frame_count, frame_count == 1 ? "" : "s", frame_count - 1);
		return EXIT_USAGE;
	}
	if (options_to_stdout(o) && o->last > o->first) {
		say_error("-o - writes one image, and %d frames are to be rendered: give a file "
		          "name such as out-%%04d.png, or one frame with --frame-range N:N",
		          o->last - o->first + 1);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int options_check_job(const struct options *o)
{
	uint64_t max = o->max_job_pixels ? o->max_job_pixels : DEFAULT_MAX_JOB_PIXELS;
	uint64_t frames = (uint64_t)(o->last - o->first) + 1;
	/* at most 16384 x 16384 x INT_MAX: no overflow in 64 bits */
	uint64_t pixels = (uint64_t)o->width * (uint64_t)o->height * frames;
	if (pixels > max) {
		say_error("%llu frame%s of %dx%d = %llu pixels is over the job-pixels limit of "
		          "%llu (--limit job-pixels=N raises it, --frame-range renders fewer "
		          "frames)",
		          (unsigned long long)frames, frames == 1 ? "" : "s", o->width, o->height,
		          (unsigned long long)pixels, (unsigned long long)max);
		return EXIT_INPUT;
	}
	return EXIT_OK;
}
