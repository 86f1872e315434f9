/* Shaping and line layout (layout.h). Each paragraph (text between '\n') is
 * split into runs of one font (fallback.c) and one bidirectional level
 * (bidi.c), shaped once to measure it and find where lines must break, then
 * each line is shaped on its own, run by run, so that a line's glyphs
 * (ligatures, kerning, Arabic joining, mark positions) are what HarfBuzz
 * gives for exactly that line; its runs are then put in visual order. With
 * max_lines, the last line shown and lines wider than the box end in an
 * ellipsis. */
#include "layout.h"

#include <hb.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/error.h"
#include "text_internal.h"
#include "../base/utf8.h"
#include "bidi.h"

static bool is_space(uint32_t c)
{
	return c == ' ' || c == '\t';
}

/* CJK ideographs and kana: a line may break between two of them. */
static bool is_ideograph(uint32_t c)
{
	return (c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x4dbf) ||
	       (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff) ||
	       (c >= 0x20000 && c <= 0x3ffff);
}

/* Whether a line may break before the character next, after prev: after a run
 * of spaces or tabs, after a hyphen (U+002D, U+2010), after U+200B (zero width
 * space), between ideographs. A simplified UAX #14. */
static bool break_between(uint32_t prev, uint32_t next)
{
	if (is_space(prev))
		return !is_space(next);
	return prev == '-' || prev == 0x2010 || prev == 0x200b ||
	       (is_ideograph(prev) && is_ideograph(next));
}

/* A stretch of a paragraph drawn from one font (the node's or a fallback). */
struct run {
	size_t start, end;
	sg_font font;
	hb_script_t script;
	uint8_t level; /* bidirectional embedding level: odd is right to left */
};

struct paragraph {
	const char *utf8;
	size_t length; /* of the whole string: HarfBuzz sees it as context */
	size_t start, end;
	hb_segment_properties_t props;
	struct run *runs; /* the shaper's, in logical order */
	size_t run_count;
};

/* What lays out one string: the scene whose fonts it uses, the node's font,
 * one HarfBuzz buffer and the runs' scratch. */
struct shaper {
	struct sg_scene *scene;
	sg_font primary;
	hb_buffer_t *buffer;
	struct run *runs;
	size_t run_capacity;
	/* a paragraph's characters and their levels (bidi.h), and a line's
	 * runs' levels and visual order */
	uint32_t *chars;
	uint8_t *levels;
	size_t char_capacity, level_capacity;
	uint8_t *line_levels;
	size_t *line_order;
	size_t line_level_capacity, line_order_capacity;
	/* the box: max_width (26.6; 0: none), max_lines (0: any) */
	int64_t max_width;
	int max_lines;
	float ascent, line_height;
	bool more_after; /* text follows the paragraph being laid out */
	bool done;       /* max_lines reached: nothing more is laid out */
};

static const struct sg_font_data *font_data(const struct shaper *s, sg_font font)
{
	return &s->scene->text_state->fonts[font.index];
}

/* The character at *at of the paragraph's valid UTF-8, moving *at past it; at
 * the end of the string, its terminating NUL. */
static uint32_t next_char(const struct paragraph *p, size_t *at)
{
	uint32_t c = 0;
	if (!sg_utf8_next(p->utf8, p->length, at, &c))
		*at += 1;
	return c;
}

static bool reserve_glyphs(struct sg_text_layout *layout, size_t needed)
{
	void *array = layout->glyphs;
	bool ok = sg_grow_array(&array, &layout->capacity, needed, sizeof(*layout->glyphs));
	layout->glyphs = array;
	return ok;
}

static bool reserve_lines(struct sg_text_layout *layout, size_t needed)
{
	void *array = layout->line_widths;
	bool ok =
	    sg_grow_array(&array, &layout->line_capacity, needed, sizeof(*layout->line_widths));
	layout->line_widths = array;
	return ok;
}

