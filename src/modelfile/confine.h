/* Internal: the files a model names stay in its folder (struct
 * sg_import_desc.allow_outside_folder). */
#ifndef SG_MODELFILE_CONFINE_H
#define SG_MODELFILE_CONFINE_H

#include <stdbool.h>

#include <sg/error.h>

/* The folder of path (a file), resolved (realpath); *real is the caller's to
 * sg_free(). SG_ERR_IO naming shown when it cannot be resolved. */
sg_result sg_confine_folder(const char *path, const char *shown, char **real);

/* Whether resolved (a path realpath() gave) lies in folder (resolved too) or
 * below it. */
bool sg_confine_inside(const char *folder, const char *resolved);

#endif
