/* sg-render --window: an animated scene file in a Wayland window. */
#ifndef SG_RENDER_WINDOW_SHOW_H
#define SG_RENDER_WINDOW_SHOW_H

#include <sg/sg.h>

#include "options.h"

/* Shows frames o->first .. o->last of file at o->fps, one per frame callback
 * (window_loop.c), until the last has been shown (one frame alone: until
 * closed), the window is closed or a signal, which then ends the process as
 * it would have. Returns the exit status. */
int window_show_run(const struct options *o, struct sg_scene_file *file);

#endif
