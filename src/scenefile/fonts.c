/* $.fonts: named fonts (a file and a pixel size). Every entry is read and its
 * path checked with the file, but a font is loaded only when a text node first
 * uses it, as a texture is made: an unused font opens no file. */
#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "../base/escape.h"
#include "read.h"
#include "texture_path.h"
#include "../base/utf8.h"
#include "../text/budget.h"

/* One bit per Unicode scalar value, for the glyphs already counted. */
#define COUNTED_BYTES (0x110000 / 8)
/* The glyphs are RGBA8 texels of the scene's atlas textures, as a texture's are. */
#define GLYPH_TEXEL_BYTES 4
#define PAGE_BYTES SG_ATLAS_PAGE_BYTES

static uint64_t pages(uint64_t glyph_bytes)
{
	return (glyph_bytes + PAGE_BYTES - 1) / PAGE_BYTES;
}

static sg_result read_font(struct sg_parse *p, const char *name, struct json_object *desc)
{
	static const char *const keys[] = {"path", "size", "fallback", "system_fallback", NULL};
	struct sg_named_font font = {.name = name};
	sg_result result = sg_read_object(p, desc);
	if (!result)
		result = sg_read_keys(p, desc, keys);
	if (!result)
		result = sg_read_string(p, desc, "path", true, &font.file_path);
	if (!result)
		result =
		    sg_read_int(p, desc, "size", true, 1, SG_SCENE_FILE_MAX_FONT_SIZE, &font.size);
	if (!result)
		result = sg_read_bool(p, desc, "system_fallback", &font.system_fallback);
	if (result)
		return result;
	font.glyph_size = font.size;
	/* The text of the path is checked now, the file only when the font is used. */
	size_t mark = sg_json_path_push_key(&p->path, "path");
	result = sg_scene_path_check(p, font.file_path, "font");
	sg_json_path_pop(&p->path, mark);
	if (!result)
		p->fonts[p->font_count++] = font;
	return result;
}

/* The index in p->fonts of the font named name, or p->font_count. */
static size_t font_index(const struct sg_parse *p, const char *name)
{
	size_t i = 0;
	while (i < p->font_count && strcmp(p->fonts[i].name, name) != 0)
		i++;
	return i;
}

/* "fallback": an array of at most SG_FONT_MAX_FALLBACKS names of other fonts
 * of $.fonts, each once; read once every font is known, as a fallback may be
 * described after the font. */
static sg_result read_fallbacks(struct sg_parse *p, struct sg_named_font *font,
                                struct json_object *list)
{
	size_t count = json_object_is_type(list, json_type_array) ? json_object_array_length(list) : 0;
	if (!json_object_is_type(list, json_type_array))
		return sg_parse_fail(p, "expected an array of font names of $.fonts");
	if (count > SG_FONT_MAX_FALLBACKS)
		return sg_parse_fail(p, "%zu fallbacks is more than %d", count,
		                     SG_FONT_MAX_FALLBACKS);
	sg_result result = SG_OK;
	for (size_t i = 0; !result && i < count; i++) {
		size_t mark = sg_json_path_push_index(&p->path, i);
		const char *name = NULL;
		result = sg_read_string_value(p, json_object_array_get_idx(list, i), &name);
		size_t index = result ? 0 : font_index(p, name);
		char shown[128];
		if (!result && index == p->font_count)
			result = sg_parse_fail(p, "unknown font \"%s\" (not in $.fonts)",
			                       sg_escape(name, SG_ESCAPE_JSON, shown, sizeof(shown)));
		if (!result && &p->fonts[index] == font)
			result = sg_parse_fail(p, "a font is not its own fallback");
		for (size_t k = 0; !result && k < font->fallback_count; k++)
			if (font->fallbacks[k] == index)
				result = sg_parse_fail(p, "\"%s\" is a fallback twice",
				                       sg_escape(name, SG_ESCAPE_JSON, shown,
				                                 sizeof(shown)));
		if (!result) {
			font->fallbacks[font->fallback_count++] = index;
			if (p->fonts[index].size > font->glyph_size)
				font->glyph_size = p->fonts[index].size;
		}
		sg_json_path_pop(&p->path, mark);
	}
	return result;
}

