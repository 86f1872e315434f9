/* sg_texture_import_dmabuf on a real device: a pattern written into a mapped
 * gbm_bo, and into a dumb buffer exported with PRIME, renders byte for byte
 * as sg_texture_create of the same texels, in every RGB format, also as a
 * sub-rectangle of a larger buffer (stride above width * 4, offset not 0);
 * bad descs are refused with real dma-bufs; a modifier the display does not
 * list is refused naming what it lists; and no fd outlives the test. */
#include <dirent.h>
#include <linux/dma-buf.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <time.h>
#include <drm_fourcc.h>
#include <errno.h>
#include <fcntl.h>
#include <gbm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "drm_test.h"
#include "../../src/graph/dmabuf.h"
#include "../../src/target/import.h"
#include "../nv12_reference.h"

/* vgem's uapi (include/uapi/drm/vgem_drm.h), which libdrm does not install. */
struct vgem_fence_attach {
	uint32_t handle;
	uint32_t flags; /* VGEM_FENCE_WRITE: an exclusive (write) fence */
	uint32_t out_fence;
	uint32_t pad;
};
struct vgem_fence_signal {
	uint32_t fence;
	uint32_t flags;
};
#define VGEM_FENCE_WRITE 0x1
#define DRM_IOCTL_VGEM_FENCE_ATTACH DRM_IOWR(DRM_COMMAND_BASE + 0x1, struct vgem_fence_attach)
#define DRM_IOCTL_VGEM_FENCE_SIGNAL DRM_IOW(DRM_COMMAND_BASE + 0x2, struct vgem_fence_signal)

#define OUT_W 64
#define OUT_H 48

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

/* Texel (x, y) of the test pattern, as RGBA: every texel different, opaque. */
static void pattern_texel(int x, int y, uint8_t rgba[4])
{
	rgba[0] = (uint8_t)(x * 4 + 1);
	rgba[1] = (uint8_t)(y * 5 + 2);
	rgba[2] = (uint8_t)(x * 7 ^ y * 3);
	rgba[3] = 255;
}

/* Writes the pattern (width x height at map, rows stride apart) in fourcc's
 * byte order; the X of an X format gets a byte that must not matter. */
static void write_pattern(uint32_t fourcc, uint8_t *map, size_t stride, int width, int height)
{
	bool bgr = fourcc == DRM_FORMAT_ARGB8888 || fourcc == DRM_FORMAT_XRGB8888;
	bool x_format = fourcc == DRM_FORMAT_XRGB8888 || fourcc == DRM_FORMAT_XBGR8888;
	for (int y = 0; y < height; y++)
		for (int x = 0; x < width; x++) {
			uint8_t rgba[4], *p = map + stride * (size_t)y + (size_t)x * 4;
			pattern_texel(x, y, rgba);
			p[0] = bgr ? rgba[2] : rgba[0];
			p[1] = rgba[1];
			p[2] = bgr ? rgba[0] : rgba[2];
			p[3] = x_format ? 0x5a : rgba[3];
		}
}

/* Renders texture on a quad covering the output, one texel per pixel. */
static void render_texture(struct sg_renderer *renderer, struct sg_scene *scene, sg_texture texture,
                           uint8_t *rgba)
{
	sg_mesh quad = sg_mesh_create_quad(scene, OUT_W, OUT_H);
	sg_node model =
	    sg_node_new_model(scene, &(struct sg_model_desc){.mesh = quad, .texture = texture});
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), model), SG_OK);
	sg_result result = sg_renderer_render(renderer, scene, NULL);
	ck_assert_msg(result == SG_OK, "sg_renderer_render: %s", sg_last_error());
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, rgba, 0), SG_OK);
	ck_assert_int_eq(sg_node_destroy(scene, model), SG_OK);
	ck_assert_int_eq(sg_mesh_destroy(scene, quad), SG_OK);
}

/* What sg_texture_create of the pattern renders. */
static void render_reference(struct sg_renderer *renderer, uint8_t *rgba)
{
	static uint8_t texels[OUT_W * OUT_H * 4];
	for (int y = 0; y < OUT_H; y++)
		for (int x = 0; x < OUT_W; x++)
			pattern_texel(x, y, texels + ((size_t)y * OUT_W + (size_t)x) * 4);
	struct sg_scene *scene = sg_scene_create();
	sg_texture texture = sg_texture_create(
	    scene, &(struct sg_texture_desc){.width = OUT_W, .height = OUT_H, .pixels = texels});
	render_texture(renderer, scene, texture, rgba);
	sg_scene_destroy(scene);
}

/* Imports the buffer (fd, offset, stride) as an OUT_W x OUT_H texture of
 * fourcc and modifier, renders it and compares with the reference. */
