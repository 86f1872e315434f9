/* Hidden subtrees without a walk. In depth-first order a subtree's models are
 * one contiguous range of the cached list of all models, so the drawn list is
 * that list with the hidden nodes' ranges cut out: a change of the visible set
 * costs a sort of the hidden ranges and a copy of the drawn entries, never a
 * walk of the tree, and frames with no change cost nothing. The copy gets a
 * serial of its own, so that the GL caches keyed on it see the change, and
 * names the list of all as its source (with each entry's position there), so
 * that what the GL layer made for that list (vertices) stays valid. */
#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../graph/scene_internal.h"
#include "visible.h"

static int by_first(const void *a, const void *b)
{
	const struct sg_draw_range *x = a, *y = b;
	return x->first < y->first ? -1 : x->first > y->first;
}

/* The ranges of the attached hidden nodes, sorted, nested ones merged into
 * their ancestors' (two subtrees are nested or disjoint). */
static sg_result hidden_ranges(struct sg_traversal *traversal, const struct sg_scene *scene,
                               size_t *count)
{
	if (traversal->hidden_capacity < scene->hidden_count) {
		void *p = sg_realloc_array(traversal->hidden, scene->hidden_count,
		                           sizeof(*traversal->hidden));
		if (!p)
			return sg_fail(SG_ERR_NO_MEMORY, "out of memory for %u hidden ranges",
			               scene->hidden_count);
		traversal->hidden = p;
		traversal->hidden_capacity = scene->hidden_count;
	}
	struct sg_draw_range *hidden = traversal->hidden;
	size_t found = 0;
	for (uint32_t i = 0; i < scene->hidden_count; i++) {
		uint32_t n = scene->hidden[i];
		traversal->visited++;
		/* nodes made after the last build are detached: an empty range */
		if (n < traversal->ranges_count && traversal->ranges[n].first < traversal->ranges[n].end)
			hidden[found++] = traversal->ranges[n];
	}
	if (found > 1)
		qsort(hidden, found, sizeof(*hidden), by_first);
	size_t merged = 0;
	for (size_t i = 0; i < found; i++) {
		if (merged && hidden[i].first < hidden[merged - 1].end) {
			if (hidden[i].end > hidden[merged - 1].end)
				hidden[merged - 1].end = hidden[i].end;
		} else {
			hidden[merged++] = hidden[i];
		}
	}
	*count = merged;
	return SG_OK;
}

static bool in_ranges(const struct sg_draw_range *ranges, size_t count, uint32_t position)
{
	size_t low = 0, high = count; /* the first range starting after position */
	while (low < high) {
		size_t middle = low + (high - low) / 2;
		if (ranges[middle].first <= position)
			low = middle + 1;
		else
			high = middle;
	}
	return low > 0 && position < ranges[low - 1].end;
}

static sg_result cut(struct sg_traversal *traversal, const struct sg_draw_range *hidden,
                     size_t count)
{
	const struct sg_draw_list *all = &traversal->all;
	struct sg_draw_list *shown = &traversal->shown;
	size_t removed = 0;
	for (size_t i = 0; i < count; i++)
		removed += hidden[i].end - hidden[i].first;
	size_t needed = all->count - removed;
	if (shown->capacity < needed) {
		struct sg_draw *draws = sg_realloc_array(shown->draws, needed, sizeof(*draws));
		if (!draws)
			return sg_fail(SG_ERR_NO_MEMORY, "out of memory for a draw list of %zu", needed);
		shown->draws = draws;
		shown->capacity = needed;
	}
	/* Caches above may keep what they made for all when most of it is drawn
	 * and none of it is stale (they read every entry of all). */
	bool keep_source = traversal->stale_count == 0 && needed * 2 >= all->count;
	if (keep_source && !sg_grow_array((void **)&shown->origin, &shown->origin_capacity, needed,
	                                  sizeof(*shown->origin)))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory for a draw list of %zu", needed);
	shown->count = 0;
	size_t from = 0;
	for (size_t i = 0; i <= count; i++) {
		size_t to = i < count ? hidden[i].first : all->count;
		if (to > from) { /* (memcpy may not be given NULL, even for no bytes) */
			memcpy(shown->draws + shown->count, all->draws + from,
			       (to - from) * sizeof(*all->draws));
			for (size_t j = from; keep_source && j < to; j++)
				shown->origin[shown->count + j - from] = (uint32_t)j;
			shown->count += to - from;
		}
		if (i < count)
			from = hidden[i].end;
	}
	shown->source = keep_source ? all : NULL;
	shown->serial = ++traversal->next_serial;
	return SG_OK;
}

sg_result sg_traverse_shown(struct sg_traversal *traversal, const struct sg_scene *scene)
{
	traversal->list = &traversal->all;
	if (scene->hidden_count == 0 && traversal->stale_count == 0)
		return SG_OK;
	if (traversal->shown_valid && traversal->shown_scene == scene->id &&
	    traversal->shown_all_serial == traversal->all.serial &&
	    traversal->shown_visibility == scene->visibility_version) {
		if (!traversal->shown_is_all)
			traversal->list = &traversal->shown;
		return SG_OK;
	}
	traversal->shown_valid = false;
	size_t count = 0;
	sg_result result = hidden_ranges(traversal, scene, &count);
	if (result)
		return result;
	/* in list order, so the first drawn stale model is named, as without hiding */
	for (size_t i = 0; i < traversal->stale_count; i++)
		if (!in_ranges(traversal->hidden, count, traversal->stale[i]) &&
		    (result = sg_draw_check_model(scene, traversal->all.draws[traversal->stale[i]].node)))
			return result;
	traversal->shown_is_all = count == 0;
	if (count) {
		if ((result = cut(traversal, traversal->hidden, count)))
			return result;
		traversal->list = &traversal->shown;
	}
	traversal->shown_valid = true;
	traversal->shown_scene = scene->id;
	traversal->shown_all_serial = traversal->all.serial;
	traversal->shown_visibility = scene->visibility_version;
	return SG_OK;
}
