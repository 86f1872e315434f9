/* Sample models drawn: every glTF 2.0 sample of tests/models/gltf imports
 * and draws something in a 3D view framed on its bounds; and Box.gltf (a
 * red matte box, its material in the file) seen face on under a light
 * along the view gives, at each checked pixel, the BRDF of docs/3d.md
 * evaluated by tests/brdf_reference.c, not by libsg. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sg/sg.h>

#include <json-c/json.h>

#include "../src/base/alloc.h"
#include "../src/image/image.h"
#include "brdf_reference.h"
#include "check_run.h"

#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

#define SIZE 64

static const char *const samples[] = {
    "AlphaBlendModeTest", "Box",         "BoxAnimated",         "BoxInterleaved",
    "BoxTextured",        "BoxVertexColors", "Cameras",          "MultiUVTest",
    "OrientationTest",    "SimpleMeshes", "TextureCoordinateTest", "TextureSettingsTest",
    "Triangle",           "TriangleWithoutIndices"};

static const char *sample_path(const char *name)
{
	static char path[1024];
	const char *dir = getenv("SG_MODELS_DIR");
	snprintf(path, sizeof(path), "%s/%s.gltf", dir && *dir ? dir : SG_MODELS_DIR, name);
	return path;
}

/* A view with camera under the root, a directional light in it shining
 * along direction, the model imported under the view. */
static sg_node stage(struct sg_scene *scene, const char *path, const struct sg_camera *camera,
                     const float direction[3], struct sg_import_info *info)
{
	sg_node view = sg_node_new_view3d(
	    scene, &(struct sg_view3d_desc){.camera = camera, .ambient = {0.05f, 0.05f, 0.05f}});
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), view), SG_OK);
	/* the light's node turned so that its -Z is direction */
	struct sg_camera aim;
	sg_camera_look_at(&aim, (float[]){0, 0, 0}, direction,
	                  fabsf(direction[1]) > 0.9f ? (float[]){1, 0, 0} : (float[]){0, 1, 0});
	float place[16];
	for (int c = 0; c < 4; c++)
		for (int r = 0; r < 4; r++)
			place[c * 4 + r] = aim.view[r * 4 + c];
	sg_node turn = sg_node_new_transform(scene, &(struct sg_transform_desc){.matrix = place});
	sg_node light = sg_node_new_light(scene, &(struct sg_light_desc){
	                                             .type = SG_LIGHT_DIRECTIONAL,
	                                             .color = {1, 1, 1}, .intensity = 2});
	ck_assert_int_eq(sg_node_add_child(scene, view, turn), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, turn, light), SG_OK);
	ck_assert_msg(sg_scene_import(scene, &(struct sg_import_desc){.path = path, .parent = view},
	                              info) == SG_OK,
	              "%s: %s", path, sg_last_error());
	return view;
}

static uint8_t *render_sized(struct sg_scene *scene, int size)
{
	struct sg_renderer *r = sg_renderer_create(&(struct sg_renderer_desc){
	    .width = size, .height = size, .target = SG_TARGET_SURFACELESS});
	ck_assert_msg(r, "%s", sg_last_error());
	ck_assert_int_eq(sg_renderer_set_clear_color(r, 0, 0, 0, 1), SG_OK);
	ck_assert_msg(sg_renderer_render(r, scene, NULL) == SG_OK, "%s", sg_last_error());
	uint8_t *pixels = malloc((size_t)size * (size_t)size * 4);
	ck_assert_int_eq(sg_renderer_read_pixels(r, pixels, 0), SG_OK);
	sg_renderer_destroy(r);
	return pixels;
}

static uint8_t *render(struct sg_scene *scene)
{
	return render_sized(scene, SIZE);
}

