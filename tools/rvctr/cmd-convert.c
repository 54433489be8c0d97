// SPDX-License-Identifier: GPL-2.0-only
/*
 * rvctr convert: inputs (perf.data, pipe-mode perf.data, raw CTR snapshot
 * text) to one output format, a sink (rvctr/sink.h).  The output is
 * written under a temporary name and renamed only when it is complete.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <rvctr/autofdo.h>
#include <rvctr/brstack.h>
#include <rvctr/ctr.h>
#include <rvctr/machine.h>
#include <rvctr/ntbr.h>
#include <rvctr/output.h>
#include <rvctr/sink.h>
#include <riscv_ctr_rec.h>
#include "builtin.h"
#include "filter.h"
#include "pidmap.h"
#include "source.h"

#define MAX_INPUTS	256

static const char convert_usage[] =
	"usage: rvctr convert [options] -f FORMAT -o OUTPUT [INPUT...]\n"
	"\n"
	"INPUT (default perf.data; also -i INPUT; - is standard input) is perf.data\n"
	"with branch stacks (from perf record -b or rvctr record; file or pipe mode,\n"
	"compressed or not) or the driver's raw CTR snapshot text.  Several inputs\n"
	"make one output (one profile).\n"
	"\n"
	"  -f, --format FORMAT  perf        perf.data with branch stacks\n"
	"                       spe         SPE-like per-branch samples (events branch,\n"
	"                                   branch-miss; ip=source, addr=target,\n"
	"                                   weight=cycles, brstack=[this,\n"
	"                                   {0, previous target}], as perf's SPE)\n"
	"                       autofdo     AutoFDO text profile for create_llvm_prof /\n"
	"                                   create_gcov --profiler text (one binary)\n"
	"                       perfscript  perf-script text for llvm-profgen --perfscript\n"
	"                       profgen     llvm-profgen's unsymbolized profile, for\n"
	"                                   llvm-profgen --unsymbolized-profile (one\n"
	"                                   binary; the fastest way to a sample profile)\n"
	"  -o, --output FILE    output file (required; - is standard output, perf.data\n"
	"                       then in pipe mode)\n"
	"  -i, --input FILE     an input (may be given several times)\n"
	"  -b, --binary PATH    snapshots: the program the addresses belong to (adds its\n"
	"                       COMM and MMAP2); autofdo: the binary to profile\n"
	"                       ([kernel.kallsyms]: the kernel; default: the busiest,\n"
	"                       the one with the most branch records)\n"
	"      --window N       autofdo, profgen: count only what ran in the last N\n"
	"                       instructions before each sample (0, the default: whole\n"
	"                       stacks, as AutoFDO counts); for stacks sampled on\n"
	"                       instructions or cycles, where whole stacks over-count\n"
	"                       straight code (128: profile-bench)\n"
	"      --symfs DIR      look for binaries (autofdo's, and those whose code tells\n"
	"                       ctr_ntbr records apart) under DIR (and DIR/usr/lib/\n"
	"                       debug/.build-id) when the recorded path is not the file\n"
	"      --buildid-dir DIR  perf's build-id cache (default $PERF_BUILDID_DIR, else\n"
	"                       ~/.debug), searched first by the recorded build id\n"
	"      --vmlinux FILE   the kernel's code, to tell its ctr_ntbr records apart\n"
	"  -p, --pid LIST       only samples of these processes; snapshots: the first is\n"
	"                       the pid samples are attributed to (default 1)\n"
	FILTER_USAGE
	"                       (perfscript: a process's MMAP2 lines only with a\n"
	"                       sample of it kept)\n"
	"      --misp           snapshots: the hart implements ctrtarget.MISP\n"
	"      --arch NAME      HEADER_ARCH of perf.data output (default: the input's,\n"
	"                       else riscv64)\n"
	"      --force          make autofdo/perfscript output from a recording that\n"
	"                       lacks taken branches (type filter, call stack) or has\n"
	"                       not-taken ones not all told from taken ones where the\n"
	"                       output shows them (their binary unread or not the\n"
	"                       recorded one; these are then dropped, as spe output\n"
	"                       always drops them)\n"
	"      --progress       show progress even when stderr is not a terminal\n"
	"  -h, --help           this text\n";

struct convert {
	const struct rvctr_sink_ops *ops;
	struct rvctr_sink *sink;
	const char *output;
	struct rvctr_output out;	/* written under a temporary name */
	char *binary;			/* -b, an absolute path (binary_path()) */
	const char *arch;
	struct filter *filter;
	struct pidmap *pids;		/* NULL: the sink keeps inputs apart */
	struct source_opts so;
	struct rvctr_symfind find;
	struct rvctr_symfind code;	/* find, and --vmlinux: binaries whose code
					 * tells ctr_ntbr records apart */
	int force, progress;
	unsigned int window;		/* --window */
	const char *path;		/* the input being converted */
	struct rvctr_machine *machine;	/* the inputs' processes, maps, binaries */
	struct rvctr_ntbr *ntbr;	/* tells ctr_ntbr's not-taken records apart */
	int halted;			/* refused already: nothing more is written */
	uint64_t samples, no_branches;
	struct perf_branch_entry taken[RVCTR_MAX_BRANCHES];
	char err[512];
};

