/* 3D views (sg/scene3d.h, docs/3d.md) end to end on the surfaceless target.
 * Every expected pixel is computed here from the document: the camera's rays
 * and docs/3d.md's shading in double precision (brdf_reference.c), the sRGB
 * transfer function, source-over blending. Pixels are read where the
 * reference says which surface the pixel centre sees, away from edges. */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sg/scene3d.h>
#include <sg/sg.h>

#include "brdf_reference.h"
#include "check_run.h"

#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif
#include "expect.h"

/* The clear colour, chosen as whole bytes so that it reads back exactly. */
static const uint8_t clear_bytes[4] = {20, 40, 60, 255};

/* --- renders ------------------------------------------------------------------ */

static struct sg_renderer *renderer_new(int size)
{
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
	    .width = size, .height = size, .target = SG_TARGET_SURFACELESS});
	ck_assert_msg(renderer, "%s", sg_last_error());
	ck_assert_int_eq(sg_renderer_set_clear_color(renderer, clear_bytes[0] / 255.0f,
	                                             clear_bytes[1] / 255.0f,
	                                             clear_bytes[2] / 255.0f, 1),
	                 SG_OK);
	return renderer;
}

/* Renders scene at size x size (camera NULL: the pixel camera) into a new
 * buffer of RGBA8 pixels, top row first. */
static uint8_t *render(struct sg_scene *scene, int size, const struct sg_camera *camera)
{
	struct sg_renderer *renderer = renderer_new(size);
	ck_assert_msg(sg_renderer_render(renderer, scene, camera) == SG_OK, "%s", sg_last_error());
	uint8_t *pixels = malloc((size_t)size * (size_t)size * 4);
	ck_assert_ptr_nonnull(pixels);
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, pixels, 0), SG_OK);
	sg_renderer_destroy(renderer);
	return pixels;
}

static const uint8_t *pixel_at(const uint8_t *pixels, int size, int x, int y)
{
	ck_assert(x >= 0 && x < size && y >= 0 && y < size);
	return pixels + ((size_t)y * (size_t)size + (size_t)x) * 4;
}

static bool near(const uint8_t *got, const uint8_t *want, int tolerance)
{
	for (int c = 0; c < 4; c++)
		if (abs(got[c] - want[c]) > tolerance)
			return false;
	return true;
}

static void expect_pixel(const uint8_t *pixels, int size, int x, int y, const uint8_t want[4],
                         int tolerance, const char *what)
{
	const uint8_t *got = pixel_at(pixels, size, x, y);
	ck_assert_msg(near(got, want, tolerance),
	              "%s: pixel (%d, %d) is %d %d %d %d, want %d %d %d %d (+-%d)", what, x, y,
	              got[0], got[1], got[2], got[3], want[0], want[1], want[2], want[3],
	              tolerance);
}

/* The largest channel difference between two renders of size x size. */
static int max_difference(const uint8_t *a, const uint8_t *b, int size, int *where_x, int *where_y)
{
	int worst = 0;
	for (int i = 0; i < size * size * 4; i++)
		if (abs(a[i] - b[i]) > worst) {
			worst = abs(a[i] - b[i]);
			*where_x = i / 4 % size;
			*where_y = i / 4 / size;
		}
	return worst;
}

static void expect_same_picture(const uint8_t *a, const uint8_t *b, int size, int tolerance,
                                const char *what)
{
	int x = 0, y = 0;
	int worst = max_difference(a, b, size, &x, &y);
	ck_assert_msg(worst <= tolerance,
	              "%s: the renders differ by %d at (%d, %d): %d %d %d %d vs %d %d %d %d", what,
	              worst, x, y, a[(y * size + x) * 4], a[(y * size + x) * 4 + 1],
	              a[(y * size + x) * 4 + 2], a[(y * size + x) * 4 + 3], b[(y * size + x) * 4],
	              b[(y * size + x) * 4 + 1], b[(y * size + x) * 4 + 2],
	              b[(y * size + x) * 4 + 3]);
}

/* --- cameras ------------------------------------------------------------------ */

static struct ref_camera front_camera(int size)
{
	/* looking down -Z at the origin from z = 5 */
	return (struct ref_camera){.eye = {0, 0, 5},
	                           .center = {0, 0, 0},
	                           .up = {0, 1, 0},
	                           .fovy = M_PI / 4,
	                           .aspect = 1,
	                           .width = size,
	                           .height = size};
}

static struct sg_camera sg_camera_of(const struct ref_camera *ref)
{
	struct sg_camera camera;
	sg_camera_init_perspective(&camera, (float)ref->fovy, (float)ref->aspect, 0.1f, 100.0f);
	sg_camera_look_at(
	    &camera, (float[]){(float)ref->eye.x, (float)ref->eye.y, (float)ref->eye.z},
	    (float[]){(float)ref->center.x, (float)ref->center.y, (float)ref->center.z},
	    (float[]){(float)ref->up.x, (float)ref->up.y, (float)ref->up.z});
	return camera;
}

/* The pixel where point lands. */
static void pixel_of(const struct ref_camera *camera, struct dvec3 point, int *x, int *y)
{
	double fx, fy;
	ck_assert(ref_camera_project(camera, point, &fx, &fy));
	*x = (int)floor(fx);
	*y = (int)floor(fy);
}

/* --- scenes ------------------------------------------------------------------- */

/* A 3D view under parent with its own camera (copied by libsg, we assume
 * nothing: the caller keeps it alive until the render) over the whole output. */
static sg_node view_add(struct sg_scene *scene, sg_node parent, const struct sg_camera *camera,
                        const double ambient[3])
{
	struct sg_view3d_desc desc = {.camera = camera};
	for (int c = 0; c < 3; c++)
		desc.ambient[c] = ambient ? (float)ambient[c] : 0;
	sg_node view = sg_node_new_view3d(scene, &desc);
	ck_assert_msg(view.generation, "%s", sg_last_error());
	ck_assert_int_eq(sg_node_add_child(scene, parent, view), SG_OK);
	return view;
}

static sg_mesh mesh_new(struct sg_scene *scene, const struct sg_mesh3d_desc *desc)
{
	sg_mesh mesh = sg_mesh_create_3d(scene, desc);
	ck_assert_msg(mesh.generation, "%s", sg_last_error());
	return mesh;
}

/* Per-vertex attributes of quad_mesh_with beyond positions and normals, in
 * corner order (-u-v, u-v, u+v, -u+v); NULL: the defaults below. */
struct quad_attributes {
	const float *uv0;    /* 8; default: (0, 0) at -u+v, (1, 1) at u-v */
	const float *uv1;    /* 8; default none */
	const float *colors; /* 16; default none */
	const float *tangents; /* 16; default none */
};

/* A parallelogram around centre with half-extents u and v, counter-clockwise
 * seen from the side u x v points to (its normal), uv0 (0, 0) at centre - u + v
 * and (1, 1) at centre + u - v: u runs left to right over the texture. */
