/* Golden-image tests: the three-rects scene rendered on the surfaceless target
 * against the image the spec's rules give. */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sg/sg.h>

#include "expect.h"
#include "check_run.h"
#include "../src/render/renderer_internal.h"
#include "../src/render/buffer.h"
#include "../src/base/alloc.h"
#include "golden.h"
#include "render_frame.h"
#include "three_rects_scene.h"

static uint8_t *render_three_rects(int size)
{
	struct sg_scene *scene = three_rects_build();
	ck_assert_msg(scene, "%s", sg_last_error());
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
		.width = size, .height = size, .target = SG_TARGET_SURFACELESS});
	ck_assert_msg(renderer, "%s", sg_last_error());
	struct sg_camera camera;
	sg_camera_init_pixels(&camera, 256, 256);
	ck_assert_msg(sg_renderer_render(renderer, scene, &camera) == SG_OK, "%s", sg_last_error());
	uint8_t *pixels = malloc((size_t)size * size * 4);
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, pixels, 0), SG_OK);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
	return pixels;
}

START_TEST(test_three_rects_matches_spec)
{
	uint8_t *pixels = render_three_rects(256);
	int compared;
	int bad = golden_mismatches(pixels, 256, &compared);
	ck_assert_msg(bad == 0, "%d of %d pixels away from edges differ from the spec", bad,
	              compared);
	ck_assert_int_gt(compared, 60000);
	/* spot checks a reader can verify by eye */
	const struct {
		int x, y;
		uint8_t rgba[4];
	} spots[] = {
		{2, 2, {255, 0, 0, 255}},       /* R1's top-left cell, red */
		{90, 2, {255, 255, 255, 255}},  /* R1, cell 7 of row 0: white */
		{6, 6, {0, 255, 0, 255}},       /* R2 peeks out before R3 starts */
		{10, 10, {0, 0, 255, 255}},     /* R3's top-left cell, on top */
		{200, 200, {0, 0, 0, 255}},     /* background */
	};
	for (size_t i = 0; i < sizeof(spots) / sizeof(spots[0]); i++)
		ck_assert_mem_eq(pixels + (spots[i].y * 256 + spots[i].x) * 4, spots[i].rgba, 4);
	free(pixels);
}
END_TEST

START_TEST(test_three_rects_scaled_output)
{
	/* --size 512x512: the same scene over a larger output. */
	uint8_t *pixels = render_three_rects(512);
	int compared;
	int bad = golden_mismatches(pixels, 512, &compared);
	ck_assert_msg(bad == 0, "%d of %d pixels differ at 512x512", bad, compared);
	free(pixels);
}
END_TEST

START_TEST(test_write_png_and_reload)
{
	struct sg_scene *scene = three_rects_build();
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
		.width = 256, .height = 256, .target = SG_TARGET_SURFACELESS});
	ck_assert_int_eq(sg_renderer_render(renderer, scene, NULL), SG_OK);
	char dir[] = "/tmp/sg-render-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[64];
	snprintf(path, sizeof(path), "%s/out.png", dir);
	ck_assert_msg(sg_renderer_write_png(renderer, path) == SG_OK, "%s", sg_last_error());
	/* reload through the PNG loader and compare with the golden image */
	sg_texture t = sg_texture_load_png(scene, path, SG_FILTER_NEAREST, SG_WRAP_CLAMP);
	ck_assert_msg(t.generation, "%s", sg_last_error());
	uint8_t *pixels = malloc(256 * 256 * 4);
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, pixels, 0), SG_OK);
	int compared;
	ck_assert_int_eq(golden_mismatches(pixels, 256, &compared), 0);
	/* no temporary file left beside it */
	char command[128];
	snprintf(command, sizeof(command), "test $(ls -A %s | wc -l) -eq 1", dir);
	ck_assert_int_eq(system(command), 0);
	/* an unwritable folder: an error naming the path, the old file intact */
	ck_assert_int_eq(chmod(dir, 0500), 0);
	if (geteuid() != 0) { /* root writes anyway */
		ck_assert_int_eq(sg_renderer_write_png(renderer, path), SG_ERR_IO);
		ck_assert_msg(strstr(sg_last_error(), dir), "%s", sg_last_error());
	}
	chmod(dir, 0700);
	ck_assert_int_eq(sg_renderer_write_png(renderer, "/nonexistent-dir/x.png"), SG_ERR_IO);
	ck_assert_msg(strstr(sg_last_error(), "/nonexistent-dir/x.png"), "%s", sg_last_error());
	unlink(path);
	rmdir(dir);
	free(pixels);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_read_pixels_with_stride)
{
	struct sg_scene *scene = three_rects_build();
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
		.width = 256, .height = 256, .target = SG_TARGET_SURFACELESS});
	uint8_t row[1200];
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, row, 0), SG_ERR_INVALID_ARGUMENT);
	ck_assert_msg(strstr(sg_last_error(), "nothing rendered yet"), "%s", sg_last_error());
	ck_assert_int_eq(sg_renderer_render(renderer, scene, NULL), SG_OK);
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, row, 100), SG_ERR_INVALID_ARGUMENT);
	size_t stride = 256 * 4 + 64;
	uint8_t *padded = calloc(stride, 256);
	uint8_t *tight = malloc(256 * 256 * 4);
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, padded, stride), SG_OK);
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, tight, 0), SG_OK);
	for (int y = 0; y < 256; y++)
		ck_assert_mem_eq(padded + stride * y, tight + 256 * 4 * y, 256 * 4);
	free(padded);
	free(tight);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
}
END_TEST

static bool in_rect(int x, int y, int x0, int y0, int x1, int y1)
{
	return x >= x0 && x < x1 && y >= y0 && y < y1;
}

/* The copy path of an output reads back only its damaged rectangles: each
 * lands where it lies in the whole image (clipped to it), nothing else is
 * written, no rectangle reads nothing and a negative count reads all. */
START_TEST(test_read_rects_fill_only_their_rectangles)
{
	struct sg_scene *scene = three_rects_build();
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
		.width = 256, .height = 256, .target = SG_TARGET_SURFACELESS});
	ck_assert_int_eq(sg_renderer_render(renderer, scene, NULL), SG_OK);
	size_t stride = 256 * 4 + 32;
	uint8_t *whole = malloc(stride * 256), *part = malloc(stride * 256);
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, whole, stride), SG_OK);
	const struct sg_rect rects[4] = {{10, 20, 30, 40}, {200, 240, 100, 100}, {-5, -5, 10, 10},
	                                 {100, 100, 0, 5}};
	/* the same rectangles clipped to the image */
	const int clipped[3][4] = {{10, 20, 40, 60}, {200, 240, 256, 256}, {0, 0, 5, 5}};
	memset(part, 0x5a, stride * 256);
	ck_assert_int_eq(sg_renderer_read_rects(renderer, rects, 4, part, stride), SG_OK);
	int read = 0;
	for (int y = 0; y < 256; y++)
		for (int x = 0; x < 256; x++) {
			const uint8_t *p = part + stride * (size_t)y + (size_t)x * 4;
			bool inside = false;
			for (int r = 0; r < 3; r++)
				inside = inside || in_rect(x, y, clipped[r][0], clipped[r][1], clipped[r][2],
				                           clipped[r][3]);
			if (inside) {
				expect(!memcmp(p, whole + stride * (size_t)y + (size_t)x * 4, 4),
				       "pixel (%d, %d) inside a rectangle differs from the whole read", x, y);
				read++;
			} else {
				expect(p[0] == 0x5a && p[1] == 0x5a && p[2] == 0x5a && p[3] == 0x5a,
				       "pixel (%d, %d) outside the rectangles was written", x, y);
			}
		}
	ck_assert_int_eq(read, 30 * 40 + 56 * 16 + 5 * 5);
	memset(part, 0x5a, stride * 256);
	ck_assert_int_eq(sg_renderer_read_rects(renderer, rects, 0, part, stride), SG_OK);
	for (size_t i = 0; i < stride * 256; i++)
		expect(part[i] == 0x5a, "byte %zu written by a read of no rectangle", i);
	ck_assert_int_eq(sg_renderer_read_rects(renderer, NULL, -1, part, stride), SG_OK);
	for (int y = 0; y < 256; y++)
		ck_assert_mem_eq(part + stride * (size_t)y, whole + stride * (size_t)y, 256 * 4);
	free(whole);
	free(part);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_clear_color_and_empty_scene)
{
	struct sg_scene *scene = sg_scene_create();
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
		.width = 8, .height = 8, .target = SG_TARGET_SURFACELESS});
	ck_assert_int_eq(sg_renderer_set_clear_color(renderer, 0, 0.5f, 1, 1), SG_OK);
	ck_assert_int_eq(sg_renderer_set_clear_color(renderer, 2, 0, 0, 1), SG_ERR_INVALID_ARGUMENT);
	ck_assert_int_eq(sg_renderer_render(renderer, scene, NULL), SG_OK);
	uint8_t pixels[8 * 8 * 4];
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, pixels, 0), SG_OK);
	ck_assert_uint_eq(pixels[0], 0);
	ck_assert_uint_le(abs(pixels[1] - 128), 1);
	ck_assert_uint_eq(pixels[2], 255);
	ck_assert_uint_eq(pixels[3], 255);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_render_errors)
{
	struct sg_scene *scene = three_rects_build();
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
		.width = 64, .height = 64, .target = SG_TARGET_SURFACELESS});
	ck_assert_int_eq(sg_renderer_render(renderer, NULL, NULL), SG_ERR_INVALID_ARGUMENT);
	ck_assert_int_eq(sg_renderer_render(NULL, scene, NULL), SG_ERR_INVALID_ARGUMENT);
	struct sg_camera camera;
	sg_camera_init_pixels(&camera, 256, 256);
	camera.view[5] = NAN;
	ck_assert_int_eq(sg_renderer_render(renderer, scene, &camera), SG_ERR_INVALID_ARGUMENT);
	ck_assert_msg(strstr(sg_last_error(), "NaN"), "%s", sg_last_error());
	/* a destroyed texture: the render fails naming the model, and a later render
	 * after fixing the model works again */
	sg_node r3 = sg_node_find(scene, sg_scene_root(scene), "Rectangle 3");
	ck_assert_int_eq(sg_renderer_render(renderer, scene, NULL), SG_OK); /* uploads everything */
	struct sg_scene *other = three_rects_build(); /* a second scene through the same renderer */
	ck_assert_int_eq(sg_renderer_render(renderer, other, NULL), SG_OK);
	sg_scene_destroy(other);
	unsigned char px[4] = {9, 9, 9, 255};
	sg_texture grey = sg_texture_create(scene, &(struct sg_texture_desc){1, 1, px, 0, 0, 0});
	ck_assert_int_eq(sg_model_set_texture(scene, r3, grey), SG_OK);
	ck_assert_int_eq(sg_texture_destroy(scene, grey), SG_OK);
	ck_assert_int_eq(sg_renderer_render(renderer, scene, NULL), SG_ERR_STALE_HANDLE);
	ck_assert_msg(strstr(sg_last_error(), "'Rectangle 3'"), "%s", sg_last_error());
	uint8_t pixels[64 * 64 * 4];
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, pixels, 0), SG_ERR_INVALID_ARGUMENT);
	ck_assert_int_eq(sg_node_destroy(scene, r3), SG_OK);
	ck_assert_int_eq(sg_renderer_render(renderer, scene, NULL), SG_OK);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_perspective_camera)
{
	/* A 100 x 100 quad centred in front of a 90-degree camera fills the middle. */
	struct sg_scene *scene = sg_scene_create();
	sg_mesh quad = sg_mesh_create_quad(scene, 2, 2);
	unsigned char white[4] = {255, 255, 255, 255};
	sg_texture tex = sg_texture_create(scene, &(struct sg_texture_desc){1, 1, white, 0, 0, 0});
	sg_node m = sg_node_new_model(scene, &(struct sg_model_desc){
		.mesh = quad, .texture = tex, .position = {-1, -1, -2}});
	sg_node_add_child(scene, sg_scene_root(scene), m);
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
		.width = 64, .height = 64, .target = SG_TARGET_SURFACELESS});
	struct sg_camera camera;
	sg_camera_init_perspective(&camera, (float)M_PI / 2, 1, 0.1f, 10);
	ck_assert_int_eq(sg_renderer_render(renderer, scene, &camera), SG_OK);
	uint8_t pixels[64 * 64 * 4];
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, pixels, 0), SG_OK);
	/* at distance 2 with fov 90 the view spans [-2, 2]: the quad covers the middle half */
	ck_assert_uint_eq(pixels[(32 * 64 + 32) * 4], 255);
	ck_assert_uint_eq(pixels[(20 * 64 + 20) * 4], 255);
	ck_assert_uint_eq(pixels[(8 * 64 + 8) * 4], 0);
	ck_assert_uint_eq(pixels[(56 * 64 + 56) * 4], 0);
	/* looking away from it shows nothing */
	sg_camera_look_at(&camera, (float[]){0, 0, 0}, (float[]){0, 0, 1}, (float[]){0, 1, 0});
	ck_assert_int_eq(sg_renderer_render(renderer, scene, &camera), SG_OK);
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, pixels, 0), SG_OK);
	ck_assert_uint_eq(pixels[(32 * 64 + 32) * 4], 0);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
}
END_TEST