/* Shapes [start, end) of p, which lies in one run, with that run's font. */
static void shape(struct shaper *s, const struct paragraph *p, const struct run *run, size_t start,
                  size_t end)
{
	hb_buffer_t *buffer = s->buffer;
	hb_buffer_clear_contents(buffer);
	hb_buffer_add_utf8(buffer, p->utf8, (int)p->length, (unsigned)start, (int)(end - start));
	hb_segment_properties_t props = p->props;
	if (p->run_count > 1)
		props.script = run->script;
	props.direction = run->level & 1 ? HB_DIRECTION_RTL : HB_DIRECTION_LTR;
	hb_buffer_set_segment_properties(buffer, &props);
	hb_shape(font_data(s, run->font)->hb_font, buffer, NULL, 0);
}

/* Receives each shaped span's glyphs, in visual order. */
typedef sg_result (*span_fn)(void *context, sg_font font, const hb_glyph_info_t *info,
                             const hb_glyph_position_t *pos, unsigned count);

/* Shapes [start, end) of p run by run, each run on its own (with the whole
 * string as context), and hands them to emit in visual order: the runs of
 * the line reordered by their levels (UAX #9 L2), each run's glyphs in
 * visual order as HarfBuzz gives them. */
static sg_result shape_spans(struct shaper *s, const struct paragraph *p, size_t start,
                             size_t end, span_fn emit, void *context)
{
	/* The first run ending after start, by bisection: the runs are in order
	 * and cover the paragraph, and a line's search from the first run made
	 * layout time grow with lines x runs (text alternating scripts). */
	size_t first = 0, last = p->run_count, count = 0;
	while (first < last) {
		size_t middle = first + (last - first) / 2;
		if (p->runs[middle].end <= start)
			first = middle + 1;
		else
			last = middle;
	}
	while (first + count < p->run_count && p->runs[first + count].start < end)
		count++;
	void *levels = s->line_levels, *order = s->line_order;
	bool ok = sg_grow_array(&levels, &s->line_level_capacity, count, 1) &&
	          sg_grow_array(&order, &s->line_order_capacity, count, sizeof(size_t));
	s->line_levels = levels;
	s->line_order = order;
	if (!ok)
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory ordering %zu runs", count);
	for (size_t k = 0; k < count; k++)
		s->line_levels[k] = p->runs[first + k].level;
	sg_text_bidi_reorder(s->line_levels, count, s->line_order);
	for (size_t k = 0; k < count; k++) {
		const struct run *run = &p->runs[first + s->line_order[k]];
		size_t a = run->start > start ? run->start : start;
		size_t b = run->end < end ? run->end : end;
		if (a >= b)
			continue;
		shape(s, p, run, a, b);
		unsigned glyphs;
		const hb_glyph_info_t *info = hb_buffer_get_glyph_infos(s->buffer, &glyphs);
		const hb_glyph_position_t *pos = hb_buffer_get_glyph_positions(s->buffer, NULL);
		sg_result result = emit(context, run->font, info, pos, glyphs);
		if (result)
			return result;
	}
	return SG_OK;
}

struct line_builder {
	struct sg_text_layout *layout;
	int64_t pen; /* 26.6, as hb_ft scales the font */
	float baseline;
	int line;
};

static sg_result add_glyphs(void *context, sg_font font, const hb_glyph_info_t *info,
                            const hb_glyph_position_t *pos, unsigned count)
{
	struct line_builder *b = context;
	struct sg_text_layout *layout = b->layout;
	if (!reserve_glyphs(layout, layout->count + count))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory laying out %zu glyphs",
		               layout->count + count);
	for (unsigned i = 0; i < count; i++) {
		layout->glyphs[layout->count++] = (struct sg_text_glyph){
		    .font = font,
		    .glyph = info[i].codepoint,
		    .cluster = info[i].cluster,
		    .pen_x = (float)b->pen / 64.0f,
		    .pen_y = b->baseline,
		    .x_offset = (float)pos[i].x_offset / 64.0f,
		    .y_offset = (float)pos[i].y_offset / 64.0f,
		    .x_advance = (float)pos[i].x_advance / 64.0f,
		    .line = b->line,
		};
		b->pen += pos[i].x_advance;
	}
	return SG_OK;
}

