#include "sized.h"

#include <string.h>

#include "error.h"

const void *sg_sized_in(void *copy, size_t copy_size, const void *given, size_t size, size_t least,
                        const char *function)
{
	if (size < least) {
		sg_fail(SG_ERR_INVALID_ARGUMENT,
		        "%s: the desc is %zu bytes, less than the %zu of libsg 1.0's layout: a size"
		        " passed by hand to the _sized function is wrong (pass sizeof the struct)",
		        function, size, least);
		return NULL;
	}
	const unsigned char *bytes = given;
	for (size_t i = copy_size; i < size; i++) {
		if (bytes[i]) {
			sg_fail(SG_ERR_UNSUPPORTED,
			        "%s: the desc sets byte %zu of %zu, past the %zu bytes this libsg "
			        "knows:"
			        " the program was built against a newer libsg and uses a member"
			        " this one lacks",
			        function, i, size, copy_size);
			return NULL;
		}
	}
	size_t known = size < copy_size ? size : copy_size;
	memcpy(copy, given, known);
	memset((unsigned char *)copy + known, 0, copy_size - known);
	return copy;
}

bool sg_sized_out_fits(size_t size, size_t least, const char *function)
{
	if (size >= least)
		return true;
	sg_fail(
	    SG_ERR_INVALID_ARGUMENT,
	    "%s: the struct to fill is %zu bytes, less than the %zu of libsg 1.0's layout: a size"
	    " passed by hand to the _sized function is wrong (pass sizeof the struct)",
	    function, size, least);
	return false;
}

void sg_sized_out(void *out, size_t size, const void *full, size_t full_size)
{
	size_t known = size < full_size ? size : full_size;
	if (out != full)
		memmove(out, full, known);
	if (size > full_size)
		memset((unsigned char *)out + full_size, 0, size - full_size);
}
