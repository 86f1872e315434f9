/* The scene-file layer: example scenes, the reference image, animation,
 * opacity and colour (checked against a CPU reference of the blending), 3D
 * content (checked against docs/3d.md's formulas, computed here), and every
 * error path of sg_scene_file_load(). Runs from the source root. */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <valgrind/valgrind.h>

#include <sg/sg.h>

#include "check_run.h"
#include "../src/graph/scene_internal.h"
#include "../src/scenefile/scene_file_internal.h"
#include "three_rects_scene.h"

/* Internal test hook of src/base/alloc.h: the suite links the static core. */
long sg_alloc_fail_at(long k);

static const char *const example_scenes[] = {
	"scenes/three-rects.json",
	"scenes/solar.json",
	"scenes/mesh.json",
	"scenes/overlay.json",
	"scenes/progress.json",
	"scenes/cube3d.json",
	"scenes/text.json", /* last: left out where libsg has no text */
};

static char temp_dir[256];

static void make_temp_dir(void)
{
	snprintf(temp_dir, sizeof(temp_dir), "/tmp/sg-scenefile-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(temp_dir));
}

static void remove_temp_dir(void)
{
	char command[300];
	snprintf(command, sizeof(command), "rm -rf '%s'", temp_dir);
	if (system(command) != 0)
		fprintf(stderr, "could not remove %s\n", temp_dir);
}

/* Writes content to name in the temporary folder; returns its path (static). */
static const char *write_file(const char *name, const char *content)
{
	static char path[512];
	snprintf(path, sizeof(path), "%s/%s", temp_dir, name);
	FILE *file = fopen(path, "wb");
	ck_assert_ptr_nonnull(file);
	fputs(content, file);
	fclose(file);
	return path;
}

static struct sg_renderer *surfaceless_renderer(int width, int height)
{
	struct sg_renderer *renderer = sg_renderer_create(&(struct sg_renderer_desc){
		.width = width, .height = height, .target = SG_TARGET_SURFACELESS});
	ck_assert_msg(renderer, "sg_renderer_create: %s", sg_last_error());
	return renderer;
}

/* Renders the file's frame into a new buffer of width * height RGBA8 pixels. */
static unsigned char *render_file(struct sg_scene_file *file, int frame)
{
	int width, height;
	sg_scene_file_get_size(file, &width, &height);
	struct sg_renderer *renderer = surfaceless_renderer(width, height);
	struct sg_camera camera;
	float background[4];
	sg_scene_file_get_camera(file, 0, 0, &camera);
	sg_scene_file_get_background(file, background);
	ck_assert_int_eq(sg_renderer_set_clear_color(renderer, background[0], background[1],
	                                             background[2], background[3]),
	                 SG_OK);
	ck_assert_int_eq(sg_scene_file_apply_frame(file, frame), SG_OK);
	ck_assert_msg(sg_renderer_render(renderer, sg_scene_file_get_scene(file), &camera) == SG_OK,
	              "render: %s", sg_last_error());
	unsigned char *pixels = malloc((size_t)width * height * 4);
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, pixels, 0), SG_OK);
	sg_renderer_destroy(renderer);
	return pixels;
}

static size_t count_differing(const unsigned char *a, const unsigned char *b, size_t pixels)
{
	size_t count = 0;
	for (size_t i = 0; i < pixels; i++)
		count += memcmp(a + i * 4, b + i * 4, 4) != 0;
	return count;
}

START_TEST(test_example_loads_and_renders)
{
	const char *path = example_scenes[_i];
	struct sg_scene_file *file = NULL;
	ck_assert_msg(sg_scene_file_load(path, &file) == SG_OK, "%s", sg_last_error());
	int width, height;
	sg_scene_file_get_size(file, &width, &height);
	ck_assert_int_gt(width, 0);
	ck_assert_int_gt(sg_scene_file_get_frame_count(file), 0);
	int last = sg_scene_file_get_frame_count(file) - 1;
	unsigned char *first = render_file(file, 0);
	unsigned char *final = render_file(file, last);
	/* Something was drawn: not every pixel is the background. */
	float background[4];
	sg_scene_file_get_background(file, background);
	size_t drawn = 0;
	for (size_t i = 0; i < (size_t)width * height; i++)
		drawn += first[i * 4] != (unsigned char)lroundf(background[0] * 255);
	ck_assert_uint_gt(drawn, 100);
	if (last > 0) /* an animated scene moves */
		ck_assert_uint_gt(count_differing(first, final, (size_t)width * height), 0);
	free(first);
	free(final);
	sg_scene_file_destroy(file);
}
END_TEST

START_TEST(test_three_rects_matches_the_demo)
{
	struct sg_scene_file *file = NULL;
	ck_assert_msg(sg_scene_file_load("scenes/three-rects.json", &file) == SG_OK, "%s",
	              sg_last_error());
	unsigned char *from_file = render_file(file, 0);

	struct sg_scene *scene = three_rects_build();
	ck_assert_ptr_nonnull(scene);
	struct sg_renderer *renderer = surfaceless_renderer(THREE_RECTS_SIZE, THREE_RECTS_SIZE);
	struct sg_camera camera;
	sg_camera_init_pixels(&camera, THREE_RECTS_SIZE, THREE_RECTS_SIZE);
	ck_assert_int_eq(sg_renderer_render(renderer, scene, &camera), SG_OK);
	unsigned char *from_api = malloc(THREE_RECTS_SIZE * THREE_RECTS_SIZE * 4);
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, from_api, 0), SG_OK);

	/* Same geometry, textures and camera: the same pixels, edges included. */
	ck_assert_uint_eq(count_differing(from_file, from_api, THREE_RECTS_SIZE * THREE_RECTS_SIZE),
	                  0);
	free(from_api);
	free(from_file);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
	sg_scene_file_destroy(file);
}
END_TEST

/* "visible": false hides a node and its subtree: the three-rects file with its
 * transform hidden draws what the scene draws with the transform detached. */
START_TEST(test_visible_false_hides_the_subtree)
{
	FILE *in = fopen("scenes/three-rects.json", "rb");
	ck_assert_ptr_nonnull(in);
	static char text[8192];
	size_t length = fread(text, 1, sizeof(text) - 1, in);
	fclose(in);
	text[length] = 0;
	const char *key = "\"name\": \"Transform\",";
	char *at = strstr(text, key);
	ck_assert_ptr_nonnull(at);
	static char edited[8300];
	snprintf(edited, sizeof(edited), "%.*s%s \"visible\": false,%s", (int)(at - text), text, key,
	         at + strlen(key));
	make_temp_dir();
	struct sg_scene_file *file = NULL;
	ck_assert_msg(sg_scene_file_load(write_file("hidden.json", edited), &file) == SG_OK, "%s",
	              sg_last_error());
	struct sg_scene *loaded = sg_scene_file_get_scene(file);
	bool visible = true;
	ck_assert_int_eq(sg_node_get_visible(loaded, sg_node_find(loaded, sg_scene_root(loaded),
	                                                          "Transform"), &visible), SG_OK);
	ck_assert(!visible);
	ck_assert_int_eq(sg_node_get_visible(loaded, sg_node_find(loaded, sg_scene_root(loaded),
	                                                          "Rectangle 2"), &visible), SG_OK);
	ck_assert(visible);
	unsigned char *from_file = render_file(file, 0);

	struct sg_scene *scene = three_rects_build();
	ck_assert_int_eq(sg_node_remove(scene, sg_node_find(scene, sg_scene_root(scene), "Transform")),
	                 SG_OK);
	struct sg_renderer *renderer = surfaceless_renderer(THREE_RECTS_SIZE, THREE_RECTS_SIZE);
	struct sg_camera camera;
	sg_camera_init_pixels(&camera, THREE_RECTS_SIZE, THREE_RECTS_SIZE);
	ck_assert_int_eq(sg_renderer_render(renderer, scene, &camera), SG_OK);
	unsigned char *from_api = malloc(THREE_RECTS_SIZE * THREE_RECTS_SIZE * 4);
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, from_api, 0), SG_OK);
	ck_assert_uint_eq(count_differing(from_file, from_api, THREE_RECTS_SIZE * THREE_RECTS_SIZE),
	                  0);
	free(from_api);
	free(from_file);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
	sg_scene_file_destroy(file);
	remove_temp_dir();
}
END_TEST

/* --- Opacity, colour and alpha (docs/scene-format.md, "Appearance") --- */

static sg_node find(struct sg_scene *scene, const char *name)
{
	sg_node node = sg_node_find(scene, sg_scene_root(scene), name);
	ck_assert_msg(sg_node_exists(scene, node), "no node '%s'", name);
	return node;
}

static float opacity_of(struct sg_scene *scene, const char *name)
{
	float opacity = -1;
	ck_assert_int_eq(sg_node_get_opacity(scene, find(scene, name), &opacity), SG_OK);
	return opacity;
}

static void assert_color(struct sg_scene *scene, const char *name, float r, float g, float b,
                         float a)
{
	float rgba[4];
	ck_assert_int_eq(sg_model_get_color(scene, find(scene, name), rgba), SG_OK);
	const float expected[4] = {r, g, b, a};
	for (int i = 0; i < 4; i++)
		ck_assert_msg(fabsf(rgba[i] - expected[i]) < 1e-6f,
		              "%s: colour[%d] = %g, expected %g", name, i, rgba[i], expected[i]);
}

#define QUAD_MESH "\"mesh\": {\"type\": \"quad\", \"width\": 4, \"height\": 4}"

START_TEST(test_opacity_and_color_are_read)
{
	make_temp_dir();
	const char *path = write_file(
	    "appearance.json",
	    "{\"textures\": {\"t\": {\"type\": \"solid\"}},\n"
	    " \"nodes\": [\n"
	    "  {\"type\": \"group\", \"name\": \"G\", \"opacity\": 0.5, \"children\": [\n"
	    "    {\"type\": \"model\", \"name\": \"Tinted\", " QUAD_MESH ", \"texture\": \"t\",\n"
	    "     \"color\": [0.2, 0.4, 0.6, 0.8], \"opacity\": 0.25},\n"
	    "    {\"type\": \"model\", \"name\": \"Red\", " QUAD_MESH ", \"texture\": \"t\",\n"
	    "     \"color\": [1, 0, 0]}]},\n"
	    "  {\"type\": \"transform\", \"name\": \"T\", \"opacity\": 0},\n"
	    "  {\"type\": \"model\", \"name\": \"Plain\", " QUAD_MESH "},\n"
	    "  {\"type\": \"model\", \"name\": \"Hex\", " QUAD_MESH ", \"color\": \"#ff336680\"},\n"
	    "  {\"type\": \"model\", \"name\": \"Held\", " QUAD_MESH ",\n"
	    "   \"opacity\": {\"keyframes\": [{\"frame\": 4, \"value\": 0.75}]},\n"
	    "   \"color\": {\"keyframes\": [{\"frame\": 0, \"value\": [0, 1, 0]}]}}]}");
	struct sg_scene_file *file = NULL;
	ck_assert_msg(sg_scene_file_load(path, &file) == SG_OK, "%s", sg_last_error());
	struct sg_scene *scene = sg_scene_file_get_scene(file);
	ck_assert_float_eq(opacity_of(scene, "G"), 0.5f);
	ck_assert_float_eq(opacity_of(scene, "Tinted"), 0.25f);
	assert_color(scene, "Tinted", 0.2f, 0.4f, 0.6f, 0.8f);
	ck_assert_float_eq(opacity_of(scene, "Red"), 1.0f); /* the defaults */
	assert_color(scene, "Red", 1, 0, 0, 1);             /* [r, g, b]: alpha 1 */
	ck_assert_float_eq(opacity_of(scene, "T"), 0.0f);
	/* A model without "texture": colour-only, white by default. */
	sg_node plain = find(scene, "Plain");
	ck_assert(sg_texture_is_none(sg_model_texture(scene, sg_scene_model(scene, plain.index))));
	ck_assert(!sg_texture_is_none(sg_model_texture(scene, sg_scene_model(scene, find(scene, "Red").index))));
	assert_color(scene, "Plain", 1, 1, 1, 1);
	/* "#rrggbbaa" as "background" takes it: bytes over 255 */
	assert_color(scene, "Hex", 1, 0x33 / 255.0f, 0x66 / 255.0f, 0x80 / 255.0f);
	ck_assert_float_eq(opacity_of(scene, "Plain"), 1.0f);
	/* One keyframe is a constant: set by the load, not kept for the frames. */
	ck_assert_float_eq(opacity_of(scene, "Held"), 0.75f);
	assert_color(scene, "Held", 0, 1, 0, 1);
	ck_assert_uint_eq(file->appearance_count, 0);
	ck_assert_int_eq(sg_scene_file_apply_frame(file, 10), SG_OK);
	ck_assert_float_eq(opacity_of(scene, "Held"), 0.75f);
	sg_scene_file_destroy(file);
	remove_temp_dir();
}
END_TEST

/* progress.json: "Progress" fades in, opacity 0 -> 1 over frames 0 .. 6; the
 * bar's colour goes from [1, 0.55, 0.1, 1] to [0.2, 0.8, 0.4, 1] and its
 * "Fill" transform's scale x from 0 to 1 over frames 0 .. 24. */
static float progress_color(int frame, int component)
{
	static const float first[4] = {1, 0.55f, 0.1f, 1}, last[4] = {0.2f, 0.8f, 0.4f, 1};
	float t = frame >= 24 ? 1.0f : (float)frame / 24.0f;
	return first[component] + (last[component] - first[component]) * t;
}

START_TEST(test_appearance_keyframes_interpolate)
{
	struct sg_scene_file *file = NULL;
	ck_assert_msg(sg_scene_file_load("scenes/progress.json", &file) == SG_OK, "%s",
	              sg_last_error());
	struct sg_scene *scene = sg_scene_file_get_scene(file);
	ck_assert_int_eq(sg_scene_file_get_frame_count(file), 25);
	ck_assert_uint_eq(file->appearance_count, 2); /* Progress, Bar */
	const int frames[] = {0, 3, 6, 12, 23, 24, 1000, 2};
	for (size_t i = 0; i < sizeof(frames) / sizeof(frames[0]); i++) {
		int frame = frames[i];
		if (frame) /* a load leaves frame 0 */
			ck_assert_int_eq(sg_scene_file_apply_frame(file, frame), SG_OK);
		float fade = frame >= 6 ? 1.0f : (float)frame / 6.0f;
		ck_assert_msg(fabsf(opacity_of(scene, "Progress") - fade) < 1e-6f,
		              "frame %d: opacity %g, expected %g", frame,
		              opacity_of(scene, "Progress"), fade);
		assert_color(scene, "Bar", progress_color(frame, 0), progress_color(frame, 1),
		             progress_color(frame, 2), 1);
		/* the opacity of the models themselves is not animated */
		ck_assert_float_eq(opacity_of(scene, "Bar"), 1.0f);
		float matrix[16];
		sg_transform_get_matrix(scene, find(scene, "Fill"), matrix);
		float scale = frame >= 24 ? 1.0f : (float)frame / 24.0f;
		ck_assert_msg(fabsf(matrix[0] - scale) < 1e-6f, "frame %d: scale x %g", frame,
		              matrix[0]);
	}
	sg_scene_file_destroy(file);
}
END_TEST

static sg_result load_text(const char *content, const struct sg_scene_file_options *options);
static void assert_message_has(const char *fragment);

/* Keys in seconds, and the easing from each key to the next: values against
 * the curves' own definitions (CSS's steps(), a critically damped spring's
 * 1 - e^-wt (1 + wt)), frames counted at the file's "fps". */
START_TEST(test_keys_in_seconds_and_easing)
{
	make_temp_dir();
	const char *path = write_file(
	    "eased.json",
	    "{\"fps\": 10, \"frames\": 40, \"nodes\": [\n"
	    " {\"type\": \"group\", \"name\": \"Timed\", \"opacity\": {\"keyframes\": [\n"
	    "  {\"time\": 0, \"value\": 0}, {\"time\": 2, \"value\": 1}]}},\n"
	    " {\"type\": \"group\", \"name\": \"Stepped\", \"opacity\": {\"keyframes\": [\n"
	    "  {\"frame\": 0, \"value\": 0, \"easing\": {\"steps\": 4}},\n"
	    "  {\"frame\": 10, \"value\": 1, \"easing\": {\"steps\": 4, \"position\": \"jump-start\"}},\n"
	    "  {\"frame\": 20, \"value\": 0}]}},\n"
	    " {\"type\": \"group\", \"name\": \"Sprung\", \"opacity\": {\"keyframes\": [\n"
	    "  {\"time\": 0, \"value\": 0, \"easing\": {\"spring\": {\"stiffness\": 100, \"damping\": 20}}},\n"
	    "  {\"time\": 3, \"value\": 1}]}},\n"
	    " {\"type\": \"group\", \"name\": \"Linear\", \"opacity\": {\"keyframes\": [\n"
	    "  {\"frame\": 0, \"value\": 0, \"easing\": {\"cubic-bezier\": [0, 0, 1, 1]}},\n"
	    "  {\"frame\": 10, \"value\": 1}]}},\n"
	    " {\"type\": \"group\", \"name\": \"AtKey\", \"opacity\": {\"keyframes\": [\n"
	    "  {\"time\": 0, \"value\": 0, \"easing\": \"step-end\"}, {\"time\": 0.1, \"value\": 1}]}}]}");
	struct sg_scene_file *file = NULL;
	ck_assert_msg(sg_scene_file_load(path, &file) == SG_OK, "%s", sg_last_error());
	struct sg_scene *scene = sg_scene_file_get_scene(file);
	ck_assert_float_eq(sg_scene_file_get_fps(file), 10);
	/* frame 5 at 10 fps is 0.5 s: a quarter of the 2 s fade */
	ck_assert_int_eq(sg_scene_file_apply_frame(file, 5), SG_OK);
	ck_assert_float_eq_tol(opacity_of(scene, "Timed"), 0.25f, 1e-6f);
	ck_assert_float_eq_tol(opacity_of(scene, "Linear"), 0.5f, 1e-6f);
	/* and between frames, by time */
	ck_assert_int_eq(sg_scene_file_apply_time(file, 0.25), SG_OK);
	ck_assert_float_eq_tol(opacity_of(scene, "Timed"), 0.125f, 1e-6f);
	ck_assert_float_eq_tol(opacity_of(scene, "Linear"), 0.25f, 1e-6f);
	/* a key at a time is met at that time (0.1 is below 0.1f in double) */
	ck_assert_int_eq(sg_scene_file_apply_frame(file, 1), SG_OK);
	ck_assert_float_eq(opacity_of(scene, "AtKey"), 1);
	ck_assert_int_eq(sg_scene_file_apply_time(file, 0.1), SG_OK);
	ck_assert_float_eq(opacity_of(scene, "AtKey"), 1);
	ck_assert_int_eq(sg_scene_file_apply_time(file, 0.05), SG_OK);
	ck_assert_float_eq(opacity_of(scene, "AtKey"), 0);
	/* steps(4): 0.3 of the way is the first step; jump-start, the second */
	ck_assert_int_eq(sg_scene_file_apply_frame(file, 3), SG_OK);
	ck_assert_float_eq(opacity_of(scene, "Stepped"), 0.25f);
	ck_assert_int_eq(sg_scene_file_apply_frame(file, 13), SG_OK);
	ck_assert_float_eq(opacity_of(scene, "Stepped"), 0.5f); /* 1 - 0.5 */
	/* critically damped, w = sqrt(100) = 10, at 0.1 s and 0.25 s */
	const double times[] = {0.1, 0.25};
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(sg_scene_file_apply_time(file, times[i]), SG_OK);
		double w = 10, want = 1 - exp(-w * times[i]) * (1 + w * times[i]);
		ck_assert_msg(fabs(opacity_of(scene, "Sprung") - want) < 1e-5,
		              "spring at %g s: %g, not %g", times[i], opacity_of(scene, "Sprung"), want);
	}
	ck_assert_int_eq(sg_scene_file_apply_time(file, -1), SG_ERR_INVALID_ARGUMENT);
	ck_assert_int_eq(sg_scene_file_apply_time(file, NAN), SG_ERR_INVALID_ARGUMENT);
	sg_scene_file_destroy(file);

	static const struct {
		const char *keys, *message;
	} bad[] = {
	    {"{\"frame\": 0, \"value\": 0}, {\"time\": 1, \"value\": 1}",
	     "$.nodes[0].opacity.keyframes[1]: keyframes of one property are all at \"frame\"s or "
	     "all at \"time\"s; this one has a \"time\""},
	    {"{\"frame\": 0, \"time\": 0, \"value\": 0}",
	     "$.nodes[0].opacity.keyframes[0]: a keyframe has a \"frame\" or a \"time\""},
	    {"{\"time\": 1, \"value\": 0}, {\"time\": 0.5, \"value\": 1}",
	     "$.nodes[0].opacity.keyframes[1].time: time 0.5 does not come after time 1"},
	    {"{\"time\": 0, \"value\": 0, \"easing\": \"bounce\"}",
	     "$.nodes[0].opacity.keyframes[0].easing: unknown curve"},
	    {"{\"time\": 0, \"value\": 0, \"easing\": {\"steps\": 1, \"position\": \"jump-none\"}}",
	     "$.nodes[0].opacity.keyframes[0].easing: steps(1): at least 2 steps with jump-none"},
	    {"{\"time\": 0, \"value\": 0, \"easing\": {\"cubic-bezier\": [2, 0, 1, 1]}}",
	     "$.nodes[0].opacity.keyframes[0].easing: cubic-bezier(2, 0, 1, 1): x1 and x2 must lie"},
	    {"{\"time\": 0, \"value\": 0, \"easing\": {\"spring\": {\"damping\": 1}}}",
	     "$.nodes[0].opacity.keyframes[0].easing.spring.stiffness: missing"},
	    {"{\"time\": 0, \"value\": 0, \"easing\": {\"steps\": 2, \"spring\": {}}}",
	     "$.nodes[0].opacity.keyframes[0].easing: one of \"cubic-bezier\", \"steps\" and \"spring\""},
	    {"{\"time\": 0, \"value\": 0, \"easing\": {\"cubic-bezier\": [0, 0, 1, 1], "
	     "\"position\": \"jump-end\"}}",
	     "$.nodes[0].opacity.keyframes[0].easing: \"position\" goes with \"steps\""},
	};
	char scene_text[512];
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(scene_text, sizeof(scene_text),
		         "{\"nodes\": [{\"type\": \"group\", \"opacity\": {\"keyframes\": [%s]}}]}",
		         bad[i].keys);
		ck_assert_int_eq(load_text(scene_text, NULL), SG_ERR_FORMAT);
		assert_message_has(bad[i].message);
	}
	ck_assert_int_eq(load_text("{\"fps\": 0}", NULL), SG_ERR_FORMAT);
	assert_message_has("$.fps: 0 is outside");
	remove_temp_dir();
}
END_TEST

