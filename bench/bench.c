/* The libsg benchmark: every scene of shared/scenes/bench-scenes.md through the
 * public API, against a hand-written baseline on the same data. Each
 * contestant runs in a process of its own for each scene, as a user's program
 * would (its own caches, heap and peak RSS), the two interleaved, in rounds;
 * medians over the measured frames of all rounds, after warm-up frames.
 *
 * bench [--quick] [--scene NAME] [--rounds N] [--frames N] [--warmup N]
 *       [--three-rects PATH]
 * bench --run libsg|baseline SCENE VARIANT WARMUP FRAMES   (one contestant, raw lines) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sg/sg.h>

#include "timing.h"

#include "baseline.h"
#include "scenes.h"

#define SIZE 1024
#define MAX_SAMPLES 1024

static long rss_kib(void)
{
	long pages = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (f) {
		if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
			resident = 0;
		fclose(f);
	}
	return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* VmHWM: a child started with exec counts only its own pages. */
static long peak_rss_kib(void)
{
	struct rusage usage;
	getrusage(RUSAGE_SELF, &usage);
	return usage.ru_maxrss;
}

/* Page faults so far: a frame that frees memory to the kernel and takes it
 * back faults it in again, zero-filled, which costs as much as drawing on a
 * small scene (keep_frame_memory). */
static long minor_faults(void)
{
	struct rusage usage;
	getrusage(RUSAGE_SELF, &usage);
	return usage.ru_minflt;
}

enum variant { VARIANT_STATIC, VARIANT_ALL, VARIANT_SPARSE };

static const char *variant_name(enum variant variant)
{
	return variant == VARIANT_ALL ? "all" : variant == VARIANT_SPARSE ? "sparse" : "-";
}

/* The transforms a variant changes, all frames together, with their params, so
 * that the scene's description can be freed once the scene is built. */
struct edits {
	size_t count;
	size_t *nodes;      /* indices in the description */
	float (*params)[4]; /* their params; [2] is the animated rotation */
	sg_node *handles;   /* libsg's nodes */
};

static void collect_edits(const struct bench_tree *tree, enum variant variant, struct edits *edits)
{
	*edits = (struct edits){0};
	edits->nodes = malloc(tree->count * sizeof(*edits->nodes));
	for (size_t i = 0; i < tree->count; i++) {
		bool leaf_transform = tree->texture[i] < 0 && i + 1 < tree->count &&
		                      tree->texture[i + 1] >= 0 &&
		                      tree->parent[i + 1] == (int32_t)i;
		if ((variant == VARIANT_ALL && tree->texture[i] < 0 && tree->depth[i] == 1) ||
		    (variant == VARIANT_SPARSE && leaf_transform))
			edits->nodes[edits->count++] = i;
	}
	edits->params = malloc((edits->count + 1) * sizeof(*edits->params));
	edits->handles = malloc((edits->count + 1) * sizeof(*edits->handles));
	if (!edits->nodes || !edits->params || !edits->handles) {
		fprintf(stderr, "bench: out of memory for the edits\n");
		exit(1);
	}
	for (size_t e = 0; e < edits->count; e++)
		memcpy(edits->params[e], tree->params[edits->nodes[e]], sizeof(edits->params[e]));
}

static void free_edits(struct edits *edits)
{
	free(edits->nodes), free(edits->params), free(edits->handles);
}

/* Whether edit e applies in frame f (sparse: leaf i where i mod 100 == frame mod
 * 100, e being the leaf's index among the leaf transforms), and its new local
 * matrix if so. */
static bool edit_matrix(struct edits *edits, enum variant variant, size_t e, int f, float m[16])
{
	if (variant == VARIANT_SPARSE && e % 100 != (size_t)f % 100)
		return false;
	edits->params[e][2] = 0.01f * (float)(f + 1);
	bench_params_matrix(edits->params[e], m);
	return true;
}

