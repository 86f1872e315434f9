/* Internal: submits a draw list with GLES 3. Knows nothing of targets: the
 * caller makes a context current and binds the framebuffer to draw into. */
#ifndef SG_GL_DRAWER_H
#define SG_GL_DRAWER_H

#include <GLES3/gl3.h>

#include "../graph/scene_view.h"
#include "../traverse/damage.h"
#include "../traverse/traverse.h"
#include "depth.h"
#include "draw3d.h"
#include "import.h"
#include "material.h"
#include "material_clip.h"
#include "object.h"
#include "stream.h"

/* A batch of streamed opaque draws of one texture (expand_bins.c). */
struct sg_gl_bin {
	uint32_t texture; /* a texture index, SG_DRAW_NO_TEXTURE, or SG_GL_BIN_FREE */
	size_t slot;      /* its entry in bin_of, while it has a texture */
	size_t vertices, indices, index_capacity;
	float *v;
	uint32_t *ix;
};
#define SG_GL_BINS 16
#define SG_GL_BIN_FREE (UINT32_MAX - 1)

/* Where a pass of sg_gl_expand_bin is: the next draw of the list, and once
 * the list is done, the next bin to empty. */
struct sg_gl_bin_cursor {
	size_t next;
	int emptying;
};

/* A run of expanded draws sharing one texture: one draw call. */
struct sg_gl_run {
	uint32_t texture;
	size_t first, count; /* in indices */
	bool blended;        /* in the translucent pass */
};

struct sg_gl_expanded {
	GLuint vertex_array, vertex_buffer, index_buffer;
	GLuint identity_buffer; /* the Matrix attribute's one instance */
	/* The buffers' sizes, and what fills them (stream.c): the vertices of
	 * the source list's draws (sg_draw_source) and the indices, neither
	 * kept on the CPU. (Writing the vertices straight into a mapped GL buffer
	 * lowered no measured peak RSS on llvmpipe, and fresh pages each frame
	 * made it slower.) */
	size_t vertex_bytes, index_bytes;
	struct sg_gl_stream stream;
	/* The vertices' source and what they were made from; vertex_first: each
	 * source draw's first vertex. */
	uint32_t *vertex_first;
	size_t first_capacity;
	/* The source's draws in the order their vertices are laid out, where
	 * placement_sorted (small sources): sorted as batches are
	 * (sg_gl_sort_draws), for the source of this serial; else source order. */
	uint32_t *placement;
	size_t placement_capacity;
	uint64_t placement_serial;
	uint32_t placement_scene;
	bool placement_sorted;
	uint64_t vertex_serial, paint, transform, vertex_builds;
	uint32_t scene;
	mat4 view_projection;
	bool reordered, vertices_valid;
	/* The runs of the drawn list's indices in the order, and for which order. */
	struct sg_gl_run *runs;
	size_t run_capacity, run_count;
	uint64_t index_order, index_vertex_serial;
	uint32_t index_scene;
	bool indices_valid;
	/* sg_gl_expand_fits() of the source list of this serial, and the
	 * source's vertices and largest index count of one draw */
	uint64_t fits_serial;
	uint32_t fits_scene;
	bool fits;
	size_t source_vertices, most_indices;
	/* Streamed drawing (sg_gl_expand_streams): lists whose vertices would
	 * take more than stream_above bytes are expanded a chunk of at most
	 * chunk_vertices at a time, each drawn as soon as it is made, so that
	 * no buffer as large as the scene is kept. 0: the defaults (expand.c). */
	size_t stream_above, chunk_vertices;
	float *chunk;
	uint32_t *chunk_indices;
	size_t chunk_index_capacity;
	bool chunk_ready; /* chunk has room for chunk_vertices */
	/* The opaque draws' batches when streamed, and per texture slot (the
	 * last: no texture) 1 + the bin it has, 0 for none (expand_bins.c). */
	struct sg_gl_bin bins[SG_GL_BINS];
	uint8_t *bin_of;
	size_t bin_of_capacity;
};

/* The translucent pass's batches (blend_order.c) and what they were made for. */
struct sg_gl_blend_slot {
	uint64_t key; /* texture << 32 | mesh */
	uint32_t batch;
	bool used;
};
struct sg_gl_blend {
	uint32_t *batch_of, *offsets;
	int32_t *grid; /* per screen cell, the last batch that touched it */
	struct sg_gl_blend_slot *table;
	size_t batch_capacity, offset_capacity, table_capacity;
	uint64_t order_version, transform; /* the order it left (struct sg_gl_order) */
	uint32_t scene;
	mat4 view_projection;
	bool by_mesh, valid;
};

/* Whether this frame's opaque pass needs the depth test (depth_order.c). */
struct sg_gl_depth {
	uint64_t *grid; /* per screen cell, the largest sort key that touched it */
	bool needed;
	bool forced; /* tests: always needed */
	/* What the last check found, and what it was made for. */
	bool out_of_order, valid;
	uint64_t order_version, transform;
	uint32_t scene;
	mat4 view_projection;
	/* The transforms and view of the last frame, checked or not. */
	uint64_t seen_transform;
	uint32_t seen_scene;
	mat4 seen_view;
};

/* The programs of every material (material.h), and what every draw may
 * sample (drawer.c, tint.c). */
