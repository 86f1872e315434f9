/* The animate layer (src/animate/, sg/animation.h): easing curves against
 * references computed another way here (the Bezier curve in power form
 * solved by bisection, CSS's own examples of steps(), the spring's equation
 * integrated numerically), and animators moving node properties by a clock
 * the test sets. No renderer: the values are read back from the scene. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <sg/sg.h>

#include "check_run.h"

#define SECOND 1000000000ull
#define T0 (5 * SECOND) /* any clock: not 0 */

/* --- curves ---------------------------------------------------------------- */

/* cubic-bezier(x1, y1, x2, y2) at progress x: the curve in power form,
 * a t^3 + b t^2 + c t, its t found by bisection (x(t) is monotonic for
 * x1, x2 in 0 .. 1). */
static double bezier_reference(double x1, double y1, double x2, double y2, double x)
{
	long double ax = 1 + 3.0L * x1 - 3.0L * x2, bx = 3.0L * x2 - 6.0L * x1, cx = 3.0L * x1;
	long double ay = 1 + 3.0L * y1 - 3.0L * y2, by = 3.0L * y2 - 6.0L * y1, cy = 3.0L * y1;
	long double low = 0, high = 1;
	for (int i = 0; i < 200; i++) {
		long double t = (low + high) / 2;
		if (((ax * t + bx) * t + cx) * t < x)
			low = t;
		else
			high = t;
	}
	long double t = (low + high) / 2;
	return (double)(((ay * t + by) * t + cy) * t);
}

START_TEST(test_cubic_bezier)
{
	static const float curves[][4] = {
	    {0.25f, 0.1f, 0.25f, 1},
	    {0.42f, 0, 1, 1},
	    {0, 0, 0.58f, 1},
	    {0.42f, 0, 0.58f, 1},
	    {0.1f, 0.6f, 0.7f, 0.2f},
	    {0.5f, -0.5f, 0.5f, 1.5f},
	    {0, 1, 1, 0},
	    /* steep, not vertical: (1, 0, 0, 1) has dx/dt = 0 at 0.5, where no reference in
	       double precision (valgrind's long double) agrees to 1e-6 */
	    {0.8f, 0.1f, 0.2f, 0.9f},
	};
	double worst = 0;
	for (size_t c = 0; c < sizeof(curves) / sizeof(curves[0]); c++) {
		const float *k = curves[c];
		struct sg_easing e = {
		    .kind = SG_EASING_CUBIC_BEZIER, .x1 = k[0], .y1 = k[1], .x2 = k[2], .y2 = k[3]};
		ck_assert_int_eq(sg_easing_check(&e), SG_OK);
		for (int i = 1; i < 200; i++) {
			double x = i / 200.0;
			double got = sg_easing_evaluate(&e, x * 3, 3); /* 3 s: progress x */
			double want = bezier_reference(k[0], k[1], k[2], k[3], x);
			worst = fmax(worst, fabs(got - want));
			ck_assert_msg(fabs(got - want) < 1e-6,
			              "cubic-bezier(%g, %g, %g, %g) at %g: %.9f, bisection %.9f",
			              k[0], k[1], k[2], k[3], x, got, want);
		}
		ck_assert(sg_easing_evaluate(&e, 0, 3) == 0);
		ck_assert(sg_easing_evaluate(&e, 3, 3) == 1);
		ck_assert(sg_easing_evaluate(&e, 7, 3) == 1);
		ck_assert(sg_easing_evaluate(&e, -1, 3) == 0);
	}
	printf("cubic-bezier: largest difference from bisection %.2e\n", worst);
	/* the named ones are CSS's */
	struct sg_easing e;
	ck_assert_int_eq(sg_easing_named("ease", &e), SG_OK);
	ck_assert(e.kind == SG_EASING_CUBIC_BEZIER && e.x1 == 0.25f && e.y1 == 0.1f &&
	          e.x2 == 0.25f && e.y2 == 1);
	ck_assert_int_eq(sg_easing_named("ease-in-out", &e), SG_OK);
	ck_assert_double_eq_tol(sg_easing_evaluate(&e, 0.5, 1), 0.5,
	                        1e-6); /* symmetric (in float) */
	ck_assert_int_eq(sg_easing_named("ease-in", &e), SG_OK);
	ck_assert(e.x1 == 0.42f && e.y1 == 0 && e.x2 == 1 && e.y2 == 1);
	ck_assert_int_eq(sg_easing_named("ease-out", &e), SG_OK);
	ck_assert(e.x1 == 0 && e.y1 == 0 && e.x2 == 0.58f && e.y2 == 1);
	ck_assert_int_eq(sg_easing_named("bounce", &e), SG_ERR_INVALID_ARGUMENT);
	ck_assert_msg(strstr(sg_last_error(), "unknown curve"), "%s", sg_last_error());
	ck_assert_int_eq(sg_easing_named("linear", &e), SG_OK);
	ck_assert_double_eq_tol(sg_easing_evaluate(&e, 0.3, 1), 0.3, 1e-12);
}
END_TEST

