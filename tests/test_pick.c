/* Picking (sg_scene_pick, src/traverse/pick.c) against the renderer: every
 * model is drawn in a colour of its own, and a pick at a pixel's centre must
 * name the model whose colour the render put there, for pixel, ortho and
 * perspective cameras, and in a 3D view (nearest by depth); plus hidden and unpickable subtrees, pick_all, the hit's
 * triangle, weights and texture coordinate, the world getters and bad input. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sg/sg.h>

#include "expect.h"
#include "check_run.h"
#include "cube3d.h"

#define SIDE 128
#define MODELS 60

static uint32_t seed = 777;

static uint32_t next(void)
{
	seed = seed * 1103515245u + 12345u;
	return (seed >> 16) & 0x7fff;
}

/* Model i's colour: i + 1 spread over the three channels, exact in 8 bits. */
static void colour_of(int i, float rgb[3])
{
	int v = (i + 1) * 4001;
	rgb[0] = (float)(v & 255) / 255.0f;
	rgb[1] = (float)((v >> 8) & 255) / 255.0f;
	rgb[2] = (float)((v >> 16) & 255) / 255.0f;
}

static int model_of_pixel(const uint8_t *p)
{
	int v = p[0] | p[1] << 8 | p[2] << 16;
	if (v == 0)
		return -1;
	expect(v % 4001 == 0, "colour %06x is no model's", v);
	return v / 4001 - 1;
}

/* Overlapping quads and a few 3D-rotated ones, under nested transforms, in
 * [0, 128) x [0, 128) at z in [-0.5, 0.5]; models[i] is colour i. */
static struct sg_scene *coloured_scene(sg_node models[MODELS], sg_node *group)
{
	struct sg_scene *scene = sg_scene_create();
	sg_mesh quad = sg_mesh_create_quad(scene, 1, 1);
	/* a larger mesh (over the expand limit): a fan of 40 triangles around a centre */
	struct sg_vertex fan[40 * 3];
	for (int k = 0; k < 40; k++) {
		float a0 = (float)k / 40.0f * 6.2831853f, a1 = (float)(k + 1) / 40.0f * 6.2831853f;
		fan[k * 3] = (struct sg_vertex){{0.5f, 0.5f, 0}, {0.5f, 0.5f}};
		fan[k * 3 + 1] = (struct sg_vertex){{0.5f + 0.5f * cosf(a0), 0.5f + 0.5f * sinf(a0), 0}, {0, 0}};
		fan[k * 3 + 2] = (struct sg_vertex){{0.5f + 0.5f * cosf(a1), 0.5f + 0.5f * sinf(a1), 0}, {1, 1}};
	}
	sg_mesh disc = sg_mesh_create(scene, &(struct sg_mesh_desc){.vertices = fan, .vertex_count = 120});
	*group = sg_node_new_group(scene, "group");
	sg_node_add_child(scene, sg_scene_root(scene), *group);
	for (int i = 0; i < MODELS; i++) {
		sg_node t = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
		float x = (float)(next() % 110), y = (float)(next() % 110);
		sg_transform_translate(scene, t, x, y, (float)(next() % 100) / 100.0f - 0.5f);
		if (i % 5 == 2)
			sg_transform_rotate(scene, t, 0.4f, 0.3f, 0.2f, 1.0f);
		sg_transform_scale(scene, t, (float)(8 + next() % 30), (float)(8 + next() % 30), 1);
		float rgb[3];
		colour_of(i, rgb);
		models[i] = sg_node_new_model(scene, &(struct sg_model_desc){
			.mesh = i % 4 == 1 ? disc : quad, .texture = SG_TEXTURE_NONE});
		ck_assert_int_eq(sg_model_set_color(scene, models[i], rgb[0], rgb[1], rgb[2], 1), SG_OK);
		sg_node_add_child(scene, t, models[i]);
		sg_node_add_child(scene, i < MODELS / 2 ? *group : sg_scene_root(scene), t);
	}
	return scene;
}

/* Picks 10000 pixel centres whose 3x3 neighbourhood is of one colour and
 * checks each against the render; returns how many named a model. */
