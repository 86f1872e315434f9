/* The glyph atlas: 1024 x 1024 RGBA8 textures of the scene, filled shelf by
 * shelf. Texels are (255, 255, 255, coverage) with straight alpha, so that a
 * text node's colour tints them and the renderer's premultiplied upload is
 * right; a transparent texel surrounds each glyph, so that linear filtering of
 * a scaled text node never reaches a neighbour. A text node draws from one
 * page (one texture, one draw): when a string's glyphs do not all fit in the
 * current page, they all go to a new one, and a glyph may then be on two
 * pages. A page is destroyed when no text node uses it and new glyphs go
 * elsewhere. */
#include <stdbool.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "text_internal.h"
#include FT_OUTLINE_H

#define GAP 1 /* transparent texels between glyphs and around the page's edge */

static size_t hash(uint32_t font_index, uint32_t glyph)
{
	uint32_t h = font_index * 0x9e3779b1u ^ glyph * 0x85ebca77u;
	return (size_t)(h ^ (h >> 15));
}

const struct sg_atlas_glyph *sg_atlas_find(const struct sg_atlas_page *page, sg_font font,
                                           uint32_t glyph)
{
	if (!page->glyph_capacity)
		return NULL;
	size_t mask = page->glyph_capacity - 1;
	for (size_t i = hash(font.index, glyph) & mask;; i = (i + 1) & mask) {
		const struct sg_atlas_glyph *g = &page->glyphs[i];
		if (!g->font_generation)
			return NULL;
		if (g->font_index == font.index && g->font_generation == font.generation &&
		    g->glyph == glyph)
			return g;
	}
}

static void put(struct sg_atlas_glyph *table, size_t capacity, const struct sg_atlas_glyph *glyph)
{
	size_t mask = capacity - 1;
	size_t i = hash(glyph->font_index, glyph->glyph) & mask;
	while (table[i].font_generation)
		i = (i + 1) & mask;
	table[i] = *glyph;
}

/* Keeps the table at most half full. */
static bool reserve_table(struct sg_atlas_page *page)
{
	if ((page->glyph_count + 1) * 2 <= page->glyph_capacity)
		return true;
	size_t capacity = page->glyph_capacity ? page->glyph_capacity * 2 : 256;
	struct sg_atlas_glyph *table = sg_calloc(capacity, sizeof(*table));
	if (!table)
		return false;
	for (size_t i = 0; i < page->glyph_capacity; i++)
		if (page->glyphs[i].font_generation)
			put(table, capacity, &page->glyphs[i]);
	sg_free(page->glyphs);
	page->glyphs = table;
	page->glyph_capacity = capacity;
	return true;
}

/* A place for a width x height glyph: the lowest shelf tall enough and not
 * much taller (so that small glyphs do not waste tall shelves), else a new
 * shelf. SG_ERR_LIMIT (no message) when the page is full. */
static sg_result pack(struct sg_atlas_page *page, int width, int height, int *x, int *y)
{
	struct sg_atlas_shelf *best = NULL;
	for (size_t i = 0; i < page->shelf_count; i++) {
		struct sg_atlas_shelf *s = &page->shelves[i];
		if (s->height >= height && s->height <= height + height / 2 + 2 &&
		    s->x + width + GAP <= SG_ATLAS_SIDE && (!best || s->height < best->height))
			best = s;
	}
	if (!best && page->bottom + height + GAP <= SG_ATLAS_SIDE) {
		void *shelves = page->shelves;
		if (!sg_grow_array(&shelves, &page->shelf_capacity, page->shelf_count + 1,
		                   sizeof(*page->shelves)))
			return sg_fail(SG_ERR_NO_MEMORY, "out of memory for %zu atlas shelves",
			               page->shelf_count + 1);
		page->shelves = shelves;
		best = &page->shelves[page->shelf_count++];
		*best = (struct sg_atlas_shelf){.y = page->bottom, .height = height, .x = GAP};
		page->bottom += height + GAP;
	}
	for (size_t i = 0; !best && i < page->shelf_count; i++) {
		struct sg_atlas_shelf *s =
		    &page->shelves[i]; /* any room left, when the page fills */
		if (s->height >= height && s->x + width + GAP <= SG_ATLAS_SIDE)
			best = s;
	}
	if (!best)
		return SG_ERR_LIMIT;
	*x = best->x;
	*y = best->y;
	best->x += width + GAP;
	return SG_OK;
}

