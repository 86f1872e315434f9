/* The spares' cleanup, with the renderer; making and using them is
 * testing.c's (sg_renderer_use_buffer_for_testing), outside libsg. */
#include "spares.h"

void sg_render_spares_finish(struct sg_render_spares *spares, struct sg_target *target)
{
	if (spares->saved)
		target->fb = spares->own;
	for (int i = 1; i < SG_RENDER_BUFFERS; i++)
		if (spares->fb[i].framebuffer || spares->fb[i].renderbuffer)
			sg_gl_framebuffer_finish(&spares->fb[i]);
	*spares = (struct sg_render_spares){0};
}
