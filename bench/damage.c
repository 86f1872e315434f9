/* Damage tracking (issue 13), on against off, side by side in one run, at
 * 1024 x 1024 on the automatically chosen target, every contestant in a
 * process of its own (damage re-executes itself as `damage --run SCENARIO
 * on|off WARMUP FRAMES`), on first in even rounds, off first in odd ones:
 *
 *   quad     one 32 x 32 quad (a colour, no texture) over tree-262144, the
 *            last model drawn, moved by 8 pixels right and down each frame;
 *   static   tree-262144 re-rendered unchanged;
 *   position 1 % of the leaf models of tree-262144 moved per frame
 *            (sg_model_set_position; every hundredth leaf, a different
 *            hundredth each frame), tracking on only: damage_ns against
 *            world_ns of the same frames;
 *   rotate   the same with the leaves' parent transforms rotated instead
 *            (sg_transform_set_matrix), as bench's `sparse` variant does.
 *
 * A frame is the whole sg_renderer_render (glFinish included); the other
 * figures are the renderer's sg_render_stats of the same frames. Each line:
 * min / median / max over the measured frames of all rounds, and the ratio of
 * the medians. Targets are printed, never asserted: this is not a test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sg/sg.h>

#include "timing.h"

#include "scenes.h"

#define SIZE 1024
#define LEAVES 262144
#define QUAD 32
#define QUAD_STEP 8

enum scenario { QUAD_MOVING, STATIC, LEAF_POSITIONS, LEAF_TRANSFORMS, SCENARIOS };
static const char *const scenario_names[] = {"quad", "static", "position", "rotate"};
/* The figures of issue 13 they give (bench/README.md). */
static const char *const scenario_labels[] = {"(a) quad", "(b) static", "(c) position",
                                              "(c) rotate"};

/* What a child keeps of the scene's description once the scene is built: the
 * leaves' handles, and the params of their parent transforms for `rotate`. */
struct leaves {
	size_t count;
	sg_node *models, *transforms;
	float (*params)[4];
};

static struct sg_scene *build(struct leaves *leaves)
{
	struct bench_tree tree;
	bench_tree_make(&tree, LEAVES);
	sg_node *handles = malloc(tree.count * sizeof(*handles));
	*leaves = (struct leaves){0};
	leaves->models = malloc(tree.models * sizeof(*leaves->models));
	leaves->transforms = malloc(tree.models * sizeof(*leaves->transforms));
	leaves->params = malloc(tree.models * sizeof(*leaves->params));
	struct sg_scene *scene = NULL;
	if (handles && leaves->models && leaves->transforms && leaves->params)
		scene = bench_scene_build(&tree, handles);
	for (size_t i = 0; scene && i < tree.count; i++) {
		if (tree.texture[i] < 0)
			continue;
		size_t parent = (size_t)tree.parent[i];
		leaves->models[leaves->count] = handles[i];
		leaves->transforms[leaves->count] = handles[parent];
		memcpy(leaves->params[leaves->count], tree.params[parent], sizeof(tree.params[0]));
		leaves->count++;
	}
	free(handles);
	bench_tree_free(&tree);
	return scene;
}

static void free_leaves(struct leaves *leaves)
{
	free(leaves->models), free(leaves->transforms), free(leaves->params);
}

/* The quad's top-left corner in frame f: a diagonal walk that wraps inside
 * the output, so that its old and new boxes overlap (one rectangle). */
static float quad_at(int f)
{
	return (float)((f * QUAD_STEP) % (SIZE - QUAD));
}

/* The edits of frame f: false with sg_last_error() when one failed. */
static bool edit(struct sg_scene *scene, enum scenario scenario, struct leaves *leaves,
                 sg_node quad, int f)
{
	if (scenario == QUAD_MOVING)
		return sg_model_set_position(scene, quad, quad_at(f), quad_at(f), 0) == SG_OK;
	if (scenario == STATIC)
		return true;
	/* every hundredth leaf, from leaf f mod 100: 1 % of them */
	for (size_t i = (size_t)f % 100; i < leaves->count; i += 100) {
		sg_result r;
		if (scenario == LEAF_POSITIONS) {
			/* a quarter of the quad to the right, and back at the next visit */
			float x = (f / 100) % 2 ? 0.0f : 0.5f;
			r = sg_model_set_position(scene, leaves->models[i], x, 0, 0);
		} else {
			float m[16];
			leaves->params[i][2] = 0.01f * (float)(f + 1);
			bench_params_matrix(leaves->params[i], m);
			r = sg_transform_set_matrix(scene, leaves->transforms[i], m);
		}
		if (r != SG_OK)
			return false;
	}
	return true;
}

