/* Texture updates (sg_texture_update), end to end on the surfaceless target:
 * the rendered pixels equal those of a scene whose texture was created with the
 * final texels, each renderer uploads only the changed rectangles (counted by
 * the gl cache's upload statistics, never timed), every renderer of a scene
 * gets every update, and bad input changes nothing. */
#include <check.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <sg/sg.h>

#include "expect.h"
#include "check_run.h"
#include "../src/gl/cache.h"
#include "../src/graph/scene_internal.h"

#define TEX_W 40
#define TEX_H 30
#define OUT_W 128
#define OUT_H 96
#define TEX_BYTES ((uint64_t)TEX_W * TEX_H * 4)

/* The texels the scene should hold, kept beside it by the test. */
struct picture {
	struct sg_scene *scene;
	sg_texture texture;
	sg_node model;
	uint8_t texels[TEX_H][TEX_W][4];
};

static uint32_t random_state = 12345;

static uint8_t random_byte(void)
{
	random_state = random_state * 1103515245u + 12345u;
	return (uint8_t)(random_state >> 16);
}

static void fill_random(uint8_t *rgba, size_t texels)
{
	for (size_t i = 0; i < texels; i++) {
		rgba[i * 4] = random_byte();
		rgba[i * 4 + 1] = random_byte();
		rgba[i * 4 + 2] = random_byte();
		rgba[i * 4 + 3] = 255;
	}
}

/* A quad filling the output, scaled 3.2 times, so that LINEAR mixes texels. */
static struct sg_scene *scene_with(const uint8_t *texels, enum sg_filter filter,
                                   sg_texture *texture, sg_node *model)
{
	struct sg_scene *scene = sg_scene_create();
	ck_assert_ptr_nonnull(scene);
	*texture = sg_texture_create(scene, &(struct sg_texture_desc){
		.width = TEX_W, .height = TEX_H, .pixels = texels, .filter = filter});
	ck_assert_msg(texture->generation, "%s", sg_last_error());
	sg_mesh quad = sg_mesh_create_quad(scene, OUT_W, OUT_H);
	*model = sg_node_new_model(scene, &(struct sg_model_desc){.mesh = quad, .texture = *texture});
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), *model), SG_OK);
	return scene;
}

static void picture_init(struct picture *p, enum sg_filter filter)
{
	fill_random((uint8_t *)p->texels, TEX_W * TEX_H);
	p->scene = scene_with((uint8_t *)p->texels, filter, &p->texture, &p->model);
}

/* Updates a rectangle of random texels, given with stride bytes a row (0: tight). */
static void picture_update(struct picture *p, int x, int y, int w, int h, size_t stride)
{
	size_t row = stride ? stride : (size_t)w * 4;
	uint8_t *pixels = malloc(row * (size_t)h);
	for (int r = 0; r < h; r++) {
		fill_random(pixels + row * (size_t)r, (size_t)w);
		memcpy(&p->texels[y + r][x][0], pixels + row * (size_t)r, (size_t)w * 4);
	}
	ck_assert_msg(sg_texture_update(p->scene, p->texture, x, y, w, h, pixels, stride) == SG_OK,
	              "%s", sg_last_error());
	free(pixels);
}

static struct sg_renderer *renderer_new(void)
{
	struct sg_renderer *r = sg_renderer_create(&(struct sg_renderer_desc){
		.width = OUT_W, .height = OUT_H, .target = SG_TARGET_SURFACELESS});
	ck_assert_msg(r, "%s", sg_last_error());
	return r;
}

/* Renders and returns the upload statistics of that render alone. */
static struct sg_gl_upload_stats render(struct sg_renderer *r, struct sg_scene *scene,
                                        uint8_t *pixels)
{
	struct sg_gl_upload_stats before = sg_gl_upload_stats();
	ck_assert_msg(sg_renderer_render(r, scene, NULL) == SG_OK, "%s", sg_last_error());
	struct sg_gl_upload_stats after = sg_gl_upload_stats();
	if (pixels)
		ck_assert_int_eq(sg_renderer_read_pixels(r, pixels, 0), SG_OK);
	return (struct sg_gl_upload_stats){after.calls - before.calls, after.bytes - before.bytes,
	                                   after.whole - before.whole};
}