static void print_samples(const char *key, const double *values, int count)
{
	printf("%s", key);
	for (int i = 0; i < count; i++)
		printf(" %.6f", values[i]);
	printf("\n");
}

static void make_description(struct bench_tree *tree, const char *scene, size_t *n, bool *flat)
{
	*flat = strncmp(scene, "flat-", 5) == 0;
	*n = strtoul(scene + 5, NULL, 10); /* tree-N or flat-N */
	if (*flat)
		bench_flat_make(tree, *n);
	else
		bench_tree_make(tree, *n);
}

/* The benchmark's own allocator tuning, in its libsg child only, as libsg did
 * it itself until a library tuning its host's allocator was ruled out
 * (bench/README.md, "The heap keeps llvmpipe's frame memory"): llvmpipe
 * mallocs its binning memory while a frame is drawn and frees it after, and
 * at glibc's initial settings memory freed at the top of the heap beyond
 * 128 KiB goes back to the kernel, to be faulted in again by the next frame.
 * Freeing one untouched 31 MiB block makes glibc raise its trim threshold to
 * twice that (and its mmap threshold to 31 MiB) by its own adaptive rule. At
 * the first render, after the scene is built, as libsg did, so that the
 * figures of the rounds before stay comparable. */
static void keep_frame_memory(void)
{
	/* volatile: a malloc whose block is freed unused may be left out */
	void *volatile block = malloc((size_t)31 << 20);
	free(block);
}

