#version 300 es
// Shading of 3D views, as docs/3d.md writes it: glTF 2.0's metallic-
// roughness BRDF (specification, appendix B) for punctual lights
// (KHR_lights_punctual), an ambient and an emissive term, sRGB-encoded.
// PLAIN (a model without a material): its premultiplied colour times its
// texture, as the 2D program draws it. UNLIT: KHR_materials_unlit.
// ALPHA_MASK and ALPHA_BLEND: the material's alpha mode; FADED: the
// opacities above the model are below 1.
// src/gl/draw3d.c builds one program per combination it meets of the
// material's textures (BASE_TEX, METAL_ROUGH_TEX, NORMAL_TEX, OCCLUSION_TEX,
// EMISSIVE_TEX, TANGENTS) and the view's lights (LIGHT_COUNT, LIGHT_KINDS):
// llvmpipe runs both sides of a branch under a mask even when a uniform
// decides it, so a texture the material lacks, or a spot light's cone for
// a directional light, would cost every fragment.
precision highp float;
#define PI 3.141592653589793
#define MAX_LIGHTS 8

in vec3 vsPosition;
in vec3 vsNormal;
#if defined(NORMAL_TEX) && defined(TANGENTS)
in vec4 vsTangent;
#endif
#if defined(PLAIN) || defined(UV0)
in vec2 vsUV0;
#endif
#ifdef UV1
in vec2 vsUV1;
#endif
#ifdef COLORS
in vec4 vsColor;
#endif
#if defined(PLAIN) || defined(FADED)
flat in vec4 vsTint;
#endif
out vec4 Color;

uniform sampler2D BaseTex;      // unit 0; sRGB-encoded, straight alpha (PLAIN: premultiplied)
uniform sampler2D MetalRoughTex; // unit 1
uniform sampler2D NormalTex;     // unit 2
uniform sampler2D OcclusionTex;  // unit 3
uniform sampler2D EmissiveTex;   // unit 4; sRGB-encoded
// Which uv set each texture reads, -1 where the material has none:
// base, metallic-roughness, normal, occlusion; and emissive.
uniform ivec4 TexSet;
uniform int EmissiveSet;
// 1 where the base colour (x) or emissive (y) texture is a dma-buf, whose
// texels are premultiplied; a material's other textures have straight alpha.
uniform vec2 Premultiplied;

#ifndef PLAIN
uniform vec4 BaseColor;  // linear, straight alpha
uniform float AlphaCutoff;
#ifndef UNLIT
uniform float Metallic, Roughness, NormalScale, OcclusionStrength;
uniform vec3 Emissive;
uniform vec3 Eye;
uniform vec3 Forward;
uniform bool Orthographic;
uniform vec3 Ambient;
uniform vec3 LightPosition[MAX_LIGHTS];
uniform vec3 LightDirection[MAX_LIGHTS];
uniform vec3 LightRadiance[MAX_LIGHTS];
uniform float LightRange[MAX_LIGHTS];
uniform float LightInnerCos[MAX_LIGHTS];
uniform float LightOuterCos[MAX_LIGHTS];
#endif
#endif

#ifdef UV0
vec2 uvOf(int set)
{
#ifdef UV1
	return set == 1 ? vsUV1 : vsUV0;
#else
	return vsUV0;
#endif
}
#endif

vec3 decode(vec3 c)
{
	return mix(c / 12.92, pow((c + 0.055) / 1.055, vec3(2.4)), step(vec3(0.04045), c));
}

vec3 encode(vec3 c)
{
	c = clamp(c, 0.0, 1.0);
	return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));
}

#ifdef UV0
// A texel of an sRGB-encoded texture, linear. A material's textures keep
// straight alpha (src/gl/cache.c): OPAQUE and MASK take the colour of a
// texel of any alpha, which premultiplied bytes would have lost.
vec4 linearTexel(sampler2D tex, int set, float premultiplied)
{
	vec4 t = texture(tex, uvOf(set));
	float divisor = premultiplied > 0.5 && t.a > 0.0 ? t.a : 1.0;
	return vec4(decode(t.rgb / divisor), t.a);
}
#endif

#if !defined(PLAIN) && !defined(UNLIT)
float visibility(float nl, float nv, float a2)
{
	return 1.0 / ((nl + sqrt(a2 + (1.0 - a2) * nl * nl)) * (nv + sqrt(a2 + (1.0 - a2) * nv * nv)));
}

