/* libdrm and libgbm opened at run time (libs.h says why). RTLD_LOCAL keeps
 * them, and what they pull in, out of the global scope that later lookups
 * walk; RTLD_NOW finds a missing function here rather than in a page flip. A
 * library is never closed: targets and outputs of any thread use it until the
 * process ends. libdrm comes first, as every path needs it; a failure halfway
 * (libdrm open, libgbm missing) leaves libdrm open too, once: later calls
 * report the first failure and open nothing more. */
#include "libs.h"

#include <pthread.h>

#include "../graph/dynlib.h"

static const char *gbm_name = "libgbm.so.1";
static const char *drm_name = "libdrm.so.2";

static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool tried;                       /* load() has run (or is running) */
static struct sg_drm_libs libs;          /* complete when failure.text is "" */
static struct sg_dynlib_failure failure; /* why loading failed, for every later call */

/* Each F(name) of a list: libs.name from handle, or return false. */
#define FIND(name) SG_DYNLIB_FIND(libs, handle, label, &failure, name)

static bool load_drm(void)
{
	const char *label = "libdrm"; /* drmMode* are in libdrm.so.2 too */
	void *handle = sg_dynlib_open(label, drm_name, &failure);
	if (!handle)
		return false;
	SG_DRM_FUNCTIONS(FIND)
	return true;
}

static bool load_gbm(void)
{
	const char *label = "libgbm";
	void *handle = sg_dynlib_open(label, gbm_name, &failure);
	if (!handle)
		return false;
	SG_GBM_FUNCTIONS(FIND)
	return true;
}

#undef FIND

static void load(void)
{
	tried = true;
	if (!load_drm() || !load_gbm())
		libs = (struct sg_drm_libs){0};
}

const struct sg_drm_libs *sg_drm_libs_load(void)
{
	pthread_once(&once, load);
	return sg_dynlib_result(&failure, &libs);
}

bool sg_drm_libs_set_names_for_testing(const char *gbm, const char *drm)
{
	if (tried)
		return false;
	if (gbm)
		gbm_name = gbm;
	if (drm)
		drm_name = drm;
	return true;
}
