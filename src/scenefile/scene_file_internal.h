/* Internal: what a loaded scene file keeps (the built scene, output, camera and
 * the animated transforms), and the parsing context shared by the readers. */
#ifndef SG_SCENEFILE_INTERNAL_H
#define SG_SCENEFILE_INTERNAL_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sg/animation.h>
#include <sg/scene3d.h>
#include <sg/scene_file.h>
#include <sg/text.h>

#include "../base/side_limit.h"
#include "json_path.h"

/* Fixed limits against absurd files; docs/scene-format.md lists them. The
 * budgets a caller may raise are in struct sg_scene_file_options. */
#define SG_SCENE_FILE_MAX_SIDE SG_MAX_SIDE /* the output: what a renderer takes */
#define SG_SCENE_FILE_MAX_TEXTURE_SIDE 4096
#define SG_SCENE_FILE_MAX_FRAMES 1000000 /* keyframe numbers */
#define SG_SCENE_FILE_MAX_VERTICES 1000000
/* Each font is a face of the font library, loaded once; its size is in pixels
 * per em, sg_font_load's limit. */
#define SG_SCENE_FILE_MAX_FONTS 64
#define SG_SCENE_FILE_MAX_FONT_SIZE 1024
/* "model_file" nodes: each is imported (assimp reads its file) on its own, so
 * their number is held; the meshes and nodes they make share the importer's
 * defaults for one file (sg/model_file.h) as a total. */
#define SG_SCENE_FILE_MAX_MODEL_FILES 64
#define SG_SCENE_FILE_MAX_IMPORT_VERTICES (16u << 20)
#define SG_SCENE_FILE_MAX_IMPORT_TRIANGLES (16u << 20)
#define SG_SCENE_FILE_MAX_IMPORT_NODES 100000u

/* The defaults of struct sg_scene_file_options are in sg/scene_file.h. */

/* One value of 1 or 3 components: a constant (one key, no frames) or keyframes. */
/* Where a track's keys lie: at frames (the file's frame numbers) or at
 * times in seconds, strictly increasing either way, and the easing curve
 * from each key to the next (NULL: all linear). A constant has one key. */
struct sg_keys {
	bool timed;
	int *frames;   /* key_count, when not timed */
	float *times;  /* key_count, when timed */
	struct sg_easing *easings;
};

/* The moment a track is read at: a frame (fractional between two frames) and
 * the same moment in seconds, the file's fps apart. */
struct sg_moment {
	double frame, seconds, fps;
};

struct sg_track {
	int components;
	size_t key_count;
	struct sg_keys keys;
	float *values; /* key_count * components */
};

/* A transform given as translate / rotate / scale: its matrix is rebuilt from
 * the tracks for each frame. */
struct sg_trs_transform {
	sg_node node;
	bool has_translate, has_rotate, has_scale;
	struct sg_track translate, angle, scale; /* angle in degrees */
	float axis[3];
};

/* A node's "opacity" (any node) and a model's "color" (straight alpha),
 * constant or keyframed, set with sg_node_set_opacity / sg_model_set_color. */
struct sg_node_appearance {
	sg_node node;
	bool has_opacity, has_color;
	struct sg_track opacity, color; /* 1 and 4 components */
};

/* A text node's "string" as keyframes: a frame shows the string of the last
 * keyframe at or before it (strings are not interpolated). */
struct sg_text_track {
	sg_node node;
	size_t key_count;
	struct sg_keys keys; /* no easing: a string changes at its keys */
	char **strings; /* copies: the JSON tree is gone after the load */
};

enum sg_camera_file_kind {
	SG_CAMERA_FILE_PIXELS,
	SG_CAMERA_FILE_ORTHO,
	SG_CAMERA_FILE_PERSPECTIVE
};

struct sg_camera_file {
	enum sg_camera_file_kind kind;
	float width, height;            /* pixels: the units; 0 means the output size */
	float left, right, bottom, top; /* ortho */
	float fovy, aspect;             /* perspective: degrees; aspect 0 means the output's */
	float near_z, far_z;
	bool look_at;
	float eye[3], center[3], up[3];
};

