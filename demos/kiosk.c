/* kiosk: a slideshow with two buttons on every connected display of a card,
 * reacting to touch, pointer and keys (sg/input.h), turned with --rotate.
 *
 * The steps: open the card node once (the outputs share it, and with it DRM
 * master) -> sg_hotplug on it -> one sg_output per connected connector, all
 * showing the one scene, each through a camera of the first display's
 * picture -> sg_input on the udev seat, in the first display's picture and
 * rotation -> a loop that polls the card, the input devices and hotplug,
 * hands events to the screen (kiosk_scene.c: picks the button under a
 * touch), creates and destroys outputs as connectors come and go, and
 * presents a frame to each display whose last frame is out of date and whose
 * flip has landed. With no connected display it waits for one. Stops on
 * Escape or q, after --seconds or --frames, or on SIGINT or SIGTERM. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include <sg/sg.h>

#include "kiosk_scene.h"

#define MAX_OUTPUTS 8     /* displays driven at once */
#define MAX_CONNECTORS 32 /* connectors looked at */

static volatile sig_atomic_t stop;

static void on_signal(int signal_number)
{
	(void)signal_number;
	stop = 1;
}

static void usage(FILE *out)
{
	fprintf(out,
	        "Usage: kiosk [OPTION]...\n"
	        "A slideshow with two buttons on every connected display of a DRM card, reacting\n"
	        "to touchscreens, pointers and keyboards (libinput, udev seat0): touch or click\n"
	        "a button, or press Left, Right or Space; Escape or q quits.\n"
	        "\n"
	        "  -d, --device PATH       the DRM card node (default: the first with KMS)\n"
	        "  -r, --rotate DEGREES    turn the picture clockwise: 0, 90, 180 or 270\n"
	        "                          (on top of the panel's orientation)\n"
	        "  -S, --slide-seconds N   show each slide N seconds (default 5; 0: never move on)\n"
	        "      --session           open the card (--device, default /dev/dri/card0) and the\n"
	        "                          input devices through the seat daemon (libseat: seatd or\n"
	        "                          logind), as an ordinary user; pause while the session\n"
	        "                          is switched away\n"
	        "  -F, --font PATH         the labels' font (default: DejaVu Sans of scenes/fonts)\n"
	        "  -s, --seconds N         stop after N seconds\n"
	        "  -f, --frames N          stop after N frames shown on the first display\n"
	        "  -q, --quiet             print nothing but errors\n"
	        "  -h, --help              show this help\n"
	        "\n"
	        "Exit status: 0 success (also when stopped), 1 error, 2 bad usage.\n");
}

