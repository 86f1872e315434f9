/* The model-file layer (src/modelfile/): every glTF 2.0 sample of
 * tests/models/gltf imported, its counts checked against the file's own
 * accessors (read here with json-c, not through assimp); cameras, bounds,
 * texture coordinates and materials; every refusal (missing, truncated and
 * foreign files, a 2^31-vertex accessor, paths out of the folder, each
 * budget) leaving the scene as it was; and every allocation failing in turn.
 * Built without import, the same suite checks that the stub refuses. */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sg/sg.h>
#include <sg/scene3d.h>

#include "check_run.h"
#include "expect.h"

#ifndef SG_IMPORT_STUB_TEST
#include <json-c/json.h>

#include "../src/base/alloc.h"
#include "../src/graph/scene_internal.h"
#include "../src/graph/scene_view.h"
#endif

#define ck_assert_error(call, code, text)                                                          \
	do {                                                                                       \
		sg_result result_ = (call);                                                        \
		ck_assert_msg(result_ == (code), "%s: %s, expected %s (%s)", #call,                \
		              sg_result_name(result_), sg_result_name(code), sg_last_error());     \
		ck_assert_msg(strstr(sg_last_error(), (text)), "%s: message '%s' lacks '%s'",      \
		              #call, sg_last_error(), (text));                                     \
	} while (0)

static struct sg_scene *scene;

static void setup(void)
{
	scene = sg_scene_create();
	ck_assert_ptr_nonnull(scene);
}

static void teardown(void)
{
	sg_scene_destroy(scene);
	scene = NULL;
}

#ifdef SG_IMPORT_STUB_TEST

START_TEST(test_stub_refuses)
{
	ck_assert(!sg_model_import_available());
	size_t before = sg_scene_node_count(scene);
	struct sg_import_info info;
	ck_assert_error(sg_scene_import(scene, &(struct sg_import_desc){.path = "Box.gltf"}, &info),
	                SG_ERR_UNSUPPORTED,
	                "libsg was built without model import (meson option import)");
	ck_assert(strstr(sg_last_error(), "Box.gltf"));
	ck_assert_uint_eq(sg_scene_node_count(scene), before);
	/* the camera helper is plain math, there in both */
	struct sg_import_camera camera = {
	    .yfov = 1,
	    .aspect = 1,
	    .znear = 1,
	    .zfar = 10,
	    .world = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 5, 1}};
	struct sg_camera out;
	sg_import_camera_to_sg_camera(&camera, 0, &out);
	ck_assert_float_eq_tol(out.view[14], -5, 1e-6);
}
END_TEST

static Suite *model_file_suite(void)
{
	Suite *suite = suite_create("model_file");
	TCase *tc = tcase_create("stub");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_stub_refuses);
	suite_add_tcase(suite, tc);
	return suite;
}

#else

/* --- the samples' counts, read from their JSON ------------------------------ */

static const char *const samples[] = {
    "AlphaBlendModeTest",
    "Box",
    "BoxAnimated",
    "BoxInterleaved",
    "BoxTextured",
    "BoxVertexColors",
    "Cameras",
    "MultiUVTest",
    "OrientationTest",
    "SimpleMeshes",
    "TextureCoordinateTest",
    "TextureSettingsTest",
    "Triangle",
    "TriangleWithoutIndices",
};
#define SAMPLE_COUNT (sizeof(samples) / sizeof(samples[0]))

static const char *models_dir(void)
{
	const char *dir = getenv("SG_MODELS_DIR");
	return dir && *dir ? dir : SG_MODELS_DIR;
}

static char *sample_path(const char *name)
{
	static char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s.gltf", models_dir(), name);
	return path;
}

/* What a glTF holds, by its accessors: nodes reachable from the default
 * scene, the primitives they draw, the POSITION counts. */
struct gltf_counts {
	size_t nodes, roots, models, meshes, vertices, triangles, materials, cameras;
	bool default_material; /* a drawn primitive has none: assimp adds one */
};

static json_object *member(json_object *object, const char *key)
{
	json_object *value = NULL;
	return json_object_object_get_ex(object, key, &value) ? value : NULL;
}

static json_object *item(json_object *object, const char *key, size_t index)
{
	json_object *array = member(object, key);
	ck_assert_msg(array && index < json_object_array_length(array), "no %s[%zu]", key, index);
	return json_object_array_get_idx(array, index);
}

static size_t accessor_count(json_object *gltf, int64_t index)
{
	return (size_t)json_object_get_int64(
	    member(item(gltf, "accessors", (size_t)index), "count"));
}

static void count_node(json_object *gltf, int64_t index, struct gltf_counts *c, bool *mesh_seen,
                       bool *material_seen)
{
	json_object *node = item(gltf, "nodes", (size_t)index);
	c->nodes++;
	if (member(node, "camera"))
		c->cameras++;
	json_object *mesh_index = member(node, "mesh");
	if (mesh_index) {
		int64_t m = json_object_get_int64(mesh_index);
		json_object *primitives = member(item(gltf, "meshes", (size_t)m), "primitives");
		size_t count = json_object_array_length(primitives);
		c->models += count;
		for (size_t p = 0; p < count && !mesh_seen[m]; p++) {
			json_object *primitive = json_object_array_get_idx(primitives, p);
			size_t vertices =
			    accessor_count(gltf, json_object_get_int64(member(
			                             member(primitive, "attributes"), "POSITION")));
			json_object *indices = member(primitive, "indices");
			c->meshes++;
			c->vertices += vertices;
			c->triangles +=
			    (indices ? accessor_count(gltf, json_object_get_int64(indices))
			             : vertices) /
			    3;
			json_object *material = member(primitive, "material");
			if (!material)
				c->default_material = true;
			else if (!material_seen[json_object_get_int64(material)]) {
				material_seen[json_object_get_int64(material)] = true;
				c->materials++;
			}
		}
		mesh_seen[m] = true;
	}
	json_object *children = member(node, "children");
	for (size_t i = 0; children && i < json_object_array_length(children); i++)
		count_node(gltf, json_object_get_int64(json_object_array_get_idx(children, i)), c,
		           mesh_seen, material_seen);
}

