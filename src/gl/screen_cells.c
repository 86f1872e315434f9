#include "screen_cells.h"

#include <math.h>

static void whole_grid(int cells[4])
{
	cells[0] = cells[1] = 0;
	cells[2] = cells[3] = SG_GL_GRID - 1;
}

bool sg_gl_screen_cells(const struct sg_scene *scene, const struct sg_draw_list *list,
                        const struct sg_draw *draw, mat4 view_projection, int cells[4])
{
	const struct sg_mesh_data *m = sg_scene_mesh_slot(scene, draw->mesh);
	mat4 matrix;
	sg_draw_model_matrix(scene, list, draw->node, view_projection, matrix);
	float x0 = 1e30f, y0 = 1e30f, x1 = -1e30f, y1 = -1e30f;
	for (int corner = 0; corner < 8; corner++) {
		vec4 p = {m->bounds[corner & 1][0], m->bounds[(corner >> 1) & 1][1],
		          m->bounds[corner >> 2][2], 1.0f}, clip;
		glm_mat4_mulv(matrix, p, clip);
		if (!(clip[3] > 1e-6f)) { /* behind the eye (or NaN): assume everywhere */
			whole_grid(cells);
			return true;
		}
		float x = clip[0] / clip[3], y = clip[1] / clip[3];
		x0 = glm_min(x0, x), x1 = glm_max(x1, x);
		y0 = glm_min(y0, y), y1 = glm_max(y1, y);
	}
	if (!isfinite(x0) || !isfinite(y0) || !isfinite(x1) || !isfinite(y1)) {
		whole_grid(cells); /* overflowed: assume everywhere */
		return true;
	}
	if (x1 < -1.0f || y1 < -1.0f || x0 > 1.0f || y0 > 1.0f)
		return false;
	/* widened by a cell's fraction, so that rounding never misses a shared edge;
	 * clamped as floats, since converting one beyond int's range is undefined */
	float scale = SG_GL_GRID / 2.0f;
	float c[4] = {(x0 + 1.0f) * scale - 0.01f, (y0 + 1.0f) * scale - 0.01f,
	              (x1 + 1.0f) * scale + 0.01f, (y1 + 1.0f) * scale + 0.01f};
	for (int i = 0; i < 4; i++)
		cells[i] = c[i] < 0.0f ? 0 : c[i] >= (float)SG_GL_GRID ? SG_GL_GRID - 1 : (int)c[i];
	return true;
}
