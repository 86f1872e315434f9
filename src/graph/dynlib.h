/* Internal: opening a library with dlopen and finding its functions, for the
 * layers that open theirs when first needed (text/libs.c, gbm/libs.c,
 * scenefile/json_lib.c) rather than linking them: linked, a library and what
 * it needs sit in every libsg program's global symbol scope, which each of
 * Mesa's and LLVM's symbol lookups walks while EGL loads the driver. */
#ifndef SG_GRAPH_DYNLIB_H
#define SG_GRAPH_DYNLIB_H

#include <stddef.h>

/* Why opening failed, kept by a loader for every later call. */
struct sg_dynlib_failure {
	char text[512]; /* "" while nothing has failed */
};

/* dlopen(name, RTLD_LOCAL | RTLD_NOW): RTLD_LOCAL keeps the library, and
 * what it pulls in, out of the global scope; RTLD_NOW finds a missing
 * function here rather than in the middle of a frame. NULL with failure set
 * to "loading LABEL: <dlerror()>". */
void *sg_dynlib_open(const char *label, const char *name, struct sg_dynlib_failure *failure);

/* dlsym(handle, function), or NULL with failure set to "loading LABEL:
 * <dlerror()>" ("... undefined symbol: FUNCTION"). */
void *sg_dynlib_find(void *handle, const char *label, const char *function,
                     struct sg_dynlib_failure *failure);

/* For F(name) of a loader's function list: table.name from handle, with the
 * type the headers declare, or return false from the loading function. */
#define SG_DYNLIB_FIND(table, handle, label, failure, name)                                        \
	if (!((table).name =                                                                       \
	          (__typeof__((table).name))sg_dynlib_find(handle, label, #name, failure)))        \
		return false;

/* What a loader returns once its (pthread_once) loading has run: table, or
 * NULL with SG_ERR_UNSUPPORTED and the first failure's message, the same on
 * every call. */
const void *sg_dynlib_result(const struct sg_dynlib_failure *failure, const void *table);

#endif
