/* Internal: the scene's storage. Besides src/graph/, included by src/traverse/
 * (which streams through it), src/text/text_internal.h (a text node is a model
 * whose record points to the text layer's), src/target/import.c (a texture's
 * import record), src/render/renderer.c and the tests under tests/. src/gl/
 * reads it only through the accessors of scene_view.h, which includes it.
 *
 * Nodes live in parallel arrays indexed by pool index (struct of arrays), so that
 * the traversal reads links and matrices contiguously and a node costs no malloc.
 * Index 0 is never used: a link of 0 means "none". */
#ifndef SG_GRAPH_SCENE_INTERNAL_H
#define SG_GRAPH_SCENE_INTERNAL_H

#include <cglm/cglm.h>
#include <stdbool.h>
#include <stdint.h>

#include <sg/scene.h>
#include <sg/scene3d.h>
#include <sg/shape.h>

#include "index_map.h"
#include "pool.h"

#define SG_ROOT_INDEX 1u

/* Children form a doubly linked list with both ends and its length kept, so that
 * prepend, append and counting are O(1) and insert at i walks from the nearer end.
 * The parent link is a column of its own (sg_scene.parent): the world update
 * streams it with the matrices and reads nothing else of the links. The ends
 * and the count are kept with a group's or transform's matrices (models have
 * no children, and half a tree's nodes are models): sg_scene_first_child. */
struct sg_node_links {
	uint32_t prev_sibling, next_sibling;
};
struct sg_child_links {
	uint32_t first, last, count;
};

struct sg_text; /* src/text/: a text node's string, font and glyphs */
struct sg_scene_query; /* src/traverse/pick.c */

/* What a model keeps of a mesh or texture handle: not its scene, which is
 * the model's own (4 bytes of every model record saved, twice). */
struct sg_resource_ref {
	uint32_t index, generation;
};
#define SG_RESOURCE_REF(handle) ((struct sg_resource_ref){(handle).index, (handle).generation})

struct sg_model_data {
	struct sg_resource_ref mesh; /* sg_model_mesh() makes the handle again */
	struct sg_resource_ref texture; /* generation 0 (SG_TEXTURE_NONE): the colour alone is drawn */
	float color[4];     /* straight alpha, multiplied with each texel */
	/* Its local matrix is only ever this translation: models keep no
	 * matrices of their own (see sg_world_model, src/traverse/world.h). */
	vec3 position;
};

/* The text layer sits above the graph, which must not include it: it sets
 * these hooks on the scene when it first loads a font, so that destroying a
 * node or the scene frees what the text layer made for them. */
struct sg_text_state;
struct sg_text_ops {
	/* Frees the text record of model node index (and its mesh) before the node goes. */
	void (*node_freed)(struct sg_scene *scene, uint32_t index);
	/* Frees fonts, atlas bookkeeping and every text record before the scene's storage goes. */
	void (*scene_destroyed)(struct sg_scene *scene);
};

static inline bool sg_texture_is_none(sg_texture texture)
{
	return !texture.scene && !texture.index && !texture.generation;
}

/* Per-node flags. (1u is free: it was "dirty" while the scene kept world
 * matrices; renderers keep them now, src/traverse/world.h.) */
#define SG_NODE_HIDDEN 2u /* sg_node_set_visible(false): its subtree is not drawn */

/* Updates (sg_texture_update) a texture keeps for the renderers: each renderer
 * remembers the update serial its GL copy has, and at its next draw uploads
 * the rectangles of the updates after it, from the current texels. A renderer
 * more than this many updates behind uploads the whole texture once. */
#define SG_TEXTURE_UPDATE_HISTORY 16u

struct sg_texture_rect {
	int x, y, width, height;
};

struct sg_texture_import;

