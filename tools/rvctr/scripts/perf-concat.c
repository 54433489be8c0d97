// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf-concat N IN OUT: a recording N times as long, for measuring how
 * the converter's time and memory grow with its input: IN's records N
 * times over, each copy's times shifted past the one before (sample
 * TIME, the sample_id trailer's TIME, FORK/EXIT's time), its rounds
 * kept.  The first attribute only (the profile-bench recordings have
 * one), its build ids and arch.  perf itself has no such tool: perf
 * inject reads one input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rvctr/perf_data.h>

static uint64_t first, last;

static void shift_at(uint64_t *buf, size_t at, size_t size, uint64_t shift)
{
	uint64_t t;

	if (!at || at + 8 > size)
		return;
	memcpy(&t, (char *)buf + at, 8);
	t += shift;
	memcpy((char *)buf + at, &t, 8);
}

/* Shift a record's times: sample TIME, FORK/EXIT's, the sample_id trailer's. */
static void shift_times(const struct perf_event_attr *a, const struct rvctr_event *ev,
			uint64_t *buf, uint64_t shift)
{
	uint64_t st = a->sample_type;

	if (ev->type == PERF_RECORD_FORK || ev->type == PERF_RECORD_EXIT)
		shift_at(buf, 24, ev->size, shift);
	if (!(st & PERF_SAMPLE_TIME))
		return;
	if (ev->type == PERF_RECORD_SAMPLE) {
		shift_at(buf, 8 + 8 * (!!(st & PERF_SAMPLE_IDENTIFIER) + !!(st & PERF_SAMPLE_IP) +
				       !!(st & PERF_SAMPLE_TID)), ev->size, shift);
		return;
	}
	if (a->sample_id_all)
		shift_at(buf, ev->size - 8 * (1 + !!(st & PERF_SAMPLE_IDENTIFIER) +
					      !!(st & PERF_SAMPLE_CPU) +
					      !!(st & PERF_SAMPLE_STREAM_ID) +
					      !!(st & PERF_SAMPLE_ID)), ev->size, shift);
}

/* One copy of @in into @w, times + @shift (@w NULL: only the time span). */
static int copy(const char *in, struct rvctr_writer *w, uint64_t shift)
{
	static uint64_t buf[65536 / 8];
	char err[256];
	struct rvctr_reader *r = rvctr_reader__open(in, err, sizeof(err));
	struct rvctr_event ev;
	int ret;

	if (!r)
		return fprintf(stderr, "perf-concat: %s\n", err), -1;
	while ((ret = rvctr_reader__next(r, &ev)) > 0) {
		if (ev.time && ev.time != UINT64_MAX) {
			first = first && first < ev.time ? first : ev.time;
			last = last > ev.time ? last : ev.time;
		}
		if (!w)
			continue;
		if (ev.type == PERF_RECORD_FINISHED_ROUND) {
			rvctr_writer__finished_round(w);
			continue;
		}
		memcpy(buf, ev.raw, ev.size);
		shift_times(rvctr_reader__attr(r, 0), &ev, buf, shift);
		rvctr_writer__raw(w, buf, ev.size);
	}
	if (ret < 0)
		fprintf(stderr, "perf-concat: %s\n", rvctr_reader__error(r));
	rvctr_reader__close(r);
	return ret;
}

static struct rvctr_writer *open_out(const char *in, const char *out)
{
	char err[256];
	struct rvctr_reader *r = rvctr_reader__open(in, err, sizeof(err));
	struct rvctr_writer *w;
	unsigned int i;

	if (!r)
		return fprintf(stderr, "perf-concat: %s\n", err), NULL;
	w = rvctr_writer__open(out, rvctr_reader__attr(r, 0), NULL, 1, err, sizeof(err));
	if (!w) {
		fprintf(stderr, "perf-concat: %s\n", err);
	} else {
		for (i = 0; i < rvctr_reader__nr_build_ids(r); i++) {
			const struct rvctr_build_id *b = rvctr_reader__build_id(r, i);

			rvctr_writer__add_build_id(w, b->pid, b->misc, b->filename, b->id, b->size);
		}
		if (rvctr_reader__arch(r))
			rvctr_writer__set_arch(w, rvctr_reader__arch(r));
	}
	rvctr_reader__close(r);
	return w;
}

int main(int argc, char **argv)
{
	struct rvctr_writer *w;
	char err[256];
	int n, k;

	if (argc != 4 || (n = atoi(argv[1])) < 1) {
		fprintf(stderr, "usage: perf-concat N IN OUT\n");
		return 2;
	}
	if (copy(argv[2], NULL, 0) || !(w = open_out(argv[2], argv[3])))
		return 1;
	for (k = 0; k < n; k++)
		if (copy(argv[2], w, k * (last - first + 1)))
			return 1;
	if (rvctr_writer__close(w, err, sizeof(err)))
		return fprintf(stderr, "perf-concat: %s\n", err), 1;
	return 0;
}
