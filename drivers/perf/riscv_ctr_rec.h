/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * RISC-V Control Transfer Records: what needs no kernel.  perf branch
 * filters to sctrctl, raw entries to perf_branch_entry, the record
 * template of the sample path, and the CTR features a hart implements.
 *
 * The CTR backend (riscv_ctr.c) keeps here what touches no CSR and no
 * kernel state, so riscv_ctr_rec.c and this header use nothing but
 * <linux/bitfield.h>, <linux/bitops.h>, <linux/bits.h>,
 * <linux/build_bug.h>, <linux/export.h>, <linux/types.h>,
 * <kunit/visibility.h> (the KUnit suite's exports), the perf UAPI and
 * the CTR register layout of <asm/csr.h>.
 */
#ifndef __RISCV_CTR_REC_H
#define __RISCV_CTR_REC_H

#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/perf_event.h>
#include <linux/types.h>
#include <asm/csr.h>

#define RISCV_CTR_DEPTH_MIN	16U
#define RISCV_CTR_DEPTH_MAX	256U
#define RISCV_CTR_NR_TYPES	16

/*
 * Every transfer-type inhibit bit of sctrctl.  NTBREN (36) is an enable;
 * bits 38 and 39 would inhibit the reserved types 6 and 7 and are
 * reserved themselves (WPRI), so nothing writes them.
 */
#define RISCV_CTR_INH_ALL	(CTRCTL_EXCINH | CTRCTL_INTRINH | \
				 CTRCTL_TRETINH | CTRCTL_TKBRINH | \
				 CTRCTL_INDCALL_INH | CTRCTL_DIRCALL_INH | \
				 CTRCTL_INDJUMP_INH | CTRCTL_DIRJUMP_INH | \
				 CTRCTL_CORSWAP_INH | CTRCTL_RET_INH | \
				 CTRCTL_INDLJUMP_INH | CTRCTL_DIRLJUMP_INH)
/*
 * The fields sctrctl shows (CTR v1.0 "Supervisor Control Transfer Records
 * Control Register"): mctrctl's but M and MTE.  The rest of the register
 * is reserved (WPRI) or custom, and is never written.
 */
#define RISCV_CTR_SCTRCTL_FIELDS (CTRCTL_U_ENABLE | CTRCTL_S_ENABLE | \
				  CTRCTL_RASEMU | CTRCTL_STE | CTRCTL_BPFRZ | \
				  CTRCTL_LCOFIFRZ | CTRCTL_NTBREN | \
				  RISCV_CTR_INH_ALL)

/* One entry as read from ctrsource, ctrtarget and ctrdata. */
struct riscv_ctr_raw {
	u64 source;
	u64 target;
	u64 data;
};

/* ---- field decoders ---- */

static inline bool riscv_ctr_valid(u64 source)
{
	return source & CTRSOURCE_VALID;
}

static inline u64 riscv_ctr_from(u64 source)
{
	return source & ~CTRSOURCE_VALID;
}

static inline u64 riscv_ctr_to(u64 target)
{
	return target & ~CTRTARGET_MISP;
}

static inline unsigned int riscv_ctr_type(u64 data)
{
	return data & CTRDATA_TYPE_MASK;
}

/* riscv64 kernels live in the upper half of every Sv39/48/57 space. */
static inline bool riscv_ctr_is_kernel(u64 addr)
{
	return addr >> 63;
}

/* Entries of sctrdepth.DEPTH @enc (0..SCTRDEPTH_MAX). */
static inline unsigned int riscv_ctr_depth_entries(unsigned int enc)
{
	return RISCV_CTR_DEPTH_MIN << enc;
}

unsigned int riscv_ctr_depth_decode(u64 sctrdepth);
int riscv_ctr_depth_encode(unsigned int entries);
unsigned int riscv_ctr_depth_pick(unsigned int depths, unsigned int want);

/*
 * Elapsed cycles since the previous record (CTR v1.0 "Cycle Counting"):
 * CCE == 0 gives CCM; else (2^12 + CCM) << (CCE - 1), the low CCE - 1
 * bits not reported.  Inline: the sample path calls it for every entry.
 */
static inline u64 riscv_ctr_cycles(u64 data)
{
	u64 cce = FIELD_GET(CTRDATA_CCE_MASK, data);
	u64 ccm = FIELD_GET(CTRDATA_CCM_MASK, data);

	return cce ? (4096 + ccm) << (cce - 1) : ccm;
}

