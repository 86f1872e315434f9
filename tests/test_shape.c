/* Shape textures (sg/shape.h) drawn on the surfaceless target, against
 * values worked out here another way: a rounded rectangle's coverage of its
 * edge pixels by the area of the pixel inside it (sampled on a fine grid),
 * borders by their rectangles, gradients by their formulas, a square shadow
 * by the Gaussian's integral (erf), a rounded one by a numeric convolution,
 * the coverage of a turned shape by its area; picking in a rounded corner;
 * a changed shape repainted with damage as a full repaint draws it. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sg/sg.h>

#include "check_run.h"

#define W 96
#define H 80

static struct sg_renderer *renderer_of(bool damage)
{
	struct sg_renderer *r = sg_renderer_create(
	    &(struct sg_renderer_desc){.width = W, .height = H, .target = SG_TARGET_SURFACELESS});
	ck_assert_msg(r, "%s", sg_last_error());
	ck_assert_int_eq(sg_renderer_set_damage_tracking(r, damage), SG_OK);
	return r;
}

/* A model of a new shape texture, its box's top-left corner at (x, y). */
static sg_node add_shape(struct sg_scene *scene, const struct sg_shape_desc *desc, float x,
                         float y, sg_texture *texture)
{
	sg_texture t = sg_texture_create_shape(scene, desc);
	ck_assert_msg(t.generation, "%s", sg_last_error());
	sg_mesh quad = sg_mesh_create_shape(scene, desc);
	ck_assert_msg(quad.generation, "%s", sg_last_error());
	sg_node model = sg_node_new_model(
	    scene, &(struct sg_model_desc){.mesh = quad, .texture = t, .position = {x, y, 0}});
	ck_assert_msg(model.generation, "%s", sg_last_error());
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), model), SG_OK);
	if (texture)
		*texture = t;
	return model;
}

static uint8_t *render(struct sg_renderer *r, struct sg_scene *scene, const float clear[4])
{
	ck_assert_int_eq(sg_renderer_set_clear_color(r, clear[0], clear[1], clear[2], clear[3]),
	                 SG_OK);
	ck_assert_msg(sg_renderer_render(r, scene, NULL) == SG_OK, "%s", sg_last_error());
	uint8_t *pixels = malloc(W * H * 4);
	ck_assert_int_eq(sg_renderer_read_pixels(r, pixels, 0), SG_OK);
	return pixels;
}

static const float black[4] = {0, 0, 0, 1}, white[4] = {1, 1, 1, 1};

/* --- the reference: areas by sampling ------------------------------------------ */

/* Whether (px, py) lies in the rounded rectangle [x, x + w] x [y, y + h]
 * with corner radii r: top-left, top-right, bottom-right, bottom-left. */
static bool inside_corners(double px, double py, double x, double y, double w, double h,
                           const double r[4])
{
	if (px < x || px > x + w || py < y || py > y + h)
		return false;
	bool left = px < x + w / 2, top = py < y + h / 2;
	double radius = top ? (left ? r[0] : r[1]) : (left ? r[3] : r[2]);
	double cx = left ? x + radius : x + w - radius, cy = top ? y + radius : y + h - radius;
	if ((left ? px >= cx : px <= cx) || (top ? py >= cy : py <= cy))
		return true; /* not in the corner's square */
	return (px - cx) * (px - cx) + (py - cy) * (py - cy) <= radius * radius;
}

/* The same with radius r at every corner. */
static bool inside(double px, double py, double x, double y, double w, double h, double r)
{
	const double radii[4] = {r, r, r, r};
	return inside_corners(px, py, x, y, w, h, radii);
}

/* The area of pixel (i, j) inside that rectangle: 0 off its box, 1 with its
 * four corners in (the shape is convex), else 64 x 64 samples. */
static double area(int i, int j, double x, double y, double w, double h, double r)
{
	if (i + 1 <= x || i >= x + w || j + 1 <= y || j >= y + h)
		return 0;
	if (inside(i, j, x, y, w, h, r) && inside(i + 1, j, x, y, w, h, r) &&
	    inside(i, j + 1, x, y, w, h, r) && inside(i + 1, j + 1, x, y, w, h, r))
		return 1;
	int in = 0;
	for (int a = 0; a < 64; a++)
		for (int b = 0; b < 64; b++)
			in += inside(i + (a + 0.5) / 64, j + (b + 0.5) / 64, x, y, w, h, r);
	return in / 4096.0;
}

/* White rounded rectangles over black: each pixel's value is its coverage;
 * pixels wholly inside or outside are exact, edge pixels within 0.025 of
 * the area, 0.006 on average (sg/shape.h's bound on arcs, 0.02, plus the
 * 8-bit output's and the sampling's; measured: worst 0.015, mean 0.004). */
