/* The drm suite's main, and the target tests: discovery with drmGetDevices2,
 * the automatic choice of GBM, the renderD128 -> card0 fallback of kms_swrast
 * and GBM against surfaceless pixel for pixel. Runs inside the qemu guest
 * (run-in-vm.sh); on a machine without /dev/dri it skips (exit 77). */
#include <fcntl.h>
#include <gbm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xf86drm.h>

#include "../cube3d.h"
#include "../../src/gbm/device.h"
#include "../../src/render/select.h"
#include "drm_test.h"

START_TEST(test_discovery)
{
	drmDevicePtr devices[16];
	int count = drmGetDevices2(0, devices, 16);
	ck_assert_msg(count >= 1, "drmGetDevices2 returned %d", count);
	const drmDevicePtr first = devices[0];
	printf("drmGetDevices2: %d device(s); device 0: bus type %d, primary %s, render %s\n", count,
	       first->bustype,
	       first->available_nodes & (1 << DRM_NODE_PRIMARY) ? first->nodes[DRM_NODE_PRIMARY] : "-",
	       first->available_nodes & (1 << DRM_NODE_RENDER) ? first->nodes[DRM_NODE_RENDER] : "-");
	drmFreeDevices(devices, count);

	struct drm_nodes nodes;
	find_drm_nodes(&nodes);
	/* The guest has exactly one DRM device, so the names are the first ones. */
	ck_assert_str_eq(nodes.primary, "/dev/dri/card0");
	ck_assert_str_eq(nodes.render, "/dev/dri/renderD128");

	char found[256];
	sg_result result = sg_find_render_node(found, sizeof(found));
	ck_assert_msg(result == SG_OK, "sg_find_render_node: %s", sg_last_error());
	ck_assert_str_eq(found, nodes.render);
}
END_TEST

START_TEST(test_auto_chooses_gbm)
{
	struct drm_nodes nodes;
	find_drm_nodes(&nodes);
	static uint8_t rgba[IMAGE_BYTES];
	struct sg_renderer *renderer = render_three_rects(
		&(struct sg_renderer_desc){.width = IMAGE_SIZE, .height = IMAGE_SIZE}, rgba);
	const struct sg_renderer_info *info = sg_renderer_get_info(renderer);
	printf("auto: target %s on %s (%s); EGL driver %s, vendor %s; GL_RENDERER %s; %s\n",
	       info->target_name, info->device, info->reason, info->egl_driver, info->egl_vendor,
	       info->gl_renderer, info->gl_version);
	ck_assert_int_eq(info->target, SG_TARGET_GBM);
	ck_assert_str_eq(info->target_name, "gbm");
	/* Mesa has no vgem_dri.so (nor virgl without 3D): kms_swrast on llvmpipe. */
	ck_assert_str_eq(info->egl_driver, "kms_swrast");
	ck_assert_msg(strlen(info->gl_renderer) > 0, "GL_RENDERER is empty");
	ck_assert_msg(strstr(info->gl_renderer, "llvmpipe"), "GL_RENDERER '%s' is not llvmpipe",
	              info->gl_renderer);
	ck_assert_msg(strncmp(info->gl_version, "OpenGL ES 3", 11) == 0, "GL_VERSION '%s'",
	              info->gl_version);
	/* kms_swrast cannot allocate on the render node, so auto ends on the primary one. */
	ck_assert_str_eq(info->device, nodes.primary);
	check_three_rects_content(rgba, IMAGE_SIZE, IMAGE_SIZE, opaque_black, "auto (gbm)");
	sg_renderer_destroy(renderer);
}
END_TEST

/* First half of the fallback: asked for the render node, kms_swrast's dumb
 * buffer allocation fails there, and the renderer moves to the primary node of
 * the same device and says why. */
