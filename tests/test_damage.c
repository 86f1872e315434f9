/* Damage tracking (docs/damage.md) on the surfaceless target: every frame a
 * renderer repaints with damage equals, to the byte, what a second renderer
 * repainting everything draws, through random edit sequences and rings of
 * 1, 2 and 3 buffers; and the partial repaints really are partial. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sg/sg.h>

#include "check_run.h"
#include "cube3d.h"
#include "damage_scene.h"
#include "../src/render/buffer.h"
#include "../src/render/renderer_internal.h"

#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

#define W 96
#define H 80
#define GROUPS DAMAGE_GROUPS
#define PER_GROUP DAMAGE_PER_GROUP
/* Frames of random edits: valgrind runs a few (it is 30 times slower), an
 * ASan build 60 (it is 3 to 5 times slower: the suite stays well inside
 * meson's time limit). */
#if defined(__SANITIZE_ADDRESS__)
#define FULL_FRAMES 60
#else
#define FULL_FRAMES 200
#endif
#define FRAMES (RUNNING_ON_VALGRIND ? 24 : FULL_FRAMES)

/* The scene and its edits: tests/damage_scene.c. */
#define world damage_world

static void build_with(struct world *w, unsigned seed, bool big)
{
	damage_world_build(w, seed, big, W, H);
}

static void build(struct world *w, unsigned seed)
{
	build_with(w, seed, false);
}

static struct sg_renderer *make_renderer(bool damage)
{
	struct sg_renderer *r = sg_renderer_create(
	    &(struct sg_renderer_desc){.width = W, .height = H, .target = SG_TARGET_SURFACELESS});
	ck_assert_msg(r, "%s", sg_last_error());
	ck_assert_int_eq(sg_renderer_set_damage_tracking(r, damage), SG_OK);
	return r;
}

static void init_camera(struct sg_camera *camera, bool perspective, float tilt)
{
	damage_camera_init(camera, W, H, perspective, tilt);
}



static void render(struct sg_renderer *r, struct sg_scene *scene, const struct sg_camera *camera,
                   const float clear[4], uint8_t *pixels)
{
	ck_assert_int_eq(sg_renderer_set_clear_color(r, clear[0], clear[1], clear[2], clear[3]),
	                 SG_OK);
	ck_assert_msg(sg_renderer_render(r, scene, camera) == SG_OK, "%s", sg_last_error());
	ck_assert_int_eq(sg_renderer_read_pixels(r, pixels, 0), SG_OK);
}

static uint64_t repainted(struct sg_renderer *r)
{
	struct sg_render_stats stats;
	ck_assert_int_eq(sg_renderer_get_stats(r, &stats), SG_OK);
	return stats.repainted_pixels;
}

/* One frame into buffer (NULL: the renderer's own) of a ring, read back; it
 * held before (the ring's copy of each buffer's picture): every byte that
 * changed in it lies inside what the draw says changed, as a KMS commit's
 * FB_DAMAGE_CLIPS must. */
static void render_into(struct sg_renderer *r, struct sg_render_buffer *buffer,
                        struct sg_scene *scene, const struct sg_camera *camera,
                        const float clear[4], uint8_t *pixels, uint8_t *before, int frame)
{
	ck_assert_int_eq(sg_renderer_set_clear_color(r, clear[0], clear[1], clear[2], clear[3]),
	                 SG_OK);
	struct sg_render_pass pass = {.buffer = buffer};
	ck_assert_msg(sg_renderer_draw(r, scene, camera, &pass) == SG_OK, "%s", sg_last_error());
	ck_assert_int_eq(sg_renderer_read_pixels(r, pixels, 0), SG_OK);
	int outside = -1;
	for (int p = 0; p < W * H * 4 && outside < 0 && !pass.changed.full; p += 4) {
		if (!memcmp(pixels + p, before + p, 4))
			continue;
		int x = p / 4 % W, y = p / 4 / W;
		bool in = false;
		for (int i = 0; i < pass.changed.count && !in; i++) {
			const struct sg_rect *c = &pass.changed.rects[i];
			in = x >= c->x && x < c->x + c->width && y >= c->y && y < c->y + c->height;
		}
		if (!in)
			outside = p / 4;
	}
	ck_assert_msg(outside < 0,
	              "frame %d: pixel (%d, %d) changed in its buffer outside the %d "
	              "rectangles the draw says changed",
	              frame, outside % W, outside / W, pass.changed.count);
	memcpy(before, pixels, W * H * 4);
}

