// SPDX-License-Identifier: GPL-2.0-only
/*
 * RISC-V Control Transfer Records (Smctr/Ssctr v1.0) as perf branch
 * stacks: the backend a RISC-V CPU PMU driver calls (riscv_ctr.h).
 *
 * One sctrctl value per CPU: the branch filter of an event is translated
 * once at event_init (riscv_ctr_rec.c) and kept in the event; add installs
 * it, pmu_enable writes it.  CTR freezes on the counter overflow interrupt
 * (LCOFIFRZ); the overflow handler copies the frozen buffer, newest first,
 * into the sample and unfreezes it.  At context switch the buffer is
 * cleared for task events, or saved and restored per task in call-stack
 * (RAS emulation) mode.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/build_bug.h>
#include <linux/cpu.h>
#include <linux/device.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/sysfs.h>
#include <linux/stringify.h>
#include <asm/asm-extable.h>
#include <asm/csr.h>
#include <asm/insn-def.h>

#include "riscv_ctr.h"
#include "riscv_ctr_rec.h"

static_assert((RISCV_CTR_BRANCH_ALLOWED | RISCV_CTR_BRANCH_EXCLUDED) ==
	      PERF_SAMPLE_BRANCH_MAX - 1);
static_assert(!(RISCV_CTR_BRANCH_ALLOWED & RISCV_CTR_BRANCH_EXCLUDED));

#define CTR_CONFIG3_NTBR	BIT_ULL(RISCV_CTR_CONFIG3_NTBR_BIT)
#define CTR_CONFIG3_BPFRZ	BIT_ULL(RISCV_CTR_CONFIG3_BPFRZ_BIT)

/* CTR of one CPU. */
struct riscv_ctr_cpu {
	u64 sctrctl;		/* of the branch-stack events added here */
	unsigned int sctrdepth;	/* their sctrdepth.DEPTH */
	unsigned int users;	/* branch-stack events added here */
	unsigned int task_users;	/* ... of which bound to a task */
	bool ok;		/* the hart has all of riscv_ctr.hw */
	struct riscv_ctr_tmpl tmpl;	/* of the last sample's filter */
	/*
	 * The sample's branch stack, last: perf_branch_stack ends in a
	 * flexible array, so the entries overlap it in a union, as
	 * TRAILING_OVERLAP() of newer kernels (not in 6.12) lays it out.
	 */
	union {
		struct perf_branch_stack bs;
		struct {
			u8 bs_head[offsetof(struct perf_branch_stack, entries)];
			struct perf_branch_entry entries[RISCV_CTR_DEPTH_MAX];
		};
	};
};

/*
 * CTR of one PMU.  @hw is what every hart implements, probed at
 * riscv_ctr_probe() and fixed from then on: a hart that comes up later
 * must have all of it (riscv_ctr_cpu_starting()).
 */
struct riscv_ctr {
	struct riscv_ctr_hw hw;
	unsigned int depth;	/* entries new events use (sysfs ctr_depth) */
	struct riscv_ctr_cpu __percpu *cpu;
	struct kmem_cache *task_ctx_cache;
	struct attribute_group caps_group;
	struct attribute_group depth_group;
	struct dev_ext_attribute branches_attr;
	struct dev_ext_attribute depth_attr;
	struct attribute *caps_attrs[2];
	struct attribute *depth_attrs[2];
};

/*
 * Per-task save area of the RAS-emulated call stack.  @e holds the task's
 * stack only if it was saved at the task's last switch-out: @valid says
 * it was saved at a switch-out the backend saw and has not been used yet,
 * @switches which switch-out that was (the task's nvcsw + nivcsw then),
 * for the switch-outs the backend does not see (no branch-stack event on
 * the CPU, so no sched_task callback).
 */
struct riscv_ctr_task_ctx {
	unsigned long switches;
	bool valid;
	unsigned int nr;
	struct riscv_ctr_raw e[RISCV_CTR_DEPTH_MAX];
};

/* Kept in the event from event_init on. */
#define ctr_event_sctrctl(event)	((event)->hw.branch_reg.config)
#define ctr_event_sctrdepth(event)	((event)->hw.branch_reg.idx)

static bool ctr_event_is_task(struct perf_event *event)
{
	return event->attach_state & PERF_ATTACH_TASK;
}

/* ---- registers ---- */

/* Zero every entry and the cycle counter (CTR v1.0 "Clear"). */
static inline void ctr_clear(void)
{
	asm volatile(SCTRCLR() ::: "memory");
}

