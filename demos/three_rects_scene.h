/* The three-rectangle reference scene (shared/scenes/three-rects.md), built
 * through the public API. Shared by the demo and the golden-image test. */
#ifndef THREE_RECTS_SCENE_H
#define THREE_RECTS_SCENE_H

#include <sg/sg.h>

#define THREE_RECTS_SIZE 256

/* Fills a 64x64 RGBA8 checkerboard of 8x8 cells, the top-left cell in colour. */
void three_rects_checkerboard(unsigned char pixels[64 * 64 * 4], unsigned char r, unsigned char g,
                              unsigned char b);

/* Returns NULL (message in sg_last_error()) on failure. */
struct sg_scene *three_rects_build(void);

#endif