START_TEST(test_every_sample_draws)
{
	const char *name = samples[_i];
	struct sg_scene *scene = sg_scene_create();
	/* first import alone, for the bounds the camera frames */
	struct sg_import_info info;
	ck_assert_msg(sg_scene_import(scene, &(struct sg_import_desc){.path = sample_path(name)},
	                              &info) == SG_OK,
	              "%s: %s", name, sg_last_error());
	ck_assert_int_eq(sg_node_destroy(scene, info.root), SG_OK);
	float centre[3], radius = 0.0f;
	for (int a = 0; a < 3; a++) {
		centre[a] = (info.bounds[a] + info.bounds[3 + a]) / 2.0f;
		float half = (info.bounds[3 + a] - info.bounds[a]) / 2.0f;
		radius += half * half;
	}
	radius = sqrtf(radius) + 1e-3f;
	struct sg_camera camera;
	float distance = radius / sinf(0.4f) * 1.05f;
	sg_camera_init_perspective(&camera, 0.8f, 1.0f, distance / 100.0f, distance * 3.0f);
	float eye[3] = {centre[0] + distance * 0.5f, centre[1] + distance * 0.4f,
	                centre[2] + distance * 0.77f};
	sg_camera_look_at(&camera, eye, centre, (float[]){0, 1, 0});
	float direction[3] = {-0.4f, -0.5f, -0.77f};
	stage(scene, sample_path(name), &camera, direction, &info);
	uint8_t *pixels = render(scene);
	int drawn = 0;
	for (int p = 0; p < SIZE * SIZE; p++)
		drawn += pixels[p * 4] || pixels[p * 4 + 1] || pixels[p * 4 + 2];
	ck_assert_msg(drawn > SIZE * SIZE / 100, "%s: %d of %d pixels drawn", name, drawn,
	              SIZE * SIZE);
	free(pixels);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_box_face_is_the_reference_brdf)
{
	struct sg_scene *scene = sg_scene_create();
	struct sg_camera camera;
	sg_camera_init_perspective(&camera, 0.7f, 1.0f, 0.1f, 20.0f);
	sg_camera_look_at(&camera, (float[]){0, 0, 3}, (float[]){0, 0, 0}, (float[]){0, 1, 0});
	struct sg_import_info info;
	/* the light along the view: the face towards the camera is lit head-on */
	stage(scene, sample_path("Box"), &camera, (float[]){0, 0, -1}, &info);
	uint8_t *pixels = render(scene);
	/* Box.gltf: a unit cube about the origin (its faces at +-0.5 whatever
	 * its node's turn), material "Red": base (0.8, 0, 0), metallic 0,
	 * roughness by default 1 */
	struct ref_material red = {.base = {0.800000011920929, 0, 0, 1}, .roughness = 1,
	                           .occlusion = 1};
	struct ref_light light = {.type = REF_DIRECTIONAL, .color = {1, 1, 1}, .intensity = 2,
	                          .direction = {0, 0, -1}};
	double ambient[3] = {0.05f, 0.05f, 0.05f};
	struct ref_camera ref = {.eye = {0, 0, 3}, .center = {0, 0, 0}, .up = {0, 1, 0},
	                         .fovy = 0.7f, .aspect = 1, .width = SIZE, .height = SIZE};
	static const int points[][2] = {{32, 32}, {26, 27}, {38, 37}, {27, 38}, {37, 26}};
	for (size_t i = 0; i < sizeof(points) / sizeof(points[0]); i++) {
		int x = points[i][0], y = points[i][1];
		struct dvec3 hit;
		ck_assert(ref_camera_hit_plane(&ref, x, y, (struct dvec3){0, 0, 0.5},
		                               (struct dvec3){0, 0, 1}, &hit));
		ck_assert(fabs(hit.x) < 0.45 && fabs(hit.y) < 0.45); /* on the face */
		uint8_t want[4];
		ref_shade_bytes(&red, hit, (struct dvec3){0, 0, 1}, ref.eye, &light, 1, ambient, want);
		const uint8_t *got = pixels + ((size_t)y * SIZE + (size_t)x) * 4;
		for (int c = 0; c < 4; c++)
			ck_assert_msg(abs(got[c] - want[c]) <= 2,
			              "pixel (%d, %d) is %u %u %u %u, the reference %u %u %u %u", x, y,
			              got[0], got[1], got[2], got[3], want[0], want[1], want[2], want[3]);
	}
	/* outside the box: the clear colour */
	ck_assert(pixels[(2 * SIZE + 2) * 4] == 0 && pixels[(2 * SIZE + 2) * 4 + 1] == 0);
	free(pixels);
	sg_scene_destroy(scene);
}
END_TEST