/* The ellipsis: U+2026 from the font or a fallback, else three full stops
 * of the font. */
static sg_result ellipsis_of(struct shaper *s, const char **text, sg_font *font)
{
	sg_result result = sg_text_font_for(s->scene, s->primary, s->primary, 0x2026, font);
	if (result)
		return result;
	*text = "\xe2\x80\xa6";
	if (!FT_Get_Char_Index(font_data(s, *font)->face, 0x2026)) {
		*text = "...";
		*font = s->primary;
	}
	return SG_OK;
}

/* Shapes the ellipsis in p's direction and hands its glyphs to emit, each
 * with cluster at (the byte where the text it ends was cut). */
static sg_result shape_ellipsis(struct shaper *s, const struct paragraph *p, size_t at,
                                span_fn emit, void *context)
{
	const char *text;
	sg_font font;
	sg_result result = ellipsis_of(s, &text, &font);
	if (result)
		return result;
	hb_buffer_t *buffer = s->buffer;
	hb_buffer_clear_contents(buffer);
	hb_buffer_add_utf8(buffer, text, -1, 0, -1);
	hb_buffer_set_segment_properties(buffer, &p->props);
	hb_buffer_guess_segment_properties(buffer); /* an empty paragraph has none */
	hb_shape(font_data(s, font)->hb_font, buffer, NULL, 0);
	unsigned count;
	hb_glyph_info_t *info = hb_buffer_get_glyph_infos(buffer, &count);
	const hb_glyph_position_t *pos = hb_buffer_get_glyph_positions(buffer, NULL);
	for (unsigned i = 0; i < count; i++)
		info[i].cluster = (uint32_t)at;
	return emit(context, font, info, pos, count);
}

/* Appends the line [start, end) of p, shaped, at baseline y, and after it
 * (before it, right to left) an ellipsis where asked; its width to line_widths. */
static sg_result add_line(struct sg_text_layout *layout, struct shaper *s,
                          const struct paragraph *p, size_t start, size_t end, float baseline,
                          bool ellipsis)
{
	int line = layout->extent.lines;
	if (!reserve_lines(layout, (size_t)line + 1))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory laying out %d lines", line + 1);
	struct line_builder b = {.layout = layout, .baseline = baseline, .line = line};
	bool backward = HB_DIRECTION_IS_BACKWARD(p->props.direction);
	sg_result result = SG_OK;
	if (ellipsis && backward)
		result = shape_ellipsis(s, p, end, add_glyphs, &b);
	if (!result)
		result = shape_spans(s, p, start, end, add_glyphs, &b);
	if (!result && ellipsis && !backward)
		result = shape_ellipsis(s, p, end, add_glyphs, &b);
	if (result)
		return result;
	layout->line_widths[line] = (float)b.pen / 64.0f;
	layout->extent.lines++;
	return SG_OK;
}

/* The end of [start, end) without its trailing spaces and tabs. */
static size_t trim_end(const char *utf8, size_t start, size_t end)
{
	while (end > start && (utf8[end - 1] == ' ' || utf8[end - 1] == '\t'))
		end--;
	return end;
}

/* Breaks paragraph p into lines no wider than max_width (but for words wider
 * than it, which stand alone), greedily, measuring each candidate line by the
 * advances of the paragraph shaped whole, trailing spaces left out. */
struct measure {
	int64_t *advance;
	uint8_t *starts; /* NULL, or 1 where a cluster starts */
	size_t start;
	int64_t total;
};

static sg_result add_advances(void *context, sg_font font, const hb_glyph_info_t *info,
                              const hb_glyph_position_t *pos, unsigned count)
{
	(void)font;
	struct measure *m = context;
	for (unsigned i = 0; i < count; i++) {
		if (m->advance)
			m->advance[info[i].cluster - m->start + 1] += pos[i].x_advance;
		if (m->starts)
			m->starts[info[i].cluster - m->start] = 1;
		m->total += pos[i].x_advance;
	}
	return SG_OK;
}

