// SPDX-License-Identifier: GPL-2.0-only
/*
 * Who may read a counter directly (rdhpmcounter) at the defaults,
 * kernel.perf_user_access=1 and kernel.perf_event_paranoid=2, asked by
 * unprivileged processes (the board runs the tests as root: each one
 * that plays a user is a child that drops to nobody):
 *
 * - a task reads the counter of its event once it has mapped it, while
 *   the event runs there.  Once the event is removed the counter goes
 *   back to the pool and is closed to every task, also when the event
 *   had been throttled (stopped, still on the hart) before it was
 *   mapped: the map must not open the counter of a stopped event, and
 *   the removal must close it whatever the event's state.  The page of
 *   a stopped event names no counter (perf_event_index()), so the other
 *   task tries them all, as anyone could;
 * - the grant goes to the task the event counts only if its own process
 *   mapped the event: a counter that another process opened on it and
 *   mapped (perf record -p) stays closed to it, while a thread of the
 *   same process may map it for it.
 *
 * A refused read raises SIGILL (scounteren, privileged spec "Counter-
 * Enable Register").
 */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wclobbered"
#include "kselftest_harness.h"
#include "pmu_test_lib.h"
#include <fcntl.h>
#include <grp.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#define UA		"/proc/sys/kernel/perf_user_access"
#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"
#define RATE		"/proc/sys/kernel/perf_event_max_sample_rate"
#define NOBODY		65534

/*
 * A deterministic throttle: at perf_event_max_sample_rate=1,
 * max_samples_per_tick is 1, and the core throttles an event once its
 * overflows in a tick reach it (__perf_event_account_interrupt(), 6.12
 * and 7.3): the first overflow stops the event until the next tick
 * unthrottles it (HZ=250: 4e6 instructions under -icount).  The loop
 * gives 40 periods of user instructions, so the event is stopped when it
 * ends; the owner then checks that it is (its count does not move over
 * 2000 more instructions), maps it and checks again.  A tick can still
 * land between the map and the removal; then the attempt does not count.
 */
#define PERIOD		1000
#define THROTTLE_LOOPS	20000UL
#define ATTEMPTS	8
#define WANTED		3

static int drop_to_nobody(void)
{
	return setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY) ? -1 : 0;
}

static sigjmp_buf ill_jmp;

static void on_sigill(int sig)
{
	siglongjmp(ill_jmp, 1);
}

/* The counter CSRs this task can read, as a mask; time (1) not asked. */
static uint32_t readable_counters(void)
{
	struct sigaction sa = { .sa_handler = on_sigill }, old;
	volatile uint32_t mask = 0;
	volatile unsigned int n;

	sigaction(SIGILL, &sa, &old);
	for (n = 0; n < 32; n++) {
		if (n == 1)
			continue;
		if (!sigsetjmp(ill_jmp, 1)) {
			pmu_read_hpm(n);
			mask |= 1u << n;
		}
	}
	sigaction(SIGILL, &old, NULL);
	return mask;
}

FIXTURE(iso) {
	int ua, paranoid, rate;
};

FIXTURE_SETUP(iso)
{
	self->ua = pmu_sysctl_get(UA);
	self->paranoid = pmu_sysctl_get(PARANOID);
	self->rate = pmu_sysctl_get(RATE);
	ASSERT_NE(-1, self->ua) TH_LOG("no %s", UA);
	ASSERT_EQ(0, pmu_sysctl_set(UA, 1));
	ASSERT_EQ(0, pmu_sysctl_set(PARANOID, 2));
	ASSERT_EQ(0, pmu_pin_here());
}

/*
 * A change of perf_user_access rewrites scounteren on every hart
 * (rvctr_user_apply()): what a failed test left open is closed again
 * before the next one.
 */