static void check_rounded(float x, float y, float w, float h, float radius, float asked)
{
	struct sg_scene *scene = sg_scene_create();
	struct sg_shape_desc desc = {.width = w,
	                             .height = h,
	                             .radii = {asked, asked, asked, asked},
	                             .fill = {1, 1, 1, 1}};
	add_shape(scene, &desc, x, y, NULL);
	struct sg_renderer *r = renderer_of(false);
	uint8_t *got = render(r, scene, black);
	int edge = 0;
	double total_error = 0, worst = 0;
	for (int j = 0; j < H; j++)
		for (int i = 0; i < W; i++) {
			double want = area(i, j, x, y, w, h, radius);
			double value = got[(j * W + i) * 4] / 255.0;
			ck_assert_uint_eq(got[(j * W + i) * 4 + 3], 255);
			if (want == 0 || want == 1) {
				/* whole pixels: exact, unless the outline passes within
				 * half a pixel of their centre (coverage is 0.5 - d) */
				bool near = false;
				for (int a = -1; a <= 1 && !near; a++)
					for (int b = -1; b <= 1 && !near; b++)
						near = inside(i + 0.5 + a * 0.5, j + 0.5 + b * 0.5, x, y, w, h,
						              radius) != (want == 1);
				if (!near)
					ck_assert_msg(fabs(value - want) < 1e-9,
					              "pixel (%d, %d): %g, wholly %s", i, j, value,
					              want == 1 ? "inside" : "outside");
				continue;
			}
			edge++;
			double error = fabs(value - want);
			total_error += error;
			worst = fmax(worst, error);
			ck_assert_msg(error <= 0.025, "pixel (%d, %d): coverage %.3f, area %.3f", i, j,
			              value, want);
		}
	ck_assert_int_gt(edge, 0);
	ck_assert_msg(total_error / edge <= 0.006, "mean error %.4f over %d edge pixels",
	              total_error / edge, edge);
	free(got);
	sg_renderer_destroy(r);
	sg_scene_destroy(scene);
}

START_TEST(test_rounded_rectangle_coverage)
{
	check_rounded(10, 12, 40, 30, 8, 8);
	check_rounded(60.5f, 20.25f, 30, 44, 6.5f, 6.5f); /* off the pixel grid */
}
END_TEST

START_TEST(test_circle_coverage)
{
	check_rounded(20, 20, 36, 36, 18, 18);
	check_rounded(5, 5, 21, 21, 10.5f, 1000); /* radii clamped to half the side */
}
END_TEST

/* A 4-unit red border around a blue fill, on whole pixels: exact. */
START_TEST(test_border)
{
	struct sg_scene *scene = sg_scene_create();
	struct sg_shape_desc desc = {.width = 40,
	                             .height = 30,
	                             .fill = {0, 0, 1, 1},
	                             .border_width = 4,
	                             .border_color = {1, 0, 0, 1}};
	add_shape(scene, &desc, 10, 12, NULL);
	struct sg_renderer *r = renderer_of(false);
	uint8_t *got = render(r, scene, black);
	for (int j = 0; j < H; j++)
		for (int i = 0; i < W; i++) {
			bool in = i >= 10 && i < 50 && j >= 12 && j < 42;
			bool fill = i >= 14 && i < 46 && j >= 16 && j < 38;
			uint8_t want[3] = {in && !fill ? 255 : 0, 0, fill ? 255 : 0};
			const uint8_t *p = &got[(j * W + i) * 4];
			ck_assert_msg(p[0] == want[0] && p[1] == want[1] && p[2] == want[2],
			              "pixel (%d, %d): %u,%u,%u, expected %u,%u,%u", i, j, p[0], p[1],
			              p[2], want[0], want[1], want[2]);
		}
	free(got);
	sg_renderer_destroy(r);
	sg_scene_destroy(scene);
}
END_TEST

static uint8_t to_byte(double unit)
{
	return (uint8_t)lround(fmin(fmax(unit, 0), 1) * 255);
}

static void assert_near(const uint8_t *p, const uint8_t want[3], int tolerance, int i, int j,
                        const char *what)
{
	for (int c = 0; c < 3; c++)
		ck_assert_msg(abs(p[c] - want[c]) <= tolerance,
		              "%s: pixel (%d, %d): %u,%u,%u, expected %u,%u,%u", what, i, j, p[0], p[1],
		              p[2], want[0], want[1], want[2]);
}

/* Linear: red to blue along x; then red to transparent blue, interpolated
 * premultiplied (no blue appears, as CSS draws it); radial: green at the
 * centre to black at 20 units and beyond. */
