/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The part of the kernel's <kunit/test.h> that drivers/perf's KUnit
 * suites use, so the host runs them as programs (under ASan and UBSan):
 * TAP, one "ok"/"not ok" line a case after the failed expectations as
 * "# " lines, and exit 1 if any failed.
 * The kernel runs the same file (CONFIG_RISCV_PMU_CTR_KUNIT_TEST).
 */
#ifndef RVCTR_SHIM_KUNIT_TEST_H
#define RVCTR_SHIM_KUNIT_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

struct kunit {
	const char *name;
	int failed;
};

struct kunit_case {
	void (*run)(struct kunit *test);
	const char *name;
};

struct kunit_suite {
	const char *name;
	struct kunit_case *test_cases;
};

#define KUNIT_CASE(fn)	{ .run = fn, .name = #fn }

/*
 * Each operand keeps its own type, so the comparison converts as the
 * kernel's KUNIT_BASE_BINARY_ASSERTION does (a u64 never compares as
 * signed).  An ASSERT returns from the function it is in, so the suites
 * use it in case bodies only, as KUnit's does when it aborts the case.
 */
#define KUNIT_CHECK_(test, a, op, b, fatal, msg) do {				\
	const __typeof__(a) a_ = (a);						\
	const __typeof__(b) b_ = (b);						\
	if (!(a_ op b_)) {							\
		printf("# %s: %s:%d: expected %s %s %s, got %#llx and %#llx\n", \
		       (test)->name, __FILE__, __LINE__, #a, #op, #b,		\
		       (unsigned long long)a_, (unsigned long long)b_);		\
		msg;								\
		(test)->failed = 1;						\
		if (fatal)							\
			return;							\
	}									\
} while (0)

#define KUNIT_EXPECT_EQ(t, a, b)	KUNIT_CHECK_(t, a, ==, b, 0, )
#define KUNIT_EXPECT_EQ_MSG(t, a, b, fmt, ...)					\
	KUNIT_CHECK_(t, a, ==, b, 0, printf("# " fmt "\n", ##__VA_ARGS__))
#define KUNIT_EXPECT_TRUE(t, c)		KUNIT_CHECK_(t, !!(c), ==, 1, 0, )
#define KUNIT_EXPECT_FALSE(t, c)	KUNIT_CHECK_(t, !!(c), ==, 0, 0, )
#define KUNIT_ASSERT_LT(t, a, b)	KUNIT_CHECK_(t, a, <, b, 1, )
#define KUNIT_EXPECT_GE(t, a, b)	KUNIT_CHECK_(t, a, >=, b, 0, )
#define KUNIT_ASSERT_EQ_MSG(t, a, b, fmt, ...)					\
	KUNIT_CHECK_(t, a, ==, b, 1, printf("# " fmt "\n", ##__VA_ARGS__))
#define KUNIT_ASSERT_GE_MSG(t, a, b, fmt, ...)					\
	KUNIT_CHECK_(t, a, >=, b, 1, printf("# " fmt "\n", ##__VA_ARGS__))

/* Strings compare by content, as KUNIT_BINARY_STR_ASSERTION does. */
#define KUNIT_EXPECT_STREQ_MSG(test, a, b, fmt, ...) do {			\
	const char *a_ = (a), *b_ = (b);					\
	if (strcmp(a_, b_)) {							\
		printf("# %s: %s:%d: expected %s == %s, got \"%s\" and \"%s\"\n", \
		       (test)->name, __FILE__, __LINE__, #a, #b, a_, b_);	\
		printf("# " fmt "\n", ##__VA_ARGS__);				\
		(test)->failed = 1;						\
	}									\
} while (0)
#define KUNIT_EXPECT_STREQ(t, a, b)	KUNIT_EXPECT_STREQ_MSG(t, a, b, "%s", "")

static inline int kunit_shim_run_(struct kunit_suite *s)
{
	struct kunit_case *c;
	int n = 0, bad = 0;

	for (c = s->test_cases; c->run; c++)
		n++;
	printf("TAP version 13\n# suite %s\n1..%d\n", s->name, n);
	for (n = 0, c = s->test_cases; c->run; c++) {
		struct kunit t = { .name = c->name };

		c->run(&t);
		printf("%sok %d - %s\n", t.failed ? "not " : "", ++n, c->name);
		bad |= t.failed;
	}
	return bad;
}

#define kunit_test_suite(s)						\
	int main(void) { return kunit_shim_run_(&(s)); }

#define MODULE_DESCRIPTION(s)
#define MODULE_LICENSE(s)
#define MODULE_IMPORT_NS(s)

#endif /* RVCTR_SHIM_KUNIT_TEST_H */
