/* sg_renderer_export_dmabuf on a real device: the fd, format and layout are
 * valid, and a second, independent GBM device and EGL display on the same
 * DRM device import the buffer and read the very pixels the renderer drew. */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>
#include <drm_fourcc.h>
#include <errno.h>
#include <fcntl.h>
#include <gbm.h>
#include <linux/dma-buf.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "drm_test.h"

/* The renderer's output and its dma-buf, shared by the tests below. */
static struct sg_renderer *renderer;
static struct sg_dmabuf dmabuf;
static uint8_t rendered[IMAGE_BYTES];

static void export_setup(void)
{
	renderer = render_three_rects(
		&(struct sg_renderer_desc){.width = IMAGE_SIZE, .height = IMAGE_SIZE,
	                                   .target = SG_TARGET_GBM},
		rendered);
	sg_result result = sg_renderer_export_dmabuf(renderer, &dmabuf);
	ck_assert_msg(result == SG_OK, "sg_renderer_export_dmabuf: %s", sg_last_error());
}

static void export_teardown(void)
{
	if (dmabuf.fd >= 0)
		close(dmabuf.fd);
	sg_renderer_destroy(renderer);
}

START_TEST(test_export_is_valid)
{
	printf("dma-buf: fd %d, fourcc %.4s, modifier 0x%llx, %dx%d, %d plane(s), stride %u, "
	       "offset %u\n",
	       dmabuf.fd, (const char *)&dmabuf.fourcc, (unsigned long long)dmabuf.modifier,
	       dmabuf.width, dmabuf.height, dmabuf.plane_count, dmabuf.strides[0],
	       dmabuf.offsets[0]);
	ck_assert_int_ge(dmabuf.fd, 0);
	ck_assert_msg(fcntl(dmabuf.fd, F_GETFD) >= 0, "fd %d is not open: %s", dmabuf.fd,
	              strerror(errno));
	ck_assert_msg(dmabuf.fourcc == DRM_FORMAT_ABGR8888 || dmabuf.fourcc == DRM_FORMAT_ARGB8888 ||
	                      dmabuf.fourcc == DRM_FORMAT_XBGR8888 ||
	                      dmabuf.fourcc == DRM_FORMAT_XRGB8888,
	              "fourcc 0x%08x is not one of the RGBA8 formats", dmabuf.fourcc);
	ck_assert_int_eq(dmabuf.width, IMAGE_SIZE);
	ck_assert_int_eq(dmabuf.height, IMAGE_SIZE);
	ck_assert_int_eq(dmabuf.plane_count, 1);
	ck_assert_uint_ge(dmabuf.strides[0], IMAGE_SIZE * 4);
	/* A dma-buf's size is what lseek to its end says. */
	off_t size = lseek(dmabuf.fd, 0, SEEK_END);
	ck_assert_msg(size >= (off_t)dmabuf.offsets[0] + (off_t)dmabuf.strides[0] * IMAGE_SIZE,
	              "dma-buf of %lld bytes is smaller than stride %u x %d rows",
	              (long long)size, dmabuf.strides[0], IMAGE_SIZE);
}
END_TEST

/* The plainest reader: mmap of the dma-buf itself, bracketed by DMA_BUF_IOCTL_SYNC. */
START_TEST(test_mmap_reads_same_pixels)
{
	ck_assert_uint_eq(dmabuf.modifier == DRM_FORMAT_MOD_INVALID ||
	                          dmabuf.modifier == DRM_FORMAT_MOD_LINEAR,
	                  1);
	size_t size = (size_t)dmabuf.offsets[0] + (size_t)dmabuf.strides[0] * IMAGE_SIZE;
	uint8_t *map = mmap(NULL, size, PROT_READ, MAP_SHARED, dmabuf.fd, 0);
	ck_assert_msg(map != MAP_FAILED, "mmap of the dma-buf: %s", strerror(errno));
	struct dma_buf_sync sync = {.flags = DMA_BUF_SYNC_START | DMA_BUF_SYNC_READ};
	ck_assert_msg(ioctl(dmabuf.fd, DMA_BUF_IOCTL_SYNC, &sync) == 0, "DMA_BUF_IOCTL_SYNC: %s",
	              strerror(errno));
	static uint8_t seen[IMAGE_BYTES];
	drm_image_to_rgba(dmabuf.fourcc, map + dmabuf.offsets[0], dmabuf.strides[0], IMAGE_SIZE,
	                  IMAGE_SIZE, seen);
	sync.flags = DMA_BUF_SYNC_END | DMA_BUF_SYNC_READ;
	ioctl(dmabuf.fd, DMA_BUF_IOCTL_SYNC, &sync);
	munmap(map, size);
	int differing = count_differing_pixels(rendered, IMAGE_SIZE * 4, seen, IMAGE_SIZE * 4,
	                                       IMAGE_SIZE, IMAGE_SIZE);
	printf("dma-buf mmap vs sg_renderer_read_pixels: %d of %d pixels differ\n", differing,
	       IMAGE_SIZE * IMAGE_SIZE);
	check_three_rects_content(seen, IMAGE_SIZE, IMAGE_SIZE, opaque_black, "dma-buf mmap");
	ck_assert_int_eq(differing, 0);
}
END_TEST