START_TEST(test_gradients)
{
	struct sg_scene *scene = sg_scene_create();
	struct sg_shape_desc linear = {.width = 64,
	                               .height = 10,
	                               .gradient = SG_GRADIENT_LINEAR,
	                               .gradient_end = {64, 0},
	                               .stop_count = 2,
	                               .stops = {{0, {1, 0, 0, 1}}, {1, {0, 0, 1, 1}}}};
	add_shape(scene, &linear, 0, 0, NULL);
	struct sg_shape_desc fading = linear;
	fading.stops[1].color[3] = 0;
	add_shape(scene, &fading, 0, 10, NULL);
	struct sg_shape_desc radial = {.width = 60,
	                               .height = 60,
	                               .gradient = SG_GRADIENT_RADIAL,
	                               .gradient_start = {30, 30},
	                               .gradient_end = {50, 30},
	                               .stop_count = 3,
	                               .stops = {{0, {0, 1, 0, 1}},
	                                         {0.5f, {0, 0.5f, 0, 1}},
	                                         {1, {0, 0, 0, 1}}}};
	add_shape(scene, &radial, 30, 20, NULL);
	struct sg_renderer *r = renderer_of(false);
	uint8_t *got = render(r, scene, black);
	for (int i = 0; i < 64; i++) {
		double t = (i + 0.5) / 64;
		uint8_t want[3] = {to_byte(1 - t), 0, to_byte(t)};
		assert_near(&got[(5 * W + i) * 4], want, 2, i, 5, "linear");
		uint8_t faded[3] = {to_byte(1 - t), 0, 0};
		assert_near(&got[(15 * W + i) * 4], faded, 2, i, 15, "premultiplied");
	}
	for (int j = 22; j < 78; j += 3)
		for (int i = 32; i < 88; i += 3) {
			double t = hypot(i + 0.5 - 60, j + 0.5 - 50) / 20;
			double g = t < 0.5 ? 1 - t : t < 1 ? 0.5 - (t - 0.5) : 0;
			uint8_t want[3] = {0, to_byte(g), 0};
			assert_near(&got[(j * W + i) * 4], want, 2, i, j, "radial");
		}
	free(got);
	sg_renderer_destroy(r);
	sg_scene_destroy(scene);
}
END_TEST

/* A Gaussian of deviation s convolved with the rounded rectangle, at
 * (px, py), by a sum over a 0.25-unit grid of the rectangle. */
static double convolved(double px, double py, double x, double y, double w, double h,
                        const double r[4], double s)
{
	double sum = 0, step = 0.25;
	for (double v = y + step / 2; v < y + h; v += step)
		for (double u = x + step / 2; u < x + w; u += step)
			if (inside_corners(u, v, x, y, w, h, r)) {
				double d2 = (u - px) * (u - px) + (v - py) * (v - py);
				sum += exp(-d2 / (2 * s * s));
			}
	return sum * step * step / (2 * M_PI * s * s);
}

/* Black shadows over white: a square one is the product of two erf
 * differences; a rounded one the convolution above. */
START_TEST(test_shadows)
{
	struct sg_scene *scene = sg_scene_create();
	const float s = 3;
	struct sg_shape_desc square = {.width = 22, .height = 22, .fill = {0, 0, 0, 1}, .blur = s};
	add_shape(scene, &square, 13, 13, NULL);
	struct sg_shape_desc round = square;
	round.radii[0] = round.radii[1] = round.radii[2] = round.radii[3] = 6;
	add_shape(scene, &round, 59, 13, NULL);
	struct sg_shape_desc mixed_corners = {
	    .width = 22, .height = 20, .radii = {9, 9, 0, 0}, .fill = {0, 0, 0, 1}, .blur = s};
	add_shape(scene, &mixed_corners, 10, 54, NULL);
	struct sg_renderer *r = renderer_of(false);
	uint8_t *got = render(r, scene, white);
	/* the square's outline: [13, 35] on both axes; drawn from 13 - 1 - 9 */
	double k = 1 / (s * sqrt(2.0));
	for (int j = 4; j < 44; j++)
		for (int i = 4; i < 44; i++) {
			double x = i + 0.5, y = j + 0.5;
			double cover = 0.25 * (erf((x - 13) * k) - erf((x - 35) * k)) *
			               (erf((y - 13) * k) - erf((y - 35) * k));
			uint8_t v = to_byte(1 - cover), want[3] = {v, v, v};
			assert_near(&got[(j * W + i) * 4], want, 2, i, j, "square shadow");
		}
	const double six[4] = {6, 6, 6, 6}, mixed[4] = {9, 9, 0, 0};
	for (int j = 6; j < 44; j += 7)
		for (int i = 52; i < 90; i += 7) {
			double cover = convolved(i + 0.5, j + 0.5, 59, 13, 22, 22, six, s);
			uint8_t v = to_byte(1 - cover), want[3] = {v, v, v};
			assert_near(&got[(j * W + i) * 4], want, 4, i, j, "rounded shadow");
		}
	/* corners of two radii, rounded at the top, square at the bottom, every
	 * pixel within 2 (measured: 1; each row takes its own half's corners:
	 * taking the pixel's half's for every row was 4 off) */
	for (int j = 46; j < 80; j++)
		for (int i = 2; i < 40; i++) {
			double cover = convolved(i + 0.5, j + 0.5, 10, 54, 22, 20, mixed, s);
			uint8_t v = to_byte(1 - cover), want[3] = {v, v, v};
			assert_near(&got[(j * W + i) * 4], want, 2, i, j, "shadow of mixed corners");
		}
	free(got);
	sg_renderer_destroy(r);
	sg_scene_destroy(scene);
}
END_TEST

