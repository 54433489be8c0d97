// SPDX-License-Identifier: GPL-2.0-only
/*
 * RISC-V Control Transfer Records: filter translation, branch types and
 * the record template of the sample path (riscv_ctr_rec.h).
 */
#include <kunit/visibility.h>
#include <linux/bitops.h>
#include <linux/build_bug.h>
#include <linux/export.h>

#include "riscv_ctr_rec.h"

/* The bitfields of perf_branch_entry are the third of its three words. */
static_assert(sizeof(struct perf_branch_entry) == 3 * sizeof(u64));
static_assert(sizeof(union riscv_ctr_entry) == sizeof(struct perf_branch_entry));

/* ---- depths ---- */

unsigned int riscv_ctr_depth_decode(u64 sctrdepth)
{
	unsigned int enc = sctrdepth & SCTRDEPTH_MASK;

	return enc > SCTRDEPTH_MAX ? 0 : riscv_ctr_depth_entries(enc);
}
EXPORT_SYMBOL_IF_KUNIT(riscv_ctr_depth_decode);

/* DEPTH for 16..256 entries; -1 if not a power of two in range. */
int riscv_ctr_depth_encode(unsigned int entries)
{
	int enc;

	for (enc = SCTRDEPTH_MIN; enc <= SCTRDEPTH_MAX; enc++)
		if (riscv_ctr_depth_entries(enc) == entries)
			return enc;
	return -1;
}
EXPORT_SYMBOL_IF_KUNIT(riscv_ctr_depth_encode);

/*
 * The depth, in entries, to use of @depths (BIT(n): DEPTH n supported)
 * when @want entries are asked for: @want if supported, the largest if
 * @want is 0, else the largest supported below @want, else the smallest
 * supported.  0 if @depths holds no depth.
 */
unsigned int riscv_ctr_depth_pick(unsigned int depths, unsigned int want)
{
	int enc;

	depths &= (1U << (SCTRDEPTH_MAX + 1)) - 1;
	if (!depths)
		return 0;
	for (enc = SCTRDEPTH_MAX; enc >= 0; enc--)
		if ((depths & (1U << enc)) &&
		    (!want || riscv_ctr_depth_entries(enc) <= want))
			return riscv_ctr_depth_entries(enc);
	return riscv_ctr_depth_entries(__ffs(depths));
}
EXPORT_SYMBOL_IF_KUNIT(riscv_ctr_depth_pick);

/* ---- one entry ---- */

/*
 * ctrdata.TYPE (CTR v1.0 "Transfer Type Filtering") to perf's PERF_BR_*.
 * Exceptions map to SYSCALL (ecall is the common case; perf has no
 * generic "exception"), interrupts to IRQ, trap returns to ERET,
 * not-taken and taken branches to COND, calls to CALL/IND_CALL, returns
 * to RET, the other direct and indirect jumps (without linkage, or
 * "other" ones with it) to UNCOND and IND, co-routine swaps and the
 * reserved types to UNKNOWN.
 */
unsigned int riscv_ctr_type_to_perf(unsigned int type)
{
	static const u8 map[RISCV_CTR_NR_TYPES] = {
		[CTRDATA_TYPE_NONE]			= PERF_BR_UNKNOWN,
		[CTRDATA_TYPE_EXCEPTION]		= PERF_BR_SYSCALL,
		[CTRDATA_TYPE_INTERRUPT]		= PERF_BR_IRQ,
		[CTRDATA_TYPE_TRAP_RET]			= PERF_BR_ERET,
		[CTRDATA_TYPE_NONTAKEN_BRANCH]		= PERF_BR_COND,
		[CTRDATA_TYPE_TAKEN_BRANCH]		= PERF_BR_COND,
		[CTRDATA_TYPE_RESERVED_6]		= PERF_BR_UNKNOWN,
		[CTRDATA_TYPE_RESERVED_7]		= PERF_BR_UNKNOWN,
		[CTRDATA_TYPE_INDIRECT_CALL]		= PERF_BR_IND_CALL,
		[CTRDATA_TYPE_DIRECT_CALL]		= PERF_BR_CALL,
		[CTRDATA_TYPE_INDIRECT_JUMP]		= PERF_BR_IND,
		[CTRDATA_TYPE_DIRECT_JUMP]		= PERF_BR_UNCOND,
		[CTRDATA_TYPE_CO_ROUTINE_SWAP]		= PERF_BR_UNKNOWN,
		[CTRDATA_TYPE_RETURN]			= PERF_BR_RET,
		[CTRDATA_TYPE_OTHER_INDIRECT_JUMP]	= PERF_BR_IND,
		[CTRDATA_TYPE_OTHER_DIRECT_JUMP]	= PERF_BR_UNCOND,
	};

	return type < RISCV_CTR_NR_TYPES ? map[type] : PERF_BR_UNKNOWN;
}

