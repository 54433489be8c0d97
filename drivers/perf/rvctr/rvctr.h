/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rvctr: RISC-V CPU PMU driver (hpmcounters, Sscofpmf, Smctr/Ssctr).
 * Internal interfaces shared by the driver's files.
 */
#ifndef _RVCTR_H
#define _RVCTR_H

#include <linux/bits.h>
#include <linux/notifier.h>
#include <linux/perf_event.h>
#include <linux/perf/riscv_pmu.h>
#include <linux/platform_device.h>
#include <linux/sysctl.h>
#include <linux/types.h>

#include "../riscv_ctr.h"

struct dentry;

/* ISA extensions the driver cares about, as read from the device tree. */
enum rvctr_ext {
	RVCTR_EXT_SSCOFPMF,
	RVCTR_EXT_SMCSRIND,
	RVCTR_EXT_SSCSRIND,
	RVCTR_EXT_SMCTR,
	RVCTR_EXT_SSCTR,
	RVCTR_EXT_SMCDELEG,
	RVCTR_EXT_SSCCFG,
	RVCTR_EXT_SMSTATEEN,
	RVCTR_EXT_H,
	RVCTR_NR_EXT,
};

struct rvctr_caps {
	unsigned long ext;		/* BIT(enum rvctr_ext) on every hart */
};

const char *rvctr_ext_name(enum rvctr_ext ext);
int rvctr_isa_probe(struct device *dev, struct rvctr_caps *caps);

static inline bool rvctr_has(const struct rvctr_caps *caps, enum rvctr_ext ext)
{
	return caps->ext & BIT(ext);
}

/*
 * SBI counter indices: hardware counters first (0..31 on OpenSBI, the
 * index equals the CSR offset from cycle), firmware counters after them.
 */
#define RVCTR_MAX_COUNTERS	64
#define RVCTR_HW_COUNTERS	32
/* SBI cache event codes: cache << 3 | op << 1 | result */
#define RVCTR_NR_CACHE_EVENTS	(PERF_COUNT_HW_CACHE_MAX << 3)

/* hw_perf_event.flags */
#define RVCTR_F_FW		BIT(0)	/* SBI firmware counter */
#define RVCTR_F_DELEG		BIT(1)	/* event may use delegated counters */
#define RVCTR_F_UA_USER		BIT(3)	/* opened under perf_user_access=1 */
#define RVCTR_F_UA_LEGACY	BIT(4)	/* opened under perf_user_access=2 */
/*
 * hw.flags is written at event_init only, and for
 * PERF_EVENT_FLAG_USER_READ_CNT from process context at mmap
 * (rvctr_user.c): what changes while the event runs is kept per CPU,
 * by counter (struct rvctr_cpu), so no update can be lost.
 */

/* A vendor's events and format fields, chosen by mvendorid/marchid. */
struct rvctr_vendor {
	const char *name;
	unsigned long mvendorid;
	unsigned long marchid;
	const struct attribute_group *events;
	/* Translate attr.config of a raw event; returns 0 or -errno. */
	int (*map_raw)(u64 config, u64 *selector, unsigned long *cmask);
};

extern const struct rvctr_vendor rvctr_vendor_xiangshan;

/* All the per-CPU state of one PMU. */
struct rvctr_cpu {
	struct rvctr_pmu *rp;
	struct perf_event *events[RVCTR_MAX_COUNTERS];
	DECLARE_BITMAP(used, RVCTR_MAX_COUNTERS);
	/* scountovf bits (CSR offsets) of the hardware counters in use */
	unsigned long used_hw_csr;
	/* Event selector each delegated counter holds, 0 if none yet */
	u64 deleg_sel[RVCTR_HW_COUNTERS];
	bool deleg_sel_known;	/* read back once per module load */
	/* Counters stopped by CPU_PM_ENTER, to start again on exit */
	DECLARE_BITMAP(pm_running, RVCTR_MAX_COUNTERS);
	/*
	 * Overflowed counters whose event's prev_count is already the next
	 * period's: a start must give them that value, not resume them.
	 */
	unsigned long reload;
	/*
	 * The delegated counters this hart has of those the PMU was probed
	 * with (CPU hotplug starting callback).
	 */
	unsigned long deleg_ok;
};

