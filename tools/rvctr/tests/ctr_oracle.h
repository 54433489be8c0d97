/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The test oracle of the stack conversion: one raw entry decoded field by
 * field (riscv_ctr_decode()) and filled into perf_branch_entry through its
 * bitfields, independently of the kernel's template and riscv_ctr_fast().
 */
#ifndef RVCTR_TESTS_CTR_ORACLE_H
#define RVCTR_TESTS_CTR_ORACLE_H

#include <rvctr/ctr_decode.h>

static inline int ctr_oracle_to_perf(const struct riscv_ctr_raw *e,
				     bool has_misp, u64 bst,
				     struct perf_branch_entry *pe)
{
	struct riscv_ctr_branch b;

	if (!riscv_ctr_decode(e, has_misp, &b))
		return RISCV_CTR_END;
	/*
	 * A user-only event never sees a kernel address (CTR does not record
	 * them, CTR v1.0 "Privilege Mode Transitions"; dropped anyway).
	 */
	if (!(bst & PERF_SAMPLE_BRANCH_KERNEL) &&
	    (riscv_ctr_is_kernel(b.from) || riscv_ctr_is_kernel(b.to)))
		return RISCV_CTR_HIDDEN;
	/* Zero every field, reserved bits included (perf copies them out). */
	*pe = (struct perf_branch_entry){ .from = b.from, .to = b.to };
	if (!(bst & PERF_SAMPLE_BRANCH_NO_FLAGS)) {
		pe->mispred = b.mispred;
		pe->predicted = b.predicted;
	}
	pe->type = b.perf_type;
	if (!(bst & PERF_SAMPLE_BRANCH_NO_CYCLES))
		pe->cycles = b.cycles;
	/* The target's mode; unknown without a target (ctrtarget 0). */
	if (!b.to)
		pe->priv = PERF_BR_PRIV_UNKNOWN;
	else
		pe->priv = riscv_ctr_is_kernel(b.to) ? PERF_BR_PRIV_KERNEL : PERF_BR_PRIV_USER;
	return RISCV_CTR_OK;
}

#endif /* RVCTR_TESTS_CTR_ORACLE_H */
