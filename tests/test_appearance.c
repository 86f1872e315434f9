/* Appearance (opacity, colour, alpha blending, visibility, texture updates)
 * end to end on the surfaceless target: every render is read back whole and
 * compared, per channel +-1, with the CPU reference compositor of reference.c
 * given the same rectangles. Scenes keep to pixel-aligned rectangles whose
 * textures land on whole pixel blocks, so NEAREST sampling is exact. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sg/sg.h>

#include "expect.h"
#include "check_run.h"
#include "reference.h"
#include "../src/gl/expand.h"
#include "../src/graph/scene_internal.h"

#define OUT_W 64
#define OUT_H 48
#define MAX_TEXELS (16 * 16)
#define MAX_QUADS 32

static const float opaque_clear[4] = {0.2f, 0.4f, 0.6f, 1.0f};
static const float transparent_clear[4] = {0, 0, 0, 0};
static const float translucent_clear[4] = {0.8f, 0.2f, 0.4f, 0.5f};
static const float *const clears[] = {opaque_clear, transparent_clear, translucent_clear};
static const char *const clear_names[] = {"opaque clear", "transparent clear",
                                          "translucent clear"};

#define WHITE {1, 1, 1, 1}

/* --- textures: the texels kept beside the handle ----------------------------- */

enum alpha { ALPHA_OPAQUE, ALPHA_GRADIENT, ALPHA_RANDOM };

struct texture {
	struct ref_texture ref;
	uint8_t texels[MAX_TEXELS * 4];
	sg_texture handle;
};

static uint32_t random_state = 2024;

static uint8_t random_byte(void)
{
	random_state = random_state * 1103515245u + 12345u;
	return (uint8_t)(random_state >> 16);
}

/* Texels with random colours; the alpha opaque, a gradient from 0 to 255
 * over the texels, or random with 0 and 255 at the first two texels. */
static void texels_fill(uint8_t *rgba, int count, enum alpha alpha)
{
	for (int i = 0; i < count; i++) {
		for (int c = 0; c < 3; c++)
			rgba[i * 4 + c] = random_byte();
		uint8_t a = 255;
		if (alpha == ALPHA_GRADIENT)
			a = (uint8_t)(i * 255 / (count - 1));
		else if (alpha == ALPHA_RANDOM)
			a = i == 0 ? 0 : i == 1 ? 255 : random_byte();
		rgba[i * 4 + 3] = a;
	}
}

static void texture_init(struct sg_scene *scene, struct texture *t, int width, int height,
                         enum alpha alpha)
{
	ck_assert_int_le(width * height, MAX_TEXELS);
	t->ref = (struct ref_texture){width, height, t->texels};
	texels_fill(t->texels, width * height, alpha);
	t->handle = sg_texture_create(scene, &(struct sg_texture_desc){
		.width = width, .height = height, .pixels = t->texels});
	ck_assert_msg(t->handle.generation, "%s", sg_last_error());
}

/* --- meshes ----------------------------------------------------------------------- */

#define GRID 9 /* vertices a side of the subdivided quad: 81, over the expand limit */
_Static_assert(GRID * GRID > SG_GL_EXPAND_MAX_VERTICES, "the grid mesh must be drawn instanced");

/* A w x h rectangle from the local origin: the built-in quad (4 vertices,
 * drawn from the expanded vertex buffer), or (grid) the same rectangle cut
 * into 8 x 8 cells of indexed triangles, which makes the renderer draw
 * instanced. Inner grid lines fall between pixel centres or on them alike:
 * each pixel is still covered exactly once. */
static sg_mesh rectangle_mesh(struct sg_scene *scene, int w, int h, bool grid)
{
	if (!grid) {
		sg_mesh quad = sg_mesh_create_quad(scene, (float)w, (float)h);
		ck_assert_msg(quad.generation, "%s", sg_last_error());
		return quad;
	}
	struct sg_vertex vertices[GRID * GRID];
	uint32_t indices[(GRID - 1) * (GRID - 1) * 6], *ix = indices;
	for (int j = 0; j < GRID; j++)
		for (int i = 0; i < GRID; i++) {
			float u = (float)i / (GRID - 1), v = (float)j / (GRID - 1);
			vertices[j * GRID + i] =
				(struct sg_vertex){{u * (float)w, v * (float)h, 0}, {u, v}};
		}
	for (uint32_t j = 0; j + 1 < GRID; j++)
		for (uint32_t i = 0; i + 1 < GRID; i++) {
			uint32_t a = j * GRID + i, b = a + 1, c = a + GRID, d = c + 1;
			const uint32_t cell[6] = {a, c, b, b, c, d};
			memcpy(ix, cell, sizeof(cell));
			ix += 6;
		}
	sg_mesh mesh = sg_mesh_create(scene, &(struct sg_mesh_desc){
		.vertices = vertices, .vertex_count = GRID * GRID,
		.indices = indices, .index_count = sizeof(indices) / sizeof(indices[0])});
	ck_assert_msg(mesh.generation, "%s", sg_last_error());
	return mesh;
}

/* --- a scene and the rectangles the reference draws for it ----------------- */

struct picture {
	struct sg_scene *scene;
	bool grid; /* models get the subdivided mesh (instanced path) */
	struct ref_quad quads[MAX_QUADS];
	sg_node nodes[MAX_QUADS];
	size_t count;
};

static void picture_init(struct picture *p, bool grid)
{
	*p = (struct picture){.scene = sg_scene_create(), .grid = grid};
	ck_assert_ptr_nonnull(p->scene);
}

/* Adds a model under parent at q's position relative to it (the parent
 * chain's translation is the test's business: q holds the output rectangle
 * at origin + position), with q's texture and colour; mesh 0 makes one of q's
 * size. The quad joins the reference with q->opacity, the product the test
 * expects from the tree. Returns the model. */