static sg_mesh quad_mesh_with(struct sg_scene *scene, struct dvec3 centre, struct dvec3 u,
                              struct dvec3 v, const struct quad_attributes *attributes)
{
	static const double signs[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
	static const float uvs[8] = {0, 1, 1, 1, 1, 0, 0, 0};
	static const uint32_t indices[6] = {0, 1, 2, 0, 2, 3};
	struct dvec3 n = dvec3_normalize(dvec3_cross(u, v));
	float positions[12], normals[12];
	for (int k = 0; k < 4; k++) {
		struct dvec3 p = dvec3_add(
		    centre, dvec3_add(dvec3_scale(u, signs[k][0]), dvec3_scale(v, signs[k][1])));
		positions[k * 3] = (float)p.x;
		positions[k * 3 + 1] = (float)p.y;
		positions[k * 3 + 2] = (float)p.z;
		normals[k * 3] = (float)n.x;
		normals[k * 3 + 1] = (float)n.y;
		normals[k * 3 + 2] = (float)n.z;
	}
	return mesh_new(scene, &(struct sg_mesh3d_desc){
	                           .vertex_count = 4,
	                           .positions = positions,
	                           .normals = normals,
	                           .uv0 = attributes && attributes->uv0 ? attributes->uv0 : uvs,
	                           .uv1 = attributes ? attributes->uv1 : NULL,
	                           .colors = attributes ? attributes->colors : NULL,
	                           .tangents = attributes ? attributes->tangents : NULL,
	                           .indices = indices,
	                           .index_type = SG_INDEX_U32,
	                           .index_count = 6});
}

static sg_mesh quad_mesh(struct sg_scene *scene, struct dvec3 centre, struct dvec3 u,
                         struct dvec3 v)
{
	return quad_mesh_with(scene, centre, u, v, NULL);
}

static sg_node model_add(struct sg_scene *scene, sg_node parent, sg_mesh mesh, sg_material material)
{
	sg_node model = sg_node_new_model(scene, &(struct sg_model_desc){.mesh = mesh});
	ck_assert_msg(model.generation, "%s", sg_last_error());
	if (material.generation)
		ck_assert_msg(sg_model_set_material(scene, model, material) == SG_OK, "%s",
		              sg_last_error());
	ck_assert_int_eq(sg_node_add_child(scene, parent, model), SG_OK);
	return model;
}

struct material_options {
	enum sg_alpha_mode alpha_mode;
	float alpha_cutoff; /* 0: the default */
	bool double_sided, unlit;
	struct sg_material_texture base_color_texture, metallic_roughness_texture,
	    occlusion_texture, emissive_texture, normal_texture;
	float occlusion_strength; /* with occlusion_texture */
};

static sg_material material_new(struct sg_scene *scene, const struct ref_material *ref,
                                const struct material_options *options)
{
	struct sg_material_desc desc;
	sg_material_desc_init(&desc);
	for (int c = 0; c < 4; c++)
		desc.base_color[c] = (float)ref->base[c];
	desc.metallic = (float)ref->metallic;
	desc.roughness = (float)ref->roughness;
	for (int c = 0; c < 3; c++)
		desc.emissive[c] = (float)ref->emissive[c];
	if (options) {
		desc.alpha_mode = options->alpha_mode;
		if (options->alpha_cutoff > 0)
			desc.alpha_cutoff = options->alpha_cutoff;
		desc.double_sided = options->double_sided;
		desc.unlit = options->unlit;
		desc.base_color_texture = options->base_color_texture;
		desc.metallic_roughness_texture = options->metallic_roughness_texture;
		desc.occlusion_texture = options->occlusion_texture;
		if (options->occlusion_texture.texture.generation)
			desc.occlusion_strength = options->occlusion_strength;
		desc.emissive_texture = options->emissive_texture;
		desc.normal_texture = options->normal_texture;
	}
	sg_material material = sg_material_create(scene, &desc);
	ck_assert_msg(material.generation, "%s", sg_last_error());
	return material;
}

/* An unlit material of base colour rgba. */
static sg_material unlit_new(struct sg_scene *scene, const double rgba[4],
                             enum sg_alpha_mode alpha_mode)
{
	struct ref_material ref = {.base = {rgba[0], rgba[1], rgba[2], rgba[3]}, .occlusion = 1};
	return material_new(scene, &ref,
	                    &(struct material_options){.alpha_mode = alpha_mode, .unlit = true});
}

/* encode(rgb), as an unlit material draws it. */
static void unlit_bytes(const double rgba[4], uint8_t out[4])
{
	for (int c = 0; c < 3; c++)
		out[c] = unit_to_byte(srgb_encode(rgba[c]));
	out[3] = 255;
}

/* A light node under a transform placing it at the reference's position and
 * turning its -Z axis to the reference's direction. */
static sg_node light_add(struct sg_scene *scene, sg_node parent, const struct ref_light *ref)
{
	struct dvec3 z = dvec3_scale(ref->direction, -1);
	struct dvec3 helper = fabs(z.y) < 0.9 ? (struct dvec3){0, 1, 0} : (struct dvec3){1, 0, 0};
	struct dvec3 x = dvec3_normalize(dvec3_cross(helper, z));
	struct dvec3 y = dvec3_cross(z, x);
	const float matrix[16] = {(float)x.x,
	                          (float)x.y,
	                          (float)x.z,
	                          0,
	                          (float)y.x,
	                          (float)y.y,
	                          (float)y.z,
	                          0,
	                          (float)z.x,
	                          (float)z.y,
	                          (float)z.z,
	                          0,
	                          (float)ref->position.x,
	                          (float)ref->position.y,
	                          (float)ref->position.z,
	                          1};
	sg_node place = sg_node_new_transform(scene, &(struct sg_transform_desc){.matrix = matrix});
	ck_assert_msg(place.generation, "%s", sg_last_error());
	ck_assert_int_eq(sg_node_add_child(scene, parent, place), SG_OK);
	static const enum sg_light_type types[] = {[REF_DIRECTIONAL] = SG_LIGHT_DIRECTIONAL,
	                                           [REF_POINT] = SG_LIGHT_POINT,
	                                           [REF_SPOT] = SG_LIGHT_SPOT};
	sg_node light = sg_node_new_light(
	    scene, &(struct sg_light_desc){
	               .type = types[ref->type],
	               .color = {(float)ref->color[0], (float)ref->color[1], (float)ref->color[2]},
	               .intensity = (float)ref->intensity,
	               .range = (float)ref->range,
	               .inner_cone = (float)ref->inner_cone,
	               .outer_cone = (float)ref->outer_cone});
	ck_assert_msg(light.generation, "%s", sg_last_error());
	ck_assert_int_eq(sg_node_add_child(scene, place, light), SG_OK);
	return light;
}

/* --- the cube ------------------------------------------------------------------- */

/* Each face: its outward normal and the half-axes u, v with u x v = normal,
 * so that corners in the order (-u-v, u-v, u+v, -u+v) run counter-clockwise
 * seen from outside, as glTF's front faces. */
struct face {
	struct dvec3 normal, u, v;
	const char *name;
};
static const struct face cube_faces[6] = {
    {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, "+X"}, {{-1, 0, 0}, {0, 0, 1}, {0, 1, 0}, "-X"},
    {{0, 1, 0}, {0, 0, 1}, {1, 0, 0}, "+Y"}, {{0, -1, 0}, {1, 0, 0}, {0, 0, 1}, "-Y"},
    {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}, "+Z"}, {{0, 0, -1}, {0, 1, 0}, {1, 0, 0}, "-Z"},
};
static const double corner_signs[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
static const int quad_triangles[6] = {0, 1, 2, 0, 2, 3};

/* Corner k of face f of the unit cube centred at the origin. */
static struct dvec3 cube_corner(int f, int k)
{
	const struct face *face = &cube_faces[f];
	return dvec3_add(dvec3_scale(face->normal, 0.5),
	                 dvec3_add(dvec3_scale(face->u, 0.5 * corner_signs[k][0]),
	                           dvec3_scale(face->v, 0.5 * corner_signs[k][1])));
}

/* 24 vertices with per-face normals (normals NULL: the right ones; else
 * these 72 floats), 36 32-bit indices. */
static sg_mesh cube24_mesh(struct sg_scene *scene, const float *normals,
                           enum sg_normals normals_mode)
{
	float positions[72], face_normals[72];
	uint32_t indices[36];
	for (int f = 0; f < 6; f++) {
		for (int k = 0; k < 4; k++) {
			struct dvec3 p = cube_corner(f, k);
			float *position = positions + (f * 4 + k) * 3,
			      *normal = face_normals + (f * 4 + k) * 3;
			position[0] = (float)p.x, position[1] = (float)p.y,
			position[2] = (float)p.z;
			normal[0] = (float)cube_faces[f].normal.x;
			normal[1] = (float)cube_faces[f].normal.y;
			normal[2] = (float)cube_faces[f].normal.z;
		}
		for (int i = 0; i < 6; i++)
			indices[f * 6 + i] = (uint32_t)(f * 4 + quad_triangles[i]);
	}
	return mesh_new(scene, &(struct sg_mesh3d_desc){.vertex_count = 24,
	                                                .positions = positions,
	                                                .normals = normals ? normals : face_normals,
	                                                .indices = indices,
	                                                .index_type = SG_INDEX_U32,
	                                                .index_count = 36,
	                                                .normals_mode = normals_mode});
}

/* The 8 corners (corner i at x, y, z = +-0.5 by bits 0, 1, 2 of i), no
 * normals, 36 indices of the same triangles as cube24_mesh's, 16 or 32-bit. */
static void cube8(float positions[24], uint32_t indices[36])
{
	for (int i = 0; i < 8; i++) {
		positions[i * 3] = i & 1 ? 0.5f : -0.5f;
		positions[i * 3 + 1] = i & 2 ? 0.5f : -0.5f;
		positions[i * 3 + 2] = i & 4 ? 0.5f : -0.5f;
	}
	for (int f = 0; f < 6; f++)
		for (int i = 0; i < 6; i++) {
			struct dvec3 p = cube_corner(f, quad_triangles[i]);
			indices[f * 6 + i] =
			    (uint32_t)((p.x > 0) | (p.y > 0) << 1 | (p.z > 0) << 2);
		}
}

static sg_mesh cube8_mesh(struct sg_scene *scene, enum sg_index_type index_type,
                          enum sg_normals normals_mode)
{
	float positions[24];
	uint32_t indices[36];
	uint16_t indices16[36];
	cube8(positions, indices);
	for (int i = 0; i < 36; i++)
		indices16[i] = (uint16_t)indices[i];
	return mesh_new(scene, &(struct sg_mesh3d_desc){.vertex_count = 8,
	                                                .positions = positions,
	                                                .indices = index_type == SG_INDEX_U16
	                                                               ? (const void *)indices16
	                                                               : (const void *)indices,
	                                                .index_type = index_type,
	                                                .index_count = 36,
	                                                .normals_mode = normals_mode});
}

#define CUBE_SIZE 128

/* A non-trivial material, a light from above right front that lights the
 * three visible faces differently, and a coloured ambient. */
static const struct ref_material cube_material = {
    .base = {0.8, 0.3, 0.2, 1}, .metallic = 0.3, .roughness = 0.6, .occlusion = 1};
static const double cube_ambient[3] = {0.05, 0.06, 0.09};

static struct ref_light cube_light(void)
{
	return (struct ref_light){.type = REF_DIRECTIONAL,
	                          .color = {1, 0.9, 0.8},
	                          .intensity = 3,
	                          .direction = dvec3_normalize((struct dvec3){-1, -3, -2})};
}

static struct ref_camera cube_camera(void)
{
	return (struct ref_camera){.eye = {3, 2.5, 4},
	                           .center = {0, 0, 0},
	                           .up = {0, 1, 0},
	                           .fovy = 35 * M_PI / 180,
	                           .aspect = 1,
	                           .width = CUBE_SIZE,
	                           .height = CUBE_SIZE};
}

/* The cube scene: a view (with the camera, or NULL: the render's), the
 * light and the cube of mesh with cube_material. */
static struct sg_scene *cube_scene(sg_mesh (*make_mesh)(struct sg_scene *),
                                   const struct sg_camera *camera)
{
	struct sg_scene *scene = sg_scene_create();
	ck_assert_ptr_nonnull(scene);
	sg_node view = view_add(scene, sg_scene_root(scene), camera, cube_ambient);
	struct ref_light light = cube_light();
	light_add(scene, view, &light);
	model_add(scene, view, make_mesh(scene), material_new(scene, &cube_material, NULL));
	return scene;
}

static sg_mesh cube24_explicit(struct sg_scene *scene)
{
	return cube24_mesh(scene, NULL, SG_NORMALS_AUTO);
}

/* Checks each visible face at its centre and four points around it against
 * the reference, and that the three faces (and the hidden faces' unlit
 * colour) differ. Returns nothing: fails the test. */
static void expect_cube_faces(const uint8_t *pixels, const char *what)
{
	struct ref_camera camera = cube_camera();
	struct ref_light light = cube_light();
	static const double samples[5][2] = {
	    {0, 0}, {-0.25, -0.25}, {0.25, -0.25}, {0.25, 0.25}, {-0.25, 0.25}};
	uint8_t centres[3][4];
	int visible = 0;
	for (int f = 0; f < 6; f++) {
		const struct face *face = &cube_faces[f];
		struct dvec3 centre = dvec3_scale(face->normal, 0.5);
		if (dvec3_dot(face->normal, dvec3_sub(camera.eye, centre)) <= 0)
			continue;
		for (int s = 0; s < 5; s++) {
			struct dvec3 point =
			    dvec3_add(centre, dvec3_add(dvec3_scale(face->u, samples[s][0]),
			                                dvec3_scale(face->v, samples[s][1])));
			int x, y;
			pixel_of(&camera, point, &x, &y);
			/* the point the pixel centre really sees, well inside the face */
			struct dvec3 hit;
			ck_assert(ref_camera_hit_plane(&camera, x, y, centre, face->normal, &hit));
			struct dvec3 offset = dvec3_sub(hit, centre);
			ck_assert(fabs(dvec3_dot(offset, face->u)) < 0.42 &&
			          fabs(dvec3_dot(offset, face->v)) < 0.42);
			double linear[3];
			ref_shade(&cube_material, hit, face->normal, camera.eye, NULL, &light, 1,
			          cube_ambient, linear);
			for (int c = 0; c < 3; c++) /* a saturated channel would hide mistakes */
				ck_assert_msg(linear[c] > 0.01 && linear[c] < 0.95,
				              "reference saturates");
			uint8_t want[4];
			ref_shade_bytes(&cube_material, hit, face->normal, camera.eye, &light, 1,
			                cube_ambient, want);
			char label[96];
			snprintf(label, sizeof(label), "%s: face %s, sample %d", what, face->name,
			         s);
			expect_pixel(pixels, CUBE_SIZE, x, y, want, 2, label);
			if (s == 0)
				memcpy(centres[visible], pixel_at(pixels, CUBE_SIZE, x, y), 4);
		}
		visible++;
	}
	ck_assert_int_eq(visible, 3);
	/* What a hidden face would show: no light reaches it, ambient alone. */
	uint8_t hidden[4];
	ref_shade_bytes(&cube_material, (struct dvec3){-0.5, 0, 0}, (struct dvec3){-1, 0, 0},
	                camera.eye, &light, 1, cube_ambient, hidden);
	for (int a = 0; a < 3; a++) {
		ck_assert_msg(!near(centres[a], hidden, 6), "%s: a visible face shows ambient only",
		              what);
		for (int b = a + 1; b < 3; b++)
			ck_assert_msg(!near(centres[a], centres[b], 6),
			              "%s: faces %d and %d look alike", what, a, b);
	}
}

START_TEST(test_lit_cube_faces_match_the_brdf)
{
	struct ref_camera ref = cube_camera();
	struct sg_camera camera = sg_camera_of(&ref);
	struct sg_scene *scene = cube_scene(cube24_explicit, &camera);
	uint8_t *pixels = render(scene, CUBE_SIZE, NULL);
	expect_cube_faces(pixels, "cube, view camera");
	/* the clear colour around it */
	expect_pixel(pixels, CUBE_SIZE, 2, 2, clear_bytes, 0, "outside the cube");
	free(pixels);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_view_without_camera_uses_the_render_camera)
{
	/* The same cube with the view's camera NULL, the render given it. */
	struct ref_camera ref = cube_camera();
	struct sg_camera camera = sg_camera_of(&ref);
	struct sg_scene *scene = cube_scene(cube24_explicit, NULL);
	uint8_t *pixels = render(scene, CUBE_SIZE, &camera);
	expect_cube_faces(pixels, "cube, render camera");
	free(pixels);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_light_outside_the_view_lights_nothing)
{
	/* KHR_lights_punctual as the header says: a light lights the models of
	 * its view only. A second light under the root adds nothing. */
	struct ref_camera ref = cube_camera();
	struct sg_camera camera = sg_camera_of(&ref);
	struct sg_scene *scene = cube_scene(cube24_explicit, &camera);
	struct ref_light other = {.type = REF_DIRECTIONAL,
	                          .color = {1, 1, 1},
	                          .intensity = 5,
	                          .direction = dvec3_normalize((struct dvec3){-1, 0, -1})};
	light_add(scene, sg_scene_root(scene), &other);
	uint8_t *pixels = render(scene, CUBE_SIZE, NULL);
	expect_cube_faces(pixels, "cube and a light outside the view");
	free(pixels);
	sg_scene_destroy(scene);
}
END_TEST

/* --- depth ------------------------------------------------------------------------ */

#define SIZE 64

/* Quad A at z = 0 on the left and quad B at z = 1 on the right, overlapping
 * in the middle, in a view seen from the front: rendered with A first in the
 * tree (renders[0]) and with B first (renders[1]). With a material, unlit of
 * each colour in mode; without, the colours as 2D models have them. */
static void render_two_quads(const struct sg_camera *camera, const double a_colour[4],
                             const double b_colour[4], bool with_material,
                             enum sg_alpha_mode mode, uint8_t *renders[2])
{
	for (int order = 0; order < 2; order++) {
		struct sg_scene *scene = sg_scene_create();
		sg_node view = view_add(scene, sg_scene_root(scene), camera, NULL);
		sg_mesh a = quad_mesh(scene, (struct dvec3){-0.5, 0, 0}, (struct dvec3){1, 0, 0},
		                      (struct dvec3){0, 1, 0});
		sg_mesh b = quad_mesh(scene, (struct dvec3){0.5, 0, 1}, (struct dvec3){1, 0, 0},
		                      (struct dvec3){0, 1, 0});
		for (int k = 0; k < 2; k++) {
			bool is_a = (k == 0) == (order == 0);
			const double *colour = is_a ? a_colour : b_colour;
			sg_material material =
			    with_material ? unlit_new(scene, colour, mode) : SG_MATERIAL_NONE;
			sg_node model = model_add(scene, view, is_a ? a : b, material);
			if (!with_material)
				ck_assert_int_eq(sg_model_set_color(scene, model, (float)colour[0],
				                                    (float)colour[1], (float)colour[2],
				                                    (float)colour[3]),
				                 SG_OK);
		}
		renders[order] = render(scene, SIZE, NULL);
		sg_scene_destroy(scene);
	}
}

/* Quad A at z = 0 on the left, quad B at z = 1 on the right, overlapping in
 * the middle; added in the order given. _i: 0 unlit materials, 1 models
 * without one (their colours, as in 2D). */
START_TEST(test_nearer_quad_wins_whatever_the_order)
{
	static const double a_colour[4] = {0.9, 0.1, 0.1, 1}, b_colour[4] = {0.1, 0.2, 0.9, 1};
	const bool with_material = _i == 0;
	struct ref_camera ref = front_camera(SIZE);
	struct sg_camera camera = sg_camera_of(&ref);
	uint8_t *renders[2];
	render_two_quads(&camera, a_colour, b_colour, with_material, SG_ALPHA_OPAQUE, renders);
	expect_same_picture(renders[0], renders[1], SIZE, 0, "A first vs B first");
	uint8_t a_want[4], b_want[4];
	if (with_material) {
		unlit_bytes(a_colour, a_want);
		unlit_bytes(b_colour, b_want);
	} else {
		for (int c = 0; c < 3; c++) {
			a_want[c] = unit_to_byte(a_colour[c]);
			b_want[c] = unit_to_byte(b_colour[c]);
		}
		a_want[3] = b_want[3] = 255;
	}
	int x, y;
	for (int order = 0; order < 2; order++) {
		pixel_of(&ref, (struct dvec3){0, 0.3, 1}, &x, &y); /* the overlap, on B */
		expect_pixel(renders[order], SIZE, x, y, b_want, 1, "overlap: the nearer quad B");
		pixel_of(&ref, (struct dvec3){-1.2, -0.3, 0}, &x, &y);
		expect_pixel(renders[order], SIZE, x, y, a_want, 1, "A alone");
		pixel_of(&ref, (struct dvec3){1.2, -0.3, 1}, &x, &y);
		expect_pixel(renders[order], SIZE, x, y, b_want, 1, "B alone");
	}
	free(renders[0]);
	free(renders[1]);
}
END_TEST

START_TEST(test_intersecting_quads_are_resolved_per_pixel)
{
	/* Quad A at z = 0; quad B crosses it (z = -x / 2): in front on the left,
	 * behind on the right. Their bounds' centres are both the origin, so no
	 * model order can draw this: only the depth test. */
	static const double a_colour[4] = {0.9, 0.1, 0.1, 1}, b_colour[4] = {0.1, 0.8, 0.2, 1};
	struct ref_camera ref = front_camera(SIZE);
	struct sg_camera camera = sg_camera_of(&ref);
	uint8_t a_want[4], b_want[4];
	unlit_bytes(a_colour, a_want);
	unlit_bytes(b_colour, b_want);
	for (int order = 0; order < 2; order++) {
		struct sg_scene *scene = sg_scene_create();
		sg_node view = view_add(scene, sg_scene_root(scene), &camera, NULL);
		sg_mesh a = quad_mesh(scene, (struct dvec3){0, 0, 0}, (struct dvec3){1.5, 0, 0},
		                      (struct dvec3){0, 1, 0});
		sg_mesh b = quad_mesh(scene, (struct dvec3){0, 0, 0}, (struct dvec3){1.5, 0, -0.75},
		                      (struct dvec3){0, 0.8, 0});
		sg_material am = unlit_new(scene, a_colour, SG_ALPHA_OPAQUE);
		sg_material bm = unlit_new(scene, b_colour, SG_ALPHA_OPAQUE);
		if (order == 0) {
			model_add(scene, view, a, am);
			model_add(scene, view, b, bm);
		} else {
			model_add(scene, view, b, bm);
			model_add(scene, view, a, am);
		}
		uint8_t *pixels = render(scene, SIZE, NULL);
		int x, y;
		pixel_of(&ref, (struct dvec3){-0.8, 0.3, 0.4}, &x, &y);
		expect_pixel(pixels, SIZE, x, y, b_want, 1, "left: B in front");
		pixel_of(&ref, (struct dvec3){0.8, 0.3, 0}, &x, &y);
		expect_pixel(pixels, SIZE, x, y, a_want, 1, "right: A in front");
		pixel_of(&ref, (struct dvec3){0.8, 0.9, 0}, &x, &y);
		expect_pixel(pixels, SIZE, x, y, a_want, 1, "right, above B: A");
		free(pixels);
		sg_scene_destroy(scene);
	}
}
END_TEST

/* --- faces ------------------------------------------------------------------------- */

static const struct ref_material plain_material = {
    .base = {0.3, 0.7, 0.4, 1}, .metallic = 0.1, .roughness = 0.5, .occlusion = 1};
static const double plain_ambient[3] = {0.04, 0.04, 0.04};

static struct ref_light front_light(void)
{
	/* from the camera's side, above and to the right */
	return (struct ref_light){.type = REF_DIRECTIONAL,
	                          .color = {1, 1, 1},
	                          .intensity = 2,
	                          .direction = dvec3_normalize((struct dvec3){-0.3, -0.4, -1})};
}

/* The expected colour of pixel (x, y) on a surface in the plane z = depth
 * with normal (0, 0, 1) facing the camera. */
/* The expected colour of pixel (x, y) on a surface in the plane through
 * plane_point with normal (facing the camera). */
static void expect_lit_plane(const uint8_t *pixels, const struct ref_camera *camera, int x, int y,
                             struct dvec3 plane_point, struct dvec3 normal,
                             const struct ref_material *material, const struct ref_light *lights,
                             int light_count, const double ambient[3], const char *what)
{
	struct dvec3 hit;
	ck_assert(ref_camera_hit_plane(camera, x, y, plane_point, normal, &hit));
	double linear[3];
	ref_shade(material, hit, normal, camera->eye, NULL, lights, light_count, ambient, linear);
	for (int c = 0; c < 3; c++)
		ck_assert_msg(linear[c] < 0.95, "%s: the reference saturates", what);
	uint8_t want[4];
	ref_shade_bytes(material, hit, normal, camera->eye, lights, light_count, ambient, want);
	expect_pixel(pixels, camera->width, x, y, want, 2, what);
}

/* expect_lit_plane for the plane z = depth facing +Z. */
static void expect_lit_front(const uint8_t *pixels, const struct ref_camera *camera, int x, int y,
                             double depth, const struct ref_material *material,
                             const struct ref_light *lights, int light_count,
                             const double ambient[3], const char *what)
{
	expect_lit_plane(pixels, camera, x, y, (struct dvec3){0, 0, depth}, (struct dvec3){0, 0, 1},
	                 material, lights, light_count, ambient, what);
}

START_TEST(test_back_faces_culled_unless_double_sided)
{
	/* A quad wound clockwise as the camera sees it: its normal (0, 0, -1)
	 * points away. Single-sided: culled. Double-sided: drawn, lit with the
	 * normal flipped to (0, 0, 1), towards the light. */
	struct ref_camera ref = front_camera(SIZE);
	struct sg_camera camera = sg_camera_of(&ref);
	struct ref_light light = front_light();
	for (int double_sided = 0; double_sided < 2; double_sided++) {
		struct sg_scene *scene = sg_scene_create();
		sg_node view = view_add(scene, sg_scene_root(scene), &camera, plain_ambient);
		light_add(scene, view, &light);
		sg_mesh away = quad_mesh(scene, (struct dvec3){0, 0, 0}, (struct dvec3){0, 1, 0},
		                         (struct dvec3){1, 0, 0});
		model_add(scene, view, away,
		          material_new(scene, &plain_material,
		                       &(struct material_options){.double_sided = double_sided}));
		uint8_t *pixels = render(scene, SIZE, NULL);
		if (!double_sided) {
			expect_pixel(pixels, SIZE, SIZE / 2, SIZE / 2, clear_bytes, 0,
			             "a single-sided back face is culled");
		} else {
			expect_lit_front(pixels, &ref, SIZE / 2, SIZE / 2, 0, &plain_material,
			                 &light, 1, plain_ambient,
			                 "a double-sided back face, normal flipped");
			expect_lit_front(pixels, &ref, SIZE / 2 + 8, SIZE / 2 - 6, 0,
			                 &plain_material, &light, 1, plain_ambient,
			                 "a double-sided back face, normal flipped, off centre");
			/* without the flip it would get ambient alone: make sure that differs */
			uint8_t unflipped[4];
			ref_shade_bytes(&plain_material, (struct dvec3){0, 0, 0},
			                (struct dvec3){0, 0, -1}, ref.eye, &light, 1, plain_ambient,
			                unflipped);
			ck_assert(!near(pixel_at(pixels, SIZE, SIZE / 2, SIZE / 2), unflipped, 6));
		}
		free(pixels);
		sg_scene_destroy(scene);
	}
}
END_TEST

START_TEST(test_mirroring_swaps_front_faces)
{
	/* Under scale(-1, 1, 1) (determinant -1) glTF's front faces are the
	 * clockwise ones: a quad facing the camera before mirroring still does
	 * (and is lit, its normal unchanged by the mirror), one facing away still
	 * is culled. */
	struct ref_camera ref = front_camera(SIZE);
	struct sg_camera camera = sg_camera_of(&ref);
	struct ref_light light = front_light();
	for (int facing = 0; facing < 2; facing++) {
		struct sg_scene *scene = sg_scene_create();
		sg_node view = view_add(scene, sg_scene_root(scene), &camera, plain_ambient);
		light_add(scene, view, &light);
		sg_node mirror = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
		ck_assert_int_eq(sg_transform_scale(scene, mirror, -1, 1, 1), SG_OK);
		ck_assert_int_eq(sg_node_add_child(scene, view, mirror), SG_OK);
		sg_mesh quad = facing ? quad_mesh(scene, (struct dvec3){0, 0, 0},
		                                  (struct dvec3){1, 0, 0}, (struct dvec3){0, 1, 0})
		                      : quad_mesh(scene, (struct dvec3){0, 0, 0},
		                                  (struct dvec3){0, 1, 0}, (struct dvec3){1, 0, 0});
		model_add(scene, mirror, quad, material_new(scene, &plain_material, NULL));
		uint8_t *pixels = render(scene, SIZE, NULL);
		if (facing)
			expect_lit_front(pixels, &ref, SIZE / 2 - 5, SIZE / 2 + 3, 0,
			                 &plain_material, &light, 1, plain_ambient,
			                 "a mirrored quad facing the camera");
		else
			expect_pixel(pixels, SIZE, SIZE / 2, SIZE / 2, clear_bytes, 0,
			             "a mirrored quad facing away is culled");
		free(pixels);
		sg_scene_destroy(scene);
	}
}
END_TEST

/* --- alpha modes --------------------------------------------------------------------- */

START_TEST(test_mask_discards_below_the_cutoff)
{
	/* A 2 x 1 base colour texture: alpha 0.3 on the left, 0.8 on the right;
	 * an unlit MASK material with a factor that makes the sRGB decoding show.
	 * _i: 0 cutoff 0.5 over the clear colour, 1 cutoff 0.5 over a quad behind,
	 * 2 cutoff 0.9 (both halves discarded) over the quad behind. */
	static const uint8_t texels[8] = {200, 100, 50, 77, 60, 180, 220, 204};
	static const double factor[4] = {0.5, 0.8, 1.0, 1.0};
	static const double behind_colour[4] = {0.1, 0.1, 0.7, 1};
	const bool behind = _i >= 1;
	const float cutoff = _i == 2 ? 0.9f : 0.5f;
	struct ref_camera ref = front_camera(SIZE);
	struct sg_camera camera = sg_camera_of(&ref);
	struct sg_scene *scene = sg_scene_create();
	sg_node view = view_add(scene, sg_scene_root(scene), &camera, NULL);
	sg_texture texture = sg_texture_create(
	    scene, &(struct sg_texture_desc){.width = 2, .height = 1, .pixels = texels});
	ck_assert_msg(texture.generation, "%s", sg_last_error());
	struct ref_material ref_mask = {.base = {factor[0], factor[1], factor[2], factor[3]},
	                                .occlusion = 1};
	sg_material mask = material_new(
	    scene, &ref_mask,
	    &(struct material_options){.alpha_mode = SG_ALPHA_MASK,
	                               .alpha_cutoff = cutoff,
	                               .unlit = true,
	                               .base_color_texture = {.texture = texture, .uv_set = 0}});
	model_add(scene, view,
	          quad_mesh(scene, (struct dvec3){0, 0, 0}, (struct dvec3){1.2, 0, 0},
	                    (struct dvec3){0, 1, 0}),
	          mask);
	if (behind)
		model_add(scene, view,
		          quad_mesh(scene, (struct dvec3){0, 0, -1}, (struct dvec3){2.5, 0, 0},
		                    (struct dvec3){0, 2, 0}),
		          unlit_new(scene, behind_colour, SG_ALPHA_OPAQUE));
	uint8_t *pixels = render(scene, SIZE, NULL);
	uint8_t behind_want[4], opaque_want[4];
	unlit_bytes(behind_colour, behind_want);
	double base[4] = {0, 0, 0, 1};
	for (int c = 0; c < 3; c++)
		base[c] = factor[c] * srgb_decode(texels[4 + c] / 255.0);
	unlit_bytes(base, opaque_want); /* alpha 1 in MASK mode */
	const uint8_t *shows_behind = behind ? behind_want : clear_bytes;
	int x, y;
	for (int row = -1; row <= 1; row++) {
		pixel_of(&ref, (struct dvec3){-0.6, 0.5 * row, 0}, &x, &y);
		expect_pixel(pixels, SIZE, x, y, shows_behind, 1, "alpha 0.3: discarded");
		pixel_of(&ref, (struct dvec3){0.6, 0.5 * row, 0}, &x, &y);
		expect_pixel(pixels, SIZE, x, y, _i == 2 ? shows_behind : opaque_want, 1,
		             _i == 2 ? "alpha 0.8 under cutoff 0.9: discarded"
		                     : "alpha 0.8: kept, opaque");
	}
	free(pixels);
	sg_scene_destroy(scene);
}
END_TEST

/* Source-over of a premultiplied fragment (encoded colour times alpha) on a
 * framebuffer pixel, rounded to bytes as the framebuffer stores it. */
static void blend_over(const double encoded_rgb[3], double alpha, uint8_t dst[4])
{
	for (int c = 0; c < 3; c++)
		dst[c] = unit_to_byte(encoded_rgb[c] * alpha + dst[c] / 255.0 * (1 - alpha));
	dst[3] = unit_to_byte(alpha + dst[3] / 255.0 * (1 - alpha));
}

START_TEST(test_blend_draws_farthest_first)
{
	/* Two translucent quads, alpha 0.5: A at z = 0 on the left, B at z = 1
	 * on the right, overlapping in the middle. Whatever their order in the
	 * tree, B (nearer) is blended over A over the clear colour. _i: 0 unlit
	 * BLEND materials (encoded colours), 1 models without material with
	 * translucent colours (the 2D colours, no sRGB). */
	const bool with_material = _i == 0;
	static const double a_colour[4] = {0.9, 0.1, 0.1, 0.5}, b_colour[4] = {0.1, 0.9, 0.2, 0.5};
	struct ref_camera ref = front_camera(SIZE);
	struct sg_camera camera = sg_camera_of(&ref);
	uint8_t *renders[2];
	render_two_quads(&camera, a_colour, b_colour, with_material, SG_ALPHA_BLEND, renders);
	expect_same_picture(renders[0], renders[1], SIZE, 0, "A first vs B first");
	double a_encoded[3], b_encoded[3];
	for (int c = 0; c < 3; c++) {
		a_encoded[c] = with_material ? srgb_encode(a_colour[c]) : a_colour[c];
		b_encoded[c] = with_material ? srgb_encode(b_colour[c]) : b_colour[c];
	}
	uint8_t overlap[4], a_alone[4], b_alone[4];
	memcpy(overlap, clear_bytes, 4);
	blend_over(a_encoded, 0.5, overlap);
	blend_over(b_encoded, 0.5, overlap);
	memcpy(a_alone, clear_bytes, 4);
	blend_over(a_encoded, 0.5, a_alone);
	memcpy(b_alone, clear_bytes, 4);
	blend_over(b_encoded, 0.5, b_alone);
	/* the other order would be far off: the test can tell */
	uint8_t wrong[4];
	memcpy(wrong, clear_bytes, 4);
	blend_over(b_encoded, 0.5, wrong);
	blend_over(a_encoded, 0.5, wrong);
	ck_assert(!near(overlap, wrong, 10));
	int x, y;
	for (int order = 0; order < 2; order++) {
		pixel_of(&ref, (struct dvec3){0, 0.3, 1}, &x, &y);
		expect_pixel(renders[order], SIZE, x, y, overlap, 2, "overlap: B over A");
		pixel_of(&ref, (struct dvec3){-1.2, -0.3, 0}, &x, &y);
		expect_pixel(renders[order], SIZE, x, y, a_alone, 2, "A alone");
		pixel_of(&ref, (struct dvec3){1.2, -0.3, 1}, &x, &y);
		expect_pixel(renders[order], SIZE, x, y, b_alone, 2, "B alone");
	}
	free(renders[0]);
	free(renders[1]);
}
END_TEST

START_TEST(test_opacity_fades_an_opaque_material)
{
	/* A quad of an unlit OPAQUE material under a group of opacity 0.5: the
	 * opacities above fade a material as they fade 2D models, so the quad
	 * is blended at half its encoded colour over the clear colour. */
	static const double colour[4] = {0.9, 0.4, 0.1, 1};
	struct ref_camera ref = front_camera(SIZE);
	struct sg_camera camera = sg_camera_of(&ref);
	struct sg_scene *scene = sg_scene_create();
	sg_node view = view_add(scene, sg_scene_root(scene), &camera, NULL);
	sg_node fade = sg_node_new_group(scene, "fade");
	ck_assert_int_eq(sg_node_add_child(scene, view, fade), SG_OK);
	ck_assert_int_eq(sg_node_set_opacity(scene, fade, 0.5f), SG_OK);
	model_add(scene, fade,
	          quad_mesh(scene, (struct dvec3){0, 0, 0}, (struct dvec3){1, 0, 0},
	                    (struct dvec3){0, 1, 0}),
	          unlit_new(scene, colour, SG_ALPHA_OPAQUE));
	uint8_t *pixels = render(scene, SIZE, NULL);
	double encoded[3];
	for (int c = 0; c < 3; c++)
		encoded[c] = srgb_encode(colour[c]);
	uint8_t want[4], opaque[4];
	memcpy(want, clear_bytes, 4);
	blend_over(encoded, 0.5, want);
	unlit_bytes(colour, opaque);
	ck_assert(!near(want, opaque, 10)); /* an unfaded quad would be far off */
	int x, y;
	pixel_of(&ref, (struct dvec3){0, 0, 0}, &x, &y);
	expect_pixel(pixels, SIZE, x, y, want, 2, "opaque material under opacity 0.5");
	free(pixels);
	sg_scene_destroy(scene);
}
END_TEST

/* --- 2D and 3D together --------------------------------------------------------------- */

static sg_node quad2d_add(struct sg_scene *scene, sg_node parent, float x, float y, float w,
                          float h, const float rgba[4])
{
	sg_mesh mesh = sg_mesh_create_quad(scene, w, h);
	ck_assert_msg(mesh.generation, "%s", sg_last_error());
	sg_node model =
	    sg_node_new_model(scene, &(struct sg_model_desc){.mesh = mesh, .position = {x, y, 0}});
	ck_assert_int_eq(sg_model_set_color(scene, model, rgba[0], rgba[1], rgba[2], rgba[3]),
	                 SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, parent, model), SG_OK);
	return model;
}

