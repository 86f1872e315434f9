/* The gl layer: program building and its errors, uploads and their limits. A
 * surfaceless target provides the context; nothing here needs a DRM device. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <sg/sg.h>

#include "check_run.h"
#include "../src/gl/cache.h"
#include "../src/gl/check.h"
#include "../src/gl/material.h"
#include "../src/gl/program.h"
#include "../src/graph/scene_internal.h"
#include "../src/surfaceless/target_surfaceless.h"

static struct sg_target *target;

static void setup(void)
{
	ck_assert_msg(sg_target_surfaceless_create(16, 16, &target) == SG_OK, "%s", sg_last_error());
	ck_assert_int_eq(sg_target_bind(target, NULL), SG_OK);
}

static void teardown(void)
{
	sg_target_destroy(target);
	target = NULL;
}

START_TEST(test_embedded_program_builds)
{
	GLuint program;
	ck_assert_msg(sg_gl_program_build(sg_shader_textured_vert, sg_shader_textured_frag,
	                                  &program) == SG_OK,
	              "%s", sg_last_error());
	ck_assert_uint_ne(program, 0);
	ck_assert_int_eq(glGetAttribLocation(program, "Matrix"), 2);
	ck_assert_int_ge(glGetUniformLocation(program, "Tex"), 0);
	/* the sources are the ones of src/gl/material_textured.*, with the lines the spec names */
	ck_assert_ptr_nonnull(strstr(sg_shader_textured_vert, "gl_Position = Matrix * inVertexCoord;"));
	ck_assert_ptr_nonnull(strstr(sg_shader_textured_frag, "Color = texture(Tex, vsTexCoord);"));
	glDeleteProgram(program);
}
END_TEST

/* Defines go after the #version line of both stages: the all-white variant
 * links without the colour input, and a define each stage sees is used. */
START_TEST(test_defines_reach_both_stages)
{
	GLuint program;
	ck_assert_msg(sg_gl_program_build_defined(sg_shader_textured_vert, sg_shader_textured_frag,
	                                          "#define ALL_WHITE 1\n", &program) == SG_OK,
	              "%s", sg_last_error());
	ck_assert_int_eq(glGetAttribLocation(program, "Matrix"), 2);
	ck_assert_int_eq(glGetAttribLocation(program, "inColor"), -1); /* not read */
	glDeleteProgram(program);
	ck_assert_msg(sg_gl_program_build(sg_shader_textured_vert, sg_shader_textured_frag,
	                                  &program) == SG_OK,
	              "%s", sg_last_error());
	ck_assert_int_eq(glGetAttribLocation(program, "inColor"), 7);
	glDeleteProgram(program);
	const char *v = "#version 300 es\nvoid main() { gl_Position = vec4(STAGE_V); }\n";
	const char *f = "#version 300 es\nprecision mediump float;\nout vec4 c;\n"
	                "void main() { c = vec4(STAGE_F); }\n";
	ck_assert_msg(sg_gl_program_build_defined(v, f, "#define STAGE_V 0.0\n#define STAGE_F 1.0\n",
	                                          &program) == SG_OK,
	              "%s", sg_last_error());
	glDeleteProgram(program);
	ck_assert_int_eq(sg_gl_program_build_defined(v, f, "#define STAGE_V 0.0\n", &program),
	                 SG_ERR_SHADER);
	ck_assert_msg(strstr(sg_last_error(), "fragment shader failed to compile"), "%s",
	              sg_last_error());
	/* a source of one line has no place after its #version line */
	ck_assert_int_eq(sg_gl_program_build_defined("#version 300 es", f, "#define X 1\n", &program),
	                 SG_ERR_INVALID_ARGUMENT);
	ck_assert_uint_eq(program, 0);
	ck_assert_msg(strstr(sg_last_error(), "vertex shader: defines need a #version line"), "%s",
	              sg_last_error());
}
END_TEST

