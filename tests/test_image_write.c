/* Output files: sg_image_write_png never replaces what is not a regular file,
 * follows symlinks, keeps modes and owners, and leaves no temporary file, even
 * when killed. Each case runs in a private mount namespace with a tmpfs over
 * /tmp, so the devices it makes (mknod) and replaces are its own, never the
 * machine's /dev. Without the right to unshare (not root) those cases say so
 * and pass; the fd cases run everywhere. */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <sg/sg.h>

#include "check_run.h"
#include "../src/base/atomic_file.h"
#include "../src/graph/scene_internal.h"

#define ck_assert_fails(call, code, fragment)                                                      \
	do {                                                                                       \
		sg_result r_ = (call);                                                             \
		ck_assert_msg(r_ == (code), "%s returned %s, expected %s (%s)", #call,             \
		              sg_result_name(r_), sg_result_name(code), sg_last_error());          \
		ck_assert_msg(strstr(sg_last_error(), fragment), "'%s' lacks '%s'",                \
		              sg_last_error(), fragment);                                          \
	} while (0)

static char scratch[64];
static const uint8_t pixels[4 * 4 * 4] = {
    255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 9, 8, 7, 6, [32] = 200, 100, 50, 25,
};

/* A private mount namespace and a scratch folder on a tmpfs of its own; false
 * (after saying why) where the process may not make one. */
static bool enter_scratch(const char *test)
{
	if (unshare(CLONE_NEWNS) != 0) {
		printf("%s: skipped, unshare(CLONE_NEWNS): %s (run as root to test)\n", test,
		       strerror(errno));
		return false;
	}
	/* private first: the tmpfs below must not propagate to the machine's /tmp.
	 * ("none": the kernel ignores source and type here; valgrind wants strings.) */
	ck_assert_int_eq(mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL), 0);
	ck_assert_int_eq(mount("sg-output", "/tmp", "tmpfs", 0, "size=64m,mode=1777"), 0);
	strcpy(scratch, "/tmp/sg-output-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(scratch));
	umask(022);
	return true;
}

static char *in_scratch(const char *name)
{
	static char paths[4][PATH_MAX];
	static int next;
	char *path = paths[next++ % 4];
	snprintf(path, PATH_MAX, "%s/%s", scratch, name);
	return path;
}

static unsigned char *read_fd(int fd, size_t *size)
{
	size_t capacity = 1 << 16;
	unsigned char *data = malloc(capacity);
	*size = 0;
	ssize_t got;
	while ((got = read(fd, data + *size, capacity - *size)) > 0) {
		*size += (size_t)got;
		if (*size == capacity)
			data = realloc(data, capacity *= 2);
	}
	ck_assert_int_eq(got, 0);
	return data;
}

static unsigned char *read_path(const char *path, size_t *size)
{
	int fd = open(path, O_RDONLY);
	ck_assert_msg(fd >= 0, "open %s: %s", path, strerror(errno));
	unsigned char *data = read_fd(fd, size);
	close(fd);
	return data;
}

/* The bytes sg_image_write_png_fd makes of an image, through a memfd. */
static unsigned char *encode(int width, int height, const uint8_t *rgba, size_t *size)
{
	int fd = memfd_create("sg-reference", 0);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(sg_image_write_png_fd(fd, "reference", width, height, rgba, 0), SG_OK);
	lseek(fd, 0, SEEK_SET);
	unsigned char *data = read_fd(fd, size);
	close(fd);
	return data;
}

static uint8_t *noise(int width, int height)
{
	uint8_t *data = malloc((size_t)width * height * 4);
	uint32_t x = 2463534242u;
	for (size_t i = 0; i < (size_t)width * height * 4; i++) {
		x ^= x << 13, x ^= x >> 17, x ^= x << 5; /* xorshift: incompressible */
		data[i] = (uint8_t)x;
	}
	return data;
}

