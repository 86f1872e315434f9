/* libsg: the scene graph.
 *
 * A scene owns its nodes, textures and meshes. Everything is named by a small
 * value handle (scene id, pool index, generation): a handle of a destroyed object,
 * or of another scene, is detected and refused with an error instead of crashing.
 *
 * Nodes are created detached; attach them with sg_node_add_child(). Destroying a
 * scene destroys everything it owns. A scene is not thread-safe: use one scene
 * from one thread at a time. */
#ifndef SG_SCENE_H
#define SG_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sg/error.h>
#include <sg/export.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sg_scene;

/* All-zero handles are never valid: generations start at 1. */
typedef struct sg_node {
	uint32_t scene, index, generation;
} sg_node;
typedef struct sg_texture {
	uint32_t scene, index, generation;
} sg_texture;
typedef struct sg_mesh {
	uint32_t scene, index, generation;
} sg_mesh;

/* No compound literal in C++, which has none; the value is the same. */
#ifdef __cplusplus
#define SG_NODE_NONE (sg_node{0, 0, 0})
#else
#define SG_NODE_NONE ((sg_node){0, 0, 0})
#endif
/* The zero texture handle: a model with it draws its colour (sg_model_set_color). */
#ifdef __cplusplus
#define SG_TEXTURE_NONE (sg_texture{0, 0, 0})
#else
#define SG_TEXTURE_NONE ((sg_texture){0, 0, 0})
#endif

enum sg_node_kind {
	SG_NODE_INVALID = 0,
	SG_NODE_GROUP,     /* only holds children */
	SG_NODE_TRANSFORM, /* a 4x4 local matrix applied to everything below it */
	SG_NODE_MODEL,     /* a mesh drawn with a texture, at a position in its parent */
	SG_NODE_TEXT,      /* a string drawn with a font (sg/text.h); a model whose mesh libsg makes */
	SG_NODE_VIEW3D,    /* its subtree is drawn in 3D: depth-tested and lit (sg/scene3d.h) */
	SG_NODE_LIGHT,     /* a light of the 3D view above it (sg/scene3d.h) */
	SG_NODE_CLIP,      /* clips its subtree to a (rounded) rectangle (sg_node_new_clip) */
};

/* --- scene ----------------------------------------------------------------- */

/* Returns NULL on allocation failure (see sg_last_error()). */
SG_API struct sg_scene *sg_scene_create(void);
/* Accepts NULL. Invalidates every handle of the scene. */
SG_API void sg_scene_destroy(struct sg_scene *scene);
/* The root group, created with the scene; it cannot be removed or destroyed. */
SG_API sg_node sg_scene_root(const struct sg_scene *scene);
/* Number of live nodes, the root included. */
SG_API size_t sg_scene_node_count(const struct sg_scene *scene);

/* --- nodes ------------------------------------------------------------------ */

/* All matrices in the API are 16 floats, column-major (OpenGL and cglm order). */
struct sg_transform_desc {
	const char *name;     /* optional; copied */
	const float *matrix;  /* optional local matrix; NULL means identity */
};

struct sg_model_desc {
	const char *name;     /* optional; copied */
	sg_mesh mesh;         /* required */
	sg_texture texture;   /* SG_TEXTURE_NONE (all zero): the model draws its colour alone */
	float position[3];    /* translation applied inside the parent */
};

/* Constructors return SG_NODE_NONE on failure. The new node is detached. */
SG_API sg_node sg_node_new_group(struct sg_scene *scene, const char *name);
SG_API sg_node sg_node_new_transform_sized(struct sg_scene *scene,
                                           const struct sg_transform_desc *desc, size_t size);
#define sg_node_new_transform(...)                                                                 \
	sg_node_new_transform_sized(__VA_ARGS__, sizeof(struct sg_transform_desc))
SG_API sg_node sg_node_new_model_sized(struct sg_scene *scene, const struct sg_model_desc *desc,
                                       size_t size);
#define sg_node_new_model(...) sg_node_new_model_sized(__VA_ARGS__, sizeof(struct sg_model_desc))

