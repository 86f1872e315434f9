/* Cameras: plain matrices built with cglm. */
#include <cglm/cglm.h>
#include <string.h>

#include <sg/camera.h>

static void identity_view(struct sg_camera *camera)
{
	glm_mat4_identity((vec4 *)camera->view);
}

void sg_camera_init_pixels(struct sg_camera *camera, float width, float height)
{
	/* bottom = height, top = 0: y grows downwards, as in image files. */
	sg_camera_init_ortho(camera, 0.0f, width, height, 0.0f, -1.0f, 1.0f);
}

void sg_camera_init_ortho(struct sg_camera *camera, float left, float right, float bottom,
                          float top, float near_z, float far_z)
{
	glm_ortho(left, right, bottom, top, near_z, far_z, (vec4 *)camera->projection);
	identity_view(camera);
}

void sg_camera_init_perspective(struct sg_camera *camera, float fovy, float aspect, float near_z,
                                float far_z)
{
	glm_perspective(fovy, aspect, near_z, far_z, (vec4 *)camera->projection);
	identity_view(camera);
}

void sg_camera_look_at(struct sg_camera *camera, const float eye[3], const float center[3],
                       const float up[3])
{
	glm_lookat((float *)eye, (float *)center, (float *)up, (vec4 *)camera->view);
}
