/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rvctr: Control Transfer Records (Smctr/Ssctr v1.0) as perf branch stacks.
 *
 * The PMU core calls these hooks; everything CTR-specific lives in
 * rvctr_ctr.c.  The core touches branch stacks in these places only:
 *
 *   probe/remove       rvctr_ctr_probe() / rvctr_ctr_remove()
 *   CPU hotplug        rvctr_ctr_cpu_starting(), on the hart coming up
 *   event_init         rvctr_ctr_event_init()
 *   add/del            rvctr_ctr_add() / rvctr_ctr_del()
 *   pmu_enable/disable rvctr_ctr_enable() / rvctr_ctr_disable()
 *   overflow irq       rvctr_ctr_sample() per event with a branch stack,
 *                      before perf_event_overflow(); rvctr_ctr_unfreeze()
 *                      once, after the last event has been handled;
 *                      rvctr_ctr_spurious() when none of ours overflowed
 *   pmu->sched_task    rvctr_ctr_sched_task()
 *
 * siselect/sireg* are shared with counter delegation: every user of them,
 * here and in the core, accesses them with interrupts disabled.
 */
#ifndef _RVCTR_CTR_H
#define _RVCTR_CTR_H

#include <linux/device.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/stringify.h>
#include <linux/types.h>

#include <rvctr/ctr.h>

struct rvctr_caps;
struct dentry;

/*
 * Event format fields of the CTR backend, for the core's format/ table:
 * "ctr_ntbr" records not-taken branches (sctrctl.NTBREN), "ctr_bpfrz"
 * freezes CTR on a breakpoint exception (sctrctl.BPFRZ).  The bit numbers
 * and the format strings come from the same definitions.
 */
#define RVCTR_CTR_CFG2_NTBR_BIT		0
#define RVCTR_CTR_CFG2_BPFRZ_BIT	1
#define RVCTR_CTR_CFG2_NTBR		BIT_ULL(RVCTR_CTR_CFG2_NTBR_BIT)
#define RVCTR_CTR_CFG2_BPFRZ		BIT_ULL(RVCTR_CTR_CFG2_BPFRZ_BIT)
#define RVCTR_CTR_CFG2_MASK		(RVCTR_CTR_CFG2_NTBR | RVCTR_CTR_CFG2_BPFRZ)
#define RVCTR_CTR_FMT_NTBR		"config2:" __stringify(RVCTR_CTR_CFG2_NTBR_BIT)
#define RVCTR_CTR_FMT_BPFRZ		"config2:" __stringify(RVCTR_CTR_CFG2_BPFRZ_BIT)

/* Per-CPU CTR state; the core embeds it in its per-CPU struct. */
struct rvctr_ctr_cpu {
	u64 sctrctl;		/* written by rvctr_ctr_enable() while users */
	unsigned int depth_enc;	/* sctrdepth of the active events */
	unsigned int users;	/* branch-stack events added on this CPU */
	unsigned int task_users;	/* ... of which bound to a task */
	struct rvctr_perf_tmpl tmpl;	/* record template of the last sample */
	struct perf_branch_stack bs;
	struct perf_branch_entry entries[RVCTR_DEPTH_MAX];
};

/*
 * CTR state of one PMU instance; the core embeds it in its PMU struct.
 * @hw is what every hart implements (probed at load, rvctr/ctr.h), fixed
 * from then on: a hart that comes up later must have all of it
 * (rvctr_ctr_cpu_starting()).  @hw.depths is 0 without CTR.
 */
struct rvctr_ctr {
	struct rvctr_ctr_hw hw;
	unsigned int depth;	/* entries new events use (module param, sysfs) */
	bool has_h;		/* the hart has the H extension */
	bool bpf_snapshot;	/* provides bpf_get_branch_snapshot() */
	struct kmem_cache *task_ctx_cache;	/* call-stack save areas */
	struct dentry *debugfs;
	/* caps/branches, and the writable ctr_depth: add to pmu->attr_groups */
	struct attribute_group caps_group;
	struct attribute_group ctl_group;
	struct dev_ext_attribute branches_attr;
	struct dev_ext_attribute depth_attr;
	struct attribute *caps_attrs[2];
	struct attribute *ctl_attrs[2];
};

