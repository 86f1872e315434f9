/* Internal: the files a model names stay in its folder (struct
 * sg_import_desc.allow_outside_folder). */
#ifndef SG_MODELFILE_CONFINE_H
#define SG_MODELFILE_CONFINE_H

#include <stdbool.h>

#include <sg/error.h>

/* The folder of path (a file), resolved (realpath); *real is the caller's to
 * sg_free(). SG_ERR_IO naming shown when it cannot be resolved. */
sg_result sg_confine_folder(const char *path, const char *shown, char **real);

/* path made absolute (from the working folder) and its ".", ".." and
 * repeated slashes taken out by its text alone, with no file-system access:
 * so that a path out of the folder is refused whether or not its file
 * exists. NULL when out of memory or the working folder is unknown. *real is
 * the caller's to sg_free(). */
char *sg_confine_lexical(const char *path);

/* Whether resolved (a path realpath() or sg_confine_lexical() gave) lies in
 * folder (made the same way) or below it. */
bool sg_confine_inside(const char *folder, const char *resolved);

#endif
