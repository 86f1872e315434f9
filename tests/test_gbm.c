/* The gbm layer: choosing a target, and the errors of devices that are not
 * there. Real DRM devices are tested in the drm suite (tests/drm/, in qemu). */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sg/sg.h>

#include "check_run.h"
#include "golden.h"
#include "three_rects_scene.h"

static const struct sg_renderer_desc small = {.width = 32, .height = 32};

static struct sg_renderer *create(enum sg_target_kind kind, const char *device)
{
	struct sg_renderer_desc desc = small;
	desc.target = kind;
	desc.device = device;
	return sg_renderer_create(&desc);
}

#define ck_assert_fails_with(renderer, fragment)                                     \
	do {                                                                             \
		ck_assert_msg(!(renderer), "renderer created, expected: %s", fragment);      \
		ck_assert_msg(strstr(sg_last_error(), fragment), "message '%s' lacks '%s'",  \
		              sg_last_error(), fragment);                                    \
	} while (0)

START_TEST(test_surfaceless_reports_itself)
{
	struct sg_renderer *r = create(SG_TARGET_SURFACELESS, NULL);
	ck_assert_msg(r, "%s", sg_last_error());
	const struct sg_renderer_info *info = sg_renderer_get_info(r);
	ck_assert_int_eq(info->target, SG_TARGET_SURFACELESS);
	ck_assert_str_eq(info->target_name, "surfaceless");
	ck_assert_str_eq(info->device, "");
	ck_assert_msg(strstr(info->reason, "requested by the application"), "%s", info->reason);
	ck_assert_str_ne(info->gl_renderer, "");
	ck_assert_msg(strstr(info->gl_version, "OpenGL ES 3"), "%s", info->gl_version);
	ck_assert_str_ne(info->egl_vendor, "");
	ck_assert_int_eq(info->width, 32);
	struct sg_dmabuf dmabuf;
	ck_assert_int_eq(sg_renderer_export_dmabuf(r, &dmabuf), SG_ERR_UNSUPPORTED);
	ck_assert_msg(strstr(sg_last_error(), "surfaceless target has no buffer"), "%s",
	              sg_last_error());
	sg_renderer_destroy(r);
}
END_TEST

START_TEST(test_auto_without_render_node_falls_back)
{
	if (access("/dev/dri", F_OK) == 0)
		return; /* a machine with DRM: the drm suite covers the GBM choice */
	struct sg_renderer *r = create(SG_TARGET_AUTO, NULL);
	ck_assert_msg(r, "%s", sg_last_error());
	const struct sg_renderer_info *info = sg_renderer_get_info(r);
	ck_assert_str_eq(info->target_name, "surfaceless");
	ck_assert_msg(strstr(info->reason, "no render node under /dev/dri"), "%s", info->reason);
	ck_assert_msg(strstr(info->reason, "using surfaceless"), "%s", info->reason);
	sg_renderer_destroy(r);
}
END_TEST

START_TEST(test_forced_gbm_without_render_node_fails)
{
	if (access("/dev/dri", F_OK) == 0)
		return;
	ck_assert_fails_with(create(SG_TARGET_GBM, NULL), "no render node under /dev/dri");
	setenv("SG_TARGET", "gbm", 1);
	ck_assert_fails_with(create(SG_TARGET_AUTO, NULL), "forced by SG_TARGET");
	/* an explicit request in the desc wins over the environment */
	struct sg_renderer *r = create(SG_TARGET_SURFACELESS, NULL);
	ck_assert_msg(r, "%s", sg_last_error());
	sg_renderer_destroy(r);
	unsetenv("SG_TARGET");
}
END_TEST

/* Where /dev/dri lists no node (our build machines), an output fails by name. */
START_TEST(test_output_without_card_node_fails)
{
	if (access("/dev/dri", F_OK) == 0)
		return;
	ck_assert_ptr_null(sg_output_create(&(struct sg_output_desc){0}));
	ck_assert_msg(strstr(sg_last_error(), "no DRM card node with KMS (of 0 devices)"), "%s",
	              sg_last_error());
}
END_TEST