static void assert_holds_the_png(const char *path)
{
	size_t want_size, size;
	unsigned char *want = encode(4, 4, pixels, &want_size);
	unsigned char *got = read_path(path, &size);
	ck_assert_msg(size == want_size && memcmp(got, want, size) == 0,
	              "%s: %zu bytes, not the %zu of the PNG", path, size, want_size);
	free(got);
	free(want);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The folder holds exactly these names (sorted, space-separated): nothing stray. */
static void assert_folder_holds(const char *folder, const char *names)
{
	DIR *dir = opendir(folder);
	ck_assert_ptr_nonnull(dir);
	char *found[32];
	int count = 0;
	struct dirent *entry;
	while ((entry = readdir(dir)))
		if (strcmp(entry->d_name, ".") && strcmp(entry->d_name, ".."))
			ck_assert(count < 32), found[count++] = strdup(entry->d_name);
	closedir(dir);
	qsort(found, (size_t)count, sizeof(*found), by_name);
	char list[1024] = "";
	for (int i = 0; i < count; i++) {
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? " " : "",
		         found[i]);
		free(found[i]);
	}
	ck_assert_str_eq(list, names);
}

static mode_t kind(const char *path)
{
	struct stat st;
	ck_assert_msg(lstat(path, &st) == 0, "lstat %s: %s", path, strerror(errno));
	return st.st_mode & S_IFMT;
}

/* A path of 1121 bytes: the message keeps its reason (docs/errors.md: a message
 * loses its middle, never its end). The path is cut to 511 bytes, 254 of its
 * start and 254 of its end around "...", its folder to 255, 126 and 126. */
START_TEST(test_long_path_keeps_the_reason)
{
	char d[1101];
	memset(d, 'd', 1100);
	d[1100] = '\0';
	char path[1200];
	snprintf(path, sizeof(path), "/nonexistent/%s/out.png", d);
	ck_assert_uint_eq(strlen(path), 1121);
	uint8_t pixel[4] = {0};
	ck_assert_int_eq(sg_image_write_png(path, 1, 1, pixel, 0), SG_ERR_IO);
	char expected[1024];
	snprintf(expected, sizeof(expected),
	         "cannot write '/nonexistent/%.241s...%.246s/out.png': its folder "
	         "'/nonexistent/%.113s...%.126s': %s",
	         d, d, d, d, strerror(ENOENT));
	ck_assert_str_eq(sg_last_error(), expected);
}
END_TEST

START_TEST(test_char_devices_written_in_place)
{
	if (!enter_scratch("test_char_devices_written_in_place"))
		return;
	/* /dev/null, as root replaced by a regular file before */
	char *null = in_scratch("null");
	ck_assert_int_eq(mknod(null, S_IFCHR | 0666, makedev(1, 3)), 0);
	ck_assert_msg(sg_image_write_png(null, 4, 4, pixels, 0) == SG_OK, "%s", sg_last_error());
	ck_assert_int_eq(kind(null), S_IFCHR);

	/* /dev/full: its ENOSPC is reported, the device stays */
	char *full = in_scratch("full");
	ck_assert_int_eq(mknod(full, S_IFCHR | 0666, makedev(1, 7)), 0);
	ck_assert_fails(sg_image_write_png(full, 4, 4, pixels, 0), SG_ERR_IO, "No space left");
	ck_assert_msg(strstr(sg_last_error(), full), "%s", sg_last_error());
	ck_assert_int_eq(kind(full), S_IFCHR);
	int fd = open(full, O_WRONLY);
	ck_assert_fails(sg_image_write_png_fd(fd, "standard output", 4, 4, pixels, 0), SG_ERR_IO,
	                "writing 'standard output' failed: No space left");
	close(fd);

	/* a terminal of a devpts of our own: the bytes arrive at the other end */
	char *pts = in_scratch("pts");
	ck_assert_int_eq(mkdir(pts, 0755), 0);
	ck_assert_int_eq(mount("sg-pts", pts, "devpts", 0, "newinstance,ptmxmode=0666"), 0);
	int master = open(in_scratch("pts/ptmx"), O_RDWR | O_NOCTTY);
	ck_assert_int_ge(master, 0);
	int number;
	ck_assert_int_eq(ioctl(master, TIOCGPTN, &number), 0);
	ck_assert_int_eq(ioctl(master, TIOCSPTLCK, &(int){0}), 0);
	char name[32];
	snprintf(name, sizeof(name), "pts/%d", number);
	char *tty = in_scratch(name);
	int slave = open(tty, O_RDWR | O_NOCTTY); /* kept open: the master reads what it got */
	ck_assert_int_ge(slave, 0);
	struct termios raw;
	tcgetattr(slave, &raw);
	cfmakeraw(&raw); /* no "\n" to "\r\n" */
	tcsetattr(slave, TCSANOW, &raw);
	ck_assert_msg(sg_image_write_png(tty, 4, 4, pixels, 0) == SG_OK, "%s", sg_last_error());
	ck_assert_int_eq(kind(tty), S_IFCHR);
	size_t want_size;
	unsigned char *want = encode(4, 4, pixels, &want_size);
	unsigned char got[4096];
	size_t size = 0;
	while (size < want_size) {
		ssize_t n = read(master, got + size, sizeof(got) - size);
		ck_assert_int_gt(n, 0);
		size += (size_t)n;
	}
	ck_assert_uint_eq(size, want_size);
	ck_assert_mem_eq(got, want, size);
	free(want);
	close(slave);
	close(master);
	assert_folder_holds(scratch, "full null pts");
}
END_TEST

