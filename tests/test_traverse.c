/* The traverse layer: draw order and world matrices against hand-computed
 * values. No GL. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sg/sg.h>

#include "expect.h"
#include "check_run.h"
#include "../src/base/alloc.h"
#include "../src/graph/scene_internal.h"
#include "../src/traverse/traverse.h"
#include "three_rects_scene.h"

static struct sg_traversal traversal;

static void setup(void)
{
	sg_traversal_init(&traversal);
}

static void teardown(void)
{
	sg_traversal_finish(&traversal);
}

/* Applies a column-major matrix to a point. */
static void apply(const mat4 m, float x, float y, float z, float out[3])
{
	for (int r = 0; r < 3; r++)
		out[r] = m[0][r] * x + m[1][r] * y + m[2][r] * z + m[3][r];
}

/* A scene with a 1 x 1 quad and a 1 x 1 texture for its models. */
/* The world matrix the draws use: a model's is made from its parent's. */
static vec4 *world_of(const struct sg_scene *scene, uint32_t n)
{
	static mat4 matrices[4];
	static int next;
	vec4 *out = matrices[next++ & 3];
	if (scene->kind[n] == SG_NODE_MODEL)
		sg_world_model(&traversal.world, scene, n, out);
	else
		glm_mat4_copy(sg_world_node(&traversal.world, scene, n), out);
	return out;
}

static struct sg_scene *scene_with_quad(sg_mesh *quad, sg_texture *texture)
{
	struct sg_scene *scene = sg_scene_create();
	unsigned char px[4] = {0};
	*quad = sg_mesh_create_quad(scene, 1, 1);
	*texture = sg_texture_create(scene, &(struct sg_texture_desc){1, 1, px, 0, 0, 0});
	ck_assert(sg_mesh_exists(scene, *quad) && sg_texture_exists(scene, *texture));
	return scene;
}

static const char *draw_name(const struct sg_scene *scene, size_t i)
{
	return sg_scene_name(scene, traversal.list->draws[i].node);
}

