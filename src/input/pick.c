/* sg_input_pick: an input event's point handed to sg_scene_pick. */
#include <sg/input.h>

#include "../base/error.h"

sg_result sg_input_pick(struct sg_scene *scene, const struct sg_camera *camera, int width,
                        int height, const struct sg_input_event *event, struct sg_pick_hit *hit)
{
	if (!event)
		return sg_fail(SG_ERR_INVALID_ARGUMENT, "sg_input_pick: event is NULL");
	switch (event->kind) {
	case SG_INPUT_POINTER_MOTION:
	case SG_INPUT_POINTER_BUTTON:
	case SG_INPUT_POINTER_SCROLL:
	case SG_INPUT_TOUCH_DOWN:
	case SG_INPUT_TOUCH_MOTION:
		return sg_scene_pick(scene, camera, width, height, (float)event->x, (float)event->y,
		                     hit);
	default:
		return sg_fail(SG_ERR_NOT_FOUND, "sg_input_pick: a %s event has no point to pick at",
		               event->kind == SG_INPUT_KEY            ? "key"
		               : event->kind == SG_INPUT_TOUCH_UP     ? "touch-up"
		               : event->kind == SG_INPUT_TOUCH_CANCEL ? "touch-cancel"
		               : event->kind == SG_INPUT_POINTER_LEAVE ? "pointer-leave"
		                                                       : "unknown");
	}
}
