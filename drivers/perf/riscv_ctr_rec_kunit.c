// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the CTR record conversion of the sample path: the
 * template riscv_ctr_tmpl_init() builds for an event's branch filter and
 * riscv_ctr_fast(), which turns raw ctrsource/ctrtarget/ctrdata entries
 * into perf_branch_entry with it.  The expected values come from CTR v1.0
 * ("Control Transfer Records" entry registers, "Transfer Type
 * Filtering", "Cycle Counting"), not from the code under test.
 */
#include <kunit/test.h>
#include <linux/bitfield.h>
#include <linux/module.h>

#include "riscv_ctr_rec.h"

#define USER_BST	(PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER)
#define ALL_BST		(USER_BST | PERF_SAMPLE_BRANCH_KERNEL)
#define KADDR(off)	(0xffffffff80000000ULL + (off))

/* ctrdata of ctrdata.TYPE @type, with CCV and the CCE/CCM cycle count. */
static u64 ctr_data(unsigned int type, bool ccv, unsigned int cce,
		    unsigned int ccm)
{
	return type | (ccv ? CTRDATA_CCV : 0) |
	       FIELD_PREP(CTRDATA_CCE_MASK, cce) | FIELD_PREP(CTRDATA_CCM_MASK, ccm);
}

/* What an entry must read as, field by field. */
struct ctr_want {
	u64 from;
	u64 to;
	unsigned int type;
	unsigned int priv;
	unsigned int mispred;
	unsigned int predicted;
	unsigned int cycles;
};

static void ctr_expect(struct kunit *test, const struct perf_branch_entry *pe,
		       const struct ctr_want *w, unsigned int i)
{
	KUNIT_EXPECT_EQ_MSG(test, pe->from, w->from, "entry %d", i);
	KUNIT_EXPECT_EQ_MSG(test, pe->to, w->to, "entry %d", i);
	KUNIT_EXPECT_EQ_MSG(test, (unsigned int)pe->type, w->type, "entry %d", i);
	KUNIT_EXPECT_EQ_MSG(test, (unsigned int)pe->priv, w->priv, "entry %d", i);
	KUNIT_EXPECT_EQ_MSG(test, (unsigned int)pe->mispred, w->mispred,
			    "entry %d", i);
	KUNIT_EXPECT_EQ_MSG(test, (unsigned int)pe->predicted, w->predicted,
			    "entry %d", i);
	KUNIT_EXPECT_EQ_MSG(test, (unsigned int)pe->cycles, w->cycles,
			    "entry %d", i);
	/* Nothing CTR has: no transaction, speculation or new_type bits. */
	KUNIT_EXPECT_EQ_MSG(test, (unsigned int)pe->in_tx, 0U, "entry %d", i);
	KUNIT_EXPECT_EQ_MSG(test, (unsigned int)pe->abort, 0U, "entry %d", i);
	KUNIT_EXPECT_EQ_MSG(test, (unsigned int)pe->spec, 0U, "entry %d", i);
	KUNIT_EXPECT_EQ_MSG(test, (unsigned int)pe->new_type, 0U, "entry %d", i);
	KUNIT_EXPECT_EQ_MSG(test, (unsigned int)pe->reserved, 0U, "entry %d", i);
}

/* Convert @raw as the overflow handler does, into @pe; the outcome. */
static int ctr_convert(const struct riscv_ctr_tmpl *t,
		       const struct riscv_ctr_raw *raw,
		       struct perf_branch_entry *pe)
{
	/* Garbage first: every field must be written. */
	memset(pe, 0x5a, sizeof(*pe));
	return riscv_ctr_fast(t, raw->source, raw->target, raw->data, pe);
}

/*
 * Entries recorded on QEMU 10's virt board while cat ran (sctrctl
 * 0x1001: U and LCOFIFRZ, depth 16), read through sireg/sireg2/sireg3,
 * newest first; entry 11 was never written (V = 0) and ends the stack,
 * the one after it is stale.  QEMU implements neither MISP nor cycle
 * counting.
 */
static const struct riscv_ctr_raw ctr_qemu_recorded[] = {
	{ 0xb58dd, 0xb5920, 0x5 },
	{ 0xb5933, 0xb58c8, 0x9 },
	{ 0xd7f09, 0xb592e, 0xb },
	{ 0x13c8b, 0xd7efe, 0x9 },
	{ 0x13433, 0x13c6a, 0x9 },
	{ 0x13427, 0x1342c, 0x5 },
	{ 0x134ad, 0x13424, 0xb },
	{ 0xd9cf9, 0x134a2, 0xd },
	{ 0x12889, 0xd9ce2, 0xb },
	{ 0x1349f, 0x1287a, 0x9 },
	{ 0x1348f, 0x1349c, 0x5 },
	{ 0x0, 0x0, 0x0 },
	{ 0x1001, 0x2000, 0x9 },
};

static void riscv_ctr_rec_test_recorded(struct kunit *test)
{
	/* TYPE 5 taken branch, 9 call, 11 jump, 13 return. */
	static const unsigned int want_type[] = {
		PERF_BR_COND, PERF_BR_CALL, PERF_BR_UNCOND, PERF_BR_CALL,
		PERF_BR_CALL, PERF_BR_COND, PERF_BR_UNCOND, PERF_BR_RET,
		PERF_BR_UNCOND, PERF_BR_CALL, PERF_BR_COND,
	};
	struct riscv_ctr_tmpl t;
	struct perf_branch_entry pe;
	u64 newer_from = ~0ULL;
	int ret = RISCV_CTR_OK;
	unsigned int i;

	riscv_ctr_tmpl_init(&t, false, USER_BST);
	KUNIT_EXPECT_EQ(test, t.key, riscv_ctr_tmpl_key(false, USER_BST));
	for (i = 0; i < ARRAY_SIZE(ctr_qemu_recorded); i++) {
		const struct riscv_ctr_raw *raw = &ctr_qemu_recorded[i];
		struct ctr_want w = {
			.from = raw->source & ~1ULL,	/* V is bit 0 */
			.to = raw->target,
			.priv = PERF_BR_PRIV_USER,
		};

		ret = ctr_convert(&t, raw, &pe);
		if (ret != RISCV_CTR_OK)
			break;
		KUNIT_ASSERT_LT(test, i, ARRAY_SIZE(want_type));
		w.type = want_type[i];
		ctr_expect(test, &pe, &w, i);
		/* In this capture the hart ran on from each target to the newer source. */
		KUNIT_EXPECT_TRUE(test, pe.to <= newer_from);
		newer_from = pe.from;
	}
	KUNIT_EXPECT_EQ(test, ret, RISCV_CTR_END);
	KUNIT_EXPECT_EQ(test, i, ARRAY_SIZE(want_type));
}

/*
 * Every ctrdata.TYPE, in both modes (CTR v1.0 "Transfer Type
 * Filtering").  perf has no generic exception type: a trap is taken as a
 * system call, the common case; a co-routine swap (a jump that both
 * links and returns) and the reserved types are UNKNOWN.
 */
static void riscv_ctr_rec_test_types(struct kunit *test)
{
	static const unsigned int want[RISCV_CTR_NR_TYPES] = {
		[0] = PERF_BR_UNKNOWN,		/* none */
		[1] = PERF_BR_SYSCALL,		/* exception */
		[2] = PERF_BR_IRQ,		/* interrupt */
		[3] = PERF_BR_ERET,		/* trap return */
		[4] = PERF_BR_COND,		/* not-taken branch */
		[5] = PERF_BR_COND,		/* taken branch */
		[6] = PERF_BR_UNKNOWN,		/* reserved */
		[7] = PERF_BR_UNKNOWN,		/* reserved */
		[8] = PERF_BR_IND_CALL,		/* indirect call */
		[9] = PERF_BR_CALL,		/* direct call */
		[10] = PERF_BR_IND,		/* indirect jump, no linkage */
		[11] = PERF_BR_UNCOND,		/* direct jump, no linkage */
		[12] = PERF_BR_UNKNOWN,		/* co-routine swap */
		[13] = PERF_BR_RET,		/* function return */
		[14] = PERF_BR_IND,		/* other indirect jump */
		[15] = PERF_BR_UNCOND,		/* other direct jump */
	};
	struct riscv_ctr_tmpl t, nf;
	struct perf_branch_entry pe;
	unsigned int type;

	riscv_ctr_tmpl_init(&t, false, ALL_BST);
	riscv_ctr_tmpl_init(&nf, false, ALL_BST | PERF_SAMPLE_BRANCH_NO_FLAGS);
	for (type = 0; type < RISCV_CTR_NR_TYPES; type++) {
		struct riscv_ctr_raw u = { 0x1001, 0x2000, type };
		struct riscv_ctr_raw k = { KADDR(0x1001), KADDR(0x2000), type };
		struct ctr_want wu = { 0x1000, 0x2000, want[type], PERF_BR_PRIV_USER };
		struct ctr_want wk = { KADDR(0x1000), KADDR(0x2000), want[type],
				       PERF_BR_PRIV_KERNEL };

		KUNIT_EXPECT_EQ(test, ctr_convert(&t, &u, &pe), RISCV_CTR_OK);
		ctr_expect(test, &pe, &wu, type);
		KUNIT_EXPECT_EQ(test, ctr_convert(&t, &k, &pe), RISCV_CTR_OK);
		ctr_expect(test, &pe, &wk, type);
		/* NO_FLAGS drops only the prediction bits (arm64 BRBE too). */
		KUNIT_EXPECT_EQ(test, ctr_convert(&nf, &k, &pe), RISCV_CTR_OK);
		ctr_expect(test, &pe, &wk, type);
	}
}

/*
 * ctrtarget.MISP (CTR v1.0 makes it optional): on a hart that has it, set
 * is mispredicted and clear is predicted; without it neither is claimed.
 * The bit is never part of the target address.
 */
static void riscv_ctr_rec_test_misp(struct kunit *test)
{
	const struct riscv_ctr_raw hit = { 0x1001, 0x2000, CTRDATA_TYPE_TAKEN_BRANCH };
	const struct riscv_ctr_raw miss = { 0x1001, 0x2000 | CTRTARGET_MISP,
					    CTRDATA_TYPE_TAKEN_BRANCH };
	struct ctr_want w = { 0x1000, 0x2000, PERF_BR_COND, PERF_BR_PRIV_USER };
	struct riscv_ctr_tmpl t;
	struct perf_branch_entry pe;

	riscv_ctr_tmpl_init(&t, true, USER_BST);
	KUNIT_EXPECT_EQ(test, ctr_convert(&t, &miss, &pe), RISCV_CTR_OK);
	w.mispred = 1;
	ctr_expect(test, &pe, &w, 0);
	KUNIT_EXPECT_EQ(test, ctr_convert(&t, &hit, &pe), RISCV_CTR_OK);
	w.mispred = 0;
	w.predicted = 1;
	ctr_expect(test, &pe, &w, 1);

	riscv_ctr_tmpl_init(&t, false, USER_BST);
	w.predicted = 0;
	KUNIT_EXPECT_EQ(test, ctr_convert(&t, &miss, &pe), RISCV_CTR_OK);
	ctr_expect(test, &pe, &w, 2);
	KUNIT_EXPECT_EQ(test, ctr_convert(&t, &hit, &pe), RISCV_CTR_OK);
	ctr_expect(test, &pe, &w, 3);

	/* NO_FLAGS drops the prediction bits, and only them. */
	riscv_ctr_tmpl_init(&t, true, USER_BST | PERF_SAMPLE_BRANCH_NO_FLAGS);
	KUNIT_EXPECT_EQ(test, ctr_convert(&t, &miss, &pe), RISCV_CTR_OK);
	ctr_expect(test, &pe, &w, 4);
}

/*
 * ctrdata.CC (CTR v1.0 "Cycle Counting"): with CCV set, CCE 0 counts CCM
 * cycles and CCE n > 0 counts (2^12 + CCM) << (n - 1); perf's cycles
 * field is 16 bits and saturates.  CCV clear or NO_CYCLES: 0.
 */
static void riscv_ctr_rec_test_cycles(struct kunit *test)
{
	static const struct {
		bool ccv;
		unsigned int cce, ccm, cycles;
	} cc[] = {
		{ false, 2, 5, 0 },
		{ true, 0, 0, 0 },
		{ true, 0, 17, 17 },
		{ true, 0, 4095, 4095 },
		{ true, 1, 0, 4096 },
		{ true, 3, 2, (4096 + 2) << 2 },
		{ true, 4, 4095, (4096 + 4095) << 3 },
		{ true, 5, 0, 0xffff },
		{ true, 15, 4095, 0xffff },
	};
	struct ctr_want w = { 0x1000, 0x2000, PERF_BR_RET, PERF_BR_PRIV_USER };
	struct riscv_ctr_tmpl t, nc;
	struct perf_branch_entry pe;
	unsigned int i;

	riscv_ctr_tmpl_init(&t, false, USER_BST);
	riscv_ctr_tmpl_init(&nc, false, USER_BST | PERF_SAMPLE_BRANCH_NO_CYCLES);
	for (i = 0; i < ARRAY_SIZE(cc); i++) {
		struct riscv_ctr_raw raw = {
			0x1001, 0x2000,
			ctr_data(CTRDATA_TYPE_RETURN, cc[i].ccv, cc[i].cce, cc[i].ccm),
		};

		KUNIT_EXPECT_EQ(test, ctr_convert(&t, &raw, &pe), RISCV_CTR_OK);
		w.cycles = cc[i].cycles;
		ctr_expect(test, &pe, &w, i);
		KUNIT_EXPECT_EQ(test, ctr_convert(&nc, &raw, &pe), RISCV_CTR_OK);
		w.cycles = 0;
		ctr_expect(test, &pe, &w, i);
	}
}

/*
 * Not-taken branches (sctrctl.NTBREN, CTR v1.0 "Transfer Type
 * Filtering"): recorded as TYPE 4 with the next instruction as the
 * target, they are conditional branches to perf, predicted or not and
 * with cycles as any other entry.  The filter asks for them only with
 * COND or ANY, and never in call-stack mode.
 */
static void riscv_ctr_rec_test_ntbr(struct kunit *test)
{
	const struct riscv_ctr_raw raw = { 0x1001, 0x1004,
					   ctr_data(CTRDATA_TYPE_NONTAKEN_BRANCH, true, 0, 3) };
	struct ctr_want w = { 0x1000, 0x1004, PERF_BR_COND, PERF_BR_PRIV_USER,
			      0, 1, 3 };
	struct riscv_ctr_tmpl t;
	struct perf_branch_entry pe;
	u64 sctrctl = 0;

	riscv_ctr_tmpl_init(&t, true, USER_BST);
	KUNIT_EXPECT_EQ(test, ctr_convert(&t, &raw, &pe), RISCV_CTR_OK);
	ctr_expect(test, &pe, &w, 0);

	KUNIT_EXPECT_EQ(test, riscv_ctr_branch_filter(USER_BST, RISCV_CTR_OPT_NTBR,
						      &sctrctl), 0);
	KUNIT_EXPECT_TRUE(test, sctrctl & CTRCTL_NTBREN);
	KUNIT_EXPECT_FALSE(test, sctrctl & CTRCTL_TKBRINH);
	KUNIT_EXPECT_EQ(test, riscv_ctr_branch_filter(PERF_SAMPLE_BRANCH_USER |
						      PERF_SAMPLE_BRANCH_COND,
						      RISCV_CTR_OPT_NTBR, &sctrctl), 0);
	KUNIT_EXPECT_TRUE(test, sctrctl & CTRCTL_NTBREN);
	KUNIT_EXPECT_EQ(test, riscv_ctr_branch_filter(PERF_SAMPLE_BRANCH_USER |
						      PERF_SAMPLE_BRANCH_ANY_CALL,
						      RISCV_CTR_OPT_NTBR, &sctrctl),
			RISCV_CTR_EUNSUPP);
	KUNIT_EXPECT_EQ(test, riscv_ctr_branch_filter(PERF_SAMPLE_BRANCH_USER |
						      PERF_SAMPLE_BRANCH_CALL_STACK,
						      RISCV_CTR_OPT_NTBR, &sctrctl),
			RISCV_CTR_EUNSUPP);
}

/*
 * An event that may not see the kernel gets no entry with a kernel
 * address at either end (a trap into the kernel, a return from it), and
 * the copy goes on past it; one that may gets the entry, its privilege
 * that of the target (as BRBINF.EL on arm64), unknown when the target is
 * 0 (a trap return into a mode CTR does not record, an external trap:
 * CTR v1.0 "Privilege Mode Transitions").  V = 0 ends the stack.
 */
static void riscv_ctr_rec_test_priv(struct kunit *test)
{
	const struct riscv_ctr_raw into = { 0x10001, KADDR(0x100),
					    CTRDATA_TYPE_EXCEPTION };
	const struct riscv_ctr_raw outof = { KADDR(0x201), 0x10004,
					     CTRDATA_TYPE_TRAP_RET };
	const struct riscv_ctr_raw inside = { KADDR(0xf01), KADDR(0xf80),
					      CTRDATA_TYPE_RETURN };
	const struct riscv_ctr_raw nosrc = { CTRSOURCE_VALID, KADDR(0x100),
					     CTRDATA_TYPE_INTERRUPT };
	const struct riscv_ctr_raw user = { 0x1001, 0x2000, CTRDATA_TYPE_DIRECT_CALL };
	const struct riscv_ctr_raw ext = { 0x1001, 0, CTRDATA_TYPE_EXCEPTION };
	const struct riscv_ctr_raw ret0 = { KADDR(0x201), 0, CTRDATA_TYPE_TRAP_RET };
	const struct riscv_ctr_raw invalid = { KADDR(0x200), KADDR(0x300),
					       CTRDATA_TYPE_RETURN };
	struct ctr_want w;
	struct riscv_ctr_tmpl t;
	struct perf_branch_entry pe;

	riscv_ctr_tmpl_init(&t, false, USER_BST);
	KUNIT_EXPECT_EQ(test, ctr_convert(&t, &into, &pe), RISCV_CTR_HIDDEN);
	KUNIT_EXPECT_EQ(test, ctr_convert(&t, &outof, &pe), RISCV_CTR_HIDDEN);
	KUNIT_EXPECT_EQ(test, ctr_convert(&t, &inside, &pe), RISCV_CTR_HIDDEN);
	KUNIT_EXPECT_EQ(test, ctr_convert(&t, &nosrc, &pe), RISCV_CTR_HIDDEN);
	KUNIT_EXPECT_EQ(test, ctr_convert(&t, &user, &pe), RISCV_CTR_OK);
	KUNIT_EXPECT_EQ(test, ctr_convert(&t, &invalid, &pe), RISCV_CTR_END);

	riscv_ctr_tmpl_init(&t, false, ALL_BST);
	w = (struct ctr_want){ 0x10000, KADDR(0x100), PERF_BR_SYSCALL,
			       PERF_BR_PRIV_KERNEL };
	KUNIT_EXPECT_EQ(test, ctr_convert(&t, &into, &pe), RISCV_CTR_OK);
	ctr_expect(test, &pe, &w, 0);
	w = (struct ctr_want){ KADDR(0x200), 0x10004, PERF_BR_ERET,
			       PERF_BR_PRIV_USER };
	KUNIT_EXPECT_EQ(test, ctr_convert(&t, &outof, &pe), RISCV_CTR_OK);
	ctr_expect(test, &pe, &w, 1);
	w = (struct ctr_want){ 0, KADDR(0x100), PERF_BR_IRQ, PERF_BR_PRIV_KERNEL };
	KUNIT_EXPECT_EQ(test, ctr_convert(&t, &nosrc, &pe), RISCV_CTR_OK);
	ctr_expect(test, &pe, &w, 2);
	w = (struct ctr_want){ 0x1000, 0, PERF_BR_SYSCALL, PERF_BR_PRIV_UNKNOWN };
	KUNIT_EXPECT_EQ(test, ctr_convert(&t, &ext, &pe), RISCV_CTR_OK);
	ctr_expect(test, &pe, &w, 3);
	w = (struct ctr_want){ KADDR(0x200), 0, PERF_BR_ERET, PERF_BR_PRIV_UNKNOWN };
	KUNIT_EXPECT_EQ(test, ctr_convert(&t, &ret0, &pe), RISCV_CTR_OK);
	ctr_expect(test, &pe, &w, 4);
	KUNIT_EXPECT_EQ(test, ctr_convert(&t, &invalid, &pe), RISCV_CTR_END);
}

static struct kunit_case riscv_ctr_rec_test_cases[] = {
	KUNIT_CASE(riscv_ctr_rec_test_recorded),
	KUNIT_CASE(riscv_ctr_rec_test_types),
	KUNIT_CASE(riscv_ctr_rec_test_misp),
	KUNIT_CASE(riscv_ctr_rec_test_cycles),
	KUNIT_CASE(riscv_ctr_rec_test_ntbr),
	KUNIT_CASE(riscv_ctr_rec_test_priv),
	{}
};

static struct kunit_suite riscv_ctr_rec_test_suite = {
	.name = "riscv_ctr_rec",
	.test_cases = riscv_ctr_rec_test_cases,
};

kunit_test_suite(riscv_ctr_rec_test_suite);

MODULE_DESCRIPTION("KUnit tests of the RISC-V CTR record conversion");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
