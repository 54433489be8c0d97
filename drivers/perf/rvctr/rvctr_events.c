// SPDX-License-Identifier: GPL-2.0-only
/*
 * Events: perf's generic, cache and raw events to SBI event indices and
 * mhpmevent selectors, the privilege filters, and the sysfs format/ and
 * events/ directories.  All of it is decided once, at event_init, and
 * cached in the event:
 *
 *   hw.event_base	SBI event_idx
 *   hw.config		mhpmevent selector | xINH filter bits (for delegated
 *			counters; SBI raw events take the selector as data)
 *   hw.config_base	SBI COUNTER_CFG_MATCH filter flags
 *   hw.extra_reg.config  the counters the event may use (bit = SBI index)
 */
#define pr_fmt(fmt) "rvctr: " fmt

#include <linux/bitfield.h>
#include <linux/device.h>
#include <linux/perf_event.h>
#include <linux/stringify.h>
#include <linux/sysfs.h>
#include <asm/sbi.h>

#include <rvctr/hpm.h>
#include <rvctr/xs_hpm.h>
#include "rvctr.h"

/*
 * The format fields, one table: the sysfs strings ("config:0-47") are
 * printed from it and rvctr_fmt_get() reads attr fields with it, so the
 * two cannot disagree.  config:0-47 is the event selector (SBI raw event
 * data); 63:62 say what kind of raw event (0 hardware, 2 SBI firmware,
 * 3 platform firmware).  The XiangShan fields exist only on that core.
 */
enum rvctr_fmt_id {
	RVCTR_FMT_EVENT, RVCTR_FMT_FIRMWARE,
	RVCTR_FMT_EVENT0, RVCTR_FMT_EVENT1, RVCTR_FMT_EVENT2, RVCTR_FMT_EVENT3,
	RVCTR_FMT_OP0, RVCTR_FMT_OP1, RVCTR_FMT_OP2, RVCTR_FMT_GROUP,
	RVCTR_FMT_CTR_NTBR, RVCTR_FMT_CTR_BPFRZ,
	RVCTR_NR_FMT,
};

struct rvctr_format {
	struct device_attribute attr;
	u8 word;		/* 0 config, 1 config1, 2 config2, 3 config3 */
	u8 lo, hi;
	bool xs;		/* only on XiangShan Kunminghu */
};

static ssize_t rvctr_format_show(struct device *dev,
				 struct device_attribute *attr, char *buf);

#define RVCTR_FMT(_id, _name, _word, _lo, _hi, _xs)			\
	[_id] = {							\
		.attr = __ATTR(_name, 0444, rvctr_format_show, NULL),	\
		.word = _word, .lo = _lo, .hi = _hi, .xs = _xs,		\
	}

static struct rvctr_format rvctr_formats[RVCTR_NR_FMT] = {
	RVCTR_FMT(RVCTR_FMT_EVENT, event, 0, 0, 47, false),
	RVCTR_FMT(RVCTR_FMT_FIRMWARE, firmware, 0, 62, 63, false),
	RVCTR_FMT(RVCTR_FMT_EVENT0, event0, 0, RVCTR_XS_EVENT0_LO, RVCTR_XS_EVENT0_HI, true),
	RVCTR_FMT(RVCTR_FMT_EVENT1, event1, 0, RVCTR_XS_EVENT1_LO, RVCTR_XS_EVENT1_HI, true),
	RVCTR_FMT(RVCTR_FMT_EVENT2, event2, 0, RVCTR_XS_EVENT2_LO, RVCTR_XS_EVENT2_HI, true),
	RVCTR_FMT(RVCTR_FMT_EVENT3, event3, 0, RVCTR_XS_EVENT3_LO, RVCTR_XS_EVENT3_HI, true),
	RVCTR_FMT(RVCTR_FMT_OP0, op0, 0, RVCTR_XS_OP0_LO, RVCTR_XS_OP0_HI, true),
	RVCTR_FMT(RVCTR_FMT_OP1, op1, 0, RVCTR_XS_OP1_LO, RVCTR_XS_OP1_HI, true),
	RVCTR_FMT(RVCTR_FMT_OP2, op2, 0, RVCTR_XS_OP2_LO, RVCTR_XS_OP2_HI, true),
	RVCTR_FMT(RVCTR_FMT_GROUP, group, 0, RVCTR_XS_GROUP_LO, RVCTR_XS_GROUP_HI, true),
	RVCTR_FMT(RVCTR_FMT_CTR_NTBR, ctr_ntbr, 3, RISCV_CTR_CONFIG3_NTBR_BIT,
		  RISCV_CTR_CONFIG3_NTBR_BIT, false),
	RVCTR_FMT(RVCTR_FMT_CTR_BPFRZ, ctr_bpfrz, 3, RISCV_CTR_CONFIG3_BPFRZ_BIT,
		  RISCV_CTR_CONFIG3_BPFRZ_BIT, false),
};

