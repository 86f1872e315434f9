#version 300 es
precision mediump float;
uniform sampler2D Tex;
in highp vec2 vsTexCoord; // mediump (fp16 on many GPUs) misses texels past ~1024
in highp vec2 vsClipZW;
flat in highp float vsOrder; // this draw's depth (textured.vert)
#ifdef SG_CLIP
flat in int vsClip; // its clip (textured.vert, material_clip.glsl)
#endif
#ifndef ALL_WHITE
flat in vec4 vsColor;
#endif
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
	Color = texture(Tex, vsTexCoord);
#ifndef ALL_WHITE
	// The model's colour and opacity. Both premultiplied: the texels on
	// upload, the colour by src/traverse/paint.c.
	Color *= vsColor;
#endif
}