START_TEST(test_three_rects_order_and_matrices)
{
	struct sg_scene *scene = three_rects_build();
	ck_assert_msg(scene, "%s", sg_last_error());
	ck_assert_int_eq(sg_traverse(&traversal, scene, NULL), SG_OK);
	ck_assert_uint_eq(traversal.list->count, 3);
	ck_assert_str_eq(draw_name(scene, 0), "Rectangle 1");
	ck_assert_str_eq(draw_name(scene, 1), "Rectangle 2");
	ck_assert_str_eq(draw_name(scene, 2), "Rectangle 3");
	/* By hand: R1 = T(0,0); R2 = S(0.5) T(10,10); R3 = S(0.5) T(15,15). The quad's
	 * corners (0,0) and (100,100) then land on these output pixels. */
	const float expected[3][4] = {{0, 0, 100, 100}, {5, 5, 55, 55}, {7.5f, 7.5f, 57.5f, 57.5f}};
	for (int i = 0; i < 3; i++) {
		float a[3], b[3];
		apply(world_of(scene, traversal.list->draws[i].node), 0, 0, 0, a);
		apply(world_of(scene, traversal.list->draws[i].node), 100, 100, 0, b);
		ck_assert_float_eq_tol(a[0], expected[i][0], 1e-5f);
		ck_assert_float_eq_tol(a[1], expected[i][1], 1e-5f);
		ck_assert_float_eq_tol(b[0], expected[i][2], 1e-5f);
		ck_assert_float_eq_tol(b[1], expected[i][3], 1e-5f);
	}
	/* the textures follow the models */
	ck_assert_uint_ne(traversal.list->draws[0].texture, traversal.list->draws[1].texture);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_nested_matrices_compose_in_order)
{
	sg_mesh quad;
	sg_texture tex;
	struct sg_scene *scene = scene_with_quad(&quad, &tex);
	/* root -> A: translate(10, 0) -> B: rotate 90 deg about z -> C: scale 2 -> model at (1, 0) */
	sg_node a = sg_node_new_transform(scene, &(struct sg_transform_desc){.name = "A"});
	sg_node b = sg_node_new_transform(scene, &(struct sg_transform_desc){.name = "B"});
	sg_node c = sg_node_new_transform(scene, &(struct sg_transform_desc){.name = "C"});
	sg_node m = sg_node_new_model(scene, &(struct sg_model_desc){
		.name = "m", .mesh = quad, .texture = tex, .position = {1, 0, 0}});
	sg_transform_translate(scene, a, 10, 0, 0);
	sg_transform_rotate(scene, b, (float)M_PI / 2, 0, 0, 1);
	sg_transform_scale(scene, c, 2, 2, 2);
	sg_node_add_child(scene, sg_scene_root(scene), a);
	sg_node_add_child(scene, a, b);
	sg_node_add_child(scene, b, c);
	ck_assert_int_eq(sg_node_add_child(scene, c, m), SG_OK);
	ck_assert_int_eq(sg_traverse(&traversal, scene, NULL), SG_OK);
	ck_assert_uint_eq(traversal.list->count, 1);
	/* Point (0.5, 0): +model (1.5, 0) -> scale (3, 0) -> rotate (0, 3) -> translate (10, 3). */
	float p[3];
	apply(world_of(scene, traversal.list->draws[0].node), 0.5f, 0, 0, p);
	ck_assert_float_eq_tol(p[0], 10.0f, 1e-5f);
	ck_assert_float_eq_tol(p[1], 3.0f, 1e-5f);
	ck_assert_float_eq_tol(p[2], 0.0f, 1e-5f);
	/* Editing a transform shows up in the next walk. */
	sg_transform_set_identity(scene, b);
	ck_assert_int_eq(sg_traverse(&traversal, scene, NULL), SG_OK);
	apply(world_of(scene, traversal.list->draws[0].node), 0.5f, 0, 0, p);
	ck_assert_float_eq_tol(p[0], 13.0f, 1e-5f);
	ck_assert_float_eq_tol(p[1], 0.0f, 1e-5f);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_detached_and_siblings)
{
	sg_mesh quad;
	sg_texture tex;
	struct sg_scene *scene = scene_with_quad(&quad, &tex);
	sg_node g = sg_node_new_group(scene, "g");
	sg_node t = sg_node_new_transform(scene, &(struct sg_transform_desc){.name = "t"});
	sg_transform_translate(scene, t, 100, 0, 0);
	const char *names[] = {"m0", "m1", "m2", "m3"};
	sg_node models[4];
	for (int i = 0; i < 4; i++)
		models[i] = sg_node_new_model(scene, &(struct sg_model_desc){
			.name = names[i], .mesh = quad, .texture = tex, .position = {(float)i, 0, 0}});
	sg_node root = sg_scene_root(scene);
	sg_node_add_child(scene, root, models[0]);
	sg_node_add_child(scene, root, t);
	sg_node_add_child(scene, t, models[1]);
	sg_node_add_child(scene, root, models[2]);
	sg_node_add_child(scene, g, models[3]); /* g stays detached: not drawn */
	ck_assert_int_eq(sg_traverse(&traversal, scene, NULL), SG_OK);
	ck_assert_uint_eq(traversal.list->count, 3);
	ck_assert_str_eq(draw_name(scene, 0), "m0");
	ck_assert_str_eq(draw_name(scene, 1), "m1");
	ck_assert_str_eq(draw_name(scene, 2), "m2");
	/* the transform applies to its subtree only, not to the sibling after it */
	ck_assert_float_eq(world_of(scene, traversal.list->draws[1].node)[3][0], 101.0f);
	ck_assert_float_eq(world_of(scene, traversal.list->draws[2].node)[3][0], 2.0f);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_deep_chain_is_iterative)
{
	sg_mesh quad;
	sg_texture tex;
	struct sg_scene *scene = scene_with_quad(&quad, &tex);
	sg_node parent = sg_scene_root(scene);
	for (int i = 0; i < 100000; i++) {
		sg_node t = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
		sg_transform_translate(scene, t, 1, 0, 0);
		expect(sg_node_add_child(scene, parent, t) == SG_OK, "level %d: %s", i, sg_last_error());
		parent = t;
	}
	sg_node m = sg_node_new_model(scene, &(struct sg_model_desc){.mesh = quad, .texture = tex});
	sg_node_add_child(scene, parent, m);
	ck_assert_int_eq(sg_traverse(&traversal, scene, NULL), SG_OK);
	ck_assert_uint_eq(traversal.visited, 100002);
	ck_assert_uint_eq(traversal.world_updates, 100001); /* the root and the chain, not the model */
	ck_assert_uint_eq(traversal.list->count, 1);
	ck_assert_float_eq(world_of(scene, traversal.list->draws[0].node)[3][0], 100000.0f);
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_destroyed_resource_names_the_model)
{
	struct sg_scene *scene = three_rects_build();
	sg_node r2 = sg_node_find(scene, sg_scene_root(scene), "Rectangle 2");
	sg_texture t = sg_model_texture(scene, sg_scene_model(scene, r2.index));
	ck_assert_int_eq(sg_texture_destroy(scene, t), SG_OK);
	ck_assert_int_eq(sg_traverse(&traversal, scene, NULL), SG_ERR_STALE_HANDLE);
	ck_assert_msg(strstr(sg_last_error(), "model 'Rectangle 2' uses a destroyed texture"), "%s",
	              sg_last_error());
	sg_scene_destroy(scene);
}
END_TEST

/* Culling must report what the unculled walk reports, for textures as for meshes:
 * a model out of view (whose parent is in view, so the walk visits it) still
 * fails on its destroyed texture. */
