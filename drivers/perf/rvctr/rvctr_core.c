// SPDX-License-Identifier: GPL-2.0-only
/*
 * rvctr: the RISC-V CPU PMU with Control Transfer Records.
 *
 * The PMU core: struct pmu "cpu" (PERF_TYPE_RAW, as riscv_pmu_sbi, so
 * stock perf's generic, cache and raw events land here), the Sscofpmf
 * local counter overflow interrupt (LCOFI), CPU hotplug and the platform
 * driver.  Counters are programmed by rvctr_counter.c, events mapped by
 * rvctr_events.c, branch stacks recorded by the CTR backend
 * (drivers/perf/riscv_ctr.h), which the module calls as riscv_pmu_sbi
 * does in the upstream series.
 *
 * The driver binds to the device tree's "riscv,pmu" node where there is
 * one, and otherwise registers a device of its own (rvctr_init()).  No
 * file-scope state: everything hangs off struct rvctr_pmu, reached from
 * the perf_event, the percpu irq cookie, the cpuhp instance, the CPU PM
 * notifier or the platform device (and, for riscv_pmu.c's width
 * callback, a per-CPU pointer in rvctr_user.c).
 */
#define pr_fmt(fmt) "rvctr: " fmt

#include <linux/acpi.h>
#include <linux/cpu_pm.h>
#include <linux/cpuhotplug.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdomain.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/of.h>
#include <linux/perf/branch_snapshot.h>
#include <linux/perf_event.h>
#include <linux/platform_device.h>
#include <linux/rcupdate.h>
#include <linux/sched/clock.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <asm/csr.h>
#include <asm/irq.h>
#include <asm/sbi.h>
#include <asm/vendorid_list.h>

#include "rvctr.h"

#define RVCTR_DRV_NAME	"rvctr-pmu"

/*
 * The depth of every hart's CTR buffer, programmed once at load: 64
 * entries by default, the most Arm's BRBE records.  An event keeps at
 * most attr.sample_max_stack entries of it (kernel.perf_event_max_stack,
 * 127, unless the event asks for fewer), so a deeper buffer gives longer
 * stacks only up to that.  Stock perf up to at least 7.3 also drops a
 * branch stack of more than 127 entries as a "corrupted branch chain" in
 * perf report --branch-history and the callchain views
 * (PERF_MAX_BRANCH_DEPTH in tools/perf/util/machine.c).  Each entry
 * costs 24 bytes of sample and four CSR accesses in the overflow handler.
 */
static unsigned int ctr_depth = 64;
module_param(ctr_depth, uint, 0444);
MODULE_PARM_DESC(ctr_depth, "CTR buffer depth of every hart: 16, 32, 64 (default), 128, 256; 0: the largest the harts support. An event keeps at most attr.sample_max_stack (kernel.perf_event_max_stack) entries");

static void rvctr_report(struct device *dev, const struct rvctr_caps *caps)
{
	char buf[96];
	int i, len = 0;

	for (i = 0; i < RVCTR_NR_EXT; i++)
		if (rvctr_has(caps, i))
			len += scnprintf(buf + len, sizeof(buf) - len, " %s",
					 rvctr_ext_name(i));
	dev_info(dev, "extensions on all harts (%s):%s\n",
		 acpi_disabled ? "device tree" : "ACPI RHCT", len ? buf : " none");
}

/* ---- counting ---------------------------------------------------------- */

/*
 * An overflowed counter waiting for its next period (rvctr_cpu.reload)
 * holds no value prev_count is relative to: what it counted up to the
 * overflow is in the count already, and nothing is added until it is
 * given prev_count.
 */
static u64 rvctr_update(struct rvctr_pmu *rp, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 prev, now, delta;

	if (this_cpu_ptr(rp->cpus)->reload & BIT(hwc->idx))
		return 0;
	do {
		prev = local64_read(&hwc->prev_count);
		now = rvctr_counter_read(rp, event);
	} while (local64_cmpxchg(&hwc->prev_count, prev, now) != prev);

	delta = (now - prev) & rvctr_counter_width_mask(rp, hwc->idx);
	local64_add(delta, &event->count);
	local64_sub(delta, &hwc->period_left);
	return delta;
}

/*
 * Program the next period into prev_count (the counter starts at -left).
 * Returns true when a full period has elapsed, i.e. a sample is due.
 */
