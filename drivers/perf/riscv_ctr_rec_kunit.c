// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the CTR record conversion of the sample path: the
 * template riscv_ctr_tmpl_init() builds for an event's branch filter and
 * riscv_ctr_fast(), which turns raw ctrsource/ctrtarget/ctrdata entries
 * into perf_branch_entry with it; riscv_ctr_branch_filter(), which turns
 * a perf branch filter into sctrctl or refuses it; and what the backend
 * decides from the features the harts implement (the fields a filter
 * needs that a hart lacks, a hart that comes up lacking some, the depth
 * picked).  The expected values come from CTR v1.0 ("Control Transfer
 * Records" entry registers, sctrctl, sctrdepth, "Transfer Type
 * Filtering", "Cycle Counting") and perf's branch filter ABI, not from
 * the code under test.
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

/* ---- riscv_ctr_branch_filter(): perf branch filters to sctrctl ---- */

/*
 * Every transfer-type inhibit bit of sctrctl (CTR v1.0 "Supervisor
 * Control Transfer Records Control Register", bits 33-35, 37 and 40-47),
 * written out here rather than taken from the code under test.
 */
#define INH_EXC		BIT_ULL(33)
#define INH_INTR	BIT_ULL(34)
#define INH_TRET	BIT_ULL(35)
#define INH_TKBR	BIT_ULL(37)
#define INH_INDCALL	BIT_ULL(40)
#define INH_DIRCALL	BIT_ULL(41)
#define INH_INDJMP	BIT_ULL(42)
#define INH_DIRJMP	BIT_ULL(43)
#define INH_CORSWAP	BIT_ULL(44)
#define INH_RET		BIT_ULL(45)
#define INH_INDLJMP	BIT_ULL(46)
#define INH_DIRLJMP	BIT_ULL(47)
#define INH_EVERY	(INH_EXC | INH_INTR | INH_TRET | INH_TKBR | INH_INDCALL | \
			 INH_DIRCALL | INH_INDJMP | INH_DIRJMP | INH_CORSWAP | \
			 INH_RET | INH_INDLJMP | INH_DIRLJMP)
#define SCTL_U		BIT_ULL(0)
#define SCTL_S		BIT_ULL(1)
#define SCTL_M		BIT_ULL(2)	/* mctrctl only */
#define SCTL_RASEMU	BIT_ULL(7)
#define SCTL_MTE	BIT_ULL(9)	/* mctrctl only */
#define SCTL_BPFRZ	BIT_ULL(11)
#define SCTL_LCOFIFRZ	BIT_ULL(12)
#define SCTL_NTBREN	BIT_ULL(36)

#define BR_U		PERF_SAMPLE_BRANCH_USER
#define BR_K		PERF_SAMPLE_BRANCH_KERNEL
#define BR_HV		PERF_SAMPLE_BRANCH_HV

/* The filter's sctrctl, or the error, in one value for the tables. */
static s64 ctr_filter(u64 bst, u64 opts)
{
	u64 sctrctl = 0;
	int ret = riscv_ctr_branch_filter(bst, opts, &sctrctl);

	return ret ? ret : (s64)sctrctl;
}

/*
 * The mode bits: USER records U-mode only (never S, so no kernel address
 * is ever recorded for it), KERNEL records S (HS with the H extension),
 * both record both; M and its MTE are mctrctl's and never asked for.
 * HV is accepted and changes nothing (without the H extension there is
 * no hypervisor mode, with it the host kernel runs in HS = S), so HV
 * alone, as no mode at all, records nothing and is refused.  LCOFIFRZ is
 * always on: the sample's stack ends at the sampled instruction (CTR
 * v1.0 "Freeze").
 */
