// SPDX-License-Identifier: GPL-2.0-only
/*
 * CTR records for the tool: field-by-field decoding, the kernel's stack
 * conversion, and the type filter as a predicate (rvctr/ctr_decode.h).
 */
#include <rvctr/ctr_decode.h>

/*
 * riscv_ctr_cycles() plus the spec's mean undercount when CCE > 1 (CTR
 * v1.0 "Cycle Counting": the low CCE - 1 bits are not reported), so that
 * sums over many records are unbiased: (2^(CCE-1) - 1) / 2.
 */
u64 riscv_ctr_cycles_unbiased(u64 data)
{
	u64 cce = FIELD_GET(CTRDATA_CCE_MASK, data);
	u64 cycles = riscv_ctr_cycles(data);

	if (cce > 1)
		cycles += ((1ULL << (cce - 1)) - 1) / 2;
	return cycles;
}

/*
 * Decode one raw entry; false if it is not valid (V = 0).  Without
 * @has_misp (the harts do not implement ctrtarget.MISP) neither mispred
 * nor predicted is claimed (perf prints '-').
 */
bool riscv_ctr_decode(const struct riscv_ctr_raw *e, bool has_misp,
		      struct riscv_ctr_branch *b)
{
	if (!riscv_ctr_valid(e->source))
		return false;
	b->from = riscv_ctr_from(e->source);
	b->to = riscv_ctr_to(e->target);
	b->type = riscv_ctr_type(e->data);
	b->perf_type = riscv_ctr_type_to_perf(b->type);
	b->mispred = has_misp && (e->target & CTRTARGET_MISP);
	b->predicted = has_misp && !(e->target & CTRTARGET_MISP);
	b->cycles_valid = riscv_ctr_ccv(e->data);
	b->cycles = b->cycles_valid ?
		    riscv_ctr_cycles_sat16(riscv_ctr_cycles(e->data)) : 0;
	return true;
}

/*
 * @nr raw entries, entry 0 the newest, into @out as perf_branch_entry for
 * the branch filter @bst, exactly as the kernel's sample path converts
 * them (riscv_ctr_tmpl_init(), riscv_ctr_fast()): the copy stops at the
 * first invalid entry and skips entries with a kernel address unless
 * @bst has PERF_SAMPLE_BRANCH_KERNEL.  Returns the number written.
 */
unsigned int riscv_ctr_stack_to_perf(const struct riscv_ctr_raw *raw,
				     unsigned int nr, bool has_misp, u64 bst,
				     struct perf_branch_entry *out)
{
	return riscv_ctr_stack_to_perf_nt(raw, nr, has_misp, bst, out, NULL);
}

unsigned int riscv_ctr_stack_to_perf_nt(const struct riscv_ctr_raw *raw,
					unsigned int nr, bool has_misp, u64 bst,
					struct perf_branch_entry *out, u8 *not_taken)
{
	struct riscv_ctr_tmpl t;
	unsigned int i, n = 0;
	int ret;

	riscv_ctr_tmpl_init(&t, has_misp, bst);
	for (i = 0; i < nr; i++) {
		ret = riscv_ctr_fast(&t, raw[i].source, raw[i].target,
				     raw[i].data, &out[n]);
		if (ret == RISCV_CTR_END)
			break;
		if (ret != RISCV_CTR_OK)
			continue;
		if (not_taken)
			not_taken[n] = riscv_ctr_type(raw[i].data) ==
				       CTRDATA_TYPE_NONTAKEN_BRANCH;
		n++;
	}
	return n;
}

/*
 * Whether an entry of @type may be reported under @sctrctl: the hardware
 * filter is exact, this is the check applied to what came back.
 */
bool riscv_ctr_filter_passes(u64 sctrctl, unsigned int type)
{
	if (type == CTRDATA_TYPE_NONTAKEN_BRANCH)
		return sctrctl & CTRCTL_NTBREN;
	if (type < CTRDATA_TYPE_EXCEPTION || type >= RISCV_CTR_NR_TYPES ||
	    type == CTRDATA_TYPE_RESERVED_6 || type == CTRDATA_TYPE_RESERVED_7)
		return false;
	return !(sctrctl & BIT_ULL(32 + type));
}
