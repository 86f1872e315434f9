#include <drm_fourcc.h>
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
