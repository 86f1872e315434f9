/* kms-three-rects: renders the reference scene and shows it on the first
 * connected connector, then page-flips --frames times, re-rendering each
 * frame with a new clear colour. The steps, in order: open the primary node ->
 * pick connector, mode, CRTC (src/gbm/kms.c) -> render at the mode size ->
 * copy into a dumb buffer as XRGB8888 (src/gbm/dumb.c) -> drmModeAddFB2 ->
 * modeset -> drmModePageFlip + wait for the event. */
#include <drm_fourcc.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <xf86drm.h>

#include <sg/sg.h>

#include "../src/output/dumb.h"
#include "../src/output/kms.h"
#include "three_rects_scene.h"

#define FLIP_TIMEOUT_MS 5000

struct frame_buffer {
	struct sg_dumb_buffer dumb;
	uint32_t fb_id;
};

static void usage(FILE *out)
{
	fprintf(out,
	        "Usage: kms-three-rects [OPTION]...\n"
	        "Show the three-rectangle reference scene on the first connected connector.\n"
	        "\n"
	        "  -d, --device PATH    the DRM primary node (default: the first with KMS)\n"
	        "  -f, --frames N       page-flip N more frames after the first (default 0)\n"
	        "  -l, --legacy         modeset with drmModeSetCrtc even where atomic works\n"
	        "  -q, --quiet          print nothing but errors\n"
	        "  -h, --help           show this help\n"
	        "\n"
	        "The scene is rendered with libsg's automatic target choice. Exit status: 0 on\n"
	        "success, 1 on an error, 2 on bad usage.\n");
}

/* The first primary node drmModeGetResources accepts: KMS drivers only. */
static int open_kms_device(const char *path, char *name, size_t size)
{
	if (path) {
		snprintf(name, size, "%s", path);
		return open(path, O_RDWR | O_CLOEXEC);
	}
	drmDevicePtr devices[16];
	int count = drmGetDevices2(0, devices, 16);
	int fd = -1;
	for (int i = 0; i < count && fd < 0; i++) {
		if (!(devices[i]->available_nodes & (1 << DRM_NODE_PRIMARY)))
			continue;
		fd = open(devices[i]->nodes[DRM_NODE_PRIMARY], O_RDWR | O_CLOEXEC);
		drmModeResPtr res = fd >= 0 ? drmModeGetResources(fd) : NULL;
		if (res) {
			snprintf(name, size, "%s", devices[i]->nodes[DRM_NODE_PRIMARY]);
			drmModeFreeResources(res);
		} else if (fd >= 0) {
			close(fd);
			fd = -1;
		}
	}
	if (count > 0)
		drmFreeDevices(devices, count);
	if (fd < 0) {
		snprintf(name, size, "a DRM primary node with KMS (of %d devices)", count > 0 ? count : 0);
		errno = ENODEV;
	}
	return fd;
}

static sg_result frame_buffer_init(struct frame_buffer *buffer, const struct sg_kms_output *output)
{
	uint32_t width = output->mode.hdisplay, height = output->mode.vdisplay;
	sg_result result = sg_dumb_buffer_init(&buffer->dumb, output->fd, width, height);
	if (!result)
		result = sg_kms_add_fb(output->fd, width, height, DRM_FORMAT_XRGB8888,
		                       buffer->dumb.handle, buffer->dumb.stride, 0, &buffer->fb_id);
	return result;
}

static void frame_buffer_finish(struct frame_buffer *buffer)
{
	if (buffer->fb_id)
		drmModeRmFB(buffer->dumb.fd, buffer->fb_id);
	sg_dumb_buffer_finish(&buffer->dumb);
}

