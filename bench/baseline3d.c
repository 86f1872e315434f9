/* The hand-written GLES 3 program bench3d times libsg's 3D views against
 * (bench/README.md): a surfaceless EGL context, a 1024 x 1024 RGBA8 and
 * 24-bit depth framebuffer, one instanced, depth-tested draw of the same
 * meshes with the same shading (glTF's BRDF for one directional light, an
 * ambient term, sRGB-encoded: docs/3d.md), glFinish per frame. What a careful
 * programmer writes for this one scene, with nothing general about it. */
#include "baseline3d.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <cglm/cglm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gles.h"
#include "scenes3d.h"
#include "timing.h"

static const char *const vertex_source =
    "#version 300 es\n"
    "layout(location = 0) in vec3 inPosition;\n"
    "layout(location = 1) in vec3 inNormal;\n"
    "layout(location = 2) in mat4 Model;\n"
    "layout(location = 6) in mat3 NormalMatrix;\n"
    "uniform mat4 ViewProjection;\n"
    "out vec3 vsPosition;\n"
    "out vec3 vsNormal;\n"
    "void main() {\n"
    "  vec4 world = Model * vec4(inPosition, 1.0);\n"
    "  vsPosition = world.xyz;\n"
    "  vsNormal = NormalMatrix * inNormal;\n"
    "  gl_Position = ViewProjection * world;\n"
    "}\n";
static const char *const fragment_source =
    "#version 300 es\n"
    "precision highp float;\n"
    "in vec3 vsPosition;\n"
    "in vec3 vsNormal;\n"
    "out vec4 Color;\n"
    "uniform vec4 BaseColor;\n"
    "uniform float Metallic, Roughness;\n"
    "uniform vec3 Eye, LightDirection, LightRadiance, Ambient;\n"
    "const float PI = 3.141592653589793;\n"
    "void main() {\n"
    "  vec3 n = normalize(vsNormal);\n"
    "  vec3 v = normalize(Eye - vsPosition);\n"
    "  vec3 l = -LightDirection;\n"
    "  vec3 h = normalize(l + v);\n"
    "  float nl = clamp(dot(n, l), 0.0, 1.0), nv = clamp(dot(n, v), 0.0, 1.0);\n"
    "  float nh = clamp(dot(n, h), 0.0, 1.0), vh = clamp(dot(v, h), 0.0, 1.0);\n"
    "  float a2 = Roughness * Roughness * Roughness * Roughness;\n"
    "  vec3 cDiff = BaseColor.rgb * (1.0 - Metallic);\n"
    "  vec3 f0 = mix(vec3(0.04), BaseColor.rgb, Metallic);\n"
    "  vec3 f = f0 + (1.0 - f0) * pow(1.0 - vh, 5.0);\n"
    "  float q = nh * nh * (a2 - 1.0) + 1.0;\n"
    "  float d = a2 / (PI * q * q);\n"
    "  float vis = 1.0 / ((nl + sqrt(a2 + (1.0 - a2) * nl * nl)) *\n"
    "                     (nv + sqrt(a2 + (1.0 - a2) * nv * nv)));\n"
    "  vec3 c = ((1.0 - f) * cDiff / PI + f * d * vis) * LightRadiance * nl + Ambient * cDiff;\n"
    "  c = clamp(c, 0.0, 1.0);\n"
    "  c = mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));\n"
    "  Color = vec4(c, 1.0);\n"
    "}\n";

static GLuint program(void)
{
	return bench_gl_program(vertex_source, fragment_source, "baseline3d");
}

/* Model and normal matrix of every instance, 25 floats each. */
static void instances(int cubes, int frame, int spin, float *out)
{
	if (!cubes) {
		mat4 top;
		scene3d_top_matrix(frame, spin, (float *)top);
		memcpy(out, top, sizeof(mat4));
		mat3 n;
		glm_mat4_pick3(top, n);
		glm_mat3_inv(n, n);
		glm_mat3_transpose(n);
		memcpy(out + 16, n, sizeof(mat3));
		return;
	}
	mat4 top, row, world;
	scene3d_top_matrix(frame, spin, (float *)top);
	for (int r = 0; r < CUBE_ROWS; r++) {
		mat4 local;
		scene3d_row_matrix(r, (float *)local);
		glm_mat4_mul(top, local, row);
		for (int c = 0; c < CUBE_COLUMNS; c++) {
			vec3 p;
			scene3d_cube_position(c, p);
			glm_mat4_copy(row, world);
			glm_translate(world, p);
			float *f = out + (size_t)(r * CUBE_COLUMNS + c) * 25;
			memcpy(f, world, sizeof(mat4));
			mat3 n;
			glm_mat4_pick3(world, n);
			glm_mat3_inv(n, n);
			glm_mat3_transpose(n);
			memcpy(f + 16, n, sizeof(mat3));
		}
	}
}

