/* The render suite's tests of frame plans (docs/frame.md): the passes a
 * scene's frame is made of, and a pass into an offscreen texture. */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sg/sg.h>

#include "expect.h"
#include "render_frame.h"
#include "../src/render/buffer.h"
#include "../src/render/frame.h"
#include "../src/render/renderer_internal.h"

#define SIDE 64

static struct sg_renderer *renderer_new(void)
{
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
	    .width = SIDE, .height = SIDE, .target = SG_TARGET_SURFACELESS});
	ck_assert_msg(renderer, "%s", sg_last_error());
	return renderer;
}

/* A w x h square at (x, y) of colour rgb (0 or 1 each) under parent. */
static sg_node square_add(struct sg_scene *scene, sg_node parent, float x, float y, float side,
                          const float rgb[3])
{
	sg_node model = sg_node_new_model(
	    scene, &(struct sg_model_desc){.mesh = sg_mesh_create_quad(scene, side, side),
	                                   .position = {x, y, 0}});
	ck_assert_msg(model.generation, "%s", sg_last_error());
	ck_assert_int_eq(sg_model_set_color(scene, model, rgb[0], rgb[1], rgb[2], 1), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, parent, model), SG_OK);
	return model;
}

/* A 3D view over the whole output with the render's camera, holding a
 * side x side square of 3D mesh at (x, y) in colour rgb, unlit. */
static sg_node view_add(struct sg_scene *scene, float x, float y, float side, const float rgb[3])
{
	sg_node view = sg_node_new_view3d(scene, &(struct sg_view3d_desc){0});
	ck_assert_msg(view.generation, "%s", sg_last_error());
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), view), SG_OK);
	const float p[] = {x, y, 0, x + side, y, 0, x + side, y + side, 0, x, y + side, 0};
	const uint32_t indices[] = {0, 1, 2, 0, 2, 3};
	sg_mesh mesh = sg_mesh_create_3d(scene, &(struct sg_mesh3d_desc){.vertex_count = 4,
	                                                                 .positions = p,
	                                                                 .indices = indices,
	                                                                 .index_type = SG_INDEX_U32,
	                                                                 .index_count = 6});
	ck_assert_msg(mesh.generation, "%s", sg_last_error());
	sg_node model = sg_node_new_model(scene, &(struct sg_model_desc){.mesh = mesh});
	ck_assert_int_eq(sg_model_set_color(scene, model, rgb[0], rgb[1], rgb[2], 1), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, view, model), SG_OK);
	return view;
}

static const struct sg_frame_plan *plan_of(struct sg_renderer *renderer, struct sg_scene *scene)
{
	ck_assert_msg(sg_renderer_render(renderer, scene, NULL) == SG_OK, "%s", sg_last_error());
	return sg_renderer_plan_for_testing(renderer);
}

static void expect_2d(const struct sg_pass *pass, size_t first, size_t end, bool clear)
{
	ck_assert_int_eq(pass->kind, SG_PASS_2D);
	ck_assert_int_eq(pass->sort, SG_SORT_PAINTER);
	ck_assert_int_eq(pass->target.kind, SG_PASS_TARGET_FRAME);
	ck_assert_uint_eq(pass->first, first);
	ck_assert_uint_eq(pass->end, end);
	ck_assert_int_eq(pass->clear, clear);
}

static const float red[3] = {1, 0, 0}, green[3] = {0, 1, 0}, blue[3] = {0, 0, 1};

START_TEST(test_plan_of_2d_alone_is_one_pass)
{
	struct sg_scene *scene = sg_scene_create();
	struct sg_renderer *renderer = renderer_new();
	for (int i = 0; i < 3; i++)
		square_add(scene, sg_scene_root(scene), 8.0f * i, 0, 8, red);
	const struct sg_frame_plan *plan = plan_of(renderer, scene);
	ck_assert_uint_eq(plan->count, 1);
	expect_2d(&plan->passes[0], 0, 3, true);
	ck_assert_ptr_null(plan->passes[0].region);
	ck_assert_ptr_null(plan->views);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
}
END_TEST

static void expect_rgb(const uint8_t *pixels, int x, int y, const float rgb[3])
{
	const uint8_t *p = pixels + ((size_t)y * SIDE + (size_t)x) * 4;
	for (int c = 0; c < 3; c++)
		ck_assert_msg(p[c] == (uint8_t)(rgb[c] * 255), "(%d, %d) channel %d is %u, not %d",
		              x, y, c, p[c], (int)(rgb[c] * 255));
}