static sg_node picture_add_at(struct picture *p, sg_node parent, sg_mesh mesh, int origin_x,
                              int origin_y, const struct texture *texture, struct ref_quad q)
{
	ck_assert_uint_lt(p->count, MAX_QUADS);
	if (!mesh.generation)
		mesh = rectangle_mesh(p->scene, q.width, q.height, p->grid);
	q.texture = texture ? &texture->ref : NULL;
	sg_node m = sg_node_new_model(p->scene, &(struct sg_model_desc){
		.mesh = mesh, .texture = texture ? texture->handle : SG_TEXTURE_NONE,
		.position = {(float)(q.x - origin_x), (float)(q.y - origin_y), 0}});
	ck_assert_msg(m.generation, "%s", sg_last_error());
	ck_assert_int_eq(sg_node_add_child(p->scene, parent, m), SG_OK);
	const float *c = q.color;
	if (c[0] != 1 || c[1] != 1 || c[2] != 1 || c[3] != 1)
		ck_assert_msg(sg_model_set_color(p->scene, m, c[0], c[1], c[2], c[3]) == SG_OK,
		              "%s", sg_last_error());
	p->quads[p->count] = q;
	p->nodes[p->count++] = m;
	return m;
}

/* A rectangle of the picture: white (the texture alone) and opaque, or tinted
 * with colour (r, g, b, a) and drawn at opacity (the product down the tree). */
static struct ref_quad rect(int x, int y, int width, int height)
{
	return (struct ref_quad){x, y, width, height, NULL, {1, 1, 1, 1}, 1};
}

static struct ref_quad tinted(int x, int y, int width, int height, float r, float g, float b,
                              float a, float opacity)
{
	return (struct ref_quad){x, y, width, height, NULL, {r, g, b, a}, opacity};
}

static sg_node picture_add(struct picture *p, sg_node parent, const struct texture *texture,
                           struct ref_quad q)
{
	return picture_add_at(p, parent, (sg_mesh){0}, 0, 0, texture, q);
}

static sg_node root_of(const struct picture *p)
{
	return sg_scene_root(p->scene);
}

static struct sg_renderer *renderer_new(void)
{
	struct sg_renderer *r = sg_renderer_create(&(struct sg_renderer_desc){
		.width = OUT_W, .height = OUT_H, .target = SG_TARGET_SURFACELESS});
	ck_assert_msg(r, "%s", sg_last_error());
	return r;
}

typedef uint8_t image[OUT_H][OUT_W][4];

static void render(struct sg_renderer *r, struct sg_scene *scene, const float clear[4],
                   uint8_t *rgba)
{
	ck_assert_int_eq(sg_renderer_set_clear_color(r, clear[0], clear[1], clear[2], clear[3]),
	                 SG_OK);
	ck_assert_msg(sg_renderer_render(r, scene, NULL) == SG_OK, "%s", sg_last_error());
	ck_assert_int_eq(sg_renderer_read_pixels(r, rgba, 0), SG_OK);
}

/* got equals the reference's picture of quads (those not skipped) within +-1. */
static void assert_reference(const uint8_t *got, const float clear[4],
                             const struct ref_quad *quads, size_t count, const bool *skip,
                             const char *what)
{
	static image want;
	struct ref_image reference = {OUT_W, OUT_H, (uint8_t *)want};
	ref_clear(&reference, clear);
	for (size_t i = 0; i < count; i++)
		if (!skip || !skip[i])
			ref_draw(&reference, &quads[i]);
	struct ref_difference d;
	ck_assert_msg(ref_compare(got, (uint8_t *)want, OUT_W, OUT_H, 1, &d),
	              "%s: %d pixels differ from the reference by more than 1; the first, "
	              "(%d, %d), is %u,%u,%u,%u, the reference %u,%u,%u,%u",
	              what, d.count, d.x, d.y, d.got[0], d.got[1], d.got[2], d.got[3], d.want[0],
	              d.want[1], d.want[2], d.want[3]);
}

/* Renders p with clear and checks it against the reference of p's quads. */
static void check_picture(struct sg_renderer *r, struct picture *p, const float clear[4],
                          uint8_t *got, const char *what)
{
	render(r, p->scene, clear, got);
	assert_reference(got, clear, p->quads, p->count, NULL, what);
}

static void assert_identical(const uint8_t *a, const uint8_t *b, const char *what)
{
	struct ref_difference d;
	ck_assert_msg(ref_compare(a, b, OUT_W, OUT_H, 0, &d),
	              "%s: %d pixels differ; the first, (%d, %d), is %u,%u,%u,%u against "
	              "%u,%u,%u,%u",
	              what, d.count, d.x, d.y, d.got[0], d.got[1], d.got[2], d.got[3], d.want[0],
	              d.want[1], d.want[2], d.want[3]);
}

/* --- the reference itself, on pixels worked out by hand ------------------------ */

