// SPDX-License-Identifier: GPL-2.0-only
/*
 * User-space counter access, as riscv_pmu_sbi offers it through
 * kernel.perf_user_access (Documentation/admin-guide/sysctl/kernel.rst):
 * 1 (the default) lets a task read the counter of an event it mmapped
 * and nothing else, 2 opens cycle and instret to everyone, 0 closes all.
 * Without the driver's scounteren handling every task can read cycle and
 * instret (OpenSBI sets scounteren to 7), a timing side channel.
 */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"
#include "pmu_test_lib.h"
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#define SYSCTL "/proc/sys/kernel/perf_user_access"

static int sysctl_get(void)
{
	return pmu_sysctl_get(SYSCTL);
}

static int sysctl_set(int v)
{
	return pmu_sysctl_set(SYSCTL, v);
}

/* Does rdcycle (rdinstret) fault in a child?  1 faults, 0 reads, -1 error. */
static int faults(int instret)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -1;
	if (!pid) {
		unsigned long v;

		signal(SIGILL, SIG_DFL);
		if (instret)
			asm volatile("rdinstret %0" : "=r"(v));
		else
			asm volatile("rdcycle %0" : "=r"(v));
		(void)v;
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGILL)
		return 1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* The event's count as perf_event_mmap_page documents the self-read. */
static uint64_t read_self(volatile struct perf_event_mmap_page *pc)
{
	uint32_t seq, idx, width;
	uint64_t count;
	int64_t pmc;

	do {
		seq = pc->lock;
		__sync_synchronize();
		idx = pc->index;
		count = pc->offset;
		width = pc->pmc_width;
		if (pc->cap_user_rdpmc && idx) {
			pmc = pmu_read_hpm(idx - 1);
			pmc <<= 64 - width;
			pmc >>= 64 - width;
			count += pmc;
		}
		__sync_synchronize();
	} while (pc->lock != seq);
	return count;
}

FIXTURE(ua) {
	int saved;
	int fd;
	void *page;
};

FIXTURE_SETUP(ua)
{
	self->fd = -1;
	self->page = MAP_FAILED;
	self->saved = sysctl_get();
	ASSERT_NE(-1, self->saved) TH_LOG("no %s", SYSCTL);
	ASSERT_EQ(0, pmu_pin_here());
}

FIXTURE_TEARDOWN(ua)
{
	if (self->page != MAP_FAILED)
		munmap(self->page, getpagesize());
	if (self->fd >= 0)
		close(self->fd);
	if (self->saved >= 0)
		sysctl_set(self->saved);
}

/* Open @config for this task and mmap its user page. */
static int open_mapped(struct __test_metadata *_metadata, FIXTURE_DATA(ua) *self,
		       uint64_t config)
{
	struct perf_event_attr attr;

	pmu_attr(&attr, PERF_TYPE_HARDWARE, config);
	attr.disabled = 0;
	attr.read_format = 0;
	/* As perf opens every event (event_attr_init()). */
	attr.exclude_guest = 1;
	self->fd = pmu_open(&attr, 0, -1, -1);
	if (self->fd < 0)
		return -1;
	self->page = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, self->fd, 0);
	return self->page == MAP_FAILED ? -1 : 0;
}

/* Stock's default: 1. */
TEST_F(ua, default_is_1)
{
	ASSERT_EQ(1, self->saved);
}

/* Mode 1: no event, no access to cycle or instret. */
TEST_F(ua, mode1_closes_cycle_and_instret)
{
	ASSERT_EQ(0, sysctl_set(1));
	EXPECT_EQ(1, faults(0));
	EXPECT_EQ(1, faults(1));
}

/*
 * Mode 1: an mmapped event is readable from user space, its count agrees
 * with read(), and grows with the work between two self-reads.
 */
static void check_self_read(struct __test_metadata *_metadata,
			    FIXTURE_DATA(ua) *self, uint64_t config)
{
	volatile struct perf_event_mmap_page *pc;
	uint64_t a, b, k;

	ASSERT_EQ(0, sysctl_set(1));
	ASSERT_EQ(0, open_mapped(_metadata, self, config))
		TH_LOG("open/mmap: %s", strerror(errno));
	pc = self->page;
	ASSERT_EQ(1, (int)pc->cap_user_rdpmc);
	ASSERT_NE(0, pc->index);
	ASSERT_LE(32, pc->pmc_width);
	a = read_self(pc);
	pmu_loop(1000000);
	b = read_self(pc);
	ASSERT_EQ(sizeof(k), read(self->fd, &k, sizeof(k)));
	TH_LOG("index %u width %u: %llu then %llu, read() %llu", pc->index,
	       pc->pmc_width, (unsigned long long)a, (unsigned long long)b,
	       (unsigned long long)k);
	/* 2e6 instructions at least; cycles follow them in QEMU. */
	EXPECT_LT(a + 2000000 - 1, b);
	EXPECT_LE(b, k);
	EXPECT_LT(k - b, 1000000);
}

TEST_F(ua, mode1_mmapped_instructions_readable)
{
	check_self_read(_metadata, self, PERF_COUNT_HW_INSTRUCTIONS);
}

TEST_F(ua, mode1_mmapped_cycles_readable)
{
	check_self_read(_metadata, self, PERF_COUNT_HW_CPU_CYCLES);
}

/*
 * A sampling event overflows and restarts from a new period while the
 * task reads it from user space: the user page must follow each reload,
 * or the self-read is off by about a period per overflow.
 */
