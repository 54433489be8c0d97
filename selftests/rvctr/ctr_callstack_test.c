// SPDX-License-Identifier: GPL-2.0-only
/*
 * Call-stack mode (PERF_SAMPLE_BRANCH_CALL_STACK, CTR RAS emulation): a
 * sample taken in cs_c(), cs_b() or cs_a(), called as main -> cs_a ->
 * cs_b -> cs_c, has exactly that function's call chain as its newest
 * entries, even when another task runs on the same CPU in between (the
 * stack is saved and restored per task), and when the task moves from
 * CPU to CPU while it records (the stack saved on one hart is restored on
 * another).  A stack saved before a slice in which the event was not
 * scheduled is not written back after it, nor one recorded under another
 * filter.  A CPU-wide call-stack event is refused before Linux 6.15.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/ioctl.h>
#include <signal.h>
#include <sys/utsname.h>
#include <sys/wait.h>

/* kselftest_harness.h is not -Wextra clean */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include "kselftest_harness.h"
#include "ctr_test_lib.h"

#define PERIOD	20011

/*
 * Each function of the chain in a section of its own, so the linker's
 * __start_/__stop_ symbols bound it exactly: a sample is checked against
 * the chain of the function its IP is in.
 */
CT_SECTION_BOUNDS(rvctr_cs_a);
CT_SECTION_BOUNDS(rvctr_cs_b);
CT_SECTION_BOUNDS(rvctr_cs_c);

static uint64_t ra_a, ra_b, ra_c;
/* Accessed with READ_ONCE() and WRITE_ONCE(): no loop is folded away. */
static long spin_sink;

static noinline __section("rvctr_cs_c") long cs_c(long n)
{
	long i;

	ra_c = (uint64_t)__builtin_return_address(0);
	for (i = 0; i < n; i++)
		WRITE_ONCE(spin_sink, READ_ONCE(spin_sink) + i);
	return READ_ONCE(spin_sink);
}

static noinline __section("rvctr_cs_b") long cs_b(long n)
{
	long r;

	ra_b = (uint64_t)__builtin_return_address(0);
	r = cs_c(n);
	asm volatile("" ::: "memory");
	return r + 1;
}

static noinline __section("rvctr_cs_a") long cs_a(long n)
{
	long r;

	ra_a = (uint64_t)__builtin_return_address(0);
	r = cs_b(n);
	asm volatile("" ::: "memory");
	return r + 1;
}

/* The rival task's own chain, at other addresses. */
static noinline long rival_spin(long n)
{
	long i;

	for (i = 0; i < n; i++)
		WRITE_ONCE(spin_sink, READ_ONCE(spin_sink) - i);
	return READ_ONCE(spin_sink);
}

static noinline long rival_outer(long n)
{
	long r = rival_spin(n);

	asm volatile("" ::: "memory");
	return r + 1;
}

static void pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/*
 * How deep the call chain is where @ip is: 3 in cs_c (c <- b <- a), 2 in
 * cs_b, 1 in cs_a, 0 elsewhere.
 */
static int chain_depth(uint64_t ip)
{
	if (ip >= (uintptr_t)__start_rvctr_cs_c && ip < (uintptr_t)__stop_rvctr_cs_c)
		return 3;
	if (ip >= (uintptr_t)__start_rvctr_cs_b && ip < (uintptr_t)__stop_rvctr_cs_b)
		return 2;
	if (ip >= (uintptr_t)__start_rvctr_cs_a && ip < (uintptr_t)__stop_rvctr_cs_a)
		return 1;
	return 0;
}

/* What a failing sample held, against the expected chain. */
static void dump_sample(const struct ct_sample *s, int i)
{
	uint64_t k;

	fprintf(stderr, "# sample %d ip %#llx pid %u: %llu entries\n", i,
		(unsigned long long)s->ip, s->pid, (unsigned long long)s->nr);
	fprintf(stderr, "# cs_a %#llx cs_b %#llx cs_c %#llx\n",
		(unsigned long long)(uintptr_t)cs_a,
		(unsigned long long)(uintptr_t)cs_b,
		(unsigned long long)(uintptr_t)cs_c);
	for (k = 0; k < s->nr; k++)
		fprintf(stderr, "#   [%llu] %#llx -> %#llx\n", (unsigned long long)k,
			(unsigned long long)s->br[k].from,
			(unsigned long long)s->br[k].to);
}

