// SPDX-License-Identifier: GPL-2.0-only
/*
 * rvctr: Control Transfer Records (Smctr/Ssctr, ratified v1.0) delivered
 * as perf branch stacks.
 *
 * One sctrctl value per CPU: the branch filter of an event is translated
 * once at event_init (include/rvctr/ctr.h) and cached in the event; add
 * installs it, pmu_enable writes it.  CTR freezes on the counter overflow
 * interrupt (LCOFIFRZ), the overflow handler copies the frozen buffer
 * newest first into the sample and unfreezes it.  At context switch the
 * buffer is cleared for task events, or saved and restored per task in
 * call-stack (RAS emulation) mode.
 */
#define pr_fmt(fmt) "rvctr: " fmt

#include <linux/bitfield.h>
#include <linux/build_bug.h>
#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/irqflags.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <asm/csr.h>

#include <rvctr/ctr.h>
#include "rvctr.h"
#include "rvctr_ctr.h"

static_assert((RVCTR_BRANCH_ALLOWED | RVCTR_BRANCH_EXCLUDED) ==
	      PERF_SAMPLE_BRANCH_MAX - 1);
static_assert(!(RVCTR_BRANCH_ALLOWED & RVCTR_BRANCH_EXCLUDED));

/*
 * The default depth: 64 entries, the most Arm's BRBE records.  Stock perf
 * up to at least 6.12 drops a branch stack of more than 127 entries as a
 * "corrupted branch chain" in perf report --branch-history and the
 * callchain views (PERF_MAX_BRANCH_DEPTH in tools/perf/util/machine.c),
 * so 128 and 256 only suit tools that read the raw stacks.  Each entry
 * also costs 24 bytes of sample and four CSR accesses in the overflow
 * handler.  ctr_depth, or the sysfs ctr_depth file, picks another.
 */
#define CTR_DEPTH_DEFAULT	64
static unsigned int ctr_depth = CTR_DEPTH_DEFAULT;
module_param(ctr_depth, uint, 0444);
MODULE_PARM_DESC(ctr_depth, "CTR entries per sample: 16, 32, 64 (default), 128, 256; 0: the largest the harts support. Stock perf drops stacks of more than 127 in --branch-history");

/*
 * Per-task save area of the RAS-emulated call stack.  @e holds the task's
 * stack only if it was saved at the task's last switch-out: @valid says
 * it was saved at a switch-out the driver saw and has not been used yet,
 * @switches which switch-out that was (the task's nvcsw + nivcsw then),
 * for the switch-outs the driver does not see (no branch-stack event on
 * the CPU, so no sched_task callback).  Intel's LBR call stack keeps the
 * same kind of state (lbr_stack_state, LBR_VALID / LBR_NONE).
 */
struct rvctr_ctr_task_ctx {
	unsigned long switches;
	bool valid;
	unsigned int nr;
	struct rvctr_raw_entry e[RVCTR_DEPTH_MAX];
};

/* Cached in the event at event_init. */
#define ctr_event_ctl(event)	((event)->hw.branch_reg.config)
#define ctr_event_depth(event)	((event)->hw.branch_reg.idx)

/*
 * SCTRCLR zeroes every entry and the cycle counter (CTR v1.0 "Clear").
 * Older assemblers do not know the mnemonic.
 */
static inline void ctr_clear(void)
{
	asm volatile(".4byte " __stringify(RVCTR_INSN_SCTRCLR) ::: "memory");
}

/*
 * Indirect access to logical entry @i (0 = newest, CTR v1.0 "Entry
 * Registers"): siselect selects, sireg/sireg2/sireg3 then read or write
 * source/target/data (Sscsrind).  Callers keep interrupts off, so nothing
 * else reselects between the write to siselect and the accesses.
 */
static void ctr_read_entry(unsigned int i, struct rvctr_raw_entry *e)
{
	csr_write(RVCTR_CSR_SISELECT, RVCTR_ISELECT_ENTRY0 + i);
	e->source = csr_read(RVCTR_CSR_SIREG);
	e->target = csr_read(RVCTR_CSR_SIREG2);
	e->data = csr_read(RVCTR_CSR_SIREG3);
}

static void ctr_write_entry(unsigned int i, const struct rvctr_raw_entry *e)
{
	csr_write(RVCTR_CSR_SISELECT, RVCTR_ISELECT_ENTRY0 + i);
	csr_write(RVCTR_CSR_SIREG, e->source);
	csr_write(RVCTR_CSR_SIREG2, e->target);
	csr_write(RVCTR_CSR_SIREG3, e->data);
}

static unsigned int ctr_hw_depth(void)
{
	return rvctr_depth_decode(csr_read(RVCTR_CSR_SCTRDEPTH));
}

/*
 * Set FROZEN and return whether it already was.  Software may set FROZEN
 * to stop recording (CTR v1.0 "Freeze"); csrrs makes read and set one
 * access, so a hardware freeze in between cannot be lost.
 */
static bool ctr_freeze(void)
{
	return csr_read_set(RVCTR_CSR_SCTRSTATUS, RVCTR_STATUS_FROZEN) &
	       RVCTR_STATUS_FROZEN;
}

