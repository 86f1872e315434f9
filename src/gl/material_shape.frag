#version 300 es
// textured.frag for shape textures (sg/shape.h, src/gl/material_shape.c): the texels
// are computed from the shape's numbers, not sampled. Built in variants
// (SHAPE_BLUR, SHAPE_GRADIENT, SHAPE_BORDER, SHAPE_IMAGE): a shader with every feature
// behind branches cost llvmpipe 50 % more on a dashboard of plain cards and
// shadows than one with only what they use (bench/README.md, "Dashboard"). The texture
// coordinates are 0 and 1 at the box's edges, beyond them in the mesh's
// margin (sg_mesh_create_shape); p is the point in the box's units, the
// origin at the box's centre, y down.
precision highp float;
uniform vec2 Size;          // the box
uniform vec2 Half;          // the box's half size
uniform vec4 Radii;         // clamped: top-left, top-right, bottom-right, bottom-left
uniform vec4 InnerRadii;    // the border's inner corners
uniform float BorderWidth;
uniform vec4 Fill;          // premultiplied
uniform vec4 BorderColor;   // premultiplied
uniform int Gradient;       // 0 none, 1 linear, 2 radial
uniform vec2 GradientStart, GradientEnd; // in box units, (0, 0) the top-left corner
uniform int StopCount;
uniform float StopOffsets[8];
uniform vec4 StopColors[8]; // premultiplied
uniform float Blur;         // 0: sharp
#ifdef SHAPE_IMAGE
uniform sampler2D Tex;      // the image's texels, premultiplied (sg_shape_desc.image)
#endif
in highp vec2 vsTexCoord;
in highp vec2 vsClipZW;
flat in highp float vsOrder; // this draw's depth (textured.vert)
#ifdef SG_CLIP
flat in int vsClip; // its clip (textured.vert, material_clip.glsl)
#endif
flat in vec4 vsColor;
out vec4 Color;

// Signed distance to a box of half size h with per-corner radii r (negative
// inside), and its gradient, a unit vector: worked out rather than taken by
// dFdx, which differences across a 2x2 block of pixels and so bends where
// the distance's direction turns (at a square corner).
float box(vec2 p, vec2 h, vec4 r, out vec2 normal)
{
	float radius = p.x < 0.0 ? (p.y < 0.0 ? r.x : r.w) : (p.y < 0.0 ? r.y : r.z);
	vec2 q = abs(p) - h + radius;
	vec2 side = vec2(p.x < 0.0 ? -1.0 : 1.0, p.y < 0.0 ? -1.0 : 1.0);
	if (q.x > 0.0 && q.y > 0.0)
		normal = normalize(q) * side;
	else if (q.x > q.y)
		normal = vec2(side.x, 0.0);
	else
		normal = vec2(0.0, side.y);
	return min(max(q.x, q.y), 0.0) + length(max(q, 0.0)) - radius;
}

// The part of the pixel inside the outline, from the signed distance d (box
// units) and its gradient g across the output (units per pixel): the exact
// area of the pixel square on the inner side of the edge's tangent line.
// Projected on the edge's normal n, the square spreads as the sum of two
// uniform spans |n.x| and |n.y| wide: a trapezoid, linear in its middle and
// quadratic at its ends. Exact for straight edges at any angle.
float coverage(float d, vec2 g)
{
	float len = max(length(g), 1e-6);
	float t = -d / len; // pixels inside the edge
	vec2 n = abs(g) / len;
	float a = max(n.x, n.y), b = min(n.x, n.y);
	float outer = 0.5 * (a + b), inner = 0.5 * (a - b);
	if (t >= outer)
		return 1.0;
	if (t <= -outer)
		return 0.0;
	if (abs(t) <= inner)
		return 0.5 + t / a;
	float e = outer - abs(t);
	float tail = e * e / (2.0 * a * b);
	return t > 0.0 ? 1.0 - tail : tail;
}

// The pixel square, its offsets u from the fragment's centre in -0.5 .. 0.5,
// clipped to where an edge's distance d + g.u is not positive, e = (g, d).
// Sutherland-Hodgman: a convex polygon stays convex, each edge adds at most
// one point.
void clip_edge(inout vec2 poly[6], inout int n, vec3 e)
{
	vec2 kept[6];
	int count = 0;
	for (int k = 0; k < 6; k++) {
		if (k >= n)
			break;
		vec2 a = poly[k], b = poly[k + 1 < n ? k + 1 : 0];
		float fa = e.z + dot(e.xy, a), fb = e.z + dot(e.xy, b);
		if (fa <= 0.0)
			kept[count++] = a;
		if ((fa <= 0.0) != (fb <= 0.0) && count < 6)
			kept[count++] = mix(a, b, fa / (fa - fb));
	}
	poly = kept;
	n = count;
}

// The part of the pixel inside a square corner: the area of the pixel's
// square inside both of its edges, ex and ey (as clip_edge's e), by
// clipping and the shoelace formula. Exact at any angle, where the sum of
// the two edges' coverages (coverage) is not: near the corner each counts
// the other's outside.
float square_corner(vec3 ex, vec3 ey)
{
	vec2 poly[6];
	poly[0] = vec2(-0.5, -0.5);
	poly[1] = vec2(0.5, -0.5);
	poly[2] = vec2(0.5, 0.5);
	poly[3] = vec2(-0.5, 0.5);
	int n = 4;
	clip_edge(poly, n, ex);
	clip_edge(poly, n, ey);
	float twice = 0.0;
	for (int k = 0; k < 6; k++) {
		if (k >= n)
			break;
		vec2 a = poly[k], b = poly[k + 1 < n ? k + 1 : 0];
		twice += a.x * b.y - b.x * a.y;
	}
	return clamp(0.5 * abs(twice), 0.0, 1.0);
}