START_TEST(test_culled_model_with_destroyed_texture_fails)
{
	sg_mesh quad;
	sg_texture texture;
	struct sg_scene *scene = scene_with_quad(&quad, &texture);
	unsigned char px[4] = {0};
	sg_texture doomed = sg_texture_create(scene, &(struct sg_texture_desc){1, 1, px, 0, 0, 0});
	sg_node root = sg_scene_root(scene);
	sg_node_add_child(scene, root, sg_node_new_model(scene, &(struct sg_model_desc){
		.name = "in view", .mesh = quad, .texture = texture}));
	sg_node_add_child(scene, root, sg_node_new_model(scene, &(struct sg_model_desc){
		.name = "out of view", .mesh = quad, .texture = doomed, .position = {100, 100, 0}}));
	ck_assert_int_eq(sg_texture_destroy(scene, doomed), SG_OK);
	mat4 identity = GLM_MAT4_IDENTITY_INIT; /* clip space: only the first quad is in view */
	ck_assert_int_eq(sg_traverse(&traversal, scene, identity), SG_ERR_STALE_HANDLE);
	ck_assert_msg(strstr(sg_last_error(), "model 'out of view' uses a destroyed texture"), "%s",
	              sg_last_error());
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_camera_pixels)
{
	struct sg_camera camera;
	sg_camera_init_pixels(&camera, 256, 256);
	/* (0,0) is the top-left corner: NDC (-1, +1); (256, 256) is NDC (1, -1) */
	float p[3];
	apply((vec4 *)camera.projection, 0, 0, 0, p);
	ck_assert_float_eq_tol(p[0], -1.0f, 1e-6f);
	ck_assert_float_eq_tol(p[1], 1.0f, 1e-6f);
	apply((vec4 *)camera.projection, 256, 256, 0, p);
	ck_assert_float_eq_tol(p[0], 1.0f, 1e-6f);
	ck_assert_float_eq_tol(p[1], -1.0f, 1e-6f);
	for (int i = 0; i < 16; i++)
		ck_assert_float_eq(camera.view[i], i % 5 == 0 ? 1.0f : 0.0f);
	/* A camera inside an application's struct has only float alignment: cglm's
	 * SIMD code must never touch it in place. */
	struct {
		int frame;
		struct sg_camera camera;
	} app;
	ck_assert_uint_eq((uintptr_t)&app.camera % 16, 4);
	sg_camera_init_perspective(&app.camera, 1.0f, 1.0f, 0.1f, 10.0f);
	sg_camera_look_at(&app.camera, (float[]){0, 0, 5}, (float[]){0, 0, 0}, (float[]){0, 1, 0});
	sg_camera_init_pixels(&app.camera, 256, 256);
	ck_assert_float_eq(app.camera.projection[0], camera.projection[0]);
}
END_TEST

/* The world matrix of node n computed from scratch: the product of the local
 * matrices of its ancestors, from the top down. */
static void fresh_world(const struct sg_scene *scene, uint32_t n, mat4 out)
{
	glm_mat4_identity(out);
	uint32_t chain[64];
	int depth = 0;
	for (uint32_t a = n; a && depth < 64; a = scene->parent[a])
		chain[depth++] = a;
	for (int i = depth - 1; i >= 0; i--) {
		mat4 local;
		sg_scene_local_of(scene, chain[i], local);
		glm_mat4_mul(out, local, out);
	}
}

static bool attached(const struct sg_scene *scene, uint32_t n)
{
	while (scene->parent[n])
		n = scene->parent[n];
	return n == SG_ROOT_INDEX;
}

static int compare_all_worlds(const struct sg_scene *scene)
{
	int bad = 0;
	for (uint32_t n = 1; n < scene->node_pool.used; n++) {
		if (scene->kind[n] == SG_NODE_INVALID || !attached(scene, n))
			continue;
		mat4 expected;
		fresh_world(scene, n, expected);
		for (int i = 0; i < 16; i++) {
			float want = ((float *)expected)[i], got = ((float *)world_of(scene, n))[i];
			if (fabsf(want - got) > 1e-3f * (1.0f + fabsf(want))) {
				bad++;
				break;
			}
		}
	}
	return bad;
}