static void check_import(struct sg_renderer *renderer, const uint8_t *reference, int fd,
                         uint32_t fourcc, uint64_t modifier, uint32_t offset, uint32_t stride,
                         const char *what)
{
	struct sg_scene *scene = sg_scene_create();
	sg_texture texture = sg_texture_import_dmabuf(
	    scene, &(struct sg_dmabuf_desc){.width = OUT_W,
	                                    .height = OUT_H,
	                                    .fourcc = fourcc,
	                                    .modifier = modifier,
	                                    .plane_count = 1,
	                                    .planes = {{fd, offset, stride}}});
	ck_assert_msg(texture.generation, "%s: %s", what, sg_last_error());
	static uint8_t rgba[OUT_W * OUT_H * 4];
	render_texture(renderer, scene, texture, rgba);
	int differing = count_differing_pixels(rgba, OUT_W * 4, reference, OUT_W * 4, OUT_W, OUT_H);
	printf("import %s (%.4s, modifier 0x%llx, offset %u, stride %u): %d of %d pixels differ\n",
	       what, (const char *)&fourcc, (unsigned long long)modifier, offset, stride, differing,
	       OUT_W * OUT_H);
	ck_assert_int_eq(differing, 0);
	/* Drawn a second time from the renderer's cached EGLImage. */
	render_texture(renderer, scene, texture, rgba);
	ck_assert_int_eq(
	    count_differing_pixels(rgba, OUT_W * 4, reference, OUT_W * 4, OUT_W, OUT_H), 0);
	ck_assert_int_eq(sg_texture_destroy(scene, texture), SG_OK);
	sg_scene_destroy(scene);
}

struct fixture {
	int fds_before;
	int drm_fd;
	struct gbm_device *gbm;
	struct sg_renderer *renderer;
	uint8_t reference[OUT_W * OUT_H * 4];
};

static void fixture_init(struct fixture *f)
{
	struct drm_nodes nodes;
	find_drm_nodes(&nodes);
	f->fds_before = count_fds();
	f->drm_fd = open(nodes.primary, O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(f->drm_fd, 0);
	f->gbm = gbm_create_device(f->drm_fd);
	ck_assert_ptr_nonnull(f->gbm);
	f->renderer = sg_renderer_create(
	    &(struct sg_renderer_desc){.width = OUT_W, .height = OUT_H, .target = SG_TARGET_GBM});
	ck_assert_msg(f->renderer, "sg_renderer_create: %s", sg_last_error());
	render_reference(f->renderer, f->reference);
}

static void fixture_finish(struct fixture *f)
{
	sg_renderer_destroy(f->renderer);
	gbm_device_destroy(f->gbm);
	close(f->drm_fd);
	ck_assert_msg(count_fds() == f->fds_before, "%d fds before, %d after", f->fds_before,
	              count_fds());
}

/* A mapped gbm_bo of bo_width x bo_height holding the pattern at texel
 * (left, top); returns its dma-buf fd, offset and stride. */
static int gbm_pattern(struct fixture *f, uint32_t fourcc, int bo_width, int bo_height, int left,
                       int top, struct gbm_bo **bo, uint32_t *offset, uint32_t *stride)
{
	*bo = gbm_bo_create(f->gbm, (uint32_t)bo_width, (uint32_t)bo_height, fourcc,
	                    GBM_BO_USE_LINEAR | GBM_BO_USE_RENDERING);
	ck_assert_msg(*bo, "gbm_bo_create %.4s: %s", (const char *)&fourcc, strerror(errno));
	uint32_t map_stride;
	void *map_data = NULL;
	uint8_t *map = gbm_bo_map(*bo, 0, 0, (uint32_t)bo_width, (uint32_t)bo_height,
	                          GBM_BO_TRANSFER_WRITE, &map_stride, &map_data);
	ck_assert_msg(map, "gbm_bo_map: %s", strerror(errno));
	memset(map, 0x77, (size_t)map_stride * (size_t)bo_height);
	write_pattern(fourcc, map + (size_t)map_stride * (size_t)top + (size_t)left * 4, map_stride,
	              OUT_W, OUT_H);
	gbm_bo_unmap(*bo, map_data);
	*stride = gbm_bo_get_stride(*bo);
	ck_assert_uint_eq(*stride, map_stride); /* linear: the map is the buffer */
	*offset = gbm_bo_get_offset(*bo, 0) + *stride * (uint32_t)top + (uint32_t)left * 4;
	int fd = gbm_bo_get_fd(*bo);
	ck_assert_int_ge(fd, 0);
	return fd;
}

START_TEST(test_gbm_bo_matches_texture_create)
{
	static struct fixture f;
	fixture_init(&f);
	static const uint32_t formats[] = {DRM_FORMAT_XRGB8888, DRM_FORMAT_ARGB8888,
	                                   DRM_FORMAT_XBGR8888, DRM_FORMAT_ABGR8888};
	for (int i = 0; i < 4; i++) {
		struct gbm_bo *bo;
		uint32_t offset, stride;
		int fd = gbm_pattern(&f, formats[i], OUT_W, OUT_H, 0, 0, &bo, &offset, &stride);
		check_import(f.renderer, f.reference, fd, formats[i], gbm_bo_get_modifier(bo),
		             offset, stride, "gbm_bo");
		close(fd);
		gbm_bo_destroy(bo);
	}
	/* The pattern inside a larger buffer: stride above width * 4, offset not 0. */
	struct gbm_bo *bo;
	uint32_t offset, stride;
	int fd = gbm_pattern(&f, DRM_FORMAT_XRGB8888, OUT_W + 40, OUT_H + 9, 24, 5, &bo, &offset,
	                     &stride);
	ck_assert_uint_gt(stride, OUT_W * 4);
	ck_assert_uint_gt(offset, 0);
	check_import(f.renderer, f.reference, fd, DRM_FORMAT_XRGB8888, DRM_FORMAT_MOD_LINEAR,
	             offset, stride, "gbm_bo sub-rectangle");
	close(fd);
	gbm_bo_destroy(bo);
	fixture_finish(&f);
}
END_TEST

START_TEST(test_prime_dumb_buffer_matches_texture_create)
{
	static struct fixture f;
	fixture_init(&f);
	/* Wider and taller than the texture, so that stride and offset matter. */
	uint32_t handle, pitch;
	uint64_t size;
	ck_assert_msg(drmModeCreateDumbBuffer(f.drm_fd, OUT_W + 16, OUT_H + 4, 32, 0, &handle,
	                                      &pitch, &size) == 0,
	              "drmModeCreateDumbBuffer: %s", strerror(errno));
	uint64_t map_offset;
	ck_assert_int_eq(drmModeMapDumbBuffer(f.drm_fd, handle, &map_offset), 0);
	uint8_t *map =
	    mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, f.drm_fd, (off_t)map_offset);
	ck_assert_msg(map != MAP_FAILED, "mmap of the dumb buffer: %s", strerror(errno));
	memset(map, 0x33, size);
	uint32_t offset = pitch * 3 + 8 * 4;
	write_pattern(DRM_FORMAT_XBGR8888, map + offset, pitch, OUT_W, OUT_H);
	munmap(map, size);
	int fd = -1;
	ck_assert_msg(drmPrimeHandleToFD(f.drm_fd, handle, DRM_CLOEXEC | DRM_RDWR, &fd) == 0,
	              "drmPrimeHandleToFD: %s", strerror(errno));
	ck_assert_uint_gt(pitch, OUT_W * 4);
	check_import(f.renderer, f.reference, fd, DRM_FORMAT_XBGR8888, DRM_FORMAT_MOD_INVALID,
	             offset, pitch, "PRIME dumb buffer");
	close(fd);
	ck_assert_int_eq(drmModeDestroyDumbBuffer(f.drm_fd, handle), 0);
	fixture_finish(&f);
}
END_TEST

