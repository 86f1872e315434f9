/* Text nodes against textured quads (issue 15): 1000 text nodes of 20 glyphs
 * each (DejaVu Sans at 16 px) on a 1024 x 768 pixel camera, 10 of their
 * strings replaced every frame (sg_text_set_string with strings never seen
 * before, so each is shaped and laid out again), against 20000 models, one
 * glyph-sized textured quad per glyph in the same places, where the 20 quads
 * of 10 "strings" move every frame (sg_model_set_position on each: the
 * geometry of 200 glyphs changes, as a new string's does). The quads' texture
 * has translucent texels, as glyphs have, so both are blended.
 *
 * Each variant runs in a process of its own, as a user's program would:
 * build/bench/text [frames] re-executes itself as `text --run text|quads
 * FRAMES`, two rounds, the order swapped in the second. A frame is the edits
 * plus sg_renderer_render (glFinish included). Not a test: read the medians. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sg/sg.h>

#include "timing.h"

#define WIDTH 1024
#define HEIGHT 768
#define NODES 1000
#define GLYPHS 20
#define PIXEL_SIZE 16
#define CHANGED 10 /* strings a frame */
#define COLUMNS 10
#define ADVANCE 9.0f /* about DejaVu Sans' advance of a digit at 16 px */
#define QUAD_HEIGHT 12.0f

/* Where node n's text box starts: a 10 x 100 grid over the whole output. */
static void place(int n, float *x, float *y)
{
	*x = (float)(n % COLUMNS) * ((float)WIDTH / COLUMNS);
	*y = (float)(n / COLUMNS) * ((float)(HEIGHT - PIXEL_SIZE) / (NODES / COLUMNS));
}

/* A string of exactly GLYPHS characters, none a space, distinct for every
 * (frame, node): each change is shaped afresh. */
static void make_string(char out[GLYPHS + 1], int frame, int node)
{
	char text[64];
	snprintf(text, sizeof(text), "F%07dx%04d-abcdefghijk", frame + 1, node);
	memcpy(out, text, GLYPHS);
	out[GLYPHS] = '\0';
}

static int fail(const char *what)
{
	fprintf(stderr, "text: %s: %s\n", what, sg_last_error());
	return 1;
}

static sg_result build_text(struct sg_scene *scene, sg_node *nodes)
{
	sg_font font = sg_font_load(scene, BENCH_FONT, PIXEL_SIZE);
	if (!font.generation)
		return sg_last_result();
	for (int n = 0; n < NODES; n++) {
		char string[GLYPHS + 1];
		make_string(string, -1, n);
		struct sg_text_desc desc = {.font = font, .utf8 = string, .color = {1, 1, 1, 1}};
		place(n, &desc.position[0], &desc.position[1]);
		nodes[n] = sg_node_new_text(scene, &desc);
		if (!nodes[n].generation)
			return sg_last_result();
		sg_result result = sg_node_add_child(scene, sg_scene_root(scene), nodes[n]);
		if (result)
			return result;
	}
	return SG_OK;
}

/* 64 x 64 texels, white with a coverage-like alpha ramp (straight alpha). */
static sg_texture glyph_texture(struct sg_scene *scene)
{
	static unsigned char pixels[64 * 64 * 4];
	for (int i = 0; i < 64 * 64; i++) {
		memset(pixels + i * 4, 255, 3);
		pixels[i * 4 + 3] = (unsigned char)((i % 64) * 4);
	}
	return sg_texture_create(
	    scene, &(struct sg_texture_desc){.width = 64, .height = 64, .pixels = pixels});
}

static sg_result build_quads(struct sg_scene *scene, sg_node *quads)
{
	sg_mesh mesh = sg_mesh_create_quad(scene, ADVANCE, QUAD_HEIGHT);
	sg_texture texture = glyph_texture(scene);
	if (!mesh.generation || !texture.generation)
		return sg_last_result();
	for (int n = 0; n < NODES; n++) {
		float x, y;
		place(n, &x, &y);
		for (int g = 0; g < GLYPHS; g++) {
			sg_node *quad = &quads[n * GLYPHS + g];
			*quad = sg_node_new_model(
			    scene,
			    &(struct sg_model_desc){.mesh = mesh,
			                            .texture = texture,
			                            .position = {x + (float)g * ADVANCE, y, 0}});
			if (!quad->generation)
				return sg_last_result();
			sg_result result = sg_node_add_child(scene, sg_scene_root(scene), *quad);
			if (result)
				return result;
		}
	}
	return SG_OK;
}

