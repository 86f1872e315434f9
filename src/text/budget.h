/* Internal: the bytes a scene's glyph atlas pages may take, for the layers
 * above text (a scene file charges them to its texture budget), and the
 * limits of a string, which a scene file checks as it reads one. Without
 * FreeType and HarfBuzz (stub.c) there are no pages and no limits. */
#ifndef SG_TEXT_BUDGET_H
#define SG_TEXT_BUDGET_H

#include <stddef.h>
#include <stdint.h>

#include <sg/error.h>

struct sg_scene;

/* The bytes of one 1024 x 1024 RGBA8 atlas page. */
#define SG_ATLAS_PAGE_BYTES ((uint64_t)1024 * 1024 * 4)

/* A new page that would bring the scene's pages over bytes is refused with
 * SG_ERR_LIMIT (UINT64_MAX, the default: no budget). Pages made before stay.
 * Makes the scene's text state: SG_ERR_NO_MEMORY when it cannot. */
sg_result sg_text_set_atlas_budget(struct sg_scene *scene, uint64_t bytes);
/* The bytes of the scene's atlas pages now: SG_ATLAS_PAGE_BYTES each. */
uint64_t sg_text_atlas_bytes(const struct sg_scene *scene);

/* SG_ERR_LIMIT when a character of utf8 (length bytes, valid UTF-8) carries
 * more than SG_TEXT_MAX_MARKS combining marks, as sg_node_new_text refuses. */
sg_result sg_text_check_marks(const char *utf8, size_t length);

#endif
