/* Damage tracking: the journal of edited nodes (src/graph/journal.c) against
 * the pixels each model covered last frame. For every journaled node, each
 * model of its subtree damages the box it covered and the box it covers now;
 * that is all a picture can change by, since a model's pixels depend only on
 * its own matrix, mesh, texture and colour and on the models it overlaps, and
 * a change of draw order among overlapping models moves at least one of them
 * in the tree (journaled). The view, clear colour and culling, which every
 * pixel depends on, repaint everything. */
#include "damage.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../graph/scene_internal.h"
#include "clips.h"

static const struct sg_pixel_box empty_box = {0, 0, 0, 0};

/* Journal entries looked ahead to prefetch what they will load. */
#define PREFETCH_AHEAD 8

void sg_damage_finish(struct sg_damage *damage)
{
	sg_free(damage->boxes);
	sg_free(damage->texture_serials);
	sg_free(damage->cut.draws);
	sg_free(damage->cut.origin);
	sg_free(damage->marked);
	sg_free(damage->marks);
	*damage = (struct sg_damage){0};
}

void sg_damage_forget(struct sg_damage *damage)
{
	damage->valid = false;
	damage->recorded = false;
}

static bool box_is_empty(struct sg_pixel_box b)
{
	return b.x0 >= b.x1 || b.y0 >= b.y1;
}

static struct sg_rect rect_of(struct sg_pixel_box b)
{
	return (struct sg_rect){b.x0, b.y0, b.x1 - b.x0, b.y1 - b.y0};
}

static int16_t clamp_side(float v, int side)
{
	if (!(v > 0.0f)) /* NaN too */
		return 0;
	return v < (float)side ? (int16_t)v : (int16_t)side;
}

static struct sg_pixel_box pixel_box(float x0, float y0, float x1, float y1,
                                     const struct sg_damage *d)
{
	return (struct sg_pixel_box){clamp_side(floorf(x0) - 1.0f, d->width),
	                             clamp_side(floorf(y0) - 1.0f, d->height),
	                             clamp_side(ceilf(x1) + 1.0f, d->width),
	                             clamp_side(ceilf(y1) + 1.0f, d->height)};
}

/* The output pixels model n can touch: its mesh's box through the world and
 * view matrices, widened by a pixel for the rasteriser's rounding. A corner
 * behind the eye (w <= 0) makes it the whole output. */
static struct sg_pixel_box model_box(const struct sg_scene *scene, uint32_t n,
                                     const struct sg_damage *d)
{
	const struct sg_mesh_data *mesh = sg_scene_model_mesh(scene, n);
	if (!mesh || !mesh->vertex_count || mesh->bounds[0][0] > mesh->bounds[1][0])
		return empty_box;
	mat4 m;
	sg_world_model_matrix(d->world, scene, n, (vec4 *)d->view_projection, m);
	const float sx = 0.5f * (float)d->width, sy = 0.5f * (float)d->height;
	if (m[0][3] == 0.0f && m[1][3] == 0.0f && m[2][3] == 0.0f && m[3][3] == 1.0f) {
		/* Affine (any orthographic camera): the box's centre and half
		 * extents through the matrix, a sixth of the arithmetic of its
		 * eight corners (Arvo's method). */
		float centre[2], extent[2];
		for (int r = 0; r < 2; r++) {
			centre[r] = m[3][r], extent[r] = 0.0f;
			for (int k = 0; k < 3; k++) {
				float c = 0.5f * (mesh->bounds[0][k] + mesh->bounds[1][k]);
				float e = 0.5f * (mesh->bounds[1][k] - mesh->bounds[0][k]);
				centre[r] += m[k][r] * c;
				extent[r] += fabsf(m[k][r]) * e;
			}
		}
		return pixel_box((centre[0] - extent[0] + 1.0f) * sx, (centre[1] - extent[1] + 1.0f) * sy,
		                 (centre[0] + extent[0] + 1.0f) * sx, (centre[1] + extent[1] + 1.0f) * sy,
		                 d);
	}
	float x0 = FLT_MAX, y0 = FLT_MAX, x1 = -FLT_MAX, y1 = -FLT_MAX;
	for (int corner = 0; corner < 8; corner++) {
		vec4 p = {mesh->bounds[corner & 1][0], mesh->bounds[(corner >> 1) & 1][1],
		          mesh->bounds[corner >> 2][2], 1.0f};
		vec4 c;
		glm_mat4_mulv(m, p, c);
		if (!(c[3] > 1e-6f))
			return (struct sg_pixel_box){0, 0, (int16_t)d->width, (int16_t)d->height};
		float x = (c[0] / c[3] + 1.0f) * sx, y = (c[1] / c[3] + 1.0f) * sy;
		x0 = fminf(x0, x), x1 = fmaxf(x1, x);
		y0 = fminf(y0, y), y1 = fmaxf(y1, y);
	}
	return pixel_box(x0, y0, x1, y1, d);
}