/* True when node is a live node of this scene. */
SG_API bool sg_node_exists(const struct sg_scene *scene, sg_node node);
SG_API enum sg_node_kind sg_node_get_kind(const struct sg_scene *scene, sg_node node);
/* NULL for a stale handle, "" for an unnamed node. Valid until the node is renamed or destroyed. */
SG_API const char *sg_node_get_name(const struct sg_scene *scene, sg_node node);
SG_API sg_result sg_node_set_name(struct sg_scene *scene, sg_node node, const char *name);
/* Shows or hides node and its subtree (any kind, the root included; nodes are
 * visible when created). A hidden subtree draws nothing and is neither culled,
 * visited nor counted in sg_render_stats, as if detached, but keeps its place:
 * showing it again draws it where it was, with its current matrices. A model
 * under a hidden node may use a destroyed mesh or texture without failing the
 * render. Toggling does not rebuild the scene's cached traversal order. */
SG_API sg_result sg_node_set_visible(struct sg_scene *scene, sg_node node, bool visible);
/* Stores in *visible whether node itself is visible (its own setting, whatever
 * its ancestors' are). NULL visible: SG_ERR_INVALID_ARGUMENT. */
SG_API sg_result sg_node_get_visible(const struct sg_scene *scene, sg_node node, bool *visible);
/* Whether picks (sg_scene_pick, <sg/pick.h>) see node and its subtree (true
 * when created); drawing is not affected. */
SG_API sg_result sg_node_set_pickable(struct sg_scene *scene, sg_node node, bool pickable);
SG_API sg_result sg_node_get_pickable(const struct sg_scene *scene, sg_node node, bool *pickable);
/* The opacity of node (any kind, the root included; 1 when created), in [0, 1]:
 * each model is drawn with the product of its own opacity and its ancestors'
 * as an alpha multiplied into its colour (as wlroots' scene and CSS do per
 * leaf). The models of a translucent group are blended one by one, so where
 * two of them overlap the later one shows the earlier one through it: the
 * group is not first flattened into one picture (no group compositing).
 * A value outside [0, 1] or not finite: SG_ERR_INVALID_ARGUMENT, nothing changed.
 * Changing an opacity does not rebuild the scene's cached traversal order. */
SG_API sg_result sg_node_set_opacity(struct sg_scene *scene, sg_node node, float opacity);
/* Stores node's own opacity (not the product with its ancestors') in *opacity. */
SG_API sg_result sg_node_get_opacity(const struct sg_scene *scene, sg_node node, float *opacity);

/* Tree edits. child must be detached (SG_ERR_BUSY otherwise). A child that is
 * parent itself or one of its ancestors is refused with SG_ERR_CYCLE; a node of
 * another scene with SG_ERR_FOREIGN_HANDLE. Models cannot have children. */
SG_API sg_result sg_node_add_child(struct sg_scene *scene, sg_node parent, sg_node child);
/* index 0 inserts first; index == child count appends; larger is SG_ERR_INVALID_ARGUMENT. */
SG_API sg_result sg_node_insert_child(struct sg_scene *scene, sg_node parent, size_t index,
                                      sg_node child);
/* Detaches node (and its subtree) from its parent; the nodes stay alive. */
SG_API sg_result sg_node_remove(struct sg_scene *scene, sg_node node);
/* Moves node (attached or not) to the end of new_parent's children. */
SG_API sg_result sg_node_reparent(struct sg_scene *scene, sg_node node, sg_node new_parent);
/* Destroys node and its whole subtree; their handles become stale. */
SG_API sg_result sg_node_destroy(struct sg_scene *scene, sg_node node);

/* Navigation: each returns SG_NODE_NONE when there is no such node or the handle is stale. */
SG_API sg_node sg_node_get_parent(const struct sg_scene *scene, sg_node node);
SG_API sg_node sg_node_first_child(const struct sg_scene *scene, sg_node node);
SG_API sg_node sg_node_next_sibling(const struct sg_scene *scene, sg_node node);
SG_API sg_node sg_node_child_at(const struct sg_scene *scene, sg_node node, size_t index);
SG_API size_t sg_node_child_count(const struct sg_scene *scene, sg_node node);
/* First node named name in the subtree of start (start included), depth-first,
 * left to right. SG_NODE_NONE (and SG_ERR_NOT_FOUND in sg_last_error) if none. */
SG_API sg_node sg_node_find(const struct sg_scene *scene, sg_node start, const char *name);

/* --- transforms --------------------------------------------------------------
 * The helpers compose on the right, as cglm and OpenGL do: after translate then
 * scale, a point is first scaled, then translated. Non-finite values are refused. */