START_TEST(test_2d_before_the_view_is_under_it_after_is_over)
{
	/* Root: a yellow 2D quad on the left half, the view (an unlit quad in the
	 * middle), a magenta 2D quad on the right. In output pixels (the render's
	 * camera is the pixel camera). */
	static const float yellow[4] = {1, 1, 0, 1}, magenta[4] = {1, 0, 1, 1};
	static const double middle_colour[4] = {0.2, 0.6, 0.3, 1};
	static const uint8_t yellow_bytes[4] = {255, 255, 0, 255},
	                     magenta_bytes[4] = {255, 0, 255, 255};
	struct ref_camera ref = front_camera(SIZE);
	struct sg_camera camera = sg_camera_of(&ref);
	struct sg_scene *scene = sg_scene_create();
	sg_node root = sg_scene_root(scene);
	quad2d_add(scene, root, 0, 0, 32, 64, yellow);
	sg_node view = view_add(scene, root, &camera, NULL);
	model_add(scene, view,
	          quad_mesh(scene, (struct dvec3){0, 0, 0}, (struct dvec3){1, 0, 0},
	                    (struct dvec3){0, 1, 0}),
	          unlit_new(scene, middle_colour, SG_ALPHA_OPAQUE));
	quad2d_add(scene, root, 40, 24, 16, 16, magenta);
	uint8_t *pixels = render(scene, SIZE, NULL);
	uint8_t middle[4];
	unlit_bytes(middle_colour, middle);
	int left, right, top, bottom; /* the 3D quad's pixels */
	pixel_of(&ref, (struct dvec3){-1, 1, 0}, &left, &top);
	pixel_of(&ref, (struct dvec3){1, -1, 0}, &right, &bottom);
	ck_assert(left > 8 && left < 24 && right > 44 && right < 56 && top > 8 && bottom < 56);
	expect_pixel(pixels, SIZE, left + 3, 32, middle, 1, "the view over the 2D quad before it");
	expect_pixel(pixels, SIZE, 4, 32, yellow_bytes, 0, "the 2D quad before, beside the view");
	expect_pixel(pixels, SIZE, right - 3, 30, magenta_bytes, 0,
	             "the 2D quad after, over the view");
	expect_pixel(pixels, SIZE, right + 3, 30, magenta_bytes, 0, "the 2D quad after, beside it");
	expect_pixel(pixels, SIZE, 36, 32, middle, 1, "the view alone");
	expect_pixel(pixels, SIZE, 60, 4, clear_bytes, 0, "nothing");
	free(pixels);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_viewport_places_the_picture)
{
	/* A view with the viewport x 16, y 8, 32 x 48 of the pixel camera: the
	 * picture fills that rectangle (NDC -1..1 onto it), a 2D quad before the
	 * view stays visible around it. */
	static const float grey[4] = {0.4f, 0.4f, 0.4f, 1};
	static const double quad_colour[4] = {0.7, 0.3, 0.5, 1};
	struct ref_camera ref = front_camera(SIZE);
	ref.aspect = 32.0 / 48.0;
	struct sg_camera camera = sg_camera_of(&ref);
	struct sg_scene *scene = sg_scene_create();
	sg_node root = sg_scene_root(scene);
	quad2d_add(scene, root, 0, 0, 64, 64, grey);
	sg_node view = sg_node_new_view3d(
	    scene, &(struct sg_view3d_desc){.camera = &camera, .viewport = {16, 8, 32, 48}});
	ck_assert_msg(view.generation, "%s", sg_last_error());
	ck_assert_int_eq(sg_node_add_child(scene, root, view), SG_OK);
	/* far larger than the frustum: it covers the whole viewport */
	model_add(scene, view,
	          quad_mesh(scene, (struct dvec3){0, 0, 0}, (struct dvec3){20, 0, 0},
	                    (struct dvec3){0, 20, 0}),
	          unlit_new(scene, quad_colour, SG_ALPHA_OPAQUE));
	/* a small dark quad in front, at a known point of the picture */
	static const double dot_colour[4] = {0.02, 0.02, 0.02, 1};
	model_add(scene, view,
	          quad_mesh(scene, (struct dvec3){0.6, 0.9, 1}, (struct dvec3){0.15, 0, 0},
	                    (struct dvec3){0, 0.15, 0}),
	          unlit_new(scene, dot_colour, SG_ALPHA_OPAQUE));
	uint8_t *pixels = render(scene, SIZE, NULL);
	uint8_t quad_want[4], dot_want[4];
	unlit_bytes(quad_colour, quad_want);
	unlit_bytes(dot_colour, dot_want);
	const uint8_t grey_bytes[4] = {102, 102, 102, 255};
	expect_pixel(pixels, SIZE, 17, 9, quad_want, 1, "the viewport's top-left corner");
	expect_pixel(pixels, SIZE, 46, 54, quad_want, 1, "the viewport's bottom-right corner");
	expect_pixel(pixels, SIZE, 14, 32, grey_bytes, 0, "left of the viewport");
	expect_pixel(pixels, SIZE, 50, 32, grey_bytes, 0, "right of the viewport");
	expect_pixel(pixels, SIZE, 32, 6, grey_bytes, 0, "above the viewport");
	expect_pixel(pixels, SIZE, 32, 57, grey_bytes, 0, "below the viewport");
	/* the dot: projected by the reference onto a 32 x 48 picture, moved by (16, 8) */
	struct ref_camera in_viewport = ref;
	in_viewport.width = 32;
	in_viewport.height = 48;
	int x, y;
	pixel_of(&in_viewport, (struct dvec3){0.6, 0.9, 1}, &x, &y);
	expect_pixel(pixels, SIZE, 16 + x, 8 + y, dot_want, 1, "a point of the picture");
	free(pixels);
	sg_scene_destroy(scene);
}
END_TEST

/* --- colours without light --------------------------------------------------------------- */

START_TEST(test_unlit_and_no_material_colours)
{
	/* Three quads side by side: an unlit material (encode(base)), a model
	 * without material (its colour as in 2D, no sRGB conversion), and one
	 * without material facing away with a texture (double-sided, colour
	 * times texel as in 2D). */
	static const double unlit_colour[4] = {0.5, 0.25, 0.75, 1};
	static const uint8_t texel[4] = {200, 100, 50, 255};
	struct ref_camera ref = front_camera(SIZE);
	struct sg_camera camera = sg_camera_of(&ref);
	struct sg_scene *scene = sg_scene_create();
	sg_node view = view_add(scene, sg_scene_root(scene), &camera, plain_ambient);
	struct ref_light light = front_light(); /* no effect on any of them */
	light_add(scene, view, &light);
	model_add(scene, view,
	          quad_mesh(scene, (struct dvec3){-1.2, 0, 0}, (struct dvec3){0.5, 0, 0},
	                    (struct dvec3){0, 1, 0}),
	          unlit_new(scene, unlit_colour, SG_ALPHA_OPAQUE));
	sg_node plain = model_add(scene, view,
	                          quad_mesh(scene, (struct dvec3){0, 0, 0},
	                                    (struct dvec3){0.5, 0, 0}, (struct dvec3){0, 1, 0}),
	                          SG_MATERIAL_NONE);
	ck_assert_int_eq(sg_model_set_color(scene, plain, 0.5f, 0.25f, 0.75f, 1), SG_OK);
	sg_texture texture = sg_texture_create(
	    scene, &(struct sg_texture_desc){.width = 1, .height = 1, .pixels = texel});
	sg_node textured = model_add(scene, view,
	                             quad_mesh(scene, (struct dvec3){1.2, 0, 0},
	                                       (struct dvec3){0, 1, 0}, (struct dvec3){0.5, 0, 0}),
	                             SG_MATERIAL_NONE);
	ck_assert_int_eq(sg_model_set_texture(scene, textured, texture), SG_OK);
	ck_assert_int_eq(sg_model_set_color(scene, textured, 0.5f, 0.5f, 0.5f, 1), SG_OK);
	ck_assert(!sg_model_get_material(scene, plain).generation);
	uint8_t *pixels = render(scene, SIZE, NULL);
	uint8_t unlit_want[4];
	unlit_bytes(unlit_colour, unlit_want); /* 188 137 225 */
	const uint8_t plain_want[4] = {128, 64, 191, 255};
	const uint8_t textured_want[4] = {100, 50, 25, 255};
	int x, y;
	pixel_of(&ref, (struct dvec3){-1.2, 0.2, 0}, &x, &y);
	expect_pixel(pixels, SIZE, x, y, unlit_want, 1, "unlit: encode(base colour)");
	pixel_of(&ref, (struct dvec3){0, 0.2, 0}, &x, &y);
	expect_pixel(pixels, SIZE, x, y, plain_want, 1, "no material: the 2D colour");
	pixel_of(&ref, (struct dvec3){1.2, 0.2, 0}, &x, &y);
	expect_pixel(pixels, SIZE, x, y, textured_want, 1,
	             "no material, facing away: double-sided, colour times texel");
	free(pixels);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_emissive_adds_to_the_light)
{
	/* A lit quad facing the camera with an emissive factor, under the front
	 * light: the emissive term adds after the lights and ambient. */
	struct ref_material glowing = plain_material;
	glowing.emissive[0] = 0.2;
	glowing.emissive[2] = 0.1;
	struct ref_camera ref = front_camera(SIZE);
	struct sg_camera camera = sg_camera_of(&ref);
	struct ref_light light = front_light();
	struct sg_scene *scene = sg_scene_create();
	sg_node view = view_add(scene, sg_scene_root(scene), &camera, plain_ambient);
	light_add(scene, view, &light);
	model_add(scene, view,
	          quad_mesh(scene, (struct dvec3){0, 0, 0}, (struct dvec3){1, 0, 0},
	                    (struct dvec3){0, 1, 0}),
	          material_new(scene, &glowing, NULL));
	uint8_t *pixels = render(scene, SIZE, NULL);
	expect_lit_front(pixels, &ref, 30, 34, 0, &glowing, &light, 1, plain_ambient,
	                 "emissive plus light");
	free(pixels);
	sg_scene_destroy(scene);
}
END_TEST

/* --- meshes ----------------------------------------------------------------------------- */

static sg_mesh cube8_flat_u32(struct sg_scene *scene)
{
	return cube8_mesh(scene, SG_INDEX_U32, SG_NORMALS_FLAT);
}

