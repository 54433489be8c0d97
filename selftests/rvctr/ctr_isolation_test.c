// SPDX-License-Identifier: GPL-2.0-only
/*
 * Isolation: branch records never pass from one task to another (also
 * when a task event joins a CPU-wide one mid-slice), and a user without
 * privilege (perf_event_paranoid=2, uid 65534) never sees a
 * kernel address, neither in branch records nor as a sample IP.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>

/* kselftest_harness.h is not -Wextra clean */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include "kselftest_harness.h"
#include "ctr_test_lib.h"

#define PERIOD		20011
#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"

/* Accessed with READ_ONCE() and WRITE_ONCE(): no loop is folded away. */
static long sink;

/* Two loops at distinct addresses; each task runs only its own. */
static noinline __aligned(64) void loop_a(long n)
{
	long i;

	for (i = 0; i < n; i++)
		if (i & 1)
			WRITE_ONCE(sink, READ_ONCE(sink) + 1);
}

static noinline __aligned(64) void loop_b(long n)
{
	long i;

	for (i = 0; i < n; i++)
		if (i & 2)
			WRITE_ONCE(sink, READ_ONCE(sink) - 1);
}

static int in_fn(uint64_t a, void (*fn)(long))
{
	return a >= (uint64_t)fn && a < (uint64_t)fn + 64;
}

static void pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/*
 * In a child: record this task's branches while it runs @mine and the
 * other child runs the other loop on the same CPU; exit 0 if none of
 * its records touches @theirs, 2 if some do, 3 if nothing was recorded.
 */
static int record_own(void (*mine)(long), void (*theirs)(long))
{
	struct ct_event ev;
	int i, k, own = 0;

	pin_cpu0();
	if (ct_open(&ev, PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER, 0, PERIOD))
		return 4;
	ct_enable(&ev);
	mine(4000000);
	ct_disable(&ev);
	ct_read(&ev);
	for (i = 0; i < ev.nsamples; i++)
		for (k = 0; k < (int)ev.s[i].nr; k++) {
			const struct perf_branch_entry *e = &ev.s[i].br[k];

			if (in_fn(e->from, theirs) || in_fn(e->to, theirs)) {
				printf("# pid %d sees %#llx -> %#llx of the other task\n",
				       getpid(), (unsigned long long)e->from,
				       (unsigned long long)e->to);
				return 2;
			}
			own += in_fn(e->from, mine);
		}
	printf("# pid %d: %d samples, %d own records, none of the other task\n",
	       getpid(), ev.nsamples, own);
	return own ? 0 : 3;
}

TEST(two_tasks_never_see_each_other)
{
	pid_t a, b;
	int sa, sb;

	if (!ct_have_ctr())
		SKIP(return, "no CTR");
	a = fork();
	ASSERT_GE(a, 0);
	if (!a)
		_exit(record_own(loop_a, loop_b));
	b = fork();
	ASSERT_GE(b, 0);
	if (!b)
		_exit(record_own(loop_b, loop_a));
	ASSERT_EQ(a, waitpid(a, &sa, 0));
	ASSERT_EQ(b, waitpid(b, &sb, 0));
	ASSERT_TRUE(WIFEXITED(sa) && WIFEXITED(sb));
	EXPECT_EQ(0, WEXITSTATUS(sa));
	EXPECT_EQ(0, WEXITSTATUS(sb));
}

/*
 * A task event enabled in the middle of its task's slice, on a CPU where
 * a CPU-wide branch-stack event with the same filter already records:
 * CPU-wide events keep the buffer across context switches, so when the
 * task event joins, the buffer still holds what the task before it did.
 * None of the task event's samples may show any of that.  The rival, on
 * the same CPU, runs loop_b() just before the task is switched back in
 * and enables its event; the task then runs straight(), which takes one
 * branch per 4096 instructions, so that its own branches do not push the
 * rival's out of the buffer before its samples are taken.
 */
CT_SECTION_BOUNDS(rvctr_straight);