// The part of the pixel inside the box of half size h with corner radii r,
// p moving by along_x and along_y from one pixel to the next. A rounded
// corner's by its outline's tangent line (coverage); in a square corner's
// quarter each edge is a line of its own, and the pixel's coverage is that of
// the edge it crosses, or, where it crosses both, the area inside both
// (square_corner): the distance to the corner point bent the tangent there.
float inside(vec2 p, vec2 h, vec4 r, vec2 along_x, vec2 along_y)
{
	float radius = p.x < 0.0 ? (p.y < 0.0 ? r.x : r.w) : (p.y < 0.0 ? r.y : r.z);
	if (radius > 0.0) {
		vec2 normal;
		float d = box(p, h, r, normal);
		return coverage(d, vec2(dot(normal, along_x), dot(normal, along_y)));
	}
	vec2 side = vec2(p.x < 0.0 ? -1.0 : 1.0, p.y < 0.0 ? -1.0 : 1.0);
	vec2 q = abs(p) - h; // each edge's distance, in box units
	vec3 ex = vec3(side.x * vec2(along_x.x, along_y.x), q.x);
	vec3 ey = vec3(side.y * vec2(along_x.y, along_y.y), q.y);
	float cx = coverage(ex.z, ex.xy), cy = coverage(ey.z, ey.xy);
	if (cx >= 1.0 || cy <= 0.0)
		return cy;
	if (cy >= 1.0 || cx <= 0.0)
		return cx;
	return square_corner(ex, ey);
}

// erf to 1.5e-7 (Abramowitz and Stegun 7.1.26).
float erf_(float x)
{
	float t = 1.0 / (1.0 + 0.3275911 * abs(x));
	float y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t +
	                 0.254829592) * t * exp(-x * x);
	return sign(x) * y;
}

// The fill of the box blurred by a Gaussian of deviation s at p: exact
// (separable) for square corners; with radii r (top-left, top-right,
// bottom-right, bottom-left), the rows of the rounded box within 3 s of p
// are integrated exactly along x, each from its left edge to its right one
// (each side's corner of the row's half), and summed over y by the midpoint
// rule (16 rows between the exact limits of the integral).
float blurred(vec2 p, vec2 h, vec4 r, float s)
{
	float k = 0.70710678 / s;
	if (r == vec4(0.0)) {
		float x = erf_((p.x + h.x) * k) - erf_((p.x - h.x) * k);
		float y = erf_((p.y + h.y) * k) - erf_((p.y - h.y) * k);
		return 0.25 * x * y;
	}
	float low = max(-h.y, p.y - 3.0 * s), high = min(h.y, p.y + 3.0 * s);
	if (high <= low)
		return 0.0;
	float step = (high - low) / 16.0, sum = 0.0;
	for (int i = 0; i < 16; i++) {
		float y = low + (float(i) + 0.5) * step; // the row, in the box
		float dy = p.y - y;
		vec2 side = y < 0.0 ? r.xy : r.wz; // the row's left and right corners
		// each half width: the straight part, or inside a corner's arc
		vec2 into = max(abs(y) - (h.y - side), 0.0);
		vec2 w = h.x - side + sqrt(max(side * side - into * into, 0.0));
		float row = 0.5 * (erf_((p.x + w.x) * k) - erf_((p.x - w.y) * k));
		sum += row * exp(-dy * dy / (2.0 * s * s));
	}
	return sum * step / (2.5066283 * s);
}

vec4 gradient(vec2 p)
{
	vec2 a = GradientStart, b = GradientEnd;
	float t;
	if (Gradient == 1) {
		vec2 ab = b - a;
		t = dot(p - a, ab) / dot(ab, ab);
	} else {
		t = length(p - a) / length(b - a);
	}
	vec4 c = StopColors[0];
	for (int i = 1; i < 8; i++) {
		if (i >= StopCount)
			break;
		float o0 = StopOffsets[i - 1], o1 = StopOffsets[i];
		if (t >= o1)
			c = StopColors[i];
		else if (t > o0)
			c = mix(StopColors[i - 1], StopColors[i], (t - o0) / (o1 - o0));
	}
	return c;
}

void main()
{
	if (abs(vsClipZW.x) > vsClipZW.y)
		discard; // in front of the near plane or behind the far one
#ifdef SG_CLIP
	if (sg_clip_outside(vsClip, gl_FragCoord.xy))
		discard;
#endif
	gl_FragDepth = vsOrder;
	vec2 p = vsTexCoord * Size - 0.5 * Size; // the box's centre at 0
	vec4 shape;
#ifdef SHAPE_BLUR
	shape = Fill * clamp(blurred(p, Half, Radii, Blur), 0.0, 1.0);
#else
	// box units per output pixel: p moves by these from one pixel to the next
	vec2 along_x = dFdx(p), along_y = dFdy(p);
	float outer = inside(p, Half, Radii, along_x, along_y);
#if defined(SHAPE_GRADIENT)
	vec4 fill = gradient(vsTexCoord * Size);
#elif defined(SHAPE_IMAGE)
	// the image stretched over the box, its edge texels held in the margin
	// (half a texel in: a repeating image's linear filter would blend in the
	// opposite edge at 0 and 1)
	vec2 inset = 0.5 / vec2(textureSize(Tex, 0));
	vec4 fill = Fill * texture(Tex, clamp(vsTexCoord, inset, 1.0 - inset));
#else
	vec4 fill = Fill;
#endif
#ifdef SHAPE_BORDER
	float inner = min(inside(p, Half - BorderWidth, InnerRadii, along_x, along_y), outer);
	shape = fill * inner + BorderColor * (outer - inner);
#else
	shape = fill * outer;
#endif
#endif
	Color = shape * vsColor;
}
