// SPDX-License-Identifier: GPL-2.0-only
/* Raw CTR entries to perf_branch_entry; see rvctr/ctr_perf.h. */
#include <string.h>

#include <rvctr/ctr_perf.h>

unsigned int rvctr_ctr_to_perf(const struct rvctr_raw_entry *raw, unsigned int nr,
			       int has_misp, struct perf_branch_entry *out)
{
	unsigned int i, n = 0;

	for (i = 0; i < nr; i++) {
		struct rvctr_branch b;
		struct perf_branch_entry *e = &out[n];

		if (!rvctr_decode(&raw[i], has_misp, &b))
			continue;
		memset(e, 0, sizeof(*e));
		e->from = b.from;
		e->to = b.to;
		e->mispred = b.mispred;
		e->predicted = b.predicted;
		e->cycles = b.cycles;
		e->type = b.perf_type;
		n++;
	}
	return n;
}
