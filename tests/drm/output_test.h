/* Helpers of the output suites (test_output.c, test_output_vkms.c): an
 * animated scene, its surfaceless reference and what a CRTC scans out. */
#ifndef SG_DRM_OUTPUT_TEST_H
#define SG_DRM_OUTPUT_TEST_H

#include <stdint.h>
#include <xf86drmMode.h>

#include "../../src/output/output_internal.h"
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

/* The FB_DAMAGE_CLIPS an output committed, seen through its damage test hook
 * (src/output/output_internal.h): each blob read back from the kernel while
 * it lives (equal to the clips given), and kept to check that it is gone
 * once the output is destroyed. */
#define DAMAGE_LOG_MAX 128
struct damage_blob {
	uint32_t id;
	int count;
	struct drm_mode_rect clips[SG_RING_MAX_CLIPS];
};
struct damage_log {
	int fd;          /* the output's node, for drmModeGetPropertyBlob */
	int flips;       /* page flips the hook saw */
	int partial;     /* of them with clips (not the whole plane) */
	int count;       /* the last flip's: -1 whole, else how many clips */
	int64_t clipped; /* pixels the clips covered, summed over flips */
	struct drm_mode_rect clips[SG_RING_MAX_CLIPS];
	int blob_count;
	struct damage_blob blobs[DAMAGE_LOG_MAX];
};
/* The hook itself: data is a struct damage_log. */
void damage_log_hook(uint32_t blob, const struct drm_mode_rect *clips, int count, void *data);
/* Fails unless every pixel whose RGB differs between before and now (RGBA,
 * packed, width x height) is inside the last flip's clips. */
void damage_log_check_covers(const struct damage_log *log, const uint8_t *before,
                             const uint8_t *now, int width, int height, const char *what);
/* After sg_output_destroy with log->fd still open: no blob the output made
 * is still there (an id the kernel gave again holds other clips). Returns
 * how many were checked. */
int damage_log_check_freed(const struct damage_log *log);
/* Pixels whose R, G or B differ (alpha is not scanned out). */
int count_differing_rgb(const uint8_t *a, const uint8_t *b, int width, int height);

#endif
