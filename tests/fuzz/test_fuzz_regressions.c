/* Inputs the fuzzers of tests/fuzz/ found (or that guard a known weak spot),
 * run through the same loaders: each must load or fail cleanly, never crash or
 * leak (leaks show under the ASan build). A file ending in .png goes to
 * sg_texture_load_png() and sg_texture_load(), .jpg and .webp to
 * sg_texture_load(), .json to sg_scene_file_load(), anything else to all.
 * No renderer: these are the loaders only. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sg/sg.h>

#include "../check_run.h"

#ifndef SG_FUZZ_REGRESSIONS
#define SG_FUZZ_REGRESSIONS "tests/fuzz/regressions"
#endif

#define MAX_INPUTS 256

static char *inputs[MAX_INPUTS];
static int input_count;

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted, so that a loop index names the same file on every run. */
static void list_inputs(void)
{
	DIR *dir = opendir(SG_FUZZ_REGRESSIONS);
	if (!dir)
		return;
	for (struct dirent *entry; (entry = readdir(dir)) && input_count < MAX_INPUTS;) {
		if (entry->d_name[0] == '.')
			continue;
		size_t length = strlen(SG_FUZZ_REGRESSIONS) + strlen(entry->d_name) + 2;
		char *path = malloc(length);
		if (!path)
			break;
		snprintf(path, length, "%s/%s", SG_FUZZ_REGRESSIONS, entry->d_name);
		inputs[input_count++] = path;
	}
	closedir(dir);
	qsort(inputs, (size_t)input_count, sizeof(*inputs), compare_names);
}

static void free_inputs(void)
{
	for (int i = 0; i < input_count; i++)
		free(inputs[i]);
	input_count = 0;
}

static bool ends_with(const char *text, const char *suffix)
{
	size_t length = strlen(text), suffix_length = strlen(suffix);
	return length >= suffix_length && strcmp(text + length - suffix_length, suffix) == 0;
}

static void load_texture(const char *path, bool png_only)
{
	struct sg_scene *scene = sg_scene_create();
	ck_assert_ptr_nonnull(scene);
	sg_texture texture = png_only
	                         ? sg_texture_load_png(scene, path, SG_FILTER_LINEAR, SG_WRAP_REPEAT)
	                         : sg_texture_load(scene, path, SG_FILTER_LINEAR, SG_WRAP_REPEAT);
	if (texture.generation)
		ck_assert(sg_texture_exists(scene, texture));
	else
		ck_assert_msg(sg_last_error()[0], "%s: refused without a message", path);
	sg_scene_destroy(scene);
}

static void load_scene_file(const char *path)
{
	struct sg_scene_file *file = NULL;
	sg_result result = sg_scene_file_load(path, &file);
	ck_assert_msg((result == SG_OK) == (file != NULL), "%s: %s but file %p", path,
	              sg_result_name(result), (void *)file);
	if (file) {
		for (int frame = 0; frame < sg_scene_file_get_frame_count(file) && frame < 64;
		     frame++)
			sg_scene_file_apply_frame(file, frame);
	} else {
		ck_assert_msg(sg_last_error()[0], "%s: refused without a message", path);
	}
	sg_scene_file_destroy(file);
}

START_TEST(test_folder_has_inputs)
{
	ck_assert_msg(input_count > 0, "no inputs in %s", SG_FUZZ_REGRESSIONS);
}
END_TEST

START_TEST(test_input)
{
	const char *path = inputs[_i];
	bool png = ends_with(path, ".png"), json = ends_with(path, ".json");
	bool image = png || ends_with(path, ".jpg") || ends_with(path, ".webp");
	if (png || !(json || image))
		load_texture(path, true);
	if (!json)
		load_texture(path, false);
	if (json || !image)
		load_scene_file(path);
}
END_TEST

static Suite *fuzz_regressions_suite(void)
{
	Suite *suite = suite_create("fuzz_regressions");
	TCase *tc = tcase_create("inputs");
	/* Generous: an input that is slow under ASan (a libpng over-allocation) must
	 * still pass before its fix lands; Check's default is 4 s. */
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_folder_has_inputs);
	tcase_add_loop_test(tc, test_input, 0, input_count);
	suite_add_tcase(suite, tc);
	return suite;
}

int main(void)
{
	list_inputs();
	int status = check_run(fuzz_regressions_suite());
	free_inputs();
	return status;
}
