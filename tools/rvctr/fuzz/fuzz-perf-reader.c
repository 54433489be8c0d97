// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the perf.data reader (file and pipe mode, compressed
 * records, the ordering queue with a small bound so that its early
 * release runs too), and the report, AutoFDO aggregation and perf-script
 * sink on what it reads.  The same bytes read from memory (as a mapped
 * file is read: records in place) must give the same events as through
 * stdio, or the target aborts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rvctr/autofdo.h>
#include <rvctr/perf_data.h>
#include <rvctr/machine.h>
#include <rvctr/report.h>
#include <rvctr/sink.h>

static int identity(void *ctx, uint64_t addr, uint64_t *out)
{
	(void)ctx;
	*out = addr;
	return addr & 1 ? -1 : 0;
}

static void fold(uint64_t *h, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--)
		*h = (*h ^ *b++) * 0x100000001b3ULL;
}

static void fold_event(uint64_t *h, const struct rvctr_event *ev)
{
	fold(h, &ev->type, sizeof(ev->type));
	fold(h, &ev->time, sizeof(ev->time));
	fold(h, &ev->size, sizeof(ev->size));
	if (ev->raw)
		fold(h, ev->raw, ev->size);
	if (ev->type == PERF_RECORD_SAMPLE)
		fold(h, ev->sample.branches, ev->sample.nr_branches * sizeof(*ev->sample.branches));
}

/* Everything read from memory: the events, then the end (status, error). */
static uint64_t memory_digest(const uint8_t *data, size_t size)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	uint8_t *copy = malloc(size ? size : 1);	/* its own, aligned buffer */
	struct rvctr_reader *r;
	struct rvctr_event ev;
	char err[256];
	int ret;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	r = rvctr_reader__open_memory(copy, size, err, sizeof(err));
	if (!r) {
		free(copy);
		return 1;	/* refused: so must stdio */
	}
	rvctr_reader__set_queue_limit(r, 2048);
	while ((ret = rvctr_reader__next(r, &ev)) > 0)
		fold_event(&h, &ev);
	fold(&h, &ret, sizeof(ret));
	fold(&h, rvctr_reader__error(r), strlen(rvctr_reader__error(r)));
	rvctr_reader__close(r);
	free(copy);
	return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t mem = memory_digest(data, size), h = 0xcbf29ce484222325ULL;
	int ret;
	FILE *f = fmemopen((void *)data, size, "rb");
	struct rvctr_sink_info info = { .path = "/dev/null" };
	struct rvctr_reader *r;
	struct rvctr_machine *m;
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
		if (mem != 1)
			abort();	/* memory read what stdio refused */
		return 0;
	}
	rvctr_reader__set_queue_limit(r, 2048);
	m = rvctr_machine__new(&(struct rvctr_symfind){ .symfs = "/nonexistent" }, NULL);
	rep = m ? rvctr_report__new(m) : NULL;
	a = rvctr_afdo__new();
	sink = rvctr_sink__open(&rvctr_sink_perfscript, &info, err, sizeof(err));
	while ((ret = rvctr_reader__next(r, &ev)) > 0) {
		fold_event(&h, &ev);
		if (m)
			rvctr_machine__event(m, &ev);
		if (ev.type == PERF_RECORD_SAMPLE) {
			if (rep)
				rvctr_report__sample(rep, &ev.sample);
			rvctr_afdo__add(a, ev.sample.ip, ev.sample.branches, ev.sample.nr_branches,
					identity, NULL);
		}
		if (sink)
			rvctr_sink__event(sink, &ev);
	}
	fold(&h, &ret, sizeof(ret));
	fold(&h, rvctr_reader__error(r), strlen(rvctr_reader__error(r)));
	if (h != mem)
		abort();	/* memory and stdio read different events */
	for (i = 0; i < rvctr_reader__nr_warnings(r); i++)
		rvctr_reader__warning(r, i);
	rvctr_reader__arch(r);
	rvctr_reader__close(r);
	if (sink)
		rvctr_sink__close(sink, err, sizeof(err));
	rvctr_report__delete(rep);
	rvctr_machine__delete(m);
	rvctr_afdo__delete(a);
	fclose(f);
	return 0;
}
