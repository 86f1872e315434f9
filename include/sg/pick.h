/* libsg: what is under a pixel (picking), and where nodes are in the world. */
#ifndef SG_PICK_H
#define SG_PICK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sg/camera.h>
#include <sg/error.h>
#include <sg/export.h>
#include <sg/scene.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One model under a point of the output. */
struct sg_pick_hit {
	sg_node node;         /* the model */
	uint32_t triangle;    /* its mesh's triangle (0-based, in index order) drawn there */
	float barycentric[3]; /* weights of that triangle's three vertices at the point */
	float uv[2];          /* the texture coordinate there */
	float local[3];       /* the point in the model's space (its mesh's coordinates) */
	float world[3];       /* the point in world space */
};

/* The model drawn on top at (x, y) of a width x height output seen through
 * camera (NULL: sg_camera_init_pixels(width, height), as sg_renderer_render
 * uses), that is the last one in draw order that covers the point: libsg
 * draws in painter's order, whatever the depth. x and y are output pixels
 * from the top-left corner: the centre of pixel (i, j) is (i + 0.5, j + 0.5).
 * Within the model, the last triangle covering the point (the one drawn on
 * top). Hidden subtrees and those made unpickable are skipped, and so is
 * every subtree whose world box the pixel's ray misses, so a pick in a large
 * scene tests few triangles (the boxes are kept until the scene changes).
 * Points outside the camera's near and far planes are not hits, as they are
 * not drawn. Transparency is not looked at: a model of opacity 0, or its
 * texels of alpha 0 there, is still the hit (make it unpickable to pass
 * through); but a model of a shape texture (sg/shape.h) is hit only inside
 * the shape's outline. Like sg_renderer_render, brings the world matrices up to date.
 * None: SG_ERR_NOT_FOUND. A camera that cannot be inverted, a size below 1,
 * or a non-finite point: SG_ERR_INVALID_ARGUMENT. Models with a destroyed
 * mesh are skipped. */
SG_API sg_result sg_scene_pick(struct sg_scene *scene, const struct sg_camera *camera, int width,
                               int height, float x, float y, struct sg_pick_hit *hit);
/* Every model covering the point, in draw order (the topmost last): the first
 * max of them in hits (hits may be NULL when max is 0), their number in
 * *count, which may exceed max. No hit is not an error here: *count is 0. */
SG_API sg_result sg_scene_pick_all(struct sg_scene *scene, const struct sg_camera *camera,
                                   int width, int height, float x, float y,
                                   struct sg_pick_hit *hits, size_t max, size_t *count);

/* sg_node_set_pickable and sg_node_get_pickable: <sg/scene.h>. */

/* The product of the local matrices from the top of node's tree down to node
 * (column-major), attached or not. */
SG_API sg_result sg_node_get_world_matrix(const struct sg_scene *scene, sg_node node,
                                          float matrix[16]);
/* The world-space axis-aligned box of every model under node (node included),
 * hidden ones too. SG_ERR_NOT_FOUND when there is none; SG_ERR_INVALID_ARGUMENT
 * for a node that is not attached to the root. */
SG_API sg_result sg_node_get_world_bounds(struct sg_scene *scene, sg_node node, float min[3],
                                          float max[3]);

#ifdef __cplusplus
}
#endif

#endif