/* _i: ring of 1, 2 or 3 buffers, drawn expanded (0 .. 2), instanced (3 .. 5),
 * seen in perspective (6 .. 8), or expanded and streamed a chunk of 8
 * vertices at a time, as lists too large to keep are (9 .. 11). */
START_TEST(test_random_edits_equal_full_repaints)
{
	/* Under valgrind the memory checks are what is wanted, not every
	 * combination again: the rings of the expanded path alone. */
	if (RUNNING_ON_VALGRIND && _i >= 3 && _i != 9)
		return;
	int ring = _i % 3 + 1;
	struct world w;
	build_with(&w, 1234u + (unsigned)_i, _i >= 3 && _i < 6);
	w.perspective = _i >= 6 && _i < 9; /* which camera the edits move */
	struct sg_renderer *full = make_renderer(false), *damaged = make_renderer(true);
	if (_i >= 9) /* against full repaints drawn from one kept buffer */
		sg_renderer_stream_for_testing(damaged, 1, 8);
	struct sg_camera camera;
	init_camera(&camera, w.perspective, 0.0f);
	float clear[4] = {0.1f, 0.2f, 0.3f, 1.0f};
	static uint8_t want[W * H * 4], got[W * H * 4], held[3][W * H * 4];
	/* The renderer's own buffer, and plain ones as more of the ring. */
	struct sg_render_buffer *buffers[3] = {NULL};
	for (int b = 1; b < ring; b++)
		ck_assert_msg(sg_renderer_buffer_create(damaged, &(struct sg_buffer_desc){0},
		                                        &buffers[b]) == SG_OK,
		              "%s", sg_last_error());
	uint64_t total = 0, partial_frames = 0;
	for (int frame = 0; frame < FRAMES; frame++) {
		const char *what = damage_world_frame_edits(&w, &camera, clear, frame);
		render(full, w.scene, &camera, clear, want);
		render_into(damaged, buffers[frame % ring], w.scene, &camera, clear, got,
		            held[frame % ring], frame);
		uint64_t pixels = repainted(damaged);
		total += pixels;
		partial_frames += pixels < W * H;
		/* One assertion at the first difference: Check writes each passed
		 * assertion down its pipe, 30720 writes a frame, most of the time. */
		int p = 0;
		while (p < W * H * 4 - 1 && got[p] == want[p])
			p++;
		ck_assert_msg(got[p] == want[p],
			              "ring %d%s, frame %d (last edit: %s): byte %d (x %d, y %d) is %u, a "
			              "full repaint has %u",
			              ring, _i >= 9 ? " streamed" : _i >= 6 ? " perspective" : _i >= 3 ? " instanced" : "", frame, what, p, p / 4 % W, p / 4 / W, got[p], want[p]);
		ck_assert_uint_eq(repainted(full), W * H);
	}
	/* Not a test that passes by repainting everything. */
	/* (each buffer's first frame is whole) */
	ck_assert_msg(partial_frames > (uint64_t)(FRAMES - ring) / 2,
	              "only %llu of %d frames were partial",
	              (unsigned long long)partial_frames, FRAMES);
	ck_assert_msg(total < (uint64_t)FRAMES * W * H * 3 / 4, "repainted %llu of %llu pixels",
	              (unsigned long long)total, (unsigned long long)FRAMES * W * H);
	for (int b = 1; b < ring; b++)
		sg_renderer_buffer_destroy(damaged, buffers[b]);
	sg_renderer_destroy(full);
	sg_renderer_destroy(damaged);
	sg_scene_destroy(w.scene);
}
END_TEST

/* A scene rendered again unchanged: no GL at all; one model moved: its old
 * and new places and little else; the last frame's damage is readable. */
