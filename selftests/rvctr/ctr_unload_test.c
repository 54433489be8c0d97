// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unloading the module right after call-stack events are closed.  A
 * call-stack (PERF_SAMPLE_BRANCH_CALL_STACK) task event gets a save area
 * from the driver's pmu->task_ctx_cache.  The perf core frees it with
 * call_rcu(): free_epc_rcu() in Linux 6.12, __free_perf_ctx_data_rcu()
 * in 7.3, both queued before the event drops its module reference.  So
 * rmmod can start while those callbacks are still pending, and the
 * driver has to wait for them (rcu_barrier()) before it destroys the
 * cache: synchronize_rcu() waits for a grace period, not for the
 * callbacks of other CPUs, and with /sys/kernel/rcu_expedited = 1 (set
 * here) it queues none of its own.  The slab allocator says "Slab cache
 * still has objects" (a WARNING) when the driver did not wait.  Linux
 * 7.3's kmem_cache_destroy() calls rcu_barrier() itself, so there this
 * passes either way; 6.12's does only with a kfree_rcu() batch pending.
 *
 * When callbacks run after their grace period depends on the CPU they
 * are queued on; how far behind is a matter of luck on an idle board.
 * So the events are closed on CPU 1 right after a task there exited with
 * NR_BURST inherited events, whose frees queue ahead, and CPU 1 is kept
 * busy: RCU then invokes callbacks from the softirq only a few at a time
 * (rcu_do_batch(): blimit, then a few softirq restarts), leaving the
 * rest to ksoftirqd/1, which the test demotes to SCHED_IDLE meanwhile,
 * as if CPU 1 ran real-time work.  The save areas are freed a good part
 * of a second after the grace period, while CPU 0 unloads the module.
 * Closing the events on the unloading CPU with nothing queued ahead, the
 * unfixed module failed in 2 of 2 runs on a freshly booted board and in
 * none of 4 after another test.
 *
 * kmem_cache_destroy() waits for pending kfree_rcu() batches first
 * (kvfree_rcu_barrier()), and flush_rcu_work() calls rcu_barrier() when
 * a batch is queued: that would hide a missing barrier whenever something
 * did a kfree_rcu() in the last few seconds (KFREE_DRAIN_JIFFIES is 5 s
 * in 6.12).  Closing a sysfs file does one (kernfs_fop_release()), so the
 * test touches sysfs first and then waits SETTLE seconds.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/klog.h>
#include <sys/resource.h>
#include <sys/wait.h>

/* kselftest_harness.h is not -Wextra clean */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include "kselftest_harness.h"
#include "ctr_module_lib.h"

#define KO		"/opt/rvctr/rvctr.ko"
#define EXPEDITED	"/sys/kernel/rcu_expedited"
#define CACHE		"riscv_ctr_task_ctx"
#define NR_TASKS	8
#define NR_BURST	9000	/* below rcutree's qhimark (10000) */
#define SETTLE		6

static int module_loaded(void)
{
	char line[256];
	FILE *f = fopen("/proc/modules", "r");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, "rvctr ", 6);
	fclose(f);
	return found;
}

/* Active objects of the driver's save-area cache, -1 if it has none. */
static int cache_objects(void)
{
	char line[512];
	FILE *f = fopen("/proc/slabinfo", "r");
	int n = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, CACHE " ", strlen(CACHE) + 1) &&
		    sscanf(line + strlen(CACHE), "%d", &n) != 1)
			n = -1;
	fclose(f);
	return n;
}

/* How often the kernel log says the cache was destroyed with objects. */
static int leak_reports(void)
{
	int len = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0), n = 0;
	char *buf, *p;

	if (len <= 0)
		return -1;
	buf = malloc(len + 1);
	if (!buf)
		return -1;
	len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, len);
	if (len < 0) {
		free(buf);
		return -1;
	}
	buf[len] = 0;
	for (p = buf; (p = strstr(p, CACHE ": Slab cache still has objects")); p++)
		n++;
	free(buf);
	return n;
}

/* The pid of the kernel thread named @comm, or -1. */
static pid_t kthread_pid(const char *comm)
{
	char path[64], name[64];
	pid_t pid, found = -1;
	FILE *f;

	for (pid = 2; pid < 1000 && found < 0; pid++) {
		snprintf(path, sizeof(path), "/proc/%d/comm", pid);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(name, sizeof(name), f) && !strncmp(name, comm, strlen(comm)) &&
		    name[strlen(comm)] == '\n')
			found = pid;
		fclose(f);
	}
	return found;
}

static int load_module(void)
{
	int fd = open(KO, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -1;
	ret = syscall(SYS_finit_module, fd, "", 0);
	close(fd);
	return ret;
}

/* A call-stack sampling event on @pid; perf gives it a save area. */
static int open_call_stack(pid_t pid)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.sample_period = 100003;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_USER |
			       PERF_SAMPLE_BRANCH_CALL_STACK;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return syscall(SYS_perf_event_open, &a, pid, -1, -1, 0);
}

static int pin(pthread_t t, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(t, sizeof(set), &set);
}

struct closer {
	pid_t burst;	/* exits with NR_BURST inherited events */
	int burst_go;	/* write end of its pipe */
	int *fds, nr;	/* the call-stack events */
	int phase;	/* 1: closed, 2: stop spinning */
	int err;
};

/*
 * On CPU 1: let the burst task exit (it frees its inherited events as it
 * does), close the call-stack events, keep the CPU busy.
 */
