/* The graph layer: scene and node operations, and every refusal. No GL. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sg/sg.h>

#include "expect.h"
#include "check_run.h"
#include "../src/base/alloc.h"
#include "../src/graph/scene_internal.h"

static uint32_t scene_id_of(const struct sg_scene *s)
{
	return s->id;
}

static uint32_t scene_view_count(const struct sg_scene *s)
{
	return s->view_count;
}
#include "../src/base/error.h"
#include "../src/graph/scene_internal.h"

static struct sg_scene *scene;
static sg_mesh quad;
static sg_texture texture;

static void setup(void)
{
	scene = sg_scene_create();
	ck_assert_ptr_nonnull(scene);
	quad = sg_mesh_create_quad(scene, 1, 1);
	unsigned char pixel[4] = {1, 2, 3, 4};
	texture = sg_texture_create(scene, &(struct sg_texture_desc){.width = 1, .height = 1,
	                                                             .pixels = pixel});
	ck_assert(sg_mesh_exists(scene, quad));
	ck_assert(sg_texture_exists(scene, texture));
}

static void teardown(void)
{
	sg_scene_destroy(scene);
	scene = NULL;
}

static sg_node group(const char *name)
{
	sg_node n = sg_node_new_group(scene, name);
	ck_assert(sg_node_exists(scene, n));
	return n;
}

static sg_node model(const char *name)
{
	sg_node n = sg_node_new_model(scene, &(struct sg_model_desc){.name = name, .mesh = quad,
	                                                            .texture = texture});
	ck_assert(sg_node_exists(scene, n));
	return n;
}

static bool same(sg_node a, sg_node b)
{
	return a.scene == b.scene && a.index == b.index && a.generation == b.generation;
}

#define ck_assert_error(call, code, fragment)                                       \
	do {                                                                            \
		sg_result r_ = (call);                                                      \
		ck_assert_msg(r_ == (code), "%s returned %s, expected %s (%s)", #call,      \
		              sg_result_name(r_), sg_result_name(code), sg_last_error());  \
		ck_assert_msg(strstr(sg_last_error(), fragment), "message '%s' lacks '%s'", \
		              sg_last_error(), fragment);                                   \
	} while (0)

START_TEST(test_root_exists)
{
	sg_node root = sg_scene_root(scene);
	ck_assert(sg_node_exists(scene, root));
	ck_assert_int_eq(sg_node_get_kind(scene, root), SG_NODE_GROUP);
	ck_assert_uint_eq(sg_scene_node_count(scene), 1);
	ck_assert(!sg_node_exists(scene, SG_NODE_NONE));
}
END_TEST

START_TEST(test_add_and_iterate_in_order)
{
	sg_node root = sg_scene_root(scene);
	sg_node a = group("a"), b = group("b"), c = model("c");
	ck_assert_int_eq(sg_node_add_child(scene, root, a), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, root, c), SG_OK);
	ck_assert_int_eq(sg_node_insert_child(scene, root, 1, b), SG_OK);
	ck_assert_uint_eq(sg_node_child_count(scene, root), 3);
	const char *expected[] = {"a", "b", "c"};
	int i = 0;
	for (sg_node n = sg_node_first_child(scene, root); n.generation;
	     n = sg_node_next_sibling(scene, n), i++) {
		ck_assert_str_eq(sg_node_get_name(scene, n), expected[i]);
		ck_assert(same(sg_node_get_parent(scene, n), root));
	}
	ck_assert_int_eq(i, 3);
	ck_assert(same(sg_node_child_at(scene, root, 2), c));
	ck_assert(!sg_node_child_at(scene, root, 3).generation);
}
END_TEST

START_TEST(test_insert_first_and_past_end)
{
	sg_node root = sg_scene_root(scene);
	sg_node a = group("a"), b = group("b"), c = group("c");
	ck_assert_int_eq(sg_node_add_child(scene, root, a), SG_OK);
	ck_assert_int_eq(sg_node_insert_child(scene, root, 0, b), SG_OK);
	ck_assert(same(sg_node_first_child(scene, root), b));
	ck_assert_error(sg_node_insert_child(scene, root, 3, c), SG_ERR_INVALID_ARGUMENT,
	                "past the 2 children");
	ck_assert(!sg_node_get_parent(scene, c).generation);
}
END_TEST

START_TEST(test_cycle_refused)
{
	sg_node root = sg_scene_root(scene);
	sg_node a = group("a"), b = group("b"), c = group("c");
	ck_assert_int_eq(sg_node_add_child(scene, root, a), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, a, b), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, b, c), SG_OK);
	ck_assert_error(sg_node_reparent(scene, a, c), SG_ERR_CYCLE, "'a'");
	ck_assert_error(sg_node_reparent(scene, a, a), SG_ERR_CYCLE, "own descendant");
	/* a detached subtree under its own leaf */
	ck_assert_int_eq(sg_node_remove(scene, a), SG_OK);
	ck_assert_error(sg_node_add_child(scene, c, a), SG_ERR_CYCLE, "own descendant");
	/* nothing moved */
	ck_assert(same(sg_node_get_parent(scene, c), b));
	ck_assert(!sg_node_get_parent(scene, a).generation);
}
END_TEST

START_TEST(test_refusals)
{
	sg_node root = sg_scene_root(scene);
	sg_node a = group("a"), m = model("m");
	ck_assert_int_eq(sg_node_add_child(scene, root, a), SG_OK);
	ck_assert_error(sg_node_add_child(scene, root, a), SG_ERR_BUSY, "already has a parent");
	ck_assert_error(sg_node_add_child(scene, m, group("x")), SG_ERR_INVALID_ARGUMENT,
	                "model 'm' cannot have children");
	ck_assert_error(sg_node_add_child(scene, a, root), SG_ERR_BUSY, "root");
	ck_assert_error(sg_node_destroy(scene, root), SG_ERR_BUSY, "root");
	ck_assert_error(sg_node_remove(scene, root), SG_ERR_BUSY, "root");
	ck_assert_error(sg_node_add_child(NULL, root, a), SG_ERR_INVALID_ARGUMENT, "NULL");
	ck_assert_error(sg_node_add_child(scene, root, SG_NODE_NONE), SG_ERR_STALE_HANDLE, "null");
}
END_TEST

START_TEST(test_foreign_node_refused)
{
	struct sg_scene *other = sg_scene_create();
	sg_node stranger = sg_node_new_group(other, "stranger");
	ck_assert_error(sg_node_add_child(scene, sg_scene_root(scene), stranger),
	                SG_ERR_FOREIGN_HANDLE, "belongs to scene");
	ck_assert_error(sg_node_add_child(scene, sg_scene_root(other), group("x")),
	                SG_ERR_FOREIGN_HANDLE, "parent");
	/* a foreign texture or mesh is refused too */
	unsigned char pixel[4] = {0};
	sg_texture foreign_texture = sg_texture_create(other, &(struct sg_texture_desc){
		.width = 1, .height = 1, .pixels = pixel});
	sg_node n = sg_node_new_model(scene, &(struct sg_model_desc){.mesh = quad,
	                                                            .texture = foreign_texture});
	ck_assert(!n.generation);
	ck_assert_msg(strstr(sg_last_error(), "texture belongs to scene"), "%s", sg_last_error());
	sg_scene_destroy(other);
}
END_TEST

START_TEST(test_stale_handles)
{
	sg_node root = sg_scene_root(scene);
	sg_node a = group("a"), b = group("b"), c = model("c");
	ck_assert_int_eq(sg_node_add_child(scene, root, a), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, a, b), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, b, c), SG_OK);
	ck_assert_uint_eq(sg_scene_node_count(scene), 4);
	ck_assert_int_eq(sg_node_destroy(scene, a), SG_OK);
	ck_assert_uint_eq(sg_scene_node_count(scene), 1);
	ck_assert_uint_eq(sg_node_child_count(scene, root), 0);
	sg_node stale[] = {a, b, c};
	for (int i = 0; i < 3; i++) {
		ck_assert(!sg_node_exists(scene, stale[i]));
		ck_assert_int_eq(sg_node_get_kind(scene, stale[i]), SG_NODE_INVALID);
		ck_assert_ptr_null(sg_node_get_name(scene, stale[i]));
		ck_assert_error(sg_node_add_child(scene, root, stale[i]), SG_ERR_STALE_HANDLE,
		                "was destroyed");
		ck_assert_error(sg_node_destroy(scene, stale[i]), SG_ERR_STALE_HANDLE, "was destroyed");
		ck_assert(!sg_node_first_child(scene, stale[i]).generation);
	}
	ck_assert_error(sg_transform_translate(scene, a, 1, 2, 3), SG_ERR_STALE_HANDLE, "destroyed");
	/* A new node may reuse the slot, but not the generation: the old handle stays stale. */
	sg_node d = group("d");
	ck_assert(!sg_node_exists(scene, a) && !sg_node_exists(scene, b) && !sg_node_exists(scene, c));
	ck_assert(sg_node_exists(scene, d));
	/* garbage handles */
	ck_assert(!sg_node_exists(scene, (sg_node){d.scene, 999999, 1}));
	ck_assert_error(sg_node_add_child(scene, root, (sg_node){d.scene, 999999, 1}),
	                SG_ERR_STALE_HANDLE, "#999999");
}
END_TEST