START_TEST(test_static_frame_draws_nothing_and_damage_is_readable)
{
	struct world w;
	build(&w, 99u);
	struct sg_renderer *r = make_renderer(true);
	struct sg_rect rects[SG_DAMAGE_MAX_RECTS];
	ck_assert_int_eq(sg_renderer_get_damage(r, rects, SG_DAMAGE_MAX_RECTS), -1);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "nothing rendered yet"));
	ck_assert_int_eq(sg_renderer_render(r, w.scene, NULL), SG_OK);
	ck_assert_int_eq(sg_renderer_get_damage(r, rects, SG_DAMAGE_MAX_RECTS), 1);
	ck_assert_int_eq(rects[0].x, 0);
	ck_assert_int_eq(rects[0].width, W);
	ck_assert_int_eq(rects[0].height, H);

	ck_assert_int_eq(sg_renderer_render(r, w.scene, NULL), SG_OK);
	struct sg_render_stats stats;
	ck_assert_int_eq(sg_renderer_get_stats(r, &stats), SG_OK);
	ck_assert_uint_eq(stats.batches, 0);
	ck_assert_uint_eq(stats.redraws, 0);
	ck_assert_uint_eq(stats.repainted_pixels, 0);
	ck_assert_int_eq(stats.repainted_rects, 0);
	ck_assert_uint_eq(stats.draws, GROUPS * PER_GROUP);
	ck_assert_int_eq(sg_renderer_get_damage(r, rects, SG_DAMAGE_MAX_RECTS), 0);

	/* a 20x14 quad moved from one known place to another */
	sg_node m = w.models[0];
	ck_assert_int_eq(sg_model_set_position(w.scene, m, 10, 10, 0), SG_OK);
	ck_assert_int_eq(sg_renderer_render(r, w.scene, NULL), SG_OK);
	ck_assert_int_eq(sg_model_set_position(w.scene, m, 60, 50, 0), SG_OK);
	ck_assert_int_eq(sg_renderer_render(r, w.scene, NULL), SG_OK);
	int count = sg_renderer_get_damage(r, rects, SG_DAMAGE_MAX_RECTS);
	ck_assert_int_ge(count, 1);
	ck_assert_int_le(count, SG_DAMAGE_MAX_RECTS);
	int64_t area = 0;
	bool old_covered = false, new_covered = false;
	for (int i = 0; i < count; i++) {
		area += (int64_t)rects[i].width * rects[i].height;
		old_covered |= rects[i].x <= 10 && rects[i].y <= 10 &&
		               rects[i].x + rects[i].width >= 30 && rects[i].y + rects[i].height >= 24;
		new_covered |= rects[i].x <= 60 && rects[i].y <= 50 &&
		               rects[i].x + rects[i].width >= 80 && rects[i].y + rects[i].height >= 64;
	}
	ck_assert_msg(old_covered && new_covered, "the old and new boxes are not in the damage");
	/* both boxes with their margin (a pixel, two where rounding falls
	 * short), nothing else */
	ck_assert_int_le(area, 2 * 24 * 18);
	ck_assert_int_eq(sg_renderer_get_stats(r, &stats), SG_OK);
	ck_assert_uint_eq(stats.repainted_pixels, (uint64_t)area);
	ck_assert_uint_lt(stats.redraws, stats.draws);
	/* fewer slots than rectangles: the count is still the whole number */
	ck_assert_int_eq(sg_renderer_get_damage(r, rects, 0), count);
	ck_assert_int_eq(sg_renderer_get_damage(r, NULL, 0), count);

	/* a camera change damages everything */
	struct sg_camera camera;
	sg_camera_init_pixels(&camera, W * 2, H * 2);
	ck_assert_int_eq(sg_renderer_render(r, w.scene, &camera), SG_OK);
	ck_assert_int_eq(sg_renderer_get_damage(r, rects, 1), 1);
	ck_assert_int_eq(rects[0].width * rects[0].height, W * H);

	ck_assert_int_eq(sg_renderer_get_damage(NULL, rects, 1), -1);
	ck_assert_int_eq(sg_renderer_get_damage(r, rects, -1), -1);
	ck_assert_int_eq(sg_renderer_get_damage(r, NULL, 1), -1);
	ck_assert_int_eq(sg_renderer_set_damage_tracking(NULL, true), SG_ERR_INVALID_ARGUMENT);
	sg_renderer_destroy(r);
	sg_scene_destroy(w.scene);
}
END_TEST

