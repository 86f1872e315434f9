/* bench3d: libsg's 3D views against a hand-written GLES program drawing the
 * same (baseline3d.c), each contestant in a process of its own, interleaved
 * in rounds, as bench does for the 2D scenes (bench/README.md).
 *
 * bench3d [--scene NAME] [--rounds N] [--frames N] [--warmup N]
 * bench3d --run libsg|baseline SCENE static|full|spin WARMUP FRAMES   (one contestant)
 *
 * Scenes: cubes-10000 (100 rows of 100 lit cubes, each row a transform under
 * a top one, each cube a model), mesh-1m (one lit sphere of a million
 * triangles). spin turns the top transform a degree a frame.
 *
 * bench3d --import [FILE]: the time sg_scene_import takes, a fresh scene
 * each time: of FILE, or of a glTF sphere of 100,000 triangles written to
 * a temporary folder first (libsg alone: there is no baseline to import). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <sg/sg.h>

#include "baseline3d.h"
#include "scenes3d.h"
#include "timing.h"

static void print_peak_rss(void)
{
	struct rusage usage;
	getrusage(RUSAGE_SELF, &usage);
	double mib = (double)usage.ru_maxrss / 1024.0;
	samples_print("peak_rss_mib", &mib, 1);
}

static sg_node cube_rows(struct sg_scene *scene, sg_node parent, sg_mesh mesh, sg_material material)
{
	for (int r = 0; r < CUBE_ROWS; r++) {
		float local[16];
		scene3d_row_matrix(r, local);
		sg_node row = sg_node_new_transform(scene, &(struct sg_transform_desc){.matrix = local});
		sg_node_add_child(scene, parent, row);
		for (int c = 0; c < CUBE_COLUMNS; c++) {
			struct sg_model_desc desc = {.mesh = mesh};
			scene3d_cube_position(c, desc.position);
			sg_node model = sg_node_new_model(scene, &desc);
			sg_model_set_material(scene, model, material);
			sg_node_add_child(scene, row, model);
		}
	}
	return parent;
}

static int run_libsg(const char *name, int spin, int warmup, int frames)
{
	int cubes = strcmp(name, "cubes-10000") == 0;
	struct sg_scene *scene = sg_scene_create();
	struct mesh3d m;
	if (cubes)
		scene3d_cube(&m);
	else
		scene3d_sphere(&m, 500, 1000);
	sg_mesh mesh = sg_mesh_create_3d(
	    scene, &(struct sg_mesh3d_desc){.vertex_count = m.vertex_count,
	                                    .positions = m.positions,
	                                    .normals = m.normals,
	                                    .indices = m.indices,
	                                    .index_type = SG_INDEX_U32,
	                                    .index_count = m.index_count});
	scene3d_mesh_free(&m); /* the scene has its copy, as a loader would drop its own */
	struct sg_material_desc md;
	sg_material_desc_init(&md);
	float base[4] = SCENE3D_BASE;
	memcpy(md.base_color, base, sizeof(base));
	md.metallic = SCENE3D_METALLIC;
	md.roughness = SCENE3D_ROUGHNESS;
	sg_material material = sg_material_create(scene, &md);
	struct sg_camera camera;
	float eye[3];
	scene3d_camera(camera.projection, camera.view, eye);
	struct sg_view3d_desc vd = {.name = "view", .camera = &camera, .ambient = SCENE3D_AMBIENT};
	sg_node view = sg_node_new_view3d(scene, &vd);
	sg_node_add_child(scene, sg_scene_root(scene), view);
	/* the light's node turned so that its -Z is the light's direction */
	float direction[3] = SCENE3D_LIGHT_DIRECTION, radiance[3] = SCENE3D_LIGHT_RADIANCE;
	float look[16];
	{
		struct sg_camera aim;
		float origin[3] = {0, 0, 0}, up[3] = {0, 1, 0};
		sg_camera_look_at(&aim, origin, direction, up); /* view: world to light space */
		/* its inverse (a rotation: the transpose) places the light */
		for (int c = 0; c < 4; c++)
			for (int r = 0; r < 4; r++)
				look[c * 4 + r] = aim.view[r * 4 + c];
	}
	sg_node light_place = sg_node_new_transform(scene, &(struct sg_transform_desc){.matrix = look});
	struct sg_light_desc ld = {.type = SG_LIGHT_DIRECTIONAL, .color = {1, 1, 1},
	                           .intensity = radiance[0]};
	sg_node light = sg_node_new_light(scene, &ld);
	sg_node_add_child(scene, view, light_place);
	sg_node_add_child(scene, light_place, light);
	float top_matrix[16];
	scene3d_top_matrix(0, spin, top_matrix);
	sg_node top = sg_node_new_transform(scene, &(struct sg_transform_desc){.matrix = top_matrix});
	sg_node_add_child(scene, view, top);
	if (cubes) {
		cube_rows(scene, top, mesh, material);
	} else {
		sg_node model = sg_node_new_model(scene, &(struct sg_model_desc){.mesh = mesh});
		sg_model_set_material(scene, model, material);
		sg_node_add_child(scene, top, model);
	}
	struct sg_renderer *renderer = sg_renderer_create(
	    &(struct sg_renderer_desc){.width = SCENE3D_SIZE, .height = SCENE3D_SIZE});
	if (!renderer) {
		fprintf(stderr, "bench3d: %s\n", sg_last_error());
		return 1;
	}
	sg_renderer_set_clear_color(renderer, 0.1f, 0.1f, 0.12f, 1.0f);
	if (spin < 0) /* "full": every frame repainted, as the baseline's */
		sg_renderer_set_damage_tracking(renderer, false);
	spin = spin > 0;
	double *samples = malloc((size_t)frames * sizeof(double));
	double *walks = malloc((size_t)frames * sizeof(double));
	for (int f = 0; f < warmup + frames; f++) {
		double start = now_ms();
		if (spin) {
			scene3d_top_matrix(f, spin, top_matrix);
			sg_transform_set_matrix(scene, top, top_matrix);
		}
		if (sg_renderer_render(renderer, scene, NULL)) {
			fprintf(stderr, "bench3d: %s\n", sg_last_error());
			return 1;
		}
		struct sg_render_stats stats;
		sg_renderer_get_stats(renderer, &stats);
		if (f >= warmup) {
			samples[f - warmup] = now_ms() - start;
			walks[f - warmup] = (double)stats.traverse_ns / 1e6;
		}
	}
	if (getenv("BENCH3D_PNG"))
		sg_renderer_write_png(renderer, getenv("BENCH3D_PNG"));
	samples_print("frame_ms", samples, frames);
	/* the CPU's part before any GL: world update, the views' walk, sort and
	 * culling, damage */
	samples_print("traverse_ms", walks, frames);
	free(samples);
	free(walks);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
	return 0;
}