START_TEST(test_reference_by_hand)
{
	uint8_t rgba[2 * 4];
	struct ref_image image = {2, 1, rgba};
	ref_clear(&image, (float[]){1, 0.5f, 0, 0.5f});
	ck_assert_mem_eq(rgba, ((uint8_t[]){128, 64, 0, 128}), 4); /* 127.5 rounds up */
	ref_clear(&image, transparent_clear);
	/* red at alpha 0.5: tint 128, 0, 0, 128 */
	struct ref_quad q = tinted(0, 0, 2, 1, 1, 0, 0, 0.5f, 1);
	ref_draw(&image, &q);
	ck_assert_mem_eq(rgba, ((uint8_t[]){128, 0, 0, 128}), 4);
	/* blue at opacity 0.5 over it: 128 * 127 / 255 = 63.75 of it is kept */
	q = tinted(0, 0, 2, 1, 0, 0, 1, 1, 0.5f);
	ref_draw(&image, &q);
	ck_assert_mem_eq(rgba, ((uint8_t[]){64, 0, 128, 192}), 4);
	/* texels premultiplied with (c * a + 127) / 255, one texel a pixel */
	const uint8_t texels[] = {200, 100, 50, 128, 9, 9, 9, 0};
	const struct ref_texture t = {2, 1, texels};
	ref_clear(&image, transparent_clear);
	q = rect(0, 0, 2, 1);
	q.texture = &t;
	ref_draw(&image, &q);
	ck_assert_mem_eq(rgba, ((uint8_t[]){100, 50, 25, 128, 0, 0, 0, 0}), 8);
	/* an opaque texel tinted: green 255 * 0.5 -> 128, then red 200 * 128 / 255
	 * = 100.4 -> 100 */
	const uint8_t opaque[] = {200, 255, 0, 255};
	const struct ref_texture o = {1, 1, opaque};
	q = tinted(1, 0, 1, 1, 1, 0.5f, 1, 1, 1);
	q.texture = &o;
	ref_draw(&image, &q);
	ck_assert_mem_eq(rgba + 4, ((uint8_t[]){200, 128, 0, 255}), 4);
	q = tinted(1, 0, 1, 1, 0.5f, 1, 1, 1, 1);
	q.texture = &o;
	ref_draw(&image, &q);
	ck_assert_mem_eq(rgba + 4, ((uint8_t[]){100, 255, 0, 255}), 4);
}
END_TEST

/* --- pictures ---------------------------------------------------------------- */

START_TEST(test_opaque_and_translucent_textures)
{
	static struct picture p;
	static struct texture opaque, gradient, random_alpha;
	picture_init(&p, false);
	texture_init(p.scene, &opaque, 8, 6, ALPHA_OPAQUE);
	texture_init(p.scene, &gradient, 8, 6, ALPHA_GRADIENT);
	texture_init(p.scene, &random_alpha, 16, 8, ALPHA_RANDOM);
	sg_node root = root_of(&p);
	/* translucent over opaque, over the clear colour, over each other, and
	 * clipped by the output's edge */
	picture_add(&p, root, &opaque, rect(4, 4, 16, 12));
	picture_add(&p, root, &gradient, rect(12, 8, 24, 18));
	picture_add(&p, root, &random_alpha, rect(28, 20, 32, 16));
	picture_add(&p, root, &gradient, rect(40, 2, 8, 6));
	picture_add(&p, root, &random_alpha, rect(56, 40, 16, 8));
	picture_add(&p, root, &opaque, rect(44, 30, 8, 6));
	struct sg_renderer *r = renderer_new();
	static image got;
	for (int i = 0; i < 3; i++)
		check_picture(r, &p, clears[i], (uint8_t *)got, clear_names[i]);
	sg_renderer_destroy(r);
	sg_scene_destroy(p.scene);
}
END_TEST

START_TEST(test_tint_and_colour_only_models)
{
	static struct picture p;
	static struct texture opaque, gradient;
	picture_init(&p, false);
	texture_init(p.scene, &opaque, 8, 6, ALPHA_OPAQUE);
	texture_init(p.scene, &gradient, 8, 6, ALPHA_GRADIENT);
	sg_node root = root_of(&p);
	/* an opaque tint keeps a model opaque; a translucent one blends it */
	picture_add(&p, root, &opaque, tinted(0, 0, 32, 24, 1, 0.5f, 0.25f, 1, 1));
	picture_add(&p, root, &opaque, tinted(20, 10, 16, 12, 0.8f, 0.6f, 0.4f, 0.5f, 1));
	picture_add(&p, root, &gradient, tinted(36, 0, 24, 18, 0.5f, 1, 0.75f, 0.8f, 1));
	/* colour alone: opaque, translucent over several things, invisible */
	picture_add(&p, root, NULL, tinted(4, 30, 20, 10, 0.1f, 0.7f, 0.3f, 1, 1));
	picture_add(&p, root, NULL, tinted(14, 20, 36, 20, 1, 0, 0.5f, 0.4f, 1));
	picture_add(&p, root, NULL, tinted(0, 0, 64, 48, 0.3f, 0.3f, 0.3f, 0, 1));
	picture_add(&p, root, NULL, tinted(50, 28, 10, 14, 0, 0, 1, 1, 1));
	struct sg_renderer *r = renderer_new();
	static image got;
	for (int i = 0; i < 3; i++)
		check_picture(r, &p, clears[i], (uint8_t *)got, clear_names[i]);
	/* a colour changed between renders */
	ck_assert_int_eq(sg_model_set_color(p.scene, p.nodes[1], 0.2f, 0.9f, 1, 0.25f), SG_OK);
	memcpy(p.quads[1].color, (float[]){0.2f, 0.9f, 1, 0.25f}, sizeof(p.quads[1].color));
	check_picture(r, &p, transparent_clear, (uint8_t *)got, "colour changed");
	float rgba[4];
	ck_assert_int_eq(sg_model_get_color(p.scene, p.nodes[1], rgba), SG_OK);
	ck_assert_mem_eq(rgba, p.quads[1].color, sizeof(rgba));
	sg_renderer_destroy(r);
	sg_scene_destroy(p.scene);
}
END_TEST

static void set_opacity(struct sg_scene *scene, sg_node node, float opacity)
{
	ck_assert_msg(sg_node_set_opacity(scene, node, opacity) == SG_OK, "%s", sg_last_error());
}

static sg_node add_group(struct sg_scene *scene, sg_node parent, float opacity)
{
	sg_node g = sg_node_new_group(scene, NULL);
	ck_assert_int_eq(sg_node_add_child(scene, parent, g), SG_OK);
	set_opacity(scene, g, opacity);
	return g;
}

/* Frames whose models are all white and opaque are drawn by a program without
 * the colour input (src/gl/drawer.c); a colour or an opacity set between
 * renders must take the other one back, on both draw paths. */
