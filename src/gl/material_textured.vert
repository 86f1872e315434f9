#version 300 es
// Matrix is the whole transform (projection * view * world) of one instance:
// models are drawn instanced, in batches of the same texture and mesh.
// ALL_WHITE (defined by src/gl/gl_renderer.c): the program of frames in which
// every model's colour and opacity are white and 1, without the colour input.
// A software rasteriser sets up, bins and interpolates each input of each
// triangle: one less is 2-3 % of a 1000-quad frame on llvmpipe.
layout(location = 0) in vec4 inVertexCoord;
layout(location = 1) in vec2 inTexCoord;
layout(location = 2) in mat4 Matrix;   // per instance (locations 2 to 5)
layout(location = 6) in float inOrder; // per instance: traversal order as a depth in (-1, 1)
layout(location = 7) in vec4 inColor;  // per instance: premultiplied colour times opacity
out vec2 vsTexCoord;
out vec2 vsClipZW;
flat out float vsOrder; // the window depth of inOrder, written by the fragment shader
#ifndef ALL_WHITE
flat out vec4 vsColor; // flat: one value per model, never interpolated
#endif
#ifdef SG_CLIP
flat out int vsClip; // the innermost clip of this draw (material_clip.glsl)
#endif

void main()
{
	gl_Position = Matrix * inVertexCoord;
	vsTexCoord = inTexCoord;
#ifndef ALL_WHITE
	vsColor = inColor;
#endif
	// Batching draws out of traversal order; a depth test on this per-draw depth
	// puts back the painter's order. The true depth goes to the fragment shader,
	// which clips against the near and far planes itself.
	vsClipZW = gl_Position.zw;
#ifdef SG_CLIP
	vsClip = sg_clip_find(inOrder); // each draw's depth is its own: one clip
#endif
	gl_Position.z = inOrder * gl_Position.w;
	// The fragments' depth is this, the viewport's mapping of inOrder, not
	// the rasteriser's: that one divides inOrder * w by each vertex's w,
	// which rounds differently where w differs (perspective), and then
	// interpolates the three results across the triangle. A later triangle
	// of the same draw then failed GL_GEQUAL against an earlier one on about
	// a quarter of their overlap. Flat, it is one value for the whole draw.
	// Where every vertex's w is 1 the rasteriser's depth would do, and a
	// program without the write was about 4 % faster on flat-1000; but Mesa
	// 22.3's llvmpipe crashed in its shader code drawing with such programs
	// into kms_swrast's buffers (the drm suite's kiosk and sg-render runs),
	// so every 2D program writes it (bench/README.md, issue 43).
	vsOrder = inOrder * (gl_DepthRange.diff * 0.5) + (gl_DepthRange.near + gl_DepthRange.far) * 0.5;
}
