/* Internal: opening the files a scene file names, and only regular ones. */
#ifndef SG_SCENEFILE_OPEN_FILE_H
#define SG_SCENEFILE_OPEN_FILE_H

#include <stdint.h>
#include <sys/stat.h>

#include <sg/error.h>

/* Opens path read-only if it is a regular file. O_NONBLOCK so that opening a
 * FIFO does not wait for a writer; fstat on the open file then refuses the
 * rest. flags are added to the open (O_NOFOLLOW). shown is the name for
 * messages, escaped. On success *fd is open and *st describes it; otherwise
 * SG_ERR_IO, "cannot open 'shown': reason" or "'shown' is a FIFO, not a regular
 * file", with *fd = -1. */
sg_result sg_open_regular(const char *path, const char *shown, int flags, int *fd, struct stat *st);

#endif
