// SPDX-License-Identifier: GPL-2.0-only
/*
 * Counting: instructions:u over a loop of N iterations of two instructions
 * grows by exactly 2 per iteration, with a constant overhead (the
 * smallest of several runs: see pmu_min_count()), on the
 * programmable counters (SBI or delegated, whichever the driver picked).
 * Exact only where instret counts instructions: under the runner's
 * --icount pass (RVCTR_ICOUNT=1) a mismatch fails; without it QEMU counts
 * host ticks and the exact checks SKIP, the sanity checks still run.
 */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"
#include "pmu_test_lib.h"

#define N1	100000UL
#define N2	300000UL
#define REPS	7

FIXTURE(count) {
	int fd;
};

FIXTURE_SETUP(count)
{
	struct perf_event_attr attr;

	pmu_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	self->fd = pmu_open(&attr, 0, -1, -1);
	ASSERT_LE(0, self->fd) TH_LOG("instructions:u: %s", strerror(errno));
}

FIXTURE_TEARDOWN(count)
{
	close(self->fd);
}

/*
 * Counts are positive and grow with the work.  Without -icount QEMU
 * counts host time, and a busy host once gave 8.1M for N1 and 8.0M for
 * 3 * N1, so the larger run does thirty times the work.
 */
TEST_F(count, grows_with_work)
{
	int64_t a = pmu_count_loop(self->fd, N1);
	int64_t b = pmu_count_loop(self->fd, 30 * N1);

	ASSERT_LT(0, a);
	ASSERT_LT(a, b);
	TH_LOG("N=%lu: %lld, N=%lu: %lld", N1, (long long)a, 30 * N1, (long long)b);
}

/* Exactly 2 per iteration, and the same overhead every time. */
TEST_F(count, exact_under_icount)
{
	int64_t a = pmu_min_count(self->fd, N1, REPS);
	int64_t b = pmu_min_count(self->fd, N2, REPS);
	int64_t c = pmu_min_count(self->fd, N1, REPS);

	if (!pmu_icount())
		SKIP(return, "instret counts host ticks without --icount");
	EXPECT_EQ(2 * (N2 - N1), b - a);
	EXPECT_EQ(a, c);
	EXPECT_GT(200, a - 2 * (int64_t)N1) TH_LOG("overhead %lld",
						   (long long)(a - 2 * N1));
	TH_LOG("2N + %lld instructions:u", (long long)(a - 2 * N1));
}

/* The same with the cycle counter under icount: 1 cycle per instruction. */
TEST(cycles_match_instructions_under_icount)
{
	struct perf_event_attr attr;
	int64_t i, c;
	int fd;

	if (!pmu_icount())
		SKIP(return, "cycles are host ticks without --icount");
	pmu_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	attr.exclude_kernel = 1;
	fd = pmu_open(&attr, 0, -1, -1);
	ASSERT_LE(0, fd);
	c = pmu_min_count(fd, N2, REPS) - pmu_min_count(fd, N1, REPS);
	close(fd);
	pmu_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.exclude_kernel = 1;
	fd = pmu_open(&attr, 0, -1, -1);
	ASSERT_LE(0, fd);
	i = pmu_min_count(fd, N2, REPS) - pmu_min_count(fd, N1, REPS);
	close(fd);
	EXPECT_EQ(i, c);
}

TEST_HARNESS_MAIN
