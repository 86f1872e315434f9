/* Tree edits and navigation. Every walk here is iterative: chains of any depth
 * are fine. */
#include <string.h>

#include "../base/error.h"
#include "node_kind.h"
#include "scene_internal.h"

static void unlink_node(struct sg_scene *scene, uint32_t index)
{
	struct sg_node_links *l = &scene->links[index];
	if (!scene->parent[index])
		return;
	struct sg_child_links *parent = sg_scene_children(scene, scene->parent[index]);
	if (l->prev_sibling)
		scene->links[l->prev_sibling].next_sibling = l->next_sibling;
	else
		parent->first = l->next_sibling;
	if (l->next_sibling)
		scene->links[l->next_sibling].prev_sibling = l->prev_sibling;
	else
		parent->last = l->prev_sibling;
	parent->count--;
	scene->parent[index] = l->prev_sibling = l->next_sibling = 0;
	sg_scene_structure_changed(scene);
	sg_scene_journal(scene, index);
}

/* Ancestors looked at before giving up on the preorder layout. */
#define PREORDER_WALK 64

/* Whether linking index under parent before `before` keeps the pool in
 * preorder: index is the newest slot (above every other), childless, and
 * goes last under an attached parent whose subtree ends the tree (neither it
 * nor an ancestor has a next sibling). Detaching never breaks it: what is
 * left of a preorder is one, and the slots left behind are skipped or
 * harmless. Linking under a detached subtree does: the new node would sit
 * after attached ones with a parent before them, which ends a subtree's scan
 * early (update_range() in src/traverse/world.c). */
static bool keeps_preorder(const struct sg_scene *scene, uint32_t parent, uint32_t before,
                           uint32_t index)
{
	if (before || index != scene->node_pool.used - 1 || sg_scene_first_child(scene, index))
		return false;
	uint32_t a = parent;
	for (int steps = 0; a && a != SG_ROOT_INDEX && steps < PREORDER_WALK; steps++) {
		if (scene->links[a].next_sibling)
			return false;
		a = scene->parent[a];
	}
	return a == SG_ROOT_INDEX;
}

/* Links index as a child of parent, before `before` (0: at the end). */
static void link_node(struct sg_scene *scene, uint32_t parent, uint32_t before, uint32_t index)
{
	if (scene->preorder && !keeps_preorder(scene, parent, before, index))
		scene->preorder = false;
	struct sg_child_links *p = sg_scene_children(scene, parent);
	struct sg_node_links *l = &scene->links[index];
	scene->parent[index] = parent;
	l->next_sibling = before;
	l->prev_sibling = before ? scene->links[before].prev_sibling : p->last;
	if (l->prev_sibling)
		scene->links[l->prev_sibling].next_sibling = index;
	else
		p->first = index;
	if (before)
		scene->links[before].prev_sibling = index;
	else
		p->last = index;
	p->count++;
	sg_scene_structure_changed(scene);
	sg_scene_journal(scene, index);
}

/* The checks shared by every attach: both handles live, parent can hold
 * children, and attaching cannot make a cycle. */
static sg_result check_attach(struct sg_scene *scene, sg_node parent, sg_node child, bool reparent)
{
	sg_result result;
	if ((result = sg_scene_check_node(scene, parent, "parent")) ||
	    (result = sg_scene_check_node(scene, child, "child")))
		return result;
	const struct sg_node_kind_info *kind = sg_node_kind_info(scene->kind[parent.index]);
	if (!kind->parent)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "%s %s cannot have children", kind->name,
		               sg_scene_node_label(scene, parent.index));
	if (child.index == SG_ROOT_INDEX)
		return sg_fail(SG_ERR_BUSY, "the root node cannot be a child");
	if (!reparent && scene->parent[child.index])
		return sg_fail(SG_ERR_BUSY, "node %s already has a parent (use sg_node_reparent)",
		               sg_scene_node_label(scene, child.index));
	/* A childless node can only be its own ancestor: skip the walk up, which
	 * would make building a deep chain quadratic. */
	bool leaf = sg_scene_first_child(scene, child.index) == 0;
	for (uint32_t a = parent.index; a; a = leaf ? 0 : scene->parent[a])
		if (a == child.index)
			return sg_fail(SG_ERR_CYCLE, "node %s cannot be added under its own descendant",
			               sg_scene_node_label(scene, child.index));
	return sg_scene_check_view_lights(scene, parent.index, child.index);
}

sg_result sg_node_add_child(struct sg_scene *scene, sg_node parent, sg_node child)
{
	sg_result result = check_attach(scene, parent, child, false);
	if (result)
		return result;
	link_node(scene, parent.index, 0, child.index);
	return SG_OK;
}

static _Thread_local uint64_t sibling_steps;

uint64_t sg_scene_sibling_steps(void)
{
	return sibling_steps;
}

/* Child n of parent (0 past the last), walking from the nearer end: the ends
 * (prepend, append) cost no step. */