/* The caller's device path is quoted escaped: no ESC or newline reaches a log
 * or a terminal, on a machine with or without DRM nodes. */
START_TEST(test_output_path_is_escaped)
{
	ck_assert_ptr_null(sg_output_create(
	    &(struct sg_output_desc){.device = "/nonexistent/a\x1b[2Jb\nc\xe2\x80\xae"}));
	char expected[128];
	snprintf(expected, sizeof(expected),
	         "cannot open /nonexistent/a\\x1b[2Jb\\nc\\u202e (for the first connected "
	         "connector): %s",
	         strerror(ENOENT));
	ck_assert_str_eq(sg_last_error(), expected);
	char dir[] = "/tmp/sg-gbm-XXXXXX", link[64];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(link, sizeof(link), "%s/n\x1b]0;x\a", dir);
	ck_assert_int_eq(symlink("/dev/null", link), 0);
	ck_assert_ptr_null(sg_output_create(&(struct sg_output_desc){.device = link}));
	snprintf(expected, sizeof(expected), "%s/n\\x1b]0;x\\x07 is not a DRM node", dir);
	ck_assert_str_eq(sg_last_error(), expected);
	unlink(link);
	rmdir(dir);
}
END_TEST

START_TEST(test_environment_forces_surfaceless)
{
	setenv("SG_TARGET", "surfaceless", 1);
	struct sg_renderer *r = create(SG_TARGET_AUTO, NULL);
	ck_assert_msg(r, "%s", sg_last_error());
	ck_assert_msg(strstr(sg_renderer_get_info(r)->reason, "forced by SG_TARGET"), "%s",
	              sg_renderer_get_info(r)->reason);
	sg_renderer_destroy(r);
	setenv("SG_TARGET", "vulkan", 1);
	ck_assert_fails_with(create(SG_TARGET_AUTO, NULL),
	                     "SG_TARGET='vulkan' is not one of auto, gbm, surfaceless");
	unsetenv("SG_TARGET");
}
END_TEST

START_TEST(test_bad_device_paths)
{
	ck_assert_fails_with(create(SG_TARGET_GBM, "/dev/dri/renderD199"),
	                     "cannot open DRM node '/dev/dri/renderD199': No such file or directory");
	ck_assert_fails_with(create(SG_TARGET_GBM, "/dev/null"), "'/dev/null' is not a DRM device node");
	ck_assert_fails_with(create(SG_TARGET_AUTO, "/dev/zero"), "'/dev/zero' is not a DRM device node");
	/* SG_DEVICE names a device the same way */
	setenv("SG_DEVICE", "/nonexistent/card9", 1);
	ck_assert_fails_with(create(SG_TARGET_AUTO, NULL), "'/nonexistent/card9'");
	unsetenv("SG_DEVICE");
	/* a directory */
	ck_assert_fails_with(create(SG_TARGET_GBM, "/tmp"), "'/tmp'");
}
END_TEST

/* The caller's own fd or gbm_device (a compositor, logind): refused when it is
 * not a DRM node, never closed by libsg, and never mixed with a path. */
START_TEST(test_callers_fd_is_checked_and_kept)
{
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	struct sg_renderer_desc desc = small;
	desc.has_drm_fd = true;
	desc.drm_fd = fd;
	ck_assert_fails_with(sg_renderer_create(&desc), "is not a DRM device node");
	ck_assert_int_eq(sg_last_result(), SG_ERR_DEVICE);
	ck_assert_msg(fcntl(fd, F_GETFD) != -1, "libsg closed the caller's fd");
	/* SG_TARGET has no say over the caller's device */
	setenv("SG_TARGET", "surfaceless", 1);
	ck_assert_fails_with(sg_renderer_create(&desc), "is not a DRM device node");
	unsetenv("SG_TARGET");
	desc.device = "/dev/dri/card0";
	ck_assert_fails_with(sg_renderer_create(&desc), "one of device, drm_fd and gbm_device");
	desc = small;
	desc.has_drm_fd = true;
	desc.drm_fd = fd;
	desc.target = SG_TARGET_SURFACELESS;
	ck_assert_fails_with(sg_renderer_create(&desc), "surfaceless target takes no DRM device");
	close(fd);
}
END_TEST

