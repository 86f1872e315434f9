/* sg-render: renders a JSON scene file (docs/scene-format.md) to PNG files,
 * or shows it on a display (--display, display.c); or renders a model file
 * (glTF, OBJ, ... through sg_scene_import) on a stage (model_stage.c),
 * turning it over the frames.
 *
 * No signal handlers when writing PNGs: the library's writes leave no temporary file on SIGINT or
 * SIGTERM (an unnamed O_TMPFILE, named only for the final rename with signals
 * held back; docs/api.md has the fallback's limit), sg-render keeps none
 * (standard output is written directly), and the default action leaves the
 * usual 128 + signal status to the shell. */
#include <EGL/egl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <sg/sg.h>

#include "display.h"
#include "window_show.h"
#include "escape.h"
#include "model_stage.h"
#include "options.h"

/* What the frames are rendered from: a scene, its camera and background,
 * and what sets it up for a frame (from the frame number alone, so that a
 * frame's pixels do not depend on the frames rendered before it). */
struct frames {
	struct sg_scene *scene;
	struct sg_camera camera;
	float background[4];
	sg_result (*apply)(void *source, int frame, int frame_count);
	void *source;
};

static void print_info(struct sg_renderer *renderer, FILE *out)
{
	const struct sg_renderer_info *info = sg_renderer_get_info(renderer);
	escape_printf(out, "target:      %s (%s)", info->target_name, info->reason);
	escape_printf(out, "device:      %s", info->device[0] ? info->device : "(none)");
	escape_printf(out, "EGL vendor:  %s", info->egl_vendor);
	escape_printf(out, "EGL driver:  %s", info->egl_driver[0] ? info->egl_driver : "(unknown)");
	escape_printf(out, "GL_RENDERER: %s", info->gl_renderer);
	escape_printf(out, "GL_VERSION:  %s", info->gl_version);
	/* Client extensions need no display: they say which platforms EGL offers. */
	const char *extensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
	escape_printf(out, "EGL client extensions: %s", extensions ? extensions : "(none)");
}

static void show_progress(int done, int total)
{
	const int width = 40;
	int filled = (int)((long)done * width / total);
	fprintf(stderr, "\r[%.*s%*s] %d/%d", filled, "########################################",
	        width - filled, "", done, total);
	if (done == total)
		fputc('\n', stderr);
}

/* The last render as a PNG on standard output, which may be a pipe: no
 * temporary file and no rename, and the descriptor stays open. The pixels are
 * read premultiplied, as the buffer holds them, and written with straight
 * alpha, as PNG files hold them: the same bytes as sg_renderer_write_png. */
static const char *write_stdout(struct sg_renderer *renderer)
{
	const struct sg_renderer_info *info = sg_renderer_get_info(renderer);
	size_t stride = (size_t)info->width * 4;
	void *pixels = malloc(stride * (size_t)info->height);
	if (!pixels)
		return "out of memory for the pixels to write to standard output";
	sg_result result = sg_renderer_read_pixels(renderer, pixels, stride);
	if (!result)
		sg_image_unpremultiply(pixels, info->width, info->height, stride);
	if (!result)
		result = sg_image_write_png_fd(STDOUT_FILENO, "standard output", info->width,
		                               info->height, pixels, stride);
	free(pixels);
	return result ? sg_last_error() : NULL;
}

/* Renders and writes one frame: NULL, or what failed (*input: the scene
 * is at fault, over a limit or malformed, rather than the device). */
static const char *render_frame(const struct options *o, const struct frames *frames,
                                struct sg_renderer *renderer, int frame, int frame_count,
                                const char *path, bool *input)
{
	sg_result result = frames->apply(frames->source, frame, frame_count);
	if (!result)
		result = sg_renderer_render(renderer, frames->scene, &frames->camera);
	*input = result == SG_ERR_LIMIT || result == SG_ERR_FORMAT;
	if (result)
		return sg_last_error();
	if (options_to_stdout(o))
		return write_stdout(renderer);
	return sg_renderer_write_png(renderer, path) ? sg_last_error() : NULL;
}

static int render_frames(const struct options *o, const struct frames *frames,
                         struct sg_renderer *renderer, int frame_count)
{
	int count = o->last - o->first + 1;
	bool progress = !o->quiet && count > 3 && isatty(STDERR_FILENO);
	const struct sg_renderer_info *info = sg_renderer_get_info(renderer);
	const float *background = o->has_background ? o->background : frames->background;
	sg_renderer_set_clear_color(renderer, background[0], background[1], background[2],
	                            background[3]);
	char path[4096] = "standard output", first[4096] = "";
	for (int frame = o->first; frame <= o->last; frame++) {
		if (!options_to_stdout(o) &&
		    !output_name_format(&o->name, frame_count, frame, path, sizeof(path))) {
			say_error("-o '%s': the name of frame %d is longer than %zu bytes",
			          o->output, frame, sizeof(path) - 1);
			return EXIT_USAGE;
		}
		bool input;
		const char *failure =
		    render_frame(o, frames, renderer, frame, frame_count, path, &input);
		if (failure) {
			if (progress)
				fputc('\n', stderr);
			say_error("frame %d: %s", frame, failure);
			return input ? EXIT_INPUT : EXIT_RENDER;
		}
		if (frame == o->first)
			snprintf(first, sizeof(first), "%s", path);
		if (progress)
			show_progress(frame - o->first + 1, count);
	}
	/* never on standard output when the PNG is there */
	FILE *out = options_to_stdout(o) ? stderr : stdout;
	if (!o->quiet && count == 1)
		escape_printf(out, "wrote %s (%dx%d)", path, info->width, info->height);
	else if (!o->quiet)
		escape_printf(out, "wrote %d frames %s .. %s (%dx%d)", count, first, path,
		              info->width, info->height);
	return EXIT_OK;
}