/* Every pixel of r's render of p equals a fresh scene made with p's texels. */
static void assert_matches_fresh(struct sg_renderer *r, const struct picture *p,
                                 enum sg_filter filter)
{
	static uint8_t got[OUT_H][OUT_W][4], want[OUT_H][OUT_W][4];
	ck_assert_int_eq(sg_renderer_read_pixels(r, got, 0), SG_OK);
	sg_texture texture;
	sg_node model;
	struct sg_scene *fresh = scene_with((uint8_t *)p->texels, filter, &texture, &model);
	struct sg_renderer *reference = renderer_new();
	render(reference, fresh, (uint8_t *)want);
	sg_renderer_destroy(reference);
	sg_scene_destroy(fresh);
	for (int y = 0; y < OUT_H; y++)
		for (int x = 0; x < OUT_W; x++)
			expect(!memcmp(got[y][x], want[y][x], 4),
			       "pixel (%d, %d) is %u,%u,%u,%u, a fresh texture gives %u,%u,%u,%u", x, y,
			       got[y][x][0], got[y][x][1], got[y][x][2], got[y][x][3], want[y][x][0],
			       want[y][x][1], want[y][x][2], want[y][x][3]);
}

static const enum sg_filter filters[] = {SG_FILTER_NEAREST, SG_FILTER_LINEAR};

START_TEST(test_rectangles_between_renders_match_fresh_texture)
{
	enum sg_filter filter = filters[_i];
	static struct picture p;
	picture_init(&p, filter);
	struct sg_renderer *r = renderer_new();
	struct sg_gl_upload_stats s = render(r, p.scene, NULL);
	ck_assert_uint_eq(s.whole, 1); /* the first render uploads it whole */
	ck_assert_uint_eq(s.bytes, TEX_BYTES);
	/* overlapping, padded rows, at the far corner, a single texel */
	picture_update(&p, 3, 4, 10, 6, 0);
	picture_update(&p, 8, 7, 12, 9, 12 * 4 + 20);
	picture_update(&p, TEX_W - 5, TEX_H - 3, 5, 3, 0);
	picture_update(&p, 0, TEX_H - 1, 1, 1, 0);
	s = render(r, p.scene, NULL);
	assert_matches_fresh(r, &p, filter);
	/* four sub-uploads of exactly those texels, no whole one */
	ck_assert_uint_eq(s.whole, 0);
	ck_assert_uint_eq(s.calls, 4);
	ck_assert_uint_eq(s.bytes, (10 * 6 + 12 * 9 + 5 * 3 + 1) * 4);
	/* nothing changed since: nothing uploaded */
	s = render(r, p.scene, NULL);
	ck_assert_uint_eq(s.calls, 0);
	assert_matches_fresh(r, &p, filter);
	sg_renderer_destroy(r);
	sg_scene_destroy(p.scene);
}
END_TEST

START_TEST(test_covered_rectangle_is_not_uploaded)
{
	/* An update covered by a later one in the same frame is sent once. */
	static struct picture p;
	picture_init(&p, SG_FILTER_NEAREST);
	struct sg_renderer *r = renderer_new();
	render(r, p.scene, NULL);
	picture_update(&p, 5, 5, 2, 2, 0);
	picture_update(&p, 4, 4, 8, 8, 0);
	struct sg_gl_upload_stats s = render(r, p.scene, NULL);
	ck_assert_uint_eq(s.calls, 1);
	ck_assert_uint_eq(s.bytes, 8 * 8 * 4);
	assert_matches_fresh(r, &p, SG_FILTER_NEAREST);
	/* rectangles adding up to the texture's area: one whole upload instead */
	picture_update(&p, 0, 0, TEX_W, TEX_H / 2, 0);
	picture_update(&p, 0, TEX_H / 2 - 1, TEX_W, TEX_H / 2 + 1, 0);
	s = render(r, p.scene, NULL);
	ck_assert_uint_eq(s.calls, 1);
	ck_assert_uint_eq(s.whole, 1);
	assert_matches_fresh(r, &p, SG_FILTER_NEAREST);
	sg_renderer_destroy(r);
	sg_scene_destroy(p.scene);
}
END_TEST

