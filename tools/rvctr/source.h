/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One input for the subcommands: a perf.data file or a raw CTR snapshot
 * text, told apart by their first bytes, read as a stream of events.
 */
#ifndef RVCTR_SOURCE_H
#define RVCTR_SOURCE_H

#include <stdint.h>
#include <rvctr/perf_data.h>
#include <rvctr/symtab.h>

struct source_opts {
	const char *binary;	/* snapshots: the program the addresses belong to */
	uint32_t pid;		/* snapshots: pid/tid to attribute samples to */
	int has_misp;		/* snapshots: the hart implements ctrtarget.MISP */
	const struct rvctr_symfind *find;	/* perf.data: where its binaries are, to
						 * read the instructions of not-taken
						 * records (NULL: the defaults) */
	int keep_not_taken;	/* perf.data: source__drop_not_taken() is never
				 * called, so no instruction is read */
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
 * What of a sample an output shows, so that records it cannot show are
 * not read: @part(ctx, pid, addr, start, len) the part of the output
 * (>= 0) a record's end at @addr of @pid goes to, -1 none, the same for
 * the addresses [*start, *start + *len) of @pid until the next record
 * that is no sample (*len 0: only @addr) (NULL: all part 0);
 * @undecided(ctx, parts, nr, why) is told of each record left undecided,
 * with the parts it can change and why it could not be decided.
 */
struct source_scope {
	int (*part)(void *ctx, uint32_t pid, uint64_t addr, uint64_t *start, uint64_t *len);
	void (*undecided)(void *ctx, const int *parts, unsigned int nr, const char *why);
	void *ctx;
};

/*
 * Take @smp's not-taken records (rvctr/brstack.h) out: its branches are
 * then the taken ones, copied to @out (RVCTR_MAX_BRANCHES entries), and
 * its recorded ones the stack as it was, when any was taken out.
 * Returns how many were taken out.  Snapshots: exactly the TYPE 4
 * entries.  perf.data: only if @smp's own event was recorded with
 * ctr_ntbr, the records rvctr_brstack__not_taken() says are; a COND to 4
 * bytes on by the length of the instruction at its source, read from the
 * binary mapped there (rvctr/insn.h), or, when that cannot be read, taken
 * as not taken and counted (source__warn_ambiguous()).
 *
 * With @scope, a COND to 4 bytes on is read only when its decision can
 * change a part of the output.  Between the nearest records known taken
 * on either side (or a stack's end), it can change only ranges from the
 * older one's target to the newer one's source, split at records between
 * or not, and whether those records count: so only the parts that the
 * ends of the records between and those two facing ends go to.  When
 * there are none, it is taken as not taken, unread and uncounted.
 */
uint64_t source__drop_not_taken(struct source *s, struct rvctr_sample *smp,
				struct perf_branch_entry *out, const struct source_scope *scope);
/*
 * The warning for the records of @path counted so, if any, saying why the
 * first could not be decided.
 */
void source__warn_ambiguous(const struct source *s, const char *path);

#endif /* RVCTR_SOURCE_H */
