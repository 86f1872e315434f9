/* Animators: running animations of node properties, moved by the caller's
 * clock, their values set through the scene's public edits (so damage
 * tracking and the journal see them as any edit). */
#include <math.h>
#include <string.h>

#include <sg/animation.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/sized.h"

struct animation {
	sg_animation id;
	sg_node node;
	enum sg_animated_property property;
	int components;
	float from[4], to[4];
	bool from_set;
	bool started; /* the first tick since the start has come: start_ns and from are set */
	uint64_t start_ns;
	double duration, delay;
	struct sg_easing easing;
	void (*on_end)(struct sg_animator *, sg_animation, bool, void *);
	void *user_data;
	bool ended, finished; /* to be reported by the tick that set them */
};

struct sg_animator {
	struct sg_scene *scene;
	struct animation *list;
	size_t count, capacity;
	sg_animation next_id;
	uint64_t last_ns;
	bool has_time;
	bool ticking; /* in sg_animator_tick: a callback cannot tick again */
	bool dying;   /* in sg_animator_destroy: a callback cannot start another */
};

static int components_of(enum sg_animated_property property)
{
	switch (property) {
	case SG_ANIMATE_OPACITY:
	case SG_ANIMATE_ROTATION: return 1;
	case SG_ANIMATE_COLOR: return 4;
	default: return 3;
	}
}

static const char *property_name(enum sg_animated_property property)
{
	static const char *const names[] = {"opacity", "colour", "translation", "scale",
	                                    "rotation"};
	return property <= SG_ANIMATE_ROTATION ? names[property] : "property";
}

static float column_length(const float m[16], int c)
{
	return sqrtf(m[c * 4] * m[c * 4] + m[c * 4 + 1] * m[c * 4 + 1] +
	             m[c * 4 + 2] * m[c * 4 + 2]);
}

/* The property's value now. */
static sg_result read_value(struct sg_scene *scene, sg_node node,
                            enum sg_animated_property property, float value[4])
{
	float m[16];
	sg_result result;
	switch (property) {
	case SG_ANIMATE_OPACITY: return sg_node_get_opacity(scene, node, value);
	case SG_ANIMATE_COLOR: return sg_model_get_color(scene, node, value);
	default:
		if ((result = sg_transform_get_matrix(scene, node, m)))
			return result;
		break;
	}
	if (property == SG_ANIMATE_TRANSLATION) {
		memcpy(value, m + 12, 3 * sizeof(float));
	} else if (property == SG_ANIMATE_SCALE) {
		for (int c = 0; c < 3; c++)
			value[c] = column_length(m, c);
	} else {
		value[0] = atan2f(m[1], m[0]);
	}
	return SG_OK;
}

/* Sets the property to value: one edit, none when it has it already. */
static sg_result write_value(struct sg_scene *scene, sg_node node,
                             enum sg_animated_property property, const float value[4])
{
	float now[4], m[16];
	sg_result result = read_value(scene, node, property, now);
	if (result || memcmp(now, value, (size_t)components_of(property) * sizeof(float)) == 0)
		return result;
	switch (property) {
	case SG_ANIMATE_OPACITY: return sg_node_set_opacity(scene, node, value[0]);
	case SG_ANIMATE_COLOR:
		return sg_model_set_color(scene, node, value[0], value[1], value[2], value[3]);
	default: break;
	}
	if ((result = sg_transform_get_matrix(scene, node, m)))
		return result;
	if (property == SG_ANIMATE_TRANSLATION) {
		memcpy(m + 12, value, 3 * sizeof(float));
	} else if (property == SG_ANIMATE_SCALE) {
		/* each axis keeps its direction; a collapsed one (length 0) has none
		 * left and gets its own unit axis */
		for (int c = 0; c < 3; c++) {
			float length = column_length(m, c);
			for (int r = 0; r < 3; r++)
				m[c * 4 + r] = length > 0 ? m[c * 4 + r] * value[c] / length
				                          : (r == c ? value[c] : 0);
		}
	} else {
		/* a turn in the x-y plane: the first two columns are rewritten
		 * there with their lengths, the third column and the translation
		 * kept */
		float radians = value[0];
		float sx = column_length(m, 0), sy = column_length(m, 1);
		float c = cosf(radians), s = sinf(radians);
		m[0] = c * sx, m[1] = s * sx, m[2] = 0;
		m[4] = -s * sy, m[5] = c * sy, m[6] = 0;
	}
	return sg_transform_set_matrix(scene, node, m);
}

