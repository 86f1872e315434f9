/* The public output (include/sg/output.h) on virtio-gpu (SG_DRM_KMS=1): the
 * zero-copy path, atomic and legacy, what the CRTC scans out (read through a
 * second fd) equal to a surfaceless render, the CRTC state given back at
 * destroy, SG_ERR_BUSY on a full ring, completions with increasing
 * timestamps, and every error the header names. On vgem: the refusal of a
 * node without KMS. */
#include <drm_fourcc.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "../../src/output/dumb.h"
#include "../../src/output/choose.h"
#include "../../src/output/kms.h"
#include "../rotation_moves.h"
#include "output_test.h"

#define CARD "/dev/dri/card0"
#define NOBODY 65534

static double seconds_now(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

static void print_info(const struct sg_output *output)
{
	const struct sg_output_info *info = sg_output_get_info(output);
	printf("[%.2f] output: %s on %s, %s %dx%d@%d, connector %u, CRTC %u, plane %u, %.4s "
	       "modifier 0x%llx, "
	       "%s, %d buffers, %s (%s), fence %s%s, renderer %s\n",
	       seconds_now(), info->connector, info->device, info->mode_name, info->width,
	       info->height, info->refresh, info->connector_id, info->crtc_id, info->plane_id,
	       (const char *)&info->format, (unsigned long long)info->modifier,
	       info->atomic ? "atomic" : "legacy", info->buffer_count,
	       info->path == SG_OUTPUT_PATH_ZERO_COPY ? "zero-copy" : "copy", info->path_reason,
	       info->fence == SG_OUTPUT_FENCE_NATIVE ? "IN_FENCE_FD" : "glFinish",
	       info->out_fence ? ", OUT_FENCE_PTR" : "", info->renderer);
}

static struct sg_output *create(const struct sg_output_desc *desc)
{
	struct sg_output *output = sg_output_create(desc);
	ck_assert_msg(output, "sg_output_create: %s", sg_last_error());
	print_info(output);
	return output;
}

struct flips {
	int count;
	uint64_t frames[64];
	double times[64];
};

static void on_flip(struct sg_output *output, const struct sg_output_flip *flip, void *data)
{
	(void)output;
	struct flips *flips = data;
	if (flips->count < 64) {
		flips->frames[flips->count] = flip->frame;
		flips->times[flips->count] = flip->tv_sec + flip->tv_usec * 1e-6;
	}
	flips->count++;
}

/* Presents frames, waiting for each, and compares the last with the reference. */
static void present_and_compare(struct sg_output *output, struct sg_renderer *reference, int frames)
{
	const struct sg_output_info *info = sg_output_get_info(output);
	struct animated_scene animated;
	animated_scene_init(&animated);
	uint32_t seen_fbs[4] = {0};
	for (int frame = 0; frame < frames; frame++) {
		animated_scene_set_frame(&animated, frame);
		sg_result result = sg_output_present(output, animated.scene, &animated.camera);
		ck_assert_msg(result == SG_OK, "frame %d: %s", frame, sg_last_error());
		result = sg_output_wait(output, FLIP_TIMEOUT_MS);
		ck_assert_msg(result == SG_OK, "frame %d: %s", frame, sg_last_error());
		uint32_t fb_id = 0;
		uint8_t *shown =
		    read_crtc(info->device, info->crtc_id, info->width, info->height, &fb_id);
		uint8_t *expected = reference_render(reference, &animated);
		int differing =
		    count_differing_pixels(shown, (size_t)info->width * 4, expected,
		                           (size_t)info->width * 4, info->width, info->height);
		printf("[%.2f] frame %d (fb %u): %d of %d pixels differ from surfaceless\n",
		       seconds_now(), frame, fb_id, differing, info->width * info->height);
		if (frame == 0)
			check_three_rects_content(shown, info->width, info->height, opaque_black,
			                          "scanout of frame 0");
		ck_assert_int_eq(differing, 0);
		if (frame < 4)
			seen_fbs[frame] = fb_id;
		free(shown);
		free(expected);
	}
	/* The ring turns: the next frame never goes to the buffer on screen. */
	if (frames >= 2)
		ck_assert_uint_ne(seen_fbs[0], seen_fbs[1]);
	animated_scene_finish(&animated);
}

/* The three ways a frame reaches the CRTC, in one process so that Mesa and
 * the reference renderer start once: zero-copy atomic, zero-copy legacy
 * (force_legacy), copy (force_copy). */
START_TEST(test_scanout_matches_surfaceless)
{
	struct sg_renderer *reference = NULL;
	for (int legacy = 0; legacy < 2; legacy++) {
		struct sg_output *output = create(&(struct sg_output_desc){
		    .device = CARD, .width = 1024, .height = 768, .force_legacy = legacy});
		/* Only now: Mesa's surfaceless platform opens card0 too, and the
		 * first open of a card node without master becomes master. */
		if (!reference)
			reference = reference_renderer(1024, 768);
		const struct sg_output_info *info = sg_output_get_info(output);
		ck_assert_str_eq(info->connector, "Virtual-1");
		ck_assert_str_eq(info->device, CARD);
		ck_assert_int_eq(info->width, 1024);
		ck_assert_int_eq(info->height, 768);
		ck_assert_int_eq(info->refresh, 60);
		ck_assert_int_eq(info->atomic, !legacy);
		ck_assert_int_eq(info->path, SG_OUTPUT_PATH_ZERO_COPY);
		ck_assert_msg(strstr(info->path_reason, "gbm_bo"), "%s", info->path_reason);
		ck_assert_uint_eq(info->format, DRM_FORMAT_XRGB8888);
		ck_assert_int_eq(info->buffer_count, 3);
		ck_assert_uint_ne(info->crtc_id, 0);
		ck_assert_uint_ne(info->plane_id, 0);
		/* kms_swrast has no native fences: glFinish, and the info says so. */
		ck_assert_int_eq(info->fence, SG_OUTPUT_FENCE_GL_FINISH);
		ck_assert_int_eq(info->out_fence, !legacy);
		present_and_compare(output, reference, legacy ? 2 : 3);
		sg_output_destroy(output);
	}
	struct sg_output *output = create(&(struct sg_output_desc){
	    .device = CARD, .width = 1024, .height = 768, .force_copy = true, .buffer_count = 2});
	const struct sg_output_info *info = sg_output_get_info(output);
	ck_assert_int_eq(info->path, SG_OUTPUT_PATH_COPY);
	ck_assert_msg(strstr(info->path_reason, "force_copy"), "%s", info->path_reason);
	ck_assert_int_eq(info->buffer_count, 2);
	present_and_compare(output, reference, 2);
	sg_output_destroy(output);
	sg_renderer_destroy(reference);
}
END_TEST

struct crtc_state {
	uint32_t buffer_id;
	int mode_valid;
	drmModeModeInfo mode;
	uint32_t connector_encoder;
};

static struct crtc_state read_state(int fd, uint32_t crtc_id, uint32_t connector_id)
{
	struct crtc_state state = {0};
	drmModeCrtcPtr crtc = drmModeGetCrtc(fd, crtc_id);
	ck_assert_ptr_nonnull(crtc);
	state.buffer_id = crtc->buffer_id;
	state.mode_valid = crtc->mode_valid;
	state.mode = crtc->mode;
	drmModeFreeCrtc(crtc);
	drmModeConnectorPtr connector = drmModeGetConnector(fd, connector_id);
	ck_assert_ptr_nonnull(connector);
	state.connector_encoder = connector->encoder_id;
	drmModeFreeConnector(connector);
	return state;
}

static void check_same_state(const struct crtc_state *before, const struct crtc_state *after)
{
	printf("before: fb %u, mode %s (valid %d), encoder %u; after: fb %u, mode %s (valid %d), "
	       "encoder %u\n",
	       before->buffer_id, before->mode.name, before->mode_valid, before->connector_encoder,
	       after->buffer_id, after->mode.name, after->mode_valid, after->connector_encoder);
	ck_assert_uint_eq(after->buffer_id, before->buffer_id);
	ck_assert_int_eq(after->mode_valid, before->mode_valid);
	if (before->mode_valid)
		ck_assert_int_eq(memcmp(&after->mode, &before->mode, sizeof(before->mode)), 0);
	ck_assert_uint_eq(after->connector_encoder, before->connector_encoder);
}

/* One variant: the CRTC lit by a framebuffer of the test's own at the
 * preferred mode (so that "restored" is not "whatever the kernel left"), or
 * off; an output at another mode presents a frame and is destroyed. */
static char logged_error[512];

static void keep_error(enum sg_log_level level, const char *message, void *data)
{
	(void)data;
	if (level == SG_LOG_ERROR)
		snprintf(logged_error, sizeof(logged_error), "%s", message);
}

static void restore_variant(int fd, bool legacy, bool off_before, bool remove_fb)
{
	logged_error[0] = '\0';
	sg_log_set_handler(keep_error, NULL);
	struct sg_output_choice choice = {.node = CARD};
	ck_assert_msg(sg_output_choose(fd, &(struct sg_output_want){0}, &choice) == SG_OK, "%s",
	              sg_last_error());
	uint32_t crtc_id = choice.crtc_id, connector_id = choice.connector_id;
	uint32_t width = choice.mode.hdisplay, height = choice.mode.vdisplay;
	struct sg_dumb_buffer mine = {0};
	uint32_t mine_fb = 0;
	if (off_before) {
		ck_assert_int_eq(drmModeSetCrtc(fd, crtc_id, 0, 0, 0, NULL, 0, NULL), 0);
	} else {
		ck_assert_int_eq(sg_dumb_buffer_init(&mine, fd, width, height), SG_OK);
		memset(mine.map, 0x80, mine.size);
		ck_assert_int_eq(sg_kms_add_fb(fd, width, height, DRM_FORMAT_XRGB8888, mine.handle,
		                               mine.stride, 0, &mine_fb),
		                 SG_OK);
		ck_assert_msg(
		    drmModeSetCrtc(fd, crtc_id, mine_fb, 0, 0, &connector_id, 1, &choice.mode) == 0,
		    "drmModeSetCrtc: %s", strerror(errno));
	}
	struct crtc_state before = read_state(fd, crtc_id, connector_id);

	/* Another mode than the one before: restoring must bring that back too. */
	struct sg_output *output = create(&(struct sg_output_desc){
	    .has_drm_fd = true, .drm_fd = fd, .width = 640, .height = 480, .force_legacy = legacy});
	ck_assert_uint_eq(sg_output_get_info(output)->crtc_id, crtc_id);
	struct animated_scene animated;
	animated_scene_init(&animated);
	ck_assert_msg(sg_output_present(output, animated.scene, &animated.camera) == SG_OK, "%s",
	              sg_last_error());
	ck_assert_msg(sg_output_wait(output, FLIP_TIMEOUT_MS) == SG_OK, "%s", sg_last_error());
	struct crtc_state during = read_state(fd, crtc_id, connector_id);
	ck_assert_msg(during.buffer_id != before.buffer_id && during.mode_valid &&
	                  during.mode.hdisplay == 640,
	              "the output did not take the CRTC (fb %u)", during.buffer_id);
	if (remove_fb) {
		/* Nothing to go back to: neither the atomic nor the legacy restore
		 * can show it, so the CRTC must end up off, not on the output's
		 * freed buffers. */
		ck_assert_int_eq(drmModeRmFB(fd, mine_fb), 0);
		mine_fb = 0;
		before = (struct crtc_state){0};
	}
	sg_output_destroy(output);
	ck_assert_msg(fcntl(fd, F_GETFD) != -1, "sg_output_destroy closed the caller's fd");
	struct crtc_state after = read_state(fd, crtc_id, connector_id);
	printf("%s, %s before%s: ", legacy ? "legacy" : "atomic", off_before ? "off" : "lit",
	       remove_fb ? ", its fb removed meanwhile" : "");
	check_same_state(&before, &after);
	/* The restore failed only where it had to, and said so. */
	if (remove_fb)
		ck_assert_msg(strstr(logged_error, "restoring CRTC") &&
		                  strstr(logged_error, "turned off") && strstr(logged_error, CARD),
		              "logged: '%s'", logged_error);
	else
		ck_assert_msg(!logged_error[0], "logged: '%s'", logged_error);
	sg_log_set_handler(NULL, NULL);
	animated_scene_finish(&animated);
	if (mine_fb) {
		drmModeSetCrtc(fd, crtc_id, 0, 0, 0, NULL, 0, NULL);
		drmModeRmFB(fd, mine_fb);
	}
	sg_dumb_buffer_finish(&mine);
}

/* Atomic and legacy with the CRTC lit before, atomic with it off, atomic
 * with the framebuffer it showed removed while the output ran. */
START_TEST(test_restore_after_destroy)
{
	int fd = open(CARD, O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1), 0);
	restore_variant(fd, false, false, false);
	restore_variant(fd, true, false, false);
	restore_variant(fd, false, true, false);
	restore_variant(fd, false, false, true);
	close(fd);
}
END_TEST

