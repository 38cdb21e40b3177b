/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Unit-test assertions in the style of the kernel's test_progs.h: each macro
 * logs a failure with actual and expected values and evaluates to a bool,
 * so tests read  if (!ASSERT_EQ(x, 3, "count")) return;
 * Tests are 'void test_name(void)' functions; the Makefile finds them.
 */
#ifndef PPBENCH_UNIT_H
#define PPBENCH_UNIT_H

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

extern int unit_failures; /* failures within the current test */
extern const char *unit_skip_reason;
extern char unit_first_fail[128]; /* the test's first failed check, for its FAIL line */

#define UNIT_FAIL(name, fmt, ...)                                                                  \
	({                                                                                         \
		unit_failures++;                                                                   \
		if (!unit_first_fail[0])                                                           \
			snprintf(unit_first_fail, sizeof(unit_first_fail), "%s", name);            \
		fprintf(stderr, "    %s:%d: %s: " fmt "\n", __func__, __LINE__, name,              \
			##__VA_ARGS__);                                                            \
		false;                                                                             \
	})

#define ASSERT_TRUE(cond, name) ((cond) ? true : UNIT_FAIL(name, "condition false: %s", #cond))
#define ASSERT_FALSE(cond, name) (!(cond) ? true : UNIT_FAIL(name, "condition true: %s", #cond))

#define ASSERT_EQ(actual, expected, name)                                                          \
	({                                                                                         \
		long long __a = (long long)(actual), __e = (long long)(expected);                  \
		__a == __e ? true : UNIT_FAIL(name, "actual %lld != expected %lld", __a, __e);     \
	})

#define ASSERT_NEQ(actual, unexpected, name)                                                       \
	({                                                                                         \
		long long __a = (long long)(actual), __e = (long long)(unexpected);                \
		__a != __e ? true : UNIT_FAIL(name, "actual %lld == unexpected", __a);             \
	})

#define ASSERT_OK(err, name)                                                                       \
	({                                                                                         \
		long long __r = (long long)(err);                                                  \
		__r == 0 ? true : UNIT_FAIL(name, "unexpected error %lld", __r);                   \
	})

#define ASSERT_ERR(err, name)                                                                      \
	({                                                                                         \
		long long __r = (long long)(err);                                                  \
		__r < 0 ? true : UNIT_FAIL(name, "expected an error, got %lld", __r);              \
	})

#define ASSERT_NEAR(actual, expected, tol, name)                                                   \
	({                                                                                         \
		double __a = (actual), __e = (expected);                                           \
		(fabs(__a - __e) <= (tol))                                                         \
			? true                                                                     \
			: UNIT_FAIL(name, "actual %.9g != expected %.9g (tol %g)", __a, __e,       \
				    (double)(tol));                                                \
	})

#define ASSERT_STREQ(actual, expected, name)                                                       \
	({                                                                                         \
		const char *__a = (actual), *__e = (expected);                                     \
		(__a && __e && !strcmp(__a, __e))                                                  \
			? true                                                                     \
			: UNIT_FAIL(name, "actual \"%s\" != expected \"%s\"",                      \
				    __a ? __a : "(null)", __e ? __e : "(null)");                   \
	})

#define ASSERT_HAS_SUBSTR(str, sub, name)                                                          \
	({                                                                                         \
		const char *__s = (str), *__u = (sub);                                             \
		(__s && strstr(__s, __u)) ? true                                                   \
					  : UNIT_FAIL(name, "\"%s\" not found in \"%s\"", __u,     \
						      __s ? __s : "(null)");                       \
	})

#define UNIT_SKIP(reason) (unit_skip_reason = (reason))

#endif
