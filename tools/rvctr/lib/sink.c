// SPDX-License-Identifier: GPL-2.0-only
/* The output formats and event dispatch; see rvctr/sink.h. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <rvctr/sink.h>

const struct rvctr_sink_ops *const rvctr_sinks[] = {
	&rvctr_sink_perf, &rvctr_sink_spe, &rvctr_sink_autofdo, &rvctr_sink_perfscript,
	&rvctr_sink_profgen, NULL,
};

const struct rvctr_sink_ops *rvctr_sink__find(const char *name)
{
	unsigned int i;

	for (i = 0; rvctr_sinks[i]; i++)
		if (!strcmp(rvctr_sinks[i]->name, name))
			return rvctr_sinks[i];
	return NULL;
}

struct rvctr_sink *rvctr_sink__open(const struct rvctr_sink_ops *ops,
				    const struct rvctr_sink_info *info, char *err, size_t errlen)
{
	struct rvctr_sink *s = ops->open(info, err, errlen);

	if (s)
		s->ops = ops;
	return s;
}

int rvctr_sink__close(struct rvctr_sink *s, char *err, size_t errlen)
{
	int ret;

	s->err[0] = 0;
	ret = s->ops->close(s);
	if (ret)
		snprintf(err, errlen, "%s", s->err);
	free(s);
	return ret;
}

void rvctr_sink__abort(struct rvctr_sink *s)
{
	if (s)
		s->ops->abort(s);
}

int rvctr_sink__fail(struct rvctr_sink *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
	return -1;
}

int rvctr_sink__input(struct rvctr_sink *s)
{
	return s->ops->input ? s->ops->input(s) : 0;
}

int rvctr_sink__nr_cpus(struct rvctr_sink *s, uint32_t avail, uint32_t online)
{
	return s->ops->nr_cpus ? s->ops->nr_cpus(s, avail, online) : 0;
}

int rvctr_sink__part(struct rvctr_sink *s, uint32_t pid, uint64_t addr, uint64_t *start,
		     uint64_t *len)
{
	return s->ops->part(s, pid, addr, start, len);
}

int rvctr_sink__output_part(struct rvctr_sink *s, const char **name)
{
	*name = NULL;
	return s->ops->output_part ? s->ops->output_part(s, name) : 0;
}

int rvctr_sink__event(struct rvctr_sink *s, const struct rvctr_event *ev)
{
	const struct rvctr_sink_ops *o = s->ops;

	switch (ev->type) {
	case PERF_RECORD_SAMPLE:
		return o->sample ? o->sample(s, &ev->sample) : 0;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return o->mmap ? o->mmap(s, ev) : 0;
	case PERF_RECORD_COMM:
		return o->comm ? o->comm(s, ev) : 0;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return o->task ? o->task(s, ev) : 0;
	case PERF_RECORD_FINISHED_ROUND:
		return o->round ? o->round(s) : 0;
	default:
		return 0;
	}
}