struct sg_texture_data {
	int width, height;
	uint8_t *pixels; /* RGBA8, tight rows, top row first */
	enum sg_filter filter;
	enum sg_wrap wrap;
	/* Updates so far; update s (from 1) changed updates[s % SG_TEXTURE_UPDATE_HISTORY]. */
	uint64_t update_serial;
	struct sg_texture_rect updates[SG_TEXTURE_UPDATE_HISTORY];
	/* Texels whose alpha is below 255, kept by create and update: 0 means opaque. */
	uint64_t translucent_texels;
	/* sg_texture_import_dmabuf (src/graph/dmabuf.h): the buffer's planes and
	 * their dup'ed fds; pixels is then NULL. NULL for every other texture. */
	struct sg_texture_import *import;
	/* sg_texture_create_shape (sg/shape.h): the shape the shader draws;
	 * pixels is then one white texel. NULL for every other texture. */
	struct sg_shape_desc *shape;
};

/* What sg_mesh_create_3d adds to a mesh: every vertex's attributes
 * interleaved, stride floats each, the position first; each other
 * attribute at its offset in floats, 0 when the mesh has none (the
 * position is at 0, so 0 names no other attribute). */
struct sg_mesh_solid {
	float *data;
	uint32_t stride;
	uint8_t normal, uv0, uv1, color, tangent;
};
struct sg_mesh_data {
	/* Every mesh has these (for a 3D mesh, its positions and uv0), which
	 * the 2D path, bounds and picks read; solid is the 3D part, or NULL. */
	struct sg_vertex *vertices;
	uint32_t vertex_count;
	uint32_t *indices; /* NULL: draw vertices in order */
	uint32_t index_count;
	vec3 bounds[2]; /* axis-aligned box of the vertices, for culling */
	struct sg_mesh_solid *solid;
};

/* The vertices a draw of m goes through: its indices, or its vertices in
 * order when it has none. */
static inline uint32_t sg_mesh_draw_count(const struct sg_mesh_data *m)
{
	return m->indices ? m->index_count : m->vertex_count;
}

struct sg_scene {
	uint32_t id;

	/* Nodes: slots [1, node_pool.used) have been handed out; these arrays
	 * have node_pool.capacity entries. */
	struct sg_pool node_pool;
	uint8_t *kind;  /* enum sg_node_kind; SG_NODE_INVALID for a free slot */
	uint8_t *flags; /* SG_NODE_HIDDEN, ... (below) */
	uint32_t *parent; /* 0: none (the root, or detached) */
	struct sg_node_links *links;
	/* Models: index into models. Groups and transforms: index into the
	 * matrix arrays (local, world below), which models do not pay for. */
	uint32_t *payload;
	/* sg_node_set_opacity(): multiplied down the subtree; NULL (all 1) until
	 * an opacity below 1 is first set, so that scenes that never fade pay
	 * nothing for it (sg_scene_opacity) */
	float *opacity;
	struct sg_index_map names; /* of the nodes with SG_NODE_NAMED (sg_scene_name) */
	/* Text nodes (SG_NODE_TEXT to sg_node_get_kind): models whose mesh and
	 * texture the text layer owns and replaces, their records (struct
	 * sg_text) kept here, by node index (sg_scene_text). */
	struct sg_index_map texts;

	/* Model records have a pool of their own, so that groups and transforms
	 * do not pay for them; index 0 is never used. */
	struct sg_pool model_pool;
	struct sg_model_data *models;

	/* Matrices of groups and transforms, in a pool of their own for the same
	 * reason (index 0 unused); sg_scene_local finds a node's. Allocated in
	 * node order, so that while the nodes are in
	 * preorder a forward pass over nodes is one over these too. */
	struct sg_pool matrix_pool;
	mat4 *local; /* transforms: their matrix; groups: identity */
	struct sg_child_links *children;
	/* World matrices are not kept here: each renderer (and the picks) keeps
	 * its own (struct sg_world, src/traverse/world.h), brought up to date
	 * from the journal's matrix entries, so that rendering reads the scene
	 * and never writes it (docs/api.md says what may run at once).

	 * The pool's index order is a preorder of the root's tree (free slots
	 * and detached nodes aside), so that a subtree is the index range from
	 * its node to the next sibling on its way up, and the update is a
	 * forward pass through the arrays (src/traverse/world.c). A scene built
	 * top-down by appending new nodes keeps it (keeps_preorder() in tree.c). */
	bool preorder;