/* Loop tests run twice: _i == 0 with small meshes (drawn from one expanded
 * vertex buffer), _i == 1 with meshes over SG_GL_EXPAND_MAX_VERTICES (drawn
 * instanced), so that both submission paths are checked. */
#define BIG_MESH_REPEAT 12 /* 12 copies of a 6-vertex square: 72 vertices */

START_TEST(test_later_triangles_of_one_model_win)
{
	/* One mesh: triangles covering the square in red, then as many in green.
	 * Painter's order within the one draw: green on top. */
	struct sg_scene *scene = sg_scene_create();
	unsigned char pixels[2 * 4] = {255, 0, 0, 255, 0, 255, 0, 255};
	sg_texture two = sg_texture_create(scene, &(struct sg_texture_desc){2, 1, pixels, 0, 0, 0});
	int copies = _i ? BIG_MESH_REPEAT / 2 : 1, count = copies * 12;
	struct sg_vertex v[BIG_MESH_REPEAT * 6];
	const float corners[6][2] = {{0, 0}, {0, 8}, {8, 0}, {8, 0}, {0, 8}, {8, 8}};
	for (int i = 0; i < count; i++)
		v[i] = (struct sg_vertex){{corners[i % 6][0], corners[i % 6][1], 0},
		                          {i < count / 2 ? 0.25f : 0.75f, 0.5f}};
	sg_mesh mesh = sg_mesh_create(scene, &(struct sg_mesh_desc){.vertices = v,
	                                                            .vertex_count = (size_t)count});
	sg_node m = sg_node_new_model(scene, &(struct sg_model_desc){.mesh = mesh, .texture = two});
	sg_node_add_child(scene, sg_scene_root(scene), m);
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
		.width = 8, .height = 8, .target = SG_TARGET_SURFACELESS});
	ck_assert_int_eq(sg_renderer_render(renderer, scene, NULL), SG_OK);
	uint8_t out[8 * 8 * 4];
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, out, 0), SG_OK);
	for (int i = 0; i < 64; i++)
		ck_assert_msg(out[i * 4] == 0 && out[i * 4 + 1] == 255, "pixel %d is %d,%d,%d", i,
		              out[i * 4], out[i * 4 + 1], out[i * 4 + 2]);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
}
END_TEST

/* Two triangles of one mesh, tilted so that each spans view depths, seen in
 * perspective: the earlier one (A) red, the later one (B) green; a
 * translucent quad elsewhere (off screen) makes the opaque pass take the
 * depth test. Painter's order within the one draw: green wherever B covers,
 * whichever is nearer the eye. */
#define TILTED_SIZE 128
static const float tilted[2][3][3] = {
    {{-3.0f, -3.0f, 2.0f}, {3.0f, -2.0f, -3.0f}, {0.0f, 3.0f, 0.0f}}, /* A */
    {{-2.0f, 2.0f, -3.0f}, {3.0f, 3.0f, 1.5f}, {1.0f, -3.0f, -1.0f}}, /* B */
};

/* Camera e of 25: eyes on a 5 x 5 grid 7 units in front of the triangles.
 * Before the fix, 13 of them showed A over B (from 3 to 1996 pixels). */
#define TILTED_EYES 25
static void tilted_camera(struct sg_camera *camera, int e)
{
	sg_camera_init_perspective(camera, 0.9f, 1.0f, 1.0f, 100.0f);
	sg_camera_look_at(camera, (float[]){(float)(e % 5) - 2.0f, (float)(e / 5) - 2.0f, 7.0f},
	                  (float[]){0, 0, 0}, (float[]){0, 1, 0});
}

/* Where the camera puts p on the output, in pixels from the top-left corner,
 * computed here from its matrices (column-major), not by libsg. */
static void tilted_project(const struct sg_camera *camera, const float p[3], float out[2])
{
	float eye[4], clip[4];
	for (int r = 0; r < 4; r++)
		eye[r] = camera->view[r] * p[0] + camera->view[4 + r] * p[1] +
		         camera->view[8 + r] * p[2] + camera->view[12 + r];
	for (int r = 0; r < 4; r++)
		clip[r] = camera->projection[r] * eye[0] + camera->projection[4 + r] * eye[1] +
		          camera->projection[8 + r] * eye[2] + camera->projection[12 + r] * eye[3];
	out[0] = (clip[0] / clip[3] + 1.0f) / 2.0f * TILTED_SIZE;
	out[1] = (1.0f - clip[1] / clip[3]) / 2.0f * TILTED_SIZE;
}

/* Whether (x, y) lies inside triangle t at least margin pixels from each edge. */
static bool tilted_inside(const float t[3][2], float x, float y, float margin)
{
	float area =
	    (t[1][0] - t[0][0]) * (t[2][1] - t[0][1]) - (t[1][1] - t[0][1]) * (t[2][0] - t[0][0]);
	for (int e = 0; e < 3; e++) {
		const float *a = t[e], *b = t[(e + 1) % 3];
		float length = hypotf(b[0] - a[0], b[1] - a[1]);
		float side = ((b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0])) / length;
		if ((area > 0 ? side : -side) < margin)
			return false;
	}
	return true;
}

static void tilted_render(struct sg_renderer *renderer, struct sg_scene *scene, int e,
                          uint8_t *pixels)
{
	struct sg_camera camera;
	tilted_camera(&camera, e);
	ck_assert_msg(sg_renderer_render(renderer, scene, &camera) == SG_OK, "%s", sg_last_error());
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, pixels, 0), SG_OK);
}