/* libsg alone: builds the scene, frees the description, renders. */
static int run_libsg(const char *scene_name, enum variant variant, int warmup, int frames)
{
	struct bench_tree tree;
	size_t n;
	bool flat;
	make_description(&tree, scene_name, &n, &flat);
	struct edits edits;
	collect_edits(&tree, variant, &edits);
	sg_node *handles = malloc(tree.count * sizeof(*handles));
	long rss_before = rss_kib();
	double build_start = now_ms();
	struct sg_scene *scene = bench_scene_build(&tree, handles);
	double build_ms = now_ms() - build_start;
	long rss_after = rss_kib();
	if (!scene) {
		fprintf(stderr, "bench: %s\n", sg_last_error());
		return 1;
	}
	for (size_t e = 0; e < edits.count; e++)
		edits.handles[e] = handles[edits.nodes[e]];
	free(handles);
	bench_tree_free(&tree);
	struct sg_renderer *renderer =
	    sg_renderer_create(&(struct sg_renderer_desc){.width = SIZE, .height = SIZE});
	if (!renderer) {
		fprintf(stderr, "bench: %s\n", sg_last_error());
		return 1;
	}
	size_t nodes = sg_scene_node_count(scene);
	struct sg_camera camera;
	sg_camera_init_pixels(&camera, SIZE, SIZE);

	int total = warmup + frames;
	double *world = calloc((size_t)total, sizeof(double)),
	       *traverse = calloc((size_t)total, sizeof(double));
	double *submit = calloc((size_t)total, sizeof(double)),
	       *frame = calloc((size_t)total, sizeof(double));
	double *cpu = calloc((size_t)total, sizeof(double)),
	       *waited = calloc((size_t)total, sizeof(double));
	long faults = 0;
	for (int f = 0; f < total; f++) {
		if (f == warmup)
			faults = minor_faults();
		for (size_t e = 0; e < edits.count; e++) {
			float m[16];
			if (edit_matrix(&edits, variant, e, f, m))
				sg_transform_set_matrix(scene, edits.handles[e], m);
		}
		double w0 = threads_waited_ms(), c0 = process_cpu_ms(), t0 = now_ms();
		if (f == 0)
			keep_frame_memory();
		if (sg_renderer_render(renderer, scene, &camera)) {
			fprintf(stderr, "bench: %s\n", sg_last_error());
			return 1;
		}
		frame[f] = now_ms() - t0;
		cpu[f] = process_cpu_ms() - c0;
		waited[f] = threads_waited_ms() - w0;
		struct sg_render_stats stats;
		sg_renderer_get_stats(renderer, &stats);
		world[f] = (double)stats.world_ns / 1e6;
		traverse[f] = (double)stats.traverse_ns / 1e6;
		submit[f] = (double)stats.submit_ns / 1e6;
	}
	faults = minor_faults() - faults; /* before printing allocates anything */
	printf("nodes %zu\nbuild_ms %.3f\nbytes_per_node %.2f\n", nodes, build_ms,
	       (double)(rss_after - rss_before) * 1024.0 / (double)nodes);
	print_samples("world_ms", world + warmup, frames);
	print_samples("traverse_ms", traverse + warmup, frames);
	print_samples("submit_ms", submit + warmup, frames);
	print_samples("frame_ms", frame + warmup, frames);
	print_samples("cpu_ms", cpu + warmup, frames);
	if (!isnan(waited[0]))
		print_samples("waited_ms", waited + warmup, frames);
	printf("faults_per_frame %.2f\n", (double)faults / frames);
	printf("peak_rss_kib %ld\n", peak_rss_kib());

	if (variant == VARIANT_STATIC) {
		/* With damage tracking (the default) an unchanged scene repaints
		 * nothing and its frames cost next to nothing; the same frames
		 * repainted whole show the fixed cost of a frame. */
		sg_renderer_set_damage_tracking(renderer, false);
		for (int f = 0; f < total; f++) {
			if (f == warmup)
				faults = minor_faults();
			double t0 = now_ms();
			if (sg_renderer_render(renderer, scene, &camera)) {
				fprintf(stderr, "bench: %s\n", sg_last_error());
				return 1;
			}
			frame[f] = now_ms() - t0;
		}
		faults = minor_faults() - faults;
		print_samples("full_frame_ms", frame + warmup, frames);
		printf("full_faults_per_frame %.2f\n", (double)faults / frames);
	}

	if (!flat && n >= 262144 && variant == VARIANT_ALL) {
		/* a camera on the top-left 128 x 128 of the 1024 x 1024 scene */
		struct sg_camera look;
		sg_camera_init_pixels(&look, 128, 128);
		sg_renderer_set_culling(renderer, true);
		sg_renderer_render(renderer, scene, &look); /* computes the boxes */
		double t0 = now_ms();
		sg_renderer_render(renderer, scene, &look);
		double culled_ms = now_ms() - t0;
		struct sg_render_stats stats;
		sg_renderer_get_stats(renderer, &stats);
		printf("culled_visited %zu\nculled_draws %zu\nculled_frame_ms %.3f\n",
		       stats.nodes_visited, stats.draws, culled_ms);
	}
	free(world), free(traverse), free(submit), free(frame), free(cpu), free(waited);
	free_edits(&edits);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
	return 0;
}