struct fifo_read {
	const char *path;
	unsigned char *data;
	size_t size;
};

static void *read_fifo(void *argument)
{
	struct fifo_read *fifo = argument;
	int fd = open(fifo->path, O_RDONLY);
	if (fd >= 0) {
		fifo->data = read_fd(fd, &fifo->size);
		close(fd);
	}
	return NULL;
}

START_TEST(test_fifo_written_in_place)
{
	if (!enter_scratch("test_fifo_written_in_place"))
		return;
	char *fifo = in_scratch("fifo");
	ck_assert_int_eq(mkfifo(fifo, 0644), 0);
	pthread_t reader;
	struct fifo_read got = {.path = fifo};
	ck_assert_int_eq(pthread_create(&reader, NULL, read_fifo, &got), 0);
	ck_assert_msg(sg_image_write_png(fifo, 4, 4, pixels, 0) == SG_OK, "%s", sg_last_error());
	ck_assert_int_eq(kind(fifo), S_IFIFO); /* checked before the join: no reader came */
	pthread_join(reader, NULL);
	size_t want_size;
	unsigned char *want = encode(4, 4, pixels, &want_size);
	ck_assert_uint_eq(got.size, want_size);
	ck_assert_mem_eq(got.data, want, want_size);
	ck_assert_mem_eq(got.data, "\x89PNG\r\n\x1a\n", 8);
	free(got.data);
	free(want);
	assert_folder_holds(scratch, "fifo");
}
END_TEST

START_TEST(test_socket_and_folder_refused)
{
	if (!enter_scratch("test_socket_and_folder_refused"))
		return;
	int sock = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un address = {.sun_family = AF_UNIX};
	snprintf(address.sun_path, sizeof(address.sun_path), "%s", in_scratch("sock"));
	ck_assert_int_eq(bind(sock, (struct sockaddr *)&address, sizeof(address)), 0);
	ck_assert_fails(sg_image_write_png(address.sun_path, 4, 4, pixels, 0), SG_ERR_IO,
	                "it is a socket");
	ck_assert_msg(strstr(sg_last_error(), address.sun_path), "%s", sg_last_error());
	ck_assert_int_eq(kind(address.sun_path), S_IFSOCK);
	close(sock);
	char folder[PATH_MAX];
	snprintf(folder, sizeof(folder), "%s", in_scratch("folder"));
	ck_assert_int_eq(mkdir(folder, 0755), 0);
	ck_assert_fails(sg_image_write_png(folder, 4, 4, pixels, 0), SG_ERR_IO,
	                "it is a directory");
	assert_folder_holds(scratch, "folder sock");
	assert_folder_holds(folder, "");
}
END_TEST