static ssize_t rvctr_format_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	static const char * const words[] = {
		"config", "config1", "config2", "config3"
	};
	struct rvctr_format *f = container_of(attr, struct rvctr_format, attr);

	if (f->lo == f->hi)
		return sysfs_emit(buf, "%s:%u\n", words[f->word], f->lo);
	return sysfs_emit(buf, "%s:%u-%u\n", words[f->word], f->lo, f->hi);
}

/* The value of format field @id in @attr. */
static u64 rvctr_fmt_get(enum rvctr_fmt_id id, const struct perf_event_attr *attr)
{
	const struct rvctr_format *f = &rvctr_formats[id];
	const u64 words[] = {
		attr->config, attr->config1, attr->config2, attr->config3
	};
	u64 word = words[f->word];

	return (word & GENMASK_ULL(f->hi, f->lo)) >> f->lo;
}

static struct attribute *rvctr_format_attrs[] = {
	&rvctr_formats[RVCTR_FMT_EVENT].attr.attr,
	&rvctr_formats[RVCTR_FMT_FIRMWARE].attr.attr,
	&rvctr_formats[RVCTR_FMT_EVENT0].attr.attr,
	&rvctr_formats[RVCTR_FMT_EVENT1].attr.attr,
	&rvctr_formats[RVCTR_FMT_EVENT2].attr.attr,
	&rvctr_formats[RVCTR_FMT_EVENT3].attr.attr,
	&rvctr_formats[RVCTR_FMT_OP0].attr.attr,
	&rvctr_formats[RVCTR_FMT_OP1].attr.attr,
	&rvctr_formats[RVCTR_FMT_OP2].attr.attr,
	&rvctr_formats[RVCTR_FMT_GROUP].attr.attr,
	&rvctr_formats[RVCTR_FMT_CTR_NTBR].attr.attr,
	&rvctr_formats[RVCTR_FMT_CTR_BPFRZ].attr.attr,
	NULL,
};

static_assert(ARRAY_SIZE(rvctr_format_attrs) == RVCTR_NR_FMT + 1);

static struct rvctr_pmu *rvctr_dev_pmu(struct device *dev)
{
	return to_rvctr_pmu(dev_get_drvdata(dev));
}

static umode_t rvctr_format_visible(struct kobject *kobj,
				    struct attribute *attr, int n)
{
	struct rvctr_pmu *rp = rvctr_dev_pmu(kobj_to_dev(kobj));
	struct rvctr_format *f;

	f = container_of(attr, struct rvctr_format, attr.attr);
	if (f->xs && rp->vendor != &rvctr_vendor_xiangshan)
		return 0;
	return attr->mode;
}

static const struct attribute_group rvctr_format_group = {
	.name = "format",
	.attrs = rvctr_format_attrs,
	.is_visible = rvctr_format_visible,
};

/*
 * events/: the SBI firmware events (SBI v2.0 11.5: counted by the firmware
 * on the hart's behalf), as "firmware=2,event=<code>".
 */
