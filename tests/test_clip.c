/* Clip nodes (sg_node_new_clip) drawn on the surfaceless target, against a
 * reference worked out here another way: each pixel's centre taken back
 * through the clip's transform by hand and tested against the rectangle and
 * its corner circles, and the models composited over it in draw order. On
 * every drawing path (expanded, instanced, streamed), nested and turned
 * clips, draws after a clip left alone; damage tracking byte for byte equal
 * to a full repaint while the content scrolls and the clip moves; picking
 * inside a rounded clip; errors. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sg/sg.h>

#include "../src/render/renderer_internal.h"
#include "check_run.h"

#define W 96
#define H 80

enum path { EXPANDED, INSTANCED, STREAMED, CULLED };

static struct sg_renderer *renderer_of(enum path path, bool damage)
{
	struct sg_renderer *r = sg_renderer_create(
	    &(struct sg_renderer_desc){.width = W, .height = H, .target = SG_TARGET_SURFACELESS});
	ck_assert_msg(r, "%s", sg_last_error());
	ck_assert_int_eq(sg_renderer_set_damage_tracking(r, damage), SG_OK);
	ck_assert_int_eq(sg_renderer_set_clear_color(r, 0, 0, 0, 1), SG_OK);
	if (path == STREAMED)
		sg_renderer_stream_for_testing(r, 1, 8);
	if (path == CULLED) /* the list drawn is then cut from the one walked */
		ck_assert_int_eq(sg_renderer_set_culling(r, true), SG_OK);
	return r;
}

static uint8_t *render(struct sg_renderer *r, struct sg_scene *scene)
{
	ck_assert_msg(sg_renderer_render(r, scene, NULL) == SG_OK, "%s", sg_last_error());
	uint8_t *pixels = malloc(W * H * 4);
	ck_assert_int_eq(sg_renderer_read_pixels(r, pixels, 0), SG_OK);
	return pixels;
}

/* A w x h rectangle from (0, 0): the built-in quad, or for the instanced path
 * a 9 x 9 grid of vertices (over the expanded path's 64). */
static sg_mesh rectangle(struct sg_scene *scene, enum path path, float w, float h)
{
	if (path != INSTANCED)
		return sg_mesh_create_quad(scene, w, h);
	struct sg_vertex v[81];
	uint32_t ix[8 * 8 * 6], k = 0;
	for (int j = 0; j < 9; j++)
		for (int i = 0; i < 9; i++)
			v[j * 9 + i] = (struct sg_vertex){{w * i / 8, h * j / 8, 0}, {i / 8.0f, j / 8.0f}};
	for (int j = 0; j < 8; j++)
		for (int i = 0; i < 8; i++) {
			uint32_t a = j * 9 + i, b = a + 1, c = a + 9, d = c + 1;
			uint32_t tri[6] = {a, b, c, b, d, c};
			memcpy(ix + k, tri, sizeof(tri));
			k += 6;
		}
	return sg_mesh_create(scene, &(struct sg_mesh_desc){v, 81, ix, k});
}

/* --- the reference ------------------------------------------------------------ */

/* A clip as the test sees it: its rectangle and radius, seen through a turn
 * by angle about (0, 0) then a shift by (tx, ty); parent: the clip above. */
struct ref_clip {
	float x, y, w, h, r;
	float angle, tx, ty;
	int parent; /* -1: none */
};

/* Whether (px, py) is in the rectangle with its corner circles. */
static bool in_rounded(double px, double py, const struct ref_clip *c)
{
	if (px < c->x || px > c->x + c->w || py < c->y || py > c->y + c->h)
		return false;
	double r = fmin(c->r, fmin(c->w, c->h) / 2);
	double cx = px < c->x + r ? c->x + r : px > c->x + c->w - r ? c->x + c->w - r : px;
	double cy = py < c->y + r ? c->y + r : py > c->y + c->h - r ? c->y + c->h - r : py;
	return (px - cx) * (px - cx) + (py - cy) * (py - cy) <= r * r;
}

