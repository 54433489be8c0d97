/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SPE-like per-branch samples (Arm ARM D17.6 carries, per sampled branch,
 * its address, target, the previous branch target and latency counts).
 * From each branch record we write an ordinary perf sample:
 *
 *   event   "branch", and "branch-miss" as well when the record is mispredicted
 *   ip      the branch source        addr    its target
 *   weight  cycles since the previous record (0 when the hart gives none)
 *   branch stack  [this branch, the previous (older) branch]
 *
 * so perf report/script sort and print them with no special support.
 */
#ifndef RVCTR_SPE_H
#define RVCTR_SPE_H

#include <rvctr/perf_data.h>

enum { RVCTR_SPE_BRANCH, RVCTR_SPE_BRANCH_MISS, RVCTR_SPE_NR_ATTRS };

/* The attributes and names of an SPE-like file, for rvctr_writer__open(). */
void rvctr_spe__attrs(struct perf_event_attr attrs[RVCTR_SPE_NR_ATTRS],
		      const char *names[RVCTR_SPE_NR_ATTRS]);
/* Write the per-branch samples of one branch-stack sample; 0 or -1. */
int rvctr_spe__emit(struct rvctr_writer *w, const struct rvctr_sample *s);

#endif /* RVCTR_SPE_H */
