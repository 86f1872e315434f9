/* The smallest complete libsg program: one textured quad, rendered to a PNG. */
#include <stdio.h>

#include <sg/sg.h>

int main(void)
{
	struct sg_scene *scene = sg_scene_create();
	unsigned char pixels[2 * 2 * 4] = {
		255, 0, 0, 255,   0, 255, 0, 255,
		0, 0, 255, 255,   255, 255, 255, 255,
	};
	sg_texture texture = sg_texture_create(scene, &(struct sg_texture_desc){
		.width = 2, .height = 2, .pixels = pixels});
	sg_node model = sg_node_new_model(scene, &(struct sg_model_desc){
		.name = "quad",
		.mesh = sg_mesh_create_quad(scene, 64, 64),
		.texture = texture,
		.position = {32, 32, 0},
	});
	sg_node_add_child(scene, sg_scene_root(scene), model);

	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
		.width = 128, .height = 128});
	if (!renderer || sg_renderer_render(renderer, scene, NULL) ||
	    sg_renderer_write_png(renderer, "minimal.png")) {
		fprintf(stderr, "minimal: %s\n", sg_last_error());
		return 1;
	}
	printf("rendered with %s: %s\n", sg_renderer_get_info(renderer)->target_name,
	       sg_renderer_get_info(renderer)->reason);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
	return 0;
}