static void riscv_ctr_rec_test_filter_priv(struct kunit *test)
{
	static const struct {
		u64 bst;
		s64 want;
	} cases[] = {
		{ BR_U, SCTL_U },
		{ BR_K, SCTL_S },
		{ BR_U | BR_K, SCTL_U | SCTL_S },
		{ BR_U | BR_HV, SCTL_U },
		{ BR_K | BR_HV, SCTL_S },
		{ BR_U | BR_K | BR_HV, SCTL_U | SCTL_S },
		{ BR_HV, RISCV_CTR_ENOMODE },
		{ 0, RISCV_CTR_ENOMODE },
	};
	static const u64 types[] = {
		0, PERF_SAMPLE_BRANCH_ANY, PERF_SAMPLE_BRANCH_CALL,
		PERF_SAMPLE_BRANCH_ANY_RETURN, PERF_SAMPLE_BRANCH_CALL_STACK,
	};
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		for (j = 0; j < ARRAY_SIZE(types); j++) {
			u64 bst = cases[i].bst | types[j];
			s64 got = ctr_filter(bst, 0);

			if (cases[i].want < 0) {
				KUNIT_EXPECT_EQ_MSG(test, got, cases[i].want,
						    "bst %#llx", bst);
				continue;
			}
			KUNIT_ASSERT_GE_MSG(test, got, 0, "bst %#llx", bst);
			KUNIT_EXPECT_EQ_MSG(test, (u64)got & (SCTL_U | SCTL_S | SCTL_M),
					    (u64)cases[i].want, "bst %#llx", bst);
			KUNIT_EXPECT_EQ_MSG(test, (u64)got & SCTL_MTE, 0ULL,
					    "bst %#llx", bst);
			KUNIT_EXPECT_EQ_MSG(test, (u64)got & SCTL_LCOFIFRZ,
					    SCTL_LCOFIFRZ, "bst %#llx", bst);
			/* HV changes nothing beside USER or KERNEL. */
			KUNIT_EXPECT_EQ_MSG(test, ctr_filter(bst | BR_HV, 0), got,
					    "bst %#llx", bst);
		}
	}
	/* BPFRZ only when asked for (config3 ctr_bpfrz). */
	KUNIT_EXPECT_EQ(test, (u64)ctr_filter(BR_U, 0) & SCTL_BPFRZ, 0ULL);
	KUNIT_EXPECT_EQ(test, (u64)ctr_filter(BR_U, RISCV_CTR_OPT_BPFRZ) & SCTL_BPFRZ,
			SCTL_BPFRZ);
}

/*
 * Each perf type filter lets through the transfer types perf means by it
 * (perf-record(1) -j; CTR v1.0 "Transfer Type Filtering"): any_call
 * includes traps, any_ret trap returns; direct jumps and co-routine
 * swaps only pass with ANY.  Everything else is inhibited, and several
 * filters pass the union.  No filter type (privilege only) is ANY, as
 * in perf.  The software-only bits change nothing in sctrctl.  Nothing
 * outside the fields sctrctl has is ever written (bits 38-39 and 48-63
 * are reserved).
 */
static void riscv_ctr_rec_test_filter_types(struct kunit *test)
{
	static const struct {
		u64 bst;
		u64 pass;
	} cases[] = {
		{ 0, INH_EVERY },
		{ PERF_SAMPLE_BRANCH_ANY, INH_EVERY },
		{ PERF_SAMPLE_BRANCH_ANY_CALL,
		  INH_INDCALL | INH_DIRCALL | INH_EXC | INH_INTR },
		{ PERF_SAMPLE_BRANCH_ANY_RETURN, INH_RET | INH_TRET },
		{ PERF_SAMPLE_BRANCH_IND_CALL, INH_INDCALL },
		{ PERF_SAMPLE_BRANCH_CALL, INH_DIRCALL },
		{ PERF_SAMPLE_BRANCH_COND, INH_TKBR },
		{ PERF_SAMPLE_BRANCH_IND_JUMP, INH_INDJMP | INH_INDLJMP },
		{ PERF_SAMPLE_BRANCH_COND | PERF_SAMPLE_BRANCH_CALL,
		  INH_TKBR | INH_DIRCALL },
		{ PERF_SAMPLE_BRANCH_ANY_CALL | PERF_SAMPLE_BRANCH_ANY_RETURN,
		  INH_INDCALL | INH_DIRCALL | INH_EXC | INH_INTR | INH_RET | INH_TRET },
		{ PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_CALL, INH_EVERY },
	};
	static const u64 sw[] = {
		PERF_SAMPLE_BRANCH_NO_FLAGS, PERF_SAMPLE_BRANCH_NO_CYCLES,
		PERF_SAMPLE_BRANCH_TYPE_SAVE, PERF_SAMPLE_BRANCH_HW_INDEX,
		PERF_SAMPLE_BRANCH_PRIV_SAVE,
	};
	const u64 fields = SCTL_U | SCTL_S | SCTL_RASEMU | BIT_ULL(8) /* STE */ |
			   SCTL_BPFRZ | SCTL_LCOFIFRZ | SCTL_NTBREN | INH_EVERY;
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		u64 bst = BR_U | cases[i].bst;
		s64 got = ctr_filter(bst, 0);

		KUNIT_ASSERT_GE_MSG(test, got, 0, "bst %#llx", bst);
		KUNIT_EXPECT_EQ_MSG(test, (u64)got & INH_EVERY,
				    INH_EVERY & ~cases[i].pass, "bst %#llx", bst);
		KUNIT_EXPECT_EQ_MSG(test, (u64)got & ~fields, 0ULL, "bst %#llx", bst);
		KUNIT_EXPECT_EQ_MSG(test, (u64)got & (SCTL_RASEMU | SCTL_NTBREN), 0ULL,
				    "bst %#llx", bst);
		for (j = 0; j < ARRAY_SIZE(sw); j++)
			KUNIT_EXPECT_EQ_MSG(test, ctr_filter(bst | sw[j], 0), got,
					    "bst %#llx", bst | sw[j]);
	}

	/*
	 * CALL_STACK: RAS emulation, in which the hardware ignores the type
	 * inhibits (CTR v1.0 "RAS Emulation Mode"); the software bits go
	 * with it too.
	 */
	for (j = 0; j < ARRAY_SIZE(sw); j++) {
		u64 bst = BR_U | PERF_SAMPLE_BRANCH_CALL_STACK | sw[j];

		KUNIT_EXPECT_EQ_MSG(test, ctr_filter(bst, 0),
				    (s64)(SCTL_U | SCTL_LCOFIFRZ | SCTL_RASEMU),
				    "bst %#llx", bst);
	}
}