/* Turned off, every render repaints everything and draws every model. */
START_TEST(test_off_repaints_everything)
{
	struct world w;
	build(&w, 7u);
	struct sg_renderer *r = make_renderer(false);
	for (int frame = 0; frame < 3; frame++) {
		ck_assert_int_eq(sg_renderer_render(r, w.scene, NULL), SG_OK);
		struct sg_render_stats stats;
		ck_assert_int_eq(sg_renderer_get_stats(r, &stats), SG_OK);
		ck_assert_uint_eq(stats.repainted_pixels, W * H);
		ck_assert_uint_eq(stats.redraws, stats.draws);
		ck_assert_uint_gt(stats.batches, 0);
	}
	struct sg_rect rect;
	ck_assert_int_eq(sg_renderer_get_damage(r, &rect, 1), 1);
	ck_assert_int_eq(rect.width * rect.height, W * H);
	/* on again: the buffer's content was not followed, so all once more */
	ck_assert_int_eq(sg_renderer_set_damage_tracking(r, true), SG_OK);
	ck_assert_int_eq(sg_renderer_render(r, w.scene, NULL), SG_OK);
	ck_assert_uint_eq(repainted(r), W * H);
	ck_assert_int_eq(sg_renderer_render(r, w.scene, NULL), SG_OK);
	ck_assert_uint_eq(repainted(r), 0);
	sg_renderer_destroy(r);
	sg_scene_destroy(w.scene);
}
END_TEST

/* A renderer that falls further behind the scene's journal than it holds
 * (another renderer drew every frame meanwhile) repaints everything, right. */
START_TEST(test_reader_behind_the_journal_repaints_all)
{
	struct world w;
	build(&w, 5u);
	struct sg_renderer *busy = make_renderer(true), *late = make_renderer(true),
	                   *full = make_renderer(false);
	ck_assert_int_eq(sg_renderer_render(late, w.scene, NULL), SG_OK);
	/* far more journal entries than the ring's 1024: a new epoch each frame */
	for (int frame = 0; frame < 60; frame++) {
		/* every model: 24 entries an epoch, 1440 in all */
		for (int m = 0; m < GROUPS * PER_GROUP; m++)
			sg_model_set_position(w.scene, w.models[m], (float)((frame + m) % 50), 5, 0);
		ck_assert_int_eq(sg_renderer_render(busy, w.scene, NULL), SG_OK);
	}
	static uint8_t want[W * H * 4], got[W * H * 4];
	const float clear[4] = {0, 0, 0, 1};
	render(full, w.scene, NULL, clear, want);
	render(late, w.scene, NULL, clear, got);
	ck_assert_uint_eq(repainted(late), W * H);
	ck_assert_int_eq(memcmp(got, want, sizeof(want)), 0);
	/* while one close behind repaints only what changed */
	sg_model_set_position(w.scene, w.models[0], 1, 1, 0);
	render(full, w.scene, NULL, clear, want);
	render(busy, w.scene, NULL, clear, got);
	ck_assert_uint_lt(repainted(busy), W * H);
	ck_assert_int_eq(memcmp(got, want, sizeof(want)), 0);
	sg_renderer_destroy(busy);
	sg_renderer_destroy(late);
	sg_renderer_destroy(full);
	sg_scene_destroy(w.scene);
}
END_TEST

/* The scene lists every edit (it cannot know what its readers have read):
 * one model moved 300 times between two frames is still one model's boxes
 * to repaint, not 300 edits, which the rule for edits of most of the scene
 * (more than 64 here) would repaint whole. */
START_TEST(test_repeated_edits_of_one_model_repaint_its_boxes)
{
	struct world w;
	build(&w, 6u);
	struct sg_renderer *r = make_renderer(true), *full = make_renderer(false);
	static uint8_t want[W * H * 4], got[W * H * 4];
	const float clear[4] = {0, 0, 0, 1};
	render(r, w.scene, NULL, clear, got);
	render(r, w.scene, NULL, clear, got);
	for (int k = 0; k < 300; k++)
		ck_assert_int_eq(sg_model_set_position(w.scene, w.models[0], (float)(k % 40), 2, 0),
		                 SG_OK);
	render(full, w.scene, NULL, clear, want);
	render(r, w.scene, NULL, clear, got);
	ck_assert_int_eq(memcmp(got, want, sizeof(want)), 0);
	ck_assert_uint_lt(repainted(r), W * H / 2);
	sg_renderer_destroy(r);
	sg_renderer_destroy(full);
	sg_scene_destroy(w.scene);
}
END_TEST

