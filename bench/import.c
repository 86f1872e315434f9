/* Import benchmark: a 1920 x 1080 picture that changes every frame, shown
 * full-screen (linear filtering) on a 160 x 90 output, small so that the
 * transfer, not the draw, is what differs; three ways in one
 * process, each the median of ROUNDS rounds of FRAMES frames (after WARMUP
 * frames each), the modes' rounds interleaved:

 *   update        sg_texture_update of the whole picture (the scene's copy,
 *                 then glTexSubImage2D) + sg_renderer_render;
 *   mark changed  the picture written into a mapped gbm_bo imported once
 *                 (sg_texture_import_dmabuf), sg_texture_mark_changed +
 *                 sg_renderer_render: nothing copied by libsg;
 *   import each   a ring of 3 gbm_bos as a decoder hands them out: each frame
 *                 a fresh sg_texture_import_dmabuf of the next one (a new
 *                 EGLImage), sg_model_set_texture, the previous texture
 *                 destroyed, + sg_renderer_render.
 *
 * "write" is the producer's memcpy of the picture into the bo (import modes)
 * or nothing (update reads the producer's memory itself): it is printed
 * apart, being the producer's cost, not the renderer's. Needs a DRM device
 * (GBM target), so it runs in the qemu guest:
 *   tests/vm/run.sh --device vgem -- build/bench/import */
#include <gbm.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sg/sg.h>

#include "timing.h"

#define WIDTH 1920
#define HEIGHT 1080
#define OUT_W 160
#define OUT_H 90
#define FRAMES 8 /* per round */
#define ROUNDS 5
#define WARMUP 2 /* per round */
#define RING 3
#define XRGB8888 0x34325258u

static uint8_t *pictures[2]; /* alternated, so that every frame changes */

static void make_pictures(void)
{
	for (int p = 0; p < 2; p++) {
		pictures[p] = malloc((size_t)WIDTH * HEIGHT * 4);
		for (size_t i = 0; i < (size_t)WIDTH * HEIGHT * 4; i++)
			pictures[p][i] = i % 4 == 3 ? 255 : (uint8_t)(i * 7 + (size_t)p * 91);
	}
}

static void fail(const char *what)
{
	fprintf(stderr, "import bench: %s: %s\n", what, sg_last_error());
	exit(1);
}

struct bo {
	struct gbm_bo *bo;
	int fd;
	uint32_t stride;
};

static struct bo make_bo(struct gbm_device *gbm)
{
	struct bo b;
	b.bo =
	    gbm_bo_create(gbm, WIDTH, HEIGHT, XRGB8888, GBM_BO_USE_LINEAR | GBM_BO_USE_RENDERING);
	if (!b.bo)
		fail("gbm_bo_create");
	b.fd = gbm_bo_get_fd(b.bo);
	b.stride = gbm_bo_get_stride(b.bo);
	return b;
}

/* The producer: the picture into the bo, through a map. */
static double write_bo(struct bo *b, const uint8_t *picture)
{
	double start = now_ms();
	uint32_t stride;
	void *data = NULL;
	uint8_t *map =
	    gbm_bo_map(b->bo, 0, 0, WIDTH, HEIGHT, GBM_BO_TRANSFER_WRITE, &stride, &data);
	if (!map)
		fail("gbm_bo_map");
	for (int y = 0; y < HEIGHT; y++)
		memcpy(map + (size_t)stride * (size_t)y, picture + (size_t)y * WIDTH * 4,
		       WIDTH * 4);
	gbm_bo_unmap(b->bo, data);
	return now_ms() - start;
}

static sg_texture import_bo(struct sg_scene *scene, const struct bo *b)
{
	sg_texture t = sg_texture_import_dmabuf(
	    scene, &(struct sg_dmabuf_desc){.width = WIDTH,
	                                    .height = HEIGHT,
	                                    .fourcc = XRGB8888,
	                                    .modifier = SG_DMABUF_MOD_IMPLICIT,
	                                    .plane_count = 1,
	                                    .planes = {{b->fd, 0, b->stride}},
	                                    .filter = SG_FILTER_LINEAR});
	if (!t.generation)
		fail("sg_texture_import_dmabuf");
	return t;
}

enum mode { UPDATE, MARK_CHANGED, IMPORT_EACH, MODES };
static const char *mode_names[MODES] = {"update", "mark changed", "import each"};

