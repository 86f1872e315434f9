/* dma-buf textures (sg/dmabuf.h) where no DRM device exists: every bad desc
 * refused by name with no fd kept, fds dup'ed and closed with the texture,
 * and the surfaceless target refusing to draw one (SG_ERR_UNSUPPORTED naming
 * it) where its EGL has no dma-buf import. A memfd stands in for the buffer:
 * it has a size (lseek to its end), which is all the checks read. The
 * imports that render are in tests/drm/test_import.c, in the qemu guest. */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <sg/sg.h>

#include "check_run.h"
#include "../src/base/alloc.h"
#include "../src/gl/import.h"
#include "../src/graph/scene_internal.h"
#include "../src/render/renderer_internal.h"
#include "nv12_reference.h"

#define XR24 0x34325258u /* DRM_FORMAT_XRGB8888 */
#define AB24 0x34324241u /* DRM_FORMAT_ABGR8888 */
#define NV12 0x3231564eu /* DRM_FORMAT_NV12 */

static int count_fds(void)
{
	DIR *dir = opendir("/proc/self/fd");
	ck_assert_ptr_nonnull(dir);
	int count = 0;
	while (readdir(dir))
		count++;
	closedir(dir);
	return count;
}

static int buffer_of(size_t size)
{
	int fd = memfd_create("sg-test-buffer", MFD_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, (off_t)size), 0);
	return fd;
}

/* 16x8 XRGB8888, stride 64, in a buffer of exactly 512 bytes. */
static struct sg_dmabuf_desc good_desc(int fd)
{
	return (struct sg_dmabuf_desc){
	    .width = 16,
	    .height = 8,
	    .fourcc = XR24,
	    .plane_count = 1,
	    .planes = {{.fd = fd, .offset = 0, .stride = 64}},
	};
}

static void expect_refused(struct sg_scene *scene, const struct sg_dmabuf_desc *desc,
                           sg_result code, const char *words[], const char *what)
{
	int before = count_fds();
	sg_texture texture = sg_texture_import_dmabuf(scene, desc);
	ck_assert_msg(!texture.scene && !texture.index && !texture.generation,
	              "%s: imported anyway", what);
	ck_assert_msg(sg_last_result() == code, "%s: %s, not %s: %s", what,
	              sg_result_name(sg_last_result()), sg_result_name(code), sg_last_error());
	for (int i = 0; words[i]; i++)
		ck_assert_msg(strstr(sg_last_error(), words[i]), "%s: '%s' lacks '%s'", what,
		              sg_last_error(), words[i]);
	ck_assert_msg(count_fds() == before, "%s: %d fds before, %d after", what, before,
	              count_fds());
}