/* One frame sets each animated property once, and leaves alone those whose
 * value it holds: the renderer redoes only what changed. */
START_TEST(test_appearance_edits_each_property_once)
{
	struct sg_scene_file *file = NULL;
	ck_assert_msg(sg_scene_file_load("scenes/progress.json", &file) == SG_OK, "%s",
	              sg_last_error());
	struct sg_scene *scene = sg_scene_file_get_scene(file);
	uint64_t before = scene->appearance_version;
	ck_assert_int_eq(sg_scene_file_apply_frame(file, 1), SG_OK);
	ck_assert_uint_eq(scene->appearance_version - before, 2); /* opacity, colour */
	before = scene->appearance_version;
	ck_assert_int_eq(sg_scene_file_apply_frame(file, 1), SG_OK);
	ck_assert_uint_eq(scene->appearance_version - before, 0);
	/* Past frame 6 the fade holds: only the colour moves. */
	ck_assert_int_eq(sg_scene_file_apply_frame(file, 10), SG_OK);
	before = scene->appearance_version;
	ck_assert_int_eq(sg_scene_file_apply_frame(file, 11), SG_OK);
	ck_assert_uint_eq(scene->appearance_version - before, 1);
	ck_assert_int_eq(sg_scene_file_apply_frame(file, 1000), SG_OK);
	before = scene->appearance_version;
	ck_assert_int_eq(sg_scene_file_apply_frame(file, 2000), SG_OK);
	ck_assert_uint_eq(scene->appearance_version - before, 0);
	/* A program's own edit of a constant property survives the frames. */
	ck_assert_int_eq(sg_node_set_opacity(scene, find(scene, "Track"), 0.5f), SG_OK);
	ck_assert_int_eq(sg_scene_file_apply_frame(file, 3), SG_OK);
	ck_assert_float_eq(opacity_of(scene, "Track"), 0.5f);
	sg_scene_file_destroy(file);
}
END_TEST

/* A CPU reference of the GL path's arithmetic (include/sg/scene.h, colours):
 * premultiplied RGBA bytes, source-over. */
struct rgba {
	int c[4];
};

/* A colour-only model's fragment: its straight colour times the alpha of its
 * colour and the opacities above it. */
static struct rgba tint(float r, float g, float b, float alpha)
{
	return (struct rgba){{(int)lroundf(r * alpha * 255), (int)lroundf(g * alpha * 255),
	                      (int)lroundf(b * alpha * 255), (int)lroundf(alpha * 255)}};
}

static struct rgba over(struct rgba src, struct rgba dst)
{
	float keep = 1.0f - (float)src.c[3] / 255.0f;
	struct rgba out;
	for (int i = 0; i < 4; i++)
		out.c[i] = (int)lroundf(
		    255.0f * ((float)src.c[i] / 255.0f + (float)dst.c[i] / 255.0f * keep));
	return out;
}

static struct rgba pixel_at(const unsigned char *pixels, int width, int x, int y)
{
	const unsigned char *p = pixels + ((size_t)y * (size_t)width + (size_t)x) * 4;
	return (struct rgba){{p[0], p[1], p[2], p[3]}};
}

/* Within 1 per channel: GL rounds its own way. */
static bool near(struct rgba actual, struct rgba expected)
{
	for (int i = 0; i < 4; i++)
		if (abs(actual.c[i] - expected.c[i]) > 1)
			return false;
	return true;
}

static void assert_pixel(const unsigned char *pixels, int width, int x, int y, struct rgba expected,
                         const char *what)
{
	struct rgba actual = pixel_at(pixels, width, x, y);
	ck_assert_msg(near(actual, expected),
	              "%s: pixel (%d, %d) is (%d, %d, %d, %d), expected (%d, %d, %d, %d) +-1", what,
	              x, y, actual.c[0], actual.c[1], actual.c[2], actual.c[3], expected.c[0],
	              expected.c[1], expected.c[2], expected.c[3]);
}

/* Row 86 of progress.json at frame: the bar over the track from x = 40 to
 * 40 + 10 * frame (240 pixels over 24 frames), the track alone to 280, the
 * background around them. */
static void check_progress_row(struct sg_scene_file *file, int frame)
{
	unsigned char *pixels = render_file(file, frame);
	const struct rgba background = {{0x1c, 0x1f, 0x26, 255}};
	float fade = frame >= 6 ? 1.0f : (float)frame / 6.0f;
	struct rgba track = over(tint(1, 1, 1, 0.15f * fade), background);
	struct rgba bar = over(tint(progress_color(frame, 0), progress_color(frame, 1),
	                            progress_color(frame, 2), fade),
	                       track);
	int fill_end = 40 + 10 * (frame < 24 ? frame : 24);
	char what[64];
	snprintf(what, sizeof(what), "progress frame %d", frame);
	for (int x = 0; x < 320; x++) {
		struct rgba expected = x < 40 || x >= 280 ? background : x < fill_end ? bar : track;
		assert_pixel(pixels, 320, x, 86, expected, what);
	}
	free(pixels);
}

START_TEST(test_progress_bar_fills)
{
	struct sg_scene_file *file = NULL;
	ck_assert_msg(sg_scene_file_load("scenes/progress.json", &file) == SG_OK, "%s",
	              sg_last_error());
	/* frame 0: faded out entirely; 3: half faded in, a translucent bar over
	 * a translucent track; 12 and 24: opaque bar, half and all the way */
	const int frames[] = {0, 3, 12, 24};
	for (size_t i = 0; i < sizeof(frames) / sizeof(frames[0]); i++)
		check_progress_row(file, frames[i]);
	/* The logo does not fade: the middle of the diamond at frame 0. */
	unsigned char *pixels = render_file(file, 0);
	assert_pixel(pixels, 320, 160, 42, tint(0.35f, 0.6f, 1, 1), "logo");
	free(pixels);
	sg_scene_file_destroy(file);
}
END_TEST

/* overlay.json: the caption panel (black at alpha 0.55), its lines and the
 * badge (a PNG with alpha) blended over the picture, which is rendered alone
 * first by hiding the rest. */
START_TEST(test_overlay_blends_over_the_picture)
{
	struct sg_scene_file *file = NULL;
	ck_assert_msg(sg_scene_file_load("scenes/overlay.json", &file) == SG_OK, "%s",
	              sg_last_error());
	struct sg_scene *scene = sg_scene_file_get_scene(file);
	ck_assert_int_eq(sg_node_set_visible(scene, find(scene, "Caption"), false), SG_OK);
	ck_assert_int_eq(sg_node_set_visible(scene, find(scene, "Badge"), false), SG_OK);
	unsigned char *picture = render_file(file, 0);
	ck_assert_int_eq(sg_node_set_visible(scene, find(scene, "Caption"), true), SG_OK);
	ck_assert_int_eq(sg_node_set_visible(scene, find(scene, "Badge"), true), SG_OK);
	unsigned char *overlay = render_file(file, 0);
	const struct rgba panel = tint(0, 0, 0, 0.55f);
	/* the panel alone */
	assert_pixel(overlay, 320, 250, 230, over(panel, pixel_at(picture, 320, 250, 230)),
	             "panel");
	assert_pixel(overlay, 320, 5, 186, over(panel, pixel_at(picture, 320, 5, 186)), "panel");
	/* the title (colour alpha 0.95) and subtitle (opacity 0.6) over the panel */
	assert_pixel(overlay, 320, 100, 200,
	             over(tint(1, 1, 1, 0.95f), over(panel, pixel_at(picture, 320, 100, 200))),
	             "title");
	assert_pixel(overlay, 320, 60, 220,
	             over(tint(1, 1, 1, 0.6f), over(panel, pixel_at(picture, 320, 60, 220))),
	             "subtitle");
	/* the opaque accent covers */
	assert_pixel(overlay, 320, 14, 210, tint(1, 0.6f, 0.1f, 1), "accent");
	/* The badge's disc: white texels of alpha 190, premultiplied on upload to
	 * (190, 190, 190, 190) ((c * a + 127) / 255), drawn 1.5 times larger. */
	const struct rgba disc = {{190, 190, 190, 190}};
	assert_pixel(overlay, 320, 284, 21, over(disc, pixel_at(picture, 320, 284, 21)), "badge");
	/* Around the badge and above the panel, the picture is untouched; every
	 * pixel is opaque, as the picture is. */
	assert_pixel(overlay, 320, 100, 100, pixel_at(picture, 320, 100, 100), "picture");
	for (size_t i = 0; i < 320 * 240; i++)
		ck_assert_int_eq(overlay[i * 4 + 3], 255);
	free(picture);
	free(overlay);
	sg_scene_file_destroy(file);
}
END_TEST

static void assert_matrix_near(const float *actual, const float *expected)
{
	for (int i = 0; i < 16; i++)
		ck_assert_msg(fabsf(actual[i] - expected[i]) < 1e-4f, "m[%d] = %g, expected %g", i,
		              actual[i], expected[i]);
}

/* Sun spin of solar.json: rotate 0 -> 90 degrees over frames 0 .. 48, scale
 * [1, 1, 1] -> [1.25, 1.25, 1] (frame 24) -> [1, 1, 1]. */
static void expected_sun_spin(float degrees, float scale, float m[16])
{
	float c = cosf(degrees * (float)M_PI / 180.0f) * scale;
	float s = sinf(degrees * (float)M_PI / 180.0f) * scale;
	const float matrix[16] = {c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
	memcpy(m, matrix, sizeof(matrix));
}

START_TEST(test_animation_interpolates_keyframes)
{
	struct sg_scene_file *file = NULL;
	ck_assert_msg(sg_scene_file_load("scenes/solar.json", &file) == SG_OK, "%s",
	              sg_last_error());
	ck_assert_int_eq(sg_scene_file_get_frame_count(file), 48);
	struct sg_scene *scene = sg_scene_file_get_scene(file);
	sg_node spin = sg_node_find(scene, sg_scene_root(scene), "Sun spin");
	ck_assert(sg_node_exists(scene, spin));
	float actual[16], expected[16];

	sg_transform_get_matrix(scene, spin, actual); /* a load leaves frame 0 */
	expected_sun_spin(0, 1, expected);
	assert_matrix_near(actual, expected);

	ck_assert_int_eq(sg_scene_file_apply_frame(file, 24), SG_OK);
	sg_transform_get_matrix(scene, spin, actual);
	expected_sun_spin(45, 1.25f, expected);
	assert_matrix_near(actual, expected);

	ck_assert_int_eq(sg_scene_file_apply_frame(file, 12), SG_OK);
	sg_transform_get_matrix(scene, spin, actual);
	expected_sun_spin(22.5f, 1.125f, expected);
	assert_matrix_near(actual, expected);

	/* After the last keyframe its value holds. */
	ck_assert_int_eq(sg_scene_file_apply_frame(file, 1000), SG_OK);
	sg_transform_get_matrix(scene, spin, actual);
	expected_sun_spin(90, 1, expected);
	assert_matrix_near(actual, expected);

	ck_assert_int_eq(sg_scene_file_apply_frame(file, -1), SG_ERR_INVALID_ARGUMENT);
	ck_assert_int_eq(sg_scene_file_apply_frame(NULL, 0), SG_ERR_INVALID_ARGUMENT);
	sg_scene_file_destroy(file);
}
END_TEST

/* Each animated transform is one edit per frame, and none when the frame
 * gives it the matrix it has: the renderer recomputes only what moved. */
START_TEST(test_animation_edits_each_transform_once)
{
	struct sg_scene_file *file = NULL;
	ck_assert_msg(sg_scene_file_load("scenes/solar.json", &file) == SG_OK, "%s",
	              sg_last_error());
	struct sg_scene *scene = sg_scene_file_get_scene(file);
	ck_assert_uint_eq(file->transform_count, 3); /* Sun spin, Orbit, Moon orbit */
	uint64_t before = scene->transform_version;
	ck_assert_int_eq(sg_scene_file_apply_frame(file, 1), SG_OK);
	ck_assert_uint_eq(scene->transform_version - before, 3);
	before = scene->transform_version;
	ck_assert_int_eq(sg_scene_file_apply_frame(file, 1), SG_OK);
	ck_assert_uint_eq(scene->transform_version - before, 0);
	/* Past the last keyframe every track holds its value. */
	ck_assert_int_eq(sg_scene_file_apply_frame(file, 1000), SG_OK);
	before = scene->transform_version;
	ck_assert_int_eq(sg_scene_file_apply_frame(file, 2000), SG_OK);
	ck_assert_uint_eq(scene->transform_version - before, 0);
	sg_scene_file_destroy(file);
}
END_TEST

START_TEST(test_camera_keeps_the_scene_units)
{
	struct sg_scene_file *file = NULL;
	ck_assert_int_eq(sg_scene_file_load("scenes/three-rects.json", &file), SG_OK);
	struct sg_camera actual, expected;
	/* A larger output scales the scene, as the demo's --size does. */
	sg_scene_file_get_camera(file, 1024, 512, &actual);
	sg_camera_init_pixels(&expected, 256, 256);
	assert_matrix_near(actual.projection, expected.projection);
	assert_matrix_near(actual.view, expected.view);
	sg_scene_file_destroy(file);

	file = NULL;
	ck_assert_int_eq(sg_scene_file_load("scenes/mesh.json", &file), SG_OK);
	sg_scene_file_get_camera(file, 640, 480, &actual);
	sg_camera_init_perspective(&expected, 50 * (float)M_PI / 180, 640.0f / 480, 0.1f, 100);
	assert_matrix_near(actual.projection, expected.projection);
	sg_scene_file_destroy(file);
}
END_TEST

START_TEST(test_missing_file_is_io)
{
	struct sg_scene_file *file = (struct sg_scene_file *)1;
	ck_assert_int_eq(sg_scene_file_load("scenes/does-not-exist.json", &file), SG_ERR_IO);
	ck_assert_ptr_null(file);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "does-not-exist.json"));
	ck_assert_int_eq(sg_scene_file_load(NULL, &file), SG_ERR_INVALID_ARGUMENT);
	sg_scene_file_destroy(NULL);

	/* A path too long for the message loses its middle: its start, the file's
	 * name at its end and the reason are all shown, and neither cut splits
	 * one of the two-byte characters the path is made of (both fall inside
	 * one here). */
	char path[1500];
	memcpy(path, "/nonexistent/", 13);
	for (size_t i = 13; i + 1 < sizeof(path); i += 2)
		memcpy(path + i, "\xc3\xa9", 2); /* é */
	snprintf(path + sizeof(path) - 17, 17, "/\xc3\xbc-scenes.json"); /* after a whole é */
	ck_assert_int_eq(sg_scene_file_load(path, &file), SG_ERR_IO);
	const char *message = sg_last_error();
	char end[128];
	snprintf(end, sizeof(end), "\xc3\xa9/\xc3\xbc-scenes.json': %s", strerror(ENOENT));
	bool whole = true;
	for (const unsigned char *c = (const unsigned char *)message; *c; c++)
		if ((*c == 0xc3 && c[1] != 0xa9 && c[1] != 0xbc) || (*c == 0xa9 && c[-1] != 0xc3))
			whole = false;
	ck_assert_msg(strncmp(message, "cannot open '/nonexistent/\xc3\xa9", 28) == 0 &&
	                  strstr(message, "\xc3\xa9...\xc3\xa9") && strstr(message, end) && whole &&
	                  strlen(message) < 1000,
	              "%s", message);
}
END_TEST

struct bad_case {
	const char *content;
	sg_result result;
	const char *fragment; /* expected in the message, right after the file's path */
	const char *also;     /* optional: expected anywhere in the message */
};

#define NODE_QUAD "\"mesh\": {\"type\": \"quad\", \"width\": 1, \"height\": 1}"
#define CHECKER "\"t\": {\"type\": \"checkerboard\""
#define USE_PHOTO "\"nodes\": [{\"type\": \"model\", " NODE_QUAD ", \"texture\": \"photo\"}]}"