START_TEST(test_unchanged_texels_mark_nothing)
{
	static struct picture p;
	picture_init(&p, SG_FILTER_NEAREST);
	struct sg_renderer *r = renderer_new();
	render(r, p.scene, NULL);
	uint8_t same[3][4][4];
	for (int y = 0; y < 3; y++)
		memcpy(same[y], p.texels[2 + y][6], sizeof(same[y]));
	ck_assert_int_eq(sg_texture_update(p.scene, p.texture, 6, 2, 4, 3, same, 0), SG_OK);
	ck_assert_uint_eq(p.scene->textures[p.texture.index].update_serial, 0);
	ck_assert_uint_eq(render(r, p.scene, NULL).calls, 0);
	sg_renderer_destroy(r);
	sg_scene_destroy(p.scene);
}
END_TEST

START_TEST(test_two_renderers_see_every_update)
{
	static struct picture p;
	picture_init(&p, SG_FILTER_LINEAR);
	struct sg_renderer *a = renderer_new(), *b = renderer_new();
	render(a, p.scene, NULL);
	render(b, p.scene, NULL);
	picture_update(&p, 1, 1, 4, 4, 0);
	struct sg_gl_upload_stats s = render(a, p.scene, NULL);
	ck_assert_uint_eq(s.bytes, 4 * 4 * 4);
	picture_update(&p, 20, 10, 6, 5, 0);
	/* a missed one update, b two: each uploads what it lacks, and no more */
	s = render(a, p.scene, NULL);
	ck_assert_uint_eq(s.bytes, 6 * 5 * 4);
	ck_assert_uint_eq(s.whole, 0);
	assert_matches_fresh(a, &p, SG_FILTER_LINEAR);
	s = render(b, p.scene, NULL);
	ck_assert_uint_eq(s.bytes, (4 * 4 + 6 * 5) * 4);
	ck_assert_uint_eq(s.calls, 2);
	ck_assert_uint_eq(s.whole, 0);
	assert_matches_fresh(b, &p, SG_FILTER_LINEAR);
	sg_renderer_destroy(a);
	sg_renderer_destroy(b);
	sg_scene_destroy(p.scene);
}
END_TEST

START_TEST(test_renderer_far_behind_uploads_whole_once)
{
	static struct picture p;
	picture_init(&p, SG_FILTER_NEAREST);
	struct sg_renderer *a = renderer_new(), *b = renderer_new();
	render(a, p.scene, NULL);
	render(b, p.scene, NULL);
	for (unsigned i = 0; i < SG_TEXTURE_UPDATE_HISTORY + 1; i++) {
		picture_update(&p, (int)i, (int)i % 7, 2, 3, 0);
		struct sg_gl_upload_stats s = render(a, p.scene, NULL);
		ck_assert_uint_eq(s.whole, 0);
		ck_assert_uint_eq(s.bytes, 2 * 3 * 4);
	}
	/* b is more updates behind than the texture remembers */
	struct sg_gl_upload_stats s = render(b, p.scene, NULL);
	ck_assert_uint_eq(s.whole, 1);
	ck_assert_uint_eq(s.calls, 1);
	ck_assert_uint_eq(s.bytes, TEX_BYTES);
	assert_matches_fresh(b, &p, SG_FILTER_NEAREST);
	assert_matches_fresh(a, &p, SG_FILTER_NEAREST);
	/* exactly as many behind as it remembers: sub-uploads still */
	for (unsigned i = 0; i < SG_TEXTURE_UPDATE_HISTORY; i++)
		picture_update(&p, (int)i, 20, 1, 1, 0);
	s = render(b, p.scene, NULL);
	ck_assert_uint_eq(s.whole, 0);
	ck_assert_uint_eq(s.calls, SG_TEXTURE_UPDATE_HISTORY);
	assert_matches_fresh(b, &p, SG_FILTER_NEAREST);
	sg_renderer_destroy(a);
	sg_renderer_destroy(b);
	sg_scene_destroy(p.scene);
}
END_TEST

