/* Light and 3D view nodes: attribute nodes with matrices like groups (the
 * transforms above place them), and a record each in scene->nodes3d. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <sg/scene3d.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/floats.h"
#include "scene_internal.h"
#include "../base/sized.h"

void sg_scene_free_node3d(struct sg_scene *scene, uint32_t index)
{
	uint8_t kind = scene->kind[index];
	/* A model's material goes with it: a model made later in its slot
	 * must not find it (the table is keyed by slot, not by handle). */
	if (kind == SG_NODE_MODEL && scene->model_materials.count)
		sg_free(sg_index_map_take(&scene->model_materials, index));
	if (kind != SG_NODE_LIGHT && kind != SG_NODE_VIEW3D)
		return;
	sg_free(sg_index_map_take(&scene->nodes3d, index));
	if (kind == SG_NODE_VIEW3D)
		scene->view_count--;
	else
		scene->light_count--;
}

/* The next light of top's own (none under a view nested in top) after n in
 * preorder, leaving skip's subtree out; 0 at the end. n = top: the first. */
static uint32_t next_own_light(const struct sg_scene *scene, uint32_t top, uint32_t skip,
                               uint32_t n)
{
	n = sg_scene_next_preorder(scene, top, n);
	while (n) {
		if (n == skip || scene->kind[n] == SG_NODE_VIEW3D)
			n = sg_scene_skip_within(scene, top, n);
		else if (scene->kind[n] == SG_NODE_LIGHT)
			return n;
		else
			n = sg_scene_next_preorder(scene, top, n);
	}
	return 0;
}

sg_result sg_scene_check_view_lights(const struct sg_scene *scene, uint32_t parent, uint32_t child)
{
	/* fewer lights in the whole scene than a view may hold: the common
	 * case costs no walk */
	if (scene->light_count <= SG_VIEW3D_MAX_LIGHTS || scene->kind[child] == SG_NODE_VIEW3D)
		return SG_OK;
	/* the subtree first: a leaf that is no light (most attaches) walks
	 * neither it nor the ancestors, which would make a deep chain quadratic */
	uint32_t first =
	    scene->kind[child] == SG_NODE_LIGHT ? child : next_own_light(scene, child, 0, child);
	if (!first)
		return SG_OK;
	uint32_t view = parent;
	while (view && view != SG_ROOT_INDEX && scene->kind[view] != SG_NODE_VIEW3D)
		view = scene->parent[view];
	if (!view || view == SG_ROOT_INDEX)
		return SG_OK; /* a light under no view lights nothing */
	/* a node moved within the view is not counted twice */
	uint32_t count = 0;
	for (uint32_t n = next_own_light(scene, view, child, view); n;
	     n = next_own_light(scene, view, child, n))
		count++;
	uint32_t over = first;
	for (count++; over && count <= SG_VIEW3D_MAX_LIGHTS; count++)
		over = next_own_light(scene, child, 0, over);
	if (!over)
		return SG_OK;
	char light[160];
	snprintf(light, sizeof(light), "%s", sg_scene_node_label(scene, over));
	return sg_fail(SG_ERR_LIMIT,
	               "light %s would be light %u of 3D view %s, more than SG_VIEW3D_MAX_LIGHTS "
	               "(%d)",
	               light, count, sg_scene_node_label(scene, view), SG_VIEW3D_MAX_LIGHTS);
}

static sg_result check_light(const struct sg_light_desc *d)
{
	const char *label = d->name ? d->name : "";
	if ((unsigned)d->type > SG_LIGHT_SPOT)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "light '%.100s': type %d is unknown", label,
		               (int)d->type);
	for (int i = 0; i < 3; i++)
		if (!(d->color[i] >= 0.0f && d->color[i] <= 1e6f))
			return sg_fail(SG_ERR_INVALID_ARGUMENT,
			               "light '%.100s': color[%d] is %g, not in [0, 1e6]", label, i,
			               (double)d->color[i]);
	if (!(d->intensity >= 0.0f && d->intensity <= 1e9f) || !(d->range >= 0.0f) ||
	    !isfinite(d->range))
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "light '%.100s': intensity %g or range %g is negative or not finite",
		               label, (double)d->intensity, (double)d->range);
	if (d->type == SG_LIGHT_SPOT &&
	    !(d->inner_cone >= 0.0f && d->inner_cone < d->outer_cone &&
	      d->outer_cone <= (float)M_PI / 2.0f + 1e-6f))
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "light '%.100s': spot cones %g and %g need 0 <= inner < outer <= pi/2",
		               label, (double)d->inner_cone, (double)d->outer_cone);
	return SG_OK;
}