START_TEST(test_remove_keeps_subtree_and_reparent)
{
	sg_node root = sg_scene_root(scene);
	sg_node a = group("a"), b = group("b"), c = group("c");
	ck_assert_int_eq(sg_node_add_child(scene, root, a), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, a, b), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, root, c), SG_OK);
	ck_assert_int_eq(sg_node_remove(scene, a), SG_OK);
	ck_assert(sg_node_exists(scene, b));
	ck_assert(same(sg_node_get_parent(scene, b), a));
	ck_assert_uint_eq(sg_node_child_count(scene, root), 1);
	ck_assert_int_eq(sg_node_reparent(scene, a, c), SG_OK);
	ck_assert(same(sg_node_get_parent(scene, a), c));
	ck_assert_int_eq(sg_node_reparent(scene, b, root), SG_OK);
	ck_assert(same(sg_node_child_at(scene, root, 1), b));
	ck_assert_uint_eq(sg_node_child_count(scene, a), 0);
}
END_TEST

START_TEST(test_find_by_name)
{
	sg_node root = sg_scene_root(scene);
	sg_node a = group("a"), b = model("target"), c = group("c"), d = model("target");
	sg_node_add_child(scene, root, a);
	sg_node_add_child(scene, a, c);
	sg_node_add_child(scene, c, b);
	sg_node_add_child(scene, root, d);
	ck_assert(same(sg_node_find(scene, root, "target"), b)); /* depth-first: b before d */
	ck_assert(same(sg_node_find(scene, c, "c"), c));
	ck_assert(!sg_node_find(scene, c, "a").generation); /* outside the subtree */
	ck_assert(!sg_node_find(scene, root, "nobody").generation);
	ck_assert_msg(strstr(sg_last_error(), "no node named 'nobody'"), "%s", sg_last_error());
	ck_assert_int_eq(sg_node_set_name(scene, d, "renamed"), SG_OK);
	ck_assert(same(sg_node_find(scene, root, "renamed"), d));
	ck_assert_int_eq(sg_node_set_name(scene, d, NULL), SG_OK);
	ck_assert_str_eq(sg_node_get_name(scene, d), "");
}
END_TEST

START_TEST(test_transform_helpers)
{
	sg_node t = sg_node_new_transform(scene, &(struct sg_transform_desc){.name = "t"});
	float m[16];
	ck_assert_int_eq(sg_transform_get_matrix(scene, t, m), SG_OK);
	for (int i = 0; i < 16; i++)
		ck_assert_float_eq(m[i], i % 5 == 0 ? 1.0f : 0.0f);
	/* translate then scale: a point is scaled first, then translated */
	ck_assert_int_eq(sg_transform_translate(scene, t, 10, 20, 0), SG_OK);
	ck_assert_int_eq(sg_transform_scale(scene, t, 2, 3, 1), SG_OK);
	ck_assert_int_eq(sg_transform_get_matrix(scene, t, m), SG_OK);
	ck_assert_float_eq(m[0], 2.0f);
	ck_assert_float_eq(m[5], 3.0f);
	ck_assert_float_eq(m[12], 10.0f);
	ck_assert_float_eq(m[13], 20.0f);
	ck_assert_int_eq(sg_transform_set_identity(scene, t), SG_OK);
	ck_assert_int_eq(sg_transform_rotate(scene, t, (float)M_PI / 2, 0, 0, 1), SG_OK);
	ck_assert_int_eq(sg_transform_get_matrix(scene, t, m), SG_OK);
	/* column 0 is the image of x: (0, 1, 0) */
	ck_assert_float_eq_tol(m[0], 0.0f, 1e-6f);
	ck_assert_float_eq_tol(m[1], 1.0f, 1e-6f);
	const float set[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 7, 8, 9, 1};
	ck_assert_int_eq(sg_transform_set_matrix(scene, t, set), SG_OK);
	ck_assert_int_eq(sg_transform_get_matrix(scene, t, m), SG_OK);
	ck_assert_mem_eq(m, set, sizeof(set));
}
END_TEST

START_TEST(test_nonfinite_refused)
{
	sg_node t = sg_node_new_transform(scene, &(struct sg_transform_desc){.name = "t"});
	float m[16];
	ck_assert_error(sg_transform_translate(scene, t, NAN, 0, 0), SG_ERR_INVALID_ARGUMENT, "NaN");
	ck_assert_error(sg_transform_scale(scene, t, INFINITY, 1, 1), SG_ERR_INVALID_ARGUMENT, "'t'");
	/* finite arguments whose product overflows are refused too */
	ck_assert_int_eq(sg_transform_scale(scene, t, 1e30f, 1, 1), SG_OK);
	ck_assert_error(sg_transform_scale(scene, t, 1e30f, 1, 1), SG_ERR_INVALID_ARGUMENT, "NaN");
	ck_assert_int_eq(sg_transform_get_matrix(scene, t, m), SG_OK);
	ck_assert_float_eq(m[0], 1e30f); /* unchanged by the refused edit */
	const float bad[16] = {NAN};
	ck_assert(!sg_node_new_transform(scene, &(struct sg_transform_desc){.matrix = bad}).generation);
	ck_assert_msg(strstr(sg_last_error(), "NaN"), "%s", sg_last_error());
	ck_assert(!sg_node_new_model(scene, &(struct sg_model_desc){
		.mesh = quad, .texture = texture, .position = {0, INFINITY, 0}}).generation);
	sg_node m1 = model("m1");
	ck_assert_error(sg_model_set_position(scene, m1, 0, NAN, 0), SG_ERR_INVALID_ARGUMENT, "NaN");
	ck_assert_error(sg_transform_translate(scene, m1, 1, 1, 1), SG_ERR_INVALID_ARGUMENT,
	                "not a transform");
}
END_TEST

START_TEST(test_resources)
{
	unsigned char pixels[16] = {0};
	ck_assert(!sg_texture_create(scene, &(struct sg_texture_desc){.width = 0, .height = 1,
	                                                              .pixels = pixels}).generation);
	ck_assert_msg(strstr(sg_last_error(), "0x1"), "%s", sg_last_error());
	ck_assert(!sg_texture_create(scene, &(struct sg_texture_desc){.width = 20000, .height = 1,
	                                                              .pixels = pixels}).generation);
	ck_assert(!sg_texture_create(scene, &(struct sg_texture_desc){.width = 2, .height = 2,
	                                                              .pixels = NULL}).generation);
	ck_assert(!sg_texture_create(scene, &(struct sg_texture_desc){
		.width = 2, .height = 2, .pixels = pixels, .stride = 4}).generation);
	ck_assert_msg(strstr(sg_last_error(), "stride 4"), "%s", sg_last_error());
	const struct sg_vertex v[3] = {{{0, 0, 0}, {0, 0}}, {{1, 0, 0}, {1, 0}}, {{0, 1, 0}, {0, 1}}};
	const uint32_t bad_indices[3] = {0, 1, 3};
	ck_assert(!sg_mesh_create(scene, &(struct sg_mesh_desc){
		.vertices = v, .vertex_count = 3, .indices = bad_indices, .index_count = 3}).generation);
	ck_assert_msg(strstr(sg_last_error(), "index 2 is 3"), "%s", sg_last_error());
	ck_assert(!sg_mesh_create(scene, &(struct sg_mesh_desc){.vertices = v, .vertex_count = 2})
	               .generation);
	sg_mesh tri = sg_mesh_create(scene, &(struct sg_mesh_desc){.vertices = v, .vertex_count = 3});
	ck_assert(sg_mesh_exists(scene, tri));
	sg_node m = model("m");
	ck_assert_int_eq(sg_model_set_mesh(scene, m, tri), SG_OK);
	ck_assert_int_eq(sg_mesh_destroy(scene, tri), SG_OK);
	ck_assert(!sg_mesh_exists(scene, tri));
	ck_assert_error(sg_mesh_destroy(scene, tri), SG_ERR_STALE_HANDLE,
	                "mesh #1 (generation 1) was destroyed");
	ck_assert_error(sg_model_set_mesh(scene, m, tri), SG_ERR_STALE_HANDLE,
	                "mesh #1 (generation 1) was destroyed");
	ck_assert_int_eq(sg_texture_destroy(scene, texture), SG_OK);
	ck_assert_error(sg_model_set_texture(scene, m, texture), SG_ERR_STALE_HANDLE, "destroyed");
}
END_TEST

