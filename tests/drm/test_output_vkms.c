/* The public output on vkms (SG_DRM_WRITEBACK=1): ten consecutive frames of
 * an animated scene presented by sg_output and captured by the writeback
 * connector, each byte-identical to the surfaceless render of that frame;
 * and the one CRTC, while it lights Virtual-1, is not taken for another
 * connector.
 *
 * vkms shows its frames to no one: the only way to see what an output
 * committed is the writeback connector, which 6.1 refuses on the same CRTC
 * as Virtual-1. So the output is made with the internal test hooks
 * (src/output/output_internal.h): it may drive the writeback connector, and
 * each of its atomic commits carries WRITEBACK_FB_ID and
 * WRITEBACK_OUT_FENCE_PTR, added by the test. Everything else (connector and
 * CRTC choice, ring, modeset, flips, restore) is the public code path.
 *
 * Damage: frames of random edits (tests/damage_scene.c), repainted in part
 * by the output's renderer, each written back equal to a full repaint; the
 * FB_DAMAGE_CLIPS of each flip (where vkms' plane has the property) as the
 * kernel holds them, covering what changed, and no blob left after destroy. */
#include <drm_fourcc.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "../../src/output/choose.h"
#include "../../src/output/dumb.h"
#include "../../src/output/kms.h"
#include "../../src/output/output_internal.h"
#include "../../src/output/props.h"
#include "damage_scene.h"
#include "output_test.h"

#define CARD "/dev/dri/card0"
#define FENCE_TIMEOUT_MS 10000
#define WIDTH 640 /* a mode vkms' writeback connector lists; small for TCG */
#define HEIGHT 480

struct writeback {
	uint32_t connector_id, fb_prop, fence_prop, fb_id;
	int32_t fence;
	int commits;
};

static void add_writeback(drmModeAtomicReqPtr request, void *data)
{
	struct writeback *wb = data;
	wb->fence = -1;
	drmModeAtomicAddProperty(request, wb->connector_id, wb->fb_prop, wb->fb_id);
	drmModeAtomicAddProperty(request, wb->connector_id, wb->fence_prop,
	                         (uint64_t)(uintptr_t)&wb->fence);
	wb->commits++;
}

static int open_card(void)
{
	int fd = open(CARD, O_RDWR | O_CLOEXEC);
	ck_assert_msg(fd >= 0, "open %s: %s", CARD, strerror(errno));
	ck_assert_int_eq(drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1), 0);
	ck_assert_int_eq(drmSetClientCap(fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1), 0);
	return fd;
}

static uint32_t find_connector(int fd, uint32_t type)
{
	drmModeResPtr res = drmModeGetResources(fd);
	ck_assert_ptr_nonnull(res);
	uint32_t found = 0;
	for (int i = 0; i < res->count_connectors && !found; i++) {
		drmModeConnectorPtr connector = drmModeGetConnector(fd, res->connectors[i]);
		if (connector && connector->connector_type == type)
			found = connector->connector_id;
		drmModeFreeConnector(connector);
	}
	drmModeFreeResources(res);
	ck_assert_msg(found, "no connector of type %u", type);
	return found;
}