START_TEST(test_white_and_tinted_frames_alternate)
{
	for (int grid = 0; grid < 2; grid++) {
		static struct picture p;
		static struct texture opaque, gradient;
		picture_init(&p, grid);
		texture_init(p.scene, &opaque, 8, 6, ALPHA_OPAQUE);
		texture_init(p.scene, &gradient, 8, 6, ALPHA_GRADIENT);
		sg_node group = add_group(p.scene, root_of(&p), 1);
		picture_add(&p, group, &opaque, rect(0, 0, 32, 24));
		picture_add(&p, group, &gradient, rect(20, 10, 24, 18));
		picture_add(&p, group, &opaque, rect(40, 30, 16, 12));
		struct sg_renderer *r = renderer_new();
		static image got;
		const char *path = grid ? "grid mesh (instanced)" : "quad mesh (expanded)";
		check_picture(r, &p, transparent_clear, (uint8_t *)got, path);
		ck_assert_int_eq(sg_model_set_color(p.scene, p.nodes[1], 1, 0.5f, 0.25f, 1), SG_OK);
		memcpy(p.quads[1].color, (float[]){1, 0.5f, 0.25f, 1}, sizeof(p.quads[1].color));
		check_picture(r, &p, transparent_clear, (uint8_t *)got, path);
		ck_assert_int_eq(sg_model_set_color(p.scene, p.nodes[1], 1, 1, 1, 1), SG_OK);
		memcpy(p.quads[1].color, (float[]){1, 1, 1, 1}, sizeof(p.quads[1].color));
		check_picture(r, &p, opaque_clear, (uint8_t *)got, path);
		set_opacity(p.scene, group, 0.5f);
		for (size_t i = 0; i < p.count; i++)
			p.quads[i].opacity = 0.5f;
		check_picture(r, &p, opaque_clear, (uint8_t *)got, path);
		set_opacity(p.scene, group, 1);
		for (size_t i = 0; i < p.count; i++)
			p.quads[i].opacity = 1;
		check_picture(r, &p, transparent_clear, (uint8_t *)got, path);
		sg_renderer_destroy(r);
		sg_scene_destroy(p.scene);
	}
}
END_TEST

static sg_node add_transform(struct sg_scene *scene, sg_node parent, float x, float y,
                             float opacity)
{
	sg_node t = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
	ck_assert_int_eq(sg_node_add_child(scene, parent, t), SG_OK);
	ck_assert_int_eq(sg_transform_translate(scene, t, x, y, 0), SG_OK);
	set_opacity(scene, t, opacity);
	return t;
}

START_TEST(test_nested_opacity)
{
	static struct picture p;
	static struct texture opaque, gradient;
	picture_init(&p, false);
	texture_init(p.scene, &opaque, 8, 6, ALPHA_OPAQUE);
	texture_init(p.scene, &gradient, 8, 6, ALPHA_GRADIENT);
	sg_node root = root_of(&p);
	/* root
	 *  +- g1 (0.5)
	 *  |   +- t1 (0.5) -- m0 opaque texture: 0.25
	 *  |   +- m1 colour: 0.5
	 *  +- g2 (0) -- m2 opaque texture over everything: 0, nothing drawn
	 *  +- t2 (1, at 32, 0) -- g3 (0.5) -- m3 (own 0.5) translucent, tint alpha 0.8: 0.25
	 *  +- m4 (own 0) colour
	 *  +- m5 (own 1) translucent texture, last: 1 */
	sg_node g1 = add_group(p.scene, root, 0.5f);
	sg_node t1 = add_transform(p.scene, g1, 0, 0, 0.5f);
	picture_add(&p, t1, &opaque, tinted(2, 2, 16, 12, 1, 1, 1, 1, 0.25f));
	picture_add(&p, g1, NULL, tinted(10, 6, 20, 10, 0.2f, 0.9f, 0.4f, 1, 0.5f));
	sg_node g2 = add_group(p.scene, root, 0);
	picture_add(&p, g2, &opaque, tinted(0, 0, 64, 48, 1, 1, 1, 1, 0));
	sg_node t2 = add_transform(p.scene, root, 32, 0, 1);
	sg_node g3 = add_group(p.scene, t2, 0.5f);
	sg_node m3 = picture_add_at(&p, g3, (sg_mesh){0}, 32, 0, &gradient,
	                            tinted(32, 4, 24, 18, 1, 1, 1, 0.8f, 0.25f));
	set_opacity(p.scene, m3, 0.5f);
	sg_node m4 = picture_add(&p, root, NULL, tinted(0, 30, 40, 18, 1, 1, 0, 1, 0));
	set_opacity(p.scene, m4, 0);
	picture_add(&p, root, &gradient, rect(24, 24, 32, 24));
	struct sg_renderer *r = renderer_new();
	static image got;
	check_picture(r, &p, opaque_clear, (uint8_t *)got, "nested opacity");
	check_picture(r, &p, transparent_clear, (uint8_t *)got,
	              "nested opacity, transparent clear");
	/* opacities changed between renders: the products follow */
	set_opacity(p.scene, g1, 1);
	set_opacity(p.scene, g2, 0.5f);
	set_opacity(p.scene, m4, 1);
	p.quads[0].opacity = 0.5f;
	p.quads[1].opacity = 1;
	p.quads[2].opacity = 0.5f;
	p.quads[4].opacity = 1;
	check_picture(r, &p, opaque_clear, (uint8_t *)got, "opacities changed");
	/* the root's opacity multiplies everything */
	set_opacity(p.scene, root, 0.5f);
	for (size_t i = 0; i < p.count; i++)
		p.quads[i].opacity *= 0.5f;
	check_picture(r, &p, transparent_clear, (uint8_t *)got, "root at 0.5");
	float own;
	ck_assert_int_eq(sg_node_get_opacity(p.scene, m3, &own), SG_OK);
	ck_assert_float_eq(own, 0.5f); /* its own, not the product */
	sg_renderer_destroy(r);
	sg_scene_destroy(p.scene);
}
END_TEST

