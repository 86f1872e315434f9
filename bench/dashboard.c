/* A dashboard (issue 32): 50 cards at 1920 x 1080, each a blurred shadow, a
 * rounded card with a border (shape textures, sg/shape.h), a 32 x 32 icon
 * (a textured quad), a title and a value (text nodes), against the same
 * drawn by a hand-written GLES program (dashboard_baseline.c), which
 * repaints everything every frame. Variants: "static" (nothing changes),
 * "live" (5 values replaced a frame, each shaped afresh) and "scroll" (every
 * card in a clip of a band of the output, scrolled 6 pixels a frame; the
 * baseline scissors the band and redraws it). Contestants:
 * libsg as it comes (damage tracking on: it repaints what changed), libsg
 * with damage tracking off (every frame repainted whole, as the baseline
 * does), and the baseline. A frame is the edits plus the render, glFinish
 * included.
 *
 * Each contestant in a process of its own, as a user's program runs:
 * build/bench/dashboard [frames] re-executes itself as `dashboard --run
 * libsg|libsg-full|baseline VARIANT FRAMES`, two rounds, the order swapped in the
 * second; the figures are medians over both rounds' frames. With
 * DASHBOARD_PPM=PREFIX each contestant writes its last frame to
 * PREFIX-NAME.ppm, to compare by eye. Not a test: read the medians. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sg/sg.h>

#include "dashboard_baseline.h"
#include "dashboard_scene.h"
#include "gles.h"
#include "timing.h"

static int fail(const char *what)
{
	fprintf(stderr, "dashboard: %s: %s\n", what, sg_last_error());
	return 1;
}

struct dashboard {
	struct sg_scene *scene;
	sg_node values[DASH_CARDS];
	sg_node parent; /* of every card: the root, or the scroll variant's content */
};

static sg_node add_model(struct dashboard *d, sg_mesh mesh, sg_texture texture, float x, float y)
{
	sg_node node = sg_node_new_model(
	    d->scene, &(struct sg_model_desc){.mesh = mesh, .texture = texture, .position = {x, y, 0}});
	if (node.generation)
		sg_node_add_child(d->scene, d->parent, node);
	return node;
}

/* The scroll variant's clip (the band) and the transform that scrolls the cards in it. */
static sg_result add_scroller(struct dashboard *d)
{
	sg_node clip = sg_node_new_clip(d->scene, &(struct sg_clip_desc){.y = DASH_CLIP_Y,
	                                                                 .width = DASH_WIDTH,
	                                                                 .height = DASH_CLIP_H});
	d->parent = sg_node_new_transform(d->scene, &(struct sg_transform_desc){.name = "content"});
	if (!clip.generation || !d->parent.generation ||
	    sg_node_add_child(d->scene, sg_scene_root(d->scene), clip) ||
	    sg_node_add_child(d->scene, clip, d->parent))
		return sg_last_result();
	return SG_OK;
}

