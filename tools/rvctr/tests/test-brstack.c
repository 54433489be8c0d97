// SPDX-License-Identifier: GPL-2.0-only
/* Which recordings range outputs may use (rvctr/brstack.h). */
#include <rvctr/brstack.h>
#include <rvctr/ctr.h>

#include "tests.h"

static struct perf_event_attr attr(uint64_t bst, uint64_t config2)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_HARDWARE,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK,
		.branch_sample_type = bst,
		.config2 = config2,
	};
	return a;
}

int main(void)
{
	const uint64_t U = PERF_SAMPLE_BRANCH_USER;
	struct perf_event_attr a;
	struct perf_branch_entry in[4] = {
		{ .from = 0x1000, .to = 0x1004, .type = PERF_BR_COND },	/* not taken */
		{ .from = 0x1010, .to = 0x1000, .type = PERF_BR_COND },	/* taken */
		{ .from = 0x1020, .to = 0x1022, .type = PERF_BR_COND },	/* c.beqz not taken */
		{ .from = 0x1030, .to = 0x1034, .type = PERF_BR_UNCOND },	/* jump to next */
	}, out[4];
	const uint8_t exact[4] = { 0, 0, 1, 0 };
	uint64_t amb = 0;
	char why[256] = "";

	a = attr(PERF_SAMPLE_BRANCH_ANY | U, 0);
	T_EQ(rvctr_brstack__complete(&a, 0, "riscv64", why, sizeof(why)), 1, "any,u: complete");
	a = attr(U, 0);
	T_EQ(rvctr_brstack__complete(&a, 0, "riscv64", why, sizeof(why)), 1,
	     "privilege only (means any): complete");
	a = attr(PERF_SAMPLE_BRANCH_ANY_CALL | U, 0);
	T_EQ(rvctr_brstack__complete(&a, 0, "riscv64", why, sizeof(why)), 0, "any_call: refused");
	T_OK(strstr(why, "type filter") != NULL, "naming the filter");
	a = attr(PERF_SAMPLE_BRANCH_COND | U, 0);
	T_EQ(rvctr_brstack__complete(&a, 0, NULL, why, sizeof(why)), 0, "cond: refused");
	a = attr(PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_CALL_STACK | U, 0);
	T_EQ(rvctr_brstack__complete(&a, 0, "riscv64", why, sizeof(why)), 0, "call stack: refused");
	T_OK(strstr(why, "call-stack") != NULL, "naming call-stack mode");
	a = attr(PERF_SAMPLE_BRANCH_ANY | U, 0);
	T_EQ(rvctr_brstack__complete(&a, 1, "riscv64", why, sizeof(why)), 0,
	     "ctr_ntbr (config3:0): refused");
	T_OK(strstr(why, "not-taken") != NULL, "naming not-taken branches");
	T_EQ(rvctr_brstack__has_ntbr(&a, 3, "riscv64"), 1, "ctr_ntbr and ctr_bpfrz: ntbr");
	T_EQ(rvctr_brstack__has_ntbr(&a, 2, "riscv64"), 0, "ctr_bpfrz alone: no ntbr");
	a = attr(PERF_SAMPLE_BRANCH_ANY | U, 1);
	T_EQ(rvctr_brstack__has_ntbr(&a, 2, "riscv64"), 0,
	     "config2 bit 0 beside a config3 option is counterid_mask, not ctr_ntbr");
	a = attr(PERF_SAMPLE_BRANCH_ANY | U, 0xf9);
	T_EQ(rvctr_brstack__has_ntbr(&a, 0, "riscv64"), 0,
	     "a counterid_mask (config2:0-31) is not the old ctr_ntbr");
	a = attr(PERF_SAMPLE_BRANCH_ANY | U, 3);
	T_EQ(rvctr_brstack__has_ntbr(&a, 0, "riscv64"), 1,
	     "old recording: ctr_ntbr and ctr_bpfrz at config2:0-1");
	a = attr(PERF_SAMPLE_BRANCH_ANY | U, 2);
	T_EQ(rvctr_brstack__has_ntbr(&a, 0, "riscv64"), 0, "old recording: ctr_bpfrz alone");
	a = attr(PERF_SAMPLE_BRANCH_ANY | U, 1);
	T_EQ(rvctr_brstack__complete(&a, 0, "riscv64", why, sizeof(why)), 0,
	     "old recording, ctr_ntbr at config2:0: refused");
	T_OK(strstr(why, "not-taken") != NULL, "naming not-taken branches");
	T_EQ(rvctr_brstack__all_taken(&a, why, sizeof(why)), 1,
	     "ctr_ntbr alone: every taken branch is there");
	a = attr(PERF_SAMPLE_BRANCH_ANY_CALL | U, 1);
	T_EQ(rvctr_brstack__all_taken(&a, why, sizeof(why)), 0,
	     "ctr_ntbr and a type filter: taken branches missing");
	T_OK(strstr(why, "type filter") != NULL, "naming the filter, not ctr_ntbr");
	a = attr(PERF_SAMPLE_BRANCH_ANY | U, 1);
	T_EQ(rvctr_brstack__complete(&a, 1, "x86_64", why, sizeof(why)), 1,
	     "config2/config3 bit 0 mean nothing on another arch");
	a.type = PERF_TYPE_SOFTWARE;
	T_EQ(rvctr_brstack__has_ntbr(&a, 1, "riscv64"), 0, "nor for a software event");
	a = attr(PERF_SAMPLE_BRANCH_COND | U, 0);
	a.sample_type = PERF_SAMPLE_IP;
	T_EQ(rvctr_brstack__complete(&a, 0, "riscv64", why, sizeof(why)), 1,
	     "no branch stack: nothing to refuse");

	/* snapshots: the sctrctl they were taken under */
	T_EQ(rvctr_brstack__ctl_complete(CTRCTL_U_ENABLE | CTRCTL_S_ENABLE | CTRCTL_BPFRZ |
					 CTRCTL_LCOFIFRZ, why, sizeof(why)), 1,
	     "sctrctl U, S, BPFRZ, LCOFIFRZ: complete");
	T_EQ(rvctr_brstack__ctl_complete(0, why, sizeof(why)), 1, "no sctrctl given: complete");
	T_EQ(rvctr_brstack__ctl_complete(CTRCTL_U_ENABLE | CTRCTL_RASEMU, why, sizeof(why)), 0,
	     "RASEMU: refused");
	T_OK(strstr(why, "RASEMU") && strstr(why, "call-stack"), "naming RASEMU, call-stack");
	T_EQ(rvctr_brstack__ctl_complete(CTRCTL_U_ENABLE | CTRCTL_RET_INH, why, sizeof(why)), 0,
	     "an inhibited type: refused");
	T_OK(strstr(why, "inhibits") != NULL, "naming the inhibit");
	T_EQ(rvctr_brstack__ctl_complete(CTRCTL_U_ENABLE | CTRCTL_NTBREN, why, sizeof(why)), 0,
	     "NTBREN: refused");
	T_OK(strstr(why, "NTBREN") != NULL, "naming NTBREN");

	T_EQ(rvctr_brstack__not_taken(&in[0]), RVCTR_BRSTACK_AMBIGUOUS,
	     "COND to pc+4: not taken, or a taken c.beqz over one 16-bit instruction");
	T_EQ(rvctr_brstack__not_taken(&in[1]), 0, "COND backwards: taken");
	T_EQ(rvctr_brstack__not_taken(&in[2]), 1, "COND to pc+2 (compressed): not taken");
	T_EQ(rvctr_brstack__not_taken(&in[3]), 0, "a jump is always taken");
	T_EQ(rvctr_brstack__taken_only(in, 4, NULL, out, &amb), 2, "two taken records kept");
	T_EQ(out[0].from, 0x1010, "in order");
	T_EQ(out[1].from, 0x1030, "in order");
	T_EQ(amb, 1, "the pc+4 one counted as ambiguous");
	/* exact flags (snapshot TYPE 4): a COND to pc+4 flagged taken is kept */
	T_EQ(rvctr_brstack__taken_only(in, 4, exact, out, &amb), 3, "exact: three kept");
	T_EQ(out[0].from, 0x1000, "exact: the taken COND to pc+4 kept");
	T_EQ(amb, 1, "exact flags: nothing ambiguous");
	/* flags decided from the binary, one left a guess: dropped and counted */
	{
		const uint8_t some[4] = { RVCTR_BRSTACK_AMBIGUOUS, 0, 1, 0 };

		T_EQ(rvctr_brstack__taken_only(in, 4, some, out, &amb), 2,
		     "an undecided flag: taken as not taken");
		T_EQ(out[0].from, 0x1010, "the taken COND kept");
		T_EQ(amb, 2, "the undecided one counted");
	}
	return tests_done();
}