START_TEST(test_png_load_errors)
{
	sg_texture t = sg_texture_load_png(scene, "/nonexistent/x.png", SG_FILTER_NEAREST,
	                                   SG_WRAP_CLAMP);
	ck_assert(!t.generation);
	ck_assert_msg(strstr(sg_last_error(), "cannot open '/nonexistent/x.png'"), "%s",
	              sg_last_error());
	char path[] = "/tmp/sg-test-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "not a png at all", 16), 16);
	close(fd);
	t = sg_texture_load_png(scene, path, SG_FILTER_NEAREST, SG_WRAP_CLAMP);
	ck_assert(!t.generation);
	ck_assert_msg(strstr(sg_last_error(), "is not a PNG file"), "%s", sg_last_error());
	unlink(path);
}
END_TEST

START_TEST(test_png_too_large_refused)
{
	/* a valid PNG 20000 pixels wide: over the 16384 side limit */
	unsigned char *row = calloc(20000, 4);
	char path[] = "/tmp/sg-wide-XXXXXX.png";
	close(mkstemps(path, 4));
	ck_assert_int_eq(sg_image_write_png(path, 20000, 1, row, 0), SG_OK);
	sg_texture t = sg_texture_load_png(scene, path, SG_FILTER_NEAREST, SG_WRAP_CLAMP);
	ck_assert(!t.generation);
	ck_assert_msg(strstr(sg_last_error(), "is 20000x1: more than 16384 pixels on a side"), "%s", sg_last_error());
	unlink(path);
	free(row);
}
END_TEST

START_TEST(test_png_roundtrip)
{
	unsigned char pixels[3 * 2 * 4];
	for (int i = 0; i < (int)sizeof(pixels); i++)
		pixels[i] = (unsigned char)(i * 11);
	char path[] = "/tmp/sg-test-XXXXXX.png";
	int fd = mkstemps(path, 4);
	close(fd);
	ck_assert_int_eq(sg_image_write_png(path, 3, 2, pixels, 0), SG_OK);
	sg_texture t = sg_texture_load_png(scene, path, SG_FILTER_NEAREST, SG_WRAP_CLAMP);
	ck_assert_msg(t.generation, "%s", sg_last_error());
	unlink(path);
	/* the loaded copy is what the renderer will upload */
	const struct sg_texture_data *data = sg_scene_texture(scene, t);
	ck_assert_int_eq(data->width, 3);
	ck_assert_int_eq(data->height, 2);
	ck_assert_mem_eq(data->pixels, pixels, sizeof(pixels));
}
END_TEST

START_TEST(test_write_png_unwritable)
{
	unsigned char pixel[4] = {0};
	ck_assert_error(sg_image_write_png("/nonexistent-dir/out.png", 1, 1, pixel, 0), SG_ERR_IO,
	                "/nonexistent-dir/out.png");
	ck_assert_error(sg_image_write_png("/tmp/x.png", 0, 1, pixel, 0), SG_ERR_INVALID_ARGUMENT,
	                "0x1");
}
END_TEST

START_TEST(test_deep_chain_destroy)
{
	/* 100000 levels: every walk must be iterative. */
	sg_node parent = sg_scene_root(scene), first = SG_NODE_NONE;
	for (int i = 0; i < 100000; i++) {
		sg_node t = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
		expect(sg_node_add_child(scene, parent, t) == SG_OK, "level %d: %s", i, sg_last_error());
		if (i == 0)
			first = t;
		parent = t;
	}
	ck_assert_uint_eq(sg_scene_node_count(scene), 100001);
	ck_assert(!sg_node_find(scene, sg_scene_root(scene), "nope").generation);
	/* a cycle check against the deepest node walks all the way up */
	ck_assert_error(sg_node_reparent(scene, first, parent), SG_ERR_CYCLE, "own descendant");
	ck_assert_int_eq(sg_node_destroy(scene, first), SG_OK);
	ck_assert_uint_eq(sg_scene_node_count(scene), 1);
}
END_TEST

/* The children of parent, checked link by link against the reference order:
 * both directions, both ends, the count and child_at. */
static void check_children(sg_node parent, const sg_node *expected, size_t count)
{
	const struct sg_node_links *links = scene->links;
	ck_assert_uint_eq(sg_node_child_count(scene, parent), count);
	uint32_t c = sg_scene_first_child(scene, parent.index), previous = 0;
	for (size_t i = 0; i < count; i++) {
		expect(c == expected[i].index, "child %zu is #%u, expected #%u", i, c, expected[i].index);
		expect(links[c].prev_sibling == previous, "child %zu: previous sibling #%u, expected #%u",
		       i, links[c].prev_sibling, previous);
		expect(scene->parent[c] == parent.index, "child %zu: parent #%u, expected #%u", i,
		       scene->parent[c], parent.index);
		previous = c;
		c = links[c].next_sibling;
	}
	ck_assert_uint_eq(c, 0);
	ck_assert_uint_eq(sg_scene_last_child(scene, parent.index), previous);
	if (count)
		ck_assert(same(sg_node_child_at(scene, parent, count / 3), expected[count / 3]));
	ck_assert(!sg_node_child_at(scene, parent, count).generation);
}

static uint32_t next_random(uint32_t *state)
{
	/* xorshift32: the same sequence on every run and platform */
	*state ^= *state << 13;
	*state ^= *state >> 17;
	*state ^= *state << 5;
	return *state;
}

START_TEST(test_child_order_matches_model)
{
	/* Random prepends, appends, middle inserts, removals and destroys under
	 * two parents, each compared with a plain array after every step. */
	enum { NODES = 64, STEPS = 3000 };
	sg_node parents[2] = {sg_scene_root(scene), group("other")};
	sg_node order[2][NODES], detached[NODES];
	size_t count[2] = {0, 0}, detached_count = 0;
	for (int i = 0; i < NODES; i++)
		detached[detached_count++] = group(NULL);
	uint32_t state = 2463534242u;
	for (int step = 0; step < STEPS; step++) {
		int p = next_random(&state) % 2;
		sg_node *list = order[p];
		uint32_t choice = next_random(&state) % 5;
		if (choice < 3 && detached_count) {
			/* 0: prepend, 1: append, 2: anywhere */
			size_t at = choice == 0   ? 0
			            : choice == 1 ? count[p]
			                          : next_random(&state) % (count[p] + 1);
			sg_node n = detached[--detached_count];
			sg_result result = choice == 1 && step % 2
			                           ? sg_node_add_child(scene, parents[p], n)
			                           : sg_node_insert_child(scene, parents[p], at, n);
			ck_assert_int_eq(result, SG_OK);
			memmove(&list[at + 1], &list[at], (count[p] - at) * sizeof(*list));
			list[at] = n;
			count[p]++;
		} else if (count[p]) {
			size_t at = next_random(&state) % count[p];
			sg_node n = list[at];
			if (choice == 4) {
				ck_assert_int_eq(sg_node_destroy(scene, n), SG_OK);
				n = group(NULL);
			} else {
				ck_assert_int_eq(sg_node_remove(scene, n), SG_OK);
			}
			memmove(&list[at], &list[at + 1], (count[p] - at - 1) * sizeof(*list));
			count[p]--;
			detached[detached_count++] = n;
		}
		check_children(parents[p], order[p], count[p]);
	}
	ck_assert_int_eq(sg_node_add_child(scene, parents[0], parents[1]), SG_OK);
	order[0][count[0]++] = parents[1];
	check_children(parents[0], order[0], count[0]);
	check_children(parents[1], order[1], count[1]);
}
END_TEST

