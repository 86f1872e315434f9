/* sg_session (libseat through seatd) in the guest, for a kiosk run as an
 * ordinary user: the test starts seatd as root, makes a uinput touchscreen
 * (whose node udev leaves to root and the input group), then a child drops
 * to nobody and, through the session alone, renders three-rects on the card
 * and reads the touchscreen with sg_input, before and after a suspend and
 * resume of the input. A direct open of the node fails for nobody, so the
 * reads prove the seat daemon opened it. The switch of sessions itself (a VT
 * switch) is not driven here: docs/input.md says why. Built with
 * SG_DRM_SESSION, run where SG_DRM_INPUT=1 (udevd running). */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/vt.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <xf86drm.h>
#include <xf86drmMode.h>

#include "drm_test.h"
#include "output_test.h"
#include "three_rects_scene.h"
#include "uinput_devices.h"

#define NOBODY 65534

/* The child's own checks: a message and exit status 1, read by the parent. */
static void check(bool ok, const char *format, ...)
{
	if (ok)
		return;
	va_list args;
	va_start(args, format);
	fprintf(stderr, "test_session child: ");
	vfprintf(stderr, format, args);
	fprintf(stderr, "\n");
	va_end(args);
	_exit(1);
}

struct seen {
	int touches;
	double x, y;
};

static void on_event(struct sg_input *input, const struct sg_input_event *event, void *data)
{
	(void)input;
	struct seen *seen = data;
	if (event->kind == SG_INPUT_TOUCH_DOWN)
		seen->touches++, seen->x = event->x, seen->y = event->y;
}

static void tap_and_wait(struct sg_input *input, const struct uinput_device *screen,
                         struct seen *seen, const char *when)
{
	int before = seen->touches;
	check(uinput_touch_down(screen, 500, 375) && uinput_touch_up(screen), "uinput write");
	for (int round = 0; round < 50 && seen->touches == before; round++) {
		struct pollfd pfd = {.fd = sg_input_get_fd(input), .events = POLLIN};
		poll(&pfd, 1, 100);
		check(sg_input_dispatch(input) == SG_OK, "%s", sg_last_error());
	}
	check(seen->touches == before + 1, "%s: no touch arrived", when);
	/* (500, 375) of 1000 x 750: the middle of a 200 x 100 picture */
	check(seen->x == 100.0 && seen->y == 50.0, "%s: touch at (%g, %g)", when, seen->x, seen->y);
}