/*
 * The machine (its binaries' symbols of the output's arch), the sink fed
 * after it, and the not-taken classifier for what the sink shows.
 */
static int open_sink(struct convert *c, const struct rvctr_reader *r)
{
	struct rvctr_sink_info info = {
		.path = rvctr_output__name(&c->out),
		.out = &c->out,
		.attr = r ? rvctr_reader__attr(r, 0) : NULL,
		.attr_name = r ? rvctr_reader__attr_name(r, 0) : NULL,
		.arch = c->arch,
		.binary = c->binary,
		.window = c->window,
		.local_build_ids = !r,
		.filtered = filter__active(c->filter),
	};

	if (!info.arch)
		info.arch = r && rvctr_reader__arch(r) ? rvctr_reader__arch(r) : "riscv64";
	c->find.machine = rvctr_symtab__arch_machine(info.arch);
	c->machine = rvctr_machine__new(&c->find, &c->code);
	if (!c->machine) {
		snprintf(c->err, sizeof(c->err), "out of memory");
		return -1;
	}
	info.machine = c->machine;
	c->sink = rvctr_sink__open(c->ops, &info, c->err, sizeof(c->err));
	if (!c->sink)
		return -1;
	c->ntbr = rvctr_ntbr__new(c->machine, c->sink);
	if (c->ntbr)
		return 0;
	snprintf(c->err, sizeof(c->err), "out of memory");
	return -1;
}

/*
 * Range outputs need every taken branch and only those: refuse recordings
 * that lack some or add not-taken ones, unless --force (the not-taken ones
 * are then dropped, see drop_not_taken()).  -1 to refuse, else 0.
 *
 * ctr_ntbr alone adds not-taken records to a complete trace: they are
 * dropped exactly when the binaries tell each COND to 4 bytes on apart,
 * so such a recording is refused only when a record that stays ambiguous
 * can change what the output shows (rvctr_ntbr__check()).
 */
static int check_ranges(struct convert *c, const char *path, const struct rvctr_reader *r)
{
	const char *arch = rvctr_reader__arch(r);
	unsigned int i;
	char why[256];

	for (i = 0; i < rvctr_reader__nr_attrs(r); i++) {
		const struct perf_event_attr *a = rvctr_reader__attr(r, i);

		if (rvctr_brstack__complete(a, rvctr_reader__attr_config3(r, i), arch, why,
					    sizeof(why)) ||
		    rvctr_brstack__all_taken(a, why, sizeof(why)))
			continue;	/* complete, or only ctr_ntbr */
		if (!c->force) {
			snprintf(c->err, sizeof(c->err), "%s: no %s output: %s (--force converts "
				 "it anyway)", path, c->ops->name, why);
			return -1;
		}
		fprintf(stderr, "rvctr: warning: %s: %s; converting anyway (--force)\n", path, why);
	}
	return 0;
}

/*
 * Snapshot text says what CTR was set to record: RASEMU in a snapshot's
 * sctrctl is call-stack mode, an inhibited transfer type or NTBREN what a
 * filter or ctr_ntbr is in an attribute.  -1 to refuse, else 0.
 */
