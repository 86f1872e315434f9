/* Texture-update benchmark: a 2048 x 2048 texture of which a 256 x 256
 * rectangle changes every frame. Measures, in one process:
 *
 *   sg frame      sg_texture_update + sg_renderer_render (clear, draw, the
 *                 sub-upload, glFinish), on a 256 x 256 output;
 *   sg static     sg_renderer_render of the same scene with no update;
 *   raw sub       glTexSubImage2D of the same rectangle + glFinish, in a plain
 *                 EGL surfaceless context of its own (no libsg);
 *   raw whole     glTexSubImage2D of the whole texture + glFinish: what a
 *                 renderer re-uploading everything would pay.
 *
 * Each figure is the median over FRAMES frames after WARMUP, and each
 * measurement is run RUNS times, interleaved, the median of those printed. The
 * gl cache's upload counters check that every sg frame uploaded exactly the
 * rectangle and never the whole texture.
 *
 * Texels are opaque (alpha 255), as a picture or a video frame is; with
 * --translucent their alpha varies, and every upload is premultiplied first.
 *
 * texture_update [--runs N] [--translucent] */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sg/sg.h>

#include "timing.h"

#include "../src/gl/cache.h"

#define SIDE 2048
#define RECT 256
#define OUTPUT 256
#define FRAMES 40
#define WARMUP 5
#define MAX_RUNS 31

/* Three rectangles of texels used in turn: the 64 positions come back every 64
 * frames, not a multiple of 3, so that no update repeats the texels already
 * there (which sg_texture_update would skip). */
#define RECT_SETS 3
static uint8_t rect_pixels[RECT_SETS][RECT * RECT * 4];
static bool translucent;

/* Byte i of the texels: alpha 255 unless translucent. */
static uint8_t texel_byte(size_t i, uint8_t value)
{
	return i % 4 == 3 && !translucent ? 255 : value;
}

static void rect_position(int frame, int *x, int *y)
{
	int per_row = SIDE / RECT;
	*x = (frame % per_row) * RECT;
	*y = (frame / per_row % per_row) * RECT;
}

struct sg_side {
	struct sg_scene *scene;
	sg_texture texture;
	struct sg_renderer *renderer;
	int frame;
};

static void sg_side_init(struct sg_side *s)
{
	uint8_t *texels = malloc((size_t)SIDE * SIDE * 4);
	if (!texels)
		exit(1);
	for (size_t i = 0; i < (size_t)SIDE * SIDE * 4; i++)
		texels[i] = texel_byte(i, (uint8_t)(i * 7 | 3));
	s->scene = sg_scene_create();
	s->texture = sg_texture_create(s->scene, &(struct sg_texture_desc){
		.width = SIDE, .height = SIDE, .pixels = texels, .filter = SG_FILTER_LINEAR});
	free(texels);
	sg_mesh quad = sg_mesh_create_quad(s->scene, OUTPUT, OUTPUT);
	sg_node model = sg_node_new_model(
		s->scene, &(struct sg_model_desc){.mesh = quad, .texture = s->texture});
	sg_node_add_child(s->scene, sg_scene_root(s->scene), model);
	s->renderer = sg_renderer_create(&(struct sg_renderer_desc){
		.width = OUTPUT, .height = OUTPUT, .target = SG_TARGET_SURFACELESS});
	if (!s->renderer || sg_renderer_render(s->renderer, s->scene, NULL)) {
		fprintf(stderr, "texture_update: %s\n", sg_last_error());
		exit(1);
	}
}

/* One frame; false (with a message) if it uploaded anything but the rectangle. */
static double update_ms[WARMUP + FRAMES];
/* sg_render_stats.submit_ns of each frame: issuing GL work, the upload included. */
static double submit_ms[WARMUP + FRAMES];