START_TEST(test_steps)
{
	/* CSS Easing Functions Level 1, 3.1.1's pictures, read at a few inputs */
	static const struct {
		int steps;
		enum sg_steps_position position;
		double at, want;
	} cases[] = {
	    {4, SG_STEPS_JUMP_END, 0.1, 0},     {4, SG_STEPS_JUMP_END, 0.3, 0.25},
	    {4, SG_STEPS_JUMP_END, 0.99, 0.75}, {4, SG_STEPS_JUMP_START, 0.01, 0.25},
	    {4, SG_STEPS_JUMP_START, 0.3, 0.5}, {4, SG_STEPS_JUMP_START, 0.76, 1},
	    {5, SG_STEPS_JUMP_NONE, 0.1, 0},    {5, SG_STEPS_JUMP_NONE, 0.5, 0.5},
	    {5, SG_STEPS_JUMP_NONE, 0.9, 1},    {3, SG_STEPS_JUMP_BOTH, 0.1, 0.25},
	    {3, SG_STEPS_JUMP_BOTH, 0.5, 0.5},  {3, SG_STEPS_JUMP_BOTH, 0.9, 0.75},
	    {1, SG_STEPS_JUMP_START, 0.5, 1},   {1, SG_STEPS_JUMP_END, 0.5, 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sg_easing e = {.kind = SG_EASING_STEPS,
		                      .steps = cases[i].steps,
		                      .position = cases[i].position};
		ck_assert_int_eq(sg_easing_check(&e), SG_OK);
		double got = sg_easing_evaluate(&e, cases[i].at * 2, 2);
		ck_assert_msg(got == cases[i].want, "steps(%d, position %d) at %g: %g, not %g",
		              cases[i].steps, (int)cases[i].position, cases[i].at, got,
		              cases[i].want);
	}
	struct sg_easing e;
	ck_assert_int_eq(sg_easing_named("step-start", &e), SG_OK);
	ck_assert(sg_easing_evaluate(&e, 0.001, 1) == 1);
	ck_assert_int_eq(sg_easing_named("step-end", &e), SG_OK);
	ck_assert(sg_easing_evaluate(&e, 0.999, 1) == 0);
	/* jump-none needs two steps: refused, and linear meanwhile */
	e = (struct sg_easing){.kind = SG_EASING_STEPS, .steps = 1, .position = SG_STEPS_JUMP_NONE};
	ck_assert_int_eq(sg_easing_check(&e), SG_ERR_INVALID_ARGUMENT);
	ck_assert_double_eq_tol(sg_easing_evaluate(&e, 0.3, 1), 0.3, 1e-12);
	e.steps = 0;
	e.position = SG_STEPS_JUMP_END;
	ck_assert_int_eq(sg_easing_check(&e), SG_ERR_INVALID_ARGUMENT);
}
END_TEST

/* CSS Easing Functions Level 1, 3.1.1 (step easing functions), its algorithm
 * step by step: input is the input progress value, before the before flag. */
static double css_steps(int steps, enum sg_steps_position position, double input, bool before)
{
	double scaled = input * steps;
	double current = floor(scaled);
	if (position == SG_STEPS_JUMP_START || position == SG_STEPS_JUMP_BOTH)
		current += 1;
	if (before && fmod(scaled, 1) == 0)
		current -= 1;
	if (input >= 0 && current < 0)
		current = 0;
	int jumps = position == SG_STEPS_JUMP_NONE   ? steps - 1
	            : position == SG_STEPS_JUMP_BOTH ? steps + 1
	                                             : steps;
	if (input <= 1 && current > jumps)
		current = jumps;
	return current / jumps;
}

/* Every position at many times, the jumps' own instants among them, against
 * the spec's algorithm. An animation's phases as CSS's: before its start (a
 * negative elapsed time) the before phase, its start value held (input 0,
 * the before flag set); from 0 (included: jump-start is at 1/n there) to the
 * duration the active phase; after it the after phase (input 1). */
START_TEST(test_steps_follow_css)
{
	static const enum sg_steps_position positions[] = {SG_STEPS_JUMP_END, SG_STEPS_JUMP_START,
	                                                   SG_STEPS_JUMP_NONE, SG_STEPS_JUMP_BOTH};
	for (int p = 0; p < 4; p++)
		for (int steps = positions[p] == SG_STEPS_JUMP_NONE ? 2 : 1; steps <= 7; steps++) {
			struct sg_easing e = {
			    .kind = SG_EASING_STEPS, .steps = steps, .position = positions[p]};
			ck_assert_int_eq(sg_easing_check(&e), SG_OK);
			/* duration: steps * 12 s, so that every jump is at a whole second */
			double duration = steps * 12.0;
			for (int k = -30; k <= 24 * steps + 30; k++) {
				double elapsed = k * 0.5; /* jumps and the points between them */
				double want =
				    elapsed < 0 ? css_steps(steps, positions[p], 0, true)
				    : elapsed >= duration
				        ? css_steps(steps, positions[p], 1, false)
				        : css_steps(steps, positions[p], elapsed / duration, false);
				double got = sg_easing_evaluate(&e, elapsed, duration);
				ck_assert_msg(
				    got == want, "steps(%d, position %d) at %g of %g s: %g, not %g",
				    steps, (int)positions[p], elapsed, duration, got, want);
			}
		}
	/* the caveat of the spec's own example: jump-start at input 0 is 1/n */
	struct sg_easing start = {
	    .kind = SG_EASING_STEPS, .steps = 4, .position = SG_STEPS_JUMP_START};
	ck_assert(sg_easing_evaluate(&start, 0, 1) == 0.25);
	ck_assert(sg_easing_evaluate(&start, -0.5, 1) == 0);
	ck_assert_int_eq(sg_easing_named("step-start", &start), SG_OK);
	ck_assert(sg_easing_evaluate(&start, 0, 1) == 1);
}
END_TEST

/* m x'' + c x' + k (x - 1) = 0 from rest at 0, by fourth-order Runge-Kutta. */
static double spring_reference(double k, double c, double m, double until)
{
	double x = 0, v = 0, dt = 1e-5;
	int n = (int)llround(until / dt);
	for (int i = 0; i < n; i++) {
#define ACCEL(px, pv) ((-(k) * ((px)-1) - (c) * (pv)) / (m))
		double k1x = v, k1v = ACCEL(x, v);
		double k2x = v + dt / 2 * k1v, k2v = ACCEL(x + dt / 2 * k1x, v + dt / 2 * k1v);
		double k3x = v + dt / 2 * k2v, k3v = ACCEL(x + dt / 2 * k2x, v + dt / 2 * k2v);
		double k4x = v + dt * k3v, k4v = ACCEL(x + dt * k3x, v + dt * k3v);
#undef ACCEL
		x += dt / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);
		v += dt / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
	}
	return x;
}