/* A glTF 2.0 file of a sphere of 100,000 triangles (positions, normals,
 * 32-bit indices in one .bin beside it) in folder; its path in path. */
static bool write_sphere_gltf(const char *folder, char *path, size_t size)
{
	struct mesh3d m;
	scene3d_sphere(&m, 100, 500);
	size_t vbytes = m.vertex_count * 3 * sizeof(float), ibytes = m.index_count * sizeof(uint32_t);
	char bin[512];
	snprintf(bin, sizeof(bin), "%s/sphere.bin", folder);
	snprintf(path, size, "%s/sphere.gltf", folder);
	FILE *b = fopen(bin, "wb"), *g = fopen(path, "w");
	bool ok = b && g;
	if (ok) {
		fwrite(m.positions, 1, vbytes, b);
		fwrite(m.normals, 1, vbytes, b);
		fwrite(m.indices, 1, ibytes, b);
		fprintf(g,
		        "{\"asset\": {\"version\": \"2.0\"}, \"scene\": 0, "
		        "\"scenes\": [{\"nodes\": [0]}], \"nodes\": [{\"mesh\": 0}], "
		        "\"meshes\": [{\"primitives\": [{\"attributes\": {\"POSITION\": 0, "
		        "\"NORMAL\": 1}, \"indices\": 2}]}], "
		        "\"buffers\": [{\"uri\": \"sphere.bin\", \"byteLength\": %zu}], "
		        "\"bufferViews\": [{\"buffer\": 0, \"byteOffset\": 0, \"byteLength\": %zu}, "
		        "{\"buffer\": 0, \"byteOffset\": %zu, \"byteLength\": %zu}, "
		        "{\"buffer\": 0, \"byteOffset\": %zu, \"byteLength\": %zu}], "
		        "\"accessors\": [{\"bufferView\": 0, \"componentType\": 5126, \"count\": %zu, "
		        "\"type\": \"VEC3\", \"min\": [-40, -40, -40], \"max\": [40, 40, 40]}, "
		        "{\"bufferView\": 1, \"componentType\": 5126, \"count\": %zu, \"type\": \"VEC3\"}, "
		        "{\"bufferView\": 2, \"componentType\": 5125, \"count\": %zu, "
		        "\"type\": \"SCALAR\"}]}\n",
		        2 * vbytes + ibytes, vbytes, vbytes, vbytes, 2 * vbytes, ibytes, m.vertex_count,
		        m.vertex_count, m.index_count);
	}
	if (b)
		fclose(b);
	if (g)
		fclose(g);
	scene3d_mesh_free(&m);
	return ok;
}

