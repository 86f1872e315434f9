/* A reference for the 3D render tests: docs/3d.md's shading (glTF 2.0
 * appendix B with KHR_lights_punctual, plus ambient and emissive) and a
 * perspective camera's rays, in plain double arithmetic. Written from the
 * document alone, not from the renderer's shaders or cglm, so that the two
 * can disagree. */
#ifndef SG_TESTS_BRDF_REFERENCE_H
#define SG_TESTS_BRDF_REFERENCE_H

#include <stdint.h>

struct dvec3 {
	double x, y, z;
};

struct dvec3 dvec3_add(struct dvec3 a, struct dvec3 b);
struct dvec3 dvec3_sub(struct dvec3 a, struct dvec3 b);
struct dvec3 dvec3_scale(struct dvec3 a, double s);
double dvec3_dot(struct dvec3 a, struct dvec3 b);
struct dvec3 dvec3_cross(struct dvec3 a, struct dvec3 b);
double dvec3_length(struct dvec3 a);
struct dvec3 dvec3_normalize(struct dvec3 a);

/* --- colours ----------------------------------------------------------------- */

/* The exact piecewise sRGB transfer functions. */
double srgb_encode(double linear);
double srgb_decode(double encoded);
/* A colour component in [0, 1] (clamped first) as the byte it rounds to. */
uint8_t unit_to_byte(double value);

/* --- shading ------------------------------------------------------------------ */

struct ref_material {
	double base[4]; /* linear, the product of factor, texel and vertex colour */
	double metallic, roughness;
	double emissive[3];
	double occlusion; /* ao: 1 without an occlusion texture */
};

enum ref_light_type { REF_DIRECTIONAL, REF_POINT, REF_SPOT };

struct ref_light {
	enum ref_light_type type;
	double color[3];
	double intensity;
	double range;           /* 0: infinite */
	struct dvec3 position;  /* point and spot */
	struct dvec3 direction; /* where it shines (the node's -Z), unit */
	double inner_cone, outer_cone;
};

/* The linear colour (before clamping) of a point at position with unit
 * normal n (already flipped for a back face), seen from eye (or, for an
 * orthographic camera, with view_dir the camera's +Z axis: pass a non-NULL
 * view_dir), lit by lights and ambient. */
void ref_shade(const struct ref_material *material, struct dvec3 position, struct dvec3 normal,
               struct dvec3 eye, const struct dvec3 *view_dir, const struct ref_light *lights,
               int light_count, const double ambient[3], double rgb[3]);

/* ref_shade, clamped, sRGB-encoded and rounded to bytes (alpha 255). */
void ref_shade_bytes(const struct ref_material *material, struct dvec3 position,
                     struct dvec3 normal, struct dvec3 eye, const struct ref_light *lights,
                     int light_count, const double ambient[3], uint8_t rgba[4]);

/* --- cameras -------------------------------------------------------------------- */

/* A perspective camera as sg_camera_init_perspective + sg_camera_look_at
 * describe it (OpenGL conventions), over an output of width x height pixels. */
struct ref_camera {
	struct dvec3 eye, center, up;
	double fovy, aspect;
	int width, height;
};

/* Where point lands on the output, in pixels from the top-left corner (the
 * pixel holding it is (floor(x), floor(y))). Returns 0 behind the camera. */
int ref_camera_project(const struct ref_camera *camera, struct dvec3 point, double *x, double *y);
/* The unit direction of the ray from the eye through the centre of pixel
 * (column, row), row 0 at the top. */
struct dvec3 ref_camera_ray(const struct ref_camera *camera, int column, int row);
/* Where that ray meets the plane through plane_point with normal
 * plane_normal; returns 0 when it does not (parallel or behind). */
int ref_camera_hit_plane(const struct ref_camera *camera, int column, int row,
                         struct dvec3 plane_point, struct dvec3 plane_normal, struct dvec3 *hit);

#endif
