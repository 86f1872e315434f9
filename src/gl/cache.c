/* Uploads of scene textures and meshes, kept per renderer and keyed by the
 * resource's handle: meshes are immutable, so a matching handle means the GL
 * copy is current; a texture is current when its update serial matches too,
 * and otherwise is brought up to date by uploading the rectangles of the
 * updates it missed.
 *
 * A texture with translucent texels has two possible copies, each made at
 * its first use: premultiplied (name), which 2D drawing and models without
 * a material blend with, and straight (straight), which materials sample:
 * glTF's OPAQUE and MASK modes take a texel's colour whatever its alpha,
 * and a premultiplied byte keeps nothing of a colour of alpha 0 and little
 * of one of alpha 10 (docs/3d.md). An opaque texture's texels are the same
 * either way: name serves both. */
#include "cache.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../graph/dmabuf.h"
#include "../graph/scene_live.h"
#include "../graph/scene_view.h"
#include "check.h"
#include "import.h"
#include "material.h"

static struct sg_gl_object *slot(struct sg_gl_cache *cache, uint32_t index)
{
	if (index >= cache->capacity) {
		size_t capacity = cache->capacity ? cache->capacity : 16;
		while (capacity <= index)
			capacity *= 2;
		struct sg_gl_object *objects =
			sg_realloc_array(cache->objects, capacity, sizeof(*objects));
		if (!objects) {
			sg_fail(SG_ERR_NO_MEMORY, "out of memory growing the GL object cache");
			return NULL;
		}
		memset(objects + cache->capacity, 0, (capacity - cache->capacity) * sizeof(*objects));
		cache->objects = objects;
		cache->capacity = capacity;
	}
	return &cache->objects[index];
}

/* True when object holds a GL copy of its texture, either kind. */
static bool has_copy(const struct sg_gl_object *object)
{
	return object->name || object->straight;
}

static void delete_texture(struct sg_gl_cache *cache, struct sg_gl_object *object)
{
	if (has_copy(object)) {
		cache->live--;
		cache->bytes -= object->bytes;
	}
	if (object->name)
		glDeleteTextures(1, &object->name);
	if (object->straight)
		glDeleteTextures(1, &object->straight);
	if (object->chroma)
		glDeleteTextures(1, &object->chroma);
	for (int i = 0; i < SG_GL_IMPORT_PLANES; i++)
		if (object->images[i] && cache->import)
			cache->import->release(cache->import->data, object->images[i]);
	*object = (struct sg_gl_object){0};
}

static void delete_mesh(struct sg_gl_cache *cache, struct sg_gl_object *object)
{
	if (object->name) {
		cache->live--;
		cache->bytes -= object->bytes;
		glDeleteVertexArrays(1, &object->name);
	}
	if (object->buffer)
		glDeleteBuffers(1, &object->buffer);
	if (object->index_buffer)
		glDeleteBuffers(1, &object->index_buffer);
	*object = (struct sg_gl_object){0};
}

void sg_gl_cache_prune(struct sg_gl_cache *textures, struct sg_gl_cache *meshes,
                       const struct sg_scene *scene)
{
	uint32_t id = sg_scene_versions(scene).scene;
	for (size_t i = 0; i < textures->capacity; i++) {
		struct sg_gl_object *o = &textures->objects[i];
		if (has_copy(o) && o->scene == id &&
		    !sg_scene_texture_live(scene, (uint32_t)i, o->generation))
			delete_texture(textures, o);
	}
	sg_gl_cache_prune_meshes(meshes, scene);
}

void sg_gl_cache_prune_meshes(struct sg_gl_cache *meshes, const struct sg_scene *scene)
{
	uint32_t id = sg_scene_versions(scene).scene;
	for (size_t i = 0; i < meshes->capacity; i++) {
		struct sg_gl_object *o = &meshes->objects[i];
		if (o->name && o->scene == id &&
		    !sg_scene_mesh_live(scene, (uint32_t)i, o->generation))
			delete_mesh(meshes, o);
	}
}

/* Scene ids are never reused (until 2^32 scenes), so an entry of a dead id is
 * garbage; the current scene's own entries are pruned above. */
