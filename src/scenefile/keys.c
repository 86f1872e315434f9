/* Keyframes: at frames or at times in seconds, with an easing curve from
 * each to the next (sg/animation.h's curves), read from the file and found
 * for a moment. */
#include <math.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "read.h"

bool sg_keys_alloc(struct sg_keys *keys, size_t count)
{
	keys->frames = sg_calloc(count, sizeof(*keys->frames));
	keys->times = sg_calloc(count, sizeof(*keys->times));
	keys->easings = sg_calloc(count, sizeof(*keys->easings)); /* all zero: linear */
	return keys->frames && keys->times && keys->easings;
}

void sg_keys_finish(struct sg_keys *keys)
{
	sg_free(keys->frames);
	sg_free(keys->times);
	sg_free(keys->easings);
	*keys = (struct sg_keys){0};
}

static double position(const struct sg_keys *keys, size_t i)
{
	return keys->timed ? keys->times[i] : keys->frames[i];
}

size_t sg_keys_find(const struct sg_keys *keys, size_t count, struct sg_moment at, float *eased)
{
	/* a key at a "time" is a float, as read: the moment is too, so that a
	 * key at 0.1 s is met at 0.1 s (0.1 in double is below 0.1f) */
	double now = keys->timed ? (double)(float)at.seconds : at.frame;
	if (eased)
		*eased = 0;
	if (count < 2 || !keys->frames || now <= position(keys, 0))
		return 0;
	if (now >= position(keys, count - 1))
		return count - 1;
	size_t i = 0;
	while (now >= position(keys, i + 1))
		i++;
	if (!eased)
		return i;
	const struct sg_easing *easing = &keys->easings[i];
	if (easing->kind == SG_EASING_LINEAR && !keys->timed) {
		/* as before curves: the same float arithmetic, the same values */
		int span = keys->frames[i + 1] - keys->frames[i];
		*eased = (float)(now - keys->frames[i]) / (float)span;
		return i;
	}
	/* the curve runs in seconds (a spring's do); frames are 1/fps apart */
	double scale = keys->timed ? 1 : 1 / at.fps;
	double elapsed = (now - position(keys, i)) * scale;
	double duration = (position(keys, i + 1) - position(keys, i)) * scale;
	*eased = (float)sg_easing_evaluate(easing, elapsed, duration);
	return i;
}

/* "easing": a CSS name, or {"cubic-bezier": [x1, y1, x2, y2]},
 * {"steps": N, "position": "jump-end"}, {"spring": {"stiffness": K,
 * "damping": C, "mass": M}}. */
