/* sg_input against kernel input devices made with uinput in the guest
 * (run-in-vm.sh runs it with systemd-udevd, SG_DRM_INPUT=1): a touchscreen
 * and a keyboard, events injected and read back through libinput, in the
 * picture's pixels before and after a rotation, picks of the touched model,
 * keys through the keymap, calibration, the path backend, devices plugged
 * and unplugged, and the errors' messages. Expected positions come from the
 * geometry of the test's own device ranges, worked out in the comments. */
#include <linux/uinput.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drm_test.h"
#include "uinput_devices.h"

#define TOUCH_X_MAX UINPUT_TOUCH_X_MAX
#define TOUCH_Y_MAX UINPUT_TOUCH_Y_MAX

/* The picture the tests pick in: 400 x 300, two models side by side. */
#define WIDTH 400
#define HEIGHT 300

static struct uinput_device make_touchscreen(void)
{
	struct uinput_device device;
	char error[256];
	ck_assert_msg(uinput_make_touchscreen(&device, error, sizeof(error)), "%s", error);
	return device;
}

static struct uinput_device make_keyboard(void)
{
	struct uinput_device device;
	char error[256];
	ck_assert_msg(uinput_make_keyboard(&device, error, sizeof(error)), "%s", error);
	return device;
}

static void destroy_device(struct uinput_device *device)
{
	uinput_destroy(device);
}

static void touch_down(const struct uinput_device *device, int x, int y)
{
	ck_assert(uinput_touch_down(device, x, y));
}

static void touch_up(const struct uinput_device *device)
{
	ck_assert(uinput_touch_up(device));
}

static void key(const struct uinput_device *device, int code, int pressed)
{
	ck_assert(uinput_key(device, code, pressed));
}

/* What the callback saw. */
struct seen {
	struct sg_input_event events[32];
	int count;
};

static void on_event(struct sg_input *input, const struct sg_input_event *event, void *data)
{
	(void)input;
	struct seen *seen = data;
	if (seen->count < 32)
		seen->events[seen->count++] = *event;
}

/* Dispatches until count events have arrived (or 5 s pass). */
static void wait_events(struct sg_input *input, struct seen *seen, int count)
{
	for (int round = 0; round < 50 && seen->count < count; round++) {
		struct pollfd pfd = {.fd = sg_input_get_fd(input), .events = POLLIN};
		poll(&pfd, 1, 100);
		ck_assert_msg(sg_input_dispatch(input) == SG_OK, "%s", sg_last_error());
	}
	ck_assert_msg(seen->count >= count, "%d events arrived, %d expected", seen->count, count);
}

/* Two models side by side: "left" over x < 200, "right" over x >= 200, each
 * the picture's full height; the picture is WIDTH x HEIGHT, or HEIGHT x
 * WIDTH when turned (then each model is 150 wide and 400 high). */
static struct sg_scene *two_halves(int width, int height)
{
	struct sg_scene *scene = sg_scene_create();
	sg_mesh half = sg_mesh_create_quad(scene, (float)width / 2, (float)height);
	sg_node left = sg_node_new_model(scene, &(struct sg_model_desc){.name = "left", .mesh = half});
	sg_node right = sg_node_new_model(
	    scene, &(struct sg_model_desc){
	               .name = "right", .mesh = half, .position = {(float)width / 2, 0, 0}});
	sg_node_add_child(scene, sg_scene_root(scene), left);
	sg_node_add_child(scene, sg_scene_root(scene), right);
	return scene;
}

/* The name of the model under event's point. */
static const char *picked(struct sg_scene *scene, int width, int height,
                          const struct sg_input_event *event)
{
	struct sg_pick_hit hit;
	sg_result result = sg_input_pick(scene, NULL, width, height, event, &hit);
	ck_assert_msg(result == SG_OK, "%s", sg_last_error());
	return sg_node_get_name(scene, hit.node);
}

