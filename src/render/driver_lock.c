/* Mesa 22.3's llvmpipe segfaults under glDrawElements when two contexts of
 * one process work at once with many textures (2 threads x 2000 textured
 * models: most runs of a release build; a plain EGL program with no libsg
 * crashes the same way). It rasterises on its own threads already, so
 * serialising submission costs little there; GPU drivers keep full
 * parallelism. docs/api.md, "Threads", has the measurements. */
#include "driver_lock.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

static pthread_mutex_t driver_lock = PTHREAD_MUTEX_INITIALIZER;
atomic_bool sg_driver_lock_enabled = true;

bool sg_driver_lock_needed(const char *gl_renderer)
{
	if (!atomic_load(&sg_driver_lock_enabled) || !gl_renderer)
		return false;
	return strncmp(gl_renderer, "llvmpipe", 8) == 0 || strncmp(gl_renderer, "softpipe", 8) == 0;
}

void sg_driver_lock(bool needed)
{
	if (needed)
		pthread_mutex_lock(&driver_lock);
}

void sg_driver_unlock(bool needed)
{
	if (needed)
		pthread_mutex_unlock(&driver_lock);
}
