// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for rvctr_branch_filter(): perf branch_sample_type to sctrctl,
 * the translation the driver does once per event at event_init.
 */
#include <rvctr/ctr.h>

#include "tests.h"

#define U	PERF_SAMPLE_BRANCH_USER
#define K	PERF_SAMPLE_BRANCH_KERNEL
#define HV	PERF_SAMPLE_BRANCH_HV

/* sctrctl for @bst with no options; ~0 if refused. */
static uint64_t ctl_of(uint64_t bst, uint64_t opts)
{
	__u64 ctl = 0;

	return rvctr_branch_filter(bst, opts, &ctl) ? ~0ULL : ctl;
}

/* Transfer types the sctrctl value lets through, as BIT(type). */
static unsigned int types_of(uint64_t ctl)
{
	unsigned int t, mask = 0;

	for (t = 0; t < RVCTR_NR_TYPES; t++)
		if (rvctr_filter_passes(ctl, t))
			mask |= 1U << t;
	return mask;
}

#define TB(t)	(1U << RVCTR_TYPE_##t)
#define ALL_TYPES	(TB(EXC) | TB(INTR) | TB(TRET) | TB(TKBR) | TB(INDCALL) | \
			 TB(DIRCALL) | TB(INDJMP) | TB(DIRJMP) | TB(CORSWAP) | \
			 TB(RET) | TB(INDLJMP) | TB(DIRLJMP))

static void test_classified(void)
{
	T_EQ(RVCTR_BRANCH_ALLOWED & RVCTR_BRANCH_EXCLUDED, 0, "allowed and excluded disjoint");
	/* Host UAPI may predate COUNTERS (bit 19): compare up to MAX there. */
	T_EQ((RVCTR_BRANCH_ALLOWED | RVCTR_BRANCH_EXCLUDED) & (PERF_SAMPLE_BRANCH_MAX - 1),
	     PERF_SAMPLE_BRANCH_MAX - 1, "every generic filter bit classified");
}

static void test_priv(void)
{
	uint64_t any = PERF_SAMPLE_BRANCH_ANY;

	T_EQ(ctl_of(U | any, 0), RVCTR_CTL_U | RVCTR_CTL_LCOFIFRZ, "any,u");
	T_EQ(ctl_of(K | any, 0), RVCTR_CTL_S | RVCTR_CTL_LCOFIFRZ, "any,k");
	T_EQ(ctl_of(U | K | HV | any, 0),
	     RVCTR_CTL_U | RVCTR_CTL_S | RVCTR_CTL_LCOFIFRZ, "root's any,u,k,hv: HV no-op");
	T_EQ(ctl_of(U | K | HV, 0), RVCTR_CTL_U | RVCTR_CTL_S | RVCTR_CTL_LCOFIFRZ,
	     "no type bit means any");
	T_EQ(rvctr_branch_filter(HV | any, 0, &(__u64){0}), RVCTR_FILTER_ENOMODE,
	     "hv alone records nothing: refused");
	T_EQ(rvctr_branch_filter(any, 0, &(__u64){0}), RVCTR_FILTER_ENOMODE,
	     "no privilege at all: refused");
	T_EQ(ctl_of(U | any, 0) & (RVCTR_CTL_M | RVCTR_CTL_STE | RVCTR_CTL_MTE), 0,
	     "never M-mode nor external traps");
}

