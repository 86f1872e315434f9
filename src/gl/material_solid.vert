#version 300 es
// Models of 3D views (src/gl/draw3d.c), drawn instanced: the models of one
// mesh and material in one draw, each instance's matrices and tint as
// attributes; positions lit in the view's space (docs/3d.md).
layout(location = 0) in vec3 inPosition;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in vec2 inUV0;
layout(location = 3) in vec2 inUV1;
layout(location = 4) in vec4 inColor;   // linear; (1, 1, 1, 1) when the mesh has none
layout(location = 5) in vec4 inTangent; // xyz, and w the bitangent's sign
layout(location = 6) in mat4 Model;         // per instance (locations 6 to 9)
layout(location = 10) in mat3 NormalMatrix; // per instance (10 to 12): Model's inverse transpose
layout(location = 13) in vec4 inTint;       // per instance: PLAIN's premultiplied colour, else
                                            // (1, 1, 1, the opacities above)
uniform mat4 ViewProjection;
// Only the outputs the program's fragments read (defines: src/gl/draw3d.c):
// a software rasteriser interpolates every one of them for every fragment.
out vec3 vsPosition;
out vec3 vsNormal;
#if defined(NORMAL_TEX) && defined(TANGENTS)
out vec4 vsTangent;
#endif
#if defined(PLAIN) || defined(UV0)
out vec2 vsUV0;
#endif
#ifdef UV1
out vec2 vsUV1;
#endif
#ifdef COLORS
out vec4 vsColor;
#endif
#if defined(PLAIN) || defined(FADED)
flat out vec4 vsTint;
#endif

void main()
{
	vec4 world = Model * vec4(inPosition, 1.0);
	vsPosition = world.xyz;
	vsNormal = NormalMatrix * inNormal;
#if defined(NORMAL_TEX) && defined(TANGENTS)
	vsTangent = vec4(mat3(Model) * inTangent.xyz, inTangent.w);
#endif
#if defined(PLAIN) || defined(UV0)
	vsUV0 = inUV0;
#endif
#ifdef UV1
	vsUV1 = inUV1;
#endif
#ifdef COLORS
	vsColor = inColor;
#endif
#if defined(PLAIN) || defined(FADED)
	vsTint = inTint;
#endif
	gl_Position = ViewProjection * world;
}