static sg_mesh cube8_auto_u32(struct sg_scene *scene)
{
	return cube8_mesh(scene, SG_INDEX_U32, SG_NORMALS_AUTO);
}

static sg_mesh cube8_flat_u16(struct sg_scene *scene)
{
	return cube8_mesh(scene, SG_INDEX_U16, SG_NORMALS_FLAT);
}

/* The 24-vertex cube given wrong normals (all +Y) with FLAT: they are
 * replaced by the triangles' own. */
static sg_mesh cube24_wrong_normals_flat(struct sg_scene *scene)
{
	float wrong[72];
	for (int i = 0; i < 24; i++)
		wrong[i * 3] = 0, wrong[i * 3 + 1] = 1, wrong[i * 3 + 2] = 0;
	return cube24_mesh(scene, wrong, SG_NORMALS_FLAT);
}

START_TEST(test_computed_flat_normals_equal_given_ones)
{
	struct ref_camera ref = cube_camera();
	struct sg_camera camera = sg_camera_of(&ref);
	struct sg_scene *scene = cube_scene(cube24_explicit, &camera);
	uint8_t *given = render(scene, CUBE_SIZE, NULL);
	sg_scene_destroy(scene);
	struct {
		sg_mesh (*make)(struct sg_scene *);
		const char *name;
	} cases[] = {
	    {cube8_flat_u32, "8 shared vertices, FLAT"},
	    {cube8_auto_u32, "8 shared vertices without normals, AUTO"},
	    {cube8_flat_u16, "8 shared vertices, FLAT, 16-bit indices"},
	    {cube24_wrong_normals_flat, "24 vertices with wrong normals, FLAT"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		scene = cube_scene(cases[i].make, &camera);
		uint8_t *pixels = render(scene, CUBE_SIZE, NULL);
		expect_cube_faces(pixels, cases[i].name);
		expect_same_picture(pixels, given, CUBE_SIZE, 1, cases[i].name);
		free(pixels);
		sg_scene_destroy(scene);
	}
	free(given);
}
END_TEST

static sg_mesh cube8_given_normals(struct sg_scene *scene, enum sg_index_type index_type)
{
	/* the 8 corners with their own (diagonal) normals, drawn as given */
	float positions[24], normals[24];
	uint32_t indices[36];
	uint16_t indices16[36];
	cube8(positions, indices);
	for (int i = 0; i < 24; i++)
		normals[i] = positions[i] / sqrtf(0.75f);
	for (int i = 0; i < 36; i++)
		indices16[i] = (uint16_t)indices[i];
	return mesh_new(scene, &(struct sg_mesh3d_desc){.vertex_count = 8,
	                                                .positions = positions,
	                                                .normals = normals,
	                                                .indices = index_type == SG_INDEX_U16
	                                                               ? (const void *)indices16
	                                                               : (const void *)indices,
	                                                .index_type = index_type,
	                                                .index_count = 36});
}

static sg_mesh cube8_given_u16(struct sg_scene *scene)
{
	return cube8_given_normals(scene, SG_INDEX_U16);
}

static sg_mesh cube8_given_u32(struct sg_scene *scene)
{
	return cube8_given_normals(scene, SG_INDEX_U32);
}

START_TEST(test_16_bit_indices_draw_as_32_bit)
{
	/* Shared vertices with smooth-looking normals: every index matters. */
	struct ref_camera ref = cube_camera();
	struct sg_camera camera = sg_camera_of(&ref);
	struct sg_scene *scene = cube_scene(cube8_given_u32, &camera);
	uint8_t *wide = render(scene, CUBE_SIZE, NULL);
	sg_scene_destroy(scene);
	scene = cube_scene(cube8_given_u16, &camera);
	uint8_t *narrow = render(scene, CUBE_SIZE, NULL);
	sg_scene_destroy(scene);
	expect_same_picture(wide, narrow, CUBE_SIZE, 0, "16-bit vs 32-bit indices");
	/* and it is a cube: not the clear colour at the +Y face's centre */
	int x, y;
	pixel_of(&ref, (struct dvec3){0, 0.5, 0}, &x, &y);
	ck_assert(!near(pixel_at(wide, CUBE_SIZE, x, y), clear_bytes, 10));
	free(wide);
	free(narrow);
}
END_TEST

START_TEST(test_mesh_bounds)
{
	struct sg_scene *scene = sg_scene_create();
	sg_mesh cube = cube8_mesh(scene, SG_INDEX_U16, SG_NORMALS_AUTO);
	float bounds[6];
	ck_assert_int_eq(sg_mesh_get_bounds(scene, cube, bounds), SG_OK);
	for (int i = 0; i < 3; i++) {
		ck_assert_float_eq(bounds[i], -0.5f);
		ck_assert_float_eq(bounds[3 + i], 0.5f);
	}
	sg_mesh quad = quad_mesh(scene, (struct dvec3){1, 2, 3}, (struct dvec3){0.5, 0, 0},
	                         (struct dvec3){0, 0.25, 0});
	ck_assert_int_eq(sg_mesh_get_bounds(scene, quad, bounds), SG_OK);
	const float want[6] = {0.5f, 1.75f, 3, 1.5f, 2.25f, 3};
	for (int i = 0; i < 6; i++)
		ck_assert_float_eq_tol(bounds[i], want[i], 1e-6f);
	sg_scene_destroy(scene);
}
END_TEST

static void expect_mesh_refused(struct sg_scene *scene, const struct sg_mesh3d_desc *desc,
                                const char *what)
{
	sg_mesh mesh = sg_mesh_create_3d(scene, desc);
	ck_assert_msg(!mesh.generation, "%s: accepted", what);
	ck_assert_msg(sg_last_result() == SG_ERR_INVALID_ARGUMENT, "%s: %s (%s)", what,
	              sg_result_name(sg_last_result()), sg_last_error());
	ck_assert_msg(sg_last_error()[0], "%s: no message", what);
}

START_TEST(test_invalid_meshes_are_refused)
{
	struct sg_scene *scene = sg_scene_create();
	float positions[24];
	uint32_t indices[36];
	cube8(positions, indices);
	const struct sg_mesh3d_desc good = {.vertex_count = 8,
	                                    .positions = positions,
	                                    .indices = indices,
	                                    .index_type = SG_INDEX_U32,
	                                    .index_count = 36};
	ck_assert(sg_mesh_create_3d(scene, &good).generation);

	struct sg_mesh3d_desc desc = good;
	desc.positions = NULL;
	expect_mesh_refused(scene, &desc, "no positions");

	uint32_t past[36];
	memcpy(past, indices, sizeof(past));
	past[17] = 8;
	desc = good;
	desc.indices = past;
	expect_mesh_refused(scene, &desc, "an index past the vertices");

	uint16_t past16[3] = {0, 1, 8};
	desc = good;
	desc.indices = past16;
	desc.index_type = SG_INDEX_U16;
	desc.index_count = 3;
	expect_mesh_refused(scene, &desc, "a 16-bit index past the vertices");

	desc = good;
	desc.index_count = 35;
	expect_mesh_refused(scene, &desc, "an index count not a multiple of 3");

	desc = good;
	desc.indices = NULL;
	desc.index_type = SG_INDEX_NONE;
	desc.index_count = 0;
	desc.vertex_count = 7; /* vertices in order: 7 is not whole triangles */
	expect_mesh_refused(scene, &desc, "a vertex count not a multiple of 3 without indices");

	float nan_positions[24];
	memcpy(nan_positions, positions, sizeof(nan_positions));
	nan_positions[10] = NAN;
	desc = good;
	desc.positions = nan_positions;
	expect_mesh_refused(scene, &desc, "a NaN position");

	float normals[24];
	for (int i = 0; i < 24; i++)
		normals[i] = i % 3 == 1 ? 1.0f : 0.0f;
	normals[5] = INFINITY;
	desc = good;
	desc.normals = normals;
	expect_mesh_refused(scene, &desc, "an infinite normal");

	float uvs[16] = {0};
	uvs[3] = NAN;
	desc = good;
	desc.uv0 = uvs;
	expect_mesh_refused(scene, &desc, "a NaN uv");
	sg_scene_destroy(scene);
}
END_TEST

/* --- materials and lights as data ---------------------------------------------------------- */

START_TEST(test_material_defaults_and_refusals)
{
	struct sg_material_desc desc;
	memset(&desc, 0x55, sizeof(desc));
	sg_material_desc_init(&desc);
	for (int c = 0; c < 4; c++)
		ck_assert_float_eq(desc.base_color[c], 1);
	ck_assert_float_eq(desc.metallic, 1);
	ck_assert_float_eq(desc.roughness, 1);
	ck_assert_float_eq(desc.normal_scale, 1);
	ck_assert_float_eq(desc.occlusion_strength, 1);
	ck_assert_float_eq(desc.alpha_cutoff, 0.5f);
	ck_assert_int_eq(desc.alpha_mode, SG_ALPHA_OPAQUE);
	ck_assert(!desc.double_sided && !desc.unlit);
	ck_assert(!desc.base_color_texture.texture.generation);
	for (int c = 0; c < 3; c++)
		ck_assert_float_eq(desc.emissive[c], 0);

	struct sg_scene *scene = sg_scene_create();
	struct sg_material_desc bad = desc;
	bad.metallic = 1.5f;
	ck_assert(!sg_material_create(scene, &bad).generation);
	ck_assert_int_eq(sg_last_result(), SG_ERR_INVALID_ARGUMENT);
	bad = desc;
	bad.roughness = NAN;
	ck_assert(!sg_material_create(scene, &bad).generation);
	ck_assert_int_eq(sg_last_result(), SG_ERR_INVALID_ARGUMENT);
	bad = desc;
	bad.base_color[3] = -0.1f;
	ck_assert(!sg_material_create(scene, &bad).generation);
	ck_assert_int_eq(sg_last_result(), SG_ERR_INVALID_ARGUMENT);
	static const uint8_t white[4] = {255, 255, 255, 255};
	sg_texture texture = sg_texture_create(
	    scene, &(struct sg_texture_desc){.width = 1, .height = 1, .pixels = white});
	bad = desc;
	bad.base_color_texture = (struct sg_material_texture){.texture = texture, .uv_set = 2};
	ck_assert(!sg_material_create(scene, &bad).generation);
	ck_assert_int_eq(sg_last_result(), SG_ERR_INVALID_ARGUMENT);
	bad.base_color_texture = (struct sg_material_texture){
	    .texture = texture, .sampler = {.wrap_t = SG_SAMPLER_MIRRORED_REPEAT + 1}};
	ck_assert(!sg_material_create(scene, &bad).generation);
	ck_assert_int_eq(sg_last_result(), SG_ERR_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "base_color_texture.sampler wrap"));
	bad.base_color_texture = (struct sg_material_texture){
	    .texture = texture, .sampler = {.min_filter = (enum sg_sampler_filter) - 1}};
	ck_assert(!sg_material_create(scene, &bad).generation);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "base_color_texture.sampler filter"));

	sg_material good = sg_material_create(scene, &desc);
	ck_assert(sg_material_exists(scene, good));
	ck_assert_int_eq(sg_material_destroy(scene, good), SG_OK);
	ck_assert(!sg_material_exists(scene, good));
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_destroyed_material_fails_the_render)
{
	struct ref_camera ref = front_camera(SIZE);
	struct sg_camera camera = sg_camera_of(&ref);
	struct sg_scene *scene = sg_scene_create();
	sg_node view = view_add(scene, sg_scene_root(scene), &camera, NULL);
	sg_material material = material_new(scene, &plain_material, NULL);
	sg_node model = model_add(scene, view,
	                          quad_mesh(scene, (struct dvec3){0, 0, 0}, (struct dvec3){1, 0, 0},
	                                    (struct dvec3){0, 1, 0}),
	                          material);
	ck_assert(sg_model_get_material(scene, model).generation == material.generation);
	struct sg_renderer *renderer = renderer_new(SIZE);
	ck_assert_msg(sg_renderer_render(renderer, scene, NULL) == SG_OK, "%s", sg_last_error());
	ck_assert_int_eq(sg_material_destroy(scene, material), SG_OK);
	ck_assert_int_ne(sg_renderer_render(renderer, scene, NULL), SG_OK);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_too_many_lights_fail_the_render)
{
	/* A ninth light in one view is refused when it is attached, naming it
	 * and the view once each (the render used to find out, and to name the
	 * view twice); the eight render. */
	struct ref_camera ref = front_camera(SIZE);
	struct sg_camera camera = sg_camera_of(&ref);
	struct sg_scene *scene = sg_scene_create();
	sg_node view = view_add(scene, sg_scene_root(scene), &camera, NULL);
	ck_assert_int_eq(sg_node_set_name(scene, view, "stage"), SG_OK);
	model_add(scene, view,
	          quad_mesh(scene, (struct dvec3){0, 0, 0}, (struct dvec3){1, 0, 0},
	                    (struct dvec3){0, 1, 0}),
	          material_new(scene, &plain_material, NULL));
	struct ref_light light = front_light();
	light.intensity = 0.1;
	for (int i = 0; i < SG_VIEW3D_MAX_LIGHTS; i++)
		light_add(scene, view, &light);
	struct sg_renderer *renderer = renderer_new(SIZE);
	ck_assert_msg(sg_renderer_render(renderer, scene, NULL) == SG_OK, "%s", sg_last_error());
	sg_node ninth = sg_node_new_light(
	    scene, &(struct sg_light_desc){.name = "lamp", .color = {1, 1, 1}, .intensity = 1});
	ck_assert_int_eq(sg_node_add_child(scene, view, ninth), SG_ERR_LIMIT);
	ck_assert_str_eq(sg_last_error(), "light 'lamp' would be light 9 of 3D view 'stage', more "
	                                  "than SG_VIEW3D_MAX_LIGHTS (8)");
	/* under a group, attached later: the same */
	sg_node group = sg_node_new_group(scene, "lamps");
	ck_assert_int_eq(sg_node_add_child(scene, group, ninth), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, view, group), SG_ERR_LIMIT);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "light 'lamp' would be light 9"));
	ck_assert_int_eq(sg_node_insert_child(scene, view, 0, group), SG_ERR_LIMIT);
	/* under no view it lights nothing, and counts against none */
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), group), SG_OK);
	ck_assert_int_eq(sg_node_reparent(scene, group, view), SG_ERR_LIMIT);
	/* one of the eight moved within the view is not counted twice */
	sg_node shelf = sg_node_new_group(scene, "shelf");
	ck_assert_int_eq(sg_node_add_child(scene, view, shelf), SG_OK);
	sg_node first = sg_node_first_child(scene, view);
	while (sg_node_get_kind(scene, first) != SG_NODE_TRANSFORM)
		first = sg_node_next_sibling(scene, first);
	ck_assert_msg(sg_node_reparent(scene, first, shelf) == SG_OK, "%s", sg_last_error());
	/* in a view nested in it, a light is the nested view's */
	sg_node nested = view_add(scene, view, NULL, NULL);
	ck_assert_int_eq(sg_node_reparent(scene, group, nested), SG_OK);
	ck_assert_msg(sg_renderer_render(renderer, scene, NULL) == SG_OK, "%s", sg_last_error());
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
}
END_TEST

/* --- point and spot lights ---------------------------------------------------------------- */

#define LIGHTS_SIZE 96

static struct ref_camera lights_camera(void)
{
	return (struct ref_camera){.eye = {0, 0, 6},
	                           .center = {0, 0, 0},
	                           .up = {0, 1, 0},
	                           .fovy = M_PI / 3,
	                           .aspect = 1,
	                           .width = LIGHTS_SIZE,
	                           .height = LIGHTS_SIZE};
}

/* A 6 x 6 quad at z = 0 facing the camera, lit by light alone (and ambient). */
static uint8_t *render_lit_floor(const struct ref_light *light)
{
	struct ref_camera ref = lights_camera();
	struct sg_camera camera = sg_camera_of(&ref);
	struct sg_scene *scene = sg_scene_create();
	sg_node view = view_add(scene, sg_scene_root(scene), &camera, plain_ambient);
	light_add(scene, view, light);
	model_add(scene, view,
	          quad_mesh(scene, (struct dvec3){0, 0, 0}, (struct dvec3){3, 0, 0},
	                    (struct dvec3){0, 3, 0}),
	          material_new(scene, &plain_material, NULL));
	uint8_t *pixels = render(scene, LIGHTS_SIZE, NULL);
	sg_scene_destroy(scene);
	return pixels;
}

/* Checks the pixel where point (on the floor) lands against the reference. */
static void expect_floor(const uint8_t *pixels, const struct ref_light *light, struct dvec3 point,
                         const char *what)
{
	struct ref_camera ref = lights_camera();
	int x, y;
	pixel_of(&ref, point, &x, &y);
	expect_lit_front(pixels, &ref, x, y, 0, &plain_material, light, 1, plain_ambient, what);
}

START_TEST(test_point_light_with_range)
{
	struct ref_light light = {.type = REF_POINT,
	                          .color = {1, 0.95, 0.9},
	                          .intensity = 4,
	                          .range = 4,
	                          .position = {1, 0.5, 1.5},
	                          .direction = {0, 0, -1}};
	uint8_t *pixels = render_lit_floor(&light);
	expect_floor(pixels, &light, (struct dvec3){1, 0.5, 0}, "under the light (d 1.5)");
	expect_floor(pixels, &light, (struct dvec3){-1.5, -1, 0},
	             "far from the light (d 3.3, range attenuation 0.55)");
	expect_floor(pixels, &light, (struct dvec3){-2.5, -2.5, 0}, "out of range (d 4.85)");
	/* the out-of-range pixel has ambient alone: no light at all */
	struct ref_light none = light;
	none.intensity = 0;
	expect_floor(pixels, &none, (struct dvec3){-2.5, -2.5, 0}, "out of range: ambient alone");
	/* and the near pixel is far from it: the light does something */
	struct ref_camera ref = lights_camera();
	int x, y;
	pixel_of(&ref, (struct dvec3){1, 0.5, 0}, &x, &y);
	uint8_t dark[4];
	ref_shade_bytes(&plain_material, (struct dvec3){1, 0.5, 0}, (struct dvec3){0, 0, 1},
	                ref.eye, &none, 1, plain_ambient, dark);
	ck_assert(!near(pixel_at(pixels, LIGHTS_SIZE, x, y), dark, 30));
	free(pixels);
}
END_TEST

