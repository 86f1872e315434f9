/* Internal: libgbm and libdrm, opened with dlopen when libsg first needs a
 * DRM device (a node to open, a caller's fd or gbm_device, an output) instead
 * of being linked to libsg. Linked, they sit in every libsg program's global
 * symbol scope, and each later symbol lookup walks past them: Mesa's and
 * LLVM's, when EGL loads the driver, cost a program about 3 % of its start
 * (1.2-1.9 ms measured). A machine without /dev/dri (the surfaceless target)
 * never opens them. */
#ifndef SG_GBM_LIBS_H
#define SG_GBM_LIBS_H

#include <gbm.h>
#include <stdbool.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include <sg/error.h>

/* The one list of the functions src/ calls, by library (drm_fourcc.h's
 * names are macros, not functions). */
#define SG_GBM_FUNCTIONS(F)                                                                        \
	F(gbm_create_device)                                                                       \
	F(gbm_device_destroy)                                                                      \
	F(gbm_device_get_fd)                                                                       \
	F(gbm_device_is_format_supported)                                                          \
	F(gbm_bo_create)                                                                           \
	F(gbm_bo_create_with_modifiers2)                                                           \
	F(gbm_bo_destroy)                                                                          \
	F(gbm_bo_map)                                                                              \
	F(gbm_bo_unmap)                                                                            \
	F(gbm_bo_get_fd)                                                                           \
	F(gbm_bo_get_fd_for_plane)                                                                 \
	F(gbm_bo_get_format)                                                                       \
	F(gbm_bo_get_handle_for_plane)                                                             \
	F(gbm_bo_get_height)                                                                       \
	F(gbm_bo_get_modifier)                                                                     \
	F(gbm_bo_get_offset)                                                                       \
	F(gbm_bo_get_plane_count)                                                                  \
	F(gbm_bo_get_stride_for_plane)                                                             \
	F(gbm_bo_get_width)

#define SG_DRM_FUNCTIONS(F)                                                                        \
	F(drmGetDevices2)                                                                          \
	F(drmFreeDevices)                                                                          \
	F(drmGetDevice2)                                                                           \
	F(drmFreeDevice)                                                                           \
	F(drmGetNodeTypeFromFd)                                                                    \
	F(drmGetDeviceNameFromFd2)                                                                 \
	F(drmIsMaster)                                                                             \
	F(drmSetMaster)                                                                            \
	F(drmSetClientCap)                                                                         \
	F(drmHandleEvent)                                                                          \
	F(drmModeGetResources)                                                                     \
	F(drmModeFreeResources)                                                                    \
	F(drmModeGetConnector)                                                                     \
	F(drmModeFreeConnector)                                                                    \
	F(drmModeGetConnectorTypeName)                                                             \
	F(drmModeGetEncoder)                                                                       \
	F(drmModeFreeEncoder)                                                                      \
	F(drmModeGetCrtc)                                                                          \
	F(drmModeFreeCrtc)                                                                         \
	F(drmModeSetCrtc)                                                                          \
	F(drmModeGetPlaneResources)                                                                \
	F(drmModeFreePlaneResources)                                                               \
	F(drmModeGetPlane)                                                                         \
	F(drmModeFreePlane)                                                                        \
	F(drmModeObjectGetProperties)                                                              \
	F(drmModeFreeObjectProperties)                                                             \
	F(drmModeGetProperty)                                                                      \
	F(drmModeFreeProperty)                                                                     \
	F(drmModeGetPropertyBlob)                                                                  \
	F(drmModeFreePropertyBlob)                                                                 \
	F(drmModeFormatModifierBlobIterNext)                                                       \
	F(drmModeCreatePropertyBlob)                                                               \
	F(drmModeDestroyPropertyBlob)                                                              \
	F(drmModeAtomicAlloc)                                                                      \
	F(drmModeAtomicAddProperty)                                                                \
	F(drmModeAtomicCommit)                                                                     \
	F(drmModeAtomicFree)                                                                       \
	F(drmModeAddFB2)                                                                           \
	F(drmModeAddFB2WithModifiers)                                                              \
	F(drmModeRmFB)                                                                             \
	F(drmModePageFlip)                                                                         \
	F(drmModeCreateDumbBuffer)                                                                 \
	F(drmModeMapDumbBuffer)                                                                    \
	F(drmModeDestroyDumbBuffer)

/* Each member is named after its function and has the type the headers
 * declare for it: drm->drmModeGetResources(fd), drm->gbm_bo_get_fd(bo). */
struct sg_drm_libs {
#define SG_DRM_LIBS_MEMBER(name) __typeof__(name) *name;
	SG_GBM_FUNCTIONS(SG_DRM_LIBS_MEMBER)
	SG_DRM_FUNCTIONS(SG_DRM_LIBS_MEMBER)
#undef SG_DRM_LIBS_MEMBER
};

/* Opens libdrm.so.2 and libgbm.so.1 (RTLD_LOCAL | RTLD_NOW) and finds every
 * function, once per process, from any thread; they stay open until the
 * process ends. Returns the table, or NULL with SG_ERR_UNSUPPORTED and a
 * message naming the library and dlerror()'s reason ("loading libgbm:
 * libgbm.so.1: cannot open shared object file: ..."), the same message on
 * every later call. */
const struct sg_drm_libs *sg_drm_libs_load(void);

/* For tests: the names sg_drm_libs_load() opens instead of the real ones (a
 * NULL keeps that one). False, changing nothing, once loading was tried. */
bool sg_drm_libs_set_names_for_testing(const char *gbm, const char *drm);

#endif
