/* The files of an import, and assimp's way to them (struct aiFileIO): assimp
 * opens the model itself, a glTF's external buffers, an OBJ's material
 * library, ... by path, and each open comes here. */
#include "file_io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/open_regular.h"
#include "../base/escape.h"
#include "confine.h"

/* Charges the file once, however often assimp opens it (it reads a model's
 * first bytes to choose an importer, then the whole). */
static sg_result charge(struct sg_file_reads *reads, const struct stat *st, const char *shown)
{
	for (size_t i = 0; i < reads->seen_count; i++)
		if (reads->seen[i].device == st->st_dev && reads->seen[i].inode == st->st_ino)
			return SG_OK;
	uint64_t size = (uint64_t)st->st_size;
	if (size > reads->max_bytes || reads->bytes > reads->max_bytes - size)
		return sg_fail(
		    SG_ERR_LIMIT,
		    "'%s': its files hold %llu bytes with '%s', more than the budget's %llu"
		    " (struct sg_import_budget.max_file_bytes)",
		    reads->model_shown, (unsigned long long)(reads->bytes + size), shown,
		    (unsigned long long)reads->max_bytes);
	if (!sg_grow_array((void **)&reads->seen, &reads->seen_capacity, reads->seen_count + 1,
	                   sizeof(*reads->seen)))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory importing '%s'",
		               reads->model_shown);
	reads->seen[reads->seen_count++] = (struct sg_file_id){st->st_dev, st->st_ino};
	reads->bytes += size;
	return SG_OK;
}

static sg_result outside(const struct sg_file_reads *reads, const char *shown)
{
	return sg_fail(SG_ERR_IO,
	               "'%s' names '%s', which lies outside the model's folder"
	               " (struct sg_import_desc.allow_outside_folder)",
	               reads->model_shown, shown);
}

sg_result sg_file_reads_open(struct sg_file_reads *reads, const char *path, int *fd, uint64_t *size)
{
	*fd = -1;
	char shown[256];
	sg_escape_path(path, shown, sizeof(shown));
	/* by its text first, so that "../../etc/passwd" is refused as such,
	 * whether or not the file exists */
	bool confined = reads->folder && strcmp(path, reads->model_path) != 0;
	if (confined) {
		char *lexical = sg_confine_lexical(path);
		bool inside = lexical && sg_confine_inside(reads->lexical_folder, lexical);
		sg_free(lexical);
		if (!lexical)
			return sg_fail(SG_ERR_NO_MEMORY, "out of memory importing '%s'",
			               reads->model_shown);
		if (!inside)
			return outside(reads, shown);
	}
	char *resolved = realpath(path, NULL);
	if (!resolved) {
		if (errno == ENOENT || errno == ENOTDIR)
			return SG_ERR_NOT_FOUND;
		return sg_fail(SG_ERR_IO, "cannot open '%s': %s", shown, strerror(errno));
	}
	sg_result result = SG_OK;
	if (confined && !sg_confine_inside(reads->folder, resolved)) {
		result = outside(reads, shown);
		goto done;
	}
	struct stat st;
	/* the resolved path: what was checked is what is opened */
	if ((result = sg_open_regular(resolved, shown, 0, SG_ERR_NOT_FOUND, fd, &st)))
		goto done;
	if ((result = charge(reads, &st, shown))) {
		close(*fd);
		*fd = -1;
		goto done;
	}
	*size = (uint64_t)st.st_size;
done:
	free(resolved);
	return result;
}

/* --- struct aiFileIO ----------------------------------------------------- */

struct sg_open_file {
	int fd;
	uint64_t size, position;
	struct aiFile *file;
	struct sg_open_file *previous, *next; /* in reads->open_files */
};

