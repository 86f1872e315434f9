/* Internal: the bidirectional algorithm (UAX #9) for one paragraph: the
 * embedding levels by FriBidi where libsg has it (meson option 'bidi'),
 * and the reordering of a line's runs into visual order. */
#ifndef SG_TEXT_BIDI_H
#define SG_TEXT_BIDI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sg/error.h>

/* Resolves the levels of the n characters of a paragraph: levels[i] for
 * chars[i]. *rtl comes in as a guess of the base direction (HarfBuzz's, from
 * the first character of a script) and goes out as the paragraph's: with
 * FriBidi, that of its first strong character (P2, P3; the guess where it has
 * none). Without FriBidi every level is the base direction's: one direction
 * per paragraph. Fails only for want of memory. */
sg_result sg_text_bidi_levels(const uint32_t *chars, size_t n, bool *rtl, uint8_t *levels);

/* Visual order (UAX #9 L2) of count runs of a line, given in logical order
 * with their levels: order[k] is the logical index of the k-th run from the
 * left. From the highest level down to the lowest odd one, each maximal
 * sequence of runs at that level or above is reversed. */
void sg_text_bidi_reorder(const uint8_t *levels, size_t count, size_t *order);

#endif
