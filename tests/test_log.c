/* The log hook (sg/log.h): handler, data, priority, and the promise that a
 * replaced handler is not running any more once sg_log_set_handler returns.
 * sg_log() is called directly, as the library's call sites do. */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sg/sg.h>

#include "check_run.h"
#include "../src/base/log.h"

struct record {
	int calls;
	enum sg_log_level level;
	char message[2048];
};

static void record_message(enum sg_log_level level, const char *message, void *data)
{
	struct record *record = data;
	record->calls++;
	record->level = level;
	snprintf(record->message, sizeof(record->message), "%s", message);
}

START_TEST(test_no_handler_is_silent)
{
	/* nothing to observe but that it returns: the default is no handler */
	sg_log(SG_LOG_ERROR, "nobody listens %d", 1);
	struct record record = {0};
	sg_log_set_handler(record_message, &record);
	sg_log_set_handler(NULL, NULL);
	sg_log(SG_LOG_ERROR, "nobody listens %d", 2);
	ck_assert_int_eq(record.calls, 0);
}
END_TEST

START_TEST(test_handler_gets_level_message_and_data)
{
	struct record record = {0};
	sg_log_set_handler(record_message, &record);
	sg_log(SG_LOG_WARNING, "SG_TARGET=%s overrides the desc's %s", "surfaceless", "gbm");
	ck_assert_int_eq(record.calls, 1);
	ck_assert_int_eq(record.level, SG_LOG_WARNING);
	ck_assert_str_eq(record.message, "SG_TARGET=surfaceless overrides the desc's gbm");
	sg_log_set_handler(NULL, NULL);
}
END_TEST

START_TEST(test_priority)
{
	struct record record = {0};
	sg_log_set_handler(record_message, &record);
	/* default SG_LOG_INFO */
	sg_log(SG_LOG_DEBUG, "dropped");
	ck_assert_int_eq(record.calls, 0);
	sg_log(SG_LOG_INFO, "kept");
	ck_assert_int_eq(record.calls, 1);

	sg_log_set_priority(SG_LOG_DEBUG);
	sg_log(SG_LOG_DEBUG, "kept");
	ck_assert_int_eq(record.calls, 2);

	sg_log_set_priority(SG_LOG_WARNING);
	sg_log(SG_LOG_INFO, "dropped");
	sg_log(SG_LOG_WARNING, "kept");
	sg_log(SG_LOG_ERROR, "kept");
	ck_assert_int_eq(record.calls, 4);

	sg_log_set_priority(SG_LOG_SILENT);
	sg_log(SG_LOG_ERROR, "dropped");
	ck_assert_int_eq(record.calls, 4);
	/* SILENT is a priority, not a level: a message of that level is never sent */
	sg_log_set_priority(SG_LOG_DEBUG);
	sg_log(SG_LOG_SILENT, "dropped");
	ck_assert_int_eq(record.calls, 4);
	sg_log_set_handler(NULL, NULL);
}
END_TEST

START_TEST(test_keeps_errno)
{
	struct record record = {0};
	sg_log_set_handler(record_message, &record);
	errno = ENOSPC;
	sg_log(SG_LOG_ERROR, "%s", "a message");
	ck_assert_int_eq(errno, ENOSPC);
	sg_log_set_handler(NULL, NULL);
}
END_TEST

START_TEST(test_long_message_is_cut)
{
	struct record record = {0};
	sg_log_set_handler(record_message, &record);
	char text[3000];
	memset(text, 'x', sizeof(text) - 1);
	text[sizeof(text) - 1] = '\0';
	sg_log(SG_LOG_ERROR, "%s", text);
	ck_assert_int_eq(record.calls, 1);
	ck_assert_uint_eq(strlen(record.message), 1023);
	sg_log_set_handler(NULL, NULL);
}
END_TEST

static void log_again(enum sg_log_level level, const char *message, void *data)
{
	record_message(level, message, data);
	/* as a handler that calls libsg would: not delivered, and no deadlock */
	sg_log(SG_LOG_ERROR, "from inside the handler");
}

