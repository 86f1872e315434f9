/* Internal: the 3D materials (material_solid.c): plain, unlit and lit PBR,
 * one source (material_solid.*) built with the defines of each key. */
#ifndef SG_GL_MATERIAL_SOLID_H
#define SG_GL_MATERIAL_SOLID_H

#include "../traverse/views3d.h"
#include "material.h"

/* The key of the run of draws like d in view v: its kind (plain without a
 * material, else unlit or lit) and what its shader needs (the material's
 * textures and alpha mode, the mesh's attributes, the view's lights). */
uint64_t sg_gl_solid_key(const struct sg_scene *scene, const struct sg_view3d_frame *v,
                         const struct sg_draw3d *d);
/* Sets view v's uniforms on program p (in use): its matrix, eye and lights. */
void sg_gl_solid_set_view(const struct sg_gl_program *p, const struct sg_view3d_frame *v);
/* Sets material m's uniforms on program p (in use); m NULL: a model without one. */
void sg_gl_solid_set_material(const struct sg_gl_program *p, const struct sg_scene *scene,
                              const struct sg_material_desc *m);

#endif