struct sg_scene_file {
	struct sg_scene *scene;
	int width, height;
	float background[4];
	int frame_count;
	float fps; /* "fps": frames a second, for keys in seconds and springs */
	struct sg_camera_file camera;
	struct sg_trs_transform *transforms;
	size_t transform_count, transform_capacity;
	/* Only the animated properties: the constant ones were set by the load. */
	struct sg_node_appearance *appearances;
	size_t appearance_count, appearance_capacity;
	struct sg_text_track *text_tracks;
	size_t text_track_count, text_track_capacity;
};

/* A name of $.textures and how to make it. Read and checked with the file but
 * made only when a model first uses it (an unused texture costs nothing). The
 * strings point into the JSON tree, which lives as long as the parse. */
struct sg_named_texture {
	const char *name;
	int type;              /* index in the "type" names of textures.c */
	enum sg_filter filter;
	enum sg_wrap wrap;
	int width, height;     /* generated textures */
	int cell;              /* checkerboard */
	uint8_t colors[2][4];  /* solid: colors[0] */
	const char *file_path; /* png: as written in the file */
	sg_texture texture;    /* made on first use; generation 0 before */
};
/* The texture slots of a material, in the order of material_slots[]
 * (materials.c). */
#define SG_MATERIAL_SLOTS 5

/* A name of $.materials: read and checked with the file, made (with its
 * textures) when a model first uses it, as textures are. */
struct sg_named_material {
	const char *name;
	struct sg_material_desc desc; /* its textures SG_TEXTURE_NONE until made */
	struct sg_named_texture *textures[SG_MATERIAL_SLOTS]; /* NULL: slot unused */
	sg_material material; /* made on first use; generation 0 before */
};

/* A name of $.meshes and what it made. */
struct sg_named_mesh {
	const char *name;
	sg_mesh mesh;
};

/* A name of $.fonts: loaded when a text node first uses it, like a texture. */
struct sg_named_font {
	const char *name;
	const char *file_path; /* as written in the file */
	int size;              /* pixels per em */
	sg_font font;          /* loaded on first use; generation 0 before */
	/* "fallback": other fonts of $.fonts, by index, added in order when the
	 * font is loaded; "system_fallback": fontconfig's */
	size_t fallbacks[SG_FONT_MAX_FALLBACKS];
	size_t fallback_count;
	bool system_fallback;
	bool fallbacks_given; /* loaded with its fallbacks (it may be loaded as another's alone) */
	int glyph_size; /* the largest size a glyph of its text may have: its fallbacks' too */
	/* The characters whose glyphs were counted against the texture budget,
	 * one bit each (0x110000 bits), made with the font. */
	uint8_t *counted;
};

struct sg_parse {
	const char *file_name; /* the path as given, escaped, first in every message */
	const char *folder;    /* where texture paths start: "" or "dir/" */
	struct sg_scene_file_options limits; /* every field set (defaults filled in) */
	/* Charged to limits.max_texture_bytes so far: image_bytes and the larger of
	 * the glyphs' estimated pages and the atlas pages really made. */
	uint64_t texture_bytes;
	uint64_t image_bytes; /* decoded bytes of the textures made so far */
	uint64_t glyph_bytes; /* of the glyphs counted so far (the estimate counts their pages) */
	bool atlas_charged;   /* a text node was made: the scene's atlas has a budget */
	/* Where texture files may be, symlinks resolved: the scene's folder and
	 * limits.allowed_paths (allowed_real[i] is NULL until resolved). */
	char *folder_real;
	char **allowed_real;
	struct sg_json_path path;
	struct sg_scene_file *out;
	struct sg_named_texture *textures;
	size_t texture_count;
	struct sg_named_mesh *meshes;
	size_t mesh_count;
	struct sg_named_material *materials;
	size_t material_count;
	/* Vertices and indices of the generated meshes ("box", "sphere") so far,
	 * held to SG_SCENE_FILE_MAX_VERTICES in all: a few bytes of JSON each. */
	size_t generated_vertices, generated_indices;
	/* The "model_file" nodes imported so far, and what they made. */
	size_t model_file_count;
	size_t imported_vertices, imported_triangles, imported_nodes;
	/* The 3D view the nodes being read are under: 0 outside any, and how many
	 * lights the innermost one has so far. */
	int view_depth;
	int view_lights;
	struct sg_named_font *fonts;
	size_t font_count;
};

