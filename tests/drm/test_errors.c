/* Error paths on a real device: paths that are not DRM nodes, a path that does
 * not exist, and nodes this process may not open. Each must give SG_ERR_DEVICE
 * with a message that names the path, and a named device is never silently
 * replaced by another one. */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../src/render/select.h"
#include "drm_test.h"

#define NOBODY 65534

/* Both the internal result (the public constructor only returns NULL) and the
 * public behaviour: NULL with the same kind of message. */
static void check_device_error(const char *path, enum sg_target_kind kind, const char *why)
{
	struct sg_renderer_desc desc = {.width = 64, .height = 64, .target = kind, .device = path};
	struct sg_target *target = NULL;
	sg_result result = sg_target_select(&desc, &target);
	printf("%s (target %d): %s: %s\n", path, kind, sg_result_name(result), sg_last_error());
	ck_assert_msg(result == SG_ERR_DEVICE, "%s: %s, expected SG_ERR_DEVICE (%s)", path,
	              sg_result_name(result), sg_last_error());
	ck_assert_ptr_null(target);
	ck_assert_msg(strstr(sg_last_error(), path), "message '%s' does not name %s", sg_last_error(),
	              path);
	ck_assert_msg(strstr(sg_last_error(), why), "message '%s' does not say '%s'", sg_last_error(),
	              why);

	ck_assert_ptr_null(sg_renderer_create(&desc));
	ck_assert_msg(strstr(sg_last_error(), path), "sg_renderer_create: '%s' does not name %s",
	              sg_last_error(), path);
}

START_TEST(test_not_a_drm_node)
{
	static const char *const paths[] = {"/dev/null", "/dev/zero"};
	for (size_t i = 0; i < 2; i++) {
		check_device_error(paths[i], SG_TARGET_GBM, "not a DRM device node");
		/* Auto with a named device: a request, so no surfaceless fallback. */
		check_device_error(paths[i], SG_TARGET_AUTO, "not a DRM device node");
	}
}
END_TEST

START_TEST(test_nonexistent_path)
{
	check_device_error("/dev/dri/card99", SG_TARGET_GBM, strerror(ENOENT));
	check_device_error("/nonexistent/renderD128", SG_TARGET_AUTO, strerror(ENOENT));
}
END_TEST

/* What a child that dropped root saw, sent back through a pipe. */
struct as_nobody {
	int open_errno; /* of its own open() of the node: proves the setup */
	sg_result result;
	enum sg_target_kind kind;
	char device[256];
	char message[1024];
};

/* Makes node 0600 root-owned (root ignores modes, so the child drops to
 * nobody), runs sg_target_select as nobody in a child and restores the mode. */
static void select_as_nobody(const char *node, const struct sg_renderer_desc *desc,
                             struct as_nobody *seen)
{
	struct stat st;
	ck_assert_msg(stat(node, &st) == 0, "stat %s: %s", node, strerror(errno));
	ck_assert_msg(chmod(node, 0600) == 0, "chmod %s: %s", node, strerror(errno));
	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	pid_t pid = fork();
	if (pid == 0) {
		struct as_nobody out = {.result = SG_OK};
		close(fds[0]);
		if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
			_exit(3);
		int fd = open(node, O_RDWR);
		out.open_errno = fd < 0 ? errno : 0;
		if (fd >= 0)
			close(fd);
		struct sg_target *target = NULL;
		out.result = sg_target_select(desc, &target);
		snprintf(out.message, sizeof(out.message), "%s", out.result ? sg_last_error() : "");
		if (target) {
			out.kind = target->kind;
			snprintf(out.device, sizeof(out.device), "%s", target->device);
			snprintf(out.message, sizeof(out.message), "%s", target->reason);
		}
		_exit(write(fds[1], &out, sizeof(out)) == (ssize_t)sizeof(out) ? 0 : 4);
	}
	close(fds[1]);
	ssize_t got = pid > 0 ? read(fds[0], seen, sizeof(*seen)) : -1;
	int status = 0;
	if (pid > 0)
		waitpid(pid, &status, 0);
	close(fds[0]);
	chmod(node, st.st_mode & 07777); /* before any assertion can end the test */
	ck_assert_msg(pid > 0, "fork: %s", strerror(errno));
	ck_assert_msg(got == (ssize_t)sizeof(*seen) && WIFEXITED(status) && !WEXITSTATUS(status),
	              "the child running as nobody failed (status 0x%x)", status);
	ck_assert_msg(seen->open_errno == EACCES, "as nobody, open(%s) gave %s, not EACCES", node,
	              seen->open_errno ? strerror(seen->open_errno) : "success");
}