/* The baseline alone: copies the description, frees it, draws. */
static int run_baseline(const char *scene_name, enum variant variant, int warmup, int frames)
{
	struct bench_tree tree;
	size_t n;
	bool flat;
	make_description(&tree, scene_name, &n, &flat);
	struct edits edits;
	collect_edits(&tree, variant, &edits);
	long rss_before = rss_kib();
	struct baseline b;
	baseline_init(&b, &tree);
	long rss_after = rss_kib();
	bench_tree_free(&tree);
	if (baseline_gl_init(&b, SIZE, SIZE))
		return 1;
	struct sg_camera camera;
	sg_camera_init_pixels(&camera, SIZE, SIZE);
	mat4 flip = GLM_MAT4_IDENTITY_INIT, vp;
	flip[1][1] = -1; /* the same y-flip libsg renders with */
	glm_mat4_mul(flip, (vec4 *)camera.projection, vp);

	int total = warmup + frames;
	double *world = calloc((size_t)total, sizeof(double)),
	       *vertices = calloc((size_t)total, sizeof(double));
	double *frame = calloc((size_t)total, sizeof(double));
	double *cpu = calloc((size_t)total, sizeof(double)),
	       *waited = calloc((size_t)total, sizeof(double));
	baseline_update_world(&b);
	baseline_build_vertices(&b, vp);
	long faults = 0;
	for (int f = 0; f < total; f++) {
		if (f == warmup)
			faults = minor_faults();
		for (size_t e = 0; e < edits.count; e++) {
			float m[16];
			if (edit_matrix(&edits, variant, e, f, m))
				baseline_set_local(&b, edits.nodes[e], m);
		}
		double w0 = threads_waited_ms(), c0 = process_cpu_ms(), t0 = now_ms();
		baseline_update_world(&b);
		double t1 = now_ms();
		if (variant != VARIANT_STATIC)
			baseline_build_vertices(&b, vp);
		vertices[f] = now_ms() - t1;
		baseline_draw(&b, SIZE, SIZE);
		frame[f] = now_ms() - t0;
		cpu[f] = process_cpu_ms() - c0;
		waited[f] = threads_waited_ms() - w0;
		world[f] = t1 - t0;
	}
	faults = minor_faults() - faults; /* before printing allocates anything */
	printf("nodes %zu\nbytes_per_node %.2f\n", b.count,
	       (double)(rss_after - rss_before) * 1024.0 / (double)b.count);
	print_samples("world_ms", world + warmup, frames);
	print_samples("vertices_ms", vertices + warmup, frames);
	print_samples("frame_ms", frame + warmup, frames);
	print_samples("cpu_ms", cpu + warmup, frames);
	if (!isnan(waited[0]))
		print_samples("waited_ms", waited + warmup, frames);
	printf("faults_per_frame %.2f\n", (double)faults / frames);
	printf("peak_rss_kib %ld\n", peak_rss_kib());
	free(world), free(vertices), free(frame), free(cpu), free(waited);
	free_edits(&edits);
	baseline_finish(&b);
	return 0;
}

/* What the parent gathers from the children of one contestant, all rounds. */
struct series {
	char key[32];
	double values[MAX_SAMPLES];
	int count;
};

#define MAX_KEYS 24
#define MAX_PROCESSES 64

/* A key's median in each child process, in the order they ran. */
struct per_process {
	double values[MAX_PROCESSES];
	int count;
};

struct results {
	struct series series[MAX_KEYS];
	int count;
	/* each child's median frame, repainted frame (static scenes), time its
	 * threads waited for a CPU a frame, and world update: one thread's plain
	 * loop, before any GL, the same work in every process */
	struct per_process frame, full_frame, waited, world;
};

static struct series *series_of(struct results *r, const char *key)
{
	for (int i = 0; i < r->count; i++)
		if (strcmp(r->series[i].key, key) == 0)
			return &r->series[i];
	if (r->count == MAX_KEYS)
		return NULL;
	struct series *s = &r->series[r->count++];
	snprintf(s->key, sizeof(s->key), "%s", key);
	s->count = 0;
	return s;
}

/* The median of a key over all rounds; NAN when no child reported it. */
static double value(struct results *r, const char *key)
{
	for (int i = 0; i < r->count; i++)
		if (strcmp(r->series[i].key, key) == 0 && r->series[i].count)
			return median(r->series[i].values, r->series[i].count);
	return NAN;
}

static int samples_of(struct results *r, const char *key)
{
	for (int i = 0; i < r->count; i++)
		if (strcmp(r->series[i].key, key) == 0)
			return r->series[i].count;
	return 0;
}

/* The median of the samples of key from the from-th on (those the last child
 * added) into p, where it added any. */
static void add_process_median(struct results *r, const char *key, int from,
                               struct per_process *p)
{
	static double copy[MAX_SAMPLES];
	int n = 0;
	for (int i = 0; i < r->count; i++)
		if (strcmp(r->series[i].key, key) == 0)
			for (int j = from; j < r->series[i].count; j++)
				copy[n++] = r->series[i].values[j];
	if (n && p->count < MAX_PROCESSES)
		p->values[p->count++] = median(copy, n);
}