START_TEST(test_hidden_subtree_equals_detached)
{
	static struct picture p;
	static struct texture opaque, gradient, random_alpha;
	picture_init(&p, false);
	texture_init(p.scene, &opaque, 8, 6, ALPHA_OPAQUE);
	texture_init(p.scene, &gradient, 8, 6, ALPHA_GRADIENT);
	texture_init(p.scene, &random_alpha, 16, 8, ALPHA_RANDOM);
	sg_node root = root_of(&p);
	picture_add(&p, root, &opaque, rect(0, 0, 64, 48));
	/* the subtree: quads 1 to 3 */
	sg_node sub = add_group(p.scene, root, 1);
	picture_add(&p, sub, &gradient, rect(8, 8, 24, 18));
	picture_add(&p, sub, NULL, tinted(20, 20, 16, 12, 0.9f, 0.5f, 0.1f, 1, 1));
	sg_node inner = add_group(p.scene, sub, 0.5f);
	sg_node m3 = picture_add(&p, inner, NULL, tinted(4, 24, 40, 16, 0, 1, 1, 0.6f, 0.5f));
	/* after it, a translucent model over where it was */
	picture_add(&p, root, &random_alpha, rect(16, 16, 32, 16));
	struct sg_renderer *r = renderer_new();
	static image all, hidden, detached, got;
	check_picture(r, &p, transparent_clear, (uint8_t *)all, "everything shown");

	ck_assert_int_eq(sg_node_set_visible(p.scene, sub, false), SG_OK);
	render(r, p.scene, transparent_clear, (uint8_t *)hidden);
	const bool skip_sub[] = {false, true, true, true, false};
	assert_reference((uint8_t *)hidden, transparent_clear, p.quads, p.count, skip_sub,
	                 "subtree hidden");

	/* shown again but with one model inside hidden */
	ck_assert_int_eq(sg_node_set_visible(p.scene, sub, true), SG_OK);
	ck_assert_int_eq(sg_node_set_visible(p.scene, m3, false), SG_OK);
	render(r, p.scene, transparent_clear, (uint8_t *)got);
	const bool skip_m3[] = {false, false, false, true, false};
	assert_reference((uint8_t *)got, transparent_clear, p.quads, p.count, skip_m3,
	                 "one model of the subtree hidden");
	ck_assert_int_eq(sg_node_set_visible(p.scene, m3, true), SG_OK);

	/* the same subtree detached: the very same pixels as hidden */
	ck_assert_int_eq(sg_node_remove(p.scene, sub), SG_OK);
	render(r, p.scene, transparent_clear, (uint8_t *)detached);
	assert_identical((uint8_t *)hidden, (uint8_t *)detached, "hidden against detached");
	/* and back in its place: the very same pixels as before */
	ck_assert_int_eq(sg_node_insert_child(p.scene, root, 1, sub), SG_OK);
	render(r, p.scene, transparent_clear, (uint8_t *)got);
	assert_identical((uint8_t *)got, (uint8_t *)all, "reattached against never hidden");
	sg_renderer_destroy(r);
	sg_scene_destroy(p.scene);
}
END_TEST

/* Opaque and translucent models interleaved, sharing one mesh and textures,
 * so that a batch of one texture would have to span translucent draws between
 * its models. Built with the built-in quad (expanded path) or the grid mesh
 * (instanced path); mixed: every other model has the grid mesh. */
enum mesh_choice { MESH_QUAD, MESH_GRID, MESH_MIXED };
static const char *const mesh_names[] = {"quad mesh (expanded)", "grid mesh (instanced)",
                                         "mixed meshes (instanced)"};

static void build_interleaved(struct picture *p, enum mesh_choice choice,
                              struct texture textures[4])
{
	random_state = 7; /* the same texels for every mesh choice */
	picture_init(p, choice == MESH_GRID);
	struct texture *o1 = &textures[0], *x1 = &textures[1];
	struct texture *o2 = &textures[2], *x2 = &textures[3];
	texture_init(p->scene, o1, 8, 8, ALPHA_OPAQUE);
	texture_init(p->scene, x1, 8, 8, ALPHA_GRADIENT);
	texture_init(p->scene, o2, 4, 4, ALPHA_OPAQUE);
	texture_init(p->scene, x2, 16, 16, ALPHA_RANDOM);
	sg_mesh shared[2];
	shared[0] = rectangle_mesh(p->scene, 16, 16, choice == MESH_GRID);
	shared[1] = choice == MESH_MIXED ? rectangle_mesh(p->scene, 16, 16, true) : shared[0];
	sg_node root = sg_scene_root(p->scene);
	const struct {
		int x, y;
		const struct texture *texture;
		float color[4];
	} models[] = {
		{0, 0, o1, WHITE},
		{8, 8, x1, WHITE},                   /* translucent over o1 */
		{12, 12, o1, WHITE},                 /* opaque over it, same texture as the first */
		{20, 4, x1, WHITE},                  /* translucent over that */
		{24, 16, o2, WHITE},                 /* opaque over it */
		{4, 20, NULL, {0.9f, 0.1f, 0.1f, 0.6f}},
		{28, 24, x2, {1, 1, 1, 0.7f}},
		{40, 28, o1, {0.5f, 0.8f, 1, 1}},    /* opaque tinted over x2 */
		{44, 32, x1, WHITE},
		{48, 0, NULL, {0, 0, 1, 1}},
		{52, 4, x2, WHITE},                  /* clipped by the right edge */
		{-8, 36, x1, WHITE},                 /* and by the left and bottom ones */
		{80, 60, o1, WHITE},                 /* off the output: culled when culling is on */
		{36, 8, o2, {1, 1, 1, 0.5f}},        /* opaque texture, translucent tint */
		{30, 10, o1, WHITE},                 /* covering part of it */
	};
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		picture_add_at(p, root, shared[i % 2], 0, 0, models[i].texture,
		               (struct ref_quad){models[i].x, models[i].y, 16, 16,
		                                 .color = {models[i].color[0], models[i].color[1],
		                                           models[i].color[2], models[i].color[3]},
		                                 .opacity = 1});
}

