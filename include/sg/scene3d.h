/* libsg: models in 3D space. Meshes with normals, glTF 2.0 materials, lights
 * and 3D views (docs/3d.md).
 *
 * A 3D view is an attribute node, as a transform is: the models below it are
 * drawn depth-tested and lit, the opaque ones nearest first, the translucent
 * ones (SG_ALPHA_BLEND) after them farthest first, back faces culled unless
 * their material is double-sided. Everything outside any 3D view is drawn as
 * before, in painter's order. The view itself takes its place in that order:
 * what the traversal meets before it is under its picture, what it meets
 * after is over it (a 2D caption over a 3D view, a 3D view inside a 2D
 * layout). */
#ifndef SG_SCENE3D_H
#define SG_SCENE3D_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sg/camera.h>
#include <sg/error.h>
#include <sg/export.h>
#include <sg/scene.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sg_material {
	uint32_t scene, index, generation;
} sg_material;

#ifdef __cplusplus
#define SG_MATERIAL_NONE (sg_material{0, 0, 0})
#else
#define SG_MATERIAL_NONE ((sg_material){0, 0, 0})
#endif

/* --- meshes with normals --------------------------------------------------- */

enum sg_index_type { SG_INDEX_NONE = 0, SG_INDEX_U16, SG_INDEX_U32 };

/* What becomes of the normals. SG_NORMALS_AUTO: the given ones, or flat
 * ones where none are given (what glTF 2.0 asks of a viewer). FLAT: one
 * normal per triangle (vertices shared by triangles are split). SMOOTH: at
 * each vertex the normalised sum of its triangles' area-weighted normals. */
enum sg_normals { SG_NORMALS_AUTO = 0, SG_NORMALS_FLAT, SG_NORMALS_SMOOTH };

/* Each attribute is a tightly packed float array of vertex_count entries;
 * all are copied. */
struct sg_mesh3d_desc {
	size_t vertex_count;
	const float *positions; /* 3 per vertex; required */
	const float *normals;   /* 3 per vertex; optional (see normals_mode) */
	const float *uv0;       /* 2 per vertex; optional (0, 0 when absent) */
	const float *uv1;       /* 2 per vertex; optional (uv0 when absent) */
	const float *colors;    /* 4 per vertex, linear RGBA in [0, 1]; optional (white) */
	const float *tangents;  /* 4 per vertex: xyz and the bitangent's sign; optional */
	const void *indices;    /* triangle list of index_type; NULL: vertices in order */
	enum sg_index_type index_type;
	size_t index_count; /* a multiple of 3 */
	enum sg_normals normals_mode;
};

/* Makes a mesh a 3D view draws with its normals; anywhere else it draws as
 * a mesh of sg_mesh_create with the same positions and uv0. Refused with
 * SG_ERR_INVALID_ARGUMENT naming what is wrong: no positions, an index past
 * the vertices, a count not a multiple of 3, a value not finite, more than
 * 2^32 - 1 vertices or indices. */
SG_API sg_mesh sg_mesh_create_3d_sized(struct sg_scene *scene, const struct sg_mesh3d_desc *desc,
                                       size_t size);
#define sg_mesh_create_3d(...) sg_mesh_create_3d_sized(__VA_ARGS__, sizeof(struct sg_mesh3d_desc))

/* The model-space box of mesh's positions: min xyz then max xyz. */
SG_API sg_result sg_mesh_get_bounds(const struct sg_scene *scene, sg_mesh mesh, float bounds[6]);

/* --- materials (glTF 2.0 metallic-roughness) ------------------------------- */

enum sg_alpha_mode { SG_ALPHA_OPAQUE = 0, SG_ALPHA_MASK, SG_ALPHA_BLEND };

/* How a material samples a texture, as glTF's samplers say; 0, the
 * default, takes the texture's own setting (sg_texture_desc.wrap, filter). */
enum sg_sampler_wrap {
	SG_SAMPLER_WRAP_TEXTURE = 0,
	SG_SAMPLER_CLAMP_TO_EDGE,
	SG_SAMPLER_REPEAT,
	SG_SAMPLER_MIRRORED_REPEAT,
};
enum sg_sampler_filter {
	SG_SAMPLER_FILTER_TEXTURE = 0,
	SG_SAMPLER_NEAREST,
	SG_SAMPLER_LINEAR,
};
struct sg_sampler {
	enum sg_sampler_wrap wrap_s, wrap_t; /* along u, along v */
	/* Textures have no mipmaps: a minification filter is one of these
	 * (glTF's *_MIPMAP_* filters are taken as their first word). */
	enum sg_sampler_filter mag_filter, min_filter;
};

/* A texture a material samples, with the uv set (0 or 1) it reads and how. */
struct sg_material_texture {
	sg_texture texture; /* SG_TEXTURE_NONE: not used */
	unsigned uv_set;
	struct sg_sampler sampler; /* zero: the texture's own wrap and filter */
};

/* Colours are linear; the texels of base_color_texture and emissive_texture
 * are sRGB-encoded (glTF), the others linear. A texture's alpha below 255
 * does not make the material blended: alpha_mode decides (as glTF). */
