/* SPDX-License-Identifier: GPL-2.0-only */
/* What the perf.data sinks (perf, spe) share: lib/sink-perf.c.  Private. */
#ifndef RVCTR_SINK_WRITER_H
#define RVCTR_SINK_WRITER_H

#include <rvctr/sink.h>

struct writer_sink {
	struct rvctr_sink base;
	struct rvctr_writer *w;
	int local_build_ids;
};

struct rvctr_sink *writer_sink__open(const struct rvctr_sink_info *info,
				     const struct perf_event_attr *attrs,
				     const char *const *names, unsigned int nr,
				     char *err, size_t errlen);
int writer_sink__build_id(struct rvctr_sink *s, const struct rvctr_build_id *b);
int writer_sink__comm(struct rvctr_sink *s, const struct rvctr_event *ev);
int writer_sink__mmap(struct rvctr_sink *s, const struct rvctr_event *ev);
int writer_sink__task(struct rvctr_sink *s, const struct rvctr_event *ev);
int writer_sink__round(struct rvctr_sink *s);
int writer_sink__nr_cpus(struct rvctr_sink *s, uint32_t avail, uint32_t online);
int writer_sink__close(struct rvctr_sink *s);
void writer_sink__abort(struct rvctr_sink *s);
/* The writer's error as the sink's; -1. */
int writer_sink__failed(struct writer_sink *ws);

#endif /* RVCTR_SINK_WRITER_H */