/* ---- the record template ---- */

/*
 * The flags word of an entry of ctrdata.TYPE @type whose target is in
 * mode @priv, filled through the bitfields of perf_branch_entry as @bst
 * asks.  As on arm64's BRBE, the type and the privilege are always given
 * and PERF_SAMPLE_BRANCH_NO_FLAGS drops only the prediction bits.
 * Without MISP support (CTR v1.0 makes ctrtarget.MISP optional) neither
 * mispred nor predicted is claimed (perf prints '-').
 */
static u64 ctr_tmpl_word(unsigned int priv, unsigned int type, bool mispred,
			 bool predicted, u64 bst)
{
	/* Zero every field, reserved bits included (perf copies them out). */
	union riscv_ctr_entry b = { .flags = 0 };

	if (!(bst & PERF_SAMPLE_BRANCH_NO_FLAGS)) {
		b.pe.mispred = mispred;
		b.pe.predicted = predicted;
	}
	b.pe.type = riscv_ctr_type_to_perf(type);
	b.pe.priv = priv;
	return b.flags;
}

void riscv_ctr_tmpl_init(struct riscv_ctr_tmpl *t, bool has_misp, u64 bst)
{
	static const u8 priv[RISCV_CTR_TMPL_ROWS] = {
		[RISCV_CTR_TMPL_USER]		= PERF_BR_PRIV_USER,
		[RISCV_CTR_TMPL_KERNEL]		= PERF_BR_PRIV_KERNEL,
		[RISCV_CTR_TMPL_NO_TARGET]	= PERF_BR_PRIV_UNKNOWN,
	};
	unsigned int row, type;

	for (row = 0; row < RISCV_CTR_TMPL_ROWS; row++)
		for (type = 0; type < RISCV_CTR_NR_TYPES; type++)
			t->word[row][type] = ctr_tmpl_word(priv[row], type, false,
							   has_misp, bst);
	t->misp_flip = t->word[0][0] ^
		       ctr_tmpl_word(priv[0], 0, has_misp, false, bst);
	t->kernel_ok = bst & PERF_SAMPLE_BRANCH_KERNEL;
	t->cycles = !(bst & PERF_SAMPLE_BRANCH_NO_CYCLES);
	t->key = riscv_ctr_tmpl_key(has_misp, bst);
}
EXPORT_SYMBOL_IF_KUNIT(riscv_ctr_tmpl_init);

/* ---- perf branch filters ---- */

/*
 * Transfer types each perf type filter lets through (CTR v1.0 "Transfer
 * Type Filtering").  perf defines ANY_CALL as any call, system calls
 * included, and ANY_RETURN as any return, system call returns included
 * (perf-record(1) any_call, any_ret): traps (ecall, interrupts) count as
 * calls, trap returns as returns.  Direct and co-routine jumps pass only
 * with ANY.
 */
static u64 ctr_type_enables(u64 bst)
{
	u64 en = 0;

	if (bst & PERF_SAMPLE_BRANCH_ANY)
		return RISCV_CTR_INH_ALL;
	if (bst & PERF_SAMPLE_BRANCH_ANY_CALL)
		en |= CTRCTL_INDCALL_INH | CTRCTL_DIRCALL_INH |
		      CTRCTL_EXCINH | CTRCTL_INTRINH;
	if (bst & PERF_SAMPLE_BRANCH_ANY_RETURN)
		en |= CTRCTL_RET_INH | CTRCTL_TRETINH;
	if (bst & PERF_SAMPLE_BRANCH_IND_CALL)
		en |= CTRCTL_INDCALL_INH;
	if (bst & PERF_SAMPLE_BRANCH_CALL)
		en |= CTRCTL_DIRCALL_INH;
	if (bst & PERF_SAMPLE_BRANCH_COND)
		en |= CTRCTL_TKBRINH;
	if (bst & PERF_SAMPLE_BRANCH_IND_JUMP)
		en |= CTRCTL_INDJUMP_INH | CTRCTL_INDLJUMP_INH;
	return en;
}

