/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * RISC-V Control Transfer Records (Smctr/Ssctr, ratified v1.0) and the
 * counter CSRs rvctr uses: register layout and pure decode helpers.
 *
 * This is the one place the layout is written down.  The kernel driver,
 * the rvctr tool and the host unit tests all include it, so it depends on
 * nothing but <linux/types.h> and the perf UAPI constants, and every helper
 * is a static inline without side effects.
 *
 * Note: the v0.1.4 draft in the seeds has other CSR numbers and bit
 * positions; v1.0 is what hardware and QEMU 10 implement.
 */
#ifndef RVCTR_CTR_H
#define RVCTR_CTR_H

#include <linux/types.h>
#include <linux/perf_event.h>

#define RVCTR_BIT(n)		(1ULL << (n))
/* Contiguous mask of bits h..l (inclusive), like the kernel's GENMASK_ULL. */
#define RVCTR_MASK(h, l)	((~0ULL >> (63 - (h))) & (~0ULL << (l)))
/* Extract/insert a field given its mask, like FIELD_GET/FIELD_PREP. */
#define RVCTR_GET(mask, v)	(((__u64)(v) & (mask)) >> __builtin_ctzll(mask))
#define RVCTR_PREP(mask, v)	(((__u64)(v) << __builtin_ctzll(mask)) & (mask))

/* CSR numbers (CTR v1.0 chapter 2; Smcsrind; Sscofpmf; Smcdeleg) */
#define RVCTR_CSR_SCOUNTINHIBIT	0x120
#define RVCTR_CSR_SCTRCTL	0x14e
#define RVCTR_CSR_SCTRSTATUS	0x14f
#define RVCTR_CSR_SISELECT	0x150
#define RVCTR_CSR_SIREG		0x151
#define RVCTR_CSR_SIREG2	0x152
#define RVCTR_CSR_SIREG3	0x153
#define RVCTR_CSR_SCTRDEPTH	0x15f
#define RVCTR_CSR_VSCTRCTL	0x24e
#define RVCTR_CSR_MCTRCTL	0x34e
#define RVCTR_CSR_SCOUNTOVF	0xda0

/* SCTRCLR: zero every entry and the cycle counter (CTR v1.0 2.5). */
#define RVCTR_INSN_SCTRCLR	0x10400073

/* xctrctl fields */
#define RVCTR_CTL_U		RVCTR_BIT(0)
#define RVCTR_CTL_S		RVCTR_BIT(1)
#define RVCTR_CTL_M		RVCTR_BIT(2)
#define RVCTR_CTL_RASEMU	RVCTR_BIT(7)
#define RVCTR_CTL_STE		RVCTR_BIT(8)
#define RVCTR_CTL_MTE		RVCTR_BIT(9)
#define RVCTR_CTL_BPFRZ		RVCTR_BIT(11)
#define RVCTR_CTL_LCOFIFRZ	RVCTR_BIT(12)
#define RVCTR_CTL_EXCINH	RVCTR_BIT(33)
#define RVCTR_CTL_INTRINH	RVCTR_BIT(34)
#define RVCTR_CTL_TRETINH	RVCTR_BIT(35)
#define RVCTR_CTL_NTBREN	RVCTR_BIT(36)
#define RVCTR_CTL_TKBRINH	RVCTR_BIT(37)
#define RVCTR_CTL_INDCALLINH	RVCTR_BIT(40)
#define RVCTR_CTL_DIRCALLINH	RVCTR_BIT(41)
#define RVCTR_CTL_INDJMPINH	RVCTR_BIT(42)
#define RVCTR_CTL_DIRJMPINH	RVCTR_BIT(43)
#define RVCTR_CTL_CORSWAPINH	RVCTR_BIT(44)
#define RVCTR_CTL_RETINH	RVCTR_BIT(45)
#define RVCTR_CTL_INDLJMPINH	RVCTR_BIT(46)
#define RVCTR_CTL_DIRLJMPINH	RVCTR_BIT(47)
/*
 * Every transfer-type inhibit bit.  NTBREN (36) is an enable, not an
 * inhibit; bits 38 and 39 would inhibit the reserved types 6 and 7 and
 * are reserved themselves (WPRI), so nothing writes them.
 */