/* SG_DEBUG_DAMAGE=1 tints exactly the repainted region. */
START_TEST(test_debug_tint_marks_the_repainted_region)
{
	setenv("SG_DEBUG_DAMAGE", "1", 1);
	struct sg_renderer *tinted = make_renderer(true);
	unsetenv("SG_DEBUG_DAMAGE");
	struct sg_renderer *full = make_renderer(false);
	struct world w;
	build(&w, 11u);
	static uint8_t want[W * H * 4], got[W * H * 4];
	const float clear[4] = {0, 0, 0, 1};
	render(tinted, w.scene, NULL, clear, got);
	sg_model_set_position(w.scene, w.models[5], 40, 30, 0);
	render(full, w.scene, NULL, clear, want);
	render(tinted, w.scene, NULL, clear, got);
	struct sg_rect rects[SG_DAMAGE_MAX_RECTS];
	int count = sg_renderer_get_damage(tinted, rects, SG_DAMAGE_MAX_RECTS);
	ck_assert_int_ge(count, 1);
	/* inside: magenta added (red and blue up, green down or equal); outside:
	 * the first frame, tinted all over, which the full repaint does not have */
	int inside = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			bool in = false;
			for (int i = 0; i < count; i++)
				in |= x >= rects[i].x && x < rects[i].x + rects[i].width && y >= rects[i].y &&
				      y < rects[i].y + rects[i].height;
			const uint8_t *g = &got[(y * W + x) * 4], *f = &want[(y * W + x) * 4];
			if (in) {
				inside++;
				ck_assert_msg(g[1] <= f[1] && (g[0] > f[0] || g[0] == 255),
				              "pixel %d,%d is not tinted", x, y);
			}
		}
	ck_assert_int_gt(inside, 0);
	sg_renderer_destroy(tinted);
	sg_renderer_destroy(full);
	sg_scene_destroy(w.scene);
}
END_TEST

/* One renderer drawing two scenes in turn repaints each whole. */
START_TEST(test_another_scene_repaints_all)
{
	struct world a, b;
	build(&a, 1u);
	build(&b, 2u);
	struct sg_renderer *r = make_renderer(true);
	ck_assert_int_eq(sg_renderer_render(r, a.scene, NULL), SG_OK);
	ck_assert_int_eq(sg_renderer_render(r, b.scene, NULL), SG_OK);
	ck_assert_uint_eq(repainted(r), W * H);
	ck_assert_int_eq(sg_renderer_render(r, a.scene, NULL), SG_OK);
	ck_assert_uint_eq(repainted(r), W * H);
	ck_assert_int_eq(sg_renderer_render(r, a.scene, NULL), SG_OK);
	ck_assert_uint_eq(repainted(r), 0);
	sg_renderer_destroy(r);
	sg_scene_destroy(a.scene);
	sg_scene_destroy(b.scene);
}
END_TEST

/* renderer.h: no damage when nothing changed. After a clear colour change, a
 * burst of edits (more than the journal's calm share: repainted whole, the
 * boxes made one frame later) or a camera that moved for a few frames, a
 * render with no edit reports none and repaints nothing, and its picture is
 * a full repaint's. */
START_TEST(test_unchanged_frame_reports_no_damage)
{
	static const char *const what[] = {"a clear colour change", "a burst of edits",
	                                   "a camera that moved"};
	struct world w;
	build(&w, 7u);
	struct sg_renderer *r = make_renderer(true), *full = make_renderer(false);
	static uint8_t a[W * H * 4], b[W * H * 4];
	float clear[4] = {0, 0, 0, 1};
	struct sg_camera camera;
	init_camera(&camera, false, 0.0f);
	render(r, w.scene, &camera, clear, a);
	struct sg_rect rects[SG_DAMAGE_MAX_RECTS];
	if (_i == 0) {
		clear[1] = 0.5f;
		render(r, w.scene, &camera, clear, a);
	} else if (_i == 1) {
		/* more models than the journal's calm share (64 at least) */
		for (int i = 0; i < 80; i++) {
			sg_node m = sg_node_new_model(
			    w.scene, &(struct sg_model_desc){.mesh = w.meshes[0],
			                                     .position = {(float)(i % 10) * 9,
			                                                  (float)(i / 10) * 9, 0}});
			ck_assert_int_eq(sg_node_add_child(w.scene, sg_scene_root(w.scene), m), SG_OK);
		}
		render(r, w.scene, &camera, clear, a);
	} else {
		for (int f = 1; f <= 2; f++) { /* the boxes are made when it stops */
			init_camera(&camera, false, (float)f * 0.1f);
			render(r, w.scene, &camera, clear, a);
		}
	}
	ck_assert_int_ge(sg_renderer_get_damage(r, rects, SG_DAMAGE_MAX_RECTS), 1);
	for (int frame = 0; frame < 2; frame++) {
		render(r, w.scene, &camera, clear, a);
		ck_assert_msg(sg_renderer_get_damage(r, rects, SG_DAMAGE_MAX_RECTS) == 0,
		              "after %s, unchanged frame %d reports damage", what[_i], frame);
		ck_assert_uint_eq(repainted(r), 0);
	}
	render(full, w.scene, &camera, clear, b);
	ck_assert_msg(!memcmp(a, b, sizeof(a)), "after %s: not the full repaint", what[_i]);
	/* and the next edit is tracked again */
	ck_assert_int_eq(sg_model_set_position(w.scene, w.models[0], 10, 10, 0), SG_OK);
	render(r, w.scene, &camera, clear, a);
	ck_assert_uint_lt(repainted(r), W * H);
	render(full, w.scene, &camera, clear, b);
	ck_assert_msg(!memcmp(a, b, sizeof(a)), "after %s and an edit: not the full repaint",
	              what[_i]);
	sg_renderer_destroy(r);
	sg_renderer_destroy(full);
	sg_scene_destroy(w.scene);
}
END_TEST

