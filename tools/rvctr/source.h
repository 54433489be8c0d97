/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One input for the subcommands: a perf.data file or a raw CTR snapshot
 * text, told apart by their first bytes, read as a stream of events.
 */
#ifndef RVCTR_SOURCE_H
#define RVCTR_SOURCE_H

#include <stdint.h>
#include <rvctr/perf_data.h>

struct rvctr_ntbr;

struct source_opts {
	const char *binary;	/* snapshots: the program the addresses belong to */
	uint32_t pid;		/* snapshots: pid/tid to attribute samples to */
	int has_misp;		/* snapshots: the hart implements ctrtarget.MISP */
};

struct source;

/* @path "-" is standard input (a pipe is probed without seeking). */
struct source *source__open(const char *path, const struct source_opts *o,
			    char *err, size_t errlen);
void source__close(struct source *s);
/* 1: an event; 0: end; -1: error (source__error). */
int source__next(struct source *s, struct rvctr_event *ev);
const char *source__error(const struct source *s);
/* Fraction of the input consumed, for progress. */
double source__progress(const struct source *s);
/* The perf.data reader, NULL for snapshots (for build ids and attrs). */
const struct rvctr_reader *source__reader(const struct source *s);
struct rvctr_reader *source__reader_mut(struct source *s);
int source__is_snapshot(const struct source *s);
/*
 * Snapshots: the sctrctl bits any snapshot read so far had set, NTBREN
 * too once an entry was a not-taken branch.
 */
uint64_t source__snapshot_ctl(const struct source *s);
/*
 * Take @smp's not-taken records out (rvctr_ntbr__drop(), into @out):
 * snapshots' TYPE 4 entries, and the records of perf.data samples whose
 * own event was recorded with ctr_ntbr, told apart by @n.  How many.
 */
uint64_t source__drop_not_taken(struct source *s, struct rvctr_sample *smp, struct rvctr_ntbr *n,
				struct perf_branch_entry *out);

#endif /* RVCTR_SOURCE_H */