/* The bytes of base64 text (RFC 4648, no line breaks), in a new buffer. */
static uint8_t *base64_decode(const char *text, size_t *size)
{
	size_t length = strlen(text);
	uint8_t *out = malloc(length / 4 * 3 + 3);
	ck_assert_ptr_nonnull(out);
	uint32_t bits = 0;
	int held = 0;
	size_t n = 0;
	for (const char *c = text; *c && *c != '='; c++) {
		const char *alphabet =
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
		const char *at = strchr(alphabet, *c);
		ck_assert_msg(at != NULL, "not base64: '%c'", *c);
		bits = bits << 6 | (uint32_t)(at - alphabet);
		if ((held += 6) >= 8) {
			held -= 8;
			out[n++] = (uint8_t)(bits >> held);
		}
	}
	*size = n;
	return out;
}

/* The texels of the image behind texture index of a glTF file whose images
 * are data: URIs, read with json-c and decoded here, not by the importer. */
static uint8_t *gltf_texture_texels(json_object *root, int texture, int *width, int *height)
{
	json_object *textures, *images, *source, *uri;
	ck_assert(json_object_object_get_ex(root, "textures", &textures));
	ck_assert(json_object_object_get_ex(json_object_array_get_idx(textures, (size_t)texture),
	                                    "source", &source));
	ck_assert(json_object_object_get_ex(root, "images", &images));
	ck_assert(json_object_object_get_ex(
	    json_object_array_get_idx(images, (size_t)json_object_get_int(source)), "uri", &uri));
	const char *comma = strchr(json_object_get_string(uri), ',');
	ck_assert_ptr_nonnull(comma);
	size_t size;
	uint8_t *bytes = base64_decode(comma + 1, &size), *pixels;
	const struct sg_image_options options = {.max_bytes = UINT64_MAX};
	ck_assert_msg(
	    sg_image_decode(bytes, size, "glTF image", &options, &pixels, width, height) == SG_OK,
	    "%s", sg_last_error());
	free(bytes);
	return pixels;
}

static json_object *material_texture(json_object *root, const char *material, const char *slot)
{
	json_object *materials, *pbr, *info, *index;
	ck_assert(json_object_object_get_ex(root, "materials", &materials));
	for (size_t m = 0; m < json_object_array_length(materials); m++) {
		json_object *it = json_object_array_get_idx(materials, m), *name;
		if (!json_object_object_get_ex(it, "name", &name) ||
		    strcmp(json_object_get_string(name), material))
			continue;
		if (!json_object_object_get_ex(it, slot, &info)) {
			ck_assert(json_object_object_get_ex(it, "pbrMetallicRoughness", &pbr));
			ck_assert(json_object_object_get_ex(pbr, slot, &info));
		}
		ck_assert(json_object_object_get_ex(info, "index", &index));
		return index;
	}
	ck_abort_msg("no material %s", material);
	return NULL;
}

/* AlphaBlendModeTest's bed (material MatBed: base colour, occlusion and
 * metallic-roughness textures, the last two one image) drew with its
 * occlusion-roughness-metallic image as base colour on the first frame.
 * Seen from behind, where nothing stands in front of its wall, in white
 * ambient light alone (no lights): each texel shows c_diff × ao = decode(base)
 * × (1 − B) × R of docs/3d.md, encoded. The wall shows a part of the marble
 * image; the marble is even, so the mean over a block of the wall is the
 * mean of that colour over the whole image within a few levels (5 here;
 * the occlusion-roughness-metallic image in its place gives 10 2 0). */
