/* libFuzzer target: sg_texture_load() on arbitrary bytes: whichever of PNG,
 * JPEG and WebP the first bytes name, and the EXIF orientation of the last
 * two (a malformed TIFF block, an orientation that turns the picture).
 *
 * As fuzz_png does, each input is written to one memfd and loaded through
 * /proc/self/fd/N. No renderer and no EGL. Seeds: corpus/image/, made by
 * make_image_corpus.sh. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create */
#endif
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <sg/scene.h>

static int input_fd = -1;
static char input_path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	input_fd = memfd_create("sg-fuzz-image", MFD_CLOEXEC);
	if (input_fd < 0) {
		perror("memfd_create");
		abort();
	}
	snprintf(input_path, sizeof(input_path), "/proc/self/fd/%d", input_fd);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (ftruncate(input_fd, 0) != 0)
		abort();
	for (size_t done = 0; done < size;) {
		ssize_t n = pwrite(input_fd, data + done, size - done, (off_t)done);
		if (n <= 0)
			abort();
		done += (size_t)n;
	}
	struct sg_scene *scene = sg_scene_create();
	if (!scene)
		abort();
	sg_texture texture = sg_texture_load(scene, input_path, SG_FILTER_LINEAR, SG_WRAP_REPEAT);
	/* A handle returned means a texture the scene really holds; a refusal
	 * says why. */
	if (texture.generation ? !sg_texture_exists(scene, texture) : !sg_last_error()[0])
		abort();
	sg_scene_destroy(scene);
	return 0;
}
