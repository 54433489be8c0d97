// SPDX-License-Identifier: GPL-2.0-only
/* SPE-like per-branch samples (rvctr/spe.h) as a sink. */
#include <rvctr/spe.h>
#include "sink_writer.h"

static struct rvctr_sink *spe_open(const struct rvctr_sink_info *info, char *err, size_t errlen)
{
	struct perf_event_attr attrs[RVCTR_SPE_NR_ATTRS];
	const char *names[RVCTR_SPE_NR_ATTRS];

	rvctr_spe__attrs(attrs, names, info->attr);
	return writer_sink__open(info, attrs, names, RVCTR_SPE_NR_ATTRS, err, errlen);
}

static int spe_sample(struct rvctr_sink *s, const struct rvctr_sample *smp)
{
	struct writer_sink *ws = (struct writer_sink *)s;

	return rvctr_spe__emit(ws->w, smp) ? writer_sink__failed(ws) : 0;
}

const struct rvctr_sink_ops rvctr_sink_spe = {
	.name = "spe",
	/* a sample is a taken branch; [1] the previous taken one's target */
	.taken_only = 1,
	.help = "SPE-like per-branch samples (events branch, branch-miss; ip=source,\n"
		"addr=target, weight=cycles, brstack=[this, {0, previous target}],\n"
		"as perf's SPE)",
	.merge_pids = 1,
	.open = spe_open,
	.build_id = writer_sink__build_id,
	.comm = writer_sink__comm,
	.mmap = writer_sink__mmap,
	.task = writer_sink__task,
	.sample = spe_sample,
	.round = writer_sink__round,
	.nr_cpus = writer_sink__nr_cpus,
	.close = writer_sink__close,
	.abort = writer_sink__abort,
};