static void sweep(struct sg_gl_cache *cache, uint32_t current,
                  void (*delete_object)(struct sg_gl_cache *, struct sg_gl_object *))
{
	uint32_t checked = 0; /* consecutive slots mostly belong to one scene */
	bool live = true;
	for (size_t i = 0; i < cache->capacity; i++) {
		struct sg_gl_object *o = &cache->objects[i];
		if (!has_copy(o) || o->scene == current)
			continue;
		if (o->scene != checked) {
			checked = o->scene;
			live = sg_scene_id_live(checked);
		}
		if (!live)
			delete_object(cache, o);
	}
}

void sg_gl_cache_sweep_destroyed(struct sg_gl_cache *textures, struct sg_gl_cache *meshes,
                                 const struct sg_scene *scene)
{
	uint64_t destroyed = sg_scene_destroyed_count();
	if (destroyed == textures->swept_destroyed)
		return;
	textures->swept_destroyed = destroyed;
	uint32_t id = sg_scene_versions(scene).scene;
	sweep(textures, id, delete_texture);
	sweep(meshes, id, delete_mesh);
}

void sg_gl_cache_finish(struct sg_gl_cache *textures, struct sg_gl_cache *meshes)
{
	for (size_t i = 0; i < textures->capacity; i++)
		delete_texture(textures, &textures->objects[i]);
	for (size_t i = 0; i < meshes->capacity; i++)
		delete_mesh(meshes, &meshes->objects[i]);
	sg_free(textures->objects);
	sg_free(meshes->objects);
	sg_free(textures->scratch);
	*textures = (struct sg_gl_cache){0};
	*meshes = (struct sg_gl_cache){0};
}

static _Thread_local struct sg_gl_upload_stats upload_stats;

struct sg_gl_upload_stats sg_gl_upload_stats(void)
{
	return upload_stats;
}

/* Premultiplied copy of rect's texels, in the cache's scratch buffer (kept:
 * a fresh allocation of a large rectangle each frame costs page faults):
 * colour times alpha, rounded, as the blending (source-over, GL_ONE)
 * expects. NULL when out of memory. */
static uint8_t *premultiply(struct sg_gl_cache *cache, const struct sg_texture_data *t,
                            struct sg_texture_rect rect)
{
	size_t bytes = (size_t)rect.width * (size_t)rect.height * 4;
	if (!sg_grow_array((void **)&cache->scratch, &cache->scratch_capacity, bytes, 1))
		return NULL;
	uint8_t *copy = cache->scratch, *out = copy;
	for (int y = rect.y; y < rect.y + rect.height; y++) {
		const uint8_t *in = t->pixels + ((size_t)y * (size_t)t->width + (size_t)rect.x) * 4;
		for (int x = 0; x < rect.width; x++, in += 4, out += 4) {
			uint32_t a = in[3];
			for (int c = 0; c < 3; c++) {
				/* round(v / 255) for v = c * a without a division: exact for
				 * every product of two bytes, and (v + 127) / 255 as before */
				uint32_t v = in[c] * a + 128;
				out[c] = (uint8_t)((v + (v >> 8)) >> 8);
			}
			out[3] = (uint8_t)a;
		}
	}
	return copy;
}

/* Sends the texels of rect from the scene's copy to the bound texture,
 * premultiplied when the texture has translucent texels and the copy is not
 * the straight one (texels of alpha 255 are the same either way, so an
 * opaque texture is sent as it is). */
static sg_result upload_rect(struct sg_gl_cache *cache, const struct sg_texture_data *t,
                             struct sg_texture_rect rect, bool straight)
{
	bool whole = rect.width == t->width && rect.height == t->height;
	const uint8_t *first = t->pixels + ((size_t)rect.y * (size_t)t->width + (size_t)rect.x) * 4;
	uint8_t *copy = NULL;
	if (t->translucent_texels && !straight) {
		if (!(copy = premultiply(cache, t, rect)))
			return sg_fail(SG_ERR_NO_MEMORY, "out of memory premultiplying %dx%d texels",
			               rect.width, rect.height);
		first = copy;
	} else {
		/* Rows of the rectangle are t->width texels apart in the scene's copy. */
		glPixelStorei(GL_UNPACK_ROW_LENGTH, whole ? 0 : t->width);
	}
	glTexSubImage2D(GL_TEXTURE_2D, 0, rect.x, rect.y, rect.width, rect.height, GL_RGBA,
	                GL_UNSIGNED_BYTE, first);
	glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
	if (whole && copy) { /* a whole texture's copy is not kept for later rectangles */
		sg_free(cache->scratch);
		cache->scratch = NULL;
		cache->scratch_capacity = 0;
	}
	upload_stats.calls++;
	upload_stats.bytes += (uint64_t)rect.width * (uint64_t)rect.height * 4;
	upload_stats.whole += whole;
	return SG_OK;
}

