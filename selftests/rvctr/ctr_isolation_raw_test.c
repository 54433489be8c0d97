// SPDX-License-Identifier: GPL-2.0-only
/*
 * The module's half of ctr_isolation_test's
 * task_event_joining_cpu_event_sees_no_other_task: the buffer itself,
 * right after a task event joined a CPU-wide one mid-slice, read through
 * the module's debugfs raw snapshot (what a sample taken then would
 * hold), must hold nothing of the task that ran before.  The samples
 * alone (ctr_isolation_test, which the upstream series carries) miss a
 * leak that is overwritten before the first overflow.  Skips without
 * the module's debugfs file.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/wait.h>

#include "kselftest_harness.h"
#include "ctr_module_lib.h"

static long sink;

/* The rival's loop, at an address of its own. */
static noinline __aligned(64) void loop_b(long n)
{
	long i;

	for (i = 0; i < n; i++)
		if (i & 2)
			WRITE_ONCE(sink, READ_ONCE(sink) - 1);
}

static void pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void rival(int req, int done)
{
	char c;

	pin_cpu0();
	while (read(req, &c, 1) == 1 && c != 'q') {
		loop_b(200000);
		if (write(done, &c, 1) != 1)
			break;
	}
	_exit(0);
}

TEST(task_event_joining_cpu_event_buffer_holds_no_other_task)
{
	int req[2], done[2], cpu_fd, round, st, raw, theirs = 0, len;
	static char snap[32768];
	struct perf_event_attr a;
	struct ct_event ev;
	pid_t pid;
	char c;

	if (!ct_have_ctr())
		SKIP(return, "no CTR");
	if (geteuid())
		SKIP(return, "needs root for a CPU-wide event and debugfs");
	if (access(CT_RAW_CTR, R_OK))
		SKIP(return, "no %s: not the rvctr module", CT_RAW_CTR);
	pin_cpu0();
	ASSERT_EQ(0, ct_open(&ev, PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER, 0,
			     10007));
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	a.sample_period = 1ULL << 40;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.pinned = 1;
	cpu_fd = syscall(SYS_perf_event_open, &a, -1, 0, -1, 0);
	ASSERT_LE(0, cpu_fd) TH_LOG("CPU-wide perf_event_open: %s", strerror(errno));
	ASSERT_EQ(0, pipe(req));
	ASSERT_EQ(0, pipe(done));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(cpu_fd);
		munmap(ev.ring, ev.ring_len);
		close(ev.fd);
		close(req[1]);
		close(done[0]);
		rival(req[0], done[1]);
	}
	close(req[0]);
	close(done[1]);
	for (round = 0; round < 20; round++) {
		ASSERT_EQ(1, write(req[1], "r", 1));
		ASSERT_EQ(1, read(done[0], &c, 1));
		ioctl(ev.fd, PERF_EVENT_IOC_ENABLE, 0);
		/* Read now, parsed later: parsing takes many branches. */
		len = ct_raw_snapshot(snap, sizeof(snap));
		ioctl(ev.fd, PERF_EVENT_IOC_DISABLE, 0);
		ASSERT_LT(0, len);
		raw = ct_raw_records_in(snap, (uintptr_t)loop_b, (uintptr_t)loop_b + 64);
		if (raw && !theirs)
			TH_LOG("round %d: %d records of the rival's loop in CTR after the enable",
			       round, raw);
		theirs += raw;
	}
	ASSERT_EQ(1, write(req[1], "q", 1));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	close(cpu_fd);
	ct_close(&ev);
	TH_LOG("CTR after the enables: %d records of the rival's loop in all", theirs);
	EXPECT_EQ(0, theirs);
}

TEST_HARNESS_MAIN