/* The output pixels clip node n can leave shown, in this computation's view
 * (vp, width x height); the models under one clip ask one after another. */
static const int *clip_bounds(struct sg_damage *d, const struct sg_scene *scene, uint32_t n,
                              const float (*vp)[4], int width, int height)
{
	for (int i = 0; i < 4; i++)
		if (d->clips[i].node == n)
			return d->clips[i].bounds;
	struct sg_damage_clip *c = &d->clips[d->next_clip];
	d->next_clip = (d->next_clip + 1) % 4;
	c->node = n;
	sg_clip_pixel_bounds(scene, d->world, n, (vec4 *)vp, width, height, c->bounds);
	return c->bounds;
}

/* model_box, cut to the boxes of the clips above model n: what it can show. */
static struct sg_pixel_box shown_box(const struct sg_scene *scene, uint32_t n,
                                     struct sg_damage *d)
{
	struct sg_pixel_box b = model_box(scene, n, d);
	for (uint32_t a = sg_scene_clip_above(scene, n); a && !box_is_empty(b);
	     a = sg_scene_clip_above(scene, a)) {
		const int *c = clip_bounds(d, scene, a, (const float(*)[4])d->view_projection,
		                           d->width, d->height);
		b.x0 = b.x0 > c[0] ? b.x0 : (int16_t)c[0];
		b.y0 = b.y0 > c[1] ? b.y0 : (int16_t)c[1];
		b.x1 = b.x1 < c[2] ? b.x1 : (int16_t)c[2];
		b.y1 = b.y1 < c[3] ? b.y1 : (int16_t)c[3];
	}
	return box_is_empty(b) ? empty_box : b;
}

static bool touch(struct sg_rect a, struct sg_rect b)
{
	return a.x <= b.x + b.width && b.x <= a.x + a.width && a.y <= b.y + b.height &&
	       b.y <= a.y + a.height;
}

static struct sg_rect bounding(struct sg_rect a, struct sg_rect b)
{
	int x0 = a.x < b.x ? a.x : b.x, y0 = a.y < b.y ? a.y : b.y;
	int x1 = a.x + a.width > b.x + b.width ? a.x + a.width : b.x + b.width;
	int y1 = a.y + a.height > b.y + b.height ? a.y + a.height : b.y + b.height;
	return (struct sg_rect){x0, y0, x1 - x0, y1 - y0};
}

static int64_t area(struct sg_rect r)
{
	return (int64_t)r.width * r.height;
}

static void remove_rect(struct sg_damage_region *region, int i)
{
	region->rects[i] = region->rects[--region->count];
}

/* The merge rule: a box overlapping or touching a rectangle of the region
 * joins it (their bounding rectangle, merged again with whatever that
 * touches); with no room left, the box joins the rectangle whose bounding
 * rectangle with it is smallest. The rectangles stay disjoint. */
