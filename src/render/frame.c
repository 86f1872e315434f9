/* The frame plan (frame.h): which passes a frame is made of, in order. */
#include "frame.h"

#include "../base/alloc.h"
#include "../base/error.h"

sg_result sg_frame_plan_add(struct sg_frame_plan *plan, const struct sg_pass *pass)
{
	if (!sg_grow_array((void **)&plan->passes, &plan->capacity, plan->count + 1,
	                   sizeof(*plan->passes)))
		return sg_fail(SG_ERR_NO_MEMORY, "out of memory planning a frame of %zu passes",
		               plan->count + 1);
	plan->passes[plan->count++] = *pass;
	return SG_OK;
}

static sg_result add_2d(struct sg_frame_plan *plan, const struct sg_frame_desc *desc, size_t first,
                        size_t end)
{
	return sg_frame_plan_add(plan, &(struct sg_pass){.kind = SG_PASS_2D,
	                                                 .sort = SG_SORT_PAINTER,
	                                                 .target = desc->target,
	                                                 .clear = plan->count == 0,
	                                                 .region = desc->region,
	                                                 .first = first,
	                                                 .end = end});
}

static sg_result add_view(struct sg_frame_plan *plan, const struct sg_frame_desc *desc, size_t view)
{
	return sg_frame_plan_add(plan, &(struct sg_pass){.kind = SG_PASS_VIEW3D,
	                                                 .sort = SG_SORT_DEPTH,
	                                                 .target = desc->target,
	                                                 .region = desc->region,
	                                                 .view = view});
}

/* Where a 3D view's position falls in the 2D draws (docs/3d.md): the draws
 * before it are under its picture, those after it over it. A view nested in
 * another has the outer one's position: no 2D pass between them. */
static sg_result add_draws(struct sg_frame_plan *plan, const struct sg_frame_desc *desc)
{
	size_t views = desc->views ? desc->views->count : 0, done = 0;
	sg_result result = SG_OK;
	for (size_t v = 0; v <= views && !result; v++) {
		size_t end = v < views ? desc->views->views[v].position : desc->list->count;
		/* The first clears the target, even with no draws. */
		if (end > done || v == 0)
			result = add_2d(plan, desc, done, end);
		done = end > done ? end : done;
		if (!result && v < views)
			result = add_view(plan, desc, v);
	}
	return result;
}

sg_result sg_frame_plan_build(struct sg_frame_plan *plan, const struct sg_frame_desc *desc)
{
	plan->list = desc->list;
	plan->views = desc->views;
	plan->count = 0;
	if (desc->region && !desc->region->count)
		return SG_OK; /* nothing to repaint: no pass, and no GL at all */
	struct sg_frame_desc kept = *desc;
	if (desc->region) {
		plan->region = *desc->region;
		kept.region = &plan->region;
	}
	sg_result result = add_draws(plan, &kept);
	if (!result && desc->tint)
		result = sg_frame_plan_add(plan, &(struct sg_pass){.kind = SG_PASS_TINT,
		                                                   .sort = SG_SORT_NONE,
		                                                   .target = desc->target,
		                                                   .region = kept.region});
	if (result)
		plan->count = 0;
	return result;
}

void sg_frame_plan_finish(struct sg_frame_plan *plan)
{
	sg_free(plan->passes);
	*plan = (struct sg_frame_plan){0};
}