/*
 * Logical entry @i (0 = newest, CTR v1.0 "Entry Registers"): siselect
 * selects, sireg/sireg2/sireg3 then read or write source/target/data
 * (Sscsrind).  Callers keep interrupts off, so nothing else reselects
 * between the write to siselect and the accesses.  csr_indirect_read()
 * would select and save the interrupt state once per register; an entry
 * is three registers behind one select, read up to 256 times per sample.
 */
static void ctr_read_entry(unsigned int i, struct riscv_ctr_raw *e)
{
	csr_write(CSR_SISELECT, CTR_ENTRIES_FIRST + i);
	e->source = csr_read(CSR_SIREG);
	e->target = csr_read(CSR_SIREG2);
	e->data = csr_read(CSR_SIREG3);
}

static void ctr_write_entry(unsigned int i, const struct riscv_ctr_raw *e)
{
	csr_write(CSR_SISELECT, CTR_ENTRIES_FIRST + i);
	csr_write(CSR_SIREG, e->source);
	csr_write(CSR_SIREG2, e->target);
	csr_write(CSR_SIREG3, e->data);
}

/*
 * Set FROZEN and return whether it already was.  Software may set FROZEN
 * to stop recording (CTR v1.0 "Freeze"); csrrs makes read and set one
 * access, so a hardware freeze in between cannot be lost.
 */
static bool ctr_freeze(void)
{
	return csr_read_set(CSR_SCTRSTATUS, SCTRSTATUS_FROZEN) &
	       SCTRSTATUS_FROZEN;
}

static void ctr_thaw(void)
{
	csr_clear(CSR_SCTRSTATUS, SCTRSTATUS_FROZEN);
}

/*
 * Copy the valid entries, newest first, into @out, as @t says; the source
 * is read first, and the first invalid one ends the copy.  Entries with a
 * kernel address are dropped unless the event may see the kernel
 * (riscv_ctr_fast(), as @t was built for the event's filter).
 */
static unsigned int ctr_copy(struct perf_branch_entry *__restrict out,
			     unsigned int cnt, unsigned int depth,
			     const struct riscv_ctr_tmpl *__restrict t)
{
	struct perf_branch_entry *pe = out, *end = out + cnt;
	unsigned long sel, last = CTR_ENTRIES_FIRST + depth;
	u64 source, target, data;

	for (sel = CTR_ENTRIES_FIRST; sel < last && pe < end; sel++) {
		csr_write(CSR_SISELECT, sel);
		source = csr_read(CSR_SIREG);
		if (!riscv_ctr_valid(source))
			break;
		target = csr_read(CSR_SIREG2);
		data = csr_read(CSR_SIREG3);
		if (riscv_ctr_fast(t, source, target, data, pe) == RISCV_CTR_OK)
			pe++;
	}
	return pe - out;
}

/* ---- event_init ---- */

/**
 * riscv_ctr_event_init - validate an event's branch stack request
 * @ctr: the CTR of the PMU, NULL without CTR
 * @event: any event of the PMU
 *
 * Translates attr.branch_sample_type and the config3 options into an
 * sctrctl value once, and keeps it in the event.  For a call stack it
 * sets PERF_ATTACH_TASK_DATA, so it must be the caller's last step that
 * can fail: when pmu->event_init fails, __free_event() detaches the
 * task's perf_ctx_data, which another event may still be using.
 *
 * Return: 0; -EINVAL for a reserved config3 bit, config3 options without
 * a branch stack (riscv_ctr_config_check()) or a filter of no privilege
 * mode; -EOPNOTSUPP for a branch stack CTR cannot give (no CTR, a filter
 * or a field the harts do not have, a CPU-wide call stack).
 */
