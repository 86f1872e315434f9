/* A model file on a stage (model_stage.h). */
#include "model_stage.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* The framing camera's vertical field of view, and the room it leaves
 * around the bounds' sphere. */
#define FOVY_DEGREES 40.0
#define MARGIN 1.05

bool model_stage_is_model_path(const char *path)
{
	const char *dot = strrchr(path, '.');
	const char *slash = strrchr(path, '/');
	return !(dot && (!slash || dot > slash) && strcasecmp(dot, ".json") == 0);
}

/* A light node's matrix: it shines along its -Z axis, so its +Z is `toward`,
 * the unit direction from the model to the light. */
static void aim(const float toward[3], float matrix[16])
{
	float z[3] = {toward[0], toward[1], toward[2]};
	float up[3] = {0, 1, 0};
	if (fabsf(z[1]) > 0.99f)
		up[0] = 1, up[1] = 0;
	float x[3] = {up[1] * z[2] - up[2] * z[1], up[2] * z[0] - up[0] * z[2],
	              up[0] * z[1] - up[1] * z[0]};
	float length = sqrtf(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
	for (int i = 0; i < 3; i++)
		x[i] /= length;
	float y[3] = {z[1] * x[2] - z[2] * x[1], z[2] * x[0] - z[0] * x[2],
	              z[0] * x[1] - z[1] * x[0]};
	memset(matrix, 0, 16 * sizeof(float));
	memcpy(matrix, x, sizeof(x));
	memcpy(matrix + 4, y, sizeof(y));
	memcpy(matrix + 8, z, sizeof(z));
	matrix[15] = 1;
}

/* A directional light shining from `from` (towards the origin). */
static sg_result add_light(struct sg_scene *scene, sg_node view, const char *name,
                           const float from[3], float intensity)
{
	float toward[3], length = sqrtf(from[0] * from[0] + from[1] * from[1] + from[2] * from[2]);
	for (int i = 0; i < 3; i++)
		toward[i] = from[i] / length;
	float matrix[16];
	aim(toward, matrix);
	sg_node frame = sg_node_new_transform(scene, &(struct sg_transform_desc){name, matrix});
	sg_node light =
	    sg_node_new_light(scene, &(struct sg_light_desc){.name = name,
	                                                     .type = SG_LIGHT_DIRECTIONAL,
	                                                     .color = {1, 1, 1},
	                                                     .intensity = intensity});
	sg_result result = frame.generation && light.generation ? SG_OK : sg_last_result();
	if (!result)
		result = sg_node_add_child(scene, frame, light);
	if (!result)
		result = sg_node_add_child(scene, view, frame);
	return result;
}

/* Three-point lighting, fixed to the stage (the model turns in it): a key
 * light from the upper left in front, a fill from the right, a rim light
 * from behind (the view's ambient light lights the faces none reaches). */
static sg_result add_rig(struct model_stage *stage)
{
	static const float key[3] = {-0.6f, 1.0f, 0.8f}, fill[3] = {1.0f, 0.3f, 0.6f},
	                   rim[3] = {0.2f, 0.6f, -1.0f};
	sg_result result = add_light(stage->scene, stage->view, "key light", key, 2.6f);
	if (!result)
		result = add_light(stage->scene, stage->view, "fill light", fill, 0.9f);
	if (!result)
		result = add_light(stage->scene, stage->view, "rim light", rim, 1.2f);
	return result;
}

/* The bounds' centre and radius; SG_ERR_LIMIT (the stage finished, the
 * reason in stage->error) where they are too large to frame. */
static sg_result find_bounds(struct model_stage *stage, const char *path)
{
	const float *b = stage->info.bounds;
	for (int i = 0; i < 6; i++) {
		if (fabsf(b[i]) <= MODEL_STAGE_MAX_COORDINATE)
			continue;
		char error[sizeof(stage->error)];
		snprintf(error, sizeof(error),
		         "'%s': the model's bounds reach %g, beyond the %g a stage frames (its "
		         "camera's distance, squared, would overflow float)",
		         path, (double)b[i], MODEL_STAGE_MAX_COORDINATE);
		model_stage_finish(stage);
		memcpy(stage->error, error, sizeof(error));
		return SG_ERR_LIMIT;
	}
	float squares = 0;
	for (int i = 0; i < 3; i++) {
		stage->center[i] = (b[i] + b[i + 3]) * 0.5f;
		squares += (b[i + 3] - b[i]) * (b[i + 3] - b[i]);
	}
	stage->radius = sqrtf(squares) * 0.5f;
	if (!(stage->radius > 0)) /* nothing drawn, or a single point */
		stage->radius = 1;
	return SG_OK;
}

sg_result model_stage_create(struct model_stage *stage, const char *path,
                             const struct sg_import_budget *budget)
{
	*stage = (struct model_stage){.scene = sg_scene_create()};
	if (!stage->scene)
		return sg_last_result();
	stage->view = sg_node_new_view3d(stage->scene, &(struct sg_view3d_desc){
	                                                   .name = "stage",
	                                                   .ambient = {0.08f, 0.08f, 0.09f},
	                                               });
	stage->turntable =
	    sg_node_new_transform(stage->scene, &(struct sg_transform_desc){.name = "turntable"});
	sg_result result =
	    stage->view.generation && stage->turntable.generation ? SG_OK : sg_last_result();
	if (!result)
		result = sg_node_add_child(stage->scene, sg_scene_root(stage->scene), stage->view);
	if (!result)
		result = sg_node_add_child(stage->scene, stage->view, stage->turntable);
	if (!result)
		result =
		    sg_scene_import(stage->scene,
		                    &(struct sg_import_desc){
		                        .path = path, .parent = stage->turntable, .budget = budget},
		                    &stage->info);
	/* A file that brings lights is lit by them alone, as viewers show one:
	 * the rig on top would change its look, and count against the view's
	 * SG_VIEW3D_MAX_LIGHTS. */
	if (!result && stage->info.lights == 0)
		result = add_rig(stage);
	if (result) {
		model_stage_finish(stage);
		return result;
	}
	return find_bounds(stage, path);
}

const char *model_stage_error(const struct model_stage *stage)
{
	return stage->error[0] ? stage->error : sg_last_error();
}

void model_stage_finish(struct model_stage *stage)
{
	sg_scene_destroy(stage->scene);
	*stage = (struct model_stage){0};
}

void model_stage_camera(const struct model_stage *stage, int width, int height,
                        struct sg_camera *camera)
{
	float aspect = (float)width / (float)height;
	if (stage->info.camera_count > 0) {
		sg_import_camera_to_sg_camera(&stage->info.cameras[0], aspect, camera);
		return;
	}
	double fovy = FOVY_DEGREES * M_PI / 180.0;
	double half_vertical = fovy / 2;
	double half_horizontal = atan(tan(half_vertical) * aspect);
	double half = fmin(half_vertical, half_horizontal);
	/* the sphere touches the narrower pair of the frustum's planes */
	double distance = stage->radius / sin(half) * MARGIN;
	/* 3/4 from above: 35 degrees round from the front, 30 degrees up */
	double azimuth = 35.0 * M_PI / 180.0, elevation = 30.0 * M_PI / 180.0;
	const float *c = stage->center;
	float eye[3] = {c[0] + (float)(distance * cos(elevation) * sin(azimuth)),
	                c[1] + (float)(distance * sin(elevation)),
	                c[2] + (float)(distance * cos(elevation) * cos(azimuth))};
	float up[3] = {0, 1, 0};
	float near_z = (float)fmax((distance - stage->radius) * 0.5, distance * 1e-3);
	float far_z = (float)((distance + stage->radius) * 2);
	sg_camera_init_perspective(camera, (float)fovy, aspect, near_z, far_z);
	sg_camera_look_at(camera, eye, c, up);
}

sg_result model_stage_turn(struct model_stage *stage, int frame, int frame_count)
{
	float angle = (float)(2 * M_PI * (double)(frame % frame_count) / frame_count);
	const float *c = stage->center;
	sg_result result = sg_transform_set_identity(stage->scene, stage->turntable);
	if (!result)
		result = sg_transform_translate(stage->scene, stage->turntable, c[0], c[1], c[2]);
	if (!result)
		result = sg_transform_rotate(stage->scene, stage->turntable, angle, 0, 1, 0);
	if (!result)
		result =
		    sg_transform_translate(stage->scene, stage->turntable, -c[0], -c[1], -c[2]);
	return result;
}