static int check_picks(struct sg_scene *scene, const struct sg_camera *camera, const uint8_t *rgba,
                       const sg_node models[MODELS])
{
	int named = 0, tried = 0;
	for (int attempt = 0; tried < 10000 && attempt < 200000; attempt++) {
		int x = 1 + (int)(next() % (SIDE - 2)), y = 1 + (int)(next() % (SIDE - 2));
		const uint8_t *p = rgba + ((size_t)y * SIDE + (size_t)x) * 4;
		bool uniform = true;
		for (int dy = -1; dy <= 1; dy++)
			for (int dx = -1; dx <= 1; dx++)
				uniform &= memcmp(p, rgba + ((size_t)(y + dy) * SIDE + (size_t)(x + dx)) * 4, 3) == 0;
		if (!uniform)
			continue;
		tried++;
		int expected = model_of_pixel(p);
		struct sg_pick_hit hit;
		sg_result result = sg_scene_pick(scene, camera, SIDE, SIDE, (float)x + 0.5f, (float)y + 0.5f, &hit);
		if (expected < 0) {
			expect(result == SG_ERR_NOT_FOUND, "pixel (%d, %d) is background, pick %d", x, y, result);
			continue;
		}
		expect(result == SG_OK, "pixel (%d, %d): %s", x, y, sg_last_error());
		expect(hit.node.index == models[expected].index && hit.node.generation == models[expected].generation,
		              "pixel (%d, %d) shows model %d, pick named node #%u", x, y, expected, hit.node.index);
		named++;
	}
	ck_assert_int_eq(tried, 10000);
	return named;
}

static void render(struct sg_scene *scene, const struct sg_camera *camera, uint8_t *rgba)
{
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
		.width = SIDE, .height = SIDE, .target = SG_TARGET_SURFACELESS});
	ck_assert_ptr_nonnull(renderer);
	ck_assert_msg(sg_renderer_render(renderer, scene, camera) == SG_OK, "%s", sg_last_error());
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, rgba, 0), SG_OK);
	sg_renderer_destroy(renderer);
}

