/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Output formats of rvctr convert.  Each format is a sink, in its own
 * module (lib/sink-*.c), fed the input's events in time order:
 *
 *   open      the output (a path, "-" for standard output) and what the
 *             input says about itself
 *   build_id  a build id the input recorded (any time before close)
 *   input     another input starts (not called for the first): its pids,
 *             maps and build ids are its own, not the previous input's
 *   comm, mmap, task (FORK/EXIT), sample, round (FINISHED_ROUND)
 *   nr_cpus   an input read whole had HEADER_NRCPUS (CPUs available and
 *             online): perf.data output carries it over (the largest)
 *   close     finish the output and release all but the sink itself (the
 *             caller frees it); 0, or -1 with the reason in err
 *   abort     drop it (after an error), freeing everything
 *
 * Callbacks a format does not need are NULL.  Every callback but open
 * returns 0, or -1 with the reason in sink's err (rvctr_sink__error).
 */
#ifndef RVCTR_SINK_H
#define RVCTR_SINK_H

#include <rvctr/perf_data.h>

struct rvctr_output;
struct rvctr_machine;

struct rvctr_sink_info {
	const char *path;			/* output; "-" is standard output */
	/*
	 * The rvctr_output of @path (as given: messages name it), or NULL:
	 * written through its descriptor (rvctr_output__fd(): a temporary
	 * file, or a descriptor's file), @path opened only when it has none
	 * (an output written in place).
	 */
	const struct rvctr_output *out;
	const struct perf_event_attr *attr;	/* the input's first, or NULL (snapshots) */
	const char *attr_name;
	const char *arch;			/* HEADER_ARCH of perf.data output */
	const char *binary;			/* autofdo: the binary (NULL: busiest) */
	unsigned int window;			/* autofdo, profgen: rvctr_afdo__set_window() */
	/*
	 * The inputs' processes, maps and binaries, fed each event before
	 * the sink is (autofdo: where records go, and the binary's file)
	 */
	struct rvctr_machine *machine;
	int local_build_ids;			/* snapshots: build ids of the files mapped */
	/*
	 * Samples are filtered (the sink sees only those kept): perfscript
	 * then shows a process's maps only once a sample of it is kept.
	 */
	int filtered;
};

struct rvctr_sink {
	const struct rvctr_sink_ops *ops;
	char err[512];
};

struct rvctr_sink_ops {
	const char *name;
	const char *help;
	/* Ranges between taken branches: needs every taken branch recorded. */
	int ranges;
	/* Taken branches only: not-taken records are dropped before (ranges too). */
	int taken_only;
	/*
	 * One pid namespace for all inputs (perf.data): pids of merged inputs
	 * are renumbered before the sink (pidmap.h), after the machine.
	 */
	int merge_pids;
	struct rvctr_sink *(*open)(const struct rvctr_sink_info *info, char *err, size_t errlen);
	int (*build_id)(struct rvctr_sink *s, const struct rvctr_build_id *b);
	int (*input)(struct rvctr_sink *s);
	int (*comm)(struct rvctr_sink *s, const struct rvctr_event *ev);
	int (*mmap)(struct rvctr_sink *s, const struct rvctr_event *ev);
	int (*task)(struct rvctr_sink *s, const struct rvctr_event *ev);
	int (*sample)(struct rvctr_sink *s, const struct rvctr_sample *smp);
	int (*round)(struct rvctr_sink *s);
	int (*nr_cpus)(struct rvctr_sink *s, uint32_t avail, uint32_t online);
	/*
	 * Ranges that show only some binaries (autofdo: one, picked at
	 * close): the binary a record's end at @addr of process @pid goes
	 * to, as an index (>= 0), or -1 when the output can show none
	 * there, the same for [*@start, *@start + *@len) until the
	 * machine's maps change (*@len 0: only @addr); and the index
	 * close() would write (-1: none), with its name.  NULL: every
	 * record of a sample is shown, all one index, 0.
	 */
	int (*part)(struct rvctr_sink *s, uint32_t pid, uint64_t addr, uint64_t *start,
		    uint64_t *len);
	int (*output_part)(struct rvctr_sink *s, const char **name);
	int (*close)(struct rvctr_sink *s);
	void (*abort)(struct rvctr_sink *s);
};

extern const struct rvctr_sink_ops rvctr_sink_perf, rvctr_sink_spe, rvctr_sink_autofdo,
	rvctr_sink_perfscript, rvctr_sink_profgen;

/* The format called @name, or NULL; and the list, NULL-terminated. */
const struct rvctr_sink_ops *rvctr_sink__find(const char *name);
extern const struct rvctr_sink_ops *const rvctr_sinks[];

/* Open a sink of format @ops: NULL with @err on failure. */
struct rvctr_sink *rvctr_sink__open(const struct rvctr_sink_ops *ops,
				    const struct rvctr_sink_info *info, char *err, size_t errlen);
/* Finish (0, or -1 with @err) or drop an open sink; both free it. */
int rvctr_sink__close(struct rvctr_sink *s, char *err, size_t errlen);
void rvctr_sink__abort(struct rvctr_sink *s);

/* Another input starts (after the first): 0, or -1 with the reason in err. */
int rvctr_sink__input(struct rvctr_sink *s);
/* The input's HEADER_NRCPUS: 0, or -1 with the reason in err. */
int rvctr_sink__nr_cpus(struct rvctr_sink *s, uint32_t avail, uint32_t online);

/* Hand one event to the sink's callback for it (others are ignored). */
int rvctr_sink__event(struct rvctr_sink *s, const struct rvctr_event *ev);

/*
 * The ops above: part only of a format that has it; output_part 0 (no
 * name) for a format that shows every record.
 */
int rvctr_sink__part(struct rvctr_sink *s, uint32_t pid, uint64_t addr, uint64_t *start,
		     uint64_t *len);
int rvctr_sink__output_part(struct rvctr_sink *s, const char **name);

/* For the modules: set s->err and return -1. */
int rvctr_sink__fail(struct rvctr_sink *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* RVCTR_SINK_H */
