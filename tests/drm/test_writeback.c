/* Writeback on vkms (tests/vm/build-vkms.sh; run-in-vm.sh sets
 * SG_DRM_WRITEBACK=1 in the vkms guest): three-rects rendered by the GBM
 * target on card0 at the mode size, copied into a dumb buffer (XRGB8888) and
 * scanned out on the primary plane of a CRTC whose only connector is the
 * writeback one (on 6.1 vkms refuses Virtual-1 and writeback on one CRTC:
 * Virtual-1 is detached in the same commit). The commit carries a writeback
 * dumb buffer (WRITEBACK_FB_ID) and asks for an out-fence
 * (WRITEBACK_OUT_FENCE_PTR); once it signals, the written-back pixels are
 * compared with a surfaceless render of the same size. */
#include <drm_fourcc.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "../../src/output/dumb.h"
#include "../../src/output/kms.h"
#include "drm_test.h"

#define FENCE_TIMEOUT_MS 10000

static uint32_t prop_id(int fd, uint32_t object, uint32_t type, const char *name)
{
	drmModeObjectPropertiesPtr props = drmModeObjectGetProperties(fd, object, type);
	ck_assert_msg(props, "drmModeObjectGetProperties(%u): %s", object, strerror(errno));
	uint32_t id = 0;
	for (uint32_t i = 0; i < props->count_props && !id; i++) {
		drmModePropertyPtr prop = drmModeGetProperty(fd, props->props[i]);
		if (prop && strcmp(prop->name, name) == 0)
			id = prop->prop_id;
		drmModeFreeProperty(prop);
	}
	drmModeFreeObjectProperties(props);
	ck_assert_msg(id, "object %u has no property %s", object, name);
	return id;
}

static uint64_t prop_value(int fd, uint32_t object, uint32_t type, const char *name)
{
	drmModeObjectPropertiesPtr props = drmModeObjectGetProperties(fd, object, type);
	ck_assert_ptr_nonnull(props);
	uint64_t value = 0;
	bool found = false;
	for (uint32_t i = 0; i < props->count_props && !found; i++) {
		drmModePropertyPtr prop = drmModeGetProperty(fd, props->props[i]);
		if (prop && strcmp(prop->name, name) == 0) {
			value = props->prop_values[i];
			found = true;
		}
		drmModeFreeProperty(prop);
	}
	drmModeFreeObjectProperties(props);
	ck_assert_msg(found, "object %u has no property %s", object, name);
	return value;
}

static void add(drmModeAtomicReqPtr req, int fd, uint32_t object, uint32_t type, const char *name,
                uint64_t value)
{
	int n = drmModeAtomicAddProperty(req, object, prop_id(fd, object, type, name), value);
	ck_assert_msg(n >= 0, "drmModeAtomicAddProperty(%u, %s): %s", object, name, strerror(-n));
}

static double seconds_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct writeback_setup {
	uint32_t writeback_id; /* the writeback connector */
	uint32_t other_ids[8]; /* every other connector (Virtual-1), to detach */
	int other_count;
	uint32_t crtc_id, plane_id;
	drmModeModeInfo mode;
};