static void *closer(void *arg)
{
	struct closer *c = arg;
	int i;

	c->err = pin(pthread_self(), 1);
	if (!c->err && (write(c->burst_go, "x", 1) != 1 ||
			waitpid(c->burst, NULL, 0) != c->burst))
		c->err = errno;
	for (i = 0; i < c->nr; i++)
		close(c->fds[i]);
	__atomic_store_n(&c->phase, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&c->phase, __ATOMIC_ACQUIRE) != 2)
		;
	return NULL;
}

TEST(unload_right_after_call_stack_events_close)
{
	struct perf_event_attr dummy = {
		.size = sizeof(dummy),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
		.disabled = 1,
		.inherit = 1,
	};
	struct rlimit rl = { NR_BURST + 256, NR_BURST + 256 };
	int i, before, objs, reports, leaked, ret, err, go[2];
	int unloaded, reload = 0, reload_err = 0;
	int fds[NR_TASKS + 1], *burst;
	struct sched_param sp = { 0 };
	struct closer c = { 0 };
	pid_t kids[NR_TASKS], softirqd;
	char old[16] = "0";
	pthread_t t;
	FILE *f;

	if (geteuid())
		SKIP(return, "needs root");
	if (!ct_have_ctr())
		SKIP(return, "no CTR");
	if (access(KO, R_OK) || !module_loaded())
		SKIP(return, "no " KO ", or rvctr not loaded");
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs a second CPU");
	ASSERT_EQ(0, pin(pthread_self(), 0));
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &rl));
	before = leak_reports();
	ASSERT_LE(0, before);
	f = fopen(EXPEDITED, "r");
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(old, sizeof(old), f));
	fclose(f);
	ASSERT_EQ(0, ct_write_str(EXPEDITED, "1"));

	/* Tasks that just wait; each gets an event and so a save area. */
	for (i = 0; i < NR_TASKS; i++) {
		kids[i] = fork();
		ASSERT_LE(0, kids[i]);
		if (!kids[i]) {
			pause();
			_exit(0);
		}
	}
	for (i = 0; i < NR_TASKS; i++) {
		fds[i] = open_call_stack(kids[i]);
		ASSERT_LE(0, fds[i]) TH_LOG("perf_event_open: %s", strerror(errno));
	}
	fds[NR_TASKS] = open_call_stack(0);
	ASSERT_LE(0, fds[NR_TASKS]) TH_LOG("perf_event_open: %s", strerror(errno));
	objs = cache_objects();
	TH_LOG("%s: %d active objects with %d events open", CACHE, objs,
	       NR_TASKS + 1);
	ASSERT_LE(NR_TASKS + 1, objs);

	/* The burst task inherits NR_BURST events and waits on CPU 1. */
	burst = calloc(NR_BURST, sizeof(*burst));
	ASSERT_NE(NULL, burst);
	for (i = 0; i < NR_BURST; i++) {
		burst[i] = syscall(SYS_perf_event_open, &dummy, 0, -1, -1, 0);
		ASSERT_LE(0, burst[i]) TH_LOG("dummy event: %s", strerror(errno));
	}
	ASSERT_EQ(0, pipe(go));
	c.burst = fork();
	ASSERT_LE(0, c.burst);
	if (!c.burst) {
		char x;

		pin(pthread_self(), 1);
		_exit(read(go[0], &x, 1) == 1 ? 0 : 1);
	}
	c.burst_go = go[1];
	c.fds = fds;
	c.nr = NR_TASKS + 1;

	softirqd = kthread_pid("ksoftirqd/1");
	ASSERT_LT(0, softirqd);

	/* No sysfs from here to the unload: see the top of the file. */
	sleep(SETTLE);
	ASSERT_EQ(0, sched_setscheduler(softirqd, SCHED_IDLE, &sp));
	ret = pthread_create(&t, NULL, closer, &c);
	if (ret)
		sched_setscheduler(softirqd, SCHED_OTHER, &sp);
	ASSERT_EQ(0, ret);
	while (!__atomic_load_n(&c.phase, __ATOMIC_ACQUIRE))
		;
	/* Closed on CPU 1: unload within the next system call. */
	ret = syscall(SYS_delete_module, "rvctr", O_NONBLOCK);
	err = errno;
	__atomic_store_n(&c.phase, 2, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	sched_setscheduler(softirqd, SCHED_OTHER, &sp);
	ct_write_str(EXPEDITED, old);
	for (i = 0; i < NR_TASKS; i++) {
		kill(kids[i], SIGKILL);
		waitpid(kids[i], NULL, 0);
	}
	for (i = 0; i < NR_BURST; i++)
		close(burst[i]);
	free(burst);
	/*
	 * Measure, then put the module back before any assertion, so that
	 * a failure here does not leave the later tests without it.
	 */
	reports = leak_reports() - before;
	leaked = cache_objects();
	unloaded = !ret;
	if (unloaded) {
		reload = load_module();
		reload_err = errno;
	}
	ASSERT_EQ(0, c.err) TH_LOG("CPU 1: %s", strerror(c.err));
	ASSERT_TRUE(unloaded) TH_LOG("delete_module: %s", strerror(err));
	TH_LOG("after unload: %d \"still has objects\" reports, cache %s",
	       reports, leaked < 0 ? "gone" : "still listed");
	EXPECT_EQ(0, reload) TH_LOG("reload: %s", strerror(reload_err));
	EXPECT_EQ(0, reports);
	EXPECT_GT(0, leaked);
}

TEST_HARNESS_MAIN