static json_object *read_gltf(const char *name)
{
	json_object *gltf = json_object_from_file(sample_path(name));
	ck_assert_msg(gltf, "cannot read %s as JSON (SG_MODELS_DIR=%s)", sample_path(name),
	              models_dir());
	return gltf;
}

static struct gltf_counts gltf_counts(json_object *gltf)
{
	struct gltf_counts c = {0};
	json_object *scene_index = member(gltf, "scene");
	json_object *root_scene =
	    item(gltf, "scenes", scene_index ? (size_t)json_object_get_int64(scene_index) : 0);
	json_object *roots = member(root_scene, "nodes");
	bool mesh_seen[256] = {false}, material_seen[256] = {false};
	ck_assert_int_lt(json_object_array_length(member(gltf, "meshes")), 256);
	c.roots = json_object_array_length(roots);
	for (size_t i = 0; i < c.roots; i++)
		count_node(gltf, json_object_get_int64(json_object_array_get_idx(roots, i)), &c,
		           mesh_seen, material_seen);
	return c;
}

/* The subtree's nodes by kind, walked through the public API. */
static void count_subtree(sg_node node, size_t counts[8])
{
	counts[sg_node_get_kind(scene, node)]++;
	for (sg_node child = sg_node_first_child(scene, node); child.generation;
	     child = sg_node_next_sibling(scene, child))
		count_subtree(child, counts);
}

START_TEST(test_samples_match_their_accessors)
{
	const char *name = samples[_i];
	json_object *gltf = read_gltf(name);
	struct gltf_counts want = gltf_counts(gltf);
	json_object_put(gltf);

	struct sg_import_info info;
	sg_result result =
	    sg_scene_import(scene, &(struct sg_import_desc){.path = sample_path(name)}, &info);
	ck_assert_msg(result == SG_OK, "%s: %s", name, sg_last_error());
	/* assimp puts a node of its own above several root nodes */
	size_t transforms = want.nodes + (want.roots > 1);
	ck_assert_msg(info.transforms == transforms, "%s: %zu transforms, the file %zu", name,
	              info.transforms, transforms);
	ck_assert_msg(info.models == want.models, "%s: %zu models, the file %zu", name, info.models,
	              want.models);
	ck_assert_msg(info.meshes == want.meshes, "%s: %zu meshes, the file %zu primitives", name,
	              info.meshes, want.meshes);
	ck_assert_msg(info.vertices == want.vertices, "%s: %zu vertices, the file %zu", name,
	              info.vertices, want.vertices);
	ck_assert_msg(info.triangles == want.triangles, "%s: %zu triangles, the file %zu", name,
	              info.triangles, want.triangles);
	size_t materials = want.materials + want.default_material;
	ck_assert_msg(info.materials == materials, "%s: %zu materials, the file %zu", name,
	              info.materials, materials);
	ck_assert_msg(info.camera_count == want.cameras, "%s: %zu cameras, the file %zu", name,
	              info.camera_count, want.cameras);
	ck_assert_uint_eq(info.lights, 0);
	ck_assert_uint_eq(info.skipped_meshes, 0);
	ck_assert_uint_eq(info.nodes, info.transforms + info.models + info.lights);

	/* the scene holds what info says, under the root */
	ck_assert_uint_eq(sg_scene_node_count(scene), 1 + info.nodes);
	ck_assert(sg_node_get_parent(scene, info.root).index == sg_scene_root(scene).index);
	size_t kinds[8] = {0};
	count_subtree(info.root, kinds);
	ck_assert_uint_eq(kinds[SG_NODE_TRANSFORM], info.transforms);
	ck_assert_uint_eq(kinds[SG_NODE_MODEL], info.models);
}
END_TEST

/* --- what the models hold ----------------------------------------------------- */

static sg_node find(const char *name)
{
	sg_node node = sg_node_find(scene, sg_scene_root(scene), name);
	ck_assert_msg(node.generation, "no node '%s'", name);
	return node;
}

static sg_node model_under(const char *name)
{
	sg_node model = sg_node_first_child(scene, find(name));
	ck_assert_int_eq(sg_node_get_kind(scene, model), SG_NODE_MODEL);
	return model;
}

static const struct sg_mesh_data *mesh_of(sg_node model)
{
	uint32_t index = scene->models[scene->payload[model.index]].mesh.index;
	return sg_scene_mesh_slot(scene, index);
}

static const struct sg_material_desc *material_of(sg_node model)
{
	sg_material material = sg_model_get_material(scene, model);
	ck_assert(sg_material_exists(scene, material));
	return sg_scene_material_slot(scene, material.index);
}

static void import_sample(const char *name, struct sg_import_info *info)
{
	sg_result result =
	    sg_scene_import(scene, &(struct sg_import_desc){.path = sample_path(name)}, info);
	ck_assert_msg(result == SG_OK, "%s: %s", name, sg_last_error());
}