static void write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static void assert_link(const char *path, const char *target)
{
	char link[PATH_MAX];
	ssize_t length = readlink(path, link, sizeof(link) - 1);
	ck_assert_msg(length >= 0, "%s is no longer a symlink", path);
	link[length] = '\0';
	ck_assert_str_eq(link, target);
}

START_TEST(test_symlinks_followed)
{
	if (!enter_scratch("test_symlinks_followed"))
		return;
	/* to a file; a chain; a dangling one; an absolute one */
	write_text(in_scratch("target.png"), "old");
	ck_assert_int_eq(symlink("target.png", in_scratch("link")), 0);
	ck_assert_int_eq(symlink("link", in_scratch("chain")), 0);
	ck_assert_int_eq(symlink("new.png", in_scratch("dangling")), 0);
	ck_assert_int_eq(symlink(in_scratch("absolute.png"), in_scratch("absolute")), 0);
	const char *links[] = {"link", "chain", "dangling", "absolute"};
	const char *targets[] = {"target.png", "target.png", "new.png", "absolute.png"};
	for (int i = 0; i < 4; i++) {
		if (i != 2)
			write_text(in_scratch(targets[i]), "old");
		ck_assert_msg(sg_image_write_png(in_scratch(links[i]), 4, 4, pixels, 0) == SG_OK,
		              "%s: %s", links[i], sg_last_error());
		assert_holds_the_png(in_scratch(targets[i]));
	}
	assert_link(in_scratch("link"), "target.png");
	assert_link(in_scratch("chain"), "link");
	assert_link(in_scratch("dangling"), "new.png");
	assert_link(in_scratch("absolute"), in_scratch("absolute.png"));

	/* to a file in a folder on another file system: the temporary file must be
	 * made there, since a rename cannot cross file systems */
	char other[PATH_MAX];
	snprintf(other, sizeof(other), "%s", in_scratch("other"));
	ck_assert_int_eq(mkdir(other, 0755), 0);
	ck_assert_int_eq(mount("sg-other", other, "tmpfs", 0, "size=1m"), 0);
	write_text(in_scratch("other/far.png"), "old");
	ck_assert_int_eq(symlink("other/far.png", in_scratch("far")), 0);
	ck_assert_msg(sg_image_write_png(in_scratch("far"), 4, 4, pixels, 0) == SG_OK, "%s",
	              sg_last_error());
	assert_link(in_scratch("far"), "other/far.png");
	assert_holds_the_png(in_scratch("other/far.png"));
	assert_folder_holds(other, "far.png");
	assert_folder_holds(scratch, "absolute absolute.png chain dangling far link new.png other "
	                             "target.png");
}
END_TEST

static struct stat stat_of(const char *path)
{
	struct stat st;
	ck_assert_msg(stat(path, &st) == 0, "stat %s: %s", path, strerror(errno));
	return st;
}

/* fs.protected_symlinks, applied by hand since the links are followed by hand:
 * in a sticky world-writable folder (/tmp), another user's symlink is not
 * followed, or anyone could aim root's output at /etc/shadow. */
START_TEST(test_foreign_symlink_in_sticky_folder_refused)
{
	if (!enter_scratch("test_foreign_symlink_in_sticky_folder_refused"))
		return;
	char *shared = in_scratch("tmp");
	ck_assert_int_eq(mkdir(shared, 0755), 0);
	ck_assert_int_eq(chmod(shared, 01777), 0);
	char *victim = in_scratch("shadow");
	write_text(victim, "secret");
	char trap[PATH_MAX];
	snprintf(trap, sizeof(trap), "%s/out.png", shared);
	ck_assert_int_eq(symlink(victim, trap), 0);
	ck_assert_int_eq(lchown(trap, 65534, 65534), 0);
	ck_assert_int_eq(sg_image_write_png(trap, 4, 4, pixels, 0), SG_ERR_IO);
	ck_assert_msg(strstr(sg_last_error(), "sticky world-writable folder"), "%s",
	              sg_last_error());
	size_t size;
	unsigned char *text = read_path(victim, &size);
	ck_assert_msg(size == 6 && memcmp(text, "secret", 6) == 0, "the victim was replaced");
	free(text);
	/* our own symlink there is followed as usual */
	ck_assert_int_eq(lchown(trap, geteuid(), getegid()), 0);
	ck_assert_msg(sg_image_write_png(trap, 4, 4, pixels, 0) == SG_OK, "%s", sg_last_error());
	assert_holds_the_png(victim);
}
END_TEST