START_TEST(test_prepend_and_append_walk_no_siblings)
{
	/* Not timed: sg_scene_sibling_steps() counts the links followed, which was
	 * n(n+1)/2 for n prepends when insert_child counted the children first. */
	sg_node root = sg_scene_root(scene);
	uint64_t before = sg_scene_sibling_steps();
	for (int i = 0; i < 2000; i++) {
		ck_assert_int_eq(sg_node_insert_child(scene, root, 0, group(NULL)), SG_OK);
		size_t end = sg_node_child_count(scene, root);
		ck_assert_int_eq(sg_node_insert_child(scene, root, end, group(NULL)), SG_OK);
	}
	ck_assert_uint_eq(sg_node_child_count(scene, root), 4000);
	ck_assert_uint_eq(sg_scene_sibling_steps() - before, 0);
	/* the middle is reached from the nearer end: at most half the list */
	before = sg_scene_sibling_steps();
	sg_node middle = group("middle");
	ck_assert_int_eq(sg_node_insert_child(scene, root, 3000, middle), SG_OK);
	ck_assert(same(sg_node_child_at(scene, root, 3000), middle));
	ck_assert_uint_le(sg_scene_sibling_steps() - before, 2 * 1000);
}
END_TEST

START_TEST(test_zero_rotation_axis_refused)
{
	sg_node t = sg_node_new_transform(scene, &(struct sg_transform_desc){.name = "t"});
	float before[16], after[16];
	ck_assert_int_eq(sg_transform_translate(scene, t, 1, 2, 3), SG_OK);
	sg_transform_get_matrix(scene, t, before);
	uint64_t version = scene->transform_version;
	ck_assert_error(sg_transform_rotate(scene, t, 1.0f, 0, 0, 0), SG_ERR_INVALID_ARGUMENT,
	                "sg_transform_rotate: the axis for node 't' is (0, 0, 0)");
	ck_assert_error(sg_transform_rotate(scene, t, 1.0f, 0, -0.0f, 1e-30f),
	                SG_ERR_INVALID_ARGUMENT, "'t'"); /* its length underflows to 0 */
	sg_transform_get_matrix(scene, t, after);
	ck_assert_mem_eq(before, after, sizeof(before));
	ck_assert_uint_eq(scene->transform_version, version);
	/* the handle is still checked first */
	ck_assert_error(sg_transform_rotate(scene, model("m"), 1.0f, 0, 0, 0),
	                SG_ERR_INVALID_ARGUMENT, "is not a transform");
	ck_assert_int_eq(sg_transform_rotate(scene, t, 1.0f, 0, 0, 2), SG_OK);
}
END_TEST

/* The journal's head when the edits under test began. */
static uint64_t journal_mark;
static void world_is_up_to_date(void)
{
	journal_mark = scene->journal.head;
}

static void assert_nothing_changed(uint64_t transforms, uint64_t structure)
{
	ck_assert_uint_eq(scene->transform_version, transforms);
	ck_assert_uint_eq(scene->structure_version, structure);
	ck_assert_uint_eq(scene->journal.head, journal_mark); /* nothing for readers to redo */
}

START_TEST(test_unchanged_edits_mark_nothing)
{
	sg_node t = sg_node_new_transform(scene, &(struct sg_transform_desc){.name = "t"});
	sg_node m = model("m");
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), t), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, t, m), SG_OK);
	ck_assert_int_eq(sg_transform_translate(scene, t, 5, 6, 0), SG_OK);
	ck_assert_int_eq(sg_model_set_position(scene, m, 1, 2, 3), SG_OK);
	world_is_up_to_date();
	uint64_t transforms = scene->transform_version, structure = scene->structure_version;
	float matrix[16];
	sg_transform_get_matrix(scene, t, matrix);

	ck_assert_int_eq(sg_transform_set_matrix(scene, t, matrix), SG_OK);
	ck_assert_int_eq(sg_transform_translate(scene, t, 0, 0, 0), SG_OK);
	ck_assert_int_eq(sg_transform_scale(scene, t, 1, 1, 1), SG_OK);
	ck_assert_int_eq(sg_model_set_position(scene, m, 1, 2, 3), SG_OK);
	ck_assert_int_eq(sg_model_set_mesh(scene, m, quad), SG_OK);
	ck_assert_int_eq(sg_model_set_texture(scene, m, texture), SG_OK);
	const char *name = sg_node_get_name(scene, m);
	ck_assert_int_eq(sg_node_set_name(scene, m, "m"), SG_OK);
	ck_assert_int_eq(sg_node_set_name(scene, m, name), SG_OK); /* its own string */
	ck_assert_ptr_eq(sg_node_get_name(scene, m), name);       /* not copied again */
	assert_nothing_changed(transforms, structure);

	ck_assert_int_eq(sg_transform_set_identity(scene, t), SG_OK);
	world_is_up_to_date();
	transforms = scene->transform_version;
	ck_assert_int_eq(sg_transform_set_identity(scene, t), SG_OK);
	assert_nothing_changed(transforms, structure);

	/* A real change is still recorded, each time; a model's is not marked
	 * for the world update, models having no world matrix of their own. */
	const struct sg_scene_journal *j = &scene->journal;
	uint64_t head = j->head;
	ck_assert_int_eq(sg_model_set_position(scene, m, 1, 2, 4), SG_OK);
	ck_assert_uint_eq(scene->transform_version, transforms + 1);
	ck_assert_uint_eq(j->head, head + 1);
	ck_assert_uint_eq(sg_scene_journal_at(j, head), m.index);
	ck_assert_int_eq(sg_transform_translate(scene, t, 1, 0, 0), SG_OK);
	ck_assert_int_eq(sg_transform_translate(scene, t, 1, 0, 0), SG_OK);
	ck_assert_uint_eq(scene->transform_version, transforms + 3);
	ck_assert_uint_eq(j->head, head + 3);
	ck_assert_uint_eq(sg_scene_journal_at(j, head + 1), t.index | SG_JOURNAL_MATRIX);
	ck_assert_uint_eq(sg_scene_journal_at(j, head + 2), t.index | SG_JOURNAL_MATRIX);
}
END_TEST

/* Names are kept in a table aside from the nodes (src/graph/names.c): many
 * named, renamed, unnamed and destroyed nodes in a random order, each
 * checked against a plain array after every step, so that a lost or moved
 * entry of the table's probing runs shows. */
START_TEST(test_names_follow_renames_and_destroys)
{
	enum { NODES = 3000, STEPS = 20000 };
	static sg_node nodes[NODES];
	static char want[NODES][16]; /* "" for none; nodes[i] destroyed: "-" */
	for (int i = 0; i < NODES; i++) {
		snprintf(want[i], sizeof(want[i]), i % 3 ? "" : "n%d", i);
		nodes[i] = group(i % 3 ? NULL : want[i]);
		ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), nodes[i]), SG_OK);
	}
	uint32_t seed = 7;
	for (int step = 0; step < STEPS; step++) {
		seed = seed * 1103515245u + 12345u;
		int i = (int)((seed >> 8) % NODES), what = (int)((seed >> 4) % 4);
		if (want[i][0] == '-')
			continue;
		if (what == 0) {
			ck_assert_int_eq(sg_node_destroy(scene, nodes[i]), SG_OK);
			strcpy(want[i], "-");
		} else if (what == 1) {
			ck_assert_int_eq(sg_node_set_name(scene, nodes[i], NULL), SG_OK);
			want[i][0] = 0;
		} else {
			snprintf(want[i], sizeof(want[i]), "s%d", step);
			ck_assert_int_eq(sg_node_set_name(scene, nodes[i], want[i]), SG_OK);
		}
		if (step % 500 == 0 || step == STEPS - 1)
			for (int j = 0; j < NODES; j++)
				if (want[j][0] != '-')
					ck_assert_str_eq(sg_node_get_name(scene, nodes[j]), want[j]);
	}
	for (int j = 0; j < NODES; j++)
		if (want[j][0] && want[j][0] != '-')
			ck_assert_uint_eq(sg_node_find(scene, sg_scene_root(scene), want[j]).index,
			                  nodes[j].index);
	/* new nodes reuse the destroyed ones' slots unnamed */
	for (int j = 0; j < 100; j++)
		ck_assert_str_eq(sg_node_get_name(scene, group(NULL)), "");
}
END_TEST

