/* Damage tracking on real DRM devices (docs/damage.md, docs/output.md):
 *
 * - the GBM target (vgem and virtio-gpu guests): random edits of
 *   tests/damage_scene.c, every frame of a renderer with damage byte-identical
 *   to one without, with rings of 1, 2 and 3 gbm_bos of the renderer
 *   (sg_renderer_draw into scanout buffers, as sg_output draws);
 * - sg_output on virtio-gpu (SG_DRM_KMS=1): the same edits presented through
 *   the output's rings of real scanout gbm_bos (3 and 2 buffers) and through
 *   the copy path (dumb buffers filled where they changed), what the CRTC
 *   scans out equal to a full repaint after every frame, also when the
 *   application rendered through the output's renderer between presents;
 *   the FB_DAMAGE_CLIPS
 *   of each flip held by the kernel as given, covering every pixel that
 *   changed, and every blob gone after sg_output_destroy. */
#include <drm_fourcc.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "../../src/output/props.h"
#include "../../src/render/buffer.h"
#include "damage_scene.h"
#include "output_test.h"

#define CARD "/dev/dri/card0"
#define W 96 /* the GBM test's output, as tests/test_damage.c */
#define H 80
#define GBM_FRAMES 40
/* The output test's scene is laid out over SCENE_W x SCENE_H and stretched
 * over the smallest mode by the camera, so that models cover many pixels. */
#define MODE_W 640
#define MODE_H 480
#define SCENE_W 160
#define SCENE_H 120

static struct sg_renderer *gbm_renderer(bool damage)
{
	struct sg_renderer *r = sg_renderer_create(&(struct sg_renderer_desc){
	    .width = W, .height = H, .target = SG_TARGET_GBM, .ignore_environment = true});
	ck_assert_msg(r, "GBM renderer: %s", sg_last_error());
	ck_assert_int_eq(sg_renderer_set_damage_tracking(r, damage), SG_OK);
	return r;
}

static void render(struct sg_renderer *r, struct damage_world *w, const struct sg_camera *camera,
                   const float clear[4], uint8_t *pixels)
{
	ck_assert_int_eq(sg_renderer_set_clear_color(r, clear[0], clear[1], clear[2], clear[3]),
	                 SG_OK);
	ck_assert_msg(sg_renderer_render(r, w->scene, camera) == SG_OK, "%s", sg_last_error());
	ck_assert_int_eq(sg_renderer_read_pixels(r, pixels, 0), SG_OK);
}

static void render_into(struct sg_renderer *r, struct sg_render_buffer *buffer,
                        struct damage_world *w, const struct sg_camera *camera,
                        const float clear[4], uint8_t *pixels)
{
	ck_assert_int_eq(sg_renderer_set_clear_color(r, clear[0], clear[1], clear[2], clear[3]),
	                 SG_OK);
	struct sg_render_pass pass = {.buffer = buffer};
	ck_assert_msg(sg_renderer_draw(r, w->scene, camera, &pass) == SG_OK, "%s",
	              sg_last_error());
	ck_assert_int_eq(sg_renderer_read_pixels(r, pixels, 0), SG_OK);
}

static uint64_t repainted(struct sg_renderer *r)
{
	struct sg_render_stats stats;
	ck_assert_int_eq(sg_renderer_get_stats(r, &stats), SG_OK);
	return stats.repainted_pixels;
}

/* n scanout gbm_bos of the renderer (XRGB8888, as sg_output allocates them). */
static void add_scanouts(struct sg_renderer *r, int n, struct sg_render_buffer **buffers)
{
	ck_assert_msg(sg_renderer_scanout_format(r, DRM_FORMAT_XRGB8888),
	              "gbm cannot allocate XRGB8888 for scanout and rendering");
	for (int i = 0; i < n; i++)
		ck_assert_msg(sg_renderer_buffer_create(
		                  r,
		                  &(struct sg_buffer_desc){.scanout = true,
		                                           .format = DRM_FORMAT_XRGB8888},
		                  &buffers[i]) == SG_OK,
		              "scanout buffer %d: %s", i, sg_last_error());
}

/* Rings of 1, 2 and 3 gbm_bos, each keeping the frame last drawn into it,
 * as sg_output's ring does (sg_renderer_draw), all three beside one
 * renderer without damage (one process: llvmpipe under TCG starts slowly);
 * the full repaints go to one gbm_bo of the same format, so that every byte
 * compares. */