START_TEST(test_spot_light_cones)
{
	/* Inner cone 0.3, outer 0.5 radians, no range. _i: 0 at (0, 0, 2)
	 * shining down -Z (the transform's rotation is the identity); 1 at
	 * (-1, 0.5, 2) turned to shine at the origin, so the cone follows the
	 * node's -Z axis. */
	const bool tilted = _i == 1;
	struct ref_light light = {.type = REF_SPOT,
	                          .color = {1, 1, 1},
	                          .intensity = 6,
	                          .position = {0, 0, 2},
	                          .direction = {0, 0, -1},
	                          .inner_cone = 0.3,
	                          .outer_cone = 0.5};
	if (tilted) {
		light.position = (struct dvec3){-1, 0.5, 2};
		light.direction = dvec3_normalize((struct dvec3){1, -0.5, -2});
	}
	uint8_t *pixels = render_lit_floor(&light);
	/* the points at their angles from the cone's axis */
	const struct dvec3 inside =
	    tilted ? (struct dvec3){0.2, 0.1, 0} : (struct dvec3){0.3, 0.2, 0};
	const struct dvec3 between =
	    tilted ? (struct dvec3){0.3, -1.2, 0} : (struct dvec3){0.8, 0.2, 0};
	const struct dvec3 outside =
	    tilted ? (struct dvec3){-0.5, 1.2, 0} : (struct dvec3){1.5, 0.5, 0};
	const struct dvec3 checks[3] = {inside, between, outside};
	const double angle_ranges[3][2] = {{0, 0.3}, {0.3, 0.5}, {0.5, 1.6}};
	for (int i = 0; i < 3; i++) {
		struct dvec3 to_point = dvec3_normalize(dvec3_sub(checks[i], light.position));
		double angle = acos(dvec3_dot(to_point, light.direction));
		ck_assert_msg(angle > angle_ranges[i][0] + 0.02 &&
		                  angle < angle_ranges[i][1] - 0.02,
		              "check %d is at %f radians: a mistake in the test", i, angle);
	}
	expect_floor(pixels, &light, inside, "inside the inner cone");
	expect_floor(pixels, &light, between, "between the cones");
	expect_floor(pixels, &light, outside, "outside the outer cone");
	struct ref_light none = light;
	none.intensity = 0;
	expect_floor(pixels, &none, outside, "outside the outer cone: ambient alone");
	expect_floor(pixels, &none, (struct dvec3){-2, 2, 0}, "far outside: ambient alone");
	free(pixels);
}
END_TEST

/* --- more inputs of the shading ------------------------------------------------------------ */

static sg_texture texture_new(struct sg_scene *scene, int width, int height, const uint8_t *texels)
{
	sg_texture texture = sg_texture_create(
	    scene, &(struct sg_texture_desc){.width = width, .height = height, .pixels = texels});
	ck_assert_msg(texture.generation, "%s", sg_last_error());
	return texture;
}

START_TEST(test_vertex_colours_and_uv_sets)
{
	/* Unlit quads: vertex colours multiply the base colour (linear, before
	 * encoding); a base colour texture reads the uv set it names. The 2 x 1
	 * texture is opaque: left texel one colour, right another; the mesh's
	 * uv0 points at the left texel everywhere, its uv1 at the right one. */
	static const float colors[16] = {0.5f, 1, 0.8f, 1, 0.5f, 1, 0.8f, 1,
	                                 0.5f, 1, 0.8f, 1, 0.5f, 1, 0.8f, 1};
	static const float uv_left[8] = {0.25f, 0.5f, 0.25f, 0.5f, 0.25f, 0.5f, 0.25f, 0.5f};
	static const float uv_right[8] = {0.75f, 0.5f, 0.75f, 0.5f, 0.75f, 0.5f, 0.75f, 0.5f};
	static const uint8_t texels[8] = {230, 40, 40, 255, 40, 60, 230, 255};
	static const double base[4] = {0.8, 0.6, 1.0, 1};
	struct ref_camera ref = front_camera(SIZE);
	struct sg_camera camera = sg_camera_of(&ref);
	struct sg_scene *scene = sg_scene_create();
	sg_node view = view_add(scene, sg_scene_root(scene), &camera, NULL);
	const struct dvec3 u = {0.5, 0, 0}, v = {0, 1, 0};
	model_add(scene, view,
	          quad_mesh_with(scene, (struct dvec3){-1.2, 0, 0}, u, v,
	                         &(struct quad_attributes){.colors = colors}),
	          unlit_new(scene, base, SG_ALPHA_OPAQUE));
	sg_texture texture = texture_new(scene, 2, 1, texels);
	struct ref_material ref_white = {.base = {1, 1, 1, 1}, .occlusion = 1};
	for (unsigned set = 0; set < 2; set++)
		model_add(
		    scene, view,
		    quad_mesh_with(scene, (struct dvec3){set ? 0 : 1.2, 0, 0}, u, v,
		                   &(struct quad_attributes){.uv0 = uv_left, .uv1 = uv_right}),
		    material_new(scene, &ref_white,
		                 &(struct material_options){
		                     .unlit = true,
		                     .base_color_texture = {.texture = texture, .uv_set = set}}));
	uint8_t *pixels = render(scene, SIZE, NULL);
	const double tinted[4] = {base[0] * 0.5, base[1] * 1, base[2] * 0.8, 1};
	uint8_t tinted_want[4];
	unlit_bytes(tinted, tinted_want);
	const uint8_t left_want[4] = {texels[0], texels[1], texels[2], 255};
	const uint8_t right_want[4] = {texels[4], texels[5], texels[6], 255};
	int x, y;
	pixel_of(&ref, (struct dvec3){-1.2, 0.3, 0}, &x, &y);
	expect_pixel(pixels, SIZE, x, y, tinted_want, 1, "base colour times vertex colour");
	pixel_of(&ref, (struct dvec3){0, 0.3, 0}, &x, &y);
	expect_pixel(pixels, SIZE, x, y, right_want, 1, "uv set 1: the right texel");
	pixel_of(&ref, (struct dvec3){1.2, 0.3, 0}, &x, &y);
	expect_pixel(pixels, SIZE, x, y, left_want, 1, "uv set 0: the left texel");
	free(pixels);
	sg_scene_destroy(scene);
}
END_TEST

/* One lit quad facing the front camera with options' textures; _i picks:
 * 0 an occlusion texture (ambient only, no light), 1 a metallic-roughness
 * texture (front light), 2 an emissive texture (no light, no ambient). */
START_TEST(test_material_textures)
{
	static const uint8_t occlusion_texel[4] = {128, 7, 9, 255};
	static const uint8_t metallic_roughness_texel[4] = {10, 153, 102, 255};
	static const uint8_t emissive_texel[4] = {200, 50, 100, 255};
	struct ref_camera ref = front_camera(SIZE);
	struct sg_camera camera = sg_camera_of(&ref);
	struct sg_scene *scene = sg_scene_create();
	struct ref_light light = front_light();
	struct material_options options = {0};
	struct ref_material given, expected; /* what the material is given, what it means */
	double ambient[3] = {0, 0, 0};
	int light_count = 0;
	const char *what = NULL;
	switch (_i) {
	case 0:
		ambient[0] = ambient[1] = ambient[2] = 0.3;
		given = (struct ref_material){
		    .base = {0.8, 0.6, 0.4, 1}, .roughness = 1, .occlusion = 1};
		options.occlusion_texture.texture = texture_new(scene, 1, 1, occlusion_texel);
		options.occlusion_strength = 0.5f;
		expected = given;
		expected.occlusion = 1 + 0.5 * (occlusion_texel[0] / 255.0 - 1);
		what = "ambient times occlusion (linear R, strength 0.5)";
		break;
	case 1:
		memcpy(ambient, plain_ambient, sizeof(ambient));
		light_count = 1;
		given = plain_material;
		given.metallic = given.roughness = 1;
		options.metallic_roughness_texture.texture =
		    texture_new(scene, 1, 1, metallic_roughness_texel);
		expected = given;
		expected.metallic = metallic_roughness_texel[2] / 255.0;
		expected.roughness = metallic_roughness_texel[1] / 255.0;
		what = "metallic from B, roughness from G";
		break;
	default:
		given = (struct ref_material){.base = {0.2, 0.2, 0.2, 1},
		                              .roughness = 1,
		                              .emissive = {0.5, 1, 0.2},
		                              .occlusion = 1};
		options.emissive_texture.texture = texture_new(scene, 1, 1, emissive_texel);
		expected = given;
		for (int c = 0; c < 3; c++)
			expected.emissive[c] =
			    given.emissive[c] * srgb_decode(emissive_texel[c] / 255.0);
		what = "emissive factor times decode(texel)";
		break;
	}
	sg_node view = view_add(scene, sg_scene_root(scene), &camera, ambient);
	if (light_count)
		light_add(scene, view, &light);
	model_add(scene, view,
	          quad_mesh(scene, (struct dvec3){0, 0, 0}, (struct dvec3){1, 0, 0},
	                    (struct dvec3){0, 1, 0}),
	          material_new(scene, &given, &options));
	uint8_t *pixels = render(scene, SIZE, NULL);
	expect_lit_front(pixels, &ref, 32, 32, 0, &expected, &light, light_count, ambient, what);
	expect_lit_front(pixels, &ref, 22, 40, 0, &expected, &light, light_count, ambient, what);
	/* the texture changes the picture: without it the colour is another */
	uint8_t without[4];
	ref_shade_bytes(&given, (struct dvec3){0, 0, 0}, (struct dvec3){0, 0, 1}, ref.eye, &light,
	                light_count, ambient, without);
	ck_assert_msg(!near(pixel_at(pixels, SIZE, 32, 32), without, 6), "%s: no effect", what);
	free(pixels);
	sg_scene_destroy(scene);
}
END_TEST

/* The first frame uploads every texture of a material: each upload must
 * land on its own unit. Unlit, the base colour texel alone decides the
 * colour, whatever the other (distinct, never drawn) textures hold; one
 * texture serves two slots, as glTF's occlusion and metallic-roughness
 * often do (AlphaBlendModeTest's bed drew with its ORM image). */
START_TEST(test_first_frame_binds_each_texture_to_its_unit)
{
	static const uint8_t base_texel[4] = {230, 40, 40, 255};
	static const uint8_t orm_texel[4] = {250, 80, 2, 255};
	static const uint8_t normal_texel[4] = {128, 128, 255, 255};
	static const uint8_t emissive_texel[4] = {10, 250, 10, 255};
	struct ref_camera ref = front_camera(SIZE);
	struct sg_camera camera = sg_camera_of(&ref);
	struct sg_scene *scene = sg_scene_create();
	sg_node view = view_add(scene, sg_scene_root(scene), &camera, NULL);
	sg_texture orm = texture_new(scene, 1, 1, orm_texel);
	struct ref_material white = {.base = {1, 1, 1, 1}, .occlusion = 1};
	model_add(scene, view,
	          quad_mesh(scene, (struct dvec3){0, 0, 0}, (struct dvec3){1, 0, 0},
	                    (struct dvec3){0, 1, 0}),
	          material_new(
	              scene, &white,
	              &(struct material_options){
	                  .unlit = true,
	                  .base_color_texture = {.texture = texture_new(scene, 1, 1, base_texel),
	                                         .uv_set = 0},
	                  .metallic_roughness_texture = {.texture = orm, .uv_set = 0},
	                  .normal_texture = {.texture = texture_new(scene, 1, 1, normal_texel),
	                                     .uv_set = 0},
	                  .occlusion_texture = {.texture = orm, .uv_set = 0},
	                  .occlusion_strength = 1,
	                  .emissive_texture = {.texture = texture_new(scene, 1, 1, emissive_texel),
	                                       .uv_set = 0}}));
	uint8_t *pixels = render(scene, SIZE, NULL);
	expect_pixel(pixels, SIZE, 32, 32, base_texel, 0, "unlit: the base colour texel");
	free(pixels);
	sg_scene_destroy(scene);
}
END_TEST

/* glTF: OPAQUE ignores a texel's alpha, MASK only compares it with the
 * cutoff; the colour is the texel's whatever its alpha. A 1 x 1 base colour
 * texture (230, 230, 90, a) for a = 0, 10 and 254 (premultiplied bytes keep
 * nothing, 9 9 4 and 229 229 89 of them); _i: 0 unlit (each quad shows the
 * texel itself), 1 lit (the BRDF reference for base = decode(texel)). The
 * MASK quads have a cutoff below every alpha but 0's. */
START_TEST(test_texel_colour_whatever_its_alpha)
{
	static const uint8_t alphas[3] = {0, 10, 254};
	static const uint8_t colour[3] = {230, 230, 90};
	const bool lit = _i == 1;
	struct ref_camera ref = front_camera(SIZE);
	struct sg_camera camera = sg_camera_of(&ref);
	struct sg_scene *scene = sg_scene_create();
	struct ref_light light = front_light();
	sg_node view = view_add(scene, sg_scene_root(scene), &camera, lit ? plain_ambient : NULL);
	if (lit)
		light_add(scene, view, &light);
	struct ref_material given = {.base = {1, 1, 1, 1}, .roughness = 0.6, .occlusion = 1};
	for (int a = 0; a < 3; a++)
		for (int mask = 0; mask < 2; mask++) {
			const uint8_t texel[4] = {colour[0], colour[1], colour[2], alphas[a]};
			struct material_options options = {
			    .alpha_mode = mask ? SG_ALPHA_MASK : SG_ALPHA_OPAQUE,
			    .alpha_cutoff = 0.02f,
			    .unlit = !lit,
			    .base_color_texture = {.texture = texture_new(scene, 1, 1, texel),
			                           .uv_set = 0}};
			model_add(scene, view,
			          quad_mesh(scene,
			                    (struct dvec3){-1.2 + 1.2 * a, mask ? -0.8 : 0.8, 0},
			                    (struct dvec3){0.5, 0, 0}, (struct dvec3){0, 0.35, 0}),
			          material_new(scene, &given, &options));
		}
	uint8_t *pixels = render(scene, SIZE, NULL);
	struct ref_material expected = given;
	for (int c = 0; c < 3; c++)
		expected.base[c] = srgb_decode(colour[c] / 255.0);
	const uint8_t unlit_want[4] = {colour[0], colour[1], colour[2], 255};
	for (int a = 0; a < 3; a++)
		for (int mask = 0; mask < 2; mask++) {
			char what[96];
			snprintf(what, sizeof(what), "%s, %s, texel alpha %d",
			         lit ? "lit" : "unlit", mask ? "MASK" : "OPAQUE", alphas[a]);
			int x, y;
			pixel_of(&ref, (struct dvec3){-1.2 + 1.2 * a, mask ? -0.8 : 0.8, 0}, &x,
			         &y);
			if (mask && alphas[a] == 0)
				expect_pixel(pixels, SIZE, x, y, clear_bytes, 0,
				             what); /* discarded */
			else if (lit)
				expect_lit_front(pixels, &ref, x, y, 0, &expected, &light, 1,
				                 plain_ambient, what);
			else
				expect_pixel(pixels, SIZE, x, y, unlit_want, 0, what);
		}
	free(pixels);
	sg_scene_destroy(scene);
}
END_TEST

/* One translucent texture drawn by a 2D model (premultiplied, blended over
 * the clear colour) and by an unlit OPAQUE material (its straight colour),
 * then updated (sg_texture_update): both copies follow the update. */
START_TEST(test_texture_shared_by_2d_and_a_material_follows_updates)
{
	static const uint8_t texels[2][4] = {{230, 230, 90, 128}, {40, 200, 120, 64}};
	struct ref_camera ref = front_camera(SIZE);
	struct sg_camera camera = sg_camera_of(&ref);
	struct sg_scene *scene = sg_scene_create();
	sg_texture texture = texture_new(scene, 1, 1, texels[0]);
	sg_mesh square = sg_mesh_create_quad(scene, 16, 16);
	sg_node flat = sg_node_new_model(
	    scene,
	    &(struct sg_model_desc){.mesh = square, .texture = texture, .position = {0, 0, 0}});
	ck_assert_msg(flat.generation, "%s", sg_last_error());
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), flat), SG_OK);
	sg_node view = view_add(scene, sg_scene_root(scene), &camera, NULL);
	struct ref_material white = {.base = {1, 1, 1, 1}, .occlusion = 1};
	model_add(scene, view,
	          quad_mesh(scene, (struct dvec3){0.5, -0.5, 0}, (struct dvec3){0.5, 0, 0},
	                    (struct dvec3){0, 0.5, 0}),
	          material_new(
	              scene, &white,
	              &(struct material_options){
	                  .unlit = true, .base_color_texture = {.texture = texture, .uv_set = 0}}));
	struct sg_renderer *renderer = renderer_new(SIZE);
	uint8_t *pixels = malloc(SIZE * SIZE * 4);
	ck_assert_ptr_nonnull(pixels);
	for (int round = 0; round < 2; round++) {
		const uint8_t *t = texels[round];
		if (round)
			ck_assert_int_eq(sg_texture_update(scene, texture, 0, 0, 1, 1, t, 0),
			                 SG_OK);
		ck_assert_msg(sg_renderer_render(renderer, scene, NULL) == SG_OK, "%s",
		              sg_last_error());
		ck_assert_int_eq(sg_renderer_read_pixels(renderer, pixels, 0), SG_OK);
		/* 2D: round(c a / 255) over the clear colour times 1 - a */
		uint8_t flat_want[4] = {0, 0, 0, 255};
		for (int c = 0; c < 3; c++)
			flat_want[c] = (uint8_t)lround(t[c] * t[3] / 255.0 +
			                               clear_bytes[c] * (255 - t[3]) / 255.0);
		expect_pixel(pixels, SIZE, 8, 8, flat_want, 1, round ? "2D, updated" : "2D");
		const uint8_t material_want[4] = {t[0], t[1], t[2], 255};
		int x, y;
		pixel_of(&ref, (struct dvec3){0.5, -0.5, 0}, &x, &y);
		expect_pixel(pixels, SIZE, x, y, material_want, 0,
		             round ? "material, updated" : "material");
	}
	free(pixels);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
}
END_TEST

/* --- samplers -------------------------------------------------------------------------- */

/* Texel index i of a wrapped coordinate along a side of size texels, as
 * GLES 3.0 (section 3.8.10) defines each wrap. */
static int wrapped(int i, int size, enum sg_sampler_wrap wrap)
{
	int period = wrap == SG_SAMPLER_MIRRORED_REPEAT ? 2 * size : size;
	int m = ((i % period) + period) % period;
	switch (wrap) {
	case SG_SAMPLER_CLAMP_TO_EDGE: return i < 0 ? 0 : i >= size ? size - 1 : i;
	case SG_SAMPLER_MIRRORED_REPEAT: return m < size ? m : 2 * size - 1 - m;
	default: return m;
	}
}

/* Channel c of the texture of width x height texels sampled at (s, t) with
 * sampler: nearest, the texel floor(s width) wrapped; linear, the bilinear
 * mix of the four texels around s width - 1/2 (GLES 3.0, 3.8.10). */
