/* Internal: hooks of the renderer for the tests, defined in testing.c and
 * built as sg_render_testing, a static library that tests/ and bench/ link
 * (sg_core_dep) and libsg does not: libsg.so neither exports nor holds them. */
#ifndef SG_RENDER_RENDERER_INTERNAL_H
#define SG_RENDER_RENDERER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sg/renderer.h>

/* Marks the renderer in use as a call on another thread would (false, with
 * SG_ERR_BUSY, if it already is), so that the BUSY refusal of every entry
 * point is tested without a race. */
bool sg_renderer_enter_for_testing(struct sg_renderer *renderer);
void sg_renderer_leave_for_testing(struct sg_renderer *renderer);
/* The GL caches' totals: GL textures held and their bytes. */
void sg_renderer_texture_totals_for_testing(const struct sg_renderer *renderer, size_t *live,
                                            size_t *bytes);

/* How many times the expanded batches' vertex buffer was filled (src/gl/expand.c). */
uint64_t sg_renderer_vertex_builds_for_testing(const struct sg_renderer *renderer);
/* Lists whose expanded vertices take more than above_bytes are drawn
 * streamed, chunk_vertices at a time (src/gl/expand.c), so that small test
 * scenes take that path and split into many chunks; 0: the defaults. */
void sg_renderer_stream_for_testing(struct sg_renderer *renderer, size_t above_bytes,
                                    size_t chunk_vertices);

/* Whether the last frame's opaque pass compared depths (src/gl/depth_order.c):
 * false when drawing it sorted moved no draw past another it overlaps. */
bool sg_renderer_depth_tested_for_testing(const struct sg_renderer *renderer);
/* From now on every sorted frame compares depths, as before that check. */
void sg_renderer_force_depth_for_testing(struct sg_renderer *renderer);

/* The last frame's plan (src/render/frame.h, docs/frame.md): its passes in
 * order, as the render ran them. */
struct sg_frame_plan;
const struct sg_frame_plan *sg_renderer_plan_for_testing(const struct sg_renderer *renderer);
/* Runs a plan of one pass after a render: the last render's 2D draws (all
 * of them, not a damage cut), cleared with the clear colour the renderer has
 * now, into a new offscreen texture of the output's size, read back into
 * rgba (rows of width * 4 bytes); the frame's buffer keeps what it held. */
sg_result sg_renderer_draw_offscreen_for_testing(struct sg_renderer *renderer,
                                                 const struct sg_scene *scene, void *rgba);
/* Imported textures' storage from ops instead of the target's (src/gl/import.h):
 * tests that draw NV12 where EGL imports no dma-buf (surfaceless). */
struct sg_gl_import_ops;
void sg_renderer_import_ops_for_testing(struct sg_renderer *renderer,
                                        const struct sg_gl_import_ops *ops);

/* For the threads suite: false makes sg_driver_lock_needed() answer false
 * for every renderer created afterwards, to show the crash it prevents. */
void sg_driver_lock_enable_for_testing(bool enabled);

#endif