/*
 * Linux 6.15 gives a CPU-wide event a save area in every task
 * (PERF_ATTACH_GLOBAL_DATA): there, perf record -a --call-graph lbr works.
 */
static int kernel_has_global_task_data(void)
{
	struct utsname u;
	int major = 0, minor = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		return 0;
	return major > 6 || (major == 6 && minor >= 15);
}

/* A CPU-wide call-stack sampler on cpu0, as ct_open() makes a task one. */
static int open_cpu_wide_callstack(struct ct_event *ev)
{
	struct perf_event_attr a;

	ct_attr(&a, PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK, 0,
		PERIOD);
	return ct_open_on(ev, &a, -1, 0);
}

/* The CPU task @pid last ran on (field 39 of /proc/PID/stat), or -1. */
static int task_cpu(pid_t pid)
{
	char path[64], buf[1024], *p;
	int fd, n, field, cpu = -1;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	/* Fields count from the one after the command, which ends in ')'. */
	p = strrchr(buf, ')');
	for (field = 2; p && field < 39; field++)
		p = strchr(p + 1, ' ');
	if (p)
		sscanf(p + 1, "%d", &cpu);
	return cpu;
}

/*
 * In a child: move task @pid to the next of @ncpu CPUs every 0.5 ms, and
 * count in *@moves the moves after which it ran on the CPU it was sent
 * to, until killed.
 */
static void mover(pid_t pid, int ncpu, int *moves)
{
	cpu_set_t set;
	int c = 0;

	for (;;) {
		c = (c + 1) % ncpu;
		CPU_ZERO(&set);
		CPU_SET(c, &set);
		if (!sched_setaffinity(pid, sizeof(set), &set)) {
			usleep(500);
			if (task_cpu(pid) == c)
				__atomic_fetch_add(moves, 1, __ATOMIC_RELAXED);
		}
	}
}

enum { CS_ALONE, CS_RIVAL, CS_MIGRATE };

/*
 * The call chain of every sample in cs_a/cs_b/cs_c, on a task event or
 * (@cpu_wide) a CPU-wide one on cpu0, whose samples of other tasks (the
 * rival's) are left out: this task's stack must survive the rival's
 * slices and its moves from CPU to CPU, saved and restored in its own
 * save area.
 */