static const struct bad_case bad_cases[] = {
	/* JSON syntax: line and column of the offending character */
	{"{\n  \"nodes\": [\n    {\"type\": \"group\",,}\n  ]\n}\n", SG_ERR_FORMAT, ":3:22: ", NULL},
	{"{\"nodes\": [", SG_ERR_FORMAT, ":1:12: unexpected end of file", NULL},
	{"", SG_ERR_FORMAT, ":1:1: unexpected end of file", NULL},
	{"{}\n{}", SG_ERR_FORMAT, ":2:1: ", NULL},
	{"{\"frames\": 2, /* no comments */}", SG_ERR_FORMAT, ":1:15: ", NULL},
	{"[1, 2]", SG_ERR_FORMAT, ":1:1: the scene must be a JSON object", NULL},
	/* wrong types, with the JSON path of the value */
	{"{\"nodes\": [{\"type\": \"group\"}, {\"type\": \"group\"}, {\"type\": \"transform\", "
	 "\"transform\": {\"scale\": [1, 2]}}]}",
	 SG_ERR_FORMAT, ": $.nodes[2].transform.scale: expected an array of 3 numbers", NULL},
	{"{\"frames\": \"ten\"}", SG_ERR_FORMAT, ": $.frames: expected an integer", NULL},
	{"{\"frames\": 2.5}", SG_ERR_FORMAT, ": $.frames: expected an integer", NULL},
	{"{\"nodes\": {}}", SG_ERR_FORMAT, ": $.nodes: expected an array of nodes", NULL},
	{"{\"output\": {\"width\": \"wide\"}}", SG_ERR_FORMAT, ": $.output.width: expected an integer",
	 NULL},
	{"{\"output\": {\"background\": \"#12345\"}}", SG_ERR_FORMAT, ": $.output.background: ", NULL},
	{"{\"output\": {\"background\": [1, 2, 300]}}", SG_ERR_FORMAT,
	 ": $.output.background[2]: 300 is outside 0 .. 255", NULL},
	{"{\"nodes\": [{\"type\": \"model\", " NODE_QUAD ", \"texture\": 7}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].texture: expected a string", NULL},
	{"{\"nodes\": [{\"type\": \"transform\", \"transform\": {\"translate\": [1, 2, 1e999]}}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].transform.translate[2]: inf is outside", NULL},
	/* unknown kinds, keys and names */
	{"{\"nodes\": [{\"type\": \"sphere\"}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].type: unknown value \"sphere\"", NULL},
	{"{\"nodes\": [{\"name\": \"no type\"}]}", SG_ERR_FORMAT, ": $.nodes[0]: missing \"type\"",
	 NULL},
	{"{\"nodes\": [{\"type\": \"group\", \"postion\": [0, 0, 0]}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].postion: unknown key", NULL},
	{"{\"colour\": 1}", SG_ERR_FORMAT, ": $.colour: unknown key", NULL},
	{"{\"nodes\": [{\"type\": \"group\", \"visible\": 0}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].visible: expected true or false", NULL},
	{"{\"nodes\": [{\"type\": \"group\", \"children\": [{\"type\": \"model\", " NODE_QUAD
	 ", \"texture\": \"nope\"}]}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].children[0].texture: unknown texture \"nope\"", NULL},
	{"{\"textures\": {\"t\": {\"type\": \"solid\"}}, \"nodes\": [{\"type\": \"model\", "
	 "\"mesh\": \"square\", \"texture\": \"t\"}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].mesh: unknown mesh \"square\"", NULL},
	{"{\"textures\": {\"t\": {\"type\": \"gradient\"}}}", SG_ERR_FORMAT,
	 ": $.textures.t.type: unknown value \"gradient\"", NULL},
	{"{\"camera\": {\"type\": \"fisheye\"}}", SG_ERR_FORMAT, ": $.camera.type: unknown value",
	 NULL},
	/* texture files, opened when a model uses them */
	{"{\"textures\": {\"photo\": {\"type\": \"png\", \"path\": \"missing.png\"}}, " USE_PHOTO,
	 SG_ERR_IO, ": $.textures.photo.path: cannot open '", "missing.png'"},
	{"{\"textures\": {\"photo\": {\"type\": \"png\", \"path\": \"text.png\"}}, " USE_PHOTO,
	 SG_ERR_FORMAT, ": $.textures.photo.path: '", "text.png' is not a PNG file"},
	{"{\"textures\": {\"photo\": {\"type\": \"image\", \"path\": \"missing.jpg\"}}, " USE_PHOTO,
	 SG_ERR_IO, ": $.textures.photo.path: cannot open '", "missing.jpg'"},
	{"{\"textures\": {\"photo\": {\"type\": \"image\", \"path\": \"text.png\"}}, " USE_PHOTO,
	 SG_ERR_FORMAT, ": $.textures.photo.path: '", "text.png' is not an image libsg reads (PNG"},
	/* duplicate keys and keys with a NUL, which json-c keeps quiet about */
	{"{\"frames\": 1, \"frames\": 2}", SG_ERR_FORMAT, ":1:15: $: duplicate key \"frames\"", NULL},
	{"{\"textures\": {\"a\": {\"type\": \"solid\"},\n \"\\u0061\": {\"type\": \"solid\"}}}",
	 SG_ERR_FORMAT, ":2:2: $.textures: duplicate key \"a\"", NULL},
	{"{\"nodes\": [{\"type\": \"group\", \"children\": [], \"children\": [{}]}]}",
	 SG_ERR_FORMAT, ":1:46: $.nodes[0]: duplicate key \"children\"", NULL},
	{"{\"textures\": {\"a\\u0000b\": {\"type\": \"solid\"}}}", SG_ERR_FORMAT,
	 ":1:15: a key with a NUL character", NULL},
	/* a NUL in a string value: C would read "q\u0000zzz" as "q" */
	{"{\"meshes\": {\"q\": {\"type\": \"quad\", \"width\": 1, \"height\": 1}}, \"nodes\": "
	 "[{\"type\": \"model\", \"mesh\": \"q\\u0000zzz\"}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].mesh: a NUL character (\\u0000) at byte 1", NULL},
	{"{\"textures\": {\"t\": {\"type\": \"solid\"}}, \"nodes\": [{\"type\": \"model\", "
	 NODE_QUAD ", \"texture\": \"t\\u0000x\"}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].texture: a NUL character (\\u0000) at byte 1", NULL},
	{"{\"textures\": {\"photo\": {\"type\": \"png\", \"path\": \"text.png\\u0000.jpg\"}}}",
	 SG_ERR_FORMAT, ": $.textures.photo.path: a NUL character (\\u0000) at byte 8", NULL},
	{"{\"textures\": {\"t\": {\"type\": \"solid\\u0000\"}}}", SG_ERR_FORMAT,
	 ": $.textures.t.type: a NUL character (\\u0000) at byte 5", NULL},
	{"{\"nodes\": [{\"type\": \"group\\u0000zzz\"}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].type: a NUL character (\\u0000) at byte 5", NULL},
	{"{\"nodes\": [{\"type\": \"group\", \"name\": \"\\u0000\"}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].name: a NUL character (\\u0000) at byte 0", NULL},
	{"{\"camera\": {\"type\": \"ortho\\u0000\"}}", SG_ERR_FORMAT,
	 ": $.camera.type: a NUL character (\\u0000) at byte 5", NULL},
	{"{\"output\": {\"background\": \"#ff0000\\u0000zz\"}}", SG_ERR_FORMAT,
	 ": $.output.background: a NUL character (\\u0000) at byte 7", NULL},
	{"{\"nodes\": [{\"type\": \"model\", " NODE_QUAD ", \"color\": \"#00ff00ff\\u0000\"}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].color: a NUL character (\\u0000) at byte 9", NULL},
	/* untrusted text is escaped: paths paste into jq, no control character
	 * reaches a terminal */
	{"{\"a\\\"b\\\\c\\n\": 1}", SG_ERR_FORMAT, ": $[\"a\\\"b\\\\c\\n\"]: unknown key", NULL},
	{"{\"textures\": {\"t\": {\"type\": \"\\u001b[2J\\u009b\"}}}", SG_ERR_FORMAT,
	 ": $.textures.t.type: unknown value \"\\u001b[2J\\u009b\"", NULL},
	{"{\"nodes\": [{\"type\": \"model\", " NODE_QUAD ", \"texture\": \"\\r\\u0007\"}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].texture: unknown texture \"\\r\\u0007\"", NULL},
	/* bidi controls reorder what a terminal shows: "\u202egnp.exe" reads "exe.png" */
	{"{\"nodes\": [{\"type\": \"model\", " NODE_QUAD ", \"texture\": "
	 "\"\\u202egnp.exe\\u202a\\u202b\\u202c\\u202d\\u2066\\u2067\\u2068\\u2069\\u200e"
	 "\\u200f\\u0085\"}]}",
	 SG_ERR_FORMAT,
	 ": $.nodes[0].texture: unknown texture \"\\u202egnp.exe\\u202a\\u202b\\u202c\\u202d\\u2066"
	 "\\u2067\\u2068\\u2069\\u200e\\u200f\\u0085\"",
	 NULL},
	{"{\"textures\": {\"photo\": {\"type\": \"png\", \"path\": \"a\\u2067b\\u009b.png\"}}, "
	 USE_PHOTO, SG_ERR_IO, ": $.textures.photo.path: cannot open '", "a\\u2067b\\x9b.png'"},
	{"{\"nodes\": [{\"type\": \"model\", " NODE_QUAD
	 ", \"texture\": \"\\u2065\\u2070\\u202f\"}]}",
	 SG_ERR_FORMAT,
	 ": $.nodes[0].texture: unknown texture \"\xe2\x81\xa5\xe2\x81\xb0\xe2\x80\xaf\"",
	 NULL}, /* their neighbours are shown */
	/* absurd and negative sizes */
	{"{\"output\": {\"width\": 100000, \"height\": 10}}", SG_ERR_FORMAT,
	 ": $.output.width: 100000 is outside 1 .. 16384", NULL},
	{"{\"output\": {\"width\": 10, \"height\": -5}}", SG_ERR_FORMAT,
	 ": $.output.height: -5 is outside 1 .. 16384", NULL},
	{"{\"output\": {\"width\": 0}}", SG_ERR_FORMAT, ": $.output.width: 0 is outside", NULL},
	{"{\"frames\": 0}", SG_ERR_FORMAT, ": $.frames: 0 is outside 1 .. ", NULL},
	{"{\"textures\": {" CHECKER ", \"cell\": 0}}}", SG_ERR_FORMAT,
	 ": $.textures.t.cell: 0 is outside", NULL},
	{"{\"textures\": {" CHECKER ", \"width\": 1000000}}}", SG_ERR_FORMAT,
	 ": $.textures.t.width: 1000000 is outside 1 .. 4096", NULL},
	{"{\"textures\": {" CHECKER ", \"colors\": [[0, 0, 0]]}}}", SG_ERR_FORMAT,
	 ": $.textures.t.colors: expected an array of 2 colours", NULL},
	{"{\"meshes\": {\"q\": {\"type\": \"quad\", \"width\": -1, \"height\": 1}}}", SG_ERR_FORMAT,
	 ": $.meshes.q.width: -1 is outside", NULL},
	{"{\"camera\": {\"type\": \"perspective\", \"near\": 10, \"far\": 1}}", SG_ERR_FORMAT,
	 ": $.camera: far (1) must be greater than near (10)", NULL},
	/* meshes */
	{"{\"meshes\": {\"m\": {\"type\": \"triangles\", \"vertices\": [[0, 0, 0, 0, 0], "
	 "[1, 0, 0, 1, 0]]}}}",
	 SG_ERR_FORMAT, ": $.meshes.m.vertices: 2 vertices", NULL},
	{"{\"meshes\": {\"m\": {\"type\": \"triangles\", \"vertices\": [[0, 0, 0, 0, 0], "
	 "[1, 0, 0, 1, 0], [0, 1, 0]], \"indices\": [0, 1, 2]}}}",
	 SG_ERR_FORMAT, ": $.meshes.m.vertices[2]: expected an array of 5 numbers", NULL},
	{"{\"meshes\": {\"m\": {\"type\": \"triangles\", \"vertices\": [[0, 0, 0, 0, 0]], "
	 "\"indices\": [0, 0, 3]}}}",
	 SG_ERR_FORMAT, ": $.meshes.m.indices[2]: 3 is outside 0 .. 0", NULL},
	/* transforms and animation */
	{"{\"nodes\": [{\"type\": \"transform\", \"transform\": {\"matrix\": [1, 0, 0, 0, 0, 1, 0, 0, "
	 "0, 0, 1, 0, 0, 0, 0, 1], \"scale\": [1, 1, 1]}}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].transform: \"matrix\" cannot be combined", NULL},
	{"{\"nodes\": [{\"type\": \"transform\", \"transform\": {\"matrix\": [1, 0]}}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].transform.matrix: expected an array of 16 numbers", NULL},
	{"{\"nodes\": [{\"type\": \"transform\", \"transform\": {\"rotate\": {\"angle\": 10, "
	 "\"axis\": [0, 0, 0]}}}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].transform.rotate: the axis is [0, 0, 0]", NULL},
	{"{\"nodes\": [{\"type\": \"transform\", \"transform\": {\"translate\": {\"keyframes\": "
	 "[{\"frame\": 5, \"value\": [0, 0, 0]}, {\"frame\": 5, \"value\": [1, 0, 0]}]}}}]}",
	 SG_ERR_FORMAT,
	 ": $.nodes[0].transform.translate.keyframes[1].frame: frame 5 does not come after frame 5",
	 NULL},
	{"{\"nodes\": [{\"type\": \"transform\", \"transform\": {\"scale\": {\"keyframes\": "
	 "[{\"frame\": 0, \"value\": 2}]}}}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].transform.scale.keyframes[0].value: expected an array of 3",
	 NULL},
	{"{\"nodes\": [{\"type\": \"model\", " NODE_QUAD ", \"texture\": \"t\", \"children\": []}]}",
	 SG_ERR_FORMAT, ": $.nodes[0]: a model cannot have children", NULL},
	/* opacity and colour: in [0, 1], finite, of the right shape, colour on models only */
	{"{\"nodes\": [{\"type\": \"group\", \"opacity\": 1.5}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].opacity: 1.5 is outside 0 .. 1", NULL},
	{"{\"nodes\": [{\"type\": \"model\", " NODE_QUAD ", \"opacity\": -0.1}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].opacity: -0.1 is outside 0 .. 1", NULL},
	{"{\"nodes\": [{\"type\": \"transform\", \"opacity\": 1e999}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].opacity: inf is outside 0 .. 1", NULL},
	{"{\"nodes\": [{\"type\": \"group\", \"opacity\": \"half\"}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].opacity: expected a number", NULL},
	{"{\"nodes\": [{\"type\": \"model\", " NODE_QUAD ", \"color\": [1, 2, 0]}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].color[1]: 2 is outside 0 .. 1", NULL},
	{"{\"nodes\": [{\"type\": \"model\", " NODE_QUAD ", \"color\": [255, 128, 0]}]}",
	 SG_ERR_FORMAT,
	 ": $.nodes[0].color[0]: 255 is outside 0 .. 1 (a node's colour takes numbers 0 .. 1, not "
	 "0 .. 255)",
	 NULL},
	{"{\"nodes\": [{\"type\": \"model\", " NODE_QUAD ", \"color\": [0, 0, 0, -0.5]}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].color[3]: -0.5 is outside 0 .. 1", NULL},
	{"{\"nodes\": [{\"type\": \"model\", " NODE_QUAD ", \"color\": [0.5, -1e999, 0]}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].color[1]: -inf is outside 0 .. 1", NULL},
	{"{\"nodes\": [{\"type\": \"model\", " NODE_QUAD ", \"color\": [0.5, 0.5]}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].color: expected [r, g, b] or [r, g, b, a] (numbers 0 .. 1), or "
	 "\"#rrggbb\" / \"#rrggbbaa\", not an array of 2",
	 NULL},
	{"{\"nodes\": [{\"type\": \"model\", " NODE_QUAD ", \"color\": [1, 1, 1, 1, 1]}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].color: expected [r, g, b] or [r, g, b, a] (numbers 0 .. 1), "
	 "or \"#rrggbb\" / \"#rrggbbaa\", not an array of 5", NULL},
	{"{\"nodes\": [{\"type\": \"model\", " NODE_QUAD ", \"color\": \"#ff00zz\"}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].color: expected a colour \"#rrggbb\" or \"#rrggbbaa\"", NULL},
	{"{\"nodes\": [{\"type\": \"model\", " NODE_QUAD ", \"color\": true}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].color: expected [r, g, b] or [r, g, b, a] (numbers 0 .. 1), "
	 "or \"#rrggbb\" / \"#rrggbbaa\"", NULL},
	{"{\"nodes\": [{\"type\": \"model\", " NODE_QUAD ", \"color\": [\"1\", 0, 0]}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].color[0]: expected a number", NULL},
	{"{\"nodes\": [{\"type\": \"group\", \"color\": [1, 0, 0]}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].color: a group has no \"color\" (only models have one: give the models "
	 "below it a colour, or the group an \"opacity\")",
	 NULL},
	{"{\"nodes\": [{\"type\": \"group\", \"children\": [{\"type\": \"transform\", "
	 "\"color\": [1, 0, 0]}]}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].children[0].color: a transform has no \"color\"", NULL},
	{"{\"nodes\": [{\"type\": \"model\", " NODE_QUAD ", \"colour\": [1, 0, 0]}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].colour: unknown key", NULL},
	/* their keyframes */
	{"{\"nodes\": [{\"type\": \"group\", \"opacity\": {\"keyframes\": [{\"frame\": 0, "
	 "\"value\": 0}, {\"frame\": 10, \"value\": 2}]}}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].opacity.keyframes[1].value: 2 is outside 0 .. 1", NULL},
	{"{\"nodes\": [{\"type\": \"group\", \"opacity\": {\"keyframes\": [{\"frame\": 4, "
	 "\"value\": 0}, {\"frame\": 3, \"value\": 1}]}}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].opacity.keyframes[1].frame: frame 3 does not come after frame 4",
	 NULL},
	{"{\"nodes\": [{\"type\": \"group\", \"opacity\": {\"keyframes\": []}}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].opacity.keyframes: expected an array of keyframes", NULL},
	{"{\"nodes\": [{\"type\": \"group\", \"opacity\": {\"value\": 1}}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].opacity.value: unknown key", NULL},
	{"{\"nodes\": [{\"type\": \"model\", " NODE_QUAD ", \"color\": {\"keyframes\": "
	 "[{\"frame\": 0, \"value\": [1, 0]}]}}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].color.keyframes[0].value: expected [r, g, b] or [r, g, b, a]",
	 NULL},
	{"{\"nodes\": [{\"type\": \"model\", " NODE_QUAD ", \"color\": {\"keyframes\": "
	 "[{\"frame\": 0, \"value\": [1, 0, 0]}, {\"frame\": 5, \"value\": [0, 0, 1, 1.01]}]}}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].color.keyframes[1].value[3]: 1.01 is outside 0 .. 1", NULL},
	/* 3D: materials */
	{"{\"materials\": {\"m\": {\"alpha_mode\": \"glass\"}}}", SG_ERR_FORMAT,
	 ": $.materials.m.alpha_mode: unknown value \"glass\" (expected one of \"opaque\", "
	 "\"mask\", \"blend\")",
	 NULL},
	{"{\"materials\": {\"m\": {\"base_colour\": [1, 1, 1]}}}", SG_ERR_FORMAT,
	 ": $.materials.m.base_colour: unknown key", NULL},
	{"{\"materials\": {\"m\": {\"base_color_texture\": \"nope\"}}}", SG_ERR_FORMAT,
	 ": $.materials.m.base_color_texture: unknown texture \"nope\" (not in $.textures)", NULL},
	{"{\"textures\": {\"t\": {\"type\": \"solid\"}}, \"materials\": {\"m\": "
	 "{\"normal_texture\": {\"texture\": \"x\", \"uv_set\": 1}}}}",
	 SG_ERR_FORMAT, ": $.materials.m.normal_texture.texture: unknown texture \"x\"", NULL},
	{"{\"textures\": {\"t\": {\"type\": \"solid\"}}, \"materials\": {\"m\": "
	 "{\"normal_texture\": {\"texture\": \"t\", \"uv_set\": 2}}}}",
	 SG_ERR_FORMAT, ": $.materials.m.normal_texture.uv_set: 2 is outside 0 .. 1", NULL},
	{"{\"materials\": {\"m\": {\"roughness\": 1.5}}}", SG_ERR_FORMAT,
	 ": $.materials.m.roughness: 1.5 is outside 0 .. 1", NULL},
	{"{\"materials\": {\"m\": {\"base_color\": [1, 0, 0, 0.5, 1]}}}", SG_ERR_FORMAT,
	 ": $.materials.m.base_color: expected a linear colour [r, g, b] or [r, g, b, a]", NULL},
	{"{\"materials\": {\"m\": {\"emissive\": \"#ff000080\"}}}", SG_ERR_FORMAT,
	 ": $.materials.m.emissive: expected \"#rrggbb\": this colour has no alpha", NULL},
	{"{\"materials\": {\"m\": {\"alpha_cutoff\": 0.3}}}", SG_ERR_FORMAT,
	 ": $.materials.m.alpha_cutoff: only an \"alpha_mode\": \"mask\" material has a cutoff",
	 NULL},
	{"{\"materials\": {\"m\": {\"unlit\": 1}}}", SG_ERR_FORMAT,
	 ": $.materials.m.unlit: expected true or false", NULL},
	{"{\"materials\": {\"m\": {}}, \"nodes\": [{\"type\": \"model\", " NODE_QUAD
	 ", \"material\": \"n\"}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].material: unknown material \"n\" (not in $.materials)", NULL},
	/* a material's texture is opened when a model uses the material */
	{"{\"textures\": {\"photo\": {\"type\": \"png\", \"path\": \"missing.png\"}}, "
	 "\"materials\": {\"m\": {\"emissive_texture\": \"photo\"}}, \"nodes\": "
	 "[{\"type\": \"model\", " NODE_QUAD ", \"material\": \"m\"}]}",
	 SG_ERR_IO, ": $.textures.photo.path: cannot open '", "missing.png'"},
	/* 3D: meshes */
	{"{\"meshes\": {\"b\": {\"type\": \"box\", \"size\": [1, 0, 1]}}}", SG_ERR_FORMAT,
	 ": $.meshes.b.size[1]: 0 is outside", NULL},
	{"{\"meshes\": {\"b\": {\"type\": \"box\"}}}", SG_ERR_FORMAT,
	 ": $.meshes.b.size: missing", NULL},
	{"{\"meshes\": {\"s\": {\"type\": \"sphere\", \"radius\": 1, \"segments\": 1000}}}",
	 SG_ERR_FORMAT, ": $.meshes.s.segments: 1000 is outside 3 .. 256", NULL},
	{"{\"meshes\": {\"s\": {\"type\": \"sphere\", \"radius\": 1, \"rings\": 4}}}",
	 SG_ERR_FORMAT, ": $.meshes.s.rings: unknown key", NULL},
	{"{\"meshes\": {\"s\": {\"type\": \"solid\", \"positions\": [[0, 0, 0], [1, 0, 0]]}}}",
	 SG_ERR_FORMAT, ": $.meshes.s.positions: 2 positions [x, y, z]: a triangle list needs a "
	 "multiple of 3", NULL},
	{"{\"meshes\": {\"s\": {\"type\": \"solid\", \"positions\": [[0, 0, 0], [1, 0, 0], "
	 "[0, 1, 0]], \"normals\": [[0, 0, 1]]}}}",
	 SG_ERR_FORMAT, ": $.meshes.s.normals: expected an array of 3 normals [x, y, z], one per "
	 "position", NULL},
	{"{\"meshes\": {\"s\": {\"type\": \"solid\", \"positions\": [[0, 0, 0], [1, 0, 0], "
	 "[0, 1, 0]], \"normals\": \"round\"}}}",
	 SG_ERR_FORMAT, ": $.meshes.s.normals: unknown value \"round\"", NULL},
	{"{\"meshes\": {\"s\": {\"type\": \"solid\", \"positions\": [[0, 0, 0], [1, 0, 0], "
	 "[0, 1, 0]], \"colors\": [[1, 1, 1], [1, 1, 1, 1], [2, 0, 0]]}}}",
	 SG_ERR_FORMAT, ": $.meshes.s.colors[2][0]: 2 is outside 0 .. 1", NULL},
	{"{\"meshes\": {\"s\": {\"type\": \"solid\", \"positions\": [[0, 0, 0], [1, 0, 0], "
	 "[0, 1, 0]], \"indices\": [0, 1, 3]}}}",
	 SG_ERR_FORMAT, ": $.meshes.s.indices[2]: 3 is outside 0 .. 2", NULL},
	/* 3D: views and lights */
	{"{\"nodes\": [{\"type\": \"view3d\", \"children\": [{\"type\": \"light\", "
	 "\"light\": \"spot\", \"outer_cone\": 120}]}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].children[0].outer_cone: 120 is outside 0 .. 90", NULL},
	{"{\"nodes\": [{\"type\": \"view3d\", \"children\": [{\"type\": \"light\", "
	 "\"light\": \"spot\", \"inner_cone\": 50, \"outer_cone\": 40}]}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].children[0].inner_cone: inner_cone (50) must be less than "
	 "outer_cone (40)", NULL},
	{"{\"nodes\": [{\"type\": \"view3d\", \"children\": [{\"type\": \"light\", "
	 "\"light\": \"point\", \"inner_cone\": 5}]}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].children[0].inner_cone: only a spot light has cones", NULL},
	{"{\"nodes\": [{\"type\": \"view3d\", \"children\": [{\"type\": \"light\", "
	 "\"light\": \"directional\", \"range\": 5}]}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].children[0].range: a directional light has no range", NULL},
	{"{\"nodes\": [{\"type\": \"view3d\", \"children\": [{\"type\": \"light\"}]}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].children[0]: missing \"light\" (one of \"directional\", "
	 "\"point\", \"spot\")", NULL},
	{"{\"nodes\": [{\"type\": \"light\", \"light\": \"point\"}]}", SG_ERR_FORMAT,
	 ": $.nodes[0]: a light outside any 3D view lights nothing", NULL},
	{"{\"nodes\": [{\"type\": \"view3d\", \"children\": [{\"type\": \"light\", "
	 "\"light\": \"point\", \"children\": []}]}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].children[0]: a light cannot have children", NULL},
	{"{\"nodes\": [{\"type\": \"view3d\", \"children\": [{\"type\": \"light\", "
	 "\"light\": \"point\", \"opacity\": 1}]}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].children[0].opacity: unknown key", NULL},
	{"{\"nodes\": [{\"type\": \"view3d\", \"viewport\": [0, 0, 0, 10]}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].viewport[2]: the width is 0: it must be above 0", NULL},
	{"{\"nodes\": [{\"type\": \"view3d\", \"camera\": {\"type\": \"fish\"}}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].camera.type: unknown value \"fish\"", NULL},
	{"{\"nodes\": [{\"type\": \"view3d\", \"camera\": {\"type\": \"perspective\", "
	 "\"fov\": 40}}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].camera.fov: unknown key", NULL},
	{"{\"nodes\": [{\"type\": \"view3d\", \"ambient\": [0.1, 0.1, 300]}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].ambient[2]: 300 is outside 0 .. 1", NULL},
};

