#version 300 es
// textured.frag for imported NV12 buffers: the Y plane (R8) on unit 0 and
// the CbCr plane (GR88: Cb in r, Cr in g) on unit 1, converted here rather
// than by the driver's external sampling, which Mesa 22.3's llvmpipe gets
// wrong. YuvToRgb and YuvOffset hold the desc's matrix and range
// (src/gl/material_nv12.c).
precision highp float; // 8-bit steps through a 3x3 matrix: fp16 would round
uniform sampler2D Luma;
uniform sampler2D Chroma;
uniform mat3 YuvToRgb;
uniform vec3 YuvOffset;
in highp vec2 vsTexCoord;
in highp vec2 vsClipZW;
flat in highp float vsOrder; // this draw's depth (textured.vert)
#ifdef SG_CLIP
flat in int vsClip; // its clip (textured.vert, material_clip.glsl)
#endif
flat in vec4 vsColor;
out vec4 Color;

void main()
{
	if (abs(vsClipZW.x) > vsClipZW.y)
		discard; // in front of the near plane or behind the far one
#ifdef SG_CLIP
	if (sg_clip_outside(vsClip, gl_FragCoord.xy))
		discard;
#endif
	gl_FragDepth = vsOrder;
	vec3 yuv = vec3(texture(Luma, vsTexCoord).r, texture(Chroma, vsTexCoord).rg);
	vec3 rgb = clamp(YuvToRgb * (yuv - YuvOffset), 0.0, 1.0);
	Color = vec4(rgb, 1.0) * vsColor; // opaque: premultiplied as it is
}
