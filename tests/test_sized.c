/* Structs handed over with the caller's sizeof (docs/abi.md, src/base/sized.c):
 * a program built against an older header passes fewer bytes, one built
 * against a newer header more. Simulated here by calling the *_sized
 * functions with sizes other than this header's sizeof. No GL. */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include <sg/sg.h>

#include "check_run.h"

/* sg_clip_desc's 1.0 layout ends with radius; on LP64 its sizeof has 4
 * bytes of padding after it, room to play an older caller's struct. */
#define CLIP_1_0 (offsetof(struct sg_clip_desc, radius) + sizeof(float))

static struct sg_scene *scene;
static sg_node clip;

static void setup(void)
{
	scene = sg_scene_create();
	ck_assert_ptr_nonnull(scene);
	clip = sg_node_new_clip(scene,
	                        &(struct sg_clip_desc){.x = 1, .y = 2, .width = 30, .height = 40});
	ck_assert(sg_node_exists(scene, clip));
}

static void teardown(void)
{
	sg_scene_destroy(scene);
}

/* A newer libsg's struct: this one's, then a member this libsg lacks. */
struct newer_clip_desc {
	struct sg_clip_desc known;
	uint64_t added;
};

START_TEST(test_smaller_than_1_0_refused)
{
	struct sg_clip_desc desc = {.width = 5, .height = 5};
	sg_node node = sg_node_new_clip_sized(scene, &desc, CLIP_1_0 - 1);
	ck_assert(!sg_node_exists(scene, node));
	ck_assert_int_eq(sg_last_result(), SG_ERR_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "sg_node_new_clip: the desc is"));
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "less than"));

	struct sg_clip_desc out;
	ck_assert_int_eq(sg_clip_get_sized(scene, clip, &out, sizeof(float)),
	                 SG_ERR_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(
	    strstr(sg_last_error(), "sg_clip_get: the struct to fill is 4 bytes"));
}
END_TEST

START_TEST(test_older_caller_reads_and_writes_its_bytes_only)
{
	/* Past an older caller's size lie bytes that are not its struct's:
	 * neither read as members nor written. */
	union {
		struct sg_clip_desc desc;
		unsigned char bytes[sizeof(struct sg_clip_desc) + 8];
	} in;
	memset(in.bytes, 0xab, sizeof in.bytes);
	in.desc = (struct sg_clip_desc){.x = 3, .y = 4, .width = 10, .height = 20, .radius = 2};
	memset(in.bytes + CLIP_1_0, 0xab, sizeof in.bytes - CLIP_1_0);
	ck_assert_int_eq(sg_clip_set_sized(scene, clip, &in.desc, CLIP_1_0), SG_OK);

	union {
		struct sg_clip_desc desc;
		unsigned char bytes[sizeof(struct sg_clip_desc) + 8];
	} out;
	memset(out.bytes, 0xcd, sizeof out.bytes);
	ck_assert_int_eq(sg_clip_get_sized(scene, clip, &out.desc, CLIP_1_0), SG_OK);
	ck_assert_float_eq(out.desc.x, 3);
	ck_assert_float_eq(out.desc.height, 20);
	ck_assert_float_eq(out.desc.radius, 2);
	for (size_t i = CLIP_1_0; i < sizeof out.bytes; i++)
		ck_assert_msg(out.bytes[i] == 0xcd, "byte %zu past the caller's %zu written", i,
		              CLIP_1_0);
}
END_TEST

START_TEST(test_newer_caller_with_a_member_set_refused)
{
	struct newer_clip_desc desc = {.known = {.width = 5, .height = 5}, .added = 1};
	sg_node node = sg_node_new_clip_sized(scene, &desc.known, sizeof desc);
	ck_assert(!sg_node_exists(scene, node));
	ck_assert_int_eq(sg_last_result(), SG_ERR_UNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(sg_last_error(), "built against a newer libsg"));
}
END_TEST

START_TEST(test_newer_caller_with_members_zero_accepted)
{
	struct newer_clip_desc desc = {.known = {.x = 7, .width = 5, .height = 6}, .added = 0};
	sg_node node = sg_node_new_clip_sized(scene, &desc.known, sizeof desc);
	ck_assert(sg_node_exists(scene, node));

	/* Filling a newer caller's struct: what this libsg knows, and zero
	 * (the default) for the members it lacks. */
	struct newer_clip_desc out;
	memset(&out, 0xcd, sizeof out);
	ck_assert_int_eq(sg_clip_get_sized(scene, node, &out.known, sizeof out), SG_OK);
	ck_assert_float_eq(out.known.x, 7);
	ck_assert_float_eq(out.known.height, 6);
	ck_assert_uint_eq(out.added, 0);
}
END_TEST

START_TEST(test_init_fills_the_callers_bytes_only)
{
	union {
		struct sg_material_desc desc;
		unsigned char bytes[sizeof(struct sg_material_desc) + 8];
	} out;
	memset(out.bytes, 0xcd, sizeof out.bytes);
	sg_material_desc_init(&out.desc);
	ck_assert_float_eq(out.desc.roughness, 1); /* a default that is not zero */
	for (size_t i = sizeof out.desc; i < sizeof out.bytes; i++)
		ck_assert_int_eq(out.bytes[i], 0xcd);
	/* Too small: refused, nothing written. */
	memset(out.bytes, 0xcd, sizeof out.bytes);
	sg_material_desc_init_sized(&out.desc, 8);
	ck_assert_ptr_nonnull(
	    strstr(sg_last_error(), "sg_material_desc_init: the struct to fill is 8"));
	ck_assert_int_eq(out.bytes[0], 0xcd);

	struct sg_render_stats stats;
	ck_assert_int_eq(sg_renderer_get_stats_sized(NULL, &stats, 8), SG_ERR_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(
	    strstr(sg_last_error(), "sg_renderer_get_stats: the struct to fill is 8"));
}
END_TEST

int main(void)
{
	Suite *suite = suite_create("sized");
	TCase *tc = tcase_create("sized");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_smaller_than_1_0_refused);
	tcase_add_test(tc, test_older_caller_reads_and_writes_its_bytes_only);
	tcase_add_test(tc, test_newer_caller_with_a_member_set_refused);
	tcase_add_test(tc, test_newer_caller_with_members_zero_accepted);
	tcase_add_test(tc, test_init_fills_the_callers_bytes_only);
	suite_add_tcase(suite, tc);
	return check_run(suite);
}
