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
 *
 * Where such an interrupt is taken all the same (riscv_pmu_sbi, which
 * does not take the pending LCOFIP back in pmu->del), the handler stops
 * every counter of the hart before it reads the overflow status; finding
 * no overflow, it must start them again.  The second test keeps a pinned
 * CPU-wide sampling event on the hart through the same sweep and asserts
 * that it still samples afterwards: an interrupt that found no overflow
 * used to leave its counter stopped for good.  It needs no CTR and no
 * debugfs, so it runs on the series kernel too.
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

/*
 * The counter overflow interrupts CPU 0 took so far (rvctr's, or
 * riscv_pmu_sbi's "riscv-pmu"), -1 if none is listed.
 */
static long lcofi_count(void)
{
	char line[1024];
	FILE *f = fopen("/proc/interrupts", "r");
	long n = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if ((strstr(line, "rvctr") || strstr(line, "riscv-pmu")) &&
		    sscanf(line, "%*s %ld", &n) != 1)
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

/* 2 * n user instructions: addi + bnez per iteration. */
static void user_loop(unsigned long n)
{
	asm volatile("1:	addi %0, %0, -1\n"
		     "	bnez %0, 1b\n" : "+r"(n));
}

#define OTHER_PERIOD	100000	/* user cycles per sample of the other event */
#define OTHER_LOOP	1000000	/* 2M user instructions: about 20 samples */

/* cycles:u on CPU 0, pinned, sampling: the event that must live on. */
static int open_other(void **ring, size_t len)
{
	struct perf_event_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	a.sample_period = OTHER_PERIOD;
	a.sample_type = PERF_SAMPLE_IP;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.pinned = 1;
	fd = syscall(SYS_perf_event_open, &a, -1, 0, -1, 0);
	if (fd < 0)
		return -1;
	*ring = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (*ring == MAP_FAILED) {
		close(fd);
		return -1;
	}
	return fd;
}

TEST(spurious_interrupt_stops_no_other_event)
{
	long lcofi, samples, irqs, got, count, before, after, best = -1;
	int other_fd, fd, i, window = 0, spurious = 0;
	size_t len = (PAGES + 1) * getpagesize();
	void *other_ring, *ring;
	uint64_t p;

	if (geteuid())
		SKIP(return, "needs root: CPU-wide event");
	pin_cpu0();
	lcofi = lcofi_count();
	if (lcofi < 0)
		SKIP(return, "no counter overflow interrupt in /proc/interrupts");

	/*
	 * The other event samples before the sweep.  QEMU 10.0.2 loses the
	 * overflows of a counter last started near 2^63 by a counting event
	 * (it keeps what its overflow timer could not reach past INT64_MAX
	 * until the next expiry, which re-arms instead of interrupting); a
	 * second start after that expiry samples.
	 */
	other_fd = open_other(&other_ring, len);
	ASSERT_LE(0, other_fd) TH_LOG("cycles:u on CPU 0: %s", strerror(errno));
	user_loop(OTHER_LOOP);
	before = new_samples(other_ring);
	if (!before) {
		munmap(other_ring, len);
		close(other_fd);
		other_fd = open_other(&other_ring, len);
		ASSERT_LE(0, other_fd) TH_LOG("cycles:u on CPU 0: %s", strerror(errno));
		user_loop(OTHER_LOOP);
		before = new_samples(other_ring);
	}
	ASSERT_LT(0, before) TH_LOG("cycles:u on CPU 0 took no sample even before the sweep");

	/* User and kernel instructions of this task, sampling. */
	fd = open_event(PERF_COUNT_HW_INSTRUCTIONS, -1, 0, 1ULL << 40);
	ASSERT_LE(0, fd) TH_LOG("perf_event_open: %s", strerror(errno));
	ring = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, ring);
	for (i = 0; i < 8; i++) {
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
		ASSERT_EQ(sizeof(count), read(fd, &count, sizeof(count)));
		if (best < 0 || count < best)
			best = count;
	}
	ASSERT_LT(0, best);

	/*
	 * The overflows inside the disable come from periods near what one
	 * pair counts; periods far below it only add samples, and at a
	 * period of a few instructions riscv_pmu_sbi takes an interrupt
	 * every few instructions: its handler starts throttled counters
	 * again.
	 */
	new_samples(ring);
	lcofi = lcofi_count();
	for (p = best / 2; p <= (uint64_t)best + 64; p++) {
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &p));
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
		ASSERT_EQ(sizeof(count), read(fd, &count, sizeof(count)));
		samples = new_samples(ring);
		got = lcofi_count();
		irqs = got - lcofi;
		lcofi = got;
		if ((uint64_t)count < p || samples)
			continue;
		window++;
		spurious += irqs > 0;
	}
	munmap(ring, len);
	close(fd);

	new_samples(other_ring);
	user_loop(OTHER_LOOP);
	after = new_samples(other_ring);
	TH_LOG("%d trials overflowed inside the disable, %d took an interrupt; "
	       "cycles:u on CPU 0: %ld samples before, %ld after",
	       window, spurious, before, after);
	munmap(other_ring, len);
	close(other_fd);
	if (!window)
		SKIP(return, "no trial overflowed inside the disable");
	/* The same loop, the same period: about as many samples. */
	EXPECT_LE(before / 2, after);
	EXPECT_LT(0, after);
}

TEST_HARNESS_MAIN