#define RVCTR_CTL_INH_ALL	(RVCTR_MASK(35, 33) | RVCTR_BIT(37) | \
				 RVCTR_MASK(47, 40))
/*
 * The fields sctrctl shows (CTR v1.0 "Supervisor Control Transfer Records
 * Control Register"): mctrctl's but M and MTE.  The rest of the register
 * is reserved (WPRI) or custom, and is never written.
 */
#define RVCTR_CTL_SFIELDS	(RVCTR_CTL_U | RVCTR_CTL_S | RVCTR_CTL_RASEMU | \
				 RVCTR_CTL_STE | RVCTR_CTL_BPFRZ | \
				 RVCTR_CTL_LCOFIFRZ | RVCTR_CTL_INH_ALL | \
				 RVCTR_CTL_NTBREN)

/* sctrstatus */
#define RVCTR_STATUS_WRPTR	RVCTR_MASK(7, 0)
#define RVCTR_STATUS_FROZEN	RVCTR_BIT(31)

/* sctrdepth: DEPTH in bits 2:0 encodes 16 << DEPTH entries (WARL). */
#define RVCTR_DEPTH_FIELD	RVCTR_MASK(2, 0)
#define RVCTR_DEPTH_ENC_MAX	4
#define RVCTR_DEPTH_MIN		16U
#define RVCTR_DEPTH_MAX		256U

/* Entry i is reached with siselect = 0x200 + i; sireg/2/3 = source/target/data. */
#define RVCTR_ISELECT_ENTRY0	0x200
#define RVCTR_SOURCE_V		RVCTR_BIT(0)
#define RVCTR_TARGET_MISP	RVCTR_BIT(0)
#define RVCTR_DATA_TYPE		RVCTR_MASK(3, 0)
#define RVCTR_DATA_CCV		RVCTR_BIT(15)
#define RVCTR_DATA_CC		RVCTR_MASK(31, 16)
#define RVCTR_DATA_CCM		RVCTR_MASK(27, 16)
#define RVCTR_DATA_CCE		RVCTR_MASK(31, 28)

/* Counter delegation (Smcdeleg/Ssccfg): siselect 0x40 + i reaches counter i. */
#define RVCTR_ISELECT_COUNTER0	0x40

/*
 * mhpmevent3..31 (Sscofpmf; as sireg2 of a delegated counter): overflow
 * flag and per-privilege inhibits in the top bits, the event selector
 * below them (seeds 002, 003).
 */
#define RVCTR_HPMEVENT_OF	RVCTR_BIT(63)
#define RVCTR_HPMEVENT_MINH	RVCTR_BIT(62)
#define RVCTR_HPMEVENT_SINH	RVCTR_BIT(61)
#define RVCTR_HPMEVENT_UINH	RVCTR_BIT(60)
#define RVCTR_HPMEVENT_VSINH	RVCTR_BIT(59)
#define RVCTR_HPMEVENT_VUINH	RVCTR_BIT(58)
#define RVCTR_HPMEVENT_INH_ALL	RVCTR_MASK(62, 58)
#define RVCTR_HPMEVENT_SELECTOR	RVCTR_MASK(55, 0)

/* ctrdata.TYPE; the inhibit bit of a type is 32 + TYPE where one exists. */
enum rvctr_type {
	RVCTR_TYPE_NONE		= 0,
	RVCTR_TYPE_EXC		= 1,
	RVCTR_TYPE_INTR		= 2,
	RVCTR_TYPE_TRET		= 3,
	RVCTR_TYPE_NTBR		= 4,
	RVCTR_TYPE_TKBR		= 5,
	RVCTR_TYPE_INDCALL	= 8,
	RVCTR_TYPE_DIRCALL	= 9,
	RVCTR_TYPE_INDJMP	= 10,
	RVCTR_TYPE_DIRJMP	= 11,
	RVCTR_TYPE_CORSWAP	= 12,
	RVCTR_TYPE_RET		= 13,
	RVCTR_TYPE_INDLJMP	= 14,
	RVCTR_TYPE_DIRLJMP	= 15,
	RVCTR_NR_TYPES		= 16,
};

/* One entry as read from the hardware (or a raw snapshot). */
struct rvctr_raw_entry {
	__u64 source;
	__u64 target;
	__u64 data;
};

