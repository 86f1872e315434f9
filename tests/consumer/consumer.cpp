// The same program as consumer.c in C++, with no extern "C" of its own: the
// headers declare C linkage themselves. C++17, so no designated initialisers.
#include <cstdio>
#include <cstring>
#include <vector>

#include <sg/sg.h>

namespace
{

const int size = 4;

int fail(const char *what)
{
	std::fprintf(stderr, "consumer-cpp: %s: %s\n", what, sg_last_error());
	return 1;
}

bool pixel_is(const std::vector<unsigned char> &pixels, int x, int y, const unsigned char rgba[4])
{
	return std::memcmp(&pixels[(static_cast<size_t>(y) * size + x) * 4], rgba, 4) == 0;
}

} // namespace

int main()
{
	if (std::strcmp(sg_version(), SG_VERSION) != 0)
		return fail("sg_version() differs from SG_VERSION");
	// a captureless lambda is a C function pointer
	sg_log_set_handler(
	    [](sg_log_level level, const char *message, void *) {
		    std::fprintf(stderr, "consumer-cpp: libsg log %d: %s\n",
		                 static_cast<int>(level), message);
	    },
	    nullptr);

	sg_scene *scene = sg_scene_create();
	if (!scene)
		return fail("sg_scene_create");
	const unsigned char red[4] = {255, 0, 0, 255}, black[4] = {0, 0, 0, 255};
	sg_texture_desc texture_desc{};
	texture_desc.width = 1;
	texture_desc.height = 1;
	texture_desc.pixels = red;
	sg_model_desc model_desc{};
	model_desc.name = "quad";
	model_desc.mesh = sg_mesh_create_quad(scene, 2, 2);
	model_desc.texture = sg_texture_create(scene, &texture_desc);
	model_desc.position[0] = model_desc.position[1] = 1;
	sg_node model = sg_node_new_model(scene, &model_desc);
	sg_node none = SG_NODE_NONE;
	if (model.generation == none.generation)
		return fail("sg_node_new_model");
	if (sg_node_add_child(scene, sg_scene_root(scene), model) != SG_OK)
		return fail("sg_node_add_child");

	sg_renderer_desc renderer_desc{};
	renderer_desc.width = renderer_desc.height = size;
	renderer_desc.target = SG_TARGET_SURFACELESS;
	sg_renderer *renderer = sg_renderer_create(&renderer_desc);
	if (!renderer)
		return fail("sg_renderer_create");
	std::vector<unsigned char> pixels(size * size * 4);
	if (sg_renderer_render(renderer, scene, nullptr) != SG_OK)
		return fail("sg_renderer_render");
	if (sg_renderer_read_pixels(renderer, pixels.data(), 0) != SG_OK)
		return fail("sg_renderer_read_pixels");
	bool right = pixel_is(pixels, 0, 0, black) && pixel_is(pixels, 1, 1, red) &&
	             pixel_is(pixels, 2, 2, red) && pixel_is(pixels, 3, 3, black);
	std::printf("consumer-cpp: libsg %s on %s: quad drawn%s\n", sg_version(),
	            sg_renderer_get_info(renderer)->target_name, right ? "" : " WRONG");
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
	sg_log_set_handler(nullptr, nullptr);
	return right ? 0 : 1;
}