/* Turned by 0.3 rad: the edges are antialiased (some pixels between), and
 * the coverage adds up to the shape's area. */
START_TEST(test_turned_shape_keeps_its_area)
{
	struct sg_scene *scene = sg_scene_create();
	struct sg_shape_desc desc = {
	    .width = 40, .height = 24, .radii = {5, 5, 5, 5}, .fill = {1, 1, 1, 1}};
	sg_texture t = sg_texture_create_shape(scene, &desc);
	sg_mesh quad = sg_mesh_create_shape(scene, &desc);
	sg_node turn = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
	ck_assert_int_eq(sg_transform_translate(scene, turn, 48, 40, 0), SG_OK);
	ck_assert_int_eq(sg_transform_rotate(scene, turn, 0.3f, 0, 0, 1), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), turn), SG_OK);
	sg_node model = sg_node_new_model(
	    scene, &(struct sg_model_desc){.mesh = quad, .texture = t, .position = {-20, -12, 0}});
	ck_assert_int_eq(sg_node_add_child(scene, turn, model), SG_OK);
	struct sg_renderer *r = renderer_of(false);
	uint8_t *got = render(r, scene, black);
	double sum = 0;
	int between = 0;
	for (int i = 0; i < W * H; i++) {
		sum += got[i * 4] / 255.0;
		between += got[i * 4] > 10 && got[i * 4] < 245;
	}
	double shape_area = 40 * 24 - (4 - M_PI) * 25;
	ck_assert_msg(fabs(sum - shape_area) < 0.002 * shape_area, "coverage %.2f, area %.2f", sum,
	              shape_area);
	ck_assert_int_gt(between, 60);
	free(got);
	sg_renderer_destroy(r);
	sg_scene_destroy(scene);
}
END_TEST

/* --- square corners: areas by clipping ---------------------------------------- */

struct point {
	double x, y;
};

/* The part of polygon in (n points, convex) on the side of the line a b where
 * centre lies (Sutherland-Hodgman); its point count. */
static int clip_side(const struct point *in, int n, struct point a, struct point b,
                     struct point centre, struct point *out)
{
	double ex = b.x - a.x, ey = b.y - a.y;
	double inner = ex * (centre.y - a.y) - ey * (centre.x - a.x);
	int count = 0;
	for (int k = 0; k < n; k++) {
		struct point p = in[k], q = in[(k + 1) % n];
		double fp = (ex * (p.y - a.y) - ey * (p.x - a.x)) * inner;
		double fq = (ex * (q.y - a.y) - ey * (q.x - a.x)) * inner;
		if (fp >= 0)
			out[count++] = p;
		if ((fp >= 0) != (fq >= 0)) {
			double t = fp / (fp - fq);
			out[count++] = (struct point){p.x + t * (q.x - p.x), p.y + t * (q.y - p.y)};
		}
	}
	return count;
}

/* The area of pixel (i, j) inside the convex quadrilateral quad: the pixel's
 * square clipped by each of its sides, then the shoelace formula. */
static double pixel_in_quad(int i, int j, const struct point quad[4])
{
	struct point poly[16] = {{i, j}, {i + 1, j}, {i + 1, j + 1}, {i, j + 1}}, next[16];
	struct point centre = {(quad[0].x + quad[2].x) / 2, (quad[0].y + quad[2].y) / 2};
	int n = 4;
	for (int e = 0; e < 4 && n > 0; e++) {
		n = clip_side(poly, n, quad[e], quad[(e + 1) % 4], centre, next);
		memcpy(poly, next, sizeof(poly));
	}
	double twice = 0;
	for (int k = 0; k < n; k++)
		twice += poly[k].x * poly[(k + 1) % n].y - poly[(k + 1) % n].x * poly[k].y;
	return fabs(twice) / 2;
}

/* The box [inset, w - inset] x [inset, h - inset], its centre at (cx, cy),
 * turned by angle radians (as sg_transform_rotate about z: x towards y). */
static void turned_box(double cx, double cy, double w, double h, double angle, double inset,
                       struct point quad[4])
{
	const double local[4][2] = {
	    {inset, inset}, {w - inset, inset}, {w - inset, h - inset}, {inset, h - inset}};
	for (int k = 0; k < 4; k++) {
		double x = local[k][0] - w / 2, y = local[k][1] - h / 2;
		quad[k] = (struct point){cx + cos(angle) * x - sin(angle) * y,
		                         cy + sin(angle) * x + cos(angle) * y};
	}
}