static inline unsigned int rvctr_depth_decode(__u64 sctrdepth)
{
	unsigned int enc = RVCTR_GET(RVCTR_DEPTH_FIELD, sctrdepth);

	return enc > RVCTR_DEPTH_ENC_MAX ? 0 : RVCTR_DEPTH_MIN << enc;
}

/* Encoding for a depth of 16..256 entries; -1 if not a power of two in range. */
static inline int rvctr_depth_encode(unsigned int depth)
{
	int enc;

	for (enc = 0; enc <= RVCTR_DEPTH_ENC_MAX; enc++)
		if ((RVCTR_DEPTH_MIN << enc) == depth)
			return enc;
	return -1;
}

static inline int rvctr_entry_valid(__u64 source)
{
	return !!(source & RVCTR_SOURCE_V);
}

static inline __u64 rvctr_entry_source(__u64 source)
{
	return source & ~RVCTR_SOURCE_V;
}

static inline __u64 rvctr_entry_target(__u64 target)
{
	return target & ~RVCTR_TARGET_MISP;
}

static inline int rvctr_entry_misp(__u64 target)
{
	return !!(target & RVCTR_TARGET_MISP);
}

static inline unsigned int rvctr_data_type(__u64 data)
{
	return RVCTR_GET(RVCTR_DATA_TYPE, data);
}

static inline int rvctr_data_ccv(__u64 data)
{
	return !!(data & RVCTR_DATA_CCV);
}

/*
 * Elapsed cycles since the previous record (CTR v1.0 "Cycle Counting"):
 * CCE == 0 gives CCM; else (2^12 + CCM) << (CCE - 1).  When CCE > 1 the
 * low CCE - 1 bits are not reported; @unbias adds the spec's mean undercount
 * (2^(CCE-1) - 1) / 2 so that sums over many records are unbiased.
 */
static inline __u64 rvctr_data_cycles(__u64 data, int unbias)
{
	__u64 cce = RVCTR_GET(RVCTR_DATA_CCE, data);
	__u64 ccm = RVCTR_GET(RVCTR_DATA_CCM, data);
	__u64 cycles;

	if (!cce)
		return ccm;
	cycles = (4096 + ccm) << (cce - 1);
	if (unbias && cce > 1)
		cycles += ((1ULL << (cce - 1)) - 1) / 2;
	return cycles;
}

/* perf_branch_entry.cycles is 16 bits wide: saturate. */
static inline __u16 rvctr_cycles_sat16(__u64 cycles)
{
	return cycles > 0xffff ? 0xffff : (__u16)cycles;
}

/*
 * ctrdata.TYPE to perf's branch type.  Exceptions map to SYSCALL (ecall is
 * the common case; perf has no generic "exception"), not-taken and taken
 * branches to COND, jumps with no link to UNCOND/IND.  Reserved types map
 * to UNKNOWN.  Table indexed by TYPE, bounds-checked by the helper.
 */
static inline unsigned int rvctr_type_to_perf(unsigned int type)
{
	static const __u8 map[RVCTR_NR_TYPES] = {
		[RVCTR_TYPE_NONE]	= PERF_BR_UNKNOWN,
		[RVCTR_TYPE_EXC]	= PERF_BR_SYSCALL,
		[RVCTR_TYPE_INTR]	= PERF_BR_IRQ,
		[RVCTR_TYPE_TRET]	= PERF_BR_ERET,
		[RVCTR_TYPE_NTBR]	= PERF_BR_COND,
		[RVCTR_TYPE_TKBR]	= PERF_BR_COND,
		[6]			= PERF_BR_UNKNOWN,
		[7]			= PERF_BR_UNKNOWN,
		[RVCTR_TYPE_INDCALL]	= PERF_BR_IND_CALL,
		[RVCTR_TYPE_DIRCALL]	= PERF_BR_CALL,
		[RVCTR_TYPE_INDJMP]	= PERF_BR_IND,
		[RVCTR_TYPE_DIRJMP]	= PERF_BR_UNCOND,
		[RVCTR_TYPE_CORSWAP]	= PERF_BR_UNKNOWN,
		[RVCTR_TYPE_RET]	= PERF_BR_RET,
		[RVCTR_TYPE_INDLJMP]	= PERF_BR_IND,
		[RVCTR_TYPE_DIRLJMP]	= PERF_BR_UNCOND,
	};

	return type < RVCTR_NR_TYPES ? map[type] : PERF_BR_UNKNOWN;
}

