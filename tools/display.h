/* sg-render --display: an animated scene file on a display through KMS. */
#ifndef SG_RENDER_DISPLAY_H
#define SG_RENDER_DISPLAY_H

#include <sg/sg.h>

#include "options.h"

/* Shows frames o->first .. o->last of file, one per page flip, the animation
 * advancing by the real time between flips at o->fps, then restores the
 * display. Returns the exit status; on SIGINT or SIGTERM it restores the
 * display and ends the process by that signal. */
int display_run(const struct options *o, struct sg_scene_file *file);

#endif