static void find_writeback(int fd, struct writeback_setup *setup)
{
	memset(setup, 0, sizeof(*setup));
	drmModeResPtr res = drmModeGetResources(fd);
	ck_assert_msg(res, "drmModeGetResources: %s", strerror(errno));
	uint32_t possible_crtcs = 0;
	drmModeModeInfo fallback_mode = {0};
	for (int i = 0; i < res->count_connectors; i++) {
		drmModeConnectorPtr conn = drmModeGetConnector(fd, res->connectors[i]);
		ck_assert_ptr_nonnull(conn);
		printf("connector %u: type %u (%s)-%u, %d modes\n", conn->connector_id,
		       conn->connector_type, drmModeGetConnectorTypeName(conn->connector_type),
		       conn->connector_type_id, conn->count_modes);
		if (conn->connector_type == DRM_MODE_CONNECTOR_WRITEBACK && !setup->writeback_id) {
			setup->writeback_id = conn->connector_id;
			for (int e = 0; e < conn->count_encoders; e++) {
				drmModeEncoderPtr enc = drmModeGetEncoder(fd, conn->encoders[e]);
				if (enc)
					possible_crtcs |= enc->possible_crtcs;
				drmModeFreeEncoder(enc);
			}
		} else if (setup->other_count < 8) {
			setup->other_ids[setup->other_count++] = conn->connector_id;
			/* The mode comes from the real output (Virtual-1: 1024x768). */
			for (int m = 0; m < conn->count_modes && !setup->mode.hdisplay; m++)
				if (conn->modes[m].type & DRM_MODE_TYPE_PREFERRED)
					setup->mode = conn->modes[m];
			if (conn->count_modes && !fallback_mode.hdisplay)
				fallback_mode = conn->modes[0];
		}
		drmModeFreeConnector(conn);
	}
	ck_assert_msg(setup->writeback_id, "no writeback connector (is this vkms?)");
	if (!setup->mode.hdisplay)
		setup->mode = fallback_mode;
	ck_assert_msg(setup->mode.hdisplay, "no mode on any connector");
	for (int i = 0; i < res->count_crtcs && !setup->crtc_id; i++) {
		if (!(possible_crtcs & (1u << i)))
			continue;
		setup->crtc_id = res->crtcs[i];
		drmModePlaneResPtr planes = drmModeGetPlaneResources(fd);
		ck_assert_ptr_nonnull(planes);
		for (uint32_t p = 0; p < planes->count_planes && !setup->plane_id; p++) {
			drmModePlanePtr plane = drmModeGetPlane(fd, planes->planes[p]);
			if (plane && (plane->possible_crtcs & (1u << i)) &&
			    prop_value(fd, plane->plane_id, DRM_MODE_OBJECT_PLANE, "type") ==
			            DRM_PLANE_TYPE_PRIMARY)
				setup->plane_id = plane->plane_id;
			drmModeFreePlane(plane);
		}
		drmModeFreePlaneResources(planes);
	}
	drmModeFreeResources(res);
	ck_assert_msg(setup->crtc_id, "no CRTC for the writeback connector (possible_crtcs 0x%x)",
	              possible_crtcs);
	ck_assert_msg(setup->plane_id, "no primary plane on CRTC %u", setup->crtc_id);
}

static int open_card(void)
{
	struct drm_nodes nodes;
	/* vkms has no render node, so find_drm_nodes (which wants both) is not used. */
	snprintf(nodes.primary, sizeof(nodes.primary), "/dev/dri/card0");
	int fd = open(nodes.primary, O_RDWR | O_CLOEXEC);
	ck_assert_msg(fd >= 0, "open %s: %s", nodes.primary, strerror(errno));
	ck_assert_msg(drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1) == 0,
	              "DRM_CLIENT_CAP_ATOMIC: %s", strerror(errno));
	ck_assert_msg(drmSetClientCap(fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1) == 0,
	              "DRM_CLIENT_CAP_WRITEBACK_CONNECTORS: %s", strerror(errno));
	return fd;
}

