#include "three_rects_scene.h"

#include <stddef.h>

void three_rects_checkerboard(unsigned char pixels[64 * 64 * 4], unsigned char r, unsigned char g,
                              unsigned char b)
{
	for (int y = 0; y < 64; y++) {
		for (int x = 0; x < 64; x++) {
			unsigned char *p = pixels + (y * 64 + x) * 4;
			int coloured = ((x / 8) + (y / 8)) % 2 == 0;
			p[0] = coloured ? r : 255;
			p[1] = coloured ? g : 255;
			p[2] = coloured ? b : 255;
			p[3] = 255;
		}
	}
}

static sg_texture checkerboard_texture(struct sg_scene *scene, unsigned char r, unsigned char g,
                                       unsigned char b)
{
	unsigned char pixels[64 * 64 * 4];
	three_rects_checkerboard(pixels, r, g, b);
	return sg_texture_create(scene, &(struct sg_texture_desc){
		.width = 64, .height = 64, .pixels = pixels, .filter = SG_FILTER_NEAREST});
}

struct sg_scene *three_rects_build(void)
{
	struct sg_scene *scene = sg_scene_create();
	if (!scene)
		return NULL;
	sg_mesh quad = sg_mesh_create_quad(scene, 100.0f, 100.0f);
	sg_texture red = checkerboard_texture(scene, 255, 0, 0);
	sg_texture green = checkerboard_texture(scene, 0, 255, 0);
	sg_texture blue = checkerboard_texture(scene, 0, 0, 255);

	sg_node root = sg_scene_root(scene);
	sg_node rect1 = sg_node_new_model(scene, &(struct sg_model_desc){
		.name = "Rectangle 1", .mesh = quad, .texture = red, .position = {0, 0, 0}});
	sg_node transform = sg_node_new_transform(scene, &(struct sg_transform_desc){
		.name = "Transform"});
	sg_node rect2 = sg_node_new_model(scene, &(struct sg_model_desc){
		.name = "Rectangle 2", .mesh = quad, .texture = green, .position = {10, 10, 0}});
	sg_node rect3 = sg_node_new_model(scene, &(struct sg_model_desc){
		.name = "Rectangle 3", .mesh = quad, .texture = blue, .position = {15, 15, 0}});

	/* Any failure above leaves an invalid handle, which the calls below refuse:
	 * checking their results is enough. */
	if (sg_transform_scale(scene, transform, 0.5f, 0.5f, 1.0f) ||
	    sg_node_add_child(scene, root, rect1) || sg_node_add_child(scene, root, transform) ||
	    sg_node_add_child(scene, transform, rect2) || sg_node_add_child(scene, transform, rect3)) {
		sg_scene_destroy(scene);
		return NULL;
	}
	return scene;
}