/* Sections of the file, each in its own source file. */
sg_result sg_parse_output_section(struct sg_parse *p, struct json_object *root);
sg_result sg_parse_camera(struct sg_parse *p, struct json_object *root);
/* A camera object (the top-level one's keys) into *c. */
sg_result sg_parse_camera_value(struct sg_parse *p, struct json_object *camera,
                                struct sg_camera_file *c);
/* c's matrices: a "pixels" camera without its own size takes units_width x
 * units_height, a perspective one without an aspect takes aspect. */
void sg_camera_file_build(const struct sg_camera_file *c, float units_width, float units_height,
                          float aspect, struct sg_camera *camera);
sg_result sg_parse_textures(struct sg_parse *p, struct json_object *root);
/* A model's "texture": a name of $.textures, made on its first use; without
 * one, SG_TEXTURE_NONE (the model draws its colour alone). */
sg_result sg_find_texture(struct sg_parse *p, struct json_object *model, sg_texture *texture);
/* The same for the name under key ("image" of a shape). */
sg_result sg_find_texture_at(struct sg_parse *p, struct json_object *object, const char *key,
                             sg_texture *texture);
/* The texture of $.textures named name; NULL if none. */
struct sg_named_texture *sg_texture_named(struct sg_parse *p, const char *name);
/* SG_ERR_FORMAT at p->path: name is not in $.textures. */
sg_result sg_texture_unknown(struct sg_parse *p, const char *name);
/* The texture's handle, made on its first use (messages at its $.textures entry). */
sg_result sg_texture_use(struct sg_parse *p, struct sg_named_texture *texture, sg_texture *out);
sg_result sg_parse_materials(struct sg_parse *p, struct json_object *root);
/* A model's "material": a name of $.materials, made on its first use; without
 * one, SG_MATERIAL_NONE. */
sg_result sg_find_material(struct sg_parse *p, struct json_object *model, sg_material *material);
sg_result sg_parse_meshes(struct sg_parse *p, struct json_object *root);
/* The 3D mesh types: "solid", "box", "sphere" (meshes3d.c). */
sg_result sg_make_solid(struct sg_parse *p, struct json_object *desc, sg_mesh *mesh);
sg_result sg_make_box(struct sg_parse *p, struct json_object *desc, sg_mesh *mesh);
sg_result sg_make_sphere(struct sg_parse *p, struct json_object *desc, sg_mesh *mesh);
/* Nodes of types "view3d" and "light" (nodes3d.c). */
sg_result sg_make_view3d(struct sg_parse *p, struct json_object *desc, const char *name,
                         sg_node *node);
sg_result sg_make_light(struct sg_parse *p, struct json_object *desc, const char *name,
                        sg_node *node);
/* A node of type "model_file": a transform with the model imported under it
 * (model_files.c). */
sg_result sg_make_model_file(struct sg_parse *p, struct json_object *desc, const char *name,
                             sg_node *node);
