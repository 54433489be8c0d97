// SPDX-License-Identifier: GPL-2.0-only
/*
 * RISC-V Control Transfer Records (Smctr/Ssctr v1.0) as perf branch
 * stacks: the backend a RISC-V CPU PMU driver calls (riscv_ctr.h).
 *
 * One sctrctl value per CPU: the branch filter of an event is translated
 * once at event_init (riscv_ctr_rec.c) and kept in the event; add installs
 * it, pmu_enable writes it.  The depth is programmed once per hart, at
 * probe and when the hart comes up.  CTR freezes on the counter overflow
 * interrupt (LCOFIFRZ); the overflow handler copies the frozen buffer,
 * newest first, into the sample and unfreezes it.  At every switch-in the
 * buffer is cleared, for CPU-wide and task events alike; in call-stack
 * (RAS emulation) mode a task's stack is saved at its switch-out and
 * written back at its switch-in.
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

/*
 * CTR of one CPU.  @bs is last: riscv_ctr_probe() allocates room for
 * riscv_ctr.depth entries behind it.
 */
struct riscv_ctr_cpu {
	u64 sctrctl;		/* of the branch-stack events added here */
	unsigned int users;	/* branch-stack events added here */
	bool ok;		/* the hart has all of riscv_ctr.hw */
	bool no_freeze;		/* this interrupt's trap did not freeze CTR */
	struct riscv_ctr_tmpl tmpl;	/* of the last sample's filter */
	struct perf_branch_stack bs;
};

/*
 * CTR of one PMU.  @hw is what every hart implements, probed at
 * riscv_ctr_probe() and fixed from then on: a hart that comes up later
 * must have all of it (riscv_ctr_cpu_starting()).
 */
struct riscv_ctr {
	struct riscv_ctr_hw hw;
	unsigned int depth;	/* entries of every hart's buffer */
	unsigned int sctrdepth;	/* its sctrdepth.DEPTH */
	bool has_h;		/* vsctrctl exists (the H extension) */
	int denied_cpu;		/* at probe, the first hart whose CTR traps */
	struct riscv_ctr_cpu __percpu *cpu;
	struct kmem_cache *task_ctx_cache;
	struct attribute_group caps_group;
	struct dev_ext_attribute branches_attr;
	struct attribute *caps_attrs[2];
};

/*
 * Per-task save area of the RAS-emulated call stack.  @e holds the task's
 * stack only if it was saved at the task's last switch-out: @valid says
 * it was saved at a switch-out the backend saw and has not been used yet,
 * @switches which switch-out that was (the task's nvcsw + nivcsw then),
 * for the switch-outs the backend does not see (no branch-stack event on
 * the CPU, so no sched_task callback).  @sctrctl is the filter it was
 * recorded under: x86 saves lbr_sel with its stack and writes both back,
 * but sctrctl is the CPU's, shared by every branch event on it, so a
 * stack recorded under another filter is dropped instead.
 */
struct riscv_ctr_task_ctx {
	unsigned long switches;
	u64 sctrctl;
	bool valid;
	unsigned int nr;
	struct riscv_ctr_raw e[];	/* riscv_ctr.depth of them */
};

/* Kept in the event from event_init on. */
#define ctr_event_sctrctl(event)	((event)->hw.branch_reg.config)

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
 * Set up a hart without events, once: at probe, when it comes up, after
 * a non-retentive idle state.  sctrdepth is written only here, so the
 * buffer keeps one size for as long as the PMU is there; a guest may
 * not change it (a VS-mode sctrdepth access traps, CTR v1.0).  vsctrctl
 * is zeroed so that nothing is recorded in VS or VU mode.  With
 * Smstateen, KVM leaves hstateen0.CTR clear, so a guest cannot reach
 * CTR until KVM supports it; without Smstateen nothing gates a guest's
 * sctrctl (vsctrctl) and entry accesses, which reach the host's buffer.
 */