	/* Bumped on edits of what is drawn (tree shape, models, resources), and on
	 * local matrix edits, so that caches above know when to look again. */
	uint64_t structure_version;
	uint64_t transform_version;

	/* Hidden nodes (SG_NODE_HIDDEN), unordered, so that the traversal finds the
	 * hidden subtrees without walking the tree; hidden_slot[n] is n's position
	 * in hidden while n is hidden. Showing or hiding bumps visibility_version,
	 * not structure_version: the cached traversal order stays. */
	uint32_t *hidden, *hidden_slot;
	uint32_t hidden_count, hidden_capacity, hidden_slot_capacity;
	uint64_t visibility_version;

	/* Bumped by edits of how models look that leave the draw list as it is:
	 * opacities, colours, and texture updates that change whether a texture
	 * has translucent texels. opacity_used: some node's opacity was ever set
	 * below 1, so that scenes that never do skip the products. */
	uint64_t appearance_version;
	bool opacity_used;

	/* Resources: handles index these from 0. */
	struct sg_pool texture_pool;
	struct sg_texture_data *textures;
	struct sg_pool mesh_pool;
	struct sg_mesh_data *meshes;
	/* Bumped by every sg_texture_update() of any texture, so that a renderer
	 * looks for textures to bring up to date only after some. */
	uint64_t texture_updates;

	/* Nodes edited, for the renderers' world matrices (src/traverse/world.c)
	 * and damage (src/traverse/damage.c): a ring of entries, entry s at
	 * nodes[s & (capacity - 1)], each a node index, with SG_JOURNAL_MATRIX
	 * set when it was the node's local matrix that changed. Each reader
	 * keeps its own position and reads without writing: an edit appends
	 * every time (the scene cannot know who has read what), and readers
	 * skip the repeats of a node themselves. A reader more than capacity
	 * entries behind recomputes and repaints everything. */
	struct sg_scene_journal {
		uint32_t *nodes;
		uint32_t capacity; /* a power of two, or 0 */
		uint64_t head;     /* entries ever appended */
		uint64_t kept;     /* entries before this one were dropped when the ring grew */
	} journal;

	/* Materials (sg_material_create), and the material of each model that
	 * has one (a struct sg_resource_ref by node index): a column would cost
	 * every 2D model 8 bytes. */
	struct sg_pool material_pool;
	struct sg_material_data *materials;
	struct sg_index_map model_materials;
	/* Lights and 3D views: their struct sg_light_data or sg_view3d_data by
	 * node index; view_count: live view nodes, attached or not. */
	struct sg_index_map nodes3d;
	uint32_t view_count;
	uint32_t light_count; /* live light nodes, attached or not */
	/* Clip nodes: their struct sg_clip_data by node index; clip_count: live
	 * clip nodes, attached or not. While there are none, nothing looks for
	 * clips (src/traverse/clips.c). */
	struct sg_index_map clips;
	uint32_t clip_count;
	/* Live shape textures filled by an image (sg_shape_desc.image): while
	 * none, a texture update looks for no shape to damage. */
	uint32_t image_shapes;

	/* What the picks (src/traverse/pick.c) keep between calls, made on the
	 * editing thread: world matrices and boxes of their own. NULL until the
	 * first; query_free frees it with the scene. */
	struct sg_scene_query *query;
	void (*query_free)(struct sg_scene_query *query);

	/* Text (src/text/): NULL until the first font is loaded. */
	const struct sg_text_ops *text_ops;
	struct sg_text_state *text_state;
};

/* Per-node flag, with SG_NODE_HIDDEN: sg_node_set_pickable(false). */
#define SG_NODE_UNPICKABLE 4u
/* The journal holds at least this share of the nodes (1 / 8), and readers
 * that find more edits than that since their last frame repaint everything:
 * a reader within that limit never loses an entry. */
#define SG_JOURNAL_SHARE 8u

/* Per-node flag: the node has a name, in scene->names. */
#define SG_NODE_NAMED 64u
/* Per-node flag: a text node, its record in scene->texts. */
#define SG_NODE_TEXT_RECORD 128u