/*
 * What the filter refuses, and how: RISCV_CTR_EUNSUPP (the backend's
 * -EOPNOTSUPP) for anything CTR cannot honour, RISCV_CTR_ENOMODE (-EINVAL)
 * for no mode at all; a refusal wins over a missing mode.
 *  - the transaction filters (no transactional memory on RISC-V) and
 *    PERF_SAMPLE_BRANCH_COUNTERS (no counters in branch records);
 *  - any bit perf does not define yet (PERF_SAMPLE_BRANCH_MAX and up);
 *  - CALL_STACK with any type filter, or with not-taken branches: RAS
 *    emulation records calls and returns only;
 *  - not-taken branches (ctr_ntbr) with type filters that exclude
 *    conditional branches.
 */
static void riscv_ctr_rec_test_filter_refused(struct kunit *test)
{
	static const u64 never[] = {
		PERF_SAMPLE_BRANCH_ABORT_TX, PERF_SAMPLE_BRANCH_IN_TX,
		PERF_SAMPLE_BRANCH_NO_TX, PERF_SAMPLE_BRANCH_COUNTERS,
		PERF_SAMPLE_BRANCH_MAX, PERF_SAMPLE_BRANCH_MAX << 1, BIT_ULL(63),
	};
	static const u64 types[] = {
		PERF_SAMPLE_BRANCH_ANY, PERF_SAMPLE_BRANCH_ANY_CALL,
		PERF_SAMPLE_BRANCH_ANY_RETURN, PERF_SAMPLE_BRANCH_IND_CALL,
		PERF_SAMPLE_BRANCH_CALL, PERF_SAMPLE_BRANCH_COND,
		PERF_SAMPLE_BRANCH_IND_JUMP,
	};
	static const u64 no_cond[] = {
		PERF_SAMPLE_BRANCH_ANY_CALL, PERF_SAMPLE_BRANCH_ANY_RETURN,
		PERF_SAMPLE_BRANCH_IND_CALL, PERF_SAMPLE_BRANCH_CALL,
		PERF_SAMPLE_BRANCH_IND_JUMP,
		PERF_SAMPLE_BRANCH_ANY_CALL | PERF_SAMPLE_BRANCH_ANY_RETURN,
	};
	const u64 cs = PERF_SAMPLE_BRANCH_CALL_STACK;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(never); i++) {
		KUNIT_EXPECT_EQ_MSG(test, ctr_filter(BR_U | never[i], 0),
				    (s64)RISCV_CTR_EUNSUPP, "bit %#llx", never[i]);
		KUNIT_EXPECT_EQ_MSG(test, ctr_filter(BR_U | BR_K | PERF_SAMPLE_BRANCH_ANY |
						     never[i], 0),
				    (s64)RISCV_CTR_EUNSUPP, "bit %#llx", never[i]);
		KUNIT_EXPECT_EQ_MSG(test, ctr_filter(never[i], 0),
				    (s64)RISCV_CTR_EUNSUPP, "bit %#llx", never[i]);
	}
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		KUNIT_EXPECT_EQ_MSG(test, ctr_filter(BR_U | cs | types[i], 0),
				    (s64)RISCV_CTR_EUNSUPP, "type %#llx", types[i]);
		/* A type filter without a mode: no mode. */
		KUNIT_EXPECT_EQ_MSG(test, ctr_filter(types[i], 0),
				    (s64)RISCV_CTR_ENOMODE, "type %#llx", types[i]);
	}
	KUNIT_EXPECT_EQ(test, ctr_filter(BR_U | cs, RISCV_CTR_OPT_NTBR),
			(s64)RISCV_CTR_EUNSUPP);
	KUNIT_EXPECT_EQ(test, ctr_filter(cs, 0), (s64)RISCV_CTR_ENOMODE);
	for (i = 0; i < ARRAY_SIZE(no_cond); i++)
		KUNIT_EXPECT_EQ_MSG(test, ctr_filter(BR_U | no_cond[i], RISCV_CTR_OPT_NTBR),
				    (s64)RISCV_CTR_EUNSUPP, "type %#llx", no_cond[i]);
	/* Not-taken branches go with anything that has COND, or ANY. */
	KUNIT_EXPECT_GE(test, ctr_filter(BR_U | PERF_SAMPLE_BRANCH_COND |
					 PERF_SAMPLE_BRANCH_ANY_CALL, RISCV_CTR_OPT_NTBR), 0);
	KUNIT_EXPECT_GE(test, ctr_filter(BR_U | PERF_SAMPLE_BRANCH_ANY,
					 RISCV_CTR_OPT_NTBR), 0);
	KUNIT_EXPECT_GE(test, ctr_filter(BR_U, RISCV_CTR_OPT_NTBR), 0);
}

