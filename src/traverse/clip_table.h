/* Internal: the clip table a traversal keeps for its frame (clips.h makes
 * and reads it): apart from clips.h so that traverse.h, which holds one in
 * each struct sg_traversal, need not include what clips.h declares. */
#ifndef SG_TRAVERSE_CLIP_TABLE_H
#define SG_TRAVERSE_CLIP_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sg_draw_list;

/* A clip's rectangle as the output sees it: output pixel (px, py) (window
 * coordinates: row 0 is the frame's row 0; a pixel's centre is at + 0.5)
 * goes to (u, v, w) = to_local * (px, py, 1), row-major, and lies inside
 * when w > 0 and (u / w, v / w), taken from the rectangle's centre, is
 * inside the rounded rectangle of half extents half and corner radius. A
 * clip seen edge-on has to_local all 0: nothing is inside. */
struct sg_clip_shape {
	float to_local[9];
	float half[2], radius;
};

/* One clip of a frame: the draws of the source list below it, positions
 * [first, last], and the nearest clip above it (an index into the table,
 * -1 for none). Entries are in preorder: a clip after its parent, and
 * sorted by first. */
struct sg_clip_entry {
	uint32_t node;
	uint32_t first, last;
	int32_t parent;
	struct sg_clip_shape shape;
};

struct sg_clips {
	struct sg_clip_entry *entries;
	size_t count, capacity;
	/* what the entries' ranges were found for */
	uint32_t scene;
	uint64_t structure, source_serial;
	const struct sg_draw_list *source;
	bool valid;
};

#endif
