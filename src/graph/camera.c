/* Cameras: plain matrices built with cglm. The public struct has only float
 * alignment, and cglm's SIMD paths need 16 bytes: the maths happens in local
 * mat4s, copied in and out. */
#include <cglm/cglm.h>
#include <string.h>

#include <sg/camera.h>

void sg_camera_init_pixels(struct sg_camera *camera, float width, float height)
{
	/* bottom = height, top = 0: y grows downwards, as in image files. */
	sg_camera_init_ortho(camera, 0.0f, width, height, 0.0f, -1.0f, 1.0f);
}

static void store(struct sg_camera *camera, mat4 projection)
{
	mat4 view = GLM_MAT4_IDENTITY_INIT;
	memcpy(camera->projection, projection, sizeof(mat4));
	memcpy(camera->view, view, sizeof(mat4));
}

void sg_camera_init_ortho(struct sg_camera *camera, float left, float right, float bottom,
                          float top, float near_z, float far_z)
{
	mat4 projection;
	glm_ortho(left, right, bottom, top, near_z, far_z, projection);
	store(camera, projection);
}

void sg_camera_init_perspective(struct sg_camera *camera, float fovy, float aspect, float near_z,
                                float far_z)
{
	mat4 projection;
	glm_perspective(fovy, aspect, near_z, far_z, projection);
	store(camera, projection);
}

void sg_camera_look_at(struct sg_camera *camera, const float eye[3], const float center[3],
                       const float up[3])
{
	mat4 view;
	glm_lookat((float *)eye, (float *)center, (float *)up, view);
	memcpy(camera->view, view, sizeof(mat4));
}
