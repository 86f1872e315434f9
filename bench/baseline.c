#include "baseline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/gl/program.h"

void baseline_init(struct baseline *b, const struct bench_tree *tree)
{
	*b = (struct baseline){.count = tree->count, .models = tree->models};
	b->parent = malloc(tree->count * sizeof(*b->parent));
	b->texture = malloc(tree->count * sizeof(*b->texture));
	b->local = aligned_alloc(32, tree->count * sizeof(mat4));
	b->world = aligned_alloc(32, tree->count * sizeof(mat4));
	if (!b->parent || !b->texture || !b->local || !b->world) {
		fprintf(stderr, "bench: out of memory for the baseline\n");
		exit(1);
	}
	memcpy(b->parent, tree->parent, tree->count * sizeof(*b->parent));
	memcpy(b->texture, tree->texture, tree->count * sizeof(*b->texture));
	for (size_t i = 0; i < tree->count; i++)
		bench_local_matrix(tree, i, (float *)b->local[i]);
}

void baseline_set_local(struct baseline *b, size_t i, const float local[16])
{
	memcpy(b->local[i], local, sizeof(mat4));
}

void baseline_update_world(struct baseline *b)
{
	mat4 *world = b->world, *local = b->local;
	const int32_t *parent = b->parent;
	for (size_t i = 0; i < b->count; i++) {
		if (parent[i] < 0)
			glm_mat4_copy(local[i], world[i]);
		else
			glm_mat4_mul(world[parent[i]], local[i], world[i]);
	}
}

static const char *vertex_source = "#version 300 es\n"
                                   "layout(location = 0) in vec4 position;\n"
                                   "layout(location = 1) in vec2 uv;\n"
                                   "out vec2 vsTexCoord;\n"
                                   "void main() { gl_Position = position; vsTexCoord = uv; }\n";
static const char *fragment_source = "#version 300 es\n"
                                     "precision mediump float;\n"
                                     "uniform sampler2D Tex;\n"
                                     "in vec2 vsTexCoord;\n"
                                     "out vec4 Color;\n"
                                     "void main() { Color = texture(Tex, vsTexCoord); }\n";

int baseline_gl_init(struct baseline *b, int width, int height)
{
	if (sg_target_surfaceless_create(width, height, &b->target) ||
	    sg_target_bind(b->target, NULL) ||
	    sg_gl_program_build(vertex_source, fragment_source, &b->program)) {
		fprintf(stderr, "bench: baseline: %s\n", sg_last_error());
		return -1;
	}
	glGenVertexArrays(1, &b->vertex_array);
	glGenBuffers(8, b->buffers);
	glGenTextures(8, b->textures);
	for (int i = 0; i < 8; i++) {
		unsigned char px[16 * 16 * 4];
		bench_checker_pixels(i, px);
		glBindTexture(GL_TEXTURE_2D, b->textures[i]);
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
		glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 16, 16, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
		b->vertices[i] = malloc((b->models / 8 + 1) * 6 * 6 * sizeof(float));
	}
	sg_egl_release(&b->target->egl);
	return 0;
}

void baseline_build_vertices(struct baseline *b, mat4 view_projection)
{
	static const float corners[6][4] = {{0, 0, 0, 0}, {0, 2, 0, 1}, {2, 0, 1, 0},
	                                    {2, 0, 1, 0}, {0, 2, 0, 1}, {2, 2, 1, 1}};
	memset(b->vertex_count, 0, sizeof(b->vertex_count));
	for (size_t i = 0; i < b->count; i++) {
		int texture = b->texture[i];
		if (texture < 0)
			continue;
		mat4 m;
		glm_mat4_mul(view_projection, b->world[i], m);
		float *out = b->vertices[texture] + b->vertex_count[texture] * 6;
		for (int c = 0; c < 6; c++, out += 6) {
			vec4 p;
			glm_mat4_mulv(m, (vec4){corners[c][0], corners[c][1], 0, 1}, p);
			out[0] = p[0], out[1] = p[1], out[2] = p[2], out[3] = p[3];
			out[4] = corners[c][2], out[5] = corners[c][3];
		}
		b->vertex_count[texture] += 6;
	}
	b->upload = true;
}

void baseline_draw(struct baseline *b, int width, int height)
{
	sg_target_bind(b->target, NULL);
	glViewport(0, 0, width, height);
	glClearColor(0, 0, 0, 1);
	glClear(GL_COLOR_BUFFER_BIT);
	glUseProgram(b->program);
	glBindVertexArray(b->vertex_array);
	glActiveTexture(GL_TEXTURE0);
	for (int i = 0; i < 8; i++) {
		glBindTexture(GL_TEXTURE_2D, b->textures[i]);
		glBindBuffer(GL_ARRAY_BUFFER, b->buffers[i]);
		if (b->upload) /* a static scene keeps its buffers, as hand-written code would */
			glBufferData(GL_ARRAY_BUFFER,
			             (GLsizeiptr)(b->vertex_count[i] * 6 * sizeof(float)), b->vertices[i],
			             GL_STREAM_DRAW);
		glEnableVertexAttribArray(0);
		glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 6 * sizeof(float), NULL);
		glEnableVertexAttribArray(1);
		glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 6 * sizeof(float),
		                      (const void *)(4 * sizeof(float)));
		glDrawArrays(GL_TRIANGLES, 0, (GLsizei)b->vertex_count[i]);
	}
	glFinish();
	b->upload = false;
	sg_egl_release(&b->target->egl);
}

void baseline_finish(struct baseline *b)
{
	if (b->target) {
		sg_target_bind(b->target, NULL);
		glDeleteProgram(b->program);
		glDeleteBuffers(8, b->buffers);
		glDeleteTextures(8, b->textures);
		glDeleteVertexArrays(1, &b->vertex_array);
		sg_target_destroy(b->target);
	}
	for (int i = 0; i < 8; i++)
		free(b->vertices[i]);
	free(b->parent);
	free(b->texture);
	free(b->local);
	free(b->world);
}
