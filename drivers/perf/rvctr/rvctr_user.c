// SPDX-License-Identifier: GPL-2.0-only
/*
 * User-space counter access: which counters U-mode may read directly
 * (scounteren, privileged spec "Counter-Enable Register"), with the
 * semantics of riscv_pmu_sbi's kernel.perf_user_access sysctl
 * (Documentation/admin-guide/sysctl/kernel.rst "perf_user_access"):
 *
 *   0  no direct access: rdcycle, rdinstret and rdhpmcounter fault;
 *   1  (default) a task may read the counter of its own event once it
 *      has mmapped it (cap_user_rdpmc in the user page), nothing else;
 *   2  legacy: cycle and instret are readable by every task, as the
 *      firmware leaves them; cycles and instructions events are put on
 *      those counters so that the user page can point at them.
 *
 * time (scounteren.TM) is always readable: the vDSO reads it.  The mode
 * is taken at event_init, so an event keeps the access it was opened
 * with; a change rewrites scounteren on every CPU, as stock does.
 *
 * The user page itself is filled by riscv_pmu.c's
 * arch_perf_update_userpage(), which finds the counter width through
 * struct riscv_pmu: that is why struct rvctr_pmu embeds one.
 */
#define pr_fmt(fmt) "rvctr: " fmt

#include <linux/perf_event.h>
#include <linux/perf/riscv_pmu.h>
#include <linux/smp.h>
#include <linux/sysctl.h>
#include <asm/csr.h>
#include <asm/sbi.h>

#include "rvctr.h"

#if !IS_ENABLED(CONFIG_RISCV_PMU)
#error "rvctr needs CONFIG_RISCV_PMU=y: riscv_pmu.c fills the user page"
#endif

#define RVCTR_UA_NONE		0
#define RVCTR_UA_USER		1
#define RVCTR_UA_LEGACY		2

#define RVCTR_SCOUNTEREN_TM	BIT(1)
#define RVCTR_SCOUNTEREN_FIXED	(BIT(0) | BIT(1) | BIT(2))

static unsigned long rvctr_user_base(int mode)
{
	return mode == RVCTR_UA_LEGACY ? RVCTR_SCOUNTEREN_FIXED :
					 RVCTR_SCOUNTEREN_TM;
}

/* The scounteren bit of @event's counter, if user space may read it. */
static bool rvctr_user_bit(struct rvctr_pmu *rp, struct perf_event *event,
			   unsigned int *bit)
{
	struct hw_perf_event *hwc = &event->hw;

	if (!(hwc->flags & PERF_EVENT_FLAG_USER_READ_CNT) || hwc->idx < 0 ||
	    (hwc->flags & RVCTR_F_FW))
		return false;
	*bit = rvctr_counter_csr_bit(rp, hwc->idx);
	if (hwc->flags & RVCTR_F_UA_USER)
		return true;
	return (hwc->flags & RVCTR_F_UA_LEGACY) && (BIT(*bit) & RVCTR_SCOUNTEREN_FIXED);
}

/* On each hart coming online or out of a non-retentive idle state. */
void rvctr_user_cpu_init(struct rvctr_pmu *rp)
{
	csr_write(CSR_SCOUNTEREN, rvctr_user_base(READ_ONCE(rp->user_access)));
}

/*
 * After a sysctl change, on each CPU: the new base, and the counters of
 * the mapped events running here stay open (their pages still offer
 * them; the mode an event was opened with is its own).
 */
static void rvctr_user_apply(void *info)
{
	struct rvctr_pmu *rp = info;
	struct rvctr_cpu *cpuc = this_cpu_ptr(rp->cpus);
	unsigned long val = rvctr_user_base(READ_ONCE(rp->user_access));
	struct perf_event *event;
	unsigned int bit;
	int idx;

	for_each_set_bit(idx, cpuc->used, RVCTR_MAX_COUNTERS) {
		event = cpuc->events[idx];
		if (!(event->hw.state & PERF_HES_STOPPED) &&
		    rvctr_user_bit(rp, event, &bit))
			val |= BIT(bit);
	}
	csr_write(CSR_SCOUNTEREN, val);
}

/*
 * The value is parsed into a copy and applied only when it changes;
 * cpus_read_lock() keeps a CPU from coming up between the store and the
 * IPIs with the old value.
 */
static int rvctr_user_access_handler(const struct ctl_table *table, int write,
				     void *buffer, size_t *lenp, loff_t *ppos)
{
	struct rvctr_pmu *rp = container_of((int *)table->data,
					    struct rvctr_pmu, user_access);
	struct ctl_table tmp = *table;
	int val = READ_ONCE(rp->user_access), old = val, ret;

	tmp.data = &val;
	ret = proc_dointvec_minmax(&tmp, write, buffer, lenp, ppos);
	if (ret || !write || val == old)
		return ret;
	cpus_read_lock();
	WRITE_ONCE(rp->user_access, val);
	on_each_cpu(rvctr_user_apply, rp, 1);
	cpus_read_unlock();
	return 0;
}

