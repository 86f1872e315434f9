/* libFuzzer target: sg_scene_file_load() on arbitrary bytes.
 *
 * Each input becomes scene.json in a private temporary folder that also holds
 * textures/tile.png and, where fonts-dejavu-core is installed,
 * fonts/DejaVuSans.ttf (the paths the seed scenes use), so that the PNG
 * textures and fonts a mutated scene names are loaded too. A scene that loads
 * is then read back through every accessor and every frame's animation is
 * applied, since those walk what the loader built. No renderer and no EGL. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create, mkdtemp */
#endif
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sg/camera.h>
#include <sg/scene_file.h>

/* tests/fuzz/corpus/png/rgba8-2x2.png */
static const uint8_t tile_png[] = {
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48,
    0x44, 0x52, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x02, 0x08, 0x06, 0x00, 0x00,
    0x00, 0x72, 0xb6, 0x0d, 0x24, 0x00, 0x00, 0x00, 0x1a, 0x49, 0x44, 0x41, 0x54, 0x78,
    0xda, 0x63, 0x60, 0xd0, 0x08, 0xa8, 0x58, 0x70, 0xe2, 0x83, 0x04, 0x03, 0xa3, 0x66,
    0x60, 0xe5, 0xc2, 0x93, 0x1f, 0x25, 0x01, 0x36, 0xd6, 0x06, 0xc9, 0x24, 0x4d, 0x54,
    0xcc, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82};

/* Frames applied per loaded scene, at most: a file may ask for a million. */
#define MAX_FRAMES_APPLIED 64

static char folder[64];
static char scene_path[96];
static char textures_path[96];
static char tile_path[128];
static char fonts_path[96];
static char font_path[128];

/* Copied, not linked: a symlink out of the scene's folder is refused. */
#define SYSTEM_FONT "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

static void write_file(const char *path, const void *data, size_t size)
{
	FILE *file = fopen(path, "wb");
	if (!file || fwrite(data, 1, size, file) != size || fclose(file) != 0) {
		perror(path);
		abort();
	}
}

static void remove_folder(void)
{
	unlink(scene_path);
	unlink(tile_path);
	rmdir(textures_path);
	unlink(font_path);
	rmdir(fonts_path);
	rmdir(folder);
}

static void copy_font(void)
{
	snprintf(fonts_path, sizeof(fonts_path), "%s/fonts", folder);
	snprintf(font_path, sizeof(font_path), "%s/DejaVuSans.ttf", fonts_path);
	FILE *in = fopen(SYSTEM_FONT, "rb");
	if (!in)
		return; /* text nodes then fail to load their font, which is tested too */
	static uint8_t data[4 << 20];
	size_t size = fread(data, 1, sizeof(data), in);
	fclose(in);
	if (mkdir(fonts_path, 0700) != 0) {
		perror(fonts_path);
		abort();
	}
	write_file(font_path, data, size);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	const char *tmp = getenv("TMPDIR");
	snprintf(folder, sizeof(folder), "%s/sg-fuzz-scene-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(folder)) {
		perror("mkdtemp");
		abort();
	}
	snprintf(scene_path, sizeof(scene_path), "%s/scene.json", folder);
	snprintf(textures_path, sizeof(textures_path), "%s/textures", folder);
	snprintf(tile_path, sizeof(tile_path), "%s/tile.png", textures_path);
	if (mkdir(textures_path, 0700) != 0) {
		perror(textures_path);
		abort();
	}
	write_file(tile_path, tile_png, sizeof(tile_png));
	copy_font();
	atexit(remove_folder);
	return 0;
}

static void read_back(struct sg_scene_file *file)
{
	int width = 0, height = 0;
	float background[4];
	struct sg_camera camera;
	sg_scene_file_get_size(file, &width, &height);
	sg_scene_file_get_background(file, background);
	sg_scene_file_get_camera(file, 0, 0, &camera);
	sg_scene_file_get_camera(file, 7, 3, &camera);
	if (!sg_scene_file_get_scene(file))
		abort();
	int frames = sg_scene_file_get_frame_count(file);
	if (frames < 1)
		abort();
	for (int frame = 0; frame < frames && frame < MAX_FRAMES_APPLIED; frame++)
		sg_scene_file_apply_frame(file, frame);
	/* Past the last frame the last keyframe holds. */
	sg_scene_file_apply_frame(file, frames + 1000);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	write_file(scene_path, data, size);
	struct sg_scene_file *file = NULL;
	sg_result result = sg_scene_file_load(scene_path, &file);
	if ((result == SG_OK) != (file != NULL))
		abort(); /* the header promises *out is NULL on every error */
	if (file)
		read_back(file);
	sg_scene_file_destroy(file);
	return 0;
}