/* A drawn model's slot freed (the model destroyed, or its parent group or
 * transform with it), then taken by a node of every kind before the next
 * render: the partial repaint must erase the model, as the full one does.
 * (A group or transform in the slot once hid the destroy from the damage.) */
static const char *const freeing_edits[] = {"the model", "its group", "its transform"};
static const char *const reusing_kinds[] = {
    "nothing", "a group", "a transform", "a detached model", "an attached group",
    "an attached transform over a model", "an attached model"};

static sg_node new_of_kind(struct sg_scene *scene, int kind, sg_mesh quad)
{
	switch (kind) {
	case 1:
	case 4:
		return sg_node_new_group(scene, NULL);
	case 2:
	case 5:
		return sg_node_new_transform(scene, &(struct sg_transform_desc){0});
	default:
		return sg_node_new_model(scene,
		                         &(struct sg_model_desc){.mesh = quad, .position = {60, 50, 0}});
	}
}

START_TEST(test_freed_slot_taken_by_any_kind)
{
	int edit = _i / (int)(sizeof(reusing_kinds) / sizeof(*reusing_kinds));
	int kind = _i % (int)(sizeof(reusing_kinds) / sizeof(*reusing_kinds));
	struct sg_scene *scene = sg_scene_create();
	ck_assert_ptr_nonnull(scene);
	sg_node root = sg_scene_root(scene);
	sg_mesh quad = sg_mesh_create_quad(scene, 20, 20);
	sg_node parent = root;
	if (edit == 1)
		parent = sg_node_new_group(scene, NULL);
	else if (edit == 2)
		parent = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
	if (edit)
		ck_assert_int_eq(sg_node_add_child(scene, root, parent), SG_OK);
	sg_node model = sg_node_new_model(
	    scene, &(struct sg_model_desc){.mesh = quad, .position = {30, 20, 0}});
	ck_assert_int_eq(sg_model_set_color(scene, model, 1, 0, 0, 1), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, parent, model), SG_OK);
	sg_node other = sg_node_new_model(
	    scene, &(struct sg_model_desc){.mesh = quad, .position = {5, 50, 0}});
	ck_assert_int_eq(sg_model_set_color(scene, other, 0, 0, 1, 1), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, root, other), SG_OK);

	struct sg_renderer *partial = make_renderer(true), *full = make_renderer(false);
	static uint8_t a[W * H * 4], b[W * H * 4];
	const float clear[4] = {0, 0, 0, 1};
	render(partial, scene, NULL, clear, a);
	render(full, scene, NULL, clear, b);
	ck_assert_int_eq(a[(25 * W + 35) * 4], 255); /* the red model is drawn */

	ck_assert_int_eq(sg_node_destroy(scene, edit ? parent : model), SG_OK);
	bool reused = kind == 0;
	for (int tries = 0; tries < 3 && !reused; tries++) {
		sg_node node = new_of_kind(scene, kind, quad);
		ck_assert_msg(sg_node_exists(scene, node), "%s", sg_last_error());
		reused = node.index == model.index;
		if (kind >= 4)
			ck_assert_int_eq(sg_node_add_child(scene, root, node), SG_OK);
		if (kind == 5) {
			sg_node child = new_of_kind(scene, 6, quad);
			reused = reused || child.index == model.index;
			ck_assert_int_eq(sg_node_add_child(scene, node, child), SG_OK);
		}
	}
	ck_assert_msg(reused, "no new node took the model's slot %u", model.index);

	render(partial, scene, NULL, clear, a);
	render(full, scene, NULL, clear, b);
	struct sg_rect rects[SG_DAMAGE_MAX_RECTS];
	ck_assert_msg(sg_renderer_get_damage(partial, rects, SG_DAMAGE_MAX_RECTS) > 0,
	              "destroying %s, then making %s: no damage", freeing_edits[edit],
	              reusing_kinds[kind]);
	/* Where the model was: the clear colour, by construction of the scene. */
	for (int y = 21; y < 39; y++)
		for (int x = 31; x < 49; x++)
			ck_assert_msg(a[(y * W + x) * 4] == 0 && a[(y * W + x) * 4 + 3] == 255,
			              "destroying %s, then making %s: (%d, %d) still drawn",
			              freeing_edits[edit], reusing_kinds[kind], x, y);
	ck_assert_msg(!memcmp(a, b, sizeof(a)), "destroying %s, then making %s: not the full repaint",
	              freeing_edits[edit], reusing_kinds[kind]);
	sg_renderer_destroy(partial);
	sg_renderer_destroy(full);
	sg_scene_destroy(scene);
}
END_TEST

