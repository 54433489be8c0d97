// SPDX-License-Identifier: GPL-2.0-only
/*
 * A counter that overflows with interrupts off, and whose event is
 * removed before they are back on, must not leave an overflow interrupt
 * behind: taken, it would find no overflow of its own, and
 * sctrctl.LCOFIFRZ would freeze CTR on the way in (CTR v1.0 "Freeze")
 * for a sample that never comes.  pmu->del takes back the pending LCOFIP
 * when no other overflow is pending; the handler's spurious path, which
 * thaws CTR again, stays as a backstop.
 *
 * Here the task disables a sampling event that counts the kernel too,
 * and the disable runs its pmu->del() with interrupts off
 * (smp_call_function_single() on the task's own CPU).  The period is
 * swept across the instructions one enable/disable pair counts, so some
 * trials overflow inside that window: their count reaches the period
 * but they have no sample.  Those trials must take no overflow interrupt
 * (before the fix, 474 of 475 did), and a CPU-wide branch-stack event
 * keeping CTR in use on the CPU must find it recording after each
 * (/sys/kernel/debug/rvctr/ctr, FROZEN in its first line).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>

/* kselftest_harness.h is not -Wextra clean */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include "kselftest_harness.h"
#include "ctr_module_lib.h"

#define RAW_CTR		"/sys/kernel/debug/rvctr/ctr"
#define PAGES		16
#define SWEEP_BELOW	3000	/* periods swept below one pair's count */

static void pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* The rvctr overflow interrupts CPU 0 took so far, -1 if none is listed. */
static long lcofi_count(void)
{
	char line[1024];
	FILE *f = fopen("/proc/interrupts", "r");
	long n = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "rvctr") && sscanf(line, "%*s %ld", &n) != 1)
			n = -1;
	fclose(f);
	return n;
}

/* Samples added to the ring since the last call (consumes them). */
static long new_samples(void *ring)
{
	struct perf_event_mmap_page *mp = ring;
	const char *data = (const char *)ring + mp->data_offset;
	uint64_t size = mp->data_size, tail = mp->data_tail, head;
	struct perf_event_header h;
	long n = 0;

	head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	while (tail < head) {
		ct_copy(&h, data, size, tail, sizeof(h));
		n += h.type == PERF_RECORD_SAMPLE;
		tail += h.size;
	}
	__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
	return n;
}

/* sctrstatus of this CPU as /sys/kernel/debug/rvctr/ctr shows it, or -1. */
static long long raw_status(void)
{
	char buf[128];
	long long st;
	int fd = open(RAW_CTR, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return sscanf(buf, "sctrstatus %llx", &st) == 1 ? st : -1;
}

static int open_event(uint64_t config, int cpu, uint64_t bst, uint64_t period)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = config;
	a.sample_period = period;
	a.sample_type = PERF_SAMPLE_IP;
	if (bst) {
		a.sample_type |= PERF_SAMPLE_BRANCH_STACK;
		a.branch_sample_type = bst;
		a.exclude_kernel = 1;
		a.pinned = 1;
	} else {
		a.disabled = 1;
	}
	a.exclude_hv = 1;
	return syscall(SYS_perf_event_open, &a, cpu < 0 ? 0 : -1, cpu, -1, 0);
}

TEST(overflow_inside_a_disable_leaves_no_interrupt)
{
	long lcofi, samples, irqs, got, count, best = -1;
	int cpu_fd, fd, i, window = 0, spurious = 0, frozen = 0;
	long long st;
	uint64_t p;
	size_t len;
	void *ring;

	if (!ct_have_ctr())
		SKIP(return, "no CTR");
	if (geteuid())
		SKIP(return, "needs root: CPU-wide event, debugfs");
	if (access(RAW_CTR, R_OK))
		SKIP(return, "no " RAW_CTR);
	pin_cpu0();
	/* CTR stays in use on CPU 0; cycles, so QEMU counts it beside instructions. */
	cpu_fd = open_event(PERF_COUNT_HW_CPU_CYCLES, 0,
			    PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER,
			    1ULL << 40);
	ASSERT_LE(0, cpu_fd) TH_LOG("CPU-wide event: %s", strerror(errno));
	st = raw_status();
	ASSERT_LE(0, st);
	ASSERT_EQ(0, st & SCTRSTATUS_FROZEN);

	/* User and kernel instructions of this task, sampling. */
	fd = open_event(PERF_COUNT_HW_INSTRUCTIONS, -1, 0, 1ULL << 40);
	ASSERT_LE(0, fd) TH_LOG("perf_event_open: %s", strerror(errno));
	len = (PAGES + 1) * getpagesize();
	ring = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, ring);

	/* What one enable/disable pair counts: the overflow must land in it. */
	for (i = 0; i < 8; i++) {
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
		ASSERT_EQ(sizeof(count), read(fd, &count, sizeof(count)));
		if (best < 0 || count < best)
			best = count;
	}
	TH_LOG("an enable/disable pair counts %ld instructions", best);
	ASSERT_LT(0, best);

	new_samples(ring);
	lcofi = lcofi_count();
	ASSERT_LE(0, lcofi);
	for (p = best > SWEEP_BELOW ? best - SWEEP_BELOW : 1; p <= (uint64_t)best + 64; p++) {
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &p));
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
		ASSERT_EQ(sizeof(count), read(fd, &count, sizeof(count)));
		samples = new_samples(ring);
		got = lcofi_count();
		irqs = got - lcofi;
		lcofi = got;
		/* Overflowed, and no sample: inside the disable. */
		if ((uint64_t)count < p || samples)
			continue;
		window++;
		if (irqs > 0) {
			if (!spurious)
				TH_LOG("period %llu: %ld interrupts for an overflow in the disable",
				       (unsigned long long)p, irqs);
			spurious++;
		}
		st = raw_status();
		ASSERT_LE(0, st);
		if (st & SCTRSTATUS_FROZEN) {
			if (!frozen)
				TH_LOG("period %llu: sctrstatus %#llx after the trial",
				       (unsigned long long)p, st);
			frozen++;
		}
	}
	TH_LOG("%d trials overflowed inside the disable: %d took an interrupt, %d left CTR frozen",
	       window, spurious, frozen);
	munmap(ring, len);
	close(fd);
	close(cpu_fd);
	if (!window)
		SKIP(return, "no trial overflowed inside the disable");
	EXPECT_EQ(0, spurious);
	EXPECT_EQ(0, frozen);
}

TEST_HARNESS_MAIN
