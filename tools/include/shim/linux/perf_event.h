/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The UAPI <linux/perf_event.h> of the build host, plus what
 * riscv_ctr_rec.{c,h} use of a newer one: PERF_SAMPLE_BRANCH_COUNTERS
 * (bit 19; an enum constant there, so defined here whether or not the
 * host's header has it, with the same value).
 */
#ifndef RVCTR_SHIM_LINUX_PERF_EVENT_H
#define RVCTR_SHIM_LINUX_PERF_EVENT_H

#include_next <linux/perf_event.h>

#ifndef PERF_SAMPLE_BRANCH_COUNTERS
#define PERF_SAMPLE_BRANCH_COUNTERS	(1U << 19)
#endif

#endif /* RVCTR_SHIM_LINUX_PERF_EVENT_H */