static bool sg_frame(struct sg_side *s, bool update)
{
	struct sg_gl_upload_stats before = sg_gl_upload_stats();
	double start = now_ms();
	if (update) {
		int x, y;
		rect_position(s->frame, &x, &y);
		if (sg_texture_update(s->scene, s->texture, x, y, RECT, RECT,
		                      rect_pixels[s->frame % RECT_SETS], 0)) {
			fprintf(stderr, "texture_update: %s\n", sg_last_error());
			exit(1);
		}
		s->frame++;
	}
	update_ms[s->frame % (WARMUP + FRAMES)] = now_ms() - start;
	if (sg_renderer_render(s->renderer, s->scene, NULL)) {
		fprintf(stderr, "texture_update: %s\n", sg_last_error());
		exit(1);
	}
	struct sg_render_stats stats;
	sg_renderer_get_stats(s->renderer, &stats);
	static unsigned frames_done; /* every frame, updated or not */
	submit_ms[frames_done++ % (WARMUP + FRAMES)] = (double)stats.submit_ns / 1e6;
	struct sg_gl_upload_stats after = sg_gl_upload_stats();
	uint64_t bytes = after.bytes - before.bytes, want = update ? (uint64_t)RECT * RECT * 4 : 0;
	if (after.whole != before.whole || bytes != want) {
		fprintf(stderr, "texture_update: a frame uploaded %llu bytes (%llu whole), not %llu\n",
		        (unsigned long long)bytes, (unsigned long long)(after.whole - before.whole),
		        (unsigned long long)want);
		return false;
	}
	return true;
}

static double sg_measure(struct sg_side *s, bool update)
{
	double times[FRAMES];
	for (int i = 0; i < WARMUP + FRAMES; i++) {
		double start = now_ms();
		if (!sg_frame(s, update))
			exit(1);
		if (i >= WARMUP)
			times[i - WARMUP] = now_ms() - start;
	}
	return median(times, FRAMES);
}

/* The sg_texture_update calls of the last sg_measure(s, true). */
static double update_call_ms(void)
{
	return median(update_ms, WARMUP + FRAMES);
}

/* The GL submissions (uploads included) of the last sg_measure(). */
static double submit_call_ms(void)
{
	return median(submit_ms, WARMUP + FRAMES);
}

/* The plain context, step by step: display, initialise, API, config-less
 * GLES 3 context, current without a surface, one texture. */
struct raw_side {
	EGLDisplay display;
	EGLContext context;
	GLuint texture;
	int frame;
};