static void run_callstack(struct __test_metadata *_metadata, int mode,
			  int cpu_wide)
{
	int i, in_chain = 0, in_c = 0, ret, ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int *moves = NULL;
	pid_t rival = -1;
	struct ct_event ev;

	if (!ct_have_ctr())
		SKIP(return, "no CTR");
	if (mode == CS_MIGRATE && ncpu < 2)
		SKIP(return, "one CPU: nowhere to migrate to");
	if (cpu_wide && geteuid())
		SKIP(return, "needs root for CPU-wide events");
	if (cpu_wide && !kernel_has_global_task_data())
		SKIP(return, "CPU-wide call stacks need Linux 6.15");
	if (mode != CS_MIGRATE)
		pin_cpu0();
	cs_a(1);	/* learn the return addresses */
	if (cpu_wide)
		ret = open_cpu_wide_callstack(&ev);
	else
		ret = ct_open(&ev, PERF_SAMPLE_BRANCH_USER |
			      PERF_SAMPLE_BRANCH_CALL_STACK, 0, PERIOD);
	ASSERT_EQ(0, ret) TH_LOG("perf_event_open: %s", strerror(-ret));
	if (mode == CS_RIVAL) {
		rival = fork();
		ASSERT_GE(rival, 0);
		if (!rival) {
			/* Calls and returns of its own, forever. */
			for (;;)
				rival_outer(1000);
		}
	}
	if (mode == CS_MIGRATE) {
		pid_t self = getpid();

		moves = mmap(NULL, sizeof(*moves), PROT_READ | PROT_WRITE,
			     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		ASSERT_NE(MAP_FAILED, moves);
		*moves = 0;
		rival = fork();
		ASSERT_GE(rival, 0);
		if (!rival)
			mover(self, ncpu, moves);
	}
	ct_enable(&ev);
	cs_a(mode == CS_MIGRATE ? 12000000 : 3000000);
	ct_disable(&ev);
	if (rival > 0) {
		kill(rival, SIGKILL);
		waitpid(rival, NULL, 0);
	}
	ct_read(&ev);
	ASSERT_GT(ev.nsamples, 5);
	for (i = 0; i < ev.nsamples; i++) {
		const struct ct_sample *s = &ev.s[i];
		int d = chain_depth(s->ip);

		if (!d || s->pid != (uint32_t)getpid())
			continue;
		in_chain++;
		in_c += d == 3;
		if (s->nr < (uint64_t)d)
			dump_sample(s, i);
		ASSERT_GE(s->nr, d) TH_LOG("sample %d: %llu entries, depth %d",
					   i, (unsigned long long)s->nr, d);
		/* Newest first: c called from b, b from a, a from here. */
		if (d == 3) {
			ASSERT_EQ((uint64_t)cs_c, s->br[0].to);
			ASSERT_EQ(ct_call_site(ra_c), s->br[0].from);
		}
		if (d >= 2) {
			ASSERT_EQ((uint64_t)cs_b, s->br[d - 2].to);
			ASSERT_EQ(ct_call_site(ra_b), s->br[d - 2].from);
		}
		ASSERT_EQ((uint64_t)cs_a, s->br[d - 1].to);
		ASSERT_EQ(ct_call_site(ra_a), s->br[d - 1].from);
	}
	TH_LOG("%d samples, %d in the chain (%d in cs_c), each with its call chain",
	       ev.nsamples, in_chain, in_c);
	ASSERT_GT(in_c, 5);
	ct_close(&ev);
	if (moves) {
		int n = __atomic_load_n(moves, __ATOMIC_RELAXED);

		TH_LOG("moved across %d CPUs %d times while recording", ncpu, n);
		munmap(moves, sizeof(*moves));
		/* Else nothing migrated and the case checked nothing new. */
		ASSERT_GT(n, 2);
	}
}

TEST(call_stack_alone)
{
	run_callstack(_metadata, CS_ALONE, 0);
}

TEST(call_stack_with_rival_task)
{
	run_callstack(_metadata, CS_RIVAL, 0);
}

TEST(cpu_wide_call_stack_with_rival_task)
{
	run_callstack(_metadata, CS_RIVAL, 1);
}

TEST(call_stack_across_migration)
{
	run_callstack(_metadata, CS_MIGRATE, 0);
}

/*
 * perf record -a --call-graph lbr: before Linux 6.15 a CPU-wide
 * call-stack event has no per-task save area, so its stack would mix the
 * tasks' calls and returns; the driver refuses it there, and opens it
 * from 6.15 on (cpu_wide_call_stack_with_rival_task).  The same event on
 * a task, and a CPU-wide event with a type filter, open everywhere.
 */
TEST(cpu_wide_call_stack_refused_before_6_15)
{
	struct perf_event_attr a;
	int fd, err;

	if (!ct_have_ctr())
		SKIP(return, "no CTR");
	if (geteuid())
		SKIP(return, "needs root for CPU-wide events");
	ct_attr(&a, PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK, 0,
		PERIOD);
	fd = syscall(SYS_perf_event_open, &a, -1, 0, -1, 0);
	err = errno;
	if (fd >= 0)
		close(fd);
	if (kernel_has_global_task_data()) {
		ASSERT_LE(0, fd) TH_LOG("CPU-wide call stack: errno %d (%s)",
					err, strerror(err));
	} else {
		ASSERT_EQ(-1, fd) TH_LOG("a CPU-wide call-stack event opened");
		ASSERT_EQ(EOPNOTSUPP, err) TH_LOG("errno %d (%s)", err,
						  strerror(err));
	}

	fd = syscall(SYS_perf_event_open, &a, 0, 0, -1, 0);
	ASSERT_LE(0, fd) TH_LOG("on this task, CPU 0: %s", strerror(errno));
	close(fd);
	ct_attr(&a, PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_ANY, 0, PERIOD);
	fd = syscall(SYS_perf_event_open, &a, -1, 0, -1, 0);
	ASSERT_LE(0, fd) TH_LOG("CPU-wide any: %s", strerror(errno));
	close(fd);
}

/*
 * A stack saved at one switch-out must not come back after a slice in
 * which the event did not run.  The task saves a stack in old_c()
 * (main -> old_a -> old_b -> old_c): it blocks there with the call-stack
 * event on.  Then the event cannot be scheduled while the task returns
 * from the old chain and calls new_x -> new_y, where it blocks again;
 * only while it is switched out does a helper on the same CPU make room
 * for the event, so that switch-out saved nothing and the switch-in
 * schedules the event again.  Its samples in new_y may show calls made
 * since then, never the old chain.  What keeps the event out:
 *
 * - a CPU-wide branch-stack event with another filter, which the task
 *   enables in old_c(): the event gets -EBUSY, and the driver still sees
 *   the task's switches (its sched_task runs for the CPU-wide event);
 * - pinned CPU-wide counting events on every counter, which the helper
 *   enables while the task is switched out in old_c(): the event gets
 *   -EAGAIN at the switch-in, and with no branch-stack event on the CPU
 *   the driver sees none of the task's switches until the last one.
 */
CT_SECTION_BOUNDS(rvctr_old_a);
CT_SECTION_BOUNDS(rvctr_old_b);
CT_SECTION_BOUNDS(rvctr_old_c);
CT_SECTION_BOUNDS(rvctr_new_y);

#define MAX_HOGS	32

static int req_pipe[2], done_pipe[2], cpu_fd = -1;
/* The helper's 'x': disable the first, enable the second */
static int swap_off_fd = -1, swap_on_fd = -1;
static int hog_fd[MAX_HOGS], nr_hogs;
/* What the helper does in old_c() and in new_y() */
static char cmd_old, cmd_new;

/* Wake the helper on this CPU with @cmd and sleep until it is done. */
static noinline void ask_helper(char cmd)
{
	char c;

	if (write(req_pipe[1], &cmd, 1) != 1 || read(done_pipe[0], &c, 1) != 1)
		_exit(3);
}

/*
 * n: nothing (just a switch-out), d: disable the CPU-wide branch-stack
 * event, f: enable the counter hogs, e: disable them, x: swap the task's
 * call-stack events, q: exit
 */
static void helper(void)
{
	int i;
	char c;

	pin_cpu0();
	while (read(req_pipe[0], &c, 1) == 1 && c != 'q') {
		if (c == 'd')
			ioctl(cpu_fd, PERF_EVENT_IOC_DISABLE, 0);
		if (c == 'x') {
			ioctl(swap_off_fd, PERF_EVENT_IOC_DISABLE, 0);
			ioctl(swap_on_fd, PERF_EVENT_IOC_ENABLE, 0);
		}
		for (i = 0; i < nr_hogs && (c == 'f' || c == 'e'); i++)
			ioctl(hog_fd[i], c == 'f' ? PERF_EVENT_IOC_ENABLE :
			      PERF_EVENT_IOC_DISABLE, 0);
		if (write(done_pipe[1], &c, 1) != 1)
			break;
	}
	_exit(0);
}

static noinline __section("rvctr_old_c") long old_c(long n)
{
	/* Switched out with the call-stack event on: its stack is saved. */
	ask_helper(cmd_old);
	/* Take CTR away from the call-stack event, if there is the event. */
	if (cpu_fd >= 0)
		ioctl(cpu_fd, PERF_EVENT_IOC_ENABLE, 0);
	asm volatile("" ::: "memory");
	return n + 1;
}

static noinline __section("rvctr_old_b") long old_b(long n)
{
	long r = old_c(n);

	asm volatile("" ::: "memory");
	return r + 1;
}

static noinline __section("rvctr_old_a") long old_a(long n)
{
	long r = old_b(n);

	asm volatile("" ::: "memory");
	return r + 1;
}

static noinline __section("rvctr_new_y") long new_y(long n)
{
	long i;

	/* Switched out without the event; back with it. */
	ask_helper(cmd_new);
	for (i = 0; i < n; i++)
		WRITE_ONCE(spin_sink, READ_ONCE(spin_sink) + i);
	return READ_ONCE(spin_sink);
}

static noinline long new_x(long n)
{
	long r = new_y(n);

	asm volatile("" ::: "memory");
	return r + 1;
}

static int in_old_chain(uint64_t a)
{
	return (a >= (uintptr_t)__start_rvctr_old_a && a < (uintptr_t)__stop_rvctr_old_a) ||
	       (a >= (uintptr_t)__start_rvctr_old_b && a < (uintptr_t)__stop_rvctr_old_b) ||
	       (a >= (uintptr_t)__start_rvctr_old_c && a < (uintptr_t)__stop_rvctr_old_c);
}

/* A disabled CPU-wide event on CPU 0 (cycles: QEMU counts it beside instructions). */
static int open_cpu_event(int branches, int pinned)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	if (branches) {
		a.sample_period = 1ULL << 40;
		a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
		a.branch_sample_type = PERF_SAMPLE_BRANCH_USER |
				       PERF_SAMPLE_BRANCH_ANY;
	}
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.pinned = pinned;
	a.disabled = 1;
	return syscall(SYS_perf_event_open, &a, -1, 0, -1, 0);
}