static void ctr_setup_hart(const struct riscv_ctr *ctr)
{
	csr_write(CSR_SCTRDEPTH, ctr->sctrdepth);
	if (ctr->has_h)
		csr_write(CSR_VSCTRCTL, 0);
	ctr_clear();
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

/*
 * A group is scheduled all at once, and a CPU has one sctrctl: a group
 * whose branch-stack members ask for different filters could never run
 * (pinned, it would go to the error state).  Refuse it at open, as x86
 * refuses a group whose LBR filters conflict (its group validation
 * schedules the group on a fake CPU, where LBR_SELECT is a shared
 * register).  Independent events with different filters are not
 * refused: riscv_ctr_add() turns the later ones away, and perf rotates
 * them in.
 */
static bool ctr_group_conflicts(struct perf_event *event, u64 sctrctl)
{
	struct perf_event *leader = event->group_leader, *sibling;

	/*
	 * A new leader has no siblings yet, and no context either:
	 * for_each_sibling_event() would assert a lock of a NULL ctx (as in
	 * arm_pmu's validate_group(), the leader itself returns early).
	 */
	if (leader == event)
		return false;
	if (leader->pmu == event->pmu &&
	    has_branch_stack(leader) && ctr_event_sctrctl(leader) != sctrctl)
		return true;
	for_each_sibling_event(sibling, leader)
		if (sibling->pmu == event->pmu && has_branch_stack(sibling) &&
		    ctr_event_sctrctl(sibling) != sctrctl)
			return true;
	return false;
}

/**
 * riscv_ctr_event_init - validate an event's branch stack request
 * @ctr: the CTR of the PMU, NULL without CTR
 * @event: any event of the PMU
 *
 * Translates attr.branch_sample_type and the config3 options into an
 * sctrctl value once, and keeps it in the event.  The caller has checked
 * config3 with riscv_ctr_config_check() first.  For a call stack it
 * sets PERF_ATTACH_TASK_DATA, so it must be the caller's last step that
 * can fail: when pmu->event_init fails, __free_event() detaches the
 * task's perf_ctx_data, which another event may still be using.
 *
 * Return: 0; -EINVAL for a filter of no privilege mode, ctr_bpfrz on a
 * counting event, or a group whose members ask for different branch
 * filters; -EOPNOTSUPP for a branch stack CTR cannot give (no CTR, a
 * filter or a field the harts do not have).
 */
int riscv_ctr_event_init(struct riscv_ctr *ctr, struct perf_event *event)
{
	u64 bst = event->attr.branch_sample_type;
	u64 cfg3 = event->attr.config3, opts = 0, sctrctl, missing;
	int ret;

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
	 * A breakpoint's freeze (BPFRZ) lasts until the next sample thaws
	 * CTR (riscv_ctr_unfreeze()).  A counting event takes no sample, so
	 * its freeze would last for good, and every later sample and
	 * bpf_get_branch_snapshot() on the hart would show the same stale
	 * records.
	 */
	if ((sctrctl & CTRCTL_BPFRZ) && !is_sampling_event(event)) {
		pr_debug("ctr_bpfrz needs a sampling event: only a sample ends its freeze\n");
		return -EINVAL;
	}
	/*
	 * Fields the harts do not implement read as 0 and do nothing (most
	 * sctrctl fields are optional, CTR v1.0 "Supervisor Control
	 * Transfer Records Control Register"): without an inhibit bit the
	 * filter would record that type too, without RASEMU call stacks
	 * would be every transfer.  Each field is probed on every hart,
	 * the required ones too, and refused if one lacks it.
	 */
	missing = riscv_ctr_sctrctl_missing(sctrctl, &ctr->hw);
	if (missing) {
		pr_debug("branch_sample_type %#llx (config3 %#llx) needs sctrctl.%s, which not every hart implements\n",
			 bst, cfg3, riscv_ctr_field_name(missing));
		return -EOPNOTSUPP;
	}
	if (ctr_group_conflicts(event, sctrctl)) {
		pr_debug("branch_sample_type %#llx (config3 %#llx) differs from another member's: one branch filter per group\n",
			 bst, cfg3);
		return -EINVAL;
	}
	ctr_event_sctrctl(event) = sctrctl;

	/*
	 * A RAS-emulated call stack belongs to one task: it is saved at the
	 * task's switch-out and written back at its switch-in, in the save
	 * area perf allocates (pmu->task_ctx_cache): in the event's task, or
	 * in every task for a CPU-wide event (PERF_ATTACH_GLOBAL_DATA, as
	 * x86's LBR call stacks use it), so that perf record -a
	 * --call-graph lbr does not take one task's returns off another's
	 * calls.
	 */
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
 * waits until the first ones are gone (perf rotates it in).
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
	if (cc->users && cc->sctrctl != ctr_event_sctrctl(event))
		return -EBUSY;
	if (!cc->users) {
		cc->sctrctl = ctr_event_sctrctl(event);
		/*
		 * The PMU is disabled, so sctrctl is 0: the buffer of
		 * whoever used CTR last is cleared before anything is
		 * recorded for this event.  An event joining others needs
		 * no clear: the buffer was cleared at the current task's
		 * switch-in (riscv_ctr_sched_task()), and holds only what
		 * this task did since, under this same filter.
		 */
		ctr_clear();
		ctr_thaw();
	}
	cc->users++;
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
 * sctrdepth, vsctrctl and the buffer are lost: they are set up again
 * whether or not events are on the hart, since the depth is programmed
 * only here, at probe and when the hart comes up.  The buffer starts
 * empty, as after a task switch; riscv_ctr_enable() writes sctrctl back.
 */
void riscv_ctr_pm_exit(struct riscv_ctr *ctr)
{
	/* A hart whose CTR registers trap is left alone (cpu_starting). */
	if (!ctr || !this_cpu_ptr(ctr->cpu)->ok)
		return;
	csr_write(CSR_SCTRCTL, 0);
	ctr_setup_hart(ctr);
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
 * here too in case the overflow was seen without an LCOFI trap (CTR v1.0
 * "Freeze": only an LCOFI trap freezes).  The record template of the
 * CPU is rebuilt only when the options of the filter that change a
 * record do.
 *
 * An event keeps at most attr.sample_max_stack entries, which the perf
 * core sets to kernel.perf_event_max_stack (127) unless the event asks
 * for another: from Linux 6.15 perf_sample_save_brstack() cuts the
 * stack to it, so more are not copied; before, the core keeps whatever
 * it is given, and the same limit is applied here, so an event gets the
 * same stack on every kernel.
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
	unsigned int depth, keep;

	if (!ctr)
		return;
	cc = this_cpu_ptr(ctr->cpu);
	if (!cc->users)
		return;
	depth = ctr->depth;
	keep = min_t(unsigned int, depth, event->attr.sample_max_stack);
	/*
	 * Only an LCOFI trap freezes.  With AIA, the interrupt controller's
	 * handler serves every pending interrupt in one trap
	 * (riscv_intc_aia_irq() reads stopi until none is left), so an
	 * overflow may be handled in a trap taken for another interrupt,
	 * with CTR still recording (CTR v1.0 "Freeze" notes that history
	 * may then be overwritten): the S-mode entries since that trap are
	 * the handlers' own path, not the sampled code's, and the samples
	 * of this interrupt get no branch stack.  The first one finds
	 * FROZEN clear and sets it; the others of the same interrupt find
	 * it set, so the finding lasts until riscv_ctr_unfreeze().  With
	 * only U-mode recorded, nothing was recorded since the trap and the
	 * stack is whole.
	 */
	if (!ctr_freeze())
		cc->no_freeze = true;
	if (cc->no_freeze && (cc->sctrctl & CTRCTL_S_ENABLE))
		keep = 0;
	if (unlikely(cc->tmpl.key != riscv_ctr_tmpl_key(ctr->hw.misp, bst)))
		riscv_ctr_tmpl_init(&cc->tmpl, ctr->hw.misp, bst);
	wrptr = csr_read(CSR_SCTRSTATUS) & SCTRSTATUS_WRPTR_MASK;
	siselect = csr_read(CSR_SISELECT);
	cc->bs.nr = ctr_copy(cc->bs.entries, keep, depth, &cc->tmpl);
	csr_write(CSR_SISELECT, siselect);
	/* Physical index of the newest entry: WRPTR is the next to write. */
	cc->bs.hw_idx = keep ? (wrptr + depth - 1) & (depth - 1) : -1ULL;
	perf_sample_save_brstack(data, event, &cc->bs, NULL);
}

/* Resume recording once every overflowed event has its sample. */
void riscv_ctr_unfreeze(struct riscv_ctr *ctr)
{
	struct riscv_ctr_cpu *cc;

	if (!ctr)
		return;
	cc = this_cpu_ptr(ctr->cpu);
	cc->no_freeze = false;
	if (cc->users)
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
	cc->no_freeze = false;
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
 * buffer is saved, cleared or restored.  The perf core calls this for
 * CPU-wide events too: perf_sched_cb_inc() in riscv_ctr_add() puts the
 * PMU on the CPU's sched_cb_list, and perf_pmu_sched_task() calls it at
 * every switch for which the task has no context of this PMU (and
 * perf_ctx_sched_task_cb() when it has one).
 *
 * Records are untagged virtual addresses, which perf resolves against
 * the pid of the sample that carries them: a record of the task before
 * in a sample of this one is a wrong profile, and a
 * bpf_get_branch_snapshot() in this task must not return it either.  So
 * the buffer is cleared at every switch-in, for CPU-wide and task events
 * alike, as x86's LBR and arm64's BRBE do.  A call stack is saved at
 * switch-out and written back after the clear.
 *
 * A call stack is restored only if it was saved at the task's last
 * switch-out, i.e. its call-stack event was recording up to then.  If the
 * event was rotated out, or could not be scheduled beside events with
 * another filter, the task ran on without it being recorded, and an older
 * stack written back would be a stack the task has left: the event starts
 * empty instead, as when it is first scheduled in.
 *
 * Nor is a stack restored under another filter than the one it was
 * recorded under (another task or CPU-wide call-stack event took the
 * task's switch-out, say with a different privilege filter).  In RAS
 * emulation every recorded return pops the newest entry (CTR v1.0 "RAS
 * Emulation Mode"): a stack saved with S-mode calls on it, written back
 * under a U-only filter, would have the task's user returns pop those
 * kernel calls and leave the user frames they return from; a U-only
 * stack under a U and S filter would lose user frames to the kernel's
 * returns.  Either way the stack would show calls the task has left.
 *
 * A breakpoint's freeze (ctr_bpfrz) does not outlive its task's slice:
 * its records are gone with the clear, and a freeze left on would keep
 * the next task's samples empty.
 */
void riscv_ctr_sched_task(struct riscv_ctr *ctr, void *task_ctx,
			  struct task_struct *task, bool sched_in)
{
	struct riscv_ctr_task_ctx *tc = task ? task_ctx : NULL;
	struct riscv_ctr_cpu *cc;
	bool call_stack;

	if (!ctr)
		return;
	cc = this_cpu_ptr(ctr->cpu);
	call_stack = cc->sctrctl & CTRCTL_RASEMU;

	if (!sched_in) {
		if (tc && call_stack) {
			ctr_save(tc, ctr->depth);
			tc->switches = ctr_task_switches(task);
			tc->sctrctl = cc->sctrctl;
		}
		/* Saved at this switch-out. */
		if (tc)
			tc->valid = call_stack;
		return;
	}
	ctr_clear();
	ctr_thaw();
	if (tc && call_stack && tc->valid &&
	    tc->switches == ctr_task_switches(task) &&
	    tc->sctrctl == cc->sctrctl)
		ctr_restore(tc, ctr->depth);
	/* Used up at this switch-in. */
	if (tc)
		tc->valid = false;
}

/* ---- bpf_get_branch_snapshot() ---- */

/*
 * The snapshot's record template, the same on every CPU (no MISP, kernel
 * addresses shown); per CPU so that it is built once per CPU, on first
 * use, with interrupts off and without a lock.  The static call gives
 * the snapshot no pointer to the backend.
 */
/*
 * What riscv_ctr_snapshot() keeps per hart, without a pointer to the
 * backend: the record template, and whether the hart's CTR registers
 * trap (riscv_ctr_cpu_starting()), so that a BPF program there gets no
 * records instead of an illegal-instruction Oops.
 */
struct ctr_snap {
	struct riscv_ctr_tmpl tmpl;
	bool off;
};

static DEFINE_PER_CPU(struct ctr_snap, ctr_snap);

/**
 * riscv_ctr_snapshot - the perf_snapshot_branch_stack static call
 * @entries: where to put the entries, newest first
 * @cnt: room in @entries
 *
 * Freezes first, so the BPF program's own path does not displace what it
 * asked for, copies, then puts FROZEN back as it was.  It uses only CSRs,
 * so it needs no pointer to backend state.  The buffer holds only what
 * the current branch-stack events may see: it is cleared when the last
 * one leaves the CPU and at every switch-in, so it holds only what the
 * current task did.  MISP is not reported here.
 *
 * Return: the number of entries copied.
 */
int riscv_ctr_snapshot(struct perf_branch_entry *entries, unsigned int cnt)
{
	const u64 key = riscv_ctr_tmpl_key(false, PERF_SAMPLE_BRANCH_KERNEL);
	unsigned long flags, siselect;
	struct riscv_ctr_tmpl *t;
	unsigned int n;
	bool was_frozen;

	local_irq_save(flags);
	if (this_cpu_ptr(&ctr_snap)->off) {
		local_irq_restore(flags);
		return 0;
	}
	was_frozen = ctr_freeze();
	t = &this_cpu_ptr(&ctr_snap)->tmpl;
	/* Built while frozen, so its own branches are not recorded. */
	if (unlikely(t->key != key))
		riscv_ctr_tmpl_init(t, false, PERF_SAMPLE_BRANCH_KERNEL);
	/* As riscv_ctr_sample(): a BPF program may run in NMI-like context. */
	siselect = csr_read(CSR_SISELECT);
	n = ctr_copy(entries, cnt,
		     riscv_ctr_depth_decode(csr_read(CSR_SCTRDEPTH)), t);
	csr_write(CSR_SISELECT, siselect);
	if (!was_frozen)
		ctr_thaw();
	local_irq_restore(flags);
	return n;
}

/* ---- sysfs: caps/branches ---- */

static ssize_t branches_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct riscv_ctr *ctr = container_of(attr, struct dev_ext_attribute,
					     attr)->var;

	return sysfs_emit(buf, "%u\n", ctr->depth);
}

static void ctr_sysfs_init(struct riscv_ctr *ctr)
{
	struct dev_ext_attribute *a = &ctr->branches_attr;

	sysfs_attr_init(&a->attr.attr);
	a->attr.attr.name = "branches";
	a->attr.attr.mode = 0444;
	a->attr.show = branches_show;
	a->var = ctr;
	ctr->caps_attrs[0] = &a->attr.attr;
	ctr->caps_group.name = "caps";
	ctr->caps_group.attrs = ctr->caps_attrs;
}

/**
 * riscv_ctr_caps_group - caps/branches: the depth of the harts' buffers
 * @ctr: the CTR of the PMU, NULL without CTR
 *
 * User space learns from caps/branches that the PMU records branch
 * stacks, and how deep; perf keeps it in perf.data (HEADER_PMU_CAPS).
 * An event keeps at most attr.sample_max_stack of them.
 *
 * Return: the group to put into pmu->attr_groups, NULL without CTR.
 */
const struct attribute_group *riscv_ctr_caps_group(struct riscv_ctr *ctr)
{
	return ctr ? &ctr->caps_group : NULL;
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
 * The sctrctl fields this hart keeps.  Most fields are optional, and
 * read-only 0 where they are not implemented (CTR v1.0 "Supervisor
 * Control Transfer Records Control Register"), so set them all and read
 * back; the required ones (the mode enables, BPFRZ, and LCOFIFRZ with
 * Sscofpmf) are checked the same way rather than trusted.  Only
 * sctrctl's standard fields are written, never its reserved (WPRI) or
 * custom bits.  FROZEN is set first, so nothing is recorded while the
 * mode bits are on.
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

	/*
	 * A trap at 1 or 3 goes on at 2, with ok still 0.  siselect too:
	 * mstateen0.CSRIND (bit 60) gates it apart from the CTR CSRs
	 * (Smstateen), and the entries are read through it.
	 */
	asm volatile("	li	%0, 0\n"
		     "1:	csrr	zero, " __stringify(CSR_SCTRDEPTH) "\n"
		     "3:	csrr	zero, " __stringify(CSR_SISELECT) "\n"
		     "	li	%0, 1\n"
		     "2:\n"
		     _ASM_EXTABLE(1b, 2b)
		     _ASM_EXTABLE(3b, 2b)
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

	if (!ctr_hart_accessible()) {
		if (ctr->denied_cpu < 0)
			ctr->denied_cpu = smp_processor_id();
		return;
	}
	ctr_probe_hart(&hart);
	riscv_ctr_hw_and(&ctr->hw, &hart);
}

/* Call @fn on every online hart; the caller holds cpus_read_lock(). */
static int ctr_on_each_hart(smp_call_func_t fn, struct riscv_ctr *ctr)
{
	int cpu, ret;

	for_each_online_cpu(cpu) {
		ret = smp_call_function_single(cpu, fn, ctr, 1);
		if (ret)
			return ret;
	}
	return 0;
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
 * Call on the hart itself (a CPU hotplug callback run on that CPU); it
 * takes interrupts off itself, so any context that cannot migrate will
 * do.  It probes the hart's depths, sctrctl fields and MISP as
 * riscv_ctr_probe() did, and compares.  The depth every hart has and
 * every field the PMU offers must be there: the filters of open events
 * rely on the fields.
 * A hart that has them all is programmed (depth, vsctrctl) and left with
 * sctrctl 0 and the buffer clear.  A hart that lacks any is marked so:
 * riscv_ctr_add() refuses branch-stack events on it, and a warning names
 * the CPU and what it lacks.  Nothing fails: a CPUHP STARTING callback
 * cannot stop the hart from coming up (notify_cpu_starting() only logs an
 * error), and an error from it would make cpuhp_state_add_instance()
 * fail the PMU's probe.
 *
 * cpuhp_state_add_instance() also runs the callback on every hart that
 * is online already, and riscv_pmu_sbi adds its instance after
 * perf_pmu_register(): branch-stack events may be recording on such a
 * hart.  riscv_ctr_probe() has set it up; it is left alone.
 */
void riscv_ctr_cpu_starting(struct riscv_ctr *ctr)
{
	struct riscv_ctr_hw hart, lack, need;
	struct riscv_ctr_cpu *cc;
	unsigned long flags;
	bool lacks;
	int cpu;

	if (!ctr)
		return;
	need = ctr->hw;
	local_irq_save(flags);
	cpu = smp_processor_id();
	cc = this_cpu_ptr(ctr->cpu);
	if (cc->users) {
		local_irq_restore(flags);
		return;
	}
	this_cpu_ptr(&ctr_snap)->off = !ctr_hart_accessible();
	if (this_cpu_ptr(&ctr_snap)->off) {
		cc->ok = false;
		local_irq_restore(flags);
		pr_warn("cpu%d: CTR CSRs trap: the firmware has not enabled CTR for S-mode (mstateen0.CTR)\n",
			cpu);
		return;
	}
	ctr_probe_hart(&hart);
	need.depths = BIT(ctr->sctrdepth);
	lacks = riscv_ctr_hw_lacks(&hart, &need, &lack);
	if (!lacks)
		ctr_setup_hart(ctr);
	cc->ok = !lacks;
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
	pr_info("CTR on every hart: sctrctl fields %#llx, MISP %s, depth %u\n",
		ctr->hw.sctrctl, ctr->hw.misp ? "yes" : "no", ctr->depth);
}

/* From an IPI: riscv_ctr_cpu_starting() on each hart at probe. */
static void ctr_starting_ipi(void *info)
{
	riscv_ctr_cpu_starting(info);
}

/*
 * The per-CPU state and the call-stack save areas, sized for @ctr->depth
 * entries: every hart's buffer has that depth from probe on.
 */
static int ctr_alloc(struct riscv_ctr *ctr)
{
	ctr->cpu = __alloc_percpu(struct_size_t(struct riscv_ctr_cpu,
						bs.entries, ctr->depth),
				  __alignof__(struct riscv_ctr_cpu));
	if (!ctr->cpu)
		return -ENOMEM;
	ctr->task_ctx_cache =
		kmem_cache_create("riscv_ctr_task_ctx",
				  struct_size_t(struct riscv_ctr_task_ctx, e,
						ctr->depth),
				  0, 0, NULL);
	if (!ctr->task_ctx_cache) {
		free_percpu(ctr->cpu);
		return -ENOMEM;
	}
	return 0;
}

/**
 * riscv_ctr_probe - find what CTR every online hart implements
 * @pmu: the CPU PMU, set up but not registered yet
 * @depth: entries of the harts' buffers wanted; 0 for the largest
 *
 * The caller has checked that every hart has Ssctr and Sscsrind.  The
 * depth is @depth if every hart supports it, else the nearest below it,
 * else the smallest there is; it is programmed into every hart here and
 * stays as long as the PMU (riscv_ctr_cpu_starting() programs a hart that
 * comes up later).  An event keeps at most attr.sample_max_stack of the
 * entries (riscv_ctr_sample()).  Sets @pmu->task_ctx_cache, for
 * call-stack events.
 *
 * Return: the CTR of @pmu; NULL if the harts have no depth in common or
 * a hart cannot reach its CTR CSRs (branch stacks are then refused, the
 * counters work as without CTR); an ERR_PTR() on failure.
 */
struct riscv_ctr *riscv_ctr_probe(struct pmu *pmu, unsigned int depth)
{
	struct riscv_ctr *ctr;
	int ret;

	ctr = kzalloc_obj(*ctr);
	if (!ctr)
		return ERR_PTR(-ENOMEM);
	ctr->hw = (struct riscv_ctr_hw) {
		.sctrctl = RISCV_CTR_SCTRCTL_FIELDS,
		.depths = GENMASK(SCTRDEPTH_MAX, SCTRDEPTH_MIN),
		.misp = true,
	};
	ctr->denied_cpu = -1;
	ctr->has_h = riscv_isa_extension_available(NULL, H);
	cpus_read_lock();
	ret = ctr_on_each_hart(ctr_probe_hart_ipi, ctr);
	cpus_read_unlock();
	if (ret)
		goto err_free;
	if (ctr->denied_cpu >= 0) {
		pr_warn("cpu%d: CTR CSRs trap: the firmware has not enabled CTR for S-mode (mstateen0.CTR): no branch stacks\n",
			ctr->denied_cpu);
		kfree(ctr);
		return NULL;
	}
	if (!ctr->hw.depths) {
		pr_warn("the harts have no CTR depth in common: no branch stacks\n");
		kfree(ctr);
		return NULL;
	}
	ctr->depth = riscv_ctr_depth_pick(ctr->hw.depths, depth);
	ctr->sctrdepth = riscv_ctr_depth_encode(ctr->depth);
	if (depth && ctr->depth != depth)
		pr_info("CTR depth %u not supported by every hart, using %u\n",
			depth, ctr->depth);
	ret = ctr_alloc(ctr);
	if (ret)
		goto err_free;

	/*
	 * Program each hart, checked again: one that came online since the
	 * probe above may lack what the others have.
	 */
	cpus_read_lock();
	ret = ctr_on_each_hart(ctr_starting_ipi, ctr);
	cpus_read_unlock();
	if (ret)
		goto err_alloc;
	pmu->task_ctx_cache = ctr->task_ctx_cache;
	ctr_sysfs_init(ctr);
	ctr_report(ctr);
	return ctr;

err_alloc:
	kmem_cache_destroy(ctr->task_ctx_cache);
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