static bool rect_contains(struct sg_texture_rect outer, struct sg_texture_rect inner)
{
	return inner.x >= outer.x && inner.y >= outer.y &&
	       inner.x + inner.width <= outer.x + outer.width &&
	       inner.y + inner.height <= outer.y + outer.height;
}

/* Uploads the updates of t after the serial of object's copy (straight or
 * premultiplied): their rectangles, each taken from the current texels (so
 * that the order of overlapping ones is moot) and skipped when a later one
 * covers it; the whole texture instead when the copy is further behind than
 * the history reaches, or when the rectangles add up to at least its area. */
static sg_result upload_updates(struct sg_gl_cache *cache, struct sg_gl_object *object,
                                const struct sg_texture_data *t, uint32_t index, bool straight)
{
	uint64_t *serial = straight ? &object->straight_serial : &object->update_serial;
	glBindTexture(GL_TEXTURE_2D, straight ? object->straight : object->name);
	glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
	uint64_t first = *serial + 1, last = t->update_serial;
	bool whole = last - *serial > SG_TEXTURE_UPDATE_HISTORY;
	uint64_t area = 0;
	bool skip[SG_TEXTURE_UPDATE_HISTORY] = {false};
	for (uint64_t s = first; s <= last && !whole; s++) {
		struct sg_texture_rect rect = t->updates[s % SG_TEXTURE_UPDATE_HISTORY];
		for (uint64_t later = s + 1; later <= last && !skip[s % SG_TEXTURE_UPDATE_HISTORY];
		     later++)
			skip[s % SG_TEXTURE_UPDATE_HISTORY] =
				rect_contains(t->updates[later % SG_TEXTURE_UPDATE_HISTORY], rect);
		if (!skip[s % SG_TEXTURE_UPDATE_HISTORY])
			area += (uint64_t)rect.width * (uint64_t)rect.height;
		whole = area >= (uint64_t)t->width * (uint64_t)t->height;
	}
	sg_result result = SG_OK;
	if (whole)
		result = upload_rect(cache, t, (struct sg_texture_rect){0, 0, t->width, t->height},
		                     straight);
	for (uint64_t s = first; s <= last && !whole && !result; s++) {
		if (!skip[s % SG_TEXTURE_UPDATE_HISTORY])
			result = upload_rect(cache, t, t->updates[s % SG_TEXTURE_UPDATE_HISTORY],
			                     straight);
	}
	if (result)
		return result;
	char what[128];
	snprintf(what, sizeof(what), "uploading updates %llu to %llu of texture #%u (%dx%d)",
	         (unsigned long long)first, (unsigned long long)last, index, t->width, t->height);
	result = sg_gl_check(what);
	if (result)
		return result;
	*serial = last;
	return SG_OK;
}

/* Nothing to upload: the texture samples the buffer itself, once its fence
 * has signalled (src/gl/import.h). */
static sg_result import_changed(struct sg_gl_cache *cache, struct sg_gl_object *object,
                                const struct sg_texture_data *t, uint32_t index)
{
	const GLuint names[SG_GL_IMPORT_PLANES] = {object->name, object->chroma};
	sg_result result =
	    cache->import->changed(cache->import->data, t, index, names, object->images);
	if (!result)
		object->update_serial = t->update_serial;
	return result;
}

static bool holds_current(const struct sg_gl_object *object, const struct sg_scene *scene,
                          uint32_t index)
{
	return has_copy(object) &&
	       object->scene == sg_scene_versions(scene).scene &&
	       object->generation == sg_scene_texture_generation(scene, index);
}