/* Short names for reports and raw dumps ("tkbr", "ret", ...). */
static inline const char *rvctr_type_name(unsigned int type)
{
	static const char * const names[RVCTR_NR_TYPES] = {
		"none", "exc", "intr", "tret", "ntbr", "tkbr", "rsvd6", "rsvd7",
		"indcall", "dircall", "indjmp", "dirjmp", "corswap", "ret",
		"indljmp", "dirljmp",
	};

	return type < RVCTR_NR_TYPES ? names[type] : "invalid";
}

/*
 * riscv64 kernels live in the upper half of every Sv39/48/57 address space:
 * the sign bit tells a kernel address from a user one.
 */
static inline int rvctr_addr_is_kernel(__u64 addr)
{
	return !!(addr >> 63);
}

/* A decoded entry, independent of perf_branch_entry's bitfield layout. */
struct rvctr_branch {
	__u64 from;
	__u64 to;
	__u16 cycles;		/* saturated; 0 when !cycles_valid */
	__u8 type;		/* RVCTR_TYPE_* */
	__u8 perf_type;		/* PERF_BR_* */
	__u8 mispred;
	__u8 predicted;		/* only meaningful when the hart reports MISP */
	__u8 cycles_valid;
	__u8 kernel_from;
};

/*
 * Decode one raw entry; returns 0 if the entry is not valid (V = 0).
 * @has_misp: the hart implements MISP; otherwise neither mispred nor
 * predicted is claimed (perf prints '-').
 */
static inline int rvctr_decode(const struct rvctr_raw_entry *e, int has_misp,
			       struct rvctr_branch *b)
{
	if (!rvctr_entry_valid(e->source))
		return 0;
	b->from = rvctr_entry_source(e->source);
	b->to = rvctr_entry_target(e->target);
	b->type = rvctr_data_type(e->data);
	b->perf_type = rvctr_type_to_perf(b->type);
	b->mispred = has_misp && rvctr_entry_misp(e->target);
	b->predicted = has_misp && !rvctr_entry_misp(e->target);
	b->cycles_valid = rvctr_data_ccv(e->data);
	b->cycles = b->cycles_valid ?
		rvctr_cycles_sat16(rvctr_data_cycles(e->data, 0)) : 0;
	b->kernel_from = rvctr_addr_is_kernel(b->from);
	return 1;
}

/*
 * Raw entries as perf_branch_entry records, for the sample path.
 *
 * rvctr_perf_fill() / rvctr_perf_entry_ref() are the reference: decode,
 * then set the fields one by one.  rvctr_perf_fast() gives the same 24
 * bytes in about a third of the instructions.  It looks up the third
 * word (the flags bitfield) in a table built once per filter by
 * rvctr_perf_tmpl_init() through the reference, so it makes no
 * assumption about the bitfield layout.  tools/rvctr/tests/test-ctr.c
 * checks that the two agree on random records under every option.
 */
static inline void rvctr_perf_fill(struct perf_branch_entry *pe,
				   const struct rvctr_branch *b, __u64 bst)
{
	/* Zero every field, reserved bits included (perf copies them out). */
	*pe = (struct perf_branch_entry){ .from = b->from, .to = b->to };
	if (!(bst & PERF_SAMPLE_BRANCH_NO_FLAGS)) {
		pe->mispred = b->mispred;
		pe->predicted = b->predicted;
		pe->type = b->perf_type;
	}
	if (!(bst & PERF_SAMPLE_BRANCH_NO_CYCLES))
		pe->cycles = b->cycles;
	/* The recording mode: a trap from a disabled mode has from == 0. */
	pe->priv = rvctr_addr_is_kernel(b->from ? b->from : b->to) ?
		   PERF_BR_PRIV_KERNEL : PERF_BR_PRIV_USER;
}