int riscv_ctr_event_init(struct riscv_ctr *ctr, struct perf_event *event)
{
	u64 bst = event->attr.branch_sample_type;
	u64 cfg3 = event->attr.config3, opts = 0, sctrctl, missing;
	int ret;

	ret = riscv_ctr_config_check(event);
	if (ret) {
		pr_debug("config3 %#llx: reserved bits, or ctr_ntbr/ctr_bpfrz without a branch stack\n",
			 cfg3);
		return ret;
	}
	if (!has_branch_stack(event))
		return 0;
	if (!ctr)
		return -EOPNOTSUPP;
	if (cfg3 & CTR_CONFIG3_NTBR)
		opts |= RISCV_CTR_OPT_NTBR;
	if (cfg3 & CTR_CONFIG3_BPFRZ)
		opts |= RISCV_CTR_OPT_BPFRZ;

	ret = riscv_ctr_branch_filter(bst, opts, &sctrctl);
	if (ret) {
		pr_debug("branch_sample_type %#llx (config3 %#llx) not supported\n",
			 bst, cfg3);
		return ret == RISCV_CTR_ENOMODE ? -EINVAL : -EOPNOTSUPP;
	}
	/*
	 * A RAS-emulated call stack belongs to one task: it is saved at the
	 * task's switch-out and written back at its switch-in, in the save
	 * area perf allocates for task events (pmu->task_ctx_cache).  A
	 * CPU-wide event (perf record -a --call-graph lbr) has none, so its
	 * stack would take one task's returns off another's calls.
	 */
	if ((sctrctl & CTRCTL_RASEMU) && !ctr_event_is_task(event)) {
		pr_debug("call-stack mode (PERF_SAMPLE_BRANCH_CALL_STACK) needs a task: not CPU-wide\n");
		return -EOPNOTSUPP;
	}
	/*
	 * Fields the harts do not implement read as 0 and do nothing (CTR
	 * v1.0 makes all but the mode bits optional): without an inhibit
	 * bit the filter would record that type too, without RASEMU call
	 * stacks would be every transfer.  Refuse instead.
	 */
	missing = riscv_ctr_sctrctl_missing(sctrctl, &ctr->hw);
	if (missing) {
		pr_debug("branch_sample_type %#llx (config3 %#llx) needs sctrctl.%s, which not every hart implements\n",
			 bst, cfg3, riscv_ctr_field_name(missing));
		return -EOPNOTSUPP;
	}
	ctr_event_sctrctl(event) = sctrctl;
	ctr_event_sctrdepth(event) = riscv_ctr_depth_encode(READ_ONCE(ctr->depth));

	/* Call stacks follow their task: perf allocates the save area. */
	if (sctrctl & CTRCTL_RASEMU)
		event->attach_state |= PERF_ATTACH_TASK_DATA;
	return 0;
}

/* ---- add/del, enable/disable ---- */

/**
 * riscv_ctr_add - a branch-stack event joins this CPU
 * @ctr: the CTR of the PMU, NULL without CTR
 * @event: any event being added (pmu->add, the PMU disabled)
 *
 * All branch-stack events on a CPU share sctrctl: one with another filter
 * or depth waits until the first ones are gone (perf rotates it in).
 * Users are counted here and in riscv_ctr_del(), which perf calls in
 * pairs, never in start/stop, which it also calls for throttling and
 * period changes.
 *
 * Return: 0, or -EBUSY / -EAGAIN when the event cannot run here now.
 */
int riscv_ctr_add(struct riscv_ctr *ctr, struct perf_event *event)
{
	struct riscv_ctr_cpu *cc;

	if (!ctr || !has_branch_stack(event))
		return 0;
	cc = this_cpu_ptr(ctr->cpu);
	/* A hart without every CTR feature: riscv_ctr_cpu_starting(). */
	if (!cc->ok)
		return -EAGAIN;
	if (cc->users && (cc->sctrctl != ctr_event_sctrctl(event) ||
			  cc->sctrdepth != ctr_event_sctrdepth(event)))
		return -EBUSY;
	if (!cc->users) {
		cc->sctrctl = ctr_event_sctrctl(event);
		cc->sctrdepth = ctr_event_sctrdepth(event);
		/*
		 * The PMU is disabled, so sctrctl is 0: the depth may
		 * change, and the buffer of whoever used CTR last is
		 * cleared before anything is recorded for this event.
		 */
		csr_write(CSR_SCTRDEPTH, cc->sctrdepth);
		ctr_clear();
		ctr_thaw();
	} else if (ctr_event_is_task(event) && !cc->task_users) {
		/*
		 * The first task event joins CPU-wide ones.  They keep the
		 * buffer across context switches, so it still holds what
		 * the tasks before this one did; from here on the switches
		 * clear it (riscv_ctr_sched_task()).
		 */
		ctr_clear();
	}
	cc->users++;
	if (ctr_event_is_task(event))
		cc->task_users++;
	perf_sched_cb_inc(event->pmu);
	return 0;
}

/**
 * riscv_ctr_del - a branch-stack event leaves this CPU
 * @ctr: the CTR of the PMU, NULL without CTR
 * @event: any event being deleted (pmu->del), whose add succeeded
 */
void riscv_ctr_del(struct riscv_ctr *ctr, struct perf_event *event)
{
	struct riscv_ctr_cpu *cc;

	if (!ctr || !has_branch_stack(event))
		return;
	cc = this_cpu_ptr(ctr->cpu);
	perf_sched_cb_dec(event->pmu);
	if (ctr_event_is_task(event))
		cc->task_users--;
	if (!--cc->users) {
		cc->sctrctl = 0;
		csr_write(CSR_SCTRCTL, 0);
		/* Nothing of the last user stays for a BPF snapshot. */
		ctr_clear();
	}
}