#define RVCTR_FW_EVENT(_name, _code)					\
	PMU_EVENT_ATTR_STRING(_name, rvctr_fw_##_name,			\
			      "firmware=2,event=" __stringify(_code))

RVCTR_FW_EVENT(fw_misaligned_load, 0);
RVCTR_FW_EVENT(fw_misaligned_store, 1);
RVCTR_FW_EVENT(fw_access_load, 2);
RVCTR_FW_EVENT(fw_access_store, 3);
RVCTR_FW_EVENT(fw_illegal_insn, 4);
RVCTR_FW_EVENT(fw_set_timer, 5);
RVCTR_FW_EVENT(fw_ipi_sent, 6);
RVCTR_FW_EVENT(fw_ipi_received, 7);
RVCTR_FW_EVENT(fw_fence_i_sent, 8);
RVCTR_FW_EVENT(fw_fence_i_received, 9);
RVCTR_FW_EVENT(fw_sfence_vma_sent, 10);
RVCTR_FW_EVENT(fw_sfence_vma_received, 11);

static struct attribute *rvctr_fw_event_attrs[] = {
	&rvctr_fw_fw_misaligned_load.attr.attr,
	&rvctr_fw_fw_misaligned_store.attr.attr,
	&rvctr_fw_fw_access_load.attr.attr,
	&rvctr_fw_fw_access_store.attr.attr,
	&rvctr_fw_fw_illegal_insn.attr.attr,
	&rvctr_fw_fw_set_timer.attr.attr,
	&rvctr_fw_fw_ipi_sent.attr.attr,
	&rvctr_fw_fw_ipi_received.attr.attr,
	&rvctr_fw_fw_fence_i_sent.attr.attr,
	&rvctr_fw_fw_fence_i_received.attr.attr,
	&rvctr_fw_fw_sfence_vma_sent.attr.attr,
	&rvctr_fw_fw_sfence_vma_received.attr.attr,
	NULL,
};

static umode_t rvctr_fw_event_visible(struct kobject *kobj,
				      struct attribute *attr, int n)
{
	return rvctr_dev_pmu(kobj_to_dev(kobj))->fw_mask ? attr->mode : 0;
}

static const struct attribute_group rvctr_fw_events_group = {
	.name = "events",
	.attrs = rvctr_fw_event_attrs,
	.is_visible = rvctr_fw_event_visible,
};

void rvctr_sysfs_init(struct rvctr_pmu *rp)
{
	int n = 0;

	rp->attr_groups[n++] = &rvctr_format_group;
	rp->attr_groups[n++] = &rvctr_fw_events_group;
	/* Without CTR no caps/branches: perf then skips its LBR tests. */
	if (rp->ctr)
		rp->attr_groups[n++] = riscv_ctr_caps_group(rp->ctr);
	rp->attr_groups[n] = NULL;
	rp->base.pmu.attr_groups = rp->attr_groups;
	/* A second "events" group: attr_update merges it into the first. */
	rp->attr_update[0] = rp->vendor ? rp->vendor->events : NULL;
	rp->attr_update[1] = NULL;
	rp->base.pmu.attr_update = rp->attr_update;
}

/*
 * Privilege filters, which need Sscofpmf: without it a filtered event is
 * refused rather than counted in every mode.  M-mode (the SBI firmware)
 * is never counted: the firmware sets MINH, so exclude_hv is honoured by
 * construction.  Guest modes exist only with the H extension: without it
 * exclude_guest is trivially true and a guest-only event (exclude_host)
 * cannot count anything, so it is refused.  cycle and instret have no
 * filter without Smcntrpmf (OpenSBI ignores the flags there), so an event
 * that excludes user or kernel mode does not go on them; one that only
 * excludes guests (perf sets exclude_guest on every event) may, and then
 * counts guests too, as with riscv_pmu_sbi.
 */