/* A 3D view among the 2D groups (under two, over two), its viewport in a
 * corner: random 2D edits as above, and each frame one edit of the view
 * (a cube turned, a material swapped, a cube hidden, the light changed, the
 * view moved by the transform above it, or nothing). Each frame equals a
 * full repaint to the byte; a frame whose only edit turned a cube repaints
 * the viewport's rectangle and nothing else. */
START_TEST(test_view3d_edits_equal_full_repaints)
{
	struct world w;
	build(&w, 777u);
	struct sg_scene *scene = w.scene;
	sg_mesh cube = cube3d_mesh(scene);
	ck_assert_msg(cube.generation, "%s", sg_last_error());
	struct sg_material_desc md;
	sg_material_desc_init(&md);
	md.base_color[0] = 0.8f, md.base_color[1] = 0.3f, md.base_color[2] = 0.2f;
	md.metallic = 0.2f, md.roughness = 0.5f;
	sg_material red = sg_material_create(scene, &md);
	md.base_color[0] = 0.2f, md.base_color[2] = 0.8f;
	md.alpha_mode = SG_ALPHA_BLEND, md.base_color[3] = 0.6f;
	sg_material blue = sg_material_create(scene, &md);
	struct sg_camera eye;
	sg_camera_init_perspective(&eye, 0.9f, 40.0f / 30.0f, 0.1f, 50.0f);
	sg_camera_look_at(&eye, (float[]){3, 2.5f, 4}, (float[]){0, 0, 0}, (float[]){0, 1, 0});
	sg_node place = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
	sg_node view = sg_node_new_view3d(
	    scene, &(struct sg_view3d_desc){.camera = &eye, .viewport = {50, 40, 40, 30},
	                                    .ambient = {0.1f, 0.1f, 0.1f}});
	ck_assert_msg(view.generation, "%s", sg_last_error());
	ck_assert_int_eq(sg_node_insert_child(scene, sg_scene_root(scene), 2, place), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, place, view), SG_OK);
	struct sg_light_desc light = {.type = SG_LIGHT_POINT, .color = {1, 1, 1}, .intensity = 30};
	sg_node lamp = sg_node_new_light(scene, &light);
	sg_node lamp_place = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
	sg_transform_translate(scene, lamp_place, 2, 3, 2);
	ck_assert_int_eq(sg_node_add_child(scene, view, lamp_place), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, lamp_place, lamp), SG_OK);
	sg_node spins[3], cubes[3];
	for (int i = 0; i < 3; i++) {
		spins[i] = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
		sg_transform_translate(scene, spins[i], -1.2f + 1.2f * (float)i, 0, -0.5f * (float)i);
		cubes[i] = sg_node_new_model(scene, &(struct sg_model_desc){.mesh = cube});
		ck_assert_int_eq(sg_model_set_material(scene, cubes[i], i == 1 ? blue : red), SG_OK);
		ck_assert_int_eq(sg_node_add_child(scene, view, spins[i]), SG_OK);
		ck_assert_int_eq(sg_node_add_child(scene, spins[i], cubes[i]), SG_OK);
	}
	struct sg_renderer *full = make_renderer(false), *damaged = make_renderer(true);
	struct sg_camera camera;
	init_camera(&camera, false, 0.0f);
	float clear[4] = {0.1f, 0.2f, 0.3f, 1.0f};
	static uint8_t want[W * H * 4], got[W * H * 4];
	int frames = RUNNING_ON_VALGRIND ? 16 : 80, partial = 0, turned_alone = 0;
	for (int frame = 0; frame < frames; frame++) {
		/* 2D edits every other frame, so that some frames edit the view alone */
		const char *what = frame % 2 ? damage_world_frame_edits(&w, &camera, clear, frame)
		                             : "none in 2D";
		int edit = (int)(damage_world_random(&w) % 7);
		int k = (int)(damage_world_random(&w) % 3);
		if (edit == 0 || edit == 6) {
			sg_transform_rotate(scene, spins[k], 0.3f, 0, 1, 0);
		} else if (edit == 1) {
			sg_material now = sg_model_get_material(scene, cubes[k]);
			sg_model_set_material(scene, cubes[k], now.index == red.index ? blue : red);
		} else if (edit == 2) {
			bool visible;
			sg_node_get_visible(scene, cubes[k], &visible);
			sg_node_set_visible(scene, cubes[k], !visible);
		} else if (edit == 3) {
			light.intensity = light.intensity > 20 ? 10.0f : 30.0f;
			sg_light_set(scene, lamp, &light);
		} else if (edit == 4) {
			sg_transform_translate(scene, place, frame % 4 < 2 ? -3.0f : 3.0f, 0, 0);
		}
		render(full, scene, &camera, clear, want);
		render(damaged, scene, &camera, clear, got);
		uint64_t pixels = repainted(damaged);
		partial += pixels < W * H;
		if (frame > 0 && frame % 2 == 0 && (edit == 0 || edit == 6)) {
			/* the cube turned inside the view, which did not move: its viewport */
			ck_assert_msg(pixels <= 40 * 30 + 2 * (40 + 30) + 4,
			              "frame %d: a cube turned, %llu pixels repainted", frame,
			              (unsigned long long)pixels);
			turned_alone++;
		}
		int p = 0;
		while (p < W * H * 4 - 1 && got[p] == want[p])
			p++;
		ck_assert_msg(got[p] == want[p],
		              "frame %d (2D: %s, 3D edit %d): byte %d (x %d, y %d) is %u, a full "
		              "repaint has %u",
		              frame, what, edit, p, p / 4 % W, p / 4 / W, got[p], want[p]);
	}
	ck_assert_msg(partial > frames / 3, "only %d of %d frames were partial", partial, frames);
	ck_assert_msg(turned_alone > 0, "no frame turned a cube alone");
	sg_renderer_destroy(full);
	sg_renderer_destroy(damaged);
	sg_scene_destroy(scene);
}
END_TEST


