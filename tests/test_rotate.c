/* A rotated output's frames (the renderer's rotation, src/render/buffer.h):
 * each scene rendered turned into a buffer of the panel's size must equal
 * the same scene rendered upright with each pixel moved where the rotation
 * puts it. The moves are written here as integer formulas from each
 * rotation's description in sg/types.h, not from libsg's matrices. Scenes:
 * the kiosk cards (shapes, shadows, text) inside a rounded clip, and the lit
 * 3D view of cube3d.json; then an edit repainted by damage tracking. On the
 * surfaceless target. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sg/sg.h>

#include "../src/base/rotation.h"
#include "../src/render/buffer.h"
#include "check_run.h"
#include "rotation_moves.h"

#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

/* Under valgrind (about 25 s a rotation) one: a quarter turn that mirrors. */
static bool skipped(enum sg_rotation rotation)
{
	return RUNNING_ON_VALGRIND && rotation != SG_ROTATION_FLIPPED_90;
}

struct pair {
	struct sg_renderer *upright, *turned;
	int w, h, bw, bh;
	enum sg_rotation rotation;
	uint8_t *expected, *got;
};

static void pair_init(struct pair *p, int w, int h, enum sg_rotation rotation,
                      const float clear[4])
{
	bool quarter = rotation == SG_ROTATION_90 || rotation == SG_ROTATION_270 ||
	               rotation == SG_ROTATION_FLIPPED_90 || rotation == SG_ROTATION_FLIPPED_270;
	*p = (struct pair){.w = w, .h = h, .bw = quarter ? h : w, .bh = quarter ? w : h,
	                   .rotation = rotation};
	p->upright = sg_renderer_create(&(struct sg_renderer_desc){
	    .width = w, .height = h, .target = SG_TARGET_SURFACELESS});
	p->turned = sg_renderer_create(&(struct sg_renderer_desc){
	    .width = p->bw, .height = p->bh, .target = SG_TARGET_SURFACELESS});
	ck_assert_msg(p->upright && p->turned, "%s", sg_last_error());
	ck_assert_int_eq(sg_renderer_set_rotation(p->turned, rotation), SG_OK);
	for (int i = 0; i < 2; i++)
		sg_renderer_set_clear_color(i ? p->turned : p->upright, clear[0], clear[1], clear[2],
		                            clear[3]);
	p->expected = malloc((size_t)w * h * 4);
	p->got = malloc((size_t)w * h * 4);
}

static void pair_finish(struct pair *p)
{
	sg_renderer_destroy(p->upright);
	sg_renderer_destroy(p->turned);
	free(p->expected);
	free(p->got);
}

/* Renders scene both ways (the pixel camera of the picture for both) and
 * counts the pixels of the turned buffer that differ from the upright one's
 * moved there by more than 2 in a channel. */
static int render_and_compare(struct pair *p, struct sg_scene *scene, const char *what)
{
	ck_assert_msg(sg_renderer_render(p->upright, scene, NULL) == SG_OK, "%s", sg_last_error());
	ck_assert_msg(sg_renderer_render(p->turned, scene, NULL) == SG_OK, "%s", sg_last_error());
	ck_assert_int_eq(sg_renderer_read_pixels(p->upright, p->expected, 0), SG_OK);
	ck_assert_int_eq(sg_renderer_read_pixels(p->turned, p->got, 0), SG_OK);
	int first_x, first_y;
	int differ = rotation_count_differing(p->rotation, p->expected, p->w, p->h, p->got, 2,
	                                      &first_x, &first_y);
	if (differ)
		printf("%s, rotation %d: %d of %d pixels differ, first at picture (%d, %d)\n", what,
		       (int)p->rotation, differ, p->w * p->h, first_x, first_y);
	return differ;
}

static struct sg_scene_file *load(const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/scenes/%s", SG_SOURCE_DIR, name);
	struct sg_scene_file *file = NULL;
	ck_assert_msg(sg_scene_file_load(path, &file) == SG_OK, "%s", sg_last_error());
	return file;
}

/* The cards of cards.json moved into a clip with rounded corners that cuts
 * through them, so that the clip's window-pixel maps are turned too. */
static void clip_the_cards(struct sg_scene *scene)
{
	sg_node cards = sg_node_find(scene, sg_scene_root(scene), "Cards");
	ck_assert(sg_node_exists(scene, cards));
	sg_node clip = sg_node_new_clip(
	    scene, &(struct sg_clip_desc){.x = 50, .y = 120, .width = 430, .height = 170, .radius = 24});
	ck_assert_int_eq(sg_node_remove(scene, cards), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, clip, cards), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), clip), SG_OK);
}

static const enum sg_rotation all[] = {
    SG_ROTATION_0,         SG_ROTATION_90,         SG_ROTATION_180,         SG_ROTATION_270,
    SG_ROTATION_FLIPPED_0, SG_ROTATION_FLIPPED_90, SG_ROTATION_FLIPPED_180, SG_ROTATION_FLIPPED_270};

/* The pair of renderers for a scene file's size and background. */
static void pair_for(struct pair *p, const struct sg_scene_file *file, enum sg_rotation rotation)
{
	int w, h;
	float clear[4];
	sg_scene_file_get_size(file, &w, &h);
	sg_scene_file_get_background(file, clear);
	pair_init(p, w, h, rotation, clear);
}