START_TEST(test_mode_and_owner_kept)
{
	if (!enter_scratch("test_mode_and_owner_kept"))
		return;
	char *secret = in_scratch("secret.png");
	write_text(secret, "old");
	chmod(secret, 0600);
	ck_assert_msg(sg_image_write_png(secret, 4, 4, pixels, 0) == SG_OK, "%s", sg_last_error());
	ck_assert_int_eq(stat_of(secret).st_mode & 07777, 0600);
	assert_holds_the_png(secret);

	char *theirs = in_scratch("theirs.png");
	write_text(theirs, "old");
	ck_assert_int_eq(chown(theirs, 65534, 65534), 0);
	chmod(theirs, 0640);
	ck_assert_msg(sg_image_write_png(theirs, 4, 4, pixels, 0) == SG_OK, "%s", sg_last_error());
	struct stat st = stat_of(theirs);
	ck_assert_int_eq(st.st_uid, 65534);
	ck_assert_int_eq(st.st_gid, 65534);
	ck_assert_int_eq(st.st_mode & 07777, 0640);
	assert_holds_the_png(theirs);

	/* a new file: 0666 less the umask, as cp makes it */
	umask(027);
	char *fresh = in_scratch("fresh.png");
	ck_assert_msg(sg_image_write_png(fresh, 4, 4, pixels, 0) == SG_OK, "%s", sg_last_error());
	ck_assert_int_eq(stat_of(fresh).st_mode & 07777, 0640);
	assert_folder_holds(scratch, "fresh.png secret.png theirs.png");
}
END_TEST

START_TEST(test_longest_name_written)
{
	if (!enter_scratch("test_longest_name_written"))
		return;
	char name[NAME_MAX + 1];
	memset(name, 'n', NAME_MAX);
	name[NAME_MAX] = '\0';
	ck_assert_msg(sg_image_write_png(in_scratch(name), 4, 4, pixels, 0) == SG_OK, "%s",
	              sg_last_error());
	assert_holds_the_png(in_scratch(name));
	/* and over an existing one */
	ck_assert_msg(sg_image_write_png(in_scratch(name), 4, 4, pixels, 0) == SG_OK, "%s",
	              sg_last_error());
	assert_folder_holds(scratch, name);
}
END_TEST

/* Where O_TMPFILE is refused, a named temporary file is used instead, renamed
 * just the same, or removed on failure. */
START_TEST(test_named_temporary_fallback)
{
	if (!enter_scratch("test_named_temporary_fallback"))
		return;
	sg_atomic_file_refuse_tmpfile = true;
	char *old = in_scratch("old.png");
	write_text(old, "old");
	ck_assert_int_eq(chown(old, 65534, 65534), 0);
	ck_assert_int_eq(chmod(old, 0604), 0);
	ck_assert_msg(sg_image_write_png(old, 4, 4, pixels, 0) == SG_OK, "%s", sg_last_error());
	assert_holds_the_png(old);
	struct stat st = stat_of(old);
	ck_assert_int_eq(st.st_mode & 07777, 0604);
	ck_assert_int_eq(st.st_uid, 65534);
	char name[NAME_MAX + 1];
	memset(name, 'n', NAME_MAX);
	name[NAME_MAX] = '\0';
	ck_assert_msg(sg_image_write_png(in_scratch(name), 4, 4, pixels, 0) == SG_OK, "%s",
	              sg_last_error());
	assert_holds_the_png(in_scratch(name));
	ck_assert_int_eq(stat_of(in_scratch(name)).st_mode & 07777, 0644);
	unlink(in_scratch(name));
	assert_folder_holds(scratch, "old.png");

	/* a full disk: the named file is removed, the old file stays */
	char small[PATH_MAX];
	snprintf(small, sizeof(small), "%s", in_scratch("small"));
	ck_assert_int_eq(mkdir(small, 0755), 0);
	ck_assert_int_eq(mount("sg-small", small, "tmpfs", 0, "size=16k"), 0);
	char *path = in_scratch("small/out.png");
	ck_assert_int_eq(sg_image_write_png(path, 4, 4, pixels, 0), SG_OK);
	uint8_t *big = noise(256, 256);
	ck_assert_fails(sg_image_write_png(path, 256, 256, big, 0), SG_ERR_IO, "No space left");
	free(big);
	assert_holds_the_png(path);
	assert_folder_holds(small, "out.png");
}
END_TEST

