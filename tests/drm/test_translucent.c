/* A translucent scene (textures with alpha, tints, nested opacities, a
 * colour-only model, a transparent and a translucent clear colour) rendered on
 * the GBM target and on the surfaceless one: every pixel equal, premultiplied
 * alpha and all, and both within +-1 of the CPU reference compositor
 * (tests/reference.c), so that two equally wrong or blank renders fail too. */
#include <stdio.h>
#include <string.h>

#include "drm_test.h"
#include "reference.h"

#define OUT_W 128
#define OUT_H 96
#define OUT_BYTES ((size_t)OUT_W * OUT_H * 4)

/* Texels with alpha 0 to 255 (a gradient, or random with both ends) and opaque ones. */
static uint8_t gradient[12][16][4], speckled[8][8][4], opaque[6][8][4];
static const struct ref_texture gradient_ref = {16, 12, &gradient[0][0][0]};
static const struct ref_texture speckled_ref = {8, 8, &speckled[0][0][0]};
static const struct ref_texture opaque_ref = {8, 6, &opaque[0][0][0]};

static void make_texels(void)
{
	uint32_t state = 77;
	uint8_t *all[] = {&gradient[0][0][0], &speckled[0][0][0], &opaque[0][0][0]};
	const int counts[] = {16 * 12, 8 * 8, 8 * 6};
	for (int t = 0; t < 3; t++)
		for (int i = 0; i < counts[t]; i++) {
			uint8_t *px = all[t] + i * 4;
			for (int c = 0; c < 4; c++) {
				state = state * 1103515245u + 12345u;
				px[c] = (uint8_t)(state >> 16);
			}
			if (t == 0)
				px[3] = (uint8_t)(i * 255 / (counts[t] - 1));
			else if (t == 1 && i < 2)
				px[3] = i ? 255 : 0;
			else if (t == 2)
				px[3] = 255;
		}
}

/* What the scene draws, in painter's order, with the opacity products. */
static const struct ref_quad quads[] = {
	{0, 0, 64, 48, &opaque_ref, {1, 1, 1, 1}, 1},
	{16, 16, 64, 48, &gradient_ref, {1, 0.8f, 0.6f, 0.9f}, 0.5f},   /* in g (0.5) */
	{48, 40, 64, 40, NULL, {0.2f, 0.4f, 1, 0.7f}, 0.5f},            /* in g (0.5) */
	{64, 8, 48, 48, &speckled_ref, {0.9f, 1, 1, 1}, 0.75f},         /* in t (0.75) */
	{8, 60, 40, 30, NULL, {1, 0, 0, 1}, 0.3f},                      /* its own 0.3 */
	{100, 70, 48, 48, &gradient_ref, {1, 1, 1, 1}, 0.375f},         /* t, own 0.5: clipped */
};

static sg_texture texture_of(struct sg_scene *scene, const struct ref_texture *t)
{
	sg_texture texture = sg_texture_create(scene, &(struct sg_texture_desc){
		.width = t->width, .height = t->height, .pixels = t->rgba});
	ck_assert_msg(texture.generation, "sg_texture_create: %s", sg_last_error());
	return texture;
}

static sg_node add_model(struct sg_scene *scene, sg_node parent, const struct ref_quad *q,
                         sg_texture texture, float x, float y)
{
	sg_mesh mesh = sg_mesh_create_quad(scene, (float)q->width, (float)q->height);
	sg_node m = sg_node_new_model(scene, &(struct sg_model_desc){
		.mesh = mesh, .texture = texture, .position = {x, y, 0}});
	ck_assert_msg(m.generation, "sg_node_new_model: %s", sg_last_error());
	ck_assert_int_eq(sg_node_add_child(scene, parent, m), SG_OK);
	ck_assert_int_eq(sg_model_set_color(scene, m, q->color[0], q->color[1], q->color[2],
	                                    q->color[3]),
	                 SG_OK);
	return m;
}

static struct sg_scene *translucent_scene(void)
{
	struct sg_scene *scene = sg_scene_create();
	ck_assert_ptr_nonnull(scene);
	sg_texture g = texture_of(scene, &gradient_ref), s = texture_of(scene, &speckled_ref);
	sg_texture o = texture_of(scene, &opaque_ref);
	sg_node root = sg_scene_root(scene);
	add_model(scene, root, &quads[0], o, 0, 0);
	sg_node group = sg_node_new_group(scene, "g");
	ck_assert_int_eq(sg_node_add_child(scene, root, group), SG_OK);
	ck_assert_int_eq(sg_node_set_opacity(scene, group, 0.5f), SG_OK);
	add_model(scene, group, &quads[1], g, 16, 16);
	add_model(scene, group, &quads[2], SG_TEXTURE_NONE, 48, 40);
	sg_node t = sg_node_new_transform(scene, &(struct sg_transform_desc){.name = "t"});
	ck_assert_int_eq(sg_node_add_child(scene, root, t), SG_OK);
	ck_assert_int_eq(sg_transform_translate(scene, t, 64, 8, 0), SG_OK);
	ck_assert_int_eq(sg_node_set_opacity(scene, t, 0.75f), SG_OK);
	add_model(scene, t, &quads[3], s, 0, 0);
	sg_node red = add_model(scene, root, &quads[4], SG_TEXTURE_NONE, 8, 60);
	ck_assert_int_eq(sg_node_set_opacity(scene, red, 0.3f), SG_OK);
	sg_node last = add_model(scene, t, &quads[5], g, 36, 62);
	ck_assert_int_eq(sg_node_set_opacity(scene, last, 0.5f), SG_OK);
	return scene;
}