static void expect_refused(struct sg_scene *scene, const struct sg_dmabuf_desc *desc,
                           const char *words, const char *what)
{
	sg_texture texture = sg_texture_import_dmabuf(scene, desc);
	printf("bad desc, %s: %s\n", what, sg_last_error());
	ck_assert_msg(!texture.generation, "%s: imported anyway", what);
	ck_assert_msg(sg_last_result() == SG_ERR_INVALID_ARGUMENT, "%s: %s", what,
	              sg_result_name(sg_last_result()));
	ck_assert_msg(strstr(sg_last_error(), words), "%s: '%s' lacks '%s'", what, sg_last_error(),
	              words);
}

START_TEST(test_bad_descs_and_unlisted_modifier)
{
	static struct fixture f;
	fixture_init(&f);
	struct gbm_bo *bo;
	uint32_t offset, stride;
	int fd = gbm_pattern(&f, DRM_FORMAT_XRGB8888, OUT_W, OUT_H, 0, 0, &bo, &offset, &stride);
	off_t size = lseek(fd, 0, SEEK_END);
	ck_assert_int_ge(size, (off_t)stride * OUT_H);
	struct sg_scene *scene = sg_scene_create();
	const struct sg_dmabuf_desc good = {.width = OUT_W,
	                                    .height = OUT_H,
	                                    .fourcc = DRM_FORMAT_XRGB8888,
	                                    .modifier = DRM_FORMAT_MOD_INVALID,
	                                    .plane_count = 1,
	                                    .planes = {{fd, offset, stride}}};
	struct sg_dmabuf_desc desc = good;
	desc.planes[0].stride = OUT_W * 4 - 4;
	expect_refused(scene, &desc, "is less than the 256 bytes of a row", "stride too small");
	desc = good, desc.planes[0].offset = (uint32_t)size - stride * (OUT_H - 1);
	expect_refused(scene, &desc, "beyond the buffer's", "plane beyond the buffer");
	desc = good, desc.plane_count = 2, desc.planes[1] = desc.planes[0];
	expect_refused(scene, &desc, "has 1 plane, desc gives 2", "wrong plane count");
	int closed = dup(fd);
	close(closed);
	desc = good, desc.planes[0].fd = closed;
	expect_refused(scene, &desc, "is not open", "closed fd");
	desc = good, desc.width = 0;
	expect_refused(scene, &desc, "size 0x48", "zero size");

	/* X-tiled (Intel's): no display here lists it, so the render says what it lists. */
	desc = good, desc.modifier = I915_FORMAT_MOD_X_TILED;
	sg_texture texture = sg_texture_import_dmabuf(scene, &desc);
	ck_assert_msg(texture.generation, "%s", sg_last_error());
	sg_mesh quad = sg_mesh_create_quad(scene, OUT_W, OUT_H);
	sg_node model =
	    sg_node_new_model(scene, &(struct sg_model_desc){.mesh = quad, .texture = texture});
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), model), SG_OK);
	ck_assert_int_eq(sg_renderer_render(f.renderer, scene, NULL), SG_ERR_UNSUPPORTED);
	printf("unlisted modifier: %s\n", sg_last_error());
	ck_assert_msg(strstr(sg_last_error(), "XR24 with modifier 0x100000000000001"), "%s",
	              sg_last_error());
	ck_assert_msg(strstr(sg_last_error(), "eglQueryDmaBufModifiersEXT offers"), "%s",
	              sg_last_error());
	ck_assert_int_eq(sg_texture_destroy(scene, texture), SG_OK);
	sg_scene_destroy(scene);
	close(fd);
	gbm_bo_destroy(bo);
	fixture_finish(&f);
}
END_TEST

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