static void ctr_thaw(void)
{
	csr_clear(RVCTR_CSR_SCTRSTATUS, RVCTR_STATUS_FROZEN);
}

/* ------------------------------------------------------------------ */
/* event_init: translate the filter once, cache it in the event        */

static bool ctr_event_is_task(struct perf_event *event)
{
	return event->attach_state & PERF_ATTACH_TASK;
}

static int rvctr_ctr_check_cfg2(struct perf_event *event)
{
	if (!(event->attr.config2 & RVCTR_CTR_CFG2_MASK))
		return 0;
	pr_debug("ctr_ntbr/ctr_bpfrz need a branch stack\n");
	return -EINVAL;
}

int rvctr_ctr_event_init(struct rvctr_ctr *ctr, struct perf_event *event)
{
	u64 bst = event->attr.branch_sample_type;
	u64 cfg2 = event->attr.config2, opts = 0, ctl, missing;
	int ret;

	if (!has_branch_stack(event))
		return rvctr_ctr_check_cfg2(event);
	if (!ctr->hw.depths) {
		pr_debug("no CTR on this system\n");
		return -EOPNOTSUPP;
	}
	if (cfg2 & RVCTR_CTR_CFG2_NTBR)
		opts |= RVCTR_FILTER_NTBR;
	if (cfg2 & RVCTR_CTR_CFG2_BPFRZ)
		opts |= RVCTR_FILTER_BPFRZ;

	ret = rvctr_branch_filter(bst, opts, &ctl);
	if (ret) {
		pr_debug("branch_sample_type %#llx (config2 %#llx) not supported\n",
			 bst, cfg2);
		return ret == RVCTR_FILTER_ENOMODE ? -EINVAL : -EOPNOTSUPP;
	}
	/*
	 * A RAS-emulated call stack belongs to one task: it is saved at the
	 * task's switch-out and written back at its switch-in, in the save
	 * area perf allocates for task events (pmu->task_ctx_cache).  A
	 * CPU-wide event (perf record -a --call-graph lbr) has none, so its
	 * stack would take one task's returns off another's calls.  Linux
	 * 6.15 can attach a save area to every task for such an event (x86
	 * LBR does); 6.12 cannot, so refuse on both.
	 */
	if ((ctl & RVCTR_CTL_RASEMU) && !ctr_event_is_task(event)) {
		pr_debug("call-stack mode (PERF_SAMPLE_BRANCH_CALL_STACK) needs a task: not CPU-wide\n");
		return -EOPNOTSUPP;
	}
	/*
	 * Fields the harts do not implement read as 0 and do nothing (CTR
	 * v1.0 makes all but the mode bits optional): without an inhibit
	 * bit the filter would record that type too, without RASEMU call
	 * stacks would be every transfer.  Refuse instead.
	 */
	missing = rvctr_ctl_missing(ctl, &ctr->hw);
	if (missing) {
		pr_debug("branch_sample_type %#llx (config2 %#llx) needs sctrctl.%s, which not every hart implements\n",
			 bst, cfg2, rvctr_ctl_field_name(missing));
		return -EOPNOTSUPP;
	}
	ctr_event_ctl(event) = ctl;
	ctr_event_depth(event) = rvctr_depth_encode(READ_ONCE(ctr->depth));

	/* Call stacks follow their task: perf allocates the save area. */
	if (ctl & RVCTR_CTL_RASEMU)
		event->attach_state |= PERF_ATTACH_TASK_DATA;
	return 0;
}

/* ------------------------------------------------------------------ */
/* add/del, enable/disable                                            */

/*
 * All branch-stack events on a CPU share sctrctl; an event with another
 * filter waits until the first ones are gone (perf rotates it in).
 */
int rvctr_ctr_add(struct rvctr_ctr_cpu *cc, struct perf_event *event)
{
	if (!has_branch_stack(event))
		return 0;
	if (cc->users && (cc->sctrctl != ctr_event_ctl(event) ||
			  cc->depth_enc != ctr_event_depth(event)))
		return -EBUSY;
	if (!cc->users++) {
		cc->sctrctl = ctr_event_ctl(event);
		cc->depth_enc = ctr_event_depth(event);
		/*
		 * Called with the PMU disabled, so sctrctl is 0: the depth
		 * may change and the buffer of whoever used CTR last is
		 * cleared before anything is recorded for this event.
		 */
		csr_write(RVCTR_CSR_SCTRDEPTH, cc->depth_enc);
		ctr_clear();
		ctr_thaw();
	} else if (ctr_event_is_task(event) && !cc->task_users) {
		/*
		 * The first task event joins CPU-wide ones.  They keep the
		 * buffer across context switches, so it still holds what
		 * the tasks before this one did; from here on the switches
		 * clear it (rvctr_ctr_sched_task()).  Whether the event has
		 * run before does not matter: one rotated back in mid-slice
		 * finds the same buffer.  Intel's LBR resets in
		 * intel_pmu_lbr_add() only for the CPU's first LBR user that
		 * has not run yet, because its sched_task resets at every
		 * switch-in, for per-CPU events too
		 * (intel_pmu_lbr_sched_task()).
		 */
		ctr_clear();
	}
	if (ctr_event_is_task(event))
		cc->task_users++;
	perf_sched_cb_inc(event->pmu);
	return 0;
}