START_TEST(test_bad_descs)
{
	struct sg_scene *scene = sg_scene_create();
	int fd = buffer_of(512);
	struct sg_dmabuf_desc desc = good_desc(fd);
	expect_refused(NULL, &desc, SG_ERR_INVALID_ARGUMENT, (const char *[]){"scene", NULL},
	               "NULL scene");
	expect_refused(scene, NULL, SG_ERR_INVALID_ARGUMENT, (const char *[]){"desc", NULL},
	               "NULL desc");

	desc = good_desc(fd), desc.width = 0;
	expect_refused(scene, &desc, SG_ERR_INVALID_ARGUMENT, (const char *[]){"0x8", NULL},
	               "zero width");
	desc = good_desc(fd), desc.height = 16385;
	expect_refused(scene, &desc, SG_ERR_INVALID_ARGUMENT, (const char *[]){"16x16385", NULL},
	               "too tall");
	desc = good_desc(fd), desc.filter = 7;
	expect_refused(scene, &desc, SG_ERR_INVALID_ARGUMENT, (const char *[]){"filter 7", NULL},
	               "unknown filter");
	desc = good_desc(fd), desc.fourcc = 0x56595559; /* DRM_FORMAT_YUYV */
	expect_refused(scene, &desc, SG_ERR_UNSUPPORTED,
	               (const char *[]){"format YUYV is not one libsg imports", NULL},
	               "unknown format");
	desc = good_desc(fd), desc.fourcc = 0x01020304;
	expect_refused(scene, &desc, SG_ERR_UNSUPPORTED,
	               (const char *[]){"0x01020304", "XR24", NULL}, "unprintable format");
	desc = good_desc(fd), desc.plane_count = 2, desc.planes[1] = desc.planes[0];
	expect_refused(scene, &desc, SG_ERR_INVALID_ARGUMENT,
	               (const char *[]){"XR24 has 1 plane, desc gives 2", NULL}, "two planes");
	desc = good_desc(fd), desc.plane_count = 0;
	expect_refused(scene, &desc, SG_ERR_INVALID_ARGUMENT,
	               (const char *[]){"XR24 has 1 plane, desc gives 0", NULL}, "no plane");

	int closed = buffer_of(512);
	close(closed);
	desc = good_desc(closed);
	expect_refused(scene, &desc, SG_ERR_INVALID_ARGUMENT,
	               (const char *[]){"plane 0", "is not open", "Bad file descriptor", NULL},
	               "closed fd");
	desc = good_desc(-1);
	expect_refused(scene, &desc, SG_ERR_INVALID_ARGUMENT,
	               (const char *[]){"plane 0: fd -1 is not open (negative)", NULL}, "fd -1");

	desc = good_desc(fd), desc.planes[0].stride = 63;
	expect_refused(scene, &desc, SG_ERR_INVALID_ARGUMENT,
	               (const char *[]){
	                   "stride 63 is less than the 64 bytes of a row (width 16 in XR24)", NULL},
	               "stride too small");
	desc = good_desc(fd), desc.planes[0].offset = 1;
	expect_refused(scene, &desc, SG_ERR_INVALID_ARGUMENT,
	               (const char *[]){"ends at byte 513, beyond the buffer's 512 bytes", NULL},
	               "offset past the end");
	desc = good_desc(fd), desc.planes[0].stride = 65;
	expect_refused(scene, &desc, SG_ERR_INVALID_ARGUMENT,
	               (const char *[]){"stride 65", "ends at byte 519", NULL},
	               "stride past the end");
	/* A tiled modifier: only the plane's start is the library's to check. */
	desc = good_desc(fd), desc.modifier = 0x0100000000000001ull, desc.planes[0].offset = 512;
	expect_refused(scene, &desc, SG_ERR_INVALID_ARGUMENT,
	               (const char *[]){"ends at byte 513", NULL}, "tiled plane past the end");

	/* NV12: Y then CbCr, each plane checked with its own row size and rows. */
	const struct sg_dmabuf_desc nv12 = {.width = 16,
	                                    .height = 7,
	                                    .fourcc = NV12,
	                                    .plane_count = 2,
	                                    .planes = {{.fd = fd, .offset = 0, .stride = 16},
	                                               {.fd = fd, .offset = 448, .stride = 16}}};
	sg_texture texture = sg_texture_import_dmabuf(scene, &nv12); /* 4 CbCr rows end at 512 */
	ck_assert_msg(texture.generation, "%s", sg_last_error());
	ck_assert_int_eq(sg_texture_destroy(scene, texture), SG_OK);
	desc = nv12, desc.plane_count = 1;
	expect_refused(scene, &desc, SG_ERR_INVALID_ARGUMENT,
	               (const char *[]){"NV12 has 2 planes, desc gives 1", NULL}, "NV12 one plane");
	desc = nv12, desc.planes[0].stride = 15;
	expect_refused(scene, &desc, SG_ERR_INVALID_ARGUMENT,
	               (const char *[]){"plane 0: stride 15 is less than the 16 bytes", NULL},
	               "NV12 Y stride");
	desc = nv12, desc.width = 17, desc.planes[0].stride = 17, desc.planes[1].stride = 17;
	expect_refused(scene, &desc, SG_ERR_INVALID_ARGUMENT,
	               (const char *[]){"plane 1: stride 17 is less than the 18 bytes", NULL},
	               "NV12 CbCr stride (odd width rounds up)");
	desc = nv12, desc.planes[1].offset = 449;
	expect_refused(
	    scene, &desc, SG_ERR_INVALID_ARGUMENT,
	    (const char *[]){"plane 1 (offset 449, stride 16, 4 rows) ends at byte 513", NULL},
	    "NV12 CbCr past the end");
	desc = nv12, desc.wrap = SG_WRAP_REPEAT;
	expect_refused(scene, &desc, SG_ERR_INVALID_ARGUMENT,
	               (const char *[]){"NV12 can only clamp to edge", NULL}, "NV12 repeat");
	desc = nv12, desc.encoding = 2;
	expect_refused(scene, &desc, SG_ERR_INVALID_ARGUMENT,
	               (const char *[]){"YUV encoding 2 or range 0 is unknown", NULL},
	               "unknown encoding");
	desc = nv12, desc.range = 5;
	expect_refused(scene, &desc, SG_ERR_INVALID_ARGUMENT,
	               (const char *[]){"range 5 is unknown", NULL}, "unknown range");

	int pipe_fds[2];
	ck_assert_int_eq(pipe(pipe_fds), 0);
	desc = good_desc(pipe_fds[0]);
	expect_refused(scene, &desc, SG_ERR_INVALID_ARGUMENT,
	               (const char *[]){"is not a dma-buf", "Illegal seek", NULL}, "a pipe");
	close(pipe_fds[0]);
	close(pipe_fds[1]);

	ck_assert_int_eq(scene->texture_pool.live, 0);
	close(fd);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_fds_are_duplicated_and_closed_with_the_texture)
{
	struct sg_scene *scene = sg_scene_create();
	int fd = buffer_of(4096);
	ck_assert_int_eq(lseek(fd, 100, SEEK_SET), 100);
	int before = count_fds();
	struct sg_dmabuf_desc desc = good_desc(fd);
	desc.planes[0].offset = 4096 - 512; /* the plane ends exactly at the end */
	sg_texture texture = sg_texture_import_dmabuf(scene, &desc);
	ck_assert_msg(texture.generation, "%s", sg_last_error());
	ck_assert_int_eq(count_fds(), before + 1);
	ck_assert(sg_texture_is_imported(scene, texture));
	ck_assert(sg_texture_exists(scene, texture));
	/* The caller's fd and file position are its own. */
	ck_assert_int_eq(lseek(fd, 0, SEEK_CUR), 100);
	close(fd);
	ck_assert_int_eq(count_fds(), before);

	uint8_t texel[4] = {1, 2, 3, 255};
	ck_assert_int_eq(sg_texture_update(scene, texture, 0, 0, 1, 1, texel, 0),
	                 SG_ERR_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "shows a dma-buf"));

	sg_texture plain = sg_texture_create(
	    scene, &(struct sg_texture_desc){.width = 1, .height = 1, .pixels = texel});
	ck_assert(!sg_texture_is_imported(scene, plain));
	ck_assert_int_eq(sg_texture_destroy(scene, texture), SG_OK);
	ck_assert_int_eq(count_fds(), before - 1);
	ck_assert(!sg_texture_is_imported(scene, texture));
	sg_scene_destroy(scene);
}
END_TEST