/* perf_branch_entry.cycles is 16 bits wide: saturate. */
static inline u16 riscv_ctr_cycles_sat16(u64 cycles)
{
	return cycles > 0xffff ? 0xffff : (u16)cycles;
}

unsigned int riscv_ctr_type_to_perf(unsigned int type);

/* ---- raw entries to perf_branch_entry ---- */

/* riscv_ctr_fast() returns one of these. */
#define RISCV_CTR_END		0	/* not valid: no older record follows */
#define RISCV_CTR_OK		1	/* *pe written */
#define RISCV_CTR_HIDDEN	2	/* a kernel address for a user-only event */

/*
 * perf_branch_entry is from, to and one u64 of bitfields; seen through
 * this union, the bitfields are one word, as union perf_mem_data_src
 * pairs its bitfields with val.  Accesses through a union member alias
 * any type (GCC and clang; the kernel also builds -fno-strict-aliasing).
 */
union riscv_ctr_entry {
	struct perf_branch_entry pe;
	struct {
		u64 from;
		u64 to;
		u64 flags;
	};
};

/*
 * The sample path's conversion: riscv_ctr_fast() looks up the flags word
 * of perf_branch_entry (the bitfields) for the target's mode and
 * ctrdata.TYPE in a table that riscv_ctr_tmpl_init() fills through the
 * bitfields, so it assumes nothing of their layout, and adds MISP and
 * the cycle count.  priv is the target's mode, as arm64's BRBE gives the
 * exception level at the target; a record without a target (ctrtarget 0:
 * a trap return into a mode CTR does not record, or an external trap,
 * CTR v1.0 "Privilege Mode Transitions") has PERF_BR_PRIV_UNKNOWN, as a
 * BRBE source-only record.
 */
enum {
	RISCV_CTR_TMPL_USER,		/* = bit 63 of a user target */
	RISCV_CTR_TMPL_KERNEL,		/* = bit 63 of a kernel target */
	RISCV_CTR_TMPL_NO_TARGET,
	RISCV_CTR_TMPL_ROWS
};

struct riscv_ctr_tmpl {
	u64 word[RISCV_CTR_TMPL_ROWS][RISCV_CTR_NR_TYPES];
	u64 misp_flip;		/* XORed in when MISP is set; 0 if not reported */
	u64 key;		/* what it was built for: riscv_ctr_tmpl_key() */
	bool kernel_ok;
	bool cycles;
};

#define RISCV_CTR_TMPL_BST	(PERF_SAMPLE_BRANCH_KERNEL | \
				 PERF_SAMPLE_BRANCH_NO_FLAGS | \
				 PERF_SAMPLE_BRANCH_NO_CYCLES)

/* Never 0, so a zeroed template is never taken for a built one. */
static inline u64 riscv_ctr_tmpl_key(bool has_misp, u64 bst)
{
	return (bst & RISCV_CTR_TMPL_BST) | (u64)has_misp << 62 | BIT_ULL(63);
}

void riscv_ctr_tmpl_init(struct riscv_ctr_tmpl *t, bool has_misp, u64 bst);

/* The flags word holding only the cycle count of @data (CCV set). */
static inline u64 riscv_ctr_cycles_word(u64 data)
{
	union riscv_ctr_entry b = {
		.pe.cycles = riscv_ctr_cycles_sat16(riscv_ctr_cycles(data)),
	};

	return b.flags;
}

/* @t and @pe never overlap: stores to *pe need not reload the template. */
static inline int riscv_ctr_fast(const struct riscv_ctr_tmpl *__restrict t,
				 u64 source, u64 target, u64 data,
				 struct perf_branch_entry *__restrict pe)
{
	union riscv_ctr_entry *b = (union riscv_ctr_entry *)pe;
	u64 from = riscv_ctr_from(source);
	u64 to = riscv_ctr_to(target);
	u64 w;

	if (!riscv_ctr_valid(source))
		return RISCV_CTR_END;
	if (!t->kernel_ok && ((from | to) >> 63))
		return RISCV_CTR_HIDDEN;
	w = t->word[to ? to >> 63 : RISCV_CTR_TMPL_NO_TARGET][riscv_ctr_type(data)];
	if (target & CTRTARGET_MISP)
		w ^= t->misp_flip;
	if (t->cycles && (data & CTRDATA_CCV))
		w |= riscv_ctr_cycles_word(data);
	b->from = from;
	b->to = to;
	b->flags = w;
	return RISCV_CTR_OK;
}

