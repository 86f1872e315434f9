/* Texture paths: where a scene file may read from. */
#include "texture_path.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/escape.h"
#include "../base/open_regular.h"
#include "read.h"

#define HOW_TO_ALLOW "(allow a folder with allowed_paths, sg-render --allow-path DIR)"

static bool has_dot_dot(const char *path)
{
	for (const char *c = path; (c = strstr(c, "..")); c += 2)
		if ((c == path || c[-1] == '/') && (c[2] == '/' || c[2] == '\0'))
			return true;
	return false;
}

/* path is folder or below it (folder has no trailing '/', except "/"). */
static bool is_inside(const char *path, const char *folder)
{
	size_t length = strlen(folder);
	if (length > 0 && folder[length - 1] == '/')
		length--;
	return strncmp(path, folder, length) == 0 && (path[length] == '/' || path[length] == '\0');
}

sg_result sg_scene_path_check(struct sg_parse *p, const char *path, const char *kind)
{
	char shown[256];
	sg_escape_path(path, shown, sizeof(shown));
	if (!path[0])
		return sg_fail(SG_ERR_IO, "%s: %s: the path is empty", p->file_name, p->path.text);
	/* Without allowed folders a '..' can only escape, and is refused before the
	 * file system is asked, so that the message says nothing of what exists out
	 * there. With them, it may lead into one: the resolved path decides. */
	if (has_dot_dot(path) && p->limits.allowed_path_count == 0)
		return sg_fail(SG_ERR_IO,
		               "%s: %s: '%s' has a '..': a %s path stays inside the "
		               "scene's folder " HOW_TO_ALLOW,
		               p->file_name, p->path.text, shown, kind);
	if (path[0] != '/')
		return SG_OK;
	/* As given or resolved: "/srv/assets/a.png" is fine for an allowed
	 * "/srv/assets" whether or not /srv is a symlink. */
	for (size_t i = 0; i < p->limits.allowed_path_count; i++) {
		const char *allowed = p->limits.allowed_paths[i];
		if ((allowed[0] == '/' && is_inside(path, allowed)) ||
		    is_inside(path, p->allowed_real[i]))
			return SG_OK;
	}
	return sg_fail(SG_ERR_IO,
	               "%s: %s: '%s' is an absolute path outside the allowed folders: "
	               "a %s path is relative to the scene's folder " HOW_TO_ALLOW,
	               p->file_name, p->path.text, shown, kind);
}

sg_result sg_texture_path_check(struct sg_parse *p, const char *path)
{
	return sg_scene_path_check(p, path, "texture");
}

sg_result sg_texture_path_resolve_folders(struct sg_parse *p)
{
	size_t count = p->limits.allowed_path_count;
	p->allowed_real = count ? sg_calloc(count, sizeof(*p->allowed_real)) : NULL;
	if (count && !p->allowed_real)
		return sg_parse_no_memory(p);
	for (size_t i = 0; i < count; i++) {
		/* realpath() allocates with malloc: copied so that sg_free() frees it
		 * and the allocation tests see it. */
		char *real = realpath(p->limits.allowed_paths[i], NULL);
		char shown[256];
		if (!real)
			return sg_fail(SG_ERR_IO, "allowed path '%s': %s",
			               sg_escape(p->limits.allowed_paths[i], SG_ESCAPE_TEXT, shown,
			                         sizeof(shown)),
			               strerror(errno));
		p->allowed_real[i] = sg_strdup(real);
		free(real);
		if (!p->allowed_real[i])
			return sg_parse_no_memory(p);
	}
	char *real = realpath(p->folder[0] ? p->folder : ".", NULL);
	if (!real)
		return sg_fail(SG_ERR_IO, "%s: the scene's folder: %s", p->file_name,
		               strerror(errno));
	p->folder_real = sg_strdup(real);
	free(real);
	return p->folder_real ? SG_OK : sg_parse_no_memory(p);
}

