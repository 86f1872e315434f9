/* Internal: the clips of a frame (clip nodes, sg/scene.h). Knows no GL: it
 * finds which draws of a list each clip holds, and maps output pixels into
 * each clip's rectangle, for the GL layer's test of every fragment, damage
 * tracking's boxes and picking. */
#ifndef SG_TRAVERSE_CLIPS_H
#define SG_TRAVERSE_CLIPS_H

#include <cglm/cglm.h>
#include <stdbool.h>
#include <stdint.h>

#include "traverse.h"

/* A clip's rectangle as the output sees it: output pixel (px, py) (window
 * coordinates: row 0 is the frame's row 0; a pixel's centre is at + 0.5)
 * goes to (u, v, w) = to_local * (px, py, 1), row-major, and lies inside
 * when w > 0 and (u / w, v / w), taken from the rectangle's centre, is
 * inside the rounded rectangle of half extents half and corner radius. A
 * clip seen edge-on has to_local all 0: nothing is inside. */
struct sg_clip_shape {
	float to_local[9];
	float half[2], radius;
};

/* One clip of a frame: the draws of the source list below it, positions
 * [first, last], and the nearest clip above it (an index into the table,
 * -1 for none). Entries are in preorder: a clip after its parent, and
 * sorted by first. */
struct sg_clip_entry {
	uint32_t node;
	uint32_t first, last;
	int32_t parent;
	struct sg_clip_shape shape;
};

struct sg_clips {
	struct sg_clip_entry *entries;
	size_t count, capacity;
	/* what the entries' ranges were found for */
	uint32_t scene;
	uint64_t structure, source_serial;
	const struct sg_draw_list *source;
	bool valid;
};

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