/**
 * riscv_ctr_enable - start recording for the events added here
 * @ctr: the CTR of the PMU, NULL without CTR
 *
 * sctrctl is written only here: with no mode bit set nothing is recorded
 * (CTR v1.0 "Privilege Mode Transitions"), so riscv_ctr_disable() is one
 * write.
 */
void riscv_ctr_enable(struct riscv_ctr *ctr)
{
	struct riscv_ctr_cpu *cc;

	if (!ctr)
		return;
	cc = this_cpu_ptr(ctr->cpu);
	if (cc->users)
		csr_write(CSR_SCTRCTL, cc->sctrctl);
}

void riscv_ctr_disable(struct riscv_ctr *ctr)
{
	if (ctr && this_cpu_ptr(ctr->cpu)->users)
		csr_write(CSR_SCTRCTL, 0);
}

/**
 * riscv_ctr_pm_exit - CTR after a non-retentive idle state
 * @ctr: the CTR of the PMU, NULL without CTR
 *
 * sctrdepth and the buffer are lost.  The buffer starts empty, as after a
 * task switch; riscv_ctr_enable() writes sctrctl back.
 */
void riscv_ctr_pm_exit(struct riscv_ctr *ctr)
{
	struct riscv_ctr_cpu *cc;

	if (!ctr)
		return;
	cc = this_cpu_ptr(ctr->cpu);
	if (!cc->users)
		return;
	csr_write(CSR_SCTRCTL, 0);
	csr_write(CSR_SCTRDEPTH, cc->sctrdepth);
	ctr_clear();
	ctr_thaw();
}

/* ---- the sample ---- */

/**
 * riscv_ctr_sample - put the branch stack into an overflow's sample
 * @ctr: the CTR of the PMU, NULL without CTR
 * @event: the overflowed event, with a branch stack
 * @data: its sample, before perf_event_overflow()
 *
 * Interrupts are off.  LCOFIFRZ froze CTR when the interrupt was taken,
 * so entry 0 is the last transfer before the sampled instruction; freeze
 * here too in case the overflow was seen without a trap (CTR v1.0
 * "Freeze": only an LCOFI trap freezes).  The record template of the
 * CPU is rebuilt only when the options of the filter that change a
 * record do.
 *
 * siselect is put back as it was found.  Sscsrind has one siselect per
 * privilege level, shared by every user of the indirect CSR window
 * (CTR entries, AIA's IMSIC, counter delegation), and each sets it and
 * then accesses sireg*, with interrupts off.  That keeps an ordinary
 * interrupt handler out of the sequence, but not an overflow delivered
 * as an SBI Supervisor Software Event (SSE), which is taken like an NMI,
 * with interrupts off or not.  Such a handler may land between the
 * interrupted code's siselect write and its sireg* accesses; as it
 * leaves siselect holding that code's value, and only reads the
 * registers it selects, the interrupted accesses reach the registers
 * they selected.  Saving costs one CSR read per sample.
 */
void riscv_ctr_sample(struct riscv_ctr *ctr, struct perf_event *event,
		      struct perf_sample_data *data)
{
	u64 bst = event->attr.branch_sample_type, wrptr;
	unsigned long siselect;
	struct riscv_ctr_cpu *cc;
	unsigned int depth;

	if (!ctr)
		return;
	cc = this_cpu_ptr(ctr->cpu);
	if (!cc->users)
		return;
	depth = riscv_ctr_depth_entries(cc->sctrdepth);
	ctr_freeze();
	if (unlikely(cc->tmpl.key != riscv_ctr_tmpl_key(ctr->hw.misp, bst)))
		riscv_ctr_tmpl_init(&cc->tmpl, ctr->hw.misp, bst);
	wrptr = csr_read(CSR_SCTRSTATUS) & SCTRSTATUS_WRPTR_MASK;
	siselect = csr_read(CSR_SISELECT);
	cc->bs.nr = ctr_copy(cc->entries, depth, depth, &cc->tmpl);
	csr_write(CSR_SISELECT, siselect);
	/* Physical index of the newest entry: WRPTR is the next to write. */
	cc->bs.hw_idx = (wrptr + depth - 1) & (depth - 1);
	perf_sample_save_brstack(data, event, &cc->bs, NULL);
}

/* Resume recording once every overflowed event has its sample. */
void riscv_ctr_unfreeze(struct riscv_ctr *ctr)
{
	if (ctr && this_cpu_ptr(ctr->cpu)->users)
		ctr_thaw();
}