START_TEST(test_later_triangles_win_in_perspective)
{
	struct sg_scene *scene = sg_scene_create();
	unsigned char red_green[2 * 4] = {255, 0, 0, 255, 0, 255, 0, 255};
	sg_texture two =
	    sg_texture_create(scene, &(struct sg_texture_desc){2, 1, red_green, 0, 0, 0});
	/* _i == 1: the pair 12 times over (72 vertices), drawn instanced; _i == 2:
	 * streamed a chunk of 8 vertices at a time */
	int copies = _i == 1 ? BIG_MESH_REPEAT / 2 : 1, count = copies * 6;
	struct sg_vertex v[BIG_MESH_REPEAT * 6];
	for (int i = 0; i < count; i++) {
		const float *p = tilted[i % 6 / 3][i % 3];
		v[i] = (struct sg_vertex){{p[0], p[1], p[2]}, {i % 6 < 3 ? 0.25f : 0.75f, 0.5f}};
	}
	sg_mesh mesh = sg_mesh_create(
	    scene, &(struct sg_mesh_desc){.vertices = v, .vertex_count = (size_t)count});
	sg_node root = sg_scene_root(scene);
	sg_node_add_child(
	    scene, root,
	    sg_node_new_model(scene, &(struct sg_model_desc){.mesh = mesh, .texture = two}));
	unsigned char half[4] = {255, 255, 255, 128};
	sg_texture translucent =
	    sg_texture_create(scene, &(struct sg_texture_desc){1, 1, half, 0, 0, 0});
	sg_node quad = sg_node_new_model(
	    scene, &(struct sg_model_desc){.mesh = sg_mesh_create_quad(scene, 1, 1),
	                                   .texture = translucent,
	                                   .position = {500, 500, 0}});
	sg_node_add_child(scene, root, quad);
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
	    .width = TILTED_SIZE, .height = TILTED_SIZE, .target = SG_TARGET_SURFACELESS});
	ck_assert_msg(renderer, "%s", sg_last_error());
	ck_assert_int_eq(sg_renderer_set_damage_tracking(renderer, false), SG_OK);
	if (_i == 2)
		sg_renderer_stream_for_testing(renderer, 1, 8);

	static uint8_t pixels[TILTED_SIZE * TILTED_SIZE * 4], other[TILTED_SIZE * TILTED_SIZE * 4];
	for (int e = 0; e < TILTED_EYES; e++) {
		struct sg_camera camera;
		tilted_camera(&camera, e);
		float t[2][3][2];
		for (int k = 0; k < 2; k++)
			for (int j = 0; j < 3; j++)
				tilted_project(&camera, tilted[k][j], t[k][j]);
		ck_assert_int_eq(sg_node_set_visible(scene, quad, true), SG_OK);
		ck_assert_int_eq(sg_renderer_set_culling(renderer, false), SG_OK);
		tilted_render(renderer, scene, e, pixels);
		ck_assert(sg_renderer_depth_tested_for_testing(renderer));
		int overlap = 0, a_only = 0, wrong = 0;
		for (int y = 0; y < TILTED_SIZE; y++)
			for (int x = 0; x < TILTED_SIZE; x++) {
				float cx = (float)x + 0.5f, cy = (float)y + 0.5f;
				bool in_a = tilted_inside(t[0], cx, cy, 2.0f);
				bool in_b = tilted_inside(t[1], cx, cy, 2.0f);
				bool near_b = tilted_inside(t[1], cx, cy, -2.0f);
				const uint8_t *p = pixels + (y * TILTED_SIZE + x) * 4;
				if (in_b) { /* green, over A where both are */
					overlap += in_a;
					wrong +=
					    !(p[0] == 0 && p[1] == 255 && p[2] == 0 && p[3] == 255);
				} else if (in_a && !near_b) { /* red */
					a_only++;
					wrong +=
					    !(p[0] == 255 && p[1] == 0 && p[2] == 0 && p[3] == 255);
				}
			}
		ck_assert_int_gt(overlap, 500);
		ck_assert_int_gt(a_only, 500);
		ck_assert_msg(wrong == 0,
		              "camera %d: %d pixels show the wrong triangle (%d overlap)", e, wrong,
		              overlap);
		/* The same picture without the translucent model, with culling (which
		 * drops it, off screen), and with both: each takes another path. */
		for (int variant = 0; variant < 3; variant++) {
			ck_assert_int_eq(sg_node_set_visible(scene, quad, variant == 1), SG_OK);
			ck_assert_int_eq(sg_renderer_set_culling(renderer, variant >= 1), SG_OK);
			tilted_render(renderer, scene, e, other);
			ck_assert_msg(
			    memcmp(pixels, other, sizeof(other)) == 0,
			    "camera %d, translucent model %s, culling %s: another picture", e,
			    variant == 1 ? "shown" : "hidden", variant >= 1 ? "on" : "off");
		}
	}
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
}
END_TEST

/* The tilted triangles under the pixel camera, through a transform node:
 * flattened and scaled 12 times about (64, 64) (affine: every vertex's w is
 * 1), or with w = 1 + 0.02 x as well (a projective world matrix). The
 * translucent quad off screen makes the opaque pass take the depth test.
 * Both show B over A: the projective one only by the depth each fragment
 * writes (the rasteriser's rounds differently across the triangle where w
 * varies). _i: expanded, instanced, streamed. */
START_TEST(test_projective_world_matrix_keeps_order)
{
	struct sg_scene *scene = sg_scene_create();
	unsigned char red_green[2 * 4] = {255, 0, 0, 255, 0, 255, 0, 255};
	sg_texture two =
	    sg_texture_create(scene, &(struct sg_texture_desc){2, 1, red_green, 0, 0, 0});
	int copies = _i == 1 ? BIG_MESH_REPEAT / 2 : 1, count = copies * 6;
	struct sg_vertex v[BIG_MESH_REPEAT * 6];
	for (int i = 0; i < count; i++) {
		const float *p = tilted[i % 6 / 3][i % 3];
		v[i] = (struct sg_vertex){{p[0], p[1], p[2]}, {i % 6 < 3 ? 0.25f : 0.75f, 0.5f}};
	}
	sg_mesh mesh = sg_mesh_create(
	    scene, &(struct sg_mesh_desc){.vertices = v, .vertex_count = (size_t)count});
	sg_node root = sg_scene_root(scene);
	sg_node transform = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
	ck_assert_msg(transform.generation, "%s", sg_last_error());
	sg_node_add_child(scene, root, transform);
	sg_node_add_child(
	    scene, transform,
	    sg_node_new_model(scene, &(struct sg_model_desc){.mesh = mesh, .texture = two}));
	unsigned char half[4] = {255, 255, 255, 128};
	sg_texture translucent =
	    sg_texture_create(scene, &(struct sg_texture_desc){1, 1, half, 0, 0, 0});
	sg_node_add_child(scene, root,
	                  sg_node_new_model(scene, &(struct sg_model_desc){
	                                               .mesh = sg_mesh_create_quad(scene, 1, 1),
	                                               .texture = translucent,
	                                               .position = {500, 500, 0}}));
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
	    .width = TILTED_SIZE, .height = TILTED_SIZE, .target = SG_TARGET_SURFACELESS});
	ck_assert_msg(renderer, "%s", sg_last_error());
	ck_assert_int_eq(sg_renderer_set_damage_tracking(renderer, false), SG_OK);
	ck_assert_int_eq(sg_renderer_set_culling(renderer, false), SG_OK);
	if (_i == 2)
		sg_renderer_stream_for_testing(renderer, 1, 8);
	static uint8_t pixels[TILTED_SIZE * TILTED_SIZE * 4];
	for (int projective = 0; projective < 2; projective++) {
		float wx = projective ? 0.02f : 0.0f;
		const float matrix[16] = {12, 0, 0, wx, 0, 12, 0, 0, 0, 0, 0, 0, 64, 64, 0, 1};
		ck_assert_int_eq(sg_transform_set_matrix(scene, transform, matrix), SG_OK);
		ck_assert_msg(sg_renderer_render(renderer, scene, NULL) == SG_OK, "%s",
		              sg_last_error());
		ck_assert(sg_renderer_depth_tested_for_testing(renderer));
		ck_assert_int_eq(sg_renderer_read_pixels(renderer, pixels, 0), SG_OK);
		float t[2][3][2]; /* the corners on the output, from the matrix above */
		for (int k = 0; k < 2; k++)
			for (int j = 0; j < 3; j++) {
				const float *p = tilted[k][j];
				float w = 1.0f + wx * p[0];
				t[k][j][0] = (12.0f * p[0] + 64.0f) / w;
				t[k][j][1] = (12.0f * p[1] + 64.0f) / w;
			}
		int b_pixels = 0, a_pixels = 0, wrong = 0;
		for (int y = 0; y < TILTED_SIZE; y++)
			for (int x = 0; x < TILTED_SIZE; x++) {
				float cx = (float)x + 0.5f, cy = (float)y + 0.5f;
				const uint8_t *p = pixels + (y * TILTED_SIZE + x) * 4;
				if (tilted_inside(t[1], cx, cy, 1.0f)) {
					b_pixels++;
					wrong += !(p[0] == 0 && p[1] == 255 && p[2] == 0 && p[3] == 255);
				} else if (tilted_inside(t[0], cx, cy, 1.0f) &&
				           !tilted_inside(t[1], cx, cy, -1.0f)) {
					a_pixels++;
					wrong += !(p[0] == 255 && p[1] == 0 && p[2] == 0 && p[3] == 255);
				}
			}
		ck_assert_int_gt(b_pixels, 500);
		ck_assert_int_gt(a_pixels, 500);
		ck_assert_msg(wrong == 0, "%s: %d pixels show the wrong triangle",
		              projective ? "projective" : "affine", wrong);
	}
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
}
END_TEST

/* A w x h quad from the top-left origin: 2 triangles, or (big) the same
 * square covered by 12 copies of them, over the expand limit. */
static sg_mesh test_quad(struct sg_scene *scene, float w, float h, bool big)
{
	if (!big)
		return sg_mesh_create_quad(scene, w, h);
	const struct sg_vertex corners[6] = {{{0, 0, 0}, {0, 0}}, {{0, h, 0}, {0, 1}}, {{w, 0, 0}, {1, 0}},
	                                     {{w, 0, 0}, {1, 0}}, {{0, h, 0}, {0, 1}}, {{w, h, 0}, {1, 1}}};
	struct sg_vertex v[BIG_MESH_REPEAT * 6];
	for (int i = 0; i < BIG_MESH_REPEAT * 6; i++)
		v[i] = corners[i % 6];
	return sg_mesh_create(scene, &(struct sg_mesh_desc){.vertices = v,
	                                                    .vertex_count = BIG_MESH_REPEAT * 6});
}