START_TEST(test_gbm_random_edits_equal_full_repaints)
{
	enum { RINGS = 3 };
	struct damage_world w;
	damage_world_build(&w, 4321u, false, W, H);
	struct sg_renderer *full = gbm_renderer(false), *damaged[RINGS];
	struct sg_render_buffer *full_buffer, *ring[RINGS][RINGS];
	int partial[RINGS] = {0};
	add_scanouts(full, 1, &full_buffer);
	for (int r = 0; r < RINGS; r++) {
		damaged[r] = gbm_renderer(true);
		ck_assert_int_eq(sg_renderer_get_info(damaged[r])->target, SG_TARGET_GBM);
		add_scanouts(damaged[r], r + 1, ring[r]);
	}
	struct sg_camera camera;
	damage_camera_init(&camera, W, H, false, 0.0f);
	float clear[4] = {0.1f, 0.2f, 0.3f, 1.0f};
	static uint8_t want[W * H * 4], got[W * H * 4];
	for (int frame = 0; frame < GBM_FRAMES; frame++) {
		const char *what = damage_world_frame_edits(&w, &camera, clear, frame);
		render_into(full, full_buffer, &w, &camera, clear, want);
		for (int r = 0; r < RINGS; r++) {
			render_into(damaged[r], ring[r][frame % (r + 1)], &w, &camera, clear, got);
			partial[r] += repainted(damaged[r]) < W * H;
			for (int p = 0; p < W * H * 4; p++)
				ck_assert_msg(
				    got[p] == want[p],
				    "GBM, ring %d, frame %d (last edit: %s): byte %d (x %d, y "
				    "%d) is %u, a full repaint has %u",
				    r + 1, frame, what, p, p / 4 % W, p / 4 / W, got[p], want[p]);
		}
	}
	for (int r = 0; r < RINGS; r++) {
		printf("GBM (%s), ring of %d gbm_bos: %d frames equal to full repaints, %d of them "
		       "partial\n",
		       sg_renderer_get_info(damaged[r])->device, r + 1, GBM_FRAMES, partial[r]);
		/* A new camera or clear colour repaints each buffer of the ring once. */
		ck_assert_msg(partial[r] > GBM_FRAMES / 4,
		              "ring %d: only %d of %d frames were partial", r + 1, partial[r],
		              GBM_FRAMES);
		for (int b = 0; b <= r; b++)
			sg_renderer_buffer_destroy(damaged[r], ring[r][b]);
		sg_renderer_destroy(damaged[r]);
	}
	sg_renderer_buffer_destroy(full, full_buffer);
	sg_renderer_destroy(full);
	sg_scene_destroy(w.scene);
}
END_TEST

/* frames presented through an output of the desc's kind, each compared on
 * the CRTC with a surfaceless full repaint. */