#define ck_assert_near(a, b)                                                                  \
	ck_assert_msg(fabs((a) - (b)) < 1e-6, "%s = %.9f, expected %.9f", #a, (double)(a),       \
	              (double)(b))

START_TEST(test_touch_and_pick)
{
	struct uinput_device screen = make_touchscreen();
	struct seen seen = {0};
	struct sg_input *input = sg_input_create(&(struct sg_input_desc){
	    .width = WIDTH, .height = HEIGHT, .on_event = on_event, .user_data = &seen});
	ck_assert_msg(input, "%s", sg_last_error());
	const struct sg_input_info *info = sg_input_get_info(input);
	printf("input: seat %s, %zu devices (%zu touchscreens)\n", info->seat, info->device_count,
	       info->touchscreens);
	ck_assert_str_eq(info->seat, "seat0");
	ck_assert_uint_ge(info->touchscreens, 1);

	struct sg_scene *scene = two_halves(WIDTH, HEIGHT);
	/* Raw (250, 600): a quarter across, 600/750 = 0.8 down: (100, 240) in
	 * the 400 x 300 picture, over the left model. */
	touch_down(&screen, 250, 600);
	wait_events(input, &seen, 1);
	ck_assert_int_eq(seen.events[0].kind, SG_INPUT_TOUCH_DOWN);
	ck_assert_near(seen.events[0].x, 100.0);
	ck_assert_near(seen.events[0].y, 240.0);
	ck_assert_str_eq(picked(scene, WIDTH, HEIGHT, &seen.events[0]), "left");
	touch_up(&screen);
	wait_events(input, &seen, 2);
	ck_assert_int_eq(seen.events[1].kind, SG_INPUT_TOUCH_UP);
	ck_assert_near(seen.events[1].x, 100.0); /* where it last was */
	struct sg_pick_hit hit;
	ck_assert_int_eq(sg_input_pick(scene, NULL, WIDTH, HEIGHT, &seen.events[1], &hit),
	                 SG_ERR_NOT_FOUND);
	sg_scene_destroy(scene);

	/* The panel turned: the picture is 300 x 400 with its top edge along
	 * the panel's right edge. The same raw point, a quarter from the
	 * panel's left and 0.8 down it, is 0.8 of the way across the picture
	 * (the panel's top-to-bottom runs left to right in the picture) and
	 * three quarters down it (the panel's left edge is the picture's
	 * bottom): (240, 300), now over the right model (x >= 150). */
	ck_assert_int_eq(sg_input_set_area(input, HEIGHT, WIDTH, SG_ROTATION_90), SG_OK);
	scene = two_halves(HEIGHT, WIDTH);
	seen.count = 0;
	touch_down(&screen, 250, 600);
	wait_events(input, &seen, 1);
	ck_assert_near(seen.events[0].x, 240.0);
	ck_assert_near(seen.events[0].y, 300.0);
	ck_assert_str_eq(picked(scene, HEIGHT, WIDTH, &seen.events[0]), "right");
	touch_up(&screen);
	wait_events(input, &seen, 2);

	/* Upside down (180): (1 - 0.25, 1 - 0.8) of 400 x 300 = (300, 60). */
	ck_assert_int_eq(sg_input_set_area(input, WIDTH, HEIGHT, SG_ROTATION_180), SG_OK);
	seen.count = 0;
	touch_down(&screen, 250, 600);
	wait_events(input, &seen, 1);
	ck_assert_near(seen.events[0].x, 300.0);
	ck_assert_near(seen.events[0].y, 60.0);
	touch_up(&screen);
	wait_events(input, &seen, 2);

	/* A point down when the devices are closed (a session switched away)
	 * is cancelled, by slot, where it was. */
	seen.count = 0;
	touch_down(&screen, 250, 600);
	wait_events(input, &seen, 1);
	ck_assert_int_eq(sg_input_suspend(input), SG_OK);
	ck_assert_int_eq(seen.count, 2);
	ck_assert_int_eq(seen.events[1].kind, SG_INPUT_TOUCH_CANCEL);
	ck_assert_int_eq(seen.events[1].slot, seen.events[0].slot);
	ck_assert_near(seen.events[1].x, 300.0);
	ck_assert_uint_eq(sg_input_get_info(input)->device_count, 0);
	ck_assert_int_eq(sg_input_resume(input), SG_OK);
	ck_assert_uint_ge(sg_input_get_info(input)->touchscreens, 1);
	touch_up(&screen);

	sg_scene_destroy(scene);
	sg_input_destroy(input);
	destroy_device(&screen);
}
END_TEST

