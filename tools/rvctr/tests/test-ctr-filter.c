// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for riscv_ctr_branch_filter(): perf branch_sample_type to sctrctl,
 * the translation the driver does once per event at event_init.
 */
#include <rvctr/ctr.h>
#include <rvctr/hpm.h>
#include <riscv_ctr_rec.h>
#include <rvctr/ctr_decode.h>

#include "tests.h"

#define U	PERF_SAMPLE_BRANCH_USER
#define K	PERF_SAMPLE_BRANCH_KERNEL
#define HV	PERF_SAMPLE_BRANCH_HV

/* sctrctl for @bst with no options; ~0 if refused. */
static uint64_t ctl_of(uint64_t bst, uint64_t opts)
{
	__u64 ctl = 0;

	return riscv_ctr_branch_filter(bst, opts, &ctl) ? ~0ULL : ctl;
}

/* Transfer types the sctrctl value lets through, as BIT(type). */
static unsigned int types_of(uint64_t ctl)
{
	unsigned int t, mask = 0;

	for (t = 0; t < RISCV_CTR_NR_TYPES; t++)
		if (riscv_ctr_filter_passes(ctl, t))
			mask |= 1U << t;
	return mask;
}

#define TB(t)	(1U << CTRDATA_TYPE_##t)
#define ALL_TYPES	(TB(EXCEPTION) | TB(INTERRUPT) | TB(TRAP_RET) | TB(TAKEN_BRANCH) | TB(INDIRECT_CALL) | \
			 TB(DIRECT_CALL) | TB(INDIRECT_JUMP) | TB(DIRECT_JUMP) | TB(CO_ROUTINE_SWAP) | \
			 TB(RETURN) | TB(OTHER_INDIRECT_JUMP) | TB(OTHER_DIRECT_JUMP))

static void test_classified(void)
{
	T_EQ(RISCV_CTR_BRANCH_ALLOWED & RISCV_CTR_BRANCH_EXCLUDED, 0, "allowed and excluded disjoint");
	/* Host UAPI may predate COUNTERS (bit 19): compare up to MAX there. */
	T_EQ((RISCV_CTR_BRANCH_ALLOWED | RISCV_CTR_BRANCH_EXCLUDED) & (PERF_SAMPLE_BRANCH_MAX - 1),
	     PERF_SAMPLE_BRANCH_MAX - 1, "every generic filter bit classified");
}

static void test_priv(void)
{
	uint64_t any = PERF_SAMPLE_BRANCH_ANY;

	T_EQ(ctl_of(U | any, 0), CTRCTL_U_ENABLE | CTRCTL_LCOFIFRZ, "any,u");
	T_EQ(ctl_of(K | any, 0), CTRCTL_S_ENABLE | CTRCTL_LCOFIFRZ, "any,k");
	T_EQ(ctl_of(U | K | HV | any, 0),
	     CTRCTL_U_ENABLE | CTRCTL_S_ENABLE | CTRCTL_LCOFIFRZ, "root's any,u,k,hv: HV no-op");
	T_EQ(ctl_of(U | K | HV, 0), CTRCTL_U_ENABLE | CTRCTL_S_ENABLE | CTRCTL_LCOFIFRZ,
	     "no type bit means any");
	T_EQ(riscv_ctr_branch_filter(HV | any, 0, &(__u64){0}), RISCV_CTR_ENOMODE,
	     "hv alone records nothing: refused");
	T_EQ(riscv_ctr_branch_filter(any, 0, &(__u64){0}), RISCV_CTR_ENOMODE,
	     "no privilege at all: refused");
	T_EQ(ctl_of(U | any, 0) & (CTRCTL_M_ENABLE | CTRCTL_STE | CTRCTL_MTE), 0,
	     "never M-mode nor external traps");
}