START_TEST(test_uv_origin_is_top_left)
{
	/* TextureCoordinateTest's TopRightMesh: TEXCOORD_0[0] is (1, 0.4) in the
	 * file, where (0, 0) is the image's top-left, as in libsg. */
	struct sg_import_info info;
	import_sample("TextureCoordinateTest", &info);
	const struct sg_mesh_data *mesh = mesh_of(model_under("TopRightObj"));
	ck_assert_float_eq_tol(mesh->vertices[0].uv[0], 1.0f, 1e-6);
	ck_assert_float_eq_tol(mesh->vertices[0].uv[1], 0.4f, 1e-6);
	const struct sg_material_desc *material = material_of(model_under("TopRightObj"));
	ck_assert(material->double_sided);
	ck_assert(sg_texture_exists(scene, material->base_color_texture.texture));
	/* one image, one sampler: one texture for the four materials */
	ck_assert_uint_eq(info.textures, 1);
}
END_TEST

START_TEST(test_materials)
{
	struct sg_import_info info;
	import_sample("AlphaBlendModeTest", &info);
	ck_assert_int_eq(material_of(model_under("TestBlend"))->alpha_mode, SG_ALPHA_BLEND);
	ck_assert_int_eq(material_of(model_under("TestOpaque"))->alpha_mode, SG_ALPHA_OPAQUE);
	const struct sg_material_desc *mask = material_of(model_under("TestCutoff25"));
	ck_assert_int_eq(mask->alpha_mode, SG_ALPHA_MASK);
	ck_assert_float_eq_tol(mask->alpha_cutoff, 0.25f, 1e-6);
	ck_assert_float_eq_tol(material_of(model_under("TestCutoffDefault"))->alpha_cutoff, 0.5f,
	                       1e-6);
	/* the bed: base colour, metallic-roughness, normal and occlusion, from
	 * 2048 x 2048 JPEGs */
	const struct sg_material_desc *bed = material_of(model_under("Bed"));
	ck_assert(sg_texture_exists(scene, bed->base_color_texture.texture));
	ck_assert(sg_texture_exists(scene, bed->metallic_roughness_texture.texture));
	ck_assert(sg_texture_exists(scene, bed->normal_texture.texture));
	ck_assert(sg_texture_exists(scene, bed->occlusion_texture.texture));
	const struct sg_texture_data *jpeg =
	    sg_scene_texture_slot(scene, bed->base_color_texture.texture.index);
	ck_assert_int_eq(jpeg->width, 2048);
	ck_assert_int_eq(jpeg->height, 2048);
	ck_assert_uint_eq(jpeg->pixels[3], 255);
	ck_assert_float_eq_tol(bed->roughness, 1, 1e-6);
	/* the tangents came along: the bed's mesh is 3D */
	ck_assert_ptr_nonnull(mesh_of(model_under("Bed"))->solid);
}
END_TEST

START_TEST(test_material_factors_and_uv1)
{
	struct sg_import_info info;
	import_sample("Box", &info);
	const struct sg_material_desc *red =
	    material_of(sg_node_first_child(scene, sg_node_first_child(scene, info.root)));
	ck_assert_float_eq_tol(red->base_color[0], 0.8f, 1e-6);
	ck_assert_float_eq_tol(red->base_color[1], 0, 1e-6);
	ck_assert_float_eq_tol(red->metallic, 0, 1e-6);
	ck_assert(!red->double_sided);

	import_sample("MultiUVTest", &info);
	const struct sg_material_desc *multi = material_of(model_under("Cube"));
	ck_assert_uint_eq(multi->base_color_texture.uv_set, 0);
	ck_assert(sg_texture_exists(scene, multi->emissive_texture.texture));
	ck_assert_uint_eq(multi->emissive_texture.uv_set, 1);
	ck_assert_float_eq_tol(multi->emissive[0], 1, 1e-6);
}
END_TEST

START_TEST(test_samplers)
{
	/* BoxTextured: LINEAR, REPEAT on both axes */
	struct sg_import_info info;
	import_sample("BoxTextured", &info);
	const struct sg_material_desc *material =
	    material_of(sg_node_first_child(scene, sg_node_first_child(scene, info.root)));
	const struct sg_texture_data *texture =
	    sg_scene_texture_slot(scene, material->base_color_texture.texture.index);
	ck_assert_int_eq(texture->filter, SG_FILTER_LINEAR);
	ck_assert_int_eq(texture->wrap, SG_WRAP_REPEAT);
	ck_assert_int_eq(texture->width, 256);
	/* TextureSettingsTest: one texture per image (glTF's default sampler
	 * as its own), each material slot with its sampler's wraps; magFilter
	 * LINEAR, minFilter NEAREST_MIPMAP_LINEAR: nearest (no mipmaps) */
	import_sample("TextureSettingsTest", &info);
	ck_assert_uint_eq(info.textures, 3);
	for (uint32_t i = scene->texture_pool.first; i < scene->texture_pool.used; i++)
		ck_assert_int_eq(sg_scene_texture_slot(scene, i)->wrap, SG_WRAP_REPEAT);
	static const struct {
		const char *material;
		enum sg_sampler_wrap s, t;
	} wraps[] = {{"TextureClampMaterialS", SG_SAMPLER_CLAMP_TO_EDGE, SG_SAMPLER_REPEAT},
	             {"TextureClampMaterialT", SG_SAMPLER_REPEAT, SG_SAMPLER_CLAMP_TO_EDGE},
	             {"TextureMirrorMaterialS", SG_SAMPLER_MIRRORED_REPEAT, SG_SAMPLER_REPEAT},
	             {"TextureMirrorMaterialT", SG_SAMPLER_REPEAT, SG_SAMPLER_MIRRORED_REPEAT},
	             {"TextureRepeatMaterialS", SG_SAMPLER_REPEAT, SG_SAMPLER_CLAMP_TO_EDGE}};
	for (size_t w = 0; w < sizeof(wraps) / sizeof(wraps[0]); w++) {
		const struct sg_sampler *sampler = NULL;
		for (uint32_t i = 0; i < scene->material_pool.used; i++) {
			const struct sg_material_desc *d = &scene->materials[i].desc;
			if (sg_pool_holds(&scene->material_pool, i,
			                  scene->material_pool.generation[i]) &&
			    d->name && !strcmp(d->name, wraps[w].material))
				sampler = &d->base_color_texture.sampler;
		}
		ck_assert_msg(sampler != NULL, "no material %s", wraps[w].material);
		ck_assert_int_eq(sampler->wrap_s, wraps[w].s);
		ck_assert_int_eq(sampler->wrap_t, wraps[w].t);
		ck_assert_int_eq(sampler->mag_filter, SG_SAMPLER_LINEAR);
		ck_assert_int_eq(sampler->min_filter, SG_SAMPLER_NEAREST);
	}
}
END_TEST

