// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sampling period accuracy: with sample_period P, the number of samples
 * is the event's count divided by P (give or take one): the driver
 * reloads the counter with -P after every overflow.  Under --icount the
 * count itself is known, so the sample count is too.  Without --icount
 * QEMU counts host ticks but times overflows in instructions, so there
 * is no period to check: SKIP.
 */
#define _GNU_SOURCE	/* pmu_test_lib.h pins with sched_setaffinity() */
#include <poll.h>
#include <sys/mman.h>

#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"
#include "pmu_test_lib.h"

#define LOOPS		10000000UL	/* 2e7 instructions */
#define PAGES		64

/* Count PERF_RECORD_SAMPLE records in the ring buffer. */
static long count_samples(void *base)
{
	struct perf_event_mmap_page *pg = base;
	char *data = (char *)base + pg->data_offset;
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = pg->data_tail, size = pg->data_size;
	long n = 0;

	while (tail < head) {
		struct perf_event_header *h = (void *)(data + (tail % size));

		if (h->type == PERF_RECORD_SAMPLE)
			n++;
		if (!h->size)
			return -1;
		tail += h->size;
	}
	return n;
}

static void check_period(struct __test_metadata *_metadata, uint64_t config,
			 uint64_t period)
{
	struct perf_event_attr attr;
	struct pmu_value v;
	long samples;
	void *base;
	int fd;

	if (!pmu_icount())
		SKIP(return, "QEMU overflows are not in counter units without --icount");
	pmu_attr(&attr, PERF_TYPE_HARDWARE, config);
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.sample_period = period;
	attr.sample_type = PERF_SAMPLE_IP;
	fd = pmu_open(&attr, 0, -1, -1);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	base = mmap(NULL, (PAGES + 1) * getpagesize(), PROT_READ | PROT_WRITE,
		    MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, base);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pmu_loop(LOOPS);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, pmu_read(fd, &v));
	samples = count_samples(base);
	TH_LOG("period %llu: count %llu, %ld samples", (unsigned long long)period,
	       (unsigned long long)v.count, samples);
	ASSERT_LT(0, samples);
	EXPECT_GE(1, labs(samples - (long)(v.count / period)));
	if (pmu_icount())
		EXPECT_GE(1, labs(samples - (long)(2 * LOOPS / period)));
	munmap(base, (PAGES + 1) * getpagesize());
	close(fd);
}

TEST(instructions_period_100000)
{
	check_period(_metadata, PERF_COUNT_HW_INSTRUCTIONS, 100000);
}

TEST(instructions_period_1000003)
{
	check_period(_metadata, PERF_COUNT_HW_INSTRUCTIONS, 1000003);
}

TEST(cycles_period_100000)
{
	check_period(_metadata, PERF_COUNT_HW_CPU_CYCLES, 100000);
}

TEST_HARNESS_MAIN
