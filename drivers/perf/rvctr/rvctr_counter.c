// SPDX-License-Identifier: GPL-2.0-only
/*
 * Programming the counters.  Two ways, chosen per counter:
 *
 * - SBI PMU calls (SBI v2.0 chapter 11): the firmware picks a counter that
 *   can count the event (COUNTER_CFG_MATCH), starts it with an initial
 *   value and stops it.  Every operation is an ecall.
 * - Counter delegation (Smcdeleg/Ssccfg): where the firmware delegates a
 *   counter, S-mode reaches it through siselect = 0x40 + i: sireg is the
 *   counter, sireg2 its mhpmevent, and scountinhibit starts and stops it.
 *   No ecall on the hot path; the event selector and the xINH filter bits
 *   are written by the driver itself.
 *
 * Counters are read directly from the hpmcounter CSRs either way
 * (firmware counters excepted).  Everything here runs on the counter's
 * hart with interrupts off, as the perf core calls it.
 */
#define pr_fmt(fmt) "rvctr: " fmt

#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/irqflags.h>
#include <linux/lockdep.h>
#include <linux/perf_event.h>
#include <linux/smp.h>
#include <asm/csr.h>
#include <asm/sbi.h>

#include <rvctr/hpm.h>
#include "rvctr.h"

/*
 * cycle and instret: without Smcntrpmf they have no OF bit (so no
 * overflow interrupt) and no privilege filter.
 */
#define RVCTR_FIXED_MASK	(BIT(0) | BIT(2))

static union sbi_pmu_ctr_info rvctr_info(struct rvctr_pmu *rp, int idx)
{
	union sbi_pmu_ctr_info info = { .value = rp->counter_info[idx] };

	return info;
}

unsigned int rvctr_counter_csr_bit(struct rvctr_pmu *rp, int idx)
{
	return rvctr_info(rp, idx).csr - CSR_CYCLE;
}

u64 rvctr_counter_width_mask(struct rvctr_pmu *rp, int idx)
{
	return GENMASK_ULL(rvctr_info(rp, idx).width, 0);
}

static struct sbiret rvctr_sbi(int fid, unsigned long a0, unsigned long a1,
			       unsigned long a2, unsigned long a3)
{
	return sbi_ecall(SBI_EXT_PMU, fid, a0, a1, a2, a3, 0, 0);
}

/* csr_read() takes a constant: one case per counter CSR. */
static u64 rvctr_read_csr(unsigned int n)
{
	switch (n) {
	case 0: return csr_read(CSR_CYCLE + 0);
	case 1: return csr_read(CSR_CYCLE + 1);
	case 2: return csr_read(CSR_CYCLE + 2);
	case 3: return csr_read(CSR_CYCLE + 3);
	case 4: return csr_read(CSR_CYCLE + 4);
	case 5: return csr_read(CSR_CYCLE + 5);
	case 6: return csr_read(CSR_CYCLE + 6);
	case 7: return csr_read(CSR_CYCLE + 7);
	case 8: return csr_read(CSR_CYCLE + 8);
	case 9: return csr_read(CSR_CYCLE + 9);
	case 10: return csr_read(CSR_CYCLE + 10);
	case 11: return csr_read(CSR_CYCLE + 11);
	case 12: return csr_read(CSR_CYCLE + 12);
	case 13: return csr_read(CSR_CYCLE + 13);
	case 14: return csr_read(CSR_CYCLE + 14);
	case 15: return csr_read(CSR_CYCLE + 15);
	case 16: return csr_read(CSR_CYCLE + 16);
	case 17: return csr_read(CSR_CYCLE + 17);
	case 18: return csr_read(CSR_CYCLE + 18);
	case 19: return csr_read(CSR_CYCLE + 19);
	case 20: return csr_read(CSR_CYCLE + 20);
	case 21: return csr_read(CSR_CYCLE + 21);
	case 22: return csr_read(CSR_CYCLE + 22);
	case 23: return csr_read(CSR_CYCLE + 23);
	case 24: return csr_read(CSR_CYCLE + 24);
	case 25: return csr_read(CSR_CYCLE + 25);
	case 26: return csr_read(CSR_CYCLE + 26);
	case 27: return csr_read(CSR_CYCLE + 27);
	case 28: return csr_read(CSR_CYCLE + 28);
	case 29: return csr_read(CSR_CYCLE + 29);
	case 30: return csr_read(CSR_CYCLE + 30);
	case 31: return csr_read(CSR_CYCLE + 31);
	}
	WARN_ONCE(1, "rvctr: no counter CSR %u\n", n);
	return 0;
}