static void test_types(void)
{
	T_EQ(types_of(ctl_of(U | PERF_SAMPLE_BRANCH_ANY, 0)), ALL_TYPES,
	     "any: every type but not-taken");
	T_EQ(types_of(ctl_of(U | PERF_SAMPLE_BRANCH_CALL, 0)), TB(DIRECT_CALL),
	     "call: direct calls only (never RET or COND)");
	T_EQ(types_of(ctl_of(U | PERF_SAMPLE_BRANCH_IND_CALL, 0)), TB(INDIRECT_CALL),
	     "ind_call");
	T_EQ(types_of(ctl_of(U | PERF_SAMPLE_BRANCH_ANY_CALL, 0)),
	     TB(INDIRECT_CALL) | TB(DIRECT_CALL) | TB(EXCEPTION) | TB(INTERRUPT), "any_call: calls and traps");
	T_EQ(types_of(ctl_of(U | PERF_SAMPLE_BRANCH_ANY_RETURN, 0)), TB(RETURN) | TB(TRAP_RET),
	     "any_ret: returns and trap returns");
	T_EQ(types_of(ctl_of(U | PERF_SAMPLE_BRANCH_COND, 0)), TB(TAKEN_BRANCH), "cond: taken branches");
	T_EQ(types_of(ctl_of(U | PERF_SAMPLE_BRANCH_IND_JUMP, 0)), TB(INDIRECT_JUMP) | TB(OTHER_INDIRECT_JUMP),
	     "ind_jmp");
	T_EQ(types_of(ctl_of(U | PERF_SAMPLE_BRANCH_CALL | PERF_SAMPLE_BRANCH_ANY_RETURN, 0)),
	     TB(DIRECT_CALL) | TB(RETURN) | TB(TRAP_RET), "call,any_ret combine");
	T_EQ(ctl_of(U | PERF_SAMPLE_BRANCH_CALL, 0) & CTRCTL_NTBREN, 0, "no NTBREN by default");
}

static void test_software_flags(void)
{
	uint64_t sw = PERF_SAMPLE_BRANCH_NO_FLAGS | PERF_SAMPLE_BRANCH_NO_CYCLES |
		      PERF_SAMPLE_BRANCH_TYPE_SAVE | PERF_SAMPLE_BRANCH_HW_INDEX |
		      PERF_SAMPLE_BRANCH_PRIV_SAVE;

	T_EQ(ctl_of(U | PERF_SAMPLE_BRANCH_ANY | sw, 0), ctl_of(U | PERF_SAMPLE_BRANCH_ANY, 0),
	     "software-only flags do not change sctrctl");
}

static void test_refused(void)
{
	T_EQ(ctl_of(U | PERF_SAMPLE_BRANCH_ABORT_TX, 0), ~0ULL, "abort_tx refused");
	T_EQ(ctl_of(U | PERF_SAMPLE_BRANCH_IN_TX, 0), ~0ULL, "in_tx refused");
	T_EQ(ctl_of(U | PERF_SAMPLE_BRANCH_NO_TX, 0), ~0ULL, "no_tx refused");
	T_EQ(ctl_of(U | PERF_SAMPLE_BRANCH_COUNTERS, 0), ~0ULL, "counters refused");
	T_EQ(ctl_of(U | (1ULL << 40), 0), ~0ULL, "unknown bit refused");
}

static void test_options(void)
{
	uint64_t ctl;

	ctl = ctl_of(U | PERF_SAMPLE_BRANCH_COND, RISCV_CTR_OPT_NTBR);
	T_EQ(types_of(ctl), TB(TAKEN_BRANCH) | TB(NONTAKEN_BRANCH), "cond + ntbr: taken and not-taken");
	T_EQ(ctl_of(U | PERF_SAMPLE_BRANCH_CALL, RISCV_CTR_OPT_NTBR), ~0ULL,
	     "ntbr without cond refused");
	T_OK(ctl_of(U | PERF_SAMPLE_BRANCH_ANY, RISCV_CTR_OPT_NTBR) & CTRCTL_NTBREN,
	     "any + ntbr sets NTBREN");
	T_OK(ctl_of(U | PERF_SAMPLE_BRANCH_ANY, RISCV_CTR_OPT_BPFRZ) & CTRCTL_BPFRZ,
	     "bpfrz sets BPFRZ");
	T_EQ(ctl_of(U | PERF_SAMPLE_BRANCH_ANY, 0) & CTRCTL_BPFRZ, 0, "no BPFRZ by default");
	T_OK(ctl_of(U | PERF_SAMPLE_BRANCH_ANY, 0) & CTRCTL_LCOFIFRZ, "LCOFIFRZ always");
}