/**
 * riscv_ctr_spurious - an overflow interrupt that found no overflow
 * @ctr: the CTR of the PMU, NULL without CTR
 *
 * A counter overflowed with interrupts off and its event was removed
 * before they came back on.  LCOFIFRZ froze CTR when the trap was taken
 * all the same (CTR v1.0 "Freeze"), and no sample follows to thaw it:
 * resume here, or the next sample would show the buffer as of this
 * interrupt.  Except with BPFRZ, whose freeze must last until the next
 * sample shows the path to the breakpoint: FROZEN may be a breakpoint's,
 * and one bit cannot tell it from this interrupt's.
 */
void riscv_ctr_spurious(struct riscv_ctr *ctr)
{
	struct riscv_ctr_cpu *cc;

	if (!ctr)
		return;
	cc = this_cpu_ptr(ctr->cpu);
	if (cc->users && !(cc->sctrctl & CTRCTL_BPFRZ))
		ctr_thaw();
}

/* ---- context switch ---- */

static void ctr_save(struct riscv_ctr_task_ctx *tc, unsigned int depth)
{
	unsigned int i;

	for (i = 0; i < depth; i++) {
		ctr_read_entry(i, &tc->e[i]);
		if (!riscv_ctr_valid(tc->e[i].source))
			break;
	}
	tc->nr = i;
}

/*
 * Entries are writable (CTR v1.0 "Entry Registers": WARL) so that a
 * call stack can be put back; logical index i is relative to WRPTR, so
 * after SCTRCLR the stack reads back as it was saved.
 */
static void ctr_restore(const struct riscv_ctr_task_ctx *tc,
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

/**
 * riscv_ctr_sched_task - pmu->sched_task
 * @ctr: the CTR of the PMU, NULL without CTR
 * @task_ctx: @task's save area from pmu->task_ctx_cache, or NULL
 * @task: the task switched in or out
 * @sched_in: switched in
 *
 * The PMU is disabled (sctrctl is 0), so nothing is recorded while the
 * buffer is saved, cleared or restored.  Task events must not see what
 * another task did: the buffer is cleared at both switches, or, for call
 * stacks, saved at switch-out and restored at switch-in.  Per-CPU events
 * alone keep the buffer across switches.
 *
 * A call stack is restored only if it was saved at the task's last
 * switch-out, i.e. its call-stack event was recording up to then.  If the
 * event was rotated out, or could not be scheduled beside events with
 * another filter, the task ran on without it being recorded, and an older
 * stack written back would be a stack the task has left: the event starts
 * empty instead, as when it is first scheduled in.
 */
void riscv_ctr_sched_task(struct riscv_ctr *ctr, void *task_ctx,
			  struct task_struct *task, bool sched_in)
{
	struct riscv_ctr_task_ctx *tc = task_ctx;
	struct riscv_ctr_cpu *cc;
	unsigned int depth;
	bool call_stack;

	if (!ctr)
		return;
	cc = this_cpu_ptr(ctr->cpu);
	depth = riscv_ctr_depth_entries(cc->sctrdepth);
	call_stack = cc->task_users && (cc->sctrctl & CTRCTL_RASEMU);
	if (!task)
		tc = NULL;

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

/* ---- bpf_get_branch_snapshot() ---- */

/**
 * riscv_ctr_snapshot - the perf_snapshot_branch_stack static call
 * @entries: where to put the entries, newest first
 * @cnt: room in @entries
 *
 * Freezes first, so the BPF program's own path does not displace what it
 * asked for, copies, then puts FROZEN back as it was.  It uses only CSRs,
 * so it needs no pointer to backend state.  The buffer holds only what
 * the current branch-stack events may see: it is cleared when the last
 * one leaves the CPU and at task switches.  MISP is not reported here.
 *
 * Return: the number of entries copied.
 */
int riscv_ctr_snapshot(struct perf_branch_entry *entries, unsigned int cnt)
{
	unsigned long flags, siselect;
	struct riscv_ctr_tmpl t;
	unsigned int n;
	bool was_frozen;

	local_irq_save(flags);
	was_frozen = ctr_freeze();
	/* Built while frozen, so its own branches are not recorded. */
	riscv_ctr_tmpl_init(&t, false, PERF_SAMPLE_BRANCH_KERNEL);
	/* As riscv_ctr_sample(): a BPF program may run in NMI-like context. */
	siselect = csr_read(CSR_SISELECT);
	n = ctr_copy(entries, cnt,
		     riscv_ctr_depth_decode(csr_read(CSR_SCTRDEPTH)), &t);
	csr_write(CSR_SISELECT, siselect);
	if (!was_frozen)
		ctr_thaw();
	local_irq_restore(flags);
	return n;
}

/* ---- sysfs: caps/branches and ctr_depth ---- */

static struct riscv_ctr *ctr_of_attr(struct device_attribute *attr)
{
	return container_of(attr, struct dev_ext_attribute, attr)->var;
}

static ssize_t branches_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(ctr_of_attr(attr)->depth));
}