enum key {
	FRAME,
	TRAVERSE,
	WORLD,
	DAMAGE,
	SUBMIT,
	FINISH,
	DAMAGE_OVER_WORLD,
	REDRAWS,
	BATCHES,
	DRAWS,
	PIXELS,
	RECTS,
	WORLD_UPDATES,
	KEYS
};
static const char *const key_names[] = {
    "frame_ms",         "traverse_ms",       "world_ms",     "damage_ms", "submit_ms",
    "finish_ms",        "damage_over_world", "redraws",      "batches",   "draws",
    "repainted_pixels", "repainted_rects",   "world_updates"};

/* One contestant in this process: prints a sample line per key. */
static int run(enum scenario scenario, bool tracking, int warmup, int frames)
{
	struct leaves leaves;
	struct sg_scene *scene = build(&leaves);
	struct sg_renderer *renderer =
	    scene ? sg_renderer_create(&(struct sg_renderer_desc){.width = SIZE, .height = SIZE})
	          : NULL;
	sg_node quad = SG_NODE_NONE;
	if (renderer && scenario == QUAD_MOVING) {
		quad = sg_node_new_model(
		    scene, &(struct sg_model_desc){.mesh = sg_mesh_create_quad(scene, QUAD, QUAD)});
		if (sg_node_add_child(scene, sg_scene_root(scene), quad) ||
		    sg_model_set_color(scene, quad, 1, 0, 0, 1))
			quad = SG_NODE_NONE;
	}
	double *samples = malloc(sizeof(double) * KEYS * (size_t)frames);
	if (!renderer || !samples || (scenario == QUAD_MOVING && !sg_node_exists(scene, quad)) ||
	    sg_renderer_set_damage_tracking(renderer, tracking)) {
		fprintf(stderr, "damage: %s\n", samples ? sg_last_error() : "out of memory");
		return 1;
	}
	struct sg_camera camera;
	sg_camera_init_pixels(&camera, SIZE, SIZE);
	for (int f = -warmup; f < frames; f++) {
		if (!edit(scene, scenario, &leaves, quad, f + warmup)) {
			fprintf(stderr, "damage: edit: %s\n", sg_last_error());
			return 1;
		}
		double t0 = now_ms();
		if (sg_renderer_render(renderer, scene, &camera)) {
			fprintf(stderr, "damage: render: %s\n", sg_last_error());
			return 1;
		}
		double frame = now_ms() - t0;
		struct sg_render_stats s;
		sg_renderer_get_stats(renderer, &s);
		if (f < 0)
			continue;
		double v[KEYS] = {
		    [FRAME] = frame,
		    [TRAVERSE] = (double)s.traverse_ns / 1e6,
		    [WORLD] = (double)s.world_ns / 1e6,
		    [DAMAGE] = (double)s.damage_ns / 1e6,
		    [SUBMIT] = (double)s.submit_ns / 1e6,
		    [FINISH] = (double)s.finish_ns / 1e6,
		    [DAMAGE_OVER_WORLD] = s.world_ns ? (double)s.damage_ns / (double)s.world_ns : 0,
		    [REDRAWS] = (double)s.redraws,
		    [BATCHES] = (double)s.batches,
		    [DRAWS] = (double)s.draws,
		    [PIXELS] = (double)s.repainted_pixels,
		    [RECTS] = s.repainted_rects,
		    [WORLD_UPDATES] = (double)s.world_updates,
		};
		for (int k = 0; k < KEYS; k++)
			samples[(size_t)k * (size_t)frames + (size_t)f] = v[k];
	}
	for (int k = 0; k < KEYS; k++)
		samples_print(key_names[k], samples + (size_t)k * (size_t)frames, frames);
	free(samples);
	free_leaves(&leaves);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
	return 0;
}

