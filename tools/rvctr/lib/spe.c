// SPDX-License-Identifier: GPL-2.0-only
/* SPE-like per-branch samples; see rvctr/spe.h. */
#include <string.h>

#include <rvctr/spe.h>

void rvctr_spe__attrs(struct perf_event_attr attrs[RVCTR_SPE_NR_ATTRS],
		      const char *names[RVCTR_SPE_NR_ATTRS], const struct perf_event_attr *in)
{
	unsigned int i;

	memset(attrs, 0, RVCTR_SPE_NR_ATTRS * sizeof(*attrs));
	for (i = 0; i < RVCTR_SPE_NR_ATTRS; i++) {
		/*
		 * Raw events named by HEADER_EVENT_DESC: the hardware event
		 * "branch-instructions" with period 1 is what perf takes for
		 * Intel BTS, and perf script then prints it as a branch trace
		 * without the branch stack.
		 */
		attrs[i].type = PERF_TYPE_RAW;
		attrs[i].size = sizeof(attrs[i]);
		attrs[i].config = i;
		attrs[i].sample_period = 1;
		attrs[i].sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
				       PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
				       PERF_SAMPLE_PERIOD | PERF_SAMPLE_BRANCH_STACK |
				       PERF_SAMPLE_WEIGHT;
		/* arm-spe.c: "the sample generation code uses the new format
		 * branch_stack with this field" */
		attrs[i].branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX;
		attrs[i].sample_id_all = 1;
		if (in) {
			attrs[i].sample_type |= in->sample_type & PERF_SAMPLE_CPU;
			attrs[i].exclude_user = in->exclude_user;
			attrs[i].exclude_kernel = in->exclude_kernel;
			attrs[i].exclude_hv = in->exclude_hv;
		} else {
			attrs[i].exclude_kernel = 1;
			attrs[i].exclude_hv = 1;
		}
	}
	names[RVCTR_SPE_BRANCH] = "branch";
	names[RVCTR_SPE_BRANCH_MISS] = "branch-miss";
}

uint16_t rvctr_spe__cpumode(uint64_t ip)
{
	/* Sv39/48/57 sign-extend: kernel addresses have bit 63 set */
	return (int64_t)ip < 0 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
}

static int emit_one(struct rvctr_writer *w, const struct rvctr_sample *s, uint64_t i,
		    unsigned int attr)
{
	struct perf_branch_entry pair[2];
	const struct perf_branch_entry *b = &s->branches[i];
	struct rvctr_sample o = {
		.attr = attr,
		.misc = rvctr_spe__cpumode(b->from),
		.ip = b->from,
		.addr = b->to,
		.weight = b->cycles,
		.pid = s->pid,
		.tid = s->tid,
		.time = s->time,
		.cpu = s->cpu,
		.period = 1,
		.hw_idx = -1ULL,
		.nr_branches = 1,
		.branches = pair,
	};

	pair[0] = *b;
	/* the previous branch target: the older record's target, no source */
	if (i + 1 < s->nr_branches && s->branches[i + 1].to) {
		memset(&pair[1], 0, sizeof(pair[1]));
		pair[1].to = s->branches[i + 1].to;
		pair[1].type = PERF_BR_UNKNOWN;
		o.nr_branches = 2;
	}
	return rvctr_writer__sample(w, &o);
}

int rvctr_spe__emit(struct rvctr_writer *w, const struct rvctr_sample *s)
{
	uint64_t i;

	/* oldest first, so that times and file order agree with execution */
	for (i = s->nr_branches; i-- > 0;) {
		if (emit_one(w, s, i, RVCTR_SPE_BRANCH))
			return -1;
		if (s->branches[i].mispred && emit_one(w, s, i, RVCTR_SPE_BRANCH_MISS))
			return -1;
	}
	return 0;
}