void sg_damage_add(struct sg_damage_region *region, struct sg_rect box)
{
	if (region->full || box.width <= 0 || box.height <= 0)
		return;
	for (;;) {
		int join = -1;
		for (int i = 0; i < region->count && join < 0; i++)
			if (touch(region->rects[i], box))
				join = i;
		if (join < 0 && region->count < SG_DAMAGE_MAX_RECTS) {
			region->rects[region->count++] = box;
			return;
		}
		if (join < 0) {
			int64_t best = INT64_MAX;
			for (int i = 0; i < region->count; i++) {
				int64_t grown = area(bounding(region->rects[i], box));
				if (grown < best)
					best = grown, join = i;
			}
		}
		box = bounding(region->rects[join], box);
		remove_rect(region, join);
	}
}

static void add_box(struct sg_damage_region *region, struct sg_pixel_box box)
{
	if (!box_is_empty(box))
		sg_damage_add(region, rect_of(box));
}

static sg_result reserve(struct sg_damage *d, const struct sg_scene *scene)
{
	size_t old_nodes = d->box_capacity, old_textures = d->texture_capacity;
	if (!sg_grow_array((void **)&d->boxes, &d->box_capacity, scene->node_pool.used,
	                   sizeof(*d->boxes)) ||
	    !sg_grow_array((void **)&d->texture_serials, &d->texture_capacity,
	                   scene->texture_pool.used ? scene->texture_pool.used : 1,
	                   sizeof(*d->texture_serials)))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory tracking the damage of %u nodes",
		               scene->node_pool.used);
	/* New slots: nodes not drawn yet; textures as they are now (a model that
	 * starts using one is journaled). */
	for (size_t i = old_nodes; i < d->box_capacity; i++)
		d->boxes[i] = empty_box;
	for (size_t i = old_textures; i < d->texture_capacity; i++)
		d->texture_serials[i] = i < scene->texture_pool.used ? scene->textures[i].update_serial : 0;
	return SG_OK;
}

/* Every model's box from scratch: those of list, and none for the rest. */
static void rebuild(struct sg_damage *d, const struct sg_scene *scene,
                    const struct sg_draw_list *list)
{
	for (size_t i = 0; i < d->box_capacity; i++)
		d->boxes[i] = empty_box;
	for (size_t i = 0; i < list->count; i++)
		d->boxes[list->draws[i].node] = shown_box(scene, list->draws[i].node, d);
	for (uint32_t t = 0; t < scene->texture_pool.used; t++)
		d->texture_serials[t] = scene->textures[t].update_serial;
}

/* The bits of d->marks. */
enum {
	IN_WINDOW = 1,        /* listed in the journal's entries this computation reads */
	LOOKED_AT = 2,        /* its entry was handled (or counted) already: repeats are skipped */
	UNJOURNALED_PATH = 4, /* neither the node nor an ancestor is IN_WINDOW */
	SHOWN_PATH = 8,       /* attached, and neither the node nor an ancestor is hidden */
};

/* Gives node n a path mark, listed to be cleared. */
static bool mark(struct sg_damage *d, uint32_t n, uint8_t flag)
{
	if (d->marked_count == d->marked_capacity &&
	    !sg_grow_array((void **)&d->marked, &d->marked_capacity, d->marked_count + 1,
	                   sizeof(*d->marked)))
		return false; /* left unmarked: later walks go on past it, no more */
	d->marks[n] |= flag;
	d->marked[d->marked_count++] = n;
	return true;
}

/* Whether n's ancestors let it be drawn: attached to the root, none hidden
 * (the root included, n itself not). Ancestors found so are marked, so that
 * the next walk stops at the first of them. */
static bool shown_below(struct sg_damage *d, const struct sg_scene *scene, uint32_t n)
{
	if (n == SG_ROOT_INDEX)
		return true;
	uint32_t a = scene->parent[n], from = a;
	for (; a && !(d->marks[a] & SHOWN_PATH); a = scene->parent[a]) {
		if (scene->flags[a] & SG_NODE_HIDDEN)
			return false;
		if (a == SG_ROOT_INDEX)
			break;
	}
	if (!a)
		return false; /* detached */
	for (uint32_t b = from; b != a && mark(d, b, SHOWN_PATH);)
		b = scene->parent[b];
	if (a == SG_ROOT_INDEX && !(d->marks[a] & SHOWN_PATH))
		mark(d, a, SHOWN_PATH);
	return true;
}