static int load_status(sg_result result)
{
	switch (result) {
	case SG_ERR_IO:
	case SG_ERR_FORMAT:
	case SG_ERR_LIMIT: return EXIT_INPUT;
	default: return EXIT_RENDER;
	}
}

/* A scene file, and the rate --fps samples it at (0: by its own frames). */
struct scene_source {
	struct sg_scene_file *file;
	int fps;
};

static sg_result apply_scene_frame(void *source, int frame, int frame_count)
{
	(void)frame_count;
	const struct scene_source *s = source;
	/* apply_frame and apply_time set every animated property from its keys
	 * alone; with --fps, frame n is the scene at n / fps seconds */
	if (s->fps)
		return sg_scene_file_apply_time(s->file, frame / (double)s->fps);
	return sg_scene_file_apply_frame(s->file, frame);
}

static sg_result apply_turn(void *source, int frame, int frame_count)
{
	return model_stage_turn(source, frame, frame_count);
}

/* The renderer for o's size, and the frames rendered with it. */
static int render_with(struct options *o, struct frames *frames, int frame_count,
                       void (*camera)(const void *source, int width, int height,
                                      struct sg_camera *camera))
{
	o->desc.width = o->width;
	o->desc.height = o->height;
	struct sg_renderer *renderer = sg_renderer_create(&o->desc);
	if (!renderer) {
		say_error("%s", sg_last_error());
		return EXIT_RENDER;
	}
	if (o->info)
		print_info(renderer, options_to_stdout(o) ? stderr : stdout);
	const struct sg_renderer_info *info = sg_renderer_get_info(renderer);
	camera(frames->source, info->width, info->height, &frames->camera);
	int status = render_frames(o, frames, renderer, frame_count);
	sg_renderer_destroy(renderer);
	return status;
}

static void model_camera(const void *source, int width, int height, struct sg_camera *camera)
{
	model_stage_camera(source, width, height, camera);
}

/* sg-render MODEL: the model on a stage, turned over --frames N frames. */
static int run_model(struct options *o)
{
	int frame_count = o->frames ? o->frames : 1;
	int status = options_check_frames(o, frame_count);
	if (!o->width) {
		o->width = MODEL_STAGE_SIZE;
		o->height = MODEL_STAGE_SIZE;
	}
	/* before the import: a job over the budget costs nothing */
	if (!status)
		status = options_check_job(o);
	if (status)
		return status;
	struct sg_import_budget budget = {.max_file_bytes = o->load.max_file_bytes,
	                                  .max_texture_bytes = o->load.max_texture_bytes};
	struct model_stage stage;
	sg_result result = model_stage_create(&stage, o->scene, &budget);
	if (result) {
		say_error("%s", model_stage_error(&stage));
		return load_status(result);
	}
	struct frames frames = {.scene = stage.scene,
	                        .background = {MODEL_STAGE_BACKGROUND},
	                        .apply = apply_turn,
	                        .source = &stage};
	status = render_with(o, &frames, frame_count, model_camera);
	model_stage_finish(&stage);
	return status;
}

static void scene_camera(const void *source, int width, int height, struct sg_camera *camera)
{
	const struct scene_source *s = source;
	sg_scene_file_get_camera(s->file, width, height, camera);
}

static int run(struct options *o)
{
	if (o->scene && o->model)
		return run_model(o);
	struct sg_scene_file *file = NULL;
	int frame_count = 0;
	if (o->scene) {
		sg_result result = sg_scene_file_load_with(o->scene, &o->load, &file);
		if (result) {
			say_error("%s", sg_last_error());
			return load_status(result);
		}
		frame_count = o->frames ? o->frames : sg_scene_file_get_frame_count(file);
		int status = options_check_frames(o, frame_count);
		if (!status && o->display)
			status = display_run(o, file); /* at the mode's size, or --size's */
		if (!status && o->window)
			status = window_show_run(o, file);
		if (status || o->display || o->window) {
			sg_scene_file_destroy(file);
			return status;
		}
		if (!o->width)
			sg_scene_file_get_size(file, &o->width, &o->height);
		/* before the renderer: a job over the budget costs nothing */
		status = options_check_job(o);
		if (status) {
			sg_scene_file_destroy(file);
			return status;
		}
	}
	if (!file) { /* --info alone */
		o->desc.width = o->width ? o->width : 64;
		o->desc.height = o->height ? o->height : 64;
		struct sg_renderer *renderer = sg_renderer_create(&o->desc);
		if (!renderer) {
			say_error("%s", sg_last_error());
			return EXIT_RENDER;
		}
		print_info(renderer, stdout);
		sg_renderer_destroy(renderer);
		return EXIT_OK;
	}
	struct scene_source source = {.file = file, .fps = o->fps};
	struct frames frames = {.scene = sg_scene_file_get_scene(file),
	                        .apply = apply_scene_frame,
	                        .source = &source};
	sg_scene_file_get_background(file, frames.background);
	int status = render_with(o, &frames, frame_count, scene_camera);
	sg_scene_file_destroy(file);
	return status;
}

int main(int argc, char **argv)
{
	struct options o = {0};
	int status = options_parse(argc, argv, &o);
	if (!status)
		status = run(&o);
	options_finish(&o);
	return status;
}
