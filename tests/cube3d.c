/* The unit cube of cube3d.h. */
#include "cube3d.h"

#include <string.h>

static const float faces[6][4][3] = {
    {{1, -1, -1}, {1, 1, -1}, {1, 1, 1}, {1, -1, 1}},
    {{-1, -1, 1}, {-1, 1, 1}, {-1, 1, -1}, {-1, -1, -1}},
    {{-1, 1, 1}, {1, 1, 1}, {1, 1, -1}, {-1, 1, -1}},
    {{-1, -1, -1}, {1, -1, -1}, {1, -1, 1}, {-1, -1, 1}},
    {{-1, -1, 1}, {1, -1, 1}, {1, 1, 1}, {-1, 1, 1}},
    {{1, -1, -1}, {-1, -1, -1}, {-1, 1, -1}, {1, 1, -1}}};
static const float face_normals[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0},
                                         {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};

void cube3d_arrays(float positions[72], float normals[72], uint32_t indices[36])
{
	for (int f = 0; f < 6; f++) {
		for (int v = 0; v < 4; v++)
			for (int c = 0; c < 3; c++) {
				positions[(f * 4 + v) * 3 + c] = faces[f][v][c] * 0.5f;
				normals[(f * 4 + v) * 3 + c] = face_normals[f][c];
			}
		uint32_t b = (uint32_t)f * 4, t[6] = {b, b + 1, b + 2, b, b + 2, b + 3};
		memcpy(indices + f * 6, t, sizeof(t));
	}
}

sg_mesh cube3d_mesh(struct sg_scene *scene)
{
	float positions[72], normals[72];
	uint32_t indices[36];
	cube3d_arrays(positions, normals, indices);
	return sg_mesh_create_3d(scene, &(struct sg_mesh3d_desc){.vertex_count = 24,
	                                                         .positions = positions,
	                                                         .normals = normals,
	                                                         .indices = indices,
	                                                         .index_type = SG_INDEX_U32,
	                                                         .index_count = 36});
}
