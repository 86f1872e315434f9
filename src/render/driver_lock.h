/* Internal: a process-wide lock around GL submission, taken only on drivers
 * that crash when two contexts submit at once (Mesa 22.3's llvmpipe). */
#ifndef SG_RENDER_DRIVER_LOCK_H
#define SG_RENDER_DRIVER_LOCK_H

#include <stdatomic.h>
#include <stdbool.h>

/* True for GL_RENDERER strings of Mesa's software rasterisers. */
bool sg_driver_lock_needed(const char *gl_renderer);
/* Both do nothing when needed is false. */
void sg_driver_lock(bool needed);
void sg_driver_unlock(bool needed);

/* True unless the threads suite turned the lock off
 * (sg_driver_lock_enable_for_testing, renderer_internal.h). */
extern atomic_bool sg_driver_lock_enabled;

#endif