static int rvctr_event_filters(struct rvctr_pmu *rp, struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	bool has_h = rvctr_has(&rp->caps, RVCTR_EXT_H);
	struct hw_perf_event *hwc = &event->hw;
	unsigned long flags = 0;
	u64 inh = 0;

	/*
	 * The xINH bits of mhpmevent are Sscofpmf's (Sscofpmf 1.0).  perf
	 * sets exclude_guest on every event by default, so refusing it
	 * would refuse every event: without Sscofpmf, guest modes (if any)
	 * are counted.  Nor is there MINH: M-mode is counted, so
	 * exclude_hv cannot be honoured either.
	 */
	if (!rvctr_has(&rp->caps, RVCTR_EXT_SSCOFPMF)) {
		if (attr->exclude_user || attr->exclude_kernel ||
		    attr->exclude_host || attr->exclude_hv) {
			pr_debug("exclude_user/kernel/host/hv need Sscofpmf\n");
			return -EOPNOTSUPP;
		}
		hwc->config_base = 0;
		return 0;
	}
	if (attr->exclude_host && !has_h) {
		pr_debug("exclude_host without the H extension\n");
		return -EOPNOTSUPP;
	}
	if (attr->exclude_user || attr->exclude_host) {
		flags |= SBI_PMU_CFG_FLAG_SET_UINH;
		inh |= RVCTR_HPMEVENT_UINH;
	}
	if (attr->exclude_kernel || attr->exclude_host) {
		flags |= SBI_PMU_CFG_FLAG_SET_SINH;
		inh |= RVCTR_HPMEVENT_SINH;
	}
	if (has_h && (attr->exclude_guest || attr->exclude_user)) {
		flags |= SBI_PMU_CFG_FLAG_SET_VUINH;
		inh |= RVCTR_HPMEVENT_VUINH;
	}
	if (has_h && (attr->exclude_guest || attr->exclude_kernel)) {
		flags |= SBI_PMU_CFG_FLAG_SET_VSINH;
		inh |= RVCTR_HPMEVENT_VSINH;
	}
	hwc->config_base = flags;
	/* The firmware sets MINH itself; delegated counters need it too. */
	hwc->config |= inh | RVCTR_HPMEVENT_MINH;
	if (flags & (SBI_PMU_CFG_FLAG_SET_UINH | SBI_PMU_CFG_FLAG_SET_SINH))
		hwc->extra_reg.config &= ~(BIT(0) | BIT(2));
	return 0;
}

static int rvctr_map_hw(struct rvctr_pmu *rp, struct hw_perf_event *hwc,
			u64 config)
{
	if (config >= PERF_COUNT_HW_MAX)
		return -EINVAL;
	if (!(rp->hw_ok & BIT(config)))
		return -ENOENT;
	/* SBI numbers the generic events as perf does, from 1. */
	hwc->event_base = SBI_PMU_EVENT_TYPE_HW << 16 | (config + 1);
	hwc->config = hwc->event_base;
	return 0;
}

static int rvctr_map_cache(struct rvctr_pmu *rp, struct hw_perf_event *hwc,
			   u64 config)
{
	unsigned int type = config & 0xff, op = (config >> 8) & 0xff;
	unsigned int result = (config >> 16) & 0xff, code;

	if (type >= PERF_COUNT_HW_CACHE_MAX || op >= PERF_COUNT_HW_CACHE_OP_MAX ||
	    result >= PERF_COUNT_HW_CACHE_RESULT_MAX || config >> 24)
		return -EINVAL;
	code = type << 3 | op << 1 | result;
	if (!(rp->cache_ok & BIT_ULL(code)))
		return -ENOENT;
	hwc->event_base = SBI_PMU_EVENT_TYPE_CACHE << 16 | code;
	hwc->config = hwc->event_base;
	return 0;
}

