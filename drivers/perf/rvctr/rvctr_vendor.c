// SPDX-License-Identifier: GPL-2.0-only
/*
 * Vendor event tables, chosen by mvendorid/marchid.
 *
 * XiangShan Kunminghu (the HPM chapter of the XiangShan design document,
 * V2R2): each mhpmevent combines up to four event indices with three
 * OP_TYPE fields, and an index names an event only within its counter
 * group (frontend, backend, memory access, cache).  The format/ fields
 * event0..3, op0..2 and group spell that out; the encoding is in
 * include/rvctr/xs_hpm.h.  events/ names the events of that document's
 * tables that have one unique name; the per-pipeline copies (the repeated
 * load_* and std_freelist_* indices) are reachable as event0=<index>.
 */
#include <linux/perf_event.h>
#include <linux/stringify.h>
#include <linux/sysfs.h>
#include <asm/sbi.h>

#include <rvctr/xs_hpm.h>
#include "rvctr.h"

#define XS_EVENT(_name, _group, _index)					\
	PMU_EVENT_ATTR_STRING(_name, xs_##_name,			\
			      "event0=" __stringify(_index)		\
			      ",group=" __stringify(_group))

#define XS_FE	0	/* RVCTR_XS_FRONTEND */
#define XS_BE	1	/* RVCTR_XS_BACKEND */
#define XS_MEM	2	/* RVCTR_XS_MEMORY */
#define XS_L2	3	/* RVCTR_XS_CACHE */

XS_EVENT(frontend_flush, XS_FE, 1);
XS_EVENT(ifu_req, XS_FE, 2);
XS_EVENT(ifu_miss, XS_FE, 3);
XS_EVENT(ibuffer_flushed, XS_FE, 14);
XS_EVENT(front_bubble, XS_FE, 21);
XS_EVENT(fetch_latency_bound, XS_FE, 22);
XS_EVENT(icache_miss_cnt, XS_FE, 23);
XS_EVENT(icache_miss_penalty, XS_FE, 24);
XS_EVENT(mispredict_redirect, XS_FE, 28);
XS_EVENT(bp_instr, XS_FE, 33);
XS_EVENT(bp_right, XS_FE, 35);
XS_EVENT(bp_wrong, XS_FE, 36);
XS_EVENT(itlb_access, XS_FE, 56);
XS_EVENT(itlb_miss, XS_FE, 57);
XS_EVENT(decoder_stall_cycle, XS_BE, 3);
XS_EVENT(inst_spec, XS_BE, 7);
XS_EVENT(recovery_bubble, XS_BE, 8);
XS_EVENT(rob_interrupt_num, XS_BE, 48);
XS_EVENT(rob_exception_num, XS_BE, 49);
XS_EVENT(rob_commit_instr, XS_BE, 53);
XS_EVENT(rob_commit_instr_load, XS_BE, 55);
XS_EVENT(rob_commit_instr_branch, XS_BE, 56);
XS_EVENT(rob_commit_instr_store, XS_BE, 57);
XS_EVENT(branch_jump, XS_BE, 64);
XS_EVENT(br_mis_pred, XS_BE, 65);
XS_EVENT(total_flush, XS_BE, 66);
XS_EVENT(exec_stall_cycle, XS_BE, 67);
XS_EVENT(memstall_store, XS_BE, 68);
XS_EVENT(memstall_l1miss, XS_BE, 69);
XS_EVENT(memstall_l2miss, XS_BE, 70);
XS_EVENT(memstall_l3miss, XS_BE, 71);
XS_EVENT(memstall_any_load, XS_MEM, 44);
XS_EVENT(l1d_write_dcache_access, XS_MEM, 85);
XS_EVENT(l1d_write_dcache_miss, XS_MEM, 86);
XS_EVENT(dtlb_ld_access, XS_MEM, 120);
XS_EVENT(dtlb_ld_miss, XS_MEM, 121);
XS_EVENT(dtlb_st_access, XS_MEM, 122);
XS_EVENT(dtlb_st_miss, XS_MEM, 123);
XS_EVENT(ptw_access, XS_MEM, 128);
XS_EVENT(l2_slice0_hit, XS_L2, 5);
XS_EVENT(l2_slice0_miss, XS_L2, 6);
XS_EVENT(l2_slice0_access, XS_L2, 7);

