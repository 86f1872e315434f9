/* The NV12 test image and its CPU reference (nv12_reference.h). */
#include "nv12_reference.h"

uint8_t nv12_y(int x, int y)
{
	return (uint8_t)(16 + (x * 3 + y * 5) % 220);
}

void nv12_cbcr(int x, int y, uint8_t *cb, uint8_t *cr)
{
	*cb = (uint8_t)(40 + ((x / 2) * 13) % 176);
	*cr = (uint8_t)(40 + ((y / 2) * 17 + (x / 2) * 5) % 176);
}

static uint8_t clamp_byte(double v)
{
	v = v * 255.0 + 0.5;
	return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

void nv12_reference(enum sg_yuv_encoding encoding, enum sg_yuv_range range, int x, int y,
                    uint8_t rgba[4])
{
	double kr = encoding == SG_YUV_BT709 ? 0.2126 : 0.299;
	double kb = encoding == SG_YUV_BT709 ? 0.0722 : 0.114, kg = 1.0 - kr - kb;
	uint8_t cb, cr;
	nv12_cbcr(x, y, &cb, &cr);
	double luma, pb, pr;
	if (range == SG_YUV_FULL) {
		luma = nv12_y(x, y) / 255.0, pb = (cb - 128) / 255.0, pr = (cr - 128) / 255.0;
	} else {
		luma = (nv12_y(x, y) - 16) / 219.0, pb = (cb - 128) / 224.0,
		pr = (cr - 128) / 224.0;
	}
	rgba[0] = clamp_byte(luma + 2.0 * (1.0 - kr) * pr);
	rgba[1] =
	    clamp_byte(luma - 2.0 * kb * (1.0 - kb) / kg * pb - 2.0 * kr * (1.0 - kr) / kg * pr);
	rgba[2] = clamp_byte(luma + 2.0 * (1.0 - kb) * pb);
	rgba[3] = 255;
}