START_TEST(test_painter_order_survives_batching)
{
	/* Textures made in reverse (blue first): sorting batches by texture now
	 * draws Rectangle 3 first, and only the per-draw depth keeps it on top. */
	struct sg_scene *scene = sg_scene_create();
	unsigned char pixels[3][64 * 64 * 4];
	three_rects_checkerboard(pixels[0], 0, 0, 255);
	three_rects_checkerboard(pixels[1], 0, 255, 0);
	three_rects_checkerboard(pixels[2], 255, 0, 0);
	sg_texture textures[3];
	for (int i = 0; i < 3; i++)
		textures[i] = sg_texture_create(scene, &(struct sg_texture_desc){64, 64, pixels[i], 0, 0, 0});
	sg_mesh quad = test_quad(scene, 100, 100, _i == 1);
	sg_node t = sg_node_new_transform(scene, &(struct sg_transform_desc){.name = "Transform"});
	sg_transform_scale(scene, t, 0.5f, 0.5f, 1);
	sg_node root = sg_scene_root(scene);
	sg_node_add_child(scene, root, sg_node_new_model(scene, &(struct sg_model_desc){
		.mesh = quad, .texture = textures[2]}));
	sg_node_add_child(scene, root, t);
	sg_node_add_child(scene, t, sg_node_new_model(scene, &(struct sg_model_desc){
		.mesh = quad, .texture = textures[1], .position = {10, 10, 0}}));
	sg_node_add_child(scene, t, sg_node_new_model(scene, &(struct sg_model_desc){
		.mesh = quad, .texture = textures[0], .position = {15, 15, 0}}));
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
		.width = 256, .height = 256, .target = SG_TARGET_SURFACELESS});
	ck_assert_int_eq(sg_renderer_render(renderer, scene, NULL), SG_OK);
	struct sg_render_stats stats;
	ck_assert_int_eq(sg_renderer_get_stats(renderer, &stats), SG_OK);
	ck_assert_uint_eq(stats.draws, 3);
	ck_assert_uint_eq(stats.batches, 3);
	uint8_t *rgba = malloc(256 * 256 * 4);
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, rgba, 0), SG_OK);
	int compared;
	int bad = golden_mismatches(rgba, 256, &compared);
	ck_assert_msg(bad == 0, "%d pixels differ: batching broke the draw order", bad);
	free(rgba);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
}
END_TEST

/* A grid of 64 x 64 small quads over 8 textures, interleaved. */
static struct sg_scene *grid_scene(void)
{
	struct sg_scene *scene = sg_scene_create();
	sg_mesh quad = sg_mesh_create_quad(scene, 3, 3);
	sg_texture textures[8];
	for (int i = 0; i < 8; i++) {
		unsigned char px[4] = {(unsigned char)(i * 30), (unsigned char)(255 - i * 30), 90, 255};
		textures[i] = sg_texture_create(scene, &(struct sg_texture_desc){1, 1, px, 0, 0, 0});
	}
	sg_node root = sg_scene_root(scene);
	for (int row = 0; row < 8; row++) {
		sg_node band = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
		sg_transform_translate(scene, band, 0, (float)row * 32, 0);
		sg_node_add_child(scene, root, band);
		for (int i = 0; i < 8 * 64; i++) {
			sg_node m = sg_node_new_model(scene, &(struct sg_model_desc){
				.mesh = quad, .texture = textures[i % 8],
				.position = {(float)(i % 64) * 4, (float)(i / 64) * 4, 0}});
			sg_node_add_child(scene, band, m);
		}
	}
	return scene;
}

/* A visibility toggle that leaves most of the scene drawn keeps the expanded
 * vertex buffer (made for the list of all models) and rebuilds only the
 * indices; the pictures stay those of the same scene rendered afresh. */
START_TEST(test_toggle_keeps_the_vertex_buffer)
{
	struct sg_scene *scene = grid_scene(), *fresh_scene = grid_scene();
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
		.width = 256, .height = 256, .target = SG_TARGET_SURFACELESS});
	/* Whole repaints: a damage repaint expands its few draws alone (test_damage.c). */
	ck_assert_int_eq(sg_renderer_set_damage_tracking(renderer, false), SG_OK);
	uint8_t *pixels = malloc(256 * 256 * 4), *expected = malloc(256 * 256 * 4);
	ck_assert_int_eq(sg_renderer_render(renderer, scene, NULL), SG_OK);
	uint64_t builds = sg_renderer_vertex_builds_for_testing(renderer);
	sg_node root = sg_scene_root(scene), band = sg_node_first_child(scene, root);
	sg_node leaf = sg_node_first_child(scene, sg_node_next_sibling(scene, band));
	sg_node fresh_band = sg_node_first_child(fresh_scene, sg_scene_root(fresh_scene));
	sg_node fresh_leaf = sg_node_first_child(fresh_scene, sg_node_next_sibling(fresh_scene, fresh_band));
	for (int round = 0; round < 3; round++) {
		bool hide = round != 1;
		ck_assert_int_eq(sg_node_set_visible(scene, band, !hide), SG_OK);
		ck_assert_int_eq(sg_node_set_visible(scene, leaf, !hide), SG_OK);
		ck_assert_int_eq(sg_renderer_render(renderer, scene, NULL), SG_OK);
		ck_assert_uint_eq(sg_renderer_vertex_builds_for_testing(renderer), builds);
		ck_assert_int_eq(sg_renderer_read_pixels(renderer, pixels, 0), SG_OK);
		/* the same picture from a renderer that never saw the other frames */
		ck_assert_int_eq(sg_node_set_visible(fresh_scene, fresh_band, !hide), SG_OK);
		ck_assert_int_eq(sg_node_set_visible(fresh_scene, fresh_leaf, !hide), SG_OK);
		struct sg_renderer *fresh = sg_renderer_create(&(struct sg_renderer_desc){
			.width = 256, .height = 256, .target = SG_TARGET_SURFACELESS});
		ck_assert_int_eq(sg_renderer_render(fresh, fresh_scene, NULL), SG_OK);
		ck_assert_int_eq(sg_renderer_read_pixels(fresh, expected, 0), SG_OK);
		sg_renderer_destroy(fresh);
		ck_assert_msg(memcmp(pixels, expected, 256 * 256 * 4) == 0, "round %d differs", round);
	}
	/* a moved transform transforms the vertices again */
	ck_assert_int_eq(sg_transform_translate(scene, sg_node_next_sibling(scene, band), 1, 0, 0), SG_OK);
	ck_assert_int_eq(sg_renderer_render(renderer, scene, NULL), SG_OK);
	ck_assert_uint_eq(sg_renderer_vertex_builds_for_testing(renderer), builds + 1);
	/* most of the scene hidden: the drawn models alone are expanded */
	for (sg_node b = sg_node_first_child(scene, root); b.generation; b = sg_node_next_sibling(scene, b))
		if (b.index != band.index)
			ck_assert_int_eq(sg_node_set_visible(scene, b, false), SG_OK);
	ck_assert_int_eq(sg_node_set_visible(scene, band, true), SG_OK);
	ck_assert_int_eq(sg_renderer_render(renderer, scene, NULL), SG_OK);
	ck_assert_uint_eq(sg_renderer_vertex_builds_for_testing(renderer), builds + 2);
	free(pixels);
	free(expected);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
	sg_scene_destroy(fresh_scene);
}
END_TEST

/* With culling on, a frame whose culled list is the last one's keeps every
 * cache keyed on the list (it used to get a new serial each frame). */
START_TEST(test_culled_static_frames_keep_the_vertex_buffer)
{
	struct sg_scene *scene = grid_scene();
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
		.width = 256, .height = 256, .target = SG_TARGET_SURFACELESS});
	ck_assert_int_eq(sg_renderer_set_culling(renderer, true), SG_OK);
	struct sg_camera camera;
	sg_camera_init_ortho(&camera, 0, 128, 128, 0, -1, 1); /* a corner of the grid */
	ck_assert_int_eq(sg_renderer_render(renderer, scene, &camera), SG_OK);
	uint64_t builds = sg_renderer_vertex_builds_for_testing(renderer);
	ck_assert_int_eq(sg_renderer_render(renderer, scene, &camera), SG_OK);
	ck_assert_int_eq(sg_renderer_render(renderer, scene, &camera), SG_OK);
	ck_assert_uint_eq(sg_renderer_vertex_builds_for_testing(renderer), builds);
	/* another view culls other models: built again, and then kept */
	sg_camera_init_ortho(&camera, 128, 256, 256, 128, -1, 1);
	ck_assert_int_eq(sg_renderer_render(renderer, scene, &camera), SG_OK);
	ck_assert_uint_eq(sg_renderer_vertex_builds_for_testing(renderer), builds + 1);
	ck_assert_int_eq(sg_renderer_render(renderer, scene, &camera), SG_OK);
	ck_assert_uint_eq(sg_renderer_vertex_builds_for_testing(renderer), builds + 1);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_culling_skips_subtrees_and_keeps_pixels)
{
	struct sg_scene *scene = grid_scene();
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
		.width = 64, .height = 64, .target = SG_TARGET_SURFACELESS});
	struct sg_camera corner;
	/* the top-left 62 x 62 of a 256 x 256 grid (62: clear of band 2, which starts at y = 64) */
	sg_camera_init_pixels(&corner, 62, 62);
	uint8_t plain[64 * 64 * 4], culled[64 * 64 * 4];
	struct sg_render_stats stats;
	ck_assert_int_eq(sg_renderer_render(renderer, scene, &corner), SG_OK);
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, plain, 0), SG_OK);
	ck_assert_int_eq(sg_renderer_get_stats(renderer, &stats), SG_OK);
	ck_assert_uint_eq(stats.draws, 4096);
	ck_assert_uint_eq(stats.batches, 8);
	/* the first render computes every world matrix: timed, and a part of traverse_ns */
	ck_assert_uint_gt(stats.world_updates, 0);
	ck_assert_uint_gt(stats.world_ns, 0);
	ck_assert_uint_le(stats.world_ns, stats.traverse_ns);
	ck_assert_int_eq(sg_renderer_set_culling(renderer, true), SG_OK);
	ck_assert_int_eq(sg_renderer_render(renderer, scene, &corner), SG_OK);
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, culled, 0), SG_OK);
	ck_assert_int_eq(sg_renderer_get_stats(renderer, &stats), SG_OK);
	ck_assert_mem_eq(plain, culled, sizeof(plain));
	/* Bands 0 and 1 (y 0..63) reach the view; the other six are skipped whole:
	 * the root, two bands and their 1024 models are visited. Of those models,
	 * the ones with x < 62 are drawn. */
	ck_assert_uint_eq(stats.nodes_visited, 1 + 2 + 2 * 512);
	ck_assert_uint_lt(stats.draws, 600);
	ck_assert_uint_gt(stats.draws, 0);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
}
END_TEST