START_TEST(test_spring)
{
	static const float springs[][3] = {
	    {100, 10, 1}, /* under-damped: overshoots */
	    {100, 20, 1}, /* critically damped */
	    {100, 60, 2}, /* over-damped */
	    {170, 26, 0}, /* mass 0 means 1 */
	    {50, 0, 1},   /* undamped: oscillates */
	};
	bool overshot = false;
	for (size_t s = 0; s < sizeof(springs) / sizeof(springs[0]); s++) {
		struct sg_easing e = {.kind = SG_EASING_SPRING,
		                      .stiffness = springs[s][0],
		                      .damping = springs[s][1],
		                      .mass = springs[s][2]};
		ck_assert_int_eq(sg_easing_check(&e), SG_OK);
		double mass = springs[s][2] > 0 ? springs[s][2] : 1;
		for (int i = 1; i <= 10; i++) {
			double t = i * 0.07;
			double got = sg_easing_evaluate(&e, t, 10);
			double want = spring_reference(springs[s][0], springs[s][1], mass, t);
			overshot |= got > 1;
			ck_assert_msg(fabs(got - want) < 1e-6,
			              "spring k %g c %g m %g at %g s: %.9f, integrated %.9f",
			              springs[s][0], springs[s][1], springs[s][2], t, got, want);
		}
		ck_assert(sg_easing_evaluate(&e, 10, 10) == 1); /* set at the end */
	}
	ck_assert(overshot);
	struct sg_easing bad = {.kind = SG_EASING_SPRING, .stiffness = 0, .damping = 1};
	ck_assert_int_eq(sg_easing_check(&bad), SG_ERR_INVALID_ARGUMENT);
	ck_assert_msg(strstr(sg_last_error(), "stiffness 0 must be > 0"), "%s", sg_last_error());
	struct sg_easing bezier = {.kind = SG_EASING_CUBIC_BEZIER, .x1 = 1.5f, .x2 = 0.5f};
	ck_assert_int_eq(sg_easing_check(&bezier), SG_ERR_INVALID_ARGUMENT);
	ck_assert_double_eq_tol(sg_easing_evaluate(&bezier, 0.25, 1), 0.25, 1e-12);
}
END_TEST