/* Output point (px, py) taken back through clip c's turn and shift. */
static bool in_clip(double px, double py, const struct ref_clip *clips, int c)
{
	for (; c >= 0; c = clips[c].parent) {
		const struct ref_clip *k = &clips[c];
		double dx = px - k->tx, dy = py - k->ty, s = sin(k->angle), co = cos(k->angle);
		if (!in_rounded(co * dx + s * dy, -s * dx + co * dy, k))
			return false;
	}
	return true;
}

/* Whether the pixel's centre is within 0.02 of some clip's edge: not compared. */
static bool near_edge(int x, int y, const struct ref_clip *clips, int count)
{
	for (int c = 0; c < count; c++) {
		struct ref_clip alone = clips[c];
		alone.parent = -1;
		bool centre = in_clip(x + 0.5, y + 0.5, &alone, 0);
		for (int k = 0; k < 4; k++) {
			double dx = k == 0 ? 0.02 : k == 1 ? -0.02 : 0, dy = k == 2 ? 0.02 : k == 3 ? -0.02 : 0;
			if (in_clip(x + 0.5 + dx, y + 0.5 + dy, &alone, 0) != centre)
				return true;
		}
	}
	return false;
}

/* A model as the test sees it: an axis-aligned rectangle of a straight
 * colour, under clip (-1: none). */
struct ref_model {
	float x, y, w, h;
	float color[4];
	int clip;
};

/* Source-over of the models in order on black, in [0, 255]. */
static void composite(double px, double py, const struct ref_model *models, int count,
                      const struct ref_clip *clips, double out[3])
{
	out[0] = out[1] = out[2] = 0.0;
	for (int m = 0; m < count; m++) {
		const struct ref_model *k = &models[m];
		if (px < k->x || px > k->x + k->w || py < k->y || py > k->y + k->h)
			continue;
		if (k->clip >= 0 && !in_clip(px, py, clips, k->clip))
			continue;
		for (int i = 0; i < 3; i++)
			out[i] = out[i] * (1 - k->color[3]) + 255.0 * k->color[i] * k->color[3];
	}
}

/* Compares a render with the reference at every pixel not on an edge; the
 * number of pixels compared. */
static int compare(const uint8_t *pixels, const struct ref_model *models, int model_count,
                   const struct ref_clip *clips, int clip_count, const char *what)
{
	int compared = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			if (near_edge(x, y, clips, clip_count))
				continue;
			double want[3];
			composite(x + 0.5, y + 0.5, models, model_count, clips, want);
			const uint8_t *p = pixels + (y * W + x) * 4;
			for (int i = 0; i < 3; i++)
				ck_assert_msg(fabs(p[i] - want[i]) <= 1.0,
				              "%s: pixel %d,%d channel %d is %d, want %.1f", what, x, y, i,
				              p[i], want[i]);
			compared++;
		}
	return compared;
}

/* --- building the same scene -------------------------------------------------- */

static sg_node add_model(struct sg_scene *scene, sg_node parent, enum path path,
                         const struct ref_model *m)
{
	sg_node n = sg_node_new_model(scene, &(struct sg_model_desc){
	                                         .mesh = rectangle(scene, path, m->w, m->h),
	                                         .position = {m->x, m->y, 0}});
	ck_assert_msg(n.generation, "%s", sg_last_error());
	ck_assert_int_eq(sg_model_set_color(scene, n, m->color[0], m->color[1], m->color[2],
	                                    m->color[3]),
	                 SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, parent, n), SG_OK);
	return n;
}

/* The clip under a transform of its turn and shift (a transform per clip). */
static sg_node add_clip(struct sg_scene *scene, sg_node parent, const struct ref_clip *c,
                        sg_node *transform)
{
	sg_node t = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
	ck_assert_int_eq(sg_transform_translate(scene, t, c->tx, c->ty, 0), SG_OK);
	ck_assert_int_eq(sg_transform_rotate(scene, t, c->angle, 0, 0, 1), SG_OK);
	sg_node clip = sg_node_new_clip(
	    scene, &(struct sg_clip_desc){.x = c->x, .y = c->y, .width = c->w, .height = c->h,
	                                  .radius = c->r});
	ck_assert_msg(clip.generation, "%s", sg_last_error());
	ck_assert_int_eq(sg_node_add_child(scene, parent, t), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, t, clip), SG_OK);
	if (transform)
		*transform = t;
	return clip;
}

