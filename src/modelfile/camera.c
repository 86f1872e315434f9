/* A file's camera as a libsg camera: plain math, built with or without
 * assimp. */
#include <cglm/cglm.h>
#include <string.h>

#include <sg/model_file.h>

void sg_import_camera_to_sg_camera(const struct sg_import_camera *camera, float aspect,
                                   struct sg_camera *out)
{
	if (!(aspect > 0))
		aspect = camera->aspect > 0 ? camera->aspect : 1;
	float znear = camera->znear > 0 ? camera->znear : 0.01f;
	/* glTF's infinite perspective (no zfar) has no finite libsg twin */
	float zfar = camera->zfar > znear ? camera->zfar : znear * 1000;
	if (camera->orthographic) {
		float ymag = camera->ymag > 0 ? camera->ymag : 1;
		float xmag = ymag * aspect;
		sg_camera_init_ortho(out, -xmag, xmag, -ymag, ymag, znear, zfar);
	} else {
		float yfov = camera->yfov > 0 && camera->yfov < (float)GLM_PI ? camera->yfov : 0.8f;
		sg_camera_init_perspective(out, yfov, aspect, znear, zfar);
	}
	mat4 world, view;
	memcpy(world, camera->world, sizeof(world));
	glm_mat4_inv(world, view);
	memcpy(out->view, view, sizeof(view));
}