static float opacity_of(sg_node n)
{
	float opacity = -1.0f;
	ck_assert_int_eq(sg_node_get_opacity(scene, n, &opacity), SG_OK);
	return opacity;
}

/* Opacities are stored only once one is set below 1: before, every node's
 * is 1; after, nodes made later (the column growing with the pool) and
 * slots reused start at 1 too, and the values set stay. */
START_TEST(test_opacities_start_at_one_around_the_first_fade)
{
	enum { LATER = 5000 };
	sg_node early[10];
	for (int i = 0; i < 10; i++)
		early[i] = group(NULL);
	ck_assert_int_eq(sg_node_set_opacity(scene, early[3], 1.0f), SG_OK);
	ck_assert_ptr_null(scene->opacity); /* 1 is what every node has */
	ck_assert_int_eq(sg_node_set_opacity(scene, early[3], 0.5f), SG_OK);
	ck_assert_ptr_nonnull(scene->opacity);
	for (int i = 0; i < 10; i++)
		ck_assert_float_eq(opacity_of(early[i]), (i == 3 ? 0.5f : 1.0f));
	static sg_node later[LATER];
	for (int i = 0; i < LATER; i++)
		later[i] = group(NULL);
	ck_assert_int_eq(sg_node_set_opacity(scene, later[LATER - 1], 0.25f), SG_OK);
	for (int i = 0; i < LATER; i++)
		ck_assert_float_eq(opacity_of(later[i]), (i == LATER - 1 ? 0.25f : 1.0f));
	ck_assert_float_eq(opacity_of(early[3]), 0.5f);
	ck_assert_int_eq(sg_node_destroy(scene, early[3]), SG_OK);
	sg_node reused = group(NULL);
	ck_assert_uint_eq(reused.index, early[3].index);
	ck_assert_float_eq(opacity_of(reused), 1.0f);
}
END_TEST

START_TEST(test_pool_slots_are_reused_under_new_generations)
{
	/* Every kind of object comes from the same pool: a destroyed slot is
	 * reused, its old handle refused with the same words for every kind. */
	unsigned char pixel[4] = {0};
	const struct sg_texture_desc desc = {.width = 1, .height = 1, .pixels = pixel};
	sg_texture t = sg_texture_create(scene, &desc);
	sg_mesh q = sg_mesh_create_quad(scene, 2, 2);
	sg_node g = group("g");
	uint32_t textures = scene->texture_pool.used, meshes = scene->mesh_pool.used;
	uint32_t nodes = scene->node_pool.used, models = scene->model_pool.used;
	for (int i = 0; i < 100; i++) {
		ck_assert_int_eq(sg_texture_destroy(scene, t), SG_OK);
		ck_assert_int_eq(sg_mesh_destroy(scene, q), SG_OK);
		ck_assert_int_eq(sg_node_destroy(scene, g), SG_OK);
		sg_texture t2 = sg_texture_create(scene, &desc);
		sg_mesh q2 = sg_mesh_create_quad(scene, 2, 2);
		sg_node g2 = sg_node_new_model(scene, &(struct sg_model_desc){.mesh = q2, .texture = t2});
		ck_assert_uint_eq(t2.index, t.index);
		ck_assert_uint_eq(q2.index, q.index);
		ck_assert_uint_eq(g2.index, g.index);
		ck_assert(!sg_texture_exists(scene, t) && !sg_mesh_exists(scene, q));
		ck_assert(!sg_node_exists(scene, g));
		char expected[64];
		snprintf(expected, sizeof(expected), "texture #%u (generation %u) was destroyed",
		         t.index, t.generation);
		ck_assert_error(sg_texture_destroy(scene, t), SG_ERR_STALE_HANDLE, expected);
		snprintf(expected, sizeof(expected), "mesh #%u (generation %u) was destroyed", q.index,
		         q.generation);
		ck_assert_error(sg_mesh_destroy(scene, q), SG_ERR_STALE_HANDLE, expected);
		snprintf(expected, sizeof(expected), "node #%u (generation %u) was destroyed", g.index,
		         g.generation);
		ck_assert_error(sg_node_destroy(scene, g), SG_ERR_STALE_HANDLE, expected);
		t = t2, q = q2, g = g2;
	}
	ck_assert_uint_eq(scene->texture_pool.used, textures);
	ck_assert_uint_eq(scene->mesh_pool.used, meshes);
	ck_assert_uint_eq(scene->node_pool.used, nodes);
	ck_assert_uint_le(scene->model_pool.used, models + 1);
	/* A handle forged with a free slot's current generation is refused too. */
	ck_assert_int_eq(sg_texture_destroy(scene, t), SG_OK);
	sg_texture forged = {t.scene, t.index, scene->texture_pool.generation[t.index]};
	ck_assert(!sg_texture_exists(scene, forged));
	ck_assert_error(sg_texture_destroy(scene, forged), SG_ERR_STALE_HANDLE, "was destroyed");
	ck_assert_error(sg_texture_destroy(scene, (sg_texture){0}), SG_ERR_STALE_HANDLE,
	                "null texture handle");
}
END_TEST

START_TEST(test_allocation_failures_are_clean)
{
	/* Every allocation of building a small scene fails in turn: each attempt
	 * must fail cleanly (checked for leaks under valgrind/ASan). */
	for (long k = 1; k < 300; k++) {
		sg_alloc_fail_at(k);
		struct sg_scene *s = sg_scene_create();
		bool ok = s != NULL;
		if (s) {
			sg_mesh q = sg_mesh_create_quad(s, 1, 1);
			unsigned char pixel[4] = {0};
			sg_texture t = sg_texture_create(s, &(struct sg_texture_desc){
				.width = 1, .height = 1, .pixels = pixel});
			for (int i = 0; i < 100 && ok; i++) {
				sg_node n = sg_node_new_model(s, &(struct sg_model_desc){
					.name = "n", .mesh = q, .texture = t});
				ok = sg_node_add_child(s, sg_scene_root(s), n) == SG_OK;
			}
			/* and the 3D records: a mesh with computed normals, a
			 * material on a model, a light in a view */
			static const float tri[] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
			sg_mesh solid = ok ? sg_mesh_create_3d(s, &(struct sg_mesh3d_desc){
			                                              .vertex_count = 3, .positions = tri,
			                                              .normals_mode = SG_NORMALS_SMOOTH})
			                   : (sg_mesh){0};
			struct sg_material_desc md;
			sg_material_desc_init(&md);
			md.name = "m";
			sg_material m = solid.generation ? sg_material_create(s, &md) : (sg_material){0};
			sg_node view = m.generation ? sg_node_new_view3d(s, &(struct sg_view3d_desc){.name = "v"})
			                            : SG_NODE_NONE;
			sg_node lamp = view.generation ? sg_node_new_light(s, &(struct sg_light_desc){.name = "l"})
			                               : SG_NODE_NONE;
			sg_node model = lamp.generation ? sg_node_new_model(s, &(struct sg_model_desc){.mesh = solid})
			                                : SG_NODE_NONE;
			ok = model.generation && sg_model_set_material(s, model, m) == SG_OK &&
			     sg_node_add_child(s, view, lamp) == SG_OK &&
			     sg_node_add_child(s, view, model) == SG_OK &&
			     sg_node_add_child(s, sg_scene_root(s), view) == SG_OK;
		}
		long made = sg_alloc_fail_at(0);
		sg_scene_destroy(s);
		if (ok && made < k)
			break; /* k is past the last allocation: everything succeeded */
		ck_assert_msg(!ok, "allocation %ld failed but the build reported success", k);
		ck_assert_msg(strstr(sg_last_error(), "out of memory") || strstr(sg_last_error(), "null"),
		              "k=%ld: %s", k, sg_last_error());
	}
}
END_TEST

/* The 3D graph (sg/scene3d.h): smooth normals are the normalised sum of
 * the area-weighted face normals (a tent of two faces at 90 degrees, one
 * twice the other's area), flat ones each face's; materials, lights and
 * views are refused, kept and destroyed as other handles are. */
static void normal_of(struct sg_scene *s, sg_mesh mesh, uint32_t v, float n[3])
{
	const struct sg_mesh_data *m = sg_scene_mesh(s, mesh);
	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_nonnull(m->solid);
	memcpy(n, m->solid->data + (size_t)v * m->solid->stride + m->solid->normal, 3 * sizeof(float));
}