struct rvctr_pmu {
	/*
	 * riscv_pmu.c's arch_perf_update_userpage() takes the PMU as a
	 * struct riscv_pmu: only .pmu and .ctr_get_width are used.
	 */
	struct riscv_pmu base;
	struct device *dev;
	struct rvctr_caps caps;
	struct rvctr_cpu __percpu *cpus;
	/* Counters the firmware reports, by SBI index */
	unsigned long counter_info[RVCTR_MAX_COUNTERS];
	unsigned long hw_mask;		/* hardware counters */
	unsigned long fw_mask;		/* firmware counters */
	unsigned long deleg_mask;	/* hardware counters delegated to S-mode */
	u64 max_period;			/* half the narrowest counter range */
	/* Generic events the firmware maps: BIT(perf id), BIT(cache code) */
	unsigned long hw_ok;
	u64 cache_ok;
	const struct rvctr_vendor *vendor;
	const struct attribute_group *attr_groups[5];
	const struct attribute_group *attr_update[2];
	/* Branch stacks (drivers/perf/riscv_ctr.h); NULL without CTR */
	struct riscv_ctr *ctr;
	bool bpf_snapshot;	/* provides bpf_get_branch_snapshot() */
	struct dentry *debugfs;
	int irq;		/* the LCOFI, or 0 without Sscofpmf */
	int hp_state;
	struct hlist_node hp_node;
	struct notifier_block cpu_pm_nb;
	/* kernel.perf_user_access (rvctr_user.c) */
	int user_access;
	struct ctl_table user_table[1];
	struct ctl_table_header *user_sysctl;
};

static inline struct rvctr_pmu *to_rvctr_pmu(struct pmu *pmu)
{
	return container_of(pmu, struct rvctr_pmu, base.pmu);
}

/* rvctr_counter.c: programming counters, by SBI ecall or directly. */
int rvctr_counters_probe(struct rvctr_pmu *rp);
void rvctr_events_probe(struct rvctr_pmu *rp);
int rvctr_counter_alloc(struct rvctr_pmu *rp, struct rvctr_cpu *cpuc,
			struct perf_event *event);
void rvctr_counter_free(struct rvctr_pmu *rp, struct rvctr_cpu *cpuc,
			struct perf_event *event);
void rvctr_counter_start(struct rvctr_pmu *rp, struct perf_event *event,
			 u64 ival);
void rvctr_counter_resume(struct rvctr_pmu *rp, struct perf_event *event);
void rvctr_counter_stop(struct rvctr_pmu *rp, struct perf_event *event);
u64 rvctr_counter_read(struct rvctr_pmu *rp, struct perf_event *event);
void rvctr_counters_stop_used(struct rvctr_pmu *rp, struct rvctr_cpu *cpuc);
void rvctr_counters_restart(struct rvctr_pmu *rp, struct rvctr_cpu *cpuc,
			    unsigned long running, unsigned long reload);
void rvctr_counters_reset_cpu(struct rvctr_pmu *rp, struct rvctr_cpu *cpuc);
unsigned long rvctr_counters_cpu_deleg(struct rvctr_pmu *rp);
void rvctr_counters_pm_exit(struct rvctr_pmu *rp, struct rvctr_cpu *cpuc);
u64 rvctr_counter_width_mask(struct rvctr_pmu *rp, int idx);

/* Counters are delegated or SBI-owned by index: rvctr_counter_alloc(). */
static inline bool rvctr_on_deleg(struct rvctr_pmu *rp, int idx)
{
	return idx < RVCTR_HW_COUNTERS && (rp->deleg_mask & BIT(idx));
}

unsigned int rvctr_counter_csr_bit(struct rvctr_pmu *rp, int idx);

/* rvctr_user.c: user-space counter access, kernel.perf_user_access */
void rvctr_user_init(struct rvctr_pmu *rp);
void rvctr_user_exit(struct rvctr_pmu *rp);
void rvctr_user_cpu_init(struct rvctr_pmu *rp);
void rvctr_user_event_init(struct rvctr_pmu *rp, struct perf_event *event);
bool rvctr_user_legacy_fixed(struct perf_event *event, unsigned long *cmask);
int rvctr_user_event_idx(struct perf_event *event);
void rvctr_user_start(struct rvctr_pmu *rp, struct perf_event *event);
void rvctr_user_stop(struct rvctr_pmu *rp, struct perf_event *event);
void rvctr_user_event_mapped(struct perf_event *event, struct mm_struct *mm);
void rvctr_user_event_unmapped(struct perf_event *event, struct mm_struct *mm);
int rvctr_user_counter_width(int idx);
void rvctr_user_cpu_online(struct rvctr_pmu *rp, bool online);

/* rvctr_debugfs.c: the raw CTR of a CPU, for tests and the tool */
void rvctr_debugfs_init(struct rvctr_pmu *rp);
void rvctr_debugfs_exit(struct rvctr_pmu *rp);

/* rvctr_events.c: event maps, filters and sysfs attributes. */
int rvctr_event_map(struct rvctr_pmu *rp, struct perf_event *event);
void rvctr_sysfs_init(struct rvctr_pmu *rp);
const struct rvctr_vendor *rvctr_vendor_match(void);

#endif /* _RVCTR_H */
