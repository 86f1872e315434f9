/* Output paths written the way cp and convert write them, but atomically: a
 * regular file is replaced by a complete one renamed over it, a device or FIFO
 * is written in place, a symlink is followed to the file it names. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "error.h"
#include "escape.h"
#include "file_kind.h"
#include "atomic_file.h"

/* The kernel's own limit on symlinks followed in one path (MAXSYMLINKS). */
#define MAX_SYMLINKS 40

bool sg_atomic_file_refuse_tmpfile;

enum link_method {
	LINK_NAMED,      /* a named temporary file: nothing to link */
	LINK_EMPTY_PATH, /* linkat(fd, "", AT_EMPTY_PATH): needs CAP_DAC_READ_SEARCH */
	LINK_PROC,       /* linkat("/proc/self/fd/N", AT_SYMLINK_FOLLOW): needs /proc */
};

/* Opens the folder of target and keeps its last name. */
static sg_result open_folder(struct sg_atomic_file *out, const char *target)
{
	const char *slash = strrchr(target, '/');
	const char *base = slash ? slash + 1 : target;
	if (!*base)
		return sg_fail(SG_ERR_IO, "cannot write '%s': it names a folder, not a file",
		               out->shown);
	size_t folder_length = !slash ? 0 : slash == target ? 1 : (size_t)(slash - target);
	char *folder = sg_malloc(folder_length + 2);
	out->name = sg_strdup(base);
	if (!folder || !out->name) {
		sg_free(folder);
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory writing '%s'", out->shown);
	}
	if (slash)
		memcpy(folder, target, folder_length), folder[folder_length] = '\0';
	else
		strcpy(folder, ".");
	out->folder_fd = open(folder, O_PATH | O_DIRECTORY | O_CLOEXEC);
	sg_result result = SG_OK;
	char shown_folder[256];
	if (out->folder_fd < 0)
		result = sg_fail(SG_ERR_IO, "cannot write '%s': its folder '%s': %s", out->shown,
		                 sg_escape_path(folder, shown_folder, sizeof(shown_folder)),
		                 strerror(errno));
	sg_free(folder);
	return result;
}

/* The path a symlink in target's folder names, as a path from where target's is. */
static char *follow_link(struct sg_atomic_file *out, const char *target, size_t size_hint)
{
	for (size_t size = size_hint + 2;; size *= 2) {
		char *link = sg_malloc(size);
		if (!link) {
			errno = ENOMEM;
			return NULL;
		}
		ssize_t length = readlinkat(out->folder_fd, out->name, link, size);
		if (length < 0) {
			sg_free(link);
			return NULL;
		}
		if ((size_t)length == size) { /* perhaps cut: it grew since lstat */
			sg_free(link);
			continue;
		}
		link[length] = '\0';
		if (link[0] == '/')
			return link;
		/* relative: to the folder holding the symlink */
		size_t prefix =
		    (size_t)(strrchr(target, '/') ? strrchr(target, '/') - target + 1 : 0);
		char *joined = sg_malloc(prefix + (size_t)length + 1);
		if (joined) {
			memcpy(joined, target, prefix);
			memcpy(joined + prefix, link, (size_t)length + 1);
		}
		sg_free(link);
		errno = ENOMEM; /* for the NULL case */
		return joined;
	}
}

/* Follows symlinks (dangling ones too) to the file that will be written: on
 * return out->folder_fd and out->name name it, and st is its lstat if it exists. */