START_TEST(test_writeback_connector_found)
{
	int fd = open_card();
	struct writeback_setup setup;
	find_writeback(fd, &setup);
	printf("writeback connector %u on CRTC %u, primary plane %u, mode %s (%ux%u)\n",
	       setup.writeback_id, setup.crtc_id, setup.plane_id, setup.mode.name,
	       setup.mode.hdisplay, setup.mode.vdisplay);
	/* Without the client cap the writeback connector stays hidden. */
	int plain = open("/dev/dri/card0", O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(plain, 0);
	drmModeResPtr res = drmModeGetResources(plain);
	ck_assert_ptr_nonnull(res);
	for (int i = 0; i < res->count_connectors; i++)
		ck_assert_uint_ne(res->connectors[i], setup.writeback_id);
	drmModeFreeResources(res);
	close(plain);
	close(fd);
}
END_TEST

START_TEST(test_writeback_matches_surfaceless)
{
	int fd = open_card();
	struct writeback_setup setup;
	find_writeback(fd, &setup);
	const int width = setup.mode.hdisplay, height = setup.mode.vdisplay;
	const size_t bytes = (size_t)width * (size_t)height * 4;

	/* The scanned-out image: the GBM target on card0 (kms_swrast). */
	uint8_t *gbm_rgba = malloc(bytes), *surfaceless_rgba = malloc(bytes),
	        *written_rgba = malloc(bytes);
	ck_assert(gbm_rgba && surfaceless_rgba && written_rgba);
	double t = seconds_now();
	struct sg_renderer *gbm = render_three_rects(
		&(struct sg_renderer_desc){.width = width, .height = height, .target = SG_TARGET_GBM,
	                                   .device = "/dev/dri/card0"},
		gbm_rgba);
	const struct sg_renderer_info *info = sg_renderer_get_info(gbm);
	printf("gbm render %dx%d on %s (EGL %s): %.2f s\n", width, height, info->device,
	       info->egl_driver, seconds_now() - t);
	ck_assert_int_eq(info->target, SG_TARGET_GBM);
	check_three_rects_content(gbm_rgba, width, height, opaque_black, "gbm on vkms");
	sg_renderer_destroy(gbm);

	struct sg_dumb_buffer scanout = {0}, written = {0};
	sg_result result = sg_dumb_buffer_init(&scanout, fd, (uint32_t)width, (uint32_t)height);
	ck_assert_msg(result == SG_OK, "scanout dumb buffer: %s", sg_last_error());
	result = sg_dumb_buffer_init(&written, fd, (uint32_t)width, (uint32_t)height);
	ck_assert_msg(result == SG_OK, "writeback dumb buffer: %s", sg_last_error());
	sg_dumb_buffer_write_rgba(&scanout, gbm_rgba, (size_t)width * 4);
	memset(written.map, 0x5a, written.size); /* nothing that could pass by accident */
	uint32_t scanout_fb = 0, written_fb = 0;
	result = sg_kms_add_fb(fd, (uint32_t)width, (uint32_t)height, DRM_FORMAT_XRGB8888,
	                       scanout.handle, scanout.stride, 0, &scanout_fb);
	ck_assert_msg(result == SG_OK, "scanout fb: %s", sg_last_error());
	result = sg_kms_add_fb(fd, (uint32_t)width, (uint32_t)height, DRM_FORMAT_XRGB8888,
	                       written.handle, written.stride, 0, &written_fb);
	ck_assert_msg(result == SG_OK, "writeback fb: %s", sg_last_error());

	uint32_t mode_blob = 0;
	ck_assert_msg(drmModeCreatePropertyBlob(fd, &setup.mode, sizeof(setup.mode), &mode_blob) == 0,
	              "mode blob: %s", strerror(errno));
	int32_t out_fence = -1;
	drmModeAtomicReqPtr req = drmModeAtomicAlloc();
	ck_assert_ptr_nonnull(req);
	const uint32_t C = DRM_MODE_OBJECT_CONNECTOR, P = DRM_MODE_OBJECT_PLANE,
	               R = DRM_MODE_OBJECT_CRTC;
	for (int i = 0; i < setup.other_count; i++)
		add(req, fd, setup.other_ids[i], C, "CRTC_ID", 0); /* Virtual-1 off this CRTC */
	add(req, fd, setup.writeback_id, C, "CRTC_ID", setup.crtc_id);
	add(req, fd, setup.writeback_id, C, "WRITEBACK_FB_ID", written_fb);
	add(req, fd, setup.writeback_id, C, "WRITEBACK_OUT_FENCE_PTR",
	    (uint64_t)(uintptr_t)&out_fence);
	add(req, fd, setup.crtc_id, R, "MODE_ID", mode_blob);
	add(req, fd, setup.crtc_id, R, "ACTIVE", 1);
	add(req, fd, setup.plane_id, P, "FB_ID", scanout_fb);
	add(req, fd, setup.plane_id, P, "CRTC_ID", setup.crtc_id);
	add(req, fd, setup.plane_id, P, "SRC_X", 0);
	add(req, fd, setup.plane_id, P, "SRC_Y", 0);
	add(req, fd, setup.plane_id, P, "SRC_W", (uint64_t)width << 16);
	add(req, fd, setup.plane_id, P, "SRC_H", (uint64_t)height << 16);
	add(req, fd, setup.plane_id, P, "CRTC_X", 0);
	add(req, fd, setup.plane_id, P, "CRTC_Y", 0);
	add(req, fd, setup.plane_id, P, "CRTC_W", (uint64_t)width);
	add(req, fd, setup.plane_id, P, "CRTC_H", (uint64_t)height);
	t = seconds_now();
	int error = drmModeAtomicCommit(fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	ck_assert_msg(error == 0, "atomic commit (writeback connector only, Virtual-1 detached): %s",
	              strerror(errno));
	ck_assert_msg(out_fence >= 0, "the commit gave no writeback out-fence");
	struct pollfd pfd = {.fd = out_fence, .events = POLLIN};
	int ready = poll(&pfd, 1, FENCE_TIMEOUT_MS);
	ck_assert_msg(ready == 1, "the writeback out-fence did not signal within %d ms (%s)",
	              FENCE_TIMEOUT_MS, ready < 0 ? strerror(errno) : "timeout");
	printf("commit + writeback out-fence: %.3f s\n", seconds_now() - t);
	close(out_fence);
	drmModeAtomicFree(req);

	drm_image_to_rgba(DRM_FORMAT_XRGB8888, written.map, written.stride, width, height,
	                  written_rgba);
	/* The reference: a surfaceless render, no DRM device involved. */
	sg_renderer_destroy(render_three_rects(
		&(struct sg_renderer_desc){.width = width, .height = height,
	                                   .target = SG_TARGET_SURFACELESS},
		surfaceless_rgba));
	int differing = count_differing_pixels(written_rgba, (size_t)width * 4, surfaceless_rgba,
	                                       (size_t)width * 4, width, height);
	printf("writeback vs surfaceless: %d of %d pixels differ\n", differing, width * height);
	int gbm_differing = count_differing_pixels(gbm_rgba, (size_t)width * 4, surfaceless_rgba,
	                                           (size_t)width * 4, width, height);
	printf("gbm (scanned out) vs surfaceless: %d of %d pixels differ\n", gbm_differing,
	       width * height);
	check_three_rects_content(written_rgba, width, height, opaque_black, "written back");
	ck_assert_int_eq(differing, 0);

	/* Off again: the CRTC, its plane and the writeback connector. */
	req = drmModeAtomicAlloc();
	add(req, fd, setup.writeback_id, C, "CRTC_ID", 0);
	add(req, fd, setup.plane_id, P, "FB_ID", 0);
	add(req, fd, setup.plane_id, P, "CRTC_ID", 0);
	add(req, fd, setup.crtc_id, R, "MODE_ID", 0);
	add(req, fd, setup.crtc_id, R, "ACTIVE", 0);
	error = drmModeAtomicCommit(fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	ck_assert_msg(error == 0, "atomic commit turning the CRTC off: %s", strerror(errno));
	drmModeAtomicFree(req);
	drmModeDestroyPropertyBlob(fd, mode_blob);
	drmModeRmFB(fd, written_fb);
	drmModeRmFB(fd, scanout_fb);
	sg_dumb_buffer_finish(&written);
	sg_dumb_buffer_finish(&scanout);
	free(gbm_rgba);
	free(surfaceless_rgba);
	free(written_rgba);
	close(fd);
}
END_TEST

Suite *writeback_suite(void)
{
	Suite *suite = suite_create("writeback");
	TCase *tc = tcase_create("writeback");
	tcase_add_test(tc, test_writeback_connector_found);
	tcase_add_test(tc, test_writeback_matches_surfaceless);
	suite_add_tcase(suite, tc);
	return suite;
}