/* Lays out [start, text_end) of p as one line ending in an ellipsis: cut at
 * the last cluster boundary where the text (trailing spaces left out) and
 * the ellipsis fit s->max_width, or whole where there is no width. */
static sg_result add_elided(struct sg_text_layout *layout, struct shaper *s,
                            const struct paragraph *p, size_t start, size_t text_end,
                            float baseline)
{
	struct measure ellipsis = {0};
	sg_result result = shape_ellipsis(s, p, start, add_advances, &ellipsis);
	if (result)
		return result;
	if (s->max_width <= 0)
		return add_line(layout, s, p, start, trim_end(p->utf8, start, text_end), baseline,
		                true);
	size_t length = text_end - start;
	int64_t *advance = sg_calloc(length + 1, sizeof(*advance));
	uint8_t *starts = sg_calloc(length + 1, 1);
	size_t *cuts = sg_calloc(length + 2, sizeof(*cuts));
	if (!advance || !starts || !cuts) {
		sg_free(advance);
		sg_free(starts);
		sg_free(cuts);
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory cutting a %zu-byte line", length);
	}
	result = shape_spans(s, p, start, text_end, add_advances,
	                     &(struct measure){.advance = advance, .starts = starts, .start = start});
	for (size_t i = 1; i <= length; i++)
		advance[i] += advance[i - 1];
	starts[length] = 1;
	/* The cluster boundaries where the text (trailing spaces dropped) and
	 * the ellipsis fit, as measured in the paragraph shaped whole; the
	 * first, the line's start, always. */
	int64_t room = s->max_width - ellipsis.total;
	size_t count = 0;
	cuts[count++] = start;
	for (size_t i = 1; i <= length; i++) {
		size_t trimmed = trim_end(p->utf8, start, start + i);
		if (starts[i] && advance[trimmed - start] <= room && trimmed > cuts[count - 1])
			cuts[count++] = trimmed;
	}
	/* Cut, a pair kerned across the cut is no longer kerned: the line as
	 * shaped may be wider than measured. Then one cluster less, a few times. */
	size_t glyphs = layout->count;
	for (size_t k = count, tries = 0; !result && k-- > 0; tries++) {
		result = add_line(layout, s, p, start, cuts[k], baseline, true);
		int line = layout->extent.lines - 1;
		if (result || k == 0 || tries == 8 ||
		    (int64_t)llroundf(layout->line_widths[line] * 64.0f) <= s->max_width)
			break;
		layout->count = glyphs; /* take the line back */
		layout->extent.lines--;
	}
	sg_free(advance);
	sg_free(starts);
	sg_free(cuts);
	return result;
}

/* Appends the line [start, end) of p, width wide (26.6): the last of max_lines
 * (then s->done) ends in an ellipsis where text follows it (more), cut from
 * the rest of the paragraph; and with max_lines, so does a line wider than
 * max_width (a word longer than the box). */
static sg_result emit_line(struct sg_text_layout *layout, struct shaper *s,
                           const struct paragraph *p, size_t start, size_t end, bool more,
                           int64_t width)
{
	float baseline = s->ascent + (float)layout->extent.lines * s->line_height;
	bool last = s->max_lines > 0 && layout->extent.lines + 1 >= s->max_lines;
	s->done = last;
	bool cut = last && more;
	bool wide = s->max_lines > 0 && s->max_width > 0 && width > s->max_width;
	if (!cut && !wide)
		return add_line(layout, s, p, start, end, baseline, false);
	return add_elided(layout, s, p, start, cut ? p->end : end, baseline);
}