/* The name of node index, or NULL. */
static inline const char *sg_scene_name(const struct sg_scene *scene, uint32_t index)
{
	return scene->flags[index] & SG_NODE_NAMED ? sg_index_map_get(&scene->names, index) : NULL;
}
/* The text record of node index, or NULL for every node but a text node. */
static inline struct sg_text *sg_scene_text(const struct sg_scene *scene, uint32_t index)
{
	return scene->flags[index] & SG_NODE_TEXT_RECORD ? sg_index_map_get(&scene->texts, index)
	                                                 : NULL;
}
/* Gives node index the name (taken over), or none for NULL, freeing the one
 * it had. False when out of memory: name is then freed, the old one kept. */
bool sg_scene_set_name(struct sg_scene *scene, uint32_t index, char *name);

/* A journal entry's flag: the node's local matrix changed (node indices are
 * below SG_POOL_MAX, far below this bit). */
#define SG_JOURNAL_MATRIX 0x80000000u
/* The node index of journal entry e. */
static inline uint32_t sg_journal_node(uint32_t e)
{
	return e & ~SG_JOURNAL_MATRIX;
}

/* Makes the journal's first ring (its growth later may fail silently: readers
 * then repaint everything). False when out of memory. */
bool sg_scene_journal_init(struct sg_scene *scene);
/* Lists node index in the journal: what it draws, or the subtree below it,
 * may look different now (matrix, colour, opacity, visibility, mesh,
 * texture, place in the tree, or freed). matrix: its local matrix changed. */
void sg_scene_journal_entry(struct sg_scene *scene, uint32_t index, bool matrix);
static inline void sg_scene_journal(struct sg_scene *scene, uint32_t index)
{
	sg_scene_journal_entry(scene, index, false);
}
/* Entry s of journal j (s between sg_scene_journal_first(j) and j->head). */
static inline uint32_t sg_scene_journal_at(const struct sg_scene_journal *j, uint64_t s)
{
	return j->nodes[s & (j->capacity - 1)];
}
/* The oldest entry the ring still holds: a reader whose position is before
 * it has lost entries. */
static inline uint64_t sg_scene_journal_first(const struct sg_scene_journal *j)
{
	uint64_t wrapped = j->head > j->capacity ? j->head - j->capacity : 0;
	return wrapped > j->kept ? wrapped : j->kept;
}

/* Records a local matrix edit of node index. */
void sg_scene_mark_dirty(struct sg_scene *scene, uint32_t index);
/* Records an edit of the tree's shape or of what a model draws: readers
 * recompute their world matrices and draw lists. */
static inline void sg_scene_structure_changed(struct sg_scene *scene)
{
	scene->structure_version++;
}

static inline struct sg_model_data *sg_scene_model(const struct sg_scene *scene, uint32_t index)
{
	return &scene->models[scene->payload[index]];
}

/* The opacity of node index (sg_node_set_opacity). */
static inline float sg_scene_opacity(const struct sg_scene *scene, uint32_t index)
{
	return scene->opacity ? scene->opacity[index] : 1.0f;
}

/* The handles of a model's mesh and texture (SG_TEXTURE_NONE for none). */
static inline sg_mesh sg_model_mesh(const struct sg_scene *scene, const struct sg_model_data *m)
{
	return (sg_mesh){scene->id, m->mesh.index, m->mesh.generation};
}
static inline sg_texture sg_model_texture(const struct sg_scene *scene,
                                          const struct sg_model_data *m)
{
	return m->texture.generation ? (sg_texture){scene->id, m->texture.index, m->texture.generation}
	                             : SG_TEXTURE_NONE;
}

/* The children of node index: none (an empty record) for a model or a
 * free slot, which have no child links of their own. */
static inline const struct sg_child_links *sg_scene_child_links(const struct sg_scene *scene,
                                                                uint32_t index)
{
	static const struct sg_child_links none = {0, 0, 0};
	uint8_t kind = scene->kind[index];
	return kind == SG_NODE_MODEL || kind == SG_NODE_INVALID ? &none
	                                                        : &scene->children[scene->payload[index]];
}
static inline uint32_t sg_scene_first_child(const struct sg_scene *scene, uint32_t index)
{
	return sg_scene_child_links(scene, index)->first;
}
static inline uint32_t sg_scene_last_child(const struct sg_scene *scene, uint32_t index)
{
	return sg_scene_child_links(scene, index)->last;
}
/* The same for writing, of group or transform index. */
static inline struct sg_child_links *sg_scene_children(const struct sg_scene *scene,
                                                       uint32_t index)
{
	return &scene->children[scene->payload[index]];
}