static int time_imports(const char *given, int runs)
{
	char folder[] = "/tmp/bench3d-XXXXXX", path[600];
	bool made = !given;
	if (made && (!mkdtemp(folder) || !write_sphere_gltf(folder, path, sizeof(path)))) {
		fprintf(stderr, "bench3d: cannot write the test model in /tmp\n");
		return 1;
	}
	const char *file = given ? given : path;
	double *samples = malloc((size_t)runs * sizeof(double));
	struct sg_import_info info = {0};
	int rc = 0;
	for (int i = 0; i <= runs && !rc; i++) { /* the first warms the file cache */
		struct sg_scene *scene = sg_scene_create();
		double start = now_ms();
		if (sg_scene_import(scene, &(struct sg_import_desc){.path = file}, &info)) {
			fprintf(stderr, "bench3d: %s\n", sg_last_error());
			rc = 1;
		}
		double took = now_ms() - start;
		if (i > 0)
			samples[i - 1] = took;
		sg_scene_destroy(scene);
	}
	if (!rc)
		printf("import file=%s triangles=%zu vertices=%zu import_ms=%.2f (median of %d)\n",
		       given ? given : "sphere-100k.gltf", info.triangles, info.vertices,
		       median(samples, runs), runs);
	free(samples);
	if (made) {
		char bin[640];
		snprintf(bin, sizeof(bin), "%s/sphere.bin", folder);
		remove(bin);
		remove(path);
		rmdir(folder);
	}
	return rc;
}

static const char *const scenes[] = {"cubes-10000", "mesh-1m"};
/* static: nothing changes (libsg's damage tracking repaints nothing);
 * full: the same with damage tracking off, every frame drawn whole as the
 * baseline draws it; spin: the top transform turns every frame. */
static const char *const variants[] = {"static", "full", "spin"};