TEST_F(ua, mode1_sampling_event_self_read_follows_overflows)
{
	volatile struct perf_event_mmap_page *pc;
	struct perf_event_attr attr;
	uint64_t a, b, k;

	ASSERT_EQ(0, sysctl_set(1));
	pmu_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.disabled = 0;
	attr.read_format = 0;
	attr.exclude_guest = 1;
	attr.sample_period = 100003;
	self->fd = pmu_open(&attr, 0, -1, -1);
	if (self->fd < 0 && errno == EOPNOTSUPP)
		SKIP(return, "no overflow interrupt (Sscofpmf): no sampling");
	ASSERT_LE(0, self->fd) TH_LOG("open: %s", strerror(errno));
	self->page = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, self->page);
	pc = self->page;
	ASSERT_EQ(1, (int)pc->cap_user_rdpmc);
	ASSERT_NE(0, pc->index);
	a = read_self(pc);
	pmu_loop(1000000);
	b = read_self(pc);
	ASSERT_EQ(sizeof(k), read(self->fd, &k, sizeof(k)));
	TH_LOG("period %llu: %llu then %llu, read() %llu",
	       (unsigned long long)attr.sample_period, (unsigned long long)a,
	       (unsigned long long)b, (unsigned long long)k);
	/* 2e6 instructions: about 20 overflows between the two reads. */
	EXPECT_LT(a + 2000000 - 1, b);
	EXPECT_LE(b, k);
	EXPECT_LT(k - b, 100000);
}

static sigjmp_buf ill_jmp;

static void on_sigill(int sig)
{
	siglongjmp(ill_jmp, 1);
}

/* Does reading counter @n fault in this task?  1 faults, 0 reads. */
static int self_faults(unsigned int n)
{
	struct sigaction sa = { .sa_handler = on_sigill }, old;
	volatile int faulted = 0;

	sigaction(SIGILL, &sa, &old);
	if (sigsetjmp(ill_jmp, 1))
		faulted = 1;
	else
		pmu_read_hpm(n);
	sigaction(SIGILL, &old, NULL);
	return faulted;
}

/*
 * The access goes with the event and its task: another task cannot read
 * the counter, and once unmapped the task itself cannot either.
 */
TEST_F(ua, mode1_only_while_mapped_and_only_the_owner)
{
	volatile struct perf_event_mmap_page *pc;
	unsigned int idx;
	pid_t pid;
	int status;

	ASSERT_EQ(0, sysctl_set(1));
	ASSERT_EQ(0, open_mapped(_metadata, self, PERF_COUNT_HW_INSTRUCTIONS));
	pc = self->page;
	idx = pc->index;
	ASSERT_NE(0, idx);
	EXPECT_EQ(0, self_faults(idx - 1));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		signal(SIGILL, SIG_DFL);
		pmu_read_hpm(idx - 1);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGILL);
	munmap(self->page, getpagesize());
	self->page = MAP_FAILED;
	EXPECT_EQ(1, self_faults(idx - 1));
}

/*
 * A CPU-wide event is never readable from user space: its counter would
 * be open to every task that runs on the CPU.  rvctr's rule: stock
 * riscv_pmu_sbi (the series kernel) opens it to the CPUs of the task
 * that mmapped it, as it does a task's own event.
 */
TEST_F(ua, mode1_cpu_wide_event_not_readable)
{
	volatile struct perf_event_mmap_page *pc;
	struct perf_event_attr attr;

	if (!pmu_is_rvctr())
		SKIP(return, "rvctr only: riscv_pmu_sbi lets the mapping task read a CPU-wide event");
	ASSERT_EQ(0, sysctl_set(1));
	pmu_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.disabled = 0;
	attr.read_format = 0;
	self->fd = pmu_open(&attr, -1, sched_getcpu(), -1);
	ASSERT_LE(0, self->fd) TH_LOG("cpu-wide: %s", strerror(errno));
	self->page = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, self->page);
	pc = self->page;
	EXPECT_EQ(0, (int)pc->cap_user_rdpmc);
	EXPECT_EQ(0, pc->index);
}

/* Mode 2: cycle and instret are open to every task, as firmware left them. */
TEST_F(ua, mode2_legacy_opens_cycle_and_instret)
{
	ASSERT_EQ(0, sysctl_set(2));
	EXPECT_EQ(0, faults(0));
	EXPECT_EQ(0, faults(1));
}

/* Mode 2: a cycles event sits on cycle and the page says so. */
TEST_F(ua, mode2_cycles_event_on_cycle)
{
	volatile struct perf_event_mmap_page *pc;

	ASSERT_EQ(0, sysctl_set(2));
	ASSERT_EQ(0, open_mapped(_metadata, self, PERF_COUNT_HW_CPU_CYCLES));
	pc = self->page;
	ASSERT_EQ(1, (int)pc->cap_user_rdpmc);
	ASSERT_EQ(1, pc->index);
}

/* Mode 0: nothing, and the page says the counter cannot be read. */
TEST_F(ua, mode0_closes_everything)
{
	volatile struct perf_event_mmap_page *pc;

	ASSERT_EQ(0, sysctl_set(0));
	EXPECT_EQ(1, faults(0));
	EXPECT_EQ(1, faults(1));
	ASSERT_EQ(0, open_mapped(_metadata, self, PERF_COUNT_HW_INSTRUCTIONS));
	pc = self->page;
	EXPECT_EQ(0, (int)pc->cap_user_rdpmc);
	EXPECT_EQ(0, pc->index);
}

/* Out-of-range values are refused, as by stock (0..2). */
TEST_F(ua, rejects_3)
{
	EXPECT_EQ(-1, sysctl_set(3));
	EXPECT_EQ(self->saved, sysctl_get());
}

TEST_HARNESS_MAIN