SG_API sg_result sg_transform_set_matrix(struct sg_scene *scene, sg_node node, const float matrix[16]);
SG_API sg_result sg_transform_get_matrix(const struct sg_scene *scene, sg_node node, float matrix[16]);
SG_API sg_result sg_transform_set_identity(struct sg_scene *scene, sg_node node);
SG_API sg_result sg_transform_translate(struct sg_scene *scene, sg_node node, float x, float y, float z);
/* angle in radians around the axis (x, y, z), which need not be normalised. */
SG_API sg_result sg_transform_rotate(struct sg_scene *scene, sg_node node, float angle, float x,
                                     float y, float z);
SG_API sg_result sg_transform_scale(struct sg_scene *scene, sg_node node, float x, float y, float z);

/* --- clips -------------------------------------------------------------------
 * A clip node holds children like a group and shows of its subtree only what
 * falls inside its rectangle, given in the node's own coordinates (those the
 * transforms above it make), so a clip turns and scales with them. Nested
 * clips intersect. A pixel is inside when its centre is: edges are not
 * antialiased, and an axis-aligned clip whose edges lie on pixel edges cuts
 * exactly as a scissor would. radius rounds the four corners (clamped to
 * half the smaller side). Damage tracking and sg_scene_pick both respect it.
 * The 3D views' models (sg/scene3d.h) are not clipped. */
struct sg_clip_desc {
	const char *name;          /* optional; copied (sg_node_new_clip only) */
	float x, y, width, height; /* the rectangle; width and height >= 0 */
	float radius;              /* >= 0 */
};
/* SG_NODE_NONE on failure: a value that is negative or not finite. */
SG_API sg_node sg_node_new_clip_sized(struct sg_scene *scene, const struct sg_clip_desc *desc,
                                      size_t size);
#define sg_node_new_clip(...) sg_node_new_clip_sized(__VA_ARGS__, sizeof(struct sg_clip_desc))
/* Changes the rectangle and radius of a clip node (desc->name is ignored). */
SG_API sg_result sg_clip_set_sized(struct sg_scene *scene, sg_node clip,
                                   const struct sg_clip_desc *desc, size_t size);
#define sg_clip_set(...) sg_clip_set_sized(__VA_ARGS__, sizeof(struct sg_clip_desc))
/* Stores the rectangle and radius (name NULL) in *desc. */
SG_API sg_result sg_clip_get_sized(const struct sg_scene *scene, sg_node clip,
                                   struct sg_clip_desc *desc, size_t size);
#define sg_clip_get(...) sg_clip_get_sized(__VA_ARGS__, sizeof(struct sg_clip_desc))

/* --- models ------------------------------------------------------------------ */
SG_API sg_result sg_model_set_position(struct sg_scene *scene, sg_node node, float x, float y, float z);
/* SG_TEXTURE_NONE is accepted: the model then draws its colour alone. */
SG_API sg_result sg_model_set_texture(struct sg_scene *scene, sg_node node, sg_texture texture);
SG_API sg_result sg_model_set_mesh(struct sg_scene *scene, sg_node node, sg_mesh mesh);
/* The colour (straight alpha, components in [0, 1]; white (1, 1, 1, 1) when
 * created) multiplied with each texel of the model's texture, or drawn alone
 * by a model without one (SG_TEXTURE_NONE): a solid rectangle needs no
 * texture. Its alpha is multiplied by the opacities above (sg_node_set_opacity).
 * A component outside [0, 1] or not finite: SG_ERR_INVALID_ARGUMENT naming it,
 * nothing changed. */
SG_API sg_result sg_model_set_color(struct sg_scene *scene, sg_node node, float r, float g, float b,
                                    float a);
SG_API sg_result sg_model_get_color(const struct sg_scene *scene, sg_node node, float rgba[4]);

/* --- textures ------------------------------------------------------------------
 * Texels are RGBA8 with straight (not premultiplied) alpha, as PNG files hold
 * them; the renderer premultiplies them when it uploads. A texture with any
 * alpha below 255 makes its models translucent: they are blended (source-over)
 * over what is drawn before them, in traversal order. */
enum sg_filter { SG_FILTER_NEAREST = 0, SG_FILTER_LINEAR };
enum sg_wrap { SG_WRAP_CLAMP = 0, SG_WRAP_REPEAT };