START_TEST(test_3d_meshes_materials_lights_views)
{
	/* faces (0, 1, 2) in the plane z = 0 (normal +z, area 1) and (1, 3, 2)
	 * in x = 1 (normal +x, area 2) share the edge 1-2 */
	static const float tent[] = {0, 0, 0, 1, 0, 0, 1, 2, 0, 1, 0, -2};
	static const uint32_t faces[] = {0, 1, 2, 1, 3, 2};
	sg_mesh smooth = sg_mesh_create_3d(scene, &(struct sg_mesh3d_desc){
	                                              .vertex_count = 4, .positions = tent,
	                                              .indices = faces, .index_type = SG_INDEX_U32,
	                                              .index_count = 6,
	                                              .normals_mode = SG_NORMALS_SMOOTH});
	ck_assert_msg(smooth.generation, "%s", sg_last_error());
	float n[3];
	normal_of(scene, smooth, 1, n); /* shared: (0, 0, 2) + (4, 0, 0) normalised */
	ck_assert(fabsf(n[0] - 2.0f / sqrtf(5.0f)) < 1e-5f && fabsf(n[1]) < 1e-6f &&
	          fabsf(n[2] - 1.0f / sqrtf(5.0f)) < 1e-5f);
	normal_of(scene, smooth, 0, n); /* only the first face */
	ck_assert(fabsf(n[2] - 1.0f) < 1e-6f);
	normal_of(scene, smooth, 3, n); /* only the second */
	ck_assert(fabsf(n[0] - 1.0f) < 1e-6f);
	sg_mesh flat = sg_mesh_create_3d(scene, &(struct sg_mesh3d_desc){
	                                            .vertex_count = 4, .positions = tent,
	                                            .indices = faces, .index_type = SG_INDEX_U32,
	                                            .index_count = 6,
	                                            .normals_mode = SG_NORMALS_FLAT});
	ck_assert_uint_eq(sg_scene_mesh(scene, flat)->vertex_count, 6); /* corners split */
	normal_of(scene, flat, 4, n);
	ck_assert(fabsf(n[0] - 1.0f) < 1e-6f);
	float bounds[6];
	ck_assert_int_eq(sg_mesh_get_bounds(scene, smooth, bounds), SG_OK);
	ck_assert(bounds[2] == -2.0f && bounds[4] == 2.0f);

	struct sg_material_desc md;
	sg_material_desc_init(&md);
	ck_assert(md.base_color[3] == 1.0f && md.metallic == 1.0f && md.alpha_cutoff == 0.5f);
	md.roughness = 1.5f;
	ck_assert_int_eq(sg_material_create(scene, &md).generation, 0);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "roughness"));
	md.roughness = 0.5f;
	md.base_color_texture =
	    (struct sg_material_texture){.texture = {scene_id_of(scene), 999, 1}};
	ck_assert_int_eq(sg_material_create(scene, &md).generation, 0);
	md.base_color_texture = (struct sg_material_texture){.texture = texture, .uv_set = 2};
	ck_assert_int_eq(sg_material_create(scene, &md).generation, 0);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "uv_set"));
	md.base_color_texture.uv_set = 1;
	sg_material material = sg_material_create(scene, &md);
	ck_assert(sg_material_exists(scene, material));
	sg_node model = sg_node_new_model(scene, &(struct sg_model_desc){.mesh = smooth});
	ck_assert_int_eq(sg_model_set_material(scene, model, material), SG_OK);
	ck_assert_uint_eq(sg_model_get_material(scene, model).index, material.index);
	ck_assert_int_eq(sg_material_destroy(scene, material), SG_OK);
	ck_assert(!sg_material_exists(scene, material));
	ck_assert_int_eq(sg_model_set_material(scene, model, material), SG_ERR_STALE_HANDLE);
	ck_assert_int_eq(sg_model_set_material(scene, model, SG_MATERIAL_NONE), SG_OK);
	ck_assert_uint_eq(sg_model_get_material(scene, model).generation, 0);
	/* a model made in a destroyed one's slot has no material of it */
	sg_material kept = sg_material_create(scene, &md);
	sg_node gone = sg_node_new_model(scene, &(struct sg_model_desc){.mesh = smooth});
	ck_assert_int_eq(sg_model_set_material(scene, gone, kept), SG_OK);
	ck_assert_int_eq(sg_node_destroy(scene, gone), SG_OK);
	sg_node reborn = sg_node_new_model(scene, &(struct sg_model_desc){.mesh = smooth});
	ck_assert_uint_eq(reborn.index, gone.index);
	ck_assert_uint_eq(sg_model_get_material(scene, reborn).generation, 0);
	ck_assert_int_eq(sg_node_destroy(scene, reborn), SG_OK);

	struct sg_light_desc light = {.type = SG_LIGHT_SPOT, .intensity = 1,
	                              .inner_cone = 0.5f, .outer_cone = 0.4f};
	ck_assert_int_eq(sg_node_new_light(scene, &light).generation, 0);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "cones"));
	light.outer_cone = 0.7f;
	sg_node lamp = sg_node_new_light(scene, &light);
	ck_assert_int_eq(sg_node_get_kind(scene, lamp), SG_NODE_LIGHT);
	ck_assert_int_eq(sg_node_add_child(scene, lamp, sg_node_new_group(scene, "g")),
	                 SG_ERR_INVALID_ARGUMENT);
	light.intensity = -1;
	ck_assert_int_eq(sg_light_set(scene, lamp, &light), SG_ERR_INVALID_ARGUMENT);
	ck_assert_int_eq(sg_light_set(scene, model, &light), SG_ERR_INVALID_ARGUMENT);

	struct sg_camera eye;
	sg_camera_init_perspective(&eye, 1.0f, 1.0f, 0.1f, 10.0f);
	eye.view[3] = NAN;
	ck_assert_int_eq(sg_node_new_view3d(scene, &(struct sg_view3d_desc){.camera = &eye}).generation, 0);
	sg_node view = sg_node_new_view3d(scene, &(struct sg_view3d_desc){.name = "v"});
	ck_assert_int_eq(sg_node_get_kind(scene, view), SG_NODE_VIEW3D);
	ck_assert_int_eq(sg_node_add_child(scene, view, lamp), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, view, model), SG_OK);
	ck_assert_int_eq(sg_view3d_set(scene, view, &(struct sg_view3d_desc){.viewport = {0, 0, -1, 1}}),
	                 SG_ERR_INVALID_ARGUMENT);
	ck_assert_uint_eq(scene_view_count(scene), 1);
	ck_assert_int_eq(sg_node_destroy(scene, view), SG_OK); /* with its light and model */
	ck_assert(!sg_node_exists(scene, lamp) && !sg_node_exists(scene, model));
	ck_assert_uint_eq(scene_view_count(scene), 0);
	ck_assert_int_eq(sg_mesh_destroy(scene, smooth), SG_OK);
	ck_assert_int_eq(sg_mesh_destroy(scene, flat), SG_OK);
}
END_TEST

