/* The bidirectional algorithm (bidi.h). FriBidi resolves the levels (types,
 * paired brackets, weak and neutral types, as Pango and GTK use it); the
 * reordering of a line is rule L2 on the line's runs, which HarfBuzz has
 * each shaped in its direction (an odd level right to left), so that a
 * run's glyphs come out in visual order already. */
#include "bidi.h"

#ifdef SG_HAVE_FRIBIDI
#include <fribidi.h>
#endif

#include "../base/alloc.h"
#include "../base/error.h"

#ifdef SG_HAVE_FRIBIDI

sg_result sg_text_bidi_levels(const uint32_t *chars, size_t n, bool *rtl, uint8_t *levels)
{
	if (n == 0)
		return SG_OK;
	FriBidiCharType *types = sg_realloc_array(NULL, n, sizeof(*types));
	FriBidiBracketType *brackets = sg_realloc_array(NULL, n, sizeof(*brackets));
	FriBidiLevel *resolved = sg_realloc_array(NULL, n, sizeof(*resolved));
	sg_result result = SG_OK;
	if (!types || !brackets || !resolved) {
		result = sg_fail(SG_ERR_NO_MEMORY,
		                 "out of memory for the bidirectional levels of %zu characters", n);
		goto done;
	}
	fribidi_get_bidi_types(chars, (FriBidiStrIndex)n, types);
	fribidi_get_bracket_types(chars, (FriBidiStrIndex)n, types, brackets);
	/* FRIBIDI_PAR_WLTR / WRTL: the first strong character's direction, the
	 * guess where there is none (a string of digits in an Arabic label) */
	FriBidiParType base = *rtl ? FRIBIDI_PAR_WRTL : FRIBIDI_PAR_WLTR;
	if (!fribidi_get_par_embedding_levels_ex(types, brackets, (FriBidiStrIndex)n, &base,
	                                         resolved)) {
		result = sg_fail(SG_ERR_NO_MEMORY,
		                 "FriBidi could not resolve the levels of %zu characters", n);
		goto done;
	}
	*rtl = FRIBIDI_IS_RTL(base);
	for (size_t i = 0; i < n; i++)
		levels[i] = (uint8_t)resolved[i];
done:
	sg_free(types);
	sg_free(brackets);
	sg_free(resolved);
	return result;
}

#else /* without FriBidi: one direction per paragraph */

sg_result sg_text_bidi_levels(const uint32_t *chars, size_t n, bool *rtl, uint8_t *levels)
{
	(void)chars;
	for (size_t i = 0; i < n; i++)
		levels[i] = *rtl ? 1 : 0;
	return SG_OK;
}

#endif

void sg_text_bidi_reorder(const uint8_t *levels, size_t count, size_t *order)
{
	uint8_t highest = 0, lowest_odd = UINT8_MAX;
	for (size_t k = 0; k < count; k++) {
		order[k] = k;
		if (levels[k] > highest)
			highest = levels[k];
		if ((levels[k] & 1) && levels[k] < lowest_odd)
			lowest_odd = levels[k];
	}
	for (unsigned level = highest; level >= lowest_odd && level > 0; level--)
		for (size_t k = 0; k < count;) {
			if (levels[order[k]] < level) {
				k++;
				continue;
			}
			size_t end = k;
			while (end < count && levels[order[end]] >= level)
				end++;
			for (size_t a = k, b = end - 1; a < b; a++, b--) {
				size_t swap = order[a];
				order[a] = order[b];
				order[b] = swap;
			}
			k = end;
		}
}