static void test_types(void)
{
	T_EQ(types_of(ctl_of(U | PERF_SAMPLE_BRANCH_ANY, 0)), ALL_TYPES,
	     "any: every type but not-taken");
	T_EQ(types_of(ctl_of(U | PERF_SAMPLE_BRANCH_CALL, 0)), TB(DIRCALL),
	     "call: direct calls only (never RET or COND)");
	T_EQ(types_of(ctl_of(U | PERF_SAMPLE_BRANCH_IND_CALL, 0)), TB(INDCALL),
	     "ind_call");
	T_EQ(types_of(ctl_of(U | PERF_SAMPLE_BRANCH_ANY_CALL, 0)),
	     TB(INDCALL) | TB(DIRCALL) | TB(EXC) | TB(INTR), "any_call: calls and traps");
	T_EQ(types_of(ctl_of(U | PERF_SAMPLE_BRANCH_ANY_RETURN, 0)), TB(RET) | TB(TRET),
	     "any_ret: returns and trap returns");
	T_EQ(types_of(ctl_of(U | PERF_SAMPLE_BRANCH_COND, 0)), TB(TKBR), "cond: taken branches");
	T_EQ(types_of(ctl_of(U | PERF_SAMPLE_BRANCH_IND_JUMP, 0)), TB(INDJMP) | TB(INDLJMP),
	     "ind_jmp");
	T_EQ(types_of(ctl_of(U | PERF_SAMPLE_BRANCH_CALL | PERF_SAMPLE_BRANCH_ANY_RETURN, 0)),
	     TB(DIRCALL) | TB(RET) | TB(TRET), "call,any_ret combine");
	T_EQ(ctl_of(U | PERF_SAMPLE_BRANCH_CALL, 0) & RVCTR_CTL_NTBREN, 0, "no NTBREN by default");
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
	T_EQ(ctl_of(U | RVCTR_BRANCH_COUNTERS, 0), ~0ULL, "counters refused");
	T_EQ(ctl_of(U | (1ULL << 40), 0), ~0ULL, "unknown bit refused");
}

static void test_options(void)
{
	uint64_t ctl;

	ctl = ctl_of(U | PERF_SAMPLE_BRANCH_COND, RVCTR_FILTER_NTBR);
	T_EQ(types_of(ctl), TB(TKBR) | TB(NTBR), "cond + ntbr: taken and not-taken");
	T_EQ(ctl_of(U | PERF_SAMPLE_BRANCH_CALL, RVCTR_FILTER_NTBR), ~0ULL,
	     "ntbr without cond refused");
	T_OK(ctl_of(U | PERF_SAMPLE_BRANCH_ANY, RVCTR_FILTER_NTBR) & RVCTR_CTL_NTBREN,
	     "any + ntbr sets NTBREN");
	T_OK(ctl_of(U | PERF_SAMPLE_BRANCH_ANY, RVCTR_FILTER_BPFRZ) & RVCTR_CTL_BPFRZ,
	     "bpfrz sets BPFRZ");
	T_EQ(ctl_of(U | PERF_SAMPLE_BRANCH_ANY, 0) & RVCTR_CTL_BPFRZ, 0, "no BPFRZ by default");
	T_OK(ctl_of(U | PERF_SAMPLE_BRANCH_ANY, 0) & RVCTR_CTL_LCOFIFRZ, "LCOFIFRZ always");
}

static void test_call_stack(void)
{
	uint64_t cs = U | PERF_SAMPLE_BRANCH_CALL_STACK;

	/* perf record --call-graph lbr asks for this exact set. */
	T_EQ(ctl_of(cs | PERF_SAMPLE_BRANCH_NO_FLAGS | PERF_SAMPLE_BRANCH_NO_CYCLES |
		    PERF_SAMPLE_BRANCH_HW_INDEX, 0),
	     RVCTR_CTL_U | RVCTR_CTL_LCOFIFRZ | RVCTR_CTL_RASEMU, "call_stack: RASEMU");
	T_EQ(ctl_of(cs | PERF_SAMPLE_BRANCH_COND, 0), ~0ULL,
	     "call_stack with a type filter refused (RASEMU ignores them)");
	T_EQ(ctl_of(cs, RVCTR_FILTER_NTBR), ~0ULL, "call_stack + ntbr refused");
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
	T_EQ(RVCTR_CTL_SFIELDS, fields, "RVCTR_CTL_SFIELDS: the fields of sctrctl");
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