START_TEST(test_visibility)
{
	sg_node root = sg_scene_root(scene);
	sg_node group = sg_node_new_group(scene, "Group");
	sg_node model = sg_node_new_model(scene, &(struct sg_model_desc){.mesh = quad, .texture = texture});
	ck_assert_int_eq(sg_node_add_child(scene, root, group), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, group, model), SG_OK);
	bool visible = false;
	ck_assert_int_eq(sg_node_get_visible(scene, model, &visible), SG_OK);
	ck_assert(visible);
	/* hiding is no structural edit: the cached traversal order stays */
	uint64_t structure = scene->structure_version, visibility = scene->visibility_version;
	ck_assert_int_eq(sg_node_set_visible(scene, group, false), SG_OK);
	ck_assert_uint_eq(scene->structure_version, structure);
	ck_assert_uint_eq(scene->visibility_version, visibility + 1);
	ck_assert_int_eq(sg_node_get_visible(scene, group, &visible), SG_OK);
	ck_assert(!visible);
	/* a node's own setting, whatever its ancestors' */
	ck_assert_int_eq(sg_node_get_visible(scene, model, &visible), SG_OK);
	ck_assert(visible);
	/* the value it already has: nothing marked */
	ck_assert_int_eq(sg_node_set_visible(scene, group, false), SG_OK);
	ck_assert_uint_eq(scene->visibility_version, visibility + 1);
	ck_assert_int_eq(sg_node_set_visible(scene, model, true), SG_OK);
	ck_assert_uint_eq(scene->visibility_version, visibility + 1);
	/* the root, and detached nodes, can be hidden too */
	ck_assert_int_eq(sg_node_set_visible(scene, root, false), SG_OK);
	sg_node loose = sg_node_new_group(scene, NULL);
	ck_assert_int_eq(sg_node_set_visible(scene, loose, false), SG_OK);
	ck_assert_uint_eq(scene->hidden_count, 3);
	ck_assert_int_eq(sg_node_set_visible(scene, root, true), SG_OK);
	ck_assert_uint_eq(scene->hidden_count, 2);
	/* destroying a hidden node drops it from the hidden set; its slot comes back visible */
	ck_assert_int_eq(sg_node_destroy(scene, group), SG_OK);
	ck_assert_int_eq(sg_node_destroy(scene, loose), SG_OK);
	ck_assert_uint_eq(scene->hidden_count, 0);
	sg_node reused = sg_node_new_group(scene, NULL);
	ck_assert_int_eq(sg_node_get_visible(scene, reused, &visible), SG_OK);
	ck_assert(visible);
	/* refusals */
	ck_assert_int_eq(sg_node_set_visible(scene, group, true), SG_ERR_STALE_HANDLE);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "sg_node_set_visible"));
	ck_assert_int_eq(sg_node_get_visible(scene, group, &visible), SG_ERR_STALE_HANDLE);
	ck_assert_int_eq(sg_node_get_visible(scene, reused, NULL), SG_ERR_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "visible is NULL"));
	ck_assert_int_eq(sg_node_set_visible(NULL, reused, false), SG_ERR_INVALID_ARGUMENT);
	/* out of memory for the hidden set: refused, nothing changed */
	for (long k = 1; k <= 2; k++) { /* the slot array, then the set */
		struct sg_scene *fresh = sg_scene_create();
		sg_node group = sg_node_new_group(fresh, "Fresh");
		uint64_t before = fresh->visibility_version;
		sg_alloc_fail_at(k);
		ck_assert_int_eq(sg_node_set_visible(fresh, group, false), SG_ERR_NO_MEMORY);
		sg_alloc_fail_at(0);
		ck_assert_str_eq(sg_last_error(), "out of memory hiding node 'Fresh'");
		ck_assert_int_eq(sg_node_get_visible(fresh, group, &visible), SG_OK);
		ck_assert(visible);
		ck_assert_uint_eq(fresh->visibility_version, before);
		ck_assert_uint_eq(fresh->hidden_count, 0);
		sg_scene_destroy(fresh);
	}
}
END_TEST

/* Many hidden nodes shown in another order: the hidden set stays exact. */
START_TEST(test_opacity_and_color)
{
	sg_node root = sg_scene_root(scene);
	sg_node group = sg_node_new_group(scene, "Group");
	sg_node model = sg_node_new_model(scene, &(struct sg_model_desc){.mesh = quad, .texture = texture});
	ck_assert_int_eq(sg_node_add_child(scene, root, group), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, group, model), SG_OK);
	/* defaults: opacity 1 everywhere, white models */
	float opacity = 0, rgba[4] = {0};
	ck_assert_int_eq(sg_node_get_opacity(scene, root, &opacity), SG_OK);
	ck_assert(opacity == 1.0f);
	ck_assert_int_eq(sg_model_get_color(scene, model, rgba), SG_OK);
	ck_assert(rgba[0] == 1.0f && rgba[1] == 1.0f && rgba[2] == 1.0f && rgba[3] == 1.0f);
	/* appearance edits are no structural edits, and the same value marks nothing */
	uint64_t structure = scene->structure_version, appearance = scene->appearance_version;
	ck_assert_int_eq(sg_node_set_opacity(scene, group, 0.25f), SG_OK);
	ck_assert_int_eq(sg_node_set_opacity(scene, group, 0.25f), SG_OK);
	ck_assert_int_eq(sg_model_set_color(scene, model, 0.5f, 0.25f, 0.0f, 1.0f), SG_OK);
	ck_assert_int_eq(sg_model_set_color(scene, model, 0.5f, 0.25f, 0.0f, 1.0f), SG_OK);
	ck_assert_uint_eq(scene->appearance_version, appearance + 2);
	ck_assert_uint_eq(scene->structure_version, structure);
	ck_assert_int_eq(sg_node_get_opacity(scene, group, &opacity), SG_OK);
	ck_assert(opacity == 0.25f);
	ck_assert_int_eq(sg_model_get_color(scene, model, rgba), SG_OK);
	ck_assert(rgba[0] == 0.5f && rgba[1] == 0.25f && rgba[2] == 0.0f && rgba[3] == 1.0f);
	/* refused, nothing changed */
	ck_assert_int_eq(sg_node_set_opacity(scene, group, 1.5f), SG_ERR_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "opacity 1.5 of node 'Group' is not in [0, 1]"));
	ck_assert_int_eq(sg_node_set_opacity(scene, group, NAN), SG_ERR_INVALID_ARGUMENT);
	ck_assert_int_eq(sg_model_set_color(scene, model, 0, 0, 0, INFINITY), SG_ERR_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "a = inf of model"));
	ck_assert_int_eq(sg_model_set_color(scene, group, 0, 0, 0, 0), SG_ERR_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "node 'Group' is not a model"));
	ck_assert_int_eq(sg_node_get_opacity(scene, group, NULL), SG_ERR_INVALID_ARGUMENT);
	ck_assert_str_eq(sg_last_error(), "sg_node_get_opacity: opacity is NULL");
	ck_assert_int_eq(sg_model_get_color(scene, model, NULL), SG_ERR_INVALID_ARGUMENT);
	ck_assert_int_eq(sg_node_get_opacity(scene, group, &opacity), SG_OK);
	ck_assert(opacity == 0.25f);
	ck_assert_uint_eq(scene->appearance_version, appearance + 2);
	/* colour-only models: the zero texture handle, at creation or later */
	sg_node solid = sg_node_new_model(scene, &(struct sg_model_desc){.mesh = quad, .texture = SG_TEXTURE_NONE});
	ck_assert(sg_node_exists(scene, solid));
	ck_assert_int_eq(sg_model_set_texture(scene, model, SG_TEXTURE_NONE), SG_OK);
	ck_assert_int_eq(sg_model_set_texture(scene, model, texture), SG_OK);
	/* a reused slot starts over at opacity 1 and white */
	ck_assert_int_eq(sg_node_set_opacity(scene, solid, 0.0f), SG_OK);
	ck_assert_int_eq(sg_model_set_color(scene, solid, 0, 0, 0, 0), SG_OK);
	ck_assert_int_eq(sg_node_destroy(scene, solid), SG_OK);
	sg_node again = sg_node_new_model(scene, &(struct sg_model_desc){.mesh = quad, .texture = SG_TEXTURE_NONE});
	ck_assert_uint_eq(again.index, solid.index);
	ck_assert_int_eq(sg_node_get_opacity(scene, again, &opacity), SG_OK);
	ck_assert(opacity == 1.0f);
	ck_assert_int_eq(sg_model_get_color(scene, again, rgba), SG_OK);
	ck_assert(rgba[3] == 1.0f && rgba[0] == 1.0f);
}
END_TEST

START_TEST(test_visibility_set_swap_removal)
{
	enum { COUNT = 100 };
	sg_node nodes[COUNT];
	for (int i = 0; i < COUNT; i++) {
		nodes[i] = sg_node_new_group(scene, NULL);
		ck_assert_int_eq(sg_node_set_visible(scene, nodes[i], false), SG_OK);
	}
	for (int i = 0; i < COUNT; i += 3)
		ck_assert_int_eq(sg_node_set_visible(scene, nodes[i], true), SG_OK);
	uint32_t expected = 0;
	for (int i = 0; i < COUNT; i++) {
		bool visible;
		ck_assert_int_eq(sg_node_get_visible(scene, nodes[i], &visible), SG_OK);
		ck_assert(visible == (i % 3 == 0));
		expected += !visible;
	}
	ck_assert_uint_eq(scene->hidden_count, expected);
	for (uint32_t i = 0; i < scene->hidden_count; i++) {
		uint32_t n = scene->hidden[i];
		ck_assert(scene->flags[n] & SG_NODE_HIDDEN);
		ck_assert_uint_eq(scene->hidden_slot[n], i);
	}
}
END_TEST