/* The draw list's subtree ranges, where they describe the scene as it is. */
static const struct sg_draw_range *current_ranges(const struct sg_traversal *t,
                                                  const struct sg_scene *scene)
{
	bool current = t->all_valid && t->all_scene == scene->id &&
	               t->all_structure == scene->structure_version;
	return current ? t->ranges : NULL;
}

static void redo_subtree(struct sg_damage *d, const struct sg_scene *scene,
                         const struct sg_traversal *t, uint32_t top,
                         struct sg_damage_region *region)
{
	if (scene->kind[top] == SG_NODE_INVALID) { /* freed: what it drew goes */
		add_box(region, d->boxes[top]);
		d->boxes[top] = empty_box;
		return;
	}
	/* Drawn only when attached with no hidden ancestor. With nothing hidden,
	 * attached is having models in the draw list: one load, where the walk
	 * up would take one for each ancestor. */
	const struct sg_draw_range *ranges = current_ranges(t, scene);
	bool drawn = !scene->hidden_count && ranges && top < t->ranges_count
	                 ? ranges[top].end > ranges[top].first
	                 : shown_below(d, scene, top);
	uint32_t hidden_end = 0; /* within a hidden subtree until this node */
	bool hidden = false;
	for (uint32_t n = top; n; n = sg_scene_next_preorder(scene, top, n)) {
		if (hidden && n == hidden_end)
			hidden = false;
		if (!hidden && (scene->flags[n] & SG_NODE_HIDDEN)) {
			hidden = true;
			hidden_end = sg_scene_skip_within(scene, top, n);
		}
		if (scene->kind[n] != SG_NODE_MODEL) {
			/* A box kept for a node that is no model: the model drawn in
			 * this slot was destroyed and the slot taken by another kind
			 * since, in the same journal entry's index. */
			if (!box_is_empty(d->boxes[n])) {
				add_box(region, d->boxes[n]);
				d->boxes[n] = empty_box;
			}
			continue;
		}
		struct sg_pixel_box now = drawn && !hidden ? shown_box(scene, n, d) : empty_box;
		struct sg_pixel_box was = d->boxes[n];
		if (!memcmp(&now, &was, sizeof(now)) && box_is_empty(now))
			continue;
		add_box(region, was);
		add_box(region, now);
		d->boxes[n] = now;
	}
}

/* Models drawing a texture updated since the last frame damage their boxes. */
static void redo_textures(struct sg_damage *d, const struct sg_scene *scene,
                          const struct sg_draw_list *list, struct sg_damage_region *region)
{
	uint32_t textures = scene->texture_pool.used;
	for (size_t i = 0; i < list->count && !region->full; i++) {
		uint32_t t = list->draws[i].texture;
		if (t != SG_DRAW_NO_TEXTURE && t < textures &&
		    scene->textures[t].update_serial != d->texture_serials[t])
			add_box(region, d->boxes[list->draws[i].node]);
	}
	for (uint32_t t = 0; t < textures; t++)
		d->texture_serials[t] = scene->textures[t].update_serial;
}

/* Whether node n is a clip or lies under one that leaves less than half of
 * the output shown: what its subtree changes is bounded by that clip, not by
 * the count of models it moves. */
static bool small_clip_above(struct sg_damage *d, const struct sg_scene *scene, uint32_t n,
                             const struct sg_damage_view *view)
{
	uint32_t a = scene->kind[n] == SG_NODE_CLIP ? n : sg_scene_clip_above(scene, n);
	for (; a; a = sg_scene_clip_above(scene, a)) {
		const int *c = clip_bounds(d, scene, a, view->view_projection, view->width,
		                           view->height);
		int64_t area = (int64_t)(c[2] - c[0]) * (c[3] - c[1]);
		if (area * 2 < (int64_t)view->width * view->height)
			return true;
	}
	return false;
}