START_TEST(test_interleaved_on_both_paths_with_and_without_culling)
{
	static struct picture p;
	static struct texture textures[4];
	static image first, got;
	struct sg_renderer *r = renderer_new();
	for (int choice = MESH_QUAD; choice <= MESH_MIXED; choice++) {
		build_interleaved(&p, (enum mesh_choice)choice, textures);
		for (int culling = 0; culling < 2; culling++) {
			ck_assert_int_eq(sg_renderer_set_culling(r, culling), SG_OK);
			char what[96];
			snprintf(what, sizeof(what), "%s, culling %s", mesh_names[choice],
			         culling ? "on" : "off");
			for (int i = 0; i < 2; i++) {
				check_picture(r, &p, clears[i], (uint8_t *)got, what);
				if (choice == MESH_QUAD && culling == 0 && i == 0)
					memcpy(first, got, sizeof(first));
				else if (i == 0)
					assert_identical((uint8_t *)got, (uint8_t *)first, what);
			}
			struct sg_render_stats stats;
			ck_assert_int_eq(sg_renderer_get_stats(r, &stats), SG_OK);
			/* every model but the one off the output, which only culling skips */
			ck_assert_uint_eq(stats.draws, p.count - (size_t)culling);
		}
		sg_scene_destroy(p.scene);
	}
	sg_renderer_destroy(r);
}
END_TEST

/* --- texture updates ---------------------------------------------------------- */

/* Replaces a rectangle of t's texels (kept for the reference) and of the
 * scene's copy, through rows stride bytes apart (0: tight). */
static void texture_update(struct sg_scene *scene, struct texture *t, int x, int y, int w, int h,
                           enum alpha alpha, size_t stride)
{
	size_t row = stride ? stride : (size_t)w * 4;
	uint8_t *pixels = calloc(row, (size_t)h);
	static uint8_t rect[MAX_TEXELS * 4];
	texels_fill(rect, w * h, alpha);
	for (int j = 0; j < h; j++) {
		memcpy(pixels + row * (size_t)j, rect + (size_t)(j * w) * 4, (size_t)w * 4);
		memcpy(t->texels + ((size_t)(y + j) * (size_t)t->ref.width + (size_t)x) * 4,
		       rect + (size_t)(j * w) * 4, (size_t)w * 4);
	}
	ck_assert_msg(sg_texture_update(scene, t->handle, x, y, w, h, pixels, stride) == SG_OK,
	              "%s", sg_last_error());
	free(pixels);
}

START_TEST(test_texture_updates_between_renders)
{
	static struct picture p;
	static struct texture live, still;
	picture_init(&p, false);
	texture_init(p.scene, &live, 16, 12, ALPHA_OPAQUE);
	texture_init(p.scene, &still, 8, 6, ALPHA_GRADIENT);
	sg_node root = root_of(&p);
	/* a background for translucent texels to show */
	picture_add(&p, root, NULL, tinted(0, 0, 64, 48, 0.1f, 0.8f, 0.3f, 1, 1));
	picture_add(&p, root, &live, rect(8, 8, 32, 24));
	picture_add(&p, root, &still, rect(24, 20, 16, 12));
	picture_add(&p, root, &live, tinted(44, 4, 16, 12, 1, 1, 1, 0.5f, 1));
	struct sg_renderer *r = renderer_new();
	static image got;
	check_picture(r, &p, opaque_clear, (uint8_t *)got, "before any update");
	/* several opaque rectangles: overlapping, at the edges */
	texture_update(p.scene, &live, 1, 1, 4, 3, ALPHA_OPAQUE, 0);
	texture_update(p.scene, &live, 3, 2, 6, 7, ALPHA_OPAQUE, 6 * 4 + 8);
	texture_update(p.scene, &live, 0, 11, 16, 1, ALPHA_OPAQUE, 0);
	texture_update(p.scene, &live, 15, 0, 1, 12, ALPHA_OPAQUE, 0);
	check_picture(r, &p, opaque_clear, (uint8_t *)got, "opaque rectangles updated");
	/* a translucent rectangle: the opaque texture turns translucent */
	texture_update(p.scene, &live, 5, 3, 8, 6, ALPHA_GRADIENT, 0);
	check_picture(r, &p, opaque_clear, (uint8_t *)got, "made translucent");
	check_picture(r, &p, transparent_clear, (uint8_t *)got, "made translucent, rendered again");
	/* the same texels opaque again, and one more rectangle */
	texture_update(p.scene, &live, 5, 3, 8, 6, ALPHA_OPAQUE, 0);
	texture_update(p.scene, &live, 10, 0, 3, 3, ALPHA_OPAQUE, 0);
	ck_assert_uint_eq(p.scene->textures[live.handle.index].translucent_texels, 0);
	check_picture(r, &p, opaque_clear, (uint8_t *)got, "opaque again");
	/* random alpha over the whole texture, through padded rows */
	texture_update(p.scene, &live, 0, 0, 16, 12, ALPHA_RANDOM, 16 * 4 + 4);
	check_picture(r, &p, transparent_clear, (uint8_t *)got, "whole texture translucent");
	sg_renderer_destroy(r);
	sg_scene_destroy(p.scene);
}
END_TEST

