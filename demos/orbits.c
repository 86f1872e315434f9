/* orbits: an animated hierarchy rendered to a numbered sequence of PNGs.
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
#define BODY_COUNT (int)(sizeof(bodies) / sizeof(bodies[0]))

struct orbits {
	struct sg_scene *scene;
	sg_node orbit[BODY_COUNT];  /* rotates the body around its parent */
	sg_node offset[BODY_COUNT]; /* carries the body (and its moons) out to its distance */
	sg_node spin[BODY_COUNT];  /* spins the body's disc in place */
};

static sg_result build(struct orbits *o)
{
	struct sg_scene *scene = o->scene = sg_scene_create();
	if (!scene)
		return SG_ERR_NO_MEMORY;
	sg_mesh disc = disc_mesh(scene);
	const unsigned char dark[3] = {20, 20, 40};
	/* root -> centre (translate to the middle of the image) -> sun's subtree */
	sg_node centre = sg_node_new_transform(scene, &(struct sg_transform_desc){.name = "centre"});
	sg_result r = sg_transform_translate(scene, centre, 256, 256, 0);
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
static sg_result animate(struct orbits *o, int frame)
{
	sg_result r = SG_OK;
	for (int i = 0; i < BODY_COUNT && !r; i++) {
		const struct body *b = &bodies[i];
		float angle = b->period ? 2.0f * (float)M_PI * (float)frame / b->period : 0.0f;
		if ((r = sg_transform_set_identity(o->scene, o->orbit[i])) ||
		    (r = sg_transform_rotate(o->scene, o->orbit[i], angle, 0, 0, 1)) ||
		    (r = sg_transform_set_identity(o->scene, o->spin[i])))
			break;
		r = sg_transform_rotate(o->scene, o->spin[i], (float)frame * 0.15f, 0, 0, 1);
	}
	return r;
}

static void usage(FILE *out)
{
	fprintf(out, "Usage: orbits [-n FRAMES] [-o PATTERN] [--device PATH|--surfaceless] [-q]\n"
	             "Render an animated sun, planets and moons to PATTERN (a printf pattern with\n"
	             "one %%d, default orbits-%%04d.png), FRAMES frames (default 24), 512x512.\n");
}

int main(int argc, char **argv)
{
	const char *pattern = "orbits-%04d.png";
	int frames = 24, quiet = 0;
	struct sg_renderer_desc desc = {.width = 512, .height = 512};
	static const struct option options[] = {
		{"frames", required_argument, NULL, 'n'}, {"output", required_argument, NULL, 'o'},
		{"device", required_argument, NULL, 'd'}, {"surfaceless", no_argument, NULL, 'S'},
		{"quiet", no_argument, NULL, 'q'},        {"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int option;
	while ((option = getopt_long(argc, argv, "n:o:d:qh", options, NULL)) != -1) {
		switch (option) {
		case 'n': frames = atoi(optarg); break;
		case 'o': pattern = optarg; break;
		case 'd': desc.device = optarg, desc.target = SG_TARGET_GBM; break;
		case 'S': desc.target = SG_TARGET_SURFACELESS; break;
		case 'q': quiet = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	/* exactly one conversion, and an integer one: the pattern is a printf format */
	const char *percent = strchr(pattern, '%');
	size_t flags = percent ? strspn(percent + 1, "0123456789") : 0;
	if (frames < 1 || frames > 100000 || !percent || percent[1 + flags] != 'd' ||
	    strchr(percent + 1, '%')) {
		usage(stderr);
		return 2;
	}
	struct orbits o = {0};
	struct sg_renderer *renderer = NULL;
	int status = 1;
	if (build(&o) || !(renderer = sg_renderer_create(&desc)) ||
	    sg_renderer_set_clear_color(renderer, 0.02f, 0.02f, 0.08f, 1.0f))
		goto fail;
	for (int frame = 0; frame < frames; frame++) {
		char path[4096];
		snprintf(path, sizeof(path), pattern, frame);
		if (animate(&o, frame) || sg_renderer_render(renderer, o.scene, NULL) ||
		    sg_renderer_write_png(renderer, path))
			goto fail;
		if (!quiet)
			printf("wrote %s\n", path);
	}
	status = 0;
	goto done;
fail:
	fprintf(stderr, "orbits: %s\n", sg_last_error());
done:
	sg_renderer_destroy(renderer);
	sg_scene_destroy(o.scene);
	return status;
}