vec3 surfaceNormal()
{
	vec3 n = normalize(vsNormal);
#ifdef NORMAL_TEX
	{
		vec2 uv = uvOf(TexSet.z);
		vec3 t, b;
#ifdef TANGENTS
		t = normalize(vsTangent.xyz - n * dot(n, vsTangent.xyz));
		b = cross(n, t) * vsTangent.w;
#else // from the screen derivatives of position and uv
			vec3 dp1 = dFdx(vsPosition), dp2 = dFdy(vsPosition);
			vec2 du1 = dFdx(uv), du2 = dFdy(uv);
			vec3 r1 = cross(dp2, n), r2 = cross(n, dp1);
			// r1 du + r2 dv are the gradients of u and v times the screen's
			// determinant dot(dp1, r1), whose sign flips with the frame's y
			// flip and with a mirrored output: take it out. Then t = dP/du, and
			// b = -dP/dv, glTF's +y of a normal texture (up in the image, where
			// v decreases), as the given tangents' cross(n, t) * w is.
			float handed = dot(dp1, r1) < 0.0 ? -1.0 : 1.0;
			t = (r1 * du1.x + r2 * du2.x) * handed;
			b = (r1 * du1.y + r2 * du2.y) * -handed;
			float scale = inversesqrt(max(max(dot(t, t), dot(b, b)), 1e-20));
		t *= scale;
		b *= scale;
#endif
		vec3 m = texture(NormalTex, uv).rgb * 2.0 - 1.0;
		m.xy *= NormalScale;
		n = normalize(mat3(t, b, n) * m);
	}
#endif
	return gl_FrontFacing ? n : -n; // a double-sided material's back face
}
#endif

void main()
{
#ifdef PLAIN
	Color = texture(BaseTex, vsUV0) * vsTint; // premultiplied, as the 2D program draws
#else
	vec4 base = BaseColor;
#ifdef COLORS
	base *= vsColor;
#endif
#ifdef BASE_TEX
	base *= linearTexel(BaseTex, TexSet.x, Premultiplied.x);
#endif
	// A shader that may discard keeps llvmpipe from testing depth before
	// shading: only MASK materials' programs have the discard.
#ifdef ALPHA_MASK
	if (base.a < AlphaCutoff)
		discard;
#endif
#ifdef ALPHA_BLEND
	float alpha = base.a;
#else
	float alpha = 1.0;
#endif
#ifdef FADED // the opacities above, which make even an opaque material blended
	alpha *= vsTint.a;
#endif
#ifdef UNLIT
	vec3 color = base.rgb;
#else
	float metallic = Metallic, roughness = Roughness;
#ifdef METAL_ROUGH_TEX
	vec4 mr = texture(MetalRoughTex, uvOf(TexSet.y));
	roughness *= mr.g;
	metallic *= mr.b;
#endif
	float a2 = roughness * roughness * roughness * roughness; // alpha = roughness squared
	vec3 cDiff = base.rgb * (1.0 - metallic);
	vec3 f0 = mix(vec3(0.04), base.rgb, metallic);
	vec3 n = surfaceNormal();
	vec3 v = Orthographic ? -Forward : normalize(Eye - vsPosition);
	float nv = clamp(dot(n, v), 0.0, 1.0);
	vec3 color = vec3(0.0);
#if LIGHT_COUNT > 0
	// constant: the compiler unrolls the loop and keeps one kind's code each
	const int kinds[LIGHT_COUNT] = int[](LIGHT_KINDS); // 0 directional, 1 point, 2 spot
	for (int i = 0; i < LIGHT_COUNT; i++) {
		vec3 l;
		float attenuation = 1.0;
		if (kinds[i] == 0) {
			l = -LightDirection[i];
		} else {
			vec3 toLight = LightPosition[i] - vsPosition;
			float d2 = max(dot(toLight, toLight), 1e-12);
			float d = sqrt(d2);
			l = toLight / d;
			attenuation = 1.0 / d2;
			if (LightRange[i] > 0.0) {
				float r = d / LightRange[i];
				attenuation *= clamp(1.0 - r * r * r * r, 0.0, 1.0);
			}
			if (kinds[i] == 2) {
				float s = 1.0 / max(0.001, LightInnerCos[i] - LightOuterCos[i]);
				float o = -LightOuterCos[i] * s;
				float cone = clamp(dot(LightDirection[i], -l) * s + o, 0.0, 1.0);
				attenuation *= cone * cone;
			}
		}
		vec3 h = normalize(l + v);
		float nl = clamp(dot(n, l), 0.0, 1.0);
		float nh = clamp(dot(n, h), 0.0, 1.0);
		float vh = clamp(dot(v, h), 0.0, 1.0);
		vec3 f = f0 + (1.0 - f0) * pow(1.0 - vh, 5.0);
		float q = nh * nh * (a2 - 1.0) + 1.0;
		float dist = a2 / (PI * q * q);
		vec3 diffuse = (1.0 - f) * cDiff / PI;
		vec3 specular = f * dist * visibility(nl, nv, a2);
		color += (diffuse + specular) * LightRadiance[i] * attenuation * nl;
	}
#endif
	float ao = 1.0;
#ifdef OCCLUSION_TEX
	ao = 1.0 + OcclusionStrength * (texture(OcclusionTex, uvOf(TexSet.w)).r - 1.0);
#endif
	color += Ambient * cDiff * ao;
	vec3 emissive = Emissive;
#ifdef EMISSIVE_TEX
	emissive *= linearTexel(EmissiveTex, EmissiveSet, Premultiplied.y).rgb;
#endif
	color += emissive;
#endif
	Color = vec4(encode(color) * alpha, alpha);
#endif
}