/* A calibration that halves both axes (the touch layer covers twice the
 * panel): raw (500, 300) is (0.5, 0.4) of the device, (0.25, 0.2) of the
 * panel, (100, 60) of the picture. Through the path backend, which reads
 * only the listed device. */
START_TEST(test_calibration_and_paths)
{
	struct uinput_device screen = make_touchscreen();
	struct uinput_device keyboard = make_keyboard();
	struct seen seen = {0};
	const char *devices[] = {screen.event_path};
	struct sg_input *input = sg_input_create(&(struct sg_input_desc){
	    .devices = devices,
	    .device_count = 1,
	    .width = WIDTH,
	    .height = HEIGHT,
	    .has_calibration = true,
	    .calibration = {0.5f, 0, 0, 0, 0.5f, 0},
	    .on_event = on_event,
	    .user_data = &seen});
	ck_assert_msg(input, "%s", sg_last_error());
	const struct sg_input_info *info = sg_input_get_info(input);
	ck_assert_str_eq(info->seat, "(devices)");
	ck_assert_uint_eq(info->device_count, 1);
	ck_assert_uint_eq(info->touchscreens, 1);
	ck_assert_uint_eq(info->keyboards, 0);
	touch_down(&screen, 500, 300);
	key(&keyboard, KEY_A, 1); /* not listed: never seen */
	key(&keyboard, KEY_A, 0);
	wait_events(input, &seen, 1);
	ck_assert_int_eq(seen.events[0].kind, SG_INPUT_TOUCH_DOWN);
	ck_assert_near(seen.events[0].x, 100.0);
	ck_assert_near(seen.events[0].y, 60.0);
	touch_up(&screen);
	wait_events(input, &seen, 2);
	usleep(100 * 1000);
	ck_assert_int_eq(sg_input_dispatch(input), SG_OK);
	for (int i = 0; i < seen.count; i++)
		ck_assert_int_ne(seen.events[i].kind, SG_INPUT_KEY);
	sg_input_destroy(input);
	destroy_device(&keyboard);
	destroy_device(&screen);
}
END_TEST

/* Shift + a through the default keymap ("us"): keysym 'A' (0x41), text
 * "A", the shift modifier; then a plain 'a' (0x61). */
START_TEST(test_keys)
{
	struct uinput_device keyboard = make_keyboard();
	struct seen seen = {0};
	struct sg_input *input = sg_input_create(&(struct sg_input_desc){
	    .width = WIDTH, .height = HEIGHT, .on_event = on_event, .user_data = &seen});
	ck_assert_msg(input, "%s", sg_last_error());
	ck_assert_uint_ge(sg_input_get_info(input)->keyboards, 1);
	key(&keyboard, KEY_LEFTSHIFT, 1);
	key(&keyboard, KEY_A, 1);
	key(&keyboard, KEY_A, 0);
	key(&keyboard, KEY_LEFTSHIFT, 0);
	key(&keyboard, KEY_A, 1);
	wait_events(input, &seen, 5);
	const struct sg_input_event *e = seen.events;
	ck_assert_int_eq(e[0].kind, SG_INPUT_KEY);
	ck_assert_uint_eq(e[0].key, KEY_LEFTSHIFT);
	ck_assert(e[0].pressed);
	ck_assert_uint_eq(e[1].key, KEY_A);
	ck_assert(e[1].pressed);
	ck_assert_uint_eq(e[1].keysym, 0x41); /* XKB_KEY_A */
	ck_assert_str_eq(e[1].text, "A");
	ck_assert_uint_eq(e[1].modifiers, SG_MODIFIER_SHIFT);
	ck_assert(!e[2].pressed);
	ck_assert_str_eq(e[2].text, "");
	ck_assert_uint_eq(e[4].keysym, 0x61); /* XKB_KEY_a */
	ck_assert_str_eq(e[4].text, "a");
	ck_assert_uint_eq(e[4].modifiers, 0);
	key(&keyboard, KEY_A, 0);
	sg_input_destroy(input);
	destroy_device(&keyboard);
}
END_TEST