START_TEST(test_full_disk_leaves_the_old_file)
{
	if (!enter_scratch("test_full_disk_leaves_the_old_file"))
		return;
	char small[PATH_MAX];
	snprintf(small, sizeof(small), "%s", in_scratch("small"));
	ck_assert_int_eq(mkdir(small, 0755), 0);
	ck_assert_int_eq(mount("sg-small", small, "tmpfs", 0, "size=16k"), 0);
	char *path = in_scratch("small/out.png");
	ck_assert_int_eq(sg_image_write_png(path, 4, 4, pixels, 0), SG_OK);
	uint8_t *big = noise(256, 256);
	ck_assert_fails(sg_image_write_png(path, 256, 256, big, 0), SG_ERR_IO, "No space left");
	ck_assert_msg(strstr(sg_last_error(), path), "%s", sg_last_error());
	free(big);
	assert_holds_the_png(path);
	assert_folder_holds(small, "out.png");
}
END_TEST

/* Killed at several moments while writing a large PNG over and over, a writer
 * leaves either no file or a complete one, and never a temporary file. */
START_TEST(test_killed_writer_leaves_no_temporary)
{
	if (!enter_scratch("test_killed_writer_leaves_no_temporary"))
		return;
	enum { SIDE = 512 };
	uint8_t *image = noise(SIDE, SIDE);
	size_t want_size;
	unsigned char *want = encode(SIDE, SIDE, image, &want_size);
	char *path = in_scratch("big.png");
	for (int round = 0; round < 6; round++) {
		int started[2];
		ck_assert_int_eq(pipe(started), 0);
		pid_t child = fork();
		ck_assert_int_ge(child, 0);
		if (child == 0) {
			/* as a plain program: Check's own handlers would kill the whole group */
			signal(SIGINT, SIG_DFL);
			signal(SIGTERM, SIG_DFL);
			close(started[0]);
			for (;;) { /* tells the parent each time a write begins */
				if (write(started[1], "w", 1) != 1 ||
				    sg_image_write_png(path, SIDE, SIDE, image, 0) != SG_OK)
					_exit(3);
			}
		}
		close(started[1]);
		/* a different moment each round: during the first write (no file yet) or a
		 * later one (the old file there), at once or a little into the encoding */
		char byte;
		for (int writes = 0; writes <= round / 2; writes++)
			ck_assert_int_eq(read(started[0], &byte, 1), 1);
		if (round % 2)
			usleep(2000 * (unsigned)round);
		kill(child, round % 3 ? SIGTERM : SIGINT);
		int status;
		ck_assert_int_eq(waitpid(child, &status, 0), child);
		ck_assert_msg(WIFSIGNALED(status), "round %d: the writer exited (%d)", round,
		              WEXITSTATUS(status));
		close(started[0]);
		if (access(path, F_OK) == 0) {
			size_t size;
			unsigned char *got = read_path(path, &size);
			ck_assert_msg(size == want_size && !memcmp(got, want, size),
			              "round %d: a partial file of %zu bytes", round, size);
			free(got);
			assert_folder_holds(scratch, "big.png");
		} else {
			assert_folder_holds(scratch, "");
		}
	}
	free(want);
	free(image);
}
END_TEST

