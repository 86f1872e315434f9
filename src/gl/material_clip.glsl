// Clip nodes (src/gl/material_clip.c): put after the #version line of a program's two
// shaders, with SG_CLIP defined, by the clipping variant of each program.
// ClipTable holds 4 texels a clip, one row each, in preorder (a clip after
// the one above it, sorted by its first draw; rows past the frame's clips
// have depths 3, beyond every draw's):
//   0: the depths of its first and last draw, the row of the clip above it
//      (-1: none), its corner radius
//   1, 2, 3: the rows of the 3x3 map from window pixels to its rectangle's
//      coordinates from its centre (homogeneous); .w of 1 and 2: half extents
// Everything is highp: on GPUs mediump cannot hold a pixel's position.
precision highp float;
precision highp int;
uniform highp sampler2D ClipTable;

// The innermost clip holding the draw of depth order, or -1. The last clip
// in preorder that begins at or before it either holds it, or lies inside the
// one that does (clips nest): a binary search, then a climb.
int sg_clip_find(highp float order)
{
	int lo = 0, hi = textureSize(ClipTable, 0).y - 1, found = -1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (texelFetch(ClipTable, ivec2(0, mid), 0).x <= order) {
			found = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	for (int guard = 0; found >= 0 && guard < 32; guard++) {
		highp vec4 head = texelFetch(ClipTable, ivec2(0, found), 0);
		if (order <= head.y)
			return found;
		found = int(head.z);
	}
	return -1;
}

// Whether window point p lies outside clip c or one above it (as
// sg_clip_shape_contains in src/traverse/clips.c, edge inside).
bool sg_clip_outside(int c, highp vec2 p)
{
	for (int guard = 0; c >= 0 && guard < 32; guard++) {
		highp vec4 head = texelFetch(ClipTable, ivec2(0, c), 0);
		highp vec4 r0 = texelFetch(ClipTable, ivec2(1, c), 0);
		highp vec4 r1 = texelFetch(ClipTable, ivec2(2, c), 0);
		highp vec4 r2 = texelFetch(ClipTable, ivec2(3, c), 0);
		highp vec3 q = vec3(p, 1.0);
		highp float w = dot(r2.xyz, q);
		if (!(w > 0.0))
			return true;
		highp vec2 local = vec2(dot(r0.xyz, q), dot(r1.xyz, q)) / w;
		highp vec2 d = abs(local) - vec2(r0.w, r1.w) + head.w;
		// outside also where the distance is not a number (a clip scaled
		// to nothing), as the CPU's test says
		if (!(length(max(d, 0.0)) + min(max(d.x, d.y), 0.0) - head.w <= 0.0))
			return true;
		c = int(head.z);
	}
	return false;
}