/*
 * Translate a perf branch filter (and RISCV_CTR_OPT_* @opts) into an
 * sctrctl value.  LCOFIFRZ is always set, so a sample's stack ends at the
 * sampled instruction (CTR v1.0 "Freeze").  CALL_STACK selects RAS
 * emulation, in which the type filter bits are ignored (CTR v1.0 "RAS
 * Emulation Mode").  A filter that names no type (only privilege bits)
 * means ANY, as perf's own default does.  Not-taken branches are
 * conditional branches too: NTBR is refused unless COND or ANY asks for
 * them.  Returns 0 and sets *sctrctl, or RISCV_CTR_E*.
 */
int riscv_ctr_branch_filter(u64 bst, u64 opts, u64 *sctrctl)
{
	u64 v = CTRCTL_LCOFIFRZ, en;

	if (bst & ~(u64)RISCV_CTR_BRANCH_ALLOWED)
		return RISCV_CTR_EUNSUPP;
	if (bst & PERF_SAMPLE_BRANCH_USER)
		v |= CTRCTL_U_ENABLE;
	if (bst & PERF_SAMPLE_BRANCH_KERNEL)
		v |= CTRCTL_S_ENABLE;
	if (!(v & (CTRCTL_U_ENABLE | CTRCTL_S_ENABLE)))
		return RISCV_CTR_ENOMODE;
	if (opts & RISCV_CTR_OPT_BPFRZ)
		v |= CTRCTL_BPFRZ;

	if (bst & PERF_SAMPLE_BRANCH_CALL_STACK) {
		if ((bst & RISCV_CTR_BRANCH_TYPES) || (opts & RISCV_CTR_OPT_NTBR))
			return RISCV_CTR_EUNSUPP;
		*sctrctl = v | CTRCTL_RASEMU;
		return 0;
	}

	en = (bst & RISCV_CTR_BRANCH_TYPES) ? ctr_type_enables(bst) :
					      RISCV_CTR_INH_ALL;
	if (opts & RISCV_CTR_OPT_NTBR) {
		if (!(en & CTRCTL_TKBRINH))
			return RISCV_CTR_EUNSUPP;
		v |= CTRCTL_NTBREN;
	}
	*sctrctl = v | (RISCV_CTR_INH_ALL & ~en);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(riscv_ctr_branch_filter);

/* ---- what the harts implement ---- */

/* Keep in @all only what @hart has as well. */
void riscv_ctr_hw_and(struct riscv_ctr_hw *all, const struct riscv_ctr_hw *hart)
{
	all->sctrctl &= hart->sctrctl;
	all->depths &= hart->depths;
	all->misp = all->misp && hart->misp;
}
EXPORT_SYMBOL_IF_KUNIT(riscv_ctr_hw_and);

/*
 * What @hart lacks of @need (a hart that comes up after the PMU offered
 * @need), in @lack; true if it lacks anything.
 */
bool riscv_ctr_hw_lacks(const struct riscv_ctr_hw *hart,
			const struct riscv_ctr_hw *need,
			struct riscv_ctr_hw *lack)
{
	lack->sctrctl = need->sctrctl & ~hart->sctrctl;
	lack->depths = need->depths & ~hart->depths;
	lack->misp = need->misp && !hart->misp;
	return lack->sctrctl || lack->depths || lack->misp;
}
EXPORT_SYMBOL_IF_KUNIT(riscv_ctr_hw_lacks);

/* The CTR v1.0 name of the lowest sctrctl field in @bits, for messages. */
const char *riscv_ctr_field_name(u64 bits)
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
	name = names[__ffs64(bits)];
	return name ? name : "reserved";
}
EXPORT_SYMBOL_IF_KUNIT(riscv_ctr_field_name);