static bool rvctr_set_period(struct rvctr_pmu *rp, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	s64 left = local64_read(&hwc->period_left);
	s64 period = hwc->sample_period;
	bool due = false;

	if (unlikely(left <= -period)) {
		left = period;
		due = true;
	} else if (unlikely(left <= 0)) {
		left += period;
		due = true;
	}
	if (due) {
		local64_set(&hwc->period_left, left);
		hwc->last_period = period;
	}
	/* Keep below half the counter range so that a late read is safe. */
	left = min_t(s64, left, rp->max_period);
	local64_set(&hwc->prev_count, (u64)-left);
	return due;
}

/*
 * Has @event's (stopped) counter overflowed without the interrupt having
 * seen it?  That happens when the core stops an event while its overflow
 * interrupt is pending: from 6.16 a group is throttled from any member's
 * overflow, including another PMU's (a cpu-clock leader).
 */
static bool rvctr_overflowed(struct rvctr_pmu *rp, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;

	if (!rp->irq || (hwc->flags & RVCTR_F_FW) ||
	    (this_cpu_ptr(rp->cpus)->reload & BIT(hwc->idx)))
		return false;
	return csr_read(CSR_SCOUNTOVF) & BIT(rvctr_counter_csr_bit(rp, hwc->idx));
}

/*
 * Take the count of a stopped counter and make it wait for its next
 * period: resuming it would keep its OF bit, and with it no interrupt
 * until the counter wraps again.
 */
static void rvctr_overflowed_stopped(struct rvctr_pmu *rp,
				     struct perf_event *event)
{
	rvctr_update(rp, event);
	this_cpu_ptr(rp->cpus)->reload |= BIT(event->hw.idx);
	rvctr_set_period(rp, event);
}

static void rvctr_start(struct perf_event *event, int flags)
{
	struct rvctr_pmu *rp = to_rvctr_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;

	if (WARN_ON_ONCE(!(hwc->state & PERF_HES_STOPPED)))
		return;
	if (flags & PERF_EF_RELOAD)
		WARN_ON_ONCE(!(hwc->state & PERF_HES_UPTODATE));
	hwc->state = 0;
	/*
	 * Without PERF_EF_RELOAD the counter goes on from the value it
	 * stopped at, which prev_count still matches (unthrottling, and
	 * perf_adjust_freq_unthr_events() after a stop with an update), as
	 * x86 and arm_pmu resume.  An overflowed counter does not hold
	 * prev_count until it is given it: rvctr_cpu.reload.
	 */
	if (flags & PERF_EF_RELOAD)
		rvctr_set_period(rp, event);
	else if (rvctr_overflowed(rp, event))
		rvctr_overflowed_stopped(rp, event);
	if ((flags & PERF_EF_RELOAD) ||
	    (this_cpu_ptr(rp->cpus)->reload & BIT(hwc->idx)))
		rvctr_counter_start(rp, event, local64_read(&hwc->prev_count) &
				    rvctr_counter_width_mask(rp, hwc->idx));
	else
		rvctr_counter_resume(rp, event);
	rvctr_user_start(rp, event);
	perf_event_update_userpage(event);
}

static void rvctr_stop(struct perf_event *event, int flags)
{
	struct rvctr_pmu *rp = to_rvctr_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;

	if (!(hwc->state & PERF_HES_STOPPED)) {
		rvctr_user_stop(rp, event);
		rvctr_counter_stop(rp, event);
		hwc->state |= PERF_HES_STOPPED;
	}
	if ((flags & PERF_EF_UPDATE) && !(hwc->state & PERF_HES_UPTODATE)) {
		rvctr_update(rp, event);
		hwc->state |= PERF_HES_UPTODATE;
	}
}

static int rvctr_add(struct perf_event *event, int flags)
{
	struct rvctr_pmu *rp = to_rvctr_pmu(event->pmu);
	struct rvctr_cpu *cpuc = this_cpu_ptr(rp->cpus);
	struct hw_perf_event *hwc = &event->hw;
	int idx, ret;

	idx = rvctr_counter_alloc(rp, cpuc, event);
	if (idx < 0)
		return -EAGAIN;	/* the core multiplexes */
	hwc->idx = idx;
	cpuc->events[idx] = event;
	ret = riscv_ctr_add(rp->ctr, event);
	if (ret) {
		cpuc->events[idx] = NULL;
		rvctr_counter_free(rp, cpuc, event);
		hwc->idx = -1;
		return ret;
	}
	hwc->state = PERF_HES_UPTODATE | PERF_HES_STOPPED;
	if (flags & PERF_EF_START)
		rvctr_start(event, PERF_EF_RELOAD);
	perf_event_update_userpage(event);
	return 0;
}

