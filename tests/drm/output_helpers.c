#include <drm_fourcc.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "output_test.h"
#include "three_rects_scene.h"

void animated_scene_init(struct animated_scene *animated)
{
	animated->scene = three_rects_build();
	ck_assert_msg(animated->scene, "three_rects_build: %s", sg_last_error());
	animated->transform =
	    sg_node_find(animated->scene, sg_scene_root(animated->scene), "Transform");
	ck_assert_msg(sg_node_exists(animated->scene, animated->transform), "no Transform node");
	sg_camera_init_pixels(&animated->camera, IMAGE_SIZE, IMAGE_SIZE);
}

void animated_scene_set_frame(struct animated_scene *animated, int frame)
{
	struct sg_scene *scene = animated->scene;
	sg_node t = animated->transform;
	/* About the middle of the two small rectangles, so they stay in view. */
	ck_assert_int_eq(sg_transform_set_identity(scene, t), SG_OK);
	ck_assert_int_eq(sg_transform_translate(scene, t, 32.0f, 32.0f, 0.0f), SG_OK);
	ck_assert_int_eq(sg_transform_rotate(scene, t, (float)frame * 0.15707963f, 0, 0, 1), SG_OK);
	ck_assert_int_eq(sg_transform_translate(scene, t, -32.0f, -32.0f, 0.0f), SG_OK);
	ck_assert_int_eq(sg_transform_scale(scene, t, 0.5f, 0.5f, 1.0f), SG_OK);
}

void animated_scene_finish(struct animated_scene *animated)
{
	sg_scene_destroy(animated->scene);
	animated->scene = NULL;
}

struct sg_renderer *reference_renderer(int width, int height)
{
	struct sg_renderer *renderer =
	    sg_renderer_create(&(struct sg_renderer_desc){.width = width,
	                                                  .height = height,
	                                                  .target = SG_TARGET_SURFACELESS,
	                                                  .ignore_environment = true});
	ck_assert_msg(renderer, "surfaceless renderer: %s", sg_last_error());
	return renderer;
}

uint8_t *reference_render(struct sg_renderer *reference, struct animated_scene *animated)
{
	const struct sg_renderer_info *info = sg_renderer_get_info(reference);
	uint8_t *rgba = malloc((size_t)info->width * (size_t)info->height * 4);
	ck_assert_ptr_nonnull(rgba);
	ck_assert_msg(sg_renderer_render(reference, animated->scene, &animated->camera) == SG_OK,
	              "%s", sg_last_error());
	ck_assert_msg(sg_renderer_read_pixels(reference, rgba, 0) == SG_OK, "%s", sg_last_error());
	return rgba;
}

uint8_t *read_crtc(const char *node, uint32_t crtc_id, int width, int height, uint32_t *fb_id)
{
	int fd = open(node, O_RDWR | O_CLOEXEC);
	ck_assert_msg(fd >= 0, "open %s: %s", node, strerror(errno));
	drmModeCrtcPtr crtc = drmModeGetCrtc(fd, crtc_id);
	ck_assert_msg(crtc, "drmModeGetCrtc(%u): %s", crtc_id, strerror(errno));
	ck_assert_msg(crtc->mode_valid && crtc->buffer_id, "CRTC %u is off", crtc_id);
	*fb_id = crtc->buffer_id;
	drmModeFB2Ptr fb = drmModeGetFB2(fd, crtc->buffer_id);
	ck_assert_msg(fb && fb->handles[0], "drmModeGetFB2(%u) gave no handle: %s", crtc->buffer_id,
	              strerror(errno));
	ck_assert_int_eq((int)fb->width, width);
	ck_assert_int_eq((int)fb->height, height);
	ck_assert_msg(fb->pixel_format == DRM_FORMAT_XRGB8888 ||
	                  fb->pixel_format == DRM_FORMAT_ARGB8888,
	              "scanned-out format %.4s", (const char *)&fb->pixel_format);
	uint64_t offset = 0;
	int error = drmModeMapDumbBuffer(fd, fb->handles[0], &offset);
	ck_assert_msg(!error, "DRM_IOCTL_MODE_MAP_DUMB of fb %u: %s", crtc->buffer_id,
	              strerror(-error));
	size_t size = (size_t)fb->pitches[0] * fb->height + fb->offsets[0];
	uint8_t *map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, (off_t)offset);
	ck_assert_msg(map != MAP_FAILED, "mmap of fb %u: %s", crtc->buffer_id, strerror(errno));
	uint8_t *rgba = malloc((size_t)width * (size_t)height * 4);
	ck_assert_ptr_nonnull(rgba);
	/* Scanout ignores alpha in XRGB; ARGB is shown as X too on a primary plane. */
	drm_image_to_rgba(DRM_FORMAT_XRGB8888, map + fb->offsets[0], fb->pitches[0], width, height,
	                  rgba);
	munmap(map, size);
	drmCloseBufferHandle(fd, fb->handles[0]);
	drmModeFreeFB2(fb);
	drmModeFreeCrtc(crtc);
	close(fd);
	return rgba;
}

