// SPDX-License-Identifier: GPL-2.0-only
/* rvctr topdown: top-down levels 1-3 from counter values. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <rvctr/topdown.h>
#include "builtin.h"

static const char topdown_usage[] =
	"usage: rvctr topdown [options] [COUNTS]\n"
	"       rvctr topdown [options] -- COMMAND [ARGS...]\n"
	"\n"
	"Top-down analysis, levels 1-3, with XiangShan Kunminghu's formulas, from\n"
	"counter values in COUNTS (default: standard input): `perf stat -x,` output\n"
	"(value,unit,event,...) or lines \"EVENT VALUE\".  Events: CPU_CYCLES,\n"
	"INST_RETIRED, INST_SPEC, IF_FETCH_BUBBLE, IF_FETCH_BUBBLE_EQ_MAX, BR_MIS_PRED,\n"
	"TOTAL_FLUSH, RECOVERY_BUBBLE, EXEC_STALL_CYCLE, MEMSTALL_ANYLOAD,\n"
	"MEMSTALL_STORE, MEMSTALL_L1MISS, MEMSTALL_L2MISS, MEMSTALL_L3MISS (perf's\n"
	"cycles, instructions, branch-misses are accepted as aliases).  A metric\n"
	"whose events are missing is shown as n/a with the events it needs.\n"
	"With -- COMMAND, counts the events this machine has while COMMAND runs:\n"
	"cycles, instructions and branch-misses as perf's generic events, the others\n"
	"from the cpu PMU's sysfs event aliases (events/CPU_CYCLES, ...).\n"
	"\n"
	"  -l, --level N        deepest level to show, 1-3 (default 3)\n"
	"  -w, --issue-width N  IssueBW (default 6, Kunminghu)\n"
	"  -h, --help           this text\n";

static int read_counts(FILE *f, struct rvctr_topdown *td)
{
	char line[1024];
	unsigned long n = 0;

	while (fgets(line, sizeof(line), f)) {
		n++;
		if (!strchr(line, '\n') && !feof(f))
			return error("line %lu: too long", n);
		if (rvctr_topdown__parse_line(td, line) < 0)
			return error("line %lu: cannot parse \"%.*s\"", n,
				     (int)strcspn(line, "\n"), line);
	}
	return ferror(f) ? error("read error") : 0;
}

int cmd_topdown(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "level", required_argument, NULL, 'l' },
		{ "issue-width", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	unsigned int level = 3, width = 6;
	struct rvctr_topdown td;
	FILE *f = stdin;
	int opt, ret, run = 0;

	for (opt = 1; opt < argc; opt++)
		run |= !strcmp(argv[opt], "--");
	while ((opt = getopt_long(argc, argv, "+l:w:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'l': level = strtoul(optarg, NULL, 0); break;
		case 'w': width = strtoul(optarg, NULL, 0); break;
		case 'h': fputs(topdown_usage, stdout); return 0;
		default: fputs(topdown_usage, stderr); return 2;
		}
	}
	if (level < 1 || level > 3 || !width || argc - optind > 1 + (run ? argc : 0) ||
	    (run && optind == argc)) {
		fputs(topdown_usage, stderr);
		return 2;
	}
	rvctr_topdown__init(&td, width);
	if (run)
		return topdown_run(argv + optind, &td, level);
	if (optind < argc && !(f = fopen(argv[optind], "r")))
		return error("%s: %m", argv[optind]);
	ret = read_counts(f, &td);
	if (f != stdin)
		fclose(f);
	if (ret)
		return ret;
	if (!td.have)
		return error("no top-down events in the input: this needs counts of %s, %s, ... "
			     "(see rvctr topdown --help); the PMU may not expose them",
			     rvctr_topdown__event_name(TD_CPU_CYCLES),
			     rvctr_topdown__event_name(TD_INST_RETIRED));
	rvctr_topdown__print(&td, stdout, level);
	return 0;
}