struct signaller {
	int drm_fd;
	uint32_t fence;
	double signalled_at;
};

static void *signal_later(void *data)
{
	struct signaller *s = data;
	usleep(400 * 1000);
	s->signalled_at = now_s();
	struct vgem_fence_signal signal = {.fence = s->fence};
	if (drmIoctl(s->drm_fd, DRM_IOCTL_VGEM_FENCE_SIGNAL, &signal))
		s->signalled_at = -1;
	return NULL;
}

/* A write fence on the vgem buffer, as a sync_file a reader waits on. */
static int attach_fence(int drm_fd, uint32_t handle, int dmabuf_fd, uint32_t *fence)
{
	struct vgem_fence_attach attach = {.handle = handle, .flags = VGEM_FENCE_WRITE};
	ck_assert_msg(drmIoctl(drm_fd, DRM_IOCTL_VGEM_FENCE_ATTACH, &attach) == 0,
	              "VGEM_FENCE_ATTACH: %s", strerror(errno));
	*fence = attach.out_fence;
	struct dma_buf_export_sync_file sync = {.flags = DMA_BUF_SYNC_READ, .fd = -1};
	ck_assert_msg(ioctl(dmabuf_fd, DMA_BUF_IOCTL_EXPORT_SYNC_FILE, &sync) == 0,
	              "DMA_BUF_IOCTL_EXPORT_SYNC_FILE: %s", strerror(errno));
	return sync.fd;
}

/* sg_texture_mark_changed with a vgem fence: the render waits for the signal
 * (given by another thread 0.4 s later) and shows the new content; a fence
 * never signalled fails the render after the timeout, and the next render
 * after the signal draws. vgem only: no other guest device makes fences. */