START_TEST(test_handler_logging_is_dropped)
{
	struct record record = {0};
	sg_log_set_handler(log_again, &record);
	sg_log(SG_LOG_INFO, "outside");
	ck_assert_int_eq(record.calls, 1);
	ck_assert_str_eq(record.message, "outside");
	sg_log(SG_LOG_INFO, "outside again");
	ck_assert_int_eq(record.calls, 2);
	sg_log_set_handler(NULL, NULL);
}
END_TEST

START_TEST(test_stderr_handler)
{
	FILE *file = tmpfile();
	ck_assert_ptr_nonnull(file);
	fflush(stderr);
	int saved = dup(STDERR_FILENO);
	ck_assert_int_ge(saved, 0);
	ck_assert_int_ge(dup2(fileno(file), STDERR_FILENO), 0);
	sg_log_set_handler(sg_log_stderr, NULL);
	sg_log(SG_LOG_INFO, "no render node under %s: using surfaceless", "/dev/dri");
	sg_log_set_handler(NULL, NULL);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);

	char line[200] = "";
	rewind(file);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), file));
	ck_assert_str_eq(line, "libsg: info: no render node under /dev/dri: using surfaceless\n");
	fclose(file);
}
END_TEST

/* Handlers that count the calls that come too late: after the
 * sg_log_set_handler that replaced them returned. */
struct counted {
	atomic_int calls;
	atomic_int running;
	atomic_int late;
	atomic_bool retired;
};

static void count_message(enum sg_log_level level, const char *message, void *data)
{
	(void)level;
	(void)message;
	struct counted *counted = data;
	atomic_fetch_add(&counted->running, 1);
	atomic_fetch_add(&counted->calls, 1);
	if (atomic_load(&counted->retired))
		atomic_fetch_add(&counted->late, 1);
	/* stay a while, so that a replacement has a chance to overlap a call */
	for (int i = 0; i < 20; i++)
		sched_yield();
	atomic_fetch_sub(&counted->running, 1);
}

/* A handler paired with the other's data would count there: see below. */
static void other_message(enum sg_log_level level, const char *message, void *data)
{
	count_message(level, message, data);
}

static atomic_bool stop;

static void *log_loop(void *unused)
{
	(void)unused;
	while (!atomic_load(&stop))
		sg_log(SG_LOG_INFO, "message from a thread");
	return NULL;
}

START_TEST(test_replaced_handler_is_done)
{
	enum { THREADS = 4, ROUNDS = 200 };
	pthread_t threads[THREADS];
	atomic_store(&stop, false);
	for (int i = 0; i < THREADS; i++)
		ck_assert_int_eq(pthread_create(&threads[i], NULL, log_loop, NULL), 0);

	int calls = 0;
	for (int round = 0; round < ROUNDS; round++) {
		struct counted *counted = calloc(1, sizeof(*counted));
		ck_assert_ptr_nonnull(counted);
		sg_log_set_handler(round % 2 ? count_message : other_message, counted);
		while (atomic_load(&counted->calls) == 0)
			sched_yield();
		/* the promise of sg_log_set_handler: the data may be freed now */
		sg_log_set_handler(NULL, NULL);
		ck_assert_int_eq(atomic_load(&counted->running), 0);
		atomic_store(&counted->retired, true);
		sg_log(SG_LOG_INFO, "after the handler was removed");
		ck_assert_int_eq(atomic_load(&counted->running), 0);
		ck_assert_int_eq(atomic_load(&counted->late), 0);
		calls += atomic_load(&counted->calls);
		free(counted);
	}
	atomic_store(&stop, true);
	for (int i = 0; i < THREADS; i++)
		pthread_join(threads[i], NULL);
	ck_assert_int_ge(calls, ROUNDS);
}
END_TEST

int main(void)
{
	Suite *suite = suite_create("log");
	TCase *tc = tcase_create("log");
	tcase_add_test(tc, test_no_handler_is_silent);
	tcase_add_test(tc, test_handler_gets_level_message_and_data);
	tcase_add_test(tc, test_priority);
	tcase_add_test(tc, test_keeps_errno);
	tcase_add_test(tc, test_long_message_is_cut);
	tcase_add_test(tc, test_handler_logging_is_dropped);
	tcase_add_test(tc, test_stderr_handler);
	tcase_add_test(tc, test_replaced_handler_is_done);
	suite_add_tcase(suite, tc);
	return check_run(suite);
}