static sg_result find_target(struct sg_atomic_file *out, struct stat *st, bool *exists)
{
	char *target = sg_strdup(out->path);
	char shown_target[256];
	sg_result result = SG_OK;
	for (int links = 0;; links++) {
		if (!target) {
			result =
			    sg_fail(SG_ERR_NO_MEMORY, "out of memory writing '%s'", out->shown);
			break;
		}
		result = open_folder(out, target);
		if (result)
			break;
		*exists = fstatat(out->folder_fd, out->name, st, AT_SYMLINK_NOFOLLOW) == 0;
		if (!*exists && errno != ENOENT)
			result = sg_fail(SG_ERR_IO, "cannot write '%s': %s", out->shown,
			                 strerror(errno));
		if (!*exists || !S_ISLNK(st->st_mode))
			break;
		/* A link that ends at a device, FIFO or socket is opened through itself:
		 * /dev/stdout's magic link to "pipe:[1234]" names no path to follow. */
		struct stat end;
		if (fstatat(out->folder_fd, out->name, &end, 0) == 0 && !S_ISREG(end.st_mode) &&
		    !S_ISDIR(end.st_mode)) {
			*st = end;
			break;
		}
		/* Followed by hand, so the kernel's fs.protected_symlinks rule is ours to
		 * apply: in a sticky world-writable folder (/tmp), a symlink owned by
		 * someone other than us or the folder's owner is not followed, or
		 * anyone could point root's output at /etc/shadow. */
		struct stat folder;
		if (fstat(out->folder_fd, &folder) == 0 && (folder.st_mode & S_ISVTX) &&
		    (folder.st_mode & S_IWOTH) && st->st_uid != geteuid() &&
		    st->st_uid != folder.st_uid) {
			result = sg_fail(
			    SG_ERR_IO,
			    "cannot write '%s': '%s' is a symlink owned by uid %u in a sticky "
			    "world-writable folder: not followed (as fs.protected_symlinks)",
			    out->shown, sg_escape_path(target, shown_target, sizeof(shown_target)),
			    (unsigned)st->st_uid);
			break;
		}
		if (links == MAX_SYMLINKS) {
			result =
			    sg_fail(SG_ERR_IO, "cannot write '%s': more than %d symbolic links",
			            out->shown, MAX_SYMLINKS);
			break;
		}
		char *next = follow_link(out, target, (size_t)st->st_size);
		if (!next && errno != ENOMEM) {
			result = sg_fail(
			    SG_ERR_IO, "cannot write '%s': reading the symlink '%s': %s",
			    out->shown, sg_escape_path(target, shown_target, sizeof(shown_target)),
			    strerror(errno));
			break;
		}
		close(out->folder_fd);
		out->folder_fd = -1;
		sg_free(out->name);
		out->name = NULL;
		sg_free(target);
		target = next;
	}
	sg_free(target);
	return result;
}