/*
 * Delegated counter access.  siselect and sireg/sireg2 are a pair: nothing
 * may change siselect between the two, so interrupts must be off (the
 * overflow handler and the CTR backend use siselect too).  The hart
 * observes its own CSR accesses in program order (privileged spec, Zicsr
 * "CSR Access Ordering"), so the select takes effect before the sireg
 * access without a fence (Smcsrind 2.1).
 */
static void rvctr_deleg_write(int idx, u64 value, u64 event)
{
	lockdep_assert_irqs_disabled();
	csr_write(CSR_SISELECT, SISELECT_SSCCFG_BASE + idx);
	csr_write(CSR_SIREG, value);
	csr_write(CSR_SIREG2, event);
}

/*
 * Parked: every mode inhibited and OF set, so it never interrupts.  The
 * selector stays, so that the next allocation (even by a reloaded module)
 * can see which event the counter last had: rvctr_deleg_alloc().
 */
#define RVCTR_PARKED	(RVCTR_HPMEVENT_OF | RVCTR_HPMEVENT_INH_ALL)

static void rvctr_deleg_park(struct rvctr_cpu *cpuc, int idx)
{
	csr_set(CSR_SCOUNTINHIBIT, BIT(idx));
	rvctr_deleg_write(idx, 0, cpuc->deleg_sel[idx] | RVCTR_PARKED);
}

/* The data word of SBI COUNTER_CFG_MATCH for this event. */
static unsigned long rvctr_sbi_data(struct hw_perf_event *hwc)
{
	if (hwc->flags & RVCTR_F_FW)
		return hwc->config;
	if (hwc->event_base == SBI_PMU_EVENT_RAW_IDX)
		return hwc->config & ~RVCTR_HPMEVENT_INH_ALL;
	return 0;
}

static int rvctr_sbi_match(struct hw_perf_event *hwc, unsigned long cmask)
{
	struct sbiret ret;

	if (!cmask)
		return -ENOENT;
	ret = sbi_ecall(SBI_EXT_PMU, SBI_EXT_PMU_COUNTER_CFG_MATCH, 0, cmask,
			hwc->config_base, hwc->event_base, rvctr_sbi_data(hwc), 0);
	if (ret.error)
		return sbi_err_map_linux_errno(ret.error);
	if (ret.value >= RVCTR_MAX_COUNTERS || !(cmask & BIT(ret.value)))
		return -ENOENT;
	return ret.value;
}

/*
 * Let the firmware pick a counter.  Programmable counters first: only they
 * filter by privilege and raise overflow interrupts.  cycle/instret are a
 * fallback for plain counting.
 */
static int rvctr_sbi_alloc(struct rvctr_pmu *rp, struct rvctr_cpu *cpuc,
			   struct hw_perf_event *hwc, unsigned long allowed)
{
	unsigned long free = allowed & ~cpuc->used[0] & ~rp->deleg_mask;
	int idx;

	idx = rvctr_sbi_match(hwc, free & ~RVCTR_FIXED_MASK);
	if (idx < 0)
		idx = rvctr_sbi_match(hwc, free & RVCTR_FIXED_MASK);
	return idx;
}

/*
 * Which delegated counter an event goes on.  Any free one would do on
 * hardware; QEMU 10.0, the bench, needs this one.  It counts the generic
 * events (cycles, instructions, TLB misses) through a per-hart map from
 * event to counter, and S-mode cannot take a counter out of that map: a
 * write through sireg2 keeps MINH, which the firmware sets at boot, and
 * QEMU reads any value with a bit other than OF set as an event rather
 * than a reset (its MHPMEVENT_SSCOF_MASK covers OF only).  So the first
 * counter an event is programmed on counts it on that hart for good, no
 * other counter does, and a different event later put on that counter
 * counts the old one (Documentation/driver.rst).  Hence: the counter that
 * holds the event's selector, else one that never held any, else the
 * lowest free.  Only one counter per hart holds a selector: a second
 * event with the same selector at the same time goes elsewhere without
 * claiming it, so that the next event picks the first counter again, in
 * this module's life and (from the parked counters' selectors) the next.
 * On hardware this only makes the choice stable.
 */