START_TEST(test_destroyed_with_update_pending)
{
	static struct picture p;
	picture_init(&p, SG_FILTER_NEAREST);
	struct sg_renderer *r = renderer_new();
	render(r, p.scene, NULL);
	picture_update(&p, 2, 2, 5, 5, 0);
	/* a model still using it: the render fails as for any destroyed texture */
	ck_assert_int_eq(sg_texture_destroy(p.scene, p.texture), SG_OK);
	ck_assert_int_ne(sg_renderer_render(r, p.scene, NULL), SG_OK);
	/* without it: nothing of it is uploaded */
	ck_assert_int_eq(sg_node_destroy(p.scene, p.model), SG_OK);
	ck_assert_uint_eq(render(r, p.scene, NULL).calls, 0);
	/* a new texture in the same slot is uploaded whole, not patched */
	static struct picture q;
	fill_random((uint8_t *)q.texels, TEX_W * TEX_H);
	q.scene = p.scene;
	q.texture = sg_texture_create(p.scene, &(struct sg_texture_desc){
		.width = TEX_W, .height = TEX_H, .pixels = q.texels});
	ck_assert_uint_eq(q.texture.index, p.texture.index);
	sg_mesh quad = sg_mesh_create_quad(p.scene, OUT_W, OUT_H);
	q.model = sg_node_new_model(p.scene, &(struct sg_model_desc){.mesh = quad, .texture = q.texture});
	sg_node_add_child(p.scene, sg_scene_root(p.scene), q.model);
	struct sg_gl_upload_stats s = render(r, p.scene, NULL);
	ck_assert_uint_eq(s.whole, 1);
	ck_assert_uint_eq(s.bytes, TEX_BYTES);
	assert_matches_fresh(r, &q, SG_FILTER_NEAREST);
	/* and a pending update of a texture destroyed before any render: no crash */
	picture_update(&q, 0, 0, 3, 3, 0);
	ck_assert_int_eq(sg_node_destroy(p.scene, q.model), SG_OK);
	ck_assert_int_eq(sg_texture_destroy(p.scene, q.texture), SG_OK);
	ck_assert_uint_eq(render(r, p.scene, NULL).calls, 0);
	sg_renderer_destroy(r);
	sg_scene_destroy(p.scene);
}
END_TEST

/* A refused update leaves the texels and the update serial as they were. */
static void assert_refused(struct picture *p, sg_result expected, const char *message, int x,
                           int y, int w, int h, const void *pixels, size_t stride)
{
	const struct sg_texture_data *t = &p->scene->textures[p->texture.index];
	uint64_t serial = t->update_serial;
	ck_assert_int_eq(sg_texture_update(p->scene, p->texture, x, y, w, h, pixels, stride),
	                 expected);
	ck_assert_msg(strstr(sg_last_error(), message), "'%s' lacks '%s'", sg_last_error(),
	              message);
	ck_assert_uint_eq(t->update_serial, serial);
	ck_assert_mem_eq(t->pixels, p->texels, sizeof(p->texels));
}

