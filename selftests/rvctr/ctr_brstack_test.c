// SPDX-License-Identifier: GPL-2.0-only
/*
 * Branch stacks of a workload whose transfers are known exactly: with
 * every filter, each sample's stack is the workload's own sequence of
 * (source, target, type), newest first, and nothing else; and the newest
 * entry leads to the sampled instruction (CTR froze on the overflow).
 */
#define _GNU_SOURCE
#include <sched.h>

/* kselftest_harness.h is not -Wextra clean */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include "kselftest_harness.h"
#include "ctr_test_lib.h"

#define LOOPS		200000
#define PERIOD		50021

#define B(x)		(1U << (x))
#define ALL_X		(B(X_NR) - 1)

/*
 * Check every sample: each entry is one of the transfers in @allowed,
 * and consecutive entries follow the workload's order (entry i + 1 is
 * the allowed transfer that comes before entry i).  Entries older than
 * the loop's start (source outside the workload's code: the call into
 * the loop, the ioctl that enabled the event) end the check: the first
 * samples after enabling have them.  Returns the number of entries checked, -1
 * on the first mismatch (logged).
 */
static long check_samples(struct __test_metadata *_metadata,
			  const struct ct_workload *w, struct ct_event *ev,
			  unsigned int allowed)
{
	long checked = 0;
	int i, k, early = 0;

	for (i = 0; i < ev->nsamples; i++) {
		const struct ct_sample *s = &ev->s[i];
		int prev = -1;

		for (k = 0; k < (int)s->nr; k++) {
			const struct perf_branch_entry *e = &s->br[k];
			int x = ct_which(w, e), want;

			if (x < 0 && (e->from < w->lo || e->from >= w->hi)) {
				if (!early++) {
					TH_LOG("sample %d (of %d, %llu entries) entry %d:",
					       i, ev->nsamples,
					       (unsigned long long)s->nr, k);
					TH_LOG("%#llx -> %#llx type %u before the loop",
					       (unsigned long long)e->from,
					       (unsigned long long)e->to, e->type);
				}
				break;
			}
			if (x < 0 || !(allowed & B(x))) {
				TH_LOG("sample %d entry %d: %#llx -> %#llx type %u is not expected",
				       i, k, (unsigned long long)e->from,
				       (unsigned long long)e->to, e->type);
				return -1;
			}
			if (prev >= 0) {
				want = prev;
				do
					want = (want + X_NR - 1) % X_NR;
				while (!(allowed & B(want)));
				if (x != want) {
					TH_LOG("sample %d entry %d: %s after %s, want %s",
					       i, k, w->x[x].name, w->x[prev].name,
					       w->x[want].name);
					return -1;
				}
			}
			prev = x;
			checked++;
		}
	}
	TH_LOG("%d samples reach back before the loop", early);
	return checked;
}

static void run_filter(struct __test_metadata *_metadata, uint64_t bst,
		       unsigned int allowed, uint64_t config3)
{
	struct ct_workload w;
	struct ct_event ev;
	long n;
	int ret;

	if (!ct_have_ctr())
		SKIP(return, "no CTR: /sys/bus/event_source/devices/cpu/caps/branches missing");
	ct_workload_init(&w);
	ASSERT_NE(0, w.x[X_BACK].from) TH_LOG("back edge of the loop not found");
	ret = ct_open(&ev, bst | PERF_SAMPLE_BRANCH_USER, config3, PERIOD);
	ASSERT_EQ(0, ret) TH_LOG("perf_event_open: %s", strerror(-ret));
	ct_enable(&ev);
	ct_loop(LOOPS);
	ct_disable(&ev);
	ct_read(&ev);
	TH_LOG("%d samples, %d lost", ev.nsamples, ev.lost);
	ASSERT_GE(ev.nsamples, 10);
	n = check_samples(_metadata, &w, &ev, allowed);
	ASSERT_GT(n, 0) TH_LOG("no entry matched");
	TH_LOG("%ld entries, all as expected", n);
	ct_close(&ev);
}

