/* Internal: the kind of a file that is not a regular one, for messages. */
#ifndef SG_BASE_FILE_KIND_H
#define SG_BASE_FILE_KIND_H

#include <sys/stat.h>

/* "a directory", "a FIFO", "a character device", ... for st_mode's type. */
const char *sg_file_kind(mode_t mode);

#endif
