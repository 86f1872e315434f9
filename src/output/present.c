/* Presenting: the next free buffer of the ring is rendered and committed
 * (atomic: one non-blocking commit with a page-flip event, ALLOW_MODESET on
 * the first only; legacy: drmModeSetCrtc once, then drmModePageFlip). While
 * a flip is pending the next frame waits in the ring, and the flip's
 * completion (read from the fd by dispatch) commits it.
 *
 * Damage: the ring keeps each slot's (src/ring/ring.h): what changed in it
 * since the frame it last held. The copy path copies only that into its dumb
 * buffer, and atomic page flips pass it as the plane's FB_DAMAGE_CLIPS. That
 * is a superset of the frame damage the uAPI asks for, and what drivers that
 * upload per buffer (virtio-gpu, vmwgfx: before Linux 6.8 they used the clips
 * even when the framebuffer changed) need to stay right. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <xf86drm.h>

#include "../base/error.h"
#include "../base/log.h"
#include "output_internal.h"

static sg_result commit_failed(struct sg_output *output, const char *what)
{
	int error = errno;
	const struct sg_output_choice *choice = &output->choice;
	return sg_fail(SG_ERR_DEVICE, "%s on CRTC %u, plane %u for %s on %s failed: %s%s", what,
	               choice->crtc_id, choice->plane_id, choice->connector, choice->node,
	               strerror(error),
	               error == EACCES ? " (DRM master held by another process?)" : "");
}

static void add(drmModeAtomicReqPtr request, uint32_t object, uint32_t property, uint64_t value)
{
	drmModeAtomicAddProperty(request, object, property, value);
}

/* FB_DAMAGE_CLIPS of a page flip: a blob of the buffer's clips, 0 (no
 * clips: the whole plane) when all of it changed. Returns the blob, which
 * the caller destroys once the commit is made or refused. */
static uint32_t add_damage(struct sg_output *output, drmModeAtomicReqPtr request,
                           const struct sg_ring_slot *slot)
{
	/* Nothing changed: one pixel, since a blob cannot be empty and no blob
	 * means everything. */
	struct drm_mode_rect clips[SG_RING_MAX_CLIPS] = {{0, 0, 1, 1}};
	int count = slot->clip_count ? slot->clip_count : 1;
	for (int i = 0; i < slot->clip_count; i++) {
		const struct sg_rect *r = &slot->clips[i];
		clips[i] = (struct drm_mode_rect){r->x, r->y, r->x + r->width, r->y + r->height};
	}
	uint32_t blob = 0;
	if (count > 0 &&
	    drmModeCreatePropertyBlob(output->fd, clips, sizeof(*clips) * (size_t)count, &blob)) {
		sg_log(SG_LOG_WARNING,
		       "drmModeCreatePropertyBlob of %d damage clips on %s failed (%s): the whole "
		       "frame is flushed",
		       count, output->choice.node, strerror(errno));
		blob = 0;
	}
	if (!blob)
		count = -1;
	if (output->props.plane_fb_damage_clips)
		add(request, output->choice.plane_id, output->props.plane_fb_damage_clips, blob);
#ifdef SG_OUTPUT_TEST_HOOKS
	if (output->hooks.damage)
		output->hooks.damage(blob, clips, count, output->hooks.data);
#endif
	return blob;
}

