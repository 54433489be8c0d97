/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Branch statistics over branch-stack samples: histogram by branch type,
 * hottest edges with their mispredict rate and mean cycles, and branches
 * by binary and function (the machine's symbols of the mapped files).
 */
#ifndef RVCTR_REPORT_H
#define RVCTR_REPORT_H

#include <stdio.h>
#include <rvctr/perf_data.h>

struct rvctr_report;
struct rvctr_machine;

/*
 * Branches of @m's processes (fed every event of the inputs, in order,
 * before their samples come here): their binaries and symbols are @m's,
 * which must outlive the report.
 */
struct rvctr_report *rvctr_report__new(struct rvctr_machine *m);
void rvctr_report__delete(struct rvctr_report *r);
/*
 * @n not-taken records (ctr_ntbr, NTBREN) were taken out of the sample to
 * come (rvctr_ntbr__drop()): counted apart, not as branches or edges.
 */
void rvctr_report__not_taken(struct rvctr_report *r, uint64_t n);
int rvctr_report__sample(struct rvctr_report *r, const struct rvctr_sample *s);
/* Print the tables, at most @top rows each. */
int rvctr_report__print(struct rvctr_report *r, FILE *out, unsigned int top);
uint64_t rvctr_report__nr_branches(const struct rvctr_report *r);

#endif /* RVCTR_REPORT_H */
