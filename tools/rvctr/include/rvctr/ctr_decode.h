/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * CTR records for the tool, on top of the kernel's CTR record code
 * (drivers/perf/riscv_ctr_rec.h).  A stack of raw entries becomes
 * perf_branch_entry through the kernel's own sample path conversion:
 * riscv_ctr_tmpl_init() and riscv_ctr_fast(), so what the tool prints
 * for a snapshot is what a sample would have carried.
 */
#ifndef RVCTR_CTR_DECODE_H
#define RVCTR_CTR_DECODE_H

#include <riscv_ctr_rec.h>

/* A decoded entry, independent of perf_branch_entry's bitfield layout. */
struct riscv_ctr_branch {
	u64 from;
	u64 to;
	u16 cycles;		/* saturated to 16 bits; 0 if !cycles_valid */
	u8 type;		/* CTRDATA_TYPE_* */
	u8 perf_type;		/* PERF_BR_* */
	bool mispred;
	bool predicted;		/* only when the hart reports MISP */
	bool cycles_valid;
};

static inline bool riscv_ctr_ccv(u64 data)
{
	return data & CTRDATA_CCV;
}

u64 riscv_ctr_cycles_unbiased(u64 data);
bool riscv_ctr_decode(const struct riscv_ctr_raw *e, bool has_misp,
		      struct riscv_ctr_branch *b);
unsigned int riscv_ctr_stack_to_perf(const struct riscv_ctr_raw *raw,
				     unsigned int nr, bool has_misp, u64 bst,
				     struct perf_branch_entry *out);
/*
 * The same, and @not_taken[k] 1 if out[k] came from a TYPE 4 entry (a
 * not-taken branch, which perf_branch_entry cannot mark: the driver gives
 * it type COND like a taken one), else 0.
 */
unsigned int riscv_ctr_stack_to_perf_nt(const struct riscv_ctr_raw *raw,
					unsigned int nr, bool has_misp, u64 bst,
					struct perf_branch_entry *out, u8 *not_taken);
bool riscv_ctr_filter_passes(u64 sctrctl, unsigned int type);

#endif /* RVCTR_CTR_DECODE_H */