static sg_result read_easing(struct sg_parse *p, struct json_object *json, struct sg_easing *easing)
{
	if (json_object_is_type(json, json_type_string)) {
		if (sg_easing_named(json_object_get_string(json), easing))
			return sg_parse_fail(p, "unknown curve (linear, ease, ease-in, ease-out, "
			                        "ease-in-out, step-start, step-end, or an object "
			                        "{\"cubic-bezier\": [...]}, {\"steps\": N}, "
			                        "{\"spring\": {...}})");
		return SG_OK;
	}
	static const char *const keys[] = {"cubic-bezier", "steps", "position", "spring", NULL};
	sg_result result = sg_read_object(p, json);
	if (!result)
		result = sg_read_keys(p, json, keys);
	if (result)
		return result;
	struct json_object *spring = sg_read_field(json, "spring");
	int kinds = (sg_read_field(json, "cubic-bezier") != NULL) +
	            (sg_read_field(json, "steps") != NULL) + (spring != NULL);
	if (kinds > 1)
		return sg_parse_fail(p, "one of \"cubic-bezier\", \"steps\" and \"spring\"");
	if (spring && sg_read_field(json, "position"))
		return sg_parse_fail(p, "\"position\" goes with \"steps\"");
	if (sg_read_field(json, "cubic-bezier")) {
		float c[4];
		easing->kind = SG_EASING_CUBIC_BEZIER;
		if ((result = sg_read_vector(p, json, "cubic-bezier", true, 4, c)))
			return result;
		easing->x1 = c[0], easing->y1 = c[1], easing->x2 = c[2], easing->y2 = c[3];
	} else if (sg_read_field(json, "steps")) {
		static const char *const positions[] = {"jump-end", "jump-start", "jump-none",
		                                        "jump-both", NULL};
		int position = SG_STEPS_JUMP_END;
		easing->kind = SG_EASING_STEPS;
		result = sg_read_int(p, json, "steps", true, 1, 10000, &easing->steps);
		if (!result)
			result = sg_read_choice(p, json, "position", positions, &position);
		if (result)
			return result;
		easing->position = (enum sg_steps_position)position;
	} else if (spring) {
		static const char *const spring_keys[] = {"stiffness", "damping", "mass", NULL};
		size_t mark = sg_json_path_push_key(&p->path, "spring");
		easing->kind = SG_EASING_SPRING;
		easing->mass = 1;
		result = sg_read_object(p, spring);
		if (!result)
			result = sg_read_keys(p, spring, spring_keys);
		if (!result)
			result = sg_read_number(p, spring, "stiffness", true, 1e-6, 1e6,
			                        &easing->stiffness);
		if (!result)
			result =
			    sg_read_number(p, spring, "damping", false, 0, 1e6, &easing->damping);
		if (!result)
			result = sg_read_number(p, spring, "mass", false, 1e-6, 1e6, &easing->mass);
		sg_json_path_pop(&p->path, mark);
		return result;
	} else {
		return sg_parse_fail(p, "expected \"cubic-bezier\", \"steps\" or \"spring\"");
	}
	if (sg_read_field(json, "position") && easing->kind != SG_EASING_STEPS)
		return sg_parse_fail(p, "\"position\" goes with \"steps\"");
	if (sg_easing_check(easing))
		return sg_parse_fail(p, "%s", sg_last_error());
	return SG_OK;
}

sg_result sg_read_keyframe(struct sg_parse *p, struct json_object *key, struct sg_keys *keys,
                           size_t i, bool easing, struct json_object **value)
{
	static const char *const eased_keys[] = {"frame", "time", "value", "easing", NULL};
	static const char *const plain_keys[] = {"frame", "time", "value", NULL};
	sg_result result = sg_read_object(p, key);
	if (!result)
		result = sg_read_keys(p, key, easing ? eased_keys : plain_keys);
	if (result)
		return result;
	bool timed = sg_read_field(key, "time") != NULL;
	if (timed == (sg_read_field(key, "frame") != NULL))
		return sg_parse_fail(p,
		                     "a keyframe has a \"frame\" or a \"time\" (seconds), one of "
		                     "the two");
	if (i == 0)
		keys->timed = timed;
	else if (timed != keys->timed)
		return sg_parse_fail(p,
		                     "keyframes of one property are all at \"frame\"s or all at "
		                     "\"time\"s; this one has a \"%s\"",
		                     timed ? "time" : "frame");
	if (timed)
		result = sg_read_number(p, key, "time", true, 0, 1e6, &keys->times[i]);
	else
		result = sg_read_int(p, key, "frame", true, 0, SG_SCENE_FILE_MAX_FRAMES,
		                     &keys->frames[i]);
	if (!result && i > 0 && position(keys, i) <= position(keys, i - 1)) {
		size_t mark = sg_json_path_push_key(&p->path, timed ? "time" : "frame");
		result = timed ? sg_parse_fail(p, "time %g does not come after time %g",
		                               keys->times[i], keys->times[i - 1])
		               : sg_parse_fail(p, "frame %d does not come after frame %d",
		                               keys->frames[i], keys->frames[i - 1]);
		sg_json_path_pop(&p->path, mark);
	}
	struct json_object *curve = sg_read_field(key, "easing");
	if (!result && curve) {
		size_t mark = sg_json_path_push_key(&p->path, "easing");
		result = read_easing(p, curve, &keys->easings[i]);
		sg_json_path_pop(&p->path, mark);
	}
	*value = result ? NULL : sg_read_field(key, "value");
	if (!result && !*value) {
		size_t mark = sg_json_path_push_key(&p->path, "value");
		result = sg_parse_fail(p, "missing");
		sg_json_path_pop(&p->path, mark);
	}
	return result;
}