static double sampled(const uint8_t *texels, int width, int height, double s, double t,
                      const struct sg_sampler *sampler, bool linear, int c)
{
	double x = s * width, y = t * height;
	if (!linear) {
		int i = wrapped((int)floor(x), width, sampler->wrap_s);
		int j = wrapped((int)floor(y), height, sampler->wrap_t);
		return texels[(j * width + i) * 4 + c];
	}
	double fx = x - 0.5 - floor(x - 0.5), fy = y - 0.5 - floor(y - 0.5);
	int i0 = (int)floor(x - 0.5), j0 = (int)floor(y - 0.5);
	double value = 0;
	for (int dj = 0; dj < 2; dj++)
		for (int di = 0; di < 2; di++) {
			int i = wrapped(i0 + di, width, sampler->wrap_s);
			int j = wrapped(j0 + dj, height, sampler->wrap_t);
			value += (di ? fx : 1 - fx) * (dj ? fy : 1 - fy) *
			         texels[(j * width + i) * 4 + c];
		}
	return value;
}

/* 2 x 2 texels, each of its own colour. */
static const uint8_t sampler_texels[16] = {200, 30, 30,  255, 30,  200, 30, 255,
                                           30,  30, 200, 255, 200, 200, 30, 255};

/* The pixels of the quad of test_sampler_wraps_and_filters (x and y in
 * -1.5 .. 1.5 at z = 0, uv (-1, -1) at its top-left to (2, 2)), seen by ref,
 * against the formula for texels with sampler meant (no zero fields): each
 * pixel away from texel edges (nearest) or texel centres (linear: where the
 * mix turns over to other texels), where rounding may pick either side. */
static void expect_sampled_quad(const uint8_t *pixels, const struct ref_camera *ref,
                                const uint8_t *texels, const struct sg_sampler *meant,
                                const char *what)
{
	const bool linear = meant->mag_filter == SG_SAMPLER_LINEAR;
	int checked = 0;
	for (int y = 0; y < ref->height; y++)
		for (int x = 0; x < ref->width; x++) {
			struct dvec3 hit;
			ck_assert(ref_camera_hit_plane(ref, x, y, (struct dvec3){0, 0, 0},
			                               (struct dvec3){0, 0, 1}, &hit));
			if (fabs(hit.x) > 1.45 || fabs(hit.y) > 1.45)
				continue;                        /* off the quad, or at its edge */
			double s = hit.x + 0.5, t = 0.5 - hit.y; /* uv at the hit */
			double ds = s * 2 - (linear ? 0.5 : 0), dt = t * 2 - (linear ? 0.5 : 0);
			if (fabs(ds - round(ds)) < 0.06 || fabs(dt - round(dt)) < 0.06)
				continue;
			uint8_t want[4] = {0, 0, 0, 255};
			for (int c = 0; c < 3; c++)
				want[c] =
				    (uint8_t)lround(sampled(texels, 2, 2, s, t, meant, linear, c));
			char where[96];
			snprintf(where, sizeof(where), "%s at uv (%.3f, %.3f)", what, s, t);
			expect_pixel(pixels, ref->width, x, y, want, linear ? 3 : 1, where);
			checked++;
		}
	ck_assert_int_gt(checked, ref->width * ref->height / 4);
}

/* An unlit quad textured beyond [0, 1]: uv from (-1, -1) at its top-left to
 * (2, 2) at its bottom-right, the 2 x 2 texture's own settings nearest and
 * clamp. Each pixel away from texel edges (where rounding picks either side)
 * is the formula's texel: _i 0 clamp both ways, 1 repeat along s and
 * mirrored repeat along t, 2 mirrored repeat and clamp, 3 the texture's own
 * (nearest; repeat, given to this texture), 4 linear magnification with
 * mirrored repeat. */
START_TEST(test_sampler_wraps_and_filters)
{
	static const struct sg_sampler samplers[5] = {
	    {SG_SAMPLER_CLAMP_TO_EDGE, SG_SAMPLER_CLAMP_TO_EDGE, SG_SAMPLER_NEAREST,
	     SG_SAMPLER_NEAREST},
	    {SG_SAMPLER_REPEAT, SG_SAMPLER_MIRRORED_REPEAT, SG_SAMPLER_NEAREST, SG_SAMPLER_NEAREST},
	    {SG_SAMPLER_MIRRORED_REPEAT, SG_SAMPLER_CLAMP_TO_EDGE, SG_SAMPLER_NEAREST,
	     SG_SAMPLER_NEAREST},
	    {0, 0, 0, 0},
	    {SG_SAMPLER_MIRRORED_REPEAT, SG_SAMPLER_MIRRORED_REPEAT, SG_SAMPLER_LINEAR,
	     SG_SAMPLER_LINEAR}};
	static const float uvs[8] = {-1, 2, 2, 2, 2, -1, -1, -1};
	const struct sg_sampler *sampler = &samplers[_i];
	/* what the sampler means: the texture's own settings for its zeros */
	struct sg_sampler meant = *sampler;
	if (_i == 3)
		meant = (struct sg_sampler){SG_SAMPLER_REPEAT, SG_SAMPLER_REPEAT,
		                            SG_SAMPLER_NEAREST, SG_SAMPLER_NEAREST};
	struct ref_camera ref = front_camera(SIZE);
	struct sg_camera camera = sg_camera_of(&ref);
	struct sg_scene *scene = sg_scene_create();
	sg_node view = view_add(scene, sg_scene_root(scene), &camera, NULL);
	sg_texture texture = sg_texture_create(
	    scene, &(struct sg_texture_desc){.width = 2,
	                                     .height = 2,
	                                     .pixels = sampler_texels,
	                                     .wrap = _i == 3 ? SG_WRAP_REPEAT : SG_WRAP_CLAMP});
	ck_assert_msg(texture.generation, "%s", sg_last_error());
	struct ref_material white = {.base = {1, 1, 1, 1}, .occlusion = 1};
	struct material_options options = {.unlit = true};
	options.base_color_texture =
	    (struct sg_material_texture){.texture = texture, .sampler = *sampler};
	model_add(scene, view,
	          quad_mesh_with(scene, (struct dvec3){0, 0, 0}, (struct dvec3){1.5, 0, 0},
	                         (struct dvec3){0, 1.5, 0}, &(struct quad_attributes){.uv0 = uvs}),
	          material_new(scene, &white, &options));
	uint8_t *pixels = render(scene, SIZE, NULL);
	char what[32];
	snprintf(what, sizeof(what), "sampler %d", _i);
	expect_sampled_quad(pixels, &ref, sampler_texels, &meant, what);
	free(pixels);
	sg_scene_destroy(scene);
}
END_TEST

/* The same quad from a scene file (docs/scene-format.md): its material's
 * texture reference names the sampler (repeat along s, mirrored repeat
 * along t, nearest), over the texture's own "linear" and "clamp". */
START_TEST(test_scene_file_sampler)
{
	char folder[] = "/tmp/sg-sampler-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(folder));
	char png[128], json[128];
	snprintf(png, sizeof(png), "%s/texels.png", folder);
	snprintf(json, sizeof(json), "%s/scene.json", folder);
	ck_assert_int_eq(sg_image_write_png(png, 2, 2, sampler_texels, 0), SG_OK);
	FILE *f = fopen(json, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f,
	        "{\"output\": {\"width\": %d, \"height\": %d},"
	        " \"textures\": {\"t\": {\"type\": \"png\", \"path\": \"texels.png\","
	        " \"filter\": \"linear\", \"wrap\": \"clamp\"}},"
	        " \"materials\": {\"m\": {\"unlit\": true, \"base_color_texture\": {"
	        "\"texture\": \"t\", \"wrap_s\": \"repeat\", \"wrap_t\": \"mirrored_repeat\","
	        " \"mag_filter\": \"nearest\", \"min_filter\": \"nearest\"}}},"
	        " \"nodes\": [{\"type\": \"view3d\", \"camera\": {\"type\": \"perspective\","
	        " \"fovy\": 45, \"near\": 0.1, \"far\": 100,"
	        " \"look_at\": {\"eye\": [0, 0, 5], \"center\": [0, 0, 0]}},"
	        " \"children\": [{\"type\": \"model\", \"material\": \"m\", \"mesh\": {"
	        "\"type\": \"solid\","
	        " \"positions\": [[-1.5, -1.5, 0], [1.5, -1.5, 0], [1.5, 1.5, 0], [-1.5, 1.5, 0]],"
	        " \"uvs\": [[-1, 2], [2, 2], [2, -1], [-1, -1]],"
	        " \"indices\": [0, 1, 2, 0, 2, 3]}}]}]}\n",
	        SIZE, SIZE);
	ck_assert_int_eq(fclose(f), 0);
	struct sg_scene_file *file;
	ck_assert_msg(sg_scene_file_load(json, &file) == SG_OK, "%s", sg_last_error());
	struct sg_camera camera;
	sg_scene_file_get_camera(file, SIZE, SIZE, &camera);
	uint8_t *pixels = render(sg_scene_file_get_scene(file), SIZE, &camera);
	struct ref_camera ref = front_camera(SIZE);
	const struct sg_sampler meant = {SG_SAMPLER_REPEAT, SG_SAMPLER_MIRRORED_REPEAT,
	                                 SG_SAMPLER_NEAREST, SG_SAMPLER_NEAREST};
	expect_sampled_quad(pixels, &ref, sampler_texels, &meant, "scene file");
	free(pixels);
	sg_scene_file_destroy(file);
	ck_assert_int_eq(unlink(png), 0);
	ck_assert_int_eq(unlink(json), 0);
	ck_assert_int_eq(rmdir(folder), 0);
}
END_TEST

/* Minification: a 64 x 1 texture of alternate black and white texels on a
 * quad 19.4 pixels wide (3.3 texels a pixel). Nearest picks one texel, black
 * or white; linear mixes the two around the pixel's centre (no mipmaps:
 * level 0 alone, docs/3d.md). _i: 0 nearest, 1 linear. */
START_TEST(test_sampler_min_filter)
{
	uint8_t texels[64 * 4];
	for (int i = 0; i < 64; i++) {
		uint8_t v = i % 2 ? 255 : 0;
		texels[i * 4] = texels[i * 4 + 1] = texels[i * 4 + 2] = v;
		texels[i * 4 + 3] = 255;
	}
	const bool linear = _i == 1;
	const struct sg_sampler sampler = {SG_SAMPLER_CLAMP_TO_EDGE, SG_SAMPLER_CLAMP_TO_EDGE,
	                                   linear ? SG_SAMPLER_NEAREST
	                                          : SG_SAMPLER_LINEAR, /* unused: minified */
	                                   linear ? SG_SAMPLER_LINEAR : SG_SAMPLER_NEAREST};
	struct ref_camera ref = front_camera(SIZE);
	struct sg_camera camera = sg_camera_of(&ref);
	struct sg_scene *scene = sg_scene_create();
	sg_node view = view_add(scene, sg_scene_root(scene), &camera, NULL);
	struct ref_material white = {.base = {1, 1, 1, 1}, .occlusion = 1};
	struct material_options options = {.unlit = true};
	options.base_color_texture = (struct sg_material_texture){
	    .texture = texture_new(scene, 64, 1, texels), .sampler = sampler};
	/* 19.4 pixels (the view is 2 tan(pi / 8) 5 = 4.14 units over 64
	 * pixels), off the pixel grid: pixel centres fall all over the texels */
	const double pixel = 2 * tan(M_PI / 8) * 5 / SIZE, half = 9.7 * pixel, shift = 0.23 * pixel;
	model_add(scene, view,
	          quad_mesh(scene, (struct dvec3){shift, 0, 0}, (struct dvec3){half, 0, 0},
	                    (struct dvec3){0, half, 0}),
	          material_new(scene, &white, &options));
	uint8_t *pixels = render(scene, SIZE, NULL);
	int checked = 0;
	for (int x = 0; x < SIZE; x++) {
		struct dvec3 hit;
		ck_assert(ref_camera_hit_plane(&ref, x, SIZE / 2, (struct dvec3){0, 0, 0},
		                               (struct dvec3){0, 0, 1}, &hit));
		if (fabs(hit.x - shift) > half * 0.9)
			continue;
		double s = (hit.x - shift + half) / (2 * half), edge = s * 64 - (linear ? 0.5 : 0);
		if (fabs(edge - round(edge)) < 0.1)
			continue;
		uint8_t want[4] = {0, 0, 0, 255};
		for (int c = 0; c < 3; c++)
			want[c] =
			    (uint8_t)lround(sampled(texels, 64, 1, s, 0.5, &sampler, linear, c));
		char what[64];
		snprintf(what, sizeof(what), "%s minification at s %.3f",
		         linear ? "linear" : "nearest", s);
		expect_pixel(pixels, SIZE, x, SIZE / 2, want, linear ? 4 : 1, what);
		checked++;
	}
	ck_assert_int_ge(checked, 8);
	free(pixels);
	sg_scene_destroy(scene);
}
END_TEST

/* A normal texture tilts the normal, the same whether the mesh gives
 * tangents or the shader derives them from the screen derivatives of
 * position and uv. The quad's u runs along +x and its v down the texture
 * along -y, so glTF's tangent space is T = +x and B = N x T = +y (the
 * texture's +y is up in its image, where v decreases), N = +z: the texel's
 * tilt towards +u turns the normal towards +x, its tilt "up" towards +y.
 * The expected colour is the BRDF reference's for that normal. Both renders
 * once with the renderer's usual y flip; test_rotate adds the mirrors. */
START_TEST(test_normal_texture_with_and_without_tangents)
{
	static const uint8_t texels[2][4] = {{191, 128, 237, 255}, {128, 191, 237, 255}};
	static const float tangents[16] = {1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1};
	const uint8_t *texel = texels[_i / 2];
	bool given = _i % 2;
	struct ref_camera ref = front_camera(SIZE);
	struct sg_camera camera = sg_camera_of(&ref);
	struct sg_scene *scene = sg_scene_create();
	struct ref_light light = front_light();
	sg_node view = view_add(scene, sg_scene_root(scene), &camera, plain_ambient);
	light_add(scene, view, &light);
	struct material_options options = {0};
	options.normal_texture.texture = texture_new(scene, 1, 1, texel);
	struct quad_attributes attributes = {.tangents = given ? tangents : NULL};
	model_add(scene, view,
	          quad_mesh_with(scene, (struct dvec3){0, 0, 0}, (struct dvec3){1, 0, 0},
	                         (struct dvec3){0, 1, 0}, &attributes),
	          material_new(scene, &plain_material, &options));
	uint8_t *pixels = render(scene, SIZE, NULL);
	struct dvec3 m = {texel[0] / 255.0 * 2 - 1, texel[1] / 255.0 * 2 - 1,
	                  texel[2] / 255.0 * 2 - 1};
	struct dvec3 normal = dvec3_normalize(m); /* T, B, N are x, y, z here */
	char what[96];
	snprintf(what, sizeof(what), "normal texture tilted towards %s, tangents %s",
	         _i / 2 ? "+v's up (+y)" : "+u (+x)", given ? "given" : "derived");
	expect_lit_plane(pixels, &ref, 32, 32, (struct dvec3){0, 0, 0}, normal, &plain_material,
	                 &light, 1, plain_ambient, what);
	expect_lit_plane(pixels, &ref, 22, 40, (struct dvec3){0, 0, 0}, normal, &plain_material,
	                 &light, 1, plain_ambient, what);
	free(pixels);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_orthographic_view_direction)
{
	/* With an orthographic camera V is the camera's +Z axis everywhere. A
	 * light shining straight down -Z onto a quad facing +Z: every point of a
	 * shiny quad sees the specular peak, where a V towards the eye would
	 * fade it off centre. */
	static const struct ref_material shiny = {
	    .base = {0.3, 0.5, 0.7, 1}, .metallic = 0, .roughness = 0.35, .occlusion = 1};
	const double ambient[3] = {0.02, 0.02, 0.02};
	struct ref_light light = {
	    .type = REF_DIRECTIONAL, .color = {1, 1, 1}, .intensity = 1, .direction = {0, 0, -1}};
	struct sg_camera camera;
	sg_camera_init_ortho(&camera, -2, 2, -2, 2, 0.1f, 20);
	sg_camera_look_at(&camera, (float[]){0, 0, 5}, (float[]){0, 0, 0}, (float[]){0, 1, 0});
	struct sg_scene *scene = sg_scene_create();
	sg_node view = view_add(scene, sg_scene_root(scene), &camera, ambient);
	light_add(scene, view, &light);
	model_add(scene, view,
	          quad_mesh(scene, (struct dvec3){0, 0, 0}, (struct dvec3){1.8, 0, 0},
	                    (struct dvec3){0, 1.8, 0}),
	          material_new(scene, &shiny, NULL));
	uint8_t *pixels = render(scene, SIZE, NULL);
	const int spots[2][2] = {{32, 32}, {56, 10}};
	const struct dvec3 camera_z = {0, 0, 1}, eye = {0, 0, 5};
	for (int i = 0; i < 2; i++) {
		int x = spots[i][0], y = spots[i][1];
		struct dvec3 point = {-2 + 4 * (x + 0.5) / SIZE, 2 - 4 * (y + 0.5) / SIZE, 0};
		double linear[3];
		ref_shade(&shiny, point, (struct dvec3){0, 0, 1}, eye, &camera_z, &light, 1,
		          ambient, linear);
		uint8_t want[4] = {0, 0, 0, 255}, towards_eye[4];
		for (int c = 0; c < 3; c++) {
			ck_assert(linear[c] < 0.95);
			want[c] = unit_to_byte(srgb_encode(linear[c]));
		}
		expect_pixel(pixels, SIZE, x, y, want, 2, "orthographic: V is the camera's +Z");
		ref_shade_bytes(&shiny, point, (struct dvec3){0, 0, 1}, eye, &light, 1, ambient,
		                towards_eye);
		if (i == 1) /* the test can tell the two apart */
			ck_assert(!near(want, towards_eye, 6));
	}
	free(pixels);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_fresnel_at_grazing_angles)
{
	/* A floor (normal +Y) seen at a grazing angle, lit from the far side so
	 * that the light reflects into the camera at the origin: V.H is small
	 * there and Fresnel-Schlick multiplies the specular several times. */
	struct ref_camera ref = {.eye = {0, 1, 4},
	                         .center = {0, 0, 0},
	                         .up = {0, 1, 0},
	                         .fovy = M_PI / 4,
	                         .aspect = 1,
	                         .width = SIZE,
	                         .height = SIZE};
	struct sg_camera camera = sg_camera_of(&ref);
	struct ref_light light = {.type = REF_DIRECTIONAL,
	                          .color = {1, 1, 1},
	                          .intensity = 0.6,
	                          .direction = dvec3_normalize((struct dvec3){0, -1, 4})};
	struct sg_scene *scene = sg_scene_create();
	sg_node view = view_add(scene, sg_scene_root(scene), &camera, plain_ambient);
	light_add(scene, view, &light);
	model_add(scene, view,
	          quad_mesh(scene, (struct dvec3){0, 0, 0}, (struct dvec3){3, 0, 0},
	                    (struct dvec3){0, 0, -3}),
	          material_new(scene, &plain_material, NULL));
	uint8_t *pixels = render(scene, SIZE, NULL);
	const struct dvec3 points[3] = {{0, 0, 0}, {0.5, 0, 1}, {-1, 0, -1}};
	for (int i = 0; i < 3; i++) {
		int x, y;
		pixel_of(&ref, points[i], &x, &y);
		expect_lit_plane(pixels, &ref, x, y, (struct dvec3){0, 0, 0},
		                 (struct dvec3){0, 1, 0}, &plain_material, &light, 1, plain_ambient,
		                 "grazing reflection");
	}
	free(pixels);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_editing_lights_and_views_repaints)
{
	/* One renderer (damage tracking on, as by default) rendering the lit
	 * floor, then again after each edit: a light's intensity, its transform,
	 * the view's ambient. Each picture against the reference, near and far
	 * from the light. */
	struct ref_camera ref = lights_camera();
	struct sg_camera camera = sg_camera_of(&ref);
	struct ref_light light = {.type = REF_POINT,
	                          .color = {1, 0.95, 0.9},
	                          .intensity = 4,
	                          .range = 4,
	                          .position = {1, 0.5, 1.5},
	                          .direction = {0, 0, -1}};
	double ambient[3] = {plain_ambient[0], plain_ambient[1], plain_ambient[2]};
	struct sg_scene *scene = sg_scene_create();
	sg_node view = view_add(scene, sg_scene_root(scene), &camera, ambient);
	sg_node light_node = light_add(scene, view, &light);
	sg_node place = sg_node_get_parent(scene, light_node);
	sg_node floor = model_add(scene, view,
	                          quad_mesh(scene, (struct dvec3){0, 0, 0}, (struct dvec3){3, 0, 0},
	                                    (struct dvec3){0, 3, 0}),
	                          material_new(scene, &plain_material, NULL));
	struct ref_material material = plain_material;
	struct ref_material other = {
	    .base = {0.6, 0.2, 0.5, 1}, .metallic = 0.5, .roughness = 0.4, .occlusion = 1};
	struct sg_renderer *renderer = renderer_new(LIGHTS_SIZE);
	uint8_t *pixels = malloc(LIGHTS_SIZE * LIGHTS_SIZE * 4);
	const struct dvec3 points[3] = {{1, 0.5, 0}, {-1, 0.5, 0}, {-2, -2, 0}};
	for (int step = 0; step < 5; step++) {
		static const char *const steps[] = {"first render", "intensity 2",
		                                    "moved by -2 in x", "ambient changed",
		                                    "material swapped"};
		if (step == 1) {
			light.intensity = 2;
			ck_assert_int_eq(sg_light_set(scene, light_node,
			                              &(struct sg_light_desc){
			                                  .type = SG_LIGHT_POINT,
			                                  .color = {1, 0.95f, 0.9f},
			                                  .intensity = 2,
			                                  .range = 4,
			                              }),
			                 SG_OK);
		} else if (step == 2) {
			light.position.x -= 2;
			ck_assert_int_eq(sg_transform_translate(scene, place, -2, 0, 0), SG_OK);
		} else if (step == 3) {
			ambient[0] = 0.2, ambient[1] = 0.1, ambient[2] = 0.05;
			ck_assert_int_eq(
			    sg_view3d_set(scene, view,
			                  &(struct sg_view3d_desc){.camera = &camera,
			                                           .ambient = {0.2f, 0.1f, 0.05f}}),
			    SG_OK);
		} else if (step == 4) {
			material = other;
			ck_assert_int_eq(
			    sg_model_set_material(scene, floor, material_new(scene, &other, NULL)),
			    SG_OK);
		}
		ck_assert_msg(sg_renderer_render(renderer, scene, NULL) == SG_OK, "%s",
		              sg_last_error());
		ck_assert_int_eq(sg_renderer_read_pixels(renderer, pixels, 0), SG_OK);
		for (int i = 0; i < 3; i++) {
			int x, y;
			pixel_of(&ref, points[i], &x, &y);
			char what[64];
			snprintf(what, sizeof(what), "%s, point %d", steps[step], i);
			expect_lit_front(pixels, &ref, x, y, 0, &material, &light, 1, ambient,
			                 what);
		}
	}
	free(pixels);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
}
END_TEST

