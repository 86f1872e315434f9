/* Internal: each draw's colour and pass (opaque or blended), from model
 * colours, node opacities and texture alpha. */
#ifndef SG_TRAVERSE_PAINT_H
#define SG_TRAVERSE_PAINT_H

#include "traverse.h"

/* Brings paint up to date for list, recomputing only after list or the
 * scene's appearance changed; new serials come from *next_serial. */
sg_result sg_paint_update(struct sg_paint *paint, const struct sg_scene *scene,
                          const struct sg_draw_list *list, uint64_t *next_serial);
void sg_paint_finish(struct sg_paint *paint);

#endif