sg_result sg_gl_cache_texture_updates(struct sg_gl_cache *cache, const struct sg_scene *scene,
                                      uint32_t index)
{
	if (index >= cache->capacity || index >= sg_scene_versions(scene).texture_slots)
		return SG_OK;
	struct sg_gl_object *object = &cache->objects[index];
	const struct sg_texture_data *t = sg_scene_texture_slot(scene, index);
	if (!holds_current(object, scene, index))
		return SG_OK;
	if (t->import)
		return object->update_serial == t->update_serial
		           ? SG_OK
		           : import_changed(cache, object, t, index);
	sg_result result = SG_OK;
	if (object->name && object->update_serial != t->update_serial)
		result = upload_updates(cache, object, t, index, false);
	if (!result && object->straight && object->straight_serial != t->update_serial)
		result = upload_updates(cache, object, t, index, true);
	if (result)
		delete_texture(cache, object); /* uploaded whole at its next use */
	return result;
}

/* Binds texture name to target with t's filter and wrap. */
static void set_parameters(GLenum target, GLuint name, const struct sg_texture_data *t)
{
	glBindTexture(target, name);
	GLint filter = t->filter == SG_FILTER_LINEAR ? GL_LINEAR : GL_NEAREST;
	GLint wrap = t->wrap == SG_WRAP_REPEAT ? GL_REPEAT : GL_CLAMP_TO_EDGE;
	glTexParameteri(target, GL_TEXTURE_MIN_FILTER, filter);
	glTexParameteri(target, GL_TEXTURE_MAG_FILTER, filter);
	glTexParameteri(target, GL_TEXTURE_WRAP_S, wrap);
	glTexParameteri(target, GL_TEXTURE_WRAP_T, wrap);
}

/* After the storage of object's copy (straight or premultiplied) was given
 * (result so far, what: the GL work for messages): checks GL and records
 * what object now holds, or deletes it. */
static sg_result hold_texture(struct sg_gl_cache *cache, struct sg_gl_object *object,
                              const struct sg_scene *scene, uint32_t index, sg_result result,
                              const char *what, bool straight, GLuint *name)
{
	if (!result)
		result = sg_gl_check(what);
	if (result) {
		delete_texture(cache, object);
		return result;
	}
	object->scene = sg_scene_versions(scene).scene;
	object->generation = sg_scene_texture_generation(scene, index);
	uint64_t serial = sg_scene_texture_slot(scene, index)->update_serial;
	if (straight)
		object->straight_serial = serial;
	else
		object->update_serial = serial;
	*name = straight ? object->straight : object->name;
	return SG_OK;
}

/* The fresh texture of object takes the imported buffer of texture index as
 * its storage (src/gl/import.h); NV12 takes a second texture for its CbCr
 * plane (object->chroma). Row 0 of a dma-buf is its top row, as with uploads. */
static sg_result attach_import(struct sg_gl_cache *cache, struct sg_gl_object *object,
                               const struct sg_scene *scene, uint32_t index, GLuint *name)
{
	const struct sg_texture_data *t = sg_scene_texture_slot(scene, index);
	set_parameters(GL_TEXTURE_2D, object->name, t);
	if (t->import->fourcc == SG_FOURCC_NV12) {
		glGenTextures(1, &object->chroma);
		set_parameters(GL_TEXTURE_2D, object->chroma, t);
	}
	sg_result result = SG_OK;
	const GLuint names[SG_GL_IMPORT_PLANES] = {object->name, object->chroma};
	if (!cache->import)
		result = sg_fail(
		    SG_ERR_UNSUPPORTED,
		    "texture #%u is an imported dma-buf, which this renderer cannot draw", index);
	else
		result =
		    cache->import->attach(cache->import->data, t, index, names, object->images);
	char what[96];
	snprintf(what, sizeof(what), "binding imported texture #%u (%dx%d)", index, t->width,
	         t->height);
	return hold_texture(cache, object, scene, index, result, what, false, name);
}

/* Makes object's straight or premultiplied copy of texture index: its
 * storage and texels (an import's buffer for the premultiplied one). */
