/* KMS on virtio-gpu: three-rects rendered at the mode size, copied into a dumb
 * buffer as XRGB8888 and scanned out (atomic and legacy modesets, then page
 * flips). What the CRTC scans out is read back through a second, independent
 * fd (drmModeGetCrtc -> drmModeGetFB -> map its dumb buffer) and compared with
 * a surfaceless render of the same size. */
#include <drm_fourcc.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <xf86drm.h>

#include "../../src/output/dumb.h"
#include "../../src/output/kms.h"
#include "drm_test.h"
#include "kms_output.h"
#include "three_rects_scene.h"

#define FLIP_TIMEOUT_MS 5000

static int open_primary(void)
{
	struct drm_nodes nodes;
	find_drm_nodes(&nodes);
	int fd = open(nodes.primary, O_RDWR | O_CLOEXEC);
	ck_assert_msg(fd >= 0, "open %s: %s", nodes.primary, strerror(errno));
	return fd;
}

static uint8_t *render_sized(enum sg_target_kind kind, int width, int height)
{
	uint8_t *rgba = malloc((size_t)width * (size_t)height * 4);
	ck_assert_ptr_nonnull(rgba);
	struct sg_renderer *renderer = render_three_rects(
		&(struct sg_renderer_desc){.width = width, .height = height, .target = kind}, rgba);
	sg_renderer_destroy(renderer);
	return rgba;
}

/* What the CRTC shows, read by a reader of its own: a new fd (root may read
 * other clients' framebuffers: drmModeGetFB gives it a handle). RGBA, packed. */
static uint8_t *read_scanout(const struct kms_output *output, uint32_t expected_fb)
{
	int fd = open_primary();
	drmModeCrtcPtr crtc = drmModeGetCrtc(fd, output->crtc_id);
	ck_assert_msg(crtc, "drmModeGetCrtc(%u): %s", output->crtc_id, strerror(errno));
	ck_assert_msg(crtc->mode_valid, "CRTC %u is off", output->crtc_id);
	ck_assert_uint_eq(crtc->buffer_id, expected_fb);
	ck_assert_uint_eq(crtc->mode.hdisplay, output->mode.hdisplay);
	drmModeFBPtr fb = drmModeGetFB(fd, crtc->buffer_id);
	ck_assert_msg(fb && fb->handle, "drmModeGetFB(%u) gave no handle: %s", crtc->buffer_id,
	              strerror(errno));
	ck_assert_uint_eq(fb->bpp, 32);
	ck_assert_uint_eq(fb->depth, 24); /* XRGB8888 */
	uint64_t offset = 0;
	int error = drmModeMapDumbBuffer(fd, fb->handle, &offset);
	ck_assert_msg(!error, "DRM_IOCTL_MODE_MAP_DUMB of the scanned-out fb: %s", strerror(-error));
	size_t size = (size_t)fb->pitch * fb->height;
	uint8_t *map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, (off_t)offset);
	ck_assert_msg(map != MAP_FAILED, "mmap of the scanned-out fb: %s", strerror(errno));
	uint8_t *rgba = malloc((size_t)fb->width * fb->height * 4);
	ck_assert_ptr_nonnull(rgba);
	drm_image_to_rgba(DRM_FORMAT_XRGB8888, map, fb->pitch, (int)fb->width, (int)fb->height, rgba);
	munmap(map, size);
	drmCloseBufferHandle(fd, fb->handle);
	drmModeFreeFB(fb);
	drmModeFreeCrtc(crtc);
	close(fd);
	return rgba;
}

struct scanout_buffer {
	struct sg_dumb_buffer dumb;
	uint32_t fb_id;
};

static void scanout_buffer_init(struct scanout_buffer *buffer, const struct kms_output *output)
{
	uint32_t width = output->mode.hdisplay, height = output->mode.vdisplay;
	sg_result result = sg_dumb_buffer_init(&buffer->dumb, output->fd, width, height);
	ck_assert_msg(result == SG_OK, "%s", sg_last_error());
	result = sg_kms_add_fb(output->fd, width, height, DRM_FORMAT_XRGB8888, buffer->dumb.handle,
	                       buffer->dumb.stride, 0, &buffer->fb_id);
	ck_assert_msg(result == SG_OK, "%s", sg_last_error());
}

static void scanout_buffer_finish(struct scanout_buffer *buffer)
{
	drmModeRmFB(buffer->dumb.fd, buffer->fb_id);
	sg_dumb_buffer_finish(&buffer->dumb);
}

static void init_output(struct kms_output *output, int fd, bool atomic)
{
	sg_result result = kms_output_init(output, fd, atomic);
	ck_assert_msg(result == SG_OK, "kms_output_init: %s", sg_last_error());
	printf("kms: %s, mode %s (%dx%d@%u), CRTC %u, plane %u, %s\n", output->name,
	       output->mode.name, output->mode.hdisplay, output->mode.vdisplay, output->mode.vrefresh,
	       output->crtc_id, output->plane_id, output->atomic ? "atomic" : "legacy");
	ck_assert_int_eq(output->atomic, atomic);
}

