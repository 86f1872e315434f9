/* Internal: the checks of every float that enters a scene or a camera. */
#ifndef SG_BASE_FLOATS_H
#define SG_BASE_FLOATS_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

/* True when none of the count floats is NaN or infinite. Inline: it runs on
 * every edit of a matrix. */
static inline bool sg_floats_finite(const float *values, size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (!isfinite(values[i]))
			return false;
	return true;
}

/* In [0, 1] and not NaN (NaN fails both comparisons): opacities, colours. */
static inline bool sg_float_unit(float value)
{
	return value >= 0.0f && value <= 1.0f;
}

#endif