static sg_result build(struct dashboard *d, bool scroll)
{
	struct sg_scene *scene = d->scene = sg_scene_create();
	d->parent = sg_scene_root(scene);
	if (scroll && add_scroller(d))
		return sg_last_result();
	struct sg_shape_desc card = {.width = DASH_CARD_W,
	                             .height = DASH_CARD_H,
	                             .radii = {DASH_RADIUS, DASH_RADIUS, DASH_RADIUS, DASH_RADIUS},
	                             .border_width = DASH_BORDER};
	memcpy(card.fill, dash_card, sizeof(card.fill));
	memcpy(card.border_color, dash_border, sizeof(card.border_color));
	struct sg_shape_desc shadow = {.width = DASH_CARD_W,
	                               .height = DASH_CARD_H,
	                               .radii = {DASH_RADIUS, DASH_RADIUS, DASH_RADIUS, DASH_RADIUS},
	                               .blur = DASH_SHADOW_BLUR};
	memcpy(shadow.fill, dash_shadow, sizeof(shadow.fill));
	/* one texture and one mesh for every card, shadow and icon */
	sg_texture card_texture = sg_texture_create_shape(scene, &card);
	sg_texture shadow_texture = sg_texture_create_shape(scene, &shadow);
	sg_mesh card_mesh = sg_mesh_create_shape(scene, &card);
	sg_mesh shadow_mesh = sg_mesh_create_shape(scene, &shadow);
	unsigned char icon[DASH_ICON * DASH_ICON * 4];
	dash_icon(icon);
	sg_texture icon_texture = sg_texture_create(
	    scene, &(struct sg_texture_desc){.width = DASH_ICON, .height = DASH_ICON, .pixels = icon});
	sg_mesh icon_mesh = sg_mesh_create_quad(scene, DASH_ICON, DASH_ICON);
	sg_font title = sg_font_load(scene, BENCH_FONT, DASH_TITLE_PX);
	sg_font value = sg_font_load(scene, BENCH_FONT, DASH_VALUE_PX);
	if (!card_texture.generation || !shadow_texture.generation || !card_mesh.generation ||
	    !shadow_mesh.generation || !icon_texture.generation || !icon_mesh.generation ||
	    !title.generation || !value.generation)
		return sg_last_result();
	for (int c = 0; c < DASH_CARDS; c++) {
		float x, y;
		dash_card_at(c, &x, &y);
		char text[32];
		if (!add_model(d, shadow_mesh, shadow_texture, x, y + DASH_SHADOW_DY).generation ||
		    !add_model(d, card_mesh, card_texture, x, y).generation ||
		    !add_model(d, icon_mesh, icon_texture, x + 16, y + 16).generation)
			return sg_last_result();
		dash_title_of(c, text, sizeof(text));
		sg_node t = sg_node_new_text(scene, &(struct sg_text_desc){
		                                        .font = title,
		                                        .utf8 = text,
		                                        .color = {dash_title[0], dash_title[1],
		                                                  dash_title[2], dash_title[3]},
		                                        .position = {x + 16, y + 64, 0}});
		dash_value_of(c, 0, text, sizeof(text));
		sg_node v = sg_node_new_text(scene, &(struct sg_text_desc){
		                                        .font = value,
		                                        .utf8 = text,
		                                        .color = {dash_value[0], dash_value[1],
		                                                  dash_value[2], dash_value[3]},
		                                        .position = {x + 16, y + 96, 0}});
		if (!t.generation || !v.generation)
			return sg_last_result();
		sg_node_add_child(scene, d->parent, t);
		sg_node_add_child(scene, d->parent, v);
		d->values[c] = v;
	}
	return SG_OK;
}

static void write_ppm(const char *name, const unsigned char *rgba)
{
	char path[512];
	snprintf(path, sizeof(path), "%s-%s.ppm", getenv("DASHBOARD_PPM"), name);
	bench_write_ppm(path, rgba, DASH_WIDTH, DASH_HEIGHT, false);
}

static const char *const variants[] = {"static", "live", "scroll"};

static int run_libsg(enum dash_variant variant, bool damage, int frames)
{
	bool live = variant == DASH_LIVE;
	struct dashboard d = {0};
	double t0 = now_ms();
	if (build(&d, variant == DASH_SCROLL))
		return fail("build");
	double build_ms = now_ms() - t0;
	struct sg_renderer *renderer =
	    sg_renderer_create(&(struct sg_renderer_desc){.width = DASH_WIDTH, .height = DASH_HEIGHT});
	if (!renderer || sg_renderer_set_damage_tracking(renderer, damage))
		return fail("renderer");
	sg_renderer_set_clear_color(renderer, dash_background[0], dash_background[1],
	                            dash_background[2], dash_background[3]);
	struct sg_camera camera;
	sg_camera_init_pixels(&camera, DASH_WIDTH, DASH_HEIGHT);
	double *frame = malloc((size_t)frames * sizeof(double));
	double *repainted = calloc((size_t)frames, sizeof(double));
	double *batches = calloc((size_t)frames, sizeof(double));
	double *finish = calloc((size_t)frames, sizeof(double));
	for (int f = -3; f < frames; f++) {
		double start = now_ms();
		if (live)
			for (int k = 0; k < DASH_CHANGED; k++) {
				int c = ((f + 3) * DASH_CHANGED + k) % DASH_CARDS;
				char text[32];
				dash_value_of(c, f + 4, text, sizeof(text));
				if (sg_text_set_string(d.scene, d.values[c], text))
					return fail("sg_text_set_string");
			}
		if (variant == DASH_SCROLL &&
		    (sg_transform_set_identity(d.scene, d.parent) ||
		     sg_transform_translate(d.scene, d.parent, 0, -dash_scroll_of(f), 0)))
			return fail("scrolling");
		if (sg_renderer_render(renderer, d.scene, &camera))
			return fail("render");
		if (f >= 0) {
			frame[f] = now_ms() - start;
			struct sg_render_stats stats;
			sg_renderer_get_stats(renderer, &stats);
			batches[f] = (double)stats.batches;
			finish[f] = (double)stats.finish_ns / 1e6;
		}
		if (f >= 0 && damage) {
			struct sg_rect rects[64];
			int n = sg_renderer_get_damage(renderer, rects, 64);
			double area = 0;
			for (int i = 0; i < n && i < 64; i++)
				area += (double)rects[i].width * rects[i].height;
			repainted[f] = area / (DASH_WIDTH * DASH_HEIGHT) * 100;
		}
	}
	if (damage)
		samples_print("repainted_percent", repainted, frames);
	samples_print("batches", batches, frames);
	samples_print("finish_ms", finish, frames);
	if (getenv("DASHBOARD_PPM")) {
		unsigned char *pixels = malloc((size_t)DASH_WIDTH * DASH_HEIGHT * 4);
		char name[64];
		snprintf(name, sizeof(name), "%s-%s", damage ? "libsg" : "libsg-full", variants[variant]);
		if (pixels && !sg_renderer_read_pixels(renderer, pixels, 0))
			write_ppm(name, pixels);
		free(pixels);
	}
	double build[1] = {build_ms};
	samples_print("frame_ms", frame, frames);
	samples_print("build_ms", build, 1);
	free(frame);
	free(repainted);
	free(batches);
	free(finish);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(d.scene);
	return 0;
}