struct sg_texture_desc {
	int width, height;     /* 1 .. 16384 */
	const void *pixels;    /* RGBA8, top row first; copied */
	size_t stride;         /* bytes per row; 0 means width * 4 */
	enum sg_filter filter; /* default nearest */
	enum sg_wrap wrap;     /* default clamp to edge */
};

SG_API sg_texture sg_texture_create_sized(struct sg_scene *scene,
                                          const struct sg_texture_desc *desc, size_t size);
#define sg_texture_create(...) sg_texture_create_sized(__VA_ARGS__, sizeof(struct sg_texture_desc))
/* Replaces the width x height texels at (x, y) (top-left origin) with pixels:
 * RGBA8, top row first, stride bytes per row (0 means width * 4); copied. Every
 * renderer drawing the texture uploads only the changed rectangles
 * (glTexSubImage2D) at its next render; a renderer more than 16 updates behind
 * uploads the whole texture once instead. Texels equal to the current ones
 * change nothing. A rectangle that is empty or leaves the texture, NULL pixels
 * or a stride below width * 4: SG_ERR_INVALID_ARGUMENT; a destroyed or foreign
 * texture: SG_ERR_STALE_HANDLE / SG_ERR_FOREIGN_HANDLE; nothing is changed. */
SG_API sg_result sg_texture_update(struct sg_scene *scene, sg_texture texture, int x, int y,
                                   int width, int height, const void *pixels, size_t stride);
/* Loads an 8-bit or 16-bit PNG of any colour type, converted to RGBA8. Images
 * larger than 16384 on a side or 64 Mpixels in all are refused (SG_ERR_FORMAT). */
SG_API sg_texture sg_texture_load_png(struct sg_scene *scene, const char *path, enum sg_filter filter,
                                      enum sg_wrap wrap);
/* Loads an image file as RGBA8, its format told by its first bytes, not its
 * name: PNG (as sg_texture_load_png), JPEG (baseline or progressive, grey,
 * YCbCr, CMYK or YCCK; the inks of a file with Adobe's APP14 marker read
 * inverted, as Photoshop writes them) and WebP (lossy, lossless, with alpha; not animated), JPEG and
 * WebP where libsg was built with libjpeg-turbo and libwebp (SG_ERR_UNSUPPORTED
 * naming the missing library otherwise). The EXIF orientation of a JPEG's
 * APP1, a WebP's EXIF chunk or a PNG's eXIf chunk (before its image data) is
 * applied: the texture is the picture as shown upright, its width and
 * height swapped for orientations 5 to 8. The same limits as PNG (16384 on a
 * side, 64 Mpixels); a file that is none of these: SG_ERR_FORMAT. Both
 * loaders read a regular file only: a FIFO, device, directory or socket is
 * SG_ERR_IO at once ("'p' is a FIFO, not a regular file"). */
SG_API sg_texture sg_texture_load(struct sg_scene *scene, const char *path, enum sg_filter filter,
                                  enum sg_wrap wrap);
/* Models still using a destroyed texture make sg_renderer_render() fail. */
SG_API sg_result sg_texture_destroy(struct sg_scene *scene, sg_texture texture);
SG_API bool sg_texture_exists(const struct sg_scene *scene, sg_texture texture);

/* --- meshes ---------------------------------------------------------------------- */
struct sg_vertex {
	float position[3];
	float uv[2]; /* (0,0) is the texture's top-left pixel */
};

struct sg_mesh_desc {
	const struct sg_vertex *vertices; /* copied */
	size_t vertex_count;
	const uint32_t *indices;          /* optional triangle list; NULL draws vertices in order */
	size_t index_count;               /* multiple of 3 */
};

SG_API sg_mesh sg_mesh_create_sized(struct sg_scene *scene, const struct sg_mesh_desc *desc,
                                    size_t size);
#define sg_mesh_create(...) sg_mesh_create_sized(__VA_ARGS__, sizeof(struct sg_mesh_desc))
/* The built-in quad: top-left corner at the local origin, (width, height) at the
 * bottom-right, texture coordinates (0,0) top-left to (1,1) bottom-right. */
SG_API sg_mesh sg_mesh_create_quad(struct sg_scene *scene, float width, float height);
SG_API sg_result sg_mesh_destroy(struct sg_scene *scene, sg_mesh mesh);
SG_API bool sg_mesh_exists(const struct sg_scene *scene, sg_mesh mesh);

#ifdef __cplusplus
}
#endif

#endif
