/* Internal: setting the per-thread error message. */
#ifndef SG_BASE_ERROR_H
#define SG_BASE_ERROR_H

#include <stddef.h>

#include <sg/error.h>

/* Records a printf-style message for sg_last_error() and returns result, so that
 * a failure is one line: `return sg_fail(SG_ERR_CYCLE, "node '%s' ...", name);` */
sg_result sg_fail(sg_result result, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* Prefixes the current message with more context ("loading 'a.png': " + message). */
sg_result sg_fail_prefix(sg_result result, const char *format, ...)
	__attribute__((format(printf, 2, 3)));

/* The calling thread's last failure: saved before a step that may fail on
 * the way to a success (a target tried and given up), restored once it has
 * succeeded, so that sg_last_error() keeps the caller's own last failure. */
struct sg_error_state {
	char message[1024];
	sg_result result;
};
void sg_error_save(struct sg_error_state *state);
void sg_error_restore(const struct sg_error_state *state);

/* Shortens text (length bytes, NUL-terminated) to at most limit bytes (limit
 * > 3) by putting "..." in place of its middle, so that both ends stay (a
 * path's file name, a context's ": "); no cut splits a UTF-8 character.
 * Returns the new length. For text that goes into a message. */
size_t sg_cut_middle(char *text, size_t length, size_t limit);

#endif
