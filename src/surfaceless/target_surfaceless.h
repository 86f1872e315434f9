/* Internal: the surfaceless target (EGL_MESA_platform_surfaceless, no device). */
#ifndef SG_SURFACELESS_TARGET_SURFACELESS_H
#define SG_SURFACELESS_TARGET_SURFACELESS_H

#include "../target/target.h"

sg_result sg_target_surfaceless_create(int width, int height, struct sg_target **target);

#endif
