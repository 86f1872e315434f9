#include "log.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

/* Handler and data change together: a reader must never see one without the
 * other. The read lock is held while the handler runs, so that
 * sg_log_set_handler() returns only when no call of the old handler is left
 * and the caller may free its data. Writers go first: glibc's default lets
 * threads that log without pause starve sg_log_set_handler forever. */
static pthread_rwlock_t handler_lock = PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP;
static sg_log_handler handler;
static void *handler_data;
/* Read without the lock: a message above it costs no formatting. */
static atomic_int priority = SG_LOG_INFO;
/* A handler that calls libsg would log from inside itself: the message is
 * dropped, which also keeps the read lock from being taken twice (with a
 * writer waiting between, a deadlock). */
static _Thread_local bool in_handler;

void sg_log_set_handler(sg_log_handler new_handler, void *data)
{
	pthread_rwlock_wrlock(&handler_lock);
	handler = new_handler;
	handler_data = data;
	pthread_rwlock_unlock(&handler_lock);
}

void sg_log_set_priority(enum sg_log_level new_priority)
{
	atomic_store_explicit(&priority, (int)new_priority, memory_order_relaxed);
}

static const char *level_name(enum sg_log_level level)
{
	switch (level) {
	case SG_LOG_SILENT: break;
	case SG_LOG_ERROR: return "error";
	case SG_LOG_WARNING: return "warning";
	case SG_LOG_INFO: return "info";
	case SG_LOG_DEBUG: return "debug";
	}
	return "log";
}

void sg_log_stderr(enum sg_log_level level, const char *message, void *data)
{
	(void)data;
	fprintf(stderr, "libsg: %s: %s\n", level_name(level), message);
}

void sg_log(enum sg_log_level level, const char *format, ...)
{
	if (level <= SG_LOG_SILENT ||
	    (int)level > atomic_load_explicit(&priority, memory_order_relaxed) || in_handler)
		return;
	int saved_errno = errno;
	pthread_rwlock_rdlock(&handler_lock);
	if (handler) {
		char message[1024];
		va_list args;
		va_start(args, format);
		vsnprintf(message, sizeof(message), format, args);
		va_end(args);
		in_handler = true;
		handler(level, message, handler_data);
		in_handler = false;
	}
	pthread_rwlock_unlock(&handler_lock);
	errno = saved_errno;
}
