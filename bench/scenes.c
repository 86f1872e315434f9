#include "scenes.h"

#include <cglm/cglm.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

static size_t add(struct bench_tree *t, int32_t parent, float x, float y, float scale, int texture,
                  int depth)
{
	if (t->count == t->capacity) {
		t->capacity = t->capacity ? t->capacity * 2 : 1024;
		t->parent = realloc(t->parent, t->capacity * sizeof(*t->parent));
		t->params = realloc(t->params, t->capacity * sizeof(*t->params));
		t->texture = realloc(t->texture, t->capacity * sizeof(*t->texture));
		t->depth = realloc(t->depth, t->capacity * sizeof(*t->depth));
		if (!t->parent || !t->params || !t->texture || !t->depth) {
			fprintf(stderr, "bench: out of memory making the scene\n");
			exit(1);
		}
	}
	size_t i = t->count++;
	t->parent[i] = parent;
	t->params[i][0] = x, t->params[i][1] = y, t->params[i][2] = 0, t->params[i][3] = scale;
	t->texture[i] = (int8_t)texture;
	t->depth[i] = (uint8_t)depth;
	if (texture >= 0)
		t->models++;
	return i;
}

/* Fan-out 8 as 4 x 2 cells, then 2 x 4, so that two levels make a square of
 * 8 x 8. A leaf transform scales its 2 x 2 quad to most of its cell. */
static void subtree(struct bench_tree *t, int32_t parent, int depth, size_t leaves, float width,
                    float height, size_t *leaf_index)
{
	/* Fan-out 8, except at the top of a tree whose leaf count is 2 or 4 times a
	 * power of 8: there the remainder (tree-1048576 = 4 * 8^6 leaves has 4
	 * children at the top, tree-4194304 = 2 * 8^7 has 2), which gives the
	 * node counts of the scene description (8.99 million for tree-4194304). */
	size_t fanout = leaves;
	while (fanout > 8)
		fanout /= 8;
	size_t cols = fanout == 8 ? (depth % 2 ? 2 : 4) : (fanout == 4 ? 2 : fanout);
	size_t rows = fanout / cols;
	float cw = width / (float)cols, ch = height / (float)rows;
	for (size_t k = 0; k < fanout; k++) {
		float x = (float)(k % cols) * cw, y = (float)(k / cols) * ch;
		size_t per_child = leaves / fanout;
		bool leaf = per_child == 1;
		float scale = leaf ? 0.4f * (cw < ch ? cw : ch) : 1.0f;
		size_t me = add(t, parent, x, y, scale, -1, depth + 1);
		if (leaf) {
			add(t, (int32_t)me, 0, 0, 1, (int)((*leaf_index)++ % 8), depth + 2);
		} else {
			subtree(t, (int32_t)me, depth + 1, per_child, cw, ch, leaf_index);
		}
	}
}

void bench_tree_make(struct bench_tree *tree, size_t leaves)
{
	*tree = (struct bench_tree){0};
	size_t top = add(tree, -1, 0, 0, 1, -1, 0);
	size_t leaf_index = 0;
	subtree(tree, (int32_t)top, 0, leaves, 1024, 1024, &leaf_index);
}

void bench_flat_make(struct bench_tree *tree, size_t count)
{
	*tree = (struct bench_tree){0};
	size_t top = add(tree, -1, 0, 0, 1, -1, 0);
	size_t side = 1;
	while (side * side < count)
		side++;
	float cell = 1024.0f / (float)side;
	/* models directly under the transform root; the position is a translation */
	for (size_t i = 0; i < count; i++)
		add(tree, (int32_t)top, (float)(i % side) * cell, (float)(i / side) * cell, 1,
		    (int)(i % 8), 1);
}

void bench_tree_free(struct bench_tree *tree)
{
	free(tree->parent);
	free(tree->params);
	free(tree->texture);
	free(tree->depth);
	*tree = (struct bench_tree){0};
}

void bench_local_matrix(const struct bench_tree *tree, size_t i, float out[16])
{
	bench_params_matrix(tree->params[i], out);
}

void bench_params_matrix(const float p[4], float out[16])
{
	mat4 m;
	glm_translate_make(m, (vec3){p[0], p[1], 0});
	glm_rotate_z(m, p[2], m);
	glm_scale_uni(m, p[3]);
	glm_mat4_ucopy(m, (vec4 *)out);
}

void bench_checker_pixels(int i, unsigned char px[16 * 16 * 4])
{
	for (int p = 0; p < 16 * 16; p++) {
		int on = ((p % 16) / 4 + (p / 16) / 4) % 2;
		px[p * 4 + 0] = (unsigned char)(on ? 40 + i * 25 : 255);
		px[p * 4 + 1] = (unsigned char)(on ? 200 - i * 20 : 255);
		px[p * 4 + 2] = (unsigned char)(on ? 60 + i * 10 : 255);
		px[p * 4 + 3] = 255;
	}
}

static sg_texture checker(struct sg_scene *scene, int i)
{
	unsigned char px[16 * 16 * 4];
	bench_checker_pixels(i, px);
	return sg_texture_create(scene, &(struct sg_texture_desc){16, 16, px, 0, 0, 0});
}

struct sg_scene *bench_scene_build(const struct bench_tree *tree, sg_node *handles)
{
	struct sg_scene *scene = sg_scene_create();
	if (!scene)
		return NULL;
	sg_mesh quad = sg_mesh_create_quad(scene, 2, 2);
	sg_texture textures[8];
	for (int i = 0; i < 8; i++)
		textures[i] = checker(scene, i);
	for (size_t i = 0; i < tree->count; i++) {
		sg_node parent = tree->parent[i] < 0 ? sg_scene_root(scene) : handles[tree->parent[i]];
		if (tree->texture[i] >= 0) {
			const float *p = tree->params[i];
			handles[i] = sg_node_new_model(scene, &(struct sg_model_desc){
				.mesh = quad, .texture = textures[tree->texture[i]], .position = {p[0], p[1], 0}});
		} else {
			float m[16];
			bench_local_matrix(tree, i, m);
			handles[i] = sg_node_new_transform(scene, &(struct sg_transform_desc){.matrix = m});
		}
		if (sg_node_add_child(scene, parent, handles[i]) != SG_OK) {
			fprintf(stderr, "bench: %s\n", sg_last_error());
			sg_scene_destroy(scene);
			return NULL;
		}
	}
	return scene;
}
