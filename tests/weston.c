/* A private headless weston for the window tests (weston.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* close_range, the project defines it too */
#endif
#include "weston.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../src/base/alloc.h"
#include "../src/base/png_read.h"

extern char **environ;

static char base_dir[WESTON_PATH_MAX];

static void say(char *why, size_t size, const char *format, ...)
{
	va_list args;
	va_start(args, format);
	vsnprintf(why, size, format, args);
	va_end(args);
}

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	remove(path);
	return 0;
}

static void remove_tree(const char *path)
{
	if (path[0])
		nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

bool weston_base_init(void)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(base_dir, sizeof(base_dir), "%s/sg-weston-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
	if (!mkdtemp(base_dir)) {
		base_dir[0] = '\0';
		return false;
	}
	return true;
}

void weston_base_remove(void)
{
	remove_tree(base_dir);
	base_dir[0] = '\0';
}

/* environ without the variables a client or a nested compositor would read,
 * plus extra (NULL-terminated): made before fork, since the child of a
 * process with threads (Mesa's) may only call async-signal-safe functions. */
static char **child_environment(const char *const *extra)
{
	size_t count = 0, extra_count = 0;
	while (environ[count])
		count++;
	while (extra[extra_count])
		extra_count++;
	char **env = calloc(count + extra_count + 1, sizeof(*env));
	if (!env)
		return NULL;
	size_t n = 0;
	for (size_t i = 0; i < count; i++) {
		static const char *const dropped[] = {
		    "WAYLAND_DISPLAY=", "WAYLAND_SOCKET=", "XDG_RUNTIME_DIR=", "WAYLAND_DEBUG=",
		    "DISPLAY="};
		bool drop = false;
		for (size_t d = 0; d < sizeof(dropped) / sizeof(dropped[0]); d++)
			drop |= strncmp(environ[i], dropped[d], strlen(dropped[d])) == 0;
		if (!drop)
			env[n++] = environ[i];
	}
	for (size_t i = 0; i < extra_count; i++)
		env[n++] = (char *)extra[i];
	return env;
}

/* fork + execve with stdin from /dev/null, stdout and stderr to output, in
 * folder cwd, dying with the calling thread (PR_SET_PDEATHSIG). */
static pid_t spawn(const char *const *argv, char **env, const char *output, const char *cwd)
{
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid != 0)
		return pid;
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
		_exit(126);
	int in = open("/dev/null", O_RDONLY);
	int out = open(output, O_WRONLY | O_CREAT | O_APPEND, 0600);
	if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
		_exit(126);
	/* Check's pipe to its runner and the test's Wayland connections stay
	 * with the test. */
	close_range(3, ~0u, 0);
	if (cwd && chdir(cwd) != 0)
		_exit(126);
	signal(SIGPIPE, SIG_DFL);
	execve(argv[0], (char *const *)argv, env);
	_exit(127);
}

/* Reaps pid within timeout_ms; false (pid left running) when it did not exit. */
static bool reap(pid_t pid, int timeout_ms, int *status)
{
	int64_t deadline = now_ms() + timeout_ms;
	for (;;) {
		pid_t got = waitpid(pid, status, WNOHANG);
		if (got == pid || (got < 0 && errno != EINTR))
			return true;
		if (now_ms() >= deadline)
			return false;
		sleep_ms(5);
	}
}

void weston_log_tail(const struct weston *weston, char *text, size_t size)
{
	text[0] = '\0';
	FILE *file = fopen(weston->log, "r");
	if (!file) {
		snprintf(text, size, "(no log at %s)", weston->log);
		return;
	}
	fseek(file, 0, SEEK_END);
	long end = ftell(file), want = (long)size - 1;
	fseek(file, end > want ? end - want : 0, SEEK_SET);
	size_t n = fread(text, 1, size - 1, file);
	text[n] = '\0';
	fclose(file);
	char *first_line = strchr(text, '\n'); /* drop a cut first line */
	if (end > want && first_line)
		memmove(text, first_line + 1, strlen(first_line + 1) + 1);
}

static bool write_config(const char *path)
{
	FILE *file = fopen(path, "w");
	if (!file)
		return false;
	/* desktop-shell fades the screen in at startup by default: a screenshot
	 * then would be dimmed. No panel: a fullscreen window hides it anyway. */
	fputs("[core]\nidle-time=0\n"
	      "[shell]\nstartup-animation=none\nanimation=none\nclose-animation=none\n"
	      "focus-animation=none\npanel-position=none\nlocking=false\n"
	      "background-color=0xff203040\n",
	      file);
	return fclose(file) == 0;
}