/* One full run: build, create, render, read back, write. SG_OK or the first error. */
static sg_result full_run(const char *path, uint8_t *pixels)
{
	sg_result result = SG_ERR_NO_MEMORY;
	struct sg_scene *scene = three_rects_build();
	struct sg_renderer *renderer = scene ? sg_renderer_create(&(struct sg_renderer_desc){
		.width = 64, .height = 64, .target = SG_TARGET_SURFACELESS}) : NULL;
	if (renderer && !(result = sg_renderer_render(renderer, scene, NULL)) &&
	    !(result = sg_renderer_read_pixels(renderer, pixels, 0)))
		result = sg_renderer_write_png(renderer, path);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
	return result;
}

START_TEST(test_allocation_failure_at_every_k)
{
	/* The k-th allocation of libsg and all after it fail, for every k in turn:
	 * each run must fail with a message, leave no file, and (under valgrind or
	 * ASan, see scripts/test.sh) leak nothing. */
	char path[] = "/tmp/sg-oom-XXXXXX.png";
	int fd = mkstemps(path, 4);
	close(fd);
	unlink(path);
	uint8_t *pixels = malloc(64 * 64 * 4);
	long k;
	for (k = 1; k < 1000; k++) {
		sg_alloc_fail_at(k);
		sg_result result = full_run(path, pixels);
		long made = sg_alloc_fail_at(0);
		if (result == SG_OK) {
			ck_assert_msg(made < k, "allocation %ld failed but the run succeeded", k);
			break; /* k is past the run's last allocation */
		}
		ck_assert_msg(sg_last_error()[0] != '\0', "k=%ld: %s without a message", k,
		              sg_result_name(result));
		ck_assert_msg(access(path, F_OK) != 0, "k=%ld: a file was left behind", k);
	}
	ck_assert_int_gt(k, 10); /* the run does allocate: the loop tested something */
	ck_assert_int_lt(k, 1000);
	unlink(path);
	/* and after all that, a normal run works */
	ck_assert_int_eq(full_run(path, pixels), SG_OK);
	free(pixels);
	unlink(path);
}
END_TEST

START_TEST(test_full_disk_keeps_the_old_file)
{
	/* A 16 KiB tmpfs: an incompressible 512 x 512 image cannot fit. Needs root. */
	if (geteuid() != 0) {
		printf("test_full_disk_keeps_the_old_file: skipped, needs root to mount a tmpfs\n");
		return;
	}
	char dir[] = "/tmp/sg-full-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char command[160];
	snprintf(command, sizeof(command), "mount -t tmpfs -o size=16k sg-full %s", dir);
	if (system(command) != 0) {
		printf("test_full_disk_keeps_the_old_file: skipped, mount -t tmpfs failed\n");
		rmdir(dir);
		return;
	}
	char path[64];
	snprintf(path, sizeof(path), "%s/out.png", dir);
	uint8_t small[4] = {1, 2, 3, 255};
	ck_assert_int_eq(sg_image_write_png(path, 1, 1, small, 0), SG_OK);
	struct stat before;
	ck_assert_int_eq(stat(path, &before), 0);
	uint8_t *noise = malloc(512 * 512 * 4);
	uint32_t x = 2463534242u;
	for (int i = 0; i < 512 * 512 * 4; i++) {
		x ^= x << 13, x ^= x >> 17, x ^= x << 5; /* xorshift: incompressible */
		noise[i] = (uint8_t)x;
	}
	ck_assert_int_eq(sg_image_write_png(path, 512, 512, noise, 0), SG_ERR_IO);
	ck_assert_msg(strstr(sg_last_error(), path) && strstr(sg_last_error(), "No space left"),
	              "%s", sg_last_error());
	struct stat after;
	ck_assert_int_eq(stat(path, &after), 0);
	ck_assert_int_eq(after.st_size, before.st_size); /* the old file, intact */
	snprintf(command, sizeof(command), "test $(ls -A %s | wc -l) -eq 1", dir);
	ck_assert_int_eq(system(command), 0); /* and no temporary file left */
	free(noise);
	snprintf(command, sizeof(command), "umount %s", dir);
	ck_assert_int_eq(system(command), 0);
	rmdir(dir);
}
END_TEST

static struct sg_scene *scene_of_textures(int count, int side)
{
	struct sg_scene *scene = sg_scene_create();
	sg_mesh quad = sg_mesh_create_quad(scene, 8, 8);
	uint8_t *pixels = calloc((size_t)side * side, 4);
	for (int i = 0; i < count; i++) {
		sg_texture texture = sg_texture_create(
			scene, &(struct sg_texture_desc){.width = side, .height = side, .pixels = pixels});
		sg_node model = sg_node_new_model(
			scene, &(struct sg_model_desc){.mesh = quad, .texture = texture, .position = {i, 0, 0}});
		ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), model), SG_OK);
	}
	free(pixels);
	return scene;
}

/* Issue 9: the GL copies of a destroyed scene's textures stayed in the renderer
 * for good (+340 MiB after 128 512^2 textures); the next render frees them. */
START_TEST(test_destroyed_scene_gl_copies_are_freed)
{
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
		.width = 32, .height = 32, .target = SG_TARGET_SURFACELESS});
	ck_assert_ptr_nonnull(renderer);
	struct sg_scene *big = scene_of_textures(6, 64), *small = scene_of_textures(1, 16);
	ck_assert_int_eq(sg_renderer_render(renderer, big, NULL), SG_OK);
	size_t live, bytes;
	sg_renderer_texture_totals_for_testing(renderer, &live, &bytes);
	ck_assert_uint_eq(live, 6);
	ck_assert_uint_eq(bytes, 6 * 64 * 64 * 4);
	/* a scene still alive keeps its copies while another one is rendered */
	ck_assert_int_eq(sg_renderer_render(renderer, small, NULL), SG_OK);
	sg_renderer_texture_totals_for_testing(renderer, &live, &bytes);
	ck_assert_uint_eq(live, 6); /* small's texture took slot 0 from big */
	ck_assert_int_eq(sg_renderer_render(renderer, big, NULL), SG_OK);
	sg_scene_destroy(big);
	ck_assert_int_eq(sg_renderer_render(renderer, small, NULL), SG_OK);
	sg_renderer_texture_totals_for_testing(renderer, &live, &bytes);
	ck_assert_uint_eq(live, 1);
	ck_assert_uint_eq(bytes, 16 * 16 * 4);
	sg_scene_destroy(small);
	sg_renderer_destroy(renderer);
}
END_TEST

/* Issue 9: the message named sg_renderer_read_pixels, which the user never called. */
START_TEST(test_write_png_before_render_names_write_png)
{
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
		.width = 8, .height = 8, .target = SG_TARGET_SURFACELESS});
	ck_assert_ptr_nonnull(renderer);
	char path[] = "/tmp/sg-test-never-written-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	unlink(path);
	ck_assert_int_eq(sg_renderer_write_png(renderer, path), SG_ERR_INVALID_ARGUMENT);
	ck_assert_str_eq(sg_last_error(), "sg_renderer_write_png: nothing rendered yet");
	ck_assert_int_ne(access(path, F_OK), 0); /* nothing written */
	uint8_t pixels[8 * 8 * 4];
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, pixels, 0), SG_ERR_INVALID_ARGUMENT);
	ck_assert_str_eq(sg_last_error(), "sg_renderer_read_pixels: nothing rendered yet");
	sg_renderer_destroy(renderer);
}
END_TEST

/* R1 under R2 and R3 (in a transform at half scale), one texture each; big
 * meshes take the instanced path, small ones the expanded one. */
static struct sg_scene *overlap_scene(bool big, sg_node *transform, sg_node *r2)
{
	struct sg_scene *scene = sg_scene_create();
	unsigned char pixels[3][64 * 64 * 4];
	three_rects_checkerboard(pixels[0], 255, 0, 0);
	three_rects_checkerboard(pixels[1], 0, 255, 0);
	three_rects_checkerboard(pixels[2], 0, 0, 255);
	sg_texture textures[3];
	for (int i = 0; i < 3; i++)
		textures[i] = sg_texture_create(scene, &(struct sg_texture_desc){64, 64, pixels[i], 0, 0, 0});
	sg_mesh quad = test_quad(scene, 100, 100, big);
	sg_node root = sg_scene_root(scene);
	*transform = sg_node_new_transform(scene, &(struct sg_transform_desc){.name = "Transform"});
	sg_transform_scale(scene, *transform, 0.5f, 0.5f, 1);
	sg_node_add_child(scene, root, sg_node_new_model(scene, &(struct sg_model_desc){
		.mesh = quad, .texture = textures[0], .position = {20, 20, 0}}));
	sg_node_add_child(scene, root, *transform);
	*r2 = sg_node_new_model(scene, &(struct sg_model_desc){
		.mesh = quad, .texture = textures[1], .position = {10, 10, 0}});
	sg_node_add_child(scene, *transform, *r2);
	sg_node_add_child(scene, *transform, sg_node_new_model(scene, &(struct sg_model_desc){
		.mesh = quad, .texture = textures[2], .position = {150, 150, 0}}));
	return scene;
}

#define VIS_SIDE 160

/* Renders scene and reads every pixel back; returns the draws of the frame. */
static size_t render_into(struct sg_renderer *renderer, struct sg_scene *scene, uint8_t *pixels)
{
	struct sg_camera camera;
	sg_camera_init_pixels(&camera, VIS_SIDE, VIS_SIDE);
	ck_assert_msg(sg_renderer_render(renderer, scene, &camera) == SG_OK, "%s", sg_last_error());
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, pixels, 0), SG_OK);
	struct sg_render_stats stats;
	ck_assert_int_eq(sg_renderer_get_stats(renderer, &stats), SG_OK);
	return stats.draws;
}