static sg_result add_wrapped(struct sg_text_layout *layout, struct shaper *s,
                             const struct paragraph *p)
{
	size_t length = p->end - p->start;
	/* advance[i]: 26.6 advance up to byte start + i, by the cluster each glyph starts */
	int64_t *advance = sg_calloc(length + 1, sizeof(*advance));
	if (!advance)
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory measuring a %zu-byte line", length);
	sg_result measured = shape_spans(s, p, p->start, p->end, add_advances,
	                                 &(struct measure){.advance = advance, .start = p->start});
	if (measured) {
		sg_free(advance);
		return measured;
	}
	for (size_t i = 1; i <= length; i++)
		advance[i] += advance[i - 1];
	int64_t limit = s->max_width;

	sg_result result = SG_OK;
	size_t line_start = p->start, fit = 0; /* fit: the furthest break that fits, 0: none yet */
	size_t at = p->start;
	uint32_t prev = next_char(p, &at);
	for (;;) {
		size_t candidate = at;
		uint32_t next = 0;
		if (at < p->end) {
			size_t after = at;
			next = next_char(p, &after);
			if (!break_between(prev, next)) {
				prev = next;
				at = after;
				continue;
			}
		}
		size_t trimmed = trim_end(p->utf8, line_start, candidate);
		int64_t width = advance[trimmed - p->start] - advance[line_start - p->start];
		if (fit == 0 || width <= limit) {
			fit = candidate;
		} else {
			size_t end = trim_end(p->utf8, line_start, fit);
			int64_t line_width =
			    advance[end - p->start] - advance[line_start - p->start];
			result = emit_line(layout, s, p, line_start, end, true, line_width);
			if (result || s->done)
				break;
			line_start = fit;
			fit = 0;
			continue; /* the same candidate, measured from the new line start */
		}
		if (candidate >= p->end) {
			size_t trimmed_end = trim_end(p->utf8, line_start, p->end);
			result = emit_line(layout, s, p, line_start, p->end, s->more_after,
			                   advance[trimmed_end - p->start] -
			                       advance[line_start - p->start]);
			break;
		}
		size_t after = at;
		prev = next_char(p, &after);
		at = after;
	}
	sg_free(advance);
	return result;
}

static bool continues_cluster(hb_unicode_funcs_t *unicode, uint32_t c);

/* The script of [start, end): that of its first character of a script of
 * its own (not common, inherited or unknown), as HarfBuzz guesses a
 * buffer's; fallback otherwise. */
static hb_script_t run_script(const struct paragraph *p, size_t start, size_t end,
                              hb_script_t fallback)
{
	hb_unicode_funcs_t *unicode = hb_unicode_funcs_get_default();
	for (size_t at = start; at < end;) {
		hb_script_t script = hb_unicode_script(unicode, next_char(p, &at));
		if (script != HB_SCRIPT_COMMON && script != HB_SCRIPT_INHERITED &&
		    script != HB_SCRIPT_UNKNOWN)
			return script;
	}
	return fallback;
}

/* The paragraph's direction and each character's level (bidi.h), into
 * p->props and s->levels; HarfBuzz's guess of the direction goes in. */
static sg_result find_levels(struct shaper *s, struct paragraph *p)
{
	size_t n = 0;
	for (size_t at = p->start; at < p->end; n++) {
		void *chars = s->chars;
		if (!sg_grow_array(&chars, &s->char_capacity, n + 1, sizeof(*s->chars)))
			return sg_fail(SG_ERR_NO_MEMORY, "out of memory for %zu characters", n + 1);
		s->chars = chars;
		s->chars[n] = next_char(p, &at);
	}
	void *levels = s->levels;
	if (!sg_grow_array(&levels, &s->level_capacity, n, 1))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory for %zu levels", n);
	s->levels = levels;
	bool rtl = HB_DIRECTION_IS_BACKWARD(p->props.direction);
	sg_result result = sg_text_bidi_levels(s->chars, n, &rtl, s->levels);
	p->props.direction = rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR;
	return result;
}

/* Splits p into runs of one font and one level each (sg_text_font_for): a
 * combining mark or joiner stays with its base character's font. */
