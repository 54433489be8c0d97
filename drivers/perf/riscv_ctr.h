/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * RISC-V Control Transfer Records (Smctr/Ssctr v1.0) as perf branch stacks.
 *
 * The CTR backend of a RISC-V CPU PMU driver: a few hooks the PMU driver
 * calls from its own struct pmu callbacks, overflow handler and CPU
 * hotplug callbacks.  The backend registers no PMU, requests no interrupt
 * and sets up no hotplug state of its own.
 *
 * The caller checks that every hart has Ssctr and Sscsrind (the entries
 * are read through siselect/sireg*) before calling riscv_ctr_probe(); a
 * NULL struct riscv_ctr (no CTR, or CONFIG_RISCV_PMU_CTR off) makes every
 * hook a no-op and branch-stack events fail event_init.
 *
 * The caller, per hook:
 *   probe/remove        riscv_ctr_probe() after its struct pmu is set up
 *                       and before perf_pmu_register(): it sets
 *                       pmu->task_ctx_cache, and returns NULL when the
 *                       harts share no CTR depth or their CTR registers
 *                       trap (the firmware left mstateen0.CTR clear),
 *                       an ERR_PTR() on failure; riscv_ctr_remove() after
 *                       perf_pmu_unregister(), with riscv_ctr_snapshot()
 *                       no longer installed
 *   sysfs               riscv_ctr_caps_group() into pmu->attr_groups; the
 *                       format strings RISCV_CTR_FORMAT_* into its
 *                       format group
 *   CPU hotplug         riscv_ctr_cpu_starting() on the incoming hart,
 *                       from a STARTING callback; it cannot fail (a hart
 *                       lacking CTR features takes no branch stacks).
 *                       cpuhp_state_add_instance() may run it on harts
 *                       already online, with events on them: they are
 *                       left alone
 *   pmu->event_init     riscv_ctr_config_check() for every event, first;
 *                       riscv_ctr_event_init() for every event, as the
 *                       last step that can fail (it also refuses a group
 *                       whose members ask for different branch filters,
 *                       so the caller's group check comes first): it may set
 *                       PERF_ATTACH_TASK_DATA, and a failing event_init
 *                       would then detach the task's perf_ctx_data
 *                       (__free_event()) under other events
 *   pmu->add/del        riscv_ctr_add() after the counter is allocated
 *                       (undo the counter if it fails), riscv_ctr_del()
 *   pmu->pmu_enable     riscv_ctr_enable() / riscv_ctr_disable(), also
 *   /pmu_disable        around CPU PM; riscv_ctr_pm_exit() after a
 *                       non-retentive idle state, before enable
 *   overflow handler    riscv_ctr_sample() per overflowed event with a
 *                       branch stack, before perf_event_overflow();
 *                       riscv_ctr_unfreeze() once after the last one;
 *                       riscv_ctr_spurious() when none of its counters
 *                       overflowed
 *   pmu->sched_task     riscv_ctr_sched_task(), with the task's save area
 *                       that the perf core allocated from
 *                       pmu->task_ctx_cache (task->perf_ctx_data, also
 *                       for CPU-wide events)
 *   BPF                 riscv_ctr_snapshot() as the perf_snapshot_branch_stack
 *                       static call (bpf_get_branch_snapshot())
 *
 * siselect/sireg* are shared with other Sscsrind users (counter delegation,
 * AIA): every access here is made with interrupts off, and the caller's
 * must be too.  Interrupts off do not keep out an overflow handler run
 * from an SBI SSE event, which is NMI-like: the reads that run in the
 * handler, riscv_ctr_sample() and riscv_ctr_snapshot(), put siselect
 * back as they found it, so a sequence they interrupt is unharmed.
 */
#ifndef __RISCV_CTR_H
#define __RISCV_CTR_H

#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/perf_event.h>
#include <linux/stringify.h>
#include <linux/types.h>

struct attribute_group;
struct riscv_ctr;
struct task_struct;

/*
 * Options outside attr.branch_sample_type, in attr.config3: "ctr_ntbr"
 * also records not-taken branches (sctrctl.NTBREN), "ctr_bpfrz" freezes
 * CTR on a breakpoint exception (sctrctl.BPFRZ).  The caller puts
 * RISCV_CTR_FORMAT_* in its format group under these names.
 *
 * config3 (perf_event_attr since Linux 6.3), because the other words are
 * taken on the RISC-V CPU PMU: config holds the event (bits 0-55) and the
 * firmware event type (62-63), config1 bit 0 marks KVM's guest events,
 * and the counter delegation support posted for riscv_pmu_sbi claims
 * config2 bits 0-31 (counterid_mask, bit 0 also "use the fixed cycle
 * counter").  Every other config3 bit is reserved: events that set one
 * are refused with -EINVAL, with or without CTR, so a later option can
 * take it without changing what an old kernel does with it.
 */
#define RISCV_CTR_CONFIG3_NTBR_BIT	0
#define RISCV_CTR_CONFIG3_BPFRZ_BIT	1
#define RISCV_CTR_CONFIG3_OPTS		(BIT_ULL(RISCV_CTR_CONFIG3_NTBR_BIT) | \
					 BIT_ULL(RISCV_CTR_CONFIG3_BPFRZ_BIT))