START_TEST(test_compile_error_has_info_log)
{
	GLuint program = 123;
	const char *broken = "#version 300 es\nvoid main() { gl_Position = undefined_thing; }\n";
	ck_assert_int_eq(sg_gl_program_build(broken, sg_shader_textured_frag, &program),
	                 SG_ERR_SHADER);
	ck_assert_uint_eq(program, 0);
	ck_assert_msg(strstr(sg_last_error(), "vertex shader failed to compile"), "%s",
	              sg_last_error());
	ck_assert_msg(strstr(sg_last_error(), "undefined_thing"), "no info log: %s", sg_last_error());
	ck_assert_int_eq(sg_gl_program_build(sg_shader_textured_vert, "#version 300 es\nnope", &program),
	                 SG_ERR_SHADER);
	ck_assert_msg(strstr(sg_last_error(), "fragment shader failed"), "%s", sg_last_error());
}
END_TEST

START_TEST(test_link_error_has_info_log)
{
	/* Each stage compiles, but the fragment shader reads a varying the vertex
	 * shader never writes: a link error. */
	const char *fragment = "#version 300 es\nprecision mediump float;\nin vec3 missing;\n"
	                       "out vec4 c;\nvoid main() { c = vec4(missing, 1.0); }\n";
	GLuint program = 7;
	ck_assert_int_eq(sg_gl_program_build(sg_shader_textured_vert, fragment, &program),
	                 SG_ERR_SHADER);
	ck_assert_uint_eq(program, 0);
	ck_assert_msg(strstr(sg_last_error(), "failed to link"), "%s", sg_last_error());
	ck_assert_msg(strstr(sg_last_error(), "missing"), "%s", sg_last_error());
}
END_TEST

START_TEST(test_texture_beyond_max_size)
{
	/* A texture larger than GL_MAX_TEXTURE_SIZE is refused with both sizes named. */
	struct sg_scene *scene = sg_scene_create();
	int side = 4096;
	uint8_t *pixels = calloc((size_t)side * 4, 2);
	sg_texture t = sg_texture_create(scene, &(struct sg_texture_desc){side, 2, pixels, 0, 0, 0});
	ck_assert(t.generation);
	struct sg_gl_cache cache = {0}, meshes = {0};
	GLuint name;
	ck_assert_int_eq(sg_gl_cache_texture(&cache, scene, t.index, 1024, &name), SG_ERR_GL);
	ck_assert_msg(strstr(sg_last_error(), "4096x2, larger than GL_MAX_TEXTURE_SIZE 1024"), "%s",
	              sg_last_error());
	/* within the limit it uploads, and a second request reuses the upload */
	ck_assert_int_eq(sg_gl_cache_texture(&cache, scene, t.index, 8192, &name), SG_OK);
	GLuint again;
	ck_assert_int_eq(sg_gl_cache_texture(&cache, scene, t.index, 8192, &again), SG_OK);
	ck_assert_uint_eq(name, again);
	ck_assert(glIsTexture(name));
	sg_gl_cache_finish(&cache, &meshes);
	ck_assert(!glIsTexture(name));
	free(pixels);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_replaced_texture_is_uploaded_again)
{
	struct sg_scene *scene = sg_scene_create();
	uint8_t px[4] = {1, 2, 3, 4};
	sg_texture a = sg_texture_create(scene, &(struct sg_texture_desc){1, 1, px, 0, 0, 0});
	struct sg_gl_cache cache = {0}, meshes = {0};
	GLuint first, second;
	ck_assert_int_eq(sg_gl_cache_texture(&cache, scene, a.index, 4096, &first), SG_OK);
	/* Another scene's texture in the same slot index must not reuse the upload. */
	struct sg_scene *other = sg_scene_create();
	sg_texture b = sg_texture_create(other, &(struct sg_texture_desc){1, 1, px, 0, 0, 0});
	ck_assert_uint_eq(a.index, b.index);
	ck_assert_int_eq(sg_gl_cache_texture(&cache, other, b.index, 4096, &second), SG_OK);
	ck_assert(!glIsTexture(first) || first == second);
	ck_assert_uint_eq(cache.objects[b.index].scene, b.scene);
	sg_gl_cache_finish(&cache, &meshes);
	sg_scene_destroy(other);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_gl_errors_are_named_and_drained)
{
	/* The check behind every upload and draw: a GL error becomes SG_ERR_GL
	 * naming the step and the error, and is not blamed on the next step. */
	glBindTexture(0x1234, 0); /* an invalid target */
	ck_assert_int_eq(sg_gl_check("binding the test texture"), SG_ERR_GL);
	ck_assert_msg(strstr(sg_last_error(), "binding the test texture: GL_INVALID_ENUM"), "%s",
	              sg_last_error());
	ck_assert_int_eq(sg_gl_check("the next step"), SG_OK);
}
END_TEST