/* --- animators ------------------------------------------------------------- */

struct ends {
	int count, finished;
	sg_animation last;
	/* what on_end does: start this desc (a loop), or nothing */
	const struct sg_animation_desc *restart;
};

static void on_end(struct sg_animator *animator, sg_animation animation, bool finished,
                   void *user_data)
{
	struct ends *ends = user_data;
	ends->count++;
	ends->finished += finished;
	ends->last = animation;
	if (ends->restart && finished)
		ck_assert_uint_ne(sg_animator_start(animator, ends->restart), 0);
}

static float opacity_of(struct sg_scene *scene, sg_node node)
{
	float value = -1;
	ck_assert_int_eq(sg_node_get_opacity(scene, node, &value), SG_OK);
	return value;
}

static sg_node new_model(struct sg_scene *scene)
{
	sg_mesh mesh = sg_mesh_create_quad(scene, 10, 10);
	sg_node node = sg_node_new_model(scene, &(struct sg_model_desc){.mesh = mesh});
	ck_assert_int_ne(node.generation, 0);
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), node), SG_OK);
	return node;
}

START_TEST(test_fade_and_transition)
{
	struct sg_scene *scene = sg_scene_create();
	struct sg_animator *animator = sg_animator_create(scene);
	ck_assert_ptr_nonnull(animator);
	sg_node node = new_model(scene);
	struct ends ends = {0};
	sg_animation fade =
	    sg_animator_start(animator, &(struct sg_animation_desc){.node = node,
	                                                            .property = SG_ANIMATE_OPACITY,
	                                                            .to = {0},
	                                                            .duration = 1,
	                                                            .on_end = on_end,
	                                                            .user_data = &ends});
	ck_assert_msg(fade, "%s", sg_last_error());
	ck_assert_int_eq(sg_animator_count(animator), 1);
	ck_assert_float_eq(opacity_of(scene, node), 1); /* not before the first tick */
	ck_assert_int_eq(sg_animator_tick(animator, T0), SG_OK);
	ck_assert_float_eq(opacity_of(scene, node), 1);
	ck_assert_int_eq(sg_animator_tick(animator, T0 + SECOND / 4), SG_OK);
	ck_assert_float_eq_tol(opacity_of(scene, node), 0.75f, 1e-6f);
	ck_assert_int_eq(ends.count, 0);
	ck_assert_int_eq(sg_animator_tick(animator, T0 + SECOND), SG_OK);
	ck_assert_float_eq(opacity_of(scene, node), 0);
	ck_assert_int_eq(ends.count, 1);
	ck_assert_int_eq(ends.finished, 1);
	ck_assert_uint_eq(ends.last, fade);
	ck_assert_int_eq(sg_animator_count(animator), 0);
	ck_assert_int_eq(sg_animator_cancel(animator, fade), SG_ERR_NOT_FOUND);

	/* A transition from the current value, replaced halfway: the next one
	 * starts where the first got to. */
	ck_assert_int_eq(sg_node_set_opacity(scene, node, 0.2f), SG_OK);
	struct sg_animation_desc up = {.node = node,
	                               .property = SG_ANIMATE_OPACITY,
	                               .to = {1},
	                               .duration = 2,
	                               .on_end = on_end,
	                               .user_data = &ends};
	sg_animation first = sg_animator_start(animator, &up);
	ck_assert_int_eq(sg_animator_tick(animator, T0 + 2 * SECOND), SG_OK);
	ck_assert_int_eq(sg_animator_tick(animator, T0 + 3 * SECOND), SG_OK);
	ck_assert_float_eq_tol(opacity_of(scene, node), 0.6f, 1e-6f);
	struct sg_animation_desc down = up;
	down.to[0] = 0;
	down.duration = 1;
	sg_animation second = sg_animator_start(animator, &down);
	ck_assert_int_eq(ends.count, 2); /* the first ended, unfinished */
	ck_assert_int_eq(ends.finished, 1);
	ck_assert_uint_eq(ends.last, first);
	ck_assert_int_eq(sg_animator_count(animator), 1);
	ck_assert_int_eq(sg_animator_tick(animator, T0 + 3 * SECOND), SG_OK); /* same time: fine */
	ck_assert_float_eq_tol(opacity_of(scene, node), 0.6f, 1e-6f);
	ck_assert_int_eq(sg_animator_tick(animator, T0 + 3 * SECOND + SECOND / 2), SG_OK);
	ck_assert_float_eq_tol(opacity_of(scene, node), 0.3f, 1e-6f);
	/* the clock must not go back */
	ck_assert_int_eq(sg_animator_tick(animator, T0), SG_ERR_INVALID_ARGUMENT);
	ck_assert_msg(strstr(sg_last_error(), "went back"), "%s", sg_last_error());
	/* cancelled: left where it is */
	ck_assert_int_eq(sg_animator_cancel(animator, second), SG_OK);
	ck_assert_int_eq(ends.count, 3);
	ck_assert_float_eq_tol(opacity_of(scene, node), 0.3f, 1e-6f);
	ck_assert_int_eq(sg_animator_tick(animator, T0 + 9 * SECOND), SG_OK);
	ck_assert_float_eq_tol(opacity_of(scene, node), 0.3f, 1e-6f);
	sg_animator_destroy(animator);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_delay_colour_and_easing)
{
	struct sg_scene *scene = sg_scene_create();
	struct sg_animator *animator = sg_animator_create(scene);
	sg_node node = new_model(scene);
	ck_assert_int_eq(sg_model_set_color(scene, node, 0, 0.5f, 1, 1), SG_OK);
	struct sg_easing ease;
	ck_assert_int_eq(sg_easing_named("ease", &ease), SG_OK);
	ck_assert(
	    sg_animator_start(animator, &(struct sg_animation_desc){.node = node,
	                                                            .property = SG_ANIMATE_COLOR,
	                                                            .to = {1, 0, 0, 0.5f},
	                                                            .duration = 2,
	                                                            .delay = 0.5,
	                                                            .easing = ease}));
	float rgba[4];
	ck_assert_int_eq(sg_animator_tick(animator, T0), SG_OK);
	ck_assert_int_eq(sg_animator_tick(animator, T0 + SECOND * 4 / 10),
	                 SG_OK); /* in the delay */
	ck_assert_int_eq(sg_model_get_color(scene, node, rgba), SG_OK);
	ck_assert(rgba[0] == 0 && rgba[1] == 0.5f && rgba[2] == 1 && rgba[3] == 1);
	ck_assert_int_eq(sg_animator_tick(animator, T0 + SECOND * 3 / 2), SG_OK); /* half of 2 s */
	ck_assert_int_eq(sg_model_get_color(scene, node, rgba), SG_OK);
	double eased = bezier_reference(0.25, 0.1, 0.25, 1, 0.5);
	const float from[4] = {0, 0.5f, 1, 1}, to[4] = {1, 0, 0, 0.5f};
	for (int c = 0; c < 4; c++)
		ck_assert_msg(fabs(rgba[c] - (from[c] + (to[c] - from[c]) * eased)) < 1e-5,
		              "component %d: %g, eased %g", c, rgba[c], eased);
	ck_assert_int_eq(sg_animator_tick(animator, T0 + 3 * SECOND), SG_OK);
	ck_assert_int_eq(sg_model_get_color(scene, node, rgba), SG_OK);
	ck_assert(rgba[0] == 1 && rgba[1] == 0 && rgba[2] == 0 && rgba[3] == 0.5f);

	/* a springy opacity overshoots, but stays within 0 .. 1 */
	struct sg_animation_desc spring = {
	    .node = node,
	    .property = SG_ANIMATE_OPACITY,
	    .from_set = true,
	    .from = {0},
	    .to = {1},
	    .duration = 3,
	    .easing = {.kind = SG_EASING_SPRING, .stiffness = 100, .damping = 4, .mass = 1}};
	ck_assert(sg_animator_start(animator, &spring));
	bool reached = false;
	for (uint64_t t = 0; t <= 3 * SECOND; t += SECOND / 50) {
		ck_assert_int_eq(sg_animator_tick(animator, T0 + 4 * SECOND + t), SG_OK);
		float o = opacity_of(scene, node);
		ck_assert(o >= 0 && o <= 1);
		reached |= o == 1 && t < 3 * SECOND;
	}
	ck_assert(reached); /* the overshoot, clamped */
	ck_assert_int_eq(sg_animator_count(animator), 0);
	sg_animator_destroy(animator);
	sg_scene_destroy(scene);
}
END_TEST