static size_t file_read(struct aiFile *file, char *buffer, size_t size, size_t count)
{
	struct sg_open_file *open_file = (struct sg_open_file *)file->UserData;
	if (size == 0 || count == 0 || open_file->position >= open_file->size)
		return 0;
	uint64_t left = open_file->size - open_file->position;
	/* whole items only, as fread */
	size_t items = count;
	if ((uint64_t)items > left / size)
		items = (size_t)(left / size);
	size_t wanted = items * size, done = 0;
	while (done < wanted) {
		ssize_t n = pread(open_file->fd, buffer + done, wanted - done,
		                  (off_t)(open_file->position + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break; /* the file shrank, or an error: what was read counts */
		done += (size_t)n;
	}
	open_file->position += done;
	return done / size;
}

static size_t file_write(struct aiFile *file, const char *buffer, size_t size, size_t count)
{
	(void)file;
	(void)buffer;
	(void)size;
	(void)count;
	return 0; /* opened read-only */
}

static size_t file_tell(struct aiFile *file)
{
	return (size_t)((struct sg_open_file *)file->UserData)->position;
}

static size_t file_size(struct aiFile *file)
{
	return (size_t)((struct sg_open_file *)file->UserData)->size;
}

static enum aiReturn file_seek(struct aiFile *file, size_t offset, enum aiOrigin origin)
{
	struct sg_open_file *open_file = (struct sg_open_file *)file->UserData;
	/* assimp passes a negative offset from the current position as its
	 * size_t image: unsigned arithmetic wraps it back */
	uint64_t base = origin == aiOrigin_CUR   ? open_file->position
	                : origin == aiOrigin_END ? open_file->size
	                                         : 0;
	uint64_t position = base + (uint64_t)offset;
	if (origin != aiOrigin_SET && origin != aiOrigin_CUR && origin != aiOrigin_END)
		return aiReturn_FAILURE;
	if (position > open_file->size)
		return aiReturn_FAILURE;
	open_file->position = position;
	return aiReturn_SUCCESS;
}

static void file_flush(struct aiFile *file)
{
	(void)file;
}

static struct aiFile *io_open(struct aiFileIO *io, const char *path, const char *mode)
{
	struct sg_file_reads *reads = (struct sg_file_reads *)io->UserData;
	if (!path || !mode || strpbrk(mode, "wa+"))
		return NULL;
	int fd;
	uint64_t size;
	sg_result result = sg_file_reads_open(reads, path, &fd, &size);
	if (result) {
		/* A missing file is no refusal: assimp looks for files that may
		 * not exist and goes on without them. */
		if (result != SG_ERR_NOT_FOUND && !reads->refusal) {
			reads->refusal = result;
			snprintf(reads->message, sizeof(reads->message), "%s", sg_last_error());
		}
		return NULL;
	}
	struct aiFile *file = sg_calloc(1, sizeof(*file));
	struct sg_open_file *open_file = sg_calloc(1, sizeof(*open_file));
	if (!file || !open_file) {
		sg_free(file);
		sg_free(open_file);
		close(fd);
		if (!reads->refusal) {
			reads->refusal = SG_ERR_NO_MEMORY;
			snprintf(reads->message, sizeof(reads->message),
			         "out of memory importing '%s'", reads->model_shown);
		}
		return NULL;
	}
	*open_file = (struct sg_open_file){fd, size, 0, file, NULL, reads->open_files};
	if (reads->open_files)
		reads->open_files->previous = open_file;
	reads->open_files = open_file;
	*file = (struct aiFile){file_read,  file_write,           file_tell, file_size, file_seek,
	                        file_flush, (aiUserData)open_file};
	return file;
}

static void close_file(struct sg_file_reads *reads, struct aiFile *file)
{
	struct sg_open_file *open_file = (struct sg_open_file *)file->UserData;
	if (open_file->previous)
		open_file->previous->next = open_file->next;
	else
		reads->open_files = open_file->next;
	if (open_file->next)
		open_file->next->previous = open_file->previous;
	close(open_file->fd);
	sg_free(open_file);
	sg_free(file);
}

static void io_close(struct aiFileIO *io, struct aiFile *file)
{
	if (file)
		close_file((struct sg_file_reads *)io->UserData, file);
}

void sg_file_reads_io(struct sg_file_reads *reads, struct aiFileIO *io)
{
	*io = (struct aiFileIO){io_open, io_close, (aiUserData)reads};
}

void sg_file_reads_finish(struct sg_file_reads *reads)
{
	while (reads->open_files)
		close_file(reads, reads->open_files->file);
	sg_free(reads->seen);
	reads->seen = NULL;
	reads->seen_count = reads->seen_capacity = 0;
}
