/* Pausing an output while its login session is switched away, and resuming
 * it (sg_output_pause, sg_output_resume): another session's display server
 * may take DRM master and the CRTC meanwhile, so a resume sets the mode
 * again (the next commit is a modeset, as the first was) and forgets what
 * the ring's buffers hold, so every buffer is repainted whole. */
#include <errno.h>
#include <string.h>
#include <xf86drm.h>

#include "../base/error.h"
#include "../base/log.h"
#include "output_internal.h"

sg_result sg_output_pause(struct sg_output *output)
{
	if (!output)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_output_pause: output is NULL");
	if (output->paused)
		return SG_OK;
	output->paused = true;
	/* A seat daemon that opened the node drops master itself; an output that
	 * became master gives it up here. Not master: nothing to give. */
	if (drmIsMaster(output->fd) && drmDropMaster(output->fd))
		sg_log(SG_LOG_WARNING, "sg_output_pause: drmDropMaster on %s: %s", output->choice.node,
		       strerror(errno));
	return SG_OK;
}

sg_result sg_output_resume(struct sg_output *output)
{
	if (!output)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_output_resume: output is NULL");
	if (!output->paused)
		return SG_OK;
	if (!drmIsMaster(output->fd) && drmSetMaster(output->fd))
		return sg_fail(SG_ERR_DEVICE,
		               "sg_output_resume: cannot take DRM master of %s back for %s "
		               "(another session still holds it?): drmSetMaster: %s",
		               output->choice.node, output->choice.connector, strerror(errno));
	output->paused = false;
	output->lit = false;             /* the next commit sets the mode and plane again */
	sg_ring_forget(&output->ring);   /* and every buffer is drawn whole */
	return SG_OK;
}

bool sg_output_is_paused(const struct sg_output *output)
{
	return output && output->paused;
}