void rvctr_ctr_del(struct rvctr_ctr_cpu *cc, struct perf_event *event)
{
	if (!has_branch_stack(event))
		return;
	perf_sched_cb_dec(event->pmu);
	if (ctr_event_is_task(event))
		cc->task_users--;
	if (!--cc->users) {
		cc->sctrctl = 0;
		csr_write(RVCTR_CSR_SCTRCTL, 0);
		/* Nothing of the last user stays for a BPF snapshot. */
		ctr_clear();
	}
}

/*
 * sctrctl is written only here: with no mode bit set nothing is recorded
 * (CTR v1.0 "Privilege Mode Transitions"), so disable is one write.
 */
void rvctr_ctr_enable(struct rvctr_ctr_cpu *cc)
{
	if (cc->users)
		csr_write(RVCTR_CSR_SCTRCTL, cc->sctrctl);
}

void rvctr_ctr_disable(struct rvctr_ctr_cpu *cc)
{
	if (cc->users)
		csr_write(RVCTR_CSR_SCTRCTL, 0);
}

/*
 * After a non-retentive idle state (CPU PM exit): sctrdepth and the
 * buffer are lost.  The buffer starts empty, as after a task switch;
 * rvctr_ctr_enable() writes sctrctl back.
 */
void rvctr_ctr_cpu_pm_exit(struct rvctr_ctr_cpu *cc)
{
	if (!cc->users)
		return;
	csr_write(RVCTR_CSR_SCTRCTL, 0);
	csr_write(RVCTR_CSR_SCTRDEPTH, cc->depth_enc);
	ctr_clear();
	ctr_thaw();
}

/* ------------------------------------------------------------------ */
/* the sample                                                          */

/*
 * The template of this CPU for @has_misp and the options of @bst that
 * change a record; rebuilt only when they change (rvctr/ctr.h).
 */
static const struct rvctr_perf_tmpl *ctr_tmpl(struct rvctr_ctr_cpu *cc,
					      bool has_misp, u64 bst)
{
	if (unlikely(cc->tmpl.key != rvctr_perf_tmpl_key(has_misp, bst)))
		rvctr_perf_tmpl_init(&cc->tmpl, has_misp, bst);
	return &cc->tmpl;
}

/*
 * Copy the valid entries, newest first, into @out, as @t says.  Records
 * that carry a kernel address are dropped unless the event may see the
 * kernel: CTR already does not record them for a user-only filter
 * (external traps and trap returns from S are not recorded, CTR v1.0
 * "Privilege Mode Transitions"), this keeps it true whatever the hardware
 * does.  The source is read first: the first invalid one ends the copy.
 */
static unsigned int ctr_copy(struct perf_branch_entry *__restrict out,
			     unsigned int cnt, unsigned int depth,
			     const struct rvctr_perf_tmpl *__restrict t)
{
	struct perf_branch_entry *pe = out, *end = out + cnt;
	unsigned long sel, last = RVCTR_ISELECT_ENTRY0 + depth;
	u64 source, target, data;

	for (sel = RVCTR_ISELECT_ENTRY0; sel < last && pe < end; sel++) {
		csr_write(RVCTR_CSR_SISELECT, sel);
		source = csr_read(RVCTR_CSR_SIREG);
		if (!rvctr_entry_valid(source))
			break;
		target = csr_read(RVCTR_CSR_SIREG2);
		data = csr_read(RVCTR_CSR_SIREG3);
		if (rvctr_perf_fast(t, source, target, data, pe) == RVCTR_PERF_OK)
			pe++;
	}
	return pe - out;
}

/*
 * Called from the overflow handler for each event with a branch stack,
 * before perf_event_overflow(); interrupts are off.  LCOFIFRZ froze CTR
 * when the interrupt was taken, so entry 0 is the last transfer before
 * the sampled instruction; freeze here too in case the overflow was seen
 * without a trap (CTR v1.0 "Freeze": only an LCOFI trap freezes).
 */
void rvctr_ctr_sample(struct rvctr_ctr *ctr, struct rvctr_ctr_cpu *cc,
		      struct perf_event *event, struct perf_sample_data *data)
{
	u64 bst = event->attr.branch_sample_type;
	unsigned int depth = RVCTR_DEPTH_MIN << cc->depth_enc;
	u64 wrptr;

	if (!cc->users)
		return;
	ctr_freeze();
	wrptr = csr_read(RVCTR_CSR_SCTRSTATUS) & RVCTR_STATUS_WRPTR;
	cc->bs.nr = ctr_copy(cc->entries, depth, depth,
			     ctr_tmpl(cc, ctr->hw.misp, bst));
	/* Physical index of the newest entry: WRPTR is the next to write. */
	cc->bs.hw_idx = (wrptr + depth - 1) & (depth - 1);
	perf_sample_save_brstack(data, event, &cc->bs, NULL);
}

/* Resume recording once every overflowed event has its sample. */
void rvctr_ctr_unfreeze(struct rvctr_ctr_cpu *cc)
{
	if (cc->users)
		ctr_thaw();
}

