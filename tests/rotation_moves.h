/* Where each enum sg_rotation puts a pixel, written from the words of
 * sg/types.h as integer formulas (not from libsg's matrices): the expected
 * values of the rotation tests (test_rotate.c, drm/test_output.c). */
#ifndef SG_TESTS_ROTATION_MOVES_H
#define SG_TESTS_ROTATION_MOVES_H

#include <stdint.h>

#include <sg/types.h>

/* Where picture pixel (x, y) of a w x h picture lies on the panel. */
void rotation_move(enum sg_rotation rotation, int w, int h, int x, int y, int *px, int *py);

/* Pixels of the panel's image (RGBA, packed, the picture's size swapped
 * for a quarter turn) that differ by more than tolerance in a channel from
 * the picture's (w x h) moved there; the first such picture pixel in
 * *first_x, *first_y (-1 when none). */
int rotation_count_differing(enum sg_rotation rotation, const uint8_t *picture, int w, int h,
                             const uint8_t *panel, int tolerance, int *first_x, int *first_y);

#endif