static sg_result commit_atomic(struct sg_output *output, struct sg_ring_slot *slot,
                               bool test_only)
{
	const struct sg_output_buffer *buffer = sg_output_buffer_of(output, slot);
	const struct sg_output_choice *c = &output->choice;
	const struct sg_output_props *p = &output->props;
	drmModeAtomicReqPtr request = drmModeAtomicAlloc();
	if (!request)
		return sg_fail(SG_ERR_NO_MEMORY, "drmModeAtomicAlloc failed (out of memory) for %s on %s",
		               output->choice.connector, output->choice.node);
	bool modeset = !output->lit;
	if (modeset) {
		uint32_t w = c->mode.hdisplay, h = c->mode.vdisplay;
		add(request, c->connector_id, p->connector_crtc_id, c->crtc_id);
		add(request, c->crtc_id, p->crtc_mode_id, output->mode_blob);
		add(request, c->crtc_id, p->crtc_active, 1);
		add(request, c->plane_id, p->plane_crtc_id, c->crtc_id);
		const uint64_t src[4] = {0, 0, (uint64_t)w << 16, (uint64_t)h << 16}; /* 16.16 */
		const uint64_t dst[4] = {0, 0, w, h};
		for (int i = 0; i < 4; i++) {
			add(request, c->plane_id, p->plane_src[i], src[i]);
			add(request, c->plane_id, p->plane_crtc[i], dst[i]);
		}
	}
	add(request, c->plane_id, p->plane_fb_id, buffer->fb_id);
	if (slot->fence_fd >= 0 && p->plane_in_fence_fd)
		add(request, c->plane_id, p->plane_in_fence_fd, (uint64_t)slot->fence_fd);
	/* A modeset updates the whole plane: the kernel drops clips then. */
	uint32_t damage_blob = 0;
	if (!modeset && !test_only && (p->plane_fb_damage_clips || SG_OUTPUT_HOOK(output, damage_blobs)))
		damage_blob = add_damage(output, request, slot);
	uint32_t flags = modeset ? DRM_MODE_ATOMIC_ALLOW_MODESET : 0;
	if (test_only) {
		flags |=
		    DRM_MODE_ATOMIC_TEST_ONLY; /* no events, no fences: the kernel refuses them */
	} else {
		flags |= DRM_MODE_ATOMIC_NONBLOCK | DRM_MODE_PAGE_FLIP_EVENT;
		if (p->crtc_out_fence_ptr) {
			output->out_fence_fd = -1;
			add(request, c->crtc_id, p->crtc_out_fence_ptr,
			    (uint64_t)(uintptr_t)&output->out_fence_fd);
		}
#ifdef SG_OUTPUT_TEST_HOOKS
		if (output->hooks.commit)
			output->hooks.commit(request, output->hooks.data);
#endif
	}
	int error = drmModeAtomicCommit(output->fd, request, flags, output);
	int commit_errno = errno;
	drmModeAtomicFree(request);
	/* The plane's new state holds its own reference until it is replaced. */
	if (damage_blob)
		drmModeDestroyPropertyBlob(output->fd, damage_blob);
	errno = commit_errno;
	if (error)
		return commit_failed(output, test_only ? "atomic TEST_ONLY commit"
		                             : modeset ? "atomic modeset"
		                                       : "atomic page flip");
	return SG_OK;
}

static sg_result commit_legacy(struct sg_output *output, struct sg_ring_slot *slot)
{
	const struct sg_output_buffer *buffer = sg_output_buffer_of(output, slot);
	const struct sg_output_choice *c = &output->choice;
	if (!output->lit) {
		uint32_t connector = c->connector_id;
		if (drmModeSetCrtc(output->fd, c->crtc_id, buffer->fb_id, 0, 0, &connector, 1,
		                   (drmModeModeInfo *)&c->mode))
			return commit_failed(output, "drmModeSetCrtc");
		output->lit = true;
	}
	/* Also after the modeset, to the same buffer: its completion is the
	 * first frame's, as in the atomic path. */
	if (drmModePageFlip(output->fd, c->crtc_id, buffer->fb_id, DRM_MODE_PAGE_FLIP_EVENT,
	                    output))
		return commit_failed(output, "drmModePageFlip");
	return SG_OK;
}

sg_result sg_output_commit(struct sg_output *output, struct sg_ring_slot *slot, bool test_only)
{
	sg_result result = output->atomic ? commit_atomic(output, slot, test_only)
	                                  : commit_legacy(output, slot);
	if (test_only)
		return result;
	/* The kernel holds its own reference to the in-fence once committed. */
	if (slot->fence_fd >= 0)
		close(slot->fence_fd);
	slot->fence_fd = -1;
	if (!result) {
		output->lit = true;
		slot->state = SG_RING_PENDING;
	} else {
		/* Not shown: the screen (and a driver's copy of this buffer) holds
		 * an older frame than the damage assumes. */
		sg_ring_forget(&output->ring);
		slot->frame = 0;
	}
	return result;
}

static struct sg_ring_slot *in_state(struct sg_output *output, enum sg_ring_state state)
{
	return sg_ring_find(&output->ring, state);
}