/* The edits of frame f: 10 strings replaced, or the 20 quads of 10 strings
 * moved by one pixel (back and forth). */
static sg_result edit(struct sg_scene *scene, bool text, const sg_node *nodes, int f)
{
	for (int k = 0; k < CHANGED; k++) {
		int n = (f * CHANGED + k) % NODES;
		sg_result result = SG_OK;
		if (text) {
			char string[GLYPHS + 1];
			make_string(string, f, n);
			result = sg_text_set_string(scene, nodes[n], string);
		}
		float x, y;
		place(n, &x, &y);
		for (int g = 0; !text && !result && g < GLYPHS; g++)
			result =
			    sg_model_set_position(scene, nodes[n * GLYPHS + g],
			                          x + (float)g * ADVANCE + (float)(f % 2), y, 0);
		if (result)
			return result;
	}
	return SG_OK;
}

static void print_times(const char *name, double *values, int count)
{
	double low = values[0], high = values[0];
	for (int i = 1; i < count; i++) {
		low = values[i] < low ? values[i] : low;
		high = values[i] > high ? values[i] : high;
	}
	printf(" %s %.3f ms (min %.3f, max %.3f)", name, median(values, count), low, high);
}

static int run(bool text, int frames)
{
	struct sg_scene *scene = sg_scene_create();
	sg_node *nodes = malloc((size_t)NODES * GLYPHS * sizeof(*nodes));
	if (!scene || !nodes)
		return fail("out of memory");
	double t0 = now_ms();
	if (text ? build_text(scene, nodes) : build_quads(scene, nodes))
		return fail("build");
	double build_ms = now_ms() - t0;
	struct sg_renderer *renderer =
	    sg_renderer_create(&(struct sg_renderer_desc){.width = WIDTH, .height = HEIGHT});
	if (!renderer)
		return fail("renderer");
	struct sg_camera camera;
	sg_camera_init_pixels(&camera, WIDTH, HEIGHT);
	double *frame = malloc((size_t)frames * sizeof(double)),
	       *edits = malloc((size_t)frames * sizeof(double)),
	       *submit = malloc((size_t)frames * sizeof(double)),
	       *finish = malloc((size_t)frames * sizeof(double));
	struct sg_render_stats stats;
	for (int f = -3; f < frames; f++) { /* 3 warm-up frames */
		double start = now_ms();
		if (edit(scene, text, nodes, f + 3))
			return fail("edit");
		double edited = now_ms();
		if (sg_renderer_render(renderer, scene, &camera))
			return fail("render");
		double end = now_ms();
		sg_renderer_get_stats(renderer, &stats);
		if (f >= 0) {
			frame[f] = end - start;
			edits[f] = edited - start;
			submit[f] = (double)stats.submit_ns / 1e6;
			finish[f] = (double)stats.finish_ns / 1e6;
		}
	}
	printf("%-5s build %.1f ms;", text ? "text" : "quads", build_ms);
	print_times("frame", frame, frames);
	print_times("edits", edits, frames);
	print_times("submit", submit, frames);
	print_times("finish", finish, frames);
	printf("; median of %d; last frame: draws %zu, batches %zu\n", frames, stats.draws,
	       stats.batches);
	fflush(stdout);
	free(frame);
	free(edits);
	free(submit);
	free(finish);
	free(nodes);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "--run") == 0)
		return run(strcmp(argv[2], "text") == 0, atoi(argv[3]));
	if (!sg_text_available()) {
		fprintf(stderr, "text: this libsg was built without text (FreeType, HarfBuzz)\n");
		return 1;
	}
	int frames = argc > 1 ? atoi(argv[1]) : 30;
	if (frames < 1)
		frames = 1;
	char count[16];
	snprintf(count, sizeof(count), "%d", frames);
	for (int round = 0; round < 2; round++) {
		for (int v = 0; v < 2; v++) { /* text first in even rounds */
			const char *variant = (v ^ round) ? "quads" : "text";
			pid_t pid = fork();
			if (pid == 0) {
				execl("/proc/self/exe", argv[0], "--run", variant, count,
				      (char *)NULL);
				_exit(127);
			}
			int status;
			if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
			    WEXITSTATUS(status)) {
				fprintf(stderr, "text: the %s run failed\n", variant);
				return 1;
			}
		}
	}
	return 0;
}