START_TEST(test_alpha_blend_bed_draws_its_base_colour)
{
	json_object *root = json_object_from_file(sample_path("AlphaBlendModeTest"));
	ck_assert_ptr_nonnull(root);
	int width, height, orm_width, orm_height;
	uint8_t *base = gltf_texture_texels(
	    root, json_object_get_int(material_texture(root, "MatBed", "baseColorTexture")), &width,
	    &height);
	uint8_t *orm = gltf_texture_texels(
	    root, json_object_get_int(material_texture(root, "MatBed", "occlusionTexture")),
	    &orm_width, &orm_height);
	ck_assert(width == orm_width && height == orm_height);
	double want[3] = {0, 0, 0}, marble[3] = {0, 0, 0};
	size_t texels = (size_t)width * (size_t)height;
	for (size_t i = 0; i < texels; i++) {
		const uint8_t *b = base + 4 * i, *o = orm + 4 * i;
		for (int c = 0; c < 3; c++) {
			double linear =
			    srgb_decode(b[c] / 255.0) * (1 - o[2] / 255.0) * (o[0] / 255.0);
			want[c] += 255.0 * srgb_encode(linear) / (double)texels;
			marble[c] += b[c] / (double)texels;
		}
	}
	sg_free(base);
	sg_free(orm);
	json_object_put(root);

	struct sg_scene *scene = sg_scene_create();
	struct sg_camera camera;
	sg_camera_init_ortho(&camera, -1.5f, 1.5f, -1.5f, 1.5f, 0.1f, 40.0f);
	sg_camera_look_at(&camera, (float[]){0, 1.0f, -10}, (float[]){0, 1.0f, 0},
	                  (float[]){0, 1, 0});
	sg_node view = sg_node_new_view3d(
	    scene, &(struct sg_view3d_desc){.camera = &camera, .ambient = {1, 1, 1}});
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), view), SG_OK);
	ck_assert_msg(
	    sg_scene_import(
	        scene,
	        &(struct sg_import_desc){.path = sample_path("AlphaBlendModeTest"), .parent = view},
	        NULL) == SG_OK,
	    "%s", sg_last_error());
	uint8_t *pixels = render(scene);
	double got[3] = {0, 0, 0};
	int count = 0;
	for (int y = SIZE / 4; y < SIZE * 3 / 4; y++)
		for (int x = SIZE / 4; x < SIZE * 3 / 4; x++, count++)
			for (int c = 0; c < 3; c++)
				got[c] += pixels[(y * SIZE + x) * 4 + c];
	for (int c = 0; c < 3; c++)
		got[c] /= count;
	for (int c = 0; c < 3; c++)
		ck_assert_msg(fabs(got[c] - want[c]) <= 8,
		              "the bed's mean is %.1f %.1f %.1f, its base colour's %.1f %.1f %.1f "
		              "(the marble image's mean %.1f %.1f %.1f)",
		              got[0], got[1], got[2], want[0], want[1], want[2], marble[0],
		              marble[1], marble[2]);
	free(pixels);
	sg_scene_destroy(scene);
}
END_TEST

/* Writes folder/quad.gltf: a unit square in the plane z = 0 facing +Z, its
 * material OPAQUE (metallic 0, roughness 0.6; KHR_materials_unlit if unlit)
 * with a base colour texture of one texel, folder/texel.png. */