static void flip_done(int fd, unsigned int sequence, unsigned int sec, unsigned int usec,
                      void *data)
{
	(void)fd;
	struct sg_output *output = data;
	struct sg_ring_slot *done = in_state(output, SG_RING_PENDING);
	if (!done)
		return;
	struct sg_ring_slot *old = in_state(output, SG_RING_SHOWN);
	if (old)
		old->state = SG_RING_FREE;
	done->state = SG_RING_SHOWN;
	if (output->out_fence_fd >= 0) /* signalled by now: the flip is done */
		close(output->out_fence_fd);
	output->out_fence_fd = -1;
	if (output->closing)
		return;
	struct sg_ring_slot *queued = in_state(output, SG_RING_QUEUED);
	if (queued && output->paused) { /* not ours to show now; resume repaints */
		queued->state = SG_RING_FREE;
		queued = NULL;
	}
	if (queued && sg_output_commit(output, queued, false)) {
		queued->state = SG_RING_FREE;
		output->deferred = sg_last_result();
	}
	const struct sg_output_flip flip = {
	    .frame = done->frame, .sequence = sequence, .tv_sec = sec, .tv_usec = usec};
	if (output->on_flip)
		output->on_flip(output, &flip, output->user_data);
}

sg_result sg_output_read_events(struct sg_output *output, int timeout_ms)
{
	struct pollfd pfd = {.fd = output->fd, .events = POLLIN};
	int ready = poll(&pfd, 1, timeout_ms);
	if (ready < 0 && errno == EINTR)
		return SG_OK; /* let the caller's loop see its signal flag */
	if (ready < 0)
		return sg_fail(SG_ERR_DEVICE, "poll on %s failed: %s", output->choice.node,
		               strerror(errno));
	if (ready == 0)
		return SG_OK;
	drmEventContext events = {.version = 2, .page_flip_handler = flip_done};
	if (drmHandleEvent(output->fd, &events))
		return sg_fail(SG_ERR_DEVICE, "drmHandleEvent on %s failed: %s",
		               output->choice.node, strerror(errno));
	/* A queued frame's failed commit, in this read or in another output's
	 * read of a shared fd (flip_done runs for the output an event names). */
	sg_result deferred = output->deferred;
	output->deferred = SG_OK;
	return deferred;
}

sg_result sg_output_present(struct sg_output *output, const struct sg_scene *scene,
                            const struct sg_camera *camera)
{
	if (!output || !scene)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_output_present: %s is NULL",
		               output ? "scene" : "output");
	if (output->paused)
		return sg_fail(SG_ERR_BUSY,
		               "sg_output_present: %s on %s is paused (its session is switched "
		               "away): sg_output_resume first",
		               output->choice.connector, output->choice.node);
	struct sg_ring_slot *slot = in_state(output, SG_RING_FREE);
	if (!slot || in_state(output, SG_RING_QUEUED))
		return sg_fail(
		    SG_ERR_BUSY,
		    "sg_output_present: no free buffer in the ring of %d of %s on %s (one "
		    "shown, one flipping, one queued): dispatch the flip completions first",
		    output->ring.count, output->choice.connector, output->choice.node);
	bool fence = output->info.fence == SG_OUTPUT_FENCE_NATIVE;
	sg_result result =
	    sg_ring_draw(&output->ring, slot, scene, camera, fence, "sg_output_present");
	if (result)
		return result;
	if (in_state(output, SG_RING_PENDING)) {
		slot->state = SG_RING_QUEUED;
		return SG_OK;
	}
	return sg_output_commit(output, slot, false);
}

int sg_output_get_fd(const struct sg_output *output)
{
	return output ? output->fd : -1;
}

sg_result sg_output_dispatch(struct sg_output *output)
{
	if (!output)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_output_dispatch: output is NULL");
	return sg_output_read_events(output, 0);
}

sg_result sg_output_wait(struct sg_output *output, int timeout_ms)
{
	if (!output)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_output_wait: output is NULL");
	if (!in_state(output, SG_RING_PENDING))
		return SG_OK;
	struct pollfd pfd = {.fd = output->fd, .events = POLLIN};
	int ready = poll(&pfd, 1, timeout_ms);
	if (ready < 0 && errno == EINTR)
		return SG_OK;
	if (ready == 0)
		return sg_fail(SG_ERR_BUSY,
		               "no page flip completed within %d ms on CRTC %u (%s on %s)",
		               timeout_ms, output->choice.crtc_id, output->choice.connector,
		               output->choice.node);
	return sg_output_read_events(output, 0);
}