START_TEST(test_destroyed_resources_free_their_gl_copies)
{
	struct sg_scene *scene = sg_scene_create();
	uint8_t px[4] = {1, 2, 3, 4};
	sg_texture a = sg_texture_create(scene, &(struct sg_texture_desc){1, 1, px, 0, 0, 0});
	sg_mesh quad = sg_mesh_create_quad(scene, 1, 1);
	struct sg_gl_cache textures = {0}, meshes = {0};
	GLuint name;
	const struct sg_gl_object *mesh;
	ck_assert_int_eq(sg_gl_cache_texture(&textures, scene, a.index, 4096, &name), SG_OK);
	ck_assert_int_eq(sg_gl_cache_mesh(&meshes, scene, quad.index, &mesh), SG_OK);
	GLuint vertex_array = mesh->name;
	sg_gl_cache_prune(&textures, &meshes, scene); /* nothing destroyed: nothing freed */
	ck_assert(glIsTexture(name) && glIsVertexArray(vertex_array));
	sg_texture_destroy(scene, a);
	sg_mesh_destroy(scene, quad);
	sg_gl_cache_prune(&textures, &meshes, scene);
	ck_assert(!glIsTexture(name));
	ck_assert(!glIsVertexArray(vertex_array));
	/* the scene reuses the slots for new resources, with new generations */
	sg_texture b = sg_texture_create(scene, &(struct sg_texture_desc){1, 1, px, 0, 0, 0});
	ck_assert_uint_eq(b.index, a.index);
	ck_assert_uint_ne(b.generation, a.generation);
	ck_assert(!sg_texture_exists(scene, a));
	for (int i = 0; i < 1000; i++) {
		sg_texture t = sg_texture_create(scene, &(struct sg_texture_desc){1, 1, px, 0, 0, 0});
		sg_texture_destroy(scene, t);
	}
	ck_assert_uint_le(scene->texture_pool.used, 2);
	sg_gl_cache_finish(&textures, &meshes);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_texture_update_uploads_the_rectangle)
{
	/* The cache brings its copy up to date with the rectangle alone, and
	 * leaves the unpack state as a whole upload of another texture needs it. */
	struct sg_scene *scene = sg_scene_create();
	uint8_t px[8 * 8 * 4] = {0}, patch[2 * 3 * 4];
	memset(patch, 200, sizeof(patch));
	sg_texture a = sg_texture_create(scene, &(struct sg_texture_desc){8, 8, px, 0, 0, 0});
	struct sg_gl_cache cache = {0}, meshes = {0};
	GLuint name, again;
	ck_assert_int_eq(sg_gl_cache_texture(&cache, scene, a.index, 4096, &name), SG_OK);
	ck_assert_int_eq(sg_texture_update(scene, a, 5, 4, 2, 3, patch, 0), SG_OK);
	struct sg_gl_upload_stats before = sg_gl_upload_stats();
	ck_assert_int_eq(sg_gl_cache_texture(&cache, scene, a.index, 4096, &again), SG_OK);
	struct sg_gl_upload_stats after = sg_gl_upload_stats();
	ck_assert_uint_eq(again, name);
	ck_assert_uint_eq(after.calls - before.calls, 1);
	ck_assert_uint_eq(after.bytes - before.bytes, sizeof(patch));
	ck_assert_uint_eq(after.whole, before.whole);
	ck_assert_uint_eq(cache.objects[a.index].update_serial, 1);
	GLint row_length = -1;
	glGetIntegerv(GL_UNPACK_ROW_LENGTH, &row_length);
	ck_assert_int_eq(row_length, 0);
	sg_gl_cache_finish(&cache, &meshes);
	sg_scene_destroy(scene);
}
END_TEST

/* One cache serves every material kind: each kind's program builds from
 * its key (with the features it takes), a key asked again is the program
 * already built, keys that differ in a feature are programs of their own,
 * and past SG_GL_PROGRAMS keys the oldest is built again. */
