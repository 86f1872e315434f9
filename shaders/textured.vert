#version 300 es
// The whole transform (projection * view * world) arrives as one matrix, so the
// shader stays the two lines the scene graph is about.
uniform mat4 Matrix;
layout(location = 0) in vec4 inVertexCoord;
layout(location = 1) in vec2 inTexCoord;
out vec2 vsTexCoord;

void main()
{
	gl_Position = Matrix * inVertexCoord;
	vsTexCoord = inTexCoord;
}
