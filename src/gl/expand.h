/* Internal: batches drawn from one vertex buffer holding every model's
 * vertices with its matrix (see expand.c). */
#ifndef SG_GL_EXPAND_H
#define SG_GL_EXPAND_H

#include "gl_renderer.h"

/* Meshes larger than this are drawn instanced instead. */
#define SG_GL_EXPAND_MAX_VERTICES 64

/* Whether every model of list's source is small enough to expand; computed
 * once per source list, not every frame. */
bool sg_gl_expand_fits(struct sg_gl_expanded *expanded, const struct sg_scene *scene,
                       const struct sg_draw_list *list);
/* Fills and uploads the vertex and index buffers for list in gl->order, and
 * its runs of one texture and pass; reuses them while nothing changed. */
sg_result sg_gl_expand(struct sg_gl_renderer *gl, const struct sg_scene *scene,
                       const struct sg_draw_list *list, const struct sg_paint *paint,
                       mat4 view_projection);
void sg_gl_expand_finish(struct sg_gl_expanded *expanded);

#endif