START_TEST(test_destroyed_texture_with_update_pending)
{
	static struct picture p;
	static struct texture doomed, fresh;
	picture_init(&p, false);
	texture_init(p.scene, &doomed, 8, 6, ALPHA_GRADIENT);
	sg_node root = root_of(&p);
	picture_add(&p, root, NULL, tinted(0, 0, 40, 30, 0.5f, 0.5f, 1, 1, 1));
	sg_node victim = picture_add(&p, root, &doomed, tinted(16, 12, 32, 24, 1, 1, 1, 0.75f, 1));
	ck_assert_int_eq(sg_node_set_name(p.scene, victim, "victim"), SG_OK);
	struct sg_renderer *r = renderer_new();
	static image got;
	check_picture(r, &p, transparent_clear, (uint8_t *)got, "before");
	texture_update(p.scene, &doomed, 2, 2, 3, 3, ALPHA_RANDOM, 0);
	ck_assert_int_eq(sg_texture_destroy(p.scene, doomed.handle), SG_OK);
	ck_assert_int_eq(sg_renderer_render(r, p.scene, NULL), SG_ERR_STALE_HANDLE);
	ck_assert_msg(strstr(sg_last_error(), "'victim'") &&
	                      strstr(sg_last_error(), "destroyed texture"),
	              "%s", sg_last_error());
	/* a live texture for the model: the renderer draws again */
	texture_init(p.scene, &fresh, 8, 6, ALPHA_RANDOM);
	ck_assert_int_eq(sg_model_set_texture(p.scene, victim, fresh.handle), SG_OK);
	p.quads[1].texture = &fresh.ref;
	check_picture(r, &p, transparent_clear, (uint8_t *)got, "with a new texture");
	/* and none at all: its colour alone */
	ck_assert_int_eq(sg_model_set_texture(p.scene, victim, SG_TEXTURE_NONE), SG_OK);
	p.quads[1].texture = NULL;
	check_picture(r, &p, transparent_clear, (uint8_t *)got, "with no texture");
	sg_renderer_destroy(r);
	sg_scene_destroy(p.scene);
}
END_TEST

/* --- straight alpha out ------------------------------------------------------ */

START_TEST(test_write_png_holds_straight_alpha)
{
	static struct picture p;
	static struct texture gradient;
	picture_init(&p, false);
	texture_init(p.scene, &gradient, 8, 6, ALPHA_GRADIENT);
	sg_node root = root_of(&p);
	picture_add(&p, root, &gradient, tinted(0, 0, 48, 36, 1, 0.75f, 0.5f, 0.9f, 1));
	picture_add(&p, root, NULL, tinted(24, 18, 40, 30, 0.2f, 0.6f, 1, 0.5f, 1));
	struct sg_renderer *r = renderer_new();
	static image premultiplied, straight;
	check_picture(r, &p, transparent_clear, (uint8_t *)premultiplied, "to write");
	char dir[] = "/tmp/sg-appearance-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[64];
	snprintf(path, sizeof(path), "%s/out.png", dir);
	ck_assert_msg(sg_renderer_write_png(r, path) == SG_OK, "%s", sg_last_error());
	struct sg_scene *loaded = sg_scene_create();
	sg_texture t = sg_texture_load_png(loaded, path, SG_FILTER_NEAREST, SG_WRAP_CLAMP);
	ck_assert_msg(t.generation, "%s", sg_last_error());
	const struct sg_texture_data *png = &loaded->textures[t.index];
	ck_assert_int_eq(png->width, OUT_W);
	ck_assert_int_eq(png->height, OUT_H);
	memcpy(straight, premultiplied, sizeof(straight));
	sg_image_unpremultiply(straight, OUT_W, OUT_H, 0);
	assert_identical(png->pixels, (uint8_t *)straight,
	                 "PNG against unpremultiplied read_pixels");
	/* the picture had something to convert: translucent pixels whose colour
	 * the conversion changed, and transparent ones */
	int changed = 0, transparent = 0;
	for (int i = 0; i < OUT_W * OUT_H; i++) {
		const uint8_t *a = (uint8_t *)premultiplied + i * 4;
		const uint8_t *b = (uint8_t *)straight + i * 4;
		changed += a[3] > 0 && a[3] < 255 && memcmp(a, b, 4) != 0;
		transparent += a[3] == 0;
	}
	ck_assert_int_gt(changed, 500);
	ck_assert_int_gt(transparent, 10);
	sg_scene_destroy(loaded);
	unlink(path);
	rmdir(dir);
	sg_renderer_destroy(r);
	sg_scene_destroy(p.scene);
}
END_TEST

START_TEST(test_unpremultiply_cases)
{
	/* premultiplied in, straight out: round(c * 255 / a), capped, alpha 0 cleared */
	static const uint8_t cases[][2][4] = {
		{{0, 0, 0, 0}, {0, 0, 0, 0}},
		{{10, 20, 30, 0}, {0, 0, 0, 0}},         /* colour without alpha: not kept */
		{{12, 34, 56, 255}, {12, 34, 56, 255}},  /* opaque: unchanged */
		{{64, 63, 100, 128}, {128, 126, 199, 128}}, /* 127.5 -> 128, 125.5 -> 126, 199.2 */
		{{127, 128, 129, 128}, {253, 255, 255, 128}}, /* 253.0; 255 exactly; 257 capped */
		{{200, 1, 0, 128}, {255, 2, 0, 128}},    /* 398 capped; 1.99 -> 2 */
		{{1, 2, 3, 3}, {85, 170, 255, 3}},
		{{255, 1, 0, 1}, {255, 255, 0, 1}},
		{{1, 100, 254, 255}, {1, 100, 254, 255}},
	};
	enum { N = sizeof(cases) / sizeof(cases[0]) };
	/* one row of them, then the same with padded rows that must stay as they are */
	uint8_t row[N * 4];
	for (int i = 0; i < N; i++)
		memcpy(row + i * 4, cases[i][0], 4);
	sg_image_unpremultiply(row, N, 1, 0);
	for (int i = 0; i < N; i++)
		ck_assert_msg(!memcmp(row + i * 4, cases[i][1], 4),
		              "%u,%u,%u,%u became %u,%u,%u,%u, not %u,%u,%u,%u", cases[i][0][0],
		              cases[i][0][1], cases[i][0][2], cases[i][0][3], row[i * 4],
		              row[i * 4 + 1], row[i * 4 + 2], row[i * 4 + 3], cases[i][1][0],
		              cases[i][1][1], cases[i][1][2], cases[i][1][3]);
	uint8_t padded[N][8];
	for (int i = 0; i < N; i++) {
		memcpy(padded[i], cases[i][0], 4);
		memset(padded[i] + 4, 77, 4);
	}
	sg_image_unpremultiply(padded, 1, N, 8);
	for (int i = 0; i < N; i++) {
		ck_assert_mem_eq(padded[i], cases[i][1], 4);
		ck_assert_mem_eq(padded[i] + 4, ((uint8_t[]){77, 77, 77, 77}), 4);
	}
	/* every alpha and colour: the rule, checked against integer arithmetic */
	for (int a = 1; a < 256; a++)
		for (int c = 0; c <= a; c++) {
			uint8_t px[4] = {(uint8_t)c, (uint8_t)c, (uint8_t)c, (uint8_t)a};
			sg_image_unpremultiply(px, 1, 1, 0);
			int want = (c * 255 * 2 + a) / (2 * a); /* round half up */
			expect(px[0] == want && px[3] == a, "c %d a %d: %u, not %d", c, a, px[0], want);
		}
}
END_TEST