FIXTURE_TEARDOWN(iso)
{
	if (self->rate > 0)
		pmu_sysctl_set(RATE, self->rate);
	if (self->paranoid != -1)
		pmu_sysctl_set(PARANOID, self->paranoid);
	pmu_sysctl_set(UA, 0);
	pmu_sysctl_set(UA, self->ua);
}

struct owner_report {
	int err;		/* errno of the step that failed, or 0 */
	unsigned int idx;	/* the user page's index (0: stopped, perf_event_index()) */
	uint64_t c[3];		/* counts before and after 2000 more, after the map */
};

/*
 * The owner, as nobody: a user-only sampling event on itself, throttled,
 * then mapped; then the event is removed, by close() or by the owner
 * blocking (perf removes a task's events when it switches out), while
 * the mapping stays.  It waits on @in until the reader is done.
 */
static void owner(int out, int in, int close_it)
{
	struct owner_report r = { 0 };
	struct perf_event_attr attr;
	void *page;
	char c;
	int fd;

	if (drop_to_nobody()) {
		r.err = errno;
		goto report;
	}
	pmu_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.disabled = 0;
	attr.read_format = 0;
	attr.sample_period = PERIOD;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.exclude_guest = 1;
	fd = pmu_open(&attr, 0, -1, -1);
	if (fd < 0) {
		r.err = errno;
		goto report;
	}
	pmu_loop(THROTTLE_LOOPS);
	if (read(fd, &r.c[0], sizeof(r.c[0])) != sizeof(r.c[0]))
		r.err = errno;
	pmu_loop(1000);
	if (read(fd, &r.c[1], sizeof(r.c[1])) != sizeof(r.c[1]))
		r.err = errno;
	page = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, fd, 0);
	if (page == MAP_FAILED) {
		r.err = errno;
		goto report;
	}
	r.idx = ((volatile struct perf_event_mmap_page *)page)->index;
	if (read(fd, &r.c[2], sizeof(r.c[2])) != sizeof(r.c[2]))
		r.err = errno;
	if (close_it)
		close(fd);
report:
	if (write(out, &r, sizeof(r)) != sizeof(r))
		_exit(1);
	/* Keep the mapping until the reader has tried. */
	if (read(in, &c, 1) != 1)
		_exit(1);
	_exit(0);
}

/*
 * The reader, as nobody, with no event of its own: which counters it
 * can read, when told to look (the page of a stopped event names none,
 * so it tries them all, as anyone could).
 */
static void reader(int in, int out)
{
	uint32_t mask;
	char c;

	if (drop_to_nobody())
		_exit(3);
	if (read(in, &c, 1) != 1 || c != 'y')
		_exit(2);
	mask = readable_counters();
	_exit(write(out, &mask, sizeof(mask)) == sizeof(mask) ? 0 : 1);
}

/*
 * One owner and one reader; the reader looks only if the owner's event
 * was stopped at the map.  Returns -1 on a failed fork, pipe or wait,
 * else 0 with the owner's report and what the reader could read (~0
 * when it did not look).
 */
static int attempt(int close_it, struct owner_report *r, uint32_t *mask)
{
	int to_reader[2], from_reader[2], from_owner[2], to_owner[2];
	int ostatus, rstatus, looked;
	pid_t o, rd;

	if (pipe(to_reader) || pipe(from_reader) || pipe(from_owner) ||
	    pipe(to_owner))
		return -1;
	rd = fork();
	if (rd < 0)
		return -1;
	if (!rd)
		reader(to_reader[0], from_reader[1]);
	o = fork();
	if (o < 0)
		return -1;
	if (!o)
		owner(from_owner[1], to_owner[0], close_it);
	if (read(from_owner[0], r, sizeof(*r)) != sizeof(*r))
		r->err = EPIPE;
	looked = !r->err && r->c[0] == r->c[1] && r->c[1] == r->c[2];
	*mask = ~0u;
	if (write(to_reader[1], looked ? "y" : "n", 1) != 1 ||
	    (looked && read(from_reader[0], mask, sizeof(*mask)) != sizeof(*mask)) ||
	    waitpid(rd, &rstatus, 0) != rd ||
	    write(to_owner[1], "x", 1) != 1 || waitpid(o, &ostatus, 0) != o)
		return -1;
	close(to_reader[0]);
	close(to_reader[1]);
	close(from_reader[0]);
	close(from_reader[1]);
	close(from_owner[0]);
	close(from_owner[1]);
	close(to_owner[0]);
	close(to_owner[1]);
	return 0;
}