static sg_result check_value(enum sg_animated_property property, const float *value,
                             const char *which)
{
	for (int i = 0; i < components_of(property); i++) {
		bool unit = property == SG_ANIMATE_OPACITY || property == SG_ANIMATE_COLOR;
		if (!isfinite(value[i]) || (unit && (value[i] < 0 || value[i] > 1)))
			return sg_fail(SG_ERR_INVALID_ARGUMENT,
			               "sg_animator_start: the %s's %s value %d is %g: %s",
			               property_name(property), which, i, value[i],
			               unit ? "outside 0 .. 1" : "not finite");
	}
	return SG_OK;
}

struct sg_animator *sg_animator_create(struct sg_scene *scene)
{
	if (!scene) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_animator_create: scene is NULL");
		return NULL;
	}
	struct sg_animator *animator = sg_calloc(1, sizeof(*animator));
	if (!animator) {
		sg_fail(SG_ERR_NO_MEMORY, "out of memory for an animator");
		return NULL;
	}
	animator->scene = scene;
	animator->next_id = 1;
	return animator;
}

/* Takes entry i out of the list and reports its end. */
static void end_at(struct sg_animator *animator, size_t i, bool finished)
{
	struct animation ended = animator->list[i];
	memmove(animator->list + i, animator->list + i + 1,
	        (animator->count - i - 1) * sizeof(*animator->list));
	animator->count--;
	if (ended.on_end)
		ended.on_end(animator, ended.id, finished, ended.user_data);
}

void sg_animator_destroy(struct sg_animator *animator)
{
	if (!animator)
		return;
	animator->ticking = animator->dying = true;
	while (animator->count)
		end_at(animator, animator->count - 1, false);
	sg_free(animator->list);
	sg_free(animator);
}

sg_animation sg_animator_start_sized(struct sg_animator *animator,
                                     const struct sg_animation_desc *desc, size_t size)
{
	struct sg_animation_desc sized_desc;
	if (desc && !(desc = sg_sized_in(&sized_desc, sizeof sized_desc, desc, size,
	                                 SG_SIZE_THROUGH(struct sg_animation_desc, user_data),
	                                 "sg_animator_start")))
		return (sg_animation){0};
	static const char call[] = "sg_animator_start";
	if (!animator || !desc) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "%s: %s is NULL", call,
		        animator ? "desc" : "animator");
		return 0;
	}
	if (desc->property < SG_ANIMATE_OPACITY || desc->property > SG_ANIMATE_ROTATION) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "%s: unknown property %d", call,
		        (int)desc->property);
		return 0;
	}
	float now[4];
	sg_result result = read_value(animator->scene, desc->node, desc->property, now);
	if (result) {
		sg_fail_prefix(result, "%s: the node has no %s: ", call,
		               property_name(desc->property));
		return 0;
	}
	if (check_value(desc->property, desc->to, "target") ||
	    (desc->from_set && check_value(desc->property, desc->from, "start")))
		return 0;
	if (!(desc->duration >= 0 && isfinite(desc->duration)) ||
	    !(desc->delay >= 0 && isfinite(desc->delay))) {
		sg_fail(SG_ERR_INVALID_ARGUMENT,
		        "%s: duration %g and delay %g must be finite and >= 0", call,
		        desc->duration, desc->delay);
		return 0;
	}
	if ((result = sg_easing_check(&desc->easing))) {
		sg_fail_prefix(result, "%s: ", call);
		return 0;
	}
	if (animator->dying) {
		sg_fail(SG_ERR_BUSY, "%s: the animator is being destroyed", call);
		return 0;
	}
	struct animation added = {
	    .id = animator->next_id++,
	    .node = desc->node,
	    .property = desc->property,
	    .components = components_of(desc->property),
	    .from_set = desc->from_set,
	    .duration = desc->duration,
	    .delay = desc->delay,
	    .easing = desc->easing,
	    .on_end = desc->on_end,
	    .user_data = desc->user_data,
	};
	memcpy(added.to, desc->to, sizeof(added.to));
	if (desc->from_set)
		memcpy(added.from, desc->from, sizeof(added.from));
	/* The one it replaces ends first: its callback sees the list without it.
	 * The callback may start another of the same property: that one ends
	 * too, so that one animation at most moves a property. */
	for (size_t i = 0; i < animator->count;) {
		struct animation *a = &animator->list[i];
		if (a->property == desc->property && a->node.index == desc->node.index &&
		    a->node.generation == desc->node.generation && !a->ended) {
			end_at(animator, i, false);
			i = 0;
		} else {
			i++;
		}
	}
	/* (after the callback, which may have started others) */
	if (!sg_grow_array((void **)&animator->list, &animator->capacity, animator->count + 1,
	                   sizeof(*animator->list))) {
		sg_fail(SG_ERR_NO_MEMORY, "%s: out of memory for %zu animations", call,
		        animator->count + 1);
		return 0;
	}
	animator->list[animator->count++] = added;
	return added.id;
}