/* Few models affected by the edits since the last frame. Many (an animation
 * of most of the scene) would cost a full repaint's worth of boxes for a
 * region that covers nearly everything. The models under each edited node
 * are counted from the draw list's subtree ranges where they are current
 * (a node and its ancestor both edited count twice: an overestimate), else
 * each edit counts one. */
static bool calm(struct sg_damage *d, const struct sg_traversal *t, const struct sg_scene *scene,
                 uint64_t read, const struct sg_damage_view *view)
{
	const struct sg_scene_journal *journal = &scene->journal;
	uint64_t limit = scene->node_pool.used / SG_JOURNAL_SHARE;
	if (limit < 64)
		limit = 64;
	const struct sg_draw_range *ranges = current_ranges(t, scene);
	if (ranges && t->list && t->list->count / SG_JOURNAL_SHARE < limit)
		limit = t->list->count / SG_JOURNAL_SHARE > 64 ? t->list->count / SG_JOURNAL_SHARE : 64;
	uint64_t models = 0, s = read;
	/* Each node once, however often it was edited (the scene lists every
	 * edit: it cannot know what its readers have read). */
	for (; s < journal->head && models <= limit; s++) {
		if (ranges && s + PREFETCH_AHEAD < journal->head) {
			uint32_t m = sg_journal_node(sg_scene_journal_at(journal, s + PREFETCH_AHEAD));
			if (m < t->ranges_count)
				__builtin_prefetch(&ranges[m]);
		}
		uint32_t n = sg_journal_node(sg_scene_journal_at(journal, s));
		if (n >= scene->node_pool.used || (d->marks[n] & LOOKED_AT))
			continue;
		d->marks[n] |= LOOKED_AT;
		bool known = ranges && n < t->ranges_count && scene->kind[n] != SG_NODE_INVALID;
		/* A subtree in a small clip changes no more than the clip's box,
		 * however many models it moves (a scrolling list): its boxes are
		 * worth making. */
		models += known && !small_clip_above(d, scene, n, view) ? ranges[n].end - ranges[n].first
		                                                         : 1;
	}
	for (uint64_t e = read; e < s; e++) {
		uint32_t n = sg_journal_node(sg_scene_journal_at(journal, e));
		if (n < scene->node_pool.used)
			d->marks[n] = 0;
	}
	return models <= limit;
}

/* Marks the nodes of the entries read IN_WINDOW; true when one of them is no
 * model (else no entry lies under another). */
static bool mark_window(struct sg_damage *d, const struct sg_scene *scene, uint64_t read)
{
	const struct sg_scene_journal *journal = &scene->journal;
	bool nested = false;
	for (uint64_t s = read; s < journal->head; s++) {
		uint32_t n = sg_journal_node(sg_scene_journal_at(journal, s));
		if (n < scene->node_pool.used) {
			d->marks[n] |= IN_WINDOW;
			nested |= scene->kind[n] != SG_NODE_MODEL;
		}
	}
	return nested;
}

/* Journaled with an ancestor that is journaled too: the ancestor's subtree,
 * redone whole, holds it. Ancestors found free of journaled ones are
 * marked, so that the next entry's walk stops at the first of them: entries
 * share most of their ancestors. */
static bool covered(struct sg_damage *d, const struct sg_scene *scene, uint32_t n)
{
	uint32_t a = scene->parent[n], from = a;
	for (; a && !(d->marks[a] & UNJOURNALED_PATH); a = scene->parent[a])
		if (d->marks[a] & IN_WINDOW)
			return true;
	for (uint32_t b = from; b != a && mark(d, b, UNJOURNALED_PATH);)
		b = scene->parent[b];
	return false;
}

/* Clears every mark this computation made. */
static void unmark(struct sg_damage *d, const struct sg_scene *scene, uint64_t read)
{
	for (size_t i = 0; i < d->marked_count; i++)
		d->marks[d->marked[i]] = 0;
	d->marked_count = 0;
	const struct sg_scene_journal *journal = &scene->journal;
	for (uint64_t s = read; s < journal->head; s++) {
		uint32_t n = sg_journal_node(sg_scene_journal_at(journal, s));
		if (n < scene->node_pool.used)
			d->marks[n] = 0;
	}
}

