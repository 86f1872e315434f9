#version 300 es
#extension GL_OES_EGL_image_external_essl3 : require
// textured.frag for imported YUV buffers (NV12): the driver samples them
// through GL_TEXTURE_EXTERNAL_OES, converting to RGB with the colour encoding
// and range the EGLImage was made with (src/target/import.c).
precision mediump float;
uniform samplerExternalOES Tex;
in highp vec2 vsTexCoord;
in highp vec2 vsClipZW;
flat in vec4 vsColor;
out vec4 Color;

void main()
{
	if (abs(vsClipZW.x) > vsClipZW.y)
		discard; // in front of the near plane or behind the far one
	Color = texture(Tex, vsTexCoord) * vsColor; // opaque texels: premultiplied as they are
}
