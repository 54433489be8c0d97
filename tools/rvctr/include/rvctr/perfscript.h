/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Text in the shape of `perf script --show-mmap-events -F ip,brstack`,
 * the input llvm-profgen --perfscript reads: MMAP2 event lines, then one
 * line per sample, "<ip> 0x<from>/0x<to>/<M|P|->/-/-/<cycles>/<type>/- ...".
 *
 * Both formatters write into the caller's buffer (no stdio: the text is
 * written out in large pieces by the caller).
 */
#ifndef RVCTR_PERFSCRIPT_H
#define RVCTR_PERFSCRIPT_H

#include <stddef.h>
#include <rvctr/perf_data.h>

/* Room for one record's text and the scratch its stores leave past it. */
#define RVCTR_PERFSCRIPT_RECORD_MAX	96
/* The room rvctr_perfscript__format_sample() needs for @nr records. */
#define RVCTR_PERFSCRIPT_SAMPLE_MAX(nr)	((size_t)(nr) * RVCTR_PERFSCRIPT_RECORD_MAX + 32)

/*
 * The MMAP2 line (with its newline, NUL-terminated) of @m into @buf of
 * @len bytes: its length, or -1 when it does not fit.  @comm NULL: ":-1".
 */
int rvctr_perfscript__format_mmap(char *buf, size_t len, const struct rvctr_mmap *m,
				  const char *comm);
/* The formatter's state: a cache of the records' text (128 KiB). */
struct rvctr_perfscript;
struct rvctr_perfscript *rvctr_perfscript__new(void);
void rvctr_perfscript__delete(struct rvctr_perfscript *ps);
/*
 * The sample's line (with its newline, not NUL-terminated) at @buf, which
 * has RVCTR_PERFSCRIPT_SAMPLE_MAX(s->nr_branches) bytes: returns its end.
 * Bytes past the end, up to that size, may be overwritten.
 */
char *rvctr_perfscript__format_sample(struct rvctr_perfscript *ps, char *buf,
				      const struct rvctr_sample *s);
/* perf's name of a PERF_BR_* type ("COND", "CALL", ...), "-" if unknown. */
const char *rvctr_perf_branch_type_name(unsigned int type);

#endif /* RVCTR_PERFSCRIPT_H */
