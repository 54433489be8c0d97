/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The driver's raw CTR snapshot text (debugfs rvctr/ctr).  One snapshot is a
 * header line "sctrstatus 0x<hex> depth <N> [sctrctl 0x<hex>]" followed by
 * one line per entry,
 * "<idx> 0x<ctrsource> 0x<ctrtarget> 0x<ctrdata>", entry 0 the newest.
 * A file may hold several snapshots; blank lines and '#' comments are
 * ignored.  This module is the only code that knows that text.
 */
#ifndef RVCTR_SNAPSHOT_H
#define RVCTR_SNAPSHOT_H

#include <stdio.h>
#include <stdint.h>
#include <rvctr/ctr_decode.h>

struct rvctr_snapshot {
	uint64_t sctrstatus;
	uint64_t sctrctl;		/* 0 when the header does not give it */
	unsigned int depth;		/* as announced by the header */
	unsigned int nr;		/* entries read (== depth when complete) */
	struct riscv_ctr_raw entries[RISCV_CTR_DEPTH_MAX];
};

/*
 * The filter a snapshot's entries are converted under: every mode and
 * type, as recorded.  The conversion is the driver's own sample path
 * (riscv_ctr_tmpl_init() and riscv_ctr_fast(), drivers/perf/riscv_ctr_rec.h)
 * run by riscv_ctr_stack_to_perf() (lib/ctr_decode.c).
 */
#define RVCTR_SNAPSHOT_BST	(PERF_SAMPLE_BRANCH_USER | \
				 PERF_SAMPLE_BRANCH_KERNEL | \
				 PERF_SAMPLE_BRANCH_ANY)

struct rvctr_snapshot_reader;

struct rvctr_snapshot_reader *rvctr_snapshot_reader__new(FILE *f);
void rvctr_snapshot_reader__delete(struct rvctr_snapshot_reader *r);
/* 1: a snapshot was read; 0: end of input; -1: error (see __error). */
int rvctr_snapshot_reader__next(struct rvctr_snapshot_reader *r, struct rvctr_snapshot *s);
const char *rvctr_snapshot_reader__error(const struct rvctr_snapshot_reader *r);
/* Does the text start like a snapshot?  (for format detection) */
int rvctr_snapshot__probe(const char *buf, size_t len);

#endif /* RVCTR_SNAPSHOT_H */
