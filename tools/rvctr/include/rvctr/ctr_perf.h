/* SPDX-License-Identifier: GPL-2.0-only */
/* Raw CTR entries to perf branch entries, through the shared decoder. */
#ifndef RVCTR_CTR_PERF_H
#define RVCTR_CTR_PERF_H

#include <rvctr/ctr.h>

/*
 * Decode @nr raw entries (entry 0 newest) with rvctr_decode() into @out,
 * skipping invalid ones; returns the number written.
 */
unsigned int rvctr_ctr_to_perf(const struct rvctr_raw_entry *raw, unsigned int nr,
			       int has_misp, struct perf_branch_entry *out);

#endif /* RVCTR_CTR_PERF_H */