static void removed_event_closes(struct __test_metadata *_metadata,
				 int close_it)
{
	struct owner_report r;
	int i, stopped = 0;
	uint32_t mask;

	ASSERT_EQ(0, pmu_sysctl_set(RATE, 1));
	for (i = 0; i < ATTEMPTS && stopped < WANTED; i++) {
		ASSERT_EQ(0, attempt(close_it, &r, &mask));
		if (r.err == EOPNOTSUPP)
			SKIP(return, "no overflow interrupt (Sscofpmf): no sampling");
		ASSERT_EQ(0, r.err) TH_LOG("owner: %s", strerror(r.err));
		TH_LOG("attempt %d: counts %llu %llu %llu, page index %u; the reader can read %#x",
		       i, (unsigned long long)r.c[0], (unsigned long long)r.c[1],
		       (unsigned long long)r.c[2], r.idx, mask);
		/* Not stopped at the map (a tick came): the reader did not look. */
		if (r.c[0] != r.c[1] || r.c[1] != r.c[2])
			continue;
		stopped++;
		EXPECT_EQ(0, mask)
			TH_LOG("another user's task reads the removed event's counter");
	}
	/* The test means nothing unless the event was stopped when mapped. */
	ASSERT_EQ(WANTED, stopped);
}

/* Throttled, mapped, closed: the counter is closed to the next task. */
TEST_F(iso, closed_throttled_event_leaves_counter_closed)
{
	removed_event_closes(_metadata, 1);
}

/* Throttled, mapped, switched out: the same when perf removes it. */
TEST_F(iso, switched_out_throttled_event_leaves_counter_closed)
{
	removed_event_closes(_metadata, 0);
}

/*
 * Root opens and maps a counting event on task T, another user's, as
 * perf record -p does (kernel counts included): T cannot read any
 * counter.  (The mapping process's page offers the counter only while
 * T runs, when nothing here can look at it on one hart.)
 */
TEST_F(iso, target_of_another_process_mapping_cannot_read)
{
	struct perf_event_attr attr;
	int go[2], res[2], fd, status;
	uint32_t mask = ~0u;
	uint64_t count = 0;
	void *page;
	pid_t t;
	char c;

	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(res));
	t = fork();
	ASSERT_LE(0, t);
	if (!t) {
		if (drop_to_nobody() || read(go[0], &c, 1) != 1)
			_exit(2);
		/* Run a while: the event is started on this hart. */
		pmu_loop(100000);
		mask = readable_counters();
		_exit(write(res[1], &mask, sizeof(mask)) == sizeof(mask) ? 0 : 2);
	}
	pmu_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.disabled = 0;
	attr.read_format = 0;
	fd = pmu_open(&attr, t, -1, -1);
	ASSERT_LE(0, fd) TH_LOG("open on %d: %s", t, strerror(errno));
	page = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, page);
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(sizeof(mask), read(res[0], &mask, sizeof(mask)));
	ASSERT_EQ(t, waitpid(t, &status, 0));
	ASSERT_EQ(sizeof(count), read(fd, &count, sizeof(count)));
	TH_LOG("T (uid %d) can read counters %#x; T counted %llu", NOBODY,
	       mask, (unsigned long long)count);
	/* The event ran on T. */
	ASSERT_LT(200000, count);
	EXPECT_EQ(0, mask);
	munmap(page, getpagesize());
	close(fd);
}