START_TEST(test_vertex_colors)
{
	struct sg_import_info info;
	import_sample("BoxVertexColors", &info);
	ck_assert_uint_eq(info.models, 1);
	ck_assert_uint_eq(info.vertices, 24);
}
END_TEST

START_TEST(test_bounds)
{
	/* SimpleMeshes: the triangle (0,0,0)-(1,1,0) twice, the second moved by
	 * (1, 0, 0) */
	struct sg_import_info info;
	import_sample("SimpleMeshes", &info);
	const float simple[6] = {0, 0, 0, 2, 1, 0};
	for (int i = 0; i < 6; i++)
		ck_assert_float_eq_tol(info.bounds[i], simple[i], 1e-6);
	/* Box: the unit cube about the origin, turned by a right angle */
	import_sample("Box", &info);
	for (int i = 0; i < 6; i++)
		ck_assert_float_eq_tol(info.bounds[i], i < 3 ? -0.5f : 0.5f, 1e-6);
}
END_TEST

START_TEST(test_cameras)
{
	struct sg_import_info info;
	import_sample("Cameras", &info);
	ck_assert_uint_eq(info.camera_count, 2);
	const struct sg_import_camera *perspective = NULL, *ortho = NULL;
	for (int i = 0; i < 2; i++)
		*(info.cameras[i].orthographic ? &ortho : &perspective) = &info.cameras[i];
	ck_assert_ptr_nonnull(perspective);
	ck_assert_ptr_nonnull(ortho);
	ck_assert_float_eq_tol(perspective->yfov, 0.7f, 1e-6);
	ck_assert_float_eq_tol(perspective->aspect, 1, 1e-6);
	ck_assert_float_eq_tol(perspective->znear, 0.01f, 1e-7);
	ck_assert_float_eq_tol(perspective->zfar, 100, 1e-4);
	ck_assert_float_eq_tol(ortho->xmag, 1, 1e-6);
	ck_assert_float_eq_tol(ortho->ymag, 1, 1e-6);
	const float at[3] = {0.5f, 0.5f, 3};
	for (int i = 0; i < 3; i++) {
		ck_assert_float_eq_tol(perspective->world[12 + i], at[i], 1e-6);
		ck_assert_float_eq_tol(ortho->world[12 + i], at[i], 1e-6);
	}
	/* the libsg camera's view undoes the camera's frame */
	struct sg_camera camera;
	sg_import_camera_to_sg_camera(perspective, 0, &camera);
	for (int i = 0; i < 3; i++)
		ck_assert_float_eq_tol(camera.view[12 + i], -at[i], 1e-5);

	/* MultiUVTest: yfov 0.50338 at 16:9, on a child of a turned, moved node */
	import_sample("MultiUVTest", &info);
	ck_assert_uint_eq(info.camera_count, 1);
	ck_assert_str_eq(info.cameras[0].name, "Correction_Camera");
	ck_assert_float_eq_tol(info.cameras[0].yfov, 0.5033799f, 1e-5);
	ck_assert_float_eq_tol(info.cameras[0].aspect, 16.0f / 9, 1e-5);
	ck_assert_float_eq_tol(info.cameras[0].world[12], 7.4811316f, 1e-4);
	ck_assert_float_eq_tol(info.cameras[0].world[13], 5.3436651f, 1e-4);
	ck_assert_float_eq_tol(info.cameras[0].world[14], 6.5076399f, 1e-4);
}
END_TEST

START_TEST(test_under_a_parent)
{
	sg_node parent = sg_node_new_transform(scene, &(struct sg_transform_desc){.name = "here"});
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), parent), SG_OK);
	struct sg_import_info info;
	sg_result result = sg_scene_import(
	    scene, &(struct sg_import_desc){.path = sample_path("Triangle"), .parent = parent},
	    &info);
	ck_assert_msg(result == SG_OK, "%s", sg_last_error());
	ck_assert_uint_eq(sg_node_get_parent(scene, info.root).index, parent.index);
	/* Triangle's one node is assimp's root: its name is the file's */
	ck_assert_str_eq(sg_node_get_name(scene, info.root), "nodes[0]");
}
END_TEST

/* --- refusals -------------------------------------------------------------------- */

static char scratch[PATH_MAX];