/* The journal renderers read (src/graph/journal.c): each edit is listed
 * (the scene cannot know what its readers have read, so repeats are listed
 * too), a local matrix's edit with SG_JOURNAL_MATRIX on a group or
 * transform, the ring grows up to an eighth of the nodes and then
 * overwrites, and what it no longer holds is reported by its first entry,
 * never read as garbage. */
START_TEST(test_journal_lists_every_edit)
{
	struct sg_scene *s = sg_scene_create();
	sg_mesh quad = sg_mesh_create_quad(s, 1, 1);
	enum { MODELS = 20000 };
	static sg_node models[MODELS];
	for (int i = 0; i < MODELS; i++) {
		models[i] = sg_node_new_model(s, &(struct sg_model_desc){.mesh = quad});
		ck_assert_int_eq(sg_node_add_child(s, sg_scene_root(s), models[i]), SG_OK);
	}
	const struct sg_scene_journal *j = &s->journal;
	uint64_t start = j->head;
	/* the same model moved three times, and its colour: four entries of it */
	for (int k = 0; k < 3; k++)
		ck_assert_int_eq(sg_model_set_position(s, models[7], (float)k + 1, 0, 0), SG_OK);
	ck_assert_int_eq(sg_model_set_color(s, models[7], 1, 0, 0, 1), SG_OK);
	ck_assert_uint_eq(j->head, start + 4);
	for (int k = 0; k < 4; k++)
		ck_assert_uint_eq(sg_scene_journal_at(j, start + (uint64_t)k), models[7].index);
	/* a group's opacity: no matrix entry; a transform's matrix: one */
	sg_node t = sg_node_new_transform(s, &(struct sg_transform_desc){.name = "t"});
	ck_assert_int_eq(sg_node_set_opacity(s, sg_scene_root(s), 0.5f), SG_OK);
	ck_assert_uint_eq(sg_scene_journal_at(j, j->head - 1), SG_ROOT_INDEX);
	ck_assert_int_eq(sg_transform_translate(s, t, 1, 0, 0), SG_OK);
	ck_assert_uint_eq(sg_scene_journal_at(j, j->head - 1), t.index | SG_JOURNAL_MATRIX);
	/* every model: more than the ring may hold */
	uint64_t before = j->head;
	for (int i = 0; i < MODELS; i++)
		ck_assert_int_eq(sg_model_set_position(s, models[i], 2, 3, 0), SG_OK);
	ck_assert_uint_eq(j->head, before + MODELS);
	ck_assert_uint_le(j->capacity, 4096); /* an eighth of 20003 nodes, as a power of two */
	ck_assert_uint_ge(j->capacity, (s->node_pool.used) / SG_JOURNAL_SHARE);
	uint64_t first = sg_scene_journal_first(j);
	ck_assert_uint_gt(first, before); /* the oldest were overwritten */
	for (uint64_t e = first; e < j->head; e++) {
		uint32_t n = sg_scene_journal_at(j, e);
		ck_assert_uint_lt(n, s->node_pool.used);
		ck_assert_uint_eq(n, models[MODELS - (j->head - e)].index);
	}
	/* destroying a node lists it (its detaching, and its freeing) */
	uint64_t head = j->head;
	ck_assert_int_eq(sg_node_destroy(s, models[3]), SG_OK);
	ck_assert_uint_gt(j->head, head);
	for (uint64_t e = head; e < j->head; e++)
		ck_assert_uint_eq(sg_scene_journal_at(j, e), models[3].index);
	sg_scene_destroy(s);
}
END_TEST

/* A context too long to go before a message in full loses its middle, not
 * the message's end, which says what failed; neither cut splits a UTF-8
 * character. A short one goes before it whole. */
START_TEST(test_fail_prefix_keeps_the_reason)
{
	sg_fail(SG_ERR_IO, "the reason");
	ck_assert_int_eq(sg_fail_prefix(SG_ERR_IO, "reading '%s': ", "a.png"), SG_ERR_IO);
	ck_assert_str_eq(sg_last_error(), "reading 'a.png': the reason");

	/* "star", 748 é, "x": both cuts of its middle fall inside an é */
	char context[1502];
	memcpy(context, "star", 4);
	for (size_t i = 4; i < 1500; i += 2)
		memcpy(context + i, "\xc3\xa9", 2);
	memcpy(context + 1500, "x", 2);
	sg_fail(SG_ERR_IO, "the reason");
	ck_assert_int_eq(sg_fail_prefix(SG_ERR_CYCLE, "%s: ", context), SG_ERR_CYCLE);
	ck_assert_int_eq(sg_last_result(), SG_ERR_CYCLE);
	const char *message = sg_last_error();
	size_t length = strlen(message);
	ck_assert_msg(strncmp(message, "star\xc3\xa9", 6) == 0 &&
	                  strstr(message, "\xc3\xa9...\xc3\xa9") && length > 1000 &&
	                  strcmp(message + length - 15, "\xc3\xa9x: the reason") == 0,
	              "%s", message);
	for (size_t i = 0; i < length; i++) {
		bool lead = (unsigned char)message[i] == 0xc3;
		bool next_continues = (unsigned char)message[i + 1] == 0xa9;
		ck_assert_msg(lead == next_continues, "a character cut at byte %zu", i);
	}

	/* Longer than the first buffer the prefix is made in: made whole (one
	 * allocation), its end still kept; without the memory, cut short at a
	 * character, the message still in one piece after it. */
	char longer[3006]; /* "star", 1500 é, "x" */
	memcpy(longer, "star", 4);
	for (size_t i = 4; i < 3004; i += 2)
		memcpy(longer + i, "\xc3\xa9", 2);
	memcpy(longer + 3004, "x", 2);
	for (int fail = 0; fail < 2; fail++) {
		sg_fail(SG_ERR_IO, "the reason");
		sg_alloc_fail_at(fail);
		sg_fail_prefix(SG_ERR_IO, "%s: ", longer);
		ck_assert_int_eq(sg_alloc_fail_at(0), 1);
		message = sg_last_error();
		length = strlen(message);
		const char *end = fail ? "\xc3\xa9the reason" : "\xc3\xa9x: the reason";
		ck_assert_msg(length > 1000 && strstr(message, "\xc3\xa9...\xc3\xa9") &&
		                  strcmp(message + length - strlen(end), end) == 0,
		              "allocation %s: %s", fail ? "failed" : "made", message);
	}
}
END_TEST

int main(void)
{
	Suite *suite = suite_create("graph");
	TCase *tc = tcase_create("graph");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_root_exists);
	tcase_add_test(tc, test_fail_prefix_keeps_the_reason);
	tcase_add_test(tc, test_add_and_iterate_in_order);
	tcase_add_test(tc, test_insert_first_and_past_end);
	tcase_add_test(tc, test_cycle_refused);
	tcase_add_test(tc, test_refusals);
	tcase_add_test(tc, test_foreign_node_refused);
	tcase_add_test(tc, test_stale_handles);
	tcase_add_test(tc, test_remove_keeps_subtree_and_reparent);
	tcase_add_test(tc, test_find_by_name);
	tcase_add_test(tc, test_transform_helpers);
	tcase_add_test(tc, test_nonfinite_refused);
	tcase_add_test(tc, test_resources);
	tcase_add_test(tc, test_png_load_errors);
	tcase_add_test(tc, test_png_roundtrip);
	tcase_add_test(tc, test_png_too_large_refused);
	tcase_add_test(tc, test_write_png_unwritable);
	tcase_add_test(tc, test_deep_chain_destroy);
	tcase_add_test(tc, test_journal_lists_every_edit);
	tcase_add_test(tc, test_child_order_matches_model);
	tcase_add_test(tc, test_prepend_and_append_walk_no_siblings);
	tcase_add_test(tc, test_allocation_failures_are_clean);
	tcase_add_test(tc, test_zero_rotation_axis_refused);
	tcase_add_test(tc, test_unchanged_edits_mark_nothing);
	tcase_add_test(tc, test_names_follow_renames_and_destroys);
	tcase_add_test(tc, test_opacities_start_at_one_around_the_first_fade);
	tcase_add_test(tc, test_pool_slots_are_reused_under_new_generations);
	tcase_add_test(tc, test_visibility);
	tcase_add_test(tc, test_visibility_set_swap_removal);
	tcase_add_test(tc, test_opacity_and_color);
	tcase_add_test(tc, test_3d_meshes_materials_lights_views);
	suite_add_tcase(suite, tc);
	return check_run(suite);
}