/* Runs as nobody: everything through the session. */
static void as_nobody(const struct uinput_device *screen)
{
	check(setgroups(0, NULL) == 0 && setgid(NOBODY) == 0 && setuid(NOBODY) == 0,
	      "dropping to nobody: %s", strerror(errno));
	int direct = open(screen->event_path, O_RDWR);
	check(direct < 0 && errno == EACCES, "nobody opened %s directly (%s): the test proves nothing",
	      screen->event_path, direct < 0 ? strerror(errno) : "it worked");

	struct sg_session *session = sg_session_open(&(struct sg_session_desc){0});
	check(session, "sg_session_open: %s", sg_last_error());
	check(sg_session_is_active(session), "the session is not active");
	check(strcmp(sg_session_get_seat_name(session), "seat0") == 0, "seat %s",
	      sg_session_get_seat_name(session));
	printf("session: seat %s active as uid %d\n", sg_session_get_seat_name(session),
	       (int)getuid());

	/* The card, opened by seatd, drives a GBM renderer. */
	int card = sg_session_open_device(session, "/dev/dri/card0");
	check(card >= 0, "%s", sg_last_error());
	static uint8_t rgba[IMAGE_BYTES];
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
	    .width = IMAGE_SIZE, .height = IMAGE_SIZE, .target = SG_TARGET_GBM, .has_drm_fd = true,
	    .drm_fd = card, .ignore_environment = true});
	check(renderer, "a renderer on the session's card: %s", sg_last_error());
	struct sg_scene *scene = three_rects_build();
	struct sg_camera camera;
	sg_camera_init_pixels(&camera, IMAGE_SIZE, IMAGE_SIZE);
	check(sg_renderer_render(renderer, scene, &camera) == SG_OK &&
	          sg_renderer_read_pixels(renderer, rgba, 0) == SG_OK,
	      "%s", sg_last_error());
	/* red at (2, 2) and blue at (30, 30), as check_three_rects_content has them */
	const uint8_t *red = rgba + (2 * IMAGE_SIZE + 2) * 4, *blue = rgba + (30 * IMAGE_SIZE + 30) * 4;
	check(red[0] == 255 && red[1] == 0 && red[2] == 0, "no red at (2, 2)");
	check(blue[0] == 0 && blue[1] == 0 && blue[2] == 255, "no blue at (30, 30)");
	sg_scene_destroy(scene);
	sg_renderer_destroy(renderer);

	/* The touchscreen, opened by seatd: the listed node, then the whole seat. */
	struct seen seen = {0};
	const char *devices[] = {screen->event_path};
	struct sg_input *input = sg_input_create(&(struct sg_input_desc){
	    .session = session, .devices = devices, .device_count = 1, .width = 200, .height = 100,
	    .on_event = on_event, .user_data = &seen});
	check(input, "sg_input_create through the session: %s", sg_last_error());
	tap_and_wait(input, screen, &seen, "first tap");
	check(sg_input_suspend(input) == SG_OK, "%s", sg_last_error());
	check(sg_input_get_info(input)->device_count == 0, "devices left after suspend");
	check(sg_input_resume(input) == SG_OK, "%s", sg_last_error());
	check(sg_input_get_info(input)->device_count == 1, "%zu devices after resume",
	      sg_input_get_info(input)->device_count);
	tap_and_wait(input, screen, &seen, "after resume");
	sg_input_destroy(input);
	input = sg_input_create(&(struct sg_input_desc){
	    .session = session, .width = 200, .height = 100, .on_event = on_event, .user_data = &seen});
	check(input, "sg_input_create on the session's seat: %s", sg_last_error());
	check(sg_input_get_info(input)->touchscreens >= 1, "no touchscreen on the seat");
	check(strcmp(sg_input_get_info(input)->seat, "seat0") == 0, "seat %s",
	      sg_input_get_info(input)->seat);
	tap_and_wait(input, screen, &seen, "seat backend");
	sg_input_destroy(input);

	check(sg_session_close_device(session, card) == SG_OK, "%s", sg_last_error());
	check(sg_session_close_device(session, card) == SG_ERR_NOT_FOUND, "closed twice");
	sg_session_close(session);
	_exit(0);
}

/* seatd as root, its socket for nobody: its pid once it says it is ready. */
static pid_t start_seatd(void)
{
	int ready[2];
	ck_assert_int_eq(pipe(ready), 0);
	pid_t seatd = fork();
	if (seatd == 0) {
		close(ready[0]);
		char fd[16];
		snprintf(fd, sizeof(fd), "%d", ready[1]);
		execlp("seatd", "seatd", "-u", "nobody", "-l", "error", "-n", fd, (char *)NULL);
		_exit(127);
	}
	close(ready[1]);
	char byte;
	ck_assert_msg(read(ready[0], &byte, 1) == 1, "seatd did not start (is it installed?)");
	close(ready[0]);
	return seatd;
}

START_TEST(test_kiosk_as_nobody)
{
	struct uinput_device screen;
	char error[256];
	ck_assert_msg(uinput_make_touchscreen(&screen, error, sizeof(error)), "%s", error);
	pid_t seatd = start_seatd();
	pid_t child = fork();
	if (child == 0) {
		setenv("LIBSEAT_BACKEND", "seatd", 1);
		as_nobody(&screen);
	}
	int status = 0;
	waitpid(child, &status, 0);
	kill(seatd, SIGTERM);
	waitpid(seatd, NULL, 0);
	uinput_destroy(&screen);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	              "the child as nobody failed (status 0x%x): its message is above", status);
}
END_TEST