TEST(filter_any)
{
	run_filter(_metadata, PERF_SAMPLE_BRANCH_ANY, ALL_X, 0);
}

TEST(filter_call)
{
	run_filter(_metadata, PERF_SAMPLE_BRANCH_CALL, B(X_CALL), 0);
}

TEST(filter_ind_call)
{
	run_filter(_metadata, PERF_SAMPLE_BRANCH_IND_CALL, B(X_ICALL), 0);
}

TEST(filter_any_call)
{
	run_filter(_metadata, PERF_SAMPLE_BRANCH_ANY_CALL, B(X_CALL) | B(X_ICALL), 0);
}

TEST(filter_any_return)
{
	run_filter(_metadata, PERF_SAMPLE_BRANCH_ANY_RETURN,
		   B(X_RET_LEAF) | B(X_RET_IND), 0);
}

TEST(filter_cond)
{
	run_filter(_metadata, PERF_SAMPLE_BRANCH_COND, B(X_COND) | B(X_BACK), 0);
}

TEST(filter_ind_jump)
{
	run_filter(_metadata, PERF_SAMPLE_BRANCH_IND_JUMP, B(X_IJMP), 0);
}

TEST(filter_call_and_return)
{
	run_filter(_metadata, PERF_SAMPLE_BRANCH_CALL | PERF_SAMPLE_BRANCH_ANY_RETURN,
		   B(X_CALL) | B(X_RET_LEAF) | B(X_RET_IND), 0);
}

/*
 * The default depth: stock perf (6.12) skips stacks of more than 127
 * entries as a "corrupted branch chain" in perf report --branch-history
 * (PERF_MAX_BRANCH_DEPTH).  The driver's default depth must fit; a
 * test that lowers kernel.perf_event_max_stack puts it back.
 */
TEST(default_depth_fits_stock_perf)
{
	int depth = ct_have_ctr();

	if (!depth)
		SKIP(return, "no CTR");
	TH_LOG("caps/branches: %d", depth);
	ASSERT_LE(depth, 127);
	ASSERT_GE(depth, 16);
	ASSERT_EQ(0, depth & (depth - 1)) TH_LOG("not a CTR depth");
}

/*
 * Software-only flags change what is reported, not what is recorded:
 * no_flags drops the prediction bits and keeps the type and privilege
 * (as arm64's BRBE), no_cycles drops the cycle count.
 */
TEST(flags_no_flags)
{
	struct ct_event ev;
	int i, k, ret, typed = 0;

	if (!ct_have_ctr())
		SKIP(return, "no CTR");
	ret = ct_open(&ev, PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER |
		      PERF_SAMPLE_BRANCH_NO_FLAGS | PERF_SAMPLE_BRANCH_NO_CYCLES,
		      0, PERIOD);
	ASSERT_EQ(0, ret);
	ct_enable(&ev);
	ct_loop(LOOPS / 4);
	ct_disable(&ev);
	ct_read(&ev);
	ASSERT_GT(ev.nsamples, 0);
	for (i = 0; i < ev.nsamples; i++)
		for (k = 0; k < (int)ev.s[i].nr; k++) {
			ASSERT_EQ(0, (int)ev.s[i].br[k].mispred);
			ASSERT_EQ(0, (int)ev.s[i].br[k].predicted);
			ASSERT_EQ(0, (int)ev.s[i].br[k].cycles);
			ASSERT_EQ(PERF_BR_PRIV_USER, (int)ev.s[i].br[k].priv);
			typed += ev.s[i].br[k].type != PERF_BR_UNKNOWN;
		}
	ASSERT_GT(typed, 0) TH_LOG("no_flags dropped the branch types");
	ct_close(&ev);
}

