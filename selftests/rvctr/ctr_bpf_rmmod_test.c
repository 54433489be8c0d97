// SPDX-License-Identifier: GPL-2.0-only
/*
 * The module's half of ctr_bpf_test: a program that calls
 * bpf_get_branch_snapshot() must get no entries, and must not crash,
 * once the driver module that installed the snapshot is unloaded.
 * Skips unless the driver is the rvctr module.
 */
#define _GNU_SOURCE
#include <sys/syscall.h>

#include "kselftest_harness.h"
#include "ctr_module_lib.h"
#include "ctr_bpf_lib.h"

/*
 * bpf_get_branch_snapshot() once the driver is gone.  Two ways a program
 * loaded while rvctr is present can reach module text after rmmod:
 *  - with the JIT, the verifier inlines the helper as a direct call to
 *    whatever the perf_snapshot_branch_stack static call held at load
 *    (do_misc_fixups(): static_call_query());
 *  - without HAVE_STATIC_CALL (RISC-V), __static_call_return0 is a static
 *    inline, so a module that resets the static call to it points it at
 *    the module's own copy (the interpreter's out-of-line helper then
 *    calls freed text: "Unable to handle kernel paging request").
 * Either way the program must get no entries (-ENOENT) after rmmod.  It
 * runs on a task-clock event, which does not hold the module.
 */
#define JIT_SYSCTL	"/proc/sys/net/core/bpf_jit_enable"

static int prog_jited(int prog)
{
	struct bpf_prog_info info;
	union bpf_attr a;

	memset(&info, 0, sizeof(info));
	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = prog;
	a.info.info_len = sizeof(info);
	a.info.info = (uint64_t)(uintptr_t)&info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a))
		return -1;
	return info.jited_prog_len != 0;
}

/*
 * Everything the board had is put back (JIT setting, the module) before
 * the first assertion, so a failure here does not fail the next tests.
 */
static void run_after_rmmod(struct __test_metadata *_metadata, int jit)
{
	static char log[65536];
	struct perf_event_attr a;
	struct ct_workload w;
	struct result r = { 0 };
	char old_jit[8] = "0";
	int map, prog, fd = -1, kfd, jited, unloaded, reloaded, got;
	FILE *f;

	if (!ct_have_ctr())
		SKIP(return, "no CTR");
	if (geteuid())
		SKIP(return, "loading BPF programs and modules needs root");
	if (!ct_is_module())
		SKIP(return, "the driver is not the rvctr module (%s)", CT_RVCTR_KO);
	f = fopen(JIT_SYSCTL, "r");
	if (f) {
		if (!fgets(old_jit, sizeof(old_jit), f))
			snprintf(old_jit, sizeof(old_jit), "0");
		fclose(f);
	}
	if (ct_write_str(JIT_SYSCTL, jit ? "1" : "0") && jit)
		SKIP(return, "cannot turn the BPF JIT on (%s)", JIT_SYSCTL);
	ct_workload_init(&w);
	map = map_create();
	prog = map < 0 ? -1 : prog_load(map, BPF_FUNC_get_branch_snapshot, &w,
					log, sizeof(log));
	jited = prog < 0 ? -1 : prog_jited(prog);
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.sample_period = 200000;	/* ns */
	a.disabled = 1;
	if (prog >= 0)
		fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd >= 0 && ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog)) {
		close(fd);
		fd = -1;
	}
	unloaded = fd >= 0 && !syscall(SYS_delete_module, "rvctr", O_NONBLOCK);
	if (unloaded) {
		/* ~60 ms: task-clock fires on the tick without high-res timers. */
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		ct_loop(2000000);
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	}
	got = map < 0 ? -1 : map_read(map, &r);
	if (fd >= 0)
		close(fd);
	if (prog >= 0)
		close(prog);
	if (map >= 0)
		close(map);
	reloaded = 1;
	if (unloaded) {
		kfd = open(CT_RVCTR_KO, O_RDONLY | O_CLOEXEC);
		reloaded = kfd >= 0 && !syscall(SYS_finit_module, kfd, "", 0);
		if (kfd >= 0)
			close(kfd);
	}
	ct_write_str(JIT_SYSCTL, old_jit);

	ASSERT_GE(map, 0) TH_LOG("BPF_MAP_CREATE: %s", strerror(errno));
	ASSERT_GE(prog, 0) TH_LOG("BPF_PROG_LOAD: %s\n%s", strerror(errno), log);
	ASSERT_EQ(jit, jited) TH_LOG("the program was%s JIT-compiled", jited ? "" : " not");
	ASSERT_GE(fd, 0) TH_LOG("task-clock with the program: %s", strerror(errno));
	ASSERT_TRUE(unloaded) TH_LOG("rmmod rvctr: %s", strerror(errno));
	ASSERT_TRUE(reloaded) TH_LOG("insmod %s: %s", CT_RVCTR_KO, strerror(errno));
	ASSERT_EQ(0, got);
	TH_LOG("%s program ran %llu times without the driver, %llu in the workload",
	       jit ? "JIT-compiled" : "interpreted",
	       (unsigned long long)r.calls, (unsigned long long)r.in_loop);
	TH_LOG("last returned %lld", (long long)r.ret);
	ASSERT_GT(r.calls, 5UL);
	ASSERT_GT(r.in_loop, 0UL);
	/* No entries: the helper says -ENOENT (bpf_get_branch_snapshot()). */
	ASSERT_EQ(-ENOENT, r.ret);
}

TEST(bpf_get_branch_snapshot_after_rmmod_jit)
{
	run_after_rmmod(_metadata, 1);
}

TEST(bpf_get_branch_snapshot_after_rmmod_interpreter)
{
	run_after_rmmod(_metadata, 0);
}

TEST_HARNESS_MAIN