START_TEST(test_cards_in_a_clip)
{
	if (skipped(all[_i]))
		return;
	struct sg_scene_file *file = load("cards.json");
	struct sg_scene *scene = sg_scene_file_get_scene(file);
	clip_the_cards(scene);
	struct pair p;
	pair_for(&p, file, all[_i]);
	ck_assert_int_eq(render_and_compare(&p, scene, "cards"), 0);
	/* An edit: damage tracking repaints a part of the turned buffer. */
	sg_node badge = sg_node_find(scene, sg_scene_root(scene), "Badge");
	ck_assert_int_eq(sg_node_set_visible(scene, badge, false), SG_OK);
	ck_assert_int_eq(render_and_compare(&p, scene, "cards, badge hidden"), 0);
	struct sg_rect damage[4];
	int count = sg_renderer_get_damage(p.turned, damage, 4);
	ck_assert_int_eq(count, 1);
	/* The badge's 36 x 36 box at (580, 14), moved: smaller than the buffer. */
	ck_assert_int_lt(damage[0].width * damage[0].height, p.bw * p.bh / 10);
	pair_finish(&p);
	sg_scene_file_destroy(file);
}
END_TEST

/* cube3d.json's view moved to an off-centre, oblong part of the picture
 * (its viewport is turned into the buffer), and its box given a normal
 * texture without tangents (the shader derives them from screen derivatives,
 * whose handedness a mirror flips). */
static void partial_view_with_a_normal_texture(struct sg_scene *scene)
{
	sg_node view = sg_node_find(scene, sg_scene_root(scene), "View");
	ck_assert(sg_node_exists(scene, view));
	struct sg_camera camera;
	sg_camera_init_perspective(&camera, 40.0f * 3.14159265f / 180.0f, 180.0f / 100.0f, 0.1f,
	                           50.0f);
	sg_camera_look_at(&camera, (const float[3]){2.6f, 2.2f, 4.2f}, (const float[3]){0, 0, 0},
	                  (const float[3]){0, 1, 0});
	ck_assert_int_eq(sg_view3d_set(scene, view,
	                               &(struct sg_view3d_desc){.camera = &camera,
	                                                        .viewport = {30, 20, 180, 100},
	                                                        .ambient = {0.06f, 0.06f, 0.08f}}),
	                 SG_OK);
	/* Four tilts, one per texel, so that a turned or mirrored frame shows. */
	static const uint8_t tilts[16] = {200, 128, 220, 255, 128, 200, 220, 255,
	                                  60,  128, 220, 255, 128, 60,  220, 255};
	sg_texture normals = sg_texture_create(scene, &(struct sg_texture_desc){
	                                                  .width = 2, .height = 2, .pixels = tilts});
	ck_assert_msg(normals.generation, "%s", sg_last_error());
	struct sg_material_desc desc;
	sg_material_desc_init(&desc);
	desc.base_color[0] = 0.75f, desc.base_color[1] = 0.22f, desc.base_color[2] = 0.17f;
	desc.roughness = 0.6f;
	desc.normal_texture.texture = normals;
	sg_material material = sg_material_create(scene, &desc);
	ck_assert_msg(material.generation, "%s", sg_last_error());
	sg_node box = sg_node_find(scene, sg_scene_root(scene), "Box model");
	ck_assert_int_eq(sg_model_set_material(scene, box, material), SG_OK);
}

START_TEST(test_cube_view)
{
	if (skipped(all[_i]))
		return;
	struct sg_scene_file *file = load("cube3d.json");
	struct sg_scene *scene = sg_scene_file_get_scene(file);
	partial_view_with_a_normal_texture(scene);
	struct pair p;
	pair_for(&p, file, all[_i]);
	ck_assert_int_eq(render_and_compare(&p, scene, "cube3d"), 0);
	pair_finish(&p);
	sg_scene_file_destroy(file);
}
END_TEST

/* One turn after another is the rotation whose moves are the two moves. */
START_TEST(test_rotation_then)
{
	const int w = 5, h = 3;
	for (int a = 0; a < 8; a++)
		for (int b = 0; b < 8; b++) {
			enum sg_rotation both = sg_rotation_then(all[a], all[b]);
			for (int y = 0; y < h; y++)
				for (int x = 0; x < w; x++) {
					int ax, ay, bx, by, cx, cy;
					rotation_move(all[a], w, h, x, y, &ax, &ay);
					bool quarter = all[a] & 1;
					rotation_move(all[b], quarter ? h : w, quarter ? w : h, ax, ay, &bx, &by);
					rotation_move(both, w, h, x, y, &cx, &cy);
					ck_assert_msg(bx == cx && by == cy, "%d then %d gave %d", a, b, (int)both);
				}
		}
}
END_TEST

START_TEST(test_bad_rotation)
{
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
	    .width = 8, .height = 8, .target = SG_TARGET_SURFACELESS});
	ck_assert_int_eq(sg_renderer_set_rotation(renderer, (enum sg_rotation)8),
	                 SG_ERR_INVALID_ARGUMENT);
	sg_renderer_destroy(renderer);
}
END_TEST

int main(void)
{
	Suite *suite = suite_create("rotate");
	TCase *tc = tcase_create("rotate");
	int n = (int)(sizeof(all) / sizeof(all[0]));
	tcase_add_loop_test(tc, test_cards_in_a_clip, 0, n);
	tcase_add_loop_test(tc, test_cube_view, 0, n);
	tcase_add_test(tc, test_rotation_then);
	tcase_add_test(tc, test_bad_rotation);
	suite_add_tcase(suite, tc);
	return check_run(suite);
}