/* A solid 2 x 2 texture. */
static sg_texture solid_texture(struct sg_scene *scene, uint8_t r, uint8_t g, uint8_t b)
{
	uint8_t texels[2 * 2 * 4];
	for (int i = 0; i < 4; i++)
		memcpy(texels + i * 4, (uint8_t[4]){r, g, b, 255}, 4);
	return sg_texture_create(scene, &(struct sg_texture_desc){2, 2, texels, 0, 0, 0});
}

/* Solid red, green and blue textures, in that order (so sorted). */
static void rgb_textures(struct sg_scene *scene, sg_texture rgb[3])
{
	for (int c = 0; c < 3; c++)
		rgb[c] = solid_texture(scene, c == 0 ? 255 : 0, c == 1 ? 255 : 0, c == 2 ? 255 : 0);
}

/* A transform at (x, y) under root with a w x h model of texture under it. */
static sg_node placed_quad(struct sg_scene *scene, sg_mesh mesh, sg_texture texture, float x,
                           float y)
{
	sg_node t = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
	sg_transform_translate(scene, t, x, y, 0);
	sg_node_add_child(scene, sg_scene_root(scene), t);
	sg_node_add_child(scene, t, sg_node_new_model(scene, &(struct sg_model_desc){
		.mesh = mesh, .texture = texture}));
	return t;
}

static void assert_rgb(const uint8_t *pixels, int x, int y, int r, int g, int b)
{
	const uint8_t *p = pixels + ((size_t)y * VIS_SIDE + (size_t)x) * 4;
	ck_assert_msg(p[0] == r && p[1] == g && p[2] == b, "(%d, %d) is %u,%u,%u, not %d,%d,%d", x, y,
	              p[0], p[1], p[2], r, g, b);
}

/* Two VIS_SIDE renderers: one deciding whether frames need depths, one
 * always drawing with them; damage tracking as asked. */
static void depth_renderers(struct sg_renderer **deciding, struct sg_renderer **forced,
                            bool damage_tracking)
{
	struct sg_renderer **both[2] = {deciding, forced};
	for (int i = 0; i < 2; i++) {
		*both[i] = sg_renderer_create(&(struct sg_renderer_desc){
			.width = VIS_SIDE, .height = VIS_SIDE, .target = SG_TARGET_SURFACELESS});
		ck_assert_ptr_nonnull(*both[i]);
		ck_assert_int_eq(sg_renderer_set_damage_tracking(*both[i], damage_tracking), SG_OK);
	}
	sg_renderer_force_depth_for_testing(*forced);
}

/* Renders scene with and without the depth decision: the same bytes, and
 * whether the deciding renderer compared depths. */
static bool depth_tested(struct sg_renderer *deciding, struct sg_renderer *forced,
                         struct sg_scene *scene, uint8_t *pixels)
{
	static uint8_t with_depth[VIS_SIDE * VIS_SIDE * 4];
	render_into(forced, scene, with_depth);
	ck_assert(sg_renderer_depth_tested_for_testing(forced));
	render_into(deciding, scene, pixels);
	size_t n = VIS_SIDE * VIS_SIDE * 4, i = first_difference(pixels, with_depth, n);
	expect(i == n, "pixel (%zu, %zu) channel %zu: %u, %u with depths", i / 4 % VIS_SIDE,
	       i / 4 / VIS_SIDE, i % 4, pixels[i], with_depth[i]);
	return sg_renderer_depth_tested_for_testing(deciding);
}

/* Sorting by texture keeps painter's order without the depth test where no
 * draw moves past another it overlaps (a frame then clears no depth buffer):
 * disjoint quads whose textures sort against list order, and quads over a
 * background that sorts first. An overlap drawn out of order, a move that
 * makes one, and a translucent draw bring the test back; every frame has
 * the bytes of one drawn with depths. On both batching paths. */
START_TEST(test_depth_test_only_where_order_needs_it)
{
	static uint8_t pixels[VIS_SIDE * VIS_SIDE * 4];
	struct sg_renderer *deciding, *forced;
	depth_renderers(&deciding, &forced, true);

	enum { RED, GREEN, BLUE };
	struct sg_scene *scene = sg_scene_create();
	sg_texture rgb[3];
	rgb_textures(scene, rgb);
	sg_mesh quad = test_quad(scene, 30, 30, _i == 1);
	/* list order blue, green, red; sorted red, green, blue */
	sg_node moved = {0};
	for (int c = BLUE; c >= RED; c--)
		moved = placed_quad(scene, quad, rgb[c], 10.0f + 40.0f * (float)(BLUE - c), 10);
	ck_assert_msg(!depth_tested(deciding, forced, scene, pixels), "disjoint quads compared depths");
	for (int c = BLUE; c >= RED; c--)
		assert_rgb(pixels, 25 + 40 * (BLUE - c), 25, c == RED ? 255 : 0, c == GREEN ? 255 : 0,
		           c == BLUE ? 255 : 0);
	/* red over blue, drawn before it when sorted */
	ck_assert_int_eq(sg_transform_translate(scene, moved, -70, 10, 0), SG_OK);
	ck_assert_msg(depth_tested(deciding, forced, scene, pixels), "an overlap out of order was not tested");
	assert_rgb(pixels, 35, 35, 255, 0, 0);
	ck_assert_int_eq(sg_transform_translate(scene, moved, 70, 60, 0), SG_OK);
	ck_assert_msg(!depth_tested(deciding, forced, scene, pixels), "apart again, yet tested");
	sg_scene_destroy(scene);

	/* a red background first (red sorts first), blue and green on it */
	scene = sg_scene_create();
	rgb_textures(scene, rgb);
	placed_quad(scene, test_quad(scene, 140, 140, _i == 1), rgb[RED], 10, 10);
	quad = test_quad(scene, 30, 30, _i == 1);
	placed_quad(scene, quad, rgb[BLUE], 20, 20);
	sg_node over = placed_quad(scene, quad, rgb[GREEN], 60, 60);
	ck_assert_msg(!depth_tested(deciding, forced, scene, pixels), "quads over a background compared depths");
	assert_rgb(pixels, 25, 25, 0, 0, 255);
	assert_rgb(pixels, 75, 75, 0, 255, 0);
	assert_rgb(pixels, 100, 100, 255, 0, 0);
	sg_node model = sg_node_first_child(scene, over);
	ck_assert_int_eq(sg_model_set_color(scene, model, 1, 1, 1, 0.5f), SG_OK);
	ck_assert_msg(depth_tested(deciding, forced, scene, pixels), "a translucent draw was not tested");
	sg_scene_destroy(scene);

	/* models without a texture sort last: one drawn first under a textured
	 * one needs the test, one drawn last over it does not */
	for (int last = 0; last < 2; last++) {
		scene = sg_scene_create();
		sg_texture green = solid_texture(scene, 0, 255, 0);
		quad = test_quad(scene, 30, 30, _i == 1);
		sg_node plain = sg_node_new_model(scene, &(struct sg_model_desc){.mesh = quad});
		sg_model_set_color(scene, plain, 0, 0, 1, 1);
		sg_node t = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
		sg_transform_translate(scene, t, 20, 20, 0);
		sg_node_add_child(scene, t, plain);
		if (!last)
			sg_node_add_child(scene, sg_scene_root(scene), t);
		placed_quad(scene, quad, green, 35, 35);
		if (last)
			sg_node_add_child(scene, sg_scene_root(scene), t);
		ck_assert_msg(depth_tested(deciding, forced, scene, pixels) == !last,
		              "an untextured model %s a textured one: depths %s", last ? "over" : "under",
		              last ? "compared" : "not compared");
		assert_rgb(pixels, 40, 40, 0, last ? 0 : 255, last ? 255 : 0);
		sg_scene_destroy(scene);
	}
	sg_renderer_destroy(deciding);
	sg_renderer_destroy(forced);
}
END_TEST

/* A list longer than a draw per 256 output pixels is checked only once its
 * transforms have stayed for a frame: while they move every frame the check
 * would cost more than the clear it saves. 144 disjoint quads of four
 * interleaved textures under one moving transform, at 160 x 160 (100 draws
 * may be checked every frame), repainted whole each frame. */
START_TEST(test_long_lists_are_checked_once_still)
{
	static uint8_t pixels[VIS_SIDE * VIS_SIDE * 4];
	struct sg_renderer *deciding, *forced;
	depth_renderers(&deciding, &forced, false);
	struct sg_scene *scene = sg_scene_create();
	sg_texture textures[4] = {solid_texture(scene, 255, 0, 0), solid_texture(scene, 0, 255, 0),
	                          solid_texture(scene, 0, 0, 255), solid_texture(scene, 255, 255, 0)};
	sg_mesh quad = sg_mesh_create_quad(scene, 4, 4);
	sg_node top = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
	sg_node_add_child(scene, sg_scene_root(scene), top);
	for (int i = 0; i < 144; i++)
		sg_node_add_child(scene, top, sg_node_new_model(scene, &(struct sg_model_desc){
			.mesh = quad, .texture = textures[i % 4],
			.position = {(float)(i % 12) * 12 + 4, (float)(i / 12) * 12 + 4, 0}}));
	ck_assert_msg(depth_tested(deciding, forced, scene, pixels), "first frame: nothing stayed yet");
	ck_assert_msg(!depth_tested(deciding, forced, scene, pixels), "still: disjoint quads compared depths");
	for (int frame = 0; frame < 3; frame++) {
		ck_assert_int_eq(sg_transform_translate(scene, top, 1, 0, 0), SG_OK);
		ck_assert_msg(depth_tested(deciding, forced, scene, pixels), "moving, frame %d: checked", frame);
	}
	ck_assert_msg(!depth_tested(deciding, forced, scene, pixels), "still again: not checked");
	sg_scene_destroy(scene);
	sg_renderer_destroy(deciding);
	sg_renderer_destroy(forced);
}
END_TEST

/* A hidden subtree draws exactly what the scene draws with it detached, on
 * both batching paths, with and without culling, frame after frame (the GL
 * caches must follow every toggle). */