static ssize_t ctr_depth_store(struct device *dev,
			       struct device_attribute *attr,
			       const char *buf, size_t len)
{
	struct riscv_ctr *ctr = ctr_of_attr(attr);
	unsigned int depth;
	int enc, ret;

	ret = kstrtouint(buf, 0, &depth);
	if (ret)
		return ret;
	enc = riscv_ctr_depth_encode(depth);
	if (enc < 0 || !(ctr->hw.depths & BIT(enc)))
		return -EINVAL;
	/* Events opened from now on use it; open ones keep theirs. */
	WRITE_ONCE(ctr->depth, depth);
	return len;
}

static void ctr_sysfs_init(struct riscv_ctr *ctr)
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

	a = &ctr->depth_attr;
	sysfs_attr_init(&a->attr.attr);
	a->attr.attr.name = "ctr_depth";
	a->attr.attr.mode = 0644;
	a->attr.show = branches_show;
	a->attr.store = ctr_depth_store;
	a->var = ctr;
	ctr->depth_attrs[0] = &a->attr.attr;
	ctr->depth_group.attrs = ctr->depth_attrs;
}

/**
 * riscv_ctr_caps_group - caps/branches: the depth new events use
 * @ctr: the CTR of the PMU, NULL without CTR
 *
 * User space learns from caps/branches that the PMU records branch
 * stacks, and how deep; perf keeps it in perf.data (HEADER_PMU_CAPS).
 *
 * Return: the group to put into pmu->attr_groups, NULL without CTR.
 */
const struct attribute_group *riscv_ctr_caps_group(struct riscv_ctr *ctr)
{
	return ctr ? &ctr->caps_group : NULL;
}

/**
 * riscv_ctr_depth_group - ctr_depth: read and set the depth new events use
 * @ctr: the CTR of the PMU, NULL without CTR
 *
 * Return: the group to put into pmu->attr_groups, NULL without CTR.
 */
const struct attribute_group *riscv_ctr_depth_group(struct riscv_ctr *ctr)
{
	return ctr ? &ctr->depth_group : NULL;
}

/* ---- probe ---- */

/*
 * What this hart implements.  Each probe runs with interrupts off and no
 * branch-stack event on the hart (at probe, or on a hart coming up), and
 * leaves CTR as it finds it with no event: sctrctl 0, the depth as it
 * was, the buffer clear.
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

	old = csr_read(CSR_SCTRDEPTH);
	for (enc = SCTRDEPTH_MIN; enc <= SCTRDEPTH_MAX; enc++) {
		csr_write(CSR_SCTRDEPTH, enc);
		if ((csr_read(CSR_SCTRDEPTH) & SCTRDEPTH_MASK) == enc)
			found |= BIT(enc);
	}
	csr_write(CSR_SCTRDEPTH, old);
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
static u64 ctr_hart_sctrctl(void)
{
	bool was_frozen = ctr_freeze();
	u64 sctrctl;

	csr_write(CSR_SCTRCTL, RISCV_CTR_SCTRCTL_FIELDS);
	sctrctl = csr_read(CSR_SCTRCTL) & RISCV_CTR_SCTRCTL_FIELDS;
	csr_write(CSR_SCTRCTL, 0);
	if (!was_frozen)
		ctr_thaw();
	return sctrctl;
}

/*
 * MISP is optional too: where it is not implemented ctrtarget bit 0 is
 * read-only 0 (CTR v1.0 "Entry Registers"), so try to set it.
 */
static bool ctr_hart_misp(void)
{
	bool misp;
	u64 old;

	csr_write(CSR_SISELECT, CTR_ENTRIES_FIRST);
	old = csr_read(CSR_SIREG2);
	csr_write(CSR_SIREG2, old | CTRTARGET_MISP);
	misp = csr_read(CSR_SIREG2) & CTRTARGET_MISP;
	csr_write(CSR_SIREG2, old);
	return misp;
}

