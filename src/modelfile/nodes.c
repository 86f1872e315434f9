/* The nodes of a file: first a plan (every node's place, depth and matrix,
 * and the budget's counts), then the transforms and models. */
#include "import_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/escape.h"

void sg_import_mat4_mul(const float a[16], const float b[16], float out[16])
{
	float product[16];
	for (int column = 0; column < 4; column++)
		for (int row = 0; row < 4; row++) {
			float sum = 0;
			for (int k = 0; k < 4; k++)
				sum += a[k * 4 + row] * b[column * 4 + k];
			product[column * 4 + row] = sum;
		}
	memcpy(out, product, sizeof(product));
}

/* aiMatrix4x4 is row-major (a1..a4 the first row); libsg's are column-major. */
static void local_matrix(const struct aiMatrix4x4 *m, float out[16])
{
	const float rows[4][4] = {{m->a1, m->a2, m->a3, m->a4},
	                          {m->b1, m->b2, m->b3, m->b4},
	                          {m->c1, m->c2, m->c3, m->c4},
	                          {m->d1, m->d2, m->d3, m->d4}};
	for (int row = 0; row < 4; row++)
		for (int column = 0; column < 4; column++)
			out[column * 4 + row] = rows[row][column];
}

static const char *node_name(const struct aiNode *node)
{
	return node->mName.data;
}

/* What the plan counts against the budget. */
struct plan_counts {
	size_t nodes, vertices, triangles;
	bool *mesh_seen;
};

static sg_result plan_meshes(struct sg_import *im, const struct aiNode *node,
                             struct plan_counts *counts)
{
	const struct aiScene *ai = im->ai;
	for (unsigned k = 0; k < node->mNumMeshes; k++) {
		unsigned index = node->mMeshes[k];
		if (index >= ai->mNumMeshes)
			return sg_fail(SG_ERR_FORMAT, "'%s': a node draws mesh %u of %u", im->shown,
			               index, ai->mNumMeshes);
		const struct aiMesh *mesh = ai->mMeshes[index];
		bool drawn = sg_import_mesh_drawn(mesh);
		if (drawn && ++counts->nodes > im->budget.max_nodes)
			return sg_import_over_budget(im, "nodes", counts->nodes,
			                             im->budget.max_nodes, "max_nodes");
		if (counts->mesh_seen[index])
			continue;
		counts->mesh_seen[index] = true;
		if (!drawn) {
			im->info.skipped_meshes++;
			continue;
		}
		counts->vertices += mesh->mNumVertices;
		counts->triangles += sg_import_mesh_triangles(mesh);
		if (counts->vertices > im->budget.max_vertices)
			return sg_import_over_budget(im, "vertices", counts->vertices,
			                             im->budget.max_vertices, "max_vertices");
		if (counts->triangles > im->budget.max_triangles)
			return sg_import_over_budget(im, "triangles", counts->triangles,
			                             im->budget.max_triangles, "max_triangles");
	}
	return SG_OK;
}

/* Parents first and children in their order: the plan is its own queue. */
static sg_result plan_tree(struct sg_import *im, struct plan_counts *counts)
{
	for (size_t i = 0; i < im->plan_count; i++) {
		const struct aiNode *node = im->plan[i].source;
		sg_result result = plan_meshes(im, node, counts);
		if (result)
			return result;
		size_t depth = im->plan[i].depth;
		if (node->mNumChildren && depth + 1 > im->budget.max_depth)
			return sg_import_over_budget(im, "nodes nested", depth + 1,
			                             im->budget.max_depth, "max_depth");
		for (unsigned c = 0; c < node->mNumChildren; c++) {
			if (!node->mChildren[c])
				return sg_fail(SG_ERR_FORMAT, "'%s': a node has a missing child",
				               im->shown);
			if (++counts->nodes > im->budget.max_nodes)
				return sg_import_over_budget(im, "nodes", counts->nodes,
				                             im->budget.max_nodes, "max_nodes");
			size_t next = im->plan_count;
			if (!sg_grow_array((void **)&im->plan, &im->plan_capacity, next + 1,
			                   sizeof(*im->plan)))
				return sg_fail(SG_ERR_NO_MEMORY, "out of memory importing '%s'",
				               im->shown);
			im->plan[next] = (struct sg_plan_node){
			    .source = node->mChildren[c], .parent = i, .depth = depth + 1};
			im->plan_count++;
		}
	}
	return SG_OK;
}