sg_result sg_animator_cancel(struct sg_animator *animator, sg_animation animation)
{
	if (!animator)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_animator_cancel: animator is NULL");
	for (size_t i = 0; i < animator->count; i++)
		if (animator->list[i].id == animation && !animator->list[i].ended) {
			end_at(animator, i, false);
			return SG_OK;
		}
	return sg_fail(SG_ERR_NOT_FOUND, "sg_animator_cancel: animation %llu is not running",
	               (unsigned long long)animation);
}

/* Moves one animation to time_ns; marks it ended where it is done. */
static void advance(struct sg_animator *animator, struct animation *a, uint64_t time_ns)
{
	if (!a->started) {
		a->started = true;
		a->start_ns = time_ns;
		if (!a->from_set && read_value(animator->scene, a->node, a->property, a->from)) {
			a->ended = true; /* the node went away before it began */
			return;
		}
	}
	double elapsed = (double)(time_ns - a->start_ns) / 1e9 - a->delay;
	if (elapsed < 0)
		return;
	double eased = sg_easing_evaluate(&a->easing, elapsed, a->duration);
	bool unit = a->property == SG_ANIMATE_OPACITY || a->property == SG_ANIMATE_COLOR;
	float value[4];
	for (int i = 0; i < a->components; i++) {
		double v = a->from[i] + (a->to[i] - a->from[i]) * eased;
		if (unit) /* a spring's overshoot stops at the range's ends */
			v = v < 0 ? 0 : v > 1 ? 1 : v;
		value[i] = elapsed >= a->duration ? a->to[i] : (float)v; /* duration 0: at once */
	}
	if (write_value(animator->scene, a->node, a->property, value)) {
		a->ended = true; /* destroyed, or no longer of its kind */
		return;
	}
	if (elapsed >= a->duration)
		a->ended = a->finished = true;
}

sg_result sg_animator_tick(struct sg_animator *animator, uint64_t time_ns)
{
	if (!animator)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_animator_tick: animator is NULL");
	if (animator->ticking)
		return sg_fail(SG_ERR_BUSY,
		               "sg_animator_tick: called from an on_end of the same tick");
	if (animator->has_time && time_ns < animator->last_ns)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "sg_animator_tick: the time went back (%llu ns after %llu ns)",
		               (unsigned long long)time_ns, (unsigned long long)animator->last_ns);
	animator->has_time = true;
	animator->last_ns = time_ns;
	animator->ticking = true;
	for (size_t i = 0; i < animator->count; i++)
		advance(animator, &animator->list[i], time_ns);
	/* Then the ends, one at a time: a callback may start or cancel others,
	 * which changes the list; those it starts wait for the next tick. */
	for (size_t i = 0; i < animator->count;) {
		if (animator->list[i].ended) {
			end_at(animator, i, animator->list[i].finished);
			i = 0; /* the callback may have cancelled any of them */
		} else {
			i++;
		}
	}
	animator->ticking = false;
	return SG_OK;
}

int sg_animator_count(const struct sg_animator *animator)
{
	return animator ? (int)animator->count : 0;
}