/* The local matrix of group or transform index. */
static inline vec4 *sg_scene_local(const struct sg_scene *scene, uint32_t index)
{
	return scene->local[scene->payload[index]];
}

/* The local matrix of node index of any kind: a model's is the translation
 * of its position. */
static inline void sg_scene_local_of(const struct sg_scene *scene, uint32_t index, mat4 out)
{
	if (scene->kind[index] == SG_NODE_MODEL)
		glm_translate_make(out, sg_scene_model(scene, index)->position);
	else
		glm_mat4_copy(sg_scene_local(scene, index), out);
}

/* A material: its description, with the name copied. */
struct sg_material_data {
	struct sg_material_desc desc;
};
struct sg_light_data {
	struct sg_light_desc desc; /* name NULL: the node has it */
};
struct sg_view3d_data {
	bool has_camera;
	struct sg_camera camera;
	float viewport[4];
	float ambient[3];
};
static inline const struct sg_light_data *sg_scene_light(const struct sg_scene *scene,
                                                         uint32_t index)
{
	return scene->kind[index] == SG_NODE_LIGHT ? sg_index_map_get(&scene->nodes3d, index) : NULL;
}
/* Texture index was updated: the shapes it fills (sg_shape_desc.image) are
 * damaged as by an update of theirs (src/graph/shape.c). */
void sg_scene_image_updated(struct sg_scene *scene, uint32_t index);

/* A clip node's rectangle (x, y, width, height) and corner radius as set. */
struct sg_clip_data {
	float rect[4];
	float radius;
};
static inline const struct sg_clip_data *sg_scene_clip(const struct sg_scene *scene,
                                                       uint32_t index)
{
	return scene->kind[index] == SG_NODE_CLIP ? sg_index_map_get(&scene->clips, index) : NULL;
}
/* The nearest clip node strictly above node n, 0 for none: the clips that
 * cut n, innermost first, are this, then this of it, and so on. */
static inline uint32_t sg_scene_clip_above(const struct sg_scene *scene, uint32_t n)
{
	if (!scene->clip_count)
		return 0;
	for (uint32_t a = scene->parent[n]; a; a = scene->parent[a])
		if (scene->kind[a] == SG_NODE_CLIP)
			return a;
	return 0;
}
/* A node of kind named name (copied; NULL: none) whose record (taken over,
 * freed on failure; NULL: out of memory) goes into map by its index: the
 * lights, 3D views and clips. what names the kind in the message. */
sg_node sg_scene_new_recorded_node(struct sg_scene *scene, enum sg_node_kind kind,
                                   const char *name, struct sg_index_map *map, void *record,
                                   const char *what);
/* Frees the record of clip node index, if it is one (src/graph/clip.c). */
void sg_scene_free_clip(struct sg_scene *scene, uint32_t index);
static inline const struct sg_view3d_data *sg_scene_view3d(const struct sg_scene *scene,
                                                           uint32_t index)
{
	return scene->kind[index] == SG_NODE_VIEW3D ? sg_index_map_get(&scene->nodes3d, index) : NULL;
}
/* The material of model node index, or NULL (none, or destroyed: *stale
 * says which when not NULL). */
const struct sg_material_data *sg_scene_model_material(const struct sg_scene *scene,
                                                       uint32_t index, bool *stale);
/* Frees the 3D records a node holds (a light's or view's, a model's
 * material), before the node goes (scene.c). */
void sg_scene_free_node3d(struct sg_scene *scene, uint32_t index);
/* Frees the materials, before the scene goes. */
void sg_scene_free_materials(struct sg_scene *scene);