/* Filters CTR cannot honour are refused, not silently widened. */
TEST(filter_refused)
{
	static const uint64_t bad[] = {
		PERF_SAMPLE_BRANCH_ABORT_TX, PERF_SAMPLE_BRANCH_IN_TX,
		PERF_SAMPLE_BRANCH_NO_TX, PERF_SAMPLE_BRANCH_COUNTERS,
	};
	struct ct_event ev;
	unsigned int i;

	if (!ct_have_ctr())
		SKIP(return, "no CTR");
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ASSERT_EQ(-EOPNOTSUPP, ct_open(&ev, PERF_SAMPLE_BRANCH_USER | bad[i], 0, PERIOD))
			TH_LOG("branch_sample_type %#llx", (unsigned long long)bad[i]);
	}
	/* ctr_ntbr needs conditional branches in the filter. */
	ASSERT_EQ(-EOPNOTSUPP, ct_open(&ev, PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL,
				       CT_CFG3_NTBR, PERIOD));
}

/*
 * config3 holds the CTR options (ctr_ntbr bit 0, ctr_bpfrz bit 1); its
 * other bits are reserved.  An event that sets one is refused with
 * EINVAL, with a branch stack or without, on a board with CTR or
 * without, so that an option added later cannot mean something else to
 * an older kernel.  The options themselves need a branch stack.
 */
TEST(config3_reserved_refused)
{
	static const uint64_t reserved[] = { 1ULL << 2, 1ULL << 31, 1ULL << 63 };
	struct perf_event_attr a;
	struct ct_event ev;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(reserved); i++) {
		ct_attr(&a, PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER,
			reserved[i] | CT_CFG3_NTBR, PERIOD);
		ASSERT_EQ(-EINVAL, ct_open_attr(&ev, &a))
			TH_LOG("config3 %#llx with a branch stack",
			       (unsigned long long)a.config3);
		a.sample_type &= ~(uint64_t)PERF_SAMPLE_BRANCH_STACK;
		a.branch_sample_type = 0;
		a.config3 = reserved[i];
		ASSERT_EQ(-EINVAL, ct_open_attr(&ev, &a))
			TH_LOG("config3 %#llx without a branch stack",
			       (unsigned long long)a.config3);
	}
	a.config3 = CT_CFG3_NTBR;
	ASSERT_EQ(-EINVAL, ct_open_attr(&ev, &a)) TH_LOG("ctr_ntbr without a branch stack");
	a.config3 = CT_CFG3_BPFRZ;
	ASSERT_EQ(-EINVAL, ct_open_attr(&ev, &a)) TH_LOG("ctr_bpfrz without a branch stack");
	a.config3 = 0;
	ASSERT_EQ(0, ct_open_attr(&ev, &a)) TH_LOG("the same event without config3 bits");
	ct_close(&ev);
}

/*
 * An SBI firmware event (config 63:62 = 2, SBI v2.0 "Firmware events")
 * is counted by the SBI implementation: no overflow interrupt freezes
 * CTR at a sample, so a branch stack is refused, even for counting.
 */
TEST(firmware_event_refused)
{
	struct perf_event_attr a;
	struct ct_event ev;

	if (!ct_have_ctr())
		SKIP(return, "no CTR");
	ct_attr(&a, PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER, 0, 0);
	a.type = PERF_TYPE_RAW;
	a.config = 2ULL << 62;	/* SBI_PMU_FW_MISALIGNED_LOAD */
	ASSERT_EQ(-EOPNOTSUPP, ct_open_attr(&ev, &a));
	/*
	 * The same event without a branch stack counts, in every mode: it
	 * takes no privilege filter either (pmu_exclude_test).
	 */
	a.sample_type = 0;
	a.branch_sample_type = 0;
	a.exclude_kernel = 0;
	a.exclude_hv = 0;
	ASSERT_EQ(0, ct_open_attr(&ev, &a));
	ct_close(&ev);
}

