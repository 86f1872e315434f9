/* The drm suite: Check tests that need a real DRM device, run inside a qemu
 * guest by run-in-vm.sh (vgem, or virtio-gpu for KMS). Helpers shared by
 * the test files. */
#ifndef SG_DRM_TEST_H
#define SG_DRM_TEST_H

#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sg/sg.h>

#define IMAGE_SIZE 256 /* three-rects is specified at 256 x 256 */
#define IMAGE_BYTES ((size_t)IMAGE_SIZE * IMAGE_SIZE * 4)

/* The nodes of the first DRM device drmGetDevices2 lists; fails the test when
 * there is none (the guest always has one). */
struct drm_nodes {
	char primary[64]; /* "/dev/dri/card0" */
	char render[64];  /* "/dev/dri/renderD128" */
};
void find_drm_nodes(struct drm_nodes *nodes);

/* Creates a renderer from desc, renders three-rects into it (stretched over
 * the output size) and reads it back into rgba (desc->width * height * 4
 * bytes). The caller destroys the renderer. */
struct sg_renderer *render_three_rects(const struct sg_renderer_desc *desc, uint8_t *rgba);

/* Pixels of a width x height image whose RGBA differ; rows stride bytes apart. */
int count_differing_pixels(const uint8_t *a, size_t stride_a, const uint8_t *b, size_t stride_b,
                           int width, int height);

/* Fails the test unless rgba (width x height, tightly packed, the scene
 * stretched over it) looks like three-rects: red, green, blue, white and the
 * clear colour where the scene puts them. Two blank images would compare equal. */
void check_three_rects_content(const uint8_t *rgba, int width, int height,
                               const uint8_t clear[4], const char *what);
extern const uint8_t opaque_black[4];

/* One pixel of a DRM_FORMAT_{A,X}{B,R}GR8888 buffer as R, G, B, A. */
void drm_pixel_to_rgba(uint32_t fourcc, const uint8_t *src, uint8_t *rgba);

/* Copies a mapped width x height DRM_FORMAT_*8888 image into packed RGBA rows. */
void drm_image_to_rgba(uint32_t fourcc, const uint8_t *map, size_t map_stride, int width,
                       int height, uint8_t *rgba);

Suite *target_suite(void);
Suite *dmabuf_suite(void);
Suite *errors_suite(void);
/* has_kms: the device has a connected output (virtio-gpu); else (vgem) the
 * suite checks that KMS is refused cleanly. */
Suite *kms_suite(bool has_kms);
/* A translucent scene: GBM and surfaceless renders equal on every pixel. */
Suite *translucent_suite(void);
/* vkms only (SG_DRM_WRITEBACK=1): scanout captured by the writeback connector. */
Suite *writeback_suite(void);
/* The public output (sg/output.h): has_kms as for kms_suite. */
Suite *output_suite(bool has_kms);
/* vkms only: the output's frames read back through the writeback connector. */
Suite *output_vkms_suite(void);
/* sg_input against uinput devices (built with SG_DRM_INPUT; run with udevd). */
Suite *input_suite(void);
/* sg_session through seatd as nobody (built with SG_DRM_SESSION; needs udevd). */
Suite *session_suite(void);
/* A real VT switch through seatd, on a device with KMS (virtio-gpu). */
Suite *session_kms_suite(void);
/* sg_window's dma-buf path against mini_compositor.c (built with SG_DRM_WINDOW). */
Suite *window_dmabuf_suite(void);

#endif