/*
 * Can S-mode reach CTR on this hart?  With Smstateen, M-mode grants it
 * with mstateen0.CTR (bit 54, CTR v1.0 "State Enable Access Control"):
 * while the bit is clear every S-mode access to a CTR CSR raises an
 * illegal-instruction exception, though the hart lists Ssctr.  Firmware
 * that predates CTR leaves it clear (OpenSBI sets it from v1.7).  So the
 * first access goes through the exception table, which the kernel's
 * illegal-instruction handler consults before it dies
 * (do_trap_insn_illegal(), fixup_exception()).
 */
static bool ctr_hart_accessible(void)
{
	unsigned long ok;

	/* A trap at 1 goes on at 2, with ok still 0. */
	asm volatile("	li	%0, 0\n"
		     "1:	csrr	zero, " __stringify(CSR_SCTRDEPTH) "\n"
		     "	li	%0, 1\n"
		     "2:\n"
		     _ASM_EXTABLE(1b, 2b)
		     : "=&r" (ok) : : "memory");
	return ok;
}

static void ctr_probe_hart(struct riscv_ctr_hw *hw)
{
	hw->depths = ctr_hart_depths();
	hw->sctrctl = ctr_hart_sctrctl();
	hw->misp = ctr_hart_misp();
	/* Nothing the probes wrote stays for a BPF snapshot. */
	ctr_clear();
}

/* From an IPI: this hart, into what all harts so far have. */
static void ctr_probe_hart_ipi(void *info)
{
	struct riscv_ctr *ctr = info;
	struct riscv_ctr_hw hart;

	if (!ctr_hart_accessible())
		return;		/* ->ok stays false */
	ctr_probe_hart(&hart);
	riscv_ctr_hw_and(&ctr->hw, &hart);
	this_cpu_ptr(ctr->cpu)->ok = true;
}

/*
 * Every online hart; one that comes online later is checked against the
 * result by riscv_ctr_cpu_starting().
 */
static int ctr_probe_harts(struct riscv_ctr *ctr)
{
	int cpu, ret = 0;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		ret = smp_call_function_single(cpu, ctr_probe_hart_ipi, ctr, 1);
		if (ret)
			break;
		if (!per_cpu_ptr(ctr->cpu, cpu)->ok) {
			pr_warn("cpu%d: CTR CSRs trap: the firmware has not enabled CTR for S-mode (mstateen0.CTR): no branch stacks\n",
				cpu);
			ret = -EACCES;
			break;
		}
	}
	cpus_read_unlock();
	return ret;
}

static void ctr_warn_lacks(int cpu, const struct riscv_ctr_hw *lack)
{
	u64 sctrctl = lack->sctrctl;
	unsigned int enc;
	char buf[256];
	int len = 0;

	for (; sctrctl; sctrctl &= sctrctl - 1)
		len += scnprintf(buf + len, sizeof(buf) - len, " sctrctl.%s",
				 riscv_ctr_field_name(sctrctl));
	for (enc = SCTRDEPTH_MIN; enc <= SCTRDEPTH_MAX; enc++)
		if (lack->depths & BIT(enc))
			len += scnprintf(buf + len, sizeof(buf) - len, " depth %u",
					 riscv_ctr_depth_entries(enc));
	if (lack->misp)
		len += scnprintf(buf + len, sizeof(buf) - len, " MISP");
	pr_warn("cpu%d lacks CTR features the PMU offers:%s\n", cpu, buf);
}

/**
 * riscv_ctr_cpu_starting - check a hart coming up against what CTR offers
 * @ctr: the CTR of the PMU, NULL without CTR
 *
 * Call on the hart itself (a CPU hotplug callback run on that CPU), while
 * no branch-stack event is on it; it takes interrupts off itself, so any
 * context that cannot migrate will do.  It probes the hart's depths,
 * sctrctl fields and MISP as riscv_ctr_probe() did, leaves sctrctl 0, the
 * depth as it was and the buffer clear, and compares.  Every depth and
 * field the PMU offers must be there: events already open may hold any
 * depth the harts supported at probe, and their filters rely on the
 * fields.  A hart that lacks any is marked so: riscv_ctr_add() refuses
 * branch-stack events on it, and a warning names the CPU and what it
 * lacks.  Nothing fails: a CPUHP STARTING callback cannot stop the hart
 * from coming up (notify_cpu_starting() only logs an error), and an error
 * from it would make cpuhp_state_add_instance() fail the PMU's probe.
 */