START_TEST(test_bad_input_is_refused)
{
	const struct bad_case *c = &bad_cases[_i];
	make_temp_dir();
	write_file("text.png", "this is not a PNG file\n");
	const char *path = write_file("bad.json", c->content);
	char expected[1024];
	snprintf(expected, sizeof(expected), "%s%s", path, c->fragment);
	struct sg_scene_file *file = (struct sg_scene_file *)1;
	sg_result result = sg_scene_file_load(path, &file);
	ck_assert_msg(result == c->result, "case %d: %s instead of %s (%s)", _i,
	              sg_result_name(result), sg_result_name(c->result), sg_last_error());
	ck_assert_ptr_null(file);
	ck_assert_msg(strstr(sg_last_error(), expected), "case %d: message '%s' lacks '%s'", _i,
	              sg_last_error(), expected);
	ck_assert_msg(!c->also || strstr(sg_last_error(), c->also),
	              "case %d: message '%s' lacks '%s'", _i, sg_last_error(), c->also);
	remove_temp_dir();
}
END_TEST

/* A scene of depth levels: the object, then depth - 1 arrays in "comment". */
static const char *write_deep(int depth)
{
	static char content[2048];
	snprintf(content, sizeof(content), "{\"comment\": ");
	for (int i = 1; i < depth; i++)
		strcat(content, "[");
	for (int i = 1; i < depth; i++)
		strcat(content, "]");
	strcat(content, "}");
	return write_file("deep.json", content);
}

START_TEST(test_nesting_too_deep)
{
	make_temp_dir();
	struct sg_scene_file *file = NULL;
	ck_assert_int_eq(sg_scene_file_load(write_deep(64), &file), SG_OK);
	sg_scene_file_destroy(file);
	ck_assert_int_eq(sg_scene_file_load(write_deep(65), &file), SG_ERR_LIMIT);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "deep.json:1:76: nesting deeper than the "
	                                              "limit of 64 JSON levels (raise it with "
	                                              "max_json_depth, sg-render --limit json-depth=N)"));
	struct sg_scene_file_options options = {.max_json_depth = 300};
	ck_assert_int_eq(sg_scene_file_load_with(write_deep(300), &options, &file), SG_OK);
	sg_scene_file_destroy(file);
	ck_assert_int_eq(sg_scene_file_load_with(write_deep(301), &options, &file), SG_ERR_LIMIT);
	options.max_json_depth = -1;
	ck_assert_int_eq(sg_scene_file_load_with(write_deep(3), &options, &file),
	                 SG_ERR_INVALID_ARGUMENT);
	remove_temp_dir();
}
END_TEST

/* --- Trust (docs/scene-format.md, "Trust"): what a scene file may open --- */

/* temp_dir/scene/ holds the scene; temp_dir/outside.png lies outside it. */
static char scene_dir[300];

static void make_scene_dir(void)
{
	make_temp_dir();
	snprintf(scene_dir, sizeof(scene_dir), "%s/scene", temp_dir);
	ck_assert_int_eq(mkdir(scene_dir, 0755), 0);
}

static void copy_tile(const char *to)
{
	char command[1200];
	snprintf(command, sizeof(command), "cp scenes/textures/tile.png '%s'", to);
	ck_assert_int_eq(system(command), 0);
}

/* A scene in scene_dir whose one model uses a PNG texture at texture_path. */
static const char *write_png_scene(const char *texture_path)
{
	char content[1024];
	snprintf(content, sizeof(content),
	         "{\"textures\": {\"photo\": {\"type\": \"png\", \"path\": \"%s\"}}, " USE_PHOTO,
	         texture_path);
	return write_file("scene/scene.json", content);
}

static sg_result load_png_scene(const char *texture_path,
                                const struct sg_scene_file_options *options)
{
	struct sg_scene_file *file = (struct sg_scene_file *)1;
	sg_result result = sg_scene_file_load_with(write_png_scene(texture_path), options, &file);
	if (result == SG_OK)
		sg_scene_file_destroy(file);
	else
		ck_assert_ptr_null(file);
	return result;
}

static void assert_message_has(const char *fragment)
{
	ck_assert_msg(strstr(sg_last_error(), fragment), "message '%s' lacks '%s'", sg_last_error(),
	              fragment);
}

