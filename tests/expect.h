/* Checks for loops over many pixels or nodes.
 *
 * Check writes every passed ck_assert down a pipe to its parent process, one
 * write(2) each: two million passed per-channel assertions took minutes under
 * valgrind. A loop compares plainly and fails through expect(), which costs
 * nothing while the condition holds, with the same message a ck_assert_msg
 * would give. */
#ifndef SG_TESTS_EXPECT_H
#define SG_TESTS_EXPECT_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#define expect(cond, ...)                                                                          \
	do {                                                                                       \
		if (!(cond))                                                                       \
			ck_abort_msg(__VA_ARGS__);                                                 \
	} while (0)

/* The index of the first byte where a and b differ, or n when they agree. */
static inline size_t first_difference(const uint8_t *a, const uint8_t *b, size_t n)
{
	size_t i = 0;
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

#endif
