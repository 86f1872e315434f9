/* json-c opened at run time (json_lib.h says why). RTLD_LOCAL keeps it out of
 * the global scope that later lookups walk; RTLD_NOW finds a missing function
 * here rather than in the middle of a parse. The library is never closed: the
 * trees of loads on any thread use it until the process ends. */
#include "json_lib.h"

#include <pthread.h>

#include "../graph/dynlib.h"

static const char *json_c_name = "libjson-c.so.5";

static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool tried;                       /* load() has run (or is running) */
static struct sg_json_lib json_c;        /* complete when failure.text is "" */
static struct sg_dynlib_failure failure; /* why loading failed, for every later call */

/* Each F(name) of the list: json_c.name from handle, or return false. */
#define FIND(name) SG_DYNLIB_FIND(json_c, handle, "json-c", &failure, name)

static bool load_json_c(void)
{
	void *handle = sg_dynlib_open("json-c", json_c_name, &failure);
	if (!handle)
		return false;
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
	return sg_dynlib_result(&failure, &json_c);
}

bool sg_json_lib_set_name_for_testing(const char *name)
{
	if (tried)
		return false;
	if (name)
		json_c_name = name;
	return true;
}