START_TEST(test_only_regular_files_are_opened)
{
	make_scene_dir();
	char path[600];
	snprintf(path, sizeof(path), "%s/fifo.json", scene_dir);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	struct sg_scene_file *file = NULL;
	/* Before: open() waited for a writer forever. */
	ck_assert_int_eq(sg_scene_file_load(path, &file), SG_ERR_IO);
	assert_message_has("fifo.json' is a FIFO, not a regular file");
	ck_assert_int_eq(sg_scene_file_load(scene_dir, &file), SG_ERR_IO);
	assert_message_has("/scene' is a directory, not a regular file");
	ck_assert_int_eq(sg_scene_file_load("/dev/zero", &file), SG_ERR_IO);
	assert_message_has("'/dev/zero' is a character device");
	snprintf(path, sizeof(path), "%s/fifo.png", scene_dir);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(load_png_scene("fifo.png", NULL), SG_ERR_IO);
	assert_message_has("scene.json: $.textures.photo.path: 'fifo.png' is a FIFO");
	snprintf(path, sizeof(path), "%s/folder.png", scene_dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	/* Before: "'.../folder.png' is not a PNG file". */
	ck_assert_int_eq(load_png_scene("folder.png", NULL), SG_ERR_IO);
	assert_message_has("'folder.png' is a directory, not a regular file");
	remove_temp_dir();
}
END_TEST

/* The message for a refused path, with the path itself cut out: it must not
 * depend on whether the file exists. */
static void refusal_without(const char *texture_path, char *out, size_t size)
{
	ck_assert_int_eq(load_png_scene(texture_path, NULL), SG_ERR_IO);
	const char *message = sg_last_error();
	const char *at = strstr(message, texture_path);
	ck_assert_ptr_nonnull(at);
	snprintf(out, size, "%.*s%s", (int)(at - message), message, at + strlen(texture_path));
}

START_TEST(test_texture_paths_stay_in_the_scene_folder)
{
	make_scene_dir();
	char outside[600], path[600], existing[512], missing[512];
	snprintf(outside, sizeof(outside), "%s/outside.png", temp_dir);
	copy_tile(outside);
	/* Absolute and ".." paths are refused by their text alone. */
	refusal_without(outside, existing, sizeof(existing));
	snprintf(path, sizeof(path), "%s/missing.png", temp_dir);
	refusal_without(path, missing, sizeof(missing));
	ck_assert_str_eq(existing, missing);
	assert_message_has("is an absolute path outside the allowed folders");
	assert_message_has("(allow a folder with allowed_paths, sg-render --allow-path DIR)");
	refusal_without("../outside.png", existing, sizeof(existing));
	refusal_without("../missing.png", missing, sizeof(missing));
	ck_assert_str_eq(existing, missing);
	assert_message_has("has a '..': a texture path stays inside the scene's folder");
	ck_assert_int_eq(load_png_scene("sub/../../outside.png", NULL), SG_ERR_IO);
	/* The "..": refused even for an unused texture, with no file opened. */
	struct sg_scene_file *file = NULL;
	const char *scene = write_file(
		"scene/unused.json",
		"{\"textures\": {\"p\": {\"type\": \"png\", \"path\": \"../outside.png\"}}}");
	ck_assert_int_eq(sg_scene_file_load(scene, &file), SG_ERR_IO);
	/* A symlink inside the folder is followed, and its target checked. */
	snprintf(path, sizeof(path), "%s/link.png", scene_dir);
	ck_assert_int_eq(symlink(outside, path), 0);
	ck_assert_int_eq(load_png_scene("link.png", NULL), SG_ERR_IO);
	assert_message_has("'link.png' resolves to a file outside the scene's folder");
	snprintf(path, sizeof(path), "%s/inside.png", scene_dir);
	copy_tile(path);
	snprintf(path, sizeof(path), "%s/inner-link.png", scene_dir);
	ck_assert_int_eq(symlink("inside.png", path), 0);
	ck_assert_int_eq(load_png_scene("inner-link.png", NULL), SG_OK);
	remove_temp_dir();
}
END_TEST

START_TEST(test_allowed_paths_widen_the_folder)
{
	make_scene_dir();
	char assets[600], outside[700], link[700];
	snprintf(assets, sizeof(assets), "%s/assets", temp_dir);
	ck_assert_int_eq(mkdir(assets, 0755), 0);
	snprintf(outside, sizeof(outside), "%s/outside.png", assets);
	copy_tile(outside);
	snprintf(link, sizeof(link), "%s/link.png", scene_dir);
	ck_assert_int_eq(symlink(outside, link), 0);
	ck_assert_int_eq(load_png_scene(outside, NULL), SG_ERR_IO);
	ck_assert_int_eq(load_png_scene("link.png", NULL), SG_ERR_IO);
	const char *allowed[] = {"/nonexistent-but-unused-first", assets};
	struct sg_scene_file_options options = {.allowed_paths = allowed + 1,
	                                        .allowed_path_count = 1};
	ck_assert_msg(load_png_scene(outside, &options) == SG_OK, "%s", sg_last_error());
	ck_assert_msg(load_png_scene("link.png", &options) == SG_OK, "%s", sg_last_error());
	/* With allowed folders a ".." is judged by where it resolves: into one, it
	 * is accepted (relative or absolute); out of all of them, refused. */
	char dotted[800];
	snprintf(dotted, sizeof(dotted), "%s/../assets/outside.png", assets);
	ck_assert_msg(load_png_scene(dotted, &options) == SG_OK, "%s", sg_last_error());
	ck_assert_msg(load_png_scene("../assets/outside.png", &options) == SG_OK, "%s",
	              sg_last_error());
	char above[700];
	snprintf(above, sizeof(above), "%s/outside.png", temp_dir);
	copy_tile(above);
	ck_assert_int_eq(load_png_scene("../assets/../outside.png", &options), SG_ERR_IO);
	assert_message_has("'../assets/../outside.png' is not a file inside the scene's folder or "
	                   "the allowed folders");
	/* a missing file out there gets the very same message: no probing */
	ck_assert_int_eq(load_png_scene("../assets/../missing.png", &options), SG_ERR_IO);
	assert_message_has("'../assets/../missing.png' is not a file inside the scene's folder or "
	                   "the allowed folders");
	ck_assert_ptr_null(strstr(sg_last_error(), "No such file"));
	/* without them, ".." is refused even where it would lead back inside */
	ck_assert_int_eq(load_png_scene("../scene/link.png", NULL), SG_ERR_IO);
	assert_message_has("has a '..'");
	/* An allowed folder that does not exist is the caller's error. */
	options = (struct sg_scene_file_options){.allowed_paths = allowed, .allowed_path_count = 2};
	ck_assert_int_eq(load_png_scene("link.png", &options), SG_ERR_IO);
	assert_message_has("allowed path '/nonexistent-but-unused-first'");
	remove_temp_dir();
}
END_TEST

/* --- Budgets: each refused with SG_ERR_LIMIT, each accepted when raised --- */

static sg_result load_text(const char *content, const struct sg_scene_file_options *options)
{
	struct sg_scene_file *file = (struct sg_scene_file *)1;
	sg_result result = sg_scene_file_load_with(write_file("limit.json", content), options, &file);
	if (result == SG_OK)
		sg_scene_file_destroy(file);
	else
		ck_assert_ptr_null(file);
	return result;
}

START_TEST(test_output_and_frame_limits)
{
	make_temp_dir();
	const char *big = "{\"output\": {\"width\": 16384, \"height\": 16384}}";
	ck_assert_int_eq(load_text(big, NULL), SG_ERR_LIMIT);
	assert_message_has("limit.json: $.output: 16384x16384 = 268435456 pixels is over the limit "
	                   "of 16777216 output pixels (raise it with max_output_pixels, sg-render "
	                   "--limit output-pixels=N)");
	ck_assert_int_eq(load_text("{\"output\": {\"width\": 4096, \"height\": 4096}}", NULL), SG_OK);
	struct sg_scene_file_options options = {.max_output_pixels = 16384 * 16384};
	ck_assert_int_eq(load_text(big, &options), SG_OK);
	ck_assert_int_eq(load_text("{\"frames\": 1000000}", NULL), SG_ERR_LIMIT);
	assert_message_has("limit.json: $.frames: 1000000 frames is over the limit of 10000 frames "
	                   "(raise it with max_frames, sg-render --limit frames=N)");
	ck_assert_int_eq(load_text("{\"frames\": 10000}", NULL), SG_OK);
	options = (struct sg_scene_file_options){.max_frames = 1000000};
	ck_assert_int_eq(load_text("{\"frames\": 1000000}", &options), SG_OK);
	remove_temp_dir();
}
END_TEST

/* "{}" and spaces, size bytes in all. */
static const char *write_sized(size_t size)
{
	char *content = malloc(size + 1);
	ck_assert_ptr_nonnull(content);
	memset(content, ' ', size);
	memcpy(content, "{}", 2);
	content[size] = '\0';
	const char *path = write_file("sized.json", content);
	free(content);
	return path;
}

START_TEST(test_file_size_limit)
{
	make_temp_dir();
	struct sg_scene_file *file = NULL;
	/* Exactly the limit is accepted (before: refused as "larger than"). */
	ck_assert_msg(sg_scene_file_load(write_sized(1024 * 1024), &file) == SG_OK, "%s",
	              sg_last_error());
	sg_scene_file_destroy(file);
	ck_assert_int_eq(sg_scene_file_load(write_sized(1024 * 1024 + 1), &file), SG_ERR_LIMIT);
	assert_message_has("sized.json: 1048577 bytes is over the limit of 1048576 bytes for a "
	                   "scene file (raise it with max_file_bytes, sg-render --limit "
	                   "file-bytes=N)");
	struct sg_scene_file_options options = {.max_file_bytes = 100};
	ck_assert_int_eq(sg_scene_file_load_with(write_sized(100), &options, &file), SG_OK);
	sg_scene_file_destroy(file);
	ck_assert_int_eq(sg_scene_file_load_with(write_sized(101), &options, &file), SG_ERR_LIMIT);
	options.max_file_bytes = 2 * 1024 * 1024;
	ck_assert_int_eq(sg_scene_file_load_with(write_sized(1024 * 1024 + 1), &options, &file),
	                 SG_OK);
	sg_scene_file_destroy(file);
	remove_temp_dir();
}
END_TEST

/* n checkerboards of 64x64 (16384 bytes each); the first used ones are used. */
static const char *write_boards(int n, int used)
{
	static char content[4096];
	snprintf(content, sizeof(content), "{\"textures\": {");
	for (int i = 0; i < n; i++)
		snprintf(content + strlen(content), sizeof(content) - strlen(content),
		         "%s\"t%d\": {\"type\": \"checkerboard\"}", i ? ", " : "", i);
	strcat(content, "}, \"nodes\": [");
	for (int i = 0; i < used; i++)
		snprintf(content + strlen(content), sizeof(content) - strlen(content),
		         "%s{\"type\": \"model\", " NODE_QUAD ", \"texture\": \"t%d\"}", i ? ", " : "",
		         i);
	strcat(content, "]}");
	return content;
}

START_TEST(test_texture_bytes_count_used_textures)
{
	make_temp_dir();
	struct sg_scene_file_options options = {.max_texture_bytes = 2 * 16384};
	/* Eight unused textures cost nothing: never generated. */
	ck_assert_int_eq(load_text(write_boards(8, 2), &options), SG_OK);
	ck_assert_int_eq(load_text(write_boards(8, 3), &options), SG_ERR_LIMIT);
	assert_message_has("limit.json: $.textures.t2: 64x64 = 16384 bytes would bring the used "
	                   "textures to 49152 bytes, over the limit of 32768 texture bytes (raise it "
	                   "with max_texture_bytes, sg-render --limit texture-bytes=N)");
	options.max_texture_bytes = 3 * 16384;
	ck_assert_int_eq(load_text(write_boards(8, 3), &options), SG_OK);
	/* A texture used twice counts once. */
	options.max_texture_bytes = 16384;
	ck_assert_int_eq(load_text("{\"textures\": {" CHECKER "}}, \"nodes\": [{\"type\": \"model\", "
	                           NODE_QUAD ", \"texture\": \"t\"}, {\"type\": \"model\", " NODE_QUAD
	                           ", \"texture\": \"t\"}]}",
	                           &options),
	                 SG_OK);
	/* A PNG is refused from its header, before it is decoded (tile.png: 32x32). */
	copy_tile(temp_dir);
	const char *png = "{\"textures\": {\"photo\": {\"type\": \"png\", \"path\": \"tile.png\"}}, "
	                  USE_PHOTO;
	options.max_texture_bytes = 32 * 32 * 4 - 1;
	ck_assert_int_eq(load_text(png, &options), SG_ERR_LIMIT);
	assert_message_has("$.textures.photo.path: 32x32 = 4096 bytes would bring");
	options.max_texture_bytes = 32 * 32 * 4;
	ck_assert_int_eq(load_text(png, &options), SG_OK);
	/* The same for "image" (any format, PNG here), refused from its header too. */
	const char *image = "{\"textures\": {\"photo\": {\"type\": \"image\", \"path\": "
	                    "\"tile.png\"}}, " USE_PHOTO;
	ck_assert_int_eq(load_text(image, &options), SG_OK);
	options.max_texture_bytes = 32 * 32 * 4 - 1;
	ck_assert_int_eq(load_text(image, &options), SG_ERR_LIMIT);
	assert_message_has("$.textures.photo.path: 32x32 = 4096 bytes would bring");
	/* The file of an unused texture is not opened: a missing one is no error. */
	ck_assert_int_eq(
		load_text("{\"textures\": {\"p\": {\"type\": \"png\", \"path\": \"none.png\"}}}", NULL),
		SG_OK);
	remove_temp_dir();
}
END_TEST

START_TEST(test_file_names_are_escaped)
{
	make_temp_dir();
	const char *path = write_file("bad\n\033[2Jname.json", "{\"frames\": 0}");
	struct sg_scene_file *file = NULL;
	ck_assert_int_eq(sg_scene_file_load(path, &file), SG_ERR_FORMAT);
	assert_message_has("/bad\\n\\x1b[2Jname.json: $.frames: 0 is outside");
	ck_assert_ptr_null(strchr(sg_last_error(), '\033'));
	ck_assert_ptr_null(strchr(sg_last_error(), '\n'));
	remove_temp_dir();
}
END_TEST

/* json-c 0.16 reports a failed allocation as no error at all: it must read as
 * out of memory, not "unexpected end of file". Only where the address space
 * can be limited: not under ASan (its shadow memory) nor valgrind. */
START_TEST(test_json_out_of_memory)
{
#if defined(__SANITIZE_ADDRESS__)
	return;
#endif
	if (RUNNING_ON_VALGRIND)
		return;
	make_temp_dir();
	/* About 800 bytes of json-c memory per "{}": 100k of them need 80 MiB. */
	size_t count = 100000;
	char *content = malloc(count * 3 + 16);
	ck_assert_ptr_nonnull(content);
	strcpy(content, "{\"comment\": [");
	for (size_t i = 0; i < count; i++)
		strcat(content + 13 + i * 3, i ? ",{}" : "{} ");
	strcat(content, "]}");
	const char *path = write_file("objects.json", content);
	free(content);
	pid_t child = fork();
	ck_assert_int_ge(child, 0);
	if (child == 0) {
		/* The address space now, plus 40 MiB. */
		FILE *statm = fopen("/proc/self/statm", "r");
		unsigned long pages = 0;
		if (!statm || fscanf(statm, "%lu", &pages) != 1)
			_exit(2);
		fclose(statm);
		rlim_t limit = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + (40u << 20);
		struct rlimit rlimit = {limit, limit};
		if (setrlimit(RLIMIT_AS, &rlimit) != 0)
			_exit(2);
		struct sg_scene_file *file = NULL;
		sg_result result = sg_scene_file_load(path, &file);
		fprintf(stderr, "json out of memory: %s\n", sg_last_error());
		bool mapped = result == SG_ERR_NO_MEMORY &&
		              strstr(sg_last_error(), "out of memory parsing");
		_exit(mapped ? 0 : 1);
	}
	int status = 0;
	ck_assert_int_eq(waitpid(child, &status, 0), child);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
	remove_temp_dir();
}
END_TEST

static void add_safety_tests(Suite *suite)
{
	TCase *trust = tcase_create("trust");
	tcase_add_test(trust, test_only_regular_files_are_opened);
	tcase_add_test(trust, test_texture_paths_stay_in_the_scene_folder);
	tcase_add_test(trust, test_allowed_paths_widen_the_folder);
	tcase_add_test(trust, test_file_names_are_escaped);
	suite_add_tcase(suite, trust);
	TCase *limits = tcase_create("limits");
	tcase_add_test(limits, test_output_and_frame_limits);
	tcase_add_test(limits, test_file_size_limit);
	tcase_add_test(limits, test_texture_bytes_count_used_textures);
	tcase_add_test(limits, test_json_out_of_memory);
	suite_add_tcase(suite, limits);
}

START_TEST(test_png_paths_are_relative_to_the_scene)
{
	/* Loaded from another working folder, mesh.json still finds its texture. */
	char cwd[4096];
	ck_assert_ptr_nonnull(getcwd(cwd, sizeof(cwd)));
	char path[4200];
	snprintf(path, sizeof(path), "%s/scenes/mesh.json", cwd);
	ck_assert_int_eq(chdir("/"), 0);
	struct sg_scene_file *file = NULL;
	sg_result result = sg_scene_file_load(path, &file);
	ck_assert_int_eq(chdir(cwd), 0);
	ck_assert_msg(result == SG_OK, "%s", sg_last_error());
	sg_scene_file_destroy(file);
}
END_TEST

/* Every allocation of a load may fail: each failure must be SG_ERR_NO_MEMORY
 * with a message, and leave nothing behind (valgrind checks the last part). */
START_TEST(test_allocation_failures)
{
	const char *path = example_scenes[_i];
	for (long k = 1;; k++) {
		ck_assert_int_lt(k, 100000);
		sg_alloc_fail_at(k);
		struct sg_scene_file *file = NULL;
		sg_result result = sg_scene_file_load(path, &file);
		sg_alloc_fail_at(0);
		if (result == SG_OK) {
			ck_assert_int_gt(k, 1);
			sg_scene_file_destroy(file);
			break;
		}
		ck_assert_msg(result == SG_ERR_NO_MEMORY, "%s, allocation %ld: %s (%s)", path, k,
		              sg_result_name(result), sg_last_error());
		ck_assert_ptr_null(file);
		ck_assert_str_ne(sg_last_error(), "");
	}
}
END_TEST

/* --- Text (docs/scene-format.md, "Text"): fonts and text nodes --- */

#define FONT_FILE "scenes/fonts/DejaVuSans.ttf"
#define FONTS "\"fonts\": {\"sans\": {\"path\": \"sans.ttf\", \"size\": 16}}"
#define TEXT_NODE "{\"type\": \"text\", \"font\": \"sans\""

/* A temporary folder holding sans.ttf, for scenes written there. */
static void make_font_dir(void)
{
	make_temp_dir();
	char command[600];
	snprintf(command, sizeof(command), "cp " FONT_FILE " '%s/sans.ttf'", temp_dir);
	ck_assert_int_eq(system(command), 0);
}

/* Loads content written as name in temp_dir, expecting result and (on a
 * failure) fragment right after the file's path in the message. */
static void expect_load(const char *name, const char *content, sg_result expected,
                        const char *fragment)
{
	const char *path = write_file(name, content);
	char wanted[1024];
	snprintf(wanted, sizeof(wanted), "%s%s", path, fragment ? fragment : "");
	struct sg_scene_file *file = (struct sg_scene_file *)1;
	sg_result result = sg_scene_file_load(path, &file);
	ck_assert_msg(result == expected, "%s instead of %s (%s)", sg_result_name(result),
	              sg_result_name(expected), sg_last_error());
	if (result == SG_OK) {
		sg_scene_file_destroy(file);
		return;
	}
	ck_assert_ptr_null(file);
	ck_assert_msg(strstr(sg_last_error(), wanted), "message '%s' lacks '%s'", sg_last_error(),
	              wanted);
}

/* Renders scene with a pixel camera of size x size. */
/* Renders scene with a pixel camera of size x size over clear (NULL: the
 * renderer's default). */
static unsigned char *render_scene_over(struct sg_scene *scene, int size, const float *clear)
{
	struct sg_renderer *renderer = surfaceless_renderer(size, size);
	if (clear)
		ck_assert_int_eq(
		    sg_renderer_set_clear_color(renderer, clear[0], clear[1], clear[2], clear[3]),
		    SG_OK);
	struct sg_camera camera;
	sg_camera_init_pixels(&camera, size, size);
	ck_assert_msg(sg_renderer_render(renderer, scene, &camera) == SG_OK, "render: %s",
	              sg_last_error());
	unsigned char *pixels = malloc((size_t)size * size * 4);
	ck_assert_int_eq(sg_renderer_read_pixels(renderer, pixels, 0), SG_OK);
	sg_renderer_destroy(renderer);
	return pixels;
}

static unsigned char *render_scene(struct sg_scene *scene, int size)
{
	return render_scene_over(scene, size, NULL);
}

/* The file's first frame is the API's scene, pixel for pixel, over clear
 * (as the file's background); file, scene and the temporary folder go. */
static void assert_file_is_api(struct sg_scene_file *file, struct sg_scene *scene, int size,
                               const float *clear)
{
	unsigned char *from_file = render_file(file, 0);
	unsigned char *from_api = render_scene_over(scene, size, clear);
	ck_assert_uint_eq(count_differing(from_file, from_api, (size_t)size * (size_t)size), 0);
	free(from_api);
	free(from_file);
	sg_scene_destroy(scene);
	sg_scene_file_destroy(file);
	remove_temp_dir();
}

/* The API's text node of the file below, with align as given. */
static struct sg_scene *text_by_api(enum sg_text_align align)
{
	struct sg_scene *scene = sg_scene_create();
	sg_font font = sg_font_load(scene, FONT_FILE, 16);
	ck_assert_msg(font.generation, "%s", sg_last_error());
	sg_node node = sg_node_new_text(
		scene, &(struct sg_text_desc){.name = "Caption",
	                                      .font = font,
	                                      .utf8 = "The quick brown fox jumps over the lazy dog",
	                                      .max_width = 100,
	                                      .align = align,
	                                      .line_height = 22,
	                                      .position = {6, 8, 0}});
	ck_assert_msg(node.generation, "%s", sg_last_error());
	ck_assert_int_eq(sg_model_set_color(scene, node, 1, 0.5f, 0, 0.75f), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), node), SG_OK);
	return scene;
}

/* Every key of a text node reaches sg_node_new_text: the file's render is the
 * API's, pixel for pixel, and one key changed (align) changes it. */
START_TEST(test_text_node_matches_the_api)
{
	make_font_dir();
	const char *path = write_file(
		"text.json",
		"{\"output\": {\"width\": 128, \"height\": 128}, " FONTS ", \"nodes\": ["
		"{\"type\": \"text\", \"name\": \"Caption\", \"font\": \"sans\", "
		"\"string\": \"The quick brown fox jumps over the lazy dog\", \"max_width\": 100, "
		"\"align\": \"center\", \"line_height\": 22, \"position\": [6, 8, 0], "
		"\"color\": [1, 0.5, 0, 0.75]}]}");
	struct sg_scene_file *file = NULL;
	ck_assert_msg(sg_scene_file_load(path, &file) == SG_OK, "%s", sg_last_error());
	struct sg_scene *loaded = sg_scene_file_get_scene(file);
	sg_node node = find(loaded, "Caption");
	ck_assert_int_eq(sg_node_get_kind(loaded, node), SG_NODE_TEXT);
	ck_assert_str_eq(sg_text_get_string(loaded, node),
	                 "The quick brown fox jumps over the lazy dog");
	assert_color(loaded, "Caption", 1, 0.5f, 0, 0.75f);
	struct sg_text_extent extent;
	ck_assert_int_eq(sg_text_get_extent(loaded, node, &extent), SG_OK);
	ck_assert_int_gt(extent.lines, 1); /* broken at max_width */
	ck_assert_float_le(extent.width, 100);
	ck_assert_float_eq(extent.height, 22.0f * (float)extent.lines);
	unsigned char *from_file = render_file(file, 0);

	struct sg_scene *centred = text_by_api(SG_TEXT_ALIGN_CENTER);
	unsigned char *from_api = render_scene(centred, 128);
	ck_assert_uint_eq(count_differing(from_file, from_api, 128 * 128), 0);
	struct sg_scene *left = text_by_api(SG_TEXT_ALIGN_LEFT);
	unsigned char *from_left = render_scene(left, 128);
	ck_assert_uint_gt(count_differing(from_file, from_left, 128 * 128), 0);
	free(from_left);
	free(from_api);
	free(from_file);
	sg_scene_destroy(left);
	sg_scene_destroy(centred);
	sg_scene_file_destroy(file);
	remove_temp_dir();
}
END_TEST

/* Defaults: no string is "", the API's colour (opaque black), left, no wrap. */
START_TEST(test_text_defaults)
{
	make_font_dir();
	const char *path = write_file("defaults.json",
	                              "{" FONTS ", \"nodes\": [{\"type\": \"text\", \"name\": \"T\", "
	                              "\"font\": \"sans\"}, {\"type\": \"text\", \"name\": \"U\", "
	                              "\"font\": \"sans\", \"string\": \"a b c d e f g h\", "
	                              "\"visible\": false, \"opacity\": 0.5}, {\"type\": "
	                              "\"text\", \"name\": \"V\", \"font\": \"sans\", "
	                              "\"string\": \"a\\ud800b\"}]}");
	struct sg_scene_file *file = NULL;
	ck_assert_msg(sg_scene_file_load(path, &file) == SG_OK, "%s", sg_last_error());
	struct sg_scene *scene = sg_scene_file_get_scene(file);
	ck_assert_str_eq(sg_text_get_string(scene, find(scene, "T")), "");
	/* json-c makes an escaped lone surrogate U+FFFD: valid UTF-8, drawn. */
	ck_assert_str_eq(sg_text_get_string(scene, find(scene, "V")), "a\xef\xbf\xbd" "b");
	assert_color(scene, "T", 0, 0, 0, 1);
	struct sg_text_extent extent;
	ck_assert_int_eq(sg_text_get_extent(scene, find(scene, "T"), &extent), SG_OK);
	ck_assert_int_eq(extent.lines, 0);
	ck_assert_int_eq(sg_text_get_extent(scene, find(scene, "U"), &extent), SG_OK);
	ck_assert_int_eq(extent.lines, 1);
	ck_assert_float_eq_tol(opacity_of(scene, "U"), 0.5f, 1e-6f);
	bool visible = true;
	ck_assert_int_eq(sg_node_get_visible(scene, find(scene, "U"), &visible), SG_OK);
	ck_assert(!visible);
	sg_scene_file_destroy(file);
	remove_temp_dir();
}
END_TEST

/* A string changes at its key: a time on that frame is that frame, though
 * 0.29 s at 100 fps is 28.999999999999996 frames in double; and a string's
 * keys take no "easing". */
START_TEST(test_text_keys_at_times)
{
	make_font_dir();
	const char *path = write_file(
	    "clock.json", "{" FONTS ", \"fps\": 100, \"nodes\": [{\"type\": \"text\", \"name\": "
	                  "\"T\", \"font\": \"sans\", \"string\": {\"keyframes\": [{\"frame\": 0, "
	                  "\"value\": \"A\"}, {\"frame\": 29, \"value\": \"B\"}]}}]}");
	struct sg_scene_file *file = NULL;
	ck_assert_msg(sg_scene_file_load(path, &file) == SG_OK, "%s", sg_last_error());
	struct sg_scene *scene = sg_scene_file_get_scene(file);
	ck_assert_int_eq(sg_scene_file_apply_time(file, 0.29), SG_OK);
	ck_assert_str_eq(sg_text_get_string(scene, find(scene, "T")), "B");
	ck_assert_int_eq(sg_scene_file_apply_time(file, 0.2899), SG_OK);
	ck_assert_str_eq(sg_text_get_string(scene, find(scene, "T")), "A");
	sg_scene_file_destroy(file);
	path = write_file("eased-text.json",
	                  "{" FONTS ", \"nodes\": [{\"type\": \"text\", \"font\": \"sans\", "
	                  "\"string\": {\"keyframes\": [{\"frame\": 0, \"value\": \"A\", "
	                  "\"easing\": \"ease\"}]}}]}");
	ck_assert_int_eq(sg_scene_file_load(path, &file), SG_ERR_FORMAT);
	assert_message_has("$.nodes[0].string.keyframes[0].easing: unknown key");
	remove_temp_dir();
}
END_TEST

/* A keyframed string holds from its keyframe to the next; colour keyframes
 * apply to text as to models. */
START_TEST(test_text_string_keyframes)
{
	make_font_dir();
	const char *path = write_file(
		"keys.json",
		"{\"frames\": 12, " FONTS ", \"nodes\": [" TEXT_NODE ", \"name\": \"Clock\", "
		"\"string\": {\"keyframes\": [{\"frame\": 2, \"value\": \"10:41\"}, "
		"{\"frame\": 6, \"value\": \"10:42\"}, {\"frame\": 9, \"value\": \"\\u0627\\u0644\"}]}, "
		"\"color\": {\"keyframes\": [{\"frame\": 0, \"value\": [0, 0, 0]}, "
		"{\"frame\": 10, \"value\": [1, 1, 1]}]}}]}");
	struct sg_scene_file *file = NULL;
	ck_assert_msg(sg_scene_file_load(path, &file) == SG_OK, "%s", sg_last_error());
	struct sg_scene *scene = sg_scene_file_get_scene(file);
	sg_node clock = find(scene, "Clock");
	ck_assert_str_eq(sg_text_get_string(scene, clock), "10:41"); /* held before frame 2 */
	static const struct {
		int frame;
		const char *string;
	} expected[] = {{5, "10:41"}, {6, "10:42"}, {8, "10:42"}, {11, "\xd8\xa7\xd9\x84"},
	                {100, "\xd8\xa7\xd9\x84"}, {0, "10:41"}};
	for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
		ck_assert_int_eq(sg_scene_file_apply_frame(file, expected[i].frame), SG_OK);
		ck_assert_str_eq(sg_text_get_string(scene, clock), expected[i].string);
	}
	ck_assert_int_eq(sg_scene_file_apply_frame(file, 5), SG_OK);
	assert_color(scene, "Clock", 0.5f, 0.5f, 0.5f, 1);
	sg_scene_file_destroy(file);
	remove_temp_dir();
}
END_TEST

/* A font is loaded when a text node first uses it: an unused one opens no
 * file; a used one that is missing or no font fails, naming its entry. */