#if IS_ENABLED(CONFIG_RISCV)

int rvctr_ctr_probe(struct rvctr_ctr *ctr, const struct rvctr_caps *caps,
		    struct pmu *pmu);
void rvctr_ctr_remove(struct rvctr_ctr *ctr, struct pmu *pmu);
int rvctr_ctr_cpu_starting(struct rvctr_ctr *ctr);
int rvctr_ctr_event_init(struct rvctr_ctr *ctr, struct perf_event *event);
int rvctr_ctr_add(struct rvctr_ctr_cpu *cc, struct perf_event *event);
void rvctr_ctr_del(struct rvctr_ctr_cpu *cc, struct perf_event *event);
void rvctr_ctr_enable(struct rvctr_ctr_cpu *cc);
void rvctr_ctr_disable(struct rvctr_ctr_cpu *cc);
void rvctr_ctr_cpu_pm_exit(struct rvctr_ctr_cpu *cc);
void rvctr_ctr_sample(struct rvctr_ctr *ctr, struct rvctr_ctr_cpu *cc,
		      struct perf_event *event, struct perf_sample_data *data);
void rvctr_ctr_unfreeze(struct rvctr_ctr_cpu *cc);
void rvctr_ctr_spurious(struct rvctr_ctr_cpu *cc);
void rvctr_ctr_sched_task(struct rvctr_ctr_cpu *cc,
			  struct perf_event_pmu_context *pmu_ctx,
			  struct task_struct *task, bool sched_in);

/*
 * Where perf keeps a task's save area (pmu->task_ctx_cache): in its
 * perf_event_pmu_context up to Linux 6.14, in task_struct::perf_ctx_data
 * from 6.15 on (RVCTR_HAVE_PERF_CTX_DATA, set by Kbuild).  Called from
 * pmu->sched_task, with preemption off.
 */
static inline void *rvctr_task_ctx_data(struct perf_event_pmu_context *pmu_ctx,
					struct task_struct *task)
{
#ifdef RVCTR_HAVE_PERF_CTX_DATA
	struct perf_ctx_data *cd;

	if (!task)
		return NULL;
	cd = rcu_dereference_sched(task->perf_ctx_data);
	return cd ? cd->data : NULL;
#else
	return pmu_ctx ? pmu_ctx->task_ctx_data : NULL;
#endif
}

#else

static inline int rvctr_ctr_probe(struct rvctr_ctr *ctr,
				  const struct rvctr_caps *caps,
				  struct pmu *pmu)
{
	return 0;
}

static inline void rvctr_ctr_remove(struct rvctr_ctr *ctr, struct pmu *pmu) { }

static inline int rvctr_ctr_cpu_starting(struct rvctr_ctr *ctr)
{
	return 0;
}

static inline int rvctr_ctr_event_init(struct rvctr_ctr *ctr,
				       struct perf_event *event)
{
	return has_branch_stack(event) ? -EOPNOTSUPP : 0;
}

static inline int rvctr_ctr_add(struct rvctr_ctr_cpu *cc,
				struct perf_event *event)
{
	return 0;
}

static inline void rvctr_ctr_del(struct rvctr_ctr_cpu *cc,
				 struct perf_event *event) { }
static inline void rvctr_ctr_enable(struct rvctr_ctr_cpu *cc) { }
static inline void rvctr_ctr_disable(struct rvctr_ctr_cpu *cc) { }
static inline void rvctr_ctr_cpu_pm_exit(struct rvctr_ctr_cpu *cc) { }
static inline void rvctr_ctr_sample(struct rvctr_ctr *ctr,
				    struct rvctr_ctr_cpu *cc,
				    struct perf_event *event,
				    struct perf_sample_data *data) { }
static inline void rvctr_ctr_unfreeze(struct rvctr_ctr_cpu *cc) { }
static inline void rvctr_ctr_spurious(struct rvctr_ctr_cpu *cc) { }
static inline void rvctr_ctr_sched_task(struct rvctr_ctr_cpu *cc,
					struct perf_event_pmu_context *pmu_ctx,
					struct task_struct *task,
					bool sched_in) { }

#endif /* CONFIG_RISCV */

#endif /* _RVCTR_CTR_H */
