// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the perf.data reader (file and pipe mode, compressed
 * records, the ordering queue with a small bound so that its early
 * release runs too), and the report, AutoFDO aggregation and perf-script
 * sink on what it reads.
 */
#include <stdio.h>

#include <rvctr/autofdo.h>
#include <rvctr/perf_data.h>
#include <rvctr/report.h>
#include <rvctr/sink.h>

static int identity(void *ctx, uint64_t addr, uint64_t *out)
{
	(void)ctx;
	*out = addr;
	return addr & 1 ? -1 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fmemopen((void *)data, size, "rb");
	struct rvctr_sink_info info = { .path = "/dev/null" };
	struct rvctr_reader *r;
	struct rvctr_report *rep;
	struct rvctr_sink *sink;
	struct rvctr_afdo *a;
	struct rvctr_event ev;
	unsigned int i;
	char err[256];

	if (!f)
		return 0;
	r = rvctr_reader__fopen(f, err, sizeof(err));
	if (!r) {
		fclose(f);
		return 0;
	}
	rvctr_reader__set_queue_limit(r, 2048);
	rep = rvctr_report__new("/nonexistent");
	a = rvctr_afdo__new();
	sink = rvctr_sink__open(&rvctr_sink_perfscript, &info, err, sizeof(err));
	while (rvctr_reader__next(r, &ev) > 0) {
		if (ev.type == PERF_RECORD_SAMPLE) {
			rvctr_report__sample(rep, &ev.sample);
			rvctr_afdo__add(a, ev.sample.ip, ev.sample.branches, ev.sample.nr_branches,
					identity, NULL);
		} else if (ev.type == PERF_RECORD_MMAP2 || ev.type == PERF_RECORD_MMAP) {
			rvctr_report__mmap(rep, &ev.mmap);
		}
		if (sink)
			rvctr_sink__event(sink, &ev);
	}
	for (i = 0; i < rvctr_reader__nr_warnings(r); i++)
		rvctr_reader__warning(r, i);
	rvctr_reader__arch(r);
	rvctr_reader__close(r);
	if (sink)
		rvctr_sink__close(sink, err, sizeof(err));
	rvctr_report__delete(rep);
	rvctr_afdo__delete(a);
	fclose(f);
	return 0;
}