START_TEST(test_output_found)
{
	int fd = open_primary();
	struct kms_output output;
	init_output(&output, fd, true);
	/* virtio-gpu's one output (tests/vm/README.md). */
	ck_assert_str_eq(output.name, "Virtual-1");
	ck_assert_int_gt(output.mode.hdisplay, 0);
	ck_assert_int_gt(output.mode.vdisplay, 0);
	ck_assert(kms_output_supports(&output, DRM_FORMAT_XRGB8888));
	kms_output_finish(&output);
	close(fd);
}
END_TEST

/* _i: 0 atomic modeset, 1 drmModeSetCrtc. */
START_TEST(test_scanout_matches_surfaceless)
{
	bool atomic = _i == 0;
	int fd = open_primary();
	struct kms_output output;
	init_output(&output, fd, atomic);
	int width = output.mode.hdisplay, height = output.mode.vdisplay;
	uint8_t *gbm = render_sized(SG_TARGET_GBM, width, height);
	uint8_t *surfaceless = render_sized(SG_TARGET_SURFACELESS, width, height);

	struct scanout_buffer buffer;
	scanout_buffer_init(&buffer, &output);
	sg_dumb_buffer_write_rgba(&buffer.dumb, gbm, (size_t)width * 4);
	sg_result result = kms_output_show(&output, buffer.fb_id);
	ck_assert_msg(result == SG_OK, "kms_output_show: %s", sg_last_error());

	uint8_t *shown = read_scanout(&output, buffer.fb_id);
	int differing = count_differing_pixels(shown, (size_t)width * 4, surfaceless,
	                                       (size_t)width * 4, width, height);
	printf("scanout (%s modeset, %dx%d) vs surfaceless: %d of %d pixels differ\n",
	       atomic ? "atomic" : "legacy", width, height, differing, width * height);
	check_three_rects_content(shown, width, height, opaque_black, "scanout");
	ck_assert_int_eq(differing, 0);

	free(shown);
	free(surfaceless);
	free(gbm);
	kms_output_finish(&output);
	scanout_buffer_finish(&buffer);
	close(fd);
}
END_TEST

static double seconds_now(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

/* Re-render with a new clear colour each frame into the back buffer, flip,
 * and check after each flip event that the new frame is what is scanned out. */
START_TEST(test_page_flips)
{
	int fd = open_primary();
	struct kms_output output;
	init_output(&output, fd, true);
	int width = output.mode.hdisplay, height = output.mode.vdisplay;
	size_t stride = (size_t)width * 4;
	struct sg_scene *scene = three_rects_build();
	ck_assert_ptr_nonnull(scene);
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
		.width = width, .height = height, .target = SG_TARGET_GBM});
	ck_assert_msg(renderer, "%s", sg_last_error());
	struct sg_camera camera;
	sg_camera_init_pixels(&camera, IMAGE_SIZE, IMAGE_SIZE);
	uint8_t *rgba = malloc(stride * (size_t)height);
	ck_assert_ptr_nonnull(rgba);

	struct scanout_buffer buffers[2];
	scanout_buffer_init(&buffers[0], &output);
	scanout_buffer_init(&buffers[1], &output);
	enum { FRAMES = 5 };
	double flip_time = 0;
	for (int frame = 0; frame < FRAMES; frame++) {
		uint8_t grey = (uint8_t)(frame * 40);
		ck_assert_int_eq(sg_renderer_set_clear_color(renderer, grey / 255.0f, grey / 255.0f,
		                                             grey / 255.0f, 1.0f),
		                 SG_OK);
		ck_assert_msg(sg_renderer_render(renderer, scene, &camera) == SG_OK, "%s",
		              sg_last_error());
		ck_assert_msg(sg_renderer_read_pixels(renderer, rgba, stride) == SG_OK, "%s",
		              sg_last_error());
		struct scanout_buffer *back = &buffers[frame % 2];
		sg_dumb_buffer_write_rgba(&back->dumb, rgba, stride);
		double start = seconds_now();
		sg_result result = frame == 0 ? kms_output_show(&output, back->fb_id)
		                              : kms_output_flip(&output, back->fb_id, FLIP_TIMEOUT_MS);
		ck_assert_msg(result == SG_OK, "frame %d: %s", frame, sg_last_error());
		if (frame > 0)
			flip_time += seconds_now() - start;

		uint8_t *shown = read_scanout(&output, back->fb_id);
		int differing = count_differing_pixels(shown, stride, rgba, stride, width, height);
		const uint8_t clear[4] = {grey, grey, grey, 255};
		check_three_rects_content(shown, width, height, clear, "flipped frame");
		printf("frame %d (clear grey %u) on fb %u: %d of %d pixels differ from its render\n",
		       frame, grey, back->fb_id, differing, width * height);
		ck_assert_int_eq(differing, 0);
		free(shown);
	}
	printf("%d page flips with events, %.1f ms each on average\n", FRAMES - 1,
	       flip_time * 1000 / (FRAMES - 1));

	kms_output_finish(&output);
	scanout_buffer_finish(&buffers[1]);
	scanout_buffer_finish(&buffers[0]);
	free(rgba);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
	close(fd);
}
END_TEST