/* rvctr_perf_entry_ref() and rvctr_perf_fast() return one of these. */
#define RVCTR_PERF_END		0	/* not valid: no older record follows */
#define RVCTR_PERF_OK		1	/* *pe written */
#define RVCTR_PERF_HIDDEN	2	/* a kernel address for a user-only event */

/*
 * CTR does not record kernel transfers for a user-only filter; an entry
 * with a kernel address is dropped anyway, whatever the hardware did.
 */
static inline int rvctr_perf_entry_ref(const struct rvctr_raw_entry *e,
				       int has_misp, __u64 bst,
				       struct perf_branch_entry *pe)
{
	struct rvctr_branch b;

	if (!rvctr_decode(e, has_misp, &b))
		return RVCTR_PERF_END;
	if (!(bst & PERF_SAMPLE_BRANCH_KERNEL) &&
	    (rvctr_addr_is_kernel(b.from) || rvctr_addr_is_kernel(b.to)))
		return RVCTR_PERF_HIDDEN;
	rvctr_perf_fill(pe, &b, bst);
	return RVCTR_PERF_OK;
}

/* The word after from and to: the bitfields. */
#define RVCTR_PERF_FLAGS_OFF	(2 * sizeof(__u64))

/*
 * perf_branch_entry is three __u64s, so the word is 8-byte aligned; saying
 * so keeps strict-alignment targets (the riscv kernel) to one access.
 * sparse does not know the builtin.
 */
#ifdef __CHECKER__
#define RVCTR_ALIGNED8(p)	(p)
#else
#define RVCTR_ALIGNED8(p)	__builtin_assume_aligned(p, 8)
#endif

static inline __u64 rvctr_perf_flags(const struct perf_branch_entry *pe)
{
	const char *p = (const char *)RVCTR_ALIGNED8(pe);
	__u64 w;

	__builtin_memcpy(&w, p + RVCTR_PERF_FLAGS_OFF, sizeof(w));
	return w;
}

static inline void rvctr_perf_set_flags(struct perf_branch_entry *pe, __u64 w)
{
	char *p = (char *)RVCTR_ALIGNED8(pe);

	__builtin_memcpy(p + RVCTR_PERF_FLAGS_OFF, &w, sizeof(w));
}

struct rvctr_perf_tmpl {
	__u64 word[2][RVCTR_NR_TYPES];	/* [kernel priv][ctrdata.TYPE] */
	__u64 misp_flip;	/* XORed in when MISP is set; 0 if not reported */
	__u64 key;		/* what it was built for, see rvctr_perf_tmpl_key() */
	int kernel_ok;
	int cycles;
};

#define RVCTR_PERF_TMPL_BST	(PERF_SAMPLE_BRANCH_KERNEL | \
				 PERF_SAMPLE_BRANCH_NO_FLAGS | \
				 PERF_SAMPLE_BRANCH_NO_CYCLES)

/* Never 0, so a zeroed template is never taken for a built one. */
static inline __u64 rvctr_perf_tmpl_key(int has_misp, __u64 bst)
{
	return (bst & RVCTR_PERF_TMPL_BST) | (__u64)!!has_misp << 62 |
	       RVCTR_BIT(63);
}

static inline __u64 rvctr_perf_tmpl_word(int kernel, unsigned int type,
					 int mispred, int predicted, __u64 bst)
{
	struct perf_branch_entry pe;
	struct rvctr_branch b = {
		.from = kernel ? RVCTR_BIT(63) : 0x1000,
		.to = 0x2000,
		.type = type,
		.perf_type = rvctr_type_to_perf(type),
		.mispred = mispred,
		.predicted = predicted,
	};

	rvctr_perf_fill(&pe, &b, bst);
	return rvctr_perf_flags(&pe);
}

static inline void rvctr_perf_tmpl_init(struct rvctr_perf_tmpl *t,
					int has_misp, __u64 bst)
{
	unsigned int k, type;

	has_misp = !!has_misp;
	for (k = 0; k < 2; k++)
		for (type = 0; type < RVCTR_NR_TYPES; type++)
			t->word[k][type] = rvctr_perf_tmpl_word(k, type, 0,
								has_misp, bst);
	t->misp_flip = t->word[0][0] ^
		       rvctr_perf_tmpl_word(0, 0, has_misp, 0, bst);
	t->kernel_ok = !!(bst & PERF_SAMPLE_BRANCH_KERNEL);
	t->cycles = !(bst & PERF_SAMPLE_BRANCH_NO_CYCLES);
	t->key = rvctr_perf_tmpl_key(has_misp, bst);
}