/* ---- perf branch filters to sctrctl ---- */

/*
 * Every generic PERF_SAMPLE_BRANCH_* bit is in exactly one of ALLOWED and
 * EXCLUDED (the backend asserts it against PERF_SAMPLE_BRANCH_MAX).  HV
 * is accepted and changes nothing: without the H extension there is no
 * hypervisor mode, and with it the host kernel runs in HS = S.
 */
#define RISCV_CTR_BRANCH_PRIV	(PERF_SAMPLE_BRANCH_USER | \
				 PERF_SAMPLE_BRANCH_KERNEL | \
				 PERF_SAMPLE_BRANCH_HV)
#define RISCV_CTR_BRANCH_TYPES	(PERF_SAMPLE_BRANCH_ANY | \
				 PERF_SAMPLE_BRANCH_ANY_CALL | \
				 PERF_SAMPLE_BRANCH_ANY_RETURN | \
				 PERF_SAMPLE_BRANCH_IND_CALL | \
				 PERF_SAMPLE_BRANCH_COND | \
				 PERF_SAMPLE_BRANCH_IND_JUMP | \
				 PERF_SAMPLE_BRANCH_CALL)
#define RISCV_CTR_BRANCH_SW	(PERF_SAMPLE_BRANCH_NO_FLAGS | \
				 PERF_SAMPLE_BRANCH_NO_CYCLES | \
				 PERF_SAMPLE_BRANCH_TYPE_SAVE | \
				 PERF_SAMPLE_BRANCH_HW_INDEX | \
				 PERF_SAMPLE_BRANCH_PRIV_SAVE)
#define RISCV_CTR_BRANCH_ALLOWED (RISCV_CTR_BRANCH_PRIV | \
				  RISCV_CTR_BRANCH_TYPES | \
				  RISCV_CTR_BRANCH_SW | \
				  PERF_SAMPLE_BRANCH_CALL_STACK)
#define RISCV_CTR_BRANCH_EXCLUDED (PERF_SAMPLE_BRANCH_ABORT_TX | \
				   PERF_SAMPLE_BRANCH_IN_TX | \
				   PERF_SAMPLE_BRANCH_NO_TX | \
				   PERF_SAMPLE_BRANCH_COUNTERS)

/* Options of riscv_ctr_branch_filter() that are not perf branch filters. */
#define RISCV_CTR_OPT_NTBR	BIT_ULL(0)	/* record not-taken branches */
#define RISCV_CTR_OPT_BPFRZ	BIT_ULL(1)	/* freeze on breakpoint */

/* Errors of riscv_ctr_branch_filter(). */
#define RISCV_CTR_EUNSUPP	(-1)	/* a filter CTR cannot honour */
#define RISCV_CTR_ENOMODE	(-2)	/* neither user nor kernel asked for */

int riscv_ctr_branch_filter(u64 bst, u64 opts, u64 *sctrctl);

/* ---- what a hart implements ---- */

/*
 * CTR v1.0 makes every sctrctl field but the mode enables optional (an
 * unimplemented one is read-only 0), sctrdepth WARL and ctrtarget.MISP
 * optional: the backend finds them by writing and reading back, on every
 * hart, and keeps what all of them have.
 */
struct riscv_ctr_hw {
	u64 sctrctl;		/* sctrctl fields that read back set */
	u32 depths;		/* BIT(n): sctrdepth.DEPTH n kept */
	bool misp;		/* ctrtarget.MISP kept */
};

void riscv_ctr_hw_and(struct riscv_ctr_hw *all, const struct riscv_ctr_hw *hart);
bool riscv_ctr_hw_lacks(const struct riscv_ctr_hw *hart,
			const struct riscv_ctr_hw *need,
			struct riscv_ctr_hw *lack);
const char *riscv_ctr_field_name(u64 bits);

/*
 * The fields an sctrctl value from riscv_ctr_branch_filter() needs that
 * @hw did not keep; 0 if it can be honoured.  Written anyway, it would be
 * another filter: a missing inhibit bit records that type, a missing
 * RASEMU records every transfer instead of a call stack, a missing
 * LCOFIFRZ lets the interrupt's own path displace the sample's stack.
 */
static inline u64 riscv_ctr_sctrctl_missing(u64 sctrctl,
					    const struct riscv_ctr_hw *hw)
{
	return sctrctl & ~hw->sctrctl;
}

#endif /* __RISCV_CTR_REC_H */