/* libwayland binds the socket before it listens: between the two the file
 * exists and a connect is refused. Ready means a connect succeeds; weston
 * sees a client come and go. */
static bool accepts_connections(const char *path)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	size_t length = strlen(path);
	if (length >= sizeof(addr.sun_path))
		return false;
	memcpy(addr.sun_path, path, length + 1);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return false;
	bool ok = connect(fd, (struct sockaddr *)&addr, sizeof(addr)) == 0;
	close(fd);
	return ok;
}

bool weston_start(struct weston *weston, const struct weston_desc *desc, char *why, size_t why_size)
{
	static int started;
	*weston = (struct weston){0};
	if (access("/usr/bin/weston", X_OK) != 0 ||
	    access("/usr/bin/weston-screenshooter", X_OK) != 0) {
		say(why, why_size,
		    "no /usr/bin/weston or weston-screenshooter: install Debian's "
		    "weston (scripts/setup.sh does)");
		return false;
	}
	const char *tmp = getenv("TMPDIR");
	const char *parent = base_dir[0] ? base_dir : tmp && tmp[0] ? tmp : "/tmp";
	/* The socket's path must fit sockaddr_un's 108 bytes: keep folders short. */
	if (strlen(parent) > 64) {
		say(why, why_size, "folder name too long for a socket: %s", parent);
		return false;
	}
	snprintf(weston->dir, sizeof(weston->dir), "%.64s/weston-XXXXXX", parent);
	if (!mkdtemp(weston->dir)) {
		say(why, why_size, "mkdtemp %s: %s", weston->dir, strerror(errno));
		weston->dir[0] = '\0';
		return false;
	}
	chmod(weston->dir, 0700); /* mkdtemp's mode already; libwayland wants no more */
	snprintf(weston->name, sizeof(weston->name), "sg-test-%d-%d", (int)getpid(), ++started);
	snprintf(weston->socket, sizeof(weston->socket), "%.80s/%.31s", weston->dir, weston->name);
	snprintf(weston->log, sizeof(weston->log), "%.80s/weston.log", weston->dir);

	char socket_arg[64], width_arg[32], height_arg[32], scale_arg[32], config_arg[300];
	char runtime_env[300];
	snprintf(socket_arg, sizeof(socket_arg), "--socket=%s", weston->name);
	snprintf(width_arg, sizeof(width_arg), "--width=%d", desc->width);
	snprintf(height_arg, sizeof(height_arg), "--height=%d", desc->height);
	snprintf(scale_arg, sizeof(scale_arg), "--scale=%d", desc->scale > 1 ? desc->scale : 1);
	snprintf(runtime_env, sizeof(runtime_env), "XDG_RUNTIME_DIR=%s", weston->dir);
	if (desc->shell == WESTON_DESKTOP) {
		char config[WESTON_PATH_MAX + 16];
		snprintf(config, sizeof(config), "%s/weston.ini", weston->dir);
		if (!write_config(config)) {
			say(why, why_size, "writing %s: %s", config, strerror(errno));
			return false;
		}
		snprintf(config_arg, sizeof(config_arg), "--config=%s", config);
	} else {
		snprintf(config_arg, sizeof(config_arg), "--no-config");
	}
	/* --use-pixman: the default renderer for headless (noop) never
	 * completes a screenshot. --debug: weston 10 serves
	 * weston_screenshooter only with it. */
	const char *const argv[] = {"/usr/bin/weston",
	                            "--backend=headless-backend.so",
	                            "--use-pixman",
	                            desc->shell == WESTON_DESKTOP ? "--shell=desktop-shell.so"
	                                                          : "--shell=kiosk-shell.so",
	                            socket_arg,
	                            width_arg,
	                            height_arg,
	                            scale_arg,
	                            "--idle-time=0",
	                            config_arg,
	                            "--debug",
	                            NULL};
	const char *const extra[] = {runtime_env, NULL};
	char **env = child_environment(extra);
	if (!env) {
		say(why, why_size, "out of memory");
		return false;
	}
	weston->pid = spawn(argv, env, weston->log, weston->dir);
	free(env);
	if (weston->pid < 0) {
		say(why, why_size, "fork: %s", strerror(errno));
		weston->pid = 0;
		return false;
	}

	int64_t deadline = now_ms() + 10000;
	struct stat st;
	while (stat(weston->socket, &st) != 0 || !S_ISSOCK(st.st_mode) ||
	       !accepts_connections(weston->socket)) {
		int status;
		bool exited = waitpid(weston->pid, &status, WNOHANG) == weston->pid;
		if (exited || now_ms() >= deadline) {
			char tail[1024];
			if (exited)
				weston->pid = 0;
			weston_log_tail(weston, tail, sizeof(tail));
			say(why, why_size,
			    "weston (%s) %s before its socket %s took connections; its log ends:\n%s",
			    argv[3], exited ? "exited" : "took over 10 s", weston->socket, tail);
			return false;
		}
		sleep_ms(10);
	}
	return true;
}

