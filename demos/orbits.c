/* orbits: an animated hierarchy rendered to a numbered sequence of PNGs, or
 * shown on a display at its refresh rate with --kms (orbits_kms.c).
 *
 * A sun spins at the centre; planets orbit on transforms under it, and moons
 * orbit on transforms under their planets. Animating one transform moves its
 * whole subtree: that is the point of a scene graph. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sg/sg.h>

#include "../tools/window_loop.h"
#include "orbits.h"

#define DISC_SEGMENTS 48

/* A disc of radius 1 centred on the origin, as a triangle list; the texture
 * is mapped across its bounding square. */
static sg_mesh disc_mesh(struct sg_scene *scene)
{
	struct sg_vertex vertices[DISC_SEGMENTS * 3];
	for (int i = 0; i < DISC_SEGMENTS; i++) {
		float a0 = 2.0f * (float)M_PI * (float)i / DISC_SEGMENTS;
		float a1 = 2.0f * (float)M_PI * (float)(i + 1) / DISC_SEGMENTS;
		float points[3][2] = {{0, 0}, {cosf(a0), sinf(a0)}, {cosf(a1), sinf(a1)}};
		for (int k = 0; k < 3; k++)
			vertices[i * 3 + k] = (struct sg_vertex){
				{points[k][0], points[k][1], 0},
				{(points[k][0] + 1) / 2, (points[k][1] + 1) / 2}};
	}
	return sg_mesh_create(scene, &(struct sg_mesh_desc){.vertices = vertices,
	                                                    .vertex_count = DISC_SEGMENTS * 3});
}

/* Stripes make the spin of each body visible. */
static sg_texture striped(struct sg_scene *scene, const unsigned char a[3], const unsigned char b[3])
{
	unsigned char pixels[32 * 32 * 4];
	for (int y = 0; y < 32; y++)
		for (int x = 0; x < 32; x++) {
			const unsigned char *c = (x / 4) % 2 ? a : b;
			unsigned char *p = pixels + (y * 32 + x) * 4;
			p[0] = c[0], p[1] = c[1], p[2] = c[2], p[3] = 255;
		}
	return sg_texture_create(scene, &(struct sg_texture_desc){
		.width = 32, .height = 32, .pixels = pixels, .filter = SG_FILTER_LINEAR});
}

struct body {
	const char *name;
	int parent;     /* index into bodies, -1 for the sun */
	float distance; /* from the parent, in scene units */
	float radius;
	float period;   /* frames per orbit (negative: clockwise) */
	unsigned char colour[3];
};

static const struct body bodies[] = {
	{"sun", -1, 0, 48, 0, {255, 200, 40}},
	{"rock", 0, 90, 10, 30, {180, 180, 180}},
	{"earth", 0, 150, 20, 60, {40, 120, 255}},
	{"moon", 2, 34, 6, -15, {230, 230, 230}},
	{"giant", 0, 215, 30, 120, {230, 120, 60}},
	{"io", 4, 44, 6, 20, {250, 240, 120}},
	{"europa", 4, 60, 5, -35, {200, 220, 255}},
};
_Static_assert(sizeof(bodies) / sizeof(bodies[0]) == ORBITS_BODIES, "one entry per body");
#define BODY_COUNT ORBITS_BODIES

static sg_result build(struct orbits *o)
{
	struct sg_scene *scene = o->scene = sg_scene_create();
	if (!scene)
		return SG_ERR_NO_MEMORY;
	sg_mesh disc = disc_mesh(scene);
	const unsigned char dark[3] = {20, 20, 40};
	/* root -> centre (translate to the middle of the image) -> sun's subtree */
	sg_node centre = sg_node_new_transform(scene, &(struct sg_transform_desc){.name = "centre"});
	sg_result r = sg_transform_translate(scene, centre, ORBITS_SIZE / 2, ORBITS_SIZE / 2, 0);
	if (!r)
		r = sg_node_add_child(scene, sg_scene_root(scene), centre);
	for (int i = 0; i < BODY_COUNT && !r; i++) {
		const struct body *b = &bodies[i];
		sg_node parent = b->parent < 0 ? centre : o->offset[b->parent];
		/* orbit (rotate) -> offset (translate by distance) -> spin -> scale -> disc */
		o->orbit[i] = sg_node_new_transform(scene, &(struct sg_transform_desc){.name = b->name});
		sg_node offset = o->offset[i] = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
		o->spin[i] = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
		sg_node size = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
		sg_node model = sg_node_new_model(scene, &(struct sg_model_desc){
			.name = b->name, .mesh = disc, .texture = striped(scene, b->colour, dark)});
		if ((r = sg_transform_translate(scene, offset, b->distance, 0, 0)) ||
		    (r = sg_transform_scale(scene, size, b->radius, b->radius, 1)) ||
		    (r = sg_node_add_child(scene, parent, o->orbit[i])) ||
		    (r = sg_node_add_child(scene, o->orbit[i], offset)) ||
		    (r = sg_node_add_child(scene, offset, o->spin[i])) ||
		    (r = sg_node_add_child(scene, o->spin[i], size)))
			break;
		r = sg_node_add_child(scene, size, model);
	}
	return r;
}