/* ---- what a hart lacks ---- */

/* riscv_ctr_hw.depths bits: sctrdepth.DEPTH 0..4 is 16..256 entries. */
#define DEPTH_16	BIT(0)
#define DEPTH_32	BIT(1)
#define DEPTH_64	BIT(2)
#define DEPTH_128	BIT(3)
#define DEPTH_256	BIT(4)

/*
 * riscv_ctr_sctrctl_missing(): the fields of a filter's sctrctl a hart
 * did not keep (CTR v1.0 makes every field but the mode enables
 * optional).  A missing inhibit matters only to a filter that inhibits
 * that type, a missing RASEMU only to call stacks, a missing LCOFIFRZ to
 * every filter; and the backend names the field in its refusal.
 */
static void riscv_ctr_rec_test_sctrctl_missing(struct kunit *test)
{
	const u64 all = SCTL_U | SCTL_S | SCTL_RASEMU | SCTL_BPFRZ | SCTL_LCOFIFRZ |
			SCTL_NTBREN | INH_EVERY;
	static const struct {
		u64 hw_lacks;
		u64 bst;
		u64 opts;
		u64 missing;
		const char *name;
	} cases[] = {
		{ 0, BR_U | BR_K | PERF_SAMPLE_BRANCH_CALL, RISCV_CTR_OPT_BPFRZ, 0, "none" },
		{ SCTL_RASEMU, BR_U | PERF_SAMPLE_BRANCH_CALL_STACK, 0, SCTL_RASEMU, "RASEMU" },
		{ SCTL_RASEMU, BR_U | PERF_SAMPLE_BRANCH_ANY, 0, 0, "none" },
		{ INH_DIRCALL, BR_U | PERF_SAMPLE_BRANCH_COND, 0, INH_DIRCALL, "DIRCALLINH" },
		{ INH_DIRCALL, BR_U | PERF_SAMPLE_BRANCH_CALL, 0, 0, "none" },
		{ INH_DIRCALL, BR_U, 0, 0, "none" },
		{ INH_EVERY, BR_U | PERF_SAMPLE_BRANCH_ANY, 0, 0, "none" },
		{ INH_EVERY, BR_U | PERF_SAMPLE_BRANCH_ANY_RETURN, 0,
		  INH_EVERY & ~(INH_RET | INH_TRET), "EXCINH" },
		{ SCTL_LCOFIFRZ, BR_U, 0, SCTL_LCOFIFRZ, "LCOFIFRZ" },
		{ SCTL_LCOFIFRZ, BR_U | PERF_SAMPLE_BRANCH_CALL_STACK, 0, SCTL_LCOFIFRZ,
		  "LCOFIFRZ" },
		{ SCTL_NTBREN, BR_U, RISCV_CTR_OPT_NTBR, SCTL_NTBREN, "NTBREN" },
		{ SCTL_NTBREN, BR_U, 0, 0, "none" },
		{ SCTL_BPFRZ, BR_U, RISCV_CTR_OPT_BPFRZ, SCTL_BPFRZ, "BPFRZ" },
		{ SCTL_S, BR_K, 0, SCTL_S, "S" },
		{ SCTL_S, BR_U, 0, 0, "none" },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct riscv_ctr_hw hw = { .sctrctl = all & ~cases[i].hw_lacks };
		u64 sctrctl = 0, missing;

		KUNIT_ASSERT_EQ_MSG(test, riscv_ctr_branch_filter(cases[i].bst, cases[i].opts,
								  &sctrctl), 0, "case %u", i);
		missing = riscv_ctr_sctrctl_missing(sctrctl, &hw);
		KUNIT_EXPECT_EQ_MSG(test, missing, cases[i].missing, "case %u", i);
		KUNIT_EXPECT_STREQ_MSG(test, riscv_ctr_field_name(missing),
				       cases[i].name, "case %u", i);
	}
	/* Bits CTR v1.0 reserves have no name. */
	KUNIT_EXPECT_STREQ(test, riscv_ctr_field_name(BIT_ULL(3)), "reserved");
	KUNIT_EXPECT_STREQ(test, riscv_ctr_field_name(BIT_ULL(63)), "reserved");
}

