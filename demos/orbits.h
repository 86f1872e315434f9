/* orbits: the scene (orbits.c) and its display loop (orbits_kms.c). */
#ifndef ORBITS_H
#define ORBITS_H

#include <stdbool.h>

#include <sg/sg.h>

#define ORBITS_BODIES 7
/* The scene's units: the sun sits at the centre of a 512 x 512 square. */
#define ORBITS_SIZE 512

struct orbits {
	struct sg_scene *scene;
	sg_node orbit[ORBITS_BODIES];  /* rotates the body around its parent */
	sg_node offset[ORBITS_BODIES]; /* carries the body (and its moons) out to its distance */
	sg_node spin[ORBITS_BODIES];   /* spins the body's disc in place */
};

/* Poses every body at frame (fractional on a display: the animation follows
 * the clock there, 24 frames a second). */
sg_result orbits_animate(struct orbits *o, float frame);

/* Shows the square scene as large as a width x height output allows,
 * centred, without stretching it. */
void orbits_fit_camera(struct sg_camera *camera, int width, int height);

struct orbits_kms {
	struct sg_output_desc desc; /* device, connector, force_legacy, force_copy */
	double seconds;             /* stop after this long; 0: at SIGINT or SIGTERM only */
	long frames;                /* stop after presenting this many; 0: no limit */
	bool quiet;
};

/* Presents o on a display, one frame per page flip, until a limit or a signal;
 * prints the pacing figures. Returns the exit status. */
int orbits_kms_run(struct orbits *o, const struct orbits_kms *kms);

#endif
