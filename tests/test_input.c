/* The input layer on the host (src/input/): where panel points land in a
 * turned picture, worked out from each rotation's description (which
 * corner of the panel shows which corner of the picture), picks at an
 * event's point, and sg_input_create's refusals. The devices themselves
 * (uinput, libinput, udev) are tested in the drm guest: tests/drm/test_input.c.
 * Without libinput, the same suite checks that the stub refuses. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <sg/sg.h>

#include "check_run.h"

#define W 300
#define H 200

struct corner {
	double u, v; /* a point of the panel, normalised */
	double x, y; /* where it is in the W x H picture */
};

/* For each rotation, two panel corners and an inner point. Read off the
 * header's words: 90 puts the picture's top edge along the panel's right
 * edge, 270 along its left edge, FLIPPED mirrors the picture first. */
static const struct {
	enum sg_rotation rotation;
	struct corner points[3];
} cases[] = {
    {SG_ROTATION_0, {{0, 0, 0, 0}, {1, 0, W, 0}, {0.25, 0.8, 75, 160}}},
    /* the panel's top-right corner shows the picture's top-left, its
     * top-left the picture's bottom-left */
    {SG_ROTATION_90, {{1, 0, 0, 0}, {0, 0, 0, H}, {0.25, 0.8, 0.8 * W, 0.75 * H}}},
    {SG_ROTATION_180, {{0, 0, W, H}, {1, 1, 0, 0}, {0.25, 0.8, 0.75 * W, 0.2 * H}}},
    /* the panel's bottom-left shows the picture's top-left, its top-left
     * the picture's top-right */
    {SG_ROTATION_270, {{0, 1, 0, 0}, {0, 0, W, 0}, {0.25, 0.8, 0.2 * W, 0.25 * H}}},
    /* a mirror: the panel's top-left shows the picture's top-right */
    {SG_ROTATION_FLIPPED_0, {{0, 0, W, 0}, {1, 1, 0, H}, {0.25, 0.8, 0.75 * W, 0.8 * H}}},
    /* mirrored, then turned as 90: the picture's top-left went to the
     * mirror's top-right, then to the panel's bottom-right */
    {SG_ROTATION_FLIPPED_90, {{1, 1, 0, 0}, {1, 0, W, 0}, {0.25, 0.8, 0.2 * W, 0.75 * H}}},
    /* mirrored and turned over: upside down only */
    {SG_ROTATION_FLIPPED_180, {{0, 0, 0, H}, {1, 0, W, H}, {0.25, 0.8, 0.25 * W, 0.2 * H}}},
    /* mirrored, then turned as 270: the picture's rows run down the panel */
    {SG_ROTATION_FLIPPED_270, {{0, 0, 0, 0}, {1, 0, 0, H}, {0.25, 0.8, 0.8 * W, 0.25 * H}}},
};

START_TEST(test_rotation_points)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (int p = 0; p < 3; p++) {
			const struct corner *c = &cases[i].points[p];
			double x = -1, y = -1;
			ck_assert_int_eq(sg_rotation_point(cases[i].rotation, W, H, c->u, c->v, &x, &y),
			                 SG_OK);
			ck_assert_msg(fabs(x - c->x) < 1e-9 && fabs(y - c->y) < 1e-9,
			              "rotation %d: panel (%g, %g) gave (%g, %g), expected (%g, %g)",
			              (int)cases[i].rotation, c->u, c->v, x, y, c->x, c->y);
		}
	double x, y;
	ck_assert_int_eq(sg_rotation_point((enum sg_rotation)8, W, H, 0, 0, &x, &y),
	                 SG_ERR_INVALID_ARGUMENT);
	ck_assert_int_eq(sg_rotation_point(SG_ROTATION_0, 0, H, 0, 0, &x, &y),
	                 SG_ERR_INVALID_ARGUMENT);
	ck_assert_int_eq(sg_rotation_point(SG_ROTATION_0, W, H, 0, 0, NULL, &y),
	                 SG_ERR_INVALID_ARGUMENT);
}
END_TEST

