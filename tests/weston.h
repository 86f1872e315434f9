/* A private weston for the window tests: Debian's weston 10 on its headless
 * backend (pixman renderer, which screenshots need), started as a child
 * process with an XDG_RUNTIME_DIR of its own, and screenshots of its output
 * taken with weston-screenshooter.
 *
 * Check runs each test in a forked process and _exit()s it on the first
 * failed assertion, so no teardown runs after a failure: the compositor is
 * started with PR_SET_PDEATHSIG (it dies with the test process, whatever
 * ends it) and its folder lies under a base folder that the test program's
 * main() removes after the whole run (weston_base_init / weston_base_remove). */
#ifndef SG_TESTS_WESTON_H
#define SG_TESTS_WESTON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define WESTON_PATH_MAX 256

enum weston_shell {
	/* kiosk-shell: every toplevel fullscreen at the output size; but weston
	 * 10's maps a toplevel only when it can activate it for a seat, and the
	 * headless backend has none: the window is never shown and gets no
	 * frame callback. Use WESTON_DESKTOP and xdg_toplevel.set_fullscreen. */
	WESTON_KIOSK = 0,
	WESTON_DESKTOP, /* desktop-shell, no animations: windows keep their size */
};

struct weston_desc {
	enum weston_shell shell;
	int width, height; /* the output in logical pixels (weston's --width, --height) */
	int scale;         /* 0 or 1: none; 2: an output of 2 * width x 2 * height pixels */
};

struct weston {
	pid_t pid;                    /* 0 once it is stopped, killed or reaped */
	char dir[WESTON_PATH_MAX];    /* its XDG_RUNTIME_DIR, mode 0700 */
	char name[32];                /* the socket's name in dir (WAYLAND_DISPLAY) */
	char socket[WESTON_PATH_MAX]; /* dir/name */
	char log[WESTON_PATH_MAX];    /* its stdout and stderr */
	int shots;                    /* screenshots taken, for their folders' names */
};

/* The folder under which every compositor's folder is made; main() calls
 * these around the run. Without weston_base_init the folders go to $TMPDIR. */
bool weston_base_init(void);
void weston_base_remove(void);

/* Starts weston and waits (at most 10 s) for its socket. false with a
 * message in why (its log's last lines included) when it cannot. */
bool weston_start(struct weston *weston, const struct weston_desc *desc, char *why,
                  size_t why_size);
/* SIGTERM, then SIGKILL after 3 s; reaps it and removes its folder. Accepts a
 * stopped or killed one (then only removes the folder), and a zeroed one. */
void weston_stop(struct weston *weston);
/* SIGKILL at once and reap it (a compositor that crashes); the folder stays
 * until weston_stop. */
void weston_kill(struct weston *weston);
/* Whether it still runs (reaps it if it exited). */
bool weston_alive(struct weston *weston);

/* Sets WAYLAND_DISPLAY and XDG_RUNTIME_DIR of this process to weston's. */
void weston_setenv(const struct weston *weston);

/* The last lines of its log (at most size - 1 bytes), for failure messages. */
void weston_log_tail(const struct weston *weston, char *text, size_t size);

/* The output as weston-screenshooter saves it (at most 10 s): RGBA, alpha
 * 255, *width x *height pixels, tight rows; the caller sg_free()s it. NULL
 * with a message in why. */
uint8_t *weston_screenshot(struct weston *weston, int *width, int *height, char *why,
                           size_t why_size);

#endif
