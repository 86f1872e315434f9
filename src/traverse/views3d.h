/* Internal: the 3D views of a frame (sg/scene3d.h). Each view's models and
 * lights, with their matrices in the view's space, sorted as the view draws
 * them: opaque ones nearest first, blended ones farthest first. Knows no GL. */
#ifndef SG_TRAVERSE_VIEWS3D_H
#define SG_TRAVERSE_VIEWS3D_H

#include <cglm/cglm.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sg/camera.h>
#include <sg/types.h>
#include <sg/error.h>
#include <sg/scene3d.h>

#include "traverse.h"

#define SG_DRAW3D_NO_MATERIAL UINT32_MAX

struct sg_draw3d {
	uint32_t node, mesh;
	uint32_t material; /* pool index, or SG_DRAW3D_NO_MATERIAL */
	uint32_t texture;  /* the model's own (SG_DRAW_NO_TEXTURE for none): no material only */
	mat4 world;        /* model to the view's space */
	vec4 color;        /* no material: straight colour, alpha times the opacities above */
	float opacity;     /* the opacities above the model multiplied */
	float depth;       /* distance along the view direction of its box's centre */
	bool blend;        /* drawn in the translucent pass */
	bool faded;        /* with a material: the opacities above are below 1 (blended) */
	bool mirrored;     /* world has a negative determinant: front faces swap */
};

struct sg_light3d {
	enum sg_light_type type;
	vec3 position;  /* in the view's space */
	vec3 direction; /* the way it shines (the node's -Z), unit */
	vec3 radiance;  /* colour times intensity */
	float range;
	float inner_cos, outer_cos;
};

struct sg_view3d_frame {
	uint32_t node, generation;
	/* The view among the traversal's (under no other view) whose place in
	 * the 2D draws this frame takes: node itself, or the outermost view a
	 * nested one is in. */
	uint32_t top;
	/* A view nested in another draws in the outer view's space, camera,
	 * viewport and depth buffer (no clear of its own), lit by its own lights
	 * and ambient: a frame of its own right after the outer view's. */
	bool nested;
	mat4 to_view; /* world coordinates to the view's space */
	/* A hash of everything the view's picture depends on (camera, viewport,
	 * lights, each draw's mesh, material, texture, matrix and colour): the
	 * same signature, the same picture, for damage tracking. */
	uint64_t signature;
	size_t position;   /* 2D draws of the drawn list before it */
	mat4 view_projection; /* with the y flip of the frame */
	mat4 view;            /* the camera's view matrix */
	vec3 eye;             /* the camera's position in the view's space */
	vec3 forward;         /* its -Z axis in the view's space (orthographic: V is -forward) */
	bool orthographic;
	bool space_is_world; /* the view's space is the world's: no matrix to take models there */
	int viewport[4]; /* x, y (top row first), width, height in output pixels */
	vec3 ambient;
	struct sg_light3d lights[SG_VIEW3D_MAX_LIGHTS];
	int light_count;
	struct sg_draw3d *draws; /* draws [0, opaque_count) opaque, then the blended ones */
	size_t count, capacity, opaque_count;
	size_t culled; /* models left out: their mesh's box is outside the view's volume */
};

/* A view met inside a view's subtree, with the index of the frame it is
 * nested in: collected after it, in the order met. */
struct sg_view3d_pending {
	uint32_t node;
	size_t outer;
};

struct sg_views3d {
	struct sg_view3d_frame *views;
	size_t count, capacity;
	struct sg_view3d_pending *pending;
	size_t pending_count, pending_capacity;
};

void sg_views3d_finish(struct sg_views3d *views);

/* The frame's camera: projection and view as the render got them, and the
 * y flip it draws with. */
struct sg_views3d_camera {
	const struct sg_camera *camera;
	mat4 flip;      /* the frame's y flip, and its rotation (renderer.c) */
	int width, height; /* the picture's: what the camera sees */
	/* A rotated frame: the views' rectangles are turned into the buffer's
	 * pixels, and a mirror reverses the triangles' windings. */
	enum sg_rotation rotation;
	/* The world matrices the views are placed by (sg_views3d_collect sets
	 * the traversal's). */
	const struct sg_world *world;
};

/* The output rectangle (x, y from the top-left, width, height) 3D view node
 * view draws in: its viewport through the transforms above it and the
 * frame's camera (only camera, width, height and world of frame are read). */
void sg_view3d_place(const struct sg_scene *scene, uint32_t view,
                     const struct sg_views3d_camera *frame, int out[4]);

/* Sets each view's position in list, which is in the order of the
 * traversal's list of all (the drawn list, or a cut of it). */
void sg_views3d_position(struct sg_views3d *views, const struct sg_traversal *traversal,
                         const struct sg_draw_list *list);

/* Collects every shown 3D view of scene (world matrices up to date, the
 * traversal's list of all current: sg_traverse_views), with what it draws,
 * and the position of each in traversal->list. Fails naming the model that
 * uses a destroyed mesh, texture or material, or the view with too many
 * lights. */
sg_result sg_views3d_collect(struct sg_views3d *views, const struct sg_scene *scene,
                             const struct sg_traversal *traversal,
                             const struct sg_views3d_camera *camera);

#endif
