/* docs/3d.md's shading and a perspective camera's rays in double precision
 * (see brdf_reference.h). */
#include "brdf_reference.h"

#include <math.h>
#include <stddef.h>

struct dvec3 dvec3_add(struct dvec3 a, struct dvec3 b)
{
	return (struct dvec3){a.x + b.x, a.y + b.y, a.z + b.z};
}

struct dvec3 dvec3_sub(struct dvec3 a, struct dvec3 b)
{
	return (struct dvec3){a.x - b.x, a.y - b.y, a.z - b.z};
}

struct dvec3 dvec3_scale(struct dvec3 a, double s)
{
	return (struct dvec3){a.x * s, a.y * s, a.z * s};
}

double dvec3_dot(struct dvec3 a, struct dvec3 b)
{
	return a.x * b.x + a.y * b.y + a.z * b.z;
}

struct dvec3 dvec3_cross(struct dvec3 a, struct dvec3 b)
{
	return (struct dvec3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

double dvec3_length(struct dvec3 a)
{
	return sqrt(dvec3_dot(a, a));
}

struct dvec3 dvec3_normalize(struct dvec3 a)
{
	return dvec3_scale(a, 1.0 / dvec3_length(a));
}

/* --- colours ----------------------------------------------------------------- */

double srgb_encode(double linear)
{
	if (linear <= 0.0031308)
		return 12.92 * linear;
	return 1.055 * pow(linear, 1.0 / 2.4) - 0.055;
}

double srgb_decode(double encoded)
{
	if (encoded <= 0.04045)
		return encoded / 12.92;
	return pow((encoded + 0.055) / 1.055, 2.4);
}

static double clamp01(double value)
{
	return value < 0 ? 0 : value > 1 ? 1 : value;
}

uint8_t unit_to_byte(double value)
{
	return (uint8_t)lround(clamp01(value) * 255.0);
}

/* --- shading ------------------------------------------------------------------ */

/* The radiance factor (colour x intensity x attenuation, without the
 * colour) and the unit vector l from position to the light. */
static double light_at(const struct ref_light *light, struct dvec3 position, struct dvec3 *l)
{
	if (light->type == REF_DIRECTIONAL) {
		*l = dvec3_scale(light->direction, -1);
		return light->intensity;
	}
	struct dvec3 to_light = dvec3_sub(light->position, position);
	double d = dvec3_length(to_light);
	*l = dvec3_scale(to_light, 1.0 / d);
	double attenuation = 1.0 / (d * d);
	if (light->range > 0)
		attenuation *= clamp01(1 - pow(d / light->range, 4));
	if (light->type == REF_SPOT) {
		double cd = dvec3_dot(dvec3_scale(*l, -1), light->direction);
		double s = 1.0 / fmax(0.001, cos(light->inner_cone) - cos(light->outer_cone));
		double o = -cos(light->outer_cone) * s;
		double cone = clamp01(cd * s + o);
		attenuation *= cone * cone;
	}
	return light->intensity * attenuation;
}

void ref_shade(const struct ref_material *material, struct dvec3 position, struct dvec3 normal,
               struct dvec3 eye, const struct dvec3 *view_dir, const struct ref_light *lights,
               int light_count, const double ambient[3], double rgb[3])
{
	double metallic = material->metallic;
	double alpha = material->roughness * material->roughness;
	double alpha2 = alpha * alpha;
	double c_diff[3], f0[3];
	for (int c = 0; c < 3; c++) {
		c_diff[c] = material->base[c] * (1 - metallic);
		f0[c] = 0.04 * (1 - metallic) + material->base[c] * metallic;
		rgb[c] = ambient[c] * c_diff[c] * material->occlusion + material->emissive[c];
	}
	struct dvec3 v = view_dir ? *view_dir : dvec3_normalize(dvec3_sub(eye, position));
	for (int i = 0; i < light_count; i++) {
		struct dvec3 l;
		double radiance = light_at(&lights[i], position, &l);
		struct dvec3 h = dvec3_normalize(dvec3_add(l, v));
		double nl = clamp01(dvec3_dot(normal, l));
		double nv = clamp01(dvec3_dot(normal, v));
		double nh = clamp01(dvec3_dot(normal, h));
		double vh = clamp01(dvec3_dot(v, h));
		double d_denominator = nh * nh * (alpha2 - 1) + 1;
		double d = alpha2 / (M_PI * d_denominator * d_denominator);
		double vis = 1.0 / ((nl + sqrt(alpha2 + (1 - alpha2) * nl * nl)) *
		                    (nv + sqrt(alpha2 + (1 - alpha2) * nv * nv)));
		for (int c = 0; c < 3; c++) {
			double f = f0[c] + (1 - f0[c]) * pow(1 - vh, 5);
			double f_diffuse = (1 - f) * c_diff[c] / M_PI;
			double f_specular = f * d * vis;
			rgb[c] += (f_diffuse + f_specular) * lights[i].color[c] * radiance * nl;
		}
	}
}

void ref_shade_bytes(const struct ref_material *material, struct dvec3 position,
                     struct dvec3 normal, struct dvec3 eye, const struct ref_light *lights,
                     int light_count, const double ambient[3], uint8_t rgba[4])
{
	double rgb[3];
	ref_shade(material, position, normal, eye, NULL, lights, light_count, ambient, rgb);
	for (int c = 0; c < 3; c++)
		rgba[c] = unit_to_byte(srgb_encode(clamp01(rgb[c])));
	rgba[3] = 255;
}

/* --- cameras -------------------------------------------------------------------- */

/* The camera's right, up and forward unit axes (gluLookAt's s, u, f). */
static void camera_axes(const struct ref_camera *camera, struct dvec3 *right, struct dvec3 *up,
                        struct dvec3 *forward)
{
	*forward = dvec3_normalize(dvec3_sub(camera->center, camera->eye));
	*right = dvec3_normalize(dvec3_cross(*forward, camera->up));
	*up = dvec3_cross(*right, *forward);
}

int ref_camera_project(const struct ref_camera *camera, struct dvec3 point, double *x, double *y)
{
	struct dvec3 right, up, forward;
	camera_axes(camera, &right, &up, &forward);
	struct dvec3 relative = dvec3_sub(point, camera->eye);
	double depth = dvec3_dot(relative, forward);
	if (depth <= 0)
		return 0;
	double t = tan(camera->fovy / 2);
	double ndc_x = dvec3_dot(relative, right) / depth / (t * camera->aspect);
	double ndc_y = dvec3_dot(relative, up) / depth / t;
	*x = (ndc_x + 1) / 2 * camera->width;
	*y = (1 - ndc_y) / 2 * camera->height; /* row 0 is the top */
	return 1;
}

struct dvec3 ref_camera_ray(const struct ref_camera *camera, int column, int row)
{
	struct dvec3 right, up, forward;
	camera_axes(camera, &right, &up, &forward);
	double t = tan(camera->fovy / 2);
	double ndc_x = 2 * (column + 0.5) / camera->width - 1;
	double ndc_y = 1 - 2 * (row + 0.5) / camera->height;
	struct dvec3 dir = dvec3_add(forward, dvec3_scale(right, ndc_x * t * camera->aspect));
	return dvec3_normalize(dvec3_add(dir, dvec3_scale(up, ndc_y * t)));
}

int ref_camera_hit_plane(const struct ref_camera *camera, int column, int row,
                         struct dvec3 plane_point, struct dvec3 plane_normal, struct dvec3 *hit)
{
	struct dvec3 dir = ref_camera_ray(camera, column, row);
	double denominator = dvec3_dot(dir, plane_normal);
	if (fabs(denominator) < 1e-12)
		return 0;
	double t = dvec3_dot(dvec3_sub(plane_point, camera->eye), plane_normal) / denominator;
	if (t <= 0)
		return 0;
	*hit = dvec3_add(camera->eye, dvec3_scale(dir, t));
	return 1;
}