sg_result sg_text_set_atlas_budget(struct sg_scene *scene, uint64_t bytes)
{
	struct sg_text_state *state = sg_text_state_get(scene);
	if (!state)
		return sg_last_result();
	state->page_budget = bytes;
	return SG_OK;
}

uint64_t sg_text_atlas_bytes(const struct sg_scene *scene)
{
	const struct sg_text_state *state = scene->text_state;
	return state ? (uint64_t)state->live_pages * SG_ATLAS_PAGE_BYTES : 0;
}

/* Each page made is charged, not an estimate: strings that alternate two
 * fonts can each need a page of their own (300 nodes: 2.5 GB). */
static sg_result new_page(struct sg_scene *scene, struct sg_text_state *state, size_t *index)
{
	uint64_t after = (uint64_t)(state->live_pages + 1) * SG_ATLAS_PAGE_BYTES;
	if (after > state->page_budget)
		return sg_fail(SG_ERR_LIMIT,
		               "a new %dx%d glyph atlas page would bring the scene's %zu pages to "
		               "%llu bytes, over their budget of %llu bytes, what a scene file's "
		               "texture budget leaves them (raise it with max_texture_bytes, "
		               "sg-render --limit texture-bytes=N)",
		               SG_ATLAS_SIDE, SG_ATLAS_SIDE, state->live_pages + 1,
		               (unsigned long long)after, (unsigned long long)state->page_budget);
	size_t i = 0;
	while (i < state->page_count && state->pages[i].texture.generation)
		i++;
	if (i == state->page_count) {
		void *pages = state->pages;
		if (!sg_grow_array(&pages, &state->page_capacity, i + 1, sizeof(*state->pages)))
			return sg_fail(SG_ERR_NO_MEMORY, "out of memory for atlas page %zu", i + 1);
		state->pages = pages;
		state->pages[state->page_count++] = (struct sg_atlas_page){0}; /* a free slot */
	}
	uint8_t *clear = sg_calloc((size_t)SG_ATLAS_SIDE * SG_ATLAS_SIDE, 4);
	if (!clear)
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory for a %dx%d glyph atlas page",
		               SG_ATLAS_SIDE, SG_ATLAS_SIDE);
	sg_texture texture =
	    sg_texture_create(scene, &(struct sg_texture_desc){.width = SG_ATLAS_SIDE,
	                                                       .height = SG_ATLAS_SIDE,
	                                                       .pixels = clear,
	                                                       .filter = SG_FILTER_LINEAR});
	sg_free(clear);
	if (!texture.generation)
		return sg_fail_prefix(sg_last_result(), "glyph atlas page: ");
	state->pages[i] = (struct sg_atlas_page){.texture = texture, .bottom = GAP};
	state->live_pages++;
	*index = i;
	return SG_OK;
}

static void free_page(struct sg_scene *scene, struct sg_text_state *state, size_t index)
{
	struct sg_atlas_page *page = &state->pages[index];
	if (page->texture.generation)
		state->live_pages--;
	if (scene)
		sg_texture_destroy(scene, page->texture);
	sg_free(page->shelves);
	sg_free(page->glyphs);
	*page = (struct sg_atlas_page){0};
}

/* The size in pixels of the bitmap FreeType would make of the loaded glyph:
 * an outline's control box rounded out to whole pixels, as its rasteriser
 * rounds it. */