/* Virtual-1 and its CRTC off (fbdev may have lit them), so that the CRTC is free. */
static void detach_virtual(int fd)
{
	uint32_t virtual = find_connector(fd, DRM_MODE_CONNECTOR_VIRTUAL);
	drmModeResPtr res = drmModeGetResources(fd);
	drmModePlaneResPtr planes = drmModeGetPlaneResources(fd);
	ck_assert(res && planes);
	drmModeAtomicReqPtr request = drmModeAtomicAlloc();
	uint32_t id = 0;
	ck_assert(sg_kms_prop(fd, virtual, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", &id, NULL));
	drmModeAtomicAddProperty(request, virtual, id, 0);
	for (int c = 0; c < res->count_crtcs; c++) {
		ck_assert(
		    sg_kms_prop(fd, res->crtcs[c], DRM_MODE_OBJECT_CRTC, "ACTIVE", &id, NULL));
		drmModeAtomicAddProperty(request, res->crtcs[c], id, 0);
		ck_assert(
		    sg_kms_prop(fd, res->crtcs[c], DRM_MODE_OBJECT_CRTC, "MODE_ID", &id, NULL));
		drmModeAtomicAddProperty(request, res->crtcs[c], id, 0);
	}
	for (uint32_t p = 0; p < planes->count_planes; p++) {
		ck_assert(
		    sg_kms_prop(fd, planes->planes[p], DRM_MODE_OBJECT_PLANE, "FB_ID", &id, NULL));
		drmModeAtomicAddProperty(request, planes->planes[p], id, 0);
		ck_assert(sg_kms_prop(fd, planes->planes[p], DRM_MODE_OBJECT_PLANE, "CRTC_ID", &id,
		                      NULL));
		drmModeAtomicAddProperty(request, planes->planes[p], id, 0);
	}
	ck_assert_msg(drmModeAtomicCommit(fd, request, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL) == 0,
	              "turning Virtual-1 and its CRTC off: %s", strerror(errno));
	drmModeAtomicFree(request);
	drmModeFreePlaneResources(planes);
	drmModeFreeResources(res);
}

START_TEST(test_writeback_ten_frames)
{
	int fd = open_card();
	detach_virtual(fd);
	struct writeback wb = {.connector_id = find_connector(fd, DRM_MODE_CONNECTOR_WRITEBACK),
	                       .fence = -1};
	ck_assert(sg_kms_prop(fd, wb.connector_id, DRM_MODE_OBJECT_CONNECTOR, "WRITEBACK_FB_ID",
	                      &wb.fb_prop, NULL));
	ck_assert(sg_kms_prop(fd, wb.connector_id, DRM_MODE_OBJECT_CONNECTOR,
	                      "WRITEBACK_OUT_FENCE_PTR", &wb.fence_prop, NULL));
	struct sg_dumb_buffer written = {0};
	ck_assert_msg(sg_dumb_buffer_init(&written, fd, WIDTH, HEIGHT) == SG_OK, "%s",
	              sg_last_error());
	ck_assert_msg(sg_kms_add_fb(fd, WIDTH, HEIGHT, DRM_FORMAT_XRGB8888, written.handle,
	                            written.stride, 0, &wb.fb_id) == SG_OK,
	              "%s", sg_last_error());

	struct sg_output *output = sg_output_create_for_testing(
	    &(struct sg_output_desc){.has_drm_fd = true,
	                             .drm_fd = fd,
	                             .connector = "Writeback-1",
	                             .width = WIDTH,
	                             .height = HEIGHT},
	    &(struct sg_output_test_hooks){
	        .writeback = true, .commit = add_writeback, .data = &wb});
	ck_assert_msg(output, "sg_output_create (Writeback-1): %s", sg_last_error());
	const struct sg_output_info *info = sg_output_get_info(output);
	printf("output: %s %dx%d, CRTC %u, plane %u, %.4s modifier 0x%llx, %s, %s (%s)\n",
	       info->connector, info->width, info->height, info->crtc_id, info->plane_id,
	       (const char *)&info->format, (unsigned long long)info->modifier,
	       info->atomic ? "atomic" : "legacy",
	       info->path == SG_OUTPUT_PATH_ZERO_COPY ? "zero-copy" : "copy", info->path_reason);
	ck_assert_int_eq(info->path, SG_OUTPUT_PATH_ZERO_COPY);
	ck_assert(info->atomic);

	struct animated_scene animated;
	animated_scene_init(&animated);
	struct sg_renderer *reference = reference_renderer(WIDTH, HEIGHT);
	uint8_t *rgba = malloc((size_t)WIDTH * HEIGHT * 4), *previous = NULL;
	ck_assert_ptr_nonnull(rgba);
	enum { FRAMES = 10 };
	for (int frame = 0; frame < FRAMES; frame++) {
		memset(written.map, 0x5a, written.size); /* nothing that could pass by accident */
		animated_scene_set_frame(&animated, frame);
		sg_result result = sg_output_present(output, animated.scene, &animated.camera);
		ck_assert_msg(result == SG_OK, "frame %d: %s", frame, sg_last_error());
		ck_assert_int_eq(wb.commits, frame + 1);
		ck_assert_msg(wb.fence >= 0, "frame %d: no writeback out-fence", frame);
		struct pollfd pfd = {.fd = wb.fence, .events = POLLIN};
		ck_assert_msg(poll(&pfd, 1, FENCE_TIMEOUT_MS) == 1, "frame %d: writeback fence",
		              frame);
		close(wb.fence);
		result = sg_output_wait(output, FLIP_TIMEOUT_MS);
		ck_assert_msg(result == SG_OK, "frame %d: %s", frame, sg_last_error());
		drm_image_to_rgba(DRM_FORMAT_XRGB8888, written.map, written.stride, WIDTH, HEIGHT,
		                  rgba);
		uint8_t *expected = reference_render(reference, &animated);
		int differing =
		    count_differing_pixels(rgba, WIDTH * 4, expected, WIDTH * 4, WIDTH, HEIGHT);
		int moved = previous ? count_differing_pixels(expected, WIDTH * 4, previous,
		                                              WIDTH * 4, WIDTH, HEIGHT)
		                     : -1;
		printf("frame %d: written back vs surfaceless: %d of %d pixels differ (%d changed "
		       "since "
		       "the previous frame)\n",
		       frame, differing, WIDTH * HEIGHT, moved);
		if (frame == 0)
			check_three_rects_content(rgba, WIDTH, HEIGHT, opaque_black,
			                          "frame 0 written back");
		ck_assert_int_eq(differing, 0);
		ck_assert_msg(moved != 0, "frame %d is the same picture as frame %d", frame,
		              frame - 1);
		free(previous);
		previous = expected;
	}
	free(previous);
	free(rgba);
	uint32_t crtc_id = info->crtc_id; /* info goes with the output */
	sg_output_destroy(output);
	/* Restored: the CRTC is off again, as detach_virtual left it. */
	drmModeCrtcPtr crtc = drmModeGetCrtc(fd, crtc_id);
	ck_assert_ptr_nonnull(crtc);
	ck_assert_int_eq(crtc->mode_valid, 0);
	ck_assert_uint_eq(crtc->buffer_id, 0);
	drmModeFreeCrtc(crtc);
	sg_renderer_destroy(reference);
	animated_scene_finish(&animated);
	drmModeRmFB(fd, wb.fb_id);
	sg_dumb_buffer_finish(&written);
	close(fd);
}
END_TEST

struct writeback_damage {
	struct writeback wb;
	struct damage_log log;
};

static void add_writeback_of(drmModeAtomicReqPtr request, void *data)
{
	add_writeback(request, &((struct writeback_damage *)data)->wb);
}

static void log_damage_of(uint32_t blob, const struct drm_mode_rect *clips, int count, void *data)
{
	damage_log_hook(blob, clips, count, &((struct writeback_damage *)data)->log);
}

START_TEST(test_writeback_damage_equals_full_repaints)
{
	enum { FRAMES = 30, SCENE_W = 160, SCENE_H = 120 }; /* stretched over the mode */
	int fd = open_card();
	detach_virtual(fd);
	struct writeback_damage wd = {
	    .wb = {.connector_id = find_connector(fd, DRM_MODE_CONNECTOR_WRITEBACK), .fence = -1},
	    .log = {.fd = fd, .count = -1}};
	struct writeback *wb = &wd.wb;
	ck_assert(sg_kms_prop(fd, wb->connector_id, DRM_MODE_OBJECT_CONNECTOR, "WRITEBACK_FB_ID",
	                      &wb->fb_prop, NULL));
	ck_assert(sg_kms_prop(fd, wb->connector_id, DRM_MODE_OBJECT_CONNECTOR,
	                      "WRITEBACK_OUT_FENCE_PTR", &wb->fence_prop, NULL));
	struct sg_dumb_buffer written = {0};
	ck_assert_msg(sg_dumb_buffer_init(&written, fd, WIDTH, HEIGHT) == SG_OK, "%s",
	              sg_last_error());
	ck_assert_msg(sg_kms_add_fb(fd, WIDTH, HEIGHT, DRM_FORMAT_XRGB8888, written.handle,
	                            written.stride, 0, &wb->fb_id) == SG_OK,
	              "%s", sg_last_error());
	float clear[4] = {0.1f, 0.2f, 0.3f, 1.0f};
	struct sg_output *output = sg_output_create_for_testing(
	    &(struct sg_output_desc){.has_drm_fd = true,
	                             .drm_fd = fd,
	                             .connector = "Writeback-1",
	                             .width = WIDTH,
	                             .height = HEIGHT,
	                             .clear_color = {clear[0], clear[1], clear[2], clear[3]}},
	    &(struct sg_output_test_hooks){.writeback = true,
	                                   .commit = add_writeback_of,
	                                   .damage = log_damage_of,
	                                   .damage_blobs = true,
	                                   .data = &wd});
	ck_assert_msg(output, "sg_output_create (Writeback-1): %s", sg_last_error());
	const struct sg_output_info *info = sg_output_get_info(output);
	bool has_clips =
	    sg_kms_prop(fd, info->plane_id, DRM_MODE_OBJECT_PLANE, "FB_DAMAGE_CLIPS", NULL, NULL);
	printf("vkms: plane %u %s FB_DAMAGE_CLIPS; info.damage_clips %d\n", info->plane_id,
	       has_clips ? "has" : "lacks", info->damage_clips);
	ck_assert_int_eq(info->damage_clips, has_clips);

	struct sg_renderer *reference = reference_renderer(WIDTH, HEIGHT);
	ck_assert_int_eq(sg_renderer_set_damage_tracking(reference, false), SG_OK);
	struct damage_world w;
	damage_world_build(&w, 77u, false, SCENE_W, SCENE_H);
	struct sg_camera camera;
	damage_camera_init(&camera, SCENE_W, SCENE_H, false, 0.0f);
	size_t bytes = (size_t)WIDTH * HEIGHT * 4;
	uint8_t *rgba = malloc(bytes), *want = malloc(bytes), *before = malloc(bytes);
	ck_assert(rgba && want && before);
	int partial = 0;
	for (int frame = 0; frame < FRAMES; frame++) {
		const char *what = damage_world_frame_edits(&w, &camera, clear, frame);
		ck_assert_int_eq(
		    sg_output_set_clear_color(output, clear[0], clear[1], clear[2], clear[3]),
		    SG_OK);
		memset(written.map, 0x5a, written.size);
		sg_result result = sg_output_present(output, w.scene, &camera);
		ck_assert_msg(result == SG_OK, "frame %d: %s", frame, sg_last_error());
		ck_assert_msg(wb->fence >= 0, "frame %d: no writeback out-fence", frame);
		struct pollfd pfd = {.fd = wb->fence, .events = POLLIN};
		ck_assert_msg(poll(&pfd, 1, FENCE_TIMEOUT_MS) == 1, "frame %d: writeback fence",
		              frame);
		close(wb->fence);
		result = sg_output_wait(output, FLIP_TIMEOUT_MS);
		ck_assert_msg(result == SG_OK, "frame %d: %s", frame, sg_last_error());
		struct sg_render_stats stats;
		ck_assert_int_eq(sg_renderer_get_stats(sg_output_get_renderer(output), &stats),
		                 SG_OK);
		partial += stats.repainted_pixels < (uint64_t)WIDTH * HEIGHT;
		drm_image_to_rgba(DRM_FORMAT_XRGB8888, written.map, written.stride, WIDTH, HEIGHT,
		                  rgba);
		ck_assert_int_eq(
		    sg_renderer_set_clear_color(reference, clear[0], clear[1], clear[2], clear[3]),
		    SG_OK);
		ck_assert_int_eq(sg_renderer_render(reference, w.scene, &camera), SG_OK);
		ck_assert_int_eq(sg_renderer_read_pixels(reference, want, 0), SG_OK);
		int differing = count_differing_rgb(rgba, want, WIDTH, HEIGHT);
		ck_assert_msg(
		    differing == 0,
		    "frame %d (last edit: %s): %d of %d written-back pixels differ from a "
		    "full repaint",
		    frame, what, differing, WIDTH * HEIGHT);
		if (frame)
			damage_log_check_covers(&wd.log, before, want, WIDTH, HEIGHT, what);
		memcpy(before, want, bytes);
	}
	printf("vkms: %d frames written back equal to full repaints, %d repainted partially; %d "
	       "flips, %d with damage clips (%.1f%% of their pixels)\n",
	       FRAMES, partial, wd.log.flips, wd.log.partial,
	       wd.log.partial
	           ? 100.0 * (double)wd.log.clipped / ((double)wd.log.partial * WIDTH * HEIGHT)
	           : 0.0);
	ck_assert_msg(partial > FRAMES / 2, "only %d of %d frames were partial", partial, FRAMES);
	/* Made and checked also where the plane lacks FB_DAMAGE_CLIPS. */
	ck_assert_int_eq(wd.log.flips, FRAMES - 1);
	ck_assert_msg(wd.log.partial > FRAMES / 3, "only %d of %d flips had clips", wd.log.partial,
	              FRAMES - 1);
	sg_output_destroy(output);
	printf("vkms: %d damage blobs, none left after destroy\n", damage_log_check_freed(&wd.log));
	free(rgba);
	free(want);
	free(before);
	sg_renderer_destroy(reference);
	sg_scene_destroy(w.scene);
	drmModeRmFB(fd, wb->fb_id);
	sg_dumb_buffer_finish(&written);
	close(fd);
}
END_TEST

/* vkms has one CRTC. While it lights Virtual-1 (with a framebuffer of the
 * test's own: no renderer needed), an output for the writeback connector,
 * which that CRTC could drive, must not take it. */
START_TEST(test_crtc_of_another_connector_not_taken)
{
	int fd = open_card();
	detach_virtual(fd);
	uint32_t virtual = find_connector(fd, DRM_MODE_CONNECTOR_VIRTUAL);
	struct sg_output_choice choice = {.node = CARD};
	ck_assert_msg(sg_output_choose(fd,
	                               &(struct sg_output_want){.connector = "Virtual-1",
	                                                        .width = WIDTH,
	                                                        .height = HEIGHT},
	                               &choice) == SG_OK,
	              "%s", sg_last_error());
	struct sg_dumb_buffer mine = {0};
	uint32_t mine_fb = 0;
	ck_assert_int_eq(sg_dumb_buffer_init(&mine, fd, WIDTH, HEIGHT), SG_OK);
	ck_assert_int_eq(sg_kms_add_fb(fd, WIDTH, HEIGHT, DRM_FORMAT_XRGB8888, mine.handle,
	                               mine.stride, 0, &mine_fb),
	                 SG_OK);
	ck_assert_msg(
	    drmModeSetCrtc(fd, choice.crtc_id, mine_fb, 0, 0, &virtual, 1, &choice.mode) == 0,
	    "drmModeSetCrtc (Virtual-1): %s", strerror(errno));

	struct sg_output *second = sg_output_create_for_testing(
	    &(struct sg_output_desc){.has_drm_fd = true, .drm_fd = fd, .connector = "Writeback-1"},
	    &(struct sg_output_test_hooks){.writeback = true});
	printf("output for Writeback-1: %s: %s\n", sg_result_name(sg_last_result()),
	       sg_last_error());
	ck_assert_msg(!second, "the writeback connector took CRTC %u from Virtual-1",
	              choice.crtc_id);
	ck_assert_int_eq(sg_last_result(), SG_ERR_NOT_FOUND);
	ck_assert_msg(strstr(sg_last_error(), "no free CRTC") &&
	                  strstr(sg_last_error(), "Virtual-1") &&
	                  strstr(sg_last_error(), "Writeback-1") && strstr(sg_last_error(), CARD),
	              "%s", sg_last_error());
	/* Virtual-1 still shows the test's frame. */
	drmModeCrtcPtr crtc = drmModeGetCrtc(fd, choice.crtc_id);
	ck_assert(crtc && crtc->mode_valid);
	ck_assert_uint_eq(crtc->buffer_id, mine_fb);
	drmModeFreeCrtc(crtc);
	/* With Virtual-1 off again the CRTC is free (test_writeback_ten_frames
	 * shows the writeback connector then drives it). */
	detach_virtual(fd);
	drmModeRmFB(fd, mine_fb);
	sg_dumb_buffer_finish(&mine);
	close(fd);
}
END_TEST

Suite *output_vkms_suite(void)
{
	Suite *suite = suite_create("output-vkms");
	TCase *tc = tcase_create("output-vkms");
	tcase_add_test(tc, test_writeback_ten_frames);
	tcase_add_test(tc, test_writeback_damage_equals_full_repaints);
	tcase_add_test(tc, test_crtc_of_another_connector_not_taken);
	suite_add_tcase(suite, tc);
	return suite;
}
