/* Regular files only: a FIFO would block a load forever, a device could be
 * endless or act on being read, and a directory is no file to parse. */
#include "open_regular.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "file_kind.h"

sg_result sg_open_regular(const char *path, const char *shown, int flags, sg_result missing,
                          int *fd, struct stat *st)
{
	/* Looked at before the open too: opening a device runs its driver (a tape
	 * rewinds, a serial line raises DTR) even with O_NONBLOCK. The fstat of the
	 * open file below is what counts; this only spares devices the open. */
	struct stat before;
	int follow = (flags & O_NOFOLLOW) ? AT_SYMLINK_NOFOLLOW : 0;
	if (fstatat(AT_FDCWD, path, &before, follow) == 0 && !S_ISREG(before.st_mode) &&
	    !S_ISLNK(before.st_mode)) {
		*fd = -1;
		return sg_fail(SG_ERR_IO, "'%s' is %s, not a regular file", shown,
		               sg_file_kind(before.st_mode));
	}
	*fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | flags);
	if (*fd < 0)
		return sg_fail(errno == ENOENT ? missing : SG_ERR_IO, "cannot open '%s': %s", shown,
		               strerror(errno));
	sg_result result = SG_OK;
	if (fstat(*fd, st) != 0)
		result = sg_fail(SG_ERR_IO, "cannot read '%s': %s", shown, strerror(errno));
	else if (!S_ISREG(st->st_mode))
		result = sg_fail(SG_ERR_IO, "'%s' is %s, not a regular file", shown,
		                 sg_file_kind(st->st_mode));
	if (result) {
		close(*fd);
		*fd = -1;
	}
	return result;
}
