#include <drm_fourcc.h>
#include <stdio.h>
#include <string.h>
#include <xf86drm.h>

#include "drm_test.h"
#include "three_rects_scene.h"

void find_drm_nodes(struct drm_nodes *nodes)
{
	drmDevicePtr devices[16];
	int count = drmGetDevices2(0, devices, 16);
	ck_assert_msg(count > 0, "drmGetDevices2 found no DRM device (%d)", count);
	const int want = (1 << DRM_NODE_PRIMARY) | (1 << DRM_NODE_RENDER);
	ck_assert_msg((devices[0]->available_nodes & want) == want,
	              "device 0 lacks a primary or render node (available_nodes 0x%x)",
	              devices[0]->available_nodes);
	snprintf(nodes->primary, sizeof(nodes->primary), "%s", devices[0]->nodes[DRM_NODE_PRIMARY]);
	snprintf(nodes->render, sizeof(nodes->render), "%s", devices[0]->nodes[DRM_NODE_RENDER]);
	drmFreeDevices(devices, count);
}

struct sg_renderer *render_three_rects(const struct sg_renderer_desc *desc, uint8_t *rgba)
{
	struct sg_scene *scene = three_rects_build();
	ck_assert_msg(scene, "three_rects_build: %s", sg_last_error());
	struct sg_renderer *renderer = sg_renderer_create(desc);
	ck_assert_msg(renderer, "sg_renderer_create: %s", sg_last_error());
	/* The scene is specified over 256 x 256; other output sizes stretch it. */
	struct sg_camera camera;
	sg_camera_init_pixels(&camera, IMAGE_SIZE, IMAGE_SIZE);
	sg_result result = sg_renderer_render(renderer, scene, &camera);
	ck_assert_msg(result == SG_OK, "sg_renderer_render: %s", sg_last_error());
	result = sg_renderer_read_pixels(renderer, rgba, 0);
	ck_assert_msg(result == SG_OK, "sg_renderer_read_pixels: %s", sg_last_error());
	sg_scene_destroy(scene);
	return renderer;
}

int count_differing_pixels(const uint8_t *a, size_t stride_a, const uint8_t *b, size_t stride_b,
                           int width, int height)
{
	int differing = 0;
	for (int y = 0; y < height; y++)
		for (int x = 0; x < width; x++)
			differing += memcmp(a + stride_a * (size_t)y + (size_t)x * 4,
			                    b + stride_b * (size_t)y + (size_t)x * 4, 4) != 0;
	return differing;
}

const uint8_t opaque_black[4] = {0, 0, 0, 255};

/* (x, y) is a pixel of the 256 x 256 scene; the image has it stretched. */
static void check_pixel(const uint8_t *rgba, int width, int height, int x, int y,
                        const uint8_t expected[4], const char *what)
{
	x = (int)((x + 0.5) * width / IMAGE_SIZE);
	y = (int)((y + 0.5) * height / IMAGE_SIZE);
	const uint8_t *p = rgba + ((size_t)y * (size_t)width + (size_t)x) * 4;
	ck_assert_msg(memcmp(p, expected, 4) == 0,
	              "%s: pixel (%d, %d) is (%u, %u, %u, %u), expected (%u, %u, %u, %u)", what, x, y,
	              p[0], p[1], p[2], p[3], expected[0], expected[1], expected[2], expected[3]);
}

void check_three_rects_content(const uint8_t *rgba, int width, int height,
                               const uint8_t clear[4], const char *what)
{
	/* Pixel centres well inside cells (shared/scenes/three-rects.md): rect 1
	 * spans [0,100], its cells are 12.5 px; rect 2 [5,55] and rect 3 [7.5,57.5],
	 * cells of 6.25 px. */
	static const uint8_t red[4] = {255, 0, 0, 255}, green[4] = {0, 255, 0, 255},
	                     blue[4] = {0, 0, 255, 255}, white[4] = {255, 255, 255, 255};
	check_pixel(rgba, width, height, 2, 2, red, what);
	check_pixel(rgba, width, height, 90, 2, white, what);
	check_pixel(rgba, width, height, 60, 2, red, what);
	check_pixel(rgba, width, height, 30, 30, blue, what);
	check_pixel(rgba, width, height, 6, 30, green, what);
	check_pixel(rgba, width, height, 200, 200, clear, what);
	check_pixel(rgba, width, height, 255, 255, clear, what);
}

void drm_pixel_to_rgba(uint32_t fourcc, const uint8_t *src, uint8_t *rgba)
{
	/* DRM formats name the channels of a little-endian 32-bit word from the
	 * top bit: ABGR8888 is R, G, B, A in memory, ARGB8888 is B, G, R, A. */
	bool bgr_order = fourcc == DRM_FORMAT_ARGB8888 || fourcc == DRM_FORMAT_XRGB8888;
	bool opaque = fourcc == DRM_FORMAT_XBGR8888 || fourcc == DRM_FORMAT_XRGB8888;
	rgba[0] = bgr_order ? src[2] : src[0];
	rgba[1] = src[1];
	rgba[2] = bgr_order ? src[0] : src[2];
	rgba[3] = opaque ? 255 : src[3];
}

void drm_image_to_rgba(uint32_t fourcc, const uint8_t *map, size_t map_stride, int width,
                       int height, uint8_t *rgba)
{
	for (int y = 0; y < height; y++)
		for (int x = 0; x < width; x++)
			drm_pixel_to_rgba(fourcc, map + map_stride * (size_t)y + (size_t)x * 4,
			                  rgba + ((size_t)y * (size_t)width + (size_t)x) * 4);
}