/*
 * kernel.perf_user_access, as riscv_pmu_sbi registers it.  The table
 * lives in struct rvctr_pmu: its data is this PMU's mode.
 */
void rvctr_user_init(struct rvctr_pmu *rp)
{
	rp->user_access = RVCTR_UA_USER;
	rp->user_table[0] = (struct ctl_table) {
		.procname	= "perf_user_access",
		.data		= &rp->user_access,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= rvctr_user_access_handler,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_TWO,
	};
	rp->user_sysctl = register_sysctl("kernel", rp->user_table);
	if (!rp->user_sysctl)
		dev_warn(rp->dev, "cannot register kernel.perf_user_access: user-space counter access stays at 1\n");
}

void rvctr_user_exit(struct rvctr_pmu *rp)
{
	unregister_sysctl_table(rp->user_sysctl);
}

/* event_init: remember the mode the event was opened under. */
void rvctr_user_event_init(struct rvctr_pmu *rp, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;

	switch (READ_ONCE(rp->user_access)) {
	case RVCTR_UA_USER:
		hwc->flags |= RVCTR_F_UA_USER;
		break;
	case RVCTR_UA_LEGACY:
		hwc->flags |= RVCTR_F_UA_LEGACY;
		break;
	}
}

/*
 * Legacy mode lets user space read cycle and instret only: a counting
 * cycles or instructions event goes there, or the user page could not
 * point at it.
 */
bool rvctr_user_legacy_fixed(struct perf_event *event, unsigned long *cmask)
{
	if (!(event->hw.flags & RVCTR_F_UA_LEGACY) ||
	    event->attr.type != PERF_TYPE_HARDWARE || is_sampling_event(event))
		return false;
	switch (event->attr.config) {
	case PERF_COUNT_HW_CPU_CYCLES:
		*cmask &= BIT(0);
		return true;
	case PERF_COUNT_HW_INSTRUCTIONS:
		*cmask &= BIT(2);
		return true;
	}
	return false;
}

/* pmu->event_idx: the counter user space reads is CSR cycle + idx - 1. */
int rvctr_user_event_idx(struct perf_event *event)
{
	unsigned int bit;

	if (!rvctr_user_bit(to_rvctr_pmu(event->pmu), event, &bit))
		return 0;
	return bit + 1;
}

/*
 * From pmu->start and the map IPI, on the event's hart.  The flag is read
 * after a full barrier: event_mapped() writes it and then reads oncpu,
 * which the core wrote before calling start(), so one of the two sees
 * the other.
 *
 * Only a running event opens its counter.  A stopped one stays on the
 * hart for a while (the core throttles with pmu->stop, and may remove
 * the event with pmu->del before the tick that would start it again),
 * its user page names no counter (perf_event_index()), and what stop()
 * closed stays closed until start() reopens it.
 */
void rvctr_user_start(struct rvctr_pmu *rp, struct perf_event *event)
{
	unsigned int bit;

	if (!(event->hw.flags & (RVCTR_F_UA_USER | RVCTR_F_UA_LEGACY)) ||
	    !(event->attach_state & PERF_ATTACH_TASK) ||
	    (event->hw.state & PERF_HES_STOPPED))
		return;
	/* Pairs with the one in rvctr_user_event_mapped()/_unmapped(). */
	smp_mb();
	if (rvctr_user_bit(rp, event, &bit))
		csr_set(CSR_SCOUNTEREN, BIT(bit));
}

/*
 * From pmu->stop and pmu->del, and the unmap IPI, on the event's hart:
 * whether or not the event is still mapped (the flag may have been
 * cleared since the bit was set here, rvctr_user_event_unmapped()); a
 * bit the current mode opens to everyone stays.
 */
void rvctr_user_stop(struct rvctr_pmu *rp, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	unsigned long bit;

	if (!(hwc->flags & (RVCTR_F_UA_USER | RVCTR_F_UA_LEGACY)) ||
	    hwc->idx < 0 || (hwc->flags & RVCTR_F_FW))
		return;
	bit = BIT(rvctr_counter_csr_bit(rp, hwc->idx));
	if (!(bit & rvctr_user_base(READ_ONCE(rp->user_access))))
		csr_clear(CSR_SCOUNTEREN, bit);
}

/*
 * On the hart the event runs on (only there is its counter at hw.idx),
 * with interrupts off, so serialised with the event's start and stop:
 * open or close the counter, then say so in the user page.
 */
static void rvctr_user_map_ipi(void *info)
{
	struct perf_event *event = info;
	struct rvctr_pmu *rp = to_rvctr_pmu(event->pmu);

	if (READ_ONCE(event->oncpu) != smp_processor_id())
		return;
	if (event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT)
		rvctr_user_start(rp, event);
	perf_event_update_userpage(event);
}

static void rvctr_user_unmap_ipi(void *info)
{
	struct perf_event *event = info;
	struct rvctr_pmu *rp = to_rvctr_pmu(event->pmu);

	if (READ_ONCE(event->oncpu) != smp_processor_id())
		return;
	rvctr_user_stop(rp, event);
	perf_event_update_userpage(event);
}