static sg_result find_runs(struct shaper *s, struct paragraph *p)
{
	hb_unicode_funcs_t *unicode = hb_unicode_funcs_get_default();
	sg_result result = find_levels(s, p);
	if (result)
		return result;
	p->runs = s->runs;
	p->run_count = 0;
	sg_font current = s->primary;
	for (size_t at = p->start, i = 0; at < p->end; i++) {
		size_t here = at;
		uint32_t c = next_char(p, &at);
		sg_font font = current;
		uint8_t level = s->levels[i];
		if (here == p->start || !continues_cluster(unicode, c)) {
			result = sg_text_font_for(s->scene, s->primary, current, c, &font);
			if (result)
				return result;
		}
		struct run *last = p->run_count ? &s->runs[p->run_count - 1] : NULL;
		if (last && last->font.index == font.index &&
		    last->font.generation == font.generation && last->level == level) {
			last->end = at;
		} else {
			void *array = s->runs;
			if (!sg_grow_array(&array, &s->run_capacity, p->run_count + 1,
			                   sizeof(*s->runs)))
				return sg_fail(SG_ERR_NO_MEMORY, "out of memory for %zu font runs",
				               p->run_count + 1);
			s->runs = p->runs = array;
			s->runs[p->run_count++] =
			    (struct run){.start = here, .end = at, .font = font, .level = level};
		}
		current = font;
	}
	for (size_t k = 0; k < p->run_count; k++)
		s->runs[k].script =
		    run_script(p, s->runs[k].start, s->runs[k].end, p->props.script);
	return SG_OK;
}

static sg_result add_paragraph(struct sg_text_layout *layout, struct shaper *s,
                               struct paragraph *p)
{
	if (p->end == p->start)
		return emit_line(layout, s, p, p->start, p->end, s->more_after, 0);
	/* The direction and script of the whole paragraph, so that each of its
	 * lines is shaped the same way (a line of digits in Arabic stays RTL). */
	hb_buffer_t *buffer = s->buffer;
	hb_buffer_clear_contents(buffer);
	hb_buffer_add_utf8(buffer, p->utf8, (int)p->length, (unsigned)p->start,
	                   (int)(p->end - p->start));
	hb_buffer_guess_segment_properties(buffer);
	hb_buffer_get_segment_properties(buffer, &p->props);
	sg_result result = find_runs(s, p);
	if (result)
		return result;
	if (s->max_width > 0)
		return add_wrapped(layout, s, p);
	return emit_line(layout, s, p, p->start, p->end, s->more_after, 0);
}

/* Whether c continues the cluster of the character before it, as HarfBuzz
 * clusters them: a combining mark (Mn, Mc, Me), a zero width joiner or
 * non-joiner, an emoji modifier, a tag character, a halfwidth kana voicing mark. */
static bool continues_cluster(hb_unicode_funcs_t *unicode, uint32_t c)
{
	switch (hb_unicode_general_category(unicode, c)) {
	case HB_UNICODE_GENERAL_CATEGORY_NON_SPACING_MARK:
	case HB_UNICODE_GENERAL_CATEGORY_SPACING_MARK:
	case HB_UNICODE_GENERAL_CATEGORY_ENCLOSING_MARK: return true;
	default:
		return c == 0x200c || c == 0x200d || (c >= 0x1f3fb && c <= 0x1f3ff) ||
		       (c >= 0xe0020 && c <= 0xe007f) || c == 0xff9e || c == 0xff9f;
	}
}

/* SG_ERR_LIMIT when more than SG_TEXT_MAX_MARKS characters continue one
 * cluster: HarfBuzz's time grows with the square of a cluster's marks (80,000
 * after one letter took 25 s, 300,000 minutes), and no script needs more than
 * a few (Unicode's stream-safe format, UAX #15, allows 30 in a row). */