static sg_result check_view(const struct sg_view3d_desc *d)
{
	const char *label = d->name ? d->name : "";
	if (d->camera && (!sg_floats_finite(d->camera->projection, 16) ||
	                  !sg_floats_finite(d->camera->view, 16)))
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "3D view '%.100s': camera matrices have NaN or infinite entries", label);
	if (!sg_floats_finite(d->viewport, 4) || d->viewport[2] < 0.0f || d->viewport[3] < 0.0f)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "3D view '%.100s': viewport is not finite or has a negative size", label);
	for (int i = 0; i < 3; i++)
		if (!(d->ambient[i] >= 0.0f && d->ambient[i] <= 1e6f))
			return sg_fail(SG_ERR_INVALID_ARGUMENT,
			               "3D view '%.100s': ambient[%d] is %g, not in [0, 1e6]", label, i,
			               (double)d->ambient[i]);
	return SG_OK;
}

static void fill_view(struct sg_view3d_data *v, const struct sg_view3d_desc *d)
{
	*v = (struct sg_view3d_data){.has_camera = d->camera != NULL};
	if (d->camera)
		v->camera = *d->camera;
	memcpy(v->viewport, d->viewport, sizeof(v->viewport));
	memcpy(v->ambient, d->ambient, sizeof(v->ambient));
}

/* A node of kind with record (taken over) in nodes3d. */
static sg_node new_node3d(struct sg_scene *scene, enum sg_node_kind kind, const char *name,
                          void *record)
{
	sg_node node = sg_scene_new_recorded_node(scene, kind, name, &scene->nodes3d, record,
	                                          kind == SG_NODE_LIGHT ? "light" : "3D view");
	if (node.generation && kind == SG_NODE_VIEW3D)
		scene->view_count++;
	else if (node.generation)
		scene->light_count++;
	return node;
}

sg_node sg_node_new_light_sized(struct sg_scene *scene, const struct sg_light_desc *desc,
                                size_t size)
{
	struct sg_light_desc sized_desc;
	if (desc && !(desc = sg_sized_in(&sized_desc, sizeof sized_desc, desc, size,
	                                 SG_SIZE_THROUGH(struct sg_light_desc, outer_cone),
	                                 "sg_node_new_light")))
		return (sg_node){0};
	if (!scene || !desc) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_node_new_light: %s is NULL", scene ? "desc" : "scene");
		return SG_NODE_NONE;
	}
	if (check_light(desc))
		return SG_NODE_NONE;
	struct sg_light_data *light = sg_malloc(sizeof(*light));
	if (light) {
		light->desc = *desc;
		light->desc.name = NULL;
	}
	return new_node3d(scene, SG_NODE_LIGHT, desc->name, light);
}

sg_result sg_light_set_sized(struct sg_scene *scene, sg_node node, const struct sg_light_desc *desc,
                             size_t size)
{
	struct sg_light_desc sized_desc;
	if (desc && !(desc = sg_sized_in(&sized_desc, sizeof sized_desc, desc, size,
	                                 SG_SIZE_THROUGH(struct sg_light_desc, outer_cone),
	                                 "sg_light_set")))
		return sg_last_result();
	sg_result result = sg_scene_check_kind(scene, node, SG_NODE_LIGHT, "sg_light_set");
	if (result)
		return result;
	if (!desc)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_light_set: desc is NULL");
	if ((result = check_light(desc)))
		return result;
	struct sg_light_data *light = sg_index_map_get(&scene->nodes3d, node.index);
	light->desc = *desc;
	light->desc.name = NULL;
	sg_scene_journal(scene, node.index);
	scene->appearance_version++;
	return SG_OK;
}

sg_node sg_node_new_view3d_sized(struct sg_scene *scene, const struct sg_view3d_desc *desc,
                                 size_t size)
{
	struct sg_view3d_desc sized_desc;
	if (desc && !(desc = sg_sized_in(&sized_desc, sizeof sized_desc, desc, size,
	                                 SG_SIZE_THROUGH(struct sg_view3d_desc, ambient),
	                                 "sg_node_new_view3d")))
		return (sg_node){0};
	if (!scene || !desc) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_node_new_view3d: %s is NULL",
		        scene ? "desc" : "scene");
		return SG_NODE_NONE;
	}
	if (check_view(desc))
		return SG_NODE_NONE;
	struct sg_view3d_data *view = sg_malloc(sizeof(*view));
	if (view)
		fill_view(view, desc);
	return new_node3d(scene, SG_NODE_VIEW3D, desc->name, view);
}

sg_result sg_view3d_set_sized(struct sg_scene *scene, sg_node node,
                              const struct sg_view3d_desc *desc, size_t size)
{
	struct sg_view3d_desc sized_desc;
	if (desc &&
	    !(desc = sg_sized_in(&sized_desc, sizeof sized_desc, desc, size,
	                         SG_SIZE_THROUGH(struct sg_view3d_desc, ambient), "sg_view3d_set")))
		return sg_last_result();
	sg_result result = sg_scene_check_kind(scene, node, SG_NODE_VIEW3D, "sg_view3d_set");
	if (result)
		return result;
	if (!desc)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_view3d_set: desc is NULL");
	if ((result = check_view(desc)))
		return result;
	fill_view(sg_index_map_get(&scene->nodes3d, node.index), desc);
	sg_scene_journal(scene, node.index);
	scene->appearance_version++;
	return SG_OK;
}