/* Two buffers: one flipping, one queued behind it, then SG_ERR_BUSY; the
 * completions come in order, through the fd, with increasing timestamps. */
START_TEST(test_busy_and_dispatch)
{
	struct flips flips = {0};
	struct sg_output *output = create(&(struct sg_output_desc){.device = CARD,
	                                                           .width = 640,
	                                                           .height = 480,
	                                                           .buffer_count = 2,
	                                                           .on_flip = on_flip,
	                                                           .user_data = &flips});
	int fd = sg_output_get_fd(output);
	ck_assert_int_ge(fd, 0);
	struct animated_scene animated;
	animated_scene_init(&animated);
	ck_assert_int_eq(sg_output_dispatch(output), SG_OK); /* nothing yet: no block */
	ck_assert_int_eq(flips.count, 0);
	enum { FRAMES = 6 };
	int presented = 0, busy = 0;
	while (flips.count < FRAMES) {
		animated_scene_set_frame(&animated, presented);
		sg_result result = presented < FRAMES
		                       ? sg_output_present(output, animated.scene, &animated.camera)
		                       : SG_ERR_BUSY;
		if (result == SG_OK) {
			presented++;
			continue;
		}
		ck_assert_msg(result == SG_ERR_BUSY, "present: %s", sg_last_error());
		if (presented < FRAMES) {
			busy++;
			ck_assert_msg(strstr(sg_last_error(), "no free buffer"), "%s",
			              sg_last_error());
			/* Busy only with both buffers taken (on screen, flipping or queued). */
			ck_assert_int_ge(presented - flips.count + (flips.count > 0), 2);
		}
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		ck_assert_msg(poll(&pfd, 1, FLIP_TIMEOUT_MS) == 1, "no completion within %d ms",
		              FLIP_TIMEOUT_MS);
		ck_assert_int_eq(sg_output_dispatch(output), SG_OK);
	}
	printf("%d frames presented, %d SG_ERR_BUSY, %d completions\n", presented, busy,
	       flips.count);
	ck_assert_int_gt(busy, 0);
	for (int i = 0; i < FRAMES; i++) {
		printf("completion %d: frame %llu at %.6f\n", i,
		       (unsigned long long)flips.frames[i], flips.times[i]);
		ck_assert_uint_eq(flips.frames[i], (uint64_t)i + 1);
		if (i > 0)
			ck_assert_msg(flips.times[i] > flips.times[i - 1],
			              "completion %d at %.6f, not after %.6f", i, flips.times[i],
			              flips.times[i - 1]);
	}
	ck_assert_int_eq(sg_output_wait(output, 0), SG_OK); /* nothing pending */
	sg_output_destroy(output);
	animated_scene_finish(&animated);
}
END_TEST