static void write_texel_quad(const char *folder, const uint8_t texel[4], bool unlit)
{
	char path[1100];
	snprintf(path, sizeof(path), "%s/texel.png", folder);
	ck_assert_int_eq(sg_image_write_png(path, 1, 1, texel, 0), SG_OK);
	const float positions[12] = {-0.5f, -0.5f, 0, 0.5f,  -0.5f, 0,
	                             0.5f,  0.5f,  0, -0.5f, 0.5f,  0};
	const float normals[12] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
	const float uvs[8] = {0, 1, 1, 1, 1, 0, 0, 0};
	const uint16_t indices[6] = {0, 1, 2, 0, 2, 3};
	snprintf(path, sizeof(path), "%s/quad.bin", folder);
	FILE *bin = fopen(path, "wb");
	ck_assert_ptr_nonnull(bin);
	fwrite(positions, sizeof(positions), 1, bin);
	fwrite(normals, sizeof(normals), 1, bin);
	fwrite(uvs, sizeof(uvs), 1, bin);
	fwrite(indices, sizeof(indices), 1, bin);
	ck_assert_int_eq(fclose(bin), 0);
	snprintf(path, sizeof(path), "%s/quad.gltf", folder);
	FILE *gltf = fopen(path, "w");
	ck_assert_ptr_nonnull(gltf);
	fprintf(
	    gltf,
	    "{\"asset\": {\"version\": \"2.0\"},%s \"scene\": 0, \"scenes\": [{\"nodes\": [0]}],"
	    " \"nodes\": [{\"mesh\": 0}],"
	    " \"meshes\": [{\"primitives\": [{\"attributes\": {\"POSITION\": 0, \"NORMAL\": 1,"
	    " \"TEXCOORD_0\": 2}, \"indices\": 3, \"material\": 0}]}],"
	    " \"materials\": [{\"alphaMode\": \"OPAQUE\", \"pbrMetallicRoughness\": {"
	    "\"baseColorTexture\": {\"index\": 0}, \"metallicFactor\": 0,"
	    " \"roughnessFactor\": 0.6}%s}],"
	    " \"textures\": [{\"source\": 0}], \"images\": [{\"uri\": \"texel.png\"}],"
	    " \"buffers\": [{\"uri\": \"quad.bin\", \"byteLength\": 140}],"
	    " \"bufferViews\": [{\"buffer\": 0, \"byteOffset\": 0, \"byteLength\": 128},"
	    " {\"buffer\": 0, \"byteOffset\": 128, \"byteLength\": 12}],"
	    " \"accessors\": ["
	    "{\"bufferView\": 0, \"byteOffset\": 0, \"componentType\": 5126, \"count\": 4,"
	    " \"type\": \"VEC3\", \"min\": [-0.5, -0.5, 0], \"max\": [0.5, 0.5, 0]},"
	    " {\"bufferView\": 0, \"byteOffset\": 48, \"componentType\": 5126, \"count\": 4,"
	    " \"type\": \"VEC3\"},"
	    " {\"bufferView\": 0, \"byteOffset\": 96, \"componentType\": 5126, \"count\": 4,"
	    " \"type\": \"VEC2\"},"
	    " {\"bufferView\": 1, \"componentType\": 5123, \"count\": 6, \"type\": \"SCALAR\"}]}\n",
	    unlit ? " \"extensionsUsed\": [\"KHR_materials_unlit\"]," : "",
	    unlit ? ", \"extensions\": {\"KHR_materials_unlit\": {}}" : "");
	ck_assert_int_eq(fclose(gltf), 0);
}

/* glTF: an OPAQUE material ignores its texels' alpha. An imported quad
 * with a base colour texel (230, 230, 90, a) for a = 0 and 10 (premultiplied
 * bytes keep nothing, and 9 9 4) shows the texel's colour: _i even unlit,
 * the texel itself; odd lit head-on, the BRDF reference for base =
 * decode(texel). */