/*
 * An overflow interrupt that found no overflow of ours: a counter
 * overflowed with interrupts off and its event was removed before they
 * came back on.  LCOFIFRZ froze CTR when the trap was taken all the same
 * (CTR v1.0 "Freeze"), and no sample follows to thaw it: resume here, or
 * the next sample would show the buffer as of this interrupt.  Except
 * with BPFRZ, whose freeze must last until the next sample shows the path
 * to the breakpoint: FROZEN may be a breakpoint's, and one bit cannot
 * tell it from this interrupt's.
 */
void rvctr_ctr_spurious(struct rvctr_ctr_cpu *cc)
{
	if (cc->users && !(cc->sctrctl & RVCTR_CTL_BPFRZ))
		ctr_thaw();
}

/* ------------------------------------------------------------------ */
/* context switch                                                      */

static void ctr_save(struct rvctr_ctr_task_ctx *tc, unsigned int depth)
{
	unsigned int i;

	for (i = 0; i < depth; i++) {
		ctr_read_entry(i, &tc->e[i]);
		if (!rvctr_entry_valid(tc->e[i].source))
			break;
	}
	tc->nr = i;
}

/*
 * Entries are writable (CTR v1.0 "Entry Registers": WARL) so that a
 * call stack can be put back; logical index i is relative to WRPTR, so
 * after SCTRCLR the stack reads back as it was saved.
 */
static void ctr_restore(const struct rvctr_ctr_task_ctx *tc,
			unsigned int depth)
{
	unsigned int i;

	for (i = 0; i < min(tc->nr, depth); i++)
		ctr_write_entry(i, &tc->e[i]);
}

/*
 * Context switches of @task so far.  The scheduler counts a switch-out
 * (++*switch_count in __schedule()) before context_switch() calls the
 * perf hooks, and only the task's own CPU counts it.
 */
static unsigned long ctr_task_switches(const struct task_struct *task)
{
	return task->nvcsw + task->nivcsw;
}

/*
 * pmu->sched_task; the PMU is disabled (sctrctl is 0), so nothing is
 * recorded while the buffer is saved, cleared or restored.  Task events
 * must not see what another task did: the buffer is cleared at both
 * switches, or, for call stacks, saved at switch-out and restored at
 * switch-in.  Per-CPU events alone keep the buffer across switches.
 *
 * A call stack is restored only if it was saved at the task's last
 * switch-out, i.e. its call-stack event was recording up to then.  If
 * the event was rotated out, or could not be scheduled beside events
 * with another filter, the task ran on without it being recorded, and
 * an older stack written back would be a stack the task has left: the
 * event starts empty instead, as when it is first scheduled in.
 */
void rvctr_ctr_sched_task(struct rvctr_ctr_cpu *cc,
			  struct perf_event_pmu_context *pmu_ctx,
			  struct task_struct *task, bool sched_in)
{
	struct rvctr_ctr_task_ctx *tc = rvctr_task_ctx_data(pmu_ctx, task);
	unsigned int depth = RVCTR_DEPTH_MIN << cc->depth_enc;
	bool call_stack = cc->task_users && (cc->sctrctl & RVCTR_CTL_RASEMU);

	if (tc && !sched_in && call_stack) {
		ctr_save(tc, depth);
		tc->switches = ctr_task_switches(task);
	}
	if (cc->task_users)
		ctr_clear();
	if (tc && sched_in && call_stack && tc->valid &&
	    tc->switches == ctr_task_switches(task))
		ctr_restore(tc, depth);
	/* Saved at this switch-out, or used up at this switch-in. */
	if (tc)
		tc->valid = !sched_in && call_stack;
}

/* ------------------------------------------------------------------ */
/* bpf_get_branch_snapshot()                                           */

/*
 * bpf_get_branch_snapshot(), through perf_snapshot_branch_stack_register():
 * freeze first, so the BPF program's own path does not displace what it
 * asked for, then copy, then put FROZEN back as it was.  Uses only CSRs,
 * so it needs no pointer to driver state.  The buffer holds only what the
 * current branch-stack events may see: it is cleared when the last one
 * leaves the CPU and at task switches.  MISP is not reported here.
 */
static int rvctr_ctr_snapshot(struct perf_branch_entry *entries,
			      unsigned int cnt)
{
	struct rvctr_perf_tmpl t;
	unsigned long flags;
	unsigned int n = 0;
	bool was_frozen;

	local_irq_save(flags);
	was_frozen = ctr_freeze();
	/* Built while frozen, so its own branches are not recorded. */
	rvctr_perf_tmpl_init(&t, false, PERF_SAMPLE_BRANCH_KERNEL);
	n = ctr_copy(entries, cnt, ctr_hw_depth(), &t);
	if (!was_frozen)
		ctr_thaw();
	local_irq_restore(flags);
	return n;
}

/* ------------------------------------------------------------------ */
/* debugfs: raw snapshot of this CPU's CTR                             */

struct ctr_raw_snapshot {
	u64 status, ctl;
	unsigned int depth;
	struct rvctr_raw_entry e[RVCTR_DEPTH_MAX];
};