static void run_slice_without_event(struct __test_metadata *_metadata,
				    int branch_event)
{
	struct ct_event ev;
	int i, k, in_y = 0, stale = 0, ret, st;
	pid_t pid;

	if (!ct_have_ctr())
		SKIP(return, "no CTR");
	if (geteuid())
		SKIP(return, "needs root for CPU-wide events");
	pin_cpu0();
	ret = ct_open(&ev, PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK,
		      0, PERIOD);
	ASSERT_EQ(0, ret) TH_LOG("perf_event_open: %s", strerror(-ret));
	cpu_fd = -1;
	nr_hogs = 0;
	if (branch_event) {
		cpu_fd = open_cpu_event(1, 1);
		ASSERT_LE(0, cpu_fd) TH_LOG("CPU-wide event: %s", strerror(errno));
		cmd_old = 'n';
		cmd_new = 'd';
	} else {
		/* More than there are counters: the extra ones fail, harmlessly. */
		for (nr_hogs = 0; nr_hogs < MAX_HOGS; nr_hogs++) {
			hog_fd[nr_hogs] = open_cpu_event(0, 1);
			ASSERT_LE(0, hog_fd[nr_hogs]) TH_LOG("hog: %s", strerror(errno));
		}
		cmd_old = 'f';
		cmd_new = 'e';
	}
	ASSERT_EQ(0, pipe(req_pipe));
	ASSERT_EQ(0, pipe(done_pipe));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		helper();

	ct_enable(&ev);
	old_a(1);
	new_x(3000000);
	ct_disable(&ev);
	ASSERT_EQ(1, write(req_pipe[1], "q", 1));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	if (cpu_fd >= 0)
		close(cpu_fd);
	for (i = 0; i < nr_hogs; i++)
		close(hog_fd[i]);
	close(req_pipe[0]);
	close(req_pipe[1]);
	close(done_pipe[0]);
	close(done_pipe[1]);

	ct_read(&ev);
	for (i = 0; i < ev.nsamples; i++) {
		const struct ct_sample *s = &ev.s[i];
		int old = 0;

		if (s->ip < (uintptr_t)__start_rvctr_new_y ||
		    s->ip >= (uintptr_t)__stop_rvctr_new_y)
			continue;
		in_y++;
		for (k = 0; k < (int)s->nr; k++)
			old += in_old_chain(s->br[k].from) || in_old_chain(s->br[k].to);
		if (old && !stale++)
			dump_sample(s, i);
	}
	TH_LOG("%d samples, %d in new_y, %d of them with the old chain",
	       ev.nsamples, in_y, stale);
	ASSERT_GT(in_y, 5);
	EXPECT_EQ(0, stale);
	ct_close(&ev);
}