/* No fd left for the dup (the process's limit): an I/O error naming it, not
 * "not open", and nothing kept. */
START_TEST(test_fd_limit_is_not_a_closed_fd)
{
	struct sg_scene *scene = sg_scene_create();
	int fd = buffer_of(4096);
	struct rlimit old;
	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &old), 0);
	/* The lowest free number becomes the limit: a dup has no number left. */
	int lowest = dup(fd);
	ck_assert_int_ge(lowest, 0);
	close(lowest);
	struct rlimit tight = old;
	tight.rlim_cur = (rlim_t)lowest;
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &tight), 0);
	struct sg_dmabuf_desc desc = good_desc(fd);
	sg_texture texture = sg_texture_import_dmabuf(scene, &desc);
	int error = sg_last_result();
	char message[256];
	snprintf(message, sizeof(message), "%s", sg_last_error());
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &old), 0);
	ck_assert_uint_eq(texture.generation, 0);
	ck_assert_int_eq(error, SG_ERR_IO);
	ck_assert_msg(strstr(message, "cannot dup fd") && strstr(message, "Too many open files"),
	              "%s", message);
	sg_scene_destroy(scene);
}
END_TEST

/* A scene destroyed with imported textures still alive closes their fds. */
START_TEST(test_scene_destroy_closes_imported_fds)
{
	int before = count_fds();
	struct sg_scene *scene = sg_scene_create();
	int fd = buffer_of(4096);
	struct sg_dmabuf_desc desc = good_desc(fd);
	for (int i = 0; i < 3; i++) {
		sg_texture texture = sg_texture_import_dmabuf(scene, &desc);
		ck_assert_msg(texture.generation, "%s", sg_last_error());
	}
	close(fd);
	ck_assert_int_eq(count_fds(), before + 3);
	sg_scene_destroy(scene);
	ck_assert_int_eq(count_fds(), before);
}
END_TEST

