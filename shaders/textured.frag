#version 300 es
precision mediump float;
uniform sampler2D Tex;
in vec2 vsTexCoord;
out vec4 Color;

void main()
{
	Color = texture(Tex, vsTexCoord);
}