static void check_error(const struct sg_output_desc *desc, sg_result expected,
                        const char *const words[])
{
	struct sg_output *output = sg_output_create(desc);
	printf("%s: %s\n", sg_result_name(sg_last_result()), sg_last_error());
	ck_assert_msg(!output, "an output was made");
	ck_assert_msg(sg_last_result() == expected, "%s, expected %s: %s",
	              sg_result_name(sg_last_result()), sg_result_name(expected), sg_last_error());
	for (int i = 0; words[i]; i++)
		ck_assert_msg(strstr(sg_last_error(), words[i]), "'%s' does not say '%s'",
		              sg_last_error(), words[i]);
}

START_TEST(test_errors_connector_and_mode)
{
	check_error(&(struct sg_output_desc){.device = CARD, .connector = "HDMI-A-7"},
	            SG_ERR_NOT_FOUND, (const char *[]){"HDMI-A-7", CARD, "Virtual-1", NULL});
	check_error(&(struct sg_output_desc){.device = CARD, .width = 1234, .height = 567},
	            SG_ERR_NOT_FOUND, (const char *[]){"1234x567", "Virtual-1", CARD, NULL});
	check_error(
	    &(struct sg_output_desc){.device = CARD, .width = 1024, .height = 768, .refresh = 1},
	    SG_ERR_NOT_FOUND, (const char *[]){"1024x768@1", "Virtual-1", NULL});
	/* run-in-vm.sh gives the virtio-gpu guest two outputs; qemu connects only the first. */
	const char *outputs = getenv("SG_DRM_GPU_OUTPUTS");
	if (outputs && strcmp(outputs, "2") == 0)
		check_error(&(struct sg_output_desc){.device = CARD, .connector = "Virtual-2"},
		            SG_ERR_NOT_FOUND,
		            (const char *[]){"Virtual-2", CARD, "not connected", NULL});
	check_error(&(struct sg_output_desc){.device = "/dev/dri/card9"}, SG_ERR_DEVICE,
	            (const char *[]){"/dev/dri/card9", strerror(ENOENT), NULL});
	check_error(&(struct sg_output_desc){.device = "/dev/null"}, SG_ERR_DEVICE,
	            (const char *[]){"/dev/null", "not a DRM node", NULL});
	check_error(NULL, SG_ERR_INVALID_ARGUMENT, (const char *[]){"desc is NULL", NULL});
	check_error(&(struct sg_output_desc){.device = CARD, .has_drm_fd = true},
	            SG_ERR_INVALID_ARGUMENT, (const char *[]){"not both", NULL});
	check_error(&(struct sg_output_desc){.device = CARD, .width = 640}, SG_ERR_INVALID_ARGUMENT,
	            (const char *[]){"640x0", NULL});
	check_error(&(struct sg_output_desc){.device = CARD, .buffer_count = 4},
	            SG_ERR_INVALID_ARGUMENT, (const char *[]){"buffer_count 4", NULL});
	check_error(&(struct sg_output_desc){.device = CARD, .format_count = 1},
	            SG_ERR_INVALID_ARGUMENT, (const char *[]){"formats is NULL", NULL});
	/* A format the plane does not list: the copy path, which says why. */
	const uint32_t formats[] = {DRM_FORMAT_XRGB2101010};
	struct sg_output *output = create(&(struct sg_output_desc){
	    .device = CARD, .width = 640, .height = 480, .formats = formats, .format_count = 1});
	const struct sg_output_info *info = sg_output_get_info(output);
	ck_assert_int_eq(info->path, SG_OUTPUT_PATH_COPY);
	ck_assert_msg(strstr(info->path_reason, "no zero-copy") &&
	                  strstr(info->path_reason, "XR30"),
	              "%s", info->path_reason);
	sg_output_destroy(output);
}
END_TEST