static void ctr_raw_read(struct ctr_raw_snapshot *s)
{
	unsigned long flags;
	unsigned int i;
	bool was_frozen;

	local_irq_save(flags);
	was_frozen = ctr_freeze();
	s->status = csr_read(RVCTR_CSR_SCTRSTATUS) & ~RVCTR_STATUS_FROZEN;
	if (was_frozen)
		s->status |= RVCTR_STATUS_FROZEN;
	s->ctl = csr_read(RVCTR_CSR_SCTRCTL);
	s->depth = ctr_hw_depth();
	for (i = 0; i < s->depth; i++)
		ctr_read_entry(i, &s->e[i]);
	if (!was_frozen)
		ctr_thaw();
	local_irq_restore(flags);
}

/* Format: Documentation/ctr.rst, "Raw snapshot". */
static int ctr_raw_show(struct seq_file *m, void *unused)
{
	struct ctr_raw_snapshot *s;
	unsigned int i;

	s = kmalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	ctr_raw_read(s);
	seq_printf(m, "sctrstatus 0x%llx depth %u sctrctl 0x%llx\n",
		   s->status, s->depth, s->ctl);
	for (i = 0; i < s->depth; i++)
		seq_printf(m, "%u 0x%llx 0x%llx 0x%llx\n", i, s->e[i].source,
			   s->e[i].target, s->e[i].data);
	kfree(s);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ctr_raw);

/*
 * Debug only: write an sctrctl value to program this CPU's CTR directly
 * (clears the buffer first; 0 stops).  The PMU overwrites it as soon as
 * a branch-stack event is scheduled here.
 */
static int ctr_ctl_set(void *data, u64 val)
{
	unsigned long flags;

	local_irq_save(flags);
	csr_write(RVCTR_CSR_SCTRCTL, 0);
	ctr_clear();
	ctr_thaw();
	csr_write(RVCTR_CSR_SCTRCTL, val);
	local_irq_restore(flags);
	return 0;
}

static int ctr_ctl_get(void *data, u64 *val)
{
	*val = csr_read(RVCTR_CSR_SCTRCTL);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(ctr_ctl_fops, ctr_ctl_get, ctr_ctl_set, "0x%llx\n");

/*
 * Debug/bench only: the instructions the sample path spends on a full
 * buffer at each depth.  That is ctr_copy(), the loop rvctr_ctr_sample()
 * runs.  It is set against the floor of four CSR accesses per entry
 * (siselect, then sireg, sireg2, sireg3) and a bare loop of just those
 * accesses.  Counted by a kernel-only instructions counter of this PMU
 * on the current CPU.  That is meaningful under QEMU -icount or on a
 * hart that counts retired instructions.  Best of CTR_COST_REPS runs; the
 * buffer is filled with valid records first.  Refused with -EBUSY on a
 * CPU where a branch-stack event is active (it would lose its buffer) or
 * where no counter is free.
 */
#define CTR_COST_REPS	16

struct ctr_cost {
	struct rvctr_ctr *ctr;
	struct rvctr_perf_tmpl tmpl;	/* built before measuring, as in steady state */
	struct perf_event *counter;
	struct perf_branch_entry *out;
	unsigned int enc;
	unsigned int n;		/* entries ctr_copy() returned */
	u64 res[3];		/* empty, copy, bare */
	int err;
};

/*
 * The counter's count now.  It is a CPU event of this PMU on this CPU, so
 * its read() runs here with interrupts off, as perf_event_read_local()
 * (not exported) would run it.
 */
static u64 ctr_cost_now(struct ctr_cost *c)
{
	struct perf_event *ev = c->counter;

	if (READ_ONCE(ev->state) != PERF_EVENT_STATE_ACTIVE ||
	    READ_ONCE(ev->oncpu) != smp_processor_id()) {
		c->err = -EBUSY;	/* not scheduled: no free counter */
		return 0;
	}
	ev->pmu->read(ev);
	return local64_read(&ev->count);
}

static u64 ctr_cost_bare(struct ctr_cost *c, unsigned int depth)
{
	struct rvctr_raw_entry e;
	unsigned int i;
	u64 t0;

	t0 = ctr_cost_now(c);
	for (i = 0; i < depth; i++)
		ctr_read_entry(i, &e);
	return ctr_cost_now(c) - t0;
}

static u64 ctr_cost_copy(struct ctr_cost *c, unsigned int depth)
{
	u64 t0;

	t0 = ctr_cost_now(c);
	c->n = ctr_copy(c->out, depth, depth, &c->tmpl);
	return ctr_cost_now(c) - t0;
}

/* Valid user-mode direct calls, all different. */
static void ctr_cost_fill(unsigned int depth)
{
	struct rvctr_raw_entry e;
	unsigned int i;

	for (i = 0; i < depth; i++) {
		e.source = (0x10000 + 8 * i) | RVCTR_SOURCE_V;
		e.target = 0x20000 + 8 * i;
		e.data = RVCTR_PREP(RVCTR_DATA_TYPE, RVCTR_TYPE_DIRCALL);
		ctr_write_entry(i, &e);
	}
}

/* One depth, on the counter's CPU, from an IPI: interrupts are off. */
static void ctr_cost_one(void *info)
{
	struct ctr_cost *c = info;
	unsigned int depth = RVCTR_DEPTH_MIN << c->enc, r;
	u64 old_depth;

	for (r = 0; r < ARRAY_SIZE(c->res); r++)
		c->res[r] = U64_MAX;
	if (csr_read(RVCTR_CSR_SCTRCTL)) {
		c->err = -EBUSY;
		return;
	}
	old_depth = csr_read(RVCTR_CSR_SCTRDEPTH);
	csr_write(RVCTR_CSR_SCTRDEPTH, c->enc);
	ctr_clear();
	ctr_cost_fill(depth);
	for (r = 0; r < CTR_COST_REPS; r++) {
		c->res[0] = min(c->res[0], ctr_cost_bare(c, 0));
		c->res[1] = min(c->res[1], ctr_cost_copy(c, depth));
		c->res[2] = min(c->res[2], ctr_cost_bare(c, depth));
	}
	ctr_clear();
	csr_write(RVCTR_CSR_SCTRDEPTH, old_depth);
}

static int ctr_cost_show(struct seq_file *m, void *v)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_INSTRUCTIONS,
		.size = sizeof(attr),
		.pinned = 1,
		.exclude_user = 1,
		.exclude_hv = 1,
	};
	struct ctr_cost c = { .ctr = m->private };
	unsigned long depths = c.ctr->hw.depths;
	int cpu = raw_smp_processor_id();
	u64 copy, floor;

	c.out = kcalloc(RVCTR_DEPTH_MAX, sizeof(*c.out), GFP_KERNEL);
	if (!c.out)
		return -ENOMEM;
	rvctr_perf_tmpl_init(&c.tmpl, c.ctr->hw.misp, PERF_SAMPLE_BRANCH_ANY |
			     PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL);
	c.counter = perf_event_create_kernel_counter(&attr, cpu, NULL, NULL,
						     NULL);
	if (IS_ERR(c.counter)) {
		kfree(c.out);
		return PTR_ERR(c.counter);
	}
	seq_printf(m, "cpu %d\ndepth entries copy bare floor copy/floor\n", cpu);
	for_each_set_bit(c.enc, &depths, RVCTR_DEPTH_ENC_MAX + 1) {
		smp_call_function_single(cpu, ctr_cost_one, &c, 1);
		if (c.err)
			break;
		copy = c.res[1] - c.res[0];
		floor = 4 * (RVCTR_DEPTH_MIN << c.enc);
		seq_printf(m, "%u %u %llu %llu %llu %llu.%02llu\n",
			   RVCTR_DEPTH_MIN << c.enc, c.n, copy,
			   c.res[2] - c.res[0], floor, div64_u64(copy, floor),
			   div64_u64(copy * 100, floor) % 100);
	}
	perf_event_release_kernel(c.counter);
	kfree(c.out);
	return c.err;
}
DEFINE_SHOW_ATTRIBUTE(ctr_cost);