/* SG_TARGET and SG_DEVICE never override a desc that names a device, nor one
 * that says to ignore the environment. */
START_TEST(test_environment_never_overrides_the_desc)
{
	setenv("SG_TARGET", "surfaceless", 1);
	ck_assert_fails_with(create(SG_TARGET_AUTO, "/dev/null"), "'/dev/null' is not a DRM device");
	unsetenv("SG_TARGET");
	setenv("SG_DEVICE", "/nonexistent/card9", 1);
	struct sg_renderer_desc desc = small;
	desc.target = SG_TARGET_SURFACELESS;
	desc.ignore_environment = true;
	struct sg_renderer *r = sg_renderer_create(&desc);
	ck_assert_msg(r, "%s", sg_last_error());
	sg_renderer_destroy(r);
	if (access("/dev/dri", F_OK) != 0) {
		/* without DRM: auto ignores SG_DEVICE and falls back to surfaceless */
		desc.target = SG_TARGET_AUTO;
		r = sg_renderer_create(&desc);
		ck_assert_msg(r, "%s", sg_last_error());
		ck_assert_str_eq(sg_renderer_get_info(r)->target_name, "surfaceless");
		sg_renderer_destroy(r);
		setenv("SG_TARGET", "gbm", 1);
		r = sg_renderer_create(&desc);
		ck_assert_msg(r, "SG_TARGET=gbm read despite ignore_environment: %s", sg_last_error());
		sg_renderer_destroy(r);
		unsetenv("SG_TARGET");
	}
	unsetenv("SG_DEVICE");
}
END_TEST

START_TEST(test_bad_descs)
{
	ck_assert_fails_with(sg_renderer_create(NULL), "desc is NULL");
	ck_assert_fails_with(sg_renderer_create(&(struct sg_renderer_desc){.width = 0, .height = 5}),
	                     "output size 0x5");
	ck_assert_fails_with(sg_renderer_create(&(struct sg_renderer_desc){.width = -3, .height = 5}),
	                     "output size -3x5");
	ck_assert_fails_with(
		sg_renderer_create(&(struct sg_renderer_desc){.width = 20000, .height = 5}),
		"outside 1x1 .. 16384x16384");
	ck_assert_fails_with(sg_renderer_create(&(struct sg_renderer_desc){
		                     .width = 4, .height = 4, .target = (enum sg_target_kind)42}),
	                     "unknown target kind 42");
	sg_renderer_destroy(NULL); /* accepted */
	ck_assert_ptr_null(sg_renderer_get_info(NULL));
}
END_TEST

/* Two renderers on two threads, each with its own scene and EGL context. */
struct job {
	int size;
	int mismatches, compared;
	sg_result result;
	char error[256];
};

static void *render_job(void *arg)
{
	struct job *job = arg;
	struct sg_scene *scene = three_rects_build();
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
		.width = job->size, .height = job->size, .target = SG_TARGET_SURFACELESS});
	uint8_t *pixels = malloc((size_t)job->size * job->size * 4);
	struct sg_camera camera;
	sg_camera_init_pixels(&camera, 256, 256);
	job->result = renderer ? SG_OK : SG_ERR_EGL;
	for (int frame = 0; frame < 10 && job->result == SG_OK; frame++) {
		job->result = sg_renderer_render(renderer, scene, &camera);
		if (!job->result)
			job->result = sg_renderer_read_pixels(renderer, pixels, 0);
		if (!job->result)
			job->mismatches += golden_mismatches(pixels, job->size, &job->compared);
	}
	snprintf(job->error, sizeof(job->error), "%s", sg_last_error());
	free(pixels);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
	return NULL;
}