START_TEST(test_acquire_fence_holds_the_render)
{
	static struct fixture f;
	fixture_init(&f);
	drmVersionPtr version = drmGetVersion(f.drm_fd);
	bool vgem = version && strcmp(version->name, "vgem") == 0;
	printf("acquire fence: device driver %s\n", version ? version->name : "?");
	drmFreeVersion(version);
	if (!vgem) {
		printf(
		    "acquire fence: skipped: no vgem here to make a fence (VGEM_FENCE_ATTACH)\n");
		fixture_finish(&f);
		return;
	}
	uint32_t handle, pitch;
	uint64_t size;
	ck_assert_int_eq(
	    drmModeCreateDumbBuffer(f.drm_fd, OUT_W, OUT_H, 32, 0, &handle, &pitch, &size), 0);
	uint64_t map_offset;
	ck_assert_int_eq(drmModeMapDumbBuffer(f.drm_fd, handle, &map_offset), 0);
	uint8_t *map =
	    mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, f.drm_fd, (off_t)map_offset);
	ck_assert(map != MAP_FAILED);
	memset(map, 0, size); /* first content: black */
	int dmabuf_fd = -1;
	ck_assert_int_eq(drmPrimeHandleToFD(f.drm_fd, handle, DRM_CLOEXEC | DRM_RDWR, &dmabuf_fd),
	                 0);
	struct sg_scene *scene = sg_scene_create();
	sg_texture texture = sg_texture_import_dmabuf(
	    scene, &(struct sg_dmabuf_desc){.width = OUT_W,
	                                    .height = OUT_H,
	                                    .fourcc = DRM_FORMAT_XBGR8888,
	                                    .modifier = DRM_FORMAT_MOD_INVALID,
	                                    .plane_count = 1,
	                                    .planes = {{dmabuf_fd, 0, pitch}}});
	ck_assert_msg(texture.generation, "%s", sg_last_error());
	sg_mesh quad = sg_mesh_create_quad(scene, OUT_W, OUT_H);
	sg_node model =
	    sg_node_new_model(scene, &(struct sg_model_desc){.mesh = quad, .texture = texture});
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), model), SG_OK);
	ck_assert_int_eq(sg_renderer_render(f.renderer, scene, NULL), SG_OK);
	static uint8_t rgba[OUT_W * OUT_H * 4];
	ck_assert_int_eq(sg_renderer_read_pixels(f.renderer, rgba, 0), SG_OK);
	ck_assert_int_eq(rgba[0], 0);

	/* New content, fenced: the render must wait for the other thread's signal. */
	write_pattern(DRM_FORMAT_XBGR8888, map, pitch, OUT_W, OUT_H);
	struct signaller signaller = {.drm_fd = f.drm_fd};
	int sync_fd = attach_fence(f.drm_fd, handle, dmabuf_fd, &signaller.fence);
	ck_assert_int_eq(sg_texture_mark_changed(scene, texture, NULL, sync_fd), SG_OK);
	close(sync_fd);
	pthread_t thread;
	double started = now_s();
	ck_assert_int_eq(pthread_create(&thread, NULL, signal_later, &signaller), 0);
	sg_result result = sg_renderer_render(f.renderer, scene, NULL);
	double returned = now_s();
	pthread_join(thread, NULL);
	ck_assert_msg(result == SG_OK, "render: %s", sg_last_error());
	ck_assert_msg(signaller.signalled_at > 0, "VGEM_FENCE_SIGNAL failed");
	printf(
	    "acquire fence: signalled %.3f s after the render began, render returned %.3f s after "
	    "it\n",
	    signaller.signalled_at - started, returned - signaller.signalled_at);
	ck_assert_msg(returned >= signaller.signalled_at, "the render returned before the signal");
	ck_assert_int_eq(sg_renderer_read_pixels(f.renderer, rgba, 0), SG_OK);
	ck_assert_int_eq(
	    count_differing_pixels(rgba, OUT_W * 4, f.reference, OUT_W * 4, OUT_W, OUT_H), 0);

	/* A fence nobody signals: the render fails after the timeout, draws nothing new. */
	memset(map, 0xff, size);
	sync_fd = attach_fence(f.drm_fd, handle, dmabuf_fd, &signaller.fence);
	ck_assert_int_eq(
	    sg_texture_mark_changed(scene, texture, &(struct sg_dmabuf_rect){0, 0, 8, 8}, sync_fd),
	    SG_OK);
	close(sync_fd);
	int timeout = sg_import_fence_timeout_ms;
	sg_import_fence_timeout_ms = 300;
	started = now_s();
	result = sg_renderer_render(f.renderer, scene, NULL);
	returned = now_s();
	printf("acquire fence never signalled: %s after %.3f s: %s\n", sg_result_name(result),
	       returned - started, sg_last_error());
	ck_assert_int_eq(result, SG_ERR_DEVICE);
	ck_assert_msg(strstr(sg_last_error(), "did not signal within 300 ms"), "%s",
	              sg_last_error());
	ck_assert(returned - started >= 0.29);
	struct vgem_fence_signal signal = {.fence = signaller.fence};
	ck_assert_int_eq(drmIoctl(f.drm_fd, DRM_IOCTL_VGEM_FENCE_SIGNAL, &signal), 0);
	ck_assert_msg(sg_renderer_render(f.renderer, scene, NULL) == SG_OK, "%s", sg_last_error());
	sg_import_fence_timeout_ms = timeout;
	ck_assert_int_eq(sg_renderer_read_pixels(f.renderer, rgba, 0), SG_OK);
	ck_assert_int_eq(rgba[0], 255);
	ck_assert_int_eq(rgba[1], 255);

	ck_assert_int_eq(sg_texture_destroy(scene, texture), SG_OK);
	sg_scene_destroy(scene);
	munmap(map, size);
	close(dmabuf_fd);
	ck_assert_int_eq(drmModeDestroyDumbBuffer(f.drm_fd, handle), 0);
	fixture_finish(&f);
}
END_TEST


/* NV12 in one dumb buffer: Y rows, then CbCr rows at *chroma, both *pitch
 * apart; returns its PRIME fd. */
