/* The 3D scenes of bench3d (scenes3d.h), with cglm for both contestants. */
#include "scenes3d.h"

#include "../tests/cube3d.h"

#include <cglm/cglm.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void scene3d_cube(struct mesh3d *m)
{
	m->vertex_count = 24;
	m->index_count = 36;
	m->positions = malloc(24 * 3 * sizeof(float));
	m->normals = malloc(24 * 3 * sizeof(float));
	m->indices = malloc(36 * sizeof(uint32_t));
	cube3d_arrays(m->positions, m->normals, m->indices);
}

void scene3d_sphere(struct mesh3d *m, int rings, int segments)
{
	m->vertex_count = (size_t)(rings + 1) * (size_t)(segments + 1);
	m->index_count = (size_t)rings * (size_t)segments * 6;
	m->positions = malloc(m->vertex_count * 3 * sizeof(float));
	m->normals = malloc(m->vertex_count * 3 * sizeof(float));
	m->indices = malloc(m->index_count * sizeof(uint32_t));
	size_t v = 0, k = 0;
	for (int r = 0; r <= rings; r++) {
		double theta = M_PI * r / rings;
		for (int s = 0; s <= segments; s++, v++) {
			double phi = 2.0 * M_PI * s / segments;
			float n[3] = {(float)(sin(theta) * cos(phi)), (float)cos(theta),
			              (float)(-sin(theta) * sin(phi))};
			for (int c = 0; c < 3; c++) {
				m->normals[v * 3 + c] = n[c];
				m->positions[v * 3 + c] = 40.0f * n[c];
			}
		}
	}
	for (int r = 0; r < rings; r++)
		for (int s = 0; s < segments; s++) {
			uint32_t a = (uint32_t)(r * (segments + 1) + s), b = a + (uint32_t)segments + 1;
			uint32_t t[6] = {a, b, a + 1, a + 1, b, b + 1};
			memcpy(m->indices + k, t, sizeof(t));
			k += 6;
		}
}

void scene3d_mesh_free(struct mesh3d *m)
{
	free(m->positions);
	free(m->normals);
	free(m->indices);
	memset(m, 0, sizeof(*m));
}

void scene3d_row_matrix(int r, float out[16])
{
	mat4 m;
	glm_translate_make(m, (vec3){0.0f, 0.0f, -1.5f * (float)(r - CUBE_ROWS / 2)});
	glm_rotate(m, 0.01f * (float)r, (vec3){0.0f, 1.0f, 0.0f});
	memcpy(out, m, sizeof(m));
}

void scene3d_cube_position(int c, float out[3])
{
	out[0] = 1.5f * (float)(c - CUBE_COLUMNS / 2);
	out[1] = 0.0f;
	out[2] = 0.0f;
}

void scene3d_top_matrix(int frame, int spin, float out[16])
{
	mat4 m;
	glm_rotate_make(m, spin ? glm_rad((float)frame) : 0.0f, (vec3){0.0f, 1.0f, 0.0f});
	memcpy(out, m, sizeof(m));
}

void scene3d_camera(float projection[16], float view[16], float eye[3])
{
	mat4 p, v;
	vec3 e = {0.0f, 70.0f, 150.0f};
	glm_perspective(glm_rad(45.0f), 1.0f, 1.0f, 500.0f, p);
	glm_lookat(e, (vec3){0.0f, 0.0f, 0.0f}, (vec3){0.0f, 1.0f, 0.0f}, v);
	memcpy(projection, p, sizeof(p));
	memcpy(view, v, sizeof(v));
	memcpy(eye, e, sizeof(e));
}