START_TEST(test_render_node_falls_back_to_primary)
{
	struct drm_nodes nodes;
	find_drm_nodes(&nodes);
	static uint8_t rgba[IMAGE_BYTES];
	struct sg_renderer *renderer = render_three_rects(
		&(struct sg_renderer_desc){.width = IMAGE_SIZE, .height = IMAGE_SIZE,
	                                   .target = SG_TARGET_GBM, .device = nodes.render},
		rgba);
	const struct sg_renderer_info *info = sg_renderer_get_info(renderer);
	printf("%s: device %s, reason: %s\n", nodes.render, info->device, info->reason);
	ck_assert_int_eq(info->target, SG_TARGET_GBM);
	ck_assert_str_eq(info->device, nodes.primary);
	ck_assert_msg(strstr(info->reason, sg_node_basename(nodes.render)),
	              "reason '%s' does not name %s", info->reason, nodes.render);
	ck_assert_msg(strstr(info->reason, sg_node_basename(nodes.primary)),
	              "reason '%s' does not name %s", info->reason, nodes.primary);
	ck_assert_msg(strstr(info->reason, "kms_swrast"), "reason '%s' does not name kms_swrast",
	              info->reason);
	check_three_rects_content(rgba, IMAGE_SIZE, IMAGE_SIZE, opaque_black, "gbm via fallback");
	sg_renderer_destroy(renderer);
}
END_TEST

/* Second half: the primary node itself works directly, with no fallback. */
START_TEST(test_primary_node_needs_no_fallback)
{
	struct drm_nodes nodes;
	find_drm_nodes(&nodes);
	static uint8_t rgba[IMAGE_BYTES];
	struct sg_renderer *renderer = render_three_rects(
		&(struct sg_renderer_desc){.width = IMAGE_SIZE, .height = IMAGE_SIZE,
	                                   .target = SG_TARGET_GBM, .device = nodes.primary},
		rgba);
	const struct sg_renderer_info *info = sg_renderer_get_info(renderer);
	printf("%s: device %s, reason: %s\n", nodes.primary, info->device, info->reason);
	ck_assert_str_eq(info->device, nodes.primary);
	ck_assert_str_eq(info->egl_driver, "kms_swrast");
	ck_assert_msg(!strstr(info->reason, sg_node_basename(nodes.render)),
	              "reason '%s' mentions a fallback from %s", info->reason, nodes.render);
	check_three_rects_content(rgba, IMAGE_SIZE, IMAGE_SIZE, opaque_black, "gbm on card0");
	sg_renderer_destroy(renderer);
}
END_TEST

START_TEST(test_gbm_matches_surfaceless)
{
	static uint8_t gbm_rgba[IMAGE_BYTES], surfaceless_rgba[IMAGE_BYTES];
	struct sg_renderer *gbm = render_three_rects(
		&(struct sg_renderer_desc){.width = IMAGE_SIZE, .height = IMAGE_SIZE,
	                                   .target = SG_TARGET_GBM},
		gbm_rgba);
	struct sg_renderer *surfaceless = render_three_rects(
		&(struct sg_renderer_desc){.width = IMAGE_SIZE, .height = IMAGE_SIZE,
	                                   .target = SG_TARGET_SURFACELESS},
		surfaceless_rgba);
	ck_assert_int_eq(sg_renderer_get_info(surfaceless)->target, SG_TARGET_SURFACELESS);
	int differing = count_differing_pixels(gbm_rgba, IMAGE_SIZE * 4, surfaceless_rgba,
	                                       IMAGE_SIZE * 4, IMAGE_SIZE, IMAGE_SIZE);
	printf("gbm (%s) vs surfaceless: %d of %d pixels differ\n", sg_renderer_get_info(gbm)->device,
	       differing, IMAGE_SIZE * IMAGE_SIZE);
	check_three_rects_content(gbm_rgba, IMAGE_SIZE, IMAGE_SIZE, opaque_black, "gbm");
	check_three_rects_content(surfaceless_rgba, IMAGE_SIZE, IMAGE_SIZE, opaque_black,
	                          "surfaceless");
	ck_assert_int_eq(differing, 0);
	sg_renderer_destroy(surfaceless);
	sg_renderer_destroy(gbm);
}
END_TEST