START_TEST(test_one_program_cache_for_every_material)
{
	struct sg_gl_programs_cache cache = {0};
	struct sg_gl_program *p, *again;
	GLuint names[SG_GL_MATERIAL_KINDS];
	for (int kind = 0; kind < SG_GL_MATERIAL_KINDS; kind++) {
		const struct sg_gl_material *m = sg_gl_materials[kind];
		uint64_t key = sg_gl_key((enum sg_gl_material_kind)kind, m->features, 0);
		ck_assert_msg(sg_gl_program_of(&cache, key, &p) == SG_OK, "%s: %s", m->name,
		              sg_last_error());
		ck_assert_uint_eq(p->key, key);
		names[kind] = p->name;
		for (int k = 0; k < kind; k++)
			ck_assert_uint_ne(names[k], p->name);
		if (m->features & SG_GL_FEATURE_CLIP) /* the clip test's table */
			ck_assert_int_ge(glGetUniformLocation(p->name, "ClipTable"), 0);
	}
	ck_assert_uint_eq(cache.builds, SG_GL_MATERIAL_KINDS);
	for (int kind = 0; kind < SG_GL_MATERIAL_KINDS; kind++) {
		const struct sg_gl_material *m = sg_gl_materials[kind];
		ck_assert_int_eq(
		    sg_gl_program_of(
		        &cache, sg_gl_key((enum sg_gl_material_kind)kind, m->features, 0), &again),
		    SG_OK);
		ck_assert_uint_eq(again->name, names[kind]);
	}
	ck_assert_uint_eq(cache.builds, SG_GL_MATERIAL_KINDS);
	/* the textured program without the features is another */
	ck_assert_int_eq(sg_gl_program_of(&cache, sg_gl_key(SG_GL_MATERIAL_TEXTURED, 0, 0), &p),
	                 SG_OK);
	ck_assert_uint_ne(p->name, names[SG_GL_MATERIAL_TEXTURED]);
	ck_assert_int_eq(glGetUniformLocation(p->name, "ClipTable"), -1);
	/* shape variants are the shape kind's own bits: 9 of them, one refused */
	for (uint64_t variant = 1; variant < 9; variant++) {
		if (variant == 5 || variant == 7)
			continue;
		ck_assert_msg(sg_gl_program_of(&cache, sg_gl_key(SG_GL_MATERIAL_SHAPE, 0, variant),
		                               &p) == SG_OK,
		              "shape variant %u: %s", (unsigned)variant, sg_last_error());
	}
	/* more keys than kept (unlit ones, by their colour, uv, alpha and fade
	 * bits): the first ones built (the oldest) go, and come back built */
	for (uint64_t own = 0; own < 64; own++)
		ck_assert_msg(sg_gl_program_of(&cache, sg_gl_key(SG_GL_MATERIAL_UNLIT, 0, own << 8),
		                               &p) == SG_OK,
		              "unlit %x: %s", (unsigned)own, sg_last_error());
	uint64_t builds;
	ck_assert_uint_eq(cache.count, SG_GL_PROGRAMS);
	builds = cache.builds;
	ck_assert_int_eq(
	    sg_gl_program_of(
	        &cache, sg_gl_key(SG_GL_MATERIAL_TEXTURED, sg_gl_materials[0]->features, 0), &p),
	    SG_OK);
	ck_assert_uint_eq(cache.builds, builds + 1);
	sg_gl_programs_finish(&cache);
	ck_assert_uint_eq(cache.count, 0);
	ck_assert_int_eq(sg_gl_check("deleting the programs"), SG_OK);
}
END_TEST

int main(void)
{
	Suite *suite = suite_create("gl");
	TCase *tc = tcase_create("gl");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_embedded_program_builds);
	tcase_add_test(tc, test_defines_reach_both_stages);
	tcase_add_test(tc, test_compile_error_has_info_log);
	tcase_add_test(tc, test_link_error_has_info_log);
	tcase_add_test(tc, test_texture_beyond_max_size);
	tcase_add_test(tc, test_replaced_texture_is_uploaded_again);
	tcase_add_test(tc, test_gl_errors_are_named_and_drained);
	tcase_add_test(tc, test_destroyed_resources_free_their_gl_copies);
	tcase_add_test(tc, test_texture_update_uploads_the_rectangle);
	tcase_add_test(tc, test_one_program_cache_for_every_material);
	suite_add_tcase(suite, tc);
	return check_run(suite);
}
