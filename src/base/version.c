/* sg_version(): the generated header's version, compiled into the library. */
#include <sg/version.h>

const char *sg_version(void)
{
	return SG_VERSION;
}