START_TEST(test_cached_worlds_equal_fresh_after_random_edits)
{
	sg_mesh quad;
	sg_texture tex;
	struct sg_scene *scene = scene_with_quad(&quad, &tex);
	sg_node nodes[20000];
	int count = 0;
	srand(12345);
	/* a random tree of transforms with models hanging off them */
	nodes[count++] = sg_scene_root(scene);
	while (count < 12000) {
		sg_node parent = nodes[rand() % count];
		if (sg_node_get_kind(scene, parent) == SG_NODE_MODEL)
			continue;
		sg_node n;
		if (rand() % 4 == 0)
			n = sg_node_new_model(scene, &(struct sg_model_desc){
				.mesh = quad, .texture = tex, .position = {(float)(rand() % 9), 1, 0}});
		else
			n = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
		sg_transform_translate(scene, n, (float)(rand() % 7) - 3, (float)(rand() % 5), 0);
		sg_transform_rotate(scene, n, (float)(rand() % 100) / 50.0f, 0, 0, 1);
		sg_transform_scale(scene, n, 0.9f, 1.1f, 1);
		ck_assert_int_eq(sg_node_add_child(scene, parent, n), SG_OK);
		nodes[count++] = n;
	}
	ck_assert_int_eq(sg_traverse(&traversal, scene, NULL), SG_OK);
	ck_assert_int_eq(compare_all_worlds(scene), 0);
	for (int round = 0; round < 40; round++) {
		/* even rounds: only transform edits (the dirty-subtree path);
		 * odd rounds: structural edits too */
		for (int e = 0; e < 50; e++) {
			sg_node n = nodes[1 + rand() % (count - 1)];
			int op = round % 2 ? rand() % 5 : 0;
			switch (op) {
			case 0:
				if (sg_node_get_kind(scene, n) == SG_NODE_MODEL)
					sg_model_set_position(scene, n, (float)(rand() % 10), 2, 0);
				else
					sg_transform_rotate(scene, n, 0.3f, 0, 0, 1);
				break;
			case 1: sg_node_remove(scene, n); break;
			case 2: sg_node_reparent(scene, n, nodes[rand() % count]); break; /* may be refused */
			case 3: sg_node_destroy(scene, n); break;
			case 4:
				if (count < 20000) {
					sg_node t = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
					sg_transform_translate(scene, t, 1, 1, 0);
					if (sg_node_add_child(scene, n, t) == SG_OK)
						nodes[count++] = t;
					else
						sg_node_destroy(scene, t);
				}
				break;
			}
		}
		/* a few detached nodes come back, under the root */
		for (int i = 0; i < 5; i++) {
			sg_node n = nodes[1 + rand() % (count - 1)];
			if (sg_node_exists(scene, n) && !sg_node_get_parent(scene, n).generation)
				sg_node_add_child(scene, sg_scene_root(scene), n);
		}
		ck_assert_int_eq(sg_traverse(&traversal, scene, NULL), SG_OK);
		ck_assert_msg(compare_all_worlds(scene) == 0, "round %d: cached world matrices differ",
		              round);
		if (round % 2 == 0) /* transform edits only: far fewer recomputed than there are nodes */
			ck_assert_uint_lt(traversal.world_updates, sg_scene_node_count(scene));
	}
	sg_scene_destroy(scene);
}
END_TEST

START_TEST(test_sparse_edit_recomputes_only_its_subtree)
{
	struct sg_scene *scene = three_rects_build();
	ck_assert_int_eq(sg_traverse(&traversal, scene, NULL), SG_OK);
	ck_assert_uint_eq(traversal.world_updates, 2); /* the root and the transform: models keep none */
	ck_assert_uint_eq(traversal.visited, 5);
	/* nothing changed: nothing recomputed, the draw list is reused */
	ck_assert_int_eq(sg_traverse(&traversal, scene, NULL), SG_OK);
	ck_assert_uint_eq(traversal.world_updates, 0);
	ck_assert_uint_eq(traversal.visited, 0);
	/* the transform alone: its two models' worlds are made from it */
	sg_node t = sg_node_find(scene, sg_scene_root(scene), "Transform");
	sg_transform_scale(scene, t, 2, 2, 1);
	ck_assert_int_eq(sg_traverse(&traversal, scene, NULL), SG_OK);
	ck_assert_uint_eq(traversal.world_updates, 1);
	ck_assert_uint_eq(traversal.visited, 0);
	ck_assert_float_eq(world_of(scene, traversal.list->draws[1].node)[3][0], 10.0f);
	sg_scene_destroy(scene);
}
END_TEST

/* The world matrices an edit of top recomputes: its subtree's, models' aside. */
static size_t subtree_count(const struct sg_scene *scene, uint32_t top)
{
	size_t count = 0;
	for (uint32_t n = top; n; n = sg_scene_next_preorder(scene, top, n))
		count += scene->kind[n] != SG_NODE_MODEL;
	return count;
}

static sg_node random_transform(struct sg_scene *scene)
{
	sg_node n = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
	sg_transform_translate(scene, n, (float)(rand() % 7) - 3, (float)(rand() % 5), 0);
	sg_transform_rotate(scene, n, (float)(rand() % 100) / 50.0f, 0, 0, 1);
	return n;
}

/* A tree built top-down by appending keeps the node pool in preorder, and the
 * world update is then a forward pass over index ranges (src/traverse/world.c):
 * its matrices must equal ones composed afresh, an edit must recompute its
 * subtree and nothing else, detaching must keep the layout, and reusing a
 * destroyed node's slot or inserting must end it (the links are walked then). */