START_TEST(test_hidden_subtree_equals_detached)
{
	bool big = _i & 1, culling = _i & 2;
	sg_node t, r2, detached_t, detached_r2, unused;
	struct sg_scene *scene = overlap_scene(big, &t, &r2);
	struct sg_scene *without_t = overlap_scene(big, &detached_t, &unused);
	struct sg_scene *without_r2 = overlap_scene(big, &unused, &detached_r2);
	ck_assert_int_eq(sg_node_remove(without_t, detached_t), SG_OK);
	ck_assert_int_eq(sg_node_remove(without_r2, detached_r2), SG_OK);
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
		.width = VIS_SIDE, .height = VIS_SIDE, .target = SG_TARGET_SURFACELESS});
	ck_assert_msg(renderer, "%s", sg_last_error());
	ck_assert_int_eq(sg_renderer_set_culling(renderer, culling), SG_OK);
	struct sg_renderer *reference = sg_renderer_create(&(struct sg_renderer_desc){
		.width = VIS_SIDE, .height = VIS_SIDE, .target = SG_TARGET_SURFACELESS});
	static uint8_t full[VIS_SIDE * VIS_SIDE * 4], no_t[VIS_SIDE * VIS_SIDE * 4],
		no_r2[VIS_SIDE * VIS_SIDE * 4], got[VIS_SIDE * VIS_SIDE * 4];
	ck_assert_uint_eq(render_into(reference, without_t, no_t), 1);
	ck_assert_uint_eq(render_into(reference, without_r2, no_r2), 2);
	ck_assert_uint_eq(render_into(renderer, scene, full), 3);
	ck_assert(memcmp(full, no_t, sizeof(full)) != 0 && memcmp(full, no_r2, sizeof(full)) != 0);
	for (int round = 0; round < 2; round++) {
		ck_assert_int_eq(sg_node_set_visible(scene, t, false), SG_OK);
		ck_assert_uint_eq(render_into(renderer, scene, got), 1);
		ck_assert_mem_eq(got, no_t, sizeof(got));
		/* r2 hidden under the hidden t: still only r1; then t shown, r2 not */
		ck_assert_int_eq(sg_node_set_visible(scene, r2, false), SG_OK);
		ck_assert_uint_eq(render_into(renderer, scene, got), 1);
		ck_assert_mem_eq(got, no_t, sizeof(got));
		ck_assert_int_eq(sg_node_set_visible(scene, t, true), SG_OK);
		ck_assert_uint_eq(render_into(renderer, scene, got), 2);
		ck_assert_mem_eq(got, no_r2, sizeof(got));
		ck_assert_int_eq(sg_node_set_visible(scene, r2, true), SG_OK);
		ck_assert_uint_eq(render_into(renderer, scene, got), 3);
		ck_assert_mem_eq(got, full, sizeof(got));
	}
	sg_renderer_destroy(reference);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(without_r2);
	sg_scene_destroy(without_t);
	sg_scene_destroy(scene);
}
END_TEST

/* A node moved while hidden, then shown, draws where a scene built in that
 * state draws it; a hidden root draws nothing but the clear colour. */
/* Translucent draws of one texture may share a draw call only where that
 * changes no pixel (src/gl/blend_order.c). The same 300 overlapping quads,
 * translucent ones tinted and cycling over 3 textures of identical texels,
 * against each translucent quad on a texture of its own (no two may share a
 * call: strict traversal order): the pictures must be identical, on both
 * batching paths, and the first must take fewer draw calls. */
static uint32_t lcg(uint32_t *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return (*seed >> 16) & 0x7fff;
}

static struct sg_scene *overlapping_quads(bool unique_textures, bool big)
{
	enum { QUADS = 300, SIDE = 8 };
	struct sg_scene *scene = sg_scene_create();
	uint8_t texels[SIDE * SIDE * 4], opaque[SIDE * SIDE * 4];
	for (int i = 0; i < SIDE * SIDE; i++) {
		uint8_t t[4] = {(uint8_t)(i * 4), (uint8_t)(255 - i * 3), (uint8_t)(i * 7), (uint8_t)(i * 4 + 3)};
		memcpy(texels + i * 4, t, 4);
		uint8_t o[4] = {(uint8_t)(i * 3), 90, (uint8_t)(200 - i), 255};
		memcpy(opaque + i * 4, o, 4);
	}
	sg_texture shared[3], solid = sg_texture_create(scene, &(struct sg_texture_desc){SIDE, SIDE, opaque, 0, 0, 0});
	for (int i = 0; i < 3; i++)
		shared[i] = sg_texture_create(scene, &(struct sg_texture_desc){SIDE, SIDE, texels, 0, 0, 0});
	sg_mesh quad = test_quad(scene, 1, 1, big);
	uint32_t seed = 12345;
#define NEXT() lcg(&seed)
	for (int q = 0; q < QUADS; q++) {
		float x = (float)(NEXT() % 150), y = (float)(NEXT() % 150);
		float w = (float)(4 + NEXT() % 40), h = (float)(4 + NEXT() % 40);
		bool translucent = q % 7 != 3;
		sg_texture texture = !translucent ? solid
		                     : unique_textures
		                         ? sg_texture_create(scene, &(struct sg_texture_desc){SIDE, SIDE, texels, 0, 0, 0})
		                         : shared[q % 3];
		sg_node t = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
		sg_transform_translate(scene, t, x, y, 0);
		sg_transform_scale(scene, t, w, h, 1);
		sg_node model = sg_node_new_model(scene, &(struct sg_model_desc){.mesh = quad, .texture = texture});
		if (translucent)
			ck_assert_int_eq(sg_model_set_color(scene, model, (float)(NEXT() % 256) / 255.0f,
			                                     (float)(NEXT() % 256) / 255.0f, 1.0f,
			                                     0.3f + (float)(NEXT() % 50) / 100.0f), SG_OK);
		ck_assert_int_eq(sg_node_add_child(scene, t, model), SG_OK);
		ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), t), SG_OK);
	}
#undef NEXT
	return scene;
}

START_TEST(test_translucent_batches_keep_overlap_order)
{
	bool big = _i == 1;
	uint8_t *merged = malloc(VIS_SIDE * VIS_SIDE * 4), *strict = malloc(VIS_SIDE * VIS_SIDE * 4);
	size_t batches[2];
	for (int unique = 0; unique < 2; unique++) {
		struct sg_scene *scene = overlapping_quads(unique, big);
		struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
			.width = VIS_SIDE, .height = VIS_SIDE, .target = SG_TARGET_SURFACELESS});
		ck_assert_ptr_nonnull(renderer);
		ck_assert_int_eq(sg_renderer_set_clear_color(renderer, 0.2f, 0.4f, 0.6f, 0.5f), SG_OK);
		ck_assert_uint_eq(render_into(renderer, scene, unique ? strict : merged), 300);
		struct sg_render_stats stats;
		ck_assert_int_eq(sg_renderer_get_stats(renderer, &stats), SG_OK);
		batches[unique] = stats.batches;
		sg_renderer_destroy(renderer);
		sg_scene_destroy(scene);
	}
	size_t n = VIS_SIDE * VIS_SIDE * 4, i = first_difference(merged, strict, n);
	expect(i == n, "pixel (%zu, %zu) channel %zu: %u merged, %u in strict order", i / 4 % VIS_SIDE,
	       i / 4 / VIS_SIDE, i % 4, merged[i], strict[i]);
	ck_assert_msg(batches[0] < batches[1], "%zu draw calls merged, %zu strict", batches[0], batches[1]);
	free(merged);
	free(strict);
}
END_TEST

/* 200 overlapping opaque quads of 40 textures, more than the streamed path
 * batches at once (SG_GL_BINS). */
static struct sg_scene *opaque_quads_of_many_textures(void)
{
	struct sg_scene *scene = sg_scene_create();
	sg_texture textures[40];
	for (int t = 0; t < 40; t++) {
		uint8_t texels[4 * 4 * 4];
		for (int i = 0; i < 16; i++) {
			uint8_t px[4] = {(uint8_t)(t * 6), (uint8_t)(i * 16), (uint8_t)(255 - t * 5), 255};
			memcpy(texels + i * 4, px, 4);
		}
		textures[t] = sg_texture_create(scene, &(struct sg_texture_desc){4, 4, texels, 0, 0, 0});
	}
	sg_mesh quad = test_quad(scene, 1, 1, false);
	uint32_t seed = 99;
	for (int q = 0; q < 200; q++) {
		sg_node t = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
		sg_transform_translate(scene, t, (float)(lcg(&seed) % 150), (float)(lcg(&seed) % 150), 0);
		sg_transform_scale(scene, t, (float)(4 + lcg(&seed) % 40), (float)(4 + lcg(&seed) % 40), 1);
		sg_node model = sg_node_new_model(
		    scene, &(struct sg_model_desc){.mesh = quad, .texture = textures[(q * 7) % 40]});
		ck_assert_int_eq(sg_node_add_child(scene, t, model), SG_OK);
		ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), t), SG_OK);
	}
	return scene;
}

/* A list too large to keep expanded is drawn streamed: its opaque draws in
 * list order, batched per texture, its translucent ones a chunk at a time.
 * The same pixels as from the kept buffer, over both passes, with batches
 * and chunks cut small (8 vertices asked; 64, a mesh's most, for the
 * batches), more textures than batches open at once (_i == 1), and no kept
 * buffer is filled. */
