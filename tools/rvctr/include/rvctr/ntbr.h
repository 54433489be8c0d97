/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The not-taken records of branch stacks recorded with not-taken branches
 * (ctr_ntbr, NTBREN) told from the taken ones, and dropped for outputs of
 * taken branches.  A record whose type says it is not taken is; a COND to
 * 4 bytes on (rvctr/brstack.h) is decided by the length of the instruction
 * at its source (rvctr/insn.h), read from the binary the machine has
 * mapped there: 32 bits, not taken; 16, a taken compressed branch.  One
 * that cannot be read is taken as not taken and counted ("undecided").
 *
 * With a sink that shows only part of its input (rvctr_sink_ops.part:
 * AutoFDO's one binary), a record is read only when its decision can
 * change a part of the output.  Between the nearest records known taken
 * on either side (or a stack's end), it can change only ranges from the
 * older one's target to the newer one's source, split at records between
 * or not, and whether those records count: so only the parts that the
 * ends of the records between and those two facing ends go to.  When
 * there are none, it is taken as not taken, unread and uncounted.
 */
#ifndef RVCTR_NTBR_H
#define RVCTR_NTBR_H

#include <stddef.h>
#include <rvctr/perf_data.h>

struct rvctr_ntbr;
struct rvctr_machine;
struct rvctr_sink;

/*
 * For the samples of @m's processes, as @sink shows them (NULL: every
 * record counts, as one part); both must outlive it.  NULL out of memory.
 */
struct rvctr_ntbr *rvctr_ntbr__new(struct rvctr_machine *m, struct rvctr_sink *sink);
void rvctr_ntbr__delete(struct rvctr_ntbr *n);
/* Input @path starts (named in messages; the string must outlive @n). */
void rvctr_ntbr__input(struct rvctr_ntbr *n, const char *path);
/*
 * Take @smp's not-taken records out: its branches are then the taken
 * ones, copied to @out (RVCTR_MAX_BRANCHES entries), and its recorded
 * ones the stack as it was, when any was taken out.  @known: each
 * record's flag when the input says it exactly (a snapshot's TYPE 4
 * entries), else NULL (decided as above).  Returns how many were taken
 * out.
 */
uint64_t rvctr_ntbr__drop(struct rvctr_ntbr *n, struct rvctr_sample *smp, const uint8_t *known,
			  struct perf_branch_entry *out);
/* Undecided records that can change part @part of the output (0: all of a sink without parts). */
uint64_t rvctr_ntbr__undecided(const struct rvctr_ntbr *n, int part);
/*
 * After the last input: the undecided records in what sink @s writes
 * (the one of rvctr_ntbr__new(), or the output it was given to when
 * that showed every record).  A range output is refused for them (-1,
 * with @err) unless @force; else a warning.  0 when there are none.
 */
int rvctr_ntbr__check(struct rvctr_ntbr *n, struct rvctr_sink *s, int force, char *err,
		      size_t errlen);
/* The warning for the current input's undecided records, if any. */
void rvctr_ntbr__warn_input(const struct rvctr_ntbr *n);

#endif /* RVCTR_NTBR_H */
