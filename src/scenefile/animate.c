/* Tracks (a constant or keyframes) and their interpolation for a moment
 * (keys.c finds the key and the eased progress); transforms as translate /
 * rotate / scale tracks. */
#include <cglm/cglm.h>
#include <math.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "read.h"

void sg_track_finish(struct sg_track *track)
{
	sg_keys_finish(&track->keys);
	sg_free(track->values);
	track->values = NULL;
	track->key_count = 0;
}

void sg_track_value(const struct sg_track *track, struct sg_moment at, float *value)
{
	size_t n = (size_t)track->components;
	float t;
	size_t i = sg_keys_find(&track->keys, track->key_count, at, &t);
	const float *a = track->values + i * n;
	if (t == 0 || i + 1 >= track->key_count) {
		memcpy(value, a, n * sizeof(float));
		return;
	}
	const float *b = a + n;
	for (size_t c = 0; c < n; c++)
		value[c] = a[c] + (b[c] - a[c]) * t;
}

static sg_result read_angle(struct sg_parse *p, struct json_object *json, float *out)
{
	return sg_read_number_value(p, json, -1e9, 1e9, out);
}

static sg_result read_vector3(struct sg_parse *p, struct json_object *json, float *out)
{
	return sg_read_vector_value(p, json, 3, out);
}

static sg_result read_key(struct sg_parse *p, struct json_object *key, sg_track_reader reader,
                          struct sg_track *track, size_t i)
{
	struct json_object *value = NULL;
	sg_result result = sg_read_keyframe(p, key, &track->keys, i, true, &value);
	if (!result) {
		size_t mark = sg_json_path_push_key(&p->path, "value");
		result = reader(p, value, track->values + i * (size_t)track->components);
		sg_json_path_pop(&p->path, mark);
	}
	return result;
}

static sg_result read_keyframes(struct sg_parse *p, struct json_object *json,
                                sg_track_reader reader, struct sg_track *track)
{
	static const char *const keys[] = {"keyframes", NULL};
	struct json_object *list = sg_read_field(json, "keyframes");
	sg_result result = sg_read_keys(p, json, keys);
	if (result)
		return result;
	size_t mark = sg_json_path_push_key(&p->path, "keyframes");
	size_t count =
	    json_object_is_type(list, json_type_array) ? json_object_array_length(list) : 0;
	if (count == 0) {
		result = sg_parse_fail(p, "expected an array of keyframes "
		                          "{\"frame\": F, \"value\": V}");
	} else {
		track->key_count = count;
		track->values =
			sg_realloc_array(NULL, count * (size_t)track->components, sizeof(float));
		if (!sg_keys_alloc(&track->keys, count) || !track->values)
			result =
				sg_parse_no_memory(p);
	}
	for (size_t i = 0; !result && i < count; i++) {
		size_t index_mark = sg_json_path_push_index(&p->path, i);
		result = read_key(p, json_object_array_get_idx(list, i), reader, track, i);
		sg_json_path_pop(&p->path, index_mark);
	}
	sg_json_path_pop(&p->path, mark);
	return result;
}

sg_result sg_read_track(struct sg_parse *p, struct json_object *object, const char *key,
                        sg_track_reader reader, struct sg_track *track, bool *present)
{
	struct json_object *json = sg_read_field(object, key);
	*present = json != NULL;
	if (!json)
		return SG_OK;
	size_t mark = sg_json_path_push_key(&p->path, key);
	sg_result result;
	if (json_object_is_type(json, json_type_object)) {
		result = read_keyframes(p, json, reader, track);
	} else {
		track->key_count = 1;
		track->values = sg_realloc_array(NULL, (size_t)track->components, sizeof(float));
		result = track->values
		             ? reader(p, json, track->values)
		             : sg_parse_no_memory(p);
	}
	sg_json_path_pop(&p->path, mark);
	return result;
}

static sg_result read_rotate(struct sg_parse *p, struct json_object *transform,
                             struct sg_trs_transform *trs)
{
	static const char *const keys[] = {"angle", "axis", NULL};
	struct json_object *rotate = sg_read_field(transform, "rotate");
	trs->has_rotate = rotate != NULL;
	if (!rotate)
		return SG_OK;
	size_t mark = sg_json_path_push_key(&p->path, "rotate");
	sg_result result = sg_read_object(p, rotate);
	if (!result)
		result = sg_read_keys(p, rotate, keys);
	bool has_angle = false;
	if (!result)
		result = sg_read_track(p, rotate, "angle", read_angle, &trs->angle, &has_angle);
	if (!result && !has_angle)
		result = sg_parse_fail(p, "missing \"angle\" (degrees)");
	if (!result)
		result = sg_read_vector(p, rotate, "axis", false, 3, trs->axis);
	if (!result && trs->axis[0] == 0 && trs->axis[1] == 0 && trs->axis[2] == 0)
		result = sg_parse_fail(p, "the axis is [0, 0, 0]");
	sg_json_path_pop(&p->path, mark);
	return result;
}

