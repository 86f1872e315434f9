/* A model file on a stage, as sg-render and the viewer demo show one: imported
 * under a turntable in a 3D view, lit by a fixed rig of lights, seen by the
 * file's first camera or by one that frames the model's bounds. */
#ifndef SG_MODEL_STAGE_H
#define SG_MODEL_STAGE_H

#include <stdbool.h>

#include <sg/sg.h>

/* A model file has no output size nor background of its own: sg-render and
 * the viewer use these unless told otherwise. */
#define MODEL_STAGE_SIZE 512
#define MODEL_STAGE_BACKGROUND 0.12f, 0.13f, 0.15f, 1.0f /* #1f2126 */

struct model_stage {
	struct sg_scene *scene;
	sg_node view;      /* the 3D view, under the scene's root */
	sg_node turntable; /* the import's parent: turns about the vertical axis */
	struct sg_import_info info;
	float center[3]; /* of the bounds, the turntable's axis goes through it */
	float radius;    /* of the bounds' sphere */
	/* Why model_stage_create failed where the stage refused the model
	 * itself (SG_ERR_LIMIT); empty where the library did (sg_last_error()). */
	char error[512];
};

/* The largest coordinate of a model's bounds the stage frames: its camera
 * stands a few radii away, and the shading squares the distance to it in
 * float (at most 3.4e38). */
#define MODEL_STAGE_MAX_COORDINATE 1e18

/* The file extensions a scene file has (".json"): anything else is a model. */
bool model_stage_is_model_path(const char *path);

/* Imports path (budget NULL: the defaults) into a new scene with the rig.
 * On failure the library's result, with its message in sg_last_error(), or
 * SG_ERR_LIMIT for a model whose bounds reach beyond
 * MODEL_STAGE_MAX_COORDINATE; model_stage_error() says which. */
sg_result model_stage_create(struct model_stage *stage, const char *path,
                             const struct sg_import_budget *budget);
/* The message of the last failure of a call on stage. */
const char *model_stage_error(const struct model_stage *stage);
/* Accepts a zeroed stage. */
void model_stage_finish(struct model_stage *stage);

/* The camera for an output of width x height pixels: the file's first camera
 * where it has one, else a perspective camera looking from a 3/4 angle above
 * whose field of view, vertical and horizontal, holds the bounds' sphere. */
void model_stage_camera(const struct model_stage *stage, int width, int height,
                        struct sg_camera *camera);

/* Turns the model to frame of frame_count: 360 / frame_count degrees a frame
 * about the vertical axis through the bounds' centre. */
sg_result model_stage_turn(struct model_stage *stage, int frame, int frame_count);

#endif
