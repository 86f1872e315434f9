/* The three-rectangle scene (shared/scenes/three-rects.md) written straight
 * against EGL, GLES 3 and libpng, without libsg: the whole-process baseline
 * that `bench` times the three-rects demo against (bench/README.md). It does
 * what the demo does for the same picture: a surfaceless EGL display (Mesa's
 * llvmpipe here), a GLES 3 context, a 256 x 256 RGBA8 framebuffer, three
 * textured quads drawn in order, glReadPixels, a PNG written with libpng's
 * defaults. No error checking beyond what a careful small program does.
 *   raw_three_rects OUTPUT.png */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>

#define SIZE 256

static const char *const vertex_source =
    "#version 300 es\n"
    "layout(location = 0) in vec4 inVertexCoord;\n"
    "layout(location = 1) in vec2 inTexCoord;\n"
    "uniform mat4 Matrix;\n"
    "out vec2 vsTexCoord;\n"
    "void main() { gl_Position = Matrix * inVertexCoord; vsTexCoord = inTexCoord; }\n";
static const char *const fragment_source =
    "#version 300 es\n"
    "precision mediump float;\n"
    "uniform sampler2D Tex;\n"
    "in vec2 vsTexCoord;\n"
    "out vec4 Color;\n"
    "void main() { Color = texture(Tex, vsTexCoord); }\n";

static int fail(const char *what)
{
	fprintf(stderr, "raw_three_rects: %s failed\n", what);
	return 1;
}

static GLuint shader(GLenum type, const char *source)
{
	GLuint s = glCreateShader(type);
	glShaderSource(s, 1, &source, NULL);
	glCompileShader(s);
	return s;
}

static GLuint checker_texture(unsigned char r, unsigned char g, unsigned char b)
{
	static unsigned char px[64 * 64 * 4];
	for (int y = 0; y < 64; y++)
		for (int x = 0; x < 64; x++) {
			unsigned char *p = px + (y * 64 + x) * 4;
			int coloured = ((x / 8) + (y / 8)) % 2 == 0;
			p[0] = coloured ? r : 255, p[1] = coloured ? g : 255, p[2] = coloured ? b : 255;
			p[3] = 255;
		}
	GLuint t;
	glGenTextures(1, &t);
	glBindTexture(GL_TEXTURE_2D, t);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 64, 64, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
	return t;
}

/* Orthographic, x 0..256 left to right, y 0..256 top to bottom (row 0 of
 * glReadPixels is then the top row), times translate(x, y) * scale(s). */
static void matrix(float x, float y, float s, float m[16])
{
	for (int i = 0; i < 16; i++)
		m[i] = 0;
	m[0] = 2.0f / SIZE * s;
	m[5] = 2.0f / SIZE * s;
	m[10] = -1;
	m[15] = 1;
	m[12] = 2.0f / SIZE * x - 1;
	m[13] = 2.0f / SIZE * y - 1;
}

static int write_png(const char *path, const unsigned char *rgba)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return fail("fopen");
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png_create_info_struct(png);
	if (setjmp(png_jmpbuf(png))) {
		fclose(f);
		return fail("libpng");
	}
	png_init_io(png, f);
	png_set_IHDR(png, info, SIZE, SIZE, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE,
	             PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (int y = 0; y < SIZE; y++)
		png_write_row(png, rgba + (size_t)y * SIZE * 4);
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	return fclose(f) ? fail("fclose") : 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: raw_three_rects OUTPUT.png\n");
		return 2;
	}
	PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
	    (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
	EGLDisplay display =
	    get_display ? get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL)
	                : EGL_NO_DISPLAY;
	if (display == EGL_NO_DISPLAY || !eglInitialize(display, NULL, NULL))
		return fail("eglInitialize");
	eglBindAPI(EGL_OPENGL_ES_API);
	static const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
	EGLContext context =
	    eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, context_attribs);
	if (context == EGL_NO_CONTEXT ||
	    !eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context))
		return fail("eglCreateContext");

	GLuint framebuffer, renderbuffer;
	glGenRenderbuffers(1, &renderbuffer);
	glBindRenderbuffer(GL_RENDERBUFFER, renderbuffer);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, SIZE, SIZE);
	glGenFramebuffers(1, &framebuffer);
	glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
	                          renderbuffer);

	GLuint program = glCreateProgram();
	glAttachShader(program, shader(GL_VERTEX_SHADER, vertex_source));
	glAttachShader(program, shader(GL_FRAGMENT_SHADER, fragment_source));
	glLinkProgram(program);
	GLint linked;
	glGetProgramiv(program, GL_LINK_STATUS, &linked);
	if (!linked)
		return fail("linking the program");
	glUseProgram(program);
	GLint matrix_location = glGetUniformLocation(program, "Matrix");

	/* a 100 x 100 quad, its top-left corner at the origin */
	static const float quad[] = {0,   0,   0, 1, 0, 0, 100, 0,   0, 1, 1, 0,
	                             0,   100, 0, 1, 0, 1, 100, 100, 0, 1, 1, 1};
	GLuint vertex_array, buffer;
	glGenVertexArrays(1, &vertex_array);
	glBindVertexArray(vertex_array);
	glGenBuffers(1, &buffer);
	glBindBuffer(GL_ARRAY_BUFFER, buffer);
	glBufferData(GL_ARRAY_BUFFER, sizeof(quad), quad, GL_STATIC_DRAW);
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 6 * sizeof(float), NULL);
	glEnableVertexAttribArray(1);
	glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 6 * sizeof(float),
	                      (const void *)(4 * sizeof(float)));

	GLuint textures[3] = {checker_texture(255, 0, 0), checker_texture(0, 255, 0),
	                      checker_texture(0, 0, 255)};
	/* Rectangle 1 at (0, 0); the transform's scale 0.5 over Rectangles 2
	 * and 3 at (10, 10) and (15, 15) */
	static const float placement[3][3] = {{0, 0, 1}, {5, 5, 0.5f}, {7.5f, 7.5f, 0.5f}};
	glViewport(0, 0, SIZE, SIZE);
	glClearColor(0, 0, 0, 1);
	glClear(GL_COLOR_BUFFER_BIT);
	for (int i = 0; i < 3; i++) {
		float m[16];
		matrix(placement[i][0], placement[i][1], placement[i][2], m);
		glUniformMatrix4fv(matrix_location, 1, GL_FALSE, m);
		glBindTexture(GL_TEXTURE_2D, textures[i]);
		glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	}
	static unsigned char rgba[SIZE * SIZE * 4];
	glPixelStorei(GL_PACK_ALIGNMENT, 1);
	glReadPixels(0, 0, SIZE, SIZE, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
	if (glGetError() != GL_NO_ERROR)
		return fail("drawing");
	int result = write_png(argv[1], rgba);
	eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	eglDestroyContext(display, context);
	eglTerminate(display);
	return result;
}