static const char *const contestants[] = {"libsg", "libsg-full", "baseline"};

static void report(const char *variant, struct samples *s)
{
	printf("%s:\n", variant);
	for (int c = 0; c < 3; c++) {
		const char *name = contestants[c];
		char key[64];
		snprintf(key, sizeof(key), "%s_frame_ms", name);
		struct sample_series *frame = samples_get(s, key);
		snprintf(key, sizeof(key), "%s_build_ms", name);
		struct sample_series *build = samples_get(s, key);
		if (!frame || !build)
			continue;
		struct spread f = spread_of(frame->values, frame->count);
		printf("  %-10s frame %7.2f ms (min %.2f, max %.2f), build %5.1f ms", name, f.median,
		       f.min, f.max, median(build->values, build->count));
		snprintf(key, sizeof(key), "%s_repainted_percent", name);
		struct sample_series *area = samples_get(s, key);
		if (area)
			printf(", repainting %.2f %% of the output", median(area->values, area->count));
		snprintf(key, sizeof(key), "%s_batches", name);
		struct sample_series *batches = samples_get(s, key);
		snprintf(key, sizeof(key), "%s_finish_ms", name);
		struct sample_series *finish = samples_get(s, key);
		if (batches && finish)
			printf(", %.0f draw calls, glFinish %.2f ms", median(batches->values, batches->count),
			       median(finish->values, finish->count));
		struct sample_series *base = samples_get(s, "baseline_frame_ms");
		if (base && c < 2)
			printf("; / baseline %.3f", f.median / median(base->values, base->count));
		printf("\n");
	}
	fflush(stdout);
}

int main(int argc, char **argv)
{
	if (argc == 5 && strcmp(argv[1], "--run") == 0) {
		enum dash_variant variant = DASH_STATIC;
		for (int v = 0; v < 3; v++)
			if (strcmp(argv[3], variants[v]) == 0)
				variant = (enum dash_variant)v;
		int frames = atoi(argv[4]);
		if (strcmp(argv[2], "baseline") == 0)
			return run_dashboard_baseline(variant, frames, BENCH_FONT);
		return run_libsg(variant, strcmp(argv[2], "libsg-full") != 0, frames);
	}
	if (!sg_text_available()) {
		fprintf(stderr, "dashboard: this libsg was built without text (FreeType, HarfBuzz)\n");
		return 1;
	}
	int frames = argc > 1 ? atoi(argv[1]) : 20;
	if (frames < 1)
		frames = 1;
	char count[16];
	snprintf(count, sizeof(count), "%d", frames);
	printf("dashboard: 50 cards at %dx%d, %d frames a run, two runs each\n", DASH_WIDTH,
	       DASH_HEIGHT, frames);
	for (int v = 0; v < 3; v++) {
		struct samples all = {0};
		for (int round = 0; round < 2; round++)
			for (int c = 0; c < 3; c++) { /* the order reversed in odd rounds */
				const char *who = contestants[round ? 2 - c : c];
				char *const child[] = {argv[0], "--run", (char *)who,
				                       (char *)variants[v], count, NULL};
				struct samples one = {0};
				if (!run_self(child, &one)) {
					fprintf(stderr, "dashboard: the %s %s run failed\n", who,
					        variants[v]);
					return 1;
				}
				for (int k = 0; k < one.count; k++) {
					char line[64];
					snprintf(line, sizeof(line), "%s_%s", who, one.series[k].key);
					for (int i = 0; i < one.series[k].count; i++) {
						char add[128];
						snprintf(add, sizeof(add), "%s %.6f", line,
						         one.series[k].values[i]);
						samples_add_line(&all, add);
					}
				}
				samples_free(&one);
			}
		report(variants[v], &all);
		samples_free(&all);
	}
	return 0;
}