/* A second device of our own: its own fd on the primary node (kms_swrast
 * cannot map buffers through a render node), gbm device and EGL display. */
struct importer {
	int fd;
	struct gbm_device *gbm;
	EGLDisplay display;
};

static void importer_init(struct importer *importer)
{
	struct drm_nodes nodes;
	find_drm_nodes(&nodes);
	importer->fd = open(nodes.primary, O_RDWR | O_CLOEXEC);
	ck_assert_msg(importer->fd >= 0, "open %s: %s", nodes.primary, strerror(errno));
	importer->gbm = gbm_create_device(importer->fd);
	ck_assert_msg(importer->gbm, "gbm_create_device(%s): %s", nodes.primary, strerror(errno));
	importer->display = eglGetPlatformDisplay(EGL_PLATFORM_GBM_KHR, importer->gbm, NULL);
	ck_assert_msg(importer->display != EGL_NO_DISPLAY, "eglGetPlatformDisplay(GBM): 0x%x",
	              eglGetError());
	ck_assert_msg(eglInitialize(importer->display, NULL, NULL), "eglInitialize: 0x%x",
	              eglGetError());
}

static void importer_finish(struct importer *importer)
{
	eglMakeCurrent(importer->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	eglTerminate(importer->display);
	gbm_device_destroy(importer->gbm);
	close(importer->fd);
}

START_TEST(test_gbm_import_reads_same_pixels)
{
	struct importer importer;
	importer_init(&importer);
	struct gbm_import_fd_modifier_data data = {
		.width = (uint32_t)dmabuf.width,
		.height = (uint32_t)dmabuf.height,
		.format = dmabuf.fourcc,
		.num_fds = 1,
		.fds = {dmabuf.fd},
		.strides = {(int)dmabuf.strides[0]},
		.offsets = {(int)dmabuf.offsets[0]},
		.modifier = dmabuf.modifier,
	};
	struct gbm_bo *bo = gbm_bo_import(importer.gbm, GBM_BO_IMPORT_FD_MODIFIER, &data,
	                                  GBM_BO_USE_RENDERING);
	ck_assert_msg(bo, "gbm_bo_import(GBM_BO_IMPORT_FD_MODIFIER): %s", strerror(errno));
	ck_assert_uint_eq(gbm_bo_get_format(bo), dmabuf.fourcc);
	uint32_t stride = 0;
	void *map_data = NULL;
	const uint8_t *map = gbm_bo_map(bo, 0, 0, IMAGE_SIZE, IMAGE_SIZE, GBM_BO_TRANSFER_READ,
	                                &stride, &map_data);
	ck_assert_msg(map, "gbm_bo_map of the imported bo: %s", strerror(errno));
	static uint8_t seen[IMAGE_BYTES];
	drm_image_to_rgba(dmabuf.fourcc, map, stride, IMAGE_SIZE, IMAGE_SIZE, seen);
	gbm_bo_unmap(bo, map_data);
	gbm_bo_destroy(bo);
	importer_finish(&importer);
	int differing = count_differing_pixels(rendered, IMAGE_SIZE * 4, seen, IMAGE_SIZE * 4,
	                                       IMAGE_SIZE, IMAGE_SIZE);
	printf("second gbm device, gbm_bo_import + gbm_bo_map: %d of %d pixels differ\n", differing,
	       IMAGE_SIZE * IMAGE_SIZE);
	check_three_rects_content(seen, IMAGE_SIZE, IMAGE_SIZE, opaque_black, "gbm_bo_import");
	ck_assert_int_eq(differing, 0);
}
END_TEST

/* eglCreateImage(EGL_LINUX_DMA_BUF_EXT) on the second display -> texture ->
 * FBO -> glReadPixels. */
static void egl_import_read(EGLDisplay display, uint8_t *seen)
{
	ck_assert(eglBindAPI(EGL_OPENGL_ES_API));
	static const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 2, EGL_NONE};
	EGLContext context = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT,
	                                      context_attribs);
	ck_assert_msg(context != EGL_NO_CONTEXT, "eglCreateContext: 0x%x", eglGetError());
	ck_assert_msg(eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context),
	              "eglMakeCurrent without a surface: 0x%x", eglGetError());
	const EGLAttrib image_attribs[] = {
		EGL_WIDTH, dmabuf.width, EGL_HEIGHT, dmabuf.height,
		EGL_LINUX_DRM_FOURCC_EXT, dmabuf.fourcc,
		EGL_DMA_BUF_PLANE0_FD_EXT, dmabuf.fd,
		EGL_DMA_BUF_PLANE0_OFFSET_EXT, dmabuf.offsets[0],
		EGL_DMA_BUF_PLANE0_PITCH_EXT, dmabuf.strides[0],
		EGL_NONE,
	};
	EGLImage image = eglCreateImage(display, EGL_NO_CONTEXT, EGL_LINUX_DMA_BUF_EXT, NULL,
	                                image_attribs);
	ck_assert_msg(image != EGL_NO_IMAGE, "eglCreateImage(EGL_LINUX_DMA_BUF_EXT): 0x%x",
	              eglGetError());
	PFNGLEGLIMAGETARGETTEXTURE2DOESPROC image_target_texture =
		(PFNGLEGLIMAGETARGETTEXTURE2DOESPROC)eglGetProcAddress("glEGLImageTargetTexture2DOES");
	ck_assert_ptr_nonnull(image_target_texture);
	GLuint texture, framebuffer;
	glGenTextures(1, &texture);
	glBindTexture(GL_TEXTURE_2D, texture);
	image_target_texture(GL_TEXTURE_2D, image);
	glGenFramebuffers(1, &framebuffer);
	glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
	glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture, 0);
	GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
	ck_assert_msg(status == GL_FRAMEBUFFER_COMPLETE, "FBO of the imported image: 0x%x", status);
	glPixelStorei(GL_PACK_ALIGNMENT, 1);
	/* Rows in memory order: the renderer already put the image's top row first. */
	glReadPixels(0, 0, IMAGE_SIZE, IMAGE_SIZE, GL_RGBA, GL_UNSIGNED_BYTE, seen);
	ck_assert_int_eq(glGetError(), GL_NO_ERROR);
	glDeleteFramebuffers(1, &framebuffer);
	glDeleteTextures(1, &texture);
	eglDestroyImage(display, image);
	eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	eglDestroyContext(display, context);
}