/* Room for a mark of each node slot. */
static bool reserve_marks(struct sg_damage *d, const struct sg_scene *scene)
{
	size_t old = d->marks_capacity;
	if (!sg_grow_array((void **)&d->marks, &d->marks_capacity, scene->node_pool.used + 1u,
	                   sizeof(*d->marks)))
		return false;
	memset(d->marks + old, 0, d->marks_capacity - old);
	return true;
}

sg_result sg_damage_update(struct sg_damage *d, const struct sg_scene *scene,
                           const struct sg_traversal *traversal,
                           const struct sg_damage_view *view)
{
	d->world = &traversal->world;
	const struct sg_draw_list *list = traversal->list;
	struct sg_damage_region *region = &d->history[++d->frame % SG_DAMAGE_HISTORY];
	*region = (struct sg_damage_region){.full = true};
	memset(d->clips, 0, sizeof(d->clips)); /* the matrices may have moved since */
	const struct sg_scene_journal *journal = &scene->journal;
	bool same_parameters = d->recorded && d->scene == scene->id && d->width == view->width &&
	                       d->height == view->height && d->culling == view->culling &&
	                       !memcmp(d->view_projection, view->view_projection, sizeof(mat4)) &&
	                       !memcmp(d->clear_color, view->clear_color, sizeof(d->clear_color));
	bool same_view = d->valid && same_parameters;
	uint64_t read = d->journal_read;
	/* Nothing edited and the same view: the picture is the last one, though
	 * the boxes may not be made yet (after a burst of edits or a moving view),
	 * so this frame's damage is none, whatever the frames before it. */
	bool unchanged = same_parameters && read == journal->head &&
	                 d->texture_updates == scene->texture_updates;
	/* Another scene, or more edits than the ring holds (entries were lost). */
	bool other_scene = d->scene != scene->id;
	bool quiet = !other_scene && read >= sg_scene_journal_first(journal) &&
	             reserve_marks(d, scene) && calm(d, traversal, scene, read, view);
	bool make_boxes = quiet || other_scene;
	/* (another scene is not a moving view: its boxes are made at once) */
	bool view_changed = d->valid && d->scene == scene->id && !same_view;
	memcpy(d->view_projection, view->view_projection, sizeof(mat4));
	memcpy(d->clear_color, view->clear_color, sizeof(d->clear_color));
	d->width = view->width, d->height = view->height;
	d->culling = view->culling;
	d->scene = scene->id;
	d->journal_read = journal->head;
	d->recorded = true;
	if (!same_view || !quiet) {
		region->full = !unchanged;
		/* A view moving frame after frame, or an animation of most of the
		 * scene, would pay for boxes it never uses: they are made once
		 * things calm down (one more whole frame). */
		d->valid = make_boxes && !(view_changed && d->view_changed);
		d->view_changed = view_changed;
		d->texture_updates = scene->texture_updates;
		sg_result result = d->valid ? reserve(d, scene) : SG_OK;
		if (result)
			d->valid = false;
		else if (d->valid)
			rebuild(d, scene, list);
		return result;
	}
	sg_result result = reserve(d, scene);
	if (result) {
		d->valid = false;
		return result;
	}
	d->view_changed = false;
	region->full = false;
	/* With no group or transform listed, no entry is under another. */
	bool nested = mark_window(d, scene, read);
	const struct sg_draw_range *ranges = current_ranges(traversal, scene);
	for (uint64_t s = read; s < journal->head; s++) {
		/* Entries are scattered over the scene: the loads of one a few
		 * entries ahead overlap this one's, where the walk would wait on
		 * each in turn. */
		if (s + PREFETCH_AHEAD < journal->head) {
			uint32_t m = sg_journal_node(sg_scene_journal_at(journal, s + PREFETCH_AHEAD));
			if (m < scene->node_pool.used) {
				__builtin_prefetch(&d->boxes[m]);
				__builtin_prefetch(&scene->payload[m]);
				__builtin_prefetch(&scene->parent[m]);
				if (ranges && m < traversal->ranges_count)
					__builtin_prefetch(&ranges[m]);
			}
		}
		uint32_t n = sg_journal_node(sg_scene_journal_at(journal, s));
		if (n >= scene->node_pool.used || (d->marks[n] & LOOKED_AT))
			continue;
		d->marks[n] |= LOOKED_AT;
		if (scene->kind[n] == SG_NODE_INVALID || !nested || !covered(d, scene, n))
			redo_subtree(d, scene, traversal, n, region);
	}
	unmark(d, scene, read);
	if (d->texture_updates != scene->texture_updates)
		redo_textures(d, scene, list, region);
	d->texture_updates = scene->texture_updates;
	return SG_OK;
}