/* A transform under parent that undoes clip c's turn and shift: models
 * under it are placed in output coordinates, as the reference's are. */
static sg_node undo_turn(struct sg_scene *scene, sg_node parent, const struct ref_clip *c)
{
	sg_node back = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
	ck_assert_int_eq(sg_transform_rotate(scene, back, -c->angle, 0, 0, 1), SG_OK);
	ck_assert_int_eq(sg_transform_translate(scene, back, -c->tx, -c->ty, 0), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, parent, back), SG_OK);
	return back;
}

static const char *const path_names[] = {"expanded", "instanced", "streamed", "culled"};

/* A red model behind, then clip 0 (turned, rounded) holding a translucent
 * green model and clip 1 (nested, axis-aligned) with a blue one, then a
 * white model inside clip 0 after clip 1, then a yellow one after clip 0:
 * each clip's range of draws, nesting, and the draws after it. */
START_TEST(test_clips_on_every_path)
{
	enum path path = (enum path)_i;
	const struct ref_clip clips[2] = {
	    {0, 0, 50, 40, 9, 0.3f, 30, 8, -1},
	    {25, 15, 40, 40, 0, 0.0f, 30, 8, 0}, /* sticks out of clip 0 */
	};
	/* clip 1's reference turn must be its parent's: it sits under the same
	 * transform chain (clip 0's transform, then its own identity one). */
	struct ref_clip ref[2] = {clips[0], clips[1]};
	ref[1].angle = clips[0].angle, ref[1].tx = clips[0].tx, ref[1].ty = clips[0].ty;
	const struct ref_model models[5] = {
	    {0, 0, W, H, {1, 0, 0, 1}, -1},
	    {-20, -20, 140, 120, {0, 1, 0, 0.5f}, 0},
	    {-20, -20, 140, 120, {0, 0, 1, 1}, 1},
	    {20, 25, 30, 30, {1, 1, 1, 1}, 0},
	    {70, 50, 20, 20, {1, 1, 0, 1}, -1},
	};
	struct sg_scene *scene = sg_scene_create();
	sg_node root = sg_scene_root(scene);
	add_model(scene, root, path, &models[0]);
	sg_node outer = add_clip(scene, root, &clips[0], NULL);
	/* models under a clip are in its coordinates: the reference's are the
	 * output's, so each goes under a transform that undoes the turn */
	add_model(scene, undo_turn(scene, outer, &clips[0]), path, &models[1]);
	sg_node inner_t = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
	ck_assert_int_eq(sg_node_add_child(scene, outer, inner_t), SG_OK);
	sg_node inner = sg_node_new_clip(
	    scene, &(struct sg_clip_desc){.x = clips[1].x, .y = clips[1].y, .width = clips[1].w,
	                                  .height = clips[1].h});
	ck_assert_int_eq(sg_node_add_child(scene, inner_t, inner), SG_OK);
	add_model(scene, undo_turn(scene, inner, &clips[0]), path, &models[2]);
	add_model(scene, undo_turn(scene, outer, &clips[0]), path, &models[3]);
	add_model(scene, root, path, &models[4]);

	struct sg_renderer *r = renderer_of(path, false);
	uint8_t *pixels = render(r, scene);
	int compared = compare(pixels, models, 5, ref, 2, path_names[path]);
	ck_assert_int_gt(compared, W * H * 9 / 10);
	/* the clip cut something: red shows where clip 0 is not */
	ck_assert_int_eq(pixels[(2 * W + 2) * 4 + 0], 255);
	free(pixels);
	sg_renderer_destroy(r);
	sg_scene_destroy(scene);
}
END_TEST

/* A scrolling list: a clip holding a hundred coloured rows under a scroll
 * transform, a model behind and one beside it. */
struct list_scene {
	struct sg_scene *scene;
	sg_node scroll, clip, frame;
};

