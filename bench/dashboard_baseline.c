/* The hand-written GLES 3 program bench/dashboard times libsg against: what
 * a careful programmer writes for this one dashboard, with nothing general
 * about it. A surfaceless EGL context and a 1920 x 1080 RGBA8 framebuffer;
 * three instanced or batched draws a frame: every shadow and card in one
 * (the shadows first: in this grid none reaches another card), the icons in
 * one, every glyph in one from one atlas. Cards and shadows use the same
 * coverage and blur as src/gl/material_shape.frag, written again here; strings are
 * shaped with HarfBuzz and rasterised with FreeType, as libsg does, and
 * placed the same way, so that the two pictures match. In the live variant
 * the changed strings are shaped again and the glyph buffer rewritten; in the
 * scroll variant a scissor keeps the drawing to the band of the list and a
 * uniform offsets every vertex. */
#include "dashboard_baseline.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <hb-ft.h>
#include <hb.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dashboard_scene.h"
#include "gles.h"
#include "timing.h"

static const char *const shape_vertex =
    "#version 300 es\n"
    "layout(location = 0) in vec2 Corner;\n" /* 0 or 1 */
    "layout(location = 1) in vec4 Rect;\n"   /* x, y, w, h */
    "layout(location = 2) in vec4 Fill;\n"   /* premultiplied */
    "layout(location = 3) in vec4 Edge;\n"   /* border colour, premultiplied */
    "layout(location = 4) in vec3 Params;\n" /* radius, blur, border width */
    "uniform vec2 Viewport;\n"
    "uniform float ScrollY;\n"
    "out vec2 p;\n"
    "flat out vec4 fill, edge;\n"
    "flat out vec3 params;\n"
    "flat out vec2 half_size;\n"
    "void main() {\n"
    "  float m = 1.0 + 3.0 * Params.y;\n"
    "  vec2 local = Corner * (Rect.zw + 2.0 * m) - m;\n"
    "  vec2 at = Rect.xy + local;\n"
    "  p = local - 0.5 * Rect.zw;\n"
    "  half_size = 0.5 * Rect.zw;\n"
    "  fill = Fill; edge = Edge; params = Params;\n"
    "  at.y -= ScrollY;\n"
    "  gl_Position = vec4(at.x / Viewport.x * 2.0 - 1.0, 1.0 - at.y / Viewport.y * 2.0, 0.0, 1.0);\n"
    "}\n";
static const char *const shape_fragment =
    "#version 300 es\n"
    "precision highp float;\n"
    "in vec2 p;\n"
    "flat in vec4 fill, edge;\n"
    "flat in vec3 params;\n"
    "flat in vec2 half_size;\n"
    "out vec4 Color;\n"
    "float box(vec2 p, vec2 h, float r, out vec2 n) {\n"
    "  vec2 q = abs(p) - h + r, s = vec2(p.x < 0.0 ? -1.0 : 1.0, p.y < 0.0 ? -1.0 : 1.0);\n"
    "  n = q.x > 0.0 && q.y > 0.0 ? normalize(q) * s : q.x > q.y ? vec2(s.x, 0) : vec2(0, s.y);\n"
    "  return min(max(q.x, q.y), 0.0) + length(max(q, 0.0)) - r;\n"
    "}\n"
    "float cover(float d, vec2 n) {\n" /* one unit per pixel: n is the gradient */
    "  vec2 a = abs(n); float hi = max(a.x, a.y), lo = min(a.x, a.y);\n"
    "  float o = 0.5 * (hi + lo), i = 0.5 * (hi - lo), t = -d;\n"
    "  if (t >= o) return 1.0; if (t <= -o) return 0.0;\n"
    "  if (abs(t) <= i) return 0.5 + t / hi;\n"
    "  float e = o - abs(t), tail = e * e / (2.0 * hi * lo);\n"
    "  return t > 0.0 ? 1.0 - tail : tail;\n"
    "}\n"
    "float erf_(float x) {\n"
    "  float t = 1.0 / (1.0 + 0.3275911 * abs(x));\n"
    "  return sign(x) * (1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t\n"
    "         - 0.284496736) * t + 0.254829592) * t * exp(-x * x));\n"
    "}\n"
    "float shadow(vec2 p, vec2 h, float r, float s) {\n"
    "  float k = 0.70710678 / s;\n"
    "  float lo = max(-h.y, p.y - 3.0 * s), hi = min(h.y, p.y + 3.0 * s);\n"
    "  if (hi <= lo) return 0.0;\n"
    "  float step = (hi - lo) / 16.0, sum = 0.0;\n"
    "  for (int i = 0; i < 16; i++) {\n"
    "    float y = lo + (float(i) + 0.5) * step, dy = p.y - y;\n"
    "    float into = max(abs(y) - (h.y - r), 0.0);\n"
    "    float w = h.x - r + sqrt(max(r * r - into * into, 0.0));\n"
    "    sum += 0.5 * (erf_((p.x + w) * k) - erf_((p.x - w) * k)) * exp(-dy * dy / (2.0 * s * s));\n"
    "  }\n"
    "  return sum * step / (2.5066283 * s);\n"
    "}\n"
    "void main() {\n"
    "  if (params.y > 0.0) { Color = fill * clamp(shadow(p, half_size, params.x, params.y), 0.0, 1.0); return; }\n"
    "  vec2 n;\n"
    "  float outer = cover(box(p, half_size, params.x, n), n);\n"
    "  float inner = min(cover(box(p, half_size - params.z, max(params.x - params.z, 0.0), n), n), outer);\n"
    "  Color = fill * inner + edge * (outer - inner);\n"
    "}\n";
