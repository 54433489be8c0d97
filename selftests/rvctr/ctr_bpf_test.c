// SPDX-License-Identifier: GPL-2.0-only
/*
 * Branch records reach BPF: a perf_event program attached to the
 * workload's sampling event reads them with bpf_read_branch_records()
 * (the sample's stack) and with bpf_get_branch_snapshot() (the
 * perf_snapshot_branch_stack static call the driver installs).  Each
 * program stores its return value and its newest entry in an array map;
 * the newest entry must be one of the workload's known transfers.
 *
 * The programs are a few dozen instructions, assembled in ctr_bpf_lib.h
 * rather than compiled, so the test needs neither clang nor libbpf.
 */
#define _GNU_SOURCE

#include "kselftest_harness.h"
#include "ctr_bpf_lib.h"

static void run_bpf(struct __test_metadata *_metadata, int helper)
{
	static char log[65536];
	struct ct_workload w;
	struct ct_event ev;
	struct result r;
	int map, prog, ret, i, known = 0;

	if (!ct_have_ctr())
		SKIP(return, "no CTR");
	if (geteuid())
		SKIP(return, "loading perf_event BPF programs needs root");
	ct_workload_init(&w);
	map = map_create();
	ASSERT_GE(map, 0) TH_LOG("BPF_MAP_CREATE: %s", strerror(errno));
	ASSERT_LT(w.hi, 1ULL << 31) TH_LOG("the workload is not below 2 GiB");
	prog = prog_load(map, helper, &w, log, sizeof(log));
	ASSERT_GE(prog, 0) TH_LOG("BPF_PROG_LOAD: %s\n%s", strerror(errno), log);
	ret = ct_open(&ev, PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER, 0, PERIOD);
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, ioctl(ev.fd, PERF_EVENT_IOC_SET_BPF, prog))
		TH_LOG("PERF_EVENT_IOC_SET_BPF: %s", strerror(errno));
	ct_enable(&ev);
	ct_loop(100000);
	ct_disable(&ev);
	ASSERT_EQ(0, map_read(map, &r));
	TH_LOG("program ran %llu times, %llu in the workload",
	       (unsigned long long)r.calls, (unsigned long long)r.in_loop);
	TH_LOG("last returned %lld, newest %#llx -> %#llx", (long long)r.ret,
	       (unsigned long long)r.from, (unsigned long long)r.to);
	ASSERT_GT(r.calls, 5UL);
	ASSERT_GT(r.in_loop, 5UL);
	/* Whole entries; a context switch just before may leave fewer. */
	ASSERT_GT(r.ret, 0);
	ASSERT_LE(r.ret, NBR * 24);
	ASSERT_EQ(0, r.ret % 24);
	for (i = 0; i < X_NR; i++)
		known += r.from == w.x[i].from && r.to == w.x[i].to;
	ASSERT_EQ(1, known) TH_LOG("newest entry is not a workload transfer");
	ct_close(&ev);
	close(prog);
	close(map);
}

TEST(bpf_read_branch_records)
{
	run_bpf(_metadata, BPF_FUNC_read_branch_records);
}

TEST(bpf_get_branch_snapshot)
{
	run_bpf(_metadata, BPF_FUNC_get_branch_snapshot);
}

TEST_HARNESS_MAIN