static struct list_scene list_scene(enum path path)
{
	struct list_scene l = {.scene = sg_scene_create()};
	sg_node root = sg_scene_root(l.scene);
	const struct ref_model back = {0, 0, W, H, {0.2f, 0.2f, 0.6f, 1}, -1};
	const struct ref_model beside = {70, 10, 20, 60, {0.9f, 0.5f, 0.1f, 1}, -1};
	add_model(l.scene, root, path, &back);
	l.frame = sg_node_new_transform(l.scene, &(struct sg_transform_desc){0});
	ck_assert_int_eq(sg_node_add_child(l.scene, root, l.frame), SG_OK);
	ck_assert_int_eq(sg_transform_translate(l.scene, l.frame, 8, 12, 0), SG_OK);
	l.clip = sg_node_new_clip(
	    l.scene, &(struct sg_clip_desc){.name = "list", .width = 52, .height = 44, .radius = 10});
	ck_assert_msg(l.clip.generation, "%s", sg_last_error());
	ck_assert_int_eq(sg_node_add_child(l.scene, l.frame, l.clip), SG_OK);
	l.scroll = sg_node_new_transform(l.scene, &(struct sg_transform_desc){0});
	ck_assert_int_eq(sg_node_add_child(l.scene, l.clip, l.scroll), SG_OK);
	/* more rows than the damage tracker's share of an edit that it makes
	 * boxes for, had the clip not bounded what they change */
	for (int i = 0; i < 100; i++) {
		const struct ref_model row = {2, 2 + 14.0f * i, 48, 12,
		                              {i & 1 ? 1.0f : 0.3f, (float)(i % 8) / 8, 0.5f,
		                               i == 3 ? 0.6f : 1},
		                              -1};
		add_model(l.scene, l.scroll, path, &row);
	}
	add_model(l.scene, root, path, &beside);
	return l;
}

static void expect_same(const uint8_t *a, const uint8_t *b, const char *what)
{
	for (int i = 0; i < W * H * 4; i++)
		if (a[i] != b[i])
			ck_abort_msg("%s: byte %d (pixel %d,%d) is %d with damage, %d repainted whole",
			             what, i, i / 4 % W, i / 4 / W, a[i], b[i]);
}

/* Each edit repainted with damage tracking equals a whole repaint; a scroll
 * repaints no more than the clip's box. */
START_TEST(test_damage_while_scrolling)
{
	enum path path = (enum path)_i;
	struct list_scene l = list_scene(path);
	struct sg_renderer *damaged = renderer_of(path, true), *whole = renderer_of(path, false);
	free(render(damaged, l.scene));
	for (int step = 0; step < 9; step++) {
		const char *what = "scroll";
		if (step < 3) {
			ck_assert_int_eq(sg_transform_translate(l.scene, l.scroll, 0, -7.5f, 0), SG_OK);
		} else if (step == 3) {
			what = "clip moved and rounder";
			ck_assert_int_eq(sg_clip_set(l.scene, l.clip,
			                             &(struct sg_clip_desc){.x = 5, .y = -4, .width = 40,
			                                                    .height = 50, .radius = 12}),
			                 SG_OK);
		} else if (step == 4) {
			what = "clip turned";
			ck_assert_int_eq(sg_transform_rotate(l.scene, l.frame, 0.2f, 0, 0, 1), SG_OK);
		} else if (step == 5) {
			what = "clip hidden";
			ck_assert_int_eq(sg_node_set_visible(l.scene, l.clip, false), SG_OK);
		} else if (step == 6) {
			what = "clip shown";
			ck_assert_int_eq(sg_node_set_visible(l.scene, l.clip, true), SG_OK);
		} else {
			what = "scroll back";
			ck_assert_int_eq(sg_transform_translate(l.scene, l.scroll, 0, 20, 0), SG_OK);
		}
		uint8_t *a = render(damaged, l.scene), *b = render(whole, l.scene);
		expect_same(a, b, what);
		if (step < 3) {
			struct sg_render_stats stats;
			ck_assert_int_eq(sg_renderer_get_stats(damaged, &stats), SG_OK);
			/* the clip's box, 52 x 44 at (8, 12), and a pixel around it */
			ck_assert_msg(stats.repainted_pixels <= 54 * 46, "scroll %d repainted %llu pixels",
			              step, (unsigned long long)stats.repainted_pixels);
			ck_assert_uint_gt(stats.repainted_pixels, 0);
		}
		free(a);
		free(b);
	}
	sg_renderer_destroy(damaged);
	sg_renderer_destroy(whole);
	sg_scene_destroy(l.scene);
}
END_TEST

