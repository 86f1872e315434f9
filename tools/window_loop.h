/* A scene shown in a Wayland window (sg/window.h) until it is closed, a
 * limit or SIGINT/SIGTERM: sg-render --window and the demos' --window. */
#ifndef SG_TOOLS_WINDOW_LOOP_H
#define SG_TOOLS_WINDOW_LOOP_H

#include <stdbool.h>

#include <sg/sg.h>

struct window_loop {
	const char *program;        /* for messages: "sg-render", "orbits" */
	struct sg_window_desc desc; /* on_resize and on_close are the loop's */
	struct sg_scene *scene;
	double seconds; /* stop after this long; 0: no limit */
	long frames;    /* stop after this many frames shown; 0: no limit */
	bool quiet;     /* print nothing but errors */
	/* Poses the scene for the time since the first frame was shown and sets
	 * the camera for a width x height window; *last: no later frame differs
	 * (the loop then only follows resizes until closed). NULL: a still
	 * scene under sg_camera_init_pixels(still_width, still_height). */
	sg_result (*pose)(void *data, double seconds, int width, int height,
	                  struct sg_camera *camera, bool *last);
	void *data;
	/* When the pose next changes, in seconds since the first frame, from
	 * seconds (a scene of fewer frames a second than the compositor's):
	 * after a present that committed nothing the loop sleeps until then.
	 * NULL: the pose changes at every frame. */
	double (*next_change)(void *data, double seconds);
	int still_width, still_height;
	bool stop_at_last; /* end the loop once the last frame was shown (sg-render) */
};

/* Returns 0 (also when closed by the compositor or stopped by a signal, as
 * *signal_number tells; NULL: not wanted) or 1 on an error, said on stderr. */
int window_loop_run(struct window_loop *loop, int *signal_number);

#endif