START_TEST(test_fonts_load_on_first_use)
{
	make_font_dir();
	write_file("notes.ttf", "not a font\n");
	expect_load("unused.json", "{\"fonts\": {\"gone\": {\"path\": \"gone.ttf\", \"size\": 12}}}",
	            SG_OK, NULL);
	expect_load("missing.json",
	            "{\"fonts\": {\"gone\": {\"path\": \"gone.ttf\", \"size\": 12}}, \"nodes\": "
	            "[{\"type\": \"text\", \"font\": \"gone\", \"string\": \"x\"}]}",
	            SG_ERR_IO, ": $.fonts.gone.path: cannot open 'gone.ttf': No such file");
	expect_load("not-font.json",
	            "{\"fonts\": {\"notes\": {\"path\": \"notes.ttf\", \"size\": 12}}, \"nodes\": "
	            "[{\"type\": \"text\", \"font\": \"notes\", \"string\": \"x\"}]}",
	            SG_ERR_FORMAT, ": $.fonts.notes.path: ");
	/* FreeType's message names the file: escaped like every name from a file. */
	write_file("n\033[2J.ttf", "not a font either\n");
	expect_load("escaped.json",
	            "{\"fonts\": {\"e\": {\"path\": \"n\\u001b[2J.ttf\", \"size\": 12}}, "
	            "\"nodes\": [{\"type\": \"text\", \"font\": \"e\"}]}",
	            SG_ERR_FORMAT, ": $.fonts.e.path: ");
	assert_message_has("n\\x1b[2J.ttf");
	ck_assert_ptr_null(strchr(sg_last_error(), '\033'));
	/* One font, two nodes: loaded once (the second node finds it). */
	expect_load("twice.json",
	            "{" FONTS ", \"nodes\": [" TEXT_NODE ", \"string\": \"a\"}, " TEXT_NODE
	            ", \"string\": \"b\"}]}",
	            SG_OK, NULL);
	remove_temp_dir();
}
END_TEST

/* "max_lines" reaches sg_node_new_text: one line with its ellipsis, the
 * API's pixels. */
START_TEST(test_text_max_lines)
{
	make_font_dir();
	const char *path = write_file(
		"lines.json",
		"{\"output\": {\"width\": 128, \"height\": 128}, " FONTS ", \"nodes\": ["
		"{\"type\": \"text\", \"name\": \"Short\", \"font\": \"sans\", \"color\": [1, 1, 1], "
		"\"string\": \"The quick brown fox\", \"max_width\": 90, \"max_lines\": 1, "
		"\"position\": [4, 40, 0]}]}");
	struct sg_scene_file *file = NULL;
	ck_assert_msg(sg_scene_file_load(path, &file) == SG_OK, "%s", sg_last_error());
	struct sg_scene *loaded = sg_scene_file_get_scene(file);
	struct sg_text_extent extent;
	ck_assert_int_eq(sg_text_get_extent(loaded, find(loaded, "Short"), &extent), SG_OK);
	ck_assert_int_eq(extent.lines, 1);
	ck_assert_float_le(extent.width, 90);
	struct sg_scene *scene = sg_scene_create();
	sg_font font = sg_font_load(scene, FONT_FILE, 16);
	sg_node node = sg_node_new_text(scene, &(struct sg_text_desc){.font = font,
	                                                             .utf8 = "The quick brown fox",
	                                                             .color = {1, 1, 1, 1},
	                                                             .max_width = 90,
	                                                             .max_lines = 1,
	                                                             .position = {4, 40, 0}});
	ck_assert_msg(node.generation, "%s", sg_last_error());
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), node), SG_OK);
	assert_file_is_api(file, scene, 128, NULL);
}
END_TEST

/* "fallback" hands other fonts of $.fonts to a font: a character its file
 * lacks is drawn from the fallback, as sg_font_add_fallback() draws it (the
 * API's scene, pixel for pixel), and from nothing without it. */
#define MONO_FILE "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
#define WITH_SHIN "Mono \xd7\xa9 x" /* U+05E9: in DejaVu Sans, not in DejaVu Sans Mono */

static struct sg_scene *fallback_by_api(bool with_fallback)
{
	struct sg_scene *scene = sg_scene_create();
	sg_font mono = sg_font_load(scene, MONO_FILE, 16);
	sg_font sans = sg_font_load(scene, FONT_FILE, 20);
	ck_assert_msg(mono.generation && sans.generation, "%s", sg_last_error());
	if (with_fallback)
		ck_assert_int_eq(sg_font_add_fallback(scene, mono, sans), SG_OK);
	sg_node node = sg_node_new_text(scene, &(struct sg_text_desc){.name = "Line",
	                                                             .font = mono,
	                                                             .utf8 = WITH_SHIN,
	                                                             .color = {1, 1, 1, 1},
	                                                             .position = {4, 30, 0}});
	ck_assert_msg(node.generation, "%s", sg_last_error());
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), node), SG_OK);
	return scene;
}

START_TEST(test_font_fallbacks)
{
	make_font_dir();
	char command[600];
	snprintf(command, sizeof(command), "cp " MONO_FILE " '%s/mono.ttf'", temp_dir);
	ck_assert_int_eq(system(command), 0);
	/* the fallback is described after the font */
	const char *path = write_file(
		"fallback.json",
		"{\"output\": {\"width\": 128, \"height\": 128}, \"fonts\": {"
		"\"mono\": {\"path\": \"mono.ttf\", \"size\": 16, \"fallback\": [\"sans\"]}, "
		"\"sans\": {\"path\": \"sans.ttf\", \"size\": 20}}, \"nodes\": ["
		"{\"type\": \"text\", \"name\": \"Line\", \"font\": \"mono\", \"color\": [1, 1, 1], "
		"\"string\": \"" WITH_SHIN "\", \"position\": [4, 30, 0]}]}");
	struct sg_scene_file *file = NULL;
	ck_assert_msg(sg_scene_file_load(path, &file) == SG_OK, "%s", sg_last_error());
	unsigned char *from_file = render_file(file, 0);
	struct sg_scene *with = fallback_by_api(true), *without = fallback_by_api(false);
	unsigned char *from_api = render_scene(with, 128);
	unsigned char *from_plain = render_scene(without, 128);
	ck_assert_uint_eq(count_differing(from_file, from_api, 128 * 128), 0);
	ck_assert_uint_gt(count_differing(from_file, from_plain, 128 * 128), 0);
	free(from_plain);
	free(from_api);
	free(from_file);
	sg_scene_destroy(without);
	sg_scene_destroy(with);
	sg_scene_file_destroy(file);
	/* a fallback that cannot be loaded is named where it is described */
	expect_load("gone.json",
	            "{\"fonts\": {\"mono\": {\"path\": \"mono.ttf\", \"size\": 16, "
	            "\"fallback\": [\"gone\"]}, \"gone\": {\"path\": \"gone.ttf\", \"size\": 12}}, "
	            "\"nodes\": [{\"type\": \"text\", \"font\": \"mono\", \"string\": \"x\"}]}",
	            SG_ERR_IO, ": $.fonts.gone.path: cannot open 'gone.ttf'");
	remove_temp_dir();
}
END_TEST

/* Font paths follow the texture rules ("Trust"): relative, inside the scene's
 * folder after symlinks, regular files only; --allow-path widens them. */
START_TEST(test_font_paths_stay_in_the_scene_folder)
{
	make_scene_dir();
	char command[1200], path[700];
	snprintf(command, sizeof(command), "cp " FONT_FILE " '%s/outside.ttf'", temp_dir);
	ck_assert_int_eq(system(command), 0);
	const char *text_node = ", \"nodes\": [{\"type\": \"text\", \"font\": \"f\"}]}";
	char content[1400];
	snprintf(content, sizeof(content), "{\"fonts\": {\"f\": {\"path\": \"../outside.ttf\", "
	                                   "\"size\": 12}}}");
	/* refused by its text, even unused */
	expect_load("scene/dots.json", content, SG_ERR_IO,
	            ": $.fonts.f.path: '../outside.ttf' has a '..': a font path stays inside the "
	            "scene's folder");
	snprintf(content, sizeof(content), "{\"fonts\": {\"f\": {\"path\": \"%s/outside.ttf\", "
	                                   "\"size\": 12}}%s",
	         temp_dir, text_node);
	expect_load("scene/absolute.json", content, SG_ERR_IO, ": $.fonts.f.path: '");
	assert_message_has("is an absolute path outside the allowed folders: a font path is "
	                   "relative to the scene's folder");
	snprintf(path, sizeof(path), "%s/link.ttf", scene_dir);
	snprintf(command, sizeof(command), "%s/outside.ttf", temp_dir);
	ck_assert_int_eq(symlink(command, path), 0);
	snprintf(content, sizeof(content), "{\"fonts\": {\"f\": {\"path\": \"link.ttf\", "
	                                   "\"size\": 12}}%s",
	         text_node);
	expect_load("scene/link.json", content, SG_ERR_IO,
	            ": $.fonts.f.path: 'link.ttf' resolves to a file outside the scene's folder");
	struct sg_scene_file *file = NULL;
	const char *allowed[] = {temp_dir};
	struct sg_scene_file_options options = {.allowed_paths = allowed,
	                                        .allowed_path_count = 1};
	ck_assert_msg(sg_scene_file_load_with(write_file("scene/link.json", content), &options,
	                                      &file) == SG_OK,
	              "%s", sg_last_error());
	sg_scene_file_destroy(file);
	snprintf(path, sizeof(path), "%s/fifo.ttf", scene_dir);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	snprintf(content, sizeof(content), "{\"fonts\": {\"f\": {\"path\": \"fifo.ttf\", "
	                                   "\"size\": 12}}%s",
	         text_node);
	expect_load("scene/fifo.json", content, SG_ERR_IO,
	            ": $.fonts.f.path: 'fifo.ttf' is a FIFO, not a regular file");
	remove_temp_dir();
}
END_TEST

/* Each new character's glyph counts as size x size RGBA texels against
 * max_texture_bytes, charged by whole 4 MiB atlas pages. */
#define SIXTY_FOUR "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!?"

START_TEST(test_glyphs_count_against_the_texture_budget)
{
	make_font_dir();
	struct sg_scene_file_options options = {.max_texture_bytes = 4 << 20};
	/* 128 px: 64 glyphs fill one page (64 x 128 x 128 x 4 bytes); a character
	 * used twice counts once. */
	const char *page = "{\"fonts\": {\"big\": {\"path\": \"sans.ttf\", \"size\": 128}}, "
	                   "\"nodes\": [{\"type\": \"text\", \"font\": \"big\", "
	                   "\"string\": \"" SIXTY_FOUR "abc\"}]}";
	ck_assert_msg(load_text(page, &options) == SG_OK, "%s", sg_last_error());
	const char *more = "{\"fonts\": {\"big\": {\"path\": \"sans.ttf\", \"size\": 128}}, "
	                   "\"nodes\": [{\"type\": \"text\", \"font\": \"big\", "
	                   "\"string\": \"" SIXTY_FOUR "\"}, {\"type\": \"text\", "
	                   "\"font\": \"big\", \"string\": {\"keyframes\": [{\"frame\": 0, "
	                   "\"value\": \"zyx\"}, {\"frame\": 1, \"value\": \"#\"}]}}]}";
	ck_assert_int_eq(load_text(more, &options), SG_ERR_LIMIT);
	assert_message_has("limit.json: $.nodes[1].string.keyframes[1].value: 1 new characters of "
	                   "128 px need 1 more atlas pages of 1024x1024, which would bring the used "
	                   "textures to 8388608 bytes, over the limit of 4194304 texture bytes "
	                   "(raise it with max_texture_bytes, sg-render --limit texture-bytes=N)");
	options.max_texture_bytes = 8 << 20;
	ck_assert_msg(load_text(more, &options) == SG_OK, "%s", sg_last_error());
	remove_temp_dir();
}
END_TEST

/* Text nodes that alternate two fonts of near sizes each start an atlas page:
 * the pages really made are charged to max_texture_bytes, not only the
 * estimate (here 3 pages, where each node makes one). */
START_TEST(test_atlas_pages_made_count_against_the_texture_budget)
{
	make_font_dir();
	char content[8192];
	int length = snprintf(content, sizeof(content),
	                      "{\"textures\": {\"panel\": {\"type\": \"solid\", \"width\": 1024, "
	                      "\"height\": 1024}}, \"fonts\": {\"a\": {\"path\": \"sans.ttf\", "
	                      "\"size\": 200}, \"b\": {\"path\": \"sans.ttf\", \"size\": 190}}, "
	                      "\"nodes\": [");
	for (int i = 0; i < 8; i++)
		length += snprintf(content + length, sizeof(content) - (size_t)length,
		                   "%s{\"type\": \"text\", \"font\": \"%s\", \"string\": "
		                   "\"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789\"}",
		                   i ? ", " : "", i % 2 ? "b" : "a");
	snprintf(content + length, sizeof(content) - (size_t)length, "]}");
	/* 16 MiB: the estimate (36 glyphs of 200 px and 36 of 190 px: 3 pages)
	 * passes; the fifth node's page does not */
	struct sg_scene_file_options options = {.max_texture_bytes = 16 << 20};
	ck_assert_int_eq(load_text(content, &options), SG_ERR_LIMIT);
	assert_message_has("limit.json: $.nodes[4]: text '': a new 1024x1024 glyph atlas page "
	                   "would bring the scene's 5 pages to 20971520 bytes, over their budget "
	                   "of 16777216 bytes, what a scene file's texture budget leaves them "
	                   "(raise it with max_texture_bytes, sg-render --limit texture-bytes=N)");
	options.max_texture_bytes = 32 << 20;
	ck_assert_msg(load_text(content, &options) == SG_OK, "%s", sg_last_error());
	/* a texture of 4 MiB, made before the text, leaves the atlas 3 pages */
	char *nodes = strstr(content, "\"nodes\": [") + strlen("\"nodes\": [");
	const char *model = "{\"type\": \"model\", \"mesh\": {\"type\": \"quad\", \"width\": 8, "
	                    "\"height\": 8}, \"texture\": \"panel\"}, ";
	memmove(nodes + strlen(model), nodes, strlen(nodes) + 1);
	memcpy(nodes, model, strlen(model));
	options.max_texture_bytes = 16 << 20;
	ck_assert_int_eq(load_text(content, &options), SG_ERR_LIMIT);
	assert_message_has("limit.json: $.nodes[4]: text '': a new 1024x1024 glyph atlas page "
	                   "would bring the scene's 4 pages to 16777216 bytes, over their budget "
	                   "of 12582912 bytes");
	remove_temp_dir();
}
END_TEST

#define ACUTE_8 "\\u0301\\u0301\\u0301\\u0301\\u0301\\u0301\\u0301\\u0301"
#define ACUTE_65 ACUTE_8 ACUTE_8 ACUTE_8 ACUTE_8 ACUTE_8 ACUTE_8 ACUTE_8 ACUTE_8 "\\u0301"

static const struct bad_case bad_text_cases[] = {
	/* more than SG_TEXT_MAX_MARKS marks on a character, in a keyframe that
	 * the load never shows: refused as the file is read */
	{"{" FONTS ", \"nodes\": [" TEXT_NODE ", \"string\": {\"keyframes\": [{\"frame\": 0, "
	 "\"value\": \"a\"}, {\"frame\": 3, \"value\": \"xy" ACUTE_65 "\"}]}}]}",
	 SG_ERR_LIMIT,
	 ": $.nodes[0].string.keyframes[1].value: 65 combining marks follow the character at "
	 "byte 1, more than 64 on one character",
	 NULL},
	{"{" FONTS ", \"nodes\": [" TEXT_NODE ", \"align\": \"justify\"}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].align: unknown value \"justify\" (expected one of \"left\", \"center\", "
	 "\"right\")",
	 NULL},
	{"{" FONTS ", \"nodes\": [" TEXT_NODE ", \"max_width\": -5}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].max_width: -5 is outside 0 .. 1e+06", NULL},
	{"{" FONTS ", \"nodes\": [" TEXT_NODE ", \"line_height\": \"tall\"}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].line_height: expected a number", NULL},
	{"{" FONTS ", \"nodes\": [{\"type\": \"text\", \"font\": \"serif\"}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].font: unknown font \"serif\" (not in $.fonts)", NULL},
	{"{" FONTS ", \"nodes\": [{\"type\": \"text\", \"string\": \"x\"}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].font: missing", NULL},
	{"{\"nodes\": [{\"type\": \"text\", \"font\": \"sans\"}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].font: unknown font \"sans\" (not in $.fonts)", NULL},
	{"{" FONTS ", \"nodes\": [" TEXT_NODE ", \"string\": \"ab\xff" "cd\"}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].string: invalid UTF-8 at byte 2", NULL},
	{"{" FONTS ", \"nodes\": [" TEXT_NODE ", \"string\": \"\xed\xa0\x80\"}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].string: invalid UTF-8 at byte 0", NULL}, /* a surrogate, raw */
	{"{" FONTS ", \"nodes\": [" TEXT_NODE ", \"string\": \"\xc0\xaf\"}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].string: invalid UTF-8 at byte 0", NULL}, /* overlong '/' */
	{"{" FONTS ", \"nodes\": [" TEXT_NODE ", \"string\": \"a\xe2\x82\"}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].string: invalid UTF-8 at byte 1", NULL}, /* cut short */
	{"{" FONTS ", \"nodes\": [" TEXT_NODE ", \"string\": \"ab\\u0000c\"}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].string: a NUL character (\\u0000) at byte 2", NULL},
	{"{" FONTS ", \"nodes\": [{\"type\": \"text\", \"font\": \"sans\\u0000serif\"}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].font: a NUL character (\\u0000) at byte 4", NULL},
	{"{\"fonts\": {\"sans\": {\"path\": \"sans.ttf\\u0000.otf\", \"size\": 16}}}",
	 SG_ERR_FORMAT, ": $.fonts.sans.path: a NUL character (\\u0000) at byte 8", NULL},
	{"{" FONTS ", \"nodes\": [" TEXT_NODE ", \"align\": \"left\\u0000\"}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].align: a NUL character (\\u0000) at byte 4", NULL},
	{"{" FONTS ", \"nodes\": [" TEXT_NODE ", \"string\": 42}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].string: expected a string", NULL},
	{"{" FONTS ", \"nodes\": [" TEXT_NODE ", \"string\": {\"keyframes\": [{\"frame\": 0, "
	 "\"value\": \"a\"}, {\"frame\": 3, \"value\": [1]}]}}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].string.keyframes[1].value: expected a string", NULL},
	{"{" FONTS ", \"nodes\": [" TEXT_NODE ", \"string\": {\"keyframes\": [{\"frame\": 4, "
	 "\"value\": \"a\"}, {\"frame\": 3, \"value\": \"b\"}]}}]}",
	 SG_ERR_FORMAT,
	 ": $.nodes[0].string.keyframes[1].frame: frame 3 does not come after frame 4", NULL},
	{"{" FONTS ", \"nodes\": [" TEXT_NODE ", \"string\": {\"keyframes\": [{\"frame\": 0}]}}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].string.keyframes[0].value: missing", NULL},
	{"{" FONTS ", \"nodes\": [" TEXT_NODE ", \"string\": {\"keyframes\": []}}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].string.keyframes: expected an array of keyframes", NULL},
	{"{" FONTS ", \"nodes\": [" TEXT_NODE ", \"string\": {\"value\": \"a\"}}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].string.value: unknown key", NULL},
	{"{" FONTS ", \"nodes\": [" TEXT_NODE ", \"color\": [255, 255, 255]}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].color[0]: 255 is outside 0 .. 1 (a node's colour takes numbers 0 .. 1", NULL},
	{"{" FONTS ", \"nodes\": [" TEXT_NODE ", \"colour\": \"#ffffff\"}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].colour: unknown key", NULL},
	{"{" FONTS ", \"nodes\": [" TEXT_NODE ", \"mesh\": \"quad\"}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].mesh: unknown key", NULL},
	{"{" FONTS ", \"nodes\": [" TEXT_NODE ", \"children\": []}]}", SG_ERR_FORMAT,
	 ": $.nodes[0]: a text node cannot have children", NULL},
	{"{" FONTS ", \"nodes\": [" TEXT_NODE ", \"position\": [1, 2]}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].position: expected an array of 3 numbers", NULL},
	{"{" FONTS ", \"nodes\": [" TEXT_NODE ", \"opacity\": 2}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].opacity: 2 is outside 0 .. 1", NULL},
	{"{" FONTS ", \"nodes\": [" TEXT_NODE ", \"max_lines\": -1}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].max_lines: -1 is outside 0 .. 1000000", NULL},
	{"{" FONTS ", \"nodes\": [" TEXT_NODE ", \"max_lines\": 1.5}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].max_lines: expected an integer", NULL},
};