TEST(no_stale_stack_after_a_slice_beside_another_filter)
{
	run_slice_without_event(_metadata, 1);
}

TEST(no_stale_stack_after_a_slice_without_a_counter)
{
	run_slice_without_event(_metadata, 0);
}

/*
 * A stack comes back only under the filter it was recorded under.  The
 * task calls old_a -> old_b -> old_c with a call-stack event that records
 * user and kernel calls; blocked in old_c, its stack is saved with the
 * kernel's calls down to the switch on top.  The helper then swaps that
 * event for a user-only call-stack event on the same task, so the task's
 * next switch-in is the first of the new filter.  In RAS emulation every
 * recorded return pops the newest entry: had the old stack been written
 * back, the task's user returns from old_c, old_b and old_a would pop the
 * kernel's calls (which a user-only filter never sees return) and leave
 * the old chain under new_x -> new_y.  Samples in new_y must not show it.
 */
TEST(no_stack_restored_under_another_filter)
{
	struct ct_event ev, kev;
	int i, k, in_y = 0, stale = 0, ret, st;
	uint64_t kcount = 0;
	pid_t pid;

	if (!ct_have_ctr())
		SKIP(return, "no CTR");
	if (geteuid())
		SKIP(return, "needs root for kernel branch records");
	pin_cpu0();
	ret = ct_open(&ev, PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK,
		      0, PERIOD);
	ASSERT_EQ(0, ret) TH_LOG("perf_event_open: %s", strerror(-ret));
	/* User and kernel calls; no samples, it only records. */
	ret = ct_open(&kev, PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL |
		      PERF_SAMPLE_BRANCH_CALL_STACK, 0, 1ULL << 40);
	ASSERT_EQ(0, ret) TH_LOG("user+kernel call stack: %s", strerror(-ret));
	cpu_fd = -1;
	nr_hogs = 0;
	swap_off_fd = kev.fd;
	swap_on_fd = ev.fd;
	cmd_old = 'x';
	cmd_new = 'n';
	ASSERT_EQ(0, pipe(req_pipe));
	ASSERT_EQ(0, pipe(done_pipe));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		helper();

	ct_enable(&kev);
	old_a(1);
	new_x(3000000);
	ct_disable(&ev);
	ASSERT_EQ(1, write(req_pipe[1], "q", 1));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	close(req_pipe[0]);
	close(req_pipe[1]);
	close(done_pipe[0]);
	close(done_pipe[1]);
	/* Else the old chain was never recorded under the first filter. */
	ASSERT_EQ(sizeof(kcount), read(kev.fd, &kcount, sizeof(kcount)));
	ASSERT_LT(0, kcount);

	ct_read(&ev);
	for (i = 0; i < ev.nsamples; i++) {
		const struct ct_sample *s = &ev.s[i];
		int old = 0;

		if (s->ip < (uintptr_t)__start_rvctr_new_y ||
		    s->ip >= (uintptr_t)__stop_rvctr_new_y)
			continue;
		in_y++;
		for (k = 0; k < (int)s->nr; k++)
			old += in_old_chain(s->br[k].from) || in_old_chain(s->br[k].to);
		if (old && !stale++)
			dump_sample(s, i);
	}
	TH_LOG("%d samples, %d in new_y, %d of them with the old chain",
	       ev.nsamples, in_y, stale);
	TH_LOG("%llu instructions under the first filter",
	       (unsigned long long)kcount);
	ASSERT_GT(in_y, 5);
	EXPECT_EQ(0, stale);
	ct_close(&ev);
	ct_close(&kev);
}

TEST_HARNESS_MAIN
