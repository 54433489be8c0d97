/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Minimal TAP test macros for host unit tests, in the spirit of
 * tools/lib/perf/tests/tests.h: each TEST_* prints one "ok"/"not ok" line,
 * and tests_done() prints the plan and returns the exit status.
 */
#ifndef RVCTR_TESTS_H
#define RVCTR_TESTS_H

#include <stdio.h>
#include <string.h>
#include <inttypes.h>

static int tests_run, tests_failed;

#define __T_REPORT(ok, fmt, ...)					\
	do {								\
		tests_run++;						\
		if (!(ok))						\
			tests_failed++;					\
		printf("%sok %d - " fmt "\n", (ok) ? "" : "not ",	\
		       tests_run, ##__VA_ARGS__);			\
	} while (0)

/* Assert a condition; the text of the condition names the test. */
#define T_OK(cond, name)						\
	do {								\
		int __ok = !!(cond);					\
		__T_REPORT(__ok, "%s", name);				\
		if (!__ok)						\
			printf("# %s:%d: failed: %s\n", __FILE__,	\
			       __LINE__, #cond);			\
	} while (0)

/* Assert two unsigned values are equal, printing both on failure. */
#define T_EQ(got, want, name)						\
	do {								\
		uint64_t __g = (uint64_t)(got), __w = (uint64_t)(want);	\
		__T_REPORT(__g == __w, "%s", name);			\
		if (__g != __w)						\
			printf("# %s:%d: %s = %#" PRIx64 ", want %#"	\
			       PRIx64 "\n", __FILE__, __LINE__, #got,	\
			       __g, __w);				\
	} while (0)

#define T_STREQ(got, want, name)					\
	do {								\
		const char *__g = (got), *__w = (want);			\
		int __ok = __g && __w && !strcmp(__g, __w);		\
		__T_REPORT(__ok, "%s", name);				\
		if (!__ok)						\
			printf("# %s:%d: %s = \"%s\", want \"%s\"\n",	\
			       __FILE__, __LINE__, #got,		\
			       __g ? __g : "(null)", __w ? __w : "(null)"); \
	} while (0)

static inline int tests_done(void)
{
	printf("1..%d\n", tests_run);
	return tests_failed ? 1 : 0;
}

#endif /* RVCTR_TESTS_H */
