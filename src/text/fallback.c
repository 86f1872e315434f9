/* Font fallback (sg/text.h): which font draws a character its text's font
 * lacks. The fonts added by the caller are tried in order; then, where the
 * caller enabled it, fontconfig's fonts ranked for the family. As Pango and
 * browsers do, fontconfig is asked once per font (FcFontSort, trimmed to the
 * fonts that add coverage), and each missing character is then looked up in
 * the ranked list's character sets: one FcFontSort per character would cost
 * milliseconds each, and a hostile string has thousands of distinct ones. */
#include <string.h>

#ifdef SG_HAVE_FONTCONFIG
#include <fontconfig/fontconfig.h>
#endif

#include "../base/alloc.h"
#include "../base/error.h"
#include "text_internal.h"

static bool has_char(const struct sg_scene *scene, sg_font font, uint32_t c)
{
	const struct sg_text_state *state = scene->text_state;
	if (!sg_pool_holds(&state->font_pool, font.index, font.generation) ||
	    font.scene != scene->id)
		return false;
	return FT_Get_Char_Index(state->fonts[font.index].face, c) != 0;
}

sg_result sg_font_add_fallback(struct sg_scene *scene, sg_font font, sg_font fallback)
{
	struct sg_font_data *data = sg_text_font(scene, font, "sg_font_add_fallback");
	if (!data || !sg_text_font(scene, fallback, "sg_font_add_fallback: fallback"))
		return sg_last_result();
	struct sg_font_fallbacks *fallbacks = &data->fallbacks;
	if (fallback.index == font.index)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "sg_font_add_fallback: font '%s' cannot be its own fallback",
		               data->path);
	for (size_t i = 0; i < fallbacks->added_count; i++)
		if (fallbacks->added[i].index == fallback.index &&
		    fallbacks->added[i].generation == fallback.generation)
			return sg_fail(SG_ERR_INVALID_ARGUMENT,
			               "sg_font_add_fallback: '%s' is already a fallback of '%s'",
			               scene->text_state->fonts[fallback.index].path, data->path);
	if (fallbacks->added_count == SG_FONT_MAX_FALLBACKS)
		return sg_fail(SG_ERR_LIMIT, "sg_font_add_fallback: font '%s' has %d fallbacks already",
		               data->path, SG_FONT_MAX_FALLBACKS);
	fallbacks->added[fallbacks->added_count++] = fallback;
	return SG_OK;
}

#ifdef SG_HAVE_FONTCONFIG

sg_result sg_font_set_system_fallback(struct sg_scene *scene, sg_font font, bool enabled)
{
	struct sg_font_data *data = sg_text_font(scene, font, "sg_font_set_system_fallback");
	if (!data)
		return sg_last_result();
	if (data->system_owned)
		return sg_fail(SG_ERR_INVALID_ARGUMENT,
		               "sg_font_set_system_fallback: '%s' is itself a system fallback",
		               data->path);
	data->fallbacks.system = enabled;
	return SG_OK;
}

void sg_text_fallbacks_finish(struct sg_font_fallbacks *fallbacks)
{
	if (fallbacks->ranked)
		FcFontSetDestroy(fallbacks->ranked);
	if (fallbacks->coverage)
		FcCharSetDestroy(fallbacks->coverage);
	fallbacks->ranked = fallbacks->coverage = NULL;
}

/* Asks fontconfig once for the fonts ranked for data's family and style.
 * Nothing found (no configuration, no fonts) leaves ranked NULL: the
 * characters draw .notdef, as without fallback. */
static void rank(struct sg_font_data *data)
{
	struct sg_font_fallbacks *fallbacks = &data->fallbacks;
	fallbacks->ranked_made = true;
	if (!FcInit())
		return;
	FcPattern *pattern = FcPatternCreate();
	if (!pattern)
		return;
	FT_Face face = data->face;
	if (face->family_name)
		FcPatternAddString(pattern, FC_FAMILY, (const FcChar8 *)face->family_name);
	FcPatternAddInteger(pattern, FC_WEIGHT,
	                    face->style_flags & FT_STYLE_FLAG_BOLD ? FC_WEIGHT_BOLD
	                                                           : FC_WEIGHT_REGULAR);
	FcPatternAddInteger(pattern, FC_SLANT,
	                    face->style_flags & FT_STYLE_FLAG_ITALIC ? FC_SLANT_ITALIC
	                                                             : FC_SLANT_ROMAN);
	FcResult result;
	FcCharSet *coverage = NULL;
	if (FcConfigSubstitute(NULL, pattern, FcMatchPattern)) {
		FcDefaultSubstitute(pattern);
		fallbacks->ranked = FcFontSort(NULL, pattern, FcTrue, &coverage, &result);
		fallbacks->coverage = coverage;
	}
	FcPatternDestroy(pattern);
}