/* A box with square corners, blue, with a red border of border units or
 * none, its centre at (cx, cy), turned by angle: every pixel within
 * tolerance levels of its area in the box (blue: inside the border; red: in
 * the border), corner pixels included. */
static void check_square_corners(double cx, double cy, float w, float h, double angle, float border,
                                 double tolerance)
{
	struct sg_scene *scene = sg_scene_create();
	struct sg_shape_desc desc = {.width = w,
	                             .height = h,
	                             .fill = {0, 0, 1, 1},
	                             .border_width = border,
	                             .border_color = {1, 0, 0, 1}};
	sg_texture t = sg_texture_create_shape(scene, &desc);
	sg_mesh quad = sg_mesh_create_shape(scene, &desc);
	ck_assert(t.generation && quad.generation);
	sg_node turn = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
	ck_assert_int_eq(sg_transform_translate(scene, turn, (float)cx, (float)cy, 0), SG_OK);
	if (angle != 0)
		ck_assert_int_eq(sg_transform_rotate(scene, turn, (float)angle, 0, 0, 1), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), turn), SG_OK);
	sg_node model = sg_node_new_model(
	    scene,
	    &(struct sg_model_desc){.mesh = quad, .texture = t, .position = {-w / 2, -h / 2, 0}});
	ck_assert_int_eq(sg_node_add_child(scene, turn, model), SG_OK);
	struct sg_renderer *r = renderer_of(false);
	uint8_t *got = render(r, scene, black);
	struct point outer[4], inner[4];
	turned_box(cx, cy, w, h, angle, 0, outer);
	turned_box(cx, cy, w, h, angle, border, inner);
	double worst = 0;
	int partial = 0;
	for (int j = 0; j < H; j++)
		for (int i = 0; i < W; i++) {
			double all = pixel_in_quad(i, j, outer), fill = pixel_in_quad(i, j, inner);
			const uint8_t *p = &got[(j * W + i) * 4];
			double red = p[0] - 255 * (all - fill), blue = p[2] - 255 * fill;
			ck_assert_msg(
			    fabs(red) <= tolerance && fabs(blue) <= tolerance && p[1] == 0,
			    "pixel (%d, %d) of a %gx%g box turned %g rad: %u,%u,%u, area %.4f "
			    "(fill %.4f): %.1f and %.1f levels off",
			    i, j, (double)w, (double)h, angle, p[0], p[1], p[2], all, fill, red,
			    blue);
			worst = fmax(worst, fmax(fabs(red), fabs(blue)));
			partial += all > 0 && all < 1;
		}
	printf("square corners, %gx%g turned %g rad, border %g: worst %.2f levels over %d partial "
	       "pixels\n",
	       (double)w, (double)h, angle, (double)border, worst, partial);
	free(got);
	sg_renderer_destroy(r);
	sg_scene_destroy(scene);
}

/* Square corners (radius 0) are as exact as straight edges: the corner
 * pixel's coverage is the area of it inside both edges (a 40.4x30.4 box at
 * (14.8, 14.8): 0.2 x 0.2 = 0.04 of its corner pixel, 10.2 levels, not the
 * 20 that the distance to the corner gave), on and off the pixel grid,
 * turned, and at a border's inner corners. Within 1 level: the output's
 * rounding (0.5) and float arithmetic. */
START_TEST(test_square_corners_are_exact)
{
	check_square_corners(14.8 + 20.2, 14.8 + 15.2, 40.4f, 30.4f, 0, 0, 1);
	check_square_corners(48.3, 39.6, 40.4f, 30.4f, 17 * M_PI / 180, 0, 1);
	check_square_corners(14.8 + 20.2, 14.8 + 15.2, 40.4f, 30.4f, 0, 3.3f, 1);
	check_square_corners(48.3, 39.6, 40.4f, 30.4f, 17 * M_PI / 180, 3.3f, 1);
	check_square_corners(47.55, 40.15, 50.7f, 36.9f, -1.1, 0, 1);
}
END_TEST

/* A rounded corner's outside is not the shape's: the pick goes through. */
START_TEST(test_pick_inside_the_outline)
{
	struct sg_scene *scene = sg_scene_create();
	struct sg_shape_desc desc = {
	    .width = 40, .height = 30, .radii = {10, 0, 0, 0}, .fill = {1, 1, 1, 1}};
	sg_node model = add_shape(scene, &desc, 10, 10, NULL);
	struct sg_pick_hit hit;
	/* (12, 12): inside the quad, outside the top-left arc (centre (20, 20)) */
	ck_assert_int_eq(sg_scene_pick(scene, NULL, W, H, 12, 12, &hit), SG_ERR_NOT_FOUND);
	ck_assert_int_eq(sg_scene_pick(scene, NULL, W, H, 14, 14, &hit), SG_OK); /* inside it */
	ck_assert_uint_eq(hit.node.index, model.index);
	ck_assert_int_eq(sg_scene_pick(scene, NULL, W, H, 48, 11, &hit), SG_OK); /* square corner */
	sg_scene_destroy(scene);
}
END_TEST