static int check_snapshot_ctl(struct convert *c, const char *path, uint64_t ctl, int *warned)
{
	char why[256];

	if (rvctr_brstack__ctl_complete(ctl, why, sizeof(why)))
		return 0;
	if (!c->force) {
		snprintf(c->err, sizeof(c->err), "%s: no %s output: %s (--force converts it "
			 "anyway)", path, c->ops->name, why);
		return -1;
	}
	if (!*warned)
		fprintf(stderr, "rvctr: warning: %s: %s; converting anyway (--force)\n", path, why);
	*warned = 1;
	return 0;
}

/*
 * Not-taken records are no taken branches: outputs of taken branches
 * (ranges, SPE-like samples) never get them.  perf.data output keeps
 * what was recorded.  A range output that shows every record of a
 * sample is refused at its first undecided one: nothing more is
 * written, the input is read on to count them.
 */
static void drop_not_taken(struct convert *c, struct source *src, struct rvctr_sample *s)
{
	if (!c->ops->ranges && !c->ops->taken_only)
		return;
	source__drop_not_taken(src, s, c->ntbr, c->taken);
	if (c->ops->ranges && !c->force && !c->ops->output_part &&
	    rvctr_ntbr__undecided(c->ntbr, 0))
		c->halted = 1;
}

static void print_warnings(const char *path, const struct rvctr_reader *r)
{
	unsigned int i;

	if (!r)
		return;
	for (i = 0; i < rvctr_reader__nr_warnings(r); i++)
		fprintf(stderr, "rvctr: warning: %s: %s\n", path, rvctr_reader__warning(r, i));
	if (rvctr_reader__nr_unordered(r))
		fprintf(stderr, "rvctr: warning: %s: %llu records came after their round was "
			"delivered (out of order)\n", path,
			(unsigned long long)rvctr_reader__nr_unordered(r));
}

static int emit(void *arg, const struct rvctr_event *ev)
{
	struct convert *c = arg;

	return rvctr_sink__event(c->sink, ev);
}

/*
 * Input @path starts: the first opens the output; another is a recording
 * whose pids, maps and build ids are its own.  0, -1 with c->err, or 1
 * when the sink failed (its err).
 */
static int start_input(struct convert *c, const char *path, const struct rvctr_reader *r)
{
	unsigned int i;

	c->path = path;
	if (r && c->ops->ranges && check_ranges(c, path, r))
		return -1;
	if (!c->sink) {
		if (open_sink(c, r))
			return -1;
	} else {
		rvctr_machine__input(c->machine);
		if (rvctr_sink__input(c->sink))
			return 1;
	}
	rvctr_ntbr__input(c->ntbr, path);
	if (c->pids && pidmap__input(c->pids, path, emit, c))
		return 1;
	rvctr_machine__set_arch(c->machine, r ? rvctr_reader__arch(r) : NULL);
	for (i = 0; r && i < rvctr_reader__nr_build_ids(r); i++) {
		if (rvctr_machine__build_id(c->machine, rvctr_reader__build_id(r, i))) {
			snprintf(c->err, sizeof(c->err), "out of memory");
			return -1;
		}
		if (c->ops->build_id && c->ops->build_id(c->sink, rvctr_reader__build_id(r, i)))
			return 1;
	}
	return 0;
}

/*
 * One event: to the machine first, then (a sample kept by the filters,
 * its not-taken records dropped) to the sink.  0, -1 with c->err, or 1
 * when the sink failed.
 */
static int convert_event(struct convert *c, struct source *src, struct rvctr_event *ev,
			 struct progress *p, int *warned)
{
	if (rvctr_machine__event(c->machine, ev) > 0)
		fprintf(stderr, "rvctr: warning: %s: some maps were not kept (too many maps or "
			"binaries, or out of memory): samples and branches in them are not "
			"placed\n", c->path);
	if (ev->type == PERF_RECORD_SAMPLE) {
		if (!source__reader(src) && c->ops->ranges &&
		    check_snapshot_ctl(c, c->path, source__snapshot_ctl(src), warned))
			return -1;
		if (!filter__keep(c->filter, c->machine, &ev->sample))
			return 0;
		c->samples++;
		c->no_branches += !ev->sample.nr_branches;
		drop_not_taken(c, src, &ev->sample);
		if (!(c->samples & 0xfff))
			progress__update(p, source__progress(src));
	}
	if (c->halted)
		return 0;
	return (c->pids ? pidmap__event(c->pids, ev, emit, c) : emit(c, ev)) ? 1 : 0;
}