/* The flags word holding only the cycle count of @data (CCV set). */
static inline __u64 rvctr_perf_cycles_word(__u64 data)
{
	struct perf_branch_entry pe = {
		.cycles = rvctr_cycles_sat16(rvctr_data_cycles(data, 0)),
	};

	return rvctr_perf_flags(&pe);
}

/* @t and @pe never overlap: stores to *pe need not reload the template. */
static inline int rvctr_perf_fast(const struct rvctr_perf_tmpl *__restrict t,
				  __u64 source, __u64 target, __u64 data,
				  struct perf_branch_entry *__restrict pe)
{
	__u64 from = rvctr_entry_source(source);
	__u64 to = rvctr_entry_target(target);
	__u64 w;

	if (!rvctr_entry_valid(source))
		return RVCTR_PERF_END;
	if (!t->kernel_ok && ((from | to) >> 63))
		return RVCTR_PERF_HIDDEN;
	w = t->word[(from ? from : to) >> 63][rvctr_data_type(data)];
	if (target & RVCTR_TARGET_MISP)
		w ^= t->misp_flip;
	if (t->cycles && (data & RVCTR_DATA_CCV))
		w |= rvctr_perf_cycles_word(data);
	pe->from = from;
	pe->to = to;
	rvctr_perf_set_flags(pe, w);
	return RVCTR_PERF_OK;
}

/*
 * perf branch filters (attr.branch_sample_type) and CTR.  Every generic
 * PERF_SAMPLE_BRANCH_* bit is in exactly one of the two masks; the driver
 * checks that at build time against the kernel's PERF_SAMPLE_BRANCH_MAX.
 * HV is accepted and changes nothing: without the H extension there is
 * no hypervisor mode, and with it the host kernel runs in HS = S.
 * COUNTERS (bit 19, Linux 6.8) is spelt as a number so this header also
 * builds against older UAPI headers.
 */
#define RVCTR_BRANCH_PRIV	(PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL | \
				 PERF_SAMPLE_BRANCH_HV)
#define RVCTR_BRANCH_TYPES	(PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_ANY_CALL | \
				 PERF_SAMPLE_BRANCH_ANY_RETURN | \
				 PERF_SAMPLE_BRANCH_IND_CALL | PERF_SAMPLE_BRANCH_COND | \
				 PERF_SAMPLE_BRANCH_IND_JUMP | PERF_SAMPLE_BRANCH_CALL)
#define RVCTR_BRANCH_SW		(PERF_SAMPLE_BRANCH_NO_FLAGS | \
				 PERF_SAMPLE_BRANCH_NO_CYCLES | \
				 PERF_SAMPLE_BRANCH_TYPE_SAVE | \
				 PERF_SAMPLE_BRANCH_HW_INDEX | \
				 PERF_SAMPLE_BRANCH_PRIV_SAVE)
#define RVCTR_BRANCH_ALLOWED	(RVCTR_BRANCH_PRIV | RVCTR_BRANCH_TYPES | \
				 RVCTR_BRANCH_SW | PERF_SAMPLE_BRANCH_CALL_STACK)
#define RVCTR_BRANCH_COUNTERS	RVCTR_BIT(19)
#define RVCTR_BRANCH_EXCLUDED	(PERF_SAMPLE_BRANCH_ABORT_TX | \
				 PERF_SAMPLE_BRANCH_IN_TX | \
				 PERF_SAMPLE_BRANCH_NO_TX | RVCTR_BRANCH_COUNTERS)

/* Options of rvctr_branch_filter() that are not perf branch filters. */
#define RVCTR_FILTER_NTBR	RVCTR_BIT(0)	/* record not-taken branches */
#define RVCTR_FILTER_BPFRZ	RVCTR_BIT(1)	/* freeze on breakpoint */

/* Errors of rvctr_branch_filter(). */
#define RVCTR_FILTER_EUNSUPP	(-1)	/* a filter CTR cannot honour */
#define RVCTR_FILTER_ENOMODE	(-2)	/* neither user nor kernel asked for */