START_TEST(test_two_threads)
{
	struct job jobs[2] = {{.size = 256}, {.size = 512}};
	pthread_t threads[2];
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&threads[i], NULL, render_job, &jobs[i]), 0);
	for (int i = 0; i < 2; i++) {
		pthread_join(threads[i], NULL);
		ck_assert_msg(jobs[i].result == SG_OK, "thread %d: %s", i, jobs[i].error);
		ck_assert_msg(jobs[i].mismatches == 0, "thread %d: %d pixels differ", i,
		              jobs[i].mismatches);
		ck_assert_int_gt(jobs[i].compared, 0);
	}
}
END_TEST

START_TEST(test_destroying_one_renderer_keeps_the_other)
{
	/* Both share the one surfaceless EGLDisplay: the first destroy must not terminate it. */
	struct sg_scene *scene = three_rects_build();
	struct sg_renderer *a = create(SG_TARGET_SURFACELESS, NULL);
	struct sg_renderer *b = create(SG_TARGET_SURFACELESS, NULL);
	ck_assert(a && b);
	sg_renderer_destroy(a);
	ck_assert_msg(sg_renderer_render(b, scene, NULL) == SG_OK, "%s", sg_last_error());
	sg_renderer_destroy(b);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_callers_context_is_given_back)
{
	/* An application with its own EGL context current keeps it across libsg calls. */
	EGLDisplay display = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY,
	                                           NULL);
	ck_assert(eglInitialize(display, NULL, NULL));
	ck_assert(eglBindAPI(EGL_OPENGL_API));
	EGLContext mine = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, NULL);
	ck_assert_ptr_ne(mine, EGL_NO_CONTEXT);
	ck_assert(eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, mine));
	struct sg_scene *scene = three_rects_build();
	struct sg_renderer *r = create(SG_TARGET_SURFACELESS, NULL);
	ck_assert_msg(r, "%s", sg_last_error());
	ck_assert_ptr_eq(eglGetCurrentContext(), mine);
	ck_assert_int_eq(sg_renderer_render(r, scene, NULL), SG_OK);
	ck_assert_ptr_eq(eglGetCurrentContext(), mine);
	ck_assert_int_eq(eglQueryAPI(), EGL_OPENGL_API);
	uint8_t pixels[32 * 32 * 4];
	ck_assert_int_eq(sg_renderer_read_pixels(r, pixels, 0), SG_OK);
	ck_assert_ptr_eq(eglGetCurrentContext(), mine);
	sg_renderer_destroy(r);
	ck_assert_ptr_eq(eglGetCurrentContext(), mine);
	/* The display is the application's (it initialised it first): libsg's last
	 * renderer must not eglTerminate it under the application's context. */
	ck_assert_msg(eglQueryString(display, EGL_VERSION) != NULL,
	              "libsg terminated the application's display");
	sg_scene_destroy(scene);
	eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	eglDestroyContext(display, mine);
}
END_TEST

int main(void)
{
	Suite *suite = suite_create("gbm");
	TCase *tc = tcase_create("gbm");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_surfaceless_reports_itself);
	tcase_add_test(tc, test_auto_without_render_node_falls_back);
	tcase_add_test(tc, test_forced_gbm_without_render_node_fails);
	tcase_add_test(tc, test_output_without_card_node_fails);
	tcase_add_test(tc, test_output_path_is_escaped);
	tcase_add_test(tc, test_environment_forces_surfaceless);
	tcase_add_test(tc, test_bad_device_paths);
	tcase_add_test(tc, test_bad_descs);
	tcase_add_test(tc, test_callers_fd_is_checked_and_kept);
	tcase_add_test(tc, test_environment_never_overrides_the_desc);
	tcase_add_test(tc, test_two_threads);
	tcase_add_test(tc, test_destroying_one_renderer_keeps_the_other);
	tcase_add_test(tc, test_callers_context_is_given_back);
	suite_add_tcase(suite, tc);
	return check_run(suite);
}