/* The end of an input: what the reader and the classifier have to say of it. */
static void finish_input(struct convert *c, struct source *src, const char *path,
			 struct progress *p)
{
	progress__done(p);
	print_warnings(path, source__reader(src));
	/* an output that shows every record: the undecided ones of this input */
	if (!c->ops->part && !(c->ops->ranges && !c->force))
		rvctr_ntbr__warn_input(c->ntbr);
}

/*
 * The input's HEADER_NRCPUS to the sink, once the input is read whole:
 * pipe mode may give it last (rvctr's own does).  0, or 1 when the sink
 * failed.
 */
static int input_nr_cpus(struct convert *c, const struct rvctr_reader *r)
{
	uint32_t avail, online;

	if (!r || !rvctr_reader__nr_cpus(r, &avail, &online))
		return 0;
	return rvctr_sink__nr_cpus(c->sink, avail, online) ? 1 : 0;
}

static int convert_one(struct convert *c, const char *path)
{
	struct source *src = source__open(path, &c->so, c->err, sizeof(c->err));
	struct rvctr_event ev;
	struct progress p;
	int ret, next = 0, warned = 0;

	if (!src)
		return -1;
	ret = start_input(c, path, source__reader(src));
	if (!ret)
		progress__init(&p, "converting", c->progress);
	while (!ret && (next = source__next(src, &ev)) > 0)
		ret = convert_event(c, src, &ev, &p, &warned);
	/* records held back for their process's pid end with their input */
	if (!ret && next >= 0 && c->pids && pidmap__flush(c->pids, emit, c))
		ret = 1;
	if (!ret && next >= 0)
		ret = input_nr_cpus(c, source__reader(src));
	if (ret > 0)
		snprintf(c->err, sizeof(c->err), "%s",
			 c->sink->err[0] ? c->sink->err : "out of memory");
	if (!ret)
		finish_input(c, src, path, &p);
	if (!ret && next < 0) {
		snprintf(c->err, sizeof(c->err), "%s: %s", path, source__error(src));
		ret = -1;
	}
	source__close(src);
	return ret ? -1 : 0;
}

static int run(struct convert *c, char **inputs, unsigned int nr)
{
	unsigned int i;

	/*
	 * perf.data output holds one pid namespace: the processes of several
	 * recordings that share a pid are kept apart (pidmap.h), renumbered
	 * between the machine and the sink: the machine sees each input's
	 * own pids (rvctr/machine.h).  The other outputs keep each input's
	 * processes apart themselves (sink input()).
	 */
	if (nr > 1 && c->ops->merge_pids) {
		c->pids = pidmap__new();
		if (!c->pids)
			return error("out of memory");
	}
	/*
	 * Renamed into place on success, an earlier file overwritten
	 * (rvctr/output.h); perf.data 0600, as perf writes it.
	 */
	if (rvctr_output__begin(&c->out, c->output,
				c->ops == &rvctr_sink_perf || c->ops == &rvctr_sink_spe ?
				RVCTR_OUTPUT_PRIVATE : 0, c->err, sizeof(c->err)))
		return error("%s", c->err);
	for (i = 0; i < nr; i++)
		if (convert_one(c, inputs[i]))
			goto fail;
	if (rvctr_ntbr__check(c->ntbr, c->sink, c->force, c->err, sizeof(c->err)))
		goto fail;
	if (rvctr_sink__close(c->sink, c->err, sizeof(c->err))) {
		c->sink = NULL;
		goto fail;
	}
	c->sink = NULL;
	if (rvctr_output__commit(&c->out, c->err, sizeof(c->err)))
		goto fail;
	if (c->no_branches)
		fprintf(stderr, "rvctr: %llu of %llu samples had no branch stack\n",
			(unsigned long long)c->no_branches, (unsigned long long)c->samples);
	if (filter__dropped(c->filter))
		fprintf(stderr, "rvctr: %llu samples filtered out\n",
			(unsigned long long)filter__dropped(c->filter));
	return 0;
fail:
	rvctr_sink__abort(c->sink);
	c->sink = NULL;
	rvctr_output__abort(&c->out);
	return error("%s", c->err);
}

