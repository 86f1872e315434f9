/* An application outside libsg, built as an embedder builds it: against the
 * installed pkg-config file, or with libsg as a meson subproject
 * (tests/test_consumer.sh). Renders one red quad on black, surfaceless, and
 * checks three pixels. */
#include <stdio.h>
#include <string.h>

#include <sg/sg.h>

#define SIZE 4

static int fail(const char *what)
{
	fprintf(stderr, "consumer-c: %s: %s\n", what, sg_last_error());
	return 1;
}

static void print_message(enum sg_log_level level, const char *message, void *data)
{
	fprintf(stderr, "%s: libsg log %d: %s\n", (const char *)data, (int)level, message);
}

static int check_pixel(const unsigned char *pixels, int x, int y, const unsigned char rgba[4])
{
	const unsigned char *p = pixels + ((size_t)y * SIZE + (size_t)x) * 4;
	if (memcmp(p, rgba, 4) == 0)
		return 0;
	fprintf(stderr, "consumer-c: pixel (%d,%d) is %d %d %d %d, expected %d %d %d %d\n", x, y,
	        p[0], p[1], p[2], p[3], rgba[0], rgba[1], rgba[2], rgba[3]);
	return 1;
}

int main(void)
{
	/* the headers and the loaded library are from the same build */
	if (strcmp(sg_version(), SG_VERSION) != 0 || !SG_VERSION_CHECK(0, 1, 0)) {
		fprintf(stderr, "consumer-c: headers %s, library %s\n", SG_VERSION, sg_version());
		return 1;
	}
	sg_log_set_handler(print_message, "consumer-c");

	struct sg_scene *scene = sg_scene_create();
	if (!scene)
		return fail("sg_scene_create");
	const unsigned char red[4] = {255, 0, 0, 255}, black[4] = {0, 0, 0, 255};
	sg_texture texture = sg_texture_create(
	    scene, &(struct sg_texture_desc){.width = 1, .height = 1, .pixels = red});
	sg_node model = sg_node_new_model(scene, &(struct sg_model_desc){
	                                             .name = "quad",
	                                             .mesh = sg_mesh_create_quad(scene, 2, 2),
	                                             .texture = texture,
	                                             .position = {1, 1, 0},
	                                         });
	if (sg_node_add_child(scene, sg_scene_root(scene), model))
		return fail("sg_node_add_child");

	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
	    .width = SIZE, .height = SIZE, .target = SG_TARGET_SURFACELESS});
	if (!renderer)
		return fail("sg_renderer_create");
	unsigned char pixels[SIZE * SIZE * 4];
	if (sg_renderer_render(renderer, scene, NULL))
		return fail("sg_renderer_render");
	if (sg_renderer_read_pixels(renderer, pixels, 0))
		return fail("sg_renderer_read_pixels");
	int wrong = check_pixel(pixels, 0, 0, black) + check_pixel(pixels, 1, 1, red) +
	            check_pixel(pixels, 2, 2, red) + check_pixel(pixels, 3, 3, black);
	printf("consumer-c: libsg %s on %s: quad drawn%s\n", sg_version(),
	       sg_renderer_get_info(renderer)->target_name, wrong ? " WRONG" : "");
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
	sg_log_set_handler(NULL, NULL);
	return wrong ? 1 : 0;
}