/* Changing a shape repaints its models, as a full repaint draws them. */
START_TEST(test_changed_shape_is_damaged)
{
	struct sg_scene *scene = sg_scene_create();
	struct sg_shape_desc desc = {
	    .width = 30, .height = 20, .radii = {4, 4, 4, 4}, .fill = {0.2f, 0.6f, 1, 1}};
	sg_texture t;
	add_shape(scene, &desc, 8, 8, &t);
	struct sg_shape_desc other = desc;
	other.fill[0] = 1;
	add_shape(scene, &other, 50, 30, NULL);
	struct sg_renderer *damaged = renderer_of(true), *full = renderer_of(false);
	free(render(damaged, scene, black));
	desc.border_width = 3;
	desc.border_color[3] = 1;
	desc.radii[2] = 9;
	ck_assert_int_eq(sg_texture_set_shape(scene, t, &desc), SG_OK);
	uint8_t *a = render(damaged, scene, black), *b = render(full, scene, black);
	ck_assert_int_eq(memcmp(a, b, W * H * 4), 0);
	struct sg_shape_desc back;
	ck_assert_int_eq(sg_texture_get_shape(scene, t, &back), SG_OK);
	ck_assert_float_eq(back.radii[2], 9);
	free(a);
	free(b);
	sg_renderer_destroy(damaged);
	sg_renderer_destroy(full);
	sg_scene_destroy(scene);
}
END_TEST

/* A texture of w x h texels, each colour[(x * 2 / w) + 2 * (y * 2 / h)]
 * (quadrants), opaque, sampled nearest. */
static sg_texture quadrants(struct sg_scene *scene, int w, int h, const uint8_t colour[4][3])
{
	uint8_t *px = malloc((size_t)w * h * 4);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			const uint8_t *c = colour[(x * 2 / w) + 2 * (y * 2 / h)];
			uint8_t *p = px + (y * w + x) * 4;
			p[0] = c[0], p[1] = c[1], p[2] = c[2], p[3] = 255;
		}
	sg_texture t = sg_texture_create(scene, &(struct sg_texture_desc){
	                                            .width = w, .height = h, .pixels = px,
	                                            .filter = SG_FILTER_NEAREST});
	ck_assert_msg(t.generation, "%s", sg_last_error());
	free(px);
	return t;
}

/* An image filling a shape: its texels stretched over the box (each
 * quadrant of the box shows its quadrant of the image, away from the
 * seams), and turned, its edges antialiased where a plain textured quad's
 * are not: the coverage adds up to the box's area, with pixels between. */
START_TEST(test_image_fill)
{
	struct sg_scene *scene = sg_scene_create();
	const uint8_t colours[4][3] = {{200, 0, 0}, {0, 200, 0}, {0, 0, 200}, {200, 200, 0}};
	sg_texture image = quadrants(scene, 8, 8, colours);
	struct sg_shape_desc desc = {.width = 40, .height = 30, .fill = {1, 1, 1, 1}, .image = image};
	add_shape(scene, &desc, 4, 4, NULL);
	struct sg_renderer *r = renderer_of(false);
	uint8_t *got = render(r, scene, black);
	/* the box is (4, 4) to (44, 34): quadrant centres at x 14 and 34, y 11.5 and 26.5 */
	const int at[4][2] = {{14, 11}, {34, 11}, {14, 26}, {34, 26}};
	for (int q = 0; q < 4; q++)
		for (int c = 0; c < 3; c++)
			ck_assert_msg(got[(at[q][1] * W + at[q][0]) * 4 + c] == colours[q][c],
			              "quadrant %d channel %d: %d, want %d", q, c,
			              got[(at[q][1] * W + at[q][0]) * 4 + c], colours[q][c]);
	free(got);
	sg_renderer_destroy(r);
	sg_scene_destroy(scene);

	/* turned by 0.3 about its centre, one colour: coverage against area */
	for (int plain = 0; plain < 2; plain++) {
		scene = sg_scene_create();
		const uint8_t one[4][3] = {{255, 255, 255}, {255, 255, 255}, {255, 255, 255},
		                           {255, 255, 255}};
		image = quadrants(scene, 4, 4, one);
		desc = (struct sg_shape_desc){.width = 40, .height = 24, .fill = {1, 1, 1, 1},
		                              .image = image};
		sg_node turn = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
		ck_assert_int_eq(sg_transform_translate(scene, turn, 48, 40, 0), SG_OK);
		ck_assert_int_eq(sg_transform_rotate(scene, turn, 0.3f, 0, 0, 1), SG_OK);
		ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), turn), SG_OK);
		struct sg_model_desc md = {.position = {-20, -12, 0}};
		if (plain) {
			md.mesh = sg_mesh_create_quad(scene, 40, 24);
			md.texture = image;
		} else {
			md.mesh = sg_mesh_create_shape(scene, &desc);
			md.texture = sg_texture_create_shape(scene, &desc);
		}
		sg_node model = sg_node_new_model(scene, &md);
		ck_assert_int_eq(sg_node_add_child(scene, turn, model), SG_OK);
		r = renderer_of(false);
		got = render(r, scene, black);
		double sum = 0;
		int between = 0;
		for (int i = 0; i < W * H; i++) {
			sum += got[i * 4] / 255.0;
			between += got[i * 4] > 10 && got[i * 4] < 245;
		}
		ck_assert_msg(fabs(sum - 960) < 0.002 * 960 || plain, "coverage %.2f, area 960", sum);
		if (plain)
			ck_assert_int_eq(between, 0); /* aliased: each pixel all or nothing */
		else
			ck_assert_int_gt(between, 60);
		free(got);
		sg_renderer_destroy(r);
		sg_scene_destroy(scene);
	}
}
END_TEST