sg_result sg_text_check_marks(const char *utf8, size_t length)
{
	hb_unicode_funcs_t *unicode = hb_unicode_funcs_get_default();
	size_t offset = 0, base = 0, run = 0;
	uint32_t c;
	while (offset < length) {
		size_t at = offset;
		if (!sg_utf8_next(utf8, length, &offset, &c))
			break;
		if (!continues_cluster(unicode, c)) {
			base = at;
			run = 0;
			continue;
		}
		if (++run <= SG_TEXT_MAX_MARKS)
			continue;
		while (offset < length) { /* the whole run, for the message */
			size_t next = offset;
			if (!sg_utf8_next(utf8, length, &next, &c) ||
			    !continues_cluster(unicode, c))
				break;
			offset = next;
			run++;
		}
		return sg_fail(SG_ERR_LIMIT,
		               "%zu combining marks follow the character at byte %zu, more than "
		               "%d on one character",
		               run, base, SG_TEXT_MAX_MARKS);
	}
	return SG_OK;
}

sg_result sg_text_layout_run(struct sg_text_layout *layout, struct sg_scene *scene, sg_font primary,
                             const char *utf8, size_t length, float max_width, int max_lines,
                             enum sg_text_align align, float line_height)
{
	const struct sg_font_data *font = &scene->text_state->fonts[primary.index];
	layout->count = 0;
	layout->extent = (struct sg_text_extent){.ascent = font->ascent, .descent = font->descent};
	if (line_height <= 0)
		line_height = font->height;
	if (length > INT32_MAX)
		return sg_fail(SG_ERR_LIMIT, "a string of %zu bytes is over HarfBuzz's limit of %d",
		               length, INT32_MAX);
	sg_result checked = sg_text_check_marks(utf8, length);
	if (checked)
		return checked;
	hb_buffer_t *buffer = hb_buffer_create();
	if (!hb_buffer_allocation_successful(buffer))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory creating a HarfBuzz buffer");
	/* fallbacks loaded below may move the pool: font is not used past here */
	struct shaper s = {.scene = scene,
	                   .primary = primary,
	                   .buffer = buffer,
	                   .max_width = max_width > 0 ? (int64_t)llroundf(max_width * 64.0f) : 0,
	                   .max_lines = max_lines,
	                   .ascent = font->ascent,
	                   .line_height = line_height};
	sg_result result = SG_OK;
	for (size_t start = 0; length && start <= length && !result && !s.done;) {
		const char *newline = memchr(utf8 + start, '\n', length - start);
		size_t end = newline ? (size_t)(newline - utf8) : length;
		struct paragraph p = {.utf8 = utf8, .length = length, .start = start, .end = end};
		s.more_after = end + 1 < length;
		result = add_paragraph(layout, &s, &p);
		start = end + 1;
	}
	hb_buffer_destroy(buffer);
	sg_free(s.runs);
	sg_free(s.chars);
	sg_free(s.levels);
	sg_free(s.line_levels);
	sg_free(s.line_order);
	if (result) {
		layout->count = 0;
		layout->extent.lines = 0;
		return result;
	}
	float widest = 0;
	for (int i = 0; i < layout->extent.lines; i++)
		widest = fmaxf(widest, layout->line_widths[i]);
	layout->box_width = max_width > 0 ? max_width : widest;
	layout->extent.width = widest;
	layout->extent.height = (float)layout->extent.lines * line_height;
	if (align != SG_TEXT_ALIGN_LEFT)
		for (size_t i = 0; i < layout->count; i++) {
			struct sg_text_glyph *g = &layout->glyphs[i];
			float room = layout->box_width - layout->line_widths[g->line];
			g->pen_x += align == SG_TEXT_ALIGN_CENTER ? room / 2 : room;
		}
	return SG_OK;
}

void sg_text_layout_finish(struct sg_text_layout *layout)
{
	sg_free(layout->glyphs);
	sg_free(layout->line_widths);
	*layout = (struct sg_text_layout){0};
}

const struct sg_text_layout *sg_text_node_layout(const struct sg_scene *scene, sg_node node)
{
	if (!sg_node_exists(scene, node) || scene->kind[node.index] != SG_NODE_MODEL)
		return NULL;
	const struct sg_text *text = sg_scene_text(scene, node.index);
	return text ? &text->layout : NULL;
}