/* Each allocation of an import failing in turn: refused, nothing kept. */
START_TEST(test_out_of_memory_keeps_no_fd)
{
	int fd = buffer_of(512);
	struct sg_dmabuf_desc desc = good_desc(fd);
	bool imported = false;
	for (long k = 1; !imported && k < 20; k++) {
		struct sg_scene *scene = sg_scene_create();
		int before = count_fds();
		sg_alloc_fail_at(k);
		sg_texture texture = sg_texture_import_dmabuf(scene, &desc);
		sg_alloc_fail_at(0);
		imported = texture.generation != 0;
		if (imported)
			ck_assert_int_eq(sg_texture_destroy(scene, texture), SG_OK);
		else
			ck_assert_int_eq(sg_last_result(), SG_ERR_NO_MEMORY);
		ck_assert_int_eq(count_fds(), before);
		sg_scene_destroy(scene);
	}
	ck_assert(imported);
	close(fd);
}
END_TEST

/* The surfaceless target of this machine: without EGL_EXT_image_dma_buf_import
 * a render of an imported texture fails naming the target; the renderer
 * draws again once the model no longer uses it. */
START_TEST(test_surfaceless_refuses_or_imports)
{
	struct sg_renderer *renderer = sg_renderer_create(
	    &(struct sg_renderer_desc){.width = 32, .height = 16, .target = SG_TARGET_SURFACELESS});
	ck_assert_msg(renderer, "%s", sg_last_error());
	struct sg_scene *scene = sg_scene_create();
	int fd = buffer_of(512);
	struct sg_dmabuf_desc desc = good_desc(fd);
	sg_texture texture = sg_texture_import_dmabuf(scene, &desc);
	ck_assert_msg(texture.generation, "%s", sg_last_error());
	close(fd);
	sg_mesh quad = sg_mesh_create_quad(scene, 32, 16);
	sg_node model =
	    sg_node_new_model(scene, &(struct sg_model_desc){.mesh = quad, .texture = texture});
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), model), SG_OK);
	for (int round = 0; round < 2; round++) { /* tried again at each render */
		sg_result result = sg_renderer_render(renderer, scene, NULL);
		/* A memfd is no dma-buf: a display that imports refuses it too. */
		ck_assert_int_ne(result, SG_OK);
		printf("surfaceless import: %s: %s\n", sg_result_name(result), sg_last_error());
		ck_assert_msg(strstr(sg_last_error(), "surfaceless"), "%s", sg_last_error());
		ck_assert_msg(strstr(sg_last_error(), "texture #"), "%s", sg_last_error());
		if (result == SG_ERR_UNSUPPORTED && !strstr(sg_last_error(), "eglCreateImageKHR"))
			ck_assert_msg(strstr(sg_last_error(), "EGL_EXT_image_dma_buf_import"), "%s",
			              sg_last_error());
	}
	ck_assert_int_eq(sg_model_set_texture(scene, model, SG_TEXTURE_NONE), SG_OK);
	ck_assert_int_eq(sg_renderer_render(renderer, scene, NULL), SG_OK);
	ck_assert_int_eq(sg_texture_destroy(scene, texture), SG_OK);
	ck_assert_int_eq(sg_renderer_render(renderer, scene, NULL), SG_OK);

	/* Render-to-texture needs a buffer to export: none on surfaceless. */
	int before = count_fds();
	sg_texture output = sg_texture_import_renderer(scene, renderer, SG_FILTER_NEAREST);
	ck_assert(!output.generation);
	ck_assert_int_eq(sg_last_result(), SG_ERR_UNSUPPORTED);
	ck_assert_msg(strstr(sg_last_error(), "sg_texture_import_renderer: "), "%s",
	              sg_last_error());
	ck_assert_int_eq(count_fds(), before);
	output = sg_texture_import_renderer(NULL, renderer, SG_FILTER_NEAREST);
	ck_assert(!output.generation);
	ck_assert_str_eq(sg_last_error(), "sg_texture_import_renderer: scene is NULL");
	output = sg_texture_import_renderer(scene, NULL, SG_FILTER_NEAREST);
	ck_assert_str_eq(sg_last_error(), "sg_texture_import_renderer: source is NULL");
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
}
END_TEST