START_TEST(test_streamed_draws_equal_kept_ones)
{
	uint8_t *kept = malloc(VIS_SIDE * VIS_SIDE * 4), *streamed = malloc(VIS_SIDE * VIS_SIDE * 4);
	struct sg_scene *scene = _i ? opaque_quads_of_many_textures() : overlapping_quads(false, false);
	size_t draws = _i ? 200 : 300;
	size_t batches[2];
	for (int s = 0; s < 2; s++) {
		struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
			.width = VIS_SIDE, .height = VIS_SIDE, .target = SG_TARGET_SURFACELESS});
		ck_assert_ptr_nonnull(renderer);
		ck_assert_int_eq(sg_renderer_set_clear_color(renderer, 0.2f, 0.4f, 0.6f, 0.5f), SG_OK);
		if (s)
			sg_renderer_stream_for_testing(renderer, 1, 8);
		ck_assert_uint_eq(render_into(renderer, scene, s ? streamed : kept), draws);
		ck_assert_uint_eq(sg_renderer_vertex_builds_for_testing(renderer), s ? 0 : 1);
		struct sg_render_stats stats;
		ck_assert_int_eq(sg_renderer_get_stats(renderer, &stats), SG_OK);
		batches[s] = stats.batches;
		sg_renderer_destroy(renderer);
	}
	size_t n = VIS_SIDE * VIS_SIDE * 4, i = first_difference(streamed, kept, n);
	expect(i == n, "pixel (%zu, %zu) channel %zu: %u streamed, %u kept", i / 4 % VIS_SIDE,
	       i / 4 / VIS_SIDE, i % 4, streamed[i], kept[i]);
	/* 0: 43 opaque quads in one batch, 257 translucent ones two a chunk;
	 * 1: batches of at most 16 quads, and one for each time a texture's is
	 * drawn to make room */
	size_t least = _i ? 50 : 129;
	ck_assert_msg(batches[1] >= least && batches[0] < least, "%zu draw calls streamed, %zu kept",
	              batches[1], batches[0]);
	sg_scene_destroy(scene);
	free(kept);
	free(streamed);
}
END_TEST

/* A translucent model scaled far past the output (1e3 and 2e9 pixels wide)
 * covers every grid cell of the translucent batching: a later draw over it
 * of an earlier draw's state must not join that earlier batch. Converting
 * its screen box to cells overflowed an int once (found in review). */
START_TEST(test_huge_translucent_model_keeps_order)
{
	uint8_t pixels[2][48][64][4];
	const float scales[2] = {1000.0f, 2e9f};
	for (int k = 0; k < 2; k++) {
		struct sg_scene *scene = sg_scene_create();
		sg_node root = sg_scene_root(scene);
		uint8_t white[4] = {255, 255, 255, 255};
		sg_texture texture = sg_texture_create(scene, &(struct sg_texture_desc){1, 1, white, 0, 0, 0});
		sg_mesh small = sg_mesh_create_quad(scene, 10, 10), bar = sg_mesh_create_quad(scene, 1, 20);
		sg_node a = sg_node_new_model(scene, &(struct sg_model_desc){.mesh = small, .position = {50, 0, 0}});
		sg_node_add_child(scene, root, a);
		sg_model_set_color(scene, a, 1, 0, 0, 0.5f);
		sg_node t = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
		sg_node_add_child(scene, root, t);
		sg_transform_scale(scene, t, scales[k], 1, 1);
		sg_node b = sg_node_new_model(scene, &(struct sg_model_desc){.mesh = bar, .texture = texture, .position = {0, 10, 0}});
		sg_node_add_child(scene, t, b);
		sg_model_set_color(scene, b, 0, 1, 0, 0.5f);
		sg_node c = sg_node_new_model(scene, &(struct sg_model_desc){.mesh = small, .position = {20, 15, 0}});
		sg_node_add_child(scene, root, c);
		sg_model_set_color(scene, c, 0, 0, 1, 0.5f);
		struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
			.width = 64, .height = 48, .target = SG_TARGET_SURFACELESS});
		ck_assert_int_eq(sg_renderer_render(renderer, scene, NULL), SG_OK);
		ck_assert_int_eq(sg_renderer_read_pixels(renderer, pixels[k], 0), SG_OK);
		sg_renderer_destroy(renderer);
		sg_scene_destroy(scene);
	}
	/* blue over green at (25, 20): 0, 64, 128 */
	ck_assert_msg(pixels[0][20][25][2] > pixels[0][20][25][1], "blue is not over green");
	ck_assert_msg(memcmp(pixels[0], pixels[1], sizeof(pixels[0])) == 0,
	              "(25, 20) is %u,%u,%u at scale 2e9, %u,%u,%u at 1000", pixels[1][20][25][0],
	              pixels[1][20][25][1], pixels[1][20][25][2], pixels[0][20][25][0],
	              pixels[0][20][25][1], pixels[0][20][25][2]);
}
END_TEST

START_TEST(test_shown_after_moving_and_hidden_root)
{
	bool culling = _i;
	sg_node t, r2, direct_t, direct_r2;
	struct sg_scene *scene = overlap_scene(false, &t, &r2);
	struct sg_scene *direct = overlap_scene(false, &direct_t, &direct_r2);
	struct sg_scene *empty = sg_scene_create();
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
		.width = VIS_SIDE, .height = VIS_SIDE, .target = SG_TARGET_SURFACELESS});
	ck_assert_int_eq(sg_renderer_set_culling(renderer, culling), SG_OK);
	static uint8_t want[VIS_SIDE * VIS_SIDE * 4], got[VIS_SIDE * VIS_SIDE * 4];
	ck_assert_uint_eq(render_into(renderer, scene, got), 3);
	ck_assert_int_eq(sg_node_set_visible(scene, t, false), SG_OK);
	ck_assert_uint_eq(render_into(renderer, scene, got), 1);
	ck_assert_int_eq(sg_transform_translate(scene, t, 30, -10, 0), SG_OK);
	ck_assert_int_eq(sg_model_set_position(scene, r2, 90, 40, 0), SG_OK);
	ck_assert_uint_eq(render_into(renderer, scene, got), 1);
	ck_assert_int_eq(sg_node_set_visible(scene, t, true), SG_OK);
	ck_assert_uint_eq(render_into(renderer, scene, got), 3);
	ck_assert_int_eq(sg_transform_translate(direct, direct_t, 30, -10, 0), SG_OK);
	ck_assert_int_eq(sg_model_set_position(direct, direct_r2, 90, 40, 0), SG_OK);
	ck_assert_uint_eq(render_into(renderer, direct, want), 3);
	ck_assert_mem_eq(got, want, sizeof(got));
	/* the root hidden: the picture of an empty scene */
	ck_assert_uint_eq(render_into(renderer, empty, want), 0);
	ck_assert_int_eq(sg_node_set_visible(scene, sg_scene_root(scene), false), SG_OK);
	ck_assert_uint_eq(render_into(renderer, scene, got), 0);
	ck_assert_mem_eq(got, want, sizeof(got));
	sg_renderer_destroy(renderer);
	sg_scene_destroy(empty);
	sg_scene_destroy(direct);
	sg_scene_destroy(scene);
}
END_TEST

/* sg_last_error() is the last failure's: a renderer created, whatever target
 * discovery tried and gave up on first (no render node, GBM failing), leaves
 * the message and result of the caller's own last failure, and the reason for
 * the target is in sg_renderer_get_info alone. */
START_TEST(test_created_renderer_leaves_the_last_error)
{
	ck_assert_int_eq(sg_renderer_render(NULL, NULL, NULL), SG_ERR_INVALID_ARGUMENT);
	char before[1024];
	snprintf(before, sizeof(before), "%s", sg_last_error());
	ck_assert_str_ne(before, "");
	/* the automatic choice, whatever the environment forces */
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
		.width = 8, .height = 8, .target = SG_TARGET_AUTO, .ignore_environment = true});
	ck_assert_msg(renderer, "%s", sg_last_error());
	ck_assert_str_eq(sg_last_error(), before);
	ck_assert_int_eq(sg_last_result(), SG_ERR_INVALID_ARGUMENT);
	const struct sg_renderer_info *info = sg_renderer_get_info(renderer);
	ck_assert_ptr_nonnull(info);
	ck_assert_str_ne(info->reason, "");
	sg_renderer_destroy(renderer);
}
END_TEST

int main(void)
{
	Suite *suite = suite_create("render");
	TCase *tc = tcase_create("render");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_three_rects_matches_spec);
	tcase_add_test(tc, test_three_rects_scaled_output);
	tcase_add_test(tc, test_write_png_and_reload);
	tcase_add_test(tc, test_read_pixels_with_stride);
	tcase_add_test(tc, test_read_rects_fill_only_their_rectangles);
	tcase_add_test(tc, test_clear_color_and_empty_scene);
	tcase_add_test(tc, test_render_errors);
	tcase_add_test(tc, test_perspective_camera);
	tcase_add_loop_test(tc, test_painter_order_survives_batching, 0, 2);
	tcase_add_loop_test(tc, test_later_triangles_of_one_model_win, 0, 2);
	tcase_add_loop_test(tc, test_later_triangles_win_in_perspective, 0, 3);
	tcase_add_loop_test(tc, test_projective_world_matrix_keeps_order, 0, 3);
	tcase_add_test(tc, test_culling_skips_subtrees_and_keeps_pixels);
	tcase_add_test(tc, test_toggle_keeps_the_vertex_buffer);
	tcase_add_test(tc, test_culled_static_frames_keep_the_vertex_buffer);
	tcase_add_test(tc, test_allocation_failure_at_every_k);
	tcase_add_test(tc, test_full_disk_keeps_the_old_file);
	tcase_add_test(tc, test_destroyed_scene_gl_copies_are_freed);
	tcase_add_test(tc, test_write_png_before_render_names_write_png);
	tcase_add_loop_test(tc, test_hidden_subtree_equals_detached, 0, 4);
	tcase_add_loop_test(tc, test_shown_after_moving_and_hidden_root, 0, 2);
	tcase_add_loop_test(tc, test_translucent_batches_keep_overlap_order, 0, 2);
	tcase_add_test(tc, test_huge_translucent_model_keeps_order);
	tcase_add_loop_test(tc, test_streamed_draws_equal_kept_ones, 0, 2);
	tcase_add_loop_test(tc, test_depth_test_only_where_order_needs_it, 0, 2);
	tcase_add_test(tc, test_long_lists_are_checked_once_still);
	tcase_add_test(tc, test_created_renderer_leaves_the_last_error);
	render_frame_tests(tc);
	suite_add_tcase(suite, tc);
	return check_run(suite);
}