/* Moons hang under their planet's offset, so they are carried along its
 * orbit; only their own angle is set here. */
sg_result orbits_animate(struct orbits *o, float frame)
{
	sg_result r = SG_OK;
	for (int i = 0; i < BODY_COUNT && !r; i++) {
		const struct body *b = &bodies[i];
		float angle = b->period ? 2.0f * (float)M_PI * frame / b->period : 0.0f;
		if ((r = sg_transform_set_identity(o->scene, o->orbit[i])) ||
		    (r = sg_transform_rotate(o->scene, o->orbit[i], angle, 0, 0, 1)) ||
		    (r = sg_transform_set_identity(o->scene, o->spin[i])))
			break;
		r = sg_transform_rotate(o->scene, o->spin[i], frame * 0.15f, 0, 0, 1);
	}
	return r;
}

static void usage(FILE *out)
{
	fprintf(out,
	        "Usage: orbits [-n FRAMES] [-o PATTERN] [--device PATH|--surfaceless] [-q]\n"
	        "       orbits --kms [CONNECTOR] [--device PATH] [--seconds N] [-n FRAMES]\n"
	        "              [--legacy] [--copy] [-q]\n"
	        "       orbits --window [--device PATH] [--seconds N] [-n FRAMES] [-q]\n"
	        "Render an animated sun, planets and moons to PATTERN (a printf pattern with\n"
	        "one %%d, default orbits-%%04d.png), FRAMES frames (default 24), 512x512.\n"
	        "With --kms, show it on CONNECTOR (default: the first connected one) of the\n"
	        "card node PATH (default: the first with KMS), one frame per page flip, for\n"
	        "N seconds, FRAMES frames or until SIGINT/SIGTERM; then print the frames\n"
	        "presented and missed and the mean interval between page flips.\n"
	        "--legacy: drmModeSetCrtc + drmModePageFlip; --copy: the dumb-buffer copy path.\n"
	        "With --window, show it in a Wayland window ($WAYLAND_DISPLAY), one frame per\n"
	        "frame callback, until the window is closed, N seconds, FRAMES frames shown\n"
	        "or SIGINT/SIGTERM.\n");
}

static int write_pngs(struct orbits *o, struct sg_renderer_desc *desc, const char *pattern,
                      int frames, bool quiet)
{
	struct sg_renderer *renderer = sg_renderer_create(desc);
	if (!renderer || sg_renderer_set_clear_color(renderer, 0.02f, 0.02f, 0.08f, 1.0f))
		goto fail;
	for (int frame = 0; frame < frames; frame++) {
		char path[4096];
		snprintf(path, sizeof(path), pattern, frame);
		if (orbits_animate(o, (float)frame) ||
		    sg_renderer_render(renderer, o->scene, NULL) ||
		    sg_renderer_write_png(renderer, path))
			goto fail;
		if (!quiet)
			printf("wrote %s\n", path);
	}
	sg_renderer_destroy(renderer);
	return 0;
fail:
	fprintf(stderr, "orbits: %s\n", sg_last_error());
	sg_renderer_destroy(renderer);
	return 1;
}

void orbits_fit_camera(struct sg_camera *camera, int width, int height)
{
	double scale = fmin((double)width, (double)height) / ORBITS_SIZE;
	double half_w = width / scale / 2, half_h = height / scale / 2, centre = ORBITS_SIZE / 2.0;
	/* y grows downwards, as with sg_camera_init_pixels: bottom is the larger y */
	sg_camera_init_ortho(camera, (float)(centre - half_w), (float)(centre + half_w),
	                     (float)(centre + half_h), (float)(centre - half_h), -1.0f, 1.0f);
}

