/* drmModeAddFB2 of a one-plane buffer, with an error message that names the
 * call, the size, the format and the stride. */
#include <errno.h>
#include <string.h>
#include <xf86drmMode.h>

#include "../base/error.h"
#include "kms.h"

sg_result sg_kms_add_fb(int fd, uint32_t width, uint32_t height, uint32_t fourcc, uint32_t handle,
                        uint32_t stride, uint32_t offset, uint32_t *fb_id)
{
	const uint32_t handles[4] = {handle}, strides[4] = {stride}, offsets[4] = {offset};
	if (drmModeAddFB2(fd, width, height, fourcc, handles, strides, offsets, fb_id, 0))
		return sg_fail(SG_ERR_DEVICE, "drmModeAddFB2(%ux%u, %.4s, stride %u) failed: %s", width,
		               height, (const char *)&fourcc, stride, strerror(errno));
	return SG_OK;
}