#define RISCV_CTR_FORMAT_NTBR	"config3:" __stringify(RISCV_CTR_CONFIG3_NTBR_BIT)
#define RISCV_CTR_FORMAT_BPFRZ	"config3:" __stringify(RISCV_CTR_CONFIG3_BPFRZ_BIT)

/**
 * riscv_ctr_config_check - check the CTR options of any event of the PMU
 * @event: the event, at pmu->event_init
 *
 * Needs no CTR: the PMU driver calls it first, on every machine, so that
 * a reserved config3 bit means the same everywhere.
 *
 * Return: 0, or -EINVAL for a reserved config3 bit, or for options
 * without a branch stack.
 */
static inline int riscv_ctr_config_check(struct perf_event *event)
{
	u64 cfg3 = event->attr.config3;

	if (cfg3 & ~RISCV_CTR_CONFIG3_OPTS)
		return -EINVAL;
	if (cfg3 && !has_branch_stack(event))
		return -EINVAL;
	return 0;
}

#if IS_ENABLED(CONFIG_RISCV_PMU_CTR)

struct riscv_ctr *riscv_ctr_probe(struct pmu *pmu, unsigned int depth);
void riscv_ctr_remove(struct riscv_ctr *ctr, struct pmu *pmu);
const struct attribute_group *riscv_ctr_caps_group(struct riscv_ctr *ctr);
void riscv_ctr_cpu_starting(struct riscv_ctr *ctr);

int riscv_ctr_event_init(struct riscv_ctr *ctr, struct perf_event *event);
int riscv_ctr_add(struct riscv_ctr *ctr, struct perf_event *event);
void riscv_ctr_del(struct riscv_ctr *ctr, struct perf_event *event);
void riscv_ctr_enable(struct riscv_ctr *ctr);
void riscv_ctr_disable(struct riscv_ctr *ctr);
void riscv_ctr_pm_exit(struct riscv_ctr *ctr);

void riscv_ctr_sample(struct riscv_ctr *ctr, struct perf_event *event,
		      struct perf_sample_data *data);
void riscv_ctr_unfreeze(struct riscv_ctr *ctr);
void riscv_ctr_spurious(struct riscv_ctr *ctr);

void riscv_ctr_sched_task(struct riscv_ctr *ctr, void *task_ctx,
			  struct task_struct *task, bool sched_in);
int riscv_ctr_snapshot(struct perf_branch_entry *entries, unsigned int cnt);

#else

static inline struct riscv_ctr *riscv_ctr_probe(struct pmu *pmu,
						unsigned int depth)
{
	return NULL;
}

static inline void riscv_ctr_remove(struct riscv_ctr *ctr, struct pmu *pmu) { }

static inline const struct attribute_group *
riscv_ctr_caps_group(struct riscv_ctr *ctr)
{
	return NULL;
}

static inline void riscv_ctr_cpu_starting(struct riscv_ctr *ctr) { }

static inline int riscv_ctr_event_init(struct riscv_ctr *ctr,
				       struct perf_event *event)
{
	return has_branch_stack(event) ? -EOPNOTSUPP : 0;
}

static inline int riscv_ctr_add(struct riscv_ctr *ctr, struct perf_event *event)
{
	return 0;
}

static inline void riscv_ctr_del(struct riscv_ctr *ctr,
				 struct perf_event *event) { }
static inline void riscv_ctr_enable(struct riscv_ctr *ctr) { }
static inline void riscv_ctr_disable(struct riscv_ctr *ctr) { }
static inline void riscv_ctr_pm_exit(struct riscv_ctr *ctr) { }

static inline void riscv_ctr_sample(struct riscv_ctr *ctr,
				    struct perf_event *event,
				    struct perf_sample_data *data) { }
static inline void riscv_ctr_unfreeze(struct riscv_ctr *ctr) { }
static inline void riscv_ctr_spurious(struct riscv_ctr *ctr) { }

static inline void riscv_ctr_sched_task(struct riscv_ctr *ctr, void *task_ctx,
					struct task_struct *task,
					bool sched_in) { }

static inline int riscv_ctr_snapshot(struct perf_branch_entry *entries,
				     unsigned int cnt)
{
	return 0;
}

#endif /* CONFIG_RISCV_PMU_CTR */

#endif /* __RISCV_CTR_H */
