/* The dashboard of bench/dashboard (bench/README.md): 50 cards at 1920 x
 * 1080, each a shadow, a rounded card with a border, a 32 x 32 icon, a title
 * and a value, as libsg and the hand-written program both draw it. */
#ifndef SG_BENCH_DASHBOARD_SCENE_H
#define SG_BENCH_DASHBOARD_SCENE_H

#include <stdio.h>

#define DASH_WIDTH 1920
#define DASH_HEIGHT 1080
#define DASH_COLUMNS 10
#define DASH_ROWS 5
#define DASH_CARDS (DASH_COLUMNS * DASH_ROWS)
#define DASH_CARD_W 168.0f
#define DASH_CARD_H 184.0f
#define DASH_RADIUS 12.0f
#define DASH_BORDER 1.0f
#define DASH_SHADOW_BLUR 6.0f
#define DASH_SHADOW_DY 4.0f
#define DASH_ICON 32
#define DASH_TITLE_PX 16
#define DASH_VALUE_PX 28
#define DASH_CHANGED 5 /* values replaced a frame in the live variant */

/* What changes from frame to frame: nothing; 5 values (DASH_CHANGED); or
 * every card, put under a clip of the band y in [DASH_CLIP_Y, + DASH_CLIP_H)
 * the output wide, scrolls up by dash_scroll_of(f) pixels at frame f. */
enum dash_variant { DASH_STATIC, DASH_LIVE, DASH_SCROLL };
#define DASH_CLIP_Y 336.0f
#define DASH_CLIP_H 408.0f

static inline float dash_scroll_of(int frame)
{
	return (float)(((frame + 3) * 6) % 420);
}

/* straight alpha */
static const float dash_background[4] = {0.93f, 0.94f, 0.96f, 1};
static const float dash_card[4] = {1, 1, 1, 1};
static const float dash_border[4] = {0.82f, 0.84f, 0.87f, 1};
static const float dash_shadow[4] = {0, 0, 0, 0.3f};
static const float dash_title[4] = {0.35f, 0.38f, 0.45f, 1};
static const float dash_value[4] = {0.1f, 0.12f, 0.2f, 1};

static inline void dash_card_at(int card, float *x, float *y)
{
	*x = 24.0f + (float)(card % DASH_COLUMNS) * 188.0f;
	*y = 40.0f + (float)(card / DASH_COLUMNS) * 204.0f;
}

static inline void dash_title_of(int card, char *out, size_t size)
{
	snprintf(out, size, "Sensor %02d", card + 1);
}

/* The value card shows at frame f: cards f * DASH_CHANGED .. + DASH_CHANGED - 1
 * (mod 50) change at frame f of the live variant. */
static inline void dash_value_of(int card, int frame, char *out, size_t size)
{
	unsigned v = (unsigned)(card * 7919 + frame * 104729) % 1000;
	snprintf(out, size, "%u.%u \xc2\xb0" "C", v / 10, v % 10);
}

/* The icon's RGBA8 texels (straight alpha): a ring, coloured by position. */
static inline void dash_icon(unsigned char *rgba)
{
	for (int y = 0; y < DASH_ICON; y++)
		for (int x = 0; x < DASH_ICON; x++) {
			float dx = (float)x + 0.5f - 16, dy = (float)y + 0.5f - 16;
			float d2 = dx * dx + dy * dy;
			unsigned char *p = rgba + (y * DASH_ICON + x) * 4;
			p[0] = (unsigned char)(40 + x * 6);
			p[1] = (unsigned char)(120 + y * 3);
			p[2] = 220;
			p[3] = d2 < 15 * 15 && d2 > 8 * 8 ? 255 : d2 < 16 * 16 && d2 > 7 * 7 ? 128 : 0;
		}
}

#endif