/* --- bad input ---------------------------------------------------------------- */

START_TEST(test_bad_opacity_changes_nothing)
{
	struct sg_scene *scene = sg_scene_create();
	sg_node g = sg_node_new_group(scene, "fader");
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), g), SG_OK);
	set_opacity(scene, g, 0.25f);
	const struct {
		float value;
		const char *text;
	} bad[] = {{1.5f, "1.5"}, {-0.01f, "-0.01"}, {NAN, "nan"}, {INFINITY, "inf"},
	           {-INFINITY, "-inf"}, {1.0000001f, "1"}};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(sg_node_set_opacity(scene, g, bad[i].value),
		                 SG_ERR_INVALID_ARGUMENT);
		const char *message = sg_last_error();
		ck_assert_msg(strstr(message, bad[i].text) && strstr(message, "'fader'"),
		              "'%s' does not name %s and the node", message, bad[i].text);
		float opacity;
		ck_assert_int_eq(sg_node_get_opacity(scene, g, &opacity), SG_OK);
		ck_assert_float_eq(opacity, 0.25f);
	}
	/* the edges are in */
	set_opacity(scene, g, 0);
	set_opacity(scene, g, 1);
	set_opacity(scene, sg_scene_root(scene), 0.5f);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_bad_colour_changes_nothing)
{
	struct sg_scene *scene = sg_scene_create();
	sg_mesh quad = sg_mesh_create_quad(scene, 4, 4);
	sg_node m = sg_node_new_model(scene,
	                              &(struct sg_model_desc){.name = "swatch", .mesh = quad});
	ck_assert_msg(m.generation, "%s", sg_last_error());
	float rgba[4];
	ck_assert_int_eq(sg_model_get_color(scene, m, rgba), SG_OK);
	ck_assert_mem_eq(rgba, ((float[]){1, 1, 1, 1}), sizeof(rgba)); /* white when created */
	const float good[4] = {0.1f, 0.2f, 0.3f, 0.4f};
	ck_assert_int_eq(sg_model_set_color(scene, m, good[0], good[1], good[2], good[3]), SG_OK);
	const struct {
		float value;
		const char *text;
	} bad[] = {{1.1f, "1.1"}, {NAN, "nan"}, {-0.5f, "-0.5"}, {INFINITY, "inf"}};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		for (int c = 0; c < 4; c++) {
			float color[4];
			memcpy(color, good, sizeof(color));
			color[c] = bad[i].value;
			sg_result result = sg_model_set_color(scene, m, color[0], color[1],
			                                      color[2], color[3]);
			ck_assert_int_eq(result, SG_ERR_INVALID_ARGUMENT);
			const char *message = sg_last_error();
			ck_assert_msg(strstr(message, bad[i].text) && strstr(message, "'swatch'"),
			              "component %d: '%s' does not name %s and the model", c,
			              message, bad[i].text);
			ck_assert_int_eq(sg_model_get_color(scene, m, rgba), SG_OK);
			ck_assert_mem_eq(rgba, good, sizeof(rgba));
		}
	/* a group has no colour */
	sg_node g = sg_node_new_group(scene, "box");
	ck_assert_int_eq(sg_model_set_color(scene, g, 1, 0, 0, 1), SG_ERR_INVALID_ARGUMENT);
	ck_assert_msg(strstr(sg_last_error(), "'box'"), "%s", sg_last_error());
	ck_assert_int_ne(sg_model_get_color(scene, g, rgba), SG_OK);
	sg_scene_destroy(scene);
}
END_TEST

int main(void)
{
	Suite *suite = suite_create("appearance");
	TCase *tc = tcase_create("appearance");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_reference_by_hand);
	tcase_add_test(tc, test_opaque_and_translucent_textures);
	tcase_add_test(tc, test_tint_and_colour_only_models);
	tcase_add_test(tc, test_nested_opacity);
	tcase_add_test(tc, test_white_and_tinted_frames_alternate);
	tcase_add_test(tc, test_hidden_subtree_equals_detached);
	tcase_add_test(tc, test_interleaved_on_both_paths_with_and_without_culling);
	tcase_add_test(tc, test_texture_updates_between_renders);
	tcase_add_test(tc, test_destroyed_texture_with_update_pending);
	tcase_add_test(tc, test_write_png_holds_straight_alpha);
	tcase_add_test(tc, test_unpremultiply_cases);
	tcase_add_test(tc, test_bad_opacity_changes_nothing);
	tcase_add_test(tc, test_bad_colour_changes_nothing);
	suite_add_tcase(suite, tc);
	return check_run(suite);
}
