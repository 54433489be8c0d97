// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unloading the module right after call-stack events are closed.  A
 * call-stack (PERF_SAMPLE_BRANCH_CALL_STACK) task event gets a save area
 * from the driver's pmu->task_ctx_cache.  The perf core frees it with
 * call_rcu(): free_epc_rcu() in Linux 6.12, __free_perf_ctx_data_rcu()
 * in 7.3, both queued before the event drops its module reference.  So
 * rmmod can start while those callbacks are still pending, and the
 * driver has to wait for them (rcu_barrier()) before it destroys the
 * cache.  synchronize_rcu() only waits for a grace period, not for
 * callbacks; with /sys/kernel/rcu_expedited = 1 it does not even queue
 * one of its own, so here nothing but rcu_barrier() orders the unload
 * after them.  The slab allocator says "Slab cache still has objects"
 * (a WARNING) when it was not waited for.
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
#include <signal.h>
#include <sys/klog.h>
#include <sys/wait.h>

/* kselftest_harness.h is not -Wextra clean */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include "kselftest_harness.h"
#include "ctr_test_lib.h"

#define KO		"/opt/rvctr/rvctr.ko"
#define EXPEDITED	"/sys/kernel/rcu_expedited"
#define CACHE		"rvctr_ctr_task_ctx"
#define NR_TASKS	8
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

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
	close(fd);
	return ok ? 0 : -1;
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

TEST(unload_right_after_call_stack_events_close)
{
	int fds[NR_TASKS + 1], i, before, objs, reports, leaked, ret, err;
	pid_t kids[NR_TASKS];
	char old[16] = "0";
	FILE *f;

	if (geteuid())
		SKIP(return, "needs root");
	if (!ct_have_ctr())
		SKIP(return, "no CTR");
	if (access(KO, R_OK) || !module_loaded())
		SKIP(return, "no " KO ", or rvctr not loaded");
	f = fopen(EXPEDITED, "r");
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(old, sizeof(old), f));
	fclose(f);
	before = leak_reports();
	ASSERT_LE(0, before);
	ASSERT_EQ(0, write_str(EXPEDITED, "1"));

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

	/* No sysfs from here to the unload: see the top of the file. */
	sleep(SETTLE);
	/* Close, and unload within the next system call. */
	for (i = 0; i <= NR_TASKS; i++)
		close(fds[i]);
	ret = syscall(SYS_delete_module, "rvctr", O_NONBLOCK);
	err = errno;
	write_str(EXPEDITED, old);
	for (i = 0; i < NR_TASKS; i++) {
		kill(kids[i], SIGKILL);
		waitpid(kids[i], NULL, 0);
	}
	ASSERT_EQ(0, ret) TH_LOG("delete_module: %s", strerror(err));
	reports = leak_reports() - before;
	leaked = cache_objects();
	ret = load_module();
	err = errno;
	TH_LOG("after unload: %d \"still has objects\" reports, cache %s",
	       reports, leaked < 0 ? "gone" : "still listed");
	EXPECT_EQ(0, ret) TH_LOG("reload: %s", strerror(err));
	EXPECT_EQ(0, reports);
	EXPECT_GT(0, leaked);
}

TEST_HARNESS_MAIN