/* _i: 0 pixel camera (NULL), 1 ortho with a rotated view, 2 perspective. */
START_TEST(test_picks_match_the_render)
{
	sg_node models[MODELS], group;
	struct sg_scene *scene = coloured_scene(models, &group);
	struct sg_camera camera, *used = NULL;
	if (_i == 1) {
		sg_camera_init_ortho(&camera, -10, 140, 140, -10, -100, 100);
		sg_camera_look_at(&camera, (float[]){0.3f, 0.2f, 1}, (float[]){0, 0, 0}, (float[]){0, 1, 0});
		used = &camera;
	} else if (_i == 2) {
		sg_camera_init_perspective(&camera, 1.0f, 1.0f, 1.0f, 500.0f);
		sg_camera_look_at(&camera, (float[]){64, 64, -150}, (float[]){64, 64, 0}, (float[]){0, -1, 0});
		used = &camera;
	}
	uint8_t *rgba = malloc(SIDE * SIDE * 4);
	render(scene, used, rgba);
	int named = check_picks(scene, used, rgba, models);
	ck_assert_msg(named > 3000, "only %d of 10000 picks landed on a model", named);
	/* hidden and unpickable subtrees are skipped: the picture without them */
	ck_assert_int_eq(sg_node_set_visible(scene, group, false), SG_OK);
	render(scene, used, rgba);
	check_picks(scene, used, rgba, models);
	ck_assert_int_eq(sg_node_set_visible(scene, group, true), SG_OK);
	ck_assert_int_eq(sg_node_set_pickable(scene, group, false), SG_OK);
	ck_assert_int_eq(sg_node_set_visible(scene, group, false), SG_OK);
	render(scene, used, rgba); /* what the picks see: group left out */
	ck_assert_int_eq(sg_node_set_visible(scene, group, true), SG_OK);
	check_picks(scene, used, rgba, models);
	free(rgba);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_hit_details_and_pick_all)
{
	struct sg_scene *scene = sg_scene_create();
	sg_mesh quad = sg_mesh_create_quad(scene, 40, 20);
	sg_node a = sg_node_new_model(scene, &(struct sg_model_desc){.name = "a", .mesh = quad, .position = {10, 10, 0}});
	sg_node b = sg_node_new_model(scene, &(struct sg_model_desc){.name = "b", .mesh = quad, .position = {30, 20, 0}});
	sg_node_add_child(scene, sg_scene_root(scene), a);
	sg_node_add_child(scene, sg_scene_root(scene), b);
	struct sg_pick_hit hit;
	/* (20, 15) is on a alone: uv (0.25, 0.25), local (10, 5) */
	ck_assert_int_eq(sg_scene_pick(scene, NULL, 100, 100, 20, 15, &hit), SG_OK);
	ck_assert_uint_eq(hit.node.index, a.index);
	ck_assert(fabsf(hit.uv[0] - 0.25f) < 1e-4f && fabsf(hit.uv[1] - 0.25f) < 1e-4f);
	ck_assert(fabsf(hit.local[0] - 10) < 1e-3f && fabsf(hit.local[1] - 5) < 1e-3f);
	ck_assert(fabsf(hit.world[0] - 20) < 1e-3f && fabsf(hit.world[1] - 15) < 1e-3f);
	ck_assert(fabsf(hit.barycentric[0] + hit.barycentric[1] + hit.barycentric[2] - 1) < 1e-5f);
	ck_assert_uint_lt(hit.triangle, 2);
	/* (40, 25) is under both: b on top; pick_all lists a then b */
	ck_assert_int_eq(sg_scene_pick(scene, NULL, 100, 100, 40, 25, &hit), SG_OK);
	ck_assert_uint_eq(hit.node.index, b.index);
	struct sg_pick_hit hits[2];
	size_t count = 0;
	ck_assert_int_eq(sg_scene_pick_all(scene, NULL, 100, 100, 40, 25, hits, 2, &count), SG_OK);
	ck_assert_uint_eq(count, 2);
	ck_assert_uint_eq(hits[0].node.index, a.index);
	ck_assert_uint_eq(hits[1].node.index, b.index);
	ck_assert_int_eq(sg_scene_pick_all(scene, NULL, 100, 100, 40, 25, NULL, 0, &count), SG_OK);
	ck_assert_uint_eq(count, 2);
	ck_assert_int_eq(sg_scene_pick_all(scene, NULL, 100, 100, 95, 95, hits, 2, &count), SG_OK);
	ck_assert_uint_eq(count, 0);
	ck_assert_int_eq(sg_scene_pick(scene, NULL, 100, 100, 95, 95, &hit), SG_ERR_NOT_FOUND);
	/* a moved model is picked where it is now */
	ck_assert_int_eq(sg_model_set_position(scene, b, 60, 60, 0), SG_OK);
	ck_assert_int_eq(sg_scene_pick(scene, NULL, 100, 100, 40, 25, &hit), SG_OK);
	ck_assert_uint_eq(hit.node.index, a.index);
	ck_assert_int_eq(sg_scene_pick(scene, NULL, 100, 100, 70, 70, &hit), SG_OK);
	ck_assert_uint_eq(hit.node.index, b.index);
	/* outside the near and far planes: not drawn, not picked */
	ck_assert_int_eq(sg_model_set_position(scene, b, 60, 60, 2), SG_OK);
	ck_assert_int_eq(sg_scene_pick(scene, NULL, 100, 100, 70, 70, &hit), SG_ERR_NOT_FOUND);
	/* bad input */
	ck_assert_int_eq(sg_scene_pick(scene, NULL, 0, 100, 1, 1, &hit), SG_ERR_INVALID_ARGUMENT);
	ck_assert_int_eq(sg_scene_pick(scene, NULL, 100, 100, NAN, 1, &hit), SG_ERR_INVALID_ARGUMENT);
	ck_assert_int_eq(sg_scene_pick(scene, NULL, 100, 100, 1, 1, NULL), SG_ERR_INVALID_ARGUMENT);
	struct sg_camera flat = {{0}, {0}};
	ck_assert_int_eq(sg_scene_pick(scene, &flat, 100, 100, 1, 1, &hit), SG_ERR_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "cannot be inverted"));
	bool pickable = false;
	ck_assert_int_eq(sg_node_get_pickable(scene, a, &pickable), SG_OK);
	ck_assert(pickable);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_world_getters)
{
	struct sg_scene *scene = sg_scene_create();
	sg_mesh quad = sg_mesh_create_quad(scene, 2, 4);
	sg_node t = sg_node_new_transform(scene, &(struct sg_transform_desc){.name = "t"});
	sg_transform_translate(scene, t, 10, 20, 0);
	sg_transform_scale(scene, t, 3, 3, 1);
	sg_node m = sg_node_new_model(scene, &(struct sg_model_desc){.name = "m", .mesh = quad, .position = {1, 1, 0}});
	sg_node empty = sg_node_new_group(scene, "empty");
	sg_node_add_child(scene, t, m);
	float world[16];
	/* detached: the product of the locals all the same */
	ck_assert_int_eq(sg_node_get_world_matrix(scene, m, world), SG_OK);
	ck_assert(fabsf(world[12] - 13) < 1e-5f && fabsf(world[13] - 23) < 1e-5f && fabsf(world[0] - 3) < 1e-5f);
	float min[3], max[3];
	ck_assert_int_eq(sg_node_get_world_bounds(scene, t, min, max), SG_ERR_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "'t' is not attached"));
	sg_node_add_child(scene, sg_scene_root(scene), t);
	sg_node_add_child(scene, sg_scene_root(scene), empty);
	ck_assert_int_eq(sg_node_get_world_bounds(scene, t, min, max), SG_OK);
	ck_assert(fabsf(min[0] - 13) < 1e-4f && fabsf(min[1] - 23) < 1e-4f);
	ck_assert(fabsf(max[0] - 19) < 1e-4f && fabsf(max[1] - 35) < 1e-4f);
	ck_assert_int_eq(sg_node_get_world_bounds(scene, empty, min, max), SG_ERR_NOT_FOUND);
	/* a matrix edit is followed */
	sg_transform_translate(scene, t, 1, 0, 0);
	ck_assert_int_eq(sg_node_get_world_bounds(scene, m, min, max), SG_OK);
	ck_assert(fabsf(min[0] - 16) < 1e-4f);
	ck_assert_int_eq(sg_node_get_world_matrix(scene, m, NULL), SG_ERR_INVALID_ARGUMENT);
	sg_scene_destroy(scene);
}
END_TEST