static int rvctr_deleg_alloc(struct rvctr_pmu *rp, struct rvctr_cpu *cpuc,
			     struct hw_perf_event *hwc, unsigned long allowed)
{
	unsigned long free = allowed & cpuc->deleg_ok & ~cpuc->used[0];
	u64 sel = hwc->config & RVCTR_HPMEVENT_SELECTOR;
	unsigned long unused = 0;
	int idx, holder = -1;

	if (!free)
		return -ENOENT;
	for_each_set_bit(idx, &rp->deleg_mask, RVCTR_HW_COUNTERS) {
		if (!cpuc->deleg_sel[idx])
			unused |= BIT(idx);
		else if (cpuc->deleg_sel[idx] == sel)
			holder = idx;
	}
	if (holder >= 0 && (free & BIT(holder)))
		idx = holder;
	else
		idx = __ffs(free & unused ? free & unused : free);
	if (holder < 0 && sel)
		cpuc->deleg_sel[idx] = sel;
	/* Stopped until start(); OF stays set so it cannot interrupt yet. */
	rvctr_deleg_park(cpuc, idx);
	return idx;
}

int rvctr_counter_alloc(struct rvctr_pmu *rp, struct rvctr_cpu *cpuc,
			struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	unsigned long allowed = hwc->extra_reg.config;
	int idx = -ENOENT;

	if (hwc->flags & RVCTR_F_DELEG)
		idx = rvctr_deleg_alloc(rp, cpuc, hwc, allowed);
	if (idx < 0)
		idx = rvctr_sbi_alloc(rp, cpuc, hwc, allowed);
	if (idx < 0)
		return idx;
	if (WARN_ON_ONCE(test_and_set_bit(idx, cpuc->used)))
		return -EBUSY;
	if (!(hwc->flags & RVCTR_F_FW))
		cpuc->used_hw_csr |= BIT(rvctr_counter_csr_bit(rp, idx));
	return idx;
}

void rvctr_counter_free(struct rvctr_pmu *rp, struct rvctr_cpu *cpuc,
			struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	int idx = hwc->idx;

	if (rvctr_on_deleg(rp, hwc->idx))
		rvctr_deleg_park(cpuc, idx);
	else
		/* RESET releases the counter in the firmware. */
		rvctr_sbi(SBI_EXT_PMU_COUNTER_STOP, idx, 1,
			  SBI_PMU_STOP_FLAG_RESET, 0);
	if (!(hwc->flags & RVCTR_F_FW))
		cpuc->used_hw_csr &= ~BIT(rvctr_counter_csr_bit(rp, idx));
	cpuc->reload &= ~BIT(idx);
	clear_bit(idx, cpuc->used);
}

static void rvctr_deleg_start(struct hw_perf_event *hwc, u64 ival)
{
	/* Value and event (OF clear) first, then let it count. */
	rvctr_deleg_write(hwc->idx, ival, hwc->config);
	csr_clear(CSR_SCOUNTINHIBIT, BIT(hwc->idx));
}

/* Start the counter at @ival. */
void rvctr_counter_start(struct rvctr_pmu *rp, struct perf_event *event,
			 u64 ival)
{
	struct hw_perf_event *hwc = &event->hw;
	struct sbiret ret;

	this_cpu_ptr(rp->cpus)->reload &= ~BIT(hwc->idx);
	if (rvctr_on_deleg(rp, hwc->idx)) {
		rvctr_deleg_start(hwc, ival);
		return;
	}
	ret = rvctr_sbi(SBI_EXT_PMU_COUNTER_START, hwc->idx, 1,
			SBI_PMU_START_FLAG_SET_INIT_VALUE, ival);
	/*
	 * A running counter is not given the new value (SBI v2.0 11.8:
	 * ALREADY_STARTED), and the event's prev_count would then not
	 * match it: stop it and start it again.
	 */
	if (ret.error == SBI_ERR_ALREADY_STARTED) {
		WARN_ONCE(1, "rvctr: counter %d started twice\n", hwc->idx);
		rvctr_sbi(SBI_EXT_PMU_COUNTER_STOP, hwc->idx, 1, 0, 0);
		ret = rvctr_sbi(SBI_EXT_PMU_COUNTER_START, hwc->idx, 1,
				SBI_PMU_START_FLAG_SET_INIT_VALUE, ival);
	}
	if (ret.error)
		pr_err_once("starting counter %d failed: %ld\n", hwc->idx,
			    ret.error);
}

