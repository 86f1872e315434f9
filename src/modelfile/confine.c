/* Paths compared after realpath(): "../", symlinks and "//" leave no way out
 * of the folder that the text of a path could hide. */
#include "confine.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/alloc.h"
#include "../base/error.h"

sg_result sg_confine_folder(const char *path, const char *shown, char **real)
{
	*real = NULL;
	const char *slash = strrchr(path, '/');
	char *folder = slash ? sg_malloc((size_t)(slash - path) + 2) : sg_strdup(".");
	if (!folder)
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory importing '%s'", shown);
	if (slash) {
		size_t length = slash == path ? 1 : (size_t)(slash - path); /* "/x.gltf": "/" */
		memcpy(folder, path, length);
		folder[length] = '\0';
	}
	char *resolved = realpath(folder, NULL);
	int error = errno;
	sg_free(folder);
	if (!resolved)
		return sg_fail(SG_ERR_IO, "cannot resolve the folder of '%s': %s", shown,
		               strerror(error));
	/* realpath's memory is malloc's; the caller frees with sg_free */
	*real = sg_strdup(resolved);
	free(resolved);
	return *real ? SG_OK : sg_fail(SG_ERR_NO_MEMORY, "out of memory importing '%s'", shown);
}

bool sg_confine_inside(const char *folder, const char *resolved)
{
	size_t length = strlen(folder);
	/* "/" holds everything; else the folder itself or "folder/..." */
	return strcmp(folder, "/") == 0 || (strncmp(resolved, folder, length) == 0 &&
	                                    (resolved[length] == '/' || resolved[length] == '\0'));
}

char *sg_confine_lexical(const char *path)
{
	char *cwd = NULL;
	if (path[0] != '/' && !(cwd = getcwd(NULL, 0)))
		return NULL;
	size_t length = (cwd ? strlen(cwd) + 1 : 0) + strlen(path) + 1;
	char *joined = sg_malloc(length), *out = sg_malloc(length + 1);
	if (joined && out) {
		snprintf(joined, length, "%s%s%s", cwd ? cwd : "", cwd ? "/" : "", path);
		/* each component onto out: "." dropped, ".." takes one back */
		size_t used = 0;
		char *state = NULL;
		for (char *part = strtok_r(joined, "/", &state); part;
		     part = strtok_r(NULL, "/", &state)) {
			if (strcmp(part, ".") == 0)
				continue;
			if (strcmp(part, "..") == 0) {
				while (used > 0 && out[--used] != '/')
					;
				continue;
			}
			used += (size_t)sprintf(out + used, "/%s", part);
		}
		if (used == 0)
			out[used++] = '/';
		out[used] = '\0';
	} else {
		sg_free(out);
		out = NULL;
	}
	sg_free(joined);
	free(cwd);
	return out;
}
