// SPDX-License-Identifier: GPL-2.0-only
/* What a branch-stack recording holds; see rvctr/brstack.h. */
#include <stdio.h>
#include <string.h>

#include <rvctr/brstack.h>
#include <rvctr/ctr.h>
#include <riscv_ctr_rec.h>

/* drivers/perf/riscv_ctr.h: RISCV_CTR_CONFIG3_NTBR_BIT */
#define RVCTR_CFG3_NTBR		(1ULL << 0)
/* Before: ctr_ntbr config2:0, ctr_bpfrz config2:1 */
#define RVCTR_OLD_CFG2_NTBR	(1ULL << 0)
#define RVCTR_OLD_CFG2_OPTS	(3ULL << 0)

#define TYPE_FILTERS							\
	(PERF_SAMPLE_BRANCH_ANY_CALL | PERF_SAMPLE_BRANCH_ANY_RETURN |	\
	 PERF_SAMPLE_BRANCH_IND_CALL | PERF_SAMPLE_BRANCH_ABORT_TX |	\
	 PERF_SAMPLE_BRANCH_IN_TX | PERF_SAMPLE_BRANCH_NO_TX |		\
	 PERF_SAMPLE_BRANCH_COND | PERF_SAMPLE_BRANCH_IND_JUMP |	\
	 PERF_SAMPLE_BRANCH_CALL)

int rvctr_brstack__has_ntbr(const struct perf_event_attr *a, uint64_t config3,
			    const char *arch)
{
	/* config3 means ctr_ntbr only on the cpu PMU: RISC-V, a CPU event */
	if (arch && strncmp(arch, "riscv", 5))
		return 0;
	if (a->type != PERF_TYPE_HARDWARE && a->type != PERF_TYPE_HW_CACHE &&
	    a->type != PERF_TYPE_RAW && a->type < PERF_TYPE_MAX)
		return 0;
	if (config3)
		return !!(config3 & RVCTR_CFG3_NTBR);
	/* An old recording (see brstack.h) */
	return !(a->config2 & ~RVCTR_OLD_CFG2_OPTS) && (a->config2 & RVCTR_OLD_CFG2_NTBR);
}

int rvctr_brstack__all_taken(const struct perf_event_attr *a, char *why, size_t whylen)
{
	uint64_t bst = a->branch_sample_type;

	if (!(a->sample_type & PERF_SAMPLE_BRANCH_STACK))
		return 1;	/* no branches: nothing to get wrong */
	if (bst & PERF_SAMPLE_BRANCH_CALL_STACK) {
		snprintf(why, whylen, "it was recorded in call-stack mode (-j stack), which "
			 "keeps calls and drops returned-from ones, not a trace");
		return 0;
	}
	if (!(bst & PERF_SAMPLE_BRANCH_ANY) && (bst & TYPE_FILTERS)) {
		snprintf(why, whylen, "it was recorded with a branch type filter "
			 "(branch_sample_type %#llx): taken branches of other types are missing",
			 (unsigned long long)bst);
		return 0;
	}
	return 1;
}

int rvctr_brstack__complete(const struct perf_event_attr *a, uint64_t config3,
			    const char *arch, char *why, size_t whylen)
{
	if (!rvctr_brstack__all_taken(a, why, whylen))
		return 0;
	if ((a->sample_type & PERF_SAMPLE_BRANCH_STACK) &&
	    rvctr_brstack__has_ntbr(a, config3, arch)) {
		snprintf(why, whylen, "it was recorded with not-taken branches (ctr_ntbr), "
			 "which perf's branch records cannot mark as such");
		return 0;
	}
	return 1;
}

int rvctr_brstack__ctl_complete(uint64_t sctrctl, char *why, size_t whylen)
{
	if (sctrctl & CTRCTL_RASEMU) {
		snprintf(why, whylen, "a snapshot's sctrctl has RASEMU: its records are a "
			 "call-stack (return-address stack emulation), not a trace");
		return 0;
	}
	if (sctrctl & RISCV_CTR_INH_ALL) {
		snprintf(why, whylen, "a snapshot's sctrctl inhibits some taken transfers");
		return 0;
	}
	if (sctrctl & CTRCTL_NTBREN) {
		snprintf(why, whylen, "a snapshot records not-taken branches (NTBREN in its "
			 "sctrctl, or TYPE 4 entries)");
		return 0;
	}
	return 1;
}

/*
 * ctr_ntbr gives a not-taken branch type COND and the next instruction as
 * its target.  2 bytes on is a not-taken compressed branch: no 32-bit
 * branch targets its own second half.  4 bytes on is a not-taken 32-bit
 * branch, or a taken compressed one skipping a 16-bit instruction (c.beqz
 * over one RVC instruction); which, only the instruction at from says
 * (rvctr/insn.h reads it from the binary).
 */
int rvctr_brstack__not_taken(const struct perf_branch_entry *e)
{
	if (e->type != PERF_BR_COND)
		return 0;
	if (e->to - e->from == 2)
		return 1;
	return e->to - e->from == 4 ? RVCTR_BRSTACK_AMBIGUOUS : 0;
}

uint64_t rvctr_brstack__taken_only(const struct perf_branch_entry *in, uint64_t nr,
				   const uint8_t *not_taken, struct perf_branch_entry *out,
				   uint64_t *ambiguous)
{
	uint64_t i, n = 0;
	int nt;

	for (i = 0; i < nr; i++) {
		nt = not_taken ? not_taken[i] : rvctr_brstack__not_taken(&in[i]);
		if (nt == RVCTR_BRSTACK_AMBIGUOUS && ambiguous)
			(*ambiguous)++;
		if (!nt)
			out[n++] = in[i];
	}
	return n;
}