struct sg_material_desc {
	const char *name;
	float base_color[4];                       /* default 1, 1, 1, 1 */
	struct sg_material_texture base_color_texture;
	float metallic, roughness;                 /* default 1, 1 */
	struct sg_material_texture metallic_roughness_texture; /* B metallic, G roughness */
	struct sg_material_texture normal_texture; /* tangent space */
	float normal_scale;                        /* default 1 */
	struct sg_material_texture occlusion_texture; /* R */
	float occlusion_strength;                  /* default 1 */
	float emissive[3];                         /* default 0, 0, 0 */
	struct sg_material_texture emissive_texture;
	enum sg_alpha_mode alpha_mode;             /* default OPAQUE */
	float alpha_cutoff;                        /* MASK: default 0.5 */
	bool double_sided;                         /* default false: back faces culled */
	bool unlit;                                /* KHR_materials_unlit: base colour only */
};

/* Fills desc with glTF 2.0's defaults. */
SG_API void sg_material_desc_init_sized(struct sg_material_desc *desc, size_t size);
#define sg_material_desc_init(...)                                                                 \
	sg_material_desc_init_sized(__VA_ARGS__, sizeof(struct sg_material_desc))
/* Refused (SG_ERR_INVALID_ARGUMENT naming the field) for a factor outside its
 * range or not finite, a uv_set above 1 or an unknown sampler value of a
 * texture given, a texture of another scene or destroyed. A material is immutable: make another and
 * sg_model_set_material to change how a model looks. */
SG_API sg_material sg_material_create_sized(struct sg_scene *scene,
                                            const struct sg_material_desc *desc, size_t size);
#define sg_material_create(...)                                                                    \
	sg_material_create_sized(__VA_ARGS__, sizeof(struct sg_material_desc))
/* Models still using a destroyed material make rendering fail, as with meshes. */
SG_API sg_result sg_material_destroy(struct sg_scene *scene, sg_material material);
SG_API bool sg_material_exists(const struct sg_scene *scene, sg_material material);
/* The material model node draws with in a 3D view; SG_MATERIAL_NONE (when
 * created): unlit, its colour times its texture as in 2D, double-sided. */
SG_API sg_result sg_model_set_material(struct sg_scene *scene, sg_node node, sg_material material);
SG_API sg_material sg_model_get_material(const struct sg_scene *scene, sg_node node);

/* --- lights ----------------------------------------------------------------- */

enum sg_light_type { SG_LIGHT_DIRECTIONAL = 0, SG_LIGHT_POINT, SG_LIGHT_SPOT };

/* As KHR_lights_punctual: a light sits at its node's origin and shines along
 * its node's -Z axis, both placed by the transforms above it. It lights the
 * models of the 3D view it is under (the nearest) and no others: a light
 * under no view, or hidden (sg_node_set_visible), lights nothing. */
struct sg_light_desc {
	const char *name;
	enum sg_light_type type;
	float color[3];   /* linear; default white */
	float intensity;  /* directional: lux; point and spot: candela */
	float range;      /* point and spot: where light ends; 0 means infinite */
	float inner_cone, outer_cone; /* spot: radians, 0 <= inner < outer <= pi / 2 */
};

/* The most lights of one 3D view's own (those of a view nested in it are
 * the nested view's): attaching a light or a subtree that would make more
 * fails with SG_ERR_LIMIT, naming the light and the view (docs/3d.md). */
#define SG_VIEW3D_MAX_LIGHTS 8

SG_API sg_node sg_node_new_light_sized(struct sg_scene *scene, const struct sg_light_desc *desc,
                                       size_t size);
#define sg_node_new_light(...) sg_node_new_light_sized(__VA_ARGS__, sizeof(struct sg_light_desc))
SG_API sg_result sg_light_set_sized(struct sg_scene *scene, sg_node light,
                                    const struct sg_light_desc *desc, size_t size);
#define sg_light_set(...) sg_light_set_sized(__VA_ARGS__, sizeof(struct sg_light_desc))

/* --- 3D views ----------------------------------------------------------------- */

struct sg_view3d_desc {
	const char *name;
	/* NULL: the camera of the render (sg_renderer_render), and world
	 * coordinates from the root. Else this camera (copied), and coordinates
	 * from the view node: transforms above the view move its viewport, not
	 * its models. */
	const struct sg_camera *camera;
	/* The rectangle x, y, width, height of the view's own coordinates the
	 * picture fills (placed by the transforms above the view and the
	 * render's camera); width or height 0: the whole output. */
	float viewport[4];
	float ambient[3]; /* linear light every lit surface gets, times its diffuse colour */
};

SG_API sg_node sg_node_new_view3d_sized(struct sg_scene *scene, const struct sg_view3d_desc *desc,
                                        size_t size);
#define sg_node_new_view3d(...) sg_node_new_view3d_sized(__VA_ARGS__, sizeof(struct sg_view3d_desc))
/* Replaces the view's camera (NULL: the render's), viewport and ambient light. */
SG_API sg_result sg_view3d_set_sized(struct sg_scene *scene, sg_node view,
                                     const struct sg_view3d_desc *desc, size_t size);
#define sg_view3d_set(...) sg_view3d_set_sized(__VA_ARGS__, sizeof(struct sg_view3d_desc))

#ifdef __cplusplus
}
#endif

#endif