static const char *const quad_vertex =
    "#version 300 es\n"
    "layout(location = 0) in vec2 Position;\n"
    "layout(location = 1) in vec2 Uv;\n"
    "layout(location = 2) in vec4 Tint;\n" /* premultiplied */
    "uniform vec2 Viewport;\n"
    "uniform float ScrollY;\n"
    "out vec2 uv;\n"
    "flat out vec4 tint;\n"
    "void main() {\n"
    "  uv = Uv; tint = Tint;\n"
    "  gl_Position = vec4(Position.x / Viewport.x * 2.0 - 1.0, 1.0 - (Position.y - ScrollY) / Viewport.y * 2.0, 0.0, 1.0);\n"
    "}\n";
static const char *const icon_fragment =
    "#version 300 es\n"
    "precision mediump float;\n"
    "uniform sampler2D Tex;\n"
    "in highp vec2 uv;\n"
    "flat in vec4 tint;\n"
    "out vec4 Color;\n"
    "void main() { Color = texture(Tex, uv) * tint; }\n";
static const char *const glyph_fragment =
    "#version 300 es\n"
    "precision mediump float;\n"
    "uniform sampler2D Tex;\n"
    "in highp vec2 uv;\n"
    "flat in vec4 tint;\n"
    "out vec4 Color;\n"
    "void main() { Color = texture(Tex, uv).r * tint; }\n";

static GLuint program(const char *vertex, const char *fragment)
{
	GLuint p = bench_gl_program(vertex, fragment, "dashboard baseline");
	glUniform2f(glGetUniformLocation(p, "Viewport"), DASH_WIDTH, DASH_HEIGHT);
	return p;
}

/* --- text: one R8 atlas, glyphs on shelves, cached by (font, glyph) --------- */

#define ATLAS 1024

struct glyph_slot {
	int x, y, width, height, left, top;
	unsigned char ready;
};

struct font {
	FT_Face face;
	hb_font_t *hb;
	float ascent;
	struct glyph_slot *slots; /* by glyph index */
};

struct atlas {
	unsigned char *pixels;
	int x, y, shelf;
	int dirty;
};

