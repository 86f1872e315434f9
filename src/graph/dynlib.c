/* Libraries opened at run time (dynlib.h). They are never closed: the
 * loaders keep their function tables until the process ends. */
#include "dynlib.h"

#include <dlfcn.h>
#include <stdio.h>

#include "../base/error.h"

void *sg_dynlib_open(const char *label, const char *name, struct sg_dynlib_failure *failure)
{
	void *handle = dlopen(name, RTLD_LOCAL | RTLD_NOW);
	if (!handle)
		snprintf(failure->text, sizeof(failure->text), "loading %s: %s", label, dlerror());
	return handle;
}

void *sg_dynlib_find(void *handle, const char *label, const char *function,
                     struct sg_dynlib_failure *failure)
{
	dlerror(); /* a stale message must not explain this lookup */
	void *address = dlsym(handle, function);
	if (!address) {
		const char *why = dlerror();
		snprintf(failure->text, sizeof(failure->text), "loading %s: %s", label,
		         why ? why : "a function is NULL");
	}
	return address;
}

const void *sg_dynlib_result(const struct sg_dynlib_failure *failure, const void *table)
{
	if (failure->text[0]) {
		sg_fail(SG_ERR_UNSUPPORTED, "%s", failure->text);
		return NULL;
	}
	return table;
}