int run_baseline3d(const char *scene, int spin, int warmup, int frames)
{
	spin = spin > 0; /* static and full are the same here: every frame drawn */
	int cubes = strcmp(scene, "cubes-10000") == 0;
	struct bench_egl egl;
	if (!bench_egl_display(&egl, "baseline3d") || !bench_egl_context(&egl, "baseline3d"))
		return 1;
	GLuint fbo, rb[2];
	glGenFramebuffers(1, &fbo);
	glBindFramebuffer(GL_FRAMEBUFFER, fbo);
	glGenRenderbuffers(2, rb);
	glBindRenderbuffer(GL_RENDERBUFFER, rb[0]);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, SCENE3D_SIZE, SCENE3D_SIZE);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[0]);
	glBindRenderbuffer(GL_RENDERBUFFER, rb[1]);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, SCENE3D_SIZE, SCENE3D_SIZE);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, rb[1]);
	GLuint p = program();
	glUseProgram(p);
	float projection[16], view[16], eye[3];
	scene3d_camera(projection, view, eye);
	mat4 vp, flip = GLM_MAT4_IDENTITY_INIT;
	flip[1][1] = -1.0f; /* the same picture as libsg's, top row first */
	glm_mat4_mul((vec4 *)projection, (vec4 *)view, vp);
	glm_mat4_mul(flip, vp, vp);
	glUniformMatrix4fv(glGetUniformLocation(p, "ViewProjection"), 1, GL_FALSE, (float *)vp);
	glUniform3fv(glGetUniformLocation(p, "Eye"), 1, eye);
	float base[4] = SCENE3D_BASE, ambient[3] = SCENE3D_AMBIENT;
	float direction[3] = SCENE3D_LIGHT_DIRECTION, radiance[3] = SCENE3D_LIGHT_RADIANCE;
	glm_vec3_normalize(direction);
	glUniform4fv(glGetUniformLocation(p, "BaseColor"), 1, base);
	glUniform1f(glGetUniformLocation(p, "Metallic"), SCENE3D_METALLIC);
	glUniform1f(glGetUniformLocation(p, "Roughness"), SCENE3D_ROUGHNESS);
	glUniform3fv(glGetUniformLocation(p, "LightDirection"), 1, direction);
	glUniform3fv(glGetUniformLocation(p, "LightRadiance"), 1, radiance);
	glUniform3fv(glGetUniformLocation(p, "Ambient"), 1, ambient);

	struct mesh3d mesh;
	if (cubes)
		scene3d_cube(&mesh);
	else
		scene3d_sphere(&mesh, 500, 1000);
	GLuint vao, buffers[4];
	glGenVertexArrays(1, &vao);
	glBindVertexArray(vao);
	glGenBuffers(4, buffers);
	glBindBuffer(GL_ARRAY_BUFFER, buffers[0]);
	glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(mesh.vertex_count * 3 * sizeof(float)),
	             mesh.positions, GL_STATIC_DRAW);
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, NULL);
	glBindBuffer(GL_ARRAY_BUFFER, buffers[1]);
	glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(mesh.vertex_count * 3 * sizeof(float)),
	             mesh.normals, GL_STATIC_DRAW);
	glEnableVertexAttribArray(1);
	glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 0, NULL);
	glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buffers[2]);
	glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(mesh.index_count * sizeof(uint32_t)),
	             mesh.indices, GL_STATIC_DRAW);
	GLsizei index_count = (GLsizei)mesh.index_count;
	scene3d_mesh_free(&mesh); /* GL has it, as a loader would drop its copy */
	int count = cubes ? CUBE_ROWS * CUBE_COLUMNS : 1;
	float *data = malloc((size_t)count * 25 * sizeof(float));
	glBindBuffer(GL_ARRAY_BUFFER, buffers[3]);
	for (int i = 0; i < 7; i++) {
		glEnableVertexAttribArray(2 + (GLuint)i);
		glVertexAttribPointer(2 + (GLuint)i, i < 4 ? 4 : 3, GL_FLOAT, GL_FALSE,
		                      25 * sizeof(float),
		                      (const void *)((i < 4 ? i * 4 : 16 + (i - 4) * 3) * sizeof(float)));
		glVertexAttribDivisor(2 + (GLuint)i, 1);
	}
	glViewport(0, 0, SCENE3D_SIZE, SCENE3D_SIZE);
	glEnable(GL_DEPTH_TEST);
	glEnable(GL_CULL_FACE);
	glFrontFace(GL_CW); /* the flip mirrors glTF's counter-clockwise fronts */
	glClearColor(0.1f, 0.1f, 0.12f, 1.0f);
	double *samples = malloc((size_t)frames * sizeof(double));
	for (int f = 0; f < warmup + frames; f++) {
		double start = now_ms();
		if (f == 0 || spin) {
			instances(cubes, f, spin, data);
			glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)count * 25 * sizeof(float)),
			             data, GL_STREAM_DRAW);
		}
		glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
		glDrawElementsInstanced(GL_TRIANGLES, index_count, GL_UNSIGNED_INT, NULL, count);
		glFinish();
		if (f >= warmup)
			samples[f - warmup] = now_ms() - start;
	}
	if (getenv("BENCH3D_PNG")) { /* the picture, to compare with libsg's by eye */
		unsigned char *px = malloc(SCENE3D_SIZE * SCENE3D_SIZE * 4);
		glReadPixels(0, 0, SCENE3D_SIZE, SCENE3D_SIZE, GL_RGBA, GL_UNSIGNED_BYTE, px);
		/* rows as read: the projection flipped y already */
		bench_write_ppm(getenv("BENCH3D_PNG"), px, SCENE3D_SIZE, SCENE3D_SIZE, false);
		free(px);
	}
	samples_print("frame_ms", samples, frames);
	free(samples);
	free(data);
	bench_egl_finish(&egl);
	return 0;
}