START_TEST(test_plan_of_2d_view_2d_is_three_passes)
{
	/* Red under the view, the view's green square, blue over it: the passes
	 * in the tree's order, and the pixels they make. */
	struct sg_scene *scene = sg_scene_create();
	struct sg_renderer *renderer = renderer_new();
	sg_node root = sg_scene_root(scene);
	square_add(scene, root, 0, 0, SIDE, red);
	square_add(scene, root, 0, 0, 4, red);
	view_add(scene, 16, 16, 32, green);
	square_add(scene, root, 28, 28, 8, blue);
	const struct sg_frame_plan *plan = plan_of(renderer, scene);
	ck_assert_uint_eq(plan->count, 3);
	expect_2d(&plan->passes[0], 0, 2, true);
	const struct sg_pass *view = &plan->passes[1];
	ck_assert_int_eq(view->kind, SG_PASS_VIEW3D);
	ck_assert_int_eq(view->sort, SG_SORT_DEPTH);
	ck_assert_int_eq(view->target.kind, SG_PASS_TARGET_FRAME);
	ck_assert_int_eq(view->clear, false);
	ck_assert_uint_eq(view->view, 0);
	ck_assert_uint_eq(plan->views->count, 1);
	ck_assert_uint_eq(plan->views->views[0].count, 1);
	expect_2d(&plan->passes[2], 2, 3, false);
	/* The frame's draw calls are its passes'. */
	struct sg_render_stats stats;
	ck_assert_int_eq(sg_renderer_get_stats(renderer, &stats), SG_OK);
	size_t batches = 0;
	for (size_t i = 0; i < plan->count; i++) {
		ck_assert_uint_gt(plan->passes[i].batches, 0);
		batches += plan->passes[i].batches;
	}
	ck_assert_uint_eq(stats.batches, batches);
	uint8_t pixels[SIDE * SIDE * 4];
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, pixels, 0), SG_OK);
	expect_rgb(pixels, 8, 8, red);
	expect_rgb(pixels, 20, 20, green);
	expect_rgb(pixels, 32, 32, blue);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_plan_of_empty_frame_still_clears)
{
	struct sg_scene *scene = sg_scene_create();
	struct sg_renderer *renderer = renderer_new();
	ck_assert_int_eq(sg_renderer_set_clear_color(renderer, 0, 1, 0, 1), SG_OK);
	const struct sg_frame_plan *plan = plan_of(renderer, scene);
	ck_assert_uint_eq(plan->count, 1);
	expect_2d(&plan->passes[0], 0, 0, true);
	uint8_t pixels[SIDE * SIDE * 4];
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, pixels, 0), SG_OK);
	for (int y = 0; y < SIDE; y++)
		for (int x = 0; x < SIDE; x++)
			expect_rgb(pixels, x, y, green);
	/* A view alone: the 2D pass before it still clears. */
	view_add(scene, 0, 0, 8, blue);
	plan = plan_of(renderer, scene);
	ck_assert_uint_eq(plan->count, 2);
	expect_2d(&plan->passes[0], 0, 0, true);
	ck_assert_int_eq(plan->passes[1].kind, SG_PASS_VIEW3D);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_plan_follows_damage)
{
	/* A frame with nothing to repaint has no pass; one that moves a square
	 * repaints in the region, over what the buffer holds cleared there; with
	 * SG_DEBUG_DAMAGE the tint is the last pass, over the same region. */
	struct sg_scene *scene = sg_scene_create();
	struct sg_renderer *renderer = renderer_new();
	square_add(scene, sg_scene_root(scene), 0, 0, 8, red);
	sg_node moved = square_add(scene, sg_scene_root(scene), 40, 40, 8, blue);
	ck_assert_uint_eq(plan_of(renderer, scene)->count, 1);
	const struct sg_frame_plan *plan = plan_of(renderer, scene);
	ck_assert_uint_eq(plan->count, 0);
	struct sg_render_stats stats;
	ck_assert_int_eq(sg_renderer_get_stats(renderer, &stats), SG_OK);
	ck_assert_uint_eq(stats.batches, 0);
	struct sg_renderer_settings settings;
	sg_renderer_get_settings(renderer, &settings);
	settings.debug_damage = true;
	sg_renderer_apply_settings(renderer, &settings);
	ck_assert_int_eq(sg_model_set_position(scene, moved, 44, 40, 0), SG_OK);
	plan = plan_of(renderer, scene);
	ck_assert_uint_eq(plan->count, 2);
	expect_2d(&plan->passes[0], 0, 1, true);
	ck_assert_ptr_nonnull(plan->passes[0].region);
	ck_assert_int_eq(plan->passes[0].region->count, 1);
	ck_assert_int_eq(plan->passes[1].kind, SG_PASS_TINT);
	ck_assert_int_eq(plan->passes[1].sort, SG_SORT_NONE);
	ck_assert_ptr_eq(plan->passes[1].region, plan->passes[0].region);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_pass_into_offscreen_texture)
{
	/* Red, then green over part of it, drawn into a texture cleared yellow;
	 * the frame's buffer, cleared blue by the render before, is untouched. */
	struct sg_scene *scene = sg_scene_create();
	struct sg_renderer *renderer = renderer_new();
	square_add(scene, sg_scene_root(scene), 8, 8, 24, red);
	square_add(scene, sg_scene_root(scene), 24, 20, 32, green);
	ck_assert_int_eq(sg_renderer_set_clear_color(renderer, 0, 0, 1, 1), SG_OK);
	ck_assert_int_eq(sg_renderer_render(renderer, scene, NULL), SG_OK);
	uint8_t before[SIDE * SIDE * 4], texture[SIDE * SIDE * 4], after[SIDE * SIDE * 4];
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, before, 0), SG_OK);
	ck_assert_int_eq(sg_renderer_set_clear_color(renderer, 1, 1, 0, 1), SG_OK);
	memset(texture, 0x55, sizeof(texture));
	ck_assert_msg(sg_renderer_draw_offscreen_for_testing(renderer, scene, texture) == SG_OK,
	              "%s", sg_last_error());
	static const float yellow[3] = {1, 1, 0};
	for (int y = 0; y < SIDE; y++)
		for (int x = 0; x < SIDE; x++) {
			bool in_green = x >= 24 && x < 56 && y >= 20 && y < 52;
			bool in_red = x >= 8 && x < 32 && y >= 8 && y < 32;
			expect_rgb(texture, x, y, in_green ? green : in_red ? red : yellow);
			expect(texture[((size_t)y * SIDE + (size_t)x) * 4 + 3] == 255,
			       "(%d, %d) is not opaque", x, y);
		}
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, after, 0), SG_OK);
	ck_assert_msg(memcmp(before, after, sizeof(before)) == 0,
	              "the frame's buffer changed at byte %zu",
	              first_difference(before, after, sizeof(before)));
	expect_rgb(after, 60, 2, blue);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_executor_refuses_a_wrong_plan)
{
	/* Checked before any GL: a 2D pass asking for depth order, a view pass
	 * for painter's order, and a kind that does not exist. */
	static struct sg_gl_drawer gl;
	struct sg_frame_context context = {.gl = &gl};
	struct sg_draw_list list = {0};
	const struct sg_pass wrong[] = {
	    {.kind = SG_PASS_2D, .sort = SG_SORT_DEPTH},
	    {.kind = SG_PASS_VIEW3D, .sort = SG_SORT_PAINTER},
	    {.kind = (enum sg_pass_kind)7, .sort = SG_SORT_NONE},
	};
	const char *says[] = {"a pass of kind 0 cannot draw in order 2",
	                      "a pass of kind 1 cannot draw in order 1", "unknown pass kind 7"};
	for (size_t i = 0; i < sizeof(wrong) / sizeof(wrong[0]); i++) {
		struct sg_frame_plan plan = {.list = &list};
		ck_assert_int_eq(sg_frame_plan_add(&plan, &wrong[i]), SG_OK);
		ck_assert_int_eq(sg_frame_execute(&plan, &context, NULL), SG_ERR_INVALID_ARGUMENT);
		ck_assert_str_eq(sg_last_error(), says[i]);
		sg_frame_plan_finish(&plan);
	}
}
END_TEST

void render_frame_tests(TCase *tc)
{
	tcase_add_test(tc, test_plan_of_2d_alone_is_one_pass);
	tcase_add_test(tc, test_plan_of_2d_view_2d_is_three_passes);
	tcase_add_test(tc, test_plan_of_empty_frame_still_clears);
	tcase_add_test(tc, test_plan_follows_damage);
	tcase_add_test(tc, test_pass_into_offscreen_texture);
	tcase_add_test(tc, test_executor_refuses_a_wrong_plan);
}
