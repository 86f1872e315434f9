/* libFuzzer target: sg_texture_load_png() on arbitrary bytes.
 *
 * The loader takes a path, so each input is written to one memfd and loaded
 * through /proc/self/fd/N: no file on disk, and a fresh open (offset 0) each
 * time. No renderer and no EGL: the scene is only a pool of textures.
 *
 * libpng refuses a critical chunk with a bad CRC, so almost every mutation of a
 * chunk would stop at its CRC. The custom mutator rewrites the CRCs after most
 * mutations (not all: the CRC error paths are worth reaching too). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create, mkdtemp */
#endif
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <sg/scene.h>

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

static int input_fd = -1;
static char input_path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	input_fd = memfd_create("sg-fuzz-png", MFD_CLOEXEC);
	if (input_fd < 0) {
		perror("memfd_create");
		abort();
	}
	snprintf(input_path, sizeof(input_path), "/proc/self/fd/%d", input_fd);
	return 0;
}

static void write_input(const uint8_t *data, size_t size)
{
	if (ftruncate(input_fd, 0) != 0)
		abort();
	size_t done = 0;
	while (done < size) {
		ssize_t n = pwrite(input_fd, data + done, size - done, (off_t)done);
		if (n <= 0)
			abort();
		done += (size_t)n;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	write_input(data, size);
	struct sg_scene *scene = sg_scene_create();
	if (!scene)
		abort();
	sg_texture texture =
	    sg_texture_load_png(scene, input_path, SG_FILTER_LINEAR, SG_WRAP_REPEAT);
	/* A handle returned means a texture the scene really holds. */
	if (texture.generation && !sg_texture_exists(scene, texture))
		abort();
	sg_scene_destroy(scene);
	return 0;
}

static uint32_t crc32_png(const uint8_t *bytes, size_t size)
{
	uint32_t crc = 0xffffffffu;
	for (size_t i = 0; i < size; i++) {
		crc ^= bytes[i];
		for (int bit = 0; bit < 8; bit++)
			crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
	}
	return ~crc;
}

static uint32_t read_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void write_be32(uint8_t *p, uint32_t value)
{
	p[0] = (uint8_t)(value >> 24);
	p[1] = (uint8_t)(value >> 16);
	p[2] = (uint8_t)(value >> 8);
	p[3] = (uint8_t)value;
}

/* Walks the chunks after the 8-byte signature and rewrites each whole chunk's CRC. */
static void fix_crcs(uint8_t *data, size_t size)
{
	size_t at = 8;
	while (at + 12 <= size) {
		size_t length = read_be32(data + at);
		if (length > size - at - 12)
			break;
		write_be32(data + at + 8 + length, crc32_png(data + at + 4, length + 4));
		at += 12 + length;
	}
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	size = LLVMFuzzerMutate(data, size, max_size);
	if (seed % 8 != 0)
		fix_crcs(data, size);
	return size;
}