/* A 3D view (lit cubes, one blended, a point and a directional light) under
 * a 2D quad: GBM's bytes are surfaceless's, as for the 2D scenes. */
static void render_3d(enum sg_target_kind target, uint8_t *rgba)
{
	struct sg_scene *scene = sg_scene_create();
	sg_mesh cube = cube3d_mesh(scene);
	struct sg_material_desc md;
	sg_material_desc_init(&md);
	md.base_color[1] = 0.4f, md.metallic = 0.1f, md.roughness = 0.4f;
	sg_material solid = sg_material_create(scene, &md);
	md.alpha_mode = SG_ALPHA_BLEND, md.base_color[3] = 0.5f, md.double_sided = true;
	sg_material glass = sg_material_create(scene, &md);
	struct sg_camera eye;
	sg_camera_init_perspective(&eye, 0.9f, 1.0f, 0.1f, 50.0f);
	sg_camera_look_at(&eye, (float[]){3, 2.5f, 4}, (float[]){0, 0, 0}, (float[]){0, 1, 0});
	sg_node view = sg_node_new_view3d(scene, &(struct sg_view3d_desc){
	                                             .camera = &eye, .ambient = {0.1f, 0.1f, 0.1f}});
	sg_node_add_child(scene, sg_scene_root(scene), view);
	sg_node lamp = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
	sg_transform_translate(scene, lamp, 2, 3, 2);
	sg_node_add_child(scene, view, lamp);
	sg_node_add_child(scene, lamp, sg_node_new_light(scene, &(struct sg_light_desc){
	                                                            .type = SG_LIGHT_POINT,
	                                                            .color = {1, 1, 1},
	                                                            .intensity = 25}));
	sg_node_add_child(scene, view, sg_node_new_light(scene, &(struct sg_light_desc){
	                                                            .type = SG_LIGHT_DIRECTIONAL,
	                                                            .color = {1, 0.9f, 0.8f},
	                                                            .intensity = 1}));
	for (int i = 0; i < 2; i++) {
		sg_node model = sg_node_new_model(
		    scene, &(struct sg_model_desc){.mesh = cube, .position = {i * 0.7f, 0, i * 0.7f}});
		sg_model_set_material(scene, model, i ? glass : solid);
		sg_node_add_child(scene, view, model);
	}
	sg_node caption = sg_node_new_model(
	    scene, &(struct sg_model_desc){.mesh = sg_mesh_create_quad(scene, 40, 10),
	                                   .position = {4, 4, 0}});
	sg_model_set_color(scene, caption, 0.9f, 0.9f, 0.1f, 1.0f);
	sg_node_add_child(scene, sg_scene_root(scene), caption);
	struct sg_renderer *r = sg_renderer_create(&(struct sg_renderer_desc){
	    .width = IMAGE_SIZE, .height = IMAGE_SIZE, .target = target});
	ck_assert_msg(r, "%s", sg_last_error());
	ck_assert_int_eq(sg_renderer_get_info(r)->target, target);
	ck_assert_msg(sg_renderer_render(r, scene, NULL) == SG_OK, "%s", sg_last_error());
	ck_assert_int_eq(sg_renderer_read_pixels(r, rgba, 0), SG_OK);
	sg_renderer_destroy(r);
	sg_scene_destroy(scene);
}

START_TEST(test_gbm_matches_surfaceless_3d)
{
	static uint8_t gbm_rgba[IMAGE_BYTES], surfaceless_rgba[IMAGE_BYTES];
	render_3d(SG_TARGET_GBM, gbm_rgba);
	render_3d(SG_TARGET_SURFACELESS, surfaceless_rgba);
	int differing = count_differing_pixels(gbm_rgba, IMAGE_SIZE * 4, surfaceless_rgba,
	                                       IMAGE_SIZE * 4, IMAGE_SIZE, IMAGE_SIZE);
	int lit = 0; /* not a test of two blank pictures: the cubes cover pixels */
	for (int p = 0; p < IMAGE_SIZE * IMAGE_SIZE * 4; p += 4)
		lit += surfaceless_rgba[p + 1] > 20;
	printf("3D: gbm vs surfaceless: %d of %d pixels differ, %d lit\n", differing,
	       IMAGE_SIZE * IMAGE_SIZE, lit);
	ck_assert_int_gt(lit, IMAGE_SIZE * IMAGE_SIZE / 20);
	ck_assert_int_eq(differing, 0);
}
END_TEST

