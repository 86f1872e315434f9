/* The damage tests' scene and its random edits, shared by tests/test_damage.c
 * (surfaceless) and tests/drm/test_damage_drm.c (GBM, sg_output): groups of
 * textured and plain models, and edits of every kind damage tracking follows
 * (moves, texture updates, visibility, opacity, colour, reorders, adds and
 * removes, meshes, camera and clear colour). */
#ifndef SG_TESTS_DAMAGE_SCENE_H
#define SG_TESTS_DAMAGE_SCENE_H

#include <stdbool.h>

#include <sg/sg.h>

#define DAMAGE_GROUPS 4
#define DAMAGE_PER_GROUP 6

struct damage_world {
	struct sg_scene *scene;
	sg_node groups[DAMAGE_GROUPS];
	sg_node models[DAMAGE_GROUPS * DAMAGE_PER_GROUP];
	sg_texture textures[3];
	sg_mesh meshes[3];
	unsigned seed;
	int width, height; /* the output the models are scattered over */
	bool perspective;  /* edits tilt groups and move a perspective camera */
};

/* A new scene from seed, its models placed over width x height. big:
 * meshes[2] has more vertices than the expanded path takes, so that the
 * scene is drawn instanced (src/gl/batch.c) instead. */
void damage_world_build(struct damage_world *w, unsigned seed, bool big, int width, int height);

/* The world's pseudo-random sequence (the same on every machine). */
unsigned damage_world_random(struct damage_world *w);

/* The edits' camera: pixels over width (+ tilt * 20) x height, or a
 * perspective looking at that rectangle from in front, tilted by tilt. */
void damage_camera_init(struct sg_camera *camera, int width, int height, bool perspective,
                        float tilt);

/* One random edit; camera and clear may be changed in place. Returns what it did. */
const char *damage_world_edit(struct damage_world *w, struct sg_camera *camera, float clear[4]);
/* The edits before frame: none before the first, 1 to 3 random ones before
 * each other. Returns what the last did ("first frame" for frame 0). */
const char *damage_world_frame_edits(struct damage_world *w, struct sg_camera *camera,
                                     float clear[4], int frame);

#endif