/* Start the counter from the value it stopped at. */
void rvctr_counter_resume(struct rvctr_pmu *rp, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	struct sbiret ret;

	if (rvctr_on_deleg(rp, hwc->idx)) {
		csr_clear(CSR_SCOUNTINHIBIT, BIT(hwc->idx));
		return;
	}
	ret = rvctr_sbi(SBI_EXT_PMU_COUNTER_START, hwc->idx, 1, 0, 0);
	if (ret.error && ret.error != SBI_ERR_ALREADY_STARTED)
		pr_err_once("resuming counter %d failed: %ld\n", hwc->idx,
			    ret.error);
}

void rvctr_counter_stop(struct rvctr_pmu *rp, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	struct sbiret ret;

	if (rvctr_on_deleg(rp, hwc->idx)) {
		csr_set(CSR_SCOUNTINHIBIT, BIT(hwc->idx));
		return;
	}
	ret = rvctr_sbi(SBI_EXT_PMU_COUNTER_STOP, hwc->idx, 1, 0, 0);
	if (ret.error && ret.error != SBI_ERR_ALREADY_STOPPED)
		pr_err_once("stopping counter %d failed: %ld\n", hwc->idx,
			    ret.error);
}

u64 rvctr_counter_read(struct rvctr_pmu *rp, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	struct sbiret ret;

	if (!(hwc->flags & RVCTR_F_FW))
		return rvctr_read_csr(rvctr_counter_csr_bit(rp, hwc->idx));
	ret = rvctr_sbi(SBI_EXT_PMU_COUNTER_FW_READ, hwc->idx, 0, 0, 0);
	return ret.error ? 0 : ret.value;
}

/* The hardware counters in use on this hart, by SBI index. */
static unsigned long rvctr_used_hw(struct rvctr_pmu *rp, struct rvctr_cpu *cpuc)
{
	return cpuc->used[0] & rp->hw_mask;
}

/* Stop every hardware counter in use: one ecall and one CSR write. */
void rvctr_counters_stop_used(struct rvctr_pmu *rp, struct rvctr_cpu *cpuc)
{
	unsigned long used = rvctr_used_hw(rp, cpuc);

	if (used & rp->deleg_mask)
		csr_set(CSR_SCOUNTINHIBIT, used & rp->deleg_mask);
	if (used & ~rp->deleg_mask)
		rvctr_sbi(SBI_EXT_PMU_COUNTER_STOP, 0, used & ~rp->deleg_mask, 0, 0);
}

/*
 * Restart after an overflow: @reload counters get their new period (and
 * their OF bit cleared), the other @running ones continue where they
 * stopped.
 */
void rvctr_counters_restart(struct rvctr_pmu *rp, struct rvctr_cpu *cpuc,
			    unsigned long running, unsigned long reload)
{
	unsigned long cont = running & ~reload;
	struct perf_event *event;
	int idx;

	for_each_set_bit(idx, &reload, RVCTR_HW_COUNTERS) {
		event = cpuc->events[idx];
		rvctr_counter_start(rp, event,
				    local64_read(&event->hw.prev_count) &
				    rvctr_counter_width_mask(rp, idx));
	}
	if (cont & rp->deleg_mask)
		csr_clear(CSR_SCOUNTINHIBIT, cont & rp->deleg_mask);
	if (cont & ~rp->deleg_mask)
		rvctr_sbi(SBI_EXT_PMU_COUNTER_START, 0, cont & ~rp->deleg_mask,
			  0, 0);
}

/*
 * On a hart coming online: nothing of ours may be left counting.  The
 * first time after the module loads, the delegated counters' selectors
 * are read back, so that counter choice carries over a module reload
 * (see rvctr_deleg_alloc()).  Not after a hotplug: OpenSBI rewrites
 * every mhpmevent when it starts a hart, QEMU's map survives that, and
 * the driver's own record is the one that still matches it.
 */