/* The system font of fallbacks that covers c, loaded where it is not yet;
 * an invalid handle when none covers it or SG_FONT_MAX_SYSTEM_FALLBACKS are
 * loaded. Fails only for want of memory. */
static sg_result system_font(struct sg_scene *scene, sg_font primary, uint32_t c, sg_font *out)
{
	*out = (sg_font){0};
	struct sg_font_data *data = &scene->text_state->fonts[primary.index];
	struct sg_font_fallbacks *fallbacks = &data->fallbacks;
	if (!fallbacks->ranked_made)
		rank(data);
	FcFontSet *ranked = fallbacks->ranked;
	if (!ranked || !fallbacks->coverage || !FcCharSetHasChar(fallbacks->coverage, c))
		return SG_OK;
	for (int i = 0; i < ranked->nfont; i++) {
		FcCharSet *charset;
		FcChar8 *file;
		int face_index = 0;
		if (FcPatternGetCharSet(ranked->fonts[i], FC_CHARSET, 0, &charset) != FcResultMatch ||
		    !FcCharSetHasChar(charset, c) ||
		    FcPatternGetString(ranked->fonts[i], FC_FILE, 0, &file) != FcResultMatch)
			continue;
		FcPatternGetInteger(ranked->fonts[i], FC_INDEX, 0, &face_index);
		/* tried before: loaded (yet its cmap may lack c: fontconfig's
		 * charset and the face disagree), or failed to open (kept with an
		 * invalid handle, so that it is not opened again for each
		 * character) */
		bool tried = false;
		for (size_t k = 0; k < fallbacks->loaded_count && !tried; k++) {
			const struct sg_system_font *seen = &fallbacks->loaded[k];
			if (seen->face_index != face_index || strcmp(seen->file, (const char *)file))
				continue;
			tried = true;
			if (has_char(scene, seen->font, c)) {
				*out = seen->font;
				return SG_OK;
			}
		}
		if (tried || fallbacks->loaded_count == SG_FONT_MAX_SYSTEM_FALLBACKS)
			continue; /* a lower-ranked font tried before may still have c */
		char *copy = sg_strdup((const char *)file);
		if (!copy)
			return sg_fail(SG_ERR_NO_MEMORY, "out of memory for a fallback font's name");
		sg_font font = sg_text_font_open(scene, copy, face_index, data->pixel_size);
		/* the pool may have moved */
		data = &scene->text_state->fonts[primary.index];
		fallbacks = &data->fallbacks;
		if (!font.generation && sg_last_result() == SG_ERR_NO_MEMORY) {
			sg_free(copy);
			return SG_ERR_NO_MEMORY;
		}
		/* unreadable or not a face at this size: remembered, and the next
		 * candidate tried */
		if (font.generation)
			scene->text_state->fonts[font.index].system_owned = true;
		fallbacks->loaded[fallbacks->loaded_count++] =
		    (struct sg_system_font){.font = font, .file = copy, .face_index = face_index};
		if (font.generation && has_char(scene, font, c)) {
			*out = font;
			return SG_OK;
		}
	}
	return SG_OK;
}

#else /* without fontconfig */

sg_result sg_font_set_system_fallback(struct sg_scene *scene, sg_font font, bool enabled)
{
	if (!sg_text_font(scene, font, "sg_font_set_system_fallback"))
		return sg_last_result();
	if (!enabled)
		return SG_OK;
	return sg_fail(SG_ERR_UNSUPPORTED,
	               "sg_font_set_system_fallback: libsg was built without fontconfig "
	               "(meson option 'fontconfig')");
}

void sg_text_fallbacks_finish(struct sg_font_fallbacks *fallbacks)
{
	(void)fallbacks;
}

static sg_result system_font(struct sg_scene *scene, sg_font primary, uint32_t c, sg_font *out)
{
	(void)scene;
	(void)primary;
	(void)c;
	*out = (sg_font){0};
	return SG_OK;
}

#endif

sg_result sg_text_font_for(struct sg_scene *scene, sg_font primary, sg_font current, uint32_t c,
                           sg_font *font)
{
	*font = current;
	if (has_char(scene, primary, c)) {
		*font = primary;
		return SG_OK;
	}
	if (has_char(scene, current, c))
		return SG_OK;
	const struct sg_font_fallbacks *fallbacks = &scene->text_state->fonts[primary.index].fallbacks;
	for (size_t i = 0; i < fallbacks->added_count; i++)
		if (has_char(scene, fallbacks->added[i], c)) {
			*font = fallbacks->added[i];
			return SG_OK;
		}
	if (!fallbacks->system)
		return SG_OK;
	sg_font found;
	sg_result result = system_font(scene, primary, c, &found);
	if (!result && found.generation)
		*font = found;
	return result;
}