/* $.fonts itself, read whether or not this libsg has text. */
static const struct bad_case bad_font_cases[] = {
	{"{\"fonts\": [\"sans.ttf\"]}", SG_ERR_FORMAT, ": $.fonts: expected an object", NULL},
	{"{\"fonts\": {\"f\": \"sans.ttf\"}}", SG_ERR_FORMAT, ": $.fonts.f: expected an object",
	 NULL},
	{"{\"fonts\": {\"f\": {\"size\": 12}}}", SG_ERR_FORMAT, ": $.fonts.f.path: missing", NULL},
	{"{\"fonts\": {\"f\": {\"path\": \"sans.ttf\"}}}", SG_ERR_FORMAT,
	 ": $.fonts.f.size: missing", NULL},
	{"{\"fonts\": {\"f\": {\"path\": \"sans.ttf\", \"size\": 0}}}", SG_ERR_FORMAT,
	 ": $.fonts.f.size: 0 is outside 1 .. 1024", NULL},
	{"{\"fonts\": {\"f\": {\"path\": \"sans.ttf\", \"size\": 2000}}}", SG_ERR_FORMAT,
	 ": $.fonts.f.size: 2000 is outside 1 .. 1024", NULL},
	{"{\"fonts\": {\"f\": {\"path\": \"sans.ttf\", \"size\": 12.5}}}", SG_ERR_FORMAT,
	 ": $.fonts.f.size: expected an integer", NULL},
	{"{\"fonts\": {\"f\": {\"path\": \"sans.ttf\", \"size\": 12, \"weight\": 700}}}",
	 SG_ERR_FORMAT, ": $.fonts.f.weight: unknown key", NULL},
	{"{\"fonts\": {\"f\": {\"path\": \"\", \"size\": 12}}}", SG_ERR_IO,
	 ": $.fonts.f.path: the path is empty", NULL},
	{"{\"fonts\": {\"f\": {\"path\": \"a/../../x.ttf\", \"size\": 12}}}", SG_ERR_IO,
	 ": $.fonts.f.path: 'a/../../x.ttf' has a '..': a font path stays inside", NULL},
	{"{\"fonts\": {\"f\": {\"path\": \"sans.ttf\", \"size\": 12, \"fallback\": \"g\"}}}",
	 SG_ERR_FORMAT, ": $.fonts.f.fallback: expected an array of font names", NULL},
	{"{\"fonts\": {\"f\": {\"path\": \"sans.ttf\", \"size\": 12, \"fallback\": [\"g\"]}}}",
	 SG_ERR_FORMAT, ": $.fonts.f.fallback[0]: unknown font \"g\" (not in $.fonts)", NULL},
	{"{\"fonts\": {\"f\": {\"path\": \"sans.ttf\", \"size\": 12, \"fallback\": [\"f\"]}}}",
	 SG_ERR_FORMAT, ": $.fonts.f.fallback[0]: a font is not its own fallback", NULL},
	{"{\"fonts\": {\"f\": {\"path\": \"sans.ttf\", \"size\": 12, \"fallback\": [\"g\", "
	 "\"g\"]}, \"g\": {\"path\": \"sans.ttf\", \"size\": 14}}}",
	 SG_ERR_FORMAT, ": $.fonts.f.fallback[1]: \"g\" is a fallback twice", NULL},
	{"{\"fonts\": {\"f\": {\"path\": \"sans.ttf\", \"size\": 12, \"fallback\": [3]}}}",
	 SG_ERR_FORMAT, ": $.fonts.f.fallback[0]: expected a string", NULL},
	{"{\"fonts\": {\"f\": {\"path\": \"sans.ttf\", \"size\": 12, \"system_fallback\": 1}}}",
	 SG_ERR_FORMAT, ": $.fonts.f.system_fallback: expected true or false", NULL},
};

static void run_bad_case(const struct bad_case *c, int i)
{
	make_font_dir();
	expect_load("bad.json", c->content, c->result, c->fragment);
	ck_assert_msg(!c->also || strstr(sg_last_error(), c->also),
	              "case %d: message '%s' lacks '%s'", i, sg_last_error(), c->also);
	remove_temp_dir();
}

START_TEST(test_bad_text_is_refused)
{
	run_bad_case(&bad_text_cases[_i], _i);
}
END_TEST

START_TEST(test_bad_fonts_are_refused)
{
	run_bad_case(&bad_font_cases[_i], _i);
}
END_TEST

START_TEST(test_too_many_fonts)
{
	make_temp_dir();
	static char content[8192];
	for (int count = 64; count <= 65; count++) {
		snprintf(content, sizeof(content), "{\"fonts\": {");
		for (int i = 0; i < count; i++)
			snprintf(content + strlen(content), sizeof(content) - strlen(content),
			         "%s\"f%d\": {\"path\": \"f.ttf\", \"size\": 12}", i ? ", " : "", i);
		strcat(content, "}}");
		expect_load("fonts.json", content, count == 64 ? SG_OK : SG_ERR_FORMAT,
		            ": $.fonts: 65 fonts is more than 64");
	}
	remove_temp_dir();
}
END_TEST

/* Built without FreeType and HarfBuzz: a text node is refused, clearly; fonts
 * alone are still read (and their paths checked) but never loaded. */
START_TEST(test_text_needs_a_build_with_text)
{
	make_font_dir();
	expect_load("fonts-only.json", "{" FONTS "}", SG_OK, NULL);
	expect_load("text.json", "{" FONTS ", \"nodes\": [{\"type\": \"group\", \"children\": ["
	                         TEXT_NODE ", \"string\": \"hello\"}]}]}",
	            SG_ERR_UNSUPPORTED,
	            ": $.nodes[0].children[0]: a text node, but this libsg was built without text "
	            "(FreeType and HarfBuzz, the meson option \"text\")");
	expect_load("example.json", "{\"nodes\": [{\"type\": \"text\"}]}", SG_ERR_UNSUPPORTED,
	            ": $.nodes[0]: a text node");
	remove_temp_dir();
}
END_TEST

/* --- Shapes (docs/scene-format.md, "Shapes") --- */

/* Every key of a shape node reaches sg_texture_create_shape: the file's
 * render is the API's, pixel for pixel. */
START_TEST(test_shape_node_matches_the_api)
{
	make_temp_dir();
	const char *path = write_file(
		"shape.json",
		"{\"output\": {\"width\": 128, \"height\": 128, \"background\": [255, 255, 255]}, "
		"\"nodes\": ["
		"{\"type\": \"shape\", \"name\": \"Shadow\", \"width\": 80, \"height\": 50, "
		"\"radius\": 10, \"fill\": [0, 0, 0, 128], \"blur\": 4, \"position\": [22, 26, 0]}, "
		"{\"type\": \"shape\", \"name\": \"Card\", \"width\": 80, \"height\": 50, "
		"\"radius\": [10, 10, 2, 2], \"border\": {\"width\": 3, \"color\": \"#204080\"}, "
		"\"gradient\": {\"type\": \"linear\", \"start\": [0, 0], \"end\": [0, 50], \"stops\": ["
		"{\"offset\": 0, \"color\": [250, 250, 250]}, {\"offset\": 1, \"color\": [200, 210, 230]}]}, "
		"\"position\": [20, 20, 0], \"opacity\": 0.9},"
		"{\"type\": \"shape\", \"name\": \"Dot\", \"width\": 16, \"height\": 16, \"radius\": 8, "
		"\"fill\": \"#e04040\", \"color\": [1, 1, 0], \"position\": [90, 90, 0]}]}");
	struct sg_scene_file *file = NULL;
	ck_assert_msg(sg_scene_file_load(path, &file) == SG_OK, "%s", sg_last_error());

	struct sg_scene *scene = sg_scene_create();
	struct sg_shape_desc shadow = {.width = 80,
	                               .height = 50,
	                               .radii = {10, 10, 10, 10},
	                               .fill = {0, 0, 0, 128 / 255.0f},
	                               .blur = 4};
	struct sg_shape_desc card = {.width = 80,
	                             .height = 50,
	                             .radii = {10, 10, 2, 2},
	                             .border_width = 3,
	                             .border_color = {0x20 / 255.0f, 0x40 / 255.0f, 0x80 / 255.0f, 1},
	                             .gradient = SG_GRADIENT_LINEAR,
	                             .gradient_end = {0, 50},
	                             .stop_count = 2,
	                             .stops = {{0, {250 / 255.0f, 250 / 255.0f, 250 / 255.0f, 1}},
	                                       {1, {200 / 255.0f, 210 / 255.0f, 230 / 255.0f, 1}}}};
	struct sg_shape_desc dot = {.width = 16,
	                            .height = 16,
	                            .radii = {8, 8, 8, 8},
	                            .fill = {0xe0 / 255.0f, 0x40 / 255.0f, 0x40 / 255.0f, 1}};
	const struct sg_shape_desc *descs[3] = {&shadow, &card, &dot};
	const float at[3][2] = {{22, 26}, {20, 20}, {90, 90}};
	sg_node nodes[3];
	for (int i = 0; i < 3; i++) {
		sg_texture t = sg_texture_create_shape(scene, descs[i]);
		sg_mesh m = sg_mesh_create_shape(scene, descs[i]);
		nodes[i] = sg_node_new_model(scene, &(struct sg_model_desc){
		                                        .mesh = m, .texture = t,
		                                        .position = {at[i][0], at[i][1], 0}});
		ck_assert_msg(nodes[i].generation, "%s", sg_last_error());
		ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), nodes[i]), SG_OK);
	}
	ck_assert_int_eq(sg_node_set_opacity(scene, nodes[1], 0.9f), SG_OK);
	ck_assert_int_eq(sg_model_set_color(scene, nodes[2], 1, 1, 0, 1), SG_OK);
	static const float white[4] = {1, 1, 1, 1}; /* the file's background */
	assert_file_is_api(file, scene, 128, white);
}
END_TEST

#define SHAPE "{\"type\": \"shape\", \"width\": 20, \"height\": 10"
static const struct bad_case bad_shape_cases[] = {
	{"{\"nodes\": [{\"type\": \"shape\", \"height\": 10}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].width: missing", NULL},
	{"{\"nodes\": [" SHAPE ", \"radius\": -1}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].radius: -1 is outside 0 .. 1e+06", NULL},
	{"{\"nodes\": [" SHAPE ", \"radius\": [1, 2, 3]}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].radius: expected an array of 4 numbers", NULL},
	{"{\"nodes\": [" SHAPE ", \"border\": {\"color\": \"#ffffff\"}}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].border.width: missing", NULL},
	{"{\"nodes\": [" SHAPE ", \"gradient\": {\"type\": \"conic\"}}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].gradient.type: ", NULL},
	{"{\"nodes\": [" SHAPE ", \"gradient\": {\"type\": \"linear\", \"start\": [0, 0], "
	 "\"end\": [1, 0], \"stops\": [{\"offset\": 0, \"color\": \"#ffffff\"}]}}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].gradient.stops: expected an array of 2 .. 8 stops", NULL},
	{"{\"nodes\": [" SHAPE ", \"gradient\": {\"type\": \"linear\", \"start\": [0, 0], "
	 "\"end\": [1, 0], \"stops\": [{\"offset\": 0.5, \"color\": \"#ffffff\"}, "
	 "{\"offset\": 0.2, \"color\": \"#000000\"}]}}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].gradient.stops[1]: offset 0.2 is below", NULL},
	{"{\"nodes\": [" SHAPE ", \"gradient\": {\"type\": \"radial\", \"start\": [1, 1], "
	 "\"end\": [1, 1], \"stops\": [{\"offset\": 0, \"color\": \"#ffffff\"}, "
	 "{\"offset\": 1, \"color\": \"#000000\"}]}}]}",
	 SG_ERR_FORMAT, ": $.nodes[0]: sg_texture_create_shape: the gradient's end is its start",
	 NULL},
	{"{\"nodes\": [" SHAPE ", \"blur\": 2, \"border\": {\"width\": 1}}]}",
	 SG_ERR_FORMAT, ": $.nodes[0]: sg_texture_create_shape: a blurred shape", NULL},
	{"{\"nodes\": [" SHAPE ", \"children\": []}]}", SG_ERR_FORMAT,
	 ": $.nodes[0]: a shape cannot have children", NULL},
	{"{\"nodes\": [" SHAPE ", \"mesh\": \"quad\"}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].mesh: unknown key", NULL},
	{"{\"nodes\": [" SHAPE ", \"image\": \"nowhere\"}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].image: ", NULL},
	{"{\"textures\": {\"t\": {\"type\": \"solid\"}}, \"nodes\": [" SHAPE
	 ", \"image\": \"t\", \"blur\": 3}]}",
	 SG_ERR_FORMAT, ": $.nodes[0]: sg_texture_create_shape: a shape filled by an image", NULL},
};

START_TEST(test_bad_shapes_are_refused)
{
	run_bad_case(&bad_shape_cases[_i], _i);
}
END_TEST

/* A shape filled by an image of $.textures: as through the API. */
START_TEST(test_shape_image_matches_the_api)
{
	make_temp_dir();
	const char *path = write_file(
		"photo.json",
		"{\"output\": {\"width\": 64, \"height\": 64, \"background\": [0, 0, 0]}, "
		"\"textures\": {\"sky\": {\"type\": \"solid\", \"color\": [40, 120, 220]}}, "
		"\"nodes\": [{\"type\": \"shape\", \"width\": 40, \"height\": 30, \"radius\": 9, "
		"\"image\": \"sky\", \"position\": [10, 12, 0]}]}");
	struct sg_scene_file *file = NULL;
	ck_assert_msg(sg_scene_file_load(path, &file) == SG_OK, "%s", sg_last_error());
	struct sg_scene *scene = sg_scene_create();
	static const uint8_t sky[4] = {40, 120, 220, 255};
	sg_texture image = sg_texture_create(
	    scene, &(struct sg_texture_desc){.width = 1, .height = 1, .pixels = sky});
	struct sg_shape_desc desc = {.width = 40, .height = 30, .radii = {9, 9, 9, 9},
	                             .fill = {1, 1, 1, 1}, .image = image};
	sg_node model = sg_node_new_model(
	    scene, &(struct sg_model_desc){.mesh = sg_mesh_create_shape(scene, &desc),
	                                   .texture = sg_texture_create_shape(scene, &desc),
	                                   .position = {10, 12, 0}});
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), model), SG_OK);
	static const float black[4] = {0, 0, 0, 1};
	assert_file_is_api(file, scene, 64, black);
}
END_TEST

/* A clip node: the file's render equals the same scene built through the API. */
START_TEST(test_clip_node_matches_the_api)
{
	make_temp_dir();
	const char *path = write_file(
		"clip.json",
		"{\"output\": {\"width\": 128, \"height\": 128, \"background\": [0, 0, 0]}, "
		"\"meshes\": {\"big\": {\"type\": \"quad\", \"width\": 100, \"height\": 100}}, "
		"\"nodes\": [{\"type\": \"transform\", \"transform\": {\"translate\": [10, 20, 0]}, "
		"\"children\": [{\"type\": \"clip\", \"name\": \"window\", \"rect\": [5, 5, 60, 40], "
		"\"radius\": 8, \"opacity\": 0.8, \"children\": ["
		"{\"type\": \"model\", \"mesh\": \"big\", \"color\": [0.9, 0.6, 0.1], "
		"\"position\": [-10, -10, 0]}]}]}]}");
	struct sg_scene_file *file = NULL;
	ck_assert_msg(sg_scene_file_load(path, &file) == SG_OK, "%s", sg_last_error());
	struct sg_scene *scene = sg_scene_create();
	sg_node t = sg_node_new_transform(scene, &(struct sg_transform_desc){0});
	ck_assert_int_eq(sg_transform_translate(scene, t, 10, 20, 0), SG_OK);
	sg_node clip = sg_node_new_clip(scene, &(struct sg_clip_desc){"window", 5, 5, 60, 40, 8});
	ck_assert_int_eq(sg_node_set_opacity(scene, clip, 0.8f), SG_OK);
	sg_node model = sg_node_new_model(
	    scene, &(struct sg_model_desc){.mesh = sg_mesh_create_quad(scene, 100, 100),
	                                   .position = {-10, -10, 0}});
	ck_assert_int_eq(sg_model_set_color(scene, model, 0.9f, 0.6f, 0.1f, 1), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, sg_scene_root(scene), t), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, t, clip), SG_OK);
	ck_assert_int_eq(sg_node_add_child(scene, clip, model), SG_OK);
	sg_node found = sg_node_find(sg_scene_file_get_scene(file), sg_scene_root(sg_scene_file_get_scene(file)),
	                             "window");
	ck_assert_int_eq(sg_node_get_kind(sg_scene_file_get_scene(file), found), SG_NODE_CLIP);
	static const float black[4] = {0, 0, 0, 1};
	assert_file_is_api(file, scene, 128, black);
}
END_TEST

static const struct bad_case bad_clip_cases[] = {
	{"{\"nodes\": [{\"type\": \"clip\"}]}", SG_ERR_FORMAT, ": $.nodes[0].rect: missing", NULL},
	{"{\"nodes\": [{\"type\": \"clip\", \"rect\": [0, 0, -1, 4]}]}", SG_ERR_FORMAT,
	 ": $.nodes[0].rect: width and height must be >= 0", NULL},
	{"{\"nodes\": [{\"type\": \"clip\", \"rect\": [0, 0, 1, 4], \"radius\": -2}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].radius: -2 is outside 0 .. 1e+06", NULL},
	{"{\"nodes\": [{\"type\": \"clip\", \"rect\": [0, 0, 1, 4], \"color\": [1, 1, 1]}]}",
	 SG_ERR_FORMAT, ": $.nodes[0].color: ", NULL},
};

START_TEST(test_bad_clips_are_refused)
{
	run_bad_case(&bad_clip_cases[_i], _i);
}
END_TEST

static void add_text_tests(Suite *suite)
{
	TCase *shapes = tcase_create("shapes");
	tcase_set_timeout(shapes, 60);
	tcase_add_test(shapes, test_shape_node_matches_the_api);
	tcase_add_test(shapes, test_clip_node_matches_the_api);
	tcase_add_test(shapes, test_shape_image_matches_the_api);
	tcase_add_loop_test(shapes, test_bad_clips_are_refused, 0,
	                    sizeof(bad_clip_cases) / sizeof(bad_clip_cases[0]));
	tcase_add_loop_test(shapes, test_bad_shapes_are_refused, 0,
	                    (int)(sizeof(bad_shape_cases) / sizeof(bad_shape_cases[0])));
	suite_add_tcase(suite, shapes);
	TCase *text = tcase_create("text");
	tcase_set_timeout(text, 60);
	tcase_add_loop_test(text, test_bad_fonts_are_refused, 0,
	                    (int)(sizeof(bad_font_cases) / sizeof(bad_font_cases[0])));
	tcase_add_test(text, test_too_many_fonts);
	if (!sg_text_available()) {
		tcase_add_test(text, test_text_needs_a_build_with_text);
		suite_add_tcase(suite, text);
		return;
	}
	tcase_add_test(text, test_text_node_matches_the_api);
	tcase_add_test(text, test_text_defaults);
	tcase_add_test(text, test_text_keys_at_times);
	tcase_add_test(text, test_text_string_keyframes);
	tcase_add_test(text, test_fonts_load_on_first_use);
	tcase_add_test(text, test_font_fallbacks);
	tcase_add_test(text, test_text_max_lines);
	tcase_add_test(text, test_font_paths_stay_in_the_scene_folder);
	tcase_add_test(text, test_glyphs_count_against_the_texture_budget);
	tcase_add_test(text, test_atlas_pages_made_count_against_the_texture_budget);
	tcase_add_loop_test(text, test_bad_text_is_refused, 0,
	                    (int)(sizeof(bad_text_cases) / sizeof(bad_text_cases[0])));
	suite_add_tcase(suite, text);
}

/* --- 3D (docs/scene-format.md, "3D"): materials, meshes, views, lights --- */

/* sRGB's transfer functions (IEC 61966-2-1), as docs/3d.md states them. */
static double srgb_decode(double encoded)
{
	return encoded <= 0.04045 ? encoded / 12.92 : pow((encoded + 0.055) / 1.055, 2.4);
}