static int nv12_buffer(struct fixture *f, uint32_t *handle, uint32_t *pitch, uint32_t *chroma)
{
	uint64_t size;
	/* 32 bits a pixel, a quarter as wide: virtio-gpu refuses 8-bit dumb buffers. */
	ck_assert_int_eq(drmModeCreateDumbBuffer(f->drm_fd, (OUT_W + 16) / 4, OUT_H * 3 / 2, 32, 0,
	                                         handle, pitch, &size),
	                 0);
	ck_assert_uint_ge(*pitch, OUT_W);
	uint64_t map_offset;
	ck_assert_int_eq(drmModeMapDumbBuffer(f->drm_fd, *handle, &map_offset), 0);
	uint8_t *map =
	    mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, f->drm_fd, (off_t)map_offset);
	ck_assert(map != MAP_FAILED);
	*chroma = *pitch * OUT_H;
	for (int y = 0; y < OUT_H; y++)
		for (int x = 0; x < OUT_W; x++) {
			map[*pitch * (uint32_t)y + (uint32_t)x] = nv12_y(x, y);
			uint8_t *pair =
			    &map[*chroma + *pitch * (uint32_t)(y / 2) + (uint32_t)(x / 2) * 2];
			nv12_cbcr(x, y, &pair[0], &pair[1]);
		}
	munmap(map, size);
	int fd = -1;
	ck_assert_int_eq(drmPrimeHandleToFD(f->drm_fd, *handle, DRM_CLOEXEC | DRM_RDWR, &fd), 0);
	return fd;
}

static sg_texture nv12_import(struct sg_scene *scene, int fd, uint32_t pitch, uint32_t chroma,
                              enum sg_yuv_encoding encoding, enum sg_yuv_range range)
{
	sg_texture texture = sg_texture_import_dmabuf(
	    scene, &(struct sg_dmabuf_desc){.width = OUT_W,
	                                    .height = OUT_H,
	                                    .fourcc = DRM_FORMAT_NV12,
	                                    .modifier = DRM_FORMAT_MOD_INVALID,
	                                    .plane_count = 2,
	                                    .planes = {{fd, 0, pitch}, {fd, chroma, pitch}},
	                                    .encoding = encoding,
	                                    .range = range});
	ck_assert_msg(texture.generation, "%s", sg_last_error());
	return texture;
}

static const char *nv12_names[2][2] = {{"BT.601 limited", "BT.601 full"},
                                       {"BT.709 limited", "BT.709 full"}};

/* The largest difference, over an OUT_W x OUT_H image (row_pixels apart),
 * from the CPU reference; printed with where it is. */
static int nv12_compare(const uint8_t *rgba, int row_pixels, enum sg_yuv_encoding encoding,
                        enum sg_yuv_range range, const char *what)
{
	int worst = 0, worst_x = 0, worst_y = 0;
	for (int y = 0; y < OUT_H; y++)
		for (int x = 0; x < OUT_W; x++) {
			uint8_t want[4];
			nv12_reference(encoding, range, x, y, want);
			const uint8_t *got =
			    rgba + ((size_t)y * (size_t)row_pixels + (size_t)x) * 4;
			for (int c = 0; c < 4; c++) {
				int d = abs(got[c] - want[c]);
				if (d > worst)
					worst = d, worst_x = x, worst_y = y;
			}
		}
	uint8_t want[4];
	nv12_reference(encoding, range, worst_x, worst_y, want);
	const uint8_t *got = rgba + ((size_t)worst_y * (size_t)row_pixels + (size_t)worst_x) * 4;
	printf("NV12 %s%s: largest difference %d at (%d, %d): %u %u %u %u, reference %u %u %u "
	       "%u\n",
	       nv12_names[encoding][range], what, worst, worst_x, worst_y, got[0], got[1], got[2],
	       got[3], want[0], want[1], want[2], want[3]);
	return worst;
}

/* A display that cannot import R8 or GR88 planes cannot draw NV12: skipped
 * (saying why), except on llvmpipe (kms_swrast), which imports them. */
static bool nv12_unsupported(struct sg_renderer *renderer, sg_result result)
{
	if (result != SG_ERR_UNSUPPORTED)
		return false;
	const char *gl_renderer = sg_renderer_get_info(renderer)->gl_renderer;
	ck_assert_msg(!strstr(gl_renderer, "llvmpipe"), "NV12 refused on %s: %s", gl_renderer,
	              sg_last_error());
	printf("NV12: skipped: %s\n", sg_last_error());
	return true;
}

/* NV12 (its Y plane imported as R8, its CbCr plane as GR88, converted by
 * libsg's program), imported in each encoding and range, against the CPU
 * reference within 2 per channel. */
