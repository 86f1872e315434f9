/* Helpers of the output suites (test_output.c, test_output_vkms.c): an
 * animated scene, its surfaceless reference and what a CRTC scans out. */
#ifndef SG_DRM_OUTPUT_TEST_H
#define SG_DRM_OUTPUT_TEST_H

#include <stdint.h>

#include "drm_test.h"

#define FLIP_TIMEOUT_MS 5000

/* three-rects whose "Transform" node turns by 9 degrees a frame about the
 * centre of the 256 x 256 scene; the camera stretches it over the output. */
struct animated_scene {
	struct sg_scene *scene;
	sg_node transform;
	struct sg_camera camera;
};
void animated_scene_init(struct animated_scene *animated);
void animated_scene_set_frame(struct animated_scene *animated, int frame);
void animated_scene_finish(struct animated_scene *animated);

/* A surfaceless renderer of width x height for the references. */
struct sg_renderer *reference_renderer(int width, int height);
/* The reference of the scene as it is now: RGBA, packed (caller frees). */
uint8_t *reference_render(struct sg_renderer *reference, struct animated_scene *animated);

/* What crtc_id scans out, read through a new fd of node (drmModeGetCrtc ->
 * drmModeGetFB2 -> map the dumb buffer kms_swrast allocated): RGBA, packed
 * (caller frees). *fb_id gets the framebuffer's id. */
uint8_t *read_crtc(const char *node, uint32_t crtc_id, int width, int height, uint32_t *fb_id);

#endif
