/* Internal: a process-wide lock around GL submission, taken only on drivers
 * that crash when two contexts submit at once (Mesa 22.3's llvmpipe). */
#ifndef SG_RENDER_DRIVER_LOCK_H
#define SG_RENDER_DRIVER_LOCK_H

#include <stdbool.h>

/* True for GL_RENDERER strings of Mesa's software rasterisers. */
bool sg_driver_lock_needed(const char *gl_renderer);
/* Both do nothing when needed is false. */
void sg_driver_lock(bool needed);
void sg_driver_unlock(bool needed);

/* For the threads suite only: false makes sg_driver_lock_needed() answer
 * false for every renderer created afterwards, to show the crash it prevents. */
void sg_driver_lock_enable_for_testing(bool enabled);

#endif