int main(void)
{
	make_pictures();
	struct sg_renderer *renderer = sg_renderer_create(
	    &(struct sg_renderer_desc){.width = OUT_W, .height = OUT_H, .target = SG_TARGET_GBM});
	if (!renderer)
		fail("sg_renderer_create (GBM: run it where a DRM device is)");
	const struct sg_renderer_info *info = sg_renderer_get_info(renderer);
	int drm_fd = open(info->device, O_RDWR | O_CLOEXEC);
	struct gbm_device *gbm = drm_fd >= 0 ? gbm_create_device(drm_fd) : NULL;
	if (!gbm)
		fail("gbm_create_device");
	printf(
	    "import bench: %dx%d picture on a %dx%d output, %s on %s (%s), median of %d frames\n",
	    WIDTH, HEIGHT, OUT_W, OUT_H, info->target_name, info->device, info->gl_renderer,
	    ROUNDS * FRAMES);
	struct bo ring[RING];
	for (int i = 0; i < RING; i++)
		ring[i] = make_bo(gbm);

	struct run {
		struct sg_scene *scene;
		sg_texture texture;
		sg_node model;
		double frame[ROUNDS * FRAMES], write[ROUNDS * FRAMES];
		int done, step;
	} runs[MODES];
	for (enum mode mode = 0; mode < MODES; mode++) {
		struct run *r = &runs[mode];
		r->done = r->step = 0;
		r->scene = sg_scene_create();
		r->texture =
		    mode == UPDATE
		        ? sg_texture_create(r->scene,
		                            &(struct sg_texture_desc){.width = WIDTH,
		                                                      .height = HEIGHT,
		                                                      .pixels = pictures[0],
		                                                      .filter = SG_FILTER_LINEAR})
		        : import_bo(r->scene, &ring[0]);
		sg_mesh quad = sg_mesh_create_quad(r->scene, OUT_W, OUT_H);
		r->model = sg_node_new_model(
		    r->scene, &(struct sg_model_desc){.mesh = quad, .texture = r->texture});
		sg_node_add_child(r->scene, sg_scene_root(r->scene), r->model);
	}
	/* Rounds of each mode in turn, so that a busy spell of the machine
	 * falls on all of them alike. */
	for (int round = 0; round < ROUNDS; round++) {
		for (enum mode mode = 0; mode < MODES; mode++) {
			struct run *r = &runs[mode];
			for (int f = -WARMUP; f < FRAMES; f++, r->step++) {
				const uint8_t *picture = pictures[(r->step + 1) % 2];
				struct bo *b =
				    &ring[mode == IMPORT_EACH ? (r->step + 1) % RING : 0];
				double written = mode == UPDATE ? 0 : write_bo(b, picture);
				double start = now_ms();
				sg_result result = SG_OK;
				if (mode == UPDATE) {
					result = sg_texture_update(r->scene, r->texture, 0, 0,
					                           WIDTH, HEIGHT, picture, 0);
				} else if (mode == MARK_CHANGED) {
					result =
					    sg_texture_mark_changed(r->scene, r->texture, NULL, -1);
				} else if (mode == IMPORT_EACH) {
					sg_texture next = import_bo(r->scene, b);
					result = sg_model_set_texture(r->scene, r->model, next);
					sg_texture_destroy(r->scene, r->texture);
					r->texture = next;
				}
				if (result || sg_renderer_render(renderer, r->scene, NULL))
					fail(mode_names[mode]);
				if (f >= 0) {
					r->frame[r->done] = now_ms() - start;
					r->write[r->done++] = written;
				}
			}
		}
	}
	for (enum mode mode = 0; mode < MODES; mode++) {
		struct run *r = &runs[mode];
		printf("  %-13s frame %7.2f ms   (producer's write into the bo %6.2f ms)\n",
		       mode_names[mode], median(r->frame, r->done), median(r->write, r->done));
		sg_texture_destroy(r->scene, r->texture);
		sg_scene_destroy(r->scene);
	}
	for (int i = 0; i < RING; i++) {
		close(ring[i].fd);
		gbm_bo_destroy(ring[i].bo);
	}
	gbm_device_destroy(gbm);
	close(drm_fd);
	sg_renderer_destroy(renderer);
	return 0;
}