/* --window: the pose due at the time shown, 24 animation frames a second. */
static sg_result pose(void *data, double seconds, int width, int height,
                      struct sg_camera *camera, bool *last)
{
	*last = false;
	orbits_fit_camera(camera, width, height);
	return orbits_animate(data, (float)(seconds * 24.0));
}

/* A whole number 1 .. max, or false. */
static bool parse_positive(const char *text, long max, long *value)
{
	char *end;
	*value = strtol(text, &end, 10);
	return end != text && !*end && *value >= 1 && *value <= max;
}

int main(int argc, char **argv)
{
	const char *pattern = "orbits-%04d.png";
	long frames = 0;
	bool quiet = false, kms = false, surfaceless = false, in_window = false;
	struct sg_renderer_desc desc = {.width = ORBITS_SIZE, .height = ORBITS_SIZE};
	struct orbits_kms display = {0};
	static const struct option options[] = {
		{"frames", required_argument, NULL, 'n'}, {"output", required_argument, NULL, 'o'},
		{"device", required_argument, NULL, 'd'}, {"surfaceless", no_argument, NULL, 'S'},
		{"kms", optional_argument, NULL, 'k'},    {"seconds", required_argument, NULL, 's'},
		{"window", no_argument, NULL, 'w'},
		{"legacy", no_argument, NULL, 'l'},       {"copy", no_argument, NULL, 'c'},
		{"quiet", no_argument, NULL, 'q'},        {"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int option;
	long seconds;
	while ((option = getopt_long(argc, argv, "n:o:d:s:qh", options, NULL)) != -1) {
		switch (option) {
		case 'n':
			if (!parse_positive(optarg, 100000, &frames)) {
				fprintf(stderr, "orbits: --frames '%s' is not 1..100000\n", optarg);
				return 2;
			}
			break;
		case 'o': pattern = optarg; break;
		case 'd': desc.device = display.desc.device = optarg; break;
		case 'S': surfaceless = true; break;
		case 'k': kms = true, display.desc.connector = optarg; break;
		case 'w': in_window = true; break;
		case 's':
			if (!parse_positive(optarg, 1000000, &seconds)) {
				fprintf(stderr, "orbits: --seconds '%s' is not 1..1000000\n",
				        optarg);
				return 2;
			}
			display.seconds = (double)seconds;
			break;
		case 'l': display.desc.force_legacy = true; break;
		case 'c': display.desc.force_copy = true; break;
		case 'q': quiet = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	/* --kms CONNECTOR: getopt leaves an optional argument given apart as an operand */
	if (kms && !display.desc.connector && optind < argc)
		display.desc.connector = argv[optind++];
	if (optind < argc) {
		fprintf(stderr, "orbits: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	/* exactly one conversion, and an integer one: the pattern is a printf format */
	const char *percent = strchr(pattern, '%');
	size_t flags = percent ? strspn(percent + 1, "0123456789") : 0;
	if ((kms && surfaceless) || (in_window && (kms || surfaceless)) || !percent || percent[1 + flags] != 'd' ||
	    strchr(percent + 1, '%')) {
		usage(stderr);
		return 2;
	}
	if (desc.device)
		desc.target = SG_TARGET_GBM;
	if (surfaceless)
		desc.target = SG_TARGET_SURFACELESS;
	struct orbits o = {0};
	int status = 1;
	if (build(&o))
		fprintf(stderr, "orbits: %s\n", sg_last_error());
	else if (in_window) {
		struct window_loop window = {
		    .program = "orbits",
		    .desc = {.title = "orbits", .app_id = "org.libsg.orbits",
		             .width = ORBITS_SIZE, .height = ORBITS_SIZE, .device = desc.device},
		    .scene = o.scene,
		    .seconds = display.seconds,
		    .frames = frames,
		    .quiet = quiet,
		    .pose = pose,
		    .data = &o,
		};
		status = window_loop_run(&window, NULL);
	} else if (kms) {
		display.frames = frames;
		display.quiet = quiet;
		status = orbits_kms_run(&o, &display);
	} else {
		status = write_pngs(&o, &desc, pattern, frames ? (int)frames : 24, quiet);
	}
	sg_scene_destroy(o.scene);
	return status;
}