static sg_result make_copy(struct sg_gl_cache *cache, struct sg_gl_object *object,
                           const struct sg_scene *scene, uint32_t index, bool straight,
                           GLuint *name)
{
	const struct sg_texture_data *t = sg_scene_texture_slot(scene, index);
	if (!has_copy(object))
		cache->live++;
	GLuint *copy = straight ? &object->straight : &object->name;
	glGenTextures(1, copy);
	if (t->import)
		return attach_import(cache, object, scene, index, name);
	set_parameters(GL_TEXTURE_2D, *copy, t);
	glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
	/* Row 0 of the pixels is the top row and lands at t = 0, which is exactly
	 * what texture coordinate (0,0) = top-left asks for. */
	sg_result result = SG_OK;
	if (t->translucent_texels && !straight) { /* storage first, then the premultiplied texels */
		glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, t->width, t->height, 0, GL_RGBA,
		             GL_UNSIGNED_BYTE, NULL);
		result = upload_rect(cache, t, (struct sg_texture_rect){0, 0, t->width, t->height},
		                     false);
	} else {
		glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, t->width, t->height, 0, GL_RGBA,
		             GL_UNSIGNED_BYTE, t->pixels);
		upload_stats.calls++;
		upload_stats.bytes += (uint64_t)t->width * (uint64_t)t->height * 4;
		upload_stats.whole++;
	}
	char what[96];
	snprintf(what, sizeof(what), "uploading texture #%u (%dx%d%s)", index, t->width, t->height,
	         straight ? ", straight alpha" : "");
	if ((result = hold_texture(cache, object, scene, index, result, what, straight, name)))
		return result;
	size_t bytes = (size_t)t->width * (size_t)t->height * 4;
	object->bytes += bytes;
	cache->bytes += bytes;
	return SG_OK;
}

/* The GL texture of copy straight or premultiplied of texture index, made
 * or brought up to date. */
static sg_result cached_copy(struct sg_gl_cache *cache, const struct sg_scene *scene,
                             uint32_t index, GLint max_size, bool straight, GLuint *name)
{
	struct sg_gl_object *object = slot(cache, index);
	if (!object)
		return SG_ERR_NO_MEMORY;
	const struct sg_texture_data *t = sg_scene_texture_slot(scene, index);
	if (holds_current(object, scene, index)) {
		GLuint copy = straight ? object->straight : object->name;
		uint64_t serial = straight ? object->straight_serial : object->update_serial;
		sg_result result = SG_OK;
		if (copy && serial != t->update_serial) {
			if (t->import) {
				if ((result = import_changed(cache, object, t, index)))
					return result; /* waited for again at the next draw */
			} else if ((result = upload_updates(cache, object, t, index, straight))) {
				delete_texture(cache, object); /* uploaded whole at the next draw */
				return result;
			}
		}
		if (copy) {
			*name = copy;
			return SG_OK;
		}
	} else {
		delete_texture(cache, object);
	}
	if (t->width > max_size || t->height > max_size)
		return sg_fail(SG_ERR_GL,
		               "texture #%u is %dx%d, larger than GL_MAX_TEXTURE_SIZE %d", index,
		               t->width, t->height, max_size);
	return make_copy(cache, object, scene, index, straight, name);
}

sg_result sg_gl_cache_texture(struct sg_gl_cache *cache, const struct sg_scene *scene,
                              uint32_t index, GLint max_size, GLuint *name)
{
	return cached_copy(cache, scene, index, max_size, false, name);
}

sg_result sg_gl_cache_texture_straight(struct sg_gl_cache *cache, const struct sg_scene *scene,
                                       uint32_t index, GLint max_size, GLuint *name)
{
	const struct sg_texture_data *t = sg_scene_texture_slot(scene, index);
	/* Opaque texels are the same either way, a dma-buf has its one copy, and
	 * a record whose material computes its texels (a shape's) is never
	 * sampled for them. */
	bool straight = t->translucent_texels && !t->import &&
	                sg_gl_materials[sg_gl_material_kind_of(t)]->samples_record;
	return cached_copy(cache, scene, index, max_size, straight, name);
}

/* The attributes of the 2D program (material_textured.vert): position and uv. */
static void point_plain_attributes(const struct sg_mesh_data *m)
{
	(void)m;
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(struct sg_vertex),
	                      (const void *)offsetof(struct sg_vertex, position));
	glEnableVertexAttribArray(1);
	glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, sizeof(struct sg_vertex),
	                      (const void *)offsetof(struct sg_vertex, uv));
}

/* The GL copy of mesh index in cache: its vertex array over one buffer of
 * bytes at data, the attributes pointed by point, and its indices. */