static void rvctr_ctr_debugfs_init(struct rvctr_ctr *ctr)
{
	ctr->debugfs = debugfs_create_dir("rvctr", NULL);
	debugfs_create_file("ctr", 0400, ctr->debugfs, NULL, &ctr_raw_fops);
	debugfs_create_file_unsafe("sctrctl", 0600, ctr->debugfs, NULL,
				   &ctr_ctl_fops);
	debugfs_create_file("ctr_read_cost", 0400, ctr->debugfs, ctr,
			    &ctr_cost_fops);
}

/* ------------------------------------------------------------------ */
/* sysfs: caps/branches and ctr_depth                                   */

static ssize_t branches_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct rvctr_ctr *ctr = container_of(attr, struct dev_ext_attribute,
					     attr)->var;

	return sysfs_emit(buf, "%u\n", READ_ONCE(ctr->depth));
}

static ssize_t ctr_depth_store(struct device *dev,
			       struct device_attribute *attr,
			       const char *buf, size_t len)
{
	struct rvctr_ctr *ctr = container_of(attr, struct dev_ext_attribute,
					     attr)->var;
	unsigned int depth;
	int enc, ret;

	ret = kstrtouint(buf, 0, &depth);
	if (ret)
		return ret;
	enc = rvctr_depth_encode(depth);
	if (enc < 0 || !(ctr->hw.depths & BIT(enc)))
		return -EINVAL;
	/* Events opened from now on use it; open ones keep theirs. */
	WRITE_ONCE(ctr->depth, depth);
	return len;
}

/* Without CTR the PMU has no caps/branches: perf then skips LBR tests. */
static umode_t ctr_attr_visible(struct kobject *kobj, struct attribute *attr,
				int n)
{
	struct dev_ext_attribute *ea = container_of(attr, struct dev_ext_attribute,
						    attr.attr);
	struct rvctr_ctr *ctr = ea->var;

	return ctr->hw.depths ? attr->mode : 0;
}