START_TEST(test_preorder_layout_updates)
{
	sg_mesh quad;
	sg_texture tex;
	struct sg_scene *scene = scene_with_quad(&quad, &tex);
	ck_assert(scene->preorder);
	enum { COUNT = 4000 };
	static sg_node nodes[COUNT];
	sg_node path[16] = {sg_scene_root(scene)};
	int depth = 1, count = 0;
	srand(777);
	while (count < COUNT) {
		if (depth > 1 && rand() % 10 < 3) {
			depth--;
			continue;
		}
		bool model = rand() % 4 == 0;
		sg_node n = model ? sg_node_new_model(scene, &(struct sg_model_desc){
		                        .mesh = quad, .texture = tex, .position = {1, 2, 0}})
		                  : random_transform(scene);
		ck_assert_int_eq(sg_node_add_child(scene, path[depth - 1], n), SG_OK);
		nodes[count++] = n;
		if (!model && depth < 16)
			path[depth++] = n;
	}
	ck_assert(scene->preorder);
	ck_assert_int_eq(sg_traverse(&traversal, scene, NULL), SG_OK);
	ck_assert_int_eq(compare_all_worlds(scene), 0);

	/* one edit at a time: exactly its subtree is recomputed */
	for (int e = 0; e < 40; e++) {
		sg_node n = nodes[rand() % COUNT];
		if (sg_node_get_kind(scene, n) == SG_NODE_MODEL)
			sg_model_set_position(scene, n, (float)(rand() % 10), 3, 0);
		else
			sg_transform_rotate(scene, n, 0.25f, 0, 0, 1);
		ck_assert_int_eq(sg_traverse(&traversal, scene, NULL), SG_OK);
		ck_assert_uint_eq(traversal.world_updates, subtree_count(scene, n.index));
		ck_assert_int_eq(compare_all_worlds(scene), 0);
	}

	/* detached subtrees stay in the ranges, harmlessly; appending keeps the layout */
	for (int i = 0; i < 10; i++)
		sg_node_remove(scene, nodes[rand() % COUNT]);
	ck_assert(scene->preorder);
	sg_node last = random_transform(scene);
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), last), SG_OK);
	ck_assert(scene->preorder);
	sg_transform_rotate(scene, nodes[0], 0.5f, 0, 0, 1);
	sg_transform_rotate(scene, last, 0.5f, 0, 0, 1);
	ck_assert_int_eq(sg_traverse(&traversal, scene, NULL), SG_OK);
	ck_assert_int_eq(compare_all_worlds(scene), 0);
	/* edits whose ranges hold detached tops (parent 0), which the update steps
	 * over to the rest of the subtree */
	for (int e = 0; e < 60; e++) {
		sg_node n = nodes[rand() % COUNT];
		if (sg_node_get_kind(scene, n) == SG_NODE_MODEL)
			continue;
		sg_transform_rotate(scene, n, 0.25f, 0, 0, 1);
		ck_assert_int_eq(sg_traverse(&traversal, scene, NULL), SG_OK);
		ck_assert_msg(compare_all_worlds(scene) == 0, "edit %d after the removals", e);
	}

	/* a new node in a destroyed node's slot sits below later ones: the walk takes over */
	sg_node_destroy(scene, nodes[COUNT / 2]);
	sg_node reused = random_transform(scene);
	ck_assert_uint_lt(reused.index, last.index);
	ck_assert_int_eq(sg_node_add_child(scene, last, reused), SG_OK);
	ck_assert(!scene->preorder);
	ck_assert_int_eq(sg_traverse(&traversal, scene, NULL), SG_OK);
	ck_assert_int_eq(compare_all_worlds(scene), 0);
	sg_transform_rotate(scene, last, 0.5f, 0, 0, 1);
	ck_assert_int_eq(sg_traverse(&traversal, scene, NULL), SG_OK);
	ck_assert_uint_eq(traversal.world_updates, 2); /* last and reused */
	ck_assert_int_eq(compare_all_worlds(scene), 0);
	sg_scene_destroy(scene);

	/* a node added under a detached subtree would sit before later attached
	 * ones with a parent below theirs: that ends it too */
	scene = scene_with_quad(&quad, &tex);
	sg_node a2 = random_transform(scene);
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), a2), SG_OK);
	sg_node b2 = random_transform(scene);
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), b2), SG_OK);
	ck_assert_int_eq(sg_node_remove(scene, a2), SG_OK);
	ck_assert(scene->preorder);
	sg_node c2 = random_transform(scene);
	ck_assert_int_eq(sg_node_add_child(scene, a2, c2), SG_OK);
	sg_node d2 = random_transform(scene);
	ck_assert_int_eq(sg_node_add_child(scene, b2, d2), SG_OK);
	ck_assert_int_eq(sg_traverse(&traversal, scene, NULL), SG_OK);
	sg_transform_rotate(scene, b2, 0.5f, 0, 0, 1);
	ck_assert_int_eq(sg_traverse(&traversal, scene, NULL), SG_OK);
	ck_assert_int_eq(compare_all_worlds(scene), 0);
	ck_assert(!scene->preorder);
	sg_scene_destroy(scene);

	/* inserting before a sibling ends it too */
	scene = scene_with_quad(&quad, &tex);
	sg_node a = random_transform(scene), b = random_transform(scene);
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), a), SG_OK);
	ck_assert_int_eq(sg_node_insert_child(scene, sg_scene_root(scene), 0, b), SG_OK);
	ck_assert(!scene->preorder);
	ck_assert_int_eq(sg_traverse(&traversal, scene, NULL), SG_OK);
	ck_assert_int_eq(compare_all_worlds(scene), 0);
	sg_scene_destroy(scene);
}
END_TEST