static sg_result hold_mesh(struct sg_gl_cache *cache, const struct sg_scene *scene,
                           uint32_t index, const void *data, size_t bytes,
                           void (*point)(const struct sg_mesh_data *), const char *kind,
                           const struct sg_gl_object **mesh)
{
	struct sg_gl_object *object = slot(cache, index);
	if (!object)
		return SG_ERR_NO_MEMORY;
	const struct sg_mesh_data *m = sg_scene_mesh_slot(scene, index);
	uint32_t id = sg_scene_versions(scene).scene;
	if (object->name && object->scene == id &&
	    object->generation == sg_scene_mesh_generation(scene, index)) {
		*mesh = object;
		return SG_OK;
	}
	delete_mesh(cache, object);
	glGenVertexArrays(1, &object->name);
	cache->live++;
	glGenBuffers(1, &object->buffer);
	glBindVertexArray(object->name);
	glBindBuffer(GL_ARRAY_BUFFER, object->buffer);
	glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)bytes, data, GL_STATIC_DRAW);
	point(m);
	if (m->indices) {
		glGenBuffers(1, &object->index_buffer);
		glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, object->index_buffer);
		glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(m->index_count * sizeof(uint32_t)),
		             m->indices, GL_STATIC_DRAW);
	}
	glBindVertexArray(0);
	char what[96];
	snprintf(what, sizeof(what), "uploading %smesh #%u (%u vertices)", kind, index,
	         m->vertex_count);
	sg_result result = sg_gl_check(what);
	if (result) {
		delete_mesh(cache, object);
		return result;
	}
	object->scene = id;
	object->generation = sg_scene_mesh_generation(scene, index);
	object->indexed = m->indices != NULL;
	object->bytes = bytes + (m->indices ? m->index_count * sizeof(uint32_t) : 0);
	cache->bytes += object->bytes;
	object->count = (GLsizei)sg_mesh_draw_count(m);
	*mesh = object;
	return SG_OK;
}

sg_result sg_gl_cache_mesh(struct sg_gl_cache *cache, const struct sg_scene *scene,
                           uint32_t index, const struct sg_gl_object **mesh)
{
	const struct sg_mesh_data *m = sg_scene_mesh_slot(scene, index);
	return hold_mesh(cache, scene, index, m->vertices, m->vertex_count * sizeof(struct sg_vertex),
	                 point_plain_attributes, "", mesh);
}

/* The attributes of a 3D view's draw (material_solid.vert) from a mesh's
 * interleaved 3D data, or from its plain vertices (positions and uv only). */
static void point_solid_attributes(const struct sg_mesh_data *m)
{
	const struct sg_mesh_solid *s = m->solid;
	for (GLuint location = 0; location < 6; location++)
		glDisableVertexAttribArray(location);
	if (!s) { /* normals and the rest: the generic values draw3d.c sets */
		GLsizei stride = sizeof(struct sg_vertex);
		glEnableVertexAttribArray(0);
		glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride,
		                      (const void *)offsetof(struct sg_vertex, position));
		for (GLuint location = 2; location <= 3; location++) { /* uv1 is uv0 */
			glEnableVertexAttribArray(location);
			glVertexAttribPointer(location, 2, GL_FLOAT, GL_FALSE, stride,
			                      (const void *)offsetof(struct sg_vertex, uv));
		}
		return;
	}
	GLsizei stride = (GLsizei)(s->stride * sizeof(float));
	struct {
		GLuint location;
		GLint size;
		unsigned offset;
	} a[] = {{0, 3, 0},         {1, 3, s->normal}, {2, 2, s->uv0},
	         {3, 2, s->uv1 ? s->uv1 : s->uv0}, {4, 4, s->color}, {5, 4, s->tangent}};
	for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++) {
		if (i >= 4 && !a[i].offset)
			continue;
		glEnableVertexAttribArray(a[i].location);
		glVertexAttribPointer(a[i].location, a[i].size, GL_FLOAT, GL_FALSE, stride,
		                      (const void *)(a[i].offset * sizeof(float)));
	}
}

sg_result sg_gl_cache_solid(struct sg_gl_cache *cache, const struct sg_scene *scene,
                            uint32_t index, const struct sg_gl_object **mesh)
{
	const struct sg_mesh_data *m = sg_scene_mesh_slot(scene, index);
	if (!m->solid)
		return hold_mesh(cache, scene, index, m->vertices,
		                 m->vertex_count * sizeof(struct sg_vertex), point_solid_attributes,
		                 "3D ", mesh);
	return hold_mesh(cache, scene, index, m->solid->data,
	                 (size_t)m->vertex_count * m->solid->stride * sizeof(float),
	                 point_solid_attributes, "3D ", mesh);
}
