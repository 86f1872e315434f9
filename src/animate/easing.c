/* Easing curves: CSS Easing Functions Level 1 (linear, cubic-bezier(),
 * steps()) and a damped spring in closed form. */
#include <math.h>
#include <string.h>

#include <sg/animation.h>

#include "../base/error.h"

sg_result sg_easing_named(const char *name, struct sg_easing *easing)
{
	static const struct {
		const char *name;
		struct sg_easing easing;
	} named[] = {
	    {"linear", {.kind = SG_EASING_LINEAR}},
	    {"ease",
	     {.kind = SG_EASING_CUBIC_BEZIER, .x1 = 0.25f, .y1 = 0.1f, .x2 = 0.25f, .y2 = 1}},
	    {"ease-in", {.kind = SG_EASING_CUBIC_BEZIER, .x1 = 0.42f, .y1 = 0, .x2 = 1, .y2 = 1}},
	    {"ease-out", {.kind = SG_EASING_CUBIC_BEZIER, .x1 = 0, .y1 = 0, .x2 = 0.58f, .y2 = 1}},
	    {"ease-in-out",
	     {.kind = SG_EASING_CUBIC_BEZIER, .x1 = 0.42f, .y1 = 0, .x2 = 0.58f, .y2 = 1}},
	    {"step-start", {.kind = SG_EASING_STEPS, .steps = 1, .position = SG_STEPS_JUMP_START}},
	    {"step-end", {.kind = SG_EASING_STEPS, .steps = 1, .position = SG_STEPS_JUMP_END}},
	};
	if (!name || !easing)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_easing_named: %s is NULL",
		               name ? "easing" : "name");
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (strcmp(name, named[i].name) == 0) {
			*easing = named[i].easing;
			return SG_OK;
		}
	return sg_fail(SG_ERR_INVALID_ARGUMENT,
	               "sg_easing_named: unknown curve (linear, ease, ease-in, ease-out, "
	               "ease-in-out, step-start, step-end)");
}

sg_result sg_easing_check(const struct sg_easing *easing)
{
	if (!easing)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "easing is NULL");
	switch (easing->kind) {
	case SG_EASING_LINEAR: return SG_OK;
	case SG_EASING_CUBIC_BEZIER:
		if (!(easing->x1 >= 0 && easing->x1 <= 1 && easing->x2 >= 0 && easing->x2 <= 1) ||
		    !isfinite(easing->y1) || !isfinite(easing->y2))
			return sg_fail(
			    SG_ERR_INVALID_ARGUMENT,
			    "cubic-bezier(%g, %g, %g, %g): x1 and x2 must lie in 0 .. 1, y1 "
			    "and y2 be finite",
			    easing->x1, easing->y1, easing->x2, easing->y2);
		return SG_OK;
	case SG_EASING_STEPS: {
		int least = easing->position == SG_STEPS_JUMP_NONE ? 2 : 1;
		if (easing->position < SG_STEPS_JUMP_END || easing->position > SG_STEPS_JUMP_BOTH)
			return sg_fail(SG_ERR_INVALID_ARGUMENT, "steps(): unknown position %d",
			               (int)easing->position);
		if (easing->steps < least || easing->steps > 1000000)
			return sg_fail(SG_ERR_INVALID_ARGUMENT,
			               "steps(%d): at least %d step%s, at most 1000000",
			               easing->steps, least, least > 1 ? "s with jump-none" : "");
		return SG_OK;
	}
	case SG_EASING_SPRING:
		if (!(easing->stiffness > 0 && isfinite(easing->stiffness)) ||
		    !(easing->damping >= 0 && isfinite(easing->damping)) ||
		    !(easing->mass >= 0 && isfinite(easing->mass)))
			return sg_fail(
			    SG_ERR_INVALID_ARGUMENT,
			    "spring: stiffness %g must be > 0, damping %g >= 0, mass %g >= 0 "
			    "(0: 1)",
			    easing->stiffness, easing->damping, easing->mass);
		return SG_OK;
	}
	return sg_fail(SG_ERR_INVALID_ARGUMENT, "unknown easing kind %d", (int)easing->kind);
}