/* NV12 drawn by its material (src/gl/material_nv12.c) where EGL imports no
 * dma-buf: the test hands the renderer import operations that give the two
 * plane textures the pattern of nv12_reference.h from memory, as R8 and
 * GR88 (Cb in r, Cr in g) images would: the pattern and the CPU reference of
 * the drm suite's test_nv12_matches_cpu_reference. */
#define NV12_W 16
#define NV12_H 16


static sg_result memory_attach(void *data, const struct sg_texture_data *t, uint32_t index,
                               const GLuint names[SG_GL_IMPORT_PLANES],
                               void *images[SG_GL_IMPORT_PLANES])
{
	(void)data, (void)t, (void)index;
	uint8_t y[NV12_W * NV12_H], cbcr[NV12_W / 2 * NV12_H / 2 * 2];
	for (int j = 0; j < NV12_H; j++)
		for (int i = 0; i < NV12_W; i++) {
			y[j * NV12_W + i] = nv12_y(i, j);
			uint8_t *c = cbcr + (j / 2 * NV12_W / 2 + i / 2) * 2;
			nv12_cbcr(i, j, &c[0], &c[1]);
		}
	glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
	glBindTexture(GL_TEXTURE_2D, names[0]);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, NV12_W, NV12_H, 0, GL_RED, GL_UNSIGNED_BYTE, y);
	glBindTexture(GL_TEXTURE_2D, names[1]);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RG8, NV12_W / 2, NV12_H / 2, 0, GL_RG, GL_UNSIGNED_BYTE,
	             cbcr);
	glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
	images[0] = images[1] = NULL;
	return glGetError() == GL_NO_ERROR ? SG_OK : SG_ERR_GL;
}

static void memory_release(void *data, void *image)
{
	(void)data, (void)image;
}

/* Three quads in one frame: the buffer as BT.709 full range, a plain
 * texture, the buffer as BT.601 limited range, each NV12 third within 2 of
 * its reference (the uniforms are per texture) and the plain one exactly
 * its texels (the textured material's program is back between them); again
 * clipped (the materials' clip feature), with the same pixels. */
