/* Internal: spare RGBA8 buffers a renderer can be told to draw into, so that
 * the damage tests exercise rings of buffers (each holding an older frame)
 * on any target, as sg_output's scanout ring does on GBM. They are made only
 * by sg_renderer_use_buffer_for_testing (testing.c, outside libsg); libsg
 * keeps their storage and their cleanup, which sg_renderer_destroy runs. */
#ifndef SG_RENDER_SPARES_H
#define SG_RENDER_SPARES_H

#include <stdbool.h>

#include "../target/target.h"

/* Buffers whose age a renderer follows: 0 (the target's own) and 1 .. 7. */
#define SG_RENDER_BUFFERS 8

struct sg_render_spares {
	struct sg_gl_framebuffer fb[SG_RENDER_BUFFERS]; /* [0] unused */
	struct sg_gl_framebuffer own;                   /* the target's, while a spare is in use */
	bool saved;
};

/* Gives the target its own buffer back and deletes the spares; context current. */
void sg_render_spares_finish(struct sg_render_spares *spares, struct sg_target *target);

#endif