/* A 100 x 100 quad at (50, 50): a touch at its middle picks it; a key, a
 * touch up and a point beside it do not. */
START_TEST(test_pick_events)
{
	struct sg_scene *scene = sg_scene_create();
	sg_node quad = sg_node_new_model(
	    scene, &(struct sg_model_desc){.name = "quad",
	                                   .mesh = sg_mesh_create_quad(scene, 100, 100),
	                                   .position = {50, 50, 0}});
	sg_node_add_child(scene, sg_scene_root(scene), quad);
	struct sg_pick_hit hit;
	struct sg_input_event event = {.kind = SG_INPUT_TOUCH_DOWN, .x = 100, .y = 100};
	ck_assert_int_eq(sg_input_pick(scene, NULL, 200, 200, &event, &hit), SG_OK);
	ck_assert_str_eq(sg_node_get_name(scene, hit.node), "quad");
	event.kind = SG_INPUT_POINTER_BUTTON;
	ck_assert_int_eq(sg_input_pick(scene, NULL, 200, 200, &event, &hit), SG_OK);
	event.x = 20;
	ck_assert_int_eq(sg_input_pick(scene, NULL, 200, 200, &event, &hit), SG_ERR_NOT_FOUND);
	event = (struct sg_input_event){.kind = SG_INPUT_KEY, .x = 100, .y = 100};
	ck_assert_int_eq(sg_input_pick(scene, NULL, 200, 200, &event, &hit), SG_ERR_NOT_FOUND);
	ck_assert_msg(strstr(sg_last_error(), "key event has no point"), "%s", sg_last_error());
	event.kind = SG_INPUT_TOUCH_UP;
	ck_assert_int_eq(sg_input_pick(scene, NULL, 200, 200, &event, &hit), SG_ERR_NOT_FOUND);
	ck_assert_int_eq(sg_input_pick(scene, NULL, 200, 200, NULL, &hit), SG_ERR_INVALID_ARGUMENT);
	sg_scene_destroy(scene);
}
END_TEST

/* A touch over a 3D view picks the 3D model drawn there (cube3d.json: the
 * box left of the middle, the ball right of it, in a 320 x 240 picture). */
START_TEST(test_pick_in_a_3d_view)
{
	struct sg_scene_file *file = NULL;
	ck_assert_msg(sg_scene_file_load(SG_SOURCE_DIR "/scenes/cube3d.json", &file) == SG_OK, "%s",
	              sg_last_error());
	struct sg_scene *scene = sg_scene_file_get_scene(file);
	struct sg_pick_hit hit;
	struct sg_input_event event = {.kind = SG_INPUT_TOUCH_DOWN, .x = 120, .y = 130};
	ck_assert_msg(sg_input_pick(scene, NULL, 320, 240, &event, &hit) == SG_OK, "%s",
	              sg_last_error());
	ck_assert_str_eq(sg_node_get_name(scene, hit.node), "Box model");
	event.x = 215, event.y = 125;
	ck_assert_msg(sg_input_pick(scene, NULL, 320, 240, &event, &hit) == SG_OK, "%s",
	              sg_last_error());
	ck_assert_str_eq(sg_node_get_name(scene, hit.node), "Ball model");
	sg_scene_file_destroy(file);
}
END_TEST

static void refused(const struct sg_input_desc *desc, sg_result expected, const char *part)
{
	ck_assert_ptr_null(sg_input_create(desc));
	ck_assert_int_eq(sg_last_result(), expected);
	ck_assert_msg(strstr(sg_last_error(), part), "'%s' lacks '%s'", sg_last_error(), part);
}