static struct sg_renderer *renderer_on(enum sg_target_kind target)
{
	struct sg_renderer *r = sg_renderer_create(&(struct sg_renderer_desc){
		.width = OUT_W, .height = OUT_H, .target = target});
	ck_assert_msg(r, "sg_renderer_create: %s", sg_last_error());
	ck_assert_int_eq(sg_renderer_get_info(r)->target, target);
	return r;
}

static void render(struct sg_renderer *r, struct sg_scene *scene, const float clear[4],
                   uint8_t *rgba)
{
	ck_assert_int_eq(sg_renderer_set_clear_color(r, clear[0], clear[1], clear[2], clear[3]),
	                 SG_OK);
	ck_assert_msg(sg_renderer_render(r, scene, NULL) == SG_OK, "sg_renderer_render: %s",
	              sg_last_error());
	ck_assert_int_eq(sg_renderer_read_pixels(r, rgba, 0), SG_OK);
}

static void check_against_reference(const uint8_t *rgba, const float clear[4], const char *what)
{
	static uint8_t want[OUT_BYTES];
	struct ref_image image = {OUT_W, OUT_H, want};
	ref_compose(&image, clear, quads, sizeof(quads) / sizeof(quads[0]));
	struct ref_difference d;
	ck_assert_msg(ref_compare(rgba, want, OUT_W, OUT_H, 1, &d),
	              "%s: %d pixels differ from the CPU reference by more than 1; the first, "
	              "(%d, %d), is %u,%u,%u,%u, the reference %u,%u,%u,%u",
	              what, d.count, d.x, d.y, d.got[0], d.got[1], d.got[2], d.got[3], d.want[0],
	              d.want[1], d.want[2], d.want[3]);
}

START_TEST(test_translucent_gbm_matches_surfaceless)
{
	make_texels();
	struct sg_scene *scene = translucent_scene();
	struct sg_renderer *gbm = renderer_on(SG_TARGET_GBM);
	struct sg_renderer *surfaceless = renderer_on(SG_TARGET_SURFACELESS);
	static const float clears[][4] = {{0, 0, 0, 0}, {0.1f, 0.2f, 0.3f, 0.4f}};
	static uint8_t on_gbm[OUT_BYTES], on_surfaceless[OUT_BYTES];
	for (int i = 0; i < 2; i++) {
		render(gbm, scene, clears[i], on_gbm);
		render(surfaceless, scene, clears[i], on_surfaceless);
		int translucent = 0;
		for (size_t p = 0; p < OUT_BYTES; p += 4)
			translucent += on_gbm[p + 3] > 0 && on_gbm[p + 3] < 255;
		struct ref_difference d;
		ref_compare(on_gbm, on_surfaceless, OUT_W, OUT_H, 0, &d);
		printf("translucent scene, clear alpha %.1f: gbm (%s) vs surfaceless: %d of %d pixels "
		       "differ; %d translucent pixels\n",
		       (double)clears[i][3], sg_renderer_get_info(gbm)->device, d.count, OUT_W * OUT_H,
		       translucent);
		ck_assert_msg(d.count == 0,
		              "clear %d: %d pixels differ; the first, (%d, %d), is %u,%u,%u,%u on gbm, "
		              "%u,%u,%u,%u on surfaceless",
		              i, d.count, d.x, d.y, d.got[0], d.got[1], d.got[2], d.got[3], d.want[0],
		              d.want[1], d.want[2], d.want[3]);
		ck_assert_int_gt(translucent, OUT_W * OUT_H / 4);
		check_against_reference(on_gbm, clears[i], "gbm");
	}
	sg_renderer_destroy(surfaceless);
	sg_renderer_destroy(gbm);
	sg_scene_destroy(scene);
}
END_TEST

Suite *translucent_suite(void)
{
	Suite *suite = suite_create("translucent");
	TCase *tc = tcase_create("translucent");
	tcase_add_test(tc, test_translucent_gbm_matches_surfaceless);
	suite_add_tcase(suite, tc);
	return suite;
}