sg_result sg_parse_fonts(struct sg_parse *p, struct json_object *root)
{
	struct json_object *fonts = sg_read_field(root, "fonts");
	if (!fonts)
		return SG_OK;
	size_t mark = sg_json_path_push_key(&p->path, "fonts");
	sg_result result = sg_read_object(p, fonts);
	size_t count = result ? 0 : (size_t)json_object_object_length(fonts);
	if (!result && count > SG_SCENE_FILE_MAX_FONTS)
		result =
		    sg_parse_fail(p, "%zu fonts is more than %d", count, SG_SCENE_FILE_MAX_FONTS);
	if (!result && count) {
		p->fonts = sg_calloc(count, sizeof(*p->fonts));
		if (!p->fonts)
			result = sg_parse_no_memory(p);
	}
	if (!result && count) {
		json_object_object_foreach (fonts, name, desc) {
			size_t name_mark = sg_json_path_push_key(&p->path, name);
			result = read_font(p, name, desc);
			sg_json_path_pop(&p->path, name_mark);
			if (result)
				break;
		}
	}
	for (size_t i = 0; !result && i < p->font_count; i++) {
		struct json_object *list = sg_read_field(
		    json_object_object_get(fonts, p->fonts[i].name), "fallback");
		if (!list)
			continue;
		size_t name_mark = sg_json_path_push_key(&p->path, p->fonts[i].name);
		size_t list_mark = sg_json_path_push_key(&p->path, "fallback");
		result = read_fallbacks(p, &p->fonts[i], list);
		sg_json_path_pop(&p->path, list_mark);
		sg_json_path_pop(&p->path, name_mark);
	}
	sg_json_path_pop(&p->path, mark);
	return result;
}

void sg_fonts_finish(struct sg_parse *p)
{
	for (size_t i = 0; i < p->font_count; i++)
		sg_free(p->fonts[i].counted);
	sg_free(p->fonts);
}

static sg_result load(struct sg_parse *p, struct sg_named_font *font)
{
	size_t mark = sg_json_path_push_key(&p->path, "path");
	char *real = NULL;
	sg_result result = sg_font_path_resolve(p, font->file_path, &real);
	font->counted = result ? NULL : sg_calloc(1, COUNTED_BYTES);
	if (!result && !font->counted)
		result = sg_parse_no_memory(p);
	if (!result) {
		font->font = sg_font_load(p->out->scene, real, font->size);
		if (!font->font.generation)
			result = sg_parse_fail_escaped(p); /* it names the resolved path */
	}
	sg_free(real);
	sg_json_path_pop(&p->path, mark);
	return result;
}

/* Messages name the font, where its description is. */
static sg_result load_named(struct sg_parse *p, struct sg_named_font *font)
{
	struct sg_json_path node_path = p->path;
	sg_json_path_init(&p->path);
	sg_json_path_push_key(&p->path, "fonts");
	sg_json_path_push_key(&p->path, font->name);
	sg_result result = load(p, font);
	p->path = node_path;
	return result;
}

/* Loads font and its fallbacks (not theirs: a fallback's own fallbacks are
 * not consulted), and hands them to it. */
static sg_result load_with_fallbacks(struct sg_parse *p, struct sg_named_font *font)
{
	sg_result result = font->font.generation ? SG_OK : load_named(p, font);
	for (size_t i = 0; !result && i < font->fallback_count; i++) {
		struct sg_named_font *fallback = &p->fonts[font->fallbacks[i]];
		if (!fallback->font.generation)
			result = load_named(p, fallback);
		if (!result &&
		    sg_font_add_fallback(p->out->scene, font->font, fallback->font) != SG_OK)
			result = sg_parse_fail_escaped(p);
	}
	if (!result && font->system_fallback &&
	    sg_font_set_system_fallback(p->out->scene, font->font, true) != SG_OK) {
		struct sg_json_path node_path = p->path;
		sg_json_path_init(&p->path);
		sg_json_path_push_key(&p->path, "fonts");
		sg_json_path_push_key(&p->path, font->name);
		sg_json_path_push_key(&p->path, "system_fallback");
		result = sg_parse_fail_escaped(p);
		p->path = node_path;
	}
	return result;
}

