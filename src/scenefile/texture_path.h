/* Internal: the trust model of texture paths (docs/scene-format.md, "Trust").
 * A texture path is relative to the scene's folder and stays inside it, or
 * inside a folder of options->allowed_paths, also after symlinks are resolved.
 * Font and model files follow the same rules. */
#ifndef SG_SCENEFILE_TEXTURE_PATH_H
#define SG_SCENEFILE_TEXTURE_PATH_H

#include <stdio.h>

#include "scene_file_internal.h"

/* Refuses, by its text alone and with no file-system access (so the answer
 * cannot tell whether a file exists), an empty path, an absolute one outside
 * the allowed folders and any ".." component. SG_ERR_IO at p->path. */
sg_result sg_texture_path_check(struct sg_parse *p, const char *path);
/* The same for another kind of file, named in the messages ("font"). */
sg_result sg_scene_path_check(struct sg_parse *p, const char *path, const char *kind);
/* Checks path as above, resolves its symlinks, checks the result is still in
 * an allowed folder and opens it as a regular file. On success *file is open. */
sg_result sg_texture_path_open(struct sg_parse *p, const char *path, FILE **file);
/* A font file: checked, resolved and found a regular file as above; *real is
 * the resolved path (sg_free it), which the font library opens. */
sg_result sg_font_path_resolve(struct sg_parse *p, const char *path, char **real);
/* The same for another kind of file, named in the messages ("model"). */
sg_result sg_scene_path_resolve(struct sg_parse *p, const char *path, const char *kind,
                                char **real);
/* Resolves the scene's folder and the allowed folders into p; SG_ERR_IO when
 * one does not exist. Done once, at the start of a load. */
sg_result sg_texture_path_resolve_folders(struct sg_parse *p);
/* Frees what sg_texture_path_resolve_folders() made. */
void sg_texture_path_finish(struct sg_parse *p);

#endif