/* A pick lands on a row only inside the clip: in a rounded corner it finds
 * what lies behind, as drawn; a clip that cuts everything picks nothing of its subtree. */
START_TEST(test_pick_inside_a_rounded_clip)
{
	struct list_scene l = list_scene(EXPANDED);
	struct sg_renderer *r = renderer_of(EXPANDED, false);
	uint8_t *pixels = render(r, l.scene);
	struct sg_pick_hit hit;
	sg_node first_row = sg_node_first_child(l.scene, l.scroll);
	/* (12.5, 16.5): inside row 0 ((10, 14) to (58, 26)), and inside the
	 * clip's corner circle of radius 10 about (18, 22): 5.5^2 * 2 < 100 */
	ck_assert_int_eq(sg_scene_pick(l.scene, NULL, W, H, 12.5f, 16.5f, &hit), SG_OK);
	ck_assert_int_eq(hit.node.index, first_row.index);
	/* (10.5, 14.5): in row 0, out of the circle: 7.5^2 * 2 > 100; the back */
	ck_assert_int_eq(sg_scene_pick(l.scene, NULL, W, H, 10.5f, 14.5f, &hit), SG_OK);
	ck_assert_int_ne(hit.node.index, first_row.index);
	/* what is drawn there is the back's colour, 0.2 0.2 0.6 */
	const uint8_t *p = pixels + (14 * W + 10) * 4;
	ck_assert_int_eq(p[0], 51);
	ck_assert_int_eq(p[2], 153);
	/* a row scrolled below the clip's bottom (12 + 44) is not picked there */
	sg_node last_row = sg_node_child_at(l.scene, l.scroll, 7); /* y 12 + 2 + 98 */
	ck_assert_int_eq(sg_transform_translate(l.scene, l.scroll, 0, -50, 0), SG_OK);
	/* now at 62 to 74: below the clip */
	ck_assert_int_eq(sg_scene_pick(l.scene, NULL, W, H, 30, 65, &hit), SG_OK);
	ck_assert_int_ne(hit.node.index, last_row.index);
	ck_assert_int_eq(sg_clip_set(l.scene, l.clip,
	                             &(struct sg_clip_desc){.width = 52, .height = 80}),
	                 SG_OK);
	ck_assert_int_eq(sg_scene_pick(l.scene, NULL, W, H, 30, 65, &hit), SG_OK);
	ck_assert_int_eq(hit.node.index, last_row.index);
	free(pixels);
	sg_renderer_destroy(r);
	sg_scene_destroy(l.scene);
}
END_TEST

/* The inverse of a column-major 4 x 4 matrix by Gauss-Jordan elimination, in double. */
static void invert(const float m[16], double out[16])
{
	double a[4][8];
	for (int r = 0; r < 4; r++)
		for (int c = 0; c < 8; c++)
			a[r][c] = c < 4 ? m[c * 4 + r] : (c - 4 == r);
	for (int c = 0; c < 4; c++) {
		int pivot = c;
		for (int r = c + 1; r < 4; r++)
			if (fabs(a[r][c]) > fabs(a[pivot][c]))
				pivot = r;
		for (int k = 0; k < 8; k++) {
			double t = a[c][k];
			a[c][k] = a[pivot][k], a[pivot][k] = t;
		}
		double d = a[c][c];
		for (int k = 0; k < 8; k++)
			a[c][k] /= d;
		for (int r = 0; r < 4; r++)
			if (r != c) {
				double f = a[r][c];
				for (int k = 0; k < 8; k++)
					a[r][k] -= f * a[c][k];
			}
	}
	for (int r = 0; r < 4; r++)
		for (int c = 0; c < 4; c++)
			out[c * 4 + r] = a[r][c + 4];
}

