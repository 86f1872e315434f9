/* mini-compositor: the test compositor of mini_compositor.c on its own, for
 * a program that needs a compositor importing dma-bufs where no real one
 * runs (the qemu guest: bench/window's dma-buf path, bench/README.md):
 *   mini-compositor [--width W] [--height H] -- COMMAND [ARG]...
 * runs COMMAND with WAYLAND_DISPLAY set to the compositor's socket (an
 * absolute path), then prints what the compositor saw and exits with
 * COMMAND's status (125: the compositor or COMMAND could not start). Each
 * commit's pixels are read, as a compositor samples them, and dropped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mini_compositor.h"

static int usage(void)
{
	fprintf(stderr, "usage: mini-compositor [--width W] [--height H] -- COMMAND [ARG]...\n");
	return 125;
}

int main(int argc, char **argv)
{
	struct mini_compositor_desc desc = {.discard_records = true};
	int i = 1;
	for (; i < argc && strcmp(argv[i], "--"); i++) {
		if (i + 1 < argc && !strcmp(argv[i], "--width"))
			desc.width = atoi(argv[++i]);
		else if (i + 1 < argc && !strcmp(argv[i], "--height"))
			desc.height = atoi(argv[++i]);
		else
			return usage();
	}
	if (i + 1 >= argc || desc.width < 0 || desc.height < 0)
		return usage();
	struct mini_compositor *compositor = mini_compositor_start(&desc);
	if (!compositor)
		return 125;
	fflush(stdout);
	pid_t child = fork();
	if (child == 0) {
		setenv("WAYLAND_DISPLAY", mini_compositor_socket(compositor), 1);
		execvp(argv[i + 1], argv + i + 1);
		fprintf(stderr, "mini-compositor: cannot run %s: %m\n", argv[i + 1]);
		_exit(125);
	}
	int status = 0;
	if (child < 0 || waitpid(child, &status, 0) < 0) {
		perror("mini-compositor: fork or waitpid");
		status = 125 << 8;
	}
	struct mini_stats stats;
	mini_compositor_stats(compositor, &stats);
	printf("mini-compositor: %d commit(s), %d with a buffer, %d dma-buf wl_buffer(s) made, %d "
	       "refused, %d release(s)\n",
	       stats.commits, stats.buffer_commits, stats.buffers_created, stats.params_failed,
	       stats.releases);
	mini_compositor_stop(compositor);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