sg_result sg_trs_apply(struct sg_scene *scene, const struct sg_trs_transform *trs,
                       struct sg_moment frame)
{
	/* The matrix is composed here and set with one edit: the node is marked
	 * dirty once per frame, or not at all when the frame holds its value. The
	 * cglm calls are those of sg_transform_translate / _rotate / _scale on an
	 * identity matrix, so the result is the same to the bit. read_rotate
	 * refused a zero axis. */
	mat4 local = GLM_MAT4_IDENTITY_INIT;
	float translate[3], angle, scale[3];
	if (trs->has_translate) {
		sg_track_value(&trs->translate, frame, translate);
		glm_translate(local, translate);
	}
	if (trs->has_rotate) {
		sg_track_value(&trs->angle, frame, &angle);
		glm_rotate(local, angle * (float)M_PI / 180.0f, (float *)trs->axis);
	}
	if (trs->has_scale) {
		sg_track_value(&trs->scale, frame, scale);
		glm_scale(local, scale);
	}
	return sg_transform_set_matrix(scene, trs->node, (const float *)local);
}

static bool is_animated(const struct sg_trs_transform *trs)
{
	return trs->translate.key_count > 1 || trs->angle.key_count > 1 || trs->scale.key_count > 1;
}

static sg_result read_trs(struct sg_parse *p, struct json_object *transform,
                          struct sg_trs_transform *trs)
{
	sg_result result = sg_read_track(p, transform, "translate", read_vector3, &trs->translate,
	                                 &trs->has_translate);
	if (!result)
		result = read_rotate(p, transform, trs);
	if (!result)
		result = sg_read_track(p, transform, "scale", read_vector3, &trs->scale,
		                       &trs->has_scale);
	if (!result && sg_trs_apply(p->out->scene, trs, (struct sg_moment){0, 0, p->out->fps}))
		result = sg_parse_fail(p, "%s", sg_last_error());
	return result;
}

sg_result sg_parse_trs(struct sg_parse *p, struct json_object *transform, sg_node node)
{
	struct sg_scene_file *file = p->out;
	struct sg_trs_transform trs = {
		.node = node,
	    .translate = {.components = 3},
	    .angle = {.components = 1},
	    .scale = {.components = 3},
	    .axis = {0, 0, 1},
	};
	sg_result result = read_trs(p, transform, &trs);
	/* Only animated transforms change after the load: keep just those. */
	if (!result && is_animated(&trs) && file->transform_count == file->transform_capacity) {
		size_t capacity = file->transform_capacity ? file->transform_capacity * 2 : 8;
		struct sg_trs_transform *grown =
			sg_realloc_array(file->transforms, capacity, sizeof(*grown));
		if (grown) {
			file->transforms = grown;
			file->transform_capacity = capacity;
		} else {
			result =
				sg_parse_no_memory(p);
		}
	}
	if (!result && is_animated(&trs)) {
		file->transforms[file->transform_count++] = trs;
		return SG_OK;
	}
	sg_track_finish(&trs.translate);
	sg_track_finish(&trs.angle);
	sg_track_finish(&trs.scale);
	return result;
}

static sg_result apply(struct sg_scene_file *file, struct sg_moment frame)
{
	for (size_t i = 0; i < file->transform_count; i++) {
		sg_result result = sg_trs_apply(file->scene, &file->transforms[i], frame);
		if (result)
			return result;
	}
	for (size_t i = 0; i < file->appearance_count; i++) {
		sg_result result = sg_appearance_apply(file->scene, &file->appearances[i], frame);
		if (result)
			return result;
	}
	for (size_t i = 0; i < file->text_track_count; i++) {
		sg_result result = sg_text_track_apply(file->scene, &file->text_tracks[i], frame);
		if (result)
			return result;
	}
	return SG_OK;
}

sg_result sg_scene_file_apply_frame(struct sg_scene_file *file, int frame)
{
	if (!file || frame < 0)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_scene_file_apply_frame: %s",
		               file ? "negative frame" : "file is NULL");
	return apply(file, (struct sg_moment){frame, frame / (double)file->fps, file->fps});
}

sg_result sg_scene_file_apply_time(struct sg_scene_file *file, double seconds)
{
	if (!file || !(seconds >= 0) || !isfinite(seconds))
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_scene_file_apply_time: %s",
		               file ? "the time is negative or not finite" : "file is NULL");
	/* 0.29 s at 100 fps is 28.999999999999996 frames in double: a time on
	 * a frame is that frame, for keys at frames and strings to change there */
	double frame = seconds * file->fps, nearest = round(frame);
	if (fabs(frame - nearest) < 1e-9 * fmax(1, nearest))
		frame = nearest;
	return apply(file, (struct sg_moment){frame, seconds, file->fps});
}