void sg_damage_add_current(struct sg_damage *d, struct sg_rect rect)
{
	struct sg_damage_region *region = &d->history[d->frame % SG_DAMAGE_HISTORY];
	if (rect.width > 0 && rect.height > 0 && !region->full)
		sg_damage_add(region, rect);
}

const struct sg_damage_region *sg_damage_current(const struct sg_damage *d)
{
	return &d->history[d->frame % SG_DAMAGE_HISTORY];
}

void sg_damage_since(const struct sg_damage *d, uint64_t drawn, struct sg_damage_region *region)
{
	*region = (struct sg_damage_region){.full = true};
	if (!drawn || drawn > d->frame || d->frame - drawn > SG_DAMAGE_HISTORY)
		return;
	region->full = false;
	for (uint64_t f = drawn + 1; f <= d->frame && !region->full; f++) {
		const struct sg_damage_region *frame = &d->history[f % SG_DAMAGE_HISTORY];
		region->full = frame->full;
		for (int i = 0; i < frame->count; i++)
			sg_damage_add(region, frame->rects[i]);
	}
	if (region->full)
		region->count = 0;
}

static bool box_touches(struct sg_pixel_box b, const struct sg_damage_region *region)
{
	if (box_is_empty(b))
		return false;
	for (int i = 0; i < region->count; i++) {
		const struct sg_rect *r = &region->rects[i];
		if (b.x0 < r->x + r->width && r->x < b.x1 && b.y0 < r->y + r->height && r->y < b.y1)
			return true;
	}
	return false;
}

sg_result sg_damage_cut(struct sg_damage *d, const struct sg_draw_list *list,
                        const struct sg_damage_region *region, uint64_t *next_serial,
                        const struct sg_draw_list **out)
{
	struct sg_draw_list *cut = &d->cut;
	const struct sg_draw_list *source = sg_draw_source(list);
	if (!sg_grow_array((void **)&cut->draws, &cut->capacity, list->count ? list->count : 1,
	                   sizeof(*cut->draws)) ||
	    !sg_grow_array((void **)&cut->origin, &cut->origin_capacity,
	                   list->count ? list->count : 1, sizeof(*cut->origin))) {
		cut->serial = 0;
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory listing the damaged draws of %zu",
		               list->count);
	}
	/* Compared while written: the same entries from the same source keep the
	 * serial, and with it the caches above. */
	bool same = cut->serial && cut->source == source && d->cut_source_serial == source->serial;
	size_t count = 0;
	for (size_t i = 0; i < list->count; i++) {
		if (!box_touches(d->boxes[list->draws[i].node], region))
			continue;
		uint32_t origin = (uint32_t)sg_draw_origin(list, i);
		same &= count < cut->count && cut->origin[count] == origin;
		cut->draws[count] = list->draws[i];
		cut->origin[count++] = origin;
	}
	same &= count == cut->count;
	cut->count = count;
	cut->source = source;
	cut->transient = true;
	d->cut_source_serial = source->serial;
	if (!same)
		cut->serial = ++*next_serial;
	*out = cut;
	return SG_OK;
}