struct sibling {
	int tid_pipe[2], go_pipe[2];
	volatile struct perf_event_mmap_page *pc;
	unsigned int cap, idx;
	uint32_t mask;
};

static void *sibling_thread(void *arg)
{
	struct sibling *s = arg;
	pid_t tid = syscall(SYS_gettid);
	char c;

	if (write(s->tid_pipe[1], &tid, sizeof(tid)) != sizeof(tid) ||
	    read(s->go_pipe[0], &c, 1) != 1)
		return NULL;
	pmu_loop(100000);
	/* While the thread runs, its event is on this hart: the page says where. */
	s->cap = s->pc->cap_user_rdpmc;
	s->idx = s->pc->index;
	s->mask = readable_counters();
	return NULL;
}

/*
 * A thread of the process that maps the event shares its address space
 * and user page: the grant is per process, as x86's is per mm.  The
 * event counts the sibling thread, which reads its counter.
 */
TEST_F(iso, thread_of_the_mapping_process_can_read)
{
	struct perf_event_attr attr;
	struct sibling s = { .mask = 0 };
	pthread_t th;
	void *page;
	pid_t tid;
	int fd;

	ASSERT_EQ(0, pipe(s.tid_pipe));
	ASSERT_EQ(0, pipe(s.go_pipe));
	ASSERT_EQ(0, pthread_create(&th, NULL, sibling_thread, &s));
	ASSERT_EQ(sizeof(tid), read(s.tid_pipe[0], &tid, sizeof(tid)));
	pmu_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.disabled = 0;
	attr.read_format = 0;
	attr.exclude_guest = 1;
	fd = pmu_open(&attr, tid, -1, -1);
	ASSERT_LE(0, fd) TH_LOG("open on thread %d: %s", tid, strerror(errno));
	page = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, page);
	s.pc = page;
	ASSERT_EQ(1, write(s.go_pipe[1], "g", 1));
	ASSERT_EQ(0, pthread_join(th, NULL));
	TH_LOG("page seen by the thread: cap_user_rdpmc %u index %u; it can read %#x",
	       s.cap, s.idx, s.mask);
	ASSERT_EQ(1, s.cap);
	ASSERT_NE(0, s.idx);
	EXPECT_EQ(1u << (s.idx - 1), s.mask);
	munmap(page, getpagesize());
	close(fd);
}

/*
 * The knobs and the raw CTR snapshot are root's: as nobody, the sysctls
 * and the cpu PMU's sysfs files read but do not write, and the debugfs
 * snapshot (kernel branch addresses) does not open.  Exit status: 0
 * good, else the check that failed.
 */
#define PMU_SYSFS	"/sys/bus/event_source/devices/cpu"
#define RAW_CTR		"/sys/kernel/debug/rvctr/ctr"

static int refused(const char *path, int flags)
{
	int fd = open(path, flags);

	if (fd >= 0)
		close(fd);
	return fd < 0 && errno == EACCES;
}

static int knobs_child(void)
{
	/* Asked as root: without CTR (or debugfs) there is no snapshot. */
	int have_raw = !access(RAW_CTR, F_OK);

	if (drop_to_nobody())
		return 10;
	if (!refused(UA, O_WRONLY) || refused(UA, O_RDONLY))
		return 11;
	if (!refused(PARANOID, O_WRONLY))
		return 12;
	if (!access(PMU_SYSFS "/ctr_depth", F_OK) &&
	    (!refused(PMU_SYSFS "/ctr_depth", O_WRONLY) ||
	     refused(PMU_SYSFS "/caps/branches", O_RDONLY)))
		return 13;
	if (have_raw && !refused(RAW_CTR, O_RDONLY))
		return 14;
	return 0;
}

TEST_F(iso, knobs_and_snapshot_are_roots)
{
	int status;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(knobs_child());
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status))
		TH_LOG("check %d of knobs_child() failed", WEXITSTATUS(status));
}

TEST_HARNESS_MAIN