static void rvctr_del(struct perf_event *event, int flags)
{
	struct rvctr_pmu *rp = to_rvctr_pmu(event->pmu);
	struct rvctr_cpu *cpuc = this_cpu_ptr(rp->cpus);
	struct hw_perf_event *hwc = &event->hw;

	rvctr_stop(event, PERF_EF_UPDATE);
	/*
	 * The counter goes back to the pool, where the next event on it, of
	 * any task, counts: it must leave here closed to user space even if
	 * the event was already stopped (throttled) when it got here.
	 */
	rvctr_user_stop(rp, event);
	riscv_ctr_del(rp->ctr, event);
	cpuc->events[hwc->idx] = NULL;
	rvctr_counter_free(rp, cpuc, event);
	hwc->idx = -1;
	/*
	 * The counter may have overflowed with interrupts off (del runs so):
	 * with no other overflow of ours pending, take back the interrupt
	 * it raised (LCOFIP is writable, Sscofpmf), before its trap freezes
	 * CTR (LCOFIFRZ) for a sample that will not come.
	 */
	if (rp->irq && !(csr_read(CSR_SCOUNTOVF) & cpuc->used_hw_csr))
		csr_clear(CSR_IP, BIT(RV_IRQ_PMU));
	perf_event_update_userpage(event);
}

static void rvctr_read(struct perf_event *event)
{
	rvctr_update(to_rvctr_pmu(event->pmu), event);
}

static void rvctr_pmu_enable(struct pmu *pmu)
{
	riscv_ctr_enable(to_rvctr_pmu(pmu)->ctr);
}

static void rvctr_pmu_disable(struct pmu *pmu)
{
	riscv_ctr_disable(to_rvctr_pmu(pmu)->ctr);
}

/*
 * Where perf keeps a task's save area (pmu->task_ctx_cache): in its
 * perf_event_pmu_context up to Linux 6.14, in task_struct::perf_ctx_data
 * from 6.15 on (RVCTR_HAVE_PERF_CTX_DATA, set by Kbuild).  Called from
 * pmu->sched_task, with preemption off.
 */
