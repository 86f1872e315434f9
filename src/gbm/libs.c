/* libdrm and libgbm opened at run time (libs.h says why). RTLD_LOCAL keeps
 * them, and what they pull in, out of the global scope that later lookups
 * walk; RTLD_NOW finds a missing function here rather than in a page flip. A
 * library is never closed: targets and outputs of any thread use it until the
 * process ends. libdrm comes first, as every path needs it; a failure halfway
 * (libdrm open, libgbm missing) leaves libdrm open too, once: later calls
 * report the first failure and open nothing more. */
#include "libs.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include "../graph/error.h"

static const char *gbm_name = "libgbm.so.1";
static const char *drm_name = "libdrm.so.2";

static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool tried;              /* load() has run (or is running) */
static struct sg_drm_libs libs; /* complete when failure is "" */
static char failure[512];       /* why loading failed, for every later call */

/* A handle of the library name, or NULL with failure set. */
static void *open_library(const char *label, const char *name)
{
	void *handle = dlopen(name, RTLD_LOCAL | RTLD_NOW);
	if (!handle)
		snprintf(failure, sizeof(failure), "loading %s: %s", label, dlerror());
	return handle;
}

/* The address of function in handle, or NULL with failure set. */
static void *find(void *handle, const char *label, const char *function)
{
	dlerror(); /* a stale message must not explain this lookup */
	void *address = dlsym(handle, function);
	if (!address) {
		const char *why = dlerror();
		snprintf(failure, sizeof(failure), "loading %s: %s", label,
		         why ? why : "a function is NULL");
	}
	return address;
}

/* Each F(name) of a list: libs.name from handle, or return false. */
#define FIND(name)                                                                                 \
	if (!(libs.name = (__typeof__(libs.name))find(handle, label, #name)))                      \
		return false;

static bool load_drm(void)
{
	const char *label = "libdrm"; /* drmMode* are in libdrm.so.2 too */
	void *handle = open_library(label, drm_name);
	if (!handle)
		return false;
	SG_DRM_FUNCTIONS(FIND)
	return true;
}

static bool load_gbm(void)
{
	const char *label = "libgbm";
	void *handle = open_library(label, gbm_name);
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
	if (failure[0]) {
		sg_fail(SG_ERR_UNSUPPORTED, "%s", failure);
		return NULL;
	}
	return &libs;
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
