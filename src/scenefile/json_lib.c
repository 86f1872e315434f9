/* json-c opened at run time (json_lib.h says why). RTLD_LOCAL keeps it out of
 * the global scope that later lookups walk; RTLD_NOW finds a missing function
 * here rather than in the middle of a parse. The library is never closed: the
 * trees of loads on any thread use it until the process ends. */
#include "json_lib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include "../graph/error.h"

static const char *json_c_name = "libjson-c.so.5";

static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool tried;                /* load() has run (or is running) */
static struct sg_json_lib json_c; /* complete when failure is "" */
static char failure[512];         /* why loading failed, for every later call */

/* The address of function in handle, or NULL with failure set. */
static void *find(void *handle, const char *function)
{
	dlerror(); /* a stale message must not explain this lookup */
	void *address = dlsym(handle, function);
	if (!address) {
		const char *why = dlerror();
		snprintf(failure, sizeof(failure), "loading json-c: %s",
		         why ? why : "a function is NULL");
	}
	return address;
}

/* Each F(name) of the list: json_c.name from handle, or return false. */
#define FIND(name)                                                                                 \
	if (!(json_c.name = (__typeof__(json_c.name))find(handle, #name)))                         \
		return false;

static bool load_json_c(void)
{
	void *handle = dlopen(json_c_name, RTLD_LOCAL | RTLD_NOW);
	if (!handle) {
		snprintf(failure, sizeof(failure), "loading json-c: %s", dlerror());
		return false;
	}
	SG_JSON_C_FUNCTIONS(FIND)
	return true;
}

#undef FIND

static void load(void)
{
	tried = true;
	if (!load_json_c())
		json_c = (struct sg_json_lib){0};
}

const struct sg_json_lib *sg_json_lib_load(void)
{
	pthread_once(&once, load);
	if (failure[0]) {
		sg_fail(SG_ERR_UNSUPPORTED, "%s", failure);
		return NULL;
	}
	return &json_c;
}

bool sg_json_lib_set_name_for_testing(const char *name)
{
	if (tried)
		return false;
	if (name)
		json_c_name = name;
	return true;
}