START_TEST(test_opaque_texel_keeps_its_colour_whatever_its_alpha)
{
	const uint8_t texel[4] = {230, 230, 90, _i / 2 ? 10 : 0};
	const bool lit = _i % 2;
	char folder[] = "/tmp/sg-texel-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(folder));
	write_texel_quad(folder, texel, !lit);
	char path[1100];
	snprintf(path, sizeof(path), "%s/quad.gltf", folder);
	struct sg_scene *scene = sg_scene_create();
	struct sg_camera camera;
	sg_camera_init_perspective(&camera, 0.7f, 1.0f, 0.1f, 20.0f);
	sg_camera_look_at(&camera, (float[]){0, 0, 3}, (float[]){0, 0, 0}, (float[]){0, 1, 0});
	struct sg_import_info info;
	stage(scene, path, &camera, (float[]){0, 0, -1}, &info);
	uint8_t *pixels = render(scene);
	struct ref_material material = {.base = {1, 1, 1, 1}, .roughness = 0.6, .occlusion = 1};
	for (int c = 0; c < 3; c++)
		material.base[c] = srgb_decode(texel[c] / 255.0);
	struct ref_light light = {
	    .type = REF_DIRECTIONAL, .color = {1, 1, 1}, .intensity = 2, .direction = {0, 0, -1}};
	double ambient[3] = {0.05f, 0.05f, 0.05f};
	struct ref_camera ref = {.eye = {0, 0, 3},
	                         .center = {0, 0, 0},
	                         .up = {0, 1, 0},
	                         .fovy = 0.7f,
	                         .aspect = 1,
	                         .width = SIZE,
	                         .height = SIZE};
	static const int points[][2] = {{32, 32}, {26, 27}, {38, 37}};
	for (size_t i = 0; i < sizeof(points) / sizeof(points[0]); i++) {
		int x = points[i][0], y = points[i][1];
		uint8_t want[4] = {texel[0], texel[1], texel[2], 255};
		struct dvec3 hit;
		ck_assert(ref_camera_hit_plane(&ref, x, y, (struct dvec3){0, 0, 0},
		                               (struct dvec3){0, 0, 1}, &hit));
		ck_assert(fabs(hit.x) < 0.45 && fabs(hit.y) < 0.45); /* on the quad */
		if (lit)
			ref_shade_bytes(&material, hit, (struct dvec3){0, 0, 1}, ref.eye, &light, 1,
			                ambient, want);
		const uint8_t *got = pixels + ((size_t)y * SIZE + (size_t)x) * 4;
		for (int c = 0; c < 4; c++)
			ck_assert_msg(
			    abs(got[c] - want[c]) <= (lit ? 2 : 0),
			    "%s, texel alpha %d: pixel (%d, %d) is %u %u %u %u, want %u %u %u "
			    "%u",
			    lit ? "lit" : "unlit", texel[3], x, y, got[0], got[1], got[2], got[3],
			    want[0], want[1], want[2], want[3]);
	}
	free(pixels);
	sg_scene_destroy(scene);
	const char *names[] = {"texel.png", "quad.bin", "quad.gltf"};
	for (int n = 0; n < 3; n++) {
		snprintf(path, sizeof(path), "%s/%s", folder, names[n]);
		ck_assert_int_eq(unlink(path), 0);
	}
	ck_assert_int_eq(rmdir(folder), 0);
}
END_TEST

/* The model-space box (min xyz, max xyz) of the mesh whose primitive uses
 * material name, from its POSITION accessor's min and max. */
static void mesh_box_of_material(json_object *root, const char *name, double box[6])
{
	json_object *materials, *meshes, *accessors;
	ck_assert(json_object_object_get_ex(root, "materials", &materials));
	ck_assert(json_object_object_get_ex(root, "meshes", &meshes));
	ck_assert(json_object_object_get_ex(root, "accessors", &accessors));
	int material = -1;
	for (size_t m = 0; m < json_object_array_length(materials); m++) {
		json_object *it;
		if (json_object_object_get_ex(json_object_array_get_idx(materials, m), "name",
		                              &it) &&
		    !strcmp(json_object_get_string(it), name))
			material = (int)m;
	}
	ck_assert_int_ge(material, 0);
	for (size_t m = 0; m < json_object_array_length(meshes); m++) {
		json_object *primitives, *primitive, *used, *attributes, *position, *min, *max;
		ck_assert(json_object_object_get_ex(json_object_array_get_idx(meshes, m),
		                                    "primitives", &primitives));
		primitive = json_object_array_get_idx(primitives, 0);
		if (!json_object_object_get_ex(primitive, "material", &used) ||
		    json_object_get_int(used) != material)
			continue;
		ck_assert(json_object_object_get_ex(primitive, "attributes", &attributes));
		ck_assert(json_object_object_get_ex(attributes, "POSITION", &position));
		json_object *accessor =
		    json_object_array_get_idx(accessors, (size_t)json_object_get_int(position));
		ck_assert(json_object_object_get_ex(accessor, "min", &min));
		ck_assert(json_object_object_get_ex(accessor, "max", &max));
		for (int a = 0; a < 3; a++) {
			box[a] = json_object_get_double(json_object_array_get_idx(min, (size_t)a));
			box[3 + a] =
			    json_object_get_double(json_object_array_get_idx(max, (size_t)a));
		}
		return;
	}
	ck_abort_msg("no mesh uses material %s", name);
}