/* root: g0 (m0, g1 (m1, m2), m3), m4, g2 (m5). */
static struct sg_scene *visibility_scene(sg_node nodes[10])
{
	sg_mesh quad;
	sg_texture tex;
	struct sg_scene *scene = scene_with_quad(&quad, &tex);
	const char *groups[] = {"g0", "g1", "g2"};
	for (int i = 0; i < 3; i++)
		nodes[i] = sg_node_new_group(scene, groups[i]);
	const char *models[] = {"m0", "m1", "m2", "m3", "m4", "m5"};
	for (int i = 0; i < 6; i++)
		nodes[3 + i] = sg_node_new_model(scene, &(struct sg_model_desc){
			.name = models[i], .mesh = quad, .texture = tex, .position = {(float)i, 0, 0}});
	nodes[9] = sg_scene_root(scene);
	sg_node_add_child(scene, nodes[9], nodes[0]);
	sg_node_add_child(scene, nodes[0], nodes[3]);
	sg_node_add_child(scene, nodes[0], nodes[1]);
	sg_node_add_child(scene, nodes[1], nodes[4]);
	sg_node_add_child(scene, nodes[1], nodes[5]);
	sg_node_add_child(scene, nodes[0], nodes[6]);
	sg_node_add_child(scene, nodes[9], nodes[7]);
	sg_node_add_child(scene, nodes[9], nodes[2]);
	sg_node_add_child(scene, nodes[2], nodes[8]);
	return scene;
}

/* The names of the drawn models, space separated. */
static const char *drawn(const struct sg_scene *scene)
{
	static char names[256];
	names[0] = 0;
	for (size_t i = 0; i < traversal.list->count; i++) {
		if (i)
			strcat(names, " ");
		strcat(names, draw_name(scene, i));
	}
	return names;
}

/* The list of the walk with and without culling (a view that holds every model). */
static const char *drawn_both_ways(struct sg_scene *scene)
{
	static char culled[256];
	mat4 everything;
	glm_ortho(-1000, 1000, -1000, 1000, -1, 1, everything);
	ck_assert_msg(sg_traverse(&traversal, scene, everything) == SG_OK, "%s", sg_last_error());
	strcpy(culled, drawn(scene));
	ck_assert_msg(sg_traverse(&traversal, scene, NULL) == SG_OK, "%s", sg_last_error());
	ck_assert_str_eq(culled, drawn(scene));
	return drawn(scene);
}

START_TEST(test_hidden_subtrees_leave_the_list)
{
	sg_node n[10];
	struct sg_scene *scene = visibility_scene(n);
	ck_assert_str_eq(drawn_both_ways(scene), "m0 m1 m2 m3 m4 m5");
	uint64_t walks = traversal.full_walks;
	sg_node_set_visible(scene, n[1], false); /* g1 */
	ck_assert_str_eq(drawn_both_ways(scene), "m0 m3 m4 m5");
	sg_node_set_visible(scene, n[7], false); /* m4 */
	ck_assert_str_eq(drawn_both_ways(scene), "m0 m3 m5");
	sg_node_set_visible(scene, n[0], false); /* g0 over the hidden g1 */
	ck_assert_str_eq(drawn_both_ways(scene), "m5");
	sg_node_set_visible(scene, n[0], true); /* g1 stays hidden */
	ck_assert_str_eq(drawn_both_ways(scene), "m0 m3 m5");
	sg_node_set_visible(scene, n[8], false); /* the last model */
	sg_node_set_visible(scene, n[3], false); /* and the first */
	ck_assert_str_eq(drawn_both_ways(scene), "m3");
	sg_node_set_visible(scene, n[9], false); /* the root */
	ck_assert_str_eq(drawn_both_ways(scene), "");
	ck_assert_uint_eq(traversal.list->count, 0);
	for (int i = 0; i < 10; i++)
		sg_node_set_visible(scene, n[i], true);
	ck_assert_str_eq(drawn_both_ways(scene), "m0 m1 m2 m3 m4 m5");
	ck_assert_ptr_eq(traversal.list, &traversal.all);
	/* none of it walked the tree again */
	ck_assert_uint_eq(traversal.full_walks, walks);
	/* a structural edit under a hidden node: the new order keeps it hidden */
	sg_node_set_visible(scene, n[1], false);
	sg_node_reparent(scene, n[3], n[1]); /* m0 into g1 */
	ck_assert_str_eq(drawn_both_ways(scene), "m3 m4 m5");
	ck_assert_uint_eq(traversal.full_walks, walks + 1);
	/* the same lists as with g1 detached */
	sg_node_set_visible(scene, n[1], true);
	sg_node_remove(scene, n[1]);
	ck_assert_str_eq(drawn_both_ways(scene), "m3 m4 m5");
	sg_scene_destroy(scene);
}
END_TEST