#ifndef SG_INPUT_STUB_TEST
START_TEST(test_create_refusals)
{
	refused(NULL, SG_ERR_INVALID_ARGUMENT, "desc is NULL");
	refused(&(struct sg_input_desc){.width = 0, .height = 10}, SG_ERR_INVALID_ARGUMENT,
	        "got 0x10");
	refused(&(struct sg_input_desc){.width = 10, .height = 10, .rotation = (enum sg_rotation)9},
	        SG_ERR_INVALID_ARGUMENT, "rotation 9");
	refused(&(struct sg_input_desc){.width = 10, .height = 10, .device_count = 2},
	        SG_ERR_INVALID_ARGUMENT, "device_count 2 and no devices");
	const char *missing[] = {"/nonexistent/event0"};
	refused(&(struct sg_input_desc){.devices = missing, .device_count = 1, .width = 1,
	                                .height = 1},
	        SG_ERR_DEVICE, "cannot open /nonexistent/event0: No such file or directory");
	const char *file[] = {SG_SOURCE_DIR "/meson.build"};
	refused(&(struct sg_input_desc){.devices = file, .device_count = 1, .width = 1, .height = 1},
	        SG_ERR_DEVICE, "meson.build is not a device node");
	const char *null_path[] = {NULL};
	refused(&(struct sg_input_desc){.devices = null_path, .device_count = 1, .width = 1,
	                                .height = 1},
	        SG_ERR_INVALID_ARGUMENT, "devices[0] is NULL");
	/* No device is on a seat of this name, here or anywhere. */
	refused(&(struct sg_input_desc){.seat = "sg-test-no-such-seat", .width = 1, .height = 1},
	        SG_ERR_NOT_FOUND, "seat 'sg-test-no-such-seat'");
	refused(&(struct sg_input_desc){.width = 1, .height = 1, .keymap = {.layout = "zz-none"}},
	        SG_ERR_FORMAT, "layout 'zz-none'");
}
END_TEST

/* allow_no_devices: an input with nothing to read yet, its fd pollable, its
 * area changed, dispatch quiet. */
START_TEST(test_no_devices_yet)
{
	struct sg_input *input = sg_input_create(&(struct sg_input_desc){
	    .seat = "sg-test-no-such-seat", .allow_no_devices = true, .width = 64, .height = 48});
	ck_assert_msg(input, "%s", sg_last_error());
	const struct sg_input_info *info = sg_input_get_info(input);
	ck_assert_str_eq(info->seat, "sg-test-no-such-seat");
	ck_assert_uint_eq(info->device_count, 0);
	ck_assert_int_ge(sg_input_get_fd(input), 0);
	ck_assert_int_eq(sg_input_dispatch(input), SG_OK);
	ck_assert_int_eq(sg_input_set_area(input, 48, 64, SG_ROTATION_270), SG_OK);
	ck_assert_int_eq(sg_input_set_area(input, 48, 0, SG_ROTATION_270), SG_ERR_INVALID_ARGUMENT);
	sg_input_destroy(input);
	sg_input_destroy(NULL);
}
END_TEST
#else
START_TEST(test_stub_refuses)
{
	refused(&(struct sg_input_desc){.width = 1, .height = 1}, SG_ERR_UNSUPPORTED,
	        "without libinput");
	ck_assert_int_eq(sg_input_dispatch(NULL), SG_ERR_UNSUPPORTED);
	ck_assert_int_eq(sg_input_get_fd(NULL), -1);
}
END_TEST
#endif

int main(void)
{
	Suite *suite = suite_create("input");
	TCase *tc = tcase_create("input");
	tcase_add_test(tc, test_rotation_points);
	tcase_add_test(tc, test_pick_events);
	tcase_add_test(tc, test_pick_in_a_3d_view);
#ifndef SG_INPUT_STUB_TEST
	tcase_add_test(tc, test_create_refusals);
	tcase_add_test(tc, test_no_devices_yet);
#else
	tcase_add_test(tc, test_stub_refuses);
#endif
	suite_add_tcase(suite, tc);
	return check_run(suite);
}
