/* The renderer's hooks for the tests (renderer_internal.h): built as
 * sg_render_testing, a static library that the tests and the benchmark link
 * and libsg does not. */
#include "../gl/expand.h"
#include "driver_lock.h"
#include "renderer_internal.h"
#include "renderer_state.h"

bool sg_renderer_enter_for_testing(struct sg_renderer *renderer)
{
	return sg_renderer_enter(renderer, "sg_renderer_enter_for_testing");
}

void sg_renderer_leave_for_testing(struct sg_renderer *renderer)
{
	sg_renderer_leave(renderer);
}

void sg_renderer_texture_totals_for_testing(const struct sg_renderer *renderer, size_t *live,
                                            size_t *bytes)
{
	*live = renderer->gl.textures.live;
	*bytes = renderer->gl.textures.bytes;
}

uint64_t sg_renderer_vertex_builds_for_testing(const struct sg_renderer *renderer)
{
	return renderer->gl.expanded.vertex_builds;
}

void sg_renderer_stream_for_testing(struct sg_renderer *renderer, size_t above_bytes,
                                    size_t chunk_vertices)
{
	renderer->gl.expanded.stream_above = above_bytes;
	renderer->gl.expanded.chunk_vertices = chunk_vertices;
	renderer->gl.expanded.chunk_ready = false; /* sized again at the next chunk */
	sg_gl_expand_bins_finish(&renderer->gl.expanded); /* and the batches */
}

bool sg_renderer_depth_tested_for_testing(const struct sg_renderer *renderer)
{
	return renderer->gl.depth.needed;
}

bool sg_renderer_frag_depth_for_testing(const struct sg_renderer *renderer)
{
	return renderer->gl.frag_depth;
}

void sg_renderer_force_depth_for_testing(struct sg_renderer *renderer)
{
	renderer->gl.depth.forced = true;
}

void sg_renderer_import_ops_for_testing(struct sg_renderer *renderer,
                                        const struct sg_gl_import_ops *ops)
{
	renderer->gl.textures.import = ops;
}

void sg_driver_lock_enable_for_testing(bool enabled)
{
	atomic_store(&sg_driver_lock_enabled, enabled);
}
