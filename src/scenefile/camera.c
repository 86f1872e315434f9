/* $.camera and a 3D view's "camera": a pixel, orthographic or perspective
 * projection and a look-at view. */
#include <math.h>

#include "read.h"

static sg_result parse_look_at(struct sg_parse *p, struct json_object *camera,
                               struct sg_camera_file *c)
{
	struct json_object *look_at = sg_read_field(camera, "look_at");
	if (!look_at)
		return SG_OK;
	static const char *const keys[] = {"eye", "center", "up", NULL};
	size_t mark = sg_json_path_push_key(&p->path, "look_at");
	sg_result result = sg_read_object(p, look_at);
	if (!result)
		result = sg_read_keys(p, look_at, keys);
	if (!result)
		result = sg_read_vector(p, look_at, "eye", true, 3, c->eye);
	if (!result)
		result = sg_read_vector(p, look_at, "center", true, 3, c->center);
	if (!result)
		result = sg_read_vector(p, look_at, "up", false, 3, c->up);
	if (!result && c->eye[0] == c->center[0] && c->eye[1] == c->center[1] &&
	    c->eye[2] == c->center[2])
		result = sg_parse_fail(p, "eye and center are the same point");
	c->look_at = true;
	sg_json_path_pop(&p->path, mark);
	return result;
}

static sg_result parse_ortho(struct sg_parse *p, struct json_object *camera,
                             struct sg_camera_file *c)
{
	static const char *const keys[] = {"type", "left", "right",   "bottom", "top",
	                                   "near", "far",  "look_at", NULL};
	c->near_z = -1.0f;
	c->far_z = 1.0f;
	sg_result result = sg_read_keys(p, camera, keys);
	if (!result)
		result = sg_read_number(p, camera, "left", true, -1e9, 1e9, &c->left);
	if (!result)
		result = sg_read_number(p, camera, "right", true, -1e9, 1e9, &c->right);
	if (!result)
		result = sg_read_number(p, camera, "bottom", true, -1e9, 1e9, &c->bottom);
	if (!result)
		result = sg_read_number(p, camera, "top", true, -1e9, 1e9, &c->top);
	if (!result)
		result = sg_read_number(p, camera, "near", false, -1e9, 1e9, &c->near_z);
	if (!result)
		result = sg_read_number(p, camera, "far", false, -1e9, 1e9, &c->far_z);
	if (!result && (c->left == c->right || c->bottom == c->top || c->near_z == c->far_z))
		result = sg_parse_fail(p, "left/right, bottom/top and near/far must differ");
	return result;
}

static sg_result parse_perspective(struct sg_parse *p, struct json_object *camera,
                                   struct sg_camera_file *c)
{
	static const char *const keys[] = {"type", "fovy",    "aspect", "near",
	                                   "far",  "look_at", NULL};
	c->fovy = 60.0f;
	c->near_z = 0.1f;
	c->far_z = 1000.0f;
	sg_result result = sg_read_keys(p, camera, keys);
	if (!result)
		result = sg_read_number(p, camera, "fovy", false, 0.01, 179.99, &c->fovy);
	if (!result)
		result = sg_read_number(p, camera, "aspect", false, 1e-4, 1e4, &c->aspect);
	if (!result)
		result = sg_read_number(p, camera, "near", false, 1e-6, 1e9, &c->near_z);
	if (!result)
		result = sg_read_number(p, camera, "far", false, 1e-6, 1e9, &c->far_z);
	if (!result && c->far_z <= c->near_z)
		result = sg_parse_fail(p, "far (%g) must be greater than near (%g)", c->far_z,
		                       c->near_z);
	return result;
}

static sg_result parse_pixels(struct sg_parse *p, struct json_object *camera,
                              struct sg_camera_file *c)
{
	static const char *const keys[] = {"type", "width", "height", "look_at", NULL};
	sg_result result = sg_read_keys(p, camera, keys);
	if (!result)
		result = sg_read_number(p, camera, "width", false, 1e-3, 1e9, &c->width);
	if (!result)
		result = sg_read_number(p, camera, "height", false, 1e-3, 1e9, &c->height);
	return result;
}

sg_result sg_parse_camera_value(struct sg_parse *p, struct json_object *camera,
                                struct sg_camera_file *c)
{
	*c = (struct sg_camera_file){.kind = SG_CAMERA_FILE_PIXELS, .up = {0, 1, 0}};
	static const char *const kinds[] = {"pixels", "ortho", "perspective", NULL};
	static sg_result (*const parsers[])(struct sg_parse *, struct json_object *,
	                                    struct sg_camera_file *) = {parse_pixels, parse_ortho,
	                                                                parse_perspective};
	int kind = SG_CAMERA_FILE_PIXELS;
	sg_result result = sg_read_object(p, camera);
	if (!result)
		result = sg_read_choice(p, camera, "type", kinds, &kind);
	c->kind = (enum sg_camera_file_kind)kind;
	if (!result)
		result = parsers[kind](p, camera, c);
	if (!result)
		result = parse_look_at(p, camera, c);
	return result;
}

sg_result sg_parse_camera(struct sg_parse *p, struct json_object *root)
{
	struct sg_camera_file *c = &p->out->camera;
	*c = (struct sg_camera_file){.kind = SG_CAMERA_FILE_PIXELS, .up = {0, 1, 0}};
	struct json_object *camera = sg_read_field(root, "camera");
	if (!camera)
		return SG_OK;
	size_t mark = sg_json_path_push_key(&p->path, "camera");
	sg_result result = sg_parse_camera_value(p, camera, c);
	sg_json_path_pop(&p->path, mark);
	return result;
}

void sg_camera_file_build(const struct sg_camera_file *c, float units_width, float units_height,
                          float aspect, struct sg_camera *camera)
{
	switch (c->kind) {
	case SG_CAMERA_FILE_PIXELS:
		sg_camera_init_pixels(camera, c->width > 0 ? c->width : units_width,
		                      c->height > 0 ? c->height : units_height);
		break;
	case SG_CAMERA_FILE_ORTHO:
		sg_camera_init_ortho(camera, c->left, c->right, c->bottom, c->top, c->near_z,
		                     c->far_z);
		break;
	case SG_CAMERA_FILE_PERSPECTIVE:
		sg_camera_init_perspective(camera, c->fovy * (float)M_PI / 180.0f,
		                           c->aspect > 0 ? c->aspect : aspect, c->near_z, c->far_z);
		break;
	}
	if (c->look_at)
		sg_camera_look_at(camera, c->eye, c->center, c->up);
}

void sg_scene_file_get_camera(const struct sg_scene_file *file, int width, int height,
                              struct sg_camera *camera)
{
	if (!file) {
		sg_camera_init_pixels(camera, width > 0 ? (float)width : 1.0f,
		                      height > 0 ? (float)height : 1.0f);
		return;
	}
	if (width <= 0 || height <= 0) {
		width = file->width;
		height = file->height;
	}
	sg_camera_file_build(&file->camera, (float)file->width, (float)file->height,
	                     (float)width / (float)height, camera);
}