/* Renders frame number frame into buffer: a slowly brightening clear colour. */
static sg_result draw(struct sg_renderer *renderer, struct sg_scene *scene, int frame,
                      uint8_t *rgba, struct frame_buffer *buffer)
{
	struct sg_camera camera;
	/* The scene is specified over 256 x 256: the output stretches it. */
	sg_camera_init_pixels(&camera, THREE_RECTS_SIZE, THREE_RECTS_SIZE);
	float grey = (float)(frame % 8) / 16.0f;
	size_t stride = (size_t)buffer->dumb.width * 4;
	sg_result result = sg_renderer_set_clear_color(renderer, grey, grey, grey, 1.0f);
	if (!result)
		result = sg_renderer_render(renderer, scene, &camera);
	if (!result)
		result = sg_renderer_read_pixels(renderer, rgba, stride);
	if (!result)
		sg_dumb_buffer_write_rgba(&buffer->dumb, rgba, stride);
	return result;
}

static double seconds_now(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	const char *device = NULL;
	long frames = 0;
	bool legacy = false, quiet = false;
	static const struct option options[] = {
		{"device", required_argument, NULL, 'd'}, {"frames", required_argument, NULL, 'f'},
		{"legacy", no_argument, NULL, 'l'},       {"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0},
	};
	int option;
	char *end;
	while ((option = getopt_long(argc, argv, "d:f:lqh", options, NULL)) != -1) {
		switch (option) {
		case 'd': device = optarg; break;
		case 'f':
			frames = strtol(optarg, &end, 10);
			if (*end || frames < 0 || frames > 1000000) {
				fprintf(stderr, "kms-three-rects: --frames '%s' is not 0..1000000\n", optarg);
				return 2;
			}
			break;
		case 'l': legacy = true; break;
		case 'q': quiet = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "kms-three-rects: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}

	char name[256];
	/* Opened before the renderer opens its own fd: the first opener of a
	 * primary node becomes DRM master, which modesets need. */
	int fd = open_kms_device(device, name, sizeof(name));
	if (fd < 0) {
		fprintf(stderr, "kms-three-rects: cannot open %s: %s\n", name, strerror(errno));
		return 1;
	}
	int status = 1;
	struct sg_kms_output output = {.fd = fd};
	struct frame_buffer buffers[2] = {0};
	struct sg_scene *scene = NULL;
	struct sg_renderer *renderer = NULL;
	uint8_t *rgba = NULL;
	if (sg_kms_output_init(&output, fd, !legacy))
		goto fail;
	int width = output.mode.hdisplay, height = output.mode.vdisplay;
	scene = three_rects_build();
	renderer = scene ? sg_renderer_create(&(struct sg_renderer_desc){.width = width,
	                                                                 .height = height})
	                 : NULL;
	rgba = malloc((size_t)width * (size_t)height * 4);
	if (!renderer || !rgba || frame_buffer_init(&buffers[0], &output) ||
	    frame_buffer_init(&buffers[1], &output) || draw(renderer, scene, 0, rgba, &buffers[0]) ||
	    sg_kms_output_show(&output, buffers[0].fb_id))
		goto fail;
	if (!quiet) {
		const struct sg_renderer_info *info = sg_renderer_get_info(renderer);
		printf("output: %s on %s, %s, CRTC %u, %s modeset\n", output.name, name,
		       output.mode.name, output.crtc_id, output.atomic ? "atomic" : "legacy");
		printf("render: %s (%s), GL_RENDERER %s\n", info->target_name, info->reason,
		       info->gl_renderer);
	}
	double start = seconds_now();
	for (long frame = 1; frame <= frames; frame++) {
		struct frame_buffer *back = &buffers[frame % 2];
		if (draw(renderer, scene, (int)frame, rgba, back) ||
		    sg_kms_output_flip(&output, back->fb_id, FLIP_TIMEOUT_MS))
			goto fail;
	}
	if (!quiet && frames > 0) {
		double seconds = seconds_now() - start;
		printf("%ld page flips in %.2f s (%.1f frames/s, render + copy + flip)\n", frames,
		       seconds, (double)frames / seconds);
	}
	status = 0;
	goto done;
fail:
	fprintf(stderr, "kms-three-rects: on %s: %s\n", name,
	        rgba || !renderer ? sg_last_error() : "out of memory");
done:
	sg_kms_output_finish(&output);
	frame_buffer_finish(&buffers[1]);
	frame_buffer_finish(&buffers[0]);
	free(rgba);
	sg_renderer_destroy(renderer);
	sg_scene_destroy(scene);
	close(fd);
	return status;
}