void rvctr_counters_reset_cpu(struct rvctr_pmu *rp, struct rvctr_cpu *cpuc)
{
	unsigned long mask = rp->hw_mask & ~cpuc->deleg_ok;
	int idx, i;
	u64 sel;

	lockdep_assert_irqs_disabled();
	if (mask)
		rvctr_sbi(SBI_EXT_PMU_COUNTER_STOP, 0, mask,
			  SBI_PMU_STOP_FLAG_RESET, 0);
	for_each_set_bit(idx, &cpuc->deleg_ok, RVCTR_HW_COUNTERS) {
		if (!cpuc->deleg_sel_known) {
			csr_write(CSR_SISELECT, SISELECT_SSCCFG_BASE + idx);
			sel = csr_read(CSR_SIREG2) & RVCTR_HPMEVENT_SELECTOR;
			/* One counter per selector: the lowest keeps it. */
			for_each_set_bit(i, &rp->deleg_mask, idx)
				if (cpuc->deleg_sel[i] == sel)
					sel = 0;
			cpuc->deleg_sel[idx] = sel;
		}
		rvctr_deleg_park(cpuc, idx);
	}
	cpuc->deleg_sel_known = true;
}

/*
 * After a non-retentive idle state, which keeps no CSR (SBI v2.0 9.4
 * HART_SUSPEND; OpenSBI's warm resume rewrites every mhpmevent): the
 * delegated counters not in use are parked again, and the SBI counters
 * in use are released and matched again on the same counter (a
 * SKIP_MATCH match does not rewrite mhpmevent), as the events are
 * stopped and will be started by the caller.
 */
void rvctr_counters_pm_exit(struct rvctr_pmu *rp, struct rvctr_cpu *cpuc)
{
	unsigned long idle = cpuc->deleg_ok & ~cpuc->used[0];
	unsigned long sbi = rvctr_used_hw(rp, cpuc) & ~rp->deleg_mask;
	struct hw_perf_event *hwc;
	struct sbiret ret;
	int idx;

	for_each_set_bit(idx, &idle, RVCTR_HW_COUNTERS)
		rvctr_deleg_park(cpuc, idx);
	for_each_set_bit(idx, &sbi, RVCTR_HW_COUNTERS) {
		hwc = &cpuc->events[idx]->hw;
		rvctr_sbi(SBI_EXT_PMU_COUNTER_STOP, idx, 1,
			  SBI_PMU_STOP_FLAG_RESET, 0);
		ret = sbi_ecall(SBI_EXT_PMU, SBI_EXT_PMU_COUNTER_CFG_MATCH, idx,
				1, hwc->config_base, hwc->event_base,
				rvctr_sbi_data(hwc), 0);
		if (ret.error || ret.value != idx)
			pr_err_once("counter %d lost its event in idle: %ld\n",
				    idx, ret.error);
	}
}

/*
 * Which counters the firmware delegated: scountinhibit bits of counters
 * that are not delegated are read-only zero (Smcdeleg), so set them all
 * and read back.  Runs on each hart; keeps what every hart has.
 */
static void rvctr_deleg_probe_cpu(void *info)
{
	unsigned long *mask = info;
	unsigned long old, got;

	old = csr_read(CSR_SCOUNTINHIBIT);
	csr_write(CSR_SCOUNTINHIBIT, *mask);
	got = csr_read(CSR_SCOUNTINHIBIT);
	csr_write(CSR_SCOUNTINHIBIT, old);
	*mask &= got;
}

/*
 * A hart coming online, from the CPU hotplug starting callback: which of
 * the counters the PMU was probed with as delegated are delegated here.
 * The others are not used on this hart at all: not through sireg (an
 * access to a counter that is not delegated is illegal, Smcdeleg), and
 * not through SBI calls either, where the rest of the driver would take
 * them for delegated ones.
 */
unsigned long rvctr_counters_cpu_deleg(struct rvctr_pmu *rp)
{
	unsigned long mask = rp->deleg_mask;

	if (!mask)
		return 0;
	rvctr_deleg_probe_cpu(&mask);
	if (mask != rp->deleg_mask)
		pr_warn("CPU%d: counters %#lx are not delegated here: not used on this CPU\n",
			smp_processor_id(), rp->deleg_mask & ~mask);
	return mask;
}