/* A hardware raw event: the selector, checked by the vendor if known. */
static int rvctr_map_raw_hw(struct rvctr_pmu *rp, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 config = event->attr.config, sel = config;
	unsigned long cmask = hwc->extra_reg.config;
	int ret;

	if (rp->vendor && rp->vendor->map_raw) {
		ret = rp->vendor->map_raw(config, &sel, &cmask);
		if (ret)
			return ret;
	} else if (config & ~GENMASK_ULL(47, 0)) {
		return -EINVAL;
	}
	/* SBI raw events carry 48 bits of selector; wider needs delegation. */
	if ((sel & ~GENMASK_ULL(47, 0)) && !(cmask & rp->deleg_mask))
		return -EOPNOTSUPP;
	if (sel & ~GENMASK_ULL(47, 0))
		cmask &= rp->deleg_mask;
	hwc->event_base = SBI_PMU_EVENT_RAW_IDX;
	hwc->config = sel;
	hwc->extra_reg.config = cmask;
	return 0;
}

static int rvctr_map_raw(struct rvctr_pmu *rp, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 config = event->attr.config;

	switch (rvctr_fmt_get(RVCTR_FMT_FIRMWARE, &event->attr)) {
	case 0:
		return rvctr_map_raw_hw(rp, event);
	case 2:		/* SBI firmware event */
		hwc->event_base = SBI_PMU_EVENT_TYPE_FW << 16 |
				  (rvctr_fmt_get(RVCTR_FMT_EVENT, &event->attr) & 0xffff);
		hwc->config = 0;
		break;
	case 3:		/* platform firmware event, raw data below */
		hwc->event_base = SBI_PMU_EVENT_TYPE_FW << 16 | RISCV_PLAT_FW_EVENT;
		hwc->config = config & RISCV_PMU_PLAT_FW_EVENT_MASK;
		break;
	default:
		return -EINVAL;
	}
	hwc->flags |= RVCTR_F_FW;
	hwc->extra_reg.config = rp->fw_mask;
	return 0;
}

/*
 * The SBI implementation counts a firmware event (SBI v2.0 11.5): no
 * overflow interrupt, and nothing CTR could stop at.  Nor a privilege
 * filter: SBI defines the SET_xINH flags of COUNTER_CFG_MATCH ("Configure
 * matching counters") as a hardware counter's mhpmevent xINH bits, and
 * a firmware counter counts what the firmware does in M-mode, on behalf
 * of U-mode (a misaligned access it emulates) and S-mode (an SBI call)
 * alike.  So the exclude bits are refused, with EOPNOTSUPP as for a
 * hardware event without Sscofpmf (rvctr_event_filters()), rather than
 * ignored; exclude_guest, which perf sets on every event, is taken as
 * there.
 */
static int rvctr_fw_event_ok(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;

	if (is_sampling_event(event) || has_branch_stack(event))
		return -EOPNOTSUPP;
	if (attr->exclude_user || attr->exclude_kernel || attr->exclude_host ||
	    attr->exclude_hv) {
		pr_debug("firmware events count every mode: no exclude_user/kernel/host/hv\n");
		return -EOPNOTSUPP;
	}
	return 0;
}

/*
 * Map @event; on success hw.* hold everything the counter code needs.
 * Sampling events need an overflow interrupt, so they only go on
 * programmable counters (cycle and instret have no OF bit).
 */
int rvctr_event_map(struct rvctr_pmu *rp, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	int ret;

	hwc->flags = 0;
	hwc->extra_reg.config = rp->hw_mask;
	switch (event->attr.type) {
	case PERF_TYPE_HARDWARE:
		ret = rvctr_map_hw(rp, hwc, event->attr.config);
		break;
	case PERF_TYPE_HW_CACHE:
		ret = rvctr_map_cache(rp, hwc, event->attr.config);
		break;
	case PERF_TYPE_RAW:
		ret = rvctr_map_raw(rp, event);
		break;
	default:
		return -ENOENT;
	}
	if (ret)
		return ret;
	if (hwc->flags & RVCTR_F_FW)
		return rvctr_fw_event_ok(event);
	hwc->flags |= RVCTR_F_DELEG;
	if (is_sampling_event(event))
		hwc->extra_reg.config &= ~(BIT(0) | BIT(2));
	return rvctr_event_filters(rp, event);
}
