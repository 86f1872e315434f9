/* Internal: every file an import reads, the model's own and those it names,
 * opened by one function: regular files only, inside the model's folder
 * unless the caller allows more, charged once each to the byte budget. assimp
 * reads through it too (struct aiFileIO), so that a glTF buffer or an OBJ
 * material library obeys the same rules as a texture. */
#ifndef SG_MODELFILE_FILE_IO_H
#define SG_MODELFILE_FILE_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <assimp/cfileio.h>
#include <sg/error.h>

struct sg_file_id {
	dev_t device;
	ino_t inode;
};

struct sg_file_reads {
	const char *model_path;     /* the model file as the caller named it */
	const char *model_shown;    /* the same, escaped, for messages */
	const char *folder;         /* resolved; NULL: files may lie anywhere */
	const char *lexical_folder; /* the same by sg_confine_lexical() */
	uint64_t max_bytes, bytes;
	struct sg_file_id *seen; /* the files charged */
	size_t seen_count, seen_capacity;
	/* The first file refused while assimp read (outside the folder, not a
	 * regular file, over the budget): assimp only learns that it could not
	 * be opened, so the import fails with this message instead. */
	sg_result refusal;
	char message[512];
	/* The files assimp has open (io_open, not yet io_close): its glTF
	 * importer drops a stream without closing it when it gives up on a
	 * buffer, so sg_file_reads_finish closes what is left. */
	struct sg_open_file *open_files;
};

/* Opens path read-only (O_NONBLOCK, O_CLOEXEC) if it is a regular file in
 * reads->folder or below, symlinks resolved (the model file itself may lie
 * anywhere: the caller chose it), and charges its size to the byte
 * budget unless it was charged already. On success *fd is open and *size its
 * size. SG_ERR_NOT_FOUND (no message kept) when path does not exist;
 * SG_ERR_IO or SG_ERR_LIMIT with a message naming path and the model. */
sg_result sg_file_reads_open(struct sg_file_reads *reads, const char *path, int *fd,
                             uint64_t *size);

/* io reads through reads (io holds a pointer to it). */
void sg_file_reads_io(struct sg_file_reads *reads, struct aiFileIO *io);

/* Frees what reads keeps and closes the files assimp left open: call it
 * once assimp is done (after aiReleaseImport). */
void sg_file_reads_finish(struct sg_file_reads *reads);

#endif