START_TEST(test_write_to_pipe)
{
	int ends[2];
	ck_assert_int_eq(pipe(ends), 0);
	ck_assert_msg(sg_image_write_png_fd(ends[1], "standard output", 4, 4, pixels, 0) == SG_OK,
	              "%s", sg_last_error());
	ck_assert_int_ne(fcntl(ends[1], F_GETFD), -1); /* still open: the caller's */
	/* and through a path such as /dev/stdout, a magic link to "pipe:[N]" */
	char stdout_path[64];
	snprintf(stdout_path, sizeof(stdout_path), "/proc/self/fd/%d", ends[1]);
	ck_assert_msg(sg_image_write_png(stdout_path, 4, 4, pixels, 0) == SG_OK, "%s",
	              sg_last_error());
	close(ends[1]);
	size_t size, want_size;
	unsigned char *got = read_fd(ends[0], &size);
	close(ends[0]);
	unsigned char *want = encode(4, 4, pixels, &want_size);
	ck_assert_uint_eq(size, 2 * want_size);
	ck_assert_mem_eq(got, want, want_size);
	ck_assert_mem_eq(got + want_size, want, want_size);
	free(got);
	free(want);

	/* and what is written decodes to the pixels */
	int memory = memfd_create("sg-decoded", 0);
	ck_assert_int_eq(sg_image_write_png_fd(memory, "memory", 4, 4, pixels, 0), SG_OK);
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", memory);
	struct sg_scene *scene = sg_scene_create();
	sg_texture texture = sg_texture_load_png(scene, path, SG_FILTER_NEAREST, SG_WRAP_CLAMP);
	ck_assert_msg(texture.generation, "%s", sg_last_error());
	ck_assert_mem_eq(sg_scene_texture(scene, texture)->pixels, pixels, sizeof(pixels));
	sg_scene_destroy(scene);
	close(memory);
}
END_TEST

START_TEST(test_write_to_closed_pipe)
{
	/* default SIGPIPE: were it raised, the process would end here */
	signal(SIGPIPE, SIG_DFL);
	int ends[2];
	ck_assert_int_eq(pipe(ends), 0);
	close(ends[0]);
	ck_assert_fails(sg_image_write_png_fd(ends[1], "standard output", 4, 4, pixels, 0),
	                SG_ERR_IO, "writing 'standard output' failed: Broken pipe");
	sigset_t pending;
	sigpending(&pending);
	ck_assert(!sigismember(&pending, SIGPIPE));
	close(ends[1]);
	ck_assert_fails(sg_image_write_png_fd(-1, "standard output", 4, 4, pixels, 0),
	                SG_ERR_INVALID_ARGUMENT, "fd -1");
	ck_assert_fails(sg_image_write_png_fd(1, NULL, 4, 4, pixels, 0), SG_ERR_INVALID_ARGUMENT,
	                "NULL name");
}
END_TEST

int main(void)
{
	Suite *suite = suite_create("output");
	TCase *tc = tcase_create("output");
	tcase_add_test(tc, test_long_path_keeps_the_reason);
	tcase_add_test(tc, test_char_devices_written_in_place);
	tcase_add_test(tc, test_fifo_written_in_place);
	tcase_add_test(tc, test_socket_and_folder_refused);
	tcase_add_test(tc, test_symlinks_followed);
	tcase_add_test(tc, test_foreign_symlink_in_sticky_folder_refused);
	tcase_add_test(tc, test_mode_and_owner_kept);
	tcase_add_test(tc, test_longest_name_written);
	tcase_add_test(tc, test_named_temporary_fallback);
	tcase_add_test(tc, test_full_disk_leaves_the_old_file);
	tcase_add_test(tc, test_killed_writer_leaves_no_temporary);
	tcase_add_test(tc, test_write_to_pipe);
	tcase_add_test(tc, test_write_to_closed_pipe);
	suite_add_tcase(suite, tc);
	return check_run(suite);
}
