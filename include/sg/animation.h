/* libsg: animations in time. An animator moves node properties (opacity,
 * colour, a transform's translation, scale or rotation) from their current
 * value to a target over a duration in seconds, along an easing curve (CSS's
 * cubic-bezier() and steps(), or a spring), as the clock its caller passes
 * moves on: CLOCK_MONOTONIC, or the presentation times an output or window
 * reports (sg_output, sg_window on_frame). */
#ifndef SG_ANIMATION_H
#define SG_ANIMATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sg/error.h>
#include <sg/export.h>
#include <sg/scene.h>

#ifdef __cplusplus
extern "C" {
#endif

/* --- easing curves --------------------------------------------------------------- */

enum sg_easing_kind {
	SG_EASING_LINEAR = 0,
	/* CSS Easing Functions Level 1, cubic-bezier(x1, y1, x2, y2): x1 and x2 in 0 .. 1 */
	SG_EASING_CUBIC_BEZIER,
	/* steps(count, position) */
	SG_EASING_STEPS,
	/* A damped spring from 0 to 1, at rest at the start: m x'' + c x' + k (x - 1) = 0.
	 * It may overshoot 1; the animation ends at its duration, where it is set to 1. */
	SG_EASING_SPRING,
};

/* steps(): where the jumps are (CSS's <step-position>). */
enum sg_steps_position {
	SG_STEPS_JUMP_END = 0, /* "end": 0 for the first interval, the last jump at 1 */
	SG_STEPS_JUMP_START,   /* "start": the first jump at 0, so 1/count at time 0 */
	SG_STEPS_JUMP_NONE,    /* neither: count - 1 jumps, 0 and 1 each held one step */
	SG_STEPS_JUMP_BOTH,    /* both: count + 1 jumps, 1/(count + 1) at time 0 */
};

struct sg_easing {
	enum sg_easing_kind kind;
	float x1, y1, x2, y2; /* SG_EASING_CUBIC_BEZIER */
	int steps;            /* SG_EASING_STEPS: at least 1 (2 for JUMP_NONE) */
	enum sg_steps_position position;
	/* SG_EASING_SPRING: stiffness k > 0, damping c >= 0, mass m > 0 (0: 1) */
	float stiffness, damping, mass;
};

/* CSS's named curves: "linear", "ease", "ease-in", "ease-out", "ease-in-out",
 * "step-start", "step-end". SG_ERR_INVALID_ARGUMENT for another name. */
SG_API sg_result sg_easing_named(const char *name, struct sg_easing *easing);

/* The curve's value at elapsed seconds of an animation of duration seconds:
 * 0 before the start, 1 at the end (and after it), the progress elapsed /
 * duration eased in between, from elapsed 0 on: 0 there, except steps()
 * with jump-start or jump-both, which have made their first jump at 0 as
 * CSS's step algorithm has (1/count and 1/(count + 1)). A spring's value is
 * its position at elapsed seconds, whatever the duration. An invalid curve
 * (a control x outside 0 .. 1, a step count below its minimum, a spring
 * without stiffness or mass) gives the linear progress; sg_easing_check says
 * why. */
SG_API double sg_easing_evaluate(const struct sg_easing *easing, double elapsed, double duration);
SG_API sg_result sg_easing_check(const struct sg_easing *easing);

/* --- animators ------------------------------------------------------------------- */

struct sg_animator;
typedef uint64_t sg_animation; /* 0: none */

enum sg_animated_property {
	SG_ANIMATE_OPACITY = 0, /* any node: one number, 0 .. 1 */
	SG_ANIMATE_COLOR,       /* a model: RGBA, straight alpha, each 0 .. 1 */
	SG_ANIMATE_TRANSLATION, /* a transform: x, y, z, the matrix's last column */
	SG_ANIMATE_SCALE,       /* a transform: x, y, z, the lengths of its first three columns */
	SG_ANIMATE_ROTATION,    /* a transform: radians about z (as sg_transform_rotate), of its
	                           first column in x, y; the first two columns are rewritten in
	                           the x-y plane with their lengths */
};

struct sg_animation_desc {
	sg_node node;
	enum sg_animated_property property;
	float to[4];   /* the target: 1, 4 or 3 numbers as the property has */
	bool from_set; /* else from the value the property has at the start */
	float from[4];
	double duration; /* seconds; 0: the target at once */
	double delay;    /* seconds before it starts (the value is left alone) */
	struct sg_easing easing;
	/* Called once, from sg_animator_tick (finished: the target was reached),
	 * sg_animator_cancel, a later animation of the same property, or the
	 * animator's destroy (finished false). It may start or cancel
	 * animations, not destroy the animator. */
	void (*on_end)(struct sg_animator *animator, sg_animation animation, bool finished,
	               void *user_data);
	void *user_data;
};

SG_API struct sg_animator *sg_animator_create(struct sg_scene *scene);
/* Ends every animation (on_end with finished false); the properties keep
 * the values they have. Accepts NULL. */
SG_API void sg_animator_destroy(struct sg_animator *animator);

/* Starts an animation at the time of the next sg_animator_tick (a
 * transition: it starts from the property's value then, unless from_set).
 * An animation of the same node and property already running ends first
 * (on_end, finished false), so that a new target starts from where the old
 * one got to. 0 on error: a bad handle (SG_ERR_STALE_HANDLE,
 * SG_ERR_FOREIGN_HANDLE), a property the node lacks, a value out of range, a
 * negative or non-finite duration or delay, an invalid easing
 * (SG_ERR_INVALID_ARGUMENT). */
SG_API sg_animation sg_animator_start_sized(struct sg_animator *animator,
                                            const struct sg_animation_desc *desc, size_t size);
#define sg_animator_start(...)                                                                     \
	sg_animator_start_sized(__VA_ARGS__, sizeof(struct sg_animation_desc))
/* Ends an animation where it is (on_end, finished false). SG_ERR_NOT_FOUND
 * when it is not running (it ended, or never was). */
SG_API sg_result sg_animator_cancel(struct sg_animator *animator, sg_animation animation);

/* Moves every animation to time_ns (nanoseconds of the caller's clock, which
 * must not go back: SG_ERR_INVALID_ARGUMENT) and sets the properties' values
 * (one scene edit each, none when the value did not change), then calls
 * on_end for those that reached their target. An animation whose node was
 * destroyed ends (finished false). */
SG_API sg_result sg_animator_tick(struct sg_animator *animator, uint64_t time_ns);
/* How many animations are running (waiting for their delay included). */
SG_API int sg_animator_count(const struct sg_animator *animator);

#ifdef __cplusplus
}
#endif

#endif