static const struct glyph_slot *glyph(struct atlas *atlas, struct font *font, unsigned id)
{
	struct glyph_slot *g = &font->slots[id];
	if (g->ready)
		return g;
	g->ready = 1;
	if (FT_Load_Glyph(font->face, id, FT_LOAD_DEFAULT) ||
	    FT_Render_Glyph(font->face->glyph, FT_RENDER_MODE_NORMAL))
		return g;
	const FT_Bitmap *b = &font->face->glyph->bitmap;
	g->width = (int)b->width;
	g->height = (int)b->rows;
	g->left = font->face->glyph->bitmap_left;
	g->top = font->face->glyph->bitmap_top;
	if (!g->width || !g->height)
		return g;
	if (atlas->x + g->width + 1 > ATLAS) {
		atlas->x = 0;
		atlas->y += atlas->shelf + 1;
		atlas->shelf = 0;
	}
	g->x = atlas->x;
	g->y = atlas->y;
	for (int r = 0; r < g->height; r++)
		memcpy(atlas->pixels + (size_t)(g->y + r) * ATLAS + (size_t)g->x,
		       b->buffer + (ptrdiff_t)r * b->pitch, (size_t)g->width);
	atlas->x += g->width + 1;
	if (g->height > atlas->shelf)
		atlas->shelf = g->height;
	atlas->dirty = 1;
	return g;
}

/* Vertices of a string's glyph quads: x, y, u, v, and the colour. */
#define GLYPH_FLOATS (4 * 8)
#define MAX_STRING_GLYPHS 24

struct string {
	float v[MAX_STRING_GLYPHS * GLYPH_FLOATS];
	int quads;
};

static void shape(struct atlas *atlas, struct font *font, hb_buffer_t *buffer, const char *utf8,
                  float x, float y, const float color[4], struct string *out)
{
	hb_buffer_clear_contents(buffer);
	hb_buffer_add_utf8(buffer, utf8, -1, 0, -1);
	hb_buffer_guess_segment_properties(buffer);
	hb_shape(font->hb, buffer, NULL, 0);
	unsigned count;
	hb_glyph_info_t *info = hb_buffer_get_glyph_infos(buffer, &count);
	hb_glyph_position_t *pos = hb_buffer_get_glyph_positions(buffer, NULL);
	float premultiplied[4] = {color[0] * color[3], color[1] * color[3], color[2] * color[3],
	                          color[3]};
	long pen = 0;
	out->quads = 0;
	for (unsigned i = 0; i < count && out->quads < MAX_STRING_GLYPHS; i++) {
		const struct glyph_slot *g = glyph(atlas, font, info[i].codepoint);
		float gx = roundf((float)(pen + pos[i].x_offset) / 64.0f);
		float gy = roundf(font->ascent - (float)pos[i].y_offset / 64.0f);
		pen += pos[i].x_advance;
		if (!g->width || !g->height)
			continue;
		float x0 = x + gx + (float)g->left, y0 = y + gy - (float)g->top;
		float x1 = x0 + (float)g->width, y1 = y0 + (float)g->height;
		float u0 = (float)g->x / ATLAS, v0 = (float)g->y / ATLAS;
		float u1 = (float)(g->x + g->width) / ATLAS, v1 = (float)(g->y + g->height) / ATLAS;
		const float corners[4][4] = {{x0, y0, u0, v0}, {x0, y1, u0, v1}, {x1, y0, u1, v0},
		                             {x1, y1, u1, v1}};
		float *v = out->v + (size_t)out->quads * GLYPH_FLOATS;
		for (int k = 0; k < 4; k++) {
			memcpy(v + k * 8, corners[k], 4 * sizeof(float));
			memcpy(v + k * 8 + 4, premultiplied, 4 * sizeof(float));
		}
		out->quads++;
	}
}

static void open_font(FT_Library library, const char *path, int px, struct font *font)
{
	if (FT_New_Face(library, path, 0, &font->face) || FT_Set_Pixel_Sizes(font->face, 0, (FT_UInt)px)) {
		fprintf(stderr, "dashboard baseline: cannot open %s\n", path);
		exit(1);
	}
	font->hb = hb_ft_font_create_referenced(font->face);
	font->ascent = (float)font->face->size->metrics.ascender / 64.0f;
	font->slots = calloc((size_t)font->face->num_glyphs, sizeof(*font->slots));
}