void weston_kill(struct weston *weston)
{
	if (weston->pid > 0) {
		kill(weston->pid, SIGKILL);
		int status;
		reap(weston->pid, 10000, &status);
		weston->pid = 0;
	}
}

bool weston_alive(struct weston *weston)
{
	int status;
	if (weston->pid > 0 && waitpid(weston->pid, &status, WNOHANG) == weston->pid)
		weston->pid = 0;
	return weston->pid > 0;
}

void weston_stop(struct weston *weston)
{
	if (weston->pid > 0) {
		int status;
		kill(weston->pid, SIGTERM);
		if (!reap(weston->pid, 3000, &status))
			weston_kill(weston);
		weston->pid = 0;
	}
	remove_tree(weston->dir);
	weston->dir[0] = '\0';
}

void weston_setenv(const struct weston *weston)
{
	setenv("XDG_RUNTIME_DIR", weston->dir, 1);
	setenv("WAYLAND_DISPLAY", weston->name, 1);
}

/* The one file weston-screenshooter wrote in folder (wayland-screenshot-*.png). */
static bool find_shot(const char *folder, char *path, size_t size)
{
	DIR *dir = opendir(folder);
	if (!dir)
		return false;
	bool found = false;
	struct dirent *entry;
	while (!found && (entry = readdir(dir)))
		if (strncmp(entry->d_name, "wayland-screenshot", 18) == 0) {
			snprintf(path, size, "%.200s/%.60s", folder, entry->d_name);
			found = true;
		}
	closedir(dir);
	return found;
}

uint8_t *weston_screenshot(struct weston *weston, int *width, int *height, char *why,
                           size_t why_size)
{
	char folder[WESTON_PATH_MAX + 32], output[WESTON_PATH_MAX + 48];
	char display_env[64], runtime_env[300];
	snprintf(folder, sizeof(folder), "%s/shot-%d", weston->dir, ++weston->shots);
	snprintf(output, sizeof(output), "%s/screenshooter.log", weston->dir);
	if (mkdir(folder, 0700) != 0) {
		say(why, why_size, "mkdir %s: %s", folder, strerror(errno));
		return NULL;
	}
	snprintf(display_env, sizeof(display_env), "WAYLAND_DISPLAY=%s", weston->name);
	snprintf(runtime_env, sizeof(runtime_env), "XDG_RUNTIME_DIR=%s", weston->dir);
	const char *const extra[] = {display_env, runtime_env, NULL};
	const char *const argv[] = {"/usr/bin/weston-screenshooter", NULL};
	char **env = child_environment(extra);
	if (!env) {
		say(why, why_size, "out of memory");
		return NULL;
	}
	pid_t pid = spawn(argv, env, output, folder);
	free(env);
	if (pid < 0) {
		say(why, why_size, "fork: %s", strerror(errno));
		return NULL;
	}
	int status = 0;
	if (!reap(pid, 10000, &status)) {
		kill(pid, SIGKILL);
		reap(pid, 10000, &status);
		say(why, why_size, "weston-screenshooter took over 10 s (see %s)", output);
		return NULL;
	}
	char path[WESTON_PATH_MAX + 96];
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
	    !find_shot(folder, path, sizeof(path))) {
		char tail[512] = "";
		FILE *log = fopen(output, "r");
		if (log) {
			size_t n = fread(tail, 1, sizeof(tail) - 1, log);
			tail[n] = '\0';
			fclose(log);
		}
		say(why, why_size, "weston-screenshooter (status 0x%x) saved no PNG in %s: %s",
		    status, folder, tail);
		return NULL;
	}
	FILE *file = fopen(path, "rb");
	if (!file) {
		say(why, why_size, "%s: %s", path, strerror(errno));
		return NULL;
	}
	uint8_t *pixels = NULL;
	sg_result result = sg_png_read_rgba(file, path, 64u << 20, &pixels, width, height);
	fclose(file);
	remove_tree(folder);
	if (result != SG_OK) {
		say(why, why_size, "reading the screenshot %s: %s", path, sg_result_name(result));
		return NULL;
	}
	return pixels;
}