static uint32_t nth_child(const struct sg_scene *scene, uint32_t parent, size_t n)
{
	const struct sg_child_links *p = sg_scene_child_links(scene, parent);
	if (n >= p->count)
		return 0;
	uint32_t c;
	if (n <= (p->count - 1) / 2) {
		for (c = p->first; n; n--, sibling_steps++)
			c = scene->links[c].next_sibling;
	} else {
		for (c = p->last, n = p->count - 1 - n; n; n--, sibling_steps++)
			c = scene->links[c].prev_sibling;
	}
	return c;
}

sg_result sg_node_insert_child(struct sg_scene *scene, sg_node parent, size_t index, sg_node child)
{
	sg_result result = check_attach(scene, parent, child, false);
	if (result)
		return result;
	size_t count = sg_node_child_count(scene, parent);
	if (index > count)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "index %zu is past the %zu children of %s", index,
		               count, sg_scene_node_label(scene, parent.index));
	link_node(scene, parent.index, nth_child(scene, parent.index, index), child.index);
	return SG_OK;
}

sg_result sg_node_remove(struct sg_scene *scene, sg_node node)
{
	sg_result result = sg_scene_check_node(scene, node, "sg_node_remove");
	if (result)
		return result;
	if (node.index == SG_ROOT_INDEX)
		return sg_fail(SG_ERR_BUSY, "the root node cannot be removed");
	unlink_node(scene, node.index);
	return SG_OK;
}

sg_result sg_node_reparent(struct sg_scene *scene, sg_node node, sg_node new_parent)
{
	sg_result result = check_attach(scene, new_parent, node, true);
	if (result)
		return result;
	unlink_node(scene, node.index);
	link_node(scene, new_parent.index, 0, node.index);
	return SG_OK;
}

sg_result sg_node_destroy(struct sg_scene *scene, sg_node node)
{
	sg_result result = sg_scene_check_node(scene, node, "sg_node_destroy");
	if (result)
		return result;
	if (node.index == SG_ROOT_INDEX)
		return sg_fail(SG_ERR_BUSY, "the root node cannot be destroyed");
	unlink_node(scene, node.index);
	/* Free leaves first: descend to a childless node, free it, continue from its
	 * parent. Each node is entered once and left once, so this is O(n) without a stack. */
	uint32_t n = node.index;
	for (;;) {
		n = sg_scene_leftmost_leaf(scene, n);
		if (n == node.index)
			break;
		uint32_t parent = scene->parent[n];
		unlink_node(scene, n);
		sg_scene_forget_hidden(scene, n);
		sg_scene_free_node(scene, n);
		n = parent;
	}
	sg_scene_forget_hidden(scene, node.index);
	sg_scene_free_node(scene, node.index);
	return SG_OK;
}

sg_node sg_node_get_parent(const struct sg_scene *scene, sg_node node)
{
	if (sg_scene_check_node(scene, node, "sg_node_get_parent"))
		return SG_NODE_NONE;
	return sg_scene_handle(scene, scene->parent[node.index]);
}

sg_node sg_node_first_child(const struct sg_scene *scene, sg_node node)
{
	if (sg_scene_check_node(scene, node, "sg_node_first_child"))
		return SG_NODE_NONE;
	return sg_scene_handle(scene, sg_scene_first_child(scene, node.index));
}

sg_node sg_node_next_sibling(const struct sg_scene *scene, sg_node node)
{
	if (sg_scene_check_node(scene, node, "sg_node_next_sibling"))
		return SG_NODE_NONE;
	return sg_scene_handle(scene, scene->links[node.index].next_sibling);
}

sg_node sg_node_child_at(const struct sg_scene *scene, sg_node node, size_t index)
{
	if (sg_scene_check_node(scene, node, "sg_node_child_at"))
		return SG_NODE_NONE;
	return sg_scene_handle(scene, nth_child(scene, node.index, index));
}

size_t sg_node_child_count(const struct sg_scene *scene, sg_node node)
{
	if (sg_scene_check_node(scene, node, "sg_node_child_count"))
		return 0;
	return sg_scene_child_links(scene, node.index)->count;
}

sg_node sg_node_find(const struct sg_scene *scene, sg_node start, const char *name)
{
	if (sg_scene_check_node(scene, start, "sg_node_find"))
		return SG_NODE_NONE;
	if (!name) {
		sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_node_find: name is NULL");
		return SG_NODE_NONE;
	}
	for (uint32_t n = start.index; n; n = sg_scene_next_preorder(scene, start.index, n))
		if (scene->flags[n] & SG_NODE_NAMED) {
			const char *own = sg_scene_name(scene, n);
			if (own && strcmp(own, name) == 0)
				return sg_scene_handle(scene, n);
		}
	sg_fail(SG_ERR_NOT_FOUND, "no node named '%.100s' under %s", name,
	        sg_scene_node_label(scene, start.index));
	return SG_NODE_NONE;
}