START_TEST(test_unopenable_primary_node)
{
	struct drm_nodes nodes;
	find_drm_nodes(&nodes);
	struct as_nobody seen;
	select_as_nobody(nodes.primary,
	                 &(struct sg_renderer_desc){.width = 64, .height = 64,
	                                            .target = SG_TARGET_GBM, .device = nodes.primary},
	                 &seen);
	printf("%s as nobody: %s: %s\n", nodes.primary, sg_result_name(seen.result), seen.message);
	ck_assert_msg(seen.result == SG_ERR_DEVICE, "%s", sg_result_name(seen.result));
	ck_assert_msg(strstr(seen.message, nodes.primary), "'%s' does not name %s", seen.message,
	              nodes.primary);
	ck_assert_msg(strstr(seen.message, strerror(EACCES)), "'%s' does not say '%s'", seen.message,
	              strerror(EACCES));
}
END_TEST

/* The fallback to the primary node is for allocation failures only: a render
 * node that cannot be opened is an error naming it, even though card0 would work. */
START_TEST(test_unopenable_render_node_is_not_replaced)
{
	struct drm_nodes nodes;
	find_drm_nodes(&nodes);
	struct as_nobody seen;
	select_as_nobody(nodes.render,
	                 &(struct sg_renderer_desc){.width = 64, .height = 64,
	                                            .target = SG_TARGET_GBM, .device = nodes.render},
	                 &seen);
	printf("%s as nobody: %s: %s\n", nodes.render, sg_result_name(seen.result), seen.message);
	ck_assert_msg(seen.result == SG_ERR_DEVICE, "%s (device '%s')", sg_result_name(seen.result),
	              seen.device);
	ck_assert_msg(strstr(seen.message, nodes.render), "'%s' does not name %s", seen.message,
	              nodes.render);
	ck_assert_msg(strstr(seen.message, strerror(EACCES)), "'%s' does not say '%s'", seen.message,
	              strerror(EACCES));
}
END_TEST

/* Auto with no device named: the discovered render node fails to open, so
 * surfaceless takes over, and the reason says what happened to the node. */
START_TEST(test_auto_falls_back_to_surfaceless)
{
	struct drm_nodes nodes;
	find_drm_nodes(&nodes);
	struct as_nobody seen;
	select_as_nobody(nodes.render, &(struct sg_renderer_desc){.width = 64, .height = 64}, &seen);
	printf("auto as nobody, %s closed: %s: kind %d: %s\n", nodes.render,
	       sg_result_name(seen.result), seen.kind, seen.message);
	ck_assert_msg(seen.result == SG_OK, "%s: %s", sg_result_name(seen.result), seen.message);
	ck_assert_int_eq(seen.kind, SG_TARGET_SURFACELESS);
	ck_assert_msg(strstr(seen.message, nodes.render) && strstr(seen.message, strerror(EACCES)),
	              "reason '%s' does not say that %s could not be opened", seen.message,
	              nodes.render);
}
END_TEST

Suite *errors_suite(void)
{
	Suite *suite = suite_create("errors");
	TCase *tc = tcase_create("errors");
	tcase_add_test(tc, test_not_a_drm_node);
	tcase_add_test(tc, test_nonexistent_path);
	tcase_add_test(tc, test_unopenable_primary_node);
	tcase_add_test(tc, test_unopenable_render_node_is_not_replaced);
	tcase_add_test(tc, test_auto_falls_back_to_surfaceless);
	suite_add_tcase(suite, tc);
	return suite;
}