static void compare(const char *scene, const char *variant, int rounds, int warmup, int frames)
{
	struct samples results[2]; /* libsg, baseline */
	memset(results, 0, sizeof(results));
	static const char *const who[2] = {"libsg", "baseline"};
	char w[16], f[16];
	snprintf(w, sizeof(w), "%d", warmup);
	snprintf(f, sizeof(f), "%d", frames);
	double process[2][64];
	int processes[2] = {0, 0};
	for (int round = 0; round < rounds; round++)
		for (int k = 0; k < 2; k++) {
			int c = (k + round) % 2; /* libsg first in even rounds */
			struct samples one = {0};
			char *argv[] = {"bench3d", "--run", (char *)who[c], (char *)scene,
			                (char *)variant, w, f, NULL};
			if (!run_self(argv, &one)) {
				fprintf(stderr, "bench3d: %s on %s %s failed\n", who[c], scene, variant);
				samples_free(&one);
				continue;
			}
			struct sample_series *s = samples_get(&one, "frame_ms");
			if (s && processes[c] < 64)
				process[c][processes[c]++] = median(s->values, s->count);
			for (int i = 0; i < one.count; i++) {
				char line[4096];
				int at = snprintf(line, sizeof(line), "%s", one.series[i].key);
				for (int j = 0; j < one.series[i].count && at < (int)sizeof(line) - 32; j++)
					at += snprintf(line + at, sizeof(line) - (size_t)at, " %.6f",
					               one.series[i].values[j]);
				samples_add_line(&results[c], line);
			}
			samples_free(&one);
		}
	double frame[2], rss[2];
	for (int c = 0; c < 2; c++) {
		struct sample_series *s = samples_get(&results[c], "frame_ms");
		struct sample_series *r = samples_get(&results[c], "peak_rss_mib");
		frame[c] = s ? median(s->values, s->count) : -1.0;
		rss[c] = r ? median(r->values, r->count) : -1.0;
	}
	struct spread a = spread_of(process[0], processes[0]), b = spread_of(process[1], processes[1]);
	printf("scene=%s variant=%s frame_ms=%.2f baseline_frame_ms=%.2f ratio=%.3f "
	       "peak_rss_mib=%.1f baseline_peak_rss_mib=%.1f processes=%d "
	       "process_frame_ms=%.2f/%.2f/%.2f baseline_process_frame_ms=%.2f/%.2f/%.2f\n",
	       scene, variant, frame[0], frame[1], frame[0] / frame[1], rss[0], rss[1], processes[0],
	       a.min, a.median, a.max, b.min, b.median, b.max);
	fflush(stdout);
	samples_free(&results[0]);
	samples_free(&results[1]);
}

int main(int argc, char **argv)
{
	if (argc == 7 && strcmp(argv[1], "--run") == 0) {
		int spin = strcmp(argv[4], "spin") == 0 ? 1 : strcmp(argv[4], "full") == 0 ? -1 : 0;
		int warmup = atoi(argv[5]), frames = atoi(argv[6]);
		if (frames < 1 || warmup < 0 || (strcmp(argv[3], scenes[0]) && strcmp(argv[3], scenes[1])))
			return fprintf(stderr, "bench3d --run: unknown scene or counts\n"), 2;
		int rc = strcmp(argv[2], "baseline") == 0 ? run_baseline3d(argv[3], spin, warmup, frames)
		         : strcmp(argv[2], "libsg") == 0  ? run_libsg(argv[3], spin, warmup, frames)
		                                          : 2;
		if (rc == 0)
			print_peak_rss();
		return rc;
	}
	if (argc >= 2 && strcmp(argv[1], "--import") == 0)
		return time_imports(argc >= 3 ? argv[2] : NULL, 9);
	const char *only = NULL;
	int rounds = 2, frames = 9, warmup = 3;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--scene") == 0 && i + 1 < argc)
			only = argv[++i];
		else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc && atoi(argv[i + 1]) > 0)
			rounds = atoi(argv[++i]);
		else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc && atoi(argv[i + 1]) > 0)
			frames = atoi(argv[++i]);
		else if (strcmp(argv[i], "--warmup") == 0 && i + 1 < argc && atoi(argv[i + 1]) >= 0)
			warmup = atoi(argv[++i]);
		else {
			fprintf(stderr, "usage: bench3d [--scene cubes-10000|mesh-1m] [--rounds N] "
			                "[--frames N] [--warmup N]\n");
			return 2;
		}
	}
	for (size_t s = 0; s < sizeof(scenes) / sizeof(scenes[0]); s++)
		for (size_t v = 0; v < sizeof(variants) / sizeof(variants[0]); v++)
			if (!only || strcmp(only, scenes[s]) == 0)
				compare(scenes[s], variants[v], rounds, warmup, frames);
	return 0;
}
