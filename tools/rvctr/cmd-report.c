// SPDX-License-Identifier: GPL-2.0-only
/* rvctr report: branch statistics of perf.data or snapshot inputs. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <rvctr/machine.h>
#include <rvctr/ntbr.h>
#include <rvctr/report.h>
#include "builtin.h"
#include "filter.h"
#include "source.h"

#define MAX_INPUTS	256

static const char report_usage[] =
	"usage: rvctr report [options] [INPUT...]\n"
	"\n"
	"Branch-type histogram, mispredict rate, hottest edges with their cycle\n"
	"latency, and branches by binary and symbol, from INPUT (default perf.data;\n"
	"also -i INPUT; - is standard input; several are added up): perf.data with\n"
	"branch stacks, or raw CTR snapshot text.\n"
	"\n"
	"  -i, --input FILE     an input (may be given several times)\n"
	"  -n, --top N          rows per table (default 20)\n"
	"      --symfs DIR      look for mapped binaries (and /usr/lib/debug, and\n"
	"                       /proc/kallsyms) under DIR\n"
	"      --buildid-dir DIR  perf's build-id cache (default $PERF_BUILDID_DIR,\n"
	"                       else ~/.debug)\n"
	"      --kallsyms FILE  kernel symbols (a /proc/kallsyms copy)\n"
	"      --vmlinux FILE   kernel symbols from an ELF vmlinux\n"
	"  -b, --binary PATH    snapshots: the program the addresses belong to\n"
	"  -p, --pid LIST       only samples of these processes; snapshots: the first is\n"
	"                       the pid samples are attributed to (default 1)\n"
	FILTER_USAGE
	"      --misp           snapshots: the hart implements ctrtarget.MISP\n"
	"      --progress       show progress even when stderr is not a terminal\n"
	"  -h, --help           this text\n";

/* Where report's inputs go: the machine, what tells not-taken records apart, the tables. */
struct report_ctx {
	struct rvctr_machine *machine;
	struct rvctr_ntbr *ntbr;
	struct rvctr_report *report;
	struct filter *filter;
};

/* The recording's arch and build ids, so symbols come from the right files. */
static int describe_files(struct rvctr_machine *m, const struct rvctr_reader *rd)
{
	unsigned int i;

	rvctr_machine__set_arch(m, rd ? rvctr_reader__arch(rd) : "riscv64");
	for (i = 0; rd && i < rvctr_reader__nr_build_ids(rd); i++)
		if (rvctr_machine__build_id(m, rvctr_reader__build_id(rd, i)))
			return -1;
	return 0;
}

/* One event: the machine's, and a sample kept to the tables.  0, or -1 out of memory. */
static int report_event(struct report_ctx *x, struct source *src, struct rvctr_event *ev,
			const char *path)
{
	static struct perf_branch_entry taken[RVCTR_MAX_BRANCHES];
	struct rvctr_sample *smp = &ev->sample;

	if (rvctr_machine__event(x->machine, ev) > 0)
		fprintf(stderr, "rvctr: warning: %s: some maps were not kept (too many maps "
			"or binaries, or out of memory): samples in them are not "
			"attributed\n", path);
	if (ev->type != PERF_RECORD_SAMPLE || !filter__keep(x->filter, x->machine, smp))
		return 0;
	rvctr_report__not_taken(x->report, source__drop_not_taken(src, smp, x->ntbr, taken));
	return rvctr_report__sample(x->report, smp);
}

static int report_one(struct report_ctx *x, const char *path, const struct source_opts *so,
		      int force)
{
	const struct rvctr_reader *rd;
	struct rvctr_event ev;
	struct progress p;
	struct source *src;
	uint64_t n = 0;
	unsigned int i;
	char err[512];
	int ret;

	src = source__open(path, so, err, sizeof(err));
	if (!src)
		return error("%s", err);
	rd = source__reader(src);
	/* a recording's pids and maps are its own, not an earlier input's */
	rvctr_machine__input(x->machine);
	rvctr_ntbr__input(x->ntbr, path);
	if (describe_files(x->machine, rd)) {
		source__close(src);
		return error("out of memory");
	}
	progress__init(&p, "reading", force);
	while ((ret = source__next(src, &ev)) > 0) {
		if (report_event(x, src, &ev, path)) {
			ret = error("out of memory");
			break;
		}
		if (!(++n & 0xfff))
			progress__update(&p, source__progress(src));
	}
	progress__done(&p);
	for (i = 0; rd && i < rvctr_reader__nr_warnings(rd); i++)
		fprintf(stderr, "rvctr: warning: %s: %s\n", path, rvctr_reader__warning(rd, i));
	rvctr_ntbr__warn_input(x->ntbr);
	if (ret < 0)
		ret = error("%s: %s", path, source__error(src));
	source__close(src);
	return ret;
}