/* Showing or hiding one leaf of 10000 costs no walk of the tree: counted, not timed. */
START_TEST(test_toggle_walks_no_tree)
{
	sg_mesh quad;
	sg_texture tex;
	struct sg_scene *scene = scene_with_quad(&quad, &tex);
	sg_node leaves[10000];
	for (int g = 0; g < 100; g++) {
		sg_node group = sg_node_new_group(scene, NULL);
		sg_node_add_child(scene, sg_scene_root(scene), group);
		for (int i = 0; i < 100; i++) {
			leaves[g * 100 + i] = sg_node_new_model(scene, &(struct sg_model_desc){
				.mesh = quad, .texture = tex});
			sg_node_add_child(scene, group, leaves[g * 100 + i]);
		}
	}
	ck_assert_int_eq(sg_traverse(&traversal, scene, NULL), SG_OK);
	ck_assert_uint_eq(traversal.visited, 1 + 100 + 10000);
	ck_assert_uint_eq(traversal.full_walks, 1);
	uint64_t all_serial = traversal.all.serial;
	ck_assert_int_eq(sg_node_set_visible(scene, leaves[5000], false), SG_OK);
	ck_assert_int_eq(sg_traverse(&traversal, scene, NULL), SG_OK);
	ck_assert_uint_eq(traversal.full_walks, 1);
	ck_assert_uint_eq(traversal.visited, 1); /* the hidden node, looked up */
	ck_assert_uint_eq(traversal.list->count, 9999);
	/* a new serial: the GL caches keyed on it see the change */
	uint64_t hidden_serial = traversal.list->serial;
	ck_assert_uint_ne(hidden_serial, all_serial);
	for (size_t i = 0; i < traversal.list->count; i++)
		ck_assert_uint_ne(traversal.list->draws[i].node, leaves[5000].index);
	/* no change: nothing looked at, the same list */
	ck_assert_int_eq(sg_traverse(&traversal, scene, NULL), SG_OK);
	ck_assert_uint_eq(traversal.visited, 0);
	ck_assert_uint_eq(traversal.list->serial, hidden_serial);
	/* the value it has: still the same list */
	ck_assert_int_eq(sg_node_set_visible(scene, leaves[5000], false), SG_OK);
	ck_assert_int_eq(sg_traverse(&traversal, scene, NULL), SG_OK);
	ck_assert_uint_eq(traversal.list->serial, hidden_serial);
	/* shown again: the cached list of all, its serial unchanged */
	ck_assert_int_eq(sg_node_set_visible(scene, leaves[5000], true), SG_OK);
	ck_assert_int_eq(sg_traverse(&traversal, scene, NULL), SG_OK);
	ck_assert_ptr_eq(traversal.list, &traversal.all);
	ck_assert_uint_eq(traversal.list->serial, all_serial);
	ck_assert_uint_eq(traversal.list->count, 10000);
	/* hiding a detached node changes nothing drawn: the same list */
	sg_node loose = sg_node_new_group(scene, NULL);
	ck_assert_int_eq(sg_node_set_visible(scene, loose, false), SG_OK);
	ck_assert_int_eq(sg_traverse(&traversal, scene, NULL), SG_OK);
	ck_assert_uint_eq(traversal.list->serial, all_serial);
	/* 1% of the leaves each frame, 20 frames: still no walk */
	for (int frame = 0; frame < 20; frame++) {
		for (int i = 1 - frame % 2; i < 10000; i += 100)
			ck_assert_int_eq(sg_node_set_visible(scene, leaves[i], true), SG_OK);
		for (int i = frame % 2; i < 10000; i += 100)
			ck_assert_int_eq(sg_node_set_visible(scene, leaves[i], false), SG_OK);
		ck_assert_int_eq(sg_traverse(&traversal, scene, NULL), SG_OK);
		ck_assert_uint_eq(traversal.list->count, 9900);
		ck_assert_uint_le(traversal.visited, 101);
	}
	ck_assert_uint_eq(traversal.full_walks, 1);
	sg_scene_destroy(scene);
}
END_TEST

/* A hidden model is as if detached: its destroyed texture fails nothing until
 * it is shown, with culling or without. */
START_TEST(test_hidden_stale_model_is_no_error)
{
	struct sg_scene *scene = three_rects_build();
	sg_node root = sg_scene_root(scene);
	sg_node r2 = sg_node_find(scene, root, "Rectangle 2");
	sg_node t = sg_node_find(scene, root, "Transform");
	mat4 everything;
	glm_ortho(-1000, 1000, -1000, 1000, -1, 1, everything);
	ck_assert_int_eq(sg_texture_destroy(scene, sg_model_texture(scene, sg_scene_model(scene, r2.index))), SG_OK);
	ck_assert_int_eq(sg_node_set_visible(scene, r2, false), SG_OK);
	ck_assert_str_eq(drawn_both_ways(scene), "Rectangle 1 Rectangle 3");
	ck_assert_int_eq(sg_node_set_visible(scene, r2, true), SG_OK);
	ck_assert_int_eq(sg_node_set_visible(scene, t, false), SG_OK);
	ck_assert_str_eq(drawn_both_ways(scene), "Rectangle 1");
	ck_assert_int_eq(sg_node_set_visible(scene, t, true), SG_OK);
	for (int culled = 0; culled < 2; culled++) {
		ck_assert_int_eq(sg_traverse(&traversal, scene, culled ? everything : NULL),
		                 SG_ERR_STALE_HANDLE);
		ck_assert_msg(strstr(sg_last_error(), "model 'Rectangle 2' uses a destroyed texture"),
		              "%s", sg_last_error());
	}
	sg_scene_destroy(scene);
}
END_TEST

