/* Internal: which cells of a coarse grid over the output a draw can touch,
 * shared by the translucent batching (blend_order.c) and the opaque pass's
 * depth decision (depth_order.c). */
#ifndef SG_GL_SCREEN_CELLS_H
#define SG_GL_SCREEN_CELLS_H

#include <cglm/cglm.h>
#include <stdbool.h>

#include "../graph/scene_view.h"
#include "../traverse/traverse.h"

/* SG_GL_GRID x SG_GL_GRID cells over the clip-space square. */
#define SG_GL_GRID 128

/* The cells [cells[0], cells[2]] x [cells[1], cells[3]] the mesh of draw can
 * cover on screen, widened so that rounding never misses a shared edge:
 * false when it covers none (outside the view); the whole grid when a
 * corner is behind the eye or the box overflows. */
bool sg_gl_screen_cells(const struct sg_scene *scene, const struct sg_draw_list *list,
                        const struct sg_draw *draw, mat4 view_projection, int cells[4]);

#endif