/* A compositor or kiosk opens the node itself (often through logind) and hands
 * libsg the fd or a gbm_device: same pixels, nothing of the caller's closed,
 * and a render node that cannot allocate is refused, not swapped. */
START_TEST(test_callers_fd_and_gbm_device)
{
	struct drm_nodes nodes;
	find_drm_nodes(&nodes);
	static uint8_t reference[IMAGE_BYTES], rgba[IMAGE_BYTES];
	struct sg_renderer *surfaceless = render_three_rects(
		&(struct sg_renderer_desc){.width = IMAGE_SIZE, .height = IMAGE_SIZE,
	                                   .target = SG_TARGET_SURFACELESS},
		reference);
	int fd = open(nodes.primary, O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	struct sg_renderer *renderer = render_three_rects(
		&(struct sg_renderer_desc){.width = IMAGE_SIZE, .height = IMAGE_SIZE,
	                                   .has_drm_fd = true, .drm_fd = fd},
		rgba);
	const struct sg_renderer_info *info = sg_renderer_get_info(renderer);
	printf("caller's fd %d: device %s, reason: %s\n", fd, info->device, info->reason);
	ck_assert_str_eq(info->device, nodes.primary);
	ck_assert_msg(strstr(info->reason, "caller's DRM fd"), "%s", info->reason);
	ck_assert_int_eq(count_differing_pixels(rgba, IMAGE_SIZE * 4, reference, IMAGE_SIZE * 4,
	                                        IMAGE_SIZE, IMAGE_SIZE), 0);
	sg_renderer_destroy(renderer);
	ck_assert_msg(fcntl(fd, F_GETFD) != -1, "libsg closed the caller's fd");

	struct gbm_device *gbm = gbm_create_device(fd);
	ck_assert_ptr_nonnull(gbm);
	renderer = render_three_rects(
		&(struct sg_renderer_desc){.width = IMAGE_SIZE, .height = IMAGE_SIZE,
	                                   .gbm_device = gbm},
		rgba);
	ck_assert_msg(strstr(sg_renderer_get_info(renderer)->reason, "caller's gbm_device"), "%s",
	              sg_renderer_get_info(renderer)->reason);
	ck_assert_int_eq(count_differing_pixels(rgba, IMAGE_SIZE * 4, reference, IMAGE_SIZE * 4,
	                                        IMAGE_SIZE, IMAGE_SIZE), 0);
	sg_renderer_destroy(renderer);
	/* still the caller's, and still usable */
	ck_assert_int_eq(gbm_device_get_fd(gbm), fd);
	ck_assert_int_eq(gbm_device_is_format_supported(gbm, GBM_FORMAT_XRGB8888,
	                                                GBM_BO_USE_RENDERING),
	                 1);
	gbm_device_destroy(gbm);
	close(fd);

	/* kms_swrast cannot allocate on the render node; the caller is told, and
	 * libsg does not move to another node behind its back. */
	int render_fd = open(nodes.render, O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(render_fd, 0);
	renderer = sg_renderer_create(&(struct sg_renderer_desc){
		.width = IMAGE_SIZE, .height = IMAGE_SIZE, .has_drm_fd = true, .drm_fd = render_fd});
	ck_assert_msg(!renderer, "a renderer on the render node of kms_swrast");
	printf("caller's render node fd: %s\n", sg_last_error());
	ck_assert_msg(strstr(sg_last_error(), "pass the primary node"), "%s", sg_last_error());
	ck_assert_msg(fcntl(render_fd, F_GETFD) != -1, "libsg closed the caller's fd");
	close(render_fd);
	sg_renderer_destroy(surfaceless);
}
END_TEST

Suite *target_suite(void)
{
	Suite *suite = suite_create("target");
	TCase *tc = tcase_create("target");
	tcase_add_test(tc, test_discovery);
	tcase_add_test(tc, test_auto_chooses_gbm);
	tcase_add_test(tc, test_render_node_falls_back_to_primary);
	tcase_add_test(tc, test_primary_node_needs_no_fallback);
	tcase_add_test(tc, test_gbm_matches_surfaceless);
	tcase_add_test(tc, test_gbm_matches_surfaceless_3d);
	tcase_add_test(tc, test_callers_fd_and_gbm_device);
	suite_add_tcase(suite, tc);
	return suite;
}

/* tests/drm/test_import.c: sg_texture_import_dmabuf and sg_texture_mark_changed. */
Suite *import_suite(void);
/* tests/drm/test_damage_drm.c: damage tracking on GBM and through sg_output. */
Suite *damage_drm_suite(bool has_kms);

int main(void)
{
	struct stat st;
	if (stat("/dev/dri/card0", &st) != 0) {
		printf("test_drm: no /dev/dri/card0: run it in the guest (tests/drm/run-in-vm.sh); "
		       "skipping\n");
		return 77;
	}
	/* Forked test processes write here too: line buffering keeps their lines
	 * whole and never duplicated by a fork. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* The tests choose targets themselves. */
	unsetenv("SG_TARGET");
	unsetenv("SG_DEVICE");
	/* llvmpipe under TCG is slow: Check's default 4 s is far too short. Read by tcase_create. */
	setenv("CK_DEFAULT_TIMEOUT", "120", 0);

	/* run-in-vm.sh sets SG_DRM_KMS=1 on a device with KMS (virtio-gpu): there
	 * a missing connector is a failure, not a reason to skip. */
	const char *kms = getenv("SG_DRM_KMS");
	bool has_kms = kms && strcmp(kms, "1") == 0;
	/* run-in-vm.sh sets SG_DRM_WRITEBACK=1 in the vkms guest (tests/vm/build-vkms.sh),
	 * which has no render node: only the suites written for it. */
	const char *writeback = getenv("SG_DRM_WRITEBACK");
	SRunner *runner;
	if (writeback && strcmp(writeback, "1") == 0) {
		runner = srunner_create(writeback_suite());
		srunner_add_suite(runner, output_vkms_suite());
	} else {
		runner = srunner_create(target_suite());
		srunner_add_suite(runner, dmabuf_suite());
		srunner_add_suite(runner, import_suite());
		srunner_add_suite(runner, errors_suite());
		srunner_add_suite(runner, translucent_suite());
		srunner_add_suite(runner, kms_suite(has_kms));
		srunner_add_suite(runner, output_suite(has_kms));
		srunner_add_suite(runner, damage_drm_suite(has_kms));
#ifdef SG_DRM_SESSION
		if (has_kms)
			srunner_add_suite(runner, session_kms_suite());
#endif
#ifdef SG_DRM_WINDOW
		if (!has_kms) /* the vgem guest: the window needs no KMS */
			srunner_add_suite(runner, window_dmabuf_suite());
#endif
#ifdef SG_DRM_INPUT
		/* run-in-vm.sh sets SG_DRM_INPUT=1 where it started systemd-udevd. */
		const char *input = getenv("SG_DRM_INPUT");
		if (input && strcmp(input, "1") == 0) {
			srunner_add_suite(runner, input_suite());
#ifdef SG_DRM_SESSION
			srunner_add_suite(runner, session_suite());
#endif
		}
#endif
	}
	srunner_run_all(runner, CK_ENV); /* CK_VERBOSITY, default normal */
	int failed = srunner_ntests_failed(runner);
	srunner_free(runner);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