/* Updating the image repaints the shapes it fills as a full repaint draws
 * them; destroying it fails the render, naming the model. */
START_TEST(test_image_fill_follows_its_texture)
{
	struct sg_scene *scene = sg_scene_create();
	const uint8_t colours[4][3] = {{200, 0, 0}, {0, 200, 0}, {0, 0, 200}, {200, 200, 0}};
	sg_texture image = quadrants(scene, 8, 8, colours);
	struct sg_shape_desc desc = {.width = 30,
	                             .height = 20,
	                             .radii = {6, 6, 6, 6},
	                             .fill = {1, 1, 1, 0.8f},
	                             .border_width = 2,
	                             .border_color = {1, 1, 1, 1},
	                             .image = image};
	sg_texture t;
	sg_node model = add_shape(scene, &desc, 8, 8, &t);
	struct sg_renderer *damaged = renderer_of(true), *full = renderer_of(false);
	free(render(damaged, scene, black));
	static const uint8_t white[4 * 4 * 4] = {[0 ... 63] = 255};
	ck_assert_int_eq(sg_texture_update(scene, image, 0, 0, 4, 4, white, 0), SG_OK);
	uint8_t *a = render(damaged, scene, black), *b = render(full, scene, black);
	ck_assert_int_eq(memcmp(a, b, W * H * 4), 0);
	/* the top-left quadrant is white now: (15, 13) inside it, 0.8 of 255 */
	ck_assert_int_eq(a[(13 * W + 15) * 4 + 1], 204);
	free(a);
	free(b);
	/* a hidden model, and the image to come, made before: no structural
	 * edit comes between the failed render below and the new image */
	static const uint8_t red[4] = {255, 0, 0, 255};
	sg_texture plain = sg_texture_create(
	    scene, &(struct sg_texture_desc){.width = 1, .height = 1, .pixels = red});
	struct sg_model_desc md = {.mesh = sg_mesh_create_quad(scene, 10, 10), .texture = plain,
	                           .position = {60, 40, 0}};
	sg_node hidden = sg_node_new_model(scene, &md);
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), hidden), SG_OK);
	ck_assert_int_eq(sg_node_set_visible(scene, hidden, false), SG_OK);
	sg_texture next = quadrants(scene, 8, 8, colours);
	ck_assert_int_eq(sg_node_set_name(scene, model, "photo"), SG_OK);
	ck_assert_int_eq(sg_texture_destroy(scene, image), SG_OK);
	ck_assert_int_eq(sg_renderer_render(full, scene, NULL), SG_ERR_STALE_HANDLE);
	ck_assert_str_eq(sg_last_error(), "model 'photo' uses a destroyed texture");
	/* a new image brings the shape back, and the hidden model stays hidden */
	desc.image = next;
	ck_assert_int_eq(sg_texture_set_shape(scene, t, &desc), SG_OK);
	a = render(full, scene, black);
	ck_assert_int_eq(a[(45 * W + 65) * 4], 0); /* the hidden model is not drawn */
	ck_assert_int_eq(a[(13 * W + 15) * 4 + 0], 160); /* 200 at 0.8 */
	free(a);
	sg_renderer_destroy(damaged);
	sg_renderer_destroy(full);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_bad_shapes_are_refused)
{
	struct sg_scene *scene = sg_scene_create();
	const struct sg_shape_desc good = {.width = 20, .height = 10, .fill = {1, 1, 1, 1}};
	struct {
		struct sg_shape_desc desc;
		const char *fragment;
	} cases[8];
	for (int i = 0; i < 8; i++)
		cases[i].desc = good;
	cases[0].desc.width = 1e-45f; /* denormal: the margin over it would be infinite */
	cases[0].fragment = "shape size 1.4013e-45x10";
	cases[1].desc.radii[2] = -1;
	cases[1].fragment = "corner radius 2 = -1";
	cases[2].desc.fill[1] = 2;
	cases[2].fragment = "fill colour";
	cases[3].desc.gradient = SG_GRADIENT_LINEAR;
	cases[3].desc.stop_count = 1;
	cases[3].fragment = "1 gradient stops";
	cases[4].desc.gradient = SG_GRADIENT_RADIAL;
	cases[4].desc.stop_count = 2;
	cases[4].desc.stops[1].offset = 1;
	cases[4].fragment = "end is its start";
	cases[5].desc.blur = -2;
	cases[5].fragment = "blur -2 is negative";
	cases[6].desc.blur = 1;
	cases[6].desc.border_width = 1;
	cases[6].fragment = "no border or gradient";
	cases[7].desc.height = NAN;
	cases[7].fragment = "not in [0.001, 1e6]";
	for (int i = 0; i < 8; i++) {
		sg_texture t = sg_texture_create_shape(scene, &cases[i].desc);
		ck_assert_msg(!t.generation, "case %d made a shape", i);
		ck_assert_int_eq(sg_last_result(), SG_ERR_INVALID_ARGUMENT);
		ck_assert_msg(strstr(sg_last_error(), cases[i].fragment), "case %d: '%s' lacks '%s'", i,
		              sg_last_error(), cases[i].fragment);
	}
	sg_texture shape = sg_texture_create_shape(scene, &good);
	ck_assert(shape.generation);
	ck_assert_int_eq(sg_texture_set_shape(scene, shape, &cases[1].desc), SG_ERR_INVALID_ARGUMENT);
	struct sg_shape_desc kept;
	ck_assert_int_eq(sg_texture_get_shape(scene, shape, &kept), SG_OK);
	ck_assert_float_eq(kept.radii[2], 0); /* nothing changed */
	static const uint8_t texel[4] = {1, 2, 3, 4};
	ck_assert_int_eq(sg_texture_update(scene, shape, 0, 0, 1, 1, texel, 0),
	                 SG_ERR_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "sg_texture_set_shape"));
	sg_texture plain = sg_texture_create(
	    scene, &(struct sg_texture_desc){.width = 1, .height = 1, .pixels = texel});
	ck_assert_int_eq(sg_texture_set_shape(scene, plain, &good), SG_ERR_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "is not a shape"));
	ck_assert_int_eq(sg_texture_destroy(scene, shape), SG_OK);
	ck_assert_int_eq(sg_texture_set_shape(scene, shape, &good), SG_ERR_STALE_HANDLE);
	ck_assert_uint_eq(sg_texture_create_shape(NULL, &good).generation, 0);
	ck_assert_uint_eq(sg_texture_create_shape(scene, NULL).generation, 0);
	/* images: a shape, a stale texture, with a blur or a gradient */
	struct sg_shape_desc filled = good;
	sg_texture other = sg_texture_create_shape(scene, &good);
	filled.image = other;
	ck_assert_uint_eq(sg_texture_create_shape(scene, &filled).generation, 0);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "is a shape, not plain texels"));
	filled.image = shape; /* destroyed above */
	ck_assert_uint_eq(sg_texture_create_shape(scene, &filled).generation, 0);
	ck_assert_int_eq(sg_last_result(), SG_ERR_STALE_HANDLE);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "sg_texture_create_shape: image"));
	filled.image = plain;
	filled.blur = 2;
	ck_assert_uint_eq(sg_texture_create_shape(scene, &filled).generation, 0);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "no gradient or blur"));
	/* the mesh has no image: it is made whatever the image */
	filled.blur = 0;
	filled.image = shape; /* destroyed */
	ck_assert_uint_ne(sg_mesh_create_shape(scene, &filled).generation, 0);
	sg_scene_destroy(scene);
}
END_TEST

int main(void)
{
	Suite *suite = suite_create("shape");
	TCase *tc = tcase_create("shape");
	tcase_set_timeout(tc, 300); /* the references are slow under valgrind: 47 s in all */
	tcase_add_test(tc, test_rounded_rectangle_coverage);
	tcase_add_test(tc, test_circle_coverage);
	tcase_add_test(tc, test_border);
	tcase_add_test(tc, test_gradients);
	tcase_add_test(tc, test_shadows);
	tcase_add_test(tc, test_turned_shape_keeps_its_area);
	tcase_add_test(tc, test_square_corners_are_exact);
	tcase_add_test(tc, test_pick_inside_the_outline);
	tcase_add_test(tc, test_changed_shape_is_damaged);
	tcase_add_test(tc, test_image_fill);
	tcase_add_test(tc, test_image_fill_follows_its_texture);
	tcase_add_test(tc, test_bad_shapes_are_refused);
	suite_add_tcase(suite, tc);
	return check_run(suite);
}