static double now_s(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

static int open_card(const char *device)
{
	if (device)
		return open(device, O_RDWR | O_CLOEXEC);
	for (int i = 0; i < 16; i++) {
		char path[32];
		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		int fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		drmModeResPtr res = drmModeGetResources(fd);
		if (res) {
			drmModeFreeResources(res);
			return fd;
		}
		close(fd);
	}
	errno = ENOENT;
	return -1;
}

struct display {
	struct sg_output *output;
	char connector[32];
	bool flipping;     /* a frame is on its way to the screen */
	unsigned shown;    /* the version of the screen it last presented */
	long flips;
};

struct app {
	int fd; /* the card, shared by every output */
	struct sg_session *session; /* --session: the seat daemon's, else NULL */
	struct sg_input *input;
	struct sg_hotplug *hotplug;
	bool resumed; /* the session came back: resume what is paused, probe again */
	enum sg_rotation rotation;
	struct kiosk kiosk;
	bool built; /* the screen, laid out for the first display's picture */
	struct display displays[MAX_OUTPUTS];
	int count;
	long first_flips; /* of the first display ever shown, for --frames */
	struct sg_camera camera;
	unsigned version; /* bumped at each change of the screen */
	bool quit, quiet;
};

static void on_flip(struct sg_output *output, const struct sg_output_flip *flip, void *data);

/* A display for a connector that is connected (at start, or plugged in). */
static void add_display(struct app *app, const char *connector)
{
	/* Away: not ours to light; the probe after the resume finds it. */
	if (app->count == MAX_OUTPUTS || (app->session && !sg_session_is_active(app->session)))
		return;
	struct sg_output *output = sg_output_create(&(struct sg_output_desc){
	    .has_drm_fd = true,
	    .drm_fd = app->fd,
	    .connector = connector,
	    .rotation = app->rotation,
	    .clear_color = {0.93f, 0.94f, 0.96f, 1.0f}, /* the screen's background */
	    .on_flip = on_flip,
	    .user_data = app});
	if (!output) {
		fprintf(stderr, "kiosk: %s: %s\n", connector, sg_last_error());
		return;
	}
	const struct sg_output_info *info = sg_output_get_info(output);
	if (!app->quiet)
		printf("display %s: %dx%d, picture %dx%d turned %d degrees%s%s%s, %s\n",
		       info->connector, info->width, info->height, info->picture_width,
		       info->picture_height, (int)info->rotation % 4 * 90,
		       info->panel_orientation[0] ? " (panel: " : "", info->panel_orientation,
		       info->panel_orientation[0] ? ")" : "",
		       info->path == SG_OUTPUT_PATH_ZERO_COPY ? "zero-copy" : "copy");
	struct display *d = &app->displays[app->count++];
	*d = (struct display){.output = output};
	snprintf(d->connector, sizeof(d->connector), "%s", connector);
}

static void remove_display(struct app *app, const char *connector)
{
	for (int i = 0; i < app->count; i++)
		if (strcmp(app->displays[i].connector, connector) == 0) {
			if (!app->quiet)
				printf("display %s: gone\n", connector);
			sg_output_destroy(app->displays[i].output);
			app->displays[i] = app->displays[--app->count];
			return;
		}
}

/* The session switched away (pause every output, close the input devices)
 * and back (the reverse; the next presents repaint everything). */
static void on_session(struct sg_session *session, bool active, void *data)
{
	(void)session;
	struct app *app = data;
	if (!app->quiet)
		printf("session %s\n", active ? "active" : "switched away: pausing");
	/* Back: the loop resumes the outputs and input (again while it fails)
	 * and probes the connectors, outside this callback. */
	app->resumed = active;
	if (active)
		return;
	for (int i = 0; i < app->count; i++) {
		sg_output_pause(app->displays[i].output);
		app->displays[i].flipping = false;
		app->displays[i].shown = 0; /* present again once resumed */
	}
	if (app->input)
		sg_input_suspend(app->input);
}

/* After the session came back: resume every output and the input; true
 * when all of them are. */
static bool resume_all(struct app *app)
{
	bool all = true;
	for (int i = 0; i < app->count; i++)
		if (sg_output_resume(app->displays[i].output)) {
			fprintf(stderr, "kiosk: %s (trying again)\n", sg_last_error());
			all = false;
		}
	if (app->input && sg_input_resume(app->input)) {
		fprintf(stderr, "kiosk: %s (trying again)\n", sg_last_error());
		all = false;
	}
	/* Plugged in while away: the kernel probes fully only for the master. */
	if (all && app->hotplug && sg_hotplug_probe(app->hotplug))
		fprintf(stderr, "kiosk: %s\n", sg_last_error());
	return all;
}

static void on_hotplug(struct sg_hotplug *hotplug, const struct sg_connector_state *connector,
                       void *data)
{
	(void)hotplug;
	struct app *app = data;
	if (connector->connected)
		add_display(app, connector->name);
	else
		remove_display(app, connector->name);
}

static void on_flip(struct sg_output *output, const struct sg_output_flip *flip, void *data)
{
	(void)flip;
	struct app *app = data;
	for (int i = 0; i < app->count; i++)
		if (app->displays[i].output == output) {
			app->displays[i].flipping = false;
			app->displays[i].flips++;
			if (i == 0)
				app->first_flips++;
		}
}

static void on_input(struct sg_input *input, const struct sg_input_event *event, void *data)
{
	(void)input;
	struct app *app = data;
	if (!app->quiet && (event->kind == SG_INPUT_TOUCH_DOWN ||
	                    (event->kind == SG_INPUT_POINTER_BUTTON && event->pressed)))
		printf("%s at (%.1f, %.1f)\n", event->kind == SG_INPUT_TOUCH_DOWN ? "touch" : "click",
		       event->x, event->y);
	if (kiosk_handle(&app->kiosk, event, &app->quit))
		app->version++;
}

/* Presents the screen to each display that lacks its latest version. */
static sg_result present_due(struct app *app)
{
	for (int i = 0; i < app->count; i++) {
		struct display *d = &app->displays[i];
		if (d->flipping || d->shown == app->version || sg_output_is_paused(d->output))
			continue;
		sg_result result = sg_output_present(d->output, app->kiosk.scene, &app->camera);
		if (result)
			return result;
		d->flipping = true;
		d->shown = app->version;
	}
	return SG_OK;
}

static bool parse_number(const char *text, double max, double *value)
{
	char *end;
	*value = strtod(text, &end);
	return end != text && !*end && *value >= 0 && *value <= max;
}

int main(int argc, char **argv)
{
	const char *device = NULL, *font = SG_SOURCE_DIR "/scenes/fonts/DejaVuSans.ttf";
	double seconds = -1, frames = -1, slide_seconds = 5, degrees = 0;
	static const struct option options[] = {
	    {"device", required_argument, NULL, 'd'},  {"rotate", required_argument, NULL, 'r'},
	    {"slide-seconds", required_argument, NULL, 'S'}, {"font", required_argument, NULL, 'F'},
	    {"seconds", required_argument, NULL, 's'}, {"frames", required_argument, NULL, 'f'},
	    {"quiet", no_argument, NULL, 'q'},         {"help", no_argument, NULL, 'h'},
	    {"session", no_argument, NULL, 'L'},       {NULL, 0, NULL, 0},
	};
	struct app app = {.version = 1};
	bool use_session = false;
	int option;
	while ((option = getopt_long(argc, argv, "d:r:S:F:s:f:qh", options, NULL)) != -1) {
		double *value = option == 'r' ? &degrees : option == 'S' ? &slide_seconds
		                : option == 's'                    ? &seconds
		                                                    : &frames;
		switch (option) {
		case 'd': device = optarg; break;
		case 'F': font = optarg; break;
		case 'r':
		case 'S':
		case 's':
		case 'f':
			if (!parse_number(optarg, 1e6, value) ||
			    (option == 'r' && *value != 0 && *value != 90 && *value != 180 &&
			     *value != 270)) {
				fprintf(stderr, "kiosk: bad value '%s' for -%c%s\n", optarg, option,
				        option == 'r' ? " (0, 90, 180 or 270)" : "");
				return 2;
			}
			break;
		case 'q': app.quiet = true; break;
		case 'L': use_session = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "kiosk: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	struct sigaction action = {.sa_handler = on_signal};
	sigaction(SIGINT, &action, NULL);
	sigaction(SIGTERM, &action, NULL);

	if (use_session) {
		app.session = sg_session_open(
		    &(struct sg_session_desc){.on_change = on_session, .user_data = &app});
		if (!app.session) {
			fprintf(stderr, "kiosk: %s\n", sg_last_error());
			return 1;
		}
		app.fd = sg_session_open_device(app.session, device ? device : "/dev/dri/card0");
		if (app.fd < 0) {
			fprintf(stderr, "kiosk: %s\n", sg_last_error());
			sg_session_close(app.session);
			return 1;
		}
	} else {
		app.fd = open_card(device);
	}
	if (app.fd < 0) {
		fprintf(stderr, "kiosk: cannot open %s: %s\n", device ? device : "a DRM card with KMS",
		        strerror(errno));
		return 1;
	}
	app.rotation = (enum sg_rotation)((int)degrees / 90);
	/* Connectors plugged in later, or out; without libudev, none. */
	struct sg_hotplug *hotplug = app.hotplug = sg_hotplug_create(&(struct sg_hotplug_desc){
	    .drm_fd = app.fd, .on_change = on_hotplug, .user_data = &app});
	if (!hotplug)
		fprintf(stderr, "kiosk: no hotplug (%s): the displays connected now only\n",
		        sg_last_error());
	struct sg_connector_state connectors[MAX_CONNECTORS];
	size_t count = 0;
	if (sg_output_list_connectors(app.fd, connectors, MAX_CONNECTORS, &count)) {
		fprintf(stderr, "kiosk: %s\n", sg_last_error());
		sg_hotplug_destroy(hotplug);
		return 1;
	}
	for (size_t i = 0; i < count && i < MAX_CONNECTORS; i++)
		if (connectors[i].connected)
			add_display(&app, connectors[i].name);
	if (!app.count && hotplug)
		fprintf(stderr, "kiosk: no connected display: waiting for one\n");
	int status = 0;
	struct sg_input *input = NULL;
		double start = now_s(), next_slide = start + slide_seconds;
	sg_result result = SG_OK;
	while (!stop && !app.quit && (seconds < 0 || now_s() - start < seconds) &&
	       (frames < 0 || app.first_flips < (long)frames)) {
		if (app.count && !app.built) {
			/* The screen, for the first display's picture, and input in it. */
			const struct sg_output_info *first = sg_output_get_info(app.displays[0].output);
			if ((result = kiosk_build(&app.kiosk, first->picture_width, first->picture_height,
			                          font)))
				break;
			app.built = true;
			sg_camera_init_pixels(&app.camera, (float)app.kiosk.width,
			                      (float)app.kiosk.height);
			input = app.input = sg_input_create(&(struct sg_input_desc){
			                                                .session = app.session,
			                                                .width = first->picture_width,
			                                                .height = first->picture_height,
			                                                .rotation = first->rotation,
			                                                .allow_no_devices = true,
			                                                .on_event = on_input,
			                                                .user_data = &app});
			if (!input)
				fprintf(stderr, "kiosk: no input (%s): showing the slides alone\n",
				        sg_last_error());
			else if (!app.quiet)
				printf("input: %zu devices on %s (%zu touchscreens, %zu pointers, %zu "
				       "keyboards)\n",
				       sg_input_get_info(input)->device_count, sg_input_get_info(input)->seat,
				       sg_input_get_info(input)->touchscreens,
				       sg_input_get_info(input)->pointers, sg_input_get_info(input)->keyboards);
		}
		if (!app.count && !hotplug) {
			fprintf(stderr, "kiosk: no display could be driven\n");
			status = 1;
			break;
		}
		if (app.resumed && resume_all(&app))
			app.resumed = false;
		if (app.built && (result = present_due(&app)))
			break;
		double now = now_s();
		int timeout = app.built && slide_seconds > 0 ? (int)((next_slide - now) * 1000) + 1
		                                             : 1000;
		if (seconds >= 0 && (int)((start + seconds - now) * 1000) + 1 < timeout)
			timeout = (int)((start + seconds - now) * 1000) + 1;
		if (app.resumed && timeout > 500)
			timeout = 500; /* a resume to try again */
		struct pollfd fds[4] = {{.fd = app.fd, .events = POLLIN},
		                        {.fd = input ? sg_input_get_fd(input) : -1, .events = POLLIN},
		                        {.fd = hotplug ? sg_hotplug_get_fd(hotplug) : -1,
		                         .events = POLLIN},
		                        {.fd = sg_session_get_fd(app.session), .events = POLLIN}};
		if (poll(fds, 4, timeout < 0 ? 0 : timeout) < 0 && errno != EINTR)
			break;
		if ((fds[3].revents & POLLIN) && (result = sg_session_dispatch(app.session)))
			break;
		/* One dispatch serves every output on the card: each flip's event
		 * names the output that committed it. */
		if ((fds[0].revents & POLLIN) && app.count &&
		    (result = sg_output_dispatch(app.displays[0].output)))
			break;
		if ((fds[1].revents & POLLIN) && (result = sg_input_dispatch(input)))
			break;
		if ((fds[2].revents & POLLIN) && (result = sg_hotplug_dispatch(hotplug)))
			break;
		if (app.built && slide_seconds > 0 && now_s() >= next_slide) {
			kiosk_advance(&app.kiosk, 1);
			app.version++;
			next_slide = now_s() + slide_seconds;
		}
	}
	if (result) {
		fprintf(stderr, "kiosk: %s\n", sg_last_error());
		status = 1;
	}
	if (!app.quiet && app.count)
		printf("%ld frames on %s in %.1f s, %d button presses\n", app.displays[0].flips,
		       app.displays[0].connector, now_s() - start, app.kiosk.presses);
	sg_input_destroy(input);
	for (int i = 0; i < app.count; i++)
		sg_output_destroy(app.displays[i].output); /* each restores its CRTC */
	sg_hotplug_destroy(hotplug);
	if (app.built)
		kiosk_finish(&app.kiosk);
	if (app.session) {
		sg_session_close_device(app.session, app.fd);
		sg_session_close(app.session);
	} else {
		close(app.fd);
	}
	return status;
}
