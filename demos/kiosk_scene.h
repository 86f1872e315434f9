/* The kiosk demo's screen, for the demo (kiosk.c) and the touch-to-photon
 * benchmark (bench/touch.c): a title bar, a slideshow of five slides and
 * two buttons, laid out for a picture of any size, reacting to input
 * events (sg/input.h) through picking. */
#ifndef SG_DEMOS_KIOSK_SCENE_H
#define SG_DEMOS_KIOSK_SCENE_H

#include <stdbool.h>

#include <sg/sg.h>

#define KIOSK_SLIDES 5

struct kiosk {
	struct sg_scene *scene;
	int width, height; /* the picture the layout is for */
	sg_node slides[KIOSK_SLIDES];
	int slide;
	sg_node prev, next;           /* the buttons' models */
	sg_texture prev_shape, next_shape;
	struct sg_shape_desc button; /* the buttons' shape at rest */
	int presses;                  /* buttons pressed */
};

/* Builds the screen for width x height; font_path NULL or a font that does
 * not load: no labels. Fails with sg_last_error() set. */
sg_result kiosk_build(struct kiosk *kiosk, int width, int height, const char *font_path);
void kiosk_finish(struct kiosk *kiosk);

/* Shows slide (kiosk->slide + step) modulo KIOSK_SLIDES. */
void kiosk_advance(struct kiosk *kiosk, int step);

/* What an event did: true when the picture changed. A touch or a click
 * on a button goes back or on (on the press, for the shortest latency) and
 * lights the button until the release; Left, Right and Space do the same;
 * Escape or q sets *quit. */
bool kiosk_handle(struct kiosk *kiosk, const struct sg_input_event *event, bool *quit);

#endif