/* TextureSettingsTest: each test square shows a red cross where its
 * sampler's wrap is drawn wrongly (a green check or square where right).
 * Seen face on, orthographic: the rows whose samplers clamp or mirror along
 * s or t hold no red-cross pixel, and some green. Their places come from
 * the file: each row's mesh box, turned by the root node's matrix (model
 * (x, y, z) to (x, z, -y): the board faces +Z). Before libsg honoured
 * samplers, all four showed the cross. */
START_TEST(test_texture_settings_clamp_and_mirror_rows_pass)
{
	enum { BIG = 256 };
	static const char *const rows[] = {"TextureClampMaterialS", "TextureClampMaterialT",
	                                   "TextureMirrorMaterialS", "TextureMirrorMaterialT"};
	/* the board spans x -5.2 .. 5.2 and (turned) y -5.6 .. 4.5 */
	const float left = -5.5f, top = 5.0f, side = 11.0f;
	struct sg_scene *scene = sg_scene_create();
	struct sg_camera camera;
	sg_camera_init_ortho(&camera, left, left + side, top - side, top, 0.1f, 40.0f);
	sg_camera_look_at(&camera, (float[]){0, 0, 10}, (float[]){0, 0, 0}, (float[]){0, 1, 0});
	sg_node view = sg_node_new_view3d(
	    scene, &(struct sg_view3d_desc){.camera = &camera, .ambient = {0.3f, 0.3f, 0.3f}});
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), view), SG_OK);
	ck_assert_msg(
	    sg_scene_import(scene,
	                    &(struct sg_import_desc){.path = sample_path("TextureSettingsTest"),
	                                             .parent = view},
	                    NULL) == SG_OK,
	    "%s", sg_last_error());
	uint8_t *pixels = render_sized(scene, BIG);
	json_object *root = json_object_from_file(sample_path("TextureSettingsTest"));
	ck_assert_ptr_nonnull(root);
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		double box[6];
		mesh_box_of_material(root, rows[r], box);
		/* turned: x stays, z becomes y; pixels of the box, 2 in from its edges */
		int x0 = (int)ceil((box[0] - left) / side * BIG) + 2;
		int x1 = (int)floor((box[3] - left) / side * BIG) - 2;
		int y0 = (int)ceil((top - box[5]) / side * BIG) + 2;
		int y1 = (int)floor((top - box[2]) / side * BIG) - 2;
		ck_assert(x0 >= 0 && x1 < BIG && y0 >= 0 && y1 < BIG && x0 < x1 && y0 < y1);
		int red = 0, green = 0;
		for (int y = y0; y <= y1; y++)
			for (int x = x0; x <= x1; x++) {
				const uint8_t *p = pixels + ((size_t)y * BIG + (size_t)x) * 4;
				red += p[0] > 100 && p[0] > 2 * p[1] && p[0] > 2 * p[2];
				green += p[1] > 100 && p[1] > 2 * p[0] && p[1] > 2 * p[2];
			}
		ck_assert_msg(red == 0, "%s: %d pixels of the red cross in (%d, %d) .. (%d, %d)",
		              rows[r], red, x0, y0, x1, y1);
		ck_assert_msg(green > 20, "%s: %d green pixels in (%d, %d) .. (%d, %d)", rows[r],
		              green, x0, y0, x1, y1);
	}
	json_object_put(root);
	free(pixels);
	sg_scene_destroy(scene);
}
END_TEST

int main(void)
{
	Suite *suite = suite_create("model-render");
	TCase *tc = tcase_create("samples");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_every_sample_draws, 0, (int)(sizeof(samples) / sizeof(samples[0])));
	tcase_add_test(tc, test_box_face_is_the_reference_brdf);
	/* Decodes its two 2048 x 2048 images besides the import's three: past
	 * the case's timeout under the memory checker, which learns nothing
	 * from it that test_render3d's first-frame textures do not show. */
	if (!RUNNING_ON_VALGRIND)
		tcase_add_test(tc, test_alpha_blend_bed_draws_its_base_colour);
	tcase_add_loop_test(tc, test_opaque_texel_keeps_its_colour_whatever_its_alpha, 0, 4);
	tcase_add_test(tc, test_texture_settings_clamp_and_mirror_rows_pass);
	suite_add_tcase(suite, tc);
	return check_run(suite);
}