static sg_result open_in_place(struct sg_atomic_file *out, const struct stat *st)
{
	if (S_ISDIR(st->st_mode) || S_ISSOCK(st->st_mode))
		return sg_fail(SG_ERR_IO, "cannot write '%s': it is %s", out->shown,
		               sg_file_kind(st->st_mode));
	/* No O_CREAT, no rename: the device or FIFO itself is the destination (a FIFO
	 * waits here for its reader, as with cp). O_NOCTTY: a terminal written to must
	 * not become the process's controlling terminal. */
	out->fd = openat(out->folder_fd, out->name, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (out->fd < 0)
		return sg_fail(SG_ERR_IO, "cannot open '%s' (%s) for writing: %s", out->shown,
		               sg_file_kind(st->st_mode), strerror(errno));
	struct stat opened;
	if (fstat(out->fd, &opened) != 0 || (opened.st_mode & S_IFMT) != (st->st_mode & S_IFMT))
		return sg_fail(SG_ERR_IO, "cannot write '%s': it was replaced while being opened",
		               out->shown);
	close(out->folder_fd);
	out->folder_fd = -1;
	return SG_OK;
}

/* A short name, whatever the length of the final one: a final name of NAME_MAX
 * bytes must still leave room. Unpredictable enough for O_EXCL to settle races. */
static void temporary_name(char name[16])
{
	static atomic_uint counter;
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	unsigned long long bits = ((unsigned long long)getpid() << 32) ^
	                          (unsigned long long)now.tv_nsec ^
	                          (atomic_fetch_add(&counter, 1) * 0x9e3779b97f4a7c15ull);
	static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	strcpy(name, ".sg-");
	for (int i = 4; i < 14; i++, bits /= 36)
		name[i] = digits[bits % 36];
	name[14] = '\0';
}

static int create_named(struct sg_atomic_file *out, mode_t mode)
{
	for (int attempt = 0; attempt < 100; attempt++) {
		temporary_name(out->temporary);
		int fd = openat(out->folder_fd, out->temporary,
		                O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST)
			break;
	}
	out->temporary[0] = '\0';
	return -1;
}

/* Whether an unnamed file can be given a name later. Probed by linking it to
 * ".", which always exists: EEXIST means the source was accepted, and no name
 * is made (the kernel looks the source up before the destination). */
static enum link_method find_link_method(int fd, int folder_fd)
{
	if (linkat(fd, "", folder_fd, ".", AT_EMPTY_PATH) != 0 && errno == EEXIST)
		return LINK_EMPTY_PATH;
	char proc[40];
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (linkat(AT_FDCWD, proc, folder_fd, ".", AT_SYMLINK_FOLLOW) != 0 && errno == EEXIST)
		return LINK_PROC;
	return LINK_NAMED;
}

static sg_result open_temporary(struct sg_atomic_file *out, const struct stat *old)
{
	/* A new file gets 0666 less the umask (applied by the kernel, default ACLs
	 * included), as with cp. An old file's mode is set below, after its owner;
	 * until then only we can read the partial image. */
	mode_t mode = old ? 0600 : 0666;
	/* Unnamed until complete: a signal during the encoding leaves nothing. */
	errno = EOPNOTSUPP;
	if (!sg_atomic_file_refuse_tmpfile)
		out->fd = openat(out->folder_fd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
	if (out->fd >= 0) {
		out->link_method = find_link_method(out->fd, out->folder_fd);
		if (out->link_method == LINK_NAMED) {
			close(out->fd);
			out->fd = -1;
			errno = EOPNOTSUPP;
		}
	}
	/* Kernels and file systems without O_TMPFILE refuse it with one of these. */
	if (out->fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL))
		out->fd = create_named(out, mode);
	if (out->fd < 0)
		return sg_fail(SG_ERR_IO, "cannot create a temporary file beside '%s': %s",
		               out->shown, strerror(errno));
	if (!old)
		return SG_OK;
	/* Owner first: fchown clears set-user-ID bits that fchmod then restores. Only
	 * root may give a file away; anyone else's copy stays theirs (EPERM). */
	if (fchown(out->fd, old->st_uid, old->st_gid) != 0) {
		if (errno != EPERM && errno != EINVAL)
			return sg_fail(SG_ERR_IO, "cannot give the new '%s' the old one's owner: %s",
			               out->shown, strerror(errno));
		/* Not root: the group may still be kept where we are a member of it. */
		if (fchown(out->fd, (uid_t)-1, old->st_gid) != 0 && errno != EPERM && errno != EINVAL)
			return sg_fail(SG_ERR_IO, "cannot give the new '%s' the old one's group: %s",
			               out->shown, strerror(errno));
	}
	if (fchmod(out->fd, old->st_mode & 07777) != 0)
		return sg_fail(SG_ERR_IO, "cannot give the new '%s' the old one's mode %o: %s",
		               out->shown, old->st_mode & 07777, strerror(errno));
	return SG_OK;
}

sg_result sg_atomic_file_open(struct sg_atomic_file *out, const char *path)
{
	*out = (struct sg_atomic_file){.path = path, .fd = -1, .folder_fd = -1};
	sg_escape_path(path, out->shown, sizeof(out->shown));
	struct stat st;
	bool exists = false;
	sg_result result = find_target(out, &st, &exists);
	if (!result && exists && !S_ISREG(st.st_mode))
		result = open_in_place(out, &st);
	else if (!result)
		result = open_temporary(out, exists ? &st : NULL);
	if (result)
		sg_atomic_file_abort(out);
	return result;
}

static int give_name(struct sg_atomic_file *out)
{
	for (int attempt = 0; attempt < 100; attempt++) {
		temporary_name(out->temporary);
		int linked;
		if (out->link_method == LINK_EMPTY_PATH) {
			linked = linkat(out->fd, "", out->folder_fd, out->temporary, AT_EMPTY_PATH);
		} else {
			char proc[40];
			snprintf(proc, sizeof(proc), "/proc/self/fd/%d", out->fd);
			linked = linkat(AT_FDCWD, proc, out->folder_fd, out->temporary,
			                AT_SYMLINK_FOLLOW);
		}
		if (linked == 0)
			return 0;
		if (errno != EEXIST)
			break;
	}
	out->temporary[0] = '\0';
	return -1;
}

/* Names the complete file and renames it over the final name. */
static sg_result put_in_place(struct sg_atomic_file *out)
{
	/* Between the link and the rename the file has a name: the signals that end a
	 * program are held back until both are done, so none can leave it behind. */
	sigset_t ending, old_mask;
	sigemptyset(&ending);
	sigaddset(&ending, SIGINT);
	sigaddset(&ending, SIGTERM);
	sigaddset(&ending, SIGHUP);
	sigaddset(&ending, SIGQUIT);
	pthread_sigmask(SIG_BLOCK, &ending, &old_mask);
	sg_result result = SG_OK;
	if (out->link_method != LINK_NAMED && give_name(out) != 0)
		result = sg_fail(SG_ERR_IO, "cannot name the temporary file for '%s': %s",
		                 out->shown, strerror(errno));
	int fd = out->fd;
	out->fd = -1;
	if (close(fd) != 0 && !result)
		result = sg_fail(SG_ERR_IO, "writing '%s' failed: %s", out->shown, strerror(errno));
	if (!result && renameat(out->folder_fd, out->temporary, out->folder_fd, out->name) != 0)
		result = sg_fail(SG_ERR_IO, "cannot rename the temporary file '%s' over '%s': %s",
		                 out->temporary, out->shown, strerror(errno));
	if (!result)
		out->temporary[0] = '\0'; /* it is the final file now */
	sg_atomic_file_abort(out);        /* removes the temporary file if it is still there */
	pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
	return result;
}

sg_result sg_atomic_file_commit(struct sg_atomic_file *out)
{
	/* fsync so that a full disk or a failing device is reported here, not lost at
	 * close. Devices and FIFOs that have nothing to sync say EINVAL. */
	sg_result result = SG_OK;
	bool in_place = out->folder_fd < 0;
	if (fsync(out->fd) != 0 && !(in_place && (errno == EINVAL || errno == EROFS)))
		result = sg_fail(SG_ERR_IO, "writing '%s' failed: %s", out->shown, strerror(errno));
	if (result || !in_place) {
		if (!result)
			return put_in_place(out);
		sg_atomic_file_abort(out);
		return result;
	}
	int fd = out->fd;
	out->fd = -1;
	if (close(fd) != 0)
		result = sg_fail(SG_ERR_IO, "writing '%s' failed: %s", out->shown, strerror(errno));
	sg_atomic_file_abort(out);
	return result;
}

void sg_atomic_file_abort(struct sg_atomic_file *out)
{
	if (out->fd >= 0)
		close(out->fd);
	if (out->temporary[0])
		unlinkat(out->folder_fd, out->temporary, 0);
	if (out->folder_fd >= 0)
		close(out->folder_fd);
	sg_free(out->name);
	struct sg_atomic_file closed = {.path = out->path, .fd = -1, .folder_fd = -1};
	memcpy(closed.shown, out->shown, sizeof(closed.shown));
	*out = closed;
}