/* Run @fn on the CPU @event is active on, if any. */
static void rvctr_user_on_event_cpu(struct perf_event *event,
				    smp_call_func_t fn)
{
	int cpu = READ_ONCE(event->oncpu);

	if (cpu >= 0)
		smp_call_function_single(cpu, fn, event, 1);
}

/*
 * Is @mm, which maps @event, the address space of the task @event
 * counts?  The counter opens where the event runs, that is while its
 * target task runs, so the grant goes to the target: it must be the
 * process that asked for it.  Otherwise "perf record -p T", which maps
 * its events, would let T read a counter it did not open, with the
 * owner's filters (kernel counts included).  x86 grants RDPMC to the
 * mapping mm (x86_pmu_event_mapped(), perf_rdpmc_allowed), which for
 * such an event is not T; here the two must be the same.  Threads of
 * one process share the mm and may read each other's counters, as they
 * can read each other's user pages.
 *
 * hw.target holds a reference to the task, not to its mm: the pointer
 * is only compared, never followed.  It can be stale only if the task
 * has switched or dropped its mm since, and @mm, held by our caller,
 * was alive all along: a match means the two shared it.
 */
static bool rvctr_user_mapped_by_target(struct perf_event *event,
					struct mm_struct *mm)
{
	struct task_struct *target = event->hw.target;

	return target && mm && READ_ONCE(target->mm) == mm;
}

/*
 * pmu->event_mapped: the task mmapped its event.  The core filled the
 * user page before this call (perf_mmap()), without access; the event's
 * hart opens the counter and rewrites the page, in that order, so user
 * space never sees cap_user_rdpmc before it may read.  From then on
 * start() and stop() open and close the counter where the event runs.
 * Where riscv_pmu_sbi sets the scounteren bit on every CPU of the mm,
 * this touches only the event's own hart: elsewhere that counter index
 * belongs to whatever runs there.
 */
void rvctr_user_event_mapped(struct perf_event *event, struct mm_struct *mm)
{
	struct hw_perf_event *hwc = &event->hw;

	if (!(hwc->flags & (RVCTR_F_UA_USER | RVCTR_F_UA_LEGACY)))
		return;
	/*
	 * Only a task's own events: a CPU-wide event's counter would be
	 * open to every task that runs on the CPU (arm64 grants user
	 * access to task-bound events only, too).
	 */
	if (!(event->attach_state & PERF_ATTACH_TASK) || (hwc->flags & RVCTR_F_FW))
		return;
	if (!rvctr_user_mapped_by_target(event, mm))
		return;
	if ((hwc->flags & RVCTR_F_UA_LEGACY) &&
	    (event->attr.type != PERF_TYPE_HARDWARE ||
	     (event->attr.config != PERF_COUNT_HW_CPU_CYCLES &&
	      event->attr.config != PERF_COUNT_HW_INSTRUCTIONS)))
		return;
	WRITE_ONCE(hwc->flags, hwc->flags | PERF_EVENT_FLAG_USER_READ_CNT);
	/* A start that misses the flag has set oncpu before: see it. */
	smp_mb();
	rvctr_user_on_event_cpu(event, rvctr_user_map_ipi);
}

void rvctr_user_event_unmapped(struct perf_event *event, struct mm_struct *mm)
{
	struct hw_perf_event *hwc = &event->hw;

	if (!(hwc->flags & PERF_EVENT_FLAG_USER_READ_CNT))
		return;
	WRITE_ONCE(hwc->flags, hwc->flags & ~PERF_EVENT_FLAG_USER_READ_CNT);
	/*
	 * Flag first: a start from here on leaves the counter closed, and
	 * one that saw the flag set has set oncpu before, which the IPI
	 * then finds.
	 */
	smp_mb();
	rvctr_user_on_event_cpu(event, rvctr_user_unmap_ipi);
}

/*
 * riscv_pmu.ctr_get_width, for arch_perf_update_userpage(): the width
 * of SBI counter @idx, less one, from what COUNTER_GET_INFO said at
 * probe.  The callback has no PMU argument: each CPU that is up points
 * at its PMU (rvctr_user_cpu_online()), and only user-readable events,
 * of hardware counters, get here.
 */
static DEFINE_PER_CPU(struct rvctr_pmu *, rvctr_user_pmu);

void rvctr_user_cpu_online(struct rvctr_pmu *rp, bool online)
{
	this_cpu_write(rvctr_user_pmu, online ? rp : NULL);
}

int rvctr_user_counter_width(int idx)
{
	struct rvctr_pmu *rp = this_cpu_read(rvctr_user_pmu);

	/* hw.idx is read without the event's context: it may be -1 by now. */
	if (!rp || idx < 0 || idx >= RVCTR_HW_COUNTERS)
		return 63;
	return fls64(rvctr_counter_width_mask(rp, idx)) - 1;
}