/* Another process holds DRM master on card0: a child opens it first (the
 * first opener becomes master) and keeps it until told to go. */
START_TEST(test_error_master_held)
{
	int ready[2], done[2];
	ck_assert_int_eq(pipe(ready), 0);
	ck_assert_int_eq(pipe(done), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int fd = open(CARD, O_RDWR | O_CLOEXEC);
		char ok = fd >= 0 && (drmIsMaster(fd) || drmSetMaster(fd) == 0) ? 'y' : 'n';
		(void)!write(ready[1], &ok, 1);
		char byte;
		(void)!read(done[0], &byte, 1);
		_exit(0);
	}
	char ok = 0;
	ck_assert_int_eq(read(ready[0], &ok, 1), 1);
	check_error(&(struct sg_output_desc){.device = CARD}, SG_ERR_DEVICE,
	            (const char *[]){CARD, "Virtual-1", "master", "another process", NULL});
	(void)!write(done[1], "x", 1);
	int status = 0;
	waitpid(pid, &status, 0);
	ck_assert_msg(ok == 'y', "the child could not become DRM master");
	/* Master is free again: the same create works (this open takes it). */
	int fd = open(CARD, O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	struct sg_output *output = create(&(struct sg_output_desc){
	    .has_drm_fd = true, .drm_fd = fd, .width = 640, .height = 480});
	/* Master lost after create (a VT switch): the commit is refused by name. */
	ck_assert_int_eq(drmDropMaster(fd), 0);
	struct animated_scene animated;
	animated_scene_init(&animated);
	sg_result result = sg_output_present(output, animated.scene, &animated.camera);
	printf("present without master: %s: %s\n", sg_result_name(result), sg_last_error());
	ck_assert_int_eq(result, SG_ERR_DEVICE);
	static const char *const words[] = {"atomic modeset", "CRTC", "Virtual-1", CARD, "master"};
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		ck_assert_msg(strstr(sg_last_error(), words[i]), "'%s' does not say '%s'",
		              sg_last_error(), words[i]);
	/* Given back: the same output presents. */
	ck_assert_int_eq(drmSetMaster(fd), 0);
	ck_assert_msg(sg_output_present(output, animated.scene, &animated.camera) == SG_OK, "%s",
	              sg_last_error());
	ck_assert_msg(sg_output_wait(output, FLIP_TIMEOUT_MS) == SG_OK, "%s", sg_last_error());
	sg_output_destroy(output);
	animated_scene_finish(&animated);
	close(fd);
}
END_TEST

/* As nobody, with card0 closed to others (no udev in the guest: chmod). */
START_TEST(test_error_permission_denied)
{
	struct stat st;
	ck_assert_int_eq(stat(CARD, &st), 0);
	ck_assert_int_eq(chmod(CARD, 0600), 0);
	int pipefd[2];
	ck_assert_int_eq(pipe(pipefd), 0);
	pid_t pid = fork();
	if (pid == 0) {
		char message[512] = "";
		if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY)) {
			snprintf(message, sizeof(message), "setuid: %s", strerror(errno));
		} else {
			struct sg_output *output =
			    sg_output_create(&(struct sg_output_desc){.device = CARD});
			snprintf(message, sizeof(message), "%s|%s",
			         output ? "made" : sg_result_name(sg_last_result()),
			         sg_last_error());
		}
		(void)!write(pipefd[1], message, strlen(message) + 1);
		_exit(0);
	}
	char message[512] = "";
	ssize_t n = read(pipefd[0], message, sizeof(message) - 1);
	waitpid(pid, NULL, 0);
	chmod(CARD, st.st_mode & 07777);
	ck_assert_int_gt(n, 0);
	printf("as nobody: %s\n", message);
	ck_assert_msg(strncmp(message, "SG_ERR_DEVICE|", 14) == 0, "%s", message);
	ck_assert_msg(strstr(message, CARD) && strstr(message, strerror(EACCES)) &&
	                  strstr(message, "first connected connector"),
	              "%s", message);
}
END_TEST