static void raw_side_init(struct raw_side *r)
{
	r->display = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	if (r->display == EGL_NO_DISPLAY || !eglInitialize(r->display, NULL, NULL) ||
	    !eglBindAPI(EGL_OPENGL_ES_API)) {
		fprintf(stderr, "texture_update: raw EGL display: 0x%x\n", eglGetError());
		exit(1);
	}
	const EGLint attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
	r->context = eglCreateContext(r->display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attributes);
	if (r->context == EGL_NO_CONTEXT) {
		fprintf(stderr, "texture_update: eglCreateContext: 0x%x\n", eglGetError());
		exit(1);
	}
	eglMakeCurrent(r->display, EGL_NO_SURFACE, EGL_NO_SURFACE, r->context);
	uint8_t *texels = malloc((size_t)SIDE * SIDE * 4);
	if (!texels)
		exit(1);
	for (size_t i = 0; i < (size_t)SIDE * SIDE * 4; i++)
		texels[i] = texel_byte(i, (uint8_t)(i * 7 | 3));
	glGenTextures(1, &r->texture);
	glBindTexture(GL_TEXTURE_2D, r->texture);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, SIDE, SIDE, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
	glFinish();
	free(texels);
	eglMakeCurrent(r->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
}

static double raw_measure(struct raw_side *r, bool whole)
{
	static uint8_t *whole_texels;
	if (whole && !whole_texels) {
		whole_texels = malloc((size_t)SIDE * SIDE * 4);
		if (!whole_texels)
			exit(1);
		memset(whole_texels, 0x5a, (size_t)SIDE * SIDE * 4);
	}
	eglMakeCurrent(r->display, EGL_NO_SURFACE, EGL_NO_SURFACE, r->context);
	glBindTexture(GL_TEXTURE_2D, r->texture);
	double times[FRAMES];
	for (int i = 0; i < WARMUP + FRAMES; i++) {
		double start = now_ms();
		if (whole) {
			glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, SIDE, SIDE, GL_RGBA, GL_UNSIGNED_BYTE,
			                whole_texels);
		} else {
			int x, y;
			rect_position(r->frame, &x, &y);
			glTexSubImage2D(GL_TEXTURE_2D, 0, x, y, RECT, RECT, GL_RGBA, GL_UNSIGNED_BYTE,
			                rect_pixels[r->frame % RECT_SETS]);
			r->frame++;
		}
		glFinish();
		if (i >= WARMUP)
			times[i - WARMUP] = now_ms() - start;
	}
	if (glGetError() != GL_NO_ERROR) {
		fprintf(stderr, "texture_update: raw upload failed\n");
		exit(1);
	}
	eglMakeCurrent(r->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	return median(times, FRAMES);
}

int main(int argc, char **argv)
{
	int runs = 5;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			runs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--translucent"))
			translucent = true;
		else
			runs = 0;
	}
	if (runs < 1 || runs > MAX_RUNS) {
		fprintf(stderr, "usage: texture_update [--runs 1..%d] [--translucent]\n", MAX_RUNS);
		return 2;
	}
	for (int set = 0; set < RECT_SETS; set++)
		for (size_t i = 0; i < sizeof(rect_pixels[0]); i++)
			rect_pixels[set][i] = texel_byte(i, (uint8_t)(i * 13 + (size_t)set));
	struct sg_side s = {0};
	struct raw_side r = {0};
	sg_side_init(&s);
	raw_side_init(&r);
	double frame[MAX_RUNS], call[MAX_RUNS], still[MAX_RUNS], sub[MAX_RUNS], whole[MAX_RUNS];
	double submit[MAX_RUNS], still_submit[MAX_RUNS];
	for (int run = 0; run < runs; run++) {
		frame[run] = sg_measure(&s, true);
		call[run] = update_call_ms();
		submit[run] = submit_call_ms();
		still[run] = sg_measure(&s, false);
		still_submit[run] = submit_call_ms();
		sub[run] = raw_measure(&r, false);
		whole[run] = raw_measure(&r, true);
	}
	double f = median(frame, runs), c = median(call, runs), st = median(still, runs), su = median(sub, runs),
	       w = median(whole, runs);
	printf("texture %dx%d (%s), rectangle %dx%d, output %dx%d; medians of %d runs of %d frames\n",
	       SIDE, SIDE, translucent ? "translucent" : "opaque", RECT, RECT, OUTPUT, OUTPUT, runs,
	       FRAMES);
	printf("sg_frame_ms %.3f  sg_static_frame_ms %.3f  sg_update_cost_ms %.3f  "
	       "(sg_texture_update call %.3f)\n",
	       f, st, f - st, c);
	double upload = median(submit, runs) - median(still_submit, runs);
	printf("sg_upload_ms %.3f (submit with the update %.3f, without %.3f)  "
	       "update call + upload %.3f\n",
	       upload, median(submit, runs), median(still_submit, runs), c + upload);
	printf("raw_sub_ms %.3f  raw_whole_ms %.3f\n", su, w);
	printf("frame/raw_sub %.2f  (frame-static)/raw_sub %.2f  (call+upload)/raw_sub %.2f  every "
	       "frame uploaded %d bytes, never the whole texture\n",
	       f / su, (f - st) / su, (c + upload) / su, RECT * RECT * 4);
	sg_renderer_destroy(s.renderer);
	sg_scene_destroy(s.scene);
	eglDestroyContext(r.display, r.context);
	eglTerminate(r.display);
	return 0;
}