START_TEST(test_nv12_matches_cpu_reference)
{
	static struct fixture f;
	fixture_init(&f);
	printf("NV12 on GL_RENDERER %s\n", sg_renderer_get_info(f.renderer)->gl_renderer);
	uint32_t handle, pitch, chroma;
	int fd = nv12_buffer(&f, &handle, &pitch, &chroma);
	for (int encoding = SG_YUV_BT601; encoding <= SG_YUV_BT709; encoding++) {
		for (int range = SG_YUV_LIMITED; range <= SG_YUV_FULL; range++) {
			struct sg_scene *scene = sg_scene_create();
			sg_texture texture = nv12_import(scene, fd, pitch, chroma, encoding, range);
			sg_mesh quad = sg_mesh_create_quad(scene, OUT_W, OUT_H);
			sg_node model = sg_node_new_model(
			    scene, &(struct sg_model_desc){.mesh = quad, .texture = texture});
			ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), model),
			                 SG_OK);
			sg_result result = sg_renderer_render(f.renderer, scene, NULL);
			if (nv12_unsupported(f.renderer, result)) {
				sg_texture_destroy(scene, texture);
				sg_scene_destroy(scene);
				goto done;
			}
			ck_assert_msg(result == SG_OK, "%s: %s", nv12_names[encoding][range],
			              sg_last_error());
			static uint8_t rgba[OUT_W * OUT_H * 4];
			ck_assert_int_eq(sg_renderer_read_pixels(f.renderer, rgba, 0), SG_OK);
			ck_assert_int_le(nv12_compare(rgba, OUT_W, encoding, range, ""), 2);
			ck_assert_int_eq(sg_texture_destroy(scene, texture), SG_OK);
			sg_scene_destroy(scene);
		}
	}
done:
	close(fd);
	ck_assert_int_eq(drmModeDestroyDumbBuffer(f.drm_fd, handle), 0);
	fixture_finish(&f);
}
END_TEST

/* The NV12 program switched to and back within one frame: three quads side
 * by side, NV12 as BT.709 full range, a plain texture, the same buffer as
 * BT.601 limited range. Each NV12 third matches its own reference (the
 * uniforms are per texture) and the plain third is byte for byte what the
 * plain texture renders alone (the textured program and unit 0 are back). */
START_TEST(test_nv12_program_mixes_with_textured)
{
	static struct fixture f;
	fixture_init(&f);
	struct sg_renderer *wide = sg_renderer_create(&(struct sg_renderer_desc){
	    .width = OUT_W * 3, .height = OUT_H, .target = SG_TARGET_GBM});
	ck_assert_msg(wide, "%s", sg_last_error());
	uint32_t handle, pitch, chroma;
	int fd = nv12_buffer(&f, &handle, &pitch, &chroma);
	static uint8_t texels[OUT_W * OUT_H * 4];
	for (int y = 0; y < OUT_H; y++)
		for (int x = 0; x < OUT_W; x++)
			pattern_texel(x, y, texels + ((size_t)y * OUT_W + (size_t)x) * 4);
	struct sg_scene *scene = sg_scene_create();
	sg_texture plain = sg_texture_create(
	    scene, &(struct sg_texture_desc){.width = OUT_W, .height = OUT_H, .pixels = texels});
	sg_texture bt709 = nv12_import(scene, fd, pitch, chroma, SG_YUV_BT709, SG_YUV_FULL);
	sg_texture bt601 = nv12_import(scene, fd, pitch, chroma, SG_YUV_BT601, SG_YUV_LIMITED);
	sg_mesh quad = sg_mesh_create_quad(scene, OUT_W, OUT_H);
	const sg_texture order[3] = {bt709, plain, bt601};
	for (int i = 0; i < 3; i++) {
		sg_node model = sg_node_new_model(
		    scene, &(struct sg_model_desc){.mesh = quad,
		                                   .texture = order[i],
		                                   .position = {(float)(OUT_W * i), 0, 0}});
		ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), model), SG_OK);
	}
	static uint8_t rgba[OUT_W * 3 * OUT_H * 4];
	for (int frame = 0; frame < 2; frame++) {
		sg_result result = sg_renderer_render(wide, scene, NULL);
		if (nv12_unsupported(wide, result))
			goto done;
		ck_assert_msg(result == SG_OK, "%s", sg_last_error());
		ck_assert_int_eq(sg_renderer_read_pixels(wide, rgba, 0), SG_OK);
		ck_assert_int_le(nv12_compare(rgba, OUT_W * 3, SG_YUV_BT709, SG_YUV_FULL,
		                              " (left of a plain texture)"),
		                 2);
		ck_assert_int_le(nv12_compare(rgba + OUT_W * 2 * 4, OUT_W * 3, SG_YUV_BT601,
		                              SG_YUV_LIMITED, " (right of a plain texture)"),
		                 2);
		int differing = count_differing_pixels(rgba + OUT_W * 4, OUT_W * 3 * 4, f.reference,
		                                       OUT_W * 4, OUT_W, OUT_H);
		printf("plain texture between NV12 ones: %d of %d pixels differ\n", differing,
		       OUT_W * OUT_H);
		ck_assert_int_eq(differing, 0);
	}
done:
	/* sg_scene_destroy does not close the fds of imports yet */
	ck_assert_int_eq(sg_texture_destroy(scene, bt709), SG_OK);
	ck_assert_int_eq(sg_texture_destroy(scene, bt601), SG_OK);
	sg_scene_destroy(scene);
	sg_renderer_destroy(wide);
	close(fd);
	ck_assert_int_eq(drmModeDestroyDumbBuffer(f.drm_fd, handle), 0);
	fixture_finish(&f);
}
END_TEST

