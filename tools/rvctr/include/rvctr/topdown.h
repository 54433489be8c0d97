/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Top-down analysis, levels 1 to 3, with the formulas XiangShan Kunminghu
 * documents in the HPM chapter of its design document (V2R2, "Topdown
 * PMU").  Counts come by event name; a metric whose events are missing
 * is reported as unavailable, naming what it needs.
 */
#ifndef RVCTR_TOPDOWN_H
#define RVCTR_TOPDOWN_H

#include <stdio.h>

enum rvctr_td_event {
	TD_CPU_CYCLES,
	TD_INST_RETIRED,
	TD_INST_SPEC,
	TD_IF_FETCH_BUBBLE,
	TD_IF_FETCH_BUBBLE_EQ_MAX,
	TD_BR_MIS_PRED,
	TD_TOTAL_FLUSH,
	TD_RECOVERY_BUBBLE,
	TD_EXEC_STALL_CYCLE,
	TD_MEMSTALL_ANYLOAD,
	TD_MEMSTALL_STORE,
	TD_MEMSTALL_L1MISS,
	TD_MEMSTALL_L2MISS,
	TD_MEMSTALL_L3MISS,
	TD_NR_EVENTS,
};

struct rvctr_topdown {
	double count[TD_NR_EVENTS];
	unsigned int have;		/* bit per event */
	unsigned int issue_width;	/* IssueBW; Kunminghu issues 6 */
};

void rvctr_topdown__init(struct rvctr_topdown *td, unsigned int issue_width);
/* 0 when @name is a topdown event (or an alias), 1 when it is not one. */
int rvctr_topdown__set(struct rvctr_topdown *td, const char *name, double value);
/*
 * One line of `perf stat -x,` output ("value,unit,event,...") or
 * "event value": 0 used, 1 ignored (comment, other event, <not counted>),
 * -1 malformed.
 */
int rvctr_topdown__parse_line(struct rvctr_topdown *td, const char *line);
const char *rvctr_topdown__event_name(unsigned int ev);
/*
 * Metric @i (0..n-1 in print order): its value as a fraction, or -1 and
 * @missing set to the mask of absent events.  Returns -2 past the end.
 */
double rvctr_topdown__metric(const struct rvctr_topdown *td, unsigned int i,
			     const char **name, unsigned int *level, unsigned int *missing);
void rvctr_topdown__print(const struct rvctr_topdown *td, FILE *out, unsigned int max_level);

#endif /* RVCTR_TOPDOWN_H */