/* The render node has no KMS: refused by name, on any device. */
START_TEST(test_error_render_node)
{
	check_error(&(struct sg_output_desc){.device = "/dev/dri/renderD128"}, SG_ERR_DEVICE,
	            (const char *[]){"/dev/dri/renderD128", "no KMS", "render node", NULL});
}
END_TEST

/* vgem's card0: a card node whose driver has no KMS. */
START_TEST(test_error_vgem)
{
	check_error(&(struct sg_output_desc){.device = CARD}, SG_ERR_DEVICE,
	            (const char *[]){CARD, "no KMS", NULL});
	/* Discovery finds no card node with KMS either. */
	check_error(&(struct sg_output_desc){0}, SG_ERR_NOT_FOUND,
	            (const char *[]){"no DRM card node with KMS", NULL});
}
END_TEST

/* A turned output on virtio-gpu: what the CRTC scans out is the surfaceless
 * render of the picture (the mode's size swapped for a quarter turn) with
 * each pixel moved where the rotation puts it (tests/rotation_moves.c), on
 * the zero-copy path and on the copy path, for two frames (the second
 * repainted in part by damage tracking), exactly. */
START_TEST(test_rotated_scanout)
{
	static const enum sg_rotation rotations[] = {SG_ROTATION_90, SG_ROTATION_FLIPPED_180};
	struct sg_renderer *reference = NULL;
	for (int i = 0; i < 2; i++) {
		struct sg_output *output = create(&(struct sg_output_desc){
		    .device = CARD, .width = 1024, .height = 768, .rotation = rotations[i],
		    .force_copy = i == 1});
		const struct sg_output_info *info = sg_output_get_info(output);
		ck_assert_int_eq(info->rotation, rotations[i]); /* virtio-gpu has no panel orientation */
		ck_assert_str_eq(info->panel_orientation, "");
		int w = info->picture_width, h = info->picture_height;
		ck_assert_int_eq(w, i == 0 ? 768 : 1024);
		ck_assert_int_eq(h, i == 0 ? 1024 : 768);
		if (!reference || i == 1) {
			sg_renderer_destroy(reference);
			reference = reference_renderer(w, h);
		}
		struct animated_scene animated;
		animated_scene_init(&animated);
		for (int frame = 0; frame < 2; frame++) {
			/* Frames 1 and 2 (9 and 18 degrees): at 0 the rectangles' edges run
			 * through pixel centres (y = 4.5 k), and a mirror changes which
			 * side GL's top-left rule gives such an edge's pixels to. */
			animated_scene_set_frame(&animated, frame + 1);
			ck_assert_msg(sg_output_present(output, animated.scene, &animated.camera) == SG_OK,
			              "%s", sg_last_error());
			ck_assert_msg(sg_output_wait(output, FLIP_TIMEOUT_MS) == SG_OK, "%s",
			              sg_last_error());
			uint32_t fb_id;
			uint8_t *shown =
			    read_crtc(info->device, info->crtc_id, info->width, info->height, &fb_id);
			uint8_t *expected = reference_render(reference, &animated);
			int fx, fy;
			int differing =
			    rotation_count_differing(rotations[i], expected, w, h, shown, 0, &fx, &fy);
			printf("[%.2f] rotation %d, %s, frame %d: %d of %d pixels differ (first at %d, "
			       "%d)\n",
			       seconds_now(), (int)rotations[i], i ? "copy" : "zero-copy", frame,
			       differing, w * h, fx, fy);
			ck_assert_int_eq(differing, 0);
			free(shown);
			free(expected);
		}
		animated_scene_finish(&animated);
		sg_output_destroy(output);
	}
	sg_renderer_destroy(reference);
}
END_TEST