static void loaded_size(FT_GlyphSlot slot, int64_t *width, int64_t *height)
{
	*width = *height = 0;
	if (slot->format == FT_GLYPH_FORMAT_OUTLINE) {
		FT_BBox box;
		FT_Outline_Get_CBox(&slot->outline, &box);
		*width = (((int64_t)box.xMax + 63) >> 6) - ((int64_t)box.xMin >> 6);
		*height = (((int64_t)box.yMax + 63) >> 6) - ((int64_t)box.yMin >> 6);
	} else if (slot->format == FT_GLYPH_FORMAT_BITMAP) {
		*width = slot->bitmap.width;
		*height = slot->bitmap.rows;
	}
}

/* Rasterises glyph of font into state->scratch as RGBA8; width 0 for a glyph
 * without pixels, or one FreeType cannot load or render (drawn as nothing).
 * The glyph's size is checked before FreeType renders it: an outline can ask
 * for a bitmap of 32767 x 32767 pixels (1 GiB, 4 GiB of RGBA scratch), which
 * no page could hold anyway. */
static sg_result rasterise(struct sg_text_state *state, const struct sg_font_data *font,
                           uint32_t glyph, struct sg_atlas_glyph *out)
{
	FT_Face face = font->face;
	if (FT_Load_Glyph(face, glyph, FT_LOAD_DEFAULT))
		return SG_OK;
	int64_t width = 0, height = 0;
	loaded_size(face->glyph, &width, &height);
	if (width > SG_ATLAS_SIDE - 2 * GAP || height > SG_ATLAS_SIDE - 2 * GAP)
		return sg_fail(SG_ERR_LIMIT,
		               "font '%s' at %d px: glyph %u is %lldx%lld pixels, larger than a "
		               "%dx%d atlas page (at most %dx%d): use a smaller font size",
		               font->path, font->pixel_size, glyph, (long long)width,
		               (long long)height, SG_ATLAS_SIDE, SG_ATLAS_SIDE,
		               SG_ATLAS_SIDE - 2 * GAP, SG_ATLAS_SIDE - 2 * GAP);
	if (FT_Render_Glyph(face->glyph, FT_RENDER_MODE_NORMAL))
		return SG_OK;
	const FT_Bitmap *bitmap = &face->glyph->bitmap;
	int columns = (int)bitmap->width, rows = (int)bitmap->rows;
	if (columns <= 0 || rows <= 0 || columns > SG_ATLAS_SIDE || rows > SG_ATLAS_SIDE)
		return SG_OK; /* nothing, or more than the box said: packing would refuse it */
	size_t bytes = (size_t)columns * (size_t)rows * 4;
	if (bytes > state->scratch_size) {
		uint8_t *scratch = sg_realloc_array(state->scratch, bytes, 1);
		if (!scratch)
			return sg_fail(SG_ERR_NO_MEMORY, "out of memory rasterising glyph %u",
			               glyph);
		state->scratch = scratch;
		state->scratch_size = bytes;
	}
	for (int y = 0; y < rows; y++) {
		const uint8_t *row = bitmap->buffer + (ptrdiff_t)y * bitmap->pitch;
		uint8_t *to = state->scratch + (size_t)y * (size_t)columns * 4;
		for (int x = 0; x < columns; x++) {
			uint8_t coverage;
			if (bitmap->pixel_mode == FT_PIXEL_MODE_MONO)
				coverage = (row[x / 8] >> (7 - x % 8)) & 1 ? 255 : 0;
			else if (bitmap->pixel_mode == FT_PIXEL_MODE_BGRA)
				coverage = row[x * 4 + 3];
			else
				coverage = row[x];
			to[x * 4] = to[x * 4 + 1] = to[x * 4 + 2] = 255;
			to[x * 4 + 3] = coverage;
		}
	}
	out->width = (uint16_t)columns;
	out->height = (uint16_t)rows;
	out->left = (int16_t)face->glyph->bitmap_left;
	out->top = (int16_t)face->glyph->bitmap_top;
	return SG_OK;
}