/* Matrices edited under a hidden node are right once it is shown. */
START_TEST(test_hidden_worlds_are_right_when_shown)
{
	struct sg_scene *scene = three_rects_build();
	sg_node t = sg_node_find(scene, sg_scene_root(scene), "Transform");
	ck_assert_int_eq(sg_traverse(&traversal, scene, NULL), SG_OK);
	ck_assert_int_eq(sg_node_set_visible(scene, t, false), SG_OK);
	ck_assert_int_eq(sg_traverse(&traversal, scene, NULL), SG_OK);
	sg_transform_translate(scene, t, 7, 3, 0);
	sg_transform_scale(scene, sg_node_find(scene, t, "Rectangle 3"), 2, 2, 1);
	ck_assert_int_eq(sg_traverse(&traversal, scene, NULL), SG_OK);
	ck_assert_int_eq(sg_node_set_visible(scene, t, true), SG_OK);
	ck_assert_int_eq(sg_traverse(&traversal, scene, NULL), SG_OK);
	ck_assert_uint_eq(traversal.list->count, 3);
	ck_assert_int_eq(compare_all_worlds(scene), 0);
	sg_scene_destroy(scene);
}
END_TEST

/* With culling, a hidden subtree is not visited at all. */
START_TEST(test_culling_visits_no_hidden_node)
{
	sg_node n[10];
	struct sg_scene *scene = visibility_scene(n);
	mat4 everything;
	glm_ortho(-1000, 1000, -1000, 1000, -1, 1, everything);
	ck_assert_int_eq(sg_traverse(&traversal, scene, everything), SG_OK);
	ck_assert_uint_eq(traversal.visited, 10);
	sg_node_set_visible(scene, n[0], false); /* g0: itself and 5 nodes under it */
	ck_assert_int_eq(sg_traverse(&traversal, scene, everything), SG_OK);
	ck_assert_uint_eq(traversal.visited, 4);
	sg_node_set_visible(scene, n[9], false);
	ck_assert_int_eq(sg_traverse(&traversal, scene, everything), SG_OK);
	ck_assert_uint_eq(traversal.visited, 0);
	ck_assert_uint_eq(traversal.list->count, 0);
	sg_scene_destroy(scene);
}
END_TEST

/* Each allocation of a walk with hidden nodes fails in turn: the walk fails
 * cleanly, and the next one gives the right list. */
START_TEST(test_hidden_walk_allocation_failures)
{
	for (long k = 1; k < 50; k++) {
		sg_node n[10];
		struct sg_scene *scene = visibility_scene(n);
		sg_node_set_visible(scene, n[1], false);
		sg_node_set_visible(scene, n[8], false);
		sg_alloc_fail_at(k);
		sg_result result = sg_traverse(&traversal, scene, NULL);
		long made = sg_alloc_fail_at(0);
		if (result == SG_OK) {
			ck_assert_int_lt(made, k);
			ck_assert_str_eq(drawn(scene), "m0 m3 m4");
			sg_scene_destroy(scene);
			break;
		}
		ck_assert_int_eq(result, SG_ERR_NO_MEMORY);
		ck_assert_str_eq(drawn_both_ways(scene), "m0 m3 m4");
		sg_scene_destroy(scene);
		sg_traversal_finish(&traversal);
		sg_traversal_init(&traversal);
	}
}
END_TEST

int main(void)
{
	Suite *suite = suite_create("traverse");
	TCase *tc = tcase_create("traverse");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_three_rects_order_and_matrices);
	tcase_add_test(tc, test_nested_matrices_compose_in_order);
	tcase_add_test(tc, test_detached_and_siblings);
	tcase_add_test(tc, test_deep_chain_is_iterative);
	tcase_add_test(tc, test_destroyed_resource_names_the_model);
	tcase_add_test(tc, test_culled_model_with_destroyed_texture_fails);
	tcase_add_test(tc, test_camera_pixels);
	tcase_add_test(tc, test_cached_worlds_equal_fresh_after_random_edits);
	tcase_add_test(tc, test_sparse_edit_recomputes_only_its_subtree);
	tcase_add_test(tc, test_preorder_layout_updates);
	tcase_add_test(tc, test_hidden_subtrees_leave_the_list);
	tcase_add_test(tc, test_toggle_walks_no_tree);
	tcase_add_test(tc, test_hidden_stale_model_is_no_error);
	tcase_add_test(tc, test_hidden_worlds_are_right_when_shown);
	tcase_add_test(tc, test_culling_visits_no_hidden_node);
	tcase_add_test(tc, test_hidden_walk_allocation_failures);
	suite_add_tcase(suite, tc);
	return check_run(suite);
}
