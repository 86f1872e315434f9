/* sg-render --window (window_show.h). Scene frame k is due from k / fps to
 * (k + 1) / fps of the time since the first was shown, as with --display;
 * a single frame stays until the window is closed. */
#include "window_show.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>

#include "escape.h"
#include "window_loop.h"

struct show {
	const struct options *o;
	struct sg_scene_file *file;
	int last_posed;
	double fps; /* --fps, else the scene file's "fps" */
};

static sg_result pose(void *data, double seconds, int width, int height,
                      struct sg_camera *camera, bool *last)
{
	struct show *s = data;
	const struct options *o = s->o;
	double due = (double)o->first + floor(seconds * s->fps);
	int frame = due > o->last ? o->last : (int)due;
	*last = frame == o->last;
	sg_scene_file_get_camera(s->file, width, height, camera);
	s->last_posed = frame;
	return sg_scene_file_apply_frame(s->file, frame);
}

/* Scene frame k + 1 is due at (k + 1) / fps of the time shown. */
static double next_change(void *data, double seconds)
{
	const struct show *s = data;
	return (floor(seconds * s->fps) + 1) / s->fps;
}

int window_show_run(const struct options *o, struct sg_scene_file *file)
{
	struct show s = {.o = o,
	                 .file = file,
	                 .last_posed = -1,
	                 .fps = o->fps ? o->fps : sg_scene_file_get_fps(file)};
	struct window_loop loop = {
	    .program = "sg-render",
	    .desc = {.title = o->scene, .app_id = "org.libsg.sg-render", .width = o->width,
	             .height = o->height, .device = o->desc.device},
	    .scene = sg_scene_file_get_scene(file),
	    .quiet = o->quiet || !o->info,
	    .pose = pose,
	    .data = &s,
	    .next_change = next_change,
	    /* one frame (a scene without animation, or --frame-range N:N) is
	     * a picture to look at: it stays until closed, as viewer's does */
	    .stop_at_last = o->last > o->first,
	};
	if (!loop.desc.width)
		sg_scene_file_get_size(file, &loop.desc.width, &loop.desc.height);
	if (o->has_background)
		for (int i = 0; i < 4; i++)
			loop.desc.clear_color[i] = o->background[i];
	else
		sg_scene_file_get_background(file, loop.desc.clear_color);
	int signal_number = 0;
	int status = window_loop_run(&loop, &signal_number) ? EXIT_RENDER : EXIT_OK;
	if (!status && !o->quiet)
		escape_printf(stdout, "showed frames %d .. %d of %s in a window at %g frames/s",
		              o->first, s.last_posed, o->scene, s.fps);
	if (signal_number) {
		/* end as the signal would have ended us, now that the window is gone */
		fflush(stdout);
		signal(signal_number, SIG_DFL);
		raise(signal_number);
	}
	return status;
}
