/* libsg: cameras are plain data, a projection and a view matrix. */
#ifndef SG_CAMERA_H
#define SG_CAMERA_H

#include <sg/export.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sg_camera {
	float projection[16]; /* column-major; OpenGL clip-space conventions (y up in NDC) */
	float view[16];
};

/* Scene units are output pixels: x from 0 (left) to width, y from 0 (top) to
 * height (bottom), z in [-1, 1]. This is what sg_renderer_render() uses for a NULL camera. */
SG_API void sg_camera_init_pixels(struct sg_camera *camera, float width, float height);
SG_API void sg_camera_init_ortho(struct sg_camera *camera, float left, float right, float bottom,
                                 float top, float near_z, float far_z);
/* fovy in radians; aspect is width / height. */
SG_API void sg_camera_init_perspective(struct sg_camera *camera, float fovy, float aspect,
                                       float near_z, float far_z);
/* Replaces the view matrix (identity after the init functions). */
SG_API void sg_camera_look_at(struct sg_camera *camera, const float eye[3], const float center[3],
                              const float up[3]);

#ifdef __cplusplus
}
#endif

#endif
