/* Internal: choosing the target a renderer draws into. */
#ifndef SG_RENDER_SELECT_H
#define SG_RENDER_SELECT_H

#include <sg/renderer.h>

#include "../target/target.h"

/* Chooses and creates a target as sg_renderer_create() documents. */
sg_result sg_target_select(const struct sg_renderer_desc *desc, struct sg_target **target);

#endif
