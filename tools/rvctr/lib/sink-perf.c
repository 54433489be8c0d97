// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf.data with branch stacks: the input's event, rvctr's sample layout
 * (with the input's callchains, user registers and stacks), with COMM,
 * MMAP2 (cpumode, COMM_EXEC and build ids kept), FORK, EXIT and
 * FINISHED_ROUND at their times.  The writer part is shared with the SPE
 * sink (lib/sink_writer.h).
 */
#include <stdlib.h>
#include <string.h>

#include <rvctr/output.h>
#include <rvctr/symtab.h>
#include "sink_writer.h"

int writer_sink__failed(struct writer_sink *ws)
{
	return rvctr_sink__fail(&ws->base, "output failed (write error or out of memory)");
}

struct rvctr_sink *writer_sink__open(const struct rvctr_sink_info *info,
				     const struct perf_event_attr *attrs,
				     const char *const *names, unsigned int nr,
				     char *err, size_t errlen)
{
	struct writer_sink *ws = calloc(1, sizeof(*ws));
	int fd;

	if (!ws) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	fd = info->out ? rvctr_output__fd(info->out) : -1;
	ws->w = fd >= 0 ? rvctr_writer__fdopen(fd, info->path, attrs, names, nr, err, errlen) :
			  rvctr_writer__open(info->path, attrs, names, nr, err, errlen);
	if (!ws->w) {
		free(ws);
		return NULL;
	}
	rvctr_writer__set_arch(ws->w, info->arch ? info->arch : "riscv64");
	ws->local_build_ids = info->local_build_ids;
	return &ws->base;
}

int writer_sink__build_id(struct rvctr_sink *s, const struct rvctr_build_id *b)
{
	struct writer_sink *ws = (struct writer_sink *)s;

	if (rvctr_writer__add_build_id(ws->w, b->pid, b->misc & PERF_RECORD_MISC_CPUMODE_MASK,
				       b->filename, b->id, b->size))
		return writer_sink__failed(ws);
	return 0;
}

/*
 * Build id of a mapped file, for snapshot input only: the user named the
 * binary.  A perf.data's own build ids are copied instead; a local file of
 * the same name may be another build.
 */
static void add_file_build_id(struct writer_sink *ws, const struct rvctr_mmap *m)
{
	struct rvctr_symtab *t;
	uint8_t id[20];
	unsigned int n;
	char err[256];

	if (m->filename[0] != '/')
		return;
	t = rvctr_symtab__load(m->filename, NULL, err, sizeof(err));
	if (!t)
		return;
	n = rvctr_symtab__build_id(t, id);
	if (n)
		rvctr_writer__add_build_id(ws->w, -1, PERF_RECORD_MISC_USER, m->filename, id, n);
	rvctr_symtab__delete(t);
}

int writer_sink__comm(struct rvctr_sink *s, const struct rvctr_event *ev)
{
	struct writer_sink *ws = (struct writer_sink *)s;

	return rvctr_writer__comm(ws->w, &ev->comm, ev->time, ev->cpu) ? writer_sink__failed(ws) : 0;
}

int writer_sink__mmap(struct rvctr_sink *s, const struct rvctr_event *ev)
{
	struct writer_sink *ws = (struct writer_sink *)s;
	const struct rvctr_mmap *m = &ev->mmap;

	if (ws->local_build_ids)
		add_file_build_id(ws, m);
	/* a build id in MMAP2 (perf >= 6.17 by default) goes in the header too */
	if (m->build_id_size && m->filename[0] &&
	    rvctr_writer__add_build_id(ws->w, -1, m->misc & PERF_RECORD_MISC_CPUMODE_MASK,
				       m->filename, m->build_id, m->build_id_size))
		return writer_sink__failed(ws);
	return rvctr_writer__mmap2(ws->w, m, ev->time, ev->cpu) ? writer_sink__failed(ws) : 0;
}

int writer_sink__task(struct rvctr_sink *s, const struct rvctr_event *ev)
{
	struct writer_sink *ws = (struct writer_sink *)s;

	return rvctr_writer__task(ws->w, ev->type, &ev->task, ev->cpu) ? writer_sink__failed(ws) : 0;
}

int writer_sink__round(struct rvctr_sink *s)
{
	struct writer_sink *ws = (struct writer_sink *)s;

	return rvctr_writer__finished_round(ws->w) ? writer_sink__failed(ws) : 0;
}

int writer_sink__nr_cpus(struct rvctr_sink *s, uint32_t avail, uint32_t online)
{
	struct writer_sink *ws = (struct writer_sink *)s;

	return rvctr_writer__set_nr_cpus(ws->w, avail, online) ? writer_sink__failed(ws) : 0;
}

int writer_sink__close(struct rvctr_sink *s)
{
	struct writer_sink *ws = (struct writer_sink *)s;
	return rvctr_writer__close(ws->w, s->err, sizeof(s->err));
}

void writer_sink__abort(struct rvctr_sink *s)
{
	struct writer_sink *ws = (struct writer_sink *)s;
	char err[256];

	rvctr_writer__close(ws->w, err, sizeof(err));
	free(ws);
}

/* The attribute of branch-stack output: the input's event, our sample layout. */
static void perf_attr(const struct perf_event_attr *in, struct perf_event_attr *a)
{
	memset(a, 0, sizeof(*a));
	if (in) {
		a->type = in->type;
		a->config = in->config;
		a->config1 = in->config1;
		a->config2 = in->config2;
		a->sample_period = in->sample_period;
		a->freq = in->freq;
		a->exclude_kernel = in->exclude_kernel;
		a->exclude_user = in->exclude_user;
		a->exclude_hv = in->exclude_hv;
		a->branch_sample_type = in->branch_sample_type &
			~(uint64_t)(PERF_SAMPLE_BRANCH_HW_INDEX | PERF_SAMPLE_BRANCH_COUNTERS);
	} else {
		a->type = PERF_TYPE_HARDWARE;
		a->config = PERF_COUNT_HW_CPU_CYCLES;
		a->sample_period = 1;
		a->branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
	}
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			 PERF_SAMPLE_PERIOD | PERF_SAMPLE_BRANCH_STACK;
	/* a system-wide (-a, -C) recording's CPUs, for perf script -F cpu,
	 * perf report --sort cpu and the non-sample records' sample_id */
	if (in)
		a->sample_type |= in->sample_type & PERF_SAMPLE_CPU;
	/*
	 * Callchains, and the user registers and stack that perf report
	 * unwinds with DWARF (record --call-graph dwarf), as recorded: the
	 * registers under the same mask, since a sample's registers are
	 * named by its bits.  perf script shows callchains only for an
	 * event with PERF_SAMPLE_CALLCHAIN, and --call-graph dwarf sets it
	 * (exclude_callchain_user: the kernel's part only).
	 */
	if (in) {
		a->sample_type |= in->sample_type & (PERF_SAMPLE_CALLCHAIN |
						     PERF_SAMPLE_REGS_USER |
						     PERF_SAMPLE_STACK_USER);
		a->sample_regs_user = in->sample_regs_user;
		a->sample_stack_user = in->sample_stack_user;
		a->sample_max_stack = in->sample_max_stack;
		a->exclude_callchain_user = in->exclude_callchain_user;
		a->exclude_callchain_kernel = in->exclude_callchain_kernel;
	}
	a->sample_id_all = 1;
	a->mmap = a->mmap2 = a->comm = a->task = 1;
}

static struct rvctr_sink *perf_open(const struct rvctr_sink_info *info, char *err, size_t errlen)
{
	struct perf_event_attr a;
	const char *name = info->attr ? info->attr_name : "cycles";

	perf_attr(info->attr, &a);
	return writer_sink__open(info, &a, &name, 1, err, errlen);
}

static int perf_sample(struct rvctr_sink *s, const struct rvctr_sample *smp)
{
	struct writer_sink *ws = (struct writer_sink *)s;
	struct rvctr_sample o = *smp;

	o.attr = 0;
	return rvctr_writer__sample(ws->w, &o) ? writer_sink__failed(ws) : 0;
}

const struct rvctr_sink_ops rvctr_sink_perf = {
	.name = "perf",
	.help = "perf.data with branch stacks",
	.merge_pids = 1,
	.open = perf_open,
	.build_id = writer_sink__build_id,
	.comm = writer_sink__comm,
	.mmap = writer_sink__mmap,
	.task = writer_sink__task,
	.sample = perf_sample,
	.round = writer_sink__round,
	.nr_cpus = writer_sink__nr_cpus,
	.close = writer_sink__close,
	.abort = writer_sink__abort,
};