/* One coordinate of the curve from (0, 0) to (1, 1) through controls a, b. */
static double bezier(double a, double b, double t)
{
	double u = 1 - t;
	return 3 * u * u * t * a + 3 * u * t * t * b + t * t * t;
}

static double bezier_slope(double a, double b, double t)
{
	double u = 1 - t;
	return 3 * u * u * a + 6 * u * t * (b - a) + 3 * t * t * (1 - b);
}

/* y where the curve's x is progress: x(t) rises monotonically for controls
 * in 0 .. 1, so Newton's method from t = x, and bisection where the slope is
 * too flat for it. */
static double cubic_bezier(const struct sg_easing *e, double progress)
{
	double t = progress;
	for (int i = 0; i < 8; i++) {
		double error = bezier(e->x1, e->x2, t) - progress;
		if (fabs(error) < 1e-9)
			return bezier(e->y1, e->y2, t);
		double slope = bezier_slope(e->x1, e->x2, t);
		if (fabs(slope) < 1e-6)
			break;
		t -= error / slope;
	}
	double low = 0, high = 1;
	t = progress;
	for (int i = 0; i < 60 && high - low > 1e-12; i++) {
		if (bezier(e->x1, e->x2, t) < progress)
			low = t;
		else
			high = t;
		t = (low + high) / 2;
	}
	return bezier(e->y1, e->y2, t);
}

/* CSS Easing Functions Level 1, 3.1.1: the step function's output. */
static double steps(const struct sg_easing *e, double progress)
{
	double step = floor(progress * e->steps);
	if (e->position == SG_STEPS_JUMP_START || e->position == SG_STEPS_JUMP_BOTH)
		step += 1;
	int jumps = e->position == SG_STEPS_JUMP_NONE   ? e->steps - 1
	            : e->position == SG_STEPS_JUMP_BOTH ? e->steps + 1
	                                                : e->steps;
	if (step > jumps)
		step = jumps;
	return step / jumps;
}

/* m x'' + c x' + k (x - 1) = 0, x(0) = 0, x'(0) = 0, solved in closed form
 * for each kind of damping. */
static double spring(const struct sg_easing *e, double t)
{
	double mass = e->mass > 0 ? e->mass : 1;
	double omega = sqrt(e->stiffness / mass);
	double zeta = e->damping / (2 * sqrt(e->stiffness * mass));
	if (zeta < 1 - 1e-6) {
		double omega_d = omega * sqrt(1 - zeta * zeta);
		return 1 - exp(-zeta * omega * t) *
		               (cos(omega_d * t) + zeta * omega / omega_d * sin(omega_d * t));
	}
	if (zeta <= 1 + 1e-6)
		return 1 - exp(-omega * t) * (1 + omega * t);
	double root = sqrt(zeta * zeta - 1);
	double r1 = -omega * (zeta - root), r2 = -omega * (zeta + root);
	return 1 - (r2 * exp(r1 * t) - r1 * exp(r2 * t)) / (r2 - r1);
}

double sg_easing_evaluate(const struct sg_easing *easing, double elapsed, double duration)
{
	/* Before the start, CSS's before phase: every curve at 0 (steps() too,
	 * its before flag taking back a jump at 0). At 0 itself the active phase
	 * begins, where jump-start and jump-both have made their first jump. */
	if (!(elapsed >= 0))
		return 0;
	if (!(elapsed < duration))
		return 1;
	double progress = elapsed / duration;
	if (!easing)
		return progress;
	switch (easing->kind) {
	case SG_EASING_CUBIC_BEZIER:
		if (easing->x1 >= 0 && easing->x1 <= 1 && easing->x2 >= 0 && easing->x2 <= 1)
			return cubic_bezier(easing, progress);
		return progress;
	case SG_EASING_STEPS:
		if (easing->steps >= (easing->position == SG_STEPS_JUMP_NONE ? 2 : 1) &&
		    easing->steps <= 1000000 && easing->position >= SG_STEPS_JUMP_END &&
		    easing->position <= SG_STEPS_JUMP_BOTH)
			return steps(easing, progress);
		return progress;
	case SG_EASING_SPRING:
		if (easing->stiffness > 0 && easing->damping >= 0 && easing->mass >= 0)
			return spring(easing, elapsed);
		return progress;
	default: return progress;
	}
}