/* A transform node's "transform" key, if there is one, into node's matrix. */
sg_result sg_parse_transform_key(struct sg_parse *p, struct json_object *desc, sg_node node);
/* A model's "mesh": a name of $.meshes or an inline mesh object. */
sg_result sg_parse_mesh_ref(struct sg_parse *p, struct json_object *model, sg_mesh *mesh);
sg_result sg_parse_nodes(struct sg_parse *p, struct json_object *root);
sg_result sg_parse_fonts(struct sg_parse *p, struct json_object *root);
/* Frees what the parse keeps of $.fonts (the fonts themselves are the scene's). */
void sg_fonts_finish(struct sg_parse *p);
/* A text node's "font": a name of $.fonts, loaded on its first use. */
sg_result sg_find_font(struct sg_parse *p, struct json_object *text, struct sg_named_font **font);
/* Counts the glyphs of utf8 (valid UTF-8) that font has not counted yet
 * against the texture budget: SG_ERR_LIMIT at p->path when over it. */
sg_result sg_font_count_glyphs(struct sg_parse *p, struct sg_named_font *font, const char *utf8);
/* Charges the atlas pages the scene has made (when more than the estimate)
 * and gives its atlas the texture budget that the other textures leave:
 * before and after each text node is made, and after each texture made once
 * there is one, so that a string the animation sets later cannot make pages
 * past it either. */
sg_result sg_fonts_charge_atlas(struct sg_parse *p);
/* A node of type "text" (sg_node_new_text). */
sg_result sg_make_shape(struct sg_parse *p, struct json_object *desc, const char *name,
                        sg_node *node);
sg_result sg_make_text(struct sg_parse *p, struct json_object *desc, const char *name,
                       sg_node *node);
/* A transform's translate / rotate / scale, kept in p->out->transforms. */
sg_result sg_parse_trs(struct sg_parse *p, struct json_object *transform, sg_node node);
/* A node's "opacity" and, for a model, "color": set for frame 0, and kept in
 * p->out->appearances when keyframed. */
sg_result sg_parse_appearance(struct sg_parse *p, struct json_object *desc, sg_node node,
                              bool is_model);

/* Animation. */
/* Reads one value of a track (a constant, or a keyframe's "value") into out. */
typedef sg_result (*sg_track_reader)(struct sg_parse *p, struct json_object *value, float *out);
/* object[key]: a constant value or {"keyframes": [...]}, each value read by
 * reader into track->components floats. *present: whether key is there. */
sg_result sg_read_track(struct sg_parse *p, struct json_object *object, const char *key,
                        sg_track_reader reader, struct sg_track *track, bool *present);
void sg_track_finish(struct sg_track *track);
void sg_track_value(const struct sg_track *track, struct sg_moment at, float *value);
sg_result sg_trs_apply(struct sg_scene *scene, const struct sg_trs_transform *trs,
                       struct sg_moment at);
/* Sets the properties appearance holds to their values at a moment. */
sg_result sg_appearance_apply(struct sg_scene *scene, const struct sg_node_appearance *appearance,
                              struct sg_moment at);
void sg_appearance_finish(struct sg_node_appearance *appearance);
/* Room for count keys (all kinds: the first key decides); false when out of
 * memory. sg_keys_finish frees them. */
bool sg_keys_alloc(struct sg_keys *keys, size_t count);
void sg_keys_finish(struct sg_keys *keys);
/* The key at or before a moment (0 before the first) and, when eased is
 * not NULL, how far towards the next one it is, eased (0 at and after the
 * last). */
size_t sg_keys_find(const struct sg_keys *keys, size_t count, struct sg_moment at, float *eased);
/* One keyframe {"frame": F | "time": SECONDS, "value": V[, "easing": CURVE]}:
 * checks the object, its keys and that key i comes after key i - 1 and is of
 * the same kind; *value is its "value". easing: whether "easing" is allowed
 * (not for strings). */
sg_result sg_read_keyframe(struct sg_parse *p, struct json_object *key, struct sg_keys *keys,
                           size_t i, bool easing, struct json_object **value);
/* Sets the node's string to the one of the moment. */
sg_result sg_text_track_apply(struct sg_scene *scene, const struct sg_text_track *track,
                              struct sg_moment at);
void sg_text_track_finish(struct sg_text_track *track);

#endif