static void rvctr_ctr_sysfs_init(struct rvctr_ctr *ctr)
{
	struct dev_ext_attribute *a;

	a = &ctr->branches_attr;
	sysfs_attr_init(&a->attr.attr);
	a->attr.attr.name = "branches";
	a->attr.attr.mode = 0444;
	a->attr.show = branches_show;
	a->var = ctr;
	ctr->caps_attrs[0] = &a->attr.attr;
	ctr->caps_group.name = "caps";
	ctr->caps_group.attrs = ctr->caps_attrs;
	ctr->caps_group.is_visible = ctr_attr_visible;

	a = &ctr->depth_attr;
	sysfs_attr_init(&a->attr.attr);
	a->attr.attr.name = "ctr_depth";
	a->attr.attr.mode = 0644;
	a->attr.show = branches_show;
	a->attr.store = ctr_depth_store;
	a->var = ctr;
	ctr->ctl_attrs[0] = &a->attr.attr;
	ctr->ctl_group.attrs = ctr->ctl_attrs;
	ctr->ctl_group.is_visible = ctr_attr_visible;
}

/* ------------------------------------------------------------------ */
/* probe                                                               */

/*
 * What this hart implements.  Each probe runs with interrupts off and no
 * branch-stack event on the hart (at load, or on a hart coming up), and
 * leaves CTR as it finds it with no event: sctrctl 0, the depth as it
 * was.
 */

/*
 * Supported depths: sctrdepth is WARL (CTR v1.0 "Supervisor Control
 * Transfer Records Depth Register"), so write each encoding and keep
 * those that read back unchanged.
 */
static unsigned int ctr_hart_depths(void)
{
	unsigned long old, enc;
	unsigned int found = 0;

	old = csr_read(RVCTR_CSR_SCTRDEPTH);
	for (enc = 0; enc <= RVCTR_DEPTH_ENC_MAX; enc++) {
		csr_write(RVCTR_CSR_SCTRDEPTH, enc);
		if (RVCTR_GET(RVCTR_DEPTH_FIELD,
			      csr_read(RVCTR_CSR_SCTRDEPTH)) == enc)
			found |= BIT(enc);
	}
	csr_write(RVCTR_CSR_SCTRDEPTH, old);
	return found;
}

/*
 * The sctrctl fields this hart keeps.  Every field but the mode enables
 * is optional, and read-only 0 where it is not implemented (CTR v1.0
 * "Control Transfer Records Control Register"), so set them all and read
 * back.  Only sctrctl's standard fields are written, never its reserved
 * (WPRI) or custom bits.  FROZEN is set first, so nothing is recorded
 * while the mode bits are on.
 */
static u64 ctr_hart_ctl(void)
{
	bool was_frozen = ctr_freeze();
	u64 ctl;

	csr_write(RVCTR_CSR_SCTRCTL, RVCTR_CTL_SFIELDS);
	ctl = csr_read(RVCTR_CSR_SCTRCTL) & RVCTR_CTL_SFIELDS;
	csr_write(RVCTR_CSR_SCTRCTL, 0);
	if (!was_frozen)
		ctr_thaw();
	return ctl;
}

/*
 * MISP is optional too: where it is not implemented ctrtarget bit 0 is
 * read-only 0 (CTR v1.0 "Entry Registers"), so try to set it.
 */
static bool ctr_hart_misp(void)
{
	bool misp;
	u64 old;

	csr_write(RVCTR_CSR_SISELECT, RVCTR_ISELECT_ENTRY0);
	old = csr_read(RVCTR_CSR_SIREG2);
	csr_write(RVCTR_CSR_SIREG2, old | RVCTR_TARGET_MISP);
	misp = csr_read(RVCTR_CSR_SIREG2) & RVCTR_TARGET_MISP;
	csr_write(RVCTR_CSR_SIREG2, old);
	return misp;
}

static void ctr_probe_hart(struct rvctr_ctr_hw *hw)
{
	hw->depths = ctr_hart_depths();
	hw->ctl = ctr_hart_ctl();
	hw->misp = ctr_hart_misp();
	/* Nothing the probes wrote stays for a BPF snapshot. */
	ctr_clear();
}

/* From an IPI: this hart, into what all harts so far have. */
static void ctr_probe_hart_ipi(void *info)
{
	struct rvctr_ctr_hw *all = info, hart;

	ctr_probe_hart(&hart);
	rvctr_ctr_hw_and(all, &hart);
}

/*
 * Every online hart; one that comes online later is checked against the
 * result by rvctr_ctr_cpu_starting().
 */
static int ctr_probe_harts(struct rvctr_ctr_hw *all)
{
	int cpu, ret = 0;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		ret = smp_call_function_single(cpu, ctr_probe_hart_ipi, all, 1);
		if (ret)
			break;
	}
	cpus_read_unlock();
	return ret;
}

static void ctr_warn_lacks(int cpu, const struct rvctr_ctr_hw *lack)
{
	u64 ctl = lack->ctl;
	unsigned int enc;
	char buf[256];
	int len = 0;

	for (; ctl; ctl &= ctl - 1)
		len += scnprintf(buf + len, sizeof(buf) - len, " sctrctl.%s",
				 rvctr_ctl_field_name(ctl));
	for (enc = 0; enc <= RVCTR_DEPTH_ENC_MAX; enc++)
		if (lack->depths & BIT(enc))
			len += scnprintf(buf + len, sizeof(buf) - len,
					 " depth %u", RVCTR_DEPTH_MIN << enc);
	if (lack->misp)
		len += scnprintf(buf + len, sizeof(buf) - len, " MISP");
	pr_warn("cpu%d lacks CTR features the PMU offers:%s\n", cpu, buf);
}