/* Where the ray through pixel (x, y) enters the axis-aligned cube of half
 * size half at the origin: the face index into cube_faces (-1: it misses)
 * and the point. */
static int cube_entry(const struct ref_camera *camera, int x, int y, double half,
                      struct dvec3 *point)
{
	struct dvec3 dir = ref_camera_ray(camera, x, y);
	const double o[3] = {camera->eye.x, camera->eye.y, camera->eye.z};
	const double d[3] = {dir.x, dir.y, dir.z};
	double t_near = -INFINITY, t_far = INFINITY;
	int face = -1;
	for (int axis = 0; axis < 3; axis++) {
		if (fabs(d[axis]) < 1e-12) {
			if (fabs(o[axis]) > half)
				return -1;
			continue;
		}
		double t0 = (-half - o[axis]) / d[axis], t1 = (half - o[axis]) / d[axis];
		/* entering through the + face when going towards -axis */
		int entered = axis * 2 + (d[axis] > 0 ? 1 : 0);
		if (t0 > t1) {
			double swap = t0;
			t0 = t1;
			t1 = swap;
		}
		if (t0 > t_near) {
			t_near = t0;
			face = entered;
		}
		if (t1 < t_far)
			t_far = t1;
	}
	if (t_near > t_far || t_near <= 0)
		return -1;
	*point = dvec3_add(camera->eye, dvec3_scale(dir, t_near));
	return face;
}

START_TEST(test_lit_cube_every_pixel)
{
	/* Every pixel of the cube render: those whose centre sees a face away
	 * from its edges against the reference, those whose ray passes the cube
	 * by a margin the clear colour. */
	struct ref_camera ref = cube_camera();
	struct sg_camera camera = sg_camera_of(&ref);
	struct ref_light light = cube_light();
	struct sg_scene *scene = cube_scene(cube24_explicit, &camera);
	uint8_t *pixels = render(scene, CUBE_SIZE, NULL);
	int faces = 0, background = 0;
	for (int y = 0; y < CUBE_SIZE; y++)
		for (int x = 0; x < CUBE_SIZE; x++) {
			struct dvec3 point;
			int f = cube_entry(&ref, x, y, 0.5, &point);
			const uint8_t *got = pixel_at(pixels, CUBE_SIZE, x, y);
			if (f < 0) {
				if (cube_entry(&ref, x, y, 0.52, &point) >= 0)
					continue; /* the silhouette */
				expect(near(got, clear_bytes, 0),
				       "pixel (%d, %d) beside the cube is %d %d %d %d", x, y,
				       got[0], got[1], got[2], got[3]);
				background++;
				continue;
			}
			const struct face *face = &cube_faces[f];
			struct dvec3 offset = dvec3_sub(point, dvec3_scale(face->normal, 0.5));
			if (fabs(dvec3_dot(offset, face->u)) > 0.49 ||
			    fabs(dvec3_dot(offset, face->v)) > 0.49)
				continue; /* an edge */
			uint8_t want[4];
			ref_shade_bytes(&cube_material, point, face->normal, ref.eye, &light, 1,
			                cube_ambient, want);
			expect(near(got, want, 2),
			       "face %s, pixel (%d, %d) is %d %d %d %d, want %d %d %d %d",
			       face->name, x, y, got[0], got[1], got[2], got[3], want[0], want[1],
			       want[2], want[3]);
			faces++;
		}
	ck_assert_int_gt(faces, 1500);
	ck_assert_int_gt(background, 8000);
	free(pixels);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_each_view_clears_depth)
{
	/* Two views with the same camera, one after the other: the first draws a
	 * red quad near the camera (z = 2), the second a green quad behind it
	 * (z = 0). The depth buffer is cleared for the second view, so its quad
	 * lands over the first view's picture, as any later draw does. */
	static const double red[4] = {0.9, 0.1, 0.1, 1}, green[4] = {0.1, 0.8, 0.2, 1};
	struct ref_camera ref = front_camera(SIZE);
	struct sg_camera camera = sg_camera_of(&ref);
	struct sg_scene *scene = sg_scene_create();
	sg_node first = view_add(scene, sg_scene_root(scene), &camera, NULL);
	model_add(scene, first,
	          quad_mesh(scene, (struct dvec3){0, 0, 2}, (struct dvec3){0.6, 0, 0},
	                    (struct dvec3){0, 0.6, 0}),
	          unlit_new(scene, red, SG_ALPHA_OPAQUE));
	sg_node second = view_add(scene, sg_scene_root(scene), &camera, NULL);
	model_add(scene, second,
	          quad_mesh(scene, (struct dvec3){0, 0, 0}, (struct dvec3){0.5, 0, 0},
	                    (struct dvec3){0, 0.5, 0}),
	          unlit_new(scene, green, SG_ALPHA_OPAQUE));
	uint8_t *pixels = render(scene, SIZE, NULL);
	uint8_t red_want[4], green_want[4];
	unlit_bytes(red, red_want);
	unlit_bytes(green, green_want);
	expect_pixel(pixels, SIZE, 32, 32, green_want, 1,
	             "the second view's quad, behind in depth");
	int x, y;
	pixel_of(&ref, (struct dvec3){0.55, 0.55, 2}, &x, &y);
	expect_pixel(pixels, SIZE, x, y, red_want, 1, "the first view's quad around it");
	free(pixels);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_normals_under_non_uniform_scale)
{
	/* A quad tilted 45 degrees about Y (normal (1, 0, 1) / sqrt 2) under
	 * scale(2, 1, 1): its world plane is x = -2z, with normal (1, 0, 2) /
	 * sqrt 5 (the inverse transpose's); the matrix itself would give
	 * (2, 0, 1) / sqrt 5. */
	struct ref_camera ref = front_camera(SIZE);
	struct sg_camera camera = sg_camera_of(&ref);
	struct ref_light light = front_light();
	struct sg_scene *scene = sg_scene_create();
	sg_node view = view_add(scene, sg_scene_root(scene), &camera, plain_ambient);
	light_add(scene, view, &light);
	sg_node stretch = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
	ck_assert_int_eq(sg_transform_scale(scene, stretch, 2, 1, 1), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, view, stretch), SG_OK);
	model_add(scene, stretch,
	          quad_mesh(scene, (struct dvec3){0, 0, 0}, (struct dvec3){0.5, 0, -0.5},
	                    (struct dvec3){0, 0.8, 0}),
	          material_new(scene, &plain_material, NULL));
	uint8_t *pixels = render(scene, SIZE, NULL);
	const struct dvec3 normal = dvec3_normalize((struct dvec3){1, 0, 2});
	const struct dvec3 points[2] = {{0, 0, 0}, {0.5, 0.4, -0.25}};
	for (int i = 0; i < 2; i++) {
		int x, y;
		pixel_of(&ref, points[i], &x, &y);
		expect_lit_plane(pixels, &ref, x, y, (struct dvec3){0, 0, 0}, normal,
		                 &plain_material, &light, 1, plain_ambient,
		                 "normal by the inverse transpose");
	}
	uint8_t wrong[4];
	ref_shade_bytes(&plain_material, (struct dvec3){0, 0, 0},
	                dvec3_normalize((struct dvec3){2, 0, 1}), ref.eye, &light, 1, plain_ambient,
	                wrong);
	ck_assert(!near(pixel_at(pixels, SIZE, 32, 32), wrong, 6));
	free(pixels);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_hidden_view_and_light)
{
	/* A hidden subtree is as if detached (sg/scene.h): a hidden light
	 * lights nothing, a hidden view draws nothing. */
	struct ref_camera ref = cube_camera();
	struct sg_camera camera = sg_camera_of(&ref);
	struct sg_scene *scene = cube_scene(cube24_explicit, &camera);
	sg_node view = sg_node_first_child(scene, sg_scene_root(scene));
	sg_node place = sg_node_first_child(scene, view); /* the light's transform */
	ck_assert_int_eq(sg_node_get_kind(scene, view), SG_NODE_VIEW3D);
	ck_assert_int_eq(sg_node_get_kind(scene, sg_node_first_child(scene, place)), SG_NODE_LIGHT);
	ck_assert_int_eq(sg_node_set_visible(scene, place, false), SG_OK);
	uint8_t *pixels = render(scene, CUBE_SIZE, NULL);
	int x, y;
	pixel_of(&ref, (struct dvec3){0, 0.5, 0}, &x, &y);
	uint8_t ambient_only[4];
	ref_shade_bytes(&cube_material, (struct dvec3){0, 0.5, 0}, (struct dvec3){0, 1, 0}, ref.eye,
	                NULL, 0, cube_ambient, ambient_only);
	expect_pixel(pixels, CUBE_SIZE, x, y, ambient_only, 2, "the light hidden: ambient alone");
	free(pixels);
	ck_assert_int_eq(sg_node_set_visible(scene, place, true), SG_OK);
	ck_assert_int_eq(sg_node_set_visible(scene, view, false), SG_OK);
	pixels = render(scene, CUBE_SIZE, NULL);
	expect_pixel(pixels, CUBE_SIZE, x, y, clear_bytes, 0, "the view hidden: nothing");
	free(pixels);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_culling_keeps_views_with_their_own_camera)
{
	/* The cube moved to z = -10, seen by the view's camera moved with it;
	 * the render's camera (the pixel camera, z in [-1, 1]) sees none of it.
	 * Frustum culling must judge the view's models by the view's camera:
	 * the picture equals the unmoved cube's, culling on or off. */
	struct ref_camera ref = cube_camera();
	struct sg_camera camera = sg_camera_of(&ref);
	struct sg_scene *scene = cube_scene(cube24_explicit, &camera);
	uint8_t *unmoved = render(scene, CUBE_SIZE, NULL);
	sg_scene_destroy(scene);

	struct ref_camera moved_ref = ref;
	moved_ref.eye.z -= 10;
	moved_ref.center.z -= 10;
	struct sg_camera moved_camera = sg_camera_of(&moved_ref);
	scene = sg_scene_create();
	sg_node view = view_add(scene, sg_scene_root(scene), &moved_camera, cube_ambient);
	struct ref_light light = cube_light();
	light_add(scene, view, &light);
	sg_node away = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
	ck_assert_int_eq(sg_transform_translate(scene, away, 0, 0, -10), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, view, away), SG_OK);
	model_add(scene, away, cube24_explicit(scene), material_new(scene, &cube_material, NULL));
	for (int culling = 0; culling < 2; culling++) {
		struct sg_renderer *renderer = renderer_new(CUBE_SIZE);
		ck_assert_int_eq(sg_renderer_set_culling(renderer, culling), SG_OK);
		ck_assert_msg(sg_renderer_render(renderer, scene, NULL) == SG_OK, "%s",
		              sg_last_error());
		uint8_t *pixels = malloc(CUBE_SIZE * CUBE_SIZE * 4);
		ck_assert_int_eq(sg_renderer_read_pixels(renderer, pixels, 0), SG_OK);
		expect_same_picture(pixels, unmoved, CUBE_SIZE, 1,
		                    culling ? "moved, culling on" : "moved, culling off");
		free(pixels);
		sg_renderer_destroy(renderer);
	}
	free(unmoved);
	sg_scene_destroy(scene);
}
END_TEST

/* --- models sharing a mesh and a material -------------------------------------------------- */

struct box {
	struct dvec3 centre, scale; /* translate(centre) * scale(scale) of the unit cube */
};

/* The nearest box the ray through pixel (x, y) enters (grown by grow in
 * each half-extent): its index (-1: none), the point and the world normal
 * of the face entered. */
static int boxes_entry(const struct ref_camera *camera, int x, int y, const struct box *boxes,
                       int count, double grow, struct dvec3 *point, struct dvec3 *normal)
{
	struct dvec3 dir = ref_camera_ray(camera, x, y);
	double best = INFINITY;
	int hit = -1;
	for (int b = 0; b < count; b++) {
		const double o[3] = {camera->eye.x - boxes[b].centre.x,
		                     camera->eye.y - boxes[b].centre.y,
		                     camera->eye.z - boxes[b].centre.z};
		const double d[3] = {dir.x, dir.y, dir.z};
		const double half[3] = {fabs(boxes[b].scale.x) / 2 + grow,
		                        fabs(boxes[b].scale.y) / 2 + grow,
		                        fabs(boxes[b].scale.z) / 2 + grow};
		double t_near = -INFINITY, t_far = INFINITY;
		int axis_in = -1;
		double sign_in = 0;
		for (int axis = 0; axis < 3; axis++) {
			double t0 = (-half[axis] - o[axis]) / d[axis],
			       t1 = (half[axis] - o[axis]) / d[axis];
			double sign = d[axis] > 0 ? -1 : 1;
			if (t0 > t1) {
				double swap = t0;
				t0 = t1;
				t1 = swap;
			}
			if (t0 > t_near)
				t_near = t0, axis_in = axis, sign_in = sign;
			if (t1 < t_far)
				t_far = t1;
		}
		if (t_near <= t_far && t_near > 0 && t_near < best) {
			best = t_near;
			hit = b;
			*point = dvec3_add(camera->eye, dvec3_scale(dir, t_near));
			*normal =
			    (struct dvec3){axis_in == 0 ? sign_in : 0, axis_in == 1 ? sign_in : 0,
			                   axis_in == 2 ? sign_in : 0};
		}
	}
	return hit;
}