/* "min/median/max" of the processes' medians, "-" for none. */
static const char *spread_text(struct per_process *p, char *text, size_t size)
{
	if (!p->count)
		return snprintf(text, size, "-"), text;
	struct spread s = spread_of(p->values, p->count); /* sorts */
	snprintf(text, size, "%.2f/%.2f/%.2f", s.min, s.median, s.max);
	return text;
}

/* Runs `self --run ...` and adds its lines to r; false if it failed. */
static bool run_child(const char *self, const char *contestant, const char *scene,
                      enum variant variant, int warmup, int frames, struct results *r)
{
	int fds[2];
	if (pipe(fds))
		return false;
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		dup2(fds[1], STDOUT_FILENO);
		close(fds[1]);
		char w[16], f[16];
		snprintf(w, sizeof(w), "%d", warmup);
		snprintf(f, sizeof(f), "%d", frames);
		execl(self, self, "--run", contestant, scene, variant_name(variant), w, f,
		      (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	int frames_before = samples_of(r, "frame_ms"), full_before = samples_of(r, "full_frame_ms"),
	    waited_before = samples_of(r, "waited_ms"), world_before = samples_of(r, "world_ms");
	FILE *in = fdopen(fds[0], "r");
	char line[32768];
	while (in && fgets(line, sizeof(line), in)) {
		char *save = NULL, *key = strtok_r(line, " \n", &save);
		struct series *s = key ? series_of(r, key) : NULL;
		for (char *v; s && (v = strtok_r(NULL, " \n", &save));)
			if (s->count < MAX_SAMPLES)
				s->values[s->count++] = strtod(v, NULL);
	}
	if (in)
		fclose(in);
	int status;
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "bench: %s on %s %s failed\n", contestant, scene,
		        variant_name(variant));
		return false;
	}
	add_process_median(r, "frame_ms", frames_before, &r->frame);
	add_process_median(r, "full_frame_ms", full_before, &r->full_frame);
	add_process_median(r, "waited_ms", waited_before, &r->waited);
	add_process_median(r, "world_ms", world_before, &r->world);
	return true;
}

struct plan {
	const char *self;
	int rounds, warmup, frames;
};

/* Both contestants on one scene and variant, interleaved: libsg first in even
 * rounds, the baseline first in odd ones, so that a drift of the machine
 * weighs on both alike. */