START_TEST(test_egl_import_reads_same_pixels)
{
	struct importer importer;
	importer_init(&importer);
	static uint8_t seen[IMAGE_BYTES];
	egl_import_read(importer.display, seen);
	importer_finish(&importer);
	int differing = count_differing_pixels(rendered, IMAGE_SIZE * 4, seen, IMAGE_SIZE * 4,
	                                       IMAGE_SIZE, IMAGE_SIZE);
	printf("second EGL display, EGLImage + glReadPixels: %d of %d pixels differ\n", differing,
	       IMAGE_SIZE * IMAGE_SIZE);
	check_three_rects_content(seen, IMAGE_SIZE, IMAGE_SIZE, opaque_black, "EGLImage import");
	ck_assert_int_eq(differing, 0);
}
END_TEST

Suite *dmabuf_suite(void)
{
	Suite *suite = suite_create("dmabuf");
	TCase *tc = tcase_create("dmabuf");
	/* Checked fixtures run in each test's own process, like the test. */
	tcase_add_checked_fixture(tc, export_setup, export_teardown);
	tcase_add_test(tc, test_export_is_valid);
	tcase_add_test(tc, test_mmap_reads_same_pixels);
	tcase_add_test(tc, test_gbm_import_reads_same_pixels);
	tcase_add_test(tc, test_egl_import_reads_same_pixels);
	suite_add_tcase(suite, tc);
	return suite;
}