START_TEST(test_nv12_material_mixes_with_textured)
{
	static const struct sg_gl_import_ops memory = {.attach = memory_attach,
	                                               .release = memory_release};
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
	    .width = NV12_W * 3, .height = NV12_H, .target = SG_TARGET_SURFACELESS});
	ck_assert_msg(renderer, "%s", sg_last_error());
	sg_renderer_import_ops_for_testing(renderer, &memory);
	struct sg_scene *scene = sg_scene_create();
	int fd = buffer_of(NV12_W * NV12_H * 3 / 2);
	struct sg_dmabuf_desc desc = {
	    .width = NV12_W,
	    .height = NV12_H,
	    .fourcc = NV12,
	    .plane_count = 2,
	    .planes = {{.fd = fd, .offset = 0, .stride = NV12_W},
	               {.fd = fd, .offset = NV12_W * NV12_H, .stride = NV12_W}},
	    .encoding = SG_YUV_BT709,
	    .range = SG_YUV_FULL};
	sg_texture bt709 = sg_texture_import_dmabuf(scene, &desc);
	desc.encoding = SG_YUV_BT601, desc.range = SG_YUV_LIMITED;
	sg_texture bt601 = sg_texture_import_dmabuf(scene, &desc);
	ck_assert_msg(bt709.generation && bt601.generation, "%s", sg_last_error());
	close(fd);
	static uint8_t texels[NV12_W * NV12_H * 4];
	for (int i = 0; i < NV12_W * NV12_H; i++)
		for (int c = 0; c < 4; c++)
			texels[i * 4 + c] = c == 3 ? 255 : (uint8_t)(i * (c + 3) % 256);
	sg_texture plain = sg_texture_create(
	    scene, &(struct sg_texture_desc){.width = NV12_W, .height = NV12_H, .pixels = texels});
	sg_mesh quad = sg_mesh_create_quad(scene, NV12_W, NV12_H);
	sg_node clip =
	    sg_node_new_clip(scene, &(struct sg_clip_desc){.width = NV12_W * 3, .height = NV12_H});
	ck_assert_msg(clip.generation, "%s", sg_last_error());
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), clip), SG_OK);
	const sg_texture order[3] = {bt709, plain, bt601};
	sg_node models[3];
	for (int i = 0; i < 3; i++) {
		models[i] = sg_node_new_model(
		    scene, &(struct sg_model_desc){
		               .mesh = quad, .texture = order[i], .position = {NV12_W * i, 0, 0}});
		ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), models[i]), SG_OK);
	}
	static uint8_t rgba[NV12_W * 3 * NV12_H * 4];
	for (int clipped = 0; clipped < 2; clipped++) {
		if (clipped)
			ck_assert_int_eq(sg_node_reparent(scene, models[2], clip), SG_OK);
		ck_assert_msg(sg_renderer_render(renderer, scene, NULL) == SG_OK, "%s",
		              sg_last_error());
		ck_assert_int_eq(sg_renderer_read_pixels(renderer, rgba, 0), SG_OK);
		int worst = 0;
		for (int y = 0; y < NV12_H; y++)
			for (int x = 0; x < NV12_W * 3; x++) {
				const uint8_t *got = rgba + (y * NV12_W * 3 + x) * 4;
				uint8_t want[4];
				int third = x / NV12_W, u = x % NV12_W;
				if (third == 1)
					memcpy(want, texels + (y * NV12_W + u) * 4, 4);
				else
					nv12_reference(third ? SG_YUV_BT601 : SG_YUV_BT709,
					               third ? SG_YUV_LIMITED : SG_YUV_FULL, u, y,
					               want);
				for (int c = 0; c < 4; c++) {
					int d = abs(got[c] - want[c]);
					ck_assert_msg(third != 1 || d == 0,
					              "plain texel (%d, %d) channel %d: %d, not %d",
					              u, y, c, got[c], want[c]);
					worst = d > worst ? d : worst;
				}
			}
		ck_assert_msg(worst <= 2, "%s: NV12 differs from its reference by %d",
		              clipped ? "clipped" : "unclipped", worst);
	}
	ck_assert_int_eq(sg_texture_destroy(scene, bt709), SG_OK);
	ck_assert_int_eq(sg_texture_destroy(scene, bt601), SG_OK);
	sg_scene_destroy(scene);
	sg_renderer_destroy(renderer);
}
END_TEST

/* sg_texture_mark_changed records an update as sg_texture_update does, keeps
 * a dup of the newest fence only, and refuses bad input changing nothing. */
