// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the optional CTR fields (include/rvctr/ctr.h): which
 * branch filters a hart can honour, given the sctrctl fields that read
 * back set after the driver wrote them all, and what a hart brought up
 * later lacks of what the PMU offers.
 *
 * QEMU implements every field, so the board never refuses anything:
 * these tests are where the refusals are checked.  The QEMU value is the
 * one the driver logged on the board ("CTR on every hart: sctrctl fields
 * 0xff3e00001983, MISP yes"); the others are that value with fields
 * cleared, as CTR v1.0 lets an implementation leave them out.
 */
#include <rvctr/ctr.h>
#include <rvctr/hpm.h>
#include <riscv_ctr_rec.h>

#include "tests.h"

#define U	PERF_SAMPLE_BRANCH_USER
#define K	PERF_SAMPLE_BRANCH_KERNEL
#define CS	PERF_SAMPLE_BRANCH_CALL_STACK

/* Recorded on QEMU 10.0.2 (rv64, smctr=true, ssctr=true). */
#define QEMU_CTL	0xff3e00001983ULL
#define ALL_DEPTHS	0x1fU

static const struct riscv_ctr_hw qemu = { QEMU_CTL, ALL_DEPTHS, 1 };

/* The first missing field of @bst (with @opts) on @hw; "refused" if CTR cannot. */
static const char *needs(const struct riscv_ctr_hw *hw, uint64_t bst,
			 uint64_t opts)
{
	__u64 ctl;

	if (riscv_ctr_branch_filter(bst, opts, &ctl))
		return "refused";
	return riscv_ctr_field_name(riscv_ctr_sctrctl_missing(ctl, hw));
}

static void test_qemu_honours_everything(void)
{
	static const uint64_t types[] = {
		0, PERF_SAMPLE_BRANCH_ANY, PERF_SAMPLE_BRANCH_ANY_CALL,
		PERF_SAMPLE_BRANCH_ANY_RETURN, PERF_SAMPLE_BRANCH_IND_CALL,
		PERF_SAMPLE_BRANCH_CALL, PERF_SAMPLE_BRANCH_COND,
		PERF_SAMPLE_BRANCH_IND_JUMP, CS,
	};
	unsigned int t, o, missing = 0, n = 0;
	__u64 ctl;

	T_EQ(QEMU_CTL, RISCV_CTR_SCTRCTL_FIELDS, "QEMU keeps every sctrctl field");
	for (t = 0; t < sizeof(types) / sizeof(types[0]); t++)
		for (o = 0; o < 4; o++) {
			if (riscv_ctr_branch_filter(types[t] | U | K, o, &ctl))
				continue;
			n++;
			missing += !!riscv_ctr_sctrctl_missing(ctl, &qemu);
		}
	T_OK(n > 15, "filters translated");
	T_EQ(missing, 0, "QEMU can honour every filter");
}

static void test_no_rasemu(void)
{
	struct riscv_ctr_hw hw = qemu;

	hw.sctrctl &= ~CTRCTL_RASEMU;
	T_STREQ(needs(&hw, U | CS, 0), "RASEMU", "call stack needs RASEMU");
	T_STREQ(needs(&hw, U | K | PERF_SAMPLE_BRANCH_ANY, 0), "none",
		"any needs no RASEMU");
	T_STREQ(needs(&hw, U | PERF_SAMPLE_BRANCH_ANY_CALL, 0), "none",
		"any_call needs no RASEMU");
}

static void test_no_type_filter(void)
{
	struct riscv_ctr_hw hw = qemu;

	/* Only the mandatory fields, and the freezes. */
	hw.sctrctl = CTRCTL_U_ENABLE | CTRCTL_S_ENABLE | CTRCTL_LCOFIFRZ | CTRCTL_BPFRZ;
	T_STREQ(needs(&hw, U | K | PERF_SAMPLE_BRANCH_ANY, 0), "none",
		"any needs no inhibit bit");
	T_STREQ(needs(&hw, U, 0), "none", "no type bit: any");
	T_STREQ(needs(&hw, U | PERF_SAMPLE_BRANCH_CALL, 0), "EXCINH",
		"call needs the inhibits, lowest first");
	T_STREQ(needs(&hw, U | PERF_SAMPLE_BRANCH_ANY_CALL, 0), "TRETINH",
		"any_call lets traps through: TRETINH is the first it needs");
	T_STREQ(needs(&hw, U | PERF_SAMPLE_BRANCH_ANY, RISCV_CTR_OPT_BPFRZ), "none",
		"ctr_bpfrz with BPFRZ");
	T_STREQ(needs(&hw, U | CS, 0), "RASEMU", "call stack");

	/* One inhibit missing: the filters that need it, only. */
	hw = qemu;
	hw.sctrctl &= ~CTRCTL_CORSWAP_INH;
	T_STREQ(needs(&hw, U | PERF_SAMPLE_BRANCH_COND, 0), "CORSWAPINH",
		"cond must inhibit co-routine swaps");
	T_STREQ(needs(&hw, U | PERF_SAMPLE_BRANCH_ANY, 0), "none",
		"any does not");
}

static void test_no_options(void)
{
	struct riscv_ctr_hw hw = qemu;

	hw.sctrctl &= ~(CTRCTL_NTBREN | CTRCTL_BPFRZ);
	T_STREQ(needs(&hw, U | PERF_SAMPLE_BRANCH_ANY, RISCV_CTR_OPT_NTBR),
		"NTBREN", "ctr_ntbr needs NTBREN");
	T_STREQ(needs(&hw, U | PERF_SAMPLE_BRANCH_ANY, RISCV_CTR_OPT_BPFRZ),
		"BPFRZ", "ctr_bpfrz needs BPFRZ");
	T_STREQ(needs(&hw, U | PERF_SAMPLE_BRANCH_ANY, 0), "none",
		"any without them");
	T_STREQ(needs(&hw, U | PERF_SAMPLE_BRANCH_CALL, RISCV_CTR_OPT_NTBR),
		"refused", "ctr_ntbr without cond is refused before the mask");

	hw = qemu;
	hw.sctrctl &= ~CTRCTL_LCOFIFRZ;
	T_STREQ(needs(&hw, U | PERF_SAMPLE_BRANCH_ANY, 0), "LCOFIFRZ",
		"no LCOFIFRZ: nothing can be sampled");
	hw.sctrctl = CTRCTL_U_ENABLE | CTRCTL_LCOFIFRZ;
	T_STREQ(needs(&hw, K | PERF_SAMPLE_BRANCH_ANY, 0), "S", "k needs S");
	T_STREQ(needs(&hw, U | PERF_SAMPLE_BRANCH_ANY, 0), "none", "u does not");
}

static void test_names(void)
{
	T_STREQ(riscv_ctr_field_name(0), "none", "nothing missing");
	T_STREQ(riscv_ctr_field_name(CTRCTL_RASEMU | CTRCTL_NTBREN),
		"RASEMU", "the lowest field");
	T_STREQ(riscv_ctr_field_name(1ULL << 38), "reserved", "bit 38");
	T_STREQ(riscv_ctr_field_name(CTRCTL_DIRLJUMP_INH), "DIRLJMPINH", "bit 47");
	T_STREQ(riscv_ctr_field_name(1ULL << 63), "reserved", "bit 63");
}

/* Two harts, as the driver sees them at load. */
static void test_intersection(void)
{
	struct riscv_ctr_hw all = { ~0ULL, ALL_DEPTHS, 1 };
	const struct riscv_ctr_hw h0 = { QEMU_CTL, ALL_DEPTHS, 1 };
	const struct riscv_ctr_hw h1 = { QEMU_CTL & ~CTRCTL_RASEMU, 0x7, 0 };

	riscv_ctr_hw_and(&all, &h0);
	T_EQ(all.sctrctl, QEMU_CTL, "one hart: its fields");
	T_EQ(all.misp, 1, "one hart: its MISP");
	riscv_ctr_hw_and(&all, &h1);
	T_EQ(all.sctrctl, QEMU_CTL & ~CTRCTL_RASEMU, "two: RASEMU only if both");
	T_EQ(all.depths, 0x7, "two: 16..64");
	T_EQ(all.misp, 0, "two: MISP only if both");
}

/* A hart that comes up after load. */
static void test_late_hart(void)
{
	const struct riscv_ctr_hw pmu = { QEMU_CTL, ALL_DEPTHS, 0 };
	const struct riscv_ctr_hw misp_pmu = { QEMU_CTL, ALL_DEPTHS, 1 };
	struct riscv_ctr_hw hart = pmu, lack;

	T_EQ(riscv_ctr_hw_lacks(&hart, &pmu, &lack), 0, "the same hart: nothing");
	hart.misp = 1;
	hart.sctrctl |= 1ULL << 60;
	T_EQ(riscv_ctr_hw_lacks(&hart, &pmu, &lack), 0, "more than offered: nothing");

	hart = pmu;
	hart.depths = 0x7;
	T_OK(riscv_ctr_hw_lacks(&hart, &pmu, &lack), "no 128, 256: lacks");
	T_EQ(lack.depths, 0x18, "depths 128 and 256");
	T_EQ(lack.sctrctl, 0, "no field");

	hart = pmu;
	hart.sctrctl &= ~(CTRCTL_RASEMU | CTRCTL_NTBREN);
	T_OK(riscv_ctr_hw_lacks(&hart, &pmu, &lack), "no RASEMU: lacks");
	T_EQ(lack.sctrctl, CTRCTL_RASEMU | CTRCTL_NTBREN, "RASEMU and NTBREN");
	T_STREQ(riscv_ctr_field_name(lack.sctrctl), "RASEMU", "named");

	hart = misp_pmu;
	hart.misp = 0;
	T_OK(riscv_ctr_hw_lacks(&hart, &misp_pmu, &lack) && lack.misp,
	     "no MISP where the others report it: lacks");
}

static void test_depth_pick(void)
{
	T_EQ(riscv_ctr_depth_pick(ALL_DEPTHS, 64), 64, "64 of 16..256");
	T_EQ(riscv_ctr_depth_pick(ALL_DEPTHS, 0), 256, "0: the largest");
	T_EQ(riscv_ctr_depth_pick(ALL_DEPTHS, 256), 256, "256 when asked");
	T_EQ(riscv_ctr_depth_pick(ALL_DEPTHS, 48), 32, "48: the largest below");
	T_EQ(riscv_ctr_depth_pick(0x1, 64), 16, "a 16-entry hart gives 16");
	T_EQ(riscv_ctr_depth_pick(0x18, 64), 128, "128..256 only: the smallest");
	T_EQ(riscv_ctr_depth_pick(0x18, 1000), 256, "1000: the largest below");
	T_EQ(riscv_ctr_depth_pick(0, 64), 0, "no depth at all");
	T_EQ(riscv_ctr_depth_pick(0x100, 64), 0, "no valid encoding");
}

int main(void)
{
	test_qemu_honours_everything();
	test_no_rasemu();
	test_no_type_filter();
	test_no_options();
	test_names();
	test_intersection();
	test_late_hart();
	test_depth_pick();
	return tests_done();
}