void riscv_ctr_cpu_starting(struct riscv_ctr *ctr)
{
	struct riscv_ctr_hw hart, lack;
	unsigned long flags;
	bool lacks;
	int cpu;

	if (!ctr)
		return;
	local_irq_save(flags);
	cpu = smp_processor_id();
	if (!ctr_hart_accessible()) {
		this_cpu_ptr(ctr->cpu)->ok = false;
		local_irq_restore(flags);
		pr_warn("cpu%d: CTR CSRs trap: the firmware has not enabled CTR for S-mode (mstateen0.CTR)\n",
			cpu);
		return;
	}
	ctr_probe_hart(&hart);
	lacks = riscv_ctr_hw_lacks(&hart, &ctr->hw, &lack);
	this_cpu_ptr(ctr->cpu)->ok = !lacks;
	local_irq_restore(flags);
	if (lacks)
		ctr_warn_lacks(cpu, &lack);
}

static void ctr_report(const struct riscv_ctr *ctr)
{
	unsigned long depths = ctr->hw.depths;
	unsigned int enc;
	char buf[64];
	int len = 0;

	for_each_set_bit(enc, &depths, SCTRDEPTH_MAX + 1)
		len += scnprintf(buf + len, sizeof(buf) - len, " %u",
				 riscv_ctr_depth_entries(enc));
	pr_info("CTR depths:%s\n", buf);
	pr_info("CTR on every hart: sctrctl fields %#llx, MISP %s, %u entries per sample\n",
		ctr->hw.sctrctl, ctr->hw.misp ? "yes" : "no", ctr->depth);
}

/**
 * riscv_ctr_probe - find what CTR every online hart implements
 * @pmu: the CPU PMU, set up but not registered yet
 * @depth: entries per sample wanted; 0 for the largest
 *
 * The caller has checked that every hart has Ssctr and Sscsrind.  The
 * depth used is @depth if every hart supports it, else the nearest below
 * it, else the smallest there is; sysfs ctr_depth changes it later.  Sets
 * @pmu->task_ctx_cache, for call-stack events.
 *
 * Return: the CTR of @pmu; NULL if the harts have no depth in common or
 * a hart cannot reach its CTR CSRs (branch stacks are then refused, the
 * counters work as without CTR); an ERR_PTR() on failure.
 */
struct riscv_ctr *riscv_ctr_probe(struct pmu *pmu, unsigned int depth)
{
	struct riscv_ctr *ctr;
	int ret = -ENOMEM;

	ctr = kzalloc_obj(*ctr);
	if (!ctr)
		return ERR_PTR(-ENOMEM);
	ctr->cpu = alloc_percpu(struct riscv_ctr_cpu);
	if (!ctr->cpu)
		goto err_free;
	ctr->hw = (struct riscv_ctr_hw) {
		.sctrctl = RISCV_CTR_SCTRCTL_FIELDS,
		.depths = GENMASK(SCTRDEPTH_MAX, SCTRDEPTH_MIN),
		.misp = true,
	};
	ret = ctr_probe_harts(ctr);
	if (ret && ret != -EACCES)
		goto err_percpu;
	if (ret || !ctr->hw.depths) {
		if (!ret)
			pr_warn("the harts have no CTR depth in common: no branch stacks\n");
		free_percpu(ctr->cpu);
		kfree(ctr);
		return NULL;
	}
	ctr->depth = riscv_ctr_depth_pick(ctr->hw.depths, depth);
	if (depth && ctr->depth != depth)
		pr_info("CTR depth %u not supported by every hart, using %u\n",
			depth, ctr->depth);

	ret = -ENOMEM;
	ctr->task_ctx_cache = kmem_cache_create("riscv_ctr_task_ctx",
						sizeof(struct riscv_ctr_task_ctx),
						0, 0, NULL);
	if (!ctr->task_ctx_cache)
		goto err_percpu;
	pmu->task_ctx_cache = ctr->task_ctx_cache;
	ctr_sysfs_init(ctr);
	ctr_report(ctr);
	return ctr;

err_percpu:
	free_percpu(ctr->cpu);
err_free:
	kfree(ctr);
	return ERR_PTR(ret);
}

/**
 * riscv_ctr_remove - undo riscv_ctr_probe()
 * @ctr: the CTR of the PMU, NULL without CTR
 * @pmu: the CPU PMU, unregistered, with riscv_ctr_snapshot() no longer
 *	 installed
 */
void riscv_ctr_remove(struct riscv_ctr *ctr, struct pmu *pmu)
{
	if (!ctr)
		return;
	pmu->task_ctx_cache = NULL;
	/*
	 * The perf core frees the save areas with call_rcu(), so callbacks
	 * can still be pending here.  A grace period does not wait for
	 * callbacks: rcu_barrier() does.
	 */
	rcu_barrier();
	kmem_cache_destroy(ctr->task_ctx_cache);
	free_percpu(ctr->cpu);
	kfree(ctr);
}