static noinline __section("rvctr_straight") void straight(long n)
{
	long i;

	for (i = 0; i < n; i++)
		asm volatile(".rept 4096\n\tnop\n\t.endr" ::: "memory");
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

TEST(task_event_joining_cpu_event_sees_no_other_task)
{
	int req[2], done[2], cpu_fd, round, i, k, theirs = 0, own = 0, st;
	struct perf_event_attr a;
	uint64_t val[3];
	struct ct_event ev;
	pid_t pid;
	char c;

	if (!ct_have_ctr())
		SKIP(return, "no CTR");
	if (geteuid())
		SKIP(return, "needs root for a CPU-wide event");
	pin_cpu0();
	ct_attr(&a, PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER, 0, 10007);
	/* Enabled, running: to tell why there are no samples, if so. */
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING;
	ASSERT_EQ(0, ct_open_attr(&ev, &a));
	/* Same filter, on cycles (QEMU counts it beside instructions). */
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
		/*
		 * The rival holds none of this task's events or pipe ends: if
		 * this task dies on an assertion, the rival sees EOF and exits,
		 * and the pinned CPU-wide event does not outlive the test.
		 */
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
		/* The rival runs on this CPU until this task wakes up. */
		ASSERT_EQ(1, write(req[1], "r", 1));
		ASSERT_EQ(1, read(done[0], &c, 1));
		ioctl(ev.fd, PERF_EVENT_IOC_ENABLE, 0);
		straight(200);
		ioctl(ev.fd, PERF_EVENT_IOC_DISABLE, 0);
	}
	ASSERT_EQ(1, write(req[1], "q", 1));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	close(cpu_fd);
	ASSERT_EQ(sizeof(val), read(ev.fd, val, sizeof(val)));

	ct_read(&ev);
	for (i = 0; i < ev.nsamples; i++)
		for (k = 0; k < (int)ev.s[i].nr; k++) {
			const struct perf_branch_entry *e = &ev.s[i].br[k];

			if (in_fn(e->from, loop_b) || in_fn(e->to, loop_b)) {
				if (!theirs++)
					TH_LOG("sample %d [%d]: %#llx -> %#llx of the rival",
					       i, k, (unsigned long long)e->from,
					       (unsigned long long)e->to);
			}
			own += e->from >= (uintptr_t)__start_rvctr_straight &&
			       e->from < (uintptr_t)__stop_rvctr_straight;
		}
	TH_LOG("%d samples (%d lost): %d records of the rival's loop, %d of this task's",
	       ev.nsamples, ev.lost, theirs, own);
	TH_LOG("count %llu, enabled %llu ns, running %llu ns",
	       (unsigned long long)val[0], (unsigned long long)val[1],
	       (unsigned long long)val[2]);
	EXPECT_EQ(0, theirs);
	/*
	 * Without -icount QEMU sometimes delivers next to none of this
	 * event's overflows when earlier tests ran on the board: then
	 * nothing was checked.
	 */
	if (!ev.nsamples) {
		ct_close(&ev);
		SKIP(return, "no samples: the board lost this event's overflows");
	}
	EXPECT_LT(0, own) TH_LOG("no record of this task's own loop");
	ct_close(&ev);
}

static int read_int(const char *path)
{
	FILE *f = fopen(path, "r");
	int v = -100;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -100;
		fclose(f);
	}
	return v;
}

/* A loop that enters the kernel on every iteration. */
static noinline void syscall_loop(long n)
{
	long i;

	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
}

/*
 * As uid 65534 with perf_event_paranoid=2: kernel branch sampling is
 * refused; user branch sampling works and shows no kernel address.
 * Exit status: 0 good, else the step that failed: 10 setuid, 11 the
 * kernel filter allowed, 12 open, 13 no samples, 14 a kernel branch
 * address, 15 a kernel sample IP.
 */
static int unprivileged_child(void)
{
	struct ct_event ev;
	int i, k, kaddr = 0, kip = 0;

	if (setgid(65534) || setuid(65534))
		return 10;
	if (ct_open(&ev, PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER |
		    PERF_SAMPLE_BRANCH_KERNEL, 0, PERIOD) != -EACCES)
		return 11;
	if (ct_open(&ev, PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER, 0, 997))
		return 12;
	ct_enable(&ev);
	syscall_loop(20000);
	ct_disable(&ev);
	ct_read(&ev);
	for (i = 0; i < ev.nsamples; i++) {
		kip += ct_is_kernel(ev.s[i].ip);
		for (k = 0; k < (int)ev.s[i].nr; k++)
			kaddr += ct_is_kernel(ev.s[i].br[k].from) ||
				 ct_is_kernel(ev.s[i].br[k].to);
	}
	printf("# uid %d: %d samples, %d kernel branch addresses, %d kernel sample IPs\n",
	       getuid(), ev.nsamples, kaddr, kip);
	if (!ev.nsamples)
		return 13;
	if (kaddr)
		return 14;
	if (kip)
		return 15;
	return 0;
}

/* The same loop as root with the kernel in the filter does show kernel addresses. */
TEST(root_with_kernel_filter_sees_kernel)
{
	struct ct_event ev;
	int i, k, kaddr = 0;

	if (!ct_have_ctr())
		SKIP(return, "no CTR");
	if (geteuid())
		SKIP(return, "needs root");
	ASSERT_EQ(0, ct_open(&ev, PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER |
			     PERF_SAMPLE_BRANCH_KERNEL, 0, 997));
	ct_enable(&ev);
	syscall_loop(20000);
	ct_disable(&ev);
	ct_read(&ev);
	for (i = 0; i < ev.nsamples; i++)
		for (k = 0; k < (int)ev.s[i].nr; k++)
			kaddr += ct_is_kernel(ev.s[i].br[k].from) ||
				 ct_is_kernel(ev.s[i].br[k].to);
	TH_LOG("%d samples, %d records with a kernel address", ev.nsamples, kaddr);
	ASSERT_GT(kaddr, 0);
	ct_close(&ev);
}

TEST(paranoid2_unprivileged_sees_no_kernel_address)
{
	char old[16];
	pid_t pid;
	int st, prev;

	if (!ct_have_ctr())
		SKIP(return, "no CTR");
	if (geteuid())
		SKIP(return, "needs root to set perf_event_paranoid and drop to uid 65534");
	prev = read_int(PARANOID);
	ASSERT_NE(-100, prev);
	snprintf(old, sizeof(old), "%d", prev);
	ASSERT_EQ(0, ct_write_str(PARANOID, "2"));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid)
		_exit(unprivileged_child());
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	ct_write_str(PARANOID, old);
	ASSERT_TRUE(WIFEXITED(st));
	EXPECT_EQ(0, WEXITSTATUS(st))
		TH_LOG("step %d of unprivileged_child() failed",
		       WEXITSTATUS(st));
}

TEST_HARNESS_MAIN
