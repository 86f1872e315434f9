/* libFuzzer target: sg_scene_import() on arbitrary bytes.
 *
 * The first byte of an input picks the file's extension (assimp chooses its
 * importer by it first: glTF, binary glTF, OBJ, STL), the rest is the
 * file: model.<ext> in a private temporary folder that also holds tile.png,
 * so that a mutated model naming that texture loads it. Budgets are kept
 * small so that each run stays quick. On failure the scene must be as it was
 * (its root alone), on success hold what the info says. No renderer. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* mkdtemp */
#endif
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sg/model_file.h>
#include <sg/scene.h>

/* tests/fuzz/corpus/png/rgba8-2x2.png */
static const uint8_t tile_png[] = {
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48,
    0x44, 0x52, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x02, 0x08, 0x06, 0x00, 0x00,
    0x00, 0x72, 0xb6, 0x0d, 0x24, 0x00, 0x00, 0x00, 0x1a, 0x49, 0x44, 0x41, 0x54, 0x78,
    0xda, 0x63, 0x60, 0xd0, 0x08, 0xa8, 0x58, 0x70, 0xe2, 0x83, 0x04, 0x03, 0xa3, 0x66,
    0x60, 0xe5, 0xc2, 0x93, 0x1f, 0x25, 0x01, 0x36, 0xd6, 0x06, 0xc9, 0x24, 0x4d, 0x54,
    0xcc, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82};

/* assimp 5.2.5 leaks what its importers had made when they throw on a bad
 * file (an ASCII STL with a word for a coordinate loses its aiMesh: seen with
 * valgrind on assimp alone, no libsg involved). Those leaks are assimp's:
 * left out by the module, or by operator new, which only C++ (assimp) calls;
 * libstdc++ has no frame pointers, so its stacks stop there. libsg is C and
 * allocates through sg_malloc: its leaks show neither. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libassimp.so\nleak:operator new\n";
}

/* Not PLY: assimp 5.2.5's PLY importer loops forever on some 200-byte files
 * (tests/fuzz/assimp-known/), which no caller of assimp can stop. assimp
 * picks an importer by the content too where the extension's refuses, so
 * inputs that start as PLY files are skipped (LLVMFuzzerTestOneInput). */
static const char *const extensions[] = {"gltf", "glb", "obj", "stl"};
#define EXTENSION_COUNT (sizeof(extensions) / sizeof(extensions[0]))

static char folder[64];
static char tile_path[128];
static char model_paths[EXTENSION_COUNT][128];

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
	for (size_t i = 0; i < EXTENSION_COUNT; i++)
		unlink(model_paths[i]);
	unlink(tile_path);
	rmdir(folder);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	const char *tmp = getenv("TMPDIR");
	snprintf(folder, sizeof(folder), "%s/sg-fuzz-model-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(folder)) {
		perror("mkdtemp");
		abort();
	}
	snprintf(tile_path, sizeof(tile_path), "%s/tile.png", folder);
	write_file(tile_path, tile_png, sizeof(tile_png));
	for (size_t i = 0; i < EXTENSION_COUNT; i++)
		snprintf(model_paths[i], sizeof(model_paths[i]), "%s/model.%s", folder,
		         extensions[i]);
	atexit(remove_folder);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || (size >= 4 && memcmp(data + 1, "ply", 3) == 0))
		return 0;
	const char *path = model_paths[data[0] % EXTENSION_COUNT];
	write_file(path, data + 1, size - 1);
	struct sg_scene *scene = sg_scene_create();
	if (!scene)
		abort();
	const struct sg_import_budget budget = {
	    .max_file_bytes = 1 << 20,
	    .max_vertices = 1 << 16,
	    .max_triangles = 1 << 16,
	    .max_texture_bytes = 16 << 20,
	    .max_nodes = 4096,
	    .max_depth = 32,
	};
	struct sg_import_info info;
	sg_result result = sg_scene_import(
	    scene, &(struct sg_import_desc){.path = path, .budget = &budget}, &info);
	size_t nodes = sg_scene_node_count(scene);
	if (result != SG_OK && nodes != 1)
		abort(); /* a failed import leaves nothing behind */
	if (result == SG_OK && nodes != 1 + info.nodes)
		abort();
	sg_scene_destroy(scene);
	unlink(path);
	return 0;
}