static int compare_names(const void *a, const void *b, void *data)
{
	const struct sg_import *im = data;
	size_t left = *(const size_t *)a, right = *(const size_t *)b;
	int order = strcmp(node_name(im->plan[left].source), node_name(im->plan[right].source));
	return order ? order : (left > right) - (left < right);
}

size_t sg_import_find_node(const struct sg_import *im, const char *name)
{
	size_t low = 0, high = im->plan_count; /* the first index whose name >= name */
	while (low < high) {
		size_t middle = low + (high - low) / 2;
		if (strcmp(node_name(im->plan[im->by_name[middle]].source), name) < 0)
			low = middle + 1;
		else
			high = middle;
	}
	if (low < im->plan_count && strcmp(node_name(im->plan[im->by_name[low]].source), name) == 0)
		return im->by_name[low];
	return SIZE_MAX;
}

static bool all_finite(const float *values, size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (!isfinite(values[i]))
			return false;
	return true;
}

/* A node's matrix with NaN or infinite entries, or one whose product with
 * those above it overflows, is the file's fault (SG_ERR_FORMAT), named here:
 * left to the graph it would fail as a bad argument, or draw nothing. */
static sg_result check_matrices(const struct sg_import *im, const struct sg_plan_node *plan,
                                const float local[16])
{
	bool own = all_finite(local, 16);
	if (own && all_finite(plan->world, 16))
		return SG_OK;
	char name[256];
	sg_escape(node_name(plan->source), SG_ESCAPE_TEXT, name, sizeof(name));
	return sg_fail(SG_ERR_FORMAT,
	               own ? "'%s': node '%s': its matrix times those of the nodes above it "
	                     "overflows (an entry beyond 3.4e38)"
	                   : "'%s': node '%s': its matrix has NaN or infinite entries",
	               im->shown, name);
}

sg_result sg_import_plan(struct sg_import *im)
{
	const struct aiScene *ai = im->ai;
	struct plan_counts counts = {.nodes = 1};
	sg_result result = SG_OK;
	counts.mesh_seen = sg_calloc(ai->mNumMeshes ? ai->mNumMeshes : 1, sizeof(bool));
	if (!counts.mesh_seen ||
	    !sg_grow_array((void **)&im->plan, &im->plan_capacity, 1, sizeof(*im->plan))) {
		result = sg_fail(SG_ERR_NO_MEMORY, "out of memory importing '%s'", im->shown);
		goto done;
	}
	im->plan[0] =
	    (struct sg_plan_node){.source = ai->mRootNode, .parent = SIZE_MAX, .depth = 1};
	im->plan_count = 1;
	if ((result = plan_tree(im, &counts)))
		goto done;
	for (unsigned i = 0; i < ai->mNumLights; i++) {
		if (!ai->mLights[i])
			continue;
		counts.nodes += sg_import_light_nodes(ai->mLights[i]);
		if (counts.nodes > im->budget.max_nodes) {
			result = sg_import_over_budget(im, "nodes", counts.nodes,
			                               im->budget.max_nodes, "max_nodes");
			goto done;
		}
	}
	for (size_t i = 0; i < im->plan_count; i++) {
		float local[16];
		local_matrix(&im->plan[i].source->mTransformation, local);
		if (i == 0)
			memcpy(im->plan[i].world, local, sizeof(local));
		else
			sg_import_mat4_mul(im->plan[im->plan[i].parent].world, local,
			                   im->plan[i].world);
		if ((result = check_matrices(im, &im->plan[i], local)))
			goto done;
	}
	if (!(im->by_name = sg_realloc_array(NULL, im->plan_count, sizeof(size_t)))) {
		result = sg_fail(SG_ERR_NO_MEMORY, "out of memory importing '%s'", im->shown);
		goto done;
	}
	for (size_t i = 0; i < im->plan_count; i++)
		im->by_name[i] = i;
	qsort_r(im->by_name, im->plan_count, sizeof(size_t), compare_names, im);
done:
	sg_free(counts.mesh_seen);
	return result;
}

