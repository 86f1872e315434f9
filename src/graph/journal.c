/* The scene's journal of edited nodes: what lets a renderer find what changed
 * since its last frame in time proportional to the edits, not to the scene.
 * Renderers are not known to the scene (any renderer may draw any scene), so
 * each keeps its own read position; entries are never removed, only
 * overwritten once the ring is full, which a reader that far behind notices. */
#include "../base/alloc.h"
#include "scene_internal.h"

/* Never smaller than this, and never larger than an eighth of the nodes: a
 * reader that finds more edits than that since its last frame repaints
 * everything anyway (src/traverse/damage.c), so it loses nothing when they
 * overwrite each other. */
#define MIN_CAPACITY 1024u

static uint32_t ceil_pow2(uint32_t n)
{
	uint32_t p = MIN_CAPACITY;
	while (p < n && p < (1u << 31))
		p <<= 1;
	return p;
}

/* Doubles the ring, keeping its last capacity entries at their new places.
 * False (the ring stays) when memory runs out: old entries are then
 * overwritten, which costs readers a full repaint, never a wrong picture. */
static bool grow(struct sg_scene_journal *j)
{
	uint32_t capacity = j->capacity ? j->capacity * 2 : MIN_CAPACITY;
	uint32_t *nodes = sg_realloc_array(NULL, capacity, sizeof(*nodes));
	if (!nodes)
		return false;
	uint64_t first = sg_scene_journal_first(j);
	for (uint64_t s = first; s < j->head; s++)
		nodes[s & (capacity - 1)] = j->nodes[s & (j->capacity - 1)];
	sg_free(j->nodes);
	j->nodes = nodes;
	j->capacity = capacity;
	j->kept = first; /* the new ring's other slots hold nothing yet */
	return true;
}

bool sg_scene_journal_init(struct sg_scene *scene)
{
	return grow(&scene->journal);
}

void sg_scene_journal(struct sg_scene *scene, uint32_t index)
{
	if (scene->flags[index] & SG_NODE_JOURNALED)
		return;
	struct sg_scene_journal *j = &scene->journal;
	/* This epoch alone fills the ring (or there is none yet): grow it. */
	if (j->head - j->epoch >= j->capacity &&
	    j->capacity < ceil_pow2(scene->node_pool.used / SG_JOURNAL_SHARE))
		grow(j);
	if (!j->capacity) { /* none: readers see head move past them, and repaint all */
		j->head++;
		return;
	}
	if (j->capacity) {
		uint32_t *slot = &j->nodes[j->head & (j->capacity - 1)];
		/* Overwriting an entry of this epoch: its node may be listed again. */
		if (j->head >= j->capacity && j->head - j->capacity >= j->epoch &&
		    j->head - j->capacity >= j->kept)
			scene->flags[*slot] &= (uint8_t)~SG_NODE_JOURNALED;
		*slot = index;
		scene->flags[index] |= SG_NODE_JOURNALED;
		scene->journal.inner += scene->kind[index] != SG_NODE_MODEL;
	}
	j->head++;
}

void sg_scene_journal_end_epoch(struct sg_scene *scene)
{
	struct sg_scene_journal *j = &scene->journal;
	uint64_t first = sg_scene_journal_first(j);
	if (first < j->epoch)
		first = j->epoch;
	for (uint64_t s = first; s < j->head; s++) {
		uint32_t n = j->nodes[s & (j->capacity - 1)];
		if (n < scene->node_pool.used)
			scene->flags[n] &= (uint8_t)~SG_NODE_JOURNALED;
	}
	j->epoch = j->head;
	j->inner = 0;
}