static void get_matrix(struct sg_scene *scene, sg_node node, float m[16])
{
	ck_assert_int_eq(sg_transform_get_matrix(scene, node, m), SG_OK);
}

START_TEST(test_transforms)
{
	struct sg_scene *scene = sg_scene_create();
	struct sg_animator *animator = sg_animator_create(scene);
	sg_node t = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
	ck_assert_int_ne(t.generation, 0);
	/* scaled 2 x 3, turned 30 degrees, at (5, 6, 7) */
	ck_assert_int_eq(sg_transform_translate(scene, t, 5, 6, 7), SG_OK);
	ck_assert_int_eq(sg_transform_rotate(scene, t, (float)(M_PI / 6), 0, 0, 1), SG_OK);
	ck_assert_int_eq(sg_transform_scale(scene, t, 2, 3, 1), SG_OK);
	float before[16], m[16];
	get_matrix(scene, t, before);

	/* translation: only the last column moves */
	ck_assert(sg_animator_start(
	    animator,
	    &(struct sg_animation_desc){
	        .node = t, .property = SG_ANIMATE_TRANSLATION, .to = {15, 26, 7}, .duration = 1}));
	ck_assert_int_eq(sg_animator_tick(animator, T0), SG_OK);
	ck_assert_int_eq(sg_animator_tick(animator, T0 + SECOND / 2), SG_OK);
	get_matrix(scene, t, m);
	ck_assert_float_eq_tol(m[12], 10, 1e-5f);
	ck_assert_float_eq_tol(m[13], 16, 1e-5f);
	ck_assert_float_eq_tol(m[14], 7, 1e-5f);
	ck_assert_int_eq(memcmp(m, before, 12 * sizeof(float)), 0);

	/* rotation from 30 to 90 degrees (in radians): at half, 60, the lengths 2 and 3 kept */
	ck_assert(
	    sg_animator_start(animator, &(struct sg_animation_desc){.node = t,
	                                                            .property = SG_ANIMATE_ROTATION,
	                                                            .to = {(float)(M_PI / 2)},
	                                                            .duration = 1}));
	ck_assert_int_eq(sg_animator_tick(animator, T0 + SECOND), SG_OK);
	ck_assert_int_eq(sg_animator_tick(animator, T0 + SECOND * 3 / 2), SG_OK);
	get_matrix(scene, t, m);
	double c = cos(60 * M_PI / 180), s = sin(60 * M_PI / 180);
	const double want[8] = {2 * c, 2 * s, 0, 0, -3 * s, 3 * c, 0, 0};
	for (int i = 0; i < 8; i++)
		ck_assert_msg(fabs(m[i] - want[i]) < 1e-5, "m[%d] = %g, not %g", i, m[i], want[i]);
	ck_assert_float_eq_tol(m[12], 15, 1e-5f); /* the translation reached its target */
	ck_assert_float_eq_tol(m[13], 26, 1e-5f);

	/* scale x from 2 to 4 along the turned axis */
	ck_assert(sg_animator_start(
	    animator,
	    &(struct sg_animation_desc){
	        .node = t, .property = SG_ANIMATE_SCALE, .to = {4, 3, 1}, .duration = 0.5}));
	ck_assert_int_eq(sg_animator_tick(animator, T0 + 2 * SECOND), SG_OK);
	ck_assert_int_eq(sg_animator_tick(animator, T0 + 3 * SECOND), SG_OK);
	ck_assert_int_eq(sg_animator_count(animator), 0);
	get_matrix(scene, t, m);
	c = cos(M_PI / 2), s = sin(M_PI / 2);
	const double scaled[8] = {4 * c, 4 * s, 0, 0, -3 * s, 3 * c, 0, 0};
	for (int i = 0; i < 8; i++)
		ck_assert_msg(fabs(m[i] - scaled[i]) < 1e-5, "m[%d] = %g, not %g", i, m[i],
		              scaled[i]);
	sg_animator_destroy(animator);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_refusals)
{
	struct sg_scene *scene = sg_scene_create(), *other = sg_scene_create();
	struct sg_animator *animator = sg_animator_create(scene);
	sg_node model = new_model(scene),
	        t = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
	struct sg_animation_desc desc = {.node = model, .property = SG_ANIMATE_OPACITY, .to = {1}};
	desc.to[0] = 1.5f;
	ck_assert_uint_eq(sg_animator_start(animator, &desc), 0);
	ck_assert_int_eq(sg_last_result(), SG_ERR_INVALID_ARGUMENT);
	ck_assert_msg(strstr(sg_last_error(), "opacity's target value 0 is 1.5: outside 0 .. 1"),
	              "%s", sg_last_error());
	desc.to[0] = 1;
	desc.duration = -1;
	ck_assert_uint_eq(sg_animator_start(animator, &desc), 0);
	desc.duration = NAN;
	ck_assert_uint_eq(sg_animator_start(animator, &desc), 0);
	desc.duration = 1;
	desc.easing = (struct sg_easing){.kind = SG_EASING_STEPS, .steps = 0};
	ck_assert_uint_eq(sg_animator_start(animator, &desc), 0);
	ck_assert_msg(strstr(sg_last_error(), "steps(0)"), "%s", sg_last_error());
	desc.easing = (struct sg_easing){0};
	desc.property = SG_ANIMATE_COLOR; /* a transform has no colour */
	desc.node = t;
	ck_assert_uint_eq(sg_animator_start(animator, &desc), 0);
	ck_assert_msg(strstr(sg_last_error(), "the node has no colour"), "%s", sg_last_error());
	desc.property = SG_ANIMATE_SCALE; /* nor a model a matrix */
	desc.node = model;
	ck_assert_uint_eq(sg_animator_start(animator, &desc), 0);
	desc.node = sg_scene_root(other);
	desc.property = SG_ANIMATE_OPACITY;
	ck_assert_uint_eq(sg_animator_start(animator, &desc), 0);
	ck_assert_int_eq(sg_last_result(), SG_ERR_FOREIGN_HANDLE);
	ck_assert_int_eq(sg_animator_count(animator), 0);
	ck_assert_ptr_null(sg_animator_create(NULL));
	ck_assert_int_eq(sg_animator_tick(NULL, 0), SG_ERR_INVALID_ARGUMENT);

	/* the node destroyed while it runs: the animation ends, unfinished */
	struct ends ends = {0};
	desc = (struct sg_animation_desc){.node = model,
	                                  .property = SG_ANIMATE_OPACITY,
	                                  .to = {0},
	                                  .duration = 1,
	                                  .on_end = on_end,
	                                  .user_data = &ends};
	ck_assert(sg_animator_start(animator, &desc));
	ck_assert_int_eq(sg_animator_tick(animator, T0), SG_OK);
	ck_assert_int_eq(sg_node_destroy(scene, model), SG_OK);
	ck_assert_int_eq(sg_animator_tick(animator, T0 + SECOND / 2), SG_OK);
	ck_assert_int_eq(ends.count, 1);
	ck_assert_int_eq(ends.finished, 0);
	ck_assert_int_eq(sg_animator_count(animator), 0);
	/* a destroyed node's handle, refused at the start */
	ck_assert_uint_eq(sg_animator_start(animator, &desc), 0);
	ck_assert_int_eq(sg_last_result(), SG_ERR_STALE_HANDLE);
	sg_animator_destroy(animator);
	sg_scene_destroy(other);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_callbacks_loop_and_destroy)
{
	struct sg_scene *scene = sg_scene_create();
	struct sg_animator *animator = sg_animator_create(scene);
	sg_node node = new_model(scene);
	/* on_end starts the next round: a pulse that goes on until destroyed */
	struct ends ends = {0};
	struct sg_animation_desc pulse = {.node = node,
	                                  .property = SG_ANIMATE_OPACITY,
	                                  .from_set = true,
	                                  .from = {1},
	                                  .to = {0},
	                                  .duration = 1,
	                                  .on_end = on_end,
	                                  .user_data = &ends};
	ends.restart = &pulse;
	ck_assert(sg_animator_start(animator, &pulse));
	for (int s = 0; s <= 3; s++)
		ck_assert_int_eq(sg_animator_tick(animator, T0 + (uint64_t)s * SECOND), SG_OK);
	/* ends at 1, 2, 3 s: each restarted at the next tick, the third not ticked yet */
	ck_assert_int_eq(ends.finished, 2);
	ck_assert_int_eq(sg_animator_count(animator), 1);
	ck_assert_int_eq(sg_animator_tick(animator, T0 + 3 * SECOND + SECOND / 4), SG_OK);
	ck_assert_float_eq_tol(opacity_of(scene, node), 1, 1e-6f); /* started at 3.25 s */
	ck_assert_int_eq(sg_animator_tick(animator, T0 + 3 * SECOND + SECOND / 2), SG_OK);
	ck_assert_float_eq_tol(opacity_of(scene, node), 0.75f, 1e-6f);
	int before = ends.count;
	sg_animator_destroy(animator); /* ends it, unfinished: no restart */
	ck_assert_int_eq(ends.count, before + 1);
	ck_assert_int_eq(ends.finished, 2);
	sg_animator_destroy(NULL);
	sg_scene_destroy(scene);
}
END_TEST