static void make_scratch(void)
{
	setup();
	snprintf(scratch, sizeof(scratch), "/tmp/sg-model-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(scratch));
}

static void remove_scratch(void)
{
	char command[PATH_MAX + 16];
	snprintf(command, sizeof(command), "rm -rf '%s'", scratch);
	ck_assert_int_eq(system(command), 0);
	teardown();
}

static const char *in_scratch(const char *name)
{
	static char path[PATH_MAX + 64];
	snprintf(path, sizeof(path), "%.*s/%s", PATH_MAX - 64, scratch, name);
	return path;
}

static const char *write_file(const char *name, const void *data, size_t size)
{
	const char *path = in_scratch(name);
	char *slash = strrchr(path, '/');
	char folder[PATH_MAX];
	snprintf(folder, sizeof(folder), "%.*s", (int)(slash - path), path);
	mkdir(folder, 0755);
	FILE *file = fopen(path, "wb");
	ck_assert_ptr_nonnull(file);
	ck_assert_uint_eq(fwrite(data, 1, size, file), size);
	fclose(file);
	return path;
}

static const char *write_text(const char *name, const char *text)
{
	return write_file(name, text, strlen(text));
}

static void *read_whole(const char *path, size_t *size)
{
	FILE *file = fopen(path, "rb");
	ck_assert_ptr_nonnull(file);
	fseek(file, 0, SEEK_END);
	*size = (size_t)ftell(file);
	fseek(file, 0, SEEK_SET);
	void *data = malloc(*size);
	ck_assert_uint_eq(fread(data, 1, *size, file), *size);
	fclose(file);
	return data;
}

/* The import fails with code, its message names the file and says text, and
 * the scene keeps its nodes. */
static void expect_refused(const struct sg_import_desc *desc, sg_result code, const char *text)
{
	size_t before = sg_scene_node_count(scene);
	struct sg_import_info info = {.nodes = 12345};
	sg_result result = sg_scene_import(scene, desc, &info);
	ck_assert_msg(result == code, "%s: %s, expected %s (%s)", desc->path,
	              sg_result_name(result), sg_result_name(code), sg_last_error());
	const char *file = strrchr(desc->path, '/');
	file = file ? file + 1 : desc->path;
	ck_assert_msg(strstr(sg_last_error(), file), "message '%s' does not name '%s'",
	              sg_last_error(), file);
	ck_assert_msg(strstr(sg_last_error(), text), "message '%s' lacks '%s'", sg_last_error(),
	              text);
	ck_assert_uint_eq(sg_scene_node_count(scene), before);
	ck_assert_uint_eq(info.nodes, 12345); /* untouched */
}

START_TEST(test_missing_file)
{
	expect_refused(&(struct sg_import_desc){.path = in_scratch("nothing.gltf")}, SG_ERR_IO,
	               "No such file");
}
END_TEST

START_TEST(test_truncated_file)
{
	size_t size;
	void *box = read_whole(sample_path("Box"), &size);
	const char *path = write_file("Box.gltf", box, size / 2);
	free(box);
	expect_refused(&(struct sg_import_desc){.path = path}, SG_ERR_FORMAT, "assimp");
}
END_TEST

START_TEST(test_text_file)
{
	const char *path = write_text("notes.txt", "Nothing to see here.\nJust words.\n");
	expect_refused(&(struct sg_import_desc){.path = path}, SG_ERR_FORMAT, "assimp");
	path = write_text("empty.gltf", "");
	expect_refused(&(struct sg_import_desc){.path = path}, SG_ERR_FORMAT, "empty");
	expect_refused(&(struct sg_import_desc){.path = scratch}, SG_ERR_IO, "not a regular file");
}
END_TEST

/* A glTF whose one triangle's accessor says it holds 2^31 vertices. */
static const char huge_accessor[] =
    "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
    "\"nodes\":[{\"mesh\":0}],\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}],"
    "\"buffers\":[{\"byteLength\":36,\"uri\":\"data:application/octet-stream;base64,"
    "AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA\"}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":36}],"
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":2147483648,"
    "\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[1,1,0]}]}";

START_TEST(test_huge_accessor)
{
	const char *path = write_text("huge.gltf", huge_accessor);
	expect_refused(&(struct sg_import_desc){.path = path}, SG_ERR_FORMAT, "ccessor");
	/* the same with a buffer that claims the 24 GiB too */
	char claims[sizeof(huge_accessor) + 64];
	snprintf(claims, sizeof(claims), "%s", huge_accessor);
	char *length = strstr(claims, "\"byteLength\":36,\"uri\"");
	ck_assert_ptr_nonnull(length);
	memmove(length + strlen("\"byteLength\":25769803776"), length + strlen("\"byteLength\":36"),
	        strlen(length + strlen("\"byteLength\":36")) + 1);
	memcpy(length, "\"byteLength\":25769803776", strlen("\"byteLength\":25769803776"));
	path = write_text("huge-buffer.gltf", claims);
	expect_refused(&(struct sg_import_desc){.path = path}, SG_ERR_FORMAT, "25769803776");
}
END_TEST

/* A textured triangle whose image is the file uri. */
static const char *textured_triangle(const char *name, const char *uri)
{
	char text[2048];
	snprintf(text, sizeof(text),
	         "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
	         "\"nodes\":[{\"mesh\":0}],"
	         "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"material\":0}]}],"
	         "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0}}}],"
	         "\"textures\":[{\"source\":0}],\"images\":[{\"uri\":\"%s\"}],"
	         "\"buffers\":[{\"byteLength\":36,\"uri\":\"data:application/octet-stream;base64,"
	         "AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA\"}],"
	         "\"bufferViews\":[{\"buffer\":0,\"byteLength\":36}],"
	         "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,"
	         "\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[1,1,0]}]}",
	         uri);
	return write_text(name, text);
}