/*
 * Transfer types each perf type filter lets through (CTR v1.0 "Transfer
 * Type Filtering"; the inhibit bit of TYPE t is 32 + t).  ANY_CALL counts
 * traps (ecall, interrupts) as calls and ANY_RETURN trap returns as
 * returns, as x86 does for syscalls and interrupts.  Direct and
 * co-routine jumps pass only with ANY.
 */
static inline __u64 rvctr_filter_type_enables(__u64 bst)
{
	__u64 en = 0;

	if (bst & PERF_SAMPLE_BRANCH_ANY)
		return RVCTR_CTL_INH_ALL;
	if (bst & PERF_SAMPLE_BRANCH_ANY_CALL)
		en |= RVCTR_CTL_INDCALLINH | RVCTR_CTL_DIRCALLINH |
		      RVCTR_CTL_EXCINH | RVCTR_CTL_INTRINH;
	if (bst & PERF_SAMPLE_BRANCH_ANY_RETURN)
		en |= RVCTR_CTL_RETINH | RVCTR_CTL_TRETINH;
	if (bst & PERF_SAMPLE_BRANCH_IND_CALL)
		en |= RVCTR_CTL_INDCALLINH;
	if (bst & PERF_SAMPLE_BRANCH_CALL)
		en |= RVCTR_CTL_DIRCALLINH;
	if (bst & PERF_SAMPLE_BRANCH_COND)
		en |= RVCTR_CTL_TKBRINH;
	if (bst & PERF_SAMPLE_BRANCH_IND_JUMP)
		en |= RVCTR_CTL_INDJMPINH | RVCTR_CTL_INDLJMPINH;
	return en;
}

/*
 * Translate a perf branch filter into an sctrctl value, once, at
 * event_init.  LCOFIFRZ is always set so a sample's stack ends at the
 * sampled instruction (CTR v1.0 "Freeze").  CALL_STACK selects RAS
 * emulation, in which the type filter bits are ignored (CTR v1.0 "RAS
 * Emulation Mode").  A type filter that names no type (only privilege
 * bits) means ANY, as perf's own default does.  Not-taken branches are
 * conditional branches too: NTBR is refused unless COND or ANY asks for
 * them.  Returns 0 and sets *ctl, or RVCTR_FILTER_E*.
 */
static inline int rvctr_branch_filter(__u64 bst, __u64 opts, __u64 *ctl)
{
	__u64 v = RVCTR_CTL_LCOFIFRZ, en;

	if (bst & ~(__u64)RVCTR_BRANCH_ALLOWED)
		return RVCTR_FILTER_EUNSUPP;
	if (bst & PERF_SAMPLE_BRANCH_USER)
		v |= RVCTR_CTL_U;
	if (bst & PERF_SAMPLE_BRANCH_KERNEL)
		v |= RVCTR_CTL_S;
	if (!(v & (RVCTR_CTL_U | RVCTR_CTL_S)))
		return RVCTR_FILTER_ENOMODE;
	if (opts & RVCTR_FILTER_BPFRZ)
		v |= RVCTR_CTL_BPFRZ;

	if (bst & PERF_SAMPLE_BRANCH_CALL_STACK) {
		if ((bst & RVCTR_BRANCH_TYPES) || (opts & RVCTR_FILTER_NTBR))
			return RVCTR_FILTER_EUNSUPP;
		*ctl = v | RVCTR_CTL_RASEMU;
		return 0;
	}

	en = (bst & RVCTR_BRANCH_TYPES) ? rvctr_filter_type_enables(bst) :
					  RVCTR_CTL_INH_ALL;
	if (opts & RVCTR_FILTER_NTBR) {
		if (!(en & RVCTR_CTL_TKBRINH))
			return RVCTR_FILTER_EUNSUPP;
		v |= RVCTR_CTL_NTBREN;
	}
	*ctl = v | (RVCTR_CTL_INH_ALL & ~en);
	return 0;
}

/*
 * Whether an entry of TYPE may be reported for a filter: the hardware
 * filter is exact for CTR, this is the check tests (and a paranoid reader)
 * apply to what came back.
 */
