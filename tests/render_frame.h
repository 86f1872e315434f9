/* The render suite's tests of frame plans (render_frame.c). */
#ifndef SG_TESTS_RENDER_FRAME_H
#define SG_TESTS_RENDER_FRAME_H

#include <check.h>

void render_frame_tests(TCase *tc);

#endif