sg_result sg_find_font(struct sg_parse *p, struct json_object *text, struct sg_named_font **out)
{
	const char *name = NULL;
	*out = NULL;
	sg_result result = sg_read_string(p, text, "font", true, &name);
	if (result)
		return result;
	size_t i = font_index(p, name);
	if (i == p->font_count) {
		char shown[128];
		size_t mark = sg_json_path_push_key(&p->path, "font");
		result = sg_parse_fail(p, "unknown font \"%s\" (not in $.fonts)",
		                       sg_escape(name, SG_ESCAPE_JSON, shown, sizeof(shown)));
		sg_json_path_pop(&p->path, mark);
		return result;
	}
	struct sg_named_font *font = &p->fonts[i];
	if (!font->font.generation || !font->fallbacks_given) {
		result = load_with_fallbacks(p, font);
		font->fallbacks_given = !result;
	}
	*out = font;
	return result;
}

/* What the textures cost with glyph pages estimated at estimate bytes: the
 * estimate is made before any string is drawn, so that a file cannot ask for
 * thousands of large glyphs; the pages really made may be more (strings that
 * alternate fonts each start a page), and then they are charged. */
static uint64_t charge(const struct sg_parse *p, uint64_t estimate)
{
	uint64_t made = sg_text_atlas_bytes(p->out->scene);
	return p->image_bytes + (made > estimate ? made : estimate);
}

sg_result sg_fonts_charge_atlas(struct sg_parse *p)
{
	p->atlas_charged = true;
	p->texture_bytes = charge(p, pages(p->glyph_bytes) * PAGE_BYTES);
	return sg_text_set_atlas_budget(p->out->scene,
	                                p->limits.max_texture_bytes - p->image_bytes);
}

sg_result sg_font_count_glyphs(struct sg_parse *p, struct sg_named_font *font, const char *utf8)
{
	size_t length = strlen(utf8), offset = 0;
	uint64_t fresh = 0;
	uint32_t c;
	while (offset < length && sg_utf8_next(utf8, length, &offset, &c)) {
		uint8_t bit = (uint8_t)(1u << (c % 8));
		/* Control characters (newlines) draw nothing. */
		if (c >= 0x20 && !(font->counted[c / 8] & bit)) {
			font->counted[c / 8] |= bit;
			fresh++;
		}
	}
	/* Each glyph counted as a square of the font's size (its cell in the
	 * atlas is about that), and the budget charged by whole atlas pages,
	 * which is what the text layer allocates. */
	uint64_t glyph =
	    (uint64_t)font->glyph_size * (uint64_t)font->glyph_size * GLYPH_TEXEL_BYTES;
	uint64_t before = pages(p->glyph_bytes), after = pages(p->glyph_bytes + fresh * glyph);
	uint64_t charged = charge(p, after * PAGE_BYTES);
	if (charged <= p->limits.max_texture_bytes) {
		p->texture_bytes = charged;
		p->glyph_bytes += fresh * glyph;
		return SG_OK;
	}
	return sg_parse_limit(
	    p,
	    "%llu new characters of %d px need %llu more atlas pages of 1024x1024, which would "
	    "bring the used textures to %llu bytes, over the limit of %llu texture "
	    "bytes " SG_LIMIT_HOW("max_texture_bytes", "texture-bytes"),
	    (unsigned long long)fresh, font->size, (unsigned long long)(after - before),
	    (unsigned long long)charged, (unsigned long long)p->limits.max_texture_bytes);
}