/*
 * Every input, then the tables.  The machine finds symbols and code
 * (ctr_ntbr records' instructions) by @find alike.
 */
static int run(char **inputs, unsigned int nr, const struct rvctr_symfind *find,
	       const struct source_opts *so, struct filter *f, int progress, unsigned int top)
{
	struct report_ctx x = { .filter = f };
	unsigned int i;
	int ret = 0;

	x.machine = rvctr_machine__new(find, find);
	x.ntbr = x.machine ? rvctr_ntbr__new(x.machine, NULL) : NULL;
	x.report = x.machine ? rvctr_report__new(x.machine) : NULL;
	if (!x.ntbr || !x.report)
		ret = error("out of memory");
	for (i = 0; !ret && i < nr; i++)
		ret = report_one(&x, inputs[i], so, progress);
	if (!ret && !rvctr_report__nr_branches(x.report))
		ret = error("no branch records in the input (was it recorded with -b / branch stacks?)");
	if (!ret && rvctr_report__print(x.report, stdout, top))
		ret = error("write error");
	rvctr_report__delete(x.report);
	rvctr_ntbr__delete(x.ntbr);
	rvctr_machine__delete(x.machine);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	enum {
		O_SYMFS = 256, O_MISP, O_PROGRESS, O_TID, O_COMM, O_DSO,
		O_BUILDID_DIR, O_KALLSYMS, O_VMLINUX,
	};
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "top", required_argument, NULL, 'n' },
		{ "symfs", required_argument, NULL, O_SYMFS },
		{ "buildid-dir", required_argument, NULL, O_BUILDID_DIR },
		{ "kallsyms", required_argument, NULL, O_KALLSYMS },
		{ "vmlinux", required_argument, NULL, O_VMLINUX },
		{ "binary", required_argument, NULL, 'b' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, O_TID },
		{ "comm", required_argument, NULL, O_COMM },
		{ "dso", required_argument, NULL, O_DSO },
		{ "misp", no_argument, NULL, O_MISP },
		{ "progress", no_argument, NULL, O_PROGRESS },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	static char default_input[] = "perf.data";
	struct source_opts so = { .pid = 1 };
	struct rvctr_symfind find;
	const char *symfs = NULL, *buildid_dir = NULL, *kallsyms = NULL, *vmlinux = NULL;
	unsigned int top = 20, nr = 0, have_pid = 0;
	struct filter *f = filter__new();
	char *binary = NULL;		/* -b, an absolute path (binary_path()) */
	char *inputs[MAX_INPUTS], err[512];
	int opt, progress = 0, ret = 0;

	if (!f)
		return error("out of memory");
	while ((opt = getopt_long(argc, argv, "i:n:b:p:h", opts, NULL)) != -1) {
		const char *what = NULL;

		switch (opt) {
		case 'i':
			if (nr == MAX_INPUTS)
				goto usage;
			inputs[nr++] = optarg;
			break;
		case 'n': top = strtoul(optarg, NULL, 0); break;
		case O_SYMFS: symfs = optarg; break;
		case O_BUILDID_DIR: buildid_dir = optarg; break;
		case O_KALLSYMS: kallsyms = optarg; break;
		case O_VMLINUX: vmlinux = optarg; break;
		case 'b':
			free(binary);
			binary = binary_path(optarg);
			if (!binary) {
				filter__delete(f);
				return error("out of memory");
			}
			so.binary = binary;
			break;
		case 'p':
			what = "pid";
			if (!have_pid++)
				so.pid = strtoul(optarg, NULL, 0);
			break;
		case O_TID: what = "tid"; break;
		case O_COMM: what = "comm"; break;
		case O_DSO: what = "dso"; break;
		case O_MISP: so.has_misp = 1; break;
		case O_PROGRESS: progress = 1; break;
		case 'h':
			fputs(report_usage, stdout);
			free(binary);
			filter__delete(f);
			return 0;
		default:
			goto usage;
		}
		if (what && filter__add(f, what, optarg, err, sizeof(err))) {
			free(binary);
			filter__delete(f);
			return error("%s", err);
		}
	}
	while (optind < argc && nr < MAX_INPUTS)
		inputs[nr++] = argv[optind++];
	if (optind < argc)
		goto usage;
	if (!nr)
		inputs[nr++] = default_input;
	/* the binaries whose instructions decide ctr_ntbr records */
	find = (struct rvctr_symfind){ .symfs = symfs, .buildid_dir = buildid_dir,
				       .kallsyms = kallsyms, .vmlinux = vmlinux };
	if (rvctr_symtab__check_find(&find, err, sizeof(err))) {
		free(binary);
		filter__delete(f);
		return error("%s", err);
	}
	ret = run(inputs, nr, &find, &so, f, progress, top);
	free(binary);
	filter__delete(f);
	return ret;
usage:
	fputs(report_usage, stderr);
	free(binary);
	filter__delete(f);
	return 2;
}