/*
 * A hart that comes up after the PMU offered its features
 * (riscv_ctr_hw_lacks()) must have every depth, field and MISP offered;
 * more is fine.  riscv_ctr_hw_and() keeps what all harts have.
 */
static void riscv_ctr_rec_test_hw_lacks(struct kunit *test)
{
	const struct riscv_ctr_hw need = {
		.sctrctl = SCTL_U | SCTL_S | SCTL_LCOFIFRZ | SCTL_RASEMU,
		.depths = DEPTH_16 | DEPTH_256,
		.misp = true,
	};
	struct riscv_ctr_hw hart, lack, all;

	hart = need;
	KUNIT_EXPECT_FALSE(test, riscv_ctr_hw_lacks(&hart, &need, &lack));
	KUNIT_EXPECT_EQ(test, lack.sctrctl, 0ULL);
	KUNIT_EXPECT_EQ(test, lack.depths, 0U);
	KUNIT_EXPECT_FALSE(test, lack.misp);

	hart.sctrctl |= SCTL_NTBREN | INH_EVERY;
	hart.depths |= DEPTH_64;
	KUNIT_EXPECT_FALSE(test, riscv_ctr_hw_lacks(&hart, &need, &lack));

	hart = need;
	hart.depths = DEPTH_16 | DEPTH_128;
	KUNIT_EXPECT_TRUE(test, riscv_ctr_hw_lacks(&hart, &need, &lack));
	KUNIT_EXPECT_EQ(test, lack.depths, (u32)DEPTH_256);
	KUNIT_EXPECT_EQ(test, lack.sctrctl, 0ULL);
	KUNIT_EXPECT_FALSE(test, lack.misp);

	hart = need;
	hart.sctrctl &= ~SCTL_RASEMU;
	KUNIT_EXPECT_TRUE(test, riscv_ctr_hw_lacks(&hart, &need, &lack));
	KUNIT_EXPECT_EQ(test, lack.sctrctl, SCTL_RASEMU);
	KUNIT_EXPECT_EQ(test, lack.depths, 0U);

	hart = need;
	hart.misp = false;
	KUNIT_EXPECT_TRUE(test, riscv_ctr_hw_lacks(&hart, &need, &lack));
	KUNIT_EXPECT_TRUE(test, lack.misp);
	KUNIT_EXPECT_EQ(test, lack.sctrctl, 0ULL);

	/* MISP not offered: a hart without it lacks nothing. */
	all = need;
	all.misp = false;
	KUNIT_EXPECT_FALSE(test, riscv_ctr_hw_lacks(&hart, &all, &lack));

	all = (struct riscv_ctr_hw){ .sctrctl = ~0ULL, .depths = ~0U, .misp = true };
	hart = (struct riscv_ctr_hw){
		.sctrctl = SCTL_U | SCTL_S | INH_TKBR,
		.depths = DEPTH_16 | DEPTH_32 | DEPTH_64,
		.misp = true,
	};
	riscv_ctr_hw_and(&all, &hart);
	hart = (struct riscv_ctr_hw){
		.sctrctl = SCTL_U | SCTL_S | SCTL_RASEMU,
		.depths = DEPTH_32 | DEPTH_64 | DEPTH_128,
		.misp = false,
	};
	riscv_ctr_hw_and(&all, &hart);
	KUNIT_EXPECT_EQ(test, all.sctrctl, SCTL_U | SCTL_S);
	KUNIT_EXPECT_EQ(test, all.depths, (u32)(DEPTH_32 | DEPTH_64));
	KUNIT_EXPECT_FALSE(test, all.misp);
}