/* Pool slots: alloc returns 0 (with message) when the pool cannot grow. */
uint32_t sg_scene_alloc_node(struct sg_scene *scene, enum sg_node_kind kind);
/* Drops node index from the hidden set, before it is freed (src/graph/node.c). */
void sg_scene_forget_hidden(struct sg_scene *scene, uint32_t index);
void sg_scene_free_node(struct sg_scene *scene, uint32_t index);

/* Validates a handle: SG_OK, or an error (with message) for stale or foreign ones.
 * what names the argument in the message ("parent", "child", ...). */
sg_result sg_scene_check_node(const struct sg_scene *scene, sg_node node, const char *what);
/* The same, and node must be of kind ("function: node 'x' is not a model"). */
sg_result sg_scene_check_kind(const struct sg_scene *scene, sg_node node, enum sg_node_kind kind,
                              const char *function);
/* Name for messages: "'Rectangle 1'" or "#12" for unnamed nodes. Static buffer per thread. */
const char *sg_scene_node_label(const struct sg_scene *scene, uint32_t index);

/* node3d.c: whether attaching child under parent keeps the nearest 3D view
 * at or above parent within SG_VIEW3D_MAX_LIGHTS lights of its own (those
 * not under a view nested in it); else SG_ERR_LIMIT naming the first light
 * over and the view. */
sg_result sg_scene_check_view_lights(const struct sg_scene *scene, uint32_t parent, uint32_t child);

/* Resource lookups: NULL for a stale or foreign handle (no message set). */
const struct sg_texture_data *sg_scene_texture(const struct sg_scene *scene, sg_texture texture);
const struct sg_mesh_data *sg_scene_mesh(const struct sg_scene *scene, sg_mesh mesh);
/* The same as checks that set a message naming what. */
sg_result sg_scene_check_texture(const struct sg_scene *scene, sg_texture texture, const char *what);
sg_result sg_scene_check_mesh(const struct sg_scene *scene, sg_mesh mesh, const char *what);


/* Sibling links followed by the calling thread's child lookups (sg_node_child_at,
 * sg_node_insert_child): lets tests check that prepend and append walk none
 * without timing them. Thread-local, so that threads editing their own scenes
 * share nothing. */
uint64_t sg_scene_sibling_steps(void);

static inline sg_node sg_scene_handle(const struct sg_scene *scene, uint32_t index)
{
	if (index == 0)
		return SG_NODE_NONE;
	return (sg_node){scene->id, index, scene->node_pool.generation[index]};
}

/* Depth-first, left-to-right successor of n within the subtree of top; 0 at
 * the end. Inline: it is the traversal's inner step. */
static inline uint32_t sg_scene_next_preorder(const struct sg_scene *scene, uint32_t top,
                                              uint32_t n)
{
	const struct sg_node_links *links = scene->links;
	uint32_t first = sg_scene_first_child(scene, n);
	if (first)
		return first;
	while (n != top) {
		if (links[n].next_sibling)
			return links[n].next_sibling;
		n = scene->parent[n];
	}
	return 0;
}

/* The mesh of model n, or NULL when it was destroyed. */
static inline const struct sg_mesh_data *sg_scene_model_mesh(const struct sg_scene *scene,
                                                             uint32_t n)
{
	return sg_scene_mesh(scene, sg_model_mesh(scene, sg_scene_model(scene, n)));
}

/* The first node of n's subtree in postorder: down the first children. */
static inline uint32_t sg_scene_leftmost_leaf(const struct sg_scene *scene, uint32_t n)
{
	for (uint32_t c; (c = sg_scene_first_child(scene, n));)
		n = c;
	return n;
}

/* The preorder successor of n outside n's subtree, within top's (n under
 * top); 0 at the end. */
static inline uint32_t sg_scene_skip_within(const struct sg_scene *scene, uint32_t top,
                                            uint32_t n)
{
	for (; n != top; n = scene->parent[n])
		if (scene->links[n].next_sibling)
			return scene->links[n].next_sibling;
	return 0;
}

/* The same within the root's tree. */
static inline uint32_t sg_scene_skip_subtree(const struct sg_scene *scene, uint32_t n)
{
	return sg_scene_skip_within(scene, SG_ROOT_INDEX, n);
}

#endif
