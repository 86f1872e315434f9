/* FreeType and HarfBuzz opened at run time (libs.h says why). RTLD_LOCAL keeps
 * them, and what they pull in, out of the global scope that later lookups
 * walk; RTLD_NOW finds a missing function here rather than in a draw. A
 * library is never closed: fonts of any scene on any thread use it until the
 * process ends. A failure halfway (FreeType open, HarfBuzz missing) leaves
 * FreeType open too, once: later calls report the first failure and open
 * nothing more. */
#include "libs.h"

#include <pthread.h>

#include "../graph/dynlib.h"

static const char *freetype_name = "libfreetype.so.6";
static const char *harfbuzz_name = "libharfbuzz.so.0";

static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool tried;                       /* load() has run (or is running) */
static struct sg_text_libs libs;         /* complete when failure.text is "" */
static struct sg_dynlib_failure failure; /* why loading failed, for every later call */

/* Each F(name) of a list: libs.name from handle, or return false. */
#define FIND(name) SG_DYNLIB_FIND(libs, handle, label, &failure, name)

static bool load_freetype(void)
{
	const char *label = "FreeType";
	void *handle = sg_dynlib_open(label, freetype_name, &failure);
	if (!handle)
		return false;
	SG_FREETYPE_FUNCTIONS(FIND)
	return true;
}

static bool load_harfbuzz(void)
{
	const char *label = "HarfBuzz"; /* hb_ft_* are in libharfbuzz.so.0 too */
	void *handle = sg_dynlib_open(label, harfbuzz_name, &failure);
	if (!handle)
		return false;
	SG_HARFBUZZ_FUNCTIONS(FIND)
	return true;
}

#undef FIND

static void load(void)
{
	tried = true;
	if (!load_freetype() || !load_harfbuzz())
		libs = (struct sg_text_libs){0};
}

const struct sg_text_libs *sg_text_libs_load(void)
{
	pthread_once(&once, load);
	return sg_dynlib_result(&failure, &libs);
}

bool sg_text_libs_set_names_for_testing(const char *freetype, const char *harfbuzz)
{
	if (tried)
		return false;
	if (freetype)
		freetype_name = freetype;
	if (harfbuzz)
		harfbuzz_name = harfbuzz;
	return true;
}
