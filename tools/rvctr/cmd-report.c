// SPDX-License-Identifier: GPL-2.0-only
/* rvctr report: branch statistics of a perf.data or snapshot input. */
#include <getopt.h>
#include <stdlib.h>

#include <rvctr/report.h>
#include "builtin.h"
#include "source.h"

static const char report_usage[] =
	"usage: rvctr report [options] [INPUT]\n"
	"\n"
	"Branch-type histogram, mispredict rate, hottest edges with their cycle\n"
	"latency, and branches by binary and symbol, from INPUT (default perf.data:\n"
	"perf.data with branch stacks, or raw CTR snapshot text).\n"
	"\n"
	"  -n, --top N          rows per table (default 20)\n"
	"      --symfs DIR      look for mapped binaries (and /usr/lib/debug, and\n"
	"                       /proc/kallsyms) under DIR\n"
	"      --buildid-dir DIR  perf's build-id cache (default $PERF_BUILDID_DIR,\n"
	"                       else ~/.debug)\n"
	"      --kallsyms FILE  kernel symbols (a /proc/kallsyms copy)\n"
	"      --vmlinux FILE   kernel symbols from an ELF vmlinux\n"
	"  -b, --binary PATH    snapshots: the program the addresses belong to\n"
	"  -p, --pid N          snapshots: pid (default 1)\n"
	"      --misp           snapshots: the hart implements ctrtarget.MISP\n"
	"      --progress       show progress even when stderr is not a terminal\n"
	"  -h, --help           this text\n";

/* The recording's arch and build ids, so symbols come from the right files. */
static void describe_files(struct rvctr_report *r, const struct rvctr_reader *rd)
{
	unsigned int i;

	rvctr_report__set_arch(r, rd ? rvctr_reader__arch(rd) : "riscv64");
	for (i = 0; rd && i < rvctr_reader__nr_build_ids(rd); i++)
		rvctr_report__build_id(r, rvctr_reader__build_id(rd, i));
}

static int run(struct rvctr_report *r, struct source *src, unsigned int top, int force)
{
	struct rvctr_event ev;
	struct progress p;
	uint64_t n = 0;
	int ret;

	progress__init(&p, "reading", force);
	while ((ret = source__next(src, &ev)) > 0) {
		if (ev.type == PERF_RECORD_SAMPLE)
			ret = rvctr_report__sample(r, &ev.sample);
		else if (ev.type == PERF_RECORD_MMAP || ev.type == PERF_RECORD_MMAP2)
			ret = rvctr_report__mmap(r, &ev.mmap);
		else
			ret = 0;
		if (ret)
			return error("out of memory (or more than 65536 mmaps)");
		if (!(++n & 0xfff))
			progress__update(&p, source__progress(src));
	}
	progress__done(&p);
	if (ret < 0)
		return error("%s", source__error(src));
	if (!rvctr_report__nr_branches(r))
		return error("no branch records in the input (was it recorded with -b / branch stacks?)");
	return rvctr_report__print(r, stdout, top) ? error("write error") : 0;
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "top", required_argument, NULL, 'n' },
		{ "symfs", required_argument, NULL, 's' },
		{ "buildid-dir", required_argument, NULL, 'B' },
		{ "kallsyms", required_argument, NULL, 'K' },
		{ "vmlinux", required_argument, NULL, 'V' },
		{ "binary", required_argument, NULL, 'b' },
		{ "pid", required_argument, NULL, 'p' },
		{ "misp", no_argument, NULL, 'm' },
		{ "progress", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct source_opts so = { .pid = 1 };
	const char *symfs = NULL, *buildid_dir = NULL, *kallsyms = NULL, *vmlinux = NULL;
	unsigned int top = 20;
	struct rvctr_report *r;
	struct source *src;
	int opt, progress = 0, ret;
	char err[512];

	while ((opt = getopt_long(argc, argv, "n:b:p:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'n': top = strtoul(optarg, NULL, 0); break;
		case 's': symfs = optarg; break;
		case 'B': buildid_dir = optarg; break;
		case 'K': kallsyms = optarg; break;
		case 'V': vmlinux = optarg; break;
		case 'b': so.binary = optarg; break;
		case 'p': so.pid = strtoul(optarg, NULL, 0); break;
		case 'm': so.has_misp = 1; break;
		case 'P': progress = 1; break;
		case 'h': fputs(report_usage, stdout); return 0;
		default: fputs(report_usage, stderr); return 2;
		}
	}
	if (argc - optind > 1) {
		fputs(report_usage, stderr);
		return 2;
	}
	src = source__open(optind < argc ? argv[optind] : "perf.data", &so, err, sizeof(err));
	if (!src)
		return error("%s", err);
	r = rvctr_report__new(symfs);
	if (r) {
		rvctr_report__set_lookup(r, buildid_dir, kallsyms, vmlinux);
		describe_files(r, source__reader(src));
	}
	ret = r ? run(r, src, top, progress) : error("out of memory");
	rvctr_report__delete(r);
	source__close(src);
	return ret;
}
