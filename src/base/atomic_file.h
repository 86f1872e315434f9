/* Internal: an output path opened for writing the way cp and convert do, but atomic. */
#ifndef SG_BASE_ATOMIC_FILE_H
#define SG_BASE_ATOMIC_FILE_H

#include <stdbool.h>

#include <sg/error.h>

/* A regular file (or a new one) is replaced by a complete temporary file renamed
 * over it in its own folder; a device or FIFO is written in place. Symlinks are
 * followed to their final target, which is what gets replaced. */
struct sg_atomic_file {
	const char *path;   /* as the caller named it */
	/* path escaped and, over 511 bytes, cut in its middle: what messages quote,
	 * so that the reason after it always fits in sg_last_error() */
	char shown[512];
	int fd;             /* where the bytes go */
	int folder_fd;      /* folder of the final file (O_PATH); -1 when written in place */
	char *name;         /* final file's name in folder_fd */
	char temporary[16]; /* name of a named temporary file while it exists, else "" */
	int link_method;    /* how an unnamed (O_TMPFILE) file gets its name; 0: it has one */
};

/* Test hook: when true, O_TMPFILE is taken as refused, as on a file system
 * without it, so that tests reach the named temporary file. */
extern bool sg_atomic_file_refuse_tmpfile;

/* Opens out->fd for path. On failure nothing is left open or created. */
sg_result sg_atomic_file_open(struct sg_atomic_file *out, const char *path);

/* Makes the written bytes the file at path (fsync, then rename), and closes. On
 * failure the file at path is unchanged and no temporary file remains. */
sg_result sg_atomic_file_commit(struct sg_atomic_file *out);

/* Closes and removes what sg_atomic_file_open made; the file at path is unchanged. */
void sg_atomic_file_abort(struct sg_atomic_file *out);

#endif
