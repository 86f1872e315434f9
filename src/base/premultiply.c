/* Straight alpha from the premultiplied pixels a render holds, for PNG files,
 * which store straight alpha. */
#include <sg/image.h>

#include <stdint.h>

void sg_image_unpremultiply(void *rgba, int width, int height, size_t stride)
{
	if (!rgba || width < 1 || height < 1)
		return;
	if (!stride)
		stride = (size_t)width * 4;
	for (int y = 0; y < height; y++) {
		uint8_t *p = (uint8_t *)rgba + stride * (size_t)y;
		for (int x = 0; x < width; x++, p += 4) {
			unsigned a = p[3];
			if (a == 255)
				continue;
			for (int c = 0; c < 3; c++) {
				/* round(c * 255 / a); a colour above its alpha (not a valid
				 * premultiplied pixel) is capped */
				unsigned v = a ? (p[c] * 255u + a / 2) / a : 0;
				p[c] = (uint8_t)(v > 255 ? 255 : v);
			}
		}
	}
}