int cmd_convert(int argc, char **argv)
{
	enum {
		O_MISP = 256, O_ARCH, O_PROGRESS, O_FORCE, O_TID, O_COMM, O_DSO, O_SYMFS,
		O_BUILDID_DIR, O_VMLINUX, O_WINDOW,
	};
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "input", required_argument, NULL, 'i' },
		{ "binary", required_argument, NULL, 'b' },
		{ "window", required_argument, NULL, O_WINDOW },
		{ "symfs", required_argument, NULL, O_SYMFS },
		{ "buildid-dir", required_argument, NULL, O_BUILDID_DIR },
		{ "vmlinux", required_argument, NULL, O_VMLINUX },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, O_TID },
		{ "comm", required_argument, NULL, O_COMM },
		{ "dso", required_argument, NULL, O_DSO },
		{ "misp", no_argument, NULL, O_MISP },
		{ "arch", required_argument, NULL, O_ARCH },
		{ "force", no_argument, NULL, O_FORCE },
		{ "progress", no_argument, NULL, O_PROGRESS },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	static char default_input[] = "perf.data";
	struct convert c = { .so = { .pid = 1 } };
	char *inputs[MAX_INPUTS];
	unsigned int nr = 0, have_pid = 0;
	int opt, ret;

	c.filter = filter__new();
	if (!c.filter)
		return error("out of memory");
	while ((opt = getopt_long(argc, argv, "f:o:i:b:p:h", opts, NULL)) != -1) {
		const char *what = NULL;

		switch (opt) {
		case 'f':
			c.ops = rvctr_sink__find(optarg);
			if (!c.ops) {
				free(c.binary);
				filter__delete(c.filter);
				return error("unknown format '%s' (perf, spe, autofdo, perfscript, profgen)",
					     optarg);
			}
			break;
		case 'o': c.output = optarg; break;
		case 'i':
			if (nr == MAX_INPUTS)
				goto usage;
			inputs[nr++] = optarg;
			break;
		case 'b':
			free(c.binary);
			c.binary = binary_path(optarg);
			if (!c.binary) {
				filter__delete(c.filter);
				return error("out of memory");
			}
			c.so.binary = c.binary;
			break;
		case O_SYMFS: c.find.symfs = optarg; break;
		case O_BUILDID_DIR: c.find.buildid_dir = optarg; break;
		case O_VMLINUX: c.code.vmlinux = optarg; break;
		case 'p':
			what = "pid";
			if (!have_pid++)
				c.so.pid = strtoul(optarg, NULL, 0);
			break;
		case O_TID: what = "tid"; break;
		case O_COMM: what = "comm"; break;
		case O_DSO: what = "dso"; break;
		case O_MISP: c.so.has_misp = 1; break;
		case O_ARCH: c.arch = optarg; break;
		case O_FORCE: c.force = 1; break;
		case O_WINDOW: {
			char *end;
			unsigned long n = strtoul(optarg, &end, 0);

			if (!*optarg || *end || n > RVCTR_AFDO_MAX_WINDOW) {
				free(c.binary);
				filter__delete(c.filter);
				return error("--window: not a number of instructions up to %u: '%s'",
					     RVCTR_AFDO_MAX_WINDOW, optarg);
			}
			c.window = n;
			break;
		}
		case O_PROGRESS: c.progress = 1; break;
		case 'h':
			fputs(convert_usage, stdout);
			free(c.binary);
			filter__delete(c.filter);
			return 0;
		default:
			goto usage;
		}
		if (what && filter__add(c.filter, what, optarg, c.err, sizeof(c.err))) {
			free(c.binary);
			filter__delete(c.filter);
			return error("%s", c.err);
		}
	}
	while (optind < argc && nr < MAX_INPUTS)
		inputs[nr++] = argv[optind++];
	if (!c.ops || !c.output || optind < argc)
		goto usage;
	if (!nr)
		inputs[nr++] = default_input;
	c.code.symfs = c.find.symfs;
	c.code.buildid_dir = c.find.buildid_dir;
	if (rvctr_symtab__check_find(&c.find, c.err, sizeof(c.err))) {
		free(c.binary);
		filter__delete(c.filter);
		return error("%s", c.err);
	}
	ret = run(&c, inputs, nr);
	rvctr_ntbr__delete(c.ntbr);
	rvctr_machine__delete(c.machine);
	pidmap__delete(c.pids);
	free(c.binary);
	filter__delete(c.filter);
	return ret;
usage:
	fputs(convert_usage, stderr);
	free(c.binary);
	filter__delete(c.filter);
	return 2;
}