static unsigned long rvctr_deleg_probe(struct rvctr_pmu *rp)
{
	unsigned long mask = 0;
	int idx, cpu;

	if (!rvctr_has(&rp->caps, RVCTR_EXT_SMCDELEG) ||
	    !rvctr_has(&rp->caps, RVCTR_EXT_SSCCFG) ||
	    !rvctr_has(&rp->caps, RVCTR_EXT_SSCSRIND))
		return 0;
	/* CSR bit i is counter i only where the SBI index is the CSR offset. */
	for_each_set_bit(idx, &rp->hw_mask, RVCTR_HW_COUNTERS)
		if (rvctr_counter_csr_bit(rp, idx) == idx)
			mask |= BIT(idx);
	mask &= ~RVCTR_FIXED_MASK;
	cpus_read_lock();
	for_each_online_cpu(cpu)
		smp_call_function_single(cpu, rvctr_deleg_probe_cpu, &mask, 1);
	cpus_read_unlock();
	return mask;
}

static void rvctr_counter_add_info(struct rvctr_pmu *rp, int idx,
				   unsigned long value)
{
	union sbi_pmu_ctr_info info = { .value = value };

	rp->counter_info[idx] = value;
	if (info.type == SBI_PMU_CTR_TYPE_FW)
		rp->fw_mask |= BIT(idx);
	else if (info.csr >= CSR_CYCLE && info.csr < CSR_CYCLE + RVCTR_HW_COUNTERS)
		rp->hw_mask |= BIT(idx);
}

int rvctr_counters_probe(struct rvctr_pmu *rp)
{
	struct sbiret ret;
	long i, n;

	if (sbi_probe_extension(SBI_EXT_PMU) <= 0) {
		dev_err(rp->dev, "the firmware has no SBI PMU extension\n");
		return -ENODEV;
	}
	ret = rvctr_sbi(SBI_EXT_PMU_NUM_COUNTERS, 0, 0, 0, 0);
	if (ret.error)
		return sbi_err_map_linux_errno(ret.error);
	n = min_t(long, ret.value, RVCTR_MAX_COUNTERS);
	for (i = 0; i < n; i++) {
		ret = rvctr_sbi(SBI_EXT_PMU_COUNTER_GET_INFO, i, 0, 0, 0);
		/* Counter indices need not be contiguous. */
		if (!ret.error)
			rvctr_counter_add_info(rp, i, ret.value);
	}
	if (!(rp->hw_mask & ~RVCTR_FIXED_MASK)) {
		dev_err(rp->dev, "the firmware offers no programmable counters\n");
		return -ENODEV;
	}
	rp->deleg_mask = rvctr_deleg_probe(rp);
	dev_info(rp->dev, "%lu hardware counters (%lu delegated), %lu firmware counters\n",
		 hweight_long(rp->hw_mask), hweight_long(rp->deleg_mask),
		 hweight_long(rp->fw_mask));
	return 0;
}

/* Can any counter count SBI event @event_idx?  Asks the firmware. */
static bool rvctr_sbi_event_ok(struct rvctr_pmu *rp, unsigned long event_idx)
{
	struct sbiret ret;

	ret = sbi_ecall(SBI_EXT_PMU, SBI_EXT_PMU_COUNTER_CFG_MATCH, 0,
			rp->hw_mask, 0, event_idx, 0, 0);
	if (ret.error)
		return false;
	rvctr_sbi(SBI_EXT_PMU_COUNTER_STOP, ret.value, 1,
		  SBI_PMU_STOP_FLAG_RESET, 0);
	return true;
}

/*
 * The generic hardware and cache events the firmware maps.  SBI numbers
 * them as perf does: hardware event n is SBI event n + 1, and a cache
 * event is (cache << 3 | op << 1 | result) of type 1.  The firmware is
 * asked about delegated counters too (it knows the platform's event map;
 * nothing counts yet, and the hotplug online callback parks them after).
 */
static void rvctr_events_probe_cpu(void *info)
{
	struct rvctr_pmu *rp = info;
	unsigned int i;

	for (i = 0; i < PERF_COUNT_HW_MAX; i++)
		if (rvctr_sbi_event_ok(rp, i + 1))
			rp->hw_ok |= BIT(i);
	for (i = 0; i < RVCTR_NR_CACHE_EVENTS; i++)
		if ((i & 6) != 6 && rvctr_sbi_event_ok(rp, SBI_PMU_EVENT_TYPE_CACHE << 16 | i))
			rp->cache_ok |= BIT_ULL(i);
}

void rvctr_events_probe(struct rvctr_pmu *rp)
{
	/* Match and release on one hart. */
	smp_call_function_single(cpumask_first(cpu_online_mask),
				 rvctr_events_probe_cpu, rp, 1);
}