/* Picks in a 3D view (own camera, a viewport placed by a transform above
 * it) among 2D quads drawn before it (under) and after it (over): the
 * nearest cube by depth, whatever the order of the tree, as the render
 * shows it. Cubes without a material draw their colour exactly. */
START_TEST(test_3d_picks_match_the_render)
{
	struct sg_scene *scene = sg_scene_create();
	sg_mesh cube = cube3d_mesh(scene);
	sg_mesh quad = sg_mesh_create_quad(scene, 1, 1);
	struct sg_camera eye;
	sg_camera_init_perspective(&eye, 1.0f, 90.0f / 100.0f, 0.5f, 30.0f);
	sg_camera_look_at(&eye, (float[]){2, 3, 7}, (float[]){0, 0, 0}, (float[]){0, 1, 0});
	sg_node place = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
	sg_transform_translate(scene, place, 4, 4, 0);
	sg_node view = sg_node_new_view3d(
	    scene, &(struct sg_view3d_desc){.camera = &eye, .viewport = {16, 12, 90, 100}});
	sg_node models[MODELS];
	for (int i = 0; i < MODELS; i++) {
		float rgb[3];
		colour_of(i, rgb);
		sg_node t = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
		bool solid = i >= 10 && i < 50;
		if (solid) {
			sg_transform_translate(scene, t, (float)(next() % 400) / 100.0f - 2.0f,
			                       (float)(next() % 400) / 100.0f - 2.0f,
			                       (float)(next() % 400) / 100.0f - 2.0f);
			sg_transform_rotate(scene, t, (float)(next() % 628) / 100.0f, 0.3f, 1.0f, 0.2f);
		} else {
			sg_transform_translate(scene, t, (float)(next() % 110), (float)(next() % 110), 0);
			sg_transform_scale(scene, t, (float)(6 + next() % 20), (float)(6 + next() % 20), 1);
		}
		models[i] = sg_node_new_model(scene, &(struct sg_model_desc){.mesh = solid ? cube : quad});
		ck_assert_int_eq(sg_model_set_color(scene, models[i], rgb[0], rgb[1], rgb[2], 1), SG_OK);
		sg_node_add_child(scene, t, models[i]);
		sg_node_add_child(scene, solid ? view : sg_scene_root(scene), t);
		if (i == 9) { /* quads 0 .. 9 under the view, 50 .. 59 over it */
			sg_node_add_child(scene, sg_scene_root(scene), place);
			sg_node_add_child(scene, place, view);
		}
	}
	uint8_t *rgba = malloc(SIDE * SIDE * 4);
	render(scene, NULL, rgba);
	int named = check_picks(scene, NULL, rgba, models);
	ck_assert_msg(named > 2000, "only %d of 10000 picks landed on a model", named);
	/* the nearest, not the last in the tree: a hit on a cube names the
	 * cube the render shows, which the order of the tree does not decide */
	int cubes_seen = 0;
	for (int p = 0; p < SIDE * SIDE; p++) {
		int m = model_of_pixel(rgba + (size_t)p * 4);
		cubes_seen += m >= 10 && m < 50;
	}
	ck_assert_int_gt(cubes_seen, 1000);
	free(rgba);
	sg_scene_destroy(scene);
}
END_TEST

int main(void)
{
	Suite *suite = suite_create("pick");
	TCase *tc = tcase_create("pick");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_picks_match_the_render, 0, 3);
	tcase_add_test(tc, test_hit_details_and_pick_all);
	tcase_add_test(tc, test_world_getters);
	tcase_add_test(tc, test_3d_picks_match_the_render);
	suite_add_tcase(suite, tc);
	return check_run(suite);
}