START_TEST(test_texture_outside_the_folder)
{
	const char *path = textured_triangle("model/escape.gltf", "../../etc/passwd");
	expect_refused(&(struct sg_import_desc){.path = path}, SG_ERR_IO,
	               "outside the model's folder");
	ck_assert(strstr(sg_last_error(), "etc/passwd"));

	/* a real image one folder up: refused, then allowed when asked */
	size_t size;
	void *png = read_whole(SG_SOURCE_DIR "/scenes/textures/tile.png", &size);
	write_file("tile.png", png, size);
	free(png);
	path = textured_triangle("model/up.gltf", "../tile.png");
	expect_refused(&(struct sg_import_desc){.path = path}, SG_ERR_IO, "tile.png");
	struct sg_import_info info;
	sg_result result = sg_scene_import(
	    scene, &(struct sg_import_desc){.path = path, .allow_outside_folder = true}, &info);
	ck_assert_msg(result == SG_OK, "%s", sg_last_error());
	ck_assert_uint_eq(info.textures, 1);
	/* a symlink in the folder to the image outside is outside too */
	ck_assert_int_eq(symlink("../tile.png", in_scratch("model/link.png")), 0);
	path = textured_triangle("model/link.gltf", "link.png");
	expect_refused(&(struct sg_import_desc){.path = path}, SG_ERR_IO, "outside");
	/* the model itself may be a link to anywhere: the caller named it */
	char target[PATH_MAX + 64];
	snprintf(target, sizeof(target), "%s", in_scratch("model/beside-link.gltf"));
	ck_assert_int_eq(symlink(sample_path("Triangle"), target), 0);
	result = sg_scene_import(scene, &(struct sg_import_desc){.path = target}, &info);
	ck_assert_msg(result == SG_OK, "%s", sg_last_error());
	/* inside, beside the model: fine */
	char from[PATH_MAX + 64];
	snprintf(from, sizeof(from), "%s", in_scratch("tile.png"));
	ck_assert_int_eq(rename(from, in_scratch("model/tile.png")), 0);
	path = textured_triangle("model/beside.gltf", "tile.png");
	result = sg_scene_import(scene, &(struct sg_import_desc){.path = path}, &info);
	ck_assert_msg(result == SG_OK, "%s", sg_last_error());
}
END_TEST

