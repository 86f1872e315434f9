/* Internal: opening the files a scene or model file names, and only regular
 * ones. */
#ifndef SG_BASE_OPEN_REGULAR_H
#define SG_BASE_OPEN_REGULAR_H

#include <stdint.h>
#include <sys/stat.h>

#include <sg/error.h>

/* Opens path read-only if it is a regular file. O_NONBLOCK so that opening a
 * FIFO does not wait for a writer; fstat on the open file then refuses the
 * rest. flags are added to the open (O_NOFOLLOW). shown is the name for
 * messages, escaped. On success *fd is open and *st describes it; otherwise
 * SG_ERR_IO, "cannot open 'shown': reason" or "'shown' is a FIFO, not a regular
 * file", with *fd = -1; a file that does not exist gives missing instead of
 * SG_ERR_IO (the model importer tells it from the others). */
sg_result sg_open_regular(const char *path, const char *shown, int flags, sg_result missing,
                          int *fd, struct stat *st);

#endif