int main(void)
{
	Suite *suite = suite_create("damage");
	TCase *edits = tcase_create("edits");
	tcase_set_timeout(edits, 240);
	tcase_add_loop_test(edits, test_random_edits_equal_full_repaints, 0, 12);
	tcase_add_test(edits, test_view3d_edits_equal_full_repaints);
	suite_add_tcase(suite, edits);
	TCase *api = tcase_create("api");
	tcase_set_timeout(api, 120);
	tcase_add_test(api, test_static_frame_draws_nothing_and_damage_is_readable);
	tcase_add_test(api, test_off_repaints_everything);
	tcase_add_test(api, test_reader_behind_the_journal_repaints_all);
	tcase_add_test(api, test_repeated_edits_of_one_model_repaint_its_boxes);
	tcase_add_test(api, test_debug_tint_marks_the_repainted_region);
	tcase_add_test(api, test_another_scene_repaints_all);
	tcase_add_loop_test(api, test_unchanged_frame_reports_no_damage, 0, 3);
	tcase_add_loop_test(api, test_freed_slot_taken_by_any_kind, 0,
	                    (int)(sizeof(freeing_edits) / sizeof(*freeing_edits) *
	                          sizeof(reusing_kinds) / sizeof(*reusing_kinds)));
	suite_add_tcase(suite, api);
	return check_run(suite);
}