static inline int rvctr_filter_passes(__u64 ctl, unsigned int type)
{
	if (type == RVCTR_TYPE_NTBR)
		return !!(ctl & RVCTR_CTL_NTBREN);
	if (type < RVCTR_TYPE_EXC || type >= RVCTR_NR_TYPES ||
	    type == 6 || type == 7)
		return 0;
	return !(ctl & RVCTR_BIT(32 + type));
}

/*
 * What a hart implements of CTR.  CTR v1.0 makes every sctrctl field but
 * the mode enables optional (an unimplemented one is read-only 0) and
 * sctrdepth WARL, and MISP in ctrtarget is optional too, so the driver
 * finds them by writing and reading back, on every hart, and keeps what
 * all of them have: an event may run on any of them.
 */
struct rvctr_ctr_hw {
	__u64 ctl;		/* sctrctl fields that read back set */
	__u32 depths;		/* BIT(n): sctrdepth n (16 << n entries) kept */
	__u32 misp;		/* ctrtarget.MISP kept */
};

/* Keep in @all only what @hart has as well. */
static inline void rvctr_ctr_hw_and(struct rvctr_ctr_hw *all,
				    const struct rvctr_ctr_hw *hart)
{
	all->ctl &= hart->ctl;
	all->depths &= hart->depths;
	all->misp = all->misp && hart->misp;
}

/*
 * What @hart lacks of @need (a hart that comes up after the PMU offered
 * @need), in @lack; nonzero if it lacks anything.
 */
static inline int rvctr_ctr_hw_lacks(const struct rvctr_ctr_hw *hart,
				     const struct rvctr_ctr_hw *need,
				     struct rvctr_ctr_hw *lack)
{
	lack->ctl = need->ctl & ~hart->ctl;
	lack->depths = need->depths & ~hart->depths;
	lack->misp = need->misp && !hart->misp;
	return lack->ctl || lack->depths || lack->misp;
}

/*
 * The fields an sctrctl value from rvctr_branch_filter() needs that @hw
 * did not keep; 0 if it can be honoured.  Written anyway, it would be
 * another filter: a missing inhibit bit records that type, a missing
 * RASEMU records every transfer instead of a call stack, a missing
 * LCOFIFRZ lets the interrupt's own path displace the sample's stack.
 */
static inline __u64 rvctr_ctl_missing(__u64 ctl, const struct rvctr_ctr_hw *hw)
{
	return ctl & ~hw->ctl;
}

/* The CTR v1.0 name of the lowest sctrctl field in @bits, for messages. */
static inline const char *rvctr_ctl_field_name(__u64 bits)
{
	static const char * const names[64] = {
		[0] = "U", [1] = "S", [2] = "M", [7] = "RASEMU", [8] = "STE",
		[9] = "MTE", [11] = "BPFRZ", [12] = "LCOFIFRZ",
		[33] = "EXCINH", [34] = "INTRINH", [35] = "TRETINH",
		[36] = "NTBREN", [37] = "TKBRINH", [40] = "INDCALLINH",
		[41] = "DIRCALLINH", [42] = "INDJMPINH", [43] = "DIRJMPINH",
		[44] = "CORSWAPINH", [45] = "RETINH", [46] = "INDLJMPINH",
		[47] = "DIRLJMPINH",
	};
	const char *name;

	if (!bits)
		return "none";
	name = names[__builtin_ctzll(bits)];
	return name ? name : "reserved";
}

/*
 * The depth, in entries, to use of @depths (BIT(n): 16 << n supported)
 * when @want entries are asked for: @want if supported, the largest if
 * @want is 0, else the largest supported below @want, else the smallest
 * supported.  0 if @depths holds no depth.
 */
static inline unsigned int rvctr_depth_pick(unsigned int depths,
					    unsigned int want)
{
	int enc;

	depths &= (1U << (RVCTR_DEPTH_ENC_MAX + 1)) - 1;
	if (!depths)
		return 0;
	for (enc = RVCTR_DEPTH_ENC_MAX; enc >= 0; enc--)
		if ((depths & (1U << enc)) &&
		    (!want || (RVCTR_DEPTH_MIN << enc) <= want))
			return RVCTR_DEPTH_MIN << enc;
	return RVCTR_DEPTH_MIN << __builtin_ctz(depths);
}

#endif /* RVCTR_CTR_H */