START_TEST(test_mark_changed)
{
	struct sg_scene *scene = sg_scene_create();
	int fd = buffer_of(512);
	struct sg_dmabuf_desc desc = good_desc(fd);
	sg_texture texture = sg_texture_import_dmabuf(scene, &desc);
	ck_assert_msg(texture.generation, "%s", sg_last_error());
	close(fd);
	const struct sg_texture_data *t = &scene->textures[texture.index];
	uint64_t updates = scene->texture_updates;

	ck_assert_int_eq(sg_texture_mark_changed(scene, texture, NULL, -1), SG_OK);
	ck_assert_uint_eq(t->update_serial, 1);
	ck_assert_uint_eq(scene->texture_updates, updates + 1);
	struct sg_texture_rect whole = t->updates[1 % SG_TEXTURE_UPDATE_HISTORY];
	ck_assert(whole.x == 0 && whole.y == 0 && whole.width == 16 && whole.height == 8);
	ck_assert_int_eq(
	    sg_texture_mark_changed(scene, texture, &(struct sg_dmabuf_rect){3, 2, 5, 6}, -1),
	    SG_OK);
	struct sg_texture_rect part = t->updates[2 % SG_TEXTURE_UPDATE_HISTORY];
	ck_assert(part.x == 3 && part.y == 2 && part.width == 5 && part.height == 6);

	/* Fences: dup'ed, the newest one kept, closed with the texture. */
	int fences[2];
	ck_assert_int_eq(pipe2(fences, O_CLOEXEC), 0);
	int before = count_fds();
	ck_assert_int_eq(sg_texture_mark_changed(scene, texture, NULL, fences[0]), SG_OK);
	ck_assert_int_eq(count_fds(), before + 1);
	ck_assert_int_eq(sg_texture_mark_changed(scene, texture, NULL, fences[1]), SG_OK);
	ck_assert_int_eq(count_fds(), before + 1);
	ck_assert_int_eq(sg_texture_mark_changed(scene, texture, NULL, -1), SG_OK);
	ck_assert_int_eq(count_fds(), before);
	ck_assert_int_eq(sg_texture_mark_changed(scene, texture, NULL, fences[0]), SG_OK);
	ck_assert_uint_eq(t->update_serial, 6);

	/* Refused, nothing changed. */
	const struct {
		struct sg_dmabuf_rect rect;
		int fence;
		const char *words;
	} bad[] = {
	    {{0, 0, 0, 8}, -1, "rectangle 0x8 at (0, 0) is empty or outside texture"},
	    {{-1, 0, 4, 4}, -1, "at (-1, 0)"},
	    {{12, 0, 5, 8}, -1, "5x8 at (12, 0) is empty or outside texture #0 (16x8)"},
	    {{0, 7, 16, 2}, -1, "16x2 at (0, 7)"},
	    {{0, 0, 16, 8}, -2, "fence fd -2 of texture #0 is not open (negative; -1 means none)"},
	    {{0, 0, 16, 8}, 1000, "fence fd 1000 of texture #0 is not open (Bad file descriptor)"},
	};
	before = count_fds();
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(
		    sg_texture_mark_changed(scene, texture, &bad[i].rect, bad[i].fence),
		    SG_ERR_INVALID_ARGUMENT);
		ck_assert_msg(strstr(sg_last_error(), bad[i].words), "'%s' lacks '%s'",
		              sg_last_error(), bad[i].words);
	}
	ck_assert_uint_eq(t->update_serial, 6);
	ck_assert_int_eq(count_fds(), before);
	ck_assert_int_eq(sg_texture_mark_changed(NULL, texture, NULL, -1), SG_ERR_INVALID_ARGUMENT);
	uint8_t texel[4] = {0, 0, 0, 255};
	sg_texture plain = sg_texture_create(
	    scene, &(struct sg_texture_desc){.width = 1, .height = 1, .pixels = texel});
	ck_assert_int_eq(sg_texture_mark_changed(scene, plain, NULL, -1), SG_ERR_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "not an imported dma-buf"));
	struct sg_scene *other = sg_scene_create();
	ck_assert_int_eq(sg_texture_mark_changed(other, texture, NULL, -1), SG_ERR_FOREIGN_HANDLE);
	sg_scene_destroy(other);

	ck_assert_int_eq(sg_texture_destroy(scene, texture), SG_OK);
	ck_assert_int_eq(count_fds(), before - 2); /* the buffer's fd and the fence */
	ck_assert_int_eq(sg_texture_mark_changed(scene, texture, NULL, -1), SG_ERR_STALE_HANDLE);
	close(fences[0]);
	close(fences[1]);
	sg_scene_destroy(scene);
}
END_TEST

int main(void)
{
	Suite *suite = suite_create("import");
	TCase *tc = tcase_create("import");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_bad_descs);
	tcase_add_test(tc, test_fds_are_duplicated_and_closed_with_the_texture);
	tcase_add_test(tc, test_scene_destroy_closes_imported_fds);
	tcase_add_test(tc, test_fd_limit_is_not_a_closed_fd);
	tcase_add_test(tc, test_out_of_memory_keeps_no_fd);
	tcase_add_test(tc, test_surfaceless_refuses_or_imports);
	tcase_add_test(tc, test_mark_changed);
	tcase_add_test(tc, test_nv12_material_mixes_with_textured);
	suite_add_tcase(suite, tc);
	return check_run(suite);
}