/* No seat daemon and not root: a clear refusal naming the backend. */
START_TEST(test_no_seat_daemon)
{
	pid_t child = fork();
	if (child == 0) {
		check(setgroups(0, NULL) == 0 && setgid(NOBODY) == 0 && setuid(NOBODY) == 0,
		      "dropping to nobody: %s", strerror(errno));
		setenv("LIBSEAT_BACKEND", "seatd", 1);
		struct sg_session *session = sg_session_open(&(struct sg_session_desc){0});
		check(!session && sg_last_result() == SG_ERR_DEVICE, "opened without seatd");
		check(strstr(sg_last_error(), "backend seatd") != NULL, "%s", sg_last_error());
		printf("expected error: %s\n", sg_last_error());
		_exit(0);
	}
	int status = 0;
	waitpid(child, &status, 0);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status 0x%x", status);
}
END_TEST

/* A real switch of sessions on virtio-gpu: seatd's seat0 is bound to the
 * guest's VTs. The kiosk side (a child as nobody) presents through an output
 * on the card its session opened, asks to switch to VT 2 (as Ctrl+Alt+F2
 * would), pauses in on_change(false) and finds presents refused; meanwhile
 * the parent (root) sees the switch done and DRM master free for another
 * session, then switches back to VT 1; the child resumes in on_change(true)
 * and its next frame is on the CRTC, equal to the reference's. */
struct kiosk_side {
	struct sg_output *output;
	int changes;
	bool active;
};

static void kiosk_on_change(struct sg_session *session, bool active, void *data)
{
	(void)session;
	struct kiosk_side *k = data;
	k->changes++;
	k->active = active;
	if (!active && k->output)
		check(sg_output_pause(k->output) == SG_OK, "%s", sg_last_error());
}

static void dispatch_until(struct sg_session *session, struct kiosk_side *k, int changes)
{
	for (int round = 0; round < 100 && k->changes < changes; round++) {
		struct pollfd pfd = {.fd = sg_session_get_fd(session), .events = POLLIN};
		poll(&pfd, 1, 100);
		check(sg_session_dispatch(session) == SG_OK, "%s", sg_last_error());
	}
	check(k->changes >= changes, "%d session changes, %d expected", k->changes, changes);
}

static void kiosk_as_nobody(int to_parent, int from_parent)
{
	check(setgroups(0, NULL) == 0 && setgid(NOBODY) == 0 && setuid(NOBODY) == 0,
	      "dropping to nobody: %s", strerror(errno));
	struct kiosk_side k = {0};
	struct sg_session *session =
	    sg_session_open(&(struct sg_session_desc){.on_change = kiosk_on_change, .user_data = &k});
	check(session, "sg_session_open: %s", sg_last_error());
	int card = sg_session_open_device(session, "/dev/dri/card0");
	check(card >= 0, "%s", sg_last_error());
	k.output = sg_output_create(&(struct sg_output_desc){.has_drm_fd = true, .drm_fd = card});
	check(k.output, "an output as nobody on the session's card: %s", sg_last_error());
	struct animated_scene animated;
	animated_scene_init(&animated);
	animated_scene_set_frame(&animated, 1);
	check(sg_output_present(k.output, animated.scene, &animated.camera) == SG_OK &&
	          sg_output_wait(k.output, FLIP_TIMEOUT_MS) == SG_OK,
	      "the first frame: %s", sg_last_error());

	check(sg_session_switch(session, 2) == SG_OK, "%s", sg_last_error());
	dispatch_until(session, &k, 2); /* the enable at open, then the disable */
	check(!k.active && sg_output_is_paused(k.output), "not paused after the switch");
	check(sg_output_present(k.output, animated.scene, &animated.camera) == SG_ERR_BUSY,
	      "a present while away was not refused");
	char byte = 'A';
	check(write(to_parent, &byte, 1) == 1, "pipe");

	dispatch_until(session, &k, 3); /* the parent switched back */
	check(k.active, "not active after the switch back");
	check(sg_output_resume(k.output) == SG_OK, "%s", sg_last_error());
	animated_scene_set_frame(&animated, 2);
	check(sg_output_present(k.output, animated.scene, &animated.camera) == SG_OK &&
	          sg_output_wait(k.output, FLIP_TIMEOUT_MS) == SG_OK,
	      "the frame after the resume: %s", sg_last_error());
	byte = 'B';
	check(write(to_parent, &byte, 1) == 1 && read(from_parent, &byte, 1) == 1, "pipe");
	sg_output_destroy(k.output);
	animated_scene_finish(&animated);
	sg_session_close_device(session, card);
	sg_session_close(session);
	_exit(0);
}