/* The vertex array of quads: 4 vertices of 8 floats each, indexed. */
static GLuint quad_array(GLuint *vertices, GLuint indices, size_t quads)
{
	GLuint vao;
	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);
	glGenBuffers(1, vertices);
	glBindBuffer(GL_ARRAY_BUFFER, *vertices);
	glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, indices);
	glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(quads * GLYPH_FLOATS * sizeof(float)), NULL,
	             GL_DYNAMIC_DRAW);
	static const GLint sizes[3] = {2, 2, 4}, offsets[3] = {0, 2, 4}; /* x y, u v, colour */
	for (GLuint a = 0; a < 3; a++) {
		glEnableVertexAttribArray(a);
		glVertexAttribPointer(a, sizes[a], GL_FLOAT, GL_FALSE, 8 * sizeof(float),
		                      (const void *)(offsets[a] * sizeof(float)));
	}
	return vao;
}

int run_dashboard_baseline(enum dash_variant variant, int frames, const char *font_path)
{
	bool live = variant == DASH_LIVE;
	struct bench_egl egl;
	if (!bench_egl_display(&egl, "dashboard baseline"))
		return 1;
	double t0 = now_ms();
	if (!bench_egl_context(&egl, "dashboard baseline"))
		return 1;
	GLuint fbo, rb;
	glGenFramebuffers(1, &fbo);
	glBindFramebuffer(GL_FRAMEBUFFER, fbo);
	glGenRenderbuffers(1, &rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, DASH_WIDTH, DASH_HEIGHT);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
	GLuint shapes = program(shape_vertex, shape_fragment);
	GLuint icons = program(quad_vertex, icon_fragment);
	GLuint glyphs = program(quad_vertex, glyph_fragment);

	/* cards and shadows: a unit quad, 100 instances, shadows first */
	GLuint shape_vao, corners, instances;
	glGenVertexArrays(1, &shape_vao);
	glBindVertexArray(shape_vao);
	static const float unit[8] = {0, 0, 0, 1, 1, 0, 1, 1};
	glGenBuffers(1, &corners);
	glBindBuffer(GL_ARRAY_BUFFER, corners);
	glBufferData(GL_ARRAY_BUFFER, sizeof(unit), unit, GL_STATIC_DRAW);
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
	float data[2 * DASH_CARDS][19];
	for (int i = 0; i < 2 * DASH_CARDS; i++) {
		bool shadow = i < DASH_CARDS;
		float x, y;
		dash_card_at(i % DASH_CARDS, &x, &y);
		const float *fill = shadow ? dash_shadow : dash_card;
		float *d = data[i];
		d[0] = x;
		d[1] = y + (shadow ? DASH_SHADOW_DY : 0);
		d[2] = DASH_CARD_W;
		d[3] = DASH_CARD_H;
		for (int c = 0; c < 3; c++) {
			d[4 + c] = fill[c] * fill[3];
			d[8 + c] = dash_border[c] * dash_border[3];
		}
		d[7] = fill[3];
		d[11] = dash_border[3];
		d[12] = DASH_RADIUS;
		d[13] = shadow ? DASH_SHADOW_BLUR : 0;
		d[14] = shadow ? 0 : DASH_BORDER;
	}
	glGenBuffers(1, &instances);
	glBindBuffer(GL_ARRAY_BUFFER, instances);
	glBufferData(GL_ARRAY_BUFFER, sizeof(data), data, GL_STATIC_DRAW);
	static const int sizes[4] = {4, 4, 4, 3}, offsets[4] = {0, 4, 8, 12};
	for (GLuint a = 1; a <= 4; a++) {
		glEnableVertexAttribArray(a);
		glVertexAttribPointer(a, sizes[a - 1], GL_FLOAT, GL_FALSE, sizeof(data[0]),
		                      (const void *)(offsets[a - 1] * sizeof(float)));
		glVertexAttribDivisor(a, 1);
	}

	/* quads: shared indices for icons and glyphs */
	size_t most_quads = (size_t)DASH_CARDS * 2 * MAX_STRING_GLYPHS;
	unsigned *index = malloc(most_quads * 6 * sizeof(unsigned));
	for (size_t q = 0; q < most_quads; q++) {
		static const unsigned k[6] = {0, 1, 2, 2, 1, 3};
		for (int i = 0; i < 6; i++)
			index[q * 6 + (size_t)i] = (unsigned)(q * 4) + k[i];
	}
	GLuint indices;
	glGenBuffers(1, &indices);
	glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, indices);
	glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(most_quads * 6 * sizeof(unsigned)), index,
	             GL_STATIC_DRAW);
	free(index);

	GLuint icon_vertices, icon_vao = quad_array(&icon_vertices, indices, DASH_CARDS);
	float icon_v[DASH_CARDS * GLYPH_FLOATS];
	for (int c = 0; c < DASH_CARDS; c++) {
		float x, y;
		dash_card_at(c, &x, &y);
		x += 16;
		y += 16;
		const float v[4][8] = {{x, y, 0, 0, 1, 1, 1, 1},
		                       {x, y + DASH_ICON, 0, 1, 1, 1, 1, 1},
		                       {x + DASH_ICON, y, 1, 0, 1, 1, 1, 1},
		                       {x + DASH_ICON, y + DASH_ICON, 1, 1, 1, 1, 1, 1}};
		memcpy(icon_v + c * GLYPH_FLOATS, v, sizeof(v));
	}
	glBufferData(GL_ARRAY_BUFFER, sizeof(icon_v), icon_v, GL_STATIC_DRAW);
	unsigned char icon[DASH_ICON * DASH_ICON * 4];
	dash_icon(icon);
	for (int i = 0; i < DASH_ICON * DASH_ICON; i++) /* premultiplied */
		for (int c = 0; c < 3; c++)
			icon[i * 4 + c] = (unsigned char)((icon[i * 4 + c] * icon[i * 4 + 3] + 127) / 255);
	GLuint textures[2];
	glGenTextures(2, textures);
	glBindTexture(GL_TEXTURE_2D, textures[0]);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, DASH_ICON, DASH_ICON, 0, GL_RGBA, GL_UNSIGNED_BYTE,
	             icon);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);

	FT_Library library;
	FT_Init_FreeType(&library);
	struct font title, value;
	open_font(library, font_path, DASH_TITLE_PX, &title);
	open_font(library, font_path, DASH_VALUE_PX, &value);
	struct atlas atlas = {.pixels = calloc(ATLAS, ATLAS)};
	hb_buffer_t *buffer = hb_buffer_create();
	struct string *strings = calloc(2 * DASH_CARDS, sizeof(*strings));
	for (int c = 0; c < DASH_CARDS; c++) {
		float x, y;
		char text[32];
		dash_card_at(c, &x, &y);
		dash_title_of(c, text, sizeof(text));
		shape(&atlas, &title, buffer, text, x + 16, y + 64, dash_title, &strings[2 * c]);
		dash_value_of(c, 0, text, sizeof(text));
		shape(&atlas, &value, buffer, text, x + 16, y + 96, dash_value, &strings[2 * c + 1]);
	}
	glBindTexture(GL_TEXTURE_2D, textures[1]);
	glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, ATLAS, ATLAS, 0, GL_RED, GL_UNSIGNED_BYTE, atlas.pixels);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	atlas.dirty = 0;
	GLuint glyph_vertices, glyph_vao = quad_array(&glyph_vertices, indices, most_quads);
	float *glyph_v = malloc(most_quads * GLYPH_FLOATS * sizeof(float));
	double build_ms = now_ms() - t0;

	glViewport(0, 0, DASH_WIDTH, DASH_HEIGHT);
	glEnable(GL_BLEND);
	glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
	glClearColor(dash_background[0], dash_background[1], dash_background[2], 1);
	double *samples = malloc((size_t)frames * sizeof(double));
	size_t glyph_quads = 0;
	GLint scroll_at[3] = {glGetUniformLocation(shapes, "ScrollY"),
	                      glGetUniformLocation(icons, "ScrollY"),
	                      glGetUniformLocation(glyphs, "ScrollY")};
	const GLuint programs[3] = {shapes, icons, glyphs};
	if (variant == DASH_SCROLL) {
		/* the band alone is drawn each frame: the rest, cleared once, stays */
		glClear(GL_COLOR_BUFFER_BIT);
		glEnable(GL_SCISSOR_TEST);
		glScissor(0, DASH_HEIGHT - (int)(DASH_CLIP_Y + DASH_CLIP_H), DASH_WIDTH,
		          (int)DASH_CLIP_H);
	}
	for (int f = -3; f < frames; f++) {
		double start = now_ms();
		bool changed = f == -3;
		if (live)
			for (int k = 0; k < DASH_CHANGED; k++) {
				int c = ((f + 3) * DASH_CHANGED + k) % DASH_CARDS;
				float x, y;
				char text[32];
				dash_card_at(c, &x, &y);
				dash_value_of(c, f + 4, text, sizeof(text));
				shape(&atlas, &value, buffer, text, x + 16, y + 96, dash_value,
				      &strings[2 * c + 1]);
				changed = true;
			}
		if (atlas.dirty) {
			glBindTexture(GL_TEXTURE_2D, textures[1]);
			glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, ATLAS, ATLAS, GL_RED, GL_UNSIGNED_BYTE,
			                atlas.pixels);
			atlas.dirty = 0;
		}
		if (changed) {
			glyph_quads = 0;
			for (int s = 0; s < 2 * DASH_CARDS; s++) {
				memcpy(glyph_v + glyph_quads * GLYPH_FLOATS, strings[s].v,
				       (size_t)strings[s].quads * GLYPH_FLOATS * sizeof(float));
				glyph_quads += (size_t)strings[s].quads;
			}
			glBindBuffer(GL_ARRAY_BUFFER, glyph_vertices);
			glBufferSubData(GL_ARRAY_BUFFER, 0,
			                (GLsizeiptr)(glyph_quads * GLYPH_FLOATS * sizeof(float)), glyph_v);
		}
		if (variant == DASH_SCROLL)
			for (int k = 0; k < 3; k++) {
				glUseProgram(programs[k]);
				glUniform1f(scroll_at[k], dash_scroll_of(f));
			}
		glClear(GL_COLOR_BUFFER_BIT);
		glUseProgram(shapes);
		glBindVertexArray(shape_vao);
		glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, 2 * DASH_CARDS);
		glUseProgram(icons);
		glBindVertexArray(icon_vao);
		glBindTexture(GL_TEXTURE_2D, textures[0]);
		glDrawElements(GL_TRIANGLES, DASH_CARDS * 6, GL_UNSIGNED_INT, NULL);
		glUseProgram(glyphs);
		glBindVertexArray(glyph_vao);
		glBindTexture(GL_TEXTURE_2D, textures[1]);
		glDrawElements(GL_TRIANGLES, (GLsizei)(glyph_quads * 6), GL_UNSIGNED_INT, NULL);
		glFinish();
		if (f >= 0)
			samples[f] = now_ms() - start;
	}
	const char *prefix = getenv("DASHBOARD_PPM");
	if (prefix) { /* top row first, as libsg reads back */
		unsigned char *px = malloc((size_t)DASH_WIDTH * DASH_HEIGHT * 4);
		glReadPixels(0, 0, DASH_WIDTH, DASH_HEIGHT, GL_RGBA, GL_UNSIGNED_BYTE, px);
		char path[512];
		snprintf(path, sizeof(path), "%s-baseline-%s.ppm", prefix,
		         variant == DASH_LIVE ? "live" : variant == DASH_SCROLL ? "scroll" : "static");
		bench_write_ppm(path, px, DASH_WIDTH, DASH_HEIGHT, true);
		free(px);
	}
	double build[1] = {build_ms};
	samples_print("frame_ms", samples, frames);
	samples_print("build_ms", build, 1);
	free(samples);
	free(glyph_v);
	free(strings);
	free(atlas.pixels);
	hb_buffer_destroy(buffer);
	hb_font_destroy(title.hb);
	hb_font_destroy(value.hb);
	free(title.slots);
	free(value.slots);
	FT_Done_Face(title.face);
	FT_Done_Face(value.face);
	FT_Done_FreeType(library);
	bench_egl_finish(&egl);
	return 0;
}