void damage_log_hook(uint32_t blob, const struct drm_mode_rect *clips, int count, void *data)
{
	struct damage_log *log = data;
	log->flips++;
	log->count = count;
	ck_assert_int_le(count, SG_RING_MAX_CLIPS);
	if (count < 0) {
		ck_assert_uint_eq(blob, 0);
		return;
	}
	ck_assert_msg(blob, "clips without a blob");
	log->partial++;
	memcpy(log->clips, clips, sizeof(*clips) * (size_t)count);
	for (int i = 0; i < count; i++)
		log->clipped += (int64_t)(clips[i].x2 - clips[i].x1) * (clips[i].y2 - clips[i].y1);
	/* What the kernel holds is what the output meant. */
	drmModePropertyBlobPtr got = drmModeGetPropertyBlob(log->fd, blob);
	ck_assert_msg(got, "blob %u: drmModeGetPropertyBlob: %s", blob, strerror(errno));
	ck_assert_uint_eq(got->length, sizeof(*clips) * (size_t)count);
	ck_assert_int_eq(memcmp(got->data, clips, got->length), 0);
	drmModeFreePropertyBlob(got);
	ck_assert_int_lt(log->blob_count, DAMAGE_LOG_MAX);
	struct damage_blob *kept = &log->blobs[log->blob_count++];
	kept->id = blob;
	kept->count = count;
	memcpy(kept->clips, clips, sizeof(*clips) * (size_t)count);
}

void damage_log_check_covers(const struct damage_log *log, const uint8_t *before,
                             const uint8_t *now, int width, int height, const char *what)
{
	if (log->count < 0)
		return;
	for (int y = 0; y < height; y++)
		for (int x = 0; x < width; x++) {
			size_t p = ((size_t)y * (size_t)width + (size_t)x) * 4;
			if (!memcmp(before + p, now + p, 3))
				continue;
			bool inside = false;
			for (int i = 0; i < log->count && !inside; i++)
				inside = x >= log->clips[i].x1 && x < log->clips[i].x2 &&
				         y >= log->clips[i].y1 && y < log->clips[i].y2;
			ck_assert_msg(inside, "%s: pixel %d,%d changed outside the %d damage clips",
			              what, x, y, log->count);
		}
}

int damage_log_check_freed(const struct damage_log *log)
{
	for (int i = 0; i < log->blob_count; i++) {
		const struct damage_blob *kept = &log->blobs[i];
		drmModePropertyBlobPtr got = drmModeGetPropertyBlob(log->fd, kept->id);
		size_t length = sizeof(kept->clips[0]) * (size_t)kept->count;
		ck_assert_msg(!got || got->length != length ||
		                  memcmp(got->data, kept->clips, length),
		              "damage blob %u (flip %d of %d) is still there: leaked", kept->id, i,
		              log->blob_count);
		drmModeFreePropertyBlob(got);
	}
	return log->blob_count;
}

int count_differing_rgb(const uint8_t *a, const uint8_t *b, int width, int height)
{
	int differing = 0;
	for (size_t p = 0; p < (size_t)width * (size_t)height * 4; p += 4)
		differing += memcmp(a + p, b + p, 3) != 0;
	return differing;
}