/* Render-to-texture: renderer A's output shown in scene B (sg_texture_import_renderer)
 * renders, through renderer B, exactly as A's read-back; after A renders a
 * new frame and B's texture is marked changed, B shows that frame; after A
 * is destroyed, B still shows it. */
START_TEST(test_renderer_output_as_texture)
{
	int fds_before = count_fds();
	static uint8_t a_pixels[IMAGE_BYTES], b_pixels[IMAGE_BYTES];
	struct sg_renderer *a = render_three_rects(
	    &(struct sg_renderer_desc){
	        .width = IMAGE_SIZE, .height = IMAGE_SIZE, .target = SG_TARGET_GBM},
	    a_pixels);
	struct sg_renderer *b = sg_renderer_create(&(struct sg_renderer_desc){
	    .width = IMAGE_SIZE, .height = IMAGE_SIZE, .target = SG_TARGET_GBM});
	ck_assert_msg(b, "%s", sg_last_error());
	struct sg_scene *scene = sg_scene_create();
	sg_texture output = sg_texture_import_renderer(scene, a, SG_FILTER_NEAREST);
	ck_assert_msg(output.generation, "%s", sg_last_error());
	sg_mesh quad = sg_mesh_create_quad(scene, IMAGE_SIZE, IMAGE_SIZE);
	sg_node model =
	    sg_node_new_model(scene, &(struct sg_model_desc){.mesh = quad, .texture = output});
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), model), SG_OK);
	ck_assert_msg(sg_renderer_render(b, scene, NULL) == SG_OK, "%s", sg_last_error());
	ck_assert_int_eq(sg_renderer_read_pixels(b, b_pixels, 0), SG_OK);
	int differing = count_differing_pixels(b_pixels, IMAGE_SIZE * 4, a_pixels, IMAGE_SIZE * 4,
	                                       IMAGE_SIZE, IMAGE_SIZE);
	printf("renderer A's output in scene B: %d of %d pixels differ\n", differing,
	       IMAGE_SIZE * IMAGE_SIZE);
	ck_assert_int_eq(differing, 0);
	check_three_rects_content(b_pixels, IMAGE_SIZE, IMAGE_SIZE, opaque_black, "A in B");

	/* A new frame of A: an empty scene over a blue-grey clear colour. */
	struct sg_scene *empty = sg_scene_create();
	ck_assert_int_eq(sg_renderer_set_clear_color(a, 0.2f, 0.4f, 0.6f, 1.0f), SG_OK);
	ck_assert_int_eq(sg_renderer_render(a, empty, NULL), SG_OK);
	ck_assert_int_eq(sg_renderer_read_pixels(a, a_pixels, 0), SG_OK);
	ck_assert_int_eq(sg_texture_mark_changed(scene, output, NULL, -1), SG_OK);
	ck_assert_int_eq(sg_renderer_render(b, scene, NULL), SG_OK);
	ck_assert_int_eq(sg_renderer_read_pixels(b, b_pixels, 0), SG_OK);
	ck_assert_int_eq(count_differing_pixels(b_pixels, IMAGE_SIZE * 4, a_pixels, IMAGE_SIZE * 4,
	                                        IMAGE_SIZE, IMAGE_SIZE),
	                 0);
	ck_assert_int_eq(b_pixels[0], 51);
	sg_scene_destroy(empty);

	/* A gone: the texture keeps the buffer and its last frame. */
	sg_renderer_destroy(a);
	ck_assert_int_eq(sg_texture_mark_changed(scene, output, NULL, -1), SG_OK);
	ck_assert_int_eq(sg_renderer_render(b, scene, NULL), SG_OK);
	ck_assert_int_eq(sg_renderer_read_pixels(b, b_pixels, 0), SG_OK);
	ck_assert_int_eq(count_differing_pixels(b_pixels, IMAGE_SIZE * 4, a_pixels, IMAGE_SIZE * 4,
	                                        IMAGE_SIZE, IMAGE_SIZE),
	                 0);
	ck_assert_int_eq(sg_texture_destroy(scene, output), SG_OK);
	sg_scene_destroy(scene);
	sg_renderer_destroy(b);
	ck_assert_msg(count_fds() == fds_before, "%d fds before, %d after", fds_before,
	              count_fds());
}
END_TEST

Suite *import_suite(void); /* called by test_drm.c */

Suite *import_suite(void)
{
	Suite *suite = suite_create("import");
	TCase *tc = tcase_create("import");
	tcase_add_test(tc, test_gbm_bo_matches_texture_create);
	tcase_add_test(tc, test_prime_dumb_buffer_matches_texture_create);
	tcase_add_test(tc, test_bad_descs_and_unlisted_modifier);
	tcase_add_test(tc, test_acquire_fence_holds_the_render);
	tcase_add_test(tc, test_nv12_matches_cpu_reference);
	tcase_add_test(tc, test_nv12_program_mixes_with_textured);
	tcase_add_test(tc, test_renderer_output_as_texture);
	suite_add_tcase(suite, tc);
	return suite;
}