static void *rvctr_task_ctx_data(struct perf_event_pmu_context *pmu_ctx,
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

static void rvctr_sched_task(struct perf_event_pmu_context *pmu_ctx,
			     struct task_struct *task, bool sched_in)
{
	struct rvctr_pmu *rp = to_rvctr_pmu(pmu_ctx->pmu);

	riscv_ctr_sched_task(rp->ctr, rvctr_task_ctx_data(pmu_ctx, task), task,
			     sched_in);
}

/*
 * A CPU-wide call stack (perf record -a --call-graph lbr) on a kernel
 * before 6.15, whose perf core gives an event bound to no task no save
 * area in each task (PERF_ATTACH_GLOBAL_DATA): its RAS-emulated stack
 * would take one task's returns off another's calls.  The module refuses
 * it there; the backend, written for the kernel it goes into upstream,
 * does not ask.
 */
static bool rvctr_cpu_wide_call_stack(struct perf_event *event)
{
#ifdef PERF_ATTACH_GLOBAL_DATA
	return false;
#else
	return has_branch_stack(event) &&
	       (event->attr.branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK) &&
	       !(event->attach_state & PERF_ATTACH_TASK);
#endif
}

/* A group must fit on the hardware counters at once. */
static int rvctr_validate_group(struct rvctr_pmu *rp, struct perf_event *event)
{
	struct perf_event *leader = event->group_leader, *sibling;
	unsigned int n = 2;

	/* A new leader has no siblings, nor a ctx for_each_sibling_event() asserts. */
	if (leader == event)
		return 0;
	if (leader->pmu != event->pmu)
		n--;
	for_each_sibling_event(sibling, leader)
		if (sibling->pmu == event->pmu)
			n++;
	return n > hweight_long(rp->hw_mask) ? -EINVAL : 0;
}

static int rvctr_event_init(struct perf_event *event)
{
	struct rvctr_pmu *rp = to_rvctr_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	unsigned long cmask;
	int ret;

	switch (event->attr.type) {
	case PERF_TYPE_HARDWARE:
	case PERF_TYPE_HW_CACHE:
	case PERF_TYPE_RAW:
		break;
	default:
		return -ENOENT;
	}
	/* A reserved config3 bit fails on every machine, with CTR or not. */
	ret = riscv_ctr_config_check(event);
	if (ret)
		return ret;
	ret = rvctr_event_map(rp, event);
	if (ret)
		return ret;
	rvctr_user_event_init(rp, event);
	cmask = hwc->extra_reg.config;
	if (rvctr_user_legacy_fixed(event, &cmask) && (cmask & rp->hw_mask))
		hwc->extra_reg.config = cmask;
	ret = rvctr_validate_group(rp, event);
	if (ret)
		return ret;
	if (rvctr_cpu_wide_call_stack(event))
		return -EOPNOTSUPP;
	/* Last step that can fail: it may set PERF_ATTACH_TASK_DATA. */
	ret = riscv_ctr_event_init(rp->ctr, event);
	if (ret)
		return ret;
	hwc->idx = -1;
	if (!is_sampling_event(event)) {
		hwc->sample_period = rp->max_period;
		hwc->last_period = hwc->sample_period;
		local64_set(&hwc->period_left, hwc->sample_period);
	}
	return 0;
}

/* ---- the overflow interrupt -------------------------------------------- */

/*
 * The overflow of a user-only event can be taken after the hart entered
 * the kernel (the interrupt waits until S-mode interrupts are enabled):
 * report the user context the task left, never a kernel address.  A
 * kernel thread has no user context: no sample.
 */
static struct pt_regs *rvctr_sample_regs(struct perf_event *event,
					 struct pt_regs *regs)
{
	if (!event->attr.exclude_kernel || user_mode(regs))
		return regs;
	if (current->flags & PF_KTHREAD)
		return NULL;
	return task_pt_regs(current);
}

/*
 * One overflowed event; false if it was throttled and must stay stopped.
 * Up to Linux 6.15 the driver stops a throttled event, from 6.16 the
 * core already has (rvctr_stop() is then a no-op), and it stops the
 * whole group: a member whose overflow comes after its leader's in this
 * interrupt is already stopped, and gets its count and next period but
 * no sample, as x86 skips events no longer in active_mask.
 */
static bool rvctr_overflow(struct rvctr_pmu *rp, struct rvctr_cpu *cpuc,
			   struct perf_event *event, struct pt_regs *regs)
{
	struct perf_sample_data data;
	bool stopped = event->hw.state & PERF_HES_STOPPED;

	bool due;

	rvctr_update(rp, event);
	/* prev_count is now the next period's: the counter needs it. */
	cpuc->reload |= BIT(event->hw.idx);
	due = rvctr_set_period(rp, event);
	/*
	 * The user page's offset is the count less prev_count: a task that
	 * reads its counter directly needs the new one (as every sampling
	 * PMU does on overflow; see perf_event_mmap_page::offset).
	 */
	if (event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT)
		perf_event_update_userpage(event);
	if (!due)
		return !stopped;	/* a period longer than the counter */
	if (stopped)
		return false;
	regs = rvctr_sample_regs(event, regs);
	if (!regs)
		return true;
	perf_sample_data_init(&data, 0, event->hw.last_period);
	if (has_branch_stack(event))
		riscv_ctr_sample(rp->ctr, event, &data);
	if (!perf_event_overflow(event, &data, regs))
		return true;
	rvctr_stop(event, 0);
	return false;
}

/* Hardware counters with a started event, by SBI index. */
static unsigned long rvctr_running(struct rvctr_pmu *rp, struct rvctr_cpu *cpuc)
{
	unsigned long running = 0;
	int idx;

	for_each_set_bit(idx, cpuc->used, RVCTR_HW_COUNTERS)
		if ((rp->hw_mask & BIT(idx)) &&
		    !(cpuc->events[idx]->hw.state & PERF_HES_STOPPED))
			running |= BIT(idx);
	return running;
}

/*
 * LCOFI: stop, read scountovf, clear LCOFIP, deliver, restart.
 *
 * An interrupt can find none of our counters overflowed: one overflowed
 * with interrupts off and its event was removed (pmu->del) before they
 * came back on.  The trap froze CTR all the same: riscv_ctr_spurious().
 *
 * scountovf shows the OF bit of every counter, including those OpenSBI
 * parked with OF set, so it is masked with the counters in use.  It is
 * read again after stopping them: a counter that overflowed between the
 * two reads would otherwise keep OF set, and with it never interrupt
 * again.  LCOFIP is cleared before the restart (Sscofpmf: it is a
 * software-writable bit of sip) because OpenSBI clears a counter's OF bit
 * on COUNTER_START only while LCOFIP is clear.  The hart sees its own CSR
 * accesses in program order (Zicsr "CSR Access Ordering"): no fence.
 *
 * perf_event_overflow() may throttle: the event, and from Linux 6.16 its
 * whole group (perf_event_throttle_group() calls pmu->stop on each
 * member).  What restarts is what is still started afterwards, never the
 * set from before the samples: a stopped member left counting would
 * meet its unthrottling start() on a running counter, which the SBI
 * refuses with ALREADY_STARTED, keeping the old value.
 */
static irqreturn_t rvctr_irq(int irq, void *dev)
{
	struct rvctr_cpu *cpuc = dev;
	struct rvctr_pmu *rp = cpuc->rp;
	struct pt_regs *regs = get_irq_regs();
	unsigned long ovf, running, reload = 0;
	u64 start = sched_clock();
	int idx;

	if (!(csr_read(CSR_SCOUNTOVF) & cpuc->used_hw_csr)) {
		csr_clear(CSR_IP, BIT(RV_IRQ_PMU));
		riscv_ctr_spurious(rp->ctr);
		return IRQ_NONE;
	}
	running = rvctr_running(rp, cpuc);
	rvctr_counters_stop_used(rp, cpuc);
	ovf = csr_read(CSR_SCOUNTOVF) & cpuc->used_hw_csr;
	csr_clear(CSR_IP, BIT(RV_IRQ_PMU));

	for_each_set_bit(idx, &running, RVCTR_HW_COUNTERS) {
		if (!(ovf & BIT(rvctr_counter_csr_bit(rp, idx))))
			continue;
		if (rvctr_overflow(rp, cpuc, cpuc->events[idx], regs))
			reload |= BIT(idx);
	}
	running &= rvctr_running(rp, cpuc);
	riscv_ctr_unfreeze(rp->ctr);
	rvctr_counters_restart(rp, cpuc, running, reload & running);
	perf_sample_event_took(sched_clock() - start);
	return IRQ_HANDLED;
}

static int rvctr_irq_setup(struct rvctr_pmu *rp)
{
	struct irq_domain *domain;
	int ret;

	domain = irq_find_matching_fwnode(riscv_get_intc_hwnode(),
					  DOMAIN_BUS_ANY);
	if (!domain) {
		dev_err(rp->dev, "no RISC-V INTC irq domain\n");
		return -ENODEV;
	}
	rp->irq = irq_create_mapping(domain, RV_IRQ_PMU);
	if (!rp->irq) {
		dev_err(rp->dev, "cannot map the counter overflow interrupt\n");
		return -ENODEV;
	}
	ret = request_percpu_irq(rp->irq, rvctr_irq, "rvctr", rp->cpus);
	if (ret) {
		dev_err(rp->dev, "cannot request the overflow irq %d: %d\n",
			rp->irq, ret);
		irq_dispose_mapping(rp->irq);
		rp->irq = 0;
	}
	return ret;
}

static void rvctr_irq_free(struct rvctr_pmu *rp)
{
	if (!rp->irq)
		return;
	free_percpu_irq(rp->irq, rp->cpus);
	irq_dispose_mapping(rp->irq);
}

/* ---- CPU hotplug: one instance, callbacks run on the hart concerned ---- */

/*
 * A STARTING state, as riscv_pmu_sbi's CPUHP_AP_PERF_RISCV_STARTING: it
 * runs on the incoming hart with interrupts off, before
 * CPUHP_AP_PERF_ONLINE lets the perf core schedule events there.  A
 * STARTING callback cannot keep a CPU from coming up (a failure only
 * warns, notify_cpu_starting()), so a hart that lacks what the PMU was
 * probed with is used for less instead: delegated counters it lacks are
 * not used on it, and branch-stack events are not scheduled on it if it
 * lacks a CTR depth, field or MISP (rvctr_add()); each time it comes up,
 * a warning says so.
 */
static int rvctr_cpu_starting(unsigned int cpu, struct hlist_node *node)
{
	struct rvctr_pmu *rp = hlist_entry_safe(node, struct rvctr_pmu, hp_node);
	struct rvctr_cpu *cpuc = this_cpu_ptr(rp->cpus);

	cpuc->deleg_ok = rvctr_counters_cpu_deleg(rp);
	riscv_ctr_cpu_starting(rp->ctr);
	rvctr_counters_reset_cpu(rp, cpuc);
	rvctr_user_cpu_init(rp);
	rvctr_user_cpu_online(rp, true);
	csr_clear(CSR_IP, BIT(RV_IRQ_PMU));
	if (rp->irq)
		enable_percpu_irq(rp->irq, IRQ_TYPE_NONE);
	return 0;
}

static int rvctr_cpu_dying(unsigned int cpu, struct hlist_node *node)
{
	struct rvctr_pmu *rp = hlist_entry_safe(node, struct rvctr_pmu, hp_node);

	if (rp->irq)
		disable_percpu_irq(rp->irq);
	rvctr_user_cpu_online(rp, false);
	/* Nothing but time (the vDSO reads it) stays open after us. */
	csr_write(CSR_SCOUNTEREN, BIT(1));
	return 0;
}

static int rvctr_hotplug_setup(struct rvctr_pmu *rp)
{
	int ret;

	ret = cpuhp_setup_state_multi(CPUHP_AP_PERF_RISCV_STARTING,
				      "perf/riscv/rvctr:starting",
				      rvctr_cpu_starting, rvctr_cpu_dying);
	if (ret) {
		dev_err(rp->dev, "CPU hotplug state taken (%d): is riscv_pmu_sbi built in?\n",
			ret);
		return ret;
	}
	ret = cpuhp_state_add_instance(CPUHP_AP_PERF_RISCV_STARTING, &rp->hp_node);
	if (ret)
		cpuhp_remove_multi_state(CPUHP_AP_PERF_RISCV_STARTING);
	return ret;
}

static void rvctr_hotplug_remove(struct rvctr_pmu *rp)
{
	cpuhp_state_remove_instance(CPUHP_AP_PERF_RISCV_STARTING, &rp->hp_node);
	cpuhp_remove_multi_state(CPUHP_AP_PERF_RISCV_STARTING);
}

/* ---- CPU power management --------------------------------------------- */

/*
 * A non-retentive idle state loses the counters, scounteren and the CTR
 * CSRs and buffer (SBI v2.0 9.2 HART_SUSPEND: non-retentive).  The
 * started events are stopped with their counts brought up to date, and
 * started again on exit; the CTR buffer starts empty, as after a task
 * switch.  Called on the hart, with interrupts off, as riscv_pmu_sbi's
 * riscv_pm_pmu_notify().
 */
static int rvctr_cpu_pm_notify(struct notifier_block *nb, unsigned long cmd,
			       void *v)
{
	struct rvctr_pmu *rp = container_of(nb, struct rvctr_pmu, cpu_pm_nb);
	struct rvctr_cpu *cpuc = this_cpu_ptr(rp->cpus);
	struct perf_event *event;
	int idx;

	switch (cmd) {
	case CPU_PM_ENTER:
		bitmap_zero(cpuc->pm_running, RVCTR_MAX_COUNTERS);
		riscv_ctr_disable(rp->ctr);
		for_each_set_bit(idx, cpuc->used, RVCTR_MAX_COUNTERS) {
			event = cpuc->events[idx];
			/*
			 * A stopped event resumes from its counter, which
			 * the idle state loses: take its count now and
			 * have its next start give the counter its value.
			 */
			if (event->hw.state & PERF_HES_STOPPED) {
				rvctr_overflowed_stopped(rp, event);
				continue;
			}
			rvctr_stop(event, PERF_EF_UPDATE);
			__set_bit(idx, cpuc->pm_running);
		}
		break;
	case CPU_PM_EXIT:
	case CPU_PM_ENTER_FAILED:
		rvctr_user_cpu_init(rp);
		rvctr_counters_pm_exit(rp, cpuc);
		riscv_ctr_pm_exit(rp->ctr);
		for_each_set_bit(idx, cpuc->pm_running, RVCTR_MAX_COUNTERS)
			rvctr_start(cpuc->events[idx], PERF_EF_RELOAD);
		bitmap_zero(cpuc->pm_running, RVCTR_MAX_COUNTERS);
		riscv_ctr_enable(rp->ctr);
		break;
	default:
		return NOTIFY_DONE;
	}
	return NOTIFY_OK;
}

/* ---- probe ------------------------------------------------------------- */

static void rvctr_pmu_init(struct rvctr_pmu *rp)
{
	rp->base.pmu = (struct pmu) {
		.module		= THIS_MODULE,
		.parent		= rp->dev,
		.task_ctx_nr	= perf_hw_context,
		.event_init	= rvctr_event_init,
		.event_mapped	= rvctr_user_event_mapped,
		.event_unmapped	= rvctr_user_event_unmapped,
		.event_idx	= rvctr_user_event_idx,
		.add		= rvctr_add,
		.del		= rvctr_del,
		.start		= rvctr_start,
		.stop		= rvctr_stop,
		.read		= rvctr_read,
		.pmu_enable	= rvctr_pmu_enable,
		.pmu_disable	= rvctr_pmu_disable,
		.sched_task	= rvctr_sched_task,
	};
	/* Without an overflow interrupt the core refuses sampling events. */
	if (!rp->irq)
		rp->base.pmu.capabilities |= PERF_PMU_CAP_NO_INTERRUPT;
	rp->base.name = "rvctr";
	rp->base.ctr_get_width = rvctr_user_counter_width;
}

/*
 * Branch stacks: the CTR CSRs need Ssctr, and the entries Sscsrind (CTR
 * v1.0).  Without them, or without a depth every hart has, rp->ctr stays
 * NULL and the backend refuses branch-stack events.  After
 * rvctr_pmu_init(): the backend sets pmu->task_ctx_cache.
 */
static int rvctr_ctr_setup(struct rvctr_pmu *rp)
{
	struct riscv_ctr *ctr;
	int ret;

	if (!rvctr_has(&rp->caps, RVCTR_EXT_SSCTR) ||
	    !rvctr_has(&rp->caps, RVCTR_EXT_SSCSRIND)) {
		dev_info(rp->dev, "CTR depths: none\n");
		return 0;
	}
	ctr = riscv_ctr_probe(&rp->base.pmu, ctr_depth);
	if (IS_ERR(ctr))
		return PTR_ERR(ctr);
	rp->ctr = ctr;
	if (!ctr)
		return 0;
	/*
	 * Not static_call_update(perf_snapshot_branch_stack), as a built-in
	 * driver does: BPF inlines that static call's target into each
	 * program at load, and the call would outlive this module
	 * (kernel/patches/).
	 */
	ret = perf_snapshot_branch_stack_register(riscv_ctr_snapshot);
	if (ret)
		dev_warn(rp->dev, "another driver provides bpf_get_branch_snapshot() (%d): branch stacks without it\n",
			 ret);
	rp->bpf_snapshot = !ret;
	rvctr_debugfs_init(rp);
	return 0;
}

static void rvctr_ctr_teardown(struct rvctr_pmu *rp)
{
	if (!rp->ctr)
		return;
	rvctr_debugfs_exit(rp);
	/* Returns once no BPF program is still in riscv_ctr_snapshot(). */
	if (rp->bpf_snapshot)
		perf_snapshot_branch_stack_unregister(riscv_ctr_snapshot);
	riscv_ctr_remove(rp->ctr, &rp->base.pmu);
	rp->ctr = NULL;
}

static int rvctr_percpu_init(struct rvctr_pmu *rp)
{
	int cpu;

	rp->cpus = devm_alloc_percpu(rp->dev, struct rvctr_cpu);
	if (!rp->cpus)
		return -ENOMEM;
	for_each_possible_cpu(cpu)
		per_cpu_ptr(rp->cpus, cpu)->rp = rp;
	return 0;
}

/*
 * Overflow interrupts that are not Sscofpmf's LCOFI.  riscv_pmu_sbi
 * handles T-Head C9xx's (irq 17, errata THEAD_PMU) and Andes'
 * (XAndesPMU, irq 18); rvctr does not, and says so.
 */
static const char *rvctr_vendor_irq(void)
{
	switch (riscv_cached_mvendorid(0)) {
	case THEAD_VENDOR_ID:
		return "T-Head C9xx";
	case ANDES_VENDOR_ID:
		return "Andes";
	}
	return NULL;
}

/* Discover the harts, the counters and the events. */
static int rvctr_discover(struct rvctr_pmu *rp)
{
	unsigned int width = 63;
	const char *vendor;
	int ret, idx;

	ret = rvctr_isa_probe(rp->dev, &rp->caps);
	if (ret)
		return ret;
	rvctr_report(rp->dev, &rp->caps);
	if (!rvctr_has(&rp->caps, RVCTR_EXT_SSCOFPMF)) {
		vendor = rvctr_vendor_irq();
		if (vendor)
			dev_warn(rp->dev, "the %s overflow interrupt is not supported: counting only, no sampling\n",
				 vendor);
		else
			dev_warn(rp->dev, "not every hart has Sscofpmf: no counter overflow interrupt, no privilege filter: counting only, no sampling\n");
	}
	ret = rvctr_counters_probe(rp);
	if (ret)
		return ret;
	for_each_set_bit(idx, &rp->hw_mask, RVCTR_HW_COUNTERS)
		width = min_t(unsigned int, width,
			      fls64(rvctr_counter_width_mask(rp, idx)) - 1);
	/*
	 * Half the range, and at most 2^62: QEMU 10.0 arms its overflow
	 * timer for now + (2^64 - value) ns, and where that passes
	 * INT64_MAX it keeps the excess in a per-counter field that nothing
	 * clears but the next timer expiry, which then re-arms instead of
	 * raising the interrupt.  A counting event at 2^63 - 1 left that on
	 * its counter, and the next sampling event there lost its whole run
	 * (0 of 554 samples).  A 2^62 period is still 146 years of cycles
	 * at 1 GHz.
	 */
	rp->max_period = min_t(u64, GENMASK_ULL(width, 0) >> 1, BIT_ULL(62));
	rvctr_events_probe(rp);
	rp->vendor = rvctr_vendor_match();
	if (rp->vendor)
		dev_info(rp->dev, "%s events\n", rp->vendor->name);
	return 0;
}

static int rvctr_probe(struct platform_device *pdev)
{
	struct rvctr_pmu *rp;
	int ret;

	rp = devm_kzalloc(&pdev->dev, sizeof(*rp), GFP_KERNEL);
	if (!rp)
		return -ENOMEM;
	rp->dev = &pdev->dev;
	ret = rvctr_discover(rp);
	if (ret)
		return ret;
	ret = rvctr_percpu_init(rp);
	if (ret)
		return ret;
	/* Without the interrupt the PMU still counts, as without Sscofpmf. */
	if (rvctr_has(&rp->caps, RVCTR_EXT_SSCOFPMF) && rvctr_irq_setup(rp))
		dev_warn(rp->dev, "counting only, no sampling\n");
	rvctr_pmu_init(rp);
	ret = rvctr_ctr_setup(rp);
	if (ret)
		goto err_irq;
	rvctr_sysfs_init(rp);
	rvctr_user_init(rp);
	ret = rvctr_hotplug_setup(rp);
	if (ret)
		goto err_ctr;
	rp->cpu_pm_nb.notifier_call = rvctr_cpu_pm_notify;
	ret = cpu_pm_register_notifier(&rp->cpu_pm_nb);
	if (ret)
		goto err_hotplug;
	ret = perf_pmu_register(&rp->base.pmu, "cpu", PERF_TYPE_RAW);
	if (ret)
		goto err_pm;
	platform_set_drvdata(pdev, rp);
	return 0;

err_pm:
	cpu_pm_unregister_notifier(&rp->cpu_pm_nb);
err_hotplug:
	rvctr_hotplug_remove(rp);
err_ctr:
	rvctr_user_exit(rp);
	rvctr_ctr_teardown(rp);
err_irq:
	rvctr_irq_free(rp);
	return ret;
}

static void rvctr_remove(struct platform_device *pdev)
{
	struct rvctr_pmu *rp = platform_get_drvdata(pdev);

	perf_pmu_unregister(&rp->base.pmu);
	cpu_pm_unregister_notifier(&rp->cpu_pm_nb);
	rvctr_hotplug_remove(rp);
	rvctr_user_exit(rp);
	rvctr_ctr_teardown(rp);
	rvctr_irq_free(rp);
}

static const struct of_device_id rvctr_of_match[] = {
	{ .compatible = "riscv,pmu" },
	{ }
};
MODULE_DEVICE_TABLE(of, rvctr_of_match);

static struct platform_driver rvctr_driver = {
	.probe = rvctr_probe,
	.remove = rvctr_remove,
	.driver = {
		.name = RVCTR_DRV_NAME,
		.of_match_table = rvctr_of_match,
		.suppress_bind_attrs = true,
	},
};

/*
 * The driver binds to the device tree's "riscv,pmu" node where there is
 * one.  An ACPI boot has no PMU device to bind to (the SBI PMU is not
 * described in ACPI), and neither has a device tree without that node
 * (it is optional: it only tells the firmware the event map; QEMU virt
 * has it only with Sscofpmf), so the module makes one, as riscv_pmu_sbi
 * does.  Probe reads the extensions from the RHCT or the cpu nodes.  The
 * device is found again by name at exit, so the module keeps no pointer
 * to it.
 */
static bool rvctr_need_device(void)
{
	struct device_node *np;
	bool have;

	if (!acpi_disabled)
		return true;
	np = of_find_compatible_node(NULL, NULL, "riscv,pmu");
	have = np && of_device_is_available(np);
	of_node_put(np);
	return !have;
}

static int __init rvctr_init(void)
{
	struct platform_device *pdev;
	int ret;

	ret = platform_driver_register(&rvctr_driver);
	if (ret || !rvctr_need_device())
		return ret;
	pdev = platform_device_register_simple(RVCTR_DRV_NAME, PLATFORM_DEVID_NONE,
					       NULL, 0);
	if (IS_ERR(pdev)) {
		platform_driver_unregister(&rvctr_driver);
		return PTR_ERR(pdev);
	}
	return 0;
}
module_init(rvctr_init);

static void __exit rvctr_exit(void)
{
	struct device *dev;

	dev = bus_find_device_by_name(&platform_bus_type, NULL, RVCTR_DRV_NAME);
	if (dev) {
		platform_device_unregister(to_platform_device(dev));
		put_device(dev);
	}
	platform_driver_unregister(&rvctr_driver);
}
module_exit(rvctr_exit);

MODULE_DESCRIPTION("RISC-V CPU PMU with Control Transfer Records");
MODULE_LICENSE("GPL");
