/* sg-render: the command line. */
#ifndef SG_RENDER_OPTIONS_H
#define SG_RENDER_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <sg/sg.h>

#include "output_name.h"

/* Exit statuses, as documented in --help and docs/sg-render.md. */
enum {
	EXIT_OK = 0,
	EXIT_RENDER = 1, /* device, EGL/GL or output file failure, out of memory */
	EXIT_USAGE = 2,
	EXIT_INPUT = 3, /* the scene file (or a texture it names) is missing or malformed,
	                 * or an input is over a limit (--limit raises it) */
};

/* What --size and --frames are held to without --limit: the scene-file
 * loader's own defaults, so that the command line cannot ask for more than a
 * scene file may. */
#define DEFAULT_MAX_OUTPUT_PIXELS SG_SCENE_FILE_DEFAULT_OUTPUT_PIXELS
#define DEFAULT_MAX_FRAMES SG_SCENE_FILE_DEFAULT_FRAMES
/* The whole job, output pixels x frames rendered, without --limit job-pixels:
 * 2^32, 2071 frames of 1920x1080 or 256 of 4096x4096, about 6 minutes of
 * llvmpipe on two shared cores (docs/sg-render.md). The output-pixels and
 * frames limits alone allow 4096 x 4096 x 10000: some 4 hours from a 54-byte
 * scene file. */
#define DEFAULT_MAX_JOB_PIXELS (UINT64_C(1) << 32)

struct options {
	const char *scene; /* the scene file, or with model, the model file */
	bool model;        /* the input is a model file, not a scene file (by its extension) */
	const char *output; /* "-": standard output */
	struct output_name name;
	int width, height; /* 0: the scene file's */
	int frames;        /* 0: the scene file's */
	int first, last;   /* the frames to render: --frame-range, else all */
	bool has_range;
	struct sg_renderer_desc desc;
	bool quiet, info;
	bool has_background; /* --background: replaces the scene's (or the model's default) */
	float background[4];
	/* --display [CONNECTOR]: show the frames on a display instead of writing PNGs */
	bool display;
	const char *connector; /* NULL: the first connected one */
	int fps;               /* scene frames per second of real time on the display; 0:
	                          the scene file's "fps" (24 when it has none) */
	bool window;           /* --window: in a Wayland window (window_show.c) */
	/* --allow-path and --limit; fields left 0 take the library's defaults */
	struct sg_scene_file_options load;
	uint64_t max_job_pixels; /* --limit job-pixels; 0: DEFAULT_MAX_JOB_PIXELS */
	const char **allowed_paths; /* argc entries, owned */
};

/* Fills o from the command line: EXIT_OK, or the exit status after a message. */
int options_parse(int argc, char **argv, struct options *o);
void options_finish(struct options *o);

/* Checks the frames to render against the frame count (and -o -): EXIT_OK or
 * EXIT_USAGE after a message. Sets o->first and o->last. */
int options_check_frames(struct options *o, int frame_count);

/* Checks the job, o->width x o->height pixels times the frames o->first ..
 * o->last, against the job-pixels limit before anything is rendered: EXIT_OK
 * or EXIT_INPUT after a message. */
int options_check_job(const struct options *o);

static inline bool options_to_stdout(const struct options *o)
{
	return o->output && strcmp(o->output, "-") == 0;
}

#endif
