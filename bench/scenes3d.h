/* The 3D scenes of bench3d, described once for both contestants: libsg
 * (bench3d.c) and the hand-written GLES program (baseline3d.c). */
#ifndef SG_BENCH_SCENES3D_H
#define SG_BENCH_SCENES3D_H

#include <stddef.h>
#include <stdint.h>

#define SCENE3D_SIZE 1024 /* output width and height */

/* cubes-10000: ROWS transforms of COLUMNS unit cubes each, under a top
 * transform that the spin variant turns by one degree a frame. */
#define CUBE_ROWS 100
#define CUBE_COLUMNS 100

struct mesh3d {
	float *positions, *normals; /* 3 floats per vertex */
	uint32_t *indices;
	size_t vertex_count, index_count;
};

/* The unit cube, 24 vertices with per-face normals, CCW fronts outward. */
void scene3d_cube(struct mesh3d *mesh);
/* A uv sphere of radius 40 with rings x segments x 2 triangles, smooth normals. */
void scene3d_sphere(struct mesh3d *mesh, int rings, int segments);
void scene3d_mesh_free(struct mesh3d *mesh);

/* The local matrix of row r (under the top transform) and the position of
 * cube c in its row; the top transform's matrix at frame f of a variant. */
void scene3d_row_matrix(int r, float out[16]);
void scene3d_cube_position(int c, float out[3]);
void scene3d_top_matrix(int frame, int spin, float out[16]);

/* The camera both use: projection and view, column-major. */
void scene3d_camera(float projection[16], float view[16], float eye[3]);

/* The material and light both shade with (docs/3d.md). */
#define SCENE3D_BASE {0.8f, 0.3f, 0.2f, 1.0f}
#define SCENE3D_METALLIC 0.3f
#define SCENE3D_ROUGHNESS 0.6f
#define SCENE3D_AMBIENT {0.05f, 0.05f, 0.05f}
/* The light's direction (where it shines), and its colour times intensity. */
#define SCENE3D_LIGHT_DIRECTION {-0.4f, -0.8f, -0.45f}
#define SCENE3D_LIGHT_RADIANCE {3.0f, 3.0f, 3.0f}

#endif