void sg_texture_path_finish(struct sg_parse *p)
{
	for (size_t i = 0; p->allowed_real && i < p->limits.allowed_path_count; i++)
		sg_free(p->allowed_real[i]);
	sg_free(p->allowed_real);
	sg_free(p->folder_real);
}

static bool is_allowed(const struct sg_parse *p, const char *real)
{
	if (is_inside(real, p->folder_real))
		return true;
	for (size_t i = 0; i < p->limits.allowed_path_count; i++)
		if (is_inside(real, p->allowed_real[i]))
			return true;
	return false;
}

/* Checks path, resolves it and opens it as a regular file: *fd, and the
 * resolved path in *real (malloc'd by realpath) when real is not NULL. */
static sg_result open_checked(struct sg_parse *p, const char *path, const char *kind, int *fd,
                              char **real_out)
{
	*fd = -1;
	sg_result result = sg_scene_path_check(p, path, kind);
	if (result)
		return result;
	char shown[256];
	sg_escape_path(path, shown, sizeof(shown));
	size_t length = strlen(p->folder) + strlen(path) + 1;
	char *joined = path[0] == '/' ? sg_strdup(path) : sg_malloc(length);
	if (!joined)
		return sg_parse_no_memory(p);
	if (path[0] != '/')
		snprintf(joined, length, "%s%s", p->folder, path);
	char *real = realpath(joined, NULL);
	int error = errno;
	sg_free(joined);
	/* A path that reaches out of the scene's folder by its text (absolute, or
	 * with '..', allowed only with allowed folders) gets one message whether
	 * its file is missing, unreadable or outside: else the replies would tell
	 * what exists beyond the allowed folders. */
	bool reaches_out = path[0] == '/' || has_dot_dot(path);
	if (!real && !reaches_out)
		return sg_fail(SG_ERR_IO, "%s: %s: cannot open '%s': %s", p->file_name,
		               p->path.text, shown, strerror(error));
	struct stat st;
	if (!real || !is_allowed(p, real))
		result = sg_fail(SG_ERR_IO,
		                 reaches_out ? "%s: %s: '%s' is not a file inside the scene's folder "
		                               "or the allowed folders " HOW_TO_ALLOW
		                             : "%s: %s: '%s' resolves to a file outside the scene's "
		                               "folder " HOW_TO_ALLOW,
		                 p->file_name, p->path.text, shown);
	/* O_NOFOLLOW covers the last component only: a folder on the way swapped
	 * for a symlink after realpath() is still followed. The folders are
	 * trusted not to change during a load (docs/scene-format.md, "Trust"). */
	else if ((result = sg_open_regular(real, shown, O_NOFOLLOW, SG_ERR_IO, fd, &st)))
		sg_parse_fail_prefix(p, result);
	if (!result && real_out)
		*real_out = real;
	else
		free(real);
	return result;
}

sg_result sg_texture_path_open(struct sg_parse *p, const char *path, FILE **file)
{
	*file = NULL;
	int fd = -1;
	sg_result result = open_checked(p, path, "texture", &fd, NULL);
	if (!result && !(*file = fdopen(fd, "rb"))) {
		close(fd);
		result = sg_parse_no_memory(p);
	}
	return result;
}

sg_result sg_scene_path_resolve(struct sg_parse *p, const char *path, const char *kind,
                                char **real)
{
	*real = NULL;
	int fd = -1;
	char *resolved = NULL;
	sg_result result = open_checked(p, path, kind, &fd, &resolved);
	if (result)
		return result;
	/* The font library and the importer open the file again by this name:
	 * the folders are trusted not to change during a load, as for the
	 * symlinks above. */
	close(fd);
	*real = sg_strdup(resolved);
	free(resolved);
	return *real ? SG_OK : sg_parse_no_memory(p);
}

sg_result sg_font_path_resolve(struct sg_parse *p, const char *path, char **real)
{
	return sg_scene_path_resolve(p, path, "font", real);
}
