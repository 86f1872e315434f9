/* sg-render: the -o pattern language and the file name of each frame.
 *
 * A pattern holds at most one frame-number conversion, %d, %Nd or %0Nd with N
 * 1..9, and %% for a literal %; nothing else may follow a %. Names are built
 * here, never by handing user text to printf as a format. */
#ifndef SG_RENDER_OUTPUT_NAME_H
#define SG_RENDER_OUTPUT_NAME_H

#include <stdbool.h>
#include <stddef.h>

struct output_name {
	const char *pattern;
	bool has_number; /* holds the frame-number conversion */
	bool zero_pad;
	int width; /* 0 .. 9 */
};

/* Checks pattern; on failure writes why into error (size bytes) and returns false. */
bool output_name_parse(const char *pattern, struct output_name *name, char *error, size_t size);

/* The file name of frame (of frame_count in all) into path (size bytes): the
 * pattern with frame put in and %% made %; without a conversion, the pattern
 * itself for a single frame, else with -NNNN put before a final .png. False
 * when it does not fit. */
bool output_name_format(const struct output_name *name, int frame_count, int frame, char *path,
                        size_t size);

#endif