/* Under a perspective camera looking at the plane z = 0 aslant, a rounded
 * clip in that plane: each pixel's ray, unprojected and met with the plane
 * here, against the clip's rectangle and corner circles. */
START_TEST(test_clip_under_perspective)
{
	struct sg_camera camera;
	sg_camera_init_perspective(&camera, 0.9f, (float)W / H, 1, 500);
	const float eye[3] = {30, -60, 90}, centre[3] = {40, 30, 0}, up[3] = {0, 0, 1};
	sg_camera_look_at(&camera, eye, centre, up);
	struct sg_scene *scene = sg_scene_create();
	const struct ref_clip c = {10, 5, 60, 45, 14, 0, 0, 0, -1};
	sg_node clip = add_clip(scene, sg_scene_root(scene), &c, NULL);
	const struct ref_model model = {-100, -100, 300, 300, {1, 1, 1, 1}, 0};
	add_model(scene, clip, EXPANDED, &model);
	struct sg_renderer *r = renderer_of(EXPANDED, false);
	ck_assert_msg(sg_renderer_render(r, scene, &camera) == SG_OK, "%s", sg_last_error());
	uint8_t *pixels = malloc(W * H * 4);
	ck_assert_int_eq(sg_renderer_read_pixels(r, pixels, 0), SG_OK);
	float vp[16];
	for (int col = 0; col < 4; col++)
		for (int row = 0; row < 4; row++) {
			double sum = 0;
			for (int k = 0; k < 4; k++)
				sum += (double)camera.projection[k * 4 + row] * camera.view[col * 4 + k];
			vp[col * 4 + row] = (float)sum;
		}
	double inv[16];
	invert(vp, inv);
	int inside = 0, compared = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			double ndc[2] = {2 * (x + 0.5) / W - 1, 1 - 2 * (y + 0.5) / H}, ends[2][3];
			for (int e = 0; e < 2; e++) {
				double q[4];
				for (int row = 0; row < 4; row++)
					q[row] = inv[row] * ndc[0] + inv[4 + row] * ndc[1] +
					         inv[8 + row] * (e ? 1.0 : -1.0) + inv[12 + row];
				for (int k = 0; k < 3; k++)
					ends[e][k] = q[k] / q[3];
			}
			double t = ends[0][2] / (ends[0][2] - ends[1][2]);
			double px = ends[0][0] + t * (ends[1][0] - ends[0][0]);
			double py = ends[0][1] + t * (ends[1][1] - ends[0][1]);
			bool want = t >= 0 && t <= 1 && in_rounded(px, py, &c);
			/* a pixel whose centre meets the plane near an edge is not compared */
			bool near = false;
			for (int k = 0; k < 4 && t >= 0 && t <= 1; k++)
				near |= in_rounded(px + (k == 0 ? 0.05 : k == 1 ? -0.05 : 0),
				                   py + (k == 2 ? 0.05 : k == 3 ? -0.05 : 0), &c) != want;
			if (near)
				continue;
			const uint8_t *p = pixels + (y * W + x) * 4;
			ck_assert_msg(p[0] == (want ? 255 : 0), "pixel %d,%d is %d, want %s", x, y, p[0],
			              want ? "inside" : "outside");
			/* picks at one pixel in 9 (each walks the tree: slow under valgrind) */
			if (x % 3 == 0 && y % 3 == 0) {
				struct sg_pick_hit hit;
				sg_result picked =
				    sg_scene_pick(scene, &camera, W, H, x + 0.5f, y + 0.5f, &hit);
				ck_assert_int_eq(picked, want ? SG_OK : SG_ERR_NOT_FOUND);
			}
			inside += want;
			compared++;
		}
	ck_assert_int_gt(inside, 400);
	ck_assert_int_gt(compared - inside, 400);
	free(pixels);
	sg_renderer_destroy(r);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_clip_errors)
{
	struct sg_scene *scene = sg_scene_create();
	ck_assert_int_eq(sg_node_new_clip(scene, &(struct sg_clip_desc){.width = -1}).generation, 0);
	ck_assert_str_eq(sg_last_error(), "clip '': width is -1, not a finite value >= 0");
	ck_assert_int_eq(sg_node_new_clip(scene, &(struct sg_clip_desc){.x = NAN}).generation, 0);
	ck_assert_int_eq(sg_node_new_clip(NULL, &(struct sg_clip_desc){0}).generation, 0);
	ck_assert_int_eq(sg_node_new_clip(scene, NULL).generation, 0);
	sg_node clip = sg_node_new_clip(scene, &(struct sg_clip_desc){.name = "c", .width = 4});
	ck_assert_int_eq(sg_node_get_kind(scene, clip), SG_NODE_CLIP);
	ck_assert_int_eq(sg_clip_set(scene, clip, &(struct sg_clip_desc){.radius = INFINITY}),
	                 SG_ERR_INVALID_ARGUMENT);
	ck_assert_str_eq(sg_last_error(), "clip 'c': radius is inf, not a finite value >= 0");
	ck_assert_int_eq(sg_clip_set(scene, sg_scene_root(scene), &(struct sg_clip_desc){0}),
	                 SG_ERR_INVALID_ARGUMENT);
	ck_assert_str_eq(sg_last_error(), "sg_clip_set: node #1 is not a clip");
	struct sg_clip_desc got;
	ck_assert_int_eq(sg_clip_get(scene, clip, &got), SG_OK);
	ck_assert(got.width == 4 && got.height == 0 && got.name == NULL);
	ck_assert_int_eq(sg_clip_get(scene, clip, NULL), SG_ERR_INVALID_ARGUMENT);
	/* 33 clips deep: refused at the render, naming the model */
	sg_node parent = sg_scene_root(scene);
	for (int i = 0; i < 33; i++) {
		sg_node c = sg_node_new_clip(scene, &(struct sg_clip_desc){.width = W, .height = H});
		ck_assert_int_eq(sg_node_add_child(scene, parent, c), SG_OK);
		parent = c;
	}
	sg_node deep = sg_node_new_model(scene, &(struct sg_model_desc){
	                                            .name = "deep",
	                                            .mesh = sg_mesh_create_quad(scene, 4, 4)});
	ck_assert_int_eq(sg_node_add_child(scene, parent, deep), SG_OK);
	struct sg_renderer *r = renderer_of(EXPANDED, false);
	ck_assert_int_eq(sg_renderer_render(r, scene, NULL), SG_ERR_LIMIT);
	ck_assert_str_eq(sg_last_error(), "model 'deep' is below more than 32 clip nodes");
	/* destroying clips frees their records (the leak checkers see it) */
	ck_assert_int_eq(sg_node_destroy(scene, clip), SG_OK);
	sg_renderer_destroy(r);
	sg_scene_destroy(scene);
}
END_TEST

