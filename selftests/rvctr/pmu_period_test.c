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
#include <sys/syscall.h>

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

/*
 * A user-only sampling counter that is at every value of the last few
 * hundred before its overflow when the task enters the kernel: trial
 * (n, odd) runs 2n + odd user instructions between the enabling ioctl
 * and a getppid(), so over the sweep the syscall lands on each counter
 * value near the overflow, all-ones included, and some trials overflow
 * in user mode first.  Under --icount every trial's count is c + 2n + odd
 * for one constant c, the user-mode instructions of the ioctls and
 * getppid() (a timer tick that lands in a trial moves a few instructions
 * between modes in QEMU's accounting, so 2 trials may be off); without
 * it QEMU counts host time and only the sweep's completion is checked.
 * The --icount pass runs on a one-hart board: with a second hart busy,
 * this sweep stopped the board for good at the all-ones trial, and each
 * hart's instret also counted the other hart's instructions
 * (Documentation/bench.rst, "One hart under -icount").
 */
#define SWEEP_PERIOD	1000
#define SWEEP_FIRST	250
#define SWEEP_SPAN	270

TEST(kernel_entry_at_every_counter_value)
{
	struct perf_event_attr attr;
	int n, odd, fd, off = 0;
	struct pmu_value v;
	int64_t c = -1, d;

	ASSERT_EQ(0, pmu_pin_here());
	pmu_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.sample_period = SWEEP_PERIOD;
	for (n = SWEEP_FIRST; n < SWEEP_FIRST + SWEEP_SPAN; n++) {
		for (odd = 0; odd < 2; odd++) {
			fd = pmu_open(&attr, 0, -1, -1);
			ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
			ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
			pmu_loop(n);
			if (odd)
				asm volatile("nop");
			syscall(__NR_getppid);
			ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
			ASSERT_EQ(0, pmu_read(fd, &v));
			close(fd);
			if (!pmu_icount())
				continue;
			ASSERT_LE(2 * n + odd, v.count);
			d = v.count - (2 * n + odd);
			if (c < 0)
				c = d;
			if (d != c) {
				off++;
				TH_LOG("n %d%s: count %llu, %lld off", n,
				       odd ? " + 1" : "",
				       (unsigned long long)v.count,
				       (long long)(d - c));
			}
		}
	}
	if (!pmu_icount())
		return;
	TH_LOG("user instructions around the loop: %lld; %d of %d trials off",
	       (long long)c, off, 2 * SWEEP_SPAN);
	EXPECT_GE(2, off);
}

TEST_HARNESS_MAIN
