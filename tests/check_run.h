/* The end of every test program's main(): run a Check suite, exit with its verdict. */
#ifndef SG_TESTS_CHECK_RUN_H
#define SG_TESTS_CHECK_RUN_H

#include <check.h>
#include <stdlib.h>

static inline int check_run(Suite *suite)
{
	SRunner *runner = srunner_create(suite);
	srunner_run_all(runner, CK_NORMAL);
	int failed = srunner_ntests_failed(runner);
	srunner_free(runner);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