/* Every round's samples of one scenario, tracking on [1] and off [0]. */
struct contest {
	struct samples by[2];
};

static struct spread figure(struct contest *c, bool on, const char *key)
{
	struct sample_series *s = samples_get(&c->by[on], key);
	return s ? spread_of(s->values, s->count) : spread_of(NULL, 0);
}

/* One value: counts whole, milliseconds to a hundredth of a microsecond below
 * 1 ms. */
static void print_value(double v, const char *unit)
{
	printf(!*unit ? "%.0f" : v < 1 ? "%.5f" : v < 100 ? "%.3f" : "%.1f", v);
}

/* A figure as min/median/max. */
static void print_spread(struct spread v, const char *unit)
{
	print_value(v.min, unit), printf("/");
	print_value(v.median, unit), printf("/");
	print_value(v.max, unit), printf("%s%s", *unit ? " " : "", unit);
}

static void print_ratio(double on, double off)
{
	if (off > 0)
		printf("  on/off %.4g\n", on / off);
	else
		printf("  on/off -\n");
}

/* One line: min/median/max on, the same off, and on / off of the medians. */
static double print_pair(const char *label, struct contest *c, const char *key, const char *unit)
{
	struct spread on = figure(c, true, key), off = figure(c, false, key);
	printf("%-40s on ", label);
	print_spread(on, unit);
	printf("  off ");
	print_spread(off, unit);
	print_ratio(on.median, off.median);
	return on.median / off.median;
}

/* One line for tracking on alone. */
static struct spread print_on(const char *label, struct contest *c, const char *key,
                              const char *unit)
{
	struct spread on = figure(c, true, key);
	printf("%-40s on ", label);
	print_spread(on, unit);
	printf("\n");
	return on;
}

static void print_target(const char *what, bool met)
{
	printf("%-40s %s: %s\n", "target", what, met ? "met" : "MISSED");
}

static void report(enum scenario scenario, struct contest *c)
{
	char label[64];
#define LABEL(fmt) (snprintf(label, sizeof(label), "%s " fmt, scenario_labels[scenario]), label)
	if (scenario == QUAD_MOVING || scenario == STATIC) {
		double frame = print_pair(LABEL("frame (ms)"), c, "frame_ms", "ms");
		print_pair(LABEL("traverse_ns (ms)"), c, "traverse_ms", "ms");
		print_pair(LABEL("  of which damage_ns (ms)"), c, "damage_ms", "ms");
		print_pair(LABEL("submit_ns (ms)"), c, "submit_ms", "ms");
		print_pair(LABEL("finish_ns (ms)"), c, "finish_ms", "ms");
		print_pair(LABEL("redraws (models)"), c, "redraws", "");
		print_pair(LABEL("batches (draw calls)"), c, "batches", "");
		print_pair(LABEL("repainted pixels"), c, "repainted_pixels", "");
		print_pair(LABEL("repainted rects"), c, "repainted_rects", "");
		if (scenario == QUAD_MOVING) {
			print_target("frame with damage at most 10% of the full repaint's",
			             frame <= 0.10);
		} else {
			struct spread b = figure(c, true, "batches");
			print_target("no draw call at all with damage (max of stats.batches 0)",
			             b.max == 0);
		}
	} else {
		print_on(LABEL("frame (ms)"), c, "frame_ms", "ms");
		struct spread world = print_on(LABEL("world_ns (ms)"), c, "world_ms", "ms");
		struct spread damage = print_on(LABEL("damage_ns (ms)"), c, "damage_ms", "ms");
		struct spread per_frame =
		    print_on(LABEL("damage_ns / world_ns per frame"), c, "damage_over_world", "x");
		print_on(LABEL("world updates (matrices)"), c, "world_updates", "");
		print_on(LABEL("traverse_ns (ms)"), c, "traverse_ms", "ms");
		print_on(LABEL("submit_ns (ms)"), c, "submit_ms", "ms");
		print_on(LABEL("finish_ns (ms)"), c, "finish_ms", "ms");
		print_on(LABEL("redraws (models)"), c, "redraws", "");
		print_on(LABEL("repainted pixels"), c, "repainted_pixels", "");
		printf("%-40s %.4g\n", LABEL("damage / world, medians"),
		       damage.median / world.median);
		/* judged frame by frame: a frame's two figures share its machine state */
		print_target("damage_ns at most 2x world_ns of the same frame (median)",
		             per_frame.median <= 2);
	}
#undef LABEL
	fflush(stdout);
}