START_TEST(test_cubes_sharing_mesh_and_material)
{
	/* Five cubes of one mesh and one material (drawn together where the
	 * renderer can): plain, mirrored in x (winding swapped), stretched
	 * (normals by the inverse transpose), squashed, and mirrored in two
	 * axes (determinant positive). Every pixel that sees a face away from
	 * its edges against the reference, and the clear colour around them. */
	static const struct box boxes[5] = {{{-1.6, 0, -1.4}, {1, 1, 1}},
	                                    {{1.4, 0, -1.6}, {-1, 1, 1}},
	                                    {{-1.5, 0.2, 1.3}, {1.6, 0.7, 1}},
	                                    {{1.5, -0.2, 1.5}, {0.8, 1.3, 0.8}},
	                                    {{0, 1.4, 0}, {-0.9, -0.9, 0.9}}};
	struct ref_camera ref = {.eye = {5, 6, 9},
	                         .center = {0, 0, 0},
	                         .up = {0, 1, 0},
	                         .fovy = 35 * M_PI / 180,
	                         .aspect = 1,
	                         .width = CUBE_SIZE,
	                         .height = CUBE_SIZE};
	struct sg_camera camera = sg_camera_of(&ref);
	struct ref_light light = cube_light();
	struct sg_scene *scene = sg_scene_create();
	sg_node view = view_add(scene, sg_scene_root(scene), &camera, cube_ambient);
	light_add(scene, view, &light);
	sg_mesh mesh = cube24_explicit(scene);
	sg_material material = material_new(scene, &cube_material, NULL);
	for (int b = 0; b < 5; b++) {
		sg_node place = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
		ck_assert_int_eq(sg_transform_translate(scene, place, (float)boxes[b].centre.x,
		                                        (float)boxes[b].centre.y,
		                                        (float)boxes[b].centre.z),
		                 SG_OK);
		ck_assert_int_eq(sg_transform_scale(scene, place, (float)boxes[b].scale.x,
		                                    (float)boxes[b].scale.y,
		                                    (float)boxes[b].scale.z),
		                 SG_OK);
		ck_assert_int_eq(sg_node_add_child(scene, view, place), SG_OK);
		model_add(scene, place, mesh, material);
	}
	uint8_t *pixels = render(scene, CUBE_SIZE, NULL);
	int seen[5] = {0}, background = 0;
	for (int y = 0; y < CUBE_SIZE; y++)
		for (int x = 0; x < CUBE_SIZE; x++) {
			struct dvec3 point, normal, inner_point, inner_normal;
			const uint8_t *got = pixel_at(pixels, CUBE_SIZE, x, y);
			if (boxes_entry(&ref, x, y, boxes, 5, 0.03, &point, &normal) < 0) {
				expect(near(got, clear_bytes, 0),
				       "pixel (%d, %d) beside the cubes is %d %d %d %d", x, y,
				       got[0], got[1], got[2], got[3]);
				background++;
				continue;
			}
			/* away from edges: the ray enters the same face of the same box
			 * shrunk by a margin */
			int b = boxes_entry(&ref, x, y, boxes, 5, 0, &point, &normal);
			int inner =
			    boxes_entry(&ref, x, y, boxes, 5, -0.03, &inner_point, &inner_normal);
			if (b < 0 || inner != b || dvec3_dot(normal, inner_normal) < 0.5)
				continue;
			uint8_t want[4];
			ref_shade_bytes(&cube_material, point, normal, ref.eye, &light, 1,
			                cube_ambient, want);
			expect(near(got, want, 2),
			       "cube %d, normal %g %g %g, pixel (%d, %d) is %d %d %d %d, want %d "
			       "%d %d %d",
			       b, normal.x, normal.y, normal.z, x, y, got[0], got[1], got[2],
			       got[3], want[0], want[1], want[2], want[3]);
			seen[b]++;
		}
	for (int b = 0; b < 5; b++)
		ck_assert_msg(seen[b] > 150, "cube %d: %d pixels checked", b, seen[b]);
	ck_assert_int_gt(background, 5000);
	free(pixels);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_translucent_models_sharing_mesh_and_material)
{
	/* Three quads of one mesh and one lit BLEND material (alpha 0.5) at
	 * z = 0, 0.5 and 1, lit by a point light in front of them so that each
	 * gets another colour: at the centre pixel they must be blended
	 * farthest first, whatever their order in the tree, even if the
	 * renderer draws them in one call. */
	static const struct ref_material glass = {
	    .base = {0.9, 0.9, 0.9, 0.5}, .metallic = 0, .roughness = 1, .occlusion = 1};
	static const double offsets[3][3] = {{-0.3, 0, 0}, {0, 0.3, 0.5}, {0.3, 0, 1}};
	static const int orders[2][3] = {{2, 1, 0}, {1, 2, 0}};
	struct ref_camera ref = front_camera(SIZE);
	struct sg_camera camera = sg_camera_of(&ref);
	struct ref_light light = {.type = REF_POINT,
	                          .color = {1, 1, 1},
	                          .intensity = 4,
	                          .position = {0, 0, 2.5},
	                          .direction = {0, 0, -1}};
	uint8_t want[4];
	memcpy(want, clear_bytes, 4);
	double layers[3][3];
	for (int q = 0; q < 3; q++) { /* farthest (z = 0) first */
		struct dvec3 hit;
		ck_assert(ref_camera_hit_plane(&ref, 32, 32, (struct dvec3){0, 0, offsets[q][2]},
		                               (struct dvec3){0, 0, 1}, &hit));
		double linear[3];
		ref_shade(&glass, hit, (struct dvec3){0, 0, 1}, ref.eye, NULL, &light, 1,
		          plain_ambient, linear);
		for (int c = 0; c < 3; c++) {
			ck_assert(linear[c] < 0.95);
			layers[q][c] = srgb_encode(linear[c]);
		}
		blend_over(layers[q], 0.5, want);
	}
	uint8_t reversed[4];
	memcpy(reversed, clear_bytes, 4);
	for (int q = 2; q >= 0; q--)
		blend_over(layers[q], 0.5, reversed);
	ck_assert(!near(want, reversed, 8)); /* the test can tell */
	for (int o = 0; o < 2; o++) {
		struct sg_scene *scene = sg_scene_create();
		sg_node view = view_add(scene, sg_scene_root(scene), &camera, plain_ambient);
		light_add(scene, view, &light);
		sg_mesh mesh = quad_mesh(scene, (struct dvec3){0, 0, 0}, (struct dvec3){1, 0, 0},
		                         (struct dvec3){0, 1, 0});
		sg_material material = material_new(
		    scene, &glass, &(struct material_options){.alpha_mode = SG_ALPHA_BLEND});
		for (int k = 0; k < 3; k++) {
			const double *offset = offsets[orders[o][k]];
			sg_node place =
			    sg_node_new_transform(scene, &(struct sg_transform_desc){0});
			ck_assert_int_eq(sg_transform_translate(scene, place, (float)offset[0],
			                                        (float)offset[1], (float)offset[2]),
			                 SG_OK);
			ck_assert_int_eq(sg_node_add_child(scene, view, place), SG_OK);
			model_add(scene, place, mesh, material);
		}
		uint8_t *pixels = render(scene, SIZE, NULL);
		expect_pixel(pixels, SIZE, 32, 32, want, 2,
		             o == 0 ? "nearest first in the tree" : "middle first in the tree");
		free(pixels);
		sg_scene_destroy(scene);
	}
}
END_TEST

/* A view with nothing to draw renders the clear colour: no model (_i 0),
 * lights alone (1), its only model hidden (2). The empty list of draws was
 * handed to qsort as NULL, which UBSan stops at (views3d.c). */
START_TEST(test_view_with_nothing_to_draw)
{
	struct ref_camera ref = front_camera(SIZE);
	struct sg_camera camera = sg_camera_of(&ref);
	struct sg_scene *scene = sg_scene_create();
	sg_node view = view_add(scene, sg_scene_root(scene), &camera, plain_ambient);
	if (_i >= 1) {
		struct ref_light light = front_light();
		light_add(scene, view, &light);
	}
	if (_i == 2) {
		sg_node model =
		    model_add(scene, view,
		              quad_mesh(scene, (struct dvec3){0, 0, 0}, (struct dvec3){1, 0, 0},
		                        (struct dvec3){0, 1, 0}),
		              material_new(scene, &plain_material, NULL));
		ck_assert_int_eq(sg_node_set_visible(scene, model, false), SG_OK);
	}
	uint8_t *pixels = render(scene, SIZE, NULL);
	static const char *const cases[] = {"an empty view", "a view of lights alone",
	                                    "a view whose model is hidden"};
	for (int y = 0; y < SIZE; y += 7)
		for (int x = 0; x < SIZE; x += 7)
			expect_pixel(pixels, SIZE, x, y, clear_bytes, 0, cases[_i]);
	free(pixels);
	sg_scene_destroy(scene);
}
END_TEST

/* A view nested in another counts and uses its own lights: 8 in the outer
 * view and 1 in the nested one (_i 0), or 1 and 8 (_i 1), render; the outer
 * view's quad (left) is lit by the outer view's lights alone, the nested
 * view's quad (right) by its own, each with its view's ambient. */
START_TEST(test_nested_view_has_lights_of_its_own)
{
	struct ref_camera ref = front_camera(SIZE);
	struct sg_camera camera = sg_camera_of(&ref);
	struct sg_scene *scene = sg_scene_create();
	static const double nested_ambient[3] = {0.1, 0.02, 0.06};
	sg_node outer = view_add(scene, sg_scene_root(scene), &camera, plain_ambient);
	sg_node nested = view_add(scene, outer, NULL, nested_ambient);
	sg_material material = material_new(scene, &plain_material, NULL);
	model_add(scene, outer,
	          quad_mesh(scene, (struct dvec3){-0.8, 0, 0}, (struct dvec3){0.6, 0, 0},
	                    (struct dvec3){0, 0.6, 0}),
	          material);
	model_add(scene, nested,
	          quad_mesh(scene, (struct dvec3){0.8, 0, 0}, (struct dvec3){0.6, 0, 0},
	                    (struct dvec3){0, 0.6, 0}),
	          material);
	/* the outer view's lights from the upper right, the nested one's from
	 * the left, each set summing to the same light */
	struct ref_light outer_lights[SG_VIEW3D_MAX_LIGHTS], nested_lights[SG_VIEW3D_MAX_LIGHTS];
	int outer_count = _i == 0 ? SG_VIEW3D_MAX_LIGHTS : 1;
	int nested_count = _i == 0 ? 1 : SG_VIEW3D_MAX_LIGHTS;
	for (int i = 0; i < outer_count; i++) {
		outer_lights[i] = front_light();
		outer_lights[i].intensity = 1.6 / outer_count;
		light_add(scene, outer, &outer_lights[i]);
	}
	sg_node nested_nodes[SG_VIEW3D_MAX_LIGHTS];
	for (int i = 0; i < nested_count; i++) {
		nested_lights[i] =
		    (struct ref_light){.type = REF_DIRECTIONAL,
		                       .color = {1, 0.8, 0.6},
		                       .intensity = 1.2 / nested_count,
		                       .direction = dvec3_normalize((struct dvec3){0.6, 0.1, -1})};
		nested_nodes[i] = light_add(scene, nested, &nested_lights[i]);
	}
	/* then, on the same renderer (damage tracking on), the nested view's
	 * lights dimmed: its frame repaints, the outer view's quad keeps its light */
	struct sg_renderer *renderer = renderer_new(SIZE);
	uint8_t *pixels = malloc(SIZE * SIZE * 4);
	ck_assert_ptr_nonnull(pixels);
	for (int step = 0; step < 2; step++) {
		for (int i = 0; step == 1 && i < nested_count; i++) {
			nested_lights[i].intensity /= 2;
			struct sg_light_desc desc = {.type = SG_LIGHT_DIRECTIONAL,
			                             .color = {1, 0.8f, 0.6f},
			                             .intensity = (float)nested_lights[i].intensity};
			ck_assert_int_eq(sg_light_set(scene, nested_nodes[i], &desc), SG_OK);
		}
		ck_assert_msg(sg_renderer_render(renderer, scene, NULL) == SG_OK, "%s",
		              sg_last_error());
		ck_assert_int_eq(sg_renderer_read_pixels(renderer, pixels, 0), SG_OK);
		int x, y;
		pixel_of(&ref, (struct dvec3){-0.8, 0.1, 0}, &x, &y);
		expect_lit_front(pixels, &ref, x, y, 0, &plain_material, outer_lights, outer_count,
		                 plain_ambient, "the outer view's quad, by the outer view's lights");
		pixel_of(&ref, (struct dvec3){0.8, -0.1, 0}, &x, &y);
		expect_lit_front(pixels, &ref, x, y, 0, &plain_material, nested_lights, nested_count,
		                 nested_ambient,
		                 step ? "the nested view's quad, its lights dimmed"
		                      : "the nested view's quad, by its own lights");
	}
	sg_renderer_destroy(renderer);
	free(pixels);
	sg_scene_destroy(scene);
}
END_TEST

/* A nested view draws in the outer view's depth buffer: its quad behind the
 * outer view's is hidden where they overlap, whichever the tree puts
 * first (_i), and shows beside it. */
START_TEST(test_nested_view_shares_the_depth)
{
	struct ref_camera ref = front_camera(SIZE);
	struct sg_camera camera = sg_camera_of(&ref);
	struct sg_scene *scene = sg_scene_create();
	sg_node outer = view_add(scene, sg_scene_root(scene), &camera, NULL);
	sg_node nested = view_add(scene, outer, NULL, NULL);
	static const double front_rgba[4] = {0.9, 0.2, 0.1, 1}, back_rgba[4] = {0.1, 0.3, 0.9, 1};
	sg_node front = model_add(scene, outer,
	                          quad_mesh(scene, (struct dvec3){0, 0, 0},
	                                    (struct dvec3){0.5, 0, 0}, (struct dvec3){0, 0.5, 0}),
	                          unlit_new(scene, front_rgba, SG_ALPHA_OPAQUE));
	model_add(scene, nested,
	          quad_mesh(scene, (struct dvec3){0, 0, -1}, (struct dvec3){1.5, 0, 0},
	                    (struct dvec3){0, 1.5, 0}),
	          unlit_new(scene, back_rgba, SG_ALPHA_OPAQUE));
	if (_i == 1) /* the outer view's quad after the nested view */
		ck_assert_int_eq(sg_node_reparent(scene, front, outer), SG_OK);
	uint8_t *pixels = render(scene, SIZE, NULL);
	uint8_t front_bytes[4], back_bytes[4];
	unlit_bytes(front_rgba, front_bytes);
	unlit_bytes(back_rgba, back_bytes);
	int x, y;
	pixel_of(&ref, (struct dvec3){0, 0, 0}, &x, &y);
	expect_pixel(pixels, SIZE, x, y, front_bytes, 1, "the nearer quad, the outer view's");
	pixel_of(&ref, (struct dvec3){1.2, 0, -1}, &x, &y);
	expect_pixel(pixels, SIZE, x, y, back_bytes, 1, "the nested view's quad beside it");
	free(pixels);
	sg_scene_destroy(scene);
}
END_TEST

int main(void)
{
	Suite *suite = suite_create("render3d");
	TCase *tc = tcase_create("render3d");
	tcase_set_timeout(tc, 120);
	/* Every code path of the 3D views once, for valgrind too */
	tcase_add_test(tc, test_lit_cube_faces_match_the_brdf);
	tcase_add_loop_test(tc, test_nearer_quad_wins_whatever_the_order, 0, 2);
	tcase_add_test(tc, test_back_faces_culled_unless_double_sided);
	tcase_add_loop_test(tc, test_mask_discards_below_the_cutoff, 0, 3);
	tcase_add_loop_test(tc, test_blend_draws_farthest_first, 0, 2);
	tcase_add_test(tc, test_opacity_fades_an_opaque_material);
	tcase_add_test(tc, test_2d_before_the_view_is_under_it_after_is_over);
	tcase_add_test(tc, test_viewport_places_the_picture);
	tcase_add_test(tc, test_unlit_and_no_material_colours);
	tcase_add_test(tc, test_invalid_meshes_are_refused);
	tcase_add_test(tc, test_destroyed_material_fails_the_render);
	tcase_add_test(tc, test_too_many_lights_fail_the_render);
	tcase_add_loop_test(tc, test_spot_light_cones, 0, 2);
	tcase_add_test(tc, test_vertex_colours_and_uv_sets);
	tcase_add_loop_test(tc, test_material_textures, 0, 3);
	tcase_add_test(tc, test_first_frame_binds_each_texture_to_its_unit);
	tcase_add_loop_test(tc, test_texel_colour_whatever_its_alpha, 0, 2);
	tcase_add_test(tc, test_texture_shared_by_2d_and_a_material_follows_updates);
	tcase_add_loop_test(tc, test_sampler_wraps_and_filters, 0, 5);
	tcase_add_loop_test(tc, test_sampler_min_filter, 0, 2);
	tcase_add_test(tc, test_scene_file_sampler);
	/* the derived frame along u (the case the y flip broke); all four below */
	tcase_add_loop_test(tc, test_normal_texture_with_and_without_tangents, 0, 1);
	tcase_add_test(tc, test_editing_lights_and_views_repaints);
	tcase_add_test(tc, test_hidden_view_and_light);
	tcase_add_test(tc, test_cubes_sharing_mesh_and_material);
	tcase_add_loop_test(tc, test_view_with_nothing_to_draw, 0, 3);
	tcase_add_loop_test(tc, test_nested_view_has_lights_of_its_own, 0, 2);
	tcase_add_loop_test(tc, test_nested_view_shares_the_depth, 0, 2);
	/* More of the same paths with other numbers: the memory checker (30
	 * times slower, six minutes for the whole suite) learns nothing new
	 * from them. */
	if (!RUNNING_ON_VALGRIND) {
		tcase_add_test(tc, test_lit_cube_every_pixel);
		tcase_add_test(tc, test_each_view_clears_depth);
		tcase_add_test(tc, test_view_without_camera_uses_the_render_camera);
		tcase_add_test(tc, test_light_outside_the_view_lights_nothing);
		tcase_add_test(tc, test_intersecting_quads_are_resolved_per_pixel);
		tcase_add_test(tc, test_mirroring_swaps_front_faces);
		tcase_add_test(tc, test_emissive_adds_to_the_light);
		tcase_add_test(tc, test_computed_flat_normals_equal_given_ones);
		tcase_add_test(tc, test_16_bit_indices_draw_as_32_bit);
		tcase_add_test(tc, test_mesh_bounds);
		tcase_add_test(tc, test_material_defaults_and_refusals);
		tcase_add_test(tc, test_point_light_with_range);
		tcase_add_loop_test(tc, test_normal_texture_with_and_without_tangents, 1, 4);
		tcase_add_test(tc, test_orthographic_view_direction);
		tcase_add_test(tc, test_fresnel_at_grazing_angles);
		tcase_add_test(tc, test_normals_under_non_uniform_scale);
		tcase_add_test(tc, test_culling_keeps_views_with_their_own_camera);
		tcase_add_test(tc, test_translucent_models_sharing_mesh_and_material);
	}
	suite_add_tcase(suite, tc);
	return check_run(suite);
}