/* Zero-copy scanout of the renderer's own gbm_bo, where the plane takes its
 * format: the dma-buf imported into the KMS fd, drmModeAddFB2. virtio-gpu
 * scans out XRGB8888 only, so there the dumb-buffer copy is the path; this
 * checks that the refusal is clean and names the format. */
START_TEST(test_gbm_bo_scanout)
{
	int fd = open_primary();
	struct kms_output output;
	init_output(&output, fd, true);
	int width = output.mode.hdisplay, height = output.mode.vdisplay;
	uint8_t *rgba = malloc((size_t)width * (size_t)height * 4);
	ck_assert_ptr_nonnull(rgba);
	struct sg_renderer *renderer = render_three_rects(
		&(struct sg_renderer_desc){.width = width, .height = height, .target = SG_TARGET_GBM},
		rgba);
	struct sg_dmabuf dmabuf;
	ck_assert_msg(sg_renderer_export_dmabuf(renderer, &dmabuf) == SG_OK, "%s", sg_last_error());
	uint32_t handle = 0;
	ck_assert_msg(drmPrimeFDToHandle(fd, dmabuf.fd, &handle) == 0, "drmPrimeFDToHandle: %s",
	              strerror(errno));
	uint32_t fb_id = 0;
	sg_result result = sg_kms_add_fb(fd, (uint32_t)width, (uint32_t)height, dmabuf.fourcc,
	                                 handle, dmabuf.strides[0], dmabuf.offsets[0], &fb_id);
	bool supported = kms_output_supports(&output, dmabuf.fourcc);
	printf("gbm_bo (%.4s) scanout: plane %s the format; drmModeAddFB2: %s\n",
	       (const char *)&dmabuf.fourcc, supported ? "takes" : "does not take",
	       result ? sg_last_error() : "ok");
	if (supported) {
		ck_assert_msg(result == SG_OK, "%s", sg_last_error());
		ck_assert_msg(kms_output_show(&output, fb_id) == SG_OK, "%s", sg_last_error());
		drmModeCrtcPtr crtc = drmModeGetCrtc(fd, output.crtc_id);
		ck_assert_uint_eq(crtc->buffer_id, fb_id);
		drmModeFreeCrtc(crtc);
		kms_output_finish(&output);
		drmModeRmFB(fd, fb_id);
	} else {
		ck_assert_int_eq(result, SG_ERR_DEVICE);
		char fourcc[5];
		snprintf(fourcc, sizeof(fourcc), "%.4s", (const char *)&dmabuf.fourcc);
		ck_assert_msg(strstr(sg_last_error(), "drmModeAddFB2") && strstr(sg_last_error(), fourcc),
		              "message '%s' does not name drmModeAddFB2 and %s", sg_last_error(), fourcc);
	}
	drmCloseBufferHandle(fd, handle);
	close(dmabuf.fd);
	sg_renderer_destroy(renderer);
	free(rgba);
	close(fd);
}
END_TEST

/* Nodes without KMS: the output code says so (naming the call), never crashes. */
static void check_no_kms(const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);
	ck_assert_msg(fd >= 0, "open %s: %s", path, strerror(errno));
	struct kms_output output;
	sg_result result = kms_output_init(&output, fd, true);
	printf("kms on %s: %s: %s\n", path, sg_result_name(result), sg_last_error());
	ck_assert_int_eq(result, SG_ERR_DEVICE);
	ck_assert_msg(strstr(sg_last_error(), "drmModeGetResources"), "'%s'", sg_last_error());
	kms_output_finish(&output);
	close(fd);
}

/* Render nodes never have KMS, whatever the driver. */
START_TEST(test_no_kms_on_render_node)
{
	struct drm_nodes nodes;
	find_drm_nodes(&nodes);
	check_no_kms(nodes.render);
}
END_TEST

/* vgem is a GEM-only driver: its primary node has no KMS either. */
START_TEST(test_no_kms_on_vgem)
{
	struct drm_nodes nodes;
	find_drm_nodes(&nodes);
	check_no_kms(nodes.primary);
}
END_TEST

Suite *kms_suite(bool has_kms)
{
	Suite *suite = suite_create("kms");
	TCase *tc = tcase_create("kms");
	tcase_add_test(tc, test_no_kms_on_render_node);
	if (has_kms) {
		tcase_add_test(tc, test_output_found);
		tcase_add_loop_test(tc, test_scanout_matches_surfaceless, 0, 2);
		tcase_add_test(tc, test_page_flips);
		tcase_add_test(tc, test_gbm_bo_scanout);
	} else {
		tcase_add_test(tc, test_no_kms_on_vgem);
	}
	suite_add_tcase(suite, tc);
	return suite;
}