/* A kiosk started before its keyboard: allow_no_devices creates whatever is
 * plugged in; a keyboard plugged in later is added, and dropped when it is
 * unplugged. */
START_TEST(test_hotplug)
{
	struct sg_input *input = sg_input_create(&(struct sg_input_desc){
	    .width = WIDTH, .height = HEIGHT, .allow_no_devices = true});
	ck_assert_msg(input, "%s", sg_last_error());
	size_t keyboards = sg_input_get_info(input)->keyboards;
	struct uinput_device keyboard = make_keyboard();
	for (int round = 0; round < 50 && sg_input_get_info(input)->keyboards == keyboards; round++) {
		struct pollfd pfd = {.fd = sg_input_get_fd(input), .events = POLLIN};
		poll(&pfd, 1, 100);
		ck_assert_int_eq(sg_input_dispatch(input), SG_OK);
	}
	ck_assert_uint_eq(sg_input_get_info(input)->keyboards, keyboards + 1);
	destroy_device(&keyboard);
	for (int round = 0; round < 50 && sg_input_get_info(input)->keyboards > keyboards; round++) {
		struct pollfd pfd = {.fd = sg_input_get_fd(input), .events = POLLIN};
		poll(&pfd, 1, 100);
		ck_assert_int_eq(sg_input_dispatch(input), SG_OK);
	}
	ck_assert_uint_eq(sg_input_get_info(input)->keyboards, keyboards);
	sg_input_destroy(input);
}
END_TEST

static void check_error(const struct sg_input_desc *desc, sg_result expected, const char *part)
{
	ck_assert_ptr_null(sg_input_create(desc));
	ck_assert_int_eq(sg_last_result(), expected);
	ck_assert_msg(strstr(sg_last_error(), part), "'%s' lacks '%s'", sg_last_error(), part);
	printf("expected error: %s\n", sg_last_error());
}

START_TEST(test_errors)
{
	const char *missing[] = {"/dev/input/event999"};
	check_error(&(struct sg_input_desc){.devices = missing, .device_count = 1, .width = 1,
	                                    .height = 1},
	            SG_ERR_DEVICE, "cannot open /dev/input/event999: No such file or directory");
	const char *not_input[] = {"/dev/null"};
	check_error(&(struct sg_input_desc){.devices = not_input, .device_count = 1, .width = 1,
	                                    .height = 1},
	            SG_ERR_DEVICE, "/dev/null");
	check_error(&(struct sg_input_desc){.seat = "seat-nobody", .width = 1, .height = 1},
	            SG_ERR_NOT_FOUND, "seat 'seat-nobody'");
	check_error(&(struct sg_input_desc){.width = 1,
	                                    .height = 1,
	                                    .keymap = {.layout = "no-such-layout"}},
	            SG_ERR_FORMAT, "layout 'no-such-layout'");
}
END_TEST

Suite *input_suite(void)
{
	Suite *suite = suite_create("input");
	TCase *tc = tcase_create("uinput");
	tcase_add_test(tc, test_touch_and_pick);
	tcase_add_test(tc, test_calibration_and_paths);
	tcase_add_test(tc, test_keys);
	tcase_add_test(tc, test_hotplug);
	tcase_add_test(tc, test_errors);
	suite_add_tcase(suite, tc);
	return suite;
}
