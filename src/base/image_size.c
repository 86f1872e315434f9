/* The limits of decoded images (image_size.h). */
#include "image_size.h"

#include "error.h"
#include "side_limit.h"

sg_result sg_image_size_check(const char *shown, uint32_t width, uint32_t height,
                              uint64_t max_bytes, int *width_out, int *height_out)
{
	if (width > SG_MAX_SIDE || height > SG_MAX_SIDE)
		return sg_fail(SG_ERR_FORMAT, "'%s' is %ux%u: more than %d pixels on a side", shown,
		               width, height, SG_MAX_SIDE);
	if ((uint64_t)width * height > SG_MAX_IMAGE_PIXELS)
		return sg_fail(SG_ERR_FORMAT, "'%s' is %ux%u: more than the %u pixels allowed",
		               shown, width, height, SG_MAX_IMAGE_PIXELS);
	*width_out = (int)width;
	*height_out = (int)height;
	return (uint64_t)width * height * 4 > max_bytes ? SG_ERR_LIMIT : SG_OK;
}