/* on_end that starts again what was replaced: the replacing start ends that
 * one too, so one animation at most moves a property. */
static void restart_unfinished(struct sg_animator *animator, sg_animation animation, bool finished,
                               void *user_data)
{
	(void)animation;
	struct ends *ends = user_data;
	ends->count++;
	if (!finished && ends->count == 1)
		ck_assert_uint_ne(sg_animator_start(animator, ends->restart), 0);
}

START_TEST(test_zero_duration_and_nested_replace)
{
	struct sg_scene *scene = sg_scene_create();
	struct sg_animator *animator = sg_animator_create(scene);
	sg_node node = new_model(scene);
	struct ends ends = {0};
	/* duration 0: the target at the first tick, finished */
	ck_assert(
	    sg_animator_start(animator, &(struct sg_animation_desc){.node = node,
	                                                            .property = SG_ANIMATE_OPACITY,
	                                                            .to = {0.25f},
	                                                            .on_end = on_end,
	                                                            .user_data = &ends}));
	ck_assert_int_eq(sg_animator_tick(animator, T0), SG_OK);
	ck_assert_float_eq(opacity_of(scene, node), 0.25f);
	ck_assert_int_eq(ends.finished, 1);
	/* and after a delay, met exactly at its end */
	ck_assert(
	    sg_animator_start(animator, &(struct sg_animation_desc){.node = node,
	                                                            .property = SG_ANIMATE_OPACITY,
	                                                            .to = {0.5f},
	                                                            .delay = 1,
	                                                            .on_end = on_end,
	                                                            .user_data = &ends}));
	ck_assert_int_eq(sg_animator_tick(animator, T0 + SECOND), SG_OK);
	ck_assert_int_eq(sg_animator_tick(animator, T0 + 2 * SECOND), SG_OK);
	ck_assert_float_eq(opacity_of(scene, node), 0.5f);
	ck_assert_int_eq(ends.finished, 2);

	struct ends nested = {0};
	struct sg_animation_desc again = {
	    .node = node, .property = SG_ANIMATE_OPACITY, .to = {1}, .duration = 10};
	nested.restart = &again;
	struct sg_animation_desc first = again;
	first.on_end = restart_unfinished;
	first.user_data = &nested;
	ck_assert(sg_animator_start(animator, &first));
	struct sg_animation_desc target = again;
	target.to[0] = 0;
	target.duration = 1;
	ck_assert(sg_animator_start(animator, &target)); /* replaces first, whose on_end restarts */
	ck_assert_int_eq(nested.count, 1);
	ck_assert_int_eq(sg_animator_count(animator), 1); /* the restart was replaced too */
	ck_assert_int_eq(sg_animator_tick(animator, T0 + 3 * SECOND), SG_OK);
	ck_assert_int_eq(sg_animator_tick(animator, T0 + 4 * SECOND), SG_OK);
	ck_assert_float_eq(opacity_of(scene, node), 0);
	sg_animator_destroy(animator);
	sg_scene_destroy(scene);
}
END_TEST

static Suite *animate_suite(void)
{
	Suite *suite = suite_create("animate");
	TCase *curves = tcase_create("curves");
	tcase_add_test(curves, test_cubic_bezier);
	tcase_add_test(curves, test_steps);
	tcase_add_test(curves, test_steps_follow_css);
	tcase_add_test(curves, test_spring);
	suite_add_tcase(suite, curves);
	TCase *animators = tcase_create("animators");
	tcase_add_test(animators, test_fade_and_transition);
	tcase_add_test(animators, test_delay_colour_and_easing);
	tcase_add_test(animators, test_transforms);
	tcase_add_test(animators, test_refusals);
	tcase_add_test(animators, test_callbacks_loop_and_destroy);
	tcase_add_test(animators, test_zero_duration_and_nested_replace);
	suite_add_tcase(suite, animators);
	return suite;
}

int main(void)
{
	return check_run(animate_suite());
}