static void compare(const struct plan *plan, const char *scene, enum variant variant)
{
	static struct results libsg, base;
	libsg = base = (struct results){0};
	for (int round = 0; round < plan->rounds; round++) {
		for (int k = 0; k < 2; k++) {
			bool sg_turn = (k == 0) == (round % 2 == 0);
			if (!run_child(plan->self, sg_turn ? "libsg" : "baseline", scene, variant,
			               plan->warmup, plan->frames, sg_turn ? &libsg : &base))
				return;
		}
	}
	double nodes = value(&libsg, "nodes"), base_nodes = value(&base, "nodes");
	double world = value(&libsg, "world_ms") * 1e6 / nodes;
	double traverse = value(&libsg, "traverse_ms") * 1e6 / nodes;
	double base_world = value(&base, "world_ms") * 1e6 / base_nodes;
	double frame = value(&libsg, "frame_ms"), base_frame = value(&base, "frame_ms");
	printf("scene=%s variant=%s nodes=%.0f build_ms=%.1f traverse_ns_per_node=%.2f "
	       "world_ns_per_node=%.2f baseline_world_ns_per_node=%.2f world_ratio=%.2f "
	       "submit_ms=%.2f frame_ms=%.2f baseline_frame_ms=%.2f frame_ratio=%.2f "
	       "bytes_per_node=%.1f peak_rss_mib=%.1f baseline_peak_rss_mib=%.1f "
	       "faults_per_frame=%.1f baseline_faults_per_frame=%.1f\n",
	       scene, variant_name(variant), nodes, value(&libsg, "build_ms"), traverse, world,
	       base_world, world / base_world, value(&libsg, "submit_ms"), frame, base_frame,
	       frame / base_frame, value(&libsg, "bytes_per_node"),
	       value(&libsg, "peak_rss_kib") / 1024.0, value(&base, "peak_rss_kib") / 1024.0,
	       value(&libsg, "faults_per_frame"), value(&base, "faults_per_frame"));
	if (!isnan(value(&libsg, "full_frame_ms")))
		printf("scene=%s damage_tracking=off frame_ms=%.2f baseline_frame_ms=%.2f "
		       "frame_ratio=%.2f faults_per_frame=%.1f baseline_faults_per_frame=%.1f\n",
		       scene, value(&libsg, "full_frame_ms"), base_frame,
		       value(&libsg, "full_frame_ms") / base_frame,
		       value(&libsg, "full_faults_per_frame"), value(&base, "faults_per_frame"));
	if (!isnan(value(&libsg, "culled_visited")))
		printf("scene=%s culling=corner-128 nodes=%.0f nodes_visited=%.0f draws=%.0f "
		       "frame_ms=%.2f\n",
		       scene, nodes, value(&libsg, "culled_visited"), value(&libsg, "culled_draws"),
		       value(&libsg, "culled_frame_ms"));
	/* Each process's median frame, min/median/max over the processes: a
	 * process whose frames all ran slow shows here, where the medians
	 * above, over every frame of every process, hide it. */
	char a[64], b[64], c[64], d[64], e[64], w[64], x[64];
	printf("scene=%s variant=%s processes=%d process_frame_ms=%s baseline_process_frame_ms=%s "
	       "process_waited_ms=%s baseline_process_waited_ms=%s process_world_ms=%s "
	       "baseline_process_world_ms=%s",
	       scene, variant_name(variant), libsg.frame.count,
	       spread_text(&libsg.frame, a, sizeof(a)), spread_text(&base.frame, b, sizeof(b)),
	       spread_text(&libsg.waited, c, sizeof(c)), spread_text(&base.waited, d, sizeof(d)),
	       spread_text(&libsg.world, w, sizeof(w)), spread_text(&base.world, x, sizeof(x)));
	if (libsg.full_frame.count)
		printf(" damage_off_process_frame_ms=%s",
		       spread_text(&libsg.full_frame, e, sizeof(e)));
	printf("\n");
	fflush(stdout);
}

/* One process of argv to its exit, in ms; negative when it failed. */
static double process_ms(char *const argv[])
{
	double t0 = now_ms();
	pid_t pid = fork();
	if (pid == 0) {
		execv(argv[0], argv);
		_exit(127);
	}
	int status;
	waitpid(pid, &status, 0);
	double ms = now_ms() - t0;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "bench: %s failed\n", argv[0]);
		return -1;
	}
	return ms;
}

/* The three-rects demo (libsg) and the same picture written straight against
 * EGL, GLES and libpng, each a whole process: start, EGL, build, render,
 * PNG, exit. Alternated, so that a drift of the machine weighs on both. */
static void three_rects_latency(const char *program, const char *raw, int runs)
{
	static const char output[] = "/tmp/sg-bench-three-rects.png";
	char *sg_argv[] = {(char *)program, "-q", "-o", (char *)output, NULL};
	char *raw_argv[] = {(char *)raw, (char *)output, NULL};
	double *ms = calloc((size_t)runs * 2, sizeof(double));
	for (int i = 0; i < runs; i++) {
		bool sg_first = i % 2 == 0;
		double a = process_ms(sg_first ? sg_argv : raw_argv);
		double b = process_ms(sg_first ? raw_argv : sg_argv);
		if (a < 0 || b < 0) {
			free(ms);
			return;
		}
		ms[i] = sg_first ? a : b;
		ms[runs + i] = sg_first ? b : a;
	}
	unlink(output);
	double sg = median(ms, runs), baseline = median(ms + runs, runs);
	printf("scene=three-rects process_ms=%.1f raw_egl_process_ms=%.1f ratio=%.2f runs=%d\n", sg,
	       baseline, sg / baseline, runs);
	free(ms);
}