/**
 * rvctr_ctr_cpu_starting - check a hart coming up against what CTR offers
 * @ctr: the CTR state of the PMU, probed at load
 *
 * Call on the hart itself (a CPU hotplug callback run on that CPU), while
 * no branch-stack event is on it; it takes interrupts off itself, so any
 * context that cannot migrate will do.  It probes the hart's depths,
 * sctrctl fields and MISP as at load, leaves sctrctl 0, the depth as it
 * was and the buffer clear, and compares.  Every depth and field the PMU
 * offers must be there: events already open may hold any depth the
 * harts supported at load, and their filters rely on the fields.
 *
 * Return: 0, or -EOPNOTSUPP after a warning naming the CPU and what it
 * lacks.  Without CTR, 0 at once.
 */
int rvctr_ctr_cpu_starting(struct rvctr_ctr *ctr)
{
	struct rvctr_ctr_hw hart, lack;
	unsigned long flags;
	int cpu;

	if (!ctr->hw.depths)
		return 0;
	local_irq_save(flags);
	cpu = smp_processor_id();
	ctr_probe_hart(&hart);
	local_irq_restore(flags);
	if (!rvctr_ctr_hw_lacks(&hart, &ctr->hw, &lack))
		return 0;
	ctr_warn_lacks(cpu, &lack);
	return -EOPNOTSUPP;
}

/*
 * ctr_depth if every hart supports it, else the nearest below it, else
 * the smallest there is (a hart that only does 128 or 256 entries).
 */
static unsigned int ctr_pick_depth(unsigned int depths)
{
	unsigned int depth = rvctr_depth_pick(depths, ctr_depth);

	if (ctr_depth && depth != ctr_depth)
		pr_info("ctr_depth=%u not supported by every hart, using %u\n",
			ctr_depth, depth);
	return depth;
}

int rvctr_ctr_probe(struct rvctr_ctr *ctr, const struct rvctr_caps *caps,
		    struct pmu *pmu)
{
	int ret;

	rvctr_ctr_sysfs_init(ctr);
	/* The CSRs: Ssctr, and Sscsrind for the entries (CTR v1.0). */
	if (!rvctr_has(caps, RVCTR_EXT_SSCTR) ||
	    !rvctr_has(caps, RVCTR_EXT_SSCSRIND))
		return 0;
	ctr->hw = (struct rvctr_ctr_hw) {
		.ctl = RVCTR_CTL_SFIELDS,
		.depths = GENMASK(RVCTR_DEPTH_ENC_MAX, 0),
		.misp = 1,
	};
	ret = ctr_probe_harts(&ctr->hw);
	if (ret || !ctr->hw.depths) {
		ctr->hw = (struct rvctr_ctr_hw) { };
		return ret;
	}
	pr_info("CTR on every hart: sctrctl fields %#llx, MISP %s\n",
		ctr->hw.ctl, ctr->hw.misp ? "yes" : "no");
	ctr->depth = ctr_pick_depth(ctr->hw.depths);
	ctr->has_h = rvctr_has(caps, RVCTR_EXT_H);

	ctr->task_ctx_cache = kmem_cache_create("rvctr_ctr_task_ctx",
						sizeof(struct rvctr_ctr_task_ctx),
						0, 0, NULL);
	if (!ctr->task_ctx_cache)
		return -ENOMEM;
	pmu->task_ctx_cache = ctr->task_ctx_cache;
	/*
	 * Not static_call_update(perf_snapshot_branch_stack): BPF inlines
	 * that static call's target into each program at load, and the
	 * call would outlive this module (kernel/patches/).
	 */
	ret = perf_snapshot_branch_stack_register(rvctr_ctr_snapshot);
	if (ret)
		pr_warn("another driver provides bpf_get_branch_snapshot() (%d): branch stacks without it\n",
			ret);
	ctr->bpf_snapshot = !ret;
	rvctr_ctr_debugfs_init(ctr);
	return 0;
}

void rvctr_ctr_remove(struct rvctr_ctr *ctr, struct pmu *pmu)
{
	if (!ctr->hw.depths)
		return;
	/* Returns once no BPF program is still in rvctr_ctr_snapshot(). */
	if (ctr->bpf_snapshot)
		perf_snapshot_branch_stack_unregister(rvctr_ctr_snapshot);
	debugfs_remove_recursive(ctr->debugfs);
	pmu->task_ctx_cache = NULL;
	/*
	 * The perf core frees the save areas with call_rcu() (free_epc_rcu()
	 * up to 6.14, __free_perf_ctx_data_rcu() from 6.15), queued before
	 * the event drops its module reference, so the callbacks can still
	 * be pending here.  A grace period does not wait for callbacks:
	 * rcu_barrier() does.  Linux 7.3's kmem_cache_destroy() happens to
	 * call it too (kvfree_rcu_barrier_on_cache()); 6.12's only when a
	 * kfree_rcu() batch is pending.
	 */
	rcu_barrier();
	kmem_cache_destroy(ctr->task_ctx_cache);
}