static bool parse_scenario(const char *name, enum scenario *scenario)
{
	for (int s = 0; s < SCENARIOS; s++)
		if (strcmp(name, scenario_names[s]) == 0) {
			*scenario = (enum scenario)s;
			return true;
		}
	return false;
}

static void usage(FILE *out)
{
	fprintf(out, "Usage: damage [--rounds N] [--frames N] [--warmup N] [SCENARIO]...\n"
	             "       damage --run quad|static|position|rotate on|off WARMUP FRAMES\n"
	             "Damage tracking on against off in tree-262144 at 1024x1024, each in\n"
	             "processes of its own: N rounds (default 2) of N frames (default 15) after\n"
	             "N warm-up frames (default 3); scenarios: quad static position rotate "
	             "(default all).\n");
}

int main(int argc, char **argv)
{
	if (argc == 6 && strcmp(argv[1], "--run") == 0) {
		enum scenario scenario;
		int warmup = atoi(argv[4]), frames = atoi(argv[5]);
		if (!parse_scenario(argv[2], &scenario) ||
		    (strcmp(argv[3], "on") && strcmp(argv[3], "off")) || warmup < 0 || frames < 1) {
			usage(stderr);
			return 2;
		}
		return run(scenario, strcmp(argv[3], "on") == 0, warmup, frames);
	}
	int rounds = 2;
	char warmup[16] = "3", frames[16] = "15";
	bool want[SCENARIOS] = {0}, any = false;
	for (int i = 1; i < argc; i++) {
		const char *next = i + 1 < argc ? argv[i + 1] : NULL;
		enum scenario s;
		if (strcmp(argv[i], "--rounds") == 0 && next && atoi(next) > 0)
			rounds = atoi(argv[++i]);
		else if (strcmp(argv[i], "--frames") == 0 && next && atoi(next) > 0)
			snprintf(frames, sizeof(frames), "%d", atoi(argv[++i]));
		else if (strcmp(argv[i], "--warmup") == 0 && next && atoi(next) >= 0)
			snprintf(warmup, sizeof(warmup), "%d", atoi(argv[++i]));
		else if (strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return 0;
		} else if (parse_scenario(argv[i], &s))
			want[s] = any = true;
		else {
			usage(stderr);
			return 2;
		}
	}
	printf("tree-262144 at %dx%d, %s warm-up + %s measured frames, %d rounds, a process "
	       "each; min/median/max of all measured frames\n",
	       SIZE, SIZE, warmup, frames, rounds);
	for (int s = 0; s < SCENARIOS; s++) {
		if (any && !want[s])
			continue;
		/* the leaf scenarios compare damage_ns with world_ns: tracking on only */
		int contestants = s == LEAF_POSITIONS || s == LEAF_TRANSFORMS ? 1 : 2;
		struct contest c = {0};
		for (int round = 0; round < rounds; round++)
			for (int k = 0; k < contestants; k++) {
				bool on = (k == 0) == (round % 2 == 0) || contestants == 1;
				char *child[] = {argv[0],
				                 "--run",
				                 (char *)scenario_names[s],
				                 on ? "on" : "off",
				                 warmup,
				                 frames,
				                 NULL};
				if (!run_self(child, &c.by[on])) {
					fprintf(stderr, "damage: %s %s failed\n", scenario_names[s],
					        on ? "on" : "off");
					return 1;
				}
			}
		report((enum scenario)s, &c);
		samples_free(&c.by[0]), samples_free(&c.by[1]);
	}
	return 0;
}