START_TEST(test_vt_switch_pauses_and_resumes)
{
	int tty = open("/dev/tty0", O_RDWR | O_CLOEXEC);
	ck_assert_msg(tty >= 0, "/dev/tty0: %s", strerror(errno));
	struct vt_stat vt;
	ck_assert_int_eq(ioctl(tty, VT_GETSTATE, &vt), 0);
	ck_assert_int_eq(vt.v_active, 1);
	int up[2], down[2];
	ck_assert(pipe(up) == 0 && pipe(down) == 0);
	pid_t seatd = start_seatd();
	char byte;
	pid_t child = fork();
	if (child == 0) {
		setenv("LIBSEAT_BACKEND", "seatd", 1);
		kiosk_as_nobody(up[1], down[0]);
	}
	bool away = read(up[0], &byte, 1) == 1 && byte == 'A';
	if (away) {
		ck_assert_int_eq(ioctl(tty, VT_WAITACTIVE, 2), 0);
		/* The session switched away holds no master: another may take it. */
		int other = open("/dev/dri/card0", O_RDWR | O_CLOEXEC);
		ck_assert_msg(drmSetMaster(other) == 0, "master not free while away: %s",
		              strerror(errno));
		drmDropMaster(other);
		close(other);
		ck_assert_int_eq(ioctl(tty, VT_ACTIVATE, 1), 0);
		ck_assert_int_eq(ioctl(tty, VT_WAITACTIVE, 1), 0);
	}
	bool shown = away && read(up[0], &byte, 1) == 1 && byte == 'B';
	if (shown) {
		/* The frame after the resume, on Virtual-1's CRTC. */
		int fd = open("/dev/dri/card0", O_RDWR | O_CLOEXEC);
		drmModeResPtr res = drmModeGetResources(fd);
		uint32_t crtc_id = 0;
		for (int i = 0; i < res->count_crtcs && !crtc_id; i++) {
			drmModeCrtcPtr crtc = drmModeGetCrtc(fd, res->crtcs[i]);
			if (crtc->buffer_id)
				crtc_id = crtc->crtc_id;
			int w = crtc->mode.hdisplay, h = crtc->mode.vdisplay;
			drmModeFreeCrtc(crtc);
			if (!crtc_id)
				continue;
			struct animated_scene animated;
			animated_scene_init(&animated);
			animated_scene_set_frame(&animated, 2);
			struct sg_renderer *reference = reference_renderer(w, h);
			uint32_t fb;
			uint8_t *on_screen = read_crtc("/dev/dri/card0", crtc_id, w, h, &fb);
			uint8_t *expected = reference_render(reference, &animated);
			int differing = count_differing_pixels(on_screen, (size_t)w * 4, expected,
			                                       (size_t)w * 4, w, h);
			printf("after the VT switch back: %d of %d pixels differ\n", differing, w * h);
			ck_assert_int_eq(differing, 0);
			free(on_screen);
			free(expected);
			sg_renderer_destroy(reference);
			animated_scene_finish(&animated);
		}
		drmModeFreeResources(res);
		close(fd);
		ck_assert_uint_ne(crtc_id, 0);
		byte = 'C';
		ck_assert_int_eq(write(down[1], &byte, 1), 1);
	}
	int status = 0;
	waitpid(child, &status, 0);
	kill(seatd, SIGTERM);
	waitpid(seatd, NULL, 0);
	close(tty);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0 && shown,
	              "the kiosk as nobody failed (status 0x%x): its message is above", status);
}
END_TEST

Suite *session_kms_suite(void)
{
	Suite *suite = suite_create("session-kms");
	TCase *tc = tcase_create("vt");
	tcase_add_test(tc, test_vt_switch_pauses_and_resumes);
	suite_add_tcase(suite, tc);
	return suite;
}

Suite *session_suite(void)
{
	Suite *suite = suite_create("session");
	TCase *tc = tcase_create("seatd");
	tcase_add_test(tc, test_no_seat_daemon);
	tcase_add_test(tc, test_kiosk_as_nobody);
	suite_add_tcase(suite, tc);
	return suite;
}