START_TEST(test_buffer_outside_the_folder)
{
	/* assimp reads a glTF's buffers itself: through libsg's file access */
	static const float triangle[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
	write_file("outside.bin", triangle, sizeof(triangle));
	char text[1024];
	snprintf(text, sizeof(text),
	         "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
	         "\"nodes\":[{\"mesh\":0}],"
	         "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}],"
	         "\"buffers\":[{\"byteLength\":36,\"uri\":\"%s\"}],"
	         "\"bufferViews\":[{\"buffer\":0,\"byteLength\":36}],"
	         "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,"
	         "\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[1,1,0]}]}",
	         "../outside.bin");
	const char *path = write_text("model/buffer.gltf", text);
	expect_refused(&(struct sg_import_desc){.path = path}, SG_ERR_IO, "outside.bin");
	struct sg_import_info info;
	sg_result result = sg_scene_import(
	    scene, &(struct sg_import_desc){.path = path, .allow_outside_folder = true}, &info);
	ck_assert_msg(result == SG_OK, "%s", sg_last_error());
	ck_assert_uint_eq(info.vertices, 3);
}
END_TEST

START_TEST(test_budgets)
{
	struct {
		const char *sample;
		struct sg_import_budget budget;
		const char *field;
	} cases[] = {
	    {"Box", {.max_vertices = 23}, "max_vertices"},
	    {"Box", {.max_triangles = 11}, "max_triangles"},
	    {"Box", {.max_nodes = 2}, "max_nodes"},
	    {"BoxAnimated", {.max_depth = 2}, "max_depth"},
	    {"BoxTextured", {.max_texture_bytes = 256 * 256 * 4 - 1}, "max_texture_bytes"},
	    {"Box", {.max_file_bytes = 3000}, "max_file_bytes"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		expect_refused(&(struct sg_import_desc){.path = sample_path(cases[i].sample),
		                                        .budget = &cases[i].budget},
		               SG_ERR_LIMIT, cases[i].field);
	/* each at the file's size passes */
	struct sg_import_budget exact[] = {
	    {.max_vertices = 24, .max_triangles = 12, .max_nodes = 3, .max_file_bytes = 3791},
	};
	struct sg_import_info info;
	sg_result result = sg_scene_import(
	    scene, &(struct sg_import_desc){.path = sample_path("Box"), .budget = &exact[0]},
	    &info);
	ck_assert_msg(result == SG_OK, "%s", sg_last_error());
	struct sg_import_budget textures = {.max_texture_bytes = 256 * 256 * 4};
	result = sg_scene_import(
	    scene,
	    &(struct sg_import_desc){.path = sample_path("BoxTextured"), .budget = &textures},
	    &info);
	ck_assert_msg(result == SG_OK, "%s", sg_last_error());
}
END_TEST

START_TEST(test_bad_arguments)
{
	ck_assert_error(sg_scene_import(NULL, &(struct sg_import_desc){.path = "x"}, NULL),
	                SG_ERR_INVALID_ARGUMENT, "scene");
	ck_assert_error(sg_scene_import(scene, NULL, NULL), SG_ERR_INVALID_ARGUMENT, "desc");
	ck_assert_error(sg_scene_import(scene, &(struct sg_import_desc){0}, NULL),
	                SG_ERR_INVALID_ARGUMENT, "path");
	sg_node gone = sg_node_new_group(scene, "gone");
	sg_node_destroy(scene, gone);
	ck_assert_error(
	    sg_scene_import(
	        scene, &(struct sg_import_desc){.path = sample_path("Box"), .parent = gone}, NULL),
	    SG_ERR_STALE_HANDLE, "Box.gltf");
	sg_mesh quad = sg_mesh_create_quad(scene, 1, 1);
	sg_node model = sg_node_new_model(scene, &(struct sg_model_desc){.mesh = quad});
	ck_assert_error(
	    sg_scene_import(
	        scene, &(struct sg_import_desc){.path = sample_path("Box"), .parent = model}, NULL),
	    SG_ERR_INVALID_ARGUMENT, "the parent, a model, cannot have children");
}
END_TEST

/* --- other formats ----------------------------------------------------------------- */

START_TEST(test_obj_with_material_library)
{
	write_text("obj/cube.mtl", "newmtl red\nKd 1 0 0\nd 0.5\nNs 98\n");
	const char *path = write_text("obj/quad.obj", "mtllib cube.mtl\n"
	                                              "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
	                                              "vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\n"
	                                              "usemtl red\nf 1/1 2/2 3/3 4/4\n"
	                                              "l 1 3\n");
	struct sg_import_info info;
	sg_result result = sg_scene_import(scene, &(struct sg_import_desc){.path = path}, &info);
	ck_assert_msg(result == SG_OK, "%s", sg_last_error());
	ck_assert_uint_eq(info.triangles, 2);
	ck_assert_uint_eq(info.skipped_meshes, 1); /* the line */
	ck_assert_uint_eq(info.models, 1);
	size_t kinds[8] = {0};
	count_subtree(info.root, kinds);
	ck_assert_uint_eq(kinds[SG_NODE_MODEL], 1);
	/* OBJ's v = 0 is the image's bottom: (0, 0) becomes (0, 1) */
	bool found = false;
	for (uint32_t i = scene->mesh_pool.first; i < scene->mesh_pool.used; i++) {
		const struct sg_mesh_data *mesh = sg_scene_mesh_slot(scene, i);
		for (uint32_t v = 0; mesh->vertices && v < mesh->vertex_count; v++)
			if (mesh->vertices[v].position[0] == 0 &&
			    mesh->vertices[v].position[1] == 0) {
				ck_assert_float_eq_tol(mesh->vertices[v].uv[1], 1, 1e-6);
				found = true;
			}
	}
	ck_assert(found);

	/* the material library outside the folder: refused */
	write_text("passwd.mtl", "newmtl x\nKd 1 1 1\n");
	path = write_text("obj/evil.obj",
	                  "mtllib ../passwd.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
	expect_refused(&(struct sg_import_desc){.path = path}, SG_ERR_IO, "passwd.mtl");
}
END_TEST

START_TEST(test_stl)
{
	const char *path = write_text("solid.stl", "solid t\n"
	                                           "facet normal 0 0 1\nouter loop\n"
	                                           "vertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\n"
	                                           "endloop\nendfacet\nendsolid t\n");
	struct sg_import_info info;
	sg_result result = sg_scene_import(scene, &(struct sg_import_desc){.path = path}, &info);
	ck_assert_msg(result == SG_OK, "%s", sg_last_error());
	ck_assert_uint_eq(info.triangles, 1);
	ck_assert_uint_eq(info.vertices, 3);
}
END_TEST

/* --- allocation failures ------------------------------------------------------------- */

START_TEST(test_allocation_failures_are_clean)
{
	/* Every allocation of libsg's in an import fails in turn (assimp's own
	 * are its business): each import fails whole or succeeds, and a failed
	 * one leaves the scene as it was (leaks: the asan and valgrind modes). */
	const char *names[] = {"BoxTextured", "MultiUVTest"};
	for (size_t n = 0; n < 2; n++) {
		for (long k = 1; k < 100000; k++) {
			size_t before = sg_scene_node_count(scene);
			struct sg_import_info info;
			sg_alloc_fail_at(k);
			sg_result result = sg_scene_import(
			    scene, &(struct sg_import_desc){.path = sample_path(names[n])}, &info);
			long made = sg_alloc_fail_at(0);
			if (result == SG_OK) {
				ck_assert_msg(made < k,
				              "allocation %ld failed, yet the import succeeded", k);
				break;
			}
			expect(sg_scene_node_count(scene) == before, "k=%ld: %zu nodes, were %zu",
			       k, sg_scene_node_count(scene), before);
			expect(strstr(sg_last_error(), names[n]), "k=%ld: '%s'", k,
			       sg_last_error());
		}
	}
}
END_TEST

/* The open descriptors of this process. */
static int count_fds(void)
{
	int count = 0;
	DIR *dir = opendir("/proc/self/fd");
	ck_assert_ptr_nonnull(dir);
	while (readdir(dir))
		count++;
	closedir(dir);
	return count;
}

/* assimp's glTF importer gives up on a buffer whose byteLength exceeds its
 * file without closing the stream it opened through libsg (file_io.c): the
 * import must close it. */
START_TEST(test_failed_imports_keep_no_fd)
{
	static const unsigned char triangle[36] = {0};
	write_file("short.bin", triangle, sizeof(triangle));
	const char *path =
	    write_text("short.gltf",
	               "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
	               "\"nodes\":[{\"mesh\":0}],\"meshes\":[{\"primitives\":[{\"attributes\":{"
	               "\"POSITION\":0}}]}],"
	               "\"buffers\":[{\"byteLength\":3600,\"uri\":\"short.bin\"}],"
	               "\"bufferViews\":[{\"buffer\":0,\"byteLength\":36}],"
	               "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,"
	               "\"type\":\"VEC3\",\"min\":[0,0,0],\"max\":[0,0,0]}]}");
	int before = count_fds();
	for (int i = 0; i < 20; i++)
		expect_refused(&(struct sg_import_desc){.path = path}, SG_ERR_FORMAT, "assimp");
	ck_assert_int_eq(count_fds(), before);
}
END_TEST

/* A glTF of one triangle, positions from a file of its own, under a node
 * named "part" whose own node, "frame", has node_keys (a scale, say), and
 * whose mesh is "shape". */
static const char *triangle_file(const char *name, const float positions[9], const char *node_keys,
                                 const char *frame_keys)
{
	char bin[64];
	snprintf(bin, sizeof(bin), "%s.bin", name);
	write_file(bin, positions, 9 * sizeof(float));
	char text[2048];
	snprintf(text, sizeof(text),
	         "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[1]}],"
	         "\"nodes\":[{\"name\":\"part\",\"mesh\":0%s},"
	         "{\"name\":\"frame\",\"children\":[0]%s}],"
	         "\"meshes\":[{\"name\":\"shape\",\"primitives\":[{\"attributes\":{"
	         "\"POSITION\":0}}]}],"
	         "\"buffers\":[{\"byteLength\":36,\"uri\":\"%s\"}],"
	         "\"bufferViews\":[{\"buffer\":0,\"byteLength\":36}],"
	         "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,"
	         "\"type\":\"VEC3\"}]}",
	         node_keys, frame_keys, bin);
	char gltf[64];
	snprintf(gltf, sizeof(gltf), "%s.gltf", name);
	return write_text(gltf, text);
}

/* What no float holds (a NaN or infinite position, a matrix entry past
 * 3.4e38, written 1e39) or what overflows once the matrices are applied is
 * a malformed file: SG_ERR_FORMAT naming the mesh or the node, never the
 * graph's SG_ERR_INVALID_ARGUMENT nor a model that no camera can frame. */
START_TEST(test_non_finite_and_overflowing_files)
{
	const float unit[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
	float nan_at_1[9] = {0, 0, 0, NAN, 0, 0, 0, 1, 0};
	expect_refused(&(struct sg_import_desc){.path = triangle_file("nan", nan_at_1, "", "")},
	               SG_ERR_FORMAT, "mesh 'shape': position 1 is NaN or infinite");
	float infinite_at_2[9] = {0, 0, 0, 1, 0, 0, 0, INFINITY, 0};
	expect_refused(
	    &(struct sg_import_desc){.path = triangle_file("inf", infinite_at_2, "", "")},
	    SG_ERR_FORMAT, "mesh 'shape': position 2 is NaN or infinite");
	expect_refused(&(struct sg_import_desc){.path = triangle_file("scale", unit,
	                                                              ",\"scale\":[1e39,1,1]", "")},
	               SG_ERR_FORMAT, "node 'part': its matrix has NaN or infinite entries");
	/* 1e38 times 1e38: each matrix finite, their product not */
	expect_refused(
	    &(struct sg_import_desc){.path = triangle_file("product", unit, ",\"scale\":[1e38,1,1]",
	                                                   ",\"scale\":[1e38,1,1]")},
	    SG_ERR_FORMAT, "node 'part': its matrix times those of the nodes above");
	/* 3e38 scaled by 10 */
	const float large[9] = {0, 0, 0, 3e38f, 0, 0, 0, 1, 0};
	expect_refused(&(struct sg_import_desc){.path = triangle_file("placed", large,
	                                                              ",\"scale\":[10,10,10]", "")},
	               SG_ERR_FORMAT, "node 'part': mesh 'shape' placed by the node's matrices");
	/* the same numbers, in range: imported */
	struct sg_import_info info;
	ck_assert_msg(
	    sg_scene_import(scene,
	                    &(struct sg_import_desc){
	                        .path = triangle_file("fine", large, ",\"scale\":[1,1,1]", "")},
	                    &info) == SG_OK,
	    "%s", sg_last_error());
	ck_assert_float_eq(info.bounds[3], 3e38f);
}
END_TEST

static Suite *model_file_suite(void)
{
	Suite *suite = suite_create("model_file");
	TCase *tc = tcase_create("samples");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 240);
	tcase_add_loop_test(tc, test_samples_match_their_accessors, 0, SAMPLE_COUNT);
	tcase_add_test(tc, test_uv_origin_is_top_left);
	tcase_add_test(tc, test_materials);
	tcase_add_test(tc, test_material_factors_and_uv1);
	tcase_add_test(tc, test_samplers);
	tcase_add_test(tc, test_vertex_colors);
	tcase_add_test(tc, test_bounds);
	tcase_add_test(tc, test_cameras);
	tcase_add_test(tc, test_under_a_parent);
	tcase_add_test(tc, test_bad_arguments);
	tcase_add_test(tc, test_allocation_failures_are_clean);
	suite_add_tcase(suite, tc);

	TCase *files = tcase_create("files");
	tcase_add_checked_fixture(files, make_scratch, remove_scratch);
	tcase_add_test(files, test_missing_file);
	tcase_add_test(files, test_truncated_file);
	tcase_add_test(files, test_text_file);
	tcase_add_test(files, test_huge_accessor);
	tcase_add_test(files, test_texture_outside_the_folder);
	tcase_add_test(files, test_buffer_outside_the_folder);
	tcase_add_test(files, test_budgets);
	tcase_add_test(files, test_obj_with_material_library);
	tcase_add_test(files, test_stl);
	tcase_add_test(files, test_failed_imports_keep_no_fd);
	tcase_add_test(files, test_non_finite_and_overflowing_files);
	suite_add_tcase(suite, files);
	return suite;
}

#endif

int main(void)
{
	return check_run(model_file_suite());
}
