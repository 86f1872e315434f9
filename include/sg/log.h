/* libsg: a hook for what libsg has to say besides errors.
 *
 * Errors are returned (an sg_result, NULL or an all-zero handle, with the
 * message in sg_last_error()) and never logged as well. The log says why libsg
 * did what it did where the application did not ask for it: an environment
 * variable (SG_TARGET, SG_DEVICE) that overrides the renderer desc, a target
 * that fell back to another.
 *
 * By default there is no handler and nothing is printed anywhere: a library
 * does not write to the application's standard error unless asked to.
 * sg_log_set_handler(sg_log_stderr, NULL) prints each message as one line. */
#ifndef SG_LOG_H
#define SG_LOG_H

#include <sg/export.h>

#ifdef __cplusplus
extern "C" {
#endif

enum sg_log_level {
	SG_LOG_SILENT = 0, /* as a priority: no message at all */
	SG_LOG_ERROR,      /* a failure that has no caller to return it to */
	SG_LOG_WARNING,    /* the application's choice was overridden (environment) */
	SG_LOG_INFO,       /* a choice libsg made: the target and why, a fallback */
	SG_LOG_DEBUG,      /* details for bug reports */
};

/* message is one line without a trailing newline, valid during the call only;
 * data is what was given to sg_log_set_handler. */
typedef void (*sg_log_handler)(enum sg_log_level level, const char *message, void *data);

/* Sends every message of the process (all renderers, all threads) to handler,
 * replacing the previous one; NULL (the default) discards them. The handler
 * may be called on any thread that calls libsg, on several at once; it must
 * not call sg_log_set_handler, and what libsg functions it calls log nothing.
 * It must not create, render with or destroy renderers either: renderer
 * creation logs while it holds a process-wide lock those calls take.
 * Once sg_log_set_handler returns, the old handler is no longer running nor
 * called again, so its data may be freed. */
SG_API void sg_log_set_handler(sg_log_handler handler, void *data);

/* Messages of a level above priority are dropped before they are formatted.
 * Default SG_LOG_INFO: errors, warnings and information, no debug messages.
 * SG_LOG_SILENT drops everything. */
SG_API void sg_log_set_priority(enum sg_log_level priority);

/* A ready-made handler: "libsg: warning: MESSAGE" on standard error. */
SG_API void sg_log_stderr(enum sg_log_level level, const char *message, void *data);

#ifdef __cplusplus
}
#endif

#endif
