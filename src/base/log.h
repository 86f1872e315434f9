/* Internal: messages for the application's log handler (sg/log.h). */
#ifndef SG_BASE_LOG_H
#define SG_BASE_LOG_H

#include <sg/log.h>

/* Formats a printf-style message and hands it to the handler, if there is one
 * and level is within the priority. Keeps errno, so that it may sit between a
 * failing call and the sg_fail() that reports its errno. */
void sg_log(enum sg_log_level level, const char *format, ...) __attribute__((format(printf, 2, 3)));

#endif