static bool parse_variant(const char *name, enum variant *variant)
{
	if (strcmp(name, "all") == 0)
		*variant = VARIANT_ALL;
	else if (strcmp(name, "sparse") == 0)
		*variant = VARIANT_SPARSE;
	else if (strcmp(name, "-") == 0)
		*variant = VARIANT_STATIC;
	else
		return false;
	return true;
}

static int run_one(char **argv)
{
	enum variant variant;
	int warmup = atoi(argv[4]), frames = atoi(argv[5]);
	if (!parse_variant(argv[3], &variant) || warmup < 0 || frames < 1 ||
	    (strncmp(argv[2], "tree-", 5) && strncmp(argv[2], "flat-", 5))) {
		fprintf(stderr, "bench --run: bad arguments\n");
		return 2;
	}
	if (strcmp(argv[1], "libsg") == 0)
		return run_libsg(argv[2], variant, warmup, frames);
	if (strcmp(argv[1], "baseline") == 0)
		return run_baseline(argv[2], variant, warmup, frames);
	fprintf(stderr, "bench --run: libsg or baseline, not %s\n", argv[1]);
	return 2;
}

int main(int argc, char **argv)
{
	if (argc == 7 && strcmp(argv[1], "--run") == 0)
		return run_one(argv + 1);
	bool quick = false;
	const char *only = NULL, *three_rects = BENCH_THREE_RECTS;
	/* The outside side-by-side harness: 3 warm-up + 9 frames, two rounds. */
	struct plan plan = {.self = "/proc/self/exe", .rounds = 2, .warmup = 3, .frames = 9};
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--quick") == 0)
			quick = true;
		else if (strcmp(argv[i], "--scene") == 0 && i + 1 < argc)
			only = argv[++i];
		else if (strcmp(argv[i], "--three-rects") == 0 && i + 1 < argc)
			three_rects = argv[++i];
		else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc && atoi(argv[i + 1]) > 0)
			plan.rounds = atoi(argv[++i]);
		else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc && atoi(argv[i + 1]) > 0)
			plan.frames = atoi(argv[++i]);
		else if (strcmp(argv[i], "--warmup") == 0 && i + 1 < argc && atoi(argv[i + 1]) >= 0)
			plan.warmup = atoi(argv[++i]);
		else {
			fprintf(
			    stderr,
			    "usage: bench [--quick] [--scene NAME] [--rounds N] [--frames N] "
			    "[--warmup N] [--three-rects PATH]\n"
			    "       bench --run libsg|baseline SCENE all|sparse|- WARMUP FRAMES\n");
			return 2;
		}
	}
	/* exec, not a bare fork: each contestant starts with a fresh heap and
	 * counts only its own pages in its peak RSS */
	static char self[4096];
	ssize_t length = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (length > 0) {
		self[length] = '\0';
		plan.self = self;
	}
#define WANT(name) (!only || strcmp(only, name) == 0)
	if (WANT("three-rects"))
		three_rects_latency(three_rects, BENCH_RAW_THREE_RECTS, quick ? 5 : 20);
	static const size_t trees[] = {4096, 32768, 262144, 1048576};
	for (size_t i = 0; i < 4; i++) {
		size_t n = trees[i];
		if (quick && n > 32768)
			break;
		char name[32];
		snprintf(name, sizeof(name), "tree-%zu", n);
		if (!WANT(name))
			continue;
		compare(&plan, name, VARIANT_ALL);
		compare(&plan, name, VARIANT_SPARSE);
	}
	static const size_t flats[] = {1000, 10000, 100000};
	for (size_t i = 0; i < 3; i++) {
		char name[32];
		snprintf(name, sizeof(name), "flat-%zu", flats[i]);
		if (WANT(name) && !(quick && flats[i] > 10000))
			compare(&plan, name, VARIANT_STATIC);
	}
	return 0;
}