/* Six squares of one mesh (one instanced batch, one run of the expanded
 * path), each under a clip of its own that leaves its left 2, 4, ... 12
 * pixels, and a seventh unclipped: within one batch each draw finds its own
 * clip. */
START_TEST(test_one_batch_many_clips)
{
	enum path path = (enum path)_i;
	struct sg_scene *scene = sg_scene_create();
	sg_mesh square = rectangle(scene, path, 12, 12);
	for (int i = 0; i < 7; i++) {
		float x = 4 + 13.0f * i;
		sg_node parent = sg_scene_root(scene);
		if (i < 6) {
			parent = sg_node_new_clip(scene, &(struct sg_clip_desc){
			                                     .x = x, .y = 0, .width = 2.0f * (i + 1),
			                                     .height = H});
			ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), parent), SG_OK);
		}
		sg_node m = sg_node_new_model(
		    scene, &(struct sg_model_desc){.mesh = square, .position = {x, 10, 0}});
		ck_assert_int_eq(sg_node_add_child(scene, parent, m), SG_OK);
	}
	struct sg_renderer *r = renderer_of(path, false);
	uint8_t *pixels = render(r, scene);
	for (int i = 0; i < 7; i++)
		for (int dx = 0; dx < 12; dx++) {
			int x = 4 + 13 * i + dx;
			bool shown = i == 6 || dx < 2 * (i + 1);
			ck_assert_msg(pixels[(15 * W + x) * 4] == (shown ? 255 : 0),
			              "%s: square %d, column %d is %d", path_names[path], i, dx,
			              pixels[(15 * W + x) * 4]);
		}
	free(pixels);
	sg_renderer_destroy(r);
	sg_scene_destroy(scene);
}
END_TEST

