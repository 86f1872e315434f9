/* SG_DEBUG_DAMAGE: a translucent magenta over the repainted rectangles, so
 * that people debugging a scene see what each frame redrew. Drawn with the
 * textured material's program, the white texture and one clip-space quad. */
#include "check.h"
#include "drawer.h"

static void make_quad(struct sg_gl_programs *gl)
{
	static const float corners[] = {-1, -1, 0, 1, 1, -1, 0, 1, -1, 1, 0, 1, 1, 1, 0, 1};
	glGenVertexArrays(1, &gl->tint_array);
	glGenBuffers(1, &gl->tint_buffer);
	glBindVertexArray(gl->tint_array);
	glBindBuffer(GL_ARRAY_BUFFER, gl->tint_buffer);
	glBufferData(GL_ARRAY_BUFFER, sizeof(corners), corners, GL_STATIC_DRAW);
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, NULL);
	glBindVertexArray(0);
}

sg_result sg_gl_drawer_tint(struct sg_gl_drawer *gl, const struct sg_damage_region *region,
                              int width, int height)
{
	struct sg_gl_programs *p = &gl->programs;
	struct sg_gl_program *program; /* textured, coloured, not clipped */
	sg_result result =
	    sg_gl_program_of(&p->cache, sg_gl_key(SG_GL_MATERIAL_TEXTURED, 0, 0), &program);
	if (result)
		return result;
	if (!p->tint_array)
		make_quad(p);
	glViewport(0, 0, width, height);
	glDisable(GL_DEPTH_TEST);
	glEnable(GL_BLEND);
	glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
	glUseProgram(program->name);
	p->current = 0; /* the next frame takes its own */
	glActiveTexture(GL_TEXTURE0);
	glBindTexture(GL_TEXTURE_2D, p->white_texture);
	glBindVertexArray(p->tint_array);
	/* The other inputs are generic values (context state): no texture
	 * coordinate, an identity Matrix, depth 0, a premultiplied 25% magenta. */
	glVertexAttrib2f(1, 0.0f, 0.0f);
	for (GLuint column = 0; column < 4; column++)
		glVertexAttrib4f(2 + column, column == 0, column == 1, column == 2, column == 3);
	glVertexAttrib1f(6, 0.0f);
	glVertexAttrib4f(7, 0.25f, 0.0f, 0.25f, 0.25f);
	int rects = region && !region->full ? region->count : 1;
	glEnable(GL_SCISSOR_TEST);
	for (int i = 0; i < rects; i++) {
		if (region && !region->full)
			glScissor(region->rects[i].x, region->rects[i].y, region->rects[i].width,
			          region->rects[i].height);
		else
			glScissor(0, 0, width, height);
		glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	}
	glDisable(GL_SCISSOR_TEST);
	glBindVertexArray(0);
	return sg_gl_check("tinting the repainted region (SG_DEBUG_DAMAGE)");
}
