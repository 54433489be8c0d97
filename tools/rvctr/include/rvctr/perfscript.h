/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Text in the shape of `perf script --show-mmap-events -F ip,brstack`,
 * the input llvm-profgen --perfscript reads: MMAP2 event lines, then one
 * line per sample, "<ip> 0x<from>/0x<to>/<M|P|->/-/-/<cycles>/<type>/- ...".
 */
#ifndef RVCTR_PERFSCRIPT_H
#define RVCTR_PERFSCRIPT_H

#include <stdio.h>
#include <rvctr/perf_data.h>

int rvctr_perfscript__mmap(FILE *out, const struct rvctr_mmap *m, const char *comm);
int rvctr_perfscript__sample(FILE *out, const struct rvctr_sample *s);
/* perf's name of a PERF_BR_* type ("COND", "CALL", ...), "-" if unknown. */
const char *rvctr_perf_branch_type_name(unsigned int type);

#endif /* RVCTR_PERFSCRIPT_H */