/* Finite positions under finite matrices that land beyond float's range:
 * no camera sees them, no bounds hold them; the file's fault. */
static sg_result placed_overflows(const struct sg_import *im, const struct sg_plan_node *plan,
                                  const struct aiMesh *mesh)
{
	char node[256], name[128];
	sg_escape(node_name(plan->source), SG_ESCAPE_TEXT, node, sizeof(node));
	sg_escape(mesh->mName.data, SG_ESCAPE_TEXT, name, sizeof(name));
	return sg_fail(SG_ERR_FORMAT,
	               "'%s': node '%s': mesh '%s' placed by the node's matrices overflows (a "
	               "coordinate beyond 3.4e38)",
	               im->shown, node, name);
}

static sg_result add_model(struct sg_import *im, const struct sg_plan_node *plan, unsigned index)
{
	const struct aiMesh *source = im->ai->mMeshes[index];
	if (!sg_import_mesh_drawn(source))
		return SG_OK;
	sg_mesh mesh;
	sg_material material = SG_MATERIAL_NONE;
	sg_result result = sg_import_mesh(im, index, &mesh);
	if (!result && source->mMaterialIndex < im->ai->mNumMaterials)
		result = sg_import_material(im, source->mMaterialIndex, &material);
	if (result)
		return result;
	sg_node model = sg_node_new_model(im->scene, &(struct sg_model_desc){
	                                                 .name = source->mName.data,
	                                                 .mesh = mesh,
	                                             });
	if (!sg_node_exists(im->scene, model))
		return sg_fail_prefix(sg_import_failure(), "importing '%s': ", im->shown);
	if (material.generation)
		result = sg_model_set_material(im->scene, model, material);
	if (!result)
		result = sg_node_add_child(im->scene, plan->node, model);
	if (result) {
		sg_node_destroy(im->scene, model);
		return sg_fail_prefix(result, "importing '%s': ", im->shown);
	}
	im->info.models++;
	im->info.nodes++;
	/* the mesh's box placed by the node's matrices: its eight corners */
	const float *box = im->mesh_bounds[index];
	for (int corner = 0; corner < 8; corner++) {
		float point[3] = {box[corner & 1 ? 3 : 0], box[corner & 2 ? 4 : 1],
		                  box[corner & 4 ? 5 : 2]};
		for (int axis = 0; axis < 3; axis++) {
			const float *w = plan->world;
			float value = w[axis] * point[0] + w[4 + axis] * point[1] +
			              w[8 + axis] * point[2] + w[12 + axis];
			if (!isfinite(value))
				return placed_overflows(im, plan, source);
			bool first = im->info.models == 1 && corner == 0;
			if (first || value < im->info.bounds[axis])
				im->info.bounds[axis] = value;
			if (first || value > im->info.bounds[3 + axis])
				im->info.bounds[3 + axis] = value;
		}
	}
	return SG_OK;
}

sg_result sg_import_build_nodes(struct sg_import *im)
{
	for (size_t i = 0; i < im->plan_count; i++) {
		struct sg_plan_node *plan = &im->plan[i];
		float local[16];
		local_matrix(&plan->source->mTransformation, local);
		char name[256];
		sg_escape(node_name(plan->source), SG_ESCAPE_TEXT, name, sizeof(name));
		sg_node node = sg_node_new_transform(im->scene, &(struct sg_transform_desc){
		                                                    .name = node_name(plan->source),
		                                                    .matrix = local,
		                                                });
		if (!sg_node_exists(im->scene, node))
			return sg_fail_prefix(sg_import_failure(),
			                      "importing '%s': node '%s': ", im->shown, name);
		if (i == 0) {
			im->root = node;
		} else {
			sg_result result =
			    sg_node_add_child(im->scene, im->plan[plan->parent].node, node);
			if (result) {
				sg_node_destroy(im->scene, node);
				return sg_fail_prefix(
				    result, "importing '%s': node '%s': ", im->shown, name);
			}
		}
		plan->node = node;
		im->info.transforms++;
		im->info.nodes++;
		for (unsigned k = 0; k < plan->source->mNumMeshes; k++) {
			sg_result result = add_model(im, plan, plan->source->mMeshes[k]);
			if (result)
				return result;
		}
	}
	return SG_OK;
}
