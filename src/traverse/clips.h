/* Internal: the clips of a frame (clip nodes, sg/scene.h). Knows no GL: it
 * finds which draws of a list each clip holds, and maps output pixels into
 * each clip's rectangle, for the GL layer's test of every fragment, damage
 * tracking's boxes and picking. */
#ifndef SG_TRAVERSE_CLIPS_H
#define SG_TRAVERSE_CLIPS_H

#include <cglm/cglm.h>
#include <stdbool.h>
#include <stdint.h>

#include "clip_table.h"
#include "traverse.h"


void sg_clips_finish(struct sg_clips *clips);

/* Finds the clips holding draws of source (again only after source or the
 * scene's structure changed) and maps each for this frame: world_to_clip
 * takes world space to clip space of a width x height output whose row 0
 * is window row 0. With no clip node in the scene, leaves no entry. */
sg_result sg_clips_update(struct sg_clips *clips, const struct sg_scene *scene,
                          const struct sg_draw_list *source, const mat4 world_to_clip,
                          int width, int height);

/* The shape of clip node n, whose matrix in world is current, in such a frame. */
void sg_clip_shape_of(const struct sg_scene *scene, const struct sg_world *world, uint32_t n,
                      const mat4 world_to_clip, int width, int height,
                      struct sg_clip_shape *shape);
/* Whether output point (px, py) is inside shape (its edge included). */
bool sg_clip_shape_contains(const struct sg_clip_shape *shape, float px, float py);
/* The output pixels clip node n can leave shown, [x0, x1) x [y0, y1) clamped to the output:
 * the box of its corners (the whole output when one is behind the eye). */
void sg_clip_pixel_bounds(const struct sg_scene *scene, const struct sg_world *world,
                          uint32_t n, const mat4 world_to_clip, int width, int height,
                          int bounds[4]);

#endif
