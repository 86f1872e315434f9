/* libsg: scene files, JSON descriptions of a scene, its output and its camera.
 *
 * The format is documented in docs/scene-format.md. A loaded file owns the scene
 * it built; the scene may be rendered and edited like any other, but destroying
 * the file destroys it. */
#ifndef SG_SCENE_FILE_H
#define SG_SCENE_FILE_H

#include <stddef.h>
#include <stdint.h>

#include <sg/camera.h>
#include <sg/error.h>
#include <sg/export.h>
#include <sg/scene.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sg_scene_file;

/* Reads and builds the scene file at path with the default options (below);
 * texture files are found relative to its folder. On success *out owns the new
 * file. Errors (with *out set to NULL): SG_ERR_IO when path or a used texture
 * file cannot be read, is not a regular file or is outside the allowed folders,
 * SG_ERR_FORMAT when the content is wrong, with a message "PATH:LINE:COL: ..."
 * for bad JSON and "PATH: $.json.path: ..." for a bad value, SG_ERR_LIMIT over
 * a budget, SG_ERR_NO_MEMORY, SG_ERR_UNSUPPORTED when json-c cannot be opened
 * (libsg opens it at the process's first scene file, before reading any file:
 * docs/api.md). */
SG_API sg_result sg_scene_file_load(const char *path, struct sg_scene_file **out);
/* The defaults of struct sg_scene_file_options, from measured peak memory
 * (docs/scene-format.md, "Limits"): what a hostile small file may cost. */
#define SG_SCENE_FILE_DEFAULT_FILE_BYTES (UINT64_C(1024) * 1024)
#define SG_SCENE_FILE_DEFAULT_JSON_DEPTH 64
#define SG_SCENE_FILE_DEFAULT_TEXTURE_BYTES (UINT64_C(128) * 1024 * 1024)
#define SG_SCENE_FILE_DEFAULT_OUTPUT_PIXELS (UINT64_C(4096) * 4096)
#define SG_SCENE_FILE_DEFAULT_FRAMES 10000

/* What a scene file may reach and cost (docs/scene-format.md, "Trust" and
 * "Limits"). A zeroed struct (or NULL) gives the defaults, which are safe for
 * files from untrusted sources; each field that is 0 takes its default. A load
 * over a limit fails with SG_ERR_LIMIT and a message naming the limit, the value
 * and the field (and sg-render option) that raises it. */
struct sg_scene_file_options {
	/* Folders, besides the scene file's own, that texture paths may resolve
	 * into (after symlinks are resolved); an absolute texture path must be
	 * inside one, and a ".." is judged by where it resolves. Without them a
	 * texture path must be relative, without "..", and stay inside the scene
	 * file's folder. Each must exist (SG_ERR_IO). */
	const char *const *allowed_paths;
	size_t allowed_path_count;
	uint64_t max_file_bytes;    /* size of the JSON file (default 1 MiB) */
	int max_json_depth;         /* nesting of JSON arrays and objects (default 64, at most 10000) */
	uint64_t max_texture_bytes; /* decoded RGBA bytes of the used textures (default 128 MiB) */
	uint64_t max_output_pixels; /* "output" width * height (default 4096 * 4096) */
	int max_frames;             /* "frames" (default 10000) */
};

/* sg_scene_file_load with options (NULL: the defaults). */
SG_API sg_result sg_scene_file_load_with_sized(const char *path,
                                               const struct sg_scene_file_options *options,
                                               struct sg_scene_file **out, size_t size);
#define sg_scene_file_load_with(...)                                                               \
	sg_scene_file_load_with_sized(__VA_ARGS__, sizeof(struct sg_scene_file_options))
/* Accepts NULL. Destroys the scene too. */
SG_API void sg_scene_file_destroy(struct sg_scene_file *file);

/* The scene, owned by the file, set up for frame 0 after a load. */
SG_API struct sg_scene *sg_scene_file_get_scene(const struct sg_scene_file *file);
/* The output size the file asks for ("output": width, height). */
SG_API void sg_scene_file_get_size(const struct sg_scene_file *file, int *width, int *height);
/* The clear colour, components in [0, 1]. */
SG_API void sg_scene_file_get_background(const struct sg_scene_file *file, float rgba[4]);
/* Number of frames the file asks for ("frames"), at least 1. */
SG_API int sg_scene_file_get_frame_count(const struct sg_scene_file *file);

/* The file's camera for an output of width x height pixels (0 or less: the
 * file's own size). A "pixels" camera keeps the file's units, so a larger
 * output scales the scene; a perspective camera without an aspect takes the
 * output's. A NULL file gives a pixel camera over width x height. */
SG_API void sg_scene_file_get_camera(const struct sg_scene_file *file, int width, int height,
                                     struct sg_camera *camera);

/* Sets every animated transform, opacity and colour to its value at frame
 * (one setter call per animated property; 0-based, along each keyframe's
 * "easing" (linear by default) to the next, held before the first and after
 * the last). frame may exceed the
 * frame count; a negative one is SG_ERR_INVALID_ARGUMENT. */
SG_API sg_result sg_scene_file_apply_frame(struct sg_scene_file *file, int frame);
/* The same at a time in seconds: frame n is the time n / fps (the file's
 * "fps", default 24), so a time between two frames gives the values between
 * them, and keys in seconds ("time") are met exactly. A negative or
 * non-finite time is SG_ERR_INVALID_ARGUMENT. */
SG_API sg_result sg_scene_file_apply_time(struct sg_scene_file *file, double seconds);
/* The file's "fps": how many frames a second its frame numbers count. */
SG_API float sg_scene_file_get_fps(const struct sg_scene_file *file);

#ifdef __cplusplus
}
#endif

#endif
