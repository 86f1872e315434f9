/* The scene's journal of edited nodes: what lets a renderer find what changed
 * since its last frame in time proportional to the edits, not to the scene.
 * Renderers are not known to the scene (any renderer may draw any scene), so
 * each keeps its own read position, and reads without writing (renderers on
 * several threads may read at once); entries are never removed, only
 * overwritten once the ring is full, which a reader that far behind notices.
 * Without knowing the readers, an edit cannot tell whether its node's last
 * entry was read already: every edit appends, and readers skip repeats. */
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

void sg_scene_journal_entry(struct sg_scene *scene, uint32_t index, bool matrix)
{
	struct sg_scene_journal *j = &scene->journal;
	/* Full (or there is none yet): grow it, up to an eighth of the nodes. */
	if (j->head - j->kept >= j->capacity &&
	    j->capacity < ceil_pow2(scene->node_pool.used / SG_JOURNAL_SHARE))
		grow(j);
	/* With no ring, readers see head move past them, and repaint all. */
	if (j->capacity)
		j->nodes[j->head & (j->capacity - 1)] = index | (matrix ? SG_JOURNAL_MATRIX : 0);
	j->head++;
}