/* Puts glyph on page unless it is there; *full set (and SG_OK) when the page
 * has no room for it. */
static sg_result add_glyph(struct sg_scene *scene, struct sg_text_state *state, size_t index,
                           sg_font font, uint32_t glyph, bool *full)
{
	struct sg_atlas_page *page = &state->pages[index];
	if (sg_atlas_find(page, font, glyph))
		return SG_OK;
	struct sg_atlas_glyph entry = {
	    .font_index = font.index, .font_generation = font.generation, .glyph = glyph};
	if (!reserve_table(page))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory for the glyphs of an atlas page");
	sg_result result = rasterise(state, &state->fonts[font.index], glyph, &entry);
	if (result)
		return result;
	if (entry.width) {
		int x = 0, y = 0;
		result = pack(page, entry.width, entry.height, &x, &y);
		if (result == SG_ERR_LIMIT) {
			*full = true;
			return SG_OK;
		}
		if (result)
			return result;
		entry.x = (uint16_t)x;
		entry.y = (uint16_t)y;
		result = sg_texture_update(scene, page->texture, x, y, entry.width, entry.height,
		                           state->scratch, 0);
		if (result)
			return result;
	}
	put(page->glyphs, page->glyph_capacity, &entry);
	page->glyph_count++;
	return SG_OK;
}

/* Adds the glyphs of layout to page; *full set when one has no room. */
static sg_result add_all(struct sg_scene *scene, struct sg_text_state *state, size_t index,
                         const struct sg_text_layout *layout, bool *full)
{
	*full = false;
	for (size_t i = 0; i < layout->count && !*full; i++) {
		const struct sg_text_glyph *g = &layout->glyphs[i];
		sg_result result = add_glyph(scene, state, index, g->font, g->glyph, full);
		if (result)
			return result;
	}
	return SG_OK;
}

sg_result sg_atlas_place(struct sg_scene *scene, struct sg_text_state *state,
                         const struct sg_text_layout *layout, size_t *page)
{
	*page = SIZE_MAX;
	if (layout->count == 0)
		return SG_OK;
	size_t old = state->current_page;
	bool full = false;
	sg_result result;
	if (old != SIZE_MAX) {
		if ((result = add_all(scene, state, old, layout, &full)))
			return result;
		if (!full) {
			*page = old;
			return SG_OK;
		}
	}
	size_t fresh = SIZE_MAX;
	if ((result = new_page(scene, state, &fresh)))
		return result;
	result = add_all(scene, state, fresh, layout, &full);
	if (result || full) {
		free_page(scene, state, fresh);
		if (result)
			return result;
		return sg_fail(
		    SG_ERR_LIMIT,
		    "the glyphs of a string of %zu glyphs do not fit one %dx%d atlas page "
		    "(a text node draws from one page): split it into several nodes or use "
		    "a smaller font",
		    layout->count, SG_ATLAS_SIDE, SG_ATLAS_SIDE);
	}
	state->current_page = fresh;
	if (old != SIZE_MAX && state->pages[old].users == 0)
		free_page(scene, state, old);
	*page = fresh;
	return SG_OK;
}

void sg_atlas_use(struct sg_scene *scene, struct sg_text_state *state, size_t page)
{
	(void)scene;
	if (page != SIZE_MAX)
		state->pages[page].users++;
}

void sg_atlas_release(struct sg_scene *scene, struct sg_text_state *state, size_t page)
{
	if (page == SIZE_MAX)
		return;
	if (--state->pages[page].users == 0 && page != state->current_page)
		free_page(scene, state, page);
}

void sg_atlas_finish(struct sg_text_state *state)
{
	for (size_t i = 0; i < state->page_count; i++)
		free_page(NULL, state, i);
	sg_free(state->pages);
	sg_free(state->scratch);
	state->pages = NULL;
	state->scratch = NULL;
	state->page_count = state->page_capacity = 0;
}