static struct attribute *xs_event_attrs[] = {
	&xs_frontend_flush.attr.attr,
	&xs_ifu_req.attr.attr,
	&xs_ifu_miss.attr.attr,
	&xs_ibuffer_flushed.attr.attr,
	&xs_front_bubble.attr.attr,
	&xs_fetch_latency_bound.attr.attr,
	&xs_icache_miss_cnt.attr.attr,
	&xs_icache_miss_penalty.attr.attr,
	&xs_mispredict_redirect.attr.attr,
	&xs_bp_instr.attr.attr,
	&xs_bp_right.attr.attr,
	&xs_bp_wrong.attr.attr,
	&xs_itlb_access.attr.attr,
	&xs_itlb_miss.attr.attr,
	&xs_decoder_stall_cycle.attr.attr,
	&xs_inst_spec.attr.attr,
	&xs_recovery_bubble.attr.attr,
	&xs_rob_interrupt_num.attr.attr,
	&xs_rob_exception_num.attr.attr,
	&xs_rob_commit_instr.attr.attr,
	&xs_rob_commit_instr_load.attr.attr,
	&xs_rob_commit_instr_branch.attr.attr,
	&xs_rob_commit_instr_store.attr.attr,
	&xs_branch_jump.attr.attr,
	&xs_br_mis_pred.attr.attr,
	&xs_total_flush.attr.attr,
	&xs_exec_stall_cycle.attr.attr,
	&xs_memstall_store.attr.attr,
	&xs_memstall_l1miss.attr.attr,
	&xs_memstall_l2miss.attr.attr,
	&xs_memstall_l3miss.attr.attr,
	&xs_memstall_any_load.attr.attr,
	&xs_l1d_write_dcache_access.attr.attr,
	&xs_l1d_write_dcache_miss.attr.attr,
	&xs_dtlb_ld_access.attr.attr,
	&xs_dtlb_ld_miss.attr.attr,
	&xs_dtlb_st_access.attr.attr,
	&xs_dtlb_st_miss.attr.attr,
	&xs_ptw_access.attr.attr,
	&xs_l2_slice0_hit.attr.attr,
	&xs_l2_slice0_miss.attr.attr,
	&xs_l2_slice0_access.attr.attr,
	NULL,
};

/* Merged into events/ next to the firmware events. */
static const struct attribute_group xs_events_group = {
	.name = "events",
	.attrs = xs_event_attrs,
};

static int xs_map_raw(u64 config, u64 *selector, unsigned long *cmask)
{
	u64 sel, counters;

	if (rvctr_xs_config_to_selector(config, &sel, &counters))
		return -EINVAL;
	*selector = sel;
	*cmask &= counters;
	return *cmask ? 0 : -EOPNOTSUPP;
}

const struct rvctr_vendor rvctr_vendor_xiangshan = {
	.name = "XiangShan Kunminghu",
	.mvendorid = RVCTR_XS_MVENDORID,
	.marchid = RVCTR_XS_MARCHID,
	.events = &xs_events_group,
	.map_raw = xs_map_raw,
};

static const struct rvctr_vendor * const rvctr_vendors[] = {
	&rvctr_vendor_xiangshan,
};

/* The table for the boot hart's core; harts are assumed alike. */
const struct rvctr_vendor *rvctr_vendor_match(void)
{
	unsigned long mvendorid = riscv_cached_mvendorid(0);
	unsigned long marchid = riscv_cached_marchid(0);
	int i;

	for (i = 0; i < ARRAY_SIZE(rvctr_vendors); i++)
		if (rvctr_vendors[i]->mvendorid == mvendorid &&
		    rvctr_vendors[i]->marchid == marchid)
			return rvctr_vendors[i];
	return NULL;
}