/* A session switched away and back, driven directly: while the output is
 * paused another open file of the card becomes master and scans out a
 * magenta buffer of its own; after the resume the next frame sets the mode
 * again and is repainted whole (the reference of that frame, every pixel). */
START_TEST(test_pause_and_resume)
{
	struct sg_output *output = create(&(struct sg_output_desc){.device = CARD});
	const struct sg_output_info *info = sg_output_get_info(output);
	struct sg_renderer *reference = reference_renderer(info->width, info->height);
	struct animated_scene animated;
	animated_scene_init(&animated);
	animated_scene_set_frame(&animated, 1);
	ck_assert_int_eq(sg_output_present(output, animated.scene, &animated.camera), SG_OK);
	ck_assert_int_eq(sg_output_wait(output, FLIP_TIMEOUT_MS), SG_OK);

	ck_assert_int_eq(sg_output_pause(output), SG_OK);
	ck_assert_int_eq(sg_output_pause(output), SG_OK);
	ck_assert(sg_output_is_paused(output));
	ck_assert_int_eq(sg_output_present(output, animated.scene, &animated.camera), SG_ERR_BUSY);
	ck_assert_msg(strstr(sg_last_error(), "is paused"), "%s", sg_last_error());

	/* The other session: master, another mode (1024 x 768 where the output
	 * has virtio-gpu's preferred 1280 x 800) and a magenta frame, so that a
	 * resume without a modeset would flip into the wrong mode. */
	int other = open(CARD, O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(other, 0);
	ck_assert_msg(drmSetMaster(other) == 0, "the other session cannot be master: %s",
	              strerror(errno));
	drmModeConnectorPtr c = drmModeGetConnector(other, info->connector_id);
	drmModeModeInfo mode = {0};
	for (int i = 0; i < c->count_modes; i++)
		if (c->modes[i].hdisplay == 1024 && c->modes[i].vdisplay == 768)
			mode = c->modes[i];
	drmModeFreeConnector(c);
	ck_assert_msg(mode.hdisplay == 1024 && info->width != 1024, "no other mode to switch to");
	struct sg_dumb_buffer dumb;
	ck_assert_int_eq(sg_dumb_buffer_init(&dumb, other, 1024, 768), SG_OK);
	for (size_t i = 0; i < dumb.size / 4; i++)
		((uint32_t *)dumb.map)[i] = 0xffff00ffu; /* XRGB8888 magenta */
	uint32_t fb = 0, handles[4] = {dumb.handle}, pitches[4] = {dumb.stride}, offsets[4] = {0};
	ck_assert_int_eq(drmModeAddFB2(other, 1024, 768, DRM_FORMAT_XRGB8888, handles, pitches,
	                               offsets, &fb, 0),
	                 0);
	uint32_t connector = info->connector_id;
	ck_assert_int_eq(drmModeSetCrtc(other, info->crtc_id, fb, 0, 0, &connector, 1, &mode), 0);
	uint32_t shown_fb;
	uint8_t *shown = read_crtc(CARD, info->crtc_id, 1024, 768, &shown_fb);
	ck_assert_uint_eq(shown_fb, fb);
	ck_assert_msg(shown[0] == 255 && shown[1] == 0 && shown[2] == 255,
	              "the other session's frame is not magenta: %u %u %u", shown[0], shown[1],
	              shown[2]);
	free(shown);
	/* Still master elsewhere: the resume is refused by name and stays paused. */
	ck_assert_int_eq(sg_output_resume(output), SG_ERR_DEVICE);
	ck_assert_msg(strstr(sg_last_error(), "cannot take DRM master"), "%s", sg_last_error());
	ck_assert(sg_output_is_paused(output));
	ck_assert_int_eq(drmDropMaster(other), 0);

	ck_assert_int_eq(sg_output_resume(output), SG_OK);
	ck_assert(!sg_output_is_paused(output));
	animated_scene_set_frame(&animated, 2);
	ck_assert_msg(sg_output_present(output, animated.scene, &animated.camera) == SG_OK, "%s",
	              sg_last_error());
	ck_assert_int_eq(sg_output_wait(output, FLIP_TIMEOUT_MS), SG_OK);
	shown = read_crtc(CARD, info->crtc_id, info->width, info->height, &shown_fb);
	ck_assert_uint_ne(shown_fb, fb);
	drmModeCrtcPtr crtc = drmModeGetCrtc(other, info->crtc_id); /* the mode set again */
	ck_assert_msg(crtc->mode.hdisplay == info->width && crtc->mode.vdisplay == info->height,
	              "the CRTC is in %ux%u after the resume", crtc->mode.hdisplay,
	              crtc->mode.vdisplay);
	drmModeFreeCrtc(crtc);
	uint8_t *expected = reference_render(reference, &animated);
	ck_assert_int_eq(count_differing_pixels(shown, (size_t)info->width * 4, expected,
	                                        (size_t)info->width * 4, info->width, info->height),
	                 0);
	free(shown);
	free(expected);
	sg_output_destroy(output);
	drmModeRmFB(other, fb);
	sg_dumb_buffer_finish(&dumb);
	close(other);
	animated_scene_finish(&animated);
	sg_renderer_destroy(reference);
}
END_TEST

/* Forces a connector's state as the kernel's sysfs allows ("on", "off",
 * "detect": back to what the driver sees). qemu connects only Virtual-1
 * without a display; forcing Virtual-2 on makes the second head. */
static void force_connector(const char *name, const char *state)
{
	char path[128];
	snprintf(path, sizeof(path), "/sys/class/drm/card0-%s/status", name);
	FILE *f = fopen(path, "w");
	ck_assert_msg(f, "%s: %s", path, strerror(errno));
	ck_assert_int_ge(fputs(state, f), 0);
	ck_assert_int_eq(fclose(f), 0);
}

/* A synthetic change event of the card's node, as a hotplug sends. */
static void card_changed(void)
{
	FILE *f = fopen("/sys/class/drm/card0/uevent", "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(fputs("change", f), 0);
	ck_assert_int_eq(fclose(f), 0);
}

static const struct sg_connector_state *find_state(const struct sg_connector_state *states,
                                                   size_t count, const char *name)
{
	for (size_t i = 0; i < count; i++)
		if (strcmp(states[i].name, name) == 0)
			return &states[i];
	return NULL;
}

/* Two heads of one card, one open file for both outputs: each scans out the
 * scene through its own camera at its own mode, on its own CRTC, equal to
 * the reference; one dispatch of either output completes both's flips. */
START_TEST(test_two_heads)
{
	force_connector("Virtual-2", "on");
	int fd = open(CARD, O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	struct sg_connector_state states[8];
	size_t count = 0;
	ck_assert_int_eq(sg_output_list_connectors(fd, states, 8, &count), SG_OK);
	ck_assert_uint_eq(count, 2);
	ck_assert(find_state(states, count, "Virtual-1")->connected);
	ck_assert(find_state(states, count, "Virtual-2")->connected);
	struct flips flips[2] = {{0}};
	struct sg_output *outputs[2];
	const char *names[2] = {"Virtual-1", "Virtual-2"};
	for (int i = 0; i < 2; i++)
		outputs[i] = create(&(struct sg_output_desc){.has_drm_fd = true,
		                                             .drm_fd = fd,
		                                             .connector = names[i],
		                                             .width = i ? 800 : 1024,
		                                             .height = i ? 600 : 768,
		                                             .on_flip = on_flip,
		                                             .user_data = &flips[i]});
	const struct sg_output_info *a = sg_output_get_info(outputs[0]),
	                            *b = sg_output_get_info(outputs[1]);
	ck_assert_uint_ne(a->crtc_id, b->crtc_id);
	struct animated_scene animated;
	animated_scene_init(&animated);
	animated_scene_set_frame(&animated, 1);
	for (int i = 0; i < 2; i++)
		ck_assert_msg(sg_output_present(outputs[i], animated.scene, &animated.camera) == SG_OK,
		              "%s", sg_last_error());
	for (int round = 0; round < 50 && (flips[0].count < 1 || flips[1].count < 1); round++) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		poll(&pfd, 1, 100);
		ck_assert_int_eq(sg_output_dispatch(outputs[0]), SG_OK); /* for both */
	}
	ck_assert_int_eq(flips[0].count, 1);
	ck_assert_int_eq(flips[1].count, 1);
	for (int i = 0; i < 2; i++) {
		const struct sg_output_info *info = i ? b : a;
		struct sg_renderer *reference = reference_renderer(info->width, info->height);
		uint32_t fb;
		uint8_t *shown = read_crtc(CARD, info->crtc_id, info->width, info->height, &fb);
		uint8_t *expected = reference_render(reference, &animated);
		int differing = count_differing_pixels(shown, (size_t)info->width * 4, expected,
		                                       (size_t)info->width * 4, info->width,
		                                       info->height);
		printf("[%.2f] %s %dx%d on CRTC %u: %d pixels differ\n", seconds_now(), info->connector,
		       info->width, info->height, info->crtc_id, differing);
		ck_assert_int_eq(differing, 0);
		free(shown);
		free(expected);
		sg_renderer_destroy(reference);
	}
	for (int i = 0; i < 2; i++)
		sg_output_destroy(outputs[i]);
	animated_scene_finish(&animated);
	close(fd);
	force_connector("Virtual-2", "detect");
}
END_TEST

struct changes {
	int count;
	struct sg_connector_state last;
};

static void on_hotplug(struct sg_hotplug *hotplug, const struct sg_connector_state *connector,
                       void *data)
{
	(void)hotplug;
	struct changes *changes = data;
	changes->count++;
	changes->last = *connector;
}

/* Waits for the hotplug fd and dispatches, up to 2 s. */
static void hotplug_wait(struct sg_hotplug *hotplug, struct changes *changes, int count)
{
	for (int round = 0; round < 20 && changes->count < count; round++) {
		struct pollfd pfd = {.fd = sg_hotplug_get_fd(hotplug), .events = POLLIN};
		poll(&pfd, 1, 100);
		ck_assert_int_eq(sg_hotplug_dispatch(hotplug), SG_OK);
	}
}

/* Virtual-2 plugged in and out (forced through sysfs, announced by a
 * synthetic change event of the card, as the kernel sends on hotplug): one
 * report each, none for an event that changed nothing. */
START_TEST(test_hotplug)
{
	int fd = open(CARD, O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	struct changes changes = {0};
	struct sg_hotplug *hotplug = sg_hotplug_create(
	    &(struct sg_hotplug_desc){.drm_fd = fd, .on_change = on_hotplug, .user_data = &changes});
	ck_assert_msg(hotplug, "%s", sg_last_error());
	card_changed(); /* nothing changed: nothing reported */
	hotplug_wait(hotplug, &changes, 1);
	ck_assert_int_eq(changes.count, 0);
	force_connector("Virtual-2", "on");
	card_changed();
	hotplug_wait(hotplug, &changes, 1);
	ck_assert_int_eq(changes.count, 1);
	ck_assert_str_eq(changes.last.name, "Virtual-2");
	ck_assert(changes.last.connected);
	ck_assert_int_gt(changes.last.width, 0);
	force_connector("Virtual-2", "off");
	card_changed();
	hotplug_wait(hotplug, &changes, 2);
	ck_assert_int_eq(changes.count, 2);
	ck_assert_str_eq(changes.last.name, "Virtual-2");
	ck_assert(!changes.last.connected);
	force_connector("Virtual-2", "detect");
	sg_hotplug_destroy(hotplug);
	close(fd);
	ck_assert_ptr_null(sg_hotplug_create(&(struct sg_hotplug_desc){.drm_fd = -1}));
	ck_assert_int_eq(sg_last_result(), SG_ERR_INVALID_ARGUMENT);
}
END_TEST

Suite *output_suite(bool has_kms)
{
	Suite *suite = suite_create("output");
	TCase *tc = tcase_create("output");
	tcase_add_test(tc, test_error_render_node);
	if (has_kms) {
		tcase_add_test(tc, test_scanout_matches_surfaceless);
		tcase_add_test(tc, test_rotated_scanout);
		tcase_add_test(tc, test_pause_and_resume);
		tcase_add_test(tc, test_two_heads);
		tcase_add_test(tc, test_hotplug);
		tcase_add_test(tc, test_restore_after_destroy);
		tcase_add_test(tc, test_busy_and_dispatch);
		tcase_add_test(tc, test_errors_connector_and_mode);
		tcase_add_test(tc, test_error_master_held);
		tcase_add_test(tc, test_error_permission_denied);
	} else {
		tcase_add_test(tc, test_error_vgem);
	}
	suite_add_tcase(suite, tc);
	return suite;
}