static double srgb_encode(double linear)
{
	return linear <= 0.0031308 ? linear * 12.92 : 1.055 * pow(linear, 1 / 2.4) - 0.055;
}

static const char scene_3d[] =
    "{\"textures\": {\"white\": {\"type\": \"solid\"},\n"
    "              \"unused\": {\"type\": \"png\", \"path\": \"missing.png\"}},\n"
    " \"materials\": {\n"
    "   \"m\": {\"base_color\": \"#808080\", \"metallic\": 0.25, \"roughness\": 0.5,\n"
    "         \"emissive\": [0.1, 0.2, 0.3], \"alpha_mode\": \"mask\", \"alpha_cutoff\": 0.4,\n"
    "         \"double_sided\": true, \"base_color_texture\": \"white\",\n"
    "         \"normal_texture\": {\"texture\": \"white\", \"uv_set\": 1}, \"normal_scale\": 0.5,\n"
    "         \"occlusion_strength\": 0.7},\n"
    "   \"unused\": {\"base_color_texture\": \"unused\"}},\n"
    " \"meshes\": {\"box\": {\"type\": \"box\", \"size\": [2, 4, 6]},\n"
    "            \"ball\": {\"type\": \"sphere\", \"radius\": 2, \"segments\": 8},\n"
    "            \"tri\": {\"type\": \"solid\", \"positions\": [[0, 0, 0], [1, 0, 0], [0, 1, 0]],\n"
    "                    \"normals\": \"smooth\", \"uvs\": [[0, 0], [1, 0], [0, 1]],\n"
    "                    \"colors\": [[1, 0, 0], [0, 1, 0], [0, 0, 1, 0.5]]}},\n"
    " \"nodes\": [\n"
    "   {\"type\": \"view3d\", \"name\": \"V\", \"viewport\": [10, 20, 200, 100],\n"
    "    \"ambient\": [0.1, 0.2, 0.3], \"camera\": {\"type\": \"perspective\", \"fovy\": 60},\n"
    "    \"children\": [\n"
    "      {\"type\": \"transform\", \"children\": [{\"type\": \"light\", \"name\": \"S\",\n"
    "       \"light\": \"spot\", \"color\": [1, 0.5, 0.25], \"intensity\": 20, \"range\": 5,\n"
    "       \"inner_cone\": 10, \"outer_cone\": 30}]},\n"
    "      {\"type\": \"model\", \"name\": \"B\", \"mesh\": \"box\", \"material\": \"m\"},\n"
    "      {\"type\": \"model\", \"name\": \"T\", \"mesh\": \"tri\", \"material\": \"m\"},\n"
    "      {\"type\": \"model\", \"name\": \"Ball\", \"mesh\": \"ball\"}]},\n"
    "   {\"type\": \"view3d\", \"name\": \"W\"}]}\n";

static void assert_floats_near(const float *actual, const float *expected, int count)
{
	for (int i = 0; i < count; i++)
		ck_assert_msg(fabsf(actual[i] - expected[i]) < 1e-5f, "[%d]: %g, expected %g", i,
		              (double)actual[i], (double)expected[i]);
}

START_TEST(test_3d_content_is_read)
{
	make_temp_dir();
	struct sg_scene_file *file = NULL;
	ck_assert_msg(sg_scene_file_load(write_file("3d.json", scene_3d), &file) == SG_OK, "%s",
	              sg_last_error());
	struct sg_scene *scene = sg_scene_file_get_scene(file);

	/* the material, "#808080" decoded from sRGB; the unused one (a missing
	 * PNG) is never made */
	sg_node box = find(scene, "B");
	sg_material handle = sg_model_get_material(scene, box);
	ck_assert(sg_material_exists(scene, handle));
	bool stale = true;
	const struct sg_material_desc *m = &sg_scene_model_material(scene, box.index, &stale)->desc;
	float grey = (float)srgb_decode(128.0 / 255.0);
	assert_floats_near(m->base_color, (float[]){grey, grey, grey, 1}, 4);
	assert_floats_near(&m->metallic, (float[]){0.25f}, 1);
	assert_floats_near(&m->roughness, (float[]){0.5f}, 1);
	assert_floats_near(m->emissive, (float[]){0.1f, 0.2f, 0.3f}, 3);
	assert_floats_near(&m->normal_scale, (float[]){0.5f}, 1);
	assert_floats_near(&m->occlusion_strength, (float[]){0.7f}, 1);
	assert_floats_near(&m->alpha_cutoff, (float[]){0.4f}, 1);
	ck_assert_int_eq(m->alpha_mode, SG_ALPHA_MASK);
	ck_assert(m->double_sided && !m->unlit);
	ck_assert(sg_texture_exists(scene, m->base_color_texture.texture));
	ck_assert_uint_eq(m->base_color_texture.uv_set, 0);
	ck_assert_uint_eq(m->normal_texture.uv_set, 1);
	ck_assert_uint_eq(m->normal_texture.texture.index, m->base_color_texture.texture.index);
	ck_assert_uint_eq(m->occlusion_texture.texture.generation, 0);
	/* one material, shared; a model without one has none */
	ck_assert_uint_eq(sg_model_get_material(scene, find(scene, "T")).index, handle.index);
	ck_assert_uint_eq(sg_model_get_material(scene, find(scene, "Ball")).generation, 0);

	/* generated meshes centred on the origin */
	float bounds[6];
	ck_assert_int_eq(sg_mesh_get_bounds(scene, sg_model_mesh(scene, sg_scene_model(scene, box.index)), bounds),
	                 SG_OK);
	assert_floats_near(bounds, (float[]){-1, -2, -3, 1, 2, 3}, 6);
	sg_node ball = find(scene, "Ball");
	ck_assert_int_eq(sg_mesh_get_bounds(scene, sg_model_mesh(scene, sg_scene_model(scene, ball.index)), bounds),
	                 SG_OK);
	assert_floats_near(bounds, (float[]){-2, -2, -2, 2, 2, 2}, 6);

	/* the spot light, its cones turned into radians */
	sg_node spot = find(scene, "S");
	ck_assert_int_eq(sg_node_get_kind(scene, spot), SG_NODE_LIGHT);
	const struct sg_light_desc *light = &sg_scene_light(scene, spot.index)->desc;
	ck_assert_int_eq(light->type, SG_LIGHT_SPOT);
	assert_floats_near(light->color, (float[]){1, 0.5f, 0.25f}, 3);
	assert_floats_near(&light->intensity, (float[]){20}, 1);
	assert_floats_near(&light->range, (float[]){5}, 1);
	assert_floats_near(&light->inner_cone, (float[]){(float)(M_PI / 18)}, 1);
	assert_floats_near(&light->outer_cone, (float[]){(float)(M_PI / 6)}, 1);

	/* the view's camera takes its viewport's aspect; "W" draws with the render's */
	sg_node v = find(scene, "V");
	ck_assert_int_eq(sg_node_get_kind(scene, v), SG_NODE_VIEW3D);
	const struct sg_view3d_data *view = sg_scene_view3d(scene, v.index);
	ck_assert(view->has_camera);
	assert_floats_near(view->viewport, (float[]){10, 20, 200, 100}, 4);
	assert_floats_near(view->ambient, (float[]){0.1f, 0.2f, 0.3f}, 3);
	float focal = (float)(1 / tan(M_PI / 6));
	assert_floats_near(&view->camera.projection[5], &focal, 1);
	assert_floats_near(&view->camera.projection[0], (float[]){focal / 2}, 1);
	ck_assert(!sg_scene_view3d(scene, find(scene, "W").index)->has_camera);
	sg_scene_file_destroy(file);
	remove_temp_dir();
}
END_TEST

/* A view of an unlit box, a lit one and a 2D caption over them, 64 x 64: an
 * orthographic camera looking down -Z over x and y in -2 .. 2, a
 * directional light shining along -Z. */
static const char scene_3d_render[] =
    "{\"output\": {\"width\": 64, \"height\": 64, \"background\": [0, 0, 0, 255]},\n"
    " \"materials\": {\n"
    "   \"flat\": {\"base_color\": [0.2, 0.5, 0.8, 1], \"unlit\": true},\n"
    "   \"picked\": {\"base_color\": \"#3366cc\", \"unlit\": true},\n"
    "   \"matte\": {\"base_color\": [0.5, 0.25, 0.75, 1], \"metallic\": 0, \"roughness\": 1}},\n"
    " \"meshes\": {\"cube\": {\"type\": \"box\", \"size\": [1, 1, 1]}},\n"
    " \"nodes\": [\n"
    "   {\"type\": \"view3d\", \"camera\": {\"type\": \"ortho\", \"left\": -2, \"right\": 2,\n"
    "    \"bottom\": -2, \"top\": 2, \"near\": -10, \"far\": 10},\n"
    "    \"children\": [\n"
    "      {\"type\": \"light\", \"light\": \"directional\", \"intensity\": 3.14159265358979},\n"
    "      {\"type\": \"model\", \"mesh\": \"cube\", \"material\": \"flat\", \"position\": [-1, 0, 0]},\n"
    "      {\"type\": \"model\", \"mesh\": \"cube\", \"material\": \"picked\", \"position\": [0, -1.25, 0]},\n"
    "      {\"type\": \"model\", \"mesh\": \"cube\", \"material\": \"matte\", \"position\": [1, 0, 0]}]},\n"
    "   {\"type\": \"model\", \"mesh\": {\"type\": \"quad\", \"width\": 64, \"height\": 8},\n"
    "    \"color\": \"#ff8000\"}]}\n";

static void assert_rgb(const unsigned char *pixels, int x, int y, const double expected[3],
                       double tolerance)
{
	const unsigned char *p = pixels + ((size_t)y * 64 + (size_t)x) * 4;
	for (int i = 0; i < 3; i++)
		ck_assert_msg(fabs(p[i] - expected[i]) <= tolerance,
		              "pixel (%d, %d) is %d, %d, %d, expected %.2f, %.2f, %.2f", x, y, p[0],
		              p[1], p[2], expected[0], expected[1], expected[2]);
	ck_assert_int_eq(p[3], 255);
}

START_TEST(test_3d_view_renders_the_materials)
{
	make_temp_dir();
	struct sg_scene_file *file = NULL;
	ck_assert_msg(sg_scene_file_load(write_file("r3d.json", scene_3d_render), &file) == SG_OK,
	              "%s", sg_last_error());
	unsigned char *pixels = render_file(file, 0);
	/* unlit: the sRGB encoding of the linear base colour (box 1 covers
	 * pixels 8 .. 23 across, 24 .. 39 down) */
	double flat[3];
	const double linear[3] = {0.2, 0.5, 0.8};
	for (int i = 0; i < 3; i++)
		flat[i] = srgb_encode(linear[i]) * 255;
	assert_rgb(pixels, 16, 32, flat, 0.51);
	/* "#3366cc" is decoded as it is read and encoded as it is drawn */
	assert_rgb(pixels, 32, 52, (const double[]){0x33, 0x66, 0xcc}, 0);
	/* lit, with N = L = V (all +Z): docs/3d.md's BRDF gives F = F0 = 0.04,
	 * D = 1 / (pi alpha^2), Vis = 1 / 4, so with roughness 1 and an intensity
	 * of pi the colour is 0.96 base + 0.01 */
	double matte[3];
	const double base[3] = {0.5, 0.25, 0.75};
	for (int i = 0; i < 3; i++)
		matte[i] = srgb_encode(0.96 * base[i] + 0.01) * 255;
	assert_rgb(pixels, 48, 32, matte, 1.01);
	/* the caption over the view keeps its colour; the background shows
	 * between the boxes */
	assert_rgb(pixels, 32, 4, (const double[]){255, 128, 0}, 0);
	assert_rgb(pixels, 32, 32, (const double[]){0, 0, 0}, 0);
	free(pixels);
	sg_scene_file_destroy(file);
	remove_temp_dir();
}
END_TEST

/* Two views, the first with lights_in_first lights, the second with one. */
static const char *views_with_lights(int lights_in_first)
{
	static char content[2048];
	strcpy(content, "{\"nodes\": [{\"type\": \"view3d\", \"children\": [");
	for (int i = 0; i < lights_in_first; i++)
		strcat(content, i ? ", {\"type\": \"light\", \"light\": \"point\"}"
		                  : "{\"type\": \"light\", \"light\": \"point\"}");
	strcat(content, "]}, {\"type\": \"view3d\", \"children\": [{\"type\": \"light\", "
	                "\"light\": \"point\"}]}]}");
	return content;
}

/* A view with one light too many, and generated meshes over the file's budget. */
START_TEST(test_3d_limits)
{
	make_temp_dir();
	expect_load("lights.json", views_with_lights(SG_VIEW3D_MAX_LIGHTS + 1), SG_ERR_FORMAT,
	            ": $.nodes[0].children[8]: a 3D view has at most 8 lights, and this is one more");
	/* the lights of each view are counted apart */
	expect_load("lights.json", views_with_lights(SG_VIEW3D_MAX_LIGHTS), SG_OK, NULL);

	char content[4096];
	/* 60 bytes of JSON make 33153 vertices and 195072 indices: the file's
	 * total is held, and a sixth such sphere is refused */
	strcpy(content, "{\"meshes\": {");
	for (int i = 0; i < 6; i++)
		snprintf(content + strlen(content), sizeof(content) - strlen(content),
		         "%s\"s%d\": {\"type\": \"sphere\", \"radius\": 1, \"segments\": 256}",
		         i ? ", " : "", i);
	strcat(content, "}}");
	expect_load("spheres.json", content, SG_ERR_LIMIT,
	            ": $.meshes.s5: 33153 vertices and 195072 indices would bring the generated "
	            "meshes to 198918 vertices and 1170432 indices, over the limit of 1000000 each");
	remove_temp_dir();
}
END_TEST

/* --- "model_file" nodes: a model imported under a transform --- */

/* Copies the glTF sample name into temp_dir/models/. */
static void copy_model(const char *name)
{
	char command[1024];
	snprintf(command, sizeof(command), "mkdir -p '%s/models' && cp '%s/%s' '%s/models/'",
	         temp_dir, SG_MODELS_DIR, name, temp_dir);
	ck_assert_int_eq(system(command), 0);
}

START_TEST(test_model_file_nodes)
{
	make_temp_dir();
	if (!sg_model_import_available()) {
		expect_load("m.json", "{\"nodes\": [{\"type\": \"model_file\", \"path\": \"m.gltf\"}]}",
		            SG_ERR_IO, ": $.nodes[0].path: cannot open 'm.gltf'");
		write_file("m.gltf", "{}");
		expect_load("m.json", "{\"nodes\": [{\"type\": \"model_file\", \"path\": \"m.gltf\"}]}",
		            SG_ERR_UNSUPPORTED, ": $.nodes[0].path: ");
		remove_temp_dir();
		return;
	}
	copy_model("BoxTextured.gltf");
	/* the model under a transform of its own, its texture charged */
	const char *scene = write_file(
	    "m.json", "{\"nodes\": [{\"type\": \"view3d\", \"children\": [{\"type\": \"model_file\", "
	              "\"name\": \"Crate\", \"path\": \"models/BoxTextured.gltf\", "
	              "\"transform\": {\"translate\": [1, 2, 3]}}]}]}");
	struct sg_scene_file *file = NULL;
	ck_assert_msg(sg_scene_file_load(scene, &file) == SG_OK, "%s", sg_last_error());
	struct sg_scene *loaded = sg_scene_file_get_scene(file);
	sg_node crate = find(loaded, "Crate");
	ck_assert_int_eq(sg_node_get_kind(loaded, crate), SG_NODE_TRANSFORM);
	float matrix[16];
	ck_assert_int_eq(sg_transform_get_matrix(loaded, crate, matrix), SG_OK);
	assert_floats_near(matrix + 12, (float[]){1, 2, 3, 1}, 4);
	ck_assert_uint_eq(sg_node_child_count(loaded, crate), 1); /* the import's root */
	sg_scene_file_destroy(file);
	/* over the texture budget: the 256 x 256 image is refused */
	struct sg_scene_file_options options = {.max_texture_bytes = 100000};
	ck_assert_int_eq(sg_scene_file_load_with(scene, &options, &file), SG_ERR_LIMIT);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), ": $.nodes[0].children[0].path: "));

	/* the path follows the texture rules; the model's failures are named */
	expect_load("bad.json", "{\"nodes\": [{\"type\": \"model_file\", \"path\": \"../m.gltf\"}]}",
	            SG_ERR_IO, ": $.nodes[0].path: '../m.gltf' has a '..': a model path stays "
	                       "inside the scene's folder");
	expect_load("bad.json", "{\"nodes\": [{\"type\": \"model_file\", \"path\": \"none.glb\"}]}",
	            SG_ERR_IO, ": $.nodes[0].path: cannot open 'none.glb'");
	write_file("corrupt.glb", "glTF\002\000\000\000 not a binary glTF");
	expect_load("bad.json", "{\"nodes\": [{\"type\": \"model_file\", \"path\": \"corrupt.glb\"}]}",
	            SG_ERR_FORMAT, ": $.nodes[0].path: ");
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "corrupt.glb"));
	expect_load("bad.json",
	            "{\"nodes\": [{\"type\": \"model_file\", \"path\": \"models/BoxTextured.gltf\", "
	            "\"allow_outside\": true}]}",
	            SG_ERR_IO, ": $.nodes[0].allow_outside: a model's files may lie outside its "
	                       "folder only where the caller allows folders");
	expect_load("bad.json", "{\"nodes\": [{\"type\": \"model_file\", \"path\": \"x.glb\", "
	                        "\"scale\": 2}]}",
	            SG_ERR_FORMAT, ": $.nodes[0].scale: unknown key");
	expect_load("bad.json", "{\"nodes\": [{\"type\": \"model_file\"}]}", SG_ERR_FORMAT,
	            ": $.nodes[0].path: missing");
	remove_temp_dir();
}
END_TEST

static void add_3d_tests(Suite *suite)
{
	TCase *tc = tcase_create("3d");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_3d_content_is_read);
	tcase_add_test(tc, test_3d_view_renders_the_materials);
	tcase_add_test(tc, test_3d_limits);
	tcase_add_test(tc, test_model_file_nodes);
	suite_add_tcase(suite, tc);
}

static Suite *scenefile_suite(void)
{
	Suite *suite = suite_create("scenefile");
	TCase *render = tcase_create("render");
	tcase_set_timeout(render, 60);
	int examples = (int)(sizeof(example_scenes) / sizeof(example_scenes[0])) -
	               (sg_text_available() ? 0 : 1);
	tcase_add_loop_test(render, test_example_loads_and_renders, 0, examples);
	tcase_add_test(render, test_three_rects_matches_the_demo);
	tcase_add_test(render, test_visible_false_hides_the_subtree);
	tcase_add_test(render, test_progress_bar_fills);
	tcase_add_test(render, test_overlay_blends_over_the_picture);
	suite_add_tcase(suite, render);

	TCase *load = tcase_create("load");
	tcase_add_test(load, test_animation_interpolates_keyframes);
	tcase_add_test(load, test_animation_edits_each_transform_once);
	tcase_add_test(load, test_opacity_and_color_are_read);
	tcase_add_test(load, test_appearance_keyframes_interpolate);
	tcase_add_test(load, test_keys_in_seconds_and_easing);
	tcase_add_test(load, test_appearance_edits_each_property_once);
	tcase_add_test(load, test_camera_keeps_the_scene_units);
	tcase_add_test(load, test_png_paths_are_relative_to_the_scene);
	suite_add_tcase(suite, load);

	TCase *errors = tcase_create("errors");
	tcase_add_test(errors, test_missing_file_is_io);
	tcase_add_loop_test(errors, test_bad_input_is_refused, 0,
	                    (int)(sizeof(bad_cases) / sizeof(bad_cases[0])));
	tcase_add_test(errors, test_nesting_too_deep);
	add_safety_tests(suite);
	suite_add_tcase(suite, errors);
	add_text_tests(suite);
	add_3d_tests(suite);

	TCase *memory = tcase_create("memory");
	tcase_set_timeout(memory, 120);
	tcase_add_loop_test(memory, test_allocation_failures, 0, examples);
	suite_add_tcase(suite, memory);
	return suite;
}

int main(void)
{
	return check_run(scenefile_suite());
}