struct sg_gl_programs {
	struct sg_gl_programs_cache cache;
	/* The features (SG_GL_FEATURE_*) of the draws being drawn: the clip test
	 * where some draw of the frame is clipped, each draw's depth written per
	 * fragment where some vertex's w is not 1 and the depth test decides,
	 * no colour input where every draw is white and opaque. Frames without
	 * clipped draws pay nothing for clips, and affine ones nothing for the
	 * depth write. */
	uint64_t features;
	GLuint current; /* the program in use, 0: unknown (another took GL's) */
	GLint max_texture_size;
	GLuint white_texture; /* 1x1 white: what models without a texture sample */
	GLuint tint_array, tint_buffer; /* SG_DEBUG_DAMAGE's quad, made at its first use */
};

/* The order the draw list is drawn in (batch.c makes it, blend_order.c
 * regroups its translucent part, the rest read it): the list's opaque draws
 * sorted by texture and mesh, then its translucent ones in traversal order,
 * for the list and paint classes of these serials. Past SG_GL_MAX_REORDER
 * draws the list is drawn in its own order (reordered false), blending every
 * draw if any is translucent. */
struct sg_gl_order {
	uint32_t *draws; /* positions in the list */
	size_t capacity, opaque_count;
	uint64_t serial, classes;
	uint64_t version; /* bumped by every change of draws: what caches of it compare */
	bool reordered, blend_all;
};

/* The counting sort's scratch (batch.c). */
struct sg_gl_sort {
	uint32_t *scratch, *counts;
	size_t scratch_capacity, count_capacity;
};

/* Per-instance data of the instanced batches in the order's order (batch.c):
 * projection * view * world, then the painter's depth and the colour; and
 * what it was computed from, reused while nothing changed. */
struct sg_gl_instances {
	GLuint buffer;
	float *data;
	size_t capacity;
	uint64_t serial, paint, transform, order_version;
	uint32_t scene;
	mat4 view_projection;
	bool valid;
};

/* What one frame draws: the GL layer's whole input. The draws name the
 * scene's models and resources by pool index, and the scene is read only
 * through src/graph/scene_view.h; its versions, taken once at the frame's
 * start, are what every cache below compares. */
struct sg_gl_input {
	const struct sg_scene *scene;
	struct sg_scene_versions versions;
	const struct sg_draw_list *list;
	const struct sg_paint *paint; /* made for sg_draw_source(list) */
	vec4 *view_projection;
	const struct sg_clips *clips; /* made for sg_draw_source(list); NULL: none */
};

/* Each part is owned by the helper that names it; the drawer hands each
 * only its part, the order it reads, and the frame's input. */
struct sg_gl_drawer {
	struct sg_gl_programs programs;
	struct sg_gl_cache textures, meshes;
	/* The scene structure the caches were last pruned against: resources are
	 * destroyed only by structural edits, so pruning follows those. */
	uint32_t pruned_scene;
	uint64_t pruned_structure;
	/* The scene's texture_updates when its textures were last brought up to date. */
	uint32_t updated_scene;
	uint64_t updated_textures, updated_list;

	struct sg_gl_order order;
	struct sg_gl_sort sort;
	struct sg_gl_instances instances;
	struct sg_gl_expanded expanded;
	struct sg_gl_blend blend;
	struct sg_gl_depth depth;
	struct sg_gl_draw3d draw3d; /* the 3D views' models */
	struct sg_gl_clip clip;     /* the frame's clips */
	bool clipping;              /* some draw of the frame is clipped */
	size_t batches;             /* draw calls of the last draw */
};

/* Builds the embedded program. Needs a current GLES 3 context. */
sg_result sg_gl_drawer_init(struct sg_gl_drawer *gl);
/* Deletes every GL object; the context must be current. */
void sg_gl_drawer_finish(struct sg_gl_drawer *gl);

/* The framebuffer a draw goes to: its size, the clear colour (straight
 * alpha; the buffer gets it premultiplied) and the rectangles to repaint
 * (NULL: all of it). */
struct sg_gl_frame {
	int width, height;
	const float *clear_color;
	const struct sg_damage_region *region;
	bool keep_color; /* draw over what the framebuffer holds: no colour clear */
};

/* In each rectangle of frame (scissored), clears, then draws list (the
 * walk's, or a cut of it) with view_projection, the colours of the walk's
 * paint and cut by its clips, opaque draws first and translucent ones
 * blended after them, uploading textures and meshes met for the first time.
 * The scene is read through src/graph/scene_view.h alone. */
sg_result sg_gl_drawer_draw(struct sg_gl_drawer *gl, const struct sg_scene *scene,
                            const struct sg_draw_list *list, const struct sg_traversal *walk,
                            mat4 view_projection, const struct sg_gl_frame *frame);

/* Draws the models of a 3D view over what the bound framebuffer holds
 * (draw3d.h), within each rectangle of region (NULL: all of the view),
 * adding its draw calls to gl->batches. */
sg_result sg_gl_drawer_draw_view(struct sg_gl_drawer *gl, const struct sg_scene *scene,
                                 const struct sg_view3d_frame *view,
                                 const struct sg_damage_region *region);
/* Blends a translucent tint over each rectangle of region (SG_DEBUG_DAMAGE). */
sg_result sg_gl_drawer_tint(struct sg_gl_drawer *gl, const struct sg_damage_region *region,
                              int width, int height);

#endif