static void test_call_stack(void)
{
	uint64_t cs = U | PERF_SAMPLE_BRANCH_CALL_STACK;

	/* perf record --call-graph lbr asks for this exact set. */
	T_EQ(ctl_of(cs | PERF_SAMPLE_BRANCH_NO_FLAGS | PERF_SAMPLE_BRANCH_NO_CYCLES |
		    PERF_SAMPLE_BRANCH_HW_INDEX, 0),
	     CTRCTL_U_ENABLE | CTRCTL_LCOFIFRZ | CTRCTL_RASEMU, "call_stack: RASEMU");
	T_EQ(ctl_of(cs | PERF_SAMPLE_BRANCH_COND, 0), ~0ULL,
	     "call_stack with a type filter refused (RASEMU ignores them)");
	T_EQ(ctl_of(cs, RISCV_CTR_OPT_NTBR), ~0ULL, "call_stack + ntbr refused");
}

/*
 * Whatever the filter, the value written to sctrctl sets only sctrctl's
 * fields, never a reserved (WPRI) bit: bits 38 and 39 would inhibit the
 * reserved types 6 and 7.
 */
static void test_fields_only(void)
{
	static const uint64_t types[] = {
		0, PERF_SAMPLE_BRANCH_ANY, PERF_SAMPLE_BRANCH_ANY_CALL,
		PERF_SAMPLE_BRANCH_ANY_RETURN, PERF_SAMPLE_BRANCH_IND_CALL,
		PERF_SAMPLE_BRANCH_CALL, PERF_SAMPLE_BRANCH_COND,
		PERF_SAMPLE_BRANCH_IND_JUMP, PERF_SAMPLE_BRANCH_CALL_STACK,
		PERF_SAMPLE_BRANCH_CALL | PERF_SAMPLE_BRANCH_ANY_RETURN,
		PERF_SAMPLE_BRANCH_COND | PERF_SAMPLE_BRANCH_IND_JUMP,
	};
	static const uint64_t privs[] = { U, K, U | K };
	/* CTR v1.0 sctrctl: U, S, RASEMU, STE, BPFRZ, LCOFIFRZ, 33-37, 40-47 */
	const uint64_t fields = 0x1983ULL | 0x3eULL << 32 | 0xffULL << 40;
	uint64_t outside = 0, ctl;
	unsigned int t, p, o, n = 0;

	for (t = 0; t < sizeof(types) / sizeof(types[0]); t++)
		for (p = 0; p < sizeof(privs) / sizeof(privs[0]); p++)
			for (o = 0; o < 4; o++) {
				ctl = ctl_of(types[t] | privs[p], o);
				if (ctl == ~0ULL)
					continue;
				outside |= ctl & ~fields;
				n++;
			}
	T_OK(n > 50, "most combinations translate");
	T_EQ(outside, 0, "no filter sets a bit outside sctrctl's fields");
	T_EQ(RISCV_CTR_SCTRCTL_FIELDS, fields, "RISCV_CTR_SCTRCTL_FIELDS: the fields of sctrctl");
}

int main(void)
{
	test_classified();
	test_priv();
	test_types();
	test_software_flags();
	test_refused();
	test_options();
	test_call_stack();
	test_fields_only();
	return tests_done();
}