/* 32 clips nested (the most), each 1 pixel in from the one above it, over a
 * model covering the output, and a shape texture under the innermost, cut
 * in half by it: what shows is the innermost rectangle, the shape's
 * program clipped as the textured one. */
START_TEST(test_deepest_nesting_and_shapes)
{
	struct sg_scene *scene = sg_scene_create();
	sg_node parent = sg_scene_root(scene);
	for (int i = 0; i < 32; i++) {
		sg_node c = sg_node_new_clip(scene, &(struct sg_clip_desc){
		                                        .x = 2.0f + i, .y = 2.0f + i,
		                                        .width = W - 4.0f - 2 * i,
		                                        .height = H - 4.0f - 2 * i});
		ck_assert_int_eq(sg_node_add_child(scene, parent, c), SG_OK);
		parent = c;
	}
	/* the innermost: x 33 .. 63, y 33 .. 47; the shape's box x 48 .. 88,
	 * y 30 .. 50, its corners rounded 6 */
	const struct ref_model back = {0, 0, W, H, {0, 0.5f, 0, 1}, -1};
	add_model(scene, parent, EXPANDED, &back);
	struct sg_shape_desc desc = {.width = 40, .height = 20, .radii = {6, 6, 6, 6},
	                             .fill = {1, 1, 1, 1}};
	sg_node shape = sg_node_new_model(
	    scene, &(struct sg_model_desc){.mesh = sg_mesh_create_shape(scene, &desc),
	                                   .texture = sg_texture_create_shape(scene, &desc),
	                                   .position = {48, 30, 0}});
	ck_assert_int_eq(sg_node_add_child(scene, parent, shape), SG_OK);
	struct sg_renderer *r = renderer_of(EXPANDED, false);
	uint8_t *pixels = render(r, scene);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			const uint8_t *p = pixels + (y * W + x) * 4;
			bool inner = x >= 33 && x < 63 && y >= 33 && y < 47;
			if (!inner) {
				ck_assert_msg(p[0] == 0 && p[1] == 0, "pixel %d,%d outside shows %d %d", x, y,
				              p[0], p[1]);
			} else if (x >= 55 && y >= 36 && y < 44) {
				/* inside the shape, away from its rounded corners */
				ck_assert_msg(p[0] == 255, "pixel %d,%d of the shape is %d", x, y, p[0]);
			} else if (x < 46) {
				ck_assert_msg(p[0] == 0 && p[1] == 128, "pixel %d,%d inside is %d %d", x, y,
				              p[0], p[1]);
			}
		}
	free(pixels);
	sg_renderer_destroy(r);
	sg_scene_destroy(scene);
}
END_TEST

Suite *clip_suite(void);
Suite *clip_suite(void)
{
	Suite *s = suite_create("clip");
	TCase *draw = tcase_create("draw");
	tcase_add_loop_test(draw, test_clips_on_every_path, EXPANDED, CULLED + 1);
	tcase_add_loop_test(draw, test_one_batch_many_clips, EXPANDED, INSTANCED + 1);
	tcase_add_test(draw, test_deepest_nesting_and_shapes);
	/* streamed is drawn above; each renderer costs valgrind's runs its shader builds */
	tcase_add_loop_test(draw, test_damage_while_scrolling, EXPANDED, INSTANCED + 1);
	tcase_add_test(draw, test_pick_inside_a_rounded_clip);
	tcase_add_test(draw, test_clip_under_perspective);
	tcase_add_test(draw, test_clip_errors);
	suite_add_tcase(s, draw);
	return s;
}

int main(void)
{
	return check_run(clip_suite());
}
