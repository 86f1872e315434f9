/* Linked into every test program: keeps Mesa's software driver loaded until
 * exit. Mesa dlcloses it at eglTerminate, and then LeakSanitizer and valgrind
 * can no longer name the frames of its one known leak (tests/lsan.supp,
 * tests/valgrind.supp), which would hide that the leak is Mesa's. */
#include <dlfcn.h>

__attribute__((constructor)) static void keep_driver_loaded(void)
{
	static const char *paths[] = {
		"/usr/lib/x86_64-linux-gnu/dri/swrast_dri.so",
		"/usr/lib/aarch64-linux-gnu/dri/swrast_dri.so",
		"/usr/lib/dri/swrast_dri.so",
	};
	for (unsigned i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (dlopen(paths[i], RTLD_NOW | RTLD_NODELETE | RTLD_LOCAL))
			return; /* the handle stays open on purpose */
}