START_TEST(test_bad_input_changes_nothing)
{
	static struct picture p;
	picture_init(&p, SG_FILTER_NEAREST);
	static uint8_t texels[TEX_H * TEX_W * 4 * 2];
	memset(texels, 7, sizeof(texels));
	const sg_result invalid = SG_ERR_INVALID_ARGUMENT;
	assert_refused(&p, invalid, "pixels of texture #0 is NULL", 0, 0, 1, 1, NULL, 0);
	assert_refused(&p, invalid, "rectangle 2x2 at (-1, 0) is empty or outside texture #0 (40x30)",
	               -1, 0, 2, 2, texels, 0);
	assert_refused(&p, invalid, "rectangle 2x2 at (0, -1)", 0, -1, 2, 2, texels, 0);
	assert_refused(&p, invalid, "rectangle 0x2 at (0, 0)", 0, 0, 0, 2, texels, 0);
	assert_refused(&p, invalid, "rectangle 2x0 at (0, 0)", 0, 0, 2, 0, texels, 0);
	assert_refused(&p, invalid, "rectangle -3x2 at (5, 0)", 5, 0, -3, 2, texels, 0);
	assert_refused(&p, invalid, "rectangle 2x2 at (39, 0)", TEX_W - 1, 0, 2, 2, texels, 0);
	assert_refused(&p, invalid, "rectangle 1x2 at (0, 29)", 0, TEX_H - 1, 1, 2, texels, 0);
	assert_refused(&p, invalid, "rectangle 41x30 at (0, 0)", 0, 0, TEX_W + 1, TEX_H, texels, 0);
	/* x + width wraps in int arithmetic */
	assert_refused(&p, invalid, "rectangle 2147483647x1 at (10, 0)", 10, 0, INT_MAX, 1, texels,
	               0);
	assert_refused(&p, invalid, "rectangle 1x2147483647 at (0, 10)", 0, 10, 1, INT_MAX, texels,
	               0);
	assert_refused(&p, invalid, "stride 15 of texture #0 is less than width * 4 = 16", 0, 0, 4,
	               1, texels, 15);
	ck_assert_int_eq(sg_texture_update(NULL, p.texture, 0, 0, 1, 1, texels, 0), invalid);
	/* another scene's texture, and a destroyed one */
	struct sg_scene *other = sg_scene_create();
	sg_texture foreign = sg_texture_create(
		other, &(struct sg_texture_desc){.width = 1, .height = 1, .pixels = texels});
	ck_assert_int_eq(sg_texture_update(p.scene, foreign, 0, 0, 1, 1, texels, 0),
	                 SG_ERR_FOREIGN_HANDLE);
	ck_assert_msg(strstr(sg_last_error(), "sg_texture_update"), "%s", sg_last_error());
	sg_scene_destroy(other);
	sg_texture copy = sg_texture_create(
		p.scene, &(struct sg_texture_desc){.width = 2, .height = 2, .pixels = texels});
	ck_assert_int_eq(sg_texture_destroy(p.scene, copy), SG_OK);
	ck_assert_int_eq(sg_texture_update(p.scene, copy, 0, 0, 1, 1, texels, 0),
	                 SG_ERR_STALE_HANDLE);
	ck_assert_msg(strstr(sg_last_error(), "sg_texture_update: texture #1"), "%s",
	              sg_last_error());
	ck_assert_int_eq(sg_texture_update(p.scene, (sg_texture){0}, 0, 0, 1, 1, texels, 0),
	                 SG_ERR_STALE_HANDLE);
	ck_assert_mem_eq(p.scene->textures[p.texture.index].pixels, p.texels, sizeof(p.texels));
	/* the edges themselves are inside */
	picture_update(&p, TEX_W - 1, TEX_H - 1, 1, 1, 0);
	picture_update(&p, 0, 0, TEX_W, TEX_H, TEX_W * 4 + 4);
	sg_scene_destroy(p.scene);
}
END_TEST

START_TEST(test_translucent_texels_are_counted)
{
	/* Kept for the blending path: an update can make a texture translucent or opaque. */
	static struct picture p;
	picture_init(&p, SG_FILTER_NEAREST);
	const struct sg_texture_data *t = &p.scene->textures[p.texture.index];
	ck_assert_uint_eq(t->translucent_texels, 0);
	uint8_t half[2][3][4];
	memset(half, 128, sizeof(half));
	ck_assert_int_eq(sg_texture_update(p.scene, p.texture, 1, 1, 3, 2, half, 0), SG_OK);
	ck_assert_uint_eq(t->translucent_texels, 6);
	memset(half, 255, sizeof(half));
	ck_assert_int_eq(sg_texture_update(p.scene, p.texture, 2, 1, 3, 2, half, 0), SG_OK);
	ck_assert_uint_eq(t->translucent_texels, 2);
	sg_scene_destroy(p.scene);
}
END_TEST

int main(void)
{
	Suite *suite = suite_create("texture-update");
	TCase *tc = tcase_create("texture-update");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_rectangles_between_renders_match_fresh_texture, 0, 2);
	tcase_add_test(tc, test_covered_rectangle_is_not_uploaded);
	tcase_add_test(tc, test_unchanged_texels_mark_nothing);
	tcase_add_test(tc, test_two_renderers_see_every_update);
	tcase_add_test(tc, test_renderer_far_behind_uploads_whole_once);
	tcase_add_test(tc, test_destroyed_with_update_pending);
	tcase_add_test(tc, test_bad_input_changes_nothing);
	tcase_add_test(tc, test_translucent_texels_are_counted);
	suite_add_tcase(suite, tc);
	return check_run(suite);
}