/*
 * sctrdepth.DEPTH (CTR v1.0: WARL, 0..4 for 16..256 entries, 5-7
 * reserved) and the depth picked from what every hart supports: the
 * one asked for, else the largest below it, else the smallest; the
 * largest when none is asked for; none when the harts share none.
 */
static void riscv_ctr_rec_test_depth(struct kunit *test)
{
	const unsigned int some = DEPTH_16 | DEPTH_64 | DEPTH_128;
	static const unsigned int entries[] = { 16, 32, 64, 128, 256 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(entries); i++) {
		KUNIT_EXPECT_EQ(test, riscv_ctr_depth_encode(entries[i]), (int)i);
		KUNIT_EXPECT_EQ(test, riscv_ctr_depth_decode(i), entries[i]);
		/* Bits above the 3-bit field are not part of it. */
		KUNIT_EXPECT_EQ(test, riscv_ctr_depth_decode(BIT_ULL(3) | i), entries[i]);
	}
	KUNIT_EXPECT_EQ(test, riscv_ctr_depth_encode(0), -1);
	KUNIT_EXPECT_EQ(test, riscv_ctr_depth_encode(8), -1);
	KUNIT_EXPECT_EQ(test, riscv_ctr_depth_encode(48), -1);
	KUNIT_EXPECT_EQ(test, riscv_ctr_depth_encode(512), -1);
	for (i = 5; i < 8; i++)
		KUNIT_EXPECT_EQ(test, riscv_ctr_depth_decode(i), 0U);

	KUNIT_EXPECT_EQ(test, riscv_ctr_depth_pick(some, 64), 64U);
	KUNIT_EXPECT_EQ(test, riscv_ctr_depth_pick(some, 0), 128U);
	KUNIT_EXPECT_EQ(test, riscv_ctr_depth_pick(some, 256), 128U);
	KUNIT_EXPECT_EQ(test, riscv_ctr_depth_pick(some, 100), 64U);
	KUNIT_EXPECT_EQ(test, riscv_ctr_depth_pick(some, 32), 16U);
	KUNIT_EXPECT_EQ(test, riscv_ctr_depth_pick(some, 8), 16U);
	KUNIT_EXPECT_EQ(test, riscv_ctr_depth_pick(DEPTH_128, 16), 128U);
	KUNIT_EXPECT_EQ(test, riscv_ctr_depth_pick(0, 0), 0U);
	KUNIT_EXPECT_EQ(test, riscv_ctr_depth_pick(0, 64), 0U);
	/* The reserved encodings 5-7 are no depth. */
	KUNIT_EXPECT_EQ(test, riscv_ctr_depth_pick(BIT(5) | BIT(7), 0), 0U);
	KUNIT_EXPECT_EQ(test, riscv_ctr_depth_pick(DEPTH_32 | BIT(7), 0), 32U);
}

static struct kunit_case riscv_ctr_rec_test_cases[] = {
	KUNIT_CASE(riscv_ctr_rec_test_recorded),
	KUNIT_CASE(riscv_ctr_rec_test_types),
	KUNIT_CASE(riscv_ctr_rec_test_misp),
	KUNIT_CASE(riscv_ctr_rec_test_cycles),
	KUNIT_CASE(riscv_ctr_rec_test_ntbr),
	KUNIT_CASE(riscv_ctr_rec_test_priv),
	KUNIT_CASE(riscv_ctr_rec_test_filter_priv),
	KUNIT_CASE(riscv_ctr_rec_test_filter_types),
	KUNIT_CASE(riscv_ctr_rec_test_filter_refused),
	KUNIT_CASE(riscv_ctr_rec_test_sctrctl_missing),
	KUNIT_CASE(riscv_ctr_rec_test_hw_lacks),
	KUNIT_CASE(riscv_ctr_rec_test_depth),
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
