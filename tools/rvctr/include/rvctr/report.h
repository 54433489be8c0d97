/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Branch statistics over branch-stack samples: histogram by branch type,
 * hottest edges with their mispredict rate and mean cycles, and branches
 * by binary and function (ELF symbols of the mapped files).
 */
#ifndef RVCTR_REPORT_H
#define RVCTR_REPORT_H

#include <stdio.h>
#include <rvctr/perf_data.h>

struct rvctr_report;

/* @symfs: directory prefixed to mapped file names when loading symbols (or NULL). */
struct rvctr_report *rvctr_report__new(const char *symfs);
void rvctr_report__delete(struct rvctr_report *r);
/* Where else to look for files (see rvctr/symtab.h); each may be NULL.
 * The strings must outlive @r. */
void rvctr_report__set_lookup(struct rvctr_report *r, const char *buildid_dir,
			      const char *kallsyms, const char *vmlinux);
/*
 * A map (rvctr_maps__add()): 0, kept; 1, kept but a part of an older map
 * dropped (a full table); -1, not kept (full, or out of memory).
 */
int rvctr_report__mmap(struct rvctr_report *r, const struct rvctr_mmap *m);
/* FORK, EXIT, COMM: which process has which maps (rvctr/maps.h). */
int rvctr_report__task(struct rvctr_report *r, const struct rvctr_event *ev);
/* Another input starts: no process of the previous one carries over. */
void rvctr_report__input(struct rvctr_report *r);
/*
 * What the recording knew about its files: symbols are only taken from a
 * file whose build id matches (when one was recorded) and whose machine
 * matches @arch (HEADER_ARCH, may be NULL); others show addresses.
 * Call both before the first sample.
 */
void rvctr_report__set_arch(struct rvctr_report *r, const char *arch);
int rvctr_report__build_id(struct rvctr_report *r, const struct rvctr_build_id *b);
/*
 * @n not-taken records (ctr_ntbr, NTBREN) were taken out of the sample to
 * come (source__drop_not_taken()): counted apart, not as branches or edges.
 */
void rvctr_report__not_taken(struct rvctr_report *r, uint64_t n);
int rvctr_report__sample(struct rvctr_report *r, const struct rvctr_sample *s);
/* Print the tables, at most @top rows each. */
int rvctr_report__print(struct rvctr_report *r, FILE *out, unsigned int top);
uint64_t rvctr_report__nr_branches(const struct rvctr_report *r);

#endif /* RVCTR_REPORT_H */