/*
 * Freeze: CTR stops at the overflow interrupt, so the sampled
 * instruction is in the basic block the newest entry jumped to: no
 * transfer lies between entry 0's target and the sample IP.
 */
TEST(freeze_newest_leads_to_ip)
{
	struct ct_workload w;
	struct ct_event ev;
	int i, exact = 0, in_kernel = 0, empty = 0, ret;
	uint64_t next;

	if (!ct_have_ctr())
		SKIP(return, "no CTR");
	ct_workload_init(&w);
	ret = ct_open(&ev, PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER, 0, PERIOD);
	ASSERT_EQ(0, ret);
	ct_enable(&ev);
	ct_loop(LOOPS);
	ct_disable(&ev);
	ct_read(&ev);
	ASSERT_GE(ev.nsamples, 10);
	for (i = 0; i < ev.nsamples; i++) {
		const struct ct_sample *s = &ev.s[i];

		/*
		 * An overflow of the last user instruction before a trap is
		 * taken in the kernel: that sample has no user instruction.
		 */
		if (ct_is_kernel(s->ip)) {
			in_kernel++;
			continue;
		}
		/*
		 * The buffer is cleared when the task is switched in; an
		 * overflow before its next branch has an empty stack (seen
		 * without -icount on a busy host).  Counted and bounded below.
		 */
		if (!s->nr) {
			empty++;
			continue;
		}
		/*
		 * The sampled instruction is the next to execute: at most
		 * the source of the first taken transfer after entry 0's
		 * target (sepc is that transfer when its instruction has
		 * not retired yet).  Not-taken branches lie in between.
		 */
		next = ct_next_source(&w, s->br[0].to);
		/* ~0 would be no bound at all: the workload always branches on. */
		ASSERT_NE(~0ULL, next)
			TH_LOG("sample %d: no transfer source after %#llx", i,
			       (unsigned long long)s->br[0].to);
		ASSERT_LE(s->br[0].to, s->ip)
			TH_LOG("sample %d ip %#llx before newest target %#llx", i,
			       (unsigned long long)s->ip,
			       (unsigned long long)s->br[0].to);
		ASSERT_LE(s->ip, next)
			TH_LOG("sample %d ip %#llx past %#llx, the first transfer after %#llx",
			       i, (unsigned long long)s->ip,
			       (unsigned long long)next,
			       (unsigned long long)s->br[0].to);
		exact += s->ip == s->br[0].to;
	}
	ASSERT_GE(ev.nsamples - in_kernel - empty, 10);
	ASSERT_LE(empty * 10, ev.nsamples)
		TH_LOG("%d of %d samples with an empty stack", empty, ev.nsamples);
	TH_LOG("%d samples with a kernel ip skipped, %d empty", in_kernel, empty);
	TH_LOG("%d samples, %d with ip == newest target", ev.nsamples, exact);
	ct_close(&ev);
}

/* With ctr_ntbr the workload's never-taken branch is recorded, without it never. */
TEST(ntbr_records_not_taken)
{
	struct ct_event ev;
	int i, k, ntbr = 0, ret;

	if (!ct_have_ctr())
		SKIP(return, "no CTR");
	ret = ct_open(&ev, PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER,
		      CT_CFG3_NTBR, PERIOD);
	ASSERT_EQ(0, ret);
	ct_enable(&ev);
	ct_loop(LOOPS / 4);
	ct_disable(&ev);
	ct_read(&ev);
	ASSERT_GT(ev.nsamples, 0);
	for (i = 0; i < ev.nsamples; i++)
		for (k = 0; k < (int)ev.s[i].nr; k++)
			ntbr += ev.s[i].br[k].from == ct_ntbr_src;
	TH_LOG("%d not-taken entries from %#llx", ntbr,
	       (unsigned long long)ct_ntbr_src);
	ASSERT_GT(ntbr, 0);
	ct_close(&ev);
}

TEST_HARNESS_MAIN