static void present_random_edits(const struct sg_output_desc *base, int frames, unsigned seed)
{
	int fd = open(CARD, O_RDWR | O_CLOEXEC);
	ck_assert_msg(fd >= 0, "open %s: %s", CARD, strerror(errno));
	struct damage_log log = {.fd = fd, .count = -1};
	struct sg_output_desc desc = *base;
	desc.has_drm_fd = true;
	desc.drm_fd = fd;
	desc.width = MODE_W;
	desc.height = MODE_H;
	float clear[4] = {0.1f, 0.2f, 0.3f, 1.0f};
	memcpy(desc.clear_color, clear, sizeof(clear));
	struct sg_output *output = sg_output_create_for_testing(
	    &desc, &(struct sg_output_test_hooks){
	               .damage = damage_log_hook, .damage_blobs = true, .data = &log});
	ck_assert_msg(output, "sg_output_create: %s", sg_last_error());
	const struct sg_output_info *info = sg_output_get_info(output);
	bool has_clips =
	    sg_kms_prop(fd, info->plane_id, DRM_MODE_OBJECT_PLANE, "FB_DAMAGE_CLIPS", NULL, NULL);
	printf(
	    "output %s %dx%d, %s, %s, %d buffers: plane %u %s FB_DAMAGE_CLIPS, info.damage_clips "
	    "%d\n",
	    info->connector, info->width, info->height, info->atomic ? "atomic" : "legacy",
	    info->path == SG_OUTPUT_PATH_ZERO_COPY ? "zero-copy" : "copy", info->buffer_count,
	    info->plane_id, has_clips ? "has" : "lacks", info->damage_clips);
	ck_assert_int_eq(info->damage_clips, has_clips && info->atomic);
	ck_assert_int_eq(info->path,
	                 base->force_copy ? SG_OUTPUT_PATH_COPY : SG_OUTPUT_PATH_ZERO_COPY);
	/* After the output: its fd must be the first to take master. */
	struct sg_renderer *reference = reference_renderer(MODE_W, MODE_H);
	ck_assert_int_eq(sg_renderer_set_damage_tracking(reference, false), SG_OK);

	struct damage_world w;
	damage_world_build(&w, seed, false, SCENE_W, SCENE_H);
	struct sg_camera camera;
	damage_camera_init(&camera, SCENE_W, SCENE_H, false, 0.0f);
	size_t bytes = (size_t)MODE_W * MODE_H * 4;
	uint8_t *want = malloc(bytes), *before = malloc(bytes);
	ck_assert(want && before);
	int partial = 0;
	uint32_t fbs[3] = {0};
	for (int frame = 0; frame < frames; frame++) {
		const char *what = damage_world_frame_edits(&w, &camera, clear, frame);
		ck_assert_int_eq(
		    sg_output_set_clear_color(output, clear[0], clear[1], clear[2], clear[3]),
		    SG_OK);
		/* Now and then the application renders through the output's renderer
		 * between presents (a screenshot): the present after it changes
		 * nothing against that render, yet each buffer of the ring lacks the
		 * edits. (An output that kept its own history of the presents' damage
		 * missed them: the copy path copied nothing.) */
		if (frame % 4 == 2)
			ck_assert_msg(sg_renderer_render(sg_output_get_renderer(output), w.scene,
			                                 &camera) == SG_OK,
			              "frame %d: %s", frame, sg_last_error());
		sg_result result = sg_output_present(output, w.scene, &camera);
		ck_assert_msg(result == SG_OK, "frame %d: %s", frame, sg_last_error());
		result = sg_output_wait(output, FLIP_TIMEOUT_MS);
		ck_assert_msg(result == SG_OK, "frame %d: %s", frame, sg_last_error());
		partial += repainted(sg_output_get_renderer(output)) < (uint64_t)MODE_W * MODE_H;
		uint32_t fb_id = 0;
		uint8_t *shown = read_crtc(CARD, info->crtc_id, MODE_W, MODE_H, &fb_id);
		fbs[frame % 3] = fb_id;
		render(reference, &w, &camera, clear, want);
		int differing = count_differing_rgb(shown, want, MODE_W, MODE_H);
		ck_assert_msg(differing == 0,
		              "frame %d (fb %u, last edit: %s): %d of %d scanned-out pixels differ "
		              "from a full repaint",
		              frame, fb_id, what, differing, MODE_W * MODE_H);
		if (frame)
			damage_log_check_covers(&log, before, want, MODE_W, MODE_H, what);
		memcpy(before, want, bytes);
		free(shown);
	}
	/* The ring turned: consecutive frames on different framebuffers. */
	ck_assert_uint_ne(fbs[0], fbs[1]);
	printf("%d frames equal to full repaints on the CRTC, %d repainted partially; %d flips, "
	       "%d with damage clips (%.1f%% of their pixels)\n",
	       frames, partial, log.flips, log.partial,
	       log.partial ? 100.0 * (double)log.clipped / ((double)log.partial * MODE_W * MODE_H)
	                   : 0.0);
	ck_assert_msg(partial > frames / 2, "only %d of %d frames were partial", partial, frames);
	/* The hook sees every page flip (all but the modeset): the clips are
	 * made, and checked, also where the plane lacks FB_DAMAGE_CLIPS. */
	ck_assert_int_eq(log.flips, frames - 1);
	ck_assert_msg(log.partial > frames / 3, "only %d of %d flips had clips", log.partial,
	              frames - 1);
	sg_output_destroy(output);
	printf("%d damage blobs, none left after destroy\n", damage_log_check_freed(&log));
	sg_renderer_destroy(reference);
	sg_scene_destroy(w.scene);
	free(want);
	free(before);
	close(fd);
}

/* One process, one Mesa start: rings of 3 and 2 scanout gbm_bos, then the
 * copy path (2 dumb buffers). */
START_TEST(test_output_random_edits_equal_full_repaints)
{
	present_random_edits(&(struct sg_output_desc){.buffer_count = 3}, 30, 11u);
	present_random_edits(&(struct sg_output_desc){.buffer_count = 2}, 20, 12u);
	present_random_edits(&(struct sg_output_desc){.buffer_count = 2, .force_copy = true}, 20,
	                     13u);
}
END_TEST

/* Registered by test_drm.c (has_kms: the output test on virtio-gpu). */
Suite *damage_drm_suite(bool has_kms);

Suite *damage_drm_suite(bool has_kms)
{
	Suite *suite = suite_create("damage-drm");
	/* One guest each: the rings of the GBM target on vgem, the output's
	 * (GBM scanout buffers too) on virtio-gpu; each render costs about
	 * 200 ms under emulation. */
	if (!has_kms) {
		TCase *gbm = tcase_create("gbm");
		tcase_add_test(gbm, test_gbm_random_edits_equal_full_repaints);
		suite_add_tcase(suite, gbm);
	}
	if (has_kms) {
		TCase *output = tcase_create("output");
		tcase_add_test(output, test_output_random_edits_equal_full_repaints);
		suite_add_tcase(suite, output);
	}
	return suite;
}
